/*
 * AVX-512 VBMI encode kernel: binary object IDs -> lowercase hex.
 * SPDX-License-Identifier: MIT
 *
 * One output vector costs three permute-class instructions: vpermb places, in each output
 * lane, the source byte it needs; vpmultishiftqb shifts each lane's nibble down (4 bits for
 * a high digit, 0 for a low one); vpermb maps the nibble to its digit through a 64-entry
 * table that repeats "0123456789abcdef", so the bits above the nibble need no masking.
 * Since lanes are placed freely, lines of several records (SHA-1, 41 bytes) are produced
 * in one 128-byte window and written with two masked stores that skip the separators.
 */
#include "common.h"

/* vpmultishiftqb control for lanes holding, in pairs, copies of one source byte: lane
 * 2m takes bits 4..7 of its own byte, lane 2m+1 bits 0..3 of its own. */
#define VBMI_PAIR_SHIFTS 0x3834282418140804

/*
 * SIMDe 0.7.4's portable vpmultishiftqb rotates with x >> c | x << (64 - c), a shift by 64
 * when c is 0 (undefined, fatal under the sanitizer tests); the portable build uses its
 * own loop. Native builds use the instruction.
 */
HEXOID_INLINE simde__m512i vbmi_multishift(simde__m512i ctrl, simde__m512i x)
{
#if defined(SIMDE_X86_AVX512VBMI_NATIVE)
	return simde_mm512_multishift_epi64_epi8(ctrl, x);
#else
	uint8_t c[64], r[64];
	uint64_t q[8];
	simde_mm512_storeu_si512(c, ctrl);
	simde_mm512_storeu_si512(q, x);
	for (unsigned j = 0; j < 64; j++) {
		unsigned s = c[j] & 63;
		uint64_t v = q[j / 8];
		r[j] = (uint8_t)(s ? v >> s | v << (64 - s) : v);
	}
	return simde_mm512_loadu_si512(r);
#endif
}

HEXOID_INLINE simde__m512i vbmi_hex(simde__m512i raw, simde__m512i place, simde__m512i shifts)
{
	simde__m512i b = simde_mm512_permutexvar_epi8(place, raw);
	b = vbmi_multishift(shifts, b);
	return simde_mm512_permutexvar_epi8(b, hx_hexdigits());
}

/* Lane j -> source byte j/2 (vpermb reads only the low 6 bits of an index, so the bit a
 * word shift brings down from the next byte does not matter). */
HEXOID_INLINE simde__m512i vbmi_halves(void)
{
	return simde_mm512_srli_epi16(hx_iota(), 1);
}

/* stride == 2*rawsz: n*rawsz bytes -> one stream of digits, 64 bytes per step. */
static void vbmi_encode_packed(char *out, const unsigned char *in, size_t total)
{
	const simde__m512i p0 = vbmi_halves(), p1 = hx_add8(p0, simde_mm512_set1_epi8(32));
	const simde__m512i sh = simde_mm512_set1_epi64(VBMI_PAIR_SHIFTS);
	size_t pos = 0;

	for (; pos + 64 <= total; pos += 64) {
		simde__m512i raw = simde_mm512_loadu_si512(in + pos);
		simde_mm512_storeu_si512(out + 2 * pos, vbmi_hex(raw, p0, sh));
		simde_mm512_storeu_si512(out + 2 * pos + 64, vbmi_hex(raw, p1, sh));
	}
	if (pos < total) {
		size_t rem = total - pos;
		simde__m512i raw = hx_load_prefix(in + pos, rem);
		hx_store_mask(out + 2 * pos, hx_prefix(2 * rem), vbmi_hex(raw, p0, sh));
		if (rem > 32)
			hx_store_mask(out + 2 * pos + 64, hx_prefix(2 * rem - 64), vbmi_hex(raw, p1, sh));
	}
}

/* SHA-256 at stride > 64: each record is exactly one vector, two records per load. */
static void vbmi_encode_sha256(char *out, size_t stride, const unsigned char *in, size_t n)
{
	const simde__m512i p0 = vbmi_halves(), p1 = hx_add8(p0, simde_mm512_set1_epi8(32));
	const simde__m512i sh = simde_mm512_set1_epi64(VBMI_PAIR_SHIFTS);
	size_t i = 0;

	for (; i + 2 <= n; i += 2) {
		simde__m512i raw = simde_mm512_loadu_si512(in + 32 * i);
		simde_mm512_storeu_si512(out + i * stride, vbmi_hex(raw, p0, sh));
		simde_mm512_storeu_si512(out + (i + 1) * stride, vbmi_hex(raw, p1, sh));
	}
	if (i < n)
		simde_mm512_storeu_si512(out + i * stride, vbmi_hex(hx_load_prefix(in + 32 * i, 32), p0, sh));
}

/*
 * SHA-1 at stride > 40: k records (3 up to stride 44, 2 up to 88, else 1) fill a window of
 * up to 128 output bytes; place/shift/select describe its two halves. Built by a plain
 * loop once per call (what lane w of the window holds is simple to say, clumsy to
 * compute in vectors).
 */
struct vbmi_window {
	size_t k;
	simde__m512i place[2], shift[2];
	uint64_t sel[2];
};

static void vbmi_window_init(struct vbmi_window *w, size_t stride)
{
	unsigned char place[128] = {0}, shift[128] = {0};
	size_t k = (128 - 40) / stride + 1;

	w->k = k;
	w->sel[0] = w->sel[1] = 0;
	for (size_t r = 0; r < k; r++)
		for (size_t c = 0; c < 40; c++) {
			size_t pos = r * stride + c;
			place[pos] = (unsigned char)(r * 20 + c / 2);
			shift[pos] = (unsigned char)(8 * (pos % 8) + (c % 2 ? 0 : 4));
			w->sel[pos / 64] |= (uint64_t)1 << (pos % 64);
		}
	for (int h = 0; h < 2; h++) {
		w->place[h] = simde_mm512_loadu_si512(place + 64 * h);
		w->shift[h] = simde_mm512_loadu_si512(shift + 64 * h);
	}
}

/* Records i.. (cnt of them, cnt <= k) from raw, which holds their 20*cnt bytes. */
HEXOID_INLINE void vbmi_window_put(char *out, const struct vbmi_window *w, simde__m512i raw,
				   uint64_t sel0, uint64_t sel1)
{
	hx_store_mask(out, sel0, vbmi_hex(raw, w->place[0], w->shift[0]));
	if (sel1)
		hx_store_mask(out + 64, sel1, vbmi_hex(raw, w->place[1], w->shift[1]));
}

static void vbmi_encode_sha1(char *out, size_t stride, const unsigned char *in, size_t n)
{
	struct vbmi_window w;
	size_t i = 0;

	vbmi_window_init(&w, stride);
	/* i*20 + 64 <= n*20 keeps the plain 64-byte load of raw bytes inside the input */
	for (; i + w.k <= n && 20 * i + 64 <= 20 * n; i += w.k)
		vbmi_window_put(out + i * stride, &w, simde_mm512_loadu_si512(in + 20 * i), w.sel[0],
				w.sel[1]);
	for (; i < n; i += w.k) {
		size_t cnt = n - i < w.k ? n - i : w.k;
		/* the window of cnt records ends after their last digit */
		size_t end = (cnt - 1) * stride + 40;
		simde__m512i raw = hx_load_prefix(in + 20 * i, 20 * cnt);
		vbmi_window_put(out + i * stride, &w, raw, w.sel[0] & hx_prefix(end),
				w.sel[1] & hx_prefix(end > 64 ? end - 64 : 0));
	}
}

void HEXOID_KSYM(avx512vbmi, encode)(char *out, size_t stride, const unsigned char *in, size_t n,
				     size_t rawsz)
{
	/* Its permute tables take longer to set up than a few records take to encode with
	 * the BW kernel (at n = 1 the benchmark measured 6 M IDs/s here against 150, and
	 * for SHA-1 lines at n = 16, 93 against 850). */
	if (n < (rawsz == 20 && stride != 2 * rawsz ? 256 : 16)) {
		HEXOID_KSYM(avx512, encode)(out, stride, in, n, rawsz);
		return;
	}
	if (stride == 2 * rawsz)
		vbmi_encode_packed(out, in, n * rawsz);
	else if (rawsz == 32)
		vbmi_encode_sha256(out, stride, in, n);
	else
		vbmi_encode_sha1(out, stride, in, n);
}
