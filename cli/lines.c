/*
 * Lines of bare object IDs (pack-objects output, .git/shallow, loose refs,
 * commit-graph-chain): verify and decode them in bulk.
 *
 * The fast path takes the longest run of lines that look like "<hexsz bytes>\n" (only
 * the newline positions are checked) and hands the whole run to hexoid_decode() with a
 * stride of hexsz + 1. The engine rejects any byte that is not a digit, newlines and NULs
 * included, so a run it accepts is exactly a run of valid lines. The first line it
 * rejects, and any line the fast path cannot take, goes to the slow path, which says
 * precisely what is wrong with it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Bounded memory: the input buffer, and the output for the lines it can hold. */
#define BUF_SIZE (1u << 20)

struct reader {
	const char *name;
	const struct lines_options *opt;
	struct lines_totals *tot;
	enum hexoid_algo algo;
	size_t hexsz, rawsz;
	unsigned long long lineno; /* of the next line to process, 1-based */
	unsigned char *out;        /* decode output buffer */
	size_t outlen, outcap;
};

const char *display_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

static int stop_now(const struct reader *r)
{
	return r->opt->max_errors && r->tot->bad >= r->opt->max_errors;
}

static void report(struct reader *r, unsigned long long line, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void report(struct reader *r, unsigned long long line, size_t col, const char *fmt, ...)
{
	va_list ap;
	r->tot->bad++;
	fprintf(stderr, "%s:%llu:%zu: error: ", r->name, line, col);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const char *algo_name(enum hexoid_algo algo)
{
	return algo == HEXOID_SHA256 ? "sha256" : "sha1";
}

static void set_algo(struct reader *r, enum hexoid_algo algo)
{
	r->algo = algo;
	r->hexsz = hexoid_hexsz(algo);
	r->rawsz = hexoid_rawsz(algo);
}

static int flush_out(struct reader *r)
{
	if (r->outlen && fwrite(r->out, 1, r->outlen, r->opt->binary_out) != r->outlen) {
		fprintf(stderr, "hexoid: writing output: %s\n", strerror(errno));
		r->tot->trouble = 1;
		r->outlen = 0;
		return -1;
	}
	r->outlen = 0;
	return 0;
}

/* Room for k more records in the output buffer (flushing first if needed). */
static unsigned char *out_room(struct reader *r, size_t k)
{
	if (!r->opt->binary_out)
		return NULL;
	if (r->outlen + k * r->rawsz > r->outcap)
		flush_out(r);
	return r->out + r->outlen;
}

/* Describe the first bad byte of a line, or return 0 if its first n bytes are fine. */
static int bad_byte(struct reader *r, const char *line, size_t len, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)line[i];
		int lower = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
		int upper = c >= 'A' && c <= 'F';
		if (lower || (upper && r->opt->kind == HEXOID_MIXED))
			continue;
		if (upper)
			report(r, r->lineno, i + 1,
			       "uppercase hex digit '%c' in object ID: Git 3.0 accepts only "
			       "lowercase (--mixed allows it)",
			       c);
		else if (c == '\r' && i + 1 == len)
			report(r, r->lineno, i + 1,
			       "carriage return before end of line (CRLF line ending)");
		else if (c == '\0')
			report(r, r->lineno, i + 1, "NUL byte in line");
		else if (c > ' ' && c < 0x7f)
			report(r, r->lineno, i + 1, "invalid hex digit '%c' in object ID", c);
		else
			report(r, r->lineno, i + 1, "invalid byte 0x%02x in object ID", c);
		return 1;
	}
	return 0;
}

/*
 * The careful path for one line (without its newline): find what is wrong, report it,
 * or decode it if nothing is. `cut` says the line went on past what we hold.
 */
static void slow_line(struct reader *r, const char *line, size_t len, int cut)
{
	if (!r->hexsz) {
		size_t core = len && line[len - 1] == '\r' ? len - 1 : len;
		if (!cut && core == 40)
			set_algo(r, HEXOID_SHA1);
		else if (!cut && core == 64)
			set_algo(r, HEXOID_SHA256);
		else if (len == 0)
			report(r, r->lineno, 1, "empty line");
		else
			report(r, r->lineno, 1,
			       "cannot tell the object format: line has %s%zu bytes, expected 40 "
			       "(sha1) or 64 (sha256) hex digits",
			       cut ? "more than " : "", len);
		if (!r->hexsz)
			return;
	}
	size_t hexsz = r->hexsz;
	if (bad_byte(r, line, len, len < hexsz ? len : hexsz))
		return;
	if (len == 0) {
		report(r, r->lineno, 1, "empty line");
	} else if (len < hexsz) {
		report(r, r->lineno, len + 1,
		       "object ID too short: %zu hex digits, expected %zu (%s)", len, hexsz,
		       algo_name(r->algo));
	} else if (len > hexsz) {
		unsigned char c = (unsigned char)line[hexsz];
		if (c == '\r' && len == hexsz + 1)
			report(r, r->lineno, hexsz + 1,
			       "carriage return before end of line (CRLF line ending)");
		else if (c == '\0')
			report(r, r->lineno, hexsz + 1, "NUL byte in line");
		else
			report(r, r->lineno, hexsz + 1,
			       "line too long: %s%zu bytes, a %s object ID has %zu hex digits",
			       cut ? "more than " : "", len, algo_name(r->algo), hexsz);
	} else {
		unsigned char *o = out_room(r, 1);
		hexoid_decode(o, line, 1, hexsz, r->algo, r->opt->kind, NULL);
		if (o)
			r->outlen += r->rawsz;
	}
}

/*
 * Process the lines in buf[0, end): each ends with '\n', except the last one of a file
 * that does not end with a newline.
 */
static void process(struct reader *r, const char *buf, size_t end)
{
	size_t p = 0;
	while (p < end && !stop_now(r)) {
		if (r->hexsz) {
			size_t rec = r->hexsz + 1, k = 0;
			while (p + (k + 1) * rec <= end && buf[p + k * rec + r->hexsz] == '\n')
				k++;
			if (k) {
				struct hexoid_error err;
				unsigned char *o = out_room(r, k);
				enum hexoid_status st =
					hexoid_decode(o, buf + p, k, rec, r->algo, r->opt->kind, &err);
				size_t good = st == HEXOID_OK ? k : err.record;
				if (o)
					r->outlen += good * r->rawsz;
				r->lineno += good;
				p += good * rec;
				if (st == HEXOID_OK)
					continue;
			}
		}
		const char *nl = memchr(buf + p, '\n', end - p);
		size_t len = nl ? (size_t)(nl - (buf + p)) : end - p;
		slow_line(r, buf + p, len, 0);
		r->lineno++;
		p += len + 1;
	}
}

void lines_run(const char *path, const struct lines_options *opt, struct lines_totals *tot)
{
	struct reader r = { display_name(path), opt, tot, 0, 0, 0, 1, NULL, 0, 0 };
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : STDIN_FILENO;
	if (fd < 0) {
		fprintf(stderr, "hexoid: %s: %s\n", path, strerror(errno));
		tot->trouble = 1;
		return;
	}
	if (opt->algo)
		set_algo(&r, opt->algo);
	char *buf = malloc(BUF_SIZE);
	/* Enough for every line the buffer can hold, at the shortest line (41 bytes + 1). */
	r.outcap = (BUF_SIZE / 41 + 1) * 32;
	r.out = opt->binary_out ? malloc(r.outcap) : NULL;
	if (!buf || (opt->binary_out && !r.out)) {
		fprintf(stderr, "hexoid: out of memory\n");
		tot->trouble = 1;
		goto done;
	}

	size_t len = 0;   /* bytes held in buf */
	int skipping = 0; /* inside an over-long line already reported */
	for (;;) {
		ssize_t got = read(fd, buf + len, BUF_SIZE - len);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "hexoid: %s: %s\n", r.name, strerror(errno));
			tot->trouble = 1;
			break;
		}
		len += (size_t)got;
		if (got == 0) { /* end of file: a last line without LF is fine */
			if (len && !skipping && !stop_now(&r))
				process(&r, buf, len);
			else if (skipping)
				r.lineno++;
			break;
		}
		/* Everything up to the last newline is whole lines. */
		char *last = NULL;
		for (size_t i = len; i-- > 0;)
			if (buf[i] == '\n') {
				last = buf + i;
				break;
			}
		if (skipping) {
			char *nl = memchr(buf, '\n', len);
			if (!nl) {
				len = 0;
				continue;
			}
			skipping = 0;
			r.lineno++;
			size_t rest = len - (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, rest);
			len = rest;
			continue;
		}
		if (!last) {
			if (len < BUF_SIZE)
				continue;
			/* A line longer than the buffer: report it once, skip to its end. */
			slow_line(&r, buf, len, 1);
			skipping = 1;
			len = 0;
			continue;
		}
		size_t whole = (size_t)(last + 1 - buf);
		process(&r, buf, whole);
		if (opt->binary_out)
			flush_out(&r);
		if (stop_now(&r))
			break;
		memmove(buf, buf + whole, len - whole);
		len -= whole;
	}
	if (opt->binary_out)
		flush_out(&r);
	tot->lines += r.lineno - 1;
	if (stop_now(&r))
		tot->stopped = 1;
done:
	free(buf);
	free(r.out);
	if (fd != STDIN_FILENO)
		close(fd);
}
