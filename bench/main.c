/*
 * hexoid-bench: every kernel against git's loop, libgit2 and the memory limits.
 * Takes Google Benchmark's options, e.g. --benchmark_filter=avx2 --benchmark_format=json.
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "baselines.h"
#include "cases.h"
#include "harness.h"
#include "hexoid.h"

/* The CPU model as /proc/cpuinfo names it (x86; AArch64 Linux has no such line). */
static void cpu_model(char *buf, size_t size)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");
	snprintf(buf, size, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!strncmp(line, "model name", 10) && colon) {
			colon += 1 + (colon[1] == ' ');
			colon[strcspn(colon, "\n")] = 0;
			snprintf(buf, size, "%s", colon);
			break;
		}
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	char text[512];
	const char *names[16];
	size_t count = hexoid_kernels(names, 16);

	gitloop_init();
	cpu_model(text, sizeof(text));
	bench_add_context("cpu_model", text);
	bench_add_context("hexoid_version", hexoid_version());
	bench_add_context("hexoid_cpu_features", hexoid_cpu_features());
	text[0] = 0;
	for (size_t i = 0; i < count && i < 16; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s", i ? " " : "",
			 names[i]);
	bench_add_context("hexoid_kernels", text);
	bench_add_context("libgit2", libgit2_version());
	bench_add_context("harness", bench_harness_name());

	register_latency_cases();
	register_bulk_cases();
	register_listing_cases();
	return bench_run(argc, argv);
}
