/*
 * The pack walker's cache of delta bases (base_cache.h): a hash of entries to slots, and
 * the slots in a doubly linked list from the most to the least recently used.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "base_cache.h"

#define NONE UINT32_MAX

static uint32_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	return x ^ (x >> 16);
}

int hexoid_pk_cache_init(struct pk_cache *c, size_t limit)
{
	memset(c, 0, sizeof(*c));
	c->nbucket = 1024;
	c->bucket = malloc(c->nbucket * sizeof(*c->bucket));
	if (!c->bucket)
		return -1;
	memset(c->bucket, 0xff, c->nbucket * sizeof(*c->bucket));
	c->head = c->tail = c->free_head = NONE;
	c->limit = limit;
	return 0;
}

void hexoid_pk_cache_free(struct pk_cache *c)
{
	uint32_t i;

	for (i = 0; i < c->nslot; i++)
		free(c->slot[i].data);
	free(c->slot);
	free(c->bucket);
}

static void lru_unlink(struct pk_cache *c, uint32_t i)
{
	struct pk_cslot *x = &c->slot[i];
	if (x->prev != NONE) c->slot[x->prev].next = x->next; else c->head = x->next;
	if (x->next != NONE) c->slot[x->next].prev = x->prev; else c->tail = x->prev;
}

static void lru_front(struct pk_cache *c, uint32_t i)
{
	struct pk_cslot *x = &c->slot[i];
	x->prev = NONE;
	x->next = c->head;
	if (c->head != NONE)
		c->slot[c->head].prev = i;
	c->head = i;
	if (c->tail == NONE)
		c->tail = i;
}

struct pk_cslot *hexoid_pk_cache_get(struct pk_cache *c, uint32_t entry)
{
	uint32_t i = c->bucket[hash32(entry) & (c->nbucket - 1)];

	while (i != NONE && c->slot[i].entry != entry)
		i = c->slot[i].chain;
	if (i == NONE)
		return NULL;
	lru_unlink(c, i);
	lru_front(c, i);
	return &c->slot[i];
}

static void cache_drop(struct pk_cache *c, uint32_t i)
{
	uint32_t *link = &c->bucket[hash32(c->slot[i].entry) & (c->nbucket - 1)];

	while (*link != i)
		link = &c->slot[*link].chain;
	*link = c->slot[i].chain;
	lru_unlink(c, i);
	c->bytes -= c->slot[i].len;
	free(c->slot[i].data);
	c->slot[i].data = NULL;
	c->slot[i].chain = c->free_head;
	c->free_head = i;
}

/* Keep data (taking ownership) for entry; frees it instead if it cannot be kept. */
void hexoid_pk_cache_put(struct pk_cache *c, uint32_t entry, unsigned char *data, size_t len)
{
	uint32_t i, b;

	while (c->bytes + len > c->limit && c->tail != NONE)
		cache_drop(c, c->tail);
	if (c->free_head != NONE) {
		i = c->free_head;
		c->free_head = c->slot[i].chain;
	} else {
		if (c->nslot == c->capslot) {
			uint32_t cap = c->capslot ? c->capslot * 2 : 256;
			struct pk_cslot *v = realloc(c->slot, cap * sizeof(*v));
			if (!v) {
				free(data);
				return;
			}
			c->slot = v;
			c->capslot = cap;
		}
		i = c->nslot++;
	}
	if (c->nslot > c->nbucket * 2 && c->nbucket < (1u << 30)) {
		/* Grow the table: rehash every live slot. */
		uint32_t nb = c->nbucket * 4, k;
		uint32_t *bk = malloc(nb * sizeof(*bk));
		if (bk) {
			memset(bk, 0xff, nb * sizeof(*bk));
			for (k = c->head; k != NONE; k = c->slot[k].next) {
				uint32_t h = hash32(c->slot[k].entry) & (nb - 1);
				c->slot[k].chain = bk[h];
				bk[h] = k;
			}
			free(c->bucket);
			c->bucket = bk;
			c->nbucket = nb;
		}
	}
	b = hash32(entry) & (c->nbucket - 1);
	c->slot[i].entry = entry;
	c->slot[i].data = data;
	c->slot[i].len = len;
	c->slot[i].chain = c->bucket[b];
	c->bucket[b] = i;
	lru_front(c, i);
	c->bytes += len;
}
