#!/bin/sh
# One code for one finding, whatever the command: a commit whose tree header git was made
# to write in uppercase (hash-object --literally, as a pusher can) is `uppercase-id`,
# class git3, from `hexoid verify --json` (git cat-file -p's text of it), `hexoid audit
# --json` (the repository holding it) and `hexoid pre-receive --json` (a push of it), in
# SHA-1 and SHA-256 repositories made by the installed git.
# shellcheck shell=sh
set -u
. "$(dirname "$0")/lib.sh"

export GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000"
ident="hexoid <hexoid@example.com> 1700000000 +0000"

# codes_of FILE KIND: "code class" of each finding or problem in FILE (JSON lines, or
# audit's one object with its findings), one a line.
codes_of() {
	python3 -c 'import json, sys
text = open(sys.argv[1]).read()
if sys.argv[2] == "audit":
    items = json.loads(text)["findings"]
else:
    items = [o for o in map(json.loads, text.splitlines()) if o["type"] in ("finding", "problem")]
for o in items:
    print(o["code"], o["class"])' "$1" "$2"
}

for fmt in sha1 sha256; do
	r=$tmp/$fmt
	if ! git_ init -q --object-format=$fmt "$r" 2>/dev/null; then
		skip "$fmt: the same code from verify, audit and pre-receive" "git cannot make a $fmt repository"
		continue
	fi
	echo one >"$r/f"
	git_ -C "$r" add f && git_ -C "$r" commit -q -m one
	head=$(git -C "$r" rev-parse HEAD)
	tree=$(git -C "$r" rev-parse HEAD^{tree})
	upper=$(echo "$tree" | tr a-f A-F)
	bad=$(printf 'tree %s\nparent %s\nauthor %s\ncommitter %s\n\nbad\n' "$upper" "$head" "$ident" "$ident" |
		git -C "$r" hash-object -t commit --literally -w --stdin)
	zero=$(echo "$head" | tr 0-9a-f 0)

	git -C "$r" cat-file -p "$bad" >"$tmp/listing"
	$H verify --json --format=pretty-raw "$tmp/listing" >"$tmp/verify.json" 2>"$tmp/err"
	v_rc=$?
	(cd "$r" && $H audit --json .) >"$tmp/audit.json" 2>"$tmp/err"
	a_rc=$?
	echo "$zero $bad refs/heads/bad" >"$tmp/in"
	(cd "$r/.git" && GIT_DIR=. $H pre-receive --json <"$tmp/in") >"$tmp/gate.json" 2>"$tmp/err"
	g_rc=$?
	v=$(codes_of "$tmp/verify.json" lines 2>&1)
	a=$(codes_of "$tmp/audit.json" audit 2>&1)
	g=$(codes_of "$tmp/gate.json" lines 2>&1)
	if [ $v_rc = 1 ] && [ $a_rc = 1 ] && [ $g_rc = 1 ] && [ "$v" = "uppercase-id git3" ] &&
		[ "$a" = "$v" ] && [ "$g" = "$v" ]; then
		pass "$fmt: verify, audit and pre-receive all say uppercase-id (git3)"
	else
		fail "$fmt: verify '$v' (exit $v_rc), audit '$a' (exit $a_rc), pre-receive '$g' (exit $g_rc)"
		sed 's/^/#   /' "$tmp/err" | head -5
	fi
done
exit 0
