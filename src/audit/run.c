/*
 * The repository audit's run (hexoid_audit_run()): in the repository, every place of
 * places.c in each of its git directories (the main one, then each linked worktree's),
 * area by area, with its loose objects and packs meanwhile or after; then each
 * submodule's repository the same way; every finding handed to the caller.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "audit/audit.h"
#include "audit/discover.h"
#include "audit/objects.h"
#include "audit/submodules.h"
#include "audit/walk.h"
#include "util/options.h"
#include "util/str.h"

static void audit_repo(struct run *r, const char *dir, const char *prefix, const char *top)
{
	struct repo rp;
	struct repo_config c;
	struct objscan os;
	size_t i;
	int a;

	memset(&rp, 0, sizeof(rp));
	rp.prefix = (char *)prefix;
	if (!(rp.dir = strdup(dir)))
		return;
	rp.top = (char *)(top ? top : dir);
	hexoid_audit_repo_format(dir, &c);
	if (c.algo < 0 || c.reftable < 0) {
		struct where w = { rp.dir, (char *)"", 0 };
		char *p = strlen(prefix) ? strndup(prefix, strlen(prefix) - 1) : strdup(".");
		hexoid_audit_file_finding(r, HEXOID_AREA_REFS, &w, p ? p : ".", HEXOID_CODE_UNREADABLE,
					  "unknown %s in its config: not read", c.unknown);
		free(p);
		free(rp.dir);
		return;
	}
	rp.algo = (enum hexoid_algo)c.algo;
	rp.reftable = c.reftable;
	/* A config that is no regular file is not read (config.h); git would wait on a
	 * FIFO, and read /dev/zero forever. */
	{
		char *path = hexoid_join(dir, "config");
		struct stat st;
		if (path && !stat(path, &st) && !S_ISREG(st.st_mode)) {
			struct where w = { rp.dir, (char *)prefix, 0 };
			hexoid_audit_file_finding(r, HEXOID_AREA_CONFIG_FILES, &w, "config",
						  HEXOID_CODE_NOT_A_FILE, "not a regular file (%s): not read",
						  S_ISDIR(st.st_mode)    ? "a folder"
						  : S_ISFIFO(st.st_mode) ? "a FIFO"
						  : S_ISSOCK(st.st_mode) ? "a socket"
									 : "a device");
		}
		free(path);
	}
	hexoid_audit_wheres(&rp, dir, prefix);

	/* Objects meanwhile, with threads to spare. */
	hexoid_audit_objects_start(&os, r, &rp, r->o.jobs > 1);
	for (a = 0; a < HEXOID_AREA_LOOSE_OBJECTS && !hexoid_audit_stop(r); a++)
		for (i = 0; i < rp.nwheres && !hexoid_audit_stop(r); i++)
			hexoid_audit_area_in(r, (enum hexoid_audit_area)a, &rp, &rp.wheres[i]);
	hexoid_audit_objects_end(&os);

	if (!hexoid_audit_stop(r))
		hexoid_audit_submodules(r, &rp, "modules", audit_repo);

	for (i = 0; i < rp.nwheres; i++) {
		free(rp.wheres[i].dir);
		free(rp.wheres[i].prefix);
	}
	free(rp.wheres);
	free(rp.dir);
}

/* An objects folder alone: its loose objects, packs and alternates, in this thread. */
static void audit_objects(struct run *r, const char *dir)
{
	struct repo rp;
	struct objscan os;

	memset(&rp, 0, sizeof(rp));
	rp.dir = (char *)dir;
	rp.top = (char *)dir;
	rp.prefix = (char *)"";
	rp.algo = r->audit->algo;
	rp.objects_only = 1;
	hexoid_audit_objects_start(&os, r, &rp, 0);
	hexoid_audit_objects_end(&os);
}

/* The first version's options end with ctx: cancel came after. */
#define FIRST_AUDIT_OPTIONS (offsetof(struct hexoid_audit_options, ctx) + sizeof(void *))

int hexoid_audit_options_init(struct hexoid_audit_options *options, size_t size)
{
	return hexoid_options_init(options, size, FIRST_AUDIT_OPTIONS,
				   offsetof(struct hexoid_audit_options, jobs));
}

int hexoid_audit_run(struct hexoid_audit *a, const struct hexoid_audit_options *options,
		     char *err, size_t errlen)
{
	struct run r;

	if (!a || !options || options->size < FIRST_AUDIT_OPTIONS) {
		snprintf(err, errlen, "bad options: set them with HEXOID_AUDIT_OPTIONS_INIT");
		return -1;
	}
	memset(&r, 0, sizeof(r));
	memcpy(&r.o, options, sizeof(r.o) < options->size ? sizeof(r.o) : options->size);
	if (r.o.jobs == 0)
		r.o.jobs = 1;
	if (r.o.jobs > 256) {
		snprintf(err, errlen, "bad options: jobs %u (1..256)", r.o.jobs);
		return -1;
	}
	r.audit = a;
	memset(a->count, 0, sizeof(a->count));
	hexoid_audit_seen_before(&r, a->common);
	if (a->objects_only)
		audit_objects(&r, a->common);
	else
		audit_repo(&r, a->common, "", a->top);
	free(r.seen);
	if (r.err[0]) {
		snprintf(err, errlen, "%s", r.err);
		return -1;
	}
	return r.stopped ? 1 : 0;
}
