/*
 * The AVX2 decode kernel: validate and decode hex records, 32 digits per vector.
 *
 * Each digit is classified and converted with two vpshufb table lookups:
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
 * letter row's). vpshufb yields 0 for an index byte with its top bit set, so LO needs no
 * masking and every byte >= 0x80 comes out bad. Only the HI table depends on the kind,
 * so HEXOID_LOWER costs exactly what HEXOID_MIXED costs.
 *
 * Pairs of digits become bytes with vpmaddubsw (16 * first + second, as 16-bit lanes) and
 * vpackuswb, whose per-lane order one vpermq puts right. The `cls` bytes of a group of
 * records are folded with vpminub and tested once per group; a bad group is then redone
 * one record at a time to find the first bad one.
 *
 * Memory: nothing outside [in, in + (n-1)*stride + hexsz) is read, whatever the stride.
 * A group of four 40-digit records reads bytes between its records (never past its last
 * digit) to load each record's digits where the lanes want them; a 64-digit record, or a
 * 40-digit one alone (as 32 + 16 bytes overlapping at offset 24), is read within its own
 * digits. Stores stay inside out[0, n*rawsz): a group of 40-digit records writes 8 bytes
 * past its own output, which the next group overwrites, so that loop always leaves at
 * least one record for later.
 *
 * SPDX-License-Identifier: MIT
 */
#include "simd.h"

#include "../kernel.h"

struct decoder {
	simde__m256i hi_tab; /* offset (and row class) by high nibble; depends on the kind */
	simde__m256i lo_tab; /* column class by low nibble */
	simde__m256i nibble; /* 0x0f in every byte */
	simde__m256i weight; /* 16, 1, 16, 1, ...: vpmaddubsw merges digit pairs into bytes */
};

HEXOID_INLINE struct decoder decoder_init(enum hexoid_kind kind)
{
	struct decoder d;
	/* Offsets: -'0' = 0xd0, -('A' - 10) = 0xc9, -('a' - 10) = 0xa9, as signed chars. */
	char upper = kind == HEXOID_LOWER ? 0 : (char)0xc9;
	/* vpshufb looks up within each 128-bit lane: both lanes hold the same table. */
	d.hi_tab = simde_mm256_setr_epi8(0, 0, 0, (char)0xd0, upper, 0, (char)0xa9, 0,
					 0, 0, 0, 0, 0, 0, 0, 0,
					 0, 0, 0, (char)0xd0, upper, 0, (char)0xa9, 0,
					 0, 0, 0, 0, 0, 0, 0, 0);
	d.lo_tab = simde_mm256_setr_epi8(0x10, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x10,
					 0x10, 0x10, 0, 0, 0, 0, 0, 0,
					 0x10, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x10,
					 0x10, 0x10, 0, 0, 0, 0, 0, 0);
	d.nibble = simde_mm256_set1_epi8(0x0f);
	d.weight = simde_mm256_set1_epi16(0x0110);
	return d;
}

/*
 * The nibbles of 32 digits; their classes go to *ok, or are folded into it with vpminub
 * when `fold` is set (a zero byte there = a bad digit).
 */
HEXOID_INLINE simde__m256i nibbles(const struct decoder *d, simde__m256i v, simde__m256i *ok,
				   int fold)
{
	simde__m256i row = simde_mm256_and_si256(simde_mm256_srli_epi16(v, 4), d->nibble);
	simde__m256i off = simde_mm256_shuffle_epi8(d->hi_tab, row);
	simde__m256i cls = simde_mm256_and_si256(off, simde_mm256_shuffle_epi8(d->lo_tab, v));
	*ok = fold ? simde_mm256_min_epu8(*ok, cls) : cls;
	return simde_mm256_add_epi8(v, off);
}

/* The same for 16 digits, with the low lanes of the tables; their classes go to *ok. */
HEXOID_INLINE simde__m128i nibbles128(const struct decoder *d, simde__m128i v, simde__m128i *ok)
{
	simde__m128i row = simde_mm_and_si128(simde_mm_srli_epi16(v, 4),
					      simde_mm256_castsi256_si128(d->nibble));
	simde__m128i off = simde_mm_shuffle_epi8(simde_mm256_castsi256_si128(d->hi_tab), row);
	*ok = simde_mm_and_si128(off,
				 simde_mm_shuffle_epi8(simde_mm256_castsi256_si128(d->lo_tab), v));
	return simde_mm_add_epi8(v, off);
}

/* 32 nibbles -> 16 bytes, as 16-bit lanes (each below 256) ready for vpackuswb. */
HEXOID_INLINE simde__m256i merge(const struct decoder *d, simde__m256i nib)
{
	return simde_mm256_maddubs_epi16(nib, d->weight);
}

HEXOID_INLINE simde__m128i merge128(const struct decoder *d, simde__m128i nib)
{
	return simde_mm_maddubs_epi16(nib, simde_mm256_castsi256_si128(d->weight));
}

/*
 * Two merged vectors -> their 32 bytes in order. vpackuswb packs within lanes, giving
 * a.lo b.lo | a.hi b.hi; vpermq swaps the middle quarters to a.lo a.hi | b.lo b.hi.
 */
HEXOID_INLINE simde__m256i pack(simde__m256i a, simde__m256i b)
{
	return simde_mm256_permute4x64_epi64(simde_mm256_packus_epi16(a, b), 0xd8);
}

HEXOID_INLINE int any_bad(simde__m256i ok)
{
	simde__m256i zero = simde_mm256_setzero_si256();
	return simde_mm256_movemask_epi8(simde_mm256_cmpeq_epi8(ok, zero)) != 0;
}

HEXOID_INLINE int any_bad128(simde__m128i ok)
{
	return simde_mm_movemask_epi8(simde_mm_cmpeq_epi8(ok, simde_mm_setzero_si128())) != 0;
}

HEXOID_INLINE simde__m256i load32(const char *p)
{
	return simde_mm256_loadu_si256((const simde__m256i *)(const void *)p);
}

HEXOID_INLINE simde__m128i load16(const char *p)
{
	return simde_mm_loadu_si128((const simde__m128i *)(const void *)p);
}

HEXOID_INLINE void store32(unsigned char *p, simde__m256i v)
{
	simde_mm256_storeu_si256((simde__m256i *)(void *)p, v);
}

HEXOID_INLINE void store16(unsigned char *p, simde__m128i v)
{
	simde_mm_storeu_si128((simde__m128i *)(void *)p, v);
}

/* The 8 bytes at p in all four quarters: vpbroadcastq straight from memory. */
HEXOID_INLINE simde__m256i broadcast8(const char *p)
{
	int64_t x;
	memcpy(&x, p, sizeof(x));
	return simde_mm256_set1_epi64x(x);
}

/* One 40-digit record; returns nonzero when it is good. */
HEXOID_INLINE int one40(const struct decoder *d, unsigned char *out, const char *in)
{
	simde__m256i ok;
	simde__m128i ok_tail;
	simde__m256i head = nibbles(d, load32(in), &ok, 0);
	/* Digits 24..39: overlaps the head rather than read past the record's end. */
	simde__m128i tail = nibbles128(d, load16(in + 24), &ok_tail);
	if (out) {
		simde__m256i h = merge(d, head);
		store16(out, simde_mm_packus_epi16(simde_mm256_castsi256_si128(h),
						   simde_mm256_extracti128_si256(h, 1)));
		/* Output bytes 12..19; 12..15 rewrite what the store above wrote. */
		simde__m128i t = merge128(d, tail);
		simde_mm_storeu_si64(out + 12, simde_mm_packus_epi16(t, t));
	}
	return !(any_bad(ok) | any_bad128(ok_tail));
}

/*
 * The 16 bytes at lo in the low lane and the 16 at hi in the high one: two loads and a
 * blend, which every vector ALU port takes (vinserti128 and vpermq take a shuffle port,
 * the one this kernel runs short of). The second load starts at hi - 16: the caller
 * makes sure that it lies within the records.
 */
HEXOID_INLINE simde__m256i halves(const char *lo, const char *hi)
{
	return simde_mm256_blend_epi32(load32(lo), load32(hi - 16), 0xf0);
}

/*
 * Four 40-digit records at in + k*stride; returns nonzero when all four are good.
 *
 * Digits 0..31 of records 0 and 1 are loaded as two vectors of halves, 0..15 of both and
 * 16..31 of both, so that vpackuswb alone puts record 0's 16 bytes in the low lane and
 * record 1's in the high one (no vpermq); likewise records 2 and 3. Digits 32..39 of the
 * four fill one vector, each quarter a 32-byte load blended in: loads that may reach past
 * a record's digits into the bytes after it, but never past the fourth record's last
 * digit, so never outside [in, in + 3*stride + 40).
 *
 * Output: the last 4 bytes of each record go first, two records to a 32-byte store of
 * the same vector (bytes 16 and 36, then 56 and 76 of the group's output), then each
 * record's first 16 bytes, which overwrite what those stores put around them. The second store writes 8 bytes
 * past the group's output, which the next group overwrites, so the caller makes sure
 * that at least one record follows.
 */
HEXOID_INLINE int four40(const struct decoder *d, unsigned char *out, const char *in,
			 size_t stride)
{
	const char *in1 = in + stride, *in2 = in1 + stride, *in3 = in2 + stride;
	simde__m256i ok, v0, v1, v2, v3;
	v0 = load32(in);
	v1 = load32(in1);
	v2 = load32(in2);
	v3 = load32(in3);
	simde__m256i h0 = nibbles(d, v0, &ok, 0);
	simde__m256i h1 = nibbles(d, v1, &ok, 1);
	simde__m256i h2 = nibbles(d, v2, &ok, 1);
	simde__m256i h3 = nibbles(d, v3, &ok, 1);
	/*
	 * Digits 32..39 in the quarters 2, 0, 1, 3 of records 0..3: the order in which
	 * the tail stores below find them. A quarter k of a load at p holds p + 8k.
	 */
	simde__m256i t20 = simde_mm256_blend_epi32(load32(in2 + 32), load32(in + 24), 0x0c);
	simde__m256i t13 = simde_mm256_blend_epi32(load32(in1 + 16), load32(in3 + 8), 0xc0);
	simde__m256i t = nibbles(d, simde_mm256_blend_epi32(t20, t13, 0xf0), &ok, 1);
	if (out) {
		/*
		 * The records' last 4 bytes as dwords, per lane: 2 0 2 0 | 1 3 1 3. Stored
		 * at out + 12, dwords 1 and 6 land on records 0's and 1's; at out + 56,
		 * dwords 0 and 5 on records 2's and 3's.
		 */
		simde__m256i tt = merge(d, t);
		simde__m256i tails = simde_mm256_packus_epi16(tt, tt);
		store32(out + 12, tails);
		store32(out + 56, tails);
		simde__m256i p01 = pack(merge(d, h0), merge(d, h1));
		simde__m256i p23 = pack(merge(d, h2), merge(d, h3));
		store16(out, simde_mm256_castsi256_si128(p01));
		store16(out + 20, simde_mm256_extracti128_si256(p01, 1));
		store16(out + 40, simde_mm256_castsi256_si128(p23));
		store16(out + 60, simde_mm256_extracti128_si256(p23, 1));
	}
	return !any_bad(ok);
}

/* One 64-digit record; returns nonzero when it is good. */
HEXOID_INLINE int one64(const struct decoder *d, unsigned char *out, const char *in)
{
	simde__m256i ok;
	simde__m256i a = nibbles(d, load32(in), &ok, 0);
	simde__m256i b = nibbles(d, load32(in + 32), &ok, 1);
	if (out)
		store32(out, pack(merge(d, a), merge(d, b)));
	return !any_bad(ok);
}

/* Two 64-digit records; one test for both. */
HEXOID_INLINE int two64(const struct decoder *d, unsigned char *out, const char *in,
			size_t stride)
{
	const char *in1 = in + stride;
	simde__m256i ok;
	simde__m256i a0 = nibbles(d, load32(in), &ok, 0);
	simde__m256i b0 = nibbles(d, load32(in + 32), &ok, 1);
	simde__m256i a1 = nibbles(d, load32(in1), &ok, 1);
	simde__m256i b1 = nibbles(d, load32(in1 + 32), &ok, 1);
	if (out) {
		store32(out, pack(merge(d, a0), merge(d, b0)));
		store32(out + 32, pack(merge(d, a1), merge(d, b1)));
	}
	return !any_bad(ok);
}

/*
 * The loop, specialised by the compiler for each (hexsz, validate-only) pair. Records go
 * in groups (four 40-digit or two 64-digit ones); the last few, and every record of a
 * group that holds a bad digit, go through the one-record path, which tells which record
 * is bad.
 */
HEXOID_INLINE size_t decode_loop(const struct decoder *d, unsigned char *out, const char *in,
				 size_t n, size_t stride, size_t hexsz, int validate_only)
{
	size_t rawsz = hexsz / 2;
	size_t group = hexsz == 40 ? 4 : 2;
	/* four40 writes 8 bytes past its group's output: keep a record after it. */
	size_t after = hexsz == 40 && !validate_only ? 1 : 0;
	size_t i = 0;
	for (; n - i >= group + after; i += group) {
		const char *rec = in + i * stride;
		unsigned char *o = validate_only ? NULL : out + i * rawsz;
		int good = hexsz == 40 ? four40(d, o, rec, stride) : two64(d, o, rec, stride);
		if (HEXOID_UNLIKELY(!good))
			break; /* the bad record is among the next `group`: found below */
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

size_t HEXOID_KSYM(avx2, decode)(unsigned char *out, const char *in, size_t n, size_t stride,
				 size_t hexsz, enum hexoid_kind kind)
{
	struct decoder d = decoder_init(kind);
	if (hexsz == 40)
		return out ? decode_loop(&d, out, in, n, stride, 40, 0)
			   : decode_loop(&d, NULL, in, n, stride, 40, 1);
	return out ? decode_loop(&d, out, in, n, stride, 64, 0)
		   : decode_loop(&d, NULL, in, n, stride, 64, 1);
}

/*
 * One ID per call. SHA-1: two 32-byte loads at offsets 0 and 8 cover the 40 digits with
 * byte pairs aligned and nothing read past them; they decode to output bytes 0..15 and
 * 4..19, which two overlapping 16-byte stores write. SHA-256: two loads, one store.
 * Nothing is stored unless every digit is good.
 */
HEXOID_INLINE int decode1(unsigned char *out, const char *in, size_t hexsz,
			  enum hexoid_kind kind, struct hexoid_error *err, int git)
{
	struct decoder d = decoder_init(kind);
	simde__m256i ok;
	simde__m256i a = nibbles(&d, load32(in), &ok, 0);
	simde__m256i b = nibbles(&d, load32(in + (hexsz == 40 ? 8 : 32)), &ok, 1);
	if (HEXOID_UNLIKELY(any_bad(ok)))
		return hexoid_decode1_bad(out, in, hexsz, kind, err, git);
	simde__m256i bytes = pack(merge(&d, a), merge(&d, b));
	if (!git && !out) { /* bytes1 always has out */
	} else if (hexsz == 40) {
		store16(out, simde_mm256_castsi256_si128(bytes));
		store16(out + 4, simde_mm256_extracti128_si256(bytes, 1));
	} else {
		store32(out, bytes);
	}
	return hexoid_decode1_ok(err, git);
}

HEXOID_DEFINE_DECODE1(avx2, decode1)
