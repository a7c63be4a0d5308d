/*
 * The public entry points: argument checks, then the active kernel.
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <string.h>

#include "dispatch.h"

/* Inline: the exported hexoid_hexsz() may be interposed, so calls to it stay calls. */
HEXOID_INLINE size_t hexsz_of(enum hexoid_algo algo)
{
	return algo == HEXOID_SHA1 ? 40 : algo == HEXOID_SHA256 ? 64 : 0;
}

HEXOID_API size_t hexoid_hexsz(enum hexoid_algo algo)
{
	return hexsz_of(algo);
}

HEXOID_API size_t hexoid_rawsz(enum hexoid_algo algo)
{
	return hexsz_of(algo) / 2;
}

HEXOID_API const char *hexoid_version(void)
{
	return HEXOID_VERSION_STRING;
}

static int valid_kind(enum hexoid_kind kind)
{
	return kind == HEXOID_MIXED || kind == HEXOID_LOWER;
}

/* The ABI fixes these values; the one-ID paths index tables with them. */
_Static_assert(HEXOID_SHA1 == 1 && HEXOID_SHA256 == 2, "algo values");
_Static_assert(HEXOID_MIXED == 0 && HEXOID_LOWER == 1, "kind values");

HEXOID_API int hexoid_hex_to_bytes(unsigned char *bin, const char *hex, size_t len,
				   enum hexoid_kind kind)
{
	/*
	 * A whole SHA-1 or SHA-256 ID: a tail call to the one-ID kernel's bytes1, whose bad
	 * IDs end in git's loop (src/scalar/fallback.c). (The first call of the process
	 * picks the kernel there.)
	 */
	if (HEXOID_LIKELY(len == 20 || len == 32) && HEXOID_LIKELY((unsigned)kind < 2)) {
		return hexoid_active_one()->fn[1][len == 32][kind](bin, hex, NULL);
	}
	return hexoid_scalar_hex_to_bytes(bin, hex, len, kind);
}

static enum hexoid_status fail(struct hexoid_error *err, enum hexoid_status status,
			       size_t record, size_t column)
{
	if (err) {
		err->record = record;
		err->column = column;
		err->status = status;
	}
	return status;
}

/*
 * Everything but a good single ID: argument errors, n records, and locating a bad one.
 * Out of line, so that hexoid_decode() keeps the small frame of its one-ID path.
 */
static HEXOID_NOINLINE enum hexoid_status decode_any(unsigned char *out, const char *in, size_t n,
				     size_t stride, enum hexoid_algo algo, enum hexoid_kind kind,
				     struct hexoid_error *err)
{
	size_t hexsz = hexsz_of(algo);
	if (!hexsz || !valid_kind(kind) || stride < hexsz)
		return fail(err, HEXOID_EARG, 0, 0);
	if (n == 0)
		return fail(err, HEXOID_OK, 0, 0);
	/* The span (n-1)*stride + hexsz must be addressable at all. */
	if (n - 1 > (SIZE_MAX - hexsz) / stride)
		return fail(err, HEXOID_EARG, 0, 0);

	size_t bad = hexoid_active_decode()(out, in, n, stride, hexsz, kind);
	if (HEXOID_LIKELY(bad >= n))
		return fail(err, HEXOID_OK, n, 0);

	/* The kernel only says which record; the scalar locator says where and why. */
	size_t column;
	enum hexoid_status status = hexoid_scalar_locate(in + bad * stride, hexsz, kind, &column);
	return fail(err, status, bad, column);
}

HEXOID_API enum hexoid_status hexoid_decode(unsigned char *out, const char *in, size_t n,
					    size_t stride, enum hexoid_algo algo,
					    enum hexoid_kind kind, struct hexoid_error *err)
{
	/*
	 * One ID, the call most programs make (a ref, a protocol line, a commit header):
	 * checked, then a tail call to the one-ID kernel, so this function has no frame of
	 * its own. Anything else goes the long way.
	 */
	unsigned sha256 = (unsigned)algo - HEXOID_SHA1; /* 0 or 1 for a known algo */
	/* a known algo and kind (both indexes below 2: one test), then the stride */
	if (HEXOID_LIKELY(n == 1) && HEXOID_LIKELY((sha256 | (unsigned)kind) < 2) &&
	    HEXOID_LIKELY(stride >= 40 + 24 * sha256)) {
		/*
		 * Read the kernel only now, and reckon in 32 bits: so GCC finds registers
		 * enough without a frame (measured: the frame was a sixth of the call).
		 */
		return (enum hexoid_status)hexoid_active_one()->fn[0][sha256][kind](out, in, err);
	}
	return decode_any(out, in, n, stride, algo, kind, err);
}

HEXOID_API enum hexoid_status hexoid_decode_at(unsigned char *out, const char *base,
					       const size_t *offsets, size_t n,
					       enum hexoid_algo algo, enum hexoid_kind kind,
					       struct hexoid_error *err)
{
	/* Gather the IDs into a small packed block, then decode each block in bulk. */
	enum { BLOCK = 128 };
	char packed[BLOCK * HEXOID_MAX_HEXSZ];
	size_t hexsz = hexsz_of(algo), rawsz = hexsz / 2;
	if (!hexsz || !valid_kind(kind))
		return fail(err, HEXOID_EARG, 0, 0);
	for (size_t done = 0; done < n; done += BLOCK) {
		size_t m = n - done < BLOCK ? n - done : BLOCK;
		for (size_t i = 0; i < m; i++)
			memcpy(packed + i * hexsz, base + offsets[done + i], hexsz);
		struct hexoid_error e;
		enum hexoid_status st = hexoid_decode(out ? out + done * rawsz : NULL, packed, m,
						      hexsz, algo, kind, &e);
		if (st != HEXOID_OK)
			return fail(err, st, done + e.record, e.column);
	}
	return fail(err, HEXOID_OK, n, 0);
}

HEXOID_API void hexoid_encode(char *out, size_t stride, const unsigned char *in, size_t n,
			      enum hexoid_algo algo)
{
	size_t hexsz = hexsz_of(algo);
	if (!hexsz || stride < hexsz || n == 0)
		return;
	hexoid_active_encode()(out, stride, in, n, hexsz / 2);
}
