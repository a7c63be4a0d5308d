package hexoid

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Finding is one thing the audit found. Its strings are Go's own: they stay valid.
type Finding struct {
	Code       string // a stable name: "uppercase-id", "bad-id", "not-a-file", ...
	Class      Class  // what it means for Git 3.0
	Area       string // "refs", "packed-refs", ..., "pack-objects", "alternates"
	Path       string // relative to the git directory (or the objects folder)
	Line       int    // in a file of lines or in the object's text, from 1; 0 if none
	Column     int    // from 1; 0 if none
	Object     string // the object's ID in lowercase hex, "" when not about an object
	ObjectType string // "commit" or "tag" for an object's headers, else ""
	Header     string // "tree", "parent", "object", "mergetag object", or ""
	Offset     int64  // in a pack, or -1
	Message    string // one line, for people
}

func (f Finding) String() string {
	if f.Object != "" && f.Header != "" {
		return fmt.Sprintf("[%s] %s: %s %s: %s header, line %d, column %d: %s: %s", f.Area, f.Path,
			f.ObjectType, f.Object, f.Header, f.Line, f.Column, f.Class, f.Message)
	}
	if f.Line != 0 && f.Object == "" {
		return fmt.Sprintf("[%s] %s:%d:%d: %s: %s", f.Area, f.Path, f.Line, f.Column, f.Class, f.Message)
	}
	return fmt.Sprintf("[%s] %s: %s: %s", f.Area, f.Path, f.Class, f.Message)
}

// AuditOptions are the audit's settings; the zero value (or nil) is one thread.
type AuditOptions struct {
	Jobs      int  // threads for the objects; 0 or 1: the calling goroutine's thread only
	VerifyIDs bool // also rehash every commit and tag
	// ObjectsDir: the path is an objects folder outside any repository (a shared
	// object pool, a quarantine); Algo is its hash, AutoAlgo to take it from its
	// contents.
	ObjectsDir bool
	Algo       Algo
	// Exact: the repository at path and no other: path is a git directory, or a folder
	// holding .git; nothing above it is searched (hexoid audit --exact). Without it,
	// the repository is found as git finds it, upward from path, stopping below each
	// folder GIT_CEILING_DIRECTORIES names.
	Exact bool
	// Progress, if set, is called now and then while packs are scanned: what is
	// scanned, and done of total objects. A non-nil error stops the audit.
	Progress func(what string, done, total uint64) error
}

// AreaCount is what one area of the repository held.
type AreaCount struct {
	Area                      string
	Scanned, Git3, Warn, Errs uint64
}

// AuditSummary is what the audit read and found, area by area in report order.
type AuditSummary struct {
	GitDir     string // the (common) git directory, or the objects folder, audited
	Algo       Algo
	RefStorage string // "files", "reftable", or "" for an objects folder
	Areas      []AreaCount
	Total      AreaCount // Area ""
}

// ErrNotAudited wraps why a repository could not be opened or read: an *OpenError when
// it could not be opened.
var ErrNotAudited = errors.New("hexoid: not audited")

// OpenError is why Audit or Repair could not open the repository (or objects folder) at
// Path. errors.Is(err, ErrNotAudited) holds for Audit's, errors.Is(err, ErrNotRepaired)
// for Repair's; when the path itself cannot be reached, Err is the OS's *fs.PathError,
// so that errors.Is(err, fs.ErrNotExist) or fs.ErrPermission holds as well.
type OpenError struct {
	Op   string // "audit" or "repair"
	Path string // as given
	// Code is the library's name for why: "not-found", "unreadable", "not-a-folder",
	// "not-a-repository", "broken-gitdir", "unknown-format", "out-of-memory"; "" when
	// it gives none.
	Code    string
	Message string // the library's line, naming the path
	Err     error  // the OS's error when the path cannot be reached, else nil
}

func (e *OpenError) Error() string {
	if e == nil {
		return "<nil>"
	}
	return "hexoid: not " + e.Op + "ed: " + e.Message
}

// Unwrap is the OS's error, or nil.
func (e *OpenError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// Is holds for ErrNotAudited (Op "audit") and ErrNotRepaired (Op "repair").
func (e *OpenError) Is(target error) bool {
	return e != nil && (target == ErrNotAudited && e.Op == "audit" || target == ErrNotRepaired && e.Op == "repair")
}

// openError is the *OpenError of a failed open: code is the library's name, or "";
// the OS's error comes from a stat of the path, which fails when the library's open
// failed for want of the path itself.
func openError(op, path, code, message string) error {
	e := &OpenError{Op: op, Path: path, Code: code, Message: message}
	if _, err := os.Stat(path); err != nil {
		e.Err = err
		if e.Code == "" && errors.Is(err, fs.ErrNotExist) {
			e.Code = "not-found"
		} else if e.Code == "" && errors.Is(err, fs.ErrPermission) {
			e.Code = "unreadable"
		}
	}
	return e
}

// AuditResult is how an audit ended: its summary (what it read up to its end, or up to
// the stop), and Audit's error.
type AuditResult struct {
	Summary AuditSummary
	Err     error
}

// AuditFindings is Audit with the findings on a channel, closed when the audit ends;
// then the result channel gives Audit's summary and error (nil when done) and is
// closed. A reader that stops reading must cancel ctx, or the audit waits for it; the
// summary then counts the findings sent on the channel, and no other.
func AuditFindings(ctx context.Context, path string, opts *AuditOptions) (<-chan Finding, <-chan AuditResult) {
	if ctx == nil {
		ctx = context.Background()
	}
	findings := make(chan Finding, 16)
	done := make(chan AuditResult, 1)
	go func() {
		sum, err := Audit(ctx, path, opts, func(f Finding) error {
			select {
			case findings <- f:
				return nil
			case <-ctx.Done():
				return notTaken{ctx.Err()}
			}
		})
		close(findings)
		done <- AuditResult{Summary: sum, Err: err}
		close(done)
	}()
	return findings, done
}

// notTaken, from fn, stops the audit with err as a non-nil error does, and says fn did
// not take the finding: the summary does not count it.
type notTaken struct{ err error }

func (e notTaken) Error() string { return e.err.Error() }

// watch calls cancel, from a goroutine of its own, if ctx is done before the returned
// function is called; that function returns only once the goroutine has ended, so the
// C memory cancel touches may be freed after it (defer it before the free's defer runs:
// deferred calls run last first). Once the call is over, a context cancelled meanwhile
// and the end are both ready, and select takes either: cancel then sets a flag no one
// reads any more, which is harmless.
func watch(ctx context.Context, cancel func()) (stop func()) {
	if ctx.Done() == nil {
		return func() {}
	}
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		select {
		case <-ctx.Done():
			cancel()
		case <-done:
		}
	}()
	return func() {
		close(done)
		<-exited
	}
}
