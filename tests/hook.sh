#!/bin/sh
# hexoid hook install|check, through real pushes. With the installed git, in bare SHA-1
# and SHA-256 repositories: after install, a push of a commit whose tree header is in
# uppercase is rejected; each way a hook fails open (no exec bit, a link to nothing,
# core.hooksPath elsewhere) is reported by check and shown to let that bad push land;
# core.hooksPath (absolute and relative) is where install writes and git runs it; a
# different hook is not replaced without --force; the update hook; the JSON lines. With
# the Git 3.0 build (reftable; it cannot send such a commit at all), a hook that records
# each run shows git running hexoid after install and not in the failing-open cases.
# Prints "ok N - ..." / "not ok N - ..." lines. Needs: HEXOID.
set -u
. "$(dirname "$0")/lib.sh"

hx=$(echo $H)
case "$hx" in
*" "*)
	skip "hexoid hook" "skipped: the hook runs hexoid itself, not behind an emulator"
	exit 0
	;;
esac
export GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000"

hook() { $H hook "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; }
# out_has NAME TEXT: stdout of the last command holds TEXT.
out_has() {
	if grep -qF -- "$2" "$tmp/out"; then pass "$1"; else
		fail "$1: stdout lacks '$2'"
		sed 's/^/#   /' "$tmp/out" | head -5
	fi
}
# check_code NAME REPO WANT-EXIT CODE [OPTIONS]: hexoid hook check --json-lines says CODE
# for REPO's first hook, exits WANT-EXIT; the text report says the same code.
check_code() {
	cc_name=$1 cc_repo=$2 cc_want=$3 cc_code=$4
	shift 4
	hook check --json-lines "$@" "$cc_repo"
	cc_rc=$?
	cc_got=$("$py" -c 'import json,sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert lines[-1]["type"] == "run" and lines[-1]["exit"] == int(sys.argv[2])
h = [d for d in lines if d["type"] == "hook"][0]
assert h["repository"] == sys.argv[3] and h["message"]
print(h["code"])' "$tmp/out" "$cc_want" "$cc_repo" 2>/dev/null)
	hook check "$@" "$cc_repo"
	cc_trc=$?
	if [ "$cc_rc" != "$cc_want" ] || [ "$cc_trc" != "$cc_want" ]; then
		fail "$cc_name: exit $cc_rc (text $cc_trc), expected $cc_want"
		sed 's/^/#   /' "$tmp/out" | head -3
	elif [ "$cc_got" != "$cc_code" ]; then
		fail "$cc_name: code '$cc_got', expected '$cc_code'"
	elif ! grep -qF "$cc_repo: $cc_code: " "$tmp/out"; then
		fail "$cc_name: the text report does not say $cc_code"
	else
		pass "$cc_name: check says $cc_code, exit $cc_want"
	fi
}
# lands NAME YES|NO: push the bad commit to $srv as refs/heads/bad with $gitc; whether
# it landed must be YES or NO; the ref is removed again.
lands() {
	$gitc -C "$cl" push -q "$srv" "$bad:refs/heads/bad" >"$tmp/pushout" 2>"$tmp/pusherr" </dev/null
	if $gitc --git-dir="$srv" rev-parse -q --verify refs/heads/bad >/dev/null 2>&1; then
		l_got=yes
		$gitc --git-dir="$srv" update-ref -d refs/heads/bad
	else
		l_got=no
	fi
	if [ "$l_got" = "$2" ]; then pass "$1"; else
		fail "$1: the bad push landed: $l_got"
		sed 's/^/#   /' "$tmp/pusherr" | head -5
	fi
}

for fmt in sha1 sha256; do
	d=$tmp/$fmt srv=$tmp/$fmt/srv.git cl=$tmp/$fmt/cl gitc=git_
	git_ init -q --bare --object-format=$fmt "$srv" && git_ init -q --object-format=$fmt "$cl" &&
		(cd "$cl" && echo 1 >f && git_ add f && git_ commit -q -m 1) &&
		git_ -C "$cl" push -q "$srv" main:refs/heads/main || { fail "$fmt: setup"; continue; }
	tree=$(git -C "$cl" rev-parse main^{tree}) head=$(git -C "$cl" rev-parse main)
	bad=$(printf 'tree %s\nparent %s\nauthor a <a@example.com> 1700000000 +0000\ncommitter a <a@example.com> 1700000000 +0000\n\nbad\n' \
		"$(echo "$tree" | tr a-f A-F)" "$head" | git -C "$cl" hash-object -t commit --literally -w --stdin)
	lands "$fmt: without a hook, git lets the uppercase tree header in" yes
	check_code "$fmt: no hook" "$srv" 1 missing

	hook install "$srv"
	judge "$fmt: install" 0 "" $?
	out_has "$fmt: install says where" "installed $srv/hooks/pre-receive: runs $hx pre-receive"
	if [ "$(stat -c %a "$srv/hooks/pre-receive")" = 755 ] && head -1 "$srv/hooks/pre-receive" | grep -qx '#!/bin/sh' &&
		grep -qxF "exec '$hx' pre-receive" "$srv/hooks/pre-receive"; then
		pass "$fmt: the hook is a #!/bin/sh script, mode 755, exec'ing hexoid by absolute path"
	else
		fail "$fmt: the hook is $(stat -c %a "$srv/hooks/pre-receive"): $(cat "$srv/hooks/pre-receive")"
	fi
	if ls -a "$srv/hooks" | grep -q 'hexoid-'; then fail "$fmt: a temporary file is left"; else
		pass "$fmt: no temporary file left"; fi
	hook install "$srv"
	judge "$fmt: install again" 0 "" $?
	out_has "$fmt: install again: already installed" "already installed: $srv/hooks/pre-receive"
	check_code "$fmt: installed" "$srv" 0 ok
	lands "$fmt: installed: the bad push is rejected" no
	grep -qF "remote: hexoid: refs/heads/bad: commit $bad: tree header" "$tmp/pusherr" &&
		pass "$fmt: hexoid's reason reaches the pusher" || fail "$fmt: no reason in the push's output"

	# Failing open, each: check says so, and git lets the bad push in.
	chmod -x "$srv/hooks/pre-receive"
	check_code "$fmt: chmod -x" "$srv" 1 not-executable
	lands "$fmt: chmod -x: git ignores the hook, the bad push lands" yes
	grep -q "not set as executable" "$tmp/pusherr" && pass "$fmt: chmod -x: git says it ignored the hook" ||
		fail "$fmt: chmod -x: no hint from git"
	chmod +x "$srv/hooks/pre-receive"
	mv "$srv/hooks/pre-receive" "$d/saved"
	ln -s "$d/nowhere" "$srv/hooks/pre-receive"
	check_code "$fmt: a link to nothing" "$srv" 1 dangling
	lands "$fmt: a link to nothing: the bad push lands" yes
	rm "$srv/hooks/pre-receive"
	mv "$d/saved" "$srv/hooks/pre-receive"
	mkdir "$d/elsewhere"
	git --git-dir="$srv" config core.hooksPath "$d/elsewhere"
	check_code "$fmt: core.hooksPath elsewhere" "$srv" 1 hooks-path
	grep -qF "$srv/hooks/pre-receive is not run" "$tmp/out" && pass "$fmt: core.hooksPath elsewhere: the hook left behind is named" ||
		fail "$fmt: core.hooksPath elsewhere: the message does not name the hook left behind"
	lands "$fmt: core.hooksPath elsewhere: the bad push lands" yes
	hook install "$srv"
	judge "$fmt: install with core.hooksPath" 0 "" $?
	out_has "$fmt: install with core.hooksPath: there" "installed $d/elsewhere/pre-receive (core.hooksPath)"
	check_code "$fmt: installed in core.hooksPath" "$srv" 0 ok
	lands "$fmt: installed in core.hooksPath: the bad push is rejected" no
	git --git-dir="$srv" config core.hooksPath myhooks
	mkdir "$srv/myhooks"
	check_code "$fmt: a relative core.hooksPath, empty" "$srv" 1 hooks-path
	hook install "$srv"
	judge "$fmt: install with a relative core.hooksPath" 0 "" $?
	[ -x "$srv/myhooks/pre-receive" ] && pass "$fmt: relative core.hooksPath: under the git directory" ||
		fail "$fmt: relative core.hooksPath: not under the git directory"
	lands "$fmt: relative core.hooksPath: git runs it, the bad push is rejected" no
	git --git-dir="$srv" config --unset core.hooksPath

	# Someone else's hook: not replaced without --force; the update hook.
	printf '#!/bin/sh\nexit 0\n' >"$srv/hooks/pre-receive"
	hook install "$srv"
	judge "$fmt: a different hook is not replaced: exit 1, named" 1 "" $?
	out_has "$fmt: a different hook: the file named" "$srv/hooks/pre-receive: a different pre-receive hook is there"
	grep -qx 'exit 0' "$srv/hooks/pre-receive" && pass "$fmt: a different hook: left as it was" ||
		fail "$fmt: a different hook: changed"
	check_code "$fmt: someone else's hook" "$srv" 1 foreign
	printf '#!/no/such/sh\nexec %s pre-receive\n' "$hx" >"$srv/hooks/pre-receive"
	check_code "$fmt: an interpreter that does not exist" "$srv" 1 interpreter-missing
	printf "#!/bin/sh\nexec '%s' pre-receive\n" "$d/no-hexoid" >"$srv/hooks/pre-receive"
	check_code "$fmt: a hexoid that does not exist" "$srv" 1 hexoid-missing
	printf "#!/bin/sh\nexec '%s' pre-receive\n" /bin/true >"$srv/hooks/pre-receive"
	check_code "$fmt: what it execs is no hexoid" "$srv" 1 not-hexoid
	cp "$hx" "$d/hexoid-copy"
	chmod -x "$d/hexoid-copy"
	printf "#!/bin/sh\nexec '%s' pre-receive\n" "$d/hexoid-copy" >"$srv/hooks/pre-receive"
	check_code "$fmt: a hexoid that is not executable" "$srv" 1 hexoid-not-executable
	hook install --force --update "$srv"
	judge "$fmt: --force --update" 0 "" $?
	check_code "$fmt: both hooks" "$srv" 0 ok --update
	rm "$srv/hooks/pre-receive"
	lands "$fmt: the update hook alone rejects the bad push" no
	rm "$srv/hooks/update"
	ln -s "$hx" "$srv/hooks/pre-receive"
	check_code "$fmt: a link to hexoid itself" "$srv" 0 ok
	lands "$fmt: a link to hexoid itself rejects the bad push" no
	rm "$srv/hooks/pre-receive"
	cp /bin/true "$srv/hooks/pre-receive"
	check_code "$fmt: a program that is not hexoid" "$srv" 1 foreign
	rm "$srv/hooks/pre-receive"
	git --git-dir="$srv" config core.hooksPath "$d/not-made"
	hook install "$srv"
	judge "$fmt: core.hooksPath names no folder: not installed, exit 2" 2 "" $?
	grep -qF "$d/not-made: no hooks folder there (core.hooksPath names it)" "$tmp/err" &&
		pass "$fmt: core.hooksPath names no folder: said on stderr" || fail "$fmt: core.hooksPath names no folder: not said"
	[ -e "$d/not-made" ] && fail "$fmt: core.hooksPath's folder was made" || pass "$fmt: core.hooksPath's folder not made"
	git --git-dir="$srv" config --unset core.hooksPath
	hook install "$srv"

	# Many, with --from and --jobs; a repository not found is trouble.
	git_ init -q --bare --object-format=$fmt "$d/two.git"
	printf '%s\n%s\n%s\n' "$srv" "$d/two.git" "$d/missing.git" >"$d/list"
	hook install --jobs=2 --from="$d/list"
	judge "$fmt: install --from: a missing repository is trouble" 2 "" $?
	[ -x "$d/two.git/hooks/pre-receive" ] && pass "$fmt: install --from: the others installed" ||
		fail "$fmt: install --from: two.git has no hook"
	hook check --json-lines --jobs=2 --from="$d/list"
	rc=$?
	if [ $rc = 2 ] && "$py" -c 'import json,sys
lines = [json.loads(l) for l in open(sys.argv[1])]
codes = {d["repo"]: d["code"] for d in lines if d["type"] == "hook" and d["repository"] == d["repo"]}
run = lines[-1]
assert codes == {sys.argv[2]: "ok", sys.argv[3]: "ok", sys.argv[4]: "not-found"}, codes
assert run["type"] == "run" and run["repositories"] == 3 and run["ok"] == 2 and run["not_checked"] == 1
' "$tmp/out" "$srv" "$d/two.git" "$d/missing.git"; then
		pass "$fmt: check --from --json-lines: one line a repository, a run line"
	else
		fail "$fmt: check --from --json-lines (exit $rc)"
		sed 's/^/#   /' "$tmp/out" | head -5
	fi
done
# An install killed at each step of writing the hook (the temporary file made, written,
# its mode set, synced, closed, renamed, the folder synced) over a hook it replaces
# (--force): the hook is the old one or the new one, whole and 0755, never a part; the
# next install finishes, and leaves no temporary file, its dead predecessor's included.
k=$tmp/kill.git
git_ init -q --bare "$k"
printf '#!/bin/sh\nexit 0\n' >"$tmp/old-hook"
$H hook install "$tmp/kill.git" >/dev/null 2>&1 && cp "$k/hooks/pre-receive" "$tmp/new-hook"
kill_ok=0
for st in 0 1 2 3 4 5 6; do
	cp "$tmp/old-hook" "$k/hooks/pre-receive"
	chmod 755 "$k/hooks/pre-receive"
	HEXOID_HOOK_KILL_AFTER=$st $H hook install --force "$k" >/dev/null 2>&1
	rc=$?
	if [ $rc != 137 ] && [ $rc != 265 ]; then
		fail "install killed after step $st: exit $rc, not killed"
		continue
	fi
	if [ "$(stat -c %a "$k/hooks/pre-receive")" != 755 ] ||
		! { cmp -s "$k/hooks/pre-receive" "$tmp/old-hook" || cmp -s "$k/hooks/pre-receive" "$tmp/new-hook"; }; then
		fail "install killed after step $st: the hook is neither the old nor the new one, whole"
		continue
	fi
	[ $st -ge 5 ] && ! cmp -s "$k/hooks/pre-receive" "$tmp/new-hook" &&
		{ fail "install killed after the rename (step $st): not the new hook"; continue; }
	hook install --force "$k"
	rc=$?
	if [ $rc != 0 ] || ! cmp -s "$k/hooks/pre-receive" "$tmp/new-hook" || ls -a "$k/hooks" | grep -q 'hexoid-'; then
		fail "install killed after step $st, run again: exit $rc, $(ls -a "$k/hooks" | grep hexoid- | head -1)"
		continue
	fi
	kill_ok=$((kill_ok + 1))
done
[ $kill_ok = 7 ] && pass "install killed after each of its 7 steps: the old hook or the new, whole; a second install finishes, no temporary file left"

hook install --hexoid=relative/hexoid "$tmp/sha1/two.git"
judge "--hexoid takes an absolute path only" 2 "absolute path" $?
hook install --hexoid="$tmp/no-such" "$tmp/sha1/two.git"
judge "--hexoid that does not exist: not installed" 2 "$tmp/no-such" $?
hook frob
judge "an unknown action" 2 "unknown action" $?

# --- The Git 3.0 build: a reftable repository with no hooks folder (no templates),
# safe.bareRepository=explicit. It refuses to send an uppercase header at all, so a hook
# that records each run shows whether git runs hexoid.
G3=/work/shared/tools/git3/git
if ! [ -x "$G3" ]; then
	skip "the Git 3.0 build" "skipped: $G3 is absent"
	exit 0
fi
g3() { "$G3" -c user.name=hexoid -c user.email=hexoid@example.com -c init.defaultBranch=main "$@"; }
d=$tmp/git3 srv=$tmp/git3/srv.git cl=$tmp/git3/cl
mkdir -p "$d"
g3 init -q --bare "$srv" 2>/dev/null && g3 init -q "$cl" 2>/dev/null &&
	(cd "$cl" && echo 1 >f && g3 add f && g3 commit -q -m 1) || fail "git3: setup"
printf '#!/bin/sh\n[ "$1" = pre-receive ] && echo ran >>%s/ran\nexec %s "$@"\n' "$d" "$hx" >"$d/wrap"
chmod +x "$d/wrap"
PATH="$(dirname "$G3"):$PATH" $H hook install --hexoid="$d/wrap" "$srv" >"$tmp/out" 2>"$tmp/err"
judge "git3: install in a reftable repository without hooks/" 0 "" $?
PATH="$(dirname "$G3"):$PATH" check_code "git3: installed" "$srv" 0 ok
# g3push NAME RAN: a push of a new commit lands; whether the hook ran must be RAN.
i=100
g3push() {
	i=$((i + 1))
	rm -f "$d/ran"
	(cd "$cl" && echo "$i" >f && g3 commit -q -am "$i")
	g3 -C "$cl" push -q "$srv" main:refs/heads/main >"$tmp/out" 2>"$tmp/pusherr"
	g_rc=$?
	[ -f "$d/ran" ] && g_ran=yes || g_ran=no
	if [ $g_rc = 0 ] && [ $g_ran = "$2" ]; then pass "$1"; else
		fail "$1: push exit $g_rc, the hook ran: $g_ran"
		sed 's/^/#   /' "$tmp/pusherr" | head -5
	fi
}
g3push "git3: installed: git runs hexoid on a push" yes
chmod -x "$srv/hooks/pre-receive"
PATH="$(dirname "$G3"):$PATH" check_code "git3: chmod -x" "$srv" 1 not-executable
g3push "git3: chmod -x: the push lands, hexoid not run" no
chmod +x "$srv/hooks/pre-receive"
mv "$srv/hooks/pre-receive" "$d/saved"
ln -s "$d/nowhere" "$srv/hooks/pre-receive"
PATH="$(dirname "$G3"):$PATH" check_code "git3: a link to nothing" "$srv" 1 dangling
g3push "git3: a link to nothing: the push lands, hexoid not run" no
rm "$srv/hooks/pre-receive"
mv "$d/saved" "$srv/hooks/pre-receive"
g3 --git-dir="$srv" config core.hooksPath "$d/elsewhere"
mkdir "$d/elsewhere"
PATH="$(dirname "$G3"):$PATH" check_code "git3: core.hooksPath elsewhere" "$srv" 1 hooks-path
g3push "git3: core.hooksPath elsewhere: the push lands, hexoid not run" no
exit 0
