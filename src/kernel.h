/*
 * The kernel ABI: what each ISA folder src/<isa>/ defines (decode, encode and the one-ID
 * kernels, under HEXOID_KSYM names) and the scalar fallbacks in src/scalar/ that they
 * call down to. The arch code includes this and nothing above it.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_KERNEL_H
#define HEXOID_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compiler.h"
#include "hexoid.h"

/*
 * A decode kernel validates and decodes records 0..n-1. Record i is the hexsz bytes at
 * in + i*stride; its rawsz = hexsz/2 bytes go to out + i*rawsz unless out is NULL.
 *
 * It returns the index of the first record holding a byte that `kind` does not accept,
 * or n when every record is good. Records before that index are fully decoded; the
 * output slots of that record and the later ones are unspecified. The caller (the
 * dispatcher) then finds the exact column and status with the scalar locator, so every
 * kernel reports exactly what the scalar kernel reports.
 *
 * The caller guarantees n >= 1, stride >= hexsz, hexsz is 40 or 64 and kind is
 * HEXOID_MIXED or HEXOID_LOWER. The kernel reads nothing outside
 * [in, in + (n-1)*stride + hexsz) and writes nothing outside out[0, n*rawsz), whatever
 * page boundaries would allow.
 */
typedef size_t hexoid_decode_fn(unsigned char *out, const char *in, size_t n, size_t stride,
				size_t hexsz, enum hexoid_kind kind);

/*
 * An encode kernel writes n records of 2*rawsz lowercase hex digits at out + i*stride from
 * the packed binary IDs at in (rawsz bytes each), and nothing else: not a byte between
 * records. The caller guarantees n >= 1, rawsz is 20 or 32 and stride >= 2*rawsz.
 */
typedef void hexoid_encode_fn(char *out, size_t stride, const unsigned char *in, size_t n,
			      size_t rawsz);

/*
 * A one-ID kernel validates and decodes the single record of hexsz digits at in, for the
 * hexsz and kind its name says. It reads nothing outside [in, in + hexsz) and, when a
 * digit is bad, writes nothing to out itself. This is the call most programs make (a
 * ref, a protocol line, a commit header), so it skips everything the bulk kernels need
 * for n records: no loop, no tail, no stride, tables that are constants, and the public
 * entry points reach it with a tail call. Each ISA has two of them per hexsz and kind:
 *  - decode1 is hexoid_decode() with n = 1 from there on: when every digit is good it
 *    writes the rawsz bytes to out (unless out is NULL) and returns HEXOID_OK, with err
 *    (unless NULL) set as hexoid_decode() sets it; otherwise it returns
 *    hexoid_scalar_decode1_fail(), which locates the bad byte;
 *  - bytes1 is hexoid_hex_to_bytes() from there on (err unused, out not NULL): 0, or
 *    git's loop, which writes the bytes before the bad pair, and its -1.
 * Both are one inline function with a constant `git` flag (hexoid_decode1_ok/_bad), so
 * that neither tests at run time which of the two it is.
 */
typedef int hexoid_decode1_fn(unsigned char *out, const char *in, struct hexoid_error *err);

/*
 * The scalar fallbacks (src/scalar/fallback.c), which every kernel may call down to.
 *
 * The scalar locator: the first byte of the hexsz bytes at rec that `kind` does not
 * accept. Returns HEXOID_OK (all good), HEXOID_EHEX or HEXOID_EUPPER, with its offset in
 * *column. Used by the entry points after a kernel reported a bad record.
 */
enum hexoid_status hexoid_scalar_locate(const char *rec, size_t hexsz, enum hexoid_kind kind,
					size_t *column);

/* The bad ends of a one-ID kernel: the scalar locator's column and status for record 0,
 * and git's loop over len bytes (-1 for a bad pair, else 0), which hexoid_hex_to_bytes()
 * also runs for any length but a whole ID's. */
enum hexoid_status hexoid_scalar_decode1_fail(const char *in, size_t hexsz,
					      enum hexoid_kind kind, struct hexoid_error *err);
int hexoid_scalar_hex_to_bytes(unsigned char *bin, const char *hex, size_t len,
			       enum hexoid_kind kind);

/* The good end of a one-ID kernel. */
HEXOID_INLINE int hexoid_decode1_ok(struct hexoid_error *err, int git)
{
	if (!git && HEXOID_UNLIKELY(err != NULL)) {
		err->record = 1;
		err->column = 0;
		err->status = HEXOID_OK;
	}
	return HEXOID_OK;
}

/* The bad end of a one-ID kernel: nothing written to out yet. */
HEXOID_INLINE int hexoid_decode1_bad(unsigned char *out, const char *in, size_t hexsz,
				     enum hexoid_kind kind, struct hexoid_error *err, int git)
{
	if (git)
		return hexoid_scalar_hex_to_bytes(out, in, hexsz / 2, kind);
	return (int)hexoid_scalar_decode1_fail(in, hexsz, kind, err);
}

/*
 * Kernel symbols. Each ISA folder src/<isa>/ defines HEXOID_KSYM(<isa>, decode) and
 * HEXOID_KSYM(<isa>, encode). The library builds each folder natively (with its -m flags);
 * the tests also build every folder a second time without them, through SIMDe's portable
 * code, with HEXOID_EMULATED defined, which renames the symbols so both can be linked.
 */
#ifdef HEXOID_EMULATED
#define HEXOID_KSYM(isa, job) hexoid_##isa##_##job##_emu
#else
#define HEXOID_KSYM(isa, job) hexoid_##isa##_##job
#endif

#define HEXOID_DECLARE_KERNEL(isa)                                                          \
	hexoid_decode_fn hexoid_##isa##_decode, hexoid_##isa##_decode_emu;                  \
	hexoid_encode_fn hexoid_##isa##_encode, hexoid_##isa##_encode_emu

/* The eight one-ID kernels of an ISA: decode1 and bytes1 for SHA-1 and SHA-256, mixed
 * case and lowercase-only. */
#define HEXOID_DECLARE_DECODE1_ONE(isa, sfx)                                                \
	hexoid_decode1_fn hexoid_##isa##_decode1_40_mixed##sfx,                              \
		hexoid_##isa##_decode1_40_lower##sfx, hexoid_##isa##_decode1_64_mixed##sfx,  \
		hexoid_##isa##_decode1_64_lower##sfx, hexoid_##isa##_bytes1_40_mixed##sfx,   \
		hexoid_##isa##_bytes1_40_lower##sfx, hexoid_##isa##_bytes1_64_mixed##sfx,    \
		hexoid_##isa##_bytes1_64_lower##sfx
#define HEXOID_DECLARE_DECODE1(isa)                                                         \
	HEXOID_DECLARE_DECODE1_ONE(isa, );                                                  \
	HEXOID_DECLARE_DECODE1_ONE(isa, _emu)

/*
 * Define the eight from an ISA's inline function
 *   int one(unsigned char *out, const char *in, size_t hexsz, enum hexoid_kind kind,
 *           struct hexoid_error *err, int git)
 * that ends in hexoid_decode1_ok() or hexoid_decode1_bad().
 */
#define HEXOID_DEFINE_DECODE1_ONE(isa, one, job, hexsz, name, kind, git)                    \
	int HEXOID_KSYM(isa, job##_##hexsz##_##name)(unsigned char *out, const char *in,     \
						    struct hexoid_error *err)                \
	{                                                                                   \
		return one(out, in, hexsz, kind, err, git);                                  \
	}
#define HEXOID_DEFINE_DECODE1(isa, one)                                                     \
	HEXOID_DEFINE_DECODE1_ONE(isa, one, decode1, 40, mixed, HEXOID_MIXED, 0)             \
	HEXOID_DEFINE_DECODE1_ONE(isa, one, decode1, 40, lower, HEXOID_LOWER, 0)             \
	HEXOID_DEFINE_DECODE1_ONE(isa, one, decode1, 64, mixed, HEXOID_MIXED, 0)             \
	HEXOID_DEFINE_DECODE1_ONE(isa, one, decode1, 64, lower, HEXOID_LOWER, 0)             \
	HEXOID_DEFINE_DECODE1_ONE(isa, one, bytes1, 40, mixed, HEXOID_MIXED, 1)              \
	HEXOID_DEFINE_DECODE1_ONE(isa, one, bytes1, 40, lower, HEXOID_LOWER, 1)              \
	HEXOID_DEFINE_DECODE1_ONE(isa, one, bytes1, 64, mixed, HEXOID_MIXED, 1)              \
	HEXOID_DEFINE_DECODE1_ONE(isa, one, bytes1, 64, lower, HEXOID_LOWER, 1)

HEXOID_DECLARE_KERNEL(scalar);
HEXOID_DECLARE_KERNEL(sse);
HEXOID_DECLARE_KERNEL(avx2);
HEXOID_DECLARE_KERNEL(avx512);
HEXOID_DECLARE_KERNEL(avx512vbmi);
HEXOID_DECLARE_KERNEL(neon);
/* The NEON folder's second decode kernel (src/neon/decode.c); it shares neon's encode. */
hexoid_decode_fn hexoid_neonwide_decode, hexoid_neonwide_decode_emu;

HEXOID_DECLARE_DECODE1(scalar);
HEXOID_DECLARE_DECODE1(sse);
HEXOID_DECLARE_DECODE1(avx2);
HEXOID_DECLARE_DECODE1(avx512vbmi);
HEXOID_DECLARE_DECODE1(neon);
HEXOID_DECLARE_DECODE1(neonwide);

#endif /* HEXOID_KERNEL_H */
