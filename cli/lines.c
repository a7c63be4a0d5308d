/*
 * verify and decode: a file's bytes go to the listing checker in 1 MiB reads; problems
 * come back as FILE:LINE:COL: error: reports, good IDs as raw bytes for decode.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define BUF_SIZE (1u << 20)

struct run {
	const char *name;
	const struct lines_options *opt;
	struct lines_totals *tot;
	unsigned char *out; /* decode: raw IDs waiting to be written */
	size_t outlen;
};

const char *display_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

static int on_problem(void *ctx, const struct hexoid_problem *p)
{
	struct run *r = ctx;
	fprintf(stderr, "%s:%llu:%zu: error: %s\n", r->name, p->line, p->column, p->message);
	r->tot->bad++;
	if (r->opt->max_errors && r->tot->bad >= r->opt->max_errors) {
		r->tot->stopped = 1;
		return 1;
	}
	return 0;
}

static int flush_out(struct run *r)
{
	if (r->outlen && fwrite(r->out, 1, r->outlen, r->opt->binary_out) != r->outlen) {
		fprintf(stderr, "hexoid: writing output: %s\n", strerror(errno));
		r->tot->trouble = 1;
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

void lines_run(const char *path, const struct lines_options *opt, struct lines_totals *tot)
{
	struct run r = { display_name(path), opt, tot, NULL, 0 };
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : STDIN_FILENO;
	if (fd < 0) {
		fprintf(stderr, "hexoid: %s: %s\n", path, strerror(errno));
		tot->trouble = 1;
		return;
	}
	char *buf = malloc(BUF_SIZE);
	r.out = opt->binary_out ? malloc(BUF_SIZE) : NULL;
	struct hexoid_listing *l =
		hexoid_listing_new(opt->format, opt->algo, opt->kind, on_problem,
				   opt->binary_out ? on_oid : NULL, &r);
	if (!buf || !l || (opt->binary_out && !r.out)) {
		fprintf(stderr, "hexoid: out of memory\n");
		tot->trouble = 1;
		goto done;
	}
	for (;;) {
		ssize_t got = read(fd, buf, BUF_SIZE);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			fprintf(stderr, "hexoid: %s: %s\n", r.name, strerror(errno));
			tot->trouble = 1;
			break;
		}
		if (got == 0) {
			hexoid_listing_finish(l);
			break;
		}
		if (hexoid_listing_feed(l, buf, (size_t)got))
			break;
		if (opt->binary_out && flush_out(&r))
			break;
	}
	if (opt->binary_out)
		flush_out(&r);
	struct hexoid_listing_stats st;
	hexoid_listing_stats(l, &st);
	tot->lines += st.lines;
done:
	hexoid_listing_free(l);
	free(buf);
	free(r.out);
	if (fd != STDIN_FILENO)
		close(fd);
}
