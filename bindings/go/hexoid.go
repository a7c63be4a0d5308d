// Package hexoid validates, decodes and encodes hex Git object IDs (SHA-1, 40 hex
// digits; SHA-256, 64) in bulk through libhexoid's SIMD kernels, and checks listings
// of them as git prints them.
//
// Bulk calls (Decode, Validate, Encode) cross into C once for any number of records,
// which pays from a few records on: a cgo call costs about as much as decoding two IDs
// in Go. Single IDs (DecodeID, EncodeID) are decoded in Go, without cgo.
//
// Built without cgo (CGO_ENABLED=0), the package is pure Go: the single-ID calls, the
// bulk calls and their errors give the same results, one ID at a time in Go, and
// VerifyListing checks the listings whose lines hold one ID (bare IDs, pack-objects'
// input, show-ref, .promisor files, ls-remote, packed-refs) as the library does. What needs the library
// (Audit, CheckPush, Repair, VerifyListing of any other format) returns an error that
// is ErrNeedsCgo.
//
// Every function is safe for concurrent use.
package hexoid

import (
	"errors"
	"fmt"
)

// Algo is the hash of the object IDs.
type Algo int

const (
	// AutoAlgo, for listings only: the hash of the first ID, which every later one must match.
	AutoAlgo Algo = 0
	SHA1     Algo = 1 // 40 hex digits, 20 bytes
	SHA256   Algo = 2 // 64 hex digits, 32 bytes
)

// HexSize is 40 or 64, or 0 for an unknown Algo.
func (a Algo) HexSize() int { return 2 * a.RawSize() }

// RawSize is 20 or 32, or 0 for an unknown Algo.
func (a Algo) RawSize() int {
	switch a {
	case SHA1:
		return 20
	case SHA256:
		return 32
	}
	return 0
}

func (a Algo) String() string {
	switch a {
	case SHA1:
		return "sha1"
	case SHA256:
		return "sha256"
	case AutoAlgo:
		return "auto"
	}
	return fmt.Sprintf("Algo(%d)", int(a))
}

// Kind is which hex digits an ID may use. The zero value is Lower, Git 3.0's rule;
// Git 2.x's is asked for by name.
type Kind int

const (
	// Lower accepts only '0'..'9' and 'a'..'f', as Git 3.0 does.
	Lower Kind = 0
	// Mixed accepts 'A'..'F' as well, as Git 2.x does.
	Mixed Kind = 1
)

// Class says what something wrong means for Git 3.0: a bad digit of an ID, a problem
// of a listing, a finding of the audit or of the push check.
type Class int

const (
	// ClassGit3: Git 2.x accepts it, Git 3.0 rejects or ignores it: uppercase hex
	// where only lowercase is accepted.
	ClassGit3 Class = 1
	// ClassError: every git rejects it: not hex, malformed, damaged or unreadable.
	ClassError Class = 2
	// ClassWarn: uppercase that Git 3.0 still accepts (a pack's name, a note's own
	// name); only the audit finds it.
	ClassWarn Class = 3
)

// String is "git3", "error" or "warn", as hexoid audit prints it.
func (c Class) String() string {
	switch c {
	case ClassGit3:
		return "git3"
	case ClassError:
		return "error"
	case ClassWarn:
		return "warn"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// Error describes the first bad record of a call: its index (from 0, in the call's
// records), the column of its first bad byte within the record (from 1, as Problem's
// and Finding's columns), and why.
type Error struct {
	Record int
	Column int
	Class  Class  // ClassGit3 for an uppercase digit alone, else ClassError
	Code   string // the listing checker's name for it: CodeUppercaseID, CodeBadHex, CodeShortID, ...
}

func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	if e.Class == ClassGit3 {
		return fmt.Sprintf("hexoid: record %d, column %d: uppercase hex digit: Git 3.0 accepts only lowercase", e.Record, e.Column)
	}
	switch e.Code {
	case CodeShortID:
		return fmt.Sprintf("hexoid: record %d, column %d: the ID ends before its last digit", e.Record, e.Column)
	case CodeLongID:
		return fmt.Sprintf("hexoid: record %d, column %d: more hex digits after the ID", e.Record, e.Column)
	case CodeCRLF:
		return fmt.Sprintf("hexoid: record %d, column %d: a carriage return before the newline", e.Record, e.Column)
	case CodeLongLine:
		return fmt.Sprintf("hexoid: record %d, column %d: more after the ID than its newline", e.Record, e.Column)
	case CodeNoNewline:
		return fmt.Sprintf("hexoid: record %d, column %d: the last line has no newline", e.Record, e.Column)
	}
	return fmt.Sprintf("hexoid: record %d, column %d: not a hex digit", e.Record, e.Column)
}

var (
	// ErrAlgo: an Algo other than SHA1 or SHA256 where one of them is needed.
	ErrAlgo = errors.New("hexoid: unknown hash algorithm")
	// ErrStride: a stride below the hex size.
	ErrStride = errors.New("hexoid: stride below the hex size of an ID")
	// ErrLength: a single ID that is not 40 or 64 hex digits, or a dst too short for it.
	ErrLength = errors.New("hexoid: an object ID is 40 or 64 hex digits")
	// ErrShortDst: a dst without room for every record of src.
	ErrShortDst = errors.New("hexoid: dst has no room for every record")
	// ErrNeedsCgo: the call needs libhexoid, and the program was built without cgo
	// (CGO_ENABLED=0).
	ErrNeedsCgo = errors.New("hexoid: needs libhexoid: built without cgo (CGO_ENABLED=0)")
)

// Records is how many records of stride bytes src holds for DecodeStride, the last one
// possibly cut after its hexsz digits (a last line without its newline):
// (len-hexsz)/stride + 1.
func Records(src []byte, stride int, algo Algo) int {
	hexsz := algo.HexSize()
	if hexsz == 0 || stride < hexsz || len(src) < hexsz {
		return 0
	}
	return (len(src)-hexsz)/stride + 1
}

func check(stride int, algo Algo) error {
	if algo.RawSize() == 0 {
		return ErrAlgo
	}
	if stride < algo.HexSize() {
		return ErrStride
	}
	return nil
}

// Decode decodes src, which must be exactly lines of one ID each, as git prints them
// (`git rev-list`, pack-objects' output): hexsz hex digits then '\n', every line ended,
// into dst, rawsz bytes each; it returns how many it decoded. dst must have room for
// every line (ErrShortDst, nothing written, otherwise).
//
// The first bad line is an *Error: its Code says what is wrong (uppercase-id, bad-hex,
// short-id, long-id, crlf, long-line: a byte after the ID that is neither a digit nor
// the newline, no-newline: the last line cut before its newline). The lines before it
// are decoded and valid and their count is returned; dst's bytes for the bad line and
// every later one are zeroed. A call that succeeds allocates nothing.
func Decode(dst, src []byte, algo Algo, kind Kind) (int, error) {
	if algo.RawSize() == 0 {
		return 0, ErrAlgo
	}
	stride := algo.HexSize() + 1
	n := (len(src) + stride - 1) / stride
	if len(dst) < n*algo.RawSize() {
		return 0, ErrShortDst
	}
	return strict(dst, src, algo, kind)
}

// Validate checks src as Decode does, writing nothing; it returns how many lines were
// valid before the first bad one (all of them, and nil, when none is bad).
func Validate(src []byte, algo Algo, kind Kind) (int, error) {
	if algo.RawSize() == 0 {
		return 0, ErrAlgo
	}
	return strict(nil, src, algo, kind)
}

// strict decodes (dst nil: checks) the whole lines in one call into C, then finds the
// first line whose end is not '\n' right after the ID; the first of the two wins.
func strict(dst, src []byte, algo Algo, kind Kind) (int, error) {
	hexsz, rawsz := algo.HexSize(), algo.RawSize()
	stride := hexsz + 1
	whole := len(src) / stride
	shape := whole // the first line whose shape is wrong; whole+1: none
	for i := 0; i < whole; i++ {
		if src[i*stride+hexsz] != '\n' {
			shape = i
			break
		}
	}
	if shape == whole && len(src)%stride == 0 {
		shape = whole + 1
	}
	n := whole
	if shape < n {
		n = shape
	}
	if n > 0 {
		if rec, col, class := decodeRecords(dst, src, n, stride, algo, kind); class != 0 {
			line := src[rec*stride : rec*stride+stride]
			e := &Error{Record: rec, Column: col + 1, Class: class, Code: codeOf(class)}
			// A line cut short: the newline (or a CR before it) where a digit should be.
			if nl := indexEOL(line[:hexsz]); nl >= 0 && nl <= col {
				e.Column, e.Class, e.Code = nl+1, ClassError, CodeShortID
			}
			zero(dst, rec*rawsz, (whole+1)*rawsz)
			return rec, e
		}
	}
	if shape > whole {
		return whole, nil
	}
	// The shape of line `shape` is wrong: clear its output and report it.
	zero(dst, shape*rawsz, (whole+1)*rawsz)
	line := src[shape*stride:]
	if len(line) > stride {
		line = line[:stride]
	}
	e := &Error{Record: shape, Class: ClassError}
	if digitsError(e, line[:min(len(line), hexsz)], kind) {
		return shape, e
	}
	switch {
	case len(line) < hexsz:
		e.Column, e.Code = len(line)+1, CodeShortID
	case len(line) == hexsz:
		e.Column, e.Code = hexsz+1, CodeNoNewline
	case line[hexsz] == '\r':
		e.Column, e.Code = hexsz+1, CodeCRLF
	case mixedTable[line[hexsz]]&bad == 0:
		e.Column, e.Code = hexsz+1, CodeLongID
	default:
		e.Column, e.Code = hexsz+1, CodeLongLine
	}
	return shape, e
}

// digitsError fills e for the first bad byte of an ID's digits, as the library ranks
// them (a byte that is no digit at all before an uppercase one; a line end there is a
// short ID), and says whether there was one.
func digitsError(e *Error, digits []byte, kind Kind) bool {
	for i, c := range digits {
		if mixedTable[c]&bad != 0 {
			e.Column, e.Class, e.Code = i+1, ClassError, CodeBadHex
			if c == '\n' || c == '\r' {
				e.Code = CodeShortID
			}
			return true
		}
	}
	if kind == Mixed {
		return false
	}
	for i, c := range digits {
		if lowerTable[c]&bad != 0 {
			e.Column, e.Class, e.Code = i+1, ClassGit3, CodeUppercaseID
			return true
		}
	}
	return false
}

// zero clears dst[from:to], as far as dst goes.
func zero(dst []byte, from, to int) {
	for i := from; i < len(dst) && i < to; i++ {
		dst[i] = 0
	}
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// indexEOL is the offset of the first '\n' or '\r' in b, or -1.
func indexEOL(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}

// codeOf is the Code of a bad digit of the Class.
func codeOf(class Class) string {
	if class == ClassGit3 {
		return CodeUppercaseID
	}
	return CodeBadHex
}

// DecodeStride is the lenient decoder: the IDs at fixed offsets of src (record i starts
// at i*stride; its first hexsz bytes are the ID), whatever the bytes between them, the
// last record possibly cut right after its ID (Records counts them). dst must have room
// for every record (ErrShortDst, nothing written, otherwise). A bad ID is an *Error as
// for Decode (uppercase-id or bad-hex); the records before it are decoded and valid,
// dst's bytes for it and every later record are zeroed. Use it for records that are
// not lines of IDs alone, such as the IDs at a fixed column of a listing; Decode checks
// that lines are lines.
func DecodeStride(dst, src []byte, stride int, algo Algo, kind Kind) (int, error) {
	if err := check(stride, algo); err != nil {
		return 0, err
	}
	n := Records(src, stride, algo)
	if len(dst) < n*algo.RawSize() {
		return 0, ErrShortDst
	}
	if n == 0 {
		return 0, nil
	}
	rec, col, class := decodeRecords(dst, src, n, stride, algo, kind)
	return result(n, rec, col, class)
}

// ValidateStride checks src's records as DecodeStride does, writing nothing.
func ValidateStride(src []byte, stride int, algo Algo, kind Kind) (int, error) {
	if err := check(stride, algo); err != nil {
		return 0, err
	}
	n := Records(src, stride, algo)
	if n == 0 {
		return 0, nil
	}
	rec, col, class := decodeRecords(nil, src, n, stride, algo, kind)
	return result(n, rec, col, class)
}

// result is DecodeStride's of what decodeRecords said: n records in all.
func result(n, rec, col int, class Class) (int, error) {
	if class == 0 {
		return n, nil
	}
	return rec, &Error{Record: rec, Column: col + 1, Class: class, Code: codeOf(class)}
}

// Encode writes the IDs in src (rawsz bytes each, packed) as lowercase hex at
// dst[i*stride:], touching nothing between the records; it returns how many it wrote:
// as many as src holds and dst has room for.
func Encode(dst []byte, stride int, src []byte, algo Algo) (int, error) {
	if err := check(stride, algo); err != nil {
		return 0, err
	}
	hexsz := algo.HexSize()
	n := len(src) / algo.RawSize()
	if len(dst) < hexsz {
		return 0, nil
	}
	if room := (len(dst)-hexsz)/stride + 1; room < n {
		n = room
	}
	if n == 0 {
		return 0, nil
	}
	encodeRecords(dst, stride, src, n, algo)
	return n, nil
}
