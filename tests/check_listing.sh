#!/bin/sh
# hexoid check-listing: the bulk verification of pack-objects output against the pack
# index git wrote, in SHA-1 and SHA-256 repositories: listings that hold, IDs missing,
# repeated or malformed (exact LINE:COL), --exact both ways, and unusable input (exit 2).
# Also: a pack-objects output line with invalid hex of the right length, which git's
# index-pack (repack_local_links) lets through, is caught here.
# Prints "ok N - ..." / "not ok N - ..." lines. Needs: HEXOID.
set -u
. "$(dirname "$0")/lib.sh"
expect() { # expect NAME STATUS STDERR-SUBSTRING|'' ARGS...
	name=$1 want=$2 pattern=$3
	shift 3
	$H "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	judge "$name" "$want" "$pattern" $?
}

for fmt in sha1 sha256; do
	if [ $fmt = sha1 ]; then hexsz=40; else hexsz=64; fi
	r=$tmp/repo-$fmt
	(
		set -e
		git_ init -q --object-format=$fmt "$r"
		for i in $(seq 1 30); do
			echo "$i" >"$r/f$((i % 7))"
			git_ -C "$r" add -A && git_ -C "$r" commit -q -m "c$i"
		done
	) >"$tmp/git.log" 2>&1 || { fail "$fmt: git cannot make a repository"; continue; }
	# pack-objects prints the pack's name; its input and the .idx are what we check.
	git -C "$r" rev-list --objects --all >"$tmp/objects"
	name=$(git -C "$r" pack-objects -q "$tmp/pk-$fmt" <"$tmp/objects")
	idx=$tmp/pk-$fmt-$name.idx
	cut -c1-$hexsz "$tmp/objects" >"$tmp/ids-$fmt"
	L=$tmp/ids-$fmt
	count=$(wc -l <"$L")

	expect "$fmt: every listed ID is in the pack" 0 "" check-listing --idx "$idx" "$L"
	expect "$fmt: --exact holds for the whole listing" 0 "" check-listing --idx "$idx" --exact "$L"
	expect "$fmt: rev-list lines with --format=rev-list" 0 "" check-listing --idx "$idx" --exact --format=rev-list "$tmp/objects"
	expect "$fmt: --object-format=$fmt" 0 "" check-listing --idx "$idx" --object-format=$fmt "$L"
	expect "$fmt: rev-list lines with --format=auto" 0 "" check-listing --idx "$idx" --exact --format=auto "$tmp/objects"
	git -C "$r" log >"$tmp/log"
	expect "$fmt: auto cannot tell git log" 2 "hexoid: $tmp/log: cannot tell which git output this is" \
		check-listing --idx "$idx" --format=auto "$tmp/log"
	head -n $((count - 2)) "$L" >"$tmp/part"
	expect "$fmt: a partial listing holds without --exact" 0 "" check-listing --idx "$idx" "$tmp/part"
	expect "$fmt: --exact names the packed objects not listed" 1 "is in the pack but not listed" check-listing --idx "$idx" --exact "$tmp/part"
	[ "$(grep -c 'is in the pack but not listed' "$tmp/err")" = 2 ] && pass "$fmt: exactly the 2 unlisted objects" || fail "$fmt: unlisted count"
	last=$(tail -n 1 "$tmp/err")
	[ "$last" = "hexoid: 2 errors in $((count - 2)) lines: 2 packed objects not listed" ] &&
		pass "$fmt: the count line" || fail "$fmt: the count line is '$last'"
	# An object the pack does not have, at line 3.
	{ head -n 2 "$L"; git -C "$r" hash-object --stdin </dev/null | sed 's/^/x/' | cut -c2-; tail -n +3 "$L"; } >"$tmp/extra"
	expect "$fmt: a listed ID not in the pack" 1 ":3:1: error: object $(sed -n 3p "$tmp/extra") is not in the pack" check-listing --idx "$idx" "$tmp/extra"
	{ cat "$L"; sed -n 5p "$L"; } >"$tmp/dup"
	expect "$fmt: --exact reports an ID listed twice" 1 ":$((count + 1)):1: error: object $(sed -n 5p "$L") listed again (first at line 5)" check-listing --idx "$idx" --exact "$tmp/dup"
	# index-pack's repack_local_links() only checks the length of these lines: invalid
	# hex of the right length passes there. Here it is an error at its exact column.
	awk 'NR == 4 { $0 = substr($0, 1, 9) "z" substr($0, 11) } { print }' "$L" >"$tmp/badhex"
	expect "$fmt: invalid hex of the right length is caught (git's index-pack misses it)" 1 ":4:10: error: invalid hex digit 'z'" check-listing --idx "$idx" "$tmp/badhex"
	last=$(tail -n 1 "$tmp/err")
	[ "$last" = "hexoid: 1 error in $count lines: 1 bad line" ] && pass "$fmt: the count line of a bad line" ||
		fail "$fmt: the count line is '$last'"
	{ cat "$tmp/badhex"; sed -n 5p "$L"; sed -n 3p "$tmp/extra"; } >"$tmp/all3"
	expect "$fmt: a bad line, a repeat and a stranger" 1 "" check-listing --idx "$idx" --exact "$tmp/all3"
	last=$(tail -n 1 "$tmp/err")
	[ "$last" = "hexoid: 4 errors in $((count + 2)) lines: 1 bad line, 1 not in the pack, 1 listed again, 1 packed object not listed" ] &&
		pass "$fmt: the count line names each kind" || fail "$fmt: the count line is '$last'"
	awk 'NR == 6 { $0 = toupper($0) } { print }' "$L" >"$tmp/upper"
	expect "$fmt: uppercase is a Git 3.0 error" 1 ":6:" check-listing --idx "$idx" "$tmp/upper"
	expect "$fmt: --mixed accepts it" 0 "" check-listing --idx "$idx" --mixed "$tmp/upper"
	# Unusable input: exit 2.
	head -c 100 "$idx" >"$tmp/cut.idx"
	expect "$fmt: a truncated index" 2 "cut.idx: error:" check-listing --idx "$tmp/cut.idx" "$L"
	expect "$fmt: a missing listing" 2 "no-such: No such file" check-listing --idx "$idx" "$tmp/no-such"
done
# The wrong hash: a sha256 listing against a sha1 index.
idx1=$(ls "$tmp"/pk-sha1-*.idx)
expect "a sha256 listing against a sha1 index" 1 ":1:41: error: line too long" check-listing --idx "$idx1" "$tmp/ids-sha256"
expect "no --idx" 2 "needs --idx" check-listing "$tmp/ids-sha1"
expect "--help" 0 "" check-listing --help
grep -q -- "--exact" "$tmp/out" && pass "--help describes --exact" || fail "--help"
exit 0
