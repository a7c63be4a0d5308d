/*
 * verify and decode: a file's bytes go to the listing checker 128 KiB at a time; problems
 * come back as FILE:LINE:COL: error: reports, good IDs as raw bytes for decode.
 *
 * Files and pipes alike are read() into one buffer that stays in the core's L2 cache
 * while the checker reads it back, its pages mapped at once (cli_read_buffer). Mapping
 * regular files instead was measured slower on every format but one: each page of a
 * mapping costs a fault on first touch, which a virtual machine makes dearer (even with
 * MAP_POPULATE, counting a 57 MB file's newlines took 2.7 times the CPU time), while
 * read() copies from the page cache through the kernel's own large pages (and 128 KiB
 * pieces beat 1 MiB ones, which spill from L2).
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define READ_SIZE (128u << 10) /* a piece read and fed to the checker */
#define BUF_SIZE (1u << 20)    /* decode's raw IDs, written out when this much waits */

struct run {
	const char *name;
	const struct lines_options *opt;
	struct lines_totals *tot;
	unsigned char *out; /* decode: raw IDs waiting to be written */
	size_t outlen;
	int trouble; /* this file: a reason to exit 2 */
};

const char *display_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

/* As every JSON string the command writes (sb_json_string). */
void verify_json_string(FILE *out, const char *s)
{
	struct sbuf b = { 0 };

	sb_json_string(&b, s);
	if (b.oom)
		fputs("null", out);
	else
		fwrite(b.p, 1, b.len, out);
	sb_free(&b);
}

void verify_json_error(const char *file, const char *message)
{
	fputs("{\"schema\": 1, \"type\": \"error\", \"file\": ", stdout);
	verify_json_string(stdout, file);
	fputs(", \"message\": ", stdout);
	verify_json_string(stdout, message);
	fputs("}\n", stdout);
	fflush(stdout);
}

/* A reason to exit 2: on stderr, and with --json as an "error" object too. */
static void trouble(struct run *r, const char *fmt, const char *arg)
{
	char msg[512];
	snprintf(msg, sizeof(msg), fmt, arg);
	fprintf(stderr, "hexoid: %s\n", msg);
	if (r->opt->json)
		verify_json_error(r->name, msg);
	r->tot->trouble = 1;
	r->trouble = 1;
}

static int on_problem(void *ctx, const struct hexoid_problem *p)
{
	struct run *r = ctx;
	if (p->code == HEXOID_CODE_UNKNOWN_FORMAT) {
		/* Not a problem of the listing: nothing was checked. */
		char why[512];
		snprintf(why, sizeof(why), "%s: %s", r->name, p->message);
		trouble(r, "%s", why);
		return 1;
	}
	if (r->opt->json) {
		printf("{\"schema\": 1, \"type\": \"problem\", \"file\": ");
		verify_json_string(stdout, r->name);
		printf(", \"line\": %llu, \"column\": %zu, \"code\": ", p->line, p->column);
		verify_json_string(stdout, hexoid_code_name(p->code));
		fputs(", \"class\": ", stdout);
		verify_json_string(stdout, hexoid_finding_class_name(hexoid_code_class(p->code)));
		fputs(", \"message\": ", stdout);
		verify_json_string(stdout, p->message);
		fputs("}\n", stdout);
		fflush(stdout);
	} else {
		fprintf(stderr, "%s:%llu:%zu: error: %s\n", r->name, p->line, p->column,
			p->message);
	}
	r->tot->reports++;
	if (r->opt->max_errors && r->tot->reports >= r->opt->max_errors) {
		r->tot->stopped = 1;
		return 1;
	}
	return 0;
}

static int flush_out(struct run *r)
{
	if (r->outlen && fwrite(r->out, 1, r->outlen, r->opt->binary_out) != r->outlen) {
		trouble(r, "writing output: %s", strerror(errno));
		r->outlen = 0;
		return 1;
	}
	r->outlen = 0;
	return 0;
}

static int on_oid(void *ctx, unsigned long long line, size_t column, const unsigned char *raw,
		  size_t rawsz)
{
	struct run *r = ctx;
	(void)line;
	(void)column;
	if (r->outlen + rawsz > BUF_SIZE && flush_out(r))
		return 1;
	memcpy(r->out + r->outlen, raw, rawsz);
	r->outlen += rawsz;
	return 0;
}

/* One piece for the checker; nonzero when the run must stop. */
static int feed(struct run *r, struct hexoid_listing *l, const char *buf, size_t len)
{
	if (hexoid_listing_feed(l, buf, len))
		return 1;
	return r->opt->binary_out && flush_out(r);
}

void lines_run(const char *path, const struct lines_options *opt, struct lines_totals *tot)
{
	struct run r = { display_name(path), opt, tot, NULL, 0, 0 };
	char why[256];
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : STDIN_FILENO;
	tot->files++;
	if (fd < 0) {
		snprintf(why, sizeof(why), "%s: %s", path, strerror(errno));
		trouble(&r, "%s", why);
		tot->not_checked++;
		return;
	}
	unsigned long long bad_before = tot->bad;
	size_t bufsz = 0;
	char *buf = cli_read_buffer(fd, READ_SIZE, &bufsz);
	r.out = opt->binary_out ? malloc(BUF_SIZE) : NULL;
	struct hexoid_listing *l =
		hexoid_listing_new(opt->format, opt->algo, opt->kind, on_problem,
				   opt->binary_out ? on_oid : NULL, &r);
	if (!buf || !l || (opt->binary_out && !r.out)) {
		trouble(&r, "%s", "out of memory");
		goto done;
	}
	for (;;) {
		ssize_t got = read(fd, buf, bufsz);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(why, sizeof(why), "%s: %s", r.name, strerror(errno));
			trouble(&r, "%s", why);
			break;
		}
		if (got == 0) {
			hexoid_listing_finish(l);
			break;
		}
		if (feed(&r, l, buf, (size_t)got))
			break;
	}
	if (opt->binary_out)
		flush_out(&r);
	struct hexoid_listing_stats st;
	hexoid_listing_stats(l, &st);
	tot->lines += st.lines;
	tot->bad += st.bad_lines;
	if (opt->json) {
		printf("{\"schema\": 1, \"type\": \"summary\", \"file\": ");
		verify_json_string(stdout, r.name);
		printf(", \"format\": \"%s\", \"object_format\": ", hexoid_format_name(st.format));
		verify_json_string(stdout, st.algo == HEXOID_SHA256 ? "sha256" : st.algo ? "sha1" : NULL);
		printf(", \"lines\": %llu, \"oids\": %llu, \"bad_lines\": %llu, \"problems\": %llu, "
		       "\"exit\": %d}\n",
		       st.lines, st.oids, st.bad_lines, st.problems,
		       r.trouble ? EXIT_TROUBLE
		       : st.bad_lines			 ? EXIT_INVALID
							 : EXIT_VALID);
		fflush(stdout);
	}
done:
	if (r.trouble)
		tot->not_checked++;
	else if (tot->bad != bad_before)
		tot->with_problems++;
	else
		tot->clean++;
	hexoid_listing_free(l);
	cli_read_buffer_free(buf, bufsz);
	free(r.out);
	if (fd != STDIN_FILENO)
		close(fd);
}
