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

HEXOID_INLINE int is_alnum(unsigned char ch)
{
	return (unsigned char)(ch - '0') < 10 || (unsigned char)((ch | 0x20) - 'a') < 26;
}

void hexoid_listing_text(struct cursor *c)
{
	struct hexoid_listing *l = c->l;
	size_t len = c->len, p = c->pos;
	while (p < len && !c->failed) {
		while (p < len && !is_alnum((unsigned char)c->s[p]))
			p++;
		size_t start = p, odd = 0;
		for (; p < len && is_alnum((unsigned char)c->s[p]); p++)
			odd += !is_hex((unsigned char)c->s[p]);
		size_t n = p - start;
		if (odd > 2 || n < 38)
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
		while (p < c->len && !is_alnum((unsigned char)c->s[p]))
			p++;
		size_t start = p, odd = 0;
		for (; p < c->len && is_alnum((unsigned char)c->s[p]); p++)
			odd += !is_hex((unsigned char)c->s[p]);
		size_t n = p - start;
		if (odd <= 2 && (hexsz ? n + 2 >= hexsz && n <= hexsz + 2
				       : (n >= 38 && n <= 42) || (n >= 62 && n <= 66)))
			return start + 1;
	}
	return 0;
}
