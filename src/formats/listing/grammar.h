/*
 * The grammar of one line: the cursor a parser reads a line through, and the helpers it
 * checks the text with (grammar.c holds the ones that are not inline).
 *
 * A parser checks the text around the object IDs with these helpers, and calls
 * hexoid_listing_oid() where an ID stands. It never decodes digits: the checker decodes
 * every ID of a batch of lines in one call and reports what it rejects. A parser records
 * at most one problem of its own per line (the first helper that fails stops the line);
 * every ID it saw before that is still checked.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_FORMATS_LISTING_GRAMMAR_H
#define HEXOID_FORMATS_LISTING_GRAMMAR_H

#include <stdint.h>
#include <string.h>

#include "../../compiler.h"
#include "../scan.h"
#include "listing.h"

struct cursor {
	struct hexoid_listing *l;
	const char *s;
	size_t len, pos;
	int cut;
	int failed; /* a problem was recorded: stop parsing this line */
	int dry;    /* AUTO's trial parse: count problems, record nothing */
	size_t dry_problems;
	size_t dry_col;   /* where the first of them is */
	unsigned char dry_code; /* and its P_* code (P_EXPECT: an ID that does not fit) */
	size_t dry_arg;   /* and its arg */
	size_t dry_ids;   /* the IDs it found */
	size_t oid_end; /* where the last object ID ended (0: none yet) */
};

/* The listing's hash, and the sizes of its IDs. */
void hexoid_listing_set_algo(struct hexoid_listing *l, enum hexoid_algo algo);

HEXOID_INLINE int is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

void hexoid_listing_push(struct cursor *c, unsigned char type, size_t col, unsigned char code,
		  size_t arg, const char *what);

HEXOID_INLINE int problem(struct cursor *c, size_t col, unsigned char code, size_t arg,
			  const char *what)
{
	if (c->failed)
		return 0; /* one problem of the grammar's own per line */
	hexoid_listing_push(c, ITEM_PROBLEM, col, code, arg, what);
	c->failed = 1;
	return 0;
}

/* The object ID at the cursor; takes the hash from it when the listing has none yet. */
int hexoid_listing_oid(struct cursor *c);
#define oid hexoid_listing_oid

/*
 * Is a run of n hex digits an abbreviated ID, as git prints one without --no-abbrev
 * (--abbrev, --hash=N, --oneline, diff --raw), in a listing of hexsz-digit IDs (0: not
 * known yet)? 4 or more digits, fewer than the listing's IDs have by more than two (an ID
 * one or two digits short is reported as too short), and not within two of either hash's
 * length (an ID of the other hash, or a broken one): 4 to 37 digits, or 43 to 61 in a
 * listing that is not sha1. The grammar (hexoid_listing_oid) and the report of a fast
 * line's ID that the engine stopped at a blank (checker.c) both ask this.
 */
HEXOID_INLINE int abbreviation(size_t n, size_t hexsz)
{
	if (n < 4 || (n + 2 >= 40 && (n <= 42 || n + 2 >= 62)))
		return 0;
	return !hexsz || n + 2 < hexsz;
}
/* What an abbreviated ID's message says was expected. */
const char *hexoid_listing_whole(const struct hexoid_listing *l);

/* The byte `ch` (a separator); `what` names it for the message. */
HEXOID_INLINE int sep(struct cursor *c, char ch, const char *what)
{
	if (c->failed)
		return 0;
	if (c->pos < c->len && c->s[c->pos] == ch) {
		c->pos++;
		return 1;
	}
	/* Right after an ID, a digit means the ID is too long. */
	if (c->pos < c->len && c->pos == c->oid_end && is_hex((unsigned char)c->s[c->pos]))
		return problem(c, c->pos, P_LONGID, 0, NULL);
	return problem(c, c->pos, P_EXPECT, 0, what);
}

HEXOID_INLINE int lit(struct cursor *c, const char *text, const char *what)
{
	size_t n = strlen(text);
	if (c->failed)
		return 0;
	if (c->len - c->pos >= n && !memcmp(c->s + c->pos, text, n)) {
		c->pos += n;
		return 1;
	}
	return problem(c, c->pos, P_EXPECT, 0, what);
}

/* Does the rest of the line start with `text`? (no problem recorded) */
HEXOID_INLINE int peek(const struct cursor *c, const char *text)
{
	size_t n = strlen(text);
	return !c->failed && c->len - c->pos >= n && !memcmp(c->s + c->pos, text, n);
}

/* Takes `text` when the rest of the line starts with it. */
HEXOID_INLINE int take(struct cursor *c, const char *text)
{
	if (!peek(c, text))
		return 0;
	c->pos += strlen(text);
	return 1;
}

/* The top bit of each byte of x that is within [lo, hi] (lo >= 1, hi < 0x80): byte-wise
 * range tests on a word, each byte's top bit or'ed in first so that no subtraction
 * borrows from the next byte. Bytes of 0x80 and more are never within. */
HEXOID_INLINE uint64_t bytes_in(uint64_t x, unsigned lo, unsigned hi)
{
	const uint64_t ones = 0x0101010101010101ull, top = 0x8080808080808080ull;
	uint64_t ge_lo = ((x | top) - lo * ones) & top;
	uint64_t gt_hi = ((x | top) - (hi + 1) * ones) & top;
	return ge_lo & ~gt_hi & ~x & top;
}

HEXOID_INLINE uint64_t load64(const char *p)
{
	uint64_t x;
	memcpy(&x, p, 8);
	return x;
}

/* Is ch an ASCII letter or digit (a byte of a word, to the text format and its kin)? */
HEXOID_INLINE int ascii_alnum(unsigned char ch)
{
	return (unsigned char)(ch - '0') < 10 || (unsigned char)((ch | 0x20) - 'a') < 26;
}

/*
 * The first word (a run of ASCII letters and digits) of s[p, len) of `min` bytes or more
 * (min > 8), p at a word's start or a separator: where it begins, and where it ends in
 * *end; len when there is none. Eight bytes at a time: a word that ends within the eight
 * bytes it began in is shorter than min, so only the run before a word of eight's first
 * separator can be long enough, and a new run begins after its last one.
 */
HEXOID_INLINE size_t long_word(const char *s, size_t len, size_t p, size_t min, size_t *end)
{
	const uint64_t top = 0x8080808080808080ull;
	size_t from = p, i = p;
#if defined(SCAN_SSE2)
	/* The same 32 bytes at a time where a word within them is short too; the last of
	 * them the 32 that end at len, the bytes before i shifted out. Fewer than min bytes
	 * hold no such word (a path, a type: most records of the formats that ask). */
	if (min > 32) {
		if (len - p < min) {
			*end = len;
			return len;
		}
		/* A word of 31 bytes or more holds a whole block of any grid of 16 bytes:
		 * where no block from p is all letters and digits (most text: words are
		 * shorter), there is none, and the blocks cost less than finding words. */
		size_t b = p;
		while (b + 16 <= len && scan_alnum16(s + b) != 0xffff)
			b += 16;
		if (b + 16 > len) {
			*end = len;
			return len;
		}
		for (; i + 32 <= len; i += 32) {
			uint32_t sep = scan_separators32(s + i);
			if (!sep)
				continue;
			size_t first = i + (size_t)__builtin_ctz(sep);
			if (first - from >= min) {
				*end = first;
				return from;
			}
			from = i + (size_t)(31 - __builtin_clz(sep)) + 1;
		}
		if (i < len) {
			uint32_t sep = scan_separators32(s + len - 32) >> (32 - (len - i));
			if (sep) {
				size_t first = i + (size_t)__builtin_ctz(sep);
				if (first - from >= min) {
					*end = first;
					return from;
				}
				from = i + (size_t)(31 - __builtin_clz(sep)) + 1;
			}
		}
		*end = len;
		return len - from >= min ? from : len;
	}
#endif
	for (; i + 8 <= len; i += 8) {
		uint64_t x = scan_le64(s + i);
		uint64_t sep = ~(bytes_in(x, '0', '9') | bytes_in(x | 0x2020202020202020ull, 'a', 'z')) & top;
		if (!sep)
			continue;
		size_t first = i + (size_t)__builtin_ctzll(sep) / 8;
		if (first - from >= min) {
			*end = first;
			return from;
		}
		from = i + (size_t)(63 - __builtin_clzll(sep)) / 8 + 1;
	}
	for (; i < len; i++) {
		if (ascii_alnum((unsigned char)s[i]))
			continue;
		if (i - from >= min) {
			*end = i;
			return from;
		}
		from = i + 1;
	}
	*end = len;
	return len - from >= min ? from : len;
}

/* Has s[0, n) no word of `min` bytes or more (min > 8)? */
HEXOID_INLINE int no_long_word(const char *s, size_t n, size_t min)
{
	size_t end;
	return long_word(s, n, 0, min, &end) == n;
}

HEXOID_INLINE int number(struct cursor *c, int base, size_t min, size_t max, const char *what)
{
	if (c->failed)
		return 0;
	if (base == 16 && min == 8 && max == 8 && c->len - c->pos >= 8) {
		/* Eight lowercase hex digits (a CRC32): one word. */
		uint64_t x = load64(c->s + c->pos);
		if ((bytes_in(x, '0', '9') | bytes_in(x, 'a', 'f')) == 0x8080808080808080ull) {
			c->pos += 8;
			return 1;
		}
	}
	/* In locals: the cursor escapes to the ID parser, so its fields live in memory. */
	const unsigned char *s = (const unsigned char *)c->s;
	size_t start = c->pos, p = start, end = c->len - start < max ? c->len : start + max;
	for (; p < end; p++) {
		unsigned char ch = s[p];
		int ok = base == 8 ? (unsigned char)(ch - '0') < 8
		       : base == 10 ? (unsigned char)(ch - '0') < 10
				    : ((unsigned char)(ch - '0') < 10) | ((unsigned char)(ch - 'a') < 6);
		if (!ok)
			break;
	}
	c->pos = p;
	if (p - start < min)
		return problem(c, p, P_EXPECT, 0, what);
	return 1;
}

/* The first space or tab in s[0, n), or n: eight bytes at a time. */
HEXOID_INLINE size_t find_blank(const char *s, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, top = 0x8080808080808080ull;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t x;
		memcpy(&x, s + i, 8);
		uint64_t a = x ^ (' ' * ones), b = x ^ ('\t' * ones);
		/* A zero byte in a or b (exact: no borrow into a byte that is zero). */
		uint64_t za = ~(((a & ~top) + ~top) | a | ~top);
		uint64_t zb = ~(((b & ~top) + ~top) | b | ~top);
		if (za | zb)
			break;
	}
	for (; i < n; i++)
		if (s[i] == ' ' || s[i] == '\t')
			return i;
	return n;
}

/* The word at the cursor is `word` (a literal: its length folds to a constant). */
#define AT_WORD(c, word)                                                                    \
	((c)->len - (c)->pos >= sizeof(word) - 1 &&                                         \
	 !memcmp((c)->s + (c)->pos, word, sizeof(word) - 1))

/* How long the object type at the cursor is (0: none). */
HEXOID_INLINE size_t type_len(const struct cursor *c)
{
	if (AT_WORD(c, "blob") || AT_WORD(c, "tree"))
		return 4;
	if (AT_WORD(c, "commit"))
		return 6;
	if (AT_WORD(c, "tag"))
		return 3;
	return 0;
}

HEXOID_INLINE int type_word(struct cursor *c)
{
	if (c->failed)
		return 0;
	size_t n = type_len(c);
	if (n) {
		c->pos += n;
		return 1;
	}
	return problem(c, c->pos, P_EXPECT, 0, "an object type (commit, tree, blob or tag)");
}

HEXOID_INLINE int rest_nonempty(struct cursor *c, const char *what)
{
	if (c->failed)
		return 0;
	if (c->pos >= c->len)
		return problem(c, c->pos, P_EXPECT, 0, what);
	c->pos = c->len;
	return 1;
}

/* A ref name: the rest of the line, not empty, with no space or tab. AUTO's trial also
 * wants it to look like one git prints (refs/..., worktrees/<name>/..., main-worktree/...,
 * or HEAD and the like), so that other
 * "<oid> <word>" lines are not taken for refs. */
int hexoid_listing_refname(struct cursor *c);
#define refname hexoid_listing_refname

HEXOID_INLINE int end(struct cursor *c)
{
	if (c->failed)
		return 0;
	if (c->pos == c->len)
		return 1;
	return problem(c, c->pos, P_EXPECT, 0, "the end of the line");
}

HEXOID_INLINE int line_ends_with(const struct cursor *c, const char *text)
{
	size_t n = strlen(text);
	return c->len >= n && !memcmp(c->s + c->len - n, text, n);
}

/* The bytes from the cursor up to the next space, tab or CR (or the end). */
HEXOID_INLINE size_t token_len(const struct cursor *c)
{
	size_t n = 0;
	while (c->pos + n < c->len && c->s[c->pos + n] != ' ' && c->s[c->pos + n] != '\t' &&
	       c->s[c->pos + n] != '\r')
		n++;
	return n;
}

#endif
