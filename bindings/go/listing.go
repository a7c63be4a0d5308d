package hexoid

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"io"
	"runtime/cgo"
	"sync"
	"unsafe"
)

// Format is what a listing's lines are, as git prints them.
type Format int

const (
	FormatAuto        Format = C.HEXOID_FORMAT_AUTO         // recognised from the first lines
	FormatOIDs        Format = C.HEXOID_FORMAT_OIDS         // <oid>: pack-objects output, shallow, *-chain files
	FormatPackObjects Format = C.HEXOID_FORMAT_PACK_OBJECTS // pack-objects input: <oid>[ <name>] or -<oid>
	FormatRevList     Format = C.HEXOID_FORMAT_REV_LIST     // rev-list --objects
	FormatBatchCheck  Format = C.HEXOID_FORMAT_BATCH_CHECK  // cat-file --batch-check
	FormatShowIndex   Format = C.HEXOID_FORMAT_SHOW_INDEX   // show-index
	FormatVerifyPack  Format = C.HEXOID_FORMAT_VERIFY_PACK  // verify-pack -v
	FormatLsTree      Format = C.HEXOID_FORMAT_LS_TREE      // ls-tree
	FormatForEachRef  Format = C.HEXOID_FORMAT_FOR_EACH_REF // for-each-ref
	FormatPackedRefs  Format = C.HEXOID_FORMAT_PACKED_REFS  // packed-refs
	FormatFetchHead   Format = C.HEXOID_FORMAT_FETCH_HEAD   // FETCH_HEAD
	FormatReflog      Format = C.HEXOID_FORMAT_REFLOG       // reflogs
	FormatLsFiles     Format = C.HEXOID_FORMAT_LS_FILES     // ls-files --stage
	FormatLsRemote    Format = C.HEXOID_FORMAT_LS_REMOTE    // ls-remote
	FormatShowRef     Format = C.HEXOID_FORMAT_SHOW_REF     // show-ref (-d, --head)
	FormatDiffRaw     Format = C.HEXOID_FORMAT_DIFF_RAW     // diff-tree/-index/-files --raw --no-abbrev
	FormatFsck        Format = C.HEXOID_FORMAT_FSCK         // git fsck
	FormatPromisor    Format = C.HEXOID_FORMAT_PROMISOR     // a .promisor file
	FormatMarks       Format = C.HEXOID_FORMAT_MARKS        // fast-import/fast-export marks
	FormatBundle      Format = C.HEXOID_FORMAT_BUNDLE       // a bundle's header
	FormatLsTreeZ     Format = C.HEXOID_FORMAT_LS_TREE_Z    // ls-tree -z
	FormatLsFilesZ    Format = C.HEXOID_FORMAT_LS_FILES_Z   // ls-files --stage -z
	FormatReplace     Format = C.HEXOID_FORMAT_REPLACE      // replace -l --format=medium|long
	FormatRefPeeled   Format = C.HEXOID_FORMAT_REF_PEELED   // for-each-ref with %(*objectname)
	FormatCherry      Format = C.HEXOID_FORMAT_CHERRY       // git cherry [-v]
	// git submodule status
	FormatSubmoduleStatus Format = C.HEXOID_FORMAT_SUBMODULE_STATUS
)

// formatCount is one past the last Format.
const formatCount = C.HEXOID_FORMAT_COUNT

// String is the name `hexoid verify --format` takes.
func (f Format) String() string {
	if s := C.hexoid_format_name(C.enum_hexoid_format(f)); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat is the Format of a name: "oids", "rev-list", "batch-check", "auto", ...
func ParseFormat(name string) (Format, error) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	if f := C.hexoid_format_from_name(cs); f >= 0 {
		return Format(f), nil
	}
	return 0, fmt.Errorf("hexoid: unknown listing format %q", name)
}

// Problem is one bad line of a listing, at most one a line.
type Problem struct {
	Line    int    // from 1
	Column  int    // from 1: the first byte that is wrong
	Class   Class  // ClassGit3 when only an uppercase digit is wrong, else ClassError
	Code    string // for programs: the library's stable name ("uppercase-id", "bad-hex", "crlf", ...)
	Message string // for people: what is wrong
}

func (p Problem) String() string { return fmt.Sprintf("%d:%d: %s", p.Line, p.Column, p.Message) }

// ListingStats is what VerifyListing saw.
type ListingStats struct {
	Lines, OIDs, Problems uint64
	Format                Format // the format used (what FormatAuto recognised)
	Algo                  Algo   // the hash used; AutoAlgo if no ID was seen
}

var (
	// ErrBadListingOptions: an unknown format, algo or kind.
	ErrBadListingOptions = errors.New("hexoid: unknown listing format, algo or kind")
	// ErrNilReader: VerifyListing given no reader.
	ErrNilReader = errors.New("hexoid: nil io.Reader")
)

type listingState struct {
	fn       func(Problem) error
	err      error
	panicked interface{}
	didPanic bool
}

func listingCodeName(c C.enum_hexoid_listing_code) string {
	if s := C.hexoid_listing_code_name(c); s != nil {
		return C.GoString(s)
	}
	return ""
}

// bufs holds the read buffers of VerifyListing, so that a call allocates none of its own.
var bufs = sync.Pool{New: func() interface{} { b := make([]byte, 64<<10); return &b }}

//export hxGoProblem
func hxGoProblem(h C.uintptr_t, p *C.struct_hexoid_problem) (stop C.int) {
	st := cgo.Handle(h).Value().(*listingState)
	// A panic must not unwind through the C frames: it is raised again once C returns.
	defer func() {
		if r := recover(); r != nil {
			st.panicked, st.didPanic, stop = r, true, 1
		}
	}()
	prob := Problem{
		Line:    int(p.line),
		Column:  int(p.column),
		Class:   statusClass(C.int(p.status)),
		Code:    listingCodeName(p.code),
		Message: C.GoString(&p.message[0]),
	}
	if err := st.fn(prob); err != nil {
		st.err = err
		return 1
	}
	return 0
}

// VerifyListing reads a listing from r to its end and checks every line and the IDs in
// it, in bounded memory whatever its size or its lines' lengths. Each bad line goes to
// fn (nil only counts them), in line order. A non-nil error from fn stops the check and
// is returned. The error is nil when the listing was read to its end, bad lines or not:
// ListingStats.Problems counts them; otherwise it is r's error or fn's.
//
// The C side holds no Go pointer: fn is reached through a runtime/cgo.Handle, deleted
// when VerifyListing returns. A panic in fn is raised again from VerifyListing.
func VerifyListing(r io.Reader, format Format, algo Algo, kind Kind, fn func(Problem) error) (ListingStats, error) {
	var stats ListingStats
	if r == nil {
		return stats, ErrNilReader
	}
	st := &listingState{fn: fn}
	h := cgo.NewHandle(st)
	defer h.Delete()
	want := C.int(0)
	if fn != nil {
		want = 1
	}
	l := C.hx_listing_new(C.int(format), C.int(algo), cKind(kind), C.uintptr_t(h), want)
	if l == nil {
		return stats, ErrBadListingOptions
	}
	defer C.hexoid_listing_free(l)

	bp := bufs.Get().(*[]byte)
	defer bufs.Put(bp)
	buf := *bp
	stopped := false
	var rerr error
	for !stopped {
		n, err := r.Read(buf)
		if n > 0 && C.hexoid_listing_feed(l, (*C.char)(unsafe.Pointer(&buf[0])), C.size_t(n)) != 0 {
			stopped = true
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			rerr = err
			break
		}
	}
	if !stopped && rerr == nil {
		stopped = C.hexoid_listing_finish(l) != 0
	}
	var cs C.struct_hexoid_listing_stats
	C.hexoid_listing_stats(l, &cs)
	stats = ListingStats{Lines: uint64(cs.lines), OIDs: uint64(cs.oids), Problems: uint64(cs.problems),
		Format: Format(cs.format), Algo: Algo(cs.algo)}
	if st.didPanic {
		panic(st.panicked)
	}
	if st.err != nil {
		return stats, st.err
	}
	return stats, rerr
}
