/*
 * hexoid encode: raw binary object IDs to lines of lowercase hex.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define RECORDS 32768 /* per block: bounded memory, whatever the input size */

int encode_run(const char *path, enum hexoid_algo algo, FILE *out)
{
	size_t rawsz = hexoid_rawsz(algo), hexsz = hexoid_hexsz(algo);
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : STDIN_FILENO;
	int rc = EXIT_VALID;
	if (fd < 0) {
		fprintf(stderr, "hexoid: %s: %s\n", path, strerror(errno));
		return EXIT_TROUBLE;
	}
	unsigned char *in = malloc(RECORDS * rawsz);
	char *text = malloc(RECORDS * (hexsz + 1));
	if (!in || !text) {
		fprintf(stderr, "hexoid: out of memory\n");
		rc = EXIT_TROUBLE;
		goto done;
	}
	/* The newlines stay put: the encoder writes only the hex of each record. */
	for (size_t i = 0; i < RECORDS; i++)
		text[i * (hexsz + 1) + hexsz] = '\n';

	size_t have = 0;
	unsigned long long total = 0;
	for (;;) {
		ssize_t got = read(fd, in + have, RECORDS * rawsz - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			fprintf(stderr, "hexoid: %s: %s\n", display_name(path), strerror(errno));
			rc = EXIT_TROUBLE;
			break;
		}
		have += (size_t)got;
		size_t n = have / rawsz;
		if (n && (got == 0 || have == RECORDS * rawsz)) {
			hexoid_encode(text, hexsz + 1, in, n, algo);
			if (fwrite(text, hexsz + 1, n, out) != n) {
				fprintf(stderr, "hexoid: writing output: %s\n", strerror(errno));
				rc = EXIT_TROUBLE;
				break;
			}
			total += n;
			memmove(in, in + n * rawsz, have - n * rawsz);
			have -= n * rawsz;
		}
		if (got == 0) {
			if (have) {
				fprintf(stderr,
					"%s: error: %zu trailing bytes after %llu object IDs: not a "
					"whole %zu-byte %s ID\n",
					display_name(path), have, total, rawsz,
					algo == HEXOID_SHA256 ? "sha256" : "sha1");
				rc = EXIT_INVALID;
			}
			break;
		}
	}
done:
	free(in);
	free(text);
	if (fd != STDIN_FILENO)
		close(fd);
	return rc;
}
