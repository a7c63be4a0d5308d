/*
 * Lazily generated, shared inputs under a memory budget. See inputs.h.
 *
 * The largest cases need about 1.4 GB of text (16M SHA-256 lines) plus as much again
 * for the memcpy destination and 512 MB of output; holding every stride's input at once
 * would take several GB. So buffers are cached by what they hold, grown when a case
 * needs more records, and the least recently used one is dropped when the next
 * allocation would pass the budget. Cases are registered so that those sharing an input
 * run one after another, so in a full run each input is generated about once.
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"

enum what { RAW, TEXT, OUT, COPY };

struct buffer {
	enum what what;
	enum hexoid_algo algo; /* RAW, TEXT */
	size_t stride;         /* TEXT */
	size_t records;        /* RAW, TEXT: how many records it holds */
	size_t size;
	unsigned char *data;
	uint64_t last_use;
};

#define MAX_BUFFERS 32
static struct buffer buffers[MAX_BUFFERS];
static size_t held;
static uint64_t use_clock, case_start;

size_t inputs_budget(void)
{
	static size_t budget;
	if (!budget) {
		const char *mb = getenv("HEXOID_BENCH_MEMORY_MB");
		budget = (mb && atol(mb) > 0 ? (size_t)atol(mb) : 3072) << 20;
	}
	return budget;
}

size_t inputs_held(void)
{
	return held;
}

void inputs_begin_case(void)
{
	case_start = use_clock;
}

static void drop(struct buffer *b)
{
	free(b->data);
	held -= b->size;
	memset(b, 0, sizeof(*b));
}

/* Make room for `size` more bytes, sparing what the current case already holds. */
static void make_room(size_t size)
{
	while (held + size > inputs_budget()) {
		struct buffer *lru = NULL;
		for (size_t i = 0; i < MAX_BUFFERS; i++) {
			struct buffer *b = &buffers[i];
			if (b->data && b->last_use <= case_start &&
			    (!lru || b->last_use < lru->last_use))
				lru = b;
		}
		if (!lru)
			return; /* over budget, but the case needs it all */
		drop(lru);
	}
}

/* The cached buffer holding `want`, or a fresh (unfilled) one; NULL if out of memory. */
static struct buffer *get(const struct buffer *want, int *fresh)
{
	struct buffer *slot = NULL;
	*fresh = 0;
	for (size_t i = 0; i < MAX_BUFFERS; i++) {
		struct buffer *b = &buffers[i];
		if (!b->data || b->what != want->what || b->algo != want->algo ||
		    b->stride != want->stride)
			continue;
		if (b->size >= want->size) {
			b->last_use = ++use_clock;
			return b;
		}
		drop(b); /* too small: regenerated bigger, from the same seed */
	}
	make_room(want->size);
	for (size_t i = 0; i < MAX_BUFFERS && !slot; i++)
		if (!buffers[i].data)
			slot = &buffers[i];
	if (!slot)
		return NULL;
	/* 64-byte aligned, as a real program's large buffers usually are (mmap'd pages). */
	size_t size = (want->size + 63) & ~(size_t)63;
	unsigned char *data = aligned_alloc(64, size);
	if (!data)
		return NULL;
	*slot = *want;
	slot->data = data;
	slot->size = size;
	slot->last_use = ++use_clock;
	held += size;
	*fresh = 1;
	return slot;
}

/* splitmix64: a fixed, well-mixed byte stream; the seed makes SHA-1 and SHA-256 differ. */
static uint64_t next64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

const unsigned char *inputs_raw(enum hexoid_algo algo, size_t n)
{
	size_t rawsz = hexoid_rawsz(algo);
	struct buffer want = { .what = RAW, .algo = algo, .records = n, .size = n * rawsz };
	int fresh;
	struct buffer *b = get(&want, &fresh);
	if (b && fresh) {
		uint64_t state = (uint64_t)algo * 0x1234567u;
		for (size_t i = 0; i < b->size; i += 8) {
			uint64_t r = next64(&state);
			memcpy(b->data + i, &r, 8); /* size is a multiple of 64 */
		}
	}
	return b ? b->data : NULL;
}

char *inputs_text(enum hexoid_algo algo, size_t stride, size_t n)
{
	size_t hexsz = hexoid_hexsz(algo), rawsz = hexsz / 2;
	struct buffer want = { .what = TEXT, .algo = algo, .stride = stride, .records = n,
			       .size = n * stride };
	int fresh;
	struct buffer *b = get(&want, &fresh);
	if (!b || !fresh)
		return b ? (char *)b->data : NULL;
	/* b is newer than case_start, so making room for the raw IDs cannot drop it. */
	const unsigned char *raw = inputs_raw(algo, b->size / stride);
	if (!raw) {
		drop(b);
		return NULL;
	}
	static const char digits[] = "0123456789abcdef";
	char *text = (char *)b->data;
	size_t records = b->size / stride;
	for (size_t i = 0; i < records; i++, raw += rawsz) {
		char *rec = text + i * stride;
		for (size_t j = 0; j < rawsz; j++) {
			rec[2 * j] = digits[raw[j] >> 4];
			rec[2 * j + 1] = digits[raw[j] & 15];
		}
		if (stride > hexsz) {
			memset(rec + hexsz, 'p', stride - hexsz - 1);
			rec[hexsz] = ' ';
			rec[stride - 1] = '\n';
		}
	}
	/* The rounding up to 64 bytes left a tail: make it something that is not hex. */
	memset(text + records * stride, 0, b->size - records * stride);
	return text;
}

static unsigned char *scratch(enum what what, size_t size)
{
	struct buffer want = { .what = what, .size = size };
	int fresh;
	struct buffer *b = get(&want, &fresh);
	if (b && fresh)
		memset(b->data, 0, b->size);
	return b ? b->data : NULL;
}

unsigned char *inputs_out(size_t size)
{
	return scratch(OUT, size);
}

unsigned char *inputs_copy(size_t size)
{
	return scratch(COPY, size);
}
