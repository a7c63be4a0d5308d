/*
 * The scalar kernel's tables, expanded by the preprocessor from one rule per table, so
 * there is no hand-typed entry to get wrong.
 * SPDX-License-Identifier: MIT
 */
#include "tables.h"

#define CLASS(c)                                                                            \
	((c) >= '0' && (c) <= '9'   ? (c) - '0'                                             \
	 : (c) >= 'a' && (c) <= 'f' ? (c) - 'a' + 10                                        \
	 : (c) >= 'A' && (c) <= 'F' ? HEXOID_CLASS_UPPER | ((c) - 'A' + 10)                 \
				    : HEXOID_CLASS_BAD)

#define NIBBLE_CHAR(v) ((v) < 10 ? '0' + (v) : 'a' + (v) - 10)
#define PAIR(b) { NIBBLE_CHAR((b) >> 4), NIBBLE_CHAR((b) & 15) }

/* Apply F to 0..255, sixteen at a time. */
#define ROW(F, b)                                                                           \
	F((b) + 0), F((b) + 1), F((b) + 2), F((b) + 3), F((b) + 4), F((b) + 5),             \
		F((b) + 6), F((b) + 7), F((b) + 8), F((b) + 9), F((b) + 10), F((b) + 11),   \
		F((b) + 12), F((b) + 13), F((b) + 14), F((b) + 15)
#define ALL256(F)                                                                           \
	ROW(F, 0x00), ROW(F, 0x10), ROW(F, 0x20), ROW(F, 0x30), ROW(F, 0x40), ROW(F, 0x50), \
		ROW(F, 0x60), ROW(F, 0x70), ROW(F, 0x80), ROW(F, 0x90), ROW(F, 0xa0),       \
		ROW(F, 0xb0), ROW(F, 0xc0), ROW(F, 0xd0), ROW(F, 0xe0), ROW(F, 0xf0)

const uint8_t hexoid_digit_class[256] = { ALL256(CLASS) };
const char hexoid_hex_pairs[256][2] = { ALL256(PAIR) };
