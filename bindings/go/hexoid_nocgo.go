//go:build !cgo

package hexoid

// Without cgo, the bulk calls decode and encode one ID at a time in Go (purego.go).

func decodeRecords(dst, src []byte, n, stride int, algo Algo, kind Kind) (rec, col int, class Class) {
	return goDecodeRecords(dst, src, n, stride, algo, kind)
}

func encodeRecords(dst []byte, stride int, src []byte, n int, algo Algo) {
	goEncodeRecords(dst, stride, src, n, algo)
}

// Kernel is "go": the IDs are decoded in Go.
func Kernel() string { return "go" }

// Version is "": there is no library.
func Version() string { return "" }

// HaveCgo says whether the package was built with cgo, libhexoid linked in: without it,
// the calls documented as needing it return ErrNeedsCgo.
const HaveCgo = false
