/*
 * What the kernels are measured against, on the same inputs in the same run: the loop
 * git uses (written here from its description, not copied), libgit2 when it was found
 * at build time, and the memory limits memcpy and memchr.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_BENCH_BASELINES_H
#define HEXOID_BENCH_BASELINES_H

#include <stddef.h>

#include "hexoid.h"

/* Build the 256-entry digit tables from the rules; call once before any case runs. */
void gitloop_init(void);

/*
 * git's get_oid_hex() shape: one out-of-line call per ID, a signed 256-entry table,
 * a pair of digits at a time as (t[a] << 4) | t[b], bail out on a negative value.
 * Returns 0, or -1 on a digit `kind` does not accept.
 */
int gitloop_decode_one(unsigned char *out, const char *hex, size_t rawsz,
		       enum hexoid_kind kind);

/* gitloop_decode_one() over n records; returns the index of the first bad one, or n. */
size_t gitloop_decode(unsigned char *out, const char *in, size_t n, size_t stride,
		      size_t rawsz, enum hexoid_kind kind);

/* The same, checking only: each ID is decoded into a local object, as git would. */
size_t gitloop_validate(const char *in, size_t n, size_t stride, size_t rawsz,
			enum hexoid_kind kind);

/* git's hash_to_hex() shape: "0123456789abcdef"[b >> 4], [b & 15], byte by byte. */
void gitloop_encode(char *out, size_t stride, const unsigned char *in, size_t n,
		    size_t rawsz);

/*
 * libgit2 1.5 (SHA-1 only): git_oid_fromstrn() / git_oid_fmt() per ID. Without libgit2
 * at build time, libgit2_missing() says why and the others must not be called.
 */
const char *libgit2_missing(void);
const char *libgit2_version(void);
int libgit2_decode_one(unsigned char *out, const char *hex);
size_t libgit2_decode(unsigned char *out, const char *in, size_t n, size_t stride);
size_t libgit2_validate(const char *in, size_t n, size_t stride);
void libgit2_encode(char *out, size_t stride, const unsigned char *in, size_t n);

#endif /* HEXOID_BENCH_BASELINES_H */
