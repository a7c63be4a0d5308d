/*
 * Repositories found as git finds them (discover.h): a path's git directory, a git
 * directory's common one and format, its linked worktrees.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "audit/config.h"
#include "audit/discover.h"
#include "util/dir.h"
#include "util/file.h"
#include "util/str.h"

static void format_value(void *ctx, const char *key, const char *value)
{
	struct repo_config *c = ctx;

	if (!strcasecmp(key, "extensions.objectformat")) {
		if (!strcasecmp(value, "sha256"))
			c->algo = HEXOID_SHA256;
		else if (!strcasecmp(value, "sha1"))
			c->algo = HEXOID_SHA1;
		else {
			c->algo = -1;
			snprintf(c->unknown, sizeof(c->unknown), "extensions.objectFormat %s", value);
		}
	} else if (!strcasecmp(key, "extensions.refstorage")) {
		if (!strcasecmp(value, "reftable"))
			c->reftable = 1;
		else if (!strcasecmp(value, "files"))
			c->reftable = 0;
		else {
			c->reftable = -1;
			snprintf(c->unknown, sizeof(c->unknown), "extensions.refStorage %s", value);
		}
	}
}

void hexoid_audit_repo_format(const char *dir, struct repo_config *c)
{
	char *path = hexoid_join(dir, "config");

	c->algo = HEXOID_SHA1;
	c->reftable = 0;
	c->unknown[0] = 0;
	if (path)
		hexoid_audit_config_read(path, 0, format_value, c);
	free(path);
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *hexoid_audit_common_of(const char *gitdir)
{
	char *file = hexoid_join(gitdir, "commondir"), *c;
	char *line = file ? hexoid_file_first_line(file) : NULL;

	free(file);
	if (!line || !*line) {
		free(line);
		return strdup(gitdir);
	}
	c = hexoid_resolve(gitdir, line);
	free(line);
	return c;
}

int hexoid_audit_is_gitdir(const char *dir)
{
	char *head = hexoid_join(dir, "HEAD"), *common = hexoid_audit_common_of(dir);
	char *objects = NULL, *refs = NULL;
	struct stat st;
	int ok = 0;

	if (head && common && (objects = hexoid_join(common, "objects")) &&
	    (refs = hexoid_join(common, "refs")))
		ok = lstat(head, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) &&
		     is_dir(objects) && is_dir(refs);
	free(head);
	free(common);
	free(objects);
	free(refs);
	return ok;
}

/*
 * How far up discovery may go from `dir` (absolute, resolved), as git's setup reads
 * GIT_CEILING_DIRECTORIES: colon-separated absolute paths (others are ignored), each
 * resolved unless an empty entry came before it; the longest one that is a proper
 * ancestor of dir wins. Returns its length (0 for "/"), or -1 when none is.
 */
static long ceiling_of(const char *dir)
{
	const char *env = getenv("GIT_CEILING_DIRECTORIES");
	long best = -1;
	int empty_seen = 0;
	char *list, *entry, *save = NULL;

	if (!env || !*env || !strcmp(dir, "/") || !(list = strdup(env)))
		return -1;
	/* strtok_r would skip empty entries, which matter. */
	for (entry = list; entry; entry = save) {
		char *colon = strchr(entry, ':'), *real = NULL;
		const char *ceil = entry;
		size_t len;

		save = colon ? colon + 1 : NULL;
		if (colon)
			*colon = 0;
		if (!*entry) {
			empty_seen = 1;
			continue;
		}
		if (*entry != '/')
			continue;
		if (!empty_seen) {
			if (!(real = realpath(entry, NULL)))
				continue;
			ceil = real;
		}
		len = strlen(ceil);
		if (len && ceil[len - 1] == '/')
			len--;
		if (!strncmp(dir, ceil, len) && dir[len] == '/' && dir[len + 1] && (long)len > best)
			best = (long)len;
		free(real);
	}
	free(list);
	return best;
}

/* The git directory in the folder `dir` itself (its .git, or itself when bare): 1 with
 * *found set (and *top for a work tree), 0 when it holds none, -1 with err set when its
 * .git file leads nowhere. dir is taken over when it is the answer's top. */
static int gitdir_in(char *dir, char **found, char **top, int *why, char *err, size_t errlen)
{
	char *dotgit = hexoid_join(dir, ".git");
	struct stat gs;
	int there;

	*found = NULL;
	if (!dotgit)
		return 0;
	there = stat(dotgit, &gs) == 0;
	if (there && S_ISREG(gs.st_mode)) {
		char *line = hexoid_file_first_line(dotgit), *target = NULL;
		if (line && !strncmp(line, "gitdir:", 7)) {
			const char *p = line + 7;
			while (*p == ' ')
				p++;
			target = hexoid_resolve(dir, p);
		}
		if (!target || !hexoid_audit_is_gitdir(target)) {
			snprintf(err, errlen, "%s: %s", dotgit,
				 !line || strncmp(line, "gitdir:", 7)
					 ? "not a git repository: a .git file without 'gitdir: <path>'"
					 : "not a git repository: its gitdir is gone or is not a git directory");
			*why = HEXOID_OPEN_BROKEN_GITDIR;
			free(target);
			free(line);
			free(dotgit);
			return -1;
		}
		free(line);
		free(dotgit);
		*top = dir;
		*found = target;
		return 1;
	}
	if (there && S_ISDIR(gs.st_mode) && hexoid_audit_is_gitdir(dotgit)) {
		*top = dir;
		*found = dotgit;
		return 1;
	}
	free(dotgit);
	if (hexoid_audit_is_gitdir(dir)) {
		*found = dir;
		return 1;
	}
	return 0;
}

char *hexoid_audit_discover(const char *path, int exact, char **top, int *why, char *err,
			    size_t errlen)
{
	char *dir = realpath(path, NULL), *found;
	struct stat st, up;
	long ceiling;

	if (!dir) {
		struct errtext et;
		*why = errno == ENOENT || errno == ENOTDIR ? HEXOID_OPEN_NOT_FOUND
		       : errno == ENOMEM			 ? HEXOID_OPEN_NO_MEMORY
							 : HEXOID_OPEN_UNREADABLE;
		snprintf(err, errlen, "%s: %s", path, hexoid_audit_errtext(errno, &et));
		return NULL;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a folder", path);
		*why = HEXOID_OPEN_NOT_A_FOLDER;
		free(dir);
		return NULL;
	}
	ceiling = exact ? -1 : ceiling_of(dir);
	for (;;) {
		char *slash;
		int rc = gitdir_in(dir, &found, top, why, err, errlen);
		if (rc < 0) {
			free(dir);
			return NULL;
		}
		if (rc > 0)
			return found;
		if (exact) {
			snprintf(err, errlen, "%s: not a git repository (--exact: neither a git "
				 "directory nor a folder with .git)", path);
			*why = HEXOID_OPEN_NOT_A_REPOSITORY;
			free(dir);
			return NULL;
		}
		/* Up one folder: not to a ceiling (GIT_CEILING_DIRECTORIES) or above it, and
		 * not across file systems (git does not by default). */
		slash = strrchr(dir, '/');
		if (!slash || slash == dir || (ceiling >= 0 && slash - dir <= ceiling))
			break;
		*slash = 0;
		if (stat(dir, &up) < 0 || up.st_dev != st.st_dev)
			break;
	}
	free(dir);
	*why = HEXOID_OPEN_NOT_A_REPOSITORY;
	snprintf(err, errlen, "%s: not a git repository (nor any of its parent folders)", path);
	return NULL;
}

static void add_where(struct repo *rp, char *dir, char *prefix, int worktree)
{
	struct where *v = realloc(rp->wheres, (rp->nwheres + 1) * sizeof(*v));

	if (!v || !dir || !prefix) {
		free(v ? NULL : dir);
		free(prefix);
		if (v)
			rp->wheres = v;
		return;
	}
	rp->wheres = v;
	v[rp->nwheres].dir = dir;
	v[rp->nwheres].prefix = prefix;
	v[rp->nwheres++].worktree = worktree;
}

void hexoid_audit_wheres(struct repo *rp, const char *dir, const char *prefix)
{
	struct hexoid_names list = { NULL, 0 };
	char *wtdir;
	size_t i;

	add_where(rp, strdup(dir), strdup(prefix), 0);
	wtdir = hexoid_join(dir, "worktrees");
	if (wtdir)
		hexoid_dir_names(wtdir, HEXOID_DIR_FOLDERS, NULL, NULL, &list);
	for (i = 0; i < list.n; i++) {
		char *wd = hexoid_join(wtdir, list.v[i]), *p, *pp = NULL, *common;
		struct stat st;
		int made;
		/* git worktree add writes a new worktree's folder in steps (gitdir, HEAD,
		 * then commondir) and git takes it for a git directory only once commondir
		 * is there: before, its HEAD may still be the empty file being written.
		 * Neither does the audit. */
		common = wd ? hexoid_join(wd, "commondir") : NULL;
		made = common && lstat(common, &st) == 0;
		free(common);
		if (!made) {
			free(wd);
			continue;
		}
		p = hexoid_concat(prefix, "worktrees/");
		if (p && wd)
			pp = hexoid_concat(p, list.v[i]);
		free(p);
		p = pp ? hexoid_concat(pp, "/") : NULL;
		free(pp);
		add_where(rp, wd, p, 1);
	}
	hexoid_names_free(&list);
	free(wtdir);
}
