/*
 * hexoid: the command line.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage_main[] =
	"usage: hexoid <command> [options] [FILE...]\n"
	"\n"
	"Validate, decode and encode hex Git object IDs in bulk.\n"
	"\n"
	"commands:\n"
	"  verify    check the object IDs of a listing: bare IDs (pack-objects output,\n"
	"            .git/shallow, loose refs) or what other git commands print\n"
	"  decode    the same checks, writing each valid ID as raw binary to stdout\n"
	"  encode    raw binary IDs to lines of lowercase hex\n"
	"  show-index     a pack index's entries, as 'git show-index' prints them\n"
	"  check-listing  every listed ID is in a pack index (and with --exact, the reverse)\n"
	"  audit     everything in a repository that Git 3.0 will reject: refs, reflogs,\n"
	"            shallow, and the headers of every loose and packed commit and tag;\n"
	"            many repositories at once, or objects folders alone\n"
	"  verify-pack    a pack's checksums and CRC32s, and its commits' and tags' headers\n"
	"  pre-receive    git's pre-receive hook: rejects a push that brings, or points a\n"
	"                 ref at, a commit or tag Git 3.0 will not read\n"
	"  update    the same as git's update hook, for one ref\n"
	"  hook      install those hooks in repositories, or check that git will run them\n"
	"  repair    lowercase the IDs of a repository's files that Git 3.0 will reject,\n"
	"            under git's own locks\n"
	"  kernels   the kernels this build has, the active one, and the CPU's features\n"
	"\n"
	"'hexoid <command> --help' describes a command. 'hexoid --version' prints the version.\n"
	"HEXOID_KERNEL=<name> in the environment forces a kernel (see 'hexoid kernels').\n";

static const char usage_verify[] =
	"usage: hexoid verify [--format=FORMAT] [--mixed] [--algo=sha1|sha256|auto]\n"
	"                     [--max-errors=N] [--json] [FILE...]\n"
	"\n"
	"Check every line of each FILE (or stdin, or '-') and every object ID in it: 40 hex\n"
	"digits for sha1, 64 for sha256, lowercase only unless --mixed.\n"
	"\n"
	"  --format=FORMAT  what the lines are, as git prints them (default: auto):\n"
	"    auto          recognised from the first 64 lines: a format that takes them all\n"
	"                  (or all but for their IDs); when a later line fits a wider shape\n"
	"                  of the same command (rev-list's paths after its commits), the\n"
	"                  format widens to it. When no format takes them, nothing is\n"
	"                  checked: 'cannot tell which git output this is', exit 2\n"
	"    oids          <oid>: pack-objects output, .git/shallow, loose refs, *-chain\n"
	"    pack-objects  <oid>[ <name>] or -<oid> (what pack-objects reads)\n"
	"    rev-list      <oid>, <oid> <path>, -<oid>, ?<oid>, <oid> <parent>...: rev-list\n"
	"                  (--objects, --boundary, --objects-edge, --missing=print,\n"
	"                  --parents, --children; marks <, >, =, +, ~ of --left-right,\n"
	"                  --cherry-mark, --filter-print-omitted), log --format='%H %P',\n"
	"                  '%H %T %P'\n"
	"    cherry        + <oid>[ <subject>], - <oid>... (git cherry [-v])\n"
	"    batch-check   <oid> <type> <size>[ <size>...][ <deltabase>], <oid> <type> <rest>,\n"
	"                  <name> missing, <name> ambiguous (cat-file --batch-check[=FORMAT])\n"
	"    show-index    <offset> <oid> (<crc32>)\n"
	"    verify-pack   <oid> <type> <size> <size-in-pack> <offset>[ <depth> <base>]\n"
	"    ls-tree       <mode> <type> <oid>[ <size>]TAB<path> (-r, -t, -d, -l, --full-tree)\n"
	"    ls-tree-z     the same, ls-tree -z (records end with NUL)\n"
	"    ls-files      <mode> <oid> <stage>TAB<path> (ls-files --stage)\n"
	"    ls-files-z    the same, ls-files --stage -z\n"
	"    diff-raw      :<mode> <mode> <oid> <oid> <status>TAB<path> (diff-tree, diff-index,\n"
	"                  diff-files --raw --no-abbrev; -c; diff-tree's <commit> lines;\n"
	"                  log --raw --no-abbrev --format=%H, a blank line after a commit)\n"
	"    for-each-ref  <oid> <type>TAB<ref>\n"
	"    show-ref      <oid> <ref> (-d, --head)\n"
	"    ls-remote     <oid>TAB<ref>\n"
	"    packed-refs   the file: its header, <oid> <ref>, ^<oid>\n"
	"    fetch-head    <oid>TAB[not-for-merge]TAB<description> (FETCH_HEAD)\n"
	"    reflog        <old> <new> <ident> <time> <tz>TAB<message>\n"
	"    fsck          dangling|unreachable|missing <type> <oid>, root <oid>, ... (git fsck)\n"
	"    promisor      <oid> <ref> (a pack's .promisor file)\n"
	"    marks         :<mark> <oid> (fast-import/fast-export --export-marks)\n"
	"    submodule-status  [ +-U]<oid> <path>[ (<describe>)] (git submodule status)\n"
	"    replace       <oid> -> <oid>, <oid> (<type>) -> <oid> (<type>) (replace -l\n"
	"                  --format=medium or long)\n"
	"    ref-peeled    <oid> [<peeled oid>] <ref> (for-each-ref --format='%(objectname)\n"
	"                  %(*objectname) %(refname)')\n"
	"    bundle        # v2|v3 git bundle, @capability, -<oid> <subject>, <oid> <ref>, a\n"
	"                  blank line, then the pack (its signature checked, not read as text)\n"
	"    pretty-raw    log/rev-list --pretty=raw, cat-file -p of a commit or tag: commit,\n"
	"                  tree, parent, object <oid> lines checked, other headers, message\n"
	"    rev-list-format  rev-list --format: commit <oid>[ <parent>...], then the\n"
	"                  format's lines (IDs, or words that look like IDs as in text)\n"
	"    blame         blame --porcelain, --line-porcelain: <oid> <line> <line>[ <n>],\n"
	"                  headers (previous <oid> <path> checked), TAB<line of the file>\n"
	"    worktrees     worktree list --porcelain: worktree, HEAD <oid>, branch, ...\n"
	"    id-fields     IDs a space or a tab apart, fields and lines may be empty\n"
	"                  (log --format='%H%x09%P', for-each-ref --format='%(*objectname)')\n"
	"    graph         log --graph --format='%H[ %P]': the graph, then the IDs\n"
	"    merge-tree    merge-tree --write-tree: <tree>, conflicted entries, messages\n"
	"    fast-export   a fast-export stream: original-oid, from, merge, M, N with IDs;\n"
	"                  each data block's bytes skipped\n"
	"    merge-tree-z  merge-tree --write-tree -z (--stdin): records ended by NUL, the\n"
	"                  tree, conflicted entries, each message's paths, type and text\n"
	"    text          any text, a heuristic: each word (letters and digits) as long as an\n"
	"                  ID give or take two, hex but for at most two bytes, is an ID\n"
	"  --mixed          accept uppercase digits too, as Git 2.x does (default: lowercase\n"
	"                   only, as Git 3.0 requires)\n"
	"  --algo=ALGO      sha1, sha256, or auto (default): auto takes it from the first ID\n"
	"                   of each file, and every ID must then match\n"
	"  --max-errors=N   stop after N reports (default 0: report every problem)\n"
	"  --json           JSON lines on stdout instead of the text report: a \"problem\"\n"
	"                   object each, a \"summary\" per file, an \"error\" for each reason\n"
	"                   to exit 2 (also on stderr), and the \"run\" last (see the README)\n"
	"\n"
	"Each problem is reported on stderr as FILE:LINE:COL: error: <why>: each bad object ID\n"
	"of a line at its own column, and the text around them where it is broken. The last\n"
	"line counts the bad lines.\n"
	"An abbreviated ID is reported as such, in every format: run git with --no-abbrev.\n"
	"Exit status: 0 all valid, 1 invalid lines found, 2 usage or I/O error, or auto\n"
	"cannot tell the format.\n";

static const char usage_decode[] =
	"usage: hexoid decode [--format=FORMAT] [--mixed] [--algo=sha1|sha256|auto]\n"
	"                     [--max-errors=N] [FILE...]\n"
	"\n"
	"Check lines as 'hexoid verify' does, and write the raw binary of every object ID of\n"
	"every good line to stdout, in order (20 bytes for sha1, 32 for sha256); bad lines\n"
	"are reported on stderr and left out, never written in part.\n"
	"Exit status: 0 all valid, 1 invalid lines found, 2 usage or I/O error.\n";

static const char usage_encode[] =
	"usage: hexoid encode [--algo=sha1|sha256] [FILE...]\n"
	"\n"
	"Read raw binary object IDs (20 bytes each for sha1, the default; 32 for sha256) and\n"
	"write each as a line of lowercase hex. Trailing bytes that are not a whole ID are\n"
	"reported and not written.\n"
	"Exit status: 0 done, 1 trailing partial ID, 2 usage or I/O error.\n";

static const char usage_kernels[] =
	"usage: hexoid kernels\n"
	"\n"
	"List every kernel, whether this build has it and this CPU can run it, mark the\n"
	"active one with '*', and print the CPU features seen. Exit status 0.\n";

static int json_usage; /* verify --json: a usage error is an "error" object too */

static int usage_error(const char *usage, const char *fmt, const char *arg)
{
	char msg[512];
	snprintf(msg, sizeof(msg), fmt, arg);
	fprintf(stderr, "hexoid: %s\n%s", msg, usage);
	if (json_usage)
		verify_json_error(NULL, msg);
	return EXIT_TROUBLE;
}

enum { OPT_MIXED = 256, OPT_LOWER, OPT_ALGO, OPT_MAX_ERRORS, OPT_FORMAT };
static const struct option long_options[] = {
	{ "mixed", no_argument, NULL, OPT_MIXED },
	{ "lower", no_argument, NULL, OPT_LOWER },
	{ "algo", required_argument, NULL, OPT_ALGO },
	{ "max-errors", required_argument, NULL, OPT_MAX_ERRORS },
	{ "format", required_argument, NULL, OPT_FORMAT },
	CLI_OPT_HELP,
	CLI_OPT_JSON,
	CLI_OPT_END,
};

/* Options of verify, decode and encode; returns -1 after printing help, or an exit code. */
static int parse_options(int argc, char **argv, const char *usage, int is_encode,
			 struct lines_options *opt)
{
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_MIXED:
		case OPT_LOWER:
			if (is_encode)
				return usage_error(usage, "unknown option '%s'", argv[optind - 1]);
			opt->kind = c == OPT_MIXED ? HEXOID_MIXED : HEXOID_LOWER;
			break;
		case OPT_ALGO:
			if (parse_algo(optarg, &opt->algo, !is_encode))
				return usage_error(usage, "unknown --algo '%s'", optarg);
			break;
		case OPT_FORMAT: {
			int f = hexoid_format_from_name(optarg);
			if (is_encode || f < 0)
				return usage_error(usage, "unknown --format '%s'", optarg);
			opt->format = (enum hexoid_format)f;
			break;
		}
		case OPT_MAX_ERRORS:
			if (is_encode || parse_count(optarg, &opt->max_errors))
				return usage_error(usage, "bad --max-errors '%s'", optarg);
			break;
		case 'J':
			if (is_encode || opt->binary_out)
				return usage_error(usage, "unknown option '%s'", argv[optind - 1]);
			opt->json = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return -1;
		default:
			return usage_error(usage, "unknown option '%s'", argv[optind - 1]);
		}
	}
	return EXIT_VALID;
}

static int cmd_lines(int argc, char **argv, int decode)
{
	const char *usage = decode ? usage_decode : usage_verify;
	struct lines_options opt = { HEXOID_FORMAT_AUTO, HEXOID_LOWER, 0, 0,
				     decode ? stdout : NULL, 0 };
	struct lines_totals tot = { 0 };
	for (int i = 1; i < argc && !decode; i++)
		if (!strcmp(argv[i], "--json"))
			json_usage = 1;
		else if (!strcmp(argv[i], "--"))
			break;
	int rc = parse_options(argc, argv, usage, 0, &opt);
	if (rc)
		return rc < 0 ? EXIT_VALID : rc;
	if (optind == argc)
		lines_run("-", &opt, &tot);
	for (int i = optind; i < argc && !tot.stopped; i++)
		lines_run(argv[i], &opt, &tot);
	if (decode && fflush(stdout)) {
		fprintf(stderr, "hexoid: writing output: %s\n", strerror(errno));
		tot.trouble = 1;
	}
	int exit = tot.trouble ? EXIT_TROUBLE : tot.bad ? EXIT_INVALID : EXIT_VALID;
	if (opt.json) {
		printf("{\"schema\": 1, \"type\": \"run\", \"command\": \"verify\", \"files\": %lu, "
		       "\"clean\": %lu, \"with_problems\": %lu, \"not_checked\": %lu, "
		       "\"lines\": %llu, \"bad_lines\": %llu, \"problems\": %llu, "
		       "\"stopped\": %s, \"exit\": %d}\n",
		       tot.files, tot.clean, tot.with_problems, tot.not_checked, tot.lines, tot.bad,
		       tot.reports, tot.stopped ? "true" : "false", exit);
		if (fflush(stdout) && !tot.trouble) {
			fprintf(stderr, "hexoid: writing output: %s\n", strerror(errno));
			return EXIT_TROUBLE;
		}
		return exit;
	}
	if (tot.stopped)
		fprintf(stderr, "hexoid: stopped after %lu errors (--max-errors)\n",
			opt.max_errors);
	if (tot.bad && tot.reports > tot.bad)
		fprintf(stderr, "hexoid: %llu bad line%s in %llu (%llu problems)\n", tot.bad,
			tot.bad == 1 ? "" : "s", tot.lines, tot.reports);
	else if (tot.bad)
		fprintf(stderr, "hexoid: %llu bad line%s in %llu\n", tot.bad,
			tot.bad == 1 ? "" : "s", tot.lines);
	return exit;
}

static int cmd_encode(int argc, char **argv)
{
	struct lines_options opt = { HEXOID_FORMAT_OIDS, HEXOID_LOWER, HEXOID_SHA1, 0, NULL, 0 };
	int rc = parse_options(argc, argv, usage_encode, 1, &opt);
	if (rc)
		return rc < 0 ? EXIT_VALID : rc;
	if (optind == argc)
		rc = encode_run("-", opt.algo, stdout);
	for (int i = optind; i < argc; i++) {
		int r = encode_run(argv[i], opt.algo, stdout);
		rc = r > rc ? r : rc;
	}
	if (fflush(stdout)) {
		fprintf(stderr, "hexoid: writing output: %s\n", strerror(errno));
		rc = EXIT_TROUBLE;
	}
	return rc;
}

static int cmd_kernels(int argc, char **argv)
{
	if (argc > 1) {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
			fputs(usage_kernels, stdout);
			return EXIT_VALID;
		}
		return usage_error(usage_kernels, "unexpected argument '%s'", argv[1]);
	}
	struct hexoid_kernel_info info[16];
	size_t n = hexoid_kernel_table(info, 16);
	const char *active = hexoid_kernel();
	printf("  %-11s %-6s %-10s %s\n", "kernel", "built", "supported", "needs");
	for (size_t i = 0; i < n && i < 16; i++)
		printf("%c %-11s %-6s %-10s %s\n", strcmp(info[i].name, active) ? ' ' : '*',
		       info[i].name, info[i].built ? "yes" : "no",
		       info[i].supported ? "yes" : "no",
		       *info[i].requires ? info[i].requires : "-");
	printf("active: %s\n", active);
	printf("cpu features: %s\n", *hexoid_cpu_features() ? hexoid_cpu_features() : "(none)");

	const char *forced = getenv("HEXOID_KERNEL");
	if (forced && *forced && strcmp(forced, "auto") && strcmp(forced, active)) {
		const char *why = "unknown kernel";
		for (size_t i = 0; i < n && i < 16; i++)
			if (!strcmp(info[i].name, forced))
				why = !info[i].built ? "not built into this library"
							 : "not supported by this CPU";
		printf("HEXOID_KERNEL=%s ignored: %s\n", forced, why);
	} else if (forced && *forced) {
		printf("HEXOID_KERNEL=%s in effect\n", forced);
	}
	return EXIT_VALID;
}

int main(int argc, char **argv)
{
	/* Installed as a hook itself: a link named pre-receive or update. */
	const char *self = argc ? strrchr(argv[0], '/') : NULL;
	self = self ? self + 1 : argc ? argv[0] : "";
	if (!strcmp(self, "pre-receive"))
		return cmd_pre_receive(argc, argv);
	if (!strcmp(self, "update"))
		return cmd_update(argc, argv);
	if (argc < 2) {
		fputs(usage_main, stderr);
		return EXIT_TROUBLE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(usage_main, stdout);
		return EXIT_VALID;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("hexoid %s (kernel %s)\n", hexoid_version(), hexoid_kernel());
		return EXIT_VALID;
	}
	if (!strcmp(cmd, "verify"))
		return cmd_lines(argc - 1, argv + 1, 0);
	if (!strcmp(cmd, "decode"))
		return cmd_lines(argc - 1, argv + 1, 1);
	if (!strcmp(cmd, "encode"))
		return cmd_encode(argc - 1, argv + 1);
	if (!strcmp(cmd, "kernels"))
		return cmd_kernels(argc - 1, argv + 1);
	if (!strcmp(cmd, "show-index"))
		return cmd_show_index(argc - 1, argv + 1);
	if (!strcmp(cmd, "check-listing"))
		return cmd_check_listing(argc - 1, argv + 1);
	if (!strcmp(cmd, "audit"))
		return cmd_audit(argc - 1, argv + 1);
	if (!strcmp(cmd, "verify-pack"))
		return cmd_verify_pack(argc - 1, argv + 1);
	if (!strcmp(cmd, "pre-receive"))
		return cmd_pre_receive(argc - 1, argv + 1);
	if (!strcmp(cmd, "update"))
		return cmd_update(argc - 1, argv + 1);
	if (!strcmp(cmd, "repair"))
		return cmd_repair(argc - 1, argv + 1);
	if (!strcmp(cmd, "hook"))
		return cmd_hooks(argc - 1, argv + 1);
	fprintf(stderr, "hexoid: unknown command '%s'\n\n%s", cmd, usage_main);
	return EXIT_TROUBLE;
}
