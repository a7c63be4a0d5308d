/*
 * The push gate's API (include/hexoid_gate.h): options, updates, and the run in order —
 * the pushed objects scanned in a thread while git walks the refs, then the tags of each
 * ref, the scan's findings named by the refs that reach them, the report, the verdict.
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate/gate.h"
#include "util/options.h"
#include "util/str.h"

/* The reason for a -1 or NULL, into the caller's buffer. */
static void say(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
}

int hexoid_gate_options_init(struct hexoid_gate_options *o, size_t size)
{
	/* The first version is this one: hexoid_gate_new() reads it all. */
	return hexoid_options_init(o, size, sizeof(*o), offsetof(struct hexoid_gate_options, jobs));
}

struct gate_rec *hexoid_gate_rec_add(struct gate_recs *r)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		struct gate_rec *v = realloc(r->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		r->v = v;
		r->cap = cap;
	}
	memset(&r->v[r->n], 0, sizeof(r->v[0]));
	r->v[r->n].offset = HEXOID_NO_OFFSET;
	return &r->v[r->n++];
}

int hexoid_gate_is_zero(const struct hexoid_gate *g, const char *hex)
{
	return strspn(hex, "0") == g->hexsz;
}

static int copy(char **dst, const char *src)
{
	return src && !(*dst = strdup(src)) ? -1 : 0;
}

/*
 * The git to run when the caller names none: the one that runs the hook. git sets
 * GIT_EXEC_PATH for its hooks, and that folder holds the git it runs as; an older git
 * first on PATH may not read the repository (a reftable one, say). Else git from PATH.
 * 0, or -1 when memory ran out.
 */
static int default_git(char **dst)
{
	const char *exec_path = getenv("GIT_EXEC_PATH");
	struct stat st;
	char *path;

	if (exec_path && *exec_path) {
		if (!(path = hexoid_join(exec_path, "git")))
			return -1;
		if (!stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK)) {
			*dst = path;
			return 0;
		}
		free(path);
	}
	return copy(dst, "git");
}

struct hexoid_gate *hexoid_gate_new(const struct hexoid_gate_options *options, char *err,
				    size_t errlen)
{
	struct hexoid_gate *g;
	pthread_condattr_t ca;
	size_t i, n = 0;

	if (!options || options->size < sizeof(struct hexoid_gate_options)) {
		say(err, errlen, "hexoid_gate_new: options without their size "
			"(hexoid_gate_options_init(&o, sizeof(o)) sets it)");
		return NULL;
	}
	if (options->algo && !hexoid_rawsz(options->algo)) {
		say(err, errlen, "hexoid_gate_new: unknown algo");
		return NULL;
	}
	if (!(g = calloc(1, sizeof(*g))))
		goto oom;
	memcpy(&g->opt, options, sizeof(g->opt));
	if (!g->opt.jobs)
		g->opt.jobs = 1;
	while (options->alternates && options->alternates[n])
		n++;
	if ((options->git ? copy(&g->git, options->git) : default_git(&g->git)) || copy(&g->git_dir, options->git_dir) ||
	    copy(&g->quarantine, options->quarantine && *options->quarantine ? options->quarantine : NULL) ||
	    !(g->alternates = calloc(n + 1, sizeof(*g->alternates))))
		goto oom_free;
	for (i = 0; i < n; i++)
		if (copy(&g->alternates[i], options->alternates[i]))
			goto oom_free;
	g->opt.git = g->git;
	g->opt.git_dir = g->git_dir;
	g->opt.quarantine = g->quarantine;
	g->opt.alternates = (const char *const *)g->alternates;
	if (options->algo) {
		g->algo = options->algo;
		g->hexsz = hexoid_hexsz(g->algo);
		g->rawsz = hexoid_rawsz(g->algo);
	}
	pthread_mutex_init(&g->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g->cond, &ca);
	pthread_condattr_destroy(&ca);
	return g;
oom_free:
	for (i = 0; g->alternates && i < n; i++)
		free(g->alternates[i]);
	free(g->alternates);
	free(g->git);
	free(g->git_dir);
	free(g->quarantine);
	free(g);
oom:
	say(err, errlen, "hexoid_gate_new: out of memory");
	return NULL;
}

/* Lowercase hex of the gate's hash (which the first ID fixes when it is not known). */
static int is_id(struct hexoid_gate *g, const char *s)
{
	size_t len = strlen(s);
	enum hexoid_algo algo = len == 40 ? HEXOID_SHA1 : len == 64 ? HEXOID_SHA256 : 0;

	if (!algo || hexoid_decode(NULL, s, 1, len, algo, HEXOID_LOWER, NULL) != HEXOID_OK)
		return 0;
	if (!g->algo) {
		g->algo = algo;
		g->hexsz = len;
		g->rawsz = hexoid_rawsz(algo);
	}
	return g->algo == algo;
}

int hexoid_gate_add_update(struct hexoid_gate *g, const char *old_oid, const char *new_oid,
			   const char *ref, char *err, size_t errlen)
{
	struct gate_update *u;

	if (!g || !old_oid || !new_oid || !ref) {
		say(err, errlen, "hexoid_gate_add_update: bad arguments");
		return -1;
	}
	if (!is_id(g, old_oid) || !is_id(g, new_oid) || !*ref) {
		say(err, errlen, "expected <old> <new> <ref> with 40 or 64 lowercase hex digits");
		return -1;
	}
	if (!(g->nu & (g->nu - 1))) {
		u = realloc(g->u, (g->nu ? 2 * g->nu : 1) * sizeof(*u));
		if (!u)
			goto oom;
		g->u = u;
	}
	u = &g->u[g->nu];
	strcpy(u->old, old_oid);
	strcpy(u->new, new_oid);
	if (!(u->ref = strdup(ref)))
		goto oom;
	g->nu++;
	return 0;
oom:
	say(err, errlen, "out of memory");
	return -1;
}

size_t hexoid_gate_count_updates(const struct hexoid_gate *g)
{
	return g ? g->nu : 0;
}

static int by_value_cmp(const void *a, const void *b)
{
	const struct gate_by_value *x = a, *y = b;
	int c = memcmp(x->oid, y->oid, sizeof(x->oid));

	return c ? c : (x->ref > y->ref) - (x->ref < y->ref);
}

/* Sorted once, on first use: a push of 100,000 refs asks it for each finding. */
int hexoid_gate_ref_of_value(struct hexoid_gate *g, const unsigned char *oid)
{
	struct gate_by_value key;
	size_t lo = 0, hi;

	if (!g->by_value && g->nu) {
		if (!(g->by_value = calloc(g->nu, sizeof(*g->by_value)))) {
			hexoid_gate_oom(g);
			return -1;
		}
		for (size_t i = 0; i < g->nu; i++) {
			struct gate_by_value *v = &g->by_value[g->nby_value];
			if (!hexoid_gate_is_zero(g, g->u[i].new) &&
			    hexoid_decode(v->oid, g->u[i].new, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL) == HEXOID_OK) {
				v->ref = (int)i;
				g->nby_value++;
			}
		}
		qsort(g->by_value, g->nby_value, sizeof(*g->by_value), by_value_cmp);
	}
	memset(&key, 0, sizeof(key));
	memcpy(key.oid, oid, g->rawsz);
	key.ref = -1; /* before every entry of that value: the first one is found */
	hi = g->nby_value;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (by_value_cmp(&g->by_value[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->nby_value && !memcmp(g->by_value[lo].oid, key.oid, sizeof(key.oid))
		       ? g->by_value[lo].ref : -1;
}

/*
 * What each ref's new value is, all in one git cat-file --batch-check (100,000 refs asked
 * one by one cost a round trip each): a commit is walked unless it is a pushed one too
 * large to read, a blob or a tree is not walked, and a tag's chain (or a missing value)
 * goes through hexoid_gate_check_tags(), which reads and checks each tag. walk[i] says
 * whether update i is walked.
 */
static void peel(struct hexoid_gate *g, int *walk)
{
	char *argv[] = { "git", "cat-file", "--batch-check", "--buffer", NULL };
	struct hexoid_oidset ids = HEXOID_OIDSET_INIT;
	struct gate_feeder f = { g, NULL, &ids, NULL, 0, 0, 0 };
	unsigned long long *size = NULL;
	unsigned char *type = NULL;
	char line[256];
	size_t i, k;
	FILE *out;
	pid_t pid;

	for (i = 0; i < g->nu; i++) {
		unsigned char oid[HEXOID_MAX_RAWSZ];
		walk[i] = 1;
		if (!hexoid_gate_is_zero(g, g->u[i].new) &&
		    (hexoid_decode(oid, g->u[i].new, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL) != HEXOID_OK ||
		     hexoid_oidset_add(&ids, oid, g->rawsz)))
			goto oom;
	}
	/* Each value asked once (the sort keeps one of each): 100,000 refs moved to one
	 * commit are one question, not 100,000 (cat-file reads the object again for each
	 * line, a loose one opened each time through every objects folder). */
	hexoid_oidset_sort(&ids);
	if (ids.n && (!(size = calloc(ids.n, sizeof(*size))) || !(type = calloc(ids.n, 1))))
		goto oom;
	if (ids.n && (pid = hexoid_gate_start_fed(g, argv, &f, &out)) >= 0) {
		for (k = 0; k < ids.n && fgets(line, sizeof(line), out); k++) {
			char *sp = strchr(line, ' ');
			if (!sp)
				break;
			sp++;
			type[k] = !strncmp(sp, "commit ", 7) ? HEXOID_OBJ_COMMIT
				  : !strncmp(sp, "tag ", 4)  ? HEXOID_OBJ_TAG
				  : !strncmp(sp, "tree ", 5) ? HEXOID_OBJ_TREE
				  : !strncmp(sp, "blob ", 5) ? HEXOID_OBJ_BLOB
							     : 0;
			if (type[k])
				size[k] = strtoull(strchr(sp, ' ') + 1, NULL, 10);
		}
		if (hexoid_gate_end_fed(g, pid, &f, out, "git cat-file") != 0 || k != ids.n) {
			hexoid_gate_say(g, "git cat-file --batch-check: unexpected output or end");
			g->trouble = 1;
		}
	}
	for (i = 0; i < g->nu && !g->trouble; i++) {
		unsigned char oid[HEXOID_MAX_RAWSZ];
		if (hexoid_gate_is_zero(g, g->u[i].new))
			continue;
		hexoid_decode(oid, g->u[i].new, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL);
		k = hexoid_oidset_find(&ids, oid, g->rawsz);
		if (type[k] == HEXOID_OBJ_COMMIT)
			walk[i] = !(size[k] > HEXOID_TEXT_MAX && hexoid_gate_pushed(g, oid));
		else if (type[k] == HEXOID_OBJ_TREE || type[k] == HEXOID_OBJ_BLOB)
			walk[i] = 0;
		else
			hexoid_gate_check_tags(g, (int)i, g->u[i].new, &walk[i]);
	}
	goto out;
oom:
	hexoid_gate_oom(g);
out:
	free(size);
	free(type);
	hexoid_oidset_free(&ids);
}

/* The walks, the tags, the scan joined, and each pushed finding named by a ref. */
static void check(struct hexoid_gate *g)
{
	struct gate_scan ps = { g, 0, 0, 0, NULL, 0 };
	struct hexoid_oidset *walked;
	int *fresh, *walk, one;
	size_t nfresh = 0, i, k;

	/* The pushed objects are scanned in a thread while git walks the refs beside it. */
	if (g->quarantine) {
		hexoid_gate_scan_start(&ps);
		hexoid_gate_quarantine_load(g);
	}
	/* walked[i]: the pushed commits ref i reaches; walked[nu]: those the new refs do. */
	walked = calloc(g->nu + 1, sizeof(*walked));
	fresh = malloc((g->nu + 1) * sizeof(*fresh));
	walk = malloc((g->nu + 1) * sizeof(*walk));
	if (!walked || !fresh || !walk)
		hexoid_gate_oom(g);
	/*
	 * The tags each ref points at first, themselves, through cat-file's headers: a ref
	 * whose chain ends at no commit git can walk (a blob, a tree, an object too large to
	 * read) is not given to rev-list, which would read it whole (a tag onto a blob of
	 * 1.2 GiB: 1.2 GiB hashed; a pushed commit of 2 GiB of parent lines: 2.5 GB held).
	 */
	if (walk && !g->trouble && !g->q.blocking)
		peel(g, walk);
	/*
	 * Then the walks; rev-list peels tags itself. New refs have
	 * nothing to exclude: one walk covers them all. By default so does it every moved
	 * ref: --all leaves out what their old values reach (those are refs now), so the
	 * walk of them all together is exactly the union of each one's, and 100,000 moved
	 * refs cost one walk. With full_walk, each moved ref's walk leaves out its own old
	 * value only: one walk each.
	 */
	for (i = 0; walk && i < g->nu && !g->trouble && !g->q.blocking; i++) {
		if (hexoid_gate_is_zero(g, g->u[i].new) || !walk[i])
			continue; /* a deletion, or nothing to walk */
		if (hexoid_gate_is_zero(g, g->u[i].old) || !g->opt.full_walk) {
			fresh[nfresh++] = (int)i;
		} else {
			one = (int)i;
			hexoid_gate_walk(g, &one, 1, &walked[i]);
		}
	}
	if (nfresh && !g->trouble && !g->q.blocking)
		hexoid_gate_walk(g, fresh, nfresh, &walked[g->nu]);
	hexoid_gate_cat_stop(g);
	if (g->quarantine)
		hexoid_gate_scan_finish(&ps);

	/* A pushed commit's finding belongs to a ref whose walk reached it. */
	for (k = 0; walked && k < g->pushed.n; k++) {
		struct gate_rec *r = &g->pushed.v[k];
		if (!r->has_oid)
			continue;
		for (i = 0; g->opt.full_walk && i < g->nu && r->ref < 0; i++)
			if (hexoid_oidset_find(&walked[i], r->oid, g->rawsz) != (size_t)-1)
				r->ref = (int)i;
		if (r->ref < 0 && hexoid_oidset_find(&walked[g->nu], r->oid, g->rawsz) != (size_t)-1)
			r->ref = nfresh == 1 ? fresh[0] : GATE_REF_PENDING;
		/* A ref's new value itself, which the walk leaves out when an existing ref
		 * reaches it already (not options->full_walk). Not for one the walk of the
		 * new refs reached: git log --source names that one below. */
		if (r->ref == -1)
			r->ref = hexoid_gate_ref_of_value(g, r->oid);
	}
	if (nfresh > 1 && !g->trouble)
		hexoid_gate_name_pending(g, fresh, nfresh);
	for (i = 0; walked && i <= g->nu; i++)
		hexoid_oidset_free(&walked[i]);
	free(walked);
	free(fresh);
	free(walk);
}

int hexoid_gate_run(struct hexoid_gate *g, struct hexoid_gate_result *res, char *err,
		    size_t errlen)
{
	pthread_t timer;
	int timing;

	if (!g || !res) {
		say(err, errlen, "hexoid_gate_run: bad arguments");
		return -1;
	}
	memset(res, 0, sizeof(*res));
	res->verdict = HEXOID_GATE_UNCHECKED;
	if (g->ran) {
		say(err, errlen, "hexoid_gate_run: this gate has run already");
		return -1;
	}
	if (!g->algo) {
		say(err, errlen, "hexoid_gate_run: no hash: no updates, and options->algo is 0");
		return -1;
	}
	g->ran = 1;
	if (hexoid_gate_env(g)) {
		say(err, errlen, "hexoid_gate_run: out of memory");
		return -1;
	}
	if ((timing = hexoid_gate_timer_start(g, &timer)) < 0) {
		say(err, errlen, "hexoid_gate_run: cannot start a thread");
		return -1;
	}
	check(g);
	if (timing)
		hexoid_gate_timer_stop(g, timer);
	res->timed_out = g->timed_out;
	if (g->timed_out) {
		res->verdict = g->opt.time_limit_accepts || g->opt.report_only ? HEXOID_GATE_ACCEPT
									   : HEXOID_GATE_UNCHECKED;
		return 0;
	}
	if (!g->stopped && !hexoid_gate_cancelled(g))
		hexoid_gate_report(g, res);
	if (g->stopped || hexoid_gate_cancelled(g))
		return 1;
	res->complete = !g->trouble;
	if (g->trouble)
		res->verdict = g->opt.report_only ? HEXOID_GATE_ACCEPT : HEXOID_GATE_UNCHECKED;
	else
		res->verdict = res->rejecting ? HEXOID_GATE_REJECT : HEXOID_GATE_ACCEPT;
	return 0;
}

static void recs_free(struct gate_recs *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].path);
	free(r->v);
}

void hexoid_gate_free(struct hexoid_gate *g)
{
	if (!g)
		return;
	hexoid_gate_cat_stop(g);
	for (size_t i = 0; i < g->nu; i++)
		free(g->u[i].ref);
	free(g->u);
	recs_free(&g->walk);
	recs_free(&g->pushed);
	hexoid_gate_quarantine_free(&g->q);
	for (size_t i = 0; g->alternates && g->alternates[i]; i++)
		free(g->alternates[i]);
	free(g->alternates);
	for (size_t i = 0; g->env_set && g->env_set[i]; i++)
		free(g->env_set[i]);
	free(g->env_set);
	free(g->env);
	free(g->git);
	free(g->git_dir);
	free(g->quarantine);
	free(g->pids);
	free(g->by_value);
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
	free(g);
}
