/*
 * The inputs every case shares: generated on first use, kept while they fit in a memory
 * budget, regenerated identically (a fixed seed) if they had to be dropped.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_BENCH_INPUTS_H
#define HEXOID_BENCH_INPUTS_H

#include <stddef.h>

#include "hexoid.h"

/*
 * Call at the start of each case: the buffers it then asks for are kept until the next
 * case starts, whatever else it asks for.
 */
void inputs_begin_case(void);

/* n random binary IDs (n * rawsz bytes); the same bytes on every call and every run. */
const unsigned char *inputs_raw(enum hexoid_algo algo, size_t n);

/*
 * n records of `stride` bytes: the lowercase hex of inputs_raw(algo, n) record by
 * record, then (stride > hexsz) a separator: "\n", or " " + filler + "\n" as in a
 * `git cat-file --batch-check` listing. Writable, so encode cases can write into it:
 * they write the same hex back.
 */
char *inputs_text(enum hexoid_algo algo, size_t stride, size_t n);

/* Writable scratch of `size` bytes, already touched (no page faults while timed). */
unsigned char *inputs_out(size_t size);    /* decode output */
unsigned char *inputs_copy(size_t size);   /* memcpy destination */

/* Bytes currently held, and the budget (HEXOID_BENCH_MEMORY_MB, default 3072). */
size_t inputs_held(void);
size_t inputs_budget(void);

#endif /* HEXOID_BENCH_INPUTS_H */
