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

// Every call given nil where it takes a pointer, a function, an interface or a context:
// an error or a default, never a panic.
func TestNil(t *testing.T) {
	dir := t.TempDir()
	var ctx context.Context // nil
	if _, err := Audit(ctx, dir, nil, nil); !errors.Is(err, ErrNotAudited) {
		t.Fatalf("Audit: %v", err)
	}
	findings, done := AuditFindings(ctx, dir, nil)
	for range findings {
	}
	if r := <-done; !errors.Is(r.Err, ErrNotAudited) {
		t.Fatalf("AuditFindings: %v", r.Err)
	}
	if _, err := Repair(ctx, dir, nil); !errors.Is(err, ErrNotRepaired) {
		t.Fatalf("Repair: %v", err)
	}
	if res, err := CheckPush(ctx, "", "", nil, nil); !errors.Is(err, ErrPushArgs) || res == nil || res.Verdict != Unchecked {
		t.Fatalf("CheckPush: %+v, %v", res, err)
	}
	if _, err := VerifyListing(nil, FormatOIDs, SHA1, Lower, nil); err != ErrNilReader {
		t.Fatalf("VerifyListing: %v", err)
	}
	if _, err := Decode(nil, nil, SHA1, Lower); err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if _, err := Validate(nil, SHA256, Lower); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if _, err := DecodeStride(nil, nil, 41, SHA1, Lower); err != nil {
		t.Fatalf("DecodeStride: %v", err)
	}
	if _, err := ValidateStride(nil, 41, SHA1, Lower); err != nil {
		t.Fatalf("ValidateStride: %v", err)
	}
	if n, err := Encode(nil, 41, nil, SHA1); n != 0 || err != nil {
		t.Fatalf("Encode: %d, %v", n, err)
	}
	if _, err := DecodeID(nil, nil, Lower); err != ErrLength {
		t.Fatalf("DecodeID: %v", err)
	}
	if _, err := EncodeID(nil, nil); err != ErrLength {
		t.Fatalf("EncodeID: %v", err)
	}
	var e *Error
	var oe *OpenError
	if e.Error() != "<nil>" || oe.Error() != "<nil>" || oe.Unwrap() != nil || oe.Is(ErrNotAudited) {
		t.Fatal("nil errors")
	}
}
