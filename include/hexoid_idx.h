/*
 * hexoid_idx — read Git pack index files (.idx), versions 1 and 2, SHA-1 and SHA-256.
 *
 * SPDX-License-Identifier: MIT
 *
 * The reader works on a buffer the caller owns (a mapped or read file) and never copies
 * it: hexoid_idx_open() checks the whole structure once — magic, version, fanout, size,
 * the order of the object IDs, the large-offset indexes — so that afterwards every
 * accessor is a plain bounds-safe read. A file that fails a check is described by an
 * error code and a message naming the byte offset and, where there is one, the entry.
 * The checksums at the end of the file are not verified here: hexoid_idx_checksums() gives
 * them to a caller, and hexoid_pack_scan() (hexoid_pack.h) checks them with the pack.
 *
 * A struct hexoid_idx holds only pointers into the buffer and a few sizes: it may be
 * copied, needs no freeing, and is valid as long as the buffer is. Reading one from many
 * threads at once is safe.
 */
#ifndef HEXOID_IDX_H
#define HEXOID_IDX_H

#include <stddef.h>
#include <stdint.h>

#include "hexoid.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hexoid_idx_status {
	HEXOID_IDX_OK = 0,
	HEXOID_IDX_EARG = 1,       /* NULL buffer with a size, unknown algo */
	HEXOID_IDX_ETRUNCATED = 2, /* shorter than its header, fanout or tables need */
	HEXOID_IDX_EVERSION = 3,   /* v2 magic, but a version other than 2 */
	HEXOID_IDX_EFANOUT = 4,    /* fanout decreases, or disagrees with the IDs */
	HEXOID_IDX_ESIZE = 5,      /* size fits no layout of N objects (too long, ragged) */
	HEXOID_IDX_EAMBIGUOUS = 6, /* the size fits both SHA-1 and SHA-256: say which */
	HEXOID_IDX_EORDER = 7,     /* IDs not strictly increasing (unsorted or repeated) */
	HEXOID_IDX_ELARGE = 8,     /* a 64-bit offset index beyond the large-offset table */
	HEXOID_IDX_ENOTIDX = 9,    /* another kind of file: a pack, a git index, text, ... */
};

struct hexoid_idx_error {
	enum hexoid_idx_status status;
	size_t offset;     /* byte offset in the buffer of the first bad byte or field */
	size_t entry;      /* 0-based object entry concerned, or (size_t)-1 for none */
	char message[256]; /* one line, no newline: what is wrong, where, and what was expected */
};

/* Read-only after hexoid_idx_open(); use the accessors rather than the fields. */
struct hexoid_idx {
	const unsigned char *data;
	size_t size;
	enum hexoid_algo algo;
	unsigned version;            /* 1 or 2 */
	size_t rawsz;                /* 20 or 32 */
	uint32_t nr;                 /* objects */
	uint32_t nr_large;           /* entries of the 8-byte large-offset table (v2) */
	const unsigned char *fanout; /* 256 big-endian counts */
	const unsigned char *ids;    /* first ID; the next is id_stride bytes on */
	size_t id_stride;            /* v2: rawsz; v1: 4 + rawsz (offset, then ID) */
	const unsigned char *offs;   /* first 4-byte offset; the next is off_stride bytes on */
	size_t off_stride;
	const unsigned char *crcs;   /* v2: N x 4-byte CRC32; v1: NULL */
	const unsigned char *large;  /* v2: the large-offset table */
};

/*
 * Check the pack index in data[0, size) and describe it in *idx. `algo` is HEXOID_SHA1
 * or HEXOID_SHA256 when the caller knows the repository's object format, or 0 to infer
 * it from the file size (HEXOID_IDX_EAMBIGUOUS if both would fit, which a git-written
 * index cannot do but a hand-made one might). Returns HEXOID_IDX_OK, or the first
 * problem found, described in *err when err != NULL (*idx is then unusable).
 * Reads nothing outside data[0, size); takes O(N) time for the order check.
 */
HEXOID_API enum hexoid_idx_status hexoid_idx_open(struct hexoid_idx *idx, const void *data,
						  size_t size, enum hexoid_algo algo,
						  struct hexoid_idx_error *err);

/* A short fixed description of a status, e.g. "object IDs out of order". */
HEXOID_API const char *hexoid_idx_strerror(enum hexoid_idx_status status);

HEXOID_API size_t hexoid_idx_count(const struct hexoid_idx *idx);
HEXOID_API unsigned hexoid_idx_version(const struct hexoid_idx *idx);
HEXOID_API enum hexoid_algo hexoid_idx_algo(const struct hexoid_idx *idx);

/* The raw ID of entry i (rawsz bytes, inside the buffer), or NULL if i >= count. */
HEXOID_API const unsigned char *hexoid_idx_id(const struct hexoid_idx *idx, size_t i);

/* The pack offset of entry i (64-bit offsets resolved); 0 if i >= count. */
HEXOID_API uint64_t hexoid_idx_offset(const struct hexoid_idx *idx, size_t i);

/*
 * Write the IDs of entries first .. first+n-1 as lowercase hex (2*rawsz digits each) at
 * out + k*stride, with hexoid_encode()'s kernels, touching nothing between records.
 * Entries past the end are left out; returns how many were written. Does nothing if
 * stride is below the hex size.
 */
HEXOID_API size_t hexoid_idx_encode(const struct hexoid_idx *idx, size_t first, size_t n,
				    char *out, size_t stride);

/*
 * hexoid_idx_offset() of entries first .. first+n-1 into offs[0..]: the loop a listing
 * of the whole index runs, without a call per entry. Entries past the end are left out;
 * returns how many were written.
 */
HEXOID_API size_t hexoid_idx_offsets(const struct hexoid_idx *idx, size_t first, size_t n,
				     uint64_t *offs);

/*
 * The CRC32s of entries first .. first+n-1 as 8 lowercase hex digits each ("%08x"),
 * packed at hex[0, 8*k), with hexoid_encode()'s kernels; k, the number written, leaves
 * out entries past the end, and is 0 for a version 1 index (no CRC32s).
 */
HEXOID_API size_t hexoid_idx_crc32_hex(const struct hexoid_idx *idx, size_t first, size_t n,
				       char *hex);

/* Whether entries have a CRC32 (version 2), and the CRC32 of entry i (0 if none). */
HEXOID_API int hexoid_idx_has_crc32(const struct hexoid_idx *idx);
HEXOID_API uint32_t hexoid_idx_crc32(const struct hexoid_idx *idx, size_t i);

/* The trailing checksums, rawsz bytes each: of the pack, and of the index before it. */
HEXOID_API void hexoid_idx_checksums(const struct hexoid_idx *idx,
				     const unsigned char **pack, const unsigned char **index);

/*
 * The entry holding the raw ID (rawsz bytes), or -1 if the index does not have it.
 * The fanout narrows the search to the IDs sharing its first byte, then binary search.
 * (ptrdiff_t holds any entry: N entries of at least 24 bytes fit in the address space.)
 */
HEXOID_API ptrdiff_t hexoid_idx_find(const struct hexoid_idx *idx, const unsigned char *raw);

/*
 * hexoid_idx_find() for n packed raw IDs (rawsz bytes each) at `raw`: pos[k] is the
 * entry of ID k or -1. Returns how many were found. Any order works; IDs sorted in
 * increasing order are faster, as each search starts where the previous one ended.
 * pos may be NULL to count only.
 */
HEXOID_API size_t hexoid_idx_find_many(const struct hexoid_idx *idx, const unsigned char *raw,
				       size_t n, ptrdiff_t *pos);

#ifdef __cplusplus
}
#endif

#endif /* HEXOID_IDX_H */
