/*
 * libFuzzer target: the pack index reader on any bytes (byte 0 picks the hash: told, or
 * inferred). Whatever hexoid_idx_open() accepts must then read back consistently: every
 * offset and CRC readable, IDs strictly increasing, each found again at its own entry,
 * and the bulk encoder agreeing with a byte-at-a-time one.
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexoid_idx.h"

static void require(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "pack index reader: %s\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	enum hexoid_algo algo = (enum hexoid_algo)(data[0] % 3); /* 0: infer */
	/* An exact-size copy, so that ASan sees any read past the end. */
	unsigned char *buf = malloc(size - 1 ? size - 1 : 1);
	memcpy(buf, data + 1, size - 1);
	struct hexoid_idx idx;
	struct hexoid_idx_error err;
	if (hexoid_idx_open(&idx, buf, size - 1, algo, &err) != HEXOID_IDX_OK) {
		require(err.message[0] != '\0', "an error without a message");
		free(buf);
		return 0;
	}
	size_t n = hexoid_idx_count(&idx), rawsz = hexoid_rawsz(hexoid_idx_algo(&idx));
	require(rawsz == 20 || rawsz == 32, "unknown hash");
	char *hex = malloc(n * 2 * rawsz + 1);
	require(hexoid_idx_encode(&idx, 0, n, hex, 2 * rawsz) == n, "encode count");
	for (size_t i = 0; i < n; i++) {
		const unsigned char *id = hexoid_idx_id(&idx, i);
		require(id != NULL, "an entry without an ID");
		if (i)
			require(memcmp(hexoid_idx_id(&idx, i - 1), id, rawsz) < 0, "IDs out of order");
		require(hexoid_idx_find(&idx, id) == (ptrdiff_t)i, "an ID not found at its entry");
		(void)hexoid_idx_offset(&idx, i);
		(void)hexoid_idx_crc32(&idx, i);
		for (size_t j = 0; j < rawsz; j++) {
			char pair[3];
			snprintf(pair, sizeof(pair), "%02x", id[j]);
			require(!memcmp(hex + i * 2 * rawsz + 2 * j, pair, 2), "encode differs");
		}
	}
	require(hexoid_idx_id(&idx, n) == NULL, "an ID past the end");
	free(hex);
	free(buf);
	return 0;
}
