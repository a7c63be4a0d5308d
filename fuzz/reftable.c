/*
 * libFuzzer target: the audit's reftable reader on any bytes, as a stack of one to three
 * tables (byte 0 picks the hash and the name prefix, byte 1 how many tables the rest is
 * cut into). What it returns must be in strict name order, every name under the prefix,
 * every type a value's; nothing may crash or read out of bounds.
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/reftable.h"

static void require(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "reftable reader: %s\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	enum hexoid_algo algo = data[0] & 1 ? HEXOID_SHA256 : HEXOID_SHA1;
	const char *prefix = data[0] & 2 ? "refs/replace/" : "";
	size_t n = 1 + data[1] % 3, piece, plen = strlen(prefix);
	data += 2, size -= 2;
	piece = size / n;
	unsigned char *tables[3];
	size_t sizes[3];
	for (size_t i = 0; i < n; i++) {
		/* Each table in its own exact-size buffer, so ASan sees any read past it. */
		sizes[i] = i + 1 < n ? piece : size - piece * (n - 1);
		tables[i] = malloc(sizes[i] ? sizes[i] : 1);
		memcpy(tables[i], data + piece * i, sizes[i]);
	}
	struct rt_ref *refs;
	size_t nrefs;
	char err[256];
	int ret = hexoid_reftable_refs_buffers((const unsigned char *const *)tables, sizes, n, prefix, algo,
					&refs, &nrefs, err, sizeof(err));
	require(ret == 0 || (!refs && !nrefs && err[0]), "a failure must say why and return nothing");
	for (size_t i = 0; i < nrefs; i++) {
		require(!strncmp(refs[i].name, prefix, plen), "a name outside the prefix");
		require(refs[i].type >= 1 && refs[i].type <= 3, "a deletion or unknown type returned");
		require(!i || strcmp(refs[i - 1].name, refs[i].name) < 0, "names out of order or twice");
	}
	hexoid_reftable_free(refs, nrefs);
	for (size_t i = 0; i < n; i++)
		free(tables[i]);
	return 0;
}
