/*
 * The pack walker: a .pack with its .idx, every object's CRC32, the trailing checksums,
 * and every commit and tag inflated (through their delta chains) and checked.
 *
 * SPDX-License-Identifier: MIT
 *
 * The scan runs in two passes over the objects sorted by offset:
 *   1. (parallel, split by bytes) parse each object's header — type, delta base — and
 *      link each delta to its base's entry; then (serial) each object's final type,
 *      catching chains that loop. Nothing is kept for a problem but a flag: its finding
 *      is written again, from the pack, when its offset comes up in pass 2.
 *   2. (parallel, a window at a time) for each object in offset order: its layout and
 *      header problems, its CRC32, its base problems, and for commits and tags the
 *      text, through the delta chain with a per-thread LRU cache of bases. Each window
 *      (a few thousand commits and tags) is cut into one contiguous piece per thread;
 *      the calling thread reports a window's findings, piece after piece, while the
 *      threads go on with the next one.
 * So findings reach the callback in offset order, a window after they are found, with
 * memory bounded by the window rather than by the number of findings, and the report
 * does not depend on the number of threads.
 *
 * Nothing is read outside the mapped pack: every object's bytes are bounded by the next
 * object's offset (or the trailer), and every size is checked before it is used.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "base_cache.h"
#include "common.h"
#include "entry.h"
#include "heads.h"
#include "hexoid_idx.h"

#define NONE UINT32_MAX

/* Commits and tags in a window of pass 2: what the threads work on between two reports,
 * and so what bounds the findings held. */
#define WINDOW_WORK 4096
/* ... and at most this many objects, or packed bytes (blobs cost only their CRC32). */
#define WINDOW_OBJECTS 65536
#define WINDOW_BYTES ((uint64_t)64 << 20)

/* entry flags */
#define F_IS_BASE 1  /* some commit or tag is a delta against it */
#define F_NO_BASE 2  /* a delta whose base is not an object of this pack */
#define F_LOOP 4     /* the walk to the final type came back to this object */
#define F_TWO 8      /* the index puts the next object at the same offset */

struct entry {
	uint64_t off;    /* where the object's header starts */
	uint32_t pos;    /* its entry in the index */
	uint32_t base;   /* for deltas: the base's entry (sorted order), or NONE */
	uint16_t hdrlen; /* header bytes, with the base offset or ID */
	uint8_t type;    /* as packed */
	uint8_t final;   /* the type after deltas; 0 unknown or broken */
	uint8_t broken;  /* 1: the header cannot be parsed; 2: no bytes of its own (outside
			    the pack's objects, or another object at the same offset) */
	uint8_t flags;   /* F_* */
};

struct scan {
	const char *path;              /* the .pack, for findings */
	struct pk_map pack, idxmap;
	struct hexoid_idx idx;
	enum hexoid_algo algo;
	size_t rawsz;
	uint64_t body_end;             /* where the trailer starts */
	struct entry *e;               /* sorted by offset */
	uint32_t n;
	uint32_t *by_pos;              /* index entry -> sorted entry */
	const struct hexoid_scan_options *opt;
	int heads;                     /* commits and tags may be read only to their headers'
					  end (see read_heads) */
	size_t cache_bytes;
	uint32_t outside, first_outside; /* objects the index puts outside the pack */
	atomic_uint_fast64_t done;     /* commits and tags finished, for progress */
	atomic_int stop;
};

/* Where entry i's bytes end: at the next object, or the trailer. */
static uint64_t entry_end(const struct scan *s, uint32_t i)
{
	uint64_t end = i + 1 < s->n ? s->e[i + 1].off : s->body_end;
	return end > s->body_end ? s->body_end : end;
}

/* The size in a parsed header: the object's, or its delta data's. */
static uint64_t entry_size(const struct scan *s, uint32_t i)
{
	struct pk_entry h;

	pk_entry_parse(s->pack.data + s->e[i].off, s->pack.data + entry_end(s, i), s->rawsz, &h);
	return h.size;
}

/*
 * An array of one item per object, `count` items of `size` bytes, zeroed when `zero`;
 * free()d as any other. A pack of git's history has near a million objects, and each
 * 4 KiB page of such an array costs a page fault when first written: where the kernel
 * gives 2 MiB pages on request (transparent huge pages in "madvise" mode), ask for them.
 */
static void *per_object(size_t count, size_t size, int zero)
{
	size_t bytes = (count ? count : 1) * size;
#ifdef MADV_HUGEPAGE
	const size_t huge = (size_t)2 << 20;
	void *p;

	if (bytes >= 2 * huge && posix_memalign(&p, huge, bytes) == 0) {
		madvise(p, bytes & ~(huge - 1), MADV_HUGEPAGE);
		if (zero)
			memset(p, 0, bytes);
		return p;
	}
#endif
	return zero ? calloc(1, bytes) : malloc(bytes);
}

static void oid_finding(struct scan *s, struct hexoid_finding *f, const struct entry *x)
{
	f->has_oid = 1;
	memcpy(f->oid, hexoid_idx_id(&s->idx, x->pos), s->rawsz);
}

/* The entry at `off`, which is before entry i: bases are mostly near their deltas, so
 * gallop back from i, then search the last step. NONE if no entry starts there. */
static uint32_t entry_before(const struct scan *s, uint32_t i, uint64_t off)
{
	uint32_t step = 1, hi = i, lo;

	for (;;) {
		lo = hi > step ? hi - step : 0;
		if (s->e[lo].off <= off || lo == 0)
			break;
		hi = lo;
		step *= 2;
	}
	/* the entry is in [lo, hi) if anywhere */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (s->e[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == i || s->e[lo].off != off)
		return NONE;
	while (lo && s->e[lo - 1].off == off) /* the first of objects at one offset */
		lo--;
	return lo;
}

static int is_delta(unsigned type)
{
	return type == HEXOID_OBJ_OFS_DELTA || type == HEXOID_OBJ_REF_DELTA;
}

/* --- pass 1: headers, bases, final types ------------------------------------------- */

/*
 * Parse entry i's header into *x (s->e[i] itself in pass 1): type, header length, the
 * base's entry for a delta (F_NO_BASE when it is not in this pack). On a problem, sets
 * broken and, when out is given, adds its finding (pass 2 parses a broken entry again,
 * into a copy, for that).
 */
static void parse_header(const struct scan *s, uint32_t i, struct entry *x, struct pk_list *out)
{
	const unsigned char *p = s->pack.data + x->off, *lim = s->pack.data + entry_end(s, i);
	struct pk_entry h;
	enum pk_entry_status st = pk_entry_parse(p, lim, s->rawsz, &h);
	struct hexoid_finding *f;

	x->broken = 1;
	x->type = (uint8_t)h.type;
	if (st == PK_ENTRY_SIZE_CUT || st == PK_ENTRY_SIZE_LONG) {
		if (out && (f = hexoid_pk_add(out, x->off, s->algo, HEXOID_CODE_OBJECT_HEADER, s->path, x->off)))
			hexoid_pk_say(f, "object size varint %s",
				      st == PK_ENTRY_SIZE_CUT ? "runs past the object" : "is too long");
		return;
	}
	x->base = NONE;
	switch (st) {
	case PK_ENTRY_OK:
		break;
	case PK_ENTRY_OFS_LONG:
		if (out && (f = hexoid_pk_add(out, x->off, s->algo, HEXOID_CODE_OBJECT_HEADER, s->path, x->off)))
			hexoid_pk_say(f, "delta base offset varint is too long");
		return;
	case PK_ENTRY_TYPE:
		if (out && (f = hexoid_pk_add(out, x->off, s->algo, HEXOID_CODE_OBJECT_HEADER, s->path, x->off)))
			hexoid_pk_say(f, "unknown object type %u", x->type);
		return;
	default: /* the base's offset or ID is cut short */
		if (out && (f = hexoid_pk_add(out, x->off, s->algo, HEXOID_CODE_OBJECT_HEADER, s->path, x->off)))
			hexoid_pk_say(f, "object header runs past the object's %llu bytes",
				      (unsigned long long)(lim - p));
		return;
	}
	if (h.type == HEXOID_OBJ_OFS_DELTA) {
		if (h.base_rel == 0 || h.base_rel > x->off) {
			if (out && (f = hexoid_pk_add(out, x->off, s->algo, HEXOID_CODE_DELTA_BASE, s->path, x->off)))
				hexoid_pk_say(f, "delta base offset %llu bytes back is outside the pack",
					      (unsigned long long)h.base_rel);
			return;
		}
		x->base = entry_before(s, i, x->off - h.base_rel);
		if (x->base == NONE)
			x->flags |= F_NO_BASE;
	} else if (h.type == HEXOID_OBJ_REF_DELTA) {
		ptrdiff_t pos = hexoid_idx_find(&s->idx, h.base_id);
		if (pos >= 0)
			x->base = s->by_pos[pos];
		else
			x->flags |= F_NO_BASE;
	}
	x->hdrlen = (uint16_t)(h.data - p);
	x->broken = 0;
}

/* A delta's base problem, written from its flag (pass 2). */
static void base_findings(struct scan *s, uint32_t i, struct pk_list *out)
{
	const struct entry *x = &s->e[i];
	struct hexoid_finding *f;
	char hex[2 * HEXOID_MAX_RAWSZ + 1];

	if ((x->flags & F_NO_BASE) && (f = hexoid_pk_add(out, x->off, s->algo, HEXOID_CODE_DELTA_BASE, s->path, x->off))) {
		oid_finding(s, f, x);
		if (x->type == HEXOID_OBJ_OFS_DELTA) {
			/* parse again for the offset it names */
			struct pk_entry h;
			pk_entry_parse(s->pack.data + x->off, s->pack.data + entry_end(s, i), s->rawsz, &h);
			hexoid_pk_say(f, "delta base at offset %llu is not an object of this pack",
				      (unsigned long long)(x->off - h.base_rel));
		} else {
			hexoid_encode(hex, 2 * s->rawsz, s->pack.data + x->off + x->hdrlen - s->rawsz, 1, s->algo);
			hex[2 * s->rawsz] = 0;
			hexoid_pk_say(f, "delta base %s is not in this pack", hex);
		}
	}
	if ((x->flags & F_LOOP) && (f = hexoid_pk_add(out, x->off, s->algo, HEXOID_CODE_DELTA_BASE, s->path, x->off))) {
		oid_finding(s, f, x);
		hexoid_pk_say(f, "delta chain loops back to this object");
	}
}

static void parse_range(struct scan *s, uint32_t from, uint32_t to)
{
	uint32_t i;

	for (i = from; i < to; i++) {
		/* Headers are hundreds of bytes apart on average: each is a cache miss the
		 * hardware does not see coming, so ask for one a few objects ahead. */
		if (i + 8 < to)
			__builtin_prefetch(s->pack.data + s->e[i + 8].off);
		if (!s->e[i].broken)
			parse_header(s, i, &s->e[i], NULL);
	}
}

/* Final types: walk each chain down to a known type, then mark the whole walk. */
static int final_types(struct scan *s)
{
	uint8_t *state = per_object(s->n, 1, 1); /* 1 on the walk, 2 done */
	uint32_t *stack = per_object(s->n, sizeof(*stack), 0);
	uint32_t i;

	if (!state || !stack) {
		free(state);
		free(stack);
		return -1;
	}
	for (i = 0; i < s->n; i++) {
		uint32_t depth = 0, k = i;
		uint8_t final = 0;
		while (state[k] != 2) {
			struct entry *x = &s->e[k];
			if (state[k] == 1) {
				x->flags |= F_LOOP;
				break;
			}
			state[k] = 1;
			stack[depth++] = k;
			if (x->broken)
				break;
			if (!is_delta(x->type)) {
				final = x->type;
				break;
			}
			if (x->base == NONE)
				break;
			k = x->base;
		}
		if (state[k] == 2)
			final = s->e[k].final;
		while (depth) {
			k = stack[--depth];
			s->e[k].final = final;
			state[k] = 2;
		}
	}
	for (i = 0; i < s->n; i++) {
		const struct entry *x = &s->e[i];
		if ((x->final == HEXOID_OBJ_COMMIT || x->final == HEXOID_OBJ_TAG) && is_delta(x->type) &&
		    x->base != NONE)
			s->e[x->base].flags |= F_IS_BASE;
	}
	free(state);
	free(stack);
	return 0;
}

/* --- pass 2: CRC32, inflate, resolve deltas, check ------------------------------------ */

struct pipe;

struct worker {
	struct scan *s;
	unsigned index;            /* which piece of each window is its own */
	unsigned jobs;
	struct pk_list out[2];     /* findings of the windows in flight, by parity */
	struct pk_list *cur;       /* the one being written */
	struct pk_cache cache;
	z_stream z;
	struct libdeflate_decompressor *dd;
	uint32_t *chain;           /* the delta chain being resolved */
	uint32_t chain_cap;
	unsigned char *head;       /* read_heads' buffer */
	size_t head_cap;
	uint64_t commits, tags, resolved, deltas, inflated;
	int failed;                /* out of memory */
	uint32_t from, to;         /* pass 1: the entries to parse */
	struct pipe *pipe;
	pthread_t thread;
};

/* Inflate entry k's data (the object, or its delta) into a new buffer. */
/* A commit or tag, entry `about`, that would be built larger than HEXOID_TEXT_MAX: the
 * finding, and no memory spent on it. */
static void too_large(struct worker *w, uint32_t about, uint64_t size)
{
	struct scan *s = w->s;
	struct hexoid_finding *f;

	if ((f = hexoid_pk_add(w->cur, s->e[about].off, s->algo, HEXOID_CODE_TOO_LARGE, s->path,
			       s->e[about].off))) {
		oid_finding(s, f, &s->e[about]);
		hexoid_pk_say(f, "a %s of %llu bytes (or a delta base of one): more than the %llu MiB "
			      "read of one; not checked",
			      hexoid_object_type_name((enum hexoid_object_type)s->e[about].final),
			      (unsigned long long)size, (unsigned long long)(HEXOID_TEXT_MAX >> 20));
	}
}

static unsigned char *inflate_entry(struct worker *w, uint32_t k, uint32_t about, size_t *len)
{
	struct scan *s = w->s;
	const struct entry *x = &s->e[k];
	const unsigned char *in = s->pack.data + x->off + x->hdrlen;
	size_t inlen = (size_t)(entry_end(s, k) - x->off - x->hdrlen), used;
	uint64_t size = entry_size(s, k);
	unsigned char *buf;
	char why[160];
	struct hexoid_finding *f;

	/* What a commit or tag is built from is no larger than it, in git's packs: a base
	 * or delta data past the limit is one. */
	if (size > HEXOID_TEXT_MAX && size <= pk_inflate_bound(inlen)) {
		too_large(w, about, size);
		return NULL;
	}
	if (size > pk_inflate_bound(inlen) || size > SIZE_MAX - PK_INFLATE_SLACK) {
		if ((f = hexoid_pk_add(w->cur, s->e[about].off, s->algo, HEXOID_CODE_OBJECT_HEADER, s->path, s->e[about].off))) {
			oid_finding(s, f, &s->e[about]);
			hexoid_pk_say(f, "%s%llu bytes claimed for %zu packed bytes",
			       k == about ? "" : "delta base: ", (unsigned long long)size, inlen);
		}
		return NULL;
	}
	buf = malloc((size_t)size + PK_INFLATE_SLACK);
	if (!buf) {
		w->failed = 1;
		return NULL;
	}
	if (hexoid_pk_inflate(w->dd, &w->z, in, inlen, buf, (size_t)size, &used, why, sizeof(why)) == 0) {
		if (used == inlen) {
			w->inflated += size;
			*len = (size_t)size;
			return buf;
		}
		snprintf(why, sizeof(why), "zlib stream ends %zu bytes before the next object",
			 inlen - used);
	}
	free(buf);
	if ((f = hexoid_pk_add(w->cur, s->e[about].off, s->algo, HEXOID_CODE_ZLIB, s->path, s->e[about].off))) {
		oid_finding(s, f, &s->e[about]);
		if (k == about)
			hexoid_pk_say(f, "%s", why);
		else
			hexoid_pk_say(f, "delta base at offset %llu: %s", (unsigned long long)x->off, why);
	}
	return NULL;
}

/* Put a copy of an entry's content in the cache (evicting the least recently used).
 * Only between uses of cached buffers: a put may free any of them. */
static void keep(struct worker *w, uint32_t entry, const unsigned char *data, size_t len)
{
	unsigned char *copy;

	if (len > w->cache.limit / 4) /* one huge base would flush everything else */
		return;
	copy = malloc(len ? len : 1);
	if (copy) {
		memcpy(copy, data, len);
		hexoid_pk_cache_put(&w->cache, entry, copy, len);
	}
}

/* The content of entry x, through its delta chain. The caller frees what is returned
 * unless *cached says it belongs to the cache. NULL after a finding (or out of memory). */
static unsigned char *resolve(struct worker *w, uint32_t x, size_t *len, int *cached)
{
	struct scan *s = w->s;
	uint32_t depth = 0, k = x;
	unsigned char *buf = NULL;
	size_t blen = 0;
	int owned = 1;

	*cached = 0;
	for (;;) {
		struct pk_cslot *hit = hexoid_pk_cache_get(&w->cache, k);
		if (hit) {
			buf = hit->data;
			blen = hit->len;
			owned = 0;
			break;
		}
		if (!is_delta(s->e[k].type)) {
			buf = inflate_entry(w, k, x, &blen);
			if (!buf)
				return NULL;
			break;
		}
		if (depth == w->chain_cap) {
			uint32_t cap = w->chain_cap ? w->chain_cap * 2 : 64;
			uint32_t *v = realloc(w->chain, cap * sizeof(*v));
			if (!v) {
				w->failed = 1;
				return NULL;
			}
			w->chain = v;
			w->chain_cap = cap;
		}
		w->chain[depth++] = k;
		k = s->e[k].base; /* step B made sure the chain ends */
	}
	/* buf is entry k's content. Keep a copy if others build on it. */
	if (owned && k != x && (s->e[k].flags & F_IS_BASE))
		keep(w, k, buf, blen);
	while (depth) {
		uint32_t d = w->chain[--depth];
		size_t dlen, rlen;
		unsigned char *delta = inflate_entry(w, d, x, &dlen), *r;
		char why[192];
		int oom = 0;
		uint64_t builds;

		if (!delta) {
			if (owned)
				free(buf);
			return NULL;
		}
		builds = hexoid_pk_delta_result_size(delta, dlen);
		/* (One its delta could never make is the delta's finding, below.) */
		if (builds > HEXOID_TEXT_MAX && builds != UINT64_MAX && builds <= (uint64_t)dlen * 0xffffff) {
			too_large(w, x, builds);
			free(delta);
			if (owned)
				free(buf);
			return NULL;
		}
		r = hexoid_pk_apply_delta(buf, blen, delta, dlen, &rlen, why, sizeof(why), &oom);
		free(delta);
		if (owned)
			free(buf);
		if (!r) {
			struct hexoid_finding *f;
			if (oom)
				w->failed = 1;
			else if ((f = hexoid_pk_add(w->cur, s->e[x].off, s->algo, HEXOID_CODE_DELTA, s->path, s->e[x].off))) {
				oid_finding(s, f, &s->e[x]);
				if (d == x)
					hexoid_pk_say(f, "%s", why);
				else
					hexoid_pk_say(f, "delta base at offset %llu: %s", (unsigned long long)s->e[d].off, why);
			}
			return NULL;
		}
		w->deltas++;
		buf = r;
		blen = rlen;
		owned = 1;
		if (d != x && (s->e[d].flags & F_IS_BASE))
			keep(w, d, r, rlen);
	}
	if (!owned) {
		*cached = 1;
	} else if ((s->e[x].flags & F_IS_BASE)) {
		keep(w, x, buf, blen);
	}
	*len = blen;
	return buf;
}

/*
 * Entry k, a commit or tag stored whole that no delta builds on, read only as far as
 * its headers go: up to and with the blank line that ends them, which is all
 * hexoid_object_check() reads (heads.h). The rest (the message, a signature) is not
 * inflated. Only for an entry whose packed bytes match the index's CRC32: the bytes
 * index-pack inflated whole when it wrote that CRC32. An object with no blank line, or
 * anything out of the ordinary about its stream, goes through inflate_entry() instead,
 * which finds and says what it always did. *owned says whether the caller frees the
 * text (else it is the worker's); *len gets its length.
 */
#define HEAD_ROOM ((size_t)64 << 10)

static unsigned char *read_heads(struct worker *w, uint32_t k, size_t *len, int *owned)
{
	struct scan *s = w->s;
	const struct entry *x = &s->e[k];
	const unsigned char *in = s->pack.data + x->off + x->hdrlen;
	size_t inlen = (size_t)(entry_end(s, k) - x->off - x->hdrlen), got, room;
	uint64_t size = entry_size(s, k);

	*owned = 1;
	/* Sizes a whole read judges (too large, more than the stream can hold) are its. */
	if (size > HEXOID_TEXT_MAX || size > pk_inflate_bound(inlen))
		return inflate_entry(w, k, k, len);
	/* Headers longer than HEAD_ROOM (a signature of megabytes) are read whole. */
	room = size < HEAD_ROOM ? (size_t)size : HEAD_ROOM;
	if (room > w->head_cap) {
		size_t cap = w->head_cap ? w->head_cap : 4096;
		unsigned char *buf;
		while (cap < room)
			cap *= 2;
		buf = malloc(cap);
		if (!buf)
			return inflate_entry(w, k, k, len);
		free(w->head);
		w->head = buf;
		w->head_cap = cap;
	}
	got = hexoid_pk_inflate_heads(in, inlen, w->head, room);
	if (!got)
		return inflate_entry(w, k, k, len);
	*owned = 0;
	*len = got;
	w->inflated += got;
	return w->head;
}

/* The .pack and .idx paths for `path`, which names either. */
static int pair_paths(const char *path, char **pack, char **idx)
{
	size_t len = strlen(path), stem = len;

	if (len > 5 && (!strcmp(path + len - 5, ".pack")))
		stem = len - 5;
	else if (len > 4 && !strcmp(path + len - 4, ".idx"))
		stem = len - 4;
	*pack = malloc(stem + 6);
	*idx = malloc(stem + 5);
	if (!*pack || !*idx) {
		free(*pack);
		free(*idx);
		return -1;
	}
	memcpy(*pack, path, stem);
	strcpy(*pack + stem, ".pack");
	memcpy(*idx, path, stem);
	strcpy(*idx + stem, ".idx");
	return 0;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/*
 * The pack's checksum and the index's, in a thread of its own when there are several
 * jobs: neither is then on the scan's critical path (the index's, 24 MB for git's own
 * history, was hashed after the scan's workers had finished).
 */
struct pack_sum {
	const struct scan *s;
	unsigned char got[HEXOID_MAX_RAWSZ], idx_got[HEXOID_MAX_RAWSZ];
	int rc, idx_rc;
	pthread_t thread;
	int threaded;
};

static void *pack_sum_main(void *p)
{
	struct pack_sum *ps = p;
	const struct scan *s = ps->s;

	ps->rc = hexoid_pk_digest(s->algo, s->pack.data, (size_t)s->body_end, ps->got);
	ps->idx_rc = hexoid_pk_digest(s->algo, s->idxmap.data, s->idxmap.size - s->rawsz, ps->idx_got);
	return NULL;
}

static void pack_sum_start(struct pack_sum *ps, const struct scan *s, unsigned jobs)
{
	ps->s = s;
	ps->threaded = jobs > 1 && pthread_create(&ps->thread, NULL, pack_sum_main, ps) == 0;
	if (!ps->threaded)
		pack_sum_main(ps);
}

/* Entry i's CRC32 against the index's: 0 when they match. */
static int check_crc(struct scan *s, uint32_t i, struct pk_list *out)
{
	const struct entry *x = &s->e[i];
	const unsigned char *p = s->pack.data + x->off;
	uint64_t len = entry_end(s, i) - x->off;
	uint32_t c;
	uint32_t want = hexoid_idx_crc32(&s->idx, x->pos);
	struct hexoid_finding *f;

	c = hexoid_pk_crc32(p, (size_t)len);
	if ((uint32_t)c != want && (f = hexoid_pk_add(out, x->off, s->algo, HEXOID_CODE_CRC32_MISMATCH, s->path, x->off))) {
		oid_finding(s, f, x);
		hexoid_pk_say(f, "crc32 mismatch: the index says %08x, the %llu packed bytes give %08x", want,
		       (unsigned long long)len, (unsigned)c);
	}
	return c != want;
}

/* Everything about entries [from, to), in offset order, into w->cur. */
static void work_range(struct worker *w, uint32_t from, uint32_t to)
{
	struct scan *s = w->s;
	int crc = hexoid_idx_has_crc32(&s->idx);
	uint32_t i;

	for (i = from; i < to; i++) {
		const struct entry *x = &s->e[i];
		unsigned char *text;
		size_t len;
		int cached, owned, crc_ok;

		if (atomic_load_explicit(&s->stop, memory_order_relaxed) || w->failed)
			break;
		/* The index's CRCs are in ID order, the entries in offset order: ask for the
		 * CRC of an entry a little ahead while this one is worked on. */
		if (crc && i + 16 < to)
			__builtin_prefetch(s->idx.crcs + 4 * (size_t)s->e[i + 16].pos);
		if (x->broken == 2) {
			struct hexoid_finding *f;
			if ((x->flags & F_TWO) &&
			    (f = hexoid_pk_add(w->cur, x->off, s->algo, HEXOID_CODE_PACK_LAYOUT, s->path, x->off))) {
				oid_finding(s, f, x);
				hexoid_pk_say(f, "the index puts two objects at offset %llu", (unsigned long long)x->off);
			}
			continue; /* no bytes of its own; objects outside: one finding, at the start */
		}
		if (x->broken) {
			struct entry copy = *x;
			parse_header(s, i, &copy, w->cur);
		}
		crc_ok = crc && !check_crc(s, i, w->cur);
		if (x->flags & (F_NO_BASE | F_LOOP))
			base_findings(s, i, w->cur);
		if (x->final != HEXOID_OBJ_COMMIT && x->final != HEXOID_OBJ_TAG)
			continue;
		if (s->heads && crc_ok && !is_delta(x->type) && !(x->flags & F_IS_BASE) &&
		    !s->opt->verify_ids) {
			text = read_heads(w, i, &len, &owned);
			cached = !owned;
		} else {
			text = resolve(w, i, &len, &cached);
		}
		if (text) {
			if (x->final == HEXOID_OBJ_COMMIT)
				w->commits++;
			else
				w->tags++;
			w->resolved += is_delta(x->type);
			hexoid_pk_check_object(w->cur, x->off, s->path, x->off, (enum hexoid_object_type)x->final,
					text, len, hexoid_idx_id(&s->idx, x->pos), s->algo,
					s->opt->verify_ids);
			if (!cached)
				free(text);
		}
		atomic_fetch_add_explicit(&s->done, 1, memory_order_relaxed);
		if (w->cur->oom)
			w->failed = 1;
	}
}

/* What one entry costs in pass 2, roughly, to cut a window into even pieces: its CRC32
 * over its bytes, and for a commit or tag the inflation and the check. */
static uint64_t cost(const struct scan *s, uint32_t i)
{
	const struct entry *x = &s->e[i];
	uint64_t bytes = x->broken == 2 ? 0 : entry_end(s, i) - x->off;

	if (x->final == HEXOID_OBJ_COMMIT || x->final == HEXOID_OBJ_TAG)
		return 64 + (bytes >> 2);
	return 1 + (bytes >> 8);
}

/* Worker `index` of `jobs`'s piece of the window [from, to): contiguous, by cost. */
static void piece(const struct scan *s, uint32_t from, uint32_t to, unsigned index, unsigned jobs,
		  uint32_t *pf, uint32_t *pt)
{
	uint64_t total = 0, acc = 0, lo, hi;
	uint32_t i;

	if (jobs == 1) {
		*pf = from;
		*pt = to;
		return;
	}
	for (i = from; i < to; i++)
		total += cost(s, i);
	lo = total * index / jobs;
	hi = total * (index + 1) / jobs;
	*pf = *pt = to;
	for (i = from; i < to; i++) {
		if (acc >= lo && *pf == to)
			*pf = i;
		if (acc >= hi && index + 1 < jobs) {
			*pt = i;
			break;
		}
		acc += cost(s, i);
	}
	if (*pf > *pt)
		*pf = *pt;
}

/*
 * The windows of pass 2 and their hand-over: a worker may work on window k only once
 * window k - 2 has been reported (its list of that parity is free again); the calling
 * thread reports window k once every worker is done with it.
 */
struct pipe {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	const uint32_t *win;           /* window k is entries [win[k], win[k + 1]) */
	uint32_t nwin;
	uint32_t reported;             /* windows reported */
	unsigned finished[2];          /* workers done with the window of each parity */
};

static void *worker_main(void *p)
{
	struct worker *w = p;
	struct pipe *pp = w->pipe;
	struct scan *s = w->s;
	uint32_t k;

	for (k = 0; k < pp->nwin; k++) {
		uint32_t from, to;
		pthread_mutex_lock(&pp->lock);
		while (k >= pp->reported + 2 && !atomic_load(&s->stop))
			pthread_cond_wait(&pp->cond, &pp->lock);
		pthread_mutex_unlock(&pp->lock);
		if (atomic_load(&s->stop))
			break;
		piece(s, pp->win[k], pp->win[k + 1], w->index, w->jobs, &from, &to);
		w->cur = &w->out[k & 1];
		work_range(w, from, to);
		pthread_mutex_lock(&pp->lock);
		pp->finished[k & 1]++;
		pthread_cond_broadcast(&pp->cond);
		pthread_mutex_unlock(&pp->lock);
	}
	return NULL;
}

/* Findings that are not about one object's bytes (the count, objects outside the pack,
 * checksums): few, kept sorted by offset, reported among the others in their place. */
struct level {
	struct pk_list l;
	size_t next;                   /* the first not yet reported */
};

static void level_sort(struct level *lv)
{
	size_t i, j;

	/* insertion sort by key, stable: a handful of findings */
	for (i = lv->next + 1; i < lv->l.n; i++) {
		struct pk_found t = lv->l.v[i];
		for (j = i; j > lv->next && lv->l.v[j - 1].key > t.key; j--)
			lv->l.v[j] = lv->l.v[j - 1];
		lv->l.v[j] = t;
	}
}

/* Report level findings up to key (all with UINT64_MAX and last set). 1 if stopped. */
static int level_flush(struct level *lv, uint64_t key, int all, const struct hexoid_scan_options *opt,
		       struct hexoid_scan_stats *st)
{
	while (lv->next < lv->l.n && (all || lv->l.v[lv->next].key < key))
		if (hexoid_pk_emit(&lv->l.v[lv->next++].f, opt, st))
			return 1;
	return 0;
}

/* Report a list (one piece of a window), the level findings in their place; empties it.
 * 1 if the callback asked to stop. */
static int report_list(struct pk_list *l, struct level *lv, const struct hexoid_scan_options *opt,
		       struct hexoid_scan_stats *st)
{
	size_t i;
	int stop = 0;

	for (i = 0; i < l->n && !stop; i++)
		stop = level_flush(lv, l->v[i].key + 1, 0, opt, st) || hexoid_pk_emit(&l->v[i].f, opt, st);
	l->n = 0;
	return stop;
}

/* Progress from the calling thread. 1 if it asked to stop. */
static int progress(struct scan *s, uint64_t total, double *last, int force)
{
	return hexoid_pk_progress(s->opt, atomic_load(&s->done), total, last, force);
}

/* Cut pass 2 into windows. Returns the boundaries (n + 1 of them at most), or NULL. */
static uint32_t *windows(const struct scan *s, uint32_t *nwin)
{
	uint32_t *win = per_object((size_t)s->n + 2, sizeof(*win), 0), i, k = 0;
	uint64_t work = 0, objects = 0, bytes = 0;

	if (!win)
		return NULL;
	win[k++] = 0;
	for (i = 0; i < s->n; i++) {
		const struct entry *x = &s->e[i];
		if (work >= WINDOW_WORK || objects >= WINDOW_OBJECTS || bytes >= WINDOW_BYTES) {
			win[k++] = i;
			work = objects = bytes = 0;
		}
		work += x->final == HEXOID_OBJ_COMMIT || x->final == HEXOID_OBJ_TAG;
		objects++;
		bytes += x->broken == 2 ? 0 : entry_end(s, i) - x->off;
	}
	if (s->n)
		win[k++] = s->n;
	*nwin = k - 1;
	return win;
}

/*
 * Pass 2 with `jobs` workers (threads when more than one; this thread reports). Returns
 * 0 when every window was reported, 1 when a callback stopped it, -1 when out of memory.
 */
static int pass2(struct scan *s, struct worker *w, unsigned jobs, struct level *lv, uint64_t total,
		 struct hexoid_scan_stats *st)
{
	struct pipe pp;
	uint32_t nwin = 0, k;
	uint32_t *win = windows(s, &nwin);
	unsigned started = 0, j;
	double last = 0;
	int rc = 0;

	if (!win)
		return -1;
	if (jobs == 1) {
		for (k = 0; k < nwin && !rc; k++) {
			w[0].cur = &w[0].out[0];
			work_range(&w[0], win[k], win[k + 1]);
			if (w[0].failed || w[0].cur->oom)
				rc = -1;
			else if (report_list(w[0].cur, lv, s->opt, st) ||
				 (k + 1 < nwin && level_flush(lv, s->e[win[k + 1]].off, 0, s->opt, st)) ||
				 progress(s, total, &last, 0))
				rc = 1;
		}
		free(win);
		return rc;
	}
	pthread_mutex_init(&pp.lock, NULL);
	pthread_cond_init(&pp.cond, NULL);
	pp.win = win;
	pp.nwin = nwin;
	pp.reported = 0;
	pp.finished[0] = pp.finished[1] = 0;
	for (j = 0; j < jobs; j++) {
		w[j].pipe = &pp;
		w[j].index = j;
		w[j].jobs = jobs;
		if (pthread_create(&w[j].thread, NULL, worker_main, &w[j]) != 0)
			break;
		started++;
	}
	if (started < jobs) {
		/* Not as many threads as pieces: stop those started, and do it all here. */
		atomic_store(&s->stop, 1);
		pthread_mutex_lock(&pp.lock);
		pthread_cond_broadcast(&pp.cond);
		pthread_mutex_unlock(&pp.lock);
		for (j = 0; j < started; j++)
			pthread_join(w[j].thread, NULL);
		pthread_cond_destroy(&pp.cond);
		pthread_mutex_destroy(&pp.lock);
		free(win);
		/* What the threads did before they stopped is done again here: forget it. */
		for (j = 0; j < jobs; j++) {
			w[j].out[0].n = w[j].out[1].n = 0;
			w[j].commits = w[j].tags = w[j].resolved = w[j].deltas = w[j].inflated = 0;
		}
		atomic_store(&s->done, 0);
		atomic_store(&s->stop, 0);
		return pass2(s, w, 1, lv, total, st);
	}
	for (k = 0; k < nwin && !rc; k++) {
		pthread_mutex_lock(&pp.lock);
		while (pp.finished[k & 1] < jobs) {
			struct timespec t;
			clock_gettime(CLOCK_REALTIME, &t);
			t.tv_nsec += 100 * 1000 * 1000;
			if (t.tv_nsec >= 1000000000) {
				t.tv_sec++;
				t.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&pp.cond, &pp.lock, &t);
			if (pp.finished[k & 1] < jobs) {
				pthread_mutex_unlock(&pp.lock);
				rc = progress(s, total, &last, 0);
				pthread_mutex_lock(&pp.lock);
				if (rc)
					break;
			}
		}
		pthread_mutex_unlock(&pp.lock);
		if (rc)
			break;
		for (j = 0; j < jobs && !rc; j++) {
			if (w[j].failed || w[j].out[k & 1].oom)
				rc = -1;
			else if (report_list(&w[j].out[k & 1], lv, s->opt, st))
				rc = 1;
		}
		if (!rc && k + 1 < nwin && level_flush(lv, s->e[win[k + 1]].off, 0, s->opt, st))
			rc = 1;
		if (!rc && progress(s, total, &last, 0))
			rc = 1;
		pthread_mutex_lock(&pp.lock);
		pp.finished[k & 1] = 0;
		pp.reported = k + 1;
		pthread_cond_broadcast(&pp.cond);
		pthread_mutex_unlock(&pp.lock);
	}
	if (rc) {
		atomic_store(&s->stop, 1);
		pthread_mutex_lock(&pp.lock);
		pthread_cond_broadcast(&pp.cond);
		pthread_mutex_unlock(&pp.lock);
	}
	for (j = 0; j < jobs; j++)
		pthread_join(w[j].thread, NULL);
	pthread_cond_destroy(&pp.cond);
	pthread_mutex_destroy(&pp.lock);
	free(win);
	return rc;
}

/* Pass 1, split by packed bytes over `jobs` threads (or this one). */
static void *parse_main(void *p)
{
	struct worker *w = p;
	parse_range(w->s, w->from, w->to);
	return NULL;
}

static void pass1(struct scan *s, struct worker *w, unsigned jobs)
{
	uint64_t per = (s->body_end + jobs - 1) / jobs;
	unsigned j, started = 0;
	uint32_t i = 0;

	for (j = 0; j < jobs; j++) {
		uint64_t limit = (j + 1) * per;
		w[j].from = i;
		while (i < s->n && (j + 1 == jobs || s->e[i].off < limit))
			i++;
		w[j].to = i;
	}
	for (j = 1; j < jobs; j++) {
		if (pthread_create(&w[j].thread, NULL, parse_main, &w[j]) != 0)
			break;
		started = j;
	}
	parse_main(&w[0]);
	for (j = started + 1; j < jobs; j++) /* those without a thread */
		parse_main(&w[j]);
	for (j = 1; j <= started; j++)
		pthread_join(w[j].thread, NULL);
}

/*
 * Sort the entries by offset: LSD radix sort of (offset, entry) pairs, 11 bits a pass,
 * only as many passes as the largest offset needs (two for a pack under 4 MiB... three
 * up to 8 GiB). The entries are allocated after, so that the pairs and the entries are
 * not all held at once. Returns -1 when out of memory.
 */
static int sort_by_offset(struct scan *s)
{
	struct pair { uint64_t off; uint32_t pos; } *a, *b, *t;
	uint64_t max = 0;
	uint32_t i, n = s->n;
	unsigned shift;

	a = per_object(n, sizeof(*a), 0);
	b = per_object(n, sizeof(*b), 0);
	if (!a || !b) {
		free(a);
		free(b);
		return -1;
	}
	for (i = 0; i < n; i++) {
		a[i].off = hexoid_idx_offset(&s->idx, i);
		a[i].pos = i;
		if (a[i].off > max)
			max = a[i].off;
	}
	for (shift = 0; shift < 64 && (max >> shift); shift += 11) {
		uint32_t count[2048] = { 0 }, sum = 0, c;
		for (i = 0; i < n; i++)
			count[(a[i].off >> shift) & 2047]++;
		for (c = 0; c < 2048; c++) {
			uint32_t k = count[c];
			count[c] = sum;
			sum += k;
		}
		for (i = 0; i < n; i++)
			b[count[(a[i].off >> shift) & 2047]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	free(b);
	s->e = per_object(n, sizeof(*s->e), 1);
	if (!s->e) {
		free(a);
		return -1;
	}
	for (i = 0; i < n; i++) {
		s->e[i].off = a[i].off;
		s->e[i].pos = a[i].pos;
		s->e[i].base = NONE;
		s->by_pos[a[i].pos] = i;
	}
	free(a);
	return 0;
}

/* Pack-level checks: the pack's checksum against its trailer and the index's record of
 * it, the index's own checksum. */
static void check_sums(struct scan *s, struct pack_sum *ps, struct pk_list *out)
{
	const unsigned char *pack_sum, *idx_sum;
	struct hexoid_finding *f;

	hexoid_idx_checksums(&s->idx, &pack_sum, &idx_sum);
	if (memcmp(pack_sum, s->pack.data + s->body_end, s->rawsz) &&
	    (f = hexoid_pk_add(out, s->body_end, s->algo, HEXOID_CODE_CHECKSUM_MISMATCH, s->path, s->body_end)))
		hexoid_pk_say(f, "checksum mismatch: the pack's trailer is not the pack checksum its index records");
	if (ps->threaded)
		pthread_join(ps->thread, NULL);
	ps->threaded = 0;
	if (ps->rc != 0 || memcmp(ps->got, s->pack.data + s->body_end, s->rawsz)) {
		if ((f = hexoid_pk_add(out, s->body_end, s->algo, HEXOID_CODE_CHECKSUM_MISMATCH, s->path, s->body_end)))
			hexoid_pk_say(f, "checksum mismatch: the pack's contents do not hash to its trailer");
	}
	if (ps->idx_rc != 0 || memcmp(ps->idx_got, idx_sum, s->rawsz)) {
		if ((f = hexoid_pk_add(out, UINT64_MAX, s->algo, HEXOID_CODE_CHECKSUM_MISMATCH, s->path, HEXOID_NO_OFFSET)))
			hexoid_pk_say(f, "checksum mismatch: the index's contents do not hash to its trailer");
	}
}

static int scan_mem(const char *pack_path, const char *idx_path, const void *pack,
		    size_t pack_size, const void *idx, size_t idx_size,
		    const struct hexoid_scan_options *opt, int heads, struct hexoid_scan_stats *stats,
		    char *err, size_t errlen)
{
	struct scan s;
	struct hexoid_idx_error ie;
	struct level lv = { { 0 }, 0 };
	struct worker *w = NULL;
	struct pack_sum psum = { 0 };
	struct hexoid_scan_stats st;
	unsigned jobs = opt->jobs > 1 ? opt->jobs : 1, j;
	uint32_t i, version, count;
	uint64_t work = 0;
	int rc = -1;

	if (jobs > 256)
		jobs = 256;
	memset(&s, 0, sizeof(s));
	memset(&st, 0, sizeof(st));
	s.opt = opt;
	s.heads = heads;
	s.cache_bytes = opt->cache_bytes ? opt->cache_bytes : (size_t)PK_CACHE_DEFAULT;
	s.path = pack_path;
	s.pack.data = pack;
	s.pack.size = pack_size;
	s.idxmap.data = idx;
	s.idxmap.size = idx_size;
	if (hexoid_pk_hash_unavailable()) { /* the pack's checksum cannot be checked */
		snprintf(err, errlen, "%s: cannot hash: %s", pack_path, hexoid_pk_hash_unavailable());
		goto out;
	}
	if (hexoid_idx_open(&s.idx, s.idxmap.data, s.idxmap.size, opt->algo, &ie) != HEXOID_IDX_OK) {
		snprintf(err, errlen, "%s: %s", idx_path, ie.message);
		goto out;
	}
	s.algo = hexoid_idx_algo(&s.idx);
	s.rawsz = hexoid_rawsz(s.algo);
	s.n = (uint32_t)hexoid_idx_count(&s.idx);
	if (s.pack.size < 12 + s.rawsz || memcmp(s.pack.data, "PACK", 4)) {
		snprintf(err, errlen, "%s: not a pack: %s", pack_path,
			 s.pack.size < 12 + s.rawsz ? "shorter than a pack header and checksum"
						    : "no PACK signature");
		goto out;
	}
	version = be32(s.pack.data + 4);
	if (version != 2 && version != 3) {
		snprintf(err, errlen, "%s: pack version %u (only 2 and 3 exist)", pack_path, version);
		goto out;
	}
	s.body_end = s.pack.size - s.rawsz;
	st.objects = s.n;

	/* Entries sorted by offset; each ends where the next begins. */
	s.by_pos = per_object(s.n, sizeof(*s.by_pos), 0);
	if (!s.by_pos || sort_by_offset(&s)) {
		snprintf(err, errlen, "%s: out of memory for %u objects", pack_path, s.n);
		goto out;
	}
	pack_sum_start(&psum, &s, jobs);
	/* Objects the index puts outside the body (a truncated pack, say) are one finding,
	 * not one each; two objects at one offset are one each. */
	for (i = 0; i < s.n; i++) {
		struct entry *x = &s.e[i];
		if (x->off < 12 || x->off >= s.body_end) {
			x->broken = 2;
			if (!s.outside++)
				s.first_outside = i;
		} else if (entry_end(&s, i) == x->off) {
			x->broken = 2;
			x->flags |= F_TWO;
		}
	}
	if (s.outside) {
		struct entry *x = &s.e[s.first_outside];
		struct hexoid_finding *f = hexoid_pk_add(&lv.l, x->off, s.algo, HEXOID_CODE_PACK_LAYOUT, pack_path, x->off);
		if (f) {
			oid_finding(&s, f, x);
			hexoid_pk_say(f, "truncated? the index puts %u object%s outside the pack's objects (12..%llu), the first at offset %llu",
			       s.outside, s.outside == 1 ? "" : "s", (unsigned long long)s.body_end,
			       (unsigned long long)x->off);
		}
	}
	count = be32(s.pack.data + 8);
	if (count != s.n) {
		struct hexoid_finding *f = hexoid_pk_add(&lv.l, 8, s.algo, HEXOID_CODE_PACK_LAYOUT, s.path, 8);
		if (f)
			hexoid_pk_say(f, "the pack header counts %u objects, its index %u", count, s.n);
	}
	level_sort(&lv);

	w = calloc(jobs, sizeof(*w));
	if (!w) {
		snprintf(err, errlen, "%s: out of memory", pack_path);
		goto out;
	}
	for (j = 0; j < jobs; j++)
		w[j].s = &s;
	pass1(&s, w, jobs);
	if (final_types(&s)) {
		snprintf(err, errlen, "%s: out of memory", pack_path);
		goto out;
	}
	for (i = 0; i < s.n; i++)
		work += s.e[i].final == HEXOID_OBJ_COMMIT || s.e[i].final == HEXOID_OBJ_TAG;
	for (j = 0; j < jobs; j++) {
		if (hexoid_pk_cache_init(&w[j].cache, s.cache_bytes) || inflateInit(&w[j].z) != Z_OK ||
		    !(w[j].dd = libdeflate_alloc_decompressor())) {
			snprintf(err, errlen, "%s: out of memory", pack_path);
			goto out;
		}
	}
	rc = pass2(&s, w, jobs, &lv, work, &st);
	for (j = 0; j < jobs; j++) {
		st.commits += w[j].commits;
		st.tags += w[j].tags;
		st.deltas += w[j].resolved;
		st.applied += w[j].deltas;
		st.inflated += w[j].inflated;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s: out of memory while scanning", pack_path);
		goto out;
	}
	if (rc == 0) {
		check_sums(&s, &psum, &lv.l);
		if (lv.l.oom) {
			snprintf(err, errlen, "%s: out of memory", pack_path);
			rc = -1;
			goto out;
		}
		level_sort(&lv);
		rc = level_flush(&lv, UINT64_MAX, 1, opt, &st);
	}
	if (rc == 0) {
		double last = 0;
		rc = progress(&s, work, &last, 1);
	}
out:
	if (psum.threaded)
		pthread_join(psum.thread, NULL);
	if (w) {
		for (j = 0; j < jobs; j++) {
			hexoid_pk_list_free(&w[j].out[0]);
			hexoid_pk_list_free(&w[j].out[1]);
			if (w[j].cache.bucket)
				hexoid_pk_cache_free(&w[j].cache);
			if (w[j].z.state)
				inflateEnd(&w[j].z);
			if (w[j].dd)
				libdeflate_free_decompressor(w[j].dd);
			free(w[j].chain);
			free(w[j].head);
		}
		free(w);
	}
	hexoid_pk_list_free(&lv.l);
	hexoid_pk_stats_out(stats, &st);
	free(s.e);
	free(s.by_pos);
	return rc;
}

static const struct hexoid_scan_stats zero_stats;

int hexoid_pack_scan_buffers(const char *name, const void *pack, size_t pack_size,
			     const void *idx, size_t idx_size,
			     const struct hexoid_scan_options *options,
			     struct hexoid_scan_stats *stats, char *err, size_t errlen)
{
	char dummy[1];

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	if ((!pack && pack_size) || (!idx && idx_size) || !hexoid_pk_options_ok(options)) {
		snprintf(err, errlen, "%s: bad arguments", name ? name : "(pack)");
		hexoid_pk_stats_out(stats, &zero_stats);
		return -1;
	}
	return scan_mem(name ? name : "(pack)", name ? name : "(index)", pack, pack_size, idx,
			idx_size, options, 0, stats, err, errlen);
}

static int scan_file(const char *path, const struct hexoid_scan_options *opt, int heads,
		     struct hexoid_scan_stats *stats, char *err, size_t errlen)
{
	struct pk_map pack = { NULL, 0 }, idx = { NULL, 0 };
	char *pack_path = NULL, *idx_path = NULL;
	char dummy[1];
	int rc = -1;

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	hexoid_pk_stats_out(stats, &zero_stats);
	if (!path || !hexoid_pk_options_ok(opt) || pair_paths(path, &pack_path, &idx_path)) {
		snprintf(err, errlen, "%s: %s", path ? path : "(null)",
			 path && hexoid_pk_options_ok(opt) ? "out of memory" : "bad arguments");
		return -1;
	}
	if (hexoid_pk_map_file(&idx, idx_path, err, errlen) == 0 &&
	    hexoid_pk_map_file(&pack, pack_path, err, errlen) == 0) {
#ifdef MADV_POPULATE_READ
		/* Every byte is read (CRC32s, checksum): map the pages in one call rather
		 * than a fault each. Only a hint: a kernel without it says EINVAL. */
		if (pack.size)
			madvise((void *)pack.data, pack.size, MADV_POPULATE_READ);
		/* The index too: its checksum reads it whole, and its offsets are read for
		 * every object. */
		if (idx.size)
			madvise((void *)idx.data, idx.size, MADV_POPULATE_READ);
#endif
		rc = scan_mem(pack_path, idx_path, pack.data, pack.size, idx.data, idx.size, opt,
			      heads, stats, err, errlen);
	}
	hexoid_pk_unmap(&pack);
	hexoid_pk_unmap(&idx);
	free(pack_path);
	free(idx_path);
	return rc;
}

int hexoid_pack_scan(const char *path, const struct hexoid_scan_options *opt,
		     struct hexoid_scan_stats *stats, char *err, size_t errlen)
{
	return scan_file(path, opt, 0, stats, err, errlen);
}

int hexoid_pk_pack_scan_heads(const char *path, const struct hexoid_scan_options *opt,
			      struct hexoid_scan_stats *stats, char *err, size_t errlen)
{
	/* HEXOID_TEST_WHOLE_OBJECTS: the tests' way to compare with the whole read. */
	const char *whole = getenv("HEXOID_TEST_WHOLE_OBJECTS");

	return scan_file(path, opt, !(whole && *whole), stats, err, errlen);
}
