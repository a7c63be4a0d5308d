/*
 * Feeds (feed.h). The files of one place in one git directory go through the listing
 * checker as one stream. A file of lines in a listing format (packed-refs, reflogs, ...)
 * goes in whole: its lines keep their numbers through a table of where each file starts,
 * and a file without a last newline gets one, so files never run together. Any other file goes in
 * as its IDs, one a line ("tokens"), each remembered with the file, line and column it
 * came from; object names that may be abbreviated are checked here, not by the checker.
 * The lowercase-only checker tells the kinds of problem apart: it reports HEXOID_EUPPER
 * only for an ID that is valid hex otherwise.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/feed.h"
#include "util/str.h"

static int collect(void *ctx, const struct hexoid_problem *p)
{
	struct problems *ps = ctx;

	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 16;
		struct hexoid_problem *v = realloc(ps->v, cap * sizeof(*v));
		if (!v)
			return 1;
		ps->v = v;
		ps->cap = cap;
	}
	ps->v[ps->n++] = *p;
	return 0;
}

int hexoid_audit_feed_start(struct run *r, struct feed *fd, enum hexoid_audit_area area,
			    enum hexoid_format format, enum hexoid_algo algo)
{
	memset(fd, 0, sizeof(*fd));
	fd->r = r;
	fd->area = area;
	fd->algo = algo;
	fd->lower = hexoid_listing_new(format, algo, HEXOID_LOWER, collect, NULL, &fd->pl);
	return fd->lower ? 0 : -1;
}

static void feed_bytes(struct feed *fd, const char *data, size_t size)
{
	hexoid_listing_feed(fd->lower, data, size);
}

/* A new file of the feed: `path` is how findings name it. */
int hexoid_audit_feed_file(struct feed *fd, const char *path)
{
	char *copy;

	if (hexoid_grow(&fd->files, &fd->capfiles, fd->nfiles, sizeof(*fd->files)) ||
	    !(copy = strdup(path))) {
		fd->oom = 1;
		return -1;
	}
	fd->files[fd->nfiles].path = copy;
	fd->files[fd->nfiles++].first = fd->lines + 1;
	return 0;
}

/* A whole file of lines. */
void hexoid_audit_feed_lines(struct feed *fd, const char *path, const char *data, size_t size)
{
	size_t at = 0;

	if (hexoid_audit_feed_file(fd, path))
		return;
	while (at < size) {
		const char *nl = memchr(data + at, '\n', size - at);
		fd->lines++;
		at = nl ? (size_t)(nl - data) + 1 : size;
	}
	feed_bytes(fd, data, size);
	if (size && data[size - 1] != '\n')
		feed_bytes(fd, "\n", 1);
}

/* One ID of the current file, at line `line`, column `col` (from 1). */
void hexoid_audit_feed_token(struct feed *fd, const char *tok, size_t len, unsigned long long line,
			     unsigned long col)
{
	struct token *t;

	if (hexoid_grow(&fd->tokens, &fd->captokens, fd->ntokens, sizeof(*fd->tokens))) {
		fd->oom = 1;
		return;
	}
	t = &fd->tokens[fd->ntokens++];
	t->file = fd->nfiles - 1;
	t->line = line;
	t->column = col;
	feed_bytes(fd, tok, len);
	feed_bytes(fd, "\n", 1);
	fd->lines++;
}

struct found *hexoid_audit_feed_extra(struct feed *fd)
{
	if (hexoid_grow(&fd->extra, &fd->capextra, fd->nextra, sizeof(*fd->extra))) {
		fd->oom = 1;
		return NULL;
	}
	return &fd->extra[fd->nextra++];
}

/*
 * An object name as git's get_oid() takes it, which may be abbreviated (todo lists,
 * stopped-sha): hex of at least 4 and at most hexsz digits is an ID or a prefix of one,
 * and Git 3.0 reads hex only in lowercase; anything else is some other name (a ref, a
 * label) and not this audit's business.
 */
void hexoid_audit_feed_name(struct feed *fd, const char *tok, size_t len, unsigned long long line,
			    unsigned long col)
{
	size_t i, up = len;
	struct found *f;

	if (len < 4 || len > hexoid_hexsz(fd->algo))
		return;
	for (i = 0; i < len; i++) {
		if (!hexoid_is_hex(tok[i]))
			return;
		if (tok[i] >= 'A' && tok[i] <= 'F' && up == len)
			up = i;
	}
	if (up == len || !(f = hexoid_audit_feed_extra(fd)))
		return;
	f->file = fd->nfiles - 1;
	f->line = line;
	f->column = col + (unsigned long)up;
	f->code = HEXOID_CODE_UPPERCASE_ID;
	snprintf(f->message, sizeof(f->message),
		 "uppercase hex digit '%c' in object name: Git 2.x accepts it, Git 3.0 rejects it",
		 tok[up]);
}

/*
 * A name that is an ID: a replace ref's, refs/replace/<id> (git replaces the object of
 * that ID, and ignores with a warning a name that is not one, which Git 3.0 does for an
 * uppercase one too), or a folder of rerere's cache, rr-cache/<id> (`git rerere gc`
 * expires only folders whose names parse). `line` 0 is about a file's or folder's name.
 */
void hexoid_audit_id_name(struct feed *fd, enum id_name kind, const char *name, size_t len,
			  unsigned long long line, unsigned long col)
{
	static const char *const upper[] = {
		"the replaced object's ID: Git 2.x replaces the object, Git 3.0 ignores the "
		"replace ref",
		"a conflict's ID: Git 2.x's rerere gc expires the folder, Git 3.0's leaves it",
		"an annotated object's ID: Git 2.x's notes merge --commit takes the note, "
		"Git 3.0's skips it",
	};
	static const char *const bad[] = { "git ignores the replace ref",
					   "rerere gc leaves the folder alone",
					   "notes merge --commit skips it" };
	size_t hexsz = hexoid_hexsz(fd->algo);
	struct hexoid_error e;
	struct found *f;

	if (len == hexsz &&
	    hexoid_decode(NULL, name, 1, hexsz, fd->algo, HEXOID_LOWER, &e) == HEXOID_OK)
		return;
	if (!(f = hexoid_audit_feed_extra(fd)))
		return;
	f->file = fd->nfiles - 1;
	f->line = line;
	f->column = line ? col : 0;
	if (len == hexsz &&
	    hexoid_decode(NULL, name, 1, hexsz, fd->algo, HEXOID_MIXED, NULL) == HEXOID_OK) {
		f->code = HEXOID_CODE_UPPERCASE_ID;
		if (line)
			f->column = col + (unsigned long)e.column;
		snprintf(f->message, sizeof(f->message), "uppercase hex digit '%c' in %s",
			 name[e.column], upper[kind]);
	} else {
		f->code = HEXOID_CODE_BAD_ID;
		snprintf(f->message, sizeof(f->message), "not a %s object ID (%zu characters): %s",
			 fd->algo == HEXOID_SHA256 ? "sha256" : "sha1", len, bad[kind]);
	}
}

/* The length of the token at p (up to whitespace, or any of `stop`). */
/* The checker's hint for an uppercase digit names `hexoid verify --mixed`; a report
 * about a repository says what each version of Git does instead. */
static const char upper_hint[] = ": Git 3.0 accepts only lowercase (--mixed allows it)";

static void place_problem(struct feed *fd, const struct hexoid_problem *p, int upper)
{
	struct found *f = hexoid_audit_feed_extra(fd);
	size_t len = strlen(p->message), hl = sizeof(upper_hint) - 1;

	if (!f)
		return;
	if (fd->ntokens) {
		const struct token *t = &fd->tokens[p->line - 1];
		f->file = t->file;
		f->line = t->line;
		f->column = t->column + (unsigned long)p->column - 1;
	} else {
		size_t lo = 0, hi = fd->nfiles;
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			if (fd->files[mid].first <= p->line)
				lo = mid;
			else
				hi = mid;
		}
		f->file = lo;
		f->line = p->line - fd->files[lo].first + 1;
		f->column = (unsigned long)p->column;
	}
	if (upper) {
		if (len >= hl && !memcmp(p->message + len - hl, upper_hint, hl))
			len -= hl;
		snprintf(f->message, sizeof(f->message), "%.*s: Git 2.x accepts it, Git 3.0 rejects it",
			 (int)len, p->message);
		f->code = HEXOID_CODE_UPPERCASE_ID;
	} else {
		snprintf(f->message, sizeof(f->message), "%s", p->message);
		f->code = HEXOID_CODE_BAD_ID;
	}
}

static int cmp_found(const void *x, const void *y)
{
	const struct found *a = x, *b = y;

	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	return 0;
}

/* The end of a feed: its findings, in the order of their places. Returns the number of
 * lines the checker read. */
unsigned long long hexoid_audit_feed_finish(struct feed *fd)
{
	size_t i;
	unsigned long long lines = fd->lines;

	hexoid_listing_finish(fd->lower);
	for (i = 0; i < fd->pl.n; i++)
		place_problem(fd, &fd->pl.v[i], fd->pl.v[i].status == HEXOID_EUPPER);
	hexoid_listing_free(fd->lower);
	free(fd->pl.v);
	if (fd->nextra > 1)
		qsort(fd->extra, fd->nextra, sizeof(*fd->extra), cmp_found);
	for (i = 0; i < fd->nextra; i++) {
		struct hexoid_audit_finding f;
		memset(&f, 0, sizeof(f));
		f.code = fd->extra[i].code;
		f.area = fd->area;
		f.path = fd->files[fd->extra[i].file].path;
		f.line = fd->extra[i].line;
		f.column = fd->extra[i].column;
		f.offset = HEXOID_NO_OFFSET;
		f.message = fd->extra[i].message;
		hexoid_audit_report(fd->r, &f);
	}
	for (i = 0; i < fd->nfiles; i++)
		free(fd->files[i].path);
	free(fd->files);
	free(fd->tokens);
	free(fd->extra);
	if (fd->oom)
		snprintf(fd->r->err, sizeof(fd->r->err), "out of memory");
	return lines;
}

