/*
 * The headers-only inflater (src/pack/heads.h) against zlib: on streams zlib writes at
 * every level and strategy, it must stop exactly after the first blank line with zlib's
 * bytes, or say it cannot (0) when there is none; on the same streams damaged (bits
 * flipped, cut short), whatever it returns must be bytes zlib also makes of that
 * stream before it fails: never more than zlib accepts.
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pack/heads.h"
#include "test.h"

/* A commit-like text of about `size` bytes: headers, a blank line at `blank` (or none
 * when blank is 0), and a message of words, random bytes mixed in when `noise`. */
static size_t make_text(unsigned char *t, size_t size, size_t blank, int noise)
{
	static const char *words[] = { "tree ", "parent ", "author A U Thor <a@example.com> ",
				       "committer ", "Signed-off-by: ", "the ", "pack ", "\n",
				       "0123456789abcdef", "fix ", "gpgsig -----BEGIN", " " };
	size_t n = 0;

	while (n < size) {
		if (noise && test_rand() % 4 == 0) {
			t[n++] = (unsigned char)test_rand();
			continue;
		}
		const char *w = words[test_rand() % (sizeof(words) / sizeof(*words))];
		size_t l = strlen(w);
		if (l > size - n)
			l = size - n;
		memcpy(t + n, w, l);
		n += l;
	}
	/* No blank line but the one planted. */
	for (size_t i = 1; i < n; i++)
		if (t[i] == '\n' && t[i - 1] == '\n')
			t[i] = 'x';
	if (blank && blank + 1 < n) {
		t[blank] = '\n';
		t[blank + 1] = '\n';
		if (blank + 2 < n && t[blank + 2] == '\n')
			t[blank + 2] = 'y';
		if (t[blank - 1] == '\n')
			t[blank - 1] = 'z';
	}
	return n;
}

static size_t deflate_with(const unsigned char *in, size_t len, unsigned char *out, size_t cap,
			   int level, int strategy, int membits)
{
	z_stream z;
	size_t got;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, level, Z_DEFLATED, 15, membits, strategy) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		return 0;
	}
	got = z.total_out;
	deflateEnd(&z);
	return got;
}

/* What zlib makes of in[0, len) before it ends or fails: its byte count. */
static size_t zlib_makes(const unsigned char *in, size_t len, unsigned char *out, size_t cap)
{
	z_stream z;
	size_t got;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	inflate(&z, Z_FINISH);
	got = z.total_out;
	inflateEnd(&z);
	return got;
}

/* The first blank line's end in t[0, n), or 0. */
static size_t blank_end(const unsigned char *t, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (t[i] == '\n' && t[i - 1] == '\n')
			return i + 1;
	return 0;
}

#define MAXTEXT 100000

TEST(heads_as_zlib)
{
	static const int strategies[] = { Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED };
	static const size_t sizes[] = { 2, 40, 300, 736, 2000, 70000, MAXTEXT };
	unsigned char *t = malloc(MAXTEXT), *z = malloc(2 * MAXTEXT + 1024), *out = malloc(MAXTEXT);
	unsigned cases = 0;

	test_seed(24);
	for (size_t si = 0; si < sizeof(sizes) / sizeof(*sizes); si++) {
		for (int level = 0; level <= 9; level += 3) {
			for (size_t st = 0; st < sizeof(strategies) / sizeof(*strategies); st++) {
				size_t size = sizes[si], blanks[4] = { 0, 1, size / 3, size - 2 };
				for (size_t b = 0; b < 4; b++) {
					size_t n = make_text(t, size, blanks[b], (int)(b & 1)), want = blank_end(t, n);
					size_t zl = deflate_with(t, n, z, 2 * MAXTEXT + 1024, level, strategies[st],
								 8 + (int)(b & 1));
					size_t got;
					CHECK(zl > 0, "deflate failed");
					got = hexoid_pk_inflate_heads(z, zl, out, n);
					CHECK(got == want, "size %zu level %d strategy %d blank %zu: %zu, want %zu",
					      size, level, strategies[st], blanks[b], got, want);
					if (got && got == want)
						CHECK(!memcmp(out, t, got), "size %zu level %d: other bytes", size, level);
					/* No room for the headers: no answer. */
					if (want > 1)
						CHECK(hexoid_pk_inflate_heads(z, zl, out, want - 1) == 0,
						      "size %zu: an answer without room for it", size);
					cases++;
				}
			}
		}
	}
	CHECK(cases > 500, "only %u cases", cases);
	free(t);
	free(z);
	free(out);
}

TEST(heads_damaged_never_more_than_zlib)
{
	unsigned char *t = malloc(4096), *z = malloc(8192), *d = malloc(8192), *out = malloc(4096),
		      *ref = malloc(65536);
	unsigned answered = 0;

	test_seed(2424);
	for (unsigned i = 0; i < 8000; i++) {
		size_t size = 20 + test_rand() % 2000, n, zl, dl, got, made;
		int level = (int)(test_rand() % 10);
		n = make_text(t, size, 1 + test_rand() % (size - 2), (int)(i & 1));
		zl = deflate_with(t, n, z, 8192, level, (i & 4) ? Z_FIXED : Z_DEFAULT_STRATEGY, 8);
		CHECK(zl > 0, "deflate failed");
		memcpy(d, z, zl);
		dl = zl;
		switch (test_rand() % 3) {
		case 0: /* one bit */
			d[test_rand() % zl] ^= (unsigned char)(1u << (test_rand() % 8));
			break;
		case 1: /* cut short */
			dl = test_rand() % zl;
			break;
		default: /* a run of random bytes */
			for (size_t k = test_rand() % zl, e = k + 1 + test_rand() % 8; k < e && k < zl; k++)
				d[k] = (unsigned char)test_rand();
		}
		got = hexoid_pk_inflate_heads(d, dl, out, n);
		if (!got)
			continue;
		answered++;
		made = zlib_makes(d, dl, ref, 65536);
		CHECK(made >= got && !memcmp(out, ref, got),
		      "case %u: %zu bytes where zlib makes %zu of the stream", i, got, made);
		if (test_failed())
			break;
	}
	CHECK(answered > 400, "only %u damaged streams answered", answered);
	free(t);
	free(z);
	free(d);
	free(out);
	free(ref);
}
