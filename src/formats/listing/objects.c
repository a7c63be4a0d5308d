/*
 * Listings of objects: bare IDs, pack-objects input, rev-list in all its shapes,
 * cat-file --batch-check, git fsck, and fast-import/fast-export marks files.
 * SPDX-License-Identifier: MIT
 */
#include "parsers.h"
#include "../scan.h"

/* <oid>: pack-objects output, .git/shallow, loose refs, the *-chain files. */
void hexoid_parse_oids(struct cursor *c)
{
	if (oid(c) && c->pos < c->len)
		problem(c, c->pos, P_LINE_LONG, c->len, NULL);
}

/* <oid>[ <name>], or -<oid> (an edge): what pack-objects reads. */
void hexoid_parse_pack_objects(struct cursor *c)
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
 * Is the rest of the line one or more object IDs, one space apart? Such are the parents
 * of rev-list --parents, the children of --children, and the fields of --format='%H %P'
 * or '%H %T %P'. A field may be empty (a root commit's %P: a line that ends in a space,
 * or two spaces in a row), as long as one is an ID. A token is taken for an ID when it has hexsz bytes give or take two, no
 * '/', and at most two bytes that are not hex digits: so an ID with a digit wrong, lost
 * or doubled is one (and is checked), while a path, or a tag's name, almost never is.
 * Returns 0 (not IDs), 1 (IDs), or 2 when each is hexsz hex digits of either case.
 */
static int ids_follow(const struct cursor *c)
{
	size_t hexsz = c->l->hexsz, p = c->pos;
	const char *s = c->s;
	int all_hex = 2, found = 0;
	for (;;) {
		size_t n = 0, odd = 0;
		if (p == c->len)
			return found ? all_hex : 0;
		if (s[p] == ' ') {
			p++; /* an empty field */
			continue;
		}
		found = 1;
		if (c->len - p >= hexsz && (c->len - p == hexsz || s[p + hexsz] == ' ')) {
			if (scan_all_hex(s + p, hexsz)) /* the common case: hexsz hex digits */
				n = hexsz;
		}
		if (!n) {
			for (; p + n < c->len && s[p + n] != ' '; n++) {
				if (s[p + n] == '/')
					return 0;
				odd += !is_hex((unsigned char)s[p + n]);
			}
			if (n + 2 < hexsz || n > hexsz + 2 || odd > 2)
				return 0;
			all_hex = 1;
		}
		p += n;
		if (p == c->len)
			return all_hex;
		p++;
	}
}

/*
 * rev-list, every shape, and log --format of ID fields:
 *   <oid>                      commits (and --objects --no-object-names)
 *   <oid> <path>, <oid> SP     --objects (a commit's tree has an empty path)
 *   -<oid>                     --boundary, --objects-edge
 *   ?<oid>                     --missing=print
 *   <<oid>, ><oid>             --left-right
 *   =<oid>, +<oid>, -<oid>     --cherry-mark (--cherry, --cherry-pick --left-right)
 *   ~<oid>                     --filter=... --filter-print-omitted
 * (a mark, then the line as it would be without it: --parents after it too)
 *   <oid> <oid>...             --parents, --children, --format='%H %P' (a root
 *                              commit's ends in a space), '%H %T'
 * The commits come first, and their lines hold only IDs: each is checked. The first line
 * of the objects (a tag's, a tree's or a blob's) ends the commits: from there on, the
 * rest of a line is a path, whatever it looks like. Before that, a line's rest is IDs
 * when it has their shape (ids_follow), and a path otherwise, but for "<oid> ", which is
 * a tree or a root commit of '%H %P'. Once a line was an ID alone, the listing is not
 * log's (whose every line has a space): it is a tree, and the objects begin. After lines
 * of parents, it is a root commit. As the first line, it may be either (rev-list
 * --objects of a tree; log of a history whose newest commit is a root), and the next
 * line says which: its rest is IDs only if they are whole hex IDs (a tree's first entry,
 * named like an ID but for a byte that is no hex digit, is a path; a parent with such a
 * byte there goes unchecked).
 */
void hexoid_parse_rev_list(struct cursor *c)
{
	struct hexoid_listing *l = c->l;
	if (rev_list_mark(c->s[0]))
		c->pos = 1;
	if (!oid(c))
		return;
	if (c->pos == c->len) {
		if (l->state != REV_OBJECTS)
			l->state = REV_BARE;
		return;
	}
	if (!sep(c, ' ', "a space after the object ID"))
		return;
	if (l->state == REV_OBJECTS || c->s[0] == '?')
		return; /* a path: anything */
	if (c->pos == c->len) {
		l->state = l->state == REV_BARE		 ? REV_OBJECTS
			 : l->state == REV_COMMITS ? REV_COMMITS
						   : REV_ROOT;
		return;
	}
	int ids = ids_follow(c);
	if (!ids || (ids == 1 && l->state == REV_ROOT)) {
		l->state = REV_OBJECTS;
		return;
	}
	if (l->state != REV_BARE)
		l->state = REV_COMMITS;
	while (!c->failed && c->pos < c->len) {
		if (c->s[c->pos] == ' ') {
			c->pos++; /* an empty field */
			continue;
		}
		if (oid(c) && c->pos < c->len)
			sep(c, ' ', "a space after the object ID");
	}
}

static int all_digits(const struct cursor *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (c->s[c->pos + i] < '0' || c->s[c->pos + i] > '9')
			return 0;
	return n > 0;
}

/*
 * After the type: the sizes and %(deltabase) of the grammar, or %(rest)? Sizes when the
 * rest of the line is tokens one space apart, the first a size (1 to 20 digits), each
 * other a size or an ID (ids_follow's shape), leaving out a CR at the end; %(rest) (the
 * text after the name on cat-file's input, anything) otherwise.
 */
static int sizes_follow(const struct cursor *c)
{
	size_t hexsz = c->l->hexsz, p = c->pos, len = c->len;
	const char *s = c->s;
	if (len > p && s[len - 1] == '\r')
		len--;
	for (size_t k = 0;; k++) {
		size_t n = 0, digits = 0, odd = 0, slash = 0;
		if (k && len - p >= hexsz && (len - p == hexsz || s[p + hexsz] == ' ')) {
			if (scan_all_hex(s + p, hexsz)) { /* the common ID: hexsz hex digits */
				p += hexsz;
				if (p == len)
					return 1;
				p++;
				continue;
			}
		}
		for (; p + n < len && s[p + n] != ' '; n++) {
			digits += (unsigned char)(s[p + n] - '0') < 10;
			odd += !is_hex((unsigned char)s[p + n]);
			slash += s[p + n] == '/';
		}
		int size = n && n <= 20 && digits == n;
		int id = k && !slash && n + 2 >= hexsz && n <= hexsz + 2 && odd <= 2;
		if (!size && !id)
			return 0;
		p += n;
		if (p == len)
			return 1;
		p++;
	}
}

/*
 * cat-file --batch-check: <oid> <type> <size> by default; with --batch-check=FORMAT,
 * %(objectname) first, then %(objecttype) or %(objectsize), then any of the sizes and
 * %(deltabase) (an ID, the null ID when there is none), or after the type, %(rest): any
 * text, told from sizes by sizes_follow (so a %(rest) that looks like sizes is read as
 * sizes, and a broken size as %(rest)). Once a line has ended with its size (or an
 * empty %(rest) after it, a space), the listing
 * has no %(deltabase): what follows a size is %(rest), even a path named like an ID
 * (rev-list --objects fed to '... %(objectsize) %(rest)', its commits first).
 * "<name> missing" and "<name> ambiguous" are what was asked for, as given.
 */
void hexoid_parse_batch_check(struct cursor *c)
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
		n = token_len(c);
		if (!c->failed && all_digits(c, n) && n <= 20 &&
		    (c->pos + n == c->len || (c->s[c->pos + n] == ' ' && c->pos + n + 1 == c->len))) {
			/* The size ends the line, or an empty %(rest) after it: the listing has
			 * no %(deltabase). */
			c->pos = c->len;
			c->l->state = BATCH_PLAIN;
			return;
		}
		if (!c->failed && c->l->state == BATCH_PLAIN) {
			c->pos = c->len; /* the size, then %(rest): not IDs */
			return;
		}
		if (!c->failed && !sizes_follow(c)) {
			c->pos = c->len; /* %(rest) */
			return;
		}
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
void hexoid_parse_fsck(struct cursor *c)
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

/*
 * replace -l: <oid> (--format=short, the default), <oid> -> <oid> (medium: the replaced
 * object, then its replacement), <oid> (<type>) -> <oid> (<type>) (long).
 */
void hexoid_parse_replace(struct cursor *c)
{
	if (!oid(c) || c->pos == c->len)
		return;
	int typed = peek(c, " (");
	if (typed) {
		c->pos += 2;
		type_word(c);
		lit(c, ") ", "\") \" after the type");
	} else {
		sep(c, ' ', "a space after the object ID");
	}
	lit(c, "-> ", "\"-> \" before the replacement's object ID");
	oid(c);
	if (typed) {
		sep(c, ' ', "a space after the object ID");
		lit(c, "(", "'(' before the replacement's type");
		type_word(c);
		lit(c, ")", "')' after the type");
	}
	end(c);
}

/* git cherry: + <oid> (not upstream) or - <oid> (an equivalent is), and with -v the
 * subject after a space. */
void hexoid_parse_cherry(struct cursor *c)
{
	if (c->s[0] != '+' && c->s[0] != '-') {
		problem(c, 0, P_EXPECT, 0, "'+' or '-'");
		return;
	}
	c->pos = 1;
	sep(c, ' ', "a space after the mark");
	if (oid(c) && c->pos < c->len)
		sep(c, ' ', "a space after the object ID");
}

/* git submodule status: a mark (' ' checked out at the recorded commit, '+' at another,
 * '-' not initialised, 'U' conflicted), the ID, a space, the path and, for one checked
 * out, " (<describe>)". */
void hexoid_parse_submodule_status(struct cursor *c)
{
	if (c->s[0] != ' ' && c->s[0] != '+' && c->s[0] != '-' && c->s[0] != 'U') {
		problem(c, 0, P_EXPECT, 0, "' ', '+', '-' or 'U' before the object ID");
		return;
	}
	c->pos = 1;
	oid(c);
	sep(c, ' ', "a space after the object ID");
	rest_nonempty(c, "the submodule's path");
}

/* A marks file of fast-import (--export-marks) and fast-export: :<mark> <oid>. */
void hexoid_parse_marks(struct cursor *c)
{
	lit(c, ":", "':' before the mark");
	number(c, 10, 1, 20, "the mark's number");
	sep(c, ' ', "a space after the mark");
	oid(c);
	end(c);
}

/* IDs one space apart to the end of the line, a field of them empty (a root commit's %P:
 * a line that ends in a space); the first is an ID. */
static void ids_line(struct cursor *c)
{
	if (!oid(c))
		return;
	while (!c->failed && c->pos < c->len) {
		sep(c, ' ', "a space after the object ID");
		if (c->pos < c->len && c->s[c->pos] != ' ')
			oid(c);
	}
}

/*
 * rev-list --format=<format> (and --pretty=<format>): each commit is a line
 * "commit <oid>" (with --parents, its parents' IDs after it; with --left-right,
 * --boundary or --cherry-mark, the commit's mark before its ID: "commit ><oid>",
 * "commit -<oid>", "commit =<oid>"), then the lines its format
 * made, which may say anything: a line of IDs one space apart (%H, %T, %P: ids_follow's
 * shape) is read as IDs, and in any other, the words that look like IDs are checked as
 * --format=text checks them. A line of the format that begins "commit " and has only IDs
 * after it is read as a commit's line. The listing begins with one, and has no empty
 * line (git log's own formats have them; a format with %n%n is given by name).
 */
void hexoid_parse_rev_list_format(struct cursor *c)
{
	struct hexoid_listing *l = c->l;
	if (c->len == 0) {
		/* What the format made may hold empty lines (%B, %n, an empty subject); an
		 * empty line before the first commit line is none of git's. AUTO's trial
		 * takes none: git log's own output (commit <oid>, Author:, a blank line, the
		 * message) would pass, and its message's words would be read as IDs. */
		if (l->state == REVF_START || c->dry)
			problem(c, 0, P_EMPTY, 0, NULL);
		return;
	}
	if (peek(c, "commit ")) {
		c->pos = 7;
		if (c->len > 7 && revision_mark(c->s[7]))
			c->pos = 8; /* --left-right, --boundary, --cherry-mark: "commit ><oid>" */
		if (l->state == REVF_START || (l->hexsz && ids_follow(c))) {
			/* The first commit line must be whole for the rest to be read. */
			ids_line(c);
			if (!c->failed)
				l->state = REVF_COMMITS;
			return;
		}
	} else if (l->state == REVF_START) {
		problem(c, 0, P_EXPECT, 0, "\"commit <oid>\"");
		return;
	}
	c->pos = 0;
	if (l->hexsz && ids_follow(c) && c->s[0] != ' ') {
		/* A line of IDs (%H, %T, %P): each is checked, whatever is wrong with it. */
		ids_line(c);
		return;
	}
	hexoid_listing_text(c);
}

/* IDs, each field an ID or empty, fields a space or a tab apart. */
static void id_fields(struct cursor *c)
{
	while (!c->failed && c->pos < c->len) {
		if (c->s[c->pos] == ' ' || c->s[c->pos] == '\t') {
			c->pos++; /* an empty field, or between two */
			continue;
		}
		if (oid(c) && c->pos < c->len && c->s[c->pos] != '\t')
			sep(c, ' ', "a space or a tab after the object ID");
	}
}

/*
 * Lines of IDs only, a space or a tab apart, any field or line of them empty: log
 * --format of ID placeholders with %x09 between them ('%H%x09%P', a root commit's line
 * ending in the tab), for-each-ref --format='%(*objectname)' (an empty line for each
 * ref that is no annotated tag).
 */
void hexoid_parse_id_fields(struct cursor *c)
{
	id_fields(c);
}

/*
 * log --graph, with a --format of IDs ('%H', '%H %P'): each line begins with the graph
 * (its columns' '*', '|', '/', '\\', '_', '-', '.' and spaces), then the IDs, or
 * nothing on a line of the graph alone.
 */
void hexoid_parse_graph(struct cursor *c)
{
	size_t p = 0;
	while (p < c->len && memchr("*|/\\_-. ", c->s[p], 8))
		p++;
	if (!p) {
		problem(c, 0, P_EXPECT, 0, "the graph ('*', '|', '/', '\\', ...)");
		return;
	}
	c->pos = p;
	id_fields(c);
}

/*
 * merge-tree --write-tree with a conflict: the tree's ID; each conflicted entry as
 * ls-files --stage prints it (or, with --name-only, its path); a blank line; the
 * messages. A path or message with a word that looks like an ID (as text takes them)
 * is not one: so no ID of another output is read as a path and passed over.
 */
void hexoid_parse_merge_tree(struct cursor *c)
{
	struct hexoid_listing *l = c->l;
	switch (l->state) {
	case MERGE_START: /* the tree; until one is whole, nothing else is read */
		if (oid(c) && end(c))
			l->state = MERGE_ENTRIES;
		return;
	case MERGE_ENTRIES:
	case MERGE_NAMES:
		if (c->len == 0) {
			l->state = MERGE_MESSAGES;
			return;
		}
		if (l->state == MERGE_ENTRIES && c->len > 7 && c->s[6] == ' ' &&
		    (unsigned char)(c->s[0] - '0') < 8) {
			hexoid_parse_ls_files(c);
			return;
		}
		l->state = MERGE_NAMES;
		break;
	default:
		break;
	}
	size_t word = hexoid_listing_id_word(c);
	if (word)
		problem(c, word - 1, P_EXPECT, 0,
			l->state == MERGE_NAMES ? "a path, not an object ID" : "a message, not an object ID");
	c->pos = c->len;
}

/* The record is a count: 1 to 20 digits, nothing else. Its value (capped), or -1. */
static long long record_count(const struct cursor *c)
{
	if (!c->len || c->len > 20 || !all_digits(c, c->len))
		return -1;
	unsigned long long n = 0;
	for (size_t i = 0; i < c->len; i++)
		n = n > MERGEZ_MAX_PATHS ? n : n * 10 + (unsigned)(c->s[i] - '0');
	return n > MERGEZ_MAX_PATHS ? MERGEZ_MAX_PATHS : (long long)n;
}

/* A path or a message (the rest of the record): not one with a word that looks like an
 * ID, as merge-tree's own. */
static void merge_text(struct cursor *c, const char *what)
{
	size_t word = hexoid_listing_id_word(c);
	if (word)
		problem(c, word - 1, P_EXPECT, 0, what);
	c->pos = c->len;
}

/* Has the record an ID's shape, whole or broken: hexsz bytes give or take two, no '/',
 * at most two that are no hex digits (as ids_follow takes a token for an ID)? */
static int id_shaped(const struct cursor *c)
{
	size_t hexsz = c->l->hexsz, odd = 0;
	if (c->len + 2 < hexsz || c->len > hexsz + 2)
		return 0;
	for (size_t i = 0; i < c->len; i++) {
		if (c->s[i] == '/')
			return 0;
		odd += !is_hex((unsigned char)c->s[i]);
	}
	return odd <= 2;
}

/*
 * merge-tree --write-tree -z: records ended by NUL. The tree's ID; each conflicted entry
 * as ls-files --stage -z prints it (or its path alone, --name-only); with the messages
 * (a conflict, or --messages), an empty record, then each message as its count of paths,
 * the paths, its type ("Auto-merging", "CONFLICT (contents)") and its text (which may
 * hold newlines). With --stdin, each merge begins with its status ("1" clean, "0" not)
 * and ends with an empty record; the record after an empty one says which: "0" is a
 * status, "2" and more a count of paths, and "1" either, as the record after it tells
 * (a tree's ID, whole or broken, or else a path). No path or message with a word that
 * looks like an ID is taken, as in merge-tree's output without -z.
 */
void hexoid_parse_merge_tree_z(struct cursor *c)
{
	struct hexoid_listing *l = c->l;
	unsigned stdin_ = l->state & MERGEZ_STDIN, state = l->state & ~MERGEZ_STDIN;
	long long n;
	switch (state) {
	case MERGEZ_START:
		if (c->len == 1 && (c->s[0] == '0' || c->s[0] == '1')) {
			l->state = MERGEZ_TREE | MERGEZ_STDIN;
			return;
		}
		/* The tree; until one is whole, nothing else is read. */
		/* fall through */
	case MERGEZ_TREE:
		if (oid(c) && end(c))
			l->state = MERGEZ_ENTRIES | stdin_;
		return;
	case MERGEZ_ENTRIES:
	case MERGEZ_NAMES:
		if (c->len == 0) {
			/* The messages follow; with --stdin, or the merge ended. */
			l->state = (stdin_ ? MERGEZ_NEXT : MERGEZ_COUNT) | stdin_;
			return;
		}
		if (state == MERGEZ_ENTRIES && c->len > 7 && c->s[6] == ' ' &&
		    (unsigned char)(c->s[0] - '0') < 8) {
			hexoid_parse_ls_files(c);
			return;
		}
		l->state = MERGEZ_NAMES | stdin_;
		merge_text(c, "a path, not an object ID");
		return;
	case MERGEZ_NEXT: /* after an empty record (--stdin): a status, or a message's count */
	case MERGEZ_COUNT: /* after a message (or the empty record without --stdin) */
		if (c->len == 0) {
			/* --stdin: the end of a merge; without, no record git writes. */
			l->state = MERGEZ_NEXT | MERGEZ_STDIN;
			if (!stdin_)
				problem(c, 0, P_EMPTY, 0, NULL);
			return;
		}
		n = record_count(c);
		if (n < 0) {
			problem(c, 0, P_EXPECT, 0,
				state == MERGEZ_NEXT ? "the merge's status (0 or 1) or a count of paths"
						     : "a message's count of paths");
			return;
		}
		c->pos = c->len;
		if (state == MERGEZ_NEXT && n == 0)
			l->state = MERGEZ_TREE | stdin_;
		else if (state == MERGEZ_NEXT && n == 1)
			l->state = MERGEZ_ONE | stdin_;
		else if (n == 0)
			l->state = MERGEZ_TYPE | stdin_;
		else
			l->state = (MERGEZ_PATHS + (unsigned)n) | stdin_;
		return;
	case MERGEZ_ONE: /* after "1": the next merge's tree, or a message's one path */
		if (id_shaped(c)) {
			if (oid(c) && end(c))
				l->state = MERGEZ_ENTRIES | stdin_;
			return;
		}
		l->state = MERGEZ_TYPE | stdin_;
		merge_text(c, "a path, not an object ID");
		return;
	case MERGEZ_TYPE:
		l->state = MERGEZ_TEXT | stdin_;
		merge_text(c, "a message, not an object ID");
		return;
	case MERGEZ_TEXT:
		l->state = MERGEZ_COUNT | stdin_;
		merge_text(c, "a message, not an object ID");
		return;
	default: /* MERGEZ_PATHS + k: a message's path, k - 1 more after it */
		l->state = (state == MERGEZ_PATHS + 1 ? MERGEZ_TYPE : state - 1) | stdin_;
		merge_text(c, "a path, not an object ID");
		return;
	}
}

/* A mark (":<n>") or an object ID, where fast-export names a commit or a blob. */
static void mark_or_oid(struct cursor *c)
{
	if (take(c, ":"))
		number(c, 10, 1, 20, "the mark's number");
	else
		oid(c);
}

/*
 * A fast-export stream (--show-original-ids, --no-data, --reference-excluded-parents):
 * its commands, one a line ("blob", "commit <ref>", "tag <name>", "reset <ref>", "mark
 * :<n>", "original-oid <oid>", "from" and "merge" with a mark or an ID, "M <mode>
 * <mark or oid> <path>", "N <mark or oid> <mark or oid>", "D", "C", "R", the
 * identities, "feature", "option", "progress", "checkpoint", "done", blank lines), and
 * after "data <n>" its n bytes, which are not read (the checker skips them).
 */
void hexoid_parse_fast_export(struct cursor *c)
{
	if (c->len == 0 || (c->len == 4 && !memcmp(c->s, "blob", 4)) ||
	    (c->len == 9 && !memcmp(c->s, "deleteall", 9)) ||
	    (c->len == 10 && !memcmp(c->s, "checkpoint", 10)) || (c->len == 4 && !memcmp(c->s, "done", 4)))
		return;
	if (take(c, "original-oid ")) {
		oid(c);
		end(c);
		return;
	}
	if (take(c, "mark ")) {
		lit(c, ":", "':' before the mark");
		number(c, 10, 1, 20, "the mark's number");
		end(c);
		return;
	}
	if (take(c, "from ") || take(c, "merge ")) {
		mark_or_oid(c);
		end(c);
		return;
	}
	if (take(c, "data ")) {
		size_t start = c->pos;
		if (!number(c, 10, 1, 20, "the size of the data") || !end(c))
			return;
		unsigned long long n = 0;
		for (size_t i = start; i < c->pos; i++)
			n = n > (~0ull - 9) / 10 ? ~0ull : n * 10 + (unsigned)(c->s[i] - '0');
		c->l->data_left = n;
		return;
	}
	if (take(c, "M ")) {
		number(c, 8, 6, 6, "a 6-digit octal mode");
		sep(c, ' ', "a space after the mode");
		if (!take(c, "inline"))
			mark_or_oid(c);
		sep(c, ' ', "a space before the path");
		rest_nonempty(c, "a path");
		return;
	}
	if (take(c, "N ")) {
		if (!take(c, "inline"))
			mark_or_oid(c);
		sep(c, ' ', "a space before the commit");
		mark_or_oid(c);
		end(c);
		return;
	}
	static const char *const words[] = { "commit ", "tag ", "reset ", "author ", "committer ",
					     "tagger ", "encoding ", "feature ", "option ",
					     "progress ", "D ", "C ", "R " };
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (take(c, words[i])) {
			c->pos = c->len;
			return;
		}
	problem(c, 0, P_EXPECT, 0, "a command of a fast-export stream");
}
