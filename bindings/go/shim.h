/*
 * The C side of the Go package: results by value, so that no Go memory is handed to C
 * to be written, and the listing checker's callback, which finds its Go state through a
 * runtime/cgo.Handle (an integer) rather than a Go pointer.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_GO_SHIM_H
#define HEXOID_GO_SHIM_H

#include <stddef.h>
#include <stdint.h>

/* cgo calls functions, not macros: the library's own hexoid_decode() and friends. */
#define HEXOID_NO_INLINE
#include <hexoid.h>
#include <hexoid_audit.h>
#include <hexoid_codes.h>
#include <hexoid_gate.h>
#include <hexoid_listing.h>
#include <hexoid_repair.h>

struct hx_result {
	size_t record, column;
	int status;
};

/* hexoid_decode(); on failure, the output of the bad record and of every one after it
 * (up to n) is zeroed, so out never holds a half-decoded ID. */
struct hx_result hx_decode(unsigned char *out, const char *in, size_t n, size_t stride,
			   int algo, int kind);

struct hexoid_listing *hx_listing_new(int format, int algo, int kind, uintptr_t handle,
				      int want_problems);

/*
 * A repository audit driven from Go: the Go side is reached through a cgo.Handle, and a
 * cancel flag in C memory, set from another goroutine, is the audit's options.cancel:
 * the library stops promptly (before each file and pack, and within packs several
 * times a second) without a call into Go.
 */
struct hx_audit {
	uintptr_t handle;
	int want_progress;
	int cancel;          /* read and written atomically */
	char err[512];
};
void hx_audit_cancel(struct hx_audit *h);
int hx_audit_cancelled(struct hx_audit *h);
/* hexoid_audit_run() with the Go callbacks: 0 done, 1 stopped, -1 (h->err says why). */
int hx_audit_run(struct hexoid_audit *a, struct hx_audit *h, unsigned jobs, int verify_ids);

/*
 * A repair driven from Go, as the audit is: the Go side through a cgo.Handle, and a
 * cancel flag in C memory that on_step reads before each change the repair would make,
 * so that a context done stops it between two steps without a call into Go (the
 * library lets go of its locks then). Actions are always told to Go, findings left only
 * when asked for, steps only when a test asks for them.
 */
struct hx_repair {
	uintptr_t handle;
	int want_left;
	int want_step;
	int cancel;          /* read and written atomically */
	char err[512];
};
void hx_repair_cancel(struct hx_repair *h);
/* hexoid_repair_apply() with the Go callbacks: 0 done, 1 stopped, 2 some left, -1
 * (h->err says why). flags: the HX_REPAIR_* below. */
enum { HX_REPAIR_REWRITE = 1, HX_REPAIR_DROP_SIGNATURES = 2, HX_REPAIR_REPLACE_REFS = 4 };
int hx_repair_run(struct hexoid_repair *rp, struct hx_repair *h, unsigned jobs, int dry_run,
		  int flags);

/* A push check driven from Go: hexoid_gate_new() with callbacks that reach the Go side
 * through a cgo.Handle. hexoid_gate_cancel() is called from Go directly. */
struct hexoid_gate *hx_gate_new(struct hexoid_gate_options *o, uintptr_t handle, char *err,
				size_t errlen);

#endif
