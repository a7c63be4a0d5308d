/*
 * The headers of a commit or tag from its zlib stream, and nothing after them
 * (heads.h).
 *
 * SPDX-License-Identifier: MIT
 *
 * A plain DEFLATE decoder (RFC 1950 and 1951) that writes until the output holds a
 * blank line. It accepts less than zlib does, never more: a code set zlib would take
 * only as a special case, a stream that ends, or anything it does not expect, and it
 * gives up (returns 0), and the caller reads the object whole through zlib, which says
 * what is wrong in its words. So what it returns is always what zlib makes of the same
 * bytes.
 *
 * Huffman codes are read through a table of their first few bits (one look-up for nearly
 * every symbol of a commit), and the rare longer codes by walking the canonical code a
 * bit at a time. Bits come from a 64-bit buffer filled 8 bytes at a time.
 */
#include <stdint.h>
#include <string.h>

#include "heads.h"

#define MAXBITS 15
#define SYMBOLS 288 /* literals and lengths, the most of any code */
#define LIT_FAST 9  /* a table of 512: a commit's literals and lengths, nearly all */
#define DIST_FAST 7 /* its distances */
#define CL_FAST 7   /* code length codes have at most 7 bits: all of them */

struct huff {
	uint16_t fast[1 << LIT_FAST]; /* (symbol << 4) | length; 0 for a longer code, or none */
	unsigned fastbits;
	uint16_t count[MAXBITS + 1];
	uint16_t symbol[SYMBOLS + 1]; /* by code: by length, then symbol; and a slot of junk */
};

struct bits {
	const unsigned char *p, *end;
	uint64_t buf;
	unsigned n;   /* bits in buf */
	unsigned pad; /* zero bytes put in buf past the end of the input */
};

static inline __attribute__((always_inline)) void refill(struct bits *b)
{
	if (b->end - b->p >= 8) {
		uint64_t v;
		memcpy(&v, b->p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = __builtin_bswap64(v);
#endif
		b->buf |= v << b->n;
		b->p += (63 - b->n) >> 3;
		b->n |= 56;
		return;
	}
	while (b->n <= 56) {
		if (b->p < b->end)
			b->buf |= (uint64_t)*b->p++ << b->n;
		else
			b->pad++;
		b->n += 8;
	}
}

/* Whether bits past the input were taken. */
static inline int overrun(const struct bits *b)
{
	return b->n < 8 * b->pad;
}

/* `k` bits (k <= 32; buf holds at least that many after a refill). */
static inline __attribute__((always_inline)) unsigned take(struct bits *b, unsigned k)
{
	unsigned v = (unsigned)(b->buf & ((1ull << k) - 1));

	b->buf >>= k;
	b->n -= k;
	return v;
}

/* The low `len` bits of `code` in the opposite order (len <= 16): a code is sent from
 * its top bit, and the bit buffer is read from its bottom one. */
static inline unsigned reverse(unsigned code, unsigned len)
{
	code = (code & 0x5555) << 1 | (code >> 1 & 0x5555);
	code = (code & 0x3333) << 2 | (code >> 2 & 0x3333);
	code = (code & 0x0f0f) << 4 | (code >> 4 & 0x0f0f);
	code = (code & 0x00ff) << 8 | (code >> 8 & 0x00ff);
	return code >> (16 - len);
}

/* The first `half` entries of t copied after themselves (half a power of two). */
static inline void twice(uint16_t *t, unsigned half)
{
	unsigned k;

	if (half < 4) {
		for (k = 0; k < half; k++)
			t[half + k] = t[k];
		return;
	}
	for (k = 0; k < half; k += 4) {
		uint64_t v;
		memcpy(&v, t + k, 8);
		memcpy(t + half + k, &v, 8);
	}
}

/*
 * The code of lengths len[0, n), its table of `fastbits`: 0, or -1 when it is
 * over-subscribed, or incomplete but for zlib's one exception (a single code of one
 * bit, `single_ok`), or empty while `single_ok` is 0. An empty set (allowed for the
 * distance code) decodes nothing.
 *
 * Built once for every commit a scan reads the headers of, so without branches that
 * depend on the lengths, which no predictor learns from one object to the next:
 * - the symbols are put in code order (by length, then symbol) through one counter a
 *   length, and those of no code through eight counters that stay put (a symbol of
 *   each length waits on the last one's counter; the runs of unused bytes wait on
 *   nothing);
 * - the table is filled a length at a time: a code of l bits stands at every index
 *   whose low l bits are its bits reversed, so the table of l + 1 bits is that of l
 *   twice over, plus the codes of l + 1 bits, each written once.
 */
static int build(struct huff *h, const unsigned char *len, unsigned n, int single_ok, unsigned fastbits)
{
	uint16_t offs[MAXBITS + 1 + 8];
	unsigned s, l, max = 0, i, code;
	int left = 1;

	uint16_t c4[4][MAXBITS + 1];

	/* Four counts, summed: one would wait on its own last store whenever two lengths
	 * in a row are the same, as most are. */
	memset(c4, 0, sizeof(c4));
	for (s = 0; s + 4 <= n; s += 4) {
		c4[0][len[s]]++;
		c4[1][len[s + 1]]++;
		c4[2][len[s + 2]]++;
		c4[3][len[s + 3]]++;
	}
	for (; s < n; s++)
		c4[0][len[s]]++;
	for (l = 0; l <= MAXBITS; l++)
		h->count[l] = (uint16_t)(c4[0][l] + c4[1][l] + c4[2][l] + c4[3][l]);
	h->count[0] = 0;
	for (l = 1; l <= MAXBITS; l++) {
		left = 2 * left - h->count[l];
		if (left < 0)
			return -1;
		if (h->count[l])
			max = l;
	}
	if ((max == 0 && !single_ok) || (left > 0 && max > 1) || (left > 0 && !single_ok && max))
		return -1;
	offs[0] = 0;
	offs[1] = 0;
	for (l = 1; l < MAXBITS; l++)
		offs[l + 1] = (uint16_t)(offs[l] + h->count[l]);
	for (l = MAXBITS + 1; l < MAXBITS + 1 + 8; l++)
		offs[l] = SYMBOLS; /* the slot past the symbols, written and never read */
	for (s = 0; s < n; s++) {
		unsigned k = len[s] ? len[s] : MAXBITS + 1 + (s & 7), o = offs[k];
		h->symbol[o] = (uint16_t)s;
		offs[k] = (uint16_t)(o + (len[s] != 0));
	}
	h->fastbits = fastbits;
	h->fast[0] = h->fast[1] = 0;
	i = 0;
	code = 0;
	for (l = 1; l <= fastbits; l++) {
		unsigned c, k = h->count[l];
		if (l > 1)
			twice(h->fast, 1u << (l - 1));
		for (c = 0; c < k; c++, i++, code++)
			h->fast[reverse(code, l)] = (uint16_t)((unsigned)h->symbol[i] << 4 | l);
		code <<= 1;
	}
	return 0;
}

/* The next symbol, or -1 for a code that is not in the set. */
static inline __attribute__((always_inline)) int decode(struct bits *b, const struct huff *h)
{
	unsigned e = h->fast[b->buf & ((1u << h->fastbits) - 1)];
	int code = 0, first = 0, index = 0;
	unsigned l;

	if (e) {
		take(b, e & 15);
		return (int)(e >> 4);
	}
	for (l = 1; l <= MAXBITS; l++) {
		int count = h->count[l];
		code |= (int)((b->buf >> (l - 1)) & 1);
		if (code - count < first) {
			take(b, l);
			return h->symbol[index + (code - first)];
		}
		index += count;
		first = (first + count) << 1;
		code <<= 1;
	}
	return -1;
}

static const uint16_t len_base[29] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
				       35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t len_extra[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
				       3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dist_base[30] = { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129,
					193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
					6145, 8193, 12289, 16385, 24577 };
static const uint8_t dist_extra[30] = { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
					7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };

/* The code lengths of a dynamic block into lit and dist: 0, or -1. */
static int dynamic(struct bits *b, struct huff *lit, struct huff *dist)
{
	static const uint8_t order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	unsigned char lens[288 + 32];
	struct huff cl;
	unsigned nlen, ndist, ncode, i = 0;

	refill(b);
	nlen = take(b, 5) + 257;
	ndist = take(b, 5) + 1;
	ncode = take(b, 4) + 4;
	if (nlen > 286 || ndist > 30)
		return -1;
	memset(lens, 0, 19);
	for (i = 0; i < ncode; i++) {
		if (i == 8 || i == 16)
			refill(b);
		lens[order[i]] = (unsigned char)take(b, 3);
	}
	for (; i < 19; i++)
		lens[order[i]] = 0;
	if (build(&cl, lens, 19, 0, CL_FAST))
		return -1;
	i = 0;
	while (i < nlen + ndist) {
		int sym;
		unsigned rep, val = 0;
		refill(b);
		sym = decode(b, &cl);
		if (sym < 0)
			return -1;
		if (sym < 16) {
			lens[i++] = (unsigned char)sym;
			continue;
		}
		if (sym == 16) {
			if (!i)
				return -1;
			val = lens[i - 1];
			rep = 3 + take(b, 2);
		} else if (sym == 17) {
			rep = 3 + take(b, 3);
		} else {
			rep = 11 + take(b, 7);
		}
		if (i + rep > nlen + ndist)
			return -1;
		while (rep--)
			lens[i++] = (unsigned char)val;
	}
	if (overrun(b) || !lens[256]) /* a block with no end is no block */
		return -1;
	if (build(lit, lens, nlen, 1, LIT_FAST) || build(dist, lens + nlen, ndist, 1, DIST_FAST))
		return -1;
	return 0;
}

static void fixed(struct huff *lit, struct huff *dist)
{
	unsigned char lens[288];
	unsigned i;

	for (i = 0; i < 144; i++)
		lens[i] = 8;
	for (; i < 256; i++)
		lens[i] = 9;
	for (; i < 280; i++)
		lens[i] = 7;
	for (; i < 288; i++)
		lens[i] = 8;
	build(lit, lens, 288, 1, LIT_FAST);
	/* All 32 distance codes: 30 and 31 have a code, and no distance (decoding one is
	 * an error). */
	for (i = 0; i < 32; i++)
		lens[i] = 5;
	build(dist, lens, 32, 1, DIST_FAST);
}

size_t hexoid_pk_inflate_heads(const unsigned char *in, size_t inlen, unsigned char *out, size_t cap)
{
	struct bits b = { in, in + inlen, 0, 0, 0 };
	struct huff lit, dist;
	size_t pos = 0;
	unsigned last = 0;

	/* zlib's header: deflate, a window zlib takes, no preset dictionary, its check. */
	if (inlen < 2 || (in[0] & 15) != 8 || (in[0] >> 4) > 7 || (in[1] & 0x20) ||
	    ((unsigned)in[0] << 8 | in[1]) % 31)
		return 0;
	b.p += 2;
	while (!last) {
		unsigned type;
		refill(&b);
		last = take(&b, 1);
		type = take(&b, 2);
		if (type == 0) {
			unsigned len, nlen;
			take(&b, b.n & 7); /* to the byte boundary */
			refill(&b);
			len = take(&b, 16);
			nlen = take(&b, 16);
			if (len != (~nlen & 0xffff))
				return 0;
			while (len--) {
				unsigned char c;
				refill(&b);
				c = (unsigned char)take(&b, 8);
				if (overrun(&b) || pos == cap)
					return 0;
				out[pos] = c;
				if (c == '\n' && pos && out[pos - 1] == '\n')
					return overrun(&b) ? 0 : pos + 1;
				pos++;
			}
			continue;
		}
		if (type == 1)
			fixed(&lit, &dist);
		else if (type != 2 || dynamic(&b, &lit, &dist))
			return 0;
		for (;;) {
			int sym;
			unsigned len, d;
			refill(&b);
			if (overrun(&b))
				return 0;
			sym = decode(&b, &lit);
			if (sym < 256) {
				if (sym < 0 || pos == cap)
					return 0;
				out[pos] = (unsigned char)sym;
				if (sym == '\n' && pos && out[pos - 1] == '\n')
					return overrun(&b) ? 0 : pos + 1;
				pos++;
				continue;
			}
			if (sym == 256)
				break;
			sym -= 257;
			if (sym >= 29)
				return 0;
			len = len_base[sym] + take(&b, len_extra[sym]);
			sym = decode(&b, &dist); /* 15 + 5 + 15 + 13 bits: a refill's 56 hold them */
			if (sym < 0 || sym >= 30)
				return 0;
			d = dist_base[sym] + take(&b, dist_extra[sym]);
			if (d > pos || len > cap - pos)
				return 0;
			while (len--) {
				unsigned char c = out[pos - d];
				out[pos] = c;
				if (c == '\n' && pos && out[pos - 1] == '\n')
					return overrun(&b) ? 0 : pos + 1;
				pos++;
			}
		}
	}
	return 0; /* the stream ends before a blank line: the object is read whole */
}
