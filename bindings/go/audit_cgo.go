//go:build cgo

package hexoid

// The audit through the library.

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
	"runtime/cgo"
	"unsafe"
)

type auditState struct {
	ctx      context.Context
	fn       func(Finding) error
	progress func(string, uint64, uint64) error
	err      error
	dropped  *dropped
	panicked interface{}
	didPanic bool
}

func (st *auditState) recovered(stop *C.int) {
	if r := recover(); r != nil {
		st.panicked, st.didPanic, *stop = r, true, 1
	}
}

//export hxGoFinding
func hxGoFinding(h C.uintptr_t, f *C.struct_hexoid_audit_finding) (stop C.int) {
	st := cgo.Handle(h).Value().(*auditState)
	// A panic must not unwind through the C frames: it is raised again once C returns.
	defer st.recovered(&stop)
	if st.ctx.Err() != nil {
		st.dropped = &dropped{int(f.area), f.cls}
		return 1
	}
	if st.fn == nil {
		return 0
	}
	if err := st.fn(goFinding(f)); err != nil {
		if nt, ok := err.(notTaken); ok {
			st.dropped = &dropped{int(f.area), f.cls}
			err = nt.err
		}
		st.err = err
		return 1
	}
	return 0
}

// dropped is the finding the library counted and fn did not have: the last one, since
// none follows a callback that returns nonzero.
type dropped struct {
	area  int
	class C.enum_hexoid_finding_class
}

// goFinding copies a finding out of C memory, valid only during the callback.
func goFinding(f *C.struct_hexoid_audit_finding) Finding {
	g := Finding{
		Code:    C.GoString(C.hexoid_code_name(f.code)),
		Class:   Class(f.cls),
		Area:    C.GoString(C.hexoid_audit_area_name(f.area)),
		Path:    C.GoString(f.path),
		Line:    int(f.line),
		Column:  int(f.column),
		Offset:  -1,
		Message: C.GoString(f.message),
	}
	if f.has_oid != 0 {
		n := Algo(f.algo).RawSize()
		g.Object = hex.EncodeToString(C.GoBytes(unsafe.Pointer(&f.oid[0]), C.int(n)))
	}
	if f._type == C.HEXOID_OBJ_COMMIT || f._type == C.HEXOID_OBJ_TAG {
		g.ObjectType = C.GoString(C.hexoid_object_type_name(f._type))
	}
	if f.header != nil {
		g.Header = C.GoString(f.header)
	}
	if f.offset != C.HEXOID_NO_OFFSET {
		g.Offset = int64(f.offset)
	}
	return g
}

//export hxGoProgress
func hxGoProgress(h C.uintptr_t, what *C.char, done, total C.uint64_t) (stop C.int) {
	st := cgo.Handle(h).Value().(*auditState)
	defer st.recovered(&stop)
	if err := st.progress(C.GoString(what), uint64(done), uint64(total)); err != nil {
		st.err = err
		return 1
	}
	return 0
}

// Audit reads everything in the repository at or above path (found as git finds it)
// that Git 3.0 will reject, and everything malformed, and calls fn with each finding
// (nil only counts them), in report order, from the calling goroutine. A non-nil error
// from fn stops the audit and is returned; so does ctx's error once ctx is done: fn is
// not called again, and the audit stops promptly (the library reads a flag set from a
// goroutine watching ctx before each file and pack, and several times a second while
// packs are scanned). A panic in fn is raised again from Audit. A nil ctx is
// context.Background(). The error wraps ErrNotAudited when there is no repository (an
// *OpenError) or it cannot be read. Findings alone are not an error: the summary
// counts them. Once the repository is opened the summary is filled whatever the error:
// when the audit was stopped, it counts what was read up to the stop, and of the
// findings, exactly those fn was given.
//
// The C side holds no Go pointer: fn is reached through a runtime/cgo.Handle, deleted
// when Audit returns. Several audits may run at once in different goroutines.
func Audit(ctx context.Context, path string, opts *AuditOptions, fn func(Finding) error) (AuditSummary, error) {
	var sum AuditSummary
	if ctx == nil {
		ctx = context.Background()
	}
	var o AuditOptions
	if opts != nil {
		o = *opts
	}
	if o.Jobs < 0 || o.Jobs > 256 {
		return sum, fmt.Errorf("hexoid: Jobs %d (0..256)", o.Jobs)
	}
	if err := ctx.Err(); err != nil {
		return sum, err
	}
	h := (*C.struct_hx_audit)(C.calloc(1, C.sizeof_struct_hx_audit))
	if h == nil {
		return sum, errors.New("hexoid: out of memory")
	}
	defer C.free(unsafe.Pointer(h))
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var a *C.struct_hexoid_audit
	var why C.enum_hexoid_audit_open_error
	if o.ObjectsDir {
		a = C.hexoid_audit_open_objects(cpath, C.enum_hexoid_algo(o.Algo), &h.err[0], C.size_t(len(h.err)))
	} else {
		var flags C.uint
		if o.Exact {
			flags = C.HEXOID_AUDIT_OPEN_EXACT
		}
		a = C.hexoid_audit_open_with(cpath, flags, &why, &h.err[0], C.size_t(len(h.err)))
	}
	if a == nil {
		code := ""
		if s := C.hexoid_audit_open_error_name(why); s != nil {
			code = C.GoString(s)
		}
		return sum, openError("audit", path, code, C.GoString(&h.err[0]))
	}
	defer C.hexoid_audit_close(a)

	st := &auditState{ctx: ctx, fn: fn, progress: o.Progress}
	handle := cgo.NewHandle(st)
	defer handle.Delete()
	h.handle = C.uintptr_t(handle)
	if o.Progress != nil {
		h.want_progress = 1
	}
	// The context is watched from beside the audit: a flag in C memory stops it.
	defer watch(ctx, func() { C.hx_audit_cancel(h) })()
	verify := C.int(0)
	if o.VerifyIDs {
		verify = 1
	}
	rc := C.hx_audit_run(a, h, C.uint(o.Jobs), verify)
	if st.didPanic {
		panic(st.panicked)
	}

	// The summary, whatever stopped the audit: what it read up to then.
	sum.GitDir = C.GoString(C.hexoid_audit_gitdir(a))
	sum.Algo = Algo(C.hexoid_audit_algo(a))
	if !o.ObjectsDir {
		sum.RefStorage = "files"
		if C.hexoid_audit_ref_storage(a) == C.HEXOID_REFS_REFTABLE {
			sum.RefStorage = "reftable"
		}
	}
	for i := 0; i < C.HEXOID_AREA_COUNT; i++ {
		var c C.struct_hexoid_audit_count
		C.hexoid_audit_summary(a, C.enum_hexoid_audit_area(i), &c)
		ac := AreaCount{Area: C.GoString(C.hexoid_audit_area_name(C.enum_hexoid_audit_area(i))),
			Scanned: uint64(c.scanned), Git3: uint64(c.git3), Warn: uint64(c.warn), Errs: uint64(c.errors)}
		if d := st.dropped; d != nil && d.area == i {
			// The library counted the finding at which the context was seen done,
			// which fn never had.
			switch d.class {
			case C.HEXOID_CLASS_GIT3:
				ac.Git3--
			case C.HEXOID_CLASS_WARN:
				ac.Warn--
			default:
				ac.Errs--
			}
		}
		sum.Areas = append(sum.Areas, ac)
		sum.Total.Scanned += ac.Scanned
		sum.Total.Git3 += ac.Git3
		sum.Total.Warn += ac.Warn
		sum.Total.Errs += ac.Errs
	}

	switch {
	case st.err != nil:
		return sum, st.err
	case rc != 0 && ctx.Err() != nil:
		return sum, ctx.Err()
	case rc < 0:
		return sum, fmt.Errorf("%w: %s", ErrNotAudited, C.GoString(&h.err[0]))
	}
	return sum, nil
}
