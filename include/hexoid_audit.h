/*
 * hexoid_audit — find every object ID a Git repository holds that Git 3.0 will reject,
 * and everything malformed, in every file Git reads one from.
 *
 * SPDX-License-Identifier: MIT
 *
 * Git 2.x accepts uppercase hex wherever it reads an object ID; Git 3.0 accepts only
 * lowercase. hexoid_audit_open() finds a repository as git does (searching upward from a
 * folder of a work tree; a `.git` folder or `gitdir:` file; a bare repository; a linked
 * worktree, through its `commondir`), reads its hash (`extensions.objectFormat`) and ref
 * storage (`extensions.refStorage`). hexoid_audit_run() then reads every place the
 * repository keeps IDs in — refs, pseudo-refs, packed-refs, reflogs, shallow, FETCH_HEAD,
 * the chain files, every linked worktree's own files, the repositories of submodules
 * under modules/, loose objects and packs (every commit's and tag's headers, through
 * their delta chains) — and hands each finding to a callback, in a fixed order whatever
 * the number of threads.
 *
 * The audit only reads: it never writes to the repository, never takes a lock, and a
 * FIFO, socket or device where a file belongs is reported, not opened for reading.
 *
 * An audit is self-contained: several threads may each run their own audits at once,
 * on different repositories or the same one. One struct hexoid_audit is used by one
 * thread at a time.
 */
#ifndef HEXOID_AUDIT_H
#define HEXOID_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include "hexoid.h"
#include "hexoid_pack.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Findings carry an enum hexoid_code of hexoid_codes.h (the one list every part of the
 * library reports with), named by hexoid_code_name(), and its class
 * (hexoid_code_class(), named by hexoid_finding_class_name()): HEXOID_CLASS_GIT3, what
 * Git 2.x accepts and Git 3.0 rejects or ignores; HEXOID_CLASS_ERROR, what both reject
 * (malformed, damaged, unreadable); HEXOID_CLASS_WARN, uppercase that the Git 3.0 build
 * still accepts (a pack's name, a note's own name), and a notes tree not walked twice.
 * The audit reports HEXOID_CODE_UPPERCASE_ID, UPPERCASE_ID_ACCEPTED, BAD_ID,
 * ID_MISMATCH, the damage codes of the pack scans, UNREADABLE, NOT_A_FILE,
 * BROKEN_LINK, TOO_LARGE and REPEATED_TREE.
 */

/* The areas of a repository, in the order they are read and summarised. */
enum hexoid_audit_area {
	HEXOID_AREA_REFS,               /* HEAD, the loose refs under refs/ */
	HEXOID_AREA_PSEUDO_REFS,        /* ORIG_HEAD, MERGE_HEAD, AUTO_MERGE, BISECT_*, ... */
	HEXOID_AREA_PACKED_REFS,
	HEXOID_AREA_REFLOGS,
	HEXOID_AREA_SHALLOW,
	HEXOID_AREA_FETCH_HEAD,
	HEXOID_AREA_GRAFTS,
	HEXOID_AREA_REPLACE,
	HEXOID_AREA_NOTES,
	HEXOID_AREA_REBASE,
	HEXOID_AREA_SEQUENCER,
	HEXOID_AREA_RERERE,
	HEXOID_AREA_CONFIG_FILES,
	HEXOID_AREA_DUMB_HTTP,
	HEXOID_AREA_PROMISOR,
	HEXOID_AREA_GRAPH_CHAIN,
	HEXOID_AREA_MIDX_CHAIN,
	HEXOID_AREA_LOOSE_OBJECTS,
	HEXOID_AREA_PACK_OBJECTS,
	HEXOID_AREA_ALTERNATES,
	HEXOID_AREA_COUNT
};

/* "refs", "pseudo-refs", ..., "pack-objects"; NULL for an unknown area. */
HEXOID_API const char *hexoid_audit_area_name(enum hexoid_audit_area area);

/*
 * One finding. Every pointer in it is valid only during the callback: copy what is kept.
 * Paths are relative to the repository's (common) git directory, with `/`:
 * "refs/heads/main", "worktrees/wt/HEAD", "modules/sub/packed-refs",
 * "objects/pack/pack-....pack".
 */
struct hexoid_audit_finding {
	enum hexoid_code code;
	enum hexoid_finding_class cls; /* the code's class */
	enum hexoid_audit_area area;
	const char *path;
	/* In a file of lines: its line and column (from 1). In a commit's or tag's text
	 * (header set): the line and column there. 0 when not about text. */
	unsigned long long line;
	unsigned long column;
	int has_oid;                  /* oid holds the object's ID (object findings) */
	unsigned char oid[HEXOID_MAX_RAWSZ];
	enum hexoid_algo algo;        /* the hash of the repository holding it */
	enum hexoid_object_type type; /* the object's type, or HEXOID_OBJ_NONE for files */
	const char *header;           /* "tree", "parent", "object", "mergetag object", or NULL */
	uint64_t offset;              /* offset in a pack, or HEXOID_NO_OFFSET */
	const char *message;          /* one line, for people; no newline */
};

/* Return nonzero to stop the audit. */
typedef int hexoid_audit_finding_fn(void *ctx, const struct hexoid_audit_finding *finding);
/* `what` names the pack or folder being scanned (valid during the call); done of total
 * objects. Return nonzero to stop the audit. */
typedef int hexoid_audit_progress_fn(void *ctx, const char *what, uint64_t done, uint64_t total);

struct hexoid_audit_options {
	size_t size;                  /* sizeof(struct hexoid_audit_options): set by the INIT */
	unsigned jobs;                /* threads; 0 and 1 mean the calling thread only */
	int verify_ids;               /* also rehash every commit and tag */
	hexoid_audit_finding_fn *on_finding;  /* may be NULL (count only) */
	hexoid_audit_progress_fn *on_progress; /* may be NULL */
	void *ctx;
	/* Cancellation, from any thread (a signal handler too): when *cancel becomes
	 * nonzero the run stops and returns 1, promptly. It is read (atomically, relaxed)
	 * from the start: before each area, each file, each git directory, each pack and
	 * fan-out folder of loose objects, and during a pack's scan at least ten times a
	 * second, in the object thread too. NULL: never cancelled (a callback returning
	 * nonzero still stops the run). */
	const int *cancel;
};
/* Later versions only add members at the end; callers built against this header keep
 * working with a newer library, which reads only the `size` bytes they passed. */
#define HEXOID_AUDIT_OPTIONS_INIT { sizeof(struct hexoid_audit_options), 1, 0, NULL, NULL, NULL, NULL }
/* The defaults (HEXOID_AUDIT_OPTIONS_INIT's) into *options, for callers that cannot use the
 * macro, such as another language's bindings: `size` is sizeof(*options) as the caller
 * was built, and only that many bytes are written, so a program built against an older
 * header keeps working with a newer library. 0, or -1 (nothing written) for NULL or a
 * size that is no version's. */
HEXOID_API int hexoid_audit_options_init(struct hexoid_audit_options *options, size_t size);

/* How the repository stores its refs. */
enum hexoid_ref_storage {
	HEXOID_REFS_FILES = 1,        /* loose refs and packed-refs: checked */
	HEXOID_REFS_REFTABLE = 2,     /* binary IDs in reftable/: nothing to lowercase; the
					 stub HEAD and refs/heads are not reported */
};

struct hexoid_audit;

/*
 * Find the repository at or above `path` (NULL: the current folder) as git does and
 * read its config. Returns NULL with the reason in err (one line naming the path) when
 * there is none, it cannot be read, or it uses a hash or ref storage this does not know.
 */
HEXOID_API struct hexoid_audit *hexoid_audit_open(const char *path, char *err, size_t errlen);

/*
 * The repository at `path` and no other: `path` is a git directory itself, or a folder
 * with `.git` (a folder, or a "gitdir:" file) in it; nothing above it is searched.
 * NULL with the reason in err (naming the path) when it is neither.
 * (hexoid_audit_open() stops below each folder GIT_CEILING_DIRECTORIES names, as git
 * does; this one never goes up.)
 */
HEXOID_API struct hexoid_audit *hexoid_audit_open_exact(const char *path, char *err,
							size_t errlen);

/* Why a repository could not be opened: a stable list, each with a fixed name
 * (hexoid_audit_open_error_name()); new ones are only added at the end. */
enum hexoid_audit_open_error {
	HEXOID_OPEN_NOT_FOUND = 1,      /* "not-found": the path does not exist */
	HEXOID_OPEN_UNREADABLE,         /* "unreadable": it cannot be reached (permissions, ...) */
	HEXOID_OPEN_NOT_A_FOLDER,       /* "not-a-folder" */
	HEXOID_OPEN_NOT_A_REPOSITORY,   /* "not-a-repository": no git directory there (or above) */
	HEXOID_OPEN_BROKEN_GITDIR,      /* "broken-gitdir": a .git file that leads nowhere */
	HEXOID_OPEN_UNKNOWN_FORMAT,     /* "unknown-format": a hash or ref storage not known */
	HEXOID_OPEN_NO_MEMORY           /* "out-of-memory" */
};
/* "not-found", ...; NULL for an unknown value. */
HEXOID_API const char *hexoid_audit_open_error_name(enum hexoid_audit_open_error why);

/* hexoid_audit_open(), or with HEXOID_AUDIT_OPEN_EXACT in flags hexoid_audit_open_exact();
 * when it fails, *why (unless NULL) says why as well as err. */
#define HEXOID_AUDIT_OPEN_EXACT 1u
HEXOID_API struct hexoid_audit *hexoid_audit_open_with(const char *path, unsigned flags,
							enum hexoid_audit_open_error *why,
							char *err, size_t errlen);

/*
 * An objects folder alone, outside any repository (a shared object pool, a quarantine,
 * a repository's objects/): its loose objects, its packs, and the folders its
 * info/alternates lists (and theirs), as the audit reads a repository's. Findings name
 * paths relative to it ("pack/pack-....pack", "ab/cdef..."), an alternate's by its own
 * path. algo is its hash, or 0 to take it from its contents (the first pack's name, else
 * a loose object's; SHA-1 when it holds neither). hexoid_audit_gitdir() gives the
 * folder's absolute path. Returns NULL with the reason in err when it is not a folder.
 */
HEXOID_API struct hexoid_audit *hexoid_audit_open_objects(const char *dir, enum hexoid_algo algo,
							  char *err, size_t errlen);

/* The git directory the audit reads (a linked worktree's common directory), its hash and
 * its ref storage. The string lives as long as the audit. */
HEXOID_API const char *hexoid_audit_gitdir(const struct hexoid_audit *audit);
HEXOID_API enum hexoid_algo hexoid_audit_algo(const struct hexoid_audit *audit);
HEXOID_API enum hexoid_ref_storage hexoid_audit_ref_storage(const struct hexoid_audit *audit);

/*
 * Read everything. Every callback is called from the calling thread, never from two at
 * once, findings in report order: by area; within an area, the main git directory's
 * places, then each linked worktree's (by name), each place in the order of the table
 * and its files by path, then line (and, in a pack, offset); submodules after the
 * repository holding them. With jobs above 1, objects are scanned in other threads
 * meanwhile and their findings kept until their turn.
 * Returns 0 when done, 1 when a callback stopped it (promptly: no callback is made
 * after the one that returned nonzero), -1 on bad options (err says why).
 * Running an audit again starts its counts again.
 */
HEXOID_API int hexoid_audit_run(struct hexoid_audit *audit,
				const struct hexoid_audit_options *options, char *err,
				size_t errlen);

/* What one area held, after a run: files (refs, pseudo-refs), lines (other files of
 * lines) or objects (loose objects, packs) read, and the findings of each class. */
struct hexoid_audit_count {
	uint64_t scanned;
	uint64_t git3, warn, errors;
};
HEXOID_API void hexoid_audit_summary(const struct hexoid_audit *audit,
				     enum hexoid_audit_area area,
				     struct hexoid_audit_count *count);

HEXOID_API void hexoid_audit_close(struct hexoid_audit *audit);

#ifdef __cplusplus
}
#endif

#endif /* HEXOID_AUDIT_H */
