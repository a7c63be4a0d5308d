/*
 * CPU features, one bit each, as detected at run time (src/cpu.c): what the kernel table
 * (src/dispatch.c) needs to choose a kernel.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_CPU_H
#define HEXOID_CPU_H

#include <stddef.h>
#include <stdint.h>

enum {
	HEXOID_CPU_SSE2 = 1u << 0,
	HEXOID_CPU_SSSE3 = 1u << 1,
	HEXOID_CPU_SSE41 = 1u << 2,
	HEXOID_CPU_AVX = 1u << 3,
	HEXOID_CPU_AVX2 = 1u << 4,
	HEXOID_CPU_BMI2 = 1u << 5,
	HEXOID_CPU_AVX512F = 1u << 6,
	HEXOID_CPU_AVX512BW = 1u << 7,
	HEXOID_CPU_AVX512VL = 1u << 8,
	HEXOID_CPU_AVX512VBMI = 1u << 9,
	HEXOID_CPU_NEON = 1u << 16,
	HEXOID_CPU_SVE = 1u << 17,
	/* A core type rather than a feature: from MIDR_EL1, for kernels tuned to it. */
	HEXOID_CPU_NEOVERSE_V1 = 1u << 18,
	/* A core family, from CPUID: AMD family 0x19 and later (Zen 4, Zen 5) with AVX-512. */
	HEXOID_CPU_ZEN4 = 1u << 19,
};
uint32_t hexoid_cpu_detect(void);
/* Space-separated names of the bits in `features`, into buf (always NUL-terminated). */
void hexoid_cpu_names(uint32_t features, char *buf, size_t size);

#endif /* HEXOID_CPU_H */
