/*
 * First use from many threads at once, with others forcing kernels meanwhile, and
 * HEXOID_KERNEL read at first use. Each runs in a child process forked before the
 * library is used at all, since first use happens once per process.
 * SPDX-License-Identifier: MIT
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

enum { THREADS = 16, ROUNDS = 200 };
static pthread_barrier_t start;
static char lines[64 * 65];
static unsigned char expect[64 * 32];

static void *worker(void *arg)
{
	size_t id = (size_t)arg;
	unsigned char out[64 * 32];
	const char *names[16];
	size_t failures = 0;
	pthread_barrier_wait(&start);
	for (int r = 0; r < ROUNDS; r++) {
		if (id % 4 == 3) {
			size_t n = hexoid_kernels(names, 16);
			if (hexoid_set_kernel(names[(size_t)r % n]))
				failures++;
		}
		struct hexoid_error e;
		memset(out, 0, sizeof(out));
		if (hexoid_decode(out, lines, 64, 65, HEXOID_SHA256, HEXOID_LOWER, &e) != HEXOID_OK ||
		    memcmp(out, expect, sizeof(out)))
			failures++;
	}
	return (void *)failures;
}

static int first_use_child(void)
{
	pthread_t t[THREADS];
	size_t failures = 0;
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < sizeof(lines); i++)
		lines[i] = i % 65 == 64 ? '\n' : digits[(i * 7 + i / 65) % 16];
	struct hexoid_error e;
	ref_decode(expect, lines, 64, 65, 64, HEXOID_LOWER, &e);
	pthread_barrier_init(&start, NULL, THREADS);
	for (size_t i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (size_t i = 0; i < THREADS; i++) {
		void *f;
		pthread_join(t[i], &f);
		failures += (size_t)f;
	}
	return failures ? 1 : 0;
}

/* HEXOID_KERNEL=value at first use must give `want` ("best" for the automatic choice). */
static int env_child(const char *value, const char *want)
{
	const char *names[16];
	setenv("HEXOID_KERNEL", value, 1);
	const char *got = hexoid_kernel(); /* first use: reads the environment */
	hexoid_kernels(names, 16);
	if (!strcmp(want, "best"))
		want = names[0];
	return strcmp(got, want) ? 1 : 0;
}

/*
 * The first call of the process is a one-ID call: entry `which` ("dN" hexoid_decode, "hN"
 * hexoid_hex_to_bytes; N = 2*sha256 + lower, +4 for a bad ID), with HEXOID_KERNEL=env.
 * It must pick the kernel on its way (env's) and answer as any later call does.
 */
static int one_child(const char *which, const char *env)
{
	size_t v = (size_t)(which[1] - '0'), sha256 = v >> 1 & 1, bad = v >> 2 & 1;
	enum hexoid_kind kind = v & 1 ? HEXOID_LOWER : HEXOID_MIXED;
	size_t hexsz = sha256 ? 64 : 40;
	char in[64];
	unsigned char out[32], want[32];
	struct hexoid_error e = { 7, 7, HEXOID_EARG }, r;
	int fails = 0;
	setenv("HEXOID_KERNEL", env, 1);
	for (size_t i = 0; i < hexsz; i++)
		in[i] = "0123456789abcdef"[(i * 7 + 3) % 16];
	in[5] = 'B'; /* mixed case: good for HEXOID_MIXED only */
	if (bad)
		in[hexsz - 3] = 'x';
	enum hexoid_status rs = ref_decode(want, in, 1, hexsz, hexsz, kind, &r);
	memset(out, 0, sizeof(out));
	if (which[0] == 'd') {
		enum hexoid_status st = hexoid_decode(out, in, 1, hexsz,
						      sha256 ? HEXOID_SHA256 : HEXOID_SHA1, kind, &e);
		fails += st != rs || e.status != rs || e.record != (rs == HEXOID_OK) ||
			 e.column != (rs == HEXOID_OK ? 0 : r.column);
	} else {
		fails += hexoid_hex_to_bytes(out, in, hexsz / 2, kind) != (rs == HEXOID_OK ? 0 : -1);
	}
	if (rs == HEXOID_OK)
		fails += memcmp(out, want, hexsz / 2) != 0;
	fails += strcmp(hexoid_kernel(), env) != 0;
	return fails ? 1 : 0;
}

static int in_child(int (*fn)(const char *, const char *), const char *a, const char *b)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		exit(fn ? fn(a, b) : first_use_child()); /* exit, not _exit: sanitizers report at exit */
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int first_use_result = -1, env_scalar = -1, env_bogus = -1, env_auto = -1;
static int one_first[2][8][2];

void threads_first_use_check(void)
{
	static const char *const names[2][8] = {
		{ "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7" },
		{ "h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7" },
	};
	const char *nk[16];
	hexoid_kernels(nk, 16); /* detects the CPU, chooses nothing */
	for (size_t f = 0; f < 2; f++)
		for (size_t v = 0; v < 8; v++)
			for (size_t k = 0; k < 2; k++) /* the best kernel, and scalar */
				one_first[f][v][k] = in_child(one_child, names[f][v],
							      k ? "scalar" : nk[0]);
	first_use_result = in_child(NULL, NULL, NULL);
	env_scalar = in_child(env_child, "scalar", "scalar");
	env_bogus = in_child(env_child, "no-such-kernel", "best");
	env_auto = in_child(env_child, "auto", "best");
}

TEST(threads_concurrent_first_use_and_set_kernel)
{
	CHECK(first_use_result == 0, "concurrent first use: child result %d", first_use_result);
}

TEST(threads_first_call_is_one_id)
{
	for (size_t f = 0; f < 2; f++)
		for (size_t v = 0; v < 8; v++)
			for (size_t k = 0; k < 2; k++)
				CHECK(one_first[f][v][k] == 0,
				      "first call %s %zu of the process (%s kernel): child result %d",
				      f ? "hexoid_hex_to_bytes" : "hexoid_decode n=1", v,
				      k ? "scalar" : "best", one_first[f][v][k]);
}

TEST(threads_env_forces_kernel_at_first_use)
{
	CHECK(env_scalar == 0, "HEXOID_KERNEL=scalar not honoured");
	CHECK(env_bogus == 0, "HEXOID_KERNEL=no-such-kernel not ignored");
	CHECK(env_auto == 0, "HEXOID_KERNEL=auto not the best kernel");
}
