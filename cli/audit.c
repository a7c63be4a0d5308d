/*
 * hexoid audit: everything in a repository that Git 3.0 will reject — object IDs in
 * refs, packed-refs, reflogs, shallow, FETCH_HEAD, the commit-graph and multi-pack-index
 * chains, and the tree/parent/object headers of every loose and packed commit and tag.
 * hexoid verify-pack: the pack part alone.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "hexoid_audit.h"

static const char usage_audit[] =
	"usage: hexoid audit [--json|--json-lines] [--jobs=N] [--verify-ids] [--exact]\n"
	"                    [--progress|--no-progress] [--from=FILE] [REPO...]\n"
	"   or: hexoid audit --objects-dir [--object-format=sha1|sha256] [options] DIR...\n"
	"\n"
	"Find every object ID in the repository at or above REPO (default: $GIT_DIR when\n"
	"it is set, as git takes it, else the current directory; a work tree, a bare\n"
	"repository, a linked worktree; not above a folder GIT_CEILING_DIRECTORIES names, as\n"
	"git) that Git 3.0 will reject, and everything\n"
	"malformed, in every file git reads one from:\n"
	"  refs                HEAD, loose refs (refs/**)\n"
	"  pseudo-refs         ORIG_HEAD, MERGE_HEAD, AUTO_MERGE, REBASE_HEAD, CHERRY_PICK_HEAD,\n"
	"                      REVERT_HEAD, BISECT_HEAD, BISECT_EXPECTED_REV, BISECT_START\n"
	"  packed-refs         packed-refs, with its ^ lines\n"
	"  reflogs             logs/**\n"
	"  shallow             shallow\n"
	"  fetch-head          FETCH_HEAD\n"
	"  grafts              info/grafts\n"
	"  replace             the names of refs/replace/<id> refs, loose and packed\n"
	"  notes               the paths of notes in the trees of refs/notes/*\n"
	"  rebase              rebase-merge/ and rebase-apply/ of a stopped rebase\n"
	"  sequencer           sequencer/ of a stopped cherry-pick or revert\n"
	"  rerere              MERGE_RR, rr-cache/<id>\n"
	"  config-files        what fsck.skipList, {fetch,receive}.fsck.skipList and\n"
	"                      blame.ignoreRevsFile name\n"
	"  dumb-http           info/refs, objects/info/packs\n"
	"  promisor            the names of objects/pack/*.promisor\n"
	"  commit-graph-chain  objects/info/commit-graphs/commit-graph-chain\n"
	"  midx-chain          objects/pack/multi-pack-index.d/multi-pack-index-chain\n"
	"  loose-objects       objects/xx/...: names, and the headers of commits and tags\n"
	"  pack-objects        objects/pack/*.pack: names, CRC32s, checksums, and the headers\n"
	"                      of every commit and tag, through their delta chains\n"
	"  alternates          the objects of the folders objects/info/alternates lists\n"
	"Each linked worktree's own files are read too (worktrees/<name>/HEAD, ...), and\n"
	"each submodule's repository under modules/ (modules/<name>/...), whole.\n"
	"The hash (SHA-1 or SHA-256) and the ref storage come from the repository's config;\n"
	"a reftable repository's refs and logs hold binary IDs: nothing to check there.\n"
	"The audit only reads: FIFOs, sockets and devices are reported, never opened.\n"
	"\n"
	"  --json           one JSON object on stdout instead of the text report (one\n"
	"                   repository only)\n"
	"  --json-lines     one JSON object a line, as they happen: each finding, each\n"
	"                   repository's summary, each repository that could not be audited,\n"
	"                   and the run's counts last (\"schema\": 1; see the README)\n"
	"  --from=FILE      also audit the repositories FILE lists, one path a line ('-':\n"
	"                   stdin)\n"
	"  --jobs=N         threads (default 1): with one repository, for its objects; with\n"
	"                   several, N repositories at once, each in one thread\n"
	"  --verify-ids     also rehash every commit and tag and compare it with its ID\n"
	"  --exact          each REPO is a repository itself (a git directory, or a folder\n"
	"                   with .git): no folder above it is searched; one that is not is\n"
	"                   not audited (exit 2)\n"
	"  --objects-dir    each DIR (and each line of --from) is an objects folder outside\n"
	"                   any repository (a shared object pool, a quarantine): its loose\n"
	"                   objects, packs and alternates are audited, named from DIR\n"
	"  --object-format=HASH  their hash (default: from the names of their packs or\n"
	"                   loose objects; sha1 when they hold none)\n"
	"  --progress       a progress line on stderr (default: when stderr is a terminal);\n"
	"                   with several repositories, it counts them\n"
	"\n"
	"Each finding is one line: [AREA] PATH:LINE:COL: CLASS: MESSAGE for files,\n"
	"[AREA] PATH: CLASS: MESSAGE about a file as a whole, and\n"
	"[AREA] PATH: TYPE OID: HEADER header, line L, column C: CLASS: MESSAGE for objects.\n"
	"CLASS is git3 (Git 2.x accepts it, Git 3.0 rejects or ignores it), error (rejected\n"
	"by both, damaged, or unreadable) or warn (uppercase that the Git 3.0 build still\n"
	"accepts: a pack's name, a note's own name). A summary table follows (with a warn\n"
	"column when there is one).\n"
	"With several repositories (or --from), each one's report is written whole when it\n"
	"is done, never mixed with another's: its first line, its findings, then one line\n"
	"'REPO: N scanned, N git3, N error'; a last line counts the repositories.\n"
	"Exit status: 0 nothing found (or only warn findings), 1 git3 or error findings,\n"
	"2 usage error or a repository that could not be audited. With several\n"
	"repositories, 2 wins over 1: the run is not whole when one was not audited.\n"
	"SIGINT or SIGTERM stops the audits under way within a tenth of a second and\n"
	"starts no other: what was found is written, each repository cut short is an\n"
	"'interrupted' error, then hexoid dies of the signal (130 or 143 in a shell).\n";

static const char usage_verify_pack[] =
	"usage: hexoid verify-pack [--verify-ids] [--jobs=N] [--object-format=sha1|sha256] [-q]\n"
	"                          [--json]\n"
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
	"  --json                JSON lines on stdout instead of the text: one object for each\n"
	"                        finding, each pack, each pack that could not be read, and\n"
	"                        the run's counts last (\"schema\": 1; see the README)\n"
	"\n"
	"Exit status: 0 clean, 1 findings (including damaged objects or checksums),\n"
	"2 usage error or unusable input (missing file, not a pack, corrupt index).\n";

/* --- output ------------------------------------------------------------------------ */

/* What an object finding says, from the pack module or the audit. */
struct shown {
	const char *path;
	int has_oid;
	const unsigned char *oid;
	enum hexoid_algo algo;
	enum hexoid_object_type type;
	const char *header;
	unsigned long long line;
	unsigned long column;
	uint64_t offset;
	const char *cls;
	const char *message;
};

/* An object ID in lowercase hex, into hex (HEXOID_MAX_HEXSZ + 1 bytes). */
static const char *hex_of(char *hex, const unsigned char *oid, enum hexoid_algo algo)
{
	size_t rawsz = hexoid_rawsz(algo);

	hexoid_encode(hex, 2 * rawsz, oid, 1, algo);
	hex[2 * rawsz] = 0;
	return hex;
}

/* One object finding as text, without the area: PATH: ... */
static void object_text(struct sbuf *out, const struct shown *f)
{
	char hex[HEXOID_MAX_HEXSZ + 1] = "";
	const char *type = hexoid_object_type_name(f->type);

	if (f->has_oid)
		hex_of(hex, f->oid, f->algo);
	if (f->header)
		sb_printf(out, "%s: %s %s: %s header, line %llu, column %lu: %s: %s\n", f->path, type,
			  hex, f->header, f->line, f->column, f->cls, f->message);
	else if (f->offset != HEXOID_NO_OFFSET && f->has_oid)
		sb_printf(out, "%s: offset %llu: %s: %s (object %s)\n", f->path,
			  (unsigned long long)f->offset, f->cls, f->message, hex);
	else if (f->offset != HEXOID_NO_OFFSET)
		sb_printf(out, "%s: offset %llu: %s: %s\n", f->path, (unsigned long long)f->offset,
			  f->cls, f->message);
	else if (f->has_oid && type)
		sb_printf(out, "%s: %s %s: %s: %s\n", f->path, type, hex, f->cls, f->message);
	else
		sb_printf(out, "%s: %s: %s\n", f->path, f->cls, f->message);
}

/* "NAME [########............]  40% 18000/45000 UNIT", redrawn in place. */
static void progress_bar(const char *name, uint64_t done, uint64_t total, const char *unit)
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
	fprintf(stderr, "\r%s [%s] %3u%% %llu/%llu %s\033[K", name, bar,
		(unsigned)(done * 100 / total), (unsigned long long)done, (unsigned long long)total,
		unit);
	fflush(stderr);
}

/* --- audit ------------------------------------------------------------------------- */

enum out_mode { OUT_TEXT, OUT_JSON, OUT_JSON_LINES };

/* One run of the command: its repositories, and the output they share. */
struct run_out {
	pthread_mutex_t lock;     /* output, progress, the counts and `next` */
	enum out_mode mode;
	int many;                 /* several repositories (or --from): reports written whole */
	int progress, progress_shown;
	unsigned long jobs;
	int verify_ids;
	int objects;              /* --objects-dir: each one is an objects folder */
	int exact;                /* --exact: each one is a repository, not searched above */
	enum hexoid_algo algo;    /* --object-format, for those; 0: from their contents */
	struct repo_list list;    /* the repositories: arguments, then --from */
	int list_error;           /* the list could not be read (to its end) */
	size_t done, clean, found, failed;
	int write_failed;
};

/*
 * SIGINT and SIGTERM during an audit: the signal's number. The audits under way stop
 * within a tenth of a second (the library reads it as their cancel flag), no further
 * repository is started, what was found is written with an `interrupted` error for each
 * repository cut short and the run line, and the command then dies of the signal as if
 * it had not caught it (exit 130 or 143 in a shell). A second one kills at once.
 */
static int audit_interrupt;

static void on_interrupt(int sig)
{
	__atomic_store_n(&audit_interrupt, sig, __ATOMIC_RELAXED);
}

static void catch_interrupts(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a read of a --from list piped in returns, so the run can end. */
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static int interrupted(void)
{
	return __atomic_load_n(&audit_interrupt, __ATOMIC_RELAXED);
}

/* One repository's report as it is written. */
struct report {
	struct run_out *ro;
	const char *repo;
	struct sbuf b;
	unsigned long long nfindings, nwarn;
};

/* Under the lock: the progress line off the terminal before anything is written. */
static void clear_progress(struct run_out *ro)
{
	if (ro->progress_shown) {
		fputs("\r\033[K", stderr);
		ro->progress_shown = 0;
	}
}

/* What the report holds so far, onto stdout in one piece; JSON lines are flushed. */
static void emit(struct report *rp)
{
	struct run_out *ro = rp->ro;

	if (!rp->b.len && !rp->b.oom)
		return;
	pthread_mutex_lock(&ro->lock);
	clear_progress(ro);
	if (rp->b.oom) {
		fputs("hexoid: out of memory for the report\n", stderr);
		ro->write_failed = 1;
	} else if ((rp->b.len && fwrite(rp->b.p, 1, rp->b.len, stdout) != rp->b.len) ||
		   (ro->mode == OUT_JSON_LINES && fflush(stdout))) {
		ro->write_failed = 1;
	}
	pthread_mutex_unlock(&ro->lock);
	rp->b.len = 0;
	rp->b.oom = 0;
}

/* A repository that could not be audited: the reason on stderr, and as JSON with its
 * stable code. */
static void not_audited(struct run_out *ro, const char *repo, const char *code, const char *why)
{
	pthread_mutex_lock(&ro->lock);
	clear_progress(ro);
	fflush(stdout);
	fprintf(stderr, "hexoid: %s\n", why);
	if (ro->mode == OUT_JSON_LINES) {
		struct sbuf b = { 0 };
		sb_json_head(&b, "error", repo);
		sb_puts(&b, ", \"code\": ");
		sb_json_string(&b, code);
		sb_puts(&b, ", \"message\": ");
		sb_json_string(&b, why);
		sb_puts(&b, "}\n");
		if (b.oom || fwrite(b.p, 1, b.len, stdout) != b.len || fflush(stdout))
			ro->write_failed = 1;
		sb_free(&b);
	}
	pthread_mutex_unlock(&ro->lock);
}

/* A finding about a line of a file: it has a line and is not about an object. */
static int is_line_finding(const struct hexoid_audit_finding *f)
{
	return f->line && !f->header && !f->has_oid && f->offset == HEXOID_NO_OFFSET;
}

/* The fields of a finding in JSON, after "{": the same in --json and --json-lines but
 * for the key of the object's type ("type" there, "object_type" here). */
void audit_finding_json(struct sbuf *b, const struct hexoid_audit_finding *f,
			const char *type_key)
{
	const char *type = hexoid_object_type_name(f->type);
	char hex[HEXOID_MAX_HEXSZ + 1];

	sb_printf(b, "\"area\": \"%s\", \"path\": ", hexoid_audit_area_name(f->area));
	sb_json_string(b, f->path);
	f->line ? sb_printf(b, ", \"line\": %llu", f->line) : sb_puts(b, ", \"line\": null");
	f->column ? sb_printf(b, ", \"column\": %lu", f->column) : sb_puts(b, ", \"column\": null");
	sb_puts(b, ", \"object\": ");
	if (f->has_oid)
		sb_printf(b, "\"%s\"", hex_of(hex, f->oid, f->algo));
	else
		sb_puts(b, "null");
	sb_printf(b, ", \"%s\": ", type_key);
	if (type && (f->type == HEXOID_OBJ_COMMIT || f->type == HEXOID_OBJ_TAG))
		sb_printf(b, "\"%s\"", type);
	else
		sb_puts(b, "null");
	sb_puts(b, ", \"header\": ");
	sb_json_string(b, f->header);
	if (f->offset != HEXOID_NO_OFFSET)
		sb_printf(b, ", \"offset\": %llu", (unsigned long long)f->offset);
	else
		sb_puts(b, ", \"offset\": null");
	sb_printf(b, ", \"class\": \"%s\", \"code\": \"%s\", \"message\": ",
		  hexoid_finding_class_name(f->cls), hexoid_code_name(f->code));
	sb_json_string(b, f->message);
}

/* One finding as the audit's text report shows it, a line. */
void audit_finding_text(struct sbuf *b, const struct hexoid_audit_finding *f)
{
	const char *area = hexoid_audit_area_name(f->area);
	const char *cls = hexoid_finding_class_name(f->cls);

	if (is_line_finding(f)) {
		sb_printf(b, "[%s] %s:%llu:%lu: %s: %s\n", area, f->path, f->line, f->column, cls,
			  f->message);
	} else {
		struct shown s = { f->path, f->has_oid, f->oid, f->algo, f->type, f->header,
				   f->line, f->column, f->offset, cls, f->message };
		sb_printf(b, "[%s] ", area);
		object_text(b, &s);
	}
}

static int on_finding(void *ctx, const struct hexoid_audit_finding *f)
{
	struct report *rp = ctx;
	struct run_out *ro = rp->ro;

	rp->nfindings++;
	if (f->cls == HEXOID_CLASS_WARN)
		rp->nwarn++;
	switch (ro->mode) {
	case OUT_TEXT:
		audit_finding_text(&rp->b, f);
		break;
	case OUT_JSON:
		sb_puts(&rp->b, rp->nfindings > 1 ? ",\n    {" : "\n    {");
		audit_finding_json(&rp->b, f, "type");
		sb_puts(&rp->b, "}");
		break;
	case OUT_JSON_LINES:
		sb_json_head(&rp->b, "finding", rp->repo);
		sb_puts(&rp->b, ", ");
		audit_finding_json(&rp->b, f, "object_type");
		sb_puts(&rp->b, "}\n");
		break;
	}
	/* One repository of many is written whole, at its end; otherwise as it comes. */
	if (!ro->many || ro->mode == OUT_JSON_LINES)
		emit(rp);
	return 0;
}

static int on_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	struct report *rp = ctx;
	struct run_out *ro = rp->ro;

	/* With several repositories the bar counts repositories instead. */
	if (ro->progress && !ro->many) {
		progress_bar(what, done, total, "commits and tags");
		ro->progress_shown = 1;
	}
	return 0;
}

/* The areas' counts, and their sum. */
static void counts(const struct hexoid_audit *audit, struct hexoid_audit_count *c,
		   struct hexoid_audit_count *total)
{
	int i;

	memset(total, 0, sizeof(*total));
	for (i = 0; i < HEXOID_AREA_COUNT; i++) {
		hexoid_audit_summary(audit, (enum hexoid_audit_area)i, &c[i]);
		total->scanned += c[i].scanned;
		total->git3 += c[i].git3;
		total->warn += c[i].warn;
		total->errors += c[i].errors;
	}
}

/* The ref storage as a JSON value: null for an objects folder. */
static const char *ref_storage(const struct run_out *ro, const struct hexoid_audit *audit)
{
	if (ro->objects)
		return "null";
	return hexoid_audit_ref_storage(audit) == HEXOID_REFS_REFTABLE ? "\"reftable\"" : "\"files\"";
}

static void summary(const struct hexoid_audit *audit, struct report *rp)
{
	struct hexoid_audit_count c[HEXOID_AREA_COUNT], t;
	struct sbuf *b = &rp->b;
	int i, warn = rp->nwarn > 0;

	counts(audit, c, &t);
	switch (rp->ro->mode) {
	case OUT_JSON:
		sb_printf(b, "%s  ],\n  \"summary\": {", rp->nfindings ? "\n" : "");
		for (i = 0; i < HEXOID_AREA_COUNT; i++) {
			sb_printf(b, "%s\n    \"%s\": {\"scanned\": %llu, \"git3\": %llu, ", i ? "," : "",
				  hexoid_audit_area_name((enum hexoid_audit_area)i),
				  (unsigned long long)c[i].scanned, (unsigned long long)c[i].git3);
			if (warn)
				sb_printf(b, "\"warn\": %llu, ", (unsigned long long)c[i].warn);
			sb_printf(b, "\"error\": %llu}", (unsigned long long)c[i].errors);
		}
		sb_puts(b, "\n  }\n}\n");
		return;
	case OUT_JSON_LINES:
		sb_json_head(b, "repository", rp->repo);
		sb_puts(b, ", \"gitdir\": ");
		sb_json_string(b, hexoid_audit_gitdir(audit));
		sb_printf(b, ", \"object_format\": \"%s\", \"ref_storage\": %s, "
			  "\"scanned\": %llu, \"git3\": %llu, \"warn\": %llu, \"error\": %llu, "
			  "\"areas\": {",
			  hexoid_audit_algo(audit) == HEXOID_SHA256 ? "sha256" : "sha1",
			  ref_storage(rp->ro, audit), (unsigned long long)t.scanned, (unsigned long long)t.git3,
			  (unsigned long long)t.warn, (unsigned long long)t.errors);
		for (i = 0; i < HEXOID_AREA_COUNT; i++)
			sb_printf(b, "%s\"%s\": {\"scanned\": %llu, \"git3\": %llu, \"warn\": %llu, "
				  "\"error\": %llu}", i ? ", " : "",
				  hexoid_audit_area_name((enum hexoid_audit_area)i),
				  (unsigned long long)c[i].scanned, (unsigned long long)c[i].git3,
				  (unsigned long long)c[i].warn, (unsigned long long)c[i].errors);
		sb_printf(b, "}, \"exit\": %d}\n", rp->nfindings > rp->nwarn ? EXIT_INVALID : EXIT_VALID);
		return;
	case OUT_TEXT:
		break;
	}
	if (rp->ro->many) {
		sb_printf(b, "%s: %llu scanned, %llu git3, ", rp->repo, (unsigned long long)t.scanned,
			  (unsigned long long)t.git3);
		if (warn)
			sb_printf(b, "%llu warn, ", (unsigned long long)t.warn);
		sb_printf(b, "%llu error\n", (unsigned long long)t.errors);
		return;
	}
	sb_printf(b, "\nsummary:\n  %-20s %10s %8s ", "area", "scanned", "git3");
	if (warn)
		sb_printf(b, "%8s ", "warn");
	sb_printf(b, "%8s\n", "error");
	for (i = 0; i < HEXOID_AREA_COUNT; i++) {
		sb_printf(b, "  %-20s %10llu %8llu ", hexoid_audit_area_name((enum hexoid_audit_area)i),
			  (unsigned long long)c[i].scanned, (unsigned long long)c[i].git3);
		if (warn)
			sb_printf(b, "%8llu ", (unsigned long long)c[i].warn);
		sb_printf(b, "%8llu\n", (unsigned long long)c[i].errors);
	}
	sb_printf(b, "  %-20s %10llu %8llu ", "total", (unsigned long long)t.scanned,
		  (unsigned long long)t.git3);
	if (warn)
		sb_printf(b, "%8llu ", (unsigned long long)t.warn);
	sb_printf(b, "%8llu\n", (unsigned long long)t.errors);
}

/* Audit one repository and write its report: EXIT_VALID, EXIT_INVALID or EXIT_TROUBLE. */
static int audit_one(struct run_out *ro, const char *repo)
{
	struct hexoid_audit_options o;
	enum hexoid_audit_open_error why = 0;
	struct hexoid_audit *audit;
	struct report rp;
	const char *algo;
	char err[512];

	hexoid_audit_options_init(&o, sizeof(o));
	int rc;

	memset(&rp, 0, sizeof(rp));
	rp.ro = ro;
	rp.repo = repo;
	if (ro->objects) {
		struct stat st;
		if (!(audit = hexoid_audit_open_objects(repo, ro->algo, err, sizeof(err))))
			why = stat(repo, &st) < 0 ? (errno == ENOENT || errno == ENOTDIR
							     ? HEXOID_OPEN_NOT_FOUND
							     : HEXOID_OPEN_UNREADABLE)
			      : !S_ISDIR(st.st_mode) ? HEXOID_OPEN_NOT_A_FOLDER
						     : HEXOID_OPEN_UNREADABLE;
	} else {
		audit = hexoid_audit_open_with(repo, ro->exact ? HEXOID_AUDIT_OPEN_EXACT : 0, &why, err,
					       sizeof(err));
	}
	if (!audit) {
		const char *code = hexoid_audit_open_error_name(why);
		not_audited(ro, repo, code ? code : "unreadable", err);
		return EXIT_TROUBLE;
	}
	/* Several repositories share the threads out: each has one. */
	o.jobs = ro->many ? 1 : (unsigned)ro->jobs;
	o.verify_ids = ro->verify_ids;
	o.on_finding = on_finding;
	o.on_progress = on_progress;
	o.ctx = &rp;
	o.cancel = &audit_interrupt;

	algo = hexoid_audit_algo(audit) == HEXOID_SHA256 ? "sha256" : "sha1";
	if (ro->mode == OUT_JSON) {
		sb_puts(&rp.b, "{\n  \"repository\": ");
		sb_json_string(&rp.b, repo);
		sb_puts(&rp.b, ",\n  \"repo\": ");
		sb_json_string(&rp.b, repo);
		sb_printf(&rp.b, ",\n  \"object_format\": \"%s\",\n  \"ref_storage\": %s,\n  \"findings\": [",
			  algo, ref_storage(ro, audit));
	} else if (ro->mode == OUT_TEXT) {
		if (ro->objects)
			sb_printf(&rp.b, "hexoid audit: %s (%s; an objects folder)\n", repo, algo);
		else if (hexoid_audit_ref_storage(audit) == HEXOID_REFS_REFTABLE)
			sb_printf(&rp.b, "hexoid audit: %s (%s; refs in reftable: binary IDs, nothing to lowercase)\n",
				  repo, algo);
		else
			sb_printf(&rp.b, "hexoid audit: %s (%s)\n", repo, algo);
	}
	if (!ro->many)
		emit(&rp);
	rc = hexoid_audit_run(audit, &o, err, sizeof(err));
	if (rc == 1 && interrupted())
		snprintf(err, sizeof(err), "%s: interrupted before the audit's end", repo);
	if (rc < 0 || (rc == 1 && interrupted())) {
		/* What was found is written; the reason it stopped follows it. */
		if (ro->mode != OUT_JSON)
			emit(&rp);
		sb_free(&rp.b);
		hexoid_audit_close(audit);
		not_audited(ro, repo, rc < 0 ? "audit-failed" : "interrupted", err);
		return EXIT_TROUBLE;
	}
	summary(audit, &rp);
	emit(&rp);
	sb_free(&rp.b);
	hexoid_audit_close(audit);
	/* Warnings alone are things Git 3.0 still reads: not a reason to fail a script. */
	return rp.nfindings > rp.nwarn ? EXIT_INVALID : EXIT_VALID;
}

/*
 * The next repository of the list (to free), or NULL: the arguments, then the lines of
 * --from, read as they are needed, so that a list piped in is taken as it comes.
 */
char *repo_list_next(struct repo_list *l)
{
	char *repo = NULL;

	pthread_mutex_lock(&l->lock);
	if (l->stop && __atomic_load_n(l->stop, __ATOMIC_RELAXED)) {
		pthread_mutex_unlock(&l->lock);
		return NULL;
	}
	if (l->next < l->nargs) {
		if (!(repo = strdup(l->args[l->next++])))
			l->failed = "out of memory";
	}
	while (!repo && l->from && !l->failed) {
		ssize_t len = getline(&l->line, &l->linecap, l->from);
		if (len < 0) {
			/* A read the interrupt broke off is the end the interrupt asked for. */
			if (ferror(l->from) && !(errno == EINTR && l->stop &&
						 __atomic_load_n(l->stop, __ATOMIC_RELAXED)))
				l->failed = strerror(errno);
			l->from = NULL;
			break;
		}
		if (len && l->line[len - 1] == '\n')
			l->line[--len] = 0;
		if (len && l->line[len - 1] == '\r')
			l->line[--len] = 0;
		if (len && !(repo = strdup(l->line)))
			l->failed = "out of memory";
	}
	if (repo)
		l->taken++;
	pthread_mutex_unlock(&l->lock);
	return repo;
}

int repo_list_init(struct repo_list *l, char **args, size_t nargs, const char *from_name)
{
	memset(l, 0, sizeof(*l));
	pthread_mutex_init(&l->lock, NULL);
	l->args = args;
	l->nargs = nargs;
	l->from_name = from_name;
	if (!from_name)
		return 0;
	l->from = strcmp(from_name, "-") ? fopen(from_name, "r") : stdin;
	l->from_file = l->from;
	return l->from ? 0 : -1;
}

void repo_list_end(struct repo_list *l)
{
	if (l->from_file && l->from_file != stdin)
		fclose(l->from_file);
	free(l->line);
	pthread_mutex_destroy(&l->lock);
	memset(l, 0, sizeof(*l));
}

/* A worker: repositories from the list until none is left. */
static void *audit_worker(void *p)
{
	struct run_out *ro = p;
	char *repo;

	while ((repo = repo_list_next(&ro->list))) {
		int rc = audit_one(ro, repo);
		free(repo);
		pthread_mutex_lock(&ro->lock);
		ro->done++;
		if (rc == EXIT_TROUBLE)
			ro->failed++;
		else if (rc == EXIT_INVALID)
			ro->found++;
		else
			ro->clean++;
		if (ro->progress && ro->list.from_name) {
			fprintf(stderr, "\raudit: %zu repositories\033[K", ro->done);
			ro->progress_shown = 1;
		} else if (ro->progress) {
			progress_bar("audit", ro->done, ro->list.nargs, "repositories");
			ro->progress_shown = 1;
		}
		pthread_mutex_unlock(&ro->lock);
	}
	return NULL;
}

int cmd_audit(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_OPT_JSON,
		{ "json-lines", no_argument, NULL, 'L' },
		{ "from", required_argument, NULL, 'F' },
		{ "objects-dir", no_argument, NULL, 'o' },
		{ "exact", no_argument, NULL, 'x' },
		CLI_OPT_OBJECT_FORMAT,
		CLI_OPT_JOBS,
		{ "verify-ids", no_argument, NULL, 'V' },
		{ "progress", no_argument, NULL, 'p' },
		{ "no-progress", no_argument, NULL, 'P' },
		CLI_OPT_HELP,
		CLI_OPT_END,
	};
	struct run_out ro;
	pthread_t *threads = NULL;
	size_t nthreads = 0, i;
	char *dot[] = { (char *)"." };
	const char *from_name = NULL;
	char **args;
	size_t nargs;
	int c, progress = -1, rc, listed = 0;

	memset(&ro, 0, sizeof(ro));
	ro.jobs = 1;
	pthread_mutex_init(&ro.lock, NULL);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'J': ro.mode = OUT_JSON; break;
		case 'L': ro.mode = OUT_JSON_LINES; break;
		case 'F': from_name = optarg; break;
		case 'o': ro.objects = 1; break;
		case 'x': ro.exact = 1; break;
		case 'O':
			if (parse_algo(optarg, &ro.algo, 0)) {
				fprintf(stderr, "hexoid: unknown --object-format '%s'\n\n%s", optarg,
					usage_audit);
				rc = EXIT_TROUBLE;
				goto out;
			}
			break;
		case 'V': ro.verify_ids = 1; break;
		case 'p': progress = 1; break;
		case 'P': progress = 0; break;
		case 'j':
			if (parse_jobs(optarg, &ro.jobs)) {
				fprintf(stderr, "hexoid: bad --jobs '%s' (1..256)\n\n%s", optarg, usage_audit);
				rc = EXIT_TROUBLE;
				goto out;
			}
			break;
		case 'h':
			fputs(usage_audit, stdout);
			rc = EXIT_VALID;
			goto out;
		default:
			fprintf(stderr, "hexoid: unknown option '%s'\n\n%s", argv[optind - 1], usage_audit);
			rc = EXIT_TROUBLE;
			goto out;
		}
	}
	ro.many = argc - optind > 1 || from_name;
	if (ro.many && ro.mode == OUT_JSON) {
		fprintf(stderr, "hexoid: --json takes one repository; --json-lines takes many\n\n%s",
			usage_audit);
		rc = EXIT_TROUBLE;
		goto out;
	}
	if (ro.algo && !ro.objects) {
		fprintf(stderr, "hexoid: --object-format is for --objects-dir: a repository says "
			"its own\n\n%s", usage_audit);
		rc = EXIT_TROUBLE;
		goto out;
	}
	args = argv + optind;
	nargs = (size_t)(argc - optind);
	if (ro.objects && !nargs && !from_name) {
		fprintf(stderr, "hexoid: --objects-dir needs a folder\n\n%s", usage_audit);
		rc = EXIT_TROUBLE;
		goto out;
	}
	if (!ro.many && !nargs) {
		/* No repository named: the one git would use, $GIT_DIR when set. */
		const char *gd = getenv("GIT_DIR");
		if (gd && *gd && !ro.objects)
			dot[0] = (char *)gd;
		args = dot;
		nargs = 1;
	}
	if (repo_list_init(&ro.list, args, nargs, from_name) < 0) {
		char err[512];
		snprintf(err, sizeof(err), "%s: cannot read the list: %s", from_name, strerror(errno));
		not_audited(&ro, NULL, "list-unreadable", err);
		ro.list_error = 1;
	}
	listed = 1;
	ro.list.stop = &audit_interrupt;
	catch_interrupts();
	ro.progress = progress >= 0 ? progress : isatty(STDERR_FILENO);

	nthreads = ro.many && ro.jobs > 1 ? ro.jobs - 1 : 0;
	if (!ro.list.from && nthreads >= ro.list.nargs)
		nthreads = ro.list.nargs ? ro.list.nargs - 1 : 0;
	if (nthreads && !(threads = calloc(nthreads, sizeof(*threads))))
		nthreads = 0;
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&threads[i], NULL, audit_worker, &ro) != 0)
			break;
	nthreads = i;
	/* This thread is one of the workers. */
	audit_worker(&ro);
	for (i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	clear_progress(&ro);
	if (ro.list.failed) {
		char err[512];
		snprintf(err, sizeof(err), "%s: reading the list: %s", display_name(ro.list.from_name),
			 ro.list.failed);
		not_audited(&ro, NULL, "list-unreadable", err);
		ro.list_error = 1;
	}

	if (ro.many && ro.mode == OUT_TEXT)
		printf("hexoid audit: %zu repositor%s: %zu clean, %zu with findings, %zu not audited\n",
		       ro.list.taken, ro.list.taken == 1 ? "y" : "ies", ro.clean, ro.found, ro.failed);
	/* A repository that could not be audited, or a list not read to its end, wins over
	 * findings: the run is not whole. */
	rc = ro.failed || ro.list_error ? EXIT_TROUBLE : ro.found ? EXIT_INVALID : EXIT_VALID;
	if (interrupted()) {
		rc = 128 + interrupted();
		fprintf(stderr, "hexoid: interrupted: %zu repositor%s audited whole\n", ro.clean + ro.found,
			ro.clean + ro.found == 1 ? "y" : "ies");
	}
	if (ro.mode == OUT_JSON_LINES)
		printf("{\"schema\": 1, \"type\": \"run\", \"command\": \"audit\", \"repositories\": %zu, "
		       "\"clean\": %zu, \"with_findings\": %zu, \"not_audited\": %zu, \"exit\": %d}\n",
		       ro.list.taken, ro.clean, ro.found, ro.failed, rc);
	if (fflush(stdout) || ro.write_failed) {
		fprintf(stderr, "hexoid: writing the report: %s\n", strerror(errno));
		rc = EXIT_TROUBLE;
	}
out:
	if (listed)
		repo_list_end(&ro.list);
	pthread_mutex_destroy(&ro.lock);
	if (interrupted()) {
		/* Die of it, so that a shell loop or a supervisor sees the interrupt. */
		signal(interrupted(), SIG_DFL);
		raise(interrupted());
	}
	return rc;
}

/* --- verify-pack ------------------------------------------------------------------- */

struct vp {
	const char *path;         /* as given */
	const char *name;         /* the .pack, as findings name it */
	unsigned long long found;
	int progress, json;
};

/* A JSON line onto stdout, flushed: -1 if it could not be written. */
static int put_line(struct sbuf *b)
{
	int rc = 0;

	if (b->oom || fwrite(b->p, 1, b->len, stdout) != b->len || fflush(stdout))
		rc = -1;
	sb_free(b);
	return rc;
}

static int vp_finding(void *ctx, const struct hexoid_finding *f)
{
	struct vp *v = ctx;
	const char *cls = hexoid_finding_class_name(f->cls);
	struct shown s = { f->path, f->has_oid, f->oid, f->algo, f->type, f->header, f->line,
			   f->column, f->offset, cls, f->message };
	const char *type = hexoid_object_type_name(f->type);
	char hex[HEXOID_MAX_HEXSZ + 1];
	struct sbuf b = { 0 };

	if (v->progress)
		fputs("\r\033[K", stderr);
	v->found++;
	if (!v->json) {
		object_text(&b, &s);
		if (b.len)
			fwrite(b.p, 1, b.len, stdout);
		sb_free(&b);
		return 0;
	}
	sb_puts(&b, "{\"schema\": 1, \"type\": \"finding\", \"pack\": ");
	sb_json_string(&b, v->name);
	sb_puts(&b, ", \"path\": ");
	sb_json_string(&b, f->path);
	f->line ? sb_printf(&b, ", \"line\": %llu", (unsigned long long)f->line) : sb_puts(&b, ", \"line\": null");
	f->column ? sb_printf(&b, ", \"column\": %lu", (unsigned long)f->column) : sb_puts(&b, ", \"column\": null");
	sb_puts(&b, ", \"object\": ");
	if (f->has_oid)
		sb_printf(&b, "\"%s\"", hex_of(hex, f->oid, f->algo));
	else
		sb_puts(&b, "null");
	sb_puts(&b, ", \"object_type\": ");
	if (f->has_oid && type)
		sb_printf(&b, "\"%s\"", type);
	else
		sb_puts(&b, "null");
	sb_puts(&b, ", \"header\": ");
	sb_json_string(&b, f->header);
	if (f->offset != HEXOID_NO_OFFSET)
		sb_printf(&b, ", \"offset\": %llu", (unsigned long long)f->offset);
	else
		sb_puts(&b, ", \"offset\": null");
	sb_printf(&b, ", \"class\": \"%s\", \"code\": ", cls);
	sb_json_string(&b, hexoid_code_name(f->code));
	sb_puts(&b, ", \"message\": ");
	sb_json_string(&b, f->message);
	sb_puts(&b, "}\n");
	put_line(&b);
	return 0;
}

static int vp_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct vp *v = ctx;

	if (v->progress)
		progress_bar(v->path, done, total, "commits and tags");
	return 0;
}

/* The library's "PATH: what" as "hexoid: PATH: error: what"; with --json, an error
 * object too. */
static void print_error(const char *err, const char *pack, int json)
{
	const char *sep = strstr(err, ": ");

	fflush(stdout);
	if (sep)
		fprintf(stderr, "hexoid: %.*s: error: %s\n", (int)(sep - err), err, sep + 2);
	else
		fprintf(stderr, "hexoid: error: %s\n", err);
	if (json) {
		struct sbuf b = { 0 };
		sb_puts(&b, "{\"schema\": 1, \"type\": \"error\", \"pack\": ");
		sb_json_string(&b, pack);
		sb_puts(&b, ", \"message\": ");
		sb_json_string(&b, err);
		sb_puts(&b, "}\n");
		put_line(&b);
	}
}

int cmd_verify_pack(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_OPT_JOBS,
		{ "verify-ids", no_argument, NULL, 'V' },
		CLI_OPT_OBJECT_FORMAT,
		{ "quiet", no_argument, NULL, 'q' },
		CLI_OPT_JSON,
		CLI_OPT_HELP,
		CLI_OPT_END,
	};
	unsigned long jobs = 1;
	enum hexoid_algo told = 0;
	int c, quiet = 0, verify_ids = 0, json = 0, rc = EXIT_VALID, i;
	unsigned long long npacks = 0, nfound = 0, nfailed = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hqj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'V': verify_ids = 1; break;
		case 'q': quiet = 1; break;
		case 'J': json = 1; break;
		case 'j':
			if (parse_jobs(optarg, &jobs)) {
				fprintf(stderr, "hexoid: bad --jobs '%s' (1..256)\n\n%s", optarg,
					usage_verify_pack);
				return EXIT_TROUBLE;
			}
			break;
		case 'O':
			if (parse_algo(optarg, &told, 0)) {
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
		if (json)
			printf("{\"schema\": 1, \"type\": \"error\", \"pack\": null, \"message\": "
			       "\"verify-pack needs a pack\"}\n");
		return EXIT_TROUBLE;
	}
	for (i = optind; i < argc; i++) {
		struct vp v = { argv[i], argv[i], 0, isatty(STDERR_FILENO), json };
		struct hexoid_scan_options o;
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		char err[512];
		const char *name = argv[i];
		size_t len = strlen(name);
		char *shown = NULL;

		hexoid_scan_options_init(&o, sizeof(o));

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
		v.name = name;
		npacks++;
		if (hexoid_pack_scan(argv[i], &o, &st, err, sizeof(err)) < 0) {
			if (v.progress)
				fputs("\r\033[K", stderr);
			print_error(err, name, json);
			rc = EXIT_TROUBLE;
			nfailed++;
			free(shown);
			continue;
		}
		if (v.progress)
			fputs("\r\033[K", stderr);
		if (v.found && rc == EXIT_VALID)
			rc = EXIT_INVALID;
		if (v.found)
			nfound++;
		if (json) {
			struct sbuf b = { 0 };
			sb_puts(&b, "{\"schema\": 1, \"type\": \"pack\", \"pack\": ");
			sb_json_string(&b, name);
			sb_printf(&b, ", \"objects\": %llu, \"commits\": %llu, \"tags\": %llu, "
				  "\"deltas\": %llu, \"findings\": %llu, \"exit\": %d}\n",
				  (unsigned long long)st.objects, (unsigned long long)st.commits,
				  (unsigned long long)st.tags, (unsigned long long)st.deltas, v.found,
				  v.found ? EXIT_INVALID : EXIT_VALID);
			put_line(&b);
		} else if (v.found || !quiet) {
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
	if (json)
		printf("{\"schema\": 1, \"type\": \"run\", \"command\": \"verify-pack\", \"packs\": %llu, "
		       "\"clean\": %llu, \"with_findings\": %llu, \"not_checked\": %llu, \"exit\": %d}\n",
		       npacks, npacks - nfound - nfailed, nfound, nfailed, rc);
	if (fflush(stdout)) {
		fprintf(stderr, "hexoid: writing the report: %s\n", strerror(errno));
		return EXIT_TROUBLE;
	}
	return rc;
}
