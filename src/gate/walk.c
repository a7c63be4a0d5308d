/*
 * The walk: every commit the pushed refs now reach that their old values (by default:
 * that no existing ref) did not, by git rev-list; and, when several new refs were walked together, which of them reaches
 * each finding, by git log --source.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gate/gate.h"

/*
 * What the walk leaves out besides the old values, after argv's first n words: by
 * default what git's connectivity check after a push leaves out, every commit an
 * existing ref (receive.hideRefs' hidden ones aside) or an alternate's ref reaches. Run
 * from a pre-receive hook the refs are not yet updated: --all is the refs before the
 * push. With full_walk, nothing more. The alternates' refs only when `alternate_refs`:
 * listing and reading them is most of the cost of a walk onto known history.
 */
static void exclusions(const struct hexoid_gate *g, char **argv, size_t n, int alternate_refs)
{
	if (!g->opt.full_walk) {
		argv[n++] = "--not";
		argv[n++] = "--exclude-hidden=receive";
		argv[n++] = "--all";
		if (alternate_refs)
			argv[n++] = "--alternate-refs";
	}
	argv[n] = NULL;
}

/* One git rev-list: the pushed commits it lists into `walked` (when not NULL), the
 * others into `stored`. 0, or -1 (said) when it could not be done. */
static int rev_list(struct hexoid_gate *g, const int *refs, size_t nrefs, int alternate_refs,
		    struct hexoid_oidset *walked, struct hexoid_oidset *stored)
{
	char *argv[8] = { "git", "rev-list", "--stdin" };
	struct gate_feeder f = { g, NULL, NULL, refs, nrefs, 0, 0 };
	char line[HEXOID_MAX_HEXSZ + 8];
	int rc = 0;
	FILE *out;
	pid_t pid;

	exclusions(g, argv, 3, alternate_refs);
	if ((pid = hexoid_gate_start_fed(g, argv, &f, &out)) < 0)
		return -1;
	while (fgets(line, sizeof(line), out)) {
		unsigned char oid[HEXOID_MAX_RAWSZ];
		struct hexoid_oidset *to;
		if (strlen(line) != g->hexsz + 1 || line[g->hexsz] != '\n' ||
		    hexoid_decode(oid, line, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL) != HEXOID_OK) {
			hexoid_gate_say(g, "git rev-list: unexpected output");
			g->trouble = 1;
			rc = -1;
			break;
		}
		to = hexoid_gate_pushed(g, oid) ? walked : stored;
		if (to && hexoid_oidset_add(to, oid, g->rawsz)) {
			hexoid_gate_oom(g);
			rc = -1;
			break;
		}
	}
	if (hexoid_gate_end_fed(g, pid, &f, out, "git rev-list") != 0) {
		hexoid_gate_say(g, "%s: git rev-list failed", g->u[refs[0]].ref);
		g->trouble = 1;
		rc = -1;
	}
	return rc;
}

/*
 * git rev-list with each new value and each old one excluded (several refs together
 * only when none has an old value, so the walk is exactly the union of theirs). Pushed
 * commits go to `walked`, for the scan's findings to be named by ref; the others are
 * read and checked.
 *
 * By default first without the alternates' refs: a new branch or tag onto history this
 * repository's refs reach lists nothing, and that is the usual push. Only stored commits
 * are left out by the alternates' refs (a pushed one is new to them too, as far as the
 * check goes: the scan reads it anyway), so when the first walk lists stored commits, a
 * second one with the alternates' refs tells which of them to read.
 */
void hexoid_gate_walk(struct hexoid_gate *g, const int *refs, size_t nrefs,
		      struct hexoid_oidset *walked)
{
	struct hexoid_oidset stored = HEXOID_OIDSET_INIT;

	if (!rev_list(g, refs, nrefs, 0, walked, &stored) && stored.n && !g->opt.full_walk) {
		hexoid_oidset_free(&stored);
		rev_list(g, refs, nrefs, 1, NULL, &stored);
	}
	hexoid_oidset_sort(walked);
	if (!g->nomem)
		hexoid_gate_check_stored(g, nrefs == 1 ? refs[0] : GATE_REF_PENDING, &stored);
	hexoid_oidset_free(&stored);
}

/*
 * Name a ref for each finding reached from one of several new refs: git log --source
 * tells, for each commit, the first tip given that reaches it. Only when something was
 * found: the walk itself does not need it.
 */
void hexoid_gate_name_pending(struct hexoid_gate *g, const int *refs, size_t nrefs)
{
	char *argv[10] = { "git", "log", "--source", "--format=%H %S", "--stdin" };
	struct gate_recs *lists[] = { &g->walk, &g->pushed };
	struct gate_feeder f = { g, NULL, NULL, refs, nrefs, 0, 0 };
	struct hexoid_oidset need = HEXOID_OIDSET_INIT;
	char *line = NULL;
	size_t cap = 0, i, l, at;
	ssize_t len;
	int *named = NULL;
	FILE *out;
	pid_t pid;

	for (l = 0; l < 2; l++)
		for (i = 0; i < lists[l]->n; i++)
			if (lists[l]->v[i].ref == GATE_REF_PENDING &&
			    hexoid_oidset_add(&need, lists[l]->v[i].oid, g->rawsz))
				goto oom;
	if (!need.n)
		return;
	exclusions(g, argv, 5, 1);
	hexoid_oidset_sort(&need);
	if (!(named = malloc(need.n * sizeof(*named))))
		goto oom;
	for (i = 0; i < need.n; i++)
		named[i] = -1;
	if ((pid = hexoid_gate_start_fed(g, argv, &f, &out)) < 0)
		goto out;
	while ((len = getline(&line, &cap, out)) > 0) {
		unsigned char key[HEXOID_MAX_RAWSZ];
		if ((size_t)len < g->hexsz + 2 || line[g->hexsz] != ' ' ||
		    hexoid_decode(key, line, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL) != HEXOID_OK)
			continue;
		if ((at = hexoid_oidset_find(&need, key, g->rawsz)) == (size_t)-1)
			continue;
		/* %S: the tip as it was given, an update's new value. */
		{
			unsigned char tip[HEXOID_MAX_RAWSZ];
			named[at] = (size_t)len == 2 * g->hexsz + 2 &&
					    hexoid_decode(tip, line + g->hexsz + 1, 1, g->hexsz, g->algo,
							  HEXOID_LOWER, NULL) == HEXOID_OK
					    ? hexoid_gate_ref_of_value(g, tip) : -1;
		}
	}
	free(line);
	if (hexoid_gate_end_fed(g, pid, &f, out, "git log") != 0) {
		hexoid_gate_say(g, "git log --source failed");
		g->trouble = 1;
	}
	goto out;
oom:
	hexoid_gate_oom(g);
out:
	for (l = 0; l < 2; l++)
		for (i = 0; i < lists[l]->n; i++) {
			struct gate_rec *r = &lists[l]->v[i];
			if (r->ref != GATE_REF_PENDING)
				continue;
			at = named ? hexoid_oidset_find(&need, r->oid, g->rawsz) : (size_t)-1;
			r->ref = at != (size_t)-1 ? named[at] : -1;
			/* Not named (it cannot be: the walk reached it): the first of them. */
			if (r->ref < 0)
				r->ref = refs[0];
		}
	free(named);
	hexoid_oidset_free(&need);
}
