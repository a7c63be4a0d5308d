/*
 * The history rewrite of hexoid repair --rewrite-history (rewrite.c): every commit and
 * tag that a ref reaches and that has an uppercase ID in its headers, or reaches one
 * that does, written again with its headers' IDs lowercased (and its parents' new IDs),
 * nothing else changed; the new objects as one pack that git indexes; the refs moved in
 * one transaction of git's; a map of old to new IDs kept in the repository.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_REPAIR_REWRITE_H
#define HEXOID_REPAIR_REWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "hexoid.h"

struct rewrite;

/* A ref (or detached HEAD) the rewrite moves. */
struct rewrite_ref {
	char *name;       /* "refs/heads/main", "HEAD", or a worktree's "worktrees/<id>/HEAD" */
	char *worktree;   /* a linked worktree's folder, for its detached HEAD; else NULL */
	unsigned char old_oid[HEXOID_MAX_RAWSZ], new_oid[HEXOID_MAX_RAWSZ];
};

/* An object the rewrite cannot do without dropping its signature. */
struct rewrite_signed {
	unsigned char oid[HEXOID_MAX_RAWSZ];
	int tag;          /* a tag (its message's signature); else a commit (gpgsig) */
};

struct rewrite_plan {
	struct rewrite_ref *refs;
	size_t nrefs;
	struct rewrite_signed *signed_objs;
	size_t nsigned;
	uint64_t commits, tags;   /* objects written again */
};

/*
 * Walk everything the refs of the git directory `gitdir` reach (git's own for-each-ref
 * and worktree list name them; `git` is the program to run) and plan the rewrite: the
 * new objects in memory, the refs to move. With drop_signatures, signed objects are
 * written without their signatures; without it, each is listed in plan->signed_objs and
 * nothing is written. Returns the handle, or NULL with err.
 */
struct rewrite *hexoid_rewrite_plan(const char *gitdir, enum hexoid_algo algo, const char *git,
				    int drop_signatures, struct rewrite_plan **plan, char *err,
				    size_t errlen);

/* Whether the object `oid` is rewritten (found bad, or reaching one). */
int hexoid_rewrite_has(const struct rewrite *rw, const unsigned char *oid);

/* The new objects, as one pack piped to `git index-pack --stdin`: 0, or -1 with err. */
int hexoid_rewrite_write_objects(struct rewrite *rw, char *err, size_t errlen);

/* "<old> <new>\n" for each object written again, malloc'ed, in *text. 0, or -1. */
int hexoid_rewrite_map_text(const struct rewrite *rw, char **text, size_t *len);

/* Every ref in one `git update-ref --stdin` transaction, all or none (with replace_refs,
 * refs/replace/<old> made for each object too); then each linked worktree's detached
 * HEAD. 0, or -1 with err. */
int hexoid_rewrite_move_refs(struct rewrite *rw, int replace_refs, char *err, size_t errlen);

/* The notes of each notes ref copied to the new commits (git notes copy --stdin). 0, or
 * -1 with err. */
int hexoid_rewrite_copy_notes(struct rewrite *rw, char *err, size_t errlen);

/*
 * The notes ref `ref` of the git directory `gitdir` given a new commit, a child of its
 * tip, whose tree names every note as git's own notes code names it (in lowercase, fanned
 * out as git fans out that many): written by `git fast-import` from the notes `git notes
 * list` reads (Git 2.x reads uppercase fanout folders; the Git 3.0 build loses the notes
 * under them). fast-import moves the ref only from the tip it read. The new commit's ID
 * in hex into newhex (HEXOID_MAX_HEXSZ + 1 bytes). 0, or -1 with err.
 */
int hexoid_rewrite_notes_tree(const char *gitdir, enum hexoid_algo algo, const char *git,
			      const char *ref, char *newhex, char *err, size_t errlen);

/* The ref `from` renamed `to` through git (a reftable's tables), in one `git update-ref
 * --stdin` transaction: `to` made with from's value, `from` deleted if it still has it.
 * 0, or -1 with err. */
int hexoid_rewrite_rename_ref(const char *gitdir, const char *git, const char *from, const char *to,
			      char *err, size_t errlen);

void hexoid_rewrite_free(struct rewrite *rw);

#endif
