/*
 * The audit's shared state, which every part of it takes: the audit (what
 * hexoid_audit_open() found), a repository and its git directories, a run and its
 * findings (report.c). The parts, from the bottom: names.c, report.c, config.c,
 * feed.c and tokens.c, notes.c, walk.c and places.c, objects.c, discover.c,
 * submodules.c, open.c, run.c; reftable.c reads reftable for notes.c and walk.c.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_AUDIT_INTERNAL_H
#define HEXOID_AUDIT_INTERNAL_H

#include <stddef.h>
#include <sys/types.h>

#include "hexoid_audit.h"

struct hexoid_audit {
	char *top;      /* the work tree's top folder, or NULL for a bare repository */
	char *gitdir;   /* the git directory found (a linked worktree's own, perhaps) */
	char *common;   /* the repository's common git directory: what is audited */
	enum hexoid_algo algo;
	enum hexoid_ref_storage refs;
	int objects_only;  /* hexoid_audit_open_objects(): common is an objects folder */
	struct hexoid_audit_count count[HEXOID_AREA_COUNT];
};

/* A git directory whose places are read: `dir` on disk, findings name its files
 * `prefix` + their path in it ("", "worktrees/wt/", "modules/sub/"). */
struct where {
	char *dir;
	char *prefix;
	int worktree;     /* a linked worktree's own folder: only SCOPE_WORKTREE places */
};

/* One repository: the audited one, or a submodule's under modules/. */
struct repo {
	char *dir;        /* its common git directory */
	char *top;        /* where git runs its commands: the work tree's top, or dir */
	char *prefix;
	enum hexoid_algo algo;
	int reftable;
	int objects_only; /* dir is an objects folder, alone */
	struct where *wheres;  /* [0] is the repository's own; then its linked worktrees */
	size_t nwheres;
};

struct run {
	struct hexoid_audit *audit;
	struct hexoid_audit_options o;
	int stopped;
	char err[256];
	/* The git directories met so far, to walk each once (a submodule's modules/ entry
	 * may lead back into the repository). */
	struct { dev_t dev; ino_t ino; } *seen;
	size_t nseen, capseen;
};

/* strerror() may share one buffer between threads; this one is the caller's. */
struct errtext {
	char s[128];
};
const char *hexoid_audit_errtext(int e, struct errtext *t);

/* A finding to the caller, counted in its area; returns whether the run stops. */
int hexoid_audit_report(struct run *r, struct hexoid_audit_finding *f);

/* A finding about a file as a whole (no line): shown as PREFIX + rel. */
void hexoid_audit_file_finding(struct run *r, enum hexoid_audit_area area, const struct where *w,
			       const char *rel, enum hexoid_code code, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/*
 * Read a whole small file `name` in the folder dirfd (util/file.h). With `checked`, the
 * caller knows it is a regular file (readdir said so); otherwise it is stat'ed first, so
 * a FIFO, socket or device is never opened. Returns 0 with the data, 1 if it does not
 * exist, -1 after reporting why it cannot be read (when `say`).
 */
int hexoid_audit_read_at(struct run *r, enum hexoid_audit_area area, const struct where *w,
			 int dirfd, const char *name, const char *rel, int checked, char **data,
			 size_t *size, int say);

/* A reftable reader's error, "<file>: <what>", as a finding on that file. */
void hexoid_audit_reftable_error(struct run *r, enum hexoid_audit_area area,
				 const struct where *w, char *err);

/* Whether the run stops: a callback asked it to, or options' *cancel is set (then the
 * run stops here). From the calling thread only. */
int hexoid_audit_stop(struct run *r);
/* Whether options' *cancel is set; from any thread. */
int hexoid_audit_cancel_asked(const struct run *r);

/* Whether the folder was walked already; records it if not. -1 if it cannot be stat'ed. */
int hexoid_audit_seen_before(struct run *r, const char *dir);

#endif
