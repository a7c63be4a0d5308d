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

/* The length of the valid UTF-8 sequence at s (1 to 4), or 0 when s[0] starts none:
 * overlong forms, surrogates and code points past U+10FFFF are not valid. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0], n, cp, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* a NUL ends it too */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * JSON for s: '"' and '\' escaped, control bytes and DEL as \u00XX, valid UTF-8 as it
 * is, and each byte that is not part of valid UTF-8 (a ref or file named in Latin-1,
 * say) as \udcXX: the lone surrogate that Python's "surrogateescape" reads back as that
 * byte, so that every line is JSON a strict parser takes and no byte is lost.
 */
void sb_json_string(struct sbuf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		sb_puts(b, "null");
		return;
	}
	sb_room(b, 2 * strlen(s) + 3);
	sb_puts(b, "\"");
	while (*p && !b->oom) {
		size_t n = utf8_len(p);
		if (*p == '"' || *p == '\\') {
			sb_printf(b, "\\%c", *p);
		} else if (*p < 0x20 || *p == 0x7f) {
			sb_printf(b, "\\u%04x", *p);
		} else if (!n) {
			sb_printf(b, "\\udc%02x", *p);
			n = 1;
		} else if (sb_room(b, n), !b->oom) {
			memcpy(b->p + b->len, p, n);
			b->len += n;
			b->p[b->len] = 0;
		}
		p += n ? n : 1;
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
