# Benchmarks: included from the top-level Makefile (`include bench/bench.mk`), or used
# before that as `make -f Makefile -f bench/bench.mk bench`.
#
#   make bench [ARGS='--benchmark_filter=avx2 --benchmark_format=json ...']
#                      build $(BUILD)/bench/hexoid-bench and run it with ARGS
#   make bench-report  a fixed, few-minute subset; writes bench/results/<cpu>.{json,md,svg}
#   make bench-aarch64 cross-build for AArch64 and smoke-run it under qemu-aarch64
#                      (emulated figures mean nothing: they are never written to results)
#   make bench-arm-model  cycles per ID on Neoverse N1 and V1 from llvm-mca's models
#                      (ARM_CPUS='neoverse-n1 neoverse-v1' by default)
#   make bench-x86-model  the AVX2 and AVX-512 loops on Intel's and Zen 4's models
#                      (X86_CPUS='sapphirerapids icelake-server znver4')
#   make bench-peers   hexoid beside libgit2, faster-hex and hex-simd in one process, from
#                      ../shared/tools/peers when it is there (QUICK=1, GITDIR=repo.git,
#                      PEERS_CPU=n, PEERS_WORK=dir; see bench/peers.sh)
#   make bench-crossover [QUICK=1]  every kernel and the automatic choice on lines from
#                      L2 to DRAM (16M lines; QUICK: to 4M)
#   make bench-show-index GITDIR='a.git b.git'  hexoid show-index beside git show-index
#                      on each pack, and on the same pack indexed as version 1
#   make bench-all     every speed figure of the README in one command: bench-report, the
#                      peers, the models, and with GITDIR show-index and verify beside git
#                      and wc -l; each part that cannot run says why (see bench/all.sh)
#
# The cases are C (bench/*.c) over a C interface (bench/harness.h) to Google Benchmark
# (bench/harness.cc). Where libbenchmark cannot be linked for the target, the AArch64
# cross build for one, bench/harness_fallback.c stands in: a CLOCK_MONOTONIC loop taking
# the same options. libgit2 is a baseline when it links for the target, skipped otherwise.
# BENCH_HARNESS=fallback forces the fallback; NODEPS=1 skips the Debian package check.

# Read at most once, however the Makefile and the command line combine.
ifndef HEXOID_BENCH_MK
HEXOID_BENCH_MK := 1

# The makefiles read so far, for the cross build's sub-make (.d files excepted).
BENCH_MAKEFILES := $(filter-out %.d,$(MAKEFILE_LIST))

BENCH_BIN    := $(BUILD)/bench/hexoid-bench
BENCH_CONFIG := $(BUILD)/bench/config
BENCH_C_SRC  := bench/main.c bench/cases.c bench/cases_listing.c bench/inputs.c \
                bench/baselines.c
BENCH_C_OBJ  := $(BENCH_C_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_H_OBJ  := $(BUILD)/obj/bench/harness.o
BENCH_HARNESS ?= auto
CXX          ?= g++
BENCH_CXXFLAGS ?= -O2 -g
ARGS         ?=

BENCH_DEPS_STAMP := $(BUILD)/.deps-bench
ifeq ($(NODEPS),1)
BENCH_DEPS_STAMP :=
endif

# A '#' for the probes: written as \# inside $(shell ...), make 4.3 keeps the backslash.
bench_hash := \#
# Probes, run only by the recipes that need them, after the packages are in place, and
# each at most once per make: `VAR = $(eval VAR := value)$(VAR)` caches the first value.
bench_gbench_probe = $(shell printf '$(bench_hash)include <benchmark/benchmark.h>\nint main(int c, char **v) { benchmark::Initialize(&c, v); }\n' | \
	$(CXX) -x c++ - -o /dev/null -lbenchmark -pthread >/dev/null 2>&1 && echo y)
bench_git2_probe = $(shell pkg-config --exists libgit2 2>/dev/null && \
	printf '$(bench_hash)include <git2.h>\nint main(void) { return git_libgit2_init() < 0; }\n' | \
	$(CC) -x c - -o /dev/null $$(pkg-config --cflags --libs libgit2) >/dev/null 2>&1 && echo y)
BENCH_HAVE_GBENCH = $(eval BENCH_HAVE_GBENCH := $(if $(filter fallback,$(BENCH_HARNESS)),,$(bench_gbench_probe)))$(BENCH_HAVE_GBENCH)
BENCH_HAVE_GIT2 = $(eval BENCH_HAVE_GIT2 := $(bench_git2_probe))$(BENCH_HAVE_GIT2)
BENCH_GIT2_CFLAGS = $(if $(BENCH_HAVE_GIT2),-DHEXOID_BENCH_LIBGIT2 $(shell pkg-config --cflags libgit2))
BENCH_LIBS = $(if $(BENCH_HAVE_GBENCH),-lbenchmark) \
             $(if $(BENCH_HAVE_GIT2),$(shell pkg-config --libs libgit2))

.PHONY: bench bench-build bench-report bench-aarch64 bench-arm-model bench-x86-model bench-deps bench-config-check bench-crossover \
        bench-peers bench-show-index bench-all

$(BUILD)/.deps-bench:
	@sh scripts/deps.sh bench
	@mkdir -p $(@D) && touch $@
bench-deps:
	@sh scripts/deps.sh bench

# What the probes found, rewritten only when it changes, so that installing libgit2 or
# libbenchmark later rebuilds what depends on it and nothing else.
$(BENCH_CONFIG): bench-config-check
	@mkdir -p $(@D)
	@printf 'harness=%s\nlibgit2=%s\ncc=%s\ncxx=%s\n' \
		'$(if $(BENCH_HAVE_GBENCH),google-benchmark,fallback)' \
		'$(if $(BENCH_HAVE_GIT2),yes,no)' '$(CC)' '$(CXX)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; cat $@; fi
bench-config-check: | $(BENCH_DEPS_STAMP) $(DEPS_STAMP)

$(BUILD)/obj/bench/%.o: bench/%.c $(BENCH_CONFIG)
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(CFLAGS) $(BENCH_GIT2_CFLAGS) -c $< -o $@

# One object either way: harness.cc over Google Benchmark, or the C fallback.
$(BENCH_H_OBJ): bench/harness.cc bench/harness_fallback.c bench/harness.h $(BENCH_CONFIG)
	@mkdir -p $(@D)
	$(if $(BENCH_HAVE_GBENCH),$(CXX) -std=c++17 \
		$(filter-out -Wstrict-prototypes -Wmissing-prototypes,$(WARN)) $(BENCH_CXXFLAGS) \
		-MMD -MP -c bench/harness.cc, \
		$(CC) $(BASEFLAGS) $(CFLAGS) -c bench/harness_fallback.c) -o $@

# Linked with the static library, so it runs from the build tree as it is.
$(BENCH_BIN): $(BENCH_C_OBJ) $(BENCH_H_OBJ) $(STATIC)
	$(if $(BENCH_HAVE_GBENCH),$(CXX),$(CC)) $(CFLAGS) $(LDFLAGS) -o $@ \
		$(BENCH_C_OBJ) $(BENCH_H_OBJ) $(STATIC) $(BENCH_LIBS) -pthread

bench-build: $(BENCH_BIN)

bench: $(BENCH_BIN)
	$(RUN) $(BENCH_BIN) $(ARGS)

# Real hardware only: under an emulator the figures would be published as if measured.
bench-report: $(BENCH_BIN)
	@if [ -n "$(RUN)" ]; then \
		echo "bench-report: not under RUN='$(RUN)': emulated figures are not real" >&2; \
		exit 2; fi
	sh bench/report.sh $(BENCH_BIN) bench/results $(ARGS)

# A quick smoke run under qemu: a handful of small cases, the minimum time per case.
BENCH_SMOKE_ARGS := '--benchmark_filter=^(latency/sha1/lower|(decode|validate)/sha(1/stride=41|256/stride=65)/lower/n=1K|encode/sha1/stride=41/n=1K)/' \
                    --benchmark_min_time=0.01
AARCH64_CXX := aarch64-linux-gnu-g++
BENCH_AARCH64_BUILD ?= build-aarch64
bench-aarch64:
	@sh scripts/deps.sh aarch64
	$(MAKE) $(addprefix -f ,$(BENCH_MAKEFILES)) BUILD=$(BENCH_AARCH64_BUILD) CC=$(AARCH64_CC) \
		CXX=$(AARCH64_CXX) RUN="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
		ARGS="$(if $(ARGS),$(ARGS),$(BENCH_SMOKE_ARGS))" bench
	@echo "bench-aarch64: a smoke run under qemu: these figures are not real, do not publish them"

# Arm, modelled: llvm-mca's Neoverse models on the NEON kernel's loop, the scalar
# kernel's and git's, cross-compiled (no Arm machine here; qemu timings mean nothing).
# And the Intel side of the x86 kernels: the AVX2 and VBMI loops on Intel's models.
bench-arm-model:
	@sh scripts/deps.sh model
	sh bench/arm_model.sh $(ARM_CPUS)

bench-x86-model:
	@sh scripts/deps.sh model
	sh bench/x86_model.sh $(X86_CPUS)

# The peers harness (../shared/tools/peers, read-only: built and run from outside it),
# pinned to one CPU. Absent: says so and succeeds.
PEERS      ?= ../shared/tools/peers
PEERS_WORK ?= $(BUILD)/peers
bench-peers:
	@PEERS='$(PEERS)' WORK='$(PEERS_WORK)' QUICK='$(QUICK)' GITDIR='$(GITDIR)' \
		$(if $(PEERS_CPU),CPU='$(PEERS_CPU)') sh bench/peers.sh

# Every kernel and the automatic choice from L2 to DRAM, on lines: where dispatch switches
# kernels by the size of a call, and whether that follows the fastest (bench/crossover.c).
CROSSOVER := $(BUILD)/bench/hexoid-crossover
$(CROSSOVER): bench/crossover.c $(STATIC)
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(CFLAGS) -Iinclude $< $(STATIC) -o $@ $(LDFLAGS) -pthread
bench-crossover: $(CROSSOVER)
	@for a in '' --validate --sha256; do $(RUN) $(CROSSOVER) $$a $(if $(QUICK),--quick) || exit 1; done

bench-show-index: $(HEXOID)
	@if [ -z '$(GITDIR)' ]; then echo "bench-show-index: GITDIR='a.git b.git' names the repositories" >&2; exit 2; fi
	HEXOID=$(HEXOID) WORK=$(BUILD)/show-index sh bench/show_index_speed.sh $(GITDIR)

# Each part runs through this make again (bench-report, bench-peers, ...).
bench-all:
	@MAKE='$(MAKE)' BUILD='$(BUILD)' QUICK='$(QUICK)' GITDIR='$(GITDIR)' RUN='$(RUN)' \
		$(if $(PARTS),PARTS='$(PARTS)') sh bench/all.sh

endif # HEXOID_BENCH_MK
