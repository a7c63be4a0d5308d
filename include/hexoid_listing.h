/*
 * hexoid listings: check the object IDs in what git prints — pack-objects output and
 * input, rev-list in all its shapes, cat-file --batch-check, show-index, verify-pack -v,
 * ls-tree, ls-files --stage, diff --raw, for-each-ref, show-ref, ls-remote, packed-refs,
 * FETCH_HEAD, reflogs, git fsck, .promisor, marks and bundle files, replace -l and
 * for-each-ref with peeled IDs, commits and tags as --pretty=raw and cat-file -p print
 * them, rev-list --format, porcelain blame and worktree lists, and any text by a
 * heuristic — in bulk, with exact
 * line and column for every problem.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_LISTING_H
#define HEXOID_LISTING_H

#include "hexoid.h"
#include "hexoid_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hexoid_format {
	HEXOID_FORMAT_AUTO = 0,     /* recognised from the first lines, widened when a later
				       line fits a wider shape of the same command; when no
				       format fits them, one unknown-format problem and the
				       listing stops (stats' format stays AUTO) */
	HEXOID_FORMAT_OIDS,         /* <oid>: pack-objects output, shallow, *-chain files */
	HEXOID_FORMAT_PACK_OBJECTS, /* pack-objects stdin: <oid>[ <name>] or -<oid> */
	HEXOID_FORMAT_REV_LIST,     /* rev-list: <oid>[ <path>], -<oid>, ?<oid>, <oid> <parent>...,
				       marks <, >, =, +, ~ before the ID */
	HEXOID_FORMAT_BATCH_CHECK,  /* cat-file --batch-check: <oid> <type> <size>, <name> missing */
	HEXOID_FORMAT_SHOW_INDEX,   /* show-index: <offset> <oid>[ (<crc32>)] */
	HEXOID_FORMAT_VERIFY_PACK,  /* verify-pack -v, with its summary lines */
	HEXOID_FORMAT_LS_TREE,      /* ls-tree: <mode> <type> <oid>\t<path> */
	HEXOID_FORMAT_FOR_EACH_REF, /* for-each-ref: <oid> <type>\t<ref> */
	HEXOID_FORMAT_PACKED_REFS,  /* packed-refs: header, <oid> <ref>, ^<oid> */
	HEXOID_FORMAT_FETCH_HEAD,   /* FETCH_HEAD: <oid>\t[not-for-merge]\t<desc> */
	HEXOID_FORMAT_REFLOG,       /* reflog: <old> <new> <ident> <time> <tz>\t<msg> */
	HEXOID_FORMAT_LS_FILES,     /* ls-files --stage: <mode> <oid> <stage>\t<path> */
	HEXOID_FORMAT_LS_REMOTE,    /* ls-remote: <oid>\t<ref> */
	HEXOID_FORMAT_SHOW_REF,     /* show-ref (-d, --head): <oid> <ref> */
	HEXOID_FORMAT_DIFF_RAW,     /* diff-tree/-index/-files --raw --no-abbrev; log --raw
				       (a blank line after a commit's line) */
	HEXOID_FORMAT_FSCK,         /* git fsck: dangling|unreachable|missing <type> <oid>, ... */
	HEXOID_FORMAT_PROMISOR,     /* a .promisor file: <oid> <ref> */
	HEXOID_FORMAT_MARKS,        /* fast-import/fast-export marks: :<mark> <oid> */
	HEXOID_FORMAT_BUNDLE,       /* a bundle file, v2 or v3: its header (not the pack) */
	HEXOID_FORMAT_LS_TREE_Z,    /* ls-tree -z: as ls-tree, each record ended by NUL */
	HEXOID_FORMAT_LS_FILES_Z,   /* ls-files --stage -z */
	HEXOID_FORMAT_REPLACE,      /* replace -l --format=medium|long:
				       <oid>[ (<type>)] -> <oid>[ (<type>)], or <oid> (short) */
	HEXOID_FORMAT_REF_PEELED,   /* for-each-ref --format='%(objectname) %(*objectname)
				       %(refname)': <oid> [<peeled oid>] <ref> */
	HEXOID_FORMAT_CHERRY,       /* git cherry [-v]: + <oid>[ <subject>], - <oid>... */
	HEXOID_FORMAT_SUBMODULE_STATUS, /* submodule status: [ +-U]<oid> <path>[ (<describe>)] */
	HEXOID_FORMAT_TEXT,         /* any text: each word (a run of letters and digits) of an
				       ID's length give or take two, hex but for at most two
				       of its bytes, is an ID; nothing else is checked. A
				       heuristic: AUTO never takes it */
	HEXOID_FORMAT_REV_LIST_FORMAT, /* rev-list --format: commit <oid>[ <parent>...], then
				       what the format made (its ID-like words checked as
				       by TEXT) */
	HEXOID_FORMAT_PRETTY_RAW,   /* log/rev-list --pretty=raw, cat-file -p of a commit or
				       tag: commit <oid>, tree/parent/object <oid> headers,
				       other headers, the message */
	HEXOID_FORMAT_BLAME,        /* blame --porcelain, --line-porcelain: <oid> <line>
				       <line>[ <lines>], headers, previous <oid> <path>,
				       TAB<line of the file> */
	HEXOID_FORMAT_WORKTREES,    /* worktree list --porcelain: worktree <path>, HEAD <oid>,
				       branch <ref>, detached, bare, locked, prunable */
	HEXOID_FORMAT_ID_FIELDS,    /* IDs a space or a tab apart, fields and lines may be
				       empty: log --format='%H%x09%P', for-each-ref
				       --format='%(*objectname)' */
	HEXOID_FORMAT_GRAPH,        /* log --graph --format='%H[ %P]': the graph, then IDs */
	HEXOID_FORMAT_MERGE_TREE,   /* merge-tree --write-tree: <tree oid>, conflicted
				       entries, a blank line, messages */
	HEXOID_FORMAT_FAST_EXPORT,  /* a fast-export stream: original-oid <oid>, from/merge
				       <oid or mark>, M ... <oid or mark> <path>; the bytes
				       of each data block skipped */
	HEXOID_FORMAT_MERGE_TREE_Z, /* merge-tree --write-tree -z (and --stdin): records ended
				       by NUL: <tree oid>, conflicted entries, an empty
				       record, each message as <n>, n paths, its type, its
				       text */
	HEXOID_FORMAT_COUNT
};

/* "oids", "rev-list", ... (as `hexoid verify --format` takes them); NULL if unknown. */
HEXOID_API const char *hexoid_format_name(enum hexoid_format format);
/* The format of that name; -1 if unknown. */
HEXOID_API int hexoid_format_from_name(const char *name);

/*
 * What a problem is: an enum hexoid_code of hexoid_codes.h (the one list every part of
 * the library reports with; hexoid_code_name(), hexoid_code_class()). A listing gives
 * HEXOID_CODE_UPPERCASE_ID (git3), BAD_HEX, SHORT_ID, LONG_ID, LONG_LINE,
 * ABBREVIATED_ID, UNKNOWN_HASH, CRLF, NUL_BYTE, EMPTY_LINE, HUGE_LINE, SYNTAX,
 * BUNDLE_PACK and UNKNOWN_FORMAT (AUTO cannot tell which git output the listing is:
 * line 1, column 1; nothing is checked or reported, nor counted in the stats), all of
 * them errors but the first. Programs read the code, not the message.
 */

/*
 * One problem in a listing. Columns and lines count from 1. Each object ID of a line is
 * checked and reported on its own (a reflog line with both IDs bad gives two problems);
 * where the text around the IDs breaks the line's grammar, that is one more problem, and
 * what follows it on the line is not looked at.
 */
struct hexoid_problem {
	unsigned long long line;
	size_t column;
	enum hexoid_status status; /* HEXOID_EUPPER: the ID holds an uppercase digit and would
				      be valid with uppercase allowed (Git 2.x accepts it,
				      Git 3.0 rejects it); HEXOID_EHEX: anything else that is
				      wrong, such as an ID that also holds a byte that is no
				      hex digit, whatever comes first */
	char message[192];         /* what is wrong, for people */
	enum hexoid_code code;     /* what is wrong, for programs */
};

/* Called for each problem, in line order; return nonzero to stop the listing. */
typedef int hexoid_problem_fn(void *ctx, const struct hexoid_problem *problem);
/* Called for each object ID of each good line, in order, with the line and the 1-based
 * column where its hex starts; return nonzero to stop. */
typedef int hexoid_oid_fn(void *ctx, unsigned long long line, size_t column,
			  const unsigned char *raw, size_t rawsz);

struct hexoid_listing;

/*
 * A listing checker. algo 0 takes the hash from the first object ID and requires every
 * later one to match. on_oid may be NULL (only check); on_problem may be NULL (count).
 * Returns NULL on an unknown format, algo or kind, or when out of memory.
 */
HEXOID_API struct hexoid_listing *hexoid_listing_new(enum hexoid_format format,
						     enum hexoid_algo algo, enum hexoid_kind kind,
						     hexoid_problem_fn *on_problem,
						     hexoid_oid_fn *on_oid, void *ctx);

/*
 * Feed the next `len` bytes of the listing. Whole lines are checked as they complete;
 * memory stays bounded whatever the line length (a line longer than 1 MiB is reported,
 * not stored). Returns 0, or 1 once a callback asked to stop or AUTO could not tell the
 * format.
 */
HEXOID_API int hexoid_listing_feed(struct hexoid_listing *listing, const char *buf, size_t len);

/* The end of the listing: checks a last line that has no newline. Returns as feed does. */
HEXOID_API int hexoid_listing_finish(struct hexoid_listing *listing);

struct hexoid_listing_stats {
	unsigned long long lines;    /* lines seen */
	unsigned long long oids;     /* object IDs in good lines */
	unsigned long long problems; /* problems reported: one per bad ID, and one where the
					line's grammar is broken */
	enum hexoid_format format;   /* the format in use (what AUTO recognised) */
	enum hexoid_algo algo;       /* the hash in use; 0 if not known yet */
	unsigned long long bad_lines; /* lines with at least one problem */
};
HEXOID_API void hexoid_listing_stats(const struct hexoid_listing *listing,
				     struct hexoid_listing_stats *stats);

HEXOID_API void hexoid_listing_free(struct hexoid_listing *listing);

#ifdef __cplusplus
}
#endif

#endif
