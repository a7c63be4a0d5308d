/*
 * Whether a loose object file holds the object its name says (object.h): inflated and
 * hashed as git hashes it, so that a file is only given a new name when that name is its
 * own.
 *
 * SPDX-License-Identifier: MIT
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pack/common.h"
#include "pack/loose_read.h"
#include "repair/object.h"
#include "util/file.h"

int hexoid_repair_loose_is(const char *path, enum hexoid_algo algo, const unsigned char *oid,
			   char *err, size_t errlen)
{
	struct hexoid_file f;
	struct pk_loose l;
	z_stream z;
	unsigned char *content = NULL, id[HEXOID_MAX_RAWSZ];
	enum pk_loose_status st;
	char why[160];
	int ret = -1;

	if (hexoid_file_read_at(AT_FDCWD, path, 0, 0, &f) != HEXOID_FILE_OK) {
		snprintf(err, errlen, "cannot be read");
		return -1;
	}
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK) {
		snprintf(err, errlen, "zlib: out of memory");
		free(f.data);
		return -1;
	}
	st = hexoid_pk_loose_header(&l, &z, f.data, f.size, why, sizeof(why));
	if (st == PK_LOOSE_OK)
		st = hexoid_pk_loose_content(&l, &content, why, sizeof(why));
	if (st != PK_LOOSE_OK)
		snprintf(err, errlen, "%s", why);
	else if (hexoid_pk_object_id(algo, l.type, content, (size_t)l.size, id))
		snprintf(err, errlen, "cannot be hashed: %s",
			 hexoid_pk_hash_unavailable() ? hexoid_pk_hash_unavailable() : "no memory");
	else if (memcmp(id, oid, hexoid_rawsz(algo)))
		snprintf(err, errlen, "its content hashes to another ID");
	else
		ret = 0;
	inflateEnd(&z);
	free(content);
	free(f.data);
	return ret;
}
