/*
 * The object reader (hexoid_odb_*), against git cat-file on repositories the installed
 * git makes, and on packs and loose objects crafted byte by byte (pack_build.h).
 * SPDX-License-Identifier: MIT
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pack_build.h"
#include "test.h"

/* --- reading objects by ID: against git cat-file ------------------------------------ */

/*
 * A repository made by the installed git, for the object reader: a history of 120
 * real-sized commits (messages that change a little from one to the next, files that
 * grow), repacked with long chains (OFS_DELTA), a second pack written by pack-objects
 * with --no-delta-base-offset (REF_DELTA), an annotated tag, and commits left loose.
 * Returns 0, or -1 when git could not make it.
 */
static int odb_repo(const char *dir, enum hexoid_algo algo)
{
	char cmd[4096], *file[4] = { NULL, NULL, NULL, NULL }, body[8192] = "";
	size_t flen[4] = { 0, 0, 0, 0 };
	FILE *fi;
	int ok = 1;

	/* The history in one git fast-import: a git process per commit was most of this
	 * test's time, and it runs in every CI lane. */
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; git -c init.defaultBranch=main init -q --object-format=%s r; "
		 "cd r; git fast-import --quiet",
		 dir, algo == HEXOID_SHA1 ? "sha1" : "sha256");
	fi = popen(cmd, "w");
	if (!fi)
		return -1;
	for (int i = 1; i <= 120; i++) {
		char line[128], msg[9000];
		int k = i % 4, ln = snprintf(line, sizeof(line),
					     "line %d of a file that grows with every commit, as source files do\n", i);
		char *grown = realloc(file[k], flen[k] + (size_t)ln);
		if (!grown) {
			ok = 0;
			break;
		}
		file[k] = grown;
		memcpy(file[k] + flen[k], line, (size_t)ln);
		flen[k] += (size_t)ln;
		if (i % 7 == 0)
			body[0] = 0;
		else
			snprintf(body + strlen(body), sizeof(body) - strlen(body),
				 "%sparagraph %d: a sentence that real commit messages could hold, and more.",
				 body[0] ? " " : "", i);
		int mlen = snprintf(msg, sizeof(msg), "change %d\n\n%s%sSigned-off-by: A <a@example.com>\n",
				    i, body, body[0] ? "\n\n" : "");
		fprintf(fi, "commit refs/heads/main\nmark :%d\n"
			    "author A <a@example.com> %d +0000\ncommitter C <c@example.com> %d +0000\n"
			    "data %d\n%s",
			i, 1700000000 + i, 1700000000 + i, mlen, msg);
		if (i > 1)
			fprintf(fi, "from :%d\n", i - 1);
		fprintf(fi, "M 100644 inline f%d\ndata %zu\n", k, flen[k]);
		fwrite(file[k], 1, flen[k], fi);
		fputs("\n", fi);
		if (i == 60)
			fputs("tag v1\nfrom :60\ntagger C <c@example.com> 1700000060 +0000\n"
			      "data 12\nrelease one\n\n", fi);
	}
	for (int k = 0; k < 4; k++)
		free(file[k]);
	if (pclose(fi) != 0 || !ok)
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s/r'; export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.com "
		 "GIT_COMMITTER_NAME=C GIT_COMMITTER_EMAIL=c@example.com; "
		 "git reset -q --hard; git repack -adfq --depth=50 --window=50; "
		 /* REF_DELTA: a pack of the last 30 commits' objects, bases named by ID. */
		 "git rev-list --objects HEAD~30..HEAD | "
		 "  git pack-objects -q --no-delta-base-offset --window=50 --depth=50 .git/objects/pack/ref >/dev/null; "
		 "for j in 1 2 3; do echo loose $j >>f0; git add -A; git commit -q -m \"loose $j\"; done",
		 dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Every object `git cat-file --batch-all-objects --batch` prints, read by ID through h:
 * type, size and bytes the same. Returns how many objects were compared (0 on failure). */
static size_t odb_compare_all(const char *name, struct hexoid_odb *h, const char *repo,
			      enum hexoid_algo algo)
{
	char cmd[1024], line[256];
	size_t hexsz = hexoid_hexsz(algo), n = 0, bad = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "git -C '%s' cat-file --batch-all-objects --batch", repo);
	f = popen(cmd, "r");
	CHECK(f != NULL, "%s: popen", name);
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned char oid[HEXOID_MAX_RAWSZ], *want;
		char type[16];
		unsigned long long size;
		struct hexoid_object obj;
		char err[256];
		enum hexoid_odb_status st;

		if (strlen(line) < hexsz || sscanf(line + hexsz, " %15s %llu", type, &size) != 2 ||
		    hexoid_decode(oid, line, 1, hexsz, algo, HEXOID_LOWER, NULL) != HEXOID_OK) {
			CHECK(0, "%s: cat-file line '%s'", name, line);
			break;
		}
		want = malloc(size + 1);
		if (!want || fread(want, 1, size + 1, f) != size + 1) {
			CHECK(0, "%s: short cat-file output", name);
			free(want);
			break;
		}
		st = hexoid_odb_read(h, oid, &obj, err, sizeof(err));
		if (st != HEXOID_ODB_OK || obj.size != size || strcmp(hexoid_object_type_name(obj.type), type) ||
		    memcmp(obj.data, want, size) || obj.data[size] != 0) {
			if (bad++ < 3)
				CHECK(0, "%s: %.*s: status %d (%s), %s %zu bytes, want %s %llu", name, (int)hexsz,
				      line, st, err, st ? "-" : hexoid_object_type_name(obj.type), obj.size, type, size);
		}
		n++;
		hexoid_object_free(&obj);
		free(want);
	}
	CHECK(pclose(f) == 0, "%s: git cat-file failed", name);
	CHECK(!bad, "%s: %zu of %zu objects differ from git cat-file", name, bad, n);
	return bad ? 0 : n;
}

/* Each copy of the pack with the delta chains, and whether a pack holds REF_DELTA and
 * OFS_DELTA entries: from git verify-pack -v's lines (depth and base mean a delta). */
static int count_deltas(const char *repo, const char *pack)
{
	char cmd[1024];
	int n = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "git -C '%s' verify-pack -v '%s' | awk 'NF == 7' | wc -l", repo, pack);
	if ((f = popen(cmd, "r"))) {
		if (fscanf(f, "%d", &n) != 1)
			n = -1;
		pclose(f);
	}
	return n;
}

/*
 * Reading objects by ID, against git on repositories it made, SHA-1 and SHA-256.
 * Input: odb_repo(): OFS_DELTA chains, a REF_DELTA pack, loose objects, a tag.
 * Expected (hexoid_pack.h, "Reading objects by ID"): every object git cat-file lists
 * reads with git's type, size and bytes, a NUL after them; with HEXOID_ODB_VERIFY too;
 * an ID that is nowhere is HEXOID_ODB_MISSING; a clone made with --shared reads its
 * source's objects only with HEXOID_ODB_ALTERNATES.
 */
TEST(odb_read_git)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		char dir[] = "/tmp/hexoid-odb-XXXXXX", repo[128], objs[160], cmd[1024], err[256];
		const char *an = algo == HEXOID_SHA1 ? "sha1" : "sha256";
		struct hexoid_odb_options o = HEXOID_ODB_OPTIONS_INIT;
		struct hexoid_odb *h;
		struct hexoid_object obj;
		unsigned char oid[HEXOID_MAX_RAWSZ];
		size_t n, rawsz = hexoid_rawsz(algo);

		if (!mkdtemp(dir) || odb_repo(dir, algo)) {
			CHECK(0, "%s: git cannot make the repository", an);
			continue;
		}
		snprintf(repo, sizeof(repo), "%s/r", dir);
		snprintf(objs, sizeof(objs), "%s/.git/objects", repo);
		{
			/* The packs are what they should be: OFS and REF deltas both. */
			char pack[256];
			FILE *f;
			int ofs = 0, ref = 0;
			snprintf(cmd, sizeof(cmd), "ls %s/pack/*.pack", objs);
			f = popen(cmd, "r");
			while (f && fgets(pack, sizeof(pack), f)) {
				pack[strcspn(pack, "\n")] = 0;
				if (strstr(pack, "/ref-"))
					ref = count_deltas(repo, pack);
				else
					ofs = count_deltas(repo, pack);
			}
			if (f)
				pclose(f);
			CHECK(ofs > 50 && ref > 10, "%s: %d deltas in the repacked pack, %d in the REF_DELTA one",
			      an, ofs, ref);
		}
		o.algo = algo;
		h = hexoid_odb_open(objs, &o, err, sizeof(err));
		CHECK(h != NULL, "%s: open: %s", an, err);
		if (!h)
			continue;
		CHECK(hexoid_odb_count_packs(h) == 2, "%s: %zu packs", an, hexoid_odb_count_packs(h));
		n = odb_compare_all(an, h, repo, algo);
		CHECK(n > 300, "%s: only %zu objects", an, n);
		/* Missing. */
		memset(oid, 0xab, rawsz);
		CHECK(hexoid_odb_read(h, oid, &obj, err, sizeof(err)) == HEXOID_ODB_MISSING &&
			      obj.data == NULL && strstr(err, "abababab") && strstr(err, "not found"),
		      "%s: missing: %s", an, err);
		CHECK(hexoid_odb_read(h, NULL, &obj, err, sizeof(err)) == HEXOID_ODB_EARG, "%s: NULL oid", an);
		hexoid_odb_close(h);
		/* Verified reads: the same. */
		o.flags = HEXOID_ODB_VERIFY;
		o.cache_bytes = 4096; /* and a cache that keeps almost nothing */
		h = hexoid_odb_open(objs, &o, err, sizeof(err));
		CHECK(h && odb_compare_all(an, h, repo, algo) == n, "%s: verified reads", an);
		hexoid_odb_close(h);
		/* Alternates: a --shared clone holds none of the objects itself. */
		snprintf(cmd, sizeof(cmd), "git clone -q --shared '%s' '%s/shared' && git -C '%s/shared' count-objects -v | grep -q '^count: 0'",
			 repo, dir, dir);
		if (system(cmd) == 0) {
			char sobjs[192], srepo[160];
			snprintf(srepo, sizeof(srepo), "%s/shared", dir);
			snprintf(sobjs, sizeof(sobjs), "%s/.git/objects", srepo);
			o.flags = 0;
			o.cache_bytes = 0;
			h = hexoid_odb_open(sobjs, &o, err, sizeof(err));
			CHECK(h && hexoid_odb_count_packs(h) == 0, "%s: shared clone without alternates", an);
			snprintf(cmd, sizeof(cmd), "git -C '%s' rev-parse HEAD", srepo);
			{
				FILE *f = popen(cmd, "r");
				char hex[80] = "";
				if (f) {
					if (!fgets(hex, sizeof(hex), f))
						hex[0] = 0;
					pclose(f);
				}
				CHECK(hexoid_decode(oid, hex, 1, hexoid_hexsz(algo), algo, HEXOID_LOWER, NULL) == HEXOID_OK,
				      "%s: rev-parse HEAD", an);
			}
			CHECK(h && hexoid_odb_read(h, oid, &obj, err, sizeof(err)) == HEXOID_ODB_MISSING,
			      "%s: HEAD read without alternates", an);
			hexoid_odb_close(h);
			o.flags = HEXOID_ODB_ALTERNATES;
			h = hexoid_odb_open(sobjs, &o, err, sizeof(err));
			CHECK(h && hexoid_odb_count_packs(h) == 2, "%s: shared clone with alternates: %s", an,
			      h ? "" : err);
			if (h)
				CHECK(odb_compare_all(an, h, srepo, algo) == n, "%s: through alternates", an);
			hexoid_odb_close(h);
			/* The same through hexoid_odb_add, and a directory added twice counts once. */
			o.flags = 0;
			h = hexoid_odb_open(sobjs, &o, err, sizeof(err));
			CHECK(h && hexoid_odb_add(h, objs, err, sizeof(err)) == 0 &&
				      hexoid_odb_add(h, objs, err, sizeof(err)) == 0 && hexoid_odb_count_packs(h) == 2,
			      "%s: hexoid_odb_add: %s", an, err);
			if (h)
				CHECK(hexoid_odb_read(h, oid, &obj, err, sizeof(err)) == HEXOID_ODB_OK &&
					      obj.type == HEXOID_OBJ_COMMIT,
				      "%s: HEAD after hexoid_odb_add: %s", an, err);
			hexoid_object_free(&obj);
			hexoid_odb_close(h);
		} else {
			CHECK(0, "%s: git clone --shared", an);
		}
		/* Unusable: no such directory, no algo, a damaged index. */
		o.flags = 0;
		snprintf(cmd, sizeof(cmd), "%s/nothing", dir);
		CHECK(hexoid_odb_open(cmd, &o, err, sizeof(err)) == NULL && strstr(err, "nothing"),
		      "%s: missing directory: %s", an, err);
		o.algo = (enum hexoid_algo)0;
		CHECK(hexoid_odb_open(objs, &o, err, sizeof(err)) == NULL && strstr(err, "hash"),
		      "%s: no algo: %s", an, err);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CHECK(system(cmd) == 0, "rm");
	}
}

/* Write pack p as DIR/pack/pack-NAME.{pack,idx}. */
static void odb_put_pack(const char *objs, const char *name, const struct pk *p)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/pack", objs);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/pack/pack-%s.pack", objs, name);
	write_file(path, p->pack.p, p->pack.n);
	snprintf(path, sizeof(path), "%s/pack/pack-%s.idx", objs, name);
	write_file(path, p->idx, p->idxlen);
}

/* Write a loose object file for oid with the given bytes. */
static void odb_put_loose(const char *objs, const unsigned char *oid, enum hexoid_algo algo,
			  const struct buf *b)
{
	char hex[HEXOID_MAX_HEXSZ + 1], path[512];
	size_t hexsz = hexoid_hexsz(algo);
	hexoid_encode(hex, hexsz, oid, 1, algo);
	hex[hexsz] = 0;
	snprintf(path, sizeof(path), "%s/%.2s", objs, hex);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/%.2s/%s", objs, hex, hex + 2);
	write_file(path, b->p, b->n);
}

static enum hexoid_odb_status odb_get(struct hexoid_odb *h, const unsigned char *oid, const char *text,
				      char *err, size_t errlen)
{
	struct hexoid_object obj;
	enum hexoid_odb_status st = hexoid_odb_read(h, oid, &obj, err, errlen);
	if (st == HEXOID_ODB_OK && text)
		CHECK(obj.size == strlen(text) && !memcmp(obj.data, text, obj.size), "content of '%.20s'", text);
	hexoid_object_free(&obj);
	return st;
}

/*
 * Reading objects by ID from crafted packs and loose files.
 * Input: one pack with a good OFS_DELTA, a REF_DELTA whose base is in no pack, two REF_DELTAs
 * that are each other's base, a delta copying past its base, a commit with a flipped byte
 * in its zlib stream (and a good copy of it loose), a loose object cut short, one with a
 * bad header; a second and third pack with 3000-deep OFS and REF chains.
 * Expected (hexoid_pack.h): the good ones read with their text; each damaged one is
 * HEXOID_ODB_DAMAGED with a reason naming the pack and the offset, or the loose file; the
 * commit damaged in the pack reads from its good loose copy; a loop is damage, not a hang;
 * the ends of both chains read and hash to their IDs (HEXOID_ODB_VERIFY).
 */
TEST(odb_read_crafted)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		char dir[] = "/tmp/hexoid-odbc-XXXXXX", objs[64], err[512], tree[HEXOID_MAX_HEXSZ + 1];
		char ta[512], tb[512], tc[512], td[512], te[512], tf[512], tg[512], th[512];
		unsigned char oa[HEXOID_MAX_RAWSZ], ob[HEXOID_MAX_RAWSZ], oc[HEXOID_MAX_RAWSZ],
			od[HEXOID_MAX_RAWSZ], oe[HEXOID_MAX_RAWSZ], of[HEXOID_MAX_RAWSZ],
			og[HEXOID_MAX_RAWSZ], oh[HEXOID_MAX_RAWSZ], nowhere[HEXOID_MAX_RAWSZ];
		struct buf d = { 0 }, lf = { 0 }, lg = { 0 };
		struct hexoid_odb_options o = HEXOID_ODB_OPTIONS_INIT;
		struct hexoid_odb *h;
		struct pk p;
		size_t e0, e2, e3, e5, e6, last;

		if (!mkdtemp(dir))
			continue;
		snprintf(objs, sizeof(objs), "%s/objects", dir);
		mkdir(objs, 0777);
		hexid(tree, algo, 5);
		commit_text(ta, sizeof(ta), tree, NULL, "a: the base of the others");
		commit_text(tb, sizeof(tb), tree, NULL, "b: a good delta of a");
		commit_text(tc, sizeof(tc), tree, NULL, "c: base is d");
		commit_text(td, sizeof(td), tree, NULL, "d: base is c");
		commit_text(te, sizeof(te), tree, NULL, "e: copies past the end of a");
		commit_text(tf, sizeof(tf), tree, NULL, "f: broken in the pack, good loose");
		commit_text(tg, sizeof(tg), tree, NULL, "g: loose, cut short");
		commit_text(th, sizeof(th), tree, NULL, "h: a delta against nothing here");
		oid_of(algo, HEXOID_OBJ_COMMIT, ta, strlen(ta), oa);
		oid_of(algo, HEXOID_OBJ_COMMIT, tb, strlen(tb), ob);
		oid_of(algo, HEXOID_OBJ_COMMIT, tc, strlen(tc), oc);
		oid_of(algo, HEXOID_OBJ_COMMIT, td, strlen(td), od);
		oid_of(algo, HEXOID_OBJ_COMMIT, te, strlen(te), oe);
		oid_of(algo, HEXOID_OBJ_COMMIT, tf, strlen(tf), of);
		oid_of(algo, HEXOID_OBJ_COMMIT, tg, strlen(tg), og);
		oid_of(algo, HEXOID_OBJ_COMMIT, th, strlen(th), oh);
		digest(algo, "nowhere", 7, NULL, 0, nowhere);

		pk_init(&p, algo);
		e0 = pk_text(&p, HEXOID_OBJ_COMMIT, ta);
		make_delta(&d, ta, strlen(ta), tb, strlen(tb));
		pk_ofs(&p, e0, HEXOID_OBJ_COMMIT, tb, strlen(tb), &d);
		bfree(&d);
		make_delta(&d, ta, strlen(ta), th, strlen(th));
		e2 = pk_ref(&p, nowhere, HEXOID_OBJ_COMMIT, th, strlen(th), &d);
		bfree(&d);
		make_delta(&d, td, strlen(td), tc, strlen(tc));
		e3 = pk_ref(&p, od, HEXOID_OBJ_COMMIT, tc, strlen(tc), &d);
		bfree(&d);
		make_delta(&d, tc, strlen(tc), td, strlen(td));
		pk_ref(&p, oc, HEXOID_OBJ_COMMIT, td, strlen(td), &d);
		bfree(&d);
		d_sizes(&d, strlen(ta), strlen(te));
		d_copy(&d, 0, (uint32_t)strlen(ta));
		d_copy(&d, (uint32_t)strlen(ta) - 4, 8);
		e5 = pk_ofs(&p, e0, HEXOID_OBJ_COMMIT, te, strlen(te), &d);
		bfree(&d);
		e6 = pk_text(&p, HEXOID_OBJ_COMMIT, tf);
		pk_finish(&p);
		/* The idx was made: now flip a byte inside f's deflate data. */
		p.pack.p[p.e[e6].off + 6] ^= 0xff;
		odb_put_pack(objs, "crafted", &p);
		loose_of(&lf, HEXOID_OBJ_COMMIT, tf);
		odb_put_loose(objs, of, algo, &lf);
		loose_of(&lg, HEXOID_OBJ_COMMIT, tg);
		lg.n -= 5;
		odb_put_loose(objs, og, algo, &lg);
		bfree(&lg);
		loose_bytes(&lg, "commit x\0", 9, "z", 1);
		odb_put_loose(objs, nowhere, algo, &lg);

		o.algo = algo;
		h = hexoid_odb_open(objs, &o, err, sizeof(err));
		CHECK(h != NULL, "crafted: open: %s", err);
		if (h) {
			char at[64];
			CHECK(odb_get(h, oa, ta, err, sizeof(err)) == HEXOID_ODB_OK, "a: %s", err);
			CHECK(odb_get(h, ob, tb, err, sizeof(err)) == HEXOID_ODB_OK, "b: %s", err);
			snprintf(at, sizeof(at), "offset %llu: ", (unsigned long long)p.e[e3].off);
			CHECK(odb_get(h, oc, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED && strstr(err, "deeper than") &&
				      strstr(err, "pack-crafted.pack: offset ") && strstr(err, at),
			      "c (loop): %s", err);
			CHECK(odb_get(h, od, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED, "d (loop): %s", err);
			snprintf(at, sizeof(at), "offset %llu: ", (unsigned long long)p.e[e5].off);
			CHECK(odb_get(h, oe, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED && strstr(err, at) &&
				      strstr(err, "copies"),
			      "e (bad copy): %s", err);
			CHECK(odb_get(h, of, tf, err, sizeof(err)) == HEXOID_ODB_OK, "f (loose copy): %s", err);
			CHECK(odb_get(h, og, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED && strstr(err, "truncated") &&
				      strstr(err, "/objects/"),
			      "g (cut short): %s", err);
			CHECK(odb_get(h, nowhere, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED && strstr(err, "header"),
			      "bad loose header: %s", err);
			snprintf(at, sizeof(at), "offset %llu: ", (unsigned long long)p.e[e2].off);
			CHECK(odb_get(h, oh, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED && strstr(err, at) &&
				      strstr(err, "not in this pack"),
			      "h (base nowhere): %s", err);
			hexoid_odb_close(h);
		}
		/* Without the loose copy, f is damaged: the zlib reason, at its offset. */
		{
			char hex[HEXOID_MAX_HEXSZ + 1], path[512], at[64];
			hexoid_encode(hex, hexoid_hexsz(algo), of, 1, algo);
			hex[hexoid_hexsz(algo)] = 0;
			snprintf(path, sizeof(path), "%s/%.2s/%s", objs, hex, hex + 2);
			unlink(path);
			h = hexoid_odb_open(objs, &o, err, sizeof(err));
			snprintf(at, sizeof(at), "offset %llu: zlib", (unsigned long long)p.e[e6].off);
			CHECK(h && odb_get(h, of, NULL, err, sizeof(err)) == HEXOID_ODB_DAMAGED && strstr(err, at),
			      "f (pack only): %s", err);
			hexoid_odb_close(h);
		}
		pk_free(&p);
		bfree(&lf);
		bfree(&lg);
		/* Chains 3000 deep, OFS and REF, each in a pack of its own; verified reads. */
		rm_tree(objs);
		mkdir(objs, 0777);
		build_chain(&p, algo, 3000, 0, 0, &last);
		{
			unsigned char end_ofs[HEXOID_MAX_RAWSZ], end_ref[HEXOID_MAX_RAWSZ];
			memcpy(end_ofs, p.e[last].oid, p.rawsz);
			odb_put_pack(objs, "ofs", &p);
			pk_free(&p);
			build_chain(&p, algo, 3000, 1, 64, &last);
			memcpy(end_ref, p.e[last].oid, p.rawsz);
			odb_put_pack(objs, "ref", &p);
			pk_free(&p);
			o.flags = HEXOID_ODB_VERIFY;
			o.cache_bytes = 1024;
			h = hexoid_odb_open(objs, &o, err, sizeof(err));
			CHECK(h && hexoid_odb_count_packs(h) == 2, "chains: open: %s", err);
			CHECK(h && odb_get(h, end_ofs, NULL, err, sizeof(err)) == HEXOID_ODB_OK, "ofs chain end: %s", err);
			CHECK(h && odb_get(h, end_ref, NULL, err, sizeof(err)) == HEXOID_ODB_OK, "ref chain end: %s", err);
			hexoid_odb_close(h);
			o.flags = 0;
			o.cache_bytes = 0;
		}
		/* A pack whose index is broken: open says which. */
		{
			char path[512];
			snprintf(path, sizeof(path), "%s/pack/pack-ofs.idx", objs);
			write_file(path, "\377tOc\0\0\0\2", 8);
			CHECK(hexoid_odb_open(objs, &o, err, sizeof(err)) == NULL && strstr(err, "pack-ofs.idx"),
			      "broken index: %s", err);
		}
		rm_tree(dir);
	}
}

/*
 * Which files of pack/ are packs: git's rule (src/pack/objdir.h), as the audit and the
 * gate take it. A NAME.idx whose NAME.pack is a folder, a .pack without its .idx and an
 * .idx without its .pack are not packs, and the open does not fail on them; a pair named
 * .tmp-<pid>-pack-*, which git reads, is one.
 */
TEST(odb_pack_names)
{
	char dir[] = "/tmp/hexoid-odbn-XXXXXX", path[512], err[512], text[512], tree[HEXOID_MAX_HEXSZ + 1];
	unsigned char oid[HEXOID_MAX_RAWSZ];
	struct hexoid_odb_options o = HEXOID_ODB_OPTIONS_INIT;
	struct hexoid_odb *h;
	struct pk p;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	o.algo = HEXOID_SHA1;
	hexid(tree, o.algo, 5);
	commit_text(text, sizeof(text), tree, NULL, "in a .tmp- pack");
	oid_of(o.algo, HEXOID_OBJ_COMMIT, text, strlen(text), oid);
	pk_init(&p, o.algo);
	pk_text(&p, HEXOID_OBJ_COMMIT, text);
	pk_finish(&p);
	snprintf(path, sizeof(path), "%s/pack", dir);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/pack/pack-folder.pack", dir);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/pack/pack-folder.idx", dir);
	write_file(path, p.idx, p.idxlen);
	snprintf(path, sizeof(path), "%s/pack/pack-lone.pack", dir);
	write_file(path, "not a pack", 10);
	snprintf(path, sizeof(path), "%s/pack/pack-lone-idx.idx", dir);
	write_file(path, "not an index", 12);
	h = hexoid_odb_open(dir, &o, err, sizeof(err));
	CHECK(h && hexoid_odb_count_packs(h) == 0, "no pack among the odd files: %s", h ? "" : err);
	hexoid_odb_close(h);
	snprintf(path, sizeof(path), "%s/pack/.tmp-1-pack-x.pack", dir);
	write_file(path, p.pack.p, p.pack.n);
	snprintf(path, sizeof(path), "%s/pack/.tmp-1-pack-x.idx", dir);
	write_file(path, p.idx, p.idxlen);
	h = hexoid_odb_open(dir, &o, err, sizeof(err));
	CHECK(h && hexoid_odb_count_packs(h) == 1, "the .tmp- pack is read: %s", h ? "" : err);
	CHECK(h && odb_get(h, oid, text, err, sizeof(err)) == HEXOID_ODB_OK, "its commit: %s", err);
	hexoid_odb_close(h);
	pk_free(&p);
	rm_tree(dir);
}

struct odb_thread {
	struct hexoid_odb *h;
	const struct pk *p;
	pthread_t t;
	size_t ok;
};

static void *odb_reader(void *arg)
{
	struct odb_thread *t = arg;
	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < t->p->n; i++) {
			struct hexoid_object obj;
			/* from the deep end first, then in pack order */
			size_t k = round ? i : t->p->n - 1 - i;
			if (hexoid_odb_read(t->h, t->p->e[k].oid, &obj, NULL, 0) == HEXOID_ODB_OK)
				t->ok++;
			hexoid_object_free(&obj);
		}
	return NULL;
}

/*
 * One handle read from several threads at once, and one handle per thread (for
 * check-tsan: the name starts like the pack scan's threaded tests).
 * Input: a 400-deep OFS_DELTA chain; three threads reading every object three times
 * through one HEXOID_ODB_VERIFY handle with a small cache, then through a handle each.
 * Expected (hexoid_pack.h: "a handle may be shared; its calls are serialized"): every
 * read succeeds and hashes to its ID.
 */
TEST(pack_jobs_odb_threads)
{
	char dir[] = "/tmp/hexoid-odbt-XXXXXX", objs[64], err[256];
	struct hexoid_odb_options o = HEXOID_ODB_OPTIONS_INIT;
	struct odb_thread t[3];
	struct hexoid_odb *shared;
	struct pk p;
	size_t last;

	if (!mkdtemp(dir))
		return;
	snprintf(objs, sizeof(objs), "%s/objects", dir);
	mkdir(objs, 0777);
	build_chain(&p, HEXOID_SHA1, 400, 0, 200, &last);
	odb_put_pack(objs, "chain", &p);
	o.algo = HEXOID_SHA1;
	o.flags = HEXOID_ODB_VERIFY;
	o.cache_bytes = 8192;
	shared = hexoid_odb_open(objs, &o, err, sizeof(err));
	CHECK(shared != NULL, "open: %s", err);
	for (int own = 0; own < 2 && shared; own++) {
		for (int i = 0; i < 3; i++) {
			t[i].h = own ? hexoid_odb_open(objs, &o, err, sizeof(err)) : shared;
			t[i].p = &p;
			t[i].ok = 0;
			CHECK(t[i].h && pthread_create(&t[i].t, NULL, odb_reader, &t[i]) == 0, "thread %d", i);
		}
		for (int i = 0; i < 3; i++) {
			pthread_join(t[i].t, NULL);
			CHECK(t[i].ok == 3 * p.n, "%s handle, thread %d: %zu of %zu reads", own ? "own" : "shared",
			      i, t[i].ok, 3 * p.n);
			if (own)
				hexoid_odb_close(t[i].h);
		}
	}
	hexoid_odb_close(shared);
	pk_free(&p);
	rm_tree(dir);
}
