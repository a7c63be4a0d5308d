/*
 * The scalar kernel: the reference every SIMD kernel is tested against, and the fallback
 * every build has.
 *
 * Decoding is SWAR: eight hex digits are loaded as one 64-bit word, turned into eight
 * nibbles and packed into four output bytes, with byte-wise arithmetic that never
 * carries from one byte into the next. A record's error bits are OR-ed over its words
 * and tested once, so the loop has one branch per record instead of one per byte as
 * git's table loop has.
 *
 * SPDX-License-Identifier: MIT
 */
#include "../kernel.h"
#include "tables.h"

#define ONES 0x0101010101010101ull

/* Bytes in string order: byte i of the string is bits 8i..8i+7 of the result. */
HEXOID_INLINE uint64_t load_le64(const char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

HEXOID_INLINE void store_le32(unsigned char *p, uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	memcpy(p, &v, sizeof(v));
}

/*
 * Decode the 8 digits in w to 4 bytes in *out4. Returns nonzero bits where a byte of w
 * is not a digit of `kind` (0 when all are good).
 *
 * Each byte's value is guessed from its low nibble, plus 9 when bit 6 is set (letters),
 * and the guess is encoded back to its lowercase digit: the byte is a digit exactly when
 * that digit is the byte itself (after folding 'A'-'F' to 'a'-'f' in MIXED). Bytes of
 * 0x80 and more never match, as every digit is ASCII.
 */
HEXOID_INLINE uint64_t swar8(uint64_t w, enum hexoid_kind kind, uint32_t *out4)
{
	uint64_t nib = ((w & 0x0f * ONES) + ((w >> 6) & ONES) * 9) & 0x0f * ONES;
	uint64_t alpha = ((nib + 0x76 * ONES) >> 7) & ONES; /* nib >= 10 */
	uint64_t digit = nib + '0' * ONES + alpha * ('a' - '0' - 10);
	uint64_t folded = kind == HEXOID_LOWER ? w : w | ((w & 0x40 * ONES) >> 1);
	/* Each 16-bit lane: first digit << 4 | second digit, in its low byte; then close up. */
	uint64_t t = ((nib << 4) | (nib >> 8)) & 0x00ff00ff00ff00ffull;
	t = (t | (t >> 8)) & 0x0000ffff0000ffffull;
	*out4 = (uint32_t)(t | (t >> 16));
	return digit ^ folded;
}

/* One record of `words` 8-digit words; returns nonzero when it holds a bad byte. */
HEXOID_INLINE uint64_t decode_record(unsigned char *out, const char *in, size_t words,
				     enum hexoid_kind kind)
{
	uint64_t bad = 0;
	for (size_t w = 0; w < words; w++) {
		uint32_t v;
		bad |= swar8(load_le64(in + 8 * w), kind, &v);
		if (out)
			store_le32(out + 4 * w, v);
	}
	return bad;
}

/* Specialised by the compiler for each constant (words, kind, validate-only). */
HEXOID_INLINE size_t decode_loop(unsigned char *out, const char *in, size_t n, size_t stride,
				 size_t words, enum hexoid_kind kind, int validate_only)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char *o = validate_only ? NULL : out + i * 4 * words;
		if (HEXOID_UNLIKELY(decode_record(o, in + i * stride, words, kind)))
			return i;
	}
	return n;
}

size_t HEXOID_KSYM(scalar, decode)(unsigned char *out, const char *in, size_t n, size_t stride,
				   size_t hexsz, enum hexoid_kind kind)
{
	int lower = kind == HEXOID_LOWER;
	if (hexsz == 40) {
		if (!out)
			return lower ? decode_loop(NULL, in, n, stride, 5, HEXOID_LOWER, 1)
				     : decode_loop(NULL, in, n, stride, 5, HEXOID_MIXED, 1);
		return lower ? decode_loop(out, in, n, stride, 5, HEXOID_LOWER, 0)
			     : decode_loop(out, in, n, stride, 5, HEXOID_MIXED, 0);
	}
	if (!out)
		return lower ? decode_loop(NULL, in, n, stride, 8, HEXOID_LOWER, 1)
			     : decode_loop(NULL, in, n, stride, 8, HEXOID_MIXED, 1);
	return lower ? decode_loop(out, in, n, stride, 8, HEXOID_LOWER, 0)
		     : decode_loop(out, in, n, stride, 8, HEXOID_MIXED, 0);
}

/* One record for the one-ID call: stored only when it is good. */
HEXOID_INLINE int decode1(unsigned char *out, const char *in, size_t hexsz,
			  enum hexoid_kind kind, struct hexoid_error *err, int git)
{
	unsigned char tmp[32];
	if (HEXOID_UNLIKELY(decode_record(tmp, in, hexsz / 8, kind)))
		return hexoid_decode1_bad(out, in, hexsz, kind, err, git);
	if (git || out) /* bytes1 always has out */
		memcpy(out, tmp, hexsz / 2);
	return hexoid_decode1_ok(err, git);
}

HEXOID_DEFINE_DECODE1(scalar, decode1)
