/*
 * The refs of a reftable stack ($GIT_DIR/reftable/), as far as the audit needs them: a
 * reftable keeps object IDs in binary, so none of its values can be uppercase, but the
 * names of some refs are IDs (refs/replace/<id>), and some refs lead to more IDs (the
 * notes trees of the refs under refs/notes/). Only the ref blocks are read; the index, object and log
 * blocks are not needed to list refs in order.
 *
 * The format (git's Documentation/technical/reftable.adoc): tables.list names the
 * tables, oldest first; a newer table's record of a name replaces an older one's, and
 * a deletion removes it. A table is a header, ref blocks, then other blocks and a
 * footer. Every length and offset is checked against the file before it is used.
 *
 * Git replaces tables while the stack is read (every ref update may compact it): a table
 * that tables.list named and that is gone means the stack changed, and it is read again
 * from the start, as git's reftable stack reloads itself and retries.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/reftable.h"
#include "pack/common.h"
#include "util/hook.h"

struct rt_rec {
	char *name;
	size_t seq; /* its table's place in the stack, then its place in the table */
	unsigned char type;
	unsigned char oid[HEXOID_MAX_RAWSZ];
};

/*
 * Bounds on what a table may cost, none of which git's own tables come near. Prefix
 * compression lets each record repeat all of the name before it for a byte or two, so
 * 165 KB of table could name 1.3 GB; tables.list is a few dozen lines.
 */
#define RT_NAME_MAX ((size_t)64 << 10)   /* one ref name */
#define RT_NAMES_MAX ((size_t)64 << 20)  /* the names kept from one stack */
#define RT_LIST_MAX ((size_t)1 << 20)    /* tables.list */

struct rt_read {
	const char *prefix;
	size_t plen, rawsz, seq, kept;
	struct rt_rec *v;
	size_t n, cap;
	char *err;
	size_t errsz;
};

static int fail(struct rt_read *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct rt_read *rd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rd->err, rd->errsz, fmt, ap);
	va_end(ap);
	return -1;
}

static uint64_t be(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

/* A varint as packs' offsets encode them; 0 past `end` or on overflow. */
static int varint(const unsigned char **p, const unsigned char *end, uint64_t *out)
{
	const unsigned char *q = *p;
	uint64_t v;

	if (q >= end)
		return 0;
	v = *q & 0x7f;
	while (*q++ & 0x80) {
		if (q >= end || v > (UINT64_MAX >> 7) - 1)
			return 0;
		v = ((v + 1) << 7) | (*q & 0x7f);
	}
	*p = q;
	*out = v;
	return 1;
}

static int keep(struct rt_read *rd, const char *name, size_t len, unsigned type,
		const unsigned char *oid)
{
	struct rt_rec *r;

	if (rd->n == rd->cap) {
		size_t cap = rd->cap ? 2 * rd->cap : 16;
		struct rt_rec *v = realloc(rd->v, cap * sizeof(*v));
		if (!v)
			return fail(rd, "out of memory");
		rd->v = v;
		rd->cap = cap;
	}
	if ((rd->kept += len + 1) > RT_NAMES_MAX)
		return fail(rd, "more than %zu MiB of ref names kept: not read further",
			    RT_NAMES_MAX >> 20);
	r = &rd->v[rd->n];
	if (!(r->name = strndup(name, len)))
		return fail(rd, "out of memory");
	r->seq = rd->seq++;
	r->type = (unsigned char)type;
	memset(r->oid, 0, sizeof(r->oid));
	if (oid)
		memcpy(r->oid, oid, rd->rawsz);
	rd->n++;
	return 0;
}

/* The ref records of one block, s[0, len) after its 4-byte block header. */
static int records(struct rt_read *rd, const char *table, const unsigned char *s, size_t len,
		   char **name, size_t *cap)
{
	const unsigned char *p = s, *end = s + len;
	size_t have = 0;

	while (p < end) {
		uint64_t prefix, word, delta, tlen;
		size_t suffix;
		unsigned type;
		if (!varint(&p, end, &prefix) || !varint(&p, end, &word))
			return fail(rd, "reftable/%s: a ref record runs past its block", table);
		suffix = (size_t)(word >> 3);
		type = (unsigned)(word & 7);
		if (prefix > have || suffix > (size_t)(end - p))
			return fail(rd, "reftable/%s: a ref name runs past its block", table);
		if (prefix + suffix > RT_NAME_MAX)
			return fail(rd, "reftable/%s: a ref name longer than %zu KiB", table,
				    RT_NAME_MAX >> 10);
		if (prefix + suffix + 1 > *cap) {
			size_t c = 2 * (prefix + suffix + 1);
			char *b = realloc(*name, c);
			if (!b)
				return fail(rd, "out of memory");
			*name = b;
			*cap = c;
		}
		memcpy(*name + prefix, p, suffix);
		have = (size_t)prefix + suffix;
		p += suffix;
		if (!varint(&p, end, &delta))
			return fail(rd, "reftable/%s: a ref record runs past its block", table);
		const unsigned char *oid = NULL;
		switch (type) {
		case 0: /* a deletion */
			break;
		case 1: /* an ID */
		case 2: /* an ID and what it peels to */
			if ((size_t)(end - p) < type * rd->rawsz)
				return fail(rd, "reftable/%s: a ref's value runs past its block", table);
			oid = p;
			p += type * rd->rawsz;
			break;
		case 3: /* a symbolic ref */
			if (!varint(&p, end, &tlen) || tlen > (uint64_t)(end - p))
				return fail(rd, "reftable/%s: a symref's target runs past its block",
					    table);
			p += tlen;
			break;
		default:
			return fail(rd, "reftable/%s: unknown ref value type %u", table, type);
		}
		if (have >= rd->plen && !memcmp(*name, rd->prefix, rd->plen) &&
		    keep(rd, *name, have, type, oid))
			return -1;
	}
	return 0;
}

/* One table: its header, then its ref blocks until a block of another kind. */
static int table_refs(struct rt_read *rd, const char *table, const unsigned char *f,
		      size_t size, enum hexoid_algo algo)
{
	size_t hlen, flen, at, limit, bsize, step;
	char *name = NULL;
	size_t cap = 0;
	int ret = 0;

	if (size < 24 || memcmp(f, "REFT", 4) || (f[4] != 1 && f[4] != 2))
		return fail(rd, "reftable/%s: not a reftable (version 1 or 2)", table);
	hlen = f[4] == 1 ? 24 : 28;
	flen = f[4] == 1 ? 68 : 72;
	if (size < hlen + flen)
		return fail(rd, "reftable/%s: shorter than its header and footer", table);
	if (f[4] == 2 && memcmp(f + 24, algo == HEXOID_SHA256 ? "s256" : "sha1", 4))
		return fail(rd, "reftable/%s: its hash is not the repository's", table);
	bsize = (size_t)be(f + 5, 3);
	limit = size - flen;
	for (at = 0; at < limit;) {
		/* The first block begins at 0 with the file's header in it. */
		size_t head = at ? at : hlen, blen, nrestart, rend;
		if (head + 4 > limit || f[head] != 'r')
			break;
		blen = (size_t)be(f + head + 1, 3);
		if (blen < (head - at) + 6 || blen > limit - at) {
			ret = fail(rd, "reftable/%s: a ref block's length is out of the file", table);
			break;
		}
		nrestart = (size_t)be(f + at + blen - 2, 2);
		if (!nrestart || 3 * nrestart + 2 > blen - (head - at) - 4) {
			ret = fail(rd, "reftable/%s: a ref block's restart table is out of the block",
				   table);
			break;
		}
		rend = at + blen - 2 - 3 * nrestart;
		if ((ret = records(rd, table, f + head + 4, rend - head - 4, &name, &cap)))
			break;
		/* A block shorter than the table's block size is padded with zeros up to it;
		 * one followed by anything else is not, and the next block starts right
		 * after it, as git's reader takes it (block.c): taking the padding for
		 * granted landed in the middle of the next block. */
		step = bsize && (blen >= bsize || at + blen >= size || !f[at + blen]) ? bsize : blen;
		at += step;
		if (bsize && blen > bsize) {
			ret = fail(rd, "reftable/%s: a ref block is longer than the block size", table);
			break;
		}
	}
	free(name);
	return ret;
}

static int by_name_then_seq(const void *x, const void *y)
{
	const struct rt_rec *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	return c ? c : (a->seq > b->seq) - (a->seq < b->seq);
}

/* Read the regular file at path whole, if it is no larger than max (else EFBIG); a NUL
 * after it. 0, or -1 with errno. */
static int read_file(const char *path, unsigned char **data, size_t *size, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	size_t got = 0;

	*data = NULL;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > max ||
	    !(*data = malloc((size_t)st.st_size + 1))) {
		int e = errno && !S_ISREG(st.st_mode) ? EINVAL
			: S_ISREG(st.st_mode) && (uint64_t)st.st_size > max ? EFBIG
			: errno ? errno : ENOMEM;
		close(fd);
		errno = e;
		return -1;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, *data + got, (size_t)st.st_size - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	*size = got;
	return 0;
}

/* The newest record of each name the tables gave, unless it deletes the ref. */
static int merge(struct rt_read *rd, int ret, struct rt_ref **out, size_t *nout)
{
	size_t i, n = 0;

	if (!ret && rd->n) {
		qsort(rd->v, rd->n, sizeof(*rd->v), by_name_then_seq);
		*out = calloc(rd->n, sizeof(**out));
		if (!*out)
			ret = fail(rd, "out of memory");
	}
	for (i = 0; i < rd->n; i++) {
		int last = i + 1 == rd->n || strcmp(rd->v[i].name, rd->v[i + 1].name);
		if (!ret && last && rd->v[i].type != 0) {
			(*out)[n].name = rd->v[i].name;
			(*out)[n].type = rd->v[i].type;
			memcpy((*out)[n].oid, rd->v[i].oid, sizeof(rd->v[i].oid));
			n++;
		} else {
			free(rd->v[i].name);
		}
	}
	free(rd->v);
	if (ret) {
		hexoid_reftable_free(*out, n);
		*out = NULL;
		n = 0;
	}
	*nout = n;
	return ret;
}

/* How often the stack is read again when a table it names is gone. */
#define STACK_READS 5

/* Whether the line `name` (within list, whose earlier lines end in NUL now) is one
 * tables.list named before it. */
static int listed_before(const unsigned char *list, const char *name)
{
	const char *p = (const char *)list;

	while (p < name) {
		if (!strcmp(p, name))
			return 1;
		p += strlen(p) + 1;
	}
	return 0;
}

/*
 * One reading of the stack: tables.list, then each table it names. 0, -1 with err set,
 * or 1 when a table named is not there: git replaced it (pack-refs, or the compaction
 * after a ref update, writes the new table and tables.list, then deletes the old
 * tables), and tables.list names others now.
 */
static int read_stack(struct rt_read *rd, const char *gitdir, enum hexoid_algo algo)
{
	size_t len = strlen(gitdir), size;
	char *path = malloc(len + 64), *line, *next;
	unsigned char *list;
	int ret = 0;

	if (!path)
		return fail(rd, "out of memory");
	snprintf(path, len + 64, "%s/reftable/tables.list", gitdir);
	if (read_file(path, &list, &size, RT_LIST_MAX)) {
		free(path);
		return fail(rd, "reftable/tables.list: %s", strerror(errno ? errno : EIO));
	}
	hexoid_hook(HEXOID_HOOK_REFTABLE, path);
	list[size] = 0;
	/* A NUL would end the names here and hide the tables after it; git takes it as part
	 * of a name that no table has, and reads no ref at all. */
	if ((line = memchr(list, 0, size))) {
		ret = fail(rd, "reftable/tables.list: a NUL byte at offset %zu: git reads no table",
			   (size_t)((unsigned char *)line - list));
		free(list);
		free(path);
		return ret;
	}
	for (line = (char *)list; *line && !ret; line = next) {
		struct pk_map m;
		char err[256];
		char *full;
		next = strchr(line, '\n');
		next = next ? (*next = 0, next + 1) : line + strlen(line);
		if (!*line)
			continue;
		if (strchr(line, '/') || line[0] == '.') {
			ret = fail(rd, "reftable/tables.list: not a table's name: %s", line);
			break;
		}
		if (!(full = malloc(len + strlen(line) + 16))) {
			ret = fail(rd, "out of memory");
			break;
		}
		sprintf(full, "%s/reftable/%s", gitdir, line);
		if (listed_before(list, line)) {
			/* The same table twice: read once (its records, newer or older, are
			 * the same ones). */
		} else if (hexoid_pk_map_file(&m, full, err, sizeof(err))) {
			int e = errno ? errno : EIO;
			ret = fail(rd, "reftable/%s: %s", line, e == EINVAL ? "not a regular file" : strerror(e));
			if (e == ENOENT)
				ret = 1;
		} else {
			/* Mapped, not read: a sparse table of gigabytes costs what is read of it. */
			ret = table_refs(rd, line, m.data, m.size, algo);
			hexoid_pk_unmap(&m);
		}
		free(full);
	}
	free(list);
	free(path);
	return ret;
}

int hexoid_reftable_refs(const char *gitdir, const char *prefix, enum hexoid_algo algo,
			 struct rt_ref **out, size_t *nout, char *err, size_t errsz)
{
	struct rt_read rd = { .prefix = prefix, .plen = strlen(prefix), .rawsz = hexoid_rawsz(algo),
			      .err = err, .errsz = errsz };
	int ret = 1, reads;

	*out = NULL;
	*nout = 0;
	/* A stack that changed while read is read again from its new tables.list, as git
	 * reloads it; one still changing after that many readings is told as it was last. */
	for (reads = 0; ret == 1 && reads < STACK_READS; reads++) {
		while (rd.n)
			free(rd.v[--rd.n].name);
		rd.seq = 0;
		ret = read_stack(&rd, gitdir, algo);
	}
	return merge(&rd, ret ? -1 : 0, out, nout);
}

int hexoid_reftable_refs_buffers(const unsigned char *const *tables, const size_t *sizes, size_t n,
				 const char *prefix, enum hexoid_algo algo, struct rt_ref **out,
				 size_t *nout, char *err, size_t errsz)
{
	struct rt_read rd = { .prefix = prefix, .plen = strlen(prefix), .rawsz = hexoid_rawsz(algo),
			      .err = err, .errsz = errsz };
	int ret = 0;

	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < n && !ret; i++)
		ret = table_refs(&rd, "table", tables[i], sizes[i], algo);
	return merge(&rd, ret, out, nout);
}

void hexoid_reftable_free(struct rt_ref *refs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(refs[i].name);
	free(refs);
}
