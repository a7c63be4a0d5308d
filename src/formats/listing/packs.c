/*
 * What git prints about packs: show-index and verify-pack -v.
 * SPDX-License-Identifier: MIT
 */
#include "parsers.h"

/* show-index: <offset> <oid>[ (<crc32>)] (version 1 indexes have no CRC32). */
void hexoid_parse_show_index(struct cursor *c)
{
	number(c, 10, 1, 20, "the offset");
	sep(c, ' ', "a space after the offset");
	oid(c);
	if (c->pos < c->len) {
		lit(c, " (", "\" (\" before the CRC32");
		number(c, 16, 8, 8, "8 lowercase hex digits of CRC32");
		lit(c, ")", "\")\" after the CRC32");
		end(c);
	}
}

/* verify-pack -v: <oid> <type> <size> <size-in-pack> <offset>[ <depth> <base-oid>],
 * the type padded to 6; then its summary lines. */
void hexoid_parse_verify_pack(struct cursor *c)
{
	if (peek(c, "non delta: ") || peek(c, "chain length = ") || line_ends_with(c, ": ok"))
		return;
	oid(c);
	sep(c, ' ', "a space after the object ID");
	size_t start = c->pos;
	type_word(c);
	while (!c->failed && c->pos < c->len && c->pos - start < 6 && c->s[c->pos] == ' ')
		c->pos++; /* the type is padded to 6 */
	sep(c, ' ', "a space after the type");
	number(c, 10, 1, 20, "the object size");
	sep(c, ' ', "a space after the size");
	number(c, 10, 1, 20, "the size in the pack");
	sep(c, ' ', "a space after the size in the pack");
	number(c, 10, 1, 20, "the offset");
	if (!c->failed && c->pos < c->len) {
		sep(c, ' ', "a space after the offset");
		number(c, 10, 1, 10, "the delta depth");
		sep(c, ' ', "a space after the delta depth");
		oid(c);
		end(c);
	}
}
