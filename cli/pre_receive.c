/*
 * hexoid pre-receive and hexoid update: a push gate for the server side of git push.
 *
 * Git 2.x accepts, and stores, a commit whose tree or parent header or a tag whose object
 * header is uppercase hex; Git 3.0 will not read it. Run as a hook, this rejects such a
 * push. Two checks:
 *
 *   - every object the push brings: the quarantine folder git makes for it
 *     ($GIT_QUARANTINE_PATH), its packs and loose objects, through the library's scans
 *     (headers, and damage: CRC32s, checksums, broken zlib or deltas);
 *   - every commit and tag each pushed ref now reaches that its old value did not, new or
 *     already stored, here or in an alternate: `git rev-list` from the new values with
 *     the old ones excluded (all new refs in one walk), run with the hook's environment
 *     so that it sees the quarantine, the repository and its alternates as git does.
 *     Pushed commits are left to the scan (the walk only notes which ref reaches them);
 *     the stored ones, and the chain of tags from each ref itself, are read through
 *     `git cat-file --batch` and their headers checked with hexoid_object_check().
 *
 * The check runs in a child process; the parent only waits for it. A crash, a timeout or
 * any internal error therefore ends in a clear verdict, and by default in a rejection.
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "hexoid_idx.h"
#include "hexoid_pack.h"

extern char **environ;

static const char usage_pre_receive[] =
	"usage: hexoid pre-receive [--mixed] [--report-only] [--timeout=SECONDS]\n"
	"                          [--on-timeout=reject|accept] [--jobs=N] [--json]\n"
	"\n"
	"A pre-receive hook: reads git's '<old> <new> <ref>' lines on stdin and rejects the\n"
	"push when a commit or tag it brings, or one a pushed ref now reaches that its old\n"
	"value did not, has a tree, parent, object or mergetag header Git 3.0 will not read\n"
	"(uppercase hex), or one that is not an object ID at all, or when a pushed pack is\n"
	"damaged. Install it as hooks/pre-receive holding 'exec hexoid pre-receive', or as a\n"
	"symbolic link named pre-receive to the hexoid command.\n"
	"\n"
	"  --mixed          uppercase IDs only warn, as Git 2.x would take them; IDs that are\n"
	"                   not hex at all and damaged objects still reject the push\n"
	"  --report-only    warn about everything and accept the push (exit 0), even when\n"
	"                   the check itself could not finish\n"
	"  --timeout=S      give up after S seconds (default 0: no limit)\n"
	"  --on-timeout=W   reject (default) or accept the push when the time is up\n"
	"  --jobs=N         threads for each pushed pack (default 1)\n"
	"  --json           also JSON lines on stdout (git shows the pusher a hook's stdout\n"
	"                   too: redirect it): each finding, each reason the check could not\n"
	"                   be done, and the verdict last (\"schema\": 1; see the README)\n"
	"\n"
	"The same settings from git config: hexoid.mixed, hexoid.reportOnly, hexoid.timeout,\n"
	"hexoid.onTimeout, hexoid.jobs; flags win over them.\n"
	"Each finding is one line on stderr, which git shows the pusher as 'remote: ...':\n"
	"  hexoid: REF: TYPE OID: HEADER header, line L, column C: CLASS: MESSAGE\n"
	"where CLASS is git3 (Git 2.x accepts it, Git 3.0 rejects it) or error.\n"
	"Exit status: 0 accept, 1 reject (findings), 2 reject (the check could not be done:\n"
	"bad input, an unreadable pack, a git command that failed, a crash, the time limit).\n";

static const char usage_update[] =
	"usage: hexoid update [options] REF OLD NEW\n"
	"\n"
	"An update hook: checks the commits and tags REF now reaches that OLD did not, as\n"
	"'hexoid pre-receive' does for each ref, and rejects that ref alone. It does not\n"
	"scan pushed objects that REF does not reach: pre-receive does. Install it as\n"
	"hooks/update holding 'exec hexoid update \"$@\"', or as a symbolic link named update.\n"
	"The options and exit status are those of 'hexoid pre-receive --help'.\n";

struct config {
	int mixed, report_only, timeout_accept;
	unsigned long timeout, jobs;
};

/* One ref update: <old> <new> <ref>. */
struct update {
	char old[HEXOID_MAX_HEXSZ + 1], new[HEXOID_MAX_HEXSZ + 1];
	char *ref;
};

/* One finding, kept until the end: the report is sorted by ref. */
struct rec {
	int ref;                  /* index of the update whose ref reaches it, or -1 */
	int git3;
	int has_oid;
	unsigned char oid[HEXOID_MAX_RAWSZ];
	enum hexoid_object_type type;
	char header[24];          /* "" when not about a header */
	unsigned line, column;
	uint64_t offset;
	char *path;               /* a pushed file (quarantine findings), or NULL */
	char message[224];
};

struct recs {
	struct rec *v;
	size_t n, cap;
};

/* Object IDs, HEXOID_MAX_RAWSZ bytes apart, zero-padded: memcmp order. */
struct oids {
	unsigned char *v;
	size_t n, cap;
};

struct gate {
	struct config cfg;
	enum hexoid_algo algo;
	size_t hexsz, rawsz;
	struct update *u;
	size_t nu;
	struct recs walk;         /* found through the refs */
	struct recs pushed;       /* found in the quarantine */
	const char *quarantine;
	int trouble;              /* the check could not be done */
	pid_t cat_pid;            /* git cat-file --batch, started on first use */
	FILE *cat_in, *cat_out;
	/* The pushed objects' IDs: */
	struct cli_file *qfile;   /* the quarantine's pack indexes */
	struct hexoid_idx *qidx;
	size_t qidx_n;
	struct oids qloose;       /* its loose objects, sorted */
	int update_hook;
};

#define SAY "hexoid: "

/* --json: JSON lines on stdout beside the text on stderr. */
static int json_lines;

/* One JSON line onto stdout, flushed (threads and the child write them too). */
static void json_line(struct sbuf *b)
{
	if (!b->oom)
		fwrite(b->p, 1, b->len, stdout);
	fflush(stdout);
	sb_free(b);
}

/* Why the check cannot be done or trusted: on stderr, and with --json as an "error". */
static void say_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say_error(const char *fmt, ...)
{
	char msg[1024];
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, SAY "%s", msg);
	len = strlen(msg);
	if (len && msg[len - 1] == '\n')
		msg[--len] = 0;
	if (json_lines) {
		struct sbuf b = { 0 };
		sb_puts(&b, "{\"schema\": 1, \"type\": \"error\", \"message\": ");
		sb_json_string(&b, msg);
		sb_puts(&b, "}\n");
		json_line(&b);
	}
}

static void oom(void)
{
	say_error("out of memory\n");
	exit(EXIT_TROUBLE);
}

static struct rec *rec_add(struct recs *r)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		struct rec *v = realloc(r->v, cap * sizeof(*v));
		if (!v)
			oom();
		r->v = v;
		r->cap = cap;
	}
	memset(&r->v[r->n], 0, sizeof(r->v[0]));
	r->v[r->n].offset = HEXOID_NO_OFFSET;
	return &r->v[r->n++];
}

/* --- child processes --------------------------------------------------------------- */

/* Start argv with its stdin from *to (when to != NULL, the write end is returned there)
 * and its stdout to *from (likewise). Returns the pid, or -1 with errno. */
static pid_t spawn(char *const argv[], int *to, int *from)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err;
	posix_spawn_file_actions_t fa;
	pid_t pid;

	if ((to && pipe(in)) || (from && pipe(out))) {
		err = errno;
		goto fail;
	}
	posix_spawn_file_actions_init(&fa);
	if (to) {
		posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
		posix_spawn_file_actions_addclose(&fa, in[0]);
		posix_spawn_file_actions_addclose(&fa, in[1]);
	}
	if (from) {
		posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
		posix_spawn_file_actions_addclose(&fa, out[0]);
		posix_spawn_file_actions_addclose(&fa, out[1]);
	}
	err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err)
		goto fail;
	if (to) {
		close(in[0]);
		*to = in[1];
	}
	if (from) {
		close(out[1]);
		*from = out[0];
	}
	return pid;
fail:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	errno = err;
	return -1;
}

/* Wait for pid: its exit status, or -1 (reported as `what`) if it died of a signal. */
static int reap(pid_t pid, const char *what)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			say_error("%s: %s\n", what, strerror(errno));
			return -1;
		}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	say_error("%s: killed by signal %d\n", what, WTERMSIG(status));
	return -1;
}

/* The whole output of argv, NUL-terminated; *status its exit status (-1: not run). */
static char *capture(char *const argv[], int *status)
{
	int fd;
	pid_t pid = spawn(argv, NULL, &fd);
	size_t n = 0, cap = 4096;
	char *buf;

	*status = -1;
	if (pid < 0) {
		say_error("cannot run %s: %s\n", argv[0], strerror(errno));
		return NULL;
	}
	if (!(buf = malloc(cap)))
		oom();
	for (;;) {
		ssize_t got;
		if (cap - n < 2 && !(buf = realloc(buf, cap *= 2)))
			oom();
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	buf[n] = 0;
	*status = reap(pid, argv[0]);
	return buf;
}

/* --- configuration ------------------------------------------------------------------ */

/* git config's booleans: 1, 0, or -1 when `v` is none of them. A key without a value
 * ("[hexoid] mixed" alone) is true. */
static int parse_bool(const char *v)
{
	static const char *const yes[] = { "", "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		if (!strcasecmp(v, yes[i]))
			return 1;
	for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
		if (!strcasecmp(v, no[i]))
			return 0;
	return -1;
}

static int parse_timeout_action(const char *v, int *accept)
{
	if (!strcmp(v, "reject"))
		*accept = 0;
	else if (!strcmp(v, "accept"))
		*accept = 1;
	else
		return -1;
	return 0;
}

static int parse_jobs(const char *s, unsigned long *jobs)
{
	return parse_count(s, jobs) || *jobs < 1 || *jobs > 256 ? -1 : 0;
}

/* hexoid.* from git config, read once. Returns 0, or -1 (reported) on a bad value. */
static int read_config(struct config *cfg)
{
	char *argv[] = { "git", "config", "--get-regexp", "^hexoid\\.", NULL };
	int status;
	char *out = capture(argv, &status), *line, *next;

	/* 1 is git config's "no such key". */
	if (!out || (status != 0 && status != 1)) {
		say_error("git config failed (exit %d)\n", status);
		free(out);
		return -1;
	}
	for (line = out; *line; line = next) {
		char *value, *key = line + 7;
		int b, bad = 0;
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = 0;
		if (strncmp(line, "hexoid.", 7))
			continue;
		value = key + strcspn(key, " ");
		if (*value)
			*value++ = 0;
		/* git prints keys in lowercase. */
		if (!strcmp(key, "mixed") || !strcmp(key, "reportonly")) {
			b = parse_bool(value);
			bad = b < 0;
			if (!bad)
				*(key[0] == 'm' ? &cfg->mixed : &cfg->report_only) = b;
		} else if (!strcmp(key, "timeout")) {
			bad = parse_count(value, &cfg->timeout);
		} else if (!strcmp(key, "ontimeout")) {
			bad = parse_timeout_action(value, &cfg->timeout_accept);
		} else if (!strcmp(key, "jobs")) {
			bad = parse_jobs(value, &cfg->jobs);
		}
		if (bad) {
			say_error("bad value '%s' for git config hexoid.%s\n", value, key);
			free(out);
			return -1;
		}
	}
	free(out);
	return 0;
}

/* --- reading objects: git cat-file --batch ------------------------------------------ */

static int cat_start(struct gate *g)
{
	char *argv[] = { "git", "cat-file", "--batch", NULL };
	int to, from;

	g->cat_pid = spawn(argv, &to, &from);
	if (g->cat_pid < 0) {
		say_error("cannot run git cat-file: %s\n", strerror(errno));
		return -1;
	}
	g->cat_in = fdopen(to, "w");
	g->cat_out = fdopen(from, "r");
	if (!g->cat_in || !g->cat_out)
		oom();
	return 0;
}

static void cat_stop(struct gate *g)
{
	if (!g->cat_pid)
		return;
	fclose(g->cat_in);
	fclose(g->cat_out);
	if (reap(g->cat_pid, "git cat-file") != 0)
		g->trouble = 1;
	g->cat_pid = 0;
}

/*
 * Read cat-file --batch's answer for `name` from `out`. Returns 0 with the object's type,
 * its text in *buf (malloc'd, NUL after it) and size, and its ID in oid; 1 if it is
 * missing; -1 (reported) when the answer is not what cat-file prints.
 */
static int cat_read(struct gate *g, FILE *out, const char *name, enum hexoid_object_type *type,
		    char **buf, size_t *size, unsigned char *oid)
{
	char line[256], *sp;
	unsigned long long len;

	*buf = NULL;
	if (!fgets(line, sizeof(line), out) || !strchr(line, '\n'))
		goto broken;
	sp = strchr(line, ' ');
	if (sp && !strcmp(sp, " missing\n"))
		return 1;
	if (!sp || (size_t)(sp - line) != g->hexsz ||
	    hexoid_decode(oid, line, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL) != HEXOID_OK)
		goto broken;
	sp++;
	if (!strncmp(sp, "commit ", 7))
		*type = HEXOID_OBJ_COMMIT, sp += 7;
	else if (!strncmp(sp, "tag ", 4))
		*type = HEXOID_OBJ_TAG, sp += 4;
	else if (!strncmp(sp, "tree ", 5))
		*type = HEXOID_OBJ_TREE, sp += 5;
	else if (!strncmp(sp, "blob ", 5))
		*type = HEXOID_OBJ_BLOB, sp += 5;
	else
		goto broken;
	len = strtoull(sp, NULL, 10);
	if (!(*buf = malloc(len + 1)))
		oom();
	if (fread(*buf, 1, len, out) != len || fgetc(out) != '\n')
		goto broken;
	(*buf)[len] = 0;
	*size = len;
	return 0;
broken:
	free(*buf);
	*buf = NULL;
	say_error("git cat-file --batch: unexpected output or end, reading %s\n", name);
	g->trouble = 1;
	return -1;
}

/* One object through the cat-file kept open for single questions. */
static int cat_get(struct gate *g, const char *name, enum hexoid_object_type *type,
		   char **buf, size_t *size, unsigned char *oid)
{
	*buf = NULL;
	if (!g->cat_pid && cat_start(g))
		return -1;
	if (fprintf(g->cat_in, "%s\n", name) < 0 || fflush(g->cat_in)) {
		say_error("git cat-file --batch: %s\n", strerror(errno));
		g->trouble = 1;
		return -1;
	}
	return cat_read(g, g->cat_out, name, type, buf, size, oid);
}

/* --- checking one object's text ---------------------------------------------------- */

struct checking {
	struct gate *g;
	int ref;
	const unsigned char *oid;
	enum hexoid_object_type type;
};

static int on_header(void *ctx, const struct hexoid_header_problem *p)
{
	struct checking *c = ctx;
	struct rec *r = rec_add(&c->g->walk);

	r->ref = c->ref;
	r->git3 = p->code == HEXOID_FIND_UPPERCASE;
	r->has_oid = 1;
	memcpy(r->oid, c->oid, c->g->rawsz);
	r->type = c->type;
	snprintf(r->header, sizeof(r->header), "%s", p->header);
	r->line = p->line;
	r->column = p->column;
	snprintf(r->message, sizeof(r->message), "%s", p->message);
	return 0;
}

static void check_text(struct gate *g, int ref, const unsigned char *oid,
		       enum hexoid_object_type type, const char *text, size_t len)
{
	struct checking c = { g, ref, oid, type };

	hexoid_object_check(type, text, len, g->algo, on_header, &c);
}

/*
 * The chain of tags from a ref's new value: each tag is checked and its object followed
 * (in lowercase, so that an uppercase object header is followed as Git 2.x follows it).
 * Returns 0 when the chain ends, -1 when it cannot be followed (reported).
 */
static int check_tags(struct gate *g, int ref, const char *start)
{
	char name[HEXOID_MAX_HEXSZ + 1];
	unsigned depth;

	snprintf(name, sizeof(name), "%s", start);
	for (depth = 0; depth < 64; depth++) {
		enum hexoid_object_type type;
		unsigned char oid[HEXOID_MAX_RAWSZ];
		char *text;
		size_t len, i;
		int rc = cat_get(g, name, &type, &text, &len, oid);

		if (rc > 0) {
			say_error("%s: object %s is missing\n", g->u[ref].ref, name);
			g->trouble = 1;
		}
		if (rc)
			return -1;
		if (type != HEXOID_OBJ_TAG) {
			free(text);
			return 0;
		}
		check_text(g, ref, oid, type, text, len);
		/* A tag's text starts with "object <hex>\n". */
		if (len < 7 + g->hexsz || memcmp(text, "object ", 7)) {
			free(text);
			return 0;
		}
		for (i = 0; i < g->hexsz; i++)
			name[i] = (char)(text[7 + i] | (text[7 + i] >= 'A' && text[7 + i] <= 'F' ? 0x20 : 0));
		name[g->hexsz] = 0;
		free(text);
		if (hexoid_decode(NULL, name, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL) != HEXOID_OK)
			return 0; /* not an ID: already a finding, and nothing to follow */
	}
	say_error("%s: more than 64 tags in a chain from %s\n", g->u[ref].ref, start);
	g->trouble = 1;
	return -1;
}

/* --- the walk: commits the refs now reach ------------------------------------------ */

static void oids_add(struct oids *o, const unsigned char *oid, size_t rawsz)
{
	if (o->n == o->cap && !(o->v = realloc(o->v, (o->cap = o->cap ? 2 * o->cap : 256) *
						      HEXOID_MAX_RAWSZ)))
		oom();
	memset(o->v + o->n * HEXOID_MAX_RAWSZ, 0, HEXOID_MAX_RAWSZ);
	memcpy(o->v + o->n++ * HEXOID_MAX_RAWSZ, oid, rawsz);
}

static int cmp_oid(const void *a, const void *b)
{
	return memcmp(a, b, HEXOID_MAX_RAWSZ);
}

static void oids_sort(struct oids *o)
{
	if (o->n)
		qsort(o->v, o->n, HEXOID_MAX_RAWSZ, cmp_oid);
}

/* Whether a sorted set holds oid (zero-padded). */
static int oids_has(const struct oids *o, const unsigned char *oid)
{
	return o->n && bsearch(oid, o->v, o->n, HEXOID_MAX_RAWSZ, cmp_oid);
}

/*
 * The pushed objects' IDs: the quarantine's pack indexes, mapped, and its loose objects'
 * names. A commit among them is checked by the scan of the pushed objects; the walk only
 * notes that it reached it.
 */
static void quarantine_load(struct gate *g)
{
	size_t qlen = strlen(g->quarantine);
	char *path = malloc(qlen + 300);
	DIR *d;
	struct dirent *de;

	if (!path)
		oom();
	sprintf(path, "%s/pack", g->quarantine);
	if ((d = opendir(path))) {
		while ((de = readdir(d))) {
			size_t len = strlen(de->d_name);
			struct hexoid_idx_error e;
			struct cli_file *f;
			if (len < 4 || len > 250 || strcmp(de->d_name + len - 4, ".idx"))
				continue;
			if (!(g->qidx_n & (g->qidx_n - 1)) &&
			    (!(g->qfile = realloc(g->qfile, (g->qidx_n ? 2 * g->qidx_n : 1) * sizeof(*g->qfile))) ||
			     !(g->qidx = realloc(g->qidx, (g->qidx_n ? 2 * g->qidx_n : 1) * sizeof(*g->qidx)))))
				oom();
			sprintf(path, "%s/pack/%s", g->quarantine, de->d_name);
			f = &g->qfile[g->qidx_n];
			if (cli_load(path, f)) {
				g->trouble = 1;
				continue;
			}
			if (hexoid_idx_open(&g->qidx[g->qidx_n], f->data, f->size, g->algo, &e) != HEXOID_IDX_OK) {
				say_error("pushed %s: %s\n", de->d_name, e.message);
				cli_unload(f);
				g->trouble = 1;
				continue;
			}
			g->qidx_n++;
		}
		closedir(d);
	}
	/* Loose objects: xx/yyyy..., in either case as Git 2.x reads them. */
	if ((d = opendir(g->quarantine))) {
		while ((de = readdir(d))) {
			unsigned char oid[HEXOID_MAX_RAWSZ];
			DIR *sub;
			struct dirent *se;
			if (strlen(de->d_name) != 2 || hexoid_hex_to_bytes(oid, de->d_name, 1, HEXOID_MIXED))
				continue;
			sprintf(path, "%s/%s", g->quarantine, de->d_name);
			if (!(sub = opendir(path)))
				continue;
			while ((se = readdir(sub)))
				if (strlen(se->d_name) == g->hexsz - 2 &&
				    !hexoid_hex_to_bytes(oid + 1, se->d_name, g->rawsz - 1, HEXOID_MIXED))
					oids_add(&g->qloose, oid, g->rawsz);
			closedir(sub);
		}
		closedir(d);
	}
	oids_sort(&g->qloose);
	free(path);
}

static int pushed(const struct gate *g, const unsigned char *oid)
{
	unsigned char key[HEXOID_MAX_RAWSZ] = { 0 };

	for (size_t i = 0; i < g->qidx_n; i++)
		if (hexoid_idx_find(&g->qidx[i], oid) >= 0)
			return 1;
	memcpy(key, oid, g->rawsz);
	return oids_has(&g->qloose, key);
}

/* Feeds a child's stdin from a thread while this one reads its stdout. */
struct feeder {
	struct gate *g;
	FILE *to;
	const struct oids *ids;   /* as hex lines, or */
	const int *refs;          /* rev-list's tips and exclusions */
	size_t nrefs;
	int failed;
};

static void *feed(void *p)
{
	struct feeder *f = p;
	struct gate *g = f->g;
	char hex[HEXOID_MAX_HEXSZ + 2];

	if (f->ids)
		for (size_t i = 0; i < f->ids->n && !f->failed; i++) {
			hexoid_encode(hex, g->hexsz, f->ids->v + i * HEXOID_MAX_RAWSZ, 1, g->algo);
			hex[g->hexsz] = '\n';
			f->failed = fwrite(hex, 1, g->hexsz + 1, f->to) != g->hexsz + 1;
		}
	for (size_t i = 0; i < f->nrefs && !f->failed; i++) {
		const struct update *u = &g->u[f->refs[i]];
		f->failed = fprintf(f->to, "%s\n", u->new) < 0 ||
			    (strspn(u->old, "0") != g->hexsz && fprintf(f->to, "^%s\n", u->old) < 0);
	}
	f->failed |= fclose(f->to) != 0;
	return NULL;
}

/* Run git (argv) with a thread feeding its stdin from f; *out reads its stdout. Returns
 * the child, or -1 (said, and the gate in trouble) when git cannot be run. */
static pid_t start_fed(struct gate *g, char **argv, struct feeder *f, pthread_t *thread, FILE **out)
{
	int to, from;
	pid_t pid = spawn(argv, &to, &from);

	if (pid < 0) {
		say_error("cannot run git %s: %s\n", argv[1], strerror(errno));
		g->trouble = 1;
		return -1;
	}
	if (!(f->to = fdopen(to, "w")) || !(*out = fdopen(from, "r")))
		oom();
	if (pthread_create(thread, NULL, feed, f)) {
		say_error("cannot start a thread\n");
		exit(EXIT_TROUBLE);
	}
	return pid;
}

/* Check the commits of `ids`, none of them pushed: each read through cat-file --batch
 * (fed from a thread, so the questions never wait for the answers). */
static void check_stored(struct gate *g, int who, const struct oids *ids)
{
	char *argv[] = { "git", "cat-file", "--batch", NULL };
	struct feeder f = { g, NULL, ids, NULL, 0, 0 };
	pthread_t thread;
	FILE *out;
	pid_t pid;

	if (!ids->n)
		return;
	if ((pid = start_fed(g, argv, &f, &thread, &out)) < 0)
		return;
	for (size_t i = 0; i < ids->n; i++) {
		enum hexoid_object_type type;
		unsigned char oid[HEXOID_MAX_RAWSZ];
		char *text, hex[HEXOID_MAX_HEXSZ + 1];
		size_t len;
		int rc;

		hexoid_encode(hex, g->hexsz, ids->v + i * HEXOID_MAX_RAWSZ, 1, g->algo);
		hex[g->hexsz] = 0;
		rc = cat_read(g, out, hex, &type, &text, &len, oid);
		if (rc > 0) {
			say_error("commit %s is missing\n", hex);
			g->trouble = 1;
		}
		if (rc)
			break;
		if (type == HEXOID_OBJ_COMMIT)
			check_text(g, who, oid, type, text, len);
		free(text);
	}
	fclose(out);
	pthread_join(thread, NULL);
	if (reap(pid, "git cat-file") != 0 || f.failed) {
		say_error("git cat-file --batch failed\n");
		g->trouble = 1;
	}
}

/* A finding reached from one of several new refs: which one is found at the end. */
#define REF_PENDING (-2)

/*
 * Every commit the refs `refs` now reach that their old values did not: git rev-list
 * with each new value and each old one excluded (several refs together only when none
 * has an old value, so the walk is exactly the union of theirs). Pushed commits go to
 * `walked`, for the scan's findings to be named by ref; the others are read and checked.
 */
static void walk(struct gate *g, const int *refs, size_t nrefs, struct oids *walked)
{
	char *argv[] = { "git", "rev-list", "--stdin", NULL };
	struct feeder f = { g, NULL, NULL, refs, nrefs, 0 };
	struct oids stored = { NULL, 0, 0 };
	char line[HEXOID_MAX_HEXSZ + 8];
	pthread_t thread;
	FILE *out;
	pid_t pid;

	if ((pid = start_fed(g, argv, &f, &thread, &out)) < 0)
		return;
	while (fgets(line, sizeof(line), out)) {
		unsigned char oid[HEXOID_MAX_RAWSZ];
		if (strlen(line) != g->hexsz + 1 || line[g->hexsz] != '\n' ||
		    hexoid_decode(oid, line, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL) != HEXOID_OK) {
			say_error("git rev-list: unexpected output\n");
			g->trouble = 1;
			break;
		}
		oids_add(pushed(g, oid) ? walked : &stored, oid, g->rawsz);
	}
	fclose(out);
	pthread_join(thread, NULL);
	if (reap(pid, "git rev-list") != 0 || f.failed) {
		say_error("%s: git rev-list failed\n", g->u[refs[0]].ref);
		g->trouble = 1;
	}
	oids_sort(walked);
	check_stored(g, nrefs == 1 ? refs[0] : REF_PENDING, &stored);
	free(stored.v);
}

/*
 * Name a ref for each finding reached from one of several new refs: git log --source
 * tells, for each commit, the first tip given that reaches it. Only when something was
 * found: the walk itself does not need it.
 */
static void name_pending(struct gate *g, const int *refs, size_t nrefs)
{
	char *argv[] = { "git", "log", "--source", "--format=%H %S", "--stdin", NULL };
	struct recs *lists[] = { &g->walk, &g->pushed };
	struct feeder f = { g, NULL, NULL, refs, nrefs, 0 };
	struct oids need = { NULL, 0, 0 };
	char *line = NULL;
	size_t cap = 0, i, l;
	ssize_t len;
	int *named, to, from;
	pthread_t thread;
	FILE *out;
	pid_t pid;

	for (l = 0; l < 2; l++)
		for (i = 0; i < lists[l]->n; i++)
			if (lists[l]->v[i].ref == REF_PENDING)
				oids_add(&need, lists[l]->v[i].oid, g->rawsz);
	if (!need.n)
		return;
	oids_sort(&need);
	if (!(named = malloc(need.n * sizeof(*named))))
		oom();
	for (i = 0; i < need.n; i++)
		named[i] = -1;
	if ((pid = spawn(argv, &to, &from)) < 0) {
		say_error("cannot run git log: %s\n", strerror(errno));
		g->trouble = 1;
		goto out;
	}
	if (!(f.to = fdopen(to, "w")) || !(out = fdopen(from, "r")))
		oom();
	if (pthread_create(&thread, NULL, feed, &f)) {
		say_error("cannot start a thread\n");
		exit(EXIT_TROUBLE);
	}
	while ((len = getline(&line, &cap, out)) > 0) {
		unsigned char key[HEXOID_MAX_RAWSZ] = { 0 };
		const unsigned char *at;
		if ((size_t)len < g->hexsz + 2 || line[g->hexsz] != ' ' ||
		    hexoid_decode(key, line, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL) != HEXOID_OK)
			continue;
		if (!(at = bsearch(key, need.v, need.n, HEXOID_MAX_RAWSZ, cmp_oid)))
			continue;
		line[len - 1] = 0;
		for (i = 0; i < nrefs; i++)
			if (!strcmp(g->u[refs[i]].new, line + g->hexsz + 1))
				break;
		named[(at - need.v) / HEXOID_MAX_RAWSZ] = i < nrefs ? refs[i] : -1;
	}
	free(line);
	fclose(out);
	pthread_join(thread, NULL);
	if (reap(pid, "git log") != 0 || f.failed) {
		say_error("git log --source failed\n");
		g->trouble = 1;
	}
out:
	for (l = 0; l < 2; l++)
		for (i = 0; i < lists[l]->n; i++) {
			struct rec *r = &lists[l]->v[i];
			unsigned char key[HEXOID_MAX_RAWSZ] = { 0 };
			const unsigned char *at;
			if (r->ref != REF_PENDING)
				continue;
			memcpy(key, r->oid, g->rawsz);
			at = bsearch(key, need.v, need.n, HEXOID_MAX_RAWSZ, cmp_oid);
			r->ref = at ? named[(at - need.v) / HEXOID_MAX_RAWSZ] : -1;
			/* Not named (it cannot be: the walk reached it): the first of them. */
			if (r->ref < 0)
				r->ref = refs[0];
		}
	free(named);
	free(need.v);
}

/* --- the pushed objects ------------------------------------------------------------ */

struct pushed_scan {
	struct gate *g;
	pthread_t thread;
	int started;
	int trouble;              /* its own: the walk sets g->trouble meanwhile */
};

static int on_pushed(void *ctx, const struct hexoid_finding *f)
{
	struct gate *g = ctx;
	struct rec *r = rec_add(&g->pushed);
	const char *slash = strrchr(f->path, '/');

	r->ref = -1;
	r->git3 = f->git3;
	r->has_oid = f->has_oid;
	memcpy(r->oid, f->oid, sizeof(r->oid));
	r->type = f->type;
	if (f->header)
		snprintf(r->header, sizeof(r->header), "%s", f->header);
	r->line = f->line;
	r->column = f->column;
	r->offset = f->offset;
	/* The pack's or loose object's name: the quarantine folder is gone after the push. */
	if (!(r->path = strdup(slash ? slash + 1 : f->path)))
		oom();
	snprintf(r->message, sizeof(r->message), "%s", f->message);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void *scan_pushed(void *p)
{
	struct pushed_scan *ps = p;
	struct gate *g = ps->g;
	struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	o.algo = g->algo;
	o.jobs = (unsigned)g->cfg.jobs;
	o.on_finding = on_pushed;
	o.ctx = g;
	char err[512], *packdir;
	size_t qlen = strlen(g->quarantine), n = 0, cap = 0;
	char **names = NULL;
	DIR *d;
	struct dirent *de;

	if (hexoid_loose_scan(g->quarantine, &o, &st, err, sizeof(err)) < 0) {
		say_error("pushed objects: %s\n", err);
		ps->trouble = 1;
	}
	if (!(packdir = malloc(qlen + 6)))
		oom();
	memcpy(packdir, g->quarantine, qlen);
	memcpy(packdir + qlen, "/pack", 6);
	if (!(d = opendir(packdir))) {
		if (errno != ENOENT) {
			say_error("pushed packs: %s: %s\n", packdir, strerror(errno));
			ps->trouble = 1;
		}
		free(packdir);
		return NULL;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 5, ".pack"))
			continue;
		if (n == cap && !(names = realloc(names, (cap = cap ? 2 * cap : 4) * sizeof(*names))))
			oom();
		if (!(names[n] = malloc(qlen + 7 + len)))
			oom();
		sprintf(names[n++], "%s/%s", packdir, de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (hexoid_pack_scan(names[i], &o, &st, err, sizeof(err)) < 0) {
			say_error("pushed pack %s\n", err);
			ps->trouble = 1;
		}
		free(names[i]);
	}
	free(names);
	free(packdir);
	return NULL;
}

/* --- the report -------------------------------------------------------------------- */

/* Does this finding reject the push? */
static int rejects(const struct gate *g, const struct rec *r)
{
	return !g->cfg.report_only && !(g->cfg.mixed && r->git3);
}

static void print_rec(const struct gate *g, const struct rec *r)
{
	char hex[HEXOID_MAX_HEXSZ + 1] = "";
	const char *cls = r->git3 ? "git3" : "error";
	const char *type = hexoid_object_type_name(r->type);
	const char *warn = rejects(g, r) ? "" : "warning: ";

	if (r->has_oid) {
		hexoid_encode(hex, g->hexsz, r->oid, 1, g->algo);
		hex[g->hexsz] = 0;
	}
	if (r->ref >= 0)
		fprintf(stderr, SAY "%s%s: ", warn, g->u[r->ref].ref);
	else
		fprintf(stderr, SAY "%spushed %s: ", warn, r->path);
	if (r->header[0])
		fprintf(stderr, "%s %s: %s header, line %u, column %u: %s: %s\n", type, hex,
			r->header, r->line, r->column, cls, r->message);
	else if (r->offset != HEXOID_NO_OFFSET && r->has_oid)
		fprintf(stderr, "offset %llu: %s: %s (object %s)\n", (unsigned long long)r->offset,
			cls, r->message, hex);
	else if (r->offset != HEXOID_NO_OFFSET)
		fprintf(stderr, "offset %llu: %s: %s\n", (unsigned long long)r->offset, cls,
			r->message);
	else if (r->has_oid && type)
		fprintf(stderr, "%s %s: %s: %s\n", type, hex, cls, r->message);
	else
		fprintf(stderr, "%s: %s\n", cls, r->message);
	if (json_lines) {
		struct sbuf b = { 0 };
		sb_puts(&b, "{\"schema\": 1, \"type\": \"finding\", \"ref\": ");
		sb_json_string(&b, r->ref >= 0 ? g->u[r->ref].ref : NULL);
		sb_puts(&b, ", \"pushed\": ");
		sb_json_string(&b, r->ref >= 0 ? NULL : r->path);
		sb_puts(&b, ", \"object\": ");
		r->has_oid ? sb_printf(&b, "\"%s\"", hex) : sb_puts(&b, "null");
		sb_puts(&b, ", \"object_type\": ");
		sb_json_string(&b, r->has_oid ? type : NULL);
		sb_puts(&b, ", \"header\": ");
		sb_json_string(&b, r->header[0] ? r->header : NULL);
		r->header[0] ? sb_printf(&b, ", \"line\": %u, \"column\": %u", r->line, r->column)
			     : sb_puts(&b, ", \"line\": null, \"column\": null");
		if (r->offset != HEXOID_NO_OFFSET)
			sb_printf(&b, ", \"offset\": %llu", (unsigned long long)r->offset);
		else
			sb_puts(&b, ", \"offset\": null");
		sb_printf(&b, ", \"class\": \"%s\", \"rejects\": %s, \"message\": ", cls,
			  rejects(g, r) ? "true" : "false");
		sb_json_string(&b, r->message);
		sb_puts(&b, "}\n");
		json_line(&b);
	}
}

/*
 * Print everything found, by ref in input order, then the pushed objects no pushed ref
 * reaches (the update hook leaves those to pre-receive, but not a damaged pack); return
 * how many findings reject the push.
 */
static unsigned long report(struct gate *g)
{
	struct oids seen = { NULL, 0, 0 };
	unsigned long nreject = 0, nwarn = 0;
	struct recs *lists[] = { &g->walk, &g->pushed };
	size_t i, l;
	int ref;

	/* A tag in a ref's chain is read by the walk and, when pushed, scanned too: the
	 * walk's finding is the one shown. */
	for (i = 0; i < g->walk.n; i++)
		oids_add(&seen, g->walk.v[i].oid, g->rawsz);
	oids_sort(&seen);
	/* ref == nu: the findings no pushed ref reaches, last. */
	for (ref = 0; ref <= (int)g->nu; ref++)
		for (l = 0; l < 2; l++)
			for (i = 0; i < lists[l]->n; i++) {
				struct rec *r = &lists[l]->v[i];
				unsigned char key[HEXOID_MAX_RAWSZ] = { 0 };
				if (ref < (int)g->nu ? r->ref != ref : r->ref >= 0)
					continue;
				memcpy(key, r->oid, g->rawsz);
				if (l == 1 && r->has_oid && r->header[0] && oids_has(&seen, key))
					continue;
				if (r->ref < 0 && g->update_hook && r->has_oid)
					continue;
				print_rec(g, r);
				rejects(g, r) ? nreject++ : nwarn++;
			}
	if (nwarn && !nreject)
		fprintf(stderr, SAY "push accepted with %lu warning%s\n", nwarn, nwarn == 1 ? "" : "s");
	free(seen.v);
	return nreject;
}

/* --- input ------------------------------------------------------------------------- */

static int is_id(struct gate *g, const char *s, size_t len)
{
	enum hexoid_algo algo = len == 40 ? HEXOID_SHA1 : len == 64 ? HEXOID_SHA256 : 0;

	if (!algo || hexoid_decode(NULL, s, 1, len, algo, HEXOID_LOWER, NULL) != HEXOID_OK)
		return 0;
	if (!g->algo) {
		g->algo = algo;
		g->hexsz = len;
		g->rawsz = hexoid_rawsz(algo);
	}
	return g->algo == algo;
}

static int add_update(struct gate *g, const char *old, size_t oldlen, const char *new,
		      size_t newlen, const char *ref, size_t reflen)
{
	struct update *u;

	if (!is_id(g, old, oldlen) || !is_id(g, new, newlen) || !reflen)
		return -1;
	if (!(g->nu & (g->nu - 1)) && !(g->u = realloc(g->u, (g->nu ? 2 * g->nu : 1) * sizeof(*u))))
		oom();
	u = &g->u[g->nu++];
	memcpy(u->old, old, oldlen);
	u->old[oldlen] = 0;
	memcpy(u->new, new, newlen);
	u->new[newlen] = 0;
	if (!(u->ref = strndup(ref, reflen)))
		oom();
	return 0;
}

/* git's "<old> SP <new> SP <ref> LF" lines. */
static int read_updates(struct gate *g)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long long nr = 0;
	int rc = 0;

	while ((len = getline(&line, &cap, stdin)) > 0) {
		char *a = line, *b, *c;
		nr++;
		if (line[len - 1] == '\n')
			line[--len] = 0;
		b = strchr(a, ' ');
		c = b ? strchr(b + 1, ' ') : NULL;
		if (!c || add_update(g, a, (size_t)(b - a), b + 1, (size_t)(c - b - 1), c + 1,
				     strlen(c + 1))) {
			say_error("<stdin>:%llu: error: expected '<old> <new> <ref>' with "
				"40 or 64 lowercase hex digits, as git sends them\n", nr);
			rc = -1;
			break;
		}
	}
	if (ferror(stdin)) {
		say_error("reading the ref updates: %s\n", strerror(errno));
		rc = -1;
	}
	free(line);
	return rc;
}

/* --- the whole check, in a child --------------------------------------------------- */

static int run_check(struct gate *g, int update_hook)
{
	struct pushed_scan ps = { g, 0, 0, 0 };
	struct oids *walked;
	unsigned long nreject;
	int *fresh, *one;
	size_t nfresh = 0, i, k;

	/* Replacement objects would hide the stored ones from rev-list and cat-file. */
	setenv("GIT_NO_REPLACE_OBJECTS", "1", 1);
	/* A git that dies is reported by its exit status, not by killing this process. */
	signal(SIGPIPE, SIG_IGN);
	g->update_hook = update_hook;
	g->quarantine = getenv("GIT_QUARANTINE_PATH");
	if (g->quarantine && !*g->quarantine)
		g->quarantine = NULL;
	/* The pushed objects are scanned in a thread while git walks the refs beside it. */
	if (g->quarantine) {
		ps.started = pthread_create(&ps.thread, NULL, scan_pushed, &ps) == 0;
		if (!ps.started)
			scan_pushed(&ps);
		quarantine_load(g);
	}
	/* walked[i]: the pushed commits ref i reaches; walked[nu]: those the new refs do. */
	if (!(walked = calloc(g->nu + 1, sizeof(*walked))) ||
	    !(fresh = malloc(g->nu * sizeof(*fresh))) || !(one = malloc(sizeof(*one))))
		oom();
	/* The walks first: rev-list takes the longest, and peels tags itself. */
	for (i = 0; i < g->nu && !g->trouble; i++) {
		if (strspn(g->u[i].new, "0") == g->hexsz)
			continue; /* a deletion */
		if (strspn(g->u[i].old, "0") == g->hexsz) {
			fresh[nfresh++] = (int)i;
		} else {
			*one = (int)i;
			walk(g, one, 1, &walked[i]);
		}
	}
	/* New refs have nothing to exclude: one walk covers them all. */
	if (nfresh && !g->trouble)
		walk(g, fresh, nfresh, &walked[g->nu]);
	/* Then the tags each ref points at, themselves. */
	for (i = 0; i < g->nu && !g->trouble; i++)
		if (strspn(g->u[i].new, "0") != g->hexsz)
			check_tags(g, (int)i, g->u[i].new);
	cat_stop(g);
	if (ps.started)
		pthread_join(ps.thread, NULL);
	g->trouble |= ps.trouble;

	/* A pushed commit's finding belongs to a ref whose walk reached it. */
	for (k = 0; k < g->pushed.n; k++) {
		struct rec *r = &g->pushed.v[k];
		unsigned char key[HEXOID_MAX_RAWSZ] = { 0 };
		if (!r->has_oid)
			continue;
		memcpy(key, r->oid, g->rawsz);
		for (i = 0; i < g->nu && r->ref < 0; i++)
			if (oids_has(&walked[i], key))
				r->ref = (int)i;
		if (r->ref < 0 && oids_has(&walked[g->nu], key))
			r->ref = nfresh == 1 ? fresh[0] : REF_PENDING;
	}
	if (nfresh > 1 && !g->trouble)
		name_pending(g, fresh, nfresh);
	nreject = report(g);
	for (i = 0; i <= g->nu; i++)
		free(walked[i].v);
	free(walked);
	free(fresh);
	free(one);
	if (g->trouble) {
		fprintf(stderr, SAY "%s: the check could not be completed (see above)\n",
			g->cfg.report_only ? "warning: push accepted unchecked" : "push rejected");
		return g->cfg.report_only ? EXIT_VALID : EXIT_TROUBLE;
	}
	if (nreject) {
		fprintf(stderr, SAY "push rejected: %lu object ID%s Git 3.0 will not read\n",
			nreject, nreject == 1 ? "" : "s");
		return EXIT_INVALID;
	}
	return EXIT_VALID;
}

static volatile sig_atomic_t timed_out;
static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

/*
 * Run the check in a child and turn whatever becomes of it into a verdict. The child
 * sends its verdict through a pipe as its last act: an exit status alone could come from
 * anything that ends it early (a sanitizer's report on a crash, exit() deep in a library).
 */
static int supervise(struct gate *g, int update_hook)
{
	struct sigaction sa;
	unsigned char verdict;
	int status, vp[2];
	pid_t pid;

	fflush(NULL);
	/* Close-on-exec: git's processes must not hold the verdict's pipe open. */
	if (pipe(vp) || fcntl(vp[0], F_SETFD, FD_CLOEXEC) || fcntl(vp[1], F_SETFD, FD_CLOEXEC) ||
	    (pid = fork()) < 0) {
		say_error("cannot start the check: %s\n", strerror(errno));
		return g->cfg.report_only ? EXIT_VALID : EXIT_TROUBLE;
	}
	if (pid == 0) {
		/* A group of its own, so that the time limit ends git's processes too. */
		setpgid(0, 0);
		close(vp[0]);
		verdict = (unsigned char)run_check(g, update_hook);
		fflush(NULL);
		if (write(vp[1], &verdict, 1) != 1)
			_exit(EXIT_TROUBLE);
		_exit(verdict);
	}
	close(vp[1]);
	setpgid(pid, pid);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	if (g->cfg.timeout)
		alarm((unsigned)g->cfg.timeout);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			say_error("waiting for the check: %s\n", strerror(errno));
			kill(-pid, SIGKILL);
			return g->cfg.report_only ? EXIT_VALID : EXIT_TROUBLE;
		}
		if (timed_out) {
			kill(-pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			if (g->cfg.timeout_accept || g->cfg.report_only) {
				say_error("warning: push accepted unchecked: the check took "
					"longer than %lu seconds (hexoid.timeout)\n", g->cfg.timeout);
				return EXIT_VALID;
			}
			say_error("push rejected: the check took longer than %lu seconds "
				"(hexoid.timeout; hexoid.onTimeout=accept lets such pushes in)\n",
				g->cfg.timeout);
			return EXIT_TROUBLE;
		}
	}
	alarm(0);
	if (read(vp[0], &verdict, 1) == 1 && verdict <= EXIT_TROUBLE) {
		close(vp[0]);
		return verdict;
	}
	close(vp[0]);
	/* Whatever the child left running goes with it. */
	kill(-pid, SIGKILL);
	if (WIFSIGNALED(status))
		say_error("internal error: the check died of signal %d\n", WTERMSIG(status));
	else
		say_error("internal error: the check ended (exit status %d) without a "
			"verdict\n", WEXITSTATUS(status));
	if (g->cfg.report_only) {
		fputs(SAY "warning: push accepted unchecked (hexoid.reportOnly)\n", stderr);
		return EXIT_VALID;
	}
	fputs(SAY "push rejected: the check could not be completed\n", stderr);
	return EXIT_TROUBLE;
}

static int cmd_hook(int argc, char **argv, int update_hook)
{
	static const struct option longopts[] = {
		{ "mixed", no_argument, NULL, 'm' },
		{ "report-only", no_argument, NULL, 'r' },
		{ "timeout", required_argument, NULL, 't' },
		{ "on-timeout", required_argument, NULL, 'T' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *usage = update_hook ? usage_update : usage_pre_receive;
	struct gate g;
	struct config flags;
	int set_mixed = 0, set_report = 0, set_timeout = 0, set_action = 0, set_jobs = 0, c, rc;

	memset(&g, 0, sizeof(g));
	memset(&flags, 0, sizeof(flags));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+hj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': flags.mixed = set_mixed = 1; break;
		case 'r': flags.report_only = set_report = 1; break;
		case 'J': json_lines = 1; break;
		case 't':
			if (parse_count(optarg, &flags.timeout))
				goto bad;
			set_timeout = 1;
			break;
		case 'T':
			if (parse_timeout_action(optarg, &flags.timeout_accept))
				goto bad;
			set_action = 1;
			break;
		case 'j':
			if (parse_jobs(optarg, &flags.jobs))
				goto bad;
			set_jobs = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_VALID;
		default:
			fprintf(stderr, SAY "unknown option '%s'\n\n%s", argv[optind - 1], usage);
			return EXIT_TROUBLE;
		}
	}
	if (update_hook ? argc - optind != 3 : argc != optind) {
		fprintf(stderr, SAY "%s\n\n%s", update_hook ? "update takes REF OLD NEW"
						 : "pre-receive takes no arguments", usage);
		return EXIT_TROUBLE;
	}
	g.cfg.jobs = 1;
	if (read_config(&g.cfg)) {
		say_error("push rejected: the check could not be configured\n");
		return EXIT_TROUBLE;
	}
	if (set_mixed) g.cfg.mixed = 1;
	if (set_report) g.cfg.report_only = 1;
	if (set_timeout) g.cfg.timeout = flags.timeout;
	if (set_action) g.cfg.timeout_accept = flags.timeout_accept;
	if (set_jobs) g.cfg.jobs = flags.jobs;

	if (update_hook) {
		const char *ref = argv[optind], *old = argv[optind + 1], *new = argv[optind + 2];
		if (add_update(&g, old, strlen(old), new, strlen(new), ref, strlen(ref))) {
			say_error("update: expected REF OLD NEW with 40 or 64 lowercase hex "
				"digits\n");
			rc = EXIT_TROUBLE;
			goto out;
		}
	} else if (read_updates(&g)) {
		rc = EXIT_TROUBLE;
		goto out;
	}
	rc = g.nu ? supervise(&g, update_hook) : EXIT_VALID;
	goto done;
out:
	/* Input git would never send: reject, unless only reporting. */
	fprintf(stderr, SAY "%s\n", g.cfg.report_only ? "warning: push accepted unchecked"
						     : "push rejected");
	if (g.cfg.report_only)
		rc = EXIT_VALID;
done:
	if (json_lines) {
		printf("{\"schema\": 1, \"type\": \"run\", \"command\": \"%s\", \"refs\": %zu, "
		       "\"verdict\": \"%s\", \"exit\": %d}\n", update_hook ? "update" : "pre-receive",
		       g.nu, rc ? "reject" : "accept", rc);
		fflush(stdout);
	}
	for (size_t i = 0; i < g.nu; i++)
		free(g.u[i].ref);
	free(g.u);
	return rc;
bad:
	fprintf(stderr, SAY "bad value '%s' for %s\n\n%s", optarg, argv[optind - 1], usage);
	return EXIT_TROUBLE;
}

int cmd_pre_receive(int argc, char **argv)
{
	return cmd_hook(argc, argv, 0);
}

int cmd_update(int argc, char **argv)
{
	return cmd_hook(argc, argv, 1);
}
