#!/bin/sh
# Make sure the Debian packages a make target needs are here.
# Usage: scripts/deps.sh GROUP...   (core, demo, aarch64, bench, model, fuzz)
# As root, missing packages are installed with apt-get; otherwise the exact command to
# run is printed and the script fails, so make stops before a confusing compiler error.
set -u

missing=""
need() { # need PACKAGE TEST...: PACKAGE is missing when the test command fails
	pkg=$1; shift
	"$@" >/dev/null 2>&1 || missing="$missing $pkg"
}
has() { command -v "$1"; }
hdr() { test -f "/usr/include/$1"; }

for group in "$@"; do
	case $group in
	core)
		need libsimde-dev hdr simde/x86/avx2.h
		need git has git
		need pkg-config has pkg-config
		need time test -x /usr/bin/time # the tests measure peak memory with it
		need zlib1g-dev hdr zlib.h       # packs: inflate (streams, diagnostics)
		need libdeflate-dev hdr libdeflate.h # packs: inflate, crc32
		need libssl-dev hdr openssl/evp.h # packs: SHA-1 and SHA-256 (libcrypto)
		need golang-go has go             # the Go package's tests (bindings/go)
		need xz-utils has xz              # unpacks the Git 3.0 build the tests take as their oracle
		need python3 has python3          # the tests read the JSON output with it
		need procps has ps                # the tests look for processes a killed hook left
		;;
	demo)
		need git has git
		;;
	aarch64)
		need gcc-aarch64-linux-gnu has aarch64-linux-gnu-gcc
		need libc6-dev-arm64-cross test -f /usr/aarch64-linux-gnu/lib/libc.a
		need qemu-user has qemu-aarch64
		# The pack module's libraries for the target, from Debian's arm64 archive.
		need zlib1g-dev:arm64 test -f /usr/lib/aarch64-linux-gnu/libz.so
		need libdeflate-dev:arm64 test -f /usr/lib/aarch64-linux-gnu/libdeflate.so
		need libssl-dev:arm64 test -f /usr/lib/aarch64-linux-gnu/libcrypto.so
		;;
	bench)
		need g++ has g++
		need libbenchmark-dev hdr benchmark/benchmark.h
		need gnuplot-nox has gnuplot
		;;
	model)
		# llvm-mca with Neoverse N1/V1 scheduling models (Debian 12's llvm-14 maps them
		# to Cortex-A57), and the AArch64 cross compiler for the code it reads.
		need llvm-19 has llvm-mca-19
		need gcc-aarch64-linux-gnu has aarch64-linux-gnu-gcc
		need libc6-dev-arm64-cross test -f /usr/aarch64-linux-gnu/include/stdint.h
		;;
	fuzz)
		need clang has clang
		need libclang-rt-dev sh -c 'ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a'
		;;
	*)
		echo "deps.sh: unknown group '$group'" >&2
		exit 2
		;;
	esac
done

[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "hexoid: missing Debian packages:$missing" >&2
	echo "hexoid: install them with: sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "hexoid: installing Debian packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# Packages of another architecture need it added to dpkg first.
case $missing in
*:arm64*) dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64 ;;
esac
# A fresh machine may have no package lists yet: update once, then install.
apt-get update -qq >/dev/null &&
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	{ echo "hexoid: apt-get install$missing failed" >&2; exit 1; }
