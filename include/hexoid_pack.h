/*
 * hexoid_pack — read Git packs and loose objects, and find the object IDs in commits and
 * tags that Git 3.0 will reject.
 *
 * SPDX-License-Identifier: MIT
 *
 * Git 2.x accepts a commit whose `tree` or `parent` header, or a tag whose `object`
 * header, holds uppercase hex; Git 3.0 will not parse it. Trees hold binary IDs, so only
 * commits and tags can carry such IDs. This module walks a pack with its index — header,
 * object count, each object's CRC32, the trailing checksums — inflates every commit and
 * tag (resolving OFS_DELTA and REF_DELTA chains through a bounded cache of bases), and
 * checks their header IDs with the engine in lowercase-only mode. Loose objects get the
 * same checks, and their file names are checked too.
 *
 * Everything found is reported through a callback, one struct hexoid_finding each, in
 * a fixed order (pack offset; loose objects by name), whatever the number of threads,
 * and as it is found: a pack is worked through a window of objects at a time (a few
 * thousand commits and tags), each window reported before the threads are two windows
 * further, so memory is bounded by the window, not by the number of findings. A damaged
 * object is a finding, and the scan goes on with the others; only a pack or index that
 * cannot be used at all makes a scan fail.
 *
 * Callbacks (findings, progress) are called one at a time from the thread that called
 * the scan, never from the scan's own threads. A finding and every string it points to
 * (path, header, message) are valid only during the call: copy what you keep. A nonzero
 * return from any callback stops the scan promptly — no more callbacks, the threads
 * wound down — and the scan returns 1.
 *
 * Options and statistics carry their size (set by HEXOID_SCAN_OPTIONS_INIT and
 * HEXOID_SCAN_STATS_INIT), so fields can be added at their end without breaking programs
 * built against an older header: the library reads and writes only as far as the
 * caller's struct goes.
 *
 * Links with zlib (inflate, crc32) and OpenSSL's libcrypto (SHA-1, SHA-256).
 */
#ifndef HEXOID_PACK_H
#define HEXOID_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "hexoid.h"
#include "hexoid_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Object types as a pack stores them. */
enum hexoid_object_type {
	HEXOID_OBJ_NONE = 0,
	HEXOID_OBJ_COMMIT = 1,
	HEXOID_OBJ_TREE = 2,
	HEXOID_OBJ_BLOB = 3,
	HEXOID_OBJ_TAG = 4,
	HEXOID_OBJ_OFS_DELTA = 6,
	HEXOID_OBJ_REF_DELTA = 7,
};

/* "commit", "tree", "blob", "tag", "ofs-delta", "ref-delta"; NULL for anything else. */
HEXOID_API const char *hexoid_object_type_name(enum hexoid_object_type type);

/* What a finding is about: enum hexoid_code of hexoid_codes.h, one list for the whole
 * library. The pack and loose scans report HEXOID_CODE_UPPERCASE_ID, BAD_ID and
 * ID_MISMATCH (verify_ids) about IDs; CRC32_MISMATCH, CHECKSUM_MISMATCH, PACK_LAYOUT,
 * OBJECT_HEADER, ZLIB, DELTA, DELTA_BASE and UNREADABLE about damage; TOO_LARGE for a
 * commit or tag not read (rejected by the push gate, an error to the audit). */

/* The largest commit or tag whose text is read and checked: 64 MiB. Git writes none
 * near it (a commit is its headers and message); one past it, as a pusher can make
 * from a few MiB of zlib, is the finding HEXOID_CODE_TOO_LARGE, not gigabytes of
 * memory. */
#define HEXOID_TEXT_MAX ((uint64_t)64 << 20)

#define HEXOID_NO_OFFSET UINT64_MAX

struct hexoid_finding {
	enum hexoid_code code;
	enum hexoid_finding_class cls; /* the code's class: HEXOID_CLASS_GIT3 (Git 2.x
				     accepts it, Git 3.0 rejects it) or HEXOID_CLASS_ERROR */
	const char *path;         /* the pack (.pack) or loose object file */
	uint64_t offset;          /* offset in the pack, or HEXOID_NO_OFFSET */
	int has_oid;              /* oid holds the object's ID */
	unsigned char oid[HEXOID_MAX_RAWSZ];
	enum hexoid_algo algo;    /* the hash of oid: the pack's or repository's */
	enum hexoid_object_type type; /* commit or tag for header findings, else as known */
	const char *header;       /* "tree", "parent", "object", "mergetag object", or NULL */
	unsigned line, column;    /* 1-based, in the object's text; 0 when not about text */
	char message[224];        /* one line, no newline, for people */
};

/* Called for each finding, in order, from the calling thread; return nonzero to stop. */
typedef int hexoid_finding_fn(void *ctx, const struct hexoid_finding *finding);
/* Called from the calling thread at most ten times a second and once at the end, with
 * commits and tags done and in all (loose: files done, and 0); nonzero stops the scan. */
typedef int hexoid_progress_fn(void *ctx, uint64_t done, uint64_t total);

struct hexoid_scan_options {
	size_t size;              /* sizeof(struct hexoid_scan_options): the INIT macro sets it */
	enum hexoid_algo algo;    /* packs: 0 infers it from the index; loose: required */
	int verify_ids;           /* rehash every commit and tag and compare with its ID */
	unsigned jobs;            /* threads inflating a pack; 0 and 1 mean this one only */
	size_t cache_bytes;       /* delta base cache per thread; 0 means 32 MiB */
	hexoid_finding_fn *on_finding;
	hexoid_progress_fn *on_progress;
	void *ctx;                /* given to both callbacks */
};
#define HEXOID_SCAN_OPTIONS_INIT \
	{ sizeof(struct hexoid_scan_options), (enum hexoid_algo)0, 0, 0, 0, NULL, NULL, NULL }
/* The defaults (HEXOID_SCAN_OPTIONS_INIT's) into *options, for callers that cannot use the
 * macro, such as another language's bindings: `size` is sizeof(*options) as the caller
 * was built, and only that many bytes are written, so a program built against an older
 * header keeps working with a newer library. 0, or -1 (nothing written) for NULL or a
 * size that is no version's. */
HEXOID_API int hexoid_scan_options_init(struct hexoid_scan_options *options, size_t size);

struct hexoid_scan_stats {
	size_t size;              /* sizeof(struct hexoid_scan_stats): the INIT macro sets it;
				     a size that is no version's (0, say) is taken as the
				     first version's: at most that much is written */
	uint64_t objects;         /* in the pack, or loose object files */
	uint64_t commits, tags;   /* inflated and checked */
	uint64_t deltas;          /* commits and tags stored as deltas, resolved: a property
				     of the pack, the same for any jobs and cache size */
	uint64_t inflated;        /* bytes inflated: grows with re-inflated bases */
	uint64_t git3, errors;    /* findings of each class reported */
	uint64_t applied;         /* delta applications: the work done for `deltas`, which
				     grows when a base has to be rebuilt (a thread starting
				     cold, a base evicted from the cache) */
};
#define HEXOID_SCAN_STATS_INIT { sizeof(struct hexoid_scan_stats), 0, 0, 0, 0, 0, 0, 0, 0 }

/*
 * Scan one pack: `path` names the .pack or its .idx (the other one is beside it).
 * Returns 0 when the pack was scanned (findings, if any, went to the callback), 1 when
 * a callback stopped it (stats then count what was done), or -1 when the pack cannot be
 * used at all — missing or unreadable file, not a pack (magic, version), an index that
 * fails its structure check, options without their size — or memory ran out, with the
 * reason in err (a line naming the file). stats may be NULL.
 */
HEXOID_API int hexoid_pack_scan(const char *path, const struct hexoid_scan_options *options,
				struct hexoid_scan_stats *stats, char *err, size_t errlen);

/*
 * hexoid_pack_scan() on a pack and its index already in memory (a pack just received,
 * say). `name` is what findings and errors call the pack.
 */
HEXOID_API int hexoid_pack_scan_buffers(const char *name, const void *pack, size_t pack_size,
					const void *idx, size_t idx_size,
					const struct hexoid_scan_options *options,
					struct hexoid_scan_stats *stats, char *err, size_t errlen);

/*
 * Scan the loose objects under `objects_dir` (a repository's objects/ folder): the
 * two-digit folders and the file names in them must be lowercase hex of the right
 * length (Git 2.x reads uppercase names, Git 3.0 skips them); names that are not hex at
 * all are left alone, as git leaves them. Commits and tags are inflated and checked as
 * in packs. options->algo is required. Returns as hexoid_pack_scan() does; -1 only
 * when objects_dir cannot be read.
 */
HEXOID_API int hexoid_loose_scan(const char *objects_dir, const struct hexoid_scan_options *options,
				 struct hexoid_scan_stats *stats, char *err, size_t errlen);

/*
 * One loose object's file contents (zlib of "<type> <size>\0<content>"), as
 * hexoid_loose_scan() checks each: `oid` (rawsz bytes, or NULL) is its ID, for findings
 * and verify_ids. options->algo is required. Returns 0, 1 if the callback stopped, -1 on
 * bad arguments or no memory.
 */
HEXOID_API int hexoid_loose_object_scan(const char *name, const void *data, size_t size,
					const unsigned char *oid,
					const struct hexoid_scan_options *options,
					struct hexoid_scan_stats *stats);

/* One object ID in a commit or tag header that is not lowercase hexsz digits. */
struct hexoid_header_problem {
	enum hexoid_code code;    /* HEXOID_CODE_UPPERCASE_ID or HEXOID_CODE_BAD_ID */
	const char *header;       /* "tree", "parent", "object", "mergetag object" */
	unsigned line, column;    /* 1-based, of the first bad byte */
	char message[160];
};

/* Called for each problem, from the calling thread; the problem and its strings are
 * valid during the call only. Return nonzero to stop. */
typedef int hexoid_header_fn(void *ctx, const struct hexoid_header_problem *problem);

/*
 * Check the object-ID headers of a commit's or tag's text (as hashed, without the
 * "<type> <size>\0" prefix): a commit's `tree`, `parent` and `mergetag` (the embedded
 * tag's `object`), a tag's `object`, up to the first empty line. Each must be exactly
 * hexsz hex digits and a newline; an ID that only uppercase makes wrong is
 * HEXOID_CODE_UPPERCASE_ID, anything else HEXOID_CODE_BAD_ID. Returns how many problems
 * were found (stopping early if fn asks), or -1 for a type other than commit or tag or
 * an unknown algo. fn may be NULL to count.
 */
HEXOID_API int hexoid_object_check(enum hexoid_object_type type, const void *text, size_t len,
				   enum hexoid_algo algo, hexoid_header_fn *fn, void *ctx);

/* --- Reading objects by ID ------------------------------------------------------------
 *
 * An objects directory (a repository's objects/, a quarantine, an alternate) opened once:
 * every pack in pack/ with its .idx is mapped (a .idx without its .pack, or whose .pack is
 * no regular file, and a .pack without its .idx are skipped, as git skips them), and loose
 * objects are looked up by name as they are asked for. A read returns
 * one object's type, size and content, resolved through OFS_DELTA and REF_DELTA chains
 * (a REF_DELTA's base must be in the same pack, as on disk git writes it).
 *
 * Sources are tried in a fixed order: each directory in the order it was added (the one
 * opened first, then its alternates depth first, then those added with hexoid_odb_add),
 * for each its packs in name order, then its loose objects. The first copy that reads
 * cleanly wins; a damaged copy does not hide a good one elsewhere.
 *
 * Threads: a handle may be shared; its calls are serialized by a mutex inside it (reads
 * share one zlib stream and one cache of bases). For reads in parallel, open one handle
 * per thread: the mappings are shared by the kernel's page cache, not copied.
 *
 * Packs and loose files written after hexoid_odb_open() are seen as git sees them: loose
 * objects always (each read looks for the file); packs when an object is in none of the
 * packs the handle knows and no loose file: the folders are listed again, the new packs
 * mapped (after the others, in name order) and the read tried again. A pack git deletes
 * meanwhile (repack -a -d) stays readable once mapped; one deleted before it was mapped
 * is skipped, its objects found in the pack that replaced it.
 */
struct hexoid_odb;

enum hexoid_odb_flags {
	HEXOID_ODB_ALTERNATES = 1, /* also open the directories in objects/info/alternates
				      (relative ones to the objects directory; as deep as
				      git goes: five levels; each directory once) */
	HEXOID_ODB_VERIFY = 2,     /* rehash every object read: a copy whose content does
				      not hash to its ID is damaged */
};

struct hexoid_odb_options {
	size_t size;               /* sizeof(struct hexoid_odb_options): set by the INIT macro */
	enum hexoid_algo algo;     /* required: the repository's hash */
	unsigned flags;            /* enum hexoid_odb_flags */
	size_t cache_bytes;        /* delta bases kept between reads; 0 means 16 MiB */
	uint64_t reserved[4];      /* zero */
};
#define HEXOID_ODB_OPTIONS_INIT { sizeof(struct hexoid_odb_options), (enum hexoid_algo)0, 0, 0, { 0 } }
/* The defaults (HEXOID_ODB_OPTIONS_INIT's) into *options, for callers that cannot use the
 * macro, such as another language's bindings: `size` is sizeof(*options) as the caller
 * was built, and only that many bytes are written, so a program built against an older
 * header keeps working with a newer library. 0, or -1 (nothing written) for NULL or a
 * size that is no version's. */
HEXOID_API int hexoid_odb_options_init(struct hexoid_odb_options *options, size_t size);

enum hexoid_odb_status {
	HEXOID_ODB_OK = 0,
	HEXOID_ODB_MISSING = 1,    /* in no pack index and no loose file */
	HEXOID_ODB_DAMAGED = 2,    /* found, but no copy reads cleanly: broken header, zlib
				      stream or delta, a delta base that is missing, a chain
				      deeper than HEXOID_ODB_MAX_DEPTH, an unreadable loose
				      file, or (HEXOID_ODB_VERIFY) content that does not hash
				      to the ID; err names the file and the pack offset */
	HEXOID_ODB_NOMEM = 3,      /* out of memory (an object too large to hold, say) */
	HEXOID_ODB_EARG = 4,       /* NULL handle, ID or object */
};

/* Chains are followed this deep: git writes at most 4095 (pack.depth), and a longer one
 * can only come from a damaged or hostile pack. */
#define HEXOID_ODB_MAX_DEPTH 10000

struct hexoid_object {
	enum hexoid_object_type type; /* commit, tree, blob or tag */
	size_t size;
	unsigned char *data;       /* size bytes, then a NUL; the caller's: hexoid_object_free() */
	const char *path;          /* the .pack it came from, or the objects directory of a
				      loose object; valid until the handle is closed */
	uint64_t offset;           /* in that pack, or HEXOID_NO_OFFSET */
};

/*
 * Open `objects_dir` (options from HEXOID_ODB_OPTIONS_INIT, with algo set). Returns NULL
 * with the reason in err when the directory (or an alternate) cannot be read, or one of
 * its packs or indexes is not usable (not a pack, an index failing its check): a reader
 * that may miss objects says so at once rather than at the first read.
 */
HEXOID_API struct hexoid_odb *hexoid_odb_open(const char *objects_dir,
					      const struct hexoid_odb_options *options,
					      char *err, size_t errlen);

/* Add another objects directory after the ones there (a quarantine's main repository,
 * GIT_ALTERNATE_OBJECT_DIRECTORIES), with its alternates when the handle follows them.
 * A directory already open is not added twice. 0, or -1 with the reason in err (the
 * handle keeps what it had, and any of the directory's packs opened before the error). */
HEXOID_API int hexoid_odb_add(struct hexoid_odb *odb, const char *objects_dir, char *err,
			      size_t errlen);

/* How many packs the handle has open. */
HEXOID_API size_t hexoid_odb_count_packs(const struct hexoid_odb *odb);

/*
 * Read the object whose binary ID is oid (rawsz bytes). On HEXOID_ODB_OK, *object holds
 * it; on any other status *object is zeroed and err (if not NULL) says why in one line
 * naming the directory, pack or file.
 */
HEXOID_API enum hexoid_odb_status hexoid_odb_read(struct hexoid_odb *odb, const unsigned char *oid,
						  struct hexoid_object *object, char *err,
						  size_t errlen);

/* Free an object's data (and zero it); NULL and a freed object are fine. */
HEXOID_API void hexoid_object_free(struct hexoid_object *object);

/* "ok", "object not found", "object damaged", "out of memory", "bad arguments". */
HEXOID_API const char *hexoid_odb_strerror(enum hexoid_odb_status status);

/* Close the handle: unmaps the packs, frees the cache. NULL is fine. */
HEXOID_API void hexoid_odb_close(struct hexoid_odb *odb);

#ifdef __cplusplus
}
#endif

#endif /* HEXOID_PACK_H */
