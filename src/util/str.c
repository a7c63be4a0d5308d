/*
 * Strings: paths joined, names compared (str.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "util/str.h"

char *hexoid_concat3(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *s = malloc(la + lb + lc + 1);

	if (!s)
		return NULL;
	memcpy(s, a, la);
	memcpy(s + la, b, lb);
	memcpy(s + la + lb, c, lc + 1);
	return s;
}

char *hexoid_join(const char *a, const char *b)
{
	return hexoid_concat3(a, "/", b);
}

char *hexoid_concat(const char *a, const char *b)
{
	return hexoid_concat3(a, "", b);
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
