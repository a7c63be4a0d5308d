/*
 * objects/info/alternates: the object directories a directory borrows from, read as git
 * reads them. The one reader of the file, for the object reader (odb.c) and the audit.
 *
 * SPDX-License-Identifier: MIT
 *
 * The file: one directory an entry, an entry a line. A line starting with '#' is a
 * comment and an empty one is nothing. A line starting with '"' is unquoted as git's
 * unquote_c_style() does (\a \b \f \n \r \t \v \\ \" and three octal digits; the entry
 * ends at the closing quote, and one byte after it is skipped); one whose quoting is
 * broken is taken as written, quote and all. Every other byte is the path's, a carriage
 * return before the line's end too: git looks for "dir\r", so a file written with CR LF
 * names directories that are not there. A relative path is relative to the objects
 * directory whose file names it. As in git, the file ends at its first NUL byte. It is
 * read only when it is a regular file: a FIFO, socket or device is never opened.
 *
 * Each directory named is resolved with realpath(); one met before (the first directory,
 * one of `known`, or one listed already) is neither listed again nor followed, which
 * also ends cycles. The others are listed depth first, in the order of the files, each
 * followed by what its own file names, down to HEXOID_ALTERNATES_DEPTH levels below the
 * first directory, as in git; the file of a directory at the last level is read but
 * what it names is not taken (git says it is nested too deep).
 */
#ifndef HEXOID_PACK_ALTERNATES_H
#define HEXOID_PACK_ALTERNATES_H

#include <stddef.h>

/* How many levels of alternates are followed below the first directory: git takes
 * what the files of depths 0 to 5 name, 0 being the first directory's own. */
#define HEXOID_ALTERNATES_DEPTH 6

struct hexoid_alternate {
	char *path;     /* the directory, resolved; as named (joined to the directory of the
			   file when relative) when it cannot be; the file itself for `file`.
			   The first directory's file (depth 0), and what it names as named,
			   are from objects_dir as the caller gave it, not resolved */
	unsigned depth; /* 1 for what the first directory's file names, 2 below that, ... */
	int error;      /* 0, or why `path` is no directory (errno's code), or the file
			   cannot be read (for one that is no regular file EISDIR, a folder,
			   or EINVAL; ENOENT, a symbolic link to nothing); such a directory is
			   not followed */
	int file;       /* 1: `path` is an info/alternates file that exists but cannot be
			   read (error says why) */
};

struct hexoid_alternates {
	struct hexoid_alternate *v;
	size_t n, cap;
};

/*
 * Append to `out` (zeroed before first use) what objects_dir's alternates name, and
 * theirs. known[0, nknown): directories already had, resolved. Returns 0; or -1 with
 * the reason in err when objects_dir cannot be resolved or memory runs out (what was
 * appended stays).
 */
int hexoid_alternates_read(const char *objects_dir, const char *const *known, size_t nknown,
			   struct hexoid_alternates *out, char *err, size_t errlen);

/* Give back what the list holds, and empty it. */
void hexoid_alternates_free(struct hexoid_alternates *list);

#endif
