/*
 * The repositories of submodules (submodules.h): each audited once, where it is.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>

#include "audit/config.h"
#include "audit/discover.h"
#include "audit/submodules.h"
#include "util/dir.h"
#include "util/str.h"

void hexoid_audit_submodules(struct run *r, const struct repo *rp, const char *rel,
			     audit_repo_fn *audit_repo)
{
	char *folder = hexoid_join(rp->dir, rel), **names;
	struct hexoid_names list = { NULL, 0 };
	size_t i;
	struct where w = { rp->dir, rp->prefix, 0 };

	if (!folder)
		return;
	hexoid_dir_names(folder, HEXOID_DIR_FOLDERS, NULL, NULL, &list);
	names = list.v;
	for (i = 0; i < list.n && !hexoid_audit_stop(r); i++) {
		char *sub = hexoid_join(folder, names[i]), *subrel = hexoid_join(rel, names[i]);
		if (sub && subrel) {
			if (hexoid_audit_is_gitdir(sub)) {
				int seen = hexoid_audit_seen_before(r, sub);
				if (seen) {
					hexoid_audit_file_finding(
						r, HEXOID_AREA_REFS, &w, subrel, HEXOID_CODE_BROKEN_LINK,
						"a submodule's repository that is one already audited "
						"(a link back into the repository?): not read again");
				} else {
					char *p = hexoid_concat(rp->prefix, subrel), *pp = p ? hexoid_concat(p, "/") : NULL;
					size_t nwt;
					char **wt = hexoid_audit_config_values(sub, "core.worktree", &nwt);
					char *subtop = nwt ? hexoid_resolve(sub, wt[nwt - 1]) : NULL;
					if (pp)
						audit_repo(r, sub, pp, subtop);
					free(subtop);
					while (nwt)
						free(wt[--nwt]);
					free(wt);
					free(p);
					free(pp);
				}
			} else {
				hexoid_audit_submodules(r, rp, subrel, audit_repo);
			}
		}
		free(sub);
		free(subrel);
	}
	hexoid_names_free(&list);
	free(folder);
}

