/*
 * Whole files for the commands that need all of one at once (pack indexes): mapped when
 * they are regular files, read into memory otherwise (a pipe, a terminal).
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

int cli_load(const char *path, struct cli_file *in)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : STDIN_FILENO;
	struct stat st;
	in->data = NULL;
	in->size = 0;
	in->mapped = 0;
	if (fd < 0)
		goto io_error;
	if (fstat(fd, &st))
		goto io_error;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto io_error;
	}
	/* Every page is read, so all are mapped at once (MAP_POPULATE): one call instead
	 * of a fault each 64 KiB, a tenth of show-index's time on git's pack index. */
	if (S_ISREG(st.st_mode) && st.st_size > 0 && (uintmax_t)st.st_size <= SIZE_MAX) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (m != MAP_FAILED) {
			in->data = m;
			in->size = (size_t)st.st_size;
			in->mapped = 1;
			goto done;
		}
	}
	size_t cap = 0;
	for (;;) {
		if (in->size == cap) {
			size_t ncap = cap ? cap * 2 : 1u << 16;
			unsigned char *p = ncap > cap ? realloc(in->data, ncap) : NULL;
			if (!p) {
				fprintf(stderr, "hexoid: %s: out of memory reading it\n",
					display_name(path));
				goto fail;
			}
			in->data = p;
			cap = ncap;
		}
		ssize_t got = read(fd, in->data + in->size, cap - in->size);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto io_error;
		if (got == 0)
			break;
		in->size += (size_t)got;
	}
done:
	if (fd != STDIN_FILENO)
		close(fd);
	return 0;
io_error:
	fprintf(stderr, "hexoid: %s: %s\n", display_name(path), strerror(errno));
fail:
	free(in->data);
	in->data = NULL;
	if (fd > STDIN_FILENO)
		close(fd);
	return -1;
}

void cli_unload(struct cli_file *in)
{
	if (in->mapped)
		munmap(in->data, in->size);
	else
		free(in->data);
}
