/*
 * The parsers, one per format, by family (objects.c, trees.c, refs.c, packs.c), and the
 * states some of them keep from line to line; table.c names them.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_FORMATS_LISTING_PARSERS_H
#define HEXOID_FORMATS_LISTING_PARSERS_H

#include "grammar.h"

/* The parsers, one per format (their grammars are in the comments beside them). */
void hexoid_parse_oids(struct cursor *c);
void hexoid_parse_pack_objects(struct cursor *c);
void hexoid_parse_rev_list(struct cursor *c);
void hexoid_parse_batch_check(struct cursor *c);
void hexoid_parse_fsck(struct cursor *c);
void hexoid_parse_marks(struct cursor *c);
void hexoid_parse_show_index(struct cursor *c);
void hexoid_parse_verify_pack(struct cursor *c);
void hexoid_parse_ls_tree(struct cursor *c);
void hexoid_parse_ls_files(struct cursor *c);
void hexoid_parse_diff_raw(struct cursor *c);
void hexoid_parse_for_each_ref(struct cursor *c);
void hexoid_parse_packed_refs(struct cursor *c);
void hexoid_parse_fetch_head(struct cursor *c);
void hexoid_parse_reflog(struct cursor *c);
void hexoid_parse_ls_remote(struct cursor *c);
void hexoid_parse_show_ref(struct cursor *c);
void hexoid_parse_bundle(struct cursor *c);
void hexoid_parse_replace(struct cursor *c);
void hexoid_parse_cherry(struct cursor *c);
void hexoid_parse_submodule_status(struct cursor *c);
void hexoid_parse_ref_peeled(struct cursor *c);
void hexoid_parse_text(struct cursor *c);
void hexoid_parse_rev_list_format(struct cursor *c);
void hexoid_parse_pretty_raw(struct cursor *c);
void hexoid_parse_blame(struct cursor *c);
void hexoid_parse_worktrees(struct cursor *c);
void hexoid_parse_id_fields(struct cursor *c);
void hexoid_parse_graph(struct cursor *c);
void hexoid_parse_merge_tree(struct cursor *c);
void hexoid_parse_fast_export(struct cursor *c);
void hexoid_parse_merge_tree_z(struct cursor *c);

/* The words of the rest of the line that look like IDs, checked as --format=text does. */
void hexoid_listing_text(struct cursor *c);
/* Where the first word that text would take for an ID begins, plus one (0: none). */
size_t hexoid_listing_id_word(const struct cursor *c);

/* Sets of ASCII bytes as two words of bits, constants the compiler folds (memchr over
 * the set was a call on every line it tested): ASCII_LOW(c) is byte c's bit in the word
 * of bytes 0..63, ASCII_HIGH(c) in that of 64..127. */
#define ASCII_LOW(c) ((uint64_t)((c) < 64) << ((c) & 63))
#define ASCII_HIGH(c) ((uint64_t)((c) >= 64 && (c) < 128) << ((c) & 63))
HEXOID_INLINE int ascii_in(char ch, uint64_t low, uint64_t high)
{
	unsigned char c = (unsigned char)ch;
	return c < 64 ? (int)(low >> c & 1) : c < 128 ? (int)(high >> (c & 63) & 1) : 0;
}

/* The marks git writes before a commit's ID (get_revision_mark): '<' and '>'
 * (--left-right), '-' (--boundary), '=' and '+' (--cherry-mark), '^' (uninteresting). */
HEXOID_INLINE int revision_mark(char ch)
{
#define REVISION_MARKS(f) (f('<') | f('>') | f('-') | f('=') | f('+') | f('^'))
	return ascii_in(ch, REVISION_MARKS(ASCII_LOW), REVISION_MARKS(ASCII_HIGH));
#undef REVISION_MARKS
}

/* The marks rev-list writes before an ID of its own line: '-' (--boundary), '<' and '>'
 * (--left-right), '=' and '+' (--cherry-mark), '?' (--missing=print), '~'
 * (--filter-print-omitted). */
HEXOID_INLINE int rev_list_mark(char ch)
{
#define REV_LIST_MARKS(f) (f('-') | f('?') | f('<') | f('>') | f('=') | f('+') | f('~'))
	return ascii_in(ch, REV_LIST_MARKS(ASCII_LOW), REV_LIST_MARKS(ASCII_HIGH));
#undef REV_LIST_MARKS
}

/* A raw diff's status letters (diff --raw, diff-tree, log --raw). */
HEXOID_INLINE int diff_status(char ch)
{
#define DIFF_STATUS(f) (f('A') | f('C') | f('D') | f('M') | f('R') | f('T') | f('U') | f('X'))
	return ascii_in(ch, DIFF_STATUS(ASCII_LOW), DIFF_STATUS(ASCII_HIGH));
#undef DIFF_STATUS
}

/* rev-list's state (see hexoid_parse_rev_list): at the start; in the commits, after
 * lines of parents (which are IDs); the same after a line that was an ID alone (so
 * "<oid> " is a tree); after "<oid> " as the first line (a root commit or a tree); in the
 * objects (paths). */
enum { REV_START = 0, REV_COMMITS, REV_BARE, REV_ROOT, REV_OBJECTS };
/* cat-file --batch-check's: at the start; after a line that ended with the object's
 * size, so that the listing has no %(deltabase), and what follows a size is %(rest). */
enum { BATCH_START = 0, BATCH_PLAIN };
/* rev-list --format's: before the first commit line, after it. */
enum { REVF_START = 0, REVF_COMMITS };
/* pretty-raw's: before the first line; in a commit's headers as log and rev-list print
 * them; in a message as they print it, just after a blank line there; in the headers of
 * cat-file -p (its first line a tree or an object); in its message (the rest). */
enum { PRAW_START = 0, PRAW_HEADERS, PRAW_MESSAGE, PRAW_BLANK, PRAW_OBJECT, PRAW_FREE };
/* diff-raw's: after a line of the diff; after a commit's line (log --raw); after the
 * blank line that follows one (the diff must come next). */
enum { DIFF_DIFF = 0, DIFF_COMMIT, DIFF_BLANK };
/* blame --porcelain's and worktree list --porcelain's: before the first line, after it. */
enum { BLAME_START = 0, BLAME_IN };
enum { WORKTREES_START = 0, WORKTREES_IN };
/* merge-tree --write-tree's: its first line (the tree); its conflicted entries (or their
 * names alone, --name-only); the messages after the blank line. */
enum { MERGE_START = 0, MERGE_ENTRIES, MERGE_NAMES, MERGE_MESSAGES };
/* merge-tree --write-tree -z's: its first record (the tree, or with --stdin the merge's
 * status); the tree after a status; the conflicted entries; their names (--name-only);
 * after a message, its count of paths next (or, with --stdin, the empty record that
 * ends a merge); after an empty record with --stdin (a status or a count next); after
 * a "1" there (the next merge's tree, or a message's one path); a message's type; its
 * text. MERGEZ_PATHS + k: k more paths of a message to come. */
enum { MERGEZ_START = 0, MERGEZ_TREE, MERGEZ_ENTRIES, MERGEZ_NAMES, MERGEZ_COUNT, MERGEZ_NEXT,
       MERGEZ_ONE, MERGEZ_TYPE, MERGEZ_TEXT, MERGEZ_PATHS };
#define MERGEZ_MAX_PATHS 0x7fffffu /* a message's paths: more is no count git writes */
#define MERGEZ_STDIN 0x80000000u /* or'ed in: the output of --stdin */
/* A bundle's: before its first line, in its capabilities (v3), in its refs. */
enum { BUNDLE_START = 0, BUNDLE_V2, BUNDLE_V3, BUNDLE_REFS };

#endif
