/*
 * Loose objects: objects/xx/yyyy..., each a zlib stream of "<type> <size>\0<content>".
 *
 * SPDX-License-Identifier: MIT
 *
 * Names (which are objects: objdir.h): Git 2.x reads a file name in either case (its
 * loose object iteration decodes it as mixed hex), and a two-digit folder named in
 * uppercase where the file system does not tell case apart; Git 3.0 only lowercase.
 * Other names (git's temporary files, say) are none of our business, as they are none
 * of git's. Only commits and tags are inflated in full; for anything else the header is
 * enough.
 *
 * Git may pack loose objects while they are scanned (repack, gc): it writes the pack, then
 * deletes the loose copies and the folders they leave empty. A folder gone between the
 * listing and its opening held objects that are in a pack now, which the pack scan reads;
 * so is an object gone before it is read, which is a finding only if no pack holds it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common.h"
#include "loose_read.h"
#include "objdir.h"
#include "util/hook.h"

static size_t first_upper(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && !(s[i] >= 'A' && s[i] <= 'F'); i++)
		;
	return i;
}

/* Whether `path` is gone: not there at all, not even as a link to nothing. */
static int gone(const char *path)
{
	struct stat st;

	return lstat(path, &st) && errno == ENOENT;
}

static void free_list(char **v, size_t n)
{
	struct hexoid_names names = { v, n };

	hexoid_names_free(&names);
}

struct loose {
	const struct hexoid_scan_options *opt;
	int stopped;           /* a callback asked to stop */
	double last;           /* the last progress call */
	enum hexoid_algo algo;
	size_t rawsz, hexsz;
	z_stream z;
	struct pk_list out;
	char **paths;          /* every path a finding points at, freed at the end */
	size_t npaths, cappaths;
	uint64_t key;
	struct hexoid_scan_stats st;
	const char *objects;   /* hexoid_loose_scan()'s folder */
	struct hexoid_objdir_packed packed; /* for objects that vanished */
};

static const char *keep_path(struct loose *l, const char *path)
{
	char *p;

	if (l->npaths == l->cappaths) {
		size_t cap = l->cappaths ? 2 * l->cappaths : 64;
		char **v = realloc(l->paths, cap * sizeof(*v));
		if (!v)
			return NULL;
		l->paths = v;
		l->cappaths = cap;
	}
	p = strdup(path);
	if (p)
		l->paths[l->npaths++] = p;
	return p;
}

static struct hexoid_finding *add(struct loose *l, enum hexoid_code code,
				  const char *path, const unsigned char *oid)
{
	const char *kept = keep_path(l, path);
	struct hexoid_finding *f = kept ? hexoid_pk_add(&l->out, l->key, l->algo, code, kept, HEXOID_NO_OFFSET) : NULL;

	if (f && oid) {
		f->has_oid = 1;
		memcpy(f->oid, oid, l->rawsz);
	}
	return f;
}

/* Inflate and check one loose object file's bytes, and for commits and tags their text. */
static void one_buffer(struct loose *l, const char *path, const struct pk_map m,
		       const unsigned char *oid)
{
	struct pk_loose r;
	unsigned char *text = NULL;
	enum pk_loose_status st;
	struct hexoid_finding *f;
	char why[160];

	l->st.objects++;
	st = hexoid_pk_loose_header(&r, &l->z, m.data, m.size, why, sizeof(why));
	if (st == PK_LOOSE_OK && r.type != HEXOID_OBJ_COMMIT && r.type != HEXOID_OBJ_TAG)
		return; /* the header is all a scan wants of them */
	/* Past the limit, and not a size its bytes could never make (that one is a bad
	 * header, said below). */
	if (st == PK_LOOSE_OK && r.size > HEXOID_TEXT_MAX && r.size <= pk_inflate_bound(m.size)) {
		if ((f = add(l, HEXOID_CODE_TOO_LARGE, path, oid)))
			hexoid_pk_say(f, "a %s of %llu bytes: more than the %llu MiB read of one; not checked",
				      hexoid_object_type_name(r.type), (unsigned long long)r.size,
				      (unsigned long long)(HEXOID_TEXT_MAX >> 20));
		return;
	}
	if (st == PK_LOOSE_OK)
		st = hexoid_pk_loose_content(&r, &text, why, sizeof(why));
	switch (st) {
	case PK_LOOSE_OK:
		break;
	case PK_LOOSE_NO_HEADER:
		if ((f = add(l, HEXOID_CODE_OBJECT_HEADER, path, oid)))
			hexoid_pk_say(f, "%s at the start of the object", why);
		return;
	case PK_LOOSE_NOMEM: /* said as git does of a size it cannot allocate */
		if ((f = add(l, HEXOID_CODE_OBJECT_HEADER, path, oid)))
			hexoid_pk_say(f, "%llu bytes claimed for a %zu-byte file",
				      (unsigned long long)r.size, m.size);
		return;
	default:
		if ((f = add(l, st == PK_LOOSE_HEADER ? HEXOID_CODE_OBJECT_HEADER : HEXOID_CODE_ZLIB, path, oid)))
			hexoid_pk_say(f, "%s", why);
		return;
	}
	if (r.type == HEXOID_OBJ_COMMIT)
		l->st.commits++;
	else
		l->st.tags++;
	l->st.inflated += r.size;
	{
		const char *kept = keep_path(l, path);
		if (kept)
			hexoid_pk_check_object(&l->out, l->key, kept, HEXOID_NO_OFFSET, r.type, text,
					       (size_t)r.size, oid, l->algo, l->opt->verify_ids);
	}
	free(text);
}

static void one_object(struct loose *l, const char *path, const unsigned char *oid)
{
	struct pk_map m;
	char err[256];
	struct hexoid_finding *f;

	hexoid_hook(HEXOID_HOOK_LOOSE_OBJECT, path);
	if (hexoid_pk_map_file(&m, path, err, sizeof(err))) {
		int found = 0;
		if (errno == ENOENT && l->objects && gone(path)) {
			found = hexoid_objdir_packed_find(&l->packed, l->objects, l->algo, oid, NULL);
			if (found < 0)
				l->out.oom = 1;
			if (found)
				return; /* packed meanwhile: the pack scan reads it */
			snprintf(err, sizeof(err), "it was deleted while read, and no pack holds it");
		}
		if ((f = add(l, HEXOID_CODE_UNREADABLE, path, oid)))
			hexoid_pk_say(f, "cannot read the object: %s", err);
		return;
	}
	one_buffer(l, path, m, oid);
	hexoid_pk_unmap(&m);
}

/* A reader for opt's hash: 0, or -1 without one (or without memory for zlib). */
static int loose_start(struct loose *l, const struct hexoid_scan_options *opt)
{
	memset(l, 0, sizeof(*l));
	l->opt = opt;
	l->algo = opt->algo;
	l->rawsz = hexoid_rawsz(opt->algo);
	l->hexsz = hexoid_hexsz(opt->algo);
	if (!l->rawsz)
		return -1;
	if (inflateInit(&l->z) != Z_OK) {
		l->rawsz = 0;
		return -1;
	}
	return 0;
}

/* Report what was found so far (findings come in the order they were added: by name,
 * and in order within each object), and let the paths go. 1 if a callback said stop. */
static int loose_flush(struct loose *l)
{
	if (!l->stopped && !l->out.oom)
		l->stopped = hexoid_pk_report(&l->out, 1, l->opt, &l->st);
	l->out.n = 0;
	free_list(l->paths, l->npaths);
	l->paths = NULL;
	l->npaths = l->cappaths = 0;
	return l->stopped;
}

/* Report the rest, give everything back: as the scans return. */
static int loose_finish(struct loose *l, struct hexoid_scan_stats *stats)
{
	int rc, oom = l->out.oom;

	inflateEnd(&l->z);
	hexoid_objdir_packed_free(&l->packed);
	loose_flush(l);
	rc = oom ? -1 : l->stopped;
	if (!rc && hexoid_pk_progress(l->opt, l->st.objects, 0, &l->last, 1))
		rc = 1;
	hexoid_pk_stats_out(stats, &l->st);
	hexoid_pk_list_free(&l->out);
	return rc;
}

int hexoid_loose_object_scan(const char *name, const void *data, size_t size,
			     const unsigned char *oid, const struct hexoid_scan_options *opt,
			     struct hexoid_scan_stats *stats)
{
	struct loose l;
	struct pk_map m = { data, size };
	static const struct hexoid_scan_stats zero;

	hexoid_pk_stats_out(stats, &zero);
	if (!hexoid_pk_options_ok(opt) || loose_start(&l, opt))
		return -1;
	if (!data && size) {
		inflateEnd(&l.z);
		return -1;
	}
	one_buffer(&l, name ? name : "(object)", m, oid);
	return loose_finish(&l, stats);
}

int hexoid_loose_scan(const char *objects_dir, const struct hexoid_scan_options *opt,
		      struct hexoid_scan_stats *stats, char *err, size_t errlen)
{
	struct loose l;
	struct hexoid_names dirs;
	size_t d, plen;
	int unreadable;
	char *path;
	char dummy[1];
	static const struct hexoid_scan_stats zero;

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	hexoid_pk_stats_out(stats, &zero);
	if (!hexoid_pk_options_ok(opt) || !objects_dir) {
		snprintf(err, errlen, "%s: bad arguments", objects_dir ? objects_dir : "(null)");
		return -1;
	}
	if (opt->verify_ids && hexoid_pk_hash_unavailable()) {
		snprintf(err, errlen, "%s: cannot hash objects: %s", objects_dir, hexoid_pk_hash_unavailable());
		return -1;
	}
	if (loose_start(&l, opt)) {
		snprintf(err, errlen, "%s: %s", objects_dir,
			 hexoid_rawsz(opt->algo) ? "out of memory" : "the repository's hash must be given");
		return -1;
	}
	l.objects = objects_dir;
	plen = strlen(objects_dir);
	unreadable = hexoid_objdir_loose_folders(objects_dir, &dirs) != 0;
	path = unreadable ? NULL : malloc(plen + 2 + l.hexsz + 2);
	if (!path) {
		hexoid_names_free(&dirs);
		snprintf(err, errlen, "%s: %s", objects_dir,
			 unreadable ? "cannot read the folder" : "out of memory");
		loose_finish(&l, stats);
		return -1;
	}
	for (d = 0; d < dirs.n; d++) {
		const char *dir = dirs.v[d];
		struct hexoid_names files;
		size_t k;
		int bad_dir;
		struct hexoid_finding *f;

		sprintf(path, "%s/%s", objects_dir, dir);
		hexoid_hook(HEXOID_HOOK_LOOSE_FOLDER, path);
		/* A folder git removed since the listing: its objects are packed now. */
		bad_dir = hexoid_objdir_loose_names(path, l.hexsz, &files) != 0 &&
			  (errno != ENOENT || !gone(path));
		l.key++;
		if (first_upper(dir, 2) < 2 && (f = add(&l, HEXOID_CODE_UPPERCASE_ID, path, NULL))) {
			size_t at = first_upper(dir, 2);
			hexoid_pk_say(f, "uppercase hex digit '%c' in a loose object folder name: Git 2.x reads the %zu objects in it only where file names ignore case, Git 3.0 skips them",
			       dir[at], files.n);
		}
		if (bad_dir && (f = add(&l, HEXOID_CODE_UNREADABLE, path, NULL)))
			hexoid_pk_say(f, "cannot read the folder");
		for (k = 0; k < files.n; k++) {
			unsigned char oid[HEXOID_MAX_RAWSZ];
			char hex[HEXOID_MAX_HEXSZ];
			size_t at;

			sprintf(path, "%s/%s/%s", objects_dir, dir, files.v[k]);
			memcpy(hex, dir, 2);
			memcpy(hex + 2, files.v[k], l.hexsz - 2);
			hexoid_decode(oid, hex, 1, l.hexsz, l.algo, HEXOID_MIXED, NULL);
			l.key++;
			at = first_upper(files.v[k], l.hexsz - 2);
			if (at < l.hexsz - 2 && (f = add(&l, HEXOID_CODE_UPPERCASE_ID, path, oid))) {
				hexoid_pk_say(f, "uppercase hex digit '%c' in a loose object file name: Git 2.x lists it (fsck, --batch-all-objects) but cannot find it by its ID, Git 3.0 skips it",
				       files.v[k][at]);
			}
			one_object(&l, path, oid);
			if (loose_flush(&l))
				break;
		}
		hexoid_names_free(&files);
		if (loose_flush(&l) || hexoid_pk_progress(opt, l.st.objects, 0, &l.last, 0)) {
			l.stopped = 1;
			break;
		}
	}
	free(path);
	hexoid_names_free(&dirs);
	if (l.out.oom)
		snprintf(err, errlen, "%s: out of memory", objects_dir);
	return loose_finish(&l, stats);
}
