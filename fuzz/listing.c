/*
 * libFuzzer target: the listing checker on any bytes, in any format (byte 0 picks it and
 * the kind), fed whole and again in pieces: the problems and IDs must be the same, and
 * nothing may crash or read out of bounds.
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexoid_listing.h"

struct trace {
	uint64_t hash; /* of everything reported, in order */
	unsigned long long count;
};

static void mix(struct trace *t, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		t->hash = (t->hash ^ b[i]) * 0x100000001b3ull;
	t->count++;
}

static int on_problem(void *ctx, const struct hexoid_problem *p)
{
	mix(ctx, &p->line, sizeof(p->line));
	mix(ctx, &p->column, sizeof(p->column));
	mix(ctx, p->message, strlen(p->message));
	return 0;
}

static int on_oid(void *ctx, unsigned long long line, size_t column, const unsigned char *raw,
		  size_t rawsz)
{
	mix(ctx, &line, sizeof(line));
	mix(ctx, &column, sizeof(column));
	mix(ctx, raw, rawsz);
	return 0;
}

static struct trace run(const uint8_t *data, size_t size, size_t piece, enum hexoid_format f,
			enum hexoid_kind kind)
{
	struct trace t = { 0xcbf29ce484222325ull, 0 };
	struct hexoid_listing *l = hexoid_listing_new(f, 0, kind, on_problem, on_oid, &t);
	for (size_t p = 0; p < size; p += piece) {
		/* Each piece in its own exact-size buffer, so ASan catches any over-read. */
		size_t n = size - p < piece ? size - p : piece;
		char *copy = malloc(n);
		memcpy(copy, data + p, n);
		hexoid_listing_feed(l, copy, n);
		free(copy);
	}
	hexoid_listing_finish(l);
	hexoid_listing_free(l);
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	enum hexoid_format f = (enum hexoid_format)(data[0] % HEXOID_FORMAT_COUNT);
	enum hexoid_kind kind = data[0] & 0x80 ? HEXOID_MIXED : HEXOID_LOWER;
	size_t piece = 1 + data[1] % 64;
	data += 2, size -= 2;
	struct trace whole = run(data, size, size ? size : 1, f, kind);
	struct trace pieces = run(data, size, piece, f, kind);
	if (whole.hash != pieces.hash || whole.count != pieces.count) {
		fprintf(stderr, "format %s: fed whole and in %zu-byte pieces, results differ\n",
			hexoid_format_name(f), piece);
		abort();
	}
	return 0;
}
