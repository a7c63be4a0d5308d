/*
 * The listing checker's insides, shared by the engine (checker.c), the grammars of the
 * formats (one small parser each, by family: objects.c, trees.c, refs.c, packs.c) and
 * the table that names them (table.c).
 *
 * A parser reads one line through a cursor: it checks the text around the object IDs
 * with the helpers below, and calls listing_oid() where an ID stands. It never decodes
 * digits: the engine decodes every ID of a batch of lines in one call and reports what
 * it rejects. A parser records at most one problem of its own per line (the first
 * helper that fails stops the line); every ID it saw before that is still checked.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_FORMATS_LISTING_H
#define HEXOID_FORMATS_LISTING_H

#include <stdint.h>
#include <string.h>

#include "../../compiler.h"
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
 * line whose last ID ends it is told apart for the report of a CR at its end. */
enum { REC_GRAMMAR = 0, REC_FAST = 2, REC_FAST_END = 3, REC_FAST2 = 4, REC_FAST2_END = 5,
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
	unsigned long long lineno; /* of the next line, 1-based */
	char eol;                  /* what ends a record: '\n', or '\0' for the -z formats */
	unsigned state;            /* the format's own, from line to line (0 at the start) */

	/* A bundle's pack, after the blank line that ends its header: not text. */
	int body;            /* in it */
	size_t body_have;    /* bytes of its signature seen */
	unsigned long long body_line;

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

/* ---- The grammar of one line ---------------------------------------------------- */

struct cursor {
	struct hexoid_listing *l;
	const char *s;
	size_t len, pos;
	int cut;
	int failed; /* a problem was recorded: stop parsing this line */
	int dry;    /* AUTO's trial parse: count problems, record nothing */
	size_t dry_problems;
	size_t dry_col; /* where the first of them is */
	size_t oid_end; /* where the last object ID ended (0: none yet) */
};

/* One entry of the table: a format's name, its parser, and how AUTO may take it. */
struct listing_format {
	const char *name;
	void (*parse)(struct cursor *c);
	char eol;          /* '\n', or '\0' for NUL-ended records (-z) */
	unsigned char empty_ok; /* the parser takes empty lines itself */
	unsigned char rank;     /* AUTO tries the formats by rank, 1 first; 0: never */
	/* AUTO: when a line does not fit, this wider shape of the same command is tried
	 * before the line is reported (HEXOID_FORMAT_AUTO: none), in this state of its
	 * own (what the lines before, all taken by this format, tell it). */
	enum hexoid_format wider;
	unsigned char wider_state;
};
extern const struct listing_format listing_formats[HEXOID_FORMAT_COUNT];

void listing_set_algo(struct hexoid_listing *l, enum hexoid_algo algo);

HEXOID_INLINE int is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

void listing_push(struct cursor *c, unsigned char type, size_t col, unsigned char code,
		  size_t arg, const char *what);

HEXOID_INLINE int problem(struct cursor *c, size_t col, unsigned char code, size_t arg,
			  const char *what)
{
	listing_push(c, ITEM_PROBLEM, col, code, arg, what);
	c->failed = 1;
	return 0;
}

/* The object ID at the cursor; takes the hash from it when the listing has none yet. */
int listing_oid(struct cursor *c);
#define oid listing_oid

/* An ID where git may print an abbreviated one (diff --raw): one of 4 to hexsz-1 hex
 * digits ended by a space or "..." is reported as such. */
int listing_full_oid(struct cursor *c);

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
 * wants it to look like one git prints (refs/..., or HEAD and the like), so that other
 * "<oid> <word>" lines are not taken for refs. */
int listing_refname(struct cursor *c);
#define refname listing_refname

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

/* The parsers, one per format (their grammars are in the comments beside them). */
void parse_oids(struct cursor *c);
void parse_pack_objects(struct cursor *c);
void parse_rev_list(struct cursor *c);
void parse_batch_check(struct cursor *c);
void parse_fsck(struct cursor *c);
void parse_marks(struct cursor *c);
void parse_show_index(struct cursor *c);
void parse_verify_pack(struct cursor *c);
void parse_ls_tree(struct cursor *c);
void parse_ls_files(struct cursor *c);
void parse_diff_raw(struct cursor *c);
void parse_for_each_ref(struct cursor *c);
void parse_packed_refs(struct cursor *c);
void parse_fetch_head(struct cursor *c);
void parse_reflog(struct cursor *c);
void parse_ls_remote(struct cursor *c);
void parse_show_ref(struct cursor *c);
void parse_bundle(struct cursor *c);

/* rev-list's state (see parse_rev_list): at the start; in the commits, after lines of
 * parents (which are IDs); the same after a line that was an ID alone (so "<oid> " is a
 * tree); after "<oid> " as the first line (a root commit or a tree); in the objects
 * (paths). */
enum { REV_START = 0, REV_COMMITS, REV_BARE, REV_ROOT, REV_OBJECTS };
/* A bundle's: before its first line, in its capabilities (v3), in its refs. */
enum { BUNDLE_START = 0, BUNDLE_V2, BUNDLE_V3, BUNDLE_REFS };

#endif
