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

/* The words of the rest of the line that look like IDs, checked as --format=text does. */
void hexoid_listing_text(struct cursor *c);
/* Where the first word that text would take for an ID begins, plus one (0: none). */
size_t hexoid_listing_id_word(const struct cursor *c);

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
/* pretty-raw's: before the first line; in a commit's or tag's headers; in a message
 * indented as log and rev-list print it, just after a blank line there; in a message
 * that is not (cat-file -p: the rest is the message). */
enum { PRAW_START = 0, PRAW_HEADERS, PRAW_MESSAGE, PRAW_BLANK, PRAW_FREE };
/* diff-raw's: after a line of the diff; after a commit's line (log --raw); after the
 * blank line that follows one (the diff must come next). */
enum { DIFF_DIFF = 0, DIFF_COMMIT, DIFF_BLANK };
/* blame --porcelain's and worktree list --porcelain's: before the first line, after it. */
enum { BLAME_START = 0, BLAME_IN };
enum { WORKTREES_START = 0, WORKTREES_IN };
/* merge-tree --write-tree's: its first line (the tree); its conflicted entries (or their
 * names alone, --name-only); the messages after the blank line. */
enum { MERGE_START = 0, MERGE_ENTRIES, MERGE_NAMES, MERGE_MESSAGES };
/* A bundle's: before its first line, in its capabilities (v3), in its refs. */
enum { BUNDLE_START = 0, BUNDLE_V2, BUNDLE_V3, BUNDLE_REFS };

#endif
