/*
 * An action's outcome told to the caller (on_action) and counted, the one way every
 * part of the repair reports what it did.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>

#include "repair/repair.h"

unsigned long hexoid_repair_ids_of(const struct action *a)
{
	return a->kind == HEXOID_REPAIR_RENAME ? 1 : (unsigned long)a->n;
}

void hexoid_repair_tell(struct hexoid_repair *rp, const struct action *a,
			enum hexoid_repair_outcome out, const char *lock, unsigned long ids,
			const char *message)
{
	struct hexoid_repair_action ra;

	ra.kind = a->kind;
	ra.outcome = out;
	ra.area = a->area;
	ra.path = a->path;
	ra.lock = lock;
	ra.ids = ids;
	ra.line = a->fixes ? a->fixes[0].line : 0;
	ra.column = a->fixes ? a->fixes[0].column : 0;
	ra.message = message;
	ra.to = a->to;
	if (rp->o->on_action && rp->o->on_action(rp->o->ctx, &ra))
		rp->stopped = 1;
}

void hexoid_repair_tell_planned(struct hexoid_repair *rp, const struct action *a)
{
	if (a->note)
		hexoid_repair_tell(rp, a, HEXOID_REPAIR_FAILED, NULL, 0, a->note);
	else
		hexoid_repair_tell(rp, a, HEXOID_REPAIR_PLANNED, NULL, hexoid_repair_ids_of(a), NULL);
}

void hexoid_repair_count_outcome(struct hexoid_repair *rp, enum hexoid_repair_outcome res)
{
	if (res == HEXOID_REPAIR_DONE)
		rp->count.done++;
	else if (res == HEXOID_REPAIR_LOCKED)
		rp->count.locked++;
	else if (res == HEXOID_REPAIR_CHANGED)
		rp->count.changed++;
	else
		rp->count.failed++;
}
