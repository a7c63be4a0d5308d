/*
 * Pack index (.idx) reader: versions 1 and 2, SHA-1 and SHA-256.
 *
 * Version 2: ff 74 4f 63, version 2, a 256-entry fanout, N IDs, N CRC32s, N 4-byte
 * offsets (MSB set: index into the next table), L 8-byte large offsets, the pack's and
 * the index's checksums. Version 1: the fanout, N entries of (4-byte offset, ID), the two
 * checksums. Every number is big-endian. The file does not say which hash it uses.
 *
 * hexoid_idx_open() checks everything that later reads depend on, in an order where each
 * check may rely on the ones before it: header, fanout monotonic, the size against the
 * object count (checked arithmetic: the count comes from the file), IDs strictly
 * increasing, the fanout against the IDs' first bytes, large-offset indexes. After that
 * the accessors cannot read outside the buffer.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hexoid_idx.h"

#define IDX_MAGIC 0xff744f63u
#define FANOUT_SIZE (256u * 4u)
#define V2_HEADER 8
#define NO_ENTRY ((size_t)-1)

/* Byte shifts, not casts: the tables have no alignment guarantee, and this is endian-free. */
static inline uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t be64(const unsigned char *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* Overflow-checked size arithmetic: N comes from the file, up to 2^32 - 1. */
static int add_sz(size_t *r, size_t a, size_t b)
{
	if (a > SIZE_MAX - b)
		return -1;
	*r = a + b;
	return 0;
}

static int mul_sz(size_t *r, size_t a, size_t b)
{
	if (b && a > SIZE_MAX / b)
		return -1;
	*r = a * b;
	return 0;
}

static const char *algo_name(enum hexoid_algo algo)
{
	return algo == HEXOID_SHA256 ? "sha256" : "sha1";
}

static enum hexoid_idx_status fail(struct hexoid_idx_error *err, enum hexoid_idx_status status,
				   size_t offset, size_t entry, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static enum hexoid_idx_status fail(struct hexoid_idx_error *err, enum hexoid_idx_status status,
				   size_t offset, size_t entry, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		err->status = status;
		err->offset = offset;
		err->entry = entry;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return status;
}

const char *hexoid_idx_strerror(enum hexoid_idx_status status)
{
	switch (status) {
	case HEXOID_IDX_OK:
		return "no error";
	case HEXOID_IDX_EARG:
		return "bad argument";
	case HEXOID_IDX_ETRUNCATED:
		return "truncated pack index";
	case HEXOID_IDX_EVERSION:
		return "unsupported pack index version";
	case HEXOID_IDX_EFANOUT:
		return "corrupt fanout table";
	case HEXOID_IDX_ESIZE:
		return "file size does not match the object count";
	case HEXOID_IDX_EAMBIGUOUS:
		return "object format ambiguous: give sha1 or sha256";
	case HEXOID_IDX_EORDER:
		return "object IDs out of order";
	case HEXOID_IDX_ELARGE:
		return "64-bit offset index out of range";
	case HEXOID_IDX_ENOTIDX:
		return "not a pack index";
	}
	return "unknown status";
}

/*
 * How a file of `size` bytes fits a v1 or v2 index of nr IDs of rawsz bytes.
 * Sets *need (the smallest fitting size; SIZE_MAX if that overflows) and, for v2, the
 * number of large offsets the rest holds.
 */
enum fit { FIT_OK, FIT_OVERFLOW, FIT_SHORT, FIT_LONG, FIT_RAGGED };

static enum fit size_fit(unsigned version, size_t nr, size_t rawsz, size_t size, size_t *need,
			 size_t *nr_large)
{
	size_t per = rawsz + (version == 2 ? 8 : 4), body, fixed;
	fixed = (version == 2 ? V2_HEADER : 0) + FANOUT_SIZE + 2 * rawsz;
	*nr_large = 0;
	if (mul_sz(&body, nr, per) || add_sz(need, body, fixed)) {
		*need = SIZE_MAX;
		return FIT_OVERFLOW;
	}
	if (size < *need)
		return FIT_SHORT;
	size_t extra = size - *need;
	if (version == 1)
		return extra ? FIT_LONG : FIT_OK;
	if (extra % 8)
		return FIT_RAGGED;
	/* Git gives each offset that needs it one entry, so there are at most N. */
	if (extra / 8 > nr)
		return FIT_LONG;
	*nr_large = extra / 8;
	return FIT_OK;
}

/* Fill in the table pointers once the size is known to fit. */
static void lay_out(struct hexoid_idx *idx, const unsigned char *p, size_t size,
		    unsigned version, size_t nr, size_t nr_large, enum hexoid_algo algo)
{
	size_t rawsz = hexoid_rawsz(algo);
	idx->data = p;
	idx->size = size;
	idx->algo = algo;
	idx->version = version;
	idx->rawsz = rawsz;
	idx->nr = (uint32_t)nr;
	idx->nr_large = (uint32_t)nr_large;
	if (version == 2) {
		idx->fanout = p + V2_HEADER;
		idx->ids = idx->fanout + FANOUT_SIZE;
		idx->id_stride = rawsz;
		idx->crcs = idx->ids + nr * rawsz;
		idx->offs = idx->crcs + nr * 4;
		idx->off_stride = 4;
		idx->large = idx->offs + nr * 4;
	} else {
		idx->fanout = p;
		idx->offs = p + FANOUT_SIZE;
		idx->off_stride = 4 + rawsz;
		idx->ids = idx->offs + 4;
		idx->id_stride = 4 + rawsz;
		idx->crcs = NULL;
		idx->large = NULL;
	}
}

/* Explain why the size does not fit; `where` is the byte offset of fanout[255]. */
static enum hexoid_idx_status size_error(struct hexoid_idx_error *err, enum fit fit,
					 unsigned version, size_t nr, enum hexoid_algo algo,
					 size_t size, size_t need, size_t where)
{
	const char *name = algo_name(algo);
	size_t rawsz = hexoid_rawsz(algo);
	switch (fit) {
	case FIT_OVERFLOW:
		return fail(err, HEXOID_IDX_ESIZE, where, NO_ENTRY,
			    "object count %zu (fanout[255] at byte %zu) is too large: a v%u %s "
			    "index of that many objects would not fit in memory",
			    nr, where, version, name);
	case FIT_SHORT:
		return fail(err, HEXOID_IDX_ETRUNCATED, size, NO_ENTRY,
			    "truncated: file is %zu bytes, but a v%u %s index of %zu objects "
			    "(fanout[255] at byte %zu) needs %s%zu",
			    size, version, name, nr, where, version == 2 ? "at least " : "",
			    need);
	case FIT_RAGGED:
		return fail(err, HEXOID_IDX_ESIZE, need - 2 * rawsz, NO_ENTRY,
			    "file is %zu bytes: the %zu bytes after the v2 %s tables of %zu "
			    "objects are not a whole number of 8-byte large offsets",
			    size, size - need, name, nr);
	case FIT_LONG:
		if (version == 1)
			return fail(err, HEXOID_IDX_ESIZE, need, NO_ENTRY,
				    "file is %zu bytes, %zu more than a v1 %s index of %zu "
				    "objects (%zu bytes)",
				    size, size - need, name, nr, need);
		return fail(err, HEXOID_IDX_ESIZE, need - 2 * rawsz, NO_ENTRY,
			    "file is %zu bytes: room for %zu large offsets after the v2 %s "
			    "tables, more than its %zu objects",
			    size, (size - need) / 8, name, nr);
	case FIT_OK:
		break;
	}
	return HEXOID_IDX_OK;
}

/* Compare two IDs; the first 8 bytes as one number settle almost every pair at once. */
static int id_cmp(const unsigned char *a, const unsigned char *b, size_t rawsz)
{
	uint64_t x = be64(a), y = be64(b);
	if (x != y)
		return x < y ? -1 : 1;
	return memcmp(a + 8, b + 8, rawsz - 8);
}

static uint32_t fanout_at(const struct hexoid_idx *idx, unsigned b)
{
	return be32(idx->fanout + 4 * b);
}

static enum hexoid_idx_status check_entries(const struct hexoid_idx *idx,
					    struct hexoid_idx_error *err)
{
	const unsigned char *base = idx->data;
	size_t rawsz = idx->rawsz, stride = idx->id_stride, nr = idx->nr;

	for (size_t i = 1; i < nr; i++) {
		const unsigned char *a = idx->ids + (i - 1) * stride, *b = a + stride;
		/* the first 8 bytes settle almost every pair, without a call */
		if (be64(a) < be64(b))
			continue;
		int c = id_cmp(a, b, rawsz);
		if (c >= 0)
			return fail(err, HEXOID_IDX_EORDER, (size_t)(b - base), i,
				    c ? "object IDs out of order: entry %zu (byte %zu) sorts "
					"before entry %zu"
				      : "duplicate object ID: entry %zu (byte %zu) repeats entry "
					"%zu",
				    i, (size_t)(b - base), i - 1);
	}

	/* Sorted IDs and the first and last of each bucket starting with its byte mean the
	 * fanout counts are exactly right, so find() may trust them. */
	size_t lo = 0;
	for (unsigned b = 0; b < 256; b++) {
		size_t hi = fanout_at(idx, b);
		if (hi == lo)
			continue;
		size_t bad = idx->ids[lo * stride] != b ? lo
			   : idx->ids[(hi - 1) * stride] != b ? hi - 1
							    : NO_ENTRY;
		if (bad != NO_ENTRY) {
			size_t at = (size_t)(idx->ids + bad * stride - base);
			return fail(err, HEXOID_IDX_EFANOUT, at, bad,
				    "fanout[%u] (byte %zu) puts entries %zu..%zu under first byte "
				    "%02x, but entry %zu (byte %zu) starts with %02x",
				    b, (size_t)(idx->fanout + 4 * b - base), lo, hi - 1, b, bad,
				    at, idx->ids[bad * stride]);
		}
		lo = hi;
	}

	if (idx->version == 2) {
		for (size_t i = 0; i < nr; i++) {
			uint32_t off = be32(idx->offs + 4 * i);
			if ((off & 0x80000000u) && (off & 0x7fffffffu) >= idx->nr_large) {
				size_t at = (size_t)(idx->offs + 4 * i - base);
				return fail(err, HEXOID_IDX_ELARGE, at, i,
					    "entry %zu: offset word %08x at byte %zu points to "
					    "large offset %u, but the table has %u",
					    i, off, at, off & 0x7fffffffu, idx->nr_large);
			}
		}
	}
	return HEXOID_IDX_OK;
}

/*
 * Files that people hand to show-index by mistake, by the signature git writes at their
 * start. Read as a v1 index, each signature is a fanout[0] above 10^9, which only a file
 * of more than 24 GB could hold; so a signature decides only for smaller files.
 */
static const struct {
	char sig[5];
	const char *what;
} other_files[] = {
	{ "PACK", "a pack (.pack); its index is the .idx file beside it" },
	{ "DIRC", "a git index (.git/index, the staging area)" },
	{ "CGPH", "a commit-graph file" },
	{ "MIDX", "a multi-pack-index" },
	{ "RIDX", "a pack reverse index (.rev)" },
	{ "BITM", "a pack bitmap (.bitmap)" },
	{ "MTME", "a cruft pack's mtimes file (.mtimes)" },
	{ "# v2", "a git bundle" },
	{ "# v3", "a git bundle" },
};

/* When data is plainly not a v1 index, say what it is instead. */
static int not_an_index(const unsigned char *p, size_t size, struct hexoid_idx_error *err)
{
	/* As a v1 index: fanout[0] entries of 24 bytes at least, after the fanout. */
	uint64_t first = be32(p);
	if (first < ((uint64_t)1 << 24) || first * 24 <= size)
		return 0;
	for (size_t i = 0; i < sizeof(other_files) / sizeof(other_files[0]); i++)
		if (!memcmp(p, other_files[i].sig, 4)) {
			fail(err, HEXOID_IDX_ENOTIDX, 0, NO_ENTRY,
			     "not a pack index: the file starts with '%s', so it is %s",
			     other_files[i].sig, other_files[i].what);
			return 1;
		}
	int text = 1;
	for (size_t i = 0; i < 4; i++)
		text &= (p[i] >= 0x20 && p[i] < 0x7f) || p[i] == '\t' || p[i] == '\n' ||
			p[i] == '\r';
	if (!text)
		return 0; /* maybe a damaged index: the fanout checks will say where */
	char shown[5];
	for (size_t i = 0; i < 4; i++)
		shown[i] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : ' ';
	shown[4] = '\0';
	fail(err, HEXOID_IDX_ENOTIDX, 0, NO_ENTRY,
	     "not a pack index: the file starts with text ('%s'), and a pack index starts "
	     "with ff 74 4f 63 (v2) or a fanout table (v1)",
	     shown);
	return 1;
}

enum hexoid_idx_status hexoid_idx_open(struct hexoid_idx *idx, const void *data, size_t size,
				       enum hexoid_algo algo, struct hexoid_idx_error *err)
{
	const unsigned char *p = data;
	if (err) {
		err->status = HEXOID_IDX_OK;
		err->offset = 0;
		err->entry = NO_ENTRY;
		err->message[0] = '\0';
	}
	if (!idx || (!p && size) || (algo && !hexoid_rawsz(algo)))
		return fail(err, HEXOID_IDX_EARG, 0, NO_ENTRY,
			    "bad argument: %s", !idx ? "no index" : !p && size ? "no data"
										  : "unknown object format");
	if (size == 0)
		return fail(err, HEXOID_IDX_ETRUNCATED, 0, NO_ENTRY,
			    "empty file: not a pack index");

	if (size < 4)
		return fail(err, HEXOID_IDX_ETRUNCATED, size, NO_ENTRY,
			    "truncated: file is %zu bytes, too short for any pack index", size);
	unsigned version = 1;
	size_t fanout_at_byte = 0;
	if (be32(p) == IDX_MAGIC) {
		if (size < V2_HEADER)
			return fail(err, HEXOID_IDX_ETRUNCATED, size, NO_ENTRY,
				    "truncated: file is %zu bytes, shorter than the 8-byte v2 "
				    "header",
				    size);
		version = be32(p + 4);
		if (version != 2)
			return fail(err, HEXOID_IDX_EVERSION, 4, NO_ENTRY,
				    "pack index version %u at byte 4: only versions 1 and 2 "
				    "exist",
				    version);
		fanout_at_byte = V2_HEADER;
	}
	if (version == 1 && not_an_index(p, size, err))
		return HEXOID_IDX_ENOTIDX;
	/* Without the magic the file can only be a version 1 index; saying so explains an
	 * error in its first fanout entries when the magic itself is what got damaged. */
	const char *v1_hint = version == 1 ? " (read as a v1 index: the file does not start "
					     "with the v2 magic ff 74 4f 63)"
					   : "";
	if (size < fanout_at_byte + FANOUT_SIZE)
		return fail(err, HEXOID_IDX_ETRUNCATED, size, NO_ENTRY,
			    "truncated: file is %zu bytes, shorter than the %s%u-byte fanout "
			    "table%s",
			    size, version == 2 ? "8-byte header and " : "", FANOUT_SIZE,
			    v1_hint);

	const unsigned char *fanout = p + fanout_at_byte;
	uint32_t prev = 0;
	for (unsigned b = 0; b < 256; b++) {
		uint32_t v = be32(fanout + 4 * b);
		if (v < prev)
			return fail(err, HEXOID_IDX_EFANOUT, fanout_at_byte + 4 * b, NO_ENTRY,
				    "fanout[%u] = %u at byte %zu is less than fanout[%u] = %u: "
				    "the counts must not decrease%s",
				    b, v, fanout_at_byte + 4 * b, b - 1, prev, v1_hint);
		prev = v;
	}
	size_t nr = prev, where = fanout_at_byte + 4 * 255;

	size_t need, nr_large;
	enum fit fit;
	if (algo) {
		fit = size_fit(version, nr, hexoid_rawsz(algo), size, &need, &nr_large);
		if (fit != FIT_OK)
			return size_error(err, fit, version, nr, algo, size, need, where);
	} else {
		size_t need1, large1, need2, large2;
		enum fit f1 = size_fit(version, nr, 20, size, &need1, &large1);
		enum fit f2 = size_fit(version, nr, 32, size, &need2, &large2);
		/* With at most N large offsets no size fits both (the sha256 tables outgrow
		 * the sha1 ones by 24 + 12N bytes, more than 8N), so this only guards the
		 * promise that the reader never guesses. */
		if (f1 == FIT_OK && f2 == FIT_OK)
			return fail(err, HEXOID_IDX_EAMBIGUOUS, size, NO_ENTRY,
				    "file size %zu fits both a sha1 and a sha256 v%u index of "
				    "%zu objects: give the object format",
				    size, version, nr);
		if (f1 == FIT_OK || f2 == FIT_OK) {
			algo = f1 == FIT_OK ? HEXOID_SHA1 : HEXOID_SHA256;
			nr_large = f1 == FIT_OK ? large1 : large2;
		} else if (f1 == FIT_OVERFLOW) {
			return size_error(err, f1, version, nr, HEXOID_SHA1, size, need1,
					  where);
		} else if (f1 == FIT_SHORT) {
			/* sha256 needs more than sha1 for the same N: it is short too. */
			return fail(err, HEXOID_IDX_ETRUNCATED, size, NO_ENTRY,
				    "truncated: file is %zu bytes, but a v%u index of %zu objects "
				    "(fanout[255] at byte %zu) needs %s%zu bytes (sha1) or %zu "
				    "(sha256)",
				    size, version, nr, where, version == 2 ? "at least " : "",
				    need1, need2);
		} else {
			/* Both sizes, so the reader sees which format came nearest. */
			return fail(err, HEXOID_IDX_ESIZE, size, NO_ENTRY,
				    "file size %zu fits neither hash for %zu objects (fanout[255] "
				    "at byte %zu): a v%u sha1 index is %zu bytes%s, a sha256 one "
				    "%zu%s",
				    size, nr, where, version, need1,
				    version == 2 ? " plus 8 per large offset (at most one per "
						   "object)"
						 : "",
				    need2, version == 2 ? " plus the same" : "");
		}
	}

	lay_out(idx, p, size, version, nr, nr_large, algo);
	return check_entries(idx, err);
}

size_t hexoid_idx_count(const struct hexoid_idx *idx)
{
	return idx->nr;
}

unsigned hexoid_idx_version(const struct hexoid_idx *idx)
{
	return idx->version;
}

enum hexoid_algo hexoid_idx_algo(const struct hexoid_idx *idx)
{
	return idx->algo;
}

const unsigned char *hexoid_idx_id(const struct hexoid_idx *idx, size_t i)
{
	return i < idx->nr ? idx->ids + i * idx->id_stride : NULL;
}

uint64_t hexoid_idx_offset(const struct hexoid_idx *idx, size_t i)
{
	if (i >= idx->nr)
		return 0;
	uint32_t off = be32(idx->offs + i * idx->off_stride);
	/* v1 offsets are plain 32-bit numbers; the MSB means "large" only in v2. */
	if (idx->version == 1 || !(off & 0x80000000u))
		return off;
	return be64(idx->large + 8 * (size_t)(off & 0x7fffffffu));
}

size_t hexoid_idx_offsets(const struct hexoid_idx *idx, size_t first, size_t n, uint64_t *offs)
{
	if (first >= idx->nr)
		return 0;
	if (n > idx->nr - first)
		n = idx->nr - first;
	const unsigned char *p = idx->offs + first * idx->off_stride;
	for (size_t i = 0; i < n; i++, p += idx->off_stride) {
		uint32_t off = be32(p);
		offs[i] = idx->version == 1 || !(off & 0x80000000u)
				  ? off
				  : be64(idx->large + 8 * (size_t)(off & 0x7fffffffu));
	}
	return n;
}

size_t hexoid_idx_crc32_hex(const struct hexoid_idx *idx, size_t first, size_t n, char *hex)
{
	if (!idx->crcs || first >= idx->nr)
		return 0;
	if (n > idx->nr - first)
		n = idx->nr - first;
	/* The table holds each CRC32 big-endian, so its bytes in hex are "%08x": five
	 * CRC32s are one 20-byte record for the SHA-1 encoder, 40 digits with no gaps. */
	const unsigned char *crcs = idx->crcs + 4 * first;
	size_t whole = n / 5;
	if (whole)
		hexoid_encode(hex, 40, crcs, whole, HEXOID_SHA1);
	if (n % 5) {
		unsigned char last[20] = { 0 };
		char digits[40];
		memcpy(last, crcs + 20 * whole, 4 * (n % 5));
		hexoid_encode(digits, 40, last, 1, HEXOID_SHA1);
		memcpy(hex + 40 * whole, digits, 8 * (n % 5));
	}
	return n;
}

int hexoid_idx_has_crc32(const struct hexoid_idx *idx)
{
	return idx->crcs != NULL;
}

uint32_t hexoid_idx_crc32(const struct hexoid_idx *idx, size_t i)
{
	return idx->crcs && i < idx->nr ? be32(idx->crcs + 4 * i) : 0;
}

void hexoid_idx_checksums(const struct hexoid_idx *idx, const unsigned char **pack,
			  const unsigned char **index)
{
	const unsigned char *end = idx->data + idx->size;
	if (pack)
		*pack = end - 2 * idx->rawsz;
	if (index)
		*index = end - idx->rawsz;
}

/* The first entry in [lo, hi) whose ID is not below key (hi if none). */
static size_t lower_bound(const struct hexoid_idx *idx, const unsigned char *key, size_t lo,
			  size_t hi)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (id_cmp(idx->ids + mid * idx->id_stride, key, idx->rawsz) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The entries whose ID starts with key[0], as the fanout says. */
static void bucket(const struct hexoid_idx *idx, const unsigned char *key, size_t *lo,
		   size_t *hi)
{
	*lo = key[0] ? fanout_at(idx, key[0] - 1u) : 0;
	*hi = fanout_at(idx, key[0]);
}

static ptrdiff_t found_at(const struct hexoid_idx *idx, const unsigned char *key, size_t pos,
			  size_t hi)
{
	if (pos < hi && !memcmp(idx->ids + pos * idx->id_stride, key, idx->rawsz))
		return (ptrdiff_t)pos;
	return -1;
}

ptrdiff_t hexoid_idx_find(const struct hexoid_idx *idx, const unsigned char *raw)
{
	size_t lo, hi;
	bucket(idx, raw, &lo, &hi);
	return found_at(idx, raw, lower_bound(idx, raw, lo, hi), hi);
}

size_t hexoid_idx_find_many(const struct hexoid_idx *idx, const unsigned char *raw, size_t n,
			    ptrdiff_t *pos)
{
	size_t rawsz = idx->rawsz, found = 0, prev_pos = 0;
	const unsigned char *prev = NULL;
	for (size_t k = 0; k < n; k++) {
		const unsigned char *key = raw + k * rawsz;
		size_t lo, hi, at;
		bucket(idx, key, &lo, &hi);
		if (prev && prev[0] == key[0] && id_cmp(prev, key, rawsz) <= 0) {
			/* Sorted input: the answer is at or after the previous one. Gallop
			 * from there, so a dense run of queries costs O(1) each and a
			 * sparse one O(log gap) rather than O(log bucket). */
			size_t step = 1, end = prev_pos;
			lo = prev_pos;
			while (end < hi && id_cmp(idx->ids + end * idx->id_stride, key, rawsz) < 0) {
				lo = end + 1;
				end = hi - lo > step ? lo + step : hi;
				step *= 2;
			}
			at = lower_bound(idx, key, lo, end);
		} else {
			at = lower_bound(idx, key, lo, hi);
		}
		ptrdiff_t r = found_at(idx, key, at, hi);
		if (pos)
			pos[k] = r;
		found += r >= 0;
		prev = key;
		prev_pos = at;
	}
	return found;
}

size_t hexoid_idx_encode(const struct hexoid_idx *idx, size_t first, size_t n, char *out,
			 size_t stride)
{
	size_t rawsz = idx->rawsz;
	if (first >= idx->nr || stride < 2 * rawsz)
		return 0;
	if (n > idx->nr - first)
		n = idx->nr - first;
	if (idx->id_stride == rawsz) {
		/* v2 stores the IDs packed, as the encoder takes them: one call. */
		hexoid_encode(out, stride, idx->ids + first * rawsz, n, idx->algo);
		return n;
	}
	/* v1 interleaves offsets and IDs: gather a chunk of IDs, then encode it whole. */
	enum { CHUNK = 128 };
	unsigned char packed[CHUNK * HEXOID_MAX_RAWSZ];
	for (size_t done = 0; done < n;) {
		size_t k = n - done < CHUNK ? n - done : CHUNK;
		const unsigned char *id = idx->ids + (first + done) * idx->id_stride;
		/* Constant sizes, so the copies are a few moves rather than calls to memcpy. */
		if (rawsz == 20)
			for (size_t j = 0; j < k; j++, id += idx->id_stride)
				memcpy(packed + j * 20, id, 20);
		else
			for (size_t j = 0; j < k; j++, id += idx->id_stride)
				memcpy(packed + j * 32, id, 32);
		hexoid_encode(out + done * stride, stride, packed, k, idx->algo);
		done += k;
	}
	return n;
}
