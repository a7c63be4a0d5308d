#!/bin/sh
# hexoid show-index against git show-index on pack indexes made by the installed git:
# SHA-1 and SHA-256, version 1 and 2, 64-bit offsets, an empty pack; then indexes broken
# in known places (every truncation of a small one, flipped header, fanout and ID bytes,
# a large-offset index out of range): exit status exactly 2 and a clear message each.
# Prints "ok N - ..." / "not ok N - ..." lines for the test runner.
# Needs: HEXOID (the command, possibly behind an emulator prefix).
set -u
. "$(dirname "$0")/lib.sh"

# expect NAME STATUS STDERR-SUBSTRING|'' INPUT-FILE ARGS...: run hexoid with ARGS and
# INPUT-FILE as stdin; the status must be exactly STATUS and (if given) stderr must hold
# the substring. A failed status >= 2 (a usage error or worse) must print nothing.
expect() {
	name=$1 want=$2 pattern=$3 input=$4
	shift 4
	$H "$@" <"$input" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$want" = 2 ] && [ "$got" = 2 ] && [ -s "$tmp/out" ]; then
		fail "$name: printed something before failing"
	else
		# judge looks for the pattern with grep: one the shell finds first need not be.
		[ -n "$pattern" ] && has "$tmp/err" "$pattern" && pattern=
		judge "$name" "$want" "$pattern" $got
	fi
}
# has FILE TEXT: a line of FILE holds TEXT (a shell loop: no process).
has() {
	while IFS= read -r h_line || [ -n "$h_line" ]; do
		case $h_line in *"$2"*) return 0 ;; esac
	done <"$1"
	return 1
}

# same NAME IDX FORMAT: hexoid show-index prints exactly what git show-index prints, from
# the named file, from stdin as a file, and from a pipe. (sh has no local variables: the
# s_ names are this function's own.)
same() {
	s_name=$1 s_idx=$2 s_fmt=$3
	if ! git show-index --object-format="$s_fmt" <"$s_idx" >"$tmp/git.out" 2>"$tmp/git.err"; then
		fail "$s_name: git show-index failed"
		sed 's/^/#   /' "$tmp/git.err" | head -3
		return
	fi
	ok=1
	$H show-index "$s_idx" >"$tmp/h1" 2>"$tmp/err" || ok=0
	$H show-index --object-format="$s_fmt" <"$s_idx" >"$tmp/h2" 2>>"$tmp/err" || ok=0
	cat "$s_idx" | $H show-index --object-format "$s_fmt" - >"$tmp/h3" 2>>"$tmp/err" || ok=0
	for s_f in h1 h2 h3; do cmp -s "$tmp/git.out" "$tmp/$s_f" || ok=0; done
	if [ $ok = 1 ]; then
		pass "$s_name: same bytes as git show-index ($(wc -l <"$tmp/git.out") objects)"
	else
		fail "$s_name: differs from git show-index"
		sed 's/^/#   /' "$tmp/err" | head -3
		diff "$tmp/git.out" "$tmp/h1" | head -5 | sed 's/^/#   /'
	fi
}

# poke FILE OFFSET OCTAL-ESCAPES: overwrite bytes in place.
poke() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
# be32 N: the octal escapes of N as 4 big-endian bytes, for poke.
be32() { printf '\\%03o\\%03o\\%03o\\%03o' $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)); }
# copy_bytes FROM OFFSET COUNT TO OFFSET: overwrite bytes of TO with bytes of FROM.
copy_bytes() { dd if="$1" bs=1 skip="$2" count="$3" 2>/dev/null | dd of="$4" bs=1 seek="$5" conv=notrunc 2>/dev/null; }

# fresh IDX: a writable copy of IDX in $b, to break.
fresh() { cat "$1" >"$b"; }

# Enough objects to fill most of the 256 fanout buckets: 3 commits of 200 files each.
make_repo() { # make_repo DIR FORMAT
	git_ init -q --object-format="$2" "$1" || return 1
	(
		cd "$1" || exit 1
		mkdir d0 d1 d2 d3 d4 d5 d6 d7 d8 d9
		for c in 1 2 3; do
			i=0
			while [ $i -lt 200 ]; do
				echo "commit $c file $i" >"d$((i % 10))/f$i"
				i=$((i + 1))
			done
			git_ add -A && git_ commit -q -m "commit $c" || exit 1
		done
		git_ repack -adq
	)
}

for fmt in sha1 sha256; do
	if [ $fmt = sha1 ]; then rawsz=20; else rawsz=32; fi
	repo=$tmp/repo-$fmt
	if ! make_repo "$repo" $fmt >"$tmp/git.log" 2>&1; then
		fail "$fmt: git cannot make a repository"
		sed 's/^/#   /' "$tmp/git.log" | head -5
		continue
	fi
	pack=$(ls "$repo"/.git/objects/pack/pack-*.pack)
	idx=${pack%.pack}.idx
	same "$fmt: v2 index from git repack" "$idx" $fmt
	nobj=$(wc -l <"$tmp/git.out")
	git -C "$repo" index-pack --index-version=1 -o "$tmp/v1-$fmt.idx" "$pack" >/dev/null
	same "$fmt: v1 index from git index-pack --index-version=1" "$tmp/v1-$fmt.idx" $fmt
	# Objects past byte 0x100 of the pack get 64-bit offsets; with ",0" every one does.
	git -C "$repo" index-pack --index-version=2,0x100 -o "$tmp/large-$fmt.idx" "$pack" >/dev/null
	same "$fmt: v2 index with 64-bit offsets (--index-version=2,0x100)" "$tmp/large-$fmt.idx" $fmt
	git -C "$repo" index-pack --index-version=2,0 -o "$tmp/all-large-$fmt.idx" "$pack" >/dev/null
	same "$fmt: v2 index with only 64-bit offsets (--index-version=2,0)" "$tmp/all-large-$fmt.idx" $fmt
	if [ "$(wc -c <"$tmp/large-$fmt.idx")" -gt "$(wc -c <"$idx")" ]; then
		pass "$fmt: the 2,0x100 index has a large-offset table"
	else
		fail "$fmt: git wrote no large offsets for 2,0x100"
	fi
	# Every usable kernel, forced, encodes the same lines.
	git show-index --object-format=$fmt <"$tmp/large-$fmt.idx" >"$tmp/git.out"
	for k in $($H kernels | awk '$3 == "yes" { print $1 == "*" ? $2 : $1 }'); do
		if HEXOID_KERNEL=$k $H show-index "$tmp/large-$fmt.idx" | cmp -s - "$tmp/git.out"; then
			pass "$fmt: kernel $k prints what git prints"
		else
			fail "$fmt: kernel $k differs from git show-index"
		fi
	done
	git -C "$repo" pack-objects -q "$tmp/empty-$fmt" </dev/null >"$tmp/empty-name"
	same "$fmt: index of an empty pack" "$tmp/empty-$fmt-$(cat "$tmp/empty-name").idx" $fmt

	other=sha256
	[ $fmt = sha256 ] && other=sha1
	expect "$fmt: v2 index told --object-format=$other" 2 "<stdin>: error: " "$idx" show-index --object-format=$other
	expect "$fmt: v1 index told --object-format=$other" 2 "<stdin>: error: " "$tmp/v1-$fmt.idx" show-index --object-format=$other

	# Broken copies of the v2 index with 64-bit offsets. N objects; IDs at 1032.
	big=$tmp/large-$fmt.idx
	b=$tmp/broken.idx
	fresh "$big" && poke "$b" 0 '\376'
	expect "$fmt: magic ff -> fe" 2 "does not start with the v2 magic ff 74 4f 63" "$b" show-index
	fresh "$big" && poke "$b" 7 '\003'
	expect "$fmt: version 3" 2 "pack index version 3 at byte 4" "$b" show-index
	fresh "$big" && poke "$b" $((8 + 4 * 128)) "$(be32 65535)"
	expect "$fmt: fanout[128] too big" 2 "is less than fanout[128] = 65535: the counts must not decrease" "$b" show-index
	fresh "$idx" && poke "$b" $((8 + 4 * 255)) "$(be32 $((nobj + 1)))"
	expect "$fmt: fanout[255] = N + 1" 2 "index of $((nobj + 1)) objects (fanout[255] at byte 1028) needs at least" "$b" show-index --object-format=$fmt
	fresh "$big" && poke "$b" $((8 + 4 * 255)) '\377\377\377\377'
	expect "$fmt: fanout[255] = 2^32 - 1" 2 "4294967295 objects" "$b" show-index
	fresh "$big" && poke "$b" $((8 + 4 * 255 - 4 * 50)) '\000\000\000\000'
	expect "$fmt: fanout[205] = 0" 2 "fanout[205] = 0 at byte $((8 + 4 * 205)) is less than fanout[204]" "$b" show-index
	# Swap IDs 10 and 11, and repeat 20 as 21.
	fresh "$big"
	copy_bytes "$big" $((1032 + 10 * rawsz)) $rawsz "$b" $((1032 + 11 * rawsz))
	copy_bytes "$big" $((1032 + 11 * rawsz)) $rawsz "$b" $((1032 + 10 * rawsz))
	expect "$fmt: IDs 10 and 11 swapped" 2 "object IDs out of order: entry 11 (byte $((1032 + 11 * rawsz))) sorts before entry 10" "$b" show-index
	fresh "$big"
	copy_bytes "$big" $((1032 + 20 * rawsz)) $rawsz "$b" $((1032 + 21 * rawsz))
	expect "$fmt: ID 20 repeated" 2 "duplicate object ID: entry 21" "$b" show-index
	# A first byte moved out of its bucket (entry 0 becomes ff...).
	fresh "$big" && poke "$b" 1032 '\377'
	expect "$fmt: first ID's first byte ff" 2 "entry 1 (byte $((1032 + rawsz))) sorts before entry 0" "$b" show-index
	# A 64-bit offset index beyond the table: the first offset word.
	offs=$((1032 + nobj * (rawsz + 4)))
	fresh "$big" && poke "$b" $offs '\200\000\377\377'
	expect "$fmt: large offset index 65535" 2 "entry 0: offset word 8000ffff at byte $offs points to large offset 65535" "$b" show-index
	fresh "$big" && printf 'xyzw' >>"$b"
	expect "$fmt: 4 bytes appended" 2 "not a whole number of 8-byte large offsets" "$b" show-index --object-format=$fmt
	fresh "$tmp/v1-$fmt.idx" && printf 'x' >>"$b"
	expect "$fmt: v1 with a byte appended" 2 "1 more than a v1 $fmt index of $nobj objects" "$b" show-index --object-format=$fmt

	# The other files git writes beside (or instead of) an index: each named, never read
	# as a v1 fanout ("PACK" would be fanout[0] = 1346454347).
	expect "$fmt: the .pack itself" 2 "<stdin>: error: not a pack index: the file starts with 'PACK', so it is a pack (.pack)" "$pack" show-index
	expect "$fmt: the .pack, named" 2 "$pack: error: not a pack index: the file starts with 'PACK'" /dev/null show-index "$pack"
	head -c 300 "$pack" >"$tmp/head.pack"
	expect "$fmt: the first 300 bytes of the .pack" 2 "not a pack index: the file starts with 'PACK'" "$tmp/head.pack" show-index
	expect "$fmt: .git/index" 2 "not a pack index: the file starts with 'DIRC', so it is a git index" "$repo/.git/index" show-index
	git -C "$repo" index-pack --rev-index -o "$tmp/rev-$fmt.idx" "$pack" >/dev/null 2>&1
	if [ -s "$tmp/rev-$fmt.rev" ]; then
		expect "$fmt: a .rev" 2 "not a pack index: the file starts with 'RIDX', so it is a pack reverse index" "$tmp/rev-$fmt.rev" show-index
	else
		fail "$fmt: git index-pack --rev-index wrote no .rev"
	fi
	git -C "$repo" commit-graph write --reachable >/dev/null 2>&1
	expect "$fmt: a commit-graph" 2 "not a pack index: the file starts with 'CGPH', so it is a commit-graph file" "$repo/.git/objects/info/commit-graph" show-index
	git -C "$repo" bundle create "$tmp/b-$fmt.bundle" --all >/dev/null 2>&1
	expect "$fmt: a bundle" 2 "so it is a git bundle" "$tmp/b-$fmt.bundle" show-index
	git show-index --object-format=$fmt <"$idx" >"$tmp/listing"
	expect "$fmt: git show-index's own output" 2 "not a pack index: the file starts with text ('" "$tmp/listing" show-index
done

# Every truncation of small indexes (3 objects): exit 2 with an error, never a signal,
# nothing on stdout. A v2 SHA-1 index with 64-bit offsets, a v1 SHA-256 one.
small() { # small DIR FORMAT VERSION OUT
	git_ init -q --object-format="$2" "$1" &&
		(cd "$1" && echo small >f && git_ add f && git_ commit -q -m small) &&
		echo HEAD | git -C "$1" pack-objects -q --revs --index-version="$3" "$1/p" >"$1/name" &&
		cp "$1/p-$(cat "$1/name").idx" "$4"
}
small "$tmp/small1" sha1 2,0 "$tmp/small-v2.idx" >/dev/null 2>&1 || fail "small sha1 repository"
small "$tmp/small2" sha256 1 "$tmp/small-v1.idx" >/dev/null 2>&1 || fail "small sha256 repository"
# python3, where there is one, pipes every cut of both indexes to hexoid (below), one
# process a cut, not a head as well; $tmp/cuts.NAME holds its "#" lines and the count of
# bad results. Elsewhere the loop below runs a head for each.
if command -v python3 >/dev/null 2>&1; then
	python3 - "$H" "$tmp" small-v2.idx sha1 small-v1.idx sha256 2>"$tmp/cuts.err" <<'PY'
import subprocess, sys
h, tmp, cases = sys.argv[1].split(), sys.argv[2], sys.argv[3:]
for name, fmt in zip(cases[0::2], cases[1::2]):
    data = open(tmp + "/" + name, "rb").read()
    out = open(tmp + "/cuts." + name, "w")
    bad = 0
    n = len(data) - 1
    while n > 0:
        # Odd lengths told the format, even ones inferring it.
        opt = "--object-format=" + fmt if n % 2 == 1 else ""
        p = subprocess.run(h + ["show-index"] + ([opt] if opt else []), input=data[:n],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        got = p.returncode if p.returncode >= 0 else 128 - p.returncode
        line = p.stderr.split(b"\n", 1)[0].decode("utf-8", "replace")
        if got == 2 and line.startswith("<stdin>: error: ") and len(line) > 16:
            got = "2 with output" if p.stdout else 2
        else:
            got = "%s: %s" % (got, line)
        if got != 2:
            if bad < 5:
                print("#   %s cut to %d bytes (%s): exit %s" % (name, n, opt, got), file=out)
            bad += 1
        n -= 3
    print(bad, file=out)
    out.close()
PY
fi
for case in "small-v2.idx sha1" "small-v1.idx sha256"; do
	set -- $case
	f=$tmp/$1
	size=$(wc -c <"$f")
	# Every third length down from one byte short (the library's own test,
	# idx_truncated_everywhere, cuts at every one): each of the index's parts and its
	# last byte, told the format and inferring it, since odd lengths and even ones
	# alternate. The empty file is a case of its own below. Each cut reaches hexoid
	# through a pipe: from python3 above, or from a head here.
	if [ -s "$tmp/cuts.$1" ]; then
		bad=
		while IFS= read -r c_line; do
			case $c_line in "#"*) echo "$c_line" ;; *) bad=$c_line ;; esac
		done <"$tmp/cuts.$1"
		[ -n "$bad" ] || bad="python3 failed:"
	else
		bad=0
		len=$((size - 1))
		while [ $len -gt 0 ]; do
			# Odd lengths told the format, even ones inferring it.
			opt=
			[ $((len % 2)) = 1 ] && opt=--object-format=$2
			head -c $len "$f" | $H show-index $opt >"$tmp/out" 2>"$tmp/err"
			got=$?
			line=
			IFS= read -r line <"$tmp/err"
			case "$got:$line" in
			"2:<stdin>: error: "?*) [ -s "$tmp/out" ] && got="2 with output" ;;
			*) got="$got: $line" ;;
			esac
			if [ "$got" != 2 ]; then
				[ $bad -lt 5 ] && echo "#   $1 cut to $len bytes ($opt): exit $got"
				bad=$((bad + 1))
			fi
			len=$((len - 3))
		done
	fi
	if [ "$bad" = 0 ] && [ "$size" -gt 1000 ]; then
		pass "$1 cut at every third of its $size lengths: exit 2 and an error"
	else
		fail "$1 cut short: $bad bad results of $(((size + 2) / 3))"
	fi
	same "$1 whole" "$f" $2
done
head -c 1100 "$tmp/small-v2.idx" >"$tmp/cut"
expect "cut in the ID table: says truncated, with sizes" 2 "<stdin>: error: truncated: file is 1100 bytes, but a v2 index of 3 objects (fanout[255] at byte 1028) needs at least 1156 bytes (sha1) or 1216 (sha256)" "$tmp/cut" show-index
head -c 1000 "$tmp/small-v2.idx" >"$tmp/cut"
expect "cut in the fanout" 2 "truncated: file is 1000 bytes, shorter than the 8-byte header and 1024-byte fanout table" "$tmp/cut" show-index
expect "empty input" 2 "empty file: not a pack index" /dev/null show-index
expect "named file in the message" 2 "$tmp/cut: error: truncated" /dev/null show-index "$tmp/cut"

# Usage and I/O errors.
expect "missing file" 2 "no-such.idx: No such file or directory" /dev/null show-index "$tmp/no-such.idx"
expect "a directory" 2 "Is a directory" /dev/null show-index "$tmp"
expect "unknown option" 2 "unknown option '--frob'" /dev/null show-index --frob
expect "unknown format" 2 "unknown --object-format 'md5'" /dev/null show-index --object-format=md5
expect "--object-format without a value" 2 "--object-format needs a value" /dev/null show-index --object-format
expect "two files" 2 "more than one index" /dev/null show-index "$tmp/cut" "$tmp/cut"
expect "show-index --help" 0 "" /dev/null show-index --help
grep -q "usage: hexoid show-index" "$tmp/out" && pass "--help prints the usage" || fail "--help output"
exit 0
