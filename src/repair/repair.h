/*
 * The repair's shared state, which every part of it takes: the repair (the audit, the
 * plan's actions, the counts), an action and its fixes, the settings read from git's
 * config. The parts, from the bottom: tell.c (an action told and counted), settings.c,
 * map.c (hexoid-rewrite-map), plan.c (the plan from the audit's findings), text.c (a
 * file's IDs lowercased), names.c (renames), history.c (the rewrite applied); repair.c
 * is the API over them. lock.c, object.c and rewrite.c are below them all.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_REPAIR_INTERNAL_H
#define HEXOID_REPAIR_INTERNAL_H

#include <stddef.h>
#include <string.h>

#include "hexoid_audit.h"
#include "hexoid_repair.h"
#include "repair/lock.h"
#include "repair/rewrite.h"

/* Where an ID to lowercase is: as the audit found it. */
struct fix {
	unsigned long long line;
	unsigned long column;
};

struct action {
	enum hexoid_repair_kind kind;
	enum hexoid_audit_area area;
	char *path;
	char *to;          /* HEXOID_REPAIR_RENAME: the lowercase name; REWRITE: the new ID */
	char *note;        /* REWRITE: why it cannot be done, when it cannot */
	struct fix *fixes;
	size_t n, cap;
};

/* What core.fsync asks to flush, for the files a repair writes (git's components). */
enum {
	FSYNC_LOOSE_OBJECT = 1 << 0,
	FSYNC_PACK = 1 << 1,
	FSYNC_PACK_METADATA = 1 << 2,
	FSYNC_COMMIT_GRAPH = 1 << 3,
	FSYNC_INDEX = 1 << 4,
	FSYNC_REFERENCE = 1 << 5,
	FSYNC_OBJECTS = FSYNC_LOOSE_OBJECT | FSYNC_PACK,
	FSYNC_DERIVED = FSYNC_PACK_METADATA | FSYNC_COMMIT_GRAPH,
	FSYNC_COMMITTED = FSYNC_OBJECTS | FSYNC_REFERENCE,
	FSYNC_ADDED = FSYNC_COMMITTED | FSYNC_INDEX,
	FSYNC_ALL = FSYNC_ADDED | FSYNC_DERIVED,
	FSYNC_DEFAULT = (FSYNC_OBJECTS | FSYNC_DERIVED) & ~FSYNC_LOOSE_OBJECT,
};

struct settings {
	long ref_timeout;     /* core.filesRefLockTimeout, ms */
	long packed_timeout;  /* core.packedRefsTimeout, ms */
	unsigned fsync;       /* core.fsync */
};

/* An object finding kept until the rewrite's plan says whether it fixes it. */
struct held {
	struct hexoid_audit_finding f;
	char *path, *header, *message;
};

struct hexoid_repair {
	struct hexoid_audit *audit;
	struct held *held;
	size_t nheld, capheld;
	struct rewrite *rw;
	struct rewrite_plan *rplan;
	size_t mapped_loose;  /* held findings of an earlier rewrite's old loose objects */
	struct action *v;
	size_t n, cap;
	int planned;
	struct hexoid_repair_count count;
	struct settings set;
	const struct hexoid_repair_options *o; /* during a call */
	int stopped;
};

/* Whether the path is a packed-refs file (the repository's, or a submodule's). */
static inline int is_packed_refs(const char *path)
{
	const char *slash = strrchr(path, '/');
	return !strcmp(slash ? slash + 1 : path, "packed-refs");
}

/* --- tell.c: an action's outcome told to the caller and counted ----------------------- */

/* The IDs an action lowercases: its fixes, or the one in a name. */
unsigned long hexoid_repair_ids_of(const struct action *a);
/* on_action called for `a` (rp->stopped set when it says stop). */
void hexoid_repair_tell(struct hexoid_repair *rp, const struct action *a,
			enum hexoid_repair_outcome out, const char *lock, unsigned long ids,
			const char *message);
/* How a plan tells an action: planned, or failed already (a rewrite that cannot be). */
void hexoid_repair_tell_planned(struct hexoid_repair *rp, const struct action *a);
void hexoid_repair_count_outcome(struct hexoid_repair *rp, enum hexoid_repair_outcome res);

/* --- settings.c: git's config, as a repair reads it ----------------------------------- */

/* The config files git reads, system to repository, the last value winning. */
void hexoid_repair_read_settings(struct settings *st, const char *gitdir);

/* --- map.c: hexoid-rewrite-map, the old and new ID of each object a rewrite wrote ------ */

struct pair {
	unsigned char old_oid[HEXOID_MAX_RAWSZ], new_oid[HEXOID_MAX_RAWSZ];
};

/* The map of the git directory `dir`, sorted by old ID, malloc'ed; 0 pairs when there
 * is none. 0, or -1. */
int hexoid_repair_map_load(const char *dir, enum hexoid_algo algo, struct pair **out, size_t *n);
/* The pair of the old ID `oid` (padded with zeros to HEXOID_MAX_RAWSZ), or NULL. */
const struct pair *hexoid_repair_map_find(const struct pair *map, size_t n,
					  const unsigned char *oid);
/* The rewrite's pairs added to the map under its lock. 0, or -1 with err. */
int hexoid_repair_map_write(struct hexoid_repair *rp, struct journal *j, char *err,
			    size_t errlen);

/* --- plan.c: the audit's findings turned into actions --------------------------------- */

/* hexoid_audit_options.on_finding during a plan: ctx is the repair. */
int hexoid_repair_plan_finding(void *ctx, const struct hexoid_audit_finding *f);
/* With rewrite_history, after the audit: the walk, the new objects, the refs to move.
 * 0; 1 when on_left said stop; -1 with err. */
int hexoid_repair_plan_rewrite(struct hexoid_repair *rp, const struct hexoid_repair_options *o,
			       char *err, size_t errlen);
/* The plan let go: no action, nothing held, the counts zero. */
void hexoid_repair_plan_clear(struct hexoid_repair *rp);

/* --- text.c: one file's IDs lowercased under its locks -------------------------------- */

/* The ref a reflog (`path`, in the git directory `gitdir`) belongs to, malloc'ed; NULL
 * when no git directory is above it. */
char *hexoid_repair_reflog_ref(const char *gitdir, const char *path);
/* Whether the file of `area` is flushed before it is renamed into place. */
int hexoid_repair_wants_fsync(const struct hexoid_repair *rp, enum hexoid_audit_area area);
/* All of p written, through EINTR and short writes. 0, or -1 (errno). */
int hexoid_repair_write_all(int fd, const char *p, size_t n);
/* One lowercase action, under its locks; told and counted. */
void hexoid_repair_lowercase(struct hexoid_repair *rp, struct journal *j, struct action *a);

/* --- names.c: loose objects and replace refs renamed ---------------------------------- */

/* One rename action; told and counted. */
void hexoid_repair_rename(struct hexoid_repair *rp, struct journal *j, struct action *a);

/* --- history.c: the rewrite applied --------------------------------------------------- */

/* What a rewrite leaves (its map's old IDs out of reflogs and loose files). 0, or -1
 * with err. */
int hexoid_repair_cleanup(struct hexoid_repair *rp, struct journal *j, char *err, size_t errlen);
/* The rewrite: objects, map, refs, cleanup, notes; each rewrite action told. */
void hexoid_repair_rewrite(struct hexoid_repair *rp, struct journal *j,
			   const struct hexoid_repair_options *o);
/* A notes ref's tree given lowercase names; told and counted. */
void hexoid_repair_notes(struct hexoid_repair *rp, struct journal *j, struct action *a,
			 const struct hexoid_repair_options *o);

#endif
