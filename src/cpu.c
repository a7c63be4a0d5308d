/*
 * Run-time CPU feature detection: one bitmask, from one function.
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

#include "cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/*
 * XGETBV through its opcode bytes, so this file needs no -mxsave and stays baseline code.
 * Only called after CPUID said OSXSAVE is set, as XGETBV faults otherwise.
 */
static uint64_t read_xcr0(void)
{
	uint32_t lo, hi;
	__asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

uint32_t hexoid_cpu_detect(void)
{
	unsigned a, b, c, d, max;
	uint32_t f = 0;

	if (!__get_cpuid(0, &max, &b, &c, &d) || max < 1)
		return 0;
	/* "AuthenticAMD" in EBX, EDX, ECX */
	int amd = b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163;
	__cpuid(1, a, b, c, d);
	/* the family: base (bits 11..8), plus the extended one (27..20) when base is 15 */
	unsigned family = (a >> 8 & 0xf) == 0xf ? 0xf + (a >> 20 & 0xff) : a >> 8 & 0xf;
	if (d & (1u << 26))
		f |= HEXOID_CPU_SSE2;
	if (c & (1u << 9))
		f |= HEXOID_CPU_SSSE3;
	if (c & (1u << 19))
		f |= HEXOID_CPU_SSE41;

	/*
	 * The AVX and AVX-512 bits of CPUID only say the CPU has them; the OS must also save
	 * the YMM (XCR0 bits 1-2) and ZMM (bits 5-7) state across context switches.
	 */
	int ymm = 0, zmm = 0;
	if ((c & (1u << 27)) && (c & (1u << 28))) { /* OSXSAVE, AVX */
		uint64_t xcr0 = read_xcr0();
		ymm = (xcr0 & 0x06) == 0x06;
		zmm = (xcr0 & 0xe6) == 0xe6;
		if (ymm)
			f |= HEXOID_CPU_AVX;
	}
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		if (b & (1u << 8))
			f |= HEXOID_CPU_BMI2;
		if (ymm && (b & (1u << 5)))
			f |= HEXOID_CPU_AVX2;
		if (zmm && (b & (1u << 16)))
			f |= HEXOID_CPU_AVX512F;
		if (zmm && (b & (1u << 30)))
			f |= HEXOID_CPU_AVX512BW;
		if (zmm && (b & (1u << 31)))
			f |= HEXOID_CPU_AVX512VL;
		if (zmm && (c & (1u << 1)))
			f |= HEXOID_CPU_AVX512VBMI;
	}
	/* Zen 3 is family 0x19 too, but has no AVX-512: the bit names the cores that do. */
	if (amd && family >= 0x19 && (f & HEXOID_CPU_AVX512BW))
		f |= HEXOID_CPU_ZEN4;
	return f;
}

#elif defined(__aarch64__)
#if defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1 << 11)
#endif
#ifndef HWCAP_SVE
#define HWCAP_SVE (1 << 22)
#endif

/*
 * MIDR_EL1, which names the core (implementer and part number), or 0. With HWCAP_CPUID
 * (Linux 4.11 and later) the kernel emulates reading it from user space, for the core
 * the thread runs on; otherwise sysfs has it for cpu0. On a system mixing core types
 * either answer picks a kernel that is correct everywhere, only not tuned everywhere.
 */
static uint64_t read_midr(unsigned long hwcap)
{
	uint64_t midr = 0;
	if (hwcap & HWCAP_CPUID) {
		__asm__ volatile("mrs %0, MIDR_EL1" : "=r"(midr));
		return midr;
	}
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");
	if (f) {
		unsigned long long v;
		if (fscanf(f, "%llx", &v) == 1)
			midr = v;
		fclose(f);
	}
	return midr;
}
#endif

/* MIDR_EL1 fields: implementer in bits 31..24 (0x41 is Arm), part number in 15..4. */
#define MIDR_ARM_PART(midr)                                                                 \
	(((midr) >> 24 & 0xff) == 0x41 ? (unsigned)((midr) >> 4 & 0xfff) : 0)

uint32_t hexoid_cpu_detect(void)
{
	uint32_t f = HEXOID_CPU_NEON; /* Advanced SIMD is mandatory on AArch64 */
#if defined(__linux__)
	unsigned long hwcap = getauxval(AT_HWCAP);
	if (hwcap & HWCAP_SVE)
		f |= HEXOID_CPU_SVE;
	if (MIDR_ARM_PART(read_midr(hwcap)) == 0xd40) /* Neoverse V1 */
		f |= HEXOID_CPU_NEOVERSE_V1;
#endif
	return f;
}

#else
uint32_t hexoid_cpu_detect(void)
{
	return 0;
}
#endif

static const struct {
	uint32_t bit;
	const char *name;
} feature_names[] = {
	{ HEXOID_CPU_SSE2, "sse2" },
	{ HEXOID_CPU_SSSE3, "ssse3" },
	{ HEXOID_CPU_SSE41, "sse4.1" },
	{ HEXOID_CPU_AVX, "avx" },
	{ HEXOID_CPU_AVX2, "avx2" },
	{ HEXOID_CPU_BMI2, "bmi2" },
	{ HEXOID_CPU_AVX512F, "avx512f" },
	{ HEXOID_CPU_AVX512BW, "avx512bw" },
	{ HEXOID_CPU_AVX512VL, "avx512vl" },
	{ HEXOID_CPU_AVX512VBMI, "avx512vbmi" },
	{ HEXOID_CPU_NEON, "neon" },
	{ HEXOID_CPU_SVE, "sve" },
	{ HEXOID_CPU_NEOVERSE_V1, "neoverse-v1" },
	{ HEXOID_CPU_ZEN4, "zen4" },
};

void hexoid_cpu_names(uint32_t features, char *buf, size_t size)
{
	size_t len = 0;
	if (size == 0)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++) {
		if (!(features & feature_names[i].bit))
			continue;
		int w = snprintf(buf + len, size - len, "%s%s", len ? " " : "",
				 feature_names[i].name);
		if (w < 0 || (size_t)w >= size - len)
			break;
		len += (size_t)w;
	}
}
