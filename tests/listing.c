/*
 * hexoid_decode_at and the listing checker: the same problems and IDs whatever the
 * sizes of the pieces a listing is fed in.
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "formats/listing/listing.h"
#include "formats/scan.h"
#include "hexoid_listing.h"
#include "test.h"

TEST(listing_decode_at_matches_reference)
{
	enum { N = 300 };
	static char base[N * 100];
	static unsigned char out[N * 32], want[32];
	size_t offsets[N];
	for (int iter = 0; iter < 200; iter++) {
		size_t hexsz = iter & 1 ? 64 : 40;
		enum hexoid_algo algo = hexsz == 64 ? HEXOID_SHA256 : HEXOID_SHA1;
		size_t n = test_rand() % N;
		for (size_t i = 0; i < sizeof(base); i++)
			base[i] = "0123456789abcdef"[test_rand() % 16];
		for (size_t i = 0; i < n; i++)
			offsets[i] = test_rand() % (sizeof(base) - hexsz);
		size_t bad = n && iter % 3 ? test_rand() % n : n;
		size_t badcol = test_rand() % hexsz;
		if (bad < n)
			base[offsets[bad] + badcol] = 'x';
		/* Earlier IDs may overlap the bad byte: the first ID that holds it is bad. */
		size_t first = n, firstcol = 0;
		for (size_t i = 0; i < n && first == n; i++)
			for (size_t j = 0; j < hexsz; j++)
				if (base[offsets[i] + j] == 'x') {
					first = i;
					firstcol = j;
					break;
				}
		struct hexoid_error e;
		enum hexoid_status st = hexoid_decode_at(out, base, offsets, n, algo, HEXOID_LOWER, &e);
		CHECK(first == n ? st == HEXOID_OK : st == HEXOID_EHEX && e.record == first &&
								 e.column == firstcol,
		      "decode_at n=%zu: status %d record %zu column %zu, want %zu:%zu", n, st,
		      e.record, e.column, first, firstcol);
		for (size_t i = 0; i < first && i < n; i++) {
			struct hexoid_error r;
			ref_decode(want, base + offsets[i], 1, hexsz, hexsz, HEXOID_LOWER, &r);
			CHECK(!memcmp(out + i * hexsz / 2, want, hexsz / 2), "decode_at ID %zu differs", i);
		}
		if (bad < n)
			base[offsets[bad] + badcol] = '0';
	}
}

/* What a listing run produced, to compare runs fed in different pieces. */
struct record {
	char text[8192];
	size_t len;
};

static int note_problem(void *ctx, const struct hexoid_problem *p)
{
	struct record *r = ctx;
	int w = snprintf(r->text + r->len, sizeof(r->text) - r->len, "P%llu:%zu:%d:%s\n", p->line,
			 p->column, p->status, p->message);
	if (w > 0 && (size_t)w < sizeof(r->text) - r->len)
		r->len += (size_t)w;
	return 0;
}

static int note_oid(void *ctx, unsigned long long line, size_t column, const unsigned char *raw,
		    size_t rawsz)
{
	struct record *r = ctx;
	int w = snprintf(r->text + r->len, sizeof(r->text) - r->len, "O%llu:%zu:%02x%02x:%zu\n",
			 line, column, raw[0], raw[rawsz - 1], rawsz);
	if (w > 0 && (size_t)w < sizeof(r->text) - r->len)
		r->len += (size_t)w;
	return 0;
}

static void run_listing(enum hexoid_format format, const char *text, size_t len, size_t piece,
			struct record *r)
{
	memset(r, 0, sizeof(*r));
	struct hexoid_listing *l =
		hexoid_listing_new(format, 0, HEXOID_LOWER, note_problem, note_oid, r);
	for (size_t p = 0; p < len; p += piece)
		hexoid_listing_feed(l, text + p, len - p < piece ? len - p : piece);
	hexoid_listing_finish(l);
	hexoid_listing_free(l);
}

/* AUTO could not tell the format: it said so once, and nothing else. */
static int cannot_tell(const struct record *r)
{
	static const char want[] = "P1:1:1:cannot tell which git output this is: name it with "
				   "--format=..., or --format=text\n";
	return r->len == sizeof(want) - 1 && !memcmp(r->text, want, r->len);
}

TEST(listing_same_result_whatever_the_pieces)
{
	static const char text[] =
		"4b825dc642cb6eb9a060e54bf8d69288fbee4904\n"
		"e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 dir/file name\n"
		"4b825dc642cb6eb9a060e54bf8d69288fbee4904 \n"
		"4b825dc642cb6eb9a060E54bf8d69288fbee4904 upper\n"
		"4b825dc642cb6eb9a060e54bf8d69288fbee490\n"
		"\n"
		"4b825dc642cb6eb9a060e54bf8d69288fbee4904\r\n"
		"e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 last line, no newline";
	static struct record whole, piece;
	/* AUTO: an empty line is no line of rev-list's, nor of any format's. */
	for (int f = 0; f < 2; f++) {
		enum hexoid_format format = f ? HEXOID_FORMAT_AUTO : HEXOID_FORMAT_REV_LIST;
		run_listing(format, text, sizeof(text) - 1, sizeof(text), &whole);
		CHECK(f ? cannot_tell(&whole)
			: strstr(whole.text, "P4:21:2:uppercase") && strstr(whole.text, "P5:40:1:") &&
				  strstr(whole.text, "P6:1:1:empty line") &&
				  strstr(whole.text, "P7:41:1:carriage return") &&
				  strstr(whole.text, "O8:1:e691:20"),
		      "%s: unexpected result:\n%s", hexoid_format_name(format), whole.text);
		for (size_t size = 1; size < 90; size++) {
			run_listing(format, text, sizeof(text) - 1, size, &piece);
			CHECK(whole.len == piece.len && !memcmp(whole.text, piece.text, whole.len),
			      "fed %zu bytes at a time:\n%s\nvs whole:\n%s", size, piece.text,
			      whole.text);
		}
	}
}

TEST(listing_arguments)
{
	CHECK(!hexoid_listing_new(HEXOID_FORMAT_COUNT, 0, HEXOID_LOWER, NULL, NULL, NULL),
	      "unknown format");
	CHECK(!hexoid_listing_new(HEXOID_FORMAT_OIDS, (enum hexoid_algo)7, HEXOID_LOWER, NULL,
				  NULL, NULL),
	      "unknown algo");
	CHECK(!hexoid_listing_new(HEXOID_FORMAT_OIDS, 0, (enum hexoid_kind)3, NULL, NULL, NULL),
	      "unknown kind");
	for (int f = 0; f < HEXOID_FORMAT_COUNT; f++)
		CHECK(hexoid_format_from_name(hexoid_format_name((enum hexoid_format)f)) == f,
		      "format %d name", f);
	CHECK(hexoid_format_from_name("nope") == -1 && !hexoid_format_name(HEXOID_FORMAT_COUNT),
	      "unknown names");
	/* Without callbacks it still counts. */
	struct hexoid_listing *l =
		hexoid_listing_new(HEXOID_FORMAT_OIDS, HEXOID_SHA1, HEXOID_LOWER, NULL, NULL, NULL);
	hexoid_listing_feed(l, "4b825dc642cb6eb9a060e54bf8d69288fbee4904\nzz\n", 44);
	hexoid_listing_finish(l);
	struct hexoid_listing_stats st;
	hexoid_listing_stats(l, &st);
	CHECK(st.lines == 2 && st.oids == 1 && st.problems == 1 && st.algo == HEXOID_SHA1,
	      "stats %llu %llu %llu", st.lines, st.oids, st.problems);
	hexoid_listing_free(l);
}

/* One pass: every ID of a line on its own, and an uppercase digit is EUPPER only in an
 * ID that would be valid with uppercase allowed. */
TEST(listing_every_id_one_pass)
{
	static const char text[] =
		/* a reflog line, both IDs bad: two problems */
		"4b825dc642cb6eb9a060E54bf8d69288fbee4904 e69de29bb2d1d6434b8b29ae775ad8c2e48x5391"
		" A U Thor <a@example.com> 1700000000 +0000\tcommit: x\n"
		/* uppercase, then a non-hex byte in the same ID: EHEX at that byte */
		"4b825dc642cB6eb9a060e54bf8dG9288fbee4904 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
		" A U Thor <a@example.com> 1700000000 +0000\tcommit: y\n"
		/* an uppercase ID, then the grammar broken after it: both */
		"4b825dc642cb6eb9a060e54bf8d69288fbee490F e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\n"
		/* an uppercase ID that is too long: too long only */
		"4b825dc642cb6eb9a060e54bf8d69288fbee490F0 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
		" A U Thor <a@example.com> 1700000000 +0000\tcommit: z\n";
	static struct record r;
	run_listing(HEXOID_FORMAT_REFLOG, text, sizeof(text) - 1, sizeof(text), &r);
	static const char want[] =
		"P1:21:2:uppercase hex digit 'E' in object ID: Git 3.0 accepts only lowercase (--mixed allows it)\n"
		"P1:77:1:invalid hex digit 'x' in object ID\n"
		"P2:28:1:invalid hex digit 'G' in object ID\n"
		"P3:40:2:uppercase hex digit 'F' in object ID: Git 3.0 accepts only lowercase (--mixed allows it)\n"
		"P3:82:1:expected a space after the new object ID, found the end of the line\n"
		"P4:41:1:object ID too long: more than 40 hex digits (sha1)\n";
	CHECK(r.len == sizeof(want) - 1 && !memcmp(r.text, want, r.len), "got:\n%.*s\nwant:\n%s",
	      (int)r.len, r.text, want);
	struct hexoid_listing *l =
		hexoid_listing_new(HEXOID_FORMAT_REFLOG, 0, HEXOID_LOWER, NULL, NULL, NULL);
	hexoid_listing_feed(l, text, sizeof(text) - 1);
	hexoid_listing_finish(l);
	struct hexoid_listing_stats st;
	hexoid_listing_stats(l, &st);
	CHECK(st.lines == 4 && st.bad_lines == 4 && st.problems == 6 && st.oids == 0,
	      "stats: lines %llu bad %llu problems %llu oids %llu", st.lines, st.bad_lines,
	      st.problems, st.oids);
	hexoid_listing_free(l);
}

/* Every format's shapes, fed whole and in pieces of every size up to 90 bytes: the same
 * problems and IDs. The bundle's pack holds newlines and NULs; -z records end in NUL. */
TEST(listing_every_format_whatever_the_pieces)
{
#define A "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
#define B "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
#define U "4b825dc642cb6eb9a060E54bf8d69288fbee4904"
#define I "0123456789abcdef0123456789abcdef0123456g"
#define Z16 "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
#define C(format, text, want) { format, text, sizeof(text) - 1, want, 0 }
#define C_GIVEN(format, text, want) { format, text, sizeof(text) - 1, want, 1 }
	static const struct {
		enum hexoid_format format;
		const char *text;
		size_t len;
		const char *want; /* a substring of the whole run's record */
		int given_only;   /* only with the format given: auto may read it otherwise, or
				     say that it cannot tell */
	} cases[] = {
		C(HEXOID_FORMAT_REV_LIST, A "\n-" B "\n?" A "\n" A " " B " " U "\n" A " \n" B " d/f\n" A " " B "\n", "P4:103:2:"),
		/* A missing object's line one digit short: the grammar's report, not a fast
		 * line's read of '?' as a digit. */
		C(HEXOID_FORMAT_REV_LIST, A "\n?4b825dc642cb6eb9a060e54bf8d69288fbee490 \n" B "\n", "P2:41:"),
		/* Named like IDs, paths all the same: after the commits (a line that was an ID
		 * alone makes "<oid> " a tree), and after a tree as the first line. */
		C(HEXOID_FORMAT_REV_LIST, A "\n" B " \n" A " " I "\n" B " " U "\n", "O4:1:e691:20"),
		C(HEXOID_FORMAT_REV_LIST, B " \n" A " " I "\n" A " " U "\n" U "\n", "P4:21:2:"),
		/* Parents: a '-' in one is reported; a root commit's line among them. */
		C(HEXOID_FORMAT_REV_LIST, A " " B "\n" B " \n" A " " B " 4b825dc642-b6eb9a060e54bf8d69288fbee4904\n", "P3:93:1:invalid hex digit '-'"),
		C(HEXOID_FORMAT_REV_LIST, B " \n" A " " B "\n" A " " B " 4b825dc642cb6eb9a060e54bf8d69288fbee490\n", "P3:122:1:object ID too short"),
		/* log --format='%H %T %P' and '%H %P %T': a root commit's empty %P ends its
		 * line in a space or makes two in a row; the IDs after it are still IDs. */
		C(HEXOID_FORMAT_REV_LIST, A " " B " \n" A " " B " " U "\n", "P2:103:2:"),
		C(HEXOID_FORMAT_REV_LIST, A "  " B "\n" A " " B " " U "\n", "P2:103:2:"),
		C(HEXOID_FORMAT_REV_LIST, A "  " U "\n" A " " B " " A "\n", "P1:63:2:"),
		/* rev-list's marks: --left-right, --cherry-mark, --filter-print-omitted. */
		C(HEXOID_FORMAT_REV_LIST, "<" A " " B "\n>" B " " A "\n=" A "\n+" B "\n-" A "\n~" U "\n", "P6:22:2:"),
		C(HEXOID_FORMAT_REV_LIST, ">" A "\n<" B "\n" A " d/f\n" "~" B "\n", "O4:2:"),
		/* git cherry [-v]. */
		C(HEXOID_FORMAT_CHERRY, "+ " A "\n- " B " a subject\n+ " U "\n", "P3:23:2:"),
		C_GIVEN(HEXOID_FORMAT_CHERRY, "+ " A "\n+" B "\n= " A "\n", "P2:2:1:expected a space after the mark"),
		/* git submodule status. */
		C(HEXOID_FORMAT_SUBMODULE_STATUS, " " A " sm (heads/main)\n+" B " sm (v1-1-g" "e69de29)\n-" A " s m\nU" U " x\n", "P4:22:2:"),
		C_GIVEN(HEXOID_FORMAT_SUBMODULE_STATUS, " " A " sm\n*" A " sm\n " A "\n", "P2:1:1:expected ' ', '+', '-' or 'U'"),
		/* replace -l --format=medium and long: the replacement's ID too. */
		C(HEXOID_FORMAT_REPLACE, A " -> " B "\n" A " -> " U "\n", "P2:65:2:"),
		C(HEXOID_FORMAT_REPLACE, A " (commit) -> " B " (commit)\n" A " (tree) -> " U " (tree)\n", "P2:72:2:"),
		C_GIVEN(HEXOID_FORMAT_REPLACE, A "\n" A " -> " B " (tree)\n" A " (tre) -> " B "\n" A " (tree) -> " B "\n" A "-> " B "\n", "P2:85:1:expected the end of the line"),
		/* for-each-ref with %(*objectname): empty for a ref that is no tag. */
		C(HEXOID_FORMAT_REF_PEELED, A "  refs/heads/m\n" A " " U " refs/tags/v\n", "P2:62:2:"),
		C(HEXOID_FORMAT_REF_PEELED, A " " U " refs/tags/v\n" A "  refs/heads/m\n", "P1:62:2:"),
		C_GIVEN(HEXOID_FORMAT_REF_PEELED, A "  refs/heads/m\n" A "   refs/x\n" A " " B "\n", "P2:43:1:"),
		/* %(rest): any text after the type, or none. */
		C(HEXOID_FORMAT_BATCH_CHECK, A " commit some rest\n" B " tree \n" A " blob 12 " I "\n" U " blob x y\n", "P4:21:2:"),
		/* Lines that almost fit the fast lines of each format, between ones that do. */
		C(HEXOID_FORMAT_REV_LIST, A " " B "\n" A " " U "\n" A " 4b825dc642cb6eb9a060e54bf8d69288fbee49G4\n" A " " B "\r\n" A " " B " " A "\n" B "\n" A " " B " " U "\n" A " " B "  " A "\n" A " " B " " A " \n" A " " B " 4b825dc642cb6eb9a060e54bf8d69288fbee4-04\n", "P3:80:1:invalid hex digit 'G'"),
		C_GIVEN(HEXOID_FORMAT_BATCH_CHECK, A " blob 12 30 " B "\n" A " tree 1 2 " U "\n" A " blob 12 30 4b825dc642cb6eb9a060e54bf8d69288fbee49G4\n" A " blob 123456789012345678901 3 " B "\n" A " blob 12345678901234567890 1234567890123456789 " B "\n" A " commit 1  " B "\n" A " tag 1 2 " B "\r\n" A " blob 12 30 " B " \n", "P2:71:2:"),
		C_GIVEN(HEXOID_FORMAT_LS_TREE, "100644 blob " A "\tf\n100648 blob " A "\tf\n100644 blib " A "\tf\n100644  blob " A "\tf\n040000 tree " A "\t\n100644 blob " A " \tf\n100644 blob " A "       -\tf\n100644 blob " A " 123456789012345678901\tf\n100644 blob " A "      12 \tf\n160000 commit " U "\tsm\n100644 tag " A "x\tf\r\n", "P10:35:2:"),
		C_GIVEN(HEXOID_FORMAT_LS_FILES, "100644 " A " 0\tf\n100644 " A " 3\tf\n100644 " A " 4\tf\n100644 " A " 0\t\n10064 " A " 0\tf\n100644 " U " 0 \tf\n100644 " A "\r0\tf\n", "P3:49:1:expected the stage"),
		C_GIVEN(HEXOID_FORMAT_DIFF_RAW, ":100644 100644 " A " " B " M\tf\n:100644 100644 " A " " B " R100\ta\tb\n:100644 100644 " A " " B " Z\tf\n:100644 100644 " A " " B " M\t\n::100644 100644 100644 " A " " B " " A " MM\tf\n:100644 100644 " A " " U " M f\n:100644 100644 " A "  " B " M\tf\n" A "\n" U "\n" A " " B "\n", "P9:21:2:"),
		C_GIVEN(HEXOID_FORMAT_FOR_EACH_REF, A " commit\trefs/heads/m\n" A " tag\trefs/tags/v\n" A " blob\t\n" A " blob\trefs/a b\n" A " comma\trefs/x\n" A "\tcommit\trefs/x\n" U " tree\trefs/t\r\n", "P7:21:2:"),
		C(HEXOID_FORMAT_SHOW_REF, A " refs/heads/m\n" A " \n" A " refs/a\tb\n" A "  refs/x\n" A " HEAD\r\n" U " refs/tags/v1^{}\n", "P6:21:2:"),
		C_GIVEN(HEXOID_FORMAT_PACKED_REFS, "# pack-refs with: peeled fully-peeled sorted \n" A " refs/heads/m\n^" B "\n^" B " x\n^" U "\n#" A " refs/x\n" B " refs/y\r\n", "P5:22:2:"),
		C_GIVEN(HEXOID_FORMAT_LS_REMOTE, "ref: refs/heads/main\tHEAD\n" A "\tHEAD\n" A "\t\n" A " HEAD\n" A "\trefs/a b\n" U "\trefs/tags/v1^{}\n", "P6:21:2:"),
		C_GIVEN(HEXOID_FORMAT_REFLOG, A " " B " a <a@b> 1 +0000\tm\n" A " " B " \n" A " " B "\n" A "  " B " a <a@b> 1 +0000\tm\n" U " " U " a <a@b> 1 +0000\tm\n", "P5:62:2:"),
		C_GIVEN(HEXOID_FORMAT_FETCH_HEAD, A "\t\tbranch 'main' of x\n" A "\tnot-for-merge\tbranch 'x' of y\n" A "\tnot-for-merg\tx\n" A "\t\n" A " \tx\n" U "\t\tx\n", "P6:21:2:"),
		C_GIVEN(HEXOID_FORMAT_MARKS, ":1 " A "\n:123456789012345678901 " A "\n:1  " A "\n: " A "\n:7 " A " \n:8 " U "\n:9 " A "\r\n", "P6:24:2:"),
		C_GIVEN(HEXOID_FORMAT_SHOW_INDEX, "12 " A " (0123abcd)\n12 " A " (0123ABCD)\n12 " A " (0123abc)\n12 " A "\n " A " (0123abcd)\n12 " U " (0123abcd)\n12 " A " (0123abcd) \n", "P6:24:2:"),
		C(HEXOID_FORMAT_LS_TREE, "100644 blob " A "      12\tf\n040000 tree " U "       -\td\n160000 commit " B "\tsm\n", "P2:33:2:"),
		C_GIVEN(HEXOID_FORMAT_LS_FILES, "100644 " A " 0\tf\n160000 " U " 0\tsm\n100644 " B " 4\tx\n", "P3:49:1:expected the stage"),
		C(HEXOID_FORMAT_LS_REMOTE, A "\tHEAD\n" U "\trefs/tags/v1^{}\n", "P2:21:2:"),
		C(HEXOID_FORMAT_SHOW_REF, A " HEAD\n" B " refs/tags/v1^{}\n" U " refs/x\n", "P3:21:2:"),
		C(HEXOID_FORMAT_DIFF_RAW, A "\n:100644 100644 " A " " U " M\tf\n::100644 100644 100644 " A " " B " " B " MM\tg\n:100644 100644 4b825dc e69de29 M\tf\n", "P4:16:1:abbreviated"),
		C(HEXOID_FORMAT_FSCK, "dangling blob " A "\nroot " B "\ntagged commit " A " (v1) in " U "\nbroken link from tree " A "\n              to blob " B "\nmissing blob " B "\n", "P3:84:2:"),
		C_GIVEN(HEXOID_FORMAT_MARKS, ":1 " A "\n:22 " U "\n:x " B "\n", "P3:2:1:expected the mark's number"),
		C(HEXOID_FORMAT_BATCH_CHECK, A " blob 12 30 " B "\n" A " 12\n" U " tree 1 2 " A "\nnosuch missing\n", "P3:21:2:"),
		C(HEXOID_FORMAT_BUNDLE, "# v3 git bundle\n@object-format=sha1\n@filter=blob:none\n-" A " subject\n" U " refs/heads/main\n\nPACK\n\0\n" U "\n", "P5:21:2:"),
		C(HEXOID_FORMAT_BUNDLE, "# v2 git bundle\n" A " HEAD\n\nPAC", "P4:4:1:the bundle ends before its pack"),
		C(HEXOID_FORMAT_LS_TREE_Z, "100644 blob " A "\tf\n1\0" "100644 blob " U "\tg\0", "P2:33:2:"),
		C(HEXOID_FORMAT_LS_FILES_Z, "100644 " A " 0\tf\0" "100644 " U " 1\tg\0", "P2:28:2:"),
		C_GIVEN(HEXOID_FORMAT_LS_TREE_Z, "100644 blob " A "\ta\nb\0" "100644 blob " A "\t\0" "100644 blob " A "      12\tf\0" "100644 blob " A "\n\tf\0" "160000 commit " U "\tsm\0", "P5:35:2:"),
		C_GIVEN(HEXOID_FORMAT_LS_FILES_Z, "100644 " A " 0\tf\0" "100644 " A " 0\t\0" "100644 " A " 9\tf\0" "100644 " U " 2\t\n\0", "P4:28:2:"),
		/* More than AUTO's 64 NULs before the first newline: what it chooses from
		 * depends on the bytes, not on where the pieces end. */
		C_GIVEN(HEXOID_FORMAT_MARKS, ":? f4103e1c241f1853b0eb" Z16 Z16 Z16 Z16 Z16 "\n:4 " A "\n:6 " B "\n",
		  "P1:2:1:expected the mark's number"),
		/* Records that span lines: log --pretty=raw (a merge, --parents, a tag's
		 * decoration, a signature's lines), cat-file -p of a commit, whose message is
		 * not indented, and of a tag. */
		C(HEXOID_FORMAT_PRETTY_RAW, "commit " A " " B " " A " (tag: v1)\ntree " A "\nparent " B "\nparent " A "\nauthor a <a@b> 1 +0000\ngpgsig -----BEGIN\n x\n -----END\n\n    Merge\n\n    body\n\ncommit " B "\ntree " U "\n\n    c\n", "P15:26:2:"),
		C(HEXOID_FORMAT_PRETTY_RAW, "tree " A "\nparent " U "\nauthor a <a@b> 1 +0000\n\nsubject\n\ncommit " B "\ntree x\n", "P2:28:2:"),
		C(HEXOID_FORMAT_PRETTY_RAW, "object " A "\ntype commit\ntag v1\ntagger a <a@b> 1 +0000\nmergetag object " U "\n\nmessage\n", "P5:37:2:"),
		C_GIVEN(HEXOID_FORMAT_PRETTY_RAW, "commit " A "\ntree " A "\nAuthor: a\n", "P3:1:1:expected a header"),
		C(HEXOID_FORMAT_PRETTY_RAW, "commit " A "\ntree " A "\n\n    m\n\ncommit " U "\n", "P6:28:2:"),
		/* rev-list --format: commit lines, then what the format made; lines of IDs are
		 * IDs, in other lines the words that look like IDs. */
		C(HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A " " B "\nsubject " B "\ncommit " B "\n" A " " U "\n", "P4:62:2:"),
		C(HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A "\nrevert 4b825dc642cb6eb9a060e54bf8d69288fbee49g4 x\ncommit foo\n", "P2:46:1:invalid hex digit 'g'"),
		C_GIVEN(HEXOID_FORMAT_REV_LIST_FORMAT, "\ncommit " A "\ns\n", "P1:1:1:empty line"),
		/* %B: a message's empty lines, and the one after it (auto cannot tell it
		 * from git log's own output). */
		C_GIVEN(HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A "\ns\n\nbody\n\ncommit " U "\n\n", "P6:28:2:"),
		/* log --raw: a blank line between a commit's line and its diff, only there. */
		C(HEXOID_FORMAT_DIFF_RAW, A "\n\n:100644 100644 " A " " B " M\tf\n:100644 100644 " A " " B " M\tg\n" B "\n" A "\n\n:000000 100644 " A " " U " A\tf\n", "P8:77:2:"),
		C_GIVEN(HEXOID_FORMAT_DIFF_RAW, A "\n\n" B "\n:100644 100644 " A " " B " M\tf\n\n", "P3:1:1:expected a line of the diff"),
		C_GIVEN(HEXOID_FORMAT_DIFF_RAW, ":100644 100644 " A " " B " M\tf\n\n:100644 100644 " A " " B " M\tf\n", "P2:1:1:empty line"),
		/* blame --porcelain: a group's first line, headers (names of hex letters and
		 * others), previous <oid> <path>, the file's line after a tab. */
		C(HEXOID_FORMAT_BLAME, A " 1 1 2\nauthor a\nauthor-mail <a@b>\nboundary\nprevious " B " f\nfilename f\n\tline\n" A " 2 2\n\t" A "\n" U " 3 3 1\nsummary s\nfilename " A "\n\t\n", "P10:21:2:"),
		C(HEXOID_FORMAT_BLAME, A " 1 1 1\nprevious " U " f\n\tx\n", "P2:30:2:"),
		C_GIVEN(HEXOID_FORMAT_BLAME, A " 1 1 1\n\tx\n4b825dc 2 2\n", "P3:1:1:abbreviated object ID: 7 hex digits"),
		/* worktree list --porcelain. */
		C(HEXOID_FORMAT_WORKTREES, "worktree /r\nHEAD " A "\nbranch refs/heads/main\n\nworktree /r 2\nHEAD " B "\ndetached\nlocked on a stick\n\nworktree /b\nbare\n\nworktree /p\nHEAD " U "\ndetached\nprunable gitdir file points to non-existent location\n\n", "P14:26:2:"),
		C_GIVEN(HEXOID_FORMAT_WORKTREES, "worktree /r\nHEAD " A "\nbranch\n", "P3:1:1:expected a line of a worktree"),
		/* IDs a space or a tab apart, fields and lines empty: '%H%x09%P' (a root
		 * commit's line ends in the tab), %(*objectname). */
		C(HEXOID_FORMAT_ID_FIELDS, A "\t" B " " A "\n" B "\t\n\n" A "\n\n" U "\t" A "\n", "P6:21:2:"),
		C_GIVEN(HEXOID_FORMAT_ID_FIELDS, A "\t" B ":" A "\n", "P1:82:1:"),
		/* log --graph: the graph, then IDs, or the graph alone. */
		C(HEXOID_FORMAT_GRAPH, "*   " A " " B " " A "\n|\\  \n| * " B " " A "\n* | " A " \n|/  \n*-.   " U "\n", "P6:27:2:"),
		C_GIVEN(HEXOID_FORMAT_GRAPH, "* " A "\n" B "\n", "P2:1:1:expected the graph"),
		/* merge-tree --write-tree with a conflict, and --name-only. */
		C(HEXOID_FORMAT_MERGE_TREE, A "\n100644 " B " 1\tf\n100644 " U " 2\tf\n\nAuto-merging f\nCONFLICT (content): Merge conflict in f\n", "P3:28:2:"),
		C(HEXOID_FORMAT_MERGE_TREE, U "\nf\n\nAuto-merging f\n", "P1:21:2:"),
		C_GIVEN(HEXOID_FORMAT_MERGE_TREE, A "\nsubject\n" B "\n", "P3:1:1:expected a path, not an object ID"),
		/* '%(objectname) %(objecttype) %(objectsize) %(rest)' fed by rev-list
		 * --objects: after a commit's line (no rest), a path named with 40 hex digits
		 * in uppercase is the path, not a delta base. */
		C(HEXOID_FORMAT_BATCH_CHECK, A " commit 12\n" B " blob 3 0123456789ABCDEF0123456789ABCDEF01234567\n" U " tree 4 d\n", "P3:21:2:"),
		C(HEXOID_FORMAT_BATCH_CHECK, A " commit 12 30 " B "\n" A " blob 3 4 " U "\n", "P2:71:2:"),
		/* fast-export: what a data block holds is skipped, whatever it looks like. */
		C(HEXOID_FORMAT_FAST_EXPORT, "blob\nmark :1\noriginal-oid " A "\ndata 54\noriginal-oid " U "\n\ncommit refs/heads/m\nmark :2\noriginal-oid " A "\nfrom " U "\nmerge :1\nM 100644 :1 f\nM 160000 " A " sm\n", "P10:26:2:"),
		C(HEXOID_FORMAT_FAST_EXPORT, "reset refs/heads/m\nfrom " A "\n\ncommit refs/heads/m\ndata 2\nx\nN :1 " U "\n", "P7:26:2:"),
		/* A block that ends inside a line: what follows it there is at its column. */
		C(HEXOID_FORMAT_FAST_EXPORT, "commit refs/heads/m\nmark :1\ndata 6\nab\nabcfrom " U "\n", "P5:29:2:"),
		C(HEXOID_FORMAT_FAST_EXPORT, "commit refs/heads/m\nmark :1\ndata 3\nabcfrom " A "\n", "O4:9:"),
		/* Blocks of more than 64 bytes (counted 64 at a time), with lines and with
		 * none, that end inside a line. */
		C(HEXOID_FORMAT_FAST_EXPORT, "commit refs/heads/m\nmark :1\ndata 150\n"
		  "0123456789abcdef0123456789abcd\n0123456789abcdef0123456789abcd\n"
		  "0123456789abcdef0123456789abcd\n0123456789abcdef0123456789abcd\n"
		  "abcdefghijklmnopqrstuvwxyzfrom " U "\n", "P8:52:2:"),
		C(HEXOID_FORMAT_FAST_EXPORT, "commit refs/heads/m\nmark :1\ndata 70\n"
		  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxfrom " A "\n", "O4:76:"),
		C_GIVEN(HEXOID_FORMAT_FAST_EXPORT, "blob\noriginal-oid " A "\ndata 10\nabc", "P4:1:1:the stream ends 7 bytes before the end of its data block"),
		C_GIVEN(HEXOID_FORMAT_FAST_EXPORT, "blob\noriginal-oid " A "\nfrom x\n", "P3:6:1:"),
		/* merge-tree --write-tree -z: records ended by NUL, the messages' paths,
		 * types and texts (with their newlines); with --stdin, each merge's status
		 * first and an empty record last, a "1" after one read by what follows it. */
		C(HEXOID_FORMAT_MERGE_TREE_Z, A "\0" "100644 " B " 1\tf\0" "100644 " U " 2\tf\0" "\0" "1\0f\0Auto-merging\0Auto-merging f\n\0", "P3:28:2:"),
		C(HEXOID_FORMAT_MERGE_TREE_Z, "0\0" A "\0" "100644 " B " 1\tf\0" "\0" "1\0f\0CONFLICT (contents)\0CONFLICT (content): Merge conflict in f\n\0" "\0" "1\0" U "\0" "\0", "P11:21:2:"),
		C(HEXOID_FORMAT_MERGE_TREE_Z, "1\0" A "\0" "\0" "1\0" B "\0" "\0" "0\0" U "\0" "f\0" "\0" "1\0" "f\0" "t\0" "m\n\0" "\0", "P8:21:2:"),
		C_GIVEN(HEXOID_FORMAT_MERGE_TREE_Z, A "\0" "f\0" "\0" "1\0" B "\0", "P5:1:1:expected a path, not an object ID"),
		C_GIVEN(HEXOID_FORMAT_MERGE_TREE_Z, A "\0" "f\0" "\0" "x\0", "P4:1:1:expected a message's count of paths"),
		/* An abbreviated ID before any ID told the hash, then a sha256 one. */
		C(HEXOID_FORMAT_DIFF_RAW, ":000000 100644 000000000000 6be19 A\tf2\n"
		  ":000000 100644 " A "0123456789abcdef01234567 " A "0123456789abcdef01234567 A\tf\n",
		  "P1:16:1:abbreviated object ID: 12 hex digits, expected 40 (sha1) or 64 (sha256)"),
	};
	static struct record whole, piece;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		size_t len = cases[k].len;
		for (int f = 0; f < 2; f++) {
			enum hexoid_format format = f ? HEXOID_FORMAT_AUTO : cases[k].format;
			run_listing(format, cases[k].text, len, len, &whole);
			CHECK(strstr(whole.text, cases[k].want) || (f && cases[k].given_only),
			      "%s, case %zu: no %s in:\n%s",
			      hexoid_format_name(format), k, cases[k].want, whole.text);
			CHECK(!strstr(whole.text, "cannot tell which") || cannot_tell(&whole),
			      "case %zu: more than AUTO's one report:\n%s", k, whole.text);
			for (size_t size = 1; size < 90; size++) {
				/* Under a sanitizer, the sizes up to 16 and then every seventh:
				 * size 1 puts a boundary at every byte, and the native run
				 * takes every size. */
				if (TEST_SANITIZED && size > 16 && size % 7)
					continue;
				run_listing(format, cases[k].text, len, size, &piece);
				CHECK(whole.len == piece.len && !memcmp(whole.text, piece.text, whole.len),
				      "%s, case %zu, fed %zu bytes at a time:\n%s\nvs whole:\n%s",
				      hexoid_format_name(format), k, size, piece.text, whole.text);
			}
		}
	}
#undef C
#undef C_GIVEN
#undef Z16
#undef A
#undef B
#undef U
#undef I
}

/* Records over lines, with the format given and with auto: cat-file -p's message is not
 * read, whatever it holds; log's is indented, and the record after it is read whatever
 * came between (notes); a commit's mark (--left-right, --boundary, --cherry-mark) before
 * its ID in rev-list --format, rev-list --pretty=raw and log --pretty=raw. */
TEST(listing_records_messages_and_marks)
{
#define A "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
#define B "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
#define U "4b825dc642cb6eb9a060E54bf8d69288fbee4904"
#define E ":2:uppercase hex digit 'E' in object ID: Git 3.0 accepts only lowercase (--mixed allows it)\n"
	static const struct {
		enum hexoid_format format;
		const char *text, *want;
	} cases[] = {
		{ HEXOID_FORMAT_PRETTY_RAW,
		  "tree " A "\nparent " B "\nauthor a <a@b> 1 +0000\ncommitter a <a@b> 1 +0000\n\ncommit " U
		  "\n\n    commit " U "\n\ncommit " U "\ntree " U "\n",
		  "O1:6:4b04:20\nO2:8:e691:20\n" },
		{ HEXOID_FORMAT_PRETTY_RAW,
		  "commit " A "\ntree " A "\nauthor a <a@b> 1 +0000\n\n    commit " U "\n    \n    tree " U
		  "\n\nNotes:\n    n\n\ncommit " B "\ntree " U "\n",
		  "O1:8:4b04:20\nO2:6:4b04:20\nO12:8:e691:20\nP13:26" E },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit >" A "\ntree " B "\n\n    s\n\ncommit - " U "\ntree " A "\n",
		  "O1:9:4b04:20\nO2:6:e691:20\nP6:30" E "O7:6:4b04:20\n" },
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "commit <" A "\n" A " " B "\ncommit >" B "\n" B " \ncommit -" U "\n",
		  "O1:9:4b04:20\nO2:1:4b04:20\nO2:42:e691:20\nO3:9:e691:20\nO4:1:e691:20\nP5:29" E },
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "commit =" A "\nsubject\ncommit +" U "\nsubject\n",
		  "O1:9:4b04:20\nP3:29" E },
	};
	static struct record r;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		for (int f = 0; f < 2; f++) {
			enum hexoid_format format = f ? HEXOID_FORMAT_AUTO : cases[k].format;
			size_t len = strlen(cases[k].text);
			run_listing(format, cases[k].text, len, len, &r);
			CHECK(r.len == strlen(cases[k].want) && !memcmp(r.text, cases[k].want, r.len),
			      "%s, case %zu:\n%s", hexoid_format_name(format), k, r.text);
		}
#undef A
#undef B
#undef U
#undef E
}

/* --format=text: each word of an ID's length give or take two, hex but for at most two
 * bytes, is checked; nothing else is. */
TEST(listing_text_heuristic)
{
#define A "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
	static const char text[] =
		"tree " A "\n"                                   /* 1: good */
		"parent 4b825dc642cb6eb9a060E54bf8d69288fbee4904\n" /* 2: uppercase at 28 */
		"x 4b825dc642cb6eb9a060e54bf8d69288fbee490 y\n"    /* 3: one short */
		"(" A "0)\n"                                     /* 4: one long, at 42 */
		"refs/heads/0123456789abcdef0123456789abcdef0123456g\n" /* 5: 'g' at 51 */
		"0123456789abcdef0123456789abcdef0123 short, and xyzzyxyzzyxyzzyxyzzyxyzzyxyzzyxyzzyxyzzy\n"
		"\n"
		"author a <a@b> 1 +0000 " A "-" A "\n"; /* 8: two good IDs */
	static struct record whole, piece;
	run_listing(HEXOID_FORMAT_TEXT, text, sizeof(text) - 1, sizeof(text), &whole);
	static const char want[] =
		"O1:6:4b04:20\n"
		"P2:28:2:uppercase hex digit 'E' in object ID: Git 3.0 accepts only lowercase (--mixed allows it)\n"
		"P3:42:1:object ID too short: 39 hex digits, expected 40 (sha1)\n"
		"P4:42:1:object ID too long: more than 40 hex digits (sha1)\n"
		"P5:51:1:invalid hex digit 'g' in object ID\n"
		"O8:24:4b04:20\nO8:65:4b04:20\n";
	CHECK(whole.len == sizeof(want) - 1 && !memcmp(whole.text, want, whole.len),
	      "text:\n%s", whole.text);
	for (size_t size = 1; size < 90; size++) {
		run_listing(HEXOID_FORMAT_TEXT, text, sizeof(text) - 1, size, &piece);
		CHECK(whole.len == piece.len && !memcmp(whole.text, piece.text, whole.len),
		      "fed %zu bytes at a time:\n%s", size, piece.text);
	}
	/* AUTO never takes text for it. */
	run_listing(HEXOID_FORMAT_AUTO, text, sizeof(text) - 1, sizeof(text), &whole);
	CHECK(cannot_tell(&whole), "auto:\n%s", whole.text);
#undef A
}

/*
 * The fast lines against the grammar: each sample line and a few hundred mutations of it
 * (each byte replaced by one of a set, deleted, or a space put before it), after good
 * lines that tell the hash (and set the format's state), must give the same problems
 * at the same columns and the same IDs with the fast lines as with the grammar alone;
 * and so must the lines after it (its tail, if any), which read the state it left.
 */
static int z_format(enum hexoid_format format)
{
	return format == HEXOID_FORMAT_LS_TREE_Z || format == HEXOID_FORMAT_LS_FILES_Z ||
	       format == HEXOID_FORMAT_MERGE_TREE_Z;
}

static void run_mutant(enum hexoid_format format, const char *lead, const char *line, size_t len,
		       const char *tail, int grammar_only, struct record *r)
{
	static char text[1024];
	char eol = z_format(format) ? '\0' : '\n';
	size_t n = strlen(lead), t = tail ? strlen(tail) : 0;
	for (size_t i = 0; i < n; i++) /* the lead's records end as the format's do */
		text[i] = lead[i] == '\n' ? eol : lead[i];
	memcpy(text + n, line, len);
	text[n + len] = eol;
	for (size_t i = 0; i < t; i++)
		text[n + len + 1 + i] = tail[i] == '\n' ? eol : tail[i];
	memset(r, 0, sizeof(*r));
	/* With no lead, the hash is given: else the line would tell it, and go to the
	 * grammar for that. */
	struct hexoid_listing *l = hexoid_listing_new(format, n ? 0 : HEXOID_SHA1, HEXOID_LOWER,
						      note_problem, note_oid, r);
	l->grammar_only = grammar_only;
	hexoid_listing_feed(l, text, n + len + 1 + t);
	hexoid_listing_finish(l);
	hexoid_listing_free(l);
}

TEST(listing_fast_lines_as_the_grammar)
{
#define A "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
#define B "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
#define G10 "| | | | | "
#define G50 G10 G10 G10 G10 G10
	static const struct {
		enum hexoid_format format;
		const char *lead; /* good lines that tell the hash and set the state */
		const char *line;
		const char *tail; /* lines after it, each ended (or NULL) */
	} cases[] = {
		{ HEXOID_FORMAT_OIDS, A "\n", B, NULL },
		{ HEXOID_FORMAT_REV_LIST, A "\n", B " dir/file", NULL },
		{ HEXOID_FORMAT_REV_LIST, A " " B "\n", B " " A " " B, NULL },
		{ HEXOID_FORMAT_REV_LIST, A " " B "\n", B " " A, NULL },
		{ HEXOID_FORMAT_REV_LIST, A " " B "\n", "<" B " " A, NULL },
		{ HEXOID_FORMAT_REV_LIST, "=" A "\n", "~" B, NULL },
		{ HEXOID_FORMAT_REV_LIST, A "\n", "-" B, A " dir/file\n-" A "\n" },
		{ HEXOID_FORMAT_REV_LIST, A "\n" B " dir/file\n", "-" B, A " dir/file\n" },
		/* In the commits, a mark line puts the grammar in bare IDs, where an ID
		 * with an empty field ends the commits: the path after it is not read. */
		{ HEXOID_FORMAT_REV_LIST, A " " B "\n", "-" B, B " \n" A " 4b825dc642cb6eb9a060E54bf8d69288fbee4904\n" },
		{ HEXOID_FORMAT_PACK_OBJECTS, A "\n", B " name", NULL },
		{ HEXOID_FORMAT_PACK_OBJECTS, A "\n", "-" B, B " name\n-" A "\n" },
		{ HEXOID_FORMAT_PACK_OBJECTS, "-" A "\n", "-" B, "-" A "\n" B "\n" },
		{ HEXOID_FORMAT_BATCH_CHECK, A " blob 1\n", B " commit 245", NULL },
		{ HEXOID_FORMAT_BATCH_CHECK, A " blob 1\n", B " tag 12 30 " A, NULL },
		{ HEXOID_FORMAT_BATCH_CHECK, A " blob 1\n", B " blob 123456789 12345678 " A, NULL },
		{ HEXOID_FORMAT_BATCH_CHECK, A " blob 12 30 " B "\n", B " commit 245 160 " A, B " tree 1 2 " A "\n" },
		{ HEXOID_FORMAT_BATCH_CHECK, A " blob 12 30 " B "\n", B " blob 1234567", B " tree 1 2 " A "\n" },
		{ HEXOID_FORMAT_LS_TREE, "100644 blob " A "\tf\n", "040000 tree " B "\td/e", NULL },
		{ HEXOID_FORMAT_LS_TREE, "100644 blob " A "\tf\n", "100644 blob " B "      12\tf", NULL },
		{ HEXOID_FORMAT_LS_TREE_Z, "100644 blob " A "\tf\n", "160000 commit " B "\tsm", NULL },
		{ HEXOID_FORMAT_LS_FILES, "100644 " A " 0\tf\n", "100755 " B " 2\tx y", NULL },
		{ HEXOID_FORMAT_LS_FILES_Z, "100644 " A " 0\tf\n", "100755 " B " 2\tx y", NULL },
		{ HEXOID_FORMAT_DIFF_RAW, ":100644 100644 " A " " B " M\tf\n", ":000000 100644 " A " " B " R100\ta", NULL },
		{ HEXOID_FORMAT_DIFF_RAW, ":100644 100644 " A " " B " M\tf\n", B, ":100644 100644 " A " " B " M\tf\n" },
		{ HEXOID_FORMAT_DIFF_RAW, ":100644 100644 " A " " B " M\tf\n", B " " A " " B, "\n:100644 100644 " A " " B " M\tf\n" },
		{ HEXOID_FORMAT_DIFF_RAW, ":100644 100644 " A " " B " M\tf\n", B " ", "\n:100644 100644 " A " " B " M\tf\n" },
		{ HEXOID_FORMAT_DIFF_RAW, A "\n", ":100644 100644 " A " " B " M\tf", "\n" B "\n\n" },
		{ HEXOID_FORMAT_DIFF_RAW, A "\n", "", ":100644 100644 " A " " B " M\tf\n\n" },
		{ HEXOID_FORMAT_DIFF_RAW, A "\n\n", ":100644 100644 " A " " B " M\tf", "\n" B "\n" },
		{ HEXOID_FORMAT_DIFF_RAW, A "\n\n", B, ":100644 100644 " A " " B " M\tf\n" },
		{ HEXOID_FORMAT_FOR_EACH_REF, A " commit\trefs/heads/m\n", B " tag\trefs/tags/v1", NULL },
		{ HEXOID_FORMAT_PACKED_REFS, A " refs/heads/m\n", "^" B, NULL },
		{ HEXOID_FORMAT_PACKED_REFS, A " refs/heads/m\n", B " refs/tags/v1", NULL },
		{ HEXOID_FORMAT_SHOW_REF, A " refs/heads/m\n", B " refs/tags/v1^{}", NULL },
		{ HEXOID_FORMAT_SHOW_REF, A " refs/heads/m\n", B " refs/heads/abcde", NULL },
		{ HEXOID_FORMAT_SHOW_REF, A " refs/heads/m\n", B " refs/heads/abcdef", NULL },
		{ HEXOID_FORMAT_SHOW_REF, A " refs/heads/m\n", B " refs/heads/abcdefghijklmnopqrstu", NULL },
		{ HEXOID_FORMAT_LS_REMOTE, A "\trefs/heads/m\n", B "\trefs/heads/abcdefghijklmnopqrstuv", NULL },
		{ HEXOID_FORMAT_PROMISOR, A " refs/heads/m\n", B " HEAD", NULL },
		{ HEXOID_FORMAT_LS_REMOTE, A "\tHEAD\n", B "\trefs/heads/main", NULL },
		{ HEXOID_FORMAT_REFLOG, A " " B " a <a@b> 1 +0000\tm\n", B " " A " b <b@c> 2 +0100\tcommit: x", NULL },
		{ HEXOID_FORMAT_FETCH_HEAD, A "\t\tbranch 'main' of x\n", B "\tnot-for-merge\tbranch 'x' of y", NULL },
		{ HEXOID_FORMAT_MARKS, ":1 " A "\n", ":42 " B, NULL },
		{ HEXOID_FORMAT_MARKS, ":1 " A "\n", ":123456789012345 " B, NULL },
		{ HEXOID_FORMAT_MARKS, ":1 " A "\n", ":1234567890123456 " B, NULL },
		{ HEXOID_FORMAT_MARKS, ":1 " A "\n", ":12345678901234567890 " B, NULL },
		{ HEXOID_FORMAT_SHOW_INDEX, "12 " A " (0123abcd)\n", "3232 " B " (6250f05a)", NULL },
		{ HEXOID_FORMAT_SHOW_INDEX, "12 " A "\n", "3232 " B, NULL },
		{ HEXOID_FORMAT_SHOW_INDEX, "12 " A "\n", "1234567890123456 " B " (6250f05a)", NULL },
		{ HEXOID_FORMAT_SHOW_INDEX, "12 " A "\n", "12345678901234567 " B, NULL },
		{ HEXOID_FORMAT_SHOW_INDEX, "12 " A "\n", "1 " B " (6250f05a)", "12 " A "\n" },
		{ HEXOID_FORMAT_FSCK, "root " A "\n", "dangling blob " B, NULL },
		{ HEXOID_FORMAT_FSCK, "root " A "\n", "root " B, NULL },
		{ HEXOID_FORMAT_FSCK, "root " A "\n", "tagged commit " A " (v1) in " B, NULL },
		{ HEXOID_FORMAT_VERIFY_PACK, A " blob   52 59 3151\n", B " tag    136 128 12", NULL },
		{ HEXOID_FORMAT_VERIFY_PACK, A " blob   52 59 3151\n", B " commit 245 160 12 1 " A, NULL },
		{ HEXOID_FORMAT_VERIFY_PACK, A " blob   52 59 3151\n", B " blob   123456789 1234567 123456789012", NULL },
		{ HEXOID_FORMAT_VERIFY_PACK, A " blob   52 59 3151\n", B " tree   2 1 12 12345678901 " A, NULL },
		{ HEXOID_FORMAT_VERIFY_PACK, A " blob   52 59 3151\n", B " tree   2 1 123456789 1234567890 " A, NULL },
		/* A summary line that looks like a delta's: "...: ok" ends it. */
		{ HEXOID_FORMAT_VERIFY_PACK, A " blob   52 59 3151\n", B " commit 245 160 12 1 4b825dc642cb6eb9a060e54bf8d69288fbe: ok", NULL },
		{ HEXOID_FORMAT_BUNDLE, "# v2 git bundle\n" A " HEAD\n", B " refs/heads/main", NULL },
		{ HEXOID_FORMAT_BUNDLE, "# v2 git bundle\n" A " HEAD\n", "-" B " subject", NULL },
		/* rev-list --format: commit lines, lines of IDs, text (a word too short to be
		 * an ID, by one and by none), each followed by lines the state reads. */
		/* --format=text: words one byte short of what may be an ID, and as long. */
		{ HEXOID_FORMAT_TEXT, A "\n", "Merge 4b825dc642cb6eb9a060e54bf8d69288fbee49: x", "x " B "\n" },
		{ HEXOID_FORMAT_TEXT, A "\n", "(4b825dc642cb6eb9a060e54bf8d69288fbee4) \xff\r", B "\n" },
		{ HEXOID_FORMAT_TEXT, A "\n", "a subject, with 4b825dc642cb6eb9a060e54bf8d69288fbee490 in it", NULL },
		{ HEXOID_FORMAT_TEXT, A "\n", B " Merge branch 'x' into y", A "\n" },
		{ HEXOID_FORMAT_TEXT, A "\n", B, "x\n" },
		{ HEXOID_FORMAT_TEXT, A "\n", B ": revert 4b825dc642cb6eb9a060e54bf8d69288fbee49", NULL },
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A "\n", "commit " B, A " x\ncommit " A "\n" },
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A "\n", "commit " B " " A " " B, "x\n" },
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A "\n", "commit " B " ", "x\n" },
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A "\n", A " " B, "x\n" },
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A "\n", B " ", "commit " A "\n" },
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A "\n", A " " B " " A " ", "x\n" },
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A "\n", "A U Thor <author@example.com> a subject", "commit " B "\n" },
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A "\n", "commit message: 4b825dc642cb6eb9a060e54bf8d69288fbe x", "\n" },
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A "\n", "x 4b825dc642cb6eb9a060e54bf8d69288fbee x", "x\n" },
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A "\n", "a-4b825dc642cb6eb9a060e54bf8d69288fb-b", "x\n" },
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "x\ncommit " A "\n", "", "x\n" },
		/* merge-tree: its entries, a path alone (--name-only), its messages. */
		{ HEXOID_FORMAT_MERGE_TREE, A "\n", "100644 " B " 2\td/f", "100644 " A " 3\tf\n\nx\n" },
		{ HEXOID_FORMAT_MERGE_TREE, A "\nf\n", "d/e/file name", "100644 " A " 3\tf\n\nx\n" },
		{ HEXOID_FORMAT_MERGE_TREE, A "\nf\n", "", "100644 " A " 3\tf\n" },
		{ HEXOID_FORMAT_MERGE_TREE, A "\n100644 " B " 1\tf\n\n", "CONFLICT (content): Merge conflict in d/f", "x\n" },
		{ HEXOID_FORMAT_MERGE_TREE_Z, A "\n", "100644 " B " 2\td/f", "100644 " A " 3\tf\n\n1\nf\nAuto-merging\nx\n" },
		{ HEXOID_FORMAT_MERGE_TREE_Z, "1\n" A "\n", "100644 " B " 2\td/f", "\n0\n" A "\n" },
		/* log --graph: the graph, then IDs, or the graph alone. */
		{ HEXOID_FORMAT_GRAPH, "* " A "\n", "| * " B " " A, "* " A "\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n", "*-._ " B "\t" A " " B, "* " A "\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n", "* | " B " ", "* " A "\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n", "*\t" B, "* " A "\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n", "| * " B, "* " A "\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n", "* " B, NULL },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n", "*-. " B, "|\\\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n", "| |\\  \\ /", "* " A "\n" },
		/* IDs past the columns a fast line keeps, and just within them. */
		{ HEXOID_FORMAT_GRAPH, "* " A "\n", G50 G50 G50 G50 G50 G10 "* " B, NULL },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n", G50 G50 G10 G10 "  * " B " " A " " B, NULL },
		/* The same after a line of the graph and one ID, where graph_lines reads them
		 * (the first line, read before the hash is known, is the grammar's). */
		{ HEXOID_FORMAT_GRAPH, "* " A "\n* " A "\n", "| * " B " " A, "* " A "\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n* " A "\n", "* | " B " ", "* " A "\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n* " A "\n", "*\t" B, "* " A "\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n* " A "\n", "| * " B, "* " A "\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n* " A "\n", "* " B, NULL },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n* " A "\n", B, "* " A "\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n* " A "\n", "| |\\  \\ /", "* " A "\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n* " A "\n", G50 G50 G50 G50 G50 G10 "* " B, NULL },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n* " A "\n", G50 G50 G10 G10 G10 "* " B, NULL },
		/* IDs a space or a tab apart ('%H%x09%P'), and empty lines. */
		{ HEXOID_FORMAT_ID_FIELDS, A "\n", B "\t" A " " B, A "\n" },
		{ HEXOID_FORMAT_ID_FIELDS, A "\n", B "\t", A "\n" },
		{ HEXOID_FORMAT_ID_FIELDS, A "\n", B " " A "\t", A "\n" },
		{ HEXOID_FORMAT_ID_FIELDS, A "\n", "", A "\n" },
		/* blame --porcelain: a group's first line (the first of all, and later
		 * ones), headers, previous, the file's line; a name too long for a header
		 * (37 bytes, and 38). */
		{ HEXOID_FORMAT_BLAME, "", A " 1 1 2", "author a\n\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", B " 12 13", "previous " A " f\n\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", B " 12345678 1234567", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", B " 1234 123456 12345", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", B " 123456789 123456789 12345", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", B " 1 2 3 4", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n", "author-mail <a@b.c>", B " 2 2\n" },
		/* A header whose value puts a space where a group line's ID ends. */
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n", "summary Bump the version numbers to 2026 12 7", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n", "summary 0123456789abcdef0123456789abcdef 12 7", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n", "boundary", B " 2 2\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n", "0123-abc fix", B " 2 2\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n", "abcdefabcdefabcdefabcdefabcdefabcdefg x", B " 2 2\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n", "abcdefabcdefabcdefabcdefabcdefabcdefag x", B " 2 2\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n", "previous " B " d/f g", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n", "\tint main(void) {", B " 2 2\n" },
		/* The same after a file's line, where blame_lines reads them (a header's
		 * first block there, the rest out of line, as fast_header reads it). */
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "author a", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "author-mail <a@b.c>", B " 2 2\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "committer-tz +0000", B " 2 2\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "summary 0123456789abcdef0123456789abcdef 12 7", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "boundary", B " 2 2\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "0123-abc fix", B " 2 2\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "abcdefabcdefabcdef-x", B " 2 2\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "abcdefabcdefabcdefabcdefabcdefabcdefg x", B " 2 2\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "abcdefabcdefabcdefabcdefabcdefabcdefag x", B " 2 2\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "previous " B " d/f g", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "previous " B, "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "previousx " B " f", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", B " 2 2", "author a\n\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", B "  2 2", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "", "\tx\n" },
		/* for-each-ref's '%(objectname) %(*objectname) %(refname)'. */
		{ HEXOID_FORMAT_REF_PEELED, A "  refs/heads/m\n", B " " A " refs/tags/v1", NULL },
		{ HEXOID_FORMAT_REF_PEELED, A "  refs/heads/m\n", B "  refs/heads/x", NULL },
		/* replace -l, its three formats. */
		{ HEXOID_FORMAT_REPLACE, A "\n", B, NULL },
		{ HEXOID_FORMAT_REPLACE, A "\n", B " -> " A, NULL },
		{ HEXOID_FORMAT_REPLACE, A "\n", B " (commit) -> " A " (commit)", NULL },
		{ HEXOID_FORMAT_REPLACE, A "\n", B " (tag) -> " A " (blob)", NULL },
		{ HEXOID_FORMAT_REPLACE, A "\n", B " (tags) -> " A " (trees)", NULL },
		/* worktree list --porcelain: each line of a worktree; the first begins one
		 * (so HEAD after it is read), and the blank line after it. */
		{ HEXOID_FORMAT_WORKTREES, "", "worktree /r", "HEAD " A "\n" },
		{ HEXOID_FORMAT_WORKTREES, "worktree /r\n", "HEAD " B, "branch refs/heads/main\n" },
		{ HEXOID_FORMAT_WORKTREES, "worktree /r\n", "branch refs/heads/main", "HEAD " A "\n" },
		{ HEXOID_FORMAT_WORKTREES, "worktree /r\n", "detached", "HEAD " A "\n" },
		{ HEXOID_FORMAT_WORKTREES, "worktree /r\n", "bare", "HEAD " A "\n" },
		{ HEXOID_FORMAT_WORKTREES, "worktree /r\n", "locked on a stick", "HEAD " A "\n" },
		{ HEXOID_FORMAT_WORKTREES, "worktree /r\n", "prunable", "HEAD " A "\n" },
		{ HEXOID_FORMAT_WORKTREES, "worktree /r\n", "", "worktree /s\n" },
		/* submodule status, each mark. */
		{ HEXOID_FORMAT_SUBMODULE_STATUS, " " A " s\n", "+" B " lib/sub2 (heads/main)", NULL },
		{ HEXOID_FORMAT_SUBMODULE_STATUS, " " A " s\n", "U" B " lib/sub1", NULL },
		{ HEXOID_FORMAT_SUBMODULE_STATUS, " " A " s\n", "-" B " s", NULL },
		/* merge-tree -z's messages: each record moves the state on. */
		{ HEXOID_FORMAT_MERGE_TREE_Z, A "\n\n", "1", "f\nAuto-merging\nAuto-merging f\n" A "\n" },
		{ HEXOID_FORMAT_MERGE_TREE_Z, A "\n\n", "12", "f\nAuto-merging\nx\n" A "\n" },
		{ HEXOID_FORMAT_MERGE_TREE_Z, A "\n\n", "0", "Auto-merging\nx\n" A "\n" },
		{ HEXOID_FORMAT_MERGE_TREE_Z, A "\n\n1\n", "d0/e0/added0", "Auto-merging\nx\n1\n" A "\n" },
		{ HEXOID_FORMAT_MERGE_TREE_Z, A "\n\n2\nf\n", "d0/e0/added0", "Auto-merging\nx\n1\n" A "\n" },
		{ HEXOID_FORMAT_MERGE_TREE_Z, A "\n\n1\nf\n", "CONFLICT (contents)", "x\n" A "\n" },
		{ HEXOID_FORMAT_MERGE_TREE_Z, A "\n\n1\nf\nAuto-merging\n", "CONFLICT (add/add): Merge conflict in d0/e0/added0\n", A "\n1\n" },
		{ HEXOID_FORMAT_MERGE_TREE_Z, "1\n" A "\n\n2\n", "f", "g\nAuto-merging\nx\n\n" },
		/* pretty-raw: log's commit lines (first in a record, after a message, in
		 * the headers), its ID headers, other headers and their continuations, the
		 * blank line and the message after it; cat-file -p's headers and message. */
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\n", "tree " B, "parent " A "\nauthor a\n\n    m\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\ntree " B "\n", "parent " A, "parent " B "\n\n    m\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\n", "commit " B " " A " " B, "tree " A "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\n", "commit " B " (from " A ")", "tree " A "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\n", "commit " B " ", "tree " A "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\ntree " B "\n\n", "commit " B, "tree " A "\n\n    m\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\n\n    m\n\n", "commit " B " " A, "tree " A "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\ntree " B "\n\n    m\n", "    commit " B, "\ncommit " A "\ntree " B "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\ntree " B "\n\n    m\n", "Notes:", "commit " A "\n\ncommit " B "\ntree " B "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\ntree " B "\n", "", "commit " A "\ntree " B "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\ntree " B "\n", "author A U Thor <a@b.c> 1700000000 +0000", "tree " B "\n\n    m\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\ngpgsig -----BEGIN PGP SIGNATURE-----\n", " iQIzBAABCAAdFiEE", "tree " A "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\n", "mergetag object " B, " type commit\ntree " A "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\n", "abcdefabcdefabcdefabcdefabcdefabcdefg x", "tree " A "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\n", "abcdefabcdefabcdefabcdefabcdefabcdefag x", "tree " A "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "tree " A "\n", "parent " B, "\ncommit " A "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "tree " A "\n", "commit " B, "tree " B "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "object " A "\n", "type commit", "tag v1\n\ncommit " A "\n" },
		{ HEXOID_FORMAT_PRETTY_RAW, "tree " A "\n\n", "commit " A, "\ntree " B "\n" },
		/* fast-export: each command the fast lines take, and data blocks (one that
		 * ends inside the line, and the lines after one). */
#define FE "commit refs/heads/m\nmark :1\noriginal-oid " A "\n"
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "M 100644 " B " d/f", "M 100644 :1 f\nfrom " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "M 100755 :12 d/f", "from " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "M 100644 inline d/f", "data 2\nab\nfrom " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "M 100644 :1 f", "from " A "\n" },
		/* "inline" with a byte other than the space after it, where an ID ends. */
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "M 100644 inline 0123456789abcdef0123456789abcdef0 d/f", "data 2\nab\nfrom " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "original-oid " B, "from " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "from " B, "merge " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "from :12", "merge " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "merge " B, "merge :3\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "merge :3", "from " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "mark :42", "from " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "data 12", "0123456789\nfrom " A "\nM 100644 " B " f\n\nfrom " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "data 10", "from " B "\nfrom " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE "data 3\nabc", "from " B, "from " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE "data 3\nabc", "M 100644 " B " f", "from " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "commit refs/heads/main", "from " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "author A U Thor <a@b.c> 1700000000 +0000", "from " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "committer C O Mitter <c@d.e> 1700000000 +0000", "from " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "reset refs/tags/v1", "from " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "tag v1", "from " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "tagger T <t@g> 1 +0000", "from " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "blob", "mark :2\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "D d/f", "from " A "\n" },
		{ HEXOID_FORMAT_FAST_EXPORT, FE, "", "from " A "\n" },
		/* git cherry, with -v and without. */
		{ HEXOID_FORMAT_CHERRY, "+ " A "\n", "+ " B " a subject", "- " A "\n" },
		{ HEXOID_FORMAT_CHERRY, "+ " A "\n", "- " B, "+ " A " x\n" },
		{ HEXOID_FORMAT_CHERRY, "+ " A "\n", "- " B " ", "+ " A " x\n" },
#undef FE
	};
	static const char put[] = " \tX0A:(\r"; /* and, for its NUL, a deletion */
	static struct record grammar, fast;
	char m[512];
	size_t compared = 0;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const char *line = cases[k].line;
		size_t len = strlen(line);
		/* Mutation j < len * sizeof(put): byte j / sizeof(put) replaced by a byte of
		 * put[], or deleted (put[]'s NUL); then a space put before each byte; then the
		 * line itself. */
		size_t count = len * sizeof(put) + len + 1;
		for (size_t j = 0; j < count; j++) {
			size_t n = len;
			/* Under a sanitizer, every third mutation (a different third for each
			 * case); the native run takes them all. */
			if (TEST_SANITIZED && (j + k) % 3)
				continue;
			memcpy(m, line, len);
			if (j < len * sizeof(put)) {
				size_t at = j / sizeof(put), c = j % sizeof(put);
				if (put[c]) {
					m[at] = put[c];
				} else {
					memmove(m + at, m + at + 1, len - at - 1);
					n--;
				}
			} else if (j < count - 1) {
				size_t at = j - len * sizeof(put);
				memmove(m + at + 1, m + at, len - at);
				m[at] = ' ';
				n++;
			}
			run_mutant(cases[k].format, cases[k].lead, m, n, cases[k].tail, 1, &grammar);
			run_mutant(cases[k].format, cases[k].lead, m, n, cases[k].tail, 0, &fast);
			compared++;
			CHECK(grammar.len == fast.len && !memcmp(grammar.text, fast.text, grammar.len),
			      "%s, '%.*s': the grammar says\n%s\nthe fast lines:\n%s",
			      hexoid_format_name(cases[k].format), (int)n, m, grammar.text, fast.text);
		}
	}
	CHECK(compared > (TEST_SANITIZED ? 3000 : 10000), "only %zu lines compared", compared);
	/* Text passed over whole: a word of hex digits (or with a byte of punctuation in
	 * it) that is an ID's length give or take two, or just shorter, at each place in
	 * the words the fast lines test, is the grammar's to judge. */
	static const struct {
		enum hexoid_format format;
		const char *lead;
	} texts[] = {
		{ HEXOID_FORMAT_REV_LIST_FORMAT, "commit " A "\n" },
		{ HEXOID_FORMAT_MERGE_TREE, A "\n\n" },
		{ HEXOID_FORMAT_MERGE_TREE, A "\nf\n" },
		{ HEXOID_FORMAT_MERGE_TREE_Z, A "\n\n1\n" },
		{ HEXOID_FORMAT_MERGE_TREE_Z, A "\n\n1\nf\nAuto-merging\n" },
	};
	for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++)
		for (size_t at = 0; at < 18; at++)
			for (size_t w = 35; w <= 43; w++)
				for (int punct = 0; punct < 3; punct++) {
					size_t n = 0;
					for (; n < at; n++)
						m[n] = n % 3 == 2 ? ' ' : 'x';
					for (size_t i = 0; i < w; i++)
						m[n++] = "0123456789abcdef"[(i * 5 + at) % 16];
					if (punct)
						m[n - w / 2] = punct == 1 ? '-' : ' ';
					memcpy(m + n, " end", 4);
					n += at % 2 ? 4 : 0;
					run_mutant(texts[k].format, texts[k].lead, m, n, "x\n", 1, &grammar);
					run_mutant(texts[k].format, texts[k].lead, m, n, "x\n", 0, &fast);
					CHECK(grammar.len == fast.len && !memcmp(grammar.text, fast.text, grammar.len),
					      "%s, '%.*s': the grammar says\n%s\nthe fast lines:\n%s",
					      hexoid_format_name(texts[k].format), (int)n, m, grammar.text, fast.text);
				}
	/* diff-raw's status letter (column 97 of a SHA-1 line, tested as a bit of a word):
	 * every byte value there, alone and before a score. */
	for (int v = 0; v < 256; v++)
		for (int score = 0; score < 2; score++) {
			/* Under a sanitizer, every third value (a different third for each
			 * score), as above; the native run takes them all. */
			if (TEST_SANITIZED && (v + score) % 3)
				continue;
			size_t n = (size_t)snprintf(m, sizeof(m), ":100644 100644 %s %s %c%s\tf", A, B,
						    v ? v : 'M', score ? "100" : "");
			m[17 + 2 * 40] = (char)v;
			run_mutant(HEXOID_FORMAT_DIFF_RAW, A "\n", m, n, A "\n", 1, &grammar);
			run_mutant(HEXOID_FORMAT_DIFF_RAW, A "\n", m, n, A "\n", 0, &fast);
			CHECK(grammar.len == fast.len && !memcmp(grammar.text, fast.text, grammar.len),
			      "diff-raw, status byte %d: the grammar says\n%s\nthe fast lines:\n%s", v,
			      grammar.text, fast.text);
		}
#undef A
#undef B
#undef G10
#undef G50
}

/* How many lines of lead, then line (unless NULL), then tail the grammar reads. */
static unsigned long long grammar_lines(enum hexoid_format format, const char *lead,
					const char *line, const char *tail)
{
	static char text[1024];
	static struct record r;
	char eol = z_format(format) ? '\0' : '\n';
	int n = snprintf(text, sizeof(text), "%s%s%s%s", lead, line ? line : "", line ? "\n" : "",
			 tail);
	for (int i = 0; i < n; i++)
		if (text[i] == '\n')
			text[i] = eol;
	memset(&r, 0, sizeof(r));
	struct hexoid_listing *l = hexoid_listing_new(format, 0, HEXOID_LOWER, note_problem, NULL, &r);
	hexoid_listing_feed(l, text, (size_t)n);
	hexoid_listing_finish(l);
	unsigned long long got = l->grammar_lines;
	CHECK(!r.len, "%s: '%s' is no good listing:\n%s", hexoid_format_name(format), text, r.text);
	hexoid_listing_free(l);
	return got;
}

/* Lines the fast lines must take, in each state they are met in (a line declined goes to
 * the grammar, which reports the same: only this test sees a fast path lost). */
TEST(listing_fast_lines_taken)
{
#define A "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
#define B "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
	static const struct {
		enum hexoid_format format;
		const char *lead, *line, *tail;
	} cases[] = {
		{ HEXOID_FORMAT_BATCH_CHECK, A " blob 1\n", B " commit 245", "" },
		{ HEXOID_FORMAT_BATCH_CHECK, A " blob 1\n", B " blob 123456789012345", "" },
		{ HEXOID_FORMAT_BATCH_CHECK, A " blob 12 30 " B "\n", B " commit 245 160 " A, "" },
		{ HEXOID_FORMAT_BATCH_CHECK, A " blob 12 30 " B "\n", B " tree 1234567 1234567 " A, "" },
		{ HEXOID_FORMAT_VERIFY_PACK, A " blob   52 59 3151\n", B " tag    136 128 12", "" },
		{ HEXOID_FORMAT_VERIFY_PACK, A " blob   52 59 3151\n", B " commit 245 160 12 1 " A, "" },
		{ HEXOID_FORMAT_VERIFY_PACK, A " blob   52 59 3151\n", B " blob   12345 123 1234567 1234567890 " A, "" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", B " 12 13", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", B " 1 1 1", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", B " 1234567 12345678", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", B " 123456789 123456789 12345", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n", "author-mail <a@example.com>", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n", "committer-tz +0000", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n", "summary x", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "author-mail <a@example.com>", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "committer-tz +0000", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "boundary", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", "previous " B " d/f g", "\tx\n" },
		{ HEXOID_FORMAT_BLAME, A " 1 1 2\n\tx\n", B " 12 13 2", "\tx\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n", "| * " B, "* " A "\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n", "|\\", "* " A "\n" },
		{ HEXOID_FORMAT_GRAPH, "* " A "\n", "| | | | | | | | * " B, "* " A "\n" },
		{ HEXOID_FORMAT_MARKS, ":1 " A "\n", ":7 " B, "" },
		{ HEXOID_FORMAT_REV_LIST, A "\n", "-" B, "" },
		{ HEXOID_FORMAT_REV_LIST, A "\n" B " dir/file\n", ">" B, "" },
		{ HEXOID_FORMAT_SHOW_INDEX, "12 " A "\n", "3232 " B " (6250f05a)", "" },
		{ HEXOID_FORMAT_SHOW_INDEX, "12 " A "\n", "1234567890123456 " B, "" },
		{ HEXOID_FORMAT_SHOW_INDEX, "12 " A "\n", "12345678901234567890 " B " (6250f05a)", "" },
		{ HEXOID_FORMAT_MARKS, ":1 " A "\n", ":123456789012345 " B, "" },
		{ HEXOID_FORMAT_MARKS, ":1 " A "\n", ":1234567890123456 " B, "" },
		{ HEXOID_FORMAT_SHOW_REF, A " refs/heads/m\n", B " refs/tags/v1", "" },
		{ HEXOID_FORMAT_SHOW_REF, A " refs/heads/m\n", B " refs/heads/abcde", "" },
		{ HEXOID_FORMAT_SHOW_REF, A " refs/heads/m\n", B " refs/heads/abcdef", "" },
		{ HEXOID_FORMAT_SHOW_REF, A " refs/heads/m\n", B " refs/heads/abcdefghijklmnopqrstu", "" },
		{ HEXOID_FORMAT_SHOW_REF, A " refs/heads/m\n", B " refs/heads/abcdefghijklmnopqrstuv", "" },
		{ HEXOID_FORMAT_PRETTY_RAW, "commit " A "\ntree " B "\n", "committer C O Mitter <c@example.com> 1 +0000", "\nmessage\n" },
		{ HEXOID_FORMAT_MERGE_TREE_Z, A "\n\n1\nf\nAuto-merging\n", "Auto-merging f", "" },
		{ HEXOID_FORMAT_MERGE_TREE_Z, A "\n\n1\nf\nCONFLICT (contents)\n", "CONFLICT (content): Merge conflict in a/rather/long/path/name/here.c", "" },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		unsigned long long with = grammar_lines(cases[k].format, cases[k].lead, cases[k].line, cases[k].tail);
		unsigned long long without = grammar_lines(cases[k].format, cases[k].lead, NULL, cases[k].tail);
		CHECK(with == without, "%s: '%s' went to the grammar", hexoid_format_name(cases[k].format),
		      cases[k].line);
	}
#undef A
#undef B
}

/* AUTO on shapes whose first lines look like another format's: rev-list --parents of a
 * history that begins with more merges than AUTO probes (three IDs a line, as a reflog
 * has before its identity), then ordinary commits; and --objects whose commits outlast
 * the probe, then paths (a bare-ID listing that widens to rev-list). Never a report. */
/* What a long run of fast lines gave: each problem's line and column, and each decoded
 * ID checked against the one its line holds. */
struct long_run {
	unsigned long long problems[8];
	size_t problem_cols[8];
	size_t nproblems, oids, wrong;
	const size_t *line_id; /* by line: which ID it holds (its raw bytes: long_run_raw) */
	size_t nlines;
};

/* The raw bytes of the k-th ID of the listings below. */
static void long_run_raw(size_t k, unsigned char *raw)
{
	for (size_t i = 0; i < 20; i++)
		raw[i] = (unsigned char)(k * 131 + i * 7 + (k >> 8) * 17);
}

static int long_run_problem(void *ctx, const struct hexoid_problem *p)
{
	struct long_run *r = ctx;
	if (r->nproblems < 8) {
		r->problems[r->nproblems] = p->line;
		r->problem_cols[r->nproblems] = p->column;
	}
	r->nproblems++;
	return 0;
}

static int long_run_oid(void *ctx, unsigned long long line, size_t column, const unsigned char *raw,
			size_t rawsz)
{
	struct long_run *r = ctx;
	unsigned char want[20];
	(void)column;
	r->oids++;
	if (line == 0 || line > r->nlines || rawsz != 20) {
		r->wrong++;
		return 0;
	}
	long_run_raw(r->line_id[line - 1], want);
	if (memcmp(raw, want, 20))
		r->wrong++;
	return 0;
}

/*
 * Runs of fast lines longer than a batch (BATCH IDs), where blame_lines and graph_lines
 * take most of them: porcelain blame (a group's first line and the file's line, and a
 * commit's headers; previous lines only in the last batch, so that in the first two
 * nothing but the batch's room ends a run) and log --graph. Uppercase digits planted
 * just before, at and after the batches' edges are each found at their line and
 * column; every other ID is decoded, the one its line holds.
 */
TEST(listing_fast_runs_across_batches)
{
	enum { IDS = 3 * BATCH + 50, LINES = 3 * IDS };
	static const size_t planted[] = { BATCH - 9, BATCH - 8, BATCH, 2 * BATCH + 1, IDS - 1 };
	static size_t line_id[LINES];
	static char text[IDS * 160];
	for (int shape = 0; shape < 2; shape++) {
		size_t len = 0, nplanted = 0, ids = 0;
		unsigned long long line = 0, bad_line[5];
		size_t bad_col[5];
		for (size_t k = 0; k < IDS; k++) {
			unsigned char raw[20];
			char hex[41], good[41];
			long_run_raw(k, raw);
			for (size_t i = 0; i < 20; i++) {
				good[2 * i] = "0123456789abcdef"[raw[i] >> 4];
				good[2 * i + 1] = "0123456789abcdef"[raw[i] & 15];
			}
			good[40] = 0;
			memcpy(hex, good, sizeof(hex));
			size_t col = shape ? 3 : 1; /* "* " before a graph's ID */
			int bad = nplanted < 5 && planted[nplanted] == k;
			if (bad) {
				size_t at = 0;
				while (at < 40 && hex[at] >= '0' && hex[at] <= '9')
					at++;
				if (at == 40) /* all digits: make the last a letter */
					hex[at = 39] = 'a';
				hex[at] = (char)(hex[at] - 'a' + 'A');
				bad_line[nplanted] = line + 1;
				bad_col[nplanted++] = col + at;
			}
			if (shape == 0) {
				len += (size_t)sprintf(text + len, "%s %zu %zu%s\n", hex, k + 1, k + 1,
						       k % 100 == 0 ? " 1" : "");
				line_id[line++] = k;
				ids += !bad;
				if (k % 100 == 0) { /* a commit's first group: its headers */
					len += (size_t)sprintf(text + len, "author A U Thor\nauthor-tz +0000\n"
									   "summary a change\nboundary\n");
					line += 4;
				}
				if (k > 2 * BATCH + 2 && k % 37 == 0) { /* a previous line: the ID unplanted */
					len += (size_t)sprintf(text + len, "previous %s f\n", good);
					line_id[line++] = k;
					ids++;
				}
				len += (size_t)sprintf(text + len, "\tline %zu\n", k);
				line++;
			} else {
				len += (size_t)sprintf(text + len, "* %s\n", hex);
				line_id[line++] = k;
				ids += !bad;
				if (k % 50 == 0) {
					len += (size_t)sprintf(text + len, "|\\\n");
					line++;
				}
			}
		}
		struct long_run r;
		memset(&r, 0, sizeof(r));
		r.line_id = line_id;
		r.nlines = (size_t)line;
		enum hexoid_format format = shape ? HEXOID_FORMAT_GRAPH : HEXOID_FORMAT_BLAME;
		struct hexoid_listing *l =
			hexoid_listing_new(format, 0, HEXOID_LOWER, long_run_problem, long_run_oid, &r);
		hexoid_listing_feed(l, text, len);
		hexoid_listing_finish(l);
		hexoid_listing_free(l);
		CHECK(r.nproblems == nplanted, "%s: %zu problems, want %zu",
		      hexoid_format_name(format), r.nproblems, nplanted);
		for (size_t i = 0; i < nplanted && i < r.nproblems; i++)
			CHECK(r.problems[i] == bad_line[i] && r.problem_cols[i] == bad_col[i],
			      "%s: problem %zu at %llu:%zu, want %llu:%zu", hexoid_format_name(format),
			      i, r.problems[i], r.problem_cols[i], bad_line[i], bad_col[i]);
		CHECK(r.oids == ids && !r.wrong, "%s: %zu IDs decoded (%zu wrong), want %zu",
		      hexoid_format_name(format), r.oids, r.wrong, ids);
	}
}

TEST(listing_auto_past_the_probe)
{
	static char text[200 * 140];
	static struct record r;
	for (int shape = 0; shape < 2; shape++) {
		size_t len = 0;
		for (int i = 0; i < 200; i++) {
			int ids = shape == 0 ? (i < 100 ? 3 : 2) : 1;
			for (int k = 0; k < ids; k++) {
				if (k)
					text[len++] = ' ';
				for (int j = 0; j < 40; j++)
					text[len++] = "0123456789abcdef"[test_rand() % 16];
			}
			if (shape == 1 && i >= 150)
				len += (size_t)sprintf(text + len, " dir %d/file", i);
			text[len++] = '\n';
		}
		run_listing(HEXOID_FORMAT_AUTO, text, len, len, &r);
		CHECK(!strstr(r.text, "P"), "shape %d: reports:\n%.300s", shape, r.text);
		struct hexoid_listing *l =
			hexoid_listing_new(HEXOID_FORMAT_AUTO, 0, HEXOID_LOWER, NULL, NULL, NULL);
		hexoid_listing_feed(l, text, len);
		hexoid_listing_finish(l);
		struct hexoid_listing_stats st;
		hexoid_listing_stats(l, &st);
		CHECK(st.format == HEXOID_FORMAT_REV_LIST && st.problems == 0 &&
			      st.oids == (shape == 0 ? 500u : 200u),
		      "shape %d: format %s, %llu problems, %llu IDs", shape,
		      hexoid_format_name(st.format), st.problems, st.oids);
		hexoid_listing_free(l);
	}
}

/* The grammars' word-sized tests against byte-by-byte ones: every byte value in every
 * lane, and random words. */
#include "formats/listing/grammar.h"
#include "formats/listing/parsers.h"
#include "formats/scan.h"

TEST(listing_word_helpers)
{
	char w[16];
	for (int iter = 0; iter < 20000; iter++) {
		for (int i = 0; i < 16; i++)
			w[i] = (char)test_rand();
		if (iter < 256 * 8) { /* each byte value in each lane, the rest letters */
			memset(w, 'k', 16);
			w[iter % 8] = (char)(iter / 8);
		}
		uint64_t x = load64(w);
		static const unsigned ranges[][2] = { { '0', '9' }, { 'a', 'f' }, { 'a', 'z' }, { 1, 0x7f } };
		for (size_t r = 0; r < 4; r++) {
			uint64_t got = bytes_in(x, ranges[r][0], ranges[r][1]), want = 0;
			for (int i = 0; i < 8; i++)
				if ((unsigned char)w[i] >= ranges[r][0] && (unsigned char)w[i] <= ranges[r][1])
					want |= 0x80ull << (8 * i);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			want = __builtin_bswap64(want);
#endif
			CHECK(got == want, "bytes_in [%u, %u] of %016llx: %016llx, want %016llx",
			      ranges[r][0], ranges[r][1], (unsigned long long)x,
			      (unsigned long long)got, (unsigned long long)want);
		}
		size_t n = (size_t)(test_rand() % 17), blank = n;
		for (size_t i = 0; i < n && blank == n; i++)
			if (w[i] == ' ' || w[i] == '\t')
				blank = i;
		CHECK(find_blank(w, n) == blank, "find_blank: %zu, want %zu", find_blank(w, n), blank);
	}
	/* The mark sets (words of bits) against the characters git writes, every byte value. */
	for (int v = 0; v < 256; v++) {
		int rev = v && strchr("<>-=+^", v), list = v && strchr("-?<>=+~", v);
		CHECK(revision_mark((char)v) == rev && rev_list_mark((char)v) == list,
		      "byte %d: revision_mark %d (want %d), rev_list_mark %d (want %d)", v,
		      revision_mark((char)v), rev, rev_list_mark((char)v), list);
	}
	/* scan_all_hex: each byte value at each place of 40 and 64 hex digits. */
	char id[64];
	for (int sz = 40; sz <= 64; sz += 24)
		for (int at = 0; at < sz; at++)
			for (int v = 0; v < 256; v++) {
				for (int i = 0; i < sz; i++)
					id[i] = "0123456789abcdefABCDEF"[(i * 7 + v) % 22];
				id[at] = (char)v;
				int want = (v >= '0' && v <= '9') || (v >= 'a' && v <= 'f') || (v >= 'A' && v <= 'F');
				CHECK(scan_all_hex(id, (size_t)sz) == want, "scan_all_hex: byte %d at %d of %d", v, at, sz);
			}
#if defined(SCAN_SSE2)
	/* scan_graph16: each byte value at each place. */
	for (int at = 0; at < 16; at++)
		for (int v = 0; v < 256; v++) {
			char g[16];
			memset(g, '|', 16);
			g[at] = (char)v;
			uint32_t want = 0xffff & ~(strchr(" *-./\\_|", v) && v ? 0u : 1u << at);
			CHECK(scan_graph16(g) == want, "scan_graph16: byte %d at %d", v, at);
			memset(g, 'q', 16);
			g[at] = (char)v;
			uint32_t late, name = scan_header_name16(g, &late);
			int in_name = (v >= 'a' && v <= 'z') || (v >= '0' && v <= '9') || v == '-';
			CHECK(name == (0xffffu & ~(in_name ? 0u : 1u << at)) &&
				      late == (0xffffu & ~(v >= 'g' && v <= 'z' ? 0u : 1u << at)),
			      "scan_header_name16: byte %d at %d: %04x %04x", v, at, name, late);
			memset(g, 'r', 16);
			g[at] = (char)v;
			CHECK(scan_blanks16(g) == (v == ' ' || v == '\t' ? 1u << at : 0u),
			      "scan_blanks16: byte %d at %d", v, at);
			memset(g, '7', 16);
			g[at] = (char)v;
			uint32_t spaces, digits = scan_digits16(g, &spaces);
			CHECK(digits == (0xffffu & ~(v >= '0' && v <= '9' ? 0u : 1u << at)) &&
				      spaces == (v == ' ' ? 1u << at : 0u),
			      "scan_digits16: byte %d at %d: %04x %04x", v, at, digits, spaces);
			memset(g, at % 2 ? 'Q' : '5', 16);
			g[at] = (char)v;
			CHECK(scan_alnum16(g) == (0xffffu & ~(ascii_alnum((unsigned char)v) ? 0u : 1u << at)),
			      "scan_alnum16: byte %d at %d", v, at);
		}
#endif
}

/* A byte-by-byte long_word(): the first run of letters and digits in s[p, len) of min
 * bytes or more. */
static size_t long_word_bytes(const char *s, size_t len, size_t p, size_t min, size_t *end)
{
	size_t from = p;
	for (size_t i = p; i <= len; i++) {
		if (i < len && ascii_alnum((unsigned char)s[i]))
			continue;
		if (i - from >= min) {
			*end = i;
			return from;
		}
		from = i + 1;
	}
	*end = len;
	return len;
}

/* long_word() against it on random text of words and separators, each in a buffer of its
 * own length (for the sanitizers: nothing read past it), every length to 200, minimums
 * from 9 (the word loop) to 70 (the 32-byte blocks, for IDs of 40 and 64 less two). */
TEST(listing_long_word)
{
	static const char bytes[] = "a0Zk9" " -\t/\x80";
	for (int iter = 0; iter < 60000; iter++) {
		size_t len = (size_t)(test_rand() % 201), min = 9 + (size_t)(test_rand() % 62);
		size_t p = len ? (size_t)(test_rand() % (len + 1)) : 0;
		unsigned every = 1 + (unsigned)(test_rand() % 50); /* a separator 1 in `every` */
		char *s = malloc(len ? len : 1);
		CHECK(s != NULL, "malloc");
		if (!s)
			return;
		for (size_t i = 0; i < len; i++)
			s[i] = test_rand() % every ? bytes[test_rand() % 5] : bytes[5 + test_rand() % 5];
		while (p > 0 && p < len && ascii_alnum((unsigned char)s[p - 1]))
			p--; /* at a word's start or a separator, as the callers are */
		size_t end = 0, want_end = 0;
		size_t got = long_word(s, len, p, min, &end), want = long_word_bytes(s, len, p, min, &want_end);
		CHECK(got == want && (got == len || end == want_end),
		      "long_word: len %zu, from %zu, min %zu: %zu to %zu, want %zu to %zu", len, p, min,
		      got, end, want, want_end);
		free(s);
	}
}

/* Each problem's code: its stable name and class, one per kind of message. */
static int note_code(void *ctx, const struct hexoid_problem *p)
{
	struct record *r = ctx;
	int w = snprintf(r->text + r->len, sizeof(r->text) - r->len, "%llu:%s:%s:%d\n", p->line,
			 hexoid_code_name(p->code),
			 hexoid_finding_class_name(hexoid_code_class(p->code)), p->status);
	if (w > 0 && (size_t)w < sizeof(r->text) - r->len)
		r->len += (size_t)w;
	return 0;
}

TEST(listing_codes)
{
	for (int i = 1; i < HEXOID_CODE_COUNT; i++) {
		const char *name = hexoid_code_name((enum hexoid_code)i);
		CHECK(name && hexoid_code_class((enum hexoid_code)i), "code %d", i);
		for (int j = 1; j < i && name; j++)
			CHECK(strcmp(name, hexoid_code_name((enum hexoid_code)j)),
			      "codes %d and %d are both %s", j, i, name);
	}
	CHECK(!hexoid_code_name(0) && !hexoid_code_name(HEXOID_CODE_COUNT) &&
		      !hexoid_code_class(HEXOID_CODE_COUNT),
	      "unknown codes");
	static const struct {
		enum hexoid_format format;
		const char *text, *want;
	} cases[] = {
		{ HEXOID_FORMAT_OIDS,
		  "4b825dc642cb6eb9a060E54bf8d69288fbee4904\n"
		  "4b825dc642cb6eb9a060x54bf8d69288fbee4904\n"
		  "4b825dc642cb6eb9a060e54bf8d69288fbee490\n"
		  "4b825dc642cb6eb9a060e54bf8d69288fbee4904 x\n"
		  "4b825dc642cb6eb9a060e54bf8d69288fbee4904\r\n"
		  "4b825dc642cb6eb9a060e54bf8d69288fbee4904\0\n"
		  "\n"
		  "4b825dc642cb6eb9a060e54bf8d69288fbee49\x01" "4\n",
		  "1:uppercase-id:git3:2\n2:bad-hex:error:1\n3:short-id:error:1\n4:long-line:error:1\n"
		  "5:crlf:error:1\n6:nul-byte:error:1\n7:empty-line:error:1\n8:bad-hex:error:1\n" },
		{ HEXOID_FORMAT_REV_LIST, "4b825dc642cb6eb9a060e54bf8d69288fbee49041\n",
		  "1:unknown-hash:error:1\n" },
		{ HEXOID_FORMAT_REFLOG,
		  "4b825dc642cb6eb9a060e54bf8d69288fbee4904 e69de29bb2d1d6434b8b29ae775ad8c2e48c53910 x\n"
		  "4b825dc642cb6eb9a060e54bf8d69288fbee4904\n",
		  "1:long-id:error:1\n2:syntax:error:1\n" },
		{ HEXOID_FORMAT_DIFF_RAW, ":100644 100644 4b825dc e69de29 M\tf\n", "1:abbreviated-id:error:1\n" },
		{ HEXOID_FORMAT_BUNDLE, "# v2 git bundle\n4b825dc642cb6eb9a060e54bf8d69288fbee4904 HEAD\n",
		  "3:bundle-pack:error:1\n" },
	};
	static struct record r;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		memset(&r, 0, sizeof(r));
		size_t len = strlen(cases[k].text);
		if (k == 0)
			len = 41 * 2 + 40 + 43 + 42 + 42 + 1 + 41; /* it holds a NUL */
		struct hexoid_listing *l =
			hexoid_listing_new(cases[k].format, 0, HEXOID_LOWER, note_code, NULL, &r);
		hexoid_listing_feed(l, cases[k].text, len);
		hexoid_listing_finish(l);
		hexoid_listing_free(l);
		CHECK(!strcmp(r.text, cases[k].want), "case %zu: got\n%s\nwant\n%s", k, r.text,
		      cases[k].want);
	}
	/* A line longer than 1 MiB, fed in two pieces (one piece is taken whole). */
	char *big = malloc((1u << 20) + 2);
	memset(big, 'a', (1u << 20) + 1);
	big[40] = ' '; /* "<oid> <path>" */
	big[(1u << 20) + 1] = '\n';
	memset(&r, 0, sizeof(r));
	struct hexoid_listing *l =
		hexoid_listing_new(HEXOID_FORMAT_PACK_OBJECTS, HEXOID_SHA1, HEXOID_LOWER, note_code,
				   NULL, &r);
	hexoid_listing_feed(l, big, 1000);
	hexoid_listing_feed(l, big + 1000, (1u << 20) + 2 - 1000);
	hexoid_listing_finish(l);
	hexoid_listing_free(l);
	free(big);
	CHECK(strstr(r.text, "huge-line:error"), "a huge line: %s", r.text);
}

/*
 * --format=text against the rule it documents, on random text: words of every length
 * about an ID's (their letters and digits hex, or not, in either case) between every kind
 * of separator, bytes of 0x80 and more among them. Each word of 38 to 42 bytes, hex but
 * for at most two, is checked (a good one reported as an ID at its column, any other on
 * a problem line, whose good IDs are then not reported); nothing else is.
 */
TEST(listing_text_words_by_the_rule)
{
	static const char seps[] = " \t-:/.,()@[`{\x80\xff";
	static const char hex[] = "0123456789abcdef", other[] = "ghijklmnopqrstuvwxyzGXZ";
	static char text[16384], want_o[8192], want_p[4096], got_p[4096];
	static struct record r;
	for (int round = 0; round < 200; round++) {
		size_t len = 0, no = 0, np = 0;
		unsigned line = 1;
		/* The first line tells the hash: one good ID. */
		for (int i = 0; i < 40; i++)
			text[len++] = hex[i % 16];
		no += (size_t)snprintf(want_o + no, sizeof(want_o) - no, "O1:1:0167:20\n");
		text[len++] = '\n';
		for (line = 2; line < 40; line++) {
			int bad_line = 0;
			size_t words = 1 + test_rand() % 4, line_start = len, line_o = no;
			if (test_rand() % 2) /* a separator first, or the line starts with a word */
				text[len++] = seps[test_rand() % (sizeof(seps) - 1)];
			for (size_t w = 0; w < words; w++) {
				size_t n = 30 + test_rand() % 20, start = len;
				if (test_rand() % 4 == 0)
					n = 1 + test_rand() % 80;
				size_t odd = test_rand() % 4 == 0 ? test_rand() % 4 : 0;
				for (size_t i = 0; i < n; i++)
					text[len++] = hex[test_rand() % 16];
				for (size_t k = 0; k < odd; k++) /* may land on the same byte twice */
					text[start + test_rand() % n] = other[test_rand() % (sizeof(other) - 1)];
				size_t real_odd = 0, upper = 0;
				for (size_t i = start; i < len; i++) {
					real_odd += !strchr(hex, text[i]) && !(text[i] >= 'A' && text[i] <= 'F');
					upper += text[i] >= 'A' && text[i] <= 'Z';
				}
				if (n >= 38 && n <= 42 && real_odd <= 2) {
					if (n == 40 && !real_odd && !upper) {
						unsigned char first = (unsigned char)(16 * (strchr(hex, text[start]) - hex) +
										       (strchr(hex, text[start + 1]) - hex));
						unsigned char last = (unsigned char)(16 * (strchr(hex, text[len - 2]) - hex) +
										      (strchr(hex, text[len - 1]) - hex));
						no += (size_t)snprintf(want_o + no, sizeof(want_o) - no, "O%u:%zu:%02x%02x:20\n",
								       line, start - line_start + 1, first, last);
					} else {
						bad_line = 1;
					}
				}
				if (w + 1 < words)
					text[len++] = seps[test_rand() % (sizeof(seps) - 1)];
			}
			if (bad_line) {
				np += (size_t)snprintf(want_p + np, sizeof(want_p) - np, "%u\n", line);
				no = line_o;
			}
			text[len++] = '\n';
		}
		text[len] = 0;
		run_listing(HEXOID_FORMAT_TEXT, text, len, len, &r);
		/* The IDs, as they came; the lines that have problems, once each. */
		size_t go = 0, gp = 0;
		static char got_o[8192];
		unsigned last_p = 0;
		for (const char *p = r.text; *p; p = strchr(p, '\n') + 1) {
			const char *nl = strchr(p, '\n');
			if (*p == 'O') {
				memcpy(got_o + go, p, (size_t)(nl + 1 - p));
				go += (size_t)(nl + 1 - p);
			} else {
				unsigned at = (unsigned)strtoul(p + 1, NULL, 10);
				if (at != last_p)
					gp += (size_t)snprintf(got_p + gp, sizeof(got_p) - gp, "%u\n", at);
				last_p = at;
			}
		}
		got_o[go] = got_p[gp] = want_o[no] = want_p[np] = 0;
		CHECK(!strcmp(got_o, want_o) && !strcmp(got_p, want_p),
		      "round %d: IDs\n%s\nwant\n%s\nproblem lines\n%s\nwant\n%s\ntext:\n%s", round,
		      got_o, want_o, got_p, want_p, text);
	}
}
