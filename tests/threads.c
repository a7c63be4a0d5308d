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

void threads_first_use_check(void)
{
	first_use_result = in_child(NULL, NULL, NULL);
	env_scalar = in_child(env_child, "scalar", "scalar");
	env_bogus = in_child(env_child, "no-such-kernel", "best");
	env_auto = in_child(env_child, "auto", "best");
}

TEST(threads_concurrent_first_use_and_set_kernel)
{
	CHECK(first_use_result == 0, "concurrent first use: child result %d", first_use_result);
}

TEST(threads_env_forces_kernel_at_first_use)
{
	CHECK(env_scalar == 0, "HEXOID_KERNEL=scalar not honoured");
	CHECK(env_bogus == 0, "HEXOID_KERNEL=no-such-kernel not ignored");
	CHECK(env_auto == 0, "HEXOID_KERNEL=auto not the best kernel");
}
