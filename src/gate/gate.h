/*
 * The push gate's insides (include/hexoid_gate.h is the API), shared by its files:
 *
 *   gate.c        the API: options, updates, the run in order
 *   git.c         running git: its environment, the processes a cancel or the time
 *                 limit ends, the reasons the check could not be done
 *   catfile.c     a git cat-file --batch client
 *   headers.c     the header checks of commits and tags read through cat-file
 *   quarantine.c  which objects the push brought (the quarantine's IDs)
 *   walk.c        the rev-list walk from the new values, and naming a ref for each finding
 *   pushed.c      the scan of the pushed objects
 *   verdict.c     the findings in report order, and the verdict
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_GATE_INTERNAL_H
#define HEXOID_GATE_INTERNAL_H

#include <pthread.h>
#include <stdio.h>
#include <sys/types.h>

#include "hexoid_gate.h"
#include "hexoid_idx.h"
#include "util/oidset.h"

/* One ref update: <old> <new> <ref>. */
struct gate_update {
	char old[HEXOID_MAX_HEXSZ + 1], new[HEXOID_MAX_HEXSZ + 1];
	char *ref;
};

/* A finding reached from one of several new refs: which one is found at the end. */
#define GATE_REF_PENDING (-2)

/* One finding, kept until the end: the report is sorted by ref. */
struct gate_rec {
	int ref;                  /* index of the update whose ref reaches it, -1, or
				     GATE_REF_PENDING */
	enum hexoid_code code;
	enum hexoid_finding_class cls;
	int has_oid;
	unsigned char oid[HEXOID_MAX_RAWSZ];
	enum hexoid_object_type type;
	char header[24];          /* "" when not about a header */
	unsigned line, column;
	uint64_t offset;
	char *path;               /* a pushed file (quarantine findings), or NULL */
	char message[224];
};

struct gate_recs {
	struct gate_rec *v;
	size_t n, cap;
};

/* The pushed objects' IDs: the quarantine's pack indexes, mapped, and its loose
 * objects' names. */
struct gate_quarantine {
	struct pk_map *maps;
	struct hexoid_idx *idx;
	size_t n;
	struct hexoid_oidset loose; /* sorted */
	int blocking;               /* a loose one is no regular file: git would wait on it */
};

struct hexoid_gate {
	struct hexoid_gate_options opt; /* the caller's, its strings replaced by ours */
	char *git, *git_dir, *quarantine, **alternates;
	char **env;               /* git's environment */
	char **env_set;           /* what the gate sets in it ("NAME=value") */
	enum hexoid_algo algo;
	size_t hexsz, rawsz;
	struct gate_update *u;
	size_t nu;
	struct gate_recs walk;    /* found through the refs */
	struct gate_recs pushed;  /* found in the quarantine */
	int trouble;              /* the check could not be done */
	int nomem;                /* "out of memory" was said */
	int stopped;              /* a callback asked to stop */
	int ran;
	pid_t cat_pid;            /* git cat-file --batch, started on first use */
	FILE *cat_in, *cat_out;
	struct gate_quarantine q;
	struct gate_by_value {      /* the updates by new value, to name a ref from an ID */
		unsigned char oid[HEXOID_MAX_RAWSZ]; /* zero past rawsz */
		int ref;
	} *by_value;
	size_t nby_value;
	/* Cancellation: a cancel or the time limit kills the registered processes. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int cancelled, timed_out, finished; /* under lock (cancelled also read atomically) */
	pid_t *pids;
	size_t npids, cappids;
};

/* gate.c */
struct gate_rec *hexoid_gate_rec_add(struct gate_recs *r); /* NULL: no memory */
int hexoid_gate_is_zero(const struct hexoid_gate *g, const char *hex);
/* The first update (lowest index) whose new value is oid, or -1. */
int hexoid_gate_ref_of_value(struct hexoid_gate *g, const unsigned char *oid);

/* git.c */
void hexoid_gate_say(struct hexoid_gate *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hexoid_gate_oom(struct hexoid_gate *g);
int hexoid_gate_cancelled(struct hexoid_gate *g);
int hexoid_gate_env(struct hexoid_gate *g);
pid_t hexoid_gate_spawn(struct hexoid_gate *g, char *argv[], int *to, int *from);
int hexoid_gate_reap(struct hexoid_gate *g, pid_t pid, const char *what);
int hexoid_gate_timer_start(struct hexoid_gate *g, pthread_t *thread);

/* Feeds a git's stdin from a thread while this one reads its stdout: object IDs as hex
 * lines, or rev-list's tips (each update's new value) and exclusions (^old). */
struct gate_feeder {
	struct hexoid_gate *g;
	FILE *to;
	const struct hexoid_oidset *ids;
	const int *refs;
	size_t nrefs;
	int failed;
	pthread_t thread;
};
pid_t hexoid_gate_start_fed(struct hexoid_gate *g, char **argv, struct gate_feeder *f, FILE **out);
int hexoid_gate_end_fed(struct hexoid_gate *g, pid_t pid, struct gate_feeder *f, FILE *out,
			const char *what);
void hexoid_gate_timer_stop(struct hexoid_gate *g, pthread_t thread);

/* catfile.c */
int hexoid_gate_cat_read(struct hexoid_gate *g, FILE *out, const char *name,
			 enum hexoid_object_type *type, char **buf, size_t *size, unsigned char *oid);
int hexoid_gate_cat_get(struct hexoid_gate *g, const char *name, enum hexoid_object_type *type,
			char **buf, size_t *size, unsigned char *oid);
void hexoid_gate_cat_stop(struct hexoid_gate *g);

/* headers.c */
void hexoid_gate_check_stored(struct hexoid_gate *g, int who, const struct hexoid_oidset *ids);
void hexoid_gate_check_text(struct hexoid_gate *g, int ref, const unsigned char *oid,
			    enum hexoid_object_type type, const char *text, size_t len);
int hexoid_gate_check_tags(struct hexoid_gate *g, int ref, const char *start, int *walk);

/* quarantine.c */
void hexoid_gate_quarantine_load(struct hexoid_gate *g);
int hexoid_gate_pushed(const struct hexoid_gate *g, const unsigned char *oid);
void hexoid_gate_quarantine_free(struct gate_quarantine *q);

/* walk.c */
void hexoid_gate_walk(struct hexoid_gate *g, const int *refs, size_t nrefs,
		      struct hexoid_oidset *walked);
void hexoid_gate_name_pending(struct hexoid_gate *g, const int *refs, size_t nrefs);

/* pushed.c */
struct gate_scan {
	struct hexoid_gate *g;
	pthread_t thread;
	int started;
	int trouble;              /* its own: the walk sets g->trouble meanwhile */
	char **said;              /* its reasons, given to on_error after the join */
	size_t nsaid;
};
void hexoid_gate_scan_start(struct gate_scan *ps);
void hexoid_gate_scan_finish(struct gate_scan *ps);

/* verdict.c */
void hexoid_gate_report(struct hexoid_gate *g, struct hexoid_gate_result *res);

#endif
