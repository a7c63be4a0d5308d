/*
 * The names in a folder, sorted (dir.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/dir.h"
#include "util/str.h"

/* Whether the entry is of the filter's type; a link, or a type readdir does not give,
 * is stat'ed (following links). */
static int wanted(DIR *d, const struct dirent *de, enum hexoid_dir_filter filter)
{
	unsigned char want = filter == HEXOID_DIR_FOLDERS ? DT_DIR : DT_REG;
	struct stat st;

	if (filter == HEXOID_DIR_ANY || de->d_type == want)
		return 1;
	if (de->d_type != DT_UNKNOWN && de->d_type != DT_LNK)
		return 0;
	if (fstatat(dirfd(d), de->d_name, &st, 0) < 0)
		return 0;
	return filter == HEXOID_DIR_FOLDERS ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
}

int hexoid_dir_names(const char *dir, enum hexoid_dir_filter filter,
		     int (*keep)(const char *name, void *ctx), void *ctx,
		     struct hexoid_names *names)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t cap = 0;
	int err;

	names->v = NULL;
	names->n = 0;
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		const char *s = de->d_name;
		if (s[0] == '.' && (!s[1] || (s[1] == '.' && !s[2])))
			continue;
		if ((keep && !keep(s, ctx)) || !wanted(d, de, filter))
			continue;
		if (hexoid_grow(&names->v, &cap, names->n, sizeof(*names->v)) ||
		    !(names->v[names->n] = strdup(s)))
			goto fail;
		names->n++;
	}
	closedir(d);
	if (names->n > 1)
		qsort(names->v, names->n, sizeof(*names->v), hexoid_cmp_str);
	return 0;
fail:
	err = errno;
	closedir(d);
	hexoid_names_free(names);
	errno = err;
	return -1;
}

void hexoid_names_free(struct hexoid_names *names)
{
	size_t i;

	for (i = 0; i < names->n; i++)
		free(names->v[i]);
	free(names->v);
	names->v = NULL;
	names->n = 0;
}
