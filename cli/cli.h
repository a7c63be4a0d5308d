/*
 * The hexoid command's shared pieces.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_CLI_H
#define HEXOID_CLI_H

#include <pthread.h>
#include <stdio.h>

#include "hexoid.h"
#include "hexoid_listing.h"

/* Exit codes scripts can rely on. */
enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_TROUBLE = 2 };

struct lines_options {
	enum hexoid_format format;
	enum hexoid_kind kind;
	enum hexoid_algo algo;    /* 0: take it from the first line of each file */
	unsigned long max_errors; /* stop after this many reports; 0: never */
	FILE *binary_out;         /* decode: whole records go here; NULL: verify only */
	int json;                 /* verify --json: JSON lines on stdout, not the text report */
};

struct lines_totals {
	unsigned long long lines; /* lines read */
	unsigned long long bad;   /* lines reported */
	unsigned long long reports; /* problems reported (a line may have several) */
	int trouble;              /* an I/O error happened */
	int stopped;              /* max_errors was reached */
	unsigned long files, clean, with_problems, not_checked; /* files, by outcome */
};

/* verify --json: a JSON string (or null) on stdout, and an "error" object for a reason to
 * exit 2 about `file` (NULL: about no file), also written to stderr by the caller. */
void verify_json_string(FILE *out, const char *s);
void verify_json_error(const char *file, const char *message);

/*
 * Check (and with binary_out, decode) every line of `path` ("-" is standard input) in
 * the given format, reporting each bad line as FILE:LINE:COL: error: ... on stderr.
 * Reads in bounded memory, whatever the file's size or line length.
 */
void lines_run(const char *path, const struct lines_options *opt, struct lines_totals *tot);

/* Raw binary IDs from `path` to lines on `out`; returns an exit code. */
int encode_run(const char *path, enum hexoid_algo algo, FILE *out);

/* A whole file in memory ("-" is standard input): cli_load() reports its own errors on
 * stderr and returns -1; cli_unload() gives the memory back. */
struct cli_file {
	unsigned char *data;
	size_t size;
	int mapped;
};
int cli_load(const char *path, struct cli_file *file);
void cli_unload(struct cli_file *file);
/* A buffer for read()ing fd's bytes, up to max at a time (file.c). */
void *cli_read_buffer(int fd, size_t max, size_t *size);
void cli_read_buffer_free(void *p, size_t size);

/* The commands of their own files. */
int cmd_show_index(int argc, char **argv);
int cmd_check_listing(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_verify_pack(int argc, char **argv);
int cmd_pre_receive(int argc, char **argv);
int cmd_update(int argc, char **argv);
int cmd_repair(int argc, char **argv);
int cmd_hooks(int argc, char **argv); /* hexoid hook (hook.c) */

/* The repositories a command is given (audit.c): its arguments, then the lines of
 * --from (a file, '-': stdin; blank lines skipped), read as they are needed so that a
 * list piped in is taken as it comes; threads may take from it at once. */
struct repo_list {
	pthread_mutex_t lock;
	char **args;
	size_t nargs, next;
	const char *from_name;
	FILE *from;               /* until its end */
	FILE *from_file;          /* to close */
	char *line;
	size_t linecap;
	const char *failed;       /* why the list could not be read to its end */
	size_t taken;             /* repositories taken so far */
	const int *stop;          /* nonzero: hand out no more (NULL: never) */
};
/* 0, or -1 (errno set) when --from cannot be opened; repo_list_end() either way. */
int repo_list_init(struct repo_list *l, char **args, size_t nargs, const char *from_name);
/* The next repository (to free), or NULL at the end (or when failed or *stop is set). */
char *repo_list_next(struct repo_list *l);
void repo_list_end(struct repo_list *l);

/* getopt_long entries several commands take, each returning its short form's letter,
 * and the end of a table. */
#define CLI_OPT_HELP { "help", no_argument, NULL, 'h' }
#define CLI_OPT_JSON { "json", no_argument, NULL, 'J' }
#define CLI_OPT_JOBS { "jobs", required_argument, NULL, 'j' }
#define CLI_OPT_OBJECT_FORMAT { "object-format", required_argument, NULL, 'O' }
#define CLI_OPT_END { NULL, 0, NULL, 0 }

/* An object format, "sha1" or "sha256" (or "auto", 0, when allow_auto): 0, or -1 if `s`
 * is none of them. */
int parse_algo(const char *s, enum hexoid_algo *algo, int allow_auto);

/* A decimal count for an option (no sign, no junk): 0, or -1 if `s` is not one. */
int parse_count(const char *s, unsigned long *out);
/* --jobs and hexoid.jobs: a count from 1 to 256; 0, or -1 for anything else. */
int parse_jobs(const char *s, unsigned long *jobs);

/* A growing buffer of text (always NUL-terminated once written to); oom is set, and
 * further writes ignored, when memory runs out. */
struct sbuf {
	char *p;
	size_t len, cap;
	int oom;
};
void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_puts(struct sbuf *b, const char *s);
/* A JSON string for s (null for NULL). */
void sb_json_string(struct sbuf *b, const char *s);
/* A JSON line's opening of one repository's commands (audit, repair, hook):
 * {"schema": 1, "type": "<type>", "repository": <repo>, "repo": <repo>, with no comma
 * after it. "repo" is the key every command's lines share (pre-receive's have it alone);
 * "repository" stays, as schema 1 only adds keys. */
void sb_json_head(struct sbuf *b, const char *type, const char *repo);
void sb_free(struct sbuf *b);

/* The name to show for a path in messages. */
const char *display_name(const char *path);

/* An audit finding as the audit shows it: a text line (with its newline), or the fields
 * of its JSON object after "{" (type_key: "type" in --json, "object_type" in lines). */
struct hexoid_audit_finding;
void audit_finding_text(struct sbuf *b, const struct hexoid_audit_finding *f);
void audit_finding_json(struct sbuf *b, const struct hexoid_audit_finding *f,
			const char *type_key);

#endif
