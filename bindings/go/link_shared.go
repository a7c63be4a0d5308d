//go:build cgo && !hexoid_static

package hexoid

// By default the program links libhexoid.so; the loader must find libhexoid.so.0 at run
// time (see the README).

// #cgo pkg-config: hexoid
import "C"

const linkedStatically = false
