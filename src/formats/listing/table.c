/*
 * The formats: one entry each, in the order of enum hexoid_format. A new format is its
 * entry here, its parser, its tests and its line in the docs.
 *
 * rank orders AUTO's trials, most particular first: the first format whose grammar fits
 * every probed line wins. A format that takes every line of another comes after it
 * (bare IDs before batch-check, which takes %(objectname) alone; both before rev-list,
 * which takes "<oid> anything"), so that what is chosen is the narrowest fit, and the
 * one with the fast lines. pack-objects, whose input rev-list --objects prints, is left
 * to rev-list: it takes every line rev-list takes and checks fewer IDs, so it would be
 * the best fit of a rev-list --parents listing with one bad line among the first.
 * SPDX-License-Identifier: MIT
 */
#include "parsers.h"
#include "table.h"

#define NL '\n'
#define NUL '\0'
#define NONE HEXOID_FORMAT_AUTO

const struct listing_format hexoid_listing_formats[HEXOID_FORMAT_COUNT] = {
	[HEXOID_FORMAT_AUTO] = { "auto", NULL, NL, 0, 0, NONE, 0 },
	[HEXOID_FORMAT_OIDS] = { "oids", hexoid_parse_oids, NL, 0, 14, HEXOID_FORMAT_REV_LIST, REV_BARE },
	[HEXOID_FORMAT_PACK_OBJECTS] = { "pack-objects", hexoid_parse_pack_objects, NL, 0, 0, NONE, 0 },
	[HEXOID_FORMAT_REV_LIST] = { "rev-list", hexoid_parse_rev_list, NL, 0, 23, NONE, 0 },
	[HEXOID_FORMAT_BATCH_CHECK] = { "batch-check", hexoid_parse_batch_check, NL, 0, 15, NONE, 0 },
	[HEXOID_FORMAT_SHOW_INDEX] = { "show-index", hexoid_parse_show_index, NL, 0, 7, NONE, 0 },
	[HEXOID_FORMAT_VERIFY_PACK] = { "verify-pack", hexoid_parse_verify_pack, NL, 0, 8, NONE, 0 },
	[HEXOID_FORMAT_LS_TREE] = { "ls-tree", hexoid_parse_ls_tree, NL, 0, 5, NONE, 0 },
	[HEXOID_FORMAT_FOR_EACH_REF] = { "for-each-ref", hexoid_parse_for_each_ref, NL, 0, 9, NONE, 0 },
	[HEXOID_FORMAT_PACKED_REFS] = { "packed-refs", hexoid_parse_packed_refs, NL, 0, 3, NONE, 0 },
	[HEXOID_FORMAT_FETCH_HEAD] = { "fetch-head", hexoid_parse_fetch_head, NL, 0, 10, NONE, 0 },
	[HEXOID_FORMAT_REFLOG] = { "reflog", hexoid_parse_reflog, NL, 0, 2, NONE, 0 },
	[HEXOID_FORMAT_LS_FILES] = { "ls-files", hexoid_parse_ls_files, NL, 0, 6, NONE, 0 },
	[HEXOID_FORMAT_LS_REMOTE] = { "ls-remote", hexoid_parse_ls_remote, NL, 0, 11, NONE, 0 },
	[HEXOID_FORMAT_SHOW_REF] = { "show-ref", hexoid_parse_show_ref, NL, 0, 4, NONE, 0 },
	[HEXOID_FORMAT_DIFF_RAW] = { "diff-raw", hexoid_parse_diff_raw, NL, 1, 24, NONE, 0 },
	[HEXOID_FORMAT_FSCK] = { "fsck", hexoid_parse_fsck, NL, 0, 12, NONE, 0 },
	/* Written as show-ref prints: AUTO calls it show-ref. */
	[HEXOID_FORMAT_PROMISOR] = { "promisor", hexoid_parse_show_ref, NL, 0, 0, NONE, 0 },
	[HEXOID_FORMAT_MARKS] = { "marks", hexoid_parse_marks, NL, 0, 13, NONE, 0 },
	[HEXOID_FORMAT_BUNDLE] = { "bundle", hexoid_parse_bundle, NL, 1, 1, NONE, 0 },
	[HEXOID_FORMAT_LS_TREE_Z] = { "ls-tree-z", hexoid_parse_ls_tree, NUL, 0, 19, NONE, 0 },
	[HEXOID_FORMAT_LS_FILES_Z] = { "ls-files-z", hexoid_parse_ls_files, NUL, 0, 20, NONE, 0 },
	/* These before rev-list, which takes their lines as "<oid> <path>" and would leave
	 * their later IDs unchecked. */
	[HEXOID_FORMAT_REPLACE] = { "replace", hexoid_parse_replace, NL, 0, 16, NONE, 0 },
	[HEXOID_FORMAT_REF_PEELED] = { "ref-peeled", hexoid_parse_ref_peeled, NL, 0, 18, NONE, 0 },
	[HEXOID_FORMAT_CHERRY] = { "cherry", hexoid_parse_cherry, NL, 0, 17, NONE, 0 },
	[HEXOID_FORMAT_SUBMODULE_STATUS] = { "submodule-status", hexoid_parse_submodule_status, NL, 0, 21, NONE, 0 },
	/* A heuristic, never chosen by AUTO; an empty line is text too. */
	[HEXOID_FORMAT_TEXT] = { "text", hexoid_parse_text, NL, 1, 0, NONE, 0 },
	/* pretty-raw before rev-list-format, which takes its records too (a message's
	 * lines as what a --format made) but would read IDs in the message. */
	[HEXOID_FORMAT_PRETTY_RAW] = { "pretty-raw", hexoid_parse_pretty_raw, NL, 1, 25, NONE, 0 },
	[HEXOID_FORMAT_REV_LIST_FORMAT] = { "rev-list-format", hexoid_parse_rev_list_format, NL, 1, 26, NONE, 0 },
	[HEXOID_FORMAT_BLAME] = { "blame", hexoid_parse_blame, NL, 0, 27, NONE, 0 },
	[HEXOID_FORMAT_WORKTREES] = { "worktrees", hexoid_parse_worktrees, NL, 1, 28, NONE, 0 },
	[HEXOID_FORMAT_ID_FIELDS] = { "id-fields", hexoid_parse_id_fields, NL, 1, 29, NONE, 0 },
	[HEXOID_FORMAT_GRAPH] = { "graph", hexoid_parse_graph, NL, 0, 30, NONE, 0 },
	[HEXOID_FORMAT_MERGE_TREE] = { "merge-tree", hexoid_parse_merge_tree, NL, 1, 31, NONE, 0 },
	[HEXOID_FORMAT_FAST_EXPORT] = { "fast-export", hexoid_parse_fast_export, NL, 1, 32, NONE, 0 },
	[HEXOID_FORMAT_MERGE_TREE_Z] = { "merge-tree-z", hexoid_parse_merge_tree_z, NUL, 1, 33, NONE, 0 },
};
