/*
 * hexoid — validate, decode and encode hex Git object IDs in bulk.
 *
 * SPDX-License-Identifier: MIT
 *
 * Every function is safe to call from any thread. The kernel (scalar or SIMD) is chosen
 * once, at first use, from the CPU's features; HEXOID_KERNEL=name in the environment
 * forces one, and hexoid_set_kernel() changes it at run time.
 */
#ifndef HEXOID_H
#define HEXOID_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(HEXOID_BUILDING) && defined(__GNUC__)
#define HEXOID_API __attribute__((visibility("default")))
#else
#define HEXOID_API
#endif

#define HEXOID_VERSION_STRING "0.1.0"
#define HEXOID_MAX_HEXSZ 64
#define HEXOID_MAX_RAWSZ 32

enum hexoid_algo { HEXOID_SHA1 = 1, HEXOID_SHA256 = 2 };

/* Which hex digits an object ID may use: git's HEX_KIND_MIXED and HEX_KIND_LOWER. */
enum hexoid_kind { HEXOID_MIXED = 0, HEXOID_LOWER = 1 };

enum hexoid_status {
	HEXOID_OK = 0,
	HEXOID_EHEX = 1,   /* a byte that is not a hex digit at all */
	HEXOID_EUPPER = 2, /* 'A'..'F' where only lowercase is accepted */
	HEXOID_EARG = 3,   /* bad argument: unknown algo or kind, stride < hex size */
};

struct hexoid_error {
	size_t record;             /* 0-based index of the first bad record */
	size_t column;             /* 0-based offset of the byte `status` is about */
	enum hexoid_status status; /* why that byte is bad */
};

/* 40 (SHA-1) or 64 (SHA-256) hex digits; 0 if the algo is unknown. */
HEXOID_API size_t hexoid_hexsz(enum hexoid_algo algo);
/* 20 or 32 bytes; 0 if the algo is unknown. */
HEXOID_API size_t hexoid_rawsz(enum hexoid_algo algo);

/*
 * Git-compatible: decode `len` bytes from the 2*len hex digits at `hex`.
 * Returns 0 on success, -1 on a digit that `kind` does not accept (or an unknown kind).
 * On failure, the bytes of `bin` before the bad pair are written, the rest untouched.
 */
HEXOID_API int hexoid_hex_to_bytes(unsigned char *bin, const char *hex, size_t len,
				   enum hexoid_kind kind);

/*
 * Decode n object IDs. Record i starts at in + i*stride (stride >= hex size); its first
 * hexsz bytes are the ID, written to out + i*rawsz. out == NULL only validates.
 * Returns HEXOID_OK, or why the first bad record is bad, described in *err when
 * err != NULL: HEXOID_EHEX at the column of its first byte that is not a hex digit at
 * all, even when an uppercase digit stands before it; HEXOID_EUPPER (HEXOID_LOWER only)
 * at its first uppercase digit when the record would be valid with uppercase allowed.
 * So one pass in lowercase-only mode tells both kinds of bad apart, as two passes (one
 * with each kind) would. Records before it are decoded; the output of the
 * bad record and of those after it is unspecified (but never outside out[0, n*rawsz)).
 * Reads nothing outside [in, in + (n-1)*stride + hexsz). n == 0 is HEXOID_OK.
 * HEXOID_EARG (err->record = err->column = 0) for an unknown algo or kind or a stride
 * below the hex size.
 */
HEXOID_API enum hexoid_status hexoid_decode(unsigned char *out, const char *in, size_t n,
					    size_t stride, enum hexoid_algo algo,
					    enum hexoid_kind kind, struct hexoid_error *err);

/*
 * Decode n object IDs that start at base + offsets[i] (hexsz bytes each, in any order,
 * overlapping or not), as hexoid_decode() does: ID i goes to out + i*rawsz, and
 * err->record is the index into offsets of the first bad ID. Reads only those IDs.
 */
HEXOID_API enum hexoid_status hexoid_decode_at(unsigned char *out, const char *base,
					       const size_t *offsets, size_t n,
					       enum hexoid_algo algo, enum hexoid_kind kind,
					       struct hexoid_error *err);

/*
 * Encode n binary IDs (rawsz bytes each, packed) as lowercase hex at out + i*stride.
 * Writes only those hexsz bytes of each record: separators in between stay as they are.
 * Does nothing for an unknown algo or a stride below the hex size.
 */
HEXOID_API void hexoid_encode(char *out, size_t stride, const unsigned char *in, size_t n,
			      enum hexoid_algo algo);

/* The active kernel: "scalar", "sse", "avx2", "avx512" (or "avx512bw" on CPUs
 * without VBMI) or "neon". */
HEXOID_API const char *hexoid_kernel(void);

/*
 * Make `name` the active kernel for the whole process. Returns 0, or -1 if the name is
 * unknown, the kernel is not built into this library or this CPU lacks what it needs
 * (the active kernel is then unchanged). "auto" goes back to the best usable kernel.
 */
HEXOID_API int hexoid_set_kernel(const char *name);

/*
 * Store up to `cap` names of the usable kernels (built and supported by this CPU), best
 * first, into names[]; returns how many there are in all (names may be NULL, cap 0).
 */
HEXOID_API size_t hexoid_kernels(const char **names, size_t cap);

/* Every kernel this library knows of, built or not: for diagnostics (`hexoid kernels`). */
struct hexoid_kernel_info {
	const char *name;     /* as hexoid_set_kernel() takes it */
	const char *requires; /* the CPU features it needs, e.g. "avx2" */
	int built;            /* compiled into this library for this architecture */
	int supported;        /* this CPU has what it needs (and it is built) */
};
/* Fill up to `cap` entries, best kernel first; returns how many there are in all. */
HEXOID_API size_t hexoid_kernel_table(struct hexoid_kernel_info *info, size_t cap);

/* The CPU features seen at run time, space-separated, e.g. "sse2 ssse3 sse4.1 avx2". */
HEXOID_API const char *hexoid_cpu_features(void);

/* The library's version, "MAJOR.MINOR.PATCH". */
HEXOID_API const char *hexoid_version(void);

/*
 * One ID per call, inline. A program that decodes IDs one at a time (a ref, a protocol
 * line, a commit header) would pay for the whole call each time: seven arguments (one
 * on the stack), their checks and a second jump to the kernel. So hexoid_decode() with
 * n == 1 calls the active kernel's one-ID function from the caller's own code: a few
 * compares, one load and one indirect call. Anything else goes to the library's
 * function. Results, errors and what is written are the library's own.
 * (hexoid_hex_to_bytes() stays a call: four arguments in registers and a tail call to
 * the kernel, which measured faster than the same call made inline.)
 *
 * hexoid__active is the active kernel's table of one-ID functions, read only as below;
 * its layout is part of the library's ABI (SOVERSION). Define HEXOID_NO_INLINE before
 * including this header to call the library every time (bindings that cannot call a
 * macro, as cgo, do). The names with two underscores are no interface of their own.
 */
struct hexoid__one {
	/* [hex_to_bytes][SHA-256][HEXOID_LOWER]: 0 (OK) or the status (decode), or -1 for
	 * a bad digit (hex_to_bytes) */
	int (*fn[2][2][2])(unsigned char *out, const char *in, struct hexoid_error *err);
};
HEXOID_API extern const struct hexoid__one *hexoid__active;

#if (defined(__GNUC__) || defined(__clang__)) && !defined(HEXOID_NO_INLINE) && \
	!defined(HEXOID_BUILDING)
static __inline__ enum hexoid_status hexoid__decode(unsigned char *out, const char *in, size_t n,
						size_t stride, enum hexoid_algo algo,
						enum hexoid_kind kind, struct hexoid_error *err)
{
	unsigned sha256 = (unsigned)algo - (unsigned)HEXOID_SHA1; /* 0 or 1 if known */
	if (n == 1 && ((sha256 | (unsigned)kind) < 2) && stride >= 40 + 24 * (size_t)sha256)
		return (enum hexoid_status)__atomic_load_n(&hexoid__active, __ATOMIC_ACQUIRE)
			->fn[0][sha256][kind](out, in, err);
	return (hexoid_decode)(out, in, n, stride, algo, kind, err);
}

#define hexoid_decode(out, in, n, stride, algo, kind, err)                                  \
	hexoid__decode(out, in, n, stride, algo, kind, err)
#endif

#ifdef __cplusplus
}
#endif

#endif /* HEXOID_H */
