/*
 * The public entry points: argument checks, then the active kernel.
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>

#include "internal.h"
#include "scalar/tables.h"

HEXOID_API size_t hexoid_hexsz(enum hexoid_algo algo)
{
	return algo == HEXOID_SHA1 ? 40 : algo == HEXOID_SHA256 ? 64 : 0;
}

HEXOID_API size_t hexoid_rawsz(enum hexoid_algo algo)
{
	return hexoid_hexsz(algo) / 2;
}

HEXOID_API const char *hexoid_version(void)
{
	return HEXOID_VERSION_STRING;
}

static int valid_kind(enum hexoid_kind kind)
{
	return kind == HEXOID_MIXED || kind == HEXOID_LOWER;
}

HEXOID_API int hexoid_hex_to_bytes(unsigned char *bin, const char *hex, size_t len,
				   enum hexoid_kind kind)
{
	if (!valid_kind(kind))
		return -1;
	unsigned badbits = HEXOID_BADBITS(kind);
	for (size_t i = 0; i < len; i++, hex += 2) {
		unsigned hi = hexoid_digit_class[(unsigned char)hex[0]];
		unsigned lo = hexoid_digit_class[(unsigned char)hex[1]];
		if ((hi | lo) & badbits)
			return -1;
		bin[i] = (unsigned char)((hi & 15) << 4 | (lo & 15));
	}
	return 0;
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

HEXOID_API enum hexoid_status hexoid_decode(unsigned char *out, const char *in, size_t n,
					    size_t stride, enum hexoid_algo algo,
					    enum hexoid_kind kind, struct hexoid_error *err)
{
	size_t hexsz = hexoid_hexsz(algo);
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

HEXOID_API enum hexoid_status hexoid_decode_at(unsigned char *out, const char *base,
					       const size_t *offsets, size_t n,
					       enum hexoid_algo algo, enum hexoid_kind kind,
					       struct hexoid_error *err)
{
	/* Gather the IDs into a small packed block, then decode each block in bulk. */
	enum { BLOCK = 128 };
	char packed[BLOCK * HEXOID_MAX_HEXSZ];
	size_t hexsz = hexoid_hexsz(algo), rawsz = hexsz / 2;
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
	size_t hexsz = hexoid_hexsz(algo);
	if (!hexsz || stride < hexsz || n == 0)
		return;
	hexoid_active_encode()(out, stride, in, n, hexsz / 2);
}
