/*
 * SIMDe's AVX2 layer, for the files of this folder.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_AVX2_SIMD_H
#define HEXOID_AVX2_SIMD_H

/*
 * The tests also build this folder without -mavx2, through SIMDe's portable code. Clang
 * then warns (-Wpsabi) at every call that passes or returns a 32-byte vector, since
 * without AVX such a value travels in memory rather than in a register. Those calls are
 * all to inline helpers within one file, and no kernel takes or returns a vector, so the
 * warning does not concern us. (GCC prints a similar note once per file, which no pragma
 * silences: only -Wno-psabi on the command line does.)
 */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#endif

#include <simde/x86/avx2.h>

#endif /* HEXOID_AVX2_SIMD_H */
