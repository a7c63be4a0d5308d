/*
 * The kernel table and the active kernel (src/dispatch.c), for the entry points
 * (src/hexoid.c): which of the kernels of kernel.h the calls go to.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_DISPATCH_H
#define HEXOID_DISPATCH_H

#include <stdint.h>

#include "compiler.h"
#include "kernel.h"

/* One row of the kernel table (src/dispatch.c). */
struct hexoid_kernel {
	/* The one-ID functions, [bytes1][hexsz == 64][kind == HEXOID_LOWER]: what
	 * hexoid__active (hexoid.h) points to, in the active row. */
	struct hexoid__one one;
	const char *name;
	const char *requires; /* for people: the features in `needs` */
	uint32_t needs;
	hexoid_decode_fn *decode; /* NULL: not built into this library */
	hexoid_encode_fn *encode;
	uint32_t prefers; /* picked automatically only on CPUs with these too (src/dispatch.c) */
};

/*
 * The active kernel (src/dispatch.c) is the row whose one-ID table hexoid__active
 * points to, &hexoid_pending.one until the first use picks one: that row's one-ID
 * functions pick it and go on, so the one-ID paths need no test. hexoid__active is
 * exported for hexoid.h's inline hexoid_decode(), so the library reaches it as a
 * program does (through the GOT in the shared library: a program's copy of it is the
 * one).
 */
extern HEXOID_HIDDEN const struct hexoid_kernel hexoid_pending;
const struct hexoid_kernel *hexoid_first_use(void);

/* The row of a one-ID table: the table is its first member. */
HEXOID_INLINE const struct hexoid_kernel *hexoid_row(const struct hexoid__one *one)
{
	return (const struct hexoid_kernel *)(const void *)one;
}

HEXOID_INLINE const struct hexoid__one *hexoid_active_one(void)
{
	return __atomic_load_n(&hexoid__active, __ATOMIC_ACQUIRE);
}

HEXOID_INLINE const struct hexoid_kernel *hexoid_current(void)
{
	const struct hexoid__one *one = hexoid_active_one();
	return HEXOID_LIKELY(one != &hexoid_pending.one) ? hexoid_row(one) : hexoid_first_use();
}

/* The active kernel's functions, chosen at first use. */
HEXOID_INLINE hexoid_decode_fn *hexoid_active_decode(void)
{
	return hexoid_current()->decode;
}

HEXOID_INLINE hexoid_encode_fn *hexoid_active_encode(void)
{
	return hexoid_current()->encode;
}

#endif /* HEXOID_DISPATCH_H */
