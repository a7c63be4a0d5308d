/*
 * Any text at all (--format=text): a heuristic, for what no other format describes. A
 * word is a run of ASCII letters and digits; one that is as long as an object ID give or
 * take two bytes, and hex but for at most two of them, is taken for an ID and checked
 * (so an ID with a digit wrong, lost or doubled is found); every other byte of the text is
 * passed over. Until the hash is known, the first such word tells it: 38 to 42 bytes
 * sha1, 62 to 66 sha256. AUTO never chooses this format.
 * SPDX-License-Identifier: MIT
 */
#include "parsers.h"

/* The bytes of s[start, end) that are not hex digits, counted up to 3. */
static size_t nonhex(const char *s, size_t start, size_t end)
{
	size_t odd = 0;
	for (size_t i = start; i < end && odd < 3; i++)
		odd += !is_hex((unsigned char)s[i]);
	return odd;
}

void hexoid_listing_text(struct cursor *c)
{
	struct hexoid_listing *l = c->l;
	size_t len = c->len, p = c->pos;
	while (p < len && !c->failed) {
		/* The shortest word that may be an ID: 38 bytes until the hash is known. */
		size_t end, start = long_word(c->s, len, p, l->hexsz ? l->hexsz - 2 : 38, &end);
		if (start == len)
			break;
		p = end;
		size_t n = end - start;
		if (nonhex(c->s, start, end) > 2)
			continue;
		if (!l->hexsz) {
			if (n <= 42)
				hexoid_listing_set_algo(l, HEXOID_SHA1);
			else if (n >= 62 && n <= 66)
				hexoid_listing_set_algo(l, HEXOID_SHA256);
			else
				continue;
		}
		if (n + 2 < l->hexsz || n > l->hexsz + 2)
			continue;
		/* The word alone: what follows it is not the ID's. */
		c->pos = start;
		c->len = p;
		if (oid(c) && c->pos < p)
			problem(c, c->pos, P_LONGID, 0, NULL);
		c->len = len;
	}
	c->pos = len;
}

void hexoid_parse_text(struct cursor *c)
{
	hexoid_listing_text(c);
}

/* Where the first word of the line that text would take for an ID begins, plus one; 0
 * when there is none. */
size_t hexoid_listing_id_word(const struct cursor *c)
{
	size_t hexsz = c->l->hexsz, p = 0;
	while (p < c->len) {
		size_t end, start = long_word(c->s, c->len, p, hexsz ? hexsz - 2 : 38, &end);
		if (start == c->len)
			break;
		p = end;
		size_t n = end - start;
		if (nonhex(c->s, start, end) <= 2 &&
		    (hexsz ? n <= hexsz + 2 : (n >= 38 && n <= 42) || (n >= 62 && n <= 66)))
			return start + 1;
	}
	return 0;
}
