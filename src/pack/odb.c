/*
 * Reading objects by ID: an objects directory's loose objects and packs (and, when asked,
 * its alternates), one object at a time, through OFS_DELTA and REF_DELTA chains.
 *
 * SPDX-License-Identifier: MIT
 *
 * Each pack is mapped with its index when the directory is opened. A read looks the ID up
 * in each pack's index, then in the loose objects, and returns the first copy that reads
 * cleanly (a damaged copy in one pack does not hide a good one elsewhere, as in git).
 *
 * Git rewrites an objects folder while it is read: repack writes a new pack, then deletes
 * the packs and loose objects it holds. A pack mapped stays readable after that; a pack
 * deleted between the listing and its mapping is skipped, and the folder listed again
 * for the pack that replaced it; an object in none of the packs known (it was loose, and
 * is packed now) makes the handle look for packs written since, and read again, as git
 * does (packfile.c, reprepare_packed_git()).
 * Bases met on the way down a delta chain are kept in a small cache of the handle, so
 * reading the commits of one history in order inflates each base once.
 *
 * Nothing is read outside a mapping: an object's bytes run at most to the pack's trailer,
 * every varint and size is bounded before use, and a chain deeper than HEXOID_ODB_MAX_DEPTH
 * (or a REF_DELTA chain that comes back on itself) is damage, not a loop.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alternates.h"
#include "common.h"
#include "entry.h"
#include "loose_read.h"
#include "objdir.h"
#include "hexoid_idx.h"
#include "util/hook.h"
#include "util/options.h"

#define CACHE_SLOTS 1024

struct opack {
	char *path;                /* the .pack */
	struct pk_map pack, idxmap;
	struct hexoid_idx idx;
	uint64_t body_end;
};

struct oslot {
	uint32_t pack;             /* the pack's number + 1; 0 for an empty slot */
	uint64_t off;
	unsigned char *data;
	size_t len;
	uint8_t type;
};

struct hexoid_odb {
	enum hexoid_algo algo;
	size_t rawsz, hexsz;
	unsigned flags;
	char **dirs;               /* objects directories, the first one given first */
	size_t ndirs, capdirs;
	struct opack *packs;
	size_t npacks, cappacks;
	size_t cache_limit, cache_bytes;
	struct oslot *cache;
	z_stream z;
	int z_ready;
	struct libdeflate_decompressor *dd;
	uint64_t *chain;           /* offsets down the chain being resolved */
	size_t chain_cap;
	char *loose_path;          /* objects/xx/yyyy, rebuilt for each read */
	size_t loose_cap;
	pthread_mutex_t lock;
};

static void say(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* --- opening ---------------------------------------------------------------------- */

/* Map a pack (a .pack path of hexoid_objdir_packs()) and its .idx; one that fails its
 * check is an error. 0, 1 when its .pack or .idx is gone (git deleted it since the
 * listing), or -1. */
static int add_pack(struct hexoid_odb *o, const char *pack_path, char *err, size_t errlen)
{
	int gone = 0;

	char *idx_path = hexoid_objdir_idx_of(pack_path), *path = strdup(pack_path);
	struct opack p;
	struct hexoid_idx_error ie;

	memset(&p, 0, sizeof(p));
	if (!idx_path || !path) {
		say(err, errlen, "%s: out of memory", pack_path);
		goto fail;
	}
	hexoid_hook(HEXOID_HOOK_ODB_PACK, pack_path);
	if (hexoid_pk_map_file(&p.idxmap, idx_path, err, errlen) || hexoid_pk_map_file(&p.pack, path, err, errlen)) {
		gone = errno == ENOENT;
		goto fail;
	}
	if (hexoid_idx_open(&p.idx, p.idxmap.data, p.idxmap.size, o->algo, &ie) != HEXOID_IDX_OK) {
		say(err, errlen, "%s: %s", idx_path, ie.message);
		goto fail;
	}
	if (p.pack.size < 12 + o->rawsz || memcmp(p.pack.data, "PACK", 4) ||
	    (be32(p.pack.data + 4) != 2 && be32(p.pack.data + 4) != 3)) {
		say(err, errlen, "%s: not a pack of version 2 or 3", path);
		goto fail;
	}
	if (o->npacks == o->cappacks) {
		size_t cap = o->cappacks ? 2 * o->cappacks : 8;
		struct opack *v = realloc(o->packs, cap * sizeof(*v));
		if (!v) {
			say(err, errlen, "%s: out of memory", path);
			goto fail;
		}
		o->packs = v;
		o->cappacks = cap;
	}
	p.path = path;
	p.body_end = p.pack.size - o->rawsz;
	o->packs[o->npacks++] = p;
	free(idx_path);
	return 0;
fail:
	hexoid_pk_unmap(&p.idxmap);
	hexoid_pk_unmap(&p.pack);
	free(idx_path);
	free(path);
	return gone ? 1 : -1;
}

/* How often a folder is listed again for packs deleted while it was read. */
#define PACK_LISTINGS 5

/* Whether the handle has the pack mapped already. */
static int have_pack(const struct hexoid_odb *o, const char *pack_path)
{
	size_t i;

	for (i = o->npacks; i-- > 0;)
		if (!strcmp(o->packs[i].path, pack_path))
			return 1;
	return 0;
}

/* The directory's packs that the handle has not mapped yet, those git reads (objdir.h),
 * in name order: which copy of a duplicated object is read does not depend on the order
 * readdir() happens to give. A pack gone before it was mapped had its objects written to
 * another first, which this listing may have missed: the folder is listed again. 0, or
 * -1 with err set. */
static int add_packs(struct hexoid_odb *o, const char *dir, char *err, size_t errlen)
{
	int rc = 0, gone = 1, round;

	for (round = 0; gone && !rc && round < PACK_LISTINGS; round++) {
		struct hexoid_names packs;
		size_t i;
		int added;

		if (hexoid_objdir_packs(dir, &packs) < 0) {
			int e = errno;
			if (e == ENOENT)
				return 0; /* no packs yet */
			if (e == ENOMEM)
				say(err, errlen, "%s/pack: out of memory", dir);
			else
				say(err, errlen, "%s/pack: %s", dir, strerror(e));
			return -1;
		}
		gone = 0;
		for (i = 0; i < packs.n && !rc; i++) {
			if (have_pack(o, packs.v[i]))
				continue;
			if ((added = add_pack(o, packs.v[i], err, errlen)) < 0)
				rc = -1;
			gone |= added == 1;
		}
		hexoid_names_free(&packs);
	}
	return rc;
}

/* Map the packs written in any of the handle's folders since they were listed: for an
 * object in none of the packs known. Whether any was. A pack that cannot be used is
 * left out, as git leaves it: the read says the object is missing. */
static int reprepare(struct hexoid_odb *o)
{
	size_t before = o->npacks, i;
	char why[8];

	for (i = 0; i < o->ndirs; i++)
		add_packs(o, o->dirs[i], why, sizeof(why));
	return o->npacks > before;
}

/* Note a directory and map its packs: 0, 1 when it was open already, -1 on error. */
static int open_dir(struct hexoid_odb *o, const char *dir, char *err, size_t errlen)
{
	char *real = realpath(dir, NULL);
	size_t i;
	struct stat st;

	if (!real || stat(real, &st) || !S_ISDIR(st.st_mode)) {
		say(err, errlen, "%s: %s", dir, real ? strerror(ENOTDIR) : strerror(errno));
		free(real);
		return -1;
	}
	for (i = 0; i < o->ndirs; i++)
		if (!strcmp(o->dirs[i], real)) { /* met already (alternates may repeat) */
			free(real);
			return 1;
		}
	if (o->ndirs == o->capdirs) {
		size_t cap = o->capdirs ? 2 * o->capdirs : 4;
		char **v = realloc(o->dirs, cap * sizeof(*v));
		if (!v) {
			free(real);
			say(err, errlen, "%s: out of memory", dir);
			return -1;
		}
		o->dirs = v;
		o->capdirs = cap;
	}
	o->dirs[o->ndirs++] = real;
	return add_packs(o, real, err, errlen) ? -1 : 0;
}

/* A directory, and when the handle follows them its alternates, depth first. An
 * alternates file that cannot be read is as none; a directory it names that is none
 * is an error. */
static int add_dir(struct hexoid_odb *o, const char *dir, char *err, size_t errlen)
{
	struct hexoid_alternates alts = { NULL, 0, 0 };
	size_t i;
	int rc = open_dir(o, dir, err, errlen), unread;

	if (rc || !(o->flags & HEXOID_ODB_ALTERNATES))
		return rc < 0 ? -1 : 0;
	unread = hexoid_alternates_read(o->dirs[o->ndirs - 1], (const char *const *)o->dirs,
					o->ndirs, &alts, err, errlen);
	for (i = 0; i < alts.n && !rc; i++) {
		const struct hexoid_alternate *a = &alts.v[i];
		if (a->file)
			continue;
		if (a->error) {
			say(err, errlen, "%s: %s", a->path, strerror(a->error));
			rc = -1;
		} else if (open_dir(o, a->path, err, errlen) < 0) {
			rc = -1;
		}
	}
	hexoid_alternates_free(&alts);
	return rc || unread ? -1 : 0;
}

static void cache_clear(struct hexoid_odb *o)
{
	size_t i;

	for (i = 0; o->cache && i < CACHE_SLOTS; i++) {
		free(o->cache[i].data);
		o->cache[i].data = NULL;
		o->cache[i].pack = 0;
	}
	o->cache_bytes = 0;
}

void hexoid_odb_close(struct hexoid_odb *o)
{
	size_t i;

	if (!o)
		return;
	cache_clear(o);
	free(o->cache);
	for (i = 0; i < o->npacks; i++) {
		hexoid_pk_unmap(&o->packs[i].pack);
		hexoid_pk_unmap(&o->packs[i].idxmap);
		free(o->packs[i].path);
	}
	free(o->packs);
	for (i = 0; i < o->ndirs; i++)
		free(o->dirs[i]);
	free(o->dirs);
	if (o->z_ready)
		inflateEnd(&o->z);
	if (o->dd)
		libdeflate_free_decompressor(o->dd);
	free(o->chain);
	free(o->loose_path);
	pthread_mutex_destroy(&o->lock);
	free(o);
}

int hexoid_odb_options_init(struct hexoid_odb_options *options, size_t size)
{
	/* HEXOID_ODB_OPTIONS_INIT's zeros; hexoid_odb_open() reads all but the reserved
	 * words. */
	return hexoid_options_init(options, size, offsetof(struct hexoid_odb_options, reserved),
				   HEXOID_NO_JOBS);
}

struct hexoid_odb *hexoid_odb_open(const char *objects_dir, const struct hexoid_odb_options *opt,
				   char *err, size_t errlen)
{
	struct hexoid_odb *o;
	struct hexoid_odb_options def = HEXOID_ODB_OPTIONS_INIT;

	if (!opt)
		opt = &def;
	/* Fields are read only as far as the caller's struct goes; this version needs them
	 * all but the reserved ones. */
	if (!objects_dir || opt->size < offsetof(struct hexoid_odb_options, reserved)) {
		say(err, errlen, "%s: bad arguments", objects_dir ? objects_dir : "(null)");
		return NULL;
	}
	if (!hexoid_rawsz(opt->algo)) {
		say(err, errlen, "%s: the repository's hash must be given", objects_dir);
		return NULL;
	}
	if ((opt->flags & HEXOID_ODB_VERIFY) && hexoid_pk_hash_unavailable()) {
		say(err, errlen, "%s: cannot hash objects: %s", objects_dir, hexoid_pk_hash_unavailable());
		return NULL;
	}
	if (!(o = calloc(1, sizeof(*o)))) {
		say(err, errlen, "%s: out of memory", objects_dir);
		return NULL;
	}
	pthread_mutex_init(&o->lock, NULL);
	o->algo = opt->algo;
	o->rawsz = hexoid_rawsz(opt->algo);
	o->hexsz = hexoid_hexsz(opt->algo);
	o->flags = opt->flags;
	o->cache_limit = opt->cache_bytes ? opt->cache_bytes : (size_t)16 << 20;
	o->cache = calloc(CACHE_SLOTS, sizeof(*o->cache));
	if (!o->cache || !(o->dd = libdeflate_alloc_decompressor()) || inflateInit(&o->z) != Z_OK) {
		say(err, errlen, "%s: out of memory", objects_dir);
		hexoid_odb_close(o);
		return NULL;
	}
	o->z_ready = 1;
	if (add_dir(o, objects_dir, err, errlen)) {
		hexoid_odb_close(o);
		return NULL;
	}
	return o;
}

int hexoid_odb_add(struct hexoid_odb *o, const char *objects_dir, char *err, size_t errlen)
{
	int rc;

	if (!o || !objects_dir) {
		say(err, errlen, "%s: bad arguments", objects_dir ? objects_dir : "(null)");
		return -1;
	}
	pthread_mutex_lock(&o->lock);
	rc = add_dir(o, objects_dir, err, errlen);
	pthread_mutex_unlock(&o->lock);
	return rc;
}

size_t hexoid_odb_count_packs(const struct hexoid_odb *o)
{
	return o ? o->npacks : 0;
}

/* --- packed objects ----------------------------------------------------------------- */

struct phdr {
	unsigned type;
	uint64_t size;             /* the object's, or the delta data's */
	uint64_t data;             /* where its zlib stream starts */
	uint64_t base_off;         /* OFS_DELTA, and REF_DELTA once found */
	const unsigned char *base_id; /* REF_DELTA */
};

static enum hexoid_odb_status damaged(char *err, size_t errlen, const struct opack *p,
				      uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static enum hexoid_odb_status damaged(char *err, size_t errlen, const struct opack *p,
				      uint64_t off, const char *fmt, ...)
{
	char why[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	say(err, errlen, "%s: offset %llu: %s", p->path, (unsigned long long)off, why);
	return HEXOID_ODB_DAMAGED;
}

static enum hexoid_odb_status pack_header(const struct hexoid_odb *o, const struct opack *p,
					  uint64_t off, struct phdr *h, char *err, size_t errlen)
{
	struct pk_entry e;

	if (off < 12 || off >= p->body_end)
		return damaged(err, errlen, p, off, "outside the pack's objects (12..%llu)",
			       (unsigned long long)p->body_end);
	switch (pk_entry_parse(p->pack.data + off, p->pack.data + p->body_end, o->rawsz, &e)) {
	case PK_ENTRY_OK:
		break;
	case PK_ENTRY_SIZE_CUT:
		return damaged(err, errlen, p, off, "object size varint runs past the pack");
	case PK_ENTRY_SIZE_LONG:
		return damaged(err, errlen, p, off, "object size varint is too long");
	case PK_ENTRY_OFS_NONE:
		return damaged(err, errlen, p, off, "delta base offset runs past the pack");
	case PK_ENTRY_OFS_CUT:
		return damaged(err, errlen, p, off, "delta base offset varint is cut short");
	case PK_ENTRY_OFS_LONG:
		return damaged(err, errlen, p, off, "delta base offset varint is too long");
	case PK_ENTRY_ID_CUT:
		return damaged(err, errlen, p, off, "delta base ID runs past the pack");
	case PK_ENTRY_TYPE:
		return damaged(err, errlen, p, off, "unknown object type %u", e.type);
	}
	h->type = e.type;
	h->size = e.size;
	h->base_id = e.base_id;
	if (e.type == HEXOID_OBJ_OFS_DELTA) {
		if (e.base_rel == 0 || e.base_rel > off - 12)
			return damaged(err, errlen, p, off, "delta base offset %llu bytes back is outside the pack",
				       (unsigned long long)e.base_rel);
		h->base_off = off - e.base_rel;
	}
	h->data = (uint64_t)(e.data - p->pack.data);
	return HEXOID_ODB_OK;
}

/* Inflate an entry's zlib stream (the object, or its delta) into a new buffer with
 * PK_INFLATE_SLACK bytes of room and a NUL after the size. */
static enum hexoid_odb_status pack_inflate(struct hexoid_odb *o, const struct opack *p,
					   uint64_t off, const struct phdr *h, unsigned char **out,
					   char *err, size_t errlen)
{
	size_t inlen = (size_t)(p->body_end - h->data), used;
	unsigned char *buf;
	char why[160];

	*out = NULL;
	if (h->size > pk_inflate_bound(inlen) || h->size > SIZE_MAX - PK_INFLATE_SLACK)
		return damaged(err, errlen, p, off, "%llu bytes claimed for at most %zu packed bytes",
			       (unsigned long long)h->size, inlen);
	if (!(buf = malloc((size_t)h->size + PK_INFLATE_SLACK))) {
		say(err, errlen, "%s: out of memory for %llu bytes", p->path, (unsigned long long)h->size);
		return HEXOID_ODB_NOMEM;
	}
	if (hexoid_pk_inflate(o->dd, &o->z, p->pack.data + h->data, inlen, buf, (size_t)h->size, &used, why,
		       sizeof(why))) {
		free(buf);
		return damaged(err, errlen, p, off, "%s", why);
	}
	buf[h->size] = 0;
	*out = buf;
	return HEXOID_ODB_OK;
}

static struct oslot *slot_of(struct hexoid_odb *o, size_t pack, uint64_t off)
{
	uint64_t h = (off ^ ((uint64_t)pack << 40)) * 0x9e3779b97f4a7c15ull;
	return &o->cache[h >> (64 - 10)];
}

static const struct oslot *cache_find(struct hexoid_odb *o, size_t pack, uint64_t off)
{
	struct oslot *s = slot_of(o, pack, off);
	return s->data && s->pack == pack + 1 && s->off == off ? s : NULL;
}

/* Keep a copy of a base. The cache is small and direct-mapped: a slot's old base goes,
 * and past the byte limit everything does. */
static void cache_keep(struct hexoid_odb *o, size_t pack, uint64_t off, unsigned type,
		       const unsigned char *data, size_t len)
{
	struct oslot *s = slot_of(o, pack, off);
	unsigned char *copy;

	if (len > o->cache_limit / 8 || (s->data && s->pack == pack + 1 && s->off == off))
		return;
	if (s->data) {
		o->cache_bytes -= s->len;
		free(s->data);
		s->data = NULL;
	}
	if (o->cache_bytes + len > o->cache_limit)
		cache_clear(o);
	if (!(copy = malloc(len + 1)))
		return;
	memcpy(copy, data, len);
	copy[len] = 0;
	s->pack = (uint32_t)pack + 1;
	s->off = off;
	s->data = copy;
	s->len = len;
	s->type = (uint8_t)type;
	o->cache_bytes += len;
}

/* The object at `off` of pack `pi`, through its delta chain. */
static enum hexoid_odb_status pack_read(struct hexoid_odb *o, size_t pi, uint64_t off,
					struct hexoid_object *obj, char *err, size_t errlen)
{
	const struct opack *p = &o->packs[pi];
	struct phdr h;
	enum hexoid_odb_status st;
	size_t depth = 0, blen = 0;
	unsigned char *buf = NULL;
	unsigned type = 0;
	uint64_t at = off;

	/* Down the chain to a whole object or a cached base. */
	for (;;) {
		const struct oslot *hit = at != off ? cache_find(o, pi, at) : NULL;
		if (hit) {
			if (!(buf = malloc(hit->len + 1))) {
				say(err, errlen, "%s: out of memory", p->path);
				return HEXOID_ODB_NOMEM;
			}
			memcpy(buf, hit->data, hit->len + 1);
			blen = hit->len;
			type = hit->type;
			break;
		}
		if ((st = pack_header(o, p, at, &h, err, errlen)) != HEXOID_ODB_OK)
			return st;
		if (h.type != HEXOID_OBJ_OFS_DELTA && h.type != HEXOID_OBJ_REF_DELTA) {
			if ((st = pack_inflate(o, p, at, &h, &buf, err, errlen)) != HEXOID_ODB_OK)
				return st;
			blen = (size_t)h.size;
			type = h.type;
			if (at != off)
				cache_keep(o, pi, at, type, buf, blen);
			break;
		}
		if (depth == HEXOID_ODB_MAX_DEPTH)
			return damaged(err, errlen, p, off, "delta chain deeper than %d (or looping)",
				       HEXOID_ODB_MAX_DEPTH);
		if (depth == o->chain_cap) {
			size_t cap = o->chain_cap ? 2 * o->chain_cap : 64;
			uint64_t *v = realloc(o->chain, cap * sizeof(*v));
			if (!v) {
				say(err, errlen, "%s: out of memory", p->path);
				return HEXOID_ODB_NOMEM;
			}
			o->chain = v;
			o->chain_cap = cap;
		}
		o->chain[depth++] = at;
		if (h.type == HEXOID_OBJ_REF_DELTA) {
			ptrdiff_t k = hexoid_idx_find(&p->idx, h.base_id);
			if (k < 0) {
				char hex[HEXOID_MAX_HEXSZ + 1];
				hexoid_encode(hex, o->hexsz, h.base_id, 1, o->algo);
				hex[o->hexsz] = 0;
				return damaged(err, errlen, p, at, "delta base %s is not in this pack", hex);
			}
			at = hexoid_idx_offset(&p->idx, (size_t)k);
		} else {
			at = h.base_off;
		}
	}
	/* Back up, applying each delta. */
	while (depth) {
		uint64_t d = o->chain[--depth];
		unsigned char *delta, *r;
		size_t rlen = 0;
		char why[192];
		int oom = 0;

		if ((st = pack_header(o, p, d, &h, err, errlen)) != HEXOID_ODB_OK ||
		    (st = pack_inflate(o, p, d, &h, &delta, err, errlen)) != HEXOID_ODB_OK) {
			free(buf);
			return st;
		}
		r = hexoid_pk_apply_delta(buf, blen, delta, (size_t)h.size, &rlen, why, sizeof(why), &oom);
		free(delta);
		free(buf);
		if (!r) {
			if (oom) {
				say(err, errlen, "%s: %s", p->path, why);
				return HEXOID_ODB_NOMEM;
			}
			return damaged(err, errlen, p, d, "%s", why);
		}
		buf = r;
		blen = rlen;
		if (depth)
			cache_keep(o, pi, d, type, buf, blen);
	}
	obj->type = (enum hexoid_object_type)type;
	obj->size = blen;
	obj->data = buf;
	obj->path = p->path;
	obj->offset = off;
	return HEXOID_ODB_OK;
}

/* --- loose objects ------------------------------------------------------------------ */

/* Inflate a whole loose object. */
static enum hexoid_odb_status loose_inflate(struct hexoid_odb *o, const char *path,
					    const struct pk_map *m, struct hexoid_object *obj,
					    char *err, size_t errlen)
{
	struct pk_loose r;
	unsigned char *buf = NULL;
	enum pk_loose_status st;
	char why[160];

	st = hexoid_pk_loose_header(&r, &o->z, m->data, m->size, why, sizeof(why));
	if (st == PK_LOOSE_OK)
		st = hexoid_pk_loose_content(&r, &buf, why, sizeof(why));
	if (st != PK_LOOSE_OK) {
		say(err, errlen, "%s: %s", path, why);
		return st == PK_LOOSE_NOMEM ? HEXOID_ODB_NOMEM : HEXOID_ODB_DAMAGED;
	}
	obj->type = r.type;
	obj->size = (size_t)r.size;
	obj->data = buf;
	obj->path = NULL;
	obj->offset = HEXOID_NO_OFFSET;
	return HEXOID_ODB_OK;
}

static enum hexoid_odb_status loose_read(struct hexoid_odb *o, size_t di, const unsigned char *oid,
					 struct hexoid_object *obj, char *err, size_t errlen)
{
	size_t dlen = strlen(o->dirs[di]), need = dlen + o->hexsz + 3;
	struct pk_map m;
	enum hexoid_odb_status st;
	char why[8];

	if (need > o->loose_cap) {
		char *v = realloc(o->loose_path, need);
		if (!v) {
			say(err, errlen, "%s: out of memory", o->dirs[di]);
			return HEXOID_ODB_NOMEM;
		}
		o->loose_path = v;
		o->loose_cap = need;
	}
	memcpy(o->loose_path, o->dirs[di], dlen);
	o->loose_path[dlen] = '/';
	{
		static const char digits[] = "0123456789abcdef";
		char *q = o->loose_path + dlen + 1;
		size_t i;
		for (i = 0; i < o->rawsz; i++) {
			*q++ = digits[oid[i] >> 4];
			*q++ = digits[oid[i] & 15];
			if (i == 0)
				*q++ = '/';
		}
		*q = 0;
	}
	if (hexoid_pk_map_file(&m, o->loose_path, why, sizeof(why))) {
		if (errno == ENOENT || errno == ENOTDIR)
			return HEXOID_ODB_MISSING;
		say(err, errlen, "%s: %s", o->loose_path, strerror(errno));
		return HEXOID_ODB_DAMAGED;
	}
	st = loose_inflate(o, o->loose_path, &m, obj, err, errlen);
	hexoid_pk_unmap(&m);
	if (st == HEXOID_ODB_OK)
		obj->path = o->dirs[di];
	return st;
}

/* --- reading ------------------------------------------------------------------------ */

enum hexoid_odb_status hexoid_odb_read(struct hexoid_odb *o, const unsigned char *oid,
				       struct hexoid_object *obj, char *err, size_t errlen)
{
	enum hexoid_odb_status st = HEXOID_ODB_MISSING, got;
	char first[256];
	size_t i;
	int rounds = 0;

	if (obj)
		memset(obj, 0, sizeof(*obj));
	if (!o || !oid || !obj) {
		say(err, errlen, "hexoid_odb_read: bad arguments");
		return HEXOID_ODB_EARG;
	}
	first[0] = 0;
	pthread_mutex_lock(&o->lock);
again:
	for (i = 0; i < o->npacks + o->ndirs; i++) {
		char why[256];
		if (i < o->npacks) {
			ptrdiff_t k = hexoid_idx_find(&o->packs[i].idx, oid);
			if (k < 0)
				continue;
			got = pack_read(o, i, hexoid_idx_offset(&o->packs[i].idx, (size_t)k), obj, why,
					sizeof(why));
		} else {
			got = loose_read(o, i - o->npacks, oid, obj, why, sizeof(why));
		}
		if (got == HEXOID_ODB_OK && (o->flags & HEXOID_ODB_VERIFY)) {
			unsigned char h[HEXOID_MAX_RAWSZ];
			if (hexoid_pk_object_id(o->algo, obj->type, obj->data, obj->size, h) || memcmp(h, oid, o->rawsz)) {
				if (i < o->npacks)
					snprintf(why, sizeof(why), "%s: offset %llu: the content does not hash to the object's ID",
						 obj->path, (unsigned long long)obj->offset);
				else
					snprintf(why, sizeof(why), "%s: the content does not hash to the object's ID",
						 o->loose_path);
				hexoid_object_free(obj);
				got = HEXOID_ODB_DAMAGED;
			}
		}
		if (got == HEXOID_ODB_OK) {
			st = got;
			break;
		}
		if (got == HEXOID_ODB_MISSING)
			continue;
		/* Damaged or out of memory: remember the first reason, try the other copies. */
		if (st == HEXOID_ODB_MISSING) {
			st = got;
			snprintf(first, sizeof(first), "%s", why);
		}
	}
	/* Missing: perhaps packed since, into a pack the handle has not seen. Twice at most:
	 * a folder that gains packs as fast as they are mapped is not followed forever. */
	if (st == HEXOID_ODB_MISSING && rounds++ < 2 && reprepare(o))
		goto again;
	pthread_mutex_unlock(&o->lock);
	if (st != HEXOID_ODB_OK) {
		if (st == HEXOID_ODB_MISSING) {
			char hex[HEXOID_MAX_HEXSZ + 1];
			hexoid_encode(hex, o->hexsz, oid, 1, o->algo);
			hex[o->hexsz] = 0;
			say(err, errlen, "%s: object %s not found", o->dirs[0], hex);
		} else {
			say(err, errlen, "%s", first);
		}
	}
	return st;
}

void hexoid_object_free(struct hexoid_object *obj)
{
	if (!obj)
		return;
	free(obj->data);
	obj->data = NULL;
	obj->size = 0;
}

const char *hexoid_odb_strerror(enum hexoid_odb_status status)
{
	switch (status) {
	case HEXOID_ODB_OK: return "ok";
	case HEXOID_ODB_MISSING: return "object not found";
	case HEXOID_ODB_DAMAGED: return "object damaged";
	case HEXOID_ODB_NOMEM: return "out of memory";
	case HEXOID_ODB_EARG: return "bad arguments";
	}
	return "unknown status";
}
