/*
 * hexoid audit: everything in a repository that Git 3.0 will reject — object IDs in
 * refs, packed-refs, reflogs, shallow, FETCH_HEAD, the commit-graph and multi-pack-index
 * chains, and the tree/parent/object headers of every loose and packed commit and tag.
 * hexoid verify-pack: the pack part alone.
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "hexoid_pack.h"

static const char usage_audit[] =
	"usage: hexoid audit [--json] [--jobs=N] [--verify-ids] [--progress|--no-progress] [REPO]\n"
	"\n"
	"Find every object ID in the repository REPO (default: the current directory; a work\n"
	"tree or a bare repository) that Git 3.0 will reject, and everything malformed:\n"
	"  refs                loose refs (refs/**, HEAD and the other *_HEAD files)\n"
	"  packed-refs         packed-refs, with its ^ lines\n"
	"  reflogs             logs/**\n"
	"  shallow             shallow\n"
	"  fetch-head          FETCH_HEAD\n"
	"  commit-graph-chain  objects/info/commit-graphs/commit-graph-chain\n"
	"  midx-chain          objects/pack/multi-pack-index.d/multi-pack-index-chain\n"
	"  loose-objects       objects/xx/...: names, and the headers of commits and tags\n"
	"  pack-objects        objects/pack/*.pack: CRC32s, checksums, and the headers of\n"
	"                      every commit and tag, through their delta chains\n"
	"The hash (SHA-1 or SHA-256) comes from the repository's config.\n"
	"\n"
	"  --json           one JSON object on stdout instead of the text report\n"
	"  --jobs=N         threads for each pack (default 1)\n"
	"  --verify-ids     also rehash every commit and tag and compare it with its ID\n"
	"  --progress       a progress line on stderr (default: when stderr is a terminal)\n"
	"\n"
	"Each finding is one line: [AREA] PATH:LINE:COL: CLASS: MESSAGE for files, and\n"
	"[AREA] PATH: TYPE OID: HEADER header, line L, column C: CLASS: MESSAGE for objects,\n"
	"where CLASS is git3 (Git 2.x accepts it, Git 3.0 rejects it) or error (rejected by\n"
	"both, or damaged). A summary table follows.\n"
	"Exit status: 0 nothing found, 1 findings, 2 usage error or unusable repository.\n";

static const char usage_verify_pack[] =
	"usage: hexoid verify-pack [--verify-ids] [--jobs=N] [--object-format=sha1|sha256] [-q]\n"
	"                          PACK.idx|PACK.pack...\n"
	"\n"
	"Check each pack with its index: the header and object count, every object's CRC32,\n"
	"the pack and index checksums, and the tree/parent/object headers of every commit and\n"
	"tag (inflated through their delta chains) in lowercase-only mode. Findings are printed\n"
	"as 'hexoid audit' prints them, then a summary line per pack (-q: only when something\n"
	"was found).\n"
	"\n"
	"  --verify-ids          also rehash every commit and tag and compare it with its ID\n"
	"  --jobs=N              threads (default 1)\n"
	"  --object-format=HASH  the pack's hash; default: from the index's size\n"
	"\n"
	"Exit status: 0 clean, 1 findings (including damaged objects or checksums),\n"
	"2 usage error or unusable input (missing file, not a pack, corrupt index).\n";

enum area {
	A_REFS, A_PACKED_REFS, A_REFLOGS, A_SHALLOW, A_FETCH_HEAD, A_GRAPH_CHAIN, A_MIDX_CHAIN,
	A_LOOSE, A_PACK, A_COUNT
};
static const char *const area_key[A_COUNT] = {
	"refs", "packed-refs", "reflogs", "shallow", "fetch-head", "commit-graph-chain",
	"midx-chain", "loose-objects", "pack-objects",
};

struct audit {
	const char *repo;       /* as given */
	char *gitdir;           /* its git directory */
	size_t gitdir_len;
	enum hexoid_algo algo;
	int json, progress, trouble;
	unsigned long jobs;
	int verify_ids;
	unsigned long long scanned[A_COUNT], git3[A_COUNT], errors[A_COUNT];
	unsigned long long nfindings;
	enum area current;
};

/* --- output ------------------------------------------------------------------------ */

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* A path under the git directory, shown relative to it. */
static const char *rel(const struct audit *a, const char *path)
{
	if (!strncmp(path, a->gitdir, a->gitdir_len) && path[a->gitdir_len] == '/')
		return path + a->gitdir_len + 1;
	return path;
}

struct line_finding {
	const char *path;
	unsigned long long line;
	size_t column;
	int git3;
	const char *message;
};

static void count(struct audit *a, int git3)
{
	a->nfindings++;
	if (git3)
		a->git3[a->current]++;
	else
		a->errors[a->current]++;
}

static void json_sep(struct audit *a)
{
	if (a->nfindings > 1)
		fputs(",\n", stdout);
	else
		fputs("\n", stdout);
}

static void emit_line(struct audit *a, const struct line_finding *l)
{
	count(a, l->git3);
	if (!a->json) {
		printf("[%s] %s:%llu:%zu: %s: %s\n", area_key[a->current], l->path, l->line, l->column,
		       l->git3 ? "git3" : "error", l->message);
		return;
	}
	json_sep(a);
	printf("    {\"area\": \"%s\", \"path\": ", area_key[a->current]);
	json_string(l->path);
	printf(", \"line\": %llu, \"column\": %zu, \"object\": null, \"type\": null, \"header\": null, "
	       "\"offset\": null, \"class\": \"%s\", \"message\": ",
	       l->line, l->column, l->git3 ? "git3" : "error");
	json_string(l->message);
	putchar('}');
}

/* One object finding as text, without the area: PATH: ... */
static void object_text(FILE *out, const char *path, const struct hexoid_finding *f)
{
	enum hexoid_algo algo = f->algo;
	char hex[HEXOID_MAX_HEXSZ + 1] = "";
	const char *cls = f->git3 ? "git3" : "error";
	const char *type = hexoid_object_type_name(f->type);

	if (f->has_oid) {
		size_t rawsz = hexoid_rawsz(algo);
		hexoid_encode(hex, 2 * rawsz, f->oid, 1, algo);
		hex[2 * rawsz] = 0;
	}
	if (f->header)
		fprintf(out, "%s: %s %s: %s header, line %u, column %u: %s: %s\n", path, type, hex,
			f->header, f->line, f->column, cls, f->message);
	else if (f->offset != HEXOID_NO_OFFSET && f->has_oid)
		fprintf(out, "%s: offset %llu: %s: %s (object %s)\n", path,
			(unsigned long long)f->offset, cls, f->message, hex);
	else if (f->offset != HEXOID_NO_OFFSET)
		fprintf(out, "%s: offset %llu: %s: %s\n", path, (unsigned long long)f->offset, cls,
			f->message);
	else if (f->has_oid && type)
		fprintf(out, "%s: %s %s: %s: %s\n", path, type, hex, cls, f->message);
	else
		fprintf(out, "%s: %s: %s\n", path, cls, f->message);
}

static void object_json(const char *path, const struct hexoid_finding *f, const char *area)
{
	enum hexoid_algo algo = f->algo;
	const char *type = hexoid_object_type_name(f->type);

	printf("    {\"area\": \"%s\", \"path\": ", area);
	json_string(path);
	fputs(", \"line\": ", stdout);
	f->line ? printf("%u", f->line) : printf("null");
	fputs(", \"column\": ", stdout);
	f->column ? printf("%u", f->column) : printf("null");
	fputs(", \"object\": ", stdout);
	if (f->has_oid) {
		char hex[HEXOID_MAX_HEXSZ + 1];
		size_t rawsz = hexoid_rawsz(algo);
		hexoid_encode(hex, 2 * rawsz, f->oid, 1, algo);
		hex[2 * rawsz] = 0;
		printf("\"%s\"", hex);
	} else {
		fputs("null", stdout);
	}
	fputs(", \"type\": ", stdout);
	type && (f->type == HEXOID_OBJ_COMMIT || f->type == HEXOID_OBJ_TAG) ? printf("\"%s\"", type)
									    : printf("null");
	fputs(", \"header\": ", stdout);
	f->header ? json_string(f->header) : (void)fputs("null", stdout);
	fputs(", \"offset\": ", stdout);
	f->offset != HEXOID_NO_OFFSET ? printf("%llu", (unsigned long long)f->offset)
				      : printf("null");
	printf(", \"class\": \"%s\", \"message\": ", f->git3 ? "git3" : "error");
	json_string(f->message);
	putchar('}');
}

/* "NAME [########............]  40% 18000/45000 commits and tags", redrawn in place. */
static void progress_bar(const char *name, uint64_t done, uint64_t total)
{
	char bar[25];
	unsigned width = sizeof(bar) - 1, fill, i;

	if (!total)
		return;
	if (done > total)
		done = total;
	fill = (unsigned)(done * width / total);
	for (i = 0; i < width; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[width] = 0;
	fprintf(stderr, "\r%s [%s] %3u%% %llu/%llu commits and tags\033[K", name, bar,
		(unsigned)(done * 100 / total), (unsigned long long)done, (unsigned long long)total);
	fflush(stderr);
}

static void clear_progress(struct audit *a)
{
	if (a->progress)
		fputs("\r\033[K", stderr);
}

/*
 * The object areas (loose objects, packs) are scanned by audit_objects(), in this
 * thread, or with --jobs above 1 in a thread of its own while this one reads the refs
 * and logs: its findings are then kept, and reported after the other areas, in order.
 */
struct kept {
	enum area area;
	struct hexoid_finding f;
};
struct objscan {
	struct audit *a;
	enum area area;            /* the area being scanned */
	int keep;                  /* keep findings for later, rather than print them */
	struct kept *v;
	size_t n, cap;
	unsigned long long scanned[A_COUNT];
	int trouble;
	const char *current_pack;  /* for the progress bar */
};

static void emit_object(struct audit *a, const struct hexoid_finding *f)
{
	clear_progress(a);
	count(a, f->git3);
	if (a->json) {
		json_sep(a);
		object_json(rel(a, f->path), f, area_key[a->current]);
	} else {
		printf("[%s] ", area_key[a->current]);
		object_text(stdout, rel(a, f->path), f);
	}
}

static int on_object_finding(void *ctx, const struct hexoid_finding *f)
{
	struct objscan *os = ctx;
	struct kept *k;

	if (!os->keep) {
		os->a->current = os->area;
		emit_object(os->a, f);
		return 0;
	}
	if (os->n == os->cap) {
		size_t cap = os->cap ? 2 * os->cap : 64;
		struct kept *v = realloc(os->v, cap * sizeof(*v));
		if (!v)
			goto oom;
		os->v = v;
		os->cap = cap;
	}
	k = &os->v[os->n];
	k->area = os->area;
	k->f = *f;
	if (!(k->f.path = strdup(f->path)))
		goto oom;
	os->n++;
	return 0;
oom:
	fprintf(stderr, "hexoid: out of memory for the findings\n");
	os->trouble = 1;
	return 1;
}

static int on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct objscan *os = ctx;

	if (os->a->progress)
		progress_bar(os->current_pack, done, total);
	return 0;
}

/* --- files of lines: the listing checker, twice ------------------------------------- */

struct problems {
	struct hexoid_problem *v;
	size_t n, cap;
};

static int collect(void *ctx, const struct hexoid_problem *p)
{
	struct problems *ps = ctx;

	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 16;
		struct hexoid_problem *v = realloc(ps->v, cap * sizeof(*v));
		if (!v)
			return 1;
		ps->v = v;
		ps->cap = cap;
	}
	ps->v[ps->n++] = *p;
	return 0;
}

/* Read a whole small file: `name` in the folder dirfd (AT_FDCWD: name is the path),
 * `path` for messages. 1 if it does not exist, -1 (reported) if it cannot be read. */
static int slurp_at(struct audit *a, int dirfd, const char *name, const char *path,
		    char **data, size_t *size)
{
	/* O_NONBLOCK: a FIFO where a file belongs must not hang the audit. No fstat: most
	 * of these files are refs of 41 or 65 bytes, and read() says all that matters. */
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	size_t cap = 4096;
	char *buf = NULL;

	*data = NULL;
	*size = 0;
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 1;
		goto fail;
	}
	if (!(buf = malloc(cap)))
		goto fail;
	for (;;) {
		ssize_t got;
		if (*size == cap) {
			char *nb = realloc(buf, cap = 2 * cap);
			if (!nb)
				goto fail;
			buf = nb;
		}
		got = read(fd, buf + *size, cap - *size);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto fail;
		if (got == 0)
			break;
		*size += (size_t)got;
	}
	close(fd);
	*data = buf;
	return 0;
fail:
	clear_progress(a);
	fprintf(stderr, "hexoid: %s: %s\n", path, strerror(errno));
	a->trouble = 1;
	if (fd >= 0)
		close(fd);
	free(buf);
	return -1;
}

static int slurp(struct audit *a, const char *path, char **data, size_t *size)
{
	return slurp_at(a, AT_FDCWD, path, path, data, size);
}

/*
 * The files of one area go through one pair of listing checkers, one after the other:
 * in mixed mode (what Git 2.x rejects too: errors) and lowercase-only (what only Git 3.0
 * rejects: git3). A file's lines keep their numbers through a table of where each file
 * starts; a file without a last newline gets one, so files never run together.
 */
struct feed_file {
	char *path;
	unsigned long long first; /* its first line's number in the feed */
};
struct feed {
	struct hexoid_listing *mixed, *lower;
	struct problems pm, pl;
	struct feed_file *files;
	size_t nfiles, cap;
	unsigned long long lines;
};

static int feed_start(struct audit *a, struct feed *fd, enum hexoid_format format)
{
	memset(fd, 0, sizeof(*fd));
	fd->mixed = hexoid_listing_new(format, a->algo, HEXOID_MIXED, collect, NULL, &fd->pm);
	fd->lower = hexoid_listing_new(format, a->algo, HEXOID_LOWER, collect, NULL, &fd->pl);
	if (fd->mixed && fd->lower)
		return 0;
	hexoid_listing_free(fd->mixed);
	hexoid_listing_free(fd->lower);
	fprintf(stderr, "hexoid: out of memory\n");
	a->trouble = 1;
	return -1;
}

/* Feed one file's contents (taking ownership of data). */
static void feed_data(struct audit *a, struct feed *fd, const char *path, char *data, size_t size)
{
	size_t at = 0;
	unsigned long long lines = 0;

	char *copy = NULL;

	if (fd->nfiles == fd->cap) {
		size_t cap = fd->cap ? 2 * fd->cap : 64;
		struct feed_file *v = realloc(fd->files, cap * sizeof(*v));
		if (v) {
			fd->files = v;
			fd->cap = cap;
		}
	}
	if (fd->nfiles == fd->cap || !(copy = strdup(path))) {
		fprintf(stderr, "hexoid: out of memory\n");
		a->trouble = 1;
		free(data);
		return;
	}
	fd->files[fd->nfiles].path = copy;
	fd->files[fd->nfiles++].first = fd->lines + 1;
	while (at < size) {
		const char *nl = memchr(data + at, '\n', size - at);
		lines++;
		at = nl ? (size_t)(nl - data) + 1 : size;
	}
	hexoid_listing_feed(fd->mixed, data, size);
	hexoid_listing_feed(fd->lower, data, size);
	if (size && data[size - 1] != '\n') {
		hexoid_listing_feed(fd->mixed, "\n", 1);
		hexoid_listing_feed(fd->lower, "\n", 1);
	}
	fd->lines += lines;
	free(data);
}

static void feed_file(struct audit *a, struct feed *fd, const char *path)
{
	char *data;
	size_t size;

	if (slurp(a, path, &data, &size) == 0)
		feed_data(a, fd, path, data, size);
}

/* The file holding line `line` of the feed. */
static const struct feed_file *file_of(const struct feed *fd, unsigned long long line)
{
	size_t lo = 0, hi = fd->nfiles;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (fd->files[mid].first <= line)
			lo = mid;
		else
			hi = mid;
	}
	return &fd->files[lo];
}

static void feed_finish(struct audit *a, struct feed *fd)
{
	size_t i = 0, j = 0;

	hexoid_listing_finish(fd->mixed);
	hexoid_listing_finish(fd->lower);
	a->scanned[a->current] += a->current == A_REFS ? fd->nfiles : fd->lines;
	/* Both lists are in line order: merge them, a line at most once. */
	while (i < fd->pm.n || j < fd->pl.n) {
		const struct hexoid_problem *p;
		const struct feed_file *file;
		struct line_finding l;
		char msg[sizeof(p->message) + 64];
		int git3 = 0;
		if (j == fd->pl.n || (i < fd->pm.n && fd->pm.v[i].line <= fd->pl.v[j].line)) {
			if (j < fd->pl.n && fd->pl.v[j].line == fd->pm.v[i].line)
				j++;
			p = &fd->pm.v[i++];
		} else {
			p = &fd->pl.v[j++];
			git3 = 1;
		}
		file = file_of(fd, p->line);
		if (git3) {
			/* The checker's hint names `verify --mixed`; here the point is the versions. */
			const char *hint = strstr(p->message, ": Git 3.0");
			int keep = hint ? (int)(hint - p->message) : (int)strlen(p->message);
			snprintf(msg, sizeof(msg), "%.*s: Git 2.x accepts it, Git 3.0 rejects it", keep,
				 p->message);
		}
		l.path = rel(a, file->path);
		l.line = p->line - file->first + 1;
		l.column = p->column;
		l.git3 = git3;
		l.message = git3 ? msg : p->message;
		emit_line(a, &l);
	}
	hexoid_listing_free(fd->mixed);
	hexoid_listing_free(fd->lower);
	free(fd->pm.v);
	free(fd->pl.v);
	for (i = 0; i < fd->nfiles; i++)
		free(fd->files[i].path);
	free(fd->files);
}

/* One file, alone in its area. */
static void audit_file(struct audit *a, const char *path, enum hexoid_format format)
{
	struct feed fd;

	if (feed_start(a, &fd, format))
		return;
	feed_file(a, &fd, path);
	feed_finish(a, &fd);
}

/* A loose ref: "<oid>\n", or a symbolic ref ("ref: ..."), which holds no ID. */
static void audit_ref(struct audit *a, struct feed *fd, int dirfd, const char *name,
		      const char *path)
{
	char *data;
	size_t size;

	if (slurp_at(a, dirfd, name, path, &data, &size))
		return;
	if (size >= 5 && !memcmp(data, "ref: ", 5)) {
		a->scanned[A_REFS]++;
		free(data);
		return;
	}
	feed_data(a, fd, path, data, size);
}

static void reflog_file(struct audit *a, struct feed *fd, int dirfd, const char *name,
			const char *path)
{
	char *data;
	size_t size;

	if (slurp_at(a, dirfd, name, path, &data, &size) == 0)
		feed_data(a, fd, path, data, size);
}

static int cmp_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 2);

	if (!s) {
		fputs("hexoid: out of memory\n", stderr);
		exit(EXIT_TROUBLE);
	}
	memcpy(s, a, la);
	s[la] = '/';
	memcpy(s + la + 1, b, lb + 1);
	return s;
}

/* Every regular file under dir, depth first, names sorted: fn(a, path). */
static int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/*
 * Every regular file under dir, in the order of their whole paths as strings (as git
 * sorts refs: refs/heads/a-b before refs/heads/a/b), so folders sort as if their names
 * ended in '/'. Lock files are git's work in progress, not refs: left out. Files are
 * opened relative to their folder, and readdir's d_type saves a stat where it can: a
 * repository may hold many thousands of loose refs.
 */
typedef void walk_fn(struct audit *, struct feed *, int dirfd, const char *name,
		     const char *path);

static void walk(struct audit *a, struct feed *fd, const char *dir, walk_fn *fn)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i, dlen = strlen(dir);

	if (!d) {
		if (errno != ENOENT) {
			fprintf(stderr, "hexoid: %s: %s\n", dir, strerror(errno));
			a->trouble = 1;
		}
		return;
	}
	while ((de = readdir(d))) {
		struct stat st;
		int is_dir = de->d_type == DT_DIR, is_reg = de->d_type == DT_REG;
		char *path;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_UNKNOWN && fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			is_dir = S_ISDIR(st.st_mode);
			is_reg = S_ISREG(st.st_mode);
		}
		if (!is_dir && (!is_reg || ends_with(de->d_name, ".lock")))
			continue;
		if (n == cap) {
			char **v = realloc(names, (cap = cap ? 2 * cap : 32) * sizeof(*v));
			if (!v)
				break;
			names = v;
		}
		/* "dir/": a folder sorts as its files will. */
		path = join(dir, de->d_name);
		if (is_dir) {
			char *slashed = join(path, "");
			free(path);
			path = slashed;
		}
		names[n++] = path;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_name);
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		if (names[i][len - 1] == '/') {
			names[i][len - 1] = 0;
			walk(a, fd, names[i], fn);
		} else {
			fn(a, fd, dirfd(d), names[i] + dlen + 1, names[i]);
		}
		free(names[i]);
	}
	closedir(d);
	free(names);
}

/* --- objects ----------------------------------------------------------------------- */

static void audit_objects(struct objscan *os)
{
	struct audit *a = os->a;
	struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	char err[512];
	char *objects = join(a->gitdir, "objects"), *packdir = join(objects, "pack");
	DIR *d;

	o.algo = a->algo;
	o.verify_ids = a->verify_ids;
	o.jobs = (unsigned)a->jobs;
	o.on_finding = on_object_finding;
	o.on_progress = on_progress;
	o.ctx = os;
	os->area = A_LOOSE;
	if (hexoid_loose_scan(objects, &o, &st, err, sizeof(err)) < 0) {
		fprintf(stderr, "hexoid: %s\n", err);
		os->trouble = 1;
	}
	os->scanned[A_LOOSE] = st.objects;

	os->area = A_PACK;
	d = opendir(packdir);
	if (d) {
		struct dirent *de;
		char **names = NULL;
		size_t n = 0, cap = 0, i;
		while ((de = readdir(d))) {
			size_t len = strlen(de->d_name);
			if (len < 5 || strcmp(de->d_name + len - 5, ".pack"))
				continue;
			if (n == cap) {
				char **v = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof(*v));
				if (!v)
					break;
				names = v;
			}
			names[n++] = join(packdir, de->d_name);
		}
		closedir(d);
		if (n)
			qsort(names, n, sizeof(*names), cmp_name);
		for (i = 0; i < n; i++) {
			os->current_pack = rel(a, names[i]);
			if (hexoid_pack_scan(names[i], &o, &st, err, sizeof(err)) < 0) {
				/* An unusable pack is a finding of the audit, not the end of it. */
				struct hexoid_finding f;
				/* err names the file with the whole path: show it as the report does. */
				char *in = strstr(err, a->gitdir);
				memset(&f, 0, sizeof(f));
				f.code = HEXOID_FIND_LAYOUT;
				f.path = names[i];
				f.offset = HEXOID_NO_OFFSET;
				snprintf(f.message, sizeof(f.message), "unusable: %.*s%.200s",
					 in ? (int)(in - err) : 0, err, in ? rel(a, in) : err);
				on_object_finding(os, &f);
			} else {
				os->scanned[A_PACK] += st.objects;
			}
			if (a->progress)
				fputs("\r\033[K", stderr);
			free(names[i]);
		}
		free(names);
	}
	free(objects);
	free(packdir);
}

static void *objects_main(void *p)
{
	audit_objects(p);
	return NULL;
}

/* --- the repository ---------------------------------------------------------------- */

/* The git directory of `repo`: repo/.git (a folder, or a "gitdir: ..." file), or repo
 * itself when it is bare. NULL when it is neither. */
static char *find_gitdir(const char *repo)
{
	char *dotgit = join(repo, ".git"), *head, *objects;
	struct stat st;

	if (stat(dotgit, &st) == 0 && S_ISDIR(st.st_mode))
		return dotgit;
	if (stat(dotgit, &st) == 0 && S_ISREG(st.st_mode)) {
		FILE *f = fopen(dotgit, "r");
		char line[4096];
		if (f && fgets(line, sizeof(line), f) && !strncmp(line, "gitdir: ", 8)) {
			char *p = line + 8, *target;
			p[strcspn(p, "\r\n")] = 0;
			fclose(f);
			free(dotgit);
			target = *p == '/' ? strdup(p) : join(repo, p);
			return target;
		}
		if (f)
			fclose(f);
	}
	free(dotgit);
	head = join(repo, "HEAD");
	objects = join(repo, "objects");
	if (stat(head, &st) == 0 && S_ISREG(st.st_mode) && stat(objects, &st) == 0 &&
	    S_ISDIR(st.st_mode)) {
		free(head);
		free(objects);
		return strdup(repo);
	}
	free(head);
	free(objects);
	return NULL;
}

/* extensions.objectFormat from the config: sha256, or sha1 (the default). -1 if unknown. */
static int config_algo(const char *gitdir)
{
	char *path = join(gitdir, "config");
	FILE *f = fopen(path, "r");
	char line[1024];
	int in_ext = 0, algo = HEXOID_SHA1;

	free(path);
	if (!f)
		return algo;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *eq;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[') {
			in_ext = !strncasecmp(p, "[extensions]", 12);
			continue;
		}
		if (!in_ext || strncasecmp(p, "objectformat", 12))
			continue;
		eq = strchr(p, '=');
		if (!eq)
			continue;
		for (eq++; *eq == ' ' || *eq == '\t'; eq++)
			;
		eq[strcspn(eq, " \t\r\n;#")] = 0;
		if (!strcasecmp(eq, "sha256"))
			algo = HEXOID_SHA256;
		else if (!strcasecmp(eq, "sha1"))
			algo = HEXOID_SHA1;
		else
			algo = -1;
	}
	fclose(f);
	return algo;
}

static int parse_jobs(const char *s, unsigned long *jobs)
{
	if (parse_count(s, jobs) || *jobs < 1 || *jobs > 256)
		return -1;
	return 0;
}

static void summary(struct audit *a)
{
	unsigned long long ts = 0, tg = 0, te = 0;
	int i;

	if (a->json) {
		printf("%s  ],\n  \"summary\": {", a->nfindings ? "\n" : "");
		for (i = 0; i < A_COUNT; i++)
			printf("%s\n    \"%s\": {\"scanned\": %llu, \"git3\": %llu, \"error\": %llu}",
			       i ? "," : "", area_key[i], a->scanned[i], a->git3[i], a->errors[i]);
		printf("\n  }\n}\n");
		return;
	}
	printf("\nsummary:\n  %-20s %10s %8s %8s\n", "area", "scanned", "git3", "error");
	for (i = 0; i < A_COUNT; i++) {
		printf("  %-20s %10llu %8llu %8llu\n", area_key[i], a->scanned[i], a->git3[i],
		       a->errors[i]);
		ts += a->scanned[i];
		tg += a->git3[i];
		te += a->errors[i];
	}
	printf("  %-20s %10llu %8llu %8llu\n", "total", ts, tg, te);
}

int cmd_audit(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "verify-ids", no_argument, NULL, 'V' },
		{ "progress", no_argument, NULL, 'p' },
		{ "no-progress", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct audit a;
	struct objscan os;
	pthread_t objects_thread;
	struct feed fd;
	int c, algo, progress = -1;
	char *path;

	memset(&a, 0, sizeof(a));
	memset(&os, 0, sizeof(os));
	a.jobs = 1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'J': a.json = 1; break;
		case 'V': a.verify_ids = 1; break;
		case 'p': progress = 1; break;
		case 'P': progress = 0; break;
		case 'j':
			if (parse_jobs(optarg, &a.jobs)) {
				fprintf(stderr, "hexoid: bad --jobs '%s' (1..256)\n\n%s", optarg, usage_audit);
				return EXIT_TROUBLE;
			}
			break;
		case 'h':
			fputs(usage_audit, stdout);
			return EXIT_VALID;
		default:
			fprintf(stderr, "hexoid: unknown option '%s'\n\n%s", argv[optind - 1], usage_audit);
			return EXIT_TROUBLE;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "hexoid: audit takes one repository\n\n%s", usage_audit);
		return EXIT_TROUBLE;
	}
	a.repo = optind < argc ? argv[optind] : ".";
	a.gitdir = find_gitdir(a.repo);
	if (!a.gitdir) {
		fprintf(stderr, "hexoid: %s: not a git repository (no .git, and no HEAD and objects/)\n",
			a.repo);
		return EXIT_TROUBLE;
	}
	a.gitdir_len = strlen(a.gitdir);
	algo = config_algo(a.gitdir);
	if (algo < 0) {
		fprintf(stderr, "hexoid: %s: unknown extensions.objectFormat in its config\n", a.repo);
		free(a.gitdir);
		return EXIT_TROUBLE;
	}
	a.algo = (enum hexoid_algo)algo;
	a.progress = progress >= 0 ? progress : isatty(STDERR_FILENO);

	if (a.json) {
		printf("{\n  \"repository\": ");
		json_string(a.repo);
		printf(",\n  \"object_format\": \"%s\",\n  \"findings\": [",
		       a.algo == HEXOID_SHA256 ? "sha256" : "sha1");
	} else {
		printf("hexoid audit: %s (%s)\n", a.repo, a.algo == HEXOID_SHA256 ? "sha256" : "sha1");
	}

	/* With several jobs, objects are scanned meanwhile in a thread of their own. */
	os.a = &a;
	/* (keep is set before the thread starts: the scan reports its findings as it goes) */
	os.keep = a.jobs > 1;
	if (os.keep && pthread_create(&objects_thread, NULL, objects_main, &os) != 0)
		os.keep = 0;

	a.current = A_REFS;
	if (feed_start(&a, &fd, HEXOID_FORMAT_OIDS) == 0) {
		static const char *const pseudo[] = { "HEAD", "ORIG_HEAD", "MERGE_HEAD",
						      "CHERRY_PICK_HEAD", "REVERT_HEAD", "BISECT_HEAD" };
		size_t i;
		for (i = 0; i < sizeof(pseudo) / sizeof(*pseudo); i++) {
			struct stat st;
			path = join(a.gitdir, pseudo[i]);
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
				audit_ref(&a, &fd, AT_FDCWD, path, path);
			free(path);
		}
		path = join(a.gitdir, "refs");
		walk(&a, &fd, path, audit_ref);
		free(path);
		feed_finish(&a, &fd);
	}
	a.current = A_PACKED_REFS;
	path = join(a.gitdir, "packed-refs");
	audit_file(&a, path, HEXOID_FORMAT_PACKED_REFS);
	free(path);
	a.current = A_REFLOGS;
	path = join(a.gitdir, "logs");
	if (feed_start(&a, &fd, HEXOID_FORMAT_REFLOG) == 0) {
		walk(&a, &fd, path, reflog_file);
		feed_finish(&a, &fd);
	}
	free(path);
	a.current = A_SHALLOW;
	path = join(a.gitdir, "shallow");
	audit_file(&a, path, HEXOID_FORMAT_OIDS);
	free(path);
	a.current = A_FETCH_HEAD;
	path = join(a.gitdir, "FETCH_HEAD");
	audit_file(&a, path, HEXOID_FORMAT_FETCH_HEAD);
	free(path);
	a.current = A_GRAPH_CHAIN;
	path = join(a.gitdir, "objects/info/commit-graphs/commit-graph-chain");
	audit_file(&a, path, HEXOID_FORMAT_OIDS);
	free(path);
	a.current = A_MIDX_CHAIN;
	path = join(a.gitdir, "objects/pack/multi-pack-index.d/multi-pack-index-chain");
	audit_file(&a, path, HEXOID_FORMAT_OIDS);
	free(path);

	if (os.keep)
		pthread_join(objects_thread, NULL);
	else
		audit_objects(&os);
	for (size_t k = 0; k < os.n; k++) {
		a.current = os.v[k].area;
		emit_object(&a, &os.v[k].f);
		free((char *)os.v[k].f.path);
	}
	free(os.v);
	a.scanned[A_LOOSE] = os.scanned[A_LOOSE];
	a.scanned[A_PACK] = os.scanned[A_PACK];
	a.trouble |= os.trouble;
	clear_progress(&a);
	summary(&a);
	free(a.gitdir);
	if (fflush(stdout)) {
		fprintf(stderr, "hexoid: writing the report: %s\n", strerror(errno));
		return EXIT_TROUBLE;
	}
	return a.trouble ? EXIT_TROUBLE : a.nfindings ? EXIT_INVALID : EXIT_VALID;
}

/* --- verify-pack ------------------------------------------------------------------- */

struct vp {
	const char *path;         /* as given */
	unsigned long long found;
	int progress;
};

static int vp_finding(void *ctx, const struct hexoid_finding *f)
{
	struct vp *v = ctx;
	if (v->progress)
		fputs("\r\033[K", stderr);
	object_text(stdout, f->path, f);
	v->found++;
	return 0;
}

static int vp_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct vp *v = ctx;

	if (v->progress)
		progress_bar(v->path, done, total);
	return 0;
}

/* The library's "PATH: what" as "hexoid: PATH: error: what". */
static void print_error(const char *err)
{
	const char *sep = strstr(err, ": ");

	if (sep)
		fprintf(stderr, "hexoid: %.*s: error: %s\n", (int)(sep - err), err, sep + 2);
	else
		fprintf(stderr, "hexoid: error: %s\n", err);
}

int cmd_verify_pack(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "verify-ids", no_argument, NULL, 'V' },
		{ "object-format", required_argument, NULL, 'O' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long jobs = 1;
	enum hexoid_algo told = 0;
	int c, quiet = 0, verify_ids = 0, rc = EXIT_VALID, i;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hqj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'V': verify_ids = 1; break;
		case 'q': quiet = 1; break;
		case 'j':
			if (parse_jobs(optarg, &jobs)) {
				fprintf(stderr, "hexoid: bad --jobs '%s' (1..256)\n\n%s", optarg,
					usage_verify_pack);
				return EXIT_TROUBLE;
			}
			break;
		case 'O':
			if (!strcmp(optarg, "sha1"))
				told = HEXOID_SHA1;
			else if (!strcmp(optarg, "sha256"))
				told = HEXOID_SHA256;
			else {
				fprintf(stderr, "hexoid: unknown --object-format '%s'\n\n%s", optarg,
					usage_verify_pack);
				return EXIT_TROUBLE;
			}
			break;
		case 'h':
			fputs(usage_verify_pack, stdout);
			return EXIT_VALID;
		default:
			fprintf(stderr, "hexoid: unknown option '%s'\n\n%s", argv[optind - 1],
				usage_verify_pack);
			return EXIT_TROUBLE;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "hexoid: verify-pack needs a pack\n\n%s", usage_verify_pack);
		return EXIT_TROUBLE;
	}
	for (i = optind; i < argc; i++) {
		struct vp v = { argv[i], 0, isatty(STDERR_FILENO) };
		struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		char err[512];
		const char *name = argv[i];
		size_t len = strlen(name);
		char *shown = NULL;

		o.algo = told;
		o.verify_ids = verify_ids;
		o.jobs = (unsigned)jobs;
		o.on_finding = vp_finding;
		o.on_progress = vp_progress;
		o.ctx = &v;
		/* Findings name the .pack; so does the summary. */
		if (len > 4 && !strcmp(name + len - 4, ".idx") && (shown = malloc(len + 2))) {
			memcpy(shown, name, len - 4);
			strcpy(shown + len - 4, ".pack");
			name = shown;
		}
		if (hexoid_pack_scan(argv[i], &o, &st, err, sizeof(err)) < 0) {
			if (v.progress)
				fputs("\r\033[K", stderr);
			print_error(err);
			rc = EXIT_TROUBLE;
			free(shown);
			continue;
		}
		if (v.progress)
			fputs("\r\033[K", stderr);
		if (v.found && rc == EXIT_VALID)
			rc = EXIT_INVALID;
		if (v.found || !quiet) {
			printf("%s: %llu objects, %llu commits, %llu tags, %llu deltas resolved: ", name,
			       (unsigned long long)st.objects, (unsigned long long)st.commits,
			       (unsigned long long)st.tags, (unsigned long long)st.deltas);
			if (v.found)
				printf("%llu finding%s\n", v.found, v.found == 1 ? "" : "s");
			else
				printf("ok\n");
		}
		free(shown);
	}
	if (fflush(stdout)) {
		fprintf(stderr, "hexoid: writing the report: %s\n", strerror(errno));
		return EXIT_TROUBLE;
	}
	return rc;
}
