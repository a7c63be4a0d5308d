/*
 * Listings of trees and the index: ls-tree, ls-files --stage, and the raw output of
 * diff-tree, diff-index and diff-files. Their -z forms end each record with a NUL
 * instead of a newline (the table says which); the grammar is the same.
 * SPDX-License-Identifier: MIT
 */
#include "parsers.h"

/*
 * ls-tree, with -r, -t, -d and --full-tree: <mode> <type> <oid>TAB<path>; with -l
 * (--long) the object's size, right-aligned in 7 columns ('-' for trees and submodule
 * commits), after the ID: <mode> <type> <oid> <size>TAB<path>.
 */
void hexoid_parse_ls_tree(struct cursor *c)
{
	number(c, 8, 6, 6, "a 6-digit octal mode");
	sep(c, ' ', "a space after the mode");
	type_word(c);
	sep(c, ' ', "a space after the type");
	oid(c);
	if (!c->failed && c->pos < c->len && c->s[c->pos] == ' ') {
		/* The size column: spaces, then digits or '-', then the tab. Anything else
		 * is a missing tab. */
		size_t p = c->pos;
		while (p < c->len && c->s[p] == ' ')
			p++;
		size_t q = p;
		if (q < c->len && c->s[q] == '-')
			q++;
		else
			while (q < c->len && q - p < 20 && c->s[q] >= '0' && c->s[q] <= '9')
				q++;
		if (q > p && q < c->len && c->s[q] == '\t')
			c->pos = q;
	}
	sep(c, '\t', "a tab after the object ID");
	rest_nonempty(c, "a path");
}

/* ls-files --stage (-s): <mode> <oid> <stage>TAB<path>. */
void hexoid_parse_ls_files(struct cursor *c)
{
	number(c, 8, 6, 6, "a 6-digit octal mode");
	sep(c, ' ', "a space after the mode");
	oid(c);
	sep(c, ' ', "a space after the object ID");
	if (!c->failed && c->pos < c->len && c->s[c->pos] >= '0' && c->s[c->pos] <= '3')
		c->pos++;
	else
		problem(c, c->pos, P_EXPECT, 0, "the stage (0 to 3)");
	sep(c, '\t', "a tab after the stage");
	rest_nonempty(c, "a path");
}

/*
 * diff-tree, diff-index, diff-files --raw, with full IDs:
 *   :<mode> <mode> <oid> <oid> <status>[<score>]TAB<path>[TAB<path>]
 * one more ':', mode and ID per parent in a combined diff (-c), one status letter each;
 * and diff-tree's line of the commit it compares: <oid>[ <oid>...] (--parents). In
 * log --raw --no-abbrev --format=%H, a commit's line and its diff have a blank line
 * between them: an empty line is taken only there.
 */
void hexoid_parse_diff_raw(struct cursor *c)
{
	struct hexoid_listing *l = c->l;
	if (c->len == 0) {
		if (l->state == DIFF_COMMIT)
			l->state = DIFF_BLANK;
		else
			problem(c, 0, P_EMPTY, 0, NULL);
		return;
	}
	if (c->s[0] != ':') {
		if (l->state == DIFF_BLANK) {
			problem(c, 0, P_EXPECT, 0, "a line of the diff (':') after the blank line");
			return;
		}
		l->state = DIFF_COMMIT;
		while (oid(c) && c->pos < c->len)
			sep(c, ' ', "a space after the object ID");
		return;
	}
	l->state = DIFF_DIFF;
	size_t n = 0;
	while (c->pos < c->len && c->s[c->pos] == ':')
		c->pos++, n++;
	for (size_t i = 0; i <= n; i++) {
		number(c, 8, 6, 6, "a 6-digit octal mode");
		sep(c, ' ', "a space after the mode");
	}
	for (size_t i = 0; i <= n; i++) {
		oid(c);
		sep(c, ' ', "a space after the object ID");
	}
	for (size_t i = 0; i < n && !c->failed; i++) {
		if (c->pos < c->len && diff_status(c->s[c->pos]))
			c->pos++;
		else
			problem(c, c->pos, P_EXPECT, 0, "a status letter (A, C, D, M, R, T, U or X)");
	}
	while (!c->failed && c->pos < c->len && c->s[c->pos] >= '0' && c->s[c->pos] <= '9')
		c->pos++; /* the score of a copy or rename */
	sep(c, '\t', "a tab before the path");
	rest_nonempty(c, "a path");
}
