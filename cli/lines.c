/*
 * verify and decode: a file's bytes go to the listing checker 1 MiB at a time; problems
 * come back as FILE:LINE:COL: error: reports, good IDs as raw bytes for decode.
 *
 * A regular file is mapped, a window at a time, and fed from the mapping: no copy into a
 * buffer. Pipes, terminals and whatever cannot be mapped are read(). Both feed the same
 * 1 MiB pieces, so what the checker sees, and so what it reports, is the same either way.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define BUF_SIZE (1u << 20) /* a piece fed to the checker, and the read() size */
/* Mapped at once: a multiple of BUF_SIZE. The window's pages count in the resident size
 * only while it is mapped, so memory stays bounded whatever the file's size. */
#define WINDOW (16u << 20)

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

/* One piece for the checker; nonzero when the run must stop. */
static int feed(struct run *r, struct hexoid_listing *l, const char *buf, size_t len)
{
	if (hexoid_listing_feed(l, buf, len))
		return 1;
	return r->opt->binary_out && flush_out(r);
}

/*
 * The bytes of a regular file from *pos to `size` (its size when the run began), mapped a
 * window at a time. Returns nonzero when the run must stop; otherwise *pos tells how far
 * it got (short of `size` if a window could not be mapped: the caller reads the rest).
 *
 * If another process truncates the file while a window is mapped, touching the pages
 * past its new end raises SIGBUS, as for any program that maps files it reads; reading
 * only up to the size seen at the start makes that the one way to get it.
 */
static int run_mapped(int fd, off_t *pos, off_t size, struct run *r, struct hexoid_listing *l)
{
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		return 0;
	while (*pos < size) {
		/* Mappings start on a page; the piece boundaries stay where read() has them. */
		off_t start = *pos - *pos % page;
		size_t skip = (size_t)(*pos - start);
		size_t len = size - start < (off_t)(skip + WINDOW) ? (size_t)(size - start)
								    : skip + WINDOW;
		char *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, start);
		if (map == MAP_FAILED)
			return 0;
		madvise(map, len, MADV_SEQUENTIAL);
		int stop = 0;
		for (size_t at = skip; at < len && !stop; at += BUF_SIZE)
			stop = feed(r, l, map + at, len - at < BUF_SIZE ? len - at : BUF_SIZE);
		munmap(map, len);
		if (stop)
			return 1;
		*pos = start + (off_t)len;
	}
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
	struct stat fs;
	off_t pos = 0;
	if (!fstat(fd, &fs) && S_ISREG(fs.st_mode) && (pos = lseek(fd, 0, SEEK_CUR)) >= 0 &&
	    pos < fs.st_size) {
		if (run_mapped(fd, &pos, fs.st_size, &r, l))
			goto stopped;
		/* Whatever is left (a window that could not be mapped, or bytes added
		 * since) is read from there. */
		if (lseek(fd, pos, SEEK_SET) < 0) {
			fprintf(stderr, "hexoid: %s: %s\n", r.name, strerror(errno));
			tot->trouble = 1;
			goto stopped;
		}
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
		if (feed(&r, l, buf, (size_t)got))
			break;
	}
stopped:
	if (opt->binary_out)
		flush_out(&r);
	struct hexoid_listing_stats st;
	hexoid_listing_stats(l, &st);
	tot->lines += st.lines;
	tot->bad += st.bad_lines;
done:
	hexoid_listing_free(l);
	free(buf);
	free(r.out);
	if (fd != STDIN_FILENO)
		close(fd);
}
