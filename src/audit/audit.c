/*
 * The repository audit: find the repository, read every place of places.c in each of
 * its git directories (the main one, each linked worktree's, each submodule's, in that
 * order), then its loose objects and packs, and hand every finding to the caller.
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/audit.h"
#include "util/dir.h"
#include "util/file.h"
#include "util/str.h"

/* --- names and classes ------------------------------------------------------------- */

static const char *const area_names[HEXOID_AREA_COUNT] = {
	"refs", "pseudo-refs", "packed-refs", "reflogs", "shallow", "fetch-head", "grafts",
	"replace", "notes", "rebase", "sequencer", "rerere", "config-files", "dumb-http",
	"promisor", "commit-graph-chain", "midx-chain", "loose-objects", "pack-objects",
	"alternates",
};

static const struct {
	const char *name;
	enum hexoid_finding_class cls;
} codes[HEXOID_AUDIT_CODE_COUNT] = {
	[HEXOID_AUDIT_UPPERCASE] = { "uppercase-id", HEXOID_CLASS_GIT3 },
	[HEXOID_AUDIT_UPPERCASE_ACCEPTED] = { "uppercase-id-accepted", HEXOID_CLASS_WARN },
	[HEXOID_AUDIT_BAD_ID] = { "bad-id", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_ID_MISMATCH] = { "id-mismatch", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_CRC] = { "crc32-mismatch", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_CHECKSUM] = { "checksum-mismatch", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_LAYOUT] = { "pack-layout", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_OBJECT_HEADER] = { "object-header", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_ZLIB] = { "zlib", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_DELTA] = { "delta", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_BASE] = { "delta-base", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_UNREADABLE] = { "unreadable", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_NOT_A_FILE] = { "not-a-file", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_BROKEN_LINK] = { "broken-link", HEXOID_CLASS_ERROR },
};

const char *hexoid_audit_area_name(enum hexoid_audit_area area)
{
	return (unsigned)area < HEXOID_AREA_COUNT ? area_names[area] : NULL;
}

const char *hexoid_audit_code_name(enum hexoid_audit_code code)
{
	return code > 0 && code < HEXOID_AUDIT_CODE_COUNT ? codes[code].name : NULL;
}

enum hexoid_finding_class hexoid_audit_code_class(enum hexoid_audit_code code)
{
	return code > 0 && code < HEXOID_AUDIT_CODE_COUNT ? codes[code].cls : 0;
}

/* --- the audit and its run --------------------------------------------------------- */

struct hexoid_audit {
	char *top;      /* the work tree's top folder, or NULL for a bare repository */
	char *gitdir;   /* the git directory found (a linked worktree's own, perhaps) */
	char *common;   /* the repository's common git directory: what is audited */
	enum hexoid_algo algo;
	enum hexoid_ref_storage refs;
	int objects_only;  /* hexoid_audit_open_objects(): common is an objects folder */
	struct hexoid_audit_count count[HEXOID_AREA_COUNT];
};

/* A git directory whose places are read: `dir` on disk, findings name its files
 * `prefix` + their path in it ("", "worktrees/wt/", "modules/sub/"). */
struct where {
	char *dir;
	char *prefix;
	int worktree;     /* a linked worktree's own folder: only SCOPE_WORKTREE places */
};

/* One repository: the audited one, or a submodule's under modules/. */
struct repo {
	char *dir;        /* its common git directory */
	char *top;        /* where git runs its commands: the work tree's top, or dir */
	char *prefix;
	enum hexoid_algo algo;
	int reftable;
	int objects_only; /* dir is an objects folder, alone */
	struct where *wheres;  /* [0] is the repository's own; then its linked worktrees */
	size_t nwheres;
};

struct run {
	struct hexoid_audit *audit;
	struct hexoid_audit_options o;
	int stopped;
	char err[256];
	/* The git directories met so far, to walk each once (a submodule's modules/ entry
	 * may lead back into the repository). */
	struct { dev_t dev; ino_t ino; } *seen;
	size_t nseen, capseen;
};

static int report(struct run *r, struct hexoid_audit_finding *f)
{
	struct hexoid_audit_count *c = &r->audit->count[f->area];

	if (r->stopped)
		return 1;
	f->cls = hexoid_audit_code_class(f->code);
	if (f->cls == HEXOID_CLASS_GIT3)
		c->git3++;
	else if (f->cls == HEXOID_CLASS_WARN)
		c->warn++;
	else
		c->errors++;
	if (r->o.on_finding && r->o.on_finding(r->o.ctx, f))
		r->stopped = 1;
	return r->stopped;
}

/* strerror() may share one buffer between threads; this one is the caller's. */
struct errtext {
	char s[128];
};
static const char *errtext(int e, struct errtext *t)
{
	if (strerror_r(e, t->s, sizeof(t->s)) != 0)
		snprintf(t->s, sizeof(t->s), "error %d", e);
	return t->s;
}

/* A finding about a file as a whole (no line): shown as PREFIX + rel. */
static void file_finding(struct run *r, enum hexoid_audit_area area, const struct where *w,
			 const char *rel, enum hexoid_audit_code code, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void file_finding(struct run *r, enum hexoid_audit_area area, const struct where *w,
			 const char *rel, enum hexoid_audit_code code, const char *fmt, ...)
{
	struct hexoid_audit_finding f;
	char msg[512];
	char *path = hexoid_concat(w->prefix, rel);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	memset(&f, 0, sizeof(f));
	f.code = code;
	f.area = area;
	f.path = path ? path : rel;
	f.offset = HEXOID_NO_OFFSET;
	f.message = msg;
	report(r, &f);
	free(path);
}

/* --- reading files ----------------------------------------------------------------- */

/*
 * Read a whole small file `name` in the folder dirfd (util/file.h). With `checked`, the
 * caller knows it is a regular file (readdir said so); otherwise it is stat'ed first, so
 * a FIFO, socket or device is never opened. Returns 0 with the data, 1 if it does not
 * exist, -1 after reporting why it cannot be read (when `say`).
 */
static int slurp_at(struct run *r, enum hexoid_audit_area area, const struct where *w, int dirfd,
		    const char *name, const char *rel, int checked, char **data, size_t *size,
		    int say)
{
	struct hexoid_file f;
	struct errtext et;
	enum hexoid_file_status st = hexoid_file_read_at(dirfd, name, checked ? HEXOID_FILE_REGULAR : 0,
							  0, &f);

	*data = f.data;
	*size = f.size;
	if (st == HEXOID_FILE_OK)
		return 0;
	if (st == HEXOID_FILE_MISSING)
		return 1;
	if (!say)
		return -1;
	if (st == HEXOID_FILE_BROKEN_LINK)
		file_finding(r, area, w, rel, HEXOID_AUDIT_BROKEN_LINK, "symbolic link to nothing");
	else if (st == HEXOID_FILE_NOT_REGULAR)
		file_finding(r, area, w, rel, HEXOID_AUDIT_NOT_A_FILE, "not a regular file (%s): not read",
			     S_ISDIR(f.mode)    ? "a folder"
			     : S_ISFIFO(f.mode) ? "a FIFO"
			     : S_ISSOCK(f.mode) ? "a socket"
						: "a device");
	else
		file_finding(r, area, w, rel, HEXOID_AUDIT_UNREADABLE, "cannot read: %s",
			     f.error == ELOOP ? "symbolic link loop" : errtext(f.error, &et));
	return -1;
}

/* --- feeds: files through the listing checker --------------------------------------- */

/*
 * The files of one place in one git directory go through the listing checker as one
 * stream. A file of lines in a listing format (packed-refs, reflogs, ...) goes in whole:
 * its lines keep their numbers through a table of where each file starts, and a file
 * without a last newline gets one, so files never run together. Any other file goes in
 * as its IDs, one a line ("tokens"), each remembered with the file, line and column it
 * came from; object names that may be abbreviated are checked here, not by the checker.
 * The lowercase-only checker tells the kinds of problem apart: it reports HEXOID_EUPPER
 * only for an ID that is valid hex otherwise.
 */

struct feed_file {
	char *path;               /* as findings show it */
	unsigned long long first; /* its first line's number in the feed */
};
struct token {
	size_t file;
	unsigned long long line;  /* in the file */
	unsigned long column;     /* of the token's first byte, from 1 */
};
/* A problem where it is in its file, to sort them all by place before reporting. */
struct found {
	size_t file;
	unsigned long long line;
	unsigned long column;
	enum hexoid_audit_code code;
	char message[sizeof(((struct hexoid_problem *)0)->message) + 64];
};
struct problems {
	struct hexoid_problem *v;
	size_t n, cap;
};
struct feed {
	struct run *r;
	enum hexoid_audit_area area;
	enum hexoid_algo algo;
	struct hexoid_listing *lower;
	struct problems pl;
	struct feed_file *files;
	size_t nfiles, capfiles;
	struct token *tokens;     /* line n of the stream is tokens[n - 1], in token mode */
	size_t ntokens, captokens;
	struct found *extra;      /* problems found here (abbreviated names) */
	size_t nextra, capextra;
	unsigned long long lines;
	int oom;
};

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

static int feed_start(struct run *r, struct feed *fd, enum hexoid_audit_area area,
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
static int feed_file(struct feed *fd, const char *path)
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
static void feed_lines(struct feed *fd, const char *path, const char *data, size_t size)
{
	size_t at = 0;

	if (feed_file(fd, path))
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
static void feed_token(struct feed *fd, const char *tok, size_t len, unsigned long long line,
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

static struct found *extra(struct feed *fd)
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
static void feed_name(struct feed *fd, const char *tok, size_t len, unsigned long long line,
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
	if (up == len || !(f = extra(fd)))
		return;
	f->file = fd->nfiles - 1;
	f->line = line;
	f->column = col + (unsigned long)up;
	f->code = HEXOID_AUDIT_UPPERCASE;
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
enum id_name { NAME_REPLACE, NAME_RERERE, NAME_NOTES_MERGE };

static void id_name(struct feed *fd, enum id_name kind, const char *name, size_t len,
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
	if (!(f = extra(fd)))
		return;
	f->file = fd->nfiles - 1;
	f->line = line;
	f->column = line ? col : 0;
	if (len == hexsz &&
	    hexoid_decode(NULL, name, 1, hexsz, fd->algo, HEXOID_MIXED, NULL) == HEXOID_OK) {
		f->code = HEXOID_AUDIT_UPPERCASE;
		if (line)
			f->column = col + (unsigned long)e.column;
		snprintf(f->message, sizeof(f->message), "uppercase hex digit '%c' in %s",
			 name[e.column], upper[kind]);
	} else {
		f->code = HEXOID_AUDIT_BAD_ID;
		snprintf(f->message, sizeof(f->message), "not a %s object ID (%zu characters): %s",
			 fd->algo == HEXOID_SHA256 ? "sha256" : "sha1", len, bad[kind]);
	}
}

/* The length of the token at p (up to whitespace, or any of `stop`). */
static size_t token_len(const char *p, size_t n, const char *stop)
{
	size_t i = 0;

	while (i < n && !hexoid_is_space(p[i]) && !(stop && p[i] && strchr(stop, p[i])))
		i++;
	return i;
}

/* Skip blanks (not newlines); returns the new offset. */
static size_t skip_blanks(const char *p, size_t i, size_t n)
{
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	return i;
}

/*
 * The todo list of the sequencer and of `rebase -i`: "<command> [-C|-c] <name> ...";
 * the commands that take a commit name second. A line is a comment from '#'.
 */
static int todo_takes_name(const char *cmd, size_t n)
{
	static const char *const takes[] = { "pick", "p", "reword", "r", "edit", "e", "squash",
					     "s", "fixup", "f", "drop", "d", "merge", "m",
					     "revert" };
	size_t i;

	for (i = 0; i < sizeof(takes) / sizeof(*takes); i++)
		if (strlen(takes[i]) == n && !memcmp(takes[i], cmd, n))
			return 1;
	return 0;
}

/* The IDs of one file of `format` into the feed. Returns 1 when the file holds none
 * (a symbolic ref, a branch name). */
static int feed_tokens(struct feed *fd, enum place_format format, const char *data, size_t size)
{
	struct hexoid_lines it = { data, size, 0, 0, '\n' };
	size_t hexsz = hexoid_hexsz(fd->algo), len, n;
	const char *p;

	switch (format) {
	case FMT_REF:
	case FMT_MAYBE_ID:
		/* git reads a ref whole and trims the whitespace at its end; only the first
		 * line counts: what follows the newline is whitespace-led. */
		if (size >= 4 && !memcmp(data, "ref:", 4))
			return 1;
		if (format == FMT_MAYBE_ID) {
			n = size;
			while (n && hexoid_is_space(data[n - 1]))
				n--;
			if (n != hexsz || hexoid_decode(NULL, data, 1, hexsz, fd->algo, HEXOID_MIXED,
							NULL) != HEXOID_OK)
				return 1;
		}
		feed_token(fd, data, token_len(data, size, NULL), 1, 1);
		return 0;
	case FMT_ID_LINES:
		while (hexoid_next_line(&it, &p, &len))
			feed_token(fd, p, token_len(p, len, NULL), it.line, 1);
		return 0;
	case FMT_ALL_IDS:
		/* info/grafts: "<commit>[ <parent>]...", the line's end trimmed; one
		 * whitespace byte between IDs; '#' starts a comment line. */
		while (hexoid_next_line(&it, &p, &len)) {
			size_t i = 0;
			while (len && hexoid_is_space(p[len - 1]))
				len--;
			if (!len || p[0] == '#')
				continue;
			for (;;) {
				n = token_len(p + i, len - i, NULL);
				if (n) {
					feed_token(fd, p + i, n, it.line, (unsigned long)i + 1);
				} else {
					struct found *f = extra(fd);
					if (f) {
						f->file = fd->nfiles - 1;
						f->line = it.line;
						f->column = (unsigned long)i + 1;
						f->code = HEXOID_AUDIT_BAD_ID;
						snprintf(f->message, sizeof(f->message),
							 "expected an object ID, found whitespace (git "
							 "takes one space or tab between IDs)");
					}
					break;
				}
				i += n;
				if (i >= len)
					break;
				i++; /* the one separator */
			}
		}
		return 0;
	case FMT_OID_LIST:
		/* fsck.skipList, blame.ignoreRevsFile: an ID a line, blanks around it and
		 * '#' comments allowed. */
		while (hexoid_next_line(&it, &p, &len)) {
			const char *hash = memchr(p, '#', len);
			size_t i, end = hash ? (size_t)(hash - p) : len;
			while (end && hexoid_is_space(p[end - 1]))
				end--;
			i = 0;
			while (i < end && hexoid_is_space(p[i]))
				i++;
			if (i < end)
				feed_token(fd, p + i, end - i, it.line, (unsigned long)i + 1);
		}
		return 0;
	case FMT_PAIRS:
		/* rewritten lists: "<old> <new>[ ...]". */
		while (hexoid_next_line(&it, &p, &len)) {
			size_t i = token_len(p, len, NULL), j;
			feed_token(fd, p, i, it.line, 1);
			j = skip_blanks(p, i, len);
			if (j > i)
				feed_token(fd, p + j, token_len(p + j, len - j, NULL), it.line,
					   (unsigned long)j + 1);
			else if (len)
				feed_token(fd, "", 0, it.line, (unsigned long)i + 1);
		}
		return 0;
	case FMT_RECORDS:
		/* MERGE_RR: "<hex>[.<variant>]\t<path>", each record ending in NUL. */
		it.sep = '\0';
		while (hexoid_next_line(&it, &p, &len))
			if (len)
				feed_token(fd, p, token_len(p, len, "."), it.line, 1);
		return 0;
	case FMT_MAIL:
		/* "From <id> Mon Sep 17 00:00:00 2001": the commit a mail came from. */
		if (hexoid_next_line(&it, &p, &len) && len > 5 && !memcmp(p, "From ", 5))
			feed_token(fd, p + 5, token_len(p + 5, len - 5, NULL), 1, 6);
		return 0;
	case FMT_UPDATE_REFS:
		/* Lines 2 and 3 of each group of three are IDs. */
		while (hexoid_next_line(&it, &p, &len))
			if (it.line % 3 != 1)
				feed_token(fd, p, token_len(p, len, NULL), it.line, 1);
		return 0;
	case FMT_TODO:
		while (hexoid_next_line(&it, &p, &len)) {
			size_t i = skip_blanks(p, 0, len), c;
			if (i == len || p[i] == '#')
				continue;
			c = token_len(p + i, len - i, NULL);
			if (!todo_takes_name(p + i, c))
				continue;
			i = skip_blanks(p, i + c, len);
			if (i + 1 < len && p[i] == '-' && (p[i + 1] == 'C' || p[i + 1] == 'c'))
				i = skip_blanks(p, i + token_len(p + i, len - i, NULL), len);
			n = token_len(p + i, len - i, NULL);
			feed_name(fd, p + i, n, it.line, (unsigned long)i + 1);
		}
		return 0;
	case FMT_PACKS:
		while (hexoid_next_line(&it, &p, &len))
			if (len > 7 && !memcmp(p, "P pack-", 7))
				feed_token(fd, p + 7, token_len(p + 7, len - 7, "."), it.line, 8);
		return 0;
	case FMT_REPLACE_PACKED:
		/* "<oid> refs/replace/<name>": the name, where packed-refs keeps it. */
		while (hexoid_next_line(&it, &p, &len)) {
			size_t i = token_len(p, len, NULL);
			if (!i || p[0] == '#' || p[0] == '^')
				continue;
			i = skip_blanks(p, i, len);
			if (len - i > 13 && !memcmp(p + i, "refs/replace/", 13))
				id_name(fd, NAME_REPLACE, p + i + 13, len - i - 13, it.line,
					(unsigned long)i + 14);
		}
		return 0;
	case FMT_ID_NAME:
	case FMT_LISTING:
		break;
	}
	return 1;
}

/* The checker's hint for an uppercase digit names `hexoid verify --mixed`; a report
 * about a repository says what each version of Git does instead. */
static const char upper_hint[] = ": Git 3.0 accepts only lowercase (--mixed allows it)";

static void place_problem(struct feed *fd, const struct hexoid_problem *p, int upper)
{
	struct found *f = extra(fd);
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
		f->code = HEXOID_AUDIT_UPPERCASE;
	} else {
		snprintf(f->message, sizeof(f->message), "%s", p->message);
		f->code = HEXOID_AUDIT_BAD_ID;
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
static unsigned long long feed_finish(struct feed *fd)
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
		report(fd->r, &f);
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

/* One file of a place into its feed. `rel` is its path in the git directory. */
static void place_file(struct run *r, const struct place *pl, const struct where *w,
		       struct feed *fd, int dirfd, const char *name, const char *rel, int checked)
{
	char *data, *path;
	size_t size;

	if (slurp_at(r, pl->area, w, dirfd, name, rel, checked, &data, &size,
		     !(pl->flags & PLACE_READ_AGAIN)))
		return;
	path = hexoid_concat(w->prefix, rel);
	if (!path || feed_file(fd, path)) {
		fd->oom = 1;
	} else if (pl->format == FMT_LISTING) {
		fd->nfiles--;
		free(fd->files[fd->nfiles].path);
		feed_lines(fd, path, data, size);
	} else {
		/* Files of one ID count as files, others by lines, at the end. */
		if (size || !(pl->flags & PLACE_MAY_BE_EMPTY))
			feed_tokens(fd, (enum place_format)pl->format, data, size);
		r->audit->count[pl->area].scanned++;
	}
	free(path);
	free(data);
}

/* --- walking folders --------------------------------------------------------------- */

/*
 * Every file under the folder `rel` of the git directory, in the order of their whole
 * paths as strings (as git sorts refs: refs/heads/a-b before refs/heads/a/b), so folders
 * sort as if their names ended in '/'. Lock files are git's work in progress: left out.
 * Files are opened relative to their folder, and readdir's d_type saves a stat where it
 * can: a repository may hold many thousands of loose refs. Symbolic links to folders are
 * not followed (a loop would never end); a link git would take as a symbolic ref
 * ("refs/..."), holds no ID.
 */
static void walk(struct run *r, const struct place *pl, const struct where *w,
		 const struct repo *rp, struct feed *fd, const char *rel)
{
	char *full = hexoid_join(w->dir, rel);
	DIR *d = full ? opendir(full) : NULL;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i, rlen = strlen(rel);
	struct errtext et;

	if (!d) {
		if (full && errno != ENOENT && errno != ENOTDIR)
			file_finding(r, pl->area, w, rel, HEXOID_AUDIT_UNREADABLE,
				     "cannot read the folder: %s", errtext(errno, &et));
		free(full);
		return;
	}
	while ((de = readdir(d))) {
		char *path;
		int is_dir = de->d_type == DT_DIR;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_UNKNOWN) {
			struct stat st;
			if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
				is_dir = S_ISDIR(st.st_mode);
		}
		if (!is_dir && hexoid_ends_with(de->d_name, ".lock"))
			continue;
		if (n == cap) {
			char **v = realloc(names, (cap = cap ? 2 * cap : 32) * sizeof(*v));
			if (!v) {
				fd->oom = 1;
				break;
			}
			names = v;
		}
		/* "rel/name/" for a folder: it sorts as its files will; a type tag after
		 * the terminating NUL keeps what readdir said. */
		path = malloc(rlen + strlen(de->d_name) + 4);
		if (!path) {
			fd->oom = 1;
			break;
		}
		sprintf(path, "%s/%s%s", rel, de->d_name, is_dir ? "/" : "");
		path[strlen(path) + 1] = de->d_type == DT_REG ? 'r' : '?';
		names[n++] = path;
	}
	if (n)
		qsort(names, n, sizeof(*names), hexoid_cmp_str);
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		char type = names[i][len + 1];
		if (!r->stopped) {
			if (names[i][len - 1] == '/') {
				names[i][len - 1] = 0;
				walk(r, pl, w, rp, fd, names[i]);
			} else {
				const char *name = names[i] + rlen + 1;
				struct stat st;
				char target[6];
				ssize_t tl;
				if (pl->format == FMT_ID_NAME) {
					char *shown = hexoid_concat(w->prefix, names[i]);
					if (shown && !feed_file(fd, shown))
						id_name(fd, pl->area == HEXOID_AREA_NOTES ? NAME_NOTES_MERGE
											  : NAME_REPLACE,
							names[i] + strlen(pl->path) + 1,
							len - strlen(pl->path) - 1, 0, 0);
					free(shown);
					r->audit->count[pl->area].scanned++;
				} else if (type != 'r' && fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
				    S_ISLNK(st.st_mode) &&
				    (tl = readlinkat(dirfd(d), name, target, sizeof(target))) >= 5 &&
				    !memcmp(target, "refs/", 5) && pl->format == FMT_REF) {
					r->audit->count[pl->area].scanned++;
				} else if (type != 'r' && fstatat(dirfd(d), name, &st, 0) == 0 &&
					   S_ISDIR(st.st_mode)) {
					/* a link to a folder: not followed */
				} else {
					place_file(r, pl, w, fd, dirfd(d), name, names[i], type == 'r');
				}
			}
		}
		free(names[i]);
	}
	closedir(d);
	free(names);
	free(full);
}

static void audit_notes(struct run *r, const struct repo *rp);

/* --- files named by the config ------------------------------------------------------ */

static void trim(char **s)
{
	char *p = *s, *e;

	while (*p == ' ' || *p == '\t')
		p++;
	e = p + strlen(p);
	while (e > p && hexoid_is_space(e[-1]))
		*--e = 0;
	*s = p;
}

/* As git: no deeper than this many includes. */
#define MAX_INCLUDE_DEPTH 10

/* One variable of a config file, in the file's order: `key` is "section.name" or
 * "section.subsection.name" as written, `value` unquoted, without comments and blanks
 * around it, perhaps empty. */
typedef void config_fn(void *ctx, const char *key, const char *value);

/*
 * The one config reader: each variable of the config file `path` to fn, and with
 * `includes`, the files its include.path values name read where they are named (a
 * relative path from the including file's folder, ~/ from $HOME). A small reader:
 * sections, quoted values, comments; includeIf is not followed. Only a regular file is
 * opened: a FIFO would block.
 */
static void config_read(const char *path, int includes, config_fn *fn, void *ctx, int depth)
{
	char line[4096], section[512] = "";
	struct stat st;
	FILE *f;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || !(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *eq, *val, *o, full[1024];
		int quoted = 0;
		trim(&p);
		if (*p == '[') {
			char *end = strchr(p, ']'), *q;
			if (!end)
				continue;
			*end = 0;
			p++;
			q = strchr(p, '"');
			if (q) {
				/* [section "subsection"] */
				char *name = p, *sub = q + 1, *qe = strrchr(sub, '"');
				if (qe)
					*qe = 0;
				*q = 0;
				trim(&name);
				snprintf(section, sizeof(section), "%s.%s", name, sub);
			} else {
				snprintf(section, sizeof(section), "%s", p);
			}
			continue;
		}
		if (!*p || *p == '#' || *p == ';' || !(eq = strchr(p, '=')))
			continue;
		*eq = 0;
		val = eq + 1;
		trim(&p);
		snprintf(full, sizeof(full), "%s.%s", section, p);
		trim(&val);
		/* Quotes and backslashes, and a comment outside quotes, as git reads them. */
		for (o = val, p = val; *p; p++) {
			if (*p == '"')
				quoted = !quoted;
			else if (!quoted && (*p == '#' || *p == ';'))
				break;
			else if (*p == '\\' && p[1])
				*o++ = *++p;
			else
				*o++ = *p;
		}
		*o = 0;
		trim(&val);
		if (includes && !strcasecmp(full, "include.path")) {
			const char *home = getenv("HOME");
			char *inc = NULL, *slash;
			if (!*val || depth >= MAX_INCLUDE_DEPTH)
				continue;
			if (!strncmp(val, "~/", 2) && home) {
				inc = hexoid_join(home, val + 2);
			} else if (val[0] == '/') {
				inc = strdup(val);
			} else if ((slash = strrchr(path, '/'))) {
				char *folder = strndup(path, (size_t)(slash - path));
				inc = folder ? hexoid_join(folder, val) : NULL;
				free(folder);
			} else {
				inc = strdup(val);
			}
			if (inc)
				config_read(inc, includes, fn, ctx, depth + 1);
			free(inc);
			continue;
		}
		fn(ctx, full, val);
	}
	fclose(f);
}

struct values {
	const char *key;
	char **v;
	size_t n, cap;
};

static void add_value(void *ctx, const char *key, const char *value)
{
	struct values *out = ctx;

	if (!*value || strcasecmp(key, out->key) ||
	    hexoid_grow(&out->v, &out->cap, out->n, sizeof(*out->v)))
		return;
	if ((out->v[out->n] = strdup(value)))
		out->n++;
}

/* Every value of `key` ("section.name" or "section.subsection.name", as git config
 * names them) that is not empty, in the config file of the git directory `dir` and the
 * files it includes, in order. */
static char **config_values(const char *dir, const char *key, size_t *count)
{
	struct values out = { key, NULL, 0, 0 };
	char *path = hexoid_join(dir, "config");

	if (path)
		config_read(path, 1, add_value, &out, 0);
	free(path);
	*count = out.n;
	return out.v;
}

/* extensions.objectFormat and extensions.refStorage from a config file. */
struct repo_config {
	int algo;       /* HEXOID_SHA1, HEXOID_SHA256, -1 unknown */
	int reftable;   /* 1 reftable, 0 files, -1 unknown */
	char unknown[64];
};

static void format_value(void *ctx, const char *key, const char *value)
{
	struct repo_config *c = ctx;

	if (!strcasecmp(key, "extensions.objectformat")) {
		if (!strcasecmp(value, "sha256"))
			c->algo = HEXOID_SHA256;
		else if (!strcasecmp(value, "sha1"))
			c->algo = HEXOID_SHA1;
		else {
			c->algo = -1;
			snprintf(c->unknown, sizeof(c->unknown), "extensions.objectFormat %s", value);
		}
	} else if (!strcasecmp(key, "extensions.refstorage")) {
		if (!strcasecmp(value, "reftable"))
			c->reftable = 1;
		else if (!strcasecmp(value, "files"))
			c->reftable = 0;
		else {
			c->reftable = -1;
			snprintf(c->unknown, sizeof(c->unknown), "extensions.refStorage %s", value);
		}
	}
}

/* The repository format of the git directory `dir`, from its own config file alone, as
 * git reads it (check_repository_format: no includes); the last value of each wins. */
static void read_config(const char *dir, struct repo_config *c)
{
	char *path = hexoid_join(dir, "config");

	c->algo = HEXOID_SHA1;
	c->reftable = 0;
	c->unknown[0] = 0;
	if (path)
		config_read(path, 0, format_value, c, 0);
	free(path);
}

/* Each file the config names for `pl` (fsck.skipList, ...), as git opens it: a relative
 * path from where git runs its commands (the work tree's top), ~/ from $HOME. */
static void config_files(struct run *r, const struct place *pl, const struct repo *rp,
			 struct feed *fd)
{
	size_t n, i;
	char **v = config_values(rp->dir, pl->path, &n);
	struct where shown = { rp->dir, (char *)"", 0 };

	for (i = 0; i < n; i++) {
		const char *home = getenv("HOME");
		char *full;
		if (!strncmp(v[i], "~/", 2) && home)
			full = hexoid_join(home, v[i] + 2);
		else
			full = hexoid_resolve(rp->top, v[i]);
		if (full && !r->stopped)
			place_file(r, pl, &shown, fd, AT_FDCWD, full, v[i], 0);
		free(full);
		free(v[i]);
	}
	free(v);
}

static int is_promisor(const char *name, void *ctx)
{
	(void)ctx;
	return hexoid_ends_with(name, ".promisor");
}

/*
 * The .promisor files beside packs: git never parses their lines (they are copied as
 * text), but their names are pack names, pack-<id>.promisor, which git writes in
 * lowercase and the Git 3.0 build still takes in uppercase: warn.
 */
static void promisor_names(struct run *r, const struct place *pl, const struct where *w,
			   const struct repo *rp, struct feed *fd)
{
	char *full = hexoid_join(w->dir, pl->path), **names;
	struct hexoid_names list = { NULL, 0 };
	size_t i, hexsz = hexoid_hexsz(rp->algo);

	if (full)
		hexoid_dir_names(full, HEXOID_DIR_ANY, is_promisor, NULL, &list);
	names = list.v;
	for (i = 0; i < list.n; i++) {
		char *rel = hexoid_join(pl->path, names[i]), *shown = rel ? hexoid_concat(w->prefix, rel) : NULL;
		struct hexoid_error e;
		struct found *f;
		r->audit->count[pl->area].scanned++;
		if (shown && !feed_file(fd, shown) && strlen(names[i]) == hexsz + 14 &&
		    !memcmp(names[i], "pack-", 5) &&
		    hexoid_decode(NULL, names[i] + 5, 1, hexsz, rp->algo, HEXOID_MIXED, NULL) ==
			    HEXOID_OK &&
		    hexoid_decode(NULL, names[i] + 5, 1, hexsz, rp->algo, HEXOID_LOWER, &e) !=
			    HEXOID_OK &&
		    (f = extra(fd))) {
			f->file = fd->nfiles - 1;
			f->line = 0;
			f->column = 0;
			f->code = HEXOID_AUDIT_UPPERCASE_ACCEPTED;
			snprintf(f->message, sizeof(f->message),
				 "uppercase hex digit '%c' in the pack's name: git writes it in "
				 "lowercase, the Git 3.0 build still opens it",
				 names[i][5 + e.column]);
		}
		free(rel);
		free(shown);
	}
	hexoid_names_free(&list);
	free(full);
}

/* The names of the folders in a place's folder, each an ID (rr-cache/<id>). */
static void folder_names(struct run *r, const struct place *pl, const struct where *w,
			 struct feed *fd)
{
	char *full = hexoid_join(w->dir, pl->path), **names;
	struct hexoid_names list = { NULL, 0 };
	size_t i;

	if (full)
		hexoid_dir_names(full, HEXOID_DIR_FOLDERS, NULL, NULL, &list);
	names = list.v;
	for (i = 0; i < list.n; i++) {
		char *rel = hexoid_join(pl->path, names[i]), *shown = rel ? hexoid_concat(w->prefix, rel) : NULL;
		if (shown && !feed_file(fd, shown))
			id_name(fd, NAME_RERERE, names[i], strlen(names[i]), 0, 0);
		r->audit->count[pl->area].scanned++;
		free(rel);
		free(shown);
	}
	hexoid_names_free(&list);
	free(full);
}

static int is_mail(const char *name, void *ctx)
{
	(void)ctx;
	return strspn(name, "0123456789") == strlen(name);
}

/* The mails of `git am` or `git rebase --apply` (rebase-apply/0001, ...), read for the
 * commit they came from only when rebasing. */
static void mails(struct run *r, const struct place *pl, const struct where *w, struct feed *fd)
{
	char *full = hexoid_join(w->dir, pl->path), *flag = full ? hexoid_join(full, "rebasing") : NULL;
	struct hexoid_names list = { NULL, 0 };
	size_t i;
	struct stat st;

	if (flag && stat(flag, &st) == 0 &&
	    !hexoid_dir_names(full, HEXOID_DIR_ANY, is_mail, NULL, &list) && list.n) {
		int dirfd = open(w->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		for (i = 0; i < list.n && dirfd >= 0 && !r->stopped; i++) {
			char *rel = hexoid_join(pl->path, list.v[i]);
			if (rel)
				place_file(r, pl, w, fd, dirfd, rel, rel, 0);
			free(rel);
		}
		if (dirfd >= 0)
			close(dirfd);
	}
	hexoid_names_free(&list);
	free(flag);
	free(full);
}

/* A reftable reader's error, "<file>: <what>", as a finding on that file. */
static void reftable_error(struct run *r, enum hexoid_audit_area area, const struct where *w,
			   char *err)
{
	char *sep = strstr(err, ": ");

	if (sep && !memcmp(err, "reftable/", 9)) {
		*sep = 0;
		file_finding(r, area, w, err, HEXOID_AUDIT_UNREADABLE, "cannot read: %s", sep + 2);
	} else {
		file_finding(r, area, w, "reftable", HEXOID_AUDIT_UNREADABLE, "cannot read: %s",
			     err);
	}
}

/* The names of refs in reftable that are IDs (refs/replace/<id>), shown as the refs'
 * names, as git for-each-ref shows them and as the files backend's files are named. */
static void reftable_names(struct run *r, const struct place *pl, const struct where *w,
			   const struct repo *rp, struct feed *fd)
{
	struct rt_ref *v;
	size_t n, i, plen = strlen(pl->path);
	char err[512];

	if (reftable_refs(w->dir, pl->path, rp->algo, &v, &n, err, sizeof(err))) {
		reftable_error(r, pl->area, w, err);
		return;
	}
	for (i = 0; i < n; i++) {
		char *shown = hexoid_concat(w->prefix, v[i].name);
		if (shown && !feed_file(fd, shown))
			id_name(fd, NAME_REPLACE, v[i].name + plen, strlen(v[i].name) - plen, 0, 0);
		free(shown);
		r->audit->count[pl->area].scanned++;
	}
	reftable_free(v, n);
}

/* Every place of one area in one git directory. */
static void area_in(struct run *r, enum hexoid_audit_area area, const struct repo *rp,
		    const struct where *w)
{
	size_t i;

	for (i = 0; i < audit_nplaces && !r->stopped; i++) {
		const struct place *pl = &audit_places[i];
		struct feed fd;
		unsigned long long lines;
		if (pl->area != area || (w->worktree && pl->scope != SCOPE_WORKTREE) ||
		    (rp->reftable && (pl->flags & PLACE_FILES_REFS)) ||
		    (!rp->reftable && (pl->flags & PLACE_REFTABLE)))
			continue;
		if (pl->how == HOW_NOTES) {
			audit_notes(r, rp);
			continue;
		}
		if (feed_start(r, &fd, area, pl->format == FMT_LISTING ? (enum hexoid_format)pl->listing
								       : HEXOID_FORMAT_OIDS,
			       rp->algo)) {
			snprintf(r->err, sizeof(r->err), "out of memory");
			r->stopped = 1;
			return;
		}
		if (pl->how == HOW_TREE) {
			walk(r, pl, w, rp, &fd, pl->path);
		} else if (pl->how == HOW_CONFIG) {
			config_files(r, pl, rp, &fd);
		} else if (pl->how == HOW_PROMISOR_NAMES) {
			promisor_names(r, pl, w, rp, &fd);
		} else if (pl->how == HOW_MAILS) {
			mails(r, pl, w, &fd);
		} else if (pl->how == HOW_FOLDER_NAMES) {
			folder_names(r, pl, w, &fd);
		} else if (pl->how == HOW_REFTABLE_NAMES) {
			reftable_names(r, pl, w, rp, &fd);
		} else {
			int dirfd = open(w->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (dirfd >= 0) {
				place_file(r, pl, w, &fd, dirfd, pl->path, pl->path, 0);
				close(dirfd);
			}
		}
		lines = feed_finish(&fd);
		if (pl->format == FMT_LISTING)
			r->audit->count[area].scanned += lines;
	}
}

/* --- notes ------------------------------------------------------------------------- */

/*
 * A notes ref (refs/notes/...) names a commit whose tree holds a note for each
 * annotated object, at a path that is the object's ID in hex, perhaps fanned out into
 * folders of two digits ("ab/cdef..."), as git writes it once there are many. Git reads
 * those names as IDs (notes.c, load_subtree): the Git 3.0 build no longer finds a note
 * under a fanout folder named in uppercase (git3), but still finds one whose own name,
 * fanned out or not, is uppercase (warn). Other names are not notes, and git keeps them
 * as they are.
 */
struct notes {
	struct run *r;
	const struct repo *rp;
	struct hexoid_odb *odb;
	const char *ref;
	char hex[HEXOID_MAX_HEXSZ + 1]; /* the ID so far, without the slashes */
	char path[3 * HEXOID_MAX_HEXSZ];
	int depth;
};

static void notes_finding(struct notes *n, enum hexoid_audit_code code, const char *path,
			  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void notes_finding(struct notes *n, enum hexoid_audit_code code, const char *path,
			  const char *fmt, ...)
{
	struct hexoid_audit_finding f;
	char msg[512], *shown;
	size_t len = strlen(n->rp->prefix) + strlen(n->ref) + strlen(path) + 2;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!(shown = malloc(len)))
		return;
	snprintf(shown, len, "%s%s%s%s", n->rp->prefix, n->ref, *path ? ":" : "", path);
	memset(&f, 0, sizeof(f));
	f.code = code;
	f.area = HEXOID_AREA_NOTES;
	f.path = shown;
	f.offset = HEXOID_NO_OFFSET;
	f.algo = n->rp->algo;
	f.message = msg;
	report(n->r, &f);
	free(shown);
}

static void notes_tree(struct notes *n, const unsigned char *oid, size_t have)
{
	struct hexoid_object obj;
	size_t hexsz = hexoid_hexsz(n->rp->algo), rawsz = hexoid_rawsz(n->rp->algo);
	size_t plen = strlen(n->path), at = 0;
	char err[256];

	if (n->r->stopped)
		return;
	if (hexoid_odb_read(n->odb, oid, &obj, err, sizeof(err)) != HEXOID_ODB_OK ||
	    obj.type != HEXOID_OBJ_TREE) {
		notes_finding(n, HEXOID_AUDIT_BASE, n->path, "cannot read the notes tree: %s",
			      obj.data ? "not a tree" : err);
		hexoid_object_free(&obj);
		return;
	}
	while (at < obj.size && !n->r->stopped) {
		const char *e = (const char *)obj.data + at, *sp, *name;
		const unsigned char *entry_oid;
		size_t rest = obj.size - at, nlen;
		int is_tree;
		sp = memchr(e, ' ', rest);
		name = sp ? sp + 1 : NULL;
		if (!name || !memchr(name, 0, rest - (size_t)(name - e)))
			break;
		nlen = strlen(name);
		if ((size_t)(name - e) + nlen + 1 + rawsz > rest)
			break;
		entry_oid = (const unsigned char *)name + nlen + 1;
		at += (size_t)(name - e) + nlen + 1 + rawsz;
		is_tree = sp - e == 5 && !memcmp(e, "40000", 5);
		if (!is_tree && have + nlen == hexsz && !hexoid_all_hex(name, nlen)) {
			/* A note's shape, not a note's name: both gits keep it as some other
			 * file and show no note for it. */
			snprintf(n->path + plen, sizeof(n->path) - plen, "%s%.*s", plen ? "/" : "",
				 (int)nlen, name);
			notes_finding(n, HEXOID_AUDIT_BAD_ID, n->path,
				      "not hex, at a note's path: git keeps it, but as no note");
			n->path[plen] = 0;
			continue;
		}
		if (!hexoid_all_hex(name, nlen) || have + nlen > hexsz)
			continue;
		snprintf(n->path + plen, sizeof(n->path) - plen, "%s%.*s", plen ? "/" : "",
			 (int)nlen, name);
		memcpy(n->hex + have, name, nlen);
		if (have + nlen == hexsz && !is_tree) {
			struct hexoid_error he;
			n->r->audit->count[HEXOID_AREA_NOTES].scanned++;
			if (hexoid_decode(NULL, n->hex, 1, hexsz, n->rp->algo, HEXOID_LOWER, &he) !=
			    HEXOID_OK) {
				if (he.column < have)
					notes_finding(n, HEXOID_AUDIT_UPPERCASE, n->path,
						      "uppercase hex digit '%c' in a fanout folder's name: "
						      "Git 2.x finds the note, Git 3.0 does not",
						      n->hex[he.column]);
				else
					notes_finding(n, HEXOID_AUDIT_UPPERCASE_ACCEPTED, n->path,
						      "uppercase hex digit '%c' in the note's name: git "
						      "writes it in lowercase, the Git 3.0 build still "
						      "finds the note",
						      n->hex[he.column]);
			}
		} else if (nlen == 2 && is_tree && have + 2 < hexsz) {
			n->depth++;
			notes_tree(n, entry_oid, have + 2);
			n->depth--;
		}
		n->path[plen] = 0;
	}
	hexoid_object_free(&obj);
}

/* The notes refs: loose under refs/notes/, and in packed-refs. */
struct notes_ref {
	char *name;
	unsigned char oid[HEXOID_MAX_RAWSZ];
};

static void notes_ref_add(struct notes_ref **v, size_t *n, size_t *cap, const char *name,
			  size_t nlen, const char *hex, enum hexoid_algo algo)
{
	size_t i, hexsz = hexoid_hexsz(algo);

	for (i = 0; i < *n; i++)
		if (strlen((*v)[i].name) == nlen && !memcmp((*v)[i].name, name, nlen))
			return; /* a loose ref hides its packed one */
	if (hexoid_grow(v, cap, *n, sizeof(**v)))
		return;
	if (hexoid_decode((*v)[*n].oid, hex, 1, hexsz, algo, HEXOID_MIXED, NULL) != HEXOID_OK)
		return; /* the refs areas report it */
	if (((*v)[*n].name = strndup(name, nlen)))
		(*n)++;
}

/* Not a hidden file, nor git's work in progress. */
static int is_loose_ref(const char *name, void *ctx)
{
	(void)ctx;
	return name[0] != '.' && !hexoid_ends_with(name, ".lock");
}

static void notes_loose(const char *dir, const char *rel, struct notes_ref **v, size_t *n,
			size_t *cap, enum hexoid_algo algo)
{
	char *full = hexoid_join(dir, rel);
	struct hexoid_names list = { NULL, 0 };
	size_t i;

	if (full)
		hexoid_dir_names(full, HEXOID_DIR_ANY, is_loose_ref, NULL, &list);
	for (i = 0; i < list.n; i++) {
		char *name = hexoid_join(rel, list.v[i]), *path = name ? hexoid_join(dir, name) : NULL;
		char *line;
		struct stat st;
		if (path && lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			notes_loose(dir, name, v, n, cap, algo);
		} else if (path && S_ISREG(st.st_mode) && (line = hexoid_file_first_line(path))) {
			if (strlen(line) >= hexoid_hexsz(algo))
				notes_ref_add(v, n, cap, name, strlen(name), line, algo);
			free(line);
		}
		free(path);
		free(name);
	}
	hexoid_names_free(&list);
	free(full);
}

static int cmp_notes_ref(const void *x, const void *y)
{
	return strcmp(((const struct notes_ref *)x)->name, ((const struct notes_ref *)y)->name);
}

static void audit_notes(struct run *r, const struct repo *rp)
{
	struct hexoid_odb_options oo = HEXOID_ODB_OPTIONS_INIT;
	struct notes_ref *v = NULL;
	size_t n = 0, cap = 0, i, hexsz = hexoid_hexsz(rp->algo);
	char *packed = hexoid_join(rp->dir, "packed-refs"), *objects = hexoid_join(rp->dir, "objects");
	char err[512];
	struct notes nt;
	int fd;

	if (!packed || !objects)
		goto out;
	if (rp->reftable) {
		struct rt_ref *t;
		size_t nrt;
		if (reftable_refs(rp->dir, "refs/notes/", rp->algo, &t, &nrt, err, sizeof(err))) {
			reftable_error(r, HEXOID_AREA_NOTES, &rp->wheres[0], err);
			goto out;
		}
		for (i = 0; i < nrt; i++) {
			if ((t[i].type == 1 || t[i].type == 2) && !hexoid_grow(&v, &cap, n, sizeof(*v))) {
				memcpy(v[n].oid, t[i].oid, sizeof(v[n].oid));
				v[n].name = t[i].name;
				t[i].name = NULL;
				n++;
			}
		}
		reftable_free(t, nrt);
	}
	fd = rp->reftable ? -1 : open(packed, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (!rp->reftable)
		notes_loose(rp->dir, "refs/notes", &v, &n, &cap, rp->algo);
	if (fd >= 0) {
		struct stat st;
		char *data;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (data = malloc((size_t)st.st_size + 1))) {
			ssize_t got = read(fd, data, (size_t)st.st_size);
			struct hexoid_lines it = { data, got > 0 ? (size_t)got : 0, 0, 0, '\n' };
			const char *p;
			size_t len;
			while (hexoid_next_line(&it, &p, &len))
				if (len > hexsz + 12 && p[hexsz] == ' ' &&
				    !memcmp(p + hexsz + 1, "refs/notes/", 11))
					notes_ref_add(&v, &n, &cap, p + hexsz + 1, len - hexsz - 1, p,
						      rp->algo);
			free(data);
		}
		close(fd);
	}
	if (!n)
		goto out;
	qsort(v, n, sizeof(*v), cmp_notes_ref);
	oo.algo = rp->algo;
	memset(&nt, 0, sizeof(nt));
	nt.r = r;
	nt.rp = rp;
	nt.odb = hexoid_odb_open(objects, &oo, err, sizeof(err));
	if (!nt.odb) {
		nt.ref = v[0].name;
		notes_finding(&nt, HEXOID_AUDIT_UNREADABLE, "", "notes not read: %s", err);
		goto out;
	}
	for (i = 0; i < n && !r->stopped; i++) {
		struct hexoid_object c;
		unsigned char tree[HEXOID_MAX_RAWSZ];
		nt.ref = v[i].name;
		if (hexoid_odb_read(nt.odb, v[i].oid, &c, err, sizeof(err)) != HEXOID_ODB_OK ||
		    c.type != HEXOID_OBJ_COMMIT || c.size < 5 + hexsz ||
		    memcmp(c.data, "tree ", 5) ||
		    hexoid_decode(tree, (const char *)c.data + 5, 1, hexsz, rp->algo, HEXOID_MIXED,
				  NULL) != HEXOID_OK) {
			notes_finding(&nt, HEXOID_AUDIT_BASE, "", "cannot read the notes commit: %s",
				      c.data ? "not a commit with a tree" : err);
			hexoid_object_free(&c);
			continue;
		}
		hexoid_object_free(&c);
		nt.path[0] = 0;
		nt.depth = 0;
		notes_tree(&nt, tree, 0);
	}
	hexoid_odb_close(nt.odb);
out:
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	free(packed);
	free(objects);
}

/* --- objects ----------------------------------------------------------------------- */

/*
 * The object areas (loose objects, packs) are scanned by scan_objects(), in this thread,
 * or with jobs above 1 in a thread of their own while this one reads the files: its
 * findings then wait in a queue, and are reported after the other areas, in order.
 */
struct kept {
	struct hexoid_audit_finding f;
	char *path, *message;
	char header[32];
};
struct objscan {
	struct run *r;
	const struct repo *rp;
	enum hexoid_audit_area area;
	int threaded;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct kept *v;         /* threaded: the queue */
	size_t n, cap, taken;
	char what[512];         /* threaded: the progress to show */
	uint64_t done, total;
	int progress_new, finished, stop, oom;
	uint64_t scanned[3];    /* loose, packed, in alternates */
	char *current;          /* the pack being scanned, as shown */
	enum hexoid_audit_code code; /* nonzero: the code of the next finding */
};

static enum hexoid_audit_code code_of(enum hexoid_finding_code c)
{
	switch (c) {
	case HEXOID_FIND_UPPERCASE: return HEXOID_AUDIT_UPPERCASE;
	case HEXOID_FIND_BAD_ID: return HEXOID_AUDIT_BAD_ID;
	case HEXOID_FIND_ID_MISMATCH: return HEXOID_AUDIT_ID_MISMATCH;
	case HEXOID_FIND_CRC: return HEXOID_AUDIT_CRC;
	case HEXOID_FIND_CHECKSUM: return HEXOID_AUDIT_CHECKSUM;
	case HEXOID_FIND_LAYOUT: return HEXOID_AUDIT_LAYOUT;
	case HEXOID_FIND_HEADER: return HEXOID_AUDIT_OBJECT_HEADER;
	case HEXOID_FIND_ZLIB: return HEXOID_AUDIT_ZLIB;
	case HEXOID_FIND_DELTA: return HEXOID_AUDIT_DELTA;
	case HEXOID_FIND_BASE: return HEXOID_AUDIT_BASE;
	case HEXOID_FIND_IO: return HEXOID_AUDIT_UNREADABLE;
	}
	return HEXOID_AUDIT_LAYOUT;
}

/* A path under the repository's directory as findings show it: prefix + rel. */
static char *shown_path(const struct repo *rp, const char *path)
{
	size_t dl = strlen(rp->dir);

	if (!strncmp(path, rp->dir, dl) && path[dl] == '/')
		path += dl + 1;
	return hexoid_concat(rp->prefix, path);
}

static int on_object_finding(void *ctx, const struct hexoid_finding *in)
{
	struct objscan *os = ctx;
	struct hexoid_audit_finding f;
	char *path = shown_path(os->rp, in->path);
	int stop;

	memset(&f, 0, sizeof(f));
	f.code = code_of(in->code);
	/* The pack module's own class is the one that counts for its codes. */
	if (in->code == HEXOID_FIND_UPPERCASE && !in->git3)
		f.code = HEXOID_AUDIT_BAD_ID;
	if (os->code)
		f.code = os->code;
	f.area = os->area;
	f.path = path ? path : in->path;
	f.line = in->line;
	f.column = in->column;
	f.has_oid = in->has_oid;
	memcpy(f.oid, in->oid, sizeof(f.oid));
	f.algo = in->algo;
	f.type = in->type;
	f.header = in->header;
	f.offset = in->offset;
	f.message = in->message;
	if (!os->threaded) {
		stop = report(os->r, &f);
		free(path);
		return stop;
	}
	pthread_mutex_lock(&os->lock);
	stop = os->stop;
	if (!stop && os->n == os->cap) {
		size_t cap = os->cap ? 2 * os->cap : 64;
		struct kept *v = realloc(os->v, cap * sizeof(*v));
		if (v) {
			os->v = v;
			os->cap = cap;
		}
	}
	if (!stop && os->n < os->cap && path && (os->v[os->n].message = strdup(in->message))) {
		struct kept *k = &os->v[os->n++];
		k->f = f;
		k->path = path;
		k->f.path = path;
		k->f.message = k->message;
		if (in->header) {
			snprintf(k->header, sizeof(k->header), "%s", in->header);
			k->f.header = k->header;
		}
		path = NULL;
		pthread_cond_signal(&os->wake);
	} else if (!stop) {
		os->oom = stop = os->stop = 1;
		pthread_cond_signal(&os->wake);
	}
	pthread_mutex_unlock(&os->lock);
	free(path);
	return stop;
}

static int on_scan_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct objscan *os = ctx;
	int stop;

	if (!os->threaded) {
		if (!os->r->stopped && os->r->o.on_progress && total &&
		    os->r->o.on_progress(os->r->o.ctx, os->current ? os->current : "objects", done,
					 total))
			os->r->stopped = 1;
		return os->r->stopped;
	}
	pthread_mutex_lock(&os->lock);
	if (os->r->o.on_progress && total) {
		snprintf(os->what, sizeof(os->what), "%s", os->current ? os->current : "objects");
		os->done = done;
		os->total = total;
		os->progress_new = 1;
		pthread_cond_signal(&os->wake);
	}
	stop = os->stop;
	pthread_mutex_unlock(&os->lock);
	return stop;
}

static int scan_stopped(struct objscan *os)
{
	int stop;

	if (!os->threaded)
		return os->r->stopped;
	pthread_mutex_lock(&os->lock);
	stop = os->stop;
	pthread_mutex_unlock(&os->lock);
	return stop;
}

/*
 * A pack's name, pack-<id>.pack, holds the pack's checksum in hex as git writes it, in
 * lowercase. Git finds a pack's index by its name whatever the case of its digits, and
 * the Git 3.0 build still opens one named in uppercase: a warning, not a git3 finding.
 */
static void pack_name(struct objscan *os, const char *pack)
{
	const char *base = strrchr(pack, '/'), *dot;
	size_t hexsz = hexoid_hexsz(os->rp->algo), len;
	struct hexoid_error e;
	struct hexoid_finding f;

	base = base ? base + 1 : pack;
	dot = strchr(base, '.');
	len = dot ? (size_t)(dot - base) : strlen(base);
	if (len != hexsz + 5 || memcmp(base, "pack-", 5) ||
	    hexoid_decode(NULL, base + 5, 1, hexsz, os->rp->algo, HEXOID_MIXED, NULL) != HEXOID_OK ||
	    hexoid_decode(NULL, base + 5, 1, hexsz, os->rp->algo, HEXOID_LOWER, &e) == HEXOID_OK)
		return;
	memset(&f, 0, sizeof(f));
	f.path = pack;
	f.offset = HEXOID_NO_OFFSET;
	f.algo = os->rp->algo;
	snprintf(f.message, sizeof(f.message),
		 "uppercase hex digit '%c' in the pack's name: git writes it in lowercase, "
		 "the Git 3.0 build still opens it", base[5 + e.column]);
	os->code = HEXOID_AUDIT_UPPERCASE_ACCEPTED;
	on_object_finding(os, &f);
	os->code = 0;
}

/* A pack that cannot be used at all is a finding of the audit, not the end of it. */
static void unusable_pack(struct objscan *os, const char *pack, const char *err)
{
	struct hexoid_finding f;
	const char *dir = os->rp->dir, *in = strstr(err, dir);
	size_t dl = strlen(dir);
	char *rest = NULL;

	memset(&f, 0, sizeof(f));
	f.code = HEXOID_FIND_LAYOUT;
	f.path = pack;
	f.offset = HEXOID_NO_OFFSET;
	f.algo = os->rp->algo;
	/* err names the file with its whole path: show it as the report does. */
	if (in && in[dl] == '/')
		rest = shown_path(os->rp, in);
	snprintf(f.message, sizeof(f.message), "unusable: %.*s%.200s", rest ? (int)(in - err) : 0,
		 err, rest ? rest : err);
	free(rest);
	on_object_finding(os, &f);
}

static int is_pack(const char *name, void *ctx)
{
	(void)ctx;
	return hexoid_ends_with(name, ".pack");
}

/* The loose objects and packs of one objects folder: `alt` says it is an alternate's. */
static void scan_dir(struct objscan *os, const char *objects, int alt)
{
	struct run *r = os->r;
	const struct repo *rp = os->rp;
	struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	char err[512];
	char *packdir = hexoid_join(objects, "pack");
	struct hexoid_names packs = { NULL, 0 };
	size_t i;

	if (!packdir)
		return;
	o.algo = rp->algo;
	o.verify_ids = r->o.verify_ids;
	o.jobs = r->o.jobs;
	o.on_finding = on_object_finding;
	o.on_progress = on_scan_progress;
	o.ctx = os;
	os->area = alt ? HEXOID_AREA_ALTERNATES : HEXOID_AREA_LOOSE_OBJECTS;
	if (hexoid_loose_scan(objects, &o, &st, err, sizeof(err)) < 0) {
		struct hexoid_finding f;
		memset(&f, 0, sizeof(f));
		f.code = HEXOID_FIND_IO;
		f.path = objects;
		f.offset = HEXOID_NO_OFFSET;
		snprintf(f.message, sizeof(f.message), "cannot read the folder");
		on_object_finding(os, &f);
	}
	os->scanned[alt ? 2 : 0] += st.objects;

	os->area = alt ? HEXOID_AREA_ALTERNATES : HEXOID_AREA_PACK_OBJECTS;
	hexoid_dir_names(packdir, HEXOID_DIR_ANY, is_pack, NULL, &packs);
	for (i = 0; i < packs.n && !scan_stopped(os); i++) {
		char *pack = hexoid_join(packdir, packs.v[i]);
		int rc;
		if (!pack)
			continue;
		os->current = shown_path(rp, pack);
		pack_name(os, pack);
		rc = hexoid_pack_scan(pack, &o, &st, err, sizeof(err));
		if (rc < 0)
			unusable_pack(os, pack, err);
		else
			os->scanned[alt ? 2 : 1] += st.objects;
		free(os->current);
		os->current = NULL;
		free(pack);
	}
	hexoid_names_free(&packs);
	free(packdir);
}

static int seen_before(struct run *r, const char *dir);

/*
 * The object folders objects/info/alternates lists (one a line, '#' comments, relative
 * ones from the objects folder), and theirs, as deep as git goes (5), each once: git
 * reads their objects as the repository's own.
 */
static void scan_alternates(struct objscan *os, const char *objects, int depth,
			    struct run *seen)
{
	char *file = hexoid_join(objects, "info/alternates"), *data = NULL;
	struct where w = { (char *)objects, (char *)"", 0 };
	size_t size;
	int fd, got = 1;

	if (!file)
		return;
	fd = open(objects, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* Findings go through on_object_finding: this may be the objects' own thread. */
	if (fd >= 0)
		got = slurp_at(os->r, HEXOID_AREA_ALTERNATES, &w, fd, "info/alternates", "", 0, &data,
			       &size, 0);
	if (got < 0) {
		struct hexoid_finding f;
		memset(&f, 0, sizeof(f));
		f.code = HEXOID_FIND_IO;
		f.path = file;
		f.offset = HEXOID_NO_OFFSET;
		snprintf(f.message, sizeof(f.message), "cannot read it, or not a regular file");
		os->area = HEXOID_AREA_ALTERNATES;
		on_object_finding(os, &f);
	}
	if (got == 0) {
		struct hexoid_lines it = { data, size, 0, 0, '\n' };
		const char *p;
		size_t len;
		while (hexoid_next_line(&it, &p, &len) && !scan_stopped(os)) {
			char *line = strndup(p, len), *alt;
			if (!line)
				break;
			line[strcspn(line, "\r")] = 0;
			if (!*line || *line == '#') {
				free(line);
				continue;
			}
			alt = hexoid_resolve(objects, line);
			if (alt && depth < 5 && seen_before(seen, alt) == 0) {
				scan_dir(os, alt, 1);
				scan_alternates(os, alt, depth + 1, seen);
			}
			free(alt);
			free(line);
		}
	}
	if (fd >= 0)
		close(fd);
	free(data);
	free(file);
}

static void scan_objects(struct objscan *os)
{
	char *objects = os->rp->objects_only ? strdup(os->rp->dir) : hexoid_join(os->rp->dir, "objects");
	struct run seen;

	if (!objects)
		return;
	scan_dir(os, objects, 0);
	memset(&seen, 0, sizeof(seen));
	seen_before(&seen, objects);
	scan_alternates(os, objects, 0, &seen);
	free(seen.seen);
	free(objects);
}

static void *objects_main(void *p)
{
	struct objscan *os = p;

	scan_objects(os);
	pthread_mutex_lock(&os->lock);
	os->finished = 1;
	pthread_cond_signal(&os->wake);
	pthread_mutex_unlock(&os->lock);
	return NULL;
}

/* Threaded: report what the object thread found, and its progress, until it is done. */
static void drain(struct objscan *os)
{
	struct run *r = os->r;

	pthread_mutex_lock(&os->lock);
	for (;;) {
		if (os->taken < os->n) {
			struct kept k = os->v[os->taken++];
			pthread_mutex_unlock(&os->lock);
			if (report(r, &k.f)) {
				pthread_mutex_lock(&os->lock);
				os->stop = 1;
				pthread_mutex_unlock(&os->lock);
			}
			free(k.path);
			free(k.message);
			pthread_mutex_lock(&os->lock);
			continue;
		}
		if (os->progress_new) {
			char what[sizeof(os->what)];
			uint64_t done = os->done, total = os->total;
			memcpy(what, os->what, sizeof(what));
			os->progress_new = 0;
			pthread_mutex_unlock(&os->lock);
			if (!r->stopped && r->o.on_progress &&
			    r->o.on_progress(r->o.ctx, what, done, total))
				r->stopped = 1;
			pthread_mutex_lock(&os->lock);
			if (r->stopped)
				os->stop = 1;
			continue;
		}
		if (os->finished)
			break;
		pthread_cond_wait(&os->wake, &os->lock);
	}
	pthread_mutex_unlock(&os->lock);
}

/* --- the repository ---------------------------------------------------------------- */

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The common directory of a git directory: its `commondir` file's, or itself. */
static char *common_of(const char *gitdir)
{
	char *file = hexoid_join(gitdir, "commondir"), *line = file ? hexoid_file_first_line(file) : NULL, *c;

	free(file);
	if (!line || !*line) {
		free(line);
		return strdup(gitdir);
	}
	c = hexoid_resolve(gitdir, line);
	free(line);
	return c;
}

/*
 * A git directory, as git's setup tells one: a HEAD file, and objects/ and refs/
 * folders in its common directory (a reftable repository's refs/ is a folder too).
 */
static int is_gitdir(const char *dir)
{
	char *head = hexoid_join(dir, "HEAD"), *common = common_of(dir), *objects = NULL, *refs = NULL;
	struct stat st;
	int ok = 0;

	if (head && common && (objects = hexoid_join(common, "objects")) && (refs = hexoid_join(common, "refs")))
		ok = lstat(head, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) &&
		     is_dir(objects) && is_dir(refs);
	free(head);
	free(common);
	free(objects);
	free(refs);
	return ok;
}

/*
 * The git directory for `path`, as git's discovery finds it: in each folder from `path`
 * up to the root of its file system, `.git` (a folder, or a file "gitdir: <dir>"), or
 * the folder itself when it is a bare repository.
 */
static char *discover(const char *path, char **top, char *err, size_t errlen)
{
	char *dir = realpath(path, NULL);
	struct stat st, up;

	if (!dir) {
		struct errtext et;
		snprintf(err, errlen, "%s: %s", path, errtext(errno, &et));
		return NULL;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a folder", path);
		free(dir);
		return NULL;
	}
	for (;;) {
		char *dotgit = hexoid_join(dir, ".git"), *slash;
		struct stat gs;
		int found;
		if (!dotgit)
			break;
		found = stat(dotgit, &gs) == 0;
		if (found && S_ISREG(gs.st_mode)) {
			char *line = hexoid_file_first_line(dotgit), *target = NULL;
			if (line && !strncmp(line, "gitdir:", 7)) {
				const char *p = line + 7;
				while (*p == ' ')
					p++;
				target = hexoid_resolve(dir, p);
			}
			if (!target || !is_gitdir(target)) {
				snprintf(err, errlen, "%s: %s", dotgit,
					 !line || strncmp(line, "gitdir:", 7)
						 ? "not a git repository: a .git file without 'gitdir: <path>'"
						 : "not a git repository: its gitdir is gone or is not a git directory");
				free(target);
				free(line);
				free(dotgit);
				free(dir);
				return NULL;
			}
			free(line);
			free(dotgit);
			*top = dir;
			return target;
		}
		if (found && S_ISDIR(gs.st_mode) && is_gitdir(dotgit)) {
			*top = dir;
			return dotgit;
		}
		free(dotgit);
		if (is_gitdir(dir))
			return dir;
		/* Up one folder, not across file systems (git does not by default). */
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = 0;
		if (stat(dir, &up) < 0 || up.st_dev != st.st_dev)
			break;
	}
	free(dir);
	snprintf(err, errlen, "%s: not a git repository (nor any of its parent folders)", path);
	return NULL;
}

struct hexoid_audit *hexoid_audit_open(const char *path, char *err, size_t errlen)
{
	struct hexoid_audit *a = calloc(1, sizeof(*a));
	struct repo_config c;

	if (!a) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!path)
		path = ".";
	if (!(a->gitdir = discover(path, &a->top, err, errlen)))
		goto fail;
	if (!(a->common = common_of(a->gitdir))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	read_config(a->common, &c);
	if (c.algo < 0 || c.reftable < 0) {
		snprintf(err, errlen, "%s: unknown %s in its config", path, c.unknown);
		goto fail;
	}
	a->algo = (enum hexoid_algo)c.algo;
	a->refs = c.reftable ? HEXOID_REFS_REFTABLE : HEXOID_REFS_FILES;
	return a;
fail:
	hexoid_audit_close(a);
	return NULL;
}

/* The hash an objects folder's contents are named in: its first pack's name
 * (pack-<checksum>.idx), else its first loose object's; 0 when it has neither. */
static enum hexoid_algo objects_algo(const char *dir)
{
	char *packdir = hexoid_join(dir, "pack");
	enum hexoid_algo algo = 0;
	struct dirent *de;
	DIR *d;

	if (packdir && (d = opendir(packdir))) {
		while (!algo && (de = readdir(d))) {
			size_t len = strlen(de->d_name);
			if (len > 9 && !strncmp(de->d_name, "pack-", 5) &&
			    !strcmp(de->d_name + len - 4, ".idx"))
				algo = len - 9 == 40 ? HEXOID_SHA1 : len - 9 == 64 ? HEXOID_SHA256 : 0;
		}
		closedir(d);
	}
	free(packdir);
	if (!algo && (d = opendir(dir))) {
		while (!algo && (de = readdir(d))) {
			char *sub;
			DIR *sd;
			struct dirent *e;
			if (strlen(de->d_name) != 2 || !hexoid_is_hex(de->d_name[0]) || !hexoid_is_hex(de->d_name[1]) ||
			    !(sub = hexoid_join(dir, de->d_name)))
				continue;
			if ((sd = opendir(sub))) {
				while (!algo && (e = readdir(sd))) {
					size_t len = strlen(e->d_name);
					algo = len == 38 ? HEXOID_SHA1 : len == 62 ? HEXOID_SHA256 : 0;
				}
				closedir(sd);
			}
			free(sub);
		}
		closedir(d);
	}
	return algo;
}

struct hexoid_audit *hexoid_audit_open_objects(const char *dir, enum hexoid_algo algo, char *err,
					       size_t errlen)
{
	struct hexoid_audit *a;
	struct stat st;

	if (!dir || (algo && algo != HEXOID_SHA1 && algo != HEXOID_SHA256)) {
		snprintf(err, errlen, "bad arguments: a folder, and HEXOID_SHA1, HEXOID_SHA256 or 0");
		return NULL;
	}
	if (stat(dir, &st) < 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a folder", dir);
		return NULL;
	}
	if (!(a = calloc(1, sizeof(*a))) || !(a->common = realpath(dir, NULL)) ||
	    !(a->gitdir = strdup(a->common))) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno ? errno : ENOMEM));
		hexoid_audit_close(a);
		return NULL;
	}
	a->algo = algo ? algo : objects_algo(a->common);
	if (!a->algo)
		a->algo = HEXOID_SHA1;
	a->refs = HEXOID_REFS_FILES;
	a->objects_only = 1;
	return a;
}

const char *hexoid_audit_gitdir(const struct hexoid_audit *a)
{
	return a->common;
}

enum hexoid_algo hexoid_audit_algo(const struct hexoid_audit *a)
{
	return a->algo;
}

enum hexoid_ref_storage hexoid_audit_ref_storage(const struct hexoid_audit *a)
{
	return a->refs;
}

void hexoid_audit_summary(const struct hexoid_audit *a, enum hexoid_audit_area area,
			  struct hexoid_audit_count *count)
{
	if ((unsigned)area < HEXOID_AREA_COUNT)
		*count = a->count[area];
	else
		memset(count, 0, sizeof(*count));
}

void hexoid_audit_close(struct hexoid_audit *a)
{
	if (!a)
		return;
	free(a->top);
	free(a->gitdir);
	free(a->common);
	free(a);
}

/* Whether the folder was walked already; records it if not. -1 if it cannot be stat'ed. */
static int seen_before(struct run *r, const char *dir)
{
	struct stat st;
	size_t i;

	if (stat(dir, &st) < 0)
		return -1;
	for (i = 0; i < r->nseen; i++)
		if (r->seen[i].dev == st.st_dev && r->seen[i].ino == st.st_ino)
			return 1;
	if (r->nseen == r->capseen) {
		size_t cap = r->capseen ? 2 * r->capseen : 8;
		void *v = realloc(r->seen, cap * sizeof(*r->seen));
		if (!v)
			return 1;
		r->seen = v;
		r->capseen = cap;
	}
	r->seen[r->nseen].dev = st.st_dev;
	r->seen[r->nseen++].ino = st.st_ino;
	return 0;
}

static void add_where(struct repo *rp, char *dir, char *prefix, int worktree)
{
	struct where *v = realloc(rp->wheres, (rp->nwheres + 1) * sizeof(*v));

	if (!v || !dir || !prefix) {
		free(v ? NULL : dir);
		free(prefix);
		if (v)
			rp->wheres = v;
		return;
	}
	rp->wheres = v;
	v[rp->nwheres].dir = dir;
	v[rp->nwheres].prefix = prefix;
	v[rp->nwheres++].worktree = worktree;
}

static void audit_repo(struct run *r, const char *dir, const char *prefix, const char *top);

/*
 * The repositories of submodules: modules/<name>/, where a name may hold slashes
 * (modules/a/b/), and a submodule's own under its modules/. Each is audited whole, its
 * findings prefixed with where it is.
 */
static void submodules(struct run *r, const struct repo *rp, const char *rel)
{
	char *folder = hexoid_join(rp->dir, rel), **names;
	struct hexoid_names list = { NULL, 0 };
	size_t i;
	struct where w = { rp->dir, rp->prefix, 0 };

	if (!folder)
		return;
	hexoid_dir_names(folder, HEXOID_DIR_FOLDERS, NULL, NULL, &list);
	names = list.v;
	for (i = 0; i < list.n && !r->stopped; i++) {
		char *sub = hexoid_join(folder, names[i]), *subrel = hexoid_join(rel, names[i]);
		if (sub && subrel) {
			if (is_gitdir(sub)) {
				int seen = seen_before(r, sub);
				if (seen) {
					file_finding(r, HEXOID_AREA_REFS, &w, subrel, HEXOID_AUDIT_BROKEN_LINK,
						     "a submodule's repository that is one already audited "
						     "(a link back into the repository?): not read again");
				} else {
					char *p = hexoid_concat(rp->prefix, subrel), *pp = p ? hexoid_concat(p, "/") : NULL;
					size_t nwt;
					char **wt = config_values(sub, "core.worktree", &nwt);
					char *subtop = nwt ? hexoid_resolve(sub, wt[nwt - 1]) : NULL;
					if (pp)
						audit_repo(r, sub, pp, subtop);
					free(subtop);
					while (nwt)
						free(wt[--nwt]);
					free(wt);
					free(p);
					free(pp);
				}
			} else {
				submodules(r, rp, subrel);
			}
		}
		free(sub);
		free(subrel);
	}
	hexoid_names_free(&list);
	free(folder);
}

static void audit_repo(struct run *r, const char *dir, const char *prefix, const char *top)
{
	struct repo rp;
	struct repo_config c;
	struct objscan os;
	pthread_t thread;
	char *wtdir;
	struct hexoid_names list = { NULL, 0 };
	size_t i;
	int a;

	memset(&rp, 0, sizeof(rp));
	memset(&os, 0, sizeof(os));
	rp.prefix = (char *)prefix;
	if (!(rp.dir = strdup(dir)))
		return;
	rp.top = (char *)(top ? top : dir);
	read_config(dir, &c);
	if (c.algo < 0 || c.reftable < 0) {
		struct where w = { rp.dir, (char *)"", 0 };
		char *p = strlen(prefix) ? strndup(prefix, strlen(prefix) - 1) : strdup(".");
		file_finding(r, HEXOID_AREA_REFS, &w, p ? p : ".", HEXOID_AUDIT_UNREADABLE,
			     "unknown %s in its config: not read", c.unknown);
		free(p);
		free(rp.dir);
		return;
	}
	rp.algo = (enum hexoid_algo)c.algo;
	rp.reftable = c.reftable;

	/* The repository's own git directory, then each linked worktree's, by name. */
	add_where(&rp, strdup(dir), strdup(prefix), 0);
	wtdir = hexoid_join(dir, "worktrees");
	if (wtdir)
		hexoid_dir_names(wtdir, HEXOID_DIR_FOLDERS, NULL, NULL, &list);
	for (i = 0; i < list.n; i++) {
		char *wd = hexoid_join(wtdir, list.v[i]), *p = hexoid_concat(prefix, "worktrees/"), *pp = NULL;
		if (p && wd)
			pp = hexoid_concat(p, list.v[i]);
		free(p);
		p = pp ? hexoid_concat(pp, "/") : NULL;
		free(pp);
		add_where(&rp, wd, p, 1);
	}
	hexoid_names_free(&list);
	free(wtdir);

	/* Objects meanwhile, with threads to spare. */
	os.r = r;
	os.rp = &rp;
	if (r->o.jobs > 1) {
		pthread_mutex_init(&os.lock, NULL);
		pthread_cond_init(&os.wake, NULL);
		/* Set before the thread starts: it reads it. */
		os.threaded = 1;
		if (pthread_create(&thread, NULL, objects_main, &os) != 0) {
			os.threaded = 0;
			pthread_mutex_destroy(&os.lock);
			pthread_cond_destroy(&os.wake);
		}
	}
	for (a = 0; a < HEXOID_AREA_LOOSE_OBJECTS && !r->stopped; a++)
		for (i = 0; i < rp.nwheres && !r->stopped; i++)
			area_in(r, (enum hexoid_audit_area)a, &rp, &rp.wheres[i]);
	if (os.threaded) {
		if (r->stopped) {
			pthread_mutex_lock(&os.lock);
			os.stop = 1;
			pthread_mutex_unlock(&os.lock);
		}
		drain(&os);
		pthread_join(thread, NULL);
		for (; os.taken < os.n; os.taken++) {
			free(os.v[os.taken].path);
			free(os.v[os.taken].message);
		}
		free(os.v);
		pthread_mutex_destroy(&os.lock);
		pthread_cond_destroy(&os.wake);
		if (os.oom)
			snprintf(r->err, sizeof(r->err), "out of memory for the findings");
	} else if (!r->stopped) {
		scan_objects(&os);
	}
	r->audit->count[HEXOID_AREA_LOOSE_OBJECTS].scanned += os.scanned[0];
	r->audit->count[HEXOID_AREA_PACK_OBJECTS].scanned += os.scanned[1];
	r->audit->count[HEXOID_AREA_ALTERNATES].scanned += os.scanned[2];

	if (!r->stopped)
		submodules(r, &rp, "modules");

	for (i = 0; i < rp.nwheres; i++) {
		free(rp.wheres[i].dir);
		free(rp.wheres[i].prefix);
	}
	free(rp.wheres);
	free(rp.dir);
}

/* An objects folder alone: its loose objects, packs and alternates, in this thread. */
static void audit_objects(struct run *r, const char *dir)
{
	struct repo rp;
	struct objscan os;

	memset(&rp, 0, sizeof(rp));
	memset(&os, 0, sizeof(os));
	rp.dir = (char *)dir;
	rp.top = (char *)dir;
	rp.prefix = (char *)"";
	rp.algo = r->audit->algo;
	rp.objects_only = 1;
	os.r = r;
	os.rp = &rp;
	scan_objects(&os);
	r->audit->count[HEXOID_AREA_LOOSE_OBJECTS].scanned += os.scanned[0];
	r->audit->count[HEXOID_AREA_PACK_OBJECTS].scanned += os.scanned[1];
	r->audit->count[HEXOID_AREA_ALTERNATES].scanned += os.scanned[2];
}

int hexoid_audit_run(struct hexoid_audit *a, const struct hexoid_audit_options *options,
		     char *err, size_t errlen)
{
	struct run r;

	if (!a || !options || options->size < offsetof(struct hexoid_audit_options, ctx) + sizeof(void *)) {
		snprintf(err, errlen, "bad options: set them with HEXOID_AUDIT_OPTIONS_INIT");
		return -1;
	}
	memset(&r, 0, sizeof(r));
	memcpy(&r.o, options, sizeof(r.o) < options->size ? sizeof(r.o) : options->size);
	if (r.o.jobs == 0)
		r.o.jobs = 1;
	if (r.o.jobs > 256) {
		snprintf(err, errlen, "bad options: jobs %u (1..256)", r.o.jobs);
		return -1;
	}
	r.audit = a;
	memset(a->count, 0, sizeof(a->count));
	seen_before(&r, a->common);
	if (a->objects_only)
		audit_objects(&r, a->common);
	else
		audit_repo(&r, a->common, "", a->top);
	free(r.seen);
	if (r.err[0]) {
		snprintf(err, errlen, "%s", r.err);
		return -1;
	}
	return r.stopped ? 1 : 0;
}
