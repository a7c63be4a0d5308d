/*
 * The pack scanner, tested from outside: packs and indexes built byte by byte
 * (pack_build.h), sharing nothing with the scanner, then damaged one way at a time.
 * Every finding is compared exactly: code, offset, ID, header, line and column, and a
 * piece of the message.
 * SPDX-License-Identifier: MIT
 */
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hexoid_idx.h"
#include "pack_build.h"
#include "test.h"

/* --- scanning a built pack ------------------------------------------------------- */

static size_t pk_trailer(const struct pk *p)
{
	return p->pack.n - p->rawsz;
}

/* Scan through hexoid_pack_scan_buffers(), from exact-size copies (ASan sees overreads). */
static int pk_scan_raw(const void *pack, size_t plen, const void *idx, size_t ilen,
		       unsigned jobs, size_t cache, int verify, struct got *g,
		       struct hexoid_scan_stats *st, char *err, size_t errlen)
{
	unsigned char *pc = malloc(plen ? plen : 1), *ic = malloc(ilen ? ilen : 1);
	struct hexoid_scan_options o;
	int rc;
	collect_options(&o, g, verify);
	o.jobs = jobs;
	o.cache_bytes = cache;
	if (plen)
		memcpy(pc, pack, plen);
	if (ilen)
		memcpy(ic, idx, ilen);
	rc = hexoid_pack_scan_buffers("test.pack", pc, plen, ic, ilen, &o, st, err, errlen);
	free(pc);
	free(ic);
	return rc;
}

static int pk_scan(const struct pk *p, unsigned jobs, size_t cache, int verify, struct got *g,
		   struct hexoid_scan_stats *st)
{
	char err[256] = "";
	int rc = pk_scan_raw(p->pack.p, p->pack.n, p->idx, p->idxlen, jobs, cache, verify, g, st,
			     err, sizeof(err));
	if (rc < 0)
		printf("    # scan failed: %s\n", err);
	return rc;
}

/* --- packs: clean ------------------------------------------------------------------- */

/* A small repository's worth: blobs, a tree, commits with parents, a tag, and deltas of
 * each kind against commits, a tag and a blob. */
struct repo {
	size_t c[6], t[2], blob, bdelta, tree;
	char hex[6][HEXOID_MAX_HEXSZ + 1];
};

static void build_repo(struct pk *p, struct repo *r, enum hexoid_algo algo)
{
	char tree[HEXOID_MAX_HEXSZ + 1], t[4][1024], tg[2][1024];
	const char *par[2] = { NULL, NULL };
	struct buf d = { 0 };
	static const char blob[] = "hello, world\nsecond line\nthird line of the blob\n";
	static const char blob2[] = "hello, world\nsecond line, changed\nthird line of the blob\n";
	static const char treebytes[] = "100644 f\0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

	pk_init(p, algo);
	hexid(tree, algo, 1);
	r->blob = pk_obj(p, HEXOID_OBJ_BLOB, blob, sizeof(blob) - 1);
	r->tree = pk_obj(p, HEXOID_OBJ_TREE, treebytes, sizeof(treebytes) - 1);
	commit_text(t[0], sizeof(t[0]), tree, NULL, "first");
	r->c[0] = pk_text(p, HEXOID_OBJ_COMMIT, t[0]);
	hexoid_encode(r->hex[0], hexoid_hexsz(algo), p->e[r->c[0]].oid, 1, algo);
	r->hex[0][hexoid_hexsz(algo)] = 0;
	par[0] = r->hex[0];
	commit_text(t[1], sizeof(t[1]), tree, par, "second");
	r->c[1] = pk_text(p, HEXOID_OBJ_COMMIT, t[1]);
	/* OFS delta of c1 */
	commit_text(t[2], sizeof(t[2]), tree, par, "third, as an offset delta");
	make_delta(&d, t[1], strlen(t[1]), t[2], strlen(t[2]));
	r->c[2] = pk_ofs(p, r->c[1], HEXOID_OBJ_COMMIT, t[2], strlen(t[2]), &d);
	d.n = 0;
	/* OFS delta of that delta: a chain of two */
	commit_text(t[3], sizeof(t[3]), tree, par, "fourth, a delta of a delta");
	make_delta(&d, t[2], strlen(t[2]), t[3], strlen(t[3]));
	r->c[3] = pk_ofs(p, r->c[2], HEXOID_OBJ_COMMIT, t[3], strlen(t[3]), &d);
	d.n = 0;
	/* REF delta of c0 */
	commit_text(t[2], sizeof(t[2]), tree, NULL, "fifth, a reference delta");
	make_delta(&d, t[0], strlen(t[0]), t[2], strlen(t[2]));
	r->c[4] = pk_ref(p, p->e[r->c[0]].oid, HEXOID_OBJ_COMMIT, t[2], strlen(t[2]), &d);
	d.n = 0;
	/* a tag, and a REF delta of it */
	tag_text(tg[0], sizeof(tg[0]), r->hex[0], "commit", "the tag");
	r->t[0] = pk_text(p, HEXOID_OBJ_TAG, tg[0]);
	tag_text(tg[1], sizeof(tg[1]), r->hex[0], "commit", "the other tag, a delta");
	make_delta(&d, tg[0], strlen(tg[0]), tg[1], strlen(tg[1]));
	r->t[1] = pk_ref(p, p->e[r->t[0]].oid, HEXOID_OBJ_TAG, tg[1], strlen(tg[1]), &d);
	d.n = 0;
	/* a blob delta: not inflated, not counted */
	make_delta(&d, blob, sizeof(blob) - 1, blob2, sizeof(blob2) - 1);
	r->bdelta = pk_ofs(p, r->blob, HEXOID_OBJ_BLOB, blob2, sizeof(blob2) - 1, &d);
	/* a commit after everything, plain */
	commit_text(t[3], sizeof(t[3]), tree, NULL, "last");
	r->c[5] = pk_text(p, HEXOID_OBJ_COMMIT, t[3]);
	bfree(&d);
	pk_finish(p);
}

TEST(pack_clean)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct pk p;
		struct repo r;
		build_repo(&p, &r, algo);
		for (unsigned jobs = 1; jobs <= 3; jobs++)
			for (int verify = 0; verify <= 1; verify++) {
				struct got g = { 0 };
				struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
				int rc = pk_scan(&p, jobs, 0, verify, &g, &st);
				CHECK(rc == 0 && g.n == 0, "algo %d jobs %u: clean pack: rc %d, %zu findings",
				      algo, jobs, rc, g.n);
				if (g.n)
					dump("clean", &g);
				/* Five commits and tags stored as deltas, for any jobs; each delta
				 * applied once with one thread (threads have caches of their own,
				 * so with several a base may be rebuilt). */
				CHECK(st.objects == p.n && st.commits == 6 && st.tags == 2 && st.deltas == 4 &&
					      (jobs == 1 ? st.applied == 4 : st.applied >= 4) &&
					      st.git3 == 0 && st.errors == 0 &&
					      st.inflated > 0,
				      "algo %d jobs %u: stats objects %llu commits %llu tags %llu deltas %llu",
				      algo, jobs, (unsigned long long)st.objects,
				      (unsigned long long)st.commits, (unsigned long long)st.tags,
				      (unsigned long long)st.deltas);
				got_free(&g);
			}
		/* The index says which hash; telling it the same works, the other does not. */
		{
			struct hexoid_scan_options o = { .size = sizeof(o), .algo = algo };
			char err[256] = "";
			int rc = hexoid_pack_scan_buffers("x.pack", p.pack.p, p.pack.n, p.idx, p.idxlen,
							  &o, NULL, err, sizeof(err));
			CHECK(rc == 0, "algo %d told: rc %d %s", algo, rc, err);
			o.algo = algo == HEXOID_SHA1 ? HEXOID_SHA256 : HEXOID_SHA1;
			rc = hexoid_pack_scan_buffers("x.pack", p.pack.p, p.pack.n, p.idx, p.idxlen, &o,
						      NULL, err, sizeof(err));
			CHECK(rc == -1 && err[0], "algo %d told the other: rc %d", algo, rc);
		}
		pk_free(&p);
	}
}

/* An empty pack and index are fine. */
TEST(pack_empty)
{
	struct pk p;
	struct got g = { 0 };
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	pk_init(&p, HEXOID_SHA1);
	pk_finish(&p);
	CHECK(pk_scan(&p, 2, 0, 1, &g, &st) == 0 && g.n == 0 && st.objects == 0, "empty pack");
	got_free(&g);
	pk_free(&p);
}

/* --- packs: uppercase IDs ----------------------------------------------------------- */

static void check_header_finding(const char *what, const struct got *g, size_t i,
				 const struct pk *p, size_t ent, enum hexoid_object_type type,
				 const char *header, unsigned line, unsigned column)
{
	const struct hexoid_finding *f = i < g->n ? &g->v[i].f : NULL;
	CHECK(f && f->code == HEXOID_CODE_UPPERCASE_ID && f->cls == HEXOID_CLASS_GIT3 && f->offset == p->e[ent].off &&
		      f->has_oid && !memcmp(f->oid, p->e[ent].oid, p->rawsz) && f->algo == p->algo &&
		      f->type == type && f->header && !strcmp(f->header, header) &&
		      f->line == line && f->column == column && strstr(f->message, "uppercase") &&
		      !strcmp(g->v[i].path, "test.pack"),
	      "%s: finding %zu: want uppercase %s %u:%u at %llu", what, i, header, line, column,
	      (unsigned long long)p->e[ent].off);
}

TEST(pack_uppercase)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct pk p;
		char tree[HEXOID_MAX_HEXSZ + 1], par[HEXOID_MAX_HEXSZ + 1], up[HEXOID_MAX_HEXSZ + 1];
		char uppar[HEXOID_MAX_HEXSZ + 1], t[8][1024];
		const char *ps[2] = { par, NULL }, *ups[2] = { uppar, NULL };
		struct buf d = { 0 };
		size_t e[8], atu, atp;
		struct got g = { 0 };
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;

		hexid(tree, algo, 11);
		hexid(par, algo, 12);
		strcpy(up, tree);
		atu = upper_at(up, 2);
		strcpy(uppar, par);
		atp = upper_at(uppar, 4);
		pk_init(&p, algo);
		/* plain: uppercase tree; uppercase parent; a tag with uppercase object */
		commit_text(t[0], sizeof(t[0]), up, ps, "plain, uppercase tree");
		e[0] = pk_text(&p, HEXOID_OBJ_COMMIT, t[0]);
		commit_text(t[1], sizeof(t[1]), tree, ups, "plain, uppercase parent");
		e[1] = pk_text(&p, HEXOID_OBJ_COMMIT, t[1]);
		tag_text(t[2], sizeof(t[2]), up, "commit", "plain tag");
		e[2] = pk_text(&p, HEXOID_OBJ_TAG, t[2]);
		/* OFS: clean base, delta result with uppercase tree; and an uppercase base whose
		 * delta makes it clean */
		commit_text(t[3], sizeof(t[3]), tree, ps, "clean base");
		e[3] = pk_text(&p, HEXOID_OBJ_COMMIT, t[3]);
		commit_text(t[4], sizeof(t[4]), up, ps, "ofs delta, uppercase tree");
		make_delta(&d, t[3], strlen(t[3]), t[4], strlen(t[4]));
		e[4] = pk_ofs(&p, e[3], HEXOID_OBJ_COMMIT, t[4], strlen(t[4]), &d);
		d.n = 0;
		commit_text(t[5], sizeof(t[5]), tree, ps, "ofs delta of an uppercase base, clean");
		make_delta(&d, t[0], strlen(t[0]), t[5], strlen(t[5]));
		e[5] = pk_ofs(&p, e[0], HEXOID_OBJ_COMMIT, t[5], strlen(t[5]), &d);
		d.n = 0;
		/* REF: uppercase parent from a clean base; tag with uppercase object */
		commit_text(t[6], sizeof(t[6]), tree, ups, "ref delta, uppercase parent");
		make_delta(&d, t[3], strlen(t[3]), t[6], strlen(t[6]));
		e[6] = pk_ref(&p, p.e[e[3]].oid, HEXOID_OBJ_COMMIT, t[6], strlen(t[6]), &d);
		d.n = 0;
		tag_text(t[7], sizeof(t[7]), up, "commit", "ref delta tag");
		{
			char clean[1024];
			tag_text(clean, sizeof(clean), tree, "commit", "plain clean tag");
			size_t ct = pk_text(&p, HEXOID_OBJ_TAG, clean);
			make_delta(&d, clean, strlen(clean), t[7], strlen(t[7]));
			e[7] = pk_ref(&p, p.e[ct].oid, HEXOID_OBJ_TAG, t[7], strlen(t[7]), &d);
		}
		bfree(&d);
		pk_finish(&p);

		for (unsigned jobs = 1; jobs <= 2; jobs++) {
			int rc = pk_scan(&p, jobs, 0, 1, &g, &st);
			CHECK(rc == 0 && g.n == 6, "algo %d jobs %u: rc %d, %zu findings (want 6)", algo,
			      jobs, rc, g.n);
			if (g.n != 6)
				dump("uppercase", &g);
			check_header_finding("plain tree", &g, 0, &p, e[0], HEXOID_OBJ_COMMIT, "tree", 1,
					     (unsigned)(6 + atu));
			check_header_finding("plain parent", &g, 1, &p, e[1], HEXOID_OBJ_COMMIT, "parent",
					     2, (unsigned)(8 + atp));
			check_header_finding("plain tag", &g, 2, &p, e[2], HEXOID_OBJ_TAG, "object", 1,
					     (unsigned)(8 + atu));
			check_header_finding("ofs tree", &g, 3, &p, e[4], HEXOID_OBJ_COMMIT, "tree", 1,
					     (unsigned)(6 + atu));
			check_header_finding("ref parent", &g, 4, &p, e[6], HEXOID_OBJ_COMMIT, "parent",
					     2, (unsigned)(8 + atp));
			check_header_finding("ref tag", &g, 5, &p, e[7], HEXOID_OBJ_TAG, "object", 1,
					     (unsigned)(8 + atu));
			CHECK(st.git3 == 6 && st.errors == 0 && st.commits == 6 && st.tags == 3 &&
				      (jobs == 1 ? st.deltas == 4 : st.deltas >= 4),
			      "algo %d: stats git3 %llu errors %llu commits %llu tags %llu deltas %llu",
			      algo, (unsigned long long)st.git3, (unsigned long long)st.errors,
			      (unsigned long long)st.commits, (unsigned long long)st.tags,
			      (unsigned long long)st.deltas);
			got_free(&g);
		}
		/* The callback's stop: scan returns 1, no call after it. */
		g.stop_at = 2;
		CHECK(pk_scan(&p, 1, 0, 0, &g, &st) == 1 && g.calls == 2, "stop: calls %zu", g.calls);
		got_free(&g);
		g.stop_at = 1;
		CHECK(pk_scan(&p, 3, 0, 0, &g, &st) == 1 && g.calls == 1, "stop jobs 3: calls %zu",
		      g.calls);
		got_free(&g);
		pk_free(&p);
	}
}

/* --- packs: long chains ------------------------------------------------------------- */

static void chain_case(enum hexoid_algo algo, unsigned depth, int ref, size_t pad, size_t cache,
		       unsigned jobs, int exact_deltas)
{
	struct pk p;
	size_t last;
	struct got g = { 0 };
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	int rc;

	build_chain(&p, algo, depth, ref, pad, &last);
	rc = pk_scan(&p, jobs, cache, 1, &g, &st);
	CHECK(rc == 0 && g.n == 1 && g.v[0].f.code == HEXOID_CODE_UPPERCASE_ID &&
		      g.v[0].f.offset == p.e[last].off && g.v[0].f.line == 1 && g.v[0].f.column == 6,
	      "chain algo %d depth %u ref %d pad %zu cache %zu jobs %u: rc %d, %zu findings", algo,
	      depth, ref, pad, cache, jobs, rc, g.n);
	if (g.n != 1)
		dump("chain", &g);
	CHECK(st.commits == depth + 1 && st.errors == 0 && st.git3 == 1,
	      "chain depth %u: commits %llu errors %llu", depth, (unsigned long long)st.commits,
	      (unsigned long long)st.errors);
	/* deltas: the commits stored as deltas, whatever the cache and jobs; applied: the
	 * work, once each when every base stays cached. */
	CHECK(st.deltas == depth, "chain depth %u cache %zu jobs %u: %llu deltas resolved", depth,
	      cache, jobs, (unsigned long long)st.deltas);
	if (exact_deltas)
		CHECK(st.applied == depth, "chain depth %u cache %zu: %llu delta applications", depth,
		      cache, (unsigned long long)st.applied);
	else
		CHECK(st.applied >= depth, "chain depth %u cache %zu: %llu delta applications", depth,
		      cache, (unsigned long long)st.applied);
	got_free(&g);
	pk_free(&p);
}

TEST(pack_delta_chain)
{
	/* 3000 deep; verify_ids proves each result right. Small commits fit a 1 KiB cache. */
	chain_case(HEXOID_SHA1, 3000, 0, 0, 1024, 1, 1);
	chain_case(HEXOID_SHA1, 3000, 0, 0, 0, 1, 1);
	chain_case(HEXOID_SHA256, 3000, 1, 0, 1024, 1, 0);
	chain_case(HEXOID_SHA256, 3000, 1, 0, 0, 2, 0);
	chain_case(HEXOID_SHA1, 3000, 1, 0, 1024, 3, 0);
	/* Commits bigger than the cache keeps: every one rebuilt from the bottom. */
	chain_case(HEXOID_SHA1, 200, 0, 600, 1024, 1, 0);
	chain_case(HEXOID_SHA1, 200, 1, 600, 1024, 2, 0);
	chain_case(HEXOID_SHA1, 200, 0, 600, 0, 1, 1);
}

/* --- packs: damage ------------------------------------------------------------------ */

/* A pack of one clean commit (entry 0) and whatever `add` puts after it. */
struct dmg {
	struct pk p;
	char base[1024];
	size_t blen;
	size_t bad; /* the damaged entry */
};

static void dmg_begin(struct dmg *m, enum hexoid_algo algo)
{
	char tree[HEXOID_MAX_HEXSZ + 1];
	hexid(tree, algo, 31);
	pk_init(&m->p, algo);
	commit_text(m->base, sizeof(m->base), tree, NULL, "base");
	m->blen = strlen(m->base);
	pk_text(&m->p, HEXOID_OBJ_COMMIT, m->base);
}

/* A delta of the base commit, with delta bytes as given. */
/*
 * The same damage through the command, when the runner names it (HEXOID): the pack and
 * index go to files, `hexoid verify-pack` must exit 1 (not 2, not a signal) and report
 * the object's offset with the same words. SHA-1 only: every case costs a process (and
 * under qemu, an emulator).
 */
static void cli_expect(const char *name, const struct pk *p, uint64_t off, const char *sub)
{
	const char *h = getenv("HEXOID");
	char dir[] = "/tmp/hexoid-pack-XXXXXX", path[64], cmd[1024], out[4096], want[64];
	size_t got = 0;
	FILE *f;
	int status;

	if (!h || !*h || p->algo != HEXOID_SHA1 || !mkdtemp(dir))
		return;
	snprintf(path, sizeof(path), "%s/x.pack", dir);
	f = fopen(path, "wb");
	CHECK(f && fwrite(p->pack.p, 1, p->pack.n, f) == p->pack.n && fclose(f) == 0, "%s: write pack", name);
	snprintf(path, sizeof(path), "%s/x.idx", dir);
	f = fopen(path, "wb");
	CHECK(f && fwrite(p->idx, 1, p->idxlen, f) == p->idxlen && fclose(f) == 0, "%s: write idx", name);
	snprintf(cmd, sizeof(cmd), "%s verify-pack -q %s/x.pack 2>&1", h, dir);
	f = popen(cmd, "r");
	CHECK(f != NULL, "%s: popen", name);
	if (!f)
		return;
	got = fread(out, 1, sizeof(out) - 1, f);
	out[got] = 0;
	status = pclose(f);
	snprintf(want, sizeof(want), "offset %llu: error: ", (unsigned long long)off);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1, "%s: command exit %d (want 1)", name,
	      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	CHECK(strstr(out, want) && (!sub || strstr(out, sub)), "%s: command output lacks '%s' and '%s': %.300s",
	      name, want, sub ? sub : "", out);
	snprintf(path, sizeof(path), "%s/x.pack", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/x.idx", dir);
	unlink(path);
	rmdir(dir);
}

static void dmg_delta(const char *what, enum hexoid_algo algo, int ref, const struct buf *d,
		      enum hexoid_code code, const char *sub)
{
	struct dmg m;
	struct got g = { 0 };
	char name[128];
	dmg_begin(&m, algo);
	m.bad = ref ? pk_ref(&m.p, m.p.e[0].oid, HEXOID_OBJ_COMMIT, NULL, 0, d)
		    : pk_ofs(&m.p, 0, HEXOID_OBJ_COMMIT, NULL, 0, d);
	pk_finish(&m.p);
	CHECK(pk_scan(&m.p, 1, 0, 0, &g, NULL) == 0, "%s: rc", what);
	snprintf(name, sizeof(name), "%s (algo %d, %s)", what, algo, ref ? "ref" : "ofs");
	const struct hexoid_finding *f = expect_one(name, &g, code, m.p.e[m.bad].off, sub);
	if (f)
		CHECK(f->cls == HEXOID_CLASS_ERROR && f->has_oid && !memcmp(f->oid, m.p.e[m.bad].oid, m.p.rawsz),
		      "%s: class %d, oid", name, (int)f->cls);
	cli_expect(name, &m.p, m.p.e[m.bad].off, sub);
	got_free(&g);
	pk_free(&m.p);
}

TEST(pack_bad_deltas)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++)
		for (int ref = 0; ref <= 1; ref++) {
			struct buf d = { 0 };
			char tree[HEXOID_MAX_HEXSZ + 1];
			size_t blen;
			hexid(tree, algo, 31);
			{
				char b[1024];
				commit_text(b, sizeof(b), tree, NULL, "base");
				blen = strlen(b);
			}
			/* copy out of the base's range */
			d_sizes(&d, blen, 10);
			d_copy(&d, (uint32_t)blen - 5, 10);
			dmg_delta("copy past the base", algo, ref, &d, HEXOID_CODE_DELTA, "copies 10 bytes");
			d.n = 0;
			/* copy with a 4-byte offset far away */
			d_sizes(&d, blen, 4);
			d_copy(&d, 0x12345678u, 4);
			dmg_delta("copy from far away", algo, ref, &d, HEXOID_CODE_DELTA, "copies");
			d.n = 0;
			/* copy more than the result's size */
			d_sizes(&d, blen, 4);
			d_copy(&d, 0, 8);
			dmg_delta("copy past the result", algo, ref, &d, HEXOID_CODE_DELTA, "copies");
			d.n = 0;
			/* insert past the end of the delta */
			d_sizes(&d, blen, 50);
			bbyte(&d, 50);
			bstr(&d, "only ten..");
			dmg_delta("insert past the delta", algo, ref, &d, HEXOID_CODE_DELTA,
				  "inserts 50 bytes past the end of the delta");
			d.n = 0;
			/* insert past the end of the result */
			d_sizes(&d, blen, 5);
			d_insert(&d, "0123456789", 10);
			dmg_delta("insert past the result", algo, ref, &d, HEXOID_CODE_DELTA,
				  "past the end of the result");
			d.n = 0;
			/* a commit built past HEXOID_TEXT_MAX: said from the delta's sizes,
			 * before any of it is built */
			d_sizes(&d, blen, HEXOID_TEXT_MAX + 1);
			d_copy(&d, 0, (uint32_t)blen);
			dmg_delta("a commit past the limit", algo, ref, &d, HEXOID_CODE_TOO_LARGE,
				  "commit of 67108865 bytes (or a delta base of one): more than the 64 MiB");
			d.n = 0;
			/* reserved opcode 0 */
			d_sizes(&d, blen, 4);
			d_insert(&d, "ab", 2);
			bbyte(&d, 0);
			d_insert(&d, "cd", 2);
			dmg_delta("opcode 0", algo, ref, &d, HEXOID_CODE_DELTA, "reserved instruction 0");
			d.n = 0;
			/* result size mismatch: says 100, makes 12 */
			d_sizes(&d, blen, 100);
			d_copy(&d, 0, 12);
			dmg_delta("result short", algo, ref, &d, HEXOID_CODE_DELTA,
				  "makes 12 bytes where it says 100");
			d.n = 0;
			/* base size mismatch */
			d_sizes(&d, blen + 1, 4);
			d_copy(&d, 0, 4);
			dmg_delta("base size", algo, ref, &d, HEXOID_CODE_DELTA, "expects a base of");
			d.n = 0;
			/* sizes cut short */
			bbyte(&d, 0x80 | (blen & 0x7f));
			dmg_delta("sizes cut", algo, ref, &d, HEXOID_CODE_DELTA, "cut short");
			d.n = 0;
			/* copy instruction missing its operand bytes */
			d_sizes(&d, blen, 4);
			bbyte(&d, 0x91);
			bbyte(&d, 0);
			dmg_delta("copy cut", algo, ref, &d, HEXOID_CODE_DELTA, "cut short");
			d.n = 0;
			/* an impossible result size: too big for the delta's bytes */
			d_sizes(&d, blen, (uint64_t)1 << 62);
			d_copy(&d, 0, 4);
			dmg_delta("huge result", algo, ref, &d, HEXOID_CODE_DELTA, "impossible");
			d.n = 0;
			/* an empty delta */
			dmg_delta("empty delta", algo, ref, &d, HEXOID_CODE_DELTA, "cut short");
			/* but a copy of size 0 means 0x10000, and a good delta is fine */
			bfree(&d);
		}
}

/* Damage at one object: scan and expect exactly one finding there. */
static void dmg_expect(const char *what, struct dmg *m, enum hexoid_code code,
		       const char *sub)
{
	struct got g = { 0 };
	char name[128];
	int rc = pk_scan(&m->p, 1, 0, 0, &g, NULL);
	snprintf(name, sizeof(name), "%s (algo %d)", what, m->p.algo);
	CHECK(rc == 0, "%s: rc %d", name, rc);
	const struct hexoid_finding *f = expect_one(name, &g, code, m->p.e[m->bad].off, sub);
	if (f)
		CHECK(f->cls == HEXOID_CLASS_ERROR, "%s: class", name);
	cli_expect(name, &m->p, m->p.e[m->bad].off, sub);
	got_free(&g);
	/* The same with two threads. */
	rc = pk_scan(&m->p, 2, 0, 0, &g, NULL);
	CHECK(rc == 0 && g.n == 1, "%s, 2 jobs: rc %d, %zu findings", name, rc, g.n);
	got_free(&g);
	pk_free(&m->p);
}

TEST(pack_bad_objects)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct dmg m;
		struct buf z = { 0 }, d = { 0 }, x = { 0 };
		unsigned char oid[HEXOID_MAX_RAWSZ];
		size_t rawsz = hexoid_rawsz(algo);

		/* REF base not in the pack */
		dmg_begin(&m, algo);
		memset(oid, 0x5a, sizeof(oid));
		d_sizes(&d, 4, 4);
		d_copy(&d, 0, 4);
		m.bad = pk_ref(&m.p, oid, HEXOID_OBJ_COMMIT, NULL, 0, &d);
		pk_finish(&m.p);
		dmg_expect("REF base missing", &m, HEXOID_CODE_DELTA_BASE, "5a5a5a5a is not in this pack");

		/* A commit past HEXOID_TEXT_MAX, with enough zlib bytes to make it: said from
		 * its header, never inflated (the bytes are no zlib stream at all). */
		dmg_begin(&m, algo);
		{
			static unsigned char junk[70000];
			m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, HEXOID_TEXT_MAX + 1, NULL, 0, junk,
				       sizeof(junk), NULL);
		}
		pk_finish(&m.p);
		dmg_expect("a commit past the limit", &m, HEXOID_CODE_TOO_LARGE,
			   "commit of 67108865 bytes (or a delta base of one): more than the 64 MiB");

		/* REF base that is itself */
		dmg_begin(&m, algo);
		{
			unsigned k = ++m.p.fakes;
			unsigned char self[HEXOID_MAX_RAWSZ];
			digest(algo, "fake", 4, &k, sizeof(k), self);
			m.p.fakes--; /* pk_bytes makes this very ID */
			m.bad = pk_ref(&m.p, self, HEXOID_OBJ_COMMIT, NULL, 0, &d);
			CHECK(!memcmp(m.p.e[m.bad].oid, self, rawsz), "self ID");
		}
		pk_finish(&m.p);
		dmg_expect("REF to itself", &m, HEXOID_CODE_DELTA_BASE, "loop");

		/* A REF cycle: A is a delta of B, B of A. */
		{
			struct got g = { 0 };
			unsigned char ida[HEXOID_MAX_RAWSZ], idb[HEXOID_MAX_RAWSZ];
			size_t a, b;
			dmg_begin(&m, algo);
			digest(algo, "A", 1, NULL, 0, ida);
			digest(algo, "B", 1, NULL, 0, idb);
			a = pk_ref(&m.p, idb, HEXOID_OBJ_COMMIT, NULL, 0, &d);
			memcpy(m.p.e[a].oid, ida, rawsz);
			b = pk_ref(&m.p, ida, HEXOID_OBJ_COMMIT, NULL, 0, &d);
			memcpy(m.p.e[b].oid, idb, rawsz);
			pk_finish(&m.p);
			CHECK(pk_scan(&m.p, 2, 0, 0, &g, NULL) == 0 && g.n >= 1 && g.n <= 2,
			      "cycle: %zu findings", g.n);
			for (size_t i = 0; i < g.n; i++)
				CHECK(g.v[i].f.code == HEXOID_CODE_DELTA_BASE && strstr(g.v[i].f.message, "loop") &&
					      (g.v[i].f.offset == m.p.e[a].off ||
					       g.v[i].f.offset == m.p.e[b].off),
				      "cycle: finding %zu", i);
			CHECK(g.n && g.v[0].f.offset == m.p.e[a].off, "cycle: first at A");
			got_free(&g);
			pk_free(&m.p);
		}

		/* OFS pointing inside the base commit */
		dmg_begin(&m, algo);
		put_ofs(&x, m.p.pack.n - 15);
		zdeflate(d.p, d.n, &z);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, d.n, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("OFS inside another object", &m, HEXOID_CODE_DELTA_BASE,
			   "delta base at offset 15 is not an object");
		x.n = 0;
		/* OFS before 12 (into the pack header) */
		dmg_begin(&m, algo);
		put_ofs(&x, m.p.pack.n - 4);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, d.n, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("OFS into the header", &m, HEXOID_CODE_DELTA_BASE, "offset 4 ");
		x.n = 0;
		/* OFS to 0 exactly, and further back than the start */
		dmg_begin(&m, algo);
		put_ofs(&x, m.p.pack.n);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, d.n, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("OFS to offset 0", &m, HEXOID_CODE_DELTA_BASE, NULL);
		x.n = 0;
		dmg_begin(&m, algo);
		put_ofs(&x, m.p.pack.n + 1000);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, d.n, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("OFS before the pack", &m, HEXOID_CODE_DELTA_BASE, "outside the pack");
		x.n = 0;
		/* OFS distance 0 */
		dmg_begin(&m, algo);
		bbyte(&x, 0);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, d.n, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("OFS distance 0", &m, HEXOID_CODE_DELTA_BASE, NULL);
		x.n = 0;
		/* OFS varint that never ends: 12 continuation bytes */
		dmg_begin(&m, algo);
		for (int i = 0; i < 12; i++)
			bbyte(&x, 0xff);
		bbyte(&x, 0x01);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, d.n, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("OFS varint too long", &m, HEXOID_CODE_OBJECT_HEADER, "too long");
		x.n = 0;
		bfree(&z);

		/* Object size varint too long: 12 continuation bytes */
		dmg_begin(&m, algo);
		bbyte(&x, 0x80 | (HEXOID_OBJ_COMMIT << 4));
		for (int i = 0; i < 11; i++)
			bbyte(&x, 0x80);
		bbyte(&x, 0x00);
		zdeflate("x", 1, &x);
		m.bad = pk_bytes(&m.p, x.p, x.n, NULL);
		pk_finish(&m.p);
		dmg_expect("size varint too long", &m, HEXOID_CODE_OBJECT_HEADER, "too long");
		x.n = 0;
		/* Size varint running into the next object */
		dmg_begin(&m, algo);
		bbyte(&x, 0x80 | (HEXOID_OBJ_BLOB << 4));
		bbyte(&x, 0x80);
		m.bad = pk_bytes(&m.p, x.p, x.n, NULL);
		pk_text(&m.p, HEXOID_OBJ_BLOB, "next");
		pk_finish(&m.p);
		dmg_expect("size varint cut", &m, HEXOID_CODE_OBJECT_HEADER, "runs past");
		x.n = 0;
		/* REF delta header cut short (not a whole ID before the next object) */
		dmg_begin(&m, algo);
		bbyte(&x, (HEXOID_OBJ_REF_DELTA << 4) | 4);
		bput(&x, "abcdef", 6);
		m.bad = pk_bytes(&m.p, x.p, x.n, NULL);
		pk_text(&m.p, HEXOID_OBJ_BLOB, "next");
		pk_finish(&m.p);
		dmg_expect("REF header cut", &m, HEXOID_CODE_OBJECT_HEADER, "runs past");
		x.n = 0;

		/* Unknown types 5 and 0 */
		for (unsigned type = 0; type <= 5; type += 5) {
			char sub[32];
			dmg_begin(&m, algo);
			z.n = 0;
			zdeflate("abc", 3, &z);
			m.bad = pk_put(&m.p, type, 3, NULL, 0, z.p, z.n, NULL);
			pk_finish(&m.p);
			snprintf(sub, sizeof(sub), "unknown object type %u", type);
			dmg_expect(sub, &m, HEXOID_CODE_OBJECT_HEADER, sub);
		}

		/* A huge size for a few packed bytes */
		dmg_begin(&m, algo);
		z.n = 0;
		zdeflate("tree x\n", 7, &z);
		m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, (uint64_t)1 << 40, NULL, 0, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("huge size", &m, HEXOID_CODE_OBJECT_HEADER, "1099511627776 bytes claimed");
		/* ... for a delta too */
		dmg_begin(&m, algo);
		x.n = 0;
		put_ofs(&x, m.p.pack.n - m.p.e[0].off);
		m.bad = pk_put(&m.p, HEXOID_OBJ_OFS_DELTA, (uint64_t)1 << 40, x.p, x.n, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("huge delta size", &m, HEXOID_CODE_OBJECT_HEADER, "claimed");

		/* A truncated zlib stream: half of it, then the next object */
		{
			char big[2048];
			char tree[HEXOID_MAX_HEXSZ + 1];
			hexid(tree, algo, 41);
			commit_text(big, sizeof(big), tree, NULL, "a commit to cut");
			dmg_begin(&m, algo);
			z.n = 0;
			zdeflate(big, strlen(big), &z);
			m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big), NULL, 0, z.p, z.n / 2, NULL);
			pk_text(&m.p, HEXOID_OBJ_BLOB, "next");
			pk_finish(&m.p);
			dmg_expect("truncated zlib", &m, HEXOID_CODE_ZLIB, "truncated");
			/* ... and as the last object of the pack */
			dmg_begin(&m, algo);
			m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big), NULL, 0, z.p, z.n - 6, NULL);
			pk_finish(&m.p);
			dmg_expect("truncated zlib at the end", &m, HEXOID_CODE_ZLIB, "truncated");
			/* bytes after the stream, before the next object */
			dmg_begin(&m, algo);
			bput(&z, "JUNK", 4);
			m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big), NULL, 0, z.p, z.n, NULL);
			pk_text(&m.p, HEXOID_OBJ_BLOB, "next");
			pk_finish(&m.p);
			dmg_expect("junk after zlib", &m, HEXOID_CODE_ZLIB, "ends 4 bytes before");
			/* size header smaller than the content */
			dmg_begin(&m, algo);
			z.n = 0;
			zdeflate(big, strlen(big), &z);
			m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big) - 3, NULL, 0, z.p, z.n, NULL);
			pk_finish(&m.p);
			dmg_expect("size too small", &m, HEXOID_CODE_ZLIB, "more than");
			/* not zlib at all */
			dmg_begin(&m, algo);
			m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, 20, NULL, 0, "this is not zlib data", 21, NULL);
			pk_finish(&m.p);
			dmg_expect("not zlib", &m, HEXOID_CODE_ZLIB, "zlib");
			/* a delta whose base commit is broken: found at both */
			{
				struct got g = { 0 };
				size_t base;
				dmg_begin(&m, algo);
				z.n = 0;
				zdeflate(big, strlen(big), &z);
				base = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big), NULL, 0, z.p, z.n / 2, NULL);
				d.n = 0;
				d_sizes(&d, strlen(big), 4);
				d_copy(&d, 0, 4);
				m.bad = pk_ofs(&m.p, base, HEXOID_OBJ_COMMIT, NULL, 0, &d);
				pk_finish(&m.p);
				CHECK(pk_scan(&m.p, 1, 0, 0, &g, NULL) == 0 && g.n == 2 &&
					      g.v[0].f.code == HEXOID_CODE_ZLIB &&
					      g.v[0].f.offset == m.p.e[base].off &&
					      g.v[1].f.code == HEXOID_CODE_ZLIB &&
					      g.v[1].f.offset == m.p.e[m.bad].off &&
					      strstr(g.v[1].f.message, "delta base at offset"),
				      "broken base: %zu findings", g.n);
				if (g.n != 2)
					dump("broken base", &g);
				got_free(&g);
				pk_free(&m.p);
			}
		}
		bfree(&z);
		bfree(&d);
		bfree(&x);
	}
}

/*
 * A zlib failure that comes only once all of an object's bytes are used is damage, not
 * success: a stream that ends short of the header's size, a zlib error at the very end
 * of the input (the Adler-32 check), or an object with no data bytes at all. None of
 * these objects may be checked as if whole (its buffer's tail would never have been
 * written) or counted in stats.commits.
 * Inputs (each a pack of one clean commit, then the damaged commit):
 *   a. commit header size = content length + 10, a complete zlib stream of the content;
 *   b. a complete zlib stream of the commit with its last byte (Adler-32) flipped;
 *   c. a commit header claiming 10 bytes and no zlib bytes at all before the next object.
 * Expected: one HEXOID_CODE_ZLIB finding at the damaged object ("inflates to N bytes
 * where the header says M", "incorrect data check", "truncated").
 */
TEST(pack_zlib_failure_at_end_of_input)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct dmg m;
		struct buf z = { 0 };
		char big[2048], tree[HEXOID_MAX_HEXSZ + 1];
		hexid(tree, algo, 51);
		commit_text(big, sizeof(big), tree, NULL, "a commit");

		dmg_begin(&m, algo);
		zdeflate(big, strlen(big), &z);
		m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big) + 10, NULL, 0, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("a. size header bigger than the content", &m, HEXOID_CODE_ZLIB,
			   "where the header says");

		dmg_begin(&m, algo);
		z.p[z.n - 1] ^= 0x55;
		m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, strlen(big), NULL, 0, z.p, z.n, NULL);
		pk_finish(&m.p);
		dmg_expect("b. Adler-32 wrong", &m, HEXOID_CODE_ZLIB, NULL);

		dmg_begin(&m, algo);
		m.bad = pk_put(&m.p, HEXOID_OBJ_COMMIT, 10, NULL, 0, NULL, 0, NULL);
		pk_text(&m.p, HEXOID_OBJ_BLOB, "next");
		pk_finish(&m.p);
		dmg_expect("c. no zlib bytes at all", &m, HEXOID_CODE_ZLIB, NULL);
		bfree(&z);
	}
}

/* The pack as a whole: checksums, count, CRC, the index's ID order, truncation. */
TEST(pack_damage_level)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct pk p;
		struct repo r;
		struct got g = { 0 };
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		char err[256];
		unsigned char *save;
		size_t rawsz = hexoid_rawsz(algo);
		uint64_t trailer;

		build_repo(&p, &r, algo);
		trailer = pk_trailer(&p);
		save = malloc(p.pack.n + p.idxlen);
		memcpy(save, p.pack.p, p.pack.n);
		memcpy(save + p.pack.n, p.idx, p.idxlen);

		/* CRC mismatch of one object in the index */
		{
			size_t at = 8 + 1024 + p.n * rawsz + 4 * p.e[r.c[2]].pos;
			p.idx[at + 3] ^= 1;
			pk_seal_idx(&p);
			CHECK(pk_scan(&p, 1, 0, 0, &g, &st) == 0, "crc: rc");
			const struct hexoid_finding *f =
				expect_one("crc", &g, HEXOID_CODE_CRC32_MISMATCH, p.e[r.c[2]].off, "crc32 mismatch");
			if (f)
				CHECK(f->has_oid && !memcmp(f->oid, p.e[r.c[2]].oid, rawsz) && f->cls == HEXOID_CLASS_ERROR,
				      "crc: oid");
			CHECK(st.errors == 1 && st.git3 == 0 && st.commits == 6, "crc: stats");
			got_free(&g);
			memcpy(p.idx, save + p.pack.n, p.idxlen);
		}
		/* The pack's trailer wrong: it neither hashes nor matches the index */
		p.pack.p[trailer] ^= 0x80;
		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0 && g.n == 2 &&
			      g.v[0].f.code == HEXOID_CODE_CHECKSUM_MISMATCH && g.v[0].f.offset == trailer &&
			      g.v[1].f.code == HEXOID_CODE_CHECKSUM_MISMATCH && g.v[1].f.offset == trailer &&
			      strstr(g.v[1].f.message, "do not hash"),
		      "trailer: %zu findings", g.n);
		if (g.n != 2)
			dump("trailer", &g);
		got_free(&g);
		memcpy(p.pack.p, save, p.pack.n);
		/* The index's own checksum wrong */
		p.idx[p.idxlen - 1] ^= 1;
		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0, "idx sum: rc");
		expect_one("idx checksum", &g, HEXOID_CODE_CHECKSUM_MISMATCH, HEXOID_NO_OFFSET, "index");
		got_free(&g);
		/* The same with jobs: both checksums are then taken in a thread of their own. */
		CHECK(pk_scan(&p, 2, 0, 0, &g, NULL) == 0, "idx sum, 2 jobs: rc");
		expect_one("idx checksum, 2 jobs", &g, HEXOID_CODE_CHECKSUM_MISMATCH, HEXOID_NO_OFFSET, "index");
		got_free(&g);
		memcpy(p.idx, save + p.pack.n, p.idxlen);
		/* The index's record of the pack checksum wrong (its own checksum right) */
		p.idx[p.idxlen - 2 * rawsz] ^= 1;
		pk_seal_idx(&p);
		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0, "idx pack sum: rc");
		expect_one("idx's pack checksum", &g, HEXOID_CODE_CHECKSUM_MISMATCH, trailer, "trailer");
		got_free(&g);
		memcpy(p.idx, save + p.pack.n, p.idxlen);
		/* A byte of a blob changed: the CRC and the pack's hash */
		p.pack.p[p.e[r.blob].off + 4] ^= 0x10;
		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0 && g.n == 2 &&
			      g.v[0].f.code == HEXOID_CODE_CRC32_MISMATCH && g.v[0].f.offset == p.e[r.blob].off &&
			      g.v[1].f.code == HEXOID_CODE_CHECKSUM_MISMATCH,
		      "blob byte: %zu findings", g.n);
		if (g.n != 2)
			dump("blob byte", &g);
		got_free(&g);
		memcpy(p.pack.p, save, p.pack.n);
		pk_free(&p);
		free(save);

		/* The header's object count wrong, the pack otherwise consistent */
		build_repo(&p, &r, algo);
		free(p.idx);
		p.pack.n -= p.rawsz; /* drop the trailer, and finish again with another count */
		pk_finish_count(&p, (uint32_t)p.n + 1);
		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0, "count: rc");
		{
			const struct hexoid_finding *f = expect_one("count", &g, HEXOID_CODE_PACK_LAYOUT, 8, NULL);
			if (f) {
				char want[64];
				snprintf(want, sizeof(want), "counts %zu objects, its index %zu", p.n + 1, p.n);
				CHECK(strstr(f->message, want) != NULL, "count message: %s", f->message);
			}
		}
		got_free(&g);

		/* Bad magic, bad version, too short: -1 with a message */
		p.pack.p[0] = 'J';
		CHECK(pk_scan_raw(p.pack.p, p.pack.n, p.idx, p.idxlen, 1, 0, 0, &g, NULL, err,
				  sizeof(err)) == -1 &&
			      strstr(err, "test.pack") && strstr(err, "PACK"),
		      "magic: %s", err);
		p.pack.p[0] = 'P';
		for (uint32_t v = 0; v < 5; v += 1) {
			int rc;
			p.pack.p[7] = (unsigned char)v;
			rc = pk_scan_raw(p.pack.p, p.pack.n, p.idx, p.idxlen, 1, 0, 0, &g, NULL, err,
					 sizeof(err));
			if (v == 2 || v == 3)
				CHECK(rc == 0, "version %u: rc %d", v, rc);
			else
				CHECK(rc == -1 && strstr(err, "version"), "version %u: rc %d %s", v, rc, err);
			got_free(&g);
		}
		p.pack.p[7] = 2;
		CHECK(pk_scan_raw(p.pack.p, 0, p.idx, p.idxlen, 1, 0, 0, &g, NULL, err, sizeof(err)) == -1,
		      "empty pack");
		CHECK(pk_scan_raw(p.pack.p, p.pack.n, p.idx, 100, 1, 0, 0, &g, NULL, err,
				  sizeof(err)) == -1 && strstr(err, "test.pack"),
		      "short index: %s", err);
		CHECK(g.n == 0, "no findings from failures");
		/* NULL arguments */
		{
			struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
			CHECK(hexoid_pack_scan_buffers("x", NULL, 10, p.idx, p.idxlen, &o, NULL, err,
						       sizeof(err)) == -1, "NULL pack");
			CHECK(hexoid_pack_scan_buffers("x", p.pack.p, p.pack.n, p.idx, p.idxlen, NULL,
						       NULL, err, sizeof(err)) == -1, "NULL options");
			CHECK(hexoid_pack_scan_buffers("x", p.pack.p, p.pack.n, p.idx, p.idxlen, &o,
						       NULL, NULL, 0) == 0, "NULL err");
		}
		pk_free(&p);

		/* Truncated at every length: -1 or findings, never a crash (ASan in
		 * check-sanitize), and never a clean result. Under an emulator every length
		 * through the first object's header, then every fifth. */
		build_repo(&p, &r, algo);
		for (size_t len = 0; len < p.pack.n; len += (test_emulated() && len > 32 + rawsz ? 5 : 1)) {
			struct hexoid_scan_stats s2 = HEXOID_SCAN_STATS_INIT;
			int rc = pk_scan_raw(p.pack.p, len, p.idx, p.idxlen, len % 3 + 1, 0, 0, &g, &s2,
					     err, sizeof(err));
			if (len < 12 + rawsz)
				CHECK(rc == -1, "truncated to %zu: rc %d", len, rc);
			else
				CHECK(rc == 0 && g.n >= 1, "truncated to %zu: rc %d, %zu findings", len, rc,
				      g.n);
			got_free(&g);
			if (test_failed())
				break;
		}
		/* ... and the index truncated at every length: -1 */
		for (size_t len = 0; len < p.idxlen; len += (len < 1100 && !test_emulated() ? 1 : 7)) {
			int rc = pk_scan_raw(p.pack.p, p.pack.n, p.idx, len, 1, 0, 0, &g, NULL, err,
					     sizeof(err));
			CHECK(rc == -1 && g.n == 0, "index truncated to %zu: rc %d", len, rc);
			got_free(&g);
			if (test_failed())
				break;
		}
		pk_free(&p);
	}
}

/* The index puts an object where there is none: outside the pack, two at one offset. */
TEST(pack_damage_offsets)
{
	struct pk p;
	struct repo r;
	struct got g = { 0 };
	build_repo(&p, &r, HEXOID_SHA1);
	/* c3's offset moved onto c2's: two objects at one offset */
	{
		size_t at = 8 + 1024 + p.n * (20 + 4) + 4 * p.e[r.c[3]].pos;
		put32(p.idx + at, (uint32_t)p.e[r.c[2]].off);
		pk_seal_idx(&p);
		CHECK(pk_scan(&p, 2, 0, 0, &g, NULL) == 0 && g.n >= 1, "two at one offset: %zu", g.n);
		int seen = 0;
		for (size_t i = 0; i < g.n; i++)
			seen |= g.v[i].f.code == HEXOID_CODE_PACK_LAYOUT && g.v[i].f.offset == p.e[r.c[2]].off &&
				strstr(g.v[i].f.message, "two objects");
		CHECK(seen, "two at one offset: the LAYOUT finding");
		if (!seen)
			dump("two at one", &g);
		got_free(&g);
		/* ... past the end of the pack */
		put32(p.idx + at, (uint32_t)p.pack.n + 100);
		pk_seal_idx(&p);
		CHECK(pk_scan(&p, 2, 0, 0, &g, NULL) == 0 && g.n >= 1, "outside: %zu", g.n);
		seen = 0;
		for (size_t i = 0; i < g.n; i++)
			seen |= g.v[i].f.code == HEXOID_CODE_PACK_LAYOUT && strstr(g.v[i].f.message, "outside");
		CHECK(seen, "outside: the LAYOUT finding");
		got_free(&g);
		/* ... inside the header */
		put32(p.idx + at, 3);
		pk_seal_idx(&p);
		CHECK(pk_scan(&p, 2, 0, 0, &g, NULL) == 0 && g.n >= 1, "in the header: %zu", g.n);
		got_free(&g);
	}
	pk_free(&p);
}

/* --- determinism -------------------------------------------------------------------- */

/* Many findings of every step: CRC (A), bases (B), headers, zlib, deltas (C), at
 * different objects, behind big blobs so that threads split the steps differently. */
static void build_many(struct pk *p, enum hexoid_algo algo, int crc_and_upper_same_object,
		       size_t *both)
{
	char tree[HEXOID_MAX_HEXSZ + 1], up[HEXOID_MAX_HEXSZ + 1], t[1024];
	struct buf d = { 0 }, z = { 0 };
	unsigned char *blob = malloc(300000);
	unsigned char missing[HEXOID_MAX_RAWSZ];
	size_t prev = 0, i;

	hexid(tree, algo, 61);
	strcpy(up, tree);
	upper_at(up, 0);
	pk_init(p, algo);
	/* incompressible blobs: most of the bytes at the start */
	for (i = 0; i < 300000; i++)
		blob[i] = (unsigned char)test_rand();
	pk_obj(p, HEXOID_OBJ_BLOB, blob, 150000);
	blob[0] ^= 1;
	pk_obj(p, HEXOID_OBJ_BLOB, blob, 300000);
	memset(missing, 0x77, sizeof(missing));
	for (i = 0; i < 60; i++) {
		char msg[32];
		snprintf(msg, sizeof(msg), "commit %zu", i);
		commit_text(t, sizeof(t), i % 3 == 0 ? up : tree, NULL, msg);
		switch (i % 6) {
		case 0: case 1: case 3:
			prev = pk_text(p, HEXOID_OBJ_COMMIT, t);
			break;
		case 2:
			/* a delta of the previous commit */
			d.n = 0;
			snprintf(msg, sizeof(msg), "delta %zu", i);
			commit_text(t, sizeof(t), up, NULL, msg);
			{
				char base[1024];
				snprintf(msg, sizeof(msg), "commit %zu", i - 1);
				commit_text(base, sizeof(base), tree, NULL, msg);
				make_delta(&d, base, strlen(base), t, strlen(t));
			}
			pk_ofs(p, prev, HEXOID_OBJ_COMMIT, t, strlen(t), &d);
			break;
		case 4:
			/* a missing REF base */
			d.n = 0;
			d_sizes(&d, 4, 4);
			d_copy(&d, 0, 4);
			missing[0] = (unsigned char)i;
			pk_ref(p, missing, HEXOID_OBJ_COMMIT, NULL, 0, &d);
			break;
		case 5:
			/* a truncated stream */
			z.n = 0;
			zdeflate(t, strlen(t), &z);
			pk_put(p, HEXOID_OBJ_COMMIT, strlen(t), NULL, 0, z.p, z.n / 2, NULL);
			break;
		}
	}
	pk_finish(p);
	/* CRC mismatches: on commits without other findings, or (to show the ordering
	 * problem) on commits with an uppercase tree too. */
	*both = SIZE_MAX;
	for (i = 2; i < p->n; i++) {
		size_t k = i - 2;
		int upper_plain = k % 3 == 0 && (k % 6 == 0 || k % 6 == 3);
		int clean_plain = k % 6 == 1;
		if (crc_and_upper_same_object ? upper_plain : clean_plain) {
			size_t at = 8 + 1024 + p->n * p->rawsz + 4 * p->e[i].pos;
			p->idx[at] ^= 0x40;
			if (*both == SIZE_MAX)
				*both = i;
		}
	}
	pk_seal_idx(p);
	bfree(&d);
	bfree(&z);
	free(blob);
}

static int same_findings(const struct got *a, const struct got *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++) {
		const struct hexoid_finding *x = &a->v[i].f, *y = &b->v[i].f;
		if (x->code != y->code || x->offset != y->offset || x->cls != y->cls ||
		    x->has_oid != y->has_oid || memcmp(x->oid, y->oid, sizeof(x->oid)) ||
		    x->line != y->line || x->column != y->column || x->type != y->type ||
		    (x->header == NULL) != (y->header == NULL) ||
		    (x->header && strcmp(x->header, y->header)) || strcmp(x->message, y->message))
			return 0;
	}
	return 1;
}

static void jobs_compare(int both_at_once)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct pk p;
		struct got ref = { 0 };
		struct hexoid_scan_stats st0 = HEXOID_SCAN_STATS_INIT;
		size_t both;
		static const unsigned jobs[] = { 2, 3, 8 };

		build_many(&p, algo, both_at_once, &both);
		CHECK(pk_scan(&p, 1, 0, 1, &ref, &st0) == 0 && ref.n >= 60, "jobs 1: %zu findings",
		      ref.n);
		for (size_t i = 1; i < ref.n; i++)
			CHECK(ref.v[i - 1].f.offset <= ref.v[i].f.offset ||
				      ref.v[i].f.offset == HEXOID_NO_OFFSET,
			      "findings out of offset order at %zu", i);
		for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
			for (size_t cache = 0; cache <= 1024; cache += 1024) {
				struct got g = { 0 };
				struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
				int rc = pk_scan(&p, jobs[k], cache, 1, &g, &st);
				int same = same_findings(&ref, &g);
				CHECK(rc == 0 && same, "algo %d jobs %u cache %zu: %zu findings, %s", algo,
				      jobs[k], cache, g.n, same ? "same" : "different from jobs 1");
				if (!same) {
					for (size_t i = 0; i < g.n && i < ref.n; i++)
						if (g.v[i].f.code != ref.v[i].f.code ||
						    g.v[i].f.offset != ref.v[i].f.offset) {
							printf("    # first difference at %zu: jobs 1 has code %d at %llu, jobs %u code %d at %llu\n",
							       i, ref.v[i].f.code,
							       (unsigned long long)ref.v[i].f.offset, jobs[k],
							       g.v[i].f.code,
							       (unsigned long long)g.v[i].f.offset);
							break;
						}
				}
				CHECK(st.git3 == st0.git3 && st.errors == st0.errors &&
					      st.commits == st0.commits && st.objects == st0.objects,
				      "jobs %u: stats differ", jobs[k]);
				got_free(&g);
			}
		}
		got_free(&ref);
		pk_free(&p);
	}
}

TEST(pack_jobs_same_findings)
{
	jobs_compare(0);
}

/*
 * Two findings at one offset come out in the same order whatever the number of jobs.
 * Step A (CRC) and step C (header check) split the objects between workers differently
 * (by bytes, by commits), so the two findings of one object can come from different
 * workers.
 * Input: a commit with both a CRC mismatch and an uppercase tree, placed after 450 KB of
 * blobs (with jobs = 2 its CRC is checked by worker 1, its header by worker 0), scanned
 * with jobs = 1, 2, 3 and 8.
 * Expected (hexoid_pack.h: "in a fixed order ... whatever the number of threads"): the
 * same sequence as jobs = 1 (CRC, then uppercase, at that offset).
 */
TEST(pack_jobs_order_at_one_offset)
{
	jobs_compare(1);
}

/* --- verify_ids ---------------------------------------------------------------------- */

TEST(pack_verify_ids)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct pk p;
		char tree[HEXOID_MAX_HEXSZ + 1], t[1024], t2[1024], hex[HEXOID_MAX_HEXSZ + 1];
		unsigned char right[HEXOID_MAX_RAWSZ];
		struct buf z = { 0 }, d = { 0 };
		struct got g = { 0 };
		size_t good, bad, dbad, blob;

		hexid(tree, algo, 71);
		pk_init(&p, algo);
		commit_text(t, sizeof(t), tree, NULL, "right ID");
		good = pk_text(&p, HEXOID_OBJ_COMMIT, t);
		/* stored content differs from what its ID hashes */
		commit_text(t2, sizeof(t2), tree, NULL, "wrong ID");
		oid_of(algo, HEXOID_OBJ_COMMIT, t2, strlen(t2), right);
		zdeflate(t2, strlen(t2), &z);
		{
			unsigned char wrong[HEXOID_MAX_RAWSZ];
			oid_of(algo, HEXOID_OBJ_COMMIT, "x", 1, wrong);
			bad = pk_put(&p, HEXOID_OBJ_COMMIT, strlen(t2), NULL, 0, z.p, z.n, wrong);
		}
		/* a delta whose ID is that of its base */
		commit_text(t2, sizeof(t2), tree, NULL, "delta with its base's ID");
		make_delta(&d, t, strlen(t), t2, strlen(t2));
		{
			unsigned char w2[HEXOID_MAX_RAWSZ];
			oid_of(algo, HEXOID_OBJ_TAG, t2, strlen(t2), w2); /* right bytes, wrong type */
			z.n = 0;
			zdeflate(d.p, d.n, &z);
			struct buf ofs = { 0 };
			put_ofs(&ofs, p.pack.n - p.e[good].off);
			dbad = pk_put(&p, HEXOID_OBJ_OFS_DELTA, d.n, ofs.p, ofs.n, z.p, z.n, w2);
			bfree(&ofs);
		}
		/* blobs are not rehashed */
		z.n = 0;
		zdeflate("blob", 4, &z);
		blob = pk_put(&p, HEXOID_OBJ_BLOB, 4, NULL, 0, z.p, z.n, NULL);
		(void)blob;
		pk_finish(&p);

		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0 && g.n == 0, "without verify: %zu", g.n);
		got_free(&g);
		for (unsigned jobs = 1; jobs <= 2; jobs++) {
			CHECK(pk_scan(&p, jobs, 0, 1, &g, NULL) == 0 && g.n == 2, "verify: %zu findings", g.n);
			if (g.n != 2)
				dump("verify", &g);
			hexoid_encode(hex, hexoid_hexsz(algo), right, 1, algo);
			hex[hexoid_hexsz(algo)] = 0;
			CHECK(g.n >= 1 && g.v[0].f.code == HEXOID_CODE_ID_MISMATCH &&
				      g.v[0].f.offset == p.e[bad].off && g.v[0].f.has_oid &&
				      !memcmp(g.v[0].f.oid, p.e[bad].oid, p.rawsz) &&
				      g.v[0].f.type == HEXOID_OBJ_COMMIT && g.v[0].f.cls == HEXOID_CLASS_ERROR &&
				      strstr(g.v[0].f.message, hex),
			      "verify: the stored commit (%s)", g.n ? g.v[0].f.message : "");
			CHECK(g.n >= 2 && g.v[1].f.code == HEXOID_CODE_ID_MISMATCH &&
				      g.v[1].f.offset == p.e[dbad].off,
			      "verify: the delta");
			got_free(&g);
		}
		bfree(&z);
		bfree(&d);
		pk_free(&p);
	}
}

/* --- a version 1 index ---------------------------------------------------------------- */

/* Replace p's index with a version 1 index of the same pack: no CRC32s. */
static void pk_index_v1(struct pk *p)
{
	size_t n = p->n, rawsz = p->rawsz, i;
	size_t *order = pk_id_order(p);
	unsigned char *q;

	free(p->idx);
	p->idxlen = 1024 + n * (4 + rawsz) + 2 * rawsz;
	p->idx = calloc(1, p->idxlen);
	q = p->idx;
	pk_fanout(q, p, order);
	q += 1024;
	for (i = 0; i < n; i++, q += 4 + rawsz) {
		put32(q, (uint32_t)p->e[order[i]].off);
		memcpy(q + 4, p->e[order[i]].oid, rawsz);
	}
	memcpy(q, p->pack.p + pk_trailer(p), rawsz);
	pk_seal_idx(p);
	free(order);
}

TEST(pack_index_v1)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		struct pk p;
		struct repo r;
		struct got g = { 0 };
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		build_repo(&p, &r, algo);
		pk_index_v1(&p);
		CHECK(pk_scan(&p, 2, 0, 1, &g, &st) == 0 && g.n == 0 && st.commits == 6 && st.tags == 2,
		      "v1 index, algo %d: %zu findings", algo, g.n);
		if (g.n)
			dump("v1", &g);
		got_free(&g);
		/* damage still found without CRCs: a blob byte changes the pack's hash only */
		p.pack.p[p.e[r.blob].off + 4] ^= 0x10;
		CHECK(pk_scan(&p, 1, 0, 0, &g, NULL) == 0 && g.n == 1 &&
			      g.v[0].f.code == HEXOID_CODE_CHECKSUM_MISMATCH,
		      "v1 index, damaged blob: %zu findings", g.n);
		got_free(&g);
		pk_free(&p);
	}
}

/* --- progress and files -------------------------------------------------------------- */

struct prog {
	uint64_t calls, last_done, total;
	int bad;
};

static struct prog progress_seen;
static int on_progress2(void *ctx, uint64_t done, uint64_t total)
{
	(void)ctx;
	progress_seen.calls++;
	if (done > total || done < progress_seen.last_done)
		progress_seen.bad = 1;
	progress_seen.last_done = done;
	progress_seen.total = total;
	return 0;
}

TEST(pack_progress_and_files)
{
	struct pk p;
	size_t last;
	char dir[] = "/tmp/hexoid-pack-XXXXXX", path[256], err[256];
	struct hexoid_scan_options o;
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	struct got g = { 0 };
	FILE *f;

	build_chain(&p, HEXOID_SHA1, 5000, 0, 0, &last);
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.on_progress = on_progress2;
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		memset(&progress_seen, 0, sizeof(progress_seen));
		o.jobs = jobs;
		CHECK(hexoid_pack_scan_buffers("p", p.pack.p, p.pack.n, p.idx, p.idxlen, &o, &st, err,
					       sizeof(err)) == 0, "progress jobs %u", jobs);
		if (jobs == 1)
			CHECK(progress_seen.calls >= 1 && progress_seen.total == 5001 &&
				      progress_seen.last_done == 5001,
			      "progress: %llu calls, last %llu of %llu", (unsigned long long)progress_seen.calls,
			      (unsigned long long)progress_seen.last_done,
			      (unsigned long long)progress_seen.total);
		CHECK(!progress_seen.bad, "progress went backwards or past the total");
	}

	/* The same through files: by the .pack name and by the .idx name. */
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(path, sizeof(path), "%s/pack-x.pack", dir);
	f = fopen(path, "wb");
	fwrite(p.pack.p, 1, p.pack.n, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/pack-x.idx", dir);
	f = fopen(path, "wb");
	fwrite(p.idx, 1, p.idxlen, f);
	fclose(f);
	o.on_progress = NULL;
	o.on_finding = collect;
	o.ctx = &g;
	CHECK(hexoid_pack_scan(path, &o, &st, err, sizeof(err)) == 0 && g.n == 1 &&
		      strstr(g.v[0].path, "pack-x.pack") && g.v[0].f.offset == p.e[last].off,
	      "scan by .idx: %zu findings %s", g.n, g.n ? g.v[0].path : "");
	got_free(&g);
	snprintf(path, sizeof(path), "%s/pack-x.pack", dir);
	CHECK(hexoid_pack_scan(path, &o, &st, err, sizeof(err)) == 0 && g.n == 1 &&
		      st.commits == 5001,
	      "scan by .pack");
	got_free(&g);
	snprintf(path, sizeof(path), "%s/pack-y.pack", dir);
	CHECK(hexoid_pack_scan(path, &o, &st, err, sizeof(err)) == -1 && strstr(err, "pack-y"),
	      "missing file: %s", err);
	CHECK(hexoid_pack_scan(dir, &o, &st, err, sizeof(err)) == -1, "a folder");
	snprintf(path, sizeof(path), "%s/pack-x.idx", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/pack-x.pack", dir);
	unlink(path);
	rmdir(dir);
	pk_free(&p);
}

/* --- streaming and stopping ------------------------------------------------------------ */

/* A pack of n commits, each a small delta of the one before, every one with an uppercase
 * tree header (upper) or none (clean). */
static void build_many_commits(struct pk *p, enum hexoid_algo algo, unsigned n, int upper)
{
	char tree[HEXOID_MAX_HEXSZ + 1], prev[512], cur[512], msg[64];
	struct buf d = { 0 };
	size_t e = 0;

	hexid(tree, algo, 77);
	if (upper)
		tree[0] = 'A';
	pk_init(p, algo);
	for (unsigned i = 0; i < n; i++) {
		snprintf(msg, sizeof(msg), "commit number %u of many", i);
		commit_text(cur, sizeof(cur), tree, NULL, msg);
		if (i % 50 == 0) {
			e = pk_text(p, HEXOID_OBJ_COMMIT, cur);
		} else {
			d.n = 0;
			make_delta(&d, prev, strlen(prev), cur, strlen(cur));
			e = pk_ofs(p, e, HEXOID_OBJ_COMMIT, cur, strlen(cur), &d);
		}
		memcpy(prev, cur, sizeof(cur));
	}
	bfree(&d);
	pk_finish(p);
}

struct stopper {
	uint64_t findings, progress, stop_progress_at;
	uint64_t max_done;     /* what progress said was done, at most */
	int after_stop;        /* a callback came after one asked to stop */
	int stopped;
	uint64_t last_key;
	int out_of_order;
};

static int stop_finding(void *ctx, const struct hexoid_finding *f)
{
	struct stopper *s = ctx;
	if (s->stopped)
		s->after_stop = 1;
	if (f->offset < s->last_key)
		s->out_of_order = 1;
	s->last_key = f->offset;
	s->findings++;
	s->stopped = 1;
	return 1;
}

static int stop_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct stopper *s = ctx;
	(void)total;
	if (s->stopped)
		s->after_stop = 1;
	s->progress++;
	if (done > s->max_done)
		s->max_done = done;
	if (s->stop_progress_at && s->progress >= s->stop_progress_at) {
		s->stopped = 1;
		return 1;
	}
	return 0;
}

/*
 * A callback that asks to stop stops the scan at once, findings and progress alike.
 * Input: 60,000 commits, each with an uppercase tree; scans with 1, 2 and 3 threads whose
 * finding callback returns 1 at the first finding; then a clean pack of as many, whose
 * progress callback returns 1 at its first call.
 * Expected (hexoid_pack.h: findings reported as found, a window at a time; "a nonzero
 * return from any callback stops the scan promptly ... and the scan returns 1"): rc 1,
 * exactly one finding and no callback after it, the first commit's offset; far fewer
 * commits inflated than the pack holds (a few windows); the same for progress.
 */
TEST(pack_jobs_stop_streams)
{
	struct pk bad, clean;
	/* Under ThreadSanitizer (where 60000 took 130 s) 24000, and only what has threads
	 * to race: two and three streams. A stream reads 4096 commits a batch and TSan slows
	 * each unevenly, so there the first finding must stop the streams before the pack's
	 * end, not within its first quarter. */
	const unsigned n = TEST_TSAN ? 24000 : 60000;

	build_many_commits(&bad, HEXOID_SHA1, n, 1);
	build_many_commits(&clean, HEXOID_SHA1, n, 0);
	for (unsigned jobs = TEST_TSAN ? 2 : 1; jobs <= 3; jobs++) {
		struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		struct stopper s = { 0 };
		char err[256];
		int rc;

		o.jobs = jobs;
		o.on_finding = stop_finding;
		o.on_progress = stop_progress;
		o.ctx = &s;
		rc = hexoid_pack_scan_buffers("bad", bad.pack.p, bad.pack.n, bad.idx, bad.idxlen, &o, &st,
					      err, sizeof(err));
		CHECK(rc == 1 && s.findings == 1 && !s.after_stop && s.last_key == bad.e[0].off,
		      "jobs %u: stop at the first finding: rc %d, %llu findings, after stop %d, offset %llu",
		      jobs, rc, (unsigned long long)s.findings, s.after_stop, (unsigned long long)s.last_key);
		CHECK(st.commits < (TEST_TSAN ? n / 2 : n / 4) && st.git3 == 1,
		      "jobs %u: stopped at the first finding after %llu of %u commits (git3 %llu)", jobs,
		      (unsigned long long)st.commits, n, (unsigned long long)st.git3);

		memset(&s, 0, sizeof(s));
		s.stop_progress_at = 1;
		rc = hexoid_pack_scan_buffers("clean", clean.pack.p, clean.pack.n, clean.idx, clean.idxlen,
					      &o, &st, err, sizeof(err));
		CHECK(rc == 1 && s.progress == 1 && !s.after_stop && s.findings == 0,
		      "jobs %u: stop from progress: rc %d, %llu progress calls, after stop %d", jobs, rc,
		      (unsigned long long)s.progress, s.after_stop);
		CHECK(st.commits < n, "jobs %u: stopped from progress after all %llu commits", jobs,
		      (unsigned long long)st.commits);

		/* Not stopped: every finding, in offset order, progress never past the total. */
		if (TEST_TSAN && jobs < 3)
			continue;
		memset(&s, 0, sizeof(s));
		o.on_finding = NULL;
		rc = hexoid_pack_scan_buffers("bad", bad.pack.p, bad.pack.n, bad.idx, bad.idxlen, &o, &st,
					      err, sizeof(err));
		CHECK(rc == 0 && st.git3 == n && st.commits == n && s.max_done == n && s.progress >= 1,
		      "jobs %u: whole scan: rc %d, git3 %llu, commits %llu, progress %llu calls, done %llu",
		      jobs, rc, (unsigned long long)st.git3, (unsigned long long)st.commits,
		      (unsigned long long)s.progress, (unsigned long long)s.max_done);
	}
	pk_free(&bad);
	pk_free(&clean);
}

struct heap_watch {
	size_t peak;
};

static size_t heap_now(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	return mallinfo2().uordblks;
#else
	return 0;
#endif
}

static int heap_finding(void *ctx, const struct hexoid_finding *f)
{
	struct heap_watch *h = ctx;
	size_t now = heap_now();
	(void)f;
	if (now > h->peak)
		h->peak = now;
	return 0;
}

static int heap_progress(void *ctx, uint64_t done, uint64_t total)
{
	(void)done;
	(void)total;
	return heap_finding(ctx, NULL);
}

/*
 * Memory while findings stream is bounded by the window, not by the number of findings.
 * Input: 60,000 commits with an uppercase tree each, and a clean pack of as many, scanned
 * with 1 and 2 threads; the heap in use (glibc's mallinfo2) sampled at every finding and
 * progress call.
 * Expected (hexoid_pack.h: "memory is bounded by the window, not by the number of
 * findings"): the bad pack's peak within 8 MiB of the clean one's, where holding every
 * finding would take over 20 MiB. Skipped where the allocator does not say (sanitizers).
 */
TEST(pack_findings_memory)
{
	struct pk bad, clean;
	const unsigned n = 60000;

	if (!heap_now()) {
		printf("    # skip: the allocator does not report its use\n");
		return;
	}
	build_many_commits(&bad, HEXOID_SHA1, n, 1);
	build_many_commits(&clean, HEXOID_SHA1, n, 0);
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		struct heap_watch hb = { 0 }, hc = { 0 };
		char err[256];

		o.jobs = jobs;
		o.on_finding = heap_finding;
		o.on_progress = heap_progress;
		o.ctx = &hc;
		CHECK(hexoid_pack_scan_buffers("clean", clean.pack.p, clean.pack.n, clean.idx, clean.idxlen,
					       &o, &st, err, sizeof(err)) == 0 && st.git3 == 0,
		      "jobs %u: clean scan", jobs);
		o.ctx = &hb;
		CHECK(hexoid_pack_scan_buffers("bad", bad.pack.p, bad.pack.n, bad.idx, bad.idxlen, &o, &st,
					       err, sizeof(err)) == 0 && st.git3 == n,
		      "jobs %u: bad scan", jobs);
		CHECK(hc.peak && hb.peak < hc.peak + ((size_t)8 << 20),
		      "jobs %u: heap peak %zu KiB with %u findings, %zu KiB without", jobs, hb.peak >> 10, n,
		      hc.peak >> 10);
	}
	pk_free(&bad);
	pk_free(&clean);
}

/*
 * The options and statistics carry their size.
 * Input: a clean pack; statistics whose size is 0, 7 (no version's) and this version's;
 * options whose size is 0 (not from HEXOID_SCAN_OPTIONS_INIT).
 * Expected (hexoid_pack.h): the statistics are written in full, their size field as the
 * caller left it; the options are refused as bad arguments, and nothing is called.
 */
TEST(pack_struct_sizes)
{
	static const size_t sizes[] = { 0, 7, sizeof(struct hexoid_scan_stats) };
	struct pk p;
	struct repo r;
	char err[256];

	build_repo(&p, &r, HEXOID_SHA1);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
		struct hexoid_scan_stats st;
		memset(&st, 0xee, sizeof(st));
		st.size = sizes[k];
		CHECK(hexoid_pack_scan_buffers("p", p.pack.p, p.pack.n, p.idx, p.idxlen, &o, &st, err,
					       sizeof(err)) == 0 &&
			      st.size == sizes[k] && st.objects == p.n && st.commits == 6 && st.tags == 2 &&
			      st.git3 == 0 && st.errors == 0 && st.applied >= 4,
		      "stats size %zu: size %zu, objects %llu, applied %llu", sizes[k], st.size,
		      (unsigned long long)st.objects, (unsigned long long)st.applied);
	}
	{
		struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
		struct got g = { 0 };
		o.size = 0;
		o.on_finding = collect;
		o.ctx = &g;
		CHECK(hexoid_pack_scan_buffers("p", p.pack.p, p.pack.n, p.idx, p.idxlen, &o, NULL, err,
					       sizeof(err)) == -1 && strstr(err, "bad arguments") && g.n == 0,
		      "options of size 0: %s", err);
		CHECK(hexoid_code_class(HEXOID_CODE_UPPERCASE_ID) == HEXOID_CLASS_GIT3 &&
			      hexoid_code_class(HEXOID_CODE_CRC32_MISMATCH) == HEXOID_CLASS_ERROR &&
			      !strcmp(hexoid_code_name(HEXOID_CODE_DELTA_BASE), "delta-base") &&
			      !strcmp(hexoid_finding_class_name(HEXOID_CLASS_GIT3), "git3") &&
			      hexoid_code_name((enum hexoid_code)99) == NULL &&
			      hexoid_code_class((enum hexoid_code)99) == 0,
		      "codes, names and classes");
	}
	pk_free(&p);
}
