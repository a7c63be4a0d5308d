/*
 * The refs of a reftable stack, as far as the audit needs them (reftable.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_AUDIT_REFTABLE_H
#define HEXOID_AUDIT_REFTABLE_H

#include <stddef.h>

#include "hexoid.h"

/* A ref of a reftable stack: its name, and its value when type is 1 or 2 (an ID; an ID
 * and what it peels to); 3 is a symbolic ref. */
struct rt_ref {
	char *name;
	unsigned char type;
	unsigned char oid[HEXOID_MAX_RAWSZ];
};

/* The refs whose names begin with `prefix` in the reftable stack of the git directory
 * `gitdir`, in name order: 0, or -1 with err set (nothing is returned then). */
int hexoid_reftable_refs(const char *gitdir, const char *prefix, enum hexoid_algo algo,
			 struct rt_ref **refs, size_t *n, char *err, size_t errsz);
/* The same from tables in memory, oldest first (for the fuzz target). */
int hexoid_reftable_refs_buffers(const unsigned char *const *tables, const size_t *sizes,
				 size_t n, const char *prefix, enum hexoid_algo algo,
				 struct rt_ref **refs, size_t *nrefs, char *err, size_t errsz);
void hexoid_reftable_free(struct rt_ref *refs, size_t n);

#endif
