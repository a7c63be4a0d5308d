/*
 * Compiler macros for every file of the library: branch hints, forced inlining, and
 * symbols kept out of the shared library's dynamic table.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_COMPILER_H
#define HEXOID_COMPILER_H

#if defined(__GNUC__)
#define HEXOID_LIKELY(x) __builtin_expect(!!(x), 1)
#define HEXOID_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* The portable (SIMDe) builds of the kernels are for the tests: forcing every helper
 * inline there, with SIMDe's lane loops beneath it, made one file take minutes to
 * compile under the sanitizers, for no gain a test can see. */
#ifdef HEXOID_EMULATED
#define HEXOID_INLINE static inline
#else
#define HEXOID_INLINE static inline __attribute__((always_inline))
#endif
#define HEXOID_HIDDEN __attribute__((visibility("hidden")))
#define HEXOID_NOINLINE __attribute__((noinline))
#else
#define HEXOID_HIDDEN
#define HEXOID_NOINLINE
#define HEXOID_LIKELY(x) (x)
#define HEXOID_UNLIKELY(x) (x)
#define HEXOID_INLINE static inline
#endif

#endif /* HEXOID_COMPILER_H */
