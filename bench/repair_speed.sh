#!/bin/sh
# usage: HEXOID=build/hexoid sh bench/repair_speed.sh [REFS] [RUNS] [COMMITS]
#
# What `hexoid repair` costs beside git writing the same refs, and what
# `hexoid repair --rewrite-history` costs beside git fast-export | git fast-import. A SHA-1 repository with
# one commit and REFS loose refs (default 100000) holding its ID in uppercase, and one
# with a packed-refs file of REFS lines in uppercase; each copied afresh before each
# run (the copy is not timed). Timed, taking turns RUNS times each (default 5):
#
#   loose    hexoid repair of the REFS loose refs (its audit included)
#   packed   hexoid repair of the REFS-line packed-refs
#   git      git update-ref --stdin creating the same REFS refs, in lowercase, in a
#            copy without them (core.logAllRefUpdates=false: the refs alone, no logs)
#
#   history  hexoid repair --rewrite-history of a commit with uppercase tree and parent
#            headers under COMMITS descendants (default 20000), each changing one file;
#            beside git fast-export --all | git fast-import of the same repository into
#            a new one, the way to a new history by hand
#
# Prints the medians and each repair's ratio to git's.
set -u
H=${HEXOID:?HEXOID must name the hexoid command}
case $H in */*) H=$(cd "$(dirname "$H")" && pwd)/$(basename "$H") ;; esac
refs=${1:-100000}
runs=${2:-5}
commits=${3:-20000}
case $refs$runs$commits in *[!0-9]*) echo "usage: HEXOID=build/hexoid sh bench/repair_speed.sh [REFS] [RUNS]" >&2 && exit 2 ;; esac

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

# --- a history ---------------------------------------------------------------------------
echo "making a bad commit under $commits descendants ..." >&2
h=$dir/hist
git_ init -q "$h" && echo base >"$h/f" && git_ -C "$h" add f && git_ -C "$h" commit -q -m base || exit 1
tree=$(git -C "$h" rev-parse 'HEAD^{tree}' | tr a-f A-F) par=$(git -C "$h" rev-parse HEAD | tr a-f A-F)
bad=$(printf 'tree %s\nparent %s\nauthor A <a@example.com> 1700000000 +0000\ncommitter A <a@example.com> 1700000000 +0000\n\nbad\n' "$tree" "$par" |
	git -C "$h" hash-object -t commit -w --stdin --literally)
awk -v commits="$commits" -v bad="$bad" 'BEGIN {
	for (i = 1; i <= commits; i++) {
		when = 1700000000 + i * 60
		msg = "commit " i "\n"
		s = "line " i "\n"
		printf "commit refs/heads/main\n"
		printf "author A U Thor <author@example.com> %d +0000\ncommitter C O Mitter <committer@example.com> %d +0000\n", when, when
		printf "data %d\n%s", length(msg), msg
		if (i == 1) printf "from %s\n", bad
		printf "M 100644 inline dir%d/file%d.txt\ndata %d\n%s\n", i % 16, i % 7, length(s), s
	}
}' | git -C "$h" fast-import --quiet --force || exit 1
git -C "$h" repack -adq || exit 1

one_history() {
	rm -rf "$dir/w" "$dir/fi"
	cp -a "$h" "$dir/w"
	git init -q "$dir/fi"
	sync
	start=$(date +%s%N)
	case $1 in
	hexoid) "$H" repair -q --rewrite-history "$dir/w" >"$dir/out" 2>"$dir/err"
		# 1: the old bad commit is packed, and stays until git repacks.
		rc=$? && [ $rc = 1 ] && rc=0 ;;
	git) git -C "$dir/w" fast-export --all 2>"$dir/err" | git -C "$dir/fi" fast-import --quiet 2>>"$dir/err"
		rc=$? ;;
	esac
	end=$(date +%s%N)
	[ $rc = 0 ] || { head -n 5 "$dir/err" "$dir/out" >&2; echo fail; return; }
	echo $((end - start))
}
[ "$(one_history hexoid)" != fail ] || exit 1
new=$(git -C "$dir/w" rev-parse main)
[ "$(one_history git)" != fail ] || exit 1
[ "$(git -C "$dir/fi" rev-parse main)" = "$new" ] || { echo "the two new histories differ" >&2; exit 1; }
: >"$dir/t.hexoid"
: >"$dir/t.fi"
i=0
while [ $i -lt "$runs" ]; do
	one_history hexoid >>"$dir/t.hexoid"
	one_history git >>"$dir/t.fi"
	i=$((i + 1))
done
grep -q fail "$dir/t.hexoid" "$dir/t.fi" && { echo "a run failed" >&2; exit 1; }
x=$(median "$dir/t.hexoid") y=$(median "$dir/t.fi")
echo "a bad commit under $commits descendants, median of $runs (the same new main: $new):"
echo "  hexoid repair --rewrite-history:            ${x}s"
echo "  git fast-export --all | git fast-import:    ${y}s"
awk -v x="$x" -v y="$y" 'BEGIN { printf "git over hexoid: %.2f\n", y / x }'
