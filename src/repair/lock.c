/*
 * The repair's journal and locks (lock.h).
 *
 * A lock is taken as git takes it: the name `<file>.lock` created exclusively, so that
 * of two processes only one has it. git's lock files die with a killed git, and stay: a
 * killed repair's would block git until someone removes them by hand. So a repair first
 * creates the file under a private name (a dot-file ending in .lock, which no git
 * command reads as a ref, a log or an object), writes that file's inode to its journal,
 * and only then links it to the lock's name, which is as exclusive as O_EXCL (link()
 * fails when the name exists). At every moment each lock of the repair is either
 * unnamed, or named in the journal by the inode it has: the next repair removes a lock
 * only when it is still that inode, never one git has made since.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "repair/lock.h"
#include "util/file.h"
#include "util/str.h"

#define JOURNAL_NAME "hexoid-repair.journal"

int hexoid_repair_step(struct journal *j, const char *what, const char *rel)
{
	if (!j->stopped && j->on_step && j->on_step(j->ctx, what, rel))
		j->stopped = 1;
	return j->stopped;
}

/* A path in the journal: one line, with '\\' and newlines escaped. */
static int journal_line(struct journal *j, const char *head, const char *rel)
{
	size_t n = strlen(head), i;
	char *buf = malloc(n + 2 * strlen(rel) + 2), *p;
	ssize_t w;

	if (!buf)
		return -1;
	memcpy(buf, head, n);
	p = buf + n;
	for (i = 0; rel[i]; i++) {
		if (rel[i] == '\\' || rel[i] == '\n') {
			*p++ = '\\';
			*p++ = rel[i] == '\n' ? 'n' : '\\';
		} else {
			*p++ = rel[i];
		}
	}
	*p++ = '\n';
	/* O_APPEND: one write() is one line, whole. The journal matters when this process
	 * dies, not the machine: the page cache keeps it. */
	do
		w = write(j->fd, buf, (size_t)(p - buf));
	while (w < 0 && errno == EINTR);
	free(buf);
	return w == p - buf ? 0 : -1;
}

static char *unescape(char *s)
{
	char *r = s, *w = s;

	for (; *r; r++) {
		if (*r == '\\' && (r[1] == 'n' || r[1] == '\\')) {
			*w++ = r[1] == 'n' ? '\n' : '\\';
			r++;
		} else {
			*w++ = *r;
		}
	}
	*w = 0;
	return s;
}

/*
 * Take back what a dead repair's journal (renamed to `path`, ours alone now) names:
 * "tmp REL" lines, private names that are removed whatever they hold; "lock DEV INO
 * REL" lines, locks removed only while they are that inode.
 */
static void take_back(const char *dir, const char *data, size_t size, uint64_t *recovered)
{
	struct hexoid_lines it = { data, size, 0, 0, '\n' };
	const char *p;
	size_t len;

	while (hexoid_next_line(&it, &p, &len)) {
		char *line = strndup(p, len), *rel = NULL, *full;
		unsigned long long dev, ino;
		int off = 0;
		struct stat st;

		if (!line)
			return;
		if (!strncmp(line, "tmp ", 4)) {
			rel = unescape(line + 4);
			if ((full = hexoid_join(dir, rel))) {
				unlink(full);
				free(full);
			}
		} else if (sscanf(line, "lock %llu %llu %n", &dev, &ino, &off) == 2 && off) {
			rel = unescape(line + off);
			full = hexoid_join(dir, rel);
			if (full && lstat(full, &st) == 0 && S_ISREG(st.st_mode) &&
			    (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino &&
			    unlink(full) == 0)
				(*recovered)++;
			free(full);
		}
		free(line);
	}
}

/* Whether the process that wrote a journal's first line ("hexoid-repair PID HOST") is
 * still there; 1 also when it ran on another host, which cannot be asked. */
static int writer_alive(const char *data, char *who, size_t wholen)
{
	long pid = 0;
	char host[256] = "", me[256] = "";

	if (sscanf(data, "hexoid-repair %ld %255s", &pid, host) != 2 || pid <= 0)
		return 0;
	gethostname(me, sizeof(me) - 1);
	snprintf(who, wholen, "pid %ld on %s", pid, host);
	if (strcmp(host, me))
		return 1;
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

int hexoid_repair_journal_open(struct journal *j, const char *dir, hexoid_repair_step_fn *on_step,
			       void *ctx, uint64_t *recovered, char *err, size_t errlen)
{
	char head[320], host[256] = "";
	int tries;

	memset(j, 0, sizeof(*j));
	j->fd = -1;
	j->on_step = on_step;
	j->ctx = ctx;
	if (!(j->dir = strdup(dir)) || !(j->path = hexoid_join(dir, JOURNAL_NAME))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (tries = 0; tries < 8; tries++) {
		struct hexoid_file f;
		enum hexoid_file_status s;
		char who[300], *dead;

		if (hexoid_repair_step(j, "journal", JOURNAL_NAME))
			return 0;
		j->fd = open(j->path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0666);
		if (j->fd >= 0)
			break;
		if (errno != EEXIST) {
			snprintf(err, errlen, "%s: cannot create: %s", j->path, strerror(errno));
			return -1;
		}
		s = hexoid_file_read_at(AT_FDCWD, j->path, 0, 1 << 26, &f);
		if (s == HEXOID_FILE_MISSING)
			continue;
		if (s != HEXOID_FILE_OK) {
			snprintf(err, errlen, "%s: cannot read a repair's journal", j->path);
			return -1;
		}
		if (writer_alive(f.data, who, sizeof(who))) {
			snprintf(err, errlen,
				 "another repair (%s) is running on this repository (%s); if it is "
				 "not, remove that file",
				 who, j->path);
			free(f.data);
			return -1;
		}
		/* A dead repair's: renamed first, so that of two repairs taking it back at
		 * once only one does. */
		dead = malloc(strlen(j->path) + 32);
		if (dead) {
			sprintf(dead, "%s.dead-%ld", j->path, (long)getpid());
			if (rename(j->path, dead) == 0) {
				take_back(j->dir, f.data, f.size, recovered);
				unlink(dead);
			}
			free(dead);
		}
		free(f.data);
	}
	if (j->fd < 0) {
		snprintf(err, errlen, "%s: cannot be taken", j->path);
		return -1;
	}
	gethostname(host, sizeof(host) - 1);
	snprintf(head, sizeof(head), "hexoid-repair %ld %s\n", (long)getpid(), host[0] ? host : "-");
	if (write(j->fd, head, strlen(head)) != (ssize_t)strlen(head)) {
		snprintf(err, errlen, "%s: cannot write: %s", j->path, strerror(errno));
		close(j->fd);
		unlink(j->path);
		j->fd = -1;
		return -1;
	}
	return 0;
}

void hexoid_repair_journal_close(struct journal *j)
{
	if (j->fd >= 0) {
		/* Stopped or not: this is the run's last change, the journal's end. */
		if (j->on_step)
			j->on_step(j->ctx, "done", JOURNAL_NAME);
		close(j->fd);
		unlink(j->path);
	}
	j->fd = -1;
	free(j->dir);
	free(j->path);
	j->dir = j->path = NULL;
}

/* mkdir -p of the folders above `full` below the journal's dir, as git makes them for a
 * lock of a ref whose folder is gone (its refs packed). */
static void make_leading(const struct journal *j, char *full)
{
	size_t base = strlen(j->dir);
	char *s;

	for (s = full + base + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(full, 0777);
		*s = '/';
	}
}

static long elapsed_ms(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)(t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

enum lock_status hexoid_repair_lock(struct journal *j, const char *rel, long timeout_ms,
				    mode_t mode, struct lock *lk, char *err, size_t errlen)
{
	char *full = hexoid_join(j->dir, rel), *tmp = NULL, *tmprel = NULL, *slash, head[64];
	struct timespec t0;
	struct stat st;
	unsigned long wait = 1, n = 1;
	int fd = -1, linked = 0;
	enum lock_status res = LOCK_ERROR;

	lk->rel = NULL;
	lk->fd = -1;
	if (!full || !(tmprel = malloc(strlen(rel) + 64)))
		goto oom;
	/* The private name: ".<name>.<pid>-<serial>.hexoid.lock" in the same folder. */
	slash = strrchr(rel, '/');
	sprintf(tmprel, "%.*s.%s.%ld-%lu.hexoid.lock", slash ? (int)(slash - rel + 1) : 0, rel,
		slash ? slash + 1 : rel, (long)getpid(), ++j->serial);
	if (!(tmp = hexoid_join(j->dir, tmprel)))
		goto oom;
	if (hexoid_repair_step(j, "lock", rel)) {
		res = LOCK_STOPPED;
		goto out;
	}
	if (journal_line(j, "tmp ", tmprel)) {
		snprintf(err, errlen, "%s: cannot write: %s", j->path, strerror(errno));
		goto out;
	}
	fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0 && errno == ENOENT) {
		make_leading(j, tmp);
		fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	}
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, errlen, "%s: cannot create: %s", tmprel, strerror(errno));
		goto out;
	}
	snprintf(head, sizeof(head), "lock %llu %llu ", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	if (journal_line(j, head, rel)) {
		snprintf(err, errlen, "%s: cannot write: %s", j->path, strerror(errno));
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		long left;
		if (link(tmp, full) == 0) {
			linked = 1;
			break;
		}
		if (errno != EEXIST) {
			snprintf(err, errlen, "%s: cannot create: %s", rel, strerror(errno));
			goto out;
		}
		left = timeout_ms - elapsed_ms(&t0);
		if (left <= 0) {
			snprintf(err, errlen, "%s: held by another process%s", rel,
				 timeout_ms > 0 ? " for as long as git waits" : "");
			res = LOCK_HELD;
			goto out;
		}
		/* Waits that grow as 1, 4, 9, ... ms up to a second, each 75-125% of that so
		 * that two waiters do not wake together. */
		{
			unsigned long ms = wait * (750 + (unsigned long)rand() % 500) / 1000;
			struct timespec ts;
			if ((long)ms > left)
				ms = (unsigned long)left;
			ts.tv_sec = (time_t)(ms / 1000);
			ts.tv_nsec = (long)(ms % 1000) * 1000000 + 1;
			nanosleep(&ts, NULL);
			n++;
			wait = n * n < 1000 ? n * n : 1000;
		}
	}
	res = LOCK_TAKEN;
out:
	if (tmp && fd >= 0)
		unlink(tmp);
	if (res == LOCK_TAKEN && linked) {
		if (!(lk->rel = strdup(rel))) {
			unlink(full);
			close(fd);
			fd = -1;
			snprintf(err, errlen, "out of memory");
			res = LOCK_ERROR;
		} else {
			lk->fd = fd;
			fd = -1;
		}
	}
	if (fd >= 0)
		close(fd);
	free(full);
	free(tmp);
	free(tmprel);
	return res;
oom:
	snprintf(err, errlen, "out of memory");
	res = LOCK_ERROR;
	goto out;
}

void hexoid_repair_unlock(struct journal *j, struct lock *lk)
{
	char *full;

	if (!lk->rel)
		return;
	/* Told, not asked: a lock is always let go. */
	if (j->on_step && !j->stopped)
		j->on_step(j->ctx, "unlock", lk->rel);
	if ((full = hexoid_join(j->dir, lk->rel))) {
		unlink(full);
		free(full);
	}
	if (lk->fd >= 0)
		close(lk->fd);
	free(lk->rel);
	lk->rel = NULL;
	lk->fd = -1;
}

int hexoid_repair_commit(struct journal *j, struct lock *lk, const char *target, char *err,
			 size_t errlen)
{
	char *from = hexoid_join(j->dir, lk->rel), *to = hexoid_join(j->dir, target);
	int ret = -1;

	if (!from || !to) {
		snprintf(err, errlen, "out of memory");
	} else if (hexoid_repair_step(j, "rename", target)) {
		snprintf(err, errlen, "stopped");
	} else if (close(lk->fd) != 0) {
		lk->fd = -1;
		snprintf(err, errlen, "%s: cannot write: %s", lk->rel, strerror(errno));
	} else {
		lk->fd = -1;
		if (rename(from, to) == 0) {
			free(lk->rel);
			lk->rel = NULL;
			ret = 0;
		} else {
			snprintf(err, errlen, "%s: cannot rename over %s: %s", lk->rel, target,
				 strerror(errno));
		}
	}
	free(from);
	free(to);
	if (ret)
		hexoid_repair_unlock(j, lk);
	return ret;
}
