/*
 * hexoid repair: the repair of hexoid_repair.h for each repository named, its actions
 * and what it leaves reported as the audit reports its findings.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hexoid_repair.h"

/* Some actions were left, a later run may do them: a lock held, a file changed. */
enum { EXIT_AGAIN = 3 };

static const char usage_repair[] =
	"usage: hexoid repair [--dry-run] [--json-lines] [--from=FILE] [--jobs=N] [-q]\n"
	"                     [--rewrite-history [--drop-signatures] [--replace-refs]]\n"
	"                     [--git=PROGRAM] [REPO...]\n"
	"\n"
	"Make each repository's files readable by Git 3.0: the object IDs that 'hexoid audit'\n"
	"finds in uppercase in loose refs and HEAD, pseudo-refs, packed-refs, reflogs,\n"
	"shallow, info/grafts, FETCH_HEAD, rebase and sequencer state, MERGE_RR, info/refs,\n"
	"objects/info/packs and the commit-graph and multi-pack-index chains (each linked\n"
	"worktree's and each submodule's too) are lowercased, and nothing else is changed:\n"
	"Git 2.x reads every file exactly as before. REPO is found as 'hexoid audit' finds it\n"
	"(default: the current folder).\n"
	"\n"
	"Each file is replaced as git replaces it: its lock (<file>.lock; a reflog's ref's\n"
	"lock and its own; packed-refs.lock, then packed-refs.new) created exclusively, the\n"
	"file read again under it, the new contents written with the old mode and owner,\n"
	"flushed when core.fsync asks, and renamed over the file. A lock someone holds is\n"
	"waited for as git waits (core.filesRefLockTimeout, core.packedRefsTimeout), then the\n"
	"file is left: run again. Killed at any point, each file is either as it was or\n"
	"repaired; the next run removes the locks the killed one had made, and only those\n"
	"(they are named in <gitdir>/hexoid-repair.journal, which also keeps two repairs of\n"
	"one repository from running at once).\n"
	"\n"
	"Notes in fanout folders of uppercase names (the Git 3.0 build loses them): a new\n"
	"notes commit on the notes ref, written by git fast-import from what git notes list\n"
	"reads, whose tree names every note in lowercase.\n"
	"\n"
	"Renamed: a loose object named in uppercase, or in a folder so named (once its\n"
	"content hashes to its ID; where git has it under the lowercase name already, the\n"
	"other is removed), and a refs/replace/<ID> with its reflog, under both names'\n"
	"locks (in packed-refs: renamed there, sorted again; in reftable: through --git).\n"
	"\n"
	"Not repaired, and reported as left: uppercase in the headers of commits and tags\n"
	"(unless --rewrite-history), and every error. Files outside the git directory\n"
	"(blame.ignoreRevsFile, fsck.skipList) are shown with their fix, not written.\n"
	"\n"
	"  --dry-run        print what would be done, change nothing\n"
	"  --json-lines     one JSON object a line: each action, each finding left, each\n"
	"                   repository's counts, each repository that could not be repaired,\n"
	"                   and the run's counts last (\"schema\": 1; see the README)\n"
	"  --from=FILE      also repair the repositories FILE lists, one path a line ('-':\n"
	"                   stdin)\n"
	"  --jobs=N         threads (default 1): with one repository, for its audit's\n"
	"                   objects; with several, N repositories at once, each in one\n"
	"                   thread, each one's report written whole\n"
	"  -q, --quiet      no line for each file repaired: only what is left, and counts\n"
	"  --rewrite-history  a new history for the commits and tags with uppercase IDs in\n"
	"                   their headers and all that reaches them from a ref, HEAD or a\n"
	"                   worktree's HEAD: each written again with its headers' IDs\n"
	"                   lowercased (and its parents' new IDs), every other byte kept, as\n"
	"                   a pack git indexes; the refs moved in one git update-ref\n"
	"                   transaction (reflogs kept); notes copied to the new commits;\n"
	"                   <gitdir>/hexoid-rewrite-map gets '<old> <new>' for each\n"
	"  --drop-signatures  write signed commits and tags again without their signature\n"
	"                   (without it, one that would have to be stops the rewrite)\n"
	"  --replace-refs   also refs/replace/<old> for each, so old IDs still resolve\n"
	"  --git=PROGRAM    the git run for new commits (the rewrite, notes; default: git on\n"
	"                   PATH): one that reads the repository's ref storage (reftable\n"
	"                   needs git 2.45 or later)\n"
	"\n"
	"Each action is one line: [AREA] PATH: OUTCOME: ..., where OUTCOME is done, shown,\n"
	"locked or changed (left: run again), failed, or with --dry-run planned. Each finding\n"
	"left is the audit's line after 'left: '. A last line per repository counts them.\n"
	"Exit status: 0 all repaired, nothing left; 1 findings left that repair does not\n"
	"fix, or fixes shown (with --dry-run: anything to do or left); 3 some files left to\n"
	"run again (a lock held, a file changed meanwhile); 2 usage error, a repository that\n"
	"could not be repaired, or a file that could not be written. 2 wins over 3, 3 over 1.\n";

/* What every repository's repair shares: the options, the list, stdout. */
struct shared {
	int json, quiet, dry_run;
	int rewrite, drop_signatures, replace_refs;
	const char *git;   /* --git: the git run for new commits */
	unsigned jobs;     /* each repair's audit threads */
	int many;          /* several repositories: each one's text written whole */
	long kill_after;   /* the test hook: SIGKILL before step kill_after + 1 */
	long steps;
	/* The list: the arguments, then --from's lines. */
	pthread_mutex_t list_lock, out_lock;
	char **args;
	int nargs, next;
	FILE *from;
	const char *from_name;
	char *line;
	size_t cap;
	int list_failed;
	char list_err[512];   /* why the list could not be read (to its end) */
	unsigned long nrepos;
	int code;
};

/* One repository's repair: its report, written whole when there are several. */
struct out {
	struct shared *sh;
	const char *repo;
	int json, quiet, dry_run;
	struct sbuf b;
};

/* What the report holds so far to stdout: at once with one repository or in JSON lines
 * (each line whole), at the repository's end (`last`) otherwise. */
static void emit(struct out *o, int last)
{
	if (!o->b.len || (o->sh->many && !o->json && !last))
		return;
	pthread_mutex_lock(&o->sh->out_lock);
	fwrite(o->b.p, 1, o->b.len, stdout);
	fflush(stdout);
	pthread_mutex_unlock(&o->sh->out_lock);
	o->b.len = 0;
	o->b.p[0] = 0;
}

static void flush(struct out *o)
{
	emit(o, 0);
}

static int on_left(void *ctx, const struct hexoid_audit_finding *f)
{
	struct out *o = ctx;

	if (f->cls == HEXOID_CLASS_WARN)
		return 0;
	if (o->json) {
		sb_json_head(&o->b, "left", o->repo);
		sb_puts(&o->b, ", ");
		audit_finding_json(&o->b, f, "object_type");
		sb_puts(&o->b, "}\n");
	} else {
		sb_puts(&o->b, "left: ");
		audit_finding_text(&o->b, f);
	}
	flush(o);
	return 0;
}

static int on_action(void *ctx, const struct hexoid_repair_action *a)
{
	struct out *o = ctx;
	const char *area = hexoid_audit_area_name(a->area);
	const char *what = hexoid_repair_outcome_name(a->outcome);

	if (o->json) {
		sb_json_head(&o->b, "action", o->repo);
		sb_printf(&o->b, ", \"area\": \"%s\", \"path\": ", area);
		sb_json_string(&o->b, a->path);
		sb_printf(&o->b, ", \"kind\": \"%s\", \"outcome\": \"%s\", \"lock\": ",
			  hexoid_repair_kind_name(a->kind), what);
		sb_json_string(&o->b, a->lock);
		sb_printf(&o->b, ", \"ids\": %lu, \"line\": %llu, \"column\": %lu, \"to\": ",
			  a->ids, a->line, a->column);
		sb_json_string(&o->b, a->to);
		sb_puts(&o->b, ", \"message\": ");
		sb_json_string(&o->b, a->message);
		sb_puts(&o->b, "}\n");
	} else if (a->kind == HEXOID_REPAIR_REWRITE && a->area == HEXOID_AREA_NOTES &&
		   (a->outcome == HEXOID_REPAIR_PLANNED || a->outcome == HEXOID_REPAIR_DONE)) {
		if (a->outcome == HEXOID_REPAIR_PLANNED)
			sb_printf(&o->b, "[%s] %s: would write a notes commit whose tree names its notes in lowercase\n",
				  area, a->path);
		else if (!o->quiet)
			sb_printf(&o->b, "[%s] %s: done: notes commit %s names its notes in lowercase\n", area,
				  a->path, a->to);
	} else if (a->kind == HEXOID_REPAIR_REWRITE &&
		   (a->outcome == HEXOID_REPAIR_PLANNED || a->outcome == HEXOID_REPAIR_DONE)) {
		if (a->outcome == HEXOID_REPAIR_PLANNED || !o->quiet)
			sb_printf(&o->b, "[%s] %s: %s %s (its history written again)\n", area, a->path,
				  a->outcome == HEXOID_REPAIR_PLANNED ? "would move to" : "done: moved to",
				  a->to);
	} else if (a->kind == HEXOID_REPAIR_RENAME &&
		   (a->outcome == HEXOID_REPAIR_PLANNED || a->outcome == HEXOID_REPAIR_DONE)) {
		if (a->outcome == HEXOID_REPAIR_PLANNED || !o->quiet)
			sb_printf(&o->b, "[%s] %s: %s %s\n", area, a->path,
				  a->outcome == HEXOID_REPAIR_PLANNED ? "would rename to" : "done: renamed to",
				  a->to);
	} else if (a->outcome == HEXOID_REPAIR_PLANNED) {
		if (a->kind == HEXOID_REPAIR_SHOW)
			sb_printf(&o->b, "[%s] %s:%llu:%lu: would show: lowercase this ID (outside the git directory: not written)\n",
				  area, a->path, a->line, a->column);
		else
			sb_printf(&o->b, "[%s] %s: would lowercase %lu ID%s\n", area, a->path, a->ids,
				  a->ids == 1 ? "" : "s");
	} else if (a->outcome == HEXOID_REPAIR_SHOWN) {
		sb_printf(&o->b, "[%s] %s:%llu:%lu: shown: lowercase this ID by hand (outside the git directory: not written)\n",
			  area, a->path, a->line, a->column);
	} else if (a->outcome == HEXOID_REPAIR_DONE) {
		if (!o->quiet)
			sb_printf(&o->b, "[%s] %s: done: %lu ID%s lowercased\n", area, a->path, a->ids,
				  a->ids == 1 ? "" : "s");
	} else {
		sb_printf(&o->b, "[%s] %s: %s: %s%s\n", area, a->path, what,
			  a->message ? a->message : "",
			  a->outcome == HEXOID_REPAIR_FAILED ? "" : ": left as it was, run again");
	}
	flush(o);
	return 0;
}

static int on_step(void *ctx, const char *what, const char *path)
{
	struct out *o = ctx;

	(void)what;
	(void)path;
	if (o->sh->kill_after >= 0 && __atomic_fetch_add(&o->sh->steps, 1, __ATOMIC_RELAXED) == o->sh->kill_after) {
		emit(o, 1);
		raise(SIGKILL);
	}
	return 0;
}

/* Why a repository was not repaired: on stderr, and as JSON with a stable code. */
static void error_line(struct out *o, const char *code, const char *message)
{
	if (o->json) {
		sb_json_head(&o->b, "error", o->repo);
		sb_puts(&o->b, ", \"code\": ");
		sb_json_string(&o->b, code);
		sb_puts(&o->b, ", \"message\": ");
		sb_json_string(&o->b, message);
		sb_puts(&o->b, "}\n");
		flush(o);
	}
	fprintf(stderr, "hexoid repair: %s: %s\n", o->repo, message);
}

static int repair_one(struct out *o, const char *repo)
{
	unsigned jobs = o->sh->jobs;
	struct hexoid_repair_options opt;
	struct hexoid_repair_count c;
	struct hexoid_repair *rp;
	struct hexoid_audit *audit;
	char err[512];
	int ret, code;

	hexoid_repair_options_init(&opt, sizeof(opt));

	o->repo = repo;
	if (!(rp = hexoid_repair_open(repo, err, sizeof(err)))) {
		/* The repair opens the repository as the audit does: the audit's code says why. */
		enum hexoid_audit_open_error why = 0;
		char again[512];
		const char *name;
		hexoid_audit_close(hexoid_audit_open_with(repo, 0, &why, again, sizeof(again)));
		name = hexoid_audit_open_error_name(why);
		error_line(o, name ? name : "unreadable", err);
		return EXIT_TROUBLE;
	}
	audit = hexoid_repair_audit(rp);
	if (!o->json) {
		sb_printf(&o->b, "hexoid repair: %s (%s, %s)%s\n", repo,
			  hexoid_audit_algo(audit) == HEXOID_SHA256 ? "sha256" : "sha1",
			  hexoid_audit_ref_storage(audit) == HEXOID_REFS_REFTABLE ? "reftable" : "files",
			  o->dry_run ? ": dry run" : "");
		flush(o);
	}
	opt.jobs = jobs;
	opt.dry_run = o->dry_run;
	opt.on_action = on_action;
	opt.on_left = on_left;
	opt.on_step = on_step;
	opt.ctx = o;
	opt.rewrite_history = o->sh->rewrite;
	opt.drop_signatures = o->sh->drop_signatures;
	opt.replace_refs = o->sh->replace_refs;
	opt.git = o->sh->git;
	ret = hexoid_repair_apply(rp, &opt, err, sizeof(err));
	hexoid_repair_summary(rp, &c);
	if (ret < 0) {
		error_line(o, "repair-failed", err);
		emit(o, 1);
		hexoid_repair_close(rp);
		return EXIT_TROUBLE;
	}
	if (c.failed)
		code = EXIT_TROUBLE;
	else if (c.locked || c.changed)
		code = EXIT_AGAIN;
	else if (c.left_git3 || c.left_errors || c.shown || (o->dry_run && c.planned))
		code = EXIT_INVALID;
	else
		code = EXIT_VALID;
	if (o->json) {
		sb_json_head(&o->b, "repository", repo);
		sb_printf(&o->b,
			  ", \"object_format\": \"%s\", \"ref_storage\": \"%s\", \"dry_run\": %s, "
			  "\"planned\": %llu, \"ids\": %llu, \"done\": %llu, \"shown\": %llu, "
			  "\"locked\": %llu, \"changed\": %llu, \"failed\": %llu, "
			  "\"left_git3\": %llu, \"left_errors\": %llu, \"recovered_locks\": %llu, "
			  "\"commits_rewritten\": %llu, \"tags_rewritten\": %llu, \"exit\": %d}\n",
			  hexoid_audit_algo(audit) == HEXOID_SHA256 ? "sha256" : "sha1",
			  hexoid_audit_ref_storage(audit) == HEXOID_REFS_REFTABLE ? "reftable" : "files",
			  o->dry_run ? "true" : "false", (unsigned long long)c.planned,
			  (unsigned long long)c.ids, (unsigned long long)c.done,
			  (unsigned long long)c.shown, (unsigned long long)c.locked,
			  (unsigned long long)c.changed, (unsigned long long)c.failed,
			  (unsigned long long)c.left_git3, (unsigned long long)c.left_errors,
			  (unsigned long long)c.recovered, (unsigned long long)c.commits,
			  (unsigned long long)c.tags, code);
	} else {
		if (c.recovered)
			sb_printf(&o->b, "%s: %llu lock%s of a repair that was killed removed first\n",
				  repo, (unsigned long long)c.recovered, c.recovered == 1 ? "" : "s");
		if (c.commits || c.tags)
			sb_printf(&o->b, "%s: %llu commit%s and %llu tag%s %swritten again\n", repo,
				  (unsigned long long)c.commits, c.commits == 1 ? "" : "s",
				  (unsigned long long)c.tags, c.tags == 1 ? "" : "s",
				  o->dry_run ? "to be " : "");
		if (o->dry_run)
			sb_printf(&o->b, "%s: %llu file%s to repair (%llu IDs), %llu finding%s left\n",
				  repo, (unsigned long long)c.planned, c.planned == 1 ? "" : "s",
				  (unsigned long long)c.ids,
				  (unsigned long long)(c.left_git3 + c.left_errors),
				  c.left_git3 + c.left_errors == 1 ? "" : "s");
		else
			sb_printf(&o->b,
				  "%s: %llu file%s repaired, %llu shown, %llu to run again, %llu failed, "
				  "%llu finding%s left (%llu git3, %llu error)\n",
				  repo, (unsigned long long)c.done, c.done == 1 ? "" : "s",
				  (unsigned long long)c.shown,
				  (unsigned long long)(c.locked + c.changed), (unsigned long long)c.failed,
				  (unsigned long long)(c.left_git3 + c.left_errors),
				  c.left_git3 + c.left_errors == 1 ? "" : "s",
				  (unsigned long long)c.left_git3, (unsigned long long)c.left_errors);
	}
	emit(o, 1);
	hexoid_repair_close(rp);
	return ret == 1 ? EXIT_TROUBLE : code;
}

/* 2 wins over 3, 3 over 1, 1 over 0. */
static int worse(int a, int b)
{
	static const int rank[] = { 0, 1, 3, 2 };
	return rank[b] > rank[a] ? b : a;
}

/* The next repository of the list, malloc'ed; NULL at its end. */
static char *next_repo(struct shared *sh)
{
	char *repo = NULL;

	pthread_mutex_lock(&sh->list_lock);
	if (sh->next < sh->nargs)
		repo = strdup(sh->args[sh->next++]);
	while (!repo && sh->from) {
		ssize_t len = getline(&sh->line, &sh->cap, sh->from);
		if (len < 0) {
			if (ferror(sh->from)) {
				snprintf(sh->list_err, sizeof(sh->list_err), "%s: reading the list: %s",
					 sh->from_name, strerror(errno));
				sh->list_failed = 1;
			}
			sh->from = NULL;
			break;
		}
		if (len && sh->line[len - 1] == '\n')
			sh->line[--len] = 0;
		if (len && sh->line[len - 1] == '\r')
			sh->line[--len] = 0;
		if (len)
			repo = strdup(sh->line);
	}
	if (repo)
		sh->nrepos++;
	pthread_mutex_unlock(&sh->list_lock);
	return repo;
}

static void *repair_worker(void *p)
{
	struct shared *sh = p;
	char *repo;

	while ((repo = next_repo(sh))) {
		struct out o;
		int rc;
		memset(&o, 0, sizeof(o));
		o.sh = sh;
		o.json = sh->json;
		o.quiet = sh->quiet;
		o.dry_run = sh->dry_run;
		rc = repair_one(&o, repo);
		sb_free(&o.b);
		free(repo);
		pthread_mutex_lock(&sh->list_lock);
		sh->code = worse(sh->code, rc);
		pthread_mutex_unlock(&sh->list_lock);
	}
	return NULL;
}

int cmd_repair(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_OPT_HELP,
		CLI_OPT_JOBS,
		{ "dry-run", no_argument, NULL, 'n' },
		{ "json-lines", no_argument, NULL, 'L' },
		{ "from", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "rewrite-history", no_argument, NULL, 'R' },
		{ "drop-signatures", no_argument, NULL, 'S' },
		{ "replace-refs", no_argument, NULL, 'P' },
		{ "git", required_argument, NULL, 'G' },
		CLI_OPT_END,
	};
	static char *here[] = { (char *)"." };
	struct shared sh;
	const char *kill_after = getenv("HEXOID_REPAIR_KILL_AFTER");
	unsigned long jobs = 1, i, nthreads;
	pthread_t threads[256];
	int c;

	memset(&sh, 0, sizeof(sh));
	sh.kill_after = kill_after && *kill_after ? strtol(kill_after, NULL, 10) : -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hnqj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_repair, stdout);
			return EXIT_VALID;
		case 'n':
			sh.dry_run = 1;
			break;
		case 'L':
			sh.json = 1;
			break;
		case 'q':
			sh.quiet = 1;
			break;
		case 'R':
			sh.rewrite = 1;
			break;
		case 'S':
			sh.drop_signatures = 1;
			break;
		case 'P':
			sh.replace_refs = 1;
			break;
		case 'G':
			sh.git = optarg;
			break;
		case 'f':
			sh.from_name = optarg;
			break;
		case 'j':
			if (parse_jobs(optarg, &jobs)) {
				fprintf(stderr, "hexoid repair: --jobs takes a count from 1 to 256, not '%s'\n",
					optarg);
				return EXIT_TROUBLE;
			}
			break;
		default:
			fputs(usage_repair, stderr);
			return EXIT_TROUBLE;
		}
	}
	if (!sh.rewrite && (sh.drop_signatures || sh.replace_refs)) {
		fprintf(stderr, "hexoid repair: --drop-signatures and --replace-refs go with --rewrite-history\n");
		return EXIT_TROUBLE;
	}
	if (sh.from_name) {
		sh.from = strcmp(sh.from_name, "-") ? fopen(sh.from_name, "r") : stdin;
		if (!sh.from) {
			/* Nothing to repair; the JSON says why as well as stderr. */
			snprintf(sh.list_err, sizeof(sh.list_err), "%s: cannot read the list: %s",
				 sh.from_name, strerror(errno));
			sh.list_failed = 1;
		}
	}
	sh.args = argv + optind;
	sh.nargs = argc - optind;
	if (!sh.nargs && !sh.from_name) {
		sh.args = here;
		sh.nargs = 1;
	}
	/* As the audit: with several repositories, --jobs of them at once, each repair's
	 * audit in its one thread; with one, --jobs threads for its audit's objects. */
	sh.many = sh.nargs > 1 || sh.from_name;
	sh.jobs = sh.many ? 1 : (unsigned)jobs;
	nthreads = sh.many ? jobs : 1;
	pthread_mutex_init(&sh.list_lock, NULL);
	pthread_mutex_init(&sh.out_lock, NULL);
	for (i = 1; i < nthreads; i++)
		if (pthread_create(&threads[i], NULL, repair_worker, &sh))
			break;
	nthreads = i;
	repair_worker(&sh);
	for (i = 1; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	if (sh.from && sh.from != stdin)
		fclose(sh.from);
	free(sh.line);
	if (sh.list_failed) {
		sh.code = EXIT_TROUBLE;
		fprintf(stderr, "hexoid repair: %s\n", sh.list_err);
		if (sh.json) {
			struct sbuf b = { 0 };
			sb_json_head(&b, "error", NULL);
			sb_puts(&b, ", \"code\": \"list-unreadable\", \"message\": ");
			sb_json_string(&b, sh.list_err);
			sb_puts(&b, "}\n");
			if (!b.oom)
				fwrite(b.p, 1, b.len, stdout);
			sb_free(&b);
		}
	}
	if (sh.json) {
		printf("{\"schema\": 1, \"type\": \"run\", \"command\": \"repair\", \"repositories\": %lu, \"dry_run\": %s, "
		       "\"exit\": %d}\n",
		       sh.nrepos, sh.dry_run ? "true" : "false", sh.code);
	} else if (sh.many) {
		printf("%lu repositories\n", sh.nrepos);
	}
	return sh.code;
}
