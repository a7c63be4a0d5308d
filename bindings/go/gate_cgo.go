//go:build cgo

package hexoid

// The push check through the library.

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"runtime/cgo"
	"unsafe"
)

// Verdict's values are the library's (a build fails otherwise).
var (
	_ = [1]struct{}{}[Accept-C.HEXOID_GATE_ACCEPT]
	_ = [1]struct{}{}[Reject-C.HEXOID_GATE_REJECT]
	_ = [1]struct{}{}[Unchecked-C.HEXOID_GATE_UNCHECKED]
)

type gateState struct {
	res      *PushResult
	panicked interface{}
	didPanic bool
}

func (st *gateState) recovered(stop *C.int) {
	if r := recover(); r != nil {
		st.panicked, st.didPanic, *stop = r, true, 1
	}
}

//export hxGoGateFinding
func hxGoGateFinding(h C.uintptr_t, f *C.struct_hexoid_gate_finding) (stop C.int) {
	st := cgo.Handle(h).Value().(*gateState)
	defer st.recovered(&stop)
	g := PushFinding{
		Class:   Class(f.cls),
		Rejects: f.rejects != 0,
		Update:  -1,
		Line:    int(f.line),
		Column:  int(f.column),
		Offset:  -1,
		Message: C.GoString(f.message),
	}
	if s := C.hexoid_code_name(f.code); s != nil {
		g.Code = C.GoString(s)
	}
	if f.update != C.HEXOID_GATE_NO_UPDATE {
		g.Update = int(f.update)
	}
	if f.ref != nil {
		g.Ref = C.GoString(f.ref)
	}
	if f.pushed != nil {
		g.Pushed = C.GoString(f.pushed)
	}
	if f.has_oid != 0 {
		n := Algo(f.algo).RawSize()
		g.Object = hex.EncodeToString(C.GoBytes(unsafe.Pointer(&f.oid[0]), C.int(n)))
	}
	if s := C.hexoid_object_type_name(f._type); s != nil && f._type != 0 {
		g.ObjectType = C.GoString(s)
	}
	if f.header != nil {
		g.Header = C.GoString(f.header)
	}
	if f.offset != C.HEXOID_NO_OFFSET {
		g.Offset = int64(f.offset)
	}
	st.res.Findings = append(st.res.Findings, g)
	return 0
}

//export hxGoGateError
func hxGoGateError(h C.uintptr_t, msg *C.char) (stop C.int) {
	st := cgo.Handle(h).Value().(*gateState)
	defer st.recovered(&stop)
	st.res.Errors = append(st.res.Errors, C.GoString(msg))
	return 0
}

// CheckPush checks a push as `hexoid pre-receive` does: every object in the quarantine
// folder (GIT_QUARANTINE_PATH; "" when the push brought none), and every commit and tag
// the updated refs newly reach, for what Git 3.0 will not read. repo is the repository
// (opts.GitDir wins when both are set; both "" take it from the environment, as in a
// hook). A nil ctx is context.Background(); nil opts is the default.
//
// The error is nil when the check ran, whatever its verdict: a check that could not be
// done in full is Unchecked, with its reasons in Errors. Once ctx is done the check is
// cancelled from another goroutine (its git processes killed) and CheckPush returns
// promptly with the result so far (Verdict Unchecked) and an error wrapping ctx.Err().
// Bad options or updates are an error wrapping ErrPushArgs, as is a repository or
// quarantine path that cannot be reached (wrapping the OS's error too). The result is never nil: a
// check that did not run is Unchecked.
func CheckPush(ctx context.Context, repo, quarantine string, updates []RefUpdate, opts *PushOptions) (*PushResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	var o PushOptions
	if opts != nil {
		o = *opts
	}
	if o.Jobs < 0 || o.Jobs > 256 {
		return unchecked(), fmt.Errorf("%w: Jobs %d (0..256)", ErrPushArgs, o.Jobs)
	}
	if o.Timeout < 0 {
		return unchecked(), fmt.Errorf("%w: negative Timeout", ErrPushArgs)
	}
	if len(updates) == 0 {
		return unchecked(), fmt.Errorf("%w: no ref updates", ErrPushArgs)
	}
	if err := ctx.Err(); err != nil {
		return unchecked(), fmt.Errorf("hexoid: push check: %w", err)
	}
	if o.GitDir == "" {
		o.GitDir = repo
	}
	// A repository or quarantine that is not there is the caller's mistake, told with
	// the OS's error (errors.Is(err, fs.ErrNotExist)) rather than as a failed git.
	for _, p := range []string{o.GitDir, quarantine} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			return unchecked(), &argError{err}
		}
	}

	var co C.struct_hexoid_gate_options
	C.hexoid_gate_options_init(&co, C.size_t(unsafe.Sizeof(co)))
	co.algo = C.enum_hexoid_algo(o.Algo)
	co.mixed = cBool(o.Mixed)
	co.report_only = cBool(o.ReportOnly)
	co.jobs = C.uint(o.Jobs)
	if o.Timeout > 0 {
		ms := o.Timeout.Milliseconds()
		if ms == 0 {
			ms = 1
		}
		co.time_limit_ms = C.ulong(ms)
	}
	co.time_limit_accepts = cBool(o.TimeoutAccepts)
	co.full_walk = cBool(o.FullWalk)
	var frees []unsafe.Pointer
	defer func() {
		for _, p := range frees {
			C.free(p)
		}
	}()
	cstr := func(s string) *C.char {
		if s == "" {
			return nil
		}
		p := C.CString(s)
		frees = append(frees, unsafe.Pointer(p))
		return p
	}
	co.git = cstr(o.Git)
	co.git_dir = cstr(o.GitDir)
	co.quarantine = cstr(quarantine)
	if len(o.Alternates) > 0 {
		size := C.size_t(len(o.Alternates)+1) * C.size_t(unsafe.Sizeof((*C.char)(nil)))
		arr := C.calloc(1, size)
		if arr == nil {
			return unchecked(), errors.New("hexoid: out of memory")
		}
		frees = append(frees, arr)
		list := unsafe.Slice((**C.char)(arr), len(o.Alternates)+1)
		for i, a := range o.Alternates {
			list[i] = cstr(a)
		}
		co.alternates = (**C.char)(arr)
	}

	res := &PushResult{}
	st := &gateState{res: res}
	handle := cgo.NewHandle(st)
	defer handle.Delete()
	errbuf := (*C.char)(C.calloc(1, 512))
	if errbuf == nil {
		return unchecked(), errors.New("hexoid: out of memory")
	}
	frees = append(frees, unsafe.Pointer(errbuf))
	g := C.hx_gate_new(&co, C.uintptr_t(handle), errbuf, 512)
	if g == nil {
		return unchecked(), fmt.Errorf("%w: %s", ErrPushArgs, C.GoString(errbuf))
	}
	defer C.hexoid_gate_free(g)
	for _, u := range updates {
		cold, cnew, cref := C.CString(u.Old), C.CString(u.New), C.CString(u.Ref)
		rc := C.hexoid_gate_add_update(g, cold, cnew, cref, errbuf, 512)
		C.free(unsafe.Pointer(cold))
		C.free(unsafe.Pointer(cnew))
		C.free(unsafe.Pointer(cref))
		if rc != 0 {
			return unchecked(), fmt.Errorf("%w: %s: %s", ErrPushArgs, u.Ref, C.GoString(errbuf))
		}
	}

	var cr C.struct_hexoid_gate_result
	// The context is watched from beside the run; the gate may be cancelled from any
	// thread, and the watch ends before the gate is freed.
	stop := watch(ctx, func() { C.hexoid_gate_cancel(g) })
	rc := C.hexoid_gate_run(g, &cr, errbuf, 512)
	stop()
	if st.didPanic {
		panic(st.panicked)
	}
	res.Verdict = Verdict(cr.verdict)
	res.Complete = cr.complete != 0
	res.TimedOut = cr.timed_out != 0
	res.Rejecting = uint64(cr.rejecting)
	res.Warnings = uint64(cr.warnings)
	if rc < 0 {
		res.Verdict, res.Complete = Unchecked, false
		return res, fmt.Errorf("%w: %s", ErrPushArgs, C.GoString(errbuf))
	}
	if rc == 1 {
		res.Verdict, res.Complete = Unchecked, false
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("hexoid: push check stopped: %w", err)
		}
		return res, errors.New("hexoid: push check stopped")
	}
	return res, nil
}

func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
