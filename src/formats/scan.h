/*
 * Helpers for the listing checker's hot loop: finding newlines 64 bytes at a time,
 * testing IDs and fields 16 bytes at a time, and little-endian loads for reading small
 * fixed fields of a line as words.
 *
 * This folder is compiled without -m flags, so only what every CPU of the architecture
 * has is used: SSE2 on x86-64, NEON on little-endian AArch64, and plain 64-bit words
 * elsewhere (or anywhere with HEXOID_SCAN_PORTABLE defined, to test them).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_FORMATS_SCAN_H
#define HEXOID_FORMATS_SCAN_H

#include <stdint.h>
#include <string.h>

#include "../compiler.h"

#if defined(HEXOID_SCAN_PORTABLE)
#define SCAN_WORDS 1
#elif defined(__SSE2__)
#define SCAN_SSE2 1
#include <emmintrin.h>
#elif defined(__aarch64__) && defined(__ARM_NEON) && defined(__BYTE_ORDER__) &&              \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SCAN_NEON 1
#include <arm_neon.h>
#else
#define SCAN_WORDS 1
#endif

HEXOID_INLINE uint64_t scan_le64(const char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

HEXOID_INLINE uint32_t scan_le32(const char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

HEXOID_INLINE uint16_t scan_le16(const char *p)
{
	return (uint16_t)((unsigned char)p[0] | (unsigned)(unsigned char)p[1] << 8);
}

/* Copy an ID of len bytes (40 or 64). In vector registers, never `rep movs`: GCC turned
 * a memcpy of hexsz bytes in the fast-line loop into one, a quarter of the time of
 * verify-pack -v listings on Zen 4. */
HEXOID_INLINE void scan_copy_id(char *dst, const char *src, size_t len)
{
#if defined(SCAN_SSE2)
	for (size_t i = 0; i + 16 <= len; i += 16)
		_mm_storeu_si128((__m128i *)(void *)(dst + i),
				 _mm_loadu_si128((const __m128i *)(const void *)(src + i)));
	if (len % 16) /* 40: the last 16, overlapping */
		_mm_storeu_si128((__m128i *)(void *)(dst + len - 16),
				 _mm_loadu_si128((const __m128i *)(const void *)(src + len - 16)));
#elif defined(SCAN_NEON)
	for (size_t i = 0; i + 16 <= len; i += 16)
		vst1q_u8((uint8_t *)dst + i, vld1q_u8((const uint8_t *)src + i));
	if (len % 16)
		vst1q_u8((uint8_t *)dst + len - 16, vld1q_u8((const uint8_t *)src + len - 16));
#else
	memcpy(dst, src, len);
#endif
}

#if defined(SCAN_SSE2)
/* For each byte of the 16 at p: 0 if it is a hex digit (either case), else how far it is
 * over the bounds of both kinds (the constants are the callers', kept in registers). */
HEXOID_INLINE __m128i scan_hex_over(const char *p, __m128i zero, __m128i a, __m128i nine,
				    __m128i five, __m128i fold)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	return _mm_min_epu8(_mm_subs_epu8(_mm_sub_epi8(x, zero), nine),
			    _mm_subs_epu8(_mm_sub_epi8(_mm_or_si128(x, fold), a), five));
}
#endif

/* Are the len bytes at p (len 40 or 64: a multiple of 8, at least 16) all hex digits,
 * either case? Sixteen bytes at a time, the last sixteen overlapping. */
HEXOID_INLINE int scan_all_hex(const char *p, size_t len)
{
#if defined(SCAN_SSE2)
	/* Unsigned: x - '0' <= 9 for a digit, (x | 0x20) - 'a' <= 5 for a letter; the
	 * smaller of the two amounts over those bounds is 0 exactly for a hex digit. Each
	 * block is loaded once (GCC loaded it twice from one expression), the blocks'
	 * amounts are or'ed and tested once, and the loop is written out for each length:
	 * GCC kept it a loop. */
	const __m128i fold = _mm_set1_epi8(0x20), zero = _mm_set1_epi8('0'),
		      a = _mm_set1_epi8('a'), nine = _mm_set1_epi8(9), five = _mm_set1_epi8(5);
#define SCAN_HEX_OVER(at) scan_hex_over(p + (at), zero, a, nine, five, fold)
	__m128i over = _mm_or_si128(SCAN_HEX_OVER(0), SCAN_HEX_OVER(16));
	if (len == 40) {
		over = _mm_or_si128(over, SCAN_HEX_OVER(24));
	} else if (len == 64) {
		over = _mm_or_si128(over, _mm_or_si128(SCAN_HEX_OVER(32), SCAN_HEX_OVER(48)));
	} else {
		for (size_t i = 32; i < len; i += 16)
			over = _mm_or_si128(over, SCAN_HEX_OVER(i + 16 <= len ? i : len - 16));
	}
#undef SCAN_HEX_OVER
	return _mm_movemask_epi8(_mm_cmpeq_epi8(over, _mm_setzero_si128())) == 0xffff;
#elif defined(SCAN_NEON)
	uint8x16_t all = vdupq_n_u8(0xff);
	for (size_t i = 0; i < len; i += 16) {
		size_t at = i + 16 <= len ? i : len - 16;
		uint8x16_t x = vld1q_u8((const uint8_t *)p + at), y = vorrq_u8(x, vdupq_n_u8(0x20));
		uint8x16_t digit = vcleq_u8(vsubq_u8(x, vdupq_n_u8('0')), vdupq_n_u8(9));
		uint8x16_t letter = vcleq_u8(vsubq_u8(y, vdupq_n_u8('a')), vdupq_n_u8(5));
		all = vandq_u8(all, vorrq_u8(digit, letter));
	}
	return vminvq_u8(all) == 0xff;
#else
	const uint64_t ones = 0x0101010101010101ull, top = 0x8080808080808080ull;
	for (size_t i = 0; i < len; i += 8) {
		uint64_t x = scan_le64(p + i), y = x | 0x2020202020202020ull;
		/* each byte's top bit: within '0'-'9' (of x) or 'a'-'f' (of y) */
		uint64_t d = ((x | top) - '0' * ones) & ~((x | top) - ('9' + 1) * ones) & ~x & top;
		uint64_t a = ((y | top) - 'a' * ones) & ~((y | top) - ('f' + 1) * ones) & ~y & top;
		if ((d | a) != top)
			return 0;
	}
	return 1;
#endif
}

#if defined(SCAN_SSE2)
/*
 * Class masks of 16 bytes, for the fields the fast lines read whole: bit i of each is
 * byte p[i]'s (all 16 must be readable). SSE2 only: elsewhere the fast lines read the
 * same fields a word or a byte at a time.
 */

/* Bytes within [lo, lo + span], unsigned. */
HEXOID_INLINE __m128i scan_in16(__m128i x, char lo, char span)
{
	return _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(x, _mm_set1_epi8(lo)), _mm_set1_epi8(span)),
			      _mm_setzero_si128());
}

/* The bytes git log --graph draws with: " *-./\\_|" ('-', '.' and '/' are 0x2d to 0x2f). */
HEXOID_INLINE uint32_t scan_graph16(const char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i g = scan_in16(x, '-', 2);
	g = _mm_or_si128(g, _mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));
	g = _mm_or_si128(g, _mm_cmpeq_epi8(x, _mm_set1_epi8('*')));
	g = _mm_or_si128(g, _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
	g = _mm_or_si128(g, _mm_cmpeq_epi8(x, _mm_set1_epi8('_')));
	g = _mm_or_si128(g, _mm_cmpeq_epi8(x, _mm_set1_epi8('|')));
	return (uint32_t)_mm_movemask_epi8(g);
}

/* The bytes that may be in a header's name (a lowercase letter, a digit or '-'); in
 * *late, those that are a letter past 'f'. */
HEXOID_INLINE uint32_t scan_header_name16(const char *p, uint32_t *late)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i name = _mm_or_si128(_mm_or_si128(scan_in16(x, 'a', 25), scan_in16(x, '0', 9)),
				    _mm_cmpeq_epi8(x, _mm_set1_epi8('-')));
	*late = (uint32_t)_mm_movemask_epi8(scan_in16(x, 'g', 19));
	return (uint32_t)_mm_movemask_epi8(name);
}

/* The ASCII letters and digits (what --format=text's words are made of). */
HEXOID_INLINE uint32_t scan_alnum16(const char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i digit = _mm_subs_epu8(_mm_sub_epi8(x, _mm_set1_epi8('0')), _mm_set1_epi8(9));
	__m128i letter = _mm_subs_epu8(
		_mm_sub_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)), _mm_set1_epi8('a')), _mm_set1_epi8(25));
	return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(digit, letter), _mm_setzero_si128()));
}

/* Bit i set for each byte p[i], i < 32, that is no ASCII letter or digit (a word's
 * separator, to --format=text). */
HEXOID_INLINE uint32_t scan_separators32(const char *p)
{
	return ~(scan_alnum16(p) | scan_alnum16(p + 16) << 16);
}

/* The decimal digits; in *spaces, the spaces. */
HEXOID_INLINE uint32_t scan_digits16(const char *p, uint32_t *spaces)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	*spaces = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));
	return (uint32_t)_mm_movemask_epi8(scan_in16(x, '0', 9));
}

/* The spaces and tabs. */
HEXOID_INLINE uint32_t scan_blanks16(const char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	return (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')),
							_mm_cmpeq_epi8(x, _mm_set1_epi8('\t'))));
}
#endif

/* Bit i set for each byte p[i] == eol ('\n', or '\0' for NUL-ended records), i < 64
 * (all 64 bytes must be readable). */
HEXOID_INLINE uint64_t newline_mask64(const char *p, char eol)
{
#if defined(SCAN_SSE2)
	/* pmovmskb's upper bits are zero already: a narrower cast only adds a movzwl */
	const __m128i nl = _mm_set1_epi8(eol);
	uint64_t m0 = (uint32_t)_mm_movemask_epi8(
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), nl));
	uint64_t m1 = (uint32_t)_mm_movemask_epi8(
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16)), nl));
	uint64_t m2 = (uint32_t)_mm_movemask_epi8(
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 32)), nl));
	uint64_t m3 = (uint32_t)_mm_movemask_epi8(
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 48)), nl));
	return m0 | m1 << 16 | m2 << 32 | m3 << 48;
#elif defined(SCAN_NEON)
	/* Each matching byte keeps only its own bit of a byte (1, 2, ... 128 across each
	 * group of 8); three rounds of pairwise adds then gather the 64 bits in order. */
	static const uint8_t weights[16] = { 1, 2, 4, 8, 16, 32, 64, 128,
					     1, 2, 4, 8, 16, 32, 64, 128 };
	const uint8x16_t w = vld1q_u8(weights), nl = vdupq_n_u8((uint8_t)eol);
	const uint8_t *u = (const uint8_t *)p;
	uint8x16_t a = vandq_u8(vceqq_u8(vld1q_u8(u), nl), w);
	uint8x16_t b = vandq_u8(vceqq_u8(vld1q_u8(u + 16), nl), w);
	uint8x16_t c = vandq_u8(vceqq_u8(vld1q_u8(u + 32), nl), w);
	uint8x16_t d = vandq_u8(vceqq_u8(vld1q_u8(u + 48), nl), w);
	uint8x16_t ab = vpaddq_u8(a, b), cd = vpaddq_u8(c, d);
	uint8x16_t abcd = vpaddq_u8(ab, cd);
	abcd = vpaddq_u8(abcd, abcd);
	return vgetq_lane_u64(vreinterpretq_u64_u8(abcd), 0);
#else
	/* Eight words: a byte's top bit says it was '\n' (exactly: no borrow between bytes,
	 * as each byte's low seven bits are added on their own), then a multiply gathers
	 * those eight bits into the top byte, byte i's bit at bit 56 + i. */
	const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full, nls = 0x0101010101010101ull * (uint8_t)eol;
	uint64_t mask = 0;
	for (int i = 0; i < 8; i++) {
		uint64_t x = scan_le64(p + 8 * i) ^ nls;
		uint64_t zero = ~(((x & lo7) + lo7) | x | lo7);
		mask |= (((zero >> 7) * 0x0102040810204080ull) >> 56) << (8 * i);
	}
	return mask;
#endif
}

/*
 * Newlines (or eol bytes) of buf[0, len), in order: each call of scan_next() returns the position of
 * the next one at or after the position it was given. It reads nothing outside the
 * buffer (the last, partial block is copied first), and finds one block at a time.
 */
/* How far ahead of the scan to ask for the listing's bytes: the hardware's prefetcher
 * stops at the end of each 4 KiB page, and a large buffer is read once, from memory. A
 * buffer of up to SCAN_HOT bytes is taken to be in the cache already (the command's
 * pieces of 128 KiB, which read() has just written): no prefetch there. */
#define SCAN_PREFETCH 1024
#define SCAN_HOT (256u << 10)

struct nlscan {
	const char *buf;
	size_t len;
	char eol;      /* what ends a record */
	size_t base;   /* the block's first byte */
	uint64_t mask; /* its newlines not returned yet */
	size_t ahead;  /* prefetch while base < ahead (0: a buffer in the cache) */
};

HEXOID_INLINE void scan_block(struct nlscan *s, size_t base)
{
	s->base = base;
	if (HEXOID_LIKELY(s->len - base >= 64)) {
		if (base < s->ahead)
			__builtin_prefetch(s->buf + base + SCAN_PREFETCH);
		s->mask = newline_mask64(s->buf + base, s->eol);
	} else {
		/* Filled with a byte that is not eol. */
		char tail[64];
		memset(tail, s->eol ? 0 : 1, sizeof(tail));
		memcpy(tail, s->buf + base, s->len - base);
		s->mask = newline_mask64(tail, s->eol);
	}
}

/* Start at position p (any position: after a jump, the scan starts again there). */
HEXOID_INLINE void scan_at(struct nlscan *s, size_t p)
{
	scan_block(s, p);
}

HEXOID_INLINE void scan_init(struct nlscan *s, const char *buf, size_t len, char eol)
{
	s->buf = buf;
	s->len = len;
	s->eol = eol;
	s->ahead = len > SCAN_HOT ? len - SCAN_PREFETCH : 0;
	scan_at(s, 0);
}

/*
 * The position of the first newline at or after p, where p is just after the newline
 * returned last (or where scan_at() started). The caller knows there is one before len.
 */
HEXOID_INLINE size_t scan_next(struct nlscan *s)
{
	while (HEXOID_UNLIKELY(!s->mask))
		scan_block(s, s->base + 64);
	size_t at = s->base + (size_t)__builtin_ctzll(s->mask);
	s->mask &= s->mask - 1;
	return at;
}

#endif
