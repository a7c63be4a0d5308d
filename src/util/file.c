/*
 * Reading small files safely (file.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file.h"

enum hexoid_file_status hexoid_file_read_at(int dirfd, const char *name, unsigned flags,
					    size_t limit, struct hexoid_file *out)
{
	size_t cap = 4096, size = 0;
	char *buf = NULL;
	int fd = -1;

	memset(out, 0, sizeof(*out));
	if (!(flags & HEXOID_FILE_REGULAR)) {
		struct stat st;
		if (fstatat(dirfd, name, &st, 0) < 0) {
			if (errno == ENOENT || errno == ENOTDIR) {
				/* A symbolic link to nothing is not nothing. */
				if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
				    S_ISLNK(st.st_mode))
					return HEXOID_FILE_BROKEN_LINK;
				return HEXOID_FILE_MISSING;
			}
			goto fail;
		}
		if (!S_ISREG(st.st_mode)) {
			out->mode = st.st_mode;
			return HEXOID_FILE_NOT_REGULAR;
		}
		if (limit && (unsigned long long)st.st_size > limit)
			return HEXOID_FILE_TOO_BIG;
	}
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT)
			return HEXOID_FILE_MISSING;
		goto fail;
	}
	if (!(buf = malloc(cap)))
		goto fail;
	/* On leaving the loop size < cap: room for the NUL. */
	for (;;) {
		ssize_t got;
		if (size == cap) {
			char *nb = realloc(buf, cap = 2 * cap);
			if (!nb)
				goto fail;
			buf = nb;
		}
		got = read(fd, buf + size, cap - size);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto fail;
		if (got == 0)
			break;
		size += (size_t)got;
		if (limit && size > limit) {
			close(fd);
			free(buf);
			return HEXOID_FILE_TOO_BIG;
		}
		/* A regular file read short is read to its end: no second read() for the
		 * 0 that says so (a third of the system calls of 10,000 loose refs). */
		if (size < cap)
			break;
	}
	close(fd);
	buf[size] = 0;
	out->data = buf;
	out->size = size;
	return HEXOID_FILE_OK;
fail:
	out->error = errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	return HEXOID_FILE_ERROR;
}

char *hexoid_file_first_line(const char *path)
{
	char buf[PATH_MAX + 16];
	struct stat st;
	int fd;
	ssize_t got;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got < 0)
		return NULL;
	buf[got] = 0;
	buf[strcspn(buf, "\r\n")] = 0;
	return strdup(buf);
}
