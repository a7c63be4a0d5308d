/*
 * The object areas (objects.h): the loose objects and packs of the objects folder and
 * of its alternates, through the pack module's scans, their findings reported as the
 * audit's; in a thread of their own while the other areas are read, if asked.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "audit/objects.h"
#include "hexoid_pack.h"
#include "pack/alternates.h"
#include "pack/common.h"
#include "pack/objdir.h"
#include "util/hook.h"
#include "util/str.h"

/* A path under the repository's directory as findings show it: prefix + rel. */
static char *shown_path(const struct repo *rp, const char *path)
{
	size_t dl = strlen(rp->dir);

	if (!strncmp(path, rp->dir, dl) && path[dl] == '/')
		path += dl + 1;
	return hexoid_concat(rp->prefix, path);
}

static int on_object_finding(void *ctx, const struct hexoid_finding *in)
{
	struct objscan *os = ctx;
	struct hexoid_audit_finding f;
	char *path = shown_path(os->rp, in->path);
	int stop;

	memset(&f, 0, sizeof(f));
	f.code = os->code ? os->code : in->code;
	f.area = os->area;
	f.path = path ? path : in->path;
	f.line = in->line;
	f.column = in->column;
	f.has_oid = in->has_oid;
	memcpy(f.oid, in->oid, sizeof(f.oid));
	f.algo = in->algo;
	f.type = in->type;
	f.header = in->header;
	f.offset = in->offset;
	f.message = in->message;
	if (!os->threaded) {
		stop = hexoid_audit_report(os->r, &f);
		free(path);
		return stop;
	}
	pthread_mutex_lock(&os->lock);
	stop = os->stop;
	if (!stop && os->n == os->cap) {
		size_t cap = os->cap ? 2 * os->cap : 64;
		struct kept *v = realloc(os->v, cap * sizeof(*v));
		if (v) {
			os->v = v;
			os->cap = cap;
		}
	}
	if (!stop && os->n < os->cap && path && (os->v[os->n].message = strdup(in->message))) {
		struct kept *k = &os->v[os->n++];
		k->f = f;
		k->path = path;
		k->f.path = path;
		k->f.message = k->message;
		if (in->header) {
			snprintf(k->header, sizeof(k->header), "%s", in->header);
			k->f.header = k->header;
		}
		path = NULL;
		pthread_cond_signal(&os->wake);
	} else if (!stop) {
		os->oom = stop = os->stop = 1;
		pthread_cond_signal(&os->wake);
	}
	pthread_mutex_unlock(&os->lock);
	free(path);
	return stop;
}

static int on_scan_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct objscan *os = ctx;
	int stop;

	if (!os->threaded) {
		if (hexoid_audit_stop(os->r))
			return 1;
		if (os->r->o.on_progress && total &&
		    os->r->o.on_progress(os->r->o.ctx, os->current ? os->current : "objects", done,
					 total))
			os->r->stopped = 1;
		return os->r->stopped;
	}
	pthread_mutex_lock(&os->lock);
	if (os->r->o.on_progress && total) {
		snprintf(os->what, sizeof(os->what), "%s", os->current ? os->current : "objects");
		os->done = done;
		os->total = total;
		os->progress_new = 1;
		pthread_cond_signal(&os->wake);
	}
	if (hexoid_audit_cancel_asked(os->r))
		os->stop = 1;
	stop = os->stop;
	pthread_mutex_unlock(&os->lock);
	return stop;
}

/* Whether the scan stops: asked by the run, or cancelled (read in the object thread as
 * well: the flag is atomic). */
static int scan_stopped(struct objscan *os)
{
	int stop;

	if (!os->threaded)
		return hexoid_audit_stop(os->r);
	pthread_mutex_lock(&os->lock);
	if (hexoid_audit_cancel_asked(os->r))
		os->stop = 1;
	stop = os->stop;
	pthread_mutex_unlock(&os->lock);
	return stop;
}

/*
 * A pack's name, pack-<id>.pack, holds the pack's checksum in hex as git writes it, in
 * lowercase. Git finds a pack's index by its name whatever the case of its digits, and
 * the Git 3.0 build still opens one named in uppercase: a warning, not a git3 finding.
 */
static void pack_name(struct objscan *os, const char *pack)
{
	const char *base = strrchr(pack, '/'), *dot;
	size_t hexsz = hexoid_hexsz(os->rp->algo), len;
	struct hexoid_error e;
	struct hexoid_finding f;

	base = base ? base + 1 : pack;
	dot = strchr(base, '.');
	len = dot ? (size_t)(dot - base) : strlen(base);
	if (len != hexsz + 5 || memcmp(base, "pack-", 5) ||
	    hexoid_decode(NULL, base + 5, 1, hexsz, os->rp->algo, HEXOID_MIXED, NULL) != HEXOID_OK ||
	    hexoid_decode(NULL, base + 5, 1, hexsz, os->rp->algo, HEXOID_LOWER, &e) == HEXOID_OK)
		return;
	memset(&f, 0, sizeof(f));
	f.path = pack;
	f.offset = HEXOID_NO_OFFSET;
	f.algo = os->rp->algo;
	snprintf(f.message, sizeof(f.message),
		 "uppercase hex digit '%c' in the pack's name: git writes it in lowercase, "
		 "the Git 3.0 build still opens it", base[5 + e.column]);
	os->code = HEXOID_CODE_UPPERCASE_ID_ACCEPTED;
	on_object_finding(os, &f);
	os->code = 0;
}

/* A pack that cannot be used at all is a finding of the audit, not the end of it. */
static void unusable_pack(struct objscan *os, const char *pack, const char *err)
{
	struct hexoid_finding f;
	const char *dir = os->rp->dir, *in = strstr(err, dir);
	size_t dl = strlen(dir);
	char *rest = NULL;

	memset(&f, 0, sizeof(f));
	f.code = HEXOID_CODE_PACK_LAYOUT;
	f.path = pack;
	f.offset = HEXOID_NO_OFFSET;
	f.algo = os->rp->algo;
	/* err names the file with its whole path: show it as the report does. */
	if (in && in[dl] == '/')
		rest = shown_path(os->rp, in);
	snprintf(f.message, sizeof(f.message), "unusable: %.*s%.200s", rest ? (int)(in - err) : 0,
		 err, rest ? rest : err);
	free(rest);
	on_object_finding(os, &f);
}

/* A folder or file of the objects that cannot be read. */
static void io_finding(struct objscan *os, const char *path, const char *message)
{
	struct hexoid_finding f;

	memset(&f, 0, sizeof(f));
	f.code = HEXOID_CODE_UNREADABLE;
	f.path = path;
	f.offset = HEXOID_NO_OFFSET;
	snprintf(f.message, sizeof(f.message), "%s", message);
	on_object_finding(os, &f);
}

/* Whether the pack's .pack or .idx is gone: git deleted it after the listing. */
static int pack_gone(const char *pack)
{
	char *idx = hexoid_objdir_idx_of(pack);
	struct stat st;
	int gone = (stat(pack, &st) && errno == ENOENT) || (idx && stat(idx, &st) && errno == ENOENT);

	free(idx);
	return gone;
}

/* One pack of the listing: 1 when it was gone before it could be read, else 0. */
static int scan_pack(struct objscan *os, const struct hexoid_scan_options *o, const char *pack,
		     int alt)
{
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	char err[512];
	int gone = 0;

	hexoid_hook(HEXOID_HOOK_PACK_SCAN, pack);
	os->current = shown_path(os->rp, pack);
	pack_name(os, pack);
	if (hexoid_pk_pack_scan_heads(pack, o, &st, err, sizeof(err)) >= 0)
		os->scanned[alt ? 2 : 1] += st.objects;
	else if (!(gone = pack_gone(pack)))
		unusable_pack(os, pack, err);
	free(os->current);
	os->current = NULL;
	return gone;
}

/* How often the pack folder is listed again after a pack went away meanwhile. */
#define PACK_LISTINGS 5

/* The loose objects and packs of one objects folder: `alt` says it is an alternate's. */
static void scan_dir(struct objscan *os, const char *objects, int alt)
{
	struct run *r = os->r;
	const struct repo *rp = os->rp;
	struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	char err[512];
	struct hexoid_names packs;
	size_t i, listed;
	int unread, gone = 0, round;

	o.algo = rp->algo;
	o.verify_ids = r->o.verify_ids;
	o.jobs = r->o.jobs;
	o.on_finding = on_object_finding;
	o.on_progress = on_scan_progress;
	o.ctx = os;
	os->area = alt ? HEXOID_AREA_ALTERNATES : HEXOID_AREA_LOOSE_OBJECTS;
	if (scan_stopped(os))
		return;
	unread = hexoid_loose_scan(objects, &o, &st, err, sizeof(err)) < 0;
	if (unread)
		io_finding(os, objects, "cannot read the folder");
	os->scanned[alt ? 2 : 0] += st.objects;

	os->area = alt ? HEXOID_AREA_ALTERNATES : HEXOID_AREA_PACK_OBJECTS;
	/* No pack folder is no pack; one that is there and cannot be read, git says so
	 * ("unable to open object pack directory") and reads on without its packs. In an
	 * objects folder that cannot be read, that folder's finding says it all. */
	if (hexoid_objdir_packs(objects, &packs) && !unread && errno != ENOENT && errno != ENOMEM) {
		char *packdir = hexoid_join(objects, "pack");
		if (packdir)
			io_finding(os, packdir, "cannot read the folder");
		free(packdir);
	}
	listed = packs.n; /* room for that many at least */
	for (i = 0; i < packs.n && !scan_stopped(os); i++)
		gone |= scan_pack(os, &o, packs.v[i], alt);
	/*
	 * A pack deleted before it was read (repack -a -d) is no finding: git wrote the pack
	 * that replaces it first, and deletes loose objects only once they are packed. So
	 * the folder is listed again and the packs not scanned yet are scanned, until a
	 * listing meets no pack that went away. Only then: on a folder git leaves alone,
	 * the scan is what it always was.
	 */
	for (round = 0; gone && round < PACK_LISTINGS && !scan_stopped(os); round++) {
		struct hexoid_names again;
		size_t k;

		gone = 0;
		if (hexoid_objdir_packs(objects, &again))
			break;
		for (k = 0; k < again.n && !scan_stopped(os); k++) {
			for (i = 0; i < packs.n && strcmp(packs.v[i], again.v[k]); i++)
				;
			if (i < packs.n || hexoid_grow(&packs.v, &listed, packs.n, sizeof(*packs.v)))
				continue;
			packs.v[packs.n++] = again.v[k];
			again.v[k] = NULL;
			gone |= scan_pack(os, &o, packs.v[packs.n - 1], alt);
		}
		hexoid_names_free(&again);
	}
	hexoid_names_free(&packs);
}

/*
 * The objects folder, then the object folders its objects/info/alternates names, and
 * theirs, in the order and as deep as git reads them (pack/alternates.h): git reads
 * their objects as the repository's own. A file of them that cannot be read, or is no
 * regular file, is a finding; a folder named that is not there at all is none, as git
 * only warns of it; one that is there but no folder is a folder that cannot be read.
 */
static void scan_objects(struct objscan *os)
{
	char *objects = os->rp->objects_only ? strdup(os->rp->dir) : hexoid_join(os->rp->dir, "objects");
	struct hexoid_alternates alts = { NULL, 0, 0 };
	struct run seen; /* for its set of folders: each scanned once, by inode */
	size_t i;

	if (!objects)
		return;
	scan_dir(os, objects, 0);
	memset(&seen, 0, sizeof(seen));
	hexoid_audit_seen_before(&seen, objects);
	/* Fails only when the objects folder is not there (scan_dir told it) or memory runs
	 * out; what was read by then is scanned all the same. */
	hexoid_alternates_read(objects, NULL, 0, &alts, NULL, 0);
	for (i = 0; i < alts.n && !scan_stopped(os); i++) {
		const struct hexoid_alternate *a = &alts.v[i];
		if (a->file) {
			os->area = HEXOID_AREA_ALTERNATES;
			io_finding(os, a->path, "cannot read it, or not a regular file");
		} else if (hexoid_audit_seen_before(&seen, a->path) == 0) {
			scan_dir(os, a->path, 1);
		}
	}
	hexoid_alternates_free(&alts);
	free(seen.seen);
	free(objects);
}

static void *objects_main(void *p)
{
	struct objscan *os = p;

	scan_objects(os);
	pthread_mutex_lock(&os->lock);
	os->finished = 1;
	pthread_cond_signal(&os->wake);
	pthread_mutex_unlock(&os->lock);
	return NULL;
}

/* Threaded: report what the object thread found, and its progress, until it is done. */
static void drain(struct objscan *os)
{
	struct run *r = os->r;

	pthread_mutex_lock(&os->lock);
	for (;;) {
		if (os->taken < os->n) {
			struct kept k = os->v[os->taken++];
			pthread_mutex_unlock(&os->lock);
			if (hexoid_audit_report(r, &k.f)) {
				pthread_mutex_lock(&os->lock);
				os->stop = 1;
				pthread_mutex_unlock(&os->lock);
			}
			free(k.path);
			free(k.message);
			pthread_mutex_lock(&os->lock);
			continue;
		}
		if (os->progress_new) {
			char what[sizeof(os->what)];
			uint64_t done = os->done, total = os->total;
			memcpy(what, os->what, sizeof(what));
			os->progress_new = 0;
			pthread_mutex_unlock(&os->lock);
			if (!r->stopped && r->o.on_progress &&
			    r->o.on_progress(r->o.ctx, what, done, total))
				r->stopped = 1;
			pthread_mutex_lock(&os->lock);
			if (r->stopped)
				os->stop = 1;
			continue;
		}
		if (os->finished)
			break;
		pthread_cond_wait(&os->wake, &os->lock);
	}
	pthread_mutex_unlock(&os->lock);
}


void hexoid_audit_objects_start(struct objscan *os, struct run *r, const struct repo *rp,
				int thread)
{
	memset(os, 0, sizeof(*os));
	os->r = r;
	os->rp = rp;
	if (!thread)
		return;
	pthread_mutex_init(&os->lock, NULL);
	pthread_cond_init(&os->wake, NULL);
	/* Set before the thread starts: it reads it. */
	os->threaded = 1;
	if (pthread_create(&os->thread, NULL, objects_main, os) != 0) {
		os->threaded = 0;
		pthread_mutex_destroy(&os->lock);
		pthread_cond_destroy(&os->wake);
	}
}

void hexoid_audit_objects_end(struct objscan *os)
{
	struct run *r = os->r;

	if (os->threaded) {
		if (r->stopped) {
			pthread_mutex_lock(&os->lock);
			os->stop = 1;
			pthread_mutex_unlock(&os->lock);
		}
		drain(os);
		pthread_join(os->thread, NULL);
		for (; os->taken < os->n; os->taken++) {
			free(os->v[os->taken].path);
			free(os->v[os->taken].message);
		}
		free(os->v);
		pthread_mutex_destroy(&os->lock);
		pthread_cond_destroy(&os->wake);
		if (os->oom)
			snprintf(r->err, sizeof(r->err), "out of memory for the findings");
	} else if (!r->stopped) {
		scan_objects(os);
	}
	r->audit->count[HEXOID_AREA_LOOSE_OBJECTS].scanned += os->scanned[0];
	r->audit->count[HEXOID_AREA_PACK_OBJECTS].scanned += os->scanned[1];
	r->audit->count[HEXOID_AREA_ALTERNATES].scanned += os->scanned[2];
}
