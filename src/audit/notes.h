/*
 * The notes trees (notes.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_AUDIT_NOTES_H
#define HEXOID_AUDIT_NOTES_H

#include "audit/audit.h"

/* The notes of every notes ref of the repository: the names in their trees that are
 * IDs, fanned out or not. */
void hexoid_audit_notes(struct run *r, const struct repo *rp);

#endif
