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
