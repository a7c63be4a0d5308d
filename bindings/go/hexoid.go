// Package hexoid validates, decodes and encodes hex Git object IDs (SHA-1, 40 hex
// digits; SHA-256, 64) in bulk through libhexoid's SIMD kernels, and checks listings
// of them as git prints them.
//
// Bulk calls (Decode, Validate, Encode) cross into C once for any number of records,
// which pays from a few records on: a cgo call costs about as much as decoding two IDs
// in Go. Single IDs (DecodeID, EncodeID) are decoded in Go, without cgo.
//
// Every function is safe for concurrent use.
package hexoid

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
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

// cKind is the library's value of a Kind: anything but Mixed is lowercase only.
func cKind(k Kind) C.int {
	if k == Mixed {
		return C.HEXOID_MIXED
	}
	return C.HEXOID_LOWER
}

// Class says why a byte is wrong.
type Class int

const (
	// ClassHex: not a hex digit at all; every version of git rejects it.
	ClassHex Class = 1
	// ClassUpper: 'A'..'F' where only lowercase is accepted; Git 2.x takes it, Git 3.0 does not.
	ClassUpper Class = 2
)

func (c Class) String() string {
	switch c {
	case ClassHex:
		return "not hex"
	case ClassUpper:
		return "uppercase"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// Error describes the first bad record of a call: its index (from 0, in the call's
// records), the column of its first bad byte within the record (from 1, as Problem's
// and Finding's columns), and why.
type Error struct {
	Record int
	Column int
	Class  Class
}

func (e *Error) Error() string {
	if e.Class == ClassUpper {
		return fmt.Sprintf("hexoid: record %d, column %d: uppercase hex digit: Git 3.0 accepts only lowercase", e.Record, e.Column)
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
)

// Records is how many records of stride bytes src holds, the last one possibly cut
// after its hexsz digits (a last line without its newline): (len-hexsz)/stride + 1.
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

// Decode decodes the IDs of src's records (record i starts at i*stride; its first
// hexsz bytes are the ID) into dst, rawsz bytes each, as many as src holds (Records)
// and dst has room for; it returns how many it decoded.
//
// On a bad record it returns its index and an *Error: the records before it are decoded
// and valid; dst's bytes for the bad record and every later one of the call are zeroed;
// dst past them is untouched. A call that succeeds allocates nothing.
func Decode(dst, src []byte, stride int, algo Algo, kind Kind) (int, error) {
	if err := check(stride, algo); err != nil {
		return 0, err
	}
	n := Records(src, stride, algo)
	if room := len(dst) / algo.RawSize(); room < n {
		n = room
	}
	if n == 0 {
		return 0, nil
	}
	r := C.hx_decode((*C.uchar)(unsafe.Pointer(&dst[0])), (*C.char)(unsafe.Pointer(&src[0])),
		C.size_t(n), C.size_t(stride), C.int(algo), cKind(kind))
	return result(r, n)
}

// Validate checks src's records as Decode does, writing nothing; it returns how many
// records were valid before the first bad one (all of them, and nil, when none is bad).
func Validate(src []byte, stride int, algo Algo, kind Kind) (int, error) {
	if err := check(stride, algo); err != nil {
		return 0, err
	}
	n := Records(src, stride, algo)
	if n == 0 {
		return 0, nil
	}
	r := C.hx_decode(nil, (*C.char)(unsafe.Pointer(&src[0])), C.size_t(n), C.size_t(stride),
		C.int(algo), cKind(kind))
	return result(r, n)
}

func result(r C.struct_hx_result, n int) (int, error) {
	switch r.status {
	case C.HEXOID_OK:
		return n, nil
	case C.HEXOID_EHEX, C.HEXOID_EUPPER:
		return int(r.record), &Error{Record: int(r.record), Column: int(r.column) + 1, Class: Class(r.status)}
	}
	return 0, ErrStride // HEXOID_EARG: excluded by check(); kept as an error, never a panic
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
	C.hexoid_encode((*C.char)(unsafe.Pointer(&dst[0])), C.size_t(stride),
		(*C.uchar)(unsafe.Pointer(&src[0])), C.size_t(n), C.enum_hexoid_algo(algo))
	return n, nil
}

// Kernel is the library's active kernel: "scalar", "sse", "avx2", "avx512", "avx512bw",
// "neon" or "neonwide".
func Kernel() string { return C.GoString(C.hexoid_kernel()) }

// Version is the library's version, "MAJOR.MINOR.PATCH".
func Version() string { return C.GoString(C.hexoid_version()) }
