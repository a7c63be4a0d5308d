/*
 * A set of object IDs (oidset.h).
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "util/oidset.h"

int hexoid_oidset_add(struct hexoid_oidset *set, const unsigned char *oid, size_t rawsz)
{
	if (set->n == set->cap) {
		size_t cap = set->cap ? 2 * set->cap : 256;
		unsigned char *v = realloc(set->v, cap * HEXOID_MAX_RAWSZ);
		if (!v)
			return -1;
		set->v = v;
		set->cap = cap;
	}
	memset(set->v + set->n * HEXOID_MAX_RAWSZ, 0, HEXOID_MAX_RAWSZ);
	memcpy(set->v + set->n++ * HEXOID_MAX_RAWSZ, oid, rawsz);
	return 0;
}

static int cmp_oid(const void *a, const void *b)
{
	return memcmp(a, b, HEXOID_MAX_RAWSZ);
}

void hexoid_oidset_sort(struct hexoid_oidset *set)
{
	unsigned char *v = set->v;
	size_t i, k;

	if (set->n < 2)
		return;
	qsort(v, set->n, HEXOID_MAX_RAWSZ, cmp_oid);
	/* Each ID once: 100,000 refs moved to one commit are one entry, and a caller that
	 * asks git about each entry asks once. */
	for (i = k = 1; i < set->n; i++)
		if (memcmp(v + i * HEXOID_MAX_RAWSZ, v + (k - 1) * HEXOID_MAX_RAWSZ, HEXOID_MAX_RAWSZ))
			memmove(v + k++ * HEXOID_MAX_RAWSZ, v + i * HEXOID_MAX_RAWSZ, HEXOID_MAX_RAWSZ);
	set->n = k;
}

size_t hexoid_oidset_find(const struct hexoid_oidset *set, const unsigned char *oid, size_t rawsz)
{
	unsigned char key[HEXOID_MAX_RAWSZ] = { 0 };
	const unsigned char *at;

	if (!set->n)
		return (size_t)-1;
	memcpy(key, oid, rawsz);
	at = bsearch(key, set->v, set->n, HEXOID_MAX_RAWSZ, cmp_oid);
	return at ? (size_t)(at - set->v) / HEXOID_MAX_RAWSZ : (size_t)-1;
}

void hexoid_oidset_free(struct hexoid_oidset *set)
{
	free(set->v);
	memset(set, 0, sizeof(*set));
}
