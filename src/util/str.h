/*
 * Strings and the arrays that hold them: paths joined, hex and blank bytes told apart,
 * names sorted, arrays grown one element at a time, data read a line at a time. For
 * every layer of the library; the library is built with hidden visibility, so none of
 * these is part of its ABI.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_UTIL_STR_H
#define HEXOID_UTIL_STR_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* "a/b", malloc'ed; NULL when memory runs out. */
char *hexoid_join(const char *a, const char *b);
/* "ab", malloc'ed; NULL when memory runs out. */
char *hexoid_concat(const char *a, const char *b);
/* "abc", malloc'ed; NULL when memory runs out. */
char *hexoid_concat3(const char *a, const char *b, const char *c);
/* `rel` as it is when it is absolute, else hexoid_join(base, rel). */
char *hexoid_resolve(const char *base, const char *rel);
/* Whether s ends with suffix. */
int hexoid_ends_with(const char *s, const char *suffix);
/* For qsort() of an array of char *: by strcmp(), as git sorts paths and refs. */
int hexoid_cmp_str(const void *a, const void *b);

/* A hex digit, in either case. */
static inline int hexoid_is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Whether all `len` bytes of s are hex digits, in either case. */
static inline int hexoid_all_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!hexoid_is_hex(s[i]))
			return 0;
	return 1;
}

/* isspace() in the C locale, whatever the locale. */
static inline int hexoid_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * Room for element n of the array *array (a T **, of *cap elements of `size` bytes),
 * which doubles, from 32, when it is full: 0, or -1 when memory runs out (the array is
 * kept as it was). Inline: it runs once per element of the arrays that grow by many.
 */
static inline int hexoid_grow(void *array, size_t *cap, size_t n, size_t size)
{
	void **p = array;
	void *v;

	if (n < *cap)
		return 0;
	v = realloc(*p, (*cap ? 2 * *cap : 32) * size);
	if (!v)
		return -1;
	*p = v;
	*cap = *cap ? 2 * *cap : 32;
	return 0;
}

/*
 * Each line of `size` bytes of data, without its separator (sep: '\n', or '\0' for
 * records ending in NUL); a last line without one counts too. Start it as
 * { data, size, 0, 0, sep }; after each line, `line` is its number from 1.
 */
struct hexoid_lines {
	const char *data;
	size_t size, at;
	unsigned long long line;
	char sep;
};
static inline int hexoid_next_line(struct hexoid_lines *it, const char **p, size_t *len)
{
	const char *nl;

	if (it->at >= it->size)
		return 0;
	nl = memchr(it->data + it->at, it->sep, it->size - it->at);
	*p = it->data + it->at;
	*len = nl ? (size_t)(nl - *p) : it->size - it->at;
	it->at += *len + 1;
	it->line++;
	return 1;
}

#endif
