/*
 * Reading one loose object: a zlib stream of "<type> <size>\0" and exactly size bytes,
 * nothing after. The one reader of it, for the loose scan (loose.c) and the object
 * reader (odb.c).
 *
 * SPDX-License-Identifier: MIT
 *
 * Two steps, so that a scan that needs only the type inflates no more than the header:
 * hexoid_pk_loose_header(), then, when the content is wanted, hexoid_pk_loose_content().
 * A problem comes back as a status, with what is wrong in `why` (without the file's
 * name: each caller says where, in its own form).
 */
#ifndef HEXOID_PACK_LOOSE_READ_H
#define HEXOID_PACK_LOOSE_READ_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "hexoid_pack.h"

enum pk_loose_status {
	PK_LOOSE_OK,
	PK_LOOSE_NO_HEADER, /* no valid "<type> <size>" header */
	PK_LOOSE_HEADER,    /* the header's size is bad, or more than the file can hold */
	PK_LOOSE_ZLIB,      /* the stream is broken, cut short, too long, or followed by more */
	PK_LOOSE_NOMEM,     /* no memory for the content */
};

/* One object being read. The caller's z_stream, initialised, is reset and used. */
struct pk_loose {
	z_stream *z;
	const unsigned char *in;
	size_t inlen;
	enum hexoid_object_type type; /* after the header */
	uint64_t size;                /* after the header: the content's */
	int rc;                       /* zlib's last answer */
	unsigned char head[64];       /* the first bytes inflated */
	size_t hlen, nul;             /* how many, and where the header's NUL is */
};

/* Inflate in[0, inlen) as far as the header and read it. */
enum pk_loose_status hexoid_pk_loose_header(struct pk_loose *l, z_stream *z, const void *in,
					    size_t inlen, char *why, size_t whylen);

/* The rest: the content, malloc'ed, l->size bytes and a NUL after them, in *out. */
enum pk_loose_status hexoid_pk_loose_content(struct pk_loose *l, unsigned char **out, char *why,
					     size_t whylen);

#endif
