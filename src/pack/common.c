/*
 * Mapped files, hashing (OpenSSL's libcrypto), bounded inflation (zlib), findings.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "crypto.h"
#include "util/options.h"

int hexoid_pk_map_file(struct pk_map *map, const char *path, char *err, size_t errlen)
{
	struct stat st;
	/* O_NONBLOCK: a FIFO put where a file should be opens at once, and is no regular
	 * file; on a regular file the flag changes nothing. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	map->data = NULL;
	map->size = 0;
	/* errno is kept to the end: a caller tells a file git deleted meanwhile (ENOENT). */
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		/* Not errno here: fstat succeeded, and what errno held (ENOENT from some
		 * earlier call) would be this file's reason, and a file "deleted meanwhile". */
		int e = S_ISDIR(st.st_mode) ? EISDIR : 0;
		snprintf(err, errlen, "%s: %s", path, e ? strerror(e) : "not a regular file");
		close(fd);
		errno = e ? e : EINVAL;
		return -1;
	}
	if ((uint64_t)st.st_size > SIZE_MAX) {
		snprintf(err, errlen, "%s: too large to map", path);
		close(fd);
		errno = EFBIG;
		return -1;
	}
	map->size = (size_t)st.st_size;
	if (map->size) {
		void *p = mmap(NULL, map->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			int e = errno;
			snprintf(err, errlen, "%s: %s", path, strerror(e));
			close(fd);
			map->size = 0;
			errno = e;
			return -1;
		}
		map->data = p;
	}
	close(fd);
	return 0;
}

void hexoid_pk_unmap(struct pk_map *map)
{
	if (map->data)
		munmap((void *)map->data, map->size);
	map->data = NULL;
	map->size = 0;
}

const char *hexoid_pk_hash_unavailable(void)
{
	const char *why = NULL;
	return hexoid_pk_crypto(&why) ? NULL : why;
}

static int digest2(enum hexoid_algo algo, const void *a, size_t alen, const void *b,
		   size_t blen, unsigned char *out)
{
	const char *why;
	const struct hexoid_pk_crypto *f = hexoid_pk_crypto(&why);
	const EVP_MD *md;
	EVP_MD_CTX *c;
	int ok;

	if (!f)
		return -1;
	md = algo == HEXOID_SHA1 ? f->sha1() : algo == HEXOID_SHA256 ? f->sha256() : NULL;
	if (!md || !(c = f->ctx_new()))
		return -1;
	ok = f->init(c, md, NULL) && f->update(c, a, alen) && (!blen || f->update(c, b, blen)) &&
	     f->final(c, out, NULL);
	f->ctx_free(c);
	return ok ? 0 : -1;
}

int hexoid_pk_object_id(enum hexoid_algo algo, enum hexoid_object_type type, const void *data,
		 size_t len, unsigned char *out)
{
	char hdr[48];
	const char *name = hexoid_object_type_name(type);
	int n;

	if (!name)
		return -1;
	n = snprintf(hdr, sizeof(hdr), "%s %zu", name, len);
	return digest2(algo, hdr, (size_t)n + 1, data, len, out);
}

int hexoid_pk_digest(enum hexoid_algo algo, const void *data, size_t len, unsigned char *out)
{
	return digest2(algo, data, len, NULL, 0, out);
}

uint32_t hexoid_pk_crc32(const void *data, size_t len)
{
	return libdeflate_crc32(0, data, len);
}

int hexoid_pk_inflate(struct libdeflate_decompressor *d, z_stream *z, const unsigned char *in,
	       size_t inlen, unsigned char *out, size_t outlen, size_t *used, char *why,
	       size_t whylen)
{
	size_t in_done = 0, out_done = 0, cap = outlen + PK_INFLATE_SLACK;
	int rc = Z_OK;

	*used = 0;
	if (d) {
		size_t got_in = 0, got_out = 0;
		if (libdeflate_zlib_decompress_ex(d, in, inlen, out, outlen, &got_in, &got_out) ==
			    LIBDEFLATE_SUCCESS &&
		    got_out == outlen) {
			*used = got_in;
			return 0;
		}
		/* zlib says what is wrong (and decides: it is the reference) */
	}
	if (inflateReset(z) != Z_OK) {
		snprintf(why, whylen, "zlib cannot start");
		return -1;
	}
	/* zlib counts in uInt: feed at most 1 GiB at a time each way. */
	while (rc == Z_OK) {
		size_t in_chunk = inlen - in_done, out_chunk = cap - out_done;
		uInt in_before, out_before;

		if (in_chunk > (1u << 30))
			in_chunk = 1u << 30;
		if (out_chunk > (1u << 30))
			out_chunk = 1u << 30;
		z->next_in = (unsigned char *)(in + in_done);
		z->avail_in = (uInt)in_chunk;
		z->next_out = out + out_done;
		z->avail_out = (uInt)out_chunk;
		in_before = z->avail_in;
		out_before = z->avail_out;
		rc = inflate(z, Z_NO_FLUSH);
		in_done += in_before - z->avail_in;
		out_done += out_before - z->avail_out;
		if (out_done > outlen) {
			snprintf(why, whylen, "zlib stream inflates to more than the %zu bytes its header says",
				 outlen);
			return -1;
		}
		if (rc == Z_BUF_ERROR && in_done == inlen) {
			snprintf(why, whylen, "zlib stream truncated after %zu bytes (%zu of %zu inflated)",
				 in_done, out_done, outlen);
			return -1;
		}
		if (rc == Z_BUF_ERROR)
			rc = Z_OK; /* the other buffer was the one that ran out: go on */
	}
	*used = in_done;
	if (rc != Z_STREAM_END) {
		snprintf(why, whylen, "zlib: %s after %zu bytes",
			 z->msg ? z->msg : rc == Z_MEM_ERROR ? "out of memory" : "corrupt stream",
			 in_done);
		return -1;
	}
	if (out_done != outlen) {
		snprintf(why, whylen, "zlib stream inflates to %zu bytes where the header says %zu",
			 out_done, outlen);
		return -1;
	}
	return 0;
}

struct hexoid_finding *hexoid_pk_add(struct pk_list *list, uint64_t key, enum hexoid_algo algo,
			      enum hexoid_code code, const char *path, uint64_t offset)
{
	struct pk_found *slot;

	if (list->n == list->cap) {
		size_t cap = list->cap ? list->cap * 2 : 16;
		struct pk_found *v = realloc(list->v, cap * sizeof(*v));
		if (!v) {
			list->oom = 1;
			return NULL;
		}
		list->v = v;
		list->cap = cap;
	}
	slot = &list->v[list->n];
	memset(slot, 0, sizeof(*slot));
	slot->key = key;
	slot->rank = list->rank;
	slot->seq = list->n++;
	slot->f.code = code;
	slot->f.cls = hexoid_code_class(code);
	slot->f.path = path;
	slot->f.algo = algo;
	slot->f.offset = offset;
	return &slot->f;
}

void hexoid_pk_list_free(struct pk_list *list)
{
	free(list->v);
	memset(list, 0, sizeof(*list));
}

void hexoid_pk_say(struct hexoid_finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
}

struct check_ctx {
	struct pk_list *out;
	uint64_t key;
	const char *path;
	uint64_t offset;
	enum hexoid_object_type type;
	const unsigned char *oid;
	size_t rawsz;
	enum hexoid_algo algo;
};

static int on_header(void *p, const struct hexoid_header_problem *hp)
{
	struct check_ctx *c = p;
	struct hexoid_finding *f = hexoid_pk_add(c->out, c->key, c->algo, hp->code, c->path, c->offset);

	if (!f)
		return 1;
	f->type = c->type;
	f->header = hp->header;
	f->line = hp->line;
	f->column = hp->column;
	if (c->oid) {
		f->has_oid = 1;
		memcpy(f->oid, c->oid, c->rawsz);
	}
	hexoid_pk_say(f, "%s", hp->message);
	return 0;
}

void hexoid_pk_check_object(struct pk_list *out, uint64_t key, const char *path, uint64_t offset,
		     enum hexoid_object_type type, const unsigned char *text, size_t len,
		     const unsigned char *oid, enum hexoid_algo algo, int verify_ids)
{
	struct check_ctx c = { out, key, path, offset, type, oid, hexoid_rawsz(algo), algo };

	hexoid_object_check(type, text, len, algo, on_header, &c);
	if (verify_ids && oid) {
		unsigned char got[HEXOID_MAX_RAWSZ];
		struct hexoid_finding *f;
		char hex[2 * HEXOID_MAX_RAWSZ + 1];

		if (hexoid_pk_object_id(algo, type, text, len, got) == 0 && !memcmp(got, oid, c.rawsz))
			return;
		f = hexoid_pk_add(out, key, algo, HEXOID_CODE_ID_MISMATCH, path, offset);
		if (!f)
			return;
		f->type = type;
		f->has_oid = 1;
		memcpy(f->oid, oid, c.rawsz);
		hexoid_encode(hex, 2 * c.rawsz, got, 1, algo);
		hex[2 * c.rawsz] = 0;
		hexoid_pk_say(f, "content hashes to %s", hex);
	}
}

static int cmp_found(const void *a, const void *b)
{
	const struct pk_found *x = *(const struct pk_found *const *)a;
	const struct pk_found *y = *(const struct pk_found *const *)b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return 0;
}

int hexoid_pk_emit(const struct hexoid_finding *f, const struct hexoid_scan_options *opt,
	    struct hexoid_scan_stats *stats)
{
	if (stats) {
		if (f->cls == HEXOID_CLASS_GIT3)
			stats->git3++;
		else
			stats->errors++;
	}
	return opt->on_finding && opt->on_finding(opt->ctx, f) != 0;
}

int hexoid_pk_report(struct pk_list *lists, size_t nlists, const struct hexoid_scan_options *opt,
	      struct hexoid_scan_stats *stats)
{
	const struct pk_found **all;
	size_t total = 0, k = 0, i, l;
	int stop = 0;

	for (l = 0; l < nlists; l++)
		total += lists[l].n;
	if (!total)
		return 0;
	/* seq only orders findings within one list; lists come in a fixed order, so
	 * renumber across them to keep the sort stable and deterministic. */
	for (l = 0; l < nlists; l++)
		for (i = 0; i < lists[l].n; i++)
			lists[l].v[i].seq = k++;
	all = malloc(total * sizeof(*all));
	if (!all) { /* no memory to sort: report in list order rather than not at all */
		for (l = 0; l < nlists && !stop; l++)
			for (i = 0; i < lists[l].n && !stop; i++)
				stop = hexoid_pk_emit(&lists[l].v[i].f, opt, stats);
	} else {
		for (l = 0, k = 0; l < nlists; l++)
			for (i = 0; i < lists[l].n; i++)
				all[k++] = &lists[l].v[i];
		qsort(all, total, sizeof(*all), cmp_found);
		for (i = 0; i < total && !stop; i++)
			stop = hexoid_pk_emit(&all[i]->f, opt, stats);
		free(all);
	}
	for (l = 0; l < nlists; l++)
		lists[l].n = 0;
	return stop;
}

int hexoid_scan_options_init(struct hexoid_scan_options *options, size_t size)
{
	/* HEXOID_SCAN_OPTIONS_INIT's zeros (jobs 0 is one thread). The first version is
	 * this one: the scans read it all. */
	return hexoid_options_init(options, size, sizeof(*options), HEXOID_NO_JOBS);
}

int hexoid_pk_options_ok(const struct hexoid_scan_options *opt)
{
	return opt && opt->size >= sizeof(struct hexoid_scan_options);
}

void hexoid_pk_stats_out(struct hexoid_scan_stats *dst, const struct hexoid_scan_stats *src)
{
	/* The sizes of the versions there have been: only the first, so far. A size that is
	 * none of them (0, or whatever an uninitialised struct holds) is taken as the
	 * first's, which every caller's struct has room for. */
	static const size_t known[] = { sizeof(struct hexoid_scan_stats) };
	size_t keep, size = known[0], i;

	if (!dst)
		return;
	keep = dst->size;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (keep == known[i])
			size = keep;
	memcpy((char *)dst + sizeof(dst->size), (const char *)src + sizeof(src->size),
	       size - sizeof(dst->size));
	dst->size = keep;
}

int hexoid_pk_progress(const struct hexoid_scan_options *opt, uint64_t done, uint64_t total,
		double *last, int force)
{
	struct timespec ts;
	double t;

	if (!opt->on_progress)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
	if (!force && t - *last < 0.1)
		return 0;
	*last = t;
	return opt->on_progress(opt->ctx, done, total) != 0;
}

static int delta_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	unsigned shift = 0;
	uint64_t r = 0;
	unsigned c;

	do {
		if (*p == end || shift > 63)
			return -1;
		c = *(*p)++;
		r |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	*v = r;
	return 0;
}

uint64_t hexoid_pk_delta_result_size(const unsigned char *d, size_t dlen)
{
	const unsigned char *p = d, *end = d + dlen;
	uint64_t src, dst;

	if (delta_varint(&p, end, &src) || delta_varint(&p, end, &dst))
		return UINT64_MAX;
	return dst;
}

unsigned char *hexoid_pk_apply_delta(const unsigned char *base, size_t base_len, const unsigned char *d,
			      size_t dlen, size_t *out_len, char *why, size_t whylen, int *oom)
{
	const unsigned char *p = d, *end = d + dlen;
	uint64_t src, dst, at = 0;
	unsigned char *out;

	if (delta_varint(&p, end, &src) || delta_varint(&p, end, &dst)) {
		snprintf(why, whylen, "delta sizes are cut short");
		return NULL;
	}
	if (src != base_len) {
		snprintf(why, whylen, "delta expects a base of %llu bytes, the base has %zu",
			 (unsigned long long)src, base_len);
		return NULL;
	}
	/* Each instruction byte makes at most 0x10000 bytes by copy... or 127 by insert, but
	 * a copy may name up to 0xffffff: bound by that. */
	if (dst > (uint64_t)dlen * 0xffffff || dst > SIZE_MAX - 1) {
		snprintf(why, whylen, "delta result of %llu bytes is impossible for %zu bytes of delta",
			 (unsigned long long)dst, dlen);
		return NULL;
	}
	out = malloc((size_t)dst + 1);
	if (!out) {
		*oom = 1;
		snprintf(why, whylen, "out of memory for a %llu-byte delta result", (unsigned long long)dst);
		return NULL;
	}
	while (p < end) {
		unsigned op = *p++;
		if (op & 0x80) {
			uint64_t off = 0, size = 0;
			unsigned b;
			for (b = 0; b < 4; b++)
				if (op & (1u << b)) {
					if (p == end)
						goto cut;
					off |= (uint64_t)*p++ << (8 * b);
				}
			for (b = 0; b < 3; b++)
				if (op & (0x10u << b)) {
					if (p == end)
						goto cut;
					size |= (uint64_t)*p++ << (8 * b);
				}
			if (size == 0)
				size = 0x10000;
			if (off + size > base_len || size > dst - at) {
				snprintf(why, whylen,
					 "delta copies %llu bytes from offset %llu of a %zu-byte base into %llu of %llu bytes",
					 (unsigned long long)size, (unsigned long long)off, base_len,
					 (unsigned long long)at, (unsigned long long)dst);
				free(out);
				return NULL;
			}
			memcpy(out + at, base + off, (size_t)size);
			at += size;
		} else if (op) {
			if (op > (size_t)(end - p) || op > dst - at) {
				snprintf(why, whylen, "delta inserts %u bytes past the end of the %s", op,
					 op > (size_t)(end - p) ? "delta" : "result");
				free(out);
				return NULL;
			}
			memcpy(out + at, p, op);
			p += op;
			at += op;
		} else {
			snprintf(why, whylen, "delta holds the reserved instruction 0 at byte %zu",
				 (size_t)(p - 1 - d));
			free(out);
			return NULL;
		}
	}
	if (at != dst) {
		snprintf(why, whylen, "delta makes %llu bytes where it says %llu",
			 (unsigned long long)at, (unsigned long long)dst);
		free(out);
		return NULL;
	}
	out[dst] = 0;
	*out_len = (size_t)dst;
	return out;
cut:
	snprintf(why, whylen, "delta instruction cut short at its end");
	free(out);
	return NULL;
}

enum hexoid_object_type hexoid_pk_object_type(const void *name, size_t n)
{
	static const char *const names[] = { NULL, "commit", "tree", "blob", "tag" };
	int t;

	for (t = 1; t <= 4; t++)
		if (strlen(names[t]) == n && !memcmp(name, names[t], n))
			return (enum hexoid_object_type)t;
	return HEXOID_OBJ_NONE;
}
