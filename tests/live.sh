#!/bin/sh
# hexoid audit of repositories git is writing to: a writer loop (commits, notes, repack
# -a -d, gc, pack-refs; with the Git 3.0 build, a reftable repository whose tables
# pack-refs compacts) against a loop of `hexoid audit --json`, SHA-1 and SHA-256. The
# repositories hold no bad ID, so whatever git deletes or renames under the audit, every
# audit must exit 0 with no finding. How many audits meet a race depends on the
# machine; what is asserted holds for any interleaving: each audit's result, and that
# every loop ran at least once. About 4 s per repository.
# Prints "ok N - ..." / "not ok N - ..." lines. Needs: HEXOID, git.
set -u
. "$(dirname "$0")/lib.sh"
srcdir=$(cd "$(dirname "$0")/.." && pwd)
g3=$srcdir/../shared/tools/git3/git
[ -x "$g3" ] || g3=
secs=${HEXOID_LIVE_SECONDS:-4}

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

# race NAME GIT DIR: the writer in the background, audits until it is done (at least
# one); each audit's exit status and findings judged.
race() {
	writer "$2" "$3" &
	wpid=$!
	audits=0 bad=0
	while :; do
		# Every other audit scans the objects in a thread of their own, and rehashes.
		opts=
		[ $((audits % 2)) = 1 ] && opts="--jobs=2 --verify-ids"
		# shellcheck disable=SC2086
		$H audit --json --no-progress $opts "$3" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		audits=$((audits + 1))
		if [ $rc != 0 ] || ! grep -q '"findings": \[  \]' "$tmp/out"; then
			bad=$((bad + 1))
			if [ $bad -le 3 ]; then
				echo "# $1: audit $audits: exit $rc"
				grep '"class"' "$tmp/out" | head -3 | sed 's/^/#   /'
				sed 's/^/#   /' "$tmp/err" | head -3
			fi
		fi
		kill -0 $wpid 2>/dev/null || break
	done
	wait $wpid
	# The repository is left as git left it: an audit of it now is clean too.
	$H audit --json --no-progress "$3" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $bad = 0 ] && [ $rc = 0 ]; then
		pass "$1: $audits audits while git wrote, none with a finding"
	else
		fail "$1: $bad of $audits audits while git wrote had findings or failed (after: exit $rc)"
	fi
}

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
