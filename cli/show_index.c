/*
 * hexoid show-index: print a pack index as `git show-index` does, byte for byte —
 * "<offset> <id> (<crc32>)" per object for version 2, "<offset> <id>" for version 1 —
 * after checking the whole index (git's command checks only the fanout's order).
 *
 * The file is mapped (or read whole from a pipe) and checked by hexoid_idx_open(). Lines
 * are made a block at a time: the block's IDs and CRC32s are encoded into scratch
 * buffers with the SIMD kernels and its offsets read in one call, then each line is put
 * together with fixed-size copies, and the block goes out in one write.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hexoid_idx.h"

static const char usage_show_index[] =
	"usage: hexoid show-index [--object-format=sha1|sha256] [IDX]\n"
	"\n"
	"Check the pack index IDX (or stdin, or '-') and print one line per object, exactly\n"
	"as 'git show-index' does: '<offset> <id> (<crc32>)' for a version 2 index,\n"
	"'<offset> <id>' for version 1.\n"
	"\n"
	"  --object-format=FORMAT  sha1 or sha256; by default the format is inferred from\n"
	"                          the file's size\n"
	"\n"
	"A damaged index (truncated, bad header or fanout, IDs out of order, 64-bit offset\n"
	"out of range) is reported with its byte offset, and nothing is printed. Another\n"
	"kind of file (a .pack, .rev, commit-graph, .git/index, a bundle, text) is named.\n"
	"Exit status: 0 done, 2 usage or I/O error or unusable index.\n";

/* Lines per block: the scratch hex and the output stay in L2 (~128 KiB + 8 KiB * 100). */
#define BLOCK 2048
/* The longest line: 20 decimal digits, ' ', 64 hex digits, " (xxxxxxxx)", '\n'. */
#define MAX_LINE (20 + 1 + HEXOID_MAX_HEXSZ + 11 + 1)

/* "00" .. "99": decimal offsets go two digits per division, the slow step per line;
 * and 10^k, to count an offset's digits with comparisons rather than divisions. */
static char digit_pairs[200];
static uint64_t pow10[20];

static void init_decimal(void)
{
	for (int i = 0; i < 100; i++) {
		digit_pairs[2 * i] = (char)('0' + i / 10);
		digit_pairs[2 * i + 1] = (char)('0' + i % 10);
	}
	pow10[0] = 1;
	for (int i = 1; i < 20; i++)
		pow10[i] = pow10[i - 1] * 10;
}

/* Decimal digits of v at p, as printf's %u would write them; returns the end. Counting
 * the digits first lets them be written in place, back to front, with no copy. */
static char *put_u64(char *p, uint64_t v)
{
	size_t len = 1;
	while (len < 20 && v >= pow10[len])
		len++;
	char *end = p + len, *q = end;
	while (v >= 100) {
		q -= 2;
		memcpy(q, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(q - 2, digit_pairs + 2 * v, 2);
	else
		q[-1] = (char)('0' + v);
	return end;
}

static int print_index(const struct hexoid_idx *idx, FILE *out)
{
	size_t n = hexoid_idx_count(idx);
	size_t hexsz = hexoid_hexsz(hexoid_idx_algo(idx));
	int crc = hexoid_idx_has_crc32(idx);
	char *hex = malloc(BLOCK * HEXOID_MAX_HEXSZ), *text = malloc(BLOCK * MAX_LINE);
	char *crc_hex = malloc(BLOCK * 8);
	uint64_t *offs = malloc(BLOCK * sizeof(*offs));
	int rc = EXIT_VALID;
	if (!hex || !text || !crc_hex || !offs) {
		fprintf(stderr, "hexoid: out of memory\n");
		rc = EXIT_TROUBLE;
		goto done;
	}
	init_decimal();
	for (size_t first = 0; first < n; first += BLOCK) {
		/* The block's IDs, offsets and CRC32s in bulk, then the lines from them. */
		size_t k = hexoid_idx_encode(idx, first, BLOCK, hex, hexsz);
		hexoid_idx_offsets(idx, first, k, offs);
		if (crc)
			hexoid_idx_crc32_hex(idx, first, k, crc_hex);
		char *p = text;
		for (size_t j = 0; j < k; j++) {
			p = put_u64(p, offs[j]);
			*p++ = ' ';
			/* Constant sizes: the compiler copies with a few vector moves. */
			if (hexsz == 40)
				memcpy(p, hex + j * 40, 40);
			else
				memcpy(p, hex + j * HEXOID_MAX_HEXSZ, HEXOID_MAX_HEXSZ);
			p += hexsz;
			if (crc) {
				memcpy(p, " (", 2);
				memcpy(p + 2, crc_hex + 8 * j, 8);
				p[10] = ')';
				p += 11;
			}
			*p++ = '\n';
		}
		if (fwrite(text, 1, (size_t)(p - text), out) != (size_t)(p - text)) {
			fprintf(stderr, "hexoid: writing output: %s\n", strerror(errno));
			rc = EXIT_TROUBLE;
			goto done;
		}
	}
	if (fflush(out)) {
		fprintf(stderr, "hexoid: writing output: %s\n", strerror(errno));
		rc = EXIT_TROUBLE;
	}
done:
	free(hex);
	free(text);
	free(crc_hex);
	free(offs);
	return rc;
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "hexoid: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage_show_index);
	return EXIT_TROUBLE;
}

int cmd_show_index(int argc, char **argv)
{
	enum hexoid_algo algo = 0;
	const char *path = NULL;
	int options_done = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *fmt = NULL;
		if (!options_done && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
			fputs(usage_show_index, stdout);
			return EXIT_VALID;
		}
		if (!options_done && !strcmp(a, "--")) {
			options_done = 1;
			continue;
		}
		/* Both spellings git's option parser takes. */
		if (!options_done && !strncmp(a, "--object-format=", 16)) {
			fmt = a + 16;
		} else if (!options_done && !strcmp(a, "--object-format")) {
			if (++i == argc)
				return usage_error("%s needs a value", a);
			fmt = argv[i];
		} else if (!options_done && a[0] == '-' && a[1]) {
			return usage_error("unknown option '%s'", a);
		} else if (path) {
			return usage_error("more than one index: '%s'", a);
		} else {
			path = a;
			continue;
		}
		if (!strcmp(fmt, "sha1"))
			algo = HEXOID_SHA1;
		else if (!strcmp(fmt, "sha256"))
			algo = HEXOID_SHA256;
		else
			return usage_error("unknown --object-format '%s' (sha1 or sha256)", fmt);
	}
	if (!path)
		path = "-";

	struct cli_file in;
	if (cli_load(path, &in))
		return EXIT_TROUBLE;
	struct hexoid_idx idx;
	struct hexoid_idx_error err;
	int rc;
	if (hexoid_idx_open(&idx, in.data, in.size, algo, &err) != HEXOID_IDX_OK) {
		fprintf(stderr, "%s: error: %s%s\n", display_name(path), err.message,
			err.status == HEXOID_IDX_EAMBIGUOUS ? " (--object-format=sha1|sha256)"
							    : "");
		rc = EXIT_TROUBLE;
	} else {
		rc = print_index(&idx, stdout);
	}
	cli_unload(&in);
	return rc;
}
