/*
 * Option values shared by the commands.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int parse_count(const char *s, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || !*s || s[0] == '-')
		return -1;
	*out = v;
	return 0;
}

int parse_algo(const char *s, enum hexoid_algo *algo, int allow_auto)
{
	if (!strcmp(s, "sha1"))
		*algo = HEXOID_SHA1;
	else if (!strcmp(s, "sha256"))
		*algo = HEXOID_SHA256;
	else if (allow_auto && !strcmp(s, "auto"))
		*algo = 0;
	else
		return -1;
	return 0;
}

int parse_jobs(const char *s, unsigned long *jobs)
{
	return parse_count(s, jobs) || *jobs < 1 || *jobs > 256 ? -1 : 0;
}

/* --- a growing buffer, for reports written whole ----------------------------------- */

static void sb_room(struct sbuf *b, size_t more)
{
	size_t cap;
	char *p;

	if (b->oom || b->len + more < b->cap)
		return;
	cap = b->cap ? b->cap : 256;
	while (cap <= b->len + more)
		cap *= 2;
	if (!(p = realloc(b->p, cap))) {
		b->oom = 1;
		return;
	}
	b->p = p;
	b->cap = cap;
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = 1;
		return;
	}
	if (!b->p || b->len + (size_t)n >= b->cap) {
		sb_room(b, (size_t)n + 1);
		if (b->oom)
			return;
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

void sb_puts(struct sbuf *b, const char *s)
{
	size_t n = strlen(s);

	sb_room(b, n + 1);
	if (b->oom)
		return;
	memcpy(b->p + b->len, s, n + 1);
	b->len += n;
}

void sb_json_string(struct sbuf *b, const char *s)
{
	if (!s) {
		sb_puts(b, "null");
		return;
	}
	sb_room(b, 2 * strlen(s) + 3);
	sb_puts(b, "\"");
	for (; *s && !b->oom; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			sb_printf(b, "\\%c", c);
		else if (c < 0x20)
			sb_printf(b, "\\u%04x", c);
		else if (sb_room(b, 1), !b->oom) {
			b->p[b->len++] = (char)c;
			b->p[b->len] = 0;
		}
	}
	sb_puts(b, "\"");
}

void sb_json_head(struct sbuf *b, const char *type, const char *repo)
{
	sb_printf(b, "{\"schema\": 1, \"type\": \"%s\", \"repository\": ", type);
	sb_json_string(b, repo);
	sb_puts(b, ", \"repo\": ");
	sb_json_string(b, repo);
}

void sb_free(struct sbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
