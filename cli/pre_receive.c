/*
 * hexoid pre-receive and hexoid update: a push gate for the server side of git push.
 *
 * Git 2.x accepts, and stores, a commit whose tree or parent header or a tag whose object
 * header is uppercase hex; Git 3.0 will not read it. Run as a hook, this rejects such a
 * push. The check itself is the library's (include/hexoid_gate.h: the pushed objects in
 * the quarantine, and what each pushed ref now reaches); this file reads the options and
 * git config, runs the check under a supervisor, and prints what it finds: text on
 * stderr, which git shows the pusher, and with --json JSON lines on stdout.
 *
 * The check runs in a child process; the parent only waits for it. A crash, a timeout or
 * any internal error therefore ends in a clear verdict, and by default in a rejection.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "hexoid_gate.h"
#include "util/child.h"

static const char usage_pre_receive[] =
	"usage: hexoid pre-receive [--mixed] [--report-only] [--full-walk] [--timeout=SECONDS]\n"
	"                          [--on-timeout=reject|accept] [--jobs=N] [--json]\n"
	"\n"
	"A pre-receive hook: reads git's '<old> <new> <ref>' lines on stdin and rejects the\n"
	"push when a commit or tag it brings, or one a pushed ref now reaches that no\n"
	"existing ref did (as git's own check after a push: --not --all, and the alternates'\n"
	"refs), has a tree, parent, object or mergetag header Git 3.0 will not read\n"
	"(uppercase hex), or one that is not an object ID at all, or when a pushed pack is\n"
	"damaged. Install it as hooks/pre-receive holding 'exec hexoid pre-receive', or as a\n"
	"symbolic link named pre-receive to the hexoid command.\n"
	"\n"
	"  --mixed          uppercase IDs only warn, as Git 2.x would take them; IDs that are\n"
	"                   not hex at all and damaged objects still reject the push\n"
	"  --report-only    warn about everything and accept the push (exit 0), even when\n"
	"                   the check itself could not finish\n"
	"  --full-walk      check every commit a pushed ref now reaches that its old value\n"
	"                   did not, even those existing refs reach (slower on big\n"
	"                   histories; finds what was stored before the hook)\n"
	"  --timeout=S      give up after S seconds, at most 86400 (default 0: no limit)\n"
	"  --on-timeout=W   reject (default) or accept the push when the time is up\n"
	"  --jobs=N         threads for each pushed pack (default 1)\n"
	"  --json           also JSON lines on stdout (git shows the pusher a hook's stdout\n"
	"                   too: redirect it): each finding, each reason the check could not\n"
	"                   be done, and the verdict last (\"schema\": 1; see the README)\n"
	"\n"
	"The same settings from git config: hexoid.mixed, hexoid.reportOnly, hexoid.fullWalk,\n"
	"hexoid.timeout, hexoid.onTimeout, hexoid.jobs; flags win over them. When the push\n"
	"is rejected, the lines of git config hexoid.message (say, a link to a help page)\n"
	"follow the rejection's.\n"
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
	int mixed, report_only, timeout_accept, full_walk;
	unsigned long timeout, jobs;
};

#define SAY "hexoid: "

/* --json: JSON lines on stdout beside the text on stderr; each names the repository. */
static int json_lines;
static char *json_repo;

/*
 * The "code" of an error line, and of the verdict line when the check could not be done
 * (the first error's): a small set, stable for logs (README: JSON lines). The verdict
 * line's own codes come first.
 */
enum code {
	C_OK, C_WARNINGS, C_FINDINGS,            /* the verdict line only */
	C_GIT_FAILED, C_TIMEOUT, C_UNUSABLE_PACK, C_MISSING_OBJECT, C_NO_MEMORY, C_CONFIG,
	C_BAD_INPUT, C_LIMIT, C_INTERNAL, C_NONE
};
static const char *const code_names[] = {
	"ok", "warnings", "findings", "git-failed", "timeout", "unusable-pack",
	"missing-object", "no-memory", "config", "bad-input", "limit", "internal",
};
/* The first error's code, for the verdict line. */
static enum code first_error = C_NONE;

/*
 * The check's findings, batched: 100,000 findings written a line at a time cost half a
 * million write(2) calls (stderr is unbuffered, each JSON line was flushed), more than
 * the whole check. Whole lines are gathered and written in large writes, in the order
 * they were made: when stdout and stderr are one pipe (git's receive-pack gives a hook
 * the same one for both), in one buffer, so that the text and JSON lines still alternate
 * as they did; when they are the same regular file (perhaps opened twice, each with its
 * own offset), a line at a time as before. Errors are written at once, after what is
 * pending. Off (every line written at once) until out_batch() turns it on in the check.
 */
static struct sbuf pending[2]; /* [0]: for stdout, [1]: for stderr (both, when merged) */
static int batching, merged;

static void write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return; /* as fprintf to a closed stderr: nothing more to do */
		p += n;
		len -= (size_t)n;
	}
}

static void out_flush(void)
{
	for (int i = 0; i < 2; i++) {
		if (pending[i].len)
			write_all(i ? STDERR_FILENO : STDOUT_FILENO, pending[i].p, pending[i].len);
		pending[i].len = 0;
	}
}

/* Whole lines for stdout (fd 1) or stderr (fd 2). */
static void out_lines(int fd, const char *p, size_t len)
{
	struct sbuf *b = &pending[fd == STDOUT_FILENO && !merged ? 0 : 1];

	if (!batching) {
		if (fd == STDOUT_FILENO) {
			fwrite(p, 1, len, stdout);
			fflush(stdout);
		} else {
			fwrite(p, 1, len, stderr);
		}
		return;
	}
	if (b->len + len >= b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		char *q;
		while (cap <= b->len + len)
			cap *= 2;
		if (!(q = realloc(b->p, cap))) {
			out_flush();
			write_all(fd, p, len);
			return;
		}
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, len);
	b->len += len;
	if (b->len >= 65536)
		out_flush();
}

/* Batch the check's lines from here on: the same pipe for both, merged. */
static void out_batch(void)
{
	struct stat o, e;

	fflush(NULL);
	if (json_lines && !fstat(STDOUT_FILENO, &o) && !fstat(STDERR_FILENO, &e) &&
	    o.st_dev == e.st_dev && o.st_ino == e.st_ino) {
		if (S_ISREG(o.st_mode))
			return;
		merged = 1;
	}
	batching = 1;
}

/* One JSON line onto stdout (the child writes them too). */
static void json_line(struct sbuf *b)
{
	if (!b->oom)
		out_lines(STDOUT_FILENO, b->p, b->len);
	sb_free(b);
}

/* Why the check cannot be done or trusted: on stderr, and with --json as an "error". */
static void say_error(enum code code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say_error(enum code code, const char *fmt, ...)
{
	char msg[1024];
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	out_flush();
	fprintf(stderr, SAY "%s", msg);
	if (first_error == C_NONE)
		first_error = code;
	len = strlen(msg);
	if (len && msg[len - 1] == '\n')
		msg[--len] = 0;
	if (json_lines) {
		struct sbuf b = { 0 };
		sb_puts(&b, "{\"schema\": 1, \"type\": \"error\", \"repo\": ");
		sb_json_string(&b, json_repo);
		sb_printf(&b, ", \"code\": \"%s\", \"message\": ", code_names[code]);
		sb_json_string(&b, msg);
		sb_puts(&b, "}\n");
		json_line(&b);
	}
}

/* The whole output of argv (git), NUL-terminated; *status its exit status (-1: not run,
 * or killed: said). */
static char *capture(char *const argv[], int *status)
{
	int sig;
	char *out = hexoid_child_capture(argv, NULL, status, &sig);

	if (!out && errno == ENOMEM)
		say_error(C_NO_MEMORY, "out of memory\n");
	else if (!out)
		say_error(C_GIT_FAILED, "cannot run %s: %s\n", argv[0], strerror(errno));
	else if (*status < 0 && sig)
		say_error(C_GIT_FAILED, "%s: killed by signal %d\n", argv[0], sig);
	else if (*status < 0)
		say_error(C_GIT_FAILED, "%s: %s\n", argv[0], strerror(errno));
	return out;
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

/* The longest --timeout / hexoid.timeout: a day. Beyond it a limit means nothing, and
 * the alarm's unsigned int could not hold every value a long can. */
#define MAX_TIMEOUT 86400UL

/* Seconds from 0 (no limit) to MAX_TIMEOUT: 0, or -1. */
static int parse_timeout(const char *v, unsigned long *seconds)
{
	return parse_count(v, seconds) || *seconds > MAX_TIMEOUT ? -1 : 0;
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

/* The git that runs the hook, as the gate picks it (hexoid_gate.h): $GIT_EXEC_PATH/git
 * when that is an executable file, else git on PATH. NULL when memory ran out. */
static char *hook_git(void)
{
	const char *exec_path = getenv("GIT_EXEC_PATH");
	struct stat st;
	char *path;

	if (exec_path && *exec_path) {
		if (!(path = malloc(strlen(exec_path) + 5)))
			return NULL;
		sprintf(path, "%s/git", exec_path);
		if (!stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK))
			return path;
		free(path);
	}
	return strdup("git");
}

/* hexoid.* from git config, read once. Returns 0, or -1 (reported) on a bad value. */
static int read_config(struct config *cfg)
{
	char *git = hook_git();
	/* Not hexoid.message: its lines could pass for keys here (message() reads it). */
	char *argv[] = { git, "config", "--get-regexp",
			 "^hexoid\\.(mixed|reportonly|fullwalk|timeout|ontimeout|jobs)$", NULL };
	int status;
	char *out, *line, *next;

	if (!git) {
		say_error(C_NO_MEMORY, "out of memory\n");
		return -1;
	}
	out = capture(argv, &status);
	free(git);

	/* 1 is git config's "no such key". */
	if (!out || (status != 0 && status != 1)) {
		say_error(C_GIT_FAILED, "git config failed (exit %d)\n", status);
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
		if (!strcmp(key, "mixed") || !strcmp(key, "reportonly") || !strcmp(key, "fullwalk")) {
			b = parse_bool(value);
			bad = b < 0;
			if (!bad)
				*(key[0] == 'm' ? &cfg->mixed : key[0] == 'r' ? &cfg->report_only
									: &cfg->full_walk) = b;
		} else if (!strcmp(key, "timeout")) {
			bad = parse_timeout(value, &cfg->timeout);
		} else if (!strcmp(key, "ontimeout")) {
			bad = parse_timeout_action(value, &cfg->timeout_accept);
		} else if (!strcmp(key, "jobs")) {
			bad = parse_jobs(value, &cfg->jobs);
		}
		if (bad) {
			say_error(C_CONFIG, "bad value '%s' for git config hexoid.%s\n", value, key);
			free(out);
			return -1;
		}
	}
	free(out);
	return 0;
}

/* The repository as git gives it to the hook, absolute: $GIT_DIR (receive-pack sets it,
 * often to ".") made absolute, else what git rev-parse --absolute-git-dir says. NULL
 * when neither tells. */
static char *repo_path(void)
{
	const char *dir = getenv("GIT_DIR");
	char *git, *out, *path;
	int status;

	if (dir && *dir && (path = realpath(dir, NULL)))
		return path;
	if (!(git = hook_git()))
		return NULL;
	{
		char *argv[] = { git, "rev-parse", "--absolute-git-dir", NULL };
		int sig;
		out = hexoid_child_capture(argv, NULL, &status, &sig);
	}
	free(git);
	if (out && status == 0) {
		out[strcspn(out, "\n")] = 0;
		if (*out == '/')
			return out;
	}
	free(out);
	return NULL;
}

/* After a rejection, hexoid.message (a forge's word to the pusher, perhaps a link to its
 * help page), each of its lines as it is, on stderr: git shows them as "remote: ...". */
static void message(void)
{
	char *git = hook_git(), *out;
	int status, sig;

	if (!git)
		return;
	{
		char *argv[] = { git, "config", "--get", "hexoid.message", NULL };
		out = hexoid_child_capture(argv, NULL, &status, &sig);
	}
	free(git);
	if (out && status == 0 && *out) {
		size_t len = strlen(out);
		fputs(out, stderr);
		if (out[len - 1] != '\n')
			fputc('\n', stderr);
	}
	free(out);
}

/* --- the report -------------------------------------------------------------------- */

/* The code of one of the gate's reasons (include/hexoid_gate.h gives them as text). */
static enum code gate_code(const char *message)
{
	if (!strcmp(message, "out of memory"))
		return C_NO_MEMORY;
	if (!strncmp(message, "pushed ", 7))
		return C_UNUSABLE_PACK;
	if (strstr(message, " is missing"))
		return C_MISSING_OBJECT;
	if (strstr(message, "more than 64 tags"))
		return C_LIMIT;
	if (!strcmp(message, "cannot start a thread"))
		return C_INTERNAL;
	return C_GIT_FAILED;
}

static int on_error(void *ctx, const char *message)
{
	(void)ctx;
	say_error(gate_code(message), "%s\n", message);
	return 0;
}

static int on_finding(void *ctx, const struct hexoid_gate_finding *f)
{
	char hex[HEXOID_MAX_HEXSZ + 1] = "";
	size_t hexsz = hexoid_hexsz(f->algo);
	const char *cls = hexoid_finding_class_name(f->cls);
	const char *type = hexoid_object_type_name(f->type);
	const char *warn = f->rejects ? "" : "warning: ";
	const char *where = f->ref ? NULL : f->pushed;
	struct sbuf t = { 0 };

	(void)ctx;
	if (f->has_oid) {
		hexoid_encode(hex, hexsz, f->oid, 1, f->algo);
		hex[hexsz] = 0;
	}
	if (f->ref)
		sb_printf(&t, SAY "%s%s: ", warn, f->ref);
	else
		sb_printf(&t, SAY "%spushed %s: ", warn, where);
	if (f->header)
		sb_printf(&t, "%s %s: %s header, line %u, column %u: %s: %s\n", type, hex,
			  f->header, f->line, f->column, cls, f->message);
	else if (f->offset != HEXOID_NO_OFFSET && f->has_oid)
		sb_printf(&t, "offset %llu: %s: %s (object %s)\n", (unsigned long long)f->offset,
			  cls, f->message, hex);
	else if (f->offset != HEXOID_NO_OFFSET)
		sb_printf(&t, "offset %llu: %s: %s\n", (unsigned long long)f->offset, cls,
			  f->message);
	else if (f->has_oid && type)
		sb_printf(&t, "%s %s: %s: %s\n", type, hex, cls, f->message);
	else
		sb_printf(&t, "%s: %s\n", cls, f->message);
	/* The line whole: one piece of the batch, never split by another line. */
	if (!t.oom)
		out_lines(STDERR_FILENO, t.p, t.len);
	sb_free(&t);
	if (json_lines) {
		struct sbuf b = { 0 };
		sb_puts(&b, "{\"schema\": 1, \"type\": \"finding\", \"repo\": ");
		sb_json_string(&b, json_repo);
		sb_printf(&b, ", \"code\": \"%s\", \"ref\": ", hexoid_code_name(f->code));
		sb_json_string(&b, f->ref);
		sb_puts(&b, ", \"pushed\": ");
		sb_json_string(&b, where);
		sb_puts(&b, ", \"object\": ");
		f->has_oid ? sb_printf(&b, "\"%s\"", hex) : sb_puts(&b, "null");
		sb_puts(&b, ", \"object_type\": ");
		sb_json_string(&b, f->has_oid ? type : NULL);
		sb_puts(&b, ", \"header\": ");
		sb_json_string(&b, f->header);
		f->header ? sb_printf(&b, ", \"line\": %u, \"column\": %u", f->line, f->column)
			  : sb_puts(&b, ", \"line\": null, \"column\": null");
		if (f->offset != HEXOID_NO_OFFSET)
			sb_printf(&b, ", \"offset\": %llu", (unsigned long long)f->offset);
		else
			sb_puts(&b, ", \"offset\": null");
		sb_printf(&b, ", \"class\": \"%s\", \"rejects\": %s, \"message\": ", cls,
			  f->rejects ? "true" : "false");
		sb_json_string(&b, f->message);
		sb_puts(&b, "}\n");
		json_line(&b);
	}
	return 0;
}

/* --- input ------------------------------------------------------------------------- */

/* One update; -1 (said when memory ran out) when it is not what git sends. */
static int add_update(struct hexoid_gate *gate, const char *old, const char *new, const char *ref)
{
	char err[256];

	if (!hexoid_gate_add_update(gate, old, new, ref, err, sizeof(err)))
		return 0;
	if (!strcmp(err, "out of memory"))
		say_error(C_NO_MEMORY, "%s\n", err);
	return -1;
}

/* git's "<old> SP <new> SP <ref> LF" lines. */
static int read_updates(struct hexoid_gate *gate)
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
		if (c) {
			*b = *c = 0;
			/* A NUL byte inside an ID is not hex. */
			if (memchr(line, 0, (size_t)(b - a)) || memchr(b + 1, 0, (size_t)(c - b - 1)))
				c = NULL;
		}
		if (!c || add_update(gate, a, b + 1, c + 1)) {
			say_error(C_BAD_INPUT, "<stdin>:%llu: error: expected '<old> <new> <ref>' with "
				"40 or 64 lowercase hex digits, as git sends them\n", nr);
			rc = -1;
			break;
		}
	}
	if (ferror(stdin)) {
		say_error(C_BAD_INPUT, "reading the ref updates: %s\n", strerror(errno));
		rc = -1;
	}
	free(line);
	return rc;
}

/* --- the whole check, in a child --------------------------------------------------- */

/* The verdict line's code: set by the check (sent up with the verdict), or by the
 * supervisor when the check ended without one. */
static enum code verdict_code = C_NONE;

static int run_check(struct hexoid_gate *gate, const struct config *cfg)
{
	struct hexoid_gate_result res;
	char err[256];

	/* A git that dies is reported by its exit status, not by killing this process. */
	signal(SIGPIPE, SIG_IGN);
	out_batch();
	if (hexoid_gate_run(gate, &res, err, sizeof(err)) < 0)
		say_error(C_INTERNAL, "%s\n", err);
	out_flush();
	verdict_code = !res.complete ? (first_error != C_NONE ? first_error : C_INTERNAL)
		       : res.rejecting ? C_FINDINGS : res.warnings ? C_WARNINGS : C_OK;
	if (res.warnings && !res.rejecting)
		fprintf(stderr, SAY "push accepted with %llu warning%s\n",
			(unsigned long long)res.warnings, res.warnings == 1 ? "" : "s");
	if (!res.complete) {
		fprintf(stderr, SAY "%s: the check could not be completed (see above)\n",
			cfg->report_only ? "warning: push accepted unchecked" : "push rejected");
		return cfg->report_only ? EXIT_VALID : EXIT_TROUBLE;
	}
	if (res.rejecting) {
		fprintf(stderr, SAY "push rejected: %llu finding%s above\n",
			(unsigned long long)res.rejecting, res.rejecting == 1 ? "" : "s");
		return EXIT_INVALID;
	}
	return EXIT_VALID;
}

static volatile sig_atomic_t timed_out, stop_signal;
static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

static void on_stop(int sig)
{
	stop_signal = sig;
}

/*
 * In the check: wait for the end of the pipe the hook holds open, then kill the check's
 * process group (itself and its gits). The hook closes it only by ending: killed by a
 * signal it cannot catch (SIGKILL from git or a supervisor) too. Before this, a check
 * whose hook was killed ran on as an orphan and started gits.
 */
static void *watch_hook(void *p)
{
	int fd = (int)(intptr_t)p;
	char c;

	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
	kill(0, SIGKILL);
	return NULL;
}

/*
 * Run the check in a child and turn whatever becomes of it into a verdict. The child
 * sends its verdict through a pipe as its last act: an exit status alone could come from
 * anything that ends it early (a sanitizer's report on a crash, exit() deep in a library).
 */
static int supervise(struct hexoid_gate *gate, const struct config *cfg)
{
	struct sigaction sa;
	unsigned char verdict[2];
	int status, vp[2], life[2];
	pid_t pid;

	fflush(NULL);
	/* Close-on-exec: git's processes must not hold the verdict's pipe open, nor the
	 * one whose end tells the check that the hook is gone. */
	if (pipe(vp) || fcntl(vp[0], F_SETFD, FD_CLOEXEC) || fcntl(vp[1], F_SETFD, FD_CLOEXEC) ||
	    pipe(life) || fcntl(life[0], F_SETFD, FD_CLOEXEC) || fcntl(life[1], F_SETFD, FD_CLOEXEC) ||
	    (pid = fork()) < 0) {
		say_error(C_INTERNAL, "cannot start the check: %s\n", strerror(errno));
		verdict_code = C_INTERNAL;
		return cfg->report_only ? EXIT_VALID : EXIT_TROUBLE;
	}
	if (pid == 0) {
		pthread_t watcher;
		/* A group of its own, so that the time limit ends git's processes too. */
		setpgid(0, 0);
		close(vp[0]);
		close(life[1]);
		if (pthread_create(&watcher, NULL, watch_hook, (void *)(intptr_t)life[0]) != 0)
			_exit(EXIT_TROUBLE);
		verdict[0] = (unsigned char)run_check(gate, cfg);
		verdict[1] = (unsigned char)verdict_code;
		fflush(NULL);
		if (write(vp[1], verdict, 2) != 2)
			_exit(EXIT_TROUBLE);
		_exit(verdict[0]);
	}
	close(vp[1]);
	close(life[0]);
	setpgid(pid, pid);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	/* Killed while it waits (git's receive-pack, a supervisor): the check and its gits
	 * go first, then the hook dies of the same signal. */
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (cfg->timeout)
		alarm((unsigned)cfg->timeout);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			say_error(C_INTERNAL, "waiting for the check: %s\n", strerror(errno));
			verdict_code = C_INTERNAL;
			kill(-pid, SIGKILL);
			return cfg->report_only ? EXIT_VALID : EXIT_TROUBLE;
		}
		if (stop_signal) {
			kill(-pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			signal(stop_signal, SIG_DFL);
			raise(stop_signal);
		}
		if (timed_out) {
			kill(-pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			verdict_code = C_TIMEOUT;
			if (cfg->timeout_accept || cfg->report_only) {
				say_error(C_TIMEOUT, "warning: push accepted unchecked: the check took "
					"longer than %lu seconds (hexoid.timeout)\n", cfg->timeout);
				return EXIT_VALID;
			}
			say_error(C_TIMEOUT, "push rejected: the check took longer than %lu seconds "
				"(hexoid.timeout; hexoid.onTimeout=accept lets such pushes in)\n",
				cfg->timeout);
			return EXIT_TROUBLE;
		}
	}
	alarm(0);
	if (read(vp[0], verdict, 2) == 2 && verdict[0] <= EXIT_TROUBLE && verdict[1] < C_NONE) {
		close(vp[0]);
		verdict_code = (enum code)verdict[1];
		return verdict[0];
	}
	verdict_code = C_INTERNAL;
	close(vp[0]);
	/* Whatever the child left running goes with it. */
	kill(-pid, SIGKILL);
	if (WIFSIGNALED(status))
		say_error(C_INTERNAL, "internal error: the check died of signal %d\n", WTERMSIG(status));
	else
		say_error(C_INTERNAL, "internal error: the check ended (exit status %d) without a "
			"verdict\n", WEXITSTATUS(status));
	if (cfg->report_only) {
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
		{ "full-walk", no_argument, NULL, 'w' },
		{ "timeout", required_argument, NULL, 't' },
		{ "on-timeout", required_argument, NULL, 'T' },
		CLI_OPT_JOBS,
		CLI_OPT_JSON,
		CLI_OPT_HELP,
		CLI_OPT_END,
	};
	const char *usage = update_hook ? usage_update : usage_pre_receive;
	struct hexoid_gate_options o;
	struct hexoid_gate *gate = NULL;
	struct config cfg, flags;
	char err[256];
	int set_mixed = 0, set_report = 0, set_full = 0, set_timeout = 0, set_action = 0, set_jobs = 0, c, rc;

	memset(&cfg, 0, sizeof(cfg));
	memset(&flags, 0, sizeof(flags));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+hj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': flags.mixed = set_mixed = 1; break;
		case 'r': flags.report_only = set_report = 1; break;
		case 'w': flags.full_walk = set_full = 1; break;
		case 'J': json_lines = 1; break;
		case 't':
			if (parse_timeout(optarg, &flags.timeout))
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
	cfg.jobs = 1;
	if (json_lines)
		json_repo = repo_path();
	if (read_config(&cfg)) {
		say_error(C_CONFIG, "push rejected: the check could not be configured\n");
		rc = EXIT_TROUBLE;
		goto done;
	}
	if (set_mixed) cfg.mixed = 1;
	if (set_report) cfg.report_only = 1;
	if (set_full) cfg.full_walk = 1;
	if (set_timeout) cfg.timeout = flags.timeout;
	if (set_action) cfg.timeout_accept = flags.timeout_accept;
	if (set_jobs) cfg.jobs = flags.jobs;

	hexoid_gate_options_init(&o, sizeof(o));
	o.mixed = cfg.mixed;
	o.report_only = cfg.report_only;
	o.full_walk = cfg.full_walk;
	o.jobs = (unsigned)cfg.jobs;
	o.reached_only = update_hook;
	o.quarantine = getenv("GIT_QUARANTINE_PATH");
	o.on_finding = on_finding;
	o.on_error = on_error;
	if (!(gate = hexoid_gate_new(&o, err, sizeof(err)))) {
		say_error(strstr(err, "out of memory") ? C_NO_MEMORY : C_INTERNAL, "%s\n", err);
		rc = EXIT_TROUBLE;
		goto out;
	}

	if (update_hook) {
		const char *ref = argv[optind], *old = argv[optind + 1], *new = argv[optind + 2];
		if (add_update(gate, old, new, ref)) {
			say_error(C_BAD_INPUT, "update: expected REF OLD NEW with 40 or 64 lowercase hex "
				"digits\n");
			rc = EXIT_TROUBLE;
			goto out;
		}
	} else if (read_updates(gate)) {
		rc = EXIT_TROUBLE;
		goto out;
	}
	rc = hexoid_gate_count_updates(gate) ? supervise(gate, &cfg) : EXIT_VALID;
	goto done;
out:
	/* Input git would never send: reject, unless only reporting. */
	fprintf(stderr, SAY "%s\n", cfg.report_only ? "warning: push accepted unchecked"
						     : "push rejected");
	if (cfg.report_only)
		rc = EXIT_VALID;
done:
	if (rc != EXIT_VALID)
		message();
	if (json_lines) {
		struct sbuf b = { 0 };
		if (verdict_code == C_NONE)
			verdict_code = first_error != C_NONE ? first_error : C_OK;
		sb_printf(&b, "{\"schema\": 1, \"type\": \"run\", \"repo\": ");
		sb_json_string(&b, json_repo);
		sb_printf(&b, ", \"command\": \"%s\", \"refs\": %zu, \"verdict\": \"%s\", "
			  "\"exit\": %d, \"code\": \"%s\"}\n", update_hook ? "update" : "pre-receive",
			  hexoid_gate_count_updates(gate), rc ? "reject" : "accept", rc,
			  code_names[verdict_code]);
		json_line(&b);
	}
	free(json_repo);
	hexoid_gate_free(gate);
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
