/*
 * NEON decode kernels: validate and decode hex object IDs in one pass.
 * SPDX-License-Identifier: MIT
 *
 * Written against SIMDe's NEON API: on AArch64 every call is the native instruction, and
 * the tests also build this file through SIMDe's portable code on other hosts.
 *
 * Two kernels share the loops below and differ only in how 16 characters become 16
 * nibble values, because the cores they are for price table lookups differently:
 *
 * `neon` (every AArch64 core; tuned on Neoverse N1, two SIMD pipes, where a one-register
 * TBX is one micro-op like an ADD) chains two one-register TBX lookups. TBX leaves a lane
 * unchanged when its index is 16 or more, so no blend or compare is needed:
 *   i = c - '0'           TBX into i itself: '0'..'9' become 0..9 and ':'..'?' 0xFF;
 *                         every other lane keeps i, which is then >= 16.
 *   j = (c | fold) - 'a'  TBX into that result: 'a'..'f' become 10..15 and 'g'..'p'
 *                         0xFF; other lanes keep the first result (digits give j >= 0xCF).
 * So a lane is a hex digit exactly when it ends at 0..15, and errors are ORed together.
 * fold is 0x20 for MIXED (so 'A'..'F' read as 'a'..'f'); LOWER has no OR at all. One-
 * register tables also keep GCC from copying a multi-register table into consecutive
 * registers before every lookup, which it does with vqtbx4q.
 *
 * `neonwide` (picked on Neoverse V1, four SIMD pipes, where every TBL or TBX is two
 * micro-ops on two of them, so the four lookups per 32 digits above are its bottleneck)
 * does one lookup per 16 characters in a three-register (48-entry) table, which costs V1
 * what a one-register TBL costs. i = (c + 0x10) ^ 0x50 is a bijection on bytes that puts
 * 'A'..'F' at 1..6, '0'..'9' at 16..25 and 'a'..'f' at 33..38, so every hex digit of
 * either case has an entry of its own and no other byte reaches one. A hex digit's entry
 * is its value with bit 7 set; the others are 0, as is what TBL gives for an index of 48
 * or more, so a lane is good exactly when bit 7 is set, and errors are ANDed together.
 * The kinds differ only in the table: no case fold at all.
 *
 * Pairs of digits are joined with SLI (first << 4 | second & 15), which drops the high
 * nibbles where either classification keeps its status. VLD2 splits 32 characters into
 * the first and second digits of their pairs as it loads them.
 *
 * Records are processed four at a time (neonwide: eight) with one error test per group;
 * the outputs of a group are stored before the test, because records ahead of the bad
 * one must be decoded anyway and slots from the bad one onwards are unspecified. A
 * failing group is rescanned record by record (validation only) to find the first bad
 * record; the dispatcher then finds the column with the scalar locator.
 *
 * Loads never leave a record: 64 = 2 x 32; 40 = 32 + 8, where the 8-byte tails of two
 * records share one vector in the grouped loop, and a single record uses an overlapping
 * 16-byte load at offset 24 (even, so digit pairs stay aligned).
 */

/*
 * SIMDe's portable fallbacks ask for loop vectorization that clang cannot always do, and
 * clang reports each failure as a -Wpass-failed warning in the function that inlined them.
 * Only the emulated (test) build runs those fallbacks; the native build has no such loops.
 */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
#include <simde/arm/neon.h>

#include "../kernel.h"

struct neon_dec {
	simde_uint8x16_t digit;  /* by c - '0': 0..9, then 0xFF for ':'..'?' */
	simde_uint8x16_t letter; /* by (c | fold) - 'a': 10..15, then 0xFF for 'g'..'p' */
	simde_uint8x16_t fold;   /* 0x20: 'A'..'F' read as 'a'..'f' (MIXED only) */
	simde_uint8x16x3_t wide_tab; /* neonwide: 48 entries by (c + 0x10) ^ 0x50 */
	int lower;               /* constants in each instance of the loops */
	int wide;
};

static const uint8_t neon_digit_tab[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
					   0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static const uint8_t neon_letter_tab[16] = {10, 11, 12, 13, 14, 15, 0xff, 0xff,
					    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

/* The neonwide index of byte c, and its tables (written out by the compiler from it). */
#define NEON_WIDE_INDEX(c) ((((unsigned)(c) + 0x10u) & 0xffu) ^ 0x50u)
#define NEON_WIDE_DIGITS                                                                    \
	[NEON_WIDE_INDEX('0')] = 0x80, [NEON_WIDE_INDEX('1')] = 0x81,                       \
	[NEON_WIDE_INDEX('2')] = 0x82, [NEON_WIDE_INDEX('3')] = 0x83,                       \
	[NEON_WIDE_INDEX('4')] = 0x84, [NEON_WIDE_INDEX('5')] = 0x85,                       \
	[NEON_WIDE_INDEX('6')] = 0x86, [NEON_WIDE_INDEX('7')] = 0x87,                       \
	[NEON_WIDE_INDEX('8')] = 0x88, [NEON_WIDE_INDEX('9')] = 0x89,                       \
	[NEON_WIDE_INDEX('a')] = 0x8a, [NEON_WIDE_INDEX('b')] = 0x8b,                       \
	[NEON_WIDE_INDEX('c')] = 0x8c, [NEON_WIDE_INDEX('d')] = 0x8d,                       \
	[NEON_WIDE_INDEX('e')] = 0x8e, [NEON_WIDE_INDEX('f')] = 0x8f
static const uint8_t neon_wide_lower[48] = { NEON_WIDE_DIGITS };
static const uint8_t neon_wide_mixed[48] = {
	NEON_WIDE_DIGITS,
	[NEON_WIDE_INDEX('A')] = 0x8a, [NEON_WIDE_INDEX('B')] = 0x8b,
	[NEON_WIDE_INDEX('C')] = 0x8c, [NEON_WIDE_INDEX('D')] = 0x8d,
	[NEON_WIDE_INDEX('E')] = 0x8e, [NEON_WIDE_INDEX('F')] = 0x8f,
};

/*
 * Values of 16 hex characters: the nibble in the low 4 bits, and the status in the high
 * ones (neon: anything above 15 marks a bad byte; neonwide: bit 7 clear marks it).
 */
HEXOID_INLINE simde_uint8x16_t neon_nibbles(const struct neon_dec *k, simde_uint8x16_t c)
{
	if (k->wide) {
		simde_uint8x16_t i = simde_veorq_u8(simde_vaddq_u8(c, simde_vdupq_n_u8(0x10)),
						    simde_vdupq_n_u8(0x50));
		return simde_vqtbl3q_u8(k->wide_tab, i);
	}
	simde_uint8x16_t i = simde_vsubq_u8(c, simde_vdupq_n_u8('0'));
	/* Lowercase-only folds nothing: no OR at all in that instance of the loops. */
	simde_uint8x16_t f = k->lower ? c : simde_vorrq_u8(c, k->fold);
	simde_uint8x16_t j = simde_vsubq_u8(f, simde_vdupq_n_u8('a'));
	return simde_vqtbx1q_u8(simde_vqtbx1q_u8(i, k->digit, i), k->letter, j);
}

/* Two status vectors into one: OR keeps any bad high nibble, AND any clear bit 7. */
HEXOID_INLINE simde_uint8x16_t neon_both(const struct neon_dec *k, simde_uint8x16_t a,
					 simde_uint8x16_t b)
{
	return k->wide ? simde_vandq_u8(a, b) : simde_vorrq_u8(a, b);
}

/*
 * Whether any lane of a status vector is bad. One pairwise max (min) folds 16 lanes into
 * 8 and a general register tests them: cheaper than UMAXV (two micro-ops on one pipe of
 * N1) followed by a move of its byte.
 */
HEXOID_INLINE int neon_bad(const struct neon_dec *k, simde_uint8x16_t err)
{
	if (k->wide) {
		uint64_t m = simde_vgetq_lane_u64(
			simde_vreinterpretq_u64_u8(simde_vpminq_u8(err, err)), 0);
		return (~m & UINT64_C(0x8080808080808080)) != 0;
	}
	uint64_t m = simde_vgetq_lane_u64(simde_vreinterpretq_u64_u8(simde_vpmaxq_u8(err, err)),
					  0);
	return (m & UINT64_C(0xf0f0f0f0f0f0f0f0)) != 0;
}

HEXOID_INLINE simde_uint8x16_t neon_load16(const char *p)
{
	return simde_vld1q_u8((const uint8_t *)p);
}

/* Two 8-byte record tails in one vector, so no lookup lane is wasted on them. */
HEXOID_INLINE simde_uint8x16_t neon_load8x2(const char *p, const char *q)
{
	return simde_vcombine_u8(simde_vld1_u8((const uint8_t *)p),
				 simde_vld1_u8((const uint8_t *)q));
}

/*
 * 16 first digits and their 16 second digits (as vld2q_u8 splits 32 characters) to 16
 * bytes: SLI shifts the first in above the second's low nibble, and drops both status
 * nibbles. SIMDe 0.7.4 has no vsliq_n_u8: elsewhere, shift, mask and OR.
 */
HEXOID_INLINE simde_uint8x16_t neon_join(simde_uint8x16_t first, simde_uint8x16_t second)
{
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
	return vsliq_n_u8(second, first, 4);
#else
	return simde_vorrq_u8(simde_vshlq_n_u8(first, 4),
			      simde_vandq_u8(second, simde_vdupq_n_u8(0x0f)));
#endif
}

/* 32 interleaved nibble values (a then b: first, second, first, ...) to 16 bytes. */
HEXOID_INLINE simde_uint8x16_t neon_join_pairs(simde_uint8x16_t a, simde_uint8x16_t b)
{
	return neon_join(simde_vuzp1q_u8(a, b), simde_vuzp2q_u8(a, b));
}

/*
 * Store 32-bit lane `lane` of v at p. Through memcpy rather than vst1q_lane_u32 on a cast
 * pointer: p has no alignment, and SIMDe's portable store would dereference a uint32_t *.
 * GCC turns this into a single lane store on AArch64.
 */
#define NEON_STORE_U32_LANE(p, v, lane)                                                     \
	do {                                                                                \
		uint32_t lane_val_ =                                                        \
			simde_vgetq_lane_u32(simde_vreinterpretq_u32_u8(v), lane);          \
		memcpy((p), &lane_val_, 4);                                                 \
	} while (0)

/* One 40-character record; decodes it to o if store. Returns nonzero if it is bad. */
HEXOID_INLINE int neon_rec40(const struct neon_dec *k, unsigned char *o, const char *p,
			     const int store)
{
	simde_uint8x16x2_t h = simde_vld2q_u8((const uint8_t *)p);
	simde_uint8x16_t a = neon_nibbles(k, h.val[0]), b = neon_nibbles(k, h.val[1]);
	/* Characters 24..39: the overlap with the first 32 is harmless, it decodes the same. */
	simde_uint8x16_t c = neon_nibbles(k, neon_load16(p + 24));
	if (store) {
		simde_vst1q_u8(o, neon_join(a, b));
		/* Bytes 12..19 in lanes 0..7; lanes 4..7 are the 4 bytes h did not cover. */
		NEON_STORE_U32_LANE(o + 16, neon_join_pairs(c, c), 1);
	}
	return neon_bad(k, neon_both(k, neon_both(k, a, b), c));
}

/* One 64-character record, decoded to o if store: the status of its nibbles. */
HEXOID_INLINE simde_uint8x16_t neon_acc64(const struct neon_dec *k, unsigned char *o,
					  const char *p, const int store)
{
	simde_uint8x16x2_t h0 = simde_vld2q_u8((const uint8_t *)p);
	simde_uint8x16x2_t h1 = simde_vld2q_u8((const uint8_t *)p + 32);
	simde_uint8x16_t a0 = neon_nibbles(k, h0.val[0]), b0 = neon_nibbles(k, h0.val[1]);
	simde_uint8x16_t a1 = neon_nibbles(k, h1.val[0]), b1 = neon_nibbles(k, h1.val[1]);
	if (store) {
		simde_vst1q_u8(o, neon_join(a0, b0));
		simde_vst1q_u8(o + 16, neon_join(a1, b1));
	}
	return neon_both(k, neon_both(k, a0, b0), neon_both(k, a1, b1));
}

/* One 64-character record; decodes it to o if store. Returns nonzero if it is bad. */
HEXOID_INLINE int neon_rec64(const struct neon_dec *k, unsigned char *o, const char *p,
			     const int store)
{
	return neon_bad(k, neon_acc64(k, o, p, store));
}

/* The first bad record among the `count` records at p (one of them is known to be bad). */
HEXOID_INLINE size_t neon_find_bad(const struct neon_dec *k, const char *p, size_t stride,
				   size_t hexsz, size_t count)
{
	size_t j;
	for (j = 0; j < count; j++, p += stride)
		if (hexsz == 40 ? neon_rec40(k, NULL, p, 0) : neon_rec64(k, NULL, p, 0))
			break;
	return j;
}

/*
 * Four 40-character records from p0 on, decoded to o if store: the status of their
 * nibbles. Everything is stored before the caller tests it, see the top of the file.
 */
HEXOID_INLINE simde_uint8x16_t neon_group40(const struct neon_dec *k, unsigned char *o,
					    const char *p0, size_t stride, const int store)
{
	const char *p1 = p0 + stride, *p2 = p1 + stride, *p3 = p2 + stride;
	/* The first 32 digits of each record, split into first and second digits of their
	 * pairs by the load itself (a = first, b = second). */
	simde_uint8x16x2_t h0 = simde_vld2q_u8((const uint8_t *)p0);
	simde_uint8x16x2_t h1 = simde_vld2q_u8((const uint8_t *)p1);
	simde_uint8x16x2_t h2 = simde_vld2q_u8((const uint8_t *)p2);
	simde_uint8x16x2_t h3 = simde_vld2q_u8((const uint8_t *)p3);
	simde_uint8x16_t a0 = neon_nibbles(k, h0.val[0]), b0 = neon_nibbles(k, h0.val[1]);
	simde_uint8x16_t a1 = neon_nibbles(k, h1.val[0]), b1 = neon_nibbles(k, h1.val[1]);
	simde_uint8x16_t a2 = neon_nibbles(k, h2.val[0]), b2 = neon_nibbles(k, h2.val[1]);
	simde_uint8x16_t a3 = neon_nibbles(k, h3.val[0]), b3 = neon_nibbles(k, h3.val[1]);
	simde_uint8x16_t t01 = neon_nibbles(k, neon_load8x2(p0 + 32, p1 + 32));
	simde_uint8x16_t t23 = neon_nibbles(k, neon_load8x2(p2 + 32, p3 + 32));
	simde_uint8x16_t err = neon_both(k, neon_both(k, neon_both(k, a0, b0), neon_both(k, a1, b1)),
					 neon_both(k, neon_both(k, a2, b2), neon_both(k, a3, b3)));
	if (store) {
		/* Lane r of the tails vector holds the last 4 bytes of record r. */
		simde_uint8x16_t tails = neon_join_pairs(t01, t23);
		/*
		 * The group's 80 output bytes are contiguous, so each tail goes out as the whole
		 * vector, placed so that lane r lands at record r's bytes 16..19; the rest of
		 * each such store falls on bytes of the group that the 16-byte store of a
		 * record's first bytes, below, overwrites. Four full stores, which pair up
		 * into store-pair instructions, in place of four lane stores, each of which
		 * costs as much as a full store.
		 */
		simde_vst1q_u8(o + 16, tails);
		simde_vst1q_u8(o + 32, tails);
		simde_vst1q_u8(o + 48, tails);
		simde_vst1q_u8(o + 64, tails);
		simde_vst1q_u8(o, neon_join(a0, b0));
		simde_vst1q_u8(o + 20, neon_join(a1, b1));
		simde_vst1q_u8(o + 40, neon_join(a2, b2));
		simde_vst1q_u8(o + 60, neon_join(a3, b3));
	}
	return neon_both(k, err, neon_both(k, t01, t23));
}

HEXOID_INLINE size_t neon_run40(const struct neon_dec *k, unsigned char *out, const char *in,
				size_t n, size_t stride, const int store)
{
	/*
	 * neonwide tests eight records at a time, halving the share of the error test in
	 * each record on V1. neon keeps four: on N1 the longer loop gains nothing (GCC then
	 * gives more of its stores offsets that llvm-mca's N1 model charges SIMD slots for).
	 */
	const size_t group = k->wide ? 8 : 4;
	size_t i = 0;
	for (; i + group <= n; i += group) {
		const char *p = in + i * stride;
		/* No arithmetic on a null out: only form these pointers when storing. */
		unsigned char *o = store ? out + i * 20 : NULL;
		simde_uint8x16_t err = neon_group40(k, o, p, stride, store);
		for (size_t g = 4; g < group; g += 4)
			err = neon_both(k, err, neon_group40(k, store ? o + g * 20 : NULL,
							     p + g * stride, stride, store));
		if (HEXOID_UNLIKELY(neon_bad(k, err)))
			return i + neon_find_bad(k, p, stride, 40, group);
	}
	for (; i + 4 <= n; i += 4) {
		const char *p = in + i * stride;
		if (HEXOID_UNLIKELY(neon_bad(k, neon_group40(k, store ? out + i * 20 : NULL, p,
							    stride, store))))
			return i + neon_find_bad(k, p, stride, 40, 4);
	}
	for (; i < n; i++)
		if (neon_rec40(k, store ? out + i * 20 : NULL, in + i * stride, store))
			return i;
	return n;
}

HEXOID_INLINE size_t neon_run64(const struct neon_dec *k, unsigned char *out, const char *in,
				size_t n, size_t stride, const int store)
{
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		const char *p = in + i * stride;
		/* No arithmetic on a null out: only form these pointers when storing. */
		unsigned char *o = store ? out + i * 32 : NULL;
		simde_uint8x16_t err = neon_acc64(k, o, p, store);
		err = neon_both(k, err, neon_acc64(k, store ? o + 32 : NULL, p + stride, store));
		err = neon_both(k, err,
				neon_acc64(k, store ? o + 64 : NULL, p + 2 * stride, store));
		err = neon_both(k, err,
				neon_acc64(k, store ? o + 96 : NULL, p + 3 * stride, store));
		if (HEXOID_UNLIKELY(neon_bad(k, err)))
			return i + neon_find_bad(k, p, stride, 64, 4);
	}
	for (; i < n; i++)
		if (neon_rec64(k, store ? out + i * 32 : NULL, in + i * stride, store))
			return i;
	return n;
}

/* One instance per (kernel, hexsz, kind, validate-only): all four are constants inside. */
HEXOID_INLINE size_t neon_decode(unsigned char *out, const char *in, size_t n, size_t stride,
				 size_t hexsz, int lower, int wide)
{
	struct neon_dec k;
	memset(&k, 0, sizeof(k));
	if (wide) {
		k.wide_tab = simde_vld1q_u8_x3(lower ? neon_wide_lower : neon_wide_mixed);
	} else {
		k.digit = simde_vld1q_u8(neon_digit_tab);
		k.letter = simde_vld1q_u8(neon_letter_tab);
		k.fold = simde_vdupq_n_u8(0x20);
	}
	k.lower = lower;
	k.wide = wide;

	/* Separate instances with and without stores, so validation carries no branch. */
	if (hexsz == 40)
		return out ? neon_run40(&k, out, in, n, stride, 1)
			   : neon_run40(&k, NULL, in, n, stride, 0);
	return out ? neon_run64(&k, out, in, n, stride, 1)
		   : neon_run64(&k, NULL, in, n, stride, 0);
}

size_t HEXOID_KSYM(neon, decode)(unsigned char *out, const char *in, size_t n, size_t stride,
				 size_t hexsz, enum hexoid_kind kind)
{
	return kind == HEXOID_LOWER ? neon_decode(out, in, n, stride, hexsz, 1, 0)
				    : neon_decode(out, in, n, stride, hexsz, 0, 0);
}

size_t HEXOID_KSYM(neonwide, decode)(unsigned char *out, const char *in, size_t n,
				     size_t stride, size_t hexsz, enum hexoid_kind kind)
{
	return kind == HEXOID_LOWER ? neon_decode(out, in, n, stride, hexsz, 1, 1)
				    : neon_decode(out, in, n, stride, hexsz, 0, 1);
}

/* One ID per call: the bulk kernel on one record, into scratch, copied out when good. */
HEXOID_INLINE int decode1_with(unsigned char *out, const char *in, size_t hexsz,
			       enum hexoid_kind kind, struct hexoid_error *err, int git, int wide)
{
	unsigned char tmp[32];
	if (neon_decode(tmp, in, 1, hexsz, hexsz, kind == HEXOID_LOWER, wide) != 1)
		return hexoid_decode1_bad(out, in, hexsz, kind, err, git);
	if (git || out) /* bytes1 always has out */
		memcpy(out, tmp, hexsz / 2);
	return hexoid_decode1_ok(err, git);
}

HEXOID_INLINE int decode1(unsigned char *out, const char *in, size_t hexsz,
			  enum hexoid_kind kind, struct hexoid_error *err, int git)
{
	return decode1_with(out, in, hexsz, kind, err, git, 0);
}

HEXOID_INLINE int decode1_wide(unsigned char *out, const char *in, size_t hexsz,
			       enum hexoid_kind kind, struct hexoid_error *err, int git)
{
	return decode1_with(out, in, hexsz, kind, err, git, 1);
}

HEXOID_DEFINE_DECODE1(neon, decode1)
HEXOID_DEFINE_DECODE1(neonwide, decode1_wide)
