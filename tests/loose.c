/*
 * The loose-object scanner, tested from outside: loose objects made byte by byte
 * (pack_build.h), one file at a time and in folders, then damaged one way at a time.
 * SPDX-License-Identifier: MIT
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pack_build.h"
#include "test.h"

/* --- loose objects ------------------------------------------------------------------- */

static int loose_scan(const struct buf *b, enum hexoid_algo algo, const unsigned char *oid,
		      int verify, struct got *g, struct hexoid_scan_stats *st)
{
	struct hexoid_scan_options o;
	unsigned char *copy = malloc(b->n ? b->n : 1);
	int rc;
	collect_options(&o, g, verify);
	o.algo = algo;
	if (b->n)
		memcpy(copy, b->p, b->n);
	rc = hexoid_loose_object_scan("obj", copy, b->n, oid, &o, st);
	free(copy);
	return rc;
}

static void loose_expect(const char *what, const struct buf *b, enum hexoid_algo algo,
			 enum hexoid_code code, const char *sub)
{
	struct got g = { 0 };
	struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
	unsigned char oid[HEXOID_MAX_RAWSZ];
	char name[128];
	memset(oid, 0x3c, sizeof(oid));
	snprintf(name, sizeof(name), "loose %s (algo %d)", what, algo);
	CHECK(loose_scan(b, algo, oid, 0, &g, &st) == 0, "%s: rc", name);
	const struct hexoid_finding *f = expect_one(name, &g, code, HEXOID_NO_OFFSET, sub);
	if (f)
		CHECK(f->cls == HEXOID_CLASS_ERROR && f->has_oid && !memcmp(f->oid, oid, hexoid_rawsz(algo)) &&
			      !strcmp(g.v[0].path, "obj") && st.errors == 1,
		      "%s: class %d has_oid %d path %s", name, (int)f->cls, f->has_oid, g.v[0].path);
	CHECK(st.objects == 1 && st.commits == 0, "%s: stats objects %llu commits %llu", name,
	      (unsigned long long)st.objects, (unsigned long long)st.commits);
	got_free(&g);
}

TEST(loose_object)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		char tree[HEXOID_MAX_HEXSZ + 1], up[HEXOID_MAX_HEXSZ + 1], t[2048];
		struct buf b = { 0 };
		struct got g = { 0 };
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		unsigned char oid[HEXOID_MAX_RAWSZ];
		size_t at;

		hexid(tree, algo, 81);
		strcpy(up, tree);
		at = upper_at(up, 1);
		/* good commit, tag, blob, tree; with verify and the right IDs */
		commit_text(t, sizeof(t), tree, NULL, "a loose commit");
		loose_of(&b, HEXOID_OBJ_COMMIT, t);
		oid_of(algo, HEXOID_OBJ_COMMIT, t, strlen(t), oid);
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 0 && g.n == 0 && st.commits == 1 &&
			      st.objects == 1 && st.inflated == strlen(t),
		      "loose commit: %zu findings", g.n);
		got_free(&g);
		/* verify with a wrong ID */
		oid[0] ^= 1;
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 0 && g.n == 1 &&
			      g.v[0].f.code == HEXOID_CODE_ID_MISMATCH && g.v[0].f.has_oid &&
			      !memcmp(g.v[0].f.oid, oid, hexoid_rawsz(algo)),
		      "loose commit with a wrong ID: %zu", g.n);
		got_free(&g);
		/* no ID given: nothing to verify, and findings without one */
		CHECK(loose_scan(&b, algo, NULL, 1, &g, &st) == 0 && g.n == 0, "loose commit, no ID");
		got_free(&g);
		b.n = 0;
		tag_text(t, sizeof(t), tree, "commit", "a loose tag");
		loose_of(&b, HEXOID_OBJ_TAG, t);
		oid_of(algo, HEXOID_OBJ_TAG, t, strlen(t), oid);
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 0 && g.n == 0 && st.tags == 1,
		      "loose tag: %zu findings", g.n);
		got_free(&g);
		b.n = 0;
		loose_of(&b, HEXOID_OBJ_BLOB, "tree ABCDEF\n");
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 0 && g.n == 0 && st.commits == 0 &&
			      st.objects == 1,
		      "loose blob: %zu findings", g.n);
		got_free(&g);
		b.n = 0;
		loose_of(&b, HEXOID_OBJ_TREE, "");
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 0 && g.n == 0, "loose empty tree");
		got_free(&g);
		b.n = 0;
		/* uppercase tree in a commit; uppercase object in a tag */
		commit_text(t, sizeof(t), up, NULL, "uppercase");
		loose_of(&b, HEXOID_OBJ_COMMIT, t);
		oid_of(algo, HEXOID_OBJ_COMMIT, t, strlen(t), oid);
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 0 && g.n == 1 &&
			      g.v[0].f.code == HEXOID_CODE_UPPERCASE_ID && g.v[0].f.cls == HEXOID_CLASS_GIT3 &&
			      g.v[0].f.offset == HEXOID_NO_OFFSET && g.v[0].f.line == 1 &&
			      g.v[0].f.column == 6 + at && !strcmp(g.v[0].f.header, "tree") &&
			      g.v[0].f.type == HEXOID_OBJ_COMMIT && g.v[0].f.has_oid &&
			      !memcmp(g.v[0].f.oid, oid, hexoid_rawsz(algo)) && st.git3 == 1,
		      "loose uppercase tree: %zu", g.n);
		got_free(&g);
		/* stop at the first: returns 1 */
		g.stop_at = 1;
		CHECK(loose_scan(&b, algo, oid, 1, &g, &st) == 1 && g.calls == 1, "loose stop");
		got_free(&g);
		b.n = 0;
		tag_text(t, sizeof(t), up, "commit", "uppercase tag");
		loose_of(&b, HEXOID_OBJ_TAG, t);
		CHECK(loose_scan(&b, algo, NULL, 0, &g, &st) == 0 && g.n == 1 &&
			      g.v[0].f.column == 8 + at && !strcmp(g.v[0].f.header, "object") &&
			      !g.v[0].f.has_oid,
		      "loose uppercase tag: %zu", g.n);
		got_free(&g);

		/* bad headers */
		commit_text(t, sizeof(t), tree, NULL, "x");
		b.n = 0;
		loose_bytes(&b, "commit abc", 11, t, strlen(t));
		loose_expect("commit abc", &b, algo, HEXOID_CODE_OBJECT_HEADER, "size");
		b.n = 0;
		loose_bytes(&b, "commit -5", 10, t, strlen(t));
		loose_expect("commit -5", &b, algo, HEXOID_CODE_OBJECT_HEADER, NULL);
		b.n = 0;
		loose_bytes(&b, "commit ", 8, t, strlen(t));
		loose_expect("commit with no size", &b, algo, HEXOID_CODE_OBJECT_HEADER, NULL);
		b.n = 0;
		loose_bytes(&b, "commit", 7, t, strlen(t));
		loose_expect("commit with no space", &b, algo, HEXOID_CODE_OBJECT_HEADER, NULL);
		/* A commit past HEXOID_TEXT_MAX, in a file large enough to hold it (70000
		 * bytes that zlib cannot shrink): said from its header, never inflated. A
		 * tag at the limit is read: its size then disagrees with its bytes. */
		{
			static unsigned char noise[70000];
			uint32_t x = 12345;
			char h[64];
			int n = snprintf(h, sizeof(h), "commit %llu", (unsigned long long)HEXOID_TEXT_MAX + 1);
			for (size_t i = 0; i < sizeof(noise); i++)
				noise[i] = (unsigned char)((x = x * 1103515245u + 12345u) >> 24);
			b.n = 0;
			loose_bytes(&b, h, (size_t)n + 1, noise, sizeof(noise));
			loose_expect("commit past the limit", &b, algo, HEXOID_CODE_TOO_LARGE,
				     "commit of 67108865 bytes: more than the 64 MiB");
			n = snprintf(h, sizeof(h), "tag %llu", (unsigned long long)HEXOID_TEXT_MAX);
			b.n = 0;
			loose_bytes(&b, h, (size_t)n + 1, noise, sizeof(noise));
			loose_expect("tag at the limit", &b, algo, HEXOID_CODE_ZLIB, "inflates to 70000 bytes where its header says 67108864");
		}
		b.n = 0;
		loose_bytes(&b, "blurb 5", 8, "abcde", 5);
		loose_expect("unknown type", &b, algo, HEXOID_CODE_OBJECT_HEADER, NULL);
		b.n = 0;
		loose_bytes(&b, "Commit 5", 9, "abcde", 5);
		loose_expect("capitalised type", &b, algo, HEXOID_CODE_OBJECT_HEADER, NULL);
		b.n = 0;
		{
			char h[32];
			int n = snprintf(h, sizeof(h), "commit 0%zu", strlen(t));
			loose_bytes(&b, h, (size_t)n + 1, t, strlen(t));
			loose_expect("leading zero", &b, algo, HEXOID_CODE_OBJECT_HEADER, NULL);
			/* missing NUL: header and content run together */
			b.n = 0;
			n = snprintf(h, sizeof(h), "commit %zu", strlen(t));
			loose_bytes(&b, h, (size_t)n, t, strlen(t));
			loose_expect("missing NUL", &b, algo, HEXOID_CODE_OBJECT_HEADER, NULL);
			b.n = 0;
			loose_bytes(&b, h, (size_t)n, "", 0);
			loose_expect("missing NUL, nothing after", &b, algo, HEXOID_CODE_OBJECT_HEADER, NULL);
			/* more content than the header says */
			b.n = 0;
			n = snprintf(h, sizeof(h), "commit %zu", strlen(t) - 7);
			loose_bytes(&b, h, (size_t)n + 1, t, strlen(t));
			loose_expect("more than the header", &b, algo, HEXOID_CODE_ZLIB, "more than");
			b.n = 0;
			loose_bytes(&b, "commit 3", 9, t, strlen(t));
			loose_expect("far more than the header", &b, algo, HEXOID_CODE_ZLIB, "more than");
			/* less */
			b.n = 0;
			n = snprintf(h, sizeof(h), "commit %zu", strlen(t) + 7);
			loose_bytes(&b, h, (size_t)n + 1, t, strlen(t));
			loose_expect("less than the header", &b, algo, HEXOID_CODE_ZLIB, "inflates to");
			b.n = 0;
			loose_bytes(&b, "commit 99", 10, "tree", 4);
			loose_expect("less, short object", &b, algo, HEXOID_CODE_ZLIB, "inflates to");
			/* a huge claim */
			b.n = 0;
			loose_bytes(&b, "commit 99999999999999", 22, "tree", 4);
			loose_expect("huge claim", &b, algo, HEXOID_CODE_OBJECT_HEADER, "claimed");
			b.n = 0;
			loose_bytes(&b, "commit 999999999999999999999999", 32, "tree", 4);
			loose_expect("size overflow", &b, algo, HEXOID_CODE_OBJECT_HEADER, NULL);
		}
		/* a truncated stream: long and short objects */
		{
			char big[4096];
			size_t full;
			memset(big, 'm', sizeof(big));
			commit_text(t, sizeof(t), tree, NULL, "x");
			memcpy(big, t, strlen(t));
			big[3000] = 0;
			b.n = 0;
			loose_of(&b, HEXOID_OBJ_COMMIT, big);
			full = b.n;
			for (size_t cut = 1; cut < full; cut += (cut < 40 ? 1 : 37)) {
				struct got g2 = { 0 };
				struct buf c = { b.p, cut, 0 };
				CHECK(loose_scan(&c, algo, NULL, 0, &g2, &st) == 0 && g2.n == 1 &&
					      (g2.v[0].f.code == HEXOID_CODE_ZLIB ||
					       g2.v[0].f.code == HEXOID_CODE_OBJECT_HEADER),
				      "loose cut to %zu of %zu: %zu findings (code %d)", cut, full, g2.n,
				      g2.n ? g2.v[0].f.code : 0);
				got_free(&g2);
				if (test_failed())
					break;
			}
			b.n = full / 2;
			loose_expect("truncated", &b, algo, HEXOID_CODE_ZLIB, "truncated");
			b.n = 0;
			loose_of(&b, HEXOID_OBJ_COMMIT, t);
			b.n -= 2;
			loose_expect("truncated in the checksum", &b, algo, HEXOID_CODE_ZLIB, NULL);
			/* Adler-32 wrong: short and long */
			b.n = 0;
			loose_of(&b, HEXOID_OBJ_COMMIT, "tree x\n");
			b.p[b.n - 1] ^= 1;
			loose_expect("adler short", &b, algo, HEXOID_CODE_ZLIB, NULL);
			b.n = 0;
			loose_of(&b, HEXOID_OBJ_COMMIT, big);
			b.p[b.n - 1] ^= 1;
			loose_expect("adler long", &b, algo, HEXOID_CODE_ZLIB, NULL);
		}
		/* garbage */
		b.n = 0;
		bstr(&b, "this is not a zlib stream at all");
		loose_expect("garbage", &b, algo, HEXOID_CODE_ZLIB, NULL);
		b.n = 0;
		CHECK(loose_scan(&b, algo, NULL, 0, &g, &st) == 0 && g.n == 1, "empty file: %zu", g.n);
		got_free(&g);
		/* no algo: -1 */
		{
			struct hexoid_scan_options o = HEXOID_SCAN_OPTIONS_INIT;
			CHECK(hexoid_loose_object_scan("x", "abc", 3, NULL, &o, NULL) == -1, "algo 0");
			o.algo = algo;
			CHECK(hexoid_loose_object_scan("x", NULL, 3, NULL, &o, NULL) == -1, "NULL data");
		}
		bfree(&b);
	}
}

/*
 * NULL options are bad arguments, not a crash. hexoid_pack.h: "Returns ... -1 on bad
 * arguments", as hexoid_pack_scan_buffers() does for NULL options.
 * Input: hexoid_loose_object_scan("x", data, size, NULL, NULL, NULL) and
 * hexoid_loose_scan("/tmp", NULL, NULL, err, sizeof(err)), in a child process so that a
 * crash does not take the runner with it.
 * Expected: -1 from both.
 */
TEST(loose_null_options)
{
	pid_t pid;
	int status = 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char err[64];
		int a = hexoid_loose_object_scan("x", "abc", 3, NULL, NULL, NULL);
		int b = hexoid_loose_scan("/tmp", NULL, NULL, err, sizeof(err));
		_exit(a == -1 && b == -1 ? 0 : 1);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "NULL options: the child %s %d (want -1 from both)",
	      WIFSIGNALED(status) ? "died of signal" : "exited with", WIFSIGNALED(status)
										? WTERMSIG(status)
										: WEXITSTATUS(status));
}

/*
 * Bytes after the end of a loose commit's zlib stream are damage. Git refuses such an
 * object, 2.x and 3.0 alike (object-file.c, unpack_loose_rest: "garbage at end of loose
 * object"), as the pack side of this module reports the same thing in a pack ("zlib
 * stream ends N bytes before the next object").
 * Input: a good loose commit (zlib of "commit <n>\0<text>") followed by "JUNK"
 * (commits and tags are inflated in full, so the end of the stream is in view).
 * Expected: one HEXOID_CODE_ZLIB finding, and the commit not counted as checked.
 */
TEST(loose_garbage_after_stream)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		char tree[HEXOID_MAX_HEXSZ + 1], t[1024];
		struct buf b = { 0 };
		hexid(tree, algo, 99);
		commit_text(t, sizeof(t), tree, NULL, "with bytes after its stream");
		loose_of(&b, HEXOID_OBJ_COMMIT, t);
		bstr(&b, "JUNK");
		loose_expect("garbage after the stream", &b, algo, HEXOID_CODE_ZLIB, NULL);
		/* (Blobs and trees are read no further than their header, by design.) */
		bfree(&b);
	}
}

/* Write a loose object under objs, named by its ID; `upper` bit 0 uppercases the letters
 * of the file name, bit 1 those of the folder name. Gives the name's hex and the ID. */
static void put_loose(const char *objs, enum hexoid_algo algo, unsigned type, const char *content,
		      unsigned upper, char *hex_out, unsigned char *oid_out)
{
	unsigned char oid[HEXOID_MAX_RAWSZ];
	char hex[HEXOID_MAX_HEXSZ + 1], path[1024];
	struct buf b = { 0 };
	size_t hexsz = hexoid_hexsz(algo);
	oid_of(algo, type, content, strlen(content), oid);
	hexoid_encode(hex, hexsz, oid, 1, algo);
	hex[hexsz] = 0;
	for (size_t i = 0; i < hexsz; i++)
		if (upper & (i < 2 ? 2u : 1u))
			hex[i] = (char)toupper((unsigned char)hex[i]);
	snprintf(path, sizeof(path), "%s/%.2s", objs, hex);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/%.2s/%s", objs, hex, hex + 2);
	loose_of(&b, type, content);
	write_file(path, b.p, b.n);
	bfree(&b);
	if (hex_out)
		strcpy(hex_out, hex);
	if (oid_out)
		memcpy(oid_out, oid, hexoid_rawsz(algo));
}

TEST(loose_scan_dir)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		char dir[] = "/tmp/hexoid-loose-XXXXXX", objs[256], path[1024], err[256];
		char tree[HEXOID_MAX_HEXSZ + 1], up[HEXOID_MAX_HEXSZ + 1], t[1024];
		char hx[8][HEXOID_MAX_HEXSZ + 1];
		unsigned char oid[8][HEXOID_MAX_RAWSZ];
		struct hexoid_scan_options o;
		struct hexoid_scan_stats st = HEXOID_SCAN_STATS_INIT;
		struct got g = { 0 };
		size_t hexsz = hexoid_hexsz(algo);
		int rc;

		if (!mkdtemp(dir)) {
			CHECK(0, "mkdtemp");
			return;
		}
		snprintf(objs, sizeof(objs), "%s/objects", dir);
		mkdir(objs, 0777);
		hexid(tree, algo, 91);
		strcpy(up, tree);
		upper_at(up, 0);

		/* clean: a commit, a tag, a blob; plus names that are not objects */
		commit_text(t, sizeof(t), tree, NULL, "loose clean");
		put_loose(objs, algo, HEXOID_OBJ_COMMIT, t, 0, hx[0], oid[0]);
		tag_text(t, sizeof(t), tree, "commit", "loose tag");
		put_loose(objs, algo, HEXOID_OBJ_TAG, t, 0, hx[1], oid[1]);
		put_loose(objs, algo, HEXOID_OBJ_BLOB, "blob bytes\n", 0, hx[2], oid[2]);
		snprintf(path, sizeof(path), "%s/pack", objs);
		mkdir(path, 0777);
		snprintf(path, sizeof(path), "%s/pack/pack-1.idx", objs);
		write_file(path, "junk", 4);
		snprintf(path, sizeof(path), "%s/info", objs);
		mkdir(path, 0777);
		snprintf(path, sizeof(path), "%s/%.2s/tmp_obj_XyZ", objs, hx[0]);
		write_file(path, "junk", 4);
		snprintf(path, sizeof(path), "%s/%.2s/%.*sG", objs, hx[0], (int)hexsz - 3, hx[0] + 2);
		write_file(path, "junk", 4); /* right length, not hex */
		snprintf(path, sizeof(path), "%s/%.2s/%s0", objs, hx[0], hx[0] + 2);
		write_file(path, "junk", 4); /* too long */
		snprintf(path, sizeof(path), "%s/zz", objs);
		mkdir(path, 0777);
		snprintf(path, sizeof(path), "%s/zz/%s", objs, hx[0] + 2);
		write_file(path, "junk", 4); /* folder not hex */

		memset(&o, 0, sizeof(o));

		o.size = sizeof(o);
		o.algo = algo;
		o.verify_ids = 1;
		o.on_finding = collect;
		o.ctx = &g;
		rc = hexoid_loose_scan(objs, &o, &st, err, sizeof(err));
		CHECK(rc == 0 && g.n == 0 && st.objects == 3 && st.commits == 1 && st.tags == 1,
		      "loose dir clean: rc %d, %zu findings, %llu objects", rc, g.n,
		      (unsigned long long)st.objects);
		if (g.n)
			dump("loose clean", &g);
		got_free(&g);

		/* uppercase: a file name, a folder name; and a commit with an uppercase tree */
		commit_text(t, sizeof(t), tree, NULL, "named in uppercase");
		put_loose(objs, algo, HEXOID_OBJ_COMMIT, t, 1, hx[3], oid[3]);
		/* a commit whose folder name has a letter (a-f), in uppercase */
		for (unsigned k = 0;; k++) {
			unsigned char id[HEXOID_MAX_RAWSZ];
			char msg[64];
			snprintf(msg, sizeof(msg), "in an uppercase folder %u", k);
			commit_text(t, sizeof(t), tree, NULL, msg);
			oid_of(algo, HEXOID_OBJ_COMMIT, t, strlen(t), id);
			if ((id[0] >> 4) >= 10 || (id[0] & 15) >= 10)
				break;
		}
		put_loose(objs, algo, HEXOID_OBJ_COMMIT, t, 2, hx[4], oid[4]);
		commit_text(t, sizeof(t), up, NULL, "uppercase inside");
		put_loose(objs, algo, HEXOID_OBJ_COMMIT, t, 0, hx[5], oid[5]);
		rc = hexoid_loose_scan(objs, &o, &st, err, sizeof(err));
		{
			/* What should be found, sorted by path (strcmp order). */
			struct want {
				char path[1024];
				enum hexoid_code code;
				int has_oid;
				const unsigned char *oid;
			} w[4];
			size_t nw = 0;
			int upper_folder = strcspn(hx[4], "ABCDEF") < 2;
			int upper_name = strcspn(hx[3] + 2, "ABCDEF") < hexsz - 2;
			if (upper_folder) {
				snprintf(w[nw].path, sizeof(w[nw].path), "%s/%.2s", objs, hx[4]);
				w[nw].code = HEXOID_CODE_UPPERCASE_ID, w[nw].has_oid = 0, w[nw].oid = NULL;
				nw++;
			}
			if (upper_name) {
				snprintf(w[nw].path, sizeof(w[nw].path), "%s/%.2s/%s", objs, hx[3], hx[3] + 2);
				w[nw].code = HEXOID_CODE_UPPERCASE_ID, w[nw].has_oid = 1, w[nw].oid = oid[3];
				nw++;
			}
			snprintf(w[nw].path, sizeof(w[nw].path), "%s/%.2s/%s", objs, hx[5], hx[5] + 2);
			w[nw].code = HEXOID_CODE_UPPERCASE_ID, w[nw].has_oid = 1, w[nw].oid = oid[5];
			nw++;
			/* sort the wanted by path */
			for (size_t i = 1; i < nw; i++)
				for (size_t j = i; j > 0 && strcmp(w[j - 1].path, w[j].path) > 0; j--) {
					struct want tmp = w[j];
					w[j] = w[j - 1];
					w[j - 1] = tmp;
				}
			CHECK(rc == 0 && g.n == nw && st.objects == 6 && st.git3 == nw,
			      "loose dir uppercase: rc %d, %zu findings (want %zu), %llu objects", rc,
			      g.n, nw, (unsigned long long)st.objects);
			for (size_t i = 0; i < nw && i < g.n; i++) {
				const struct hexoid_finding *f = &g.v[i].f;
				CHECK(!strcmp(g.v[i].path, w[i].path) && f->code == w[i].code &&
					      f->cls == HEXOID_CLASS_GIT3 && f->has_oid == w[i].has_oid &&
					      (!w[i].oid || !memcmp(f->oid, w[i].oid, hexoid_rawsz(algo))) &&
					      f->offset == HEXOID_NO_OFFSET,
				      "loose dir finding %zu: want %s, got %s (code %d has_oid %d)", i,
				      w[i].path, g.v[i].path, f->code, f->has_oid);
			}
			if (g.n != nw)
				dump("loose dir", &g);
			CHECK(upper_folder && upper_name, "the test's names have uppercase");
		}
		got_free(&g);
		/* stop */
		g.stop_at = 1;
		CHECK(hexoid_loose_scan(objs, &o, &st, err, sizeof(err)) == 1 && g.calls == 1,
		      "loose dir stop");
		got_free(&g);
		/* a damaged object file, and an unreadable one (a folder in its place) */
		snprintf(path, sizeof(path), "%s/%.2s/%s", objs, hx[2], hx[2] + 2);
		write_file(path, "garbage", 7);
		{
			char hexd[HEXOID_MAX_HEXSZ + 1];
			memset(hexd, 'e', hexsz);
			hexd[hexsz] = 0;
			snprintf(path, sizeof(path), "%s/ee", objs);
			mkdir(path, 0777);
			snprintf(path, sizeof(path), "%s/ee/%s", objs, hexd + 2);
			mkdir(path, 0777);
			/* an empty file */
			memset(hexd, 'f', hexsz);
			snprintf(path, sizeof(path), "%s/ff", objs);
			mkdir(path, 0777);
			snprintf(path, sizeof(path), "%s/ff/%s", objs, hexd + 2);
			write_file(path, "", 0);
		}
		rc = hexoid_loose_scan(objs, &o, &st, err, sizeof(err));
		{
			int zl = 0, io = 0, hd = 0;
			for (size_t i = 0; i < g.n; i++) {
				zl += g.v[i].f.code == HEXOID_CODE_ZLIB && strstr(g.v[i].path, hx[2] + 2);
				io += g.v[i].f.code == HEXOID_CODE_UNREADABLE && strstr(g.v[i].path, "/ee/");
				hd += g.v[i].f.code == HEXOID_CODE_OBJECT_HEADER && strstr(g.v[i].path, "/ff/");
			}
			/* (a file that cannot be read may or may not count as an object) */
			CHECK(rc == 0 && zl == 1 && io == 1 && hd == 1 && g.n == 6 &&
				      (st.objects == 7 || st.objects == 8),
			      "loose dir damage: zlib %d io %d header %d, %zu findings, objects %llu", zl,
			      io, hd, g.n, (unsigned long long)st.objects);
			if (g.n != 6)
				dump("loose damage", &g);
		}
		got_free(&g);
		/* no such folder; no algo */
		snprintf(path, sizeof(path), "%s/nothing", dir);
		CHECK(hexoid_loose_scan(path, &o, &st, err, sizeof(err)) == -1 && strstr(err, "nothing"),
		      "missing folder: %s", err);
		o.algo = (enum hexoid_algo)0;
		CHECK(hexoid_loose_scan(objs, &o, &st, err, sizeof(err)) == -1, "no algo");
		rm_tree(dir);
	}
}
