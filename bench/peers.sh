#!/bin/sh
# hexoid beside git's loop, libgit2, faster-hex and hex-simd in one process: builds and
# runs the peers harness of ../shared/tools/peers (see its README) on this checkout.
#
# Usage: sh bench/peers.sh        (from the project root; `make bench-peers` runs it)
# Environment:
#   PEERS   the peers folder (default ../shared/tools/peers); absent: "skipped", exit 0
#   WORK    where it builds and keeps results (default build/peers; made absolute)
#   CPU     the CPU peers-bench is pinned to with taskset (default: the last one)
#   QUICK=1 fewer repeats and shorter batches (peers-bench --quick), no 16M cases
#   BIG=0   no 16M cases (c4, c4v) without QUICK
#   GITDIR  a git dir with a pack: also the peers' whole-process part (show-index and
#           verify beside git show-index and wc -l, hyperfine), one round of its run.sh
#
# The peers' build.sh clones the hexoid source it is given and builds it. It is given a
# bare repository in WORK whose one branch is this checkout: HEAD, plus the uncommitted
# changes to tracked files when there are any (`git stash create`, which touches neither
# the work tree nor any ref). Untracked files are not in it. The harness is rebuilt only
# when that tree or the peers folder changes.
# Results: WORK/results/<stamp>/bench.txt (the table) and bench.tsv (one line a figure).
set -eu
PEERS=${PEERS:-../shared/tools/peers}
if ! [ -f "$PEERS/build.sh" ] || ! [ -f "$PEERS/harness.c" ]; then
	echo "bench-peers: skipped: $PEERS not found"
	exit 0
fi
PEERS=$(cd "$PEERS" && pwd)
WORK=${WORK:-build/peers}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
CPU=${CPU:-$((ncpu - 1))}
command -v taskset >/dev/null || { echo "bench-peers: needs taskset (util-linux)" >&2; exit 2; }

# The source to build: HEAD, or HEAD with the work tree's changes to tracked files.
rev=$(git stash create 2>/dev/null || true)
[ -n "$rev" ] || rev=$(git rev-parse HEAD)
tree=$(git rev-parse "$rev^{tree}")
if [ "$rev" = "$(git rev-parse HEAD)" ]; then
	what="HEAD $(git rev-parse --short HEAD)"
else
	what="HEAD $(git rev-parse --short HEAD) + uncommitted changes to tracked files"
fi
stamp="$tree $(cat "$PEERS/build.sh" "$PEERS/harness.c" | cksum)"
if ! [ -x "$WORK/bin/peers-bench" ] || [ "$(cat "$WORK/built" 2>/dev/null)" != "$stamp" ]; then
	echo "bench-peers: building hexoid ($what) and the peers harness in $WORK"
	rm -rf "$WORK/src.git" "$WORK/built"
	git init -q --bare "$WORK/src.git"
	git push -q "$WORK/src.git" "$rev:refs/heads/peers"
	git --git-dir="$WORK/src.git" symbolic-ref HEAD refs/heads/peers
	# Not this make's variables (BUILD=..., -j) in the clone's own make.
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		WORK="$WORK" HEXOID_SRC="$WORK/src.git" sh "$PEERS/build.sh"
	echo "$stamp" >"$WORK/built"
else
	echo "bench-peers: hexoid ($what) and the harness are built in $WORK"
fi

# Where each peers case is in hexoid-bench (`make bench`, `make bench-report`), which
# labels the same rows with the same ids.
legend() {
	cat <<'EOF'

The same cases in hexoid-bench (make bench-report labels these rows c1, c1s, ...):
  c1   decode/sha1/stride=41/lower/n=64K      c3   decode/sha256/stride=65/lower/n=64K
  c1s  decode/sha1/stride=41/lower/n=8K       c5   encode/sha1/stride=41/n=64K
  c2m  decode/sha1/stride=41/mixed/n=64K      c4   decode/sha1/stride=41/lower/n=16M
  c2v  validate/sha1/stride=41/lower/n=64K    c4v  validate/sha1/stride=41/lower/n=16M
  c2vm validate/sha1/stride=41/mixed/n=64K
Rows "(per ID)" and "n=1 per ID" call once per ID over the case's lines; hexoid-bench's
nearest are decode/.../n=1 (one ID per call over 512 lines) and latency/ (calls chained).
EOF
}

args=""
[ "${QUICK:-0}" = 1 ] && args="--quick --no-big"
[ "${BIG:-1}" = 0 ] && args="$args --no-big"
if [ -n "${GITDIR:-}" ]; then
	if ! ls "$GITDIR"/objects/pack/*.idx >/dev/null 2>&1; then
		echo "bench-peers: GITDIR=$GITDIR has no objects/pack/*.idx" >&2
		exit 2
	fi
	# run.sh keeps one listing in WORK: made again when GITDIR changes.
	gd=$(cd "$GITDIR" && pwd)
	[ "$(cat "$WORK/listing.gitdir" 2>/dev/null)" = "$gd" ] || rm -f "$WORK/listing.txt"
	echo "$gd" >"$WORK/listing.gitdir"
	echo "bench-peers: one round of the peers' run.sh on CPU $CPU, whole process on $gd"
	# run.sh takes QUICK=1 itself, and runs the 16M cases unless QUICK (no --no-big).
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		WORK="$WORK" CPU="$CPU" GITDIR="$gd" sh "$PEERS/run.sh" 1 0 >"$WORK/run.out"
	r=$(sed -n 's/^round 1 done: \([^ ]*\).*/\1/p' "$WORK/run.out" | tail -n 1)
	cat "$r/bench.txt"
	legend
	if [ -f "$r/bench.tsv" ]; then
		echo
		echo "The speed targets, each a ratio of two rows of this run:"
		awk -v AUTO="$(sed -n 's/.*best kernel \([^ ,]*\).*/\1/p' "$r/bench.txt" | head -n 1)" \
			-f bench/peers_targets.awk "$r/bench.tsv"
	fi
	echo
	sed -n '/^\[whole process\]/,$p' "$WORK/run.out"
	echo
	echo "bench-peers: results in $r, summary ${r%-r1}-summary.txt"
	exit 0
fi
R=$WORK/results/$(date +%Y%m%d-%H%M%S)
mkdir -p "$R"
echo "bench-peers: taskset -c $CPU peers-bench --tsv $R/bench.tsv $args"
# shellcheck disable=SC2086
taskset -c "$CPU" "$WORK/bin/peers-bench" --tsv "$R/bench.tsv" $args | tee "$R/bench.txt"
legend
echo
echo "The speed targets, each a ratio of two rows of this run:"
awk -v AUTO="$(sed -n 's/.*best kernel \([^ ,]*\).*/\1/p' "$R/bench.txt" | head -n 1)" \
	-f bench/peers_targets.awk "$R/bench.tsv" | tee "$R/targets.md"
echo "bench-peers: results in $R"
