#!/bin/sh
# hexoid repair, on repositories made by the installed git (SHA-1 and SHA-256, files; and
# reftable ones made by the Git 3.0 build): object IDs planted in uppercase where git
# reads them (a loose ref, packed-refs and its peeled line, reflogs, a linked worktree's
# HEAD, ORIG_HEAD, FETCH_HEAD, shallow). Before the repair the Git 3.0 build fails on
# them; after it, every file is exactly its old bytes lowercased, Git 2.x reads the same
# refs, reflogs and history, the audit finds nothing, and the Git 3.0 build runs fsck,
# log, gc, repack, clone, push, reflog expire (every line kept) and refs migrate (every
# ref kept). Then what a repair must never do: change anything with --dry-run, lose a
# file's mode or owner, take a lock real git holds, leave the repository unreadable when
# killed between any two of its steps, or lose an update git makes while it runs.
# Prints "ok N - ..." / "not ok N - ..." lines. Needs: HEXOID.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/direct.sh"

GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_EDITOR=true GIT_PAGER=cat
GIT_TERMINAL_PROMPT=0 GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000"
GIT_ADVICE=0
export GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL GIT_EDITOR GIT_PAGER GIT_TERMINAL_PROMPT
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE GIT_ADVICE

srcdir=$(cd "$(dirname "$0")/.." && pwd)
g3=$srcdir/../shared/tools/git3/git
if [ -n "${RUN:-}" ]; then
	g3_why="hexoid runs under $RUN"
	g3=
elif [ ! -x "$g3" ]; then
	g3_why="no $g3"
	g3=
fi
# (hexoid --git runs the wrapper itself: $g3_path)
g3_path=$g3
git3_direct
git3_() { "$g3" -c user.name=hexoid -c user.email=hexoid@example.com -c init.defaultBranch=main "$@"; }

up() { tr a-f A-F; }
# upcase FILE AWK-PROGRAM: the file rewritten by the program, in place, keeping its inode's mode.
# (The file is read by the shell and handed to awk as a here-document: one process, where
# a temporary file took three. Each line ends in a newline after, as awk prints it.)
upcase() {
	u_text= u_n=0
	while IFS= read -r u_l || [ -n "$u_l" ]; do
		if [ $u_n = 0 ]; then u_text=$u_l; else u_text="$u_text
$u_l"; fi
		u_n=$((u_n + 1))
	done <"$1"
	if [ $u_n = 0 ]; then awk "$2" </dev/null >"$1"; else awk "$2" >"$1" <<EOF
$u_text
EOF
	fi
}
# flat PATH: PATH with each / a _, in $flat.
flat() {
	flat= f_rest=$1
	while :; do
		case $f_rest in
		*/*) flat=$flat${f_rest%%/*}_ f_rest=${f_rest#*/} ;;
		*) flat=$flat$f_rest && return ;;
		esac
	done
}

# A repository with something in each place, made by the installed git: three commits,
# an annotated tag and a branch packed, a loose branch, reflogs, a detached linked
# worktree, ORIG_HEAD, FETCH_HEAD and shallow (the root commit: no parent to cut).
# It is made by git once for each format (make_repo_git) and copied with its worktree:
# the dates are fixed, so a copy is the repository git would make again, to the byte;
# the two absolute paths that tie the worktree to it are written for the copy.
make_repo() {
	case $2 in */r) ;; *) make_repo_git "$@"; return ;; esac
	m_seed=$tmp/seed-$1
	if [ ! -d "$m_seed/r" ]; then
		mkdir -p "$m_seed" && make_repo_git "$1" "$m_seed/r" || { rm -rf "$m_seed"; return 1; }
	fi
	m_dir=${2%/*}
	cp -a "$m_seed/r" "$m_seed/wt" "$m_dir/" || return 1
	printf 'gitdir: %s\n' "$2/.git/worktrees/wt" >"$m_dir/wt/.git" &&
		printf '%s\n' "$m_dir/wt/.git" >"$2/.git/worktrees/wt/gitdir"
}
make_repo_git() {
	git_ init -q --object-format="$1" "$2" &&
	for _c in 1 2 3; do git_ -C "$2" commit -q --allow-empty -m "c$_c" || return 1; done &&
	git_ -C "$2" tag -a -m t v1 HEAD~1 && git_ -C "$2" branch feature HEAD~1 &&
	git_ -C "$2" pack-refs --all && git_ -C "$2" branch loose HEAD~2 &&
	git_ -C "$2" worktree add -q --detach "${2%/*}/wt" HEAD~1 &&
	git_ -C "$2" reset -q --soft HEAD && git_ -C "$2" fetch -q . main &&
	git_ -C "$2" rev-parse HEAD~2 >"$2/.git/shallow"
}

# The planted files, relative to the git directory.
planted='refs/heads/loose packed-refs logs/refs/heads/main logs/HEAD worktrees/wt/HEAD ORIG_HEAD FETCH_HEAD shallow'
plant() {
	d=$1/.git
	for f in $planted; do flat "$f" && cp "$d/$f" "$1.orig.$flat"; done
	upcase "$d/refs/heads/loose" '{ print toupper($0) }'
	upcase "$d/packed-refs" '/refs\/tags\/v1$/ { $1 = toupper($1) } /^\^/ { $0 = toupper($0) } { print }'
	# A reflog line: "<old> <new> <who> <when>\t<message>": one ID, keeping the tab.
	upcase "$d/logs/refs/heads/main" 'NR == 2 { l = index($0, " ") - 1; $0 = toupper(substr($0, 1, l)) substr($0, l + 1) } { print }'
	upcase "$d/logs/HEAD" 'NR == 1 { l = index($0, " "); $0 = substr($0, 1, l) toupper(substr($0, l + 1, l - 1)) substr($0, 2 * l) } { print }'
	upcase "$d/worktrees/wt/HEAD" '{ print toupper($0) }'
	upcase "$d/ORIG_HEAD" '{ print toupper($0) }'
	upcase "$d/FETCH_HEAD" '{ sub(/^[0-9a-f]+/, toupper(substr($0, 1, index($0, "\t") - 1))); print }'
	upcase "$d/shallow" '{ print toupper($0) }'
}

# What Git 2.x reads: refs with their peeled IDs, the reflogs' IDs, HEADs and pseudo-refs.
state() {
	git_ -C "$1" for-each-ref --format='%(objectname) %(*objectname) %(refname)' &&
	git_ -C "$1" reflog show --format='%H %gd %gs' main -- &&
	git_ -C "$1" reflog show --format='%H %gd %gs' HEAD -- &&
	git_ -C "$1" rev-parse HEAD ORIG_HEAD FETCH_HEAD &&
	git_ -C "${1%/*}/wt" rev-parse HEAD && git_ -C "$1" log --format='%H %P' --all
}

# Every regular file of the git directory with its checksum, locks and all.
snapshot() { (cd "$1/.git" && find . -type f -exec md5sum {} + | sort -k 2); }
leftovers() { found_left "$1" | sort; }
# found_left REPO: the same, unsorted (whether there are any: one process less).
found_left() { find "$1/.git" \( -name '*.lock' -o -name 'hexoid-repair.journal*' -o -name '*.new' \); }

for algo in sha1 sha256; do
	r=$tmp/$algo/r
	mkdir -p "$tmp/$algo"
	if ! make_repo "$algo" "$r" >"$tmp/err" 2>&1; then
		fail "$algo: a repository for the repair: $(head -1 "$tmp/err")"
		continue
	fi
	state "$r" >"$tmp/before" 2>&1
	plant "$r"

	# Git 2.x reads the planted repository as before; the Git 3.0 build does not.
	state "$r" >"$tmp/planted" 2>&1
	if cmp -s "$tmp/before" "$tmp/planted"; then
		pass "$algo: Git 2.x reads the planted repository as before"
	else
		fail "$algo: Git 2.x reads the planted repository differently"
	fi
	if [ -z "$g3" ]; then
		skip "$algo: the Git 3.0 build rejects the planted repository" "$g3_why"
	elif ! git3_ -C "$r" for-each-ref >/dev/null 2>&1 && ! git3_ -C "${r%/*}/wt" status >/dev/null 2>&1 &&
		! git3_ -C "$r" rev-parse --verify -q ORIG_HEAD >/dev/null 2>&1; then
		pass "$algo: the Git 3.0 build rejects the planted repository (packed-refs, the worktree's HEAD, ORIG_HEAD)"
	else
		fail "$algo: the Git 3.0 build reads the planted repository: the plant proves nothing"
	fi

	# --dry-run: the plan, nothing changed.
	snapshot "$r" >"$tmp/snap1"
	$H repair --dry-run "$r" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	snapshot "$r" >"$tmp/snap2"
	nplan=$(grep -c ': would lowercase' "$tmp/out")
	if [ $rc = 1 ] && [ "$nplan" = 8 ] && cmp -s "$tmp/snap1" "$tmp/snap2"; then
		pass "$algo: --dry-run plans the 8 files, exit 1, and changes nothing"
	else
		fail "$algo: --dry-run: exit $rc, $nplan files planned, changed: $(cmp -s "$tmp/snap1" "$tmp/snap2" && echo no || echo yes)"
		sed 's/^/#   /' "$tmp/out" | head -12
	fi

	# The repair itself: modes kept, each file its planted bytes lowercased.
	chmod 640 "$r/.git/refs/heads/loose"
	$H repair "$r" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	ndone=$(grep -c ': done: ' "$tmp/out")
	if [ $rc = 0 ] && [ "$ndone" = 8 ]; then
		pass "$algo: repair: 8 files done, exit 0"
	else
		fail "$algo: repair: exit $rc, $ndone files done"
		sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -12
	fi
	bad=
	for f in $planted; do
		flat "$f" && cmp -s "$r.orig.$flat" "$r/.git/$f" || bad="$bad $f"
	done
	[ -z "$bad" ] && pass "$algo: each repaired file is byte for byte what git wrote before the IDs were made uppercase" ||
		fail "$algo: repaired files differ from what git wrote:$bad"
	mode=$(stat -c %a "$r/.git/refs/heads/loose")
	[ "$mode" = 640 ] && pass "$algo: a file's mode is kept (640)" || fail "$algo: mode $mode, not 640"
	state "$r" >"$tmp/after" 2>&1
	if cmp -s "$tmp/before" "$tmp/after"; then
		pass "$algo: Git 2.x reads the same refs, reflogs, HEADs and history after the repair"
	else
		fail "$algo: Git 2.x reads something else after the repair"
		diff "$tmp/before" "$tmp/after" | sed 's/^/#   /' | head -8
	fi
	left=$(leftovers "$r")
	[ -z "$left" ] && pass "$algo: no lock, journal or .new file left" || fail "$algo: left behind: $left"
	$H audit "$r" >"$tmp/out" 2>&1
	rc=$?
	[ $rc = 0 ] && pass "$algo: the audit finds nothing after the repair" ||
		{ fail "$algo: the audit after the repair: exit $rc"; grep '^\[' "$tmp/out" | sed 's/^/#   /' | head -5; }
	$H repair "$r" >"$tmp/out" 2>&1
	rc=$?
	grep -q ': 0 files repaired' "$tmp/out" && [ $rc = 0 ] &&
		pass "$algo: a second repair has nothing to do" || fail "$algo: a second repair: exit $rc"

	# The Git 3.0 build reads all of it now.
	if [ -z "$g3" ]; then
		skip "$algo: the Git 3.0 build after the repair" "$g3_why"
	else
		why=
		git3_ -C "$r" fsck --no-progress >/dev/null 2>&1 || why="$why fsck"
		git3_ -C "$r" log --all --oneline >/dev/null 2>&1 || why="$why log"
		git3_ -C "$r" rev-list --objects --all >/dev/null 2>&1 || why="$why rev-list"
		git3_ -C "${r%/*}/wt" status >/dev/null 2>&1 || why="$why worktree-status"
		git3_ -C "$r" rev-parse ORIG_HEAD FETCH_HEAD >/dev/null 2>&1 || why="$why rev-parse"
		cp -a "$r" "$tmp/$algo/m" 2>/dev/null
		rm -rf "$tmp/$algo/m/.git/worktrees" # refs migrate does not take worktrees yet
		lines=$(cat "$r/.git/logs/refs/heads/main" "$r/.git/logs/HEAD" | wc -l)
		git3_ -C "$r" reflog expire --expire=never --expire-unreachable=never --all >/dev/null 2>&1 || why="$why reflog-expire"
		lines2=$(cat "$r/.git/logs/refs/heads/main" "$r/.git/logs/HEAD" | wc -l)
		[ "$lines" = "$lines2" ] || why="$why reflog-lines($lines/$lines2)"
		git3_ -C "$tmp/$algo/m" refs migrate --ref-format=reftable >/dev/null 2>&1 || why="$why refs-migrate"
		git3_ -C "$tmp/$algo/m" for-each-ref --format='%(objectname) %(*objectname) %(refname)' >"$tmp/m" 2>&1
		git_ -C "$r" for-each-ref --format='%(objectname) %(*objectname) %(refname)' | cmp -s - "$tmp/m" ||
			why="$why refs-kept"
		git3_ -C "$r" gc -q >/dev/null 2>&1 || why="$why gc"
		git3_ -C "$r" repack -a -d -q >/dev/null 2>&1 || why="$why repack"
		git3_ clone -q --bare "$r" "$tmp/$algo/c.git" >/dev/null 2>&1 || why="$why clone"
		git3_ -C "$r" push -q "$tmp/$algo/c.git" feature:pushed >/dev/null 2>&1 || why="$why push"
		[ -z "$why" ] && pass "$algo: the Git 3.0 build: fsck, log, rev-list, worktree, reflog expire (every line kept), refs migrate (every ref kept), gc, repack, clone, push" ||
			fail "$algo: the Git 3.0 build fails after the repair:$why"
	fi
done

# ---------------------------------------------------------------------------------------
# Names that are IDs: a loose object named in uppercase, one whose lowercase twin git has,
# and a loose replace ref with its reflog; Git 3.0 skips the first and ignores the last.
for algo in sha1 sha256; do
	r=$tmp/names-$algo/r
	mkdir -p "$tmp/names-$algo"
	make_repo "$algo" "$r" >/dev/null 2>&1
	o=$r/.git/objects
	blob=$(echo hello | git_ -C "$r" hash-object -w --stdin)
	twin=$(echo twin | git_ -C "$r" hash-object -w --stdin)
	b1=${blob%"${blob#??}"} b2=${blob#??} t1=${twin%"${twin#??}"} t2=${twin#??}
	mv "$o/$b1/$b2" "$o/$b1/$(echo "$b2" | up)"
	cp -p "$o/$t1/$t2" "$o/$t1/$(echo "$t2" | up)"
	old=$(git_ -C "$r" rev-parse HEAD~2) new=$(git_ -C "$r" rev-parse HEAD)
	git_ -C "$r" -c core.logAllRefUpdates=always replace "$old" "$new"
	mv "$r/.git/refs/replace/$old" "$r/.git/refs/replace/$(echo "$old" | up)"
	mv "$r/.git/logs/refs/replace/$old" "$r/.git/logs/refs/replace/$(echo "$old" | up)"
	# Git 2.x honours the replace ref, and lists the object (cat-file --batch-all-objects)
	# but cannot read it by its ID: it looks under the lowercase name.
	git_ -C "$r" log --format='%H %s' --all >"$tmp/n1" 2>&1
	if [ -n "$g3" ]; then
		git3_ -C "$r" log --format='%H %s' --all 2>/dev/null | cmp -s - "$tmp/n1" && pre=same || pre=differs
		git3_ -C "$r" cat-file -e "$blob" 2>/dev/null && pre="$pre,blob" || pre="$pre,noblob"
	fi
	$H repair "$r" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	git_ -C "$r" log --format='%H %s' --all >"$tmp/n2" 2>&1
	if [ $rc = 0 ] && [ "$(git_ -C "$r" cat-file -p "$blob")" = hello ] && [ "$(grep -c ': done: renamed to ' "$tmp/out")" = 3 ] && cmp -s "$tmp/n1" "$tmp/n2" &&
		[ -f "$o/$b1/$b2" ] && [ ! -e "$o/$b1/$(echo "$b2" | up)" ] && [ ! -e "$o/$t1/$(echo "$t2" | up)" ] &&
		[ -f "$r/.git/refs/replace/$old" ] && [ -f "$r/.git/logs/refs/replace/$old" ] &&
		$H audit "$r" >/dev/null 2>&1; then
		pass "$algo: names: a loose object renamed (Git 2.x now reads it by its ID too), its twin's other name removed, a replace ref and its reflog renamed (Git 2.x reads the same history), the audit is clean"
	else
		fail "$algo: names: exit $rc"
		sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -8
	fi
	if [ -z "$g3" ]; then
		skip "$algo: names: the Git 3.0 build" "$g3_why"
	elif [ "$pre" = "differs,noblob" ] && git3_ -C "$r" log --format='%H %s' --all 2>/dev/null >"$tmp/n3" &&
		cmp -s "$tmp/n1" "$tmp/n3" && [ "$(git3_ -C "$r" cat-file -p "$blob" 2>/dev/null)" = hello ]; then
		pass "$algo: names: the Git 3.0 build ignored the replace ref and missed the object before, reads both as Git 2.x does after"
	else
		fail "$algo: names: the Git 3.0 build, before: $pre; after: $(git3_ -C "$r" log --format='%H %s' --all 2>&1 | head -2 | tr '\n' ' ')"
	fi
done
# A loose folder named in uppercase (Git 2.x reads it only where file names ignore case),
# one of its objects named in uppercase too: every object moved into the lowercase folder.
r=$tmp/names-dir/r
mkdir -p "$tmp/names-dir"
git_ init -q "$r"
# (300 of them: some folder holds several.)
mkdir -p "$tmp/blobs.d"
awk -v d="$tmp/blobs.d" 'BEGIN { for (i = 1; i <= 300; i++) { f = d "/" i; print "blob " i > f; close(f) } }'
git_ -C "$r" hash-object -w "$tmp"/blobs.d/* >"$tmp/ids"
d=$(cut -c1-2 "$tmp/ids" | grep '[a-f]' | sort | uniq -c | sort -rn | awk '{ print $2; exit }')
D=$(echo "$d" | up)
mv "$r/.git/objects/$d" "$r/.git/objects/$D"
first=$(ls "$r/.git/objects/$D" | head -1)
mv "$r/.git/objects/$D/$first" "$r/.git/objects/$D/$(echo "$first" | up)"
git_ -C "$r" cat-file --batch-check <"$tmp/ids" | grep -c missing >"$tmp/miss1"
$H repair "$r" >"$tmp/out" 2>&1
rc=$?
if [ $rc = 0 ] && [ ! -e "$r/.git/objects/$D" ] && [ "$(cat "$tmp/miss1")" -gt 0 ] &&
	! git_ -C "$r" cat-file --batch-check <"$tmp/ids" | grep -q missing && $H audit "$r" >/dev/null 2>&1; then
	pass "a loose folder named in uppercase: its $(ls "$r/.git/objects/$d" | wc -l) objects moved into the lowercase one (one named in uppercase too); Git 2.x finds every object, $(cat "$tmp/miss1") of which it missed before"
else
	fail "a loose folder named in uppercase: exit $rc"
	sed 's/^/#   /' "$tmp/out" | head -5
fi

# Replace refs in packed-refs, their names made uppercase (and out of order for git):
# renamed in place, the records sorted again as git sorts them.
r=$tmp/names-packed/r
mkdir -p "$tmp/names-packed"
git_ init -q "$r"
for _c in 1 2 3 4 5 6 7 8 9; do git_ -C "$r" commit -q --allow-empty -m "p$_c"; done
for _c in $(git_ -C "$r" rev-list --skip=1 HEAD); do git_ -C "$r" replace "$_c" HEAD; done
git_ -C "$r" pack-refs --all
git_ -C "$r" for-each-ref --format='%(objectname) %(refname)' refs/replace >"$tmp/pr1"
git_ -C "$r" log --format=%H --all >>"$tmp/pr1"
# The last: its ID starts with a letter, as another's does, and in uppercase it sorts
# before that one; the file sorted as git sorts it (no peeled lines here: commits). So
# lowercased where it stands, it would be out of git's order. (The dates are fixed, so
# are the IDs.)
last=$(grep -c . "$r/.git/packed-refs")
upcase "$r/.git/packed-refs" "NR == $last"' { $2 = "refs/replace/" toupper(substr($2, 14)) } { print }'
{ head -n 1 "$r/.git/packed-refs"; tail -n +2 "$r/.git/packed-refs" | LC_ALL=C sort -k2; } >"$tmp/pr-sorted"
cat "$tmp/pr-sorted" >"$r/.git/packed-refs"
tr A-F a-f <"$tmp/pr-sorted" | grep -v '^[#^]' | cut -d' ' -f2 | LC_ALL=C sort -c 2>/dev/null &&
	fail "replace refs in packed-refs: lowercased in place they stay in order: the test proves less"
$H repair "$r" >"$tmp/out" 2>&1
rc=$?
git_ -C "$r" for-each-ref --format='%(objectname) %(refname)' refs/replace >"$tmp/pr2"
git_ -C "$r" log --format=%H --all >>"$tmp/pr2"
if [ $rc = 0 ] && cmp -s "$tmp/pr1" "$tmp/pr2" && grep -v '^[#^]' "$r/.git/packed-refs" | cut -d' ' -f2 | LC_ALL=C sort -c &&
	! grep -q 'refs/replace/.*[A-F]' "$r/.git/packed-refs" && { [ -z "$g3" ] || git3_ -C "$r" log --format=%H --all 2>/dev/null | cmp -s - "$(sed -n '9,$p' "$tmp/pr1" >"$tmp/pr3" && echo "$tmp/pr3")"; }; then
	pass "replace refs in packed-refs renamed in place and sorted again; Git 2.x (and the Git 3.0 build) read them as before"
else
	fail "replace refs in packed-refs: exit $rc"
	sed 's/^/#   /' "$tmp/out" | head -5
fi

# A loose object whose content is another object's: not renamed.
r=$tmp/names-sha1/r
x=$(echo other | git_ -C "$r" hash-object -w --stdin)
y=$(echo yet-another | git_ -C "$r" hash-object --stdin)
mkdir -p "$r/.git/objects/${y%"${y#??}"}"
cp "$r/.git/objects/${x%"${x#??}"}/${x#??}" "$r/.git/objects/${y%"${y#??}"}/$(echo "${y#??}" | up)"
$H repair "$r" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "^\[loose-objects\] objects/.*: failed: its content hashes to another ID" "$tmp/out" &&
	[ -f "$r/.git/objects/${y%"${y#??}"}/$(echo "${y#??}" | up)" ] && [ ! -e "$r/.git/objects/${y%"${y#??}"}/${y#??}" ] &&
	pass "a loose object whose content hashes to another ID is not renamed: failed, exit 2" ||
	{ fail "a loose object of the wrong content: exit $rc"; sed 's/^/#   /' "$tmp/out" | head -5; }

# ---------------------------------------------------------------------------------------
# More places, each as git leaves it: a split commit-graph's chain (its line naming a file
# git wrote in lowercase; and one whose file is named as the uppercase line says), a
# stopped interactive rebase, a submodule's repository under modules/.
r=$tmp/more/r
mkdir -p "$tmp/more"
make_repo sha1 "$r" >/dev/null 2>&1
rm -f "$r/.git/shallow" # git writes no commit-graph in a shallow repository
git_ -C "$r" commit-graph write --split --reachable >/dev/null 2>&1
chain=$r/.git/objects/info/commit-graphs/commit-graph-chain
git_ -C "$r" -c sequence.editor='sed -i 1s/^pick/edit/' rebase -q -i HEAD~2 >/dev/null 2>&1
git_ init -q "$tmp/more/subsrc" && git_ -C "$tmp/more/subsrc" commit -q --allow-empty -m s
git_ -C "$r" -c protocol.file.allow=always submodule add -q "$tmp/more/subsrc" sub >/dev/null 2>&1
git_ -C "$r/sub" pack-refs --all
more='objects/info/commit-graphs/commit-graph-chain rebase-merge/orig-head rebase-merge/onto rebase-merge/done modules/sub/packed-refs'
ok=1
for f in $more; do [ -f "$r/.git/$f" ] || ok=0; done
if [ $ok = 0 ]; then
	fail "more places: git did not leave them all: $(for f in $more; do [ -f "$r/.git/$f" ] || echo "$f"; done | tr '\n' ' ')"
else
	for f in $more; do flat "$f" && cp "$r/.git/$f" "$tmp/more/$flat"; done
	upcase "$chain" '{ print toupper($0) }'
	upcase "$r/.git/rebase-merge/orig-head" '{ print toupper($0) }'
	upcase "$r/.git/rebase-merge/onto" '{ print toupper($0) }'
	upcase "$r/.git/rebase-merge/done" '{ $2 = toupper($2); print }'
	upcase "$r/.git/modules/sub/packed-refs" '/^[0-9a-f]/ { $1 = toupper($1) } { print }'
	$H repair "$r" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	bad=
	for f in $more; do flat "$f" && cmp -s "$r/.git/$f" "$tmp/more/$flat" || bad="$bad $f"; done
	if [ $rc = 0 ] && [ -z "$bad" ] && [ "$(grep -c ': done: ' "$tmp/out")" = 5 ] &&
		git_ -C "$r" commit-graph verify >/dev/null 2>&1 && $H audit "$r" >/dev/null 2>&1; then
		pass "a commit-graph chain, a stopped rebase's orig-head, onto and done, a submodule's packed-refs: each file byte for byte what git wrote"
	else
		fail "more places: exit $rc, differ:$bad"
		sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -8
	fi
	if [ -z "$g3" ]; then
		skip "more places: the Git 3.0 build" "$g3_why"
	else
		why=
		git3_ -C "$r" commit-graph verify >/dev/null 2>&1 || why="$why commit-graph"
		git3_ -C "$r/sub" log --oneline >/dev/null 2>&1 || why="$why submodule"
		git3_ -C "$r" rebase --abort >/dev/null 2>&1 || why="$why rebase-abort"
		[ -z "$why" ] && pass "more places: the Git 3.0 build verifies the commit-graph, reads the submodule, aborts the rebase" ||
			fail "more places: the Git 3.0 build:$why"
	fi
	# The chain's file named as its uppercase line says (Git 2.x finds it by that text):
	# the lowercase name is made a second name of it.
	g=$(cat "$chain")
	upper=$(echo "$g" | up)
	mv "$r/.git/objects/info/commit-graphs/graph-$g.graph" "$r/.git/objects/info/commit-graphs/graph-$upper.graph"
	echo "$upper" >"$chain"
	$H repair "$r" >"$tmp/out" 2>&1
	rc=$?
	[ $rc = 0 ] && [ "$(cat "$chain")" = "$g" ] && [ -f "$r/.git/objects/info/commit-graphs/graph-$g.graph" ] &&
		git_ -C "$r" commit-graph verify >/dev/null 2>&1 &&
		pass "a chain whose file has the uppercase name: the line lowercased, the file given the lowercase name too" ||
		{ fail "a chain's uppercase file: exit $rc"; sed 's/^/#   /' "$tmp/out" | head -4; }
fi

# ---------------------------------------------------------------------------------------
# Notes with fanout (300 notes by fast-import, one by git notes add, which fans the tree
# out), one fanout folder renamed in uppercase: Git 2.x reads its notes, the Git 3.0 build
# loses them. The repair writes a notes commit that names them all in lowercase.
for algo in sha1 sha256; do
	r=$tmp/notes-$algo/r
	mkdir -p "$tmp/notes-$algo"
	git_ init -q --object-format="$algo" "$r" && (cd "$r" &&
		awk 'BEGIN { for (i = 1; i <= 300; i++) {
				printf "commit refs/heads/main\nmark :%d\ncommitter c <c@example.com> 1700000000 +0000\ndata 6\nc%04d\n", i, i
				if (i > 1) printf "from :%d\n", i - 1
				print "" }
			print "commit refs/notes/commits\ncommitter c <c@example.com> 1700000000 +0000\ndata 0"
			for (i = 1; i < 300; i++) printf "N inline :%d\ndata 5\nnote\n", i }' |
			git_ fast-import --quiet && git_ checkout -q main && git_ notes add -m last HEAD) >/dev/null 2>&1
	dir=$(git_ -C "$r" ls-tree refs/notes/commits 2>/dev/null | awk '$2 == "tree" && $4 ~ /[a-f]/ { print $4; exit }')
	if [ -z "$dir" ]; then
		fail "$algo: notes with fanout: git made none"
		continue
	fi
	git_ -C "$r" notes list >"$tmp/nl1"
	t=$(git_ -C "$r" ls-tree refs/notes/commits | awk -v d="$dir" -v u="$(echo "$dir" | up)" -F '\t' '$2 == d { $0 = $1 "\t" u } { print }' | git_ -C "$r" mktree)
	c=$(echo renamed | git_ -C "$r" commit-tree "$t" -p refs/notes/commits) && git_ -C "$r" update-ref refs/notes/commits "$c"
	git_ -C "$r" notes list >"$tmp/nl2"
	[ -n "$g3" ] && before=$(git3_ -C "$r" notes list 2>/dev/null | wc -l)
	$H repair "$r" >"$tmp/out" 2>&1
	rc=$?
	git_ -C "$r" notes list >"$tmp/nl3"
	if [ $rc = 0 ] && cmp -s "$tmp/nl1" "$tmp/nl2" && cmp -s "$tmp/nl1" "$tmp/nl3" &&
		grep -q '^\[notes\] refs/notes/commits: done: notes commit ' "$tmp/out" &&
		[ "$(git_ -C "$r" rev-parse refs/notes/commits^)" = "$c" ] && $H audit "$r" >/dev/null 2>&1 &&
		! git_ -C "$r" ls-tree refs/notes/commits | cut -f2 | grep -q '[A-F]'; then
		pass "$algo: notes in an uppercase fanout folder: a new notes commit on the old one, every note named in lowercase, Git 2.x lists the same 300, the audit is clean"
	else
		fail "$algo: notes fanout: exit $rc"
		sed 's/^/#   /' "$tmp/out" | head -5
	fi
	if [ -z "$g3" ]; then
		skip "$algo: notes fanout: the Git 3.0 build" "$g3_why"
	else
		after=$(git3_ -C "$r" notes list 2>/dev/null | wc -l)
		[ "$before" -lt 300 ] && [ "$after" = 300 ] &&
			pass "$algo: notes fanout: the Git 3.0 build listed $before notes before, all 300 after" ||
			fail "$algo: notes fanout: the Git 3.0 build listed $before before, $after after"
	fi
done

# ---------------------------------------------------------------------------------------
# Locks: one real git holds, and the journal of a repair that was killed.
r=$tmp/lk/r
mkdir -p "$tmp/lk"
make_repo sha1 "$r" >/dev/null 2>&1 && plant "$r"
loose=$(cat "$r/.git/refs/heads/loose")
old=$(git_ -C "$r" rev-parse loose)
mkfifo "$tmp/fifo"
# A transaction of git update-ref --stdin, prepared: it holds refs/heads/loose.lock until
# told to abort.
git_ -C "$r" update-ref --stdin <"$tmp/fifo" >"$tmp/ur.out" 2>&1 &
urpid=$!
exec 7>"$tmp/fifo"
printf 'start\nupdate refs/heads/loose %s %s\nprepare\n' "$(git_ -C "$r" rev-parse main)" "$old" >&7
i=0
while [ ! -e "$r/.git/refs/heads/loose.lock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
$H repair "$r" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 3 ] && grep -q '^\[refs\] refs/heads/loose: locked: ' "$tmp/out" &&
	[ "$(cat "$r/.git/refs/heads/loose")" = "$loose" ] && [ -e "$r/.git/refs/heads/loose.lock" ] &&
	[ "$(grep -c ': done: ' "$tmp/out")" = 7 ]; then
	pass "a lock git update-ref --stdin holds: that ref left, its lock kept, 7 files done, exit 3"
else
	fail "a lock git holds: exit $rc"
	sed 's/^/#   /' "$tmp/out" | head -10
fi
printf 'abort\n' >&7
exec 7>&-
wait $urpid
$H repair "$r" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && [ "$(cat "$r/.git/refs/heads/loose")" = "$old" ] &&
	pass "the transaction aborted: a second run repairs the ref, exit 0" ||
	fail "after the transaction: exit $rc, loose is $(cat "$r/.git/refs/heads/loose")"

# Another repair's journal, its process alive: exit 2, nothing touched.
plant "$r"
printf 'hexoid-repair %s %s\n' $$ "$(hostname)" >"$r/.git/hexoid-repair.journal"
snapshot "$r" >"$tmp/snap1"
$H repair "$r" >"$tmp/out" 2>"$tmp/err"
judge "a journal whose repair still runs: exit 2, nothing touched" 2 "another repair (pid $$" $?
snapshot "$r" | cmp -s - "$tmp/snap1" || fail "a journal whose repair still runs: something changed"

# A killed repair's journal: its lock that is still the same file is removed, a lock git
# made since under another name it had used is not.
true &
wait $!
dead=$!
: >"$r/.git/refs/heads/loose.lock"
: >"$r/.git/ORIG_HEAD.lock"
lock_id() { stat -c '%d %i' "$1"; }
{
	printf 'hexoid-repair %s %s\n' "$dead" "$(hostname)"
	printf 'tmp refs/heads/.loose.lock.%s-1.hexoid.lock\n' "$dead"
	printf 'lock %s refs/heads/loose.lock\n' "$(lock_id "$r/.git/refs/heads/loose.lock")"
	printf 'lock 1 1 ORIG_HEAD.lock\n'
} >"$r/.git/hexoid-repair.journal"
$H repair "$r" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 3 ] && grep -q '1 lock of a repair that was killed removed first' "$tmp/out" &&
	[ ! -e "$r/.git/refs/heads/loose.lock" ] && [ -e "$r/.git/ORIG_HEAD.lock" ] &&
	grep -q '^\[pseudo-refs\] ORIG_HEAD: locked' "$tmp/out" && [ ! -e "$r/.git/hexoid-repair.journal" ]; then
	pass "a killed repair's journal: its own lock removed, one it did not make kept (ORIG_HEAD left, exit 3)"
else
	fail "a killed repair's journal: exit $rc"
	sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -10
fi
rm -f "$r/.git/ORIG_HEAD.lock"

# ---------------------------------------------------------------------------------------
# Killed between any two steps: Git 2.x reads the repository as before at every point,
# and a second run finishes.
r=$tmp/kill/r
mkdir -p "$tmp/kill"
make_repo sha1 "$r" >/dev/null 2>&1
# (what git reads is compared in the shell: a cmp less each time; git's output ends in
# a newline, which $(...) drops on both sides alike)
kbefore=$(state "$r" 2>&1)
plant "$r"
mkdir "$tmp/kill/seed"
cp -a "$r" "$tmp/kill/wt" "$tmp/kill/seed/"
k=0 bad= killed=0
# (each step in a copy of its own, $tmp/kill/K, the worktree's two paths written for
# it: no rm of the last one)
while [ $k -lt 200 ]; do
	cp -a "$tmp/kill/seed" "$tmp/kill/$k"
	r=$tmp/kill/$k/r
	printf 'gitdir: %s\n' "$r/.git/worktrees/wt" >"$tmp/kill/$k/wt/.git"
	printf '%s\n' "$tmp/kill/$k/wt/.git" >"$r/.git/worktrees/wt/gitdir"
	HEXOID_REPAIR_KILL_AFTER=$k $H repair "$r" >"$tmp/out" 2>&1
	rc=$?
	[ $rc = 0 ] && break
	if [ $rc != 137 ]; then
		bad="$bad step$k:exit$rc"
		break
	fi
	killed=$((killed + 1))
	[ "$(state "$r" 2>&1)" = "$kbefore" ] || bad="$bad step$k:git-reads-otherwise"
	$H repair "$r" >"$tmp/out" 2>&1 || bad="$bad step$k:second-run-exit$?"
	[ "$(state "$r" 2>&1)" = "$kbefore" ] || bad="$bad step$k:after-second-run"
	[ -z "$(found_left "$r")" ] || bad="$bad step$k:leftovers($(leftovers "$r" | tr '\n' ' '))"
	$H audit "$r" >/dev/null 2>&1 || bad="$bad step$k:audit"
	k=$((k + 1))
done
if [ -z "$bad" ] && [ $killed -ge 24 ]; then
	pass "killed before each of its $killed steps: Git 2.x reads the same at once, a second run finishes, nothing left behind"
else
	fail "killed at each step ($killed kills):$bad"
fi

# ---------------------------------------------------------------------------------------
# Beside real git: commits, ref updates and pack-refs while repairs run; no update lost.
r=$tmp/live/r
mkdir -p "$tmp/live"
make_repo sha1 "$r" >/dev/null 2>&1
c1=$(git_ -C "$r" rev-parse HEAD~2)
i=0
U1=$(echo "$c1" | up)
while [ $i -lt 150 ]; do echo "$U1" >"$r/.git/refs/heads/u$i"; i=$((i + 1)); done
(
	set +e
	i=0
	while [ $i -lt 60 ]; do
		git_ -C "$r" commit -q --allow-empty -m "w$i" || echo "commit $i failed"
		git_ -C "$r" update-ref "refs/heads/w$i" HEAD || echo "update-ref $i failed"
		[ $((i % 20)) = 10 ] && { git_ -C "$r" pack-refs --all || echo "pack-refs $i failed"; }
		i=$((i + 1))
	done
	git_ -C "$r" rev-parse HEAD >"$tmp/live/head"
) >"$tmp/live/writer" 2>&1 &
wpid=$!
runs=0 worst=0
while kill -0 $wpid 2>/dev/null; do
	$H repair -q "$r" >>"$tmp/live/out" 2>&1
	rc=$?
	runs=$((runs + 1))
	[ $rc = 2 ] && worst=2
done
wait $wpid
$H repair -q "$r" >>"$tmp/live/out" 2>&1
last=$?
# The branches git lists, once: each w<i> must be there, and the 150 u<i>.
git_ -C "$r" for-each-ref --format='%(refname)' refs/heads >"$tmp/live/refs"
set -- $(awk '{ have[$0] = 1 } /^refs\/heads\/u[0-9]/ { nu++ }
	END { print nu + 0; for (i = 0; i < 60; i++) if (!(("refs/heads/w" i) in have)) printf " w%d", i }' "$tmp/live/refs")
nu=$1
shift
lost=
for w; do lost="$lost $w"; done
[ "$(git_ -C "$r" rev-parse main)" = "$(cat "$tmp/live/head")" ] || lost="$lost main"
[ "$(git_ -C "$r" rev-list --count main)" = 63 ] || lost="$lost history"
if [ -z "$lost" ] && [ ! -s "$tmp/live/writer" ] && [ $worst = 0 ] && [ $last = 0 ] &&
	[ "$nu" = 150 ] && $H audit "$r" >/dev/null 2>&1; then
	pass "beside git writing ($runs repairs meanwhile): no update lost, git never failed, then clean"
else
	fail "beside git writing: lost:$lost; writer: $(head -2 "$tmp/live/writer" | tr '\n' ' '); worst exit $worst, last $last, $(git_ -C "$r" for-each-ref --format='%(refname)' refs/heads | grep -c '^refs/heads/u[0-9]') u refs"
	$H audit "$r" | grep '^\[' | sed 's/^/#   /' | head -3
	grep -v ': 0 files repaired' "$tmp/live/out" | sed 's/^/#   /' | head -6
fi

# ---------------------------------------------------------------------------------------
# What repair leaves: a commit with an uppercase parent header, and a file outside the git
# directory that the config names.
r=$tmp/left/r
mkdir -p "$tmp/left"
make_repo sha1 "$r" >/dev/null 2>&1
tree=$(git_ -C "$r" rev-parse 'HEAD^{tree}')
parent=$(git_ -C "$r" rev-parse HEAD | up)
bad=$(printf 'tree %s\nparent %s\nauthor a <a@b> 1 +0000\ncommitter a <a@b> 1 +0000\n\nbad\n' "$tree" "$parent" |
	git_ -C "$r" hash-object -t commit -w --stdin --literally)
git_ -C "$r" update-ref refs/heads/bad "$bad"
git_ -C "$r" rev-parse HEAD | up >"$r/ignore-revs"
git_ -C "$r" config blame.ignoreRevsFile ignore-revs
cp "$r/ignore-revs" "$tmp/left/ir"
$H repair "$r" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -q "^left: \[loose-objects\] objects/.*: commit $bad: parent header" "$tmp/out" &&
	grep -q '^\[config-files\] ignore-revs:1:[0-9]*: shown: ' "$tmp/out" && cmp -s "$r/ignore-revs" "$tmp/left/ir"; then
	pass "a commit's uppercase header is left and reported, a work-tree file shown and not written: exit 1"
else
	fail "what repair leaves: exit $rc"
	sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -8
fi
$H repair --json-lines "$r" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -q '"type": "left", "repository": ' "$tmp/out" &&
	grep -q '"type": "action", .*"kind": "show", "outcome": "shown"' "$tmp/out" &&
	grep -q '"type": "repository", .*"left_git3": 1, .*"exit": 1}' "$tmp/out" &&
	tail -1 "$tmp/out" | grep -q '"type": "run", "command": "repair", "repositories": 1, "dry_run": false, "exit": 1}'; then
	pass "--json-lines: the left finding, the shown action, the repository's counts and the run's"
else
	fail "--json-lines: exit $rc"
	sed 's/^/#   /' "$tmp/out" | head -6
fi

# ---------------------------------------------------------------------------------------
# --rewrite-history: a commit whose tree and parent headers are uppercase (made with
# hash-object --literally), two commits and an annotated tag after it, a branch on it, a
# note on a later commit, a linked worktree detached on it. The new history must be what
# git fast-export | git fast-import makes of it, the bad commit's new ID its lowercase
# twin's, and the Git 3.0 build must read everything.
# mkbad DIR ALGO [SIGNATURE]: made by git once for each format (mkbad_git), then copied
# with its worktree, its two absolute paths written for the copy, and $tree, $par, $bad
# and $twin set as mkbad_git set them (the dates are fixed: the same repository).
mkbad() {
	if [ -n "${3:-}" ] || [ "${1##*/}" != r ]; then mkbad_git "$@"; return; fi
	b_seed=$tmp/seed-bad-$2
	if [ ! -d "$b_seed/r" ]; then
		mkdir -p "$b_seed" && mkbad_git "$b_seed/r" "$2" || { rm -rf "$b_seed"; return 1; }
		eval "seed_$2=\"\$tree \$par \$bad \$twin\""
	fi
	cp -a "$b_seed/r" "$b_seed/r.wt" "${1%/*}/" || return 1
	printf 'gitdir: %s\n' "$1/.git/worktrees/r.wt" >"$1.wt/.git" &&
		printf '%s\n' "$1.wt/.git" >"$1/.git/worktrees/r.wt/gitdir" || return 1
	eval "set -- \$seed_$2"
	tree=$1 par=$2 bad=$3 twin=$4
}
mkbad_git() {
	git_ init -q --object-format="$2" "$1" &&
	for _c in 1 2 3; do echo "$_c" >"$1/f"; git_ -C "$1" add f; git_ -C "$1" commit -q -m "c$_c" || return 1; done &&
	tree=$(git_ -C "$1" rev-parse 'HEAD^{tree}') && par=$(git_ -C "$1" rev-parse HEAD) &&
	body='author a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\n%s\nbad\n' &&
	bad=$(printf "tree %s\nparent %s\n$body" "$(echo "$tree" | up)" "$(echo "$par" | up)" "${3:-}" |
		git_ -C "$1" hash-object -t commit -w --stdin --literally) &&
	twin=$(printf "tree %s\nparent %s\n$body" "$tree" "$par" "${3:-}" | git_ -C "$1" hash-object -t commit --stdin) &&
	git_ -C "$1" update-ref -m bad refs/heads/main "$bad" && git_ -C "$1" commit -q --allow-empty -m c5 &&
	git_ -C "$1" notes add -m "a note" HEAD && git_ -C "$1" commit -q --allow-empty -m c6 &&
	git_ -C "$1" tag -a -m tag v1 HEAD && git_ -C "$1" branch side "$bad" &&
	git_ -C "$1" worktree add -q --detach "$1.wt" "$bad"
}
heads() { git_ -C "$1" for-each-ref --format='%(objectname) %(refname)' refs/heads refs/tags; }
for algo in sha1 sha256; do
	r=$tmp/rw-$algo/r
	mkdir -p "$tmp/rw-$algo"
	if ! mkbad "$r" "$algo" >"$tmp/err" 2>&1; then
		fail "$algo: rewrite: a repository: $(head -1 "$tmp/err")"
		continue
	fi
	# What fast-export | fast-import makes of the same history, in a new repository.
	git_ init -q --object-format="$algo" "$tmp/rw-$algo/fi"
	git_ -C "$r" fast-export --all --no-data 2>/dev/null >/dev/null
	git_ -C "$r" fast-export refs/heads/main refs/heads/side refs/tags/v1 2>/dev/null |
		git_ -C "$tmp/rw-$algo/fi" fast-import --quiet 2>/dev/null
	heads "$tmp/rw-$algo/fi" >"$tmp/fi"
	snapshot "$r" >"$tmp/snap1"
	$H repair --rewrite-history --dry-run "$r" >"$tmp/out" 2>&1
	rc=$?
	snapshot "$r" | cmp -s - "$tmp/snap1" && [ $rc = 1 ] && grep -q '3 commits and 1 tag to be written again' "$tmp/out" &&
		pass "$algo: rewrite --dry-run: 3 commits and 1 tag planned, nothing changed, exit 1" ||
		{ fail "$algo: rewrite --dry-run: exit $rc"; sed 's/^/#   /' "$tmp/out" | head -6; }
	$H repair --rewrite-history "$r" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	heads "$r" >"$tmp/ours"
	note=$(git_ -C "$r" notes show main~1 2>/dev/null)
	if [ $rc = 0 ] && cmp -s "$tmp/fi" "$tmp/ours" && [ "$(git_ -C "$r" rev-parse side)" = "$twin" ] &&
		[ "$(git_ -C "$r.wt" rev-parse HEAD)" = "$twin" ] && [ "$note" = "a note" ] &&
		[ "$(wc -l <"$r/.git/hexoid-rewrite-map")" = 4 ] && grep -q "^$bad $twin\$" "$r/.git/hexoid-rewrite-map" &&
		[ -z "$(leftovers "$r")" ] && $H audit "$r" >/dev/null 2>&1; then
		pass "$algo: rewrite: the refs are what fast-export | fast-import makes, the bad commit its lowercase twin, the worktree's HEAD and the note moved, the map written, the audit clean"
	else
		fail "$algo: rewrite: exit $rc, note '$note'"
		diff "$tmp/fi" "$tmp/ours" | sed 's/^/#   /' | head -6
		sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -8
	fi
	if [ -z "$g3" ]; then
		skip "$algo: rewrite: the Git 3.0 build" "$g3_why"
	else
		why=
		git3_ -C "$r" fsck --no-progress >/dev/null 2>&1 || why="$why fsck"
		git3_ -C "$r" log --all --oneline >/dev/null 2>&1 || why="$why log"
		git3_ -C "$r" rev-list --objects --all >/dev/null 2>&1 || why="$why rev-list"
		lines=$(cat "$r/.git/logs/refs/heads/side" "$r/.git/logs/refs/heads/main" | wc -l)
		git3_ -C "$r" reflog expire --expire=never --expire-unreachable=never --all >/dev/null 2>&1 || why="$why reflog-expire"
		[ "$lines" = "$(cat "$r/.git/logs/refs/heads/side" "$r/.git/logs/refs/heads/main" | wc -l)" ] || why="$why reflog-lines"
		git3_ -C "$r" repack -a -d -q >/dev/null 2>&1 || why="$why repack"
		git3_ -C "$r" gc -q >/dev/null 2>&1 || why="$why gc"
		git3_ clone -q --bare "$r" "$tmp/rw-$algo/c.git" >/dev/null 2>&1 || why="$why clone"
		git3_ -C "$r" push -q "$tmp/rw-$algo/c.git" side:pushed >/dev/null 2>&1 || why="$why push"
		[ -z "$why" ] && pass "$algo: rewrite: the Git 3.0 build: fsck, log, rev-list, reflog expire (every line kept), repack, gc, clone, push" ||
			fail "$algo: rewrite: the Git 3.0 build fails:$why"
	fi
done

# A signed commit on the way: not rewritten without --drop-signatures; with it, written
# again unsigned.
r=$tmp/rw-signed/r
mkdir -p "$tmp/rw-signed"
sig='gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n'
mkbad "$r" sha1 "" >/dev/null 2>&1
c5=$(git_ -C "$r" rev-parse main~1)
signed=$(git_ -C "$r" cat-file commit "$c5" | awk -v sig="$sig" 'BEGIN { gsub(/\\n/, "\n", sig) } /^committer / && !done { print; printf "%s", sig; done = 1; next } { print }' |
	git_ -C "$r" hash-object -t commit -w --stdin)
git_ -C "$r" update-ref refs/heads/signed "$signed"
heads "$r" >"$tmp/s1"
$H repair --rewrite-history "$r" >"$tmp/out" 2>&1
rc=$?
heads "$r" | cmp -s - "$tmp/s1" && [ $rc = 2 ] && grep -q "^\\[refs\\] $signed: failed: signed commit $signed" "$tmp/out" &&
	grep -q '^left: ' "$tmp/out" && pass "a signed commit on the way: nothing rewritten, it is named, exit 2" ||
	{ fail "a signed commit on the way: exit $rc"; sed 's/^/#   /' "$tmp/out" | head -6; }
$H repair --rewrite-history --drop-signatures "$r" >"$tmp/out" 2>&1
rc=$?
[ $rc = 0 ] && ! git_ -C "$r" cat-file commit signed | grep -q '^gpgsig' &&
	[ "$(git_ -C "$r" rev-parse signed~1)" = "$(git_ -C "$r" rev-parse side)" ] &&
	pass "--drop-signatures: written again without its signature, on the new history" ||
	{ fail "--drop-signatures: exit $rc"; sed 's/^/#   /' "$tmp/out" | tail -4; }

# Killed before each step of a rewrite: the refs are all old or all new at every moment,
# Git 2.x reads every one, and a second run finishes.
r=$tmp/rw-kill/r
mkdir -p "$tmp/rw-kill"
mkbad "$r" sha1 >/dev/null 2>&1
git_ -C "$r" worktree remove --force "$r.wt" >/dev/null 2>&1
cp -a "$r" "$tmp/rw-kill/seed"
k_old=$(heads "$r")
$H repair --rewrite-history "$r" >/dev/null 2>&1
k_new=$(heads "$r")
k=0 bad= killed=0
while [ $k -lt 100 ]; do
	r=$tmp/rw-kill/r$k
	cp -a "$tmp/rw-kill/seed" "$r"
	HEXOID_REPAIR_KILL_AFTER=$k $H repair --rewrite-history "$r" >"$tmp/out" 2>&1
	rc=$?
	[ $rc = 0 ] && break
	[ $rc = 137 ] || { bad="$bad step$k:exit$rc"; break; }
	killed=$((killed + 1))
	k_now=$(heads "$r")
	[ "$k_now" = "$k_old" ] || [ "$k_now" = "$k_new" ] || bad="$bad step$k:refs-half-moved"
	git_ -C "$r" log --all --oneline >/dev/null 2>&1 || bad="$bad step$k:git-log"
	$H repair --rewrite-history "$r" >/dev/null 2>&1 || bad="$bad step$k:second-run"
	[ "$(heads "$r")" = "$k_new" ] || bad="$bad step$k:not-finished"
	[ -z "$(found_left "$r")" ] || bad="$bad step$k:leftovers"
	$H audit "$r" >/dev/null 2>&1 || bad="$bad step$k:audit"
	k=$((k + 1))
done
[ -z "$bad" ] && [ $killed -ge 5 ] &&
	pass "a rewrite killed before each of its $killed steps: refs all old or all new, a second run finishes, the audit clean" ||
	fail "a rewrite killed at each step ($killed kills):$bad"

# --replace-refs: refs/replace/<old> for each object written again, so the old IDs
# resolve to the new objects.
r=$tmp/rw-replace/r
mkdir -p "$tmp/rw-replace"
mkbad "$r" sha1 >/dev/null 2>&1
$H repair --rewrite-history --replace-refs "$r" >"$tmp/out" 2>&1
rc=$?
nrep=$(git_ -C "$r" for-each-ref refs/replace | wc -l)
if [ $rc = 0 ] && [ "$nrep" = 4 ] && [ "$(git_ -C "$r" rev-parse "refs/replace/$bad")" = "$twin" ] &&
	[ "$(git_ -C "$r" cat-file -p "$bad" | head -1)" = "tree $(git_ -C "$r" rev-parse "$twin^{tree}")" ] &&
	{ [ -z "$g3" ] || git3_ -C "$r" log --oneline "$bad" >/dev/null 2>&1; }; then
	pass "--replace-refs: a replace ref for each of the 4 objects; the old ID reads as the new object$([ -n "$g3" ] && echo ', with the Git 3.0 build too')"
else
	fail "--replace-refs: exit $rc, $nrep replace refs"
	sed 's/^/#   /' "$tmp/out" | head -6
fi
$H repair --replace-refs "$r" >/dev/null 2>"$tmp/err"
judge "--replace-refs without --rewrite-history: usage error" 2 "go with --rewrite-history" $?

# A reftable repository made by the Git 3.0 build, rewritten through that git (--git):
# the refs move in its tables; its reflogs still name the old objects, which stay.
if [ -z "$g3" ]; then
	skip "reftable: --rewrite-history --git" "$g3_why"
else
	r=$tmp/rw-rt/r
	mkdir -p "$tmp/rw-rt"
	git3_ init -q --ref-format=reftable "$r" 2>/dev/null && git3_ -C "$r" commit -q --allow-empty -m a
	tree=$(git3_ -C "$r" rev-parse 'HEAD^{tree}') par=$(git3_ -C "$r" rev-parse HEAD)
	body='author a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\n\nbad\n'
	bad=$(printf "tree %s\nparent %s\n$body" "$(echo "$tree" | up)" "$par" | git3_ -C "$r" hash-object -t commit -w --stdin --literally)
	twin=$(printf "tree %s\nparent %s\n$body" "$tree" "$par" | git3_ -C "$r" hash-object -t commit --stdin)
	# The Git 3.0 build points no ref at a commit it cannot read: main is a child of it.
	child=$(printf "tree %s\nparent %s\n$body" "$tree" "$bad" | git3_ -C "$r" hash-object -t commit -w --stdin --literally)
	git3_ -C "$r" update-ref refs/heads/main "$child" 2>/dev/null
	$H repair --rewrite-history --git="$g3_path" "$r" >"$tmp/out" 2>&1
	rc=$?
	if [ "$(git3_ -C "$r" rev-parse main~1 2>/dev/null)" = "$twin" ] && git3_ -C "$r" log --oneline >/dev/null 2>&1 &&
		grep -q '(sha1, reftable)' "$tmp/out" && grep -q '^\[refs\] refs/heads/main: done: moved to ' "$tmp/out"; then
		pass "reftable: --rewrite-history --git: main moved in the tables onto the bad commit's lowercase twin (exit $rc: the old objects the reflogs name stay)"
	else
		fail "reftable: --rewrite-history --git: exit $rc"
		sed 's/^/#   /' "$tmp/out" | head -6
	fi
fi

# ---------------------------------------------------------------------------------------
# A reftable repository made by the Git 3.0 build: its refs are binary; FETCH_HEAD and
# shallow are files, repaired as in any repository, and reftable/ is not touched.
if [ -z "$g3" ]; then
	skip "reftable: FETCH_HEAD and shallow repaired, reftable/ untouched" "$g3_why"
else
	r=$tmp/rt/r
	mkdir -p "$tmp/rt"
	git3_ init -q --ref-format=reftable "$r" 2>/dev/null && git3_ -C "$r" commit -q --allow-empty -m a &&
		git3_ -C "$r" commit -q --allow-empty -m b && git3_ -C "$r" fetch -q . main &&
		git3_ -C "$r" rev-parse HEAD~1 >"$r/.git/shallow"
	upcase "$r/.git/FETCH_HEAD" '{ sub(/^[0-9a-f]+/, toupper(substr($0, 1, index($0, "\t") - 1))); print }'
	upcase "$r/.git/shallow" '{ print toupper($0) }'
	(cd "$r/.git/reftable" && md5sum ./* | sort) >"$tmp/rt1"
	git3_ -C "$r" rev-parse FETCH_HEAD >/dev/null 2>&1 && pre=reads || pre=rejects
	$H repair "$r" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	(cd "$r/.git/reftable" && md5sum ./* | sort) >"$tmp/rt2"
	if [ $pre = rejects ] && [ $rc = 0 ] && grep -q '(sha1, reftable)' "$tmp/out" &&
		[ "$(grep -c ': done: ' "$tmp/out")" = 2 ] && cmp -s "$tmp/rt1" "$tmp/rt2" &&
		git3_ -C "$r" rev-parse FETCH_HEAD >/dev/null 2>&1 && git3_ -C "$r" log --oneline >/dev/null 2>&1 &&
		git3_ -C "$r" fsck --no-progress >/dev/null 2>&1; then
		pass "reftable: FETCH_HEAD and shallow repaired (the Git 3.0 build rejected them before, reads them now), reftable/ untouched"
	else
		fail "reftable: before: $pre, exit $rc"
		sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -8
	fi
fi

# A reftable repository's replace ref named in uppercase (the Git 3.0 build takes the
# name, then ignores the replacement): renamed in its tables through that git.
if [ -z "$g3" ]; then
	skip "reftable: a replace ref's name, renamed through git" "$g3_why"
else
	r=$tmp/rt-replace/r
	mkdir -p "$tmp/rt-replace"
	git3_ init -q --ref-format=reftable "$r" 2>/dev/null
	for _c in 1 2 3; do git3_ -C "$r" commit -q --allow-empty -m "c$_c"; done
	old=$(git3_ -C "$r" rev-parse HEAD~2)
	git3_ -C "$r" update-ref "refs/replace/$(echo "$old" | up)" HEAD 2>/dev/null
	pre=$(git3_ -C "$r" log --format=%s -1 "$old" 2>/dev/null)
	$H repair --git="$g3_path" "$r" >"$tmp/out" 2>&1
	rc=$?
	post=$(git3_ -C "$r" log --format=%s -1 "$old" 2>/dev/null)
	if [ $rc = 0 ] && [ "$pre" = c1 ] && [ "$post" = c3 ] &&
		[ "$(git3_ -C "$r" for-each-ref --format='%(refname)' refs/replace)" = "refs/replace/$old" ]; then
		pass "reftable: a replace ref's name renamed in the tables through git: the Git 3.0 build ignored it before, replaces the object after"
	else
		fail "reftable: a replace ref's name: exit $rc, before '$pre', after '$post'"
		sed 's/^/#   /' "$tmp/out" | head -5
	fi
fi

# ---------------------------------------------------------------------------------------
# Several repositories, --jobs 2: each one's report whole, in text and JSON lines, the
# worst exit status, a missing one named.
# (Each in a folder of its own: make_repo puts its worktree beside it.)
for i in 1 2 3 4; do
	mkdir -p "$tmp/many/$i"
	make_repo sha1 "$tmp/many/$i/r" >/dev/null 2>&1 && plant "$tmp/many/$i/r"
done
printf '%s\n' "$tmp/many/3/r" "$tmp/many/4/r" "$tmp/many/gone" >"$tmp/many/list"
$H repair --jobs 2 --from "$tmp/many/list" "$tmp/many/1/r" "$tmp/many/2/r" >"$tmp/out" 2>"$tmp/err"
rc=$?
whole=$(awk '/^hexoid repair: / { if (open) bad = 1; open = 1; n = 0; next }
	open && /: [0-9]+ files? repaired/ { open = 0; if (n != 8) bad = 1; reports++; next }
	open && /: done: / { n++; next }
	END { print (bad ? "mixed" : "whole") " " reports }' "$tmp/out")
if [ $rc = 2 ] && [ "$whole" = "whole 4" ] && grep -q "hexoid repair: $tmp/many/gone" "$tmp/err" &&
	tail -1 "$tmp/out" | grep -q '^5 repositories$'; then
	pass "--jobs 2 on five repositories: four reports whole, each of its 8 files, the missing one named, exit 2"
else
	fail "--jobs 2 on five repositories: exit $rc, $whole"
	sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -10
fi
for i in 1 2 3 4; do plant "$tmp/many/$i/r"; done
$H repair --jobs 2 --json-lines "$tmp/many/1/r" "$tmp/many/2/r" "$tmp/many/3/r" "$tmp/many/4/r" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && [ "$(grep -c '"type": "action"' "$tmp/out")" = 32 ] &&
	[ "$(grep -c '"type": "repository", .*"done": 8, ' "$tmp/out")" = 4 ] &&
	tail -1 "$tmp/out" | grep -q '"type": "run", "command": "repair", "repositories": 4, "dry_run": false, "exit": 0}'; then
	pass "--jobs 2 --json-lines on four repositories: 32 actions, four repository lines, the run's"
else
	fail "--jobs 2 --json-lines: exit $rc"
	tail -3 "$tmp/out" | sed 's/^/#   /'
fi

# ---------------------------------------------------------------------------------------
# The command line.
$H repair --bogus >/dev/null 2>"$tmp/err"
judge "an unknown option: usage error" 2 "usage: hexoid repair" $?
$H repair "$tmp/nowhere" >/dev/null 2>"$tmp/err"
judge "no repository there: exit 2" 2 "hexoid repair: $tmp/nowhere" $?
$H repair --help >"$tmp/out" 2>&1
rc=$?
[ $rc = 0 ] && grep -q -- '--dry-run' "$tmp/out" && grep -q 'Exit status' "$tmp/out" &&
	pass "repair --help" || fail "repair --help: exit $rc"
