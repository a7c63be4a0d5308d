/*
 * A pack entry's header: the one reader of it, for the pack walker (pack.c) and the
 * object reader (odb.c).
 *
 * SPDX-License-Identifier: MIT
 *
 * An entry starts with its type (3 bits) and size (4 bits, then 7 a byte, little-endian
 * base-128). An OFS_DELTA follows with how far back its base starts (big-endian base-128
 * with an implicit +1 on each continuation), a REF_DELTA with its base's ID; then the
 * zlib stream. Nothing is read at or past `lim`, and what the header says is not judged
 * here (whether a base offset lands in the pack is the caller's to say, in its words).
 *
 * Inline: pass 1 of the walker parses every header of a pack with it, and needs neither
 * the size nor a call per entry.
 */
#ifndef HEXOID_PACK_ENTRY_H
#define HEXOID_PACK_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "hexoid_pack.h"

struct pk_entry {
	unsigned type;                /* as packed, set whatever the status */
	uint64_t size;                /* the object's, or its delta data's */
	uint64_t base_rel;            /* OFS_DELTA: its base starts this many bytes back */
	const unsigned char *base_id; /* REF_DELTA: its base's ID; NULL otherwise */
	const unsigned char *data;    /* where the zlib stream starts */
};

enum pk_entry_status {
	PK_ENTRY_OK,
	PK_ENTRY_SIZE_CUT,   /* the size varint runs to lim */
	PK_ENTRY_SIZE_LONG,  /* the size varint is longer than 64 bits */
	PK_ENTRY_OFS_NONE,   /* OFS_DELTA: no byte of the base offset before lim */
	PK_ENTRY_OFS_CUT,    /* OFS_DELTA: the base offset varint runs to lim */
	PK_ENTRY_OFS_LONG,   /* OFS_DELTA: the base offset is more than 64 bits hold */
	PK_ENTRY_ID_CUT,     /* REF_DELTA: the base's ID runs past lim */
	PK_ENTRY_TYPE,       /* 0 or 5: no type */
};

/* Parse the header at p (p < lim) into *h. rawsz: the size of the pack's IDs. */
static inline enum pk_entry_status pk_entry_parse(const unsigned char *p, const unsigned char *lim,
						  size_t rawsz, struct pk_entry *h)
{
	const unsigned char *q = p;
	unsigned shift = 4, c;

	c = *q++;
	h->type = (c >> 4) & 7;
	h->size = c & 15;
	h->base_rel = 0;
	h->base_id = NULL;
	while (c & 0x80) {
		if (q == lim)
			return PK_ENTRY_SIZE_CUT;
		if (shift > 60)
			return PK_ENTRY_SIZE_LONG;
		c = *q++;
		h->size |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	}
	switch (h->type) {
	case HEXOID_OBJ_COMMIT: case HEXOID_OBJ_TREE: case HEXOID_OBJ_BLOB: case HEXOID_OBJ_TAG:
		break;
	case HEXOID_OBJ_OFS_DELTA: {
		uint64_t rel;
		if (q == lim)
			return PK_ENTRY_OFS_NONE;
		c = *q++;
		rel = c & 0x7f;
		while (c & 0x80) {
			if (q == lim)
				return PK_ENTRY_OFS_CUT;
			if (rel >= (UINT64_MAX >> 7) - 1)
				return PK_ENTRY_OFS_LONG;
			c = *q++;
			rel = ((rel + 1) << 7) | (c & 0x7f);
		}
		h->base_rel = rel;
		break;
	}
	case HEXOID_OBJ_REF_DELTA:
		if ((size_t)(lim - q) < rawsz)
			return PK_ENTRY_ID_CUT;
		h->base_id = q;
		q += rawsz;
		break;
	default:
		return PK_ENTRY_TYPE;
	}
	h->data = q;
	return PK_ENTRY_OK;
}

#endif
