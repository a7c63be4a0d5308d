/*
 * hexoid hook: install hexoid as git's pre-receive (and update) hook in repositories
 * found as the audit finds them, or check that git will really run it on a push.
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "hexoid_audit.h"

static const char usage_hook[] =
	"usage: hexoid hook install [--update] [--force] [--hexoid=PATH] [--exact] [--jobs=N]\n"
	"                           [--from=FILE] [REPO...]\n"
	"   or: hexoid hook check [--update] [--hexoid=PATH] [--exact] [--json-lines] [--jobs=N]\n"
	"                         [--from=FILE] [REPO...]\n"
	"\n"
	"Each REPO (default: $GIT_DIR when set, else .) is found as 'hexoid audit' finds it.\n"
	"The hooks folder is where git looks for it: core.hooksPath when set (relative to\n"
	"the git directory, where git runs the hooks of a push), else hooks/ in the git\n"
	"directory; git reads core.hooksPath (so from every config file it reads).\n"
	"\n"
	"install  writes hooks/pre-receive (with --update also hooks/update): a #!/bin/sh\n"
	"         script exec'ing hexoid by absolute path, mode 0755, written to a temporary\n"
	"         file, synced and renamed, so a killed install leaves the old hook or the\n"
	"         new one. An identical hook is left as it is; a different one is not\n"
	"         replaced (exit 1) unless --force.\n"
	"check    reports, per repository, every reason git would not run hexoid on a push:\n"
	"         missing, not-executable (git ignores it with a hint: the push lands\n"
	"         unchecked), dangling (a symbolic link to nothing), hooks-path\n"
	"         (core.hooksPath leads where no hook is), interpreter-missing (its #! line),\n"
	"         hexoid-missing, hexoid-not-executable, not-hexoid (what it execs is no\n"
	"         hexoid), foreign (a hook hexoid did not write: not a hexoid hook), or ok.\n"
	"\n"
	"  --update        the update hook too ('hexoid update \"$@\"')\n"
	"  --force         install: replace a different hook\n"
	"  --hexoid=PATH   the hexoid the hook runs, absolute (default: this one, its real\n"
	"                  path from /proc/self/exe); check: a hook that is that file (a\n"
	"                  link to it), or a link to a file named hexoid, is hexoid too\n"
	"  --exact         each REPO is a repository itself, as 'hexoid audit --exact'\n"
	"  --from=FILE     also the repositories FILE lists, one a line ('-': stdin)\n"
	"  --jobs=N        N repositories at once (default 1)\n"
	"  --json-lines    check: one JSON object a line: each repository's (\"repo\",\n"
	"                  \"hook\", \"code\", \"message\"), then the run's (see the README)\n"
	"\n"
	"Exit status: 0 all installed / all ok; 1 a hook not replaced / a repository whose\n"
	"hook git would not run; 2 usage error or trouble (a repository not found, a file\n"
	"that cannot be read or written, git config that cannot be read); 2 wins over 1.\n";

struct hook_run {
	pthread_mutex_t lock;          /* output and counts */
	struct repo_list list;
	int check, update, force, exact, json;
	const char *hexoid;            /* the hexoid hooks run (absolute) */
	struct stat hexoid_st;         /* that file, to know a link to it or a copy */
	int have_hexoid_st;
	size_t ok, failing, trouble;
	int write_failed;
};

/* The two hooks: the name git looks for, and what hexoid is told after its path. */
static const char *const hook_names[] = { "pre-receive", "update" };
static const char *const hook_args[] = { "pre-receive", "update \"$@\"" };

/* A path as one word of sh: single-quoted, each ' as '\''. */
static void sh_quote(struct sbuf *b, const char *s)
{
	sb_puts(b, "'");
	for (; *s; s++)
		*s == '\'' ? sb_puts(b, "'\\''") : sb_printf(b, "%c", *s);
	sb_puts(b, "'");
}

/* The hook hexoid writes: what check parses back. */
static void hook_text(struct sbuf *b, const char *hexoid, int which)
{
	sb_puts(b, "#!/bin/sh\n"
		   "# Written by 'hexoid hook install': pushes that bring object IDs Git 3.0\n"
		   "# will not read are rejected. 'hexoid hook check' reads the line below.\n"
		   "exec ");
	sh_quote(b, hexoid);
	sb_printf(b, " %s\n", hook_args[which]);
}

/* Run `git --git-dir=DIR config --path --get core.hooksPath`: 0 with *value (to free),
 * 1 when it is not set, -1 with err when git could not say. */
/* Read a child's output into buf (at most cap - 1 bytes), close fd, and reap the child:
 * how many bytes were read, its wait status in *status. */
static size_t drain_child(int fd, char *buf, size_t cap, pid_t pid, int *status)
{
	size_t len = 0;
	ssize_t got;

	while (len < cap - 1 && (got = read(fd, buf + len, cap - 1 - len)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return len;
}

static int hooks_path(const char *gitdir, char **value, char *err, size_t errlen)
{
	int fd[2], status;
	char buf[PATH_MAX + 2], *arg;
	size_t len = 0;
	pid_t pid;

	*value = NULL;
	if (!(arg = malloc(strlen(gitdir) + 12)))
		return snprintf(err, errlen, "out of memory"), -1;
	sprintf(arg, "--git-dir=%s", gitdir);
	if (pipe(fd) < 0) {
		free(arg);
		return snprintf(err, errlen, "pipe: %s", strerror(errno)), -1;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execlp("git", "git", arg, "config", "--path", "--get", "core.hooksPath", (char *)NULL);
		_exit(127);
	}
	free(arg);
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		return snprintf(err, errlen, "fork: %s", strerror(errno)), -1;
	}
	len = drain_child(fd[0], buf, sizeof(buf), pid, &status);
	if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 1)) {
		snprintf(err, errlen, "%s: 'git config core.hooksPath' failed (exit %d): "
			 "cannot tell where git looks for hooks", gitdir,
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		return -1;
	}
	if (WEXITSTATUS(status) == 1)
		return 1;
	buf[len] = 0;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		buf[--len] = 0;
	if (!len)
		return 1;
	if (!(*value = strdup(buf)))
		return snprintf(err, errlen, "out of memory"), -1;
	return 0;
}

/* A path joined onto a folder (to free); `rel` as it is when absolute. */
static char *path_join(const char *dir, const char *rel)
{
	char *p;

	if (rel[0] == '/')
		return strdup(rel);
	if (!(p = malloc(strlen(dir) + strlen(rel) + 2)))
		return NULL;
	sprintf(p, "%s/%s", dir, rel);
	return p;
}

/* What a repository's hooks are: its git directory, where git looks, and whether that
 * comes from core.hooksPath. */
struct place {
	const char *gitdir;
	char *hooks;      /* the folder */
	char *hooks_path; /* core.hooksPath as git gives it, or NULL */
};

/* Where git looks for the hooks of a push: core.hooksPath relative to the git directory
 * (where receive-pack runs them), else GITDIR/hooks. 0, or -1 with err. */
static int find_place(const char *gitdir, struct place *pl, char *err, size_t errlen)
{
	int rc = hooks_path(gitdir, &pl->hooks_path, err, errlen);

	pl->gitdir = gitdir;
	if (rc < 0)
		return -1;
	pl->hooks = path_join(gitdir, rc == 0 ? pl->hooks_path : "hooks");
	if (!pl->hooks) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* --- check ------------------------------------------------------------------------- */

/* Run `path --version` with argv[0] "hexoid" (so that a copy named pre-receive does not
 * take it as its own name): whether it says it is hexoid. */
static int says_hexoid(const char *path)
{
	int fd[2], status;
	char buf[64];
	size_t len = 0;
	pid_t pid;

	if (pipe(fd) < 0)
		return 0;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(fd[1], 1);
		dup2(null, 2);
		close(fd[0]);
		close(fd[1]);
		execl(path, "hexoid", "--version", (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		return 0;
	}
	len = drain_child(fd[0], buf, sizeof(buf), pid, &status);
	buf[len] = 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 && !strncmp(buf, "hexoid ", 7);
}

/* A verdict: its code, and a message. */
struct verdict {
	const char *code;
	int trouble;      /* not about the hook: the check could not be done */
	char message[1024];
};

static void say(struct verdict *v, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(struct verdict *v, const char *code, const char *fmt, ...)
{
	va_list ap;

	v->code = code;
	va_start(ap, fmt);
	vsnprintf(v->message, sizeof(v->message), fmt, ap);
	va_end(ap);
}

/* One sh word at s (single or double quoted, or bare) into out; the end of it, or NULL. */
static const char *sh_word(const char *s, char *out, size_t cap)
{
	size_t n = 0;

	while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
		if (*s == '\'') {
			for (s++; *s && *s != '\''; s++)
				if (n + 1 < cap)
					out[n++] = *s;
			if (*s != '\'')
				return NULL;
			s++;
		} else if (*s == '"') {
			for (s++; *s && *s != '"'; s++) {
				if (*s == '\\' && (s[1] == '"' || s[1] == '\\' || s[1] == '$' || s[1] == '`'))
					s++;
				if (n + 1 < cap)
					out[n++] = *s;
			}
			if (*s != '"')
				return NULL;
			s++;
		} else {
			if (*s == '\\' && s[1])
				s++;
			if (n + 1 < cap)
				out[n++] = *s;
			s++;
		}
	}
	out[n] = 0;
	return n + 1 < cap ? s : NULL;
}

/* The hexoid a hook's text execs for hook `which`: 1 with it in out, 0 when the text is
 * not one hexoid writes (no "exec PATH pre-receive" line). */
static int exec_target(const char *text, int which, char *out, size_t cap)
{
	const char *line = text, *name = hook_names[which];
	size_t nlen = strlen(name);

	for (; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : line + strlen(line)) {
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "exec", 4) || (p[4] != ' ' && p[4] != '\t'))
			continue;
		p += 5;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!(p = sh_word(p, out, cap)))
			return 0;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, name, nlen) && (!p[nlen] || strchr(" \t\n", p[nlen])))
			return 1;
		return 0;
	}
	return 0;
}

/* Whether st is the hexoid of the run (the running one, or --hexoid). */
static int is_our_hexoid(const struct hook_run *hr, const struct stat *st)
{
	return hr->have_hexoid_st && st->st_dev == hr->hexoid_st.st_dev &&
	       st->st_ino == hr->hexoid_st.st_ino;
}

/* Whether git would run hexoid as hook `which` of the place: the verdict. */
static void check_hook(const struct hook_run *hr, const struct place *pl, int which,
		       char *path, struct verdict *v)
{
	const char *name = hook_names[which];
	struct stat lst, st;
	char buf[8192], target[PATH_MAX];
	ssize_t got;
	int fd;

	if (lstat(path, &lst) < 0) {
		if (errno != ENOENT && errno != ENOTDIR) {
			v->trouble = 1;
			say(v, "unreadable", "%s: %s", path, strerror(errno));
		} else if (pl->hooks_path) {
			char *own = path_join(pl->gitdir, which ? "hooks/update" : "hooks/pre-receive");
			struct stat os;
			int there = own && lstat(own, &os) == 0;
			say(v, "hooks-path", "core.hooksPath is '%s': git looks for %s, and there is none%s%s%s",
			    pl->hooks_path, path, there ? " (" : "", there ? own : "",
			    there ? " is not run)" : "");
			free(own);
		} else {
			say(v, "missing", "%s: no %s hook: git runs none", path, name);
		}
		return;
	}
	if (stat(path, &st) < 0) {
		char link[PATH_MAX];
		ssize_t n = readlink(path, link, sizeof(link) - 1);
		link[n > 0 ? n : 0] = 0;
		say(v, "dangling", "%s: a symbolic link to nothing ('%s'): git runs no hook, the push "
		    "lands unchecked", path, link);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		say(v, "foreign", "%s: not a file: not a hexoid hook", path);
		return;
	}
	if (!(st.st_mode & 0111) || (access(path, X_OK) < 0 && errno == EACCES)) {
		say(v, "not-executable", "%s: not executable (mode %03o): git ignores it with a hint, "
		    "the push lands unchecked", path, (unsigned)(st.st_mode & 0777));
		return;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		v->trouble = 1;
		say(v, "unreadable", "%s: %s", path, strerror(errno));
		return;
	}
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got < 0) {
		v->trouble = 1;
		say(v, "unreadable", "%s: %s", path, strerror(errno));
		return;
	}
	buf[got] = 0;
	if (got < 2 || buf[0] != '#' || buf[1] != '!') {
		/* A program: hexoid itself, which takes the hook's name; the one of this run
		 * (--hexoid), or a link to a file named hexoid that says it is one. Nothing
		 * else is run to ask. */
		char *real = S_ISLNK(lst.st_mode) ? realpath(path, NULL) : NULL;
		const char *base = real ? strrchr(real, '/') : NULL;
		if (is_our_hexoid(hr, &st) || (base && !strcmp(base + 1, "hexoid") && says_hexoid(real)))
			say(v, "ok", "%s: hexoid itself, run as '%s'", path, name);
		else
			say(v, "foreign", "%s: not a hexoid hook (a program, not this hexoid nor a link "
			    "to one)", path);
		free(real);
		return;
	}
	{
		const char *p = buf + 2;
		char interp[PATH_MAX];
		size_t n = 0;
		while (*p == ' ' || *p == '\t')
			p++;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && n + 1 < sizeof(interp))
			interp[n++] = *p++;
		interp[n] = 0;
		if (!n || access(interp, X_OK) < 0 || stat(interp, &st) < 0 || !S_ISREG(st.st_mode)) {
			say(v, "interpreter-missing", "%s: its interpreter '%s' %s: every push is "
			    "refused with 'cannot run'", path, interp,
			    n && access(interp, F_OK) == 0 ? "is not executable" : "does not exist");
			return;
		}
	}
	if (!exec_target(buf, which, target, sizeof(target))) {
		say(v, "foreign", "%s: not a hexoid hook (no 'exec HEXOID %s' line): not checked further",
		    path, name);
		return;
	}
	if (target[0] != '/') {
		say(v, "hexoid-missing", "%s: runs '%s', not an absolute path: what runs depends on "
		    "git's PATH", path, target);
		return;
	}
	if (stat(target, &st) < 0) {
		say(v, "hexoid-missing", "%s: runs %s, which does not exist: every push is refused",
		    path, target);
		return;
	}
	if (!S_ISREG(st.st_mode) || access(target, X_OK) < 0) {
		say(v, "hexoid-not-executable", "%s: runs %s, which is not executable: every push is "
		    "refused", path, target);
		return;
	}
	if (!is_our_hexoid(hr, &st) && !says_hexoid(target)) {
		say(v, "not-hexoid", "%s: runs %s, which is not hexoid ('--version' does not say so)",
		    path, target);
		return;
	}
	say(v, "ok", "%s: runs %s %s", path, target, name);
}

/* --- install ----------------------------------------------------------------------- */

/*
 * The test hook HEXOID_HOOK_KILL_AFTER=N: SIGKILL at step N of writing a hook (0 the
 * temporary file made, 1 written, 2 its mode set, 3 synced, 4 closed, 5 renamed, 6 the
 * folder synced), to prove a killed install leaves the old hook or the new one, whole.
 */
static void step(long n)
{
	static long kill_at = -2;

	if (kill_at == -2) {
		const char *v = getenv("HEXOID_HOOK_KILL_AFTER");
		kill_at = v && *v ? strtol(v, NULL, 10) : -1;
	}
	if (n == kill_at)
		raise(SIGKILL);
}

/*
 * A killed install's temporary files: `<hook>.hexoid-<pid>-XXXXXX` whose process is
 * gone (on this machine: kill(pid, 0) says there is none). git never runs them; they
 * are removed so that killed installs do not pile up. One that cannot be told dead
 * stays.
 */
static void remove_stale(const char *dir, const char *hook)
{
	size_t n = strlen(hook);
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *p = e->d_name;
		char *end, *path;
		long pid;

		if (strncmp(p, hook, n) || strncmp(p + n, ".hexoid-", 8))
			continue;
		pid = strtol(p + n + 8, &end, 10);
		if (end == p + n + 8 || *end != '-' || pid <= 0 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if ((path = path_join(dir, p))) {
			unlink(path);
			free(path);
		}
	}
	closedir(d);
}

/* Write `text` as `path`, mode 0755, through a temporary file in its folder: synced,
 * renamed over it, the folder synced. 0, or -1 with err. */
static int write_hook(const char *dir, const char *path, const char *hook,
		      const struct sbuf *text, char *err, size_t errlen)
{
	char *tmp = malloc(strlen(path) + 48);
	int fd, dfd, ok;

	if (!tmp)
		return snprintf(err, errlen, "out of memory"), -1;
	remove_stale(dir, hook);
	sprintf(tmp, "%s.hexoid-%ld-XXXXXX", path, (long)getpid());
	if ((fd = mkstemp(tmp)) < 0) {
		snprintf(err, errlen, "%s: cannot write there: %s", dir, strerror(errno));
		free(tmp);
		return -1;
	}
	step(0);
	ok = write(fd, text->p, text->len) == (ssize_t)text->len;
	step(1);
	ok = ok && fchmod(fd, 0755) == 0;
	step(2);
	ok = ok && fsync(fd) == 0;
	step(3);
	ok = close(fd) == 0 && ok;
	step(4);
	ok = ok && rename(tmp, path) == 0;
	if (!ok) {
		int e = errno;
		unlink(tmp);
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		free(tmp);
		return -1;
	}
	free(tmp);
	step(5);
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fsync(dfd);
		close(dfd);
	}
	step(6);
	return 0;
}

/* Whether the file at path holds exactly `text` (and is a regular file). */
static int same_text(const char *path, const struct sbuf *text)
{
	char buf[8192];
	struct stat st;
	ssize_t got;
	int fd;

	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != text->len ||
	    text->len >= sizeof(buf) || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	got = read(fd, buf, sizeof(buf));
	close(fd);
	return got == (ssize_t)text->len && !memcmp(buf, text->p, text->len);
}

/* Install hook `which`: EXIT_VALID (installed, or already), EXIT_INVALID (a different
 * hook not replaced), EXIT_TROUBLE; one line of report into out, or of trouble into
 * errs (for stderr). */
static int install_hook(const struct hook_run *hr, const struct place *pl, int which,
			const char *repo, struct sbuf *out, struct sbuf *errs)
{
	struct sbuf text = { 0 };
	char *path = path_join(pl->hooks, hook_names[which]);
	const char *via = pl->hooks_path ? " (core.hooksPath)" : "";
	char err[1024];
	struct stat st;
	int rc = EXIT_VALID;

	hook_text(&text, hr->hexoid, which);
	if (!path || text.oom) {
		sb_printf(errs, "hexoid hook: %s: out of memory\n", repo);
		rc = EXIT_TROUBLE;
	} else if (same_text(path, &text) && stat(path, &st) == 0 && (st.st_mode & 0777) == 0755) {
		sb_printf(out, "%s: already installed: %s%s\n", repo, path, via);
	} else if (lstat(path, &st) == 0 && !same_text(path, &text) && !hr->force) {
		sb_printf(out, "%s: %s: a different %s hook is there: not replaced (--force replaces "
			  "it)\n", repo, path, hook_names[which]);
		rc = EXIT_INVALID;
	} else if (write_hook(pl->hooks, path, hook_names[which], &text, err, sizeof(err)) < 0) {
		sb_printf(errs, "hexoid hook: %s: %s\n", repo, err);
		rc = EXIT_TROUBLE;
	} else {
		sb_printf(out, "%s: installed %s%s: runs %s %s\n", repo, path, via, hr->hexoid,
			  hook_names[which]);
	}
	free(path);
	sb_free(&text);
	return rc;
}

/* --- the run ----------------------------------------------------------------------- */

/* 2 wins over 1, 1 over 0. */
static int worse(int a, int b)
{
	return a > b ? a : b;
}

static void json_line(struct sbuf *b, const char *repo, const char *hook, const char *code,
		      const char *message)
{
	sb_json_head(b, "hook", repo);
	sb_puts(b, ", \"hook\": ");
	sb_json_string(b, hook);
	sb_puts(b, ", \"code\": ");
	sb_json_string(b, code);
	sb_puts(b, ", \"message\": ");
	sb_json_string(b, message);
	sb_puts(b, "}\n");
}

/* One repository: its line(s) into out, trouble into errs (for stderr; with
 * --json-lines, as a line into out too); its exit status. */
static int one_repo(struct hook_run *hr, const char *repo, struct sbuf *out, struct sbuf *errs)
{
	enum hexoid_audit_open_error why = 0;
	struct hexoid_audit *a;
	struct place pl = { NULL, NULL, NULL };
	char err[1024];
	int rc = EXIT_VALID, i, n = hr->update ? 2 : 1;

	a = hexoid_audit_open_with(repo, hr->exact ? HEXOID_AUDIT_OPEN_EXACT : 0, &why, err, sizeof(err));
	if (!a || find_place(hexoid_audit_gitdir(a), &pl, err, sizeof(err)) < 0) {
		const char *code = a ? "git-config" : hexoid_audit_open_error_name(why);
		if (hr->json)
			json_line(out, repo, NULL, code ? code : "unreadable", err);
		sb_printf(errs, "hexoid hook: %s\n", err);
		rc = EXIT_TROUBLE;
		goto done;
	}
	if (!hr->check) {
		struct stat st;
		if (stat(pl.hooks, &st) < 0 && errno == ENOENT && !pl.hooks_path)
			mkdir(pl.hooks, 0755);
		if (stat(pl.hooks, &st) < 0 || !S_ISDIR(st.st_mode)) {
			sb_printf(errs, "hexoid hook: %s: %s: no hooks folder there%s\n", repo, pl.hooks,
				  pl.hooks_path ? " (core.hooksPath names it): create it, or unset core.hooksPath" : "");
			rc = EXIT_TROUBLE;
			goto done;
		}
		for (i = 0; i < n; i++)
			rc = worse(rc, install_hook(hr, &pl, i, repo, out, errs));
		goto done;
	}
	for (i = 0; i < n; i++) {
		struct verdict v;
		char *path = path_join(pl.hooks, hook_names[i]);
		memset(&v, 0, sizeof(v));
		if (!path) {
			v.trouble = 1;
			say(&v, "unreadable", "out of memory");
		} else {
			check_hook(hr, &pl, i, path, &v);
		}
		rc = worse(rc, v.trouble ? EXIT_TROUBLE : strcmp(v.code, "ok") ? EXIT_INVALID : EXIT_VALID);
		if (hr->json)
			json_line(out, repo, path, v.code, v.message);
		else if (!v.trouble)
			sb_printf(out, "%s: %s: %s\n", repo, v.code, v.message);
		if (v.trouble)
			sb_printf(errs, "hexoid hook: %s: %s: %s\n", repo, v.code, v.message);
		free(path);
	}
done:
	free(pl.hooks);
	free(pl.hooks_path);
	hexoid_audit_close(a);
	return rc;
}

static void *hook_worker(void *p)
{
	struct hook_run *hr = p;
	char *repo;

	while ((repo = repo_list_next(&hr->list))) {
		struct sbuf out = { 0 }, errs = { 0 };
		int rc = one_repo(hr, repo, &out, &errs);
		pthread_mutex_lock(&hr->lock);
		if (out.oom || (out.len && fwrite(out.p, 1, out.len, stdout) != out.len) || fflush(stdout))
			hr->write_failed = 1;
		if (errs.len)
			fputs(errs.p, stderr);
		if (rc == EXIT_TROUBLE)
			hr->trouble++;
		else if (rc == EXIT_INVALID)
			hr->failing++;
		else
			hr->ok++;
		pthread_mutex_unlock(&hr->lock);
		sb_free(&out);
		sb_free(&errs);
		free(repo);
	}
	return NULL;
}

int cmd_hooks(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_OPT_HELP,
		CLI_OPT_JOBS,
		{ "update", no_argument, NULL, 'u' },
		{ "force", no_argument, NULL, 'f' },
		{ "hexoid", required_argument, NULL, 'x' },
		{ "exact", no_argument, NULL, 'e' },
		{ "from", required_argument, NULL, 'F' },
		{ "json-lines", no_argument, NULL, 'L' },
		CLI_OPT_END,
	};
	struct hook_run hr;
	unsigned long jobs = 1, i, nthreads = 0;
	pthread_t threads[256];
	const char *from_name = NULL, *hexoid = NULL;
	char *self = NULL, *dot[] = { (char *)"." };
	char **args;
	size_t nargs;
	int c, rc;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_hook, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_TROUBLE : EXIT_VALID;
	}
	memset(&hr, 0, sizeof(hr));
	if (!strcmp(argv[1], "check")) {
		hr.check = 1;
	} else if (strcmp(argv[1], "install")) {
		fprintf(stderr, "hexoid hook: unknown action '%s' (install or check)\n\n%s", argv[1],
			usage_hook);
		return EXIT_TROUBLE;
	}
	argc--;
	argv++;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_hook, stdout);
			return EXIT_VALID;
		case 'u': hr.update = 1; break;
		case 'f': hr.force = 1; break;
		case 'x': hexoid = optarg; break;
		case 'e': hr.exact = 1; break;
		case 'F': from_name = optarg; break;
		case 'L': hr.json = 1; break;
		case 'j':
			if (parse_jobs(optarg, &jobs)) {
				fprintf(stderr, "hexoid hook: bad --jobs '%s' (1..256)\n\n%s", optarg, usage_hook);
				return EXIT_TROUBLE;
			}
			break;
		default:
			fprintf(stderr, "hexoid hook: unknown option '%s'\n\n%s", argv[optind - 1], usage_hook);
			return EXIT_TROUBLE;
		}
	}
	if ((hr.json && !hr.check) || (hr.force && hr.check)) {
		fprintf(stderr, "hexoid hook: %s is for %s\n\n%s", hr.json ? "--json-lines" : "--force",
			hr.json ? "check" : "install", usage_hook);
		return EXIT_TROUBLE;
	}
	if (hexoid) {
		if (hexoid[0] != '/') {
			fprintf(stderr, "hexoid hook: --hexoid takes an absolute path, not '%s'\n", hexoid);
			return EXIT_TROUBLE;
		}
		if (!hr.check && access(hexoid, X_OK) < 0) {
			fprintf(stderr, "hexoid hook: --hexoid %s: %s\n", hexoid, strerror(errno));
			return EXIT_TROUBLE;
		}
	} else if (!(self = realpath("/proc/self/exe", NULL))) {
		fprintf(stderr, "hexoid hook: cannot tell this hexoid's path from /proc/self/exe (%s): "
			"name it with --hexoid=PATH\n", strerror(errno));
		return EXIT_TROUBLE;
	}
	hr.hexoid = hexoid ? hexoid : self;
	hr.have_hexoid_st = stat(hr.hexoid, &hr.hexoid_st) == 0;

	args = argv + optind;
	nargs = (size_t)(argc - optind);
	if (!nargs && !from_name) {
		const char *gd = getenv("GIT_DIR");
		if (gd && *gd)
			dot[0] = (char *)gd;
		args = dot;
		nargs = 1;
	}
	pthread_mutex_init(&hr.lock, NULL);
	rc = EXIT_VALID;
	if (repo_list_init(&hr.list, args, nargs, from_name) < 0) {
		fprintf(stderr, "hexoid hook: %s: cannot read the list: %s\n", from_name, strerror(errno));
		if (hr.json)
			printf("{\"schema\": 1, \"type\": \"error\", \"repository\": null, \"repo\": null, "
			       "\"code\": \"list-unreadable\", \"message\": \"cannot read the list\"}\n");
		rc = EXIT_TROUBLE;
	}
	for (i = 1; i < jobs && i < 256; i++)
		if (pthread_create(&threads[i], NULL, hook_worker, &hr))
			break;
	nthreads = i;
	hook_worker(&hr);
	for (i = 1; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	if (hr.list.failed) {
		fprintf(stderr, "hexoid hook: %s: reading the list: %s\n", display_name(from_name),
			hr.list.failed);
		rc = EXIT_TROUBLE;
	}
	rc = worse(rc, hr.trouble ? EXIT_TROUBLE : hr.failing ? EXIT_INVALID : EXIT_VALID);
	if (hr.json)
		printf("{\"schema\": 1, \"type\": \"run\", \"command\": \"hook check\", \"repositories\": %zu, "
		       "\"ok\": %zu, \"failing\": %zu, \"not_checked\": %zu, \"exit\": %d}\n",
		       hr.list.taken, hr.ok, hr.failing, hr.trouble, rc);
	if (fflush(stdout) || hr.write_failed) {
		fprintf(stderr, "hexoid hook: writing the report: %s\n", strerror(errno));
		rc = EXIT_TROUBLE;
	}
	repo_list_end(&hr.list);
	pthread_mutex_destroy(&hr.lock);
	free(self);
	return rc;
}
