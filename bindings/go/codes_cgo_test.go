//go:build cgo

package hexoid

import "testing"

// The Code constants are the library's list, in its order, and every former name the
// library still reads is read here as the same code.
func TestCodesAreTheLibrarys(t *testing.T) {
	lib := libraryCodes()
	if len(lib) != len(codes) {
		t.Fatalf("the library has %d codes, the package %d", len(lib)-1, len(codes)-1)
	}
	for i := 1; i < len(lib); i++ {
		if lib[i] != codes[i] {
			t.Errorf("code %d: the library says %q, the package %q", i, lib[i], codes[i])
		}
		if got := libraryCodeOf(codes[i]); got != codes[i] {
			t.Errorf("code %d: the library reads %q as %q", i, codes[i], got)
		}
	}
	for old, now := range formerCodes {
		if got := libraryCodeOf(old); got != now || CanonicalCode(old) != now {
			t.Errorf("former %q: the library reads %q, CanonicalCode %q; want %q", old, got, CanonicalCode(old), now)
		}
	}
	if CanonicalCode(CodeSyntax) != CodeSyntax || libraryCodeOf(CodeNoNewline) != "" {
		t.Errorf("a name of today, or the package's own, changed")
	}
}
