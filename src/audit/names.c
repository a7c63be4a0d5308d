/*
 * The names of the audit's areas and codes, and each code's class (hexoid_audit.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>

#include "hexoid_audit.h"

static const char *const area_names[HEXOID_AREA_COUNT] = {
	"refs", "pseudo-refs", "packed-refs", "reflogs", "shallow", "fetch-head", "grafts",
	"replace", "notes", "rebase", "sequencer", "rerere", "config-files", "dumb-http",
	"promisor", "commit-graph-chain", "midx-chain", "loose-objects", "pack-objects",
	"alternates",
};

static const struct {
	const char *name;
	enum hexoid_finding_class cls;
} codes[HEXOID_AUDIT_CODE_COUNT] = {
	[HEXOID_AUDIT_UPPERCASE] = { "uppercase-id", HEXOID_CLASS_GIT3 },
	[HEXOID_AUDIT_UPPERCASE_ACCEPTED] = { "uppercase-id-accepted", HEXOID_CLASS_WARN },
	[HEXOID_AUDIT_BAD_ID] = { "bad-id", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_ID_MISMATCH] = { "id-mismatch", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_CRC] = { "crc32-mismatch", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_CHECKSUM] = { "checksum-mismatch", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_LAYOUT] = { "pack-layout", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_OBJECT_HEADER] = { "object-header", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_ZLIB] = { "zlib", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_DELTA] = { "delta", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_BASE] = { "delta-base", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_UNREADABLE] = { "unreadable", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_NOT_A_FILE] = { "not-a-file", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_BROKEN_LINK] = { "broken-link", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_TOO_LARGE] = { "too-large", HEXOID_CLASS_ERROR },
	[HEXOID_AUDIT_REPEATED_TREE] = { "repeated-tree", HEXOID_CLASS_WARN },
};

const char *hexoid_audit_area_name(enum hexoid_audit_area area)
{
	return (unsigned)area < HEXOID_AREA_COUNT ? area_names[area] : NULL;
}

const char *hexoid_audit_code_name(enum hexoid_audit_code code)
{
	return code > 0 && code < HEXOID_AUDIT_CODE_COUNT ? codes[code].name : NULL;
}

enum hexoid_finding_class hexoid_audit_code_class(enum hexoid_audit_code code)
{
	return code > 0 && code < HEXOID_AUDIT_CODE_COUNT ? codes[code].cls : 0;
}

