/*
 * NEON decode kernel: validate and decode hex object IDs in one pass.
 * SPDX-License-Identifier: MIT
 *
 * Written against SIMDe's NEON API: on AArch64 every call is the native instruction, and
 * the tests also build this file through SIMDe's portable code on other hosts.
 *
 * Two one-register TBX lookups do both jobs. TBX leaves a lane unchanged when its index
 * is 16 or more, so no blend or compare is needed:
 *   i = c - '0'           TBX into i itself: '0'..'9' become 0..9 and ':'..'?' 0xFF;
 *                         every other lane keeps i, which is then >= 16.
 *   j = (c | fold) - 'a'  TBX into that result: 'a'..'f' become 10..15 and 'g'..'p'
 *                         0xFF; other lanes keep the first result (digits give j >= 0xCF).
 * So a lane is a hex digit exactly when it ends at 0..15. fold is 0x20 for MIXED (so
 * 'A'..'F' read as 'a'..'f') and 0 for LOWER, the only difference between the kinds: the
 * same instructions run, so LOWER costs exactly what MIXED costs. One-register tables
 * also keep GCC from copying a multi-register table into consecutive registers before
 * every lookup, which it does with vqtbx4q.
 *
 * Records are processed four at a time with one error test (UMAXV) per group; the
 * outputs of a group are stored before the test, because records ahead of the bad one
 * must be decoded anyway and slots from the bad one onwards are unspecified. A failing
 * group is rescanned record by record (validation only) to find the first bad record;
 * the dispatcher then finds the column with the scalar locator.
 *
 * Loads never leave a record: 64 = 4 x 16; 40 = 16 + 16 + 8, where the 8-byte tails of
 * two records share one vector in the grouped loop, and a single record uses an
 * overlapping 16-byte load at offset 24 (even, so digit pairs stay aligned).
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

#include "../internal.h"

struct neon_dec {
	simde_uint8x16_t digit;  /* by c - '0': 0..9, then 0xFF for ':'..'?' */
	simde_uint8x16_t letter; /* by (c | fold) - 'a': 10..15, then 0xFF for 'g'..'p' */
	simde_uint8x16_t fold;   /* 0x20: 'A'..'F' read as 'a'..'f' (MIXED only) */
	int lower;               /* a constant in each instance of the loops */
	simde_int8x16_t weight;  /* shift counts {4, 0, 4, 0, ...}: the first digit is high */
};

static const uint8_t neon_digit_tab[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
					   0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static const uint8_t neon_letter_tab[16] = {10, 11, 12, 13, 14, 15, 0xff, 0xff,
					    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static const int8_t neon_weight[16] = {4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0};

/* Values of 16 hex characters: 0..15 each, anything above 15 marks a bad byte. */
HEXOID_INLINE simde_uint8x16_t neon_nibbles(const struct neon_dec *k, simde_uint8x16_t c)
{
	simde_uint8x16_t i = simde_vsubq_u8(c, simde_vdupq_n_u8('0'));
	/* Lowercase-only folds nothing: no OR at all in that instance of the loops. */
	simde_uint8x16_t f = k->lower ? c : simde_vorrq_u8(c, k->fold);
	simde_uint8x16_t j = simde_vsubq_u8(f, simde_vdupq_n_u8('a'));
	return simde_vqtbx1q_u8(simde_vqtbx1q_u8(i, k->digit, i), k->letter, j);
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

/* 32 nibble values (a then b) to 16 bytes: shift each first digit up, add pairs. */
HEXOID_INLINE simde_uint8x16_t neon_pack(const struct neon_dec *k, simde_uint8x16_t a,
					 simde_uint8x16_t b)
{
	return simde_vpaddq_u8(simde_vshlq_u8(a, k->weight), simde_vshlq_u8(b, k->weight));
}

/*
 * 16 first digits and their 16 second digits (as vld2q_u8 splits 32 characters) to 16
 * bytes: SLI shifts the first in above the second's low nibble, one instruction for what
 * neon_pack needs three for. SIMDe 0.7.4 has no vsliq_n_u8: elsewhere, shift and OR.
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

HEXOID_INLINE int neon_bad(simde_uint8x16_t err)
{
	return simde_vmaxvq_u8(err) > 15;
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
	simde_uint8x16_t a = neon_nibbles(k, neon_load16(p));
	simde_uint8x16_t b = neon_nibbles(k, neon_load16(p + 16));
	/* Characters 24..39: the overlap with b is harmless, it decodes the same. */
	simde_uint8x16_t c = neon_nibbles(k, neon_load16(p + 24));
	if (store) {
		simde_vst1q_u8(o, neon_pack(k, a, b));
		/* Bytes 12..19 in lanes 0..7; lanes 4..7 are the 4 bytes b did not cover. */
		NEON_STORE_U32_LANE(o + 16, neon_pack(k, c, c), 1);
	}
	return neon_bad(simde_vorrq_u8(simde_vorrq_u8(a, b), c));
}

/* One 64-character record, decoded to o if store: the OR of its nibble vectors. */
HEXOID_INLINE simde_uint8x16_t neon_acc64(const struct neon_dec *k, unsigned char *o,
					  const char *p, const int store)
{
	simde_uint8x16_t a = neon_nibbles(k, neon_load16(p));
	simde_uint8x16_t b = neon_nibbles(k, neon_load16(p + 16));
	simde_uint8x16_t c = neon_nibbles(k, neon_load16(p + 32));
	simde_uint8x16_t d = neon_nibbles(k, neon_load16(p + 48));
	if (store) {
		simde_vst1q_u8(o, neon_pack(k, a, b));
		simde_vst1q_u8(o + 16, neon_pack(k, c, d));
	}
	return simde_vorrq_u8(simde_vorrq_u8(a, b), simde_vorrq_u8(c, d));
}

/* One 64-character record; decodes it to o if store. Returns nonzero if it is bad. */
HEXOID_INLINE int neon_rec64(const struct neon_dec *k, unsigned char *o, const char *p,
			     const int store)
{
	return neon_bad(neon_acc64(k, o, p, store));
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

HEXOID_INLINE size_t neon_run40(const struct neon_dec *k, unsigned char *out, const char *in,
				size_t n, size_t stride, const int store)
{
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		const char *p0 = in + i * stride, *p1 = p0 + stride;
		const char *p2 = p1 + stride, *p3 = p2 + stride;
		/* The first 32 digits of each record, split into first and second digits of
		 * their pairs by the load itself (a = first, b = second). */
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
		simde_uint8x16_t err = simde_vorrq_u8(
			simde_vorrq_u8(simde_vorrq_u8(a0, b0), simde_vorrq_u8(a1, b1)),
			simde_vorrq_u8(simde_vorrq_u8(a2, b2), simde_vorrq_u8(a3, b3)));
		err = simde_vorrq_u8(err, simde_vorrq_u8(t01, t23));
		if (store) {
			unsigned char *o = out + i * 20;
			/* Lane r of the tails vector holds the last 4 bytes of record r. */
			simde_uint8x16_t tails = neon_pack(k, t01, t23);
			simde_vst1q_u8(o, neon_join(a0, b0));
			NEON_STORE_U32_LANE(o + 16, tails, 0);
			simde_vst1q_u8(o + 20, neon_join(a1, b1));
			NEON_STORE_U32_LANE(o + 36, tails, 1);
			simde_vst1q_u8(o + 40, neon_join(a2, b2));
			NEON_STORE_U32_LANE(o + 56, tails, 2);
			simde_vst1q_u8(o + 60, neon_join(a3, b3));
			NEON_STORE_U32_LANE(o + 76, tails, 3);
		}
		if (HEXOID_UNLIKELY(neon_bad(err)))
			return i + neon_find_bad(k, p0, stride, 40, 4);
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
		err = simde_vorrq_u8(err, neon_acc64(k, store ? o + 32 : NULL, p + stride, store));
		err = simde_vorrq_u8(err,
				     neon_acc64(k, store ? o + 64 : NULL, p + 2 * stride, store));
		err = simde_vorrq_u8(err,
				     neon_acc64(k, store ? o + 96 : NULL, p + 3 * stride, store));
		if (HEXOID_UNLIKELY(neon_bad(err)))
			return i + neon_find_bad(k, p, stride, 64, 4);
	}
	for (; i < n; i++)
		if (neon_rec64(k, store ? out + i * 32 : NULL, in + i * stride, store))
			return i;
	return n;
}

/* One instance per (hexsz, kind, validate-only): all three are constants inside. */
HEXOID_INLINE size_t neon_decode(unsigned char *out, const char *in, size_t n, size_t stride,
				 size_t hexsz, int lower)
{
	struct neon_dec k;
	k.digit = simde_vld1q_u8(neon_digit_tab);
	k.letter = simde_vld1q_u8(neon_letter_tab);
	k.fold = simde_vdupq_n_u8(0x20);
	k.lower = lower;
	k.weight = simde_vld1q_s8(neon_weight);

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
	return kind == HEXOID_LOWER ? neon_decode(out, in, n, stride, hexsz, 1)
				    : neon_decode(out, in, n, stride, hexsz, 0);
}

/* One ID per call: the bulk kernel on one record, into scratch, copied out when good. */
HEXOID_INLINE int decode1(unsigned char *out, const char *in, size_t hexsz,
			  enum hexoid_kind kind, struct hexoid_error *err, int git)
{
	unsigned char tmp[32];
	if (HEXOID_KSYM(neon, decode)(tmp, in, 1, hexsz, hexsz, kind) != 1)
		return hexoid_decode1_bad(out, in, hexsz, kind, err, git);
	if (git || out) /* bytes1 always has out */
		memcpy(out, tmp, hexsz / 2);
	return hexoid_decode1_ok(err, git);
}

HEXOID_DEFINE_DECODE1(neon, decode1)
