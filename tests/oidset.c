/*
 * The set of object IDs the push gate and the repair look IDs up in (src/util/oidset.c):
 * sorted once, each ID kept once, each found again, in both hashes' sizes.
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "test.h"
#include "util/oidset.h"

/* ID i of rawsz bytes: alike but for their last two bytes, so that only a comparison of
 * the whole ID tells two apart. */
static void id(unsigned char *oid, size_t rawsz, unsigned i)
{
	memset(oid, 0xab, rawsz);
	oid[rawsz - 2] = (unsigned char)(i >> 8);
	oid[rawsz - 1] = (unsigned char)i;
}

TEST(oidset_repeats)
{
	static const size_t sizes[] = { 20, 32 };

	for (size_t s = 0; s < 2; s++) {
		struct hexoid_oidset set = HEXOID_OIDSET_INIT;
		unsigned char oid[HEXOID_MAX_RAWSZ];
		size_t rawsz = sizes[s], i, at;
		int failed = 0;

		hexoid_oidset_sort(&set);
		id(oid, rawsz, 0);
		CHECK(set.n == 0 && hexoid_oidset_find(&set, oid, rawsz) == (size_t)-1,
		      "%zu bytes: an empty set sorts, and finds nothing", rawsz);
		/* 300 IDs, each added 3 or 4 times (7 and 300 have no common factor), out of
		 * their order. */
		for (i = 0; i < 1000 && !failed; i++) {
			id(oid, rawsz, (unsigned)(i * 7 % 300));
			failed = hexoid_oidset_add(&set, oid, rawsz);
		}
		CHECK(!failed, "%zu bytes: out of memory", rawsz);
		hexoid_oidset_sort(&set);
		CHECK(set.n == 300, "%zu bytes: 300 IDs added 1000 times, %zu kept", rawsz, set.n);
		for (i = 1; i < set.n && !test_failed(); i++)
			CHECK(memcmp(hexoid_oidset_at(&set, i - 1), hexoid_oidset_at(&set, i),
				     HEXOID_MAX_RAWSZ) < 0,
			      "%zu bytes: entries %zu and %zu not in strict order", rawsz, i - 1, i);
		for (i = 0; i < 300 && !test_failed(); i++) {
			id(oid, rawsz, (unsigned)i);
			at = hexoid_oidset_find(&set, oid, rawsz);
			CHECK(at != (size_t)-1 && !memcmp(hexoid_oidset_at(&set, at), oid, rawsz),
			      "%zu bytes: ID %zu not found", rawsz, i);
		}
		id(oid, rawsz, 300);
		CHECK(hexoid_oidset_find(&set, oid, rawsz) == (size_t)-1,
		      "%zu bytes: an ID never added is not found", rawsz);
		/* Added to after a sort, and sorted again: one new ID, one already there. */
		CHECK(!hexoid_oidset_add(&set, oid, rawsz), "%zu bytes: out of memory", rawsz);
		id(oid, rawsz, 0);
		CHECK(!hexoid_oidset_add(&set, oid, rawsz), "%zu bytes: out of memory", rawsz);
		hexoid_oidset_sort(&set);
		id(oid, rawsz, 300);
		CHECK(set.n == 301 && hexoid_oidset_find(&set, oid, rawsz) != (size_t)-1,
		      "%zu bytes: sorted again, %zu kept of 301", rawsz, set.n);
		hexoid_oidset_free(&set);
		CHECK(!set.n && !set.v, "%zu bytes: a freed set is empty", rawsz);
	}
}
