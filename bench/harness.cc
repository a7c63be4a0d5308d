// The C interface of bench/harness.h over Google Benchmark: nothing but forwarding, so
// that every case is C code calling the public API, as a user of the library would.
// SPDX-License-Identifier: MIT
#include "harness.h"

#include <benchmark/benchmark.h>

#include <string>

struct bench_state {
	benchmark::State &s;
};

extern "C" void bench_register(const char *name, bench_fn *fn, const void *arg)
{
	// The lambda owns nothing: fn and arg are static in the cases.
	benchmark::RegisterBenchmark(name, [fn, arg](benchmark::State &s) {
		bench_state st{ s };
		fn(&st, arg);
	})->Unit(benchmark::kNanosecond);
}

extern "C" int bench_keep_running(bench_state *st)
{
	return st->s.KeepRunning();
}

extern "C" void bench_set_processed(bench_state *st, uint64_t items_per_iter,
				    uint64_t bytes_per_iter)
{
	auto iters = static_cast<int64_t>(st->s.iterations());
	st->s.SetItemsProcessed(static_cast<int64_t>(items_per_iter) * iters);
	st->s.SetBytesProcessed(static_cast<int64_t>(bytes_per_iter) * iters);
}

extern "C" void bench_skip_with_error(bench_state *st, const char *reason)
{
	st->s.SkipWithError(reason);
}

extern "C" void bench_set_label(bench_state *st, const char *label)
{
	st->s.SetLabel(label);
}

extern "C" void bench_escape(const void *p)
{
	benchmark::DoNotOptimize(p);
	benchmark::ClobberMemory();
}

extern "C" void bench_add_context(const char *key, const char *value)
{
	benchmark::AddCustomContext(key, value);
}

extern "C" int bench_run(int argc, char **argv)
{
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 2;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}

extern "C" const char *bench_harness_name(void)
{
	return "google-benchmark";
}
