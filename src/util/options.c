/*
 * Versioned options (options.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "util/options.h"

int hexoid_options_init(void *dst, size_t size, size_t first, size_t jobs_at)
{
	const unsigned one = 1;

	if (!dst || size < first || size < sizeof(size_t))
		return -1;
	memset(dst, 0, size);
	memcpy(dst, &size, sizeof(size));
	if (jobs_at != HEXOID_NO_JOBS && jobs_at + sizeof(one) <= size)
		memcpy((char *)dst + jobs_at, &one, sizeof(one));
	return 0;
}
