/*
 * Feeds: the files of one place in one git directory through the listing checker as
 * one stream, and the problems found, sorted by where they are, to the run (feed.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_AUDIT_FEED_H
#define HEXOID_AUDIT_FEED_H

#include "audit/audit.h"
#include "hexoid_listing.h"

struct feed_file {
	char *path;               /* as findings show it */
	unsigned long long first; /* its first line's number in the feed */
};
struct token {
	size_t file;
	unsigned long long line;  /* in the file */
	unsigned long column;     /* of the token's first byte, from 1 */
};
/* A problem where it is in its file, to sort them all by place before reporting. */
struct found {
	size_t file;
	unsigned long long line;
	unsigned long column;
	enum hexoid_code code;
	char message[sizeof(((struct hexoid_problem *)0)->message) + 64];
};
struct problems {
	struct hexoid_problem *v;
	size_t n, cap;
};
struct feed {
	struct run *r;
	enum hexoid_audit_area area;
	enum hexoid_algo algo;
	struct hexoid_listing *lower;
	struct problems pl;
	struct feed_file *files;
	size_t nfiles, capfiles;
	struct token *tokens;     /* line n of the stream is tokens[n - 1], in token mode */
	size_t ntokens, captokens;
	struct found *extra;      /* problems found here (abbreviated names) */
	size_t nextra, capextra;
	unsigned long long lines;
	int oom;
};

int hexoid_audit_feed_start(struct run *r, struct feed *fd, enum hexoid_audit_area area,
			    enum hexoid_format format, enum hexoid_algo algo);
/* A new file of the feed: `path` is how findings name it. */
int hexoid_audit_feed_file(struct feed *fd, const char *path);
/* A whole file of lines. */
void hexoid_audit_feed_lines(struct feed *fd, const char *path, const char *data, size_t size);
/* One ID of the current file, at line `line`, column `col` (from 1). */
void hexoid_audit_feed_token(struct feed *fd, const char *tok, size_t len,
			     unsigned long long line, unsigned long col);
/* Room for a problem found outside the checker; NULL when memory runs out. */
struct found *hexoid_audit_feed_extra(struct feed *fd);
/* An object name that may be abbreviated (todo lists, stopped-sha). */
void hexoid_audit_feed_name(struct feed *fd, const char *tok, size_t len,
			    unsigned long long line, unsigned long col);

enum id_name { NAME_REPLACE, NAME_RERERE, NAME_NOTES_MERGE };
/* A name that is an ID (refs/replace/<id>, rr-cache/<id>, a notes merge's file).
 * `line` 0 is about a file's or folder's name. */
void hexoid_audit_id_name(struct feed *fd, enum id_name kind, const char *name, size_t len,
			  unsigned long long line, unsigned long col);
/* The end of a feed: its findings, in the order of their places. Returns the number of
 * lines the checker read. */
unsigned long long hexoid_audit_feed_finish(struct feed *fd);

#endif
