/*
 * Every place in a repository where Git reads a hex object ID, as data: where the file
 * is, what it holds, its area, and the git source that reads it. Adding a place is one
 * entry. Within an area, places are read in this order, for the main git directory
 * first and then each linked worktree's (worktrees/<name>/), by name.
 *
 * SPDX-License-Identifier: MIT
 */
#include "audit/places.h"

#define ENTRY(area, how, fmt, scope, flags, listing, path, reader) \
	{ HEXOID_AREA_##area, how, fmt, scope, flags, listing, path, reader }
#define REF(area, path, reader) \
	ENTRY(area, HOW_FILE, FMT_REF, SCOPE_WORKTREE, PLACE_FILES_REFS, 0, path, reader)
#define AT(area, fmt, scope, path, reader) ENTRY(area, HOW_FILE, fmt, scope, 0, 0, path, reader)
#define LIST(area, how, scope, flags, format, path, reader) \
	ENTRY(area, how, FMT_LISTING, scope, flags, HEXOID_FORMAT_##format, path, reader)

const struct place hexoid_audit_places[] = {
	/* HEAD and the loose refs. In a linked worktree's folder, refs/ holds only its own
	 * refs (refs/bisect/, refs/worktree/, refs/rewritten/). */
	REF(REFS, "HEAD", "refs/files-backend.c"),
	ENTRY(REFS, HOW_TREE, FMT_REF, SCOPE_WORKTREE, PLACE_FILES_REFS, 0, "refs",
	      "refs/files-backend.c"),

	/* Pseudo-refs and the refs git keeps at the top of the git directory. FETCH_HEAD
	 * and MERGE_HEAD are files whatever the ref storage; the others are refs of the
	 * backend. MERGE_HEAD holds one ID a line (an octopus merge has several). */
	REF(PSEUDO_REFS, "AUTO_MERGE", "refs/files-backend.c"),
	REF(PSEUDO_REFS, "BISECT_EXPECTED_REV", "bisect.c"),
	REF(PSEUDO_REFS, "BISECT_HEAD", "builtin/bisect.c"),
	ENTRY(PSEUDO_REFS, HOW_FILE, FMT_MAYBE_ID, SCOPE_WORKTREE, 0, 0, "BISECT_START",
	      "builtin/bisect.c"),
	REF(PSEUDO_REFS, "CHERRY_PICK_HEAD", "sequencer.c"),
	ENTRY(PSEUDO_REFS, HOW_FILE, FMT_ID_LINES, SCOPE_WORKTREE, 0, 0, "MERGE_HEAD",
	      "builtin/commit.c, builtin/merge.c"),
	REF(PSEUDO_REFS, "MERGE_AUTOSTASH", "sequencer.c (apply_autostash_ref)"),
	REF(PSEUDO_REFS, "NOTES_MERGE_PARTIAL", "builtin/notes.c (merge --commit)"),
	REF(PSEUDO_REFS, "NOTES_MERGE_REF", "builtin/notes.c"),
	REF(PSEUDO_REFS, "ORIG_HEAD", "refs/files-backend.c"),
	REF(PSEUDO_REFS, "REBASE_HEAD", "sequencer.c"),
	REF(PSEUDO_REFS, "REVERT_HEAD", "sequencer.c"),

	LIST(PACKED_REFS, HOW_FILE, SCOPE_COMMON, PLACE_FILES_REFS, PACKED_REFS, "packed-refs",
	     "refs/packed-backend.c"),
	/* logs/HEAD is the worktree's own, the rest of logs/ is common. */
	LIST(REFLOGS, HOW_TREE, SCOPE_WORKTREE, PLACE_FILES_REFS, REFLOG, "logs",
	     "refs/files-backend.c"),
	LIST(SHALLOW, HOW_FILE, SCOPE_COMMON, 0, OIDS, "shallow", "shallow.c"),
	LIST(FETCH_HEAD, HOW_FILE, SCOPE_WORKTREE, 0, FETCH_HEAD, "FETCH_HEAD",
	     "builtin/pull.c, builtin/merge.c, refs.c"),

	/* "<commit> <parent>...", one graft a line. */
	AT(GRAFTS, FMT_ALL_IDS, SCOPE_COMMON, "info/grafts", "commit.c (read_graft_line)"),

	/* The names of replace refs are the IDs of the objects they replace: file names,
	 * names in packed-refs, or names in reftable. */
	ENTRY(REPLACE, HOW_TREE, FMT_ID_NAME, SCOPE_COMMON, PLACE_FILES_REFS, 0,
	      "refs/replace", "replace-object.c"),
	ENTRY(REPLACE, HOW_FILE, FMT_REPLACE_PACKED, SCOPE_COMMON,
	      PLACE_FILES_REFS | PLACE_READ_AGAIN, 0,
	      "packed-refs", "replace-object.c"),
	ENTRY(REPLACE, HOW_REFTABLE_NAMES, FMT_ID_NAME, SCOPE_COMMON, PLACE_REFTABLE, 0,
	      "refs/replace/", "replace-object.c"),

	/* Notes: the paths of a notes tree are the annotated objects' IDs, perhaps in
	 * fanout folders (ab/cdef...). Read through the objects, loose or packed. */
	ENTRY(NOTES, HOW_NOTES, FMT_LISTING, SCOPE_COMMON, 0, 0, "refs/notes",
	      "notes.c (load_subtree)"),
	/* A conflicted `git notes merge`: a file for each note, named by its object's ID. */
	ENTRY(NOTES, HOW_TREE, FMT_ID_NAME, SCOPE_WORKTREE, 0, 0, "NOTES_MERGE_WORKTREE",
	      "notes-merge.c (notes_merge_commit)"),

	/* A stopped rebase: the apply backend's rebase-apply/, the merge backend's
	 * rebase-merge/ (its todo list and the commits done). Not read by Git 3.0, so
	 * not here: rebase-merge/stopped-sha (only tested for), rewritten-pending and
	 * current-fixups (copied or counted as text). */
	ENTRY(REBASE, HOW_FILE, FMT_REF, SCOPE_WORKTREE, PLACE_MAY_BE_EMPTY, 0,
	      "rebase-apply/abort-safety", "builtin/am.c (safe_to_abort)"),
	ENTRY(REBASE, HOW_MAILS, FMT_MAIL, SCOPE_WORKTREE, 0, 0, "rebase-apply",
	      "builtin/am.c (get_mail_commit_oid)"),
	AT(REBASE, FMT_REF, SCOPE_WORKTREE, "rebase-apply/autostash", "builtin/rebase.c"),
	AT(REBASE, FMT_REF, SCOPE_WORKTREE, "rebase-apply/onto", "builtin/rebase.c"),
	AT(REBASE, FMT_REF, SCOPE_WORKTREE, "rebase-apply/orig-head", "builtin/rebase.c"),
	AT(REBASE, FMT_REF, SCOPE_WORKTREE, "rebase-apply/original-commit", "builtin/am.c"),
	AT(REBASE, FMT_PAIRS, SCOPE_WORKTREE, "rebase-apply/rewritten", "builtin/am.c"),
	AT(REBASE, FMT_REF, SCOPE_WORKTREE, "rebase-merge/amend", "sequencer.c"),
	AT(REBASE, FMT_REF, SCOPE_WORKTREE, "rebase-merge/autostash", "sequencer.c"),
	AT(REBASE, FMT_TODO, SCOPE_WORKTREE, "rebase-merge/done", "sequencer.c"),
	AT(REBASE, FMT_TODO, SCOPE_WORKTREE, "rebase-merge/git-rebase-todo", "sequencer.c"),
	AT(REBASE, FMT_TODO, SCOPE_WORKTREE, "rebase-merge/git-rebase-todo.backup",
	   "sequencer.c (rebase.missingCommitsCheck)"),
	AT(REBASE, FMT_REF, SCOPE_WORKTREE, "rebase-merge/onto", "sequencer.c"),
	AT(REBASE, FMT_REF, SCOPE_WORKTREE, "rebase-merge/orig-head", "sequencer.c"),
	AT(REBASE, FMT_PAIRS, SCOPE_WORKTREE, "rebase-merge/rewritten-list",
	     "sequencer.c, builtin/notes.c (copy --for-rewrite)"),
	AT(REBASE, FMT_REF, SCOPE_WORKTREE, "rebase-merge/squash-onto", "sequencer.c"),
	AT(REBASE, FMT_UPDATE_REFS, SCOPE_WORKTREE, "rebase-merge/update-refs",
	   "sequencer.c (sequencer_get_update_refs_state)"),

	/* A stopped cherry-pick or revert of several commits. */
	AT(SEQUENCER, FMT_REF, SCOPE_WORKTREE, "sequencer/abort-safety", "sequencer.c"),
	AT(SEQUENCER, FMT_TODO, SCOPE_WORKTREE, "sequencer/done", "sequencer.c"),
	AT(SEQUENCER, FMT_REF, SCOPE_WORKTREE, "sequencer/head", "sequencer.c"),
	AT(SEQUENCER, FMT_TODO, SCOPE_WORKTREE, "sequencer/todo", "sequencer.c"),

	/* rerere's conflicts in progress: "<id>[.<n>]\t<path>" records ending in NUL. */
	AT(RERERE, FMT_RECORDS, SCOPE_WORKTREE, "MERGE_RR", "rerere.c (read_rr)"),
	ENTRY(RERERE, HOW_FOLDER_NAMES, FMT_LISTING, SCOPE_COMMON, 0, 0, "rr-cache",
	      "rerere.c (is_rr_cache_dirname, rerere gc)"),

	/* Files the config names: an ID a line, '#' comments. Shown as the config names
	 * them; a relative path is from the work tree's top, where git runs. */
	ENTRY(CONFIG_FILES, HOW_CONFIG, FMT_OID_LIST, SCOPE_COMMON, 0, 0, "blame.ignoreRevsFile",
	      "oidset.c (oidset_parse_file_carefully), builtin/blame.c"),
	ENTRY(CONFIG_FILES, HOW_CONFIG, FMT_OID_LIST, SCOPE_COMMON, 0, 0, "fetch.fsck.skipList",
	      "oidset.c, fetch-pack.c"),
	ENTRY(CONFIG_FILES, HOW_CONFIG, FMT_OID_LIST, SCOPE_COMMON, 0, 0, "fsck.skipList",
	      "oidset.c, fsck.c"),
	ENTRY(CONFIG_FILES, HOW_CONFIG, FMT_OID_LIST, SCOPE_COMMON, 0, 0, "receive.fsck.skipList",
	      "oidset.c, builtin/receive-pack.c"),

	/* What `git update-server-info` writes for dumb HTTP clients. */
	AT(DUMB_HTTP, FMT_ID_LINES, SCOPE_COMMON, "info/refs", "http-walker.c, remote-curl.c"),
	AT(DUMB_HTTP, FMT_PACKS, SCOPE_COMMON, "objects/info/packs", "http.c (http_get_info_packs)"),

	/* A partial clone's .promisor files: their lines are copied, never parsed; their
	 * names are pack names. */
	ENTRY(PROMISOR, HOW_PROMISOR_NAMES, FMT_LISTING, SCOPE_COMMON, 0, 0, "objects/pack",
	      "packfile.c (add_packed_git)"),
	LIST(GRAPH_CHAIN, HOW_FILE, SCOPE_COMMON, 0, OIDS,
	     "objects/info/commit-graphs/commit-graph-chain", "commit-graph.c"),
	LIST(MIDX_CHAIN, HOW_FILE, SCOPE_COMMON, 0, OIDS,
	     "objects/pack/multi-pack-index.d/multi-pack-index-chain", "midx.c"),
};

const size_t hexoid_audit_nplaces = sizeof(hexoid_audit_places) / sizeof(hexoid_audit_places[0]);
