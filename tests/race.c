/*
 * The audit while git deletes and renames what it reads, each race replayed the same way
 * every time: the library's test pause (util/hook.h) runs git, or deletes a file, at the
 * one moment between listing and reading that the race needs. The repositories hold no
 * bad ID: any finding is a false one. Every object is counted once, in a loose folder or
 * in a pack, whatever moved it. SHA-1 and SHA-256.
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hexoid_audit.h"
#include "hexoid_pack.h"
#include "test.h"
#include "util/hook.h"

#define IDENT "export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.com " \
	      "GIT_COMMITTER_NAME=C GIT_COMMITTER_EMAIL=c@example.com; "

static char scratch[64];

static const char *algo_name(enum hexoid_algo algo)
{
	return algo == HEXOID_SHA1 ? "sha1" : "sha256";
}

/* A shell command in the repository `repo` of the scratch folder: 0 when it worked. */
static int sh(const char *repo, const char *fmt, const char *arg)
{
	char cmd[2048], body[1536];

	snprintf(body, sizeof(body), fmt, arg);
	snprintf(cmd, sizeof(cmd), "set -e; cd '%s/%s'; " IDENT "%s", scratch, repo, body);
	return system(cmd) == 0 ? 0 : -1;
}

/* A new repository `name`: four commits with a note each, in loose objects, or with
 * `packs` of them in packs of their own first. */
static int make_repo(const char *name, enum hexoid_algo algo, int packs)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; git -c init.defaultBranch=main init -q --object-format=%s '%s'; "
		 "cd '%s'; git config gc.auto 0; " IDENT
		 "for i in 1 2 3 4; do echo $i >f; git add f; git commit -q -m $i; "
		 "git notes add -m n$i HEAD; if [ $i -le %d ]; then git repack -dq; fi; done",
		 scratch, algo_name(algo), name, name, packs);
	return system(cmd) == 0 ? 0 : -1;
}

/* How many objects the repository holds, as git counts them. */
static long objects_of(const char *repo)
{
	char cmd[512];
	long n = -1;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "git -C '%s/%s' cat-file --batch-all-objects --batch-check | wc -l",
		 scratch, repo);
	if ((p = popen(cmd, "r"))) {
		if (fscanf(p, "%ld", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

/* What the pause does, once, at the first point of its kind. */
struct act {
	enum hexoid_hook_point at;
	const char *repo;
	const char *cmd;      /* run in the repository; or NULL: */
	int unlink_it;        /* delete the file the point names */
	int times;            /* how many times it acted */
	char path[1024];
};

static void on_hook(void *ctx, enum hexoid_hook_point at, const char *path)
{
	struct act *a = ctx;

	if (at != a->at || a->times)
		return;
	a->times++;
	snprintf(a->path, sizeof(a->path), "%s", path);
	if (a->unlink_it)
		unlink(path);
	else if (a->cmd && sh(a->repo, "%s", a->cmd))
		a->times = -1;
}

struct result {
	unsigned findings;
	char first[512];
	struct hexoid_audit_count count[HEXOID_AREA_COUNT];
};

static int on_finding(void *ctx, const struct hexoid_audit_finding *f)
{
	struct result *res = ctx;

	if (!res->findings++)
		snprintf(res->first, sizeof(res->first), "[%s] %s: %s",
			 hexoid_audit_area_name(f->area), f->path, f->message);
	return 0;
}

/* An audit of `repo` with the pause `a`: 0, or -1 when it could not run. */
static int audit(const char *repo, struct act *a, struct result *res)
{
	struct hexoid_audit_options o = HEXOID_AUDIT_OPTIONS_INIT;
	struct hexoid_audit *h;
	char path[256], err[256];
	int rc, i;

	memset(res, 0, sizeof(*res));
	snprintf(path, sizeof(path), "%s/%s", scratch, repo);
	if (!(h = hexoid_audit_open(path, err, sizeof(err))))
		return -1;
	o.on_finding = on_finding;
	o.ctx = res;
	a->repo = repo;
	hexoid_hook_set(on_hook, a);
	rc = hexoid_audit_run(h, &o, err, sizeof(err));
	hexoid_hook_set(NULL, NULL);
	for (i = 0; i < HEXOID_AREA_COUNT; i++)
		hexoid_audit_summary(h, (enum hexoid_audit_area)i, &res->count[i]);
	hexoid_audit_close(h);
	return rc == 0 ? 0 : -1;
}

static uint64_t objects_scanned(const struct result *res)
{
	return res->count[HEXOID_AREA_LOOSE_OBJECTS].scanned +
	       res->count[HEXOID_AREA_PACK_OBJECTS].scanned;
}

/* One race: a repository made with `packs` packs, the pause acting at `at`; the audit
 * must find nothing and count every object once. */
static void race(const char *name, enum hexoid_algo algo, int packs, struct act *a)
{
	struct result res;
	char repo[64];
	long want;

	snprintf(repo, sizeof(repo), "%s-%s", name, algo_name(algo));
	if (make_repo(repo, algo, packs)) {
		CHECK(0, "%s: git cannot make the repository", repo);
		return;
	}
	CHECK(audit(repo, a, &res) == 0, "%s: the audit runs", repo);
	want = objects_of(repo);
	CHECK(a->times == 1, "%s: the pause acted once (%d)", repo, a->times);
	CHECK(res.findings == 0, "%s: %u findings, the first %s", repo, res.findings, res.first);
	CHECK((long)objects_scanned(&res) == want, "%s: %llu objects scanned, git has %ld", repo,
	      (unsigned long long)objects_scanned(&res), want);
}

static int setup(void)
{
	if (!scratch[0]) {
		strcpy(scratch, "/tmp/hexoid-race-XXXXXX");
		if (!mkdtemp(scratch)) {
			scratch[0] = 0;
			return -1;
		}
	}
	return 0;
}

__attribute__((destructor)) static void cleanup(void)
{
	char cmd[128];

	if (scratch[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", scratch);
	}
}

/* A loose folder git packed and removed between the listing and its opening: no
 * finding; its objects are counted in the pack. */
TEST(race_loose_folder)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256 && !setup(); algo++) {
		struct act a = { .at = HEXOID_HOOK_LOOSE_FOLDER, .cmd = "git repack -adq" };
		race("loose-folder", algo, 0, &a);
	}
}

/* A loose object git packed and deleted between the listing and its reading: found
 * in the new pack, counted there. */
TEST(race_loose_object)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256 && !setup(); algo++) {
		struct act a = { .at = HEXOID_HOOK_LOOSE_OBJECT, .cmd = "git repack -adq" };
		race("loose-object", algo, 1, &a);
	}
}

/* A loose object deleted, and in no pack: that one is a finding, and says why. */
TEST(race_loose_object_lost)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256 && !setup(); algo++) {
		struct act a = { .at = HEXOID_HOOK_LOOSE_OBJECT, .unlink_it = 1 };
		struct result res;
		char repo[64];

		snprintf(repo, sizeof(repo), "lost-%s", algo_name(algo));
		if (make_repo(repo, algo, 0)) {
			CHECK(0, "%s: git cannot make the repository", repo);
			continue;
		}
		CHECK(audit(repo, &a, &res) == 0, "%s: the audit runs", repo);
		CHECK(res.findings == 1 && res.count[HEXOID_AREA_LOOSE_OBJECTS].errors == 1 &&
			      strstr(res.first, "deleted while read, and no pack holds it"),
		      "%s: %u findings, the first %s", repo, res.findings, res.first);
	}
}

/* A pack git deleted between the listing and its scan (repack -a -d): no finding; the
 * folder is listed again and the pack that replaced it scanned, every object once. */
TEST(race_pack)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256 && !setup(); algo++) {
		struct act a = { .at = HEXOID_HOOK_PACK_SCAN, .cmd = "git repack -adq" };
		race("pack", algo, 4, &a);
	}
}

/* The notes reader's packs: one deleted between the listing and its mapping. The notes
 * are read from the pack that replaced it. */
TEST(race_notes_pack)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256 && !setup(); algo++) {
		struct act a = { .at = HEXOID_HOOK_ODB_PACK,
				 .cmd = "echo more | git hash-object -w --stdin >/dev/null; git repack -adq" };
		struct result res;
		char repo[64];

		race("notes-pack", algo, 4, &a);
		snprintf(repo, sizeof(repo), "notes-pack-%s", algo_name(algo));
		a.times = 0;
		a.cmd = "true";
		CHECK(audit(repo, &a, &res) == 0 && res.count[HEXOID_AREA_NOTES].scanned == 4,
		      "%s: the four notes read", repo);
	}
}

/* The object reader: an object loose when the handle opened, packed and deleted since,
 * is found in the new pack. */
TEST(race_odb_repacked)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256 && !setup(); algo++) {
		struct hexoid_odb_options oo = HEXOID_ODB_OPTIONS_INIT;
		struct hexoid_odb *odb;
		struct hexoid_object obj;
		unsigned char oid[HEXOID_MAX_RAWSZ];
		char repo[64], path[256], hex[HEXOID_MAX_HEXSZ + 2] = "", err[256];
		FILE *p;

		snprintf(repo, sizeof(repo), "odb-%s", algo_name(algo));
		if (make_repo(repo, algo, 0)) {
			CHECK(0, "%s: git cannot make the repository", repo);
			continue;
		}
		snprintf(path, sizeof(path), "git -C '%s/%s' rev-parse HEAD", scratch, repo);
		if ((p = popen(path, "r"))) {
			if (!fgets(hex, sizeof(hex), p))
				hex[0] = 0;
			pclose(p);
		}
		CHECK(hexoid_decode(oid, hex, 1, hexoid_hexsz(algo), algo, HEXOID_LOWER, NULL) ==
			      HEXOID_OK, "%s: HEAD %s", repo, hex);
		snprintf(path, sizeof(path), "%s/%s/.git/objects", scratch, repo);
		oo.algo = algo;
		odb = hexoid_odb_open(path, &oo, err, sizeof(err));
		CHECK(odb && hexoid_odb_count_packs(odb) == 0, "%s: open, no pack: %s", repo, err);
		CHECK(sh(repo, "%s", "git repack -adq") == 0, "%s: repack", repo);
		CHECK(odb && hexoid_odb_read(odb, oid, &obj, err, sizeof(err)) == HEXOID_ODB_OK &&
			      obj.type == HEXOID_OBJ_COMMIT && obj.offset != HEXOID_NO_OFFSET,
		      "%s: HEAD read from the new pack: %s", repo, err);
		CHECK(hexoid_odb_count_packs(odb) == 1, "%s: the new pack mapped", repo);
		hexoid_object_free(&obj);
		/* An object in no pack at all is still missing, after one more listing. */
		memset(oid, 0xee, sizeof(oid));
		CHECK(odb && hexoid_odb_read(odb, oid, &obj, err, sizeof(err)) == HEXOID_ODB_MISSING,
		      "%s: a missing object", repo);
		hexoid_odb_close(odb);
	}
}

/* A reftable stack compacted between the reading of tables.list and of its tables: read
 * again from the new list, no finding. Needs the Git 3.0 build, beside the source. */
TEST(race_reftable)
{
	char git3[4096];

	if (!realpath("../shared/tools/git3/git", git3) || access(git3, X_OK)) {
		printf("# race_reftable: skipped, no ../shared/tools/git3/git\n");
		return;
	}
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256 && !setup(); algo++) {
		char cmd[4096 + 1024], repo[64], act_cmd[2 * 4096 + 128];
		struct act a = { .at = HEXOID_HOOK_REFTABLE };
		struct result res;

		snprintf(repo, sizeof(repo), "reftable-%s", algo_name(algo));
		snprintf(cmd, sizeof(cmd),
			 "set -e; cd '%s'; g='%s'; $g -c init.defaultBranch=main init -q 2>/dev/null "
			 "--object-format=%s --ref-format=reftable '%s'; cd '%s'; " IDENT
			 "for i in 1 2 3 4; do echo $i >f; $g add f; $g commit -q -m $i; "
			 "$g notes add -m n$i HEAD; $g branch b$i; done; "
			 "$g replace -f HEAD~3 HEAD~2",
			 scratch, git3, algo_name(algo), repo, repo);
		if (system(cmd) != 0) {
			CHECK(0, "%s: the Git 3.0 build cannot make the repository", repo);
			continue;
		}
		snprintf(act_cmd, sizeof(act_cmd),
			 "'%s' update-ref refs/heads/more HEAD; '%s' pack-refs --all", git3, git3);
		a.cmd = act_cmd;
		CHECK(audit(repo, &a, &res) == 0, "%s: the audit runs", repo);
		CHECK(a.times == 1, "%s: the pause acted once (%d)", repo, a.times);
		CHECK(res.findings == 0, "%s: %u findings, the first %s", repo, res.findings, res.first);
		CHECK(res.count[HEXOID_AREA_NOTES].scanned == 4, "%s: %llu notes read", repo,
		      (unsigned long long)res.count[HEXOID_AREA_NOTES].scanned);
	}
}
