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

/*
 * A buffer for read() of at most `max` bytes from fd, its pages in place: the first read
 * of a file that fills it writes every one, and a page first touched costs a fault each
 * (about 10 µs apiece on the virtual machines of bench/results, where mapping the 32
 * pages of 128 KiB at once with MAP_POPULATE costs about 30 µs in all). A regular file
 * shorter than `max` gets a buffer of its own size and a byte more, rounded up to a page
 * (so that the read which finds its end has room): its few pages, not all of them.
 * *size is set to the buffer's size; cli_read_buffer_free() frees it.
 */
void *cli_read_buffer(int fd, size_t max, size_t *size)
{
	struct stat st;
	size_t want = max;
	long page = sysconf(_SC_PAGESIZE);
	size_t pg = page > 0 ? (size_t)page : 4096;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size >= 0 &&
	    (uintmax_t)st.st_size < max)
		want = ((size_t)st.st_size + 1 + pg - 1) / pg * pg;
	if (want > max)
		want = max;
	void *p = mmap(NULL, want, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	*size = want;
	return p;
}

void cli_read_buffer_free(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}
