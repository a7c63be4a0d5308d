/*
 * The baselines: a git-style table loop and libgit2. See baselines.h.
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "baselines.h"

#ifdef HEXOID_BENCH_LIBGIT2
#include <git2.h>
#endif

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/*
 * git's hexval_table, one per kind: the digit's value, or -1. Built from the rules at
 * startup rather than typed in, so no entry can be mistyped.
 */
static signed char hexval[2][256];

void gitloop_init(void)
{
	for (int kind = HEXOID_MIXED; kind <= HEXOID_LOWER; kind++)
		for (int c = 0; c < 256; c++) {
			int v = -1;
			if (c >= '0' && c <= '9')
				v = c - '0';
			else if (c >= 'a' && c <= 'f')
				v = c - 'a' + 10;
			else if (kind == HEXOID_MIXED && c >= 'A' && c <= 'F')
				v = c - 'A' + 10;
			hexval[kind][c] = (signed char)v;
		}
}

/*
 * Out of line, like git's get_oid_hex(), which other files call once per ID: inlining
 * it into the bulk loop would measure a loop git does not have.
 */
NOINLINE int gitloop_decode_one(unsigned char *out, const char *hex, size_t rawsz,
				enum hexoid_kind kind)
{
	const signed char *t = hexval[kind];
	for (size_t i = 0; i < rawsz; i++, hex += 2) {
		/* * 16, not << 4: shifting a negative value left is undefined in C. */
		int v = t[(unsigned char)hex[0]] * 16 | t[(unsigned char)hex[1]];
		if (v < 0)
			return -1;
		out[i] = (unsigned char)v;
	}
	return 0;
}

size_t gitloop_decode(unsigned char *out, const char *in, size_t n, size_t stride,
		      size_t rawsz, enum hexoid_kind kind)
{
	for (size_t i = 0; i < n; i++, in += stride, out += rawsz)
		if (gitloop_decode_one(out, in, rawsz, kind))
			return i;
	return n;
}

size_t gitloop_validate(const char *in, size_t n, size_t stride, size_t rawsz,
			enum hexoid_kind kind)
{
	unsigned char oid[HEXOID_MAX_RAWSZ];
	for (size_t i = 0; i < n; i++, in += stride)
		if (gitloop_decode_one(oid, in, rawsz, kind))
			return i;
	return n;
}

NOINLINE static void gitloop_encode_one(char *out, const unsigned char *raw, size_t rawsz)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < rawsz; i++) {
		*out++ = digits[raw[i] >> 4];
		*out++ = digits[raw[i] & 15];
	}
}

void gitloop_encode(char *out, size_t stride, const unsigned char *in, size_t n,
		    size_t rawsz)
{
	for (size_t i = 0; i < n; i++, out += stride, in += rawsz)
		gitloop_encode_one(out, in, rawsz);
}

#ifdef HEXOID_BENCH_LIBGIT2

const char *libgit2_missing(void)
{
	return NULL;
}

const char *libgit2_version(void)
{
	static char text[32];
	int major, minor, rev;
	git_libgit2_version(&major, &minor, &rev);
	snprintf(text, sizeof(text), "%d.%d.%d", major, minor, rev);
	return text;
}

int libgit2_decode_one(unsigned char *out, const char *hex)
{
	git_oid oid;
	if (git_oid_fromstrn(&oid, hex, 40))
		return -1;
	memcpy(out, oid.id, 20);
	return 0;
}

size_t libgit2_decode(unsigned char *out, const char *in, size_t n, size_t stride)
{
	for (size_t i = 0; i < n; i++, in += stride, out += 20)
		if (libgit2_decode_one(out, in))
			return i;
	return n;
}

size_t libgit2_validate(const char *in, size_t n, size_t stride)
{
	git_oid oid;
	for (size_t i = 0; i < n; i++, in += stride)
		if (git_oid_fromstrn(&oid, in, 40))
			return i;
	return n;
}

void libgit2_encode(char *out, size_t stride, const unsigned char *in, size_t n)
{
	git_oid oid;
	for (size_t i = 0; i < n; i++, out += stride, in += 20) {
		/* git_oid is the user's type: a caller with raw bytes copies them in first. */
		memcpy(oid.id, in, 20);
		git_oid_fmt(out, &oid);
	}
}

#else /* !HEXOID_BENCH_LIBGIT2 */

const char *libgit2_missing(void)
{
	return "libgit2 not found when hexoid-bench was built (pkg-config libgit2 and a "
	       "link test): install libgit2-dev and rebuild";
}

const char *libgit2_version(void)
{
	return "none";
}

int libgit2_decode_one(unsigned char *out, const char *hex)
{
	(void)out, (void)hex;
	return -1;
}

size_t libgit2_decode(unsigned char *out, const char *in, size_t n, size_t stride)
{
	(void)out, (void)in, (void)stride;
	return n ? 0 : n;
}

size_t libgit2_validate(const char *in, size_t n, size_t stride)
{
	(void)in, (void)stride;
	return n ? 0 : n;
}

void libgit2_encode(char *out, size_t stride, const unsigned char *in, size_t n)
{
	(void)out, (void)stride, (void)in, (void)n;
}

#endif
