#!/bin/sh
# hexoid verify-pack on packs written by the installed git, SHA-1 and SHA-256: a clean
# pack gives "ok" with the counts git verify-pack -v shows, named by .idx or by .pack;
# a pack with planted uppercase headers gives exactly those findings; copies broken in
# known places give exit 1 (a flipped byte in a commit's zlib stream, in the CRC table,
# in the trailer, a bit at 40 places, truncations, another pack's index) or 2 (bad magic
# or version, a missing or truncated index), a message each and never a signal; findings
# come in offset order; --verify-ids catches an index entry whose ID the object does not
# hash to, which every checksum still agrees with. On a history shaped like a real one
# (commits in delta chains up to 50 deep), clean, with planted uppercase commits among the
# chains, and with a base in the middle of a chain broken, every line is the same for
# --jobs 1, 2 and 3, and "deltas resolved" is git's count of commits and tags stored as
# deltas.
# Prints "ok N - ..." / "not ok N - ..." lines. Needs: HEXOID.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/planted.sh"
. "$(dirname "$0")/history.sh"

# vp ARGS...: run verify-pack; stdout in $tmp/out, stderr in $tmp/err; its status.
vp() { $H verify-pack "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; }

# poke FILE OFFSET OCTAL-ESCAPES: overwrite bytes in place.
poke() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
be32() { printf '\\%03o\\%03o\\%03o\\%03o' $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)); }
# hex2oct HEX: the octal escapes of the bytes HEX spells, for poke.
hex2oct() { echo "$1" | awk '{ for (i = 1; i < length($0); i += 2) printf "\\%03o", index("0123456789abcdef", substr($0, i, 1)) * 16 + index("0123456789abcdef", substr($0, i + 1, 1)) - 17 }'; }
# fresh NAME [PACK]: writable copies of PACK (the clean one by default) and its index as
# $tmp/NAME.pack and .idx (written by cat, so writable, whatever PACK's mode).
fresh() {
	f_pack=${2:-$pack}
	cat "$f_pack" >"$tmp/$1.pack" && cat "${f_pack%.pack}.idx" >"$tmp/$1.idx"
}
# flip_at FILE OFFSET BYTE [MASK]: flip's work when the byte at OFFSET is known to be
# BYTE (a number): no od to read it.
flip_at() {
	printf "\\$(printf %03o $(($3 ^ ${4:-255})))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
# batch STATUS PACK...: each PACK of the last verify-pack run (STATUS its exit) was
# damaged. Prints "S PACK" for each: 2 when stderr has "hexoid: PACK: error: ...", else 1
# when stdout has a line of PACK's with "error", else 0 (no message: a failure); each S
# is "bad" when the run exited by a signal, or not with the highest S (so every pack of
# it fails). A message may name the pack or its index: PACK without ".pack", then ".".
batch() {
	b_st=$1
	shift
	awk -v list="$*" -v st="$b_st" 'BEGIN { n = split(list, p, " "); for (i = 1; i <= n; i++) { b[i] = p[i]; sub(/\.pack$/, ".", b[i]) } }
		FILENAME == ARGV[1] { for (i = 1; i <= n; i++) if (index($0, b[i]) == 1 && index($0, "error") && s[i] < 1) s[i] = 1; next }
		{ for (i = 1; i <= n; i++) if (index($0, "hexoid: " b[i]) == 1 && index($0, ": error: ")) s[i] = 2 }
		END {
			for (i = 1; i <= n; i++) if (s[i] > m) m = s[i]
			for (i = 1; i <= n; i++) print (st > 128 || st != m ? "bad" : s[i] + 0), p[i]
		}' "$tmp/out" "$tmp/err"
}
# same_as NAME FILE: stdout of the last run is FILE's bytes (and FILE is not empty: an
# empty one comes from a run that failed, and said so).
same_as() {
	if [ -s "$2" ] && cmp -s "$2" "$tmp/out"; then pass "$1"; else
		fail "$1: stdout differs"
		diff "$2" "$tmp/out" | head -4 | sed 's/^/#   /'
	fi
}

# summary_ok NAME PACKPATH: $tmp/out's line for PACKPATH says ok with git's counts.
summary_ok() {
	s_line=$(grep -F "$2: " "$tmp/out" | tail -n 1)
	s_want="$2: $nobj objects, $ncommit commits, $ntag tags, "
	case $s_line in
	"$s_want"*" deltas resolved: ok")
		s_d=${s_line#"$s_want"}
		s_d=${s_d%" deltas resolved: ok"}
		case $s_d in
		'' | *[!0-9]*) fail "$1: deltas resolved is not a number: '$s_line'" ;;
		*) pass "$1" ;;
		esac
		;;
	*)
		fail "$1: want '$s_want<D> deltas resolved: ok'"
		sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -4
		;;
	esac
}
# has_error NAME PACKPATH OFFSET [WORD]: stdout has "PACKPATH: offset OFFSET: error: ..."
# (and the message holds WORD).
has_error() {
	if grep -F "$2: offset $3: error: " "$tmp/out" | grep -qi -- "${4:-}"; then pass "$1"; else
		fail "$1: no '$2: offset $3: error: ${4:+...$4}' line"
		sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -5
	fi
}
# broken NAME GOT: a damaged pack: exit 1 or 2, a message where the status puts it, and the
# exit-2 form "hexoid: <path>: error: ..." on stderr.
broken() {
	if [ "$2" -gt 128 ]; then
		fail "$1: killed by signal $(($2 - 128))"
	elif [ "$2" = 1 ] && grep -q 'error' "$tmp/out"; then
		pass "$1: exit 1 with an error line"
	elif [ "$2" = 2 ] && grep -q '^hexoid: .*: error: ' "$tmp/err"; then
		pass "$1: exit 2 with an error message"
	else
		fail "$1: exit $2 and no error message where it belongs"
		sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -5
	fi
}

for fmt in sha1 sha256; do
	if [ $fmt = sha1 ]; then rawsz=20; else rawsz=32; fi
	r=$tmp/clean-$fmt
	if ! { make_clean "$r" $fmt && git_ -C "$r" repack -adfq; } >"$tmp/git.log" 2>&1; then
		fail "$fmt: git cannot make a repository"
		sed 's/^/#   /' "$tmp/git.log" | head -5
		continue
	fi
	pack=$(ls "$r"/.git/objects/pack/pack-*.pack)
	idx=${pack%.pack}.idx
	git -C "$r" verify-pack -v "$idx" >"$tmp/v"
	# "oid type size size-in-pack offset [depth base]"; the summary lines after differ.
	set -- $(awk '$2 ~ /^(commit|tree|blob|tag)$/ && NF >= 5 { n++; c += $2 == "commit"; t += $2 == "tag" }
		END { print n + 0, c + 0, t + 0 }' "$tmp/v")
	nobj=$1 ncommit=$2 ntag=$3
	size=$(($(wc -c <"$pack")))

	# --- Clean.
	vp "$idx"
	judge "$fmt: clean pack by its .idx: exit 0" 0 "" $?
	summary_ok "$fmt: by .idx: the .pack path, $nobj objects, $ncommit commits, $ntag tags: ok" "$pack"
	[ "$(wc -l <"$tmp/out")" = 1 ] && pass "$fmt: clean: one line" || fail "$fmt: clean: $(wc -l <"$tmp/out") lines"
	cp "$tmp/out" "$tmp/clean.out"
	vp "$pack"
	judge "$fmt: clean pack by its .pack: exit 0" 0 "" $?
	same_as "$fmt: by .pack: the same line" "$tmp/clean.out"
	jobs=1
	threads_work "$r" && jobs=2
	vp --object-format=$fmt --jobs $jobs --verify-ids "$pack"
	judge "$fmt: clean, --object-format=$fmt --jobs $jobs --verify-ids: exit 0" 0 "" $?
	same_as "$fmt: clean, with options: the same line" "$tmp/clean.out"
	vp -q "$idx"
	judge "$fmt: clean, -q: exit 0" 0 "" $?
	[ -s "$tmp/out" ] && fail "$fmt: -q still prints" || pass "$fmt: -q prints nothing for a clean pack"

	# --- Planted uppercase headers: each a git3 finding, in pack order, then the summary.
	p=$tmp/planted-$fmt ppack=
	if make_planted "$p" $fmt >"$tmp/git.log" 2>&1; then
		ppack=$(ls "$p"/.git/objects/pack/pack-*.pack)
		while IFS='	' read -r _ ty o hd l c; do
			printf '%s: %s %s: %s header, line %s, column %s: \tgit3\tuppercase\n' "$ppack" "$ty" "$o" "$hd" "$l" "$c"
		done <"$p.offsets" >"$tmp/p.expect"
		vp -q "$ppack" "$idx"
		judge "$fmt: planted pack and a clean one, -q: exit 1" 1 "" $?
		if [ ! -s "$tmp/out" ] || grep -vF "$ppack: " "$tmp/out" | grep -q .; then
			fail "$fmt: -q: want the planted pack's lines only"
		else
			pass "$fmt: -q: no line for the clean pack"
		fi
		grep -F "$ppack: " "$tmp/out" | sed '$d' >"$tmp/found"
		if check_findings "$tmp/p.expect" "$tmp/found"; then pass "$fmt: planted: the 4 findings, in pack order"; else
			fail "$fmt: planted: findings differ"
		fi
		case $(tail -n 1 "$tmp/out") in
		"$ppack: "*" objects, "*" commits, "*" tags, "*" deltas resolved: 4 findings") pass "$fmt: planted: summary says 4 findings" ;;
		*) fail "$fmt: planted: summary is '$(tail -n 1 "$tmp/out")'" ;;
		esac
		# A flipped byte in its trailer: the checksum findings, at the trailer's offset,
		# come after the headers' (the contract orders a pack's findings by offset).
		fresh ptrail "$ppack"
		flip "$tmp/ptrail.pack" $(($(wc -c <"$ppack") - 1))
		vp "$tmp/ptrail.pack"
		judge "$fmt: planted pack, trailer flipped: exit 1" 1 "" $?
		if order=$(in_offset_order "$tmp/out" "$p.verify"); then
			pass "$fmt: planted pack, trailer flipped: findings in offset order"
		else
			fail "$fmt: planted pack, trailer flipped: findings out of offset order: $order"
		fi
		vp --jobs $jobs "$idx" "$ppack"
		judge "$fmt: clean then planted, --jobs $jobs: exit 1" 1 "" $?
		[ -s "$tmp/clean.out" ] && head -n 1 "$tmp/out" | cmp -s - "$tmp/clean.out" && pass "$fmt: two packs: the clean one's ok line first" ||
			fail "$fmt: two packs: first line is '$(head -n 1 "$tmp/out")'"
	else
		fail "$fmt: cannot plant the repository"
		sed 's/^/#   /' "$tmp/git.log" | tail -5
	fi

	# --- One byte of a commit's zlib stream, for a commit stored whole (in the clean pack)
	# and a delta (the planted pack has them: make_planted checks).
	for kind in whole delta; do
		if [ $kind = whole ]; then
			set -- $(awk '$2 == "commit" && NF == 5 { print $5, $4; exit }' "$tmp/v")
			fresh zlib
		else
			set -- $(awk '$2 == "commit" && NF == 7 { print $5, $4; exit }' "$p.verify" 2>/dev/null)
			fresh zlib "${ppack:-}" 2>/dev/null
		fi
		if [ $# != 2 ] || [ ! -s "$tmp/zlib.idx" ]; then
			skip "$fmt: a flipped byte in a $kind commit" "git stored no such commit"
			continue
		fi
		# Half way through its bytes: past the type/size header (and a delta's base
		# offset), inside the deflate data.
		flip "$tmp/zlib.pack" $(($1 + $2 / 2))
		vp "$tmp/zlib.idx"
		judge "$fmt: a flipped byte in a $kind commit: exit 1" 1 "" $?
		has_error "$fmt: $kind commit: an error at its offset $1" "$tmp/zlib.pack" "$1"
		tail -n 1 "$tmp/out" | grep -q ' findings$' && pass "$fmt: $kind commit: the summary counts findings" ||
			fail "$fmt: $kind commit: summary is '$(tail -n 1 "$tmp/out")'"
	done

	# --- The CRC of a commit in the index: the idx checksum breaks with it.
	i=$(git show-index --object-format=$fmt <"$idx" | awk 'NR == FNR { if ($2 == "commit") c[$1] = 1; next }
		($2 in c) { print FNR - 1, $1; exit }' "$tmp/v" -)
	set -- $i
	fresh crc
	flip "$tmp/crc.idx" $((8 + 1024 + nobj * rawsz + 4 * $1))
	vp "$tmp/crc.pack"
	judge "$fmt: a flipped byte in the CRC table: exit 1" 1 "" $?
	has_error "$fmt: CRC: crc32 mismatch at the commit's offset $2" "$tmp/crc.pack" "$2" crc32
	grep -vi crc32 "$tmp/out" | grep -qi checksum && pass "$fmt: CRC: the index checksum mismatch too" ||
		fail "$fmt: CRC: no line about the index checksum"

	# --- The pack's trailing checksum.
	fresh trailer
	flip "$tmp/trailer.pack" $((size - 1))
	vp "$tmp/trailer.pack"
	judge "$fmt: a flipped byte in the pack checksum: exit 1" 1 "" $?
	grep -qi checksum "$tmp/out" && pass "$fmt: trailer: a checksum message" || fail "$fmt: trailer: no checksum message"

	# --- Header: magic, version, object count.
	fresh magic && poke "$tmp/magic.pack" 3 X
	vp "$tmp/magic.pack"
	judge "$fmt: magic PACX: exit 2" 2 "hexoid: $tmp/magic.pack: error: " $?
	[ -s "$tmp/out" ] && fail "$fmt: PACX: something on stdout" || pass "$fmt: PACX: nothing on stdout"
	# (git reads versions 2 and 3, the same format)
	fresh version && poke "$tmp/version.pack" 7 '\004'
	vp "$tmp/version.idx"
	judge "$fmt: pack version 4: exit 2" 2 ": error: " $?
	fresh count && poke "$tmp/count.pack" 8 "$(be32 $((nobj + 1)))"
	vp "$tmp/count.pack"
	broken "$fmt: header says $((nobj + 1)) objects, the index $nobj" $?

	# --- Truncated: in the header, after it, inside a commit, without the trailer, a byte
	# short. The index is intact; only the pack is cut.
	# All in one run: each cut pack's own message tells it apart.
	set -- $(awk '$2 == "commit" && NF == 5 { print $5, $4; exit }' "$tmp/v")
	lens="0 5 12 $(($1 + $2 / 2)) $((size - rawsz - 1)) $((size - rawsz)) $((size - 1))"
	set --
	for len in $lens; do set -- "$@" "$tmp/cut$len.idx"; done
	tee "$@" <"$idx" >/dev/null
	set --
	for len in $lens; do
		head -c $len "$pack" >"$tmp/cut$len.pack"
		set -- "$@" "$tmp/cut$len.pack"
	done
	vp "$@"
	cut_st=$?
	batch $cut_st "$@" >"$tmp/batch"
	while read -r b_s b_p; do
		len=${b_p#"$tmp/cut"}
		len=${len%.pack}
		case $b_s in
		1) pass "$fmt: pack cut to $len of $size bytes: exit 1 with an error line" ;;
		2) pass "$fmt: pack cut to $len of $size bytes: exit 2 with an error message" ;;
		*)
			fail "$fmt: pack cut to $len of $size bytes: run exit $cut_st and no error message where it belongs"
			sed 's/^/#   /' "$tmp/out" "$tmp/err" | grep -F "cut$len." | head -5
			;;
		esac
	done <"$tmp/batch"

	# --- A bit flipped at 40 places spread over the pack (16 under an emulator, where
	# each run costs more; the CRCs and checksums catch each): exit 1 or 2 with a
	# message, never a signal.
	# Copies made by one tee each, the bytes read by one od, all checked by one run: each
	# copy's own message tells it apart.
	places=40
	[ -n "${RUN:-}" ] && places=16
	step=$((size / places + 1)) at=0 tried=0
	set --
	while [ $at -lt "$size" ]; do set -- "$@" "$tmp/bit$at.pack"; at=$((at + step)); done
	tee "$@" <"$pack" >/dev/null
	set --
	at=0
	while [ $at -lt "$size" ]; do set -- "$@" "$tmp/bit$at.idx"; at=$((at + step)); done
	tee "$@" <"$idx" >/dev/null
	set -- $(od -An -v -tu1 "$pack")
	at=0 b_i=0
	while [ $at -lt "$size" ]; do
		# $1 is the byte at offset b_i: shift to the byte at offset at.
		shift $((at - b_i))
		b_i=$at
		flip_at "$tmp/bit$at.pack" $at $1 1
		tried=$((tried + 1)) at=$((at + step))
	done
	set --
	at=0
	while [ $at -lt "$size" ]; do set -- "$@" "$tmp/bit$at.pack"; at=$((at + step)); done
	vp "$@"
	bit_st=$?
	batch $bit_st "$@" >"$tmp/batch"
	bad=0
	while read -r b_s b_p; do
		case $b_s in 1 | 2) ;; *)
			at=${b_p#"$tmp/bit"}
			[ $bad -lt 3 ] && echo "#   bit 0 of byte ${at%.pack}: no message (the run's exit $bit_st)"
			bad=$((bad + 1))
			;;
		esac
	done <"$tmp/batch"
	[ $bad = 0 ] && pass "$fmt: a bit flipped at $tried places: exit 1 or 2 and a message each" ||
		fail "$fmt: a bit flipped: $bad of $tried places without exit 1 or 2 and a message"

	# --- --verify-ids: an index entry of a commit with its last ID byte changed and the
	# index checksum made right again; every CRC and checksum agrees, only the hash not.
	fresh ids
	set -- $i
	e=$((8 + 1024 + $1 * rawsz + rawsz - 1))
	flip "$tmp/ids.idx" $e
	isize=$(wc -c <"$idx" | tr -d ' ')
	sum=$(head -c $((isize - rawsz)) "$tmp/ids.idx" | ${fmt}sum | cut -c1-$((2 * rawsz)))
	poke "$tmp/ids.idx" $((isize - rawsz)) "$(hex2oct "$sum")"
	vp "$tmp/ids.pack"
	judge "$fmt: an entry's ID changed: every checksum agrees, exit 0 without --verify-ids" 0 "" $?
	vp --verify-ids "$tmp/ids.pack"
	judge "$fmt: --verify-ids: exit 1" 1 "" $?
	grep -q 'error' "$tmp/out" && pass "$fmt: --verify-ids: an error line" || fail "$fmt: --verify-ids: no error line"

	# --- Unusable: exit 2.
	other=sha256
	[ $fmt = sha256 ] && other=sha1
	vp --object-format=$other "$idx"
	judge "$fmt: told --object-format=$other: exit 2" 2 ": error: " $?
	fresh cutidx && head -c 100 "$idx" >"$tmp/cutidx.idx"
	vp "$tmp/cutidx.pack"
	judge "$fmt: the index cut to 100 bytes: exit 2" 2 "hexoid: $tmp/cutidx." $?
	if [ -n "$ppack" ]; then
		# The planted pack's index beside the clean pack: offsets, CRCs and the recorded
		# pack checksum all belong to another file.
		fresh other && cp "${ppack%.pack}.idx" "$tmp/other.idx"
		vp "$tmp/other.pack"
		broken "$fmt: another pack's index" $?
	fi
	rm -f "$tmp/lone.pack" && cp "$pack" "$tmp/lone.pack"
	vp "$tmp/lone.pack"
	judge "$fmt: a pack without its .idx: exit 2" 2 "hexoid: $tmp/lone." $?
done

# --- A real-shaped history: the same report for any number of threads.
# jobs_same NAME PACK: verify-pack --jobs 1, 2 and 3 (and --verify-ids) print the same
# bytes with the same status; the --jobs 1 output is left in $tmp/j1.
jobs_same() {
	$H verify-pack --verify-ids --jobs 1 "$2" >"$tmp/j1" 2>&1
	js_want=$?
	js_bad=
	for js_j in 2 3; do
		$H verify-pack --verify-ids --jobs $js_j "$2" >"$tmp/j$js_j" 2>&1
		js_got=$?
		if [ $js_got != $js_want ] || ! cmp -s "$tmp/j1" "$tmp/j$js_j"; then
			js_bad="$js_bad $js_j"
			diff "$tmp/j1" "$tmp/j$js_j" | head -4 | sed 's/^/#   /'
		fi
	done
	[ -z "$js_bad" ] && pass "$1: --jobs 1, 2, 3: the same $(wc -l <"$tmp/j1" | tr -d ' ') lines, exit $js_want" ||
		fail "$1: --jobs$js_bad differ from --jobs 1"
}
# history DIR COMMITS FORMAT: make_history without its repack and gc (git, a function
# while it runs, passes over "git -C DIR repack" and "gc"): the repack below, after the
# twins are written, makes the pack alone (-f: no delta of an earlier pack is reused), so
# the history's deltas are searched once, not three times. Its window is 50, not
# make_history's 250: the chains are as deep (10 against 8 on SHA-1, 2,929 of the 3,000
# commits deltas against 2,998), for less than half the search, which was most of this
# suite's time.
history() {
	git() { case $3 in repack | gc) ;; *) command git "$@" ;; esac; }
	make_history "$@"
	h_st=$?
	unset -f git
	return $h_st
}
for fmt in sha1 sha256; do
	h=$tmp/hist-$fmt
	if ! history "$h" 3000 $fmt >"$tmp/git.log" 2>&1; then
		fail "$fmt: git cannot make the history"
		sed 's/^/#   /' "$tmp/git.log" | tail -5
		continue
	fi
	if ! threads_work "$h"; then
		skip "$fmt: history, --jobs 1, 2, 3" "threads hang under this emulator"
		continue
	fi
	# Twins of every 97th commit, their tree or first parent header in uppercase: they
	# deltify against the originals, inside the chains.
	# (One cat-file reads the commits, one awk writes the twins, one hash-object writes
	# them, one update-ref names them.)
	git -C "$h" rev-list main | awk 'NR % 97 == 0' |
		git -C "$h" cat-file --batch='%(objectname) %(objecttype) %(objectsize)' |
		awk -v dir="$tmp" '
		!left && $2 == "commit" { left = $3; n++; out = dir "/twin." n; line = 0; print out; next }
		left {
			# Each line of the commit, and its newline: the size counts bytes, mawk
			# reads them as they are.
			left -= length($0) + 1
			line++
			if (line == 1 && /^tree /) $2 = toupper($2)
			else if (line == 2 && /^parent /) $2 = toupper($2)
			print >out
			if (left <= 0) { close(out); left = 0; getline }
		}' >"$tmp/twin.paths"
	git -C "$h" hash-object -t commit -w --literally --stdin-paths <"$tmp/twin.paths" >"$tmp/twins"
	awk '{ print "create refs/planted/" NR, $1 }' "$tmp/twins" | git -C "$h" update-ref --stdin
	git -C "$h" repack -adfq --depth=50 --window=50 >>"$tmp/git.log" 2>&1
	hpack=$(ls "$h"/.git/objects/pack/pack-*.pack)
	git -C "$h" verify-pack -v "${hpack%.pack}.idx" >"$tmp/hv"
	# "oid type size size-in-pack offset depth base" for a delta.
	deltas=$(awk '($2 == "commit" || $2 == "tag") && NF == 7' "$tmp/hv" | wc -l | tr -d ' ')
	depth=$(awk '($2 == "commit" || $2 == "tag") && NF == 7 && $6 > d { d = $6 } END { print d + 0 }' "$tmp/hv")
	[ "$depth" -ge 5 ] && pass "$fmt: history: commits in delta chains $depth deep" ||
		fail "$fmt: history: the deepest commit chain is $depth"
	ntwin=$(wc -l <"$tmp/twins" | tr -d ' ')
	jobs_same "$fmt: history with $ntwin uppercase twins" "$hpack"
	case $(tail -n 1 "$tmp/j1") in
	*" $deltas deltas resolved: $((2 * ntwin)) findings") pass "$fmt: history: $deltas deltas resolved, as git verify-pack -v counts, and $((2 * ntwin)) findings" ;;
	*) fail "$fmt: history: want $deltas deltas resolved and $((2 * ntwin)) findings, got '$(tail -n 1 "$tmp/j1")'" ;;
	esac
	# Break a commit that others are deltas against, down a chain: its CRC,
	# its zlib stream, and every commit built on it become findings.
	set -- $(awk 'NR == FNR { if (NF == 7) base[$7] = 1; next }
		$2 == "commit" && NF == 7 && $6 >= 3 && ($1 in base) { print $5, $4; exit }' "$tmp/hv" "$tmp/hv")
	if [ $# = 2 ]; then
		fresh hbroken "$hpack"
		flip "$tmp/hbroken.pack" $(($1 + $2 / 2))
		jobs_same "$fmt: history, a base half way down a chain broken" "$tmp/hbroken.pack"
		[ "$(grep -c ': error: ' "$tmp/j1")" -ge 3 ] && pass "$fmt: broken base: its findings and its dependents'" ||
			fail "$fmt: broken base: $(grep -c ': error: ' "$tmp/j1") error lines"
	else
		fail "$fmt: history: no commit base 3 deep in a chain"
	fi
done

# The command opens libcrypto at its first hash (cli/crypto.c), so runs that never hash
# do not pay for loading it; the checksums checked above are hashed through it.
bin=${H##* }
if [ ! -f "$bin" ] || ! command -v readelf >/dev/null 2>&1; then
	pass "the command loads libcrypto only when it hashes # skip: no readelf or no file $bin"
elif readelf -d "$bin" | grep -q 'NEEDED.*libcrypto'; then
	fail "the command loads libcrypto at start-up: $(readelf -d "$bin" | grep 'NEEDED.*libcrypto')"
else
	pass "the command loads libcrypto only when it hashes"
fi

vp "$tmp/no-such.pack"
judge "a missing pack: exit 2" 2 "hexoid: $tmp/no-such." $?
: >"$tmp/empty.idx"
: >"$tmp/empty.pack"
vp "$tmp/empty.idx"
judge "an empty pack and index: exit 2" 2 "hexoid: $tmp/empty." $?
vp --frob "$tmp/empty.pack"
judge "an unknown option: exit 2" 2 "" $?
vp
judge "no pack named: exit 2" 2 "" $?
exit 0
