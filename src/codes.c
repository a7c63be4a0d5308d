/*
 * The codes of findings (hexoid_codes.h): one table of names, classes and descriptions
 * for every layer that reports one.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>
#include <string.h>

#include "hexoid_codes.h"

static const struct {
	const char *name;
	enum hexoid_finding_class cls;
	const char *description;
} codes[HEXOID_CODE_COUNT] = {
	[HEXOID_CODE_UPPERCASE_ID] = { "uppercase-id", HEXOID_CLASS_GIT3, "uppercase object ID" },
	[HEXOID_CODE_BAD_ID] = { "bad-id", HEXOID_CLASS_ERROR, "invalid object ID" },
	[HEXOID_CODE_ID_MISMATCH] = { "id-mismatch", HEXOID_CLASS_ERROR, "object ID mismatch" },
	[HEXOID_CODE_CRC32_MISMATCH] = { "crc32-mismatch", HEXOID_CLASS_ERROR, "crc32 mismatch" },
	[HEXOID_CODE_CHECKSUM_MISMATCH] = { "checksum-mismatch", HEXOID_CLASS_ERROR, "checksum mismatch" },
	[HEXOID_CODE_PACK_LAYOUT] = { "pack-layout", HEXOID_CLASS_ERROR, "bad pack layout" },
	[HEXOID_CODE_OBJECT_HEADER] = { "object-header", HEXOID_CLASS_ERROR, "bad object header" },
	[HEXOID_CODE_ZLIB] = { "zlib", HEXOID_CLASS_ERROR, "broken zlib stream" },
	[HEXOID_CODE_DELTA] = { "delta", HEXOID_CLASS_ERROR, "bad delta" },
	[HEXOID_CODE_DELTA_BASE] = { "delta-base", HEXOID_CLASS_ERROR, "bad delta base" },
	[HEXOID_CODE_UNREADABLE] = { "unreadable", HEXOID_CLASS_ERROR, "unreadable" },
	[HEXOID_CODE_TOO_LARGE] = { "too-large", HEXOID_CLASS_ERROR, "object too large to check" },
	[HEXOID_CODE_UPPERCASE_ID_ACCEPTED] = { "uppercase-id-accepted", HEXOID_CLASS_WARN,
						"uppercase object ID that Git 3.0 accepts" },
	[HEXOID_CODE_NOT_A_FILE] = { "not-a-file", HEXOID_CLASS_ERROR, "not a file" },
	[HEXOID_CODE_BROKEN_LINK] = { "broken-link", HEXOID_CLASS_ERROR, "broken link" },
	[HEXOID_CODE_REPEATED_TREE] = { "repeated-tree", HEXOID_CLASS_WARN, "repeated notes tree" },
	[HEXOID_CODE_BAD_HEX] = { "bad-hex", HEXOID_CLASS_ERROR, "invalid hex digit" },
	[HEXOID_CODE_SHORT_ID] = { "short-id", HEXOID_CLASS_ERROR, "object ID too short" },
	[HEXOID_CODE_LONG_ID] = { "long-id", HEXOID_CLASS_ERROR, "object ID too long" },
	[HEXOID_CODE_LONG_LINE] = { "long-line", HEXOID_CLASS_ERROR, "more after the object ID" },
	[HEXOID_CODE_ABBREVIATED_ID] = { "abbreviated-id", HEXOID_CLASS_ERROR, "abbreviated object ID" },
	[HEXOID_CODE_UNKNOWN_HASH] = { "unknown-hash", HEXOID_CLASS_ERROR, "unknown hash" },
	[HEXOID_CODE_CRLF] = { "crlf", HEXOID_CLASS_ERROR, "carriage return before the newline" },
	[HEXOID_CODE_NUL_BYTE] = { "nul-byte", HEXOID_CLASS_ERROR, "NUL byte in a line" },
	[HEXOID_CODE_EMPTY_LINE] = { "empty-line", HEXOID_CLASS_ERROR, "empty line" },
	[HEXOID_CODE_HUGE_LINE] = { "huge-line", HEXOID_CLASS_ERROR, "line too long" },
	[HEXOID_CODE_SYNTAX] = { "syntax", HEXOID_CLASS_ERROR, "syntax error" },
	[HEXOID_CODE_BUNDLE_PACK] = { "bundle-pack", HEXOID_CLASS_ERROR, "bundle without its pack" },
	[HEXOID_CODE_UNKNOWN_FORMAT] = { "unknown-format", HEXOID_CLASS_ERROR, "unknown listing format" },
};

/* Names printed before the codes were one list (the push gate's, verify-pack's). */
static const struct {
	const char *name;
	enum hexoid_code code;
} former[] = {
	{ "uppercase", HEXOID_CODE_UPPERCASE_ID },
	{ "crc", HEXOID_CODE_CRC32_MISMATCH },
	{ "checksum", HEXOID_CODE_CHECKSUM_MISMATCH },
	{ "layout", HEXOID_CODE_PACK_LAYOUT },
	{ "header", HEXOID_CODE_OBJECT_HEADER },
	{ "base", HEXOID_CODE_DELTA_BASE },
	{ "io", HEXOID_CODE_UNREADABLE },
};

static int known(enum hexoid_code code)
{
	return code > 0 && code < HEXOID_CODE_COUNT;
}

const char *hexoid_code_name(enum hexoid_code code)
{
	return known(code) ? codes[code].name : NULL;
}

enum hexoid_finding_class hexoid_code_class(enum hexoid_code code)
{
	return known(code) ? codes[code].cls : (enum hexoid_finding_class)0;
}

const char *hexoid_code_description(enum hexoid_code code)
{
	return known(code) ? codes[code].description : "unknown finding";
}

enum hexoid_code hexoid_code_from_name(const char *name)
{
	size_t i;

	if (!name)
		return (enum hexoid_code)0;
	for (i = 1; i < HEXOID_CODE_COUNT; i++)
		if (!strcmp(codes[i].name, name))
			return (enum hexoid_code)i;
	for (i = 0; i < sizeof(former) / sizeof(former[0]); i++)
		if (!strcmp(former[i].name, name))
			return former[i].code;
	return (enum hexoid_code)0;
}

const char *hexoid_finding_class_name(enum hexoid_finding_class cls)
{
	switch (cls) {
	case HEXOID_CLASS_GIT3: return "git3";
	case HEXOID_CLASS_ERROR: return "error";
	case HEXOID_CLASS_WARN: return "warn";
	}
	return NULL;
}
