/*
 * Private helpers shared by the AVX-512 kernels (BW and VBMI).
 * SPDX-License-Identifier: MIT
 *
 * Everything here is written against SIMDe, so the same code builds natively (with the
 * folder's -m flags) and, for the tests, portably with HEXOID_EMULATED + SIMDE_NO_NATIVE.
 */
#ifndef HEXOID_AVX512_COMMON_H
#define HEXOID_AVX512_COMMON_H

/*
 * As in src/avx2/simd.h: clang's -Wpsabi warns at each call of an inline helper passing a
 * 64-byte vector in the portable test build, where it travels in memory. No kernel takes
 * or returns a vector, so the ABI of those calls concerns no one outside the file.
 */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#endif

#include <simde/x86/avx512.h>

#include "kernel.h"

/* Bit j of a 64-bit lane mask: the first len lanes (len may be 64 or more). */
HEXOID_INLINE uint64_t hx_prefix(size_t len)
{
	return len >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << len) - 1;
}

HEXOID_INLINE unsigned hx_ctz(uint64_t m)
{
#if defined(__GNUC__)
	return (unsigned)__builtin_ctzll(m);
#else
	unsigned i = 0;
	while (!(m & 1)) {
		m >>= 1;
		i++;
	}
	return i;
#endif
}

/*
 * Load the first len (<= 64) bytes at p, zeroing the other lanes, and touch no byte past
 * p + len: the kernels promise not to read outside the caller's records even where the
 * page would allow it. Debian's SIMDe 0.7.4 has no masked loads, so the native build uses
 * the intrinsic (masked-off lanes never fault) and the portable one copies just len bytes.
 */
HEXOID_INLINE simde__m512i hx_load_prefix(const void *p, size_t len)
{
#if defined(SIMDE_X86_AVX512BW_NATIVE)
	return _mm512_maskz_loadu_epi8(hx_prefix(len), p);
#else
	unsigned char buf[64] = {0};
	memcpy(buf, p, len);
	return simde_mm512_loadu_si512(buf);
#endif
}

/* Store the lanes of v selected by k to p, and write no other byte. */
HEXOID_INLINE void hx_store_mask(void *p, uint64_t k, simde__m512i v)
{
#if defined(SIMDE_X86_AVX512BW_NATIVE)
	_mm512_mask_storeu_epi8(p, k, v);
#else
	unsigned char buf[64];
	unsigned char *dst = (unsigned char *)p;
	simde_mm512_storeu_si512(buf, v);
	for (unsigned j = 0; j < 64; j++)
		if (k >> j & 1)
			dst[j] = buf[j];
#endif
}

/*
 * Byte adds. SIMDe 0.7.4's portable _mm512_add/sub_epi8 compute in signed char, so every
 * wrap-around is signed overflow to UBSan (which the sanitizer tests make fatal); the
 * portable build wraps in unsigned char instead. Native builds use the instruction.
 */
HEXOID_INLINE simde__m512i hx_add8(simde__m512i a, simde__m512i b)
{
#if defined(SIMDE_X86_AVX512BW_NATIVE)
	return simde_mm512_add_epi8(a, b);
#else
	uint8_t x[64], y[64];
	simde_mm512_storeu_si512(x, a);
	simde_mm512_storeu_si512(y, b);
	for (unsigned j = 0; j < 64; j++)
		x[j] = (uint8_t)(x[j] + y[j]);
	return simde_mm512_loadu_si512(x);
#endif
}

HEXOID_INLINE simde__m512i hx_sub8(simde__m512i a, simde__m512i b)
{
#if defined(SIMDE_X86_AVX512BW_NATIVE)
	return simde_mm512_sub_epi8(a, b);
#else
	uint8_t x[64], y[64];
	simde_mm512_storeu_si512(x, a);
	simde_mm512_storeu_si512(y, b);
	for (unsigned j = 0; j < 64; j++)
		x[j] = (uint8_t)(x[j] - y[j]);
	return simde_mm512_loadu_si512(x);
#endif
}

/* Lanes in k get a + b, the others src. */
HEXOID_INLINE simde__m512i hx_mask_add8(simde__m512i src, uint64_t k, simde__m512i a, simde__m512i b)
{
#if defined(SIMDE_X86_AVX512BW_NATIVE)
	return simde_mm512_mask_add_epi8(src, k, a, b);
#else
	return simde_mm512_mask_mov_epi8(src, k, hx_add8(a, b));
#endif
}

/*
 * Vector constants live in 64-byte tables: SIMDe's _mm512_set_epi64 has no native path,
 * and GCC 12 rebuilds what it makes lane by lane inside loops.
 */
HEXOID_INLINE simde__m512i hx_const(const uint64_t q[8])
{
	return simde_mm512_loadu_si512(q);
}

/* Lanes 0, 1, ..., 63: the seed for index vectors built arithmetically. */
static const uint64_t hx_iota_q[8] = {
	0x0706050403020100, 0x0f0e0d0c0b0a0908, 0x1716151413121110, 0x1f1e1d1c1b1a1918,
	0x2726252423222120, 0x2f2e2d2c2b2a2928, 0x3736353433323130, 0x3f3e3d3c3b3a3938,
};
HEXOID_INLINE simde__m512i hx_iota(void)
{
	return hx_const(hx_iota_q);
}

/* "0123456789abcdef" in every 16-byte lane: a table for vpshufb and, read through the
 * low 6 bits of an index, for vpermb (so the 2 bits above a nibble may be anything). */
static const uint64_t hx_hexdigits_q[8] = {
	0x3736353433323130, 0x6665646362613938, 0x3736353433323130, 0x6665646362613938,
	0x3736353433323130, 0x6665646362613938, 0x3736353433323130, 0x6665646362613938,
};
HEXOID_INLINE simde__m512i hx_hexdigits(void)
{
	return hx_const(hx_hexdigits_q);
}

/*
 * Keep a loop constant in a register. Without this GCC 12 rebuilds byte broadcasts
 * inside hot loops (mov + vpbroadcastb, which competes with the shuffles); an empty asm
 * makes the value opaque so it is built once, before the loop.
 */
HEXOID_INLINE simde__m512i hx_pin(simde__m512i v)
{
#if defined(SIMDE_X86_AVX512F_NATIVE) && defined(__GNUC__)
	__asm__("" : "+v"(v));
#endif
	return v;
}

/* The constants of hx_nibbles, made once per call. */
struct hx_ranges {
	simde__m512i zero, ten, fold, a, six;
};

HEXOID_INLINE void hx_ranges_init(struct hx_ranges *r)
{
	r->zero = hx_pin(simde_mm512_set1_epi8('0'));
	r->ten = hx_pin(simde_mm512_set1_epi8(10));
	r->fold = hx_pin(simde_mm512_set1_epi8(0x20));
	r->a = hx_pin(simde_mm512_set1_epi8('a'));
	r->six = hx_pin(simde_mm512_set1_epi8(6));
}

/*
 * The nibble value of each of 64 hex digits, by ranges: '0'..'9' -> 0..9, 'a'..'f' (and
 * 'A'..'F' unless lower) -> 10..15. *bad gets a bit for each byte that is not a digit of
 * that kind; its lane then holds garbage, which the callers let reach only the output
 * byte of that very pair. Lowercase-only skips the case fold, so it is never slower.
 */
HEXOID_INLINE simde__m512i hx_nibbles(simde__m512i v, int lower, const struct hx_ranges *r,
				      uint64_t *bad)
{
	simde__m512i d = hx_sub8(v, r->zero);
	simde__mmask64 dm = simde_mm512_cmplt_epu8_mask(d, r->ten);
	simde__m512i t = lower ? v : simde_mm512_or_si512(v, r->fold);
	simde__m512i a = hx_sub8(t, r->a);
	simde__mmask64 am = simde_mm512_cmplt_epu8_mask(a, r->six);
	*bad = ~(uint64_t)(dm | am);
	return hx_mask_add8(d, am, a, r->ten);
}

#endif /* HEXOID_AVX512_COMMON_H */
