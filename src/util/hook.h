/*
 * A pause between listing a file and reading it, for the tests: git may delete or rename
 * what the audit listed (repack, gc, pack-refs, reftable compaction), and the readers must
 * take that as git takes it. A test sets a function that is called at each of these points
 * and changes the repository there, so that each race is replayed the same way every time.
 * Unset (always, outside the tests), a point costs one load and a branch. Library-internal
 * (hidden).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_UTIL_HOOK_H
#define HEXOID_UTIL_HOOK_H

enum hexoid_hook_point {
	HEXOID_HOOK_LOOSE_FOLDER, /* a loose object folder listed, not yet opened: path is it */
	HEXOID_HOOK_LOOSE_OBJECT, /* a loose object listed, not yet read: its path */
	HEXOID_HOOK_PACK_SCAN,    /* a pack listed, not yet scanned: its .pack */
	HEXOID_HOOK_ODB_PACK,     /* the object reader: a pack listed, not yet mapped */
	HEXOID_HOOK_REFTABLE,     /* tables.list read, its tables not yet: the list's path */
};

typedef void hexoid_hook_fn(void *ctx, enum hexoid_hook_point at, const char *path);

/* The function called at every point from now on (NULL: none), and its ctx. Set it
 * before the run it is for: the run's threads read it without a lock. */
void hexoid_hook_set(hexoid_hook_fn *fn, void *ctx);

extern hexoid_hook_fn *hexoid_hook_fn_set;
extern void *hexoid_hook_ctx;

static inline void hexoid_hook(enum hexoid_hook_point at, const char *path)
{
	if (hexoid_hook_fn_set)
		hexoid_hook_fn_set(hexoid_hook_ctx, at, path);
}

#endif
