package hexoid

import (
	"context"
	"errors"
	"testing"
)

// Every call given nil where it takes a pointer, a function, an interface or a context:
// an error or a default, never a panic.
func TestNil(t *testing.T) {
	dir := t.TempDir()
	var ctx context.Context // nil
	// Without cgo, what needs the library says so instead.
	is := func(err, target error) bool {
		return errors.Is(err, target) || !HaveCgo && errors.Is(err, ErrNeedsCgo)
	}
	if _, err := Audit(ctx, dir, nil, nil); !is(err, ErrNotAudited) {
		t.Fatalf("Audit: %v", err)
	}
	findings, done := AuditFindings(ctx, dir, nil)
	for range findings {
	}
	if r := <-done; !is(r.Err, ErrNotAudited) {
		t.Fatalf("AuditFindings: %v", r.Err)
	}
	if _, err := Repair(ctx, dir, nil); !is(err, ErrNotRepaired) {
		t.Fatalf("Repair: %v", err)
	}
	if res, err := CheckPush(ctx, "", "", nil, nil); !is(err, ErrPushArgs) || res == nil || res.Verdict != Unchecked {
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
