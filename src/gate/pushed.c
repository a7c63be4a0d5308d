/*
 * The scan of the pushed objects: the quarantine's loose objects, then its packs in name
 * order, through hexoid_loose_scan() and hexoid_pack_scan(), in a thread of their own
 * while git walks the refs. What it finds is kept for the report; the reasons it could
 * not scan are kept too and said from the calling thread after the join.
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gate/gate.h"

static void scan_say(struct gate_scan *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void scan_say(struct gate_scan *ps, const char *fmt, ...)
{
	char msg[1024], **said, *copy;
	va_list ap;

	ps->trouble = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!(said = realloc(ps->said, (ps->nsaid + 1) * sizeof(*said))))
		return;
	ps->said = said;
	if ((copy = strdup(msg)))
		ps->said[ps->nsaid++] = copy;
}

static int on_pushed(void *ctx, const struct hexoid_finding *f)
{
	struct gate_scan *ps = ctx;
	struct gate_rec *r = hexoid_gate_rec_add(&ps->g->pushed);
	const char *slash = strrchr(f->path, '/');

	if (!r) {
		scan_say(ps, "out of memory");
		return 1;
	}
	r->ref = -1;
	r->code = f->code;
	r->git3 = f->git3;
	r->has_oid = f->has_oid;
	memcpy(r->oid, f->oid, sizeof(r->oid));
	r->type = f->type;
	if (f->header)
		snprintf(r->header, sizeof(r->header), "%s", f->header);
	r->line = f->line;
	r->column = f->column;
	r->offset = f->offset;
	/* The pack's or loose object's name: the quarantine folder is gone after the push. */
	if (!(r->path = strdup(slash ? slash + 1 : f->path))) {
		ps->g->pushed.n--;
		scan_say(ps, "out of memory");
		return 1;
	}
	snprintf(r->message, sizeof(r->message), "%s", f->message);
	return 0;
}

static int on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct gate_scan *ps = ctx;

	(void)done;
	(void)total;
	return hexoid_gate_cancelled(ps->g);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The quarantine's packs, by name; NULL with *n = 0 when there are none (said when the
 * folder is there but cannot be read). */
static char **list_packs(struct gate_scan *ps, const char *packdir, size_t *n)
{
	size_t cap = 0, plen = strlen(packdir);
	char **names = NULL, **more;
	DIR *d;
	struct dirent *de;

	*n = 0;
	if (!(d = opendir(packdir))) {
		if (errno != ENOENT)
			scan_say(ps, "pushed packs: %s: %s", packdir, strerror(errno));
		return NULL;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 5, ".pack"))
			continue;
		if (*n == cap) {
			if (!(more = realloc(names, (cap = cap ? 2 * cap : 4) * sizeof(*names))))
				goto oom;
			names = more;
		}
		if (!(names[*n] = malloc(plen + 2 + len)))
			goto oom;
		sprintf(names[(*n)++], "%s/%s", packdir, de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), cmp_str);
	return names;
oom:
	closedir(d);
	scan_say(ps, "out of memory");
	return names;
}

static void *scan_pushed(void *p)
{
	struct gate_scan *ps = p;
	struct hexoid_gate *g = ps->g;
	struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	char err[512], *packdir, **names;
	size_t qlen = strlen(g->quarantine), n, i;

	o.algo = g->algo;
	o.jobs = g->opt.jobs;
	o.on_finding = on_pushed;
	o.on_progress = on_progress;
	o.ctx = ps;
	if (hexoid_loose_scan(g->quarantine, &o, &st, err, sizeof(err)) < 0)
		scan_say(ps, "pushed objects: %s", err);
	if (!(packdir = malloc(qlen + 6))) {
		scan_say(ps, "out of memory");
		return NULL;
	}
	memcpy(packdir, g->quarantine, qlen);
	memcpy(packdir + qlen, "/pack", 6);
	names = list_packs(ps, packdir, &n);
	for (i = 0; i < n; i++) {
		if (!hexoid_gate_cancelled(g) &&
		    hexoid_pack_scan(names[i], &o, &st, err, sizeof(err)) < 0)
			scan_say(ps, "pushed pack %s", err);
		free(names[i]);
	}
	free(names);
	free(packdir);
	return NULL;
}

/* Scan in a thread of its own, or here when no thread can be had. */
void hexoid_gate_scan_start(struct gate_scan *ps)
{
	ps->started = pthread_create(&ps->thread, NULL, scan_pushed, ps) == 0;
	if (!ps->started)
		scan_pushed(ps);
}

/* Wait for the scan, and say what kept it from being done. */
void hexoid_gate_scan_finish(struct gate_scan *ps)
{
	if (ps->started)
		pthread_join(ps->thread, NULL);
	for (size_t i = 0; i < ps->nsaid; i++) {
		hexoid_gate_say(ps->g, "%s", ps->said[i]);
		free(ps->said[i]);
	}
	free(ps->said);
	ps->g->trouble |= ps->trouble;
}
