/*
 * Running a child process (child.h).
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/child.h"

extern char **environ;

pid_t hexoid_child_spawn(char *const argv[], char *const envp[], int *to, int *from)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err;
	posix_spawn_file_actions_t fa;
	pid_t pid;

	if ((to && pipe(in)) || (from && pipe(out))) {
		err = errno;
		goto fail;
	}
	posix_spawn_file_actions_init(&fa);
	if (to) {
		posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
		posix_spawn_file_actions_addclose(&fa, in[0]);
		posix_spawn_file_actions_addclose(&fa, in[1]);
	}
	if (from) {
		posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
		posix_spawn_file_actions_addclose(&fa, out[0]);
		posix_spawn_file_actions_addclose(&fa, out[1]);
	}
	err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, envp ? envp : environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err)
		goto fail;
	if (to) {
		close(in[0]);
		*to = in[1];
	}
	if (from) {
		close(out[1]);
		*from = out[0];
	}
	return pid;
fail:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	errno = err;
	return -1;
}

int hexoid_child_wait_ended(pid_t pid)
{
	siginfo_t info;

	while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

int hexoid_child_wait(pid_t pid, int *sig)
{
	int status;

	*sig = 0;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	*sig = WTERMSIG(status);
	return -1;
}

char *hexoid_child_capture(char *const argv[], char *const envp[], int *status, int *sig)
{
	int fd, err;
	pid_t pid;
	size_t n = 0, cap = 4096;
	char *buf, *more;

	*status = -1;
	*sig = 0;
	if ((pid = hexoid_child_spawn(argv, envp, NULL, &fd)) < 0)
		return NULL;
	buf = malloc(cap);
	for (;;) {
		ssize_t got;
		if (buf && cap - n < 2) {
			if (!(more = realloc(buf, cap *= 2)))
				free(buf);
			buf = more;
		}
		if (!buf)
			break; /* read nothing more: the child ends on EPIPE */
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	*status = hexoid_child_wait(pid, sig);
	if (!buf) {
		err = ENOMEM;
		*status = -1;
		*sig = 0;
		errno = err;
		return NULL;
	}
	buf[n] = 0;
	return buf;
}

char **hexoid_child_env(const char *const set[])
{
	size_t n = 0, k = 0, i, j;
	char **env;

	while (environ[n])
		n++;
	while (set[k])
		k++;
	if (!(env = malloc((n + k + 1) * sizeof(*env))))
		return NULL;
	for (i = j = 0; i < n; i++) {
		size_t name = strcspn(environ[i], "=");
		size_t s;
		for (s = 0; s < k; s++)
			if (!strncmp(environ[i], set[s], name) && set[s][name] == '=')
				break;
		if (s == k)
			env[j++] = environ[i];
	}
	for (i = 0; i < k; i++)
		env[j++] = (char *)set[i];
	env[j] = NULL;
	return env;
}

void hexoid_sigpipe_block(struct hexoid_sigpipe *s)
{
	sigset_t pipe_set, pending;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigemptyset(&pending);
	sigpending(&pending);
	s->was_pending = sigismember(&pending, SIGPIPE) == 1;
	pthread_sigmask(SIG_BLOCK, &pipe_set, &s->old);
}

void hexoid_sigpipe_restore(struct hexoid_sigpipe *s)
{
	sigset_t pipe_set, pending;
	struct timespec zero = { 0, 0 };

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigemptyset(&pending);
	sigpending(&pending);
	if (!s->was_pending && sigismember(&pending, SIGPIPE) == 1)
		while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, &s->old, NULL);
}
