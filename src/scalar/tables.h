/*
 * Lookup tables of the scalar kernel, computed by the compiler from the rules below
 * rather than typed by hand.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_SCALAR_TABLES_H
#define HEXOID_SCALAR_TABLES_H

#include <stdint.h>

/*
 * hexoid_digit_class[c]: what byte c is as a hex digit.
 *   0x00..0x0f  '0'-'9' and 'a'-'f': the digit's value, good in every kind
 *   0x1a..0x1f  'A'-'F': 0x10 | value, good only in HEXOID_MIXED
 *   0xff        anything else
 * So a pair of bytes (a, b) is good for a kind when (class[a] | class[b]) has none of the
 * bits of HEXOID_BADBITS(kind) set, and its value is (class[a] & 15) << 4 | (class[b] & 15).
 */
#define HEXOID_CLASS_UPPER 0x10
#define HEXOID_CLASS_BAD 0xff
#define HEXOID_BADBITS(kind) ((kind) == HEXOID_LOWER ? 0xf0u : 0x80u)

extern const uint8_t hexoid_digit_class[256];

/* hexoid_hex_pairs[b]: the two lowercase hex digits of byte b, high nibble first. */
extern const char hexoid_hex_pairs[256][2];

#endif
