//go:build cgo

package hexoid

// Listings through the library's checker.

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"
)

// The Formats are the library's values, in its order (a build fails otherwise).
var (
	_ = [1]struct{}{}[FormatAuto-C.HEXOID_FORMAT_AUTO]
	_ = [1]struct{}{}[FormatOIDs-C.HEXOID_FORMAT_OIDS]
	_ = [1]struct{}{}[FormatPackObjects-C.HEXOID_FORMAT_PACK_OBJECTS]
	_ = [1]struct{}{}[FormatRevList-C.HEXOID_FORMAT_REV_LIST]
	_ = [1]struct{}{}[FormatBatchCheck-C.HEXOID_FORMAT_BATCH_CHECK]
	_ = [1]struct{}{}[FormatShowIndex-C.HEXOID_FORMAT_SHOW_INDEX]
	_ = [1]struct{}{}[FormatVerifyPack-C.HEXOID_FORMAT_VERIFY_PACK]
	_ = [1]struct{}{}[FormatLsTree-C.HEXOID_FORMAT_LS_TREE]
	_ = [1]struct{}{}[FormatForEachRef-C.HEXOID_FORMAT_FOR_EACH_REF]
	_ = [1]struct{}{}[FormatPackedRefs-C.HEXOID_FORMAT_PACKED_REFS]
	_ = [1]struct{}{}[FormatFetchHead-C.HEXOID_FORMAT_FETCH_HEAD]
	_ = [1]struct{}{}[FormatReflog-C.HEXOID_FORMAT_REFLOG]
	_ = [1]struct{}{}[FormatLsFiles-C.HEXOID_FORMAT_LS_FILES]
	_ = [1]struct{}{}[FormatLsRemote-C.HEXOID_FORMAT_LS_REMOTE]
	_ = [1]struct{}{}[FormatShowRef-C.HEXOID_FORMAT_SHOW_REF]
	_ = [1]struct{}{}[FormatDiffRaw-C.HEXOID_FORMAT_DIFF_RAW]
	_ = [1]struct{}{}[FormatFsck-C.HEXOID_FORMAT_FSCK]
	_ = [1]struct{}{}[FormatPromisor-C.HEXOID_FORMAT_PROMISOR]
	_ = [1]struct{}{}[FormatMarks-C.HEXOID_FORMAT_MARKS]
	_ = [1]struct{}{}[FormatBundle-C.HEXOID_FORMAT_BUNDLE]
	_ = [1]struct{}{}[FormatLsTreeZ-C.HEXOID_FORMAT_LS_TREE_Z]
	_ = [1]struct{}{}[FormatLsFilesZ-C.HEXOID_FORMAT_LS_FILES_Z]
	_ = [1]struct{}{}[FormatReplace-C.HEXOID_FORMAT_REPLACE]
	_ = [1]struct{}{}[FormatRefPeeled-C.HEXOID_FORMAT_REF_PEELED]
	_ = [1]struct{}{}[FormatCherry-C.HEXOID_FORMAT_CHERRY]
	_ = [1]struct{}{}[FormatSubmoduleStatus-C.HEXOID_FORMAT_SUBMODULE_STATUS]
	_ = [1]struct{}{}[FormatText-C.HEXOID_FORMAT_TEXT]
	_ = [1]struct{}{}[FormatRevListFormat-C.HEXOID_FORMAT_REV_LIST_FORMAT]
	_ = [1]struct{}{}[FormatPrettyRaw-C.HEXOID_FORMAT_PRETTY_RAW]
	_ = [1]struct{}{}[FormatBlame-C.HEXOID_FORMAT_BLAME]
	_ = [1]struct{}{}[FormatWorktrees-C.HEXOID_FORMAT_WORKTREES]
	_ = [1]struct{}{}[FormatIDFields-C.HEXOID_FORMAT_ID_FIELDS]
	_ = [1]struct{}{}[FormatGraph-C.HEXOID_FORMAT_GRAPH]
	_ = [1]struct{}{}[FormatMergeTree-C.HEXOID_FORMAT_MERGE_TREE]
	_ = [1]struct{}{}[FormatFastExport-C.HEXOID_FORMAT_FAST_EXPORT]
	_ = [1]struct{}{}[FormatMergeTreeZ-C.HEXOID_FORMAT_MERGE_TREE_Z]
)

// formatCount is one past the last Format.
const formatCount = C.HEXOID_FORMAT_COUNT

// formatName is the library's name of f, or "".
func formatName(f Format) string {
	if s := C.hexoid_format_name(C.enum_hexoid_format(f)); s != nil {
		return C.GoString(s)
	}
	return ""
}

func formatByName(name string) (Format, bool) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	if f := C.hexoid_format_from_name(cs); f >= 0 {
		return Format(f), true
	}
	return 0, false
}

func listingCodeName(c C.enum_hexoid_listing_code) string {
	if s := C.hexoid_code_name(c); s != nil {
		return C.GoString(s)
	}
	return ""
}

//export hxGoProblem
func hxGoProblem(h C.uintptr_t, p *C.struct_hexoid_problem) (stop C.int) {
	st := cgo.Handle(h).Value().(*listingState)
	// A panic must not unwind through the C frames: it is raised again once C returns.
	defer func() {
		if r := recover(); r != nil {
			st.panicked, st.didPanic, stop = r, true, 1
		}
	}()
	class := ClassError
	if p.status == C.HEXOID_EUPPER {
		class = ClassGit3
	}
	prob := Problem{
		Line:    int(p.line),
		Column:  int(p.column),
		Class:   class,
		Code:    listingCodeName(p.code),
		Message: C.GoString(&p.message[0]),
	}
	if st.problem(prob) {
		return 1
	}
	return 0
}

// cChecker is the library's checker; fn is reached through a cgo.Handle.
type cChecker struct {
	l *C.struct_hexoid_listing
	h cgo.Handle
}

func newChecker(format Format, algo Algo, kind Kind, st *listingState) (checker, error) {
	return newCChecker(format, algo, kind, st)
}

func newCChecker(format Format, algo Algo, kind Kind, st *listingState) (*cChecker, error) {
	h := cgo.NewHandle(st)
	want := C.int(0)
	if st.fn != nil {
		want = 1
	}
	l := C.hx_listing_new(C.int(format), C.int(algo), cKind(kind), C.uintptr_t(h), want)
	if l == nil {
		h.Delete()
		return nil, ErrBadListingOptions
	}
	return &cChecker{l: l, h: h}, nil
}

func (c *cChecker) feed(b []byte) bool {
	return C.hexoid_listing_feed(c.l, (*C.char)(unsafe.Pointer(&b[0])), C.size_t(len(b))) != 0
}

func (c *cChecker) finish() bool { return C.hexoid_listing_finish(c.l) != 0 }

func (c *cChecker) stats() ListingStats {
	var cs C.struct_hexoid_listing_stats
	C.hexoid_listing_stats(c.l, &cs)
	return ListingStats{Lines: uint64(cs.lines), OIDs: uint64(cs.oids), Problems: uint64(cs.problems),
		Format: Format(cs.format), Algo: Algo(cs.algo)}
}

func (c *cChecker) close() {
	C.hexoid_listing_free(c.l)
	c.h.Delete()
}
