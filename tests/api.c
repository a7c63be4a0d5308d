/*
 * The public API's contracts: sizes, argument errors, git's hex_to_bytes, kernel control.
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "hexoid_codes.h"
#include "hexoid_pack.h"
#include "test.h"

TEST(api_sizes_and_version)
{
	CHECK(hexoid_hexsz(HEXOID_SHA1) == 40 && hexoid_rawsz(HEXOID_SHA1) == 20, "sha1 sizes");
	CHECK(hexoid_hexsz(HEXOID_SHA256) == 64 && hexoid_rawsz(HEXOID_SHA256) == 32,
	      "sha256 sizes");
	CHECK(hexoid_hexsz((enum hexoid_algo)0) == 0 && hexoid_rawsz((enum hexoid_algo)3) == 0,
	      "unknown algos");
	CHECK(!strcmp(hexoid_version(), HEXOID_VERSION_STRING), "version %s", hexoid_version());
}

TEST(api_decode_arguments)
{
	char in[200];
	unsigned char out[64];
	struct hexoid_error e = { 7, 7, HEXOID_OK };
	memset(in, 'a', sizeof(in));
	CHECK(hexoid_decode(out, in, 1, 39, HEXOID_SHA1, HEXOID_LOWER, &e) == HEXOID_EARG &&
		      e.status == HEXOID_EARG && e.record == 0 && e.column == 0,
	      "stride < hexsz");
	CHECK(hexoid_decode(out, in, 1, 63, HEXOID_SHA256, HEXOID_MIXED, NULL) == HEXOID_EARG,
	      "stride < hexsz sha256");
	CHECK(hexoid_decode(out, in, 1, 40, (enum hexoid_algo)0, HEXOID_LOWER, &e) == HEXOID_EARG,
	      "unknown algo");
	CHECK(hexoid_decode(out, in, 1, 40, HEXOID_SHA1, (enum hexoid_kind)2, &e) == HEXOID_EARG,
	      "unknown kind");
	CHECK(hexoid_decode(out, in, (size_t)-1, 4096, HEXOID_SHA1, HEXOID_LOWER, &e) ==
		      HEXOID_EARG,
	      "span overflows");
	/* n == 0 reads nothing, even from NULL. */
	CHECK(hexoid_decode(NULL, NULL, 0, 40, HEXOID_SHA1, HEXOID_LOWER, &e) == HEXOID_OK,
	      "n = 0");
	CHECK(hexoid_decode(out, in, 2, 41, HEXOID_SHA1, HEXOID_LOWER, NULL) == HEXOID_OK,
	      "err may be NULL");
	in[41 + 5] = 'G';
	CHECK(hexoid_decode(out, in, 2, 41, HEXOID_SHA1, HEXOID_LOWER, &e) == HEXOID_EHEX &&
		      e.record == 1 && e.column == 5 && e.status == HEXOID_EHEX,
	      "EHEX at 1:5, got %zu:%zu", e.record, e.column);
	in[41 + 3] = 'F';
	/* The G decides, even after an F: the ID is no valid one with uppercase allowed. */
	CHECK(hexoid_decode(out, in, 2, 41, HEXOID_SHA1, HEXOID_LOWER, &e) == HEXOID_EHEX &&
		      e.record == 1 && e.column == 5 && e.status == HEXOID_EHEX,
	      "EHEX at 1:5 after an F, got %d at %zu:%zu", e.status, e.record, e.column);
	CHECK(hexoid_decode(out, in, 2, 41, HEXOID_SHA1, HEXOID_MIXED, &e) == HEXOID_EHEX &&
		      e.column == 5,
	      "MIXED accepts F, still rejects G");
	in[41 + 5] = '0';
	CHECK(hexoid_decode(out, in, 2, 41, HEXOID_SHA1, HEXOID_LOWER, &e) == HEXOID_EUPPER &&
		      e.record == 1 && e.column == 3,
	      "EUPPER at 1:3");
	/* Encode with bad arguments writes nothing. */
	memset(in, '.', sizeof(in));
	hexoid_encode(in, 39, out, 1, HEXOID_SHA1);
	hexoid_encode(in, 40, out, 1, (enum hexoid_algo)9);
	CHECK(in[0] == '.' && in[39] == '.', "encode with bad arguments wrote");
}

/* Git's hex_to_bytes(): len counts output bytes; -1 on the first bad pair. */
TEST(api_hex_to_bytes)
{
	unsigned char bin[8];
	CHECK(hexoid_hex_to_bytes(bin, "00fFa9", 3, HEXOID_MIXED) == 0 && bin[0] == 0 &&
		      bin[1] == 0xff && bin[2] == 0xa9,
	      "mixed");
	CHECK(hexoid_hex_to_bytes(bin, "00fFa9", 3, HEXOID_LOWER) == -1, "lower rejects F");
	CHECK(hexoid_hex_to_bytes(bin, "00ff", 2, HEXOID_LOWER) == 0 && bin[1] == 0xff, "lower");
	CHECK(hexoid_hex_to_bytes(bin, "zz", 0, HEXOID_LOWER) == 0, "len 0 reads nothing");
	CHECK(hexoid_hex_to_bytes(bin, "0g", 1, HEXOID_MIXED) == -1, "bad digit");
	CHECK(hexoid_hex_to_bytes(bin, "00", 1, (enum hexoid_kind)5) == -1, "bad kind");
	/* Every byte pair against the reference. */
	for (unsigned a = 0; a < 256; a++)
		for (unsigned b = 0; b < 256; b++)
			for (int k = 0; k < 2; k++) {
				char hex[2] = { (char)a, (char)b };
				unsigned char got = 0, want = 0;
				struct hexoid_error e;
				int r = hexoid_hex_to_bytes(&got, hex, 1, (enum hexoid_kind)k);
				/* the reference needs whole records: pad a pair to 40 digits */
				char rec[40];
				unsigned char out[20];
				memset(rec, '0', sizeof(rec));
				rec[0] = hex[0];
				rec[1] = hex[1];
				int rr = ref_decode(out, rec, 1, 40, 40, (enum hexoid_kind)k, &e) ? -1 : 0;
				want = out[0];
				CHECK(r == rr && (r || got == want), "pair %02x %02x kind %d", a, b, k);
			}
}

TEST(api_kernel_control)
{
	const char *names[16];
	size_t n = hexoid_kernels(names, 16);
	CHECK(n >= 1 && n <= 16, "%zu kernels", n);
	CHECK(!strcmp(names[n - 1], "scalar"), "scalar is last, got %s", names[n - 1]);
	CHECK(hexoid_kernels(NULL, 0) == n, "count without storage");
	CHECK(hexoid_set_kernel("auto") == 0 && !strcmp(hexoid_kernel(), names[0]),
	      "auto picks the best: %s", hexoid_kernel());
	for (size_t i = 0; i < n; i++)
		CHECK(hexoid_set_kernel(names[i]) == 0 && !strcmp(hexoid_kernel(), names[i]),
		      "force %s", names[i]);
	CHECK(hexoid_set_kernel("scalar") == 0, "scalar");
	CHECK(hexoid_set_kernel("no-such-kernel") == -1 && !strcmp(hexoid_kernel(), "scalar"),
	      "an unknown name fails and changes nothing");
	CHECK(hexoid_set_kernel(NULL) == -1, "NULL name");
	/* Kernels in the table that are not usable must refuse to be forced. */
	struct hexoid_kernel_info info[16];
	size_t total = hexoid_kernel_table(info, 16);
	CHECK(total >= n, "table has every kernel");
	for (size_t i = 0; i < total && i < 16; i++) {
		CHECK(!info[i].supported || info[i].built, "%s supported but not built",
		      info[i].name);
		if (!info[i].supported)
			CHECK(hexoid_set_kernel(info[i].name) == -1, "%s forced though unusable",
			      info[i].name);
	}
	CHECK(hexoid_cpu_features() != NULL, "features");
	hexoid_set_kernel("auto");
}

/* One list of codes for every layer: numbers that never move, one name each, a class, the
 * names printed before the list was one still read back. */
TEST(api_codes)
{
	static const struct {
		enum hexoid_code code;
		int number;
		const char *name;
		enum hexoid_finding_class cls;
	} pinned[] = {
		{ HEXOID_CODE_UPPERCASE_ID, 1, "uppercase-id", HEXOID_CLASS_GIT3 },
		{ HEXOID_CODE_BAD_ID, 2, "bad-id", HEXOID_CLASS_ERROR },
		{ HEXOID_CODE_CRC32_MISMATCH, 4, "crc32-mismatch", HEXOID_CLASS_ERROR },
		{ HEXOID_CODE_TOO_LARGE, 12, "too-large", HEXOID_CLASS_ERROR },
		{ HEXOID_CODE_UPPERCASE_ID_ACCEPTED, 13, "uppercase-id-accepted", HEXOID_CLASS_WARN },
		{ HEXOID_CODE_REPEATED_TREE, 16, "repeated-tree", HEXOID_CLASS_WARN },
		{ HEXOID_CODE_BAD_HEX, 17, "bad-hex", HEXOID_CLASS_ERROR },
		{ HEXOID_CODE_UNKNOWN_FORMAT, 29, "unknown-format", HEXOID_CLASS_ERROR },
	};
	static const struct {
		const char *name;
		enum hexoid_code code;
	} former[] = {
		{ "uppercase", HEXOID_CODE_UPPERCASE_ID }, { "crc", HEXOID_CODE_CRC32_MISMATCH },
		{ "checksum", HEXOID_CODE_CHECKSUM_MISMATCH }, { "layout", HEXOID_CODE_PACK_LAYOUT },
		{ "header", HEXOID_CODE_OBJECT_HEADER }, { "base", HEXOID_CODE_DELTA_BASE },
		{ "io", HEXOID_CODE_UNREADABLE },
	};
	size_t k;
	int i, git3 = 0;

	for (k = 0; k < sizeof(pinned) / sizeof(pinned[0]); k++)
		CHECK((int)pinned[k].code == pinned[k].number &&
			      !strcmp(hexoid_code_name(pinned[k].code), pinned[k].name) &&
			      hexoid_code_class(pinned[k].code) == pinned[k].cls,
		      "%s is %d, of class %d", pinned[k].name, (int)pinned[k].code,
		      (int)hexoid_code_class(pinned[k].code));
	for (i = 1; i < HEXOID_CODE_COUNT; i++) {
		const char *name = hexoid_code_name((enum hexoid_code)i);
		CHECK(name && hexoid_code_from_name(name) == (enum hexoid_code)i &&
			      hexoid_finding_class_name(hexoid_code_class((enum hexoid_code)i)) &&
			      strcmp(hexoid_code_description((enum hexoid_code)i), "unknown finding"),
		      "code %d: %s", i, name ? name : "(none)");
		git3 += hexoid_code_class((enum hexoid_code)i) == HEXOID_CLASS_GIT3;
	}
	CHECK(git3 == 1, "one code of class git3, not %d", git3);
	for (k = 0; k < sizeof(former) / sizeof(former[0]); k++)
		CHECK(hexoid_code_from_name(former[k].name) == former[k].code, "former name %s",
		      former[k].name);
	CHECK(hexoid_code_from_name("nothing") == 0 && hexoid_code_from_name(NULL) == 0 &&
		      hexoid_code_name((enum hexoid_code)0) == NULL &&
		      hexoid_code_name(HEXOID_CODE_COUNT) == NULL &&
		      !strcmp(hexoid_code_description(HEXOID_CODE_COUNT), "unknown finding"),
	      "unknown codes and names");
	/* The names each part had for its codes are the same numbers. */
	CHECK(HEXOID_FIND_CRC == HEXOID_AUDIT_CRC && HEXOID_LISTING_UPPERCASE == HEXOID_FIND_UPPERCASE &&
		      HEXOID_AUDIT_UPPERCASE == HEXOID_CODE_UPPERCASE_ID,
	      "former constants");
}

static int init_scan(void *o, size_t size)
{
	return hexoid_scan_options_init(o, size);
}

static int init_odb(void *o, size_t size)
{
	return hexoid_odb_options_init(o, size);
}

/* The pack module's options inits: zeros as far as the caller's struct goes, its size
 * set, nothing past it; the odb's first version has no reserved words. */
TEST(api_options_init)
{
	struct hexoid_scan_options scan;
	struct hexoid_odb_options odb;
	const char *why;

	memset(&scan, 0, sizeof(scan));
	memset(&odb, 0, sizeof(odb));
	why = test_options_init(init_scan, &scan, sizeof(scan), sizeof(scan));
	CHECK(!why, "scan options: %s", why);
	why = test_options_init(init_odb, &odb, sizeof(odb), offsetof(struct hexoid_odb_options, reserved));
	CHECK(!why, "odb options: %s", why);
}
