/*
 * The repair's journal and its locks (lock.c): lock files taken exclusively as git takes
 * them, waited for as git waits, and named in a journal by inode so that a repair killed
 * at any point leaves nothing the next one cannot take back.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_REPAIR_LOCK_H
#define HEXOID_REPAIR_LOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hexoid_repair.h"

struct journal {
	char *dir;        /* the git directory, absolute; every `rel` is relative to it */
	char *path;       /* dir/hexoid-repair.journal */
	int fd;           /* -1 when not open */
	unsigned long serial;
	hexoid_repair_step_fn *on_step;
	void *ctx;
	int stopped;      /* on_step said stop */
};

/* A file created exclusively: a lock, or git's packed-refs.new. */
struct lock {
	char *rel;        /* its path, relative to the journal's dir; NULL: not held */
	int fd;
};

/*
 * Take the journal of the git directory `dir`: created exclusively. One that a killed
 * repair left (its process is gone) is taken back first: each lock it names that is
 * still the very file that repair made is removed, and *recovered counts them. Returns
 * 0, or -1 with err (another repair runs; the folder cannot be written).
 */
int hexoid_repair_journal_open(struct journal *j, const char *dir, hexoid_repair_step_fn *on_step,
			       void *ctx, uint64_t *recovered, char *err, size_t errlen);
/* Remove the journal: every lock of the run has been let go. */
void hexoid_repair_journal_close(struct journal *j);

/* Ask on_step before a change; nonzero (and j->stopped) when it says stop. */
int hexoid_repair_step(struct journal *j, const char *what, const char *rel);

enum lock_status { LOCK_TAKEN, LOCK_HELD, LOCK_ERROR, LOCK_STOPPED };

/*
 * Create `rel` exclusively (as open(O_CREAT|O_EXCL) would, mode `mode` before umask), its
 * inode first in the journal: while someone else's is there, try again for timeout_ms
 * (0: once), waiting longer each time as git does. Missing folders on the way are made.
 * LOCK_HELD when it is still there after that, LOCK_ERROR with err, LOCK_STOPPED when
 * on_step said stop.
 */
enum lock_status hexoid_repair_lock(struct journal *j, const char *rel, long timeout_ms,
				    mode_t mode, struct lock *lk, char *err, size_t errlen);
/* Let a lock go without using it: removed. */
void hexoid_repair_unlock(struct journal *j, struct lock *lk);
/* The lock's contents become `target`'s: renamed over it. 0, or -1 with err (the lock is
 * let go then). */
int hexoid_repair_commit(struct journal *j, struct lock *lk, const char *target, char *err,
			 size_t errlen);

#endif
