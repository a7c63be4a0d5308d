/*
 * A loose object checked against its name before the repair renames it (object.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_REPAIR_OBJECT_H
#define HEXOID_REPAIR_OBJECT_H

#include <stddef.h>

#include "hexoid.h"

/* 0 when the loose object file `path` inflates whole and hashes to `oid`; else -1 with
 * why in err. */
int hexoid_repair_loose_is(const char *path, enum hexoid_algo algo, const unsigned char *oid,
			   char *err, size_t errlen);

#endif
