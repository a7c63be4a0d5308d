//go:build cgo

package hexoid

// The bulk calls through libhexoid's kernels.

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import "unsafe"

// Class's values are the library's enum hexoid_finding_class (a build fails otherwise).
var (
	_ = [1]struct{}{}[ClassGit3-C.HEXOID_CLASS_GIT3]
	_ = [1]struct{}{}[ClassError-C.HEXOID_CLASS_ERROR]
	_ = [1]struct{}{}[ClassWarn-C.HEXOID_CLASS_WARN]
)

// cKind is the library's value of a Kind: anything but Mixed is lowercase only.
func cKind(k Kind) C.int {
	if k == Mixed {
		return C.HEXOID_MIXED
	}
	return C.HEXOID_LOWER
}

// decodeRecords decodes (dst nil: checks) the n records of src, stride bytes apart; on
// a bad one, its index, the column (from 0) of its bad digit as the library ranks them
// (a byte that is no digit at all before an uppercase one) and its Class, dst zeroed
// from it to the nth record; class 0 when all are good.
func decodeRecords(dst, src []byte, n, stride int, algo Algo, kind Kind) (rec, col int, class Class) {
	var out *C.uchar
	if dst != nil {
		out = (*C.uchar)(unsafe.Pointer(&dst[0]))
	}
	r := C.hx_decode(out, (*C.char)(unsafe.Pointer(&src[0])), C.size_t(n), C.size_t(stride),
		C.int(algo), cKind(kind))
	switch r.status {
	case C.HEXOID_OK:
		return 0, 0, 0
	case C.HEXOID_EUPPER:
		return int(r.record), int(r.column), ClassGit3
	}
	return int(r.record), int(r.column), ClassError
}

// encodeRecords writes the n IDs of src at dst[i*stride:].
func encodeRecords(dst []byte, stride int, src []byte, n int, algo Algo) {
	C.hexoid_encode((*C.char)(unsafe.Pointer(&dst[0])), C.size_t(stride),
		(*C.uchar)(unsafe.Pointer(&src[0])), C.size_t(n), C.enum_hexoid_algo(algo))
}

// Kernel is the library's active kernel: "scalar", "sse", "avx2", "avx512", "avx512bw",
// "neon" or "neonwide"; "go" in a build without cgo.
func Kernel() string { return C.GoString(C.hexoid_kernel()) }

// Version is the library's version, "MAJOR.MINOR.PATCH"; "" in a build without cgo,
// which has no library.
func Version() string { return C.GoString(C.hexoid_version()) }

// HaveCgo says whether the package was built with cgo, libhexoid linked in: without it,
// the calls documented as needing it return ErrNeedsCgo.
const HaveCgo = true
