/*
 * The audit library (hexoid_audit.h) on repositories made by the installed git: codes,
 * classes and areas of its findings; a callback stopping it; the options' size; every
 * callback in the calling thread; several threads auditing at once.
 * SPDX-License-Identifier: MIT
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hexoid_audit.h"
#include "test.h"

/* A repository with three uppercase refs, an uppercase ORIG_HEAD and one ref that is
 * not hex; objects partly packed. 0, or -1 when git could not make it. */
static int audit_repo(const char *dir, enum hexoid_algo algo)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.com "
		 "GIT_COMMITTER_NAME=C GIT_COMMITTER_EMAIL=c@example.com; "
		 "git -c init.defaultBranch=main init -q --object-format=%s r; cd r; "
		 "for i in 1 2 3 4 5 6; do echo $i >f; git add f; git commit -q -m $i; done; "
		 "git repack -adq; echo 7 >f; git commit -q -am 7; "
		 "h=$(git rev-parse HEAD); U=$(echo $h | tr a-f A-F); "
		 "for b in a b c; do echo $U >.git/refs/heads/up-$b; done; echo $U >.git/ORIG_HEAD; "
		 "echo $h | sed 's/^./z/' >.git/refs/heads/zz",
		 dir, algo == HEXOID_SHA1 ? "sha1" : "sha256");
	return system(cmd) == 0 ? 0 : -1;
}

struct seen {
	pthread_t thread;
	int wrong_thread;
	unsigned findings, stop_after, progress;
	unsigned by_class[4];
	unsigned refs, pseudo, bad;
	char first_path[256];
};

static int on_finding(void *ctx, const struct hexoid_audit_finding *f)
{
	struct seen *s = ctx;

	if (!pthread_equal(pthread_self(), s->thread))
		s->wrong_thread = 1;
	if (!s->findings)
		snprintf(s->first_path, sizeof(s->first_path), "%s", f->path);
	s->findings++;
	if ((unsigned)f->cls < 4)
		s->by_class[f->cls]++;
	if (f->cls != hexoid_code_class(f->code))
		s->wrong_thread = 2;
	if (f->area == HEXOID_AREA_REFS)
		s->refs++;
	if (f->area == HEXOID_AREA_PSEUDO_REFS)
		s->pseudo++;
	if (f->code == HEXOID_CODE_BAD_ID)
		s->bad++;
	return s->stop_after && s->findings >= s->stop_after;
}

static int on_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	struct seen *s = ctx;

	(void)what;
	(void)done;
	(void)total;
	if (!pthread_equal(pthread_self(), s->thread))
		s->wrong_thread = 1;
	s->progress++;
	return 0;
}

static int run(const char *repo, unsigned jobs, struct seen *s, size_t size)
{
	struct hexoid_audit_options o = HEXOID_AUDIT_OPTIONS_INIT;
	struct hexoid_audit *a;
	char err[256];
	int rc;

	o.size = size ? size : o.size;
	o.jobs = jobs;
	o.on_finding = on_finding;
	o.on_progress = on_progress;
	o.ctx = s;
	s->thread = pthread_self();
	a = hexoid_audit_open(repo, err, sizeof(err));
	if (!a)
		return -2;
	rc = hexoid_audit_run(a, &o, err, sizeof(err));
	hexoid_audit_close(a);
	return rc;
}

static char scratch[64];
static int made = -1;

static const char *repo_dir(void)
{
	static char path[128];

	if (made < 0) {
		strcpy(scratch, "/tmp/hexoid-audit-api-XXXXXX");
		made = mkdtemp(scratch) && audit_repo(scratch, HEXOID_SHA1) == 0;
	}
	snprintf(path, sizeof(path), "%s/r", scratch);
	return made ? path : NULL;
}

static void cleanup(void)
{
	char cmd[128];

	if (made > 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", scratch);
	}
}

TEST(audit_api_names)
{
	int i;

	CHECK(!strcmp(hexoid_audit_area_name(HEXOID_AREA_REFS), "refs"), "refs");
	CHECK(!strcmp(hexoid_audit_area_name(HEXOID_AREA_ALTERNATES), "alternates"), "alternates");
	CHECK(hexoid_audit_area_name(HEXOID_AREA_COUNT) == NULL, "past the last area");
	CHECK(!strcmp(hexoid_finding_class_name(HEXOID_CLASS_WARN), "warn"), "warn");
	for (i = 1; i < HEXOID_CODE_COUNT; i++) {
		CHECK(hexoid_code_name((enum hexoid_code)i) != NULL, "code %d has a name", i);
		CHECK(hexoid_code_class((enum hexoid_code)i) != 0, "code %d has a class", i);
	}
	CHECK(hexoid_code_name(0) == NULL && hexoid_code_class(HEXOID_CODE_COUNT) == 0,
	      "unknown codes");
	CHECK(hexoid_code_class(HEXOID_CODE_UPPERCASE_ID) == HEXOID_CLASS_GIT3, "uppercase is git3");
}

TEST(audit_api_findings)
{
	const char *repo = repo_dir();
	struct seen s;
	unsigned jobs;

	CHECK(repo != NULL, "git could not make the repository");
	if (!repo)
		return;
	for (jobs = 1; jobs <= 3; jobs++) {
		memset(&s, 0, sizeof(s));
		CHECK(run(repo, jobs, &s, 0) == 0, "jobs %u: run", jobs);
		CHECK(s.findings == 5 && s.refs == 4 && s.pseudo == 1 && s.bad == 1 &&
			      s.by_class[HEXOID_CLASS_GIT3] == 4 && s.by_class[HEXOID_CLASS_ERROR] == 1,
		      "jobs %u: %u findings, %u refs, %u pseudo-refs, %u bad", jobs, s.findings, s.refs,
		      s.pseudo, s.bad);
		CHECK(!s.wrong_thread, "jobs %u: a callback from another thread, or a class not its code's", jobs);
		CHECK(!strcmp(s.first_path, "refs/heads/up-a"), "jobs %u: first finding %s", jobs, s.first_path);
	}
}

TEST(audit_api_stop)
{
	const char *repo = repo_dir();
	struct seen s;
	unsigned jobs;

	if (!repo)
		return;
	for (jobs = 1; jobs <= 2; jobs++) {
		memset(&s, 0, sizeof(s));
		s.stop_after = 2;
		CHECK(run(repo, jobs, &s, 0) == 1, "jobs %u: stopped: returns 1", jobs);
		CHECK(s.findings == 2, "jobs %u: %u callbacks after asking to stop at 2", jobs, s.findings);
	}
}

TEST(audit_api_open_errors)
{
	const char *repo = repo_dir();
	enum hexoid_audit_open_error why;
	struct hexoid_audit *a;
	char path[256], err[512];
	int i;

	if (!repo)
		return;
	for (i = 1; i <= HEXOID_OPEN_NO_MEMORY; i++)
		CHECK(hexoid_audit_open_error_name((enum hexoid_audit_open_error)i) != NULL, "open error %d has a name", i);
	CHECK(hexoid_audit_open_error_name(0) == NULL, "0 has no name");
	why = HEXOID_OPEN_NO_MEMORY;
	a = hexoid_audit_open_with(repo, HEXOID_AUDIT_OPEN_EXACT, &why, err, sizeof(err));
	CHECK(a && why == 0, "the work tree, exactly: opened (%s)", a ? "" : err);
	hexoid_audit_close(a);
	snprintf(path, sizeof(path), "%s/.git/refs", repo);
	a = hexoid_audit_open_with(path, 0, &why, err, sizeof(err));
	CHECK(a != NULL, "a folder in the git directory: its repository (%s)", a ? "" : err);
	hexoid_audit_close(a);
	a = hexoid_audit_open_with(path, HEXOID_AUDIT_OPEN_EXACT, &why, err, sizeof(err));
	CHECK(!a && why == HEXOID_OPEN_NOT_A_REPOSITORY && strstr(err, path),
	      "the same, exactly: not a repository, named: %s", err);
	hexoid_audit_close(a);
	a = hexoid_audit_open_exact(path, err, sizeof(err));
	CHECK(!a, "hexoid_audit_open_exact: the same");
	hexoid_audit_close(a);
	snprintf(path, sizeof(path), "%s/no-such", repo);
	a = hexoid_audit_open_with(path, 0, &why, err, sizeof(err));
	CHECK(!a && why == HEXOID_OPEN_NOT_FOUND, "a missing path: not-found (%d)", (int)why);
	hexoid_audit_close(a);
	snprintf(path, sizeof(path), "%s/f", repo);
	a = hexoid_audit_open_with(path, 0, &why, err, sizeof(err));
	CHECK(!a && why == HEXOID_OPEN_NOT_A_FOLDER, "a file: not-a-folder (%d)", (int)why);
	hexoid_audit_close(a);
}

TEST(audit_api_options_size)
{
	const char *repo = repo_dir();
	struct seen s;

	if (!repo)
		return;
	memset(&s, 0, sizeof(s));
	CHECK(run(repo, 1, &s, 1) == -1, "a size too small for the options is refused");
	memset(&s, 0, sizeof(s));
	CHECK(run(repo, 1, &s, sizeof(struct hexoid_audit_options)) == 0 && s.findings == 5,
	      "this header's size");
	CHECK(hexoid_audit_open("/nonexistent/hexoid", (char[64]){ 0 }, 64) == NULL,
	      "no repository: NULL");
}

static const char *thread_repo; /* set before the threads start */

static void *audit_thread(void *p)
{
	struct seen *s = p;

	if (run(thread_repo, 2, s, 0) != 0)
		s->findings = 0;
	return NULL;
}

TEST(audit_api_threads)
{
	pthread_t t[4];
	struct seen s[4];
	int i, started[4];

	if (!(thread_repo = repo_dir()))
		return;
	memset(s, 0, sizeof(s));
	for (i = 0; i < 4; i++)
		started[i] = pthread_create(&t[i], NULL, audit_thread, &s[i]) == 0;
	for (i = 0; i < 4; i++) {
		if (started[i])
			pthread_join(t[i], NULL);
		CHECK(started[i] && s[i].findings == 5 && !s[i].wrong_thread,
		      "thread %d: %u findings", i, s[i].findings);
	}
	cleanup();
	made = -1;
}

/* --- Cancellation: a repository of many objects made with git fast-import (commits
 * each with its own blob and tree: packed, and a second pack loose-unpacked), cancelled
 * at the start and 10 ms in, from another thread, with one thread and with two. */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}


struct canceller {
	int flag;
	unsigned delay_ms;
	double set_at;
};

static void *cancel_later(void *p)
{
	struct canceller *c = p;
	struct timespec ts = { 0, (long)c->delay_ms * 1000000L };

	nanosleep(&ts, NULL);
	c->set_at = now();
	__atomic_store_n(&c->flag, 1, __ATOMIC_RELAXED);
	return NULL;
}

static int progress_calls;
static int count_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	(void)ctx;
	(void)what;
	(void)done;
	(void)total;
	progress_calls++;
	return 0;
}

/* One run: its result, and how long it took after *cancel was set (or in all). */
static int timed_run(const char *repo, unsigned jobs, struct canceller *c, double *after)
{
	struct hexoid_audit_options o = HEXOID_AUDIT_OPTIONS_INIT;
	struct hexoid_audit *a;
	char err[512];
	pthread_t t;
	double start, end;
	int rc, started = 0;

	if (!(a = hexoid_audit_open(repo, err, sizeof(err))))
		return -2;
	o.jobs = jobs;
	o.on_progress = count_progress;
	o.cancel = c ? &c->flag : NULL;
	start = now();
	if (c) {
		c->set_at = start;
		if (c->delay_ms)
			started = pthread_create(&t, NULL, cancel_later, c) == 0;
		else
			c->flag = 1;
	}
	rc = hexoid_audit_run(a, &o, err, sizeof(err));
	end = now();
	/* set_at is the canceller's until it is joined. */
	if (started)
		pthread_join(t, NULL);
	*after = end - (c ? c->set_at : start);
	hexoid_audit_close(a);
	return rc;
}

TEST(audit_api_cancel)
{
	char dir[64], cmd[1024], repo[96];
	struct canceller c;
	double full, after;
	unsigned jobs, delay;
	int rc, slowed = TEST_SANITIZED || test_emulated();

	strcpy(dir, "/tmp/hexoid-audit-cancel-XXXXXX");
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	/* 60000 commits, each with a blob and a tree: 180000 objects in one pack, and
	 * 200 more loose. Under an emulator, a tenth: the audit runs there at a hundredth of
	 * the speed, which the whole run's bound below scales with. fast-import grows and
	 * trims its heap by a page at a time (200,000 brk calls for 20,000 commits: 20 s of
	 * system time for these 60,000); glibc's top pad makes that 0.5 s. */
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; git init -q --bare r.git; "
		 "awk 'BEGIN { for (i = 1; i <= %d; i++) {"
		 " printf \"blob\\nmark :%%d\\ndata %%d\\n%%d\\n\", 2 * i, length(i \"\") + 1, i;"
		 " printf \"commit refs/heads/main\\nmark :%%d\\n\", 2 * i + 1;"
		 " printf \"committer C <c@example.com> %%d +0000\\ndata 2\\nc\\n\", 1700000000 + i;"
		 " if (i > 1) printf \"from :%%d\\n\", 2 * i - 1;"
		 " printf \"M 100644 :%%d f\\n\\n\", 2 * i } }' | "
		 "GLIBC_TUNABLES=glibc.malloc.top_pad=67108864 git --git-dir=r.git fast-import --quiet; "
		 "mkdir l; for i in $(seq 1 200); do echo \"loose $i\" >l/$i; done; "
		 "ls -d l/* | git --git-dir=r.git hash-object -w --stdin-paths >/dev/null; rm -r l",
		 dir, test_emulated() ? 6000 : 60000);
	if (system(cmd) != 0) {
		CHECK(0, "git fast-import could not make the repository");
		return;
	}
	snprintf(repo, sizeof(repo), "%s/r.git", dir);
	rc = timed_run(repo, 1, NULL, &full);
	CHECK(rc == 0, "the whole run: %d", rc);
	fprintf(stderr, "# audit_api_cancel: the whole run %.0f ms\n", full * 1000);
	for (jobs = 1; jobs <= 2; jobs++) {
		for (delay = 0; delay <= 10; delay += 10) {
			memset(&c, 0, sizeof(c));
			c.delay_ms = delay;
			progress_calls = 0;
			rc = timed_run(repo, jobs, &c, &after);
			fprintf(stderr, "# audit_api_cancel: jobs %u, cancelled at %u ms: back %.1f ms later\n",
				jobs, delay, after * 1000);
			CHECK(rc == 1, "jobs %u, cancelled at %u ms: returns 1 (cancelled), not %d", jobs, delay, rc);
			/* Within 200 ms, and before the whole run would end (a pack's scan
			 * asks at least ten times a second: up to 100 ms late). Under a
			 * sanitizer or an emulator (make check's RUN), which make each step
			 * many times slower, only the second: the native run holds the
			 * first. */
			CHECK((after < 0.2 || slowed) && after + delay / 1000.0 < full * 0.9,
			      "jobs %u, cancelled at %u ms: back %.0f ms later (whole run %.0f ms)",
			      jobs, delay, after * 1000, full * 1000);
			if (!delay)
				CHECK(progress_calls == 0, "cancelled at the start: %d progress calls", progress_calls);
		}
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

static int init_audit(void *o, size_t size)
{
	return hexoid_audit_options_init(o, size);
}

/* hexoid_audit_options_init(): the INIT macro's defaults, as far as the caller's struct
 * goes (a program built against the first version's header passes a smaller one, which
 * the run takes), and nothing for a size no version had. */
TEST(audit_api_options_init)
{
	const size_t first = offsetof(struct hexoid_audit_options, ctx) + sizeof(void *);
	struct hexoid_audit_options want, o;
	const char *repo = repo_dir(), *why;
	struct hexoid_audit *a;
	struct seen s;
	char err[256];

	memset(&want, 0, sizeof(want));
	want.jobs = 1;
	why = test_options_init(init_audit, &want, sizeof(want), first);
	CHECK(!why, "%s", why);
	if (!repo || !(a = hexoid_audit_open(repo, err, sizeof(err))))
		return;
	memset(&s, 0, sizeof(s));
	hexoid_audit_options_init(&o, first);
	o.on_finding = on_finding;
	o.ctx = &s;
	CHECK(hexoid_audit_run(a, &o, err, sizeof(err)) == 0 && s.findings == 5,
	      "the first version's options run: %s", err);
	hexoid_audit_close(a);
}
