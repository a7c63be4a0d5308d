#!/bin/sh
# hexoid verify --format=... against every listing format as the installed git prints it,
# in SHA-1 and SHA-256 repositories; then each listing with one object ID broken, where
# the exact LINE:COL and exit status are checked, with the format given and with auto.
# Prints "ok N - ..." / "not ok N - ..." lines. Needs: HEXOID.
set -u
. "$(dirname "$0")/lib.sh"

expect() { # expect NAME STATUS STDERR-SUBSTRING|'' FILE ARGS...
	name=$1 want=$2 pattern=$3 input=$4
	shift 4
	$H "$@" "$input" >"$tmp/out" 2>"$tmp/err"
	judge "$name" "$want" "$pattern" $?
}


# Replace the byte at column COL of line LINE with 'G' (never a hex digit).
plant() { # plant FILE LINE COL OUT
	awk -v l="$2" -v c="$3" 'NR == l { $0 = substr($0, 1, c - 1) "G" substr($0, c + 1) } { print }' "$1" >"$4"
}

for fmt in sha1 sha256; do
	if [ $fmt = sha1 ]; then hexsz=40; else hexsz=64; fi
	repo=$tmp/repo-$fmt
	(
		set -e
		git_ init -q --object-format=$fmt "$repo"
		cd "$repo"
		for i in 1 2 3 4 5; do
			mkdir -p "d $i" && echo "$i" >"d $i/f $i" && echo "$i" >top
			git_ add -A && git_ commit -q -m "c $i"
			if [ $i = 2 ]; then git_ branch side && git_ tag -a -m a v1; fi
		done
		git_ tag light && git_ pack-refs --all && git_ repack -adq
		git_ clone -q "file://$repo" "$tmp/clone-$fmt" && git_ -C "$tmp/clone-$fmt" fetch -q origin
	) >"$tmp/git.log" 2>&1 || { fail "$fmt: git cannot make the repositories"; sed 's/^/#   /' "$tmp/git.log" | tail -3; continue; }
	L=$tmp/$fmt
	mkdir -p "$L"
	# name|line|column of an object ID's first digit on that line|file
	git -C "$repo" rev-list --objects --all >"$L/rev-list"
	git -C "$repo" rev-list --objects --boundary main ^side >"$L/pack-objects"
	{ git -C "$repo" rev-parse HEAD side v1; echo nosuch; } | git -C "$repo" cat-file --batch-check >"$L/batch-check"
	git -C "$repo" show-index --object-format=$fmt <"$(ls "$repo"/.git/objects/pack/*.idx)" >"$L/show-index" 2>/dev/null ||
		git -C "$repo" show-index <"$(ls "$repo"/.git/objects/pack/*.idx)" >"$L/show-index"
	git -C "$repo" verify-pack -v "$(ls "$repo"/.git/objects/pack/*.idx)" >"$L/verify-pack"
	git -C "$repo" ls-tree -r HEAD >"$L/ls-tree"
	git -C "$repo" for-each-ref >"$L/for-each-ref"
	cp "$repo/.git/packed-refs" "$L/packed-refs"
	cp "$tmp/clone-$fmt/.git/FETCH_HEAD" "$L/fetch-head"
	cp "$repo/.git/logs/HEAD" "$L/reflog"

	# Where the first ID of line 2 starts, per format.
	for f in rev-list pack-objects batch-check show-index verify-pack ls-tree for-each-ref packed-refs fetch-head reflog; do
		file=$L/$f
		[ -s "$file" ] || { fail "$fmt $f: git printed nothing"; continue; }
		expect "$fmt $f: git's own listing is valid" 0 "" "$file" verify --format=$f
		expect "$fmt $f: recognised by --format=auto" 0 "" "$file" verify --format=auto
		line=2
		case $f in
		show-index) col=$(($(sed -n 2p "$file" | cut -d' ' -f1 | wc -c) + 1)) ;;
		ls-tree) col=13 ;;
		packed-refs) col=1 ;;
		reflog) col=$((hexsz + 2)) ;; # the new ID
		*) col=1 ;;
		esac
		bad=$((col + 5))
		plant "$file" $line $bad "$file.bad"
		expect "$fmt $f: a bad digit at $line:$bad" 1 ":$line:$bad: error: invalid hex digit 'G'" "$file.bad" verify --format=$f
		expect "$fmt $f: auto finds it too" 1 ":$line:$bad: error: invalid hex digit 'G'" "$file.bad" verify --format=auto
		awk -v l=$line -v c=$col -v h=$hexsz 'NR == l { $0 = substr($0, 1, c - 1) toupper(substr($0, c, h)) substr($0, c + h) } { print }' "$file" >"$file.upper"
		if cmp -s "$file" "$file.upper"; then
			pass "$fmt $f: (line $line has no letter digits to uppercase)"
		else
			expect "$fmt $f: uppercase is a Git 3.0 error" 1 ":$line:" "$file.upper" verify --format=$f
			grep -q "uppercase hex digit" "$tmp/err" && pass "$fmt $f: reported as uppercase" || fail "$fmt $f: not reported as uppercase"
			expect "$fmt $f: --mixed accepts uppercase" 0 "" "$file.upper" verify --format=$f --mixed
		fi
	done

	# rev-list --format=%B: an empty line after each message, valid with the format
	# named; auto cannot tell it from git log's own output, and says so.
	git -C "$repo" rev-list --format=%B --all >"$L/rev-list-body"
	expect "$fmt rev-list --format=%B: its empty lines are the format's" 0 "" "$L/rev-list-body" verify --format=rev-list-format
	expect "$fmt rev-list --format=%B: auto says it cannot tell" 2 "cannot tell which git output this is" "$L/rev-list-body" verify

	# decode writes every ID of every good line: reflog lines hold two.
	$H decode --format=reflog "$L/reflog" >"$tmp/raw"
	want=$(($(wc -l <"$L/reflog") * 2 * hexsz / 2))
	[ "$(wc -c <"$tmp/raw")" = "$want" ] && pass "$fmt: decode --format=reflog writes both IDs of each line" || fail "$fmt: decode --format=reflog size"
done

# Grammar errors name what was expected.
L=$tmp/sha1
sed '1s/ commit / comit /' "$L/batch-check" >"$tmp/typo"
expect "batch-check: a bad type" 1 ":1:42: error: expected an object type" "$tmp/typo" verify --format=batch-check
sed '2s/	/ /' "$L/ls-tree" >"$tmp/notab"
expect "ls-tree: a space for the tab" 1 ":2:53: error: expected a tab after the object ID, found ' '" "$tmp/notab" verify --format=ls-tree
l=$(grep -n ' ' "$L/rev-list" | head -n 1 | cut -d: -f1)
sed "${l}s/^\([0-9a-f]*\) /\10 /" "$L/rev-list" >"$tmp/longid"
expect "rev-list: a 41-digit ID" 1 ":$l:41: error: object ID too long" "$tmp/longid" verify --format=rev-list
expect "unknown --format" 2 "unknown --format 'nope'" "$L/rev-list" verify --format=nope

# verify --json: JSON lines on stdout, each with "schema": 1 and its "type"; a problem's
# code and class are stable names; a file's summary; a reason to exit 2 is an "error"
# object as well as a line on stderr; the run last, with the exit status.
L=$tmp/sha1
plant "$L/rev-list" 2 6 "$tmp/j.bad"
awk 'NR == 3 { $0 = toupper(substr($0, 1, 40)) substr($0, 41) } { print }' "$tmp/j.bad" >"$tmp/j.both"
$H verify --json "$tmp/j.both" "$L/reflog" "$tmp/nonexistent" >"$tmp/j.out" 2>"$tmp/j.err"
st=$?
[ $st = 2 ] && pass "--json: exit 2 with a file that cannot be read" || fail "--json: exit $st, expected 2"
if [ "$(grep -vc '^{"schema": 1, "type": "[a-z]*", .*}$' "$tmp/j.out")" = 0 ] && [ "$(wc -l <"$tmp/j.out")" = 6 ]; then
	pass "--json: six JSON lines, each with schema and type"
else
	fail "--json: not six JSON lines with schema and type"
	sed 's/^/#   /' "$tmp/j.out"
fi
want1="{\"schema\": 1, \"type\": \"problem\", \"file\": \"$tmp/j.both\", \"line\": 2, \"column\": 6, \"code\": \"bad-hex\", \"class\": \"error\", \"message\": \"invalid hex digit 'G' in object ID\"}"
[ "$(sed -n 1p "$tmp/j.out")" = "$want1" ] && pass "--json: a bad digit, its code and class" ||
	{ fail "--json: the first problem"; sed -n 1p "$tmp/j.out" | sed 's/^/#   /'; }
sed -n 2p "$tmp/j.out" | grep -q '"line": 3, "column": [0-9]*, "code": "uppercase-id", "class": "git3", "message": "uppercase hex digit' &&
	pass "--json: an uppercase digit is uppercase-id, git3" || fail "--json: the uppercase problem"
sed -n 3p "$tmp/j.out" | grep -q "\"type\": \"summary\", \"file\": \"$tmp/j.both\", \"format\": \"rev-list\", \"object_format\": \"sha1\", \"lines\": $(wc -l <"$tmp/j.both"), .*\"bad_lines\": 2, \"problems\": 2, \"exit\": 1}" &&
	pass "--json: the file's summary" || fail "--json: the file's summary"
sed -n 4p "$tmp/j.out" | grep -q '"type": "summary", .*"format": "reflog", .*"bad_lines": 0, "problems": 0, "exit": 0}' &&
	pass "--json: a clean file's summary" || fail "--json: the clean file's summary"
sed -n 5p "$tmp/j.out" | grep -q "\"type\": \"error\", \"file\": \"$tmp/nonexistent\", \"message\": \"$tmp/nonexistent: No such file or directory\"}" &&
	grep -q "^hexoid: $tmp/nonexistent: No such file" "$tmp/j.err" &&
	pass "--json: the unreadable file is an error object, and a line on stderr" || fail "--json: the error object"
sed -n 6p "$tmp/j.out" | grep -q '"type": "run", "command": "verify", "files": 3, "clean": 1, "with_problems": 1, "not_checked": 1, .*"problems": 2, "stopped": false, "exit": 2}$' &&
	pass "--json: the run, last" || fail "--json: the run"
grep -q ': error: ' "$tmp/j.err" && fail "--json: the text report on stderr too" || pass "--json: no text report"
$H verify --json --format=nope "$L/rev-list" >"$tmp/j.out" 2>"$tmp/j.err"
st=$?
[ $st = 2 ] && grep -q "^{\"schema\": 1, \"type\": \"error\", \"file\": null, \"message\": \"unknown --format 'nope'\"}$" "$tmp/j.out" &&
	pass "--json: a usage error is an error object" || fail "--json: a usage error (exit $st)"
$H decode --json "$L/rev-list" >/dev/null 2>"$tmp/err"
judge "--json is verify's, not decode's" 2 "unknown option '--json'" $?
exit 0
