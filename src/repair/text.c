/*
 * A lowercase action: one file's IDs lowercased where the audit found them, under the
 * locks git takes for that file (a reflog under its ref's lock too), the file read again
 * under them and written whole with its mode and owner kept. packed-refs goes through
 * packed-refs.new as git writes it, its records sorted again when a replace ref's name
 * changed; a commit-graph or multi-pack-index chain keeps naming its files.
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

#include "repair/repair.h"
#include "util/file.h"
#include "util/str.h"

/*
 * The IDs of `a` lowercased in data: each must still be where it was found, an ID of
 * the repository's length in hex; one that is lowercase already is left. Returns how
 * many were lowercased, or -1 when one is no longer there.
 */
static long lowercase(const struct action *a, char *data, size_t size, size_t hexsz, char sep)
{
	unsigned long long line = 1;
	size_t at = 0, i;
	long n = 0;

	for (i = 0; i < a->n; i++) {
		const struct fix *fx = &a->fixes[i];
		size_t start, end, pos;
		int upper = 0;
		/* To the line (fixes come in file order). */
		while (line < fx->line) {
			char *e = memchr(data + at, sep, size - at);
			if (!e)
				return -1;
			at = (size_t)(e - data) + 1;
			line++;
		}
		pos = at + fx->column - 1;
		if (pos >= size || data[pos] == sep || !hexoid_is_hex(data[pos]))
			return -1;
		for (start = pos; start > at && hexoid_is_hex(data[start - 1]); start--)
			;
		for (end = pos; end < size && hexoid_is_hex(data[end]); end++)
			;
		if (end - start != hexsz)
			return -1;
		for (pos = start; pos < end; pos++)
			if (data[pos] >= 'A' && data[pos] <= 'F') {
				data[pos] = (char)(data[pos] + ('a' - 'A'));
				upper = 1;
			}
		n += upper;
	}
	return n;
}

/* The ref a reflog belongs to, with its git directory's prefix: "logs/refs/heads/x" is
 * "refs/heads/x", "worktrees/wt/logs/HEAD" is "worktrees/wt/HEAD". The prefix is the
 * first place "logs/" starts a component below which a git directory's HEAD is. */
char *hexoid_repair_reflog_ref(const char *gitdir, const char *path)
{
	const char *p = path;

	for (;;) {
		if (!strncmp(p, "logs/", 5) && (p == path || p[-1] == '/')) {
			size_t plen = (size_t)(p - path);
			char *pre = strndup(path, plen), *head, *dir;
			struct stat st;
			int ok;
			if (!pre)
				return NULL;
			dir = hexoid_join(gitdir, pre);
			head = dir ? hexoid_join(dir, "HEAD") : NULL;
			ok = head && lstat(head, &st) == 0;
			free(head);
			free(dir);
			if (ok) {
				char *ref = malloc(strlen(path) - 4);
				if (ref)
					sprintf(ref, "%s%s", pre, p + 5);
				free(pre);
				return ref;
			}
			free(pre);
		}
		if (!(p = strchr(p, '/')))
			return NULL;
		p++;
	}
}

/* The file a commit-graph or multi-pack-index chain's line names, in the chain's folder. */
static char *chain_member(const char *chain, enum hexoid_audit_area area, const char *id, size_t len)
{
	const char *slash = strrchr(chain, '/');
	size_t dl = slash ? (size_t)(slash - chain + 1) : 0;
	char *s = malloc(dl + len + 40);

	if (s)
		sprintf(s, "%.*s%s%.*s%s", (int)dl, chain,
			area == HEXOID_AREA_GRAPH_CHAIN ? "graph-" : "multi-pack-index-", (int)len, id,
			area == HEXOID_AREA_GRAPH_CHAIN ? ".graph" : ".midx");
	return s;
}

/*
 * git 2.x names a chain's files by the line's text as written: a line lowercased must
 * still name its file. Where only the file of the old spelling is there, the new
 * spelling is made a second name of it (the old one stays, as a reader may hold it;
 * git's next write of the chain expires it).
 */
static int link_chain_members(struct hexoid_repair *rp, struct journal *j, const struct action *a,
			      const char *old, const char *now, size_t size, char *err, size_t errlen)
{
	size_t hexsz = hexoid_hexsz(hexoid_audit_algo(rp->audit)), i = 0;

	while (i + hexsz <= size) {
		size_t e = i;
		while (e < size && old[e] != '\n')
			e++;
		if (e - i == hexsz && memcmp(old + i, now + i, hexsz)) {
			char *from = chain_member(a->path, a->area, old + i, hexsz);
			char *to = chain_member(a->path, a->area, now + i, hexsz);
			char *ffrom = from ? hexoid_join(j->dir, from) : NULL;
			char *fto = to ? hexoid_join(j->dir, to) : NULL;
			struct stat st;
			int bad = !fto;
			if (fto && lstat(fto, &st) != 0 && ffrom && lstat(ffrom, &st) == 0) {
				if (hexoid_repair_step(j, "link", to))
					bad = 1;
				else if (link(ffrom, fto) != 0 && errno != EEXIST) {
					snprintf(err, errlen, "%s: cannot link to %s: %s", from, to,
						 strerror(errno));
					bad = 1;
				}
			}
			free(from);
			free(to);
			free(ffrom);
			free(fto);
			if (bad)
				return -1;
		}
		i = e + 1;
	}
	return 0;
}

/* Whether the file of `area` is flushed before it is renamed into place. */
int hexoid_repair_wants_fsync(const struct hexoid_repair *rp, enum hexoid_audit_area area)
{
	switch (area) {
	case HEXOID_AREA_REFS:
	case HEXOID_AREA_PSEUDO_REFS:
	case HEXOID_AREA_PACKED_REFS:
	case HEXOID_AREA_REFLOGS:
		return !!(rp->set.fsync & FSYNC_REFERENCE);
	case HEXOID_AREA_GRAPH_CHAIN:
		return !!(rp->set.fsync & FSYNC_COMMIT_GRAPH);
	case HEXOID_AREA_MIDX_CHAIN:
		return !!(rp->set.fsync & FSYNC_PACK_METADATA);
	default:
		return 0;
	}
}

int hexoid_repair_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* A record of packed-refs: a "<id> <name>" line and the "^<id>" line after it. */
struct record {
	const char *p, *name;
	size_t len, namelen;
};

static int cmp_record(const void *a, const void *b)
{
	const struct record *x = a, *y = b;
	size_t n = x->namelen < y->namelen ? x->namelen : y->namelen;
	int c = memcmp(x->name, y->name, n);
	return c ? c : (x->namelen > y->namelen) - (x->namelen < y->namelen);
}

/*
 * packed-refs whose names changed, sorted again by name as git sorts them (byte order),
 * each record with its peeled line, the header first. Into *out (malloc'ed, the same
 * size). 0; 1 when two records now have one name (left: a person must choose); -1.
 */
static int resort_packed(const char *data, size_t size, char **out)
{
	struct record *v = NULL;
	size_t n = 0, cap = 0, i, at = 0, w = 0;
	char *o;
	int ret = 0;

	while (at < size) {
		const char *p = data + at, *nl = memchr(p, '\n', size - at), *sp;
		size_t len = nl ? (size_t)(nl - p) + 1 : size - at;
		if (*p == '^' && n) {
			v[n - 1].len += len;        /* the peeled line stays with its ref */
		} else {
			if (hexoid_grow(&v, &cap, n, sizeof(*v))) {
				free(v);
				return -1;
			}
			v[n].p = p;
			v[n].len = len;
			sp = *p == '#' ? NULL : memchr(p, ' ', len);
			v[n].name = sp ? sp + 1 : "";
			v[n].namelen = sp ? len - (size_t)(sp + 1 - p) - (nl ? 1 : 0) : 0;
			n++;
		}
		at += len;
	}
	/* The header (a '#' line, name "") sorts first. */
	if (n)
		qsort(v, n, sizeof(*v), cmp_record);
	for (i = 1; i < n; i++)
		if (v[i].namelen && !cmp_record(&v[i - 1], &v[i]))
			ret = 1;
	if (!ret && !(o = malloc(size ? size : 1)))
		ret = -1;
	if (!ret) {
		for (i = 0; i < n; i++) {
			memcpy(o + w, v[i].p, v[i].len);
			w += v[i].len;
		}
		*out = o;
	}
	free(v);
	return ret;
}

/* One lowercase action, under its locks. */
void hexoid_repair_lowercase(struct hexoid_repair *rp, struct journal *j, struct action *a)
{
	struct lock ref = { NULL, -1 }, lk = { NULL, -1 }, out = { NULL, -1 };
	enum hexoid_repair_outcome res = HEXOID_REPAIR_FAILED;
	char err[512] = "", *lockrel = NULL, *reflock = NULL, *full = hexoid_join(j->dir, a->path);
	char *old = NULL;
	struct hexoid_file f = { NULL, 0, 0, 0 };
	struct stat st;
	long timeout = 0, n = 0;
	enum lock_status ls;
	const char *slash = strrchr(a->path, '/');
	const char *base = slash ? slash + 1 : a->path;
	int packed = (a->area == HEXOID_AREA_PACKED_REFS || a->area == HEXOID_AREA_REPLACE) && is_packed_refs(a->path);

	if (!full || !(lockrel = hexoid_concat(a->path, ".lock"))) {
		snprintf(err, sizeof(err), "out of memory");
		goto done;
	}
	if (a->area == HEXOID_AREA_REFS || a->area == HEXOID_AREA_PSEUDO_REFS)
		timeout = rp->set.ref_timeout;
	else if (packed)
		timeout = rp->set.packed_timeout;
	/* A reflog is rewritten under its ref's lock, as git's reflog expire does. */
	if (a->area == HEXOID_AREA_REFLOGS) {
		char *r = hexoid_repair_reflog_ref(j->dir, a->path);
		if (!r || !(reflock = hexoid_concat(r, ".lock"))) {
			free(r);
			snprintf(err, sizeof(err), "no git directory above it");
			goto done;
		}
		free(r);
		ls = hexoid_repair_lock(j, reflock, rp->set.ref_timeout, 0666, &ref, err, sizeof(err));
		if (ls != LOCK_TAKEN) {
			res = ls == LOCK_HELD ? HEXOID_REPAIR_LOCKED : HEXOID_REPAIR_FAILED;
			goto done;
		}
	}
	/* The lock is made with the file's mode; the file is looked at again under it. */
	if (lstat(full, &st) != 0)
		st.st_mode = 0666;
	ls = hexoid_repair_lock(j, lockrel, timeout, st.st_mode & 0777, &lk, err, sizeof(err));
	if (ls != LOCK_TAKEN) {
		res = ls == LOCK_HELD ? HEXOID_REPAIR_LOCKED : HEXOID_REPAIR_FAILED;
		goto done;
	}
	/* Under the lock, the file as it is now: a regular file, no link to follow. */
	if (lstat(full, &st) != 0) {
		res = HEXOID_REPAIR_CHANGED;
		snprintf(err, sizeof(err), "gone since it was read");
		goto done;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, sizeof(err), "%s", S_ISLNK(st.st_mode) ? "a symbolic link: left to what it names"
								   : "not a regular file");
		goto done;
	}
	if (hexoid_file_read_at(AT_FDCWD, full, 0, 0, &f) != HEXOID_FILE_OK) {
		snprintf(err, sizeof(err), "cannot read it again");
		goto done;
	}
	if ((a->area == HEXOID_AREA_GRAPH_CHAIN || a->area == HEXOID_AREA_MIDX_CHAIN) &&
	    !(old = malloc(f.size + 1))) {
		snprintf(err, sizeof(err), "out of memory");
		goto done;
	}
	if (old)
		memcpy(old, f.data, f.size);
	n = lowercase(a, f.data, f.size, hexoid_hexsz(hexoid_audit_algo(rp->audit)),
		      !strcmp(base, "MERGE_RR") ? '\0' : '\n');
	if (n < 0) {
		res = HEXOID_REPAIR_CHANGED;
		snprintf(err, sizeof(err), "changed since it was read: an ID is no longer where it was");
		goto done;
	}
	if (n == 0) {
		res = HEXOID_REPAIR_DONE; /* lowercase already: someone did it */
		goto done;
	}
	if (old && link_chain_members(rp, j, a, old, f.data, f.size, err, sizeof(err)))
		goto done;
	/* A replace ref renamed in packed-refs: the records sorted again, and never one
	 * name twice (a loose ref of the new name shadows it, as loose refs do). */
	if (a->area == HEXOID_AREA_REPLACE) {
		char *sorted = NULL;
		int rs = resort_packed(f.data, f.size, &sorted);
		if (rs) {
			snprintf(err, sizeof(err), rs > 0 ? "a replace ref would have the name of another: left for a person"
							   : "out of memory");
			goto done;
		}
		free(f.data);
		f.data = sorted;
	}
	/* packed-refs: the new contents go to packed-refs.new, renamed over the file while
	 * packed-refs.lock is held, as git writes them. */
	if (packed) {
		char *newrel = hexoid_concat(a->path, ".new");
		if (!newrel) {
			snprintf(err, sizeof(err), "out of memory");
			goto done;
		}
		ls = hexoid_repair_lock(j, newrel, 0, st.st_mode & 0777, &out, err, sizeof(err));
		free(newrel);
		if (ls != LOCK_TAKEN) {
			res = ls == LOCK_HELD ? HEXOID_REPAIR_LOCKED : HEXOID_REPAIR_FAILED;
			goto done;
		}
	}
	{
		struct lock *w = packed ? &out : &lk;
		struct stat ws;
		if (hexoid_repair_step(j, "write", w->rel))
			goto done;
		if (hexoid_repair_write_all(w->fd, f.data, f.size) || fstat(w->fd, &ws)) {
			snprintf(err, sizeof(err), "%s: cannot write: %s", w->rel, strerror(errno));
			goto done;
		}
		/* The old file's mode and owner, whatever the umask and whoever runs this. */
		if ((ws.st_mode & 07777) != (st.st_mode & 07777) && fchmod(w->fd, st.st_mode & 07777)) {
			snprintf(err, sizeof(err), "%s: cannot keep its mode: %s", w->rel, strerror(errno));
			goto done;
		}
		if ((ws.st_uid != st.st_uid || ws.st_gid != st.st_gid) &&
		    fchown(w->fd, st.st_uid, st.st_gid)) {
			snprintf(err, sizeof(err), "cannot keep its owner (%lu:%lu): %s",
				 (unsigned long)st.st_uid, (unsigned long)st.st_gid, strerror(errno));
			goto done;
		}
		if (hexoid_repair_wants_fsync(rp, a->area) && fsync(w->fd)) {
			snprintf(err, sizeof(err), "%s: cannot flush: %s", w->rel, strerror(errno));
			goto done;
		}
		if (hexoid_repair_commit(j, w, a->path, err, sizeof(err)))
			goto done;
	}
	res = HEXOID_REPAIR_DONE;
done:
	hexoid_repair_unlock(j, &out);
	hexoid_repair_unlock(j, &lk);
	hexoid_repair_unlock(j, &ref);
	if (j->stopped && res != HEXOID_REPAIR_DONE) {
		rp->stopped = 1;
	} else {
		hexoid_repair_tell(rp, a, res, reflock ? reflock : lockrel,
				   res == HEXOID_REPAIR_DONE ? (unsigned long)n : 0,
				   res == HEXOID_REPAIR_DONE ? NULL : err);
		hexoid_repair_count_outcome(rp, res);
	}
	free(f.data);
	free(old);
	free(full);
	free(lockrel);
	free(reflock);
}
