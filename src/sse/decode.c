/*
 * The SSE decode kernel (SSSE3 + SSE4.1): validate and decode hex records, 16 digits per
 * vector.
 *
 * Each digit is classified and converted with two pshufb table lookups:
 *
 *   off = HI[v >> 4]        the value to add to the character to get its nibble:
 *                           -'0' for 0x3_, -('A' - 10) for 0x4_, -('a' - 10) for 0x6_
 *                           (0x4_ only for HEXOID_MIXED), and 0 for every other row
 *   nib = v + off           0..15 for every good digit, garbage for the others
 *   cls = off & LO[v]       nonzero exactly for the good digits
 *
 * The bit patterns of the offsets double as row classes: -'0' = 0xd0 has bit 4 set and
 * bit 0 clear, -('A' - 10) = 0xc9 and -('a' - 10) = 0xa9 have bit 0 set and bit 4 clear.
 * LO gives bit 4 to the low nibbles 0-9 (a digit row's good columns) and bit 0 to 1-6 (a
 * letter row's). pshufb yields 0 for an index byte with its top bit set, so LO needs no
 * masking and every byte >= 0x80 comes out bad. Only the HI table depends on the kind,
 * so HEXOID_LOWER costs exactly what HEXOID_MIXED costs.
 *
 * Pairs of digits become bytes with pmaddubsw (16 * first + second, as 16-bit lanes) and
 * packuswb. The `cls` bytes of a group of records are folded with pminub and tested once
 * per group; a bad group is then redone one record at a time to find the first bad one.
 *
 * Memory: every load lies inside one record's hexsz bytes, so nothing between records
 * (or past the last one) is read, whatever the stride. A 40-digit record is loaded as
 * 16 + 16 + 8 bytes, or as 16 + 16 + 16 overlapping at offset 24 when alone.
 *
 * SPDX-License-Identifier: MIT
 */
#include <simde/x86/sse4.1.h>

#include "../kernel.h"

struct decoder {
	simde__m128i hi_tab; /* offset (and row class) by high nibble; depends on the kind */
	simde__m128i lo_tab; /* column class by low nibble */
	simde__m128i nibble; /* 0x0f in every byte */
	simde__m128i weight; /* 16, 1, 16, 1, ...: pmaddubsw merges digit pairs into bytes */
};

HEXOID_INLINE struct decoder decoder_init(enum hexoid_kind kind)
{
	struct decoder d;
	/* Offsets: -'0' = 0xd0, -('A' - 10) = 0xc9, -('a' - 10) = 0xa9, as signed chars. */
	char upper = kind == HEXOID_LOWER ? 0 : (char)0xc9;
	d.hi_tab = simde_mm_setr_epi8(0, 0, 0, (char)0xd0, upper, 0, (char)0xa9, 0,
				      0, 0, 0, 0, 0, 0, 0, 0);
	d.lo_tab = simde_mm_setr_epi8(0x10, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x10,
				      0x10, 0x10, 0, 0, 0, 0, 0, 0);
	d.nibble = simde_mm_set1_epi8(0x0f);
	d.weight = simde_mm_set1_epi16(0x0110);
	return d;
}

/*
 * The nibbles of 16 digits; their classes go to *ok, or are folded into it with pminub
 * when `fold` is set (a zero byte there = a bad digit).
 */
HEXOID_INLINE simde__m128i nibbles(const struct decoder *d, simde__m128i v, simde__m128i *ok,
				   int fold)
{
	simde__m128i row = simde_mm_and_si128(simde_mm_srli_epi16(v, 4), d->nibble);
	simde__m128i off = simde_mm_shuffle_epi8(d->hi_tab, row);
	simde__m128i cls = simde_mm_and_si128(off, simde_mm_shuffle_epi8(d->lo_tab, v));
	*ok = fold ? simde_mm_min_epu8(*ok, cls) : cls;
	return simde_mm_add_epi8(v, off);
}

/* 16 nibbles -> 8 bytes, as 16-bit lanes (each below 256) ready for packuswb. */
HEXOID_INLINE simde__m128i merge(const struct decoder *d, simde__m128i nib)
{
	return simde_mm_maddubs_epi16(nib, d->weight);
}

HEXOID_INLINE int any_bad(simde__m128i ok)
{
	return simde_mm_movemask_epi8(simde_mm_cmpeq_epi8(ok, simde_mm_setzero_si128())) != 0;
}

HEXOID_INLINE simde__m128i load16(const char *p)
{
	return simde_mm_loadu_si128((const simde__m128i *)(const void *)p);
}

HEXOID_INLINE simde__m128i load8(const char *p)
{
	return simde_mm_loadl_epi64((const simde__m128i *)(const void *)p);
}

HEXOID_INLINE void store16(unsigned char *p, simde__m128i v)
{
	simde_mm_storeu_si128((simde__m128i *)(void *)p, v);
}

/* One 40-digit record; returns nonzero when it is good. */
HEXOID_INLINE int one40(const struct decoder *d, unsigned char *out, const char *in)
{
	simde__m128i ok;
	simde__m128i a = nibbles(d, load16(in), &ok, 0);
	simde__m128i b = nibbles(d, load16(in + 16), &ok, 1);
	/* Digits 24..39: overlaps b rather than read past the record's end. */
	simde__m128i c = nibbles(d, load16(in + 24), &ok, 1);
	if (out) {
		store16(out, simde_mm_packus_epi16(merge(d, a), merge(d, b)));
		/* Output bytes 12..19; 12..15 rewrite what the store above wrote. */
		simde__m128i m = merge(d, c);
		simde_mm_storeu_si64(out + 12, simde_mm_packus_epi16(m, m));
	}
	return !any_bad(ok);
}

/* Two 40-digit records at in and in + stride; returns nonzero when both are good. */
HEXOID_INLINE int two40(const struct decoder *d, unsigned char *out, const char *in,
			size_t stride)
{
	const char *in1 = in + stride;
	simde__m128i ok;
	simde__m128i a0 = nibbles(d, load16(in), &ok, 0);
	simde__m128i b0 = nibbles(d, load16(in + 16), &ok, 1);
	simde__m128i a1 = nibbles(d, load16(in1), &ok, 1);
	simde__m128i b1 = nibbles(d, load16(in1 + 16), &ok, 1);
	/* The last 8 digits of both records share one vector: exact 8-byte loads. */
	simde__m128i c = simde_mm_unpacklo_epi64(load8(in + 32), load8(in1 + 32));
	c = nibbles(d, c, &ok, 1);
	if (out) {
		simde__m128i m = merge(d, c);
		m = simde_mm_packus_epi16(m, m); /* bytes 0..3: record 0's 16..19; 4..7: record 1's */
		store16(out, simde_mm_packus_epi16(merge(d, a0), merge(d, b0)));
		simde_mm_storeu_si32(out + 16, m);
		store16(out + 20, simde_mm_packus_epi16(merge(d, a1), merge(d, b1)));
		simde_mm_storeu_si32(out + 36, simde_mm_srli_epi64(m, 32));
	}
	return !any_bad(ok);
}

/* One 64-digit record; returns nonzero when it is good. */
HEXOID_INLINE int one64(const struct decoder *d, unsigned char *out, const char *in)
{
	simde__m128i ok;
	simde__m128i a = nibbles(d, load16(in), &ok, 0);
	simde__m128i b = nibbles(d, load16(in + 16), &ok, 1);
	simde__m128i c = nibbles(d, load16(in + 32), &ok, 1);
	simde__m128i e = nibbles(d, load16(in + 48), &ok, 1);
	if (out) {
		store16(out, simde_mm_packus_epi16(merge(d, a), merge(d, b)));
		store16(out + 16, simde_mm_packus_epi16(merge(d, c), merge(d, e)));
	}
	return !any_bad(ok);
}

/* Two 64-digit records; one test for both. */
HEXOID_INLINE int two64(const struct decoder *d, unsigned char *out, const char *in,
			size_t stride)
{
	const char *in1 = in + stride;
	simde__m128i ok;
	simde__m128i a0 = nibbles(d, load16(in), &ok, 0);
	simde__m128i b0 = nibbles(d, load16(in + 16), &ok, 1);
	simde__m128i c0 = nibbles(d, load16(in + 32), &ok, 1);
	simde__m128i e0 = nibbles(d, load16(in + 48), &ok, 1);
	simde__m128i a1 = nibbles(d, load16(in1), &ok, 1);
	simde__m128i b1 = nibbles(d, load16(in1 + 16), &ok, 1);
	simde__m128i c1 = nibbles(d, load16(in1 + 32), &ok, 1);
	simde__m128i e1 = nibbles(d, load16(in1 + 48), &ok, 1);
	if (out) {
		store16(out, simde_mm_packus_epi16(merge(d, a0), merge(d, b0)));
		store16(out + 16, simde_mm_packus_epi16(merge(d, c0), merge(d, e0)));
		store16(out + 32, simde_mm_packus_epi16(merge(d, a1), merge(d, b1)));
		store16(out + 48, simde_mm_packus_epi16(merge(d, c1), merge(d, e1)));
	}
	return !any_bad(ok);
}

/*
 * The loop, specialised by the compiler for each (hexsz, validate-only) pair. Records go
 * two at a time; the odd last one, and both records of a pair that holds a bad digit,
 * go through the one-record path, which tells which record is bad.
 */
HEXOID_INLINE size_t decode_loop(const struct decoder *d, unsigned char *out, const char *in,
				 size_t n, size_t stride, size_t hexsz, int validate_only)
{
	size_t rawsz = hexsz / 2;
	size_t i = 0;
	for (; n - i >= 2; i += 2) {
		const char *rec = in + i * stride;
		unsigned char *o = validate_only ? NULL : out + i * rawsz;
		int good = hexsz == 40 ? two40(d, o, rec, stride) : two64(d, o, rec, stride);
		if (HEXOID_UNLIKELY(!good))
			break; /* the bad record is one of these two: found below */
	}
	for (; i < n; i++) {
		const char *rec = in + i * stride;
		unsigned char *o = validate_only ? NULL : out + i * rawsz;
		int good = hexsz == 40 ? one40(d, o, rec) : one64(d, o, rec);
		if (!good)
			return i;
	}
	return n;
}

size_t HEXOID_KSYM(sse, decode)(unsigned char *out, const char *in, size_t n, size_t stride,
				size_t hexsz, enum hexoid_kind kind)
{
	struct decoder d = decoder_init(kind);
	if (hexsz == 40)
		return out ? decode_loop(&d, out, in, n, stride, 40, 0)
			   : decode_loop(&d, NULL, in, n, stride, 40, 1);
	return out ? decode_loop(&d, out, in, n, stride, 64, 0)
		   : decode_loop(&d, NULL, in, n, stride, 64, 1);
}

/* One ID per call: the one-record path into scratch, copied out when good. */
HEXOID_INLINE int decode1(unsigned char *out, const char *in, size_t hexsz,
			  enum hexoid_kind kind, struct hexoid_error *err, int git)
{
	struct decoder d = decoder_init(kind);
	unsigned char tmp[32];
	if (HEXOID_UNLIKELY(!(hexsz == 40 ? one40(&d, tmp, in) : one64(&d, tmp, in))))
		return hexoid_decode1_bad(out, in, hexsz, kind, err, git);
	if (git || out) /* bytes1 always has out */
		memcpy(out, tmp, hexsz / 2);
	return hexoid_decode1_ok(err, git);
}

HEXOID_DEFINE_DECODE1(sse, decode1)
