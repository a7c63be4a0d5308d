/*
 * hexoid_repair — make a repository's files readable by Git 3.0, under git's own locks,
 * losing nothing.
 *
 * SPDX-License-Identifier: MIT
 *
 * Git 2.x reads an object ID in uppercase hex as the same ID in lowercase; Git 3.0 reads
 * only lowercase. hexoid_repair_plan() runs the audit (hexoid_audit.h) and turns what it
 * finds into actions: each file of lines that holds IDs in uppercase (loose refs and
 * HEAD, pseudo-refs, packed-refs, reflogs, shallow, grafts, FETCH_HEAD, rebase and
 * sequencer state, MERGE_RR, dumb-HTTP info files, the commit-graph and multi-pack-index
 * chains, each linked worktree's and each submodule's) is one action: those IDs
 * lowercased and nothing else changed, which Git 2.x reads exactly as before.
 * hexoid_repair_apply() then does them, each as git replaces that file:
 *
 * - the lock git takes for it is taken first, `<file>.lock` created exclusively: for a
 *   loose ref or HEAD its own lock, for a reflog its ref's lock and then the log's, for
 *   packed-refs `packed-refs.lock` (the new contents then go to `packed-refs.new`, as
 *   git writes them). A lock that someone holds is waited for as long as git would
 *   (core.filesRefLockTimeout for refs and reflogs, core.packedRefsTimeout for
 *   packed-refs, not at all for other files), then the file is left as it was and the
 *   action says so: run again later. A lock it did not take is never removed.
 * - the file is read again under the lock, and each ID found is checked to be still
 *   there; a file changed since so that one is not is left as it was;
 * - the new contents are written beside it, flushed to disk when core.fsync asks it for
 *   that kind of file, given the old file's mode (and owner, where the process may), and
 *   renamed over it.
 *
 * A repair takes `hexoid-repair.journal` in the git directory for its whole run: a
 * second repair of the same repository fails while the first runs. The journal names
 * every lock the run creates by its inode; a run that was killed leaves it behind, and
 * the next run removes exactly those of the locks still there that are the ones it had
 * made (never one git made since), then repairs what is left. At every moment each file
 * is either as it was or as repaired: killed at any point, Git 2.x reads the repository
 * as before.
 *
 * Files named by an ID are renamed (HEXOID_REPAIR_RENAME): a loose object whose name is
 * uppercase, once its content is checked to hash to that ID (where git already has the
 * object under its lowercase name, the other name is removed); a loose replace ref
 * `refs/replace/<ID>`, under both names' locks, with its reflog, unless the lowercase
 * name is taken. Git 2.x finds each under either name; Git 3.0 under the new one only.
 *
 * Notes in fanout folders of uppercase names: a new notes commit on the notes ref,
 * written by `git fast-import`, whose tree names every note in lowercase.
 *
 * Left as found, and handed to on_left: uppercase in a commit's or tag's headers (only a
 * new history fixes it: see rewrite_history below), and every error. (A replace ref in packed-refs is renamed there, the
 * records sorted again; one in reftable through git, options->git.) Files outside the git directory (what blame.ignoreRevsFile or
 * fsck.skipList name, often tracked in the work tree) are shown with their fix and never
 * written.
 *
 * A reftable repository's refs and logs are binary: its other files are repaired as in
 * any repository.
 */
#ifndef HEXOID_REPAIR_H
#define HEXOID_REPAIR_H

#include <stddef.h>
#include <stdint.h>

#include "hexoid_audit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an action does. */
enum hexoid_repair_kind {
	HEXOID_REPAIR_LOWERCASE = 1, /* IDs lowercased in a file of the git directory */
	HEXOID_REPAIR_SHOW,          /* a file outside it: the fix is shown, not written */
	HEXOID_REPAIR_RENAME,        /* a file named by an ID renamed to lowercase */
	HEXOID_REPAIR_REWRITE,       /* a new commit: with rewrite_history, a ref moved to its
					history written again (path: the ref; to: its new ID),
					or, FAILED, a signed object that keeps the rewrite from
					being done; in the notes area, a notes ref given a
					commit whose tree names its notes in lowercase */
};

/* Where an action stands. */
enum hexoid_repair_outcome {
	HEXOID_REPAIR_PLANNED = 1,   /* planned (and, with dry_run, all that happens) */
	HEXOID_REPAIR_DONE,          /* the file was replaced */
	HEXOID_REPAIR_SHOWN,         /* HEXOID_REPAIR_SHOW: the fix was shown */
	HEXOID_REPAIR_LOCKED,        /* a lock someone holds did not go in time: left */
	HEXOID_REPAIR_CHANGED,       /* the file changed since it was read: left */
	HEXOID_REPAIR_FAILED,        /* it could not be done: left as it was */
};

/* "lowercase", "show"; "planned", "done", ...; NULL for an unknown value. */
HEXOID_API const char *hexoid_repair_kind_name(enum hexoid_repair_kind kind);
HEXOID_API const char *hexoid_repair_outcome_name(enum hexoid_repair_outcome outcome);

/* One action, valid only during the callback. */
struct hexoid_repair_action {
	enum hexoid_repair_kind kind;
	enum hexoid_repair_outcome outcome;
	enum hexoid_audit_area area;
	const char *path;      /* as the audit names it: relative to the git directory */
	const char *lock;      /* the lock it takes first ("refs/heads/main.lock"), or NULL */
	unsigned long ids;     /* IDs lowercased (or to lowercase) */
	unsigned long long line;  /* the first of them, as the audit found it: its line, and
				     the column (from 1) of its first uppercase digit */
	unsigned long column;
	const char *message;   /* LOCKED, CHANGED, FAILED: why, one line; else NULL */
	const char *to;        /* HEXOID_REPAIR_RENAME: the new name; else NULL */
};

/* Return nonzero to stop (after the action at hand, which is never left half done). */
typedef int hexoid_repair_action_fn(void *ctx, const struct hexoid_repair_action *action);
/* A finding the repair leaves as it is (see above). */
typedef int hexoid_repair_left_fn(void *ctx, const struct hexoid_audit_finding *finding);
/*
 * Called before each change a repair makes to the repository, in order: `what` is
 * "journal", "lock", "write", "rename", "link", "unlink", "update-ref", "unlock" or
 * "done", `path` the file's path relative to the git directory. For tracing, and for
 * tests that stop (or kill) a repair between any two of its steps. Return nonzero to
 * stop before it: the locks taken are let go and nothing is left half done. "unlock"
 * and "done" are told, not asked: a lock is always let go, and the journal always
 * removed at the end, stopped or not.
 */
typedef int hexoid_repair_step_fn(void *ctx, const char *what, const char *path);

struct hexoid_repair_options {
	size_t size;           /* sizeof(struct hexoid_repair_options): set by the INIT */
	unsigned jobs;         /* threads for the audit's objects; 0 and 1: this thread only */
	int dry_run;           /* apply: plan only, change nothing */
	hexoid_repair_action_fn *on_action; /* may be NULL */
	hexoid_repair_left_fn *on_left;     /* may be NULL */
	hexoid_repair_step_fn *on_step;     /* may be NULL */
	void *ctx;
	/* A new history for the commits and tags with uppercase IDs in their headers, and
	 * everything that reaches them from a ref, HEAD or a worktree's HEAD: each written
	 * again with its headers' IDs lowercased (and its parents' new IDs), every other
	 * byte kept, as one pack that `git index-pack` indexes; the refs moved in one
	 * `git update-ref --stdin` transaction (their reflogs kept, a line added); each
	 * linked worktree's detached HEAD; the notes of every notes ref copied to the new
	 * commits; and `hexoid-rewrite-map` in the git directory, "<old> <new>" a line,
	 * added to by each rewrite. Objects nothing reaches are left. */
	int rewrite_history;
	int drop_signatures;   /* a signed commit or tag is written again unsigned; without
				  it, one that would have to be makes the rewrite not happen */
	int replace_refs;      /* also refs/replace/<old> -> <new> for each, in the same
				  transaction, so that old IDs still resolve */
	const char *git;       /* the git to run for the rewrite; NULL: "git" on PATH */
};
/* Later versions only add members at the end. */
#define HEXOID_REPAIR_OPTIONS_INIT \
	{ sizeof(struct hexoid_repair_options), 1, 0, NULL, NULL, NULL, NULL, 0, 0, 0, NULL }
/* The defaults (HEXOID_REPAIR_OPTIONS_INIT's) into *options, for callers that cannot use the
 * macro, such as another language's bindings: `size` is sizeof(*options) as the caller
 * was built, and only that many bytes are written, so a program built against an older
 * header keeps working with a newer library. 0, or -1 (nothing written) for NULL or a
 * size that is no version's. */
HEXOID_API int hexoid_repair_options_init(struct hexoid_repair_options *options, size_t size);

struct hexoid_repair;

/* The repository at or above `path` (NULL: the current folder), found as the audit
 * finds it. NULL with the reason in err when there is none. */
HEXOID_API struct hexoid_repair *hexoid_repair_open(const char *path, char *err, size_t errlen);

/* The audit the repair runs: its git directory, hash, ref storage and counts. */
HEXOID_API struct hexoid_audit *hexoid_repair_audit(struct hexoid_repair *repair);

/*
 * Audit the repository and plan: on_left for each finding left, then on_action
 * (PLANNED) for each action, in the audit's order. Returns 0, 1 when a callback
 * stopped it, -1 with err on bad options or when the audit could not run.
 */
HEXOID_API int hexoid_repair_plan(struct hexoid_repair *repair,
				  const struct hexoid_repair_options *options, char *err,
				  size_t errlen);

/*
 * Do the plan (planning first if it has not been): on_action for each action with its
 * outcome. With dry_run, nothing is changed and each action is told as PLANNED.
 * Returns 0 when every action was done, 1 when a callback stopped it, 2 when some were
 * left (LOCKED, CHANGED, FAILED: a later run may do them), -1 with err when the repair
 * cannot start (another repair runs, the journal cannot be written).
 */
HEXOID_API int hexoid_repair_apply(struct hexoid_repair *repair,
				   const struct hexoid_repair_options *options, char *err,
				   size_t errlen);

/* What a repair planned and did so far. */
struct hexoid_repair_count {
	uint64_t planned;     /* actions */
	uint64_t ids;         /* IDs they lowercase */
	uint64_t done, shown, locked, changed, failed;
	uint64_t left_git3, left_errors; /* findings left, by class (warn ones not counted) */
	uint64_t recovered;   /* locks of a killed repair removed before this one */
	uint64_t commits, tags; /* rewrite_history: objects written again */
};
HEXOID_API void hexoid_repair_summary(const struct hexoid_repair *repair,
				      struct hexoid_repair_count *count);

HEXOID_API void hexoid_repair_close(struct hexoid_repair *repair);

#ifdef __cplusplus
}
#endif

#endif /* HEXOID_REPAIR_H */
