/*
 * A rename action: a name that is an uppercase ID given its lowercase name. A loose
 * object (or a whole loose folder, object by object) checked against its new name and
 * moved; a replace ref renamed under both names' locks with its reflog, or through git
 * where the refs are in reftable. A replace ref in packed-refs is text, not a rename
 * (text.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repair/object.h"
#include "repair/repair.h"
#include "util/dir.h"
#include "util/file.h"
#include "util/str.h"

/* The git to run, from the options of the call at hand. */
static const char *o_git(const struct hexoid_repair *rp)
{
	return rp->o ? rp->o->git : NULL;
}

/* Whether packed-refs (in the folder of the git directory `dir` + prefix of `ref`) lists
 * `ref`; the name is looked for as a whole line's second field. */
static int packed_has(const char *dir, const char *ref)
{
	const char *r = strstr(ref, "refs/");
	char *pre = r ? strndup(ref, (size_t)(r - ref)) : NULL, *path;
	struct hexoid_file f;
	int found = 0;

	if (!pre)
		return 0;
	path = malloc(strlen(dir) + strlen(pre) + 16);
	if (path) {
		sprintf(path, "%s/%spacked-refs", dir, pre);
		if (hexoid_file_read_at(AT_FDCWD, path, 0, 0, &f) == HEXOID_FILE_OK) {
			struct hexoid_lines it = { f.data, f.size, 0, 0, '\n' };
			const char *p, *sp;
			size_t len;
			while (!found && hexoid_next_line(&it, &p, &len))
				found = (sp = memchr(p, ' ', len)) && (size_t)(p + len - sp - 1) == strlen(r) &&
					!memcmp(sp + 1, r, strlen(r));
			free(f.data);
		}
		free(path);
	}
	free(pre);
	return found;
}

/* mkdir of the folder above `full`, when it is missing. */
static void make_parent(char *full)
{
	char *slash = strrchr(full, '/');

	if (slash) {
		*slash = 0;
		mkdir(full, 0777);
		*slash = '/';
	}
}

/*
 * One loose object renamed from `rel_from` to `rel_to` (its name in lowercase, perhaps
 * its folder's too): its content checked to hash to the new name's ID, then renamed
 * (atomic: git finds it under one name or the other at every moment; git takes no lock
 * on loose objects, and one writing the same object meanwhile writes the same bytes);
 * where git has it under the new name already, the old name is removed; where it is gone
 * and the new name is there (moved with its folder), done. 0, or -1 with err.
 */
static int move_loose(struct hexoid_repair *rp, struct journal *j, const char *rel_from,
		      const char *rel_to, char *err, size_t errlen)
{
	enum hexoid_algo algo = hexoid_audit_algo(rp->audit);
	size_t hexsz = hexoid_hexsz(algo), len = strlen(rel_to);
	char hex[HEXOID_MAX_HEXSZ], *from = hexoid_join(j->dir, rel_from), *to = hexoid_join(j->dir, rel_to);
	unsigned char oid[HEXOID_MAX_RAWSZ];
	struct stat st;
	int ret = -1;

	if (!from || !to) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	memcpy(hex, rel_to + len - hexsz - 1, 2);
	memcpy(hex + 2, rel_to + len - hexsz + 2, hexsz - 2);
	if (lstat(from, &st) != 0) {
		if (lstat(to, &st) == 0)
			ret = 0;
		else
			snprintf(err, errlen, "%s: gone since it was read", rel_from);
		goto out;
	}
	if (hexoid_decode(oid, hex, 1, hexsz, algo, HEXOID_LOWER, NULL) != HEXOID_OK) {
		snprintf(err, errlen, "%s: not an object's name", rel_to);
		goto out;
	}
	if (hexoid_repair_loose_is(from, algo, oid, err, errlen))
		goto out;
	if (lstat(to, &st) == 0) {
		if (hexoid_repair_step(j, "unlink", rel_from))
			goto out;
		if (unlink(from) != 0) {
			snprintf(err, errlen, "%s: cannot remove it: %s", rel_from, strerror(errno));
			goto out;
		}
	} else {
		if (hexoid_repair_step(j, "rename", rel_to))
			goto out;
		make_parent(to);
		if (rename(from, to) != 0) {
			snprintf(err, errlen, "cannot rename it to %s: %s", rel_to, strerror(errno));
			goto out;
		}
	}
	ret = 0;
out:
	free(from);
	free(to);
	return ret;
}

/*
 * A rename action. A loose object: its content checked to hash to the ID its new name
 * says, then renamed (atomic: git finds it under one name or the other at every moment;
 * git takes no lock on loose objects, and one writing the same object meanwhile writes
 * the same bytes); where git has it under the new name already, the old name is removed.
 * A replace ref: under both names' locks, its reflog first and then the ref renamed.
 */
void hexoid_repair_rename(struct hexoid_repair *rp, struct journal *j, struct action *a)
{
	enum hexoid_repair_outcome res = HEXOID_REPAIR_FAILED;
	struct lock from_lk = { NULL, -1 }, to_lk = { NULL, -1 };
	char err[512] = "", *from = hexoid_join(j->dir, a->path), *to = hexoid_join(j->dir, a->to);
	char *l1 = NULL, *l2 = NULL, *log_from = NULL, *log_to = NULL;
	enum hexoid_algo algo = hexoid_audit_algo(rp->audit);
	struct stat st;
	enum lock_status ls;

	if (!from || !to) {
		snprintf(err, sizeof(err), "out of memory");
		goto done;
	}
	if (a->area == HEXOID_AREA_LOOSE_OBJECTS) {
		size_t hexsz = hexoid_hexsz(algo), len = strlen(a->to);
		if (a->to[len - 3] == '/') {
			/* A folder "objects/XX": each object in it, into "objects/xx". */
			struct hexoid_names names = { NULL, 0 };
			size_t k;
			int bad = 0;
			if (hexoid_dir_names(from, HEXOID_DIR_FILES, NULL, NULL, &names)) {
				res = HEXOID_REPAIR_CHANGED;
				snprintf(err, sizeof(err), "gone since it was read");
				goto done;
			}
			for (k = 0; k < names.n && !bad; k++) {
				char *rel_from, *rel_to;
				if (strlen(names.v[k]) != hexsz - 2 || !hexoid_all_hex(names.v[k], hexsz - 2))
					continue; /* not an object's name: git ignores it, so does this */
				rel_from = hexoid_join(a->path, names.v[k]);
				rel_to = hexoid_join(a->to, names.v[k]);
				if (!rel_from || !rel_to) {
					snprintf(err, sizeof(err), "out of memory");
					bad = 1;
				} else {
					char *c;
					/* Its own name in lowercase too. */
					for (c = rel_to + strlen(a->to); *c; c++)
						if (*c >= 'A' && *c <= 'F')
							*c = (char)(*c + ('a' - 'A'));
					bad = move_loose(rp, j, rel_from, rel_to, err, sizeof(err));
				}
				free(rel_from);
				free(rel_to);
			}
			hexoid_names_free(&names);
			if (!bad) {
				rmdir(from); /* empty now, unless it holds what is no object */
				res = HEXOID_REPAIR_DONE;
			}
			goto done;
		}
		if (!move_loose(rp, j, a->path, a->to, err, sizeof(err)))
			res = HEXOID_REPAIR_DONE;
		goto done;
	}
	/* Reftable's: through git, in one transaction. */
	if (hexoid_audit_ref_storage(rp->audit) == HEXOID_REFS_REFTABLE) {
		if (!hexoid_repair_step(j, "update-ref", a->to) &&
		    !hexoid_rewrite_rename_ref(j->dir, o_git(rp), a->path, a->to, err, sizeof(err)))
			res = HEXOID_REPAIR_DONE;
		goto done;
	}
	/* A replace ref: both names' locks, in the order of the names, as a transaction
	 * of git's takes its locks. */
	if (!(l1 = hexoid_concat(strcmp(a->path, a->to) < 0 ? a->path : a->to, ".lock")) ||
	    !(l2 = hexoid_concat(strcmp(a->path, a->to) < 0 ? a->to : a->path, ".lock"))) {
		snprintf(err, sizeof(err), "out of memory");
		goto done;
	}
	ls = hexoid_repair_lock(j, l1, rp->set.ref_timeout, 0666, &from_lk, err, sizeof(err));
	if (ls == LOCK_TAKEN)
		ls = hexoid_repair_lock(j, l2, rp->set.ref_timeout, 0666, &to_lk, err, sizeof(err));
	if (ls != LOCK_TAKEN) {
		res = ls == LOCK_HELD ? HEXOID_REPAIR_LOCKED : HEXOID_REPAIR_FAILED;
		goto done;
	}
	if (lstat(from, &st) != 0 || !S_ISREG(st.st_mode)) {
		res = HEXOID_REPAIR_CHANGED;
		snprintf(err, sizeof(err), "gone since it was read");
		goto done;
	}
	if (lstat(to, &st) == 0 || packed_has(j->dir, a->to)) {
		snprintf(err, sizeof(err), "%s exists too: left for the two to be told apart by hand", a->to);
		goto done;
	}
	{
		const char *r = strstr(a->path, "refs/replace/");
		size_t pre = r ? (size_t)(r - a->path) : 0;
		log_from = malloc(strlen(j->dir) + strlen(a->path) + 8);
		log_to = malloc(strlen(j->dir) + strlen(a->to) + 8);
		if (!log_from || !log_to) {
			snprintf(err, sizeof(err), "out of memory");
			goto done;
		}
		sprintf(log_from, "%s/%.*slogs/%s", j->dir, (int)pre, a->path, a->path + pre);
		sprintf(log_to, "%s/%.*slogs/%s", j->dir, (int)pre, a->to, a->to + pre);
	}
	if (lstat(log_from, &st) == 0 && lstat(log_to, &st) != 0) {
		if (hexoid_repair_step(j, "rename", log_to + strlen(j->dir) + 1))
			goto done;
		if (rename(log_from, log_to) != 0) {
			snprintf(err, sizeof(err), "cannot rename its reflog: %s", strerror(errno));
			goto done;
		}
	}
	if (hexoid_repair_step(j, "rename", a->to))
		goto done;
	if (rename(from, to) != 0) {
		snprintf(err, sizeof(err), "cannot rename it to %s: %s", a->to, strerror(errno));
		goto done;
	}
	res = HEXOID_REPAIR_DONE;
done:
	hexoid_repair_unlock(j, &to_lk);
	hexoid_repair_unlock(j, &from_lk);
	if (j->stopped && res != HEXOID_REPAIR_DONE) {
		rp->stopped = 1;
	} else {
		hexoid_repair_tell(rp, a, res, a->area == HEXOID_AREA_REPLACE ? l1 : NULL,
				   res == HEXOID_REPAIR_DONE ? 1 : 0, res == HEXOID_REPAIR_DONE ? NULL : err);
		hexoid_repair_count_outcome(rp, res);
	}
	free(from);
	free(to);
	free(l1);
	free(l2);
	free(log_from);
	free(log_to);
}
