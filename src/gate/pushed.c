/*
 * The scan of the pushed objects: the quarantine's loose objects, then its packs in name
 * order, through hexoid_loose_scan() and hexoid_pack_scan(), in a thread of their own
 * while git walks the refs. What it finds is kept for the report; the reasons it could
 * not scan are kept too and said from the calling thread after the join.
 * SPDX-License-Identifier: MIT
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gate/gate.h"
#include "pack/objdir.h"

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

/* A pushed file's name as the report gives it: a pack's file name, a loose object's
 * "xx/yyyy..." (its fanout folder and file, as git names it under objects/). */
static const char *pushed_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return path;
	if (slash - path >= 2 && isxdigit((unsigned char)slash[-1]) &&
	    isxdigit((unsigned char)slash[-2]) && (slash - path == 2 || slash[-3] == '/'))
		return slash - 2;
	return slash + 1;
}

static int on_pushed(void *ctx, const struct hexoid_finding *f)
{
	struct gate_scan *ps = ctx;
	struct gate_rec *r = hexoid_gate_rec_add(&ps->g->pushed);
	const char *name = pushed_name(f->path);

	if (!r) {
		scan_say(ps, "out of memory");
		return 1;
	}
	r->ref = -1;
	r->code = f->code;
	r->cls = f->cls;
	r->has_oid = f->has_oid;
	memcpy(r->oid, f->oid, sizeof(r->oid));
	r->type = f->type;
	if (f->header)
		snprintf(r->header, sizeof(r->header), "%s", f->header);
	r->line = f->line;
	r->column = f->column;
	r->offset = f->offset;
	/* The pack's or loose object's name: the quarantine folder is gone after the push. */
	if (!(r->path = strdup(name))) {
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

static void *scan_pushed(void *p)
{
	struct gate_scan *ps = p;
	struct hexoid_gate *g = ps->g;
	struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	struct hexoid_names packs;
	char err[512];
	size_t i;

	o.algo = g->algo;
	o.jobs = g->opt.jobs;
	/* No more threads than processors: more only run by turns, and each holds its own
	 * delta-base cache (32 MiB): hexoid.jobs=256 on a 20k-deep chain took 1.1 GB. */
	{
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		if (cpus > 0 && o.jobs > (unsigned long)cpus)
			o.jobs = (unsigned)cpus;
	}
	o.on_finding = on_pushed;
	o.on_progress = on_progress;
	o.ctx = ps;
	if (hexoid_loose_scan(g->quarantine, &o, &st, err, sizeof(err)) < 0)
		scan_say(ps, "pushed objects: %s", err);
	/* The packs by name; a pack folder that is there but cannot be read is said. */
	if (hexoid_objdir_packs(g->quarantine, &packs) && errno != ENOENT)
		scan_say(ps, "pushed packs: %s/pack: %s", g->quarantine, strerror(errno));
	for (i = 0; i < packs.n && !hexoid_gate_cancelled(g); i++)
		if (hexoid_pack_scan(packs.v[i], &o, &st, err, sizeof(err)) < 0)
			scan_say(ps, "pushed pack %s", err);
	hexoid_names_free(&packs);
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
