/*
 * The table of places Git reads object IDs from (places.c), which the walk reads
 * (walk.c) and the tokenizers know the formats of (tokens.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_AUDIT_PLACES_H
#define HEXOID_AUDIT_PLACES_H

#include <stddef.h>

#include "hexoid_audit.h"
#include "hexoid_listing.h"

/* How a place's files are found, relative to a git directory. */
enum place_how {
	HOW_FILE,   /* one file at `path` */
	HOW_TREE,   /* every file under the folder `path`, in path order */
	HOW_PROMISOR_NAMES, /* the names of the .promisor files in the folder `path` */
	HOW_MAILS,  /* the numbered mails in the folder `path`, when it says "rebasing" */
	HOW_FOLDER_NAMES, /* the names of the folders in the folder `path` */
	HOW_CONFIG, /* the files the config key `path` names, wherever they are */
	HOW_NOTES,  /* the trees of the notes refs under `path` (and in packed-refs, or in
		       reftable) */
	HOW_REFTABLE_NAMES, /* the names of the refs under `path` in reftable */
};

/* What a place's files hold. */
enum place_format {
	FMT_REF,       /* a loose ref: "<oid>" then whitespace or the end, or "ref:<name>" */
	FMT_ID_LINES,  /* every line starts with an ID, whitespace or the end after it */
	FMT_MAYBE_ID,  /* a branch name or an ID: checked when it is hex of the ID's length */
	FMT_ALL_IDS,   /* every word of every line is an ID; '#' lines are comments (grafts) */
	FMT_OID_LIST,  /* an ID a line, blanks around it, '#' comments (fsck.skipList) */
	FMT_PAIRS,     /* "<old> <new>[ ...]" a line (rewritten lists) */
	FMT_RECORDS,   /* "<id>[.<n>]\t<path>" records ending in NUL (MERGE_RR) */
	FMT_MAIL,      /* a mail whose first line is "From <id> ..." */
	FMT_UPDATE_REFS, /* groups of "<ref>", "<before>", "<after>" lines */
	FMT_TODO,      /* a todo list: "<command> [-C] <name> ..." */
	FMT_PACKS,     /* objects/info/packs: "P pack-<id>.pack" lines */
	FMT_ID_NAME,   /* a file's name in the folder is an ID (refs/replace/<id>, ...) */
	FMT_REPLACE_PACKED, /* the refs/replace/<id> names of packed-refs */
	FMT_LISTING,   /* a listing format of hexoid_listing.h (place.listing) */
};

/* Which git directories a place is in. */
enum place_scope {
	SCOPE_COMMON = 1,    /* the repository's (common) git directory only */
	SCOPE_WORKTREE = 2,  /* the main git directory and each worktrees/<name>/ */
};

enum {
	PLACE_FILES_REFS = 1, /* only with the files ref backend: reftable keeps it in reftable/ */
	PLACE_READ_AGAIN = 2, /* a file of another place: that one says when it cannot be read */
	PLACE_MAY_BE_EMPTY = 4, /* an empty file holds no ID, and is fine */
	PLACE_REFTABLE = 8,   /* only with the reftable ref backend */
};

struct place {
	enum hexoid_audit_area area;
	unsigned char how, format, scope, flags;
	unsigned char listing;    /* enum hexoid_format, for FMT_LISTING */
	const char *path;         /* relative to the git directory */
	const char *reader;       /* the git source that reads it */
};

extern const struct place hexoid_audit_places[];
extern const size_t hexoid_audit_nplaces;

#endif
