/*
 * Every kernel against the naive reference: every byte value at every position, random
 * counts, strides and alignments, and buffers that touch a guard page at either end.
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"

#define MAXK 16
static const size_t hexszs[] = { 40, 64 };
static const enum hexoid_kind kinds[] = { HEXOID_MIXED, HEXOID_LOWER };

static const char *kind_name(enum hexoid_kind kind)
{
	return kind == HEXOID_LOWER ? "lower" : "mixed";
}

/* A random digit the kind accepts. */
static char rand_digit(enum hexoid_kind kind)
{
	static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
	uint64_t r = test_rand();
	return (kind == HEXOID_MIXED && (r & 16)) ? upper[r & 15] : lower[r & 15];
}

/* n records of valid digits; every byte between records random, to prove it is ignored. */
static void fill_records(char *in, size_t n, size_t stride, size_t hexsz, enum hexoid_kind kind)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < stride && (i + 1 < n || j < hexsz); j++)
			in[i * stride + j] = j < hexsz ? rand_digit(kind) : (char)test_rand();
}

/* A byte `kind` rejects, uppercase half the time when that is a rejection. */
static char rand_bad(enum hexoid_kind kind)
{
	for (;;) {
		unsigned char c = (unsigned char)test_rand();
		if (kind == HEXOID_LOWER && (test_rand() & 1))
			return (char)('A' + test_rand() % 6);
		int ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
			 (kind == HEXOID_MIXED && c >= 'A' && c <= 'F');
		if (!ok)
			return (char)c;
	}
}

/*
 * Decode with kernel k and with the reference; compare status, record, column and the
 * output of every record before the bad one. Also validate-only. Returns 0 on mismatch.
 */
static int compare_decode(const struct test_kernel *k, const char *in, size_t n, size_t stride,
			  size_t hexsz, enum hexoid_kind kind, unsigned char *out,
			  unsigned char *ref_out, const char *what)
{
	struct hexoid_error e = { 0, 0, HEXOID_OK }, r = { 0, 0, HEXOID_OK },
			    v = { 0, 0, HEXOID_OK };
	size_t rawsz = hexsz / 2;
	enum hexoid_status rs = ref_decode(ref_out, in, n, stride, hexsz, kind, &r);
	enum hexoid_status ks = test_decode(k, out, in, n, stride, hexsz, kind, &e);
	enum hexoid_status vs = test_decode(k, NULL, in, n, stride, hexsz, kind, &v);
	int ok = ks == rs && vs == rs;
	if (ok && rs != HEXOID_OK)
		ok = e.record == r.record && e.column == r.column && e.status == r.status &&
		     v.record == r.record && v.column == r.column && v.status == r.status;
	size_t good = rs == HEXOID_OK ? n : r.record;
	if (ok && out && good && memcmp(out, ref_out, good * rawsz))
		ok = 0;
	if (!ok)
		test_fail(__FILE__, __LINE__,
			  "%s %s hexsz=%zu %s n=%zu stride=%zu: ref %d rec %zu col %zu, "
			  "kernel %d rec %zu col %zu, validate %d rec %zu col %zu%s",
			  k->name, what, hexsz, kind_name(kind), n, stride, rs, r.record, r.column,
			  ks, e.record, e.column, vs, v.record, v.column,
			  ks == rs ? " (or output differs)" : "");
	return ok;
}

TEST(kernels_every_byte_every_position)
{
	struct test_kernel ks[MAXK];
	size_t nk = test_kernels(ks, MAXK);
	enum { N = 9 };
	static char in[N * 80];
	static unsigned char out[N * 32], ref_out[N * 32];
	for (size_t ki = 0; ki < nk; ki++)
		for (size_t h = 0; h < 2; h++)
			for (size_t kd = 0; kd < 2; kd++) {
				size_t hexsz = hexszs[h];
				for (size_t pos = 0; pos < hexsz; pos++)
					for (unsigned b = 0; b < 256; b++) {
						/* Packed IDs and lines, the bad byte in every lane. */
						size_t stride = hexsz + (b & 1);
						size_t rec = (pos * 7 + b) % N;
						fill_records(in, N, stride, hexsz, kinds[kd]);
						in[rec * stride + pos] = (char)b;
						if (!compare_decode(&ks[ki], in, N, stride, hexsz, kinds[kd],
								    out, ref_out, "byte"))
							goto next_kernel;
					}
			}
next_kernel:;
}

static size_t pick_stride(size_t hexsz)
{
	uint64_t r = test_rand() % 12;
	return r < 9 ? hexsz + r : r == 9 ? 100 : r == 10 ? 4096 : hexsz + 1;
}

TEST(kernels_random_counts_strides_alignments)
{
	struct test_kernel ks[MAXK];
	size_t nk = test_kernels(ks, MAXK);
	size_t cap = 3000 * 4096 / 8 + 64 * 2 + 4096;
	char *buf = malloc(cap);
	unsigned char *out = malloc(32 + 3000 * 32 + 64), *ref_out = malloc(3000 * 32 + 64);
	for (size_t ki = 0; ki < nk && !test_failed(); ki++)
		for (int iter = 0; iter < 3000 && !test_failed(); iter++) {
			size_t hexsz = hexszs[test_rand() & 1];
			enum hexoid_kind kind = kinds[(test_rand() >> 8) & 1];
			size_t stride = pick_stride(hexsz);
			size_t n = iter % 10 == 0 ? test_rand() % 3001 : test_rand() % 70;
			if (stride == 4096 && n > 300)
				n %= 300;
			size_t align = test_rand() % 64;
			char *in = buf + align;
			fill_records(in, n, stride, hexsz, kind);
			int errors = n ? (int)(test_rand() % 4) : 0; /* 0 or several bad bytes */
			for (int e = 0; e < errors; e++)
				in[(test_rand() % n) * stride + test_rand() % hexsz] = rand_bad(kind);
			/*
			 * Output at any alignment too, with canaries before it and for 64 bytes
			 * after the last record (the widest store). Only that much is set and
			 * checked: the whole buffer each time made this test a byte loop over
			 * 96 KB, slow under qemu. A write further out is the guard-page tests'.
			 */
			size_t oalign = test_rand() % 32;
			unsigned char *o = out + oalign;
			size_t span = oalign + n * hexsz / 2 + 64;
			memset(out, 0xa5, span);
			compare_decode(&ks[ki], in, n, stride, hexsz, kind, o, ref_out, "random");
			for (size_t c = oalign + n * hexsz / 2; c < span; c++)
				if (out[c] != 0xa5) {
					test_fail(__FILE__, __LINE__,
						  "%s wrote past the output (n=%zu hexsz=%zu)",
						  ks[ki].name, n, hexsz);
					break;
				}
			for (size_t c = 0; c < oalign; c++)
				if (out[c] != 0xa5)
					test_fail(__FILE__, __LINE__, "%s wrote before the output",
						  ks[ki].name);
		}
	free(buf);
	free(out);
	free(ref_out);
}

/* Decode input and output that end exactly at, or start right after, a PROT_NONE page. */
TEST(kernels_guard_pages_decode)
{
	struct test_kernel ks[MAXK];
	size_t nk = test_kernels(ks, MAXK);
	static const size_t counts[] = { 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 257 };
	unsigned char *ref_out = malloc(257 * 32);
	for (size_t ki = 0; ki < nk; ki++)
		for (size_t h = 0; h < 2; h++)
			for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ci++)
				for (size_t s = 0; s < 3; s++)
					for (int at_end = 0; at_end < 2; at_end++)
						for (int last_bad = 0; last_bad < 2; last_bad++) {
							size_t hexsz = hexszs[h], n = counts[ci];
							size_t stride = hexsz + (s == 2 ? 7 : s);
							size_t span = (n - 1) * stride + hexsz;
							struct guarded gi, go;
							char *in = (char *)guarded_alloc(&gi, span, at_end);
							unsigned char *o = guarded_alloc(&go, n * hexsz / 2, at_end);
							fill_records(in, n, stride, hexsz, HEXOID_LOWER);
							/* The very last (or first) byte decides the result. */
							if (last_bad)
								in[at_end ? span - 1 : 0] = 'g';
							compare_decode(&ks[ki], in, n, stride, hexsz, HEXOID_LOWER, o,
								       ref_out, at_end ? "guard-end" : "guard-start");
							guarded_free(&gi);
							guarded_free(&go);
						}
	free(ref_out);
}

/* Encode: output records ending at / starting after a guard page, separators untouched. */
TEST(kernels_guard_pages_encode)
{
	struct test_kernel ks[MAXK];
	size_t nk = test_kernels(ks, MAXK);
	static const size_t counts[] = { 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 257 };
	char *ref = malloc(257 * 4096);
	for (size_t ki = 0; ki < nk; ki++)
		for (size_t h = 0; h < 2; h++)
			for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ci++)
				for (size_t s = 0; s < 4; s++)
					for (int at_end = 0; at_end < 2; at_end++) {
						size_t hexsz = hexszs[h], rawsz = hexsz / 2, n = counts[ci];
						size_t stride = s == 3 ? 100 : hexsz + s;
						size_t span = (n - 1) * stride + hexsz;
						struct guarded gi, go;
						unsigned char *in = guarded_alloc(&gi, n * rawsz, at_end);
						char *o = (char *)guarded_alloc(&go, span, at_end);
						for (size_t i = 0; i < n * rawsz; i++)
							in[i] = (unsigned char)test_rand();
						memset(o, '\n', span);
						memset(ref, '\n', span);
						ref_encode(ref, stride, in, n, rawsz);
						test_encode(&ks[ki], o, stride, in, n, rawsz);
						if (memcmp(o, ref, span))
							test_fail(__FILE__, __LINE__,
								  "%s encode hexsz=%zu n=%zu stride=%zu %s differs",
								  ks[ki].name, hexsz, n, stride,
								  at_end ? "at end" : "at start");
						guarded_free(&gi);
						guarded_free(&go);
					}
	free(ref);
}

TEST(kernels_encode_random_and_round_trip)
{
	struct test_kernel ks[MAXK];
	size_t nk = test_kernels(ks, MAXK);
	enum { MAXN = 1000 };
	unsigned char *in = malloc(MAXN * 32 + 64), *back = malloc(MAXN * 32);
	char *out = malloc(MAXN * 200 + 64), *ref = malloc(MAXN * 200 + 64);
	for (size_t ki = 0; ki < nk && !test_failed(); ki++)
		for (int iter = 0; iter < 400 && !test_failed(); iter++) {
			size_t hexsz = hexszs[iter & 1], rawsz = hexsz / 2;
			size_t n = test_rand() % (iter % 8 ? 40 : MAXN);
			size_t stride = pick_stride(hexsz);
			if (stride > 200)
				stride = hexsz + 1;
			size_t ia = test_rand() % 64, oa = test_rand() % 64;
			for (size_t i = 0; i < n * rawsz; i++)
				in[ia + i] = (unsigned char)test_rand();
			/* The records and 64 bytes either side of them, not the whole buffer. */
			size_t span = oa + n * stride + 64;
			if (span > MAXN * 200 + 64)
				span = MAXN * 200 + 64;
			memset(out, '|', span);
			memset(ref, '|', span);
			test_encode(&ks[ki], out + oa, stride, in + ia, n, rawsz);
			ref_encode(ref + oa, stride, in + ia, n, rawsz);
			if (memcmp(out, ref, span)) {
				test_fail(__FILE__, __LINE__, "%s encode n=%zu stride=%zu differs",
					  ks[ki].name, n, stride);
				continue;
			}
			struct hexoid_error e;
			enum hexoid_status st =
				test_decode(&ks[ki], back, out + oa, n, stride, hexsz, HEXOID_LOWER, &e);
			if (st != HEXOID_OK || (n && memcmp(back, in + ia, n * rawsz)))
				test_fail(__FILE__, __LINE__, "%s round trip n=%zu stride=%zu: status %d",
					  ks[ki].name, n, stride, st);
		}
	free(in);
	free(back);
	free(out);
	free(ref);
}

/* Known vectors: what git prints for objects every git has. */
TEST(kernels_known_git_ids)
{
	static const struct {
		const char *hex;
		unsigned char first, last;
	} ids[] = {
		/* the empty tree and the empty blob, SHA-1 and SHA-256 */
		{ "4b825dc642cb6eb9a060e54bf8d69288fbee4904", 0x4b, 0x04 },
		{ "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", 0xe6, 0x91 },
		{ "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321", 0x6e, 0x21 },
		{ "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813", 0x47, 0x13 },
	};
	struct test_kernel ks[MAXK];
	size_t nk = test_kernels(ks, MAXK);
	for (size_t ki = 0; ki < nk; ki++)
		for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
			size_t hexsz = strlen(ids[i].hex);
			unsigned char bin[32];
			char hex[65] = { 0 };
			struct hexoid_error e;
			CHECK(test_decode(&ks[ki], bin, ids[i].hex, 1, hexsz, hexsz, HEXOID_LOWER, &e) ==
				      HEXOID_OK,
			      "%s rejects %s", ks[ki].name, ids[i].hex);
			CHECK(bin[0] == ids[i].first && bin[hexsz / 2 - 1] == ids[i].last,
			      "%s decodes %s wrongly", ks[ki].name, ids[i].hex);
			test_encode(&ks[ki], hex, hexsz, bin, 1, hexsz / 2);
			CHECK(!strcmp(hex, ids[i].hex), "%s encodes %s as %s", ks[ki].name, ids[i].hex,
			      hex);
		}
}

/* Every stride from hexsz to hexsz + 8 and some large ones, at every start alignment. */
TEST(kernels_every_stride_and_alignment)
{
	struct test_kernel ks[MAXK];
	size_t nk = test_kernels(ks, MAXK);
	static const size_t counts[] = { 1, 3, 8, 33 };
	char *buf = malloc(33 * 4096 + 64);
	unsigned char *out = malloc(33 * 32), *ref_out = malloc(33 * 32);
	for (size_t ki = 0; ki < nk && !test_failed(); ki++)
		for (size_t h = 0; h < 2; h++) {
			size_t hexsz = hexszs[h];
			for (size_t s = 0; s < 11; s++) {
				size_t stride = s < 9 ? hexsz + s : s == 9 ? 100 : 4096;
				for (size_t align = 0; align < 64; align++)
					for (size_t ci = 0; ci < 4; ci++) {
						size_t n = counts[ci];
						enum hexoid_kind kind = kinds[(align + ci) & 1];
						char *in = buf + align;
						fill_records(in, n, stride, hexsz, kind);
						if ((align + s) % 3) /* a bad byte two times in three */
							in[(test_rand() % n) * stride + test_rand() % hexsz] =
								rand_bad(kind);
						compare_decode(&ks[ki], in, n, stride, hexsz, kind, out,
							       ref_out, "stride/alignment");
					}
			}
		}
	free(buf);
	free(out);
	free(ref_out);
}

/*
 * One pass in lowercase-only mode: an uppercase digit and a byte that is no hex digit in
 * the same record, at every pair of positions, in every lane. The record is EHEX at the
 * other byte wherever the uppercase digit is; EUPPER only without one.
 */
TEST(kernels_uppercase_and_nonhex_in_one_record)
{
	struct test_kernel ks[MAXK];
	size_t nk = test_kernels(ks, MAXK);
	enum { N = 5 };
	static char in[N * 72];
	static unsigned char out[N * 32], ref_out[N * 32];
	for (size_t ki = 0; ki < nk && !test_failed(); ki++)
		for (size_t h = 0; h < 2; h++) {
			size_t hexsz = hexszs[h], stride = hexsz + 1 + h * 7;
			for (size_t up = 0; up < hexsz; up++)
				for (size_t bad = 0; bad < hexsz; bad++) {
					size_t rec = (up + bad) % N;
					fill_records(in, N, stride, hexsz, HEXOID_LOWER);
					in[rec * stride + up] = (char)('A' + (up + bad) % 6);
					if (bad != up)
						in[rec * stride + bad] = "g G\r\0x/"[(up * 3 + bad) % 8];
					if (!compare_decode(&ks[ki], in, N, stride, hexsz, HEXOID_LOWER,
							    out, ref_out, "upper+nonhex"))
						goto next_kernel;
					struct hexoid_error e;
					enum hexoid_status st = test_decode(&ks[ki], NULL, in, N, stride,
									    hexsz, HEXOID_LOWER, &e);
					enum hexoid_status want = bad != up ? HEXOID_EHEX : HEXOID_EUPPER;
					if (st != want || e.record != rec || e.column != bad) {
						CHECK(0, "%s hexsz=%zu upper at %zu, bad at %zu: status %d at %zu:%zu",
						      ks[ki].name, hexsz, up, bad, st, e.record, e.column);
						goto next_kernel;
					}
				}
		next_kernel:;
		}
}

/*
 * The one-ID kernels (hexoid_decode with n = 1, hexoid_hex_to_bytes with 20 or 32 bytes).
 * Native ones are reached through the public API with each kernel forced, the portable
 * SIMDe builds directly; a direct call must leave the output untouched on a bad ID.
 */
struct one_kernel {
	const char *name;
	hexoid_decode1_fn *fn[2][2][2]; /* [bytes1][hexsz == 64][kind]; NULL: the API, forced */
};

#define ONE_EMU(isa, label)                                                                 \
	{ label,                                                                            \
	  { { { hexoid_##isa##_decode1_40_mixed_emu, hexoid_##isa##_decode1_40_lower_emu },  \
	      { hexoid_##isa##_decode1_64_mixed_emu, hexoid_##isa##_decode1_64_lower_emu } }, \
	    { { hexoid_##isa##_bytes1_40_mixed_emu, hexoid_##isa##_bytes1_40_lower_emu },    \
	      { hexoid_##isa##_bytes1_64_mixed_emu, hexoid_##isa##_bytes1_64_lower_emu } } } }

static const struct one_kernel one_emulated[] = {
#ifdef HEXOID_EMU_HAVE_SSE
	ONE_EMU(sse, "sse (simde)"),
#endif
#ifdef HEXOID_EMU_HAVE_AVX2
	ONE_EMU(avx2, "avx2 (simde)"),
#endif
#ifdef HEXOID_EMU_HAVE_AVX512
	ONE_EMU(avx512vbmi, "avx512 (simde)"),
#endif
#ifdef HEXOID_EMU_HAVE_NEON
	ONE_EMU(neon, "neon (simde)"),
	ONE_EMU(neonwide, "neonwide (simde)"),
#endif
	{ NULL, { { { NULL } } } },
};

static size_t one_kernels(struct one_kernel *list, size_t cap)
{
	struct hexoid_kernel_info info[16];
	size_t count = 0, total = hexoid_kernel_table(info, 16);
	for (size_t i = 0; i < total && i < 16 && count < cap; i++)
		if (info[i].supported)
			list[count++] = (struct one_kernel){ info[i].name, { { { NULL } } } };
	for (size_t i = 0; one_emulated[i].name && count < cap; i++)
		list[count++] = one_emulated[i];
	return count;
}

/* git's hex_to_bytes from the rules: the bytes before the first bad pair, then -1. */
static int ref_hex_to_bytes(unsigned char *bin, const char *hex, size_t len,
			    enum hexoid_kind kind)
{
	for (size_t i = 0; i < len; i++) {
		/* a pair is good exactly when a record of 20 copies of it is */
		char rec[40];
		unsigned char raw[20];
		struct hexoid_error e;
		for (size_t j = 0; j < 40; j += 2) {
			rec[j] = hex[2 * i];
			rec[j + 1] = hex[2 * i + 1];
		}
		if (ref_decode(raw, rec, 1, 40, 40, kind, &e) != HEXOID_OK)
			return -1;
		bin[i] = raw[0];
	}
	return 0;
}

/* One ID at in (hexsz digits) through kernel k; compares with the reference. */
static int compare_one(const struct one_kernel *k, const char *in, size_t hexsz,
		       enum hexoid_kind kind, unsigned char *out, const char *what)
{
	size_t rawsz = hexsz / 2;
	unsigned char ref[32], got[32];
	struct hexoid_error r = { 0, 0, HEXOID_OK }, e = { 7, 7, HEXOID_EARG },
			    v = { 7, 7, HEXOID_EARG };
	enum hexoid_status rs = ref_decode(ref, in, 1, hexsz, hexsz, kind, &r), ks, vs;
	int ok = 1;
	/* and git's call, whose failure writes exactly the bytes before the bad pair */
	unsigned char want[32], h2b[32];
	int wr, hr;
	memset(want, 0x5a, sizeof(want));
	memset(h2b, 0x5a, sizeof(h2b));
	wr = ref_hex_to_bytes(want, in, rawsz, kind);
	memset(out, 0xa5, rawsz);
	if (!k->fn[0][0][0]) {
		if (hexoid_set_kernel(k->name)) {
			test_fail(__FILE__, __LINE__, "cannot force kernel %s", k->name);
			return 0;
		}
		enum hexoid_algo algo = hexsz == 40 ? HEXOID_SHA1 : HEXOID_SHA256;
		ks = hexoid_decode(out, in, 1, hexsz, algo, kind, &e);
		vs = hexoid_decode(NULL, in, 1, hexsz, algo, kind, &v);
		hr = hexoid_hex_to_bytes(h2b, in, rawsz, kind);
		/* the library's function, not hexoid.h's inline path: the same to the byte */
		unsigned char lout[32];
		struct hexoid_error le = { 7, 7, HEXOID_EARG };
		memset(lout, 0xa5, rawsz);
		if ((hexoid_decode)(lout, in, 1, hexsz, algo, kind, &le) != ks ||
		    le.record != e.record || le.column != e.column || le.status != e.status ||
		    memcmp(lout, out, rawsz))
			ok = 0;
	} else {
		hexoid_decode1_fn *fn = k->fn[0][hexsz == 64][kind == HEXOID_LOWER];
		ks = fn(out, in, &e);
		vs = fn(NULL, in, &v);
		hr = k->fn[1][hexsz == 64][kind == HEXOID_LOWER](h2b, in, NULL);
		if (ks != HEXOID_OK) {
			/* a bad ID writes nothing */
			memset(got, 0xa5, rawsz);
			if (memcmp(out, got, rawsz))
				ok = 0;
		}
	}
	if (wr != hr || memcmp(want, h2b, sizeof(h2b)))
		ok = 0;
	if (ks != rs || vs != rs)
		ok = 0;
	else if (rs == HEXOID_OK)
		ok &= e.record == 1 && e.column == 0 && v.record == 1 && v.column == 0 &&
		      e.status == HEXOID_OK && v.status == HEXOID_OK && !memcmp(out, ref, rawsz);
	else
		ok &= e.record == 0 && e.column == r.column && e.status == r.status &&
		      v.record == 0 && v.column == r.column && v.status == r.status;
	if (!ok)
		test_fail(__FILE__, __LINE__,
			  "%s one ID %s hexsz=%zu %s: ref %d col %zu, kernel %d rec %zu col %zu, "
			  "validate %d col %zu (or output / hex_to_bytes differs)",
			  k->name, what, hexsz, kind_name(kind), rs, r.column, ks, e.record, e.column,
			  vs, v.column);
	return ok;
}

TEST(kernels_one_id_every_byte_every_position)
{
	struct one_kernel ks[MAXK];
	size_t nk = one_kernels(ks, MAXK);
	char in[64];
	unsigned char out[32];
	for (size_t ki = 0; ki < nk; ki++)
		for (size_t h = 0; h < 2; h++)
			for (size_t kd = 0; kd < 2; kd++) {
				size_t hexsz = hexszs[h];
				for (int good = 0; good < 64; good++) {
					fill_records(in, 1, hexsz, hexsz, kinds[kd]);
					if (!compare_one(&ks[ki], in, hexsz, kinds[kd], out, "good"))
						goto next_kernel;
				}
				for (size_t pos = 0; pos < hexsz; pos++)
					for (unsigned b = 0; b < 256; b++) {
						fill_records(in, 1, hexsz, hexsz, kinds[kd]);
						in[pos] = (char)b;
						/* sometimes a second bad byte later on */
						if (b & 1 && pos + 1 < hexsz)
							in[pos + 1 + test_rand() % (hexsz - pos - 1)] =
								rand_bad(kinds[kd]);
						if (!compare_one(&ks[ki], in, hexsz, kinds[kd], out, "byte"))
							goto next_kernel;
					}
			}
next_kernel:;
}

/* One ID whose first or last byte touches a PROT_NONE page, output likewise. */
TEST(kernels_one_id_guard_pages)
{
	struct one_kernel ks[MAXK];
	size_t nk = one_kernels(ks, MAXK);
	for (size_t ki = 0; ki < nk; ki++)
		for (size_t h = 0; h < 2; h++)
			for (size_t kd = 0; kd < 2; kd++)
				for (int at_end = 0; at_end < 2; at_end++)
					for (int bad = 0; bad < 3; bad++) {
						size_t hexsz = hexszs[h];
						struct guarded gi, go;
						char *in = (char *)guarded_alloc(&gi, hexsz, at_end);
						unsigned char *o = guarded_alloc(&go, hexsz / 2, at_end);
						fill_records(in, 1, hexsz, hexsz, kinds[kd]);
						if (bad)
							in[bad == 1 ? 0 : hexsz - 1] = 'g';
						compare_one(&ks[ki], in, hexsz, kinds[kd], o,
							    at_end ? "guard-end" : "guard-start");
						guarded_free(&gi);
						guarded_free(&go);
					}
}

/*
 * Lines past the caches (9 MiB of text): where automatic selection may switch kernels by
 * the size of the call (src/dispatch.c). Every native kernel, input and output ending at
 * a guard page, with one bad digit in a middle record (all before it decoded and compared)
 * and in the very last byte.
 * The portable builds are left out: at this size they would take most of the suite's time,
 * and their code is the same at any size.
 */
TEST(kernels_large_lines)
{
	struct test_kernel ks[MAXK];
	size_t nk = test_kernels(ks, MAXK);
	for (size_t h = 0; h < 2; h++) {
		size_t hexsz = hexszs[h], stride = hexsz + 1;
		size_t n = ((size_t)9 << 20) / stride;
		size_t span = (n - 1) * stride + hexsz;
		struct guarded gi, go;
		char *in = (char *)guarded_alloc(&gi, span, 1);
		unsigned char *o = guarded_alloc(&go, n * hexsz / 2, 1);
		unsigned char *ref_out = malloc(n * hexsz / 2);
		fill_records(in, n, stride, hexsz, HEXOID_LOWER);
		static const char *const where[] = { "large-middle", "large-last" };
		for (size_t w = 0; w < 2; w++) {
			size_t at = w == 0 ? (n / 2) * stride + 17 : span - 1;
			char saved = in[at];
			in[at] = w ? 'G' : 'g';
			/* the reference once, not once per kernel: it is most of this test's time */
			struct hexoid_error r = { 0, 0, HEXOID_OK };
			ref_decode(ref_out, in, n, stride, hexsz, HEXOID_LOWER, &r);
			for (size_t ki = 0; ki < nk; ki++) {
				if (ks[ki].decode)
					continue;
				struct hexoid_error e = { 0, 0, HEXOID_OK }, v = { 0, 0, HEXOID_OK };
				test_decode(&ks[ki], o, in, n, stride, hexsz, HEXOID_LOWER, &e);
				test_decode(&ks[ki], NULL, in, n, stride, hexsz, HEXOID_LOWER, &v);
				int same = e.status == r.status && e.record == r.record &&
					   e.column == r.column && v.status == r.status &&
					   v.record == r.record && v.column == r.column &&
					   !memcmp(o, ref_out, r.record * hexsz / 2);
				CHECK(same,
				      "%s %s hexsz=%zu: ref rec %zu col %zu, kernel rec %zu col %zu, "
				      "validate rec %zu col %zu (or output differs)",
				      ks[ki].name, where[w], hexsz, r.record, r.column, e.record,
				      e.column, v.record, v.column);
			}
			in[at] = saved;
		}
		free(ref_out);
		guarded_free(&gi);
		guarded_free(&go);
	}
	hexoid_set_kernel("auto");
}
