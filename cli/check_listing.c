/*
 * hexoid check-listing: is every object ID of a listing (pack-objects output by default)
 * in the pack index, and with --exact, is every packed object listed, once?
 *
 * The listing's IDs are decoded in bulk by the listing checker and looked up in batches
 * with the index's fanout and binary search (hexoid_idx_find_many).
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hexoid_idx.h"

static const char usage[] =
	"usage: hexoid check-listing --idx PACK.idx [--exact] [--format=FORMAT] [--mixed]\n"
	"                            [--object-format=sha1|sha256] [--max-errors=N] [LISTING...]\n"
	"\n"
	"Check that every object ID of each LISTING (or stdin) is in the pack index: the bulk\n"
	"verification of pack-objects output. Lines are checked as 'hexoid verify' checks\n"
	"them (FORMAT as there; default oids, lowercase only unless --mixed).\n"
	"\n"
	"  --idx PACK.idx        the pack index (version 1 or 2)\n"
	"  --exact               also every packed object must be listed, and none twice\n"
	"  --object-format=HASH  the index's hash (sha1 or sha256); default: from its size\n"
	"  --max-errors=N        stop after N reports (default 0: all)\n"
	"\n"
	"Reports go to stderr as FILE:LINE:COL: error: ... (or PACK.idx: error: ... for packed\n"
	"objects not listed); the last line counts them. Exit status: 0 it holds; 1 an ID is\n"
	"missing, extra, repeated or malformed; 2 usage error or unusable input (unreadable,\n"
	"or a corrupt index).\n";

#define BATCH 4096

struct check {
	const char *name; /* the listing, for reports */
	const struct hexoid_idx *idx;
	unsigned long max_errors;
	unsigned long long *errors;
	int exact;
	unsigned long long *first_line; /* --exact: the line that listed each entry, 0 if none */
	/* What the count line says. */
	unsigned long long lines, bad_lines, missing, again, unlisted;
	/* a batch of IDs waiting to be looked up */
	unsigned char raw[BATCH * HEXOID_MAX_RAWSZ];
	unsigned long long line[BATCH];
	size_t column[BATCH];
	ptrdiff_t pos[BATCH];
	size_t n, rawsz;
	int stopped;
	int unknown; /* --format=auto could not tell a listing's format: exit 2 */
};

static int counted(struct check *c)
{
	++*c->errors;
	if (c->max_errors && *c->errors >= c->max_errors)
		c->stopped = 1;
	return c->stopped;
}

static int on_problem(void *ctx, const struct hexoid_problem *p)
{
	struct check *c = ctx;
	if (p->code == HEXOID_CODE_UNKNOWN_FORMAT) {
		fprintf(stderr, "hexoid: %s: %s\n", c->name, p->message);
		c->unknown = 1;
		return 1;
	}
	fprintf(stderr, "%s:%llu:%zu: error: %s\n", c->name, p->line, p->column, p->message);
	return counted(c);
}

static void hex(char *out, const unsigned char *raw, size_t rawsz)
{
	hexoid_encode(out, 2 * rawsz, raw, 1, rawsz == 32 ? HEXOID_SHA256 : HEXOID_SHA1);
	out[2 * rawsz] = '\0';
}

static int lookup(struct check *c)
{
	char h[HEXOID_MAX_HEXSZ + 1];
	hexoid_idx_find_many(c->idx, c->raw, c->n, c->pos);
	for (size_t k = 0; k < c->n && !c->stopped; k++) {
		const unsigned char *id = c->raw + k * c->rawsz;
		if (c->pos[k] < 0) {
			hex(h, id, c->rawsz);
			fprintf(stderr, "%s:%llu:%zu: error: object %s is not in the pack\n", c->name,
				c->line[k], c->column[k], h);
			c->missing++;
			counted(c);
		} else if (c->exact) {
			unsigned long long *first = &c->first_line[c->pos[k]];
			if (*first) {
				hex(h, id, c->rawsz);
				fprintf(stderr, "%s:%llu:%zu: error: object %s listed again (first at line %llu)\n",
					c->name, c->line[k], c->column[k], h, *first);
				c->again++;
				counted(c);
			} else {
				*first = c->line[k];
			}
		}
	}
	c->n = 0;
	return c->stopped;
}

static int on_oid(void *ctx, unsigned long long line, size_t column, const unsigned char *raw,
		  size_t rawsz)
{
	struct check *c = ctx;
	if (rawsz != c->rawsz) {
		char h[HEXOID_MAX_HEXSZ + 1];
		hex(h, raw, rawsz);
		fprintf(stderr, "%s:%llu:%zu: error: object %s is %s, the index is %s\n", c->name,
			line, column, h, rawsz == 32 ? "sha256" : "sha1",
			c->rawsz == 32 ? "sha256" : "sha1");
		return counted(c);
	}
	memcpy(c->raw + c->n * rawsz, raw, rawsz);
	c->line[c->n] = line;
	c->column[c->n] = column;
	if (++c->n == BATCH)
		return lookup(c);
	return 0;
}

static void part(int *first, unsigned long long n, const char *one, const char *many)
{
	if (n)
		fprintf(stderr, "%s%llu %s", *first ? ": " : ", ", n, n == 1 ? one : many);
	if (n)
		*first = 0;
}

/* The last line, as verify's: how many errors in how many lines, and of which kind. */
static void count_line(const struct check *c, unsigned long long errors)
{
	int first = 1;
	fprintf(stderr, "hexoid: %llu error%s in %llu line%s", errors, errors == 1 ? "" : "s",
		c->lines, c->lines == 1 ? "" : "s");
	part(&first, c->bad_lines, "bad line", "bad lines");
	part(&first, c->missing, "not in the pack", "not in the pack");
	part(&first, c->again, "listed again", "listed again");
	part(&first, c->unlisted, "packed object not listed", "packed objects not listed");
	fputc('\n', stderr);
}

int cmd_check_listing(int argc, char **argv)
{
	enum { OPT_IDX = 256, OPT_EXACT, OPT_FORMAT, OPT_MIXED, OPT_MAX };
	static const struct option options[] = {
		{ "idx", required_argument, NULL, OPT_IDX },
		{ "exact", no_argument, NULL, OPT_EXACT },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "mixed", no_argument, NULL, OPT_MIXED },
		CLI_OPT_OBJECT_FORMAT,
		{ "max-errors", required_argument, NULL, OPT_MAX },
		CLI_OPT_HELP,
		CLI_OPT_END,
	};
	const char *idx_path = NULL;
	int exact = 0, opt;
	enum hexoid_format format = HEXOID_FORMAT_OIDS;
	enum hexoid_kind kind = HEXOID_LOWER;
	enum hexoid_algo algo = 0;
	unsigned long max_errors = 0;
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		switch (opt) {
		case OPT_IDX:
			idx_path = optarg;
			break;
		case OPT_EXACT:
			exact = 1;
			break;
		case OPT_FORMAT: {
			int f = hexoid_format_from_name(optarg);
			if (f < 0) {
				fprintf(stderr, "hexoid: unknown --format '%s'\n%s", optarg, usage);
				return EXIT_TROUBLE;
			}
			format = (enum hexoid_format)f;
			break;
		}
		case OPT_MIXED:
			kind = HEXOID_MIXED;
			break;
		case 'O':
			if (parse_algo(optarg, &algo, 0)) {
				fprintf(stderr, "hexoid: unknown --object-format '%s'\n%s", optarg, usage);
				return EXIT_TROUBLE;
			}
			break;
		case OPT_MAX:
			if (parse_count(optarg, &max_errors)) {
				fprintf(stderr, "hexoid: bad --max-errors '%s'\n%s", optarg, usage);
				return EXIT_TROUBLE;
			}
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_VALID;
		default:
			fprintf(stderr, "hexoid: unknown option '%s'\n%s", argv[optind - 1], usage);
			return EXIT_TROUBLE;
		}
	}
	if (!idx_path) {
		fprintf(stderr, "hexoid: check-listing needs --idx PACK.idx\n%s", usage);
		return EXIT_TROUBLE;
	}

	struct cli_file file;
	if (cli_load(idx_path, &file))
		return EXIT_TROUBLE;
	struct hexoid_idx idx;
	struct hexoid_idx_error ierr;
	if (hexoid_idx_open(&idx, file.data, file.size, algo, &ierr) != HEXOID_IDX_OK) {
		fprintf(stderr, "%s: error: %s\n", idx_path, ierr.message);
		cli_unload(&file);
		return EXIT_TROUBLE;
	}

	unsigned long long errors = 0;
	int trouble = 0;
	struct check *c = calloc(1, sizeof(*c));
	unsigned long long *first = exact ? calloc(hexoid_idx_count(&idx) + 1, sizeof(*first)) : NULL;
	if (!c || (exact && !first)) {
		fprintf(stderr, "hexoid: out of memory\n");
		trouble = 1;
		goto done;
	}
	c->idx = &idx;
	c->max_errors = max_errors;
	c->errors = &errors;
	c->exact = exact;
	c->first_line = first;
	c->rawsz = hexoid_rawsz(hexoid_idx_algo(&idx));

	size_t bufsz = 0;
	char *buf = cli_read_buffer(-1, 1u << 20, &bufsz); /* for any file: all 1 MiB */
	for (int i = optind == argc ? argc - 1 : optind; i < argc && buf && !c->stopped; i++) {
		const char *path = optind == argc ? "-" : argv[i];
		c->name = display_name(path);
		int fd = strcmp(path, "-") ? open(path, O_RDONLY) : STDIN_FILENO;
		if (fd < 0) {
			fprintf(stderr, "hexoid: %s: %s\n", path, strerror(errno));
			trouble = 1;
			continue;
		}
		struct hexoid_listing *l = hexoid_listing_new(format, hexoid_idx_algo(&idx), kind,
							      on_problem, on_oid, c);
		for (;;) {
			ssize_t got = read(fd, buf, bufsz);
			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0) {
				fprintf(stderr, "hexoid: %s: %s\n", c->name, strerror(errno));
				trouble = 1;
				break;
			}
			if (got == 0 ? hexoid_listing_finish(l) : hexoid_listing_feed(l, buf, (size_t)got))
				break;
			if (got == 0)
				break;
		}
		if (!c->stopped)
			lookup(c);
		struct hexoid_listing_stats st;
		hexoid_listing_stats(l, &st);
		c->lines += st.lines;
		c->bad_lines += st.bad_lines;
		hexoid_listing_free(l);
		if (fd != STDIN_FILENO)
			close(fd);
	}
	if (!buf) {
		fprintf(stderr, "hexoid: out of memory\n");
		trouble = 1;
	}
	cli_read_buffer_free(buf, bufsz);
	/* --exact: the packed objects no listing named. */
	for (size_t e = 0; exact && !trouble && e < hexoid_idx_count(&idx) && !c->stopped; e++)
		if (!first[e]) {
			char h[HEXOID_MAX_HEXSZ + 1];
			hex(h, hexoid_idx_id(&idx, e), c->rawsz);
			fprintf(stderr, "%s: error: object %s is in the pack but not listed\n", idx_path, h);
			c->unlisted++;
			counted(c);
		}
	trouble |= c->unknown;
	if (c->stopped)
		fprintf(stderr, "hexoid: stopped after %lu errors (--max-errors)\n", max_errors);
	if (errors)
		count_line(c, errors);
done:
	free(first);
	free(c);
	cli_unload(&file);
	return trouble ? EXIT_TROUBLE : errors ? EXIT_INVALID : EXIT_VALID;
}
