/*
 * The test pause between listing and reading (hook.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>

#include "util/hook.h"

hexoid_hook_fn *hexoid_hook_fn_set;
void *hexoid_hook_ctx;

void hexoid_hook_set(hexoid_hook_fn *fn, void *ctx)
{
	hexoid_hook_ctx = ctx;
	hexoid_hook_fn_set = fn;
}
