/*
 * Versioned options: a public options struct starts with its size, which the caller's
 * build sets, so that the library reads and writes only as far as the caller's struct
 * goes (a program built against an older header passes a smaller one).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_UTIL_OPTIONS_H
#define HEXOID_UTIL_OPTIONS_H

#include <stddef.h>

/* No `unsigned jobs` member to set: hexoid_options_init()'s jobs_at. */
#define HEXOID_NO_JOBS ((size_t)-1)

/*
 * The *_options_init() of every options struct, whose defaults are zeros but for its
 * size and, at offset jobs_at (unless HEXOID_NO_JOBS), `unsigned jobs` = 1: `dst` (of
 * `size` bytes, as the caller was built) zeroed, padding too, then those two set as far
 * as it goes. 0, or -1 with nothing written for NULL or a size below `first`, the first
 * version's.
 */
int hexoid_options_init(void *dst, size_t size, size_t first, size_t jobs_at);

#endif
