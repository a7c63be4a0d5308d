//go:build cgo

package hexoid

// The repair through the library.

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"runtime/cgo"
	"unsafe"
)

// RepairKind's and RepairOutcome's values are the library's (a build fails otherwise).
var (
	_ = [1]struct{}{}[RepairLowercase-C.HEXOID_REPAIR_LOWERCASE]
	_ = [1]struct{}{}[RepairShow-C.HEXOID_REPAIR_SHOW]
	_ = [1]struct{}{}[RepairRename-C.HEXOID_REPAIR_RENAME]
	_ = [1]struct{}{}[RepairRewrite-C.HEXOID_REPAIR_REWRITE]
	_ = [1]struct{}{}[RepairPlanned-C.HEXOID_REPAIR_PLANNED]
	_ = [1]struct{}{}[RepairDone-C.HEXOID_REPAIR_DONE]
	_ = [1]struct{}{}[RepairShown-C.HEXOID_REPAIR_SHOWN]
	_ = [1]struct{}{}[RepairLocked-C.HEXOID_REPAIR_LOCKED]
	_ = [1]struct{}{}[RepairChanged-C.HEXOID_REPAIR_CHANGED]
	_ = [1]struct{}{}[RepairFailed-C.HEXOID_REPAIR_FAILED]
)

// cRepairNames are the library's names of a kind and an outcome, for the tests.
func cRepairNames(k RepairKind, o RepairOutcome) (kind, outcome string) {
	if s := C.hexoid_repair_kind_name(C.enum_hexoid_repair_kind(k)); s != nil {
		kind = C.GoString(s)
	}
	if s := C.hexoid_repair_outcome_name(C.enum_hexoid_repair_outcome(o)); s != nil {
		outcome = C.GoString(s)
	}
	return
}

type repairState struct {
	ctx      context.Context
	onAction func(RepairAction) error
	onLeft   func(Finding) error
	step     func(string, string) error
	err      error
	panicked interface{}
	didPanic bool
}

func (st *repairState) recovered(stop *C.int) {
	if r := recover(); r != nil {
		st.panicked, st.didPanic, *stop = r, true, 1
	}
}

//export hxGoRepairAction
func hxGoRepairAction(h C.uintptr_t, a *C.struct_hexoid_repair_action) (stop C.int) {
	st := cgo.Handle(h).Value().(*repairState)
	// A panic must not unwind through the C frames: it is raised again once C returns.
	defer st.recovered(&stop)
	out := RepairOutcome(a.outcome)
	// A plan is not wanted once the context is done; what became of a file is told
	// whatever happens, so that a record kept of the repository's changes is whole.
	if out == RepairPlanned && st.ctx.Err() != nil {
		return 1
	}
	if st.err == nil && st.onAction != nil {
		g := RepairAction{
			Kind:    RepairKind(a.kind),
			Outcome: out,
			Area:    C.GoString(C.hexoid_audit_area_name(a.area)),
			Path:    C.GoString(a.path),
			IDs:     uint64(a.ids),
			Line:    int(a.line),
			Column:  int(a.column),
		}
		if a.lock != nil {
			g.Lock = C.GoString(a.lock)
		}
		if a.message != nil {
			g.Message = C.GoString(a.message)
		}
		if a.to != nil {
			g.To = C.GoString(a.to)
		}
		if err := st.onAction(g); err != nil {
			st.err = err
			return 1
		}
	}
	// A context done meanwhile (in onAction itself, say) stops the repair here rather
	// than at the next step, which the watcher's flag might not reach first.
	if st.ctx.Err() != nil {
		return 1
	}
	return 0
}

//export hxGoRepairLeft
func hxGoRepairLeft(h C.uintptr_t, f *C.struct_hexoid_audit_finding) (stop C.int) {
	st := cgo.Handle(h).Value().(*repairState)
	defer st.recovered(&stop)
	if st.ctx.Err() != nil {
		return 1
	}
	if err := st.onLeft(goFinding(f)); err != nil {
		st.err = err
		return 1
	}
	return 0
}

//export hxGoRepairStep
func hxGoRepairStep(h C.uintptr_t, what, path *C.char) (stop C.int) {
	st := cgo.Handle(h).Value().(*repairState)
	defer st.recovered(&stop)
	// The library tells the journal's end and each unlock even after a stop: those
	// are not asked, and the first error stays the one returned.
	if st.err == nil {
		if err := st.step(C.GoString(what), C.GoString(path)); err != nil {
			st.err = err
			return 1
		}
	}
	if st.ctx.Err() != nil {
		return 1
	}
	return 0
}

// Repair makes the repository at or above path (found as git finds it) readable by
// Git 3.0, as hexoid repair does: each file of the git directory whose IDs the audit
// finds in uppercase is one action, those IDs lowercased under the lock git takes for
// that file, so that Git 2.x reads it exactly as before. Killed at any point, every
// file is either as it was or repaired (see include/hexoid_repair.h).
//
// With opts.DryRun it only plans: each action reaches opts.OnAction as RepairPlanned and
// nothing is changed. Otherwise each reaches it with its outcome. Callbacks are called
// from the calling goroutine, findings left first. A non-nil error from one stops the
// repair and is returned; so does ctx's error once ctx is done: the repair stops before
// its next change to the repository (a flag in C memory, read before each lock, write
// and rename), letting go of every lock it holds, and OnAction is not called again
// except for a file already replaced. A ctx done while the repair's audit runs is seen
// at its next finding left, or at the latest before the first change. A panic in a
// callback is raised again from Repair.
//
// Files left (RepairLocked, RepairChanged, RepairFailed) and findings left are not an
// error: the result counts them. The result holds the counts so far also when a
// callback or ctx stopped the repair. The error wraps ErrNotRepaired when the repair
// could not start. The C side holds no Go pointer: the callbacks are reached through a
// runtime/cgo.Handle, deleted when Repair returns.
func Repair(ctx context.Context, path string, opts *RepairOptions) (RepairResult, error) {
	var res RepairResult
	if ctx == nil {
		ctx = context.Background()
	}
	var o RepairOptions
	if opts != nil {
		o = *opts
	}
	if o.Jobs < 0 || o.Jobs > 256 {
		return res, fmt.Errorf("hexoid: Jobs %d (0..256)", o.Jobs)
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	h := (*C.struct_hx_repair)(C.calloc(1, C.sizeof_struct_hx_repair))
	if h == nil {
		return res, errors.New("hexoid: out of memory")
	}
	defer C.free(unsafe.Pointer(h))
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	rp := C.hexoid_repair_open(cpath, &h.err[0], C.size_t(len(h.err)))
	if rp == nil {
		return res, openError("repair", path, "", C.GoString(&h.err[0]))
	}
	defer C.hexoid_repair_close(rp)

	st := &repairState{ctx: ctx, onAction: o.OnAction, onLeft: o.OnLeft, step: o.step}
	handle := cgo.NewHandle(st)
	defer handle.Delete()
	h.handle = C.uintptr_t(handle)
	if o.OnLeft != nil {
		h.want_left = 1
	}
	if o.step != nil {
		h.want_step = 1
	}
	// As for the audit: the watcher has ended before h is freed.
	defer watch(ctx, func() { C.hx_repair_cancel(h) })()
	dry := C.int(0)
	if o.DryRun {
		dry = 1
	}
	var flags C.int
	if o.RewriteHistory {
		flags |= C.HX_REPAIR_REWRITE
	}
	if o.DropSignatures {
		flags |= C.HX_REPAIR_DROP_SIGNATURES
	}
	if o.ReplaceRefs {
		flags |= C.HX_REPAIR_REPLACE_REFS
	}
	rc := C.hx_repair_run(rp, h, C.uint(o.Jobs), dry, flags)
	if st.didPanic {
		panic(st.panicked)
	}

	a := C.hexoid_repair_audit(rp)
	res.GitDir = C.GoString(C.hexoid_audit_gitdir(a))
	res.Algo = Algo(C.hexoid_audit_algo(a))
	res.RefStorage = "files"
	if C.hexoid_audit_ref_storage(a) == C.HEXOID_REFS_REFTABLE {
		res.RefStorage = "reftable"
	}
	var c C.struct_hexoid_repair_count
	C.hexoid_repair_summary(rp, &c)
	res.Planned, res.IDs = uint64(c.planned), uint64(c.ids)
	res.Done, res.Shown = uint64(c.done), uint64(c.shown)
	res.Locked, res.Changed, res.Failed = uint64(c.locked), uint64(c.changed), uint64(c.failed)
	res.LeftGit3, res.LeftErrors = uint64(c.left_git3), uint64(c.left_errors)
	res.Recovered = uint64(c.recovered)
	res.Commits, res.Tags = uint64(c.commits), uint64(c.tags)

	switch {
	case st.err != nil:
		return res, st.err
	case rc < 0:
		return res, fmt.Errorf("%w: %s", ErrNotRepaired, C.GoString(&h.err[0]))
	case rc == 1 && ctx.Err() != nil:
		return res, ctx.Err()
	case rc == 1:
		return res, errors.New("hexoid: repair stopped")
	}
	return res, nil
}
