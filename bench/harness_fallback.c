/*
 * bench/harness.h without Google Benchmark: for hosts where libbenchmark is not
 * installable, chiefly the AArch64 cross build run under qemu. A plain timing loop on
 * CLOCK_MONOTONIC (CLOCK_REALTIME can jump) that grows the iteration count until one
 * batch lasts --benchmark_min_time, like Google Benchmark does. It takes the subset of
 * Google Benchmark's options that the Makefile and bench/report.sh use, and writes the
 * same JSON fields, so the report script reads either.
 * SPDX-License-Identifier: MIT
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"

struct bench_state {
	double min_time;     /* seconds one batch must last to be reported */
	uint64_t target;     /* iterations in the current batch */
	uint64_t done;       /* iterations of the current batch done so far */
	int started, skipped, finished;
	struct timespec t0, c0;
	double real_ns, cpu_ns; /* of the final batch */
	uint64_t items, bytes;  /* per iteration */
	char reason[256], label[256];
};

struct bench_case {
	char *name;
	bench_fn *fn;
	const void *arg;
};

static struct bench_case *cases;
static size_t ncases, cases_cap;

struct context {
	char *key, *value;
};
static struct context *contexts;
static size_t ncontexts;

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		perror("hexoid-bench");
		exit(2);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t len = strlen(s) + 1;
	return memcpy(xrealloc(NULL, len), s, len);
}

void bench_register(const char *name, bench_fn *fn, const void *arg)
{
	if (ncases == cases_cap) {
		cases_cap = cases_cap ? 2 * cases_cap : 256;
		cases = xrealloc(cases, cases_cap * sizeof(*cases));
	}
	cases[ncases++] = (struct bench_case){ xstrdup(name), fn, arg };
}

void bench_add_context(const char *key, const char *value)
{
	contexts = xrealloc(contexts, (ncontexts + 1) * sizeof(*contexts));
	contexts[ncontexts++] = (struct context){ xstrdup(key), xstrdup(value) };
}

static double since_ns(clockid_t clock, const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return (double)(t.tv_sec - t0->tv_sec) * 1e9 + (double)(t.tv_nsec - t0->tv_nsec);
}

static void start_batch(bench_state *st)
{
	st->done = 0;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &st->c0);
	clock_gettime(CLOCK_MONOTONIC, &st->t0);
}

int bench_keep_running(bench_state *st)
{
	if (st->skipped || st->finished)
		return 0;
	if (!st->started) {
		st->started = 1;
		st->target = 1;
		start_batch(st);
		return 1;
	}
	if (++st->done < st->target)
		return 1;
	/* The clocks are read only at the end of a batch, not per iteration. */
	double real = since_ns(CLOCK_MONOTONIC, &st->t0);
	double cpu = since_ns(CLOCK_THREAD_CPUTIME_ID, &st->c0);
	double want = st->min_time * 1e9;
	if (real >= want || st->target >= (uint64_t)1 << 40) {
		st->real_ns = real;
		st->cpu_ns = cpu;
		st->finished = 1;
		return 0;
	}
	/* Aim 40% past the minimum so the next batch is very likely the last. */
	double mult = real > want / 10 ? want * 1.4 / real : 10;
	if (mult < 2)
		mult = 2;
	st->target = (uint64_t)((double)st->target * mult);
	start_batch(st);
	return 1;
}

void bench_set_processed(bench_state *st, uint64_t items_per_iter, uint64_t bytes_per_iter)
{
	st->items = items_per_iter;
	st->bytes = bytes_per_iter;
}

void bench_skip_with_error(bench_state *st, const char *reason)
{
	st->skipped = 1;
	snprintf(st->reason, sizeof(st->reason), "%s", reason);
}

void bench_set_label(bench_state *st, const char *label)
{
	snprintf(st->label, sizeof(st->label), "%s", label);
}

void bench_escape(const void *p)
{
#if defined(__GNUC__)
	__asm__ volatile("" : : "r"(p) : "memory");
#else
	static const void *volatile sink;
	sink = p;
#endif
}

const char *bench_harness_name(void)
{
	return "fallback";
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* One result in Google Benchmark's JSON layout: one field per line. */
static void json_result(FILE *f, const char *name, const bench_state *st, int first)
{
	fprintf(f, "%s    {\n      \"name\": ", first ? "" : ",\n");
	json_string(f, name);
	fprintf(f, ",\n      \"run_name\": ");
	json_string(f, name);
	fprintf(f, ",\n      \"run_type\": \"iteration\",\n");
	if (st->skipped) {
		fprintf(f, "      \"error_occurred\": true,\n      \"error_message\": ");
		json_string(f, st->reason);
		fprintf(f, ",\n");
	}
	double iters = (double)(st->finished ? st->target : 0);
	fprintf(f, "      \"iterations\": %.0f,\n", iters);
	fprintf(f, "      \"real_time\": %.6e,\n", iters ? st->real_ns / iters : 0);
	fprintf(f, "      \"cpu_time\": %.6e,\n", iters ? st->cpu_ns / iters : 0);
	fprintf(f, "      \"time_unit\": \"ns\"");
	if (!st->skipped && st->cpu_ns > 0) {
		fprintf(f, ",\n      \"bytes_per_second\": %.6e",
			(double)st->bytes * iters / st->cpu_ns * 1e9);
		fprintf(f, ",\n      \"items_per_second\": %.6e",
			(double)st->items * iters / st->cpu_ns * 1e9);
	}
	if (st->label[0]) {
		fprintf(f, ",\n      \"label\": ");
		json_string(f, st->label);
	}
	fprintf(f, "\n    }");
}

static void console_result(const char *name, const bench_state *st)
{
	if (st->skipped) {
		printf("%-52s ERROR OCCURRED: '%s'\n", name, st->reason);
		return;
	}
	double iters = (double)st->target;
	double ns = st->cpu_ns / iters;
	printf("%-52s %12.1f ns %10.0f  items/s=%.4gM bytes/s=%.4gG %s\n", name, ns, iters,
	       st->cpu_ns > 0 ? (double)st->items * iters / st->cpu_ns * 1e3 : 0,
	       st->cpu_ns > 0 ? (double)st->bytes * iters / st->cpu_ns : 0, st->label);
	fflush(stdout);
}

static const char *option(const char *arg, const char *name)
{
	size_t len = strlen(name);
	if (strncmp(arg, name, len))
		return NULL;
	if (arg[len] == '=')
		return arg + len + 1;
	return arg[len] ? NULL : "true";
}

int bench_run(int argc, char **argv)
{
	const char *filter = ".", *format = "console", *out = NULL, *v;
	double min_time = 0.5;
	int list = 0, repetitions = 1;
	for (int i = 1; i < argc; i++) {
		if ((v = option(argv[i], "--benchmark_filter")))
			filter = v;
		else if ((v = option(argv[i], "--benchmark_min_time")))
			min_time = atof(v); /* "0.1" or "0.1s": atof stops at the 's' */
		else if ((v = option(argv[i], "--benchmark_list_tests")))
			list = !strcmp(v, "true") || !strcmp(v, "1");
		else if ((v = option(argv[i], "--benchmark_format")))
			format = v;
		else if ((v = option(argv[i], "--benchmark_out")))
			out = v;
		else if ((v = option(argv[i], "--benchmark_out_format"))) {
			if (strcmp(v, "json")) {
				fprintf(stderr, "hexoid-bench: fallback harness writes only json\n");
				return 2;
			}
		} else if ((v = option(argv[i], "--benchmark_repetitions")))
			repetitions = atoi(v) > 0 ? atoi(v) : 1;
		else if (!strncmp(argv[i], "--benchmark_", 12))
			fprintf(stderr, "hexoid-bench: fallback harness ignores %s\n", argv[i]);
		else {
			fprintf(stderr, "hexoid-bench: unrecognized argument '%s'\n", argv[i]);
			return 2;
		}
	}
	/* Google Benchmark's convention: a leading '-' negates the filter. */
	int negate = filter[0] == '-';
	regex_t re;
	if (regcomp(&re, filter + negate, REG_EXTENDED | REG_NOSUB)) {
		fprintf(stderr, "hexoid-bench: bad filter '%s'\n", filter);
		return 2;
	}
	FILE *json = NULL;
	if (out && !(json = fopen(out, "w"))) {
		perror(out);
		return 2;
	}
	if (!strcmp(format, "json"))
		json = json ? json : stdout; /* json to stdout only when no file takes it */
	if (json) {
		char date[64];
		time_t now = time(NULL);
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
		fprintf(json, "{\n  \"context\": {\n    \"date\": \"%s\"", date);
		for (size_t i = 0; i < ncontexts; i++) {
			fprintf(json, ",\n    ");
			json_string(json, contexts[i].key);
			fprintf(json, ": ");
			json_string(json, contexts[i].value);
		}
		fprintf(json, "\n  },\n  \"benchmarks\": [\n");
	}
	int first = 1;
	for (size_t i = 0; i < ncases; i++) {
		int match = regexec(&re, cases[i].name, 0, NULL, 0) == 0;
		if (match == negate)
			continue;
		if (list) {
			printf("%s\n", cases[i].name);
			continue;
		}
		for (int r = 0; r < repetitions; r++) {
			bench_state st = { .min_time = min_time };
			cases[i].fn(&st, cases[i].arg);
			if (json != stdout)
				console_result(cases[i].name, &st);
			if (json) {
				json_result(json, cases[i].name, &st, first);
				first = 0;
			}
		}
	}
	if (json) {
		fprintf(json, "\n  ]\n}\n");
		if (json != stdout)
			fclose(json);
	}
	regfree(&re);
	return 0;
}
