/*
 * The helpers the audit shares with the rest of the library (src/util/): the sorted
 * listing of a folder and its filters, the safe reading of a whole file, and the string
 * helpers.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "util/dir.h"
#include "util/file.h"
#include "util/str.h"

/* A scratch folder: files b, a, .hidden, big (10,000 bytes), a folder d, a link l to
 * it, a link f to a, a link gone to nothing and a FIFO p. */
static char dir[64];

static int put(const char *name, const char *data, size_t size)
{
	char *path = hexoid_join(dir, name);
	int fd = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1, ok;

	free(path);
	if (fd < 0)
		return -1;
	ok = write(fd, data, size) == (ssize_t)size;
	close(fd);
	return ok ? 0 : -1;
}

static int at(int (*fn)(const char *, const char *), const char *target, const char *name)
{
	char *path = hexoid_join(dir, name);
	int rc = path ? fn(target, path) : -1;

	free(path);
	return rc;
}

static int mkfifo_at(const char *unused, const char *path)
{
	(void)unused;
	return mkfifo(path, 0644);
}

static int mkdir_at(const char *unused, const char *path)
{
	(void)unused;
	return mkdir(path, 0755);
}

static void remove_all(void)
{
	static const char *const names[] = { "a", "b", ".hidden", "big", "l", "f", "gone", "p",
					     "d" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(*names); i++) {
		char *path = hexoid_join(dir, names[i]);
		if (path && unlink(path) < 0)
			rmdir(path);
		free(path);
	}
	rmdir(dir);
}

static int make_dir(void)
{
	static char big[10000];

	snprintf(dir, sizeof(dir), "/tmp/hexoid-util-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	memset(big, 'x', sizeof(big));
	if (put("b", "bee\n", 4) || put("a", "a line\nanother", 14) || put(".hidden", "", 0) ||
	    put("big", big, sizeof(big)) || at(mkdir_at, NULL, "d") || at(symlink, "d", "l") ||
	    at(symlink, "a", "f") || at(symlink, "nowhere", "gone") || at(mkfifo_at, NULL, "p")) {
		remove_all();
		return -1;
	}
	return 0;
}

static int not_hidden(const char *name, void *ctx)
{
	(void)ctx;
	return name[0] != '.';
}

static int same(const struct hexoid_names *got, const char *want)
{
	char all[256] = "";
	size_t i;

	for (i = 0; i < got->n; i++) {
		strcat(all, got->v[i]);
		strcat(all, i + 1 < got->n ? " " : "");
	}
	if (strcmp(all, want))
		fprintf(stderr, "#   got '%s', want '%s'\n", all, want);
	return !strcmp(all, want);
}

TEST(audit_util_dir_names)
{
	struct hexoid_names names;

	if (make_dir()) {
		CHECK(0, "cannot make the scratch folder");
		return;
	}
	CHECK(hexoid_dir_names(dir, HEXOID_DIR_ANY, NULL, NULL, &names) == 0 &&
		      same(&names, ".hidden a b big d f gone l p"),
	      "every entry, sorted");
	hexoid_names_free(&names);
	CHECK(names.n == 0 && !names.v, "freed names are empty");
	CHECK(hexoid_dir_names(dir, HEXOID_DIR_ANY, not_hidden, NULL, &names) == 0 &&
		      same(&names, "a b big d f gone l p"),
	      "the ones the filter keeps");
	hexoid_names_free(&names);
	CHECK(hexoid_dir_names(dir, HEXOID_DIR_FOLDERS, NULL, NULL, &names) == 0 &&
		      same(&names, "d l"),
	      "folders, and links to folders");
	hexoid_names_free(&names);
	CHECK(hexoid_dir_names(dir, HEXOID_DIR_FILES, not_hidden, NULL, &names) == 0 &&
		      same(&names, "a b big f"),
	      "regular files, and links to them");
	hexoid_names_free(&names);
	errno = 0;
	CHECK(hexoid_dir_names("/nonexistent/hexoid", HEXOID_DIR_ANY, NULL, NULL, &names) == -1 &&
		      errno == ENOENT && names.n == 0 && !names.v,
	      "a missing folder: -1, ENOENT, no names");
	remove_all();
}

TEST(audit_util_file_read)
{
	struct hexoid_file f;
	int fd;

	if (make_dir()) {
		CHECK(0, "cannot make the scratch folder");
		return;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	CHECK(hexoid_file_read_at(fd, "a", 0, 0, &f) == HEXOID_FILE_OK && f.size == 14 &&
		      !memcmp(f.data, "a line\nanother", 15),
	      "a whole file, and a NUL after it");
	free(f.data);
	CHECK(hexoid_file_read_at(fd, "big", HEXOID_FILE_REGULAR, 0, &f) == HEXOID_FILE_OK &&
		      f.size == 10000 && f.data[9999] == 'x' && !f.data[10000],
	      "a file longer than the first buffer, unstat'ed");
	free(f.data);
	CHECK(hexoid_file_read_at(fd, ".hidden", 0, 0, &f) == HEXOID_FILE_OK && f.size == 0 &&
		      f.data && !f.data[0],
	      "an empty file");
	free(f.data);
	CHECK(hexoid_file_read_at(fd, "f", 0, 0, &f) == HEXOID_FILE_OK && f.size == 14,
	      "a link to a file");
	free(f.data);
	CHECK(hexoid_file_read_at(fd, "big", 0, 9999, &f) == HEXOID_FILE_TOO_BIG && !f.data,
	      "over the limit, stat'ed");
	CHECK(hexoid_file_read_at(fd, "big", HEXOID_FILE_REGULAR, 9999, &f) == HEXOID_FILE_TOO_BIG &&
		      !f.data,
	      "over the limit, read");
	CHECK(hexoid_file_read_at(fd, "big", 0, 10000, &f) == HEXOID_FILE_OK && f.size == 10000,
	      "at the limit");
	free(f.data);
	CHECK(hexoid_file_read_at(fd, "none", 0, 0, &f) == HEXOID_FILE_MISSING, "missing");
	CHECK(hexoid_file_read_at(fd, "a/b", 0, 0, &f) == HEXOID_FILE_MISSING,
	      "a file where a folder should be: missing");
	CHECK(hexoid_file_read_at(fd, "gone", 0, 0, &f) == HEXOID_FILE_BROKEN_LINK,
	      "a link to nothing");
	CHECK(hexoid_file_read_at(fd, "d", 0, 0, &f) == HEXOID_FILE_NOT_REGULAR && S_ISDIR(f.mode),
	      "a folder is not read");
	CHECK(hexoid_file_read_at(fd, "p", 0, 0, &f) == HEXOID_FILE_NOT_REGULAR && S_ISFIFO(f.mode),
	      "a FIFO is not opened");
	CHECK(hexoid_file_read_at(fd, "d", HEXOID_FILE_REGULAR, 0, &f) == HEXOID_FILE_ERROR &&
		      f.error == EISDIR && !f.data,
	      "a folder said to be a file: the read's error");
	close(fd);
	{
		char *a = hexoid_join(dir, "a"), *line = a ? hexoid_file_first_line(a) : NULL;
		CHECK(line && !strcmp(line, "a line"), "the first line");
		free(line);
		free(a);
	}
	remove_all();
}

TEST(audit_util_str)
{
	char *s = hexoid_join("a/b", "c");
	struct hexoid_lines it = { "one\ntwo\n\nfour", 13, 0, 0, '\n' };
	const char *p;
	size_t len, n = 0;
	char *names[] = { (char *)"b", (char *)"a-b", (char *)"a/b", (char *)"a" };

	CHECK(s && !strcmp(s, "a/b/c"), "join");
	free(s);
	s = hexoid_concat("wt/", "HEAD");
	CHECK(s && !strcmp(s, "wt/HEAD"), "concat");
	free(s);
	s = hexoid_concat3("a:b", ":", "");
	CHECK(s && !strcmp(s, "a:b:"), "concat3");
	free(s);
	s = hexoid_concat3("", "", "c");
	CHECK(s && !strcmp(s, "c"), "concat3, two empty");
	free(s);
	s = hexoid_resolve("/repo", "/abs");
	CHECK(s && !strcmp(s, "/abs"), "resolve: an absolute path as it is");
	free(s);
	s = hexoid_resolve("/repo", "rel");
	CHECK(s && !strcmp(s, "/repo/rel"), "resolve: a relative one from the base");
	free(s);
	CHECK(hexoid_ends_with("x.pack", ".pack") && !hexoid_ends_with("pack", ".pack"), "ends_with");
	CHECK(hexoid_all_hex("09afAF", 6) && !hexoid_all_hex("0g", 2) && hexoid_is_space('\v') &&
		      !hexoid_is_space('x'),
	      "is_hex, all_hex, is_space");
	qsort(names, 4, sizeof(*names), hexoid_cmp_str);
	CHECK(!strcmp(names[0], "a") && !strcmp(names[1], "a-b") && !strcmp(names[2], "a/b") &&
		      !strcmp(names[3], "b"),
	      "cmp_str sorts as strcmp");
	while (hexoid_next_line(&it, &p, &len)) {
		n++;
		CHECK(it.line == n, "line numbers from 1");
		CHECK(n != 3 || len == 0, "an empty line");
		CHECK(n != 4 || (len == 4 && !memcmp(p, "four", 4)), "a last line without newline");
	}
	CHECK(n == 4, "four lines, not %zu", n);
}
