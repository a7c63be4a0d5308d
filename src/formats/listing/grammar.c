/*
 * The grammar's helpers that are not inline (grammar.h): an item pushed into the batch,
 * an object ID, an ID git may abbreviate, a ref name, and the hash a listing is in.
 * SPDX-License-Identifier: MIT
 */
#include "grammar.h"

void hexoid_listing_set_algo(struct hexoid_listing *l, enum hexoid_algo algo)
{
	l->algo = algo;
	l->hexsz = hexoid_hexsz(algo);
	l->rawsz = hexoid_rawsz(algo);
}

void hexoid_listing_push(struct cursor *c, unsigned char type, size_t col, unsigned char code,
		  size_t arg, const char *what)
{
	if (c->dry) {
		if (type == ITEM_PROBLEM && !c->dry_problems++)
			c->dry_col = col;
		return;
	}
	c->l->nitems++;
	struct item *it = &c->l->items[c->l->ngrammar++];
	it->line = c->s;
	it->len = c->len;
	it->lineno = c->l->lineno;
	it->col = col;
	it->type = type;
	it->code = code;
	it->bad = 0;
	it->cut = (unsigned char)c->cut;
	it->arg = arg;
	it->what = what;
}

int hexoid_listing_oid(struct cursor *c)
{
	struct hexoid_listing *l = c->l;
	if (c->failed)
		return 0;
	if (!l->hexsz) {
		/* The first ID decides the hash: by the length of its token, so that a bad
		 * digit in it is still reported as one. */
		size_t run = token_len(c);
		if (run == 40)
			hexoid_listing_set_algo(l, HEXOID_SHA1);
		else if (run == 64)
			hexoid_listing_set_algo(l, HEXOID_SHA256);
		else
			return problem(c, c->pos, P_ALGO, run, NULL);
	}
	if (c->pos + l->hexsz > c->len) {
		/* Too short: name the first byte that is not a digit, else say how short. */
		size_t i = c->pos;
		while (i < c->len && is_hex((unsigned char)c->s[i]))
			i++;
		if (i < c->len && c->s[i] != ' ' && c->s[i] != '\t') {
			/* Let the report describe that byte: an ID item that fails right there. */
			hexoid_listing_push(c, ITEM_OID, c->pos, P_NONE, 0, NULL);
			if (!c->dry) {
				struct item *it = &l->items[l->ngrammar - 1];
				it->bad = 1;
				it->badcol = i;
			} else if (!c->dry_problems++) { /* the ID does not fit: a shape problem */
				c->dry_col = i;
			}
			c->failed = 1;
			return 0;
		}
		return problem(c, i, P_SHORT, i - c->pos, NULL);
	}
	/* A trial parse (AUTO) judges the shape of lines, not their digits. */
	hexoid_listing_push(c, ITEM_OID, c->pos, P_NONE, 0, NULL);
	if (!c->dry) {
		struct item *it = &l->items[l->ngrammar - 1];
		it->slot = l->nslots++;
		memcpy(l->packed + it->slot * l->hexsz, c->s + c->pos, l->hexsz);
	}
	c->pos += l->hexsz;
	c->oid_end = c->pos;
	return 1;
}

int hexoid_listing_full_oid(struct cursor *c)
{
	if (c->failed)
		return 0;
	size_t want = c->l->hexsz;
	if (want && c->len - c->pos > want && c->s[c->pos + want] == ' ')
		return oid(c); /* whole, as git prints it with --no-abbrev */
	size_t run = 0;
	want = want ? want : 40;
	while (c->pos + run < c->len && is_hex((unsigned char)c->s[c->pos + run]))
		run++;
	if (run >= 4 && run < want && c->pos + run < c->len &&
	    (c->s[c->pos + run] == ' ' || c->s[c->pos + run] == '.'))
		return problem(c, c->pos, P_ABBREV, run, want == 64 ? "64 (sha256)" : "40 (sha1)");
	return oid(c);
}

int hexoid_listing_refname(struct cursor *c)
{
	if (c->failed)
		return 0;
	if (c->pos >= c->len)
		return problem(c, c->pos, P_EXPECT, 0, "a ref name");
	size_t blank = c->pos + find_blank(c->s + c->pos, c->len - c->pos);
	if (blank < c->len)
		return problem(c, blank, P_EXPECT, 0, "the end of the ref name");
	if (c->dry && !peek(c, "refs/")) {
		/* HEAD, FETCH_HEAD and the like: capitals and '_' only. */
		for (size_t i = c->pos; i < c->len; i++)
			if (!((c->s[i] >= 'A' && c->s[i] <= 'Z') || c->s[i] == '_'))
				return problem(c, c->pos, P_EXPECT, 0, "a ref name");
	}
	c->pos = c->len;
	return 1;
}
