/*
 * objects/info/alternates, read as git reads it (alternates.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alternates.h"
#include "util/file.h"

struct reader {
	struct hexoid_alternates *out;
	const char *const *known;
	size_t nknown;
	const char *first; /* objects_dir, resolved */
	char *err;
	size_t errlen;
};

static int oom(struct reader *r, const char *where)
{
	if (r->err && r->errlen)
		snprintf(r->err, r->errlen, "%s: out of memory", where);
	return -1;
}

/* Append an entry, taking `path`. -1 when out of memory (path freed). */
static int append(struct hexoid_alternates *out, char *path, unsigned depth, int error, int file)
{
	if (out->n == out->cap) {
		size_t cap = out->cap ? 2 * out->cap : 8;
		struct hexoid_alternate *v = realloc(out->v, cap * sizeof(*v));
		if (!v) {
			free(path);
			return -1;
		}
		out->v = v;
		out->cap = cap;
	}
	out->v[out->n].path = path;
	out->v[out->n].depth = depth;
	out->v[out->n].error = error;
	out->v[out->n].file = file;
	out->n++;
	return 0;
}

static int met(const struct reader *r, const char *dir)
{
	size_t i;

	if (!strcmp(dir, r->first))
		return 1;
	for (i = 0; i < r->nknown; i++)
		if (!strcmp(dir, r->known[i]))
			return 1;
	for (i = 0; i < r->out->n; i++)
		if (!r->out->v[i].error && !strcmp(dir, r->out->v[i].path))
			return 1;
	return 0;
}

/*
 * A quoted entry at s[0] == '"', up to end: unquoted into out (room for end - s bytes),
 * as git's unquote_c_style() does. Returns where the entry ends (past its closing quote),
 * or NULL when the quoting is broken.
 */
static const char *unquote(const char *s, const char *end, char *out)
{
	size_t w = 0;

	for (s++; s < end; s++) {
		int c = (unsigned char)*s, k;
		if (c == '"') {
			out[w] = 0;
			return s + 1;
		}
		if (c != '\\') {
			out[w++] = (char)c;
			continue;
		}
		if (++s == end)
			return NULL;
		switch (*s) {
		case 'a': c = '\a'; break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'v': c = '\v'; break;
		case '\\': case '"': c = *s; break;
		case '0': case '1': case '2': case '3':
			/* three octal digits, the first at most 3: one byte */
			for (c = 0, k = 0; k < 3; k++, s++) {
				if (s == end || *s < '0' || *s > '7')
					return NULL;
				c = c << 3 | (*s - '0');
			}
			s--;
			break;
		default:
			return NULL;
		}
		out[w++] = (char)c;
	}
	return NULL; /* no closing quote */
}

static int read_file(struct reader *r, const char *dir, unsigned depth);

/* One entry of dir's file, NUL-terminated in entry. */
static int take(struct reader *r, const char *dir, unsigned depth, const char *entry)
{
	size_t dlen = strlen(dir), elen = strlen(entry);
	char *named = malloc(dlen + elen + 2), *real;
	struct stat st;

	if (!named)
		return oom(r, dir);
	if (entry[0] == '/') {
		memcpy(named, entry, elen + 1);
	} else {
		memcpy(named, dir, dlen);
		named[dlen] = '/';
		memcpy(named + dlen + 1, entry, elen + 1);
	}
	real = realpath(named, NULL);
	if (!real || stat(real, &st) || !S_ISDIR(st.st_mode)) {
		int e = real ? ENOTDIR : errno;
		free(real);
		return append(r->out, named, depth + 1, e ? e : ENOENT, 0) ? oom(r, dir) : 0;
	}
	free(named);
	if (met(r, real)) {
		free(real);
		return 0;
	}
	if (append(r->out, real, depth + 1, 0, 0))
		return oom(r, dir);
	return read_file(r, r->out->v[r->out->n - 1].path, depth + 1);
}

/*
 * dir's info/alternates, dir being at `depth` below the first directory. The file is
 * stat'ed before it is opened, and only a regular one is read: a FIFO in its place
 * would block the open, a device could be anything. At the last depth git still reads
 * the file (and says what it names is nested too deep): so is it here, for an unreadable
 * one to be told, but what it names is not taken.
 */
static int read_file(struct reader *r, const char *dir, unsigned depth)
{
	size_t dlen = strlen(dir);
	char *path = malloc(dlen + 18), *entry = NULL;
	const char *s, *end;
	struct hexoid_file f;
	enum hexoid_file_status st;
	int rc = 0;

	if (!path)
		return oom(r, dir);
	memcpy(path, dir, dlen);
	memcpy(path + dlen, "/info/alternates", 17);
	st = hexoid_file_read_at(AT_FDCWD, path, 0, 0, &f);
	if (st == HEXOID_FILE_MISSING) {
		free(path);
		return 0; /* none */
	}
	if (st != HEXOID_FILE_OK) {
		int why = st == HEXOID_FILE_BROKEN_LINK ? ENOENT
			  : st == HEXOID_FILE_NOT_REGULAR ? (S_ISDIR(f.mode) ? EISDIR : EINVAL)
			  : f.error ? f.error : EIO;
		return append(r->out, path, depth, why, 1) ? oom(r, dir) : 0;
	}
	free(path);
	s = f.data;
	end = memchr(s, 0, f.size); /* where git's reading stops */
	if (!end)
		end = s + f.size;
	if (s < end && !(entry = malloc((size_t)(end - s) + 1)))
		rc = oom(r, dir);
	while (!rc && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *e;
		if (!nl)
			nl = end;
		entry[0] = 0;
		if (*s == '#') {
			e = nl; /* a comment */
		} else if (*s != '"' || !(e = unquote(s, end, entry))) {
			memcpy(entry, s, (size_t)(nl - s));
			entry[nl - s] = 0;
			e = nl;
		}
		s = e < end ? e + 1 : end;
		if (!entry[0])
			continue;
		if (depth == HEXOID_ALTERNATES_DEPTH)
			break; /* nested too deep: git takes none of it */
		rc = take(r, dir, depth, entry);
	}
	free(entry);
	free(f.data);
	return rc;
}

int hexoid_alternates_read(const char *objects_dir, const char *const *known, size_t nknown,
			   struct hexoid_alternates *out, char *err, size_t errlen)
{
	struct reader r = { out, known, nknown, NULL, err, errlen };
	char *first = objects_dir ? realpath(objects_dir, NULL) : NULL;
	int rc;

	if (!first) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", objects_dir ? objects_dir : "(null)",
				 strerror(objects_dir ? errno : EINVAL));
		return -1;
	}
	r.first = first;
	/* The file and what it names relative to objects_dir as the caller named it: an
	 * entry that leads nowhere, or the file when it cannot be read, is told as
	 * objects_dir/... */
	rc = read_file(&r, objects_dir, 0);
	free(first);
	return rc;
}

void hexoid_alternates_free(struct hexoid_alternates *list)
{
	size_t i;

	for (i = 0; i < list->n; i++)
		free(list->v[i].path);
	free(list->v);
	memset(list, 0, sizeof(*list));
}
