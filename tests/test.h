/*
 * A small test runner: TEST(name) registers a function, CHECK() records a failure with
 * its place, and the last line printed is "N passed, N failed".
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_TEST_H
#define HEXOID_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hexoid.h"
#include "kernel.h"

typedef void test_fn(void);
void test_register(const char *name, test_fn *fn);
void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int test_failed(void); /* has the current test failed yet? */
/* An options init (a wrapper taking void *) writes `want` (`full` bytes: this header's
 * struct) as far as the caller's size goes and nothing past it, for this header's size
 * and the first version's (`first`), and refuses a smaller size and NULL. NULL when it
 * does, else what it got wrong (runner.c). */
const char *test_options_init(int (*init)(void *, size_t), const void *want, size_t full,
			      size_t first);

#define TEST(name)                                                                          \
	static void name(void);                                                             \
	__attribute__((constructor)) static void register_##name(void)                      \
	{                                                                                   \
		test_register(#name, name);                                                 \
	}                                                                                   \
	static void name(void)

/* TEST_TSAN: 1 under ThreadSanitizer, which makes each step many times slower: tests that
 * scale their work or their time bounds by it say so. */
#if defined(__SANITIZE_THREAD__)
#define TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEST_TSAN 1
#endif
#endif
#ifndef TEST_TSAN
#define TEST_TSAN 0
#endif

/* TEST_SANITIZED: 1 under any sanitizer (ASan, UBSan, TSan), for time bounds that only a
 * native build is held to. */
#if defined(__SANITIZE_ADDRESS__) || TEST_TSAN
#define TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define TEST_SANITIZED 1
#endif
#endif
#ifndef TEST_SANITIZED
#define TEST_SANITIZED 0
#endif

/* test_emulated(): 1 when make check runs the tests through an emulator (RUN, e.g.
 * qemu-aarch64), where each step costs a hundred native ones: tests that try every
 * length or offset sample them there, and the native and sanitizer runs take them all. */
int test_emulated(void);

/* CHECK(cond, "fmt", ...): on failure, report and go on with the test. */
#define CHECK(cond, ...)                                                                    \
	do {                                                                                \
		if (!(cond))                                                                \
			test_fail(__FILE__, __LINE__, __VA_ARGS__);                         \
	} while (0)

/* tests/threads.c: forks its children before anything else uses the library. */
void threads_first_use_check(void);

/* Deterministic pseudo-random numbers (xorshift64*), so a failure can be replayed. */
uint64_t test_rand(void);
void test_seed(uint64_t seed);

/* The naive reference, written from the rules and sharing nothing with the library. */
enum hexoid_status ref_decode(unsigned char *out, const char *in, size_t n, size_t stride,
			      size_t hexsz, enum hexoid_kind kind, struct hexoid_error *err);
void ref_encode(char *out, size_t stride, const unsigned char *in, size_t n, size_t rawsz);

/* Kernels under test: the usable native ones (through the public API) and the portable
 * SIMDe builds of every SIMD folder. */
struct test_kernel {
	char name[40];
	hexoid_decode_fn *decode; /* NULL: use the public API with this kernel forced */
	hexoid_encode_fn *encode;
};
size_t test_kernels(struct test_kernel *list, size_t cap);
enum hexoid_status test_decode(const struct test_kernel *k, unsigned char *out, const char *in,
			       size_t n, size_t stride, size_t hexsz, enum hexoid_kind kind,
			       struct hexoid_error *err);
void test_encode(const struct test_kernel *k, char *out, size_t stride,
		 const unsigned char *in, size_t n, size_t rawsz);

/* Memory whose first or last byte touches an inaccessible page. */
struct guarded {
	void *map;
	size_t maplen;
};
unsigned char *guarded_alloc(struct guarded *g, size_t size, int at_end);
void guarded_free(struct guarded *g);

#endif
