/*
 * The repositories of submodules (submodules.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_AUDIT_SUBMODULES_H
#define HEXOID_AUDIT_SUBMODULES_H

#include "audit/audit.h"

/* How a submodule's repository is audited: run.c's audit of a repository. */
typedef void audit_repo_fn(struct run *r, const char *dir, const char *prefix, const char *top);

/*
 * The repositories of submodules: modules/<name>/, where a name may hold slashes
 * (modules/a/b/), and a submodule's own under its modules/. Each is audited whole with
 * audit_repo, its findings prefixed with where it is. `rel`: "modules".
 */
void hexoid_audit_submodules(struct run *r, const struct repo *rp, const char *rel,
			     audit_repo_fn *audit_repo);

#endif
