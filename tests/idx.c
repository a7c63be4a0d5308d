/*
 * The pack index reader: indexes built here byte by byte from the format's description
 * (sharing nothing with the reader), read back through every accessor, then broken in
 * every way the reader must notice: each must be a clear error, never a read outside
 * the buffer (the buffers end on an inaccessible page).
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "hexoid_idx.h"
#include "test.h"

struct built {
	unsigned char *buf;
	size_t size;
	uint32_t n; /* the format counts objects in 32 bits */
	size_t rawsz, nr_large;
	unsigned version;
	unsigned char *ids; /* packed, sorted */
	uint64_t *offs;
	uint32_t *crcs;
	/* where the tables start in buf */
	size_t fanout_at, ids_at, id_stride, offs_at, off_stride, crcs_at, large_at;
};

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static size_t sort_rawsz;
static int cmp_id(const void *a, const void *b)
{
	return memcmp(a, b, sort_rawsz);
}

/* A valid index of n random IDs; in v2 every large_every-th entry (0: none) gets a
 * 64-bit offset, as git writes them: sequential indexes into the large table. */
static void build(struct built *b, unsigned version, enum hexoid_algo algo, size_t n,
		  size_t large_every)
{
	size_t rawsz = hexoid_rawsz(algo);
	memset(b, 0, sizeof(*b));
	b->n = (uint32_t)n;
	b->rawsz = rawsz;
	b->version = version;
	b->ids = malloc(n * rawsz + 1);
	b->offs = malloc(n * sizeof(uint64_t) + 1);
	b->crcs = malloc(n * sizeof(uint32_t) + 1);
	for (size_t i = 0; i < n * rawsz; i++)
		b->ids[i] = (unsigned char)test_rand();
	sort_rawsz = rawsz;
	qsort(b->ids, n, rawsz, cmp_id);
	/* Make them strictly increasing: a repeat (1 in 2^160) becomes its successor. */
	for (size_t i = 1; i < n; i++)
		while (memcmp(b->ids + (i - 1) * rawsz, b->ids + i * rawsz, rawsz) >= 0) {
			memcpy(b->ids + i * rawsz, b->ids + (i - 1) * rawsz, rawsz);
			for (size_t k = rawsz; k-- && ++b->ids[i * rawsz + k] == 0;)
				;
		}
	for (size_t i = 0; i < n; i++) {
		b->crcs[i] = (uint32_t)test_rand();
		int large = version == 2 && large_every && i % large_every == 0;
		b->offs[i] = large ? (test_rand() | 0x80000000ull) & 0xffffffffffull
				   : (test_rand() & (version == 1 ? 0xffffffffu : 0x7fffffffu));
		b->nr_large += large;
	}

	size_t per = rawsz + (version == 2 ? 8 : 4);
	b->size = (version == 2 ? 8 : 0) + 1024 + n * per + 8 * b->nr_large + 2 * rawsz;
	b->buf = calloc(1, b->size);
	unsigned char *p = b->buf;
	if (version == 2) {
		put32(p, 0xff744f63u);
		put32(p + 4, 2);
		p += 8;
	}
	b->fanout_at = (size_t)(p - b->buf);
	for (unsigned k = 0; k < 256; k++) {
		uint32_t c = 0;
		while (c < n && b->ids[c * rawsz] <= k)
			c++;
		put32(p + 4 * k, c);
	}
	p += 1024;
	if (version == 1) {
		b->offs_at = (size_t)(p - b->buf);
		b->ids_at = b->offs_at + 4;
		b->off_stride = b->id_stride = 4 + rawsz;
		for (size_t i = 0; i < n; i++) {
			put32(p, (uint32_t)b->offs[i]);
			memcpy(p + 4, b->ids + i * rawsz, rawsz);
			p += 4 + rawsz;
		}
	} else {
		b->ids_at = (size_t)(p - b->buf);
		b->id_stride = rawsz;
		memcpy(p, b->ids, n * rawsz);
		p += n * rawsz;
		b->crcs_at = (size_t)(p - b->buf);
		for (size_t i = 0; i < n; i++, p += 4)
			put32(p, b->crcs[i]);
		b->offs_at = (size_t)(p - b->buf);
		b->off_stride = 4;
		b->large_at = b->offs_at + 4 * n;
		uint32_t nl = 0;
		for (size_t i = 0; i < n; i++, p += 4) {
			if (b->offs[i] >= 0x80000000u) {
				put32(p, 0x80000000u | nl);
				put32(b->buf + b->large_at + 8 * nl, (uint32_t)(b->offs[i] >> 32));
				put32(b->buf + b->large_at + 8 * nl + 4, (uint32_t)b->offs[i]);
				nl++;
			} else {
				put32(p, (uint32_t)b->offs[i]);
			}
		}
		p += 8 * nl;
	}
	/* The checksums: arbitrary, the reader does not verify them. */
	for (size_t i = 0; i < 2 * rawsz; i++)
		p[i] = (unsigned char)(0xc0 + i);
}

static void unbuild(struct built *b)
{
	free(b->buf);
	free(b->ids);
	free(b->offs);
	free(b->crcs);
}

/* Open len bytes of buf from memory that ends on a PROT_NONE page. */
static enum hexoid_idx_status open_guarded(struct guarded *g, struct hexoid_idx *idx,
					   const unsigned char *buf, size_t len,
					   enum hexoid_algo algo, struct hexoid_idx_error *err)
{
	unsigned char *m = guarded_alloc(g, len, 1);
	if (len)
		memcpy(m, buf, len);
	return hexoid_idx_open(idx, len ? m : NULL, len, algo, err);
}

/* The reference lookup: libc's bsearch over the sorted IDs the index was built from. */
static ptrdiff_t ref_find(const struct built *b, const unsigned char *key)
{
	sort_rawsz = b->rawsz;
	const unsigned char *hit = b->n ? bsearch(key, b->ids, b->n, b->rawsz, cmp_id) : NULL;
	return hit ? (hit - b->ids) / (ptrdiff_t)b->rawsz : -1;
}

/* Every accessor of a good index against what was built. */
static void check_reads(const struct built *b, const struct hexoid_idx *idx,
			enum hexoid_algo algo, const char *what)
{
	size_t rawsz = b->rawsz, hexsz = 2 * rawsz, n = b->n;
	CHECK(hexoid_idx_count(idx) == n, "%s: count %zu", what, hexoid_idx_count(idx));
	CHECK(hexoid_idx_version(idx) == b->version, "%s: version", what);
	CHECK(hexoid_idx_algo(idx) == algo, "%s: algo", what);
	CHECK(hexoid_idx_has_crc32(idx) == (b->version == 2), "%s: has_crc32", what);
	for (size_t i = 0; i < n && !test_failed(); i++) {
		const unsigned char *id = hexoid_idx_id(idx, i);
		CHECK(id && !memcmp(id, b->ids + i * rawsz, rawsz), "%s: id %zu", what, i);
		CHECK(hexoid_idx_offset(idx, i) == b->offs[i], "%s: offset %zu: %llu != %llu",
		      what, i, (unsigned long long)hexoid_idx_offset(idx, i),
		      (unsigned long long)b->offs[i]);
		CHECK(hexoid_idx_crc32(idx, i) == (b->version == 2 ? b->crcs[i] : 0),
		      "%s: crc %zu", what, i);
		CHECK(hexoid_idx_find(idx, b->ids + i * rawsz) == (ptrdiff_t)i, "%s: find %zu",
		      what, i);
	}
	CHECK(hexoid_idx_id(idx, n) == NULL && hexoid_idx_offset(idx, n) == 0 &&
		      hexoid_idx_crc32(idx, n) == 0,
	      "%s: reads past the end", what);
	/* The block reads: offsets and CRC32 digits of any range, cut at the end. */
	for (int r = 0; r < 8 && !test_failed(); r++) {
		size_t first = r == 0 ? 0 : test_rand() % (n + 2);
		size_t want = r == 0 ? n + 3 : test_rand() % 23;
		size_t got_n = first < n ? (want < n - first ? want : n - first) : 0;
		uint64_t offs[5100];
		char hex[8 * 5100 + 1];
		memset(offs, 0x5a, sizeof(offs));
		memset(hex, '#', sizeof(hex));
		size_t k = hexoid_idx_offsets(idx, first, want, offs);
		CHECK(k == got_n && offs[k] == 0x5a5a5a5a5a5a5a5aull, "%s: offsets %zu+%zu: %zu",
		      what, first, want, k);
		for (size_t j = 0; j < k && j < got_n; j++)
			CHECK(offs[j] == b->offs[first + j], "%s: offsets[%zu]", what, first + j);
		k = hexoid_idx_crc32_hex(idx, first, want, hex);
		CHECK(k == (b->version == 2 ? got_n : 0) && hex[8 * k] == '#',
		      "%s: crc32 hex %zu+%zu: %zu", what, first, want, k);
		for (size_t j = 0; j < k; j++) {
			char one[9];
			snprintf(one, sizeof(one), "%08x", (unsigned)b->crcs[first + j]);
			CHECK(!memcmp(hex + 8 * j, one, 8), "%s: crc32 hex %zu", what, first + j);
		}
	}

	const unsigned char *pack, *self;
	hexoid_idx_checksums(idx, &pack, &self);
	CHECK(pack[0] == 0xc0 && self[0] == 0xc0 + rawsz, "%s: checksums", what);

	/* Absent IDs: neighbours of present ones, and the extremes. */
	unsigned char key[HEXOID_MAX_RAWSZ];
	for (size_t i = 0; i < n + 2; i++) {
		if (i < n) {
			memcpy(key, b->ids + i * rawsz, rawsz);
			key[rawsz - 1] ^= 1;
		} else {
			memset(key, i == n ? 0 : 0xff, rawsz);
		}
		CHECK(hexoid_idx_find(idx, key) == ref_find(b, key), "%s: find absent %zu",
		      what, i);
	}

	/* find_many: present and absent IDs interleaved, sorted, then shuffled. */
	size_t m = 2 * n + 2;
	unsigned char *keys = calloc(m, rawsz);
	ptrdiff_t *pos = calloc(m, sizeof(*pos));
	for (size_t i = 0; i < m; i++) {
		if (i < n) {
			memcpy(keys + i * rawsz, b->ids + i * rawsz, rawsz);
		} else {
			for (size_t k = 0; k < rawsz; k++)
				keys[i * rawsz + k] = (unsigned char)test_rand();
			if (i >= 2 * n) /* the very first and last IDs */
				memcpy(keys + i * rawsz,
				       b->ids + (i == 2 * n ? 0 : n ? n - 1 : 0) * rawsz,
				       n ? rawsz : 0);
		}
	}
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 0) {
			sort_rawsz = rawsz;
			qsort(keys, m, rawsz, cmp_id);
		} else {
			for (size_t i = m; i > 1; i--) {
				size_t j = (size_t)(test_rand() % i);
				unsigned char t[HEXOID_MAX_RAWSZ];
				memcpy(t, keys + (i - 1) * rawsz, rawsz);
				memcpy(keys + (i - 1) * rawsz, keys + j * rawsz, rawsz);
				memcpy(keys + j * rawsz, t, rawsz);
			}
		}
		size_t found = hexoid_idx_find_many(idx, keys, m, pos), want = 0;
		for (size_t i = 0; i < m; i++) {
			ptrdiff_t w = ref_find(b, keys + i * rawsz);
			want += w >= 0;
			CHECK(pos[i] == w, "%s: find_many pass %d key %zu: %td != %td", what, pass,
			      i, pos[i], w);
		}
		CHECK(found == want && hexoid_idx_find_many(idx, keys, m, NULL) == want,
		      "%s: find_many found %zu, expected %zu", what, found, want);
	}
	free(keys);
	free(pos);

	/* encode: every entry, at a stride with separators that must stay. */
	if (n) {
		size_t stride = hexsz + 3, first = n / 3;
		char *got = malloc(n * stride), *want = malloc(n * stride);
		memset(got, '|', n * stride);
		memset(want, '|', n * stride);
		CHECK(hexoid_idx_encode(idx, first, n, got, stride) == n - first,
		      "%s: encode count", what);
		ref_encode(want, stride, b->ids + first * rawsz, n - first, rawsz);
		CHECK(!memcmp(got, want, n * stride), "%s: encode", what);
		CHECK(hexoid_idx_encode(idx, 0, 1, got, hexsz - 1) == 0 &&
			      hexoid_idx_encode(idx, n, 1, got, stride) == 0,
		      "%s: encode rejects a short stride and a start past the end", what);
		free(got);
		free(want);
	}
}

TEST(idx_read_back)
{
	static const size_t sizes[] = { 0, 1, 2, 7, 300, 5000 };
	for (unsigned version = 1; version <= 2; version++)
		for (int a = HEXOID_SHA1; a <= HEXOID_SHA256; a++)
			for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
				for (size_t every = 0; every < (version == 2 ? 3 : 1); every++) {
					enum hexoid_algo algo = (enum hexoid_algo)a;
					struct built b;
					struct hexoid_idx idx;
					struct hexoid_idx_error err;
					struct guarded g;
					char what[80];
					build(&b, version, algo, sizes[s], every);
					snprintf(what, sizeof(what), "v%u %s n=%zu large every %zu",
						 version, a == HEXOID_SHA1 ? "sha1" : "sha256",
						 sizes[s], every);
					for (int infer = 0; infer < 2; infer++) {
						enum hexoid_idx_status st = open_guarded(
							&g, &idx, b.buf, b.size, infer ? 0 : algo,
							&err);
						CHECK(st == HEXOID_IDX_OK && err.status == st,
						      "%s infer %d: %s", what, infer, err.message);
						if (st == HEXOID_IDX_OK)
							check_reads(&b, &idx, algo, what);
						guarded_free(&g);
					}
					unbuild(&b);
				}
}

/* Every prefix of a small index is an error, with a message, and reads stay inside. */
TEST(idx_truncated_everywhere)
{
	for (unsigned version = 1; version <= 2; version++)
		for (int a = HEXOID_SHA1; a <= HEXOID_SHA256; a++) {
			struct built b;
			build(&b, version, (enum hexoid_algo)a, 9, 2);
			for (size_t len = 0; len < b.size; len++)
				for (int infer = 0; infer < 2; infer++) {
					struct hexoid_idx idx;
					struct hexoid_idx_error err;
					struct guarded g;
					enum hexoid_idx_status st =
						open_guarded(&g, &idx, b.buf, len,
							     infer ? 0 : (enum hexoid_algo)a, &err);
					guarded_free(&g);
					CHECK(st != HEXOID_IDX_OK && st == err.status &&
						      err.message[0] && err.offset <= len,
					      "v%u algo %d infer %d: %zu of %zu bytes: status %d, "
					      "offset %zu, '%s'",
					      version, a, infer, len, b.size, st, err.offset,
					      err.message);
					/* Told the format, a cut in the tables is "truncated",
					 * or in v2, where large offsets make the size elastic, a
					 * ragged size or a large index past the shortened table.
					 * (Inferring, a cut sha256 v1 index can have a sha1
					 * index's size: then its IDs are out of order.) */
					CHECK(infer || st == HEXOID_IDX_ETRUNCATED ||
						      (version == 2 && (st == HEXOID_IDX_ESIZE ||
									st == HEXOID_IDX_ELARGE ||
									st == HEXOID_IDX_EVERSION)),
					      "v%u algo %d: %zu bytes: status %d '%s'", version, a,
					      len, st, err.message);
				}
			unbuild(&b);
		}
}

struct corrupt_case {
	const char *name;
	enum hexoid_idx_status status;
	size_t offset, entry;
	const char *says;
};

static void expect_error(const struct built *b, const unsigned char *buf, size_t size,
			 enum hexoid_algo algo, const struct corrupt_case *c)
{
	struct hexoid_idx idx;
	struct hexoid_idx_error err;
	struct guarded g;
	enum hexoid_idx_status st = open_guarded(&g, &idx, buf, size, algo, &err);
	guarded_free(&g);
	CHECK(st == c->status && err.status == st, "v%u %s: status %d (%s), expected %d: %s",
	      b->version, c->name, st, hexoid_idx_strerror(st), c->status, err.message);
	CHECK(err.offset == c->offset, "v%u %s: offset %zu, expected %zu: %s", b->version,
	      c->name, err.offset, c->offset, err.message);
	CHECK(err.entry == c->entry, "v%u %s: entry %zu, expected %zu", b->version, c->name,
	      err.entry, c->entry);
	CHECK(strstr(err.message, c->says) != NULL, "v%u %s: message '%s' lacks '%s'",
	      b->version, c->name, err.message, c->says);
}

TEST(idx_corrupt)
{
	const size_t none = (size_t)-1;
	for (unsigned version = 1; version <= 2; version++) {
		struct built b;
		build(&b, version, HEXOID_SHA1, 40, version == 2 ? 3 : 0);
		size_t n = b.n, rawsz = b.rawsz, fo = b.fanout_at;
		unsigned char *w = malloc(b.size + 64);
		char says[120];
#define FRESH() memcpy(w, b.buf, b.size)

		if (version == 2) {
			FRESH();
			w[0] ^= 1; /* fe 74 4f 63: read as v1, whose fanout then decreases */
			expect_error(&b, w, b.size, HEXOID_SHA1,
				     &(struct corrupt_case){ "magic", HEXOID_IDX_EFANOUT, 4, none,
							     "does not start with the v2 magic" });
			FRESH();
			put32(w + 4, 3);
			expect_error(&b, w, b.size, 0,
				     &(struct corrupt_case){ "version 3", HEXOID_IDX_EVERSION, 4,
							     none, "version 3 at byte 4" });
			FRESH();
			put32(w + 4, 1);
			expect_error(&b, w, b.size, 0,
				     &(struct corrupt_case){ "version 1 after the magic",
							     HEXOID_IDX_EVERSION, 4, none,
							     "version 1" });
		}

		/* A decreasing fanout entry. */
		FRESH();
		put32(w + fo + 4 * 100, 0xffffu);
		expect_error(&b, w, b.size, HEXOID_SHA1,
			     &(struct corrupt_case){ "fanout decreases", HEXOID_IDX_EFANOUT,
						     fo + 4 * 101, none, "fanout[101]" });
		/* fanout[255] one more than the entries: the size no longer fits (in v2 the
		 * large offsets would have to absorb 28 bytes). */
		FRESH();
		put32(w + fo + 4 * 255, (uint32_t)n + 1);
		expect_error(&b, w, b.size, HEXOID_SHA1,
			     &(struct corrupt_case){
				     "fanout[255] = N + 1",
				     version == 1 ? HEXOID_IDX_ETRUNCATED : HEXOID_IDX_ESIZE,
				     version == 1 ? b.size : 8 + 1024 + 41 * 28, none,
				     version == 1 ? "v1 sha1 index of 41 objects (fanout[255] at byte 1020) needs 2048"
						  : "after the v2 sha1 tables of 41 objects are not a whole number" });
		/* The counts capped one below the entries: the last entry is extra bytes. */
		FRESH();
		for (unsigned j = 0; j < 256; j++)
			if (b.buf[fo + 4 * j + 3] > n - 1)
				put32(w + fo + 4 * j, (uint32_t)n - 1);
		expect_error(&b, w, b.size, HEXOID_SHA1,
			     &(struct corrupt_case){
				     "fanout[255] = N - 1", HEXOID_IDX_ESIZE,
				     version == 1 ? b.size - 24 : 8 + 1024 + 39 * 28, none,
				     version == 1 ? "24 more than a v1 sha1 index of 39 objects"
						  : "not a whole number of 8-byte large offsets" });
		/* A huge count: the tables would overflow a 32-bit size_t; here it is
		 * simply far beyond the file. */
		FRESH();
		put32(w + fo + 4 * 255, 0xffffffffu);
		expect_error(&b, w, b.size, 0,
			     &(struct corrupt_case){ "N = 2^32 - 1",
						     sizeof(size_t) > 4 ? HEXOID_IDX_ETRUNCATED
									: HEXOID_IDX_ESIZE,
						     sizeof(size_t) > 4 ? b.size : fo + 4 * 255, none,
						     "4294967295 objects" });
		/* Monotonic, right total, but lying about where the buckets are: the first
		 * entry of a bucket counted into the bucket before it. */
		FRESH();
		{
			size_t i = 0;
			while (b.ids[i * rawsz] == b.ids[(i + 1) * rawsz])
				i++;
			unsigned ka = b.ids[i * rawsz], kb = b.ids[(i + 1) * rawsz];
			for (unsigned j = ka; j < kb; j++)
				put32(w + fo + 4 * j, (uint32_t)i + 2);
			snprintf(says, sizeof(says), "fanout[%u] (byte %zu) puts entries", ka,
				 fo + 4 * ka);
			expect_error(&b, w, b.size, HEXOID_SHA1,
				     &(struct corrupt_case){ "lying bucket", HEXOID_IDX_EFANOUT,
							     b.ids_at + (i + 1) * b.id_stride, i + 1,
							     says });
		}
		/* Direct: all entries under byte 0x00, though their IDs start elsewhere. */
		FRESH();
		for (unsigned j = 0; j < 256; j++)
			put32(w + fo + 4 * j, (uint32_t)n);
		snprintf(says, sizeof(says), "entry %zu (byte %zu) starts with %02x",
			 n - 1, b.ids_at + (n - 1) * b.id_stride, b.ids[(n - 1) * rawsz]);
		if (b.ids[0] != 0)
			snprintf(says, sizeof(says), "entry 0 (byte %zu) starts with %02x",
				 b.ids_at, b.ids[0]);
		expect_error(&b, w, b.size, HEXOID_SHA1,
			     &(struct corrupt_case){ "all in bucket 0", HEXOID_IDX_EFANOUT,
						     b.ids[0] ? b.ids_at
							      : b.ids_at + (n - 1) * b.id_stride,
						     b.ids[0] ? 0 : n - 1, says });

		/* Two IDs swapped, and one repeated. */
		FRESH();
		memcpy(w + b.ids_at + 10 * b.id_stride, b.ids + 11 * rawsz, rawsz);
		memcpy(w + b.ids_at + 11 * b.id_stride, b.ids + 10 * rawsz, rawsz);
		expect_error(&b, w, b.size, HEXOID_SHA1,
			     &(struct corrupt_case){ "swapped IDs", HEXOID_IDX_EORDER,
						     b.ids_at + 11 * b.id_stride, 11,
						     "entry 11 (byte" });
		FRESH();
		memcpy(w + b.ids_at + 21 * b.id_stride, b.ids + 20 * rawsz, rawsz);
		expect_error(&b, w, b.size, HEXOID_SHA1,
			     &(struct corrupt_case){ "repeated ID", HEXOID_IDX_EORDER,
						     b.ids_at + 21 * b.id_stride, 21,
						     "duplicate object ID: entry 21" });
		/* One flipped bit in the last byte of an ID that then sorts after the next
		 * one is caught; this one lowers its first byte below its predecessor's. */
		FRESH();
		w[b.ids_at + 30 * b.id_stride] = 0;
		expect_error(&b, w, b.size, HEXOID_SHA1,
			     &(struct corrupt_case){ "ID byte zeroed", HEXOID_IDX_EORDER,
						     b.ids_at + 30 * b.id_stride, 30, "out of order" });

		if (version == 1) {
			/* v1 has exactly one size for N objects. */
			memcpy(w, b.buf, b.size);
			w[b.size] = 0;
			expect_error(&b, w, b.size + 1, HEXOID_SHA1,
				     &(struct corrupt_case){ "one byte too many", HEXOID_IDX_ESIZE,
							     b.size, none, "1 more than a v1 sha1 index" });
		} else {
			/* A large index beyond the table. */
			FRESH();
			put32(w + b.offs_at + 4 * 6, 0x80000000u | (uint32_t)b.nr_large);
			snprintf(says, sizeof(says),
				 "points to large offset %zu, but the table has %zu", b.nr_large,
				 b.nr_large);
			expect_error(&b, w, b.size, HEXOID_SHA1,
				     &(struct corrupt_case){ "large index out of range",
							     HEXOID_IDX_ELARGE, b.offs_at + 4 * 6,
							     6, says });
			/* 4 extra bytes: not whole large offsets. */
			FRESH();
			memset(w + b.size, 0, 4);
			expect_error(&b, w, b.size + 4, HEXOID_SHA1,
				     &(struct corrupt_case){ "ragged", HEXOID_IDX_ESIZE,
							     b.large_at, none,
							     "not a whole number of 8-byte" });
			/* More large offsets than objects. */
			unsigned char *big = calloc(1, b.size + 8 * (n + 1));
			memcpy(big, b.buf, b.size);
			expect_error(&b, big, b.size + 8 * (n + 1 - b.nr_large), HEXOID_SHA1,
				     &(struct corrupt_case){ "more large offsets than objects",
							     HEXOID_IDX_ESIZE, b.large_at, none,
							     "more than its 40 objects" });
			free(big);
			/* Inferring: a size neither format has. */
			FRESH();
			expect_error(&b, w, b.size + 4, 0,
				     &(struct corrupt_case){ "fits neither", HEXOID_IDX_ESIZE,
							     b.size + 4, none, "fits neither hash" });
		}
		/* The wrong format, told: sha256 needs more bytes than a sha1 file has. */
		expect_error(&b, b.buf, b.size, HEXOID_SHA256,
			     &(struct corrupt_case){ "sha1 index read as sha256",
						     HEXOID_IDX_ETRUNCATED, b.size, none,
						     "sha256 index of 40 objects" });
#undef FRESH
		free(w);
		unbuild(&b);
	}

	/* Arguments and tiny files. */
	struct hexoid_idx idx;
	struct hexoid_idx_error err;
	unsigned char four[4] = { 0xff, 0x74, 0x4f, 0x63 };
	CHECK(hexoid_idx_open(&idx, NULL, 5, HEXOID_SHA1, &err) == HEXOID_IDX_EARG &&
		      err.status == HEXOID_IDX_EARG,
	      "NULL data");
	CHECK(hexoid_idx_open(&idx, four, 4, (enum hexoid_algo)7, &err) == HEXOID_IDX_EARG,
	      "unknown algo");
	CHECK(hexoid_idx_open(&idx, NULL, 0, 0, &err) == HEXOID_IDX_ETRUNCATED &&
		      strstr(err.message, "empty"),
	      "empty: %s", err.message);
	CHECK(hexoid_idx_open(&idx, four, 4, 0, &err) == HEXOID_IDX_ETRUNCATED &&
		      strstr(err.message, "8-byte v2 header"),
	      "magic only: %s", err.message);
	CHECK(hexoid_idx_open(&idx, four, 4, 0, NULL) == HEXOID_IDX_ETRUNCATED, "err NULL");
	/* Other files git writes are named, not read as a v1 fanout; a damaged v1 index
	 * whose first count is small is still a v1 index. */
	static const unsigned char pack_head[12] = { 'P', 'A', 'C', 'K', 0, 0, 0, 2, 0, 0, 0, 3 };
	CHECK(hexoid_idx_open(&idx, pack_head, sizeof(pack_head), 0, &err) == HEXOID_IDX_ENOTIDX &&
		      err.offset == 0 && strstr(err.message, "'PACK', so it is a pack (.pack)"),
	      "pack: %s", err.message);
	CHECK(hexoid_idx_open(&idx, "DIRC\0\0\0\2", 8, 0, &err) == HEXOID_IDX_ENOTIDX &&
		      strstr(err.message, "git index"),
	      "git index: %s", err.message);
	CHECK(hexoid_idx_open(&idx, "hello, world\n", 13, 0, &err) == HEXOID_IDX_ENOTIDX &&
		      strstr(err.message, "starts with text ('hell')"),
	      "text: %s", err.message);
	static const unsigned char small_v1[8] = { 0, 0, 0, 3, 0, 0, 0, 3 };
	CHECK(hexoid_idx_open(&idx, small_v1, sizeof(small_v1), 0, &err) == HEXOID_IDX_ETRUNCATED,
	      "cut v1: %s", err.message);
	CHECK(!strcmp(hexoid_idx_strerror(HEXOID_IDX_ENOTIDX), "not a pack index"), "strerror");
	for (int s = 0; s <= HEXOID_IDX_ENOTIDX + 1; s++)
		CHECK(hexoid_idx_strerror((enum hexoid_idx_status)s)[0], "strerror %d", s);
}

/* Random damage anywhere: never a crash or a read outside; what opens reads cleanly. */
TEST(idx_random_damage)
{
	for (unsigned version = 1; version <= 2; version++) {
		struct built b;
		build(&b, version, HEXOID_SHA256, 24, 2);
		unsigned char *w = malloc(b.size);
		unsigned opened = 0;
		for (int round = 0; round < 3000; round++) {
			memcpy(w, b.buf, b.size);
			int flips = 1 + (int)(test_rand() % 3);
			for (int f = 0; f < flips; f++)
				w[test_rand() % b.size] ^= (unsigned char)(1u << (test_rand() % 8));
			size_t len = test_rand() % 8 ? b.size : (size_t)(test_rand() % b.size);
			struct hexoid_idx idx;
			struct hexoid_idx_error err;
			struct guarded g;
			enum hexoid_idx_status st =
				open_guarded(&g, &idx, w, len, round & 1 ? HEXOID_SHA256 : 0, &err);
			if (st == HEXOID_IDX_OK) {
				opened++;
				size_t n = hexoid_idx_count(&idx);
				uint64_t sum = 0;
				for (size_t i = 0; i < n; i++) {
					sum += hexoid_idx_offset(&idx, i) + hexoid_idx_crc32(&idx, i);
					CHECK(hexoid_idx_find(&idx, hexoid_idx_id(&idx, i)) ==
						      (ptrdiff_t)i,
					      "v%u round %d: find %zu", version, round, i);
				}
				(void)sum;
			} else {
				CHECK(err.message[0] && err.offset <= len, "v%u round %d: '%s'",
				      version, round, err.message);
			}
			guarded_free(&g);
		}
		/* Flips in the CRCs, offsets and checksums leave a valid index. */
		CHECK(opened > 0, "v%u: no damaged index opened at all", version);
		free(w);
		unbuild(&b);
	}
}
