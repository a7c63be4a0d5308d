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

char *hexoid_audit_discover(const char *path, char **top, char *err, size_t errlen)
{
	char *dir = realpath(path, NULL);
	struct stat st, up;

	if (!dir) {
		struct errtext et;
		snprintf(err, errlen, "%s: %s", path, hexoid_audit_errtext(errno, &et));
		return NULL;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a folder", path);
		free(dir);
		return NULL;
	}
	for (;;) {
		char *dotgit = hexoid_join(dir, ".git"), *slash;
		struct stat gs;
		int found;
		if (!dotgit)
			break;
		found = stat(dotgit, &gs) == 0;
		if (found && S_ISREG(gs.st_mode)) {
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
				free(target);
				free(line);
				free(dotgit);
				free(dir);
				return NULL;
			}
			free(line);
			free(dotgit);
			*top = dir;
			return target;
		}
		if (found && S_ISDIR(gs.st_mode) && hexoid_audit_is_gitdir(dotgit)) {
			*top = dir;
			return dotgit;
		}
		free(dotgit);
		if (hexoid_audit_is_gitdir(dir))
			return dir;
		/* Up one folder, not across file systems (git does not by default). */
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = 0;
		if (stat(dir, &up) < 0 || up.st_dev != st.st_dev)
			break;
	}
	free(dir);
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
		char *wd = hexoid_join(wtdir, list.v[i]), *p = hexoid_concat(prefix, "worktrees/"), *pp = NULL;
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
