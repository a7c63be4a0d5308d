/*
 * Reading small files safely: whole regular files only, so that a FIFO, socket or device
 * in a repository can never block or be opened, and every other outcome told apart for
 * the caller to report as it likes. Library-internal (hidden).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_UTIL_FILE_H
#define HEXOID_UTIL_FILE_H

#include <stddef.h>
#include <sys/types.h>

enum hexoid_file_status {
	HEXOID_FILE_OK = 0,
	HEXOID_FILE_MISSING,     /* no such file (nor folder on the way) */
	HEXOID_FILE_BROKEN_LINK, /* a symbolic link to nothing */
	HEXOID_FILE_NOT_REGULAR, /* a folder, FIFO, socket or device: not opened */
	HEXOID_FILE_TOO_BIG,     /* more bytes than the limit */
	HEXOID_FILE_ERROR,       /* cannot be read: `error` says why */
};

struct hexoid_file {
	char *data;   /* HEXOID_FILE_OK: the bytes and a NUL after them; the caller frees it */
	size_t size;  /* without that NUL */
	mode_t mode;  /* HEXOID_FILE_NOT_REGULAR: its st_mode */
	int error;    /* HEXOID_FILE_ERROR: the errno (ELOOP: a symbolic link loop) */
};

/* The caller knows the file is a regular one (readdir's DT_REG said so): no stat. */
#define HEXOID_FILE_REGULAR 1u

/*
 * The whole file `name`, relative to the folder dirfd (AT_FDCWD, or an absolute name,
 * as openat() takes them), into out. Unless flags has HEXOID_FILE_REGULAR it is stat'ed
 * first, and only a regular file is opened; it is opened O_NONBLOCK all the same, as
 * what was a file a moment ago may be a FIFO now. A read that comes back short is taken
 * as the end of the file (no second read() for the 0 that would say so); reads that
 * EINTR interrupts are done again. `limit`: at most that many bytes, 0 for no limit.
 * Nothing is allocated unless it returns HEXOID_FILE_OK.
 */
enum hexoid_file_status hexoid_file_read_at(int dirfd, const char *name, unsigned flags,
					    size_t limit, struct hexoid_file *out);

/* The first line of the regular file `path`, without its line ending, read with one
 * read() of at most PATH_MAX + 15 bytes (a .git file, commondir, a loose ref), malloc'ed;
 * NULL if it cannot be read or is not a regular file. */
char *hexoid_file_first_line(const char *path);

#endif
