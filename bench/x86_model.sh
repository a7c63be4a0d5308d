#!/bin/sh
# Cycles per object ID of the AVX2 and AVX-512 (VBMI) loops for SHA-1 lines (41-byte
# stride, output stored), from llvm-mca's scheduling models of Intel and AMD cores: the
# Intel side of a Zen 4 machine's measurements. Each loop is compiled with the flags the
# Makefile gives its folder, cut out of the assembly (bench/loops.awk) and run 1000 times.
#   usage: sh bench/x86_model.sh [CPU...]  (default: sapphirerapids icelake-server znver4)
#   env: CC (cc), MCA (llvm-mca-19)
# A model, not a measurement: ports, latencies and widths, no caches (a 64-byte load or
# store that crosses a cache line costs more on Intel than the model says).
set -eu
CC=${CC:-cc}
MCA=${MCA:-llvm-mca-19}
CPUS=${*:-sapphirerapids icelake-server znver4}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cflags="-std=c11 -O2 -D_DEFAULT_SOURCE -I$ROOT/include -I$ROOT/src"
$CC $cflags -mavx2 -S "$ROOT/src/avx2/decode.c" -o "$tmp/avx2.s"
$CC $cflags -mavx512f -mavx512bw -mavx512vl -mbmi2 -mavx512vbmi -S \
	"$ROOT/src/avx512/decode_vbmi.c" -o "$tmp/vbmi.s"

# take NAME FILE FUNCTION MARK: the smallest loop of FUNCTION holding a line that matches
# MARK (the output pointer's step: 80 bytes = 4 records for AVX2, 60 = 3 for VBMI).
take() {
	pick=$(awk -v ISA=x86 -v MARK="$4" -v FN="$3" -v PICK=0 -f "$HERE/loops.awk" "$tmp/$2.s" |
		sed 's/[:,]//g' | awk '$11 > 0 { print $3, $2 }' | sort -n | head -1)
	if [ -z "$pick" ]; then
		echo "x86_model.sh: no loop of $3 holds '$4'" >&2
		exit 1
	fi
	awk -v ISA=x86 -v FN="$3" -v PICK="${pick#* }" -v OUT="$tmp/loop-$1.s" \
		-f "$HERE/loops.awk" "$tmp/$2.s" >/dev/null
}
take avx2 avx2 hexoid_avx2_decode '\\$80, '
take vbmi vbmi hexoid_avx512vbmi_decode '\\$60, '

cycles() { # cycles LOOP CPU: total cycles of 1000 passes
	"$MCA" -mcpu="$2" -iterations=1000 "$tmp/loop-$1.s" 2>/dev/null |
		awk '/^Total Cycles:/ { print $3 }'
}

mca_version=$("$MCA" --version | awk '/LLVM version/ { for (i = 1; i < NF; i++) if ($i == "version") print $(i + 1) }')
printf '| cycles per SHA-1 line (llvm-mca %s model) | avx2 | avx512 (VBMI) | avx512 vs avx2 |\n' "$mca_version"
printf '|---|---:|---:|---:|\n'
for cpu in $CPUS; do
	awk -v cpu="$cpu" -v a="$(cycles avx2 "$cpu")" -v v="$(cycles vbmi "$cpu")" 'BEGIN {
		a = a / 1000 / 4; v = v / 1000 / 3
		printf "| %s | %.2f | %.2f | %.2fx |\n", cpu, a, v, a / v
	}'
done
