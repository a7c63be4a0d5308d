/*
 * The grammar's helpers that are not inline (grammar.h): an item pushed into the batch,
 * an object ID (and an abbreviated one, wherever it stands), a ref name, and the hash a
 * listing is in.
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
		c->dry_ids += type == ITEM_OID;
		if (type == ITEM_PROBLEM && !c->dry_problems++) {
			c->dry_col = col;
			c->dry_code = code;
			c->dry_arg = arg;
		}
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
	it->base = c->l->line_base;
	it->arg = arg;
	it->what = what;
}

const char *hexoid_listing_whole(const struct hexoid_listing *l)
{
	return !l->hexsz ? "40 (sha1) or 64 (sha256)" : l->hexsz == 64 ? "64 (sha256)" : "40 (sha1)";
}

/* An abbreviated ID that ends the line or the token at the cursor: its digits, or 0. */
static size_t abbreviated(const struct cursor *c)
{
	size_t run = 0;
	while (c->pos + run < c->len && is_hex((unsigned char)c->s[c->pos + run]))
		run++;
	size_t e = c->pos + run;
	if (e < c->len && c->s[e] != ' ' && c->s[e] != '\t')
		return 0;
	return abbreviation(run, c->l->hexsz) ? run : 0;
}

static int abbreviated_problem(struct cursor *c, size_t run)
{
	return problem(c, c->pos, P_ABBREV, run, hexoid_listing_whole(c->l));
}

/* Are the n bytes at s digits the engine takes (lowercase only, unless mixed)? */
static int digits(const char *s, size_t n, enum hexoid_kind kind)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (!((unsigned char)(ch - '0') < 10 || (unsigned char)(ch - 'a') < 6 ||
		      (kind == HEXOID_MIXED && (unsigned char)(ch - 'A') < 6)))
			return 0;
	}
	return 1;
}

int hexoid_listing_oid(struct cursor *c)
{
	struct hexoid_listing *l = c->l;
	if (c->failed)
		return 0;
	if (!l->hexsz) {
		/* The first ID decides the hash: by the length of its token, so that a bad
		 * digit in it is still reported as one. */
		size_t run = token_len(c), abbrev;
		if (run == 40)
			hexoid_listing_set_algo(l, HEXOID_SHA1);
		else if (run == 64)
			hexoid_listing_set_algo(l, HEXOID_SHA256);
		else if ((abbrev = abbreviated(c)))
			return abbreviated_problem(c, abbrev);
		else
			return problem(c, c->pos, P_ALGO, run, NULL);
	}
	if (c->pos + l->hexsz > c->len) {
		/* Too short: name the first byte that is not a digit, else say how short. */
		size_t i = c->pos, abbrev = abbreviated(c);
		if (abbrev)
			return abbreviated_problem(c, abbrev);
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
				c->dry_code = P_EXPECT;
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
	/*
	 * An abbreviated ID with more of the line after it: the engine stops at the blank
	 * that ends its digits, and that is reported as an abbreviated ID (as for a fast
	 * line's). What follows is not the line's grammar: the rest is not read, as after
	 * a problem. AUTO's trial counts it as the ID's problem.
	 */
	size_t blank = find_blank(c->s + c->pos, l->hexsz);
	if (HEXOID_UNLIKELY(blank < l->hexsz) && abbreviation(blank, l->hexsz) &&
	    digits(c->s + c->pos, blank, c->dry ? HEXOID_MIXED : l->kind)) {
		if (c->dry)
			abbreviated_problem(c, blank);
		c->failed = 1;
		return 0;
	}
	c->pos += l->hexsz;
	c->oid_end = c->pos;
	return 1;
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
	if (c->dry && !peek(c, "refs/") && !peek(c, "worktrees/") && !peek(c, "main-worktree/")) {
		/* HEAD, FETCH_HEAD and the like: capitals and '_' only (or another
		 * worktree's: worktrees/<name>/HEAD, as bundle create --all names it). */
		for (size_t i = c->pos; i < c->len; i++)
			if (!((c->s[i] >= 'A' && c->s[i] <= 'Z') || c->s[i] == '_'))
				return problem(c, c->pos, P_EXPECT, 0, "a ref name");
	}
	c->pos = c->len;
	return 1;
}
