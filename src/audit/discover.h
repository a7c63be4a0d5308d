/*
 * Repositories found as git finds them (discover.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_AUDIT_DISCOVER_H
#define HEXOID_AUDIT_DISCOVER_H

#include <stddef.h>

#include "audit/audit.h"

/* extensions.objectFormat and extensions.refStorage from a config file. */
struct repo_config {
	int algo;       /* HEXOID_SHA1, HEXOID_SHA256, -1 unknown */
	int reftable;   /* 1 reftable, 0 files, -1 unknown */
	char unknown[64];
};

/* The repository format of the git directory `dir`, from its own config file alone, as
 * git reads it (check_repository_format: no includes); the last value of each wins. */
void hexoid_audit_repo_format(const char *dir, struct repo_config *c);

/* The common directory of a git directory: its `commondir` file's, or itself. */
char *hexoid_audit_common_of(const char *gitdir);

/* A git directory, as git's setup tells one: a HEAD file, and objects/ and refs/
 * folders in its common directory (a reftable repository's refs/ is a folder too). */
int hexoid_audit_is_gitdir(const char *dir);

/* The git directory for `path`, as git's discovery finds it: in each folder from `path`
 * up to the root of its file system or a ceiling of GIT_CEILING_DIRECTORIES (not
 * included), `.git` (a folder, or a file "gitdir: <dir>"), or the folder itself when it
 * is a bare repository; with `exact`, in `path` alone. *top is the work tree's top
 * folder, or stays as it is for a bare repository. NULL with err set, and *why (enum
 * hexoid_audit_open_error), if there is none. */
char *hexoid_audit_discover(const char *path, int exact, char **top, int *why, char *err,
			    size_t errlen);

/* rp's git directories: its own, `dir` shown as `prefix`, then each linked worktree's
 * (worktrees/<name>/), by name. */
void hexoid_audit_wheres(struct repo *rp, const char *dir, const char *prefix);

#endif
