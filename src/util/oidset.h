/*
 * A set of object IDs: added in any order, repeats and all, then sorted once (which keeps
 * one of each) and looked up.
 *
 * IDs are stored HEXOID_MAX_RAWSZ bytes apart and zero-padded, so SHA-1 and SHA-256 IDs
 * compare alike with memcmp. Not thread-safe: one owner at a time.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_UTIL_OIDSET_H
#define HEXOID_UTIL_OIDSET_H

#include <stddef.h>

#include "hexoid.h"

struct hexoid_oidset {
	unsigned char *v;         /* n IDs, HEXOID_MAX_RAWSZ bytes each */
	size_t n, cap;
};

#define HEXOID_OIDSET_INIT { NULL, 0, 0 }

/* Add the rawsz bytes at oid. 0, or -1 when memory ran out (the set is as it was). */
int hexoid_oidset_add(struct hexoid_oidset *set, const unsigned char *oid, size_t rawsz);
/* Sort the IDs and drop the repeats, for hexoid_oidset_find(): n is then the number of
 * distinct IDs, and each index names one of them. */
void hexoid_oidset_sort(struct hexoid_oidset *set);
/* The index of oid (rawsz bytes) in a sorted set, or (size_t)-1. */
size_t hexoid_oidset_find(const struct hexoid_oidset *set, const unsigned char *oid, size_t rawsz);
/* The ID at index i (padded to HEXOID_MAX_RAWSZ bytes). */
static inline const unsigned char *hexoid_oidset_at(const struct hexoid_oidset *set, size_t i)
{
	return set->v + i * HEXOID_MAX_RAWSZ;
}
void hexoid_oidset_free(struct hexoid_oidset *set);

#endif
