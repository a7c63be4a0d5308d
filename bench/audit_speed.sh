#!/bin/sh
# usage: HEXOID=build/hexoid sh bench/audit_speed.sh [COMMITS [BAD [REPO...]]]
#
# How long hexoid audit and verify-pack take, and how much memory they hold, beside the
# cheapest way git itself reads every commit and tag of a repository: cat-file --batch
# over the batch-check listing (two git processes and awk). Git there only inflates and
# prints; hexoid also checks every object's CRC32, both checksums and every header ID.
#
#   1. A generated history of COMMITS commits (default 20000) shaped like a real one
#      (tests/history.sh: real-sized messages, several authors, merges, tags), repacked
#      as a server keeps it (git repack -adf --depth=50 --window=250), so commits sit in
#      delta chains; and each REPO given (a bare copy of git's own history, say: its
#      objects and packed-refs are enough).
#      For each: git's time over hexoid's, for audit and verify-pack with --jobs 1 and
#      2; the --jobs 2 speed-up; peak memory, whole (what /usr/bin/time calls maximum
#      resident set, mapped pack pages included) and anonymous (RssAnon sampled every
#      5 ms: the memory beside the mapped files). The generated history is also timed
#      with 10,000 loose refs (as fast-import or a fetch of many tags leaves them).
#   2. Streaming: a pack of BAD commits (default 200000) each with an uppercase tree
#      header, and a pack of their lowercase twins: verify-pack's peak memory on both,
#      and when the first finding reaches stdout against the whole run.
#
# Medians of 3 runs (hyperfine when installed). Ratios only mean something within one
# run on one machine: quote them with the CPU. Temporary files go in a directory
# removed at exit.
set -u
H=${HEXOID:?HEXOID must name the hexoid command}
here=$(cd "$(dirname "$0")/.." && pwd)
commits=${1:-20000}
bad=${2:-200000}
[ $# -gt 2 ] && shift 2 || set --
case $commits$bad in '' | *[!0-9]*) echo "usage: HEXOID=build/hexoid sh bench/audit_speed.sh [COMMITS [BAD [REPO...]]]" >&2 && exit 2 ;; esac
runs=3

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
. "$here/tests/history.sh"

# median_of COMMAND: seconds, the median of $runs runs of the shell COMMAND.
median_of() {
	if command -v hyperfine >/dev/null 2>&1; then
		hyperfine -N --runs $runs --warmup 1 --style none --export-csv "$dir/t.csv" "$1" >/dev/null 2>&1 ||
			hyperfine --runs $runs --warmup 1 --style none --export-csv "$dir/t.csv" "$1" >/dev/null 2>&1 ||
			{ echo fail && return; }
		# command,mean,stddev,median,user,system,min,max: the command may hold commas.
		awk -F, 'NR == 2 { printf "%.3f\n", $(NF - 4) }' "$dir/t.csv"
	else
		sh -c "$1" >/dev/null 2>&1 # warm the page cache, as hyperfine --warmup does
		m_i=0
		while [ $m_i -lt $runs ]; do
			m_start=$(date +%s%N)
			sh -c "$1" >/dev/null 2>&1 || { [ $? = 1 ] || { echo fail && return; }; }
			m_end=$(date +%s%N)
			echo $((m_end - m_start))
			m_i=$((m_i + 1))
		done | sort -n | awk '{ t[NR] = $1 } END { printf "%.3f\n", t[int((NR + 1) / 2)] / 1e9 }'
	fi
}

# peak COMMAND...: "WHOLE ANON" peak memory in MiB of one run of COMMAND (stdout and
# stderr dropped): /usr/bin/time's maximum resident set, and RssAnon sampled every 5 ms.
peak() {
	/usr/bin/time -f %M -o "$dir/rss" "$@" >/dev/null 2>&1 &
	p_pid=$!
	p_anon=0
	# the command is time's child
	while kill -0 $p_pid 2>/dev/null; do
		for p_c in $(cat /proc/$p_pid/task/$p_pid/children 2>/dev/null); do
			p_a=$(awk '/^RssAnon:/ { print $2 }' /proc/$p_c/status 2>/dev/null)
			[ -n "$p_a" ] && [ "$p_a" -gt $p_anon ] && p_anon=$p_a
		done
		sleep 0.005
	done
	wait $p_pid
	# (time puts "Command exited with non-zero status N" before it when the status is not 0)
	awk -v w="$(tail -n 1 "$dir/rss" 2>/dev/null)" -v a=$p_anon 'BEGIN { printf "%.0f %.0f\n", w / 1024, a / 1024 }'
}

# ratio GIT THIS: git's time over this one's, or "-".
ratio() { awk -v g="$1" -v t="$2" 'BEGIN { if (g == "fail" || t == "fail" || t == 0) print "-"; else printf "%.2f\n", g / t }'; }
row() { printf '%-46s %9s %9s %11s\n' "$1" "$2" "$3" "$4"; }

# bench_repo NAME GITDIR: the table for one repository.
bench_repo() {
	b_name=$1 b_git=$2
	b_pack=$(ls -S "$b_git"/objects/pack/pack-*.pack | head -n 1)
	cat >"$dir/git-read.sh" <<EOF
git --git-dir="$b_git" cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)' |
	awk '\$2 == "commit" || \$2 == "tag" { print \$1 }' | git --git-dir="$b_git" cat-file --batch >/dev/null
EOF
	b_objs=$(git --git-dir="$b_git" count-objects -v | awk '$1 == "in-pack:" { print $2 }')
	b_size=$(($(wc -c <"$b_pack") / 1048576))
	echo "timing $b_name (median of $runs) ..." >&2
	t_git=$(median_of "sh $dir/git-read.sh")
	t_a1=$(median_of "$H audit --no-progress --jobs 1 $b_git")
	t_a2=$(median_of "$H audit --no-progress --jobs 2 $b_git")
	t_v1=$(median_of "$H verify-pack --jobs 1 $b_pack")
	t_v2=$(median_of "$H verify-pack --jobs 2 $b_pack")
	echo
	echo "$b_name: $b_objs objects, largest pack $b_size MiB"
	row "" "median s" "git/this" "peak MiB"
	row "git cat-file --batch (commits and tags)" "$t_git" "1.00" "$(peak sh "$dir/git-read.sh" | awk '{ print $1 "/-" }')"
	for r in "audit --jobs 1|$t_a1|audit --no-progress --jobs 1 $b_git" \
		"audit --jobs 2|$t_a2|audit --no-progress --jobs 2 $b_git" \
		"verify-pack --jobs 1|$t_v1|verify-pack --jobs 1 $b_pack" \
		"verify-pack --jobs 2|$t_v2|verify-pack --jobs 2 $b_pack"; do
		r_name=${r%%|*} r_rest=${r#*|}
		r_t=${r_rest%%|*} r_args=${r_rest#*|}
		# shellcheck disable=SC2086
		row "hexoid $r_name" "$r_t" "$(ratio "$t_git" "$r_t")" "$(peak $H $r_args | awk '{ print $1 "/" $2 }')"
	done
	echo "  --jobs 2 over --jobs 1: audit $(ratio "$t_a1" "$t_a2")x, verify-pack $(ratio "$t_v1" "$t_v2")x"
	echo "  (peak MiB: whole/anonymous; whole counts the mapped pack, anonymous what is beside it)"
}

# --- 1. The generated history, and the repositories given.
repo=$dir/history
echo "making a history of $commits commits in $repo ..." >&2
make_history "$repo" "$commits" >/dev/null 2>&1 || { echo "git cannot make the history" >&2; exit 1; }
$H audit --no-progress "$repo" >/dev/null ||
	{ echo "hexoid audit fails on the clean history" >&2; exit 1; }
git -C "$repo" verify-pack -v "$(ls "$repo"/.git/objects/pack/pack-*.idx)" >"$dir/v" 2>/dev/null
awk '($2 == "commit" || $2 == "tag") { n++; if (NF == 7) { d++; if ($6 > m) m = $6 } }
	END { printf "commits and tags: %d, %d of them deltas, chains up to %d deep\n", n, d, m }' "$dir/v" >&2
bench_repo "generated history ($commits commits)" "$repo/.git"
for r in "$@"; do
	g=$r
	[ -d "$r/.git" ] && g=$r/.git
	bench_repo "$r" "$g"
done

# The generated history with 10,000 loose refs: a tag ref on every few commits.
git -C "$repo" rev-list main | awk 'NR <= 10000 { printf "create refs/tags/many-%d %s\n", NR, $1 }' |
	git -C "$repo" update-ref --stdin
cat >"$dir/git-read.sh" <<EOF
git -C "$repo" cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)' |
	awk '\$2 == "commit" || \$2 == "tag" { print \$1 }' | git -C "$repo" cat-file --batch >/dev/null
EOF
echo "timing the history with 10,000 loose refs ..." >&2
t_git=$(median_of "sh $dir/git-read.sh")
t_a1=$(median_of "$H audit --no-progress --jobs 1 $repo")
t_a2=$(median_of "$H audit --no-progress --jobs 2 $repo")
echo
echo "generated history with 10,000 loose refs"
row "" "median s" "git/this" ""
row "git cat-file --batch (commits and tags)" "$t_git" "1.00" ""
row "hexoid audit --jobs 1" "$t_a1" "$(ratio "$t_git" "$t_a1")" ""
row "hexoid audit --jobs 2" "$t_a2" "$(ratio "$t_git" "$t_a2")" ""

# --- 2. Streaming: BAD commits with an uppercase tree, and their lowercase twins.
echo "making $bad commits with an uppercase tree header, and their twins ..." >&2
# git hash-object would write each one loose first; perl (which git itself depends on)
# writes the pack in one go, and git index-pack indexes it.
tree=$(git hash-object -t tree /dev/null)
for kind in bad clean; do
	t=$tree
	[ $kind = bad ] && t=$(echo "$tree" | tr a-f A-F)
	perl -MCompress::Zlib -MDigest::SHA -e '
		my ($n, $tree, $out) = @ARGV;
		open(my $fh, ">", $out) or die "$out: $!";
		binmode $fh;
		my $sha = Digest::SHA->new(1);
		my $head = "PACK" . pack("NN", 2, $n);
		print $fh $head;
		$sha->add($head);
		for my $i (0 .. $n - 1) {
			my $when = 1600000000 + $i;
			my $body = "tree $tree\nauthor A U Thor <a\@example.com> $when +0000\n" .
				"committer C O Mitter <c\@example.com> $when +0000\n\n" .
				"commit $i of many, as a push of a long history brings them\n";
			my $len = length $body;
			my $c = (1 << 4) | ($len & 15);
			my $h = "";
			$len >>= 4;
			while ($len) { $h .= chr($c | 0x80); $c = $len & 0x7f; $len >>= 7; }
			$h .= chr($c);
			my $z = compress($body);
			print $fh $h, $z;
			$sha->add($h, $z);
		}
		print $fh $sha->digest;
		close($fh) or die "$out: $!";' "$bad" "$t" "$dir/$kind.pack" &&
		git index-pack "$dir/$kind.pack" >/dev/null || exit 1
done
bpack=$dir/bad.pack cpack=$dir/clean.pack
echo
echo "streaming: verify-pack on $bad commits, each with an uppercase tree, and on their lowercase twins"
row "" "first s" "whole s" "peak MiB"
for kind in bad clean; do
	k_pack=$bpack
	[ $kind = clean ] && k_pack=$cpack
	for j in 1 2; do
		# When the first line reaches stdout, and the whole run.
		k_start=$(date +%s%N)
		$H verify-pack --jobs $j "$k_pack" | { read -r _ && date +%s%N >"$dir/first"; cat >/dev/null; }
		k_end=$(date +%s%N)
		k_first=$(awk -v s=$k_start -v f="$(cat "$dir/first")" 'BEGIN { printf "%.3f", (f - s) / 1e9 }')
		[ $kind = clean ] && k_first="-" # its one line is the summary at the end
		row "$kind, --jobs $j" "$k_first" "$(awk -v s=$k_start -v e=$k_end 'BEGIN { printf "%.3f", (e - s) / 1e9 }')" \
			"$(peak $H verify-pack --jobs $j "$k_pack" | awk '{ print $1 "/" $2 }')"
	done
done
echo "  (peak MiB: whole/anonymous)"
