/*
 * Bulk and single-ID cases: every kernel of hexoid_kernel_table(), forced one at a time
 * through the public API, and the baselines, on the same inputs.
 *
 * Names are  op/algo/stride=S/kind/n=N/impl  (decode, validate),
 *            encode/algo/stride=S/n=N/impl   and  latency/algo/kind/impl,
 * so --benchmark_filter can pick any slice, and bench/report.sh compares every impl with
 * the others of the same prefix.
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"
#include "cases.h"
#include "harness.h"
#include "hexoid.h"
#include "inputs.h"

/*
 * Every iteration handles at least WINDOW records, split into calls of n records at
 * successive places in the input, so that calling into the harness once per iteration
 * does not weigh on the 1- and 16-record cases. It is a power of two (see latency).
 */
#define WINDOW 512

enum op { DECODE, VALIDATE, ENCODE, LATENCY };
enum impl { KERNEL, HEX_TO_BYTES, GITLOOP, LIBGIT2, MEMCPY, MEMCHR };

static const char *const op_names[] = { "decode", "validate", "encode", "latency" };
static const char *const impl_names[] = { "", "hex_to_bytes", "git-loop",
					  "libgit2", "memcpy", "memchr" };

struct bcase {
	enum op op;
	enum impl impl;
	enum hexoid_algo algo;
	enum hexoid_kind kind;
	size_t stride, n;
	struct hexoid_kernel_info kernel; /* impl == KERNEL */
};

/* The kernel or baseline can run here; otherwise the case is skipped with the reason. */
static int ready(bench_state *st, const struct bcase *c)
{
	char why[256];
	if (c->impl == KERNEL) {
		const struct hexoid_kernel_info *k = &c->kernel;
		if (!k->built) {
			snprintf(why, sizeof(why),
				 "kernel '%s' is not built into this library (another "
				 "architecture, no sources yet, or the compiler lacks its flags)",
				 k->name);
		} else if (!k->supported) {
			snprintf(why, sizeof(why), "this CPU lacks what kernel '%s' needs: %s",
				 k->name, k->requires);
		} else if (hexoid_set_kernel(k->name)) {
			snprintf(why, sizeof(why), "hexoid_set_kernel(\"%s\") refused it", k->name);
		} else {
			return 1;
		}
		bench_skip_with_error(st, why);
		return 0;
	}
	if (c->impl == LIBGIT2) {
		const char *missing = libgit2_missing();
		if (!missing && c->algo != HEXOID_SHA1)
			missing = "libgit2 1.5 handles SHA-1 only (its SHA-256 support is "
				  "experimental and not in Debian's build)";
		if (!missing && c->op != ENCODE && c->kind == HEXOID_LOWER)
			missing = "libgit2 accepts uppercase digits: it has no lowercase-only mode";
		if (missing) {
			bench_skip_with_error(st, missing);
			return 0;
		}
	}
	return 1;
}

static void no_memory(bench_state *st)
{
	char why[128];
	snprintf(why, sizeof(why), "cannot allocate the inputs within %zu MB "
		 "(HEXOID_BENCH_MEMORY_MB)", inputs_budget() >> 20);
	bench_skip_with_error(st, why);
}

/* A zero the compiler cannot see through: makes each latency call wait on the last. */
static volatile size_t zero;

static void run_latency(bench_state *st, const void *arg)
{
	const struct bcase *c = arg;
	if (!ready(st, c))
		return;
	size_t hexsz = hexoid_hexsz(c->algo), rawsz = hexsz / 2, stride = hexsz + 1;
	inputs_begin_case();
	const char *text = inputs_text(c->algo, stride, WINDOW);
	if (!text) {
		no_memory(st);
		return;
	}
	unsigned char out[HEXOID_MAX_RAWSZ] = { 0 };
	size_t dep = zero, at = 0;
	int bad = 0;
	/*
	 * The next ID's address depends on a byte the previous call wrote (times zero), so
	 * calls cannot overlap: this is the time from an ID's text to its bytes.
	 */
#define CHAIN(call)                                                                         \
	while (bench_keep_running(st))                                                      \
		for (size_t k = 0; k < WINDOW; k++) {                                       \
			const char *hex = text + at * stride;                               \
			bad |= (call) != 0;                                                 \
			at = (at + 1 + (out[0] & dep)) & (WINDOW - 1);                      \
		}
	switch (c->impl) {
	case KERNEL:
		CHAIN(hexoid_decode(out, hex, 1, stride, c->algo, c->kind, NULL));
		break;
	case HEX_TO_BYTES:
		CHAIN(hexoid_hex_to_bytes(out, hex, rawsz, c->kind));
		break;
	case GITLOOP:
		CHAIN(gitloop_decode_one(out, hex, rawsz, c->kind));
		break;
	case LIBGIT2:
		CHAIN(libgit2_decode_one(out, hex));
		break;
	default:
		abort();
	}
#undef CHAIN
	if (bad)
		bench_skip_with_error(st, "a valid ID was rejected");
	bench_set_processed(st, WINDOW, WINDOW * hexsz);
}

/* What a bulk case works on: `reps` calls of n records each per iteration. */
struct work {
	size_t hexsz, rawsz, reps, records, span;
	char *text;
	const unsigned char *raw;
	unsigned char *out, *copy;
};

static int prepare(bench_state *st, const struct bcase *c, struct work *w)
{
	memset(w, 0, sizeof(*w));
	w->hexsz = hexoid_hexsz(c->algo);
	w->rawsz = w->hexsz / 2;
	w->reps = c->n >= WINDOW ? 1 : WINDOW / c->n;
	w->records = w->reps * c->n;
	/* The bytes a decoder may read for one call: not the last record's tail. */
	w->span = (c->n - 1) * c->stride + w->hexsz;
	inputs_begin_case();
	w->text = inputs_text(c->algo, c->stride, w->records);
	w->raw = inputs_raw(c->algo, w->records);
	int ok = w->text && w->raw;
	if (ok && c->op == DECODE && (c->impl == KERNEL || c->impl == GITLOOP ||
				      c->impl == LIBGIT2))
		ok = (w->out = inputs_out(w->records * w->rawsz)) != NULL;
	if (ok && c->impl == MEMCPY)
		ok = (w->copy = inputs_copy(w->records * c->stride)) != NULL;
	if (!ok)
		no_memory(st);
	return ok;
}

/* Decoded bytes must match the IDs the text was made from (first 64K and the last). */
static int decoded_right(const struct work *w)
{
	size_t check = w->records < 65536 ? w->records : 65536, last = w->records - 1;
	return !memcmp(w->out, w->raw, check * w->rawsz) &&
	       !memcmp(w->out + last * w->rawsz, w->raw + last * w->rawsz, w->rawsz);
}

static void run_decode(bench_state *st, const void *arg)
{
	const struct bcase *c = arg;
	struct work w;
	if (!ready(st, c) || !prepare(st, c, &w))
		return;
	const size_t n = c->n, stride = c->stride, instep = n * stride, outstep = n * w.rawsz;
	int bad = 0;
	switch (c->impl) {
	case KERNEL:
		while (bench_keep_running(st))
			for (size_t r = 0; r < w.reps; r++)
				bad |= hexoid_decode(w.out + r * outstep, w.text + r * instep, n,
						     stride, c->algo, c->kind, NULL) != HEXOID_OK;
		break;
	case GITLOOP:
		while (bench_keep_running(st))
			for (size_t r = 0; r < w.reps; r++)
				bad |= gitloop_decode(w.out + r * outstep, w.text + r * instep, n,
						      stride, w.rawsz, c->kind) != n;
		break;
	case LIBGIT2:
		while (bench_keep_running(st))
			for (size_t r = 0; r < w.reps; r++)
				bad |= libgit2_decode(w.out + r * outstep, w.text + r * instep, n,
						      stride) != n;
		break;
	case MEMCPY:
		while (bench_keep_running(st)) {
			for (size_t r = 0; r < w.reps; r++)
				memcpy(w.copy + r * instep, w.text + r * instep, w.span);
			bench_escape(w.copy);
		}
		break;
	case MEMCHR:
		/* A byte the input never holds: memchr reads all of it, as a decoder must. */
		while (bench_keep_running(st))
			for (size_t r = 0; r < w.reps; r++)
				bad |= memchr(w.text + r * instep, 0, w.span) != NULL;
		break;
	default:
		abort();
	}
	if (bad || (w.out && !decoded_right(&w)))
		bench_skip_with_error(st, "wrong result on valid input");
	bench_set_processed(st, w.records, w.records * stride);
}

static void run_validate(bench_state *st, const void *arg)
{
	const struct bcase *c = arg;
	struct work w;
	if (!ready(st, c) || !prepare(st, c, &w))
		return;
	const size_t n = c->n, stride = c->stride, instep = n * stride;
	int bad = 0;
	switch (c->impl) {
	case KERNEL:
		while (bench_keep_running(st))
			for (size_t r = 0; r < w.reps; r++)
				bad |= hexoid_decode(NULL, w.text + r * instep, n, stride, c->algo,
						     c->kind, NULL) != HEXOID_OK;
		break;
	case GITLOOP:
		while (bench_keep_running(st))
			for (size_t r = 0; r < w.reps; r++)
				bad |= gitloop_validate(w.text + r * instep, n, stride, w.rawsz,
							c->kind) != n;
		break;
	case LIBGIT2:
		while (bench_keep_running(st))
			for (size_t r = 0; r < w.reps; r++)
				bad |= libgit2_validate(w.text + r * instep, n, stride) != n;
		break;
	case MEMCHR:
		while (bench_keep_running(st))
			for (size_t r = 0; r < w.reps; r++)
				bad |= memchr(w.text + r * instep, 0, w.span) != NULL;
		break;
	default:
		abort();
	}
	if (bad)
		bench_skip_with_error(st, "a valid input was rejected");
	bench_set_processed(st, w.records, w.records * stride);
}

static void encode_once(const struct bcase *c, const struct work *w)
{
	const size_t n = c->n, stride = c->stride, instep = n * stride, rawstep = n * w->rawsz;
	switch (c->impl) {
	case KERNEL:
		for (size_t r = 0; r < w->reps; r++)
			hexoid_encode(w->text + r * instep, stride, w->raw + r * rawstep, n,
				      c->algo);
		break;
	case GITLOOP:
		for (size_t r = 0; r < w->reps; r++)
			gitloop_encode(w->text + r * instep, stride, w->raw + r * rawstep, n,
				       w->rawsz);
		break;
	case LIBGIT2:
		for (size_t r = 0; r < w->reps; r++)
			libgit2_encode(w->text + r * instep, stride, w->raw + r * rawstep, n);
		break;
	case MEMCPY:
		/* Copy out of the text, as decode's memcpy does: the text must stay valid. */
		for (size_t r = 0; r < w->reps; r++)
			memcpy(w->copy + r * instep, w->text + r * instep, w->span);
		bench_escape(w->copy);
		break;
	default:
		abort();
	}
}

/*
 * Encode writes into the shared text the very hex it was made from, so the text stays
 * valid for the decode cases. To check the encoder all the same, spoil the first and
 * last records, encode once more (untimed) and decode them back.
 */
static int encoded_right(const struct bcase *c, const struct work *w)
{
	size_t last = w->records - 1;
	char *first_rec = w->text, *last_rec = w->text + last * c->stride;
	unsigned char back[HEXOID_MAX_RAWSZ];
	memset(first_rec, '?', w->hexsz);
	memset(last_rec, '?', w->hexsz);
	encode_once(c, w);
	return !gitloop_decode_one(back, first_rec, w->rawsz, HEXOID_LOWER) &&
	       !memcmp(back, w->raw, w->rawsz) &&
	       !gitloop_decode_one(back, last_rec, w->rawsz, HEXOID_LOWER) &&
	       !memcmp(back, w->raw + last * w->rawsz, w->rawsz);
}

static void run_encode(bench_state *st, const void *arg)
{
	const struct bcase *c = arg;
	struct work w;
	if (!ready(st, c) || !prepare(st, c, &w))
		return;
	while (bench_keep_running(st))
		encode_once(c, &w);
	if (c->impl != MEMCPY && !encoded_right(c, &w))
		bench_skip_with_error(st, "wrong hex written");
	bench_set_processed(st, w.records, w.records * w.rawsz);
}

static bench_fn *const runners[] = { run_decode, run_validate, run_encode, run_latency };

/* The kernels, best first, whether or not they are built: missing ones are skipped. */
static struct hexoid_kernel_info kernels[16];
static size_t nkernels;

static void add(enum op op, enum impl impl, const struct hexoid_kernel_info *k,
		enum hexoid_algo algo, enum hexoid_kind kind, size_t stride, size_t n)
{
	struct bcase *c = calloc(1, sizeof(*c)); /* lives as long as the registration */
	if (!c) {
		perror("hexoid-bench");
		exit(2);
	}
	*c = (struct bcase){ .op = op, .impl = impl, .algo = algo, .kind = kind,
			     .stride = stride, .n = n };
	if (k)
		c->kernel = *k;

	char name[128], size[16];
	int len = snprintf(name, sizeof(name), "%s/%s", op_names[op],
			   algo == HEXOID_SHA1 ? "sha1" : "sha256");
	if (op != LATENCY)
		len += snprintf(name + len, sizeof(name) - (size_t)len, "/stride=%zu", stride);
	if (op != ENCODE)
		len += snprintf(name + len, sizeof(name) - (size_t)len, "/%s",
				kind == HEXOID_LOWER ? "lower" : "mixed");
	if (op != LATENCY) {
		if (n >= (1u << 20))
			snprintf(size, sizeof(size), "%zuM", n >> 20);
		else if (n >= 1024)
			snprintf(size, sizeof(size), "%zuK", n >> 10);
		else
			snprintf(size, sizeof(size), "%zu", n);
		len += snprintf(name + len, sizeof(name) - (size_t)len, "/n=%s", size);
	}
	snprintf(name + len, sizeof(name) - (size_t)len, "/%s",
		 impl == KERNEL ? k->name : impl_names[impl]);
	bench_register(name, runners[op], c);
}

static void add_all(enum op op, enum hexoid_algo algo, enum hexoid_kind kind, size_t stride,
		    size_t n)
{
	static const enum impl baselines[][4] = {
		[DECODE] = { GITLOOP, LIBGIT2, MEMCPY, MEMCHR },
		[VALIDATE] = { GITLOOP, LIBGIT2, MEMCHR },
		[ENCODE] = { GITLOOP, LIBGIT2, MEMCPY },
		[LATENCY] = { HEX_TO_BYTES, GITLOOP, LIBGIT2 },
	};
	for (size_t i = 0; i < nkernels; i++)
		add(op, KERNEL, &kernels[i], algo, kind, stride, n);
	/* KERNEL is 0: it ends each row of the table above. */
	for (size_t i = 0; i < 4 && baselines[op][i] != KERNEL; i++)
		add(op, baselines[op][i], NULL, algo, kind, stride, n);
}

static void list_kernels(void)
{
	if (!nkernels) {
		nkernels = hexoid_kernel_table(kernels, sizeof(kernels) / sizeof(kernels[0]));
		if (nkernels > sizeof(kernels) / sizeof(kernels[0]))
			nkernels = sizeof(kernels) / sizeof(kernels[0]);
	}
}

static const enum hexoid_algo algos[] = { HEXOID_SHA1, HEXOID_SHA256 };
static const enum hexoid_kind kinds[] = { HEXOID_LOWER, HEXOID_MIXED };

void register_latency_cases(void)
{
	list_kernels();
	for (size_t a = 0; a < 2; a++)
		for (size_t k = 0; k < 2; k++)
			add_all(LATENCY, algos[a], kinds[k], 0, 1);
}

void register_bulk_cases(void)
{
	/*
	 * From one call's overhead to DRAM streaming. 16M records at stride 100 would be
	 * 1.6 GB of SHA-256 text plus its memcpy copy: that stride stops at 8M, which is
	 * already far beyond any cache. 8K lines (336 KB of SHA-1 text, in L2) are decoded
	 * at stride hexsz + 1 only: the peers harness's case c1s.
	 */
	static const size_t sizes[] = { 1, 16, 1 << 10, 8 << 10, 64 << 10, 1 << 20, 16 << 20 };
	const size_t nsizes = sizeof(sizes) / sizeof(sizes[0]);
	list_kernels();
	/*
	 * Registered (and so run) input by input: all the cases that read one (algo,
	 * stride) text run together, so it is generated once even when memory is tight.
	 */
	for (size_t a = 0; a < 2; a++) {
		size_t hexsz = hexoid_hexsz(algos[a]);
		const size_t strides[] = { hexsz, hexsz + 1, 100 };
		for (size_t s = 0; s < 3; s++)
			for (enum op op = DECODE; op <= ENCODE; op++)
				for (size_t k = 0; k < (op == ENCODE ? 1 : 2); k++)
					for (size_t i = 0; i < nsizes; i++) {
						size_t n = sizes[i];
						if (n == (8u << 10) &&
						    (op != DECODE || strides[s] != hexsz + 1))
							continue;
						if (strides[s] == 100 && n > (8u << 20))
							n = 8u << 20;
						add_all(op, algos[a], kinds[k], strides[s], n);
					}
	}
}
