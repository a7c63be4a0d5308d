#!/bin/sh
# Every speed figure of the README's "Benchmarks" in one command (`make bench-all`):
#   report      make bench-report: bench/results/<cpu>.{json,md,svg}; with QUICK=1 a short
#               run (--benchmark_min_time=0.01) into BUILD/bench-quick, never bench/results
#   peers       make bench-peers: hexoid beside libgit2, faster-hex and hex-simd, in one
#               process (../shared/tools/peers); with GITDIR, one round of its run.sh
#               (show-index and verify beside git show-index and wc -l) on the first one
#   show-index  bench/show_index_speed.sh on each GITDIR: hexoid show-index beside git
#               show-index on each pack index, and on the same pack indexed as version 1
#   verify      bench/verify_speed.sh on the first GITDIR: hexoid verify beside wc -l,
#               every listing format (QUICK=1: oids, batch-check and show-index only)
#   arm-model, x86-model   make bench-arm-model, bench-x86-model (llvm-mca 19)
# A part that cannot run says "skipped:" and why; one that fails does not stop the
# others. The last lines list every part; the status is 1 when one failed.
# Environment: MAKE, BUILD (default build), QUICK=1, GITDIR (git dirs with packs,
# separated by spaces; a SHA-256 repository gives the SHA-256 figures), RUN (set: an
# emulator, so nothing is timed), PARTS (default: all of the above, in that order).
set -u
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
QUICK=${QUICK:-}
GITDIR=${GITDIR:-}
PARTS=${PARTS:-report peers show-index verify arm-model x86-model}
summary=""
failed=0

note() { summary="$summary
  $1"; }
# part NAME COMMAND...: run one part, note how it went
part() {
	name=$1
	shift
	echo
	echo "== bench-all: $name"
	out=$BUILD/bench-all/$name.out
	mkdir -p "$BUILD/bench-all"
	"$@" 2>&1 | tee "$out"
	rc=$(cat "$BUILD/bench-all/rc")
	if [ "$rc" != 0 ]; then
		note "$name: FAILED (status $rc; output in $out)"
		failed=1
	elif grep -q '^[a-z-]*: skipped:' "$out"; then
		note "$name: $(grep -m 1 -o 'skipped:.*' "$out")"
	else
		note "$name: done"
	fi
}
# run COMMAND...: run it, keep its status for `part` (a pipeline loses it)
run() { "$@"; echo $? >"$BUILD/bench-all/rc"; }
skip() { echo "$1: skipped: $2"; echo 0 >"$BUILD/bench-all/rc"; }

first_gitdir=""
packs=""
for gd in $GITDIR; do
	[ -n "$first_gitdir" ] || first_gitdir=$gd
	ls "$gd"/objects/pack/*.idx >/dev/null 2>&1 && packs="$packs $gd"
done
have_hyperfine() { command -v hyperfine >/dev/null 2>&1; }

mkdir -p "$BUILD/bench-all"
for p in $PARTS; do
	case $p in
	report)
		if [ -n "${RUN:-}" ]; then
			part report skip report "RUN='$RUN' is an emulator: its figures are not real"
		elif [ "$QUICK" = 1 ]; then
			part report run sh -c "$MAKE bench-build && sh bench/report.sh $BUILD/bench/hexoid-bench \
				$BUILD/bench-quick --benchmark_min_time=0.01"
		else
			part report run $MAKE bench-report
		fi
		;;
	peers)
		part peers run $MAKE bench-peers QUICK="$QUICK" GITDIR="$first_gitdir"
		;;
	show-index)
		if [ -z "$packs" ]; then
			part show-index skip show-index "no GITDIR with objects/pack/*.idx given (GITDIR=repo.git)"
		elif ! have_hyperfine; then
			part show-index skip show-index "hyperfine not installed (apt-get install hyperfine)"
		else
			part show-index run sh -c "$MAKE all >/dev/null && HEXOID=$BUILD/hexoid \
				WORK=$BUILD/show-index sh bench/show_index_speed.sh $packs"
		fi
		;;
	verify)
		if [ -z "$first_gitdir" ]; then
			part verify skip verify "no GITDIR given (GITDIR=repo.git)"
		elif ! have_hyperfine; then
			part verify skip verify "hyperfine not installed (apt-get install hyperfine)"
		else
			listings=""
			[ "$QUICK" = 1 ] && listings="oids batch-check show-index"
			# verify_speed.sh makes its listings (about 1 GB) in a temporary directory
			# and removes them when it is done.
			part verify run sh -c "$MAKE all >/dev/null && HEXOID=$BUILD/hexoid \
				sh bench/verify_speed.sh $first_gitdir $listings"
		fi
		;;
	arm-model | x86-model)
		if ! sh scripts/deps.sh model >/dev/null 2>&1; then
			part "$p" skip "$p" "llvm-19 and the AArch64 cross compiler are not installed (sh scripts/deps.sh model, as root)"
		else
			part "$p" run $MAKE "bench-$p"
		fi
		;;
	*)
		echo "bench-all: unknown part '$p'" >&2
		exit 2
		;;
	esac
done
echo
echo "== bench-all:$summary"
exit $failed
