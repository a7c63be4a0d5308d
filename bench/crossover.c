/*
 * hexoid-crossover: every kernel of this machine, and the automatic choice, on one case
 * at sizes from cache-resident to DRAM, in one process, interleaved: where one kernel
 * overtakes another as the text leaves the caches, and whether dispatch follows.
 *
 *   build/bench/hexoid-crossover [--sha256] [--validate] [--quick]
 *
 * Records are lines (hexsz + 1 bytes, lowercase, as git prints them). Each size runs
 * each kernel in turn, the order rotated every repeat, for at least 20 ms a go; the
 * figure is the median of the repeats in M IDs/s. "auto" is hexoid_set_kernel("auto"):
 * what a program gets without choosing. After timing, each kernel's output is compared
 * with the scalar kernel's.
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hexoid.h"

#define MAXK 16
#define REPEATS 7

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int sha256 = 0, validate = 0, quick = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--sha256"))
			sha256 = 1;
		else if (!strcmp(argv[i], "--validate"))
			validate = 1;
		else if (!strcmp(argv[i], "--quick"))
			quick = 1;
		else {
			fprintf(stderr, "usage: %s [--sha256] [--validate] [--quick]\n", argv[0]);
			return 2;
		}
	}
	enum hexoid_algo algo = sha256 ? HEXOID_SHA256 : HEXOID_SHA1;
	size_t hexsz = hexoid_hexsz(algo), rawsz = hexsz / 2, stride = hexsz + 1;

	const char *names[MAXK + 1];
	size_t nk = hexoid_kernels(names, MAXK);
	if (nk > MAXK)
		nk = MAXK;
	names[nk++] = "auto";

	static const size_t sizes[] = { 8 << 10,  32 << 10,  64 << 10, 128 << 10, 256 << 10,
					512 << 10, 1 << 20,  2 << 20,  4 << 20,   16 << 20 };
	size_t nsizes = sizeof(sizes) / sizeof(sizes[0]);
	size_t maxn = sizes[nsizes - 1];
	if (quick)
		maxn = 4 << 20;

	char *lines = malloc(maxn * stride);
	unsigned char *out = malloc(maxn * rawsz), *ref = malloc(maxn * rawsz);
	if (!lines || !out || !ref) {
		fprintf(stderr, "hexoid-crossover: out of memory\n");
		return 1;
	}
	uint64_t x = 0x9e3779b97f4a7c15u;
	for (size_t i = 0; i < maxn * stride; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		lines[i] = i % stride == hexsz ? '\n' : "0123456789abcdef"[x & 15];
	}

	printf("# %s %s lines, M IDs/s (median of %d), default kernel %s\n",
	       sha256 ? "SHA-256" : "SHA-1", validate ? "validate" : "decode", REPEATS,
	       hexoid_kernel());
	printf("%-9s %9s", "lines", "MB");
	for (size_t k = 0; k < nk; k++)
		printf(" %9s", names[k]);
	printf("  fastest\n");
	for (size_t s = 0; s < nsizes && sizes[s] <= maxn; s++) {
		size_t n = sizes[s];
		double rate[MAXK + 1][REPEATS];
		for (int r = 0; r < REPEATS; r++) {
			for (size_t j = 0; j < nk; j++) {
				size_t k = (j + (size_t)r) % nk;
				if (hexoid_set_kernel(names[k]))
					return 1;
				size_t calls = 0;
				double t0 = now(), t;
				do {
					if (hexoid_decode(validate ? NULL : out, lines, n, stride, algo,
							  HEXOID_LOWER, NULL) != HEXOID_OK)
						return 1;
					calls++;
				} while ((t = now() - t0) < 0.02);
				rate[k][r] = (double)(calls * n) / t / 1e6;
			}
		}
		/* each kernel's output against the scalar kernel's */
		if (!validate) {
			hexoid_set_kernel("scalar");
			hexoid_decode(ref, lines, n, stride, algo, HEXOID_LOWER, NULL);
			for (size_t k = 0; k < nk; k++) {
				hexoid_set_kernel(names[k]);
				memset(out, 0, n * rawsz);
				hexoid_decode(out, lines, n, stride, algo, HEXOID_LOWER, NULL);
				if (memcmp(out, ref, n * rawsz)) {
					printf("BAD: %s differs from scalar at n=%zu\n", names[k], n);
					return 1;
				}
			}
		}
		size_t best = 0;
		double med[MAXK + 1];
		printf("%-9zu %9.1f", n, (double)(n * stride) / 1e6);
		for (size_t k = 0; k < nk; k++) {
			qsort(rate[k], REPEATS, sizeof(double), cmp_double);
			med[k] = rate[k][REPEATS / 2];
			if (k + 1 < nk && med[k] > med[best])
				best = k;
			printf(" %9.1f", med[k]);
		}
		printf("  %s (auto %.2fx of it)\n", names[best], med[nk - 1] / med[best]);
		fflush(stdout);
	}
	hexoid_set_kernel("auto");
	free(lines);
	free(out);
	free(ref);
	return 0;
}
