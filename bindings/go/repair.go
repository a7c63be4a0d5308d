package hexoid

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

// RepairKind is what an action of a repair does.
type RepairKind int

const (
	// RepairLowercase: the IDs of a file of the git directory lowercased, nothing else
	// in it changed.
	RepairLowercase RepairKind = C.HEXOID_REPAIR_LOWERCASE
	// RepairShow: a file outside the git directory (what blame.ignoreRevsFile or
	// fsck.skipList name): its fix is shown, the file never written.
	RepairShow RepairKind = C.HEXOID_REPAIR_SHOW
	// RepairRename: a file named by an ID renamed to lowercase (a loose object, once
	// its content hashes to that ID; a loose refs/replace/<ID> with its reflog); To is
	// the new name.
	RepairRename RepairKind = C.HEXOID_REPAIR_RENAME
	// RepairRewrite: a new commit. With RewriteHistory, a ref moved to its history
	// written again (Path the ref, To its new ID), or, RepairFailed with Path an
	// object's ID, a signed object on the way, which keeps the rewrite from being done.
	// In the "notes" area, a notes ref given a commit whose tree names its notes in
	// lowercase (To: that commit).
	RepairRewrite RepairKind = C.HEXOID_REPAIR_REWRITE
)

// String is "lowercase", "show", "rename" or "rewrite", as hexoid repair --json-lines
// writes it.
func (k RepairKind) String() string {
	if s := C.hexoid_repair_kind_name(C.enum_hexoid_repair_kind(k)); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("RepairKind(%d)", int(k))
}

// RepairOutcome is where an action stands.
type RepairOutcome int

const (
	RepairPlanned RepairOutcome = C.HEXOID_REPAIR_PLANNED // planned: all a dry run does
	RepairDone    RepairOutcome = C.HEXOID_REPAIR_DONE    // the file was replaced
	RepairShown   RepairOutcome = C.HEXOID_REPAIR_SHOWN   // RepairShow: the fix was shown
	// The three below leave the file as it was, and Message says why: a later run may
	// do what RepairLocked and RepairChanged left.
	RepairLocked  RepairOutcome = C.HEXOID_REPAIR_LOCKED  // a lock someone holds did not go in time
	RepairChanged RepairOutcome = C.HEXOID_REPAIR_CHANGED // the file changed since it was read
	RepairFailed  RepairOutcome = C.HEXOID_REPAIR_FAILED  // it could not be done
)

// String is "planned", "done", "shown", "locked", "changed" or "failed".
func (o RepairOutcome) String() string {
	if s := C.hexoid_repair_outcome_name(C.enum_hexoid_repair_outcome(o)); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("RepairOutcome(%d)", int(o))
}

// RepairAction is one file of the repair: what is done to it, and how it went. Its
// strings are Go's own: they stay valid.
type RepairAction struct {
	Kind    RepairKind
	Outcome RepairOutcome
	Area    string // as Finding.Area: "refs", "packed-refs", "reflogs", ...
	Path    string // relative to the git directory, as the audit names it
	Lock    string // the lock taken first ("refs/heads/main.lock"), or ""
	IDs     uint64 // IDs lowercased (planned: to lowercase)
	Line    int    // the first of them: its line and column, from 1
	Column  int
	Message string // RepairLocked, RepairChanged, RepairFailed: why, one line; else ""
	To      string // RepairRename: the new name; RepairRewrite: the new ID; else ""
}

// String is the action as hexoid repair prints it.
func (a RepairAction) String() string {
	plural := "s"
	if a.IDs == 1 {
		plural = ""
	}
	switch {
	case a.Kind == RepairRename && a.Outcome == RepairPlanned:
		return fmt.Sprintf("[%s] %s: would rename to %s", a.Area, a.Path, a.To)
	case a.Kind == RepairRename && a.Outcome == RepairDone:
		return fmt.Sprintf("[%s] %s: done: renamed to %s", a.Area, a.Path, a.To)
	case a.Kind == RepairRewrite && a.Area == "notes" && a.Outcome == RepairPlanned:
		return fmt.Sprintf("[%s] %s: would write a notes commit whose tree names its notes in lowercase", a.Area, a.Path)
	case a.Kind == RepairRewrite && a.Area == "notes" && a.Outcome == RepairDone:
		return fmt.Sprintf("[%s] %s: done: notes commit %s names its notes in lowercase", a.Area, a.Path, a.To)
	case a.Kind == RepairRewrite && a.Outcome == RepairPlanned:
		return fmt.Sprintf("[%s] %s: would move to %s (its history written again)", a.Area, a.Path, a.To)
	case a.Kind == RepairRewrite && a.Outcome == RepairDone:
		return fmt.Sprintf("[%s] %s: done: moved to %s (its history written again)", a.Area, a.Path, a.To)
	case a.Outcome == RepairPlanned && a.Kind == RepairShow:
		return fmt.Sprintf("[%s] %s:%d:%d: would show: lowercase this ID (outside the git directory: not written)",
			a.Area, a.Path, a.Line, a.Column)
	case a.Outcome == RepairPlanned:
		return fmt.Sprintf("[%s] %s: would lowercase %d ID%s", a.Area, a.Path, a.IDs, plural)
	case a.Outcome == RepairShown:
		return fmt.Sprintf("[%s] %s:%d:%d: shown: lowercase this ID by hand (outside the git directory: not written)",
			a.Area, a.Path, a.Line, a.Column)
	case a.Outcome == RepairDone:
		return fmt.Sprintf("[%s] %s: done: %d ID%s lowercased", a.Area, a.Path, a.IDs, plural)
	case a.Outcome == RepairFailed:
		return fmt.Sprintf("[%s] %s: %s: %s", a.Area, a.Path, a.Outcome, a.Message)
	}
	return fmt.Sprintf("[%s] %s: %s: %s: left as it was, run again", a.Area, a.Path, a.Outcome, a.Message)
}

// RepairOptions are the repair's settings; the zero value (or nil) is the real run in
// one thread, told nothing.
type RepairOptions struct {
	Jobs int // threads for the audit's objects; 0 or 1: the calling goroutine's thread only
	// DryRun: plan only, change nothing; each action is told as RepairPlanned.
	DryRun bool
	// OnAction is told each action: planned (DryRun) or with its outcome. A non-nil
	// error stops the repair after the action at hand, which is never left half done.
	OnAction func(RepairAction) error
	// OnLeft is told each finding the repair leaves as it is: uppercase in commits' and
	// tags' headers, IDs that are names of files, every error. A non-nil error stops the
	// repair before it changes anything.
	OnLeft func(Finding) error
	// RewriteHistory: a new history for the commits and tags with uppercase IDs in
	// their headers and everything that reaches them from a ref, as hexoid repair
	// --rewrite-history writes it (see the README); DropSignatures writes signed ones
	// again unsigned (without it, one on the way stops the rewrite); ReplaceRefs also
	// makes refs/replace/<old> for each, so that old IDs still resolve.
	RewriteHistory bool
	DropSignatures bool
	ReplaceRefs    bool

	// step, for the tests: told before each change the repair makes ("journal",
	// "lock", "write", "rename", "link", "unlock", "done") and the file's path relative
	// to the git directory. A non-nil error stops the repair there.
	step func(what, path string) error
}

// RepairResult counts what a repair planned and did, with the repository it repaired.
type RepairResult struct {
	GitDir     string // the (common) git directory
	Algo       Algo
	RefStorage string // "files" or "reftable"

	Planned uint64 // actions
	IDs     uint64 // IDs they lowercase
	Done    uint64 // files replaced
	Shown   uint64 // fixes shown of files outside the git directory
	Locked  uint64 // left: a lock someone holds did not go in time (run again)
	Changed uint64 // left: changed since they were read (run again)
	Failed  uint64 // left: could not be done

	LeftGit3   uint64 // findings left as they are: git3 ones
	LeftErrors uint64 // and errors (warnings are not counted)
	Recovered  uint64 // locks of a killed repair removed before this one started
	Commits    uint64 // RewriteHistory: commits written again
	Tags       uint64 // and tags
}

// repairState is what the callbacks of one repair reach through its cgo.Handle.
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

// ErrNotRepaired wraps why a repair could not start: no repository, its audit could not
// run, another repair of it is running, or its journal could not be written.
var ErrNotRepaired = errors.New("hexoid: not repaired")

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
