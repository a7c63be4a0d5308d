/*
 * The push gate as a library call (hexoid_gate.h), on repositories made by the installed
 * git in SHA-1 and SHA-256: a bare server holding some history, and quarantines made as
 * receive-pack makes them (a pack of what the push brings). A clean push is accepted; new
 * commits with an uppercase tree or parent header are rejected, each finding naming its
 * ref, header, line and column; a ref moved onto a bad commit the server already has is
 * rejected through the walk alone; report-only and mixed accept with warnings; a git
 * that hangs meets the time limit (both ways) and a cancel; the options' size, bad
 * updates, a callback that stops, every callback in the calling thread.
 * SPDX-License-Identifier: MIT
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hexoid_gate.h"
#include "test.h"

#define ZERO64 "0000000000000000000000000000000000000000000000000000000000000000"

struct repo {
	char dir[64];
	int made;
	enum hexoid_algo algo;
	char srv[128], q1[128], q2[128], q3[128], slowgit[128];
	/* base: the server's main; head: a clean commit on it; bt, bp: commits with an
	 * uppercase tree and parent header on head; tree: head's tree; gc, gc2: clean
	 * commits on bp. */
	char base[72], head[72], tree[72], bt[72], bp[72], gc[72], gc2[72], zero[72];
};

static struct repo repos[2];

static void read_id(struct repo *r, const char *name, char *out)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	out[0] = 0;
	if ((f = fopen(path, "r"))) {
		if (!fgets(out, 72, f))
			out[0] = 0;
		out[strcspn(out, "\n")] = 0;
		fclose(f);
	}
}

static struct repo *repo(enum hexoid_algo algo)
{
	struct repo *r = &repos[algo == HEXOID_SHA256];
	char cmd[4096];

	if (r->made)
		return r->made > 0 ? r : NULL;
	r->made = -1;
	r->algo = algo;
	strcpy(r->dir, "/tmp/hexoid-gate-api-XXXXXX");
	if (!mkdtemp(r->dir))
		return NULL;
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.com "
		 "GIT_COMMITTER_NAME=C GIT_COMMITTER_EMAIL=c@example.com "
		 "GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000'; "
		 "F=%s; git init -q --bare --object-format=$F srv.git; "
		 "git -c init.defaultBranch=main init -q --object-format=$F cl; cd cl; "
		 "for i in 1 2 3; do echo $i >f; git add f; git commit -q -m $i; done; "
		 "git push -q ../srv.git main 2>/dev/null; "
		 "echo 4 >f; git commit -q -am 4; "
		 "base=$(git rev-parse HEAD~1) head=$(git rev-parse HEAD) tree=$(git rev-parse 'HEAD^{tree}'); "
		 "up() { echo $1 | tr a-f A-F; }; id='A <a@example.com> 1700000000 +0000'; "
		 "bt=$(printf 'tree %%s\\nparent %%s\\nauthor %%s\\ncommitter %%s\\n\\nbad tree\\n' "
		 "  $(up $tree) $head \"$id\" \"$id\" | git hash-object -t commit --literally -w --stdin); "
		 "bp=$(printf 'tree %%s\\nparent %%s\\nauthor %%s\\ncommitter %%s\\n\\nbad parent\\n' "
		 "  $tree $(up $head) \"$id\" \"$id\" | git hash-object -t commit --literally -w --stdin); "
		 "gc=$(printf 'tree %%s\\nparent %%s\\nauthor %%s\\ncommitter %%s\\n\\ngood on bad\\n' "
		 "  $tree $bp \"$id\" \"$id\" | git hash-object -t commit --literally -w --stdin); "
		 "gc2=$(printf 'tree %%s\\nparent %%s\\nauthor %%s\\ncommitter %%s\\n\\ngood on bad, again\\n' "
		 "  $tree $bp \"$id\" \"$id\" | git hash-object -t commit --literally -w --stdin); "
		 "for v in base head tree bt bp gc gc2; do eval echo \\$$v >../$v; done; "
		 "mkdir -p ../q1/pack ../q2/pack ../q3/pack; "
		 "printf '%%s\\n^%%s\\n' $head $base | git pack-objects -q --revs ../q1/pack/pack >/dev/null; "
		 "printf '%%s\\n%%s\\n^%%s\\n' $bt $bp $base | git pack-objects -q --revs ../q2/pack/pack >/dev/null; "
		 "printf '%%s\\n%%s\\n%%s\\n^%%s\\n' $gc $gc2 $head $base | git pack-objects -q --revs ../q3/pack/pack >/dev/null; "
		 "git -C ../srv.git fetch -q ../cl $bt:refs/legacy/t 2>/dev/null; "
		 "printf '#!/bin/sh\\nif [ \"$1\" = rev-list ]; then exec sleep 30; fi\\nexec git \"$@\"\\n' "
		 "  >../slowgit; chmod +x ../slowgit",
		 r->dir, algo == HEXOID_SHA1 ? "sha1" : "sha256");
	if (system(cmd) != 0)
		return NULL;
	strcat(strcpy(r->srv, r->dir), "/srv.git");
	strcat(strcpy(r->q1, r->dir), "/q1");
	strcat(strcpy(r->q2, r->dir), "/q2");
	strcat(strcpy(r->q3, r->dir), "/q3");
	strcat(strcpy(r->slowgit, r->dir), "/slowgit");
	read_id(r, "base", r->base);
	read_id(r, "head", r->head);
	read_id(r, "tree", r->tree);
	read_id(r, "bt", r->bt);
	read_id(r, "bp", r->bp);
	read_id(r, "gc", r->gc);
	read_id(r, "gc2", r->gc2);
	snprintf(r->zero, sizeof(r->zero), "%.*s", (int)hexoid_hexsz(algo), ZERO64);
	if (strlen(r->bp) != hexoid_hexsz(algo) || strlen(r->gc) != hexoid_hexsz(algo) ||
	    strlen(r->gc2) != hexoid_hexsz(algo))
		return NULL;
	r->made = 1;
	return r;
}

struct found {
	pthread_t thread;
	int wrong_thread;
	unsigned n, errors, stop_after;
	struct {
		char ref[32], header[16];
		unsigned char oid[HEXOID_MAX_RAWSZ];
		enum hexoid_code code;
		enum hexoid_finding_class cls;
		int rejects, pushed;
		unsigned line, column;
	} f[8];
	char error[256];
};

static int on_finding(void *ctx, const struct hexoid_gate_finding *f)
{
	struct found *s = ctx;

	if (!pthread_equal(pthread_self(), s->thread))
		s->wrong_thread = 1;
	if (s->n < 8) {
		snprintf(s->f[s->n].ref, sizeof(s->f[0].ref), "%s", f->ref ? f->ref : "");
		snprintf(s->f[s->n].header, sizeof(s->f[0].header), "%s", f->header ? f->header : "");
		memcpy(s->f[s->n].oid, f->oid, sizeof(f->oid));
		s->f[s->n].code = f->code;
		s->f[s->n].cls = f->cls;
		s->f[s->n].rejects = f->rejects;
		s->f[s->n].pushed = f->pushed != NULL;
		s->f[s->n].line = f->line;
		s->f[s->n].column = f->column;
	}
	s->n++;
	return s->stop_after && s->n >= s->stop_after;
}

static int on_error(void *ctx, const char *message)
{
	struct found *s = ctx;

	if (!pthread_equal(pthread_self(), s->thread))
		s->wrong_thread = 1;
	if (!s->errors++)
		snprintf(s->error, sizeof(s->error), "%s", message);
	return 0;
}

static void options(struct hexoid_gate_options *o, struct found *s, const struct repo *r,
		    const char *quarantine)
{
	memset(s, 0, sizeof(*s));
	s->thread = pthread_self();
	hexoid_gate_options_init(o, sizeof(*o));
	o->git_dir = r->srv;
	o->quarantine = quarantine;
	o->on_finding = on_finding;
	o->on_error = on_error;
	o->ctx = s;
}

/* Run a gate on `n` updates (old, new, ref triples). */
static int run(const struct hexoid_gate_options *o, const char *const *u, size_t n,
	       struct hexoid_gate_result *res)
{
	struct hexoid_gate *g;
	char err[256];
	int rc;

	if (!(g = hexoid_gate_new(o, err, sizeof(err))))
		return -2;
	for (size_t i = 0; i < n; i++)
		if (hexoid_gate_add_update(g, u[3 * i], u[3 * i + 1], u[3 * i + 2], err, sizeof(err))) {
			hexoid_gate_free(g);
			return -3;
		}
	rc = hexoid_gate_run(g, res, err, sizeof(err));
	hexoid_gate_free(g);
	return rc;
}

/* The column of the first letter of hex written after `offset` characters, as git's
 * uppercase puts the first bad byte there. */
static unsigned col(const char *hex, unsigned offset)
{
	return offset + (unsigned)strcspn(hex, "abcdef") + 1;
}

static int same_oid(const struct repo *r, const unsigned char *oid, const char *hex)
{
	unsigned char want[HEXOID_MAX_RAWSZ];

	return hexoid_decode(want, hex, 1, hexoid_hexsz(r->algo), r->algo, HEXOID_LOWER, NULL) == HEXOID_OK &&
	       !memcmp(want, oid, hexoid_rawsz(r->algo));
}

static void clean_push(enum hexoid_algo algo)
{
	struct repo *r = repo(algo);
	struct hexoid_gate_options o;
	struct hexoid_gate_result res;
	struct found s;

	CHECK(r != NULL, "git could not make the repositories (algo %d)", (int)algo);
	if (!r)
		return;
	options(&o, &s, r, r->q1);
	const char *u[] = { r->base, r->head, "refs/heads/main" };
	CHECK(run(&o, u, 1, &res) == 0, "algo %d: run", (int)algo);
	CHECK(res.verdict == HEXOID_GATE_ACCEPT && res.complete && !res.timed_out &&
		      !res.rejecting && !res.warnings && s.n == 0 && s.errors == 0,
	      "algo %d: a clean push: verdict %d, complete %d, %u findings, %u errors (%s)", (int)algo,
	      res.verdict, res.complete, s.n, s.errors, s.error);
	CHECK(!s.wrong_thread, "algo %d: a callback from another thread", (int)algo);
}

TEST(gate_api_clean_sha1)
{
	clean_push(HEXOID_SHA1);
}

TEST(gate_api_clean_sha256)
{
	clean_push(HEXOID_SHA256);
}

/* Two new refs, one at a commit with an uppercase tree header, one with an uppercase
 * parent: both pushed, found by the scan, each named by its ref. */
static void uppercase_push(enum hexoid_algo algo)
{
	struct repo *r = repo(algo);
	struct hexoid_gate_options o;
	struct hexoid_gate_result res;
	struct found s;

	if (!r)
		return;
	options(&o, &s, r, r->q2);
	o.jobs = 2;
	const char *u[] = { r->zero, r->bt, "refs/heads/t", r->zero, r->bp, "refs/heads/p" };
	CHECK(run(&o, u, 2, &res) == 0, "algo %d: run", (int)algo);
	CHECK(res.verdict == HEXOID_GATE_REJECT && res.complete && res.rejecting == 2 &&
		      res.warnings == 0 && s.n == 2 && s.errors == 0,
	      "algo %d: verdict %d, %llu rejecting, %u findings, %u errors (%s)", (int)algo,
	      res.verdict, (unsigned long long)res.rejecting, s.n, s.errors, s.error);
	CHECK(!strcmp(s.f[0].ref, "refs/heads/t") && !strcmp(s.f[0].header, "tree") &&
		      s.f[0].line == 1 && s.f[0].column == col(r->tree, 5) &&
		      s.f[0].code == HEXOID_CODE_UPPERCASE_ID && s.f[0].cls == HEXOID_CLASS_GIT3 &&
		      s.f[0].rejects && s.f[0].pushed && same_oid(r, s.f[0].oid, r->bt),
	      "algo %d: first finding %s %s line %u column %u (want %u)", (int)algo, s.f[0].ref,
	      s.f[0].header, s.f[0].line, s.f[0].column, col(r->tree, 5));
	CHECK(!strcmp(s.f[1].ref, "refs/heads/p") && !strcmp(s.f[1].header, "parent") &&
		      s.f[1].line == 2 && s.f[1].column == col(r->head, 7) &&
		      s.f[1].code == HEXOID_CODE_UPPERCASE_ID && same_oid(r, s.f[1].oid, r->bp),
	      "algo %d: second finding %s %s line %u column %u (want %u)", (int)algo, s.f[1].ref,
	      s.f[1].header, s.f[1].line, s.f[1].column, col(r->head, 7));
	CHECK(!s.wrong_thread, "algo %d: a callback from another thread", (int)algo);

	/* Two new refs, the bad commit pushed under the first one's clean tip: named by
	 * that ref, which git log --source tells, not left to the pack. */
	options(&o, &s, r, r->q3);
	const char *under[] = { r->zero, r->head, "refs/heads/h", r->zero, r->gc, "refs/heads/g" };
	CHECK(run(&o, under, 2, &res) == 0 && res.verdict == HEXOID_GATE_REJECT && s.n == 1 &&
		      !strcmp(s.f[0].ref, "refs/heads/g") && !strcmp(s.f[0].header, "parent") &&
		      s.f[0].pushed && same_oid(r, s.f[0].oid, r->bp),
	      "algo %d: a bad commit under a new ref's clean tip: verdict %d, %u findings, ref '%s' (%s)",
	      (int)algo, res.verdict, s.n, s.f[0].ref, s.error);

	/* Two new refs, both clean tips on the bad commit (of one date): named by the one
	 * given first, in either order. git log --source names a commit by the first tip
	 * given that reaches it, and the gate gives the tips in the order of the updates,
	 * not of their values. */
	for (int first = 0; first < 2; first++) {
		const char *tip[] = { r->gc, r->gc2 }, *name[] = { "refs/heads/g", "refs/heads/g2" };
		const char *both[] = { r->zero, tip[first], name[first], r->zero, tip[!first], name[!first] };
		options(&o, &s, r, r->q3);
		CHECK(run(&o, both, 2, &res) == 0 && res.verdict == HEXOID_GATE_REJECT && s.n == 1 &&
			      !strcmp(s.f[0].ref, name[first]) && same_oid(r, s.f[0].oid, r->bp),
		      "algo %d: a bad commit under two new clean tips, %s first: verdict %d, "
		      "%u findings, ref '%s' (%s)",
		      (int)algo, name[first], res.verdict, s.n, s.f[0].ref, s.error);
	}

	/* The server already has the bad commit, and refs/legacy/t reaches it: no
	 * quarantine. The full walk finds it; the default one, as git's connectivity check,
	 * knows it from that ref. */
	options(&o, &s, r, NULL);
	o.full_walk = 1;
	const char *moved[] = { r->base, r->bt, "refs/heads/main" };
	CHECK(run(&o, moved, 1, &res) == 0 && res.verdict == HEXOID_GATE_REJECT && s.n == 1 &&
		      !strcmp(s.f[0].ref, "refs/heads/main") && !strcmp(s.f[0].header, "tree") &&
		      !s.f[0].pushed && same_oid(r, s.f[0].oid, r->bt),
	      "algo %d: full walk: a ref moved onto a stored bad commit: verdict %d, %u findings (%s)",
	      (int)algo, res.verdict, s.n, s.f[0].ref);
	options(&o, &s, r, NULL);
	CHECK(run(&o, moved, 1, &res) == 0 && res.verdict == HEXOID_GATE_ACCEPT && res.complete &&
		      s.n == 0 && s.errors == 0,
	      "algo %d: default walk: a ref moved onto a bad commit an existing ref reaches: "
	      "verdict %d, %u findings, %u errors (%s)", (int)algo, res.verdict, s.n, s.errors,
	      s.error);
}

TEST(gate_api_uppercase_sha1)
{
	uppercase_push(HEXOID_SHA1);
}

TEST(gate_api_uppercase_sha256)
{
	uppercase_push(HEXOID_SHA256);
}

TEST(gate_api_report_only)
{
	struct repo *r = repo(HEXOID_SHA1);
	struct hexoid_gate_options o;
	struct hexoid_gate_result res;
	struct found s;

	if (!r)
		return;
	const char *u[] = { r->zero, r->bt, "refs/heads/t" };
	options(&o, &s, r, r->q2);
	o.report_only = 1;
	/* bp is pushed too, and no updated ref reaches it: a finding of no ref, last. */
	CHECK(run(&o, u, 1, &res) == 0 && res.verdict == HEXOID_GATE_ACCEPT && res.complete &&
		      res.rejecting == 0 && res.warnings == 2 && s.n == 2 && !s.f[0].rejects &&
		      !s.f[1].rejects && !strcmp(s.f[0].ref, "refs/heads/t") && !s.f[1].ref[0] &&
		      s.f[1].pushed && same_oid(r, s.f[1].oid, r->bp),
	      "report-only: verdict %d, %llu warnings, %u findings", res.verdict,
	      (unsigned long long)res.warnings, s.n);
	/* An update hook's view: only what the ref reaches. */
	options(&o, &s, r, r->q2);
	o.reached_only = 1;
	CHECK(run(&o, u, 1, &res) == 0 && res.verdict == HEXOID_GATE_REJECT && s.n == 1 &&
		      same_oid(r, s.f[0].oid, r->bt),
	      "reached only: verdict %d, %u findings", res.verdict, s.n);
	options(&o, &s, r, r->q2);
	o.mixed = 1;
	CHECK(run(&o, u, 1, &res) == 0 && res.verdict == HEXOID_GATE_ACCEPT && res.warnings == 2 &&
		      s.n == 2 && !s.f[0].rejects,
	      "mixed: verdict %d, %u findings", res.verdict, s.n);
	/* A git that fails: incomplete, and accepted only when reporting. */
	options(&o, &s, r, NULL);
	o.git = "/nonexistent/git";
	CHECK(run(&o, u, 1, &res) == 0 && res.verdict == HEXOID_GATE_UNCHECKED && !res.complete &&
		      s.errors > 0,
	      "no git: verdict %d, %u errors", res.verdict, s.errors);
	options(&o, &s, r, NULL);
	o.git = "/nonexistent/git";
	o.report_only = 1;
	CHECK(run(&o, u, 1, &res) == 0 && res.verdict == HEXOID_GATE_ACCEPT && !res.complete,
	      "no git, report-only: verdict %d", res.verdict);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

TEST(gate_api_time_limit)
{
	struct repo *r = repo(HEXOID_SHA1);
	struct hexoid_gate_options o;
	struct hexoid_gate_result res;
	struct found s;
	double t;

	if (!r)
		return;
	const char *u[] = { r->base, r->head, "refs/heads/main" };
	options(&o, &s, r, r->q1);
	o.git = r->slowgit;
	o.time_limit_ms = 300;
	t = now();
	CHECK(run(&o, u, 1, &res) == 0 && res.timed_out && !res.complete &&
		      res.verdict == HEXOID_GATE_UNCHECKED && s.n == 0,
	      "time limit: timed out %d, verdict %d", res.timed_out, res.verdict);
	CHECK(now() - t < 10, "time limit: took %.1f s for 0.3", now() - t);
	CHECK(s.errors == 0, "time limit: the killed git said as an error (%s)", s.error);
	options(&o, &s, r, r->q1);
	o.git = r->slowgit;
	o.time_limit_ms = 300;
	o.time_limit_accepts = 1;
	CHECK(run(&o, u, 1, &res) == 0 && res.timed_out && res.verdict == HEXOID_GATE_ACCEPT,
	      "time limit, accepting: timed out %d, verdict %d", res.timed_out, res.verdict);
	/* Within the limit: a normal verdict. */
	options(&o, &s, r, r->q1);
	o.time_limit_ms = 60000;
	CHECK(run(&o, u, 1, &res) == 0 && !res.timed_out && res.complete &&
		      res.verdict == HEXOID_GATE_ACCEPT,
	      "a time limit not reached: verdict %d", res.verdict);
}

struct cancel_arg {
	struct hexoid_gate *g;
};

static void *cancel_later(void *p)
{
	struct cancel_arg *a = p;

	usleep(200 * 1000);
	hexoid_gate_cancel(a->g);
	return NULL;
}

TEST(gate_api_cancel)
{
	struct repo *r = repo(HEXOID_SHA1);
	struct hexoid_gate_options o;
	struct hexoid_gate_result res;
	struct cancel_arg a;
	struct found s;
	pthread_t t;
	char err[256];
	double t0;

	if (!r)
		return;
	options(&o, &s, r, r->q1);
	o.git = r->slowgit;
	a.g = hexoid_gate_new(&o, err, sizeof(err));
	CHECK(a.g != NULL, "new: %s", err);
	if (!a.g)
		return;
	CHECK(hexoid_gate_add_update(a.g, r->base, r->head, "refs/heads/main", err, sizeof(err)) == 0,
	      "add: %s", err);
	t0 = now();
	if (pthread_create(&t, NULL, cancel_later, &a) == 0) {
		CHECK(hexoid_gate_run(a.g, &res, err, sizeof(err)) == 1 &&
			      res.verdict == HEXOID_GATE_UNCHECKED && s.n == 0,
		      "cancelled: verdict %d", res.verdict);
		CHECK(now() - t0 < 10, "cancel: took %.1f s", now() - t0);
		pthread_join(t, NULL);
	}
	CHECK(hexoid_gate_run(a.g, &res, err, sizeof(err)) == -1, "a second run is refused");
	hexoid_gate_free(a.g);
}

TEST(gate_api_arguments)
{
	struct repo *r = repo(HEXOID_SHA1);
	struct repo *r256 = repo(HEXOID_SHA256);
	struct hexoid_gate_options o;
	struct hexoid_gate_result res;
	struct hexoid_gate *g;
	struct found s;
	char err[256];

	hexoid_gate_options_init(&o, sizeof(o));
	o.size = 8;
	CHECK(hexoid_gate_new(&o, err, sizeof(err)) == NULL, "options without their size");
	hexoid_gate_options_init(&o, sizeof(o));
	g = hexoid_gate_new(&o, err, sizeof(err));
	CHECK(g != NULL, "new: %s", err);
	if (!g || !r || !r256) {
		hexoid_gate_free(g);
		return;
	}
	CHECK(hexoid_gate_run(g, &res, err, sizeof(err)) == -1, "no updates and no hash: -1");
	CHECK(hexoid_gate_add_update(g, r->base, r->head, "", err, sizeof(err)) == -1, "an empty ref");
	CHECK(hexoid_gate_add_update(g, r->base, "HEAD", "refs/heads/x", err, sizeof(err)) == -1,
	      "a name, not an ID");
	CHECK(hexoid_gate_add_update(g, r->base, r->zero, "refs/heads/x", err, sizeof(err)) == 0,
	      "a deletion: %s", err);
	CHECK(hexoid_gate_add_update(g, r256->base, r256->head, "refs/heads/y", err, sizeof(err)) == -1,
	      "SHA-256 IDs after a SHA-1 one");
	CHECK(hexoid_gate_count_updates(g) == 1, "one update kept");
	hexoid_gate_free(g);

	/* A callback that stops: no callback after it, and run returns 1. */
	options(&o, &s, r, r->q2);
	s.stop_after = 1;
	const char *u[] = { r->zero, r->bt, "refs/heads/t", r->zero, r->bp, "refs/heads/p" };
	CHECK(run(&o, u, 2, &res) == 1 && s.n == 1, "stopped after one finding: %u", s.n);
}

TEST(gate_api_cleanup)
{
	char cmd[128];

	for (int i = 0; i < 2; i++)
		if (repos[i].made) {
			snprintf(cmd, sizeof(cmd), "rm -rf '%.64s'", repos[i].dir);
			if (system(cmd) != 0)
				fprintf(stderr, "could not remove %s\n", repos[i].dir);
			repos[i].made = 0;
		}
}

static int init_gate(void *o, size_t size)
{
	return hexoid_gate_options_init(o, size);
}

/* hexoid_gate_options_init() writes the defaults as far as the caller's struct goes and
 * nothing past it; a size no version had is refused, and hexoid_gate_new() refuses
 * options whose size is not set. */
TEST(gate_api_options_init)
{
	struct hexoid_gate_options want, o;
	struct hexoid_gate *g = NULL;
	const char *why;
	char err[256];

	memset(&want, 0, sizeof(want));
	want.jobs = 1;
	why = test_options_init(init_gate, &want, sizeof(want), sizeof(want));
	CHECK(!why, "%s", why);
	CHECK(hexoid_gate_options_init(&o, sizeof(o)) == 0 && (g = hexoid_gate_new(&o, err, sizeof(err))),
	      "new: %s", err);
	hexoid_gate_free(g);
	memset(&o, 0, sizeof(o));
	CHECK(hexoid_gate_new(&o, err, sizeof(err)) == NULL && strstr(err, "sizeof"),
	      "options not set: %s", err);
}
