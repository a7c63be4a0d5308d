#!/bin/sh
# hexoid verify against wc -l on 600k lines of each format as git prints it for REPO
# (default: this repository), repeated to 600k lines where REPO has fewer; the formats
# git prints only for a working repository (reflog, FETCH_HEAD, fsck, marks, bundles,
# submodules, replace refs, worktrees, git cherry's '-' lines) come from small ones made
# here, and merge-tree's from one conflicted merge of about 600k lines made here (by
# git fast-import). The listings are the installed git's output (but for the frames of
# the bundle and packed-refs around show-ref's lines; `log-oneline`, git log --oneline
# --no-abbrev-commit, is read as --format=text); one printed in records of several lines (pretty-raw, rev-list
# --format, blame, worktree list, the graph, fast-export) is repeated and cut in whole
# records, so it stays valid output, and each is checked by `hexoid verify
# --format=NAME` before it is timed.
# Timing is interleaved, so a noisy machine slows every command alike: in each of RUNS
# rounds (default 10) wc -l, hexoid verify with the format given and with auto each run
# once (hyperfine -N --runs 1), in an order rotated from round to round. Each row is the
# median over the rounds of hexoid's time over wc -l's in the same round: CPU time (user
# + system, steadier on a loaded machine) and wall time, with the format given and with
# auto ('-' where auto does not take the listing, "(as NAME)" where it reads it as another
# format). A line per listing as it is timed goes to stderr; the table, in
# Markdown, to stdout at the end, with the CPU (lscpu's Model name) and the rounds.
# Usage: HEXOID=build/hexoid [RUNS=10] sh bench/verify_speed.sh [REPO [LISTING...]]
# (needs hyperfine). LISTING names the listings to time (default: all). With BENCH_DIR
# set, the listings are kept there and made only when it has none (to time again after a
# change).
set -eu
H=${HEXOID:?HEXOID must name the hexoid command}
# The listings are made and timed in another directory: a relative HEXOID is made absolute.
case $H in */*) H=$(cd "$(dirname "$H")" && pwd)/$(basename "$H") ;; esac
command -v hyperfine >/dev/null || { echo "verify_speed.sh: needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
R=${RUNS:-10}
case $R in '' | *[!0-9]* | 0) echo "verify_speed.sh: RUNS must be a positive number" >&2; exit 2 ;; esac
G="git -C $(cd "${1:-.}" && pwd)"
[ $# -gt 0 ] && shift
N=600000
if [ -n "${BENCH_DIR:-}" ]; then
	mkdir -p "$BENCH_DIR"
	tmp=$(cd "$BENCH_DIR" && pwd)
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
fi
cd "$tmp"
if ! [ -e listings-made ]; then
# Left by a run that stopped, or by an older version of this script: made again.
rm -rf r c g index m
# rep FILE: stdin's lines, repeated to N lines.
rep() { awk -v N=$N '{ l[n++] = $0 } END { for (i = 0; n && i < N; i++) print l[i % n] }' >"$1"; }
# reprec FILE START [DATA]: stdin in records, each from a line that matches the extended
# regular expression START, repeated whole (from the first record on) as long as they fit
# in N lines; read no further than N lines. DATA=1: fast-export's "data <n>" blocks are
# skipped as bytes (no record starts in them).
reprec() {
	LC_ALL=C awk -v N=$N -v start="$2" -v data="${3:-0}" '
	BEGIN { n = 0 }
	skip > 0 { skip -= length($0) + 1; l[n++] = $0; next }
	n == 0 || $0 ~ start { if (n >= N) exit; s[m++] = n }
	{ l[n++] = $0 }
	data && /^data [0-9]+$/ { skip = substr($0, 6) + 0 }
	END {
		if (!m) { print "verify_speed.sh: no output to repeat" >"/dev/stderr"; exit 1 }
		s[m] = n
		for (i = 0; ; i = (i + 1) % m) {
			len = s[i + 1] - s[i]
			if (out && out + len > N) break
			for (j = s[i]; j < s[i + 1]; j++) print l[j]
			out += len
		}
	}' >"$1"
}
git_() { git -c user.name=hexoid -c user.email=hexoid@example.com -c init.defaultBranch=main \
	-c protocol.file.allow=always -c advice.detachedHead=false -c gc.auto=0 "$@"; }

# From REPO.
$G rev-list --objects --all --missing=allow-any | rep rev-list
cut -c1-40 rev-list >oids
$G rev-list --parents --all | rep rev-list-parents
$G log --format='%H %T' --all | rep log-trees
$G cat-file --batch-all-objects --batch-check | rep batch-check
$G cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype) %(objectsize) %(objectsize:disk) %(deltabase)' | rep batch-deltas
$G show-index <"$(ls "$($G rev-parse --path-format=absolute --git-path objects)"/pack/*.idx | head -n 1)" | rep show-index
$G log --format=%T -n 200 | while read -r t; do $G ls-tree -r "$t"; done | rep ls-tree
$G log --format=%T -n 200 | while read -r t; do $G ls-tree -r -l "$t"; done | rep ls-tree-long
tr '\n' '\0' <ls-tree >ls-tree-z
GIT_INDEX_FILE=$tmp/index $G read-tree HEAD
GIT_INDEX_FILE=$tmp/index $G --work-tree="$tmp" ls-files --stage | rep ls-files
tr '\n' '\0' <ls-files >ls-files-z
$G rev-list -n 3000 HEAD | $G diff-tree --stdin -r --no-abbrev 2>/dev/null | rep diff-raw
$G for-each-ref | rep for-each-ref
$G show-ref -d | rep show-ref
$G for-each-ref --format='%(objectname)%09%(refname)' | rep ls-remote
{ echo '# pack-refs with: peeled fully-peeled sorted '; $G show-ref -d | sed 's|^\(.*\) \(.*\)^{}$|^\1|'; } | rep packed-refs
$G for-each-ref --format='%(objectname) %(*objectname) %(refname)' | rep ref-peeled
$G log --format='%H%x09%P' --all | rep id-fields
$G log --pretty=raw HEAD | reprec pretty-raw '^commit [0-9a-f]'
# (The subject on the author's line: alone on a line, an empty one leaves an empty line,
# which hexoid's rev-list-format does not take yet.)
$G rev-list --format='%T %P%n%an <%ae> %s' HEAD | reprec rev-list-format '^commit [0-9a-f]'
# Text: git log --oneline (a whole log's messages hold words the heuristic of
# --format=text takes for broken IDs, such as GnuPG's fingerprints in git's own).
$G log --oneline --no-abbrev-commit --decorate HEAD | rep log-oneline
$G log --graph --format=%H HEAD | reprec graph '[*] [0-9a-f]'
$G log --graph --format='%H %P' HEAD | reprec graph-parents '[*] [0-9a-f]'
# git cherry: the newest 2000 commits of HEAD over the oldest of them (all '+' but for
# commits already upstream), then the small repository's, with '-' lines.
$G cherry -v "$($G rev-list -n 2000 HEAD | tail -n 1)" HEAD >cherry.repo
# blame of HEAD's three largest files up to 60 kB, one output after the other, repeated
# whole (then cut before a line's group: what blame -L prints).
$G ls-tree -r -l HEAD | awk -F '\t' '{ split($1, a, " ") } a[1] == "100644" && a[4] + 0 <= 60000 { print a[4] "\t" $2 }' |
	sort -rn | head -n 3 | cut -f2- >blame.files
while IFS= read -r p; do $G blame --porcelain HEAD -- "$p"; done <blame.files |
	reprec blame '^[0-9a-f]+ [0-9]+ [0-9]+( [0-9]+)?$'
while IFS= read -r p; do $G blame --line-porcelain HEAD -- "$p"; done <blame.files |
	reprec blame-line '^[0-9a-f]+ [0-9]+ [0-9]+( [0-9]+)?$'
# fast-export of HEAD's newest commits, with each blob's data and with --no-data (the
# blobs by ID), cut before a command.
$G fast-export --show-original-ids --reference-excluded-parents -n 20000 HEAD 2>/dev/null |
	reprec fast-export '^(commit|reset|tag|blob)( |$)' 1
$G fast-export --show-original-ids --reference-excluded-parents --no-data -n 20000 HEAD 2>/dev/null |
	reprec fast-export-nodata '^(commit|reset|tag|blob)( |$)' 1
# From a small repository made here.
r=$tmp/r
git_ init -q r
for i in 1 2 3 4 5 6; do echo $i >r/f$i && git_ -C r add -A && git_ -C r commit -q -m "c $i"; done
git_ -C r tag -a -m t v1
git_ clone -q "file://$r" c && git_ -C c fetch -q origin
rep fetch-head <c/.git/FETCH_HEAD
rep reflog <r/.git/logs/HEAD
echo x | git_ -C r hash-object -w --stdin >/dev/null
git_ -C r fsck --dangling --unreachable --root --tags --no-progress 2>/dev/null | rep fsck
git_ -C r fast-export --all --export-marks="$tmp/m" >/dev/null && rep marks <m
git_ -C r show-ref | rep promisor
git_ -C r repack -q -ad
git_ -C r verify-pack -v "$r"/.git/objects/pack/*.idx | grep -v '^non delta\|^chain\|: ok' | rep verify-pack
git_ -C r rev-list --objects --boundary main~2..main | rep pack-objects
git_ -C r show-ref | awk -v N=$((N - 2)) '{ l[n++] = $0 } END { for (i = 0; i < N; i++) print l[i % n] }' >refs
{ echo '# v2 git bundle'; cat refs; echo; printf 'PACK\0\0\0\2'; head -c 100000 /dev/zero; } >bundle
# git cherry both ways between main and a side branch that took two of its commits.
git_ -C r checkout -q -b side main~3
echo s >r/s && git_ -C r add s && git_ -C r commit -q -m side
git_ -C r cherry-pick main~1 main >/dev/null
git_ -C r checkout -q main
{ cat cherry.repo; git_ -C r cherry -v side main; git_ -C r cherry -v main side; } | rep cherry
# Worktrees: on a branch, detached, locked with and without a reason, one gone (prunable).
mkdir g
git_ -C r worktree add -q -b wt1 "$tmp/g/wt 1"
git_ -C r worktree add -q --detach "$tmp/g/wt2" main~1
git_ -C r worktree add -q -b wt3 "$tmp/g/wt3" main~2 && git_ -C r worktree lock --reason 'on a stick' "$tmp/g/wt3"
git_ -C r worktree add -q --detach "$tmp/g/wt4" side && git_ -C r worktree lock "$tmp/g/wt4"
git_ -C r worktree add -q -b wt5 "$tmp/g/wt5" && rm -rf "$tmp/g/wt5"
git_ -C r worktree list --porcelain | reprec worktrees '^worktree '
# Replace refs: commits, a blob, a tree (last: they would change the listings above).
git_ -C r rev-parse main~1 main~2 main~3 main~4 main:f1 main:f2 main~5^{tree} main~4^{tree} |
	while read -r old && read -r new; do git_ -C r replace "$old" "$new"; done
git_ -C r replace -l --format=long | rep replace
# Submodules: in step (' '), at another commit ('+'), not initialized ('-'), in conflict
# ('U'), one with a tag for its describe.
for i in 1 2 3 4; do
	git_ init -q "g/sub$i" && echo "$i" >"g/sub$i/f" && git_ -C "g/sub$i" add f && git_ -C "g/sub$i" commit -q -m "s $i"
done
git_ -C g/sub4 tag -a -m v v1.0
git_ init -q g/super
for i in 1 2 3 4; do git_ -C g/super submodule -q add "$tmp/g/sub$i" "lib/sub$i"; done
git_ -C g/super commit -q -m subs
git_ -C g/super checkout -q -b other
git_ -C g/super/lib/sub1 commit -q --allow-empty -m theirs && git_ -C g/super commit -q -am theirs
git_ -C g/super checkout -q main && git_ -C g/super submodule -q update
git_ -C g/super/lib/sub1 commit -q --allow-empty -m ours && git_ -C g/super commit -q -am ours
git_ -C g/super merge -q other >/dev/null 2>&1 || true
git_ -C g/super submodule -q deinit lib/sub3
git_ -C g/super/lib/sub2 commit -q --allow-empty -m ahead
git_ -C g/super submodule status | rep submodule-status
# merge-tree: one merge of two branches over about N/13 groups of four files: both sides
# changed (a content conflict: 3 entries and 2 messages), changed and deleted (2, 1),
# changed apart (merged cleanly: 1 message), added by both (2, 2); 13 lines a group.
git_ init -q --bare g/m.git
awk -v n=$((N / 13)) 'function file(path, text) { printf "M 100644 inline %s\ndata %d\n%s", path, length(text), text }
	function commit(ref, from) { print "commit refs/heads/" ref; print "committer hexoid <hexoid@example.com> 1700000000 +0000"
		printf "data %d\n%s\n", length(ref) + 1, ref; if (from) print "from refs/heads/" from }
	function dir(i) { return sprintf("d%d/e%d/", i / 2500, i / 25) } # fast-import looks names up in turn
	BEGIN {
		commit("base")
		for (i = 0; i < n; i++) { d = dir(i)
			file(d "both" i, i "\nbase\n2\n3\n4\n5\n"); file(d "gone" i, i "\nbase\n")
			file(d "apart" i, i "\na\n2\n3\n4\n5\nz\n") }
		for (k = 1; k <= 2; k++) { commit("c" k, "base")
			for (i = 0; i < n; i++) { d = dir(i)
				file(d "both" i, i "\nside " k "\n2\n3\n4\n5\n")
				if (k == 1) file(d "gone" i, i "\nchanged\n"); else print "D " d "gone" i
				if (k == 1) file(d "apart" i, i "\nA\n2\n3\n4\n5\nz\n"); else file(d "apart" i, i "\na\n2\n3\n4\n5\nZ\n")
				file(d "added" i, i "\nadded by " k "\n") } }
	}' | git_ -C g/m.git fast-import --quiet
# (Its warning that rename detection was skipped, for too many files, is dropped.)
git_ -C g/m.git merge-tree --write-tree c1 c2 >merge-tree 2>/dev/null || [ $? = 1 ]
git_ -C g/m.git merge-tree --write-tree -z c1 c2 >merge-tree-z 2>/dev/null || [ $? = 1 ]
: >listings-made
fi

# rounds FILE CMD...: RUNS rounds, each running every CMD once, in an order rotated by one
# from the round before; a line per round: CPU and wall seconds of each CMD, in CMD's order.
rounds() {
	file=$1
	shift
	: >"$file.rounds"
	i=0
	while [ $i -lt $R ]; do
		hyperfine -N --runs 1 --export-csv "$file.csv" "$@" >/dev/null 2>&1
		awk -F, -v order="$cmds" 'BEGIN { n = split(order, c, "|") }
			NR > 1 { for (k = 1; k <= n; k++) if ($1 == c[k]) { cpu[k] = $5 + $6; wall[k] = $4 } }
			END { for (k = 1; k <= n; k++) printf "%s%.6f %.6f", (k > 1 ? " " : ""), cpu[k], wall[k]; print "" }' \
			"$file.csv" >>"$file.rounds"
		c=$1 && shift && set -- "$@" "$c"
		i=$((i + 1))
	done
}

md=$tmp/table.md
{
	echo '| listing | `--format=` | `wc -l` CPU ms | CPU given | CPU auto | wall given | wall auto |'
	echo '|---|---|---:|---:|---:|---:|---:|'
} >"$md"
printf '%-18s %-15s %9s %10s %10s %10s %10s\n' listing format 'wc -l ms' 'cpu given' 'cpu auto' 'wall given' 'wall auto' >&2
for f in oids rev-list:rev-list rev-list-parents:rev-list log-trees:rev-list id-fields \
	pack-objects cherry batch-check batch-deltas:batch-check show-index verify-pack \
	ls-tree ls-tree-long:ls-tree ls-tree-z ls-files ls-files-z diff-raw for-each-ref \
	show-ref ls-remote packed-refs ref-peeled fetch-head reflog fsck promisor marks \
	submodule-status replace bundle pretty-raw rev-list-format blame blame-line:blame \
	worktrees graph graph-parents:graph merge-tree merge-tree-z fast-export \
	fast-export-nodata:fast-export log-oneline:text; do
	file=${f%%:*} fmt=${f##*:}
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$file"; then continue; fi
	$H verify --format=$fmt $file 2>/dev/null || { echo "verify_speed.sh: $file is not valid as $fmt" >&2; exit 1; }
	# One run of each, untimed: the file in the page cache, the binary loaded.
	wc -l $file >/dev/null
	if $H verify $file 2>/dev/null; then
		# The format auto takes, named in the table when it is another.
		afmt=$($H verify --json $file 2>/dev/null | sed -n 's/.*"type": "summary".*"format": "\([^"]*\)".*/\1/p')
		cmds="wc -l $file|$H verify --format=$fmt $file|$H verify $file"
		(IFS='|' && rounds $file $cmds)
	else
		afmt=
		cmds="wc -l $file|$H verify --format=$fmt $file"
		(IFS='|' && rounds $file $cmds)
	fi
	awk -v name=$file -v fmt=$fmt -v afmt="$afmt" -v md="$md" '
		function median(a, n,   i, j, t) {
			for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		function ratio(x, y) { return y > 0 ? x / y : 0 }
		{ n++; wc[n] = $1; cg[n] = ratio($3, $1); wg[n] = ratio($4, $2)
			auto = NF >= 6; if (auto) { ca[n] = ratio($5, $1); wa[n] = ratio($6, $2) } }
		END {
			w = median(wc, n) * 1000; c1 = median(cg, n); w1 = median(wg, n)
			if (auto) { c2 = sprintf("%.2fx", median(ca, n)); w2 = sprintf("%.2fx", median(wa, n)) } else c2 = w2 = "-"
			if (auto && afmt != fmt) { c2 = c2 " (as " afmt ")"; w2 = w2 " (as " afmt ")" }
			printf "%-18s %-15s %9.1f %9.2fx %10s %9.2fx %10s\n", name, fmt, w, c1, c2, w1, w2 >"/dev/stderr"
			sub(/x/, "×", c2); sub(/x/, "×", w2)
			printf "| %s | `%s` | %.1f | %.2f× | %s | %.2f× | %s |\n", name, fmt, w, c1, c2, w1, w2 >>md
		}' "$file.rounds"
done
echo
cat "$md"
echo
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
[ "$R" = 1 ] && rounds="1 round" || rounds="the median of $R rounds"
echo "CPU: ${cpu:-unknown}; $rounds (RUNS=$R), each timing every command once, in an order rotated from round to round."
