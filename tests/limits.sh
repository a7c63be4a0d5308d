#!/bin/sh
# Limits: bounded memory on a listing of several GiB streamed through a pipe, a 100 MiB
# line with no newline, and odd inputs (empty, NUL bytes, CRLF, directories, unreadable
# files): each a clear message and exit 1 or 2, never a signal.
# Prints "ok N - ..." / "not ok N - ..." lines. Needs: HEXOID; CFLAGS and RUN from make
# (the memory and size checks are skipped under sanitizers and emulation).
set -u
. "$(dirname "$0")/lib.sh"
id=4b825dc642cb6eb9a060e54bf8d69288fbee4904

heavy=yes
case "${CFLAGS:-}" in *-fsanitize*) heavy="no: sanitizer build" ;; esac
[ -n "${RUN:-}" ] && heavy="no: emulated"


# lines TEXT COUNT: COUNT lines of TEXT (COUNT a multiple of 25,000) on stdout, a block of
# 25,000 at a time: one pipe from it to the command, where yes | head -n moved each byte
# through two in small writes, most of these cases' time.
lines() {
	"$py" -c 'import os, sys
b = memoryview((sys.argv[1] + "\n").encode() * 25000)
for _ in range(int(sys.argv[2]) // 25000):
    v = b
    while v:
        v = v[os.write(1, v):]' "$1" "$2"
}
# a100m: 100 MiB of 'a' and no newline, in one write.
a100m() { "$py" -c 'import os
v = memoryview(b"a" * 104857600)
while v:
    v = v[os.write(1, v):]'; }

if [ "$heavy" = yes ] && [ -x /usr/bin/time ]; then
	# 100M lines, 4.1 GB, through a pipe: never on disk, never in memory at once.
	lines "$id" 100000000 | /usr/bin/time -f '%M' -o "$tmp/rss" $H verify >"$tmp/out" 2>"$tmp/err"
	judge "4.1 GB listing through a pipe is valid" 0 "" $?
	rss=$(tail -n 1 "$tmp/rss")
	if [ "$rss" -lt 65536 ]; then pass "peak RSS ${rss} KiB < 64 MiB on 4.1 GB"; else fail "peak RSS ${rss} KiB on 4.1 GB"; fi
	# decode of 1 GB: the output is exactly 20 bytes per line, never half a record.
	lines "$id" 25000000 | /usr/bin/time -f '%M' -o "$tmp/rss" $H decode | wc -c >"$tmp/bytes"
	[ "$(cat "$tmp/bytes")" = 500000000 ] && pass "decode of 25M lines writes 500000000 bytes" || fail "decode wrote $(cat "$tmp/bytes") bytes"
	rss=$(tail -n 1 "$tmp/rss")
	[ "$rss" -lt 65536 ] && pass "decode peak RSS ${rss} KiB < 64 MiB" || fail "decode peak RSS ${rss} KiB"
	# A 100 MiB line with no newline at all.
	a100m | /usr/bin/time -f '%M' -o "$tmp/rss" $H verify --algo=sha1 >"$tmp/out" 2>"$tmp/err"
	judge "a 100 MiB line without newline" 1 "" $?
	grep -q "<stdin>:1:41: error: line too long: more than" "$tmp/err" && pass "reported once, at 1:41" || fail "100 MiB line message: $(head -c 200 "$tmp/err")"
	rss=$(tail -n 1 "$tmp/rss")
	[ "$rss" -lt 65536 ] && pass "100 MiB line: peak RSS ${rss} KiB" || fail "100 MiB line: peak RSS ${rss} KiB"
	a100m | $H verify --format=rev-list >/dev/null 2>"$tmp/err"
	judge "a 100 MiB line, rev-list format" 1 "" $?
else
	skip "bounded memory on 4.1 GB" "$heavy"
fi

# Odd inputs.
: >"$tmp/empty"
$H verify "$tmp/empty" 2>"$tmp/err"; judge "empty file: valid, nothing to check" 0 "" $?
for f in oids rev-list batch-check show-index packed-refs auto; do
	$H verify --format=$f "$tmp/empty" 2>/dev/null; judge "empty file, --format=$f" 0 "" $?
done
printf '\n\n' >"$tmp/blank"
$H verify "$tmp/blank" 2>"$tmp/err"; judge "blank lines: auto cannot tell" 2 "cannot tell which git output this is" $?
$H verify --format=oids "$tmp/blank" 2>"$tmp/err"; judge "blank lines" 1 "" $?
grep -q ":2:1: error: empty line" "$tmp/err" && pass "each blank line reported" || fail "blank lines report"
head -c 4096 /dev/zero >"$tmp/zeros"
$H verify "$tmp/zeros" 2>"$tmp/err"; judge "NUL bytes only: auto cannot tell" 2 "cannot tell which git output this is" $?
$H verify --format=oids "$tmp/zeros" 2>"$tmp/err"; judge "NUL bytes only" 1 "" $?
printf '%s\r\n%s\r\n' $id $id >"$tmp/crlf"
$H verify --format=rev-list "$tmp/crlf" 2>"$tmp/err"; judge "CRLF in rev-list format" 1 "" $?
grep -q ":1:41: error: carriage return" "$tmp/err" && pass "CRLF named as such" || fail "CRLF message: $(cat "$tmp/err")"
head -c 65536 /dev/urandom >"$tmp/random"
for f in oids pack-objects rev-list batch-check show-index verify-pack ls-tree for-each-ref packed-refs fetch-head reflog; do
	$H verify --format=$f "$tmp/random" >/dev/null 2>&1; judge "random bytes, --format=$f" 1 "" $?
done
$H verify --format=auto "$tmp/random" >/dev/null 2>&1; judge "random bytes, --format=auto: cannot tell" 2 "" $?
$H show-index "$tmp/random" >/dev/null 2>&1; judge "random bytes as a pack index" 2 "" $?
$H check-listing --idx "$tmp/random" "$tmp/empty" >/dev/null 2>&1; judge "check-listing with a random index" 2 "" $?
$H verify "$tmp" 2>"$tmp/err"; judge "a directory" 2 "" $?
$H show-index "$tmp" 2>"$tmp/err"; judge "show-index of a directory" 2 "" $?
if [ "$(id -u)" != 0 ]; then
	echo "$id" >"$tmp/locked" && chmod 000 "$tmp/locked"
	$H verify "$tmp/locked" 2>"$tmp/err"; judge "an unreadable file" 2 "" $?
else
	skip "an unreadable file" "root reads everything"
fi
exit 0
