/*
 * The names in a folder, sorted: what git's own listings are sorted by, so that what is
 * found in a folder is reported in an order that does not depend on the file system.
 * Library-internal (hidden).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_UTIL_DIR_H
#define HEXOID_UTIL_DIR_H

#include <stddef.h>

/* Which entries a listing keeps. */
enum hexoid_dir_filter {
	HEXOID_DIR_ANY,     /* every entry, of any type: no stat */
	HEXOID_DIR_FOLDERS, /* folders, and symbolic links to folders */
	HEXOID_DIR_FILES,   /* regular files, and symbolic links to them */
};

struct hexoid_names {
	char **v;  /* the names, each malloc'ed */
	size_t n;
};

/*
 * The names of the entries of the folder `dir`, "." and ".." left out, those of
 * `filter` whose name `keep` returns nonzero for (keep NULL: all of them; it is asked
 * before any stat), sorted by strcmp(). readdir()'s d_type saves a stat where the file
 * system gives it. Returns 0, or -1 with errno when the folder cannot be opened or
 * memory runs out; names is empty then (n 0, v NULL).
 */
int hexoid_dir_names(const char *dir, enum hexoid_dir_filter filter,
		     int (*keep)(const char *name, void *ctx), void *ctx,
		     struct hexoid_names *names);

/* Frees the names and empties names. */
void hexoid_names_free(struct hexoid_names *names);

#endif
