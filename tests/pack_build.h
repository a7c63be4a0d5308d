/*
 * What the pack module's tests share (pack.c, loose.c, odb.c, object.c): packs, indexes,
 * deltas and loose objects built byte by byte from Git's format descriptions (zlib for
 * the streams, EVP for the IDs and checksums), sharing nothing with the library; object
 * texts; and the findings of a scan, collected.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_TESTS_PACK_BUILD_H
#define HEXOID_TESTS_PACK_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "hexoid_pack.h"

struct buf {
	unsigned char *p;
	size_t n, cap;
};

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

/* An author and a committer line, for the texts of commits. */
extern const char *const AUTHOR;

/* The names of types 1-4, as loose object headers spell them. */
extern const char *const type_names[];

void bput(struct buf *b, const void *d, size_t n);
void bbyte(struct buf *b, unsigned c);
void bstr(struct buf *b, const char *s);
void bfree(struct buf *b);
void put32(unsigned char *p, uint32_t v);
void digest(enum hexoid_algo algo, const void *a, size_t alen, const void *b, size_t blen,
	    unsigned char *out);
/* Git's object ID: the hash of "<type> <len>\0" and the content. */
void oid_of(enum hexoid_algo algo, unsigned type, const void *d, size_t len,
	    unsigned char *out);
/* A lowercase hex ID derived from seed, hexsz digits, NUL-terminated. */
void hexid(char *out, enum hexoid_algo algo, unsigned seed);
/* The first letter digit of hex at or after `from`, made uppercase; returns its index. */
size_t upper_at(char *hex, size_t from);
void zdeflate(const void *d, size_t len, struct buf *out);
int collect(void *ctx, const struct hexoid_finding *f);
/* Scan options that collect every finding into g, and check IDs when verify is set. */
void collect_options(struct hexoid_scan_options *o, struct got *g, int verify);
void got_free(struct got *g);
void dump(const char *what, const struct got *g);
/* Exactly one finding, of this code at this offset, its message holding `sub`. */
const struct hexoid_finding *expect_one(const char *what, const struct got *g,
					enum hexoid_code code, uint64_t off,
					const char *sub);
void pk_init(struct pk *p, enum hexoid_algo algo);
void pk_free(struct pk *p);
/* OFS_DELTA's distance back: big-endian base-128, +1 on each continuation. */
void put_ofs(struct buf *b, uint64_t rel);
/* Append an object's packed bytes as they are, with its ID (NULL: a made-up one). */
size_t pk_bytes(struct pk *p, const void *bytes, size_t len, const unsigned char *oid);
/* Header (type, size), then `extra` (base offset or ID), then `z` as the data. */
size_t pk_put(struct pk *p, unsigned type, uint64_t size, const void *extra,
	      size_t extralen, const void *z, size_t zlen, const unsigned char *oid);
size_t pk_obj(struct pk *p, unsigned type, const void *content, size_t len);
size_t pk_text(struct pk *p, unsigned type, const char *text);
/* A delta against entry `base` (OFS_DELTA), whose result is `type` `result`. */
size_t pk_ofs(struct pk *p, size_t base, unsigned type, const void *result, size_t rlen,
	      const struct buf *delta);
/* A delta against the object `base_oid` (REF_DELTA). */
size_t pk_ref(struct pk *p, const unsigned char *base_oid, unsigned type,
	      const void *result, size_t rlen, const struct buf *delta);
/* The entries' numbers in ID order, as an index lists them; malloc'ed. */
size_t *pk_id_order(const struct pk *p);
/* An index's fan-out table at q: how many IDs start with each byte value or less. */
void pk_fanout(unsigned char *q, const struct pk *p, const size_t *order);
/* The index's own checksum, after any change to it. */
void pk_seal_idx(struct pk *p);
/* Header count, trailer, then a v2 index of it all. */
void pk_finish_count(struct pk *p, uint32_t count);
void pk_finish(struct pk *p);
void d_sizes(struct buf *d, uint64_t src, uint64_t dst);
void d_copy(struct buf *d, uint32_t off, uint32_t size);
void d_insert(struct buf *d, const void *s, size_t n);
/* A real delta: the common prefix and suffix copied, the middle inserted. */
void make_delta(struct buf *d, const void *base, size_t blen, const void *target,
		size_t tlen);
/* A commit: tree, parents (NULL-terminated, may be none), message. */
void commit_text(char *out, size_t cap, const char *tree, const char *const *parents,
		 const char *msg);
void tag_text(char *out, size_t cap, const char *object, const char *type, const char *msg);
/* `depth` commits, each a delta of the one before (OFS forward, or REF to the next one in
 * the pack so that resolving the first walks the whole chain); the last has an uppercase
 * tree. `pad` bytes of message make each commit bigger. */
void build_chain(struct pk *p, enum hexoid_algo algo, unsigned depth, int ref, size_t pad,
		 size_t *last);
/* zlib of `header` (with its NUL, if given in hlen) then the content. */
void loose_bytes(struct buf *out, const char *header, size_t hlen, const void *content,
		 size_t clen);
void loose_of(struct buf *out, unsigned type, const char *content);
void write_file(const char *path, const void *data, size_t len);
void rm_tree(const char *path);

#endif
