/*
 * Every place in a repository where Git reads a hex object ID, as data: where the file
 * is, what it holds, its area, and the git source that reads it. Adding a place is one
 * entry. Within an area, places are read in this order, for the main git directory
 * first and then each linked worktree's (worktrees/<name>/), by name.
 *
 * SPDX-License-Identifier: MIT
 */
#include "audit/audit.h"

#define ENTRY(area, how, fmt, scope, flags, listing, path, reader) \
	{ HEXOID_AREA_##area, how, fmt, scope, flags, listing, path, reader }
#define REF(area, path, reader) \
	ENTRY(area, HOW_FILE, FMT_REF, SCOPE_WORKTREE, PLACE_FILES_REFS, 0, path, reader)
#define LIST(area, how, scope, flags, format, path, reader) \
	ENTRY(area, how, FMT_LISTING, scope, flags, HEXOID_FORMAT_##format, path, reader)

const struct place audit_places[] = {
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
	LIST(GRAPH_CHAIN, HOW_FILE, SCOPE_COMMON, 0, OIDS,
	     "objects/info/commit-graphs/commit-graph-chain", "commit-graph.c"),
	LIST(MIDX_CHAIN, HOW_FILE, SCOPE_COMMON, 0, OIDS,
	     "objects/pack/multi-pack-index.d/multi-pack-index-chain", "midx.c"),
};

const size_t audit_nplaces = sizeof(audit_places) / sizeof(audit_places[0]);
