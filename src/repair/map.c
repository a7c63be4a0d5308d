/*
 * hexoid-rewrite-map, the file a rewrite keeps in the git directory: "<old> <new>" for
 * each object it wrote again. Read back sorted to look old IDs up (the plan, the
 * cleanup after a rewrite), and written under its lock before any ref moves, so that a
 * run killed later is finished by the next from it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repair/repair.h"
#include "util/file.h"
#include "util/oidset.h"
#include "util/str.h"

static int cmp_pair(const void *a, const void *b)
{
	return memcmp(((const struct pair *)a)->old_oid, ((const struct pair *)b)->old_oid,
		      HEXOID_MAX_RAWSZ);
}

/* hexoid-rewrite-map, sorted by old ID; 0 pairs when there is none. */
int hexoid_repair_map_load(const char *dir, enum hexoid_algo algo, struct pair **out, size_t *n)
{
	size_t hexsz = hexoid_hexsz(algo), cap = 0;
	struct hexoid_file f;
	char *path = hexoid_join(dir, "hexoid-rewrite-map");
	const char *p;
	size_t len;

	*out = NULL;
	*n = 0;
	if (!path)
		return -1;
	if (hexoid_file_read_at(AT_FDCWD, path, 0, 0, &f) == HEXOID_FILE_OK) {
		struct hexoid_lines it = { f.data, f.size, 0, 0, '\n' };
		while (hexoid_next_line(&it, &p, &len)) {
			struct pair pr;
			memset(&pr, 0, sizeof(pr));
			if (len != 2 * hexsz + 1 ||
			    hexoid_decode(pr.old_oid, p, 1, hexsz, algo, HEXOID_MIXED, NULL) != HEXOID_OK ||
			    hexoid_decode(pr.new_oid, p + hexsz + 1, 1, hexsz, algo, HEXOID_MIXED, NULL) != HEXOID_OK)
				continue;
			if (hexoid_grow(out, &cap, *n, sizeof(pr))) {
				free(f.data);
				free(path);
				return -1;
			}
			(*out)[(*n)++] = pr;
		}
		free(f.data);
	}
	free(path);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_pair);
	return 0;
}

const struct pair *hexoid_repair_map_find(const struct pair *map, size_t n,
					  const unsigned char *oid)
{
	struct pair key;

	memset(&key, 0, sizeof(key));
	memcpy(key.old_oid, oid, HEXOID_MAX_RAWSZ);
	return n ? bsearch(&key, map, n, sizeof(*map), cmp_pair) : NULL;
}

/* hexoid-rewrite-map: what was there, and each new "<old> <new>" line whose old ID it
 * does not have yet (a rewrite run again after being killed writes the same lines). */
int hexoid_repair_map_write(struct hexoid_repair *rp, struct journal *j, char *err,
			    size_t errlen)
{
	enum hexoid_algo algo = hexoid_audit_algo(rp->audit);
	size_t hexsz = hexoid_hexsz(algo), rawsz = hexoid_rawsz(algo), len, at;
	struct hexoid_oidset had = HEXOID_OIDSET_INIT;
	struct lock lk = { NULL, -1 };
	struct hexoid_file f = { NULL, 0, 0, 0 };
	char *text = NULL, *path = hexoid_join(j->dir, "hexoid-rewrite-map");
	unsigned char oid[HEXOID_MAX_RAWSZ];
	int ret = -1;

	if (!path || hexoid_rewrite_map_text(rp->rw, &text, &len)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (hexoid_repair_lock(j, "hexoid-rewrite-map.lock", 0, 0666, &lk, err, errlen) != LOCK_TAKEN)
		goto out;
	if (hexoid_file_read_at(AT_FDCWD, path, 0, 0, &f) == HEXOID_FILE_OK) {
		struct hexoid_lines it = { f.data, f.size, 0, 0, '\n' };
		const char *p;
		size_t n;
		while (hexoid_next_line(&it, &p, &n))
			if (n > hexsz && hexoid_decode(oid, p, 1, hexsz, algo, HEXOID_MIXED, NULL) == HEXOID_OK &&
			    hexoid_oidset_add(&had, oid, rawsz))
				goto oom;
		hexoid_oidset_sort(&had);
		if (hexoid_repair_write_all(lk.fd, f.data, f.size))
			goto io;
	}
	for (at = 0; at < len; at += 2 * hexsz + 2) {
		if (hexoid_decode(oid, text + at, 1, hexsz, algo, HEXOID_LOWER, NULL) == HEXOID_OK &&
		    had.n && hexoid_oidset_find(&had, oid, rawsz) != (size_t)-1)
			continue;
		if (hexoid_repair_write_all(lk.fd, text + at, 2 * hexsz + 2))
			goto io;
	}
	if (hexoid_repair_step(j, "write", "hexoid-rewrite-map.lock"))
		goto out;
	ret = hexoid_repair_commit(j, &lk, "hexoid-rewrite-map", err, errlen);
	goto out;
io:
	snprintf(err, errlen, "hexoid-rewrite-map.lock: cannot write: %s", strerror(errno));
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	hexoid_repair_unlock(j, &lk);
	hexoid_oidset_free(&had);
	free(f.data);
	free(text);
	free(path);
	return ret;
}
