/*
 * Kernel dispatch: the table of kernels, and the active one, chosen once and published
 * with C11 atomics so that any number of threads may make their first call at once.
 * SPDX-License-Identifier: MIT
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "dispatch.h"

/* The Makefile defines HEXOID_HAVE_<ISA> for each ISA folder it compiled natively. */
#define FNS(isa) hexoid_##isa##_decode, hexoid_##isa##_encode
#define NOT_BUILT NULL, NULL
#define ONE(isa)                                                                            \
	{ { { { hexoid_##isa##_decode1_40_mixed, hexoid_##isa##_decode1_40_lower },          \
	      { hexoid_##isa##_decode1_64_mixed, hexoid_##isa##_decode1_64_lower } },        \
	    { { hexoid_##isa##_bytes1_40_mixed, hexoid_##isa##_bytes1_40_lower },            \
	      { hexoid_##isa##_bytes1_64_mixed, hexoid_##isa##_bytes1_64_lower } } } }
#define ONE_NOT_BUILT ONE(scalar)
#ifdef HEXOID_HAVE_AVX512
#define FNS_AVX512VBMI FNS(avx512vbmi)
#define FNS_AVX512 FNS(avx512)
#define ONE_AVX512VBMI ONE(avx512vbmi)
#else
#define FNS_AVX512VBMI NOT_BUILT
#define FNS_AVX512 NOT_BUILT
#define ONE_AVX512VBMI ONE_NOT_BUILT
#endif
#ifdef HEXOID_HAVE_AVX2
#define FNS_AVX2 FNS(avx2)
#define ONE_AVX2 ONE(avx2)
#else
#define FNS_AVX2 NOT_BUILT
#define ONE_AVX2 ONE_NOT_BUILT
#endif
#ifdef HEXOID_HAVE_SSE
#define FNS_SSE FNS(sse)
#define ONE_SSE ONE(sse)
#else
#define FNS_SSE NOT_BUILT
#define ONE_SSE ONE_NOT_BUILT
#endif
#ifdef HEXOID_HAVE_NEON
#define FNS_NEON FNS(neon)
#define ONE_NEON ONE(neon)
/* The NEON folder's second decoder (src/neon/decode.c) encodes with the first's encoder. */
#define FNS_NEONWIDE hexoid_neonwide_decode, hexoid_neon_encode
#define ONE_NEONWIDE ONE(neonwide)
#else
#define FNS_NEON NOT_BUILT
#define ONE_NEON ONE_NOT_BUILT
#define FNS_NEONWIDE NOT_BUILT
#define ONE_NEONWIDE ONE_NOT_BUILT
#endif
/* Every CPU with AVX-512 BW has AVX2, whose one-ID kernel the BW variant shares. */
#if defined(HEXOID_HAVE_AVX512) && defined(HEXOID_HAVE_AVX2)
#define ONE_AVX512 ONE(avx2)
#else
#define ONE_AVX512 ONE_NOT_BUILT
#endif

#define AVX512_NEEDS                                                                        \
	(HEXOID_CPU_AVX512F | HEXOID_CPU_AVX512BW | HEXOID_CPU_AVX512VL | HEXOID_CPU_BMI2)

#if defined(HEXOID_HAVE_AVX512) && defined(HEXOID_HAVE_AVX2)
/*
 * Past this many bytes of lines, the AVX-512 VBMI kernel falls behind AVX2 on Zen 4,
 * once the text and the IDs no longer fit the caches (at 128K SHA-1 lines, 5.4 MB, VBMI
 * decoded 1.35x AVX2's IDs/s; at 256K, 10.7 MB, 0.90x; at 1M, 0.68x; validate-only
 * alike: bench/crossover.c). Why is not settled: its loads and stores are 64 bytes at
 * unaligned places, two cache lines each, but software prefetching changed nothing.
 * Packed digits (stride == hexsz) keep VBMI, which stays level with AVX2 and the crates
 * in DRAM there.
 */
#define ZEN4_STREAM_BYTES ((size_t)8 << 20)

/*
 * The kernel automatic selection picks on Zen 4 (and later AMD cores with AVX-512): VBMI,
 * but AVX2 for lines past the caches. One test per call.
 */
static size_t zen4_decode(unsigned char *out, const char *in, size_t n, size_t stride,
			  size_t hexsz, enum hexoid_kind kind)
{
	/* no overflow: the entry point checked that the span is addressable */
	if (HEXOID_UNLIKELY(stride != hexsz && (n - 1) * stride >= ZEN4_STREAM_BYTES))
		return hexoid_avx2_decode(out, in, n, stride, hexsz, kind);
	return hexoid_avx512vbmi_decode(out, in, n, stride, hexsz, kind);
}
#define FNS_ZEN4 zen4_decode, hexoid_avx512vbmi_encode
#else
#define FNS_ZEN4 NOT_BUILT
#endif

/*
 * Best first: automatic selection takes the first row that is built and supported and
 * whose `prefers` the CPU has too. `prefers` is no requirement: a kernel runs correctly
 * without it (so it can be forced, and is tested, anywhere), it is only slower there.
 */
static const struct hexoid_kernel kernels[] = {
	/* Zen 4: AVX-512 VBMI, or AVX2 for lines past the caches (above). */
	{ ONE_AVX512VBMI, "avx512zen4", "avx512f avx512bw avx512vl avx512vbmi bmi2",
	  AVX512_NEEDS | HEXOID_CPU_AVX512VBMI, FNS_ZEN4, HEXOID_CPU_ZEN4 },
	/* AVX-512 is one kernel for users; CPUs without VBMI run its BW-only variant. */
	{ ONE_AVX512VBMI, "avx512", "avx512f avx512bw avx512vl avx512vbmi bmi2",
	  AVX512_NEEDS | HEXOID_CPU_AVX512VBMI, FNS_AVX512VBMI, 0 },
	{ ONE_AVX512, "avx512bw", "avx512f avx512bw avx512vl bmi2", AVX512_NEEDS, FNS_AVX512, 0 },
	{ ONE_AVX2, "avx2", "avx2", HEXOID_CPU_AVX2, FNS_AVX2, 0 },
	{ ONE_SSE, "sse", "ssse3 sse4.1", HEXOID_CPU_SSSE3 | HEXOID_CPU_SSE41, FNS_SSE, 0 },
	/* The same work in fewer table lookups, for cores where each costs two micro-ops. */
	{ ONE_NEONWIDE, "neonwide", "neon", HEXOID_CPU_NEON, FNS_NEONWIDE,
	  HEXOID_CPU_NEOVERSE_V1 },
	{ ONE_NEON, "neon", "neon", HEXOID_CPU_NEON, FNS_NEON, 0 },
	{ ONE(scalar), "scalar", "", 0, FNS(scalar), 0 },
};
#define NKERNELS (sizeof(kernels) / sizeof(kernels[0]))
static const struct hexoid_kernel *const scalar_kernel = &kernels[NKERNELS - 1];

/*
 * The active row until the first use: one-ID functions that pick the kernel and go on
 * with its own. Its other fields are never read (hexoid_current() picks first).
 */
#define FIRST(bytes1, sha256, lower)                                                        \
	static int first_##bytes1##sha256##lower(unsigned char *out, const char *in,         \
						 struct hexoid_error *err)                   \
	{                                                                                   \
		return hexoid_first_use()->one.fn[bytes1][sha256][lower](out, in, err);      \
	}
FIRST(0, 0, 0)
FIRST(0, 0, 1)
FIRST(0, 1, 0)
FIRST(0, 1, 1)
FIRST(1, 0, 0)
FIRST(1, 0, 1)
FIRST(1, 1, 0)
FIRST(1, 1, 1)
const struct hexoid_kernel hexoid_pending = {
	{ { { { first_000, first_001 }, { first_010, first_011 } },
	    { { first_100, first_101 }, { first_110, first_111 } } } },
	"auto", "", 0, NULL, NULL, 0,
};

/* Bit 31 marks the features as detected, so a CPU with none still caches its answer. */
#define CPU_DETECTED (1u << 31)
static _Atomic uint32_t cpu_cache;
HEXOID_API const struct hexoid__one *hexoid__active = &hexoid_pending.one;

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

static int usable(const struct hexoid_kernel *k)
{
	return k->decode && (cpu_features() & k->needs) == k->needs;
}

static const struct hexoid_kernel *find_usable(const char *name)
{
	for (size_t i = 0; i < NKERNELS; i++)
		if (!strcmp(kernels[i].name, name))
			return usable(&kernels[i]) ? &kernels[i] : NULL;
	return NULL;
}

static const struct hexoid_kernel *best(void)
{
	for (size_t i = 0; i < NKERNELS; i++)
		if (usable(&kernels[i]) &&
		    (cpu_features() & kernels[i].prefers) == kernels[i].prefers)
			return &kernels[i];
	return scalar_kernel;
}

const struct hexoid_kernel *hexoid_first_use(void)
{
	const struct hexoid_kernel *k = NULL;
	const char *forced = getenv("HEXOID_KERNEL");
	if (forced && *forced && strcmp(forced, "auto"))
		k = find_usable(forced); /* an unusable name is ignored */
	if (!k)
		k = best();
	/*
	 * Publish only if nobody did meanwhile: a hexoid_set_kernel() that ran during our
	 * first use must win over our default.
	 */
	const struct hexoid__one *expected = &hexoid_pending.one;
	if (!__atomic_compare_exchange_n(&hexoid__active, &expected, &k->one, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		k = hexoid_row(expected);
	return k;
}

HEXOID_API const char *hexoid_kernel(void)
{
	return hexoid_current()->name;
}

HEXOID_API int hexoid_set_kernel(const char *name)
{
	const struct hexoid_kernel *k;
	if (!name)
		return -1;
	k = strcmp(name, "auto") ? find_usable(name) : best();
	if (!k)
		return -1;
	__atomic_store_n(&hexoid__active, &k->one, __ATOMIC_RELEASE);
	return 0;
}

HEXOID_API size_t hexoid_kernels(const char **names, size_t cap)
{
	/* Best first: the one automatic selection picks, then the others in table order
	 * (a row tuned for another CPU is still faster here than those below it). */
	const struct hexoid_kernel *top = best();
	size_t count = 0;
	for (size_t i = 0; i <= NKERNELS; i++) {
		const struct hexoid_kernel *k = i ? &kernels[i - 1] : top;
		if (!usable(k) || (i && k == top))
			continue;
		if (names && count < cap)
			names[count] = k->name;
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
