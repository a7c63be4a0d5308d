//go:build cgo

package hexoid

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A path that is not there: the OS's error comes through (errors.Is with
// fs.ErrNotExist, errors.As to *fs.PathError) besides ErrNotAudited or ErrNotRepaired,
// and the library's reason is kept.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none", "repo.git")
	for _, objects := range []bool{false, true} {
		_, err := Audit(context.Background(), missing, &AuditOptions{ObjectsDir: objects}, nil)
		var oe *OpenError
		var pe *fs.PathError
		if !errors.Is(err, ErrNotAudited) || !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrNotRepaired) ||
			!errors.As(err, &oe) || !errors.As(err, &pe) || oe.Code != "not-found" || oe.Path != missing ||
			oe.Op != "audit" || !strings.Contains(err.Error(), missing) {
			t.Fatalf("objects %v: %v (%+v)", objects, err, oe)
		}
	}
	_, err := Repair(context.Background(), missing, nil)
	if !errors.Is(err, ErrNotRepaired) || !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrNotAudited) {
		t.Fatalf("repair: %v", err)
	}
	// A push check of a repository or quarantine that is not there.
	up := []RefUpdate{{Old: strings.Repeat("0", 40), New: strings.Repeat("1", 40), Ref: "refs/heads/x"}}
	for _, c := range [][2]string{{missing, ""}, {dir, missing}} {
		res, err := CheckPush(context.Background(), c[0], c[1], up, nil)
		if !errors.Is(err, ErrPushArgs) || !errors.Is(err, fs.ErrNotExist) || res == nil || res.Verdict != Unchecked {
			t.Fatalf("CheckPush %q %q: %+v, %v", c[0], c[1], res, err)
		}
	}
	// A folder that is there but holds no repository: no OS error, the library's code.
	t.Setenv("GIT_CEILING_DIRECTORIES", dir)
	_, err = Audit(context.Background(), dir, nil, nil)
	var oe *OpenError
	if !errors.As(err, &oe) || oe.Code != "not-a-repository" || oe.Err != nil || errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("empty folder: %v (%+v)", err, oe)
	}
	// A file where a folder is wanted.
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Audit(context.Background(), file, nil, nil); !errors.As(err, &oe) || oe.Code != "not-a-folder" {
		t.Fatalf("file: %v", err)
	}
	if os.Geteuid() != 0 {
		locked := filepath.Join(dir, "locked")
		if err := os.Mkdir(locked, 0o000); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(locked, 0o755)
		_, err := Audit(context.Background(), filepath.Join(locked, "repo"), nil, nil)
		if !errors.Is(err, ErrNotAudited) || !errors.Is(err, fs.ErrPermission) {
			t.Fatalf("unreadable: %v", err)
		}
	}
}

// An empty folder inside a repository: found as git finds it, the repository above;
// with Exact, not a repository, and its summary names nothing.
func TestAuditExact(t *testing.T) {
	repo, _ := plantedRepo(t, SHA1, 1, false)
	sub := filepath.Join(repo, "srv", "sub.git")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	sum, err := Audit(context.Background(), sub, nil, nil)
	if err != nil || sum.Total.Git3 != 1 || filepath.Base(sum.GitDir) != ".git" {
		t.Fatalf("found upward: %+v, %v", sum, err)
	}
	var oe *OpenError
	sum, err = Audit(context.Background(), sub, &AuditOptions{Exact: true}, nil)
	if !errors.As(err, &oe) || oe.Code != "not-a-repository" || sum.GitDir != "" {
		t.Fatalf("exact: %+v, %v", sum, err)
	}
	if sum, err := Audit(context.Background(), repo, &AuditOptions{Exact: true}, nil); err != nil || sum.Total.Git3 != 1 {
		t.Fatalf("exact, the repository itself: %+v, %v", sum, err)
	}
	// Below a ceiling, nothing is found upward either.
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Join(repo, "srv"))
	if _, err := Audit(context.Background(), sub, nil, nil); !errors.As(err, &oe) || oe.Code != "not-a-repository" {
		t.Fatalf("ceiling: %v", err)
	}
}
