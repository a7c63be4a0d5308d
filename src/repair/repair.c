/*
 * The repair (hexoid_repair.h): a plan made of the audit's findings, one action for each
 * file whose IDs lowercasing fixes, and each action done under git's locks.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/config.h"
#include "repair/lock.h"
#include "repair/object.h"
#include "repair/rewrite.h"
#include "util/oidset.h"
#include "util/dir.h"
#include "util/file.h"
#include "util/str.h"

/* Where an ID to lowercase is: as the audit found it. */
struct fix {
	unsigned long long line;
	unsigned long column;
};

struct action {
	enum hexoid_repair_kind kind;
	enum hexoid_audit_area area;
	char *path;
	char *to;          /* HEXOID_REPAIR_RENAME: the lowercase name; REWRITE: the new ID */
	char *note;        /* REWRITE: why it cannot be done, when it cannot */
	struct fix *fixes;
	size_t n, cap;
};

/* What core.fsync asks to flush, for the files a repair writes (git's components). */
enum {
	FSYNC_LOOSE_OBJECT = 1 << 0,
	FSYNC_PACK = 1 << 1,
	FSYNC_PACK_METADATA = 1 << 2,
	FSYNC_COMMIT_GRAPH = 1 << 3,
	FSYNC_INDEX = 1 << 4,
	FSYNC_REFERENCE = 1 << 5,
	FSYNC_OBJECTS = FSYNC_LOOSE_OBJECT | FSYNC_PACK,
	FSYNC_DERIVED = FSYNC_PACK_METADATA | FSYNC_COMMIT_GRAPH,
	FSYNC_COMMITTED = FSYNC_OBJECTS | FSYNC_REFERENCE,
	FSYNC_ADDED = FSYNC_COMMITTED | FSYNC_INDEX,
	FSYNC_ALL = FSYNC_ADDED | FSYNC_DERIVED,
	FSYNC_DEFAULT = (FSYNC_OBJECTS | FSYNC_DERIVED) & ~FSYNC_LOOSE_OBJECT,
};

struct settings {
	long ref_timeout;     /* core.filesRefLockTimeout, ms */
	long packed_timeout;  /* core.packedRefsTimeout, ms */
	unsigned fsync;       /* core.fsync */
};

/* An object finding kept until the rewrite's plan says whether it fixes it. */
struct held {
	struct hexoid_audit_finding f;
	char *path, *header, *message;
};

struct hexoid_repair {
	struct hexoid_audit *audit;
	struct held *held;
	size_t nheld, capheld;
	struct rewrite *rw;
	struct rewrite_plan *rplan;
	size_t mapped_loose;  /* held findings of an earlier rewrite's old loose objects */
	struct action *v;
	size_t n, cap;
	int planned;
	struct hexoid_repair_count count;
	struct settings set;
	const struct hexoid_repair_options *o; /* during a call */
	int stopped;
};

const char *hexoid_repair_kind_name(enum hexoid_repair_kind kind)
{
	switch (kind) {
	case HEXOID_REPAIR_LOWERCASE: return "lowercase";
	case HEXOID_REPAIR_SHOW: return "show";
	case HEXOID_REPAIR_RENAME: return "rename";
	case HEXOID_REPAIR_REWRITE: return "rewrite";
	}
	return NULL;
}

const char *hexoid_repair_outcome_name(enum hexoid_repair_outcome outcome)
{
	switch (outcome) {
	case HEXOID_REPAIR_PLANNED: return "planned";
	case HEXOID_REPAIR_DONE: return "done";
	case HEXOID_REPAIR_SHOWN: return "shown";
	case HEXOID_REPAIR_LOCKED: return "locked";
	case HEXOID_REPAIR_CHANGED: return "changed";
	case HEXOID_REPAIR_FAILED: return "failed";
	}
	return NULL;
}

/* --- settings ------------------------------------------------------------------------ */

/* A git integer: decimal, an optional k, m or g. */
static int git_long(const char *s, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (*end == 'k' || *end == 'K')
		v *= 1024, end++;
	else if (*end == 'm' || *end == 'M')
		v *= 1024 * 1024, end++;
	else if (*end == 'g' || *end == 'G')
		v *= 1024L * 1024 * 1024, end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static unsigned fsync_components(const char *value)
{
	static const struct { const char *name; unsigned bits; } names[] = {
		{ "loose-object", FSYNC_LOOSE_OBJECT }, { "pack", FSYNC_PACK },
		{ "pack-metadata", FSYNC_PACK_METADATA }, { "commit-graph", FSYNC_COMMIT_GRAPH },
		{ "index", FSYNC_INDEX }, { "reference", FSYNC_REFERENCE },
		{ "objects", FSYNC_OBJECTS }, { "derived-metadata", FSYNC_DERIVED },
		{ "committed", FSYNC_COMMITTED }, { "added", FSYNC_ADDED }, { "all", FSYNC_ALL },
	};
	unsigned current = FSYNC_DEFAULT, plus = 0, minus = 0;
	const char *s = value;

	/* As git: "none" drops the default, "-x" takes x away, names add. */
	while (*s) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s), i;
		int neg = 0;
		while (len && (*s == ' ' || *s == '\t'))
			s++, len--;
		while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
			len--;
		if (len && *s == '-')
			neg = 1, s++, len--;
		if (len == 4 && !strncmp(s, "none", 4))
			current = 0;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len && !strncmp(s, names[i].name, len))
				*(neg ? &minus : &plus) |= names[i].bits;
		if (!e)
			break;
		s = e + 1;
	}
	return (current & ~minus) | plus;
}

static void on_setting(void *ctx, const char *key, const char *value)
{
	struct settings *st = ctx;
	long v;

	if (!strcasecmp(key, "core.filesRefLockTimeout") && !git_long(value, &v))
		st->ref_timeout = v;
	else if (!strcasecmp(key, "core.packedRefsTimeout") && !git_long(value, &v))
		st->packed_timeout = v;
	else if (!strcasecmp(key, "core.fsync"))
		st->fsync = fsync_components(value);
}

/* The config files git reads, system to repository, the last value winning. */
static void read_settings(struct settings *st, const char *gitdir)
{
	const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	const char *sys = getenv("GIT_CONFIG_SYSTEM"), *glob = getenv("GIT_CONFIG_GLOBAL");
	char *p;

	st->ref_timeout = 100;
	st->packed_timeout = 1000;
	st->fsync = FSYNC_DEFAULT;
	if (!getenv("GIT_CONFIG_NOSYSTEM"))
		hexoid_audit_config_read(sys ? sys : "/etc/gitconfig", 1, on_setting, st);
	if (glob) {
		hexoid_audit_config_read(glob, 1, on_setting, st);
	} else {
		p = xdg && *xdg ? hexoid_join(xdg, "git/config")
				: home ? hexoid_join(home, ".config/git/config") : NULL;
		if (p)
			hexoid_audit_config_read(p, 1, on_setting, st);
		free(p);
		if (home && (p = hexoid_join(home, ".gitconfig"))) {
			hexoid_audit_config_read(p, 1, on_setting, st);
			free(p);
		}
	}
	if ((p = hexoid_join(gitdir, "config"))) {
		hexoid_audit_config_read(p, 1, on_setting, st);
		free(p);
	}
}

/* --- the plan ------------------------------------------------------------------------ */

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

/* Whether the path is a packed-refs file (the repository's, or a submodule's). */
static int is_packed_refs(const char *path)
{
	const char *slash = strrchr(path, '/');
	return !strcmp(slash ? slash + 1 : path, "packed-refs");
}

static int fixable(const struct hexoid_audit_finding *f)
{
	/* A replace ref's name in packed-refs is text too: the records are sorted again. */
	return f->code == HEXOID_AUDIT_UPPERCASE && f->cls == HEXOID_CLASS_GIT3 && f->line &&
	       f->column && !f->has_oid && !f->header && f->offset == HEXOID_NO_OFFSET &&
	       (text_area(f->area) || (f->area == HEXOID_AREA_REPLACE && is_packed_refs(f->path)));
}

/* A record of packed-refs: a "<id> <name>" line and the "^<id>" line after it. */
struct record {
	const char *p, *name;
	size_t len, namelen;
};

static int cmp_record(const void *a, const void *b)
{
	const struct record *x = a, *y = b;
	size_t n = x->namelen < y->namelen ? x->namelen : y->namelen;
	int c = memcmp(x->name, y->name, n);
	return c ? c : (x->namelen > y->namelen) - (x->namelen < y->namelen);
}

/*
 * packed-refs whose names changed, sorted again by name as git sorts them (byte order),
 * each record with its peeled line, the header first. Into *out (malloc'ed, the same
 * size). 0; 1 when two records now have one name (left: a person must choose); -1.
 */
static int resort_packed(const char *data, size_t size, char **out)
{
	struct record *v = NULL;
	size_t n = 0, cap = 0, i, at = 0, w = 0;
	char *o;
	int ret = 0;

	while (at < size) {
		const char *p = data + at, *nl = memchr(p, '\n', size - at), *sp;
		size_t len = nl ? (size_t)(nl - p) + 1 : size - at;
		if (*p == '^' && n) {
			v[n - 1].len += len;        /* the peeled line stays with its ref */
		} else {
			if (hexoid_grow(&v, &cap, n, sizeof(*v))) {
				free(v);
				return -1;
			}
			v[n].p = p;
			v[n].len = len;
			sp = *p == '#' ? NULL : memchr(p, ' ', len);
			v[n].name = sp ? sp + 1 : "";
			v[n].namelen = sp ? len - (size_t)(sp + 1 - p) - (nl ? 1 : 0) : 0;
			n++;
		}
		at += len;
	}
	/* The header (a '#' line, name "") sorts first. */
	if (n)
		qsort(v, n, sizeof(*v), cmp_record);
	for (i = 1; i < n; i++)
		if (v[i].namelen && !cmp_record(&v[i - 1], &v[i]))
			ret = 1;
	if (!ret && !(o = malloc(size ? size : 1)))
		ret = -1;
	if (!ret) {
		for (i = 0; i < n; i++) {
			memcpy(o + w, v[i].p, v[i].len);
			w += v[i].len;
		}
		*out = o;
	}
	free(v);
	return ret;
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

	if (f->code != HEXOID_AUDIT_UPPERCASE || f->cls != HEXOID_CLASS_GIT3 || f->line ||
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

	if (f->area != HEXOID_AREA_NOTES || f->cls != HEXOID_CLASS_GIT3 || f->code != HEXOID_AUDIT_UPPERCASE ||
	    !(colon = strchr(f->path, ':')) || !strstr(f->path, "refs/notes/"))
		return NULL;
	return strndup(f->path, (size_t)(colon - f->path));
}

static int plan_finding(void *ctx, const struct hexoid_audit_finding *f)
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
	    f->code == HEXOID_AUDIT_UPPERCASE &&
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

struct hexoid_repair *hexoid_repair_open(const char *path, char *err, size_t errlen)
{
	struct hexoid_repair *rp = calloc(1, sizeof(*rp));

	if (!rp) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!(rp->audit = hexoid_audit_open(path, err, errlen))) {
		free(rp);
		return NULL;
	}
	return rp;
}

struct hexoid_audit *hexoid_repair_audit(struct hexoid_repair *rp)
{
	return rp->audit;
}

static void clear_plan(struct hexoid_repair *rp)
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

static int check_options(const struct hexoid_repair_options *o, struct hexoid_repair_options *copy,
			 char *err, size_t errlen)
{
	if (!o || o->size < offsetof(struct hexoid_repair_options, ctx) + sizeof(void *)) {
		snprintf(err, errlen, "bad options: set them with HEXOID_REPAIR_OPTIONS_INIT");
		return -1;
	}
	memset(copy, 0, sizeof(*copy));
	memcpy(copy, o, sizeof(*copy) < o->size ? sizeof(*copy) : o->size);
	return 0;
}

/* The git to run, from the options of the call at hand. */
static const char *o_git(const struct hexoid_repair *rp)
{
	return rp->o ? rp->o->git : NULL;
}

/* The IDs an action lowercases: its fixes, or the one in a name. */
static unsigned long ids_of(const struct action *a)
{
	return a->kind == HEXOID_REPAIR_RENAME ? 1 : (unsigned long)a->n;
}

/* How a plan tells an action: planned, or failed already (a rewrite that cannot be). */
static void tell_planned(struct hexoid_repair *rp, const struct action *a);

static void tell(struct hexoid_repair *rp, const struct action *a, enum hexoid_repair_outcome out,
		 const char *lock, unsigned long ids, const char *message)
{
	struct hexoid_repair_action ra;

	ra.kind = a->kind;
	ra.outcome = out;
	ra.area = a->area;
	ra.path = a->path;
	ra.lock = lock;
	ra.ids = ids;
	ra.line = a->fixes ? a->fixes[0].line : 0;
	ra.column = a->fixes ? a->fixes[0].column : 0;
	ra.message = message;
	ra.to = a->to;
	if (rp->o->on_action && rp->o->on_action(rp->o->ctx, &ra))
		rp->stopped = 1;
}

static void tell_planned(struct hexoid_repair *rp, const struct action *a)
{
	if (a->note)
		tell(rp, a, HEXOID_REPAIR_FAILED, NULL, 0, a->note);
	else
		tell(rp, a, HEXOID_REPAIR_PLANNED, NULL, ids_of(a), NULL);
}

/* --- after a rewrite: the map's old IDs out of reflogs and loose files ---------------- */

struct pair {
	unsigned char old_oid[HEXOID_MAX_RAWSZ], new_oid[HEXOID_MAX_RAWSZ];
};

static int cmp_pair(const void *a, const void *b)
{
	return memcmp(((const struct pair *)a)->old_oid, ((const struct pair *)b)->old_oid, HEXOID_MAX_RAWSZ);
}

/* hexoid-rewrite-map, sorted by old ID; 0 pairs when there is none. */
static int load_map(const char *dir, enum hexoid_algo algo, struct pair **out, size_t *n)
{
	size_t hexsz = hexoid_hexsz(algo), cap = 0;
	struct hexoid_file f;
	char *path = hexoid_join(dir, "hexoid-rewrite-map");
	const char *p;
	size_t len;

	*out = NULL;
	*n = 0;
	if (!path)
		return -1;
	if (hexoid_file_read_at(AT_FDCWD, path, 0, 0, &f) == HEXOID_FILE_OK) {
		struct hexoid_lines it = { f.data, f.size, 0, 0, '\n' };
		while (hexoid_next_line(&it, &p, &len)) {
			struct pair pr;
			memset(&pr, 0, sizeof(pr));
			if (len != 2 * hexsz + 1 ||
			    hexoid_decode(pr.old_oid, p, 1, hexsz, algo, HEXOID_MIXED, NULL) != HEXOID_OK ||
			    hexoid_decode(pr.new_oid, p + hexsz + 1, 1, hexsz, algo, HEXOID_MIXED, NULL) != HEXOID_OK)
				continue;
			if (hexoid_grow(out, &cap, *n, sizeof(pr))) {
				free(f.data);
				free(path);
				return -1;
			}
			(*out)[(*n)++] = pr;
		}
		free(f.data);
	}
	free(path);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_pair);
	return 0;
}

static const struct pair *mapped(const struct pair *map, size_t n, const unsigned char *oid)
{
	struct pair key;

	memset(&key, 0, sizeof(key));
	memcpy(key.old_oid, oid, HEXOID_MAX_RAWSZ);
	return n ? bsearch(&key, map, n, sizeof(*map), cmp_pair) : NULL;
}

/* The held object findings: fixed by the rewrite when it writes their object again,
 * otherwise left. */
static int settle_held(struct hexoid_repair *rp, int fixed_ok)
{
	struct pair *map = NULL;
	size_t i, nmap = 0;

	/* An earlier rewrite's old objects: their loose files go in the cleanup. */
	if (load_map(hexoid_audit_gitdir(rp->audit), hexoid_audit_algo(rp->audit), &map, &nmap))
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
		if (nmap && loose && mapped(map, nmap, f->oid)) {
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
static int plan_rewrite(struct hexoid_repair *rp, const struct hexoid_repair_options *o, char *err,
			size_t errlen)
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

int hexoid_repair_plan(struct hexoid_repair *rp, const struct hexoid_repair_options *options,
		       char *err, size_t errlen)
{
	struct hexoid_repair_options o;
	struct hexoid_audit_options ao = HEXOID_AUDIT_OPTIONS_INIT;
	size_t i;
	int ret;

	if (!rp || check_options(options, &o, err, errlen))
		return -1;
	clear_plan(rp);
	rp->o = &o;
	rp->stopped = 0;
	ao.jobs = o.jobs;
	ao.on_finding = plan_finding;
	ao.ctx = rp;
	ret = hexoid_audit_run(rp->audit, &ao, err, errlen);
	if (rp->stopped < 0) {
		snprintf(err, errlen, "out of memory");
		ret = -1;
	}
	if (ret == 0 && o.rewrite_history)
		ret = plan_rewrite(rp, &o, err, errlen);
	if (ret == 0) {
		rp->planned = 1;
		rp->count.planned = rp->n;
		for (i = 0; i < rp->n && !rp->stopped; i++)
			tell_planned(rp, &rp->v[i]);
		ret = rp->stopped ? 1 : 0;
	}
	rp->o = NULL;
	return ret;
}

/* --- doing an action ----------------------------------------------------------------- */

/*
 * The IDs of `a` lowercased in data: each must still be where it was found, an ID of
 * the repository's length in hex; one that is lowercase already is left. Returns how
 * many were lowercased, or -1 when one is no longer there.
 */
static long lowercase(const struct action *a, char *data, size_t size, size_t hexsz, char sep)
{
	unsigned long long line = 1;
	size_t at = 0, i;
	long n = 0;

	for (i = 0; i < a->n; i++) {
		const struct fix *fx = &a->fixes[i];
		size_t start, end, pos;
		int upper = 0;
		/* To the line (fixes come in file order). */
		while (line < fx->line) {
			char *e = memchr(data + at, sep, size - at);
			if (!e)
				return -1;
			at = (size_t)(e - data) + 1;
			line++;
		}
		pos = at + fx->column - 1;
		if (pos >= size || data[pos] == sep || !hexoid_is_hex(data[pos]))
			return -1;
		for (start = pos; start > at && hexoid_is_hex(data[start - 1]); start--)
			;
		for (end = pos; end < size && hexoid_is_hex(data[end]); end++)
			;
		if (end - start != hexsz)
			return -1;
		for (pos = start; pos < end; pos++)
			if (data[pos] >= 'A' && data[pos] <= 'F') {
				data[pos] = (char)(data[pos] + ('a' - 'A'));
				upper = 1;
			}
		n += upper;
	}
	return n;
}

/* The ref a reflog belongs to, with its git directory's prefix: "logs/refs/heads/x" is
 * "refs/heads/x", "worktrees/wt/logs/HEAD" is "worktrees/wt/HEAD". The prefix is the
 * first place "logs/" starts a component below which a git directory's HEAD is. */
static char *reflog_ref(const char *gitdir, const char *path)
{
	const char *p = path;

	for (;;) {
		if (!strncmp(p, "logs/", 5) && (p == path || p[-1] == '/')) {
			size_t plen = (size_t)(p - path);
			char *pre = strndup(path, plen), *head, *dir;
			struct stat st;
			int ok;
			if (!pre)
				return NULL;
			dir = hexoid_join(gitdir, pre);
			head = dir ? hexoid_join(dir, "HEAD") : NULL;
			ok = head && lstat(head, &st) == 0;
			free(head);
			free(dir);
			if (ok) {
				char *ref = malloc(strlen(path) - 4);
				if (ref)
					sprintf(ref, "%s%s", pre, p + 5);
				free(pre);
				return ref;
			}
			free(pre);
		}
		if (!(p = strchr(p, '/')))
			return NULL;
		p++;
	}
}

/* The file a commit-graph or multi-pack-index chain's line names, in the chain's folder. */
static char *chain_member(const char *chain, enum hexoid_audit_area area, const char *id, size_t len)
{
	const char *slash = strrchr(chain, '/');
	size_t dl = slash ? (size_t)(slash - chain + 1) : 0;
	char *s = malloc(dl + len + 40);

	if (s)
		sprintf(s, "%.*s%s%.*s%s", (int)dl, chain,
			area == HEXOID_AREA_GRAPH_CHAIN ? "graph-" : "multi-pack-index-", (int)len, id,
			area == HEXOID_AREA_GRAPH_CHAIN ? ".graph" : ".midx");
	return s;
}

/*
 * git 2.x names a chain's files by the line's text as written: a line lowercased must
 * still name its file. Where only the file of the old spelling is there, the new
 * spelling is made a second name of it (the old one stays, as a reader may hold it;
 * git's next write of the chain expires it).
 */
static int link_chain_members(struct hexoid_repair *rp, struct journal *j, const struct action *a,
			      const char *old, const char *now, size_t size, char *err, size_t errlen)
{
	size_t hexsz = hexoid_hexsz(hexoid_audit_algo(rp->audit)), i = 0;

	while (i + hexsz <= size) {
		size_t e = i;
		while (e < size && old[e] != '\n')
			e++;
		if (e - i == hexsz && memcmp(old + i, now + i, hexsz)) {
			char *from = chain_member(a->path, a->area, old + i, hexsz);
			char *to = chain_member(a->path, a->area, now + i, hexsz);
			char *ffrom = from ? hexoid_join(j->dir, from) : NULL;
			char *fto = to ? hexoid_join(j->dir, to) : NULL;
			struct stat st;
			int bad = !fto;
			if (fto && lstat(fto, &st) != 0 && ffrom && lstat(ffrom, &st) == 0) {
				if (hexoid_repair_step(j, "link", to))
					bad = 1;
				else if (link(ffrom, fto) != 0 && errno != EEXIST) {
					snprintf(err, errlen, "%s: cannot link to %s: %s", from, to,
						 strerror(errno));
					bad = 1;
				}
			}
			free(from);
			free(to);
			free(ffrom);
			free(fto);
			if (bad)
				return -1;
		}
		i = e + 1;
	}
	return 0;
}

/* Whether the file of `area` is flushed before it is renamed into place. */
static int wants_fsync(const struct hexoid_repair *rp, enum hexoid_audit_area area)
{
	switch (area) {
	case HEXOID_AREA_REFS:
	case HEXOID_AREA_PSEUDO_REFS:
	case HEXOID_AREA_PACKED_REFS:
	case HEXOID_AREA_REFLOGS:
		return !!(rp->set.fsync & FSYNC_REFERENCE);
	case HEXOID_AREA_GRAPH_CHAIN:
		return !!(rp->set.fsync & FSYNC_COMMIT_GRAPH);
	case HEXOID_AREA_MIDX_CHAIN:
		return !!(rp->set.fsync & FSYNC_PACK_METADATA);
	default:
		return 0;
	}
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void count_outcome(struct hexoid_repair *rp, enum hexoid_repair_outcome res)
{
	if (res == HEXOID_REPAIR_DONE)
		rp->count.done++;
	else if (res == HEXOID_REPAIR_LOCKED)
		rp->count.locked++;
	else if (res == HEXOID_REPAIR_CHANGED)
		rp->count.changed++;
	else
		rp->count.failed++;
}

/* One lowercase action, under its locks. */
static void do_lowercase(struct hexoid_repair *rp, struct journal *j, struct action *a)
{
	struct lock ref = { NULL, -1 }, lk = { NULL, -1 }, out = { NULL, -1 };
	enum hexoid_repair_outcome res = HEXOID_REPAIR_FAILED;
	char err[512] = "", *lockrel = NULL, *reflock = NULL, *full = hexoid_join(j->dir, a->path);
	char *old = NULL;
	struct hexoid_file f = { NULL, 0, 0, 0 };
	struct stat st;
	long timeout = 0, n = 0;
	enum lock_status ls;
	const char *slash = strrchr(a->path, '/');
	const char *base = slash ? slash + 1 : a->path;
	int packed = (a->area == HEXOID_AREA_PACKED_REFS || a->area == HEXOID_AREA_REPLACE) && is_packed_refs(a->path);

	if (!full || !(lockrel = hexoid_concat(a->path, ".lock"))) {
		snprintf(err, sizeof(err), "out of memory");
		goto done;
	}
	if (a->area == HEXOID_AREA_REFS || a->area == HEXOID_AREA_PSEUDO_REFS)
		timeout = rp->set.ref_timeout;
	else if (packed)
		timeout = rp->set.packed_timeout;
	/* A reflog is rewritten under its ref's lock, as git's reflog expire does. */
	if (a->area == HEXOID_AREA_REFLOGS) {
		char *r = reflog_ref(j->dir, a->path);
		if (!r || !(reflock = hexoid_concat(r, ".lock"))) {
			free(r);
			snprintf(err, sizeof(err), "no git directory above it");
			goto done;
		}
		free(r);
		ls = hexoid_repair_lock(j, reflock, rp->set.ref_timeout, 0666, &ref, err, sizeof(err));
		if (ls != LOCK_TAKEN) {
			res = ls == LOCK_HELD ? HEXOID_REPAIR_LOCKED : HEXOID_REPAIR_FAILED;
			goto done;
		}
	}
	/* The lock is made with the file's mode; the file is looked at again under it. */
	if (lstat(full, &st) != 0)
		st.st_mode = 0666;
	ls = hexoid_repair_lock(j, lockrel, timeout, st.st_mode & 0777, &lk, err, sizeof(err));
	if (ls != LOCK_TAKEN) {
		res = ls == LOCK_HELD ? HEXOID_REPAIR_LOCKED : HEXOID_REPAIR_FAILED;
		goto done;
	}
	/* Under the lock, the file as it is now: a regular file, no link to follow. */
	if (lstat(full, &st) != 0) {
		res = HEXOID_REPAIR_CHANGED;
		snprintf(err, sizeof(err), "gone since it was read");
		goto done;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, sizeof(err), "%s", S_ISLNK(st.st_mode) ? "a symbolic link: left to what it names"
								   : "not a regular file");
		goto done;
	}
	if (hexoid_file_read_at(AT_FDCWD, full, 0, 0, &f) != HEXOID_FILE_OK) {
		snprintf(err, sizeof(err), "cannot read it again");
		goto done;
	}
	if ((a->area == HEXOID_AREA_GRAPH_CHAIN || a->area == HEXOID_AREA_MIDX_CHAIN) &&
	    !(old = malloc(f.size + 1))) {
		snprintf(err, sizeof(err), "out of memory");
		goto done;
	}
	if (old)
		memcpy(old, f.data, f.size);
	n = lowercase(a, f.data, f.size, hexoid_hexsz(hexoid_audit_algo(rp->audit)),
		      !strcmp(base, "MERGE_RR") ? '\0' : '\n');
	if (n < 0) {
		res = HEXOID_REPAIR_CHANGED;
		snprintf(err, sizeof(err), "changed since it was read: an ID is no longer where it was");
		goto done;
	}
	if (n == 0) {
		res = HEXOID_REPAIR_DONE; /* lowercase already: someone did it */
		goto done;
	}
	if (old && link_chain_members(rp, j, a, old, f.data, f.size, err, sizeof(err)))
		goto done;
	/* A replace ref renamed in packed-refs: the records sorted again, and never one
	 * name twice (a loose ref of the new name shadows it, as loose refs do). */
	if (a->area == HEXOID_AREA_REPLACE) {
		char *sorted = NULL;
		int rs = resort_packed(f.data, f.size, &sorted);
		if (rs) {
			snprintf(err, sizeof(err), rs > 0 ? "a replace ref would have the name of another: left for a person"
							   : "out of memory");
			goto done;
		}
		free(f.data);
		f.data = sorted;
	}
	/* packed-refs: the new contents go to packed-refs.new, renamed over the file while
	 * packed-refs.lock is held, as git writes them. */
	if (packed) {
		char *newrel = hexoid_concat(a->path, ".new");
		if (!newrel) {
			snprintf(err, sizeof(err), "out of memory");
			goto done;
		}
		ls = hexoid_repair_lock(j, newrel, 0, st.st_mode & 0777, &out, err, sizeof(err));
		free(newrel);
		if (ls != LOCK_TAKEN) {
			res = ls == LOCK_HELD ? HEXOID_REPAIR_LOCKED : HEXOID_REPAIR_FAILED;
			goto done;
		}
	}
	{
		struct lock *w = packed ? &out : &lk;
		struct stat ws;
		if (hexoid_repair_step(j, "write", w->rel))
			goto done;
		if (write_all(w->fd, f.data, f.size) || fstat(w->fd, &ws)) {
			snprintf(err, sizeof(err), "%s: cannot write: %s", w->rel, strerror(errno));
			goto done;
		}
		/* The old file's mode and owner, whatever the umask and whoever runs this. */
		if ((ws.st_mode & 07777) != (st.st_mode & 07777) && fchmod(w->fd, st.st_mode & 07777)) {
			snprintf(err, sizeof(err), "%s: cannot keep its mode: %s", w->rel, strerror(errno));
			goto done;
		}
		if ((ws.st_uid != st.st_uid || ws.st_gid != st.st_gid) &&
		    fchown(w->fd, st.st_uid, st.st_gid)) {
			snprintf(err, sizeof(err), "cannot keep its owner (%lu:%lu): %s",
				 (unsigned long)st.st_uid, (unsigned long)st.st_gid, strerror(errno));
			goto done;
		}
		if (wants_fsync(rp, a->area) && fsync(w->fd)) {
			snprintf(err, sizeof(err), "%s: cannot flush: %s", w->rel, strerror(errno));
			goto done;
		}
		if (hexoid_repair_commit(j, w, a->path, err, sizeof(err)))
			goto done;
	}
	res = HEXOID_REPAIR_DONE;
done:
	hexoid_repair_unlock(j, &out);
	hexoid_repair_unlock(j, &lk);
	hexoid_repair_unlock(j, &ref);
	if (j->stopped && res != HEXOID_REPAIR_DONE) {
		rp->stopped = 1;
	} else {
		tell(rp, a, res, reflock ? reflock : lockrel, res == HEXOID_REPAIR_DONE ? (unsigned long)n : 0,
		     res == HEXOID_REPAIR_DONE ? NULL : err);
		count_outcome(rp, res);
	}
	free(f.data);
	free(old);
	free(full);
	free(lockrel);
	free(reflock);
}

/* Whether packed-refs (in the folder of the git directory `dir` + prefix of `ref`) lists
 * `ref`; the name is looked for as a whole line's second field. */
static int packed_has(const char *dir, const char *ref)
{
	const char *r = strstr(ref, "refs/");
	char *pre = r ? strndup(ref, (size_t)(r - ref)) : NULL, *path;
	struct hexoid_file f;
	int found = 0;

	if (!pre)
		return 0;
	path = malloc(strlen(dir) + strlen(pre) + 16);
	if (path) {
		sprintf(path, "%s/%spacked-refs", dir, pre);
		if (hexoid_file_read_at(AT_FDCWD, path, 0, 0, &f) == HEXOID_FILE_OK) {
			struct hexoid_lines it = { f.data, f.size, 0, 0, '\n' };
			const char *p, *sp;
			size_t len;
			while (!found && hexoid_next_line(&it, &p, &len))
				found = (sp = memchr(p, ' ', len)) && (size_t)(p + len - sp - 1) == strlen(r) &&
					!memcmp(sp + 1, r, strlen(r));
			free(f.data);
		}
		free(path);
	}
	free(pre);
	return found;
}

/* mkdir of the folder above `full`, when it is missing. */
static void make_parent(char *full)
{
	char *slash = strrchr(full, '/');

	if (slash) {
		*slash = 0;
		mkdir(full, 0777);
		*slash = '/';
	}
}

/*
 * One loose object renamed from `rel_from` to `rel_to` (its name in lowercase, perhaps
 * its folder's too): its content checked to hash to the new name's ID, then renamed
 * (atomic: git finds it under one name or the other at every moment; git takes no lock
 * on loose objects, and one writing the same object meanwhile writes the same bytes);
 * where git has it under the new name already, the old name is removed; where it is gone
 * and the new name is there (moved with its folder), done. 0, or -1 with err.
 */
static int move_loose(struct hexoid_repair *rp, struct journal *j, const char *rel_from,
		      const char *rel_to, char *err, size_t errlen)
{
	enum hexoid_algo algo = hexoid_audit_algo(rp->audit);
	size_t hexsz = hexoid_hexsz(algo), len = strlen(rel_to);
	char hex[HEXOID_MAX_HEXSZ], *from = hexoid_join(j->dir, rel_from), *to = hexoid_join(j->dir, rel_to);
	unsigned char oid[HEXOID_MAX_RAWSZ];
	struct stat st;
	int ret = -1;

	if (!from || !to) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	memcpy(hex, rel_to + len - hexsz - 1, 2);
	memcpy(hex + 2, rel_to + len - hexsz + 2, hexsz - 2);
	if (lstat(from, &st) != 0) {
		if (lstat(to, &st) == 0)
			ret = 0;
		else
			snprintf(err, errlen, "%s: gone since it was read", rel_from);
		goto out;
	}
	if (hexoid_decode(oid, hex, 1, hexsz, algo, HEXOID_LOWER, NULL) != HEXOID_OK) {
		snprintf(err, errlen, "%s: not an object's name", rel_to);
		goto out;
	}
	if (hexoid_repair_loose_is(from, algo, oid, err, errlen))
		goto out;
	if (lstat(to, &st) == 0) {
		if (hexoid_repair_step(j, "unlink", rel_from))
			goto out;
		if (unlink(from) != 0) {
			snprintf(err, errlen, "%s: cannot remove it: %s", rel_from, strerror(errno));
			goto out;
		}
	} else {
		if (hexoid_repair_step(j, "rename", rel_to))
			goto out;
		make_parent(to);
		if (rename(from, to) != 0) {
			snprintf(err, errlen, "cannot rename it to %s: %s", rel_to, strerror(errno));
			goto out;
		}
	}
	ret = 0;
out:
	free(from);
	free(to);
	return ret;
}

/*
 * A rename action. A loose object: its content checked to hash to the ID its new name
 * says, then renamed (atomic: git finds it under one name or the other at every moment;
 * git takes no lock on loose objects, and one writing the same object meanwhile writes
 * the same bytes); where git has it under the new name already, the old name is removed.
 * A replace ref: under both names' locks, its reflog first and then the ref renamed.
 */
static void do_rename(struct hexoid_repair *rp, struct journal *j, struct action *a)
{
	enum hexoid_repair_outcome res = HEXOID_REPAIR_FAILED;
	struct lock from_lk = { NULL, -1 }, to_lk = { NULL, -1 };
	char err[512] = "", *from = hexoid_join(j->dir, a->path), *to = hexoid_join(j->dir, a->to);
	char *l1 = NULL, *l2 = NULL, *log_from = NULL, *log_to = NULL;
	enum hexoid_algo algo = hexoid_audit_algo(rp->audit);
	struct stat st;
	enum lock_status ls;

	if (!from || !to) {
		snprintf(err, sizeof(err), "out of memory");
		goto done;
	}
	if (a->area == HEXOID_AREA_LOOSE_OBJECTS) {
		size_t hexsz = hexoid_hexsz(algo), len = strlen(a->to);
		if (a->to[len - 3] == '/') {
			/* A folder "objects/XX": each object in it, into "objects/xx". */
			struct hexoid_names names = { NULL, 0 };
			size_t k;
			int bad = 0;
			if (hexoid_dir_names(from, HEXOID_DIR_FILES, NULL, NULL, &names)) {
				res = HEXOID_REPAIR_CHANGED;
				snprintf(err, sizeof(err), "gone since it was read");
				goto done;
			}
			for (k = 0; k < names.n && !bad; k++) {
				char *rel_from, *rel_to;
				if (strlen(names.v[k]) != hexsz - 2 || !hexoid_all_hex(names.v[k], hexsz - 2))
					continue; /* not an object's name: git ignores it, so does this */
				rel_from = hexoid_join(a->path, names.v[k]);
				rel_to = hexoid_join(a->to, names.v[k]);
				if (!rel_from || !rel_to) {
					snprintf(err, sizeof(err), "out of memory");
					bad = 1;
				} else {
					char *c;
					/* Its own name in lowercase too. */
					for (c = rel_to + strlen(a->to); *c; c++)
						if (*c >= 'A' && *c <= 'F')
							*c = (char)(*c + ('a' - 'A'));
					bad = move_loose(rp, j, rel_from, rel_to, err, sizeof(err));
				}
				free(rel_from);
				free(rel_to);
			}
			hexoid_names_free(&names);
			if (!bad) {
				rmdir(from); /* empty now, unless it holds what is no object */
				res = HEXOID_REPAIR_DONE;
			}
			goto done;
		}
		if (!move_loose(rp, j, a->path, a->to, err, sizeof(err)))
			res = HEXOID_REPAIR_DONE;
		goto done;
	}
	/* Reftable's: through git, in one transaction. */
	if (hexoid_audit_ref_storage(rp->audit) == HEXOID_REFS_REFTABLE) {
		if (!hexoid_repair_step(j, "update-ref", a->to) &&
		    !hexoid_rewrite_rename_ref(j->dir, o_git(rp), a->path, a->to, err, sizeof(err)))
			res = HEXOID_REPAIR_DONE;
		goto done;
	}
	/* A replace ref: both names' locks, in the order of the names, as a transaction
	 * of git's takes its locks. */
	if (!(l1 = hexoid_concat(strcmp(a->path, a->to) < 0 ? a->path : a->to, ".lock")) ||
	    !(l2 = hexoid_concat(strcmp(a->path, a->to) < 0 ? a->to : a->path, ".lock"))) {
		snprintf(err, sizeof(err), "out of memory");
		goto done;
	}
	ls = hexoid_repair_lock(j, l1, rp->set.ref_timeout, 0666, &from_lk, err, sizeof(err));
	if (ls == LOCK_TAKEN)
		ls = hexoid_repair_lock(j, l2, rp->set.ref_timeout, 0666, &to_lk, err, sizeof(err));
	if (ls != LOCK_TAKEN) {
		res = ls == LOCK_HELD ? HEXOID_REPAIR_LOCKED : HEXOID_REPAIR_FAILED;
		goto done;
	}
	if (lstat(from, &st) != 0 || !S_ISREG(st.st_mode)) {
		res = HEXOID_REPAIR_CHANGED;
		snprintf(err, sizeof(err), "gone since it was read");
		goto done;
	}
	if (lstat(to, &st) == 0 || packed_has(j->dir, a->to)) {
		snprintf(err, sizeof(err), "%s exists too: left for the two to be told apart by hand", a->to);
		goto done;
	}
	{
		const char *r = strstr(a->path, "refs/replace/");
		size_t pre = r ? (size_t)(r - a->path) : 0;
		log_from = malloc(strlen(j->dir) + strlen(a->path) + 8);
		log_to = malloc(strlen(j->dir) + strlen(a->to) + 8);
		if (!log_from || !log_to) {
			snprintf(err, sizeof(err), "out of memory");
			goto done;
		}
		sprintf(log_from, "%s/%.*slogs/%s", j->dir, (int)pre, a->path, a->path + pre);
		sprintf(log_to, "%s/%.*slogs/%s", j->dir, (int)pre, a->to, a->to + pre);
	}
	if (lstat(log_from, &st) == 0 && lstat(log_to, &st) != 0) {
		if (hexoid_repair_step(j, "rename", log_to + strlen(j->dir) + 1))
			goto done;
		if (rename(log_from, log_to) != 0) {
			snprintf(err, sizeof(err), "cannot rename its reflog: %s", strerror(errno));
			goto done;
		}
	}
	if (hexoid_repair_step(j, "rename", a->to))
		goto done;
	if (rename(from, to) != 0) {
		snprintf(err, sizeof(err), "cannot rename it to %s: %s", a->to, strerror(errno));
		goto done;
	}
	res = HEXOID_REPAIR_DONE;
done:
	hexoid_repair_unlock(j, &to_lk);
	hexoid_repair_unlock(j, &from_lk);
	if (j->stopped && res != HEXOID_REPAIR_DONE) {
		rp->stopped = 1;
	} else {
		tell(rp, a, res, a->area == HEXOID_AREA_REPLACE ? l1 : NULL, res == HEXOID_REPAIR_DONE ? 1 : 0,
		     res == HEXOID_REPAIR_DONE ? NULL : err);
		count_outcome(rp, res);
	}
	free(from);
	free(to);
	free(l1);
	free(l2);
	free(log_from);
	free(log_to);
}

/* hexoid-rewrite-map: what was there, and each new "<old> <new>" line whose old ID it
 * does not have yet (a rewrite run again after being killed writes the same lines). */
static int write_map(struct hexoid_repair *rp, struct journal *j, char *err, size_t errlen)
{
	enum hexoid_algo algo = hexoid_audit_algo(rp->audit);
	size_t hexsz = hexoid_hexsz(algo), rawsz = hexoid_rawsz(algo), len, at;
	struct hexoid_oidset had = HEXOID_OIDSET_INIT;
	struct lock lk = { NULL, -1 };
	struct hexoid_file f = { NULL, 0, 0, 0 };
	char *text = NULL, *path = hexoid_join(j->dir, "hexoid-rewrite-map");
	unsigned char oid[HEXOID_MAX_RAWSZ];
	int ret = -1;

	if (!path || hexoid_rewrite_map_text(rp->rw, &text, &len)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (hexoid_repair_lock(j, "hexoid-rewrite-map.lock", 0, 0666, &lk, err, errlen) != LOCK_TAKEN)
		goto out;
	if (hexoid_file_read_at(AT_FDCWD, path, 0, 0, &f) == HEXOID_FILE_OK) {
		struct hexoid_lines it = { f.data, f.size, 0, 0, '\n' };
		const char *p;
		size_t n;
		while (hexoid_next_line(&it, &p, &n))
			if (n > hexsz && hexoid_decode(oid, p, 1, hexsz, algo, HEXOID_MIXED, NULL) == HEXOID_OK &&
			    hexoid_oidset_add(&had, oid, rawsz))
				goto oom;
		hexoid_oidset_sort(&had);
		if (write_all(lk.fd, f.data, f.size))
			goto io;
	}
	for (at = 0; at < len; at += 2 * hexsz + 2) {
		if (hexoid_decode(oid, text + at, 1, hexsz, algo, HEXOID_LOWER, NULL) == HEXOID_OK &&
		    had.n && hexoid_oidset_find(&had, oid, rawsz) != (size_t)-1)
			continue;
		if (write_all(lk.fd, text + at, 2 * hexsz + 2))
			goto io;
	}
	if (hexoid_repair_step(j, "write", "hexoid-rewrite-map.lock"))
		goto out;
	ret = hexoid_repair_commit(j, &lk, "hexoid-rewrite-map", err, errlen);
	goto out;
io:
	snprintf(err, errlen, "hexoid-rewrite-map.lock: cannot write: %s", strerror(errno));
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	hexoid_repair_unlock(j, &lk);
	hexoid_oidset_free(&had);
	free(f.data);
	free(text);
	free(path);
	return ret;
}

/* The reflog files of a git directory (its logs/ tree; each linked worktree's
 * logs/HEAD), relative paths into *names. */
static void reflog_files(const char *dir, const char *rel, struct hexoid_names *all)
{
	char *full = hexoid_join(dir, rel);
	struct hexoid_names names = { NULL, 0 };
	size_t i;

	if (!full || hexoid_dir_names(full, HEXOID_DIR_ANY, NULL, NULL, &names)) {
		free(full);
		return;
	}
	for (i = 0; i < names.n; i++) {
		char *sub = hexoid_join(rel, names.v[i]), *subfull = sub ? hexoid_join(dir, sub) : NULL;
		struct stat st;
		if (subfull && lstat(subfull, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				reflog_files(dir, sub, all);
			} else if (S_ISREG(st.st_mode) && !hexoid_ends_with(sub, ".lock")) {
				char **v = realloc(all->v, (all->n + 1) * sizeof(*v));
				if (v) {
					all->v = v;
					all->v[all->n++] = sub;
					sub = NULL;
				}
			}
		}
		free(sub);
		free(subfull);
	}
	hexoid_names_free(&names);
	free(full);
}

/* One reflog with its IDs through the map, under its ref's lock and its own, as git's
 * reflog expire rewrites one. 0 (done, or nothing to change), or -1 with err. */
static int translate_reflog(struct hexoid_repair *rp, struct journal *j, const char *rel,
			    const struct pair *map, size_t nmap, char *err, size_t errlen)
{
	enum hexoid_algo algo = hexoid_audit_algo(rp->audit);
	size_t hexsz = hexoid_hexsz(algo), at;
	struct lock ref = { NULL, -1 }, lk = { NULL, -1 };
	char *full = hexoid_join(j->dir, rel), *r = reflog_ref(j->dir, rel), *reflock = NULL, *lockrel = NULL;
	struct hexoid_file f = { NULL, 0, 0, 0 };
	struct stat st;
	int changed = 0, ret = -1;

	if (!full || !r || !(reflock = hexoid_concat(r, ".lock")) || !(lockrel = hexoid_concat(rel, ".lock"))) {
		snprintf(err, errlen, "%s: no ref for it", rel);
		goto out;
	}
	/* Read first without a lock: most reflogs name none of the old IDs. */
	if (hexoid_file_read_at(AT_FDCWD, full, 0, 0, &f) != HEXOID_FILE_OK) {
		ret = 0;
		goto out;
	}
	for (at = 0; at + 2 * hexsz + 1 <= f.size && !changed;) {
		unsigned char oid[HEXOID_MAX_RAWSZ] = { 0 }; /* padded as the map's are */
		int k;
		for (k = 0; k < 2; k++)
			if (hexoid_decode(oid, f.data + at + k * (hexsz + 1), 1, hexsz, algo, HEXOID_MIXED, NULL) == HEXOID_OK &&
			    mapped(map, nmap, oid))
				changed = 1;
		while (at < f.size && f.data[at] != '\n')
			at++;
		at++;
	}
	free(f.data);
	f.data = NULL;
	if (!changed) {
		ret = 0;
		goto out;
	}
	if (hexoid_repair_lock(j, reflock, rp->set.ref_timeout, 0666, &ref, err, errlen) != LOCK_TAKEN)
		goto out;
	if (lstat(full, &st) != 0)
		st.st_mode = 0666;
	if (hexoid_repair_lock(j, lockrel, 0, st.st_mode & 0777, &lk, err, errlen) != LOCK_TAKEN)
		goto out;
	if (hexoid_file_read_at(AT_FDCWD, full, 0, 0, &f) != HEXOID_FILE_OK) {
		snprintf(err, errlen, "%s: cannot read it again", rel);
		goto out;
	}
	for (at = 0; at + 2 * hexsz + 1 <= f.size;) {
		unsigned char oid[HEXOID_MAX_RAWSZ] = { 0 };
		const struct pair *pr;
		int k;
		for (k = 0; k < 2; k++) {
			char *id = f.data + at + k * (hexsz + 1);
			if (hexoid_decode(oid, id, 1, hexsz, algo, HEXOID_MIXED, NULL) == HEXOID_OK &&
			    (pr = mapped(map, nmap, oid)))
				hexoid_encode(id, hexsz, pr->new_oid, 1, algo);
		}
		while (at < f.size && f.data[at] != '\n')
			at++;
		at++;
	}
	if (hexoid_repair_step(j, "write", lk.rel) || write_all(lk.fd, f.data, f.size) ||
	    (wants_fsync(rp, HEXOID_AREA_REFLOGS) && fsync(lk.fd))) {
		snprintf(err, errlen, "%s: cannot write", lk.rel);
		goto out;
	}
	ret = hexoid_repair_commit(j, &lk, rel, err, errlen);
out:
	hexoid_repair_unlock(j, &lk);
	hexoid_repair_unlock(j, &ref);
	free(f.data);
	free(full);
	free(r);
	free(reflock);
	free(lockrel);
	return ret;
}

/*
 * What a rewrite leaves, done from its map so that a run killed after the refs moved is
 * finished by the next: every reflog's old IDs given their new ones (each line kept),
 * then each old object's loose file removed once nothing names it and its new object is
 * there. Old objects in packs stay until git repacks (git repack -a -d drops them).
 */
static int cleanup_rewrite(struct hexoid_repair *rp, struct journal *j, char *err, size_t errlen)
{
	enum hexoid_algo algo = hexoid_audit_algo(rp->audit);
	size_t hexsz = hexoid_hexsz(algo), nmap, i;
	struct hexoid_names logs = { NULL, 0 };
	struct hexoid_names wts = { NULL, 0 };
	struct hexoid_odb_options oo = HEXOID_ODB_OPTIONS_INIT;
	struct hexoid_odb *odb = NULL;
	struct pair *map;
	char *objects = hexoid_join(j->dir, "objects"), *wtdir = hexoid_join(j->dir, "worktrees");
	int ret = 0;

	if (!objects || !wtdir || load_map(j->dir, algo, &map, &nmap)) {
		free(objects);
		free(wtdir);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* Reftable keeps its reflogs in its tables, which this does not write: their old
	 * IDs stay, and so do the old objects they name. */
	if (!nmap || hexoid_audit_ref_storage(rp->audit) == HEXOID_REFS_REFTABLE)
		goto out;
	reflog_files(j->dir, "logs", &logs);
	if (hexoid_dir_names(wtdir, HEXOID_DIR_FOLDERS, NULL, NULL, &wts) == 0)
		for (i = 0; i < wts.n; i++) {
			char *rel = malloc(strlen(wts.v[i]) + 24);
			if (rel) {
				sprintf(rel, "worktrees/%s/logs", wts.v[i]);
				reflog_files(j->dir, rel, &logs);
				free(rel);
			}
		}
	for (i = 0; i < logs.n && !ret && !j->stopped; i++)
		ret = translate_reflog(rp, j, logs.v[i], map, nmap, err, errlen);
	oo.algo = algo;
	if (!ret && nmap && !j->stopped && (odb = hexoid_odb_open(objects, &oo, err, errlen))) {
		for (i = 0; i < nmap && !j->stopped; i++) {
			struct hexoid_object obj;
			char hex[HEXOID_MAX_HEXSZ + 1], rel[HEXOID_MAX_HEXSZ + 16], *full;
			struct stat st;
			hexoid_encode(hex, hexsz, map[i].old_oid, 1, algo);
			snprintf(rel, sizeof(rel), "objects/%.2s/%.*s", hex, (int)hexsz - 2, hex + 2);
			if (!(full = hexoid_join(j->dir, rel)))
				break;
			if (lstat(full, &st) == 0 && hexoid_odb_read(odb, map[i].new_oid, &obj, NULL, 0) == HEXOID_ODB_OK) {
				hexoid_object_free(&obj);
				if (!hexoid_repair_step(j, "unlink", rel))
					unlink(full);
			}
			free(full);
		}
		hexoid_odb_close(odb);
	}
out:
	hexoid_names_free(&logs);
	hexoid_names_free(&wts);
	free(map);
	free(objects);
	free(wtdir);
	return ret;
}

/* The rewrite, in the order that keeps each moment safe: the objects (harmless while no
 * ref names them), the map, the refs in one transaction, then the notes. */
static void do_rewrite(struct hexoid_repair *rp, struct journal *j, const struct hexoid_repair_options *o)
{
	char err[512] = "";
	size_t i;
	int ok;

	ok = !hexoid_repair_step(j, "write", "objects/pack") &&
	     !hexoid_rewrite_write_objects(rp->rw, err, sizeof(err)) && !write_map(rp, j, err, sizeof(err)) &&
	     !hexoid_repair_step(j, "update-ref", "refs") &&
	     !hexoid_rewrite_move_refs(rp->rw, o->replace_refs, err, sizeof(err));
	if (j->stopped) {
		rp->stopped = 1;
		return;
	}
	for (i = 0; i < rp->n && !rp->stopped; i++) {
		struct action *a = &rp->v[i];
		if (a->kind != HEXOID_REPAIR_REWRITE || a->note || a->area == HEXOID_AREA_NOTES)
			continue;
		tell(rp, a, ok ? HEXOID_REPAIR_DONE : HEXOID_REPAIR_FAILED, NULL, 0, ok ? NULL : err);
		count_outcome(rp, ok ? HEXOID_REPAIR_DONE : HEXOID_REPAIR_FAILED);
	}
	if (ok && !rp->stopped && cleanup_rewrite(rp, j, err, sizeof(err))) {
		struct action a;
		memset(&a, 0, sizeof(a));
		a.kind = HEXOID_REPAIR_REWRITE;
		a.area = HEXOID_AREA_REFLOGS;
		a.path = (char *)"logs";
		tell(rp, &a, HEXOID_REPAIR_FAILED, NULL, 0, err);
		rp->count.failed++;
	}
	if (ok && !rp->stopped && hexoid_rewrite_copy_notes(rp->rw, err, sizeof(err))) {
		struct action a;
		memset(&a, 0, sizeof(a));
		a.kind = HEXOID_REPAIR_REWRITE;
		a.area = HEXOID_AREA_NOTES;
		a.path = (char *)"refs/notes";
		tell(rp, &a, HEXOID_REPAIR_FAILED, NULL, 0, err);
		rp->count.failed++;
	}
}

/* A notes ref whose tree has folders of uppercase names: a new notes commit, written by
 * git (rewrite.c), whose tree names every note in lowercase. */
static void do_notes(struct hexoid_repair *rp, struct journal *j, struct action *a,
		     const struct hexoid_repair_options *o)
{
	char err[512] = "", newhex[HEXOID_MAX_HEXSZ + 1] = "", *dir;
	const char *r = strstr(a->path, "refs/notes/");
	size_t pre = (size_t)(r - a->path);
	int ok;

	if (hexoid_repair_step(j, "update-ref", a->path)) {
		rp->stopped = 1;
		return;
	}
	/* A submodule's notes: its own git directory, "modules/<name>/". */
	if (!(dir = malloc(strlen(j->dir) + pre + 2))) {
		snprintf(err, sizeof(err), "out of memory");
		ok = 0;
	} else {
		sprintf(dir, "%s/%.*s", j->dir, (int)pre, a->path);
		ok = !hexoid_rewrite_notes_tree(dir, hexoid_audit_algo(rp->audit), o->git, r, newhex, err,
						sizeof(err));
		free(dir);
	}
	free(a->to);
	a->to = ok ? strdup(newhex) : NULL;
	tell(rp, a, ok ? HEXOID_REPAIR_DONE : HEXOID_REPAIR_FAILED, NULL, ok ? ids_of(a) : 0, ok ? NULL : err);
	count_outcome(rp, ok ? HEXOID_REPAIR_DONE : HEXOID_REPAIR_FAILED);
}

int hexoid_repair_apply(struct hexoid_repair *rp, const struct hexoid_repair_options *options,
			char *err, size_t errlen)
{
	struct hexoid_repair_options o;
	struct journal j;
	size_t i;
	int ret;

	if (!rp || check_options(options, &o, err, errlen))
		return -1;
	if (!rp->planned) {
		/* Planning tells each action as planned; applying tells it again, done. */
		struct hexoid_repair_options quiet = o;
		quiet.on_action = NULL;
		if ((ret = hexoid_repair_plan(rp, &quiet, err, errlen)))
			return ret;
	}
	rp->o = &o;
	rp->stopped = 0;
	rp->count.done = rp->count.shown = rp->count.locked = rp->count.changed = rp->count.failed = 0;
	/* Nothing to do: done, unless a killed repair's journal is there to take back. */
	if (!o.dry_run && !rp->n) {
		char *jp = hexoid_join(hexoid_audit_gitdir(rp->audit), "hexoid-repair.journal");
		struct stat st;
		int none = !jp || lstat(jp, &st) != 0;
		free(jp);
		if (none)
			o.dry_run = 1;
	}
	if (o.dry_run) {
		for (i = 0; i < rp->n && !rp->stopped; i++)
			tell_planned(rp, &rp->v[i]);
		rp->o = NULL;
		return rp->stopped ? 1 : 0;
	}
	read_settings(&rp->set, hexoid_audit_gitdir(rp->audit));
	if (hexoid_repair_journal_open(&j, hexoid_audit_gitdir(rp->audit), o.on_step, o.ctx,
				       &rp->count.recovered, err, errlen)) {
		hexoid_repair_journal_close(&j);
		rp->o = NULL;
		return -1;
	}
	for (i = 0; i < rp->n && !rp->stopped && !j.stopped; i++) {
		struct action *a = &rp->v[i];
		if (a->kind == HEXOID_REPAIR_SHOW) {
			tell(rp, a, HEXOID_REPAIR_SHOWN, NULL, (unsigned long)a->n, NULL);
			rp->count.shown++;
		} else if (a->kind == HEXOID_REPAIR_RENAME) {
			do_rename(rp, &j, a);
		} else if (a->kind == HEXOID_REPAIR_REWRITE && a->area == HEXOID_AREA_NOTES) {
			do_notes(rp, &j, a, &o);
		} else if (a->kind == HEXOID_REPAIR_REWRITE) {
			if (a->note) {
				tell(rp, a, HEXOID_REPAIR_FAILED, NULL, 0, a->note);
				rp->count.failed++;
			}
		} else {
			do_lowercase(rp, &j, a);
		}
	}
	if (rp->rw && rp->rplan->nrefs && !rp->rplan->nsigned && !rp->stopped && !j.stopped) {
		do_rewrite(rp, &j, &o);
	} else if (o.rewrite_history && rp->mapped_loose && !rp->stopped && !j.stopped) {
		/* An earlier rewrite's map, its cleanup not finished (killed after the refs
		 * moved). */
		char why[512];
		if (cleanup_rewrite(rp, &j, why, sizeof(why)))
			rp->count.failed++;
	}
	if (j.stopped)
		rp->stopped = 1;
	hexoid_repair_journal_close(&j);
	rp->o = NULL;
	if (rp->stopped)
		return 1;
	return rp->count.locked || rp->count.changed || rp->count.failed ? 2 : 0;
}

void hexoid_repair_summary(const struct hexoid_repair *rp, struct hexoid_repair_count *count)
{
	*count = rp->count;
}

void hexoid_repair_close(struct hexoid_repair *rp)
{
	if (!rp)
		return;
	clear_plan(rp);
	hexoid_audit_close(rp->audit);
	free(rp);
}
