# hexoid — build, test, install.
#
#   make                  library (static + shared) and the hexoid command, in build/
#   make check            all tests (installs missing Debian packages when run as root);
#                         T=NAME runs the C tests and shell suites whose names hold NAME
#   make check-go         the Go package (bindings/go): go test, shared and static
#   make bench-go         the Go package's benchmarks beside encoding/hex (and without cgo)
#   make demo             verify this repository's and a fresh SHA-256 repository's listings
#   make check-sanitize   the C tests and the command's suites under -fsanitize=address,undefined
#                         (check-sanitize-all: every shell suite too)
#   make check-tsan       the threading tests under -fsanitize=thread
#   make fuzz-smoke       build the libFuzzer targets (clang), run each FUZZ_SECONDS
#   make check-aarch64    cross-build for AArch64, run the C tests and the command's option and
#                         format suites under qemu-aarch64
#   make bench            the benchmarks (ARGS='--benchmark_filter=...'); see bench/bench.mk
#   make bench-report     a fixed set; writes bench/results/<cpu>.{json,md,svg}
#   make bench-all        every speed figure of the README in one command (QUICK=1,
#                         GITDIR='repo.git ...'); bench-peers, bench-show-index: bench/bench.mk
#   make install PREFIX=/usr/local DESTDIR=
#
# Each ISA folder src/<isa>/ is compiled with its own -m flags and nothing else is, so no
# AVX2 instruction can run before dispatch has checked the CPU. NODEPS=1 skips the
# Debian package check.

.DEFAULT_GOAL := all

VERSION    := 0.1.0
SOVERSION  := 0
CC         ?= cc
CFLAGS     ?= -O2 -g
LDFLAGS    ?=
BUILD      ?= build
PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR     ?= $(PREFIX)/bin
# A command prefix to run built programs (e.g. qemu-aarch64 for a cross build).
RUN        ?=

WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
BASEFLAGS = -std=c11 -D_DEFAULT_SOURCE -Iinclude -Isrc $(WARN) -MMD -MP
LIBFLAGS  = -fPIC -fvisibility=hidden -DHEXOID_BUILDING

ARCH := $(shell $(CC) -dumpmachine 2>/dev/null | cut -d- -f1)

# ISA folders for this architecture, and the flags each is compiled with.
ifeq ($(ARCH),x86_64)
ISAS := sse avx2 avx512
else ifeq ($(ARCH),aarch64)
ISAS := neon
endif
FLAGS_sse    := -mssse3 -msse4.1
FLAGS_avx2   := -mavx2
FLAGS_avx512 := -mavx512f -mavx512bw -mavx512vl -mbmi2
FLAGS_neon   :=
# The SWAR scalar kernel gains 5-10% from -O3 (GCC unrolls and interleaves its words).
FLAGS_scalar := -O3
VBMI_FLAGS   := -mavx512vbmi

# A folder is built when it has sources and the compiler takes its flags.
probe = $(shell echo 'int main(void){return 0;}' | $(CC) $(1) -x c -c - -o /dev/null 2>/dev/null && echo y)
has_src = $(wildcard src/$(1)/*.c)
NATIVE_ISAS := $(foreach i,$(ISAS),$(if $(call has_src,$(i)),$(if $(call probe,$(FLAGS_$(i)) $(if $(filter avx512,$(i)),$(VBMI_FLAGS))),$(i))))
# Every folder with sources is also built portably through SIMDe for the tests.
EMU_ISAS := $(foreach i,sse avx2 avx512 neon,$(if $(call has_src,$(i)),$(i)))

upper = $(shell echo $(1) | tr a-z A-Z)
HAVE_DEFS := $(foreach i,$(NATIVE_ISAS),-DHEXOID_HAVE_$(call upper,$(i)))
EMU_DEFS  := $(foreach i,$(EMU_ISAS),-DHEXOID_EMU_HAVE_$(call upper,$(i)))

# Flags for one source file: its folder's, plus VBMI for *_vbmi.c.
isaflags = $(FLAGS_$(word 2,$(subst /, ,$(1)))) $(if $(filter %_vbmi.c,$(1)),$(VBMI_FLAGS))

LIB_SRC := src/hexoid.c src/codes.c src/dispatch.c src/cpu.c $(wildcard src/scalar/*.c) $(wildcard src/formats/*.c) \
           $(wildcard src/formats/listing/*.c) $(wildcard src/pack/*.c) $(wildcard src/audit/*.c) \
           $(wildcard src/util/*.c) $(wildcard src/gate/*.c) $(wildcard src/repair/*.c) \
           $(foreach i,$(NATIVE_ISAS),$(wildcard src/$(i)/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
EMU_OBJ := $(foreach i,$(EMU_ISAS),$(patsubst %.c,$(BUILD)/emu/%.o,$(wildcard src/$(i)/*.c)))
CLI_SRC := $(wildcard cli/*.c)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(wildcard tests/*.c)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)

# The public headers: every include/hexoid*.h is installed.
HEADERS := $(sort $(wildcard include/hexoid*.h))

STATIC := $(BUILD)/libhexoid.a
SONAME := libhexoid.so.$(SOVERSION)
SHARED := $(BUILD)/libhexoid.so.$(VERSION)
HEXOID := $(BUILD)/hexoid
TESTRUN := $(BUILD)/tests/run
THREADS := -pthread
# The pack module inflates with libdeflate (zlib for streams and diagnostics) and hashes
# with OpenSSL's libcrypto.
LIBS := -ldeflate -lz -lcrypto $(THREADS)
# The command opens libcrypto at its first hash instead (cli/crypto.c; src/pack/crypto.h
# says why), so it does not link it. It links libdeflate and zlib statically where the
# compiler finds their archives (Debian's -dev packages have them): two shared libraries
# fewer to map and relocate at every start, a tenth of what a run on an empty listing
# costs. CLI_STATIC_DEPS=0 links them shared (a distribution that patches zlib in place).
CLI_STATIC_DEPS ?= 1
ifeq ($(CLI_STATIC_DEPS),1)
CLI_ARCHIVES := $(shell a=$$($(CC) -print-file-name=libdeflate.a); \
	z=$$($(CC) -print-file-name=libz.a); [ -f "$$a" ] && [ -f "$$z" ] && echo "$$a $$z")
endif
CLI_LIBS := $(or $(CLI_ARCHIVES),-ldeflate -lz) -ldl $(THREADS)

DEPS_STAMP := $(BUILD)/.deps-core
ifeq ($(NODEPS),1)
DEPS_STAMP :=
endif

# Objects depend on the build's configuration, so changing CC, CFLAGS or the set of
# kernels rebuilds what it affects.
CONFIG := $(CC) | $(CFLAGS) | $(HAVE_DEFS) | $(EMU_DEFS)
$(BUILD)/.config: FORCE
	@mkdir -p $(@D)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(CONFIG)' ]; then echo '$(CONFIG)' > $@; fi
FORCE:

.PHONY: FORCE all check check-go bench-go check-sanitize check-sanitize-all check-tsan check-live fuzz fuzz-targets fuzz-smoke check-aarch64 demo install uninstall clean deps
all: $(STATIC) $(SHARED) $(HEXOID)

# Debian packages: installed when run as root, otherwise the exact command is printed.
$(BUILD)/.deps-core:
	@sh scripts/deps.sh core
	@mkdir -p $(@D) && touch $@
deps:
	@sh scripts/deps.sh core

$(BUILD)/obj/%.o: %.c $(BUILD)/.config | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(LIBFLAGS) $(HAVE_DEFS) $(CFLAGS) $(call isaflags,$<) -c $< -o $@

# Portable builds of the SIMD kernels, for the tests only. GCC notes that SIMDe passes
# vectors by value without the ISA's ABI (-Wpsabi): true, and harmless inside one file.
EMU_WARN := $(if $(findstring clang,$(CC)),,-Wno-psabi)
$(BUILD)/emu/%.o: %.c $(BUILD)/.config | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) -DHEXOID_EMULATED -DSIMDE_NO_NATIVE $(EMU_WARN) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/tests/%.o: tests/%.c $(BUILD)/.config | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(EMU_DEFS) $(HAVE_DEFS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/cli/%.o: cli/%.c $(BUILD)/.config | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(CFLAGS) -c $< -o $@

$(STATIC): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(SHARED): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,$(SONAME) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)
	ln -sf libhexoid.so.$(VERSION) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/libhexoid.so

# The command links the static library: it runs from the build tree as it is.
$(HEXOID): $(CLI_OBJ) $(STATIC)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CLI_LIBS)

$(TESTRUN): $(TEST_OBJ) $(EMU_OBJ) $(STATIC)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# The shell suites the runner takes after the C tests, one a line.
SHELL_TESTS := \
	tests/cli.sh \
	tests/formats.sh \
	tests/git_listings.sh \
	tests/show_index.sh \
	tests/check_listing.sh \
	tests/audit.sh \
	tests/audit_places.sh \
	tests/verify_pack.sh \
	tests/limits.sh \
	tests/push.sh \
	tests/hook.sh \
	tests/repair.sh \
	tests/forge.sh \
	tests/codes.sh \
	tests/hostile.sh \
	tests/live.sh \
	tests/go.sh \
	tests/install.sh

# The slow lanes run every C test and, of the shell suites, the ones that reach code
# nothing else there does. Under the sanitizers: the command's own files (cli/), the
# hook and pushes through it, many repositories, git writing beside the audit, and the
# hostile inputs; the listing, index, pack, audit, gate and repair code those suites
# also reach is run by the C tests and the fuzz targets under the same sanitizers.
# Under qemu, the arch-specific code (the kernels, dispatch, threads) is in the C tests;
# of the shell suites, those of the command's options, formats and limits.
# In two parts, which CI runs in its two lanes (.ci/run): the second after the other
# lane's make check.
SANITIZE_SHELL_TESTS_1 := tests/cli.sh tests/formats.sh tests/check_listing.sh tests/limits.sh \
	tests/codes.sh tests/forge.sh tests/hostile.sh tests/live.sh
SANITIZE_SHELL_TESTS_2 := tests/hook.sh
SANITIZE_SHELL_TESTS := $(SANITIZE_SHELL_TESTS_1) $(SANITIZE_SHELL_TESTS_2)
AARCH64_SHELL_TESTS := tests/cli.sh tests/formats.sh tests/check_listing.sh tests/limits.sh \
	tests/codes.sh

check: all $(TESTRUN)
	HEXOID="$(RUN) $(CURDIR)/$(HEXOID)" MAKE="$(MAKE)" BUILD="$(BUILD)" CC="$(CC)" \
	CFLAGS="$(CFLAGS)" LDFLAGS="$(LDFLAGS)" RUN="$(RUN)" \
		$(RUN) $(TESTRUN) $(if $(T),--only '$(T)') $(SHELL_TESTS)

# The Go package against this build: a hexoid.pc naming the source's headers and the
# build's libraries, then go test linked with the shared library (found at run time
# through LD_LIBRARY_PATH), a test of each family again statically (-tags hexoid_static), the calls that
# run C threads beside Go's (GO_RACE_TESTS) under -race when the toolchain has the race
# detector, and built and tested without cgo (CGO_ENABLED=0: the pure-Go package, the
# same tests where they do not need the library). No module is fetched: the package
# needs nothing outside Go's standard library.
GO ?= go
GO_TEST_FLAGS ?=
# What runs under -race (when the toolchain has the race detector): the push check, the
# audit, the repair's cancellation, and their examples, all of which run C threads.
# One go test -race: a toolchain without the race detector says so on go's first line
# ("-race is not supported on ...", "-race requires cgo"), and the run is skipped.
GO_RACE_TESTS ?= CheckPush|Audit|Cancel|Stops|Nil|OpenErrors
# What runs again linked statically: a test of each family of C calls and the examples
# (the shared run has run them all; this one proves the static link).
GO_STATIC_TESTS ?= Example|TestDecodeID|TestDecodeRoundTrip|TestEncodeID|TestListing$$|TestAudit$$|TestCheckPushDirect|TestRepair$$|TestCodes
GO_ENV = PKG_CONFIG_PATH=$(CURDIR)/$(BUILD)/pkgconfig GOPROXY=off GOFLAGS=-mod=mod \
	GOCACHE=$(CURDIR)/$(BUILD)/go-cache LD_LIBRARY_PATH=$(CURDIR)/$(BUILD) CC="$(CC)"
$(BUILD)/pkgconfig/hexoid.pc: hexoid.pc.in $(BUILD)/.config
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(CURDIR)|' -e 's|@LIBDIR@|$(CURDIR)/$(BUILD)|' \
	    -e 's|@INCLUDEDIR@|$(CURDIR)/include|' -e 's|@VERSION@|$(VERSION)|' hexoid.pc.in > $@
check-go: $(STATIC) $(SHARED) $(BUILD)/pkgconfig/hexoid.pc
	@echo '# go test (shared)'
	cd bindings/go && $(GO_ENV) $(GO) test -count=1 $(GO_TEST_FLAGS) ./...
	@echo '# go test (static)'
	cd bindings/go && $(GO_ENV) $(GO) test -count=1 -tags hexoid_static -run '$(GO_STATIC_TESTS)' $(GO_TEST_FLAGS) ./...
	@cd bindings/go && if $(GO_ENV) $(GO) test -count=1 -race -run '$(GO_RACE_TESTS)' $(GO_TEST_FLAGS) . \
		>$(CURDIR)/$(BUILD)/go-race.log 2>&1; then \
		echo '# go test (race)'; cat $(CURDIR)/$(BUILD)/go-race.log; \
	elif head -1 $(CURDIR)/$(BUILD)/go-race.log | grep -Eq '^(go: )?-race (is not supported|requires cgo)'; then \
		echo "# go test (race) skipped: $$(head -1 $(CURDIR)/$(BUILD)/go-race.log)"; \
	else \
		echo '# go test (race)'; cat $(CURDIR)/$(BUILD)/go-race.log; exit 1; \
	fi
	@echo '# go test (purego)'
	cd bindings/go && $(GO_ENV) CGO_ENABLED=0 $(GO) build ./... && \
		$(GO_ENV) CGO_ENABLED=0 $(GO) test -count=1 $(GO_TEST_FLAGS) ./...
	cd bindings/go && $(GO_ENV) $(GO) vet ./... && $(GO_ENV) CGO_ENABLED=0 $(GO) vet ./... && \
		{ ! command -v gofmt >/dev/null || test -z "$$(gofmt -l .)" || { gofmt -l .; exit 1; }; }
	@echo '# go vet and gofmt: clean, with cgo and without'

# The Go package's benchmarks beside encoding/hex, against this build.
bench-go: $(STATIC) $(SHARED) $(BUILD)/pkgconfig/hexoid.pc
	cd bindings/go && $(GO_ENV) $(GO) test -run '^$$' -bench . $(GO_BENCH_FLAGS) .
	@echo '# built without cgo (CGO_ENABLED=0): the bulk decode in Go'
	cd bindings/go && $(GO_ENV) CGO_ENABLED=0 $(GO) test -run '^$$' -bench 'Decode64K/hexoid' $(GO_BENCH_FLAGS) .

SAN := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
check-sanitize:
	$(MAKE) BUILD=build-sanitize CFLAGS="$(SAN)" LDFLAGS="$(SAN)" \
		SHELL_TESTS="$(SANITIZE_SHELL_TESTS)" check
# Every shell suite under the sanitizers (what check-sanitize leaves to the C tests too).
check-sanitize-all:
	$(MAKE) BUILD=build-sanitize CFLAGS="$(SAN)" LDFLAGS="$(SAN)" check

# Many threads making their first call at once, others forcing kernels meanwhile; and
# packs checked with several threads; the audit's and the push gate's threads. The native kernels only: the portable builds add
# nothing a thread could race on, and most of the build's time.
TSAN := -O1 -g -fsanitize=thread
# The live suite for longer than make check gives it: LIVE_SECONDS a scenario (eight
# with the Git 3.0 build beside the source, four without), the table of counts at the end.
LIVE_SECONDS ?= 120
check-live: all
	HEXOID="$(RUN) $(CURDIR)/$(HEXOID)" HEXOID_LIVE_SECONDS=$(LIVE_SECONDS) sh tests/live.sh

check-tsan:
	$(MAKE) BUILD=build-tsan CFLAGS="$(TSAN)" LDFLAGS="$(TSAN)" EMU_ISAS= build-tsan/tests/run
	build-tsan/tests/run --only threads
	build-tsan/tests/run --only pack_jobs
	build-tsan/tests/run --only audit_api
	build-tsan/tests/run --only gate_

# libFuzzer targets (clang): every kernel against scalar, the listing checker, the pack,
# index and object readers, and the audit's reftable reader.
FUZZ_TARGETS := kernels listing idx pack loose object reftable
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_SECONDS ?= 30
fuzz:
	@sh scripts/deps.sh fuzz
	$(MAKE) BUILD=build-fuzz CC=clang CFLAGS="$(FUZZ_FLAGS)" fuzz-targets
fuzz-targets: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)
$(BUILD)/fuzz/%: fuzz/%.c $(STATIC) $(EMU_OBJ)
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(EMU_DEFS) $(CFLAGS) -fsanitize=fuzzer $(filter %.c %.a %.o,$^) -o $@ $(LIBS)
# Each target for FUZZ_SECONDS from seeds made by the installed git, and the inputs that
# once failed (fuzz/regress/TARGET), run again first.
fuzz-smoke: fuzz
	rm -rf build-fuzz/seeds && sh fuzz/seeds.sh build-fuzz/seeds
	for t in $(FUZZ_TARGETS); do \
		mkdir -p build-fuzz/corpus/$$t && \
		build-fuzz/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -print_final_stats=1 \
			build-fuzz/corpus/$$t build-fuzz/seeds/$$t $$(ls -d fuzz/regress/$$t 2>/dev/null) \
			> build-fuzz/$$t.log 2>&1; \
		status=$$?; \
		grep -E 'stat::(number_of_executed_units|average_exec_per_sec)|ERROR|SUMMARY|differ' build-fuzz/$$t.log | sed "s/^/$$t: /"; \
		if [ $$status != 0 ]; then tail -n 30 build-fuzz/$$t.log; exit 1; fi; \
	done

AARCH64_CC := aarch64-linux-gnu-gcc
# The cross toolchain's C library first, then Debian's arm64 zlib and libcrypto. The
# order matters: installing those brings Debian's arm64 libc too, and the loader would
# otherwise find it through the host's ld.so.cache, a libc that does not match the cross
# loader (threads then hang under qemu).
AARCH64_LIBS := /usr/aarch64-linux-gnu/lib:/usr/lib/aarch64-linux-gnu
check-aarch64:
	@sh scripts/deps.sh aarch64
	$(MAKE) BUILD=build-aarch64 CC=$(AARCH64_CC) EMU_ISAS= \
		RUN="qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=$(AARCH64_LIBS)" \
		SHELL_TESTS="$(AARCH64_SHELL_TESTS)" check

demo: all
	@sh scripts/deps.sh demo
	@sh scripts/demo.sh $(HEXOID)

# hexoid.pc is written at install time: it must name the PREFIX of this install.
install: all
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(BINDIR)
	install -m 644 $(HEADERS) $(DESTDIR)$(INCLUDEDIR)/
	install -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED) $(DESTDIR)$(LIBDIR)/
	ln -sf libhexoid.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libhexoid.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    hexoid.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/hexoid.pc
	install -m 755 $(HEXOID) $(DESTDIR)$(BINDIR)/

uninstall:
	rm -f $(HEADERS:include/%=$(DESTDIR)$(INCLUDEDIR)/%) \
	      $(DESTDIR)$(LIBDIR)/libhexoid.* \
	      $(DESTDIR)$(LIBDIR)/pkgconfig/hexoid.pc $(DESTDIR)$(BINDIR)/hexoid

clean:
	rm -rf build build-sanitize build-tsan build-aarch64 build-fuzz

include bench/bench.mk

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
