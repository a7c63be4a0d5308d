/*
 * The pack module's tests' builders (pack_build.h).
 * SPDX-License-Identifier: MIT
 */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "hexoid_idx.h"
#include "pack_build.h"
#include "test.h"

/* --- growable bytes ----------------------------------------------------------------- */

void bput(struct buf *b, const void *d, size_t n)
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

void bbyte(struct buf *b, unsigned c)
{
	unsigned char x = (unsigned char)c;
	bput(b, &x, 1);
}

void bstr(struct buf *b, const char *s)
{
	bput(b, s, strlen(s));
}

void bfree(struct buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* --- hashing and IDs ---------------------------------------------------------------- */

void digest(enum hexoid_algo algo, const void *a, size_t alen, const void *b, size_t blen,
	    unsigned char *out)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	if (!c || !EVP_DigestInit_ex(c, algo == HEXOID_SHA1 ? EVP_sha1() : EVP_sha256(), NULL) ||
	    !EVP_DigestUpdate(c, a, alen) || (blen && !EVP_DigestUpdate(c, b, blen)) ||
	    !EVP_DigestFinal_ex(c, out, NULL))
		abort();
	EVP_MD_CTX_free(c);
}

const char *const type_names[] = { "", "commit", "tree", "blob", "tag" };

/* Git's object ID: the hash of "<type> <len>\0" and the content. */
void oid_of(enum hexoid_algo algo, unsigned type, const void *d, size_t len,
	    unsigned char *out)
{
	char hdr[64];
	int n = snprintf(hdr, sizeof(hdr), "%s %zu", type_names[type], len);
	digest(algo, hdr, (size_t)n + 1, d, len, out);
}

/* A lowercase hex ID derived from seed, hexsz digits, NUL-terminated. */
void hexid(char *out, enum hexoid_algo algo, unsigned seed)
{
	unsigned char raw[HEXOID_MAX_RAWSZ];
	digest(algo, &seed, sizeof(seed), NULL, 0, raw);
	hexoid_encode(out, hexoid_hexsz(algo), raw, 1, algo);
	out[hexoid_hexsz(algo)] = 0;
}

/* The first letter digit of hex at or after `from`, made uppercase; returns its index. */
size_t upper_at(char *hex, size_t from)
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

/* Level 6, as git writes. One stream for the whole run, reset for each object: deflate's
 * five buffers are 64 to 256 KiB each, and a sanitizer's allocator maps and unmaps memory
 * of that size from the kernel on every call, so compress2() per object spent most of a
 * large pack's build in mmap and madvise (TSan: 190,000 calls, 45 s for one test). Packs
 * are built on one thread only; the stream stays reachable from here until exit. */
void zdeflate(const void *d, size_t len, struct buf *out)
{
	static z_stream z;
	static int ready;
	size_t at = out->n;
	uLong room;

	if (!ready) {
		if (deflateInit(&z, 6) != Z_OK)
			abort();
		ready = 1;
	} else if (deflateReset(&z) != Z_OK) {
		abort();
	}
	room = deflateBound(&z, (uLong)len);
	bput(out, NULL, (size_t)room); /* room */
	z.next_in = (Bytef *)(uintptr_t)d;
	z.avail_in = (uInt)len;
	z.next_out = out->p + at;
	z.avail_out = (uInt)room;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	out->n = at + (size_t)(room - z.avail_out);
}

/* --- findings, collected ------------------------------------------------------------ */

void collect_options(struct hexoid_scan_options *o, struct got *g, int verify)
{
	memset(o, 0, sizeof(*o));
	o->size = sizeof(*o);
	o->verify_ids = verify;
	o->on_finding = collect;
	o->ctx = g;
}

int collect(void *ctx, const struct hexoid_finding *f)
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

void got_free(struct got *g)
{
	free(g->v);
	memset(g, 0, sizeof(*g));
}

void dump(const char *what, const struct got *g)
{
	for (size_t i = 0; i < g->n; i++) {
		const struct hexoid_finding *f = &g->v[i].f;
		printf("    # %s: [%zu] code %d class %d off %lld type %d header %s %u:%u: %s\n", what,
		       i, f->code, (int)f->cls,
		       f->offset == HEXOID_NO_OFFSET ? -1LL : (long long)f->offset, f->type,
		       f->header ? f->header : "-", f->line, f->column, f->message);
	}
}

/* Exactly one finding, of this code at this offset, its message holding `sub`. */
const struct hexoid_finding *expect_one(const char *what, const struct got *g,
					enum hexoid_code code, uint64_t off,
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

void pk_init(struct pk *p, enum hexoid_algo algo)
{
	static const unsigned char head[12] = { 'P', 'A', 'C', 'K', 0, 0, 0, 2, 0, 0, 0, 0 };
	memset(p, 0, sizeof(*p));
	p->algo = algo;
	p->rawsz = hexoid_rawsz(algo);
	bput(&p->pack, head, sizeof(head));
}

void pk_free(struct pk *p)
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
void put_ofs(struct buf *b, uint64_t rel)
{
	unsigned char tmp[16];
	unsigned pos = sizeof(tmp) - 1;
	tmp[pos] = rel & 127;
	while (rel >>= 7)
		tmp[--pos] = (unsigned char)(128 | (--rel & 127));
	bput(b, tmp + pos, sizeof(tmp) - pos);
}

/* Append an object's packed bytes as they are, with its ID (NULL: a made-up one). */
size_t pk_bytes(struct pk *p, const void *bytes, size_t len, const unsigned char *oid)
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
size_t pk_put(struct pk *p, unsigned type, uint64_t size, const void *extra,
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

size_t pk_obj(struct pk *p, unsigned type, const void *content, size_t len)
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

size_t pk_text(struct pk *p, unsigned type, const char *text)
{
	return pk_obj(p, type, text, strlen(text));
}

/* A delta against entry `base` (OFS_DELTA), whose result is `type` `result`. */
size_t pk_ofs(struct pk *p, size_t base, unsigned type, const void *result, size_t rlen,
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
size_t pk_ref(struct pk *p, const unsigned char *base_oid, unsigned type,
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

/* The entries' numbers in ID order, as an index lists them; malloc'ed. */
size_t *pk_id_order(const struct pk *p)
{
	size_t n = p->n, i;
	size_t *order = malloc((n ? n : 1) * sizeof(*order));

	for (i = 0; i < n; i++)
		order[i] = i;
	sort_rawsz = p->rawsz;
	sort_pk = p;
	qsort(order, n, sizeof(*order), cmp_pos);
	return order;
}

/* An index's fan-out table at q: how many IDs start with each byte value or less. */
void pk_fanout(unsigned char *q, const struct pk *p, const size_t *order)
{
	for (unsigned k = 0; k < 256; k++) {
		uint32_t c = 0;
		while (c < p->n && p->e[order[c]].oid[0] <= k)
			c++;
		put32(q + 4 * k, c);
	}
}

/* The index's own checksum, after any change to it. */
void pk_seal_idx(struct pk *p)
{
	digest(p->algo, p->idx, p->idxlen - p->rawsz, NULL, 0, p->idx + p->idxlen - p->rawsz);
}

/* Header count, trailer, then a v2 index of it all. */
void pk_finish_count(struct pk *p, uint32_t count)
{
	size_t n = p->n, rawsz = p->rawsz, i;
	size_t *order = pk_id_order(p);
	unsigned char sum[HEXOID_MAX_RAWSZ], *q;

	put32(p->pack.p + 8, count);
	digest(p->algo, p->pack.p, p->pack.n, NULL, 0, sum);
	bput(&p->pack, sum, rawsz);

	p->idxlen = 8 + 1024 + n * (rawsz + 8) + 2 * rawsz;
	p->idx = calloc(1, p->idxlen);
	q = p->idx;
	put32(q, 0xff744f63u);
	put32(q + 4, 2);
	q += 8;
	pk_fanout(q, p, order);
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

void pk_finish(struct pk *p)
{
	pk_finish_count(p, (uint32_t)p->n);
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

void d_sizes(struct buf *d, uint64_t src, uint64_t dst)
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

void d_copy(struct buf *d, uint32_t off, uint32_t size)
{
	while (size) {
		uint32_t piece = size > 0x10000 ? 0x10000 : size;
		d_copy1(d, off, piece);
		off += piece;
		size -= piece;
	}
}

void d_insert(struct buf *d, const void *s, size_t n)
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
void make_delta(struct buf *d, const void *base, size_t blen, const void *target,
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

const char *const AUTHOR = "author A U Thor <a@example.com> 1700000000 +0000\n"
			    "committer C O Mitter <c@example.com> 1700000000 +0000\n";

/* A commit: tree, parents (NULL-terminated, may be none), message. */
void commit_text(char *out, size_t cap, const char *tree, const char *const *parents,
		 const char *msg)
{
	int n = snprintf(out, cap, "tree %s\n", tree);
	for (; parents && *parents; parents++)
		n += snprintf(out + n, cap - (size_t)n, "parent %s\n", *parents);
	snprintf(out + n, cap - (size_t)n, "%s\n%s\n", AUTHOR, msg);
}

void tag_text(char *out, size_t cap, const char *object, const char *type, const char *msg)
{
	snprintf(out, cap,
		 "object %s\ntype %s\ntag v1\ntagger T Agger <t@example.com> 1700000000 +0000\n\n%s\n",
		 object, type, msg);
}

/* --- packs, loose objects and folders for the tests ----------------------------------- */

/* `depth` commits, each a delta of the one before (OFS forward, or REF to the next one in
 * the pack so that resolving the first walks the whole chain); the last has an uppercase
 * tree. `pad` bytes of message make each commit bigger. */
void build_chain(struct pk *p, enum hexoid_algo algo, unsigned depth, int ref, size_t pad,
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

/* zlib of `header` (with its NUL, if given in hlen) then the content. */
void loose_bytes(struct buf *out, const char *header, size_t hlen, const void *content,
		 size_t clen)
{
	struct buf raw = { 0 };
	bput(&raw, header, hlen);
	bput(&raw, content, clen);
	zdeflate(raw.p, raw.n, out);
	bfree(&raw);
}

void loose_of(struct buf *out, unsigned type, const char *content)
{
	char h[64];
	int n = snprintf(h, sizeof(h), "%s %zu", type_names[type], strlen(content));
	loose_bytes(out, h, (size_t)n + 1, content, strlen(content));
}

void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL, "cannot write %s", path);
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

void rm_tree(const char *path)
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
