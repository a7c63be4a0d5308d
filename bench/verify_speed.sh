#!/bin/sh
# hexoid verify against wc -l on 600k lines of each format as git prints it for REPO
# (default: this repository), repeated to 600k lines where REPO has fewer; the formats
# git prints only for a working repository (reflog, FETCH_HEAD, fsck, marks, bundles)
# come from a small one made here. One hyperfine run per format (whole process), each
# ratio measured in that run: CPU time (user + system, steadier on a loaded machine)
# and wall time, with the format given and with auto.
# Usage: HEXOID=build/hexoid sh bench/verify_speed.sh [REPO [LISTING...]]   (needs hyperfine)
# LISTING names the listings to time (default: all). With BENCH_DIR set, the listings are
# kept there and made only when it has none (to time again after a change).
set -eu
H=${HEXOID:?HEXOID must name the hexoid command}
# The listings are made and timed in another directory: a relative HEXOID is made absolute.
case $H in */*) H=$(cd "$(dirname "$H")" && pwd)/$(basename "$H") ;; esac
command -v hyperfine >/dev/null || { echo "verify_speed.sh: needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
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
if ! [ -s bundle ]; then
rep() { awk -v N=$N '{ l[n++] = $0 } END { for (i = 0; n && i < N; i++) print l[i % n] }' >"$1"; }
git_() { git -c user.name=hexoid -c user.email=hexoid@example.com -c init.defaultBranch=main "$@"; }

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
fi

printf '%-18s %-13s %9s %10s %10s %10s %10s\n' listing format 'wc -l ms' 'cpu given' 'cpu auto' 'wall given' 'wall auto'
for f in oids rev-list:rev-list rev-list-parents:rev-list log-trees:rev-list pack-objects \
	batch-check batch-deltas:batch-check show-index verify-pack ls-tree ls-tree-long:ls-tree \
	ls-tree-z ls-files ls-files-z diff-raw for-each-ref show-ref ls-remote packed-refs \
	fetch-head reflog fsck promisor marks bundle; do
	file=${f%%:*} fmt=${f##*:}
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$file"; then continue; fi
	$H verify --format=$fmt $file 2>/dev/null || { echo "verify_speed.sh: $file is not valid as $fmt" >&2; exit 1; }
	hyperfine -N --warmup 2 --runs 10 --export-csv "$file.csv" \
		"wc -l $file" "$H verify --format=$fmt $file" "$H verify $file" >/dev/null 2>&1
	awk -F, -v name=$file -v fmt=$fmt 'NR > 1 { cpu[NR - 1] = $5 + $6; wall[NR - 1] = $4 }
		END { printf "%-18s %-13s %9.1f %9.2fx %9.2fx %9.2fx %9.2fx\n", name, fmt, cpu[1] * 1000,
			cpu[2] / cpu[1], cpu[3] / cpu[1], wall[2] / wall[1], wall[3] / wall[1] }' "$file.csv"
done
