/*
 * The repair (hexoid_repair.h): a plan made of the audit's findings (plan.c), one action
 * for each file whose IDs lowercasing fixes, and each action done under git's locks
 * (text.c, names.c, history.c). This file is the API and the order the actions run in.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "repair/repair.h"
#include "util/options.h"
#include "util/str.h"

const char *hexoid_repair_kind_name(enum hexoid_repair_kind kind)
{
	switch (kind) {
	case HEXOID_REPAIR_LOWERCASE: return "lowercase";
	case HEXOID_REPAIR_SHOW: return "show";
	case HEXOID_REPAIR_RENAME: return "rename";
	case HEXOID_REPAIR_REWRITE: return "rewrite";
	}
	return NULL;
}

const char *hexoid_repair_outcome_name(enum hexoid_repair_outcome outcome)
{
	switch (outcome) {
	case HEXOID_REPAIR_PLANNED: return "planned";
	case HEXOID_REPAIR_DONE: return "done";
	case HEXOID_REPAIR_SHOWN: return "shown";
	case HEXOID_REPAIR_LOCKED: return "locked";
	case HEXOID_REPAIR_CHANGED: return "changed";
	case HEXOID_REPAIR_FAILED: return "failed";
	}
	return NULL;
}

struct hexoid_repair *hexoid_repair_open(const char *path, char *err, size_t errlen)
{
	struct hexoid_repair *rp = calloc(1, sizeof(*rp));

	if (!rp) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!(rp->audit = hexoid_audit_open(path, err, errlen))) {
		free(rp);
		return NULL;
	}
	return rp;
}

struct hexoid_audit *hexoid_repair_audit(struct hexoid_repair *rp)
{
	return rp->audit;
}

/* The first version's options end with ctx: rewrite_history and what follows came after. */
#define FIRST_REPAIR_OPTIONS (offsetof(struct hexoid_repair_options, ctx) + sizeof(void *))

int hexoid_repair_options_init(struct hexoid_repair_options *options, size_t size)
{
	return hexoid_options_init(options, size, FIRST_REPAIR_OPTIONS,
				   offsetof(struct hexoid_repair_options, jobs));
}

static int check_options(const struct hexoid_repair_options *o, struct hexoid_repair_options *copy,
			 char *err, size_t errlen)
{
	if (!o || o->size < FIRST_REPAIR_OPTIONS) {
		snprintf(err, errlen, "bad options: set them with HEXOID_REPAIR_OPTIONS_INIT");
		return -1;
	}
	memset(copy, 0, sizeof(*copy));
	memcpy(copy, o, sizeof(*copy) < o->size ? sizeof(*copy) : o->size);
	return 0;
}

int hexoid_repair_plan(struct hexoid_repair *rp, const struct hexoid_repair_options *options,
		       char *err, size_t errlen)
{
	struct hexoid_repair_options o;
	struct hexoid_audit_options ao = HEXOID_AUDIT_OPTIONS_INIT;
	size_t i;
	int ret;

	if (!rp || check_options(options, &o, err, errlen))
		return -1;
	hexoid_repair_plan_clear(rp);
	rp->o = &o;
	rp->stopped = 0;
	ao.jobs = o.jobs;
	ao.on_finding = hexoid_repair_plan_finding;
	ao.ctx = rp;
	ret = hexoid_audit_run(rp->audit, &ao, err, errlen);
	if (rp->stopped < 0) {
		snprintf(err, errlen, "out of memory");
		ret = -1;
	}
	if (ret == 0 && o.rewrite_history)
		ret = hexoid_repair_plan_rewrite(rp, &o, err, errlen);
	if (ret == 0) {
		rp->planned = 1;
		rp->count.planned = rp->n;
		for (i = 0; i < rp->n && !rp->stopped; i++)
			hexoid_repair_tell_planned(rp, &rp->v[i]);
		ret = rp->stopped ? 1 : 0;
	}
	rp->o = NULL;
	return ret;
}

int hexoid_repair_apply(struct hexoid_repair *rp, const struct hexoid_repair_options *options,
			char *err, size_t errlen)
{
	struct hexoid_repair_options o;
	struct journal j;
	size_t i;
	int ret;

	if (!rp || check_options(options, &o, err, errlen))
		return -1;
	if (!rp->planned) {
		/* Planning tells each action as planned; applying tells it again, done. */
		struct hexoid_repair_options quiet = o;
		quiet.on_action = NULL;
		if ((ret = hexoid_repair_plan(rp, &quiet, err, errlen)))
			return ret;
	}
	rp->o = &o;
	rp->stopped = 0;
	rp->count.done = rp->count.shown = rp->count.locked = rp->count.changed = rp->count.failed = 0;
	/* Nothing to do: done, unless a killed repair's journal is there to take back. */
	if (!o.dry_run && !rp->n) {
		char *jp = hexoid_join(hexoid_audit_gitdir(rp->audit), "hexoid-repair.journal");
		struct stat st;
		int none = !jp || lstat(jp, &st) != 0;
		free(jp);
		if (none)
			o.dry_run = 1;
	}
	if (o.dry_run) {
		for (i = 0; i < rp->n && !rp->stopped; i++)
			hexoid_repair_tell_planned(rp, &rp->v[i]);
		rp->o = NULL;
		return rp->stopped ? 1 : 0;
	}
	hexoid_repair_read_settings(&rp->set, hexoid_audit_gitdir(rp->audit));
	if (hexoid_repair_journal_open(&j, hexoid_audit_gitdir(rp->audit), o.on_step, o.ctx,
				       &rp->count.recovered, err, errlen)) {
		hexoid_repair_journal_close(&j);
		rp->o = NULL;
		return -1;
	}
	for (i = 0; i < rp->n && !rp->stopped && !j.stopped; i++) {
		struct action *a = &rp->v[i];
		if (a->kind == HEXOID_REPAIR_SHOW) {
			hexoid_repair_tell(rp, a, HEXOID_REPAIR_SHOWN, NULL, (unsigned long)a->n, NULL);
			rp->count.shown++;
		} else if (a->kind == HEXOID_REPAIR_RENAME) {
			hexoid_repair_rename(rp, &j, a);
		} else if (a->kind == HEXOID_REPAIR_REWRITE && a->area == HEXOID_AREA_NOTES) {
			hexoid_repair_notes(rp, &j, a, &o);
		} else if (a->kind == HEXOID_REPAIR_REWRITE) {
			if (a->note) {
				hexoid_repair_tell(rp, a, HEXOID_REPAIR_FAILED, NULL, 0, a->note);
				rp->count.failed++;
			}
		} else {
			hexoid_repair_lowercase(rp, &j, a);
		}
	}
	if (rp->rw && rp->rplan->nrefs && !rp->rplan->nsigned && !rp->stopped && !j.stopped) {
		hexoid_repair_rewrite(rp, &j, &o);
	} else if (o.rewrite_history && rp->mapped_loose && !rp->stopped && !j.stopped) {
		/* An earlier rewrite's map, its cleanup not finished (killed after the refs
		 * moved). */
		char why[512];
		if (hexoid_repair_cleanup(rp, &j, why, sizeof(why)))
			rp->count.failed++;
	}
	if (j.stopped)
		rp->stopped = 1;
	hexoid_repair_journal_close(&j);
	rp->o = NULL;
	if (rp->stopped)
		return 1;
	return rp->count.locked || rp->count.changed || rp->count.failed ? 2 : 0;
}

void hexoid_repair_summary(const struct hexoid_repair *rp, struct hexoid_repair_count *count)
{
	*count = rp->count;
}

void hexoid_repair_close(struct hexoid_repair *rp)
{
	if (!rp)
		return;
	hexoid_repair_plan_clear(rp);
	hexoid_audit_close(rp->audit);
	free(rp);
}
