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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hexoid_audit.h"

static const char usage_audit[] =
	"usage: hexoid audit [--json] [--jobs=N] [--verify-ids] [--progress|--no-progress] [REPO]\n"
	"\n"
	"Find every object ID in the repository at or above REPO (default: the current\n"
	"directory; a work tree, a bare repository, a linked worktree) that Git 3.0 will\n"
	"reject, and everything malformed, in every file git reads one from:\n"
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
	"  --json           one JSON object on stdout instead of the text report\n"
	"  --jobs=N         threads for the objects (default 1)\n"
	"  --verify-ids     also rehash every commit and tag and compare it with its ID\n"
	"  --progress       a progress line on stderr (default: when stderr is a terminal)\n"
	"\n"
	"Each finding is one line: [AREA] PATH:LINE:COL: CLASS: MESSAGE for files,\n"
	"[AREA] PATH: CLASS: MESSAGE about a file as a whole, and\n"
	"[AREA] PATH: TYPE OID: HEADER header, line L, column C: CLASS: MESSAGE for objects.\n"
	"CLASS is git3 (Git 2.x accepts it, Git 3.0 rejects or ignores it), error (rejected\n"
	"by both, damaged, or unreadable) or warn (uppercase that the Git 3.0 build still\n"
	"accepts: a pack's name, a note's own name). A summary table follows (with a warn\n"
	"column when there is one).\n"
	"Exit status: 0 nothing found (or only warn findings), 1 git3 or error findings,\n"
	"2 usage error or unusable repository.\n";

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

/* One object finding as text, without the area: PATH: ... */
static void object_text(FILE *out, const struct shown *f)
{
	char hex[HEXOID_MAX_HEXSZ + 1] = "";
	const char *type = hexoid_object_type_name(f->type);

	if (f->has_oid) {
		size_t rawsz = hexoid_rawsz(f->algo);
		hexoid_encode(hex, 2 * rawsz, f->oid, 1, f->algo);
		hex[2 * rawsz] = 0;
	}
	if (f->header)
		fprintf(out, "%s: %s %s: %s header, line %llu, column %lu: %s: %s\n", f->path, type,
			hex, f->header, f->line, f->column, f->cls, f->message);
	else if (f->offset != HEXOID_NO_OFFSET && f->has_oid)
		fprintf(out, "%s: offset %llu: %s: %s (object %s)\n", f->path,
			(unsigned long long)f->offset, f->cls, f->message, hex);
	else if (f->offset != HEXOID_NO_OFFSET)
		fprintf(out, "%s: offset %llu: %s: %s\n", f->path, (unsigned long long)f->offset,
			f->cls, f->message);
	else if (f->has_oid && type)
		fprintf(out, "%s: %s %s: %s: %s\n", f->path, type, hex, f->cls, f->message);
	else
		fprintf(out, "%s: %s: %s\n", f->path, f->cls, f->message);
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

static int parse_jobs(const char *s, unsigned long *jobs)
{
	if (parse_count(s, jobs) || *jobs < 1 || *jobs > 256)
		return -1;
	return 0;
}

/* --- audit ------------------------------------------------------------------------- */

struct report {
	int json, progress, progress_shown;
	unsigned long long nfindings, nwarn;
};

static void clear_progress(struct report *rp)
{
	if (rp->progress_shown) {
		fputs("\r\033[K", stderr);
		rp->progress_shown = 0;
	}
}

/* A finding about a line of a file: it has a line and is not about an object. */
static int is_line_finding(const struct hexoid_audit_finding *f)
{
	return f->line && !f->header && !f->has_oid && f->offset == HEXOID_NO_OFFSET;
}

static int on_finding(void *ctx, const struct hexoid_audit_finding *f)
{
	struct report *rp = ctx;
	const char *area = hexoid_audit_area_name(f->area);
	const char *cls = hexoid_finding_class_name(f->cls);
	const char *type = hexoid_object_type_name(f->type);

	clear_progress(rp);
	rp->nfindings++;
	if (f->cls == HEXOID_CLASS_WARN)
		rp->nwarn++;
	if (!rp->json) {
		if (is_line_finding(f)) {
			printf("[%s] %s:%llu:%lu: %s: %s\n", area, f->path, f->line, f->column, cls,
			       f->message);
		} else {
			struct shown s = { f->path, f->has_oid, f->oid, f->algo, f->type, f->header,
					   f->line, f->column, f->offset, cls, f->message };
			printf("[%s] ", area);
			object_text(stdout, &s);
		}
		return 0;
	}
	fputs(rp->nfindings > 1 ? ",\n" : "\n", stdout);
	printf("    {\"area\": \"%s\", \"path\": ", area);
	json_string(f->path);
	fputs(", \"line\": ", stdout);
	f->line ? printf("%llu", f->line) : printf("null");
	fputs(", \"column\": ", stdout);
	f->column ? printf("%lu", f->column) : printf("null");
	fputs(", \"object\": ", stdout);
	if (f->has_oid) {
		char hex[HEXOID_MAX_HEXSZ + 1];
		size_t rawsz = hexoid_rawsz(f->algo);
		hexoid_encode(hex, 2 * rawsz, f->oid, 1, f->algo);
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
	printf(", \"class\": \"%s\", \"code\": \"%s\", \"message\": ", cls,
	       hexoid_audit_code_name(f->code));
	json_string(f->message);
	putchar('}');
	return 0;
}

static int on_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	struct report *rp = ctx;

	if (rp->progress) {
		progress_bar(what, done, total);
		rp->progress_shown = 1;
	}
	return 0;
}

static void summary(const struct hexoid_audit *audit, const struct report *rp)
{
	unsigned long long ts = 0, tg = 0, tw = 0, te = 0;
	int i, warn = rp->nwarn > 0;

	if (rp->json) {
		printf("%s  ],\n  \"summary\": {", rp->nfindings ? "\n" : "");
		for (i = 0; i < HEXOID_AREA_COUNT; i++) {
			struct hexoid_audit_count c;
			hexoid_audit_summary(audit, (enum hexoid_audit_area)i, &c);
			printf("%s\n    \"%s\": {\"scanned\": %llu, \"git3\": %llu, ", i ? "," : "",
			       hexoid_audit_area_name((enum hexoid_audit_area)i),
			       (unsigned long long)c.scanned, (unsigned long long)c.git3);
			if (warn)
				printf("\"warn\": %llu, ", (unsigned long long)c.warn);
			printf("\"error\": %llu}", (unsigned long long)c.errors);
		}
		printf("\n  }\n}\n");
		return;
	}
	printf("\nsummary:\n  %-20s %10s %8s ", "area", "scanned", "git3");
	if (warn)
		printf("%8s ", "warn");
	printf("%8s\n", "error");
	for (i = 0; i < HEXOID_AREA_COUNT; i++) {
		struct hexoid_audit_count c;
		hexoid_audit_summary(audit, (enum hexoid_audit_area)i, &c);
		printf("  %-20s %10llu %8llu ", hexoid_audit_area_name((enum hexoid_audit_area)i),
		       (unsigned long long)c.scanned, (unsigned long long)c.git3);
		if (warn)
			printf("%8llu ", (unsigned long long)c.warn);
		printf("%8llu\n", (unsigned long long)c.errors);
		ts += c.scanned;
		tg += c.git3;
		tw += c.warn;
		te += c.errors;
	}
	printf("  %-20s %10llu %8llu ", "total", ts, tg);
	if (warn)
		printf("%8llu ", tw);
	printf("%8llu\n", te);
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
	struct hexoid_audit_options o = HEXOID_AUDIT_OPTIONS_INIT;
	struct hexoid_audit *audit;
	struct report rp;
	unsigned long jobs = 1;
	const char *repo, *algo;
	char err[512];
	int c, progress = -1, rc;

	memset(&rp, 0, sizeof(rp));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'J': rp.json = 1; break;
		case 'V': o.verify_ids = 1; break;
		case 'p': progress = 1; break;
		case 'P': progress = 0; break;
		case 'j':
			if (parse_jobs(optarg, &jobs)) {
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
	repo = optind < argc ? argv[optind] : ".";
	audit = hexoid_audit_open(repo, err, sizeof(err));
	if (!audit) {
		fprintf(stderr, "hexoid: %s\n", err);
		return EXIT_TROUBLE;
	}
	rp.progress = progress >= 0 ? progress : isatty(STDERR_FILENO);
	o.jobs = (unsigned)jobs;
	o.on_finding = on_finding;
	o.on_progress = on_progress;
	o.ctx = &rp;

	algo = hexoid_audit_algo(audit) == HEXOID_SHA256 ? "sha256" : "sha1";
	if (rp.json) {
		printf("{\n  \"repository\": ");
		json_string(repo);
		printf(",\n  \"object_format\": \"%s\",\n  \"ref_storage\": \"%s\",\n  \"findings\": [",
		       algo, hexoid_audit_ref_storage(audit) == HEXOID_REFS_REFTABLE ? "reftable" : "files");
	} else if (hexoid_audit_ref_storage(audit) == HEXOID_REFS_REFTABLE) {
		printf("hexoid audit: %s (%s; refs in reftable: binary IDs, nothing to lowercase)\n", repo,
		       algo);
	} else {
		printf("hexoid audit: %s (%s)\n", repo, algo);
	}
	rc = hexoid_audit_run(audit, &o, err, sizeof(err));
	clear_progress(&rp);
	if (rc < 0) {
		fflush(stdout);
		fprintf(stderr, "hexoid: %s\n", err);
		hexoid_audit_close(audit);
		return EXIT_TROUBLE;
	}
	summary(audit, &rp);
	hexoid_audit_close(audit);
	if (fflush(stdout)) {
		fprintf(stderr, "hexoid: writing the report: %s\n", strerror(errno));
		return EXIT_TROUBLE;
	}
	/* Warnings alone are things Git 3.0 still reads: not a reason to fail a script. */
	return rp.nfindings > rp.nwarn ? EXIT_INVALID : EXIT_VALID;
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
	struct shown s = { f->path, f->has_oid, f->oid, f->algo, f->type, f->header, f->line,
			   f->column, f->offset, f->git3 ? "git3" : "error", f->message };

	if (v->progress)
		fputs("\r\033[K", stderr);
	object_text(stdout, &s);
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
