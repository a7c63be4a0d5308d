/*
 * The object areas: loose objects, packs and alternates (objects.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_AUDIT_OBJECTS_H
#define HEXOID_AUDIT_OBJECTS_H

#include <pthread.h>
#include <stdint.h>

#include "audit/audit.h"

/*
 * The object areas (loose objects, packs) are scanned by hexoid_audit_objects_end(), in
 * this thread, or, started with a thread, in a thread of their own while this one reads
 * the files: its findings then wait in a queue, and are reported after the other areas,
 * in order.
 */
struct kept {
	struct hexoid_audit_finding f;
	char *path, *message;
	char header[32];
};
struct objscan {
	struct run *r;
	const struct repo *rp;
	enum hexoid_audit_area area;
	int threaded;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct kept *v;         /* threaded: the queue */
	size_t n, cap, taken;
	char what[512];         /* threaded: the progress to show */
	uint64_t done, total;
	int progress_new, finished, stop, oom;
	uint64_t scanned[3];    /* loose, packed, in alternates */
	char *current;          /* the pack being scanned, as shown */
	enum hexoid_code code; /* nonzero: the code of the next finding */
};

/* The object areas of the repository rp: with `thread`, scanned from now on in a
 * thread of their own (or in this one when it cannot start). */
void hexoid_audit_objects_start(struct objscan *os, struct run *r, const struct repo *rp,
				int thread);
/* Their findings and progress reported, in order: those of the thread, or the scan now
 * unless the run has stopped; their counts added to the audit's. */
void hexoid_audit_objects_end(struct objscan *os);

#endif
