/*
 * The plan: the audit's findings turned into actions. A file's IDs in text become one
 * lowercase action (a file outside the git directory, one to show); a name that is an
 * uppercase ID, a rename; a notes tree of uppercase folders, a new notes commit; with
 * rewrite_history, the object findings are held until the rewrite's walk says which it
 * writes again. Everything else is left, and told as left.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "repair/repair.h"
#include "util/str.h"

/* Areas whose files are text that lowercasing an ID in fixes. The others hold IDs in
 * names (replace refs, notes, loose objects, promisor files) or in objects. */
static int text_area(enum hexoid_audit_area a)
{
	switch (a) {
	case HEXOID_AREA_REFS:
	case HEXOID_AREA_PSEUDO_REFS:
	case HEXOID_AREA_PACKED_REFS:
	case HEXOID_AREA_REFLOGS:
	case HEXOID_AREA_SHALLOW:
	case HEXOID_AREA_FETCH_HEAD:
	case HEXOID_AREA_GRAFTS:
	case HEXOID_AREA_REBASE:
	case HEXOID_AREA_SEQUENCER:
	case HEXOID_AREA_RERERE:
	case HEXOID_AREA_CONFIG_FILES:
	case HEXOID_AREA_DUMB_HTTP:
	case HEXOID_AREA_GRAPH_CHAIN:
	case HEXOID_AREA_MIDX_CHAIN:
		return 1;
	default:
		return 0;
	}
}

static int fixable(const struct hexoid_audit_finding *f)
{
	/* A replace ref's name in packed-refs is text too: the records are sorted again. */
	return f->code == HEXOID_CODE_UPPERCASE_ID && f->cls == HEXOID_CLASS_GIT3 && f->line &&
	       f->column && !f->has_oid && !f->header && f->offset == HEXOID_NO_OFFSET &&
	       (text_area(f->area) || (f->area == HEXOID_AREA_REPLACE && is_packed_refs(f->path)));
}

static struct action *new_action(struct hexoid_repair *rp, enum hexoid_repair_kind kind,
				 const struct hexoid_audit_finding *f)
{
	struct action *a;

	if (hexoid_grow(&rp->v, &rp->cap, rp->n, sizeof(*rp->v)))
		return NULL;
	a = &rp->v[rp->n];
	memset(a, 0, sizeof(*a));
	a->kind = kind;
	a->area = f->area;
	if (!(a->path = strdup(f->path)))
		return NULL;
	rp->n++;
	return a;
}

/*
 * A name that is an ID in uppercase, which renaming fixes: "objects/xx/<rest>" (a loose
 * object) or "refs/replace/<id>" (a loose replace ref), each perhaps below a worktree's
 * or submodule's prefix. Returns the lowercase name, or NULL for any other finding.
 */
static char *renamed(const struct hexoid_repair *rp, const struct hexoid_audit_finding *f)
{
	/* A finding about a file names no hash: the repository's. */
	size_t hexsz = hexoid_hexsz(f->algo ? f->algo : hexoid_audit_algo(rp->audit));
	size_t len = strlen(f->path), at, i;
	const char *p = f->path;
	char *to, *full;
	struct stat st;
	int ok;

	if (f->code != HEXOID_CODE_UPPERCASE_ID || f->cls != HEXOID_CLASS_GIT3 || f->line ||
	    f->header || f->offset != HEXOID_NO_OFFSET || p[0] == '/')
		return NULL;
	if (f->area == HEXOID_AREA_LOOSE_OBJECTS && len > hexsz + 8 &&
	    !strncmp(p + len - hexsz - 9, "objects/", 8) &&
	    (len == hexsz + 9 || p[len - hexsz - 10] == '/') && p[len - hexsz + 1] == '/' &&
	    hexoid_all_hex(p + len - hexsz - 1, 2) && hexoid_all_hex(p + len - hexsz + 2, hexsz - 2))
		at = len - hexsz - 1;
	else if (f->area == HEXOID_AREA_LOOSE_OBJECTS && len >= 10 && !strncmp(p + len - 10, "objects/", 8) &&
		 (len == 10 || p[len - 11] == '/') && hexoid_all_hex(p + len - 2, 2))
		at = len - 2; /* a loose folder's name */
	else if (f->area == HEXOID_AREA_REPLACE && len >= hexsz + 13 &&
		 !strncmp(p + len - hexsz - 13, "refs/replace/", 13) &&
		 (len == hexsz + 13 || p[len - hexsz - 14] == '/') && hexoid_all_hex(p + len - hexsz, hexsz))
		at = len - hexsz;
	else
		return NULL;
	/* A loose ref, or one of reftable's (renamed through git); a replace ref of
	 * packed-refs has its own action. */
	full = hexoid_join(hexoid_audit_gitdir(rp->audit), p);
	ok = full && lstat(full, &st) == 0 && (S_ISREG(st.st_mode) || (S_ISDIR(st.st_mode) && at == len - 2));
	if (!ok && f->area == HEXOID_AREA_REPLACE && at == 13 &&
	    hexoid_audit_ref_storage(rp->audit) == HEXOID_REFS_REFTABLE)
		ok = 1;
	free(full);
	if (!ok || !(to = strdup(p)))
		return NULL;
	for (i = at; i < len; i++)
		if (to[i] >= 'A' && to[i] <= 'F')
			to[i] = (char)(to[i] + ('a' - 'A'));
	return to;
}

/* A git3 finding in a notes tree ("<ref>:<path>", the ref perhaps below a submodule's
 * prefix): the notes ref, malloc'ed; NULL for any other finding. */
static char *notes_ref_of(const struct hexoid_audit_finding *f)
{
	const char *colon;

	if (f->area != HEXOID_AREA_NOTES || f->cls != HEXOID_CLASS_GIT3 || f->code != HEXOID_CODE_UPPERCASE_ID ||
	    !(colon = strchr(f->path, ':')) || !strstr(f->path, "refs/notes/"))
		return NULL;
	return strndup(f->path, (size_t)(colon - f->path));
}

int hexoid_repair_plan_finding(void *ctx, const struct hexoid_audit_finding *f)
{
	struct hexoid_repair *rp = ctx;
	struct action *a = rp->n ? &rp->v[rp->n - 1] : NULL;
	char *to;

	/* Notes in folders of uppercase names: one new notes commit for the ref. */
	if ((to = notes_ref_of(f))) {
		struct hexoid_audit_finding g = *f;
		g.path = to;
		if (!a || a->kind != HEXOID_REPAIR_REWRITE || a->area != HEXOID_AREA_NOTES || strcmp(a->path, to)) {
			if (!(a = new_action(rp, HEXOID_REPAIR_REWRITE, &g))) {
				free(to);
				return rp->stopped = -1;
			}
		}
		free(to);
		a->n++;
		rp->count.ids++;
		return 0;
	}

	if (!fixable(f) && (to = renamed(rp, f))) {
		if (!(a = new_action(rp, HEXOID_REPAIR_RENAME, f))) {
			free(to);
			return rp->stopped = -1;
		}
		a->to = to;
		rp->count.ids++;
		return 0;
	}
	if (rp->o->rewrite_history && f->has_oid && f->header && f->cls == HEXOID_CLASS_GIT3 &&
	    f->code == HEXOID_CODE_UPPERCASE_ID &&
	    (f->type == HEXOID_OBJ_COMMIT || f->type == HEXOID_OBJ_TAG)) {
		struct held *h;
		if (hexoid_grow(&rp->held, &rp->capheld, rp->nheld, sizeof(*h)))
			return rp->stopped = -1;
		h = &rp->held[rp->nheld];
		h->f = *f;
		h->path = strdup(f->path);
		h->header = strdup(f->header);
		h->message = strdup(f->message ? f->message : "");
		if (!h->path || !h->header || !h->message) {
			free(h->path), free(h->header), free(h->message);
			return rp->stopped = -1;
		}
		h->f.path = h->path, h->f.header = h->header, h->f.message = h->message;
		rp->nheld++;
		return 0;
	}
	if (!fixable(f)) {
		if (f->cls == HEXOID_CLASS_GIT3)
			rp->count.left_git3++;
		else if (f->cls == HEXOID_CLASS_ERROR)
			rp->count.left_errors++;
		if (rp->o->on_left && rp->o->on_left(rp->o->ctx, f))
			return rp->stopped = 1;
		return 0;
	}
	/* A file's findings come together, in the audit's order: one action for them,
	 * except outside the git directory, where each is shown on its own. */
	if (f->area == HEXOID_AREA_CONFIG_FILES)
		a = new_action(rp, HEXOID_REPAIR_SHOW, f);
	else if (!a || a->kind != HEXOID_REPAIR_LOWERCASE || a->area != f->area || strcmp(a->path, f->path))
		a = new_action(rp, HEXOID_REPAIR_LOWERCASE, f);
	if (!a || hexoid_grow(&a->fixes, &a->cap, a->n, sizeof(*a->fixes)))
		return rp->stopped = -1;
	a->fixes[a->n].line = f->line;
	a->fixes[a->n].column = f->column;
	a->n++;
	rp->count.ids++;
	return 0;
}

void hexoid_repair_plan_clear(struct hexoid_repair *rp)
{
	size_t i;

	for (i = 0; i < rp->n; i++) {
		free(rp->v[i].path);
		free(rp->v[i].to);
		free(rp->v[i].note);
		free(rp->v[i].fixes);
	}
	free(rp->v);
	rp->v = NULL;
	rp->n = rp->cap = 0;
	for (i = 0; i < rp->nheld; i++) {
		free(rp->held[i].path);
		free(rp->held[i].header);
		free(rp->held[i].message);
	}
	free(rp->held);
	rp->held = NULL;
	rp->nheld = rp->capheld = 0;
	hexoid_rewrite_free(rp->rw);
	rp->rw = NULL;
	rp->rplan = NULL;
	rp->planned = 0;
	memset(&rp->count, 0, sizeof(rp->count));
}

/* The held object findings: fixed by the rewrite when it writes their object again,
 * otherwise left. */
static int settle_held(struct hexoid_repair *rp, int fixed_ok)
{
	struct pair *map = NULL;
	size_t i, nmap = 0;

	/* An earlier rewrite's old objects: their loose files go in the cleanup. */
	if (hexoid_repair_map_load(hexoid_audit_gitdir(rp->audit), hexoid_audit_algo(rp->audit), &map,
				   &nmap))
		nmap = 0;
	for (i = 0; i < rp->nheld; i++) {
		const struct hexoid_audit_finding *f = &rp->held[i].f;
		/* A loose object goes with the cleanup; a packed one stays until git repacks,
		 * and with reftable, whose reflogs keep naming them, every one stays. */
		int loose = !strncmp(f->path, "objects/", 8) && !hexoid_ends_with(f->path, ".pack") &&
			    hexoid_audit_ref_storage(rp->audit) != HEXOID_REFS_REFTABLE;
		if (fixed_ok && rp->rw && loose && hexoid_rewrite_has(rp->rw, f->oid)) {
			rp->count.ids++;
			continue;
		}
		if (nmap && loose && hexoid_repair_map_find(map, nmap, f->oid)) {
			rp->mapped_loose++;
			rp->count.ids++;
			continue;
		}
		rp->count.left_git3++;
		if (rp->o->on_left && rp->o->on_left(rp->o->ctx, f)) {
			free(map);
			return rp->stopped = 1;
		}
	}
	free(map);
	return 0;
}

/* An action of the rewrite: a ref to move, or a signed object in the way. */
static int rewrite_action(struct hexoid_repair *rp, const char *path, const unsigned char *oid,
			  const char *message)
{
	struct action *a;
	struct hexoid_audit_finding f;
	enum hexoid_algo algo = hexoid_audit_algo(rp->audit);
	size_t hexsz = hexoid_hexsz(algo);

	memset(&f, 0, sizeof(f));
	f.area = HEXOID_AREA_REFS;
	f.path = path;
	if (!(a = new_action(rp, HEXOID_REPAIR_REWRITE, &f)))
		return -1;
	if (oid) {
		if (!(a->to = malloc(hexsz + 1)))
			return -1;
		hexoid_encode(a->to, hexsz, oid, 1, algo);
		a->to[hexsz] = 0;
	}
	if (message && !(a->note = strdup(message)))
		return -1;
	return 0;
}

/* With rewrite_history: the walk, the new objects, the refs to move. */
int hexoid_repair_plan_rewrite(struct hexoid_repair *rp, const struct hexoid_repair_options *o,
			       char *err, size_t errlen)
{
	enum hexoid_algo algo = hexoid_audit_algo(rp->audit);
	size_t hexsz = hexoid_hexsz(algo), i;
	char why[512];

	if (!rp->nheld)
		return 0;
	rp->rw = hexoid_rewrite_plan(hexoid_audit_gitdir(rp->audit), algo, o->git, o->drop_signatures,
				     &rp->rplan, why, sizeof(why));
	if (!rp->rw) {
		if (rewrite_action(rp, "history", NULL, why))
			goto oom;
		return settle_held(rp, 0) ? 1 : 0;
	}
	if (rp->rplan->nsigned) {
		/* Not done at all: a history half rewritten helps no one. */
		for (i = 0; i < rp->rplan->nsigned; i++) {
			char hex[HEXOID_MAX_HEXSZ + 1], msg[256];
			hexoid_encode(hex, hexsz, rp->rplan->signed_objs[i].oid, 1, algo);
			hex[hexsz] = 0;
			snprintf(msg, sizeof(msg),
				 "signed %s %s: a new ID cannot keep its signature; the history is not rewritten "
				 "(--drop-signatures writes it again unsigned)",
				 rp->rplan->signed_objs[i].tag ? "tag" : "commit", hex);
			if (rewrite_action(rp, hex, NULL, msg))
				goto oom;
		}
		return settle_held(rp, 0) ? 1 : 0;
	}
	rp->count.commits = rp->rplan->commits;
	rp->count.tags = rp->rplan->tags;
	for (i = 0; i < rp->rplan->nrefs; i++) {
		const struct rewrite_ref *r = &rp->rplan->refs[i];
		char *name = r->worktree ? malloc(strlen(r->worktree) + 8) : NULL;
		int bad;
		if (name)
			sprintf(name, "%s:HEAD", r->worktree);
		bad = (r->worktree && !name) || rewrite_action(rp, name ? name : r->name, r->new_oid, NULL);
		free(name);
		if (bad)
			goto oom;
	}
	(void)err;
	(void)errlen;
	return settle_held(rp, 1) ? 1 : 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}
