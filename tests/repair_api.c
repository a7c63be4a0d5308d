/*
 * The repair library (hexoid_repair.h) on a repository made by the installed git: the
 * plan and its actions; a dry run that changes nothing; a stop asked for before each
 * step in turn, after which no lock or journal is left and every file is as it was or
 * repaired; the options' size; names of kinds and outcomes.
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hexoid_repair.h"
#include "test.h"

static char scratch[64];

/* A repository with two uppercase loose refs, an uppercase ORIG_HEAD, an uppercase line
 * in packed-refs and a ref that is not hex (an error, left); `seed` kept beside it to
 * start again from. 0, or -1 when git could not make it. */
static int make_repo(void)
{
	char cmd[2048];

	strcpy(scratch, "/tmp/hexoid-repair-api-XXXXXX");
	if (!mkdtemp(scratch))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.com "
		 "GIT_COMMITTER_NAME=C GIT_COMMITTER_EMAIL=c@example.com GIT_CONFIG_NOSYSTEM=1 "
		 "GIT_CONFIG_GLOBAL=/dev/null; "
		 "git -c init.defaultBranch=main init -q seed; cd seed; "
		 "for i in 1 2 3; do git commit -q --allow-empty -m $i; done; "
		 "git branch p HEAD~1; git pack-refs --all; "
		 "h=$(git rev-parse HEAD); U=$(echo $h | tr a-f A-F); "
		 "for b in a b; do echo $U >.git/refs/heads/up-$b; done; echo $U >.git/ORIG_HEAD; "
		 "p=$(git rev-parse p); sed -i \"s/^$p /$(echo $p | tr a-f A-F) /\" .git/packed-refs; "
		 "echo $h | sed 's/^./z/' >.git/refs/heads/zz",
		 scratch);
	return system(cmd) == 0 ? 0 : -1;
}

/* A fresh copy of the seed as `r`; returns its path. */
static const char *fresh(void)
{
	static char path[128];
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "cd '%s' && rm -rf r && cp -a seed r", scratch);
	if (system(cmd) != 0)
		return NULL;
	snprintf(path, sizeof(path), "%s/r", scratch);
	return path;
}

/* How the repository's files are now: "upper" (all as planted), "lower" (all repaired),
 * "mixed"; and whether a lock or journal is left. */
static int count_upper(const char *repo, int *leftover)
{
	static const char *const files[] = { "refs/heads/up-a", "refs/heads/up-b", "ORIG_HEAD",
					     "packed-refs" };
	char cmd[512];
	size_t i;
	int upper = 0;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(cmd, sizeof(cmd), "grep -q '^[0-9a-f]*[A-F]' '%s/.git/%s'", repo, files[i]);
		upper += system(cmd) == 0;
	}
	snprintf(cmd, sizeof(cmd),
		 "test -z \"$(find '%s/.git' -name '*.lock' -o -name 'hexoid-repair.journal*' -o "
		 "-name '*.new')\"",
		 repo);
	*leftover = system(cmd) != 0;
	return upper;
}

struct seen {
	unsigned actions, planned, done, left, steps, stop_at;
	unsigned left_errors;
};

static int on_action(void *ctx, const struct hexoid_repair_action *a)
{
	struct seen *s = ctx;

	s->actions++;
	s->planned += a->outcome == HEXOID_REPAIR_PLANNED;
	s->done += a->outcome == HEXOID_REPAIR_DONE;
	return 0;
}

static int on_left(void *ctx, const struct hexoid_audit_finding *f)
{
	struct seen *s = ctx;

	s->left++;
	s->left_errors += f->cls == HEXOID_CLASS_ERROR;
	return 0;
}

static int on_step(void *ctx, const char *what, const char *path)
{
	struct seen *s = ctx;

	(void)what;
	(void)path;
	return s->stop_at && ++s->steps == s->stop_at;
}

static int apply(const char *repo, struct seen *s, int dry_run, size_t size)
{
	struct hexoid_repair_options o = HEXOID_REPAIR_OPTIONS_INIT;
	struct hexoid_repair *rp;
	char err[512];
	int rc;

	o.size = size ? size : o.size;
	o.dry_run = dry_run;
	o.on_action = on_action;
	o.on_left = on_left;
	o.on_step = on_step;
	o.ctx = s;
	if (!(rp = hexoid_repair_open(repo, err, sizeof(err))))
		return -2;
	rc = hexoid_repair_apply(rp, &o, err, sizeof(err));
	hexoid_repair_close(rp);
	return rc;
}

static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", scratch);
}

TEST(repair_api_names)
{
	CHECK(!strcmp(hexoid_repair_kind_name(HEXOID_REPAIR_LOWERCASE), "lowercase"), "lowercase");
	CHECK(!strcmp(hexoid_repair_outcome_name(HEXOID_REPAIR_LOCKED), "locked"), "locked");
	CHECK(hexoid_repair_outcome_name(0) == NULL && hexoid_repair_kind_name(0) == NULL, "unknown");
}

TEST(repair_api)
{
	struct seen s;
	const char *repo;
	int leftover, rc, k, upper;

	if (make_repo() != 0) {
		CHECK(0, "git could not make the repository");
		return;
	}
	/* A dry run: four actions planned, the error left, nothing changed. */
	repo = fresh();
	memset(&s, 0, sizeof(s));
	rc = apply(repo, &s, 1, 0);
	CHECK(rc == 0 && s.planned == 4 && s.done == 0 && s.left == 1 && s.left_errors == 1,
	      "dry run: rc %d, %u planned, %u done, %u left", rc, s.planned, s.done, s.left);
	CHECK(count_upper(repo, &leftover) == 4 && !leftover, "dry run: something changed");

	/* Stopped before step k, for each k: returns 1, nothing held or half done; the
	 * files repaired so far are whole, the others untouched. Then a run to the end. */
	for (k = 1; k < 100; k++) {
		repo = fresh();
		memset(&s, 0, sizeof(s));
		s.stop_at = (unsigned)k;
		rc = apply(repo, &s, 0, 0);
		upper = count_upper(repo, &leftover);
		if (rc == 0) {
			CHECK(upper == 0 && !leftover && s.done == 4, "the whole run: %d left upper", upper);
			break;
		}
		CHECK(rc == 1, "stop before step %d: rc %d", k, rc);
		CHECK(!leftover, "stop before step %d: a lock or the journal left", k);
		CHECK((unsigned)upper + s.done == 4, "stop before step %d: %d upper, %u done", k, upper, s.done);
		memset(&s, 0, sizeof(s));
		CHECK(apply(repo, &s, 0, 0) == 0 && count_upper(repo, &leftover) == 0 && !leftover,
		      "after a stop before step %d: a second run finishes", k);
	}
	CHECK(k > 12 && k < 100, "the run took %d steps", k);

	/* The options' size. */
	repo = fresh();
	memset(&s, 0, sizeof(s));
	CHECK(apply(repo, &s, 0, 1) == -1, "a size too small for the options is refused");
	CHECK(count_upper(repo, &leftover) == 4, "refused options: something changed");
	CHECK(hexoid_repair_open("/nonexistent/hexoid", (char[64]){ 0 }, 64) == NULL, "no repository: NULL");
	cleanup();
}

static int init_repair(void *o, size_t size)
{
	return hexoid_repair_options_init(o, size);
}

/* hexoid_repair_options_init(): the INIT macro's defaults as far as the caller's struct
 * goes (the first version's ends with ctx), nothing past it, nothing for a size no
 * version had. */
TEST(repair_api_options_init)
{
	struct hexoid_repair_options want;
	const char *why;

	memset(&want, 0, sizeof(want));
	want.jobs = 1;
	why = test_options_init(init_repair, &want, sizeof(want),
				offsetof(struct hexoid_repair_options, ctx) + sizeof(void *));
	CHECK(!why, "%s", why);
}
