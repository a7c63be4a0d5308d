/*
 * hexoid_gate — the push check of a Git server as a library call: reject a push that
 * brings or newly reaches a commit or tag Git 3.0 will not read.
 *
 * SPDX-License-Identifier: MIT
 *
 * Git 2.x accepts, and stores, a commit whose tree or parent header or a tag whose
 * object header is uppercase hex; Git 3.0 will not read it. A push is a list of updates
 * (old value, new value, ref), as git hands them to a pre-receive hook; the gate checks
 *
 *   - every object the push brings: the quarantine folder git receives it into
 *     ($GIT_QUARANTINE_PATH), its packs and loose objects, through the scans of
 *     hexoid_pack.h (headers, and damage: CRC32s, checksums, broken zlib or deltas);
 *   - every commit and tag each pushed ref now reaches that no existing ref (nor an
 *     alternate's ref) reaches, as git's connectivity check after a push walks (or with
 *     options->full_walk, every one its old value did not reach), new or already
 *     stored, here or in an alternate: `git rev-list` from the new values with the old
 *     ones excluded, then the stored ones read through `git cat-file --batch`
 *     and their headers checked with hexoid_object_check(); and the chain of tags from
 *     each new value itself.
 *
 * and gives a verdict. Each finding names the update whose ref reaches it. It runs git
 * (options->git; else $GIT_EXEC_PATH/git when GIT_EXEC_PATH is set and that file is
 * executable, as git sets it for its hooks, so the hook uses the git that runs it; else
 * `git` on PATH) with this process's environment: run from a hook,
 * git sees the repository, the quarantine and the alternates as receive-pack set them.
 * Given options->git_dir, the gate sets them itself as receive-pack would.
 *
 * Nothing here prints, exits, or changes process-wide state (signal handlers, the
 * environment, the current folder): what goes wrong comes back through the on_error
 * callback (each reason the check could not be done, as it happens) and the verdict.
 *
 * Callbacks are called from the thread that called hexoid_gate_run(), one at a time:
 * errors as they happen, then the findings, in report order (by update in the order
 * they were added, then the pushed objects that no updated ref reaches). A callback's
 * arguments and every string they point to are valid only during the call. A nonzero
 * return stops the run: no callback follows, the git processes are ended, and
 * hexoid_gate_run() returns 1.
 *
 * Threads: a struct hexoid_gate is used by one thread at a time, except
 * hexoid_gate_cancel(), which may be called from any thread while the run goes on.
 * Several gates may run at once in one process. The gate starts a thread of its own for
 * the scan of pushed objects (and one per pipe it feeds); the scan's own threads as
 * options->jobs says.
 *
 * Options carry their size (set by hexoid_gate_options_init(&o, sizeof(o))), so fields can be added
 * at their end without breaking programs built against an older header.
 */
#ifndef HEXOID_GATE_H
#define HEXOID_GATE_H

#include <stddef.h>
#include <stdint.h>

#include "hexoid.h"
#include "hexoid_pack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The finding's update when no updated ref reaches it. */
#define HEXOID_GATE_NO_UPDATE ((size_t)-1)

struct hexoid_gate_finding {
	enum hexoid_code code;          /* HEXOID_CODE_UPPERCASE_ID, HEXOID_CODE_BAD_ID, or damage */
	enum hexoid_finding_class cls;  /* HEXOID_CLASS_GIT3 or HEXOID_CLASS_ERROR */
	int rejects;                    /* this finding rejects the push (options: mixed,
					   report_only) */
	size_t update;                  /* index of the update whose ref reaches it, or
					   HEXOID_GATE_NO_UPDATE */
	const char *ref;                /* that update's ref, or NULL */
	const char *pushed;             /* found in the pushed objects: the pack's or loose
					   object's name in the quarantine ("pack-....pack",
					   "ab/cdef..."); NULL when found through the refs */
	int has_oid;                    /* oid holds the object's ID */
	unsigned char oid[HEXOID_MAX_RAWSZ];
	enum hexoid_algo algo;
	enum hexoid_object_type type;   /* commit or tag for header findings, else as known */
	const char *header;             /* "tree", "parent", "object", "mergetag object", or NULL */
	unsigned line, column;          /* 1-based, in the object's text; 0 when not about text */
	uint64_t offset;                /* in the pushed pack, or HEXOID_NO_OFFSET */
	const char *message;            /* one line, no newline, for people */
};

/* A finding, in report order; nonzero stops the run. */
typedef int hexoid_gate_finding_fn(void *ctx, const struct hexoid_gate_finding *finding);
/* A reason the check cannot be done or trusted (one line, no newline), as it happens;
 * the verdict is then incomplete. Nonzero stops the run. */
typedef int hexoid_gate_error_fn(void *ctx, const char *message);

struct hexoid_gate_options {
	size_t size;                 /* sizeof(struct hexoid_gate_options): set by
					hexoid_gate_options_init() */
	enum hexoid_algo algo;       /* the repository's hash; 0: that of the first update */
	int mixed;                   /* uppercase IDs only warn (Git 2.x takes them); IDs that
					are not hex and damage still reject */
	int report_only;             /* nothing rejects: findings warn, and a check that
					could not be done accepts */
	unsigned jobs;               /* threads for each pushed pack; 0 and 1: one; no more
					than the processors online */
	unsigned long time_limit_ms; /* 0: none; else the run ends when it is up (its git
					processes killed) with an incomplete verdict */
	int time_limit_accepts;      /* when the time is up, accept rather than reject */
	int reached_only;            /* an update hook's view: leave out findings in pushed
					objects that no updated ref reaches (damage that names
					no object is still reported) */
	const char *git;             /* the git to run: a path, or a name looked up on PATH;
					NULL: $GIT_EXEC_PATH/git when that is an executable
					file, else "git" */
	const char *git_dir;         /* the repository; NULL: git finds it from the
					environment (a hook's) and current folder */
	const char *quarantine;      /* the folder holding the pushed objects
					($GIT_QUARANTINE_PATH); NULL: the push brought none
					apart from the repository's */
	const char *const *alternates; /* with git_dir: more object folders git should read
					  (NULL-terminated), after git_dir's own */
	hexoid_gate_finding_fn *on_finding; /* may be NULL */
	hexoid_gate_error_fn *on_error;     /* may be NULL */
	void *ctx;                   /* given to both callbacks */
	int full_walk;               /* walk from each new value excluding only its old
					value: every commit the pushed refs reach that their old
					values did not. 0 (the default): walk as git's
					connectivity check does, excluding what every existing
					ref and the alternates' refs already reach
					(`--not --all --alternate-refs`) */
};

/* Fill *options with the defaults: lowercase only, rejecting, no time limit, one job,
 * git from PATH, the repository and quarantine from the environment left to the caller
 * (NULL). `size` is sizeof(*options) as the caller was built, and only that many bytes
 * are written, so a program built against an older header keeps working with a newer
 * library. 0, or -1 (nothing written) for NULL or a size that is no version's. */
HEXOID_API int hexoid_gate_options_init(struct hexoid_gate_options *options, size_t size);

enum hexoid_gate_verdict {
	HEXOID_GATE_ACCEPT = 0,      /* let the push in (warnings, maybe; see `complete`) */
	HEXOID_GATE_REJECT = 1,      /* findings reject it */
	HEXOID_GATE_UNCHECKED = 2,   /* rejected: the check could not be done (git failed, a
					pushed pack unusable, the time limit, no memory) */
};

struct hexoid_gate_result {
	enum hexoid_gate_verdict verdict; /* as hexoid pre-receive's exit status */
	int complete;                /* 0: the check could not be done (errors were given to
					on_error, or the time was up) */
	int timed_out;               /* the time limit ended it */
	uint64_t rejecting;          /* findings reported that reject the push */
	uint64_t warnings;           /* findings reported that do not */
};

struct hexoid_gate;

/* A gate for one push. NULL with the reason in err on bad options (a size that is no
 * version's) or no memory. The options' strings are copied. */
HEXOID_API struct hexoid_gate *hexoid_gate_new(const struct hexoid_gate_options *options,
					       char *err, size_t errlen);

/*
 * Add one ref update: old and new as git gives them (40 or 64 lowercase hex digits, all
 * zeros for none: a new ref or a deletion), both of the gate's hash (the first update
 * fixes it when options->algo is 0), and the ref's name (not empty). 0, or -1 with the
 * reason in err: nothing was added.
 */
HEXOID_API int hexoid_gate_add_update(struct hexoid_gate *gate, const char *old_oid,
				      const char *new_oid, const char *ref, char *err,
				      size_t errlen);

/* How many updates were added. */
HEXOID_API size_t hexoid_gate_count_updates(const struct hexoid_gate *gate);

/*
 * Check the push: callbacks as the top of this file says, the verdict in *result.
 * Returns 0 when done (the check may still be incomplete: see result->complete), 1 when
 * a callback or hexoid_gate_cancel() stopped it (*result then says UNCHECKED), or -1
 * when it cannot run at all (run twice, no updates' hash) with the reason in err.
 */
HEXOID_API int hexoid_gate_run(struct hexoid_gate *gate, struct hexoid_gate_result *result,
			       char *err, size_t errlen);

/* Stop a run going on in another thread, promptly: its git processes are killed and
 * hexoid_gate_run() returns 1. Safe from any thread, and before or after the run. */
HEXOID_API void hexoid_gate_cancel(struct hexoid_gate *gate);

/* Free the gate. NULL is fine. Not while hexoid_gate_run() goes on. */
HEXOID_API void hexoid_gate_free(struct hexoid_gate *gate);

#ifdef __cplusplus
}
#endif

#endif /* HEXOID_GATE_H */
