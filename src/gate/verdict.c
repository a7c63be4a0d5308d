/*
 * The report: every finding, by ref in the order the updates came, then the pushed
 * objects no pushed ref reaches, to on_finding; and the verdict.
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "gate/gate.h"

/* Does this finding reject the push? */
static int rejects(const struct hexoid_gate *g, const struct gate_rec *r)
{
	return !g->opt.report_only && !(g->opt.mixed && r->cls == HEXOID_CLASS_GIT3);
}

static int give(struct hexoid_gate *g, const struct gate_rec *r, int pushed)
{
	struct hexoid_gate_finding f;

	memset(&f, 0, sizeof(f));
	f.code = r->code;
	f.cls = r->cls;
	f.rejects = rejects(g, r);
	f.update = r->ref >= 0 ? (size_t)r->ref : HEXOID_GATE_NO_UPDATE;
	f.ref = r->ref >= 0 ? g->u[r->ref].ref : NULL;
	f.pushed = pushed ? r->path : NULL;
	f.has_oid = r->has_oid;
	memcpy(f.oid, r->oid, sizeof(f.oid));
	f.algo = g->algo;
	f.type = r->type;
	f.header = r->header[0] ? r->header : NULL;
	f.line = r->line;
	f.column = r->column;
	f.offset = r->offset;
	f.message = r->message;
	return g->opt.on_finding ? g->opt.on_finding(g->opt.ctx, &f) : 0;
}

/* One finding's place in the report: its list (walk, pushed) and index there. */
struct at {
	unsigned char l;
	size_t i;
};

void hexoid_gate_report(struct hexoid_gate *g, struct hexoid_gate_result *res)
{
	struct hexoid_oidset seen = HEXOID_OIDSET_INIT;
	struct gate_recs *lists[] = { &g->walk, &g->pushed };
	size_t i, l, k, total = g->walk.n + g->pushed.n, *start;
	struct at *order;

	/* A tag in a ref's chain is read by the walk and, when pushed, scanned too: the
	 * walk's finding is the one given. */
	for (i = 0; i < g->walk.n; i++)
		if (hexoid_oidset_add(&seen, g->walk.v[i].oid, g->rawsz))
			hexoid_gate_oom(g);
	hexoid_oidset_sort(&seen);
	/*
	 * By ref in the order the updates came, the findings no pushed ref reaches (ref nu)
	 * last; within a ref, the walk's before the scan's, each in its order. A counting
	 * sort: 100,000 refs each with a finding of its own cost 10^10 steps ref by ref.
	 */
	start = calloc(g->nu + 2, sizeof(*start));
	order = malloc((total ? total : 1) * sizeof(*order));
	if (!start || !order) {
		free(start);
		free(order);
		hexoid_oidset_free(&seen);
		hexoid_gate_oom(g);
		return;
	}
	for (l = 0; l < 2; l++)
		for (i = 0; i < lists[l]->n; i++) {
			int ref = lists[l]->v[i].ref;
			start[(ref >= 0 && ref < (int)g->nu ? (size_t)ref : g->nu) + 1]++;
		}
	for (k = 1; k <= g->nu + 1; k++)
		start[k] += start[k - 1];
	for (l = 0; l < 2; l++)
		for (i = 0; i < lists[l]->n; i++) {
			int ref = lists[l]->v[i].ref;
			struct at *a = &order[start[ref >= 0 && ref < (int)g->nu ? (size_t)ref : g->nu]++];
			a->l = (unsigned char)l;
			a->i = i;
		}
	for (k = 0; k < total && !g->stopped; k++) {
		struct gate_rec *r = &lists[order[k].l]->v[order[k].i];
		l = order[k].l;
		if (l == 1 && r->has_oid && r->header[0] &&
		    hexoid_oidset_find(&seen, r->oid, g->rawsz) != (size_t)-1)
			continue;
		if (r->ref < 0 && g->opt.reached_only && r->has_oid)
			continue;
		rejects(g, r) ? res->rejecting++ : res->warnings++;
		if (give(g, r, l == 1)) {
			g->stopped = 1;
			hexoid_gate_cancel(g);
		}
	}
	free(start);
	free(order);
	hexoid_oidset_free(&seen);
}
