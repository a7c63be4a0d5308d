/*
 * What the pack walker and the loose-object reader share: mapped files, object hashing,
 * bounded inflation, and a growable list of findings.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_PACK_COMMON_H
#define HEXOID_PACK_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>
#include <libdeflate.h>

#include "hexoid_pack.h"

/* A read-only mapping of a whole file (NULL data for an empty one). */
struct pk_map {
	const unsigned char *data;
	size_t size;
};

/* Map `path`; on failure returns -1 with errno set, and its reason in err. */
int hexoid_pk_map_file(struct pk_map *map, const char *path, char *err, size_t errlen);
void hexoid_pk_unmap(struct pk_map *map);

/* Git's object ID of "<type> <len>\0" + data; out gets rawsz bytes. 0, or -1 on failure. */
int hexoid_pk_object_id(enum hexoid_algo algo, enum hexoid_object_type type, const void *data,
		 size_t len, unsigned char *out);
/* The hash of data[0, len): 0, or -1 on failure. */
int hexoid_pk_digest(enum hexoid_algo algo, const void *data, size_t len, unsigned char *out);
/* NULL when the hashes can be computed; else why not (libcrypto could not be loaded:
 * see the digest hook, crypto.h). */
const char *hexoid_pk_hash_unavailable(void);


/*
 * hexoid_pack_scan() as the audit reads a pack: a commit or tag stored whole, that no
 * delta builds on, and whose packed bytes match the index's CRC32, is inflated only up
 * to the blank line that ends its headers (the bytes index-pack inflated whole when it
 * wrote the index's CRC32; a mismatch is a finding, and that object is read whole).
 * Deltas, their bases and everything else are read whole, and every finding but a zlib
 * stream broken after the headers of an object its index vouches for is the same.
 */
int hexoid_pk_pack_scan_heads(const char *path, const struct hexoid_scan_options *opt,
			      struct hexoid_scan_stats *stats, char *err, size_t errlen);

/*
 * Inflate the zlib stream at in[0, inlen) into out[0, outlen) exactly: the stream must
 * end having produced outlen bytes. out must have room for outlen + PK_INFLATE_SLACK:
 * zlib takes its fast path only while 258 bytes of output room remain, so without the
 * slack every small commit would be decoded a symbol at a time (and the room past
 * outlen is also where a stream longer than its header shows itself). *used gets the
 * input bytes the stream took. Returns 0, or -1 with the reason in why.
 *
 * d (libdeflate's whole-buffer decompressor, or NULL) goes first: two to three times
 * zlib's speed on the small streams of commits. A stream it does not decode exactly
 * goes again through zlib (z: initialised by the caller, reused), which says why; so a
 * problem is described the same way whichever decoded it.
 */
#define PK_INFLATE_SLACK 320
int hexoid_pk_inflate(struct libdeflate_decompressor *d, z_stream *z, const unsigned char *in,
	       size_t inlen, unsigned char *out, size_t outlen, size_t *used, char *why,
	       size_t whylen);

/*
 * Apply a git delta (two size varints, then copy and insert instructions) to base.
 * Returns the result, malloc'ed, *out_len bytes and a NUL after them; or NULL with the
 * reason in why, and *oom set when that reason is memory. Every copy and insert is
 * checked against the base, the delta and the declared result size.
 */
/* The size of what a delta's data builds (its second size), or UINT64_MAX when its
 * sizes are cut short. */
uint64_t hexoid_pk_delta_result_size(const unsigned char *d, size_t dlen);
unsigned char *hexoid_pk_apply_delta(const unsigned char *base, size_t base_len, const unsigned char *d,
			      size_t dlen, size_t *out_len, char *why, size_t whylen, int *oom);

/* The type a loose object's header names in name[0, n) ("commit", "tree", "blob",
 * "tag"), or HEXOID_OBJ_NONE. */
enum hexoid_object_type hexoid_pk_object_type(const void *name, size_t n);

/* CRC32 of data[0, len) (libdeflate's: folded with carry-less multiplication where the
 * CPU has it). */
uint32_t hexoid_pk_crc32(const void *data, size_t len);

/*
 * The most a zlib stream of `packed` bytes can inflate to (deflate's best ratio is a little
 * over 1032:1): a size header claiming more is a lie, and nothing is allocated for it.
 */
static inline uint64_t pk_inflate_bound(uint64_t packed)
{
	return packed > UINT64_MAX / 1040 ? UINT64_MAX : packed * 1040 + 64;
}

/*
 * Findings, kept to be sorted by (key, rank, seq) and reported in that order. The key is
 * the pack offset; the rank is the step that found it, so that two findings at one
 * offset from different steps (a CRC32 and a header, say) keep their order however the
 * steps split the objects between threads; seq is the order within the step.
 */
struct pk_found {
	uint64_t key;
	uint64_t seq;
	unsigned rank;
	struct hexoid_finding f;
};
struct pk_list {
	struct pk_found *v;
	size_t n, cap;
	unsigned rank; /* given to what is added now */
	int oom;       /* a finding could not be stored */
};
/* Append a finding (copied); returns the stored one, or NULL when out of memory. */
struct hexoid_finding *hexoid_pk_add(struct pk_list *list, uint64_t key, enum hexoid_algo algo,
			      enum hexoid_code code, const char *path, uint64_t offset);
void hexoid_pk_list_free(struct pk_list *list);
/* Set a finding's message, printf style. */
void hexoid_pk_say(struct hexoid_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Check a commit's or tag's headers and, when asked, its ID; add what is wrong to `out`
 * with the given key, path and offset. oid is the object's ID (rawsz bytes) or NULL.
 */
void hexoid_pk_check_object(struct pk_list *out, uint64_t key, const char *path, uint64_t offset,
		     enum hexoid_object_type type, const unsigned char *text, size_t len,
		     const unsigned char *oid, enum hexoid_algo algo, int verify_ids);

/* One finding to the callback, counted in stats by class. 1 if the callback asked to
 * stop. */
int hexoid_pk_emit(const struct hexoid_finding *f, const struct hexoid_scan_options *opt,
	    struct hexoid_scan_stats *stats);

/* Report every finding of the lists, merged in (key, rank, seq) order, and empty them;
 * counts into stats. Returns 1 if the callback asked to stop, else 0. */
int hexoid_pk_report(struct pk_list *lists, size_t nlists, const struct hexoid_scan_options *opt,
	      struct hexoid_scan_stats *stats);

/* The options' size is one this library knows (HEXOID_SCAN_OPTIONS_INIT set it). */
int hexoid_pk_options_ok(const struct hexoid_scan_options *opt);
/* Copy the statistics out as far as the caller's struct goes (its size field; one that
 * is no version's size is taken as the first version's), keeping that field. NULL is
 * fine. */
void hexoid_pk_stats_out(struct hexoid_scan_stats *dst, const struct hexoid_scan_stats *src);

/* Progress to opt's callback, at most ten times a second unless force; *last is the
 * time of the last call (0 before the first). 1 if the callback asked to stop. */
int hexoid_pk_progress(const struct hexoid_scan_options *opt, uint64_t done, uint64_t total,
		double *last, int force);

/* The delta base cache of each thread when the options say 0. */
#define PK_CACHE_DEFAULT ((size_t)32 << 20)

#endif
