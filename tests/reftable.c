/*
 * The reftable reader (src/audit/reftable.c) on tables made byte by byte: a ref block
 * padded to the table's block size, and one that is not, followed at once by another
 * block whose bytes, where a padded block would end, look like a ref block's header.
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "audit/reftable.h"
#include "test.h"

#define BSIZE 256
#define FOOTER 68 /* version 1 */

/* A version 1 table of one ref, refs/heads/x, in a block of 68 bytes (the file's 24-byte
 * header in it), then zeros up to BSIZE (padding) and a log block there, or a log block
 * right after it, with an 'r' at BSIZE and a length no block can have. Returns the size. */
static size_t table(unsigned char *t, int padded)
{
	static const char name[] = "refs/heads/x";
	size_t at = 0, blen;

	memset(t, 0, BSIZE + 64 + FOOTER);
	memcpy(t, "REFT", 4);
	t[4] = 1;
	t[5] = 0, t[6] = BSIZE >> 8, t[7] = BSIZE & 0xff;
	at = 24;
	t[at] = 'r';
	at += 4;
	t[at++] = 0;                          /* prefix length */
	t[at++] = (sizeof(name) - 1) << 3 | 1; /* suffix length, value type 1: an ID */
	memcpy(t + at, name, sizeof(name) - 1);
	at += sizeof(name) - 1;
	t[at++] = 0;                          /* update index delta */
	memset(t + at, 0xab, 20);
	at += 20;
	t[at++] = 0, t[at++] = 0, t[at++] = 28; /* one restart, at the first record */
	t[at++] = 0, t[at++] = 1;
	blen = at;
	t[25] = 0, t[26] = 0, t[27] = (unsigned char)blen;
	if (!padded) {
		t[blen] = 'g'; /* a log block, compressed: any bytes */
		memset(t + blen + 1, 0x5a, BSIZE - blen - 1);
	}
	t[BSIZE] = padded ? 'g' : 'r';
	t[BSIZE + 1] = t[BSIZE + 2] = t[BSIZE + 3] = 0xff;
	return BSIZE + 64 + FOOTER;
}

TEST(reftable_block_padding)
{
	for (int padded = 0; padded <= 1; padded++) {
		unsigned char t[BSIZE + 64 + FOOTER];
		const unsigned char *tables[1] = { t };
		size_t sizes[1] = { table(t, padded) }, n = 0;
		struct rt_ref *refs = NULL;
		char err[256] = "";

		CHECK(hexoid_reftable_refs_buffers(tables, sizes, 1, "refs/", HEXOID_SHA1, &refs, &n,
						   err, sizeof(err)) == 0,
		      "padded %d: read: %s", padded, err);
		CHECK(n == 1 && refs && !strcmp(refs[0].name, "refs/heads/x") && refs[0].type == 1 &&
			      refs[0].oid[0] == 0xab,
		      "padded %d: %zu refs", padded, n);
		hexoid_reftable_free(refs, n);
	}
}

/* --- what a hostile table may cost ------------------------------------------------- */

struct tb {
	unsigned char *p;
	size_t n;
};

static void tb_byte(struct tb *t, unsigned c)
{
	t->p[t->n++] = (unsigned char)c;
}

/* reftable's varint: big-endian base-128, +1 on each continuation, as the reader takes. */
static void tb_varint(struct tb *t, uint64_t v)
{
	unsigned char b[16];
	int at = 15;

	b[at] = v & 0x7f;
	while (v >>= 7)
		b[--at] = (unsigned char)(0x80 | (--v & 0x7f));
	memcpy(t->p + t->n, b + at, (size_t)(16 - at));
	t->n += (size_t)(16 - at);
}

/* A version 1 table, no block size (blocks unpadded), of one ref block: first a
 * deletion record named "refs/replace/" and `first` bytes, then `more` deletions that
 * each keep all of the name before them and add one byte. Returns its malloc'ed bytes. */
static unsigned char *hostile_table(size_t first, size_t more, size_t *size)
{
	struct tb t;
	size_t blen;

	t.p = calloc(1, 64 + first + 8 * more + FOOTER + 16);
	if (!t.p)
		return NULL;
	memcpy(t.p, "REFT", 4);
	t.p[4] = 1;
	t.n = 24;
	tb_byte(&t, 'r');
	t.n += 3; /* the block's length, below */
	tb_varint(&t, 0);
	tb_varint(&t, (uint64_t)(13 + first) << 3);
	memcpy(t.p + t.n, "refs/replace/", 13);
	memset(t.p + t.n + 13, 'a', first);
	t.n += 13 + first;
	tb_varint(&t, 0);
	for (size_t i = 0; i < more; i++) {
		tb_varint(&t, 13 + first + i);
		tb_varint(&t, 1 << 3);
		tb_byte(&t, 'b');
		tb_varint(&t, 0);
	}
	tb_byte(&t, 0), tb_byte(&t, 0), tb_byte(&t, 28); /* one restart, at the first record */
	tb_byte(&t, 0), tb_byte(&t, 1);
	blen = t.n;
	t.p[25] = (unsigned char)(blen >> 16), t.p[26] = (unsigned char)(blen >> 8);
	t.p[27] = (unsigned char)blen;
	*size = t.n + FOOTER;
	return t.p;
}

TEST(reftable_hostile_names)
{
	static const struct {
		size_t first, more;
		int ok;
		const char *err;
	} cases[] = {
		{ 60000, 100, 1, NULL },                                   /* 6 MB of names */
		{ 70000, 0, 0, "a ref name longer than 64 KiB" },          /* one name */
		{ 60000, 2000, 0, "more than 64 MiB of ref names kept" },  /* 120 MB from 300 KB */
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t size, n = 0;
		unsigned char *t = hostile_table(cases[c].first, cases[c].more, &size);
		const unsigned char *tables[1] = { t };
		struct rt_ref *refs = NULL;
		char err[256] = "";
		int rc;

		if (!t) {
			CHECK(0, "case %zu: no memory for the table", c);
			continue;
		}
		rc = hexoid_reftable_refs_buffers(tables, &size, 1, "refs/replace/", HEXOID_SHA1, &refs,
						  &n, err, sizeof(err));
		if (cases[c].ok)
			CHECK(rc == 0 && n == 0, "case %zu: rc %d, %zu refs (all deletions): %s", c, rc, n, err);
		else
			CHECK(rc < 0 && strstr(err, cases[c].err), "case %zu: rc %d: '%s'", c, rc, err);
		hexoid_reftable_free(refs, n);
		free(t);
	}
}
