/*
 * hexoid_codes — what a finding is about: one list of codes for the listing checker,
 * the pack and loose scans, the audit, the push gate and the repair, each code with one
 * name and one class.
 *
 * SPDX-License-Identifier: MIT
 *
 * Every finding any part of the library reports carries an enum hexoid_code. Its name
 * (hexoid_code_name()) is what the command's JSON and text reports print and the Go
 * package's Code fields hold; its class (hexoid_code_class()) says what it means for
 * Git 3.0. The numbers are stable: codes are only added at the end, never renumbered or
 * reused. Programs read the code, not the message, which is for people and may change.
 */
#ifndef HEXOID_CODES_H
#define HEXOID_CODES_H

#include "hexoid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a finding means for Git 3.0. */
enum hexoid_finding_class {
	HEXOID_CLASS_GIT3 = 1,  /* "git3": Git 2.x accepts it, Git 3.0 rejects or ignores it */
	HEXOID_CLASS_ERROR = 2, /* "error": rejected by both (malformed, damaged, unreadable) */
	HEXOID_CLASS_WARN = 3,  /* "warn": uppercase that Git 3.0 still accepts (a pack's
				   name, a note's own name), or a thing not read twice */
};

enum hexoid_code {
	/* IDs: in commit and tag headers, files of lines, listings, names. */
	HEXOID_CODE_UPPERCASE_ID = 1,     /* git3 "uppercase-id": an uppercase digit in an ID
					     otherwise valid */
	HEXOID_CODE_BAD_ID = 2,           /* error "bad-id": not hexsz hex digits (a header, a
					     file of the repository, a loose object's name) */
	HEXOID_CODE_ID_MISMATCH = 3,      /* error "id-mismatch": content rehashed to another ID */
	/* Damage in packs and loose objects. */
	HEXOID_CODE_CRC32_MISMATCH = 4,   /* error "crc32-mismatch": a packed object's CRC32
					     differs from the index's */
	HEXOID_CODE_CHECKSUM_MISMATCH = 5, /* error "checksum-mismatch": a pack's or index's
					      trailing checksum */
	HEXOID_CODE_PACK_LAYOUT = 6,      /* error "pack-layout": object count, offsets outside
					     the pack or repeated, an unusable pack */
	HEXOID_CODE_OBJECT_HEADER = 7,    /* error "object-header": an object's type or size */
	HEXOID_CODE_ZLIB = 8,             /* error "zlib": a broken or truncated zlib stream */
	HEXOID_CODE_DELTA = 9,            /* error "delta": delta instructions out of range */
	HEXOID_CODE_DELTA_BASE = 10,      /* error "delta-base": a missing base, or a loop */
	HEXOID_CODE_UNREADABLE = 11,      /* error "unreadable": a file or folder that cannot be
					     read */
	HEXOID_CODE_TOO_LARGE = 12,       /* error "too-large": a commit or tag of more than
					     HEXOID_TEXT_MAX bytes, not read (hexoid_pack.h) */
	/* The repository's files and folders (the audit). */
	HEXOID_CODE_UPPERCASE_ID_ACCEPTED = 13, /* warn "uppercase-id-accepted": uppercase
						   where Git 3.0 still takes it */
	HEXOID_CODE_NOT_A_FILE = 14,      /* error "not-a-file": a FIFO, socket or device where
					     a file belongs */
	HEXOID_CODE_BROKEN_LINK = 15,     /* error "broken-link": a gitdir, commondir or
					     submodule that leads nowhere, or back in */
	HEXOID_CODE_REPEATED_TREE = 16,   /* warn "repeated-tree": a notes folder holding the
					     tree another one holds: not walked again */
	/* Listings (hexoid_listing.h): finer kinds of a bad ID, and the text around IDs. */
	HEXOID_CODE_BAD_HEX = 17,         /* error "bad-hex": a byte in an ID that is no hex digit */
	HEXOID_CODE_SHORT_ID = 18,        /* error "short-id": an ID with too few digits */
	HEXOID_CODE_LONG_ID = 19,         /* error "long-id": an ID with too many digits */
	HEXOID_CODE_LONG_LINE = 20,       /* error "long-line": bare IDs: more after the ID */
	HEXOID_CODE_ABBREVIATED_ID = 21,  /* error "abbreviated-id": git run without
					     --no-abbrev, or with --abbrev or --hash=N */
	HEXOID_CODE_UNKNOWN_HASH = 22,    /* error "unknown-hash": the first ID is neither 40
					     nor 64 digits */
	HEXOID_CODE_CRLF = 23,            /* error "crlf": a carriage return before the newline */
	HEXOID_CODE_NUL_BYTE = 24,        /* error "nul-byte": a NUL byte in a line */
	HEXOID_CODE_EMPTY_LINE = 25,      /* error "empty-line" */
	HEXOID_CODE_HUGE_LINE = 26,       /* error "huge-line": a line longer than 1 MiB */
	HEXOID_CODE_SYNTAX = 27,          /* error "syntax": the text around the IDs is not the
					     format's */
	HEXOID_CODE_BUNDLE_PACK = 28,     /* error "bundle-pack": a bundle without its pack */
	HEXOID_CODE_UNKNOWN_FORMAT = 29,  /* error "unknown-format": AUTO cannot tell which
					     git output a listing is */
	HEXOID_CODE_COUNT
};

/* "uppercase-id", "crc32-mismatch", ...; NULL for an unknown code. */
HEXOID_API const char *hexoid_code_name(enum hexoid_code code);
/* The class of a code; 0 for an unknown one. */
HEXOID_API enum hexoid_finding_class hexoid_code_class(enum hexoid_code code);
/* A few words for people, e.g. "crc32 mismatch"; "unknown finding" for an unknown code. */
HEXOID_API const char *hexoid_code_description(enum hexoid_code code);
/*
 * The code of a name, or 0 when none has it. Names the library printed before its codes
 * were one list are taken too: the push gate's and verify-pack's "uppercase", "crc",
 * "checksum", "layout", "header", "base", "io" (what a program kept from an older
 * report still reads).
 */
HEXOID_API enum hexoid_code hexoid_code_from_name(const char *name);
/* "git3", "error", "warn"; NULL for anything else. */
HEXOID_API const char *hexoid_finding_class_name(enum hexoid_finding_class cls);

/*
 * The names these codes had when each part kept its own list: the same numbers, kept
 * so that programs written against them still build.
 */
#define hexoid_finding_code hexoid_code
#define hexoid_audit_code hexoid_code
#define hexoid_listing_code hexoid_code
#define hexoid_finding_code_name hexoid_code_name
#define hexoid_finding_class_of hexoid_code_class
#define hexoid_finding_name hexoid_code_description
#define hexoid_audit_code_name hexoid_code_name
#define hexoid_audit_code_class hexoid_code_class
#define hexoid_listing_code_name hexoid_code_name
#define hexoid_listing_code_class hexoid_code_class
#define HEXOID_FIND_UPPERCASE HEXOID_CODE_UPPERCASE_ID
#define HEXOID_FIND_BAD_ID HEXOID_CODE_BAD_ID
#define HEXOID_FIND_ID_MISMATCH HEXOID_CODE_ID_MISMATCH
#define HEXOID_FIND_CRC HEXOID_CODE_CRC32_MISMATCH
#define HEXOID_FIND_CHECKSUM HEXOID_CODE_CHECKSUM_MISMATCH
#define HEXOID_FIND_LAYOUT HEXOID_CODE_PACK_LAYOUT
#define HEXOID_FIND_HEADER HEXOID_CODE_OBJECT_HEADER
#define HEXOID_FIND_ZLIB HEXOID_CODE_ZLIB
#define HEXOID_FIND_DELTA HEXOID_CODE_DELTA
#define HEXOID_FIND_BASE HEXOID_CODE_DELTA_BASE
#define HEXOID_FIND_IO HEXOID_CODE_UNREADABLE
#define HEXOID_FIND_TOO_LARGE HEXOID_CODE_TOO_LARGE
#define HEXOID_AUDIT_UPPERCASE HEXOID_CODE_UPPERCASE_ID
#define HEXOID_AUDIT_UPPERCASE_ACCEPTED HEXOID_CODE_UPPERCASE_ID_ACCEPTED
#define HEXOID_AUDIT_BAD_ID HEXOID_CODE_BAD_ID
#define HEXOID_AUDIT_ID_MISMATCH HEXOID_CODE_ID_MISMATCH
#define HEXOID_AUDIT_CRC HEXOID_CODE_CRC32_MISMATCH
#define HEXOID_AUDIT_CHECKSUM HEXOID_CODE_CHECKSUM_MISMATCH
#define HEXOID_AUDIT_LAYOUT HEXOID_CODE_PACK_LAYOUT
#define HEXOID_AUDIT_OBJECT_HEADER HEXOID_CODE_OBJECT_HEADER
#define HEXOID_AUDIT_ZLIB HEXOID_CODE_ZLIB
#define HEXOID_AUDIT_DELTA HEXOID_CODE_DELTA
#define HEXOID_AUDIT_BASE HEXOID_CODE_DELTA_BASE
#define HEXOID_AUDIT_UNREADABLE HEXOID_CODE_UNREADABLE
#define HEXOID_AUDIT_NOT_A_FILE HEXOID_CODE_NOT_A_FILE
#define HEXOID_AUDIT_BROKEN_LINK HEXOID_CODE_BROKEN_LINK
#define HEXOID_AUDIT_TOO_LARGE HEXOID_CODE_TOO_LARGE
#define HEXOID_AUDIT_REPEATED_TREE HEXOID_CODE_REPEATED_TREE
#define HEXOID_LISTING_UPPERCASE HEXOID_CODE_UPPERCASE_ID
#define HEXOID_LISTING_BAD_HEX HEXOID_CODE_BAD_HEX
#define HEXOID_LISTING_SHORT_ID HEXOID_CODE_SHORT_ID
#define HEXOID_LISTING_LONG_ID HEXOID_CODE_LONG_ID
#define HEXOID_LISTING_LONG_LINE HEXOID_CODE_LONG_LINE
#define HEXOID_LISTING_ABBREVIATED HEXOID_CODE_ABBREVIATED_ID
#define HEXOID_LISTING_UNKNOWN_HASH HEXOID_CODE_UNKNOWN_HASH
#define HEXOID_LISTING_CRLF HEXOID_CODE_CRLF
#define HEXOID_LISTING_NUL HEXOID_CODE_NUL_BYTE
#define HEXOID_LISTING_EMPTY_LINE HEXOID_CODE_EMPTY_LINE
#define HEXOID_LISTING_HUGE_LINE HEXOID_CODE_HUGE_LINE
#define HEXOID_LISTING_SYNTAX HEXOID_CODE_SYNTAX
#define HEXOID_LISTING_BUNDLE_PACK HEXOID_CODE_BUNDLE_PACK
#define HEXOID_LISTING_UNKNOWN_FORMAT HEXOID_CODE_UNKNOWN_FORMAT

#ifdef __cplusplus
}
#endif

#endif /* HEXOID_CODES_H */
