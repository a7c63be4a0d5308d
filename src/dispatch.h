/*
 * The kernel table and the active kernel (src/dispatch.c), for the entry points
 * (src/hexoid.c): which of the kernels of kernel.h the calls go to.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_DISPATCH_H
#define HEXOID_DISPATCH_H

#include <stdatomic.h>
#include <stdint.h>

#include "compiler.h"
#include "kernel.h"

/* One row of the kernel table (src/dispatch.c). */
struct hexoid_kernel {
	/* First, so the one-ID call is a single indexed load from the active row. */
	hexoid_decode1_fn *decode1[2][2][2]; /* [bytes1][hexsz == 64][kind == HEXOID_LOWER] */
	const char *name;
	const char *requires; /* for people: the features in `needs` */
	uint32_t needs;
	hexoid_decode_fn *decode; /* NULL: not built into this library */
	hexoid_encode_fn *encode;
	uint32_t prefers; /* picked automatically only on CPUs with these too (src/dispatch.c) */
};

/*
 * The active kernel (src/dispatch.c), &hexoid_pending until the first use picks one:
 * that row's one-ID functions pick it and go on, so the one-ID paths need no test.
 * Hidden, so position-independent code reaches them without the GOT.
 */
extern HEXOID_HIDDEN _Atomic(const struct hexoid_kernel *) hexoid_active;
extern HEXOID_HIDDEN const struct hexoid_kernel hexoid_pending;
const struct hexoid_kernel *hexoid_first_use(void);

HEXOID_INLINE const struct hexoid_kernel *hexoid_current(void)
{
	const struct hexoid_kernel *k = atomic_load_explicit(&hexoid_active, memory_order_acquire);
	return HEXOID_LIKELY(k != &hexoid_pending) ? k : hexoid_first_use();
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
