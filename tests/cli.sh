#!/bin/sh
# The hexoid command against listings made by the installed git, in SHA-1 and SHA-256
# repositories, and the same listings broken in known places: exact LINE:COL, message
# and exit code. Prints "ok N - ..." / "not ok N - ..." lines for the test runner.
# Needs: HEXOID (the command, possibly behind an emulator prefix).
set -u
. "$(dirname "$0")/lib.sh"

# expect NAME STATUS STDERR-SUBSTRING|'' INPUT-FILE ARGS...: run hexoid with ARGS on
# INPUT-FILE as stdin; STATUS and (if given) a line of stderr must match.
expect() {
	name=$1 want=$2 pattern=$3 input=$4
	shift 4
	$H "$@" <"$input" >"$tmp/out" 2>"$tmp/err"
	judge "$name" "$want" "$pattern" $?
}

# Replace column COL (1-based) of line LINE of FILE with CHAR, into OUT.
plant() {
	awk -v l="$2" -v c="$3" -v ch="$4" 'NR == l { $0 = substr($0, 1, c - 1) ch substr($0, c + 1) } { print }' "$1" >"$5"
}


# A repository with history, branches, annotated and lightweight tags, packed refs.
make_repo() { # make_repo DIR FORMAT
	git_ init -q --object-format="$2" "$1" || return 1
	(
		cd "$1" || exit 1
		for i in 1 2 3 4 5 6; do
			mkdir -p "dir $i"
			echo "content $i" >"dir $i/file $i.txt"
			echo "top $i" >top.txt
			git_ add -A && git_ commit -q -m "commit $i"
			[ $i = 3 ] && git_ branch side && git_ tag -a -m "annotated" v1
		done
		git_ tag light
		git_ checkout -q side && echo side >side.txt && git_ add -A && git_ commit -q -m side
		git_ checkout -q main && git_ pack-refs --all
	)
}

for fmt in sha1 sha256; do
	if [ $fmt = sha1 ]; then hexsz=40 rawsz=20; else hexsz=64 rawsz=32; fi
	repo=$tmp/repo-$fmt
	if ! make_repo "$repo" $fmt >"$tmp/git.log" 2>&1; then
		fail "$fmt: git cannot make a repository"
		sed 's/^/#   /' "$tmp/git.log" | head -5
		continue
	fi
	ids=$tmp/ids-$fmt
	git -C "$repo" rev-list --objects --all | cut -c1-$hexsz >"$ids"
	git -C "$repo" cat-file --batch-all-objects --batch-check='%(objectname)' >"$tmp/all-$fmt"
	lines=$(wc -l <"$ids")

	expect "$fmt: rev-list --objects IDs are valid" 0 "" "$ids" verify
	expect "$fmt: --algo=$fmt" 0 "" "$ids" verify --algo=$fmt
	expect "$fmt: cat-file --batch-all-objects listing" 0 "" "$tmp/all-$fmt" verify "$tmp/all-$fmt"
	git -C "$repo" rev-parse HEAD side v1 >"$tmp/revs"
	expect "$fmt: rev-parse output" 0 "" "$tmp/revs" verify -
	echo HEAD | git -C "$repo" pack-objects --revs -q "$tmp/pk-$fmt" >"$tmp/packout"
	expect "$fmt: pack-objects output" 0 "" "$tmp/packout" verify
	git_ clone -q --depth 1 "file://$repo" "$tmp/shallow-$fmt" 2>/dev/null
	expect "$fmt: .git/shallow" 0 "" /dev/null verify "$tmp/shallow-$fmt/.git/shallow"

	# decode writes exactly rawsz bytes per line; encode gives the listing back.
	$H decode <"$ids" >"$tmp/bin" 2>"$tmp/err"
	if [ $? = 0 ] && [ "$(wc -c <"$tmp/bin")" = $((lines * rawsz)) ]; then
		pass "$fmt: decode writes $rawsz bytes per ID"
	else
		fail "$fmt: decode output size"
	fi
	$H encode --algo=$fmt <"$tmp/bin" >"$tmp/back"
	if cmp -s "$tmp/back" "$ids"; then pass "$fmt: encode gives git's lines back"; else fail "$fmt: encode round trip"; fi

	# The same listing, broken.
	plant "$ids" 3 7 A "$tmp/upper"
	expect "$fmt: uppercase at 3:7" 1 "<stdin>:3:7: error: uppercase hex digit 'A'" "$tmp/upper" verify
	expect "$fmt: --mixed accepts uppercase" 0 "" "$tmp/upper" verify --mixed
	expect "$fmt: named file in the report" 1 "$tmp/upper:3:7: error:" /dev/null verify "$tmp/upper"
	plant "$ids" 5 $hexsz z "$tmp/bad"
	expect "$fmt: invalid digit at 5:$hexsz" 1 "<stdin>:5:$hexsz: error: invalid hex digit 'z'" "$tmp/bad" verify --mixed
	awk 'NR == 2 { $0 = substr($0, 2) } { print }' "$ids" >"$tmp/short"
	expect "$fmt: short line" 1 "<stdin>:2:$hexsz: error: object ID too short: $((hexsz - 1)) hex digits" "$tmp/short" verify --algo=$fmt
	awk 'NR == 4 { $0 = $0 "0" } { print }' "$ids" >"$tmp/long"
	expect "$fmt: long line" 1 "<stdin>:4:$((hexsz + 1)): error: line too long" "$tmp/long" verify
	awk 'NR == 6 { $0 = "" } { print }' "$ids" >"$tmp/empty"
	expect "$fmt: empty line" 1 "<stdin>:6:1: error: empty line" "$tmp/empty" verify --format=oids
	sed 's/$/\r/' "$ids" >"$tmp/crlf"
	expect "$fmt: CRLF" 1 "<stdin>:1:$((hexsz + 1)): error: carriage return before end of line" "$tmp/crlf" verify
	{ head -n 2 "$ids"; printf '%s\000%s\n' "$(head -c 10 "$ids")" "$(sed -n 3p "$ids" | cut -c12-)"; } >"$tmp/nul"
	expect "$fmt: NUL byte" 1 "<stdin>:3:11: error: NUL byte in line" "$tmp/nul" verify
	head -c $((lines * (hexsz + 1) - 1)) "$ids" >"$tmp/nolf"
	expect "$fmt: last line without LF" 0 "" "$tmp/nolf" verify
	{ cat "$tmp/upper" "$tmp/bad"; } >"$tmp/several"
	expect "$fmt: --max-errors=1 stops" 1 "stopped after 1 errors" "$tmp/several" verify --max-errors=1
	if [ "$(grep -c ': error:' "$tmp/err")" = 1 ]; then pass "$fmt: exactly one report"; else fail "$fmt: --max-errors=1 reported $(grep -c ': error:' "$tmp/err")"; fi
	$H decode <"$tmp/upper" >"$tmp/bin2" 2>/dev/null
	if [ $? = 1 ] && [ "$(wc -c <"$tmp/bin2")" = $(((lines - 1) * rawsz)) ]; then
		pass "$fmt: decode leaves out the bad line, writes the rest whole"
	else
		fail "$fmt: decode of a bad listing"
	fi

	# Every usable kernel, forced, reports the same.
	for k in $($H kernels | awk '$3 == "yes" { print $1 == "*" ? $2 : $1 }'); do
		HEXOID_KERNEL=$k $H verify <"$tmp/upper" 2>"$tmp/kerr"
		if [ $? = 1 ] && grep -qF "<stdin>:3:7: error: uppercase" "$tmp/kerr"; then
			pass "$fmt: kernel $k finds 3:7"
		else
			fail "$fmt: kernel $k"
		fi
	done
done

# A big listing: the buffer boundaries fall inside lines, and line numbers stay exact.
ids=$tmp/ids-sha1
awk '{ a[NR] = $0 } END { for (i = 0; i < 120000; i++) print a[i % NR + 1] }' "$ids" >"$tmp/big"
plant "$tmp/big" 100001 40 G "$tmp/bigbad"
expect "120000 lines, error at 100001:40" 1 "<stdin>:100001:40: error: invalid hex digit 'G'" "$tmp/bigbad" verify --mixed
expect "120000 lines valid" 0 "" "$tmp/big" verify
# A line longer than the 1 MiB buffer is reported once; the lines after it still count.
{ head -n 2 "$ids"; head -c 3000000 /dev/zero | tr '\0' a; echo; head -n 2 "$ids"; echo bad; } >"$tmp/huge"
expect "a 3 MB line" 1 "<stdin>:3:41: error: line too long: more than" "$tmp/huge" verify
if grep -qF "<stdin>:6:4: error: object ID too short" "$tmp/err"; then pass "line numbers after a 3 MB line"; else fail "line numbers after a 3 MB line"; fi

# Mixed formats and the wrong --algo.
cat "$tmp/ids-sha1" "$tmp/ids-sha256" >"$tmp/mixedfmt"
first256=$(($(wc -l <"$tmp/ids-sha1") + 1))
expect "auto: a sha256 line in a sha1 listing" 1 "<stdin>:$first256:41: error: line too long" "$tmp/mixedfmt" verify
expect "--algo=sha256 on a sha1 listing" 1 "<stdin>:1:41: error: object ID too short" "$tmp/ids-sha1" verify --algo=sha256
printf 'abc\n' >"$tmp/odd"
expect "auto cannot tell the format" 2 "hexoid: <stdin>: cannot tell which git output this is" "$tmp/odd" verify
expect "empty input is valid" 0 "" /dev/null verify

# Usage and I/O errors: exit 2.
expect "missing file" 2 "no-such-file: No such file or directory" /dev/null verify "$tmp/no-such-file"
expect "a directory" 2 "Is a directory" /dev/null verify "$tmp"
expect "unknown option" 2 "unknown option '--frobnicate'" /dev/null verify --frobnicate
expect "unknown algo" 2 "unknown --algo 'md5'" /dev/null verify --algo=md5
expect "bad --max-errors" 2 "bad --max-errors 'x'" /dev/null verify --max-errors=x
expect "unknown command" 2 "unknown command 'frob'" /dev/null frob
expect "no command" 2 "usage: hexoid" /dev/null
expect "verify --help" 0 "" /dev/null verify --help
grep -q -- "--max-errors=N" "$tmp/out" && pass "verify --help describes --max-errors" || fail "verify --help"
expect "--version" 0 "" /dev/null --version
grep -q "^hexoid [0-9]" "$tmp/out" && pass "--version prints the version" || fail "--version output"

# encode: a trailing partial ID is reported, whole IDs before it written.
$H decode --algo=sha1 <"$tmp/ids-sha1" | head -c 45 >"$tmp/partial"
expect "encode: trailing bytes" 1 "5 trailing bytes after 2 object IDs" "$tmp/partial" encode
[ "$(wc -l <"$tmp/out")" = 2 ] && pass "encode wrote the 2 whole IDs" || fail "encode partial output"

# kernels: the table, and what happens to an unusable HEXOID_KERNEL.
expect "kernels" 0 "" /dev/null kernels
grep -q '^\* ' "$tmp/out" && grep -q '^cpu features:' "$tmp/out" && pass "kernels marks the active one" || fail "kernels output"
HEXOID_KERNEL=no-such $H kernels >"$tmp/out" 2>&1
grep -q "HEXOID_KERNEL=no-such ignored: unknown kernel" "$tmp/out" && pass "kernels says HEXOID_KERNEL is ignored" || fail "kernels and a bad HEXOID_KERNEL"
HEXOID_KERNEL=scalar $H kernels >"$tmp/out" 2>&1
grep -q "^\* scalar" "$tmp/out" && pass "HEXOID_KERNEL=scalar forces scalar" || fail "HEXOID_KERNEL=scalar"
exit 0
