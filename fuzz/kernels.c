/*
 * libFuzzer target: every kernel this build has — the natively built ones this CPU can
 * run and the portable SIMDe builds — against the scalar kernel, on the same input,
 * algo, kind, count and stride. Any difference in status, record, column or output
 * aborts. Encode, and decode of what was encoded, must round-trip.
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/emulated.h"


static void check(int ok, const char *what, const char *kernel)
{
	if (!ok) {
		fprintf(stderr, "kernel %s: %s differs from scalar\n", kernel, what);
		abort();
	}
}

/* Decode with the public API and the kernel forced (or a kernel function directly). */
static enum hexoid_status run(const struct emulated_kernel *k, const char *name, unsigned char *out,
			      const char *in, size_t n, size_t stride, size_t hexsz,
			      enum hexoid_kind kind, struct hexoid_error *e)
{
	enum hexoid_algo algo = hexsz == 40 ? HEXOID_SHA1 : HEXOID_SHA256;
	if (!k) {
		hexoid_set_kernel(name);
		return hexoid_decode(out, in, n, stride, algo, kind, e);
	}
	e->record = n;
	e->column = 0;
	e->status = HEXOID_OK;
	size_t bad = n ? k->decode(out, in, n, stride, hexsz, kind) : n;
	if (bad < n) {
		e->record = bad;
		e->status = hexoid_scalar_locate(in + bad * stride, hexsz, kind, &e->column);
	}
	return e->status;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	/* Byte 0: algo, kind, stride extra; the rest is the records, copied to an exact-size
	 * heap buffer so ASan sees any read past the last record. */
	size_t hexsz = data[0] & 1 ? 64 : 40, rawsz = hexsz / 2;
	enum hexoid_kind kind = data[0] & 2 ? HEXOID_LOWER : HEXOID_MIXED;
	size_t stride = hexsz + ((data[0] >> 2) % 12) * ((data[0] >> 6) + 1);
	data++, size--;
	size_t n = size < hexsz ? 0 : (size - hexsz) / stride + 1;
	size_t span = n ? (n - 1) * stride + hexsz : 0;
	char *in = malloc(span ? span : 1);
	memcpy(in, data, span);
	unsigned char *want = malloc(n * rawsz + 1), *got = malloc(n * rawsz + 1);
	struct hexoid_error we, ge;
	hexoid_set_kernel("scalar");
	enum hexoid_status ws = hexoid_decode(want, in, n, stride, hexsz == 40 ? HEXOID_SHA1 : HEXOID_SHA256,
					      kind, &we);
	size_t good = ws == HEXOID_OK ? n : we.record;

	const char *names[16];
	size_t nk = hexoid_kernels(names, 16);
	for (size_t i = 0; i < nk + sizeof(emulated_kernels) / sizeof(emulated_kernels[0]) - 1; i++) {
		const struct emulated_kernel *k = i < nk ? NULL : &emulated_kernels[i - nk];
		const char *name = k ? k->name : names[i];
		enum hexoid_status gs = run(k, name, got, in, n, stride, hexsz, kind, &ge);
		check(gs == ws, "status", name);
		if (gs != HEXOID_OK)
			check(ge.record == we.record && ge.column == we.column, "error position", name);
		check(!good || !memcmp(got, want, good * rawsz), "output", name);
		gs = run(k, name, NULL, in, n, stride, hexsz, kind, &ge);
		check(gs == ws && (gs == HEXOID_OK || ge.record == we.record), "validate-only", name);

		/* Encode the good records back, into records of the same stride. */
		if (good) {
			char *text = malloc((good - 1) * stride + hexsz);
			char *ref = malloc((good - 1) * stride + hexsz);
			memset(text, '|', (good - 1) * stride + hexsz);
			memset(ref, '|', (good - 1) * stride + hexsz);
			hexoid_set_kernel("scalar");
			hexoid_encode(ref, stride, want, good, hexsz == 40 ? HEXOID_SHA1 : HEXOID_SHA256);
			if (k)
				k->encode(text, stride, want, good, rawsz);
			else {
				hexoid_set_kernel(name);
				hexoid_encode(text, stride, want, good, hexsz == 40 ? HEXOID_SHA1 : HEXOID_SHA256);
			}
			check(!memcmp(text, ref, (good - 1) * stride + hexsz), "encode", name);
			free(text);
			free(ref);
		}
	}
	free(in);
	free(want);
	free(got);
	return 0;
}
