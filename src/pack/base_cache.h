/*
 * The pack walker's cache of inflated delta bases: one per thread, least recently used
 * out first, bounded in bytes, keyed by the entry's number in offset order.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_PACK_BASE_CACHE_H
#define HEXOID_PACK_BASE_CACHE_H

#include <stddef.h>
#include <stdint.h>

struct pk_cslot {
	uint32_t entry;
	uint32_t chain;            /* next slot in the same hash bucket */
	uint32_t prev, next;       /* LRU list: head is the most recent */
	unsigned char *data;
	size_t len;
};
struct pk_cache {
	struct pk_cslot *slot;
	uint32_t nslot, capslot, free_head;
	uint32_t *bucket;
	uint32_t nbucket;          /* a power of two */
	uint32_t head, tail;
	size_t bytes, limit;
};

/* An empty cache of at most `limit` bytes: 0, or -1 when out of memory. */
int hexoid_pk_cache_init(struct pk_cache *c, size_t limit);
void hexoid_pk_cache_free(struct pk_cache *c);
/* The slot holding entry's content, now the most recent; NULL if not held. */
struct pk_cslot *hexoid_pk_cache_get(struct pk_cache *c, uint32_t entry);
/* Keep data (taking ownership) for entry, evicting the least recently used as the limit
 * needs; frees it instead if it cannot be kept. A put may free any slot's data. */
void hexoid_pk_cache_put(struct pk_cache *c, uint32_t entry, unsigned char *data, size_t len);

#endif
