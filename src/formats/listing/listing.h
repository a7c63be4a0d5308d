/*
 * The listing checker's state: the batch of items a listing's lines make, and what the
 * checker (checker.c) keeps from one line and one feed to the next. The grammar
 * (grammar.h) fills the batch; the checker decodes it and reports.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_FORMATS_LISTING_H
#define HEXOID_FORMATS_LISTING_H

#include <stddef.h>
#include <stdint.h>

#include "hexoid_listing.h"

#define MAX_LINE (1u << 20) /* longer lines are reported, not stored */
#define BATCH 1024          /* items decoded per engine call */

enum problem_code {
	P_NONE,
	P_EMPTY,
	P_SHORT,     /* arg: hex digits seen */
	P_LONGID,    /* a hex digit right after the ID */
	P_LINE_LONG, /* bare IDs: more bytes after the ID; arg: line length, cut */
	P_EXPECT,    /* what: the expected thing */
	P_ALGO,      /* cannot tell sha1 from sha256; arg: token length */
	P_HUGE,      /* longer than MAX_LINE */
	P_ABBREV,    /* an abbreviated ID; arg: its hex digits */
	P_TEXT,      /* what: the whole message */
};

enum { ITEM_OID, ITEM_PROBLEM };

struct item {
	const char *line; /* the line, for messages */
	size_t len;       /* its length, without the newline */
	unsigned long long lineno;
	size_t col; /* 0-based: where the ID starts, or where the problem is */
	unsigned char type, code;
	unsigned char bad; /* ITEM_OID: the engine rejected it */
	unsigned char cut; /* the line went on past `len` */
	size_t badcol;     /* ITEM_OID and bad: 0-based column of the bad byte */
	size_t base;       /* what line[] starts at in the line (a fast line's packed ID) */
	size_t arg;
	const char *what;
	size_t slot; /* ITEM_OID and not bad when made: its place in the batch's packed IDs */
};

/* How a line of the batch was taken: by the grammar (its items are in items[]) or as a
 * fast line, whose one to three IDs are its only items (their columns in slot_col). A fast
 * line whose last ID ends it is told apart for the report of a CR at its end. A fast
 * line with no ID (REC_NONE: text the grammar passes over) has no record at all. */
enum { REC_GRAMMAR = 0, REC_NONE = 1, REC_FAST = 2, REC_FAST_END = 3, REC_FAST2 = 4,
       REC_FAST2_END = 5, REC_FAST3 = 6,
       REC_FAST3_END = 7 }; /* a fast line's kind: its IDs times 2, plus 1 if the last ends it */
#define REC_SHIFT 3 /* recs: the line's number in the batch, then its REC_* kind */

struct hexoid_listing {
	enum hexoid_format format;
	enum hexoid_algo algo;
	enum hexoid_kind kind;
	size_t hexsz, rawsz;
	hexoid_problem_fn *on_problem;
	hexoid_oid_fn *on_oid;
	void *ctx;
	int stopped;
	struct hexoid_listing_stats stats;
	unsigned long long grammar_lines; /* lines the grammar read (the tests hold the fast
					     lines to taking the lines they must) */
	unsigned long long lineno; /* of the next line, 1-based */
	char eol;                  /* what ends a record: '\n', or '\0' for the -z formats */
	unsigned state;            /* the format's own, from line to line (0 at the start) */

	/* A bundle's pack, after the blank line that ends its header: not text. */
	int body;            /* in it */
	size_t body_have;    /* bytes of its signature seen */
	unsigned long long body_line;

	/* A fast-export stream's data block, after its "data <n>" line: bytes, not lines
	 * (their newlines are counted). */
	unsigned long long data_left;
	size_t line_base; /* where the next line's text begins in its line: after a data
			     block that ended inside it (0 otherwise) */

	/* The unfinished last line of the previous feed. */
	char *carry;
	size_t carry_len;
	int skipping; /* inside a line longer than MAX_LINE, already reported */

	/* AUTO: the first bytes, kept until the format is known. */
	char *probe;
	size_t probe_len;
	int widening; /* AUTO chose: a line that does not fit may widen the format */
	int grammar_only; /* tests: no fast lines, every line through the grammar */

	/*
	 * The batch. nitems counts its items as the grammar would make them (one per fast
	 * line), which decides when the batch is decoded; the grammar's own items are
	 * items[0, ngrammar). Each line with at least one item has a record in recs: its
	 * number less batch_line, shifted left by REC_SHIFT, or'ed with its REC_* kind. Each ID to
	 * decode is in packed, in line order, nslots of them.
	 */
	size_t nitems, ngrammar, nrecs, nslots;
	unsigned long long batch_line;
	struct item items[BATCH];
	uint32_t recs[BATCH];
	unsigned char slot_col[BATCH]; /* a fast line's ID: its 0-based column */
	/* What the engine rejected, in slot order: the slot and the bad byte's column. */
	size_t nbad;
	uint16_t bad_slot[BATCH];
	unsigned char bad_col[BATCH];
	char packed[BATCH * HEXOID_MAX_HEXSZ];
	unsigned char raw[BATCH * HEXOID_MAX_RAWSZ];
};

#endif
