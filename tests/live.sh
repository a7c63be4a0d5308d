#!/bin/sh
# hexoid audit of repositories git is writing to, SHA-1 and SHA-256, against a loop of
# `hexoid audit --json` (every other one --jobs=2 --verify-ids):
# - a writer (commits, notes, repack -a -d, gc, pack-refs) and, beside it, worktrees that
#   come and go (worktree add, a commit in it, worktree remove --force, or its folder
#   deleted and worktree prune): files refs with the installed git, and with the Git 3.0
#   build a reftable repository whose tables pack-refs compacts;
# - pushes landing: a bare repository with `hexoid pre-receive` as its pre-receive hook
#   (installed as tests/push.sh installs it) takes good pushes from 3 clients in a loop,
#   each push followed by gc --auto (gc.auto and gc.autoPackLimit low), while the audits
#   read it: files refs, and with the Git 3.0 build's receive-pack a reftable one.
# The repositories hold no bad ID, so whatever git writes, deletes or renames under the
# audit, every audit must exit 0 with no finding, and the hook must accept every push
# (a push git itself fails, on a lock gc holds say, is git's and is made again). How
# many audits meet a race depends on the machine; what is asserted holds for any
# interleaving: each audit's result, each push's, and that every loop ran. About
# HEXOID_LIVE_SECONDS (3) seconds a scenario. Each line gives its counts; the last lines
# are the table of them all: `# scenario | seconds | audits | ...`.
# Prints "ok N - ..." / "not ok N - ..." lines. Needs: HEXOID, git.
set -u
. "$(dirname "$0")/lib.sh"
srcdir=$(cd "$(dirname "$0")/.." && pwd)
g3=$srcdir/../shared/tools/git3/git
[ -x "$g3" ] || g3=
secs=${HEXOID_LIVE_SECONDS:-3}
git_bin=$(dirname "$(command -v git)")
: >"$tmp/table"

# make_repo GIT DIR FORMAT REFS: a repository of a few commits with a note, partly
# packed, automatic gc off (the writer runs it itself, never two at once).
make_repo() {
	"$1" -c init.defaultBranch=main init -q --object-format="$3" ${4:+--ref-format=$4} "$2" &&
		(
			cd "$2" && "$1" config gc.auto 0 && "$1" config user.name hexoid &&
				"$1" config user.email hexoid@example.com &&
				for i in 1 2 3; do
					echo $i >f && "$1" add f && "$1" commit -q -m $i &&
						"$1" notes add -f -m "note $i" HEAD || exit 1
				done && "$1" repack -adq
		)
}

# writer GIT DIR: until $secs seconds have passed, rounds of commits and notes (new loose
# objects), then one of: repack -a -d (the old packs deleted, the loose objects packed
# and removed), gc, pack-refs. Its own failures are not the audit's: ignored.
writer() {
	(
		cd "$2" || exit 0
		end=$(($(date +%s) + secs)) i=0
		while [ "$(date +%s)" -lt $end ]; do
			i=$((i + 1))
			echo "w$i" >f && "$1" add f && "$1" commit -q -m "w$i" &&
				"$1" notes add -f -m "note w$i" HEAD
			"$1" branch -f "b$((i % 4))" HEAD
			case $((i % 4)) in
			0) "$1" repack -adq ;;
			1) "$1" gc -q ;;
			2) "$1" pack-refs --all ;;
			3) "$1" repack -adq && "$1" pack-refs --all ;;
			esac
		done
	) >/dev/null 2>&1
}

# worktrees GIT DIR: until $secs seconds have passed, linked worktrees come and go beside
# the writer: one added detached and one on a branch of its own (-B), a commit in it,
# then removed with worktree remove --force, or (every third round) its folder deleted
# and the worktree pruned. What git made and removed is counted in DIR.wt: "ADDED
# REMOVED"; git's own failures (a lock the writer holds) are not the audit's.
worktrees() {
	(
		cd "$2" || exit 0
		end=$(($(date +%s) + secs)) i=0 added=0 removed=0
		while [ "$(date +%s)" -lt $end ]; do
			i=$((i + 1))
			"$1" worktree add -q --detach "$2.d" HEAD && added=$((added + 1))
			if "$1" worktree add -q -B "wt$((i % 2))" "$2.b" HEAD; then
				added=$((added + 1))
				echo "wt$i" >"$2.b/g" && "$1" -C "$2.b" add g && "$1" -C "$2.b" commit -q -m "wt$i"
			fi
			"$1" worktree remove --force "$2.d" && removed=$((removed + 1))
			if [ $((i % 3)) = 0 ]; then
				# prune counts what it removes with -v: "Removing worktrees/NAME: ..."
				rm -rf "$2.b"
				removed=$((removed + $("$1" worktree prune -v 2>&1 | grep -c '^Removing')))
			else
				"$1" worktree remove --force "$2.b" && removed=$((removed + 1))
			fi
		done
		echo "$added $removed" >"$2.wt"
	) >/dev/null 2>&1
}

# audits NAME DIR PID...: audits of DIR until every PID has ended (at least one). Each
# is judged: a finding (the JSON lists one) or a crash (an exit status other than 0
# that no finding explains, or no report); the first three of each named.
audits() {
	a_name=$1 a_dir=$2
	shift 2
	audits=0 found=0 crashed=0
	while :; do
		# Every other audit scans the objects in a thread of their own, and rehashes.
		opts=
		[ $((audits % 2)) = 1 ] && opts="--jobs=2 --verify-ids"
		# shellcheck disable=SC2086
		$H audit --json --no-progress $opts "$a_dir" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		audits=$((audits + 1))
		what=
		if grep -q '"findings": \[  \]' "$tmp/out"; then
			[ $rc = 0 ] || what=crash
		elif grep -q '"findings": \[' "$tmp/out"; then
			what=finding
			[ $rc = 1 ] || what="finding crash"
		else
			what=crash
		fi
		case $what in *finding*) found=$((found + 1)) ;; esac
		case $what in *crash*) crashed=$((crashed + 1)) ;; esac
		if [ -n "$what" ] && [ $((found + crashed)) -le 3 ]; then
			echo "# $a_name: audit $audits: exit $rc ($what)"
			grep -e '"path"' -e '"message"' "$tmp/out" | head -4 | sed 's/^ */#   /'
			sed 's/^/#   /' "$tmp/err" | head -3
		fi
		for p in "$@"; do
			kill -0 "$p" 2>/dev/null && continue 2
		done
		break
	done
	for p in "$@"; do wait "$p"; done
}

# after NAME DIR: the repository as git left it: an audit of it now is clean too.
after() {
	$H audit --json --no-progress "$2" >"$tmp/out" 2>"$tmp/err"
	after_rc=$?
	if [ $after_rc != 0 ]; then
		echo "# $1: the audit after: exit $after_rc"
		grep -e '"path"' -e '"message"' "$tmp/out" | head -4 | sed 's/^ */#   /'
	fi
}

# row NAME SECONDS PUSHES REJECTIONS: a line of the table at the end.
row() { echo "$1 | $2 | $audits | $found | $crashed | $3 | $4" >>"$tmp/table"; }

# race NAME GIT DIR: the writer and the worktrees in the background, audits until both
# are done.
race() {
	rm -f "$3.wt"
	start=$(date +%s)
	writer "$2" "$3" &
	wpid=$!
	worktrees "$2" "$3" &
	audits "$1" "$3" $wpid $!
	after "$1" "$3"
	took=$(($(date +%s) - start))
	wt="0 0"
	[ -s "$3.wt" ] && wt=$(cat "$3.wt")
	wt_added=${wt% *} wt_removed=${wt#* }
	row "$1" $took - -
	counts="$audits audits in ${took}s ($found with a finding, $crashed crashed), worktrees $wt_added added and $wt_removed removed"
	if [ $found = 0 ] && [ $crashed = 0 ] && [ $after_rc = 0 ] && [ "$wt_added" -gt 0 ] &&
		[ "$wt_removed" -gt 0 ]; then
		pass "$1: $counts while git wrote"
	else
		fail "$1: $counts (after: exit $after_rc; each must be 0, and a worktree added and removed)"
	fi
}

# The one race the loops met: git worktree add writes the new worktree's folder in
# steps (locked, gitdir, HEAD with zeros, commondir), each by open, truncate, write, and an
# audit read its HEAD while it was still empty. git takes the folder for a git directory
# only once commondir is there, and so does the audit. Replayed from a real worktree:
# its folder as git leaves it between those steps, and after them.
for fmt in sha1 sha256; do
	r=$tmp/made-$fmt
	if ! make_repo git "$r" $fmt "" >"$tmp/git.log" 2>&1 ||
		! git -C "$r" worktree add -q --detach "$r.wt" >>"$tmp/git.log" 2>&1; then
		fail "$fmt: a worktree being made: git cannot make the repository"
		sed 's/^/#   /' "$tmp/git.log" | head -5
		continue
	fi
	wa=$r/.git/worktrees/${r##*/}.wt
	mv "$wa/commondir" "$tmp/commondir"
	: >"$wa/HEAD"
	$H audit --json --no-progress "$r" >"$tmp/out" 2>"$tmp/err"
	rc1=$?
	mv "$tmp/commondir" "$wa/commondir"
	$H audit --no-progress "$r" >"$tmp/out2" 2>&1
	rc2=$?
	if [ $rc1 = 0 ] && grep -q '"findings": \[  \]' "$tmp/out" && [ $rc2 = 1 ] &&
		grep -qF "worktrees/${r##*/}.wt/HEAD:1:1:" "$tmp/out2"; then
		pass "$fmt: a worktree's folder before git writes its commondir is no git directory yet, its empty HEAD no finding; after, it is"
	else
		fail "$fmt: a worktree being made: exit $rc1 before commondir (want 0, clean), $rc2 after (want 1, HEAD named)"
		sed 's/^/#   /' "$tmp/out" "$tmp/err" "$tmp/out2" | head -8
	fi
done

for fmt in sha1 sha256; do
	r=$tmp/files-$fmt
	if make_repo git "$r" $fmt "" >"$tmp/git.log" 2>&1; then
		race "$fmt files" git "$r"
	else
		fail "$fmt files: git cannot make the repository"
		sed 's/^/#   /' "$tmp/git.log" | head -5
	fi
done

for fmt in sha1 sha256; do
	if [ -z "$g3" ]; then
		skip "$fmt reftable" "no $srcdir/../shared/tools/git3/git"
		continue
	fi
	r=$tmp/reftable-$fmt
	if make_repo "$g3" "$r" $fmt reftable >"$tmp/git.log" 2>&1; then
		race "$fmt reftable (the Git 3.0 build)" "$g3" "$r"
	else
		fail "$fmt reftable: the Git 3.0 build cannot make the repository"
		sed 's/^/#   /' "$tmp/git.log" | head -5
	fi
done

# client DIR K RECEIVE-PACK SERVER: client K's loop until $secs seconds have passed: a
# commit, pushed to its own branch refs/heads/cK (every third round with a new annotated
# tag; every fifth, the oldest of its tags deleted). A push git fails on its own (a ref
# lock gc holds) is made again, up to 5 times; one the hook declined is a false
# rejection: counted, its words kept in DIR/cK.rejected. Counts in DIR/cK.count:
# "LANDED RETRIED REJECTED GIVEN-UP".
client() {
	(
		c=$1/c$2
		cd "$c" || exit 0
		end=$(($(date +%s) + secs)) i=0 landed=0 retried=0 rejected=0 given_up=0 oldest=3
		while [ "$(date +%s)" -lt $end ]; do
			i=$((i + 1))
			echo "c$2 $i" >"f$2" && git_ add "f$2" && git_ commit -q -m "c$2 $i" || continue
			specs="HEAD:refs/heads/c$2"
			if [ $((i % 3)) = 0 ]; then
				git_ tag -a -m "tag $i" "t$2-$i" && specs="$specs refs/tags/t$2-$i"
			fi
			if [ $((i % 5)) = 0 ] && [ $oldest -lt $i ]; then
				specs="$specs :refs/tags/t$2-$oldest"
				oldest=$((oldest + 3))
			fi
			tries=0 ok=1
			# shellcheck disable=SC2086
			until git push -q --receive-pack="$3" "$4" $specs >"$c.out" 2>"$c.err" </dev/null; do
				if grep -q -e 'pre-receive hook declined' -e 'hexoid' "$c.err"; then
					rejected=$((rejected + 1)) ok=0
					sed "s/^/# c$2 push $i: /" "$c.err" | head -6 >>"$c.rejected"
					break
				fi
				tries=$((tries + 1))
				if [ $tries -ge 5 ]; then
					given_up=$((given_up + 1)) ok=0
					sed "s/^/# c$2 push $i (git): /" "$c.err" | head -4 >>"$c.gitfail"
					break
				fi
				retried=$((retried + 1))
				sleep 0.2
			done
			[ $ok = 1 ] && landed=$((landed + 1))
		done
		echo "$landed $retried $rejected $given_up" >"$c.count"
	) >/dev/null 2>&1
}

# push_race NAME SERVER-GIT FORMAT [reftable]: a bare repository made by SERVER-GIT with
# the hook, 3 clients pushing, audits of it until they are done.
push_race() {
	d=$tmp/push-$3${4:+-$4}
	srv=$d/srv.git
	mkdir -p "$d"
	if ! "$2" init -q --bare --object-format="$3" ${4:+--ref-format=$4} "$srv" >"$tmp/git.log" 2>&1 ||
		! git_ init -q --object-format="$3" "$d/seed" >>"$tmp/git.log" 2>&1 ||
		! (cd "$d/seed" && for i in 1 2 3; do
			echo $i >f && git_ add f && git_ commit -q -m $i || exit 1
		done) >>"$tmp/git.log" 2>&1; then
		fail "$1: git cannot make the repositories"
		sed 's/^/#   /' "$tmp/git.log" | head -5
		return
	fi
	# The hook as tests/push.sh installs it: under the Git 3.0 build, the installed git
	# first on PATH, as a server's own hook wrapper may put it.
	mkdir -p "$srv/hooks"
	if [ "$2" = "$g3" ]; then
		printf '#!/bin/sh\nPATH=%s:$PATH exec %s %s\n' "$git_bin" "$H" pre-receive >"$srv/hooks/pre-receive"
		rp="$g3 receive-pack"
	else
		printf '#!/bin/sh\nexec %s %s\n' "$H" pre-receive >"$srv/hooks/pre-receive"
		rp=git-receive-pack
	fi
	chmod +x "$srv/hooks/pre-receive"
	# gc --auto after every push that leaves 2 packs or a few loose objects, in the
	# push (not detached): pushes of 4 objects or more kept as packs, smaller ones loose.
	# (--git-dir: the Git 3.0 build finds no bare repository by itself.)
	if ! "$2" --git-dir="$srv" config gc.auto 1 || ! "$2" --git-dir="$srv" config gc.autoPackLimit 1 ||
		! "$2" --git-dir="$srv" config gc.autoDetach false ||
		! "$2" --git-dir="$srv" config receive.unpackLimit 4 || ! [ -x "$srv/hooks/pre-receive" ]; then
		fail "$1: the hook or the config cannot be set"
		return
	fi
	for k in 0 1 2; do
		git clone -q "$d/seed" "$d/c$k" 2>>"$tmp/git.log"
		rm -f "$d/c$k.count" "$d/c$k.rejected" "$d/c$k.gitfail"
	done
	start=$(date +%s)
	pids=
	for k in 0 1 2; do
		client "$d" $k "$rp" "$srv" &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	audits "$1" "$srv" $pids
	after "$1" "$srv"
	took=$(($(date +%s) - start))
	landed=0 retried=0 rejected=0 given_up=0
	for k in 0 1 2; do
		[ -s "$d/c$k.count" ] || { given_up=$((given_up + 1)); continue; }
		read -r cl_l cl_r cl_j cl_g <"$d/c$k.count"
		landed=$((landed + cl_l)) retried=$((retried + cl_r))
		rejected=$((rejected + cl_j)) given_up=$((given_up + cl_g))
		cat "$d/c$k.rejected" "$d/c$k.gitfail" 2>/dev/null | head -6
	done
	row "$1" $took $landed $rejected
	packs=$(find "$srv/objects/pack" -name '*.pack' | wc -l)
	counts="$audits audits in ${took}s ($found with a finding, $crashed crashed), $landed pushes landed ($retried made again after git failed them, $given_up given up), $rejected rejected by the hook, $packs packs left by gc --auto"
	# The hook was there all along: a commit with an uppercase tree header, pushed now,
	# is rejected and named.
	(
		cd "$d/c0" && tree=$(git rev-parse 'HEAD^{tree}') &&
			printf 'tree %s\nparent %s\nauthor a <a@example.com> 1700000000 +0000\ncommitter a <a@example.com> 1700000000 +0000\n\nbad\n' \
				"$(echo "$tree" | tr a-f A-F)" "$(git rev-parse HEAD)" |
			git hash-object -t commit --literally -w --stdin >"$d/bad"
	)
	git -C "$d/c0" push -q --receive-pack="$rp" "$srv" "$(cat "$d/bad"):refs/heads/bad" >/dev/null 2>"$tmp/err" </dev/null
	if [ $? = 0 ] || ! grep -qF "hexoid: refs/heads/bad: commit $(cat "$d/bad"): tree header" "$tmp/err"; then
		counts="$counts; a bad commit pushed after them was not rejected"
		rejected=-1
	fi
	if [ $found = 0 ] && [ $crashed = 0 ] && [ $after_rc = 0 ] && [ $rejected = 0 ] &&
		[ $landed -gt 0 ] && [ $given_up = 0 ]; then
		pass "$1: $counts"
	else
		fail "$1: $counts (after: exit $after_rc; findings, crashes, rejections must be 0, every push land)"
	fi
}

for fmt in sha1 sha256; do
	if [ -n "${RUN:-}" ]; then
		skip "$fmt pushes" "emulated: left to the native run"
		continue
	fi
	push_race "$fmt pushes" git $fmt
	if [ -z "$g3" ]; then
		skip "$fmt pushes, reftable" "no $srcdir/../shared/tools/git3/git"
	else
		push_race "$fmt pushes, reftable (the Git 3.0 build)" "$g3" $fmt reftable
	fi
done

echo "# scenario | seconds | audits | false findings | crashes | pushes | false rejections"
sed 's/^/# /' "$tmp/table"
