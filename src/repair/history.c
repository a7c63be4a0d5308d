/*
 * The rewrite applied (rewrite.c plans it and talks to git): the new objects, the map,
 * the refs moved in one transaction, then what the old history leaves cleaned up (its
 * IDs in reflogs given their new ones, its loose objects removed) and the notes copied;
 * and a notes tree given lowercase names.
 *
 * SPDX-License-Identifier: MIT
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hexoid_pack.h"
#include "repair/repair.h"
#include "util/dir.h"
#include "util/file.h"
#include "util/str.h"

/* The reflog files of a git directory (its logs/ tree; each linked worktree's
 * logs/HEAD), relative paths into *names. */
static void reflog_files(const char *dir, const char *rel, struct hexoid_names *all)
{
	char *full = hexoid_join(dir, rel);
	struct hexoid_names names = { NULL, 0 };
	size_t i;

	if (!full || hexoid_dir_names(full, HEXOID_DIR_ANY, NULL, NULL, &names)) {
		free(full);
		return;
	}
	for (i = 0; i < names.n; i++) {
		char *sub = hexoid_join(rel, names.v[i]), *subfull = sub ? hexoid_join(dir, sub) : NULL;
		struct stat st;
		if (subfull && lstat(subfull, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				reflog_files(dir, sub, all);
			} else if (S_ISREG(st.st_mode) && !hexoid_ends_with(sub, ".lock")) {
				char **v = realloc(all->v, (all->n + 1) * sizeof(*v));
				if (v) {
					all->v = v;
					all->v[all->n++] = sub;
					sub = NULL;
				}
			}
		}
		free(sub);
		free(subfull);
	}
	hexoid_names_free(&names);
	free(full);
}

/* One reflog with its IDs through the map, under its ref's lock and its own, as git's
 * reflog expire rewrites one. 0 (done, or nothing to change), or -1 with err. */
static int translate_reflog(struct hexoid_repair *rp, struct journal *j, const char *rel,
			    const struct pair *map, size_t nmap, char *err, size_t errlen)
{
	enum hexoid_algo algo = hexoid_audit_algo(rp->audit);
	size_t hexsz = hexoid_hexsz(algo), at;
	struct lock ref = { NULL, -1 }, lk = { NULL, -1 };
	char *full = hexoid_join(j->dir, rel), *r = hexoid_repair_reflog_ref(j->dir, rel);
	char *reflock = NULL, *lockrel = NULL;
	struct hexoid_file f = { NULL, 0, 0, 0 };
	struct stat st;
	int changed = 0, ret = -1;

	if (!full || !r || !(reflock = hexoid_concat(r, ".lock")) || !(lockrel = hexoid_concat(rel, ".lock"))) {
		snprintf(err, errlen, "%s: no ref for it", rel);
		goto out;
	}
	/* Read first without a lock: most reflogs name none of the old IDs. */
	if (hexoid_file_read_at(AT_FDCWD, full, 0, 0, &f) != HEXOID_FILE_OK) {
		ret = 0;
		goto out;
	}
	for (at = 0; at + 2 * hexsz + 1 <= f.size && !changed;) {
		unsigned char oid[HEXOID_MAX_RAWSZ] = { 0 }; /* padded as the map's are */
		int k;
		for (k = 0; k < 2; k++)
			if (hexoid_decode(oid, f.data + at + k * (hexsz + 1), 1, hexsz, algo, HEXOID_MIXED, NULL) == HEXOID_OK &&
			    hexoid_repair_map_find(map, nmap, oid))
				changed = 1;
		while (at < f.size && f.data[at] != '\n')
			at++;
		at++;
	}
	free(f.data);
	f.data = NULL;
	if (!changed) {
		ret = 0;
		goto out;
	}
	if (hexoid_repair_lock(j, reflock, rp->set.ref_timeout, 0666, &ref, err, errlen) != LOCK_TAKEN)
		goto out;
	if (lstat(full, &st) != 0)
		st.st_mode = 0666;
	if (hexoid_repair_lock(j, lockrel, 0, st.st_mode & 0777, &lk, err, errlen) != LOCK_TAKEN)
		goto out;
	if (hexoid_file_read_at(AT_FDCWD, full, 0, 0, &f) != HEXOID_FILE_OK) {
		snprintf(err, errlen, "%s: cannot read it again", rel);
		goto out;
	}
	for (at = 0; at + 2 * hexsz + 1 <= f.size;) {
		unsigned char oid[HEXOID_MAX_RAWSZ] = { 0 };
		const struct pair *pr;
		int k;
		for (k = 0; k < 2; k++) {
			char *id = f.data + at + k * (hexsz + 1);
			if (hexoid_decode(oid, id, 1, hexsz, algo, HEXOID_MIXED, NULL) == HEXOID_OK &&
			    (pr = hexoid_repair_map_find(map, nmap, oid)))
				hexoid_encode(id, hexsz, pr->new_oid, 1, algo);
		}
		while (at < f.size && f.data[at] != '\n')
			at++;
		at++;
	}
	if (hexoid_repair_step(j, "write", lk.rel) || hexoid_repair_write_all(lk.fd, f.data, f.size) ||
	    (hexoid_repair_wants_fsync(rp, HEXOID_AREA_REFLOGS) && fsync(lk.fd))) {
		snprintf(err, errlen, "%s: cannot write", lk.rel);
		goto out;
	}
	ret = hexoid_repair_commit(j, &lk, rel, err, errlen);
out:
	hexoid_repair_unlock(j, &lk);
	hexoid_repair_unlock(j, &ref);
	free(f.data);
	free(full);
	free(r);
	free(reflock);
	free(lockrel);
	return ret;
}

/*
 * What a rewrite leaves, done from its map so that a run killed after the refs moved is
 * finished by the next: every reflog's old IDs given their new ones (each line kept),
 * then each old object's loose file removed once nothing names it and its new object is
 * there. Old objects in packs stay until git repacks (git repack -a -d drops them).
 */
int hexoid_repair_cleanup(struct hexoid_repair *rp, struct journal *j, char *err, size_t errlen)
{
	enum hexoid_algo algo = hexoid_audit_algo(rp->audit);
	size_t hexsz = hexoid_hexsz(algo), nmap, i;
	struct hexoid_names logs = { NULL, 0 };
	struct hexoid_names wts = { NULL, 0 };
	struct hexoid_odb_options oo = HEXOID_ODB_OPTIONS_INIT;
	struct hexoid_odb *odb = NULL;
	struct pair *map;
	char *objects = hexoid_join(j->dir, "objects"), *wtdir = hexoid_join(j->dir, "worktrees");
	int ret = 0;

	if (!objects || !wtdir || hexoid_repair_map_load(j->dir, algo, &map, &nmap)) {
		free(objects);
		free(wtdir);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* Reftable keeps its reflogs in its tables, which this does not write: their old
	 * IDs stay, and so do the old objects they name. */
	if (!nmap || hexoid_audit_ref_storage(rp->audit) == HEXOID_REFS_REFTABLE)
		goto out;
	reflog_files(j->dir, "logs", &logs);
	if (hexoid_dir_names(wtdir, HEXOID_DIR_FOLDERS, NULL, NULL, &wts) == 0)
		for (i = 0; i < wts.n; i++) {
			char *rel = malloc(strlen(wts.v[i]) + 24);
			if (rel) {
				sprintf(rel, "worktrees/%s/logs", wts.v[i]);
				reflog_files(j->dir, rel, &logs);
				free(rel);
			}
		}
	for (i = 0; i < logs.n && !ret && !j->stopped; i++)
		ret = translate_reflog(rp, j, logs.v[i], map, nmap, err, errlen);
	oo.algo = algo;
	if (!ret && nmap && !j->stopped && (odb = hexoid_odb_open(objects, &oo, err, errlen))) {
		for (i = 0; i < nmap && !j->stopped; i++) {
			struct hexoid_object obj;
			char hex[HEXOID_MAX_HEXSZ + 1], rel[HEXOID_MAX_HEXSZ + 16], *full;
			struct stat st;
			hexoid_encode(hex, hexsz, map[i].old_oid, 1, algo);
			snprintf(rel, sizeof(rel), "objects/%.2s/%.*s", hex, (int)hexsz - 2, hex + 2);
			if (!(full = hexoid_join(j->dir, rel)))
				break;
			if (lstat(full, &st) == 0 && hexoid_odb_read(odb, map[i].new_oid, &obj, NULL, 0) == HEXOID_ODB_OK) {
				hexoid_object_free(&obj);
				if (!hexoid_repair_step(j, "unlink", rel))
					unlink(full);
			}
			free(full);
		}
		hexoid_odb_close(odb);
	}
out:
	hexoid_names_free(&logs);
	hexoid_names_free(&wts);
	free(map);
	free(objects);
	free(wtdir);
	return ret;
}

/* The rewrite, in the order that keeps each moment safe: the objects (harmless while no
 * ref names them), the map, the refs in one transaction, then the notes. */
void hexoid_repair_rewrite(struct hexoid_repair *rp, struct journal *j,
			   const struct hexoid_repair_options *o)
{
	char err[512] = "";
	size_t i;
	int ok;

	ok = !hexoid_repair_step(j, "write", "objects/pack") &&
	     !hexoid_rewrite_write_objects(rp->rw, err, sizeof(err)) &&
	     !hexoid_repair_map_write(rp, j, err, sizeof(err)) &&
	     !hexoid_repair_step(j, "update-ref", "refs") &&
	     !hexoid_rewrite_move_refs(rp->rw, o->replace_refs, err, sizeof(err));
	if (j->stopped) {
		rp->stopped = 1;
		return;
	}
	for (i = 0; i < rp->n && !rp->stopped; i++) {
		struct action *a = &rp->v[i];
		if (a->kind != HEXOID_REPAIR_REWRITE || a->note || a->area == HEXOID_AREA_NOTES)
			continue;
		hexoid_repair_tell(rp, a, ok ? HEXOID_REPAIR_DONE : HEXOID_REPAIR_FAILED, NULL, 0,
				   ok ? NULL : err);
		hexoid_repair_count_outcome(rp, ok ? HEXOID_REPAIR_DONE : HEXOID_REPAIR_FAILED);
	}
	if (ok && !rp->stopped && hexoid_repair_cleanup(rp, j, err, sizeof(err))) {
		struct action a;
		memset(&a, 0, sizeof(a));
		a.kind = HEXOID_REPAIR_REWRITE;
		a.area = HEXOID_AREA_REFLOGS;
		a.path = (char *)"logs";
		hexoid_repair_tell(rp, &a, HEXOID_REPAIR_FAILED, NULL, 0, err);
		rp->count.failed++;
	}
	if (ok && !rp->stopped && hexoid_rewrite_copy_notes(rp->rw, err, sizeof(err))) {
		struct action a;
		memset(&a, 0, sizeof(a));
		a.kind = HEXOID_REPAIR_REWRITE;
		a.area = HEXOID_AREA_NOTES;
		a.path = (char *)"refs/notes";
		hexoid_repair_tell(rp, &a, HEXOID_REPAIR_FAILED, NULL, 0, err);
		rp->count.failed++;
	}
}

/* A notes ref whose tree has folders of uppercase names: a new notes commit, written by
 * git (rewrite.c), whose tree names every note in lowercase. */
void hexoid_repair_notes(struct hexoid_repair *rp, struct journal *j, struct action *a,
			 const struct hexoid_repair_options *o)
{
	char err[512] = "", newhex[HEXOID_MAX_HEXSZ + 1] = "", *dir;
	const char *r = strstr(a->path, "refs/notes/");
	size_t pre = (size_t)(r - a->path);
	int ok;

	if (hexoid_repair_step(j, "update-ref", a->path)) {
		rp->stopped = 1;
		return;
	}
	/* A submodule's notes: its own git directory, "modules/<name>/". */
	if (!(dir = malloc(strlen(j->dir) + pre + 2))) {
		snprintf(err, sizeof(err), "out of memory");
		ok = 0;
	} else {
		sprintf(dir, "%s/%.*s", j->dir, (int)pre, a->path);
		ok = !hexoid_rewrite_notes_tree(dir, hexoid_audit_algo(rp->audit), o->git, r, newhex, err,
						sizeof(err));
		free(dir);
	}
	free(a->to);
	a->to = ok ? strdup(newhex) : NULL;
	hexoid_repair_tell(rp, a, ok ? HEXOID_REPAIR_DONE : HEXOID_REPAIR_FAILED, NULL,
			   ok ? hexoid_repair_ids_of(a) : 0, ok ? NULL : err);
	hexoid_repair_count_outcome(rp, ok ? HEXOID_REPAIR_DONE : HEXOID_REPAIR_FAILED);
}
