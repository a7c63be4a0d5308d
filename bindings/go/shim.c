/*
 * The C side of the Go package (see shim.h).
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "shim.h"
#include "_cgo_export.h"

struct hx_result hx_decode(unsigned char *out, const char *in, size_t n, size_t stride,
			   int algo, int kind)
{
	struct hexoid_error e = { 0, 0, HEXOID_OK };
	struct hx_result r;

	r.status = hexoid_decode(out, in, n, stride, (enum hexoid_algo)algo,
				 (enum hexoid_kind)kind, &e);
	r.record = e.record;
	r.column = e.column;
	if (r.status != HEXOID_OK && out && r.record < n) {
		size_t rawsz = hexoid_rawsz((enum hexoid_algo)algo);
		memset(out + r.record * rawsz, 0, (n - r.record) * rawsz);
	}
	return r;
}

static int on_problem(void *ctx, const struct hexoid_problem *p)
{
	return hxGoProblem((uintptr_t)ctx, (struct hexoid_problem *)p);
}

struct hexoid_listing *hx_listing_new(int format, int algo, int kind, uintptr_t handle,
				      int want_problems)
{
	return hexoid_listing_new((enum hexoid_format)format, (enum hexoid_algo)algo,
				  (enum hexoid_kind)kind, want_problems ? on_problem : NULL, NULL,
				  (void *)handle);
}

void hx_audit_cancel(struct hx_audit *h)
{
	__atomic_store_n(&h->cancel, 1, __ATOMIC_RELAXED);
}

int hx_audit_cancelled(struct hx_audit *h)
{
	return __atomic_load_n(&h->cancel, __ATOMIC_RELAXED);
}

/* A cancel is seen by the library itself (options.cancel), before it counts a finding:
 * Go is told every finding counted, and tells which one it did not take. */
static int on_audit_finding(void *ctx, const struct hexoid_audit_finding *f)
{
	struct hx_audit *h = ctx;

	return hxGoFinding(h->handle, (struct hexoid_audit_finding *)f);
}

static int on_audit_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	struct hx_audit *h = ctx;

	if (hx_audit_cancelled(h))
		return 1;
	if (!h->want_progress)
		return 0;
	return hxGoProgress(h->handle, (char *)what, done, total);
}

int hx_audit_run(struct hexoid_audit *a, struct hx_audit *h, unsigned jobs, int verify_ids)
{
	struct hexoid_audit_options o;

	hexoid_audit_options_init(&o, sizeof(o));
	o.jobs = jobs;
	o.verify_ids = verify_ids;
	o.on_finding = on_audit_finding;
	o.on_progress = on_audit_progress;
	o.ctx = h;
	o.cancel = &h->cancel;
	return hexoid_audit_run(a, &o, h->err, sizeof(h->err));
}

void hx_repair_cancel(struct hx_repair *h)
{
	__atomic_store_n(&h->cancel, 1, __ATOMIC_RELAXED);
}

static int hx_repair_cancelled(struct hx_repair *h)
{
	return __atomic_load_n(&h->cancel, __ATOMIC_RELAXED);
}

/* Told after the action: a file changed is told to Go even once the context is done,
 * and Go says whether to go on. */
static int on_repair_action(void *ctx, const struct hexoid_repair_action *a)
{
	struct hx_repair *h = ctx;

	return hxGoRepairAction(h->handle, (struct hexoid_repair_action *)a);
}

static int on_repair_left(void *ctx, const struct hexoid_audit_finding *f)
{
	struct hx_repair *h = ctx;

	if (hx_repair_cancelled(h))
		return 1;
	if (!h->want_left)
		return 0;
	return hxGoRepairLeft(h->handle, (struct hexoid_audit_finding *)f);
}

static int on_repair_step(void *ctx, const char *what, const char *path)
{
	struct hx_repair *h = ctx;

	if (hx_repair_cancelled(h))
		return 1;
	if (!h->want_step)
		return 0;
	return hxGoRepairStep(h->handle, (char *)what, (char *)path);
}

int hx_repair_run(struct hexoid_repair *rp, struct hx_repair *h, unsigned jobs, int dry_run,
		  int flags)
{
	struct hexoid_repair_options o;

	hexoid_repair_options_init(&o, sizeof(o));
	o.jobs = jobs;
	o.dry_run = dry_run;
	o.rewrite_history = !!(flags & HX_REPAIR_REWRITE);
	o.drop_signatures = !!(flags & HX_REPAIR_DROP_SIGNATURES);
	o.replace_refs = !!(flags & HX_REPAIR_REPLACE_REFS);
	o.on_action = on_repair_action;
	o.on_left = on_repair_left;
	o.on_step = on_repair_step;
	o.ctx = h;
	return hexoid_repair_apply(rp, &o, h->err, sizeof(h->err));
}

static int on_gate_finding(void *ctx, const struct hexoid_gate_finding *f)
{
	return hxGoGateFinding((uintptr_t)ctx, (struct hexoid_gate_finding *)f);
}

static int on_gate_error(void *ctx, const char *message)
{
	return hxGoGateError((uintptr_t)ctx, (char *)message);
}

struct hexoid_gate *hx_gate_new(struct hexoid_gate_options *o, uintptr_t handle, char *err,
				size_t errlen)
{
	o->on_finding = on_gate_finding;
	o->on_error = on_gate_error;
	o->ctx = (void *)handle;
	return hexoid_gate_new(o, err, errlen);
}
