/*
 * Listings of objects: bare IDs, pack-objects input, rev-list in all its shapes,
 * cat-file --batch-check, git fsck, and fast-import/fast-export marks files.
 * SPDX-License-Identifier: MIT
 */
#include "listing.h"

/* <oid>: pack-objects output, .git/shallow, loose refs, the *-chain files. */
void parse_oids(struct cursor *c)
{
	if (oid(c) && c->pos < c->len)
		problem(c, c->pos, P_LINE_LONG, c->len, NULL);
}

/* <oid>[ <name>], or -<oid> (an edge): what pack-objects reads. */
void parse_pack_objects(struct cursor *c)
{
	if (c->s[0] == '-') {
		c->pos = 1;
		oid(c);
		end(c);
		return;
	}
	if (oid(c) && c->pos < c->len)
		sep(c, ' ', "a space after the object ID");
}

/*
 * Is the rest of the line one or more ID-shaped tokens (hexsz letters or digits each),
 * one space apart? Such are the parents of rev-list --parents, the children of
 * --children, and the fields of --format='%H %P' or '%H %T'.
 */
/* Are the 8 bytes at p all ASCII letters or digits? */
HEXOID_INLINE int alnum8(const char *p)
{
	uint64_t x = load64(p), y = x | 0x2020202020202020ull; /* 'A'-'Z' to 'a'-'z' */
	return (bytes_in(x, '0', '9') | bytes_in(y, 'a', 'z')) == 0x8080808080808080ull;
}

static int ids_follow(const struct cursor *c)
{
	size_t hexsz = c->l->hexsz, p = c->pos;
	if (p == c->len)
		return 0;
	for (;;) {
		if (c->len - p < hexsz)
			return 0;
		for (size_t i = 0; i < hexsz; i += 8) /* hexsz is 40 or 64 */
			if (!alnum8(c->s + p + i))
				return 0;
		p += hexsz;
		if (p == c->len)
			return 1;
		if (c->s[p] != ' ')
			return 0;
		p++;
	}
}

/*
 * rev-list, every shape, and log --format of ID fields:
 *   <oid>                      commits (and --objects --no-object-names)
 *   <oid> <path>, <oid> SP     --objects (the root tree has an empty path)
 *   -<oid>                     --boundary, --objects-edge
 *   ?<oid>                     --missing=print
 *   <oid> <oid>...             --parents, --children, --format='%H %P' (a root
 *                              commit's ends in a space), '%H %T'
 * The commits come first, and their lines hold only IDs: each is checked. From the
 * first line whose rest is not IDs on, the rest is a path, whatever it looks like.
 */
void parse_rev_list(struct cursor *c)
{
	if (c->s[0] == '-' || c->s[0] == '?')
		c->pos = 1;
	if (!oid(c) || c->pos == c->len)
		return;
	if (!sep(c, ' ', "a space after the object ID"))
		return;
	if (c->l->state == REV_OBJECTS || c->s[0] == '?')
		return; /* a path: anything */
	if (!ids_follow(c)) {
		if (c->pos < c->len)
			c->l->state = REV_OBJECTS;
		return;
	}
	while (oid(c) && c->pos < c->len)
		sep(c, ' ', "a space after the object ID");
}

static int all_digits(const struct cursor *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (c->s[c->pos + i] < '0' || c->s[c->pos + i] > '9')
			return 0;
	return n > 0;
}

/*
 * cat-file --batch-check: <oid> <type> <size> by default; with --batch-check=FORMAT,
 * %(objectname) first, then %(objecttype) or %(objectsize), then any of the sizes and
 * %(deltabase) (an ID, the null ID when there is none). "<name> missing" and
 * "<name> ambiguous" are what was asked for, as given.
 */
void parse_batch_check(struct cursor *c)
{
	if ((c->s[c->len - 1] == 'g' && line_ends_with(c, " missing")) ||
	    (c->s[c->len - 1] == 's' && line_ends_with(c, " ambiguous")))
		return;
	if (!oid(c) || c->pos == c->len)
		return;
	sep(c, ' ', "a space after the object ID");
	size_t n = token_len(c);
	if (!c->failed && all_digits(c, n) && n <= 20) {
		c->pos += n; /* %(objectsize) without the type */
	} else {
		type_word(c);
		if (c->failed || c->pos == c->len)
			return;
		sep(c, ' ', "a space after the type");
		number(c, 10, 1, 20, "the object size");
	}
	/* More sizes, and %(deltabase): a token as long as an ID is one (sizes have at most
	 * 20 digits). */
	size_t hexsz = c->l->hexsz;
	while (!c->failed && c->pos < c->len) {
		sep(c, ' ', "a space after the object size");
		if (c->len - c->pos >= hexsz &&
		    (c->len - c->pos == hexsz || c->s[c->pos + hexsz] == ' ')) {
			oid(c);
			continue;
		}
		n = token_len(c);
		if (!c->failed && all_digits(c, n) && n <= 20)
			c->pos += n;
		else
			oid(c);
	}
	end(c);
}

/*
 * git fsck's lines: dangling|unreachable|missing <type> <oid>, root <oid>,
 * tagged <type> <oid> (<name>) in <oid>, and the two lines of a broken link:
 * broken link from <type> <oid>, then (indented) to <type> <oid>.
 */
void parse_fsck(struct cursor *c)
{
	if (take(c, "dangling ") || take(c, "unreachable ") || take(c, "missing ") ||
	    take(c, "broken link from ")) {
		type_word(c);
		sep(c, ' ', "a space after the type");
		oid(c);
		end(c);
		return;
	}
	if (take(c, "root ")) {
		oid(c);
		end(c);
		return;
	}
	if (take(c, "tagged ")) {
		type_word(c);
		sep(c, ' ', "a space after the type");
		oid(c);
		lit(c, " (", "\" (\" before the tag's name");
		/* The name may hold anything: the ") in " before the last ID ends it. */
		size_t hexsz = c->l->hexsz;
		if (!c->failed && c->len >= c->pos + 5 + hexsz &&
		    !memcmp(c->s + c->len - hexsz - 5, ") in ", 5)) {
			c->pos = c->len - hexsz;
			oid(c);
			end(c);
		} else {
			problem(c, c->pos, P_EXPECT, 0, "\") in <oid>\" after the tag's name");
		}
		return;
	}
	while (c->pos < c->len && c->s[c->pos] == ' ')
		c->pos++;
	if (c->pos > 0 && take(c, "to ")) {
		type_word(c);
		sep(c, ' ', "a space after the type");
		oid(c);
		end(c);
		return;
	}
	c->pos = 0;
	problem(c, 0, P_EXPECT, 0, "a line of git fsck (dangling, unreachable, missing, root, tagged or broken link)");
}

/* A marks file of fast-import (--export-marks) and fast-export: :<mark> <oid>. */
void parse_marks(struct cursor *c)
{
	lit(c, ":", "':' before the mark");
	number(c, 10, 1, 20, "the mark's number");
	sep(c, ' ', "a space after the mark");
	oid(c);
	end(c);
}
