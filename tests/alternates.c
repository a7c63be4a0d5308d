/*
 * The objects/info/alternates reader (src/pack/alternates.h): files written here line by
 * line, read back as git reads them — comments, blank lines, relative paths, quoting,
 * cycles, the depth limit, directories that are not there.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pack/alternates.h"
#include "test.h"

static char root[PATH_MAX];

/* root/name, made a directory with an info/ folder. */
static const char *mkobj(const char *name)
{
	static char path[16][PATH_MAX + 64];
	static unsigned k;
	char *p = path[k++ % 16];
	char info[PATH_MAX + 80];

	snprintf(p, sizeof(path[0]), "%s/%s", root, name);
	mkdir(p, 0700);
	snprintf(info, sizeof(info), "%s/info", p);
	mkdir(info, 0700);
	return p;
}

static void put_alternates(const char *dir, const void *text, size_t len)
{
	char path[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/info/alternates", dir);
	f = fopen(path, "wb");
	CHECK(f != NULL, "%s: cannot write", path);
	if (!f)
		return;
	fwrite(text, 1, len, f);
	fclose(f);
}

static void put_text(const char *dir, const char *text)
{
	put_alternates(dir, text, strlen(text));
}

/* The list's entry i names root/name (resolved), at depth, without error. */
static void expect_dir(const char *what, const struct hexoid_alternates *l, size_t i,
		       const char *name, unsigned depth)
{
	char want[PATH_MAX + 64];

	snprintf(want, sizeof(want), "%s/%s", root, name);
	CHECK(i < l->n, "%s: %zu entries, no entry %zu (%s)", what, l->n, i, name);
	if (i >= l->n)
		return;
	CHECK(!strcmp(l->v[i].path, want) && l->v[i].depth == depth && !l->v[i].error &&
		      !l->v[i].file,
	      "%s: entry %zu is %s at depth %u (error %d, file %d), not %s at depth %u", what, i,
	      l->v[i].path, l->v[i].depth, l->v[i].error, l->v[i].file, want, depth);
}

static void reset(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0, "rm -rf");
	CHECK(mkdir(root, 0700) == 0, "mkdir %s", root);
}

static int start(void)
{
	char tmp[] = "/tmp/hexoid-alt-XXXXXX";

	if (!mkdtemp(tmp))
		return -1;
	/* resolved, as the reader gives its directories */
	if (!realpath(tmp, root))
		return -1;
	return 0;
}

static void finish(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		test_fail(__FILE__, __LINE__, "rm -rf %s", root);
}

static int read_alts(const char *dir, struct hexoid_alternates *l)
{
	char err[256];
	int rc;

	memset(l, 0, sizeof(*l));
	err[0] = 0;
	rc = hexoid_alternates_read(dir, NULL, 0, l, err, sizeof(err));
	CHECK(rc == 0, "%s: %s", dir, err);
	return rc;
}

TEST(alternates_lines)
{
	struct hexoid_alternates l;
	const char *a, *b;
	char text[3 * PATH_MAX];

	CHECK(start() == 0, "mkdtemp");
	a = mkobj("a");
	mkobj("b");
	mkobj("c");
	mkobj("d");
	mkobj("tab\there");
	mkobj("q\"uote");
	mkobj("oct\001al");
	mkobj("a/\"broken");
	mkobj("crlf");
	mkobj("crlf\r");
	/* comments, blank lines, relative and absolute paths, CR LF (the CR is the path's,
	 * as git takes it), quoting (good and broken: taken as written), a repeat, and
	 * nothing read past a NUL */
	snprintf(text, sizeof(text),
		 "# a comment\n"
		 "\n"
		 "../b\n"
		 "%s/c\n"
		 "../crlf\r\n"
		 "\"../tab\\there\"\n"
		 "\"../q\\\"uote\"\n"
		 "\"../oct\\001al\"\n"
		 "\"%s/d\"\n"
		 "\"broken\n"
		 "../b\n"
		 "  # not a comment: a path that is not there\n",
		 root, root);
	put_alternates(a, text, strlen(text) + 1);
	/* what follows the NUL is not read */
	{
		char path[PATH_MAX + 32];
		FILE *f;
		snprintf(path, sizeof(path), "%s/info/alternates", a);
		f = fopen(path, "ab");
		if (f) {
			fputs("../nothere\n", f);
			fclose(f);
		}
	}
	if (read_alts(a, &l) == 0) {
		expect_dir("lines", &l, 0, "b", 1);
		expect_dir("lines", &l, 1, "c", 1);
		expect_dir("lines", &l, 2, "crlf\r", 1);
		expect_dir("lines", &l, 3, "tab\there", 1);
		expect_dir("lines", &l, 4, "q\"uote", 1);
		expect_dir("lines", &l, 5, "oct\001al", 1);
		expect_dir("lines", &l, 6, "d", 1);
		expect_dir("lines", &l, 7, "a/\"broken", 1);
		CHECK(l.n == 9 && l.v[8].error == ENOENT && !l.v[8].file &&
			      strstr(l.v[8].path, "/a/  # not a comment"),
		      "lines: %zu entries; the last should be the missing path", l.n);
		hexoid_alternates_free(&l);
		CHECK(l.n == 0 && l.v == NULL, "free empties the list");
	}
	/* a quoted line ends at its closing quote: one byte after it is skipped */
	b = mkobj("b");
	snprintf(text, sizeof(text), "\"../c\"x../d\n");
	put_text(b, text);
	if (read_alts(b, &l) == 0) {
		CHECK(l.n == 2, "after a quote: %zu entries", l.n);
		expect_dir("after a quote", &l, 0, "c", 1);
		/* "../d" is what follows the skipped byte */
		expect_dir("after a quote", &l, 1, "d", 1);
		hexoid_alternates_free(&l);
	}
	finish();
}

TEST(alternates_depth_and_cycles)
{
	struct hexoid_alternates l;
	const char *known[1];
	char name[16], text[64];
	unsigned i;
	int rc;

	CHECK(start() == 0, "mkdtemp");
	/* a chain l0 -> l1 -> ... -> l7: six levels below l0 are followed, as by git */
	for (i = 0; i < 8; i++) {
		const char *d;
		snprintf(name, sizeof(name), "l%u", i);
		d = mkobj(name);
		snprintf(text, sizeof(text), "../l%u\n", i + 1);
		if (i < 7)
			put_text(d, text);
	}
	if (read_alts(mkobj("l0"), &l) == 0) {
		CHECK(l.n == HEXOID_ALTERNATES_DEPTH, "chain: %zu entries", l.n);
		for (i = 0; i < l.n && i < HEXOID_ALTERNATES_DEPTH; i++) {
			snprintf(name, sizeof(name), "l%u", i + 1);
			expect_dir("chain", &l, i, name, i + 1);
		}
		hexoid_alternates_free(&l);
	}
	/* the file at the last level is read, for an unreadable one to be told, but what
	 * it names is not taken: l6's, a folder here, is told; with l7 named, it is not */
	{
		char path[PATH_MAX + 64];
		snprintf(path, sizeof(path), "%s/l%u/info/alternates", root, HEXOID_ALTERNATES_DEPTH);
		CHECK(unlink(path) == 0 && mkdir(path, 0700) == 0, "%s: made a folder", path);
		if (read_alts(mkobj("l0"), &l) == 0) {
			CHECK(l.n == HEXOID_ALTERNATES_DEPTH + 1 && l.v[l.n - 1].file &&
				      l.v[l.n - 1].error == EISDIR &&
				      l.v[l.n - 1].depth == HEXOID_ALTERNATES_DEPTH &&
				      !strcmp(l.v[l.n - 1].path, path),
			      "the last level's file: %zu entries", l.n);
			hexoid_alternates_free(&l);
		}
	}
	/* a cycle x -> y -> x, and x -> x: each directory once, the first never */
	reset();
	put_text(mkobj("x"), "../y\n../x\n.\n");
	put_text(mkobj("y"), "../x\n../y\n");
	if (read_alts(mkobj("x"), &l) == 0) {
		CHECK(l.n == 1, "cycle: %zu entries", l.n);
		expect_dir("cycle", &l, 0, "y", 1);
		hexoid_alternates_free(&l);
	}
	/* depth first, in the order of the files */
	reset();
	put_text(mkobj("m"), "../p\n../s\n");
	put_text(mkobj("p"), "../q\n");
	put_text(mkobj("q"), "../r\n../s\n");
	mkobj("r");
	mkobj("s");
	if (read_alts(mkobj("m"), &l) == 0) {
		expect_dir("order", &l, 0, "p", 1);
		expect_dir("order", &l, 1, "q", 2);
		expect_dir("order", &l, 2, "r", 3);
		expect_dir("order", &l, 3, "s", 3);
		CHECK(l.n == 4, "order: %zu entries", l.n);
		hexoid_alternates_free(&l);
	}
	/* known directories are neither listed nor followed */
	memset(&l, 0, sizeof(l));
	known[0] = mkobj("p");
	rc = hexoid_alternates_read(mkobj("m"), known, 1, &l, NULL, 0);
	CHECK(rc == 0, "known: rc %d", rc);
	expect_dir("known", &l, 0, "s", 1);
	CHECK(l.n == 1, "known: %zu entries", l.n);
	hexoid_alternates_free(&l);
	finish();
}

TEST(alternates_errors)
{
	struct hexoid_alternates l;
	char err[256], path[PATH_MAX + 32];
	const char *a;
	FILE *f;
	int rc;

	CHECK(start() == 0, "mkdtemp");
	/* no file, an empty one */
	a = mkobj("a");
	if (read_alts(a, &l) == 0)
		CHECK(l.n == 0, "no file: %zu entries", l.n);
	put_text(a, "");
	if (read_alts(a, &l) == 0)
		CHECK(l.n == 0, "empty file: %zu entries", l.n);
	/* a file that names a file, and one that is a folder */
	snprintf(path, sizeof(path), "%s/plain", root);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	put_text(a, "../plain\n../gone\n");
	if (read_alts(a, &l) == 0) {
		CHECK(l.n == 2 && l.v[0].error == ENOTDIR && l.v[1].error == ENOENT && !l.v[0].file,
		      "not directories: %zu entries", l.n);
		hexoid_alternates_free(&l);
	}
	snprintf(path, sizeof(path), "%s/info/alternates", a);
	unlink(path);
	mkdir(path, 0700);
	if (read_alts(a, &l) == 0) {
		CHECK(l.n == 1 && l.v[0].file && l.v[0].error == EISDIR && l.v[0].depth == 0 &&
			      !strcmp(l.v[0].path, path),
		      "a folder for a file: %zu entries", l.n);
		hexoid_alternates_free(&l);
	}
	/* a FIFO and a symbolic link to nothing in the file's place: told, never opened (an
	 * open of the FIFO would wait for a writer) */
	rmdir(path);
	CHECK(mkfifo(path, 0600) == 0, "mkfifo %s", path);
	if (read_alts(a, &l) == 0) {
		CHECK(l.n == 1 && l.v[0].file && l.v[0].error == EINVAL && !strcmp(l.v[0].path, path),
		      "a FIFO for a file: %zu entries", l.n);
		hexoid_alternates_free(&l);
	}
	unlink(path);
	CHECK(symlink("nowhere", path) == 0, "symlink %s", path);
	if (read_alts(a, &l) == 0) {
		CHECK(l.n == 1 && l.v[0].file && l.v[0].error == ENOENT && !strcmp(l.v[0].path, path),
		      "a link to nothing for a file: %zu entries", l.n);
		hexoid_alternates_free(&l);
	}
	/* the first directory must be there */
	memset(&l, 0, sizeof(l));
	snprintf(path, sizeof(path), "%s/none", root);
	rc = hexoid_alternates_read(path, NULL, 0, &l, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, "none") && l.n == 0, "no first directory: rc %d, %s", rc, err);
	finish();
}
