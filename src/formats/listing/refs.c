/*
 * Listings of refs: for-each-ref, packed-refs, FETCH_HEAD, reflogs, ls-remote,
 * show-ref (and .promisor files, written as show-ref prints), and bundle files.
 * SPDX-License-Identifier: MIT
 */
#include "parsers.h"

/* for-each-ref (its default format): <oid> <type>TAB<ref>. */
void hexoid_parse_for_each_ref(struct cursor *c)
{
	oid(c);
	sep(c, ' ', "a space after the object ID");
	type_word(c);
	sep(c, '\t', "a tab after the type");
	refname(c);
}

/*
 * for-each-ref --format='%(objectname) %(*objectname) %(refname)': <oid> <peeled> <ref>,
 * the peeled ID (what an annotated tag points at) empty for every other ref, so that
 * such a line has two spaces in a row.
 */
void hexoid_parse_ref_peeled(struct cursor *c)
{
	oid(c);
	sep(c, ' ', "a space after the object ID");
	if (!c->failed && c->pos < c->len && c->s[c->pos] != ' ')
		oid(c);
	sep(c, ' ', "a space before the ref name");
	refname(c);
}

/* packed-refs: its header, <oid> <ref>, ^<oid> (the peeled tag before it). */
void hexoid_parse_packed_refs(struct cursor *c)
{
	if (peek(c, "# pack-refs with:"))
		return;
	if (c->s[0] == '^') {
		c->pos = 1;
		oid(c);
		end(c);
		return;
	}
	oid(c);
	sep(c, ' ', "a space after the object ID");
	refname(c);
}

/* FETCH_HEAD: <oid>TAB[not-for-merge]TAB<description>. */
void hexoid_parse_fetch_head(struct cursor *c)
{
	oid(c);
	sep(c, '\t', "a tab after the object ID");
	take(c, "not-for-merge");
	sep(c, '\t', "a tab before the description");
}

/* Does the rest of the line hold "> <time> <tz>", the end of an identity, then a tab or
 * the end? (AUTO's trial: three IDs in a line of rev-list --parents are not a reflog.) */
static int ident_follows(const struct cursor *c)
{
	const char *s = c->s;
	for (size_t i = c->pos; i + 2 < c->len; i++) {
		if (s[i] != '>' || s[i + 1] != ' ')
			continue;
		size_t p = i + 2, digits = 0;
		while (p < c->len && s[p] >= '0' && s[p] <= '9')
			p++, digits++;
		if (!digits || p + 6 > c->len || s[p] != ' ' || (s[p + 1] != '+' && s[p + 1] != '-'))
			continue;
		p += 6;
		if (p == c->len || s[p] == '\t')
			return 1;
	}
	return 0;
}

/* A reflog: <old> <new> <ident> <time> <tz>TAB<message>. */
void hexoid_parse_reflog(struct cursor *c)
{
	oid(c);
	sep(c, ' ', "a space after the old object ID");
	oid(c);
	sep(c, ' ', "a space after the new object ID");
	if (c->dry && !c->failed && !ident_follows(c))
		problem(c, c->pos, P_EXPECT, 0, "the identity");
	rest_nonempty(c, "the identity");
}

/* ls-remote: <oid>TAB<ref> (tags peeled as <ref>^{}); with --symref, ref: <target>TAB<ref>. */
void hexoid_parse_ls_remote(struct cursor *c)
{
	if (peek(c, "ref: ")) {
		rest_nonempty(c, "a ref name");
		return;
	}
	oid(c);
	sep(c, '\t', "a tab after the object ID");
	refname(c);
}

/* show-ref (with -d, <ref>^{} lines; with --head, HEAD), and .promisor files: <oid> <ref>. */
void hexoid_parse_show_ref(struct cursor *c)
{
	oid(c);
	sep(c, ' ', "a space after the object ID");
	refname(c);
}

/*
 * A bundle file (git bundle create): "# v2 git bundle" or "# v3 git bundle", then for
 * v3 its @capability lines (@object-format=sha1|sha256 names the hash), then -<oid>
 * lines of prerequisites (with the commit's subject), <oid> <ref> lines, and a blank
 * line; the pack follows, and the engine takes it as bytes, not text.
 */
void hexoid_parse_bundle(struct cursor *c)
{
	struct hexoid_listing *l = c->l;
	if (l->state == BUNDLE_START) {
		if (c->len == 15 && !memcmp(c->s, "# v2 git bundle", 15))
			l->state = BUNDLE_V2;
		else if (c->len == 15 && !memcmp(c->s, "# v3 git bundle", 15))
			l->state = BUNDLE_V3;
		else
			problem(c, 0, P_EXPECT, 0, "\"# v2 git bundle\" or \"# v3 git bundle\"");
		return;
	}
	if (c->len == 0) {
		l->body = 1; /* the pack follows (AUTO's trial stops there too) */
		return;
	}
	if (c->s[0] == '@') {
		if (l->state != BUNDLE_V3) {
			problem(c, 0, P_EXPECT, 0,
				l->state == BUNDLE_V2 ? "no capability in a v2 bundle"
						      : "a ref (capabilities come before the refs)");
			return;
		}
		enum hexoid_algo algo = 0;
		if (line_ends_with(c, "=sha1") && c->len == 19 && take(c, "@object-format"))
			algo = HEXOID_SHA1;
		else if (line_ends_with(c, "=sha256") && c->len == 21 && take(c, "@object-format"))
			algo = HEXOID_SHA256;
		else if (take(c, "@object-format"))
			problem(c, c->pos, P_EXPECT, 0, "=sha1 or =sha256");
		if (algo && !l->hexsz)
			hexoid_listing_set_algo(l, algo);
		else if (algo && algo != l->algo)
			problem(c, 15, P_EXPECT, 0,
				l->algo == HEXOID_SHA1 ? "sha1 (the hash of this listing)"
						       : "sha256 (the hash of this listing)");
		return;
	}
	l->state = BUNDLE_REFS;
	if (c->s[0] == '-') {
		c->pos = 1;
		oid(c);
		if (c->pos < c->len)
			sep(c, ' ', "a space after the object ID");
		return;
	}
	oid(c);
	sep(c, ' ', "a space after the object ID");
	refname(c);
}

/* A header's name: lowercase letters, digits and '-', then a space or the end, with a
 * letter that is no hex digit (as every header git writes has: so that a line of IDs,
 * another output's, is not taken for a header and its IDs passed over). */
static int header_name(const struct cursor *c)
{
	size_t i = 0, letters = 0;
	while (i < c->len && ((c->s[i] >= 'a' && c->s[i] <= 'z') || (c->s[i] >= '0' && c->s[i] <= '9') ||
			      c->s[i] == '-')) {
		letters += c->s[i] >= 'g';
		i++;
	}
	return letters && (i == c->len || c->s[i] == ' ');
}

/*
 * Commits and tags as git log --pretty=raw and rev-list --pretty=raw print them, and
 * cat-file -p of a commit or a tag:
 *   commit <oid>[ <parent>...][ (from <oid>)][ (<decorations>)]   log, rev-list
 *   commit <mark><oid>, commit <mark> <oid>   rev-list's and log's with --left-right,
 *                                             --boundary, --cherry-mark
 *   tree <oid>, parent <oid>, object <oid>, mergetag object <oid>  checked
 *   author ..., committer ..., type ..., tag ..., gpgsig ...      other headers
 *    <continuation>                                               (a space first)
 *   a blank line, then the message.
 * The first line says whose: log's and rev-list's begin with "commit <oid>", and each
 * commit's message is indented by four spaces, so that a blank line and "commit <oid>"
 * begin the next record (a line of the message that is not indented, as "Notes:" or a
 * diff's, is passed over, and the next commit is still read); cat-file's begins with
 * "tree <oid>" or "object <oid>", and after its blank line the rest of the listing is
 * the message, whatever it says (a line "commit <oid>" there is no header).
 */
void hexoid_parse_pretty_raw(struct cursor *c)
{
	struct hexoid_listing *l = c->l;
	unsigned state = l->state;
	if (c->len == 0) {
		if (state == PRAW_START)
			problem(c, 0, P_EMPTY, 0, NULL);
		else if (state == PRAW_OBJECT)
			l->state = PRAW_FREE;
		else if (state != PRAW_FREE)
			l->state = PRAW_BLANK;
		return;
	}
	if (state == PRAW_FREE) {
		c->pos = c->len;
		return;
	}
	/* In log's headers too: no header is named "commit", and its IDs are checked. */
	if ((state == PRAW_START || state == PRAW_BLANK || state == PRAW_HEADERS) &&
	    take(c, "commit ")) {
		l->state = PRAW_HEADERS;
		if (c->pos < c->len && revision_mark(c->s[c->pos])) {
			c->pos++; /* rev-list's "commit ><oid>", log's "commit > <oid>" */
			if (c->pos < c->len && c->s[c->pos] == ' ')
				c->pos++;
		}
		oid(c);
		while (!c->failed && c->pos < c->len && !peek(c, " (")) {
			sep(c, ' ', "a space after the object ID");
			oid(c);
		}
		if (take(c, " (from ")) {
			oid(c);
			lit(c, ")", "')' after the object ID");
		} else if (peek(c, " (") && line_ends_with(c, ")")) {
			c->pos = c->len; /* --decorate */
		}
		end(c);
		return;
	}
	if (state == PRAW_MESSAGE || state == PRAW_BLANK) {
		l->state = PRAW_MESSAGE; /* log's message, or what follows it */
		c->pos = c->len;
		return;
	}
	if (take(c, "tree ") || take(c, "parent ") || take(c, "object ") ||
	    take(c, "mergetag object ")) {
		if (state == PRAW_START)
			l->state = PRAW_OBJECT;
		oid(c);
		end(c);
		return;
	}
	if (state == PRAW_START) {
		problem(c, 0, P_EXPECT, 0, "\"commit <oid>\", \"tree <oid>\" or \"object <oid>\"");
		return;
	}
	if (c->s[0] == ' ' || header_name(c)) { /* a header, or a line more of one */
		c->pos = c->len;
		return;
	}
	problem(c, 0, P_EXPECT, 0, "a header (its name, a space and its value)");
}

/*
 * git blame --porcelain and --line-porcelain: a group's first line
 * "<oid> <line> <final line>[ <lines>]", then its headers ("author ...", "summary ...",
 * "boundary", "previous <oid> <path>", "filename <path>", ...) and the line of the file
 * after a tab. The IDs of the first lines and of "previous" are checked.
 */
void hexoid_parse_blame(struct cursor *c)
{
	struct hexoid_listing *l = c->l;
	if (c->len && c->s[0] == '\t' && l->state == BLAME_IN) {
		c->pos = c->len; /* the line of the file */
		return;
	}
	if (l->state == BLAME_IN && take(c, "previous ")) {
		oid(c);
		sep(c, ' ', "a space after the object ID");
		rest_nonempty(c, "a path");
		return;
	}
	/* A header: its name is a word with a letter that is no hex digit ("author",
	 * "summary"); a group's first line begins with an ID. */
	size_t word = token_len(c), letters = 0;
	for (size_t i = 0; i < word; i++)
		letters += !is_hex((unsigned char)c->s[i]) && c->s[i] >= 'g' && c->s[i] <= 'z';
	if (l->state == BLAME_IN && letters && word < 38 && header_name(c)) {
		c->pos = c->len;
		return;
	}
	l->state = BLAME_IN;
	oid(c);
	for (int i = 0; i < 3 && !c->failed; i++) {
		if (i == 2 && c->pos == c->len)
			break;
		sep(c, ' ', i ? "a space before the line number" : "a space after the object ID");
		number(c, 10, 1, 20, "a line number");
	}
	end(c);
}

/*
 * git worktree list --porcelain: per worktree, "worktree <path>", "HEAD <oid>" (none for
 * a bare one), "branch <ref>" or "detached", "bare", "locked[ <reason>]",
 * "prunable[ <reason>]", and a blank line after each.
 */
void hexoid_parse_worktrees(struct cursor *c)
{
	struct hexoid_listing *l = c->l;
	if (c->len == 0) {
		if (l->state == WORKTREES_START)
			problem(c, 0, P_EMPTY, 0, NULL);
		return;
	}
	if (take(c, "worktree ")) {
		l->state = WORKTREES_IN;
		rest_nonempty(c, "a path");
		return;
	}
	if (l->state == WORKTREES_START) {
		problem(c, 0, P_EXPECT, 0, "\"worktree <path>\"");
		return;
	}
	if (take(c, "HEAD ")) {
		oid(c);
		end(c);
		return;
	}
	if (take(c, "branch ")) {
		refname(c);
		return;
	}
	if (take(c, "detached") || take(c, "bare")) {
		end(c);
		return;
	}
	if (take(c, "locked") || take(c, "prunable")) {
		if (c->pos < c->len)
			sep(c, ' ', "a space before the reason");
		c->pos = c->len;
		return;
	}
	problem(c, 0, P_EXPECT, 0, "a line of a worktree (HEAD, branch, detached, bare, locked or prunable)");
}
