/*
 * The pack and loose-object scanner, tested from outside: packs, indexes and loose
 * objects are built here byte by byte from Git's format descriptions (zlib for the
 * streams, EVP for the IDs and checksums), sharing nothing with the scanner, then
 * damaged one way at a time. Every finding is compared exactly: code, offset, ID,
 * header, line and column, and a piece of the message.
 * SPDX-License-Identifier: MIT
 */
#include <ctype.h>
#include <malloc.h>
#include <pthread.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "hexoid_idx.h"
#include "hexoid_pack.h"
#include "test.h"

/* --- growable bytes ----------------------------------------------------------------- */

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void bput(struct buf *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->n + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			abort();
		b->cap = cap;
	}
	if (n && d)
		memcpy(b->p + b->n, d, n);
	b->n += n;
}

static void bbyte(struct buf *b, unsigned c)
{
	unsigned char x = (unsigned char)c;
	bput(b, &x, 1);
}

static void bstr(struct buf *b, const char *s)
{
	bput(b, s, strlen(s));
}

static void bfree(struct buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* --- hashing and IDs ---------------------------------------------------------------- */

static void digest(enum hexoid_algo algo, const void *a, size_t alen, const void *b, size_t blen,
		   unsigned char *out)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	if (!c || !EVP_DigestInit_ex(c, algo == HEXOID_SHA1 ? EVP_sha1() : EVP_sha256(), NULL) ||
	    !EVP_DigestUpdate(c, a, alen) || (blen && !EVP_DigestUpdate(c, b, blen)) ||
	    !EVP_DigestFinal_ex(c, out, NULL))
		abort();
	EVP_MD_CTX_free(c);
}

static const char *const type_names[] = { "", "commit", "tree", "blob", "tag" };

/* Git's object ID: the hash of "<type> <len>\0" and the content. */
static void oid_of(enum hexoid_algo algo, unsigned type, const void *d, size_t len,
		   unsigned char *out)
{
	char hdr[64];
	int n = snprintf(hdr, sizeof(hdr), "%s %zu", type_names[type], len);
	digest(algo, hdr, (size_t)n + 1, d, len, out);
}

/* A lowercase hex ID derived from seed, hexsz digits, NUL-terminated. */
static void hexid(char *out, enum hexoid_algo algo, unsigned seed)
{
	unsigned char raw[HEXOID_MAX_RAWSZ];
	digest(algo, &seed, sizeof(seed), NULL, 0, raw);
	hexoid_encode(out, hexoid_hexsz(algo), raw, 1, algo);
	out[hexoid_hexsz(algo)] = 0;
}

/* The first letter digit of hex at or after `from`, made uppercase; returns its index. */
static size_t upper_at(char *hex, size_t from)
{
	size_t i;
	for (i = from; hex[i]; i++)
		if (hex[i] >= 'a' && hex[i] <= 'f') {
			hex[i] = (char)toupper((unsigned char)hex[i]);
			return i;
		}
	/* all digits from there: force a letter */
	hex[from] = 'A';
	return from;
}

static void zdeflate(const void *d, size_t len, struct buf *out)
{
	uLongf zlen = compressBound((uLong)len);
	size_t at = out->n;
	bput(out, NULL, (size_t)zlen); /* room */
	if (compress2(out->p + at, &zlen, d, (uLong)len, 6) != Z_OK)
		abort();
	out->n = at + (size_t)zlen;
}

/* --- findings, collected ------------------------------------------------------------ */

struct rec {
	struct hexoid_finding f;
	char path[512];
};

struct got {
	struct rec *v;
	size_t n, cap;
	size_t stop_at; /* return nonzero at this call (1-based); 0 never */
	size_t calls;
};

static int collect(void *ctx, const struct hexoid_finding *f)
{
	struct got *g = ctx;
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 16;
		g->v = realloc(g->v, g->cap * sizeof(*g->v));
		if (!g->v)
			abort();
	}
	g->v[g->n].f = *f;
	snprintf(g->v[g->n].path, sizeof(g->v[g->n].path), "%s", f->path ? f->path : "(null)");
	/* f->header points at a string literal of the library; keep it as is. */
	g->n++;
	g->calls++;
	return g->stop_at && g->calls >= g->stop_at;
}

static void got_free(struct got *g)
{
	free(g->v);
	memset(g, 0, sizeof(*g));
}

static void dump(const char *what, const struct got *g)
{
	for (size_t i = 0; i < g->n; i++) {
		const struct hexoid_finding *f = &g->v[i].f;
		printf("    # %s: [%zu] code %d git3 %d off %lld type %d header %s %u:%u: %s\n", what,
		       i, f->code, f->git3,
		       f->offset == HEXOID_NO_OFFSET ? -1LL : (long long)f->offset, f->type,
		       f->header ? f->header : "-", f->line, f->column, f->message);
	}
}

/* Exactly one finding, of this code at this offset, its message holding `sub`. */
static const struct hexoid_finding *expect_one(const char *what, const struct got *g,
					       enum hexoid_finding_code code, uint64_t off,
					       const char *sub)
{
	int ok = g->n == 1 && g->v[0].f.code == code && g->v[0].f.offset == off &&
		 (!sub || strstr(g->v[0].f.message, sub));
	CHECK(ok, "%s: want one finding code %d at %llu with \"%s\", got %zu", what, code,
	      (unsigned long long)off, sub ? sub : "", g->n);
	if (!ok)
		dump(what, g);
	return g->n ? &g->v[0].f : NULL;
}

/* --- a pack builder ----------------------------------------------------------------- */

struct pent {
	unsigned char oid[HEXOID_MAX_RAWSZ];
	uint64_t off;
	uint32_t crc;
	size_t pos; /* in the index, after pk_finish */
};

struct pk {
	enum hexoid_algo algo;
	size_t rawsz;
	struct buf pack;
	struct pent *e;
	size_t n, cap;
	unsigned fakes;
	unsigned char *idx;
	size_t idxlen;
};

static void pk_init(struct pk *p, enum hexoid_algo algo)
{
	static const unsigned char head[12] = { 'P', 'A', 'C', 'K', 0, 0, 0, 2, 0, 0, 0, 0 };
	memset(p, 0, sizeof(*p));
	p->algo = algo;
	p->rawsz = hexoid_rawsz(algo);
	bput(&p->pack, head, sizeof(head));
}

static void pk_free(struct pk *p)
{
	bfree(&p->pack);
	free(p->e);
	free(p->idx);
	memset(p, 0, sizeof(*p));
}

/* Git's object header: type in bits 4-6 of the first byte, the size in 4 + 7k bits. */
static void put_hdr(struct buf *b, unsigned type, uint64_t size)
{
	unsigned c = (type << 4) | (unsigned)(size & 15);
	size >>= 4;
	while (size) {
		bbyte(b, c | 0x80);
		c = (unsigned)(size & 0x7f);
		size >>= 7;
	}
	bbyte(b, c);
}

/* OFS_DELTA's distance back: big-endian base-128, +1 on each continuation. */
static void put_ofs(struct buf *b, uint64_t rel)
{
	unsigned char tmp[16];
	unsigned pos = sizeof(tmp) - 1;
	tmp[pos] = rel & 127;
	while (rel >>= 7)
		tmp[--pos] = (unsigned char)(128 | (--rel & 127));
	bput(b, tmp + pos, sizeof(tmp) - pos);
}

/* Append an object's packed bytes as they are, with its ID (NULL: a made-up one). */
static size_t pk_bytes(struct pk *p, const void *bytes, size_t len, const unsigned char *oid)
{
	struct pent *x;
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->e = realloc(p->e, p->cap * sizeof(*p->e));
		if (!p->e)
			abort();
	}
	x = &p->e[p->n];
	memset(x, 0, sizeof(*x));
	x->off = p->pack.n;
	x->crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), bytes, (uInt)len);
	if (oid) {
		memcpy(x->oid, oid, p->rawsz);
	} else {
		unsigned k = ++p->fakes;
		digest(p->algo, "fake", 4, &k, sizeof(k), x->oid);
	}
	bput(&p->pack, bytes, len);
	return p->n++;
}

/* Header (type, size), then `extra` (base offset or ID), then `z` as the data. */
static size_t pk_put(struct pk *p, unsigned type, uint64_t size, const void *extra,
		     size_t extralen, const void *z, size_t zlen, const unsigned char *oid)
{
	struct buf b = { 0 };
	size_t i;
	put_hdr(&b, type, size);
	bput(&b, extra, extralen);
	bput(&b, z, zlen);
	i = pk_bytes(p, b.p, b.n, oid);
	bfree(&b);
	return i;
}

static size_t pk_obj(struct pk *p, unsigned type, const void *content, size_t len)
{
	struct buf z = { 0 };
	unsigned char oid[HEXOID_MAX_RAWSZ];
	size_t i;
	oid_of(p->algo, type, content, len, oid);
	zdeflate(content, len, &z);
	i = pk_put(p, type, len, NULL, 0, z.p, z.n, oid);
	bfree(&z);
	return i;
}

static size_t pk_text(struct pk *p, unsigned type, const char *text)
{
	return pk_obj(p, type, text, strlen(text));
}

/* A delta against entry `base` (OFS_DELTA), whose result is `type` `result`. */
static size_t pk_ofs(struct pk *p, size_t base, unsigned type, const void *result, size_t rlen,
		     const struct buf *delta)
{
	struct buf z = { 0 }, ofs = { 0 };
	unsigned char oid[HEXOID_MAX_RAWSZ];
	size_t i;
	if (result)
		oid_of(p->algo, type, result, rlen, oid);
	put_ofs(&ofs, p->pack.n - p->e[base].off);
	zdeflate(delta->p, delta->n, &z);
	i = pk_put(p, HEXOID_OBJ_OFS_DELTA, delta->n, ofs.p, ofs.n, z.p, z.n, result ? oid : NULL);
	bfree(&z);
	bfree(&ofs);
	return i;
}

/* A delta against the object `base_oid` (REF_DELTA). */
static size_t pk_ref(struct pk *p, const unsigned char *base_oid, unsigned type,
		     const void *result, size_t rlen, const struct buf *delta)
{
	struct buf z = { 0 };
	unsigned char oid[HEXOID_MAX_RAWSZ];
	size_t i;
	if (result)
		oid_of(p->algo, type, result, rlen, oid);
	zdeflate(delta->p, delta->n, &z);
	i = pk_put(p, HEXOID_OBJ_REF_DELTA, delta->n, base_oid, p->rawsz, z.p, z.n,
		   result ? oid : NULL);
	bfree(&z);
	return i;
}

static size_t sort_rawsz;
static const struct pk *sort_pk;
static int cmp_pos(const void *a, const void *b)
{
	const size_t *x = a, *y = b;
	return memcmp(sort_pk->e[*x].oid, sort_pk->e[*y].oid, sort_rawsz);
}

/* The index's own checksum, after any change to it. */
static void pk_seal_idx(struct pk *p)
{
	digest(p->algo, p->idx, p->idxlen - p->rawsz, NULL, 0, p->idx + p->idxlen - p->rawsz);
}

/* Header count, trailer, then a v2 index of it all. */
static void pk_finish_count(struct pk *p, uint32_t count)
{
	size_t n = p->n, rawsz = p->rawsz, i;
	size_t *order = malloc((n ? n : 1) * sizeof(*order));
	unsigned char sum[HEXOID_MAX_RAWSZ], *q;

	put32(p->pack.p + 8, count);
	digest(p->algo, p->pack.p, p->pack.n, NULL, 0, sum);
	bput(&p->pack, sum, rawsz);

	for (i = 0; i < n; i++)
		order[i] = i;
	sort_rawsz = rawsz;
	sort_pk = p;
	qsort(order, n, sizeof(*order), cmp_pos);
	p->idxlen = 8 + 1024 + n * (rawsz + 8) + 2 * rawsz;
	p->idx = calloc(1, p->idxlen);
	q = p->idx;
	put32(q, 0xff744f63u);
	put32(q + 4, 2);
	q += 8;
	for (unsigned k = 0; k < 256; k++) {
		uint32_t c = 0;
		while (c < n && p->e[order[c]].oid[0] <= k)
			c++;
		put32(q + 4 * k, c);
	}
	q += 1024;
	for (i = 0; i < n; i++, q += rawsz) {
		memcpy(q, p->e[order[i]].oid, rawsz);
		p->e[order[i]].pos = i;
	}
	for (i = 0; i < n; i++, q += 4)
		put32(q, p->e[order[i]].crc);
	for (i = 0; i < n; i++, q += 4)
		put32(q, (uint32_t)p->e[order[i]].off);
	memcpy(q, sum, rawsz);
	pk_seal_idx(p);
	free(order);
}

static void pk_finish(struct pk *p)
{
	pk_finish_count(p, (uint32_t)p->n);
}

static size_t pk_trailer(const struct pk *p)
{
	return p->pack.n - p->rawsz;
}

/* Scan through hexoid_pack_scan_buffers(), from exact-size copies (ASan sees overreads). */
static int pk_scan_raw(const void *pack, size_t plen, const void *idx, size_t ilen,
		       unsigned jobs, size_t cache, int verify, struct got *g,
		       struct hexoid_scan_stats *st, char *err, size_t errlen)
{
	unsigned char *pc = malloc(plen ? plen : 1), *ic = malloc(ilen ? ilen : 1);
	struct hexoid_scan_options o;
	int rc;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.jobs = jobs;
	o.cache_bytes = cache;
	o.verify_ids = verify;
	o.on_finding = collect;
	o.ctx = g;
	if (plen)
		memcpy(pc, pack, plen);
	if (ilen)
		memcpy(ic, idx, ilen);
	rc = hexoid_pack_scan_buffers("test.pack", pc, plen, ic, ilen, &o, st, err, errlen);
	free(pc);
	free(ic);
	return rc;
}

static int pk_scan(const struct pk *p, unsigned jobs, size_t cache, int verify, struct got *g,
		   struct hexoid_scan_stats *st)
{
	char err[256] = "";
	int rc = pk_scan_raw(p->pack.p, p->pack.n, p->idx, p->idxlen, jobs, cache, verify, g, st,
			     err, sizeof(err));
	if (rc < 0)
		printf("    # scan failed: %s\n", err);
	return rc;
}

/* --- deltas ------------------------------------------------------------------------- */

static void d_varint(struct buf *d, uint64_t v)
{
	do {
		unsigned c = v & 127;
		v >>= 7;
		bbyte(d, c | (v ? 128 : 0));
	} while (v);
}

static void d_sizes(struct buf *d, uint64_t src, uint64_t dst)
{
	d_varint(d, src);
	d_varint(d, dst);
}

/* Copy op: 0x80, offset bytes 0-3 (bits 0-3), size bytes 0-2 (bits 4-6), zeros left out. */
static void d_copy1(struct buf *d, uint32_t off, uint32_t size)
{
	unsigned char ops[8];
	unsigned op = 0x80, k = 1, b;
	for (b = 0; b < 4; b++)
		if ((off >> (8 * b)) & 0xff) {
			op |= 1u << b;
			ops[k++] = (unsigned char)(off >> (8 * b));
		}
	if (size != 0x10000)
		for (b = 0; b < 3; b++)
			if ((size >> (8 * b)) & 0xff) {
				op |= 0x10u << b;
				ops[k++] = (unsigned char)(size >> (8 * b));
			}
	ops[0] = (unsigned char)op;
	bput(d, ops, k);
}

static void d_copy(struct buf *d, uint32_t off, uint32_t size)
{
	while (size) {
		uint32_t piece = size > 0x10000 ? 0x10000 : size;
		d_copy1(d, off, piece);
		off += piece;
		size -= piece;
	}
}

static void d_insert(struct buf *d, const void *s, size_t n)
{
	const unsigned char *c = s;
	while (n) {
		size_t piece = n > 127 ? 127 : n;
		bbyte(d, (unsigned)piece);
		bput(d, c, piece);
		c += piece;
		n -= piece;
	}
}

/* A real delta: the common prefix and suffix copied, the middle inserted. */
static void make_delta(struct buf *d, const void *base, size_t blen, const void *target,
		       size_t tlen)
{
	const unsigned char *b = base, *t = target;
	size_t pre = 0, suf = 0;
	while (pre < blen && pre < tlen && b[pre] == t[pre])
		pre++;
	while (suf < blen - pre && suf < tlen - pre && b[blen - 1 - suf] == t[tlen - 1 - suf])
		suf++;
	d_sizes(d, blen, tlen);
	if (pre)
		d_copy(d, 0, (uint32_t)pre);
	d_insert(d, t + pre, tlen - pre - suf);
	if (suf)
		d_copy(d, (uint32_t)(blen - suf), (uint32_t)suf);
}

/* --- object texts ------------------------------------------------------------------- */

static const char *AUTHOR = "author A U Thor <a@example.com> 1700000000 +0000\n"
			    "committer C O Mitter <c@example.com> 1700000000 +0000\n";

/* A commit: tree, parents (NULL-terminated, may be none), message. */
static void commit_text(char *out, size_t cap, const char *tree, const char *const *parents,
			const char *msg)
{
	int n = snprintf(out, cap, "tree %s\n", tree);
	for (; parents && *parents; parents++)
		n += snprintf(out + n, cap - (size_t)n, "parent %s\n", *parents);
	snprintf(out + n, cap - (size_t)n, "%s\n%s\n", AUTHOR, msg);
}

static void tag_text(char *out, size_t cap, const char *object, const char *type, const char *msg)
{
	snprintf(out, cap,
		 "object %s\ntype %s\ntag v1\ntagger T Agger <t@example.com> 1700000000 +0000\n\n%s\n",
		 object, type, msg);
}

/* --- hexoid_object_check ------------------------------------------------------------ */

struct probs {
	struct hexoid_header_problem v[16];
	int n;
	int stop_at;
};

static int on_problem(void *ctx, const struct hexoid_header_problem *p)
{
	struct probs *ps = ctx;
	if (ps->n < 16)
		ps->v[ps->n] = *p;
	ps->n++;
	return ps->stop_at && ps->n >= ps->stop_at;
}

/* One problem exactly: code, header, line, column, message piece; and the count agrees
 * with fn == NULL. */
static void obj_expect(const char *what, enum hexoid_object_type type, const char *text,
		       enum hexoid_algo algo, enum hexoid_finding_code code, const char *header,
		       unsigned line, unsigned column, const char *sub)
{
	struct probs ps = { .n = 0 };
	int rc = hexoid_object_check(type, text, strlen(text), algo, on_problem, &ps);
	int rc0 = hexoid_object_check(type, text, strlen(text), algo, NULL, NULL);
	int ok = rc == 1 && ps.n == 1 && ps.v[0].code == code && ps.v[0].header &&
		 !strcmp(ps.v[0].header, header) && ps.v[0].line == line &&
		 ps.v[0].column == column && (!sub || strstr(ps.v[0].message, sub));
	CHECK(ok, "%s: want code %d %s at %u:%u \"%s\"; got rc %d n %d", what, code, header, line,
	      column, sub ? sub : "", rc, ps.n);
	if (!ok && ps.n)
		printf("    # got code %d %s at %u:%u: %s\n", ps.v[0].code,
		       ps.v[0].header ? ps.v[0].header : "-", ps.v[0].line, ps.v[0].column,
		       ps.v[0].message);
	CHECK(rc0 == rc, "%s: counting without fn gives %d, with fn %d", what, rc0, rc);
}

static void obj_clean(const char *what, enum hexoid_object_type type, const char *text,
		      enum hexoid_algo algo)
{
	struct probs ps = { .n = 0 };
	int rc = hexoid_object_check(type, text, strlen(text), algo, on_problem, &ps);
	CHECK(rc == 0 && ps.n == 0, "%s: want no problem, got rc %d (%s at %u:%u)", what, rc,
	      ps.n ? ps.v[0].message : "", ps.n ? ps.v[0].line : 0, ps.n ? ps.v[0].column : 0);
}

static void object_check_algo(enum hexoid_algo algo)
{
	const char *an = algo == HEXOID_SHA1 ? "sha1" : "sha256";
	size_t hexsz = hexoid_hexsz(algo);
	char h[3][HEXOID_MAX_HEXSZ + 1], u[HEXOID_MAX_HEXSZ + 1], t[2048], what[96];
	const char *parents[3];
	size_t at;

	for (unsigned i = 0; i < 3; i++)
		hexid(h[i], algo, 100 + i);
	parents[0] = h[1];
	parents[1] = h[2];
	parents[2] = NULL;

	/* A clean merge commit with a mergetag whose continuation lines hold junk IDs. */
	snprintf(t, sizeof(t),
		 "tree %s\nparent %s\nparent %s\n%smergetag object %s\n type commit\n tag v1\n"
		 " object %s\n parent XYZ\n \n tree 0\n\nmessage\ntree NOTHEX\nparent %s\n",
		 h[0], h[1], h[2], AUTHOR, h[1], "BAD", "bad");
	snprintf(what, sizeof(what), "%s clean merge commit", an);
	obj_clean(what, HEXOID_OBJ_COMMIT, t, algo);

	/* tree: uppercase at the first letter from index 5: column 6 + index. */
	strcpy(u, h[0]);
	at = upper_at(u, 5);
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree uppercase", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_UPPERCASE, "tree", 1,
		   (unsigned)(6 + at), "uppercase");
	/* ... at the very first digit: column 6. */
	strcpy(u, h[0]);
	u[0] = 'F';
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree uppercase first", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_UPPERCASE, "tree", 1, 6, "'F'");
	/* ... all uppercase: still the first letter. */
	for (size_t i = 0; i < hexsz; i++)
		u[i] = (char)toupper((unsigned char)h[0][i]);
	at = strcspn(u, "ABCDEF");
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree all uppercase", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_UPPERCASE, "tree", 1,
		   (unsigned)(6 + at), NULL);
	/* invalid digit: wrong for both, even with uppercase before it. */
	strcpy(u, h[0]);
	u[0] = 'A';
	u[9] = 'g';
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree invalid digit", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_BAD_ID, "tree", 1, 15, "'g'");
	/* a non-printable byte */
	strcpy(u, h[0]);
	u[3] = '\x01';
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree control byte", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_BAD_ID, "tree", 1, 9, "0x01");
	/* short: one digit missing; the newline is the first bad byte. */
	strcpy(u, h[0]);
	u[hexsz - 1] = 0;
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree short", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_BAD_ID, "tree", 1,
		   (unsigned)(6 + hexsz - 1), "characters");
	/* short and uppercase: wrong for both */
	u[0] = 'A';
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree short uppercase", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_BAD_ID, "tree", 1,
		   (unsigned)(6 + hexsz - 1), NULL);
	/* long: one digit too many */
	snprintf(u, sizeof(u), "%s", h[0]);
	{
		char longer[HEXOID_MAX_HEXSZ + 2];
		snprintf(longer, sizeof(longer), "%s0", h[0]);
		commit_text(t, sizeof(t), longer, parents, "m");
	}
	snprintf(what, sizeof(what), "%s tree long", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_BAD_ID, "tree", 1,
		   (unsigned)(6 + hexsz), "characters");
	/* empty ID: "tree \n" */
	commit_text(t, sizeof(t), "", parents, "m");
	snprintf(what, sizeof(what), "%s tree empty", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_BAD_ID, "tree", 1, 6, NULL);
	/* a CR before the newline makes it long */
	{
		char cr[HEXOID_MAX_HEXSZ + 2];
		snprintf(cr, sizeof(cr), "%s\r", h[0]);
		commit_text(t, sizeof(t), cr, NULL, "m");
		snprintf(what, sizeof(what), "%s tree CRLF", an);
		obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_BAD_ID, "tree", 1,
			   (unsigned)(6 + hexsz), NULL);
	}

	/* parent: column 8, on lines 2 and 3 */
	strcpy(u, h[2]);
	at = upper_at(u, 0);
	{
		const char *ps2[] = { h[1], u, NULL };
		commit_text(t, sizeof(t), h[0], ps2, "m");
	}
	snprintf(what, sizeof(what), "%s second parent uppercase", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_UPPERCASE, "parent", 3,
		   (unsigned)(8 + at), NULL);
	strcpy(u, h[1]);
	u[0] = 'B';
	{
		const char *ps2[] = { u, NULL };
		commit_text(t, sizeof(t), h[0], ps2, "m");
	}
	snprintf(what, sizeof(what), "%s parent uppercase first", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_UPPERCASE, "parent", 2, 8, "'B'");
	strcpy(u, h[1]);
	u[hexsz - 2] = 0;
	{
		const char *ps2[] = { u, NULL };
		commit_text(t, sizeof(t), h[0], ps2, "m");
	}
	snprintf(what, sizeof(what), "%s parent short", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_BAD_ID, "parent", 2,
		   (unsigned)(8 + hexsz - 2), NULL);

	/* mergetag object: column 17, on its own line */
	strcpy(u, h[1]);
	u[0] = 'C';
	snprintf(t, sizeof(t), "tree %s\nparent %s\n%smergetag object %s\n type commit\n tag v1\n\nm\n",
		 h[0], h[2], AUTHOR, u);
	snprintf(what, sizeof(what), "%s mergetag object uppercase", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_UPPERCASE, "mergetag object", 5,
		   17, "'C'");
	u[0] = 'z';
	snprintf(t, sizeof(t), "tree %s\nparent %s\n%smergetag object %s\n type commit\n tag v1\n\nm\n",
		 h[0], h[2], AUTHOR, u);
	snprintf(what, sizeof(what), "%s mergetag object invalid", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_BAD_ID, "mergetag object", 5, 17,
		   "'z'");

	/* A tag's object: column 8. A commit's "object" line is nothing to check, nor a
	 * tag's "tree"/"parent". */
	strcpy(u, h[0]);
	at = upper_at(u, 3);
	tag_text(t, sizeof(t), u, "commit", "m");
	snprintf(what, sizeof(what), "%s tag object uppercase", an);
	obj_expect(what, HEXOID_OBJ_TAG, t, algo, HEXOID_FIND_UPPERCASE, "object", 1,
		   (unsigned)(8 + at), NULL);
	snprintf(what, sizeof(what), "%s same text as a commit", an);
	obj_clean(what, HEXOID_OBJ_COMMIT, t, algo);
	snprintf(t, sizeof(t), "object %s\ntype commit\ntree %s\nparent NOPE\n\n", h[0], "XYZ");
	snprintf(what, sizeof(what), "%s tag with tree and parent lines", an);
	obj_clean(what, HEXOID_OBJ_TAG, t, algo);
	u[hexsz - 1] = 0;
	tag_text(t, sizeof(t), u, "commit", "m");
	snprintf(what, sizeof(what), "%s tag object short", an);
	obj_expect(what, HEXOID_OBJ_TAG, t, algo, HEXOID_FIND_BAD_ID, "object", 1,
		   (unsigned)(8 + hexsz - 1), NULL);

	/* Headers end at the first empty line: uppercase after it is the message. */
	strcpy(u, h[0]);
	u[0] = 'D';
	snprintf(t, sizeof(t), "tree %s\n%s\ntree %s\nparent %s\n", h[0], AUTHOR, u, u);
	snprintf(what, sizeof(what), "%s after the blank line", an);
	obj_clean(what, HEXOID_OBJ_COMMIT, t, algo);
	snprintf(t, sizeof(t), "\ntree %s\n", u);
	snprintf(what, sizeof(what), "%s blank first line", an);
	obj_clean(what, HEXOID_OBJ_COMMIT, t, algo);
	/* Continuation lines (a space first) are not headers. */
	snprintf(t, sizeof(t), "tree %s\ngpgsig -----BEGIN\n tree %s\n parent %s\n object %s\n\n",
		 h[0], u, u, u);
	snprintf(what, sizeof(what), "%s continuation lines", an);
	obj_clean(what, HEXOID_OBJ_COMMIT, t, algo);
	/* Look-alike header names are not headers. */
	snprintf(t, sizeof(t), "tree %s\nparents %s\ntreetop %s\nmergetag objects %s\n\n", h[0], u,
		 u, u);
	snprintf(what, sizeof(what), "%s look-alike headers", an);
	obj_clean(what, HEXOID_OBJ_COMMIT, t, algo);

	/* The other algo's length is wrong here. */
	{
		char other[HEXOID_MAX_HEXSZ + 1];
		enum hexoid_algo oa = algo == HEXOID_SHA1 ? HEXOID_SHA256 : HEXOID_SHA1;
		hexid(other, oa, 7);
		commit_text(t, sizeof(t), other, NULL, "m");
		snprintf(what, sizeof(what), "%s tree of the other hash", an);
		obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_BAD_ID, "tree", 1,
			   (unsigned)(6 + (hexsz < strlen(other) ? hexsz : strlen(other))), NULL);
	}

	/* Several problems, in order; counting; stopping early. */
	{
		char u0[HEXOID_MAX_HEXSZ + 1], u1[HEXOID_MAX_HEXSZ + 1];
		const char *ps2[3];
		struct probs ps = { .n = 0 };
		int rc;
		strcpy(u0, h[0]);
		u0[1] = 'E';
		strcpy(u1, h[1]);
		u1[2] = 'q';
		ps2[0] = u1;
		ps2[1] = u0;
		ps2[2] = NULL;
		commit_text(t, sizeof(t), u0, ps2, "m");
		rc = hexoid_object_check(HEXOID_OBJ_COMMIT, t, strlen(t), algo, on_problem, &ps);
		CHECK(rc == 3 && ps.n == 3, "%s: three problems: rc %d n %d", an, rc, ps.n);
		CHECK(ps.n >= 3 && ps.v[0].line == 1 && ps.v[0].column == 7 &&
			      ps.v[0].code == HEXOID_FIND_UPPERCASE && ps.v[1].line == 2 &&
			      ps.v[1].column == 10 && ps.v[1].code == HEXOID_FIND_BAD_ID &&
			      ps.v[2].line == 3 && ps.v[2].column == 9 &&
			      ps.v[2].code == HEXOID_FIND_UPPERCASE,
		      "%s: three problems in order", an);
		CHECK(hexoid_object_check(HEXOID_OBJ_COMMIT, t, strlen(t), algo, NULL, NULL) == 3,
		      "%s: NULL fn counts 3", an);
		memset(&ps, 0, sizeof(ps));
		ps.stop_at = 1;
		rc = hexoid_object_check(HEXOID_OBJ_COMMIT, t, strlen(t), algo, on_problem, &ps);
		CHECK(rc == 1 && ps.n == 1, "%s: stop at the first: rc %d, calls %d", an, rc, ps.n);
		memset(&ps, 0, sizeof(ps));
		ps.stop_at = 2;
		rc = hexoid_object_check(HEXOID_OBJ_COMMIT, t, strlen(t), algo, on_problem, &ps);
		CHECK(rc == 2 && ps.n == 2, "%s: stop at the second: rc %d, calls %d", an, rc, ps.n);
	}

	/* Not a commit or tag, or no such algo: -1. */
	commit_text(t, sizeof(t), h[0], NULL, "m");
	CHECK(hexoid_object_check(HEXOID_OBJ_BLOB, t, strlen(t), algo, NULL, NULL) == -1, "%s: blob", an);
	CHECK(hexoid_object_check(HEXOID_OBJ_TREE, t, strlen(t), algo, NULL, NULL) == -1, "%s: tree", an);
	CHECK(hexoid_object_check(HEXOID_OBJ_OFS_DELTA, t, strlen(t), algo, NULL, NULL) == -1, "%s: delta", an);
	CHECK(hexoid_object_check((enum hexoid_object_type)9, t, strlen(t), algo, NULL, NULL) == -1, "%s: type 9", an);
	CHECK(hexoid_object_check(HEXOID_OBJ_COMMIT, t, strlen(t), (enum hexoid_algo)0, NULL, NULL) == -1, "%s: algo 0", an);
	CHECK(hexoid_object_check(HEXOID_OBJ_COMMIT, t, strlen(t), (enum hexoid_algo)3, NULL, NULL) == -1, "%s: algo 3", an);
	CHECK(hexoid_object_check(HEXOID_OBJ_COMMIT, "", 0, algo, NULL, NULL) == 0, "%s: empty", an);
}

TEST(pack_object_check)
{
	object_check_algo(HEXOID_SHA1);
	object_check_algo(HEXOID_SHA256);
	CHECK(!strcmp(hexoid_object_type_name(HEXOID_OBJ_COMMIT), "commit") &&
		      !strcmp(hexoid_object_type_name(HEXOID_OBJ_REF_DELTA), "ref-delta") &&
		      hexoid_object_type_name((enum hexoid_object_type)5) == NULL,
	      "type names");
	CHECK(!strcmp(hexoid_finding_name(HEXOID_FIND_CRC), "crc32 mismatch"), "finding name");
}

/*
 * An ID at the very end of the text, with no newline after it, is cut short:
 * hexoid_pack.h says each must be "exactly hexsz hex digits and a newline" (git's
 * parse_commit_buffer and parse_tag_buffer reject it too).
 * Input: "tree <hexsz lowercase hex>" (no '\n'), as a commit; likewise "parent",
 * "mergetag object" and a tag's "object", SHA-1 and SHA-256.
 * Expected: 1 problem, HEXOID_FIND_BAD_ID, at the header's line, at the column where the
 * newline belongs (46 for "tree" with SHA-1).
 */
TEST(pack_object_check_no_final_newline)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		size_t hexsz = hexoid_hexsz(algo);
		char h[HEXOID_MAX_HEXSZ + 1], t[512];
		hexid(h, algo, 5);
		snprintf(t, sizeof(t), "tree %s", h);
		obj_expect("tree at the end without a newline", HEXOID_OBJ_COMMIT, t, algo,
			   HEXOID_FIND_BAD_ID, "tree", 1, (unsigned)(6 + hexsz), NULL);
		snprintf(t, sizeof(t), "tree %s\nparent %s", h, h);
		obj_expect("parent at the end without a newline", HEXOID_OBJ_COMMIT, t, algo,
			   HEXOID_FIND_BAD_ID, "parent", 2, (unsigned)(8 + hexsz), NULL);
		snprintf(t, sizeof(t), "object %s", h);
		obj_expect("tag object at the end without a newline", HEXOID_OBJ_TAG, t, algo,
			   HEXOID_FIND_BAD_ID, "object", 1, (unsigned)(8 + hexsz), NULL);
		snprintf(t, sizeof(t), "tree %s\nmergetag object %s", h, h);
		obj_expect("mergetag object at the end without a newline", HEXOID_OBJ_COMMIT, t,
			   algo, HEXOID_FIND_BAD_ID, "mergetag object", 2, (unsigned)(17 + hexsz), NULL);
		/* Short at the end of the text is found, for comparison. */
		snprintf(t, sizeof(t), "tree %.*s", (int)hexsz - 1, h);
		obj_expect("short tree at the end", HEXOID_OBJ_COMMIT, t, algo, HEXOID_FIND_BAD_ID,
			   "tree", 1, (unsigned)(6 + hexsz - 1), NULL);
	}
}

/*
 * text == NULL with len == 0 is an empty text, which the function accepts (it rejects
 * only NULL with a length), and must be handled without pointer arithmetic on the null
 * pointer: that is undefined behaviour in C, which clang's -fsanitize=undefined reports
 * ("applying zero offset to null pointer") and, with -fno-sanitize-recover, aborts on.
 * GCC's sanitizer does not check it, so only a clang sanitizer build (make check-sanitize
 * CC=clang) can catch it; the call runs in a child so that an abort does not take the
 * runner with it.
 * Input: hexoid_object_check(HEXOID_OBJ_COMMIT, NULL, 0, HEXOID_SHA1, NULL, NULL), and
 * the same for a tag with SHA-256.
 * Expected: 0 problems, no sanitizer report.
 */
TEST(pack_object_check_null_empty_text)
{
	pid_t pid;
	int status = 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(hexoid_object_check(HEXOID_OBJ_COMMIT, NULL, 0, HEXOID_SHA1, NULL, NULL) == 0 &&
				      hexoid_object_check(HEXOID_OBJ_TAG, NULL, 0, HEXOID_SHA256, NULL,
							  NULL) == 0
			      ? 0
			      : 1);
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "NULL, 0: the child %s %d (want 0 problems)",
	      WIFSIGNALED(status) ? "died of signal" : "exited with",
	      WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

/*
 * An uppercase ID that ends the text with no newline after it is cut short, not merely
 * uppercase: Git 2.x rejects it too, for the missing newline. hexoid_pack.h: "an ID that
 * only uppercase makes wrong is HEXOID_FIND_UPPERCASE, anything else HEXOID_FIND_BAD_ID"
 * (as a short uppercase ID is).
 * Input: "tree <hexsz hex digits, the first 'A'>" with no '\n', as a commit, and
 * "object <the same>" as a tag, SHA-1 and SHA-256.
 * Expected: 1 problem, HEXOID_FIND_BAD_ID, line 1, at the column where the newline
 * belongs (46 for "tree" with SHA-1), not HEXOID_FIND_UPPERCASE at the first 'A'.
 */
TEST(pack_object_check_upper_without_final_newline)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		size_t hexsz = hexoid_hexsz(algo);
		char h[HEXOID_MAX_HEXSZ + 1], t[512];
		hexid(h, algo, 6);
		h[0] = 'A';
		snprintf(t, sizeof(t), "tree %s", h);
		obj_expect("uppercase tree at the end without a newline", HEXOID_OBJ_COMMIT, t, algo,
			   HEXOID_FIND_BAD_ID, "tree", 1, (unsigned)(6 + hexsz), NULL);
		snprintf(t, sizeof(t), "object %s", h);
		obj_expect("uppercase tag object at the end without a newline", HEXOID_OBJ_TAG, t,
			   algo, HEXOID_FIND_BAD_ID, "object", 1, (unsigned)(8 + hexsz), NULL);
	}
}

/* --- packs: clean ------------------------------------------------------------------- */

/* A small repository's worth: blobs, a tree, commits with parents, a tag, and deltas of
 * each kind against commits, a tag and a blob. */
struct repo {
	size_t c[6], t[2], blob, bdelta, tree;
	char hex[6][HEXOID_MAX_HEXSZ + 1];
};

static void build_repo(struct pk *p, struct repo *r, enum hexoid_algo algo)
{
	char tree[HEXOID_MAX_HEXSZ + 1], t[4][1024], tg[2][1024];
	const char *par[2] = { NULL, NULL };
	struct buf d = { 0 };
	static const char blob[] = "hello, world\nsecond line\nthird line of the blob\n";
	static const char blob2[] = "hello, world\nsecond line, changed\nthird line of the blob\n";
	static const char treebytes[] = "100644 f\0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

	pk_init(p, algo);
	hexid(tree, algo, 1);
	r->blob = pk_obj(p, HEXOID_OBJ_BLOB, blob, sizeof(blob) - 1);
	r->tree = pk_obj(p, HEXOID_OBJ_TREE, treebytes, sizeof(treebytes) - 1);
	commit_text(t[0], sizeof(t[0]), tree, NULL, "first");
	r->c[0] = pk_text(p, HEXOID_OBJ_COMMIT, t[0]);
	hexoid_encode(r->hex[0], hexoid_hexsz(algo), p->e[r->c[0]].oid, 1, algo);
	r->hex[0][hexoid_hexsz(algo)] = 0;
	par[0] = r->hex[0];
	commit_text(t[1], sizeof(t[1]), tree, par, "second");
	r->c[1] = pk_text(p, HEXOID_OBJ_COMMIT, t[1]);
	/* OFS delta of c1 */
	commit_text(t[2], sizeof(t[2]), tree, par, "third, as an offset delta");
	make_delta(&d, t[1], strlen(t[1]), t[2], strlen(t[2]));
	r->c[2] = pk_ofs(p, r->c[1], HEXOID_OBJ_COMMIT, t[2], strlen(t[2]), &d);
	d.n = 0;
	/* OFS delta of that delta: a chain of two */
	commit_text(t[3], sizeof(t[3]), tree, par, "fourth, a delta of a delta");
	make_delta(&d, t[2], strlen(t[2]), t[3], strlen(t[3]));
	r->c[3] = pk_ofs(p, r->c[2], HEXOID_OBJ_COMMIT, t[3], strlen(t[3]), &d);
	d.n = 0;
	/* REF delta of c0 */
	commit_text(t[2], sizeof(t[2]), tree, NULL, "fifth, a reference delta");
	make_delta(&d, t[0], strlen(t[0]), t[2], strlen(t[2]));
	r->c[4] = pk_ref(p, p->e[r->c[0]].oid, HEXOID_OBJ_COMMIT, t[2], strlen(t[2]), &d);
	d.n = 0;
	/* a tag, and a REF delta of it */
	tag_text(tg[0], sizeof(tg[0]), r->hex[0], "commit", "the tag");
	r->t[0] = pk_text(p, HEXOID_OBJ_TAG, tg[0]);
	tag_text(tg[1], sizeof(tg[1]), r->hex[0], "commit", "the other tag, a delta");
	make_delta(&d, tg[0], strlen(tg[0]), tg[1], strlen(tg[1]));
	r->t[1] = pk_ref(p, p->e[r->t[0]].oid, HEXOID_OBJ_TAG, tg[1], strlen(tg[1]), &d);
	d.n = 0;
	/* a blob delta: not inflated, not counted */
	make_delta(&d, blob, sizeof(blob) - 1, blob2, sizeof(blob2) - 1);
	r->bdelta = pk_ofs(p, r->blob, HEXOID_OBJ_BLOB, blob2, sizeof(blob2) - 1, &d);
	/* a commit after everything, plain */
	commit_text(t[3], sizeof(t[3]), tree, NULL, "last");
	r->c[5] = pk_text(p, HEXOID_OBJ_COMMIT, t[3]);
	bfree(&d);
	pk_finish(p);
}

TEST(pack_clean)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct pk p;
		struct repo r;
		build_repo(&p, &r, algo);
		for (unsigned jobs = 1; jobs <= 3; jobs++)
			for (int verify = 0; verify <= 1; verify++) {
				struct got g = { 0 };
				struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
				int rc = pk_scan(&p, jobs, 0, verify, &g, &st);
				CHECK(rc == 0 && g.n == 0, "algo %d jobs %u: clean pack: rc %d, %zu findings",
				      algo, jobs, rc, g.n);
				if (g.n)
					dump("clean", &g);
				/* Five commits and tags stored as deltas, for any jobs; each delta
				 * applied once with one thread (threads have caches of their own,
				 * so with several a base may be rebuilt). */
				CHECK(st.objects == p.n && st.commits == 6 && st.tags == 2 && st.deltas == 4 &&
					      (jobs == 1 ? st.applied == 4 : st.applied >= 4) &&
					      st.git3 == 0 && st.errors == 0 &&
					      st.inflated > 0,
				      "algo %d jobs %u: stats objects %llu commits %llu tags %llu deltas %llu",
				      algo, jobs, (unsigned long long)st.objects,
				      (unsigned long long)st.commits, (unsigned long long)st.tags,
				      (unsigned long long)st.deltas);
				got_free(&g);
			}
		/* The index says which hash; telling it the same works, the other does not. */
		{
			struct hexoid_scan_options o = { .size = sizeof(o), .algo = algo };
			char err[256] = "";
			int rc = hexoid_pack_scan_buffers("x.pack", p.pack.p, p.pack.n, p.idx, p.idxlen,
							  &o, NULL, err, sizeof(err));
			CHECK(rc == 0, "algo %d told: rc %d %s", algo, rc, err);
			o.algo = algo == HEXOID_SHA1 ? HEXOID_SHA256 : HEXOID_SHA1;
			rc = hexoid_pack_scan_buffers("x.pack", p.pack.p, p.pack.n, p.idx, p.idxlen, &o,
						      NULL, err, sizeof(err));
			CHECK(rc == -1 && err[0], "algo %d told the other: rc %d", algo, rc);
		}
		pk_free(&p);
	}
}

/* An empty pack and index are fine. */
TEST(pack_empty)
{
	struct pk p;
	struct got g = { 0 };
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	pk_init(&p, HEXOID_SHA1);
	pk_finish(&p);
	CHECK(pk_scan(&p, 2, 0, 1, &g, &st) == 0 && g.n == 0 && st.objects == 0, "empty pack");
	got_free(&g);
	pk_free(&p);
}

/* --- packs: uppercase IDs ----------------------------------------------------------- */

static void check_header_finding(const char *what, const struct got *g, size_t i,
				 const struct pk *p, size_t ent, enum hexoid_object_type type,
				 const char *header, unsigned line, unsigned column)
{
	const struct hexoid_finding *f = i < g->n ? &g->v[i].f : NULL;
	CHECK(f && f->code == HEXOID_FIND_UPPERCASE && f->git3 == 1 && f->offset == p->e[ent].off &&
		      f->has_oid && !memcmp(f->oid, p->e[ent].oid, p->rawsz) && f->algo == p->algo &&
		      f->type == type && f->header && !strcmp(f->header, header) &&
		      f->line == line && f->column == column && strstr(f->message, "uppercase") &&
		      !strcmp(g->v[i].path, "test.pack"),
	      "%s: finding %zu: want uppercase %s %u:%u at %llu", what, i, header, line, column,
	      (unsigned long long)p->e[ent].off);
}

TEST(pack_uppercase)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct pk p;
		char tree[HEXOID_MAX_HEXSZ + 1], par[HEXOID_MAX_HEXSZ + 1], up[HEXOID_MAX_HEXSZ + 1];
		char uppar[HEXOID_MAX_HEXSZ + 1], t[8][1024];
		const char *ps[2] = { par, NULL }, *ups[2] = { uppar, NULL };
		struct buf d = { 0 };
		size_t e[8], atu, atp;
		struct got g = { 0 };
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;

		hexid(tree, algo, 11);
		hexid(par, algo, 12);
		strcpy(up, tree);
		atu = upper_at(up, 2);
		strcpy(uppar, par);
		atp = upper_at(uppar, 4);
		pk_init(&p, algo);
		/* plain: uppercase tree; uppercase parent; a tag with uppercase object */
		commit_text(t[0], sizeof(t[0]), up, ps, "plain, uppercase tree");
		e[0] = pk_text(&p, HEXOID_OBJ_COMMIT, t[0]);
		commit_text(t[1], sizeof(t[1]), tree, ups, "plain, uppercase parent");
		e[1] = pk_text(&p, HEXOID_OBJ_COMMIT, t[1]);
		tag_text(t[2], sizeof(t[2]), up, "commit", "plain tag");
		e[2] = pk_text(&p, HEXOID_OBJ_TAG, t[2]);
		/* OFS: clean base, delta result with uppercase tree; and an uppercase base whose
		 * delta makes it clean */
		commit_text(t[3], sizeof(t[3]), tree, ps, "clean base");
		e[3] = pk_text(&p, HEXOID_OBJ_COMMIT, t[3]);
		commit_text(t[4], sizeof(t[4]), up, ps, "ofs delta, uppercase tree");
		make_delta(&d, t[3], strlen(t[3]), t[4], strlen(t[4]));
		e[4] = pk_ofs(&p, e[3], HEXOID_OBJ_COMMIT, t[4], strlen(t[4]), &d);
		d.n = 0;
		commit_text(t[5], sizeof(t[5]), tree, ps, "ofs delta of an uppercase base, clean");
		make_delta(&d, t[0], strlen(t[0]), t[5], strlen(t[5]));
		e[5] = pk_ofs(&p, e[0], HEXOID_OBJ_COMMIT, t[5], strlen(t[5]), &d);
		d.n = 0;
		/* REF: uppercase parent from a clean base; tag with uppercase object */
		commit_text(t[6], sizeof(t[6]), tree, ups, "ref delta, uppercase parent");
		make_delta(&d, t[3], strlen(t[3]), t[6], strlen(t[6]));
		e[6] = pk_ref(&p, p.e[e[3]].oid, HEXOID_OBJ_COMMIT, t[6], strlen(t[6]), &d);
		d.n = 0;
		tag_text(t[7], sizeof(t[7]), up, "commit", "ref delta tag");
		{
			char clean[1024];
			tag_text(clean, sizeof(clean), tree, "commit", "plain clean tag");
			size_t ct = pk_text(&p, HEXOID_OBJ_TAG, clean);
			make_delta(&d, clean, strlen(clean), t[7], strlen(t[7]));
			e[7] = pk_ref(&p, p.e[ct].oid, HEXOID_OBJ_TAG, t[7], strlen(t[7]), &d);
		}
		bfree(&d);
		pk_finish(&p);

		for (unsigned jobs = 1; jobs <= 2; jobs++) {
			int rc = pk_scan(&p, jobs, 0, 1, &g, &st);
			CHECK(rc == 0 && g.n == 6, "algo %d jobs %u: rc %d, %zu findings (want 6)", algo,
			      jobs, rc, g.n);
			if (g.n != 6)
				dump("uppercase", &g);
			check_header_finding("plain tree", &g, 0, &p, e[0], HEXOID_OBJ_COMMIT, "tree", 1,
					     (unsigned)(6 + atu));
			check_header_finding("plain parent", &g, 1, &p, e[1], HEXOID_OBJ_COMMIT, "parent",
					     2, (unsigned)(8 + atp));
			check_header_finding("plain tag", &g, 2, &p, e[2], HEXOID_OBJ_TAG, "object", 1,
					     (unsigned)(8 + atu));
			check_header_finding("ofs tree", &g, 3, &p, e[4], HEXOID_OBJ_COMMIT, "tree", 1,
					     (unsigned)(6 + atu));
			check_header_finding("ref parent", &g, 4, &p, e[6], HEXOID_OBJ_COMMIT, "parent",
					     2, (unsigned)(8 + atp));
			check_header_finding("ref tag", &g, 5, &p, e[7], HEXOID_OBJ_TAG, "object", 1,
					     (unsigned)(8 + atu));
			CHECK(st.git3 == 6 && st.errors == 0 && st.commits == 6 && st.tags == 3 &&
				      (jobs == 1 ? st.deltas == 4 : st.deltas >= 4),
			      "algo %d: stats git3 %llu errors %llu commits %llu tags %llu deltas %llu",
			      algo, (unsigned long long)st.git3, (unsigned long long)st.errors,
			      (unsigned long long)st.commits, (unsigned long long)st.tags,
			      (unsigned long long)st.deltas);
			got_free(&g);
		}
		/* The callback's stop: scan returns 1, no call after it. */
		g.stop_at = 2;
		CHECK(pk_scan(&p, 1, 0, 0, &g, &st) == 1 && g.calls == 2, "stop: calls %zu", g.calls);
		got_free(&g);
		g.stop_at = 1;
		CHECK(pk_scan(&p, 3, 0, 0, &g, &st) == 1 && g.calls == 1, "stop jobs 3: calls %zu",
		      g.calls);
		got_free(&g);
		pk_free(&p);
	}
}

/* --- packs: long chains ------------------------------------------------------------- */

/* `depth` commits, each a delta of the one before (OFS forward, or REF to the next one in
 * the pack so that resolving the first walks the whole chain); the last has an uppercase
 * tree. `pad` bytes of message make each commit bigger. */
static void build_chain(struct pk *p, enum hexoid_algo algo, unsigned depth, int ref, size_t pad,
			size_t *last)
{
	char tree[HEXOID_MAX_HEXSZ + 1], up[HEXOID_MAX_HEXSZ + 1];
	char *prev = malloc(pad + 512), *cur = malloc(pad + 512), *msg = malloc(pad + 64);
	struct buf *deltas = calloc(depth + 1, sizeof(*deltas));
	unsigned char (*oids)[HEXOID_MAX_RAWSZ] = calloc(depth + 1, sizeof(*oids));
	char **texts = calloc(depth + 1, sizeof(*texts));

	hexid(tree, algo, 21);
	strcpy(up, tree);
	up[0] = 'A'; /* column 6 */
	pk_init(p, algo);
	memset(msg, 'x', pad);
	for (unsigned i = 0; i <= depth; i++) {
		snprintf(msg + pad, 64, " number %u", i);
		commit_text(cur, pad + 512, i == depth ? up : tree, NULL, msg);
		texts[i] = strdup(cur);
		oid_of(algo, HEXOID_OBJ_COMMIT, cur, strlen(cur), oids[i]);
		if (i)
			make_delta(&deltas[i], texts[i - 1], strlen(texts[i - 1]), cur, strlen(cur));
	}
	if (!ref) {
		size_t e = pk_text(p, HEXOID_OBJ_COMMIT, texts[0]);
		for (unsigned i = 1; i <= depth; i++)
			e = pk_ofs(p, e, HEXOID_OBJ_COMMIT, texts[i], strlen(texts[i]), &deltas[i]);
		*last = e;
	} else {
		/* deepest first: commit depth, depth-1, ..., 1 (REF deltas), then commit 0 */
		for (unsigned i = depth; i >= 1; i--) {
			size_t e = pk_ref(p, oids[i - 1], HEXOID_OBJ_COMMIT, texts[i], strlen(texts[i]),
					  &deltas[i]);
			if (i == depth)
				*last = e;
		}
		pk_text(p, HEXOID_OBJ_COMMIT, texts[0]);
	}
	pk_finish(p);
	for (unsigned i = 0; i <= depth; i++) {
		bfree(&deltas[i]);
		free(texts[i]);
	}
	free(deltas);
	free(oids);
	free(texts);
	free(prev);
	free(cur);
	free(msg);
}

static void chain_case(enum hexoid_algo algo, unsigned depth, int ref, size_t pad, size_t cache,
		       unsigned jobs, int exact_deltas)
{
	struct pk p;
	size_t last;
	struct got g = { 0 };
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	int rc;

	build_chain(&p, algo, depth, ref, pad, &last);
	rc = pk_scan(&p, jobs, cache, 1, &g, &st);
	CHECK(rc == 0 && g.n == 1 && g.v[0].f.code == HEXOID_FIND_UPPERCASE &&
		      g.v[0].f.offset == p.e[last].off && g.v[0].f.line == 1 && g.v[0].f.column == 6,
	      "chain algo %d depth %u ref %d pad %zu cache %zu jobs %u: rc %d, %zu findings", algo,
	      depth, ref, pad, cache, jobs, rc, g.n);
	if (g.n != 1)
		dump("chain", &g);
	CHECK(st.commits == depth + 1 && st.errors == 0 && st.git3 == 1,
	      "chain depth %u: commits %llu errors %llu", depth, (unsigned long long)st.commits,
	      (unsigned long long)st.errors);
	/* deltas: the commits stored as deltas, whatever the cache and jobs; applied: the
	 * work, once each when every base stays cached. */
	CHECK(st.deltas == depth, "chain depth %u cache %zu jobs %u: %llu deltas resolved", depth,
	      cache, jobs, (unsigned long long)st.deltas);
	if (exact_deltas)
		CHECK(st.applied == depth, "chain depth %u cache %zu: %llu delta applications", depth,
		      cache, (unsigned long long)st.applied);
	else
		CHECK(st.applied >= depth, "chain depth %u cache %zu: %llu delta applications", depth,
		      cache, (unsigned long long)st.applied);
	got_free(&g);
	pk_free(&p);
}

TEST(pack_delta_chain)
{
	/* 3000 deep; verify_ids proves each result right. Small commits fit a 1 KiB cache. */
	chain_case(HEXOID_SHA1, 3000, 0, 0, 1024, 1, 1);
	chain_case(HEXOID_SHA1, 3000, 0, 0, 0, 1, 1);
	chain_case(HEXOID_SHA256, 3000, 1, 0, 1024, 1, 0);
	chain_case(HEXOID_SHA256, 3000, 1, 0, 0, 2, 0);
	chain_case(HEXOID_SHA1, 3000, 1, 0, 1024, 3, 0);
	/* Commits bigger than the cache keeps: every one rebuilt from the bottom. */
	chain_case(HEXOID_SHA1, 200, 0, 600, 1024, 1, 0);
	chain_case(HEXOID_SHA1, 200, 1, 600, 1024, 2, 0);
	chain_case(HEXOID_SHA1, 200, 0, 600, 0, 1, 1);
}

/* --- packs: damage ------------------------------------------------------------------ */

/* A pack of one clean commit (entry 0) and whatever `add` puts after it. */
struct dmg {
	struct pk p;
	char base[1024];
	size_t blen;
	size_t bad; /* the damaged entry */
};

static void dmg_begin(struct dmg *m, enum hexoid_algo algo)
{
	char tree[HEXOID_MAX_HEXSZ + 1];
	hexid(tree, algo, 31);
	pk_init(&m->p, algo);
	commit_text(m->base, sizeof(m->base), tree, NULL, "base");
	m->blen = strlen(m->base);
	pk_text(&m->p, HEXOID_OBJ_COMMIT, m->base);
}

/* A delta of the base commit, with delta bytes as given. */
/*
 * The same damage through the command, when the runner names it (HEXOID): the pack and
 * index go to files, `hexoid verify-pack` must exit 1 (not 2, not a signal) and report
 * the object's offset with the same words. SHA-1 only: every case costs a process (and
 * under qemu, an emulator).
 */
static void cli_expect(const char *name, const struct pk *p, uint64_t off, const char *sub)
{
	const char *h = getenv("HEXOID");
	char dir[] = "/tmp/hexoid-pack-XXXXXX", path[64], cmd[1024], out[4096], want[64];
	size_t got = 0;
	FILE *f;
	int status;

	if (!h || !*h || p->algo != HEXOID_SHA1 || !mkdtemp(dir))
		return;
	snprintf(path, sizeof(path), "%s/x.pack", dir);
	f = fopen(path, "wb");
	CHECK(f && fwrite(p->pack.p, 1, p->pack.n, f) == p->pack.n && fclose(f) == 0, "%s: write pack", name);
	snprintf(path, sizeof(path), "%s/x.idx", dir);
	f = fopen(path, "wb");
	CHECK(f && fwrite(p->idx, 1, p->idxlen, f) == p->idxlen && fclose(f) == 0, "%s: write idx", name);
	snprintf(cmd, sizeof(cmd), "%s verify-pack -q %s/x.pack 2>&1", h, dir);
	f = popen(cmd, "r");
	CHECK(f != NULL, "%s: popen", name);
	if (!f)
		return;
	got = fread(out, 1, sizeof(out) - 1, f);
	out[got] = 0;
	status = pclose(f);
	snprintf(want, sizeof(want), "offset %llu: error: ", (unsigned long long)off);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1, "%s: command exit %d (want 1)", name,
	      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	CHECK(strstr(out, want) && (!sub || strstr(out, sub)), "%s: command output lacks '%s' and '%s': %.300s",
	      name, want, sub ? sub : "", out);
	snprintf(path, sizeof(path), "%s/x.pack", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/x.idx", dir);
	unlink(path);
	rmdir(dir);
}

static void dmg_delta(const char *what, enum hexoid_algo algo, int ref, const struct buf *d,
		      enum hexoid_finding_code code, const char *sub)
{
	struct dmg m;
	struct got g = { 0 };
	char name[128];
	dmg_begin(&m, algo);
	m.bad = ref ? pk_ref(&m.p, m.p.e[0].oid, HEXOID_OBJ_COMMIT, NULL, 0, d)
		    : pk_ofs(&m.p, 0, HEXOID_OBJ_COMMIT, NULL, 0, d);
	pk_finish(&m.p);
	CHECK(pk_scan(&m.p, 1, 0, 0, &g, NULL) == 0, "%s: rc", what);
	snprintf(name, sizeof(name), "%s (algo %d, %s)", what, algo, ref ? "ref" : "ofs");
	const struct hexoid_finding *f = expect_one(name, &g, code, m.p.e[m.bad].off, sub);
	if (f)
		CHECK(f->git3 == 0 && f->has_oid && !memcmp(f->oid, m.p.e[m.bad].oid, m.p.rawsz),
		      "%s: git3 %d, oid", name, f->git3);
	cli_expect(name, &m.p, m.p.e[m.bad].off, sub);
	got_free(&g);
	pk_free(&m.p);
}

TEST(pack_bad_deltas)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++)
		for (int ref = 0; ref <= 1; ref++) {
			struct buf d = { 0 };
			char tree[HEXOID_MAX_HEXSZ + 1];
			size_t blen;
			hexid(tree, algo, 31);
			{
				char b[1024];
				commit_text(b, sizeof(b), tree, NULL, "base");
				blen = strlen(b);
			}
			/* copy out of the base's range */
			d_sizes(&d, blen, 10);
			d_copy(&d, (uint32_t)blen - 5, 10);
			dmg_delta("copy past the base", algo, ref, &d, HEXOID_FIND_DELTA, "copies 10 bytes");
			d.n = 0;
			/* copy with a 4-byte offset far away */
			d_sizes(&d, blen, 4);
			d_copy(&d, 0x12345678u, 4);
			dmg_delta("copy from far away", algo, ref, &d, HEXOID_FIND_DELTA, "copies");
			d.n = 0;
			/* copy more than the result's size */
			d_sizes(&d, blen, 4);
			d_copy(&d, 0, 8);
			dmg_delta("copy past the result", algo, ref, &d, HEXOID_FIND_DELTA, "copies");
			d.n = 0;
			/* insert past the end of the delta */
			d_sizes(&d, blen, 50);
			bbyte(&d, 50);
			bstr(&d, "only ten..");
			dmg_delta("insert past the delta", algo, ref, &d, HEXOID_FIND_DELTA,
				  "inserts 50 bytes past the end of the delta");
			d.n = 0;
			/* insert past the end of the result */
			d_sizes(&d, blen, 5);
			d_insert(&d, "0123456789", 10);
			dmg_delta("insert past the result", algo, ref, &d, HEXOID_FIND_DELTA,
				  "past the end of the result");
			d.n = 0;
			/* reserved opcode 0 */
			d_sizes(&d, blen, 4);
			d_insert(&d, "ab", 2);
			bbyte(&d, 0);
			d_insert(&d, "cd", 2);
			dmg_delta("opcode 0", algo, ref, &d, HEXOID_FIND_DELTA, "reserved instruction 0");
			d.n = 0;
			/* result size mismatch: says 100, makes 12 */
			d_sizes(&d, blen, 100);
			d_copy(&d, 0, 12);
			dmg_delta("result short", algo, ref, &d, HEXOID_FIND_DELTA,
				  "makes 12 bytes where it says 100");
			d.n = 0;
			/* base size mismatch */
			d_sizes(&d, blen + 1, 4);
			d_copy(&d, 0, 4);
			dmg_delta("base size", algo, ref, &d, HEXOID_FIND_DELTA, "expects a base of");
			d.n = 0;
			/* sizes cut short */
			bbyte(&d, 0x80 | (blen & 0x7f));
			dmg_delta("sizes cut", algo, ref, &d, HEXOID_FIND_DELTA, "cut short");
			d.n = 0;
			/* copy instruction missing its operand bytes */
			d_sizes(&d, blen, 4);
			bbyte(&d, 0x91);
			bbyte(&d, 0);
			dmg_delta("copy cut", algo, ref, &d, HEXOID_FIND_DELTA, "cut short");
			d.n = 0;
			/* an impossible result size: too big for the delta's bytes */
			d_sizes(&d, blen, (uint64_t)1 << 62);
			d_copy(&d, 0, 4);
			dmg_delta("huge result", algo, ref, &d, HEXOID_FIND_DELTA, "impossible");
			d.n = 0;
			/* an empty delta */
			dmg_delta("empty delta", algo, ref, &d, HEXOID_FIND_DELTA, "cut short");
			/* but a copy of size 0 means 0x10000, and a good delta is fine */
			bfree(&d);
		}
}

/* Damage at one object: scan and expect exactly one finding there. */
static void dmg_expect(const char *what, struct dmg *m, enum hexoid_finding_code code,
		       const char *sub)
{
	struct got g = { 0 };
	char name[128];
	int rc = pk_scan(&m->p, 1, 0, 0, &g, NULL);
	snprintf(name, sizeof(name), "%s (algo %d)", what, m->p.algo);
	CHECK(rc == 0, "%s: rc %d", name, rc);
	const struct hexoid_finding *f = expect_one(name, &g, code, m->p.e[m->bad].off, sub);
	if (f)
		CHECK(f->git3 == 0, "%s: git3", name);
	cli_expect(name, &m->p, m->p.e[m->bad].off, sub);
	got_free(&g);
	/* The same with two threads. */
	rc = pk_scan(&m->p, 2, 0, 0, &g, NULL);
	CHECK(rc == 0 && g.n == 1, "%s, 2 jobs: rc %d, %zu findings", name, rc, g.n);
	got_free(&g);
	pk_free(&m->p);
}

TEST(pack_bad_objects)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct dmg m;
		struct buf z = { 0 }, d = { 0 }, x = { 0 };
		unsigned char oid[HEXOID_MAX_RAWSZ];
		size_t rawsz = hexoid_rawsz(algo);

		/* REF base not in the pack */
		dmg_begin(&m, algo);
		memset(oid, 0x5a, sizeof(oid));
		d_sizes(&d, 4, 4);
		d_copy(&d, 0, 4);
		m.bad = pk_ref(&m.p, oid, HEXOID_OBJ_COMMIT, NULL, 0, &d);
		pk_finish(&m.p);
		dmg_expect("REF base missing", &m, HEXOID_FIND_BASE, "5a5a5a5a is not in this pack");

		/* REF base that is itself */
		dmg_begin(&m, algo);
		{
			unsigned k = ++m.p.fakes;
			unsigned char self[HEXOID_MAX_RAWSZ];
			digest(algo, "fake", 4, &k, sizeof(k), self);
			m.p.fakes--; /* pk_bytes makes this very ID */
			m.bad = pk_ref(&m.p, self, HEXOID_OBJ_COMMIT, NULL, 0, &d);
			CHECK(!memcmp(m.p.e[m.bad].oid, self, rawsz), "self ID");
		}
		pk_finish(&m.p);
		dmg_expect("REF to itself", &m, HEXOID_FIND_BASE, "loop");

		/* A REF cycle: A is a delta of B, B of A. */
		{
			struct got g = { 0 };
			unsigned char ida[HEXOID_MAX_RAWSZ], idb[HEXOID_MAX_RAWSZ];
			size_t a, b;
			dmg_begin(&m, algo);
			digest(algo, "A", 1, NULL, 0, ida);
			digest(algo, "B", 1, NULL, 0, idb);
			a = pk_ref(&m.p, idb, HEXOID_OBJ_COMMIT, NULL, 0, &d);
			memcpy(m.p.e[a].oid, ida, rawsz);
			b = pk_ref(&m.p, ida, HEXOID_OBJ_COMMIT, NULL, 0, &d);
			memcpy(m.p.e[b].oid, idb, rawsz);
			pk_finish(&m.p);
			CHECK(pk_scan(&m.p, 2, 0, 0, &g, NULL) == 0 && g.n >= 1 && g.n <= 2,
			      "cycle: %zu findings", g.n);
			for (size_t i = 0; i < g.n; i++)
				CHECK(g.v[i].f.code == HEXOID_FIND_BASE && strstr(g.v[i].f.message, "loop") &&
					      (g.v[i].f.offset == m.p.e[a].off ||
					       g.v[i].f.offset == m.p.e[b].off),
				      "cycle: finding %zu", i);
			CHECK(g.n && g.v[0].f.offset == m.p.e[a].off, "cycle: first at A");
			got_free(&g);
			pk_free(&m.p);
		}

		/* OFS pointing inside the base commit */
		dmg_begin(&m, algo);
		put_ofs(&x, m.p.pack.n - 15);
		zdeflate(d.p, d.n, &z);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, d.n, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("OFS inside another object", &m, HEXOID_FIND_BASE,
			   "delta base at offset 15 is not an object");
		x.n = 0;
		/* OFS before 12 (into the pack header) */
		dmg_begin(&m, algo);
		put_ofs(&x, m.p.pack.n - 4);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, d.n, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("OFS into the header", &m, HEXOID_FIND_BASE, "offset 4 ");
		x.n = 0;
		/* OFS to 0 exactly, and further back than the start */
		dmg_begin(&m, algo);
		put_ofs(&x, m.p.pack.n);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, d.n, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("OFS to offset 0", &m, HEXOID_FIND_BASE, NULL);
		x.n = 0;
		dmg_begin(&m, algo);
		put_ofs(&x, m.p.pack.n + 1000);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, d.n, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("OFS before the pack", &m, HEXOID_FIND_BASE, "outside the pack");
		x.n = 0;
		/* OFS distance 0 */
		dmg_begin(&m, algo);
		bbyte(&x, 0);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, d.n, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("OFS distance 0", &m, HEXOID_FIND_BASE, NULL);
		x.n = 0;
		/* OFS varint that never ends: 12 continuation bytes */
		dmg_begin(&m, algo);
		for (int i = 0; i < 12; i++)
			bbyte(&x, 0xff);
		bbyte(&x, 0x01);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, d.n, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("OFS varint too long", &m, HEXOID_FIND_HEADER, "too long");
		x.n = 0;
		bfree(&z);

		/* Object size varint too long: 12 continuation bytes */
		dmg_begin(&m, algo);
		bbyte(&x, 0x80 | (HEXOID_OBJ_COMMIT << 4));
		for (int i = 0; i < 11; i++)
			bbyte(&x, 0x80);
		bbyte(&x, 0x00);
		zdeflate("x", 1, &x);
		m.bad = pk_bytes(&m.p, x.p, x.n, NULL);
		pk_finish(&m.p);
		dmg_expect("size varint too long", &m, HEXOID_FIND_HEADER, "too long");
		x.n = 0;
		/* Size varint running into the next object */
		dmg_begin(&m, algo);
		bbyte(&x, 0x80 | (HEXOID_OBJ_BLOB << 4));
		bbyte(&x, 0x80);
		m.bad = pk_bytes(&m.p, x.p, x.n, NULL);
		pk_text(&m.p, HEXOID_OBJ_BLOB, "next");
		pk_finish(&m.p);
		dmg_expect("size varint cut", &m, HEXOID_FIND_HEADER, "runs past");
		x.n = 0;
		/* REF delta header cut short (not a whole ID before the next object) */
		dmg_begin(&m, algo);
		bbyte(&x, (HEXOID_OBJ_REF_DELTA << 4) | 4);
		bput(&x, "abcdef", 6);
		m.bad = pk_bytes(&m.p, x.p, x.n, NULL);
		pk_text(&m.p, HEXOID_OBJ_BLOB, "next");
		pk_finish(&m.p);
		dmg_expect("REF header cut", &m, HEXOID_FIND_HEADER, "runs past");
		x.n = 0;

		/* Unknown types 5 and 0 */
		for (unsigned type = 0; type <= 5; type += 5) {
			char sub[32];
			dmg_begin(&m, algo);
			z.n = 0;
			zdeflate("abc", 3, &z);
			m.bad = pk_put(&m.p, type, 3, NULL, 0, z.p, z.n, NULL);
			pk_finish(&m.p);
			snprintf(sub, sizeof(sub), "unknown object type %u", type);
			dmg_expect(sub, &m, HEXOID_FIND_HEADER, sub);
		}

		/* A huge size for a few packed bytes */
		dmg_begin(&m, algo);
		z.n = 0;
		zdeflate("tree x\n", 7, &z);
		m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, (uint64_t)1 << 40, NULL, 0, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("huge size", &m, HEXOID_FIND_HEADER, "1099511627776 bytes claimed");
		/* ... for a delta too */
		dmg_begin(&m, algo);
		x.n = 0;
		put_ofs(&x, m.p.pack.n - m.p.e[0].off);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, (uint64_t)1 << 40, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("huge delta size", &m, HEXOID_FIND_HEADER, "claimed");

		/* A truncated zlib stream: half of it, then the next object */
		{
			char big[2048];
			char tree[HEXOID_MAX_HEXSZ + 1];
			hexid(tree, algo, 41);
			commit_text(big, sizeof(big), tree, NULL, "a commit to cut");
			dmg_begin(&m, algo);
			z.n = 0;
			zdeflate(big, strlen(big), &z);
			m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big), NULL, 0, z.p, z.n / 2, NULL);
			pk_text(&m.p, HEXOID_OBJ_BLOB, "next");
			pk_finish(&m.p);
			dmg_expect("truncated zlib", &m, HEXOID_FIND_ZLIB, "truncated");
			/* ... and as the last object of the pack */
			dmg_begin(&m, algo);
			m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big), NULL, 0, z.p, z.n - 6, NULL);
			pk_finish(&m.p);
			dmg_expect("truncated zlib at the end", &m, HEXOID_FIND_ZLIB, "truncated");
			/* bytes after the stream, before the next object */
			dmg_begin(&m, algo);
			bput(&z, "JUNK", 4);
			m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big), NULL, 0, z.p, z.n, NULL);
			pk_text(&m.p, HEXOID_OBJ_BLOB, "next");
			pk_finish(&m.p);
			dmg_expect("junk after zlib", &m, HEXOID_FIND_ZLIB, "ends 4 bytes before");
			/* size header smaller than the content */
			dmg_begin(&m, algo);
			z.n = 0;
			zdeflate(big, strlen(big), &z);
			m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big) - 3, NULL, 0, z.p, z.n, NULL);
			pk_finish(&m.p);
			dmg_expect("size too small", &m, HEXOID_FIND_ZLIB, "more than");
			/* not zlib at all */
			dmg_begin(&m, algo);
			m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, 20, NULL, 0, "this is not zlib data", 21, NULL);
			pk_finish(&m.p);
			dmg_expect("not zlib", &m, HEXOID_FIND_ZLIB, "zlib");
			/* a delta whose base commit is broken: found at both */
			{
				struct got g = { 0 };
				size_t base;
				dmg_begin(&m, algo);
				z.n = 0;
				zdeflate(big, strlen(big), &z);
				base = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big), NULL, 0, z.p, z.n / 2, NULL);
				d.n = 0;
				d_sizes(&d, strlen(big), 4);
				d_copy(&d, 0, 4);
				m.bad = pk_ofs(&m.p, base, HEXOID_OBJ_COMMIT, NULL, 0, &d);
				pk_finish(&m.p);
				CHECK(pk_scan(&m.p, 1, 0, 0, &g, NULL) == 0 && g.n == 2 &&
					      g.v[0].f.code == HEXOID_FIND_ZLIB &&
					      g.v[0].f.offset == m.p.e[base].off &&
					      g.v[1].f.code == HEXOID_FIND_ZLIB &&
					      g.v[1].f.offset == m.p.e[m.bad].off &&
					      strstr(g.v[1].f.message, "delta base at offset"),
				      "broken base: %zu findings", g.n);
				if (g.n != 2)
					dump("broken base", &g);
				got_free(&g);
				pk_free(&m.p);
			}
		}
		bfree(&z);
		bfree(&d);
		bfree(&x);
	}
}

/*
 * A zlib failure that comes only once all of an object's bytes are used is damage, not
 * success: a stream that ends short of the header's size, a zlib error at the very end
 * of the input (the Adler-32 check), or an object with no data bytes at all. None of
 * these objects may be checked as if whole (its buffer's tail would never have been
 * written) or counted in stats.commits.
 * Inputs (each a pack of one clean commit, then the damaged commit):
 *   a. commit header size = content length + 10, a complete zlib stream of the content;
 *   b. a complete zlib stream of the commit with its last byte (Adler-32) flipped;
 *   c. a commit header claiming 10 bytes and no zlib bytes at all before the next object.
 * Expected: one HEXOID_FIND_ZLIB finding at the damaged object ("inflates to N bytes
 * where the header says M", "incorrect data check", "truncated").
 */
TEST(pack_zlib_failure_at_end_of_input)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct dmg m;
		struct buf z = { 0 };
		char big[2048], tree[HEXOID_MAX_HEXSZ + 1];
		hexid(tree, algo, 51);
		commit_text(big, sizeof(big), tree, NULL, "a commit");

		dmg_begin(&m, algo);
		zdeflate(big, strlen(big), &z);
		m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big) + 10, NULL, 0, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("a. size header bigger than the content", &m, HEXOID_FIND_ZLIB,
			   "where the header says");

		dmg_begin(&m, algo);
		z.p[z.n - 1] ^= 0x55;
		m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big), NULL, 0, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("b. Adler-32 wrong", &m, HEXOID_FIND_ZLIB, NULL);

		dmg_begin(&m, algo);
		m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, 10, NULL, 0, NULL, 0, NULL);
		pk_text(&m.p, HEXOID_OBJ_BLOB, "next");
		pk_finish(&m.p);
		dmg_expect("c. no zlib bytes at all", &m, HEXOID_FIND_ZLIB, NULL);
		bfree(&z);
	}
}

/* The pack as a whole: checksums, count, CRC, the index's ID order, truncation. */
TEST(pack_damage_level)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct pk p;
		struct repo r;
		struct got g = { 0 };
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		char err[256];
		unsigned char *save;
		size_t rawsz = hexoid_rawsz(algo);
		uint64_t trailer;

		build_repo(&p, &r, algo);
		trailer = pk_trailer(&p);
		save = malloc(p.pack.n + p.idxlen);
		memcpy(save, p.pack.p, p.pack.n);
		memcpy(save + p.pack.n, p.idx, p.idxlen);

		/* CRC mismatch of one object in the index */
		{
			size_t at = 8 + 1024 + p.n * rawsz + 4 * p.e[r.c[2]].pos;
			p.idx[at + 3] ^= 1;
			pk_seal_idx(&p);
			CHECK(pk_scan(&p, 1, 0, 0, &g, &st) == 0, "crc: rc");
			const struct hexoid_finding *f =
				expect_one("crc", &g, HEXOID_FIND_CRC, p.e[r.c[2]].off, "crc32 mismatch");
			if (f)
				CHECK(f->has_oid && !memcmp(f->oid, p.e[r.c[2]].oid, rawsz) && f->git3 == 0,
				      "crc: oid");
			CHECK(st.errors == 1 && st.git3 == 0 && st.commits == 6, "crc: stats");
			got_free(&g);
			memcpy(p.idx, save + p.pack.n, p.idxlen);
		}
		/* The pack's trailer wrong: it neither hashes nor matches the index */
		p.pack.p[trailer] ^= 0x80;
		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0 && g.n == 2 &&
			      g.v[0].f.code == HEXOID_FIND_CHECKSUM && g.v[0].f.offset == trailer &&
			      g.v[1].f.code == HEXOID_FIND_CHECKSUM && g.v[1].f.offset == trailer &&
			      strstr(g.v[1].f.message, "do not hash"),
		      "trailer: %zu findings", g.n);
		if (g.n != 2)
			dump("trailer", &g);
		got_free(&g);
		memcpy(p.pack.p, save, p.pack.n);
		/* The index's own checksum wrong */
		p.idx[p.idxlen - 1] ^= 1;
		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0, "idx sum: rc");
		expect_one("idx checksum", &g, HEXOID_FIND_CHECKSUM, HEXOID_NO_OFFSET, "index");
		got_free(&g);
		memcpy(p.idx, save + p.pack.n, p.idxlen);
		/* The index's record of the pack checksum wrong (its own checksum right) */
		p.idx[p.idxlen - 2 * rawsz] ^= 1;
		pk_seal_idx(&p);
		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0, "idx pack sum: rc");
		expect_one("idx's pack checksum", &g, HEXOID_FIND_CHECKSUM, trailer, "trailer");
		got_free(&g);
		memcpy(p.idx, save + p.pack.n, p.idxlen);
		/* A byte of a blob changed: the CRC and the pack's hash */
		p.pack.p[p.e[r.blob].off + 4] ^= 0x10;
		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0 && g.n == 2 &&
			      g.v[0].f.code == HEXOID_FIND_CRC && g.v[0].f.offset == p.e[r.blob].off &&
			      g.v[1].f.code == HEXOID_FIND_CHECKSUM,
		      "blob byte: %zu findings", g.n);
		if (g.n != 2)
			dump("blob byte", &g);
		got_free(&g);
		memcpy(p.pack.p, save, p.pack.n);
		pk_free(&p);
		free(save);

		/* The header's object count wrong, the pack otherwise consistent */
		build_repo(&p, &r, algo);
		free(p.idx);
		p.pack.n -= p.rawsz; /* drop the trailer, and finish again with another count */
		pk_finish_count(&p, (uint32_t)p.n + 1);
		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0, "count: rc");
		{
			const struct hexoid_finding *f = expect_one("count", &g, HEXOID_FIND_LAYOUT, 8, NULL);
			if (f) {
				char want[64];
				snprintf(want, sizeof(want), "counts %zu objects, its index %zu", p.n + 1, p.n);
				CHECK(strstr(f->message, want) != NULL, "count message: %s", f->message);
			}
		}
		got_free(&g);

		/* Bad magic, bad version, too short: -1 with a message */
		p.pack.p[0] = 'J';
		CHECK(pk_scan_raw(p.pack.p, p.pack.n, p.idx, p.idxlen, 1, 0, 0, &g, NULL, err,
				  sizeof(err)) == -1 &&
			      strstr(err, "test.pack") && strstr(err, "PACK"),
		      "magic: %s", err);
		p.pack.p[0] = 'P';
		for (uint32_t v = 0; v < 5; v += 1) {
			int rc;
			p.pack.p[7] = (unsigned char)v;
			rc = pk_scan_raw(p.pack.p, p.pack.n, p.idx, p.idxlen, 1, 0, 0, &g, NULL, err,
					 sizeof(err));
			if (v == 2 || v == 3)
				CHECK(rc == 0, "version %u: rc %d", v, rc);
			else
				CHECK(rc == -1 && strstr(err, "version"), "version %u: rc %d %s", v, rc, err);
			got_free(&g);
		}
		p.pack.p[7] = 2;
		CHECK(pk_scan_raw(p.pack.p, 0, p.idx, p.idxlen, 1, 0, 0, &g, NULL, err, sizeof(err)) == -1,
		      "empty pack");
		CHECK(pk_scan_raw(p.pack.p, p.pack.n, p.idx, 100, 1, 0, 0, &g, NULL, err,
				  sizeof(err)) == -1 && strstr(err, "test.pack"),
		      "short index: %s", err);
		CHECK(g.n == 0, "no findings from failures");
		/* NULL arguments */
		{
			struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
			CHECK(hexoid_pack_scan_buffers("x", NULL, 10, p.idx, p.idxlen, &o, NULL, err,
						       sizeof(err)) == -1, "NULL pack");
			CHECK(hexoid_pack_scan_buffers("x", p.pack.p, p.pack.n, p.idx, p.idxlen, NULL,
						       NULL, err, sizeof(err)) == -1, "NULL options");
			CHECK(hexoid_pack_scan_buffers("x", p.pack.p, p.pack.n, p.idx, p.idxlen, &o,
						       NULL, NULL, 0) == 0, "NULL err");
		}
		pk_free(&p);

		/* Truncated at every length: -1 or findings, never a crash (ASan in
		 * check-sanitize), and never a clean result. */
		build_repo(&p, &r, algo);
		for (size_t len = 0; len < p.pack.n; len++) {
			struct hexoid_scan_stats s2;
			int rc = pk_scan_raw(p.pack.p, len, p.idx, p.idxlen, len % 3 + 1, 0, 0, &g, &s2,
					     err, sizeof(err));
			if (len < 12 + rawsz)
				CHECK(rc == -1, "truncated to %zu: rc %d", len, rc);
			else
				CHECK(rc == 0 && g.n >= 1, "truncated to %zu: rc %d, %zu findings", len, rc,
				      g.n);
			got_free(&g);
			if (test_failed())
				break;
		}
		/* ... and the index truncated at every length: -1 */
		for (size_t len = 0; len < p.idxlen; len += (len < 1100 ? 1 : 7)) {
			int rc = pk_scan_raw(p.pack.p, p.pack.n, p.idx, len, 1, 0, 0, &g, NULL, err,
					     sizeof(err));
			CHECK(rc == -1 && g.n == 0, "index truncated to %zu: rc %d", len, rc);
			got_free(&g);
			if (test_failed())
				break;
		}
		pk_free(&p);
	}
}

/* The index puts an object where there is none: outside the pack, two at one offset. */
TEST(pack_damage_offsets)
{
	struct pk p;
	struct repo r;
	struct got g = { 0 };
	build_repo(&p, &r, HEXOID_SHA1);
	/* c3's offset moved onto c2's: two objects at one offset */
	{
		size_t at = 8 + 1024 + p.n * (20 + 4) + 4 * p.e[r.c[3]].pos;
		put32(p.idx + at, (uint32_t)p.e[r.c[2]].off);
		pk_seal_idx(&p);
		CHECK(pk_scan(&p, 2, 0, 0, &g, NULL) == 0 && g.n >= 1, "two at one offset: %zu", g.n);
		int seen = 0;
		for (size_t i = 0; i < g.n; i++)
			seen |= g.v[i].f.code == HEXOID_FIND_LAYOUT && g.v[i].f.offset == p.e[r.c[2]].off &&
				strstr(g.v[i].f.message, "two objects");
		CHECK(seen, "two at one offset: the LAYOUT finding");
		if (!seen)
			dump("two at one", &g);
		got_free(&g);
		/* ... past the end of the pack */
		put32(p.idx + at, (uint32_t)p.pack.n + 100);
		pk_seal_idx(&p);
		CHECK(pk_scan(&p, 2, 0, 0, &g, NULL) == 0 && g.n >= 1, "outside: %zu", g.n);
		seen = 0;
		for (size_t i = 0; i < g.n; i++)
			seen |= g.v[i].f.code == HEXOID_FIND_LAYOUT && strstr(g.v[i].f.message, "outside");
		CHECK(seen, "outside: the LAYOUT finding");
		got_free(&g);
		/* ... inside the header */
		put32(p.idx + at, 3);
		pk_seal_idx(&p);
		CHECK(pk_scan(&p, 2, 0, 0, &g, NULL) == 0 && g.n >= 1, "in the header: %zu", g.n);
		got_free(&g);
	}
	pk_free(&p);
}

/* --- determinism -------------------------------------------------------------------- */

/* Many findings of every step: CRC (A), bases (B), headers, zlib, deltas (C), at
 * different objects, behind big blobs so that threads split the steps differently. */
static void build_many(struct pk *p, enum hexoid_algo algo, int crc_and_upper_same_object,
		       size_t *both)
{
	char tree[HEXOID_MAX_HEXSZ + 1], up[HEXOID_MAX_HEXSZ + 1], t[1024];
	struct buf d = { 0 }, z = { 0 };
	unsigned char *blob = malloc(300000);
	unsigned char missing[HEXOID_MAX_RAWSZ];
	size_t prev = 0, i;

	hexid(tree, algo, 61);
	strcpy(up, tree);
	upper_at(up, 0);
	pk_init(p, algo);
	/* incompressible blobs: most of the bytes at the start */
	for (i = 0; i < 300000; i++)
		blob[i] = (unsigned char)test_rand();
	pk_obj(p, HEXOID_OBJ_BLOB, blob, 150000);
	blob[0] ^= 1;
	pk_obj(p, HEXOID_OBJ_BLOB, blob, 300000);
	memset(missing, 0x77, sizeof(missing));
	for (i = 0; i < 60; i++) {
		char msg[32];
		snprintf(msg, sizeof(msg), "commit %zu", i);
		commit_text(t, sizeof(t), i % 3 == 0 ? up : tree, NULL, msg);
		switch (i % 6) {
		case 0: case 1: case 3:
			prev = pk_text(p, HEXOID_OBJ_COMMIT, t);
			break;
		case 2:
			/* a delta of the previous commit */
			d.n = 0;
			snprintf(msg, sizeof(msg), "delta %zu", i);
			commit_text(t, sizeof(t), up, NULL, msg);
			{
				char base[1024];
				snprintf(msg, sizeof(msg), "commit %zu", i - 1);
				commit_text(base, sizeof(base), tree, NULL, msg);
				make_delta(&d, base, strlen(base), t, strlen(t));
			}
			pk_ofs(p, prev, HEXOID_OBJ_COMMIT, t, strlen(t), &d);
			break;
		case 4:
			/* a missing REF base */
			d.n = 0;
			d_sizes(&d, 4, 4);
			d_copy(&d, 0, 4);
			missing[0] = (unsigned char)i;
			pk_ref(p, missing, HEXOID_OBJ_COMMIT, NULL, 0, &d);
			break;
		case 5:
			/* a truncated stream */
			z.n = 0;
			zdeflate(t, strlen(t), &z);
			pk_put(p, HEXOID_OBJ_COMMIT, strlen(t), NULL, 0, z.p, z.n / 2, NULL);
			break;
		}
	}
	pk_finish(p);
	/* CRC mismatches: on commits without other findings, or (to show the ordering
	 * problem) on commits with an uppercase tree too. */
	*both = SIZE_MAX;
	for (i = 2; i < p->n; i++) {
		size_t k = i - 2;
		int upper_plain = k % 3 == 0 && (k % 6 == 0 || k % 6 == 3);
		int clean_plain = k % 6 == 1;
		if (crc_and_upper_same_object ? upper_plain : clean_plain) {
			size_t at = 8 + 1024 + p->n * p->rawsz + 4 * p->e[i].pos;
			p->idx[at] ^= 0x40;
			if (*both == SIZE_MAX)
				*both = i;
		}
	}
	pk_seal_idx(p);
	bfree(&d);
	bfree(&z);
	free(blob);
}

static int same_findings(const struct got *a, const struct got *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++) {
		const struct hexoid_finding *x = &a->v[i].f, *y = &b->v[i].f;
		if (x->code != y->code || x->offset != y->offset || x->git3 != y->git3 ||
		    x->has_oid != y->has_oid || memcmp(x->oid, y->oid, sizeof(x->oid)) ||
		    x->line != y->line || x->column != y->column || x->type != y->type ||
		    (x->header == NULL) != (y->header == NULL) ||
		    (x->header && strcmp(x->header, y->header)) || strcmp(x->message, y->message))
			return 0;
	}
	return 1;
}

static void jobs_compare(int both_at_once)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct pk p;
		struct got ref = { 0 };
		struct hexoid_scan_stats st0;
		size_t both;
		static const unsigned jobs[] = { 2, 3, 8 };

		build_many(&p, algo, both_at_once, &both);
		CHECK(pk_scan(&p, 1, 0, 1, &ref, &st0) == 0 && ref.n >= 60, "jobs 1: %zu findings",
		      ref.n);
		for (size_t i = 1; i < ref.n; i++)
			CHECK(ref.v[i - 1].f.offset <= ref.v[i].f.offset ||
				      ref.v[i].f.offset == HEXOID_NO_OFFSET,
			      "findings out of offset order at %zu", i);
		for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
			for (size_t cache = 0; cache <= 1024; cache += 1024) {
				struct got g = { 0 };
				struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
				int rc = pk_scan(&p, jobs[k], cache, 1, &g, &st);
				int same = same_findings(&ref, &g);
				CHECK(rc == 0 && same, "algo %d jobs %u cache %zu: %zu findings, %s", algo,
				      jobs[k], cache, g.n, same ? "same" : "different from jobs 1");
				if (!same) {
					for (size_t i = 0; i < g.n && i < ref.n; i++)
						if (g.v[i].f.code != ref.v[i].f.code ||
						    g.v[i].f.offset != ref.v[i].f.offset) {
							printf("    # first difference at %zu: jobs 1 has code %d at %llu, jobs %u code %d at %llu\n",
							       i, ref.v[i].f.code,
							       (unsigned long long)ref.v[i].f.offset, jobs[k],
							       g.v[i].f.code,
							       (unsigned long long)g.v[i].f.offset);
							break;
						}
				}
				CHECK(st.git3 == st0.git3 && st.errors == st0.errors &&
					      st.commits == st0.commits && st.objects == st0.objects,
				      "jobs %u: stats differ", jobs[k]);
				got_free(&g);
			}
		}
		got_free(&ref);
		pk_free(&p);
	}
}

TEST(pack_jobs_same_findings)
{
	jobs_compare(0);
}

/*
 * Two findings at one offset come out in the same order whatever the number of jobs.
 * Step A (CRC) and step C (header check) split the objects between workers differently
 * (by bytes, by commits), so the two findings of one object can come from different
 * workers.
 * Input: a commit with both a CRC mismatch and an uppercase tree, placed after 450 KB of
 * blobs (with jobs = 2 its CRC is checked by worker 1, its header by worker 0), scanned
 * with jobs = 1, 2, 3 and 8.
 * Expected (hexoid_pack.h: "in a fixed order ... whatever the number of threads"): the
 * same sequence as jobs = 1 (CRC, then uppercase, at that offset).
 */
TEST(pack_jobs_order_at_one_offset)
{
	jobs_compare(1);
}

/* --- verify_ids ---------------------------------------------------------------------- */

TEST(pack_verify_ids)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct pk p;
		char tree[HEXOID_MAX_HEXSZ + 1], t[1024], t2[1024], hex[HEXOID_MAX_HEXSZ + 1];
		unsigned char right[HEXOID_MAX_RAWSZ];
		struct buf z = { 0 }, d = { 0 };
		struct got g = { 0 };
		size_t good, bad, dbad, blob;

		hexid(tree, algo, 71);
		pk_init(&p, algo);
		commit_text(t, sizeof(t), tree, NULL, "right ID");
		good = pk_text(&p, HEXOID_OBJ_COMMIT, t);
		/* stored content differs from what its ID hashes */
		commit_text(t2, sizeof(t2), tree, NULL, "wrong ID");
		oid_of(algo, HEXOID_OBJ_COMMIT, t2, strlen(t2), right);
		zdeflate(t2, strlen(t2), &z);
		{
			unsigned char wrong[HEXOID_MAX_RAWSZ];
			oid_of(algo, HEXOID_OBJ_COMMIT, "x", 1, wrong);
			bad = pk_put(&p, HEXOID_OBJ_COMMIT, strlen(t2), NULL, 0, z.p, z.n, wrong);
		}
		/* a delta whose ID is that of its base */
		commit_text(t2, sizeof(t2), tree, NULL, "delta with its base's ID");
		make_delta(&d, t, strlen(t), t2, strlen(t2));
		{
			unsigned char w2[HEXOID_MAX_RAWSZ];
			oid_of(algo, HEXOID_OBJ_TAG, t2, strlen(t2), w2); /* right bytes, wrong type */
			z.n = 0;
			zdeflate(d.p, d.n, &z);
			struct buf ofs = { 0 };
			put_ofs(&ofs, p.pack.n - p.e[good].off);
			dbad = pk_put(&p, HEXOID_OBJ_OFS_DELTA, d.n, ofs.p, ofs.n, z.p, z.n, w2);
			bfree(&ofs);
		}
		/* blobs are not rehashed */
		z.n = 0;
		zdeflate("blob", 4, &z);
		blob = pk_put(&p, HEXOID_OBJ_BLOB, 4, NULL, 0, z.p, z.n, NULL);
		(void)blob;
		pk_finish(&p);

		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0 && g.n == 0, "without verify: %zu", g.n);
		got_free(&g);
		for (unsigned jobs = 1; jobs <= 2; jobs++) {
			CHECK(pk_scan(&p, jobs, 0, 1, &g, NULL) == 0 && g.n == 2, "verify: %zu findings", g.n);
			if (g.n != 2)
				dump("verify", &g);
			hexoid_encode(hex, hexoid_hexsz(algo), right, 1, algo);
			hex[hexoid_hexsz(algo)] = 0;
			CHECK(g.n >= 1 && g.v[0].f.code == HEXOID_FIND_ID_MISMATCH &&
				      g.v[0].f.offset == p.e[bad].off && g.v[0].f.has_oid &&
				      !memcmp(g.v[0].f.oid, p.e[bad].oid, p.rawsz) &&
				      g.v[0].f.type == HEXOID_OBJ_COMMIT && g.v[0].f.git3 == 0 &&
				      strstr(g.v[0].f.message, hex),
			      "verify: the stored commit (%s)", g.n ? g.v[0].f.message : "");
			CHECK(g.n >= 2 && g.v[1].f.code == HEXOID_FIND_ID_MISMATCH &&
				      g.v[1].f.offset == p.e[dbad].off,
			      "verify: the delta");
			got_free(&g);
		}
		bfree(&z);
		bfree(&d);
		pk_free(&p);
	}
}

/* --- a version 1 index ---------------------------------------------------------------- */

/* Replace p's index with a version 1 index of the same pack: no CRC32s. */
static void pk_index_v1(struct pk *p)
{
	size_t n = p->n, rawsz = p->rawsz, i;
	size_t *order = malloc((n ? n : 1) * sizeof(*order));
	unsigned char *q;

	for (i = 0; i < n; i++)
		order[i] = i;
	sort_rawsz = rawsz;
	sort_pk = p;
	qsort(order, n, sizeof(*order), cmp_pos);
	free(p->idx);
	p->idxlen = 1024 + n * (4 + rawsz) + 2 * rawsz;
	p->idx = calloc(1, p->idxlen);
	q = p->idx;
	for (unsigned k = 0; k < 256; k++) {
		uint32_t c = 0;
		while (c < n && p->e[order[c]].oid[0] <= k)
			c++;
		put32(q + 4 * k, c);
	}
	q += 1024;
	for (i = 0; i < n; i++, q += 4 + rawsz) {
		put32(q, (uint32_t)p->e[order[i]].off);
		memcpy(q + 4, p->e[order[i]].oid, rawsz);
	}
	memcpy(q, p->pack.p + pk_trailer(p), rawsz);
	pk_seal_idx(p);
	free(order);
}

TEST(pack_index_v1)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct pk p;
		struct repo r;
		struct got g = { 0 };
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		build_repo(&p, &r, algo);
		pk_index_v1(&p);
		CHECK(pk_scan(&p, 2, 0, 1, &g, &st) == 0 && g.n == 0 && st.commits == 6 && st.tags == 2,
		      "v1 index, algo %d: %zu findings", algo, g.n);
		if (g.n)
			dump("v1", &g);
		got_free(&g);
		/* damage still found without CRCs: a blob byte changes the pack's hash only */
		p.pack.p[p.e[r.blob].off + 4] ^= 0x10;
		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0 && g.n == 1 &&
			      g.v[0].f.code == HEXOID_FIND_CHECKSUM,
		      "v1 index, damaged blob: %zu findings", g.n);
		got_free(&g);
		pk_free(&p);
	}
}

/* --- progress and files -------------------------------------------------------------- */

struct prog {
	uint64_t calls, last_done, total;
	int bad;
};

static struct prog progress_seen;
static int on_progress2(void *ctx, uint64_t done, uint64_t total)
{
	(void)ctx;
	progress_seen.calls++;
	if (done > total || done < progress_seen.last_done)
		progress_seen.bad = 1;
	progress_seen.last_done = done;
	progress_seen.total = total;
	return 0;
}

TEST(pack_progress_and_files)
{
	struct pk p;
	size_t last;
	char dir[] = "/tmp/hexoid-pack-XXXXXX", path[256], err[256];
	struct hexoid_scan_options o;
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	struct got g = { 0 };
	FILE *f;

	build_chain(&p, HEXOID_SHA1, 5000, 0, 0, &last);
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.on_progress = on_progress2;
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		memset(&progress_seen, 0, sizeof(progress_seen));
		o.jobs = jobs;
		CHECK(hexoid_pack_scan_buffers("p", p.pack.p, p.pack.n, p.idx, p.idxlen, &o, &st, err,
					       sizeof(err)) == 0, "progress jobs %u", jobs);
		if (jobs == 1)
			CHECK(progress_seen.calls >= 1 && progress_seen.total == 5001 &&
				      progress_seen.last_done == 5001,
			      "progress: %llu calls, last %llu of %llu", (unsigned long long)progress_seen.calls,
			      (unsigned long long)progress_seen.last_done,
			      (unsigned long long)progress_seen.total);
		CHECK(!progress_seen.bad, "progress went backwards or past the total");
	}

	/* The same through files: by the .pack name and by the .idx name. */
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(path, sizeof(path), "%s/pack-x.pack", dir);
	f = fopen(path, "wb");
	fwrite(p.pack.p, 1, p.pack.n, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/pack-x.idx", dir);
	f = fopen(path, "wb");
	fwrite(p.idx, 1, p.idxlen, f);
	fclose(f);
	o.on_progress = NULL;
	o.on_finding = collect;
	o.ctx = &g;
	CHECK(hexoid_pack_scan(path, &o, &st, err, sizeof(err)) == 0 && g.n == 1 &&
		      strstr(g.v[0].path, "pack-x.pack") && g.v[0].f.offset == p.e[last].off,
	      "scan by .idx: %zu findings %s", g.n, g.n ? g.v[0].path : "");
	got_free(&g);
	snprintf(path, sizeof(path), "%s/pack-x.pack", dir);
	CHECK(hexoid_pack_scan(path, &o, &st, err, sizeof(err)) == 0 && g.n == 1 &&
		      st.commits == 5001,
	      "scan by .pack");
	got_free(&g);
	snprintf(path, sizeof(path), "%s/pack-y.pack", dir);
	CHECK(hexoid_pack_scan(path, &o, &st, err, sizeof(err)) == -1 && strstr(err, "pack-y"),
	      "missing file: %s", err);
	CHECK(hexoid_pack_scan(dir, &o, &st, err, sizeof(err)) == -1, "a folder");
	snprintf(path, sizeof(path), "%s/pack-x.idx", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/pack-x.pack", dir);
	unlink(path);
	rmdir(dir);
	pk_free(&p);
}

/* --- loose objects ------------------------------------------------------------------- */

/* zlib of `header` (with its NUL, if given in hlen) then the content. */
static void loose_bytes(struct buf *out, const char *header, size_t hlen, const void *content,
			size_t clen)
{
	struct buf raw = { 0 };
	bput(&raw, header, hlen);
	bput(&raw, content, clen);
	zdeflate(raw.p, raw.n, out);
	bfree(&raw);
}

static void loose_of(struct buf *out, unsigned type, const char *content)
{
	char h[64];
	int n = snprintf(h, sizeof(h), "%s %zu", type_names[type], strlen(content));
	loose_bytes(out, h, (size_t)n + 1, content, strlen(content));
}

static int loose_scan(const struct buf *b, enum hexoid_algo algo, const unsigned char *oid,
		      int verify, struct got *g, struct hexoid_scan_stats *st)
{
	struct hexoid_scan_options o;
	unsigned char *copy = malloc(b->n ? b->n : 1);
	int rc;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.algo = algo;
	o.verify_ids = verify;
	o.on_finding = collect;
	o.ctx = g;
	if (b->n)
		memcpy(copy, b->p, b->n);
	rc = hexoid_loose_object_scan("obj", copy, b->n, oid, &o, st);
	free(copy);
	return rc;
}

static void loose_expect(const char *what, const struct buf *b, enum hexoid_algo algo,
			 enum hexoid_finding_code code, const char *sub)
{
	struct got g = { 0 };
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	unsigned char oid[HEXOID_MAX_RAWSZ];
	char name[128];
	memset(oid, 0x3c, sizeof(oid));
	snprintf(name, sizeof(name), "loose %s (algo %d)", what, algo);
	CHECK(loose_scan(b, algo, oid, 0, &g, &st) == 0, "%s: rc", name);
	const struct hexoid_finding *f = expect_one(name, &g, code, HEXOID_NO_OFFSET, sub);
	if (f)
		CHECK(f->git3 == 0 && f->has_oid && !memcmp(f->oid, oid, hexoid_rawsz(algo)) &&
			      !strcmp(g.v[0].path, "obj") && st.errors == 1,
		      "%s: git3 %d has_oid %d path %s", name, f->git3, f->has_oid, g.v[0].path);
	CHECK(st.objects == 1 && st.commits == 0, "%s: stats objects %llu commits %llu", name,
	      (unsigned long long)st.objects, (unsigned long long)st.commits);
	got_free(&g);
}

TEST(loose_object)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		char tree[HEXOID_MAX_HEXSZ + 1], up[HEXOID_MAX_HEXSZ + 1], t[2048];
		struct buf b = { 0 };
		struct got g = { 0 };
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		unsigned char oid[HEXOID_MAX_RAWSZ];
		size_t at;

		hexid(tree, algo, 81);
		strcpy(up, tree);
		at = upper_at(up, 1);
		/* good commit, tag, blob, tree; with verify and the right IDs */
		commit_text(t, sizeof(t), tree, NULL, "a loose commit");
		loose_of(&b, HEXOID_OBJ_COMMIT, t);
		oid_of(algo, HEXOID_OBJ_COMMIT, t, strlen(t), oid);
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 0 && g.n == 0 && st.commits == 1 &&
			      st.objects == 1 && st.inflated == strlen(t),
		      "loose commit: %zu findings", g.n);
		got_free(&g);
		/* verify with a wrong ID */
		oid[0] ^= 1;
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 0 && g.n == 1 &&
			      g.v[0].f.code == HEXOID_FIND_ID_MISMATCH && g.v[0].f.has_oid &&
			      !memcmp(g.v[0].f.oid, oid, hexoid_rawsz(algo)),
		      "loose commit with a wrong ID: %zu", g.n);
		got_free(&g);
		/* no ID given: nothing to verify, and findings without one */
		CHECK(loose_scan(&b, algo, NULL, 1, &g, &st) == 0 && g.n == 0, "loose commit, no ID");
		got_free(&g);
		b.n = 0;
		tag_text(t, sizeof(t), tree, "commit", "a loose tag");
		loose_of(&b, HEXOID_OBJ_TAG, t);
		oid_of(algo, HEXOID_OBJ_TAG, t, strlen(t), oid);
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 0 && g.n == 0 && st.tags == 1,
		      "loose tag: %zu findings", g.n);
		got_free(&g);
		b.n = 0;
		loose_of(&b, HEXOID_OBJ_BLOB, "tree ABCDEF\n");
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 0 && g.n == 0 && st.commits == 0 &&
			      st.objects == 1,
		      "loose blob: %zu findings", g.n);
		got_free(&g);
		b.n = 0;
		loose_of(&b, HEXOID_OBJ_TREE, "");
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 0 && g.n == 0, "loose empty tree");
		got_free(&g);
		b.n = 0;
		/* uppercase tree in a commit; uppercase object in a tag */
		commit_text(t, sizeof(t), up, NULL, "uppercase");
		loose_of(&b, HEXOID_OBJ_COMMIT, t);
		oid_of(algo, HEXOID_OBJ_COMMIT, t, strlen(t), oid);
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 0 && g.n == 1 &&
			      g.v[0].f.code == HEXOID_FIND_UPPERCASE && g.v[0].f.git3 == 1 &&
			      g.v[0].f.offset == HEXOID_NO_OFFSET && g.v[0].f.line == 1 &&
			      g.v[0].f.column == 6 + at && !strcmp(g.v[0].f.header, "tree") &&
			      g.v[0].f.type == HEXOID_OBJ_COMMIT && g.v[0].f.has_oid &&
			      !memcmp(g.v[0].f.oid, oid, hexoid_rawsz(algo)) && st.git3 == 1,
		      "loose uppercase tree: %zu", g.n);
		got_free(&g);
		/* stop at the first: returns 1 */
		g.stop_at = 1;
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 1 && g.calls == 1, "loose stop");
		got_free(&g);
		b.n = 0;
		tag_text(t, sizeof(t), up, "commit", "uppercase tag");
		loose_of(&b, HEXOID_OBJ_TAG, t);
		CHECK(loose_scan(&b, algo, NULL, 0, &g, &st) == 0 && g.n == 1 &&
			      g.v[0].f.column == 8 + at && !strcmp(g.v[0].f.header, "object") &&
			      !g.v[0].f.has_oid,
		      "loose uppercase tag: %zu", g.n);
		got_free(&g);

		/* bad headers */
		commit_text(t, sizeof(t), tree, NULL, "x");
		b.n = 0;
		loose_bytes(&b, "commit abc", 11, t, strlen(t));
		loose_expect("commit abc", &b, algo, HEXOID_FIND_HEADER, "size");
		b.n = 0;
		loose_bytes(&b, "commit -5", 10, t, strlen(t));
		loose_expect("commit -5", &b, algo, HEXOID_FIND_HEADER, NULL);
		b.n = 0;
		loose_bytes(&b, "commit ", 8, t, strlen(t));
		loose_expect("commit with no size", &b, algo, HEXOID_FIND_HEADER, NULL);
		b.n = 0;
		loose_bytes(&b, "commit", 7, t, strlen(t));
		loose_expect("commit with no space", &b, algo, HEXOID_FIND_HEADER, NULL);
		b.n = 0;
		loose_bytes(&b, "blurb 5", 8, "abcde", 5);
		loose_expect("unknown type", &b, algo, HEXOID_FIND_HEADER, NULL);
		b.n = 0;
		loose_bytes(&b, "Commit 5", 9, "abcde", 5);
		loose_expect("capitalised type", &b, algo, HEXOID_FIND_HEADER, NULL);
		b.n = 0;
		{
			char h[32];
			int n = snprintf(h, sizeof(h), "commit 0%zu", strlen(t));
			loose_bytes(&b, h, (size_t)n + 1, t, strlen(t));
			loose_expect("leading zero", &b, algo, HEXOID_FIND_HEADER, NULL);
			/* missing NUL: header and content run together */
			b.n = 0;
			n = snprintf(h, sizeof(h), "commit %zu", strlen(t));
			loose_bytes(&b, h, (size_t)n, t, strlen(t));
			loose_expect("missing NUL", &b, algo, HEXOID_FIND_HEADER, NULL);
			b.n = 0;
			loose_bytes(&b, h, (size_t)n, "", 0);
			loose_expect("missing NUL, nothing after", &b, algo, HEXOID_FIND_HEADER, NULL);
			/* more content than the header says */
			b.n = 0;
			n = snprintf(h, sizeof(h), "commit %zu", strlen(t) - 7);
			loose_bytes(&b, h, (size_t)n + 1, t, strlen(t));
			loose_expect("more than the header", &b, algo, HEXOID_FIND_ZLIB, "more than");
			b.n = 0;
			loose_bytes(&b, "commit 3", 9, t, strlen(t));
			loose_expect("far more than the header", &b, algo, HEXOID_FIND_ZLIB, "more than");
			/* less */
			b.n = 0;
			n = snprintf(h, sizeof(h), "commit %zu", strlen(t) + 7);
			loose_bytes(&b, h, (size_t)n + 1, t, strlen(t));
			loose_expect("less than the header", &b, algo, HEXOID_FIND_ZLIB, "inflates to");
			b.n = 0;
			loose_bytes(&b, "commit 99", 10, "tree", 4);
			loose_expect("less, short object", &b, algo, HEXOID_FIND_ZLIB, "inflates to");
			/* a huge claim */
			b.n = 0;
			loose_bytes(&b, "commit 99999999999999", 22, "tree", 4);
			loose_expect("huge claim", &b, algo, HEXOID_FIND_HEADER, "claimed");
			b.n = 0;
			loose_bytes(&b, "commit 999999999999999999999999", 32, "tree", 4);
			loose_expect("size overflow", &b, algo, HEXOID_FIND_HEADER, NULL);
		}
		/* a truncated stream: long and short objects */
		{
			char big[4096];
			size_t full;
			memset(big, 'm', sizeof(big));
			commit_text(t, sizeof(t), tree, NULL, "x");
			memcpy(big, t, strlen(t));
			big[3000] = 0;
			b.n = 0;
			loose_of(&b, HEXOID_OBJ_COMMIT, big);
			full = b.n;
			for (size_t cut = 1; cut < full; cut += (cut < 40 ? 1 : 37)) {
				struct got g2 = { 0 };
				struct buf c = { b.p, cut, 0 };
				CHECK(loose_scan(&c, algo, NULL, 0, &g2, &st) == 0 && g2.n == 1 &&
					      (g2.v[0].f.code == HEXOID_FIND_ZLIB ||
					       g2.v[0].f.code == HEXOID_FIND_HEADER),
				      "loose cut to %zu of %zu: %zu findings (code %d)", cut, full, g2.n,
				      g2.n ? g2.v[0].f.code : 0);
				got_free(&g2);
				if (test_failed())
					break;
			}
			b.n = full / 2;
			loose_expect("truncated", &b, algo, HEXOID_FIND_ZLIB, "truncated");
			b.n = 0;
			loose_of(&b, HEXOID_OBJ_COMMIT, t);
			b.n -= 2;
			loose_expect("truncated in the checksum", &b, algo, HEXOID_FIND_ZLIB, NULL);
			/* Adler-32 wrong: short and long */
			b.n = 0;
			loose_of(&b, HEXOID_OBJ_COMMIT, "tree x\n");
			b.p[b.n - 1] ^= 1;
			loose_expect("adler short", &b, algo, HEXOID_FIND_ZLIB, NULL);
			b.n = 0;
			loose_of(&b, HEXOID_OBJ_COMMIT, big);
			b.p[b.n - 1] ^= 1;
			loose_expect("adler long", &b, algo, HEXOID_FIND_ZLIB, NULL);
		}
		/* garbage */
		b.n = 0;
		bstr(&b, "this is not a zlib stream at all");
		loose_expect("garbage", &b, algo, HEXOID_FIND_ZLIB, NULL);
		b.n = 0;
		CHECK(loose_scan(&b, algo, NULL, 0, &g, &st) == 0 && g.n == 1, "empty file: %zu", g.n);
		got_free(&g);
		/* no algo: -1 */
		{
			struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
			CHECK(hexoid_loose_object_scan("x", "abc", 3, NULL, &o, NULL) == -1, "algo 0");
			o.algo = algo;
			CHECK(hexoid_loose_object_scan("x", NULL, 3, NULL, &o, NULL) == -1, "NULL data");
		}
		bfree(&b);
	}
}

/*
 * NULL options are bad arguments, not a crash. hexoid_pack.h: "Returns ... -1 on bad
 * arguments", as hexoid_pack_scan_buffers() does for NULL options.
 * Input: hexoid_loose_object_scan("x", data, size, NULL, NULL, NULL) and
 * hexoid_loose_scan("/tmp", NULL, NULL, err, sizeof(err)), in a child process so that a
 * crash does not take the runner with it.
 * Expected: -1 from both.
 */
TEST(loose_null_options)
{
	pid_t pid;
	int status = 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char err[64];
		int a = hexoid_loose_object_scan("x", "abc", 3, NULL, NULL, NULL);
		int b = hexoid_loose_scan("/tmp", NULL, NULL, err, sizeof(err));
		_exit(a == -1 && b == -1 ? 0 : 1);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "NULL options: the child %s %d (want -1 from both)",
	      WIFSIGNALED(status) ? "died of signal" : "exited with", WIFSIGNALED(status)
										? WTERMSIG(status)
										: WEXITSTATUS(status));
}

/*
 * Bytes after the end of a loose commit's zlib stream are damage. Git refuses such an
 * object, 2.x and 3.0 alike (object-file.c, unpack_loose_rest: "garbage at end of loose
 * object"), as the pack side of this module reports the same thing in a pack ("zlib
 * stream ends N bytes before the next object").
 * Input: a good loose commit (zlib of "commit <n>\0<text>") followed by "JUNK"
 * (commits and tags are inflated in full, so the end of the stream is in view).
 * Expected: one HEXOID_FIND_ZLIB finding, and the commit not counted as checked.
 */
TEST(loose_garbage_after_stream)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		char tree[HEXOID_MAX_HEXSZ + 1], t[1024];
		struct buf b = { 0 };
		hexid(tree, algo, 99);
		commit_text(t, sizeof(t), tree, NULL, "with bytes after its stream");
		loose_of(&b, HEXOID_OBJ_COMMIT, t);
		bstr(&b, "JUNK");
		loose_expect("garbage after the stream", &b, algo, HEXOID_FIND_ZLIB, NULL);
		/* (Blobs and trees are read no further than their header, by design.) */
		bfree(&b);
	}
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL, "cannot write %s", path);
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

static void rm_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char sub[1024];
	if (!d) {
		unlink(path);
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		rm_tree(sub);
	}
	closedir(d);
	rmdir(path);
}

/* Write a loose object under objs, named by its ID; `upper` bit 0 uppercases the letters
 * of the file name, bit 1 those of the folder name. Gives the name's hex and the ID. */
static void put_loose(const char *objs, enum hexoid_algo algo, unsigned type, const char *content,
		      unsigned upper, char *hex_out, unsigned char *oid_out)
{
	unsigned char oid[HEXOID_MAX_RAWSZ];
	char hex[HEXOID_MAX_HEXSZ + 1], path[1024];
	struct buf b = { 0 };
	size_t hexsz = hexoid_hexsz(algo);
	oid_of(algo, type, content, strlen(content), oid);
	hexoid_encode(hex, hexsz, oid, 1, algo);
	hex[hexsz] = 0;
	for (size_t i = 0; i < hexsz; i++)
		if (upper & (i < 2 ? 2u : 1u))
			hex[i] = (char)toupper((unsigned char)hex[i]);
	snprintf(path, sizeof(path), "%s/%.2s", objs, hex);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/%.2s/%s", objs, hex, hex + 2);
	loose_of(&b, type, content);
	write_file(path, b.p, b.n);
	bfree(&b);
	if (hex_out)
		strcpy(hex_out, hex);
	if (oid_out)
		memcpy(oid_out, oid, hexoid_rawsz(algo));
}

TEST(loose_scan_dir)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		char dir[] = "/tmp/hexoid-loose-XXXXXX", objs[256], path[1024], err[256];
		char tree[HEXOID_MAX_HEXSZ + 1], up[HEXOID_MAX_HEXSZ + 1], t[1024];
		char hx[8][HEXOID_MAX_HEXSZ + 1];
		unsigned char oid[8][HEXOID_MAX_RAWSZ];
		struct hexoid_scan_options o;
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		struct got g = { 0 };
		size_t hexsz = hexoid_hexsz(algo);
		int rc;

		if (!mkdtemp(dir)) {
			CHECK(0, "mkdtemp");
			return;
		}
		snprintf(objs, sizeof(objs), "%s/objects", dir);
		mkdir(objs, 0777);
		hexid(tree, algo, 91);
		strcpy(up, tree);
		upper_at(up, 0);

		/* clean: a commit, a tag, a blob; plus names that are not objects */
		commit_text(t, sizeof(t), tree, NULL, "loose clean");
		put_loose(objs, algo, HEXOID_OBJ_COMMIT, t, 0, hx[0], oid[0]);
		tag_text(t, sizeof(t), tree, "commit", "loose tag");
		put_loose(objs, algo, HEXOID_OBJ_TAG, t, 0, hx[1], oid[1]);
		put_loose(objs, algo, HEXOID_OBJ_BLOB, "blob bytes\n", 0, hx[2], oid[2]);
		snprintf(path, sizeof(path), "%s/pack", objs);
		mkdir(path, 0777);
		snprintf(path, sizeof(path), "%s/pack/pack-1.idx", objs);
		write_file(path, "junk", 4);
		snprintf(path, sizeof(path), "%s/info", objs);
		mkdir(path, 0777);
		snprintf(path, sizeof(path), "%s/%.2s/tmp_obj_XyZ", objs, hx[0]);
		write_file(path, "junk", 4);
		snprintf(path, sizeof(path), "%s/%.2s/%.*sG", objs, hx[0], (int)hexsz - 3, hx[0] + 2);
		write_file(path, "junk", 4); /* right length, not hex */
		snprintf(path, sizeof(path), "%s/%.2s/%s0", objs, hx[0], hx[0] + 2);
		write_file(path, "junk", 4); /* too long */
		snprintf(path, sizeof(path), "%s/zz", objs);
		mkdir(path, 0777);
		snprintf(path, sizeof(path), "%s/zz/%s", objs, hx[0] + 2);
		write_file(path, "junk", 4); /* folder not hex */

		memset(&o, 0, sizeof(o));

		o.size = sizeof(o);
		o.algo = algo;
		o.verify_ids = 1;
		o.on_finding = collect;
		o.ctx = &g;
		rc = hexoid_loose_scan(objs, &o, &st, err, sizeof(err));
		CHECK(rc == 0 && g.n == 0 && st.objects == 3 && st.commits == 1 && st.tags == 1,
		      "loose dir clean: rc %d, %zu findings, %llu objects", rc, g.n,
		      (unsigned long long)st.objects);
		if (g.n)
			dump("loose clean", &g);
		got_free(&g);

		/* uppercase: a file name, a folder name; and a commit with an uppercase tree */
		commit_text(t, sizeof(t), tree, NULL, "named in uppercase");
		put_loose(objs, algo, HEXOID_OBJ_COMMIT, t, 1, hx[3], oid[3]);
		/* a commit whose folder name has a letter (a-f), in uppercase */
		for (unsigned k = 0;; k++) {
			unsigned char id[HEXOID_MAX_RAWSZ];
			char msg[64];
			snprintf(msg, sizeof(msg), "in an uppercase folder %u", k);
			commit_text(t, sizeof(t), tree, NULL, msg);
			oid_of(algo, HEXOID_OBJ_COMMIT, t, strlen(t), id);
			if ((id[0] >> 4) >= 10 || (id[0] & 15) >= 10)
				break;
		}
		put_loose(objs, algo, HEXOID_OBJ_COMMIT, t, 2, hx[4], oid[4]);
		commit_text(t, sizeof(t), up, NULL, "uppercase inside");
		put_loose(objs, algo, HEXOID_OBJ_COMMIT, t, 0, hx[5], oid[5]);
		rc = hexoid_loose_scan(objs, &o, &st, err, sizeof(err));
		{
			/* What should be found, sorted by path (strcmp order). */
			struct want {
				char path[1024];
				enum hexoid_finding_code code;
				int has_oid;
				const unsigned char *oid;
			} w[4];
			size_t nw = 0;
			int upper_folder = strcspn(hx[4], "ABCDEF") < 2;
			int upper_name = strcspn(hx[3] + 2, "ABCDEF") < hexsz - 2;
			if (upper_folder) {
				snprintf(w[nw].path, sizeof(w[nw].path), "%s/%.2s", objs, hx[4]);
				w[nw].code = HEXOID_FIND_UPPERCASE, w[nw].has_oid = 0, w[nw].oid = NULL;
				nw++;
			}
			if (upper_name) {
				snprintf(w[nw].path, sizeof(w[nw].path), "%s/%.2s/%s", objs, hx[3], hx[3] + 2);
				w[nw].code = HEXOID_FIND_UPPERCASE, w[nw].has_oid = 1, w[nw].oid = oid[3];
				nw++;
			}
			snprintf(w[nw].path, sizeof(w[nw].path), "%s/%.2s/%s", objs, hx[5], hx[5] + 2);
			w[nw].code = HEXOID_FIND_UPPERCASE, w[nw].has_oid = 1, w[nw].oid = oid[5];
			nw++;
			/* sort the wanted by path */
			for (size_t i = 1; i < nw; i++)
				for (size_t j = i; j > 0 && strcmp(w[j - 1].path, w[j].path) > 0; j--) {
					struct want tmp = w[j];
					w[j] = w[j - 1];
					w[j - 1] = tmp;
				}
			CHECK(rc == 0 && g.n == nw && st.objects == 6 && st.git3 == nw,
			      "loose dir uppercase: rc %d, %zu findings (want %zu), %llu objects", rc,
			      g.n, nw, (unsigned long long)st.objects);
			for (size_t i = 0; i < nw && i < g.n; i++) {
				const struct hexoid_finding *f = &g.v[i].f;
				CHECK(!strcmp(g.v[i].path, w[i].path) && f->code == w[i].code &&
					      f->git3 == 1 && f->has_oid == w[i].has_oid &&
					      (!w[i].oid || !memcmp(f->oid, w[i].oid, hexoid_rawsz(algo))) &&
					      f->offset == HEXOID_NO_OFFSET,
				      "loose dir finding %zu: want %s, got %s (code %d has_oid %d)", i,
				      w[i].path, g.v[i].path, f->code, f->has_oid);
			}
			if (g.n != nw)
				dump("loose dir", &g);
			CHECK(upper_folder && upper_name, "the test's names have uppercase");
		}
		got_free(&g);
		/* stop */
		g.stop_at = 1;
		CHECK(hexoid_loose_scan(objs, &o, &st, err, sizeof(err)) == 1 && g.calls == 1,
		      "loose dir stop");
		got_free(&g);
		/* a damaged object file, and an unreadable one (a folder in its place) */
		snprintf(path, sizeof(path), "%s/%.2s/%s", objs, hx[2], hx[2] + 2);
		write_file(path, "garbage", 7);
		{
			char hexd[HEXOID_MAX_HEXSZ + 1];
			memset(hexd, 'e', hexsz);
			hexd[hexsz] = 0;
			snprintf(path, sizeof(path), "%s/ee", objs);
			mkdir(path, 0777);
			snprintf(path, sizeof(path), "%s/ee/%s", objs, hexd + 2);
			mkdir(path, 0777);
			/* an empty file */
			memset(hexd, 'f', hexsz);
			snprintf(path, sizeof(path), "%s/ff", objs);
			mkdir(path, 0777);
			snprintf(path, sizeof(path), "%s/ff/%s", objs, hexd + 2);
			write_file(path, "", 0);
		}
		rc = hexoid_loose_scan(objs, &o, &st, err, sizeof(err));
		{
			int zl = 0, io = 0, hd = 0;
			for (size_t i = 0; i < g.n; i++) {
				zl += g.v[i].f.code == HEXOID_FIND_ZLIB && strstr(g.v[i].path, hx[2] + 2);
				io += g.v[i].f.code == HEXOID_FIND_IO && strstr(g.v[i].path, "/ee/");
				hd += g.v[i].f.code == HEXOID_FIND_HEADER && strstr(g.v[i].path, "/ff/");
			}
			/* (a file that cannot be read may or may not count as an object) */
			CHECK(rc == 0 && zl == 1 && io == 1 && hd == 1 && g.n == 6 &&
				      (st.objects == 7 || st.objects == 8),
			      "loose dir damage: zlib %d io %d header %d, %zu findings, objects %llu", zl,
			      io, hd, g.n, (unsigned long long)st.objects);
			if (g.n != 6)
				dump("loose damage", &g);
		}
		got_free(&g);
		/* no such folder; no algo */
		snprintf(path, sizeof(path), "%s/nothing", dir);
		CHECK(hexoid_loose_scan(path, &o, &st, err, sizeof(err)) == -1 && strstr(err, "nothing"),
		      "missing folder: %s", err);
		o.algo = (enum hexoid_algo)0;
		CHECK(hexoid_loose_scan(objs, &o, &st, err, sizeof(err)) == -1, "no algo");
		rm_tree(dir);
	}
}

/* --- reading objects by ID: against git cat-file ------------------------------------ */

/*
 * A repository made by the installed git, for the object reader: a history of 120
 * real-sized commits (messages that change a little from one to the next, files that
 * grow), repacked with long chains (OFS_DELTA), a second pack written by pack-objects
 * with --no-delta-base-offset (REF_DELTA), an annotated tag, and commits left loose.
 * Returns 0, or -1 when git could not make it.
 */
static int odb_repo(const char *dir, enum hexoid_algo algo)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.com "
		 "GIT_COMMITTER_NAME=C GIT_COMMITTER_EMAIL=c@example.com; "
		 "git -c init.defaultBranch=main init -q --object-format=%s r; cd r; "
		 "i=0; body=''; while [ $i -lt 120 ]; do i=$((i + 1)); "
		 "  echo \"line $i of a file that grows with every commit, as source files do\" >>f$((i %% 4)); "
		 "  body=\"$body paragraph $i: a sentence that real commit messages could hold, and more.\"; "
		 "  [ $((i %% 7)) = 0 ] && body=''; "
		 "  git add -A; GIT_AUTHOR_DATE=\"$((1700000000 + i)) +0000\" GIT_COMMITTER_DATE=\"$((1700000000 + i)) +0000\" "
		 "  git commit -q -m \"change $i\" -m \"$body\" -m 'Signed-off-by: A <a@example.com>'; "
		 "  [ $i = 60 ] && git tag -a -m 'release one' v1; "
		 "done; "
		 "git repack -adfq --depth=50 --window=50; "
		 /* REF_DELTA: a pack of the last 30 commits' objects, bases named by ID. */
		 "git rev-list --objects HEAD~30..HEAD | "
		 "  git pack-objects -q --no-delta-base-offset --window=50 --depth=50 .git/objects/pack/ref >/dev/null; "
		 "for j in 1 2 3; do echo loose $j >>f0; git add -A; git commit -q -m \"loose $j\"; done",
		 dir, algo == HEXOID_SHA1 ? "sha1" : "sha256");
	return system(cmd) == 0 ? 0 : -1;
}

/* Every object `git cat-file --batch-all-objects --batch` prints, read by ID through h:
 * type, size and bytes the same. Returns how many objects were compared (0 on failure). */
static size_t odb_compare_all(const char *name, struct hexoid_odb *h, const char *repo,
			      enum hexoid_algo algo)
{
	char cmd[1024], line[256];
	size_t hexsz = hexoid_hexsz(algo), n = 0, bad = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "git -C '%s' cat-file --batch-all-objects --batch", repo);
	f = popen(cmd, "r");
	CHECK(f != NULL, "%s: popen", name);
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned char oid[HEXOID_MAX_RAWSZ], *want;
		char type[16];
		unsigned long long size;
		struct hexoid_object obj;
		char err[256];
		enum hexoid_odb_status st;

		if (strlen(line) < hexsz || sscanf(line + hexsz, " %15s %llu", type, &size) != 2 ||
		    hexoid_decode(oid, line, 1, hexsz, algo, HEXOID_LOWER, NULL) != HEXOID_OK) {
			CHECK(0, "%s: cat-file line '%s'", name, line);
			break;
		}
		want = malloc(size + 1);
		if (!want || fread(want, 1, size + 1, f) != size + 1) {
			CHECK(0, "%s: short cat-file output", name);
			free(want);
			break;
		}
		st = hexoid_odb_read(h, oid, &obj, err, sizeof(err));
		if (st != HEXOID_ODB_OK || obj.size != size || strcmp(hexoid_object_type_name(obj.type), type) ||
		    memcmp(obj.data, want, size) || obj.data[size] != 0) {
			if (bad++ < 3)
				CHECK(0, "%s: %.*s: status %d (%s), %s %zu bytes, want %s %llu", name, (int)hexsz,
				      line, st, err, st ? "-" : hexoid_object_type_name(obj.type), obj.size, type, size);
		}
		n++;
		hexoid_object_free(&obj);
		free(want);
	}
	CHECK(pclose(f) == 0, "%s: git cat-file failed", name);
	CHECK(!bad, "%s: %zu of %zu objects differ from git cat-file", name, bad, n);
	return bad ? 0 : n;
}

/* Each copy of the pack with the delta chains, and whether a pack holds REF_DELTA and
 * OFS_DELTA entries: from git verify-pack -v's lines (depth and base mean a delta). */
static int count_deltas(const char *repo, const char *pack)
{
	char cmd[1024];
	int n = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "git -C '%s' verify-pack -v '%s' | awk 'NF == 7' | wc -l", repo, pack);
	if ((f = popen(cmd, "r"))) {
		if (fscanf(f, "%d", &n) != 1)
			n = -1;
		pclose(f);
	}
	return n;
}

/*
 * Reading objects by ID, against git on repositories it made, SHA-1 and SHA-256.
 * Input: odb_repo(): OFS_DELTA chains, a REF_DELTA pack, loose objects, a tag.
 * Expected (hexoid_pack.h, "Reading objects by ID"): every object git cat-file lists
 * reads with git's type, size and bytes, a NUL after them; with HEXOID_ODB_VERIFY too;
 * an ID that is nowhere is HEXOID_ODB_MISSING; a clone made with --shared reads its
 * source's objects only with HEXOID_ODB_ALTERNATES.
 */
TEST(odb_read_git)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		char dir[] = "/tmp/hexoid-odb-XXXXXX", repo[128], objs[160], cmd[1024], err[256];
		const char *an = algo == HEXOID_SHA1 ? "sha1" : "sha256";
		struct hexoid_odb_options o = HEXOID_ODB_OPTIONS_INIT;
		struct hexoid_odb *h;
		struct hexoid_object obj;
		unsigned char oid[HEXOID_MAX_RAWSZ];
		size_t n, rawsz = hexoid_rawsz(algo);

		if (!mkdtemp(dir) || odb_repo(dir, algo)) {
			CHECK(0, "%s: git cannot make the repository", an);
			continue;
		}
		snprintf(repo, sizeof(repo), "%s/r", dir);
		snprintf(objs, sizeof(objs), "%s/.git/objects", repo);
		{
			/* The packs are what they should be: OFS and REF deltas both. */
			char pack[256];
			FILE *f;
			int ofs = 0, ref = 0;
			snprintf(cmd, sizeof(cmd), "ls %s/pack/*.pack", objs);
			f = popen(cmd, "r");
			while (f && fgets(pack, sizeof(pack), f)) {
				pack[strcspn(pack, "\n")] = 0;
				if (strstr(pack, "/ref-"))
					ref = count_deltas(repo, pack);
				else
					ofs = count_deltas(repo, pack);
			}
			if (f)
				pclose(f);
			CHECK(ofs > 50 && ref > 10, "%s: %d deltas in the repacked pack, %d in the REF_DELTA one",
			      an, ofs, ref);
		}
		o.algo = algo;
		h = hexoid_odb_open(objs, &o, err, sizeof(err));
		CHECK(h != NULL, "%s: open: %s", an, err);
		if (!h)
			continue;
		CHECK(hexoid_odb_count_packs(h) == 2, "%s: %zu packs", an, hexoid_odb_count_packs(h));
		n = odb_compare_all(an, h, repo, algo);
		CHECK(n > 300, "%s: only %zu objects", an, n);
		/* Missing. */
		memset(oid, 0xab, rawsz);
		CHECK(hexoid_odb_read(h, oid, &obj, err, sizeof(err)) == HEXOID_ODB_MISSING &&
			      obj.data == NULL && strstr(err, "abababab") && strstr(err, "not found"),
		      "%s: missing: %s", an, err);
		CHECK(hexoid_odb_read(h, NULL, &obj, err, sizeof(err)) == HEXOID_ODB_EARG, "%s: NULL oid", an);
		hexoid_odb_close(h);
		/* Verified reads: the same. */
		o.flags = HEXOID_ODB_VERIFY;
		o.cache_bytes = 4096; /* and a cache that keeps almost nothing */
		h = hexoid_odb_open(objs, &o, err, sizeof(err));
		CHECK(h && odb_compare_all(an, h, repo, algo) == n, "%s: verified reads", an);
		hexoid_odb_close(h);
		/* Alternates: a --shared clone holds none of the objects itself. */
		snprintf(cmd, sizeof(cmd), "git clone -q --shared '%s' '%s/shared' && git -C '%s/shared' count-objects -v | grep -q '^count: 0'",
			 repo, dir, dir);
		if (system(cmd) == 0) {
			char sobjs[192], srepo[160];
			snprintf(srepo, sizeof(srepo), "%s/shared", dir);
			snprintf(sobjs, sizeof(sobjs), "%s/.git/objects", srepo);
			o.flags = 0;
			o.cache_bytes = 0;
			h = hexoid_odb_open(sobjs, &o, err, sizeof(err));
			CHECK(h && hexoid_odb_count_packs(h) == 0, "%s: shared clone without alternates", an);
			snprintf(cmd, sizeof(cmd), "git -C '%s' rev-parse HEAD", srepo);
			{
				FILE *f = popen(cmd, "r");
				char hex[80] = "";
				if (f) {
					if (!fgets(hex, sizeof(hex), f))
						hex[0] = 0;
					pclose(f);
				}
				CHECK(hexoid_decode(oid, hex, 1, hexoid_hexsz(algo), algo, HEXOID_LOWER, NULL) == HEXOID_OK,
				      "%s: rev-parse HEAD", an);
			}
			CHECK(h && hexoid_odb_read(h, oid, &obj, err, sizeof(err)) == HEXOID_ODB_MISSING,
			      "%s: HEAD read without alternates", an);
			hexoid_odb_close(h);
			o.flags = HEXOID_ODB_ALTERNATES;
			h = hexoid_odb_open(sobjs, &o, err, sizeof(err));
			CHECK(h && hexoid_odb_count_packs(h) == 2, "%s: shared clone with alternates: %s", an,
			      h ? "" : err);
			if (h)
				CHECK(odb_compare_all(an, h, srepo, algo) == n, "%s: through alternates", an);
			hexoid_odb_close(h);
			/* The same through hexoid_odb_add, and a directory added twice counts once. */
			o.flags = 0;
			h = hexoid_odb_open(sobjs, &o, err, sizeof(err));
			CHECK(h && hexoid_odb_add(h, objs, err, sizeof(err)) == 0 &&
				      hexoid_odb_add(h, objs, err, sizeof(err)) == 0 && hexoid_odb_count_packs(h) == 2,
			      "%s: hexoid_odb_add: %s", an, err);
			if (h)
				CHECK(hexoid_odb_read(h, oid, &obj, err, sizeof(err)) == HEXOID_ODB_OK &&
					      obj.type == HEXOID_OBJ_COMMIT,
				      "%s: HEAD after hexoid_odb_add: %s", an, err);
			hexoid_object_free(&obj);
			hexoid_odb_close(h);
		} else {
			CHECK(0, "%s: git clone --shared", an);
		}
		/* Unusable: no such directory, no algo, a damaged index. */
		o.flags = 0;
		snprintf(cmd, sizeof(cmd), "%s/nothing", dir);
		CHECK(hexoid_odb_open(cmd, &o, err, sizeof(err)) == NULL && strstr(err, "nothing"),
		      "%s: missing directory: %s", an, err);
		o.algo = (enum hexoid_algo)0;
		CHECK(hexoid_odb_open(objs, &o, err, sizeof(err)) == NULL && strstr(err, "hash"),
		      "%s: no algo: %s", an, err);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CHECK(system(cmd) == 0, "rm");
	}
}

/* Write pack p as DIR/pack/pack-NAME.{pack,idx}. */
static void odb_put_pack(const char *objs, const char *name, const struct pk *p)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/pack", objs);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/pack/pack-%s.pack", objs, name);
	write_file(path, p->pack.p, p->pack.n);
	snprintf(path, sizeof(path), "%s/pack/pack-%s.idx", objs, name);
	write_file(path, p->idx, p->idxlen);
}

/* Write a loose object file for oid with the given bytes. */
static void odb_put_loose(const char *objs, const unsigned char *oid, enum hexoid_algo algo,
			  const struct buf *b)
{
	char hex[HEXOID_MAX_HEXSZ + 1], path[512];
	size_t hexsz = hexoid_hexsz(algo);
	hexoid_encode(hex, hexsz, oid, 1, algo);
	hex[hexsz] = 0;
	snprintf(path, sizeof(path), "%s/%.2s", objs, hex);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/%.2s/%s", objs, hex, hex + 2);
	write_file(path, b->p, b->n);
}

static enum hexoid_odb_status odb_get(struct hexoid_odb *h, const unsigned char *oid, const char *text,
				      char *err, size_t errlen)
{
	struct hexoid_object obj;
	enum hexoid_odb_status st = hexoid_odb_read(h, oid, &obj, err, errlen);
	if (st == HEXOID_ODB_OK && text)
		CHECK(obj.size == strlen(text) && !memcmp(obj.data, text, obj.size), "content of '%.20s'", text);
	hexoid_object_free(&obj);
	return st;
}

/*
 * Reading objects by ID from crafted packs and loose files.
 * Input: one pack with a good OFS_DELTA, a REF_DELTA whose base is in no pack, two REF_DELTAs
 * that are each other's base, a delta copying past its base, a commit with a flipped byte
 * in its zlib stream (and a good copy of it loose), a loose object cut short, one with a
 * bad header; a second and third pack with 3000-deep OFS and REF chains.
 * Expected (hexoid_pack.h): the good ones read with their text; each damaged one is
 * HEXOID_ODB_DAMAGED with a reason naming the pack and the offset, or the loose file; the
 * commit damaged in the pack reads from its good loose copy; a loop is damage, not a hang;
 * the ends of both chains read and hash to their IDs (HEXOID_ODB_VERIFY).
 */
TEST(odb_read_crafted)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		char dir[] = "/tmp/hexoid-odbc-XXXXXX", objs[64], err[512], tree[HEXOID_MAX_HEXSZ + 1];
		char ta[512], tb[512], tc[512], td[512], te[512], tf[512], tg[512], th[512];
		unsigned char oa[HEXOID_MAX_RAWSZ], ob[HEXOID_MAX_RAWSZ], oc[HEXOID_MAX_RAWSZ],
			od[HEXOID_MAX_RAWSZ], oe[HEXOID_MAX_RAWSZ], of[HEXOID_MAX_RAWSZ],
			og[HEXOID_MAX_RAWSZ], oh[HEXOID_MAX_RAWSZ], nowhere[HEXOID_MAX_RAWSZ];
		struct buf d = { 0 }, lf = { 0 }, lg = { 0 };
		struct hexoid_odb_options o = HEXOID_ODB_OPTIONS_INIT;
		struct hexoid_odb *h;
		struct pk p;
		size_t e0, e2, e3, e5, e6, last;

		if (!mkdtemp(dir))
			continue;
		snprintf(objs, sizeof(objs), "%s/objects", dir);
		mkdir(objs, 0777);
		hexid(tree, algo, 5);
		commit_text(ta, sizeof(ta), tree, NULL, "a: the base of the others");
		commit_text(tb, sizeof(tb), tree, NULL, "b: a good delta of a");
		commit_text(tc, sizeof(tc), tree, NULL, "c: base is d");
		commit_text(td, sizeof(td), tree, NULL, "d: base is c");
		commit_text(te, sizeof(te), tree, NULL, "e: copies past the end of a");
		commit_text(tf, sizeof(tf), tree, NULL, "f: broken in the pack, good loose");
		commit_text(tg, sizeof(tg), tree, NULL, "g: loose, cut short");
		commit_text(th, sizeof(th), tree, NULL, "h: a delta against nothing here");
		oid_of(algo, HEXOID_OBJ_COMMIT, ta, strlen(ta), oa);
		oid_of(algo, HEXOID_OBJ_COMMIT, tb, strlen(tb), ob);
		oid_of(algo, HEXOID_OBJ_COMMIT, tc, strlen(tc), oc);
		oid_of(algo, HEXOID_OBJ_COMMIT, td, strlen(td), od);
		oid_of(algo, HEXOID_OBJ_COMMIT, te, strlen(te), oe);
		oid_of(algo, HEXOID_OBJ_COMMIT, tf, strlen(tf), of);
		oid_of(algo, HEXOID_OBJ_COMMIT, tg, strlen(tg), og);
		oid_of(algo, HEXOID_OBJ_COMMIT, th, strlen(th), oh);
		digest(algo, "nowhere", 7, NULL, 0, nowhere);

		pk_init(&p, algo);
		e0 = pk_text(&p, HEXOID_OBJ_COMMIT, ta);
		make_delta(&d, ta, strlen(ta), tb, strlen(tb));
		pk_ofs(&p, e0, HEXOID_OBJ_COMMIT, tb, strlen(tb), &d);
		bfree(&d);
		make_delta(&d, ta, strlen(ta), th, strlen(th));
		e2 = pk_ref(&p, nowhere, HEXOID_OBJ_COMMIT, th, strlen(th), &d);
		bfree(&d);
		make_delta(&d, td, strlen(td), tc, strlen(tc));
		e3 = pk_ref(&p, od, HEXOID_OBJ_COMMIT, tc, strlen(tc), &d);
		bfree(&d);
		make_delta(&d, tc, strlen(tc), td, strlen(td));
		pk_ref(&p, oc, HEXOID_OBJ_COMMIT, td, strlen(td), &d);
		bfree(&d);
		d_sizes(&d, strlen(ta), strlen(te));
		d_copy(&d, 0, (uint32_t)strlen(ta));
		d_copy(&d, (uint32_t)strlen(ta) - 4, 8);
		e5 = pk_ofs(&p, e0, HEXOID_OBJ_COMMIT, te, strlen(te), &d);
		bfree(&d);
		e6 = pk_text(&p, HEXOID_OBJ_COMMIT, tf);
		pk_finish(&p);
		/* The idx was made: now flip a byte inside f's deflate data. */
		p.pack.p[p.e[e6].off + 6] ^= 0xff;
		odb_put_pack(objs, "crafted", &p);
		loose_of(&lf, HEXOID_OBJ_COMMIT, tf);
		odb_put_loose(objs, of, algo, &lf);
		loose_of(&lg, HEXOID_OBJ_COMMIT, tg);
		lg.n -= 5;
		odb_put_loose(objs, og, algo, &lg);
		bfree(&lg);
		loose_bytes(&lg, "commit x\0", 9, "z", 1);
		odb_put_loose(objs, nowhere, algo, &lg);

		o.algo = algo;
		h = hexoid_odb_open(objs, &o, err, sizeof(err));
		CHECK(h != NULL, "crafted: open: %s", err);
		if (h) {
			char at[64];
			CHECK(odb_get(h, oa, ta, err, sizeof(err)) == HEXOID_ODB_OK, "a: %s", err);
			CHECK(odb_get(h, ob, tb, err, sizeof(err)) == HEXOID_ODB_OK, "b: %s", err);
			snprintf(at, sizeof(at), "offset %llu: ", (unsigned long long)p.e[e3].off);
			CHECK(odb_get(h, oc, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED && strstr(err, "deeper than") &&
				      strstr(err, "pack-crafted.pack: offset ") && strstr(err, at),
			      "c (loop): %s", err);
			CHECK(odb_get(h, od, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED, "d (loop): %s", err);
			snprintf(at, sizeof(at), "offset %llu: ", (unsigned long long)p.e[e5].off);
			CHECK(odb_get(h, oe, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED && strstr(err, at) &&
				      strstr(err, "copies"),
			      "e (bad copy): %s", err);
			CHECK(odb_get(h, of, tf, err, sizeof(err)) == HEXOID_ODB_OK, "f (loose copy): %s", err);
			CHECK(odb_get(h, og, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED && strstr(err, "truncated") &&
				      strstr(err, "/objects/"),
			      "g (cut short): %s", err);
			CHECK(odb_get(h, nowhere, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED && strstr(err, "header"),
			      "bad loose header: %s", err);
			snprintf(at, sizeof(at), "offset %llu: ", (unsigned long long)p.e[e2].off);
			CHECK(odb_get(h, oh, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED && strstr(err, at) &&
				      strstr(err, "not in this pack"),
			      "h (base nowhere): %s", err);
			hexoid_odb_close(h);
		}
		/* Without the loose copy, f is damaged: the zlib reason, at its offset. */
		{
			char hex[HEXOID_MAX_HEXSZ + 1], path[512], at[64];
			hexoid_encode(hex, hexoid_hexsz(algo), of, 1, algo);
			hex[hexoid_hexsz(algo)] = 0;
			snprintf(path, sizeof(path), "%s/%.2s/%s", objs, hex, hex + 2);
			unlink(path);
			h = hexoid_odb_open(objs, &o, err, sizeof(err));
			snprintf(at, sizeof(at), "offset %llu: zlib", (unsigned long long)p.e[e6].off);
			CHECK(h && odb_get(h, of, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED && strstr(err, at),
			      "f (pack only): %s", err);
			hexoid_odb_close(h);
		}
		pk_free(&p);
		bfree(&lf);
		bfree(&lg);
		/* Chains 3000 deep, OFS and REF, each in a pack of its own; verified reads. */
		rm_tree(objs);
		mkdir(objs, 0777);
		build_chain(&p, algo, 3000, 0, 0, &last);
		{
			unsigned char end_ofs[HEXOID_MAX_RAWSZ], end_ref[HEXOID_MAX_RAWSZ];
			memcpy(end_ofs, p.e[last].oid, p.rawsz);
			odb_put_pack(objs, "ofs", &p);
			pk_free(&p);
			build_chain(&p, algo, 3000, 1, 64, &last);
			memcpy(end_ref, p.e[last].oid, p.rawsz);
			odb_put_pack(objs, "ref", &p);
			pk_free(&p);
			o.flags = HEXOID_ODB_VERIFY;
			o.cache_bytes = 1024;
			h = hexoid_odb_open(objs, &o, err, sizeof(err));
			CHECK(h && hexoid_odb_count_packs(h) == 2, "chains: open: %s", err);
			CHECK(h && odb_get(h, end_ofs, NULL, err, sizeof(err)) == HEXOID_ODB_OK, "ofs chain end: %s", err);
			CHECK(h && odb_get(h, end_ref, NULL, err, sizeof(err)) == HEXOID_ODB_OK, "ref chain end: %s", err);
			hexoid_odb_close(h);
			o.flags = 0;
			o.cache_bytes = 0;
		}
		/* A pack whose index is broken: open says which. */
		{
			char path[512];
			snprintf(path, sizeof(path), "%s/pack/pack-ofs.idx", objs);
			write_file(path, "\377tOc\0\0\0\2", 8);
			CHECK(hexoid_odb_open(objs, &o, err, sizeof(err)) == NULL && strstr(err, "pack-ofs.idx"),
			      "broken index: %s", err);
		}
		rm_tree(dir);
	}
}

struct odb_thread {
	struct hexoid_odb *h;
	const struct pk *p;
	pthread_t t;
	size_t ok;
};

static void *odb_reader(void *arg)
{
	struct odb_thread *t = arg;
	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < t->p->n; i++) {
			struct hexoid_object obj;
			/* from the deep end first, then in pack order */
			size_t k = round ? i : t->p->n - 1 - i;
			if (hexoid_odb_read(t->h, t->p->e[k].oid, &obj, NULL, 0) == HEXOID_ODB_OK)
				t->ok++;
			hexoid_object_free(&obj);
		}
	return NULL;
}

/*
 * One handle read from several threads at once, and one handle per thread (for
 * check-tsan: the name starts like the pack scan's threaded tests).
 * Input: a 400-deep OFS_DELTA chain; three threads reading every object three times
 * through one HEXOID_ODB_VERIFY handle with a small cache, then through a handle each.
 * Expected (hexoid_pack.h: "a handle may be shared; its calls are serialized"): every
 * read succeeds and hashes to its ID.
 */
TEST(pack_jobs_odb_threads)
{
	char dir[] = "/tmp/hexoid-odbt-XXXXXX", objs[64], err[256];
	struct hexoid_odb_options o = HEXOID_ODB_OPTIONS_INIT;
	struct odb_thread t[3];
	struct hexoid_odb *shared;
	struct pk p;
	size_t last;

	if (!mkdtemp(dir))
		return;
	snprintf(objs, sizeof(objs), "%s/objects", dir);
	mkdir(objs, 0777);
	build_chain(&p, HEXOID_SHA1, 400, 0, 200, &last);
	odb_put_pack(objs, "chain", &p);
	o.algo = HEXOID_SHA1;
	o.flags = HEXOID_ODB_VERIFY;
	o.cache_bytes = 8192;
	shared = hexoid_odb_open(objs, &o, err, sizeof(err));
	CHECK(shared != NULL, "open: %s", err);
	for (int own = 0; own < 2 && shared; own++) {
		for (int i = 0; i < 3; i++) {
			t[i].h = own ? hexoid_odb_open(objs, &o, err, sizeof(err)) : shared;
			t[i].p = &p;
			t[i].ok = 0;
			CHECK(t[i].h && pthread_create(&t[i].t, NULL, odb_reader, &t[i]) == 0, "thread %d", i);
		}
		for (int i = 0; i < 3; i++) {
			pthread_join(t[i].t, NULL);
			CHECK(t[i].ok == 3 * p.n, "%s handle, thread %d: %zu of %zu reads", own ? "own" : "shared",
			      i, t[i].ok, 3 * p.n);
			if (own)
				hexoid_odb_close(t[i].h);
		}
	}
	hexoid_odb_close(shared);
	pk_free(&p);
	rm_tree(dir);
}

/* --- streaming and stopping ------------------------------------------------------------ */

/* A pack of n commits, each a small delta of the one before, every one with an uppercase
 * tree header (upper) or none (clean). */
static void build_many_commits(struct pk *p, enum hexoid_algo algo, unsigned n, int upper)
{
	char tree[HEXOID_MAX_HEXSZ + 1], prev[512], cur[512], msg[64];
	struct buf d = { 0 };
	size_t e = 0;

	hexid(tree, algo, 77);
	if (upper)
		tree[0] = 'A';
	pk_init(p, algo);
	for (unsigned i = 0; i < n; i++) {
		snprintf(msg, sizeof(msg), "commit number %u of many", i);
		commit_text(cur, sizeof(cur), tree, NULL, msg);
		if (i % 50 == 0) {
			e = pk_text(p, HEXOID_OBJ_COMMIT, cur);
		} else {
			d.n = 0;
			make_delta(&d, prev, strlen(prev), cur, strlen(cur));
			e = pk_ofs(p, e, HEXOID_OBJ_COMMIT, cur, strlen(cur), &d);
		}
		memcpy(prev, cur, sizeof(cur));
	}
	bfree(&d);
	pk_finish(p);
}

struct stopper {
	uint64_t findings, progress, stop_progress_at;
	uint64_t max_done;     /* what progress said was done, at most */
	int after_stop;        /* a callback came after one asked to stop */
	int stopped;
	uint64_t last_key;
	int out_of_order;
};

static int stop_finding(void *ctx, const struct hexoid_finding *f)
{
	struct stopper *s = ctx;
	if (s->stopped)
		s->after_stop = 1;
	if (f->offset < s->last_key)
		s->out_of_order = 1;
	s->last_key = f->offset;
	s->findings++;
	s->stopped = 1;
	return 1;
}

static int stop_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct stopper *s = ctx;
	(void)total;
	if (s->stopped)
		s->after_stop = 1;
	s->progress++;
	if (done > s->max_done)
		s->max_done = done;
	if (s->stop_progress_at && s->progress >= s->stop_progress_at) {
		s->stopped = 1;
		return 1;
	}
	return 0;
}

/*
 * A callback that asks to stop stops the scan at once, findings and progress alike.
 * Input: 60,000 commits, each with an uppercase tree; scans with 1, 2 and 3 threads whose
 * finding callback returns 1 at the first finding; then a clean pack of as many, whose
 * progress callback returns 1 at its first call.
 * Expected (hexoid_pack.h: findings reported as found, a window at a time; "a nonzero
 * return from any callback stops the scan promptly ... and the scan returns 1"): rc 1,
 * exactly one finding and no callback after it, the first commit's offset; far fewer
 * commits inflated than the pack holds (a few windows); the same for progress.
 */
TEST(pack_jobs_stop_streams)
{
	struct pk bad, clean;
	const unsigned n = 60000;

	build_many_commits(&bad, HEXOID_SHA1, n, 1);
	build_many_commits(&clean, HEXOID_SHA1, n, 0);
	for (unsigned jobs = 1; jobs <= 3; jobs++) {
		struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		struct stopper s = { 0 };
		char err[256];
		int rc;

		o.jobs = jobs;
		o.on_finding = stop_finding;
		o.on_progress = stop_progress;
		o.ctx = &s;
		rc = hexoid_pack_scan_buffers("bad", bad.pack.p, bad.pack.n, bad.idx, bad.idxlen, &o, &st,
					      err, sizeof(err));
		CHECK(rc == 1 && s.findings == 1 && !s.after_stop && s.last_key == bad.e[0].off,
		      "jobs %u: stop at the first finding: rc %d, %llu findings, after stop %d, offset %llu",
		      jobs, rc, (unsigned long long)s.findings, s.after_stop, (unsigned long long)s.last_key);
		CHECK(st.commits < n / 4 && st.git3 == 1,
		      "jobs %u: stopped at the first finding after %llu of %u commits (git3 %llu)", jobs,
		      (unsigned long long)st.commits, n, (unsigned long long)st.git3);

		memset(&s, 0, sizeof(s));
		s.stop_progress_at = 1;
		rc = hexoid_pack_scan_buffers("clean", clean.pack.p, clean.pack.n, clean.idx, clean.idxlen,
					      &o, &st, err, sizeof(err));
		CHECK(rc == 1 && s.progress == 1 && !s.after_stop && s.findings == 0,
		      "jobs %u: stop from progress: rc %d, %llu progress calls, after stop %d", jobs, rc,
		      (unsigned long long)s.progress, s.after_stop);
		CHECK(st.commits < n, "jobs %u: stopped from progress after all %llu commits", jobs,
		      (unsigned long long)st.commits);

		/* Not stopped: every finding, in offset order, progress never past the total. */
		memset(&s, 0, sizeof(s));
		o.on_finding = NULL;
		rc = hexoid_pack_scan_buffers("bad", bad.pack.p, bad.pack.n, bad.idx, bad.idxlen, &o, &st,
					      err, sizeof(err));
		CHECK(rc == 0 && st.git3 == n && st.commits == n && s.max_done == n && s.progress >= 1,
		      "jobs %u: whole scan: rc %d, git3 %llu, commits %llu, progress %llu calls, done %llu",
		      jobs, rc, (unsigned long long)st.git3, (unsigned long long)st.commits,
		      (unsigned long long)s.progress, (unsigned long long)s.max_done);
	}
	pk_free(&bad);
	pk_free(&clean);
}

struct heap_watch {
	size_t peak;
};

static size_t heap_now(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	return mallinfo2().uordblks;
#else
	return 0;
#endif
}

static int heap_finding(void *ctx, const struct hexoid_finding *f)
{
	struct heap_watch *h = ctx;
	size_t now = heap_now();
	(void)f;
	if (now > h->peak)
		h->peak = now;
	return 0;
}

static int heap_progress(void *ctx, uint64_t done, uint64_t total)
{
	(void)done;
	(void)total;
	return heap_finding(ctx, NULL);
}

/*
 * Memory while findings stream is bounded by the window, not by the number of findings.
 * Input: 60,000 commits with an uppercase tree each, and a clean pack of as many, scanned
 * with 1 and 2 threads; the heap in use (glibc's mallinfo2) sampled at every finding and
 * progress call.
 * Expected (hexoid_pack.h: "memory is bounded by the window, not by the number of
 * findings"): the bad pack's peak within 8 MiB of the clean one's, where holding every
 * finding would take over 20 MiB. Skipped where the allocator does not say (sanitizers).
 */
TEST(pack_findings_memory)
{
	struct pk bad, clean;
	const unsigned n = 60000;

	if (!heap_now()) {
		printf("    # skip: the allocator does not report its use\n");
		return;
	}
	build_many_commits(&bad, HEXOID_SHA1, n, 1);
	build_many_commits(&clean, HEXOID_SHA1, n, 0);
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		struct heap_watch hb = { 0 }, hc = { 0 };
		char err[256];

		o.jobs = jobs;
		o.on_finding = heap_finding;
		o.on_progress = heap_progress;
		o.ctx = &hc;
		CHECK(hexoid_pack_scan_buffers("clean", clean.pack.p, clean.pack.n, clean.idx, clean.idxlen,
					       &o, &st, err, sizeof(err)) == 0 && st.git3 == 0,
		      "jobs %u: clean scan", jobs);
		o.ctx = &hb;
		CHECK(hexoid_pack_scan_buffers("bad", bad.pack.p, bad.pack.n, bad.idx, bad.idxlen, &o, &st,
					       err, sizeof(err)) == 0 && st.git3 == n,
		      "jobs %u: bad scan", jobs);
		CHECK(hc.peak && hb.peak < hc.peak + ((size_t)8 << 20),
		      "jobs %u: heap peak %zu KiB with %u findings, %zu KiB without", jobs, hb.peak >> 10, n,
		      hc.peak >> 10);
	}
	pk_free(&bad);
	pk_free(&clean);
}
