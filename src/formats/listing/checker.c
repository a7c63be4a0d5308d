/*
 * Listings: the object IDs in what git prints, checked in bulk.
 *
 * Each line is parsed by its format's grammar (grammar.h; one parser per format,
 * parsers.h, named in table.c), which checks the text around the IDs and records where each ID starts
 * (an "item"), copying the ID into the batch's packed IDs. Problems found by the
 * grammar are items too, so that every report comes out in line order. A batch of items
 * is then decoded in one call to the engine, and only the lines it rejects are looked at
 * again, to say exactly what is wrong with them.
 *
 * The common lines of rev-list, pack-objects and batch-check listings skip the grammar: a
 * few word-sized tests show that the line is one the grammar would take whole, with one
 * ID at its start, and the line only adds its ID to the batch (a "fast line"). Anything
 * else about such a line, or any line of another format, goes through the grammar, so
 * every report is the grammar's. Newlines are found 64 bytes at a time (scan.h).
 *
 * Bare-ID listings ("oids") take a faster path still: a run of lines that are exactly
 * hexsz bytes and a newline is one strided hexoid_decode() call, with no parsing at all.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../scan.h"
#include "grammar.h"
#include "listing.h"
#include "parsers.h"
#include "table.h"

#define PROBE_LINES 64 /* lines AUTO looks at before it decides */
#define PROBE_BYTES (64u << 10)
/* A batch's lines are numbered from its first in 30 bits (see recs): one that spans more
 * lines than this, counting the lines with no item, is decoded early. */
#define REL_LIMIT (1u << 29)

HEXOID_API const char *hexoid_format_name(enum hexoid_format format)
{
	return (unsigned)format < HEXOID_FORMAT_COUNT ? hexoid_listing_formats[format].name : NULL;
}

HEXOID_API int hexoid_format_from_name(const char *name)
{
	for (int i = 0; i < HEXOID_FORMAT_COUNT; i++)
		if (name && !strcmp(name, hexoid_listing_formats[i].name))
			return i;
	return -1;
}

static const char *algo_name(enum hexoid_algo algo)
{
	return algo == HEXOID_SHA256 ? "sha256" : "sha1";
}

/* One line, by its format's grammar. */
static void parse_line(struct cursor *c)
{
	const struct listing_format *f = &hexoid_listing_formats[c->l->format];
	if (c->len == 0 && !f->empty_ok) {
		problem(c, 0, P_EMPTY, 0, NULL);
		return;
	}
	f->parse(c);
}

/* ---- Reports ---------------------------------------------------------------------- */

static int emit(struct hexoid_listing *l, const struct item *it, size_t col,
		enum hexoid_code code, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int emit(struct hexoid_listing *l, const struct item *it, size_t col,
		enum hexoid_code code, const char *fmt, ...)
{
	struct hexoid_problem p;
	va_list ap;
	p.line = it->lineno;
	p.column = it->base + col + 1;
	p.status = code == HEXOID_CODE_UPPERCASE_ID ? HEXOID_EUPPER : HEXOID_EHEX;
	p.code = code;
	va_start(ap, fmt);
	vsnprintf(p.message, sizeof(p.message), fmt, ap);
	va_end(ap);
	l->stats.problems++;
	if (l->on_problem && l->on_problem(l->ctx, &p))
		l->stopped = 1;
	return l->stopped;
}

/* The one message of an abbreviated ID, wherever it stands. */
#define ABBREVIATED                                                                         \
	"abbreviated object ID: %zu hex digits, expected %s: run git with --no-abbrev to "  \
	"print whole IDs"

/* What is wrong with byte `col` of the line, where a digit of an ID was expected.
 * Returns 1 when that is an abbreviated ID, after which the line is not read (as the
 * grammar stops there). */
static int report_byte(struct hexoid_listing *l, const struct item *it, size_t col,
		       size_t id_start)
{
	unsigned char b = (unsigned char)it->line[col];
	if ((b == ' ' || b == '\t') && abbreviation(col - id_start, l->hexsz)) {
		emit(l, it, id_start, HEXOID_CODE_ABBREVIATED_ID, ABBREVIATED, col - id_start,
		     hexoid_listing_whole(l));
		return 1;
	}
	if (b >= 'A' && b <= 'F' && l->kind == HEXOID_LOWER)
		emit(l, it, col, HEXOID_CODE_UPPERCASE_ID,
		     "uppercase hex digit '%c' in object ID: Git 3.0 accepts only lowercase "
		     "(--mixed allows it)",
		     b);
	else if (b == '\r' && col + 1 == it->len)
		emit(l, it, col, HEXOID_CODE_CRLF, "carriage return before end of line (CRLF line ending)");
	else if (b == '\0')
		emit(l, it, col, HEXOID_CODE_NUL_BYTE, "NUL byte in line");
	else if (b == ' ' || b == '\t')
		emit(l, it, col, HEXOID_CODE_SHORT_ID, "object ID too short: %zu hex digits, expected %zu (%s)",
		     col - id_start, l->hexsz, algo_name(l->algo));
	else if (b > ' ' && b < 0x7f)
		emit(l, it, col, HEXOID_CODE_BAD_HEX, "invalid hex digit '%c' in object ID", b);
	else
		emit(l, it, col, HEXOID_CODE_BAD_HEX, "invalid byte 0x%02x in object ID", b);
	return 0;
}

/* Is the bad ID item's report an uppercase digit (the ID is otherwise valid)? */
static int upper_at(const struct hexoid_listing *l, const struct item *it)
{
	unsigned char b = (unsigned char)it->line[it->badcol];
	return l->kind == HEXOID_LOWER && b >= 'A' && b <= 'F';
}

static void report(struct hexoid_listing *l, const struct item *it)
{
	if (it->type == ITEM_OID) {
		report_byte(l, it, it->badcol, it->col);
		return;
	}
	size_t col = it->col;
	unsigned char b = col < it->len ? (unsigned char)it->line[col] : 0;
	/* A CR or NUL where the grammar wanted something else says more than the grammar. */
	if (col < it->len && b == '\r' && col + 1 == it->len && it->code != P_HUGE) {
		emit(l, it, col, HEXOID_CODE_CRLF, "carriage return before end of line (CRLF line ending)");
		return;
	}
	if (col < it->len && b == '\0' && it->code != P_HUGE) {
		emit(l, it, col, HEXOID_CODE_NUL_BYTE, "NUL byte in line");
		return;
	}
	switch (it->code) {
	case P_EMPTY:
		emit(l, it, col, HEXOID_CODE_EMPTY_LINE, "empty line");
		break;
	case P_SHORT:
		emit(l, it, col, HEXOID_CODE_SHORT_ID, "object ID too short: %zu hex digits, expected %zu (%s)",
		     it->arg, l->hexsz, algo_name(l->algo));
		break;
	case P_LONGID:
		emit(l, it, col, HEXOID_CODE_LONG_ID, "object ID too long: more than %zu hex digits (%s)",
		     l->hexsz, algo_name(l->algo));
		break;
	case P_LINE_LONG:
		emit(l, it, col, HEXOID_CODE_LONG_LINE,
		     "line too long: %s%zu bytes, a %s object ID has %zu hex digits",
		     it->cut ? "more than " : "", it->arg, algo_name(l->algo), l->hexsz);
		break;
	case P_ALGO:
		emit(l, it, col, HEXOID_CODE_UNKNOWN_HASH,
		     "cannot tell the object format: %s%zu hex digits, expected 40 (sha1) or 64 "
		     "(sha256)",
		     it->cut ? "more than " : "", it->arg);
		break;
	case P_HUGE:
		emit(l, it, col, HEXOID_CODE_HUGE_LINE, "line longer than %u bytes", MAX_LINE);
		break;
	case P_ABBREV:
		emit(l, it, col, HEXOID_CODE_ABBREVIATED_ID, ABBREVIATED, it->arg, it->what);
		break;
	case P_TEXT:
		emit(l, it, col, HEXOID_CODE_SYNTAX, "%s", it->what);
		break;
	default:
		if (col >= it->len)
			emit(l, it, col, HEXOID_CODE_SYNTAX, "expected %s, found the end of the line",
			     it->what);
		else if (b >= ' ' && b < 0x7f)
			emit(l, it, col, HEXOID_CODE_SYNTAX, "expected %s, found '%c'", it->what, b);
		else
			emit(l, it, col, HEXOID_CODE_SYNTAX, "expected %s, found byte 0x%02x", it->what, b);
		break;
	}
}

/* The batch's lines with items, in order, after decoding: report each bad line, hand over
 * the IDs of each good one. */
static void walk(struct hexoid_listing *l)
{
	size_t hexsz = l->hexsz, rawsz = l->rawsz, slot = 0, bad = 0, j = 0;
	for (size_t r = 0; r < l->nrecs && !l->stopped; r++) {
		unsigned long long lineno = l->batch_line + (l->recs[r] >> REC_SHIFT);
		unsigned kind = l->recs[r] & ((1u << REC_SHIFT) - 1);
		if (kind != REC_GRAMMAR) {
			size_t nids = kind >> 1, s0 = slot, nbad_ids = 0;
			slot += nids;
			for (size_t k = bad; k < l->nbad && l->bad_slot[k] < slot; k++)
				nbad_ids++;
			if (nbad_ids) {
				/* The packed copy of each bad ID stands for the line: the report
				 * only reads the ID's bytes, and whether it ends the line, for a
				 * final CR. */
				l->stats.bad_lines++;
				int abbreviated = 0;
				for (; bad < l->nbad && l->bad_slot[bad] < slot && !l->stopped; bad++) {
					size_t s = l->bad_slot[bad];
					if (abbreviated)
						continue; /* the line is not read past it */
					int ends = (kind & 1) && s + 1 == slot;
					struct item it = { .line = l->packed + s * hexsz,
							   .len = ends ? hexsz : hexsz + 1,
							   .lineno = lineno,
							   .type = ITEM_OID,
							   .bad = 1,
							   .badcol = l->bad_col[bad],
							   .base = l->slot_col[s] };
					abbreviated = report_byte(l, &it, it.badcol, 0);
				}
			} else {
				for (size_t s = s0; s < slot && !l->stopped; s++) {
					l->stats.oids++;
					if (l->on_oid && l->on_oid(l->ctx, lineno, (size_t)l->slot_col[s] + 1,
								   l->raw + s * rawsz, rawsz))
						l->stopped = 1;
				}
			}
			continue;
		}
		/*
		 * A line the grammar took: each bad ID is reported at its own column, and so is
		 * the problem that stopped the grammar, if any. An ID with an uppercase digit
		 * that is also too long is reported as too long: it is not valid with
		 * uppercase allowed either.
		 */
		size_t i = j, nbad_items = 0;
		for (; j < l->ngrammar && l->items[j].lineno == lineno; j++) {
			struct item *it = &l->items[j];
			if (it->type == ITEM_OID && !it->bad) {
				slot++;
				if (bad < l->nbad && l->bad_slot[bad] == it->slot) {
					it->bad = 1;
					it->badcol = it->col + l->bad_col[bad];
					bad++;
				}
			}
			nbad_items += it->type == ITEM_PROBLEM || it->bad;
		}
		if (nbad_items) {
			l->stats.bad_lines++;
			for (size_t t = i; t < j && !l->stopped; t++) {
				const struct item *it = &l->items[t];
				if (it->type == ITEM_OID && it->bad && t + 1 < j &&
				    l->items[t + 1].type == ITEM_PROBLEM &&
				    l->items[t + 1].code == P_LONGID && upper_at(l, it))
					continue;
				if (it->type == ITEM_PROBLEM || it->bad)
					report(l, it);
			}
		} else {
			for (size_t t = i; t < j && !l->stopped; t++) {
				l->stats.oids++;
				if (l->on_oid && l->on_oid(l->ctx, lineno, l->items[t].base + l->items[t].col + 1,
							    l->raw + l->items[t].slot * rawsz, rawsz))
					l->stopped = 1;
			}
		}
	}
}

/* Decode the batch's IDs, then report or hand over each line's, in line order. */
static void flush(struct hexoid_listing *l)
{
	size_t m = l->nslots, hexsz = l->hexsz, rawsz = l->rawsz;
	if (l->nitems && !l->stopped) {
		/* One engine call for the batch; after a bad ID, go on with the ones after it. */
		l->nbad = 0;
		for (size_t done = 0; done < m;) {
			struct hexoid_error e;
			unsigned char *out = l->on_oid ? l->raw + done * rawsz : NULL;
			if (hexoid_decode(out, l->packed + done * hexsz, m - done, hexsz, l->algo,
					  l->kind, &e) == HEXOID_OK)
				break;
			l->bad_slot[l->nbad] = (uint16_t)(done + e.record);
			l->bad_col[l->nbad++] = (unsigned char)e.column;
			done += e.record + 1;
		}
		if (!l->nbad && !l->ngrammar && !l->on_oid)
			l->stats.oids += m; /* only good fast lines, and nobody to tell */
		else
			walk(l);
	}
	l->nitems = l->ngrammar = l->nrecs = l->nslots = 0;
	l->batch_line = l->lineno;
}

/* ---- Lines ------------------------------------------------------------------------ */

/*
 * AUTO: a line the chosen format's grammar does not take. When the wider shape of the
 * same command takes it (rev-list's paths after its commits, which looked like bare
 * IDs), the listing is that format from here on, and the line is taken again by it;
 * otherwise the line's problems stand.
 */
static void widen(struct hexoid_listing *l, const char *s, size_t len, int cut, size_t before,
		  size_t nitems, size_t nslots, struct cursor *c)
{
	enum hexoid_format from = l->format, to = hexoid_listing_formats[from].wider;
	if (to == HEXOID_FORMAT_AUTO)
		return;
	unsigned state = l->state, wider_state = hexoid_listing_formats[from].wider_state;
	struct cursor t = { .l = l, .s = s, .len = len, .cut = cut, .dry = 1 };
	l->format = to;
	l->state = wider_state;
	parse_line(&t);
	if (t.dry_problems) {
		l->format = from;
		l->state = state;
		return;
	}
	l->ngrammar = before;
	l->nitems = nitems;
	l->nslots = nslots;
	l->state = wider_state;
	l->stats.format = to;
	*c = (struct cursor){ .l = l, .s = s, .len = len, .cut = cut };
	parse_line(c);
}

static void take_line(struct hexoid_listing *l, const char *s, size_t len, int cut)
{
	struct cursor c = { .l = l, .s = s, .len = len, .cut = cut };
	l->grammar_lines++;
	/* Room for every item one line can make (a few IDs and one problem). */
	if (l->nitems + 8 > BATCH || l->lineno - l->batch_line >= REL_LIMIT)
		flush(l);
	size_t before = l->ngrammar, nitems = l->nitems, nslots = l->nslots;
	parse_line(&c);
	if (c.failed && l->widening)
		widen(l, s, len, cut, before, nitems, nslots, &c);
	if (cut && (l->ngrammar == before || l->items[l->ngrammar - 1].type != ITEM_PROBLEM)) {
		c.failed = 0;
		problem(&c, MAX_LINE, P_HUGE, 0, NULL);
	}
	if (l->ngrammar != before)
		l->recs[l->nrecs++] = (uint32_t)(l->lineno - l->batch_line) << REC_SHIFT | REC_GRAMMAR;
	l->lineno++;
	l->stats.lines++;
	l->line_base = 0;
}

/*
 * Bare IDs: the run of hexsz-byte lines at the start of buf[0, len), as one strided
 * engine call. Returns the bytes of the good lines taken (0 when the first line is not
 * one of them: the grammar then takes it); *bad_next says that the run ended at a line
 * the engine rejected.
 */
static size_t bare_run(struct hexoid_listing *l, const char *buf, size_t len, int *bad_next)
{
	size_t rec = l->hexsz + 1, k = 0;
	while ((k + 1) * rec <= len && buf[k * rec + l->hexsz] == '\n')
		k++;
	if (!k)
		return 0;
	flush(l);
	struct hexoid_error e;
	size_t good = k;
	unsigned char *out = l->on_oid ? l->raw : NULL;
	size_t chunk = l->on_oid ? BATCH : k;
	for (size_t d = 0; d < k; d += chunk) {
		size_t m = k - d < chunk ? k - d : chunk;
		if (hexoid_decode(out, buf + d * rec, m, rec, l->algo, l->kind, &e) != HEXOID_OK) {
			m = e.record;
			good = d + m;
		}
		for (size_t t = 0; l->on_oid && t < m && !l->stopped; t++)
			if (l->on_oid(l->ctx, l->lineno + d + t, 1, l->raw + t * l->rawsz, l->rawsz))
				l->stopped = 1;
		if (good < k)
			break;
	}
	l->lineno += good;
	l->stats.lines += good;
	l->stats.oids += good;
	l->batch_line = l->lineno; /* the batch is empty: count from here */
	*bad_next = good < k;
	return good * rec;
}

/* Per byte of w, a nonzero high nibble where the byte is not a decimal digit. */
HEXOID_INLINE uint64_t nondigits(uint64_t w)
{
	const uint64_t hi = 0xf0f0f0f0f0f0f0f0ull, lo = 0x0f0f0f0f0f0f0f0full;
	return ((w & hi) ^ 0x3030303030303030ull) | (((w & lo) + 0x0606060606060606ull) & hi);
}

/* Four bytes as scan_le32() reads them. */
#define WORD4(a, b, c, d)                                                                   \
	((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
/* Eight bytes as scan_le64() reads them. */
#define WORD8(a, b, c, d, e, f, g, h) ((uint64_t)WORD4(a, b, c, d) | (uint64_t)WORD4(e, f, g, h) << 32)

/* blame's "previous " at s (n bytes), as a word and a byte: GCC makes a memcmp of 9
 * bytes a call. */
HEXOID_INLINE int blame_previous(const char *s, size_t n)
{
	return n >= 9 && scan_le64(s) == WORD8('p', 'r', 'e', 'v', 'i', 'o', 'u', 's') && s[8] == ' ';
}

/* The six octal digits of a mode and the space after them at s (8 bytes readable). */
HEXOID_INLINE int fast_mode(const char *s)
{
	const uint64_t six = 0x0000808080808080ull; /* bytes 0 to 5, as scan_le64 reads */
	return (bytes_in(scan_le64(s), '0', '7') & six) == six && s[6] == ' ';
}

/* The length of the object type at s (0: none); reads 6 bytes. */
HEXOID_INLINE size_t fast_type(const char *s)
{
	uint32_t w = scan_le32(s);
	return w == WORD4('b', 'l', 'o', 'b') || w == WORD4('t', 'r', 'e', 'e') ? 4
	     : (w & 0xffffff) == WORD4('t', 'a', 'g', 0)				  ? 3
	     : w == WORD4('c', 'o', 'm', 'm') && scan_le16(s + 4) == ('i' | 't' << 8) ? 6
										      : 0;
}

/* A ref name from s[r] to s[n]: not empty, no space or tab (as the grammar's, outside
 * AUTO's trial). Sixteen bytes at a time, the last 16 of the line last, those before
 * the ones still to test shifted out (every caller's line is longer than 16). */
HEXOID_INLINE int fast_ref(const char *s, size_t r, size_t n)
{
#if defined(SCAN_SSE2)
	if (r < n && n >= 16) {
		size_t i = r;
		for (; i + 16 <= n; i += 16)
			if (scan_blanks16(s + i))
				return 0;
		return i == n || !(scan_blanks16(s + n - 16) >> (16 - (n - i)));
	}
#endif
	return r < n && find_blank(s + r, n - r) == n - r;
}

/* From s[p] in the line s[0, n): 1 to 20 decimal digits (the grammar's number()); where
 * they end, or 0. Eight bytes at a time while the line has them. */
HEXOID_INLINE size_t fast_number(const char *s, size_t p, size_t n)
{
	size_t q = p;
	while (q + 8 <= n && q - p < 16) {
		uint64_t nd = nondigits(scan_le64(s + q));
		if (nd) {
			q += (size_t)__builtin_ctzll(nd) / 8;
			return q > p ? q : 0;
		}
		q += 8;
	}
	if (q < n && q + 8 > n && n >= 8) {
		/* 1 to 7 bytes left (a number that ends the line): the line's last 8 bytes,
		 * the ones before q shifted out. No loop whose length is the number's, which
		 * the branch predictor cannot learn when it varies line to line. */
		uint64_t nd = nondigits(scan_le64(s + n - 8)) >> (8 * (q - (n - 8)));
		q = nd ? q + (size_t)__builtin_ctzll(nd) / 8 : n;
		if (q - p > 20)
			q = p + 20;
	} else {
		while (q - p < 20 && (unsigned char)(s[q] - '0') < 10)
			q++;
	}
	return q > p ? q : 0;
}

/* The set bits of m (no popcnt instruction: this folder has no -m flags). */
HEXOID_INLINE size_t bit_count(uint64_t m)
{
	m -= (m >> 1) & 0x5555555555555555ull;
	m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
	m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (size_t)((m * 0x0101010101010101ull) >> 56);
}

/* The set bits of each byte value: two loads for a 16-bit mask, where bit_count() is a
 * dozen instructions. */
#define BITS2(n) n, n + 1, n + 1, n + 2
#define BITS4(n) BITS2(n), BITS2(n + 1), BITS2(n + 1), BITS2(n + 2)
#define BITS6(n) BITS4(n), BITS4(n + 1), BITS4(n + 1), BITS4(n + 2)
static const unsigned char bits_in_byte[256] = { BITS6(0), BITS6(1), BITS6(1), BITS6(2) };
#undef BITS2
#undef BITS4
#undef BITS6

/*
 * s[b, e) (b < e, within the line): numbers of 1 to 20 digits, one space apart? Returns
 * how many (0: not such), with where the last begins in *last. Up to 16 bytes (the
 * numbers git prints after an ID: sizes, offsets, line counts) are one block's digit and
 * space masks, the bytes before b shifted out: digits and single spaces, a digit first
 * and last, with no loop whose length is the numbers' for the branch predictor to miss.
 */
HEXOID_INLINE unsigned fast_numbers(const char *s, size_t b, size_t e, size_t *last)
{
#if defined(SCAN_SSE2)
	if (e - b <= 16 && e >= 16) {
		unsigned r = (unsigned)(e - b);
		uint32_t sp, d = scan_digits16(s + e - 16, &sp) >> (16 - r);
		sp >>= 16 - r;
		if ((d | sp) != (1u << r) - 1 || !(d & 1) || !(d >> (r - 1) & 1) || (sp & sp >> 1))
			return 0;
		*last = sp ? b + 32 - (size_t)__builtin_clz(sp) : b;
		return 1u + bits_in_byte[sp & 0xff] + bits_in_byte[sp >> 8];
	}
#endif
	unsigned count = 0;
	for (size_t p = b;;) {
		size_t q = fast_number(s, p, e);
		if (!q)
			return 0;
		count++;
		*last = p;
		if (q == e)
			return count;
		if (s[q] != ' ')
			return 0;
		p = q + 1;
	}
}

/* Per byte of w, the top bit where the byte is a space (exact: no borrow into a byte
 * that is not one). */
HEXOID_INLINE uint64_t space_bytes(uint64_t w)
{
	const uint64_t top = 0x8080808080808080ull;
	uint64_t a = w ^ 0x2020202020202020ull;
	return ~(((a & ~top) + ~top) | a | ~top);
}

/* The first space in the line s[0, n), or n. */
HEXOID_INLINE size_t fast_space(const char *s, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t m = space_bytes(scan_le64(s + i));
		if (m)
			return i + (size_t)__builtin_ctzll(m) / 8;
	}
	while (i < n && s[i] != ' ')
		i++;
	return i;
}

/*
 * From s[p] in the line s[0, n): one to three IDs of hexsz hex digits (either case: the
 * grammar's surest shape of an ID), one space (or with `tabs`, a space or a tab) apart,
 * the last ending the line, or a space or tab after it that does (an empty field, as a
 * root commit's %P). Their columns go to col[]; returns the line's REC_* kind, or 0.
 */
HEXOID_INLINE unsigned fast_ids(const char *s, size_t p, size_t n, size_t hexsz, int tabs,
				unsigned char *col)
{
	for (unsigned k = 0; k < 3 && p + hexsz <= n && scan_all_hex(s + p, hexsz);) {
		col[k++] = (unsigned char)p;
		p += hexsz;
		if (p == n)
			return 2 * k + 1;
		if (s[p] != ' ' && (!tabs || s[p] != '\t'))
			return 0;
		if (++p == n)
			return 2 * k;
	}
	return 0;
}

/*
 * What the grammar's id_fields() reads from s[p] to the line's end, when that is one to
 * three fields of exactly hexsz bytes each, one blank apart, none beginning with a blank:
 * it takes each field's bytes as an ID whatever they hold (an abbreviated one stops it,
 * as the report of the engine's first bad byte stops the line's), so only the engine need
 * judge them, and their digits are not tested here. The IDs' columns go to col[]
 * (p + 3 * hexsz + 3 <= 255); returns the line's REC_* kind, or 0 for another shape.
 */
HEXOID_INLINE unsigned fast_id_fields(const char *s, size_t p, size_t n, size_t hexsz,
				      unsigned char *col)
{
	size_t w = n - p;
	unsigned k = w == hexsz ? 1 : w == 2 * hexsz + 1 ? 2 : w == 3 * hexsz + 2 ? 3 : 0;
	if (!k || s[p] == ' ' || s[p] == '\t')
		return 0;
	col[0] = (unsigned char)p;
	for (unsigned i = 1; i < k; i++) {
		size_t q = p + i * (hexsz + 1); /* the field's first byte */
		if ((s[q - 1] != ' ' && s[q - 1] != '\t') || s[q] == ' ' || s[q] == '\t')
			return 0;
		col[i] = (unsigned char)q;
	}
	return 2 * k + 1;
}

/* No space or tab in the hexsz bytes at s (40 or 64)? With SSE2 the answer is no for
 * any byte up to ' ' (a control byte too): one saturating subtraction a block and one
 * test for all, not two compares and a mask each; a line it declines for a control
 * byte goes to the grammar, which reports what the engine would. */
HEXOID_INLINE int no_blank(const char *s, size_t hexsz)
{
#if defined(SCAN_SSE2)
	const __m128i space = _mm_set1_epi8(' ');
#define LOW16(p) _mm_subs_epu8(_mm_loadu_si128((const __m128i *)(const void *)(p)), space)
	__m128i m = _mm_min_epu8(_mm_min_epu8(LOW16(s), LOW16(s + 16)), LOW16(s + hexsz - 16));
	if (hexsz == 64)
		m = _mm_min_epu8(m, LOW16(s + 32));
#undef LOW16
	return !_mm_movemask_epi8(_mm_cmpeq_epi8(m, _mm_setzero_si128()));
#else
	return find_blank(s, hexsz) == hexsz;
#endif
}

/*
 * blame's line s[0, n): a group's first line, <oid> <line> <final line>[ <lines>] (1), a
 * line whose first word is not an ID's length and blank-free (-1: it may be a header or
 * previous), or one the grammar must read (0). A first word of hexsz bytes is the
 * grammar's ID whatever it holds, so the engine alone judges its digits: here only no
 * blank in it is tested.
 */
HEXOID_INLINE int blame_group(const char *s, size_t n, size_t hexsz)
{
	if (n < hexsz + 4 || s[hexsz] != ' ' || !no_blank(s, hexsz))
		return -1;
	size_t last;
	unsigned count = fast_numbers(s, hexsz + 1, n, &last);
	return count == 2 || count == 3;
}

/* fast_header's first step: a name shorter than 16 bytes (every header git prints) in a
 * line of 16 bytes or more, in one block. Returns whether that settled it, the answer in
 * *is. */
HEXOID_INLINE int header_block(const char *s, size_t n, int *is)
{
#if defined(SCAN_SSE2)
	if (n >= 16) {
		uint32_t late, other = ~scan_header_name16(s, &late) & 0xffff;
		if (other) {
			unsigned k = (unsigned)__builtin_ctz(other);
			*is = (late & ((1u << k) - 1)) && s[k] == ' ';
			return 1;
		}
	}
#else
	(void)s;
	(void)n;
	(void)is;
#endif
	return 0;
}

/* Does the line s[0, n) begin with a header's name shorter than an ID (lowercase letters,
 * digits and '-', with a letter past 'f'), then a space or the end? Eight bytes at a
 * time while the line has them. */
HEXOID_INLINE int fast_header(const char *s, size_t n)
{
	const uint64_t top = 0x8080808080808080ull;
	size_t i = 0;
	uint64_t letters = 0;
	int is;
	if (header_block(s, n, &is))
		return is;
	for (; i + 8 <= n && i < 32; i += 8) {
		uint64_t w = scan_le64(s + i);
		uint64_t other = ~(bytes_in(w, 'a', 'z') | bytes_in(w, '0', '9') | bytes_in(w, '-', '-')) & top;
		if (other) {
			size_t k = (size_t)__builtin_ctzll(other) / 8;
			letters |= bytes_in(w, 'g', 'z') & ((1ull << (8 * k)) - 1);
			i += k;
			return letters && i < 38 && s[i] == ' ';
		}
		letters |= bytes_in(w, 'g', 'z');
	}
	for (; i < n && i < 38; i++) {
		unsigned char b = (unsigned char)s[i];
		if (!((unsigned char)(b - 'a') < 26 || (unsigned char)(b - '0') < 10 || b == '-'))
			break;
		letters |= b >= 'g';
	}
	return letters && i < 38 && (i == n || s[i] == ' ');
}

/* How many bytes the line s[0, n) begins with that git log --graph draws with
 * (" *-./\\_|"); room bytes are readable from s. Sixteen at once where the buffer has
 * them (those past a shorter line's end taken for its end): no loop that ends at a
 * different byte on each line for the branch predictor to miss. */
HEXOID_INLINE size_t graph_width(const char *s, size_t n, size_t room)
{
	const uint64_t marks = 1ull << 0 | 1ull << 10 | 1ull << 13 | 1ull << 14 | 1ull << 15 |
			       1ull << 60 | 1ull << 63; /* " *-./\\_" from ' ' */
	size_t p = 0;
#if defined(SCAN_SSE2)
	if (room >= 16) {
		uint32_t g = (~scan_graph16(s) | (n < 16 ? 0xffffu << n : 0)) & 0xffff;
		if (g)
			return (size_t)__builtin_ctz(g);
		p = 16;
	}
#else
	(void)room;
#endif
	for (; p < n; p++) {
		unsigned b = (unsigned char)s[p] - ' ';
		if (!(b < 64 && (marks >> b & 1)) && s[p] != '|')
			break;
	}
	return p;
}

/* ls-files --stage: <mode> <oid> <stage>TAB<path>. */
HEXOID_INLINE unsigned fast_ls_files(const char *s, size_t n, size_t hexsz, unsigned char *col)
{
	size_t e = 7 + hexsz;
	col[0] = 7;
	return n >= hexsz + 11 && fast_mode(s) && s[e] == ' ' && (unsigned char)(s[e + 1] - '0') < 4 &&
			       s[e + 2] == '\t'
		       ? REC_FAST
		       : 0;
}

/* From s[p] in the line s[0, n): a mark (:<n>) or an ID that ends the line, as
 * fast-export's from, merge and original-oid; the line's REC_* kind, or 0. */
HEXOID_INLINE unsigned fast_mark_or_id(const char *s, size_t p, size_t n, size_t hexsz,
				       unsigned char *col)
{
	if (s[p] == ':')
		return fast_number(s, p + 1, n) == n ? REC_NONE : 0;
	col[0] = (unsigned char)p;
	return n == p + hexsz ? REC_FAST_END : 0;
}

/*
 * fast-export's common commands: commit, author, committer, reset, tag, tagger (the
 * rest of the line anything), blob, mark :<n>, original-oid <oid>, from and merge with
 * a mark or an ID, data <n> (up to 19 digits: no overflow to saturate), M <mode> with a
 * mark, an ID or "inline", a space and a path, D <path>, blank lines. The others (N,
 * C, R, feature, option, progress, ...) go to the grammar.
 */
HEXOID_INLINE unsigned fast_export(const char *s, size_t n, size_t hexsz, unsigned char *col,
				   unsigned long long *data)
{
	if (!n)
		return REC_NONE;
	switch (s[0]) {
	case 'M':
		if (n < 11 || s[1] != ' ' || !fast_mode(s + 2))
			return 0;
		if (s[9] == ':') {
			size_t q = fast_number(s, 10, n);
			return q && s[q] == ' ' && q + 1 < n ? REC_NONE : 0;
		}
		if (n >= 15 && !memcmp(s + 9, "inline", 6)) /* the grammar takes the word first */
			return s[15] == ' ' && n > 16 ? REC_NONE : 0;
		col[0] = 9;
		return n > hexsz + 10 && s[hexsz + 9] == ' ' ? REC_FAST : 0;
	case 'c':
		return (n >= 7 && !memcmp(s, "commit ", 7)) || (n >= 10 && !memcmp(s, "committer ", 10))
			       ? REC_NONE
			       : 0;
	case 'a':
		return n >= 7 && !memcmp(s, "author ", 7) ? REC_NONE : 0;
	case 'm':
		if (n > 6 && !memcmp(s, "mark :", 6))
			return fast_number(s, 6, n) == n ? REC_NONE : 0;
		return n > 6 && !memcmp(s, "merge ", 6) ? fast_mark_or_id(s, 6, n, hexsz, col) : 0;
	case 'o':
		col[0] = 13;
		return n == 13 + hexsz && !memcmp(s, "original-oid ", 13) ? REC_FAST_END : 0;
	case 'f':
		return n > 5 && !memcmp(s, "from ", 5) ? fast_mark_or_id(s, 5, n, hexsz, col) : 0;
	case 'd': {
		if (n < 6 || n > 5 + 19 || scan_le32(s) != WORD4('d', 'a', 't', 'a') || s[4] != ' ' ||
		    fast_number(s, 5, n) != n)
			return 0;
		unsigned long long v = 0;
		for (size_t i = 5; i < n; i++)
			v = v * 10 + (unsigned)(s[i] - '0');
		*data = v;
		return REC_NONE;
	}
	case 'b':
		return n == 4 && scan_le32(s) == WORD4('b', 'l', 'o', 'b') ? REC_NONE : 0;
	case 'r':
		return n >= 6 && !memcmp(s, "reset ", 6) ? REC_NONE : 0;
	case 't':
		return (n >= 4 && !memcmp(s, "tag ", 4)) || (n >= 7 && !memcmp(s, "tagger ", 7)) ? REC_NONE : 0;
	case 'D':
		return n >= 2 && s[1] == ' ' ? REC_NONE : 0;
	default:
		return 0;
	}
}

/*
 * Is the line s[0, n) (s[n] ends it: a newline, or a NUL for -z) a fast line of the
 * format: one the grammar
 * takes whole, whose only items are one to three IDs, or none? Returns its REC_* kind
 * with their 0-based columns in col[], or 0 when the grammar must look. Never wrong the
 * other way: a line it takes is such a line, with its IDs where the grammar has them
 * (whether their digits are good is the engine's to say), and leaves the format's state
 * (*statep, written only for a line it takes) as the grammar would. Reads only s[0, n]
 * (and, for a block of 16 bytes, s[0, room): the caller's buffer from s); every test
 * stops at the end of the line. A fast-export line "data <n>" sets *data to n (the
 * block that follows, for the checker to skip).
 */
HEXOID_INLINE unsigned fast_kind(const char *s, size_t n, size_t room, size_t hexsz,
				 enum hexoid_format format, unsigned *statep, unsigned char *col,
				 unsigned long long *data)
{
	unsigned state = *statep;
	col[0] = 0;
	switch (format) {
	case HEXOID_FORMAT_PACK_OBJECTS: /* <oid>[ <name>], -<oid> (an edge) */
		if (s[0] == '-') {
			col[0] = 1;
			return n == hexsz + 1 ? REC_FAST_END : 0;
		}
		state = REV_OBJECTS;
		/* fall through */
	case HEXOID_FORMAT_REV_LIST: /* <oid>, <oid> SP, <oid> <path>, <oid> <oid> */
		/* A mark and an ID alone (--boundary's -<oid>, --left-right's <<oid>, ...),
		 * where the grammar leaves the state as it is: it takes the hexsz bytes after
		 * the mark as the ID whatever they hold, so only the engine judges them. */
		if (n == hexsz + 1 && (state == REV_BARE || state == REV_OBJECTS) &&
		    rev_list_mark(s[0])) {
			col[0] = 1;
			return REC_FAST_END;
		}
		/* Otherwise only a line that starts with a hex digit. */
		if (n < hexsz || !is_hex((unsigned char)s[0]))
			return 0;
		if (s[hexsz] == '\n') /* an ID alone: the grammar takes the first */
			return state == REV_BARE || state == REV_OBJECTS ? REC_FAST_END : 0;
		if (s[hexsz] != ' ')
			return 0;
		if (state == REV_OBJECTS)
			return REC_FAST;
		/* In the commits, "<oid> <oid>[ <oid>]" whose later IDs are all hex digits,
		 * either case (the grammar's surest shape of an ID): %H %T, --parents and a
		 * merge's. */
		if ((state != REV_COMMITS && state != REV_BARE) ||
		    (n != 2 * hexsz + 1 && (n != 3 * hexsz + 2 || s[2 * hexsz + 1] != ' ')))
			return 0;
		if (!scan_all_hex(s + hexsz + 1, hexsz) ||
		    (n > 2 * hexsz + 1 && !scan_all_hex(s + 2 * hexsz + 2, hexsz)))
			return 0;
		col[1] = (unsigned char)(hexsz + 1);
		col[2] = (unsigned char)(2 * hexsz + 2);
		return n == 2 * hexsz + 1 ? REC_FAST2_END : REC_FAST3_END;
	case HEXOID_FORMAT_BATCH_CHECK: { /* <oid> <type> <size> */
		/* The shortest is "<oid> tag 0". A line that ends in a digit is never one
		 * of the "<name> missing" lines the grammar lets by. */
		if (n < hexsz + 6)
			return 0;
		uint32_t w = scan_le32(s + hexsz + 1);
		size_t t = 4 * (size_t)((w == WORD4('b', 'l', 'o', 'b')) | (w == WORD4('t', 'r', 'e', 'e'))) +
			   3 * (size_t)(w == WORD4('t', 'a', 'g', ' ')) +
			   6 * (size_t)((w == WORD4('c', 'o', 'm', 'm')) &
					(scan_le16(s + hexsz + 5) == ('i' | 't' << 8)));
		size_t space = hexsz + 1 + t; /* where the space before the size must be */
		if (state != BATCH_PLAIN)
			goto deltabase;
		/* The size: the line's last byte that is not a digit must be that space.
		 * Looking at the last 16 bytes (n >= 46) takes sizes of up to 15 digits;
		 * longer ones go to the grammar. */
#if defined(SCAN_SSE2)
		uint32_t spaces, other = ~scan_digits16(s + n - 16, &spaces) & 0xffff;
		size_t last = other ? n - 16 + (size_t)(31 - __builtin_clz(other)) : 0;
#else
		uint64_t last8 = nondigits(scan_le64(s + n - 8));
		uint64_t prev8 = nondigits(scan_le64(s + n - 16));
		size_t last = last8 ? n - 8 + (size_t)(63 - __builtin_clzll(last8)) / 8
			    : prev8 ? n - 16 + (size_t)(63 - __builtin_clzll(prev8)) / 8
				    : 0;
#endif
		int ok = (s[hexsz] == ' ') & (t != 0) & (last == space) & (s[last] == ' ') &
			 (space + 1 < n);
		/* The first such line goes to the grammar: it tells that the listing has
		 * no %(deltabase) (BATCH_PLAIN). */
		return ok ? REC_FAST : 0;
	deltabase:
		/* <oid> <type> <size> <size> <deltabase>, the deltabase all hex digits (as
		 * the grammar's surest shape of an ID: so its sizes_follow() is true). (No
		 * line has both shapes: this one's type ends 41 bytes or more before its
		 * last 16, where the one above has its type's space. So a line of that
		 * shape, which goes to the grammar in any other state, goes there from
		 * here too.) */
		if (s[hexsz] != ' ' || !t || s[space] != ' ' || n < space + 5 + hexsz)
			return 0;
		size_t second, e = n - hexsz - 1;
		if (s[e] != ' ' || fast_numbers(s, space + 1, e, &second) != 2 ||
		    !scan_all_hex(s + e + 1, hexsz))
			return 0;
		col[1] = (unsigned char)(e + 1);
		return REC_FAST2_END;
	}
	case HEXOID_FORMAT_LS_TREE: /* <mode> <type> <oid>[ <size>]TAB<path> */
	case HEXOID_FORMAT_LS_TREE_Z: {
		if (n < hexsz + 13 || !fast_mode(s))
			return 0;
		size_t t = fast_type(s + 7), e = 8 + t + hexsz;
		if (!t || s[7 + t] != ' ' || e + 1 >= n)
			return 0;
		if (s[e] == ' ') { /* -l: the size, right-aligned, or '-' */
			size_t p = e;
			while (s[p] == ' ')
				p++;
			size_t q = s[p] == '-' ? p + 1 : fast_number(s, p, n);
			if (!q || q == p || s[q] != '\t')
				return 0;
			e = q;
		}
		col[0] = (unsigned char)(8 + t);
		return s[e] == '\t' && e + 1 < n ? REC_FAST : 0;
	}
	case HEXOID_FORMAT_LS_FILES: /* <mode> <oid> <stage>TAB<path> */
	case HEXOID_FORMAT_LS_FILES_Z:
		return fast_ls_files(s, n, hexsz, col);
	case HEXOID_FORMAT_GRAPH: {
		/* The graph, then one to three IDs (fast_ids' shape, id_fields reads them
		 * so), or nothing after it; none of the graph's bytes is a hex digit. The
		 * IDs' columns must fit col[]. */
		size_t p = graph_width(s, n, room);
		if (!p)
			return 0;
		if (p == n)
			return REC_NONE;
		if (p + 3 * hexsz + 3 > 255)
			return 0;
		unsigned k = fast_id_fields(s, p, n, hexsz, col);
		return k ? k : fast_ids(s, p, n, hexsz, 1, col);
	}
	case HEXOID_FORMAT_ID_FIELDS: { /* <oid>[TAB<oid>[ <oid>]], and empty lines */
		if (!n)
			return REC_NONE;
		unsigned k = fast_id_fields(s, 0, n, hexsz, col);
		return k || n < hexsz ? k : fast_ids(s, 0, n, hexsz, 1, col);
	}
	case HEXOID_FORMAT_BLAME: {
		/* In a group: the file's line after a tab; previous <oid> <path>; a header
		 * (its name lowercase letters, digits and '-' with a letter past 'f', then a
		 * space or the end: the grammar's header_name, which is the whole first
		 * word, shorter than an ID). A group's first line at any time (blame_group),
		 * which puts the listing in its groups. */
		if (state == BLAME_IN && s[0] == '\t' && n)
			return REC_NONE;
		/* (A group's first line before the headers: a header's name is shorter than
		 * an ID, and fast_header would read the ID's whole length to say so.) */
		int group = blame_group(s, n, hexsz);
		if (group > 0) {
			*statep = BLAME_IN;
			return REC_FAST;
		}
		if (!group || state != BLAME_IN)
			return 0;
		if (blame_previous(s, n)) {
			col[0] = 9;
			return n > 10 + hexsz && s[9 + hexsz] == ' ' ? REC_FAST : 0;
		}
		return fast_header(s, n) ? REC_NONE : 0;
	}
	case HEXOID_FORMAT_REF_PEELED: /* <oid> <peeled> <ref>, or <oid>  <ref> */
		if (n <= hexsz + 2 || s[hexsz] != ' ')
			return 0;
		if (s[hexsz + 1] == ' ')
			return fast_ref(s, hexsz + 2, n) ? REC_FAST : 0;
		col[1] = (unsigned char)(hexsz + 1);
		return n > 2 * hexsz + 2 && s[2 * hexsz + 1] == ' ' && fast_ref(s, 2 * hexsz + 2, n)
			       ? REC_FAST2
			       : 0;
	case HEXOID_FORMAT_REPLACE: {
		/* <oid> (short), <oid> -> <oid> (medium), <oid> (<type>) -> <oid> (<type>)
		 * (long): the types as the grammar's type_word reads them, a prefix of
		 * what follows. */
		if (n == hexsz)
			return REC_FAST_END;
		if (n < 2 * hexsz + 4 || s[hexsz] != ' ')
			return 0;
		if (s[hexsz + 1] == '-') {
			col[1] = (unsigned char)(hexsz + 4);
			return n == 2 * hexsz + 4 && s[hexsz + 2] == '>' && s[hexsz + 3] == ' ' ? REC_FAST2_END : 0;
		}
		if (s[hexsz + 1] != '(' || n < 2 * hexsz + 16)
			return 0;
		size_t t = fast_type(s + hexsz + 2), q = hexsz + 2 + t;
		if (!t || scan_le32(s + q) != WORD4(')', ' ', '-', '>') || s[q + 4] != ' ')
			return 0;
		q += 5; /* the replacement's ID */
		col[1] = (unsigned char)q;
		q += hexsz;
		/* " (<type>)" ends the line: the type is all the bytes before the ')' (its
		 * word read to the ')', which it may end before). */
		if (n < q + 6 || n > q + 9 || s[q] != ' ' || s[q + 1] != '(' || s[n - 1] != ')')
			return 0;
		uint32_t w = scan_le32(s + q + 2);
		size_t u = n - q - 3;
		int ok = u == 4   ? w == WORD4('b', 'l', 'o', 'b') || w == WORD4('t', 'r', 'e', 'e')
		       : u == 3 ? (w & 0xffffff) == WORD4('t', 'a', 'g', 0)
		       : u == 6 ? w == WORD4('c', 'o', 'm', 'm') && scan_le16(s + q + 6) == ('i' | 't' << 8)
				: 0;
		return ok ? REC_FAST2 : 0;
	}
	case HEXOID_FORMAT_WORKTREES:
		/* worktree <path> (which begins a worktree), then HEAD <oid>, branch <ref>,
		 * detached, bare, locked[ <reason>], prunable[ <reason>], blank lines. */
		if (n > 9 && !memcmp(s, "worktree ", 9)) {
			*statep = WORKTREES_IN;
			return REC_NONE;
		}
		if (state != WORKTREES_IN)
			return 0;
		if (n == 5 + hexsz && scan_le32(s) == WORD4('H', 'E', 'A', 'D') && s[4] == ' ') {
			col[0] = 5;
			return REC_FAST_END;
		}
		/* (Words read whole: GCC makes memcmp of 6 or 7 bytes a call.) */
		if (!n ||
		    (n > 7 && scan_le32(s) == WORD4('b', 'r', 'a', 'n') &&
		     scan_le32(s + 3) == WORD4('n', 'c', 'h', ' ') && fast_ref(s, 7, n)) ||
		    (n == 8 && !memcmp(s, "detached", 8)) || (n == 4 && !memcmp(s, "bare", 4)) ||
		    (n >= 6 && scan_le32(s) == WORD4('l', 'o', 'c', 'k') &&
		     scan_le16(s + 4) == ('e' | 'd' << 8) && (n == 6 || s[6] == ' ')) ||
		    (n >= 8 && !memcmp(s, "prunable", 8) && (n == 8 || s[8] == ' ')))
			return REC_NONE;
		return 0;
	case HEXOID_FORMAT_TEXT:
		/* An ID first (log --oneline --no-abbrev-commit, and the like), then no other
		 * word of letters and digits as long as an ID less two; or no such word at
		 * all: the heuristic has nothing else in the line to check. */
		if (n >= hexsz && scan_all_hex(s, hexsz) &&
		    (n == hexsz || !ascii_alnum((unsigned char)s[hexsz])))
			return no_long_word(s + hexsz, n - hexsz, hexsz - 2)
				       ? (n == hexsz ? REC_FAST_END : REC_FAST)
				       : 0;
		return no_long_word(s, n, hexsz - 2) ? REC_NONE : 0;
	case HEXOID_FORMAT_SUBMODULE_STATUS: /* a mark (' ', '+', '-', 'U'), <oid> <path>... */
		col[0] = 1;
		return n > hexsz + 2 && (s[0] == ' ' || s[0] == '+' || s[0] == '-' || s[0] == 'U') &&
				       s[hexsz + 1] == ' '
			       ? REC_FAST
			       : 0;
	case HEXOID_FORMAT_MERGE_TREE:
		/* A conflicted entry as ls-files prints it (the grammar's, as it has a mode
		 * first), or a path (--name-only) or message with no word of letters and
		 * digits that could be an ID. */
		if (state == MERGE_MESSAGES || (state == MERGE_NAMES && n))
			return no_long_word(s, n, hexsz - 2) ? REC_NONE : 0;
		return state == MERGE_ENTRIES ? fast_ls_files(s, n, hexsz, col) : 0;
	case HEXOID_FORMAT_MERGE_TREE_Z: {
		/* A conflicted entry, as merge-tree's; then the messages, each its count of
		 * paths (one or two digits here), the paths, its type and its text (with no
		 * word of letters and digits that could be an ID), each record moving the
		 * state on as the grammar does. */
		unsigned stdin_ = state & MERGEZ_STDIN, st = state & ~MERGEZ_STDIN, next;
		if (st == MERGEZ_ENTRIES)
			return fast_ls_files(s, n, hexsz, col);
		if (st == MERGEZ_COUNT) {
			if (!n || n > 2)
				return 0;
			unsigned d0 = (unsigned char)(s[0] - '0');
			unsigned d1 = n == 2 ? (unsigned char)(s[1] - '0') : 0;
			if (d0 > 9 || d1 > 9)
				return 0;
			unsigned v = n == 1 ? d0 : 10 * d0 + d1;
			*statep = (v ? MERGEZ_PATHS + v : MERGEZ_TYPE) | stdin_;
			return REC_NONE;
		}
		if (st == MERGEZ_TYPE)
			next = MERGEZ_TEXT;
		else if (st == MERGEZ_TEXT)
			next = MERGEZ_COUNT;
		else if (st > MERGEZ_PATHS)
			next = st == MERGEZ_PATHS + 1 ? MERGEZ_TYPE : st - 1;
		else
			return 0;
		if (!no_long_word(s, n, hexsz - 2))
			return 0;
		*statep = next | stdin_;
		return REC_NONE;
	}
	case HEXOID_FORMAT_DIFF_RAW: { /* :<mode> <mode> <oid> <oid> <status>TAB<path> */
		/* diff-tree's commit line: <oid>[ <parent>...] (fast_ids' shape, the last ID
		 * ending the line), not after log --raw's blank line; that blank line, after
		 * a commit's line. A line of the diff, after any line. */
		if (s[0] != ':') {
			if (!n) {
				if (state != DIFF_COMMIT)
					return 0;
				*statep = DIFF_BLANK;
				return REC_NONE;
			}
			unsigned k = state != DIFF_BLANK && n >= hexsz ? fast_ids(s, 0, n, hexsz, 0, col) : 0;
			if (!(k & 1))
				return 0;
			*statep = DIFF_COMMIT;
			return k;
		}
		if (n < 2 * hexsz + 20 || s[1] == ':' || !fast_mode(s + 1) || !fast_mode(s + 8) ||
		    s[15 + hexsz] != ' ' || s[16 + 2 * hexsz] != ' ')
			return 0;
		size_t p = 17 + 2 * hexsz;
		if (!diff_status(s[p]))
			return 0;
		p++;
		while ((unsigned char)(s[p] - '0') < 10) /* a copy's or rename's score */
			p++;
		col[0] = 15;
		col[1] = (unsigned char)(16 + hexsz);
		if (s[p] != '\t' || p + 1 >= n)
			return 0;
		*statep = DIFF_DIFF;
		return REC_FAST2;
	}
	case HEXOID_FORMAT_FOR_EACH_REF: { /* <oid> <type>TAB<ref> */
		if (n < hexsz + 6 || s[hexsz] != ' ')
			return 0;
		size_t t = fast_type(s + hexsz + 1);
		return t && s[hexsz + 1 + t] == '\t' && fast_ref(s, hexsz + 2 + t, n) ? REC_FAST : 0;
	}
	case HEXOID_FORMAT_PACKED_REFS: /* the header, <oid> <ref>, ^<oid> */
		if (s[0] == '^') {
			col[0] = 1;
			return n == hexsz + 1 ? REC_FAST_END : 0;
		}
		if (s[0] == '#')
			return 0;
		/* fall through */
	case HEXOID_FORMAT_SHOW_REF: /* <oid> <ref> */
	case HEXOID_FORMAT_PROMISOR:
		return n > hexsz + 1 && s[hexsz] == ' ' && fast_ref(s, hexsz + 1, n) ? REC_FAST : 0;
	case HEXOID_FORMAT_LS_REMOTE: /* <oid>TAB<ref>, and ref: <target>TAB<ref> */
		if (n <= hexsz + 1 || !memcmp(s, "ref: ", 5))
			return 0;
		return s[hexsz] == '\t' && fast_ref(s, hexsz + 1, n) ? REC_FAST : 0;
	case HEXOID_FORMAT_REFLOG: /* <old> <new> <ident> <time> <tz>TAB<message> */
		col[1] = (unsigned char)(hexsz + 1);
		return n > 2 * hexsz + 2 && s[hexsz] == ' ' && s[2 * hexsz + 1] == ' ' ? REC_FAST2 : 0;
	case HEXOID_FORMAT_FETCH_HEAD: /* <oid>TAB[not-for-merge]TAB<description> */
		return n >= hexsz + 2 && s[hexsz] == '\t' &&
				       (s[hexsz + 1] == '\t' ||
					(n >= hexsz + 15 && !memcmp(s + hexsz + 1, "not-for-merge\t", 14)))
			       ? REC_FAST
			       : 0;
	case HEXOID_FORMAT_MARKS: { /* :<mark> <oid> */
		/* The ID ends the line, so the space before it is at d and the mark is
		 * s[1, d): 1 to 20 digits, for a short mark one block's digit mask. */
		size_t d = n - hexsz - 1;
		if (n < hexsz + 3 || s[0] != ':' || s[d] != ' ')
			return 0;
		col[0] = (unsigned char)(d + 1);
#if defined(SCAN_SSE2)
		if (d <= 16) {
			uint32_t sp, mark = (1u << d) - 2; /* bits 1 to d - 1 */
			return (scan_digits16(s, &sp) & mark) == mark ? REC_FAST_END : 0;
		}
#endif
		return fast_number(s, 1, n) == d ? REC_FAST_END : 0;
	}
	case HEXOID_FORMAT_SHOW_INDEX: { /* <offset> <oid>[ (<crc32>)] */
		size_t d = fast_number(s, 0, n), e = d + 1 + hexsz;
		if (!d || s[d] != ' ' || n < e)
			return 0;
		col[0] = (unsigned char)(d + 1);
		if (n == e)
			return REC_FAST_END;
		const uint64_t all = 0x8080808080808080ull;
		return n == e + 11 && s[e] == ' ' && s[e + 1] == '(' && s[e + 10] == ')' &&
				       (bytes_in(scan_le64(s + e + 2), '0', '9') |
					bytes_in(scan_le64(s + e + 2), 'a', 'f')) == all
			       ? REC_FAST
			       : 0;
	}
	case HEXOID_FORMAT_FSCK: {
		/* dangling|unreachable|missing <type> <oid>, root <oid>,
		 * tagged <type> <oid> (<name>) in <oid> */
		if (n == 5 + hexsz && !memcmp(s, "root ", 5)) {
			col[0] = 5;
			return REC_FAST_END;
		}
		size_t k = s[0] == 'd' && n > 9 && !memcmp(s, "dangling ", 9)	     ? 9
			 : s[0] == 'u' && n > 12 && !memcmp(s, "unreachable ", 12) ? 12
			 : s[0] == 'm' && n > 8 && !memcmp(s, "missing ", 8)	     ? 8
			 : s[0] == 't' && n > 7 && !memcmp(s, "tagged ", 7)	     ? 7
										     : 0;
		if (!k || n < k + 5 + hexsz)
			return 0;
		size_t t = fast_type(s + k), e = k + t + 1 + hexsz;
		if (!t || s[k + t] != ' ')
			return 0;
		col[0] = (unsigned char)(k + t + 1);
		if (k != 7)
			return n == e ? REC_FAST_END : 0;
		/* The tag's name may hold anything: the last ") in " ends it. */
		if (n < e + 7 + hexsz || s[e] != ' ' || s[e + 1] != '(' ||
		    memcmp(s + n - hexsz - 5, ") in ", 5))
			return 0;
		col[1] = (unsigned char)(n - hexsz);
		return REC_FAST2_END;
	}
	case HEXOID_FORMAT_VERIFY_PACK: {
		/* <oid> <type> <size> <size-in-pack> <offset>[ <depth> <base>], the type
		 * padded to 6 with spaces. Not a summary line ("non delta: ", "chain length = ",
		 * or one that ends in ": ok"): the grammar passes over those, so must this. */
		size_t k = hexsz + 1;
		if (n < k + 13 || s[hexsz] != ' ' || !memcmp(s + n - 4, ": ok", 4) ||
		    !memcmp(s, "non delta: ", 11) || !memcmp(s, "chain length = ", 15))
			return 0;
		size_t t = fast_type(s + k);
		if (!t)
			return 0;
		for (size_t i = k + t; i <= k + 6; i++)
			if (s[i] != ' ')
				return 0;
		/* Three numbers end the line; or four (the last, the depth, of at most 10
		 * digits) and the base's ID, which is the engine's to judge. A line that
		 * could be both (numbers of more than 40 bytes) is the grammar's. */
		size_t last, e = n - hexsz - 1;
		if (n < k + 15 + hexsz || s[e] != ' ')
			return fast_numbers(s, k + 7, n, &last) == 3 ? REC_FAST : 0;
		if (fast_numbers(s, k + 7, e, &last) != 4 || e - last > 10)
			return 0;
		col[1] = (unsigned char)(e + 1);
		return REC_FAST2_END;
	}
	case HEXOID_FORMAT_BUNDLE: /* among the refs: <oid> <ref>, -<oid>[ <subject>] */
		if (state != BUNDLE_REFS || n <= hexsz || s[0] == '@')
			return 0;
		if (s[0] == '-') {
			col[0] = 1;
			return n == hexsz + 1 ? REC_FAST_END : s[hexsz + 1] == ' ' ? REC_FAST : 0;
		}
		return n > hexsz + 1 && s[hexsz] == ' ' && fast_ref(s, hexsz + 1, n) ? REC_FAST : 0;
	case HEXOID_FORMAT_REV_LIST_FORMAT: {
		/* After the first commit line: commit <oid>[ <parent>...], a line of IDs
		 * (%H, %T, %P: fast_ids' shape, as ids_follow takes it surest), or text the
		 * grammar passes over: not a commit line, neither a first word that
		 * ids_follow could take for an ID (hexsz bytes give or take two), nor a word
		 * of letters and digits that --format=text could (hexsz - 2 or more). */
		if (state != REVF_COMMITS)
			return 0;
		unsigned k;
		if (n >= 7 && scan_le32(s) == WORD4('c', 'o', 'm', 'm') &&
		    scan_le32(s + 3) == WORD4('m', 'i', 't', ' '))
			return n >= 7 + hexsz ? fast_ids(s, 7, n, hexsz, 0, col) : 0;
		if (n >= hexsz && (k = fast_ids(s, 0, n, hexsz, 0, col)))
			return k;
		size_t t = s[0] == ' ' ? 0 : fast_space(s, n);
		return (t + 2 < hexsz || t > hexsz + 2) && no_long_word(s, n, hexsz - 2)
			       ? REC_NONE
			       : 0;
	}
	case HEXOID_FORMAT_CHERRY: /* + <oid>[ <subject>], - <oid>[ <subject>] */
		col[0] = 2;
		if ((s[0] != '+' && s[0] != '-') || n < hexsz + 2 || s[1] != ' ')
			return 0;
		return n == hexsz + 2 ? REC_FAST_END : s[hexsz + 2] == ' ' ? REC_FAST : 0;
	case HEXOID_FORMAT_FAST_EXPORT:
		return fast_export(s, n, hexsz, col, data);
	case HEXOID_FORMAT_PRETTY_RAW: {
		/* After the first line (which says whose headers these are): a message's
		 * lines, passed over; a blank line; commit <oid>[ <parent>...] (fast_ids'
		 * shape, the last ID ending the line); in the headers, tree, parent, object
		 * and mergetag object <oid>, a line more of a header (a space first), and a
		 * header named as the grammar's header_name reads it (fast_header: a name
		 * under 38 bytes) that is none of those. */
		if (state == PRAW_FREE)
			return REC_NONE;
		if (state == PRAW_START)
			return 0;
		if (!n) {
			*statep = state == PRAW_OBJECT ? PRAW_FREE : PRAW_BLANK;
			return REC_NONE;
		}
		int commit = n >= 7 && scan_le32(s) == WORD4('c', 'o', 'm', 'm') &&
			     scan_le32(s + 3) == WORD4('m', 'i', 't', ' ');
		if (state == PRAW_MESSAGE || (state == PRAW_BLANK && !commit)) {
			*statep = PRAW_MESSAGE;
			return REC_NONE;
		}
		if (commit) { /* in cat-file's headers, the grammar's to read */
			unsigned k = state != PRAW_OBJECT && n >= 7 + hexsz ? fast_ids(s, 7, n, hexsz, 0, col) : 0;
			if (!(k & 1))
				return 0;
			*statep = PRAW_HEADERS;
			return k;
		}
		if (s[0] == ' ')
			return REC_NONE;
		size_t h = n >= 5 && scan_le32(s) == WORD4('t', 'r', 'e', 'e') && s[4] == ' '	   ? 5
			 : n >= 7 && !memcmp(s, "parent ", 7)					   ? 7
			 : n >= 7 && !memcmp(s, "object ", 7)					   ? 7
			 : n >= 16 && !memcmp(s, "mergetag object ", 16)			   ? 16
											   : 0;
		if (h) {
			col[0] = (unsigned char)h;
			return n == h + hexsz ? REC_FAST_END : 0;
		}
		return fast_header(s, n) ? REC_NONE : 0;
	}
	default:
		return 0;
	}
}

/* A fast line's ID at column col of the line s into the batch's slot. */
HEXOID_INLINE void take_id(struct hexoid_listing *l, size_t slot, const char *s, unsigned char col,
			   size_t hexsz)
{
	l->slot_col[slot] = col;
	scan_copy_id(l->packed + slot * hexsz, s + col, hexsz);
}

/*
 * The loops of their own for the commonest lines of a format (graph_lines, blame_lines),
 * out of lines_loop so that they leave its registers as they were: each reads its lines
 * as fast_kind reads them, from r.p (whose newline is r.nl) while the batch has room, and
 * returns where it stopped (len, or a line of another shape, left for lines_loop) and the
 * run's counts.
 */
struct fast_run {
	size_t p, nl;
	struct nlscan sc;
	uint32_t rel;
	size_t nslots, nrecs;
};

/* What the scan's fields are, to the compiler (the listing's buffer, and newlines: both
 * formats of these loops end lines so): no register or load for each. */
HEXOID_INLINE void fast_run_known(struct fast_run *r, const char *buf, size_t len)
{
	r->sc.buf = buf;
	r->sc.len = len;
	r->sc.eol = '\n';
}

/* A loop's copies out of line, one for each hash (NAME_40, NAME_64), hexsz a constant in
 * each. */
#define FAST_RUN_COPIES(name)                                                                    \
	static HEXOID_NOINLINE struct fast_run name##_40(struct hexoid_listing *l, const char *buf, \
							 size_t len, struct fast_run r,             \
							 ptrdiff_t last_slot)                       \
	{                                                                                        \
		return name(l, buf, len, r, last_slot, 40);                                      \
	}                                                                                        \
	static HEXOID_NOINLINE struct fast_run name##_64(struct hexoid_listing *l, const char *buf, \
							 size_t len, struct fast_run r,             \
							 ptrdiff_t last_slot)                       \
	{                                                                                        \
		return name(l, buf, len, r, last_slot, 64);                                      \
	}

/* log --graph: the graph alone, or the graph and one ID that ends the line. */
HEXOID_INLINE struct fast_run graph_lines(struct hexoid_listing *l, const char *buf, size_t len,
					   struct fast_run r, ptrdiff_t last_slot, size_t hexsz)
{
	fast_run_known(&r, buf, len);
	for (;;) {
		const char *g = buf + r.p;
		size_t n = r.nl - r.p, w = graph_width(g, n, len - r.p);
		if (!w || r.rel >= REL_LIMIT)
			break;
		if (w != n) {
			if (n - w != hexsz || g[w] == '\t' || w + 3 * hexsz + 3 > 255 ||
			    (ptrdiff_t)r.nslots > last_slot)
				break;
			l->recs[r.nrecs++] = r.rel << REC_SHIFT | REC_FAST_END;
			take_id(l, r.nslots++, g, (unsigned char)w, hexsz);
		}
		r.rel++;
		r.p = r.nl + 1;
		if (r.p == len)
			break;
		r.nl = scan_next(&r.sc);
	}
	return r;
}

FAST_RUN_COPIES(graph_lines)

/* fast_header out of line, for blame_lines: the registers of its loop are its lines'. */
static HEXOID_NOINLINE int blame_header(const char *s, size_t n)
{
	return fast_header(s, n);
}

/* fast_header for blame_lines: its first block here (most of blame's headers), the rest
 * out of line. */
HEXOID_INLINE int blame_header_inline(const char *s, size_t n)
{
	int is;
	return header_block(s, n, &is) ? is : blame_header(s, n);
}

/* blame, in a group (where every fast line leaves it): its lines as fast_kind reads them
 * there, the file's lines (a tab, then the text) first, then the groups' first lines,
 * the headers and previous lines. */
HEXOID_INLINE struct fast_run blame_lines(struct hexoid_listing *l, const char *buf, size_t len,
					  struct fast_run r, ptrdiff_t last_slot, size_t hexsz)
{
	fast_run_known(&r, buf, len);
	/* In locals, not r's fields: GCC kept those in memory, r being returned there. */
	struct nlscan sc = r.sc;
	size_t p = r.p, nl = r.nl, nslots = r.nslots, nrecs = r.nrecs;
	uint32_t rel = r.rel;
	while (rel < REL_LIMIT) {
		const char *s = buf + p;
		size_t n = nl - p;
		if (s[0] != '\t') {
			int group = blame_group(s, n, hexsz);
			if (group > 0 && (ptrdiff_t)nslots <= last_slot) {
				l->recs[nrecs++] = rel << REC_SHIFT | REC_FAST;
				take_id(l, nslots++, s, 0, hexsz);
			} else if (group >= 0) {
				break;
			} else if (blame_previous(s, n)) { /* fast_header would take its name */
				if (n <= 10 + hexsz || s[9 + hexsz] != ' ' || (ptrdiff_t)nslots > last_slot)
					break;
				l->recs[nrecs++] = rel << REC_SHIFT | REC_FAST;
				take_id(l, nslots++, s, 9, hexsz);
			} else if (!blame_header_inline(s, n)) {
				break;
			}
		}
		rel++;
		p = nl + 1;
		if (p == len)
			break;
		nl = scan_next(&sc);
	}
	r.sc = sc;
	r.p = p;
	r.nl = nl;
	r.rel = rel;
	r.nslots = nslots;
	r.nrecs = nrecs;
	return r;
}

FAST_RUN_COPIES(blame_lines)

/* lines_loop's run handed to a loop of its own (run, a constant where this is inlined),
 * its state taken back where that loop stopped; true when that is the buffer's end. */
typedef struct fast_run fast_run_fn(struct hexoid_listing *l, const char *buf, size_t len,
				    struct fast_run r, ptrdiff_t last_slot);
HEXOID_INLINE int fast_run_hand(fast_run_fn *run, struct hexoid_listing *l, const char *buf,
				size_t len, ptrdiff_t last_slot, size_t *p, size_t *nl,
				struct nlscan *sc, uint32_t *rel, size_t *nslots, size_t *nrecs)
{
	struct fast_run r = { *p, *nl, *sc, *rel, *nslots, *nrecs };
	r = run(l, buf, len, r, last_slot);
	*p = r.p;
	*nl = r.nl;
	*sc = r.sc;
	*rel = r.rel;
	*nslots = r.nslots;
	*nrecs = r.nrecs;
	return r.p == len;
}

/*
 * The records of buf[0, len) (which ends with the end of one) in the format, with the hash
 * known; format and hexsz are constants where this is inlined. Returns the bytes taken:
 * all of them, or fewer when the format changed (AUTO widened it) or a bundle's pack
 * begins.
 */
HEXOID_INLINE size_t lines_loop(struct hexoid_listing *l, const char *buf, size_t len,
				enum hexoid_format format, size_t hexsz)
{
	const char eol = format == HEXOID_FORMAT_LS_TREE_Z || format == HEXOID_FORMAT_LS_FILES_Z ||
				 format == HEXOID_FORMAT_MERGE_TREE_Z
			       ? '\0'
			       : format == HEXOID_FORMAT_COUNT ? l->eol : '\n';
	struct nlscan sc;
	size_t p = 0;
	unsigned long long data = 0; /* fast-export: a data block after the line */
	scan_init(&sc, buf, len, eol);
	if (format == HEXOID_FORMAT_FAST_EXPORT && HEXOID_UNLIKELY(l->line_base)) {
		/* The rest of a line that a data block ended inside: its columns count from
		 * the block's bytes before it, which only the grammar's items keep. */
		size_t nl = scan_next(&sc);
		take_line(l, buf, nl, 0);
		p = nl + 1;
		if (l->stopped || l->data_left || l->format != format)
			return p;
	}
	while (p < len && !l->stopped) {
		if (format == HEXOID_FORMAT_OIDS) {
			int bad_next = 0;
			size_t run = bare_run(l, buf + p, len - p, &bad_next);
			if (run) {
				p += run;
				/* A rejected line is still taken, even after a stop. */
				if (p == len || (l->stopped && !bad_next))
					break;
				scan_at(&sc, p);
			}
		}
		size_t nl = scan_next(&sc);
		unsigned state = l->state;
		unsigned char col[3];
		if (format != HEXOID_FORMAT_COUNT && format != HEXOID_FORMAT_OIDS) {
			/* A run of fast lines while the batch has room, its counters (and the
			 * state) in locals: the compiler cannot keep fields in registers across
			 * the stores of IDs into packed, which may be any byte of *l as far as
			 * it knows. Lines with no ID make no record, but count towards
			 * REL_LIMIT. */
			size_t nslots = l->nslots, nrecs = l->nrecs;
			uint32_t rel = (uint32_t)(l->lineno - l->batch_line), first = rel;
			unsigned kind;
			/* nitems + 8 <= BATCH, where nitems is nslots and the grammar's items
			 * (which fast lines do not add to): one count fewer to carry. */
			const ptrdiff_t extra = (ptrdiff_t)(l->nitems - l->nslots);
			const ptrdiff_t last_slot = (ptrdiff_t)BATCH - 8 - extra;
			while ((ptrdiff_t)nslots <= last_slot && rel < REL_LIMIT &&
			       (kind = fast_kind(buf + p, nl - p, len - p, hexsz, format, &state, col, &data))) {
				if (kind != REC_NONE)
					l->recs[nrecs++] = rel << REC_SHIFT | kind;
				rel++;
				/* One to three IDs, written out: a loop's count and test cost
				 * a line more than its one trip does. */
				if (kind >> 1) {
					take_id(l, nslots++, buf + p, col[0], hexsz);
					if (kind >> 2) {
						take_id(l, nslots++, buf + p, col[1], hexsz);
						if (kind >> 1 == 3)
							take_id(l, nslots++, buf + p, col[2], hexsz);
					}
				}
				p = nl + 1;
				if (p == len || (format == HEXOID_FORMAT_FAST_EXPORT && data))
					break;
				nl = scan_next(&sc);
				/* blame: after a fast line (which always leaves the listing in
				 * a group), from a file's line on (a tab, then the text), the
				 * lines in blame_lines, which leaves a line it does not take, or
				 * one for a full batch, to the loop above. */
				if (format == HEXOID_FORMAT_BLAME && buf[p] == '\t' &&
				    fast_run_hand(hexsz == 40 ? blame_lines_40 : blame_lines_64, l, buf,
						  len, last_slot, &p, &nl, &sc, &rel, &nslots, &nrecs))
					break;
				/* log --graph: after a line of the graph and one ID, the lines of
				 * that shape or of the graph alone in a loop of their own
				 * (graph_lines, out of line so that it leaves this loop's registers
				 * as they were); any other line goes round the loop above. Lines of
				 * two or three IDs (--parents) stay there: that loop would read the
				 * graph of each one twice. */
				if (format == HEXOID_FORMAT_GRAPH && kind == REC_FAST_END &&
				    fast_run_hand(hexsz == 40 ? graph_lines_40 : graph_lines_64, l, buf,
						  len, last_slot, &p, &nl, &sc, &rel, &nslots, &nrecs))
					break;
			}
			l->nitems = nslots + (size_t)extra;
			l->nslots = nslots;
			l->nrecs = nrecs;
			l->state = state;
			l->lineno += rel - first;
			l->stats.lines += rel - first;
			if (format == HEXOID_FORMAT_FAST_EXPORT && data) {
				l->data_left = data;
				break;
			}
			if (p == len)
				break;
		}
		/* One line: a fast line when the batch is full, or one for the grammar. */
		const char *s = buf + p;
		size_t n = nl - p;
		unsigned kind = fast_kind(s, n, len - p, hexsz, format, &state, col, &data);
		if (kind) {
			if (l->nitems + 8 > BATCH || l->lineno - l->batch_line >= REL_LIMIT)
				flush(l);
			l->state = state;
			if (kind != REC_NONE)
				l->recs[l->nrecs++] =
					(uint32_t)(l->lineno - l->batch_line) << REC_SHIFT | kind;
			for (unsigned k = 0; k < kind >> 1; k++) {
				l->slot_col[l->nslots] = col[k];
				scan_copy_id(l->packed + l->nslots++ * hexsz, s + col[k], hexsz);
			}
			l->nitems += kind >> 1;
			l->lineno++;
			l->stats.lines++;
			if (format == HEXOID_FORMAT_FAST_EXPORT)
				l->data_left = data;
		} else {
			take_line(l, s, n, 0);
		}
		p = nl + 1;
		if (HEXOID_UNLIKELY(l->body) || HEXOID_UNLIKELY(l->data_left) ||
		    (format != HEXOID_FORMAT_COUNT && HEXOID_UNLIKELY(l->format != format)))
			break;
	}
	return p;
}

/*
 * lines_loop made for each format with fast lines and each hash, and for bare IDs: each
 * a function of its own, for the compilers (one function holding all 42 took clang's
 * register allocator over a minute under the sanitizers).
 */
#define FAST_FORMATS(X) \
	X(batch_check, HEXOID_FORMAT_BATCH_CHECK) \
	X(rev_list, HEXOID_FORMAT_REV_LIST) \
	X(pack_objects, HEXOID_FORMAT_PACK_OBJECTS) \
	X(ls_tree, HEXOID_FORMAT_LS_TREE) \
	X(ls_tree_z, HEXOID_FORMAT_LS_TREE_Z) \
	X(ls_files_z, HEXOID_FORMAT_LS_FILES_Z) \
	X(ls_files, HEXOID_FORMAT_LS_FILES) \
	X(diff_raw, HEXOID_FORMAT_DIFF_RAW) \
	X(for_each_ref, HEXOID_FORMAT_FOR_EACH_REF) \
	X(packed_refs, HEXOID_FORMAT_PACKED_REFS) \
	X(show_ref, HEXOID_FORMAT_SHOW_REF) \
	X(promisor, HEXOID_FORMAT_PROMISOR) \
	X(ls_remote, HEXOID_FORMAT_LS_REMOTE) \
	X(reflog, HEXOID_FORMAT_REFLOG) \
	X(fetch_head, HEXOID_FORMAT_FETCH_HEAD) \
	X(marks, HEXOID_FORMAT_MARKS) \
	X(show_index, HEXOID_FORMAT_SHOW_INDEX) \
	X(fsck, HEXOID_FORMAT_FSCK) \
	X(verify_pack, HEXOID_FORMAT_VERIFY_PACK) \
	X(bundle, HEXOID_FORMAT_BUNDLE) \
	X(rev_list_format, HEXOID_FORMAT_REV_LIST_FORMAT) \
	X(merge_tree, HEXOID_FORMAT_MERGE_TREE) \
	X(merge_tree_z, HEXOID_FORMAT_MERGE_TREE_Z) \
	X(graph, HEXOID_FORMAT_GRAPH) \
	X(id_fields, HEXOID_FORMAT_ID_FIELDS) \
	X(blame, HEXOID_FORMAT_BLAME) \
	X(ref_peeled, HEXOID_FORMAT_REF_PEELED) \
	X(replace, HEXOID_FORMAT_REPLACE) \
	X(worktrees, HEXOID_FORMAT_WORKTREES) \
	X(text, HEXOID_FORMAT_TEXT) \
	X(submodule_status, HEXOID_FORMAT_SUBMODULE_STATUS) \
	X(pretty_raw, HEXOID_FORMAT_PRETTY_RAW) \
	X(fast_export, HEXOID_FORMAT_FAST_EXPORT) \
	X(cherry, HEXOID_FORMAT_CHERRY)
#define LINES_FNS(name, format)                                                             \
	static HEXOID_NOINLINE size_t lines_##name##_40(struct hexoid_listing *l,            \
							 const char *buf, size_t len)         \
	{                                                                                   \
		return lines_loop(l, buf, len, format, 40);                                 \
	}                                                                                   \
	static HEXOID_NOINLINE size_t lines_##name##_64(struct hexoid_listing *l,            \
							 const char *buf, size_t len)         \
	{                                                                                   \
		return lines_loop(l, buf, len, format, 64);                                 \
	}
FAST_FORMATS(LINES_FNS)
#undef LINES_FNS

static HEXOID_NOINLINE size_t lines_oids(struct hexoid_listing *l, const char *buf, size_t len)
{
	return lines_loop(l, buf, len, HEXOID_FORMAT_OIDS, l->hexsz);
}

/* Whole records in buf[0, len), each ending with l->eol. Returns the bytes taken: fewer
 * than len when a bundle's pack or a data block begins. The batch is left for the feed
 * to decode (feed_lines): a fast-export stream's lines and data blocks take turns, and
 * a flush at each block would be an engine call for every few IDs. */
static size_t take_lines(struct hexoid_listing *l, const char *buf, size_t len)
{
	size_t p = 0;
	while (p < len && !l->stopped && !l->body && !l->data_left) {
		if (!l->hexsz) {
			/* Until an ID has told the hash, one at a time. */
			const char *nl = memchr(buf + p, l->eol, len - p);
			size_t n = (size_t)(nl - (buf + p));
			take_line(l, buf + p, n, 0);
			p += n + 1;
			continue;
		}
		/* A loop of its own for each format with fast lines, and each hash. */
		int sha1 = l->hexsz == 40;
		const char *b = buf + p;
		size_t m = len - p;
		switch (l->grammar_only ? HEXOID_FORMAT_COUNT : l->format) {
#define FAST_LINES(name, format)                                                            \
	case format:                                                                        \
		p += sha1 ? lines_##name##_40(l, b, m) : lines_##name##_64(l, b, m);        \
		break;
		FAST_FORMATS(FAST_LINES)
#undef FAST_LINES
		case HEXOID_FORMAT_OIDS:
			p += lines_oids(l, b, m);
			break;
		default:
			p += lines_loop(l, b, m, HEXOID_FORMAT_COUNT, l->hexsz);
			break;
		}
	}
	return p;
}

/* ---- A bundle's pack ---------------------------------------------------------------- */

static void bundle_problem(struct hexoid_listing *l, unsigned long long line, size_t col,
			   const char *what)
{
	struct item it = { .line = "", .lineno = line };
	flush(l);
	l->stats.bad_lines++;
	emit(l, &it, col, HEXOID_CODE_BUNDLE_PACK, "%s", what);
}

/* The bytes after a bundle's header: its pack, of which only the signature is checked. */
static void body_bytes(struct hexoid_listing *l, const char *buf, size_t len)
{
	if (!l->body_line)
		l->body_line = l->lineno;
	for (; len && l->body_have < 4 && !l->stopped; buf++, len--) {
		if (*buf != "PACK"[l->body_have]) {
			bundle_problem(l, l->body_line, l->body_have,
				       "expected a pack (\"PACK\") after the bundle's header");
			l->body_have = 5; /* reported */
			break;
		}
		l->body_have++;
	}
}

/* ---- AUTO ------------------------------------------------------------------------- */

/*
 * AUTO's trial: is the first problem the grammar found in a line one of its IDs' (too
 * short, too long, abbreviated, a CR or NUL in it or at the end of the line), so that the
 * line is of the format but for its IDs? Otherwise the line is no line of the format.
 */
static int id_problem(const struct cursor *c)
{
	size_t col = c->dry_col;
	unsigned char b = col < c->len ? (unsigned char)c->s[col] : 0;
	if (col < c->len && ((b == '\r' && col + 1 == c->len) || b == '\0'))
		return 1;
	switch (c->dry_code) {
	case P_SHORT:
	case P_LONGID:
		return 1;
	case P_LINE_LONG: /* bare IDs: a digit more */
		return is_hex(b);
	case P_ABBREV: /* as git abbreviates: at least 7 digits (a count has fewer) */
		return c->dry_arg >= 7;
	case P_ALGO: /* the first ID, a digit or two short or long */
		if (c->dry_arg < 38 || c->dry_arg > 66 || (c->dry_arg > 42 && c->dry_arg < 62))
			return 0;
		for (size_t i = 0; i < c->dry_arg; i++)
			if (!is_hex((unsigned char)c->s[col + i]))
				return 0;
		return 1;
	default:
		return 0;
	}
}

/* How the probed lines fit a format: lines that are none of its (shape), lines that are
 * but for their IDs (ids), and how far into each line the grammar got (depth). */
struct fit {
	size_t shape, ids, depth, oids;
};

static struct fit trial(struct hexoid_listing *l, const char *probe, size_t len, int whole,
			enum hexoid_format format, char eol)
{
	struct fit fit = { 0, 0, 0, 0 };
	size_t p = 0, lines = 0;
	l->format = format;
	l->state = 0;
	l->body = 0;
	l->data_left = 0;
	while (p < len && lines < PROBE_LINES && !l->body) {
		const char *nl = memchr(probe + p, eol, len - p);
		if (!nl && !whole && lines)
			break; /* a record the probe holds only the start of */
		size_t n = nl ? (size_t)(nl - (probe + p)) : len - p;
		struct cursor c = { .l = l, .s = probe + p, .len = n, .dry = 1 };
		parse_line(&c);
		if (c.dry_problems && id_problem(&c))
			fit.ids++;
		else if (c.dry_problems)
			fit.shape++;
		fit.depth += c.dry_problems ? c.dry_col : n;
		fit.oids += c.dry_ids;
		p += n + 1;
		lines++;
		if (l->data_left) { /* a fast-export data block: not lines */
			size_t left = p < len ? len - p : 0;
			p += l->data_left < left ? (size_t)l->data_left : left;
			l->data_left = 0;
		}
	}
	l->data_left = 0;
	return fit;
}

/* Where the probe's PROBE_LINES-th record ended by `eol` ends (0 if it has fewer). */
static size_t records_end(const char *s, size_t len, char eol)
{
	size_t count = 0;
	for (const char *p = s; (p = memchr(p, eol, len - (size_t)(p - s))); p++)
		if (++count == PROBE_LINES)
			return (size_t)(p + 1 - s);
	return 0;
}

#define UNKNOWN_FORMAT                                                                      \
	"cannot tell which git output this is: name it with --format=..., or --format=text"

/*
 * The format: the first by rank whose grammar takes every probed line, finding an ID in
 * one at least. When none does,
 * of those that take every line but for its IDs (a short, long or abbreviated one, a CR
 * or a NUL), the one with the fewest such lines, and of those the one whose grammar got
 * furthest into the lines, bare IDs first: so a listing with bad IDs is reported by the
 * grammar that fits it best. When no format takes the lines even so, AUTO cannot tell
 * what they are: it says so once, and the listing stops. Those that end records as the
 * probe's first record ends are tried first; the others (NUL-ended records, or
 * newline-ended ones) only when none of those fits and the probe holds their end at all
 * (a -z path may hold a newline). `whole`: the probe holds the whole listing, so its last
 * record is whole even without its end.
 */
static void decide(struct hexoid_listing *l, const char *probe, size_t probe_len, int whole)
{
	/* What the choice looks at depends on the bytes alone, never on how the listing
	 * was cut into pieces: up to the end of the PROBE_LINES-th record of either kind. */
	size_t len = probe_len, cut;
	if ((cut = records_end(probe, probe_len, '\n')) && cut < len)
		len = cut;
	if ((cut = records_end(probe, probe_len, '\0')) && cut < len)
		len = cut;
	const char *nl = memchr(probe, '\n', len);
	const char *nul = memchr(probe, '\0', len);
	char first = nul && (!nl || nul < nl) ? '\0' : '\n';
	char eols[2] = { first, first ? '\0' : '\n' };
	int neols = nl && nul ? 2 : 1, found = 0, clean = 0;
	struct fit best = { 0, 0, 0, 0 };
	enum hexoid_format choice = HEXOID_FORMAT_OIDS;
	if (!len)
		found = clean = 1; /* nothing to go by: bare IDs */
	enum hexoid_algo given = l->algo;
	for (int e = 0; e < neols && !clean; e++)
		for (unsigned rank = 1; rank < 256 && !clean; rank++)
			for (int f = 0; f < HEXOID_FORMAT_COUNT && !clean; f++) {
				const struct listing_format *lf = &hexoid_listing_formats[f];
				if (lf->rank != rank || lf->eol != eols[e])
					continue;
				struct fit fit = trial(l, probe, len, whole, (enum hexoid_format)f, eols[e]);
				hexoid_listing_set_algo(l, given); /* a trial may have guessed the hash */
				if (!given)
					l->algo = 0, l->hexsz = 0, l->rawsz = 0;
				if (fit.shape || !(fit.oids || fit.ids)) /* no ID: nothing to go by */
					continue;
				clean = !fit.ids;
				if (!found || fit.ids < best.ids ||
				    (fit.ids == best.ids &&
				     (fit.depth > best.depth ||
				      (fit.depth == best.depth && f == HEXOID_FORMAT_OIDS)))) {
					found = 1;
					best = fit;
					choice = (enum hexoid_format)f;
				}
			}
	l->state = 0;
	l->body = 0;
	l->data_left = 0;
	if (!found) {
		/* Not a problem of the listing, which is not checked at all: not counted. */
		struct hexoid_problem p = { .line = 1, .column = 1, .status = HEXOID_EHEX,
					    .message = UNKNOWN_FORMAT,
					    .code = HEXOID_CODE_UNKNOWN_FORMAT };
		l->format = HEXOID_FORMAT_AUTO;
		l->stats.format = HEXOID_FORMAT_AUTO;
		if (l->on_problem)
			l->on_problem(l->ctx, &p);
		l->stopped = 1;
		return;
	}
	l->format = choice;
	l->eol = hexoid_listing_formats[choice].eol;
	l->widening = 1;
	l->stats.format = choice;
}

/* ---- The streaming interface ------------------------------------------------------- */

HEXOID_API struct hexoid_listing *hexoid_listing_new(enum hexoid_format format,
						     enum hexoid_algo algo, enum hexoid_kind kind,
						     hexoid_problem_fn *on_problem,
						     hexoid_oid_fn *on_oid, void *ctx)
{
	if ((unsigned)format >= HEXOID_FORMAT_COUNT || (algo && !hexoid_hexsz(algo)) ||
	    (kind != HEXOID_MIXED && kind != HEXOID_LOWER))
		return NULL;
	struct hexoid_listing *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->format = format;
	if (algo)
		hexoid_listing_set_algo(l, algo);
	l->kind = kind;
	l->on_problem = on_problem;
	l->on_oid = on_oid;
	l->ctx = ctx;
	l->lineno = 1;
	l->batch_line = 1;
	l->eol = hexoid_listing_formats[format].eol;
	l->stats.format = format;
	return l;
}

HEXOID_API void hexoid_listing_free(struct hexoid_listing *l)
{
	if (!l)
		return;
	free(l->carry);
	free(l->probe);
	free(l);
}

/* The carry buffer, made at the first line that spans two feeds. */
static int need_carry(struct hexoid_listing *l)
{
	if (!l->carry && !(l->carry = malloc(MAX_LINE)))
		l->stopped = 1;
	return !l->stopped;
}

/* The bytes of a data block at the start of buf[0, len): how many there are; the lines
 * they end are counted, 64 bytes at a time (a blob's lines are most of a stream's, and
 * a commit's message is a block of a few lines), reading up to len. */
static size_t data_bytes(struct hexoid_listing *l, const char *buf, size_t len)
{
	size_t k = l->data_left < len ? (size_t)l->data_left : len, lines = 0;
	size_t last = k; /* where the last line the block ends ends (k: none) */
	for (size_t i = 0; i < k; i += 64) {
		uint64_t m;
		if (len - i >= 64) {
			m = newline_mask64(buf + i, l->eol);
		} else {
			char tail[64]; /* filled with a byte that is not eol */
			memset(tail, l->eol ? 0 : 1, sizeof(tail));
			memcpy(tail, buf + i, len - i);
			m = newline_mask64(tail, l->eol);
		}
		if (k - i < 64)
			m &= (1ull << (k - i)) - 1;
		if (m) {
			lines += bit_count(m);
			last = i + (size_t)(63 - __builtin_clzll(m));
		}
	}
	l->lineno += lines;
	l->stats.lines += lines;
	if (lines)
		l->line_base = 0;
	l->line_base += last == k ? k : k - last - 1; /* the block's bytes in the line it ends in */
	l->data_left -= k;
	/* The batch numbers its lines from its first in 30 bits. */
	if (l->lineno - l->batch_line >= REL_LIMIT)
		flush(l);
	return k;
}

static void feed_piece(struct hexoid_listing *l, const char *buf, size_t len);

/* A feed's bytes; the batch is decoded before the caller's buffer is let go. */
static int feed_lines(struct hexoid_listing *l, const char *buf, size_t len)
{
	feed_piece(l, buf, len);
	flush(l);
	return l->stopped;
}

static void feed_piece(struct hexoid_listing *l, const char *buf, size_t len)
{
	const char *whole_end = NULL; /* after the feed's last eol: found once */
again:
	if (l->body) {
		body_bytes(l, buf, len);
		return;
	}
	if (l->data_left) {
		size_t k = data_bytes(l, buf, len);
		buf += k;
		len -= k;
		if (!len || l->stopped)
			return;
	}
	/* First finish the line the last feed left open. */
	if (l->carry_len || l->skipping) {
		const char *nl = memchr(buf, l->eol, len);
		size_t n = nl ? (size_t)(nl - buf) : len;
		if (!l->skipping) {
			size_t room = MAX_LINE - l->carry_len;
			if (n > room) {
				/* Too long to keep: report it once, then skip to its end. */
				memcpy(l->carry + l->carry_len, buf, room);
				take_line(l, l->carry, MAX_LINE, 1);
				flush(l);
				l->carry_len = 0;
				l->skipping = 1;
			} else {
				memcpy(l->carry + l->carry_len, buf, n);
				l->carry_len += n;
			}
		}
		if (!nl)
			return;
		if (l->skipping) {
			l->skipping = 0;
		} else {
			take_line(l, l->carry, l->carry_len, 0);
			flush(l);
			l->carry_len = 0;
		}
		buf += n + 1;
		len -= n + 1;
		if (l->body || l->data_left)
			goto again;
	}
	/* Whole lines straight from the caller's buffer; keep the unfinished rest. Where
	 * they end is looked for once: a fast-export stream comes back here after each
	 * data block. */
	if (!whole_end) {
		whole_end = buf;
		for (size_t i = len; i-- > 0;)
			if (buf[i] == l->eol) {
				whole_end = buf + i + 1;
				break;
			}
	}
	size_t whole = whole_end > buf ? (size_t)(whole_end - buf) : 0;
	if (whole && !l->stopped) {
		size_t took = take_lines(l, buf, whole);
		if (l->body || l->data_left) {
			buf += took;
			len -= took;
			goto again;
		}
	}
	buf += whole;
	len -= whole;
	if (l->stopped || !len)
		return;
	if (len > MAX_LINE) {
		take_line(l, buf, MAX_LINE, 1);
		flush(l);
		l->skipping = 1;
	} else if (need_carry(l)) {
		memcpy(l->carry, buf, len);
		l->carry_len = len;
	}
}

/* AUTO keeps the first lines until it has seen enough to choose a format. */
static int probe_then_feed(struct hexoid_listing *l, const char *buf, size_t len, int eof)
{
	if (!l->probe_len && !eof) {
		/* All that AUTO looks at in the first feed (as a file's first piece holds):
		 * decided on the caller's bytes, with no copy, whose pages would be the
		 * process's dearest faults. The same bytes as the copy would hold. */
		size_t take = len < PROBE_BYTES ? len : PROBE_BYTES;
		if (take == PROBE_BYTES || records_end(buf, take, '\n') || records_end(buf, take, '\0')) {
			decide(l, buf, take, 0);
			return l->stopped ? 1 : feed_lines(l, buf, len);
		}
	}
	if (!l->probe && !(l->probe = malloc(PROBE_BYTES)))
		return l->stopped = 1;
	size_t take = PROBE_BYTES - l->probe_len < len ? PROBE_BYTES - l->probe_len : len;
	memcpy(l->probe + l->probe_len, buf, take);
	l->probe_len += take;
	if (!eof && l->probe_len < PROBE_BYTES &&
	    !records_end(l->probe, l->probe_len, '\n') && !records_end(l->probe, l->probe_len, '\0'))
		return 0;
	decide(l, l->probe, l->probe_len, eof);
	char *probe = l->probe;
	size_t probe_len = l->probe_len;
	l->probe = NULL;
	if (!l->stopped)
		feed_lines(l, probe, probe_len);
	free(probe);
	if (!l->stopped && len > take)
		feed_lines(l, buf + take, len - take);
	return l->stopped;
}

HEXOID_API int hexoid_listing_feed(struct hexoid_listing *l, const char *buf, size_t len)
{
	if (l->stopped)
		return 1;
	if (l->format == HEXOID_FORMAT_AUTO)
		return probe_then_feed(l, buf, len, 0);
	return feed_lines(l, buf, len);
}

HEXOID_API int hexoid_listing_finish(struct hexoid_listing *l)
{
	if (!l->stopped && l->format == HEXOID_FORMAT_AUTO)
		probe_then_feed(l, "", 0, 1);
	if (!l->stopped && l->carry_len && !l->skipping) {
		take_line(l, l->carry, l->carry_len, 0);
		flush(l);
	}
	l->carry_len = 0;
	l->skipping = 0;
	if (!l->stopped && l->data_left) {
		char what[96];
		snprintf(what, sizeof(what), "the stream ends %llu bytes before the end of its data block",
			 l->data_left);
		struct item it = { .line = "", .lineno = l->lineno };
		flush(l);
		l->stats.bad_lines++;
		emit(l, &it, 0, HEXOID_CODE_SYNTAX, "%s", what);
	}
	/* A bundle must reach its pack, and hold more than a part of its signature. */
	if (!l->stopped && l->format == HEXOID_FORMAT_BUNDLE && l->body_have < 4) {
		if (!l->body)
			bundle_problem(l, l->lineno, 0,
				       "the bundle ends in its header: no blank line, no pack");
		else
			bundle_problem(l, l->body_line ? l->body_line : l->lineno, l->body_have,
				       "the bundle ends before its pack");
	}
	return l->stopped;
}

HEXOID_API void hexoid_listing_stats(const struct hexoid_listing *l,
				     struct hexoid_listing_stats *stats)
{
	*stats = l->stats;
	stats->algo = l->algo;
}
