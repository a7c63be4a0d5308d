#!/bin/sh
# hexoid pre-receive and hexoid update as git's hooks, through real pushes with the
# installed git into bare SHA-1 and SHA-256 repositories. Clean pushes land (new ref,
# fast-forward, forced, deletion); each bad case is rejected with the ref and the object
# named and the server left as it was: a new commit with an uppercase tree or parent
# header, a new annotated tag with an uppercase object header, a mergetag, a ref moved
# onto a bad commit the server already has (so nothing is sent), a bad commit in an
# alternate object store. Pushes big enough that git keeps the pack and small enough
# that it unpacks loose objects both go through. Then the hook as a symbolic link, the
# update hook (the good ref lands, the bad one does not), git config hexoid.* and flags
# (report-only, mixed), 20 pushes at once while gc repacks, and failing closed: a crash, a git that
# fails, the time limit (both ways), a damaged pushed pack, input git never sends.
# The main cases again against the Git 3.0 candidate's receive-pack serving a reftable
# repository, with the installed git first on PATH in the hook: the gate must run the
# git that runs the hook (skipped when the candidate is absent).
# Prints "ok N - ..." / "not ok N - ..." lines. Needs: HEXOID; RUN from make.
set -u
. "$(dirname "$0")/lib.sh"

up() { echo "$1" | tr a-f A-F; }
# col HEX OFFSET: the column of the first letter of HEX, in uppercase, written after
# OFFSET characters of a header line.
col() { echo "$1" | awk -v o="$2" '{ print o + match($0, /[a-f]/) }'; }
ident="hexoid <hexoid@example.com> 1700000000 +0000"
export GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000"

# The hook runs $H (an emulator prefix included) from a script git execs.
# Under the Git 3.0 candidate ($server = git3) the hook puts the installed git first on
# PATH, as a server's own hook wrapper may: the gate must not take that one.
install_hook() { # install_hook REPO NAME ARGS...
	h_repo=$1 h_name=$2
	shift 2
	mkdir -p "$h_repo/hooks"
	if [ "$server" = git3 ]; then
		printf '#!/bin/sh\nPATH=%s:$PATH exec %s %s\n' "$git_bin" "$H" "$*" >"$h_repo/hooks/$h_name"
	else
		printf '#!/bin/sh\nexec %s %s\n' "$H" "$*" >"$h_repo/hooks/$h_name"
	fi
	chmod +x "$h_repo/hooks/$h_name"
}

git_bin=$(dirname "$(command -v git)")
g3=$(cd "$(dirname "$0")/.." && pwd)/../shared/tools/git3/git
server=git
# sgit: the server's own git (the Git 3.0 candidate for its reftable repositories).
sgit() { if [ "$server" = git3 ]; then "$g3" "$@"; else git "$@"; fi; }
# on3 A B: pattern A, or B under the Git 3.0 candidate, which refuses some bad objects
# itself before any hook runs (its connectivity check cannot parse them).
on3() { if [ "$server" = git3 ]; then echo "$2"; else echo "$1"; fi; }
rp() { if [ "$server" = git3 ]; then echo "$g3 receive-pack"; else echo git-receive-pack; fi; }

# The server's state: every ref and every file under it (hooks and config aside).
# (four processes, no subshell: it runs twice for each push that must be rejected)
snapshot() {
	{ sgit -C "$1" for-each-ref --format='%(objectname) %(refname)' &&
		find "$1" -path "$1/hooks" -prune -o -type f ! -name config -exec cksum {} + |
		LC_ALL=C sort; } 2>/dev/null
}

# push NAME WANT PATTERN REFSPEC...: push from $cl to $srv; stderr in $tmp/err; the exit
# status must be WANT (0 lands, 1 rejected), and a rejection must leave the server as it
# was and name what PATTERN says (pattern may be empty).
push() {
	p_name=$1 p_want=$2 p_pat=$3
	shift 3
	# What the server was, for a push that must leave it so (a landing one changes it).
	[ "$p_want" = 1 ] && snapshot "$srv" >"$tmp/before"
	git -C "$cl" push -q --porcelain --receive-pack="$(rp)" "$srv" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	p_rc=$?
	[ "$p_rc" = 0 ] || p_rc=1
	judge "$p_name" "$p_want" "$p_pat" "$p_rc"
	if [ "$p_want" = 1 ]; then
		snapshot "$srv" >"$tmp/after"
		if cmp -s "$tmp/before" "$tmp/after"; then
			pass "$p_name: the server's refs and files are unchanged"
		else
			fail "$p_name: the server changed"
			diff "$tmp/before" "$tmp/after" | sed 's/^/#   /' | head -5
		fi
	fi
}

# A commit's text with the given tree and parents (IDs as they should be written).
commit_text() { # commit_text TREE [PARENT...]
	ct_tree=$1
	shift
	echo "tree $ct_tree"
	for p in "$@"; do echo "parent $p"; done
	printf 'author %s\ncommitter %s\n\nplanted\n' "$ident" "$ident"
}
hash_commit() { git -C "$1" hash-object -t commit --literally -w --stdin; }
hash_tag() { git -C "$1" hash-object -t tag --literally -w --stdin; }

suite() { # suite FORMAT [git3]: the server's git; under git3 the main cases only
	fmt=$1 server=${2:-git}
	d=$tmp/$fmt${2:-}
	srv=$d/srv.git cl=$d/cl
	mkdir -p "$d"
	sgit init -q --bare --object-format="$fmt" "$srv" 2>/dev/null &&
		git_ init -q --object-format="$fmt" "$cl" || { fail "$fmt: git init"; return; }
	if [ "$server" = git3 ]; then
		[ -d "$srv/reftable" ] && pass "$fmt: git3: the server's repository is reftable" ||
			fail "$fmt: git3: the server's repository is not reftable"
		fmt="$fmt git3"
	fi
	install_hook "$srv" pre-receive pre-receive
	(
		cd "$cl" || exit 1
		for i in 1 2 3; do
			echo "file $i" >f && git_ add f && git_ commit -q -m "commit $i" || exit 1
		done
		git_ tag -a -m "a release" v1 HEAD~1
	) || { fail "$fmt: client history"; return; }

	push "$fmt: a clean push of a new branch lands" 0 "" main:refs/heads/main
	push "$fmt: a clean annotated tag lands" 0 "" v1:refs/tags/v1
	(cd "$cl" && echo more >>f && git_ commit -q -am "commit 4")
	push "$fmt: a fast-forward lands" 0 "" main:refs/heads/main
	push "$fmt: a new branch at an existing commit lands" 0 "" main~2:refs/heads/old
	push "$fmt: a forced push lands" 0 "" +main~1:refs/heads/old
	push "$fmt: a deletion lands" 0 "" :refs/heads/old
	# Enough objects that receive-pack keeps the pack rather than unpacking it: 60
	# commits, each adding a file, in one git fast-import (then the work tree checked out).
	i=0
	while [ $i -lt 60 ]; do
		i=$((i + 1))
		printf 'commit refs/heads/main\ncommitter %s\ndata <<E\nmany %s\nE\n' "$ident" $i
		[ $i = 1 ] && printf 'from refs/heads/main^0\n'
		printf 'M 100644 inline g%s\ndata <<E\n%s\nE\n\n' $i $i
	done | git -C "$cl" fast-import --quiet && git -C "$cl" reset -q --hard ||
		fail "$fmt: 60 commits by git fast-import"
	push "$fmt: a push kept as a pack lands" 0 "" main:refs/heads/main
	if [ "$(find "$srv/objects/pack" -name '*.pack' | wc -l)" -gt 0 ]; then
		pass "$fmt: receive-pack kept that push as a pack"
	else
		fail "$fmt: no pack on the server: the pack scan went untested"
	fi

	tree=$(git -C "$cl" rev-parse main^{tree}) head=$(git -C "$cl" rev-parse main)
	bad_tree=$(commit_text "$(up "$tree")" "$head" | hash_commit "$cl")
	bad_parent=$(commit_text "$tree" "$(up "$head")" | hash_commit "$cl")
	push "$fmt: a new commit with an uppercase tree header is rejected" 1 \
		"$(on3 "remote: hexoid: refs/heads/t: commit $bad_tree: tree header, line 1, column $(col "$tree" 5): git3:" \
			"bad tree pointer in commit $bad_tree")" \
		"$bad_tree:refs/heads/t"
	push "$fmt: a new commit with an uppercase parent header is rejected" 1 \
		"$(on3 "hexoid: refs/heads/main: commit $bad_parent: parent header, line 2, column $(col "$head" 7): git3:" \
			"bad parents in commit $bad_parent")" \
		"$bad_parent:refs/heads/main"
	# A good commit on top of a bad one: the bad one is reached and named.
	on_top=$(commit_text "$tree" "$bad_tree" | hash_commit "$cl")
	push "$fmt: a bad commit under a good one is rejected" 1 \
		"$(on3 "hexoid: refs/heads/main: commit $bad_tree: tree header" "bad tree pointer in commit $bad_tree")" \
		"$on_top:refs/heads/main"
	# New refs are walked together: the finding still names the ref that reaches it.
	push "$fmt: two new refs at once, one bad: the bad one is named" 1 \
		"$(on3 "hexoid: refs/heads/b2: commit $bad_tree: tree header" "bad tree pointer in commit $bad_tree")" \
		main:refs/heads/g2 "$bad_tree:refs/heads/b2"

	bad_tag=$(printf 'object %s\ntype commit\ntag v2\ntagger %s\n\nplanted\n' "$(up "$head")" \
		"$ident" | hash_tag "$cl")
	push "$fmt: a new tag with an uppercase object header is rejected" 1 \
		"hexoid: refs/tags/v2: tag $bad_tag: object header, line 1, column $(col "$head" 7): git3:" \
		"$bad_tag:refs/tags/v2"
	# The tag itself is fine; it points at a bad commit.
	tag_on_bad=$(printf 'object %s\ntype commit\ntag v3\ntagger %s\n\nplanted\n' "$bad_parent" \
		"$ident" | hash_tag "$cl")
	push "$fmt: a good tag of a bad commit is rejected" 1 \
		"$(on3 "hexoid: refs/tags/v3: commit $bad_parent: parent header" "bad parents in commit $bad_parent")" \
		"$tag_on_bad:refs/tags/v3"

	# A commit of 1.7M parent lines, 82 MB from a few hundred KB of zlib: rejected as
	# too large to check, at the cost of its header, not of its size. Natively, once.
	# Written, sent and unpacked at zlib's fastest level (core.compression 1 on both
	# sides, for this push only): git's own deflating of 82 MB three times was most of
	# the case's time, and the hook reads the same object either way.
	if [ "$fmt" = sha1 ] && [ -z "${RUN:-}" ]; then
		git -C "$cl" config core.compression 1
		git -C "$srv" config core.compression 1
		huge=$( (
			echo "tree $tree"
			yes "parent $head" | head -n 1700000
			printf 'author %s\ncommitter %s\n\nhuge\n' "$ident" "$ident"
		) | hash_commit "$cl")
		push "$fmt: a commit of 82 MB is rejected as too large to check" 1 \
			"hexoid: refs/heads/huge: error: a commit of $(git -C "$cl" cat-file -s "$huge") bytes: more than the 64 MiB" \
			"$huge:refs/heads/huge"
		git -C "$cl" config --unset core.compression
		git -C "$srv" config --unset core.compression
	fi

	side=$(git -C "$cl" rev-parse main~1)
	v1=$(git -C "$cl" rev-parse v1) v1c=$(git -C "$cl" rev-parse v1^{commit})
	mergetag=$( (
		printf 'tree %s\nparent %s\nparent %s\n' "$tree" "$head" "$v1c"
		printf 'author %s\ncommitter %s\n' "$ident" "$ident"
		printf 'mergetag object %s\n type commit\n tag v1\n tagger %s\n \n a release\n' \
			"$(up "$v1c")" "$ident"
		printf '\nmerge v1\n'
	) | hash_commit "$cl")
	push "$fmt: a merge with an uppercase mergetag object is rejected" 1 \
		"hexoid: refs/heads/main: commit $mergetag: mergetag object header, line 6, column $(col "$v1c" 16): git3:" \
		"$mergetag:refs/heads/main"

	# Git 3.0 takes no commit like these: the mergetag one, which it does not parse, is the
	# hook's to refuse, here with a good new ref beside it.
	if [ "$server" = git3 ]; then
		push "$fmt: two new refs at once, one a bad mergetag: that one is named" 1 \
			"hexoid: refs/heads/mt: commit $mergetag: mergetag object header" \
			main:refs/heads/g4 "$mergetag:refs/heads/mt"
		return
	fi
	# The server already has a bad commit (refs/legacy, from before the hook): a push that
	# only moves a ref onto it sends no object at all.
	sgit -C "$srv" fetch -q "$cl" "$bad_tree:refs/legacy/t" 2>"$tmp/err" ||
		{ fail "$fmt: planting a bad commit in the server"; sed 's/^/#   /' "$tmp/err"; }
	# By default the walk is git's own after a push: what an existing ref reaches is
	# known, so a new branch onto that commit lands as git lets it in. hexoid.fullWalk
	# walks it all, and finds it.
	push "$fmt: a new branch onto a bad commit an existing ref reaches lands by default" 0 "" \
		"$bad_tree:refs/heads/n"
	git -C "$srv" update-ref -d refs/heads/n
	git -C "$srv" config hexoid.fullWalk true
	push "$fmt: a ref moved onto a bad commit the server has is rejected" 1 \
		"hexoid: refs/heads/main: commit $bad_tree: tree header, line 1, column $(col "$tree" 5)" \
		"$bad_tree:refs/heads/main"
	push "$fmt: two new refs at once, one onto a bad commit the server has: that one is named" 1 \
		"hexoid: refs/heads/b3: commit $bad_tree: tree header" \
		main:refs/heads/g3 "$bad_tree:refs/heads/b3"

	# An alternate object store (a shared pool) holds another bad commit.
	pool=$d/pool.git
	git_ init -q --bare --object-format="$fmt" "$pool"
	git -C "$pool" fetch -q "$cl" "$bad_parent:refs/heads/pooled" 2>/dev/null
	echo "$pool/objects" >"$srv/objects/info/alternates"
	if git -C "$srv" cat-file -e "$bad_parent" 2>/dev/null; then
		push "$fmt: a ref moved onto a bad commit in an alternate is rejected" 1 \
			"hexoid: refs/heads/p: commit $bad_parent: parent header, line 2, column $(col "$head" 7)" \
			"$bad_parent:refs/heads/p"
	else
		fail "$fmt: the alternate does not serve the pooled commit"
	fi
	rm -f "$srv/objects/info/alternates"
	git -C "$srv" config --unset hexoid.fullWalk
	# The alternate's refs are known too, as git's --alternate-refs has them.
	echo "$pool/objects" >"$srv/objects/info/alternates"
	push "$fmt: a ref moved onto a bad commit an alternate's ref reaches lands by default" 0 "" \
		"$bad_parent:refs/heads/p"
	git -C "$srv" update-ref -d refs/heads/p
	rm -f "$srv/objects/info/alternates"
	# No ref reaches the stored bad commit any more: a ref moved onto it newly reaches
	# it, and is rejected both ways.
	git -C "$srv" update-ref -d refs/legacy/t
	push "$fmt: a ref moved onto a stored bad commit no ref reaches is rejected" 1 \
		"hexoid: refs/heads/main: commit $bad_tree: tree header, line 1" "$bad_tree:refs/heads/main"
	push "$fmt: a new branch onto it, with a good one beside it, is rejected and named" 1 \
		"hexoid: refs/heads/b5: commit $bad_tree: tree header, line 1" \
		main:refs/heads/g5 "$bad_tree:refs/heads/b5"
	git -C "$srv" config hexoid.fullWalk true
	push "$fmt: with hexoid.fullWalk too" 1 \
		"hexoid: refs/heads/main: commit $bad_tree: tree header, line 1" "$bad_tree:refs/heads/main"
	git -C "$srv" config --unset hexoid.fullWalk
	git -C "$srv" update-ref refs/legacy/t "$bad_tree"
	printf '%s %s refs/heads/f\n' "$(git -C "$srv" rev-parse refs/heads/main | sed 's/./0/g')" \
		"$bad_tree" >"$tmp/in"
	(cd "$srv" && GIT_DIR=. $H pre-receive --full-walk <"$tmp/in" >/dev/null 2>"$tmp/err")
	judge "$fmt: --full-walk finds what an existing ref reaches" 1 \
		"hexoid: refs/heads/f: commit $bad_tree: tree header" $?
	(cd "$srv" && GIT_DIR=. $H pre-receive <"$tmp/in" >/dev/null 2>"$tmp/err")
	judge "$fmt: without it, it is known" 0 "" $?
	# Stored, and no ref reaches it, for the checks by hand below.
	git -C "$srv" update-ref -d refs/legacy/t
	echo "$bad_tree" >"$d/bad"

	# The same bad commit with report-only on: accepted, warned.
	git -C "$srv" config hexoid.reportOnly true
	push "$fmt: hexoid.reportOnly accepts and warns" 0 \
		"hexoid: warning: refs/heads/r: commit $bad_tree: tree header" "$bad_tree:refs/heads/r"
	git -C "$srv" config --unset hexoid.reportOnly
	git -C "$srv" config hexoid.mixed true
	push "$fmt: hexoid.mixed accepts uppercase and warns" 0 \
		"hexoid: warning: refs/heads/m: commit $bad_parent: parent header" "$bad_parent:refs/heads/m"
	git -C "$srv" config --unset hexoid.mixed
	git -C "$srv" update-ref -d refs/heads/r
	# hexoid.message: the forge's word after a rejection's lines, and only then.
	git -C "$srv" config hexoid.message "$(printf 'Git 3.0 will not read these commits.\nSee https://forge.example/help/git3')"
	push "$fmt: hexoid.message follows a rejection" 1 \
		"remote: See https://forge.example/help/git3" "$bad_tree:refs/heads/hm"
	if awk '/push rejected/ { r = NR } /Git 3.0 will not read these/ { m = NR } /help\/git3/ { h = NR }
		END { exit !(r && m == r + 1 && h == m + 1) }' "$tmp/err"; then
		pass "$fmt: its lines in order, after the rejection's"
	else
		fail "$fmt: hexoid.message's lines out of place"
		sed 's/^/#   /' "$tmp/err" | head -8
	fi
	(cd "$cl" && echo msg >>f && git_ commit -q -am "with a message set")
	push "$fmt: hexoid.message is not shown when the push lands" 0 "" main:refs/heads/main
	grep -q 'forge.example' "$tmp/err" && fail "$fmt: hexoid.message shown for a push that landed" ||
		pass "$fmt: nothing said for a push that landed"
	git -C "$srv" config --unset hexoid.message
	git -C "$srv" update-ref -d refs/heads/m

	# Installed as a symbolic link named pre-receive.
	if [ -z "${RUN:-}" ]; then
		rm "$srv/hooks/pre-receive"
		# $H may start with the empty emulator prefix and a space.
		ln -s "$(echo $H)" "$srv/hooks/pre-receive"
		push "$fmt: the hook as a link named pre-receive rejects" 1 \
			"hexoid: refs/heads/l: commit $bad_tree" "$bad_tree:refs/heads/l"
		(cd "$cl" && echo link >>f && git_ commit -q -am "through the link")
		push "$fmt: the hook as a link named pre-receive accepts" 0 "" main:refs/heads/main
		rm "$srv/hooks/pre-receive"
		install_hook "$srv" pre-receive pre-receive
	else
		skip "$fmt: the hook as a link" "emulated: a link cannot carry the emulator"
		skip "$fmt: the hook as a link accepts" "emulated"
	fi

	# The update hook decides ref by ref.
	mv "$srv/hooks/pre-receive" "$d/pre-receive.off"
	install_hook "$srv" update update '"$@"'
	(cd "$cl" && echo upd >>f && git_ commit -q -am "for the update hook")
	snapshot "$srv" >/dev/null
	git -C "$cl" push -q --porcelain "$srv" main:refs/heads/main "$bad_tree:refs/heads/u" \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	if [ "$(git -C "$srv" rev-parse refs/heads/main)" = "$(git -C "$cl" rev-parse main)" ] &&
		! git -C "$srv" rev-parse -q --verify refs/heads/u >/dev/null &&
		grep -qF "hexoid: refs/heads/u: commit $bad_tree: tree header" "$tmp/err"; then
		pass "$fmt: update hook: the good ref lands, the bad one is rejected and named"
	else
		fail "$fmt: update hook"
		sed 's/^/#   /' "$tmp/err" | head -5
	fi
	rm "$srv/hooks/update"
	mv "$d/pre-receive.off" "$srv/hooks/pre-receive"

	# 20 pushes at once from 20 clients, half bad, each into a ref of its own.
	if [ -n "${RUN:-}" ]; then
		skip "$fmt: 20 pushes at once" "emulated: left to the native run"
		return
	fi
	# A client of its own, its objects borrowed from $cl's (clone --shared): what it
	# pushes it packs itself, from both. One clone, copied for each (a copy is the same
	# repository, its alternates naming $cl's objects by absolute path).
	git clone -q --shared "$cl" "$d/cseed" 2>/dev/null
	i=0
	while [ $i -lt 20 ]; do
		c=$d/c$i
		cp -a "$d/cseed" "$c"
		(
			cd "$c" && echo "client $i" >h && git_ add h && git_ commit -q -m "client $i" &&
				if [ $((i % 2)) = 1 ]; then
					git rev-parse HEAD^{tree} HEAD~1 >tp && { read -r t && read -r p; } <tp &&
						commit_text "$(up "$t")" "$p" | git hash-object -t commit --literally -w --stdin >want
				else
					git rev-parse HEAD >want
				fi
		)
		i=$((i + 1))
	done
	# Meanwhile git repacks the repository under the gate: each push's own gc --auto
	# (made to run every time), and a loop of gc beside them.
	git -C "$srv" config gc.auto 1
	git -C "$srv" config gc.autoPackLimit 1
	touch "$d/gc.run"
	(
		gcs=0
		while [ -e "$d/gc.run" ]; do
			git -C "$srv" gc -q >/dev/null 2>&1
			gcs=$((gcs + 1))
		done
		echo $gcs >"$d/gc.count"
	) &
	gcpid=$!
	i=0 pids=
	while [ $i -lt 20 ]; do
		c=$d/c$i
		git -C "$c" push -q "$srv" "$(cat "$c/want"):refs/heads/c$i" >"$c/out" 2>"$c/err" </dev/null &
		pids="$pids $!"
		i=$((i + 1))
	done
	for p in $pids; do wait $p; done
	rm -f "$d/gc.run"
	wait $gcpid
	git -C "$srv" config --unset gc.auto
	git -C "$srv" config --unset gc.autoPackLimit
	i=0 wrong="" again=0
	while [ $i -lt 20 ]; do
		c=$d/c$i
		got=$(git -C "$srv" rev-parse -q --verify "refs/heads/c$i")
		if [ $((i % 2)) = 1 ]; then
			[ -z "$got" ] && grep -qF "hexoid: refs/heads/c$i: commit $(cat "$c/want"): tree header" \
				"$c/err" || wrong="$wrong c$i"
		elif [ "$got" != "$(cat "$c/want")" ]; then
			# A good push git itself failed (a ref lock gc held: git's business, the
			# hook accepted it): the hook must have said nothing, and the same push
			# must land now.
			if grep -q 'hexoid' "$c/err" ||
				! git -C "$c" push -q "$srv" "$(cat "$c/want"):refs/heads/c$i" >"$c/out" 2>"$c/err2" </dev/null; then
				wrong="$wrong c$i"
			else
				again=$((again + 1))
			fi
		fi
		i=$((i + 1))
	done
	if [ -z "$wrong" ]; then
		pass "$fmt: 20 pushes at once while git gc ran $(cat "$d/gc.count") times: the 10 good ones accepted ($again failed by git on a lock gc held, then landed), the 10 bad ones rejected"
	else
		fail "$fmt: 20 pushes at once: wrong answer for$wrong"
		for c in $wrong; do sed "s/^/#   $c: /" "$d/$c/err" | head -4; done
	fi
}

suite sha1
suite sha256
if [ -x "$g3" ] && "$g3" --version >/dev/null 2>&1; then
	suite sha1 git3
	suite sha256 git3
else
	skip "the Git 3.0 candidate's receive-pack" "skipped: $g3 is absent"
fi
server=git

# --- failing closed: the hook run by hand, as git runs it, with a git that misbehaves ---
srv=$tmp/sha1/srv.git
main=$(git -C "$srv" rev-parse refs/heads/main)
zero=0000000000000000000000000000000000000000
real_git=$(command -v git)
mkdir -p "$tmp/fake"
# fake_git WHAT: a git on PATH that does WHAT for rev-list and is git otherwise.
fake_git() {
	printf '#!/bin/sh\nif [ "$1" = rev-list ]; then %s; fi\nexec %s "$@"\n' "$1" "$real_git" >"$tmp/fake/git"
	chmod +x "$tmp/fake/git"
}
hook() { # hook ARGS... with stdin from $tmp/in: stderr in $tmp/err, returns the status
	(cd "$srv" && PATH="$tmp/fake:$PATH" GIT_DIR=. $H pre-receive "$@" <"$tmp/in" >/dev/null 2>"$tmp/err")
}
echo "$zero $main refs/heads/x" >"$tmp/in"

rm -f "$tmp/fake/git"
hook
judge "by hand: a clean update is accepted" 0 "" $?
# 300 moved refs cost one walk, not one each: --all leaves out what their old values
# reach, so the walk of them all is the union of each one's. With --full-walk, each
# leaves out its own old value only: a walk each, shown on 30 of them (the count is
# what is checked; 300 walks would cost 300 git rev-list for the same answer).
old=$(git -C "$srv" rev-parse "$main~1")
: >"$tmp/many.refs"
: >"$tmp/many.in"
i=0
while [ $i -lt 300 ]; do
	echo "create refs/heads/m$i $old" >>"$tmp/many.refs"
	echo "$old $main refs/heads/m$i" >>"$tmp/many.in"
	i=$((i + 1))
done
git -C "$srv" update-ref --stdin <"$tmp/many.refs"
cp "$tmp/in" "$tmp/in.saved"
cp "$tmp/many.in" "$tmp/in"
fake_git "echo >>'$tmp/revlists'"
for walk in default full; do
	rm -f "$tmp/revlists"
	if [ $walk = full ]; then
		head -n 30 "$tmp/many.in" >"$tmp/in"
		hook --full-walk
	else
		hook
	fi
	rc=$?
	nrl=$(cat "$tmp/revlists" 2>/dev/null | wc -l)
	if [ $walk = default ] && [ $rc = 0 ] && [ "$nrl" -ge 1 ] && [ "$nrl" -le 2 ]; then
		pass "300 moved refs: accepted after $nrl git rev-list"
	elif [ $walk = full ] && [ $rc = 0 ] && [ "$nrl" = 30 ]; then
		pass "30 moved refs, --full-walk: accepted after a git rev-list each"
	else
		fail "moved refs ($walk walk): exit $rc after $nrl git rev-list"
	fi
done
sed 's/^create \(refs[^ ]*\) .*/delete \1/' "$tmp/many.refs" | git -C "$srv" update-ref --stdin
cp "$tmp/in.saved" "$tmp/in"
rm -f "$tmp/fake/git"
fake_git 'kill -SEGV $PPID; sleep 5'
if [ -n "${RUN:-}" ]; then
	# Under qemu-user a SIGSEGV sent to the emulated process from outside does not
	# always end it when the machine is loaded (seen in CI, where two lanes run at once):
	# the supervisor's logic is the same on every architecture, and the native run
	# checks it.
	skip "a crash of the check rejects the push" "emulated: left to the native run"
	skip "the crash is named" "emulated"
	skip "a crash with --report-only accepts, warning" "emulated"
else
	hook
	judge "a crash of the check rejects the push" 2 "push rejected: the check could not be completed" $?
	# The signal, or (a sanitizer build catches it) the exit without a verdict.
	grep -qF "internal error: the check" "$tmp/err" && pass "the crash is named" || fail "the crash is not named"
	hook --report-only
	judge "a crash with --report-only accepts, warning" 0 "warning: push accepted unchecked" $?
fi
# json_codes NAME WANT...: the JSON lines of `hook --json` say, in order, WANT (type:code).
json_codes() {
	jc_name=$1
	shift
	(cd "$srv" && PATH="$tmp/fake:$PATH" GIT_DIR=. $H pre-receive --json "$@" <"$tmp/in" >"$tmp/jc" 2>/dev/null)
	jc_rc=$?
	jc_got=$("$py" -c 'import json,sys
print(" ".join("%s:%s" % (o["type"], o["code"]) for o in map(json.loads, open(sys.argv[1]))))' "$tmp/jc" 2>&1)
	if [ $jc_rc = 2 ] && [ "$jc_got" = "$jc_want" ]; then pass "$jc_name: $jc_want, exit 2"; else
		fail "$jc_name: '$jc_got' (exit $jc_rc), expected '$jc_want'"
	fi
}
fake_git 'exit 128'
hook
judge "a git rev-list that fails rejects the push" 2 "push rejected" $?
jc_want="error:git-failed run:git-failed" json_codes "--json, a git rev-list that fails"
fake_git 'sleep 30'
hook --timeout=1
judge "--timeout rejects when the time is up" 2 "the check took longer than 1 seconds" $?
jc_want="error:timeout run:timeout" json_codes "--json, the time up" --timeout=1
# The hook killed while git runs for its check (a supervisor's SIGTERM; SIGKILL, which
# it cannot catch): the check and its gits go with it, none left to run on.
sleeps() { ps -eo args | grep -c '^sleep 37$'; }
fake_git 'exec sleep 37'
for sig in TERM KILL; do
	if [ -n "${RUN:-}" ]; then
		skip "SIG$sig to the hook: its check goes with it" "emulated: left to the native run"
		continue
	fi
	(cd "$srv" && PATH="$tmp/fake:$PATH" GIT_DIR=. exec $H pre-receive <"$tmp/in" >/dev/null 2>"$tmp/err") &
	hpid=$!
	i=0
	while [ $i -lt 100 ] && [ "$(sleeps)" = 0 ]; do sleep 0.1; i=$((i + 1)); done
	started=$(sleeps)
	kill -$sig $hpid
	wait $hpid 2>/dev/null
	rc=$?
	i=0
	while [ $i -lt 50 ] && [ "$(sleeps)" != 0 ]; do sleep 0.1; i=$((i + 1)); done
	[ $sig = TERM ] && want=143 || want=137
	if [ "$started" = 1 ] && [ $rc = $want ] && [ "$(sleeps)" = 0 ]; then
		pass "SIG$sig to the hook while git runs: exit $want, its check and git gone"
	else
		fail "SIG$sig to the hook: git started $started, exit $rc (want $want), $(sleeps) left running"
		pkill -f '^sleep 37$' 2>/dev/null
	fi
done
hook --timeout=1 --on-timeout=accept
judge "--on-timeout=accept accepts when the time is up" 0 "warning: push accepted unchecked" $?
git -C "$srv" config hexoid.timeout 1
hook
judge "hexoid.timeout from git config" 2 "longer than 1 seconds" $?
git -C "$srv" config hexoid.onTimeout accept
hook
judge "hexoid.onTimeout from git config" 0 "push accepted unchecked" $?
git -C "$srv" config --unset hexoid.timeout
git -C "$srv" config --unset hexoid.onTimeout
# 2^32 + 1 seconds is not one second (an alarm's unsigned int): past a day, a bad value.
git -C "$srv" config hexoid.timeout 4294967297
hook
judge "hexoid.timeout past a day is a bad value" 2 "bad value '4294967297' for git config hexoid.timeout" $?
git -C "$srv" config --unset hexoid.timeout
hook --timeout=86401
judge "--timeout past a day is a usage error" 2 "86401" $?
git -C "$srv" config hexoid.mixed maybe
hook
judge "a bad hexoid.* value rejects" 2 "bad value 'maybe' for git config hexoid.mixed" $?
git -C "$srv" config --unset hexoid.mixed
rm -f "$tmp/fake/git"

# A pushed pack that cannot be read: a quarantine holding a damaged one.
q=$srv/objects/incoming-test
mkdir -p "$q/pack"
pack=$(find "$srv/objects/pack" -name '*.pack' | head -n 1)
cp "$pack" "$q/pack/pack-damaged.pack"
cp "${pack%.pack}.idx" "$q/pack/pack-damaged.idx"
printf 'XXXX' | dd of="$q/pack/pack-damaged.pack" bs=1 seek=0 conv=notrunc 2>/dev/null
(cd "$srv" && GIT_DIR=. GIT_QUARANTINE_PATH="$q" $H pre-receive <"$tmp/in" >/dev/null 2>"$tmp/err")
judge "an unusable pushed pack rejects the push" 2 "pack-damaged.pack" $?
cp "$pack" "$q/pack/pack-damaged.pack"
size=$(wc -c <"$q/pack/pack-damaged.pack")
printf 'X' | dd of="$q/pack/pack-damaged.pack" bs=1 seek=$((size - 30)) conv=notrunc 2>/dev/null
(cd "$srv" && GIT_DIR=. GIT_QUARANTINE_PATH="$q" $H pre-receive <"$tmp/in" >/dev/null 2>"$tmp/err")
judge "a damaged object in a pushed pack rejects the push" 1 "hexoid: pushed pack-damaged.pack: " $?
rm -rf "$q"

# Which pushed files are packs is git's rule (src/pack/objdir.h), for the scan and for the
# list of what was pushed alike; git, with the quarantine as its objects folder, lists
# what it reads there. An .idx without its .pack, naming a bad commit the server has:
# git reads nothing through it, so the commit is the server's, read and checked as such,
# not taken for a pushed one the scan has seen.
bad=$(cat "$tmp/sha1/bad")
q_ids() { GIT_DIR=$srv GIT_OBJECT_DIRECTORY=$q git cat-file --batch-all-objects --batch-check='%(objectname)' 2>/dev/null; }
mkdir -p "$q/pack"
h=$(echo "$bad" | git -C "$srv" pack-objects -q "$q/pack/lone")
rm "$q/pack/lone-$h.pack"
[ -z "$(q_ids)" ] && pass "git reads no object through a lone pushed .idx" ||
	fail "git reads objects through a lone pushed .idx"
echo "$zero $bad refs/heads/x" >"$tmp/in"
(cd "$srv" && GIT_DIR=. GIT_QUARANTINE_PATH="$q" $H pre-receive <"$tmp/in" >/dev/null 2>"$tmp/err")
judge "a lone pushed .idx hides no bad commit the server has" 1 "hexoid: refs/heads/x: commit $bad: tree header" $?
# A .pack without its .idx: not read by git, not a pack the push could not check.
rm -f "$q/pack/"*
cp "$pack" "$q/pack/pack-lone.pack"
echo "$zero $main refs/heads/x" >"$tmp/in"
(cd "$srv" && GIT_DIR=. GIT_QUARANTINE_PATH="$q" $H pre-receive <"$tmp/in" >/dev/null 2>"$tmp/err")
judge "a lone pushed .pack is not read, as git does not read it" 0 "" $?
# A .tmp-<pid>-pack-* pair, as git repack leaves one for a moment: git reads it, so its
# bad commit is found though no ref reaches it.
rm -f "$q/pack/"*
h=$(echo "$bad" | git -C "$srv" pack-objects -q "$q/pack/odd")
mv "$q/pack/odd-$h.pack" "$q/pack/.tmp-1-pack-odd.pack"
mv "$q/pack/odd-$h.idx" "$q/pack/.tmp-1-pack-odd.idx"
[ "$(q_ids)" = "$bad" ] && pass "git reads a pushed .tmp- pack" || fail "git does not read a pushed .tmp- pack"
(cd "$srv" && GIT_DIR=. GIT_QUARANTINE_PATH="$q" $H pre-receive <"$tmp/in" >/dev/null 2>"$tmp/err")
judge "a pushed .tmp- pack is scanned, as git reads it" 1 "hexoid: pushed .tmp-1-pack-odd.pack: commit $bad" $?
rm -rf "$q"

# A pushed loose object no ref reaches is named as git names it: its fanout folder too.
loose=$(echo "$bad" | cut -c1-2)/$(echo "$bad" | cut -c3-)
mkdir -p "$q/$(dirname "$loose")"
cp "$tmp/sha1/cl/.git/objects/$loose" "$q/$loose"
(cd "$srv" && GIT_DIR=. GIT_QUARANTINE_PATH="$q" $H pre-receive <"$tmp/in" >/dev/null 2>"$tmp/err")
judge "a pushed loose object is named by its folder and file" 1 "hexoid: pushed $loose: commit $bad: tree header" $?
rm -rf "$q"

# A FIFO where a pushed index, pack or loose object should be: an answer at once, never
# a wait for a writer that will not come (timeout makes a hang exit 124). An index or a
# loose object rejects the push, named; a .pack that is no regular file git does not read
# (no object of it is listed), and neither does the check.
fifo_case() { # fifo_case NAME WANT-EXIT TEXT
	(cd "$srv" && GIT_DIR=. GIT_QUARANTINE_PATH="$q" timeout 20 $H pre-receive <"$tmp/in" >/dev/null 2>"$tmp/err")
	judge "a FIFO as a pushed $1: exit $2 at once" $2 "$3" $?
}
mkdir -p "$q/pack"
h=$(echo "$main" | git -C "$srv" pack-objects -q "$q/pack/pack")
rm "$q/pack/pack-$h.idx"
mkfifo "$q/pack/pack-$h.idx"
fifo_case index 2 "pack-$h.idx: not a regular file"
rm -f "$q/pack/"*
h=$(echo "$main" | git -C "$srv" pack-objects -q "$q/pack/pack")
rm "$q/pack/pack-$h.pack"
mkfifo "$q/pack/pack-$h.pack"
[ -z "$(q_ids)" ] && pass "git reads no object through a pushed .idx whose .pack is a FIFO" ||
	fail "git reads objects through a pushed .idx whose .pack is a FIFO"
fifo_case pack 0 ""
rm -rf "$q"
mkdir -p "$q/$(dirname "$loose")"
mkfifo "$q/$loose"
fifo_case "loose object" 1 "pushed $loose: error: cannot read the object: $q/$loose: not a regular file"
rm -rf "$q"

printf '%s %s\n' "$zero" "$main" >"$tmp/in"
hook
judge "a line without a ref rejects" 2 "<stdin>:1: error: expected '<old> <new> <ref>'" $?
printf '%s %s refs/heads/x\n' "$zero" "$(up "$main")" >"$tmp/in"
hook
judge "uppercase in git's own lines rejects" 2 "<stdin>:1:" $?
: >"$tmp/in"
hook
judge "no ref updates: nothing to check" 0 "" $?
$H pre-receive extra >/dev/null 2>"$tmp/err" </dev/null
judge "pre-receive takes no arguments" 2 "pre-receive takes no arguments" $?
$H update refs/heads/x >/dev/null 2>"$tmp/err" </dev/null
judge "update takes three arguments" 2 "update takes REF OLD NEW" $?
$H pre-receive --help >"$tmp/err" 2>&1
judge "pre-receive --help" 0 "hexoid.onTimeout" $?
exit 0
