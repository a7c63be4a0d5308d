/*
 * libFuzzer target: hexoid_object_check() on any commit or tag text. Byte 0 picks the
 * type (bit 0: tag) and the hash (bit 1: SHA-256); the rest is the text. The problems
 * must be those of a reference written here from the rules in hexoid_pack.h (same code,
 * header, line and column), the count must be the same with and without a callback,
 * and a callback that stops must stop it.
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
		fprintf(stderr, "object check: %s\n", what);
		abort();
	}
}

#define MAXP 256

struct prob {
	enum hexoid_code code;
	const char *header;
	unsigned line, column;
};

struct probs {
	struct prob v[MAXP];
	size_t n;
	size_t stop_at;
};

static int on_problem(void *ctx, const struct hexoid_header_problem *p)
{
	struct probs *ps = ctx;
	require(p->message[0] && !memchr(p->message, '\n', strlen(p->message)), "a bad message");
	if (ps->n < MAXP) {
		ps->v[ps->n].code = p->code;
		ps->v[ps->n].header = p->header;
		ps->v[ps->n].line = p->line;
		ps->v[ps->n].column = p->column;
	}
	ps->n++;
	return ps->stop_at && ps->n >= ps->stop_at;
}

static int is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The rules, spelled out: headers up to the first empty line; a commit's "tree ",
 * "parent ", "mergetag object ", a tag's "object "; the ID is exactly hexsz lowercase
 * hex digits then a newline. The first bad byte's column; UPPERCASE only when the ID
 * would be right in lowercase. An ID (in either case) that ends the text is BAD_ID where
 * the newline belongs. */
static void reference(int tag, const unsigned char *t, size_t len, size_t hexsz,
		      struct probs *out)
{
	static const char *const commit_headers[] = { "tree ", "parent ", "mergetag object " };
	size_t at = 0;
	unsigned line = 0;

	out->n = 0;
	while (at < len) {
		const unsigned char *nl = memchr(t + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - t) : len;
		const char *header = NULL;
		size_t skip = 0;
		line++;
		if (end == at)
			break;
		if (tag) {
			if (end - at >= 7 && !memcmp(t + at, "object ", 7))
				header = "object", skip = 7;
		} else {
			for (int k = 0; k < 3; k++) {
				size_t w = strlen(commit_headers[k]);
				if (end - at >= w && !memcmp(t + at, commit_headers[k], w)) {
					header = k == 0 ? "tree" : k == 1 ? "parent" : "mergetag object";
					skip = w;
					break;
				}
			}
		}
		if (header) {
			const unsigned char *id = t + at + skip;
			size_t idlen = end - at - skip, i, first_upper = SIZE_MAX;
			int bad = 0;
			enum hexoid_code code = HEXOID_CODE_BAD_ID;
			size_t col = 0;
			for (i = 0; i < idlen && i < hexsz; i++) {
				if (!is_hex(id[i])) {
					bad = 1;
					col = i;
					break;
				}
				if (id[i] >= 'A' && id[i] <= 'F' && first_upper == SIZE_MAX)
					first_upper = i;
			}
			if (!bad && (idlen != hexsz || !nl)) {
				bad = 1;
				col = idlen < hexsz ? idlen : hexsz;
			}
			if (!bad && first_upper != SIZE_MAX) {
				bad = 1;
				code = HEXOID_CODE_UPPERCASE_ID;
				col = first_upper;
			}
			if (bad && out->n < MAXP) {
				out->v[out->n].code = code;
				out->v[out->n].header = header;
				out->v[out->n].line = line;
				out->v[out->n].column = (unsigned)(skip + 1 + col);
			}
			out->n += bad;
		}
		if (!nl)
			break;
		at = end + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int tag = data[0] & 1;
	enum hexoid_algo algo = data[0] & 2 ? HEXOID_SHA256 : HEXOID_SHA1;
	enum hexoid_object_type type = tag ? HEXOID_OBJ_TAG : HEXOID_OBJ_COMMIT;
	size_t len = size - 1;
	/* An exact-size copy, so that ASan sees any read past the end. */
	unsigned char *text = malloc(len ? len : 1);
	memcpy(text, data + 1, len);

	struct probs got = { .n = 0 }, want;
	int n = hexoid_object_check(type, text, len, algo, on_problem, &got);
	int n0 = hexoid_object_check(type, text, len, algo, NULL, NULL);
	require(n >= 0 && (size_t)n == got.n, "the count is not the number of calls");
	require(n0 == n, "the count differs without a callback");
	reference(tag, text, len, hexoid_hexsz(algo), &want);
	require(want.n == got.n, "a different number of problems than the rules give");
	for (size_t i = 0; i < got.n && i < MAXP; i++) {
		require(got.v[i].code == want.v[i].code, "a different code than the rules give");
		require(got.v[i].header && !strcmp(got.v[i].header, want.v[i].header),
			"a different header than the rules give");
		require(got.v[i].line == want.v[i].line && got.v[i].column == want.v[i].column,
			"a different line or column than the rules give");
		if (i)
			require(got.v[i - 1].line < got.v[i].line, "problems out of line order");
	}
	if (n > 0) {
		struct probs one = { .n = 0, .stop_at = 1 };
		require(hexoid_object_check(type, text, len, algo, on_problem, &one) == 1 && one.n == 1,
			"a callback's stop does not stop the check");
	}
	/* The other type and hash must not crash either, nor a wrong algo succeed. */
	require(hexoid_object_check(type, text, len, (enum hexoid_algo)0, NULL, NULL) == -1,
		"algo 0 accepted");
	require(hexoid_object_check(HEXOID_OBJ_BLOB, text, len, algo, NULL, NULL) == -1,
		"a blob accepted");
	free(text);
	return 0;
}
