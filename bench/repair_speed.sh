#!/bin/sh
# usage: HEXOID=build/hexoid sh bench/repair_speed.sh [REFS] [RUNS]
#
# What `hexoid repair` costs beside git writing the same refs. A SHA-1 repository with
# one commit and REFS loose refs (default 100000) holding its ID in uppercase, and one
# with a packed-refs file of REFS lines in uppercase; each copied afresh before each
# run (the copy is not timed). Timed, taking turns RUNS times each (default 5):
#
#   loose    hexoid repair of the REFS loose refs (its audit included)
#   packed   hexoid repair of the REFS-line packed-refs
#   git      git update-ref --stdin creating the same REFS refs, in lowercase, in a
#            copy without them (core.logAllRefUpdates=false: the refs alone, no logs)
#
# Prints the medians and each repair's ratio to git's.
set -u
H=${HEXOID:?HEXOID must name the hexoid command}
case $H in */*) H=$(cd "$(dirname "$H")" && pwd)/$(basename "$H") ;; esac
refs=${1:-100000}
runs=${2:-5}
case $refs$runs in *[!0-9]*) echo "usage: HEXOID=build/hexoid sh bench/repair_speed.sh [REFS] [RUNS]" >&2 && exit 2 ;; esac

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
git_() { git -c user.name=hexoid -c user.email=hexoid@example.com -c init.defaultBranch=main "$@"; }

git_ init -q "$dir/empty" && git_ -C "$dir/empty" commit -q --allow-empty -m one || exit 1
git_ -C "$dir/empty" config core.logAllRefUpdates false
id=$(git_ -C "$dir/empty" rev-parse HEAD)
upper=$(echo "$id" | tr a-f A-F)
echo "making $refs loose refs and a $refs-line packed-refs ..." >&2
cp -a "$dir/empty" "$dir/loose"
mkdir -p "$dir/loose/.git/refs/heads/b"
awk -v n="$refs" -v id="$upper" -v d="$dir/loose/.git/refs/heads/b" 'BEGIN {
	for (i = 0; i < n; i++) { f = sprintf("%s/r%07d", d, i); print id > f; close(f) } }'
cp -a "$dir/empty" "$dir/packed"
awk -v n="$refs" -v id="$upper" 'BEGIN {
	print "# pack-refs with: peeled fully-peeled sorted "
	for (i = 0; i < n; i++) printf "%s refs/heads/b/r%07d\n", id, i }' >"$dir/packed/.git/packed-refs"
awk -v n="$refs" -v id="$id" 'BEGIN {
	for (i = 0; i < n; i++) printf "create refs/heads/b/r%07d %s\n", i, id }' >"$dir/updates"

# one KIND: nanoseconds for one run in a fresh copy.
one() {
	rm -rf "$dir/w"
	case $1 in
	git) cp -a "$dir/empty" "$dir/w" ;;
	*) cp -a "$dir/$1" "$dir/w" ;;
	esac
	sync
	start=$(date +%s%N)
	case $1 in
	git) git -C "$dir/w" update-ref --stdin <"$dir/updates" 2>"$dir/err" ;;
	*) "$H" repair -q "$dir/w" >"$dir/out" 2>"$dir/err" ;;
	esac
	rc=$?
	end=$(date +%s%N)
	[ $rc = 0 ] || { head -n 5 "$dir/err" "$dir/out" >&2; echo fail; return; }
	echo $((end - start))
}
# A check first: the repaired refs are what git wrote.
[ "$(one loose)" != fail ] || exit 1
[ "$(git -C "$dir/w" for-each-ref --format='%(objectname)' refs/heads/b | sort -u)" = "$id" ] || { echo "the loose refs were not repaired" >&2; exit 1; }
[ "$(one packed)" != fail ] || exit 1
grep -q "^$id refs/heads/b/r0000000$" "$dir/w/.git/packed-refs" || { echo "packed-refs was not repaired" >&2; exit 1; }
[ "$(one git)" != fail ] || exit 1
[ "$(git -C "$dir/w" for-each-ref refs/heads/b | wc -l)" = "$refs" ] || { echo "git did not write the refs" >&2; exit 1; }

: >"$dir/t.loose"
: >"$dir/t.packed"
: >"$dir/t.git"
i=0
while [ $i -lt "$runs" ]; do
	for k in loose packed git; do one $k >>"$dir/t.$k"; done
	i=$((i + 1))
done
grep -q fail "$dir"/t.* && { echo "a run failed" >&2; exit 1; }
median() { sort -n "$1" | awk '{ t[NR] = $1 } END { printf "%.3f", t[int((NR + 1) / 2)] / 1e9 }'; }
l=$(median "$dir/t.loose") p=$(median "$dir/t.packed") g=$(median "$dir/t.git")
echo "$refs refs, median of $runs (CPU: $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)):"
echo "  hexoid repair, $refs loose refs:          ${l}s"
echo "  hexoid repair, $refs-line packed-refs:    ${p}s"
echo "  git update-ref --stdin, the same refs:  ${g}s"
awk -v l="$l" -v p="$p" -v g="$g" 'BEGIN {
	printf "ratio to git: loose %.2f, packed-refs %.2f\n", l / g, p / g }'
