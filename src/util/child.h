/*
 * Running a child process (git, for the push gate) with pipes to and from it.
 *
 * Nothing here prints, exits or changes the process's signal handling: failures come
 * back as errno or an exit status, and writes to a child that has died get EPIPE rather
 * than SIGPIPE through hexoid_sigpipe_block(). Every function may be called from any
 * thread.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_UTIL_CHILD_H
#define HEXOID_UTIL_CHILD_H

#include <signal.h>
#include <sys/types.h>

/*
 * Start argv[0] (looked up on PATH unless it holds a '/') with the environment envp
 * (NULL: this process's). When `to` is not NULL the child's stdin is a pipe whose write
 * end is returned there; likewise its stdout and `from`. Returns the pid, or -1 with
 * errno.
 */
pid_t hexoid_child_spawn(char *const argv[], char *const envp[], int *to, int *from);

/* Block until pid has ended, without reaping it (it can still be signalled safely: its
 * pid is not reused before hexoid_child_wait()). 0, or -1 with errno. */
int hexoid_child_wait_ended(pid_t pid);

/* Reap pid: its exit status (0..255), or -1 when it died of a signal (*sig set to it) or
 * waitpid failed (*sig 0, errno set). */
int hexoid_child_wait(pid_t pid, int *sig);

/*
 * The whole stdout of argv, NUL-terminated, malloc'd; *status and *sig as
 * hexoid_child_wait() gives them. NULL with errno when it cannot be started or memory
 * runs out (*status is then -1 and *sig 0).
 */
char *hexoid_child_capture(char *const argv[], char *const envp[], int *status, int *sig);

/*
 * This process's environment with each "NAME=value" of set[] (NULL-terminated) in place
 * of NAME's own value, or added: an array to give hexoid_child_spawn(), pointing into
 * environ and set[], freed with free(). NULL when memory runs out.
 */
char **hexoid_child_env(const char *const set[]);

/* Writes to a pipe between these two calls, in the calling thread, fail with EPIPE
 * instead of raising SIGPIPE; hexoid_sigpipe_restore() discards a SIGPIPE they caused
 * and restores the thread's signal mask. */
struct hexoid_sigpipe {
	sigset_t old;
	int was_pending;
};
void hexoid_sigpipe_block(struct hexoid_sigpipe *s);
void hexoid_sigpipe_restore(struct hexoid_sigpipe *s);

#endif
