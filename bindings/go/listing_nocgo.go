//go:build !cgo

package hexoid

import "fmt"

// Without cgo, the listings whose lines hold one ID are checked in Go (purego.go);
// other formats need the library.

const formatCount = Format(len(formatNames))

func formatName(f Format) string {
	if f >= 0 && f < formatCount {
		return formatNames[f]
	}
	return ""
}

func formatByName(name string) (Format, bool) {
	for f, s := range formatNames {
		if s == name {
			return Format(f), true
		}
	}
	return 0, false
}

func newChecker(format Format, algo Algo, kind Kind, st *listingState) (checker, error) {
	if format < 0 || format >= formatCount || (algo != AutoAlgo && algo.RawSize() == 0) {
		return nil, ErrBadListingOptions
	}
	if !goFormat(format) {
		return nil, fmt.Errorf("%w: listings of format %s (checked in Go: oids, pack-objects, show-ref, promisor, ls-remote, packed-refs)",
			ErrNeedsCgo, format)
	}
	return newGoListing(format, algo, kind, st), nil
}
