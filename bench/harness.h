/*
 * The benchmark harness as seen from C: register a case by name with a callback, run
 * the timed loop, report counters. Two implementations share this interface:
 *
 *   bench/harness.cc           Google Benchmark (libbenchmark-dev), the normal build
 *   bench/harness_fallback.c   a small CLOCK_MONOTONIC loop, for hosts without it
 *                              (the AArch64 cross build run under qemu)
 *
 * so the cases themselves (bench/cases*.c) are plain C11 calling the public API.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_BENCH_HARNESS_H
#define HEXOID_BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_state bench_state;

/*
 * A case: set up (untimed), then `while (bench_keep_running(st)) { work }`, then
 * bench_set_processed(). Or call bench_skip_with_error() instead of looping: the case is
 * still listed, with the reason, rather than silently missing from the results.
 */
typedef void bench_fn(bench_state *st, const void *arg);

/* Register a case; `name` is copied, `arg` is passed through as it is. */
void bench_register(const char *name, bench_fn *fn, const void *arg);

/* True while more timed iterations are wanted. The timer starts at the first call. */
int bench_keep_running(bench_state *st);

/*
 * Work done by ONE iteration: items (object IDs) and bytes (of input). Call after the
 * loop; the harness multiplies by the iteration count and reports items/s and bytes/s.
 */
void bench_set_processed(bench_state *st, uint64_t items_per_iter, uint64_t bytes_per_iter);

/* Mark the case as not run, with the reason; do not enter the loop afterwards. */
void bench_skip_with_error(bench_state *st, const char *reason);

/* A short free-form note printed beside the result. */
void bench_set_label(bench_state *st, const char *label);

/* Keep the compiler from proving a result unused (and the work around it dead). */
void bench_escape(const void *p);

/* A key/value pair recorded in the results' context (CPU model, kernels, ...). */
void bench_add_context(const char *key, const char *value);

/* Parse --benchmark_* options, run the registered cases; returns the exit status. */
int bench_run(int argc, char **argv);

/* Which harness this binary was built with: "google-benchmark" or "fallback". */
const char *bench_harness_name(void);

#ifdef __cplusplus
}
#endif

#endif /* HEXOID_BENCH_HARNESS_H */
