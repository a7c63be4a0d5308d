/*
 * Running git for the gate: its environment, the processes a cancel or the time limit
 * ends, and the reasons the check could not be done (given to on_error).
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gate/gate.h"
#include "util/child.h"
#include "util/str.h"

/* A reason the check cannot be done or trusted, from the calling thread. Once the run
 * is cancelled or stopped, what follows from that is not news and is left unsaid. */
void hexoid_gate_say(struct hexoid_gate *g, const char *fmt, ...)
{
	char msg[1024];
	size_t len;
	va_list ap;

	if (g->stopped || hexoid_gate_cancelled(g))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	len = strlen(msg);
	if (len && msg[len - 1] == '\n')
		msg[--len] = 0;
	if (g->opt.on_error && g->opt.on_error(g->opt.ctx, msg)) {
		g->stopped = 1;
		g->trouble = 1;
		hexoid_gate_cancel(g);
	}
}

void hexoid_gate_oom(struct hexoid_gate *g)
{
	if (!g->nomem)
		hexoid_gate_say(g, "out of memory");
	g->nomem = 1;
	g->trouble = 1;
}

int hexoid_gate_cancelled(struct hexoid_gate *g)
{
	return __atomic_load_n(&g->cancelled, __ATOMIC_ACQUIRE);
}

void hexoid_gate_cancel(struct hexoid_gate *g)
{
	if (!g)
		return;
	pthread_mutex_lock(&g->lock);
	__atomic_store_n(&g->cancelled, 1, __ATOMIC_RELEASE);
	for (size_t i = 0; i < g->npids; i++)
		kill(g->pids[i], SIGKILL);
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/*
 * git's environment: this process's, replacement objects off (they would hide the
 * stored ones from rev-list and cat-file), GIT_FLUSH=0 (rev-list and log otherwise
 * flush their output after each commit when it is a pipe: a write(2) per commit, where
 * the gate reads them all to the end anyway), and with a git_dir what receive-pack sets for
 * a hook: the repository, the quarantine as the objects folder with the repository's
 * own objects and the other alternates behind it. 0, or -1 when memory ran out.
 */
int hexoid_gate_env(struct hexoid_gate *g)
{
	size_t n = 0, i;
	char *alt = NULL, *objects = NULL;

	if (!(g->env_set = calloc(7, sizeof(*g->env_set))) ||
	    !(g->env_set[n++] = strdup("GIT_NO_REPLACE_OBJECTS=1")) ||
	    !(g->env_set[n++] = strdup("GIT_FLUSH=0")))
		goto oom;
	if (g->git_dir) {
		if (!(objects = hexoid_join(g->git_dir, "objects")) ||
		    !(g->env_set[n++] = hexoid_concat("GIT_DIR=", g->git_dir)) ||
		    !(g->env_set[n++] = hexoid_concat("GIT_OBJECT_DIRECTORY=",
						      g->quarantine ? g->quarantine : objects)))
			goto oom;
		if (g->quarantine && !(g->env_set[n++] = hexoid_concat("GIT_QUARANTINE_PATH=", g->quarantine)))
			goto oom;
		if (!(alt = strdup(g->quarantine ? objects : "")))
			goto oom;
		for (i = 0; g->alternates && g->alternates[i]; i++) {
			char *more = hexoid_concat3(alt, *alt ? ":" : "", g->alternates[i]);
			free(alt);
			if (!(alt = more))
				goto oom;
		}
		if (!(g->env_set[n++] = hexoid_concat("GIT_ALTERNATE_OBJECT_DIRECTORIES=", alt)))
			goto oom;
	}
	free(alt);
	free(objects);
	if (!(g->env = hexoid_child_env((const char *const *)g->env_set)))
		return -1;
	return 0;
oom:
	free(alt);
	free(objects);
	return -1;
}

/* Start git (argv[0] is replaced by the gate's git), registered for a cancel to kill. */
pid_t hexoid_gate_spawn(struct hexoid_gate *g, char *argv[], int *to, int *from)
{
	pid_t pid = -1;
	int err = ECANCELED;

	argv[0] = g->git;
	pthread_mutex_lock(&g->lock);
	if (g->npids == g->cappids) {
		size_t cap = g->cappids ? 2 * g->cappids : 4;
		pid_t *v = realloc(g->pids, cap * sizeof(*v));
		if (!v) {
			err = ENOMEM;
			goto out;
		}
		g->pids = v;
		g->cappids = cap;
	}
	if (!g->cancelled) {
		pid = hexoid_child_spawn(argv, g->env, to, from);
		err = errno;
		if (pid > 0)
			g->pids[g->npids++] = pid;
	}
out:
	pthread_mutex_unlock(&g->lock);
	errno = err;
	return pid;
}

/* Wait for pid: its exit status, or -1 (reported as `what`) if it died of a signal. */
int hexoid_gate_reap(struct hexoid_gate *g, pid_t pid, const char *what)
{
	int rc, sig;

	/* Ended but not reaped, its pid cannot be reused: only then forget it. */
	hexoid_child_wait_ended(pid);
	pthread_mutex_lock(&g->lock);
	for (size_t i = 0; i < g->npids; i++)
		if (g->pids[i] == pid) {
			g->pids[i] = g->pids[--g->npids];
			break;
		}
	pthread_mutex_unlock(&g->lock);
	rc = hexoid_child_wait(pid, &sig);
	if (rc < 0 && !sig)
		hexoid_gate_say(g, "%s: %s", what, strerror(errno));
	else if (rc < 0)
		hexoid_gate_say(g, "%s: killed by signal %d", what, sig);
	return rc;
}

/* --- the time limit ------------------------------------------------------------------ */

static void *timer(void *p)
{
	struct hexoid_gate *g = p;
	struct timespec at;

	clock_gettime(CLOCK_MONOTONIC, &at);
	at.tv_sec += (time_t)(g->opt.time_limit_ms / 1000);
	at.tv_nsec += (long)(g->opt.time_limit_ms % 1000) * 1000000L;
	if (at.tv_nsec >= 1000000000L) {
		at.tv_sec++;
		at.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&g->lock);
	while (!g->finished && !g->cancelled)
		if (pthread_cond_timedwait(&g->cond, &g->lock, &at) == ETIMEDOUT) {
			if (!g->finished && !g->cancelled)
				g->timed_out = 1;
			break;
		}
	pthread_mutex_unlock(&g->lock);
	if (g->timed_out)
		hexoid_gate_cancel(g);
	return NULL;
}

/* 1 when a timer runs in *thread, 0 when there is no limit, -1 when it cannot start. */
int hexoid_gate_timer_start(struct hexoid_gate *g, pthread_t *thread)
{
	if (!g->opt.time_limit_ms)
		return 0;
	return pthread_create(thread, NULL, timer, g) ? -1 : 1;
}

void hexoid_gate_timer_stop(struct hexoid_gate *g, pthread_t thread)
{
	pthread_mutex_lock(&g->lock);
	g->finished = 1;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
	pthread_join(thread, NULL);
}

/* --- feeding a git's stdin from a thread --------------------------------------------- */

/*
 * The refs' tips (new values), each once and in the order of the refs, then their
 * exclusions (^old), each once, as git's receive-pack gives its connectivity check
 * each value once (an oidset). 100,000 refs moved from one commit to another are two
 * lines, not 200,000 for rev-list to parse, look up and queue. The order of the tips is
 * kept: git log --source names each commit by the first tip given that reaches it. The
 * exclusions go in the order of their values. 0, or -1 when memory ran out or a write
 * failed.
 */
static int feed_refs(struct gate_feeder *f)
{
	struct hexoid_gate *g = f->g;
	struct hexoid_oidset tips = HEXOID_OIDSET_INIT, olds = HEXOID_OIDSET_INIT;
	unsigned char oid[HEXOID_MAX_RAWSZ], *given = NULL;
	char hex[HEXOID_MAX_HEXSZ + 2];
	size_t i, k;
	int failed = 0;

	/* hexoid_gate_add_update() took each value as lowercase hex of the gate's hash. */
	for (i = 0; i < f->nrefs && !failed; i++) {
		const struct gate_update *u = &g->u[f->refs[i]];
		hexoid_decode(oid, u->new, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL);
		failed = hexoid_oidset_add(&tips, oid, g->rawsz);
		if (!failed && !hexoid_gate_is_zero(g, u->old)) {
			hexoid_decode(oid, u->old, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL);
			failed = hexoid_oidset_add(&olds, oid, g->rawsz);
		}
	}
	hexoid_oidset_sort(&tips);
	hexoid_oidset_sort(&olds);
	/* given[k]: tip k is written already, by an earlier ref. */
	if (!failed && !(given = calloc(tips.n ? tips.n : 1, 1)))
		failed = 1;
	for (i = 0; i < f->nrefs && !failed; i++) {
		const char *tip = g->u[f->refs[i]].new;
		hexoid_decode(oid, tip, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL);
		k = hexoid_oidset_find(&tips, oid, g->rawsz);
		if (!given[k]) {
			given[k] = 1;
			failed = fprintf(f->to, "%s\n", tip) < 0;
		}
	}
	hex[0] = '^';
	for (i = 0; i < olds.n && !failed; i++) {
		hexoid_encode(hex + 1, g->hexsz, hexoid_oidset_at(&olds, i), 1, g->algo);
		hex[g->hexsz + 1] = '\n';
		failed = fwrite(hex, 1, g->hexsz + 2, f->to) != g->hexsz + 2;
	}
	free(given);
	hexoid_oidset_free(&tips);
	hexoid_oidset_free(&olds);
	return failed ? -1 : 0;
}

static void *feed(void *p)
{
	struct gate_feeder *f = p;
	struct hexoid_gate *g = f->g;
	char hex[HEXOID_MAX_HEXSZ + 2];
	sigset_t pipe_set;

	/* A git that ends early is an EPIPE here, not a SIGPIPE for the process; one this
	 * thread is sent goes with it. */
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);
	if (f->ids)
		for (size_t i = 0; i < f->ids->n && !f->failed; i++) {
			hexoid_encode(hex, g->hexsz, hexoid_oidset_at(f->ids, i), 1, g->algo);
			hex[g->hexsz] = '\n';
			f->failed = fwrite(hex, 1, g->hexsz + 1, f->to) != g->hexsz + 1;
		}
	if (f->nrefs && !f->failed)
		f->failed = feed_refs(f);
	f->failed |= fclose(f->to) != 0;
	return NULL;
}

/* Run git (argv) with a thread feeding its stdin from f; *out reads its stdout. Returns
 * the child, or -1 (said, and the gate in trouble) when git cannot be run. */
pid_t hexoid_gate_start_fed(struct hexoid_gate *g, char **argv, struct gate_feeder *f, FILE **out)
{
	int to, from;
	pid_t pid = hexoid_gate_spawn(g, argv, &to, &from);

	if (pid < 0) {
		hexoid_gate_say(g, "cannot run git %s: %s", argv[1], strerror(errno));
		g->trouble = 1;
		return -1;
	}
	f->to = fdopen(to, "w");
	*out = fdopen(from, "r");
	if (!f->to || !*out) {
		hexoid_gate_oom(g);
		f->to ? fclose(f->to) : close(to);
		*out ? fclose(*out) : close(from);
		hexoid_gate_reap(g, pid, argv[1]);
		return -1;
	}
	if (pthread_create(&f->thread, NULL, feed, f)) {
		hexoid_gate_say(g, "cannot start a thread");
		g->trouble = 1;
		fclose(f->to);
		fclose(*out);
		hexoid_gate_reap(g, pid, argv[1]);
		return -1;
	}
	return pid;
}

/* Close what hexoid_gate_start_fed() opened and wait for both: git's exit status (-1 for
 * a signal, said as `what`), or -1 when the feeding failed. */
int hexoid_gate_end_fed(struct hexoid_gate *g, pid_t pid, struct gate_feeder *f, FILE *out,
			const char *what)
{
	int rc;

	fclose(out);
	pthread_join(f->thread, NULL);
	rc = hexoid_gate_reap(g, pid, what);
	return f->failed ? -1 : rc;
}
