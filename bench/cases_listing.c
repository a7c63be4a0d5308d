/*
 * Listing-level cases: the `hexoid verify` path through the library's streaming listing
 * checker (line splitting, the grammar of the format, bulk decoding, reports), fed 1 MiB
 * at a time as the command feeds it, on listings made here from a fixed seed:
 *
 *   oids         "<id>\n"                    pack-objects output, shallow
 *   rev-list     "<id>[ <path>]\n"           rev-list --objects (a third without a path)
 *   batch-check  "<id> <type> <size>\n"      cat-file --batch-check
 *
 * names  verify/<listing>/<algo>/n=<lines>/<impl>; items are lines. Beside each kernel:
 * `git-loop`, which finds each line with memchr and decodes its ID with git's table loop
 * as a per-line parser would, and `memchr`, which only counts the lines (`wc -l`).
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"
#include "cases.h"
#include "harness.h"
#include "hexoid_listing.h"

enum impl { KERNEL, GITLOOP, MEMCHR };

struct lcase {
	enum hexoid_format format;
	enum hexoid_algo algo;
	size_t n;
	enum impl impl;
	struct hexoid_kernel_info kernel;
};

/* The listing of a case, made once and kept: at most a few of these live at once. */
struct listing {
	enum hexoid_format format;
	enum hexoid_algo algo;
	size_t n, len;
	char *text;
};
static struct listing made[8];

static uint64_t rng = 0x6c697374696e67ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const struct listing *listing(enum hexoid_format format, enum hexoid_algo algo, size_t n)
{
	static const char *const types[] = { "commit", "tree", "blob", "blob" };
	size_t hexsz = hexoid_hexsz(algo), slot = 0;
	for (size_t i = 0; i < 8; i++) {
		if (made[i].text && made[i].format == format && made[i].algo == algo && made[i].n == n)
			return &made[i];
		if (!made[i].text)
			slot = i;
	}
	if (made[slot].text) { /* all taken: drop the first */
		free(made[0].text);
		made[0].text = NULL;
		slot = 0;
	}
	struct listing *l = &made[slot];
	size_t cap = n * (hexsz + 40), len = 0;
	l->text = malloc(cap);
	if (!l->text)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		char *p = l->text + len;
		for (size_t j = 0; j < hexsz; j++)
			p[j] = "0123456789abcdef"[next() & 15];
		len += hexsz;
		uint64_t r = next();
		if (format == HEXOID_FORMAT_REV_LIST && r % 3)
			len += (size_t)sprintf(l->text + len, " dir%u/file-%u.c", (unsigned)(r >> 8) % 100,
					       (unsigned)(r >> 20) % 100000);
		else if (format == HEXOID_FORMAT_BATCH_CHECK)
			len += (size_t)sprintf(l->text + len, " %s %u", types[r & 3],
					       (unsigned)(r >> 8) % 1000000);
		l->text[len++] = '\n';
	}
	l->format = format;
	l->algo = algo;
	l->n = n;
	l->len = len;
	return l;
}

static void run(bench_state *st, const void *arg)
{
	const struct lcase *c = arg;
	if (c->impl == KERNEL) {
		char why[200];
		if (!c->kernel.built || !c->kernel.supported || hexoid_set_kernel(c->kernel.name)) {
			snprintf(why, sizeof(why), "kernel '%s' is %s", c->kernel.name,
				 !c->kernel.built ? "not built into this library"
						  : "not supported by this CPU");
			bench_skip_with_error(st, why);
			return;
		}
	}
	const struct listing *l = listing(c->format, c->algo, c->n);
	if (!l) {
		bench_skip_with_error(st, "cannot allocate the listing");
		return;
	}
	size_t hexsz = hexoid_hexsz(c->algo), rawsz = hexsz / 2, piece = 1u << 20;
	unsigned long long lines = 0, problems = 0;
	unsigned char raw[32];
	while (bench_keep_running(st)) {
		if (c->impl == KERNEL) {
			struct hexoid_listing *v =
				hexoid_listing_new(c->format, 0, HEXOID_LOWER, NULL, NULL, NULL);
			for (size_t p = 0; p < l->len; p += piece)
				hexoid_listing_feed(v, l->text + p, l->len - p < piece ? l->len - p : piece);
			hexoid_listing_finish(v);
			struct hexoid_listing_stats s;
			hexoid_listing_stats(v, &s);
			lines = s.lines;
			problems = s.problems;
			hexoid_listing_free(v);
		} else {
			const char *p = l->text, *end = l->text + l->len;
			lines = 0;
			while (p < end) {
				const char *nl = memchr(p, '\n', (size_t)(end - p));
				if (c->impl == GITLOOP && (nl - p < (ptrdiff_t)hexsz ||
							   gitloop_decode_one(raw, p, rawsz, HEXOID_LOWER)))
					problems++;
				lines++;
				p = nl + 1;
			}
			bench_escape(raw);
		}
	}
	if (lines != c->n || problems)
		bench_skip_with_error(st, "wrong result: lines or problems differ from the listing");
	else
		bench_set_processed(st, c->n, l->len);
}

void register_listing_cases(void)
{
	static const enum hexoid_format formats[] = { HEXOID_FORMAT_OIDS, HEXOID_FORMAT_REV_LIST,
						      HEXOID_FORMAT_BATCH_CHECK };
	static const size_t counts[] = { 65536, 1048576 };
	struct hexoid_kernel_info info[16];
	size_t nk = hexoid_kernel_table(info, 16);
	for (size_t f = 0; f < 3; f++)
		for (int a = 1; a <= 2; a++)
			for (size_t ci = 0; ci < 2; ci++)
				for (size_t k = 0; k < nk + 2; k++) {
					struct lcase *c = calloc(1, sizeof(*c));
					char name[160];
					c->format = formats[f];
					c->algo = (enum hexoid_algo)a;
					c->n = counts[ci];
					c->impl = k < nk ? KERNEL : k == nk ? GITLOOP : MEMCHR;
					if (k < nk)
						c->kernel = info[k];
					snprintf(name, sizeof(name), "verify/%s/%s/n=%s/%s",
						 hexoid_format_name(c->format), a == 1 ? "sha1" : "sha256",
						 ci ? "1M" : "64K",
						 k < nk ? info[k].name : k == nk ? "git-loop" : "memchr");
					bench_register(name, run, c);
				}
}
