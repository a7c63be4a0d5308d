/*
 * AVX-512 BW decode kernel: validate and decode hex object IDs, 64 digits per vector.
 * SPDX-License-Identifier: MIT
 *
 * Without VBMI there is no byte permute across the register, so records are not packed
 * together before decoding: each vector holds the digits of one record (or 64 digits of
 * a packed stream), and the decoded bytes of two vectors are merged with vpackuswb and a
 * qword or word permute. CPUs with VBMI use decode_vbmi.c instead.
 */
#include "common.h"

/* vpmaddubsw weights: the first digit of a pair is the high nibble. */
HEXOID_INLINE simde__m512i bw_pairs(simde__m512i nib)
{
	return simde_mm512_maddubs_epi16(nib, simde_mm512_set1_epi16(0x0110));
}

/*
 * Nibbles of 64 + 64 digits -> their 64 bytes in order. vpackuswb interleaves the two
 * inputs 8 bytes at a time within each 128-bit lane; vpermq puts the qwords back.
 */
static const uint64_t bw_unpack_q[8] = {0, 2, 4, 6, 1, 3, 5, 7};
HEXOID_INLINE simde__m512i bw_merge64(simde__m512i n0, simde__m512i n1)
{
	simde__m512i p = simde_mm512_packus_epi16(bw_pairs(n0), bw_pairs(n1));
	return simde_mm512_permutexvar_epi64(hx_const(bw_unpack_q), p);
}

/*
 * Nibbles of two 40-digit SHA-1 records (lanes 0..39 of each) -> their 2 x 20 bytes.
 * After vpackuswb the words of record A sit at 0-3, 8-11, 16-17 and those of B at 4-7,
 * 12-15, 20-21; vpermw gathers them (words 20..31 of the result are don't-care).
 */
HEXOID_INLINE simde__m512i bw_merge40(simde__m512i n0, simde__m512i n1)
{
	static const uint16_t order[32] = {0, 1, 2,  3,  8,  9,  10, 11, 16, 17, 4,  5,  6,  7,  12, 13,
					   14, 15, 20, 21, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	simde__m512i p = simde_mm512_packus_epi16(bw_pairs(n0), bw_pairs(n1));
	return simde_mm512_permutexvar_epi16(simde_mm512_loadu_si512(order), p);
}

/* Index of the record holding hex digit c of a packed stream. */
HEXOID_INLINE size_t bw_record(size_t c, size_t hexsz)
{
	return c / hexsz;
}

/* stride == hexsz: the records form one stream of digits, decoded 128 at a time. */
HEXOID_INLINE size_t bw_decode_packed(unsigned char *out, const char *in, size_t n,
				      size_t hexsz, int lower, const struct hx_ranges *r, int store)
{
	const size_t total = n * hexsz;
	size_t pos = 0;
	uint64_t b0, b1;

	for (; pos + 128 <= total; pos += 128) {
		simde__m512i n0 = hx_nibbles(simde_mm512_loadu_si512(in + pos), lower, r, &b0);
		simde__m512i n1 = hx_nibbles(simde_mm512_loadu_si512(in + pos + 64), lower, r, &b1);
		/* Store first: the records before a bad one must be decoded. */
		if (store)
			simde_mm512_storeu_si512(out + pos / 2, bw_merge64(n0, n1));
		if (HEXOID_UNLIKELY(b0 | b1))
			return bw_record(pos + (b0 ? hx_ctz(b0) : 64 + hx_ctz(b1)), hexsz);
	}
	if (pos < total) {
		/* Fewer than 128 digits left (an even number): masked loads and store. */
		size_t rem = total - pos, l0 = rem < 64 ? rem : 64, l1 = rem - l0;
		simde__m512i n0 = hx_nibbles(hx_load_prefix(in + pos, l0), lower, r, &b0);
		simde__m512i n1 = n0;
		b0 &= hx_prefix(l0);
		b1 = 0;
		if (l1) {
			n1 = hx_nibbles(hx_load_prefix(in + pos + 64, l1), lower, r, &b1);
			b1 &= hx_prefix(l1);
		}
		if (store)
			hx_store_mask(out + pos / 2, hx_prefix(rem / 2), bw_merge64(n0, n1));
		if (b0 | b1)
			return bw_record(pos + (b0 ? hx_ctz(b0) : 64 + hx_ctz(b1)), hexsz);
	}
	return n;
}

/* SHA-256, any stride: a record is exactly one vector, so plain loads never overreach. */
HEXOID_INLINE size_t bw_decode_sha256(unsigned char *out, const char *in, size_t n,
				      size_t stride, int lower, const struct hx_ranges *r, int store)
{
	size_t i = 0;
	uint64_t b0, b1;

	for (; i + 2 <= n; i += 2) {
		const char *p = in + i * stride;
		simde__m512i n0 = hx_nibbles(simde_mm512_loadu_si512(p), lower, r, &b0);
		simde__m512i n1 = hx_nibbles(simde_mm512_loadu_si512(p + stride), lower, r, &b1);
		if (store)
			simde_mm512_storeu_si512(out + i * 32, bw_merge64(n0, n1));
		if (HEXOID_UNLIKELY(b0 | b1))
			return b0 ? i : i + 1;
	}
	if (i < n) {
		simde__m512i n0 = hx_nibbles(simde_mm512_loadu_si512(in + i * stride), lower, r, &b0);
		if (store)
			hx_store_mask(out + i * 32, hx_prefix(32), bw_merge64(n0, n0));
		if (b0)
			return i;
	}
	return n;
}

/*
 * SHA-1 with stride > 40, two records per step. A 64-byte load at a record reads 24
 * bytes past its digits; that stays inside the input for every record but the last
 * (stride >= 41 > 24), so the main loop uses plain loads and the last few records
 * masked ones.
 */
HEXOID_INLINE size_t bw_decode_sha1(unsigned char *out, const char *in, size_t n,
				    size_t stride, int lower, const struct hx_ranges *r, int store)
{
	const uint64_t digits = hx_prefix(40);
	size_t i = 0;
	uint64_t b0, b1;

	/* i + 4 <= n: records i, i+1 are not the last, and a 64-byte store at out + 20*i
	 * ends within the 20*n output bytes. */
	for (; i + 4 <= n; i += 2) {
		const char *p = in + i * stride;
		simde__m512i n0 = hx_nibbles(simde_mm512_loadu_si512(p), lower, r, &b0);
		simde__m512i n1 = hx_nibbles(simde_mm512_loadu_si512(p + stride), lower, r, &b1);
		if (store)
			simde_mm512_storeu_si512(out + i * 20, bw_merge40(n0, n1));
		b0 &= digits;
		b1 &= digits;
		if (HEXOID_UNLIKELY(b0 | b1))
			return b0 ? i : i + 1;
	}
	for (; i < n; i += 2) {
		const char *p = in + i * stride;
		int two = i + 1 < n;
		simde__m512i n0 = hx_nibbles(hx_load_prefix(p, 40), lower, r, &b0);
		simde__m512i n1 = n0;
		b0 &= digits;
		b1 = 0;
		if (two) {
			n1 = hx_nibbles(hx_load_prefix(p + stride, 40), lower, r, &b1);
			b1 &= digits;
		}
		if (store)
			hx_store_mask(out + i * 20, hx_prefix(two ? 40 : 20), bw_merge40(n0, n1));
		if (b0 | b1)
			return b0 ? i : i + 1;
	}
	return n;
}

/* One specialised copy per (kind, validate-only) pair: both are loop invariants. */
HEXOID_INLINE size_t bw_decode(unsigned char *out, const char *in, size_t n, size_t stride,
			       size_t hexsz, int lower, int store)
{
	struct hx_ranges r;

	hx_ranges_init(&r);
	if (stride == hexsz)
		return bw_decode_packed(out, in, n, hexsz, lower, &r, store);
	if (hexsz == 64)
		return bw_decode_sha256(out, in, n, stride, lower, &r, store);
	return bw_decode_sha1(out, in, n, stride, lower, &r, store);
}

size_t HEXOID_KSYM(avx512, decode)(unsigned char *out, const char *in, size_t n, size_t stride,
				   size_t hexsz, enum hexoid_kind kind)
{
	if (kind == HEXOID_LOWER)
		return out ? bw_decode(out, in, n, stride, hexsz, 1, 1)
			   : bw_decode(NULL, in, n, stride, hexsz, 1, 0);
	return out ? bw_decode(out, in, n, stride, hexsz, 0, 1)
		   : bw_decode(NULL, in, n, stride, hexsz, 0, 0);
}
