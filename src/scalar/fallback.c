/*
 * The scalar fallbacks every kernel and the public entry points call down to: the
 * locator, which says where and why a rejected record is bad, the bad end of the
 * one-ID kernels, and git's loop for hex_to_bytes. The SIMD folders never call up into
 * the entry points; they end here.
 * SPDX-License-Identifier: MIT
 */
#include "../kernel.h"
#include "tables.h"

/*
 * Why the record at rec was rejected, and where. A byte that is no hex digit at all
 * decides: the status is HEXOID_EHEX at the first such byte, wherever an uppercase digit
 * stands before it. Only a record that would be valid with uppercase allowed is
 * HEXOID_EUPPER, at its first uppercase digit.
 */
enum hexoid_status hexoid_scalar_locate(const char *rec, size_t hexsz, enum hexoid_kind kind,
					size_t *column)
{
	size_t upper = hexsz;
	for (size_t i = 0; i < hexsz; i++) {
		uint8_t c = hexoid_digit_class[(unsigned char)rec[i]];
		if (c == HEXOID_CLASS_BAD) {
			*column = i;
			return HEXOID_EHEX;
		}
		if ((c & HEXOID_BADBITS(kind)) && upper == hexsz)
			upper = i;
	}
	*column = upper;
	return upper < hexsz ? HEXOID_EUPPER : HEXOID_OK;
}

enum hexoid_status hexoid_scalar_decode1_fail(const char *in, size_t hexsz,
					      enum hexoid_kind kind, struct hexoid_error *err)
{
	size_t column;
	enum hexoid_status status = hexoid_scalar_locate(in, hexsz, kind, &column);
	if (err) {
		err->record = 0;
		err->column = column;
		err->status = status;
	}
	return status;
}

/* git's loop, for any length, and for the bad IDs: writes the bytes before a bad pair. */
HEXOID_NOINLINE int hexoid_scalar_hex_to_bytes(unsigned char *bin, const char *hex, size_t len,
					       enum hexoid_kind kind)
{
	if (kind != HEXOID_MIXED && kind != HEXOID_LOWER)
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
