/*
 * The object-ID headers of commits and tags, checked the way Git 3.0 will parse them.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "hexoid_pack.h"

const char *hexoid_object_type_name(enum hexoid_object_type type)
{
	switch (type) {
	case HEXOID_OBJ_COMMIT: return "commit";
	case HEXOID_OBJ_TREE: return "tree";
	case HEXOID_OBJ_BLOB: return "blob";
	case HEXOID_OBJ_TAG: return "tag";
	case HEXOID_OBJ_OFS_DELTA: return "ofs-delta";
	case HEXOID_OBJ_REF_DELTA: return "ref-delta";
	default: return NULL;
	}
}

/*
 * One header's ID: `hex` is what follows "<header> " up to (not including) the line's
 * newline or the end of the text. Fills *p and returns 1 if the ID is not exactly hexsz
 * lowercase hex digits.
 */
static int check_id(const char *hex, size_t len, int newline, size_t hexsz,
		    enum hexoid_algo algo, struct hexoid_header_problem *p)
{
	struct hexoid_error e;
	size_t n = len < hexsz ? len : hexsz;
	size_t i;

	/* Nearly every ID is fine: one engine call says so. */
	if (len == hexsz && newline &&
	    hexoid_decode(NULL, hex, 1, hexsz, algo, HEXOID_LOWER, NULL) == HEXOID_OK)
		return 0;
	/* Digits Git 2.x rejects too come first: they make the line wrong for both. */
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)hex[i];
		int digit = (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
		if (!digit)
			break;
	}
	if (i < n) {
		unsigned char c = (unsigned char)hex[i];
		p->code = HEXOID_CODE_BAD_ID;
		p->column += i;
		if (c >= 0x21 && c < 0x7f)
			snprintf(p->message, sizeof(p->message), "invalid hex digit '%c' in the object ID", c);
		else
			snprintf(p->message, sizeof(p->message), "invalid hex byte 0x%02x in the object ID", c);
		return 1;
	}
	if (len != hexsz) {
		p->code = HEXOID_CODE_BAD_ID;
		p->column += n;
		snprintf(p->message, sizeof(p->message),
			 "object ID has %zu characters where %zu hex digits and a newline belong",
			 len, hexsz);
		return 1;
	}
	if (!newline) {
		/* Git needs the newline after the ID (in either case): the text is cut short. */
		p->code = HEXOID_CODE_BAD_ID;
		p->column += hexsz;
		snprintf(p->message, sizeof(p->message),
			 "the text ends after the object ID, where a newline belongs");
		return 1;
	}
	if (hexoid_decode(NULL, hex, 1, hexsz, algo, HEXOID_LOWER, &e) == HEXOID_OK)
		return 0;
	p->code = HEXOID_CODE_UPPERCASE_ID;
	p->column += e.column;
	snprintf(p->message, sizeof(p->message),
		 "uppercase hex digit '%c' in the object ID: Git 2.x accepts it, Git 3.0 rejects it",
		 hex[e.column]);
	return 1;
}

/* Whether the line [s, end) starts with `word` and a space. */
static int header_is(const char *s, const char *end, const char *word)
{
	size_t w = strlen(word);
	return (size_t)(end - s) > w && memcmp(s, word, w) == 0 && s[w] == ' ';
}

int hexoid_object_check(enum hexoid_object_type type, const void *text, size_t len,
			enum hexoid_algo algo, hexoid_header_fn *fn, void *ctx)
{
	const char *s = text, *end;
	size_t hexsz = hexoid_hexsz(algo);
	unsigned line = 0;
	int found = 0;

	if (!hexsz || (type != HEXOID_OBJ_COMMIT && type != HEXOID_OBJ_TAG) || (!text && len))
		return -1;
	if (!len)
		return 0; /* and text may be NULL: no pointer arithmetic on it */
	end = s + len;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *eol = nl ? nl : end;
		struct hexoid_header_problem p;
		const char *header = NULL;
		size_t skip = 0;

		line++;
		if (eol == s)
			break; /* the empty line that ends the headers */
		if (type == HEXOID_OBJ_COMMIT) {
			if (header_is(s, eol, "tree"))
				header = "tree", skip = 5;
			else if (header_is(s, eol, "parent"))
				header = "parent", skip = 7;
			else if (header_is(s, eol, "mergetag") && header_is(s + 9, eol, "object"))
				header = "mergetag object", skip = 16;
		} else if (header_is(s, eol, "object")) {
			header = "object", skip = 7;
		}
		if (header) {
			p.header = header;
			p.line = line;
			p.column = (unsigned)skip + 1;
			if (check_id(s + skip, (size_t)(eol - s) - skip, nl != NULL, hexsz, algo, &p)) {
				found++;
				if (fn && fn(ctx, &p))
					return found;
			}
		}
		if (!nl)
			break;
		s = nl + 1;
	}
	return found;
}
