/*
 * The test runner: the C tests registered with TEST(), then each shell script named on
 * the command line, whose "ok - ..." and "not ok - ..." lines count as tests too.
 * Usage: run [--only SUBSTRING] [SCRIPT...]
 * With --only, the C tests whose names hold SUBSTRING run, and the scripts whose file name
 * (without its folder and .sh) holds it: `make check T=audit` runs audit_api's tests,
 * tests/audit.sh and tests/audit_places.sh.
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

#define MAX_TESTS 256
static struct {
	const char *name;
	test_fn *fn;
} tests[MAX_TESTS];
static size_t ntests;
static int current_failed;
static unsigned fail_reports;

void test_register(const char *name, test_fn *fn)
{
	if (ntests == MAX_TESTS) {
		fprintf(stderr, "too many tests\n");
		exit(2);
	}
	tests[ntests].name = name;
	tests[ntests].fn = fn;
	ntests++;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	current_failed = 1;
	/* One broken kernel can fail a million checks: show the first few. */
	if (++fail_reports > 20)
		return;
	fprintf(stdout, "    %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

int test_failed(void)
{
	return current_failed;
}

int test_emulated(void)
{
	const char *run = getenv("RUN");
	return run && *run;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
void test_seed(uint64_t seed)
{
	rng_state = seed ? seed : 1;
}
uint64_t test_rand(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

unsigned char *guarded_alloc(struct guarded *g, size_t size, int at_end)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t body = (size + page - 1) / page * page;
	if (body == 0)
		body = page;
	g->maplen = body + 2 * page;
	g->map = mmap(NULL, g->maplen, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->map == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	unsigned char *start = (unsigned char *)g->map + page;
	if (mprotect(start, body, PROT_READ | PROT_WRITE)) {
		perror("mprotect");
		exit(2);
	}
	/* at_end: the last byte is followed by the guard page; else the first follows one. */
	return at_end ? start + body - size : start;
}

void guarded_free(struct guarded *g)
{
	munmap(g->map, g->maplen);
}

/* Seconds on the monotonic clock: each suite's time goes to the log, for trimming CI. */
static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds (user and system) of the children waited for so far: a suite's share is
 * what CI's two lanes compete for, where its wall time also holds the other lane's. */
static double children_cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* Run a script, echo its output, count its TAP-style lines. */
static void run_script(const char *path, unsigned *passed, unsigned *failed)
{
	char cmd[4096], line[8192];
	unsigned ok = 0, bad = 0;
	double began = seconds(), cpu = children_cpu();
	snprintf(cmd, sizeof(cmd), "sh '%s' 2>&1", path);
	fflush(stdout);
	FILE *p = popen(cmd, "r");
	if (!p) {
		printf("not ok - %s: cannot run\n", path);
		(*failed)++;
		return;
	}
	while (fgets(line, sizeof(line), p)) {
		fputs(line, stdout);
		if (!strncmp(line, "ok ", 3))
			ok++;
		else if (!strncmp(line, "not ok ", 7))
			bad++;
	}
	int status = pclose(p);
	if (status != 0 && bad == 0) {
		printf("not ok - %s exited with status %d\n", path,
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		bad++;
	}
	printf("# time: %s %.1f s\n", path, seconds() - began);
	printf("# cpu: %s %.1f s\n", path, children_cpu() - cpu);
	*passed += ok;
	*failed += bad;
}

/* Whether the script's file name (without its folder) holds `only`: "install" and
 * "install.sh" both pick tests/install.sh. */
static int script_matches(const char *path, const char *only)
{
	const char *base = strrchr(path, '/');
	return strstr(base ? base + 1 : path, only) != NULL;
}

int main(int argc, char **argv)
{
	unsigned passed = 0, failed = 0;
	const char *only = NULL;
	int argi = 1;
	if (argc > 2 && !strcmp(argv[1], "--only")) {
		only = argv[2];
		argi = 3;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	threads_first_use_check();
	{
		struct test_kernel ks[16];
		size_t nk = test_kernels(ks, 16);
		printf("# kernels under test:");
		for (size_t i = 0; i < nk && i < 16; i++)
			printf(" %s%s", ks[i].name, i + 1 < nk ? "," : "\n");
		printf("# cpu features: %s\n", hexoid_cpu_features());
	}
	double c_began = seconds();
	for (size_t i = 0; i < ntests; i++) {
		if (only && !strstr(tests[i].name, only))
			continue;
		double began = seconds();
		current_failed = 0;
		fail_reports = 0;
		test_seed(0x6865786f6964ull + i);
		tests[i].fn();
		hexoid_set_kernel("auto");
		printf("%s - %s\n", current_failed ? "not ok" : "ok", tests[i].name);
		if (seconds() - began >= 2)
			printf("# time: %s %.1f s\n", tests[i].name, seconds() - began);
		if (current_failed)
			failed++;
		else
			passed++;
	}
	printf("# time: the C tests %.1f s\n", seconds() - c_began);
	for (; argi < argc; argi++)
		if (!only || script_matches(argv[argi], only))
			run_script(argv[argi], &passed, &failed);

	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}

/* One call of init on a buffer of 0xa5 bytes: 1 when it wrote `size` bytes as `want`
 * has them (its leading size_t replaced by size) and nothing after them. */
static int init_writes(int (*init)(void *, size_t), unsigned char *buf, size_t size,
		       const unsigned char *want, size_t full)
{
	size_t i, got_size;

	memset(buf, 0xa5, size + 64);
	if (init(buf, size) != 0)
		return 0;
	memcpy(&got_size, buf, sizeof(got_size));
	if (got_size != size)
		return 0;
	for (i = sizeof(size_t); i < size; i++)
		if (buf[i] != (i < full ? want[i] : 0))
			return 0;
	for (i = size; i < size + 64; i++)
		if (buf[i] != 0xa5)
			return 0;
	return 1;
}

const char *test_options_init(int (*init)(void *, size_t), const void *want, size_t full,
			      size_t first)
{
	unsigned char *buf = malloc(full + 64);
	const char *why = NULL;

	if (!buf)
		return "out of memory";
	if (!init_writes(init, buf, full, want, full))
		why = "this header's size: not the defaults, or written past them";
	else if (!init_writes(init, buf, first, want, full))
		why = "the first version's size: not its defaults, or written past them";
	memset(buf, 0xa5, full + 64);
	if (!why && (init(buf, first - 1) != -1 || buf[0] != 0xa5 || init(NULL, full) != -1))
		why = "a size below the first version's, or NULL: not -1, or written";
	free(buf);
	return why;
}
