#!/bin/sh
# usage: HEXOID=build/hexoid sh bench/audit_speed.sh [OBJECTS]
#
# How long hexoid audit and verify-pack take on a SHA-1 repository of OBJECTS objects
# (default 100000, nine in ten of them commits, the rest mostly annotated tags: the
# objects audit must inflate and read), beside the cheapest way git itself reads every
# commit and tag of a repository: cat-file --batch over the batch-check listing. Git
# there only inflates and prints; hexoid also checks every object's CRC32, both
# checksums and every header ID. Medians of 5 runs
# (hyperfine when installed), then git's time over each of hexoid's.
# The repository lives in a temporary directory, removed at exit.
set -u
H=${HEXOID:?HEXOID must name the hexoid command}
objects=${1:-100000}
case $objects in '' | *[!0-9]*) echo "usage: HEXOID=build/hexoid sh bench/audit_speed.sh [OBJECTS]" >&2 && exit 2 ;; esac
runs=5

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
repo=$dir/repo
git -c init.defaultBranch=main init -q --object-format=sha1 "$repo" || exit 1

# One branch of commits, each rewriting one small file with one of 50 contents: blobs
# and trees stay few, so commits are most of the objects. An annotated tag on every
# ninth commit. fast-import takes it all in one stream, in seconds.
commits=$((objects * 9 / 10))
tags=$((objects / 10 - 100))
[ $tags -lt 1 ] && tags=1
echo "making $commits commits and $tags annotated tags in $repo ..." >&2
awk -v commits=$commits -v tags=$tags 'BEGIN {
	for (b = 1; b <= 50; b++) { s = "version " b " of a small file\n"; printf "blob\nmark :%d\ndata %d\n%s\n", b, length(s), s }
	every = int(commits / tags); if (every < 1) every = 1
	t = 0
	for (i = 1; i <= commits; i++) {
		when = 1700000000 + i * 60
		msg = "commit " i "\n\nA body of a few words, as most commit messages have.\n"
		printf "commit refs/heads/main\nmark :%d\n", 100 + i
		printf "author A U Thor <author@example.com> %d +0000\ncommitter C O Mitter <committer@example.com> %d +0000\n", when, when
		printf "data %d\n%s", length(msg), msg
		printf "M 100644 :%d file.txt\n\n", i % 50 + 1
		if (i % every == 0 && t < tags) {
			t++
			msg = "release " t "\n"
			printf "tag v%d\nfrom :%d\ntagger T A Gger <tagger@example.com> %d +0000\ndata %d\n%s\n", t, 100 + i, when, length(msg), msg
		}
	}
}' | git -C "$repo" fast-import --quiet || exit 1
git -C "$repo" repack -adfq || exit 1
pack=$(ls "$repo"/.git/objects/pack/pack-*.pack)
git -C "$repo" count-objects -v | awk '$1 == "in-pack:" { n = $2 } END { printf "%d objects packed", n }' >&2
echo ", pack $(($(wc -c <"$pack") / 1024)) KiB" >&2
# Check the commands work before timing them: a clean repository is exit 0.
$H audit --no-progress "$repo" >/dev/null && $H verify-pack "$pack" >/dev/null ||
	{ echo "hexoid audit or verify-pack failed on the clean repository" >&2; exit 1; }

# median_of COMMAND: seconds, the median of $runs runs of the shell COMMAND.
median_of() {
	if command -v hyperfine >/dev/null 2>&1; then
		hyperfine -N --runs $runs --warmup 1 --style none --export-csv "$dir/t.csv" "$1" >/dev/null 2>&1 ||
			hyperfine --runs $runs --warmup 1 --style none --export-csv "$dir/t.csv" "$1" >/dev/null 2>&1 ||
			{ echo fail && return; }
		# command,mean,stddev,median,user,system,min,max: the command may hold commas.
		awk -F, 'NR == 2 { print $(NF - 4) }' "$dir/t.csv"
	else
		sh -c "$1" >/dev/null 2>&1 # warm the page cache, as hyperfine --warmup does
		m_i=0
		while [ $m_i -lt $runs ]; do
			m_start=$(date +%s%N)
			sh -c "$1" >/dev/null 2>&1 || { echo fail && return; }
			m_end=$(date +%s%N)
			echo $((m_end - m_start))
			m_i=$((m_i + 1))
		done | sort -n | awk '{ t[NR] = $1 } END { printf "%.4f\n", t[int((NR + 1) / 2)] / 1e9 }'
	fi
}

# The git side is a pipeline: a script, so the same command line runs with or without
# hyperfine's shell.
cat >"$dir/git-read.sh" <<EOF
git -C "$repo" cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)' |
	awk '\$2 == "commit" || \$2 == "tag" { print \$1 }' | git -C "$repo" cat-file --batch >/dev/null
EOF
git_cmd="sh $dir/git-read.sh"
echo "timing (median of $runs) ..." >&2
t_git=$(median_of "$git_cmd")
t_a1=$(median_of "$H audit --no-progress --jobs 1 $repo")
t_a2=$(median_of "$H audit --no-progress --jobs 2 $repo")
t_vp=$(median_of "$H verify-pack $pack")
# fast-import leaves every tag a loose ref, thousands of small files to open; git gc
# packs them. The same audits with the refs packed:
git -C "$repo" pack-refs --all || exit 1
t_p1=$(median_of "$H audit --no-progress --jobs 1 $repo")
t_p2=$(median_of "$H audit --no-progress --jobs 2 $repo")

printf '%-44s %10s %12s\n' "$objects objects ($commits commits, $tags tags)" "median s" "git / this"
for row in "git cat-file --batch (commits and tags)|$t_git" "hexoid audit --jobs 1|$t_a1" \
	"hexoid audit --jobs 2|$t_a2" "hexoid verify-pack|$t_vp" \
	"hexoid audit --jobs 1, refs packed|$t_p1" "hexoid audit --jobs 2, refs packed|$t_p2"; do
	name=${row%|*} t=${row##*|}
	awk -v n="$name" -v t="$t" -v g="$t_git" 'BEGIN {
		if (t == "fail") { printf "%-44s %10s %12s\n", n, "failed", "-"; exit }
		printf "%-44s %10.3f %12s\n", n, t, (g == "fail" || t == 0) ? "-" : sprintf("%.2f", g / t) }'
done
