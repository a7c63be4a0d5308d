/*
 * The table of formats (table.c): each one's name, its parser, and how AUTO may take it.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_FORMATS_LISTING_TABLE_H
#define HEXOID_FORMATS_LISTING_TABLE_H

#include "grammar.h"

/* One entry of the table: a format's name, its parser, and how AUTO may take it. */
struct listing_format {
	const char *name;
	void (*parse)(struct cursor *c);
	char eol;          /* '\n', or '\0' for NUL-ended records (-z) */
	unsigned char empty_ok; /* the parser takes empty lines itself */
	unsigned char rank;     /* AUTO tries the formats by rank, 1 first; 0: never */
	/* AUTO: when a line does not fit, this wider shape of the same command is tried
	 * before the line is reported (HEXOID_FORMAT_AUTO: none), in this state of its
	 * own (what the lines before, all taken by this format, tell it). */
	enum hexoid_format wider;
	unsigned char wider_state;
};
extern const struct listing_format hexoid_listing_formats[HEXOID_FORMAT_COUNT];

#endif
