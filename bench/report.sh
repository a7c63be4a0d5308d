#!/bin/sh
# Run the fixed report subset of hexoid-bench and write, for this CPU,
#   OUTDIR/<cpu>.json  the results (Google Benchmark's JSON)
#   OUTDIR/<cpu>.md    ratios: each kernel vs git's loop and vs memchr/memcpy, one run
#   OUTDIR/<cpu>.svg   throughput per kernel and size (gnuplot; skipped without it)
# where <cpu> is a slug of /proc/cpuinfo's model name.
#
# Usage: sh bench/report.sh BENCH-BINARY OUTDIR [more --benchmark_* options]
# The subset: single-ID latency, and decode, validate-only and encode of lines (stride
# hexsz+1, the common listing shape) at every size, both kinds: ~600 cases, a few
# minutes on 2 cores.
set -eu
bin=${1:?usage: report.sh BENCH-BINARY OUTDIR [options]}
outdir=${2:?usage: report.sh BENCH-BINARY OUTDIR [options]}
shift 2
here=$(dirname "$0")

model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
[ -n "$model" ] || model=$(uname -m)
# "Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz" -> intel-core-i7-8650u; "AMD EPYC" -> amd-epyc
slug=$(printf '%s\n' "$model" | tr 'A-Z' 'a-z' |
	sed -e 's/([a-z]*)//g' -e 's/ @ .*//' -e 's/ cpu$//' -e 's/ [0-9]*-core processor$//' \
	    -e 's/[^a-z0-9][^a-z0-9]*/-/g' -e 's/^-//' -e 's/-$//')

filter='^(latency/|(decode|validate|encode)/sha(1/stride=41|256/stride=65)/)'
mkdir -p "$outdir"
json=$outdir/$slug.json
"$bin" --benchmark_filter="$filter" --benchmark_min_time=0.1 \
	--benchmark_out="$json.tmp" --benchmark_out_format=json "$@"
mv "$json.tmp" "$json"

awk -f "$here/report.awk" -v mode=md "$json" >"$outdir/$slug.md"
echo "report.sh: wrote $json and $outdir/$slug.md"

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "report.sh: gnuplot not found (Debian gnuplot-nox): no chart" >&2
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -f "$here/report.awk" -v mode=plot -v dir="$tmp" -v svg="$outdir/$slug.svg" "$json"
gnuplot "$tmp/plot.gp"
echo "report.sh: wrote $outdir/$slug.svg"
