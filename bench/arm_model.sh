#!/bin/sh
# Cycles per object ID on Arm cores, from llvm-mca's scheduling models: there is no Arm
# machine here, and timings under qemu mean nothing. The two NEON kernels (neon and
# neonwide), the scalar kernel and git's table loop are compiled for AArch64 with the
# cross compiler, the steady-state loop of each is cut out of the assembly
# (bench/loops.awk), and llvm-mca runs it 1000 times on each core's model. Decode of
# SHA-1 lines, output stored, both kinds. Each core's row also names the kernel the
# dispatcher picks on it (src/cpu.c: neonwide on Neoverse V1, from MIDR_EL1; neon
# elsewhere) and compares that one with git's loop.
#   usage: sh bench/arm_model.sh [CPU...]      (default: neoverse-n1 neoverse-v1)
#   env: AARCH64_CC (aarch64-linux-gnu-gcc), MCA (llvm-mca-19)
# A model is not a measurement: it knows the core's pipes, latencies and dispatch width,
# not its caches, branch predictor or memory. Quote it as a model.
set -eu
CC=${AARCH64_CC:-aarch64-linux-gnu-gcc}
MCA=${MCA:-llvm-mca-19}
CPUS=${*:-neoverse-n1 neoverse-v1}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cflags="-std=c11 -O2 -D_DEFAULT_SOURCE -I$ROOT/include -I$ROOT/src -I$ROOT/bench"

# The flags the Makefile builds each file with for AArch64 (the scalar kernel: -O3).
$CC $cflags -S "$ROOT/src/neon/decode.c" -o "$tmp/neon.s"
$CC $cflags -O3 -S "$ROOT/src/scalar/decode.c" -o "$tmp/scalar.s"
$CC $cflags -S "$ROOT/bench/baselines.c" -o "$tmp/git.s"

# take NAME FILE FUNCTION SELECT: the loop of FUNCTION in $tmp/FILE.s whose "loop N: ..." summary line
# the awk condition SELECT (on $3 instructions, $5 lookups, $7 stores, $9 orr), the smallest if
# several do, into $tmp/NAME.s. Fails if none does.
take() {
	pick=$(awk -v FN="$3" -v PICK=0 -f "$HERE/loops.awk" "$tmp/$2.s" |
		sed 's/[:,]//g' | awk "$4 { print \$3, \$2 }" | sort -n | head -1)
	if [ -z "$pick" ]; then
		echo "arm_model.sh: no loop of $3 matches '$4'" >&2
		exit 1
	fi
	awk -v FN="$3" -v PICK="${pick#* }" -v OUT="$tmp/loop-$1.s" -f "$HERE/loops.awk" \
		"$tmp/$2.s" >/dev/null
}

# What one pass of each loop decodes, from the code's structure (checked by SELECT):
# a record of SHA-1 lines is 2.5 vectors of 16 digits; neon goes four records a pass
# (10 vectors) with two TBX per vector (20 lookups; its mixed-case instance ORs the case
# fold into each vector, 10 more ORs), neonwide eight records a pass (20 vectors) with
# one TBL per vector (20 lookups, and no ORs at all; its two kinds differ only in the
# table, so their loops are the same instructions and one stands for both). The scalar kernel does one record a pass (five 4-byte stores; the
# smallest such loop is its lowercase-only instance); git's loop one pair of digits
# (twenty passes an ID, plus a call that the model leaves out).
take neon neon "hexoid_neon_decode" '$5 == 20 && $7 > 0 && $9 >= 10'
take neon_lower neon "hexoid_neon_decode" '$5 == 20 && $7 > 0 && $9 < 10'
take wide neon "hexoid_neonwide_decode" '$5 == 20 && $7 > 0 && $9 == 0'
take scalar scalar "hexoid_scalar_decode" '$5 == 0 && $7 == 5'
take git git "gitloop_decode_one" '$5 == 0'

cycles() { # cycles LOOP CPU: total cycles of 1000 passes
	"$MCA" -mtriple=aarch64 -mcpu="$2" -iterations=1000 "$tmp/loop-$1.s" 2>/dev/null |
		awk '/^Total Cycles:/ { print $3 }'
}

mca_version=$("$MCA" --version | awk '/LLVM version/ { for (i = 1; i < NF; i++) if ($i == "version") print $(i + 1) }')
printf '| cycles per SHA-1 ID (llvm-mca %s model) | git loop | scalar | neon, mixed | neon, lowercase-only | neonwide, either kind | picked | picked vs git: mixed, lowercase-only |\n' "$mca_version"
printf '|---|---:|---:|---:|---:|---:|---|---:|\n'
for cpu in $CPUS; do
	case $cpu in
	neoverse-v1) picked=neonwide ;;
	*) picked=neon ;;
	esac
	awk -v cpu="$cpu" -v g="$(cycles git "$cpu")" -v s="$(cycles scalar "$cpu")" \
		-v m="$(cycles neon "$cpu")" -v l="$(cycles neon_lower "$cpu")" \
		-v w="$(cycles wide "$cpu")" -v picked="$picked" 'BEGIN {
		g = g / 1000 * 20; s = s / 1000; m = m / 1000 / 4; l = l / 1000 / 4; w = w / 1000 / 8
		pm = picked == "neonwide" ? w : m; pl = picked == "neonwide" ? w : l
		printf "| %s | %.1f | %.1f | %.2f | %.2f | %.2f | %s | %.2fx, %.2fx |\n", cpu, g, s, m, l, w, picked, g / pm, g / pl
	}'
done
