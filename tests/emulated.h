/*
 * The portable (SIMDe) builds of the SIMD kernels this build has, for the tests and the
 * fuzzers. The Makefile defines HEXOID_EMU_HAVE_<ISA> for each folder it built so.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_TESTS_EMULATED_H
#define HEXOID_TESTS_EMULATED_H

#include "kernel.h"

struct emulated_kernel {
	const char *name;
	hexoid_decode_fn *decode;
	hexoid_encode_fn *encode;
};

/* Ends with a NULL name. */
static const struct emulated_kernel emulated_kernels[] = {
#ifdef HEXOID_EMU_HAVE_SSE
	{ "sse (simde)", hexoid_sse_decode_emu, hexoid_sse_encode_emu },
#endif
#ifdef HEXOID_EMU_HAVE_AVX2
	{ "avx2 (simde)", hexoid_avx2_decode_emu, hexoid_avx2_encode_emu },
#endif
#ifdef HEXOID_EMU_HAVE_AVX512
	{ "avx512bw (simde)", hexoid_avx512_decode_emu, hexoid_avx512_encode_emu },
	{ "avx512 (simde)", hexoid_avx512vbmi_decode_emu, hexoid_avx512vbmi_encode_emu },
#endif
#ifdef HEXOID_EMU_HAVE_NEON
	{ "neon (simde)", hexoid_neon_decode_emu, hexoid_neon_encode_emu },
	{ "neonwide (simde)", hexoid_neonwide_decode_emu, hexoid_neon_encode_emu },
#endif
	{ NULL, NULL, NULL },
};

#endif
