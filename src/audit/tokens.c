/*
 * One tokenizer per file format (tokens.h): where each format keeps its IDs, as git
 * reads them.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "audit/tokens.h"
#include "util/str.h"

/* The length of the token at p (up to whitespace, or any of `stop`). */
static size_t token_len(const char *p, size_t n, const char *stop)
{
	size_t i = 0;

	while (i < n && !hexoid_is_space(p[i]) && !(stop && p[i] && strchr(stop, p[i])))
		i++;
	return i;
}

/* Skip blanks (not newlines); returns the new offset. */
static size_t skip_blanks(const char *p, size_t i, size_t n)
{
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	return i;
}

/*
 * The todo list of the sequencer and of `rebase -i`: "<command> [-C|-c] <name> ...";
 * the commands that take a commit name second. A line is a comment from '#'.
 */
static int todo_takes_name(const char *cmd, size_t n)
{
	static const char *const takes[] = { "pick", "p", "reword", "r", "edit", "e", "squash",
					     "s", "fixup", "f", "drop", "d", "merge", "m",
					     "revert" };
	size_t i;

	for (i = 0; i < sizeof(takes) / sizeof(*takes); i++)
		if (strlen(takes[i]) == n && !memcmp(takes[i], cmd, n))
			return 1;
	return 0;
}

/* The IDs of one file of `format` into the feed. Returns 1 when the file holds none
 * (a symbolic ref, a branch name). */
int hexoid_audit_feed_tokens(struct feed *fd, enum place_format format, const char *data,
			     size_t size)
{
	struct hexoid_lines it = { data, size, 0, 0, '\n' };
	size_t hexsz = hexoid_hexsz(fd->algo), len, n;
	const char *p;

	switch (format) {
	case FMT_REF:
	case FMT_MAYBE_ID:
		/* git reads a ref whole and trims the whitespace at its end; only the first
		 * line counts: what follows the newline is whitespace-led. */
		if (size >= 4 && !memcmp(data, "ref:", 4))
			return 1;
		if (format == FMT_MAYBE_ID) {
			n = size;
			while (n && hexoid_is_space(data[n - 1]))
				n--;
			if (n != hexsz || hexoid_decode(NULL, data, 1, hexsz, fd->algo, HEXOID_MIXED,
							NULL) != HEXOID_OK)
				return 1;
		}
		hexoid_audit_feed_token(fd, data, token_len(data, size, NULL), 1, 1);
		return 0;
	case FMT_ID_LINES:
		while (hexoid_next_line(&it, &p, &len))
			hexoid_audit_feed_token(fd, p, token_len(p, len, NULL), it.line, 1);
		return 0;
	case FMT_ALL_IDS:
		/* info/grafts: "<commit>[ <parent>]...", the line's end trimmed; one
		 * whitespace byte between IDs; '#' starts a comment line. */
		while (hexoid_next_line(&it, &p, &len)) {
			size_t i = 0;
			while (len && hexoid_is_space(p[len - 1]))
				len--;
			if (!len || p[0] == '#')
				continue;
			for (;;) {
				n = token_len(p + i, len - i, NULL);
				if (n) {
					hexoid_audit_feed_token(fd, p + i, n, it.line, (unsigned long)i + 1);
				} else {
					struct found *f = hexoid_audit_feed_extra(fd);
					if (f) {
						f->file = fd->nfiles - 1;
						f->line = it.line;
						f->column = (unsigned long)i + 1;
						f->code = HEXOID_CODE_BAD_ID;
						snprintf(f->message, sizeof(f->message),
							 "expected an object ID, found whitespace (git "
							 "takes one space or tab between IDs)");
					}
					break;
				}
				i += n;
				if (i >= len)
					break;
				i++; /* the one separator */
			}
		}
		return 0;
	case FMT_OID_LIST:
		/* fsck.skipList, blame.ignoreRevsFile: an ID a line, blanks around it and
		 * '#' comments allowed. */
		while (hexoid_next_line(&it, &p, &len)) {
			const char *hash = memchr(p, '#', len);
			size_t i, end = hash ? (size_t)(hash - p) : len;
			while (end && hexoid_is_space(p[end - 1]))
				end--;
			i = 0;
			while (i < end && hexoid_is_space(p[i]))
				i++;
			if (i < end)
				hexoid_audit_feed_token(fd, p + i, end - i, it.line, (unsigned long)i + 1);
		}
		return 0;
	case FMT_PAIRS:
		/* rewritten lists: "<old> <new>[ ...]". */
		while (hexoid_next_line(&it, &p, &len)) {
			size_t i = token_len(p, len, NULL), j;
			hexoid_audit_feed_token(fd, p, i, it.line, 1);
			j = skip_blanks(p, i, len);
			if (j > i)
				hexoid_audit_feed_token(fd, p + j, token_len(p + j, len - j, NULL), it.line,
							(unsigned long)j + 1);
			else if (len)
				hexoid_audit_feed_token(fd, "", 0, it.line, (unsigned long)i + 1);
		}
		return 0;
	case FMT_RECORDS:
		/* MERGE_RR: "<hex>[.<variant>]\t<path>", each record ending in NUL. */
		it.sep = '\0';
		while (hexoid_next_line(&it, &p, &len))
			if (len)
				hexoid_audit_feed_token(fd, p, token_len(p, len, "."), it.line, 1);
		return 0;
	case FMT_MAIL:
		/* "From <id> Mon Sep 17 00:00:00 2001": the commit a mail came from. */
		if (hexoid_next_line(&it, &p, &len) && len > 5 && !memcmp(p, "From ", 5))
			hexoid_audit_feed_token(fd, p + 5, token_len(p + 5, len - 5, NULL), 1, 6);
		return 0;
	case FMT_UPDATE_REFS:
		/* Lines 2 and 3 of each group of three are IDs. */
		while (hexoid_next_line(&it, &p, &len))
			if (it.line % 3 != 1)
				hexoid_audit_feed_token(fd, p, token_len(p, len, NULL), it.line, 1);
		return 0;
	case FMT_TODO:
		while (hexoid_next_line(&it, &p, &len)) {
			size_t i = skip_blanks(p, 0, len), c;
			if (i == len || p[i] == '#')
				continue;
			c = token_len(p + i, len - i, NULL);
			if (!todo_takes_name(p + i, c))
				continue;
			i = skip_blanks(p, i + c, len);
			if (i + 1 < len && p[i] == '-' && (p[i + 1] == 'C' || p[i + 1] == 'c'))
				i = skip_blanks(p, i + token_len(p + i, len - i, NULL), len);
			n = token_len(p + i, len - i, NULL);
			hexoid_audit_feed_name(fd, p + i, n, it.line, (unsigned long)i + 1);
		}
		return 0;
	case FMT_PACKS:
		while (hexoid_next_line(&it, &p, &len))
			if (len > 7 && !memcmp(p, "P pack-", 7))
				hexoid_audit_feed_token(fd, p + 7, token_len(p + 7, len - 7, "."), it.line, 8);
		return 0;
	case FMT_REPLACE_PACKED:
		/* "<oid> refs/replace/<name>": the name, where packed-refs keeps it. */
		while (hexoid_next_line(&it, &p, &len)) {
			size_t i = token_len(p, len, NULL);
			if (!i || p[0] == '#' || p[0] == '^')
				continue;
			i = skip_blanks(p, i, len);
			if (len - i > 13 && !memcmp(p + i, "refs/replace/", 13))
				hexoid_audit_id_name(fd, NAME_REPLACE, p + i + 13, len - i - 13, it.line,
						     (unsigned long)i + 14);
		}
		return 0;
	case FMT_ID_NAME:
	case FMT_LISTING:
		break;
	}
	return 1;
}

