/*
 * AVX-512 BW encode kernel: binary object IDs -> lowercase hex, 32 bytes per vector.
 * SPDX-License-Identifier: MIT
 */
#include "common.h"

/*
 * The 32 bytes in the low half of raw -> their 64 hex digits. vpunpcklbw interleaves
 * high and low nibbles but works on the low 8 bytes of each 128-bit lane, so vpermq
 * first deals the 4 source qwords out to the 4 lanes.
 */
static const uint64_t bw_deal_q[8] = {0, 0, 1, 1, 2, 2, 3, 3};
HEXOID_INLINE simde__m512i bw_hex64(simde__m512i raw)
{
	simde__m512i q = simde_mm512_permutexvar_epi64(hx_const(bw_deal_q), raw);
	/* A word shift moves the high nibbles down; the bits it drags in from the
	 * neighbouring byte go with the mask below. */
	simde__m512i hl = simde_mm512_unpacklo_epi8(simde_mm512_srli_epi16(q, 4), q);
	hl = simde_mm512_and_si512(hl, simde_mm512_set1_epi8(0x0f));
	return simde_mm512_shuffle_epi8(hx_hexdigits(), hl);
}

HEXOID_INLINE simde__m512i bw_load32(const unsigned char *p)
{
	return simde_mm512_castsi256_si512(simde_mm256_loadu_si256((const void *)p));
}

/* stride == 2*rawsz: one stream of n*rawsz bytes -> one stream of digits. */
static void bw_encode_packed(char *out, const unsigned char *in, size_t total)
{
	size_t pos = 0;

	for (; pos + 32 <= total; pos += 32)
		simde_mm512_storeu_si512(out + 2 * pos, bw_hex64(bw_load32(in + pos)));
	if (pos < total) {
		size_t rem = total - pos;
		hx_store_mask(out + 2 * pos, hx_prefix(2 * rem), bw_hex64(hx_load_prefix(in + pos, rem)));
	}
}

void HEXOID_KSYM(avx512, encode)(char *out, size_t stride, const unsigned char *in, size_t n,
				 size_t rawsz)
{
	const size_t hexsz = 2 * rawsz;
	size_t i = 0;

	if (stride == hexsz) {
		bw_encode_packed(out, in, n * rawsz);
		return;
	}
	if (rawsz == 32) {
		/* A record is exactly one vector: plain loads and stores. */
		for (; i < n; i++)
			simde_mm512_storeu_si512(out + i * stride, bw_hex64(bw_load32(in + 32 * i)));
		return;
	}
	/* SHA-1: a 32-byte load at record i stays inside the input while i + 2 <= n; the
	 * store is masked to the 40 digits so the bytes between records survive. */
	for (; i + 2 <= n; i++)
		hx_store_mask(out + i * stride, hx_prefix(40), bw_hex64(bw_load32(in + 20 * i)));
	for (; i < n; i++)
		hx_store_mask(out + i * stride, hx_prefix(40), bw_hex64(hx_load_prefix(in + 20 * i, 20)));
}
