//go:build !cgo

package hexoid

import (
	"context"
	"fmt"
)

// What needs the library, in a build without cgo: an error that is ErrNeedsCgo.

// Audit needs the library: built without cgo, it returns an error that is ErrNeedsCgo.
func Audit(ctx context.Context, path string, opts *AuditOptions, fn func(Finding) error) (AuditSummary, error) {
	return AuditSummary{}, fmt.Errorf("%w: Audit", ErrNeedsCgo)
}

// CheckPush needs the library: built without cgo, it returns an error that is
// ErrNeedsCgo, and a result that is Unchecked, so that a hook fails closed.
func CheckPush(ctx context.Context, repo, quarantine string, updates []RefUpdate, opts *PushOptions) (*PushResult, error) {
	return unchecked(), fmt.Errorf("%w: CheckPush", ErrNeedsCgo)
}

// Repair needs the library: built without cgo, it returns an error that is
// ErrNeedsCgo.
func Repair(ctx context.Context, path string, opts *RepairOptions) (RepairResult, error) {
	return RepairResult{}, fmt.Errorf("%w: Repair", ErrNeedsCgo)
}
