/*
 * Internal interfaces shared by the dispatcher and the kernels.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_INTERNAL_H
#define HEXOID_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hexoid.h"

#if defined(__GNUC__)
#define HEXOID_LIKELY(x) __builtin_expect(!!(x), 1)
#define HEXOID_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define HEXOID_INLINE static inline __attribute__((always_inline))
#define HEXOID_HIDDEN __attribute__((visibility("hidden")))
#define HEXOID_NOINLINE __attribute__((noinline))
#else
#define HEXOID_HIDDEN
#define HEXOID_NOINLINE
#define HEXOID_LIKELY(x) (x)
#define HEXOID_UNLIKELY(x) (x)
#define HEXOID_INLINE static inline
#endif

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

/* The bad ends (src/scalar/fallback.c): the scalar locator's column and status for record
 * 0, and git's loop over len bytes (-1 for a bad pair, else 0), which hexoid_hex_to_bytes()
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

/*
 * The scalar locator (src/scalar/fallback.c): the first byte of the hexsz bytes at rec that `kind` does not
 * accept. Returns HEXOID_OK (all good), HEXOID_EHEX or HEXOID_EUPPER, with its offset in
 * *column. Used by the dispatcher after a kernel reported a bad record.
 */
enum hexoid_status hexoid_scalar_locate(const char *rec, size_t hexsz, enum hexoid_kind kind,
					size_t *column);

HEXOID_DECLARE_DECODE1(scalar);
HEXOID_DECLARE_DECODE1(sse);
HEXOID_DECLARE_DECODE1(avx2);
HEXOID_DECLARE_DECODE1(avx512vbmi);
HEXOID_DECLARE_DECODE1(neon);
HEXOID_DECLARE_DECODE1(neonwide);

/* One row of the kernel table (src/dispatch.c). */
struct hexoid_kernel {
	/* First, so the one-ID call is a single indexed load from the active row. */
	hexoid_decode1_fn *decode1[2][2][2]; /* [bytes1][hexsz == 64][kind == HEXOID_LOWER] */
	const char *name;
	const char *requires; /* for people: the features in `needs` */
	uint32_t needs;
	hexoid_decode_fn *decode; /* NULL: not built into this library */
	hexoid_encode_fn *encode;
	uint32_t prefers; /* picked automatically only on CPUs with these too (src/dispatch.c) */
};

/*
 * The active kernel (src/dispatch.c), &hexoid_pending until the first use picks one:
 * that row's one-ID functions pick it and go on, so the one-ID paths need no test.
 * Hidden, so position-independent code reaches them without the GOT.
 */
extern HEXOID_HIDDEN _Atomic(const struct hexoid_kernel *) hexoid_active;
extern HEXOID_HIDDEN const struct hexoid_kernel hexoid_pending;
const struct hexoid_kernel *hexoid_first_use(void);

HEXOID_INLINE const struct hexoid_kernel *hexoid_current(void)
{
	const struct hexoid_kernel *k = atomic_load_explicit(&hexoid_active, memory_order_acquire);
	return HEXOID_LIKELY(k != &hexoid_pending) ? k : hexoid_first_use();
}

/* The active kernel's functions, chosen at first use. */
HEXOID_INLINE hexoid_decode_fn *hexoid_active_decode(void)
{
	return hexoid_current()->decode;
}

HEXOID_INLINE hexoid_encode_fn *hexoid_active_encode(void)
{
	return hexoid_current()->encode;
}

/* CPU features, one bit each, as detected at run time (src/cpu.c). */
enum {
	HEXOID_CPU_SSE2 = 1u << 0,
	HEXOID_CPU_SSSE3 = 1u << 1,
	HEXOID_CPU_SSE41 = 1u << 2,
	HEXOID_CPU_AVX = 1u << 3,
	HEXOID_CPU_AVX2 = 1u << 4,
	HEXOID_CPU_BMI2 = 1u << 5,
	HEXOID_CPU_AVX512F = 1u << 6,
	HEXOID_CPU_AVX512BW = 1u << 7,
	HEXOID_CPU_AVX512VL = 1u << 8,
	HEXOID_CPU_AVX512VBMI = 1u << 9,
	HEXOID_CPU_NEON = 1u << 16,
	HEXOID_CPU_SVE = 1u << 17,
	/* A core type rather than a feature: from MIDR_EL1, for kernels tuned to it. */
	HEXOID_CPU_NEOVERSE_V1 = 1u << 18,
};
uint32_t hexoid_cpu_detect(void);
/* Space-separated names of the bits in `features`, into buf (always NUL-terminated). */
void hexoid_cpu_names(uint32_t features, char *buf, size_t size);

#endif /* HEXOID_INTERNAL_H */
