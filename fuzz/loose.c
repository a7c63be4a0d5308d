/*
 * libFuzzer target: one loose object file's bytes (zlib of "<type> <size>\0<content>"),
 * scanned as SHA-1 and as SHA-256, with and without an ID to verify. Checked against a
 * reference written here with plain zlib: a commit or tag the reference reads cleanly
 * must be checked (and its header findings be those of hexoid_object_check() on the
 * text), one it cannot read, or with bytes after its zlib stream, must give exactly one
 * damage finding; a tree or blob is read no further than its header, so bytes after its
 * stream give no finding; damage findings must not depend on the hash; every finding
 * must be well formed.
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "hexoid_pack.h"

static void require(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "loose object scanner: %s\n", what);
		abort();
	}
}

struct seen {
	struct hexoid_finding v[64];
	size_t n;
	size_t stop_at;
};

static int on_finding(void *ctx, const struct hexoid_finding *f)
{
	struct seen *s = ctx;
	/* The path lives only as long as the scan: check it here. */
	require(f->path && !strcmp(f->path, "fuzz-object"), "a finding about another file");
	if (s->n < 64)
		s->v[s->n] = *f;
	s->n++;
	return s->stop_at && s->n >= s->stop_at;
}

struct probs {
	struct hexoid_header_problem v[64];
	size_t n;
};

static int on_problem(void *ctx, const struct hexoid_header_problem *p)
{
	struct probs *ps = ctx;
	if (ps->n < 64)
		ps->v[ps->n] = *p;
	ps->n++;
	return 0;
}

/* The reference: 1 with *type, the text and its length when the whole stream inflates
 * and holds a header as git writes it and exactly the content it announces, with no
 * bytes after the stream; 0 when it does not; -1 when it inflates to more than we care
 * to hold (no verdict). *garbage: the stream ends, the header is good and bytes follow
 * the stream (git's "garbage at end of loose object"); *sized: the content is the size
 * the header says. */
#define REF_CAP ((size_t)16 << 20)
static int reference(const unsigned char *in, size_t len, enum hexoid_object_type *type,
		     unsigned char **out, size_t *outlen, size_t *hdrlen, int *garbage,
		     int *sized)
{
	static const char *const names[] = { "commit", "tree", "blob", "tag" };
	z_stream z;
	size_t cap = 4096, got = 0;
	unsigned char *buf = malloc(cap);
	int rc;

	*out = NULL;
	*garbage = *sized = 0;
	memset(&z, 0, sizeof(z));
	require(buf && inflateInit(&z) == Z_OK, "zlib");
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)len;
	for (;;) {
		if (got == cap) {
			if (cap >= REF_CAP) {
				inflateEnd(&z);
				free(buf);
				return -1;
			}
			cap *= 2;
			buf = realloc(buf, cap);
			require(buf != NULL, "out of memory");
		}
		z.next_out = buf + got;
		z.avail_out = (uInt)(cap - got);
		rc = inflate(&z, Z_NO_FLUSH);
		got = cap - z.avail_out;
		if (rc == Z_STREAM_END || (rc != Z_OK && !(rc == Z_BUF_ERROR && z.avail_out == 0)))
			break;
		if (rc == Z_OK && z.avail_out != 0 && z.avail_in == 0) {
			rc = Z_BUF_ERROR; /* input used up before the end */
			break;
		}
	}
	int trailing = rc == Z_STREAM_END && z.avail_in != 0;
	inflateEnd(&z);
	*out = buf;
	*outlen = got;
	/* The header: a type name, a space, decimal digits (no leading zero), a NUL, within
	 * the first 64 bytes. */
	{
		const unsigned char *nul = memchr(buf, 0, got < 64 ? got : 64);
		const unsigned char *sp = nul ? memchr(buf, ' ', (size_t)(nul - buf)) : NULL;
		uint64_t size = 0;
		int t = -1;
		if (!sp)
			return 0;
		for (int k = 0; k < 4; k++)
			if ((size_t)(sp - buf) == strlen(names[k]) && !memcmp(buf, names[k], strlen(names[k])))
				t = k + 1;
		if (t < 0 || sp + 1 == nul || (sp[1] == '0' && sp + 2 != nul))
			return 0;
		for (const unsigned char *q = sp + 1; q < nul; q++) {
			if (*q < '0' || *q > '9' || size > (UINT64_MAX - 9) / 10)
				return 0;
			size = size * 10 + (uint64_t)(*q - '0');
		}
		*type = (enum hexoid_object_type)t;
		*hdrlen = (size_t)(nul - buf) + 1;
		if (rc != Z_STREAM_END)
			return 0;
		*garbage = trailing;
		*sized = size == got - *hdrlen;
		return *sized && !trailing;
	}
}

static void well_formed(const struct hexoid_finding *f)
{
	require(f->code >= HEXOID_CODE_UPPERCASE_ID && f->code <= HEXOID_CODE_UNREADABLE, "unknown code");
	require(f->code != HEXOID_CODE_UNREADABLE && f->code != HEXOID_CODE_CRC32_MISMATCH &&
			f->code != HEXOID_CODE_CHECKSUM_MISMATCH && f->code != HEXOID_CODE_PACK_LAYOUT &&
			f->code != HEXOID_CODE_DELTA && f->code != HEXOID_CODE_DELTA_BASE,
		"a pack's finding for a loose object");
	require(f->cls == hexoid_code_class(f->code), "the class disagrees with the code");
	require(f->message[0] && !memchr(f->message, '\n', strlen(f->message)), "a bad message");
	require(f->offset == HEXOID_NO_OFFSET, "an offset in a loose object");
	if (f->line || f->column || f->header)
		require(f->line >= 1 && f->column >= 1 && f->header != NULL &&
				(f->code == HEXOID_CODE_UPPERCASE_ID || f->code == HEXOID_CODE_BAD_ID),
			"a text position without a header, or on damage");
	else
		require(f->code != HEXOID_CODE_UPPERCASE_ID && f->code != HEXOID_CODE_BAD_ID,
			"an ID finding without its place");
}

static int is_damage(enum hexoid_code c)
{
	return c == HEXOID_CODE_OBJECT_HEADER || c == HEXOID_CODE_ZLIB;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *buf = malloc(size ? size : 1), *text;
	enum hexoid_object_type rtype = HEXOID_OBJ_NONE;
	size_t tlen = 0, hlen = 0;
	struct seen damage1 = { .n = 0 };
	int ref, garbage, sized;

	memcpy(buf, data, size);
	ref = reference(buf, size, &rtype, &text, &tlen, &hlen, &garbage, &sized);
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		for (int with_oid = 0; with_oid <= 1; with_oid++) {
			struct hexoid_scan_options o;
			struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
			struct seen s = { .n = 0 };
			unsigned char oid[HEXOID_MAX_RAWSZ];
			size_t damage = 0, text_findings = 0, mismatch = 0;
			int rc;

			memset(&o, 0, sizeof(o));

			o.size = sizeof(o);
			o.algo = algo;
			o.verify_ids = with_oid;
			o.on_finding = on_finding;
			o.ctx = &s;
			memset(oid, 0xab, sizeof(oid));
			rc = hexoid_loose_object_scan("fuzz-object", buf, size, with_oid ? oid : NULL,
						      &o, &st);
			require(rc == 0, "a scan result other than 0");
			require(st.objects == 1 && st.commits + st.tags <= 1, "stats");
			require(st.git3 + st.errors == s.n, "stats do not count the findings");
			require(s.n <= 64, "too many findings");
			for (size_t i = 0; i < s.n; i++) {
				well_formed(&s.v[i]);
				require(s.v[i].has_oid == with_oid, "has_oid without an ID, or not with one");
				damage += is_damage(s.v[i].code);
				text_findings += s.v[i].code == HEXOID_CODE_UPPERCASE_ID ||
						 s.v[i].code == HEXOID_CODE_BAD_ID;
				mismatch += s.v[i].code == HEXOID_CODE_ID_MISMATCH;
			}
			require(damage <= 1 && (!damage || s.n == 1), "damage and something else");
			require(mismatch <= 1 && (!mismatch || with_oid), "ID mismatch without an ID");
			if (damage)
				require(st.commits + st.tags == 0, "a damaged object counted as checked");
			/* Damage does not depend on the hash. */
			if (algo == HEXOID_SHA1 && !with_oid) {
				damage1 = s;
			} else if (!with_oid) {
				size_t d1 = damage1.n == 1 && is_damage(damage1.v[0].code);
				require(d1 == damage, "damage found with one hash only");
				if (damage)
					require(damage1.v[0].code == s.v[0].code &&
							!strcmp(damage1.v[0].message, s.v[0].message),
						"damage differs between hashes");
			}
			if (ref < 0)
				continue;
			if (ref == 1 && (rtype == HEXOID_OBJ_COMMIT || rtype == HEXOID_OBJ_TAG)) {
				struct probs ps = { .n = 0 };
				int n = hexoid_object_check(rtype, text + hlen, tlen - hlen, algo, on_problem, &ps);
				require(damage == 0, "a good object reported damaged");
				require(st.commits == (rtype == HEXOID_OBJ_COMMIT) &&
						st.tags == (rtype == HEXOID_OBJ_TAG) && st.inflated == tlen - hlen,
					"a good commit or tag not counted");
				require(n >= 0 && (size_t)n == text_findings, "header findings differ from hexoid_object_check");
				for (size_t i = 0, k = 0; i < s.n && k < ps.n && k < 64; i++) {
					if (s.v[i].code == HEXOID_CODE_ID_MISMATCH)
						continue;
					require(s.v[i].code == ps.v[k].code && s.v[i].line == ps.v[k].line &&
							s.v[i].column == ps.v[k].column && s.v[i].type == rtype &&
							!strcmp(s.v[i].header, ps.v[k].header),
						"a header finding differs from hexoid_object_check");
					k++;
				}
				/* The ID 0xabab... is no hash of anything we will see. */
				require(mismatch == (size_t)with_oid, "verify_ids missed a wrong ID");
			} else if (ref == 0 && (rtype == HEXOID_OBJ_COMMIT || rtype == HEXOID_OBJ_TAG)) {
				require(damage == 1, "a damaged commit or tag not reported");
				/* Inflated in full: bytes after a stream that is right otherwise are
				 * the one finding. */
				if (garbage && sized)
					require(s.v[0].code == HEXOID_CODE_ZLIB &&
							strstr(s.v[0].message, "garbage after the zlib stream"),
						"bytes after a commit's or tag's stream not reported as such");
			} else if (garbage) {
				/* A tree or blob: only the header is read, and the stream's end is
				 * not in view. */
				require(s.n == 0, "a tree or blob with bytes after its stream reported");
			} else if (ref == 0 && rtype == HEXOID_OBJ_NONE) {
				require(damage == 1, "an object without a header not reported");
			} else {
				/* trees and blobs: only the header is read */
				require(s.n <= 1 && text_findings == 0 && mismatch == 0,
					"a tree or blob with findings other than damage");
			}
			/* The callback's stop. */
			if (s.n) {
				struct seen t = { .n = 0, .stop_at = 1 };
				o.ctx = &t;
				require(hexoid_loose_object_scan("fuzz-object", buf, size,
								 with_oid ? oid : NULL, &o, &st) == 1 &&
						t.n == 1,
					"a callback's stop does not stop the scan with 1");
			}
		}
	}
	free(text);
	free(buf);
	return 0;
}
