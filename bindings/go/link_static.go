//go:build cgo && hexoid_static

package hexoid

// With -tags hexoid_static the program is linked statically, libhexoid.a and what it
// needs (zlib, libcrypto, as pkg-config --static names them) included.

// #cgo pkg-config: --static hexoid
// #cgo LDFLAGS: -static
import "C"

const linkedStatically = true
