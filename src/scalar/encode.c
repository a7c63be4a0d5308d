/*
 * Scalar encode: one table load and one two-byte store per input byte (git's loop does
 * two loads and two stores).
 * SPDX-License-Identifier: MIT
 */
#include "../kernel.h"
#include "tables.h"

HEXOID_INLINE void encode_loop(char *out, size_t stride, const unsigned char *in, size_t n,
			       size_t rawsz)
{
	for (size_t i = 0; i < n; i++, out += stride, in += rawsz)
		for (size_t j = 0; j < rawsz; j++)
			memcpy(out + 2 * j, hexoid_hex_pairs[in[j]], 2);
}

void HEXOID_KSYM(scalar, encode)(char *out, size_t stride, const unsigned char *in, size_t n,
				 size_t rawsz)
{
	/* Constant sizes let the compiler unroll the inner loop. */
	if (rawsz == 20)
		encode_loop(out, stride, in, n, 20);
	else
		encode_loop(out, stride, in, n, 32);
}
