/*
 * Strings: paths joined, names compared (str.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "util/str.h"

static char *glue(const char *a, const char *sep, const char *b)
{
	size_t la = strlen(a), ls = strlen(sep), lb = strlen(b);
	char *s = malloc(la + ls + lb + 1);

	if (!s)
		return NULL;
	memcpy(s, a, la);
	memcpy(s + la, sep, ls);
	memcpy(s + la + ls, b, lb + 1);
	return s;
}

char *hexoid_join(const char *a, const char *b)
{
	return glue(a, "/", b);
}

char *hexoid_concat(const char *a, const char *b)
{
	return glue(a, "", b);
}

char *hexoid_resolve(const char *base, const char *rel)
{
	return *rel == '/' ? strdup(rel) : hexoid_join(base, rel);
}

int hexoid_ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

int hexoid_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}
