/*
 * The places of an area in a git directory, read (walk.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_AUDIT_WALK_H
#define HEXOID_AUDIT_WALK_H

#include "audit/audit.h"

/* Every place of places.c of one area in one git directory of the repository. */
void hexoid_audit_area_in(struct run *r, enum hexoid_audit_area area, const struct repo *rp,
			  const struct where *w);

#endif
