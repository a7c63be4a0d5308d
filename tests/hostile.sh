#!/bin/sh
# Hostile input, each case answered within bounds: what a pusher controls through the
# push gate (hexoid pre-receive, run as receive-pack runs it: GIT_DIR, the quarantine as
# GIT_OBJECT_DIRECTORY and GIT_QUARANTINE_PATH, the repository's objects behind it) and
# what a repository holds for hexoid audit. Every case is made here at test time, by
# git, by the Git 3.0 candidate (reftable) and by tests/hostile.py, which writes packs
# cheaply (a part repeated is deflated once and its bytes repeated: a commit of 2 GiB of
# parent lines is a 6 MB pack made in a second) and reftables byte by byte.
#
# Each case runs under `hostile.py run`, which holds it to BOUND_SECS (10) of wall time
# and BOUND_MB (256) of memory, and then checks that a verdict or a finding was given,
# that nothing it started is left running, and that every JSON line it wrote parses
# (UTF-8, no duplicate key, no NaN). The memory is that of the whole process tree, the
# gits hexoid starts included: the runner polls /proc every 5 ms for every process below
# it and sums their RSS, and takes the largest single process's peak from the kernel
# (getrusage RUSAGE_CHILDREN: ru_maxrss, which a short spike between two polls cannot
# escape); the case's figure is the larger of the two. No GNU time, cgroup or prlimit is
# needed: cgroups are seldom delegated on a CI runner, and an address-space limit would
# refuse the mappings (a sparse 2 GiB table is mapped, never read) rather than measure
# what is resident. The runner is the tree's subreaper (PR_SET_CHILD_SUBREAPER), so a
# process orphaned by the case stays below it and is found, named and killed.
#
# Under a sanitizer build the memory is the sanitizer's (shadow, quarantine): only the
# time is bound there. Under an emulator (RUN) or a sanitizer the heaviest cases (made
# of gigabytes or 100,000 refs) are skipped. Each case's figures end the output as a
# table ("# case | s | MB | exit").
# Prints "ok N - ..." / "not ok N - ..." lines. Needs: HEXOID, git, python3; CFLAGS and
# RUN from make.
set -u
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/.." && pwd)
hy="$py $src/tests/hostile.py"
g3=$src/../shared/tools/git3/git
[ -x "$g3" ] && "$g3" --version >/dev/null 2>&1 || g3=
BOUND_SECS=10 BOUND_MB=256
heavy=
sanitized=
case "${CFLAGS:-}" in *-fsanitize*) heavy="sanitizer build" sanitized=1 ;; esac
[ -n "${RUN:-}" ] && heavy="emulated"
up() { echo "$1" | tr a-f A-F; }
ident="hexoid <hexoid@example.com> 1700000000 +0000"
export GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000"
zero=0000000000000000000000000000000000000000
: >"$tmp/table"

# bounded NAME WANT PATTERN -- CMD...: run CMD (stdin from $tmp/in, stdout $tmp/out,
# stderr $tmp/err) bounded; its exit must be one of WANT (a list), PATTERN (when not
# empty) in its output or errors, every line of $tmp/out strict JSON.
term_when=
bounded() {
	b_name=$1 b_want=$2 b_pat=$3
	shift 4
	: >"$tmp/rep"
	$hy run --secs $BOUND_SECS --report "$tmp/rep" --json "$tmp/out" ${term_when:+--term-when "$term_when"} \
		-- "$@" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
	{ read -r b_rc b_secs b_peak b_single b_timed b_left b_names && read -r b_json; } <"$tmp/rep" || :
	[ -n "${b_rc:-}" ] && [ "$b_rc" != x ] || b_rc=x
	[ "$b_single" -gt "$b_peak" ] 2>/dev/null && b_peak=$b_single
	b_mb=$(((${b_peak:-0} + 1023) / 1024))
	printf '# %s | %s | %s | %s\n' "$b_name" "$b_secs" "$b_mb" "$b_rc" >>"$tmp/table"
	b_why=
	case " $b_want " in *" $b_rc "*) ;; *) b_why="exit $b_rc, expected one of: $b_want" ;; esac
	[ "$b_timed" = 1 ] && b_why="no answer within $BOUND_SECS s"
	[ -z "$sanitized" ] && [ "$b_mb" -gt $BOUND_MB ] && b_why="$b_why; $b_mb MB, more than $BOUND_MB"
	[ "$b_left" != 0 ] && b_why="$b_why; left running: $b_names"
	if [ -n "$b_pat" ] && ! grep -qF -- "$b_pat" "$tmp/out" "$tmp/err"; then
		b_why="$b_why; no '$b_pat' said"
	fi
	if [ -s "$tmp/out" ] && [ "$b_json" != - ]; then
		b_why="$b_why; not JSON: $(printf '%.200s' "${b_json:-not checked}")"
	fi
	if [ -z "$b_why" ]; then
		pass "$b_name: exit $b_rc in $b_secs s, $b_mb MB"
	else
		fail "$b_name: ${b_why#; }"
		sed 's/^/#   /' "$tmp/err" | head -4
	fi
}
heavy_case() { # heavy_case NAME: 0 (and a skip line) when heavy cases are skipped
	[ -z "$heavy" ] && return 1
	skip "$1" "$heavy: left to the native run"
	return 0
}

# --- the push gate -----------------------------------------------------------------
srv=$tmp/srv.git
git_ init -q --bare "$srv" && git -C "$srv" config gc.auto 0 || { fail "git init"; exit 0; }
tree=$(git -C "$srv" mktree </dev/null)
c1=$(echo one | git_ -C "$srv" commit-tree "$tree")
main=$(echo two | git_ -C "$srv" commit-tree -p "$c1" "$tree")
git -C "$srv" update-ref refs/heads/main "$main"
# gate NAME WANT PATTERN QUARANTINE [OPTIONS]: the hook as receive-pack runs it, stdin
# $tmp/in; $gate_path before PATH.
gate_path=
gate() {
	g_name=$1 g_want=$2 g_pat=$3 g_q=$4
	shift 4
	mkdir -p "$g_q"
	bounded "$g_name" "$g_want" "$g_pat" -- env ${gate_path:+PATH=$gate_path:$PATH} GIT_DIR="$srv" \
		GIT_QUARANTINE_PATH="$g_q" GIT_OBJECT_DIRECTORY="$g_q" \
		GIT_ALTERNATE_OBJECT_DIRECTORIES="$srv/objects" $H pre-receive --json "$@"
}
q=$srv/objects/incoming-hostile

# Memory a pusher controls.
if ! heavy_case "a pushed commit of 2 GiB of parent lines"; then
	huge=$($hy pack "$q/pack" huge-commit "$tree" "$main" 2147483648)
	echo "$zero $huge refs/heads/huge" >"$tmp/in"
	gate "a pushed commit of 2 GiB of parent lines (6 MB packed): rejected" 1 '"code": "too-large"' "$q"
	rm -rf "$q"
fi
if ! heavy_case "a pushed tag onto a blob of 1.2 GiB"; then
	big=$($hy pack "$q/pack" tag-blob 1288490188)
	echo "$zero $big refs/tags/big" >"$tmp/in"
	gate "a pushed tag onto a blob of 1.2 GiB: accepted" 0 '"verdict": "accept"' "$q"
	rm -rf "$q"
fi
if ! heavy_case "a pushed delta chain 20,000 deep, hexoid.jobs=256"; then
	$hy pack "$q/pack" chain 20000 >/dev/null
	echo "$zero $main refs/heads/chain" >"$tmp/in"
	git -C "$srv" config hexoid.jobs 256
	gate "a pushed delta chain 20,000 deep, hexoid.jobs=256: accepted" 0 '"verdict": "accept"' "$q"
	git -C "$srv" config --unset hexoid.jobs
	rm -rf "$q"
fi
# A pack git made, its index replaced.
echo "$zero $main refs/heads/x" >"$tmp/in"
mkdir -p "$q/pack"
h=$(echo "$main" | git -C "$srv" pack-objects -q "$q/pack/pack")
ln -sf /dev/zero "$q/pack/pack-$h.idx"
gate "/dev/zero as a pushed .idx: rejected" 2 "not a regular file" "$q"
rm -f "$q/pack/pack-$h.idx"
mkfifo "$q/pack/pack-$h.idx"
gate "a FIFO as a pushed .idx: rejected" 2 "not a regular file" "$q"
rm -rf "$q"
mkdir -p "$q/pack"
h=$(echo "$main" | git -C "$srv" pack-objects -q "$q/pack/pack")
rm "$q/pack/pack-$h.pack"
mkfifo "$q/pack/pack-$h.pack"
# git reads no object through an index whose pack is no regular file; nor does the check.
gate "a FIFO as a pushed .pack: not read, as git does not read it" 0 '"verdict": "accept"' "$q"
rm -rf "$q"
loose=${main%"${main#??}"}/${main#??}
mkdir -p "$q/$(dirname "$loose")"
mkfifo "$q/$loose"
gate "a FIFO as a pushed loose object: rejected" 1 "not a regular file" "$q"
rm -rf "$q"

# Many refs: one walk for them all, and a report in the order of the updates.
if ! heavy_case "100,000 moved refs in one push"; then
	awk -v o="$c1" 'BEGIN { print "# pack-refs with: peeled fully-peeled sorted "
		for (i = 0; i < 100000; i++) printf "%s refs/heads/m%06d\n", o, i }' >"$srv/packed-refs"
	awk -v o="$c1" -v n="$main" 'BEGIN { for (i = 0; i < 100000; i++) printf "%s %s refs/heads/m%06d\n", o, n, i }' >"$tmp/in"
	gate "100,000 moved refs in one push: accepted" 0 '"verdict": "accept"' "$q"
	rm -f "$srv/packed-refs"
fi
$hy pack "$q/pack" bad-commits "$tree" "$main" 10000 | awk -v z=$zero '{ print z, $1, "refs/heads/n" NR }' >"$tmp/in"
gate "10,000 new refs, each onto a pushed bad commit of its own: rejected" 1 '"refs": 10000, "verdict": "reject"' "$q"
rm -rf "$q"
if ! heavy_case "100,000 new refs, each onto a pushed bad commit of its own"; then
	$hy pack "$q/pack" bad-commits "$tree" "$main" 100000 | awk -v z=$zero '{ print z, $1, "refs/heads/n" NR }' >"$tmp/in"
	gate "100,000 new refs, each onto a pushed bad commit of its own: rejected" 1 '"refs": 100000, "verdict": "reject"' "$q"
	rm -rf "$q"
fi

# A branch named with bytes that are not UTF-8, onto a bad commit: the JSON is still JSON.
bad=$($hy pack "$q/pack" bad-commits "$tree" "$main" 1)
printf '%s %s refs/heads/x\377\376\n' "$zero" "$bad" >"$tmp/in"
gate "a branch named x and bytes ff fe, onto a bad commit: rejected, JSON escaped" 1 '"ref": "refs/heads/x\udcff\udcfe"' "$q"
rm -rf "$q"

# The hook itself: killed while git runs for it, nothing left; a time past a day refused.
echo "$zero $main refs/heads/x" >"$tmp/in"
mkdir -p "$tmp/fake"
printf '#!/bin/sh\nif [ "$1" = rev-list ]; then sleep 37; exit 1; fi\nexec %s "$@"\n' "$(command -v git)" >"$tmp/fake/git"
chmod +x "$tmp/fake/git"
if [ -n "${RUN:-}" ]; then
	skip "SIGTERM to the hook while git runs for it" "emulated: left to the native run"
else
	term_when="sleep 37" gate_path=$tmp/fake
	gate "SIGTERM to the hook while git runs for it: the check and its gits go" 143 "" "$q"
	term_when= gate_path=
fi
git -C "$srv" config hexoid.timeout 4294967297
gate "hexoid.timeout=4294967297: a bad value, not one second" 2 "bad value '4294967297'" "$q"
git -C "$srv" config --unset hexoid.timeout
rm -rf "$q"

# --- the audit -----------------------------------------------------------------------
: >"$tmp/in"
audit() { # audit NAME WANT PATTERN REPO [OPTIONS]
	a_name=$1 a_want=$2 a_pat=$3 a_repo=$4
	shift 4
	bounded "$a_name" "$a_want" "$a_pat" -- $H audit --json-lines --no-progress "$@" "$a_repo"
}
# A repository with packed and loose objects and notes: the last commit and the notes
# commit naming its note are loose.
a=$tmp/a
git_ init -q "$a" && (
	cd "$a" && git config gc.auto 0 &&
		for i in 1 2 3; do echo $i >f && git_ add f && git_ commit -q -m $i || exit 1; done &&
		git_ notes add -m packed HEAD && git repack -adq &&
		echo 4 >f && git_ commit -q -am 4 && git_ notes add -m loose HEAD
) || { fail "the audited repository"; exit 0; }
audit "a clean repository: clean" 0 '"type": "repository"' "$a"
pk=$(cd "$a/.git/objects/pack" && ls pack-*.pack | head -1)
nc=$(git -C "$a" rev-parse refs/notes/commits)
hc=$(git -C "$a" rev-parse HEAD)
# One copy of the repository for each file replaced, made once: each kind in turn takes
# the file's place (the audit never writes to a repository).
odd_file() { # odd_file WHAT: the file the WHAT case replaces
	case $1 in
	config) f=.git/config ;;
	pack) f=.git/objects/pack/$pk ;;
	index) f=.git/objects/pack/${pk%.pack}.idx ;;
	loose) f=.git/objects/${hc%"${hc#??}"}/${hc#??} ;;
	notes) f=.git/objects/${nc%"${nc#??}"}/${nc#??} ;;
	esac
}
for what in config pack index loose notes; do
	odd_file $what
	cp -R "$a" "$tmp/odd-$what" && rm -f "$tmp/odd-$what/$f"
done
for kind in fifo zero urandom; do
	for what in config pack index loose notes; do
		c=$tmp/odd-$what
		odd_file $what
		case $kind in
		fifo) mkfifo "$c/$f" ;;
		*) ln -s /dev/$kind "$c/$f" ;;
		esac
		# The file is named, as a finding or as the reason the audit could not be done;
		# a .pack that is no regular file git does not read (it stats it first), and
		# neither does the audit.
		if [ $what = pack ]; then
			audit "$kind as the pack file: not read, as git does not read it" 0 '"type": "repository"' "$c"
		else
			audit "$kind as the $what file: a finding at once" "1 2" "${f##*/}" "$c"
		fi
		rm -f "$c/$f"
	done
done
rm -rf "$tmp"/odd-*

# A config that includes itself 20 times (git stops at ten levels).
c=$tmp/include
git_ init -q "$c"
i=0
while [ $i -lt 20 ]; do printf '[include]\n\tpath = config\n' >>"$c/.git/config"; i=$((i + 1)); done
audit "a config including itself 20 times: read once per level" "0 1 2" '"type": "repository"' "$c"
# Submodules whose repositories link back to the one holding them, two at each level.
c=$tmp/modules
cp -R "$a" "$c"
mkdir -p "$c/.git/modules"
ln -s .. "$c/.git/modules/one"
ln -s .. "$c/.git/modules/two"
audit "two submodules linking back to their repository: each audited once" 1 "already audited" "$c"
# A notes tree made as a DAG: one tree under four names at each of 19 levels.
c=$tmp/notes-dag
git_ init -q "$c" && (cd "$c" && git_ commit -q --allow-empty -m x)
dt=$(printf '100644 blob %s\tab\n' "$(echo note | git -C "$c" hash-object -w --stdin)" | git -C "$c" mktree)
lvl=19
while [ $lvl -gt 0 ]; do
	dt=$(printf '040000 tree %s\t00\n040000 tree %s\t01\n040000 tree %s\t02\n040000 tree %s\t03\n' "$dt" "$dt" "$dt" "$dt" | git -C "$c" mktree)
	lvl=$((lvl - 1))
done
git -C "$c" update-ref refs/notes/commits "$(echo dag | git_ -C "$c" commit-tree "$dt")"
audit "a notes tree of 4^19 paths (a DAG): each folder walked once" 0 "repeated-tree" "$c"
# A fork's notes, whose objects are all in the origin (clone --shared).
c=$tmp/fork
git clone -q --shared "$a" "$c" && git -C "$c" fetch -q origin 'refs/notes/*:refs/notes/*'
audit "a fork's notes read through its alternates: clean" 0 '"type": "repository"' "$c"
# Names that are not UTF-8: a loose ref named y and byte ff holding an uppercase ID.
c=$tmp/latin
git_ init -q "$c"
up "$hc" >"$c/.git/refs/heads/$(printf 'y\377')"
audit "a ref named y and byte ff holding an uppercase ID: escaped JSON" 1 '"refs/heads/y\udcff"' "$c"
printf 'G%039d\n' 0 >"$tmp/$(printf 'n\377')"
bounded "verify --json of a file named n and byte ff: escaped JSON" 1 'n\udcff' -- $H verify --json "$tmp/$(printf 'n\377')"

# --- reftable (the Git 3.0 candidate's repositories) ----------------------------------
if [ -z "$g3" ]; then
	skip "reftable cases" "skipped: no $src/../shared/tools/git3/git"
else
	r3=$tmp/r3
	"$g3" -c init.defaultBranch=main init -q --ref-format=reftable "$r3" && (
		cd "$r3" && "$g3" config user.name hexoid && "$g3" config user.email hexoid@example.com &&
			echo 1 >f && "$g3" add f && "$g3" commit -q -m 1
	) || fail "the Git 3.0 candidate's repository"
	rt=$r3/.git/reftable
	cp "$rt/tables.list" "$tmp/tl.saved"
	# table NAME: a table file name as git makes them, not yet listed.
	table_name() { echo "0x000000000100-0x000000000100-$1.ref"; }
	# A table whose names grow by prefix compression: 165 KB naming 1.3 GB.
	t=$(table_name 0000000a)
	$hy reftable "$rt/$t" 100 51000
	{ cat "$tmp/tl.saved"; echo "$t"; } >"$rt/tables.list"
	audit "reftable: 200 KB of table naming 1.3 GB by prefix compression" "1 2" "64 MiB" "$r3"
	rm -f "$rt/$t"
	if ! heavy_case "reftable: a table of 16 MB naming 3.9 GB"; then
		t=$(table_name 0000000b)
		$hy reftable "$rt/$t" 100 2700000
		{ cat "$tmp/tl.saved"; echo "$t"; } >"$rt/tables.list"
		audit "reftable: a table of 16 MB naming 3.9 GB by prefix compression" "1 2" "reftable/$t" "$r3"
		rm -f "$rt/$t"
	fi
	awk '{ l[NR] = $0 } END { for (i = 0; i < 10000; i++) for (j = 1; j <= NR; j++) print l[j] }' \
		"$tmp/tl.saved" >"$rt/tables.list"
	audit "reftable: each table listed 10,000 times in tables.list: clean" 0 '"type": "repository"' "$r3"
	# A sparse table of 2 GiB (a real one, then zeros): mapped, its footer not there.
	t=$(table_name 0000000c)
	cp "$rt/$(tail -1 "$tmp/tl.saved")" "$rt/$t"
	truncate -s 2G "$rt/$t"
	{ cat "$tmp/tl.saved"; echo "$t"; } >"$rt/tables.list"
	audit "reftable: a sparse table of 2 GiB: mapped, not read whole" "0 1 2" '"type": "repository"' "$r3"
	rm -f "$rt/$t"
	cp "$tmp/tl.saved" "$rt/tables.list"
	truncate -s 2G "$rt/tables.list"
	audit "reftable: a sparse tables.list of 2 GiB" "1 2" "tables.list" "$r3"
	cp "$tmp/tl.saved" "$rt/tables.list"
	# A NUL in tables.list before the table holding an uppercase replace ref.
	"$g3" -C "$r3" update-ref "refs/replace/$(up "$(git -C "$r3" rev-parse HEAD)")" HEAD 2>/dev/null
	{ sed '$d' "$rt/tables.list"; printf '\0'; tail -1 "$rt/tables.list"; } >"$tmp/tl.nul"
	cp "$tmp/tl.nul" "$rt/tables.list"
	audit "reftable: a NUL in tables.list hiding an uppercase replace ref" 1 "a NUL byte" "$r3"
fi

echo "# case | seconds | peak MB (the process tree) | exit"
cat "$tmp/table"
exit 0
