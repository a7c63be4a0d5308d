#!/bin/sh
# What a forge runs over many repositories, on repositories made by the installed git
# (SHA-1 and SHA-256), some with commits whose tree header is uppercase (planted with
# hash-object --literally, as git 2.x writes them): hexoid audit of several repositories
# (arguments, --from FILE, --from - as a list piped in, --jobs), each report whole and in
# one piece, a summary line each and the run's last; exit 1 for findings, 2 when one
# could not be audited, and 2 winning. Then --json-lines: every line one JSON object with
# "schema": 1 and a "type", findings and summaries agreeing with the text report, the
# reason for an exit 2 as an "error" object, and lines flushed as they happen (a list
# fed through a FIFO gets its first repository's summary before the list ends).
# Prints "ok N - ..." / "not ok N - ..." lines. Needs: HEXOID, python3.
set -u
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/.." && pwd)

export GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000"
ident="hexoid <hexoid@example.com> 1700000000 +0000"
up() { echo "$1" | tr a-f A-F; }

# make_repo DIR FORMAT BAD: a repository of two commits and BAD more loose commits whose
# tree header is in uppercase, each on a branch of its own.
make_repo() {
	git_ init -q --object-format="$2" "$1" || return 1
	(
		cd "$1" || exit 1
		echo one >f && git_ add f && git_ commit -q -m one &&
			echo two >f && git_ commit -q -am two || exit 1
		tree=$(git rev-parse HEAD^{tree}) head=$(git rev-parse HEAD)
		i=0
		while [ $i -lt "$3" ]; do
			i=$((i + 1))
			bad=$(printf 'tree %s\nparent %s\nauthor %s\ncommitter %s\n\nbad %d\n' \
				"$(up "$tree")" "$head" "$ident" "$ident" $i |
				git hash-object --literally -t commit -w --stdin) || exit 1
			git update-ref "refs/heads/bad$i" "$bad" || exit 1
		done
	)
}

r=$tmp/r
mkdir "$r"
# r/c0 .. r/c5: SHA-1 and SHA-256 by turns, with 0..5 bad commits.
for i in 0 1 2 3 4 5; do
	f=sha1
	[ $((i % 2)) = 1 ] && f=sha256
	make_repo "$r/c$i" $f $i || { fail "make repositories"; exit 0; }
done

# blocks FILE: "REPO FINDINGS" for each report of a many-repository text output, checking
# that each block is whole: its first line, finding lines only, its summary line.
blocks() {
	awk '
		/^hexoid audit: [^ ]+ \(/ { if (repo != "") { bad = 1 } repo = $3; n = 0; next }
		/^hexoid audit: [0-9]+ repositor/ { last = $0; next }
		repo != "" && index($0, repo ": ") == 1 && / scanned, / {
			print repo, n; repo = ""; next }
		repo != "" && /^\[/ { n++; next }
		{ bad = 1 }
		END { if (repo != "") bad = 1; exit bad }' "$1"
}

cd "$r" || exit 1
all="c0 c1 c2 c3 c4 c5"
printf 'c0 0\nc1 1\nc2 2\nc3 3\nc4 4\nc5 5\n' >"$tmp/want"

# shellcheck disable=SC2086
$H audit $all >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && blocks "$tmp/out" >"$tmp/got" && cmp -s "$tmp/got" "$tmp/want" &&
	tail -n 1 "$tmp/out" | grep -qx 'hexoid audit: 6 repositories: 1 clean, 5 with findings, 0 not audited'; then
	pass "six repositories: six whole reports in order, their findings, exit 1"
else
	fail "six repositories (exit $rc)"
	sed 's/^/#   /' "$tmp/out" | head -20
fi

# Each repository alone says the same.
ok=1
for i in 0 1 2 3 4 5; do
	$H audit "c$i" >"$tmp/one" 2>/dev/null
	want=$(awk 'NR > 1 && $0 == "" { exit } NR > 1' "$tmp/one")
	got=$(awk -v r="c$i" '$0 ~ "^hexoid audit: " r " \\(" { on = 1; next }
		on && index($0, r ": ") == 1 { exit } on' "$tmp/out")
	[ "$want" = "$got" ] || ok=0
done
[ $ok = 1 ] && pass "each report's findings are the single audit's" || fail "a report differs from the single audit"

# Threads: the same reports, each whole, in whatever order they finish.
for j in 2 4; do
	# shellcheck disable=SC2086
	$H audit --jobs $j $all c5 c4 c3 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	printf 'c3 3\nc4 4\nc5 5\n' | cat "$tmp/want" - | sort >"$tmp/want.j"
	if [ $rc = 1 ] && blocks "$tmp/out" | sort >"$tmp/got" && cmp -s "$tmp/got" "$tmp/want.j"; then
		pass "--jobs $j: nine whole reports, none mixed with another"
	else
		fail "--jobs $j (exit $rc)"
		blocks "$tmp/out" | sed 's/^/#   /' | head
	fi
done

# --from FILE and --from - (after the arguments).
printf 'c2\n\nc3\r\n' >"$tmp/list"
$H audit c1 --from "$tmp/list" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && blocks "$tmp/out" | tr '\n' ' ' | grep -qx 'c1 1 c2 2 c3 3 '; then
	pass "--from FILE: the arguments, then the list (blank lines skipped, CRLF taken)"
else
	fail "--from FILE (exit $rc)"
fi
printf 'c0\n' | $H audit --from - >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && blocks "$tmp/out" | grep -qx 'c0 0' &&
	tail -n 1 "$tmp/out" | grep -qx 'hexoid audit: 1 repository: 1 clean, 0 with findings, 0 not audited'; then
	pass "--from -: a clean repository from stdin, exit 0"
else
	fail "--from - (exit $rc)"
fi

# One that cannot be audited: exit 2 wins over findings, the others are still audited.
$H audit --jobs 2 c2 "$r/nowhere" c0 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && grep -q "nowhere" "$tmp/err" && blocks "$tmp/out" | sort | tr '\n' ' ' | grep -qx 'c0 0 c2 2 ' &&
	tail -n 1 "$tmp/out" | grep -qx 'hexoid audit: 3 repositories: 1 clean, 1 with findings, 1 not audited'; then
	pass "a missing repository among others: exit 2, named on stderr, the rest audited"
else
	fail "a missing repository among others (exit $rc)"
fi
$H audit --from "$tmp/no-list" >"$tmp/out" 2>"$tmp/err"
judge "--from a missing file: exit 2" 2 "no-list" $?
$H audit --json c0 c1 >"$tmp/out" 2>"$tmp/err"
judge "--json with two repositories is a usage error" 2 "--json-lines" $?

# --- JSON lines ---------------------------------------------------------------------
cat >"$tmp/lines.py" <<'PY'
import json, sys
# Every line one object, schema 1, a known type; per repository, the findings agree with
# its summary; the run comes last and counts the rest. Prints "REPO FINDINGS" per
# repository, "error REPO" per error, and the run's exit.
types = {"finding", "repository", "error", "run"}
finding_keys = {"repository", "repo", "area", "path", "line", "column", "object", "object_type",
                "header", "offset", "class", "code", "message"}
found, out, lines = {}, [], open(sys.argv[1]).read().split("\n")
if lines[-1] != "":
    sys.exit("no newline at the end")
objs = [json.loads(l) for l in lines[:-1]]
for i, o in enumerate(objs):
    if o.get("schema") != 1 or o.get("type") not in types:
        sys.exit("line %d: schema or type: %r" % (i + 1, o))
    t = o["type"]
    if t != "run" and o.get("repo") != o.get("repository"):
        sys.exit("line %d: repo and repository differ: %r" % (i + 1, o))
    if t == "finding":
        if set(o) - {"schema", "type"} != finding_keys:
            sys.exit("finding keys: %r" % sorted(o))
        found.setdefault(o["repository"], []).append(o)
    elif t == "repository":
        f = found.pop(o["repository"], [])
        for c in ("git3", "warn", "error"):
            if sum(1 for x in f if x["class"] == c) != o[c]:
                sys.exit("%s: %s count differs" % (o["repository"], c))
        if sum(a[c] for a in o["areas"].values() for c in ("git3",)) != o["git3"]:
            sys.exit("areas do not add up")
        out.append("%s %d" % (o["repository"], len(f)))
    elif t == "error":
        out.append("error %s" % o["repository"])
        if not o["message"]:
            sys.exit("error without a message")
    elif i != len(objs) - 1:
        sys.exit("run before the end")
run = objs[-1]
if run["type"] != "run" or found:
    sys.exit("no run at the end, or findings without a summary")
if run["repositories"] != sum(1 for x in out if not x.startswith("error ")) + run["not_audited"]:
    sys.exit("run counts differ")
print("\n".join(sorted(out)))
print("exit %d" % run["exit"])
PY
json_ok() { python3 "$tmp/lines.py" "$1" >"$tmp/sum" 2>"$tmp/why"; }

# shellcheck disable=SC2086
$H audit --json-lines --jobs 2 $all "$r/nowhere" >"$tmp/out" 2>"$tmp/err"
rc=$?
printf 'c0 0\nc1 1\nc2 2\nc3 3\nc4 4\nc5 5\nerror %s/nowhere\nexit 2\n' "$r" >"$tmp/want.json"
if [ $rc = 2 ] && json_ok "$tmp/out" && cmp -s "$tmp/sum" "$tmp/want.json" && grep -q nowhere "$tmp/err"; then
	pass "--json-lines: findings, summaries, the error object and the run; exit 2"
else
	fail "--json-lines (exit $rc): $(cat "$tmp/why")"
	sed 's/^/#   /' "$tmp/sum" | head
fi
# The findings are the text report's, field for field.
$H audit --json-lines c3 >"$tmp/out" 2>/dev/null
$H audit c3 >"$tmp/text" 2>/dev/null
python3 - "$tmp/out" >"$tmp/got" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o["type"] == "finding":
        print("[%s] %s: %s %s: %s header, line %d, column %d: %s: %s" % (o["area"], o["path"],
              o["object_type"], o["object"], o["header"], o["line"], o["column"], o["class"], o["message"]))
PY
awk 'NR > 1 && $0 == "" { exit } NR > 1' "$tmp/text" >"$tmp/want"
if [ -s "$tmp/want" ] && cmp -s "$tmp/got" "$tmp/want"; then
	pass "--json-lines: each finding says what the text line says"
else
	fail "--json-lines findings differ from the text"
	diff "$tmp/want" "$tmp/got" | sed 's/^/#   /' | head
fi
$H audit --json-lines "$r/nowhere" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && json_ok "$tmp/out" && grep -q '"type": "error"' "$tmp/out" && grep -q nowhere "$tmp/err"; then
	pass "--json-lines, one unusable repository: the reason as JSON and on stderr, exit 2"
else
	fail "--json-lines, one unusable repository (exit $rc)"
fi
$H audit --json-lines --from "$tmp/no-list" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && json_ok "$tmp/out" && grep -q '"type": "error".*no-list' "$tmp/out"; then
	pass "--json-lines, a missing --from list: an error object, exit 2"
else
	fail "--json-lines, a missing --from list (exit $rc)"
fi

# Flushed as they happen: the first repository's summary arrives while the list is still
# open.
mkfifo "$tmp/fifo"
$H audit --json-lines --from - <"$tmp/fifo" >"$tmp/out" 2>"$tmp/err" &
pid=$!
exec 3>"$tmp/fifo"
echo c2 >&3
i=0
while [ $i -lt 100 ] && ! grep -q '"type": "repository"' "$tmp/out"; do
	sleep 0.1
	i=$((i + 1))
done
early=$(grep -c '"type": "finding"' "$tmp/out")
echo c1 >&3
exec 3>&-
wait $pid
rc=$?
if [ "$early" = 2 ] && [ $rc = 1 ] && json_ok "$tmp/out" && printf 'c1 1\nc2 2\nexit 1\n' | cmp -s - "$tmp/sum"; then
	pass "--json-lines --from -: each line written when it happens, before the list ends"
else
	fail "--json-lines streaming (early findings $early, exit $rc)"
fi

# --- objects folders ----------------------------------------------------------------
# findings_in FILE: the finding lines of a one-repository text report.
findings_in() { awk 'NR > 1 && $0 == "" { exit } NR > 1 && /^\[/' "$1"; }
git -C c3 repack -adq
$H audit --objects-dir c3/.git/objects >"$tmp/out" 2>"$tmp/err"
rc=$?
n3=$(grep -c '^\[pack-objects\] pack/pack-[0-9a-f]*\.pack: commit [0-9a-f]*: tree header, line 1, column 6: git3: ' "$tmp/out")
if [ $rc = 1 ] && [ "$n3" = 3 ] && head -n 1 "$tmp/out" | grep -qx 'hexoid audit: c3/.git/objects (sha256; an objects folder)'; then
	pass "--objects-dir: a folder's packed bad commits, SHA-256 from the pack's name, named from the folder"
else
	fail "--objects-dir on packs (exit $rc, $n3 findings)"
	sed 's/^/#   /' "$tmp/out" "$tmp/err" | head
fi
$H audit --objects-dir c5/.git/objects >"$tmp/out" 2>"$tmp/err"
rc=$?
n5=$(grep -c '^\[loose-objects\] [0-9a-f][0-9a-f]/[0-9a-f]\{62\}: commit [0-9a-f]\{64\}: tree header' "$tmp/out")
if [ $rc = 1 ] && [ "$n5" = 5 ] && head -n 1 "$tmp/out" | grep -q '(sha256; an objects folder)'; then
	pass "--objects-dir: SHA-256 taken from the loose objects' names, five findings"
else
	fail "--objects-dir, SHA-256 loose objects (exit $rc, $n5 findings)"
	sed 's/^/#   /' "$tmp/out" "$tmp/err" | head
fi
# A pool reached only through info/alternates: the findings are the alternate's.
mkdir -p "$tmp/pool/info" "$tmp/pool/pack"
echo "$r/c4/.git/objects" >"$tmp/pool/info/alternates"
$H audit --objects-dir "$tmp/pool" >"$tmp/out" 2>"$tmp/err"
rc=$?
n4=$(grep -c "^\[alternates\] $r/c4/.git/objects/[0-9a-f][0-9a-f]/[0-9a-f]*: commit [0-9a-f]*: tree header" "$tmp/out")
if [ $rc = 1 ] && [ "$n4" = 4 ]; then
	pass "--objects-dir: an empty folder whose alternate holds four bad commits"
else
	fail "--objects-dir through alternates (exit $rc, $n4 findings)"
	sed 's/^/#   /' "$tmp/out" "$tmp/err" | head
fi
$H audit --objects-dir --json-lines c0/.git/objects "$tmp/pool" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && json_ok "$tmp/out" && printf '%s 4\nc0/.git/objects 0\nexit 1\n' "$tmp/pool" | cmp -s - "$tmp/sum" &&
	grep -q '"ref_storage": null' "$tmp/out"; then
	pass "--objects-dir --json-lines: two folders, the schema's objects"
else
	fail "--objects-dir --json-lines (exit $rc): $(cat "$tmp/why")"
fi
$H audit --objects-dir "$tmp/nowhere" >"$tmp/out" 2>"$tmp/err"
judge "--objects-dir on a missing folder: exit 2" 2 "nowhere" $?
$H audit --objects-dir "$tmp/list" >"$tmp/out" 2>"$tmp/err"
judge "--objects-dir on a file: exit 2" 2 "not a folder" $?
$H audit --objects-dir >"$tmp/out" 2>"$tmp/err"
judge "--objects-dir without a folder: usage error" 2 "needs a folder" $?
$H audit --object-format=sha1 c0 >"$tmp/out" 2>"$tmp/err"
judge "--object-format without --objects-dir: usage error" 2 "objects-dir" $?

# --- verify-pack --json -----------------------------------------------------------
cat >"$tmp/check.py" <<'PY'
import json, sys
# Every line an object with schema 1 and a type of the command's; the run last. Prints
# the types in order, each with its exit or class.
objs = [json.loads(l) for l in open(sys.argv[1])]
for o in objs:
    if o.get("schema") != 1 or o.get("type") not in sys.argv[2].split(","):
        sys.exit("bad object %r" % o)
if not objs or objs[-1]["type"] != "run" or any(o["type"] == "run" for o in objs[:-1]):
    sys.exit("the run is not last")
for o in objs:
    print(o["type"], o.get("class", o.get("exit", "")))
PY
git -C c3 repack -adq
$H verify-pack --json c3/.git/objects/pack/*.idx "$r/none.idx" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && python3 "$tmp/check.py" "$tmp/out" finding,pack,error,run >"$tmp/got" &&
	printf 'finding git3\nfinding git3\nfinding git3\npack 1\nerror \nrun 2\n' | cmp -s - "$tmp/got" &&
	grep -q none.idx "$tmp/err"; then
	pass "verify-pack --json: three findings, the pack, the missing one as an error, the run"
else
	fail "verify-pack --json (exit $rc)"
	sed 's/^/#   /' "$tmp/out" | head
fi

# --- pre-receive --json, through a real push ----------------------------------------
git_ init -q --bare "$tmp/srv.git"
printf '#!/bin/sh\nexec %s pre-receive --json >>%s\n' "$H" "$tmp/hook.json" >"$tmp/srv.git/hooks/pre-receive"
chmod +x "$tmp/srv.git/hooks/pre-receive"
git -C c0 push -q "$tmp/srv.git" main >/dev/null 2>&1
rc1=$?
python3 "$tmp/check.py" "$tmp/hook.json" finding,error,run >"$tmp/got1" 2>&1
rm -f "$tmp/hook.json"
git -C c2 push -q "$tmp/srv.git" bad1:refs/heads/bad >/dev/null 2>"$tmp/err"
rc2=$?
if [ $rc1 = 0 ] && [ $rc2 != 0 ] && python3 "$tmp/check.py" "$tmp/hook.json" finding,error,run >"$tmp/got" &&
	printf 'run 0\n' | cmp -s - "$tmp/got1" && printf 'finding git3\nrun 1\n' | cmp -s - "$tmp/got" &&
	grep -q '"ref": "refs/heads/bad".*"header": "tree".*"rejects": true' "$tmp/hook.json" &&
	! git -C "$tmp/srv.git" rev-parse -q --verify refs/heads/bad >/dev/null; then
	pass "pre-receive --json: a clean push accepted, a bad one rejected with the ref and header"
else
	fail "pre-receive --json (push exits $rc1, $rc2)"
	sed 's/^/#   /' "$tmp/hook.json" | head
fi
echo "not a ref update" | $H pre-receive --json >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && python3 "$tmp/check.py" "$tmp/out" error,run >"$tmp/got" &&
	printf 'error \nrun 2\n' | cmp -s - "$tmp/got" && grep -q "<stdin>:1" "$tmp/out"; then
	pass "pre-receive --json: the reason for exit 2 as an error object"
else
	fail "pre-receive --json, bad input (exit $rc)"
fi

# Every line names the repository (absolute, as git gives it to the hook) and carries a
# code: a finding's from the library, an error's and the verdict's from the README's set.
cat >"$tmp/codes.py" <<'EOF'
import json, sys
want_repo, want = sys.argv[2], sys.argv[3:]
codes = {"ok", "warnings", "findings", "git-failed", "timeout", "unusable-pack",
         "missing-object", "no-memory", "config", "bad-input", "limit", "internal"}
got = []
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert o["repo"] == want_repo, (o["repo"], want_repo)
    assert o["type"] == "finding" or o["code"] in codes, o["code"]
    got.append("%s:%s" % (o["type"], o["code"]))
assert got == want, got
EOF
srv_abs=$(cd "$tmp/srv.git" && pwd -P)
rm -f "$tmp/hook.json"
git -C c0 push -q "$tmp/srv.git" main:refs/heads/again >/dev/null 2>&1
git -C c2 push -q "$tmp/srv.git" bad1:refs/heads/bad >/dev/null 2>&1
if python3 "$tmp/codes.py" "$tmp/hook.json" "$srv_abs" run:ok finding:uppercase-id run:findings 2>"$tmp/err"; then
	pass "pre-receive --json: repo and code on every line of a clean and a bad push"
else
	fail "pre-receive --json: repo and code"
	sed 's/^/#   /' "$tmp/err" "$tmp/hook.json" | head
fi
git -C "$tmp/srv.git" config hexoid.mixed maybe
rm -f "$tmp/hook.json"
git -C c0 push -q "$tmp/srv.git" main:refs/heads/third >/dev/null 2>&1
git -C "$tmp/srv.git" config --unset hexoid.mixed
echo "not a ref update" | GIT_DIR=$tmp/srv.git $H pre-receive --json >>"$tmp/hook.json" 2>/dev/null
if python3 "$tmp/codes.py" "$tmp/hook.json" "$srv_abs" error:config error:config run:config \
	error:bad-input run:bad-input 2>"$tmp/err"; then
	pass "pre-receive --json: a bad setting and bad input, coded"
else
	fail "pre-receive --json: error codes"
	sed 's/^/#   /' "$tmp/err" "$tmp/hook.json" | head
fi

# --- names that are not UTF-8: JSON a strict parser takes, no byte lost ------------------
# A branch named x\377\376 pushed onto a bad commit (the hook's finding names it), a
# listing in a file named n\377 (verify's problem names it), a loose ref named y\377
# holding an uppercase ID (the audit's finding names it): each line is UTF-8 and JSON,
# and the name comes back byte for byte from its \udcXX escapes (Python's
# surrogateescape).
cat >"$tmp/strict.py" <<'EOF'
import json, sys
want = bytes.fromhex(sys.argv[2])
found = False
def strings(o):
    if isinstance(o, str):
        yield o
    elif isinstance(o, dict):
        for v in o.values():
            yield from strings(v)
    elif isinstance(o, list):
        for v in o:
            yield from strings(v)
for raw in open(sys.argv[1], "rb"):
    o = json.loads(raw.decode("utf-8"))
    found |= any(want in s.encode("utf-8", "surrogateescape") for s in strings(o))
assert found, "no string holds %r" % want
EOF
strict() { # strict NAME FILE HEX-BYTES
	if python3 "$tmp/strict.py" "$2" "$3" 2>"$tmp/strict.err"; then pass "$1"; else
		fail "$1: $(tail -1 "$tmp/strict.err")"
		head -c 400 "$2" | sed 's/^/#   /'
	fi
}
rm -f "$tmp/hook.json"
git -C c2 push -q "$tmp/srv.git" "bad1:refs/heads/$(printf 'x\377\376')" >/dev/null 2>&1
strict "pre-receive --json: a branch named x and bytes ff fe, escaped" "$tmp/hook.json" 78fffe
printf 'G%039d\n' 0 >"$tmp/$(printf 'n\377')"
$H verify --json "$tmp/$(printf 'n\377')" >"$tmp/out" 2>/dev/null
strict "verify --json: a file named n and byte ff, escaped" "$tmp/out" 6eff
git_ init -q "$tmp/u8"
git -C c0 rev-parse main | tr a-f A-F >"$tmp/u8/.git/refs/heads/$(printf 'y\377')"
git -C c0 rev-parse main | tr a-f A-F >"$tmp/u8/.git/refs/heads/$(printf 'z\303\251')"
$H audit --json-lines --no-progress "$tmp/u8" >"$tmp/out" 2>/dev/null
strict "audit --json-lines: a ref named y and byte ff, escaped" "$tmp/out" 79ff
grep -q "$(printf 'refs/heads/z\303\251')" "$tmp/out" && strict "audit --json-lines: a ref named z and e-acute (UTF-8), as it is" "$tmp/out" 7ac3a9 ||
	fail "audit --json-lines: a ref named in UTF-8 is not written as it is"

# --- the command list -----------------------------------------------------------------
# Every command main() dispatches is in 'hexoid --help', and has its own --help.
cmds=$(sed -n 's/^[[:space:]]*if (!strcmp(cmd, "\([a-z-]*\)"))$/\1/p' "$src/cli/main.c")
$H --help >"$tmp/help" 2>&1
missing=
for c in $cmds; do
	grep -q "^  $c " "$tmp/help" && $H "$c" --help >/dev/null 2>&1 || missing="$missing $c"
done
if [ -n "$cmds" ] && echo "$cmds" | grep -qx pre-receive && [ -z "$missing" ]; then
	pass "hexoid --help lists every command ($(echo $cmds | wc -w)), each with its --help"
else
	fail "hexoid --help misses:$missing"
fi

exit 0
