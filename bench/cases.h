/*
 * The benchmark cases, registered with the harness (bench/harness.h) by main.c.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_BENCH_CASES_H
#define HEXOID_BENCH_CASES_H

/* Single-ID latency: one 40- or 64-digit ID per call, each call waiting on the last. */
void register_latency_cases(void);

/* Bulk decode, validate-only and encode over record counts and strides (cases.c). */
void register_bulk_cases(void);

/* Whole listings through the `hexoid verify` path (cases_listing.c). */
void register_listing_cases(void);

#endif /* HEXOID_BENCH_CASES_H */
