/*
 * hexoid_object_check: the object-ID headers of commits and tags, line by line, as Git
 * 3.0 will parse them.
 * SPDX-License-Identifier: MIT
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pack_build.h"
#include "test.h"

/* --- hexoid_object_check ------------------------------------------------------------ */

struct probs {
	struct hexoid_header_problem v[16];
	int n;
	int stop_at;
};

static int on_problem(void *ctx, const struct hexoid_header_problem *p)
{
	struct probs *ps = ctx;
	if (ps->n < 16)
		ps->v[ps->n] = *p;
	ps->n++;
	return ps->stop_at && ps->n >= ps->stop_at;
}

/* One problem exactly: code, header, line, column, message piece; and the count agrees
 * with fn == NULL. */
static void obj_expect(const char *what, enum hexoid_object_type type, const char *text,
		       enum hexoid_algo algo, enum hexoid_code code, const char *header,
		       unsigned line, unsigned column, const char *sub)
{
	struct probs ps = { .n = 0 };
	int rc = hexoid_object_check(type, text, strlen(text), algo, on_problem, &ps);
	int rc0 = hexoid_object_check(type, text, strlen(text), algo, NULL, NULL);
	int ok = rc == 1 && ps.n == 1 && ps.v[0].code == code && ps.v[0].header &&
		 !strcmp(ps.v[0].header, header) && ps.v[0].line == line &&
		 ps.v[0].column == column && (!sub || strstr(ps.v[0].message, sub));
	CHECK(ok, "%s: want code %d %s at %u:%u \"%s\"; got rc %d n %d", what, code, header, line,
	      column, sub ? sub : "", rc, ps.n);
	if (!ok && ps.n)
		printf("    # got code %d %s at %u:%u: %s\n", ps.v[0].code,
		       ps.v[0].header ? ps.v[0].header : "-", ps.v[0].line, ps.v[0].column,
		       ps.v[0].message);
	CHECK(rc0 == rc, "%s: counting without fn gives %d, with fn %d", what, rc0, rc);
}

static void obj_clean(const char *what, enum hexoid_object_type type, const char *text,
		      enum hexoid_algo algo)
{
	struct probs ps = { .n = 0 };
	int rc = hexoid_object_check(type, text, strlen(text), algo, on_problem, &ps);
	CHECK(rc == 0 && ps.n == 0, "%s: want no problem, got rc %d (%s at %u:%u)", what, rc,
	      ps.n ? ps.v[0].message : "", ps.n ? ps.v[0].line : 0, ps.n ? ps.v[0].column : 0);
}

static void object_check_algo(enum hexoid_algo algo)
{
	const char *an = algo == HEXOID_SHA1 ? "sha1" : "sha256";
	size_t hexsz = hexoid_hexsz(algo);
	char h[3][HEXOID_MAX_HEXSZ + 1], u[HEXOID_MAX_HEXSZ + 1], t[2048], what[96];
	const char *parents[3];
	size_t at;

	for (unsigned i = 0; i < 3; i++)
		hexid(h[i], algo, 100 + i);
	parents[0] = h[1];
	parents[1] = h[2];
	parents[2] = NULL;

	/* A clean merge commit with a mergetag whose continuation lines hold junk IDs. */
	snprintf(t, sizeof(t),
		 "tree %s\nparent %s\nparent %s\n%smergetag object %s\n type commit\n tag v1\n"
		 " object %s\n parent XYZ\n \n tree 0\n\nmessage\ntree NOTHEX\nparent %s\n",
		 h[0], h[1], h[2], AUTHOR, h[1], "BAD", "bad");
	snprintf(what, sizeof(what), "%s clean merge commit", an);
	obj_clean(what, HEXOID_OBJ_COMMIT, t, algo);

	/* tree: uppercase at the first letter from index 5: column 6 + index. */
	strcpy(u, h[0]);
	at = upper_at(u, 5);
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree uppercase", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_UPPERCASE_ID, "tree", 1,
		   (unsigned)(6 + at), "uppercase");
	/* ... at the very first digit: column 6. */
	strcpy(u, h[0]);
	u[0] = 'F';
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree uppercase first", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_UPPERCASE_ID, "tree", 1, 6, "'F'");
	/* ... all uppercase: still the first letter. */
	for (size_t i = 0; i < hexsz; i++)
		u[i] = (char)toupper((unsigned char)h[0][i]);
	at = strcspn(u, "ABCDEF");
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree all uppercase", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_UPPERCASE_ID, "tree", 1,
		   (unsigned)(6 + at), NULL);
	/* invalid digit: wrong for both, even with uppercase before it. */
	strcpy(u, h[0]);
	u[0] = 'A';
	u[9] = 'g';
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree invalid digit", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_BAD_ID, "tree", 1, 15, "'g'");
	/* a non-printable byte */
	strcpy(u, h[0]);
	u[3] = '\x01';
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree control byte", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_BAD_ID, "tree", 1, 9, "0x01");
	/* short: one digit missing; the newline is the first bad byte. */
	strcpy(u, h[0]);
	u[hexsz - 1] = 0;
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree short", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_BAD_ID, "tree", 1,
		   (unsigned)(6 + hexsz - 1), "characters");
	/* short and uppercase: wrong for both */
	u[0] = 'A';
	commit_text(t, sizeof(t), u, parents, "m");
	snprintf(what, sizeof(what), "%s tree short uppercase", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_BAD_ID, "tree", 1,
		   (unsigned)(6 + hexsz - 1), NULL);
	/* long: one digit too many */
	snprintf(u, sizeof(u), "%s", h[0]);
	{
		char longer[HEXOID_MAX_HEXSZ + 2];
		snprintf(longer, sizeof(longer), "%s0", h[0]);
		commit_text(t, sizeof(t), longer, parents, "m");
	}
	snprintf(what, sizeof(what), "%s tree long", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_BAD_ID, "tree", 1,
		   (unsigned)(6 + hexsz), "characters");
	/* empty ID: "tree \n" */
	commit_text(t, sizeof(t), "", parents, "m");
	snprintf(what, sizeof(what), "%s tree empty", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_BAD_ID, "tree", 1, 6, NULL);
	/* a CR before the newline makes it long */
	{
		char cr[HEXOID_MAX_HEXSZ + 2];
		snprintf(cr, sizeof(cr), "%s\r", h[0]);
		commit_text(t, sizeof(t), cr, NULL, "m");
		snprintf(what, sizeof(what), "%s tree CRLF", an);
		obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_BAD_ID, "tree", 1,
			   (unsigned)(6 + hexsz), NULL);
	}

	/* parent: column 8, on lines 2 and 3 */
	strcpy(u, h[2]);
	at = upper_at(u, 0);
	{
		const char *ps2[] = { h[1], u, NULL };
		commit_text(t, sizeof(t), h[0], ps2, "m");
	}
	snprintf(what, sizeof(what), "%s second parent uppercase", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_UPPERCASE_ID, "parent", 3,
		   (unsigned)(8 + at), NULL);
	strcpy(u, h[1]);
	u[0] = 'B';
	{
		const char *ps2[] = { u, NULL };
		commit_text(t, sizeof(t), h[0], ps2, "m");
	}
	snprintf(what, sizeof(what), "%s parent uppercase first", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_UPPERCASE_ID, "parent", 2, 8, "'B'");
	strcpy(u, h[1]);
	u[hexsz - 2] = 0;
	{
		const char *ps2[] = { u, NULL };
		commit_text(t, sizeof(t), h[0], ps2, "m");
	}
	snprintf(what, sizeof(what), "%s parent short", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_BAD_ID, "parent", 2,
		   (unsigned)(8 + hexsz - 2), NULL);

	/* mergetag object: column 17, on its own line */
	strcpy(u, h[1]);
	u[0] = 'C';
	snprintf(t, sizeof(t), "tree %s\nparent %s\n%smergetag object %s\n type commit\n tag v1\n\nm\n",
		 h[0], h[2], AUTHOR, u);
	snprintf(what, sizeof(what), "%s mergetag object uppercase", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_UPPERCASE_ID, "mergetag object", 5,
		   17, "'C'");
	u[0] = 'z';
	snprintf(t, sizeof(t), "tree %s\nparent %s\n%smergetag object %s\n type commit\n tag v1\n\nm\n",
		 h[0], h[2], AUTHOR, u);
	snprintf(what, sizeof(what), "%s mergetag object invalid", an);
	obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_BAD_ID, "mergetag object", 5, 17,
		   "'z'");

	/* A tag's object: column 8. A commit's "object" line is nothing to check, nor a
	 * tag's "tree"/"parent". */
	strcpy(u, h[0]);
	at = upper_at(u, 3);
	tag_text(t, sizeof(t), u, "commit", "m");
	snprintf(what, sizeof(what), "%s tag object uppercase", an);
	obj_expect(what, HEXOID_OBJ_TAG, t, algo, HEXOID_CODE_UPPERCASE_ID, "object", 1,
		   (unsigned)(8 + at), NULL);
	snprintf(what, sizeof(what), "%s same text as a commit", an);
	obj_clean(what, HEXOID_OBJ_COMMIT, t, algo);
	snprintf(t, sizeof(t), "object %s\ntype commit\ntree %s\nparent NOPE\n\n", h[0], "XYZ");
	snprintf(what, sizeof(what), "%s tag with tree and parent lines", an);
	obj_clean(what, HEXOID_OBJ_TAG, t, algo);
	u[hexsz - 1] = 0;
	tag_text(t, sizeof(t), u, "commit", "m");
	snprintf(what, sizeof(what), "%s tag object short", an);
	obj_expect(what, HEXOID_OBJ_TAG, t, algo, HEXOID_CODE_BAD_ID, "object", 1,
		   (unsigned)(8 + hexsz - 1), NULL);

	/* Headers end at the first empty line: uppercase after it is the message. */
	strcpy(u, h[0]);
	u[0] = 'D';
	snprintf(t, sizeof(t), "tree %s\n%s\ntree %s\nparent %s\n", h[0], AUTHOR, u, u);
	snprintf(what, sizeof(what), "%s after the blank line", an);
	obj_clean(what, HEXOID_OBJ_COMMIT, t, algo);
	snprintf(t, sizeof(t), "\ntree %s\n", u);
	snprintf(what, sizeof(what), "%s blank first line", an);
	obj_clean(what, HEXOID_OBJ_COMMIT, t, algo);
	/* Continuation lines (a space first) are not headers. */
	snprintf(t, sizeof(t), "tree %s\ngpgsig -----BEGIN\n tree %s\n parent %s\n object %s\n\n",
		 h[0], u, u, u);
	snprintf(what, sizeof(what), "%s continuation lines", an);
	obj_clean(what, HEXOID_OBJ_COMMIT, t, algo);
	/* Look-alike header names are not headers. */
	snprintf(t, sizeof(t), "tree %s\nparents %s\ntreetop %s\nmergetag objects %s\n\n", h[0], u,
		 u, u);
	snprintf(what, sizeof(what), "%s look-alike headers", an);
	obj_clean(what, HEXOID_OBJ_COMMIT, t, algo);

	/* The other algo's length is wrong here. */
	{
		char other[HEXOID_MAX_HEXSZ + 1];
		enum hexoid_algo oa = algo == HEXOID_SHA1 ? HEXOID_SHA256 : HEXOID_SHA1;
		hexid(other, oa, 7);
		commit_text(t, sizeof(t), other, NULL, "m");
		snprintf(what, sizeof(what), "%s tree of the other hash", an);
		obj_expect(what, HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_BAD_ID, "tree", 1,
			   (unsigned)(6 + (hexsz < strlen(other) ? hexsz : strlen(other))), NULL);
	}

	/* Several problems, in order; counting; stopping early. */
	{
		char u0[HEXOID_MAX_HEXSZ + 1], u1[HEXOID_MAX_HEXSZ + 1];
		const char *ps2[3];
		struct probs ps = { .n = 0 };
		int rc;
		strcpy(u0, h[0]);
		u0[1] = 'E';
		strcpy(u1, h[1]);
		u1[2] = 'q';
		ps2[0] = u1;
		ps2[1] = u0;
		ps2[2] = NULL;
		commit_text(t, sizeof(t), u0, ps2, "m");
		rc = hexoid_object_check(HEXOID_OBJ_COMMIT, t, strlen(t), algo, on_problem, &ps);
		CHECK(rc == 3 && ps.n == 3, "%s: three problems: rc %d n %d", an, rc, ps.n);
		CHECK(ps.n >= 3 && ps.v[0].line == 1 && ps.v[0].column == 7 &&
			      ps.v[0].code == HEXOID_CODE_UPPERCASE_ID && ps.v[1].line == 2 &&
			      ps.v[1].column == 10 && ps.v[1].code == HEXOID_CODE_BAD_ID &&
			      ps.v[2].line == 3 && ps.v[2].column == 9 &&
			      ps.v[2].code == HEXOID_CODE_UPPERCASE_ID,
		      "%s: three problems in order", an);
		CHECK(hexoid_object_check(HEXOID_OBJ_COMMIT, t, strlen(t), algo, NULL, NULL) == 3,
		      "%s: NULL fn counts 3", an);
		memset(&ps, 0, sizeof(ps));
		ps.stop_at = 1;
		rc = hexoid_object_check(HEXOID_OBJ_COMMIT, t, strlen(t), algo, on_problem, &ps);
		CHECK(rc == 1 && ps.n == 1, "%s: stop at the first: rc %d, calls %d", an, rc, ps.n);
		memset(&ps, 0, sizeof(ps));
		ps.stop_at = 2;
		rc = hexoid_object_check(HEXOID_OBJ_COMMIT, t, strlen(t), algo, on_problem, &ps);
		CHECK(rc == 2 && ps.n == 2, "%s: stop at the second: rc %d, calls %d", an, rc, ps.n);
	}

	/* Not a commit or tag, or no such algo: -1. */
	commit_text(t, sizeof(t), h[0], NULL, "m");
	CHECK(hexoid_object_check(HEXOID_OBJ_BLOB, t, strlen(t), algo, NULL, NULL) == -1, "%s: blob", an);
	CHECK(hexoid_object_check(HEXOID_OBJ_TREE, t, strlen(t), algo, NULL, NULL) == -1, "%s: tree", an);
	CHECK(hexoid_object_check(HEXOID_OBJ_OFS_DELTA, t, strlen(t), algo, NULL, NULL) == -1, "%s: delta", an);
	CHECK(hexoid_object_check((enum hexoid_object_type)9, t, strlen(t), algo, NULL, NULL) == -1, "%s: type 9", an);
	CHECK(hexoid_object_check(HEXOID_OBJ_COMMIT, t, strlen(t), (enum hexoid_algo)0, NULL, NULL) == -1, "%s: algo 0", an);
	CHECK(hexoid_object_check(HEXOID_OBJ_COMMIT, t, strlen(t), (enum hexoid_algo)3, NULL, NULL) == -1, "%s: algo 3", an);
	CHECK(hexoid_object_check(HEXOID_OBJ_COMMIT, "", 0, algo, NULL, NULL) == 0, "%s: empty", an);
}

TEST(pack_object_check)
{
	object_check_algo(HEXOID_SHA1);
	object_check_algo(HEXOID_SHA256);
	CHECK(!strcmp(hexoid_object_type_name(HEXOID_OBJ_COMMIT), "commit") &&
		      !strcmp(hexoid_object_type_name(HEXOID_OBJ_REF_DELTA), "ref-delta") &&
		      hexoid_object_type_name((enum hexoid_object_type)5) == NULL,
	      "type names");
	CHECK(!strcmp(hexoid_code_description(HEXOID_CODE_CRC32_MISMATCH), "crc32 mismatch"), "finding name");
}

/*
 * An ID at the very end of the text, with no newline after it, is cut short:
 * hexoid_pack.h says each must be "exactly hexsz hex digits and a newline" (git's
 * parse_commit_buffer and parse_tag_buffer reject it too).
 * Input: "tree <hexsz lowercase hex>" (no '\n'), as a commit; likewise "parent",
 * "mergetag object" and a tag's "object", SHA-1 and SHA-256.
 * Expected: 1 problem, HEXOID_CODE_BAD_ID, at the header's line, at the column where the
 * newline belongs (46 for "tree" with SHA-1).
 */
TEST(pack_object_check_no_final_newline)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		size_t hexsz = hexoid_hexsz(algo);
		char h[HEXOID_MAX_HEXSZ + 1], t[512];
		hexid(h, algo, 5);
		snprintf(t, sizeof(t), "tree %s", h);
		obj_expect("tree at the end without a newline", HEXOID_OBJ_COMMIT, t, algo,
			   HEXOID_CODE_BAD_ID, "tree", 1, (unsigned)(6 + hexsz), NULL);
		snprintf(t, sizeof(t), "tree %s\nparent %s", h, h);
		obj_expect("parent at the end without a newline", HEXOID_OBJ_COMMIT, t, algo,
			   HEXOID_CODE_BAD_ID, "parent", 2, (unsigned)(8 + hexsz), NULL);
		snprintf(t, sizeof(t), "object %s", h);
		obj_expect("tag object at the end without a newline", HEXOID_OBJ_TAG, t, algo,
			   HEXOID_CODE_BAD_ID, "object", 1, (unsigned)(8 + hexsz), NULL);
		snprintf(t, sizeof(t), "tree %s\nmergetag object %s", h, h);
		obj_expect("mergetag object at the end without a newline", HEXOID_OBJ_COMMIT, t,
			   algo, HEXOID_CODE_BAD_ID, "mergetag object", 2, (unsigned)(17 + hexsz), NULL);
		/* Short at the end of the text is found, for comparison. */
		snprintf(t, sizeof(t), "tree %.*s", (int)hexsz - 1, h);
		obj_expect("short tree at the end", HEXOID_OBJ_COMMIT, t, algo, HEXOID_CODE_BAD_ID,
			   "tree", 1, (unsigned)(6 + hexsz - 1), NULL);
	}
}

/*
 * text == NULL with len == 0 is an empty text, which the function accepts (it rejects
 * only NULL with a length), and must be handled without pointer arithmetic on the null
 * pointer: that is undefined behaviour in C, which clang's -fsanitize=undefined reports
 * ("applying zero offset to null pointer") and, with -fno-sanitize-recover, aborts on.
 * GCC's sanitizer does not check it, so only a clang sanitizer build (make check-sanitize
 * CC=clang) can catch it; the call runs in a child so that an abort does not take the
 * runner with it.
 * Input: hexoid_object_check(HEXOID_OBJ_COMMIT, NULL, 0, HEXOID_SHA1, NULL, NULL), and
 * the same for a tag with SHA-256.
 * Expected: 0 problems, no sanitizer report.
 */
TEST(pack_object_check_null_empty_text)
{
	pid_t pid;
	int status = 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(hexoid_object_check(HEXOID_OBJ_COMMIT, NULL, 0, HEXOID_SHA1, NULL, NULL) == 0 &&
				      hexoid_object_check(HEXOID_OBJ_TAG, NULL, 0, HEXOID_SHA256, NULL,
							  NULL) == 0
			      ? 0
			      : 1);
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "NULL, 0: the child %s %d (want 0 problems)",
	      WIFSIGNALED(status) ? "died of signal" : "exited with",
	      WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

/*
 * An uppercase ID that ends the text with no newline after it is cut short, not merely
 * uppercase: Git 2.x rejects it too, for the missing newline. hexoid_pack.h: "an ID that
 * only uppercase makes wrong is HEXOID_CODE_UPPERCASE_ID, anything else HEXOID_CODE_BAD_ID"
 * (as a short uppercase ID is).
 * Input: "tree <hexsz hex digits, the first 'A'>" with no '\n', as a commit, and
 * "object <the same>" as a tag, SHA-1 and SHA-256.
 * Expected: 1 problem, HEXOID_CODE_BAD_ID, line 1, at the column where the newline
 * belongs (46 for "tree" with SHA-1), not HEXOID_CODE_UPPERCASE_ID at the first 'A'.
 */
TEST(pack_object_check_upper_without_final_newline)
{
	for (enum hexoid_algo algo = HEXOID_SHA1; algo <= HEXOID_SHA256; algo++) {
		size_t hexsz = hexoid_hexsz(algo);
		char h[HEXOID_MAX_HEXSZ + 1], t[512];
		hexid(h, algo, 6);
		h[0] = 'A';
		snprintf(t, sizeof(t), "tree %s", h);
		obj_expect("uppercase tree at the end without a newline", HEXOID_OBJ_COMMIT, t, algo,
			   HEXOID_CODE_BAD_ID, "tree", 1, (unsigned)(6 + hexsz), NULL);
		snprintf(t, sizeof(t), "object %s", h);
		obj_expect("uppercase tag object at the end without a newline", HEXOID_OBJ_TAG, t,
			   algo, HEXOID_CODE_BAD_ID, "object", 1, (unsigned)(8 + hexsz), NULL);
	}
}
