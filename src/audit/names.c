/*
 * The names of the audit's areas (hexoid_audit.h); its codes are hexoid_codes.h's.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>

#include "hexoid_audit.h"

static const char *const area_names[HEXOID_AREA_COUNT] = {
	"refs", "pseudo-refs", "packed-refs", "reflogs", "shallow", "fetch-head", "grafts",
	"replace", "notes", "rebase", "sequencer", "rerere", "config-files", "dumb-http",
	"promisor", "commit-graph-chain", "midx-chain", "loose-objects", "pack-objects",
	"alternates",
};

const char *hexoid_audit_area_name(enum hexoid_audit_area area)
{
	return (unsigned)area < HEXOID_AREA_COUNT ? area_names[area] : NULL;
}
