/*
 * The naive reference decoder and encoder the kernels are checked against: one byte at a
 * time, straight from the rules, sharing no table or code with the library.
 * SPDX-License-Identifier: MIT
 */
#include "test.h"

/* 0..15, or -1 not a hex digit, or -2 an uppercase digit that `kind` rejects. */
static int ref_digit(unsigned char c, enum hexoid_kind kind)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return kind == HEXOID_MIXED ? c - 'A' + 10 : -2;
	return -1;
}

enum hexoid_status ref_decode(unsigned char *out, const char *in, size_t n, size_t stride,
			      size_t hexsz, enum hexoid_kind kind, struct hexoid_error *err)
{
	for (size_t i = 0; i < n; i++) {
		const unsigned char *rec = (const unsigned char *)in + i * stride;
		/* A byte that is not hex at all makes the record EHEX, at that byte; an
		 * uppercase digit is EUPPER only in a record that has none. */
		size_t upper = hexsz;
		for (size_t j = 0; j < hexsz; j++) {
			int d = ref_digit(rec[j], kind);
			if (d == -1) {
				err->record = i;
				err->column = j;
				err->status = HEXOID_EHEX;
				return err->status;
			}
			if (d == -2 && upper == hexsz)
				upper = j;
		}
		if (upper < hexsz) {
			err->record = i;
			err->column = upper;
			err->status = HEXOID_EUPPER;
			return err->status;
		}
		for (size_t j = 0; out && j < hexsz / 2; j++)
			out[i * hexsz / 2 + j] = (unsigned char)(ref_digit(rec[2 * j], kind) << 4 |
								 ref_digit(rec[2 * j + 1], kind));
	}
	err->record = n;
	err->column = 0;
	err->status = HEXOID_OK;
	return HEXOID_OK;
}

void ref_encode(char *out, size_t stride, const unsigned char *in, size_t n, size_t rawsz)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < rawsz; j++) {
			out[i * stride + 2 * j] = digits[in[i * rawsz + j] >> 4];
			out[i * stride + 2 * j + 1] = digits[in[i * rawsz + j] & 15];
		}
}
