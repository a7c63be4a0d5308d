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
exit 0
