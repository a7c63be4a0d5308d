/*
 * AVX-512 VBMI decode kernel: validate and decode hex object IDs in full vectors.
 * SPDX-License-Identifier: MIT
 *
 * The byte permutes of VBMI do three jobs here:
 *  - gather: vpermt2b picks the digits of several records out of 128 contiguous input
 *    bytes (skipping the separators between them), the high digit of each pair into
 *    one register and the low digit into another, in output order;
 *  - look up: vpermi2b reads a 128-entry table indexed by the character, giving its
 *    nibble or a value with bit 7 set for a byte the kind does not accept (lowercase-only
 *    and mixed case differ only in the table, so they cost the same);
 *  - merge: (high << 4) | low is then the decoded byte, already in place, and one
 *    contiguous store writes the bytes of all those records.
 * So a SHA-1 listing (41-byte lines) decodes 3 records per 2 loads + 4 permutes + 1
 * store, a packed stream 64 bytes per 128 digits. A SHA-256 line needs no gather (its
 * digits are exactly one vector): it goes through the one-ID tables instead, two records
 * per step (vbmi_lines64).
 */
#include "common.h"

/* The table for one kind: entry c (0..127) of lo:hi is c's nibble, or 0x80 if c is not a
 * digit. Bytes 128..255 alias 0..127 in vpermi2b and are caught by their own bit 7. */
struct vbmi_lut {
	simde__m512i lo, hi;
};

static void vbmi_lut_init(struct vbmi_lut *t, int lower)
{
	const simde__m512i bad_entry = simde_mm512_set1_epi8((char)0x80);
	simde__m512i c = hx_iota();
	struct hx_ranges r;
	uint64_t bad;
	simde__m512i nib;

	hx_ranges_init(&r);
	nib = hx_nibbles(c, lower, &r, &bad);

	t->lo = simde_mm512_mask_mov_epi8(nib, bad, bad_entry);
	c = hx_add8(c, simde_mm512_set1_epi8(64));
	nib = hx_nibbles(c, lower, &r, &bad);
	t->hi = simde_mm512_mask_mov_epi8(nib, bad, bad_entry);
}

HEXOID_INLINE simde__m512i vbmi_lookup(simde__m512i c, const struct vbmi_lut *t)
{
	return simde_mm512_permutex2var_epi8(t->lo, c, t->hi);
}

/*
 * The core step. Lane j of the result is the byte whose digits are bytes ih[j] and il[j]
 * of the 128 bytes w0:w1; bit j of the returned mask is set if either digit is bad. A bad
 * lane's garbage can spill (through the word shift) only into lane j+1 of an even j,
 * which always belongs to the same record since records decode to an even byte count.
 */
HEXOID_INLINE uint64_t vbmi_decode64(simde__m512i w0, simde__m512i w1, simde__m512i ih,
				     simde__m512i il, const struct vbmi_lut *t, simde__m512i *bytes)
{
	simde__m512i hi = simde_mm512_permutex2var_epi8(w0, ih, w1);
	simde__m512i lo = simde_mm512_permutex2var_epi8(w0, il, w1);
	simde__m512i nh = vbmi_lookup(hi, t), nl = vbmi_lookup(lo, t);

	*bytes = simde_mm512_or_si512(simde_mm512_slli_epi16(nh, 4), nl);
	/* bit 7 of hi | lo | nh | nl: a byte >= 0x80 or a table miss */
	simde__m512i any = simde_mm512_ternarylogic_epi32(hi, lo, nh, 0xfe);
	return simde_mm512_movepi8_mask(simde_mm512_or_si512(any, nl));
}

/* Validate-only needs no gather: look up every input byte where it is; sel marks the
 * bytes that are digits (the separators are someone else's business). */
HEXOID_INLINE uint64_t vbmi_check64(simde__m512i w, uint64_t sel, const struct vbmi_lut *t)
{
	return simde_mm512_movepi8_mask(simde_mm512_or_si512(w, vbmi_lookup(w, t))) & sel;
}

/* Lanes 0, 2, 4, ..., 126: the first digit of each pair of a 128-digit stream. */
HEXOID_INLINE simde__m512i vbmi_even(void)
{
	simde__m512i j = hx_iota();
	return hx_add8(j, j);
}

HEXOID_INLINE simde__m512i vbmi_plus1(simde__m512i v)
{
	return hx_add8(v, simde_mm512_set1_epi8(1));
}

/* stride == hexsz: records form one stream of digits, 128 of them per step. */
HEXOID_INLINE size_t vbmi_packed(unsigned char *out, const char *in, size_t n, size_t hexsz,
				 const struct vbmi_lut *t, int store)
{
	const size_t total = n * hexsz, rawsz = hexsz / 2;
	const simde__m512i ih = vbmi_even(), il = vbmi_plus1(ih);
	size_t pos = 0;
	simde__m512i bytes;
	uint64_t bad;

	if (!store) {
		for (; pos + 128 <= total; pos += 128) {
			uint64_t b0 = vbmi_check64(simde_mm512_loadu_si512(in + pos), ~(uint64_t)0, t);
			uint64_t b1 = vbmi_check64(simde_mm512_loadu_si512(in + pos + 64), ~(uint64_t)0, t);
			if (HEXOID_UNLIKELY(b0 | b1))
				return (pos + (b0 ? hx_ctz(b0) : 64 + hx_ctz(b1))) / hexsz;
		}
	}
	for (; pos + 128 <= total; pos += 128) {
		bad = vbmi_decode64(simde_mm512_loadu_si512(in + pos),
				    simde_mm512_loadu_si512(in + pos + 64), ih, il, t, &bytes);
		/* Store first: the records before a bad one must be decoded. */
		if (store)
			simde_mm512_storeu_si512(out + pos / 2, bytes);
		if (HEXOID_UNLIKELY(bad))
			return (pos / 2 + hx_ctz(bad)) / rawsz;
	}
	if (pos < total) {
		/* Fewer than 128 digits left (an even number): masked loads and store. */
		size_t rem = total - pos, l0 = rem < 64 ? rem : 64;
		simde__m512i w0 = hx_load_prefix(in + pos, l0);
		simde__m512i w1 = rem > 64 ? hx_load_prefix(in + pos + 64, rem - 64)
					   : simde_mm512_setzero_si512();
		bad = vbmi_decode64(w0, w1, ih, il, t, &bytes) & hx_prefix(rem / 2);
		if (store)
			hx_store_mask(out + pos / 2, hx_prefix(rem / 2), bytes);
		if (bad)
			return (pos / 2 + hx_ctz(bad)) / rawsz;
	}
	return n;
}

/*
 * SHA-1 at strides over 44, and the last records of vbmi_lines40: two records per step,
 * record i in w0, record i+1 in w1. A 64-byte load at a record reads 24 bytes past it,
 * which stays inside the input for all but the last record, so only the last few records
 * take masked loads. Records start at index i.
 */
HEXOID_INLINE size_t vbmi_pairs(unsigned char *out, const char *in, size_t i, size_t n,
				size_t stride, const struct vbmi_lut *t, int store)
{
	/* lanes 20..39 take record i+1's digits, which start at byte 64 of w0:w1; lanes
	 * 40..63 repeat lane 0 (a duplicate can only flag record i itself) */
	simde__m512i ih = vbmi_even(), il, bytes;
	uint64_t bad;

	ih = hx_mask_add8(ih, hx_prefix(40) & ~hx_prefix(20), ih, simde_mm512_set1_epi8(24));
	ih = simde_mm512_maskz_mov_epi8(hx_prefix(40), ih);
	il = vbmi_plus1(ih);

	/* i + 4 <= n keeps both 64-byte loads inside the input and the 64-byte store inside
	 * the 20*n output bytes. */
	for (; i + 4 <= n; i += 2) {
		const char *p = in + i * stride;
		bad = vbmi_decode64(simde_mm512_loadu_si512(p), simde_mm512_loadu_si512(p + stride),
				    ih, il, t, &bytes);
		if (store)
			simde_mm512_storeu_si512(out + i * 20, bytes);
		if (HEXOID_UNLIKELY(bad))
			return i + hx_ctz(bad) / 20;
	}
	for (; i < n; i += 2) {
		const char *p = in + i * stride;
		size_t cnt = i + 1 < n ? 2 : 1;
		simde__m512i w0 = hx_load_prefix(p, 40);
		simde__m512i w1 = cnt == 2 ? hx_load_prefix(p + stride, 40)
					   : simde_mm512_setzero_si512();
		bad = vbmi_decode64(w0, w1, ih, il, t, &bytes) & hx_prefix(cnt * 20);
		if (store)
			hx_store_mask(out + i * 20, hx_prefix(cnt * 20), bytes);
		if (bad)
			return i + hx_ctz(bad) / 20;
	}
	return n;
}

/*
 * SHA-1 at strides 41..44 (listing lines are 41): three records lie within 128
 * contiguous bytes, so two plain loads and one gather per digit half give 60 decoded
 * bytes. Lane j reads record j/20 at byte (j/20)*stride + 2*(j%20); lanes 60..63 repeat
 * lane 0. The last records go through vbmi_pairs.
 */
HEXOID_INLINE size_t vbmi_lines40(unsigned char *out, const char *in, size_t n, size_t stride,
				  const struct vbmi_lut *t, int store)
{
	const simde__m512i gap = simde_mm512_set1_epi8((char)(stride - 40));
	simde__m512i ih = vbmi_even(), il, bytes;
	size_t i = 0;
	uint64_t bad;

	ih = hx_mask_add8(ih, ~hx_prefix(20), ih, gap);
	ih = hx_mask_add8(ih, ~hx_prefix(40), ih, gap);
	ih = simde_mm512_maskz_mov_epi8(hx_prefix(60), ih);
	il = vbmi_plus1(ih);

	/*
	 * i + 4 <= n: the window [i*stride, i*stride + 128) ends inside the input, whose
	 * last record starts at (n-1)*stride >= (i+3)*stride >= i*stride + 123 and has 40
	 * digits, and the 64-byte store ends within the 20*n output bytes.
	 */
	if (!store) {
		/* bytes of the window that are digits of its three records */
		uint64_t sel0 = 0, sel1 = 0;
		for (size_t r = 0; r < 3; r++)
			for (size_t c = r * stride; c < r * stride + 40; c++) {
				if (c < 64)
					sel0 |= (uint64_t)1 << c;
				else
					sel1 |= (uint64_t)1 << (c - 64);
			}
		for (; i + 4 <= n; i += 3) {
			const char *p = in + i * stride;
			uint64_t b0 = vbmi_check64(simde_mm512_loadu_si512(p), sel0, t);
			uint64_t b1 = vbmi_check64(simde_mm512_loadu_si512(p + 64), sel1, t);
			if (HEXOID_UNLIKELY(b0 | b1))
				return i + (b0 ? hx_ctz(b0) : 64 + hx_ctz(b1)) / stride;
		}
	}
	for (; i + 4 <= n; i += 3) {
		const char *p = in + i * stride;
		bad = vbmi_decode64(simde_mm512_loadu_si512(p), simde_mm512_loadu_si512(p + 64), ih,
				    il, t, &bytes);
		if (store)
			simde_mm512_storeu_si512(out + i * 20, bytes);
		if (HEXOID_UNLIKELY(bad))
			return i + hx_ctz(bad) / 20;
	}
	return vbmi_pairs(out, in, i, n, stride, t, store);
}

/*
 * Tables of 64 entries read by vpermb through the low 6 bits of each character, which
 * tell the digits apart ('0'-'9' are 48..57 there, 'a'-'f' 33..38, 'A'-'F' 1..6): one
 * table gives the character each slot stands for, so a byte is a digit of the kind
 * exactly when it equals its slot's character (slots of no digit, and 'A'-'F' in
 * lowercase-only mode, hold a character of other low bits, which nothing matches), and a
 * second gives its nibble. One permute each, no gather: what a record that is exactly
 * one vector needs (a SHA-256 line, or one ID per call). The compiler builds them from
 * the rules below.
 */
struct vbmi_one_tables {
	uint8_t want[2][64]; /* [lower]: the character slot c & 63 stands for */
	uint8_t nibble[64];
};

#define VBMI_DIGIT(i) ((i) >= 48 && (i) <= 57)
#define VBMI_LOWER(i) ((i) >= 33 && (i) <= 38)
#define VBMI_UPPER(i) ((i) >= 1 && (i) <= 6)
/* No input byte c with c & 63 == i equals i ^ 1. */
#define VBMI_WANT(i, lower)                                                                 \
	(VBMI_DIGIT(i) ? (i) : VBMI_LOWER(i) || (VBMI_UPPER(i) && !(lower)) ? (i) + 64 : (i) ^ 1)
#define VBMI_NIBBLE(i) (VBMI_DIGIT(i) ? (i) - 48 : VBMI_LOWER(i) ? (i) - 23 : (i) + 9)
#define VBMI_ROW8(f, i) f(i), f(i + 1), f(i + 2), f(i + 3), f(i + 4), f(i + 5), f(i + 6), f(i + 7)
#define VBMI_ROW64(f)                                                                       \
	VBMI_ROW8(f, 0), VBMI_ROW8(f, 8), VBMI_ROW8(f, 16), VBMI_ROW8(f, 24), VBMI_ROW8(f, 32), \
		VBMI_ROW8(f, 40), VBMI_ROW8(f, 48), VBMI_ROW8(f, 56)
#define VBMI_WANT_MIXED(i) VBMI_WANT(i, 0)
#define VBMI_WANT_LOWER(i) VBMI_WANT(i, 1)

static const struct vbmi_one_tables vbmi_one = {
	{ { VBMI_ROW64(VBMI_WANT_MIXED) }, { VBMI_ROW64(VBMI_WANT_LOWER) } },
	{ VBMI_ROW64(VBMI_NIBBLE) },
};

/*
 * SHA-256 lines (stride > 64), two records per step, each exactly one vector: no gather.
 * The one-ID tables (above) check and convert each character through the low 6 bits of
 * its value; vpmaddubsw merges each pair into a 16-bit lane and one vpermt2b takes the
 * low bytes of both records' lanes, in order, into one 64-byte store.
 */
static const uint8_t vbmi_low_bytes[64] = {
	0,   2,   4,   6,   8,   10,  12,  14,  16,  18,  20,  22,  24,  26,  28,  30,
	32,  34,  36,  38,  40,  42,  44,  46,  48,  50,  52,  54,  56,  58,  60,  62,
	64,  66,  68,  70,  72,  74,  76,  78,  80,  82,  84,  86,  88,  90,  92,  94,
	96,  98,  100, 102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 122, 124, 126,
};

HEXOID_INLINE simde__m512i vbmi_pairs64(simde__m512i c, simde__m512i want, simde__m512i nib,
					simde__m512i weight, uint64_t *bad)
{
	*bad = ~(uint64_t)simde_mm512_cmpeq_epi8_mask(simde_mm512_permutexvar_epi8(c, want), c);
	return simde_mm512_maddubs_epi16(simde_mm512_permutexvar_epi8(c, nib), weight);
}

HEXOID_INLINE size_t vbmi_lines64(unsigned char *out, const char *in, size_t n, size_t stride,
				  enum hexoid_kind kind, int store)
{
	const simde__m512i want = simde_mm512_loadu_si512(vbmi_one.want[kind == HEXOID_LOWER]);
	const simde__m512i nib = simde_mm512_loadu_si512(vbmi_one.nibble);
	const simde__m512i weight = simde_mm512_set1_epi16(0x0110);
	const simde__m512i low = simde_mm512_loadu_si512(vbmi_low_bytes);
	size_t i = 0;
	uint64_t b0, b1;

	for (; i + 2 <= n; i += 2) {
		const char *p = in + i * stride;
		simde__m512i w0 = vbmi_pairs64(simde_mm512_loadu_si512(p), want, nib, weight, &b0);
		simde__m512i w1 = vbmi_pairs64(simde_mm512_loadu_si512(p + stride), want, nib,
					       weight, &b1);
		if (store)
			simde_mm512_storeu_si512(out + i * 32,
						 simde_mm512_permutex2var_epi8(w0, low, w1));
		if (HEXOID_UNLIKELY(b0 | b1))
			return b0 ? i : i + 1;
	}
	if (i < n) {
		simde__m512i w0 = vbmi_pairs64(simde_mm512_loadu_si512(in + i * stride), want, nib,
					       weight, &b0);
		if (store)
			hx_store_mask(out + i * 32, hx_prefix(32),
				      simde_mm512_permutex2var_epi8(w0, low, w0));
		if (b0)
			return i;
	}
	return n;
}

HEXOID_INLINE size_t vbmi_decode(unsigned char *out, const char *in, size_t n, size_t stride,
				 size_t hexsz, const struct vbmi_lut *t, enum hexoid_kind kind,
				 int store)
{
	if (stride == hexsz)
		return vbmi_packed(out, in, n, hexsz, t, store);
	if (hexsz == 64)
		return vbmi_lines64(out, in, n, stride, kind, store);
	if (stride <= 44)
		return vbmi_lines40(out, in, n, stride, t, store);
	return vbmi_pairs(out, in, 0, n, stride, t, store);
}

size_t HEXOID_KSYM(avx512vbmi, decode)(unsigned char *out, const char *in, size_t n,
				       size_t stride, size_t hexsz, enum hexoid_kind kind)
{
	struct vbmi_lut t;

	/*
	 * Building the lookup table and the gather indexes costs more than a few records
	 * take to decode: below these counts the BW kernel is faster (measured with the
	 * benchmark: at n = 1 decode, and at n = 16 validate-only, it was 1.4x and 2.3x).
	 */
	if (n < (out ? 4 : 64))
		return HEXOID_KSYM(avx512, decode)(out, in, n, stride, hexsz, kind);
	vbmi_lut_init(&t, kind == HEXOID_LOWER);
	/* validate-only is its own specialisation: no merge, no stores */
	return out ? vbmi_decode(out, in, n, stride, hexsz, &t, kind, 1)
		   : vbmi_decode(NULL, in, n, stride, hexsz, &t, kind, 0);
}

/*
 * One ID per call, in one register, through the tables above. Two word shifts and an OR
 * put each pair's byte in the low half of its word and vpmovwb packs those. (Constants
 * are loads, and two 64-byte loads cost a third of this function on Zen 4: the shifts
 * replace vpmaddubsw's multiplier and vpmovwb a third vpermb's index table, 10% of a
 * call, measured.) A SHA-1 ID is the 32 digits at 0 and the 32 at 8 (byte pairs
 * aligned, nothing read past the 40), which decode to output bytes 0..15 and 4..19: two
 * overlapping 16-byte stores. Nothing is stored unless every digit is good.
 */
HEXOID_INLINE int vbmi_decode1(unsigned char *out, const char *in, size_t hexsz,
			       enum hexoid_kind kind, struct hexoid_error *err, int git)
{
	simde__m512i c;
	if (hexsz == 40)
		c = simde_mm512_inserti64x4(simde_mm512_castsi256_si512(simde_mm256_loadu_si256(in)),
					    simde_mm256_loadu_si256(in + 8), 1);
	else
		c = simde_mm512_loadu_si512(in);
	simde__m512i want = simde_mm512_permutexvar_epi8(
		c, simde_mm512_loadu_si512(vbmi_one.want[kind == HEXOID_LOWER]));
	if (HEXOID_UNLIKELY(simde_mm512_cmpeq_epi8_mask(want, c) != ~(uint64_t)0))
		return hexoid_decode1_bad(out, in, hexsz, kind, err, git);
	simde__m512i nib = simde_mm512_permutexvar_epi8(c, simde_mm512_loadu_si512(vbmi_one.nibble));
	/* word = lo << 8 | hi: its low byte becomes hi << 4 | lo */
	simde__m512i words = simde_mm512_or_si512(simde_mm512_slli_epi16(nib, 4),
						  simde_mm512_srli_epi16(nib, 8));
	simde__m256i bytes = simde_mm512_cvtepi16_epi8(words);
	if (HEXOID_UNLIKELY(!git && !out)) { /* bytes1 always has out */
	} else if (hexsz == 40) {
		simde_mm_storeu_si128(out, simde_mm256_castsi256_si128(bytes));
		simde_mm_storeu_si128(out + 4, simde_mm256_extracti128_si256(bytes, 1));
	} else {
		simde_mm256_storeu_si256(out, bytes);
	}
	return hexoid_decode1_ok(err, git);
}

HEXOID_DEFINE_DECODE1(avx512vbmi, vbmi_decode1)
