/*
 * Kernel dispatch: the table of kernels, and the active one, chosen once and published
 * with C11 atomics so that any number of threads may make their first call at once.
 * SPDX-License-Identifier: MIT
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "internal.h"

struct kernel {
	const char *name;
	const char *requires; /* for people: the features in `needs` */
	uint32_t needs;
	hexoid_decode_fn *decode; /* NULL: not built into this library */
	hexoid_encode_fn *encode;
};

/* The Makefile defines HEXOID_HAVE_<ISA> for each ISA folder it compiled natively. */
#define FNS(isa) hexoid_##isa##_decode, hexoid_##isa##_encode
#define NOT_BUILT NULL, NULL
#ifdef HEXOID_HAVE_AVX512
#define FNS_AVX512VBMI FNS(avx512vbmi)
#define FNS_AVX512 FNS(avx512)
#else
#define FNS_AVX512VBMI NOT_BUILT
#define FNS_AVX512 NOT_BUILT
#endif
#ifdef HEXOID_HAVE_AVX2
#define FNS_AVX2 FNS(avx2)
#else
#define FNS_AVX2 NOT_BUILT
#endif
#ifdef HEXOID_HAVE_SSE
#define FNS_SSE FNS(sse)
#else
#define FNS_SSE NOT_BUILT
#endif
#ifdef HEXOID_HAVE_NEON
#define FNS_NEON FNS(neon)
#else
#define FNS_NEON NOT_BUILT
#endif

#define AVX512_NEEDS                                                                        \
	(HEXOID_CPU_AVX512F | HEXOID_CPU_AVX512BW | HEXOID_CPU_AVX512VL | HEXOID_CPU_BMI2)

/* Best first: automatic selection takes the first row that is built and supported. */
static const struct kernel kernels[] = {
	/* AVX-512 is one kernel for users; CPUs without VBMI run its BW-only variant. */
	{ "avx512", "avx512f avx512bw avx512vl avx512vbmi bmi2",
	  AVX512_NEEDS | HEXOID_CPU_AVX512VBMI, FNS_AVX512VBMI },
	{ "avx512bw", "avx512f avx512bw avx512vl bmi2", AVX512_NEEDS, FNS_AVX512 },
	{ "avx2", "avx2", HEXOID_CPU_AVX2, FNS_AVX2 },
	{ "sse", "ssse3 sse4.1", HEXOID_CPU_SSSE3 | HEXOID_CPU_SSE41, FNS_SSE },
	{ "neon", "neon", HEXOID_CPU_NEON, FNS_NEON },
	{ "scalar", "", 0, FNS(scalar) },
};
#define NKERNELS (sizeof(kernels) / sizeof(kernels[0]))
static const struct kernel *const scalar_kernel = &kernels[NKERNELS - 1];

/* Bit 31 marks the features as detected, so a CPU with none still caches its answer. */
#define CPU_DETECTED (1u << 31)
static _Atomic uint32_t cpu_cache;
static _Atomic(const struct kernel *) active;

static uint32_t cpu_features(void)
{
	uint32_t f = atomic_load_explicit(&cpu_cache, memory_order_relaxed);
	if (HEXOID_UNLIKELY(!f)) {
		/* Detection is idempotent: racing threads store the same value. */
		f = hexoid_cpu_detect() | CPU_DETECTED;
		atomic_store_explicit(&cpu_cache, f, memory_order_relaxed);
	}
	return f;
}

static int usable(const struct kernel *k)
{
	return k->decode && (cpu_features() & k->needs) == k->needs;
}

static const struct kernel *find_usable(const char *name)
{
	for (size_t i = 0; i < NKERNELS; i++)
		if (!strcmp(kernels[i].name, name))
			return usable(&kernels[i]) ? &kernels[i] : NULL;
	return NULL;
}

static const struct kernel *best(void)
{
	for (size_t i = 0; i < NKERNELS; i++)
		if (usable(&kernels[i]))
			return &kernels[i];
	return scalar_kernel;
}

static const struct kernel *first_use(void)
{
	const struct kernel *k = NULL;
	const char *forced = getenv("HEXOID_KERNEL");
	if (forced && *forced && strcmp(forced, "auto"))
		k = find_usable(forced); /* an unusable name is ignored */
	if (!k)
		k = best();
	/*
	 * Publish only if nobody did meanwhile: a hexoid_set_kernel() that ran during our
	 * first use must win over our default.
	 */
	const struct kernel *expected = NULL;
	if (!atomic_compare_exchange_strong_explicit(&active, &expected, k, memory_order_acq_rel,
						     memory_order_acquire))
		k = expected;
	return k;
}

static inline const struct kernel *current(void)
{
	const struct kernel *k = atomic_load_explicit(&active, memory_order_acquire);
	return HEXOID_LIKELY(k) ? k : first_use();
}

hexoid_decode_fn *hexoid_active_decode(void)
{
	return current()->decode;
}

hexoid_encode_fn *hexoid_active_encode(void)
{
	return current()->encode;
}

HEXOID_API const char *hexoid_kernel(void)
{
	return current()->name;
}

HEXOID_API int hexoid_set_kernel(const char *name)
{
	const struct kernel *k;
	if (!name)
		return -1;
	k = strcmp(name, "auto") ? find_usable(name) : best();
	if (!k)
		return -1;
	atomic_store_explicit(&active, k, memory_order_release);
	return 0;
}

HEXOID_API size_t hexoid_kernels(const char **names, size_t cap)
{
	size_t count = 0;
	for (size_t i = 0; i < NKERNELS; i++) {
		if (!usable(&kernels[i]))
			continue;
		if (names && count < cap)
			names[count] = kernels[i].name;
		count++;
	}
	return count;
}

HEXOID_API size_t hexoid_kernel_table(struct hexoid_kernel_info *info, size_t cap)
{
	for (size_t i = 0; info && i < NKERNELS && i < cap; i++) {
		info[i].name = kernels[i].name;
		info[i].requires = kernels[i].requires;
		info[i].built = kernels[i].decode != NULL;
		info[i].supported = usable(&kernels[i]);
	}
	return NKERNELS;
}

static char feature_text[160];
static pthread_once_t feature_text_once = PTHREAD_ONCE_INIT;

static void name_features(void)
{
	hexoid_cpu_names(cpu_features() & ~CPU_DETECTED, feature_text, sizeof(feature_text));
}

HEXOID_API const char *hexoid_cpu_features(void)
{
	pthread_once(&feature_text_once, name_features);
	return feature_text;
}
