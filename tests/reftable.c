/*
 * The reftable reader (src/audit/reftable.c) on tables made byte by byte: a ref block
 * padded to the table's block size, and one that is not, followed at once by another
 * block whose bytes, where a padded block would end, look like a ref block's header.
 * SPDX-License-Identifier: MIT
 */
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
