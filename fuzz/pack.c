/*
 * libFuzzer target: the pack scanner on any pack and index. Input: a 4-byte
 * little-endian index length L, L bytes of .idx, then the .pack. The scan runs with the
 * hash inferred (algo 0), with one thread and with two (and a tiny delta cache), and
 * must find the same things in the same order; every finding must be well formed and
 * come in offset order; a callback that stops at the first finding must make the scan
 * return 1.
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexoid_pack.h"

static void require(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "pack scanner: %s\n", what);
		abort();
	}
}

struct seen {
	struct hexoid_finding *v;
	size_t n, cap;
	size_t stop_at;
};

static int on_finding(void *ctx, const struct hexoid_finding *f)
{
	struct seen *s = ctx;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		require(s->v != NULL, "out of memory");
	}
	s->v[s->n++] = *f;
	return s->stop_at && s->n >= s->stop_at;
}

static int same(const struct hexoid_finding *x, const struct hexoid_finding *y)
{
	return x->code == y->code && x->cls == y->cls && x->offset == y->offset &&
	       x->has_oid == y->has_oid && !memcmp(x->oid, y->oid, sizeof(x->oid)) &&
	       x->algo == y->algo && x->type == y->type && x->line == y->line &&
	       x->column == y->column && (x->header == NULL) == (y->header == NULL) &&
	       (!x->header || !strcmp(x->header, y->header)) && !strcmp(x->message, y->message);
}

static void show(const char *what, const struct seen *s)
{
	for (size_t i = 0; i < s->n; i++)
		fprintf(stderr, "%s [%zu] code %d offset %llu %s %u:%u: %s\n", what, i, s->v[i].code,
			(unsigned long long)s->v[i].offset, s->v[i].header ? s->v[i].header : "-",
			s->v[i].line, s->v[i].column, s->v[i].message);
}

static void well_formed(const struct hexoid_finding *f, size_t pack_size)
{
	require(f->code >= HEXOID_CODE_UPPERCASE_ID && f->code <= HEXOID_CODE_UNREADABLE, "unknown code");
	require(f->code != HEXOID_CODE_UNREADABLE, "an I/O finding from memory");
	require(f->cls == hexoid_code_class(f->code), "the class disagrees with the code");
	require(f->message[0] && !memchr(f->message, '\n', strlen(f->message)), "a bad message");
	require(f->path && !strcmp(f->path, "fuzz.pack"), "a finding about another file");
	/* (an index may put an object anywhere: that is a LAYOUT finding at that offset) */
	require(f->offset == HEXOID_NO_OFFSET || f->offset < pack_size || f->code == HEXOID_CODE_PACK_LAYOUT,
		"offset outside the pack");
	require(f->algo == HEXOID_SHA1 || f->algo == HEXOID_SHA256, "unknown algo");
	if (f->line || f->column || f->header) {
		require(f->line >= 1 && f->column >= 1 && f->header != NULL,
			"a text position without a header, or a header without one");
		require(f->code == HEXOID_CODE_UPPERCASE_ID || f->code == HEXOID_CODE_BAD_ID,
			"a text position on damage");
		require(f->type == HEXOID_OBJ_COMMIT || f->type == HEXOID_OBJ_TAG,
			"a header finding on something other than a commit or tag");
		require(!strcmp(f->header, "tree") || !strcmp(f->header, "parent") ||
				!strcmp(f->header, "object") || !strcmp(f->header, "mergetag object"),
			"an unknown header");
		require(f->has_oid, "a header finding without the object's ID");
	} else {
		require(f->code != HEXOID_CODE_UPPERCASE_ID && f->code != HEXOID_CODE_BAD_ID,
			"an ID finding without its place in a pack");
	}
}

static int scan(const unsigned char *pack, size_t plen, const unsigned char *idx, size_t ilen,
		unsigned jobs, size_t cache, struct seen *s, struct hexoid_scan_stats *st,
		char *err, size_t errlen)
{
	struct hexoid_scan_options o;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.jobs = jobs;
	o.cache_bytes = cache;
	o.verify_ids = 1;
	o.on_finding = on_finding;
	o.ctx = s;
	err[0] = 0;
	return hexoid_pack_scan_buffers("fuzz.pack", pack, plen, idx, ilen, &o, st, err, errlen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4)
		return 0;
	size_t ilen = (size_t)data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16 |
		      (size_t)data[3] << 24;
	if (ilen > size - 4)
		return 0;
	size_t plen = size - 4 - ilen;
	/* Exact-size copies, so that ASan sees any read past either end. */
	unsigned char *idx = malloc(ilen ? ilen : 1), *pack = malloc(plen ? plen : 1);
	memcpy(idx, data + 4, ilen);
	memcpy(pack, data + 4 + ilen, plen);

	struct seen a = { 0 }, b = { 0 }, c = { 0 };
	struct hexoid_scan_stats sa = HEXOID_SCAN_STATS_INIT, sb = HEXOID_SCAN_STATS_INIT, sc = HEXOID_SCAN_STATS_INIT;
	char ea[512], eb[512];
	int ra = scan(pack, plen, idx, ilen, 1, 0, &a, &sa, ea, sizeof(ea));
	int rb = scan(pack, plen, idx, ilen, 2, 700, &b, &sb, eb, sizeof(eb));

	require(ra == 0 || ra == -1, "a scan result other than 0 or -1");
	require(ra == rb, "the result differs with two threads");
	if (ra < 0) {
		require(ea[0] && !strcmp(ea, eb), "an error without a message, or two different ones");
		require(a.n == 0 && b.n == 0, "findings from a scan that failed");
		goto out;
	}
	require(sa.objects == sb.objects && sa.commits == sb.commits && sa.tags == sb.tags &&
			sa.git3 == sb.git3 && sa.errors == sb.errors,
		"stats differ with two threads");
	require(sa.git3 + sa.errors == a.n, "stats do not count the findings");
	require(sa.commits + sa.tags <= sa.objects, "more commits and tags than objects");
	if (a.n != b.n) {
		show("jobs 1", &a);
		show("jobs 2", &b);
		require(0, "the number of findings differs with two threads");
	}
	/* Offset order, whatever found them (the index's checksum, at no offset, last). */
	for (size_t i = 0; i < a.n; i++) {
		well_formed(&a.v[i], plen);
		if (i)
			require(a.v[i - 1].offset <= a.v[i].offset, "findings out of offset order");
	}
	for (size_t i = 0; i < a.n; i++)
		if (!same(&a.v[i], &b.v[i])) {
			show("jobs 1", &a);
			show("jobs 2", &b);
			require(0, "findings differ (or differ in order) with two threads");
		}
	if (a.n) {
		char ec[512];
		c.stop_at = 1;
		require(scan(pack, plen, idx, ilen, 1, 0, &c, &sc, ec, sizeof(ec)) == 1 && c.n == 1,
			"a callback's stop does not stop the scan with 1");
	}
out:
	free(a.v);
	free(b.v);
	free(c.v);
	free(idx);
	free(pack);
	return 0;
}
