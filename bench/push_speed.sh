#!/bin/sh
# usage: HEXOID=build/hexoid sh bench/push_speed.sh [OBJECTS] [RUNS]
#
# What `hexoid pre-receive` adds to a push: git push of a history of OBJECTS objects
# (default 100000) from a packed SHA-1 repository into a new bare repository, without a
# hook and with `exec hexoid pre-receive` as the pre-receive hook, the two taking turns,
# RUNS times each (default 5). Prints both medians and the ratio.
#
# Then, when GIT_HISTORY names a bare repository (default: /work/.mirror/git+git/repo,
# git's own history, about 849k objects, if it is there; GIT_HISTORY= skips it), a
# hardlinked mirror clone of it has its branches and tags pushed into an empty bare
# repository (not --mirror: a mirror's other refs, refs/pull/*, may name objects it
# does not hold), once without the hook and once with it, every ref landing.
#
# Last, into a bare clone of that history (--shared: its objects through an alternate,
# as a fork on a forge has them), a new branch and a new annotated tag onto an existing
# commit, the push with and without the hook taking turns, NEWREF_RUNS times each
# (default 5), medians; then once with hexoid.fullWalk, which walks the branch's whole
# history.
#
# PARTS (default "synthetic history newref") picks which of the three run.
#
# The history is one branch where each commit changes one file in one of 16 folders:
# a commit, a blob and two trees each, so a quarter of the objects are commits (git's
# own history has about one in eleven), with an annotated tag every 100 commits. The
# client is packed first, as a repository pushed from usually is, so git reuses its
# deltas and the push is as cheap as git makes it: the hook's share is the largest.
set -u
H=${HEXOID:?HEXOID must name the hexoid command}
objects=${1:-100000}
runs=${2:-5}
case $objects$runs in *[!0-9]*) echo "usage: HEXOID=build/hexoid sh bench/push_speed.sh [OBJECTS] [RUNS]" >&2 && exit 2 ;; esac

parts=${PARTS:-synthetic history newref}
part() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
cl=$dir/client
# one_push HOOK [REFSPEC...]: nanoseconds for one git push into a new bare repository
# (--mirror without REFSPECs).
one_push() {
	srv=$dir/srv.git
	rm -rf "$srv"
	git init -q --bare "$srv" || exit 1
	if [ "$1" = hook ]; then
		printf '#!/bin/sh\nexec %s pre-receive\n' "$H" >"$srv/hooks/pre-receive"
		chmod +x "$srv/hooks/pre-receive"
	fi
	shift
	[ $# = 0 ] && set -- --mirror
	start=$(date +%s%N)
	git -C "$cl" push -q "$srv" "$@" 2>"$dir/err" || { head -n 5 "$dir/err" >&2; echo fail; return; }
	end=$(date +%s%N)
	echo $((end - start))
}
median() { sort -n "$1" | awk '{ t[NR] = $1 } END { printf "%.3f", t[int((NR + 1) / 2)] / 1e9 }'; }

if part synthetic; then
git -c init.defaultBranch=main init -q "$cl" || exit 1
commits=$((objects / 4))
echo "making $commits commits in $cl ..." >&2
awk -v commits=$commits 'BEGIN {
	for (i = 1; i <= commits; i++) {
		when = 1700000000 + i * 60
		msg = "commit " i "\n\nA body of a few words, as most commit messages have.\n"
		s = "line " i " of a file that changes\n"
		printf "commit refs/heads/main\n"
		printf "author A U Thor <author@example.com> %d +0000\ncommitter C O Mitter <committer@example.com> %d +0000\n", when, when
		printf "data %d\n%s", length(msg), msg
		printf "M 100644 inline dir%d/file%d.txt\ndata %d\n%s\n", i % 16, i % 7, length(s), s
		if (i % 100 == 0)
			printf "tag v%d\nfrom refs/heads/main\ntagger T A Gger <tagger@example.com> %d +0000\ndata 8\nrelease\n\n", i / 100, when
	}
}' | git -C "$cl" fast-import --quiet || exit 1
git -C "$cl" repack -adq || exit 1
git -C "$cl" count-objects -v | awk '$1 == "in-pack:" { printf "%d objects packed\n", $2 }' >&2

# A check first: the push must land through the hook.
[ "$(one_push hook)" != fail ] || { echo "the push through the hook failed" >&2; exit 1; }
git -C "$dir/srv.git" rev-parse -q --verify refs/heads/main >/dev/null || exit 1

i=0
: >"$dir/plain"
: >"$dir/hook"
while [ $i -lt "$runs" ]; do
	one_push plain >>"$dir/plain"
	one_push hook >>"$dir/hook"
	i=$((i + 1))
done
grep -q fail "$dir/plain" "$dir/hook" && { echo "a push failed" >&2; exit 1; }
plain=$(median "$dir/plain") hook=$(median "$dir/hook")
echo "git push, $objects objects, median of $runs: no hook ${plain}s, with hexoid pre-receive ${hook}s"
awk -v p="$plain" -v h="$hook" 'BEGIN { printf "ratio: %.3f (%+.1f%%)\n", h / p, (h / p - 1) * 100 }'
fi

# --- a real history ------------------------------------------------------------------
history=${GIT_HISTORY-/work/.mirror/git+git/repo}
export history
[ -n "$history" ] && [ -d "$history/objects" ] || exit 0
rm -rf "$cl"
echo "cloning $history (hardlinks; the source is only read) ..." >&2
git clone -q --mirror "$history" "$cl" || exit 1
n=$(git -C "$cl" count-objects -v | awk '$1 == "in-pack:" { print $2 }')
refs=$(git -C "$cl" for-each-ref refs/heads refs/tags | wc -l)
if part history; then
# Taking turns, HISTORY_RUNS times each (default 2: the first push reads the client's
# pack cold), the fastest of each kept.
: >"$dir/plain"
: >"$dir/hook"
i=0
while [ $i -lt "${HISTORY_RUNS:-2}" ]; do
	one_push plain 'refs/heads/*:refs/heads/*' 'refs/tags/*:refs/tags/*' >>"$dir/plain"
	one_push hook 'refs/heads/*:refs/heads/*' 'refs/tags/*:refs/tags/*' >>"$dir/hook"
	[ "$(git -C "$dir/srv.git" for-each-ref | wc -l)" = "$refs" ] || { echo "not every ref landed through the hook" >&2; exit 1; }
	i=$((i + 1))
done
grep -q fail "$dir/plain" "$dir/hook" && { echo "a push of $history failed" >&2; exit 1; }
plain=$(sort -n "$dir/plain" | head -n 1) hook=$(sort -n "$dir/hook" | head -n 1)
awk -v p="$plain" -v h="$hook" -v n="$n" -v r="$refs" -v k="${HISTORY_RUNS:-2}" 'BEGIN {
	printf "git push of the branches and tags of %s (%d objects in its pack, %d refs), fastest of %d: no hook %.2fs, with hexoid pre-receive %.2fs\n",
		ENVIRON["history"], n, r, k, p / 1e9, h / 1e9
	printf "ratio: %.3f (%+.1f%%)\n", h / p, (h / p - 1) * 100 }'
fi

# --- a new branch and a new tag on that history ---------------------------------------
part newref || exit 0
big=$dir/big.git
rm -rf "$dir/srv.git"
git clone -q --bare --shared "$history" "$big" || exit 1
at=$(git -C "$cl" rev-parse 'refs/heads/master~50' 2>/dev/null || git -C "$cl" rev-parse 'HEAD~50') || exit 1
# new_ref HOOK N: nanoseconds for pushing refs/heads/bench-N and the annotated tag
# bench-N, both onto $at, which the server has.
new_ref() {
	rm -f "$big/hooks/pre-receive"
	if [ "$1" != plain ]; then
		printf '#!/bin/sh\nexec %s pre-receive %s\n' "$H" "$([ "$1" = full ] && echo --full-walk)" \
			>"$big/hooks/pre-receive"
		chmod +x "$big/hooks/pre-receive"
	fi
	git -C "$cl" -c user.name=B -c user.email=b@example.com tag -f -a -m bench "bench-$2" "$at" >/dev/null || exit 1
	start=$(date +%s%N)
	git -C "$cl" push -q "$big" "$at:refs/heads/bench-$2" "refs/tags/bench-$2:refs/tags/bench-$2" \
		2>"$dir/err" || { head -n 5 "$dir/err" >&2; echo fail; return; }
	end=$(date +%s%N)
	echo $((end - start))
}
: >"$dir/plain"
: >"$dir/hook"
i=0
while [ $i -lt "${NEWREF_RUNS:-5}" ]; do
	new_ref plain "p$i" >>"$dir/plain"
	new_ref hook "h$i" >>"$dir/hook"
	i=$((i + 1))
done
full=$(new_ref full f)
grep -q fail "$dir/plain" "$dir/hook" && { echo "a new-ref push failed" >&2; exit 1; }
[ "$full" != fail ] || { echo "the push with --full-walk failed" >&2; exit 1; }
plain=$(median "$dir/plain") hook=$(median "$dir/hook")
echo "a new branch and a new annotated tag onto a commit of $history, into a --shared bare clone, median of ${NEWREF_RUNS:-5}: no hook ${plain}s, with hexoid pre-receive ${hook}s"
awk -v p="$plain" -v h="$hook" -v f="$full" 'BEGIN {
	printf "ratio: %.3f (%+.1f%%); with --full-walk (once): %.2fs\n", h / p, (h / p - 1) * 100, f / 1e9 }'
