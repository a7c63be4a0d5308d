#!/bin/sh
# usage: HEXOID=build/hexoid sh bench/many_repos.sh [REPOS] [JOBS]
#
# A storage shard: REPOS small repositories (default 2000) audited by one
# `hexoid audit --from -` run (with --jobs=1 and --jobs=JOBS, default 2) against a shell
# loop of one `hexoid audit` per repository. Prints the repositories per second and the
# peak resident memory of each (GNU time's maximum RSS; for the loop, the largest single
# audit's). Each run's output is checked: the same repositories with findings, every time.
#
# The repositories are made by git here: 20 different ones (a few commits each, half
# packed and half loose, one in five with a commit whose tree header is uppercase,
# planted with hash-object --literally, every other one SHA-256), each copied
# REPOS / 20 times with cp -R, as a shard of many small repositories looks to a reader.
set -u
H=${HEXOID:?HEXOID must name the hexoid command}
repos=${1:-2000}
jobs=${2:-2}
case $repos$jobs in *[!0-9]*) echo "usage: HEXOID=build/hexoid sh bench/many_repos.sh [REPOS] [JOBS]" >&2 && exit 2 ;; esac
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time: apt-get install time)" >&2; exit 2; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
export GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000"
g() { git -c user.name=hexoid -c user.email=hexoid@example.com -c init.defaultBranch=main "$@"; }
echo "making 20 repositories with git, then $repos copies ..." >&2
mkdir "$dir/t" "$dir/shard"
k=0
while [ $k -lt 20 ]; do
	f=sha1
	[ $((k % 2)) = 1 ] && f=sha256
	r=$dir/t/r$k
	g init -q --object-format=$f "$r" || exit 1
	for c in 1 2 3 4 5; do
		echo "line $c of repository $k" >>"$r/file" && g -C "$r" add file && g -C "$r" commit -qm "commit $c" || exit 1
	done
	g -C "$r" tag -a -m release v1 || exit 1
	[ $((k % 4)) -lt 2 ] && { g -C "$r" repack -adq || exit 1; }
	if [ $((k % 5)) = 0 ]; then
		tree=$(g -C "$r" rev-parse HEAD^{tree} | tr a-f A-F)
		bad=$(printf 'tree %s\nauthor a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\n\nbad\n' "$tree" |
			g -C "$r" hash-object --literally -t commit -w --stdin) && g -C "$r" update-ref refs/heads/bad "$bad" || exit 1
	fi
	k=$((k + 1))
done
i=0
while [ $i -lt "$repos" ]; do
	cp -R "$dir/t/r$((i % 20))" "$dir/shard/$i"
	echo "$dir/shard/$i"
	i=$((i + 1))
done >"$dir/list"
# The repositories with findings: those copied from r0, r5, r10, r15.
want=$(awk -v n="$repos" 'BEGIN { c = 0; for (i = 0; i < n; i++) if (i % 20 % 5 == 0) c++; print c }')

now() { date +%s%N; }
# rss FILE: GNU time's maximum resident set size, in MiB.
rss() { awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$1"; }
rate() { awk -v n="$repos" -v ns="$1" 'BEGIN { printf "%.0f", n / (ns / 1e9) }'; }

for j in 1 "$jobs"; do
	t0=$(now)
	/usr/bin/time -v "$H" audit --jobs="$j" --from - <"$dir/list" >"$dir/out.$j" 2>"$dir/time.$j"
	rc=$?
	t1=$(now)
	found=$(tail -n 1 "$dir/out.$j")
	[ $rc = 1 ] && [ "$found" = "hexoid audit: $repos repositories: $((repos - want)) clean, $want with findings, 0 not audited" ] ||
		{ echo "one run, --jobs=$j: exit $rc, '$found'" >&2; exit 1; }
	echo "one run, --jobs=$j: $(rate $((t1 - t0))) repositories/s ($(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.2f", ns / 1e9 }') s), peak RSS $(rss "$dir/time.$j") MiB"
	eval "t_$j=$((t1 - t0))"
done

# The loop as a script would write it; the memory of a single audit is measured apart,
# on the 20 repositories the shard is copied from, so that time's cost stays out.
t0=$(now)
found=0
while read -r r; do
	"$H" audit "$r" >/dev/null 2>"$dir/err.one"
	case $? in
	0) ;;
	1) found=$((found + 1)) ;;
	*) echo "$r: $(cat "$dir/err.one")" >&2 ;;
	esac
done <"$dir/list"
t1=$(now)
[ "$found" = "$want" ] || { echo "the loop found $found repositories with findings, not $want" >&2; exit 1; }
peak=0
for r in "$dir"/t/r*; do
	/usr/bin/time -v "$H" audit "$r" >/dev/null 2>"$dir/time.one"
	m=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$dir/time.one")
	[ "$m" -gt "$peak" ] && peak=$m
done
echo "shell loop of single audits: $(rate $((t1 - t0))) repositories/s ($(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.2f", ns / 1e9 }') s), peak RSS $(awk -v k=$peak 'BEGIN { printf "%.1f", k / 1024 }') MiB per run"
# shellcheck disable=SC2154
awk -v a="$t_1" -v b="$(eval echo "\$t_$jobs")" -v l=$((t1 - t0)) -v j="$jobs" 'BEGIN {
	printf "one run vs the loop: %.1fx (--jobs=1), %.1fx (--jobs=%s)\n", l / a, l / b, j }'
