#!/bin/sh
# hexoid show-index beside git show-index, whole process, on every pack index of each git
# dir given (SHA-1 or SHA-256, as the repository is), and on the same pack indexed again
# as version 1 (`git index-pack --index-version=1`, kept in WORK). Both tools' outputs
# must be the same before they are timed. One hyperfine run per index, pinned to one CPU;
# the ratio of CPU time (user + system, the steadier figure on a shared machine) and of
# wall time, git's over hexoid's.
# Usage: HEXOID=build/hexoid sh bench/show_index_speed.sh GITDIR...   (needs hyperfine)
# Environment: CPU (default: the last one), RUNS (hyperfine runs, default 10), V1=0 (no
# version 1 index), WORK (default build/show-index: the v1 indexes and the JSON results).
set -eu
H=${HEXOID:?HEXOID must name the hexoid command}
[ $# -gt 0 ] || { echo "usage: HEXOID=build/hexoid sh bench/show_index_speed.sh GITDIR..." >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "show_index_speed.sh: needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
H=$(cd "$(dirname "$H")" && pwd)/$(basename "$H")
WORK=${WORK:-build/show-index}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
CPU=${CPU:-$((ncpu - 1))}
RUNS=${RUNS:-10}

# time_idx LABEL FORMAT IDX: check, then time both tools on IDX.
time_idx() {
	label=$1 fmt=$2 idx=$3
	git show-index --object-format="$fmt" <"$idx" >"$WORK/git.out"
	"$H" show-index --object-format="$fmt" <"$idx" >"$WORK/hexoid.out"
	if ! cmp -s "$WORK/git.out" "$WORK/hexoid.out"; then
		echo "show_index_speed.sh: $idx: hexoid's output differs from git's" >&2
		exit 1
	fi
	n=$(wc -l <"$WORK/git.out")
	rm -f "$WORK/git.out" "$WORK/hexoid.out"
	json=$WORK/$(basename "$idx" .idx)-$(echo "$label" | tr -c 'a-z0-9\n' -).json
	taskset -c "$CPU" hyperfine -S sh -w 2 -r "$RUNS" --style none --export-json "$json" \
		-n git "git show-index --object-format=$fmt <$idx >/dev/null" \
		-n hexoid "$H show-index --object-format=$fmt <$idx >/dev/null" >/dev/null
	awk -v label="$label" -v n="$n" -v idx="$idx" '
		/"command": "git"/ { who = "git" } /"command": "hexoid"/ { who = "hexoid" }
		/"mean":/ { gsub(/[",]/, ""); mean[who] = $2 }
		/"user":/ { gsub(/[",]/, ""); user[who] = $2 }
		/"system":/ { gsub(/[",]/, ""); sys[who] = $2 }
		END {
			cg = user["git"] + sys["git"]; ch = user["hexoid"] + sys["hexoid"]
			printf "%-16s %9d objects  git %7.1f ms  hexoid %7.1f ms (wall)  CPU time %5.2fx  wall %5.2fx  %s\n",
				label, n, mean["git"] * 1e3, mean["hexoid"] * 1e3,
				(ch > 0 ? cg / ch : 0), (mean["hexoid"] > 0 ? mean["git"] / mean["hexoid"] : 0), idx
		}' "$json"
}

echo "show-index, whole process: git show-index beside hexoid show-index, pinned to CPU $CPU, $RUNS runs (git's time over hexoid's)"
for gd in "$@"; do
	fmt=$(git --git-dir="$gd" rev-parse --show-object-format)
	found=0
	for idx in "$gd"/objects/pack/*.idx; do
		[ -f "$idx" ] || continue
		found=1
		time_idx "v2, $fmt" "$fmt" "$idx"
		[ "${V1:-1}" = 0 ] && continue
		v1=$WORK/$(basename "$idx" .idx)-v1.idx
		if ! [ -s "$v1" ]; then
			git --git-dir="$gd" index-pack --index-version=1 -o "$v1.tmp" "${idx%.idx}.pack" >/dev/null
			mv "$v1.tmp" "$v1"
		fi
		time_idx "v1, $fmt" "$fmt" "$v1"
	done
	[ "$found" = 1 ] || echo "show_index_speed.sh: $gd: no objects/pack/*.idx" >&2
done
