#!/bin/sh
# hexoid audit, place by place: every file where git reads a hex object ID from a
# repository, in the state git itself leaves it (a merge, a rebase or a cherry-pick
# stopped on a conflict, a bisect, rerere, grafts, replace refs, notes with fanout, a
# linked worktree, a submodule, the dumb-HTTP files, a partial clone, alternates, the
# files config names), in SHA-1 and SHA-256 repositories made by the installed git.
# Clean, each gives no finding; with one ID made uppercase or malformed where git reads
# it, exactly one finding with its area, path, line, column and class. Where the Git 3.0
# build is at hand (../shared/tools/git3/git, x86-64, not under an emulator), it is the
# oracle: it accepts every clean state, and rejects or ignores each planted uppercase ID
# that the audit calls git3 while git 2.39 takes it; both reject each malformed one;
# and it still takes what the audit calls warn. Then the states the Git 3.0 build makes
# itself (files and reftable), and forms git takes that are not findings.
# Prints "ok N - ..." / "not ok N - ..." lines. Needs: HEXOID.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/direct.sh"

# The places, and whether hexoid audit reads them yet. A place marked "no" is not tested
# but listed as "# skip not yet checked by hexoid audit: PLACE"; once the audit reads it,
# flip the word to "yes".
places='
pseudo-refs        yes  ORIG_HEAD, MERGE_HEAD, AUTO_MERGE after a conflicted merge
bisect             yes  BISECT_EXPECTED_REV, BISECT_START, BISECT_HEAD, refs/bisect/*
rebase-merge       yes  rebase-merge/: onto, orig-head, git-rebase-todo, done, amend, autostash, update-refs, squash-onto, rewritten-list
rebase-apply       yes  rebase-apply/: onto, orig-head, original-commit, abort-safety (git am)
rebase-mails       yes  rebase-apply/NNNN: the "From <id>" line of each mail while rebasing
sequencer          yes  sequencer/: head, abort-safety, todo; CHERRY_PICK_HEAD, REVERT_HEAD
grafts             yes  info/grafts
replace            yes  refs/replace/<id> names, loose and packed
notes-fanout       yes  a notes tree with fanout: the 2-digit folder names (git3), the rest of the name (warn)
notes-flat         yes  a notes tree without fanout: whole-ID names (warn)
rerere             yes  MERGE_RR
rerere-cache       yes  rr-cache/<id> folder names
config-files       yes  the files fsck.skipList and blame.ignoreRevsFile name
dumb-http          yes  info/refs, objects/info/packs
pack-names         yes  pack-<id>.pack names (warn)
promisor           yes  a partial clone: .promisor contents, never read as IDs
alternates         yes  the objects of a directory objects/info/alternates lists
worktree           yes  a linked worktree: worktrees/<name>/ORIG_HEAD, rebase-merge/, HEAD
submodule          yes  a submodule: modules/<name>/ORIG_HEAD, packed-refs
'
# checked PLACE: hexoid audit reads PLACE; otherwise says so, once.
checked() {
	c_on=$(echo "$places" | awk -v p="$1" '$1 == p { print $2 }')
	[ "$c_on" = yes ] && return 0
	case " ${skipped:-} " in *" $1 "*) ;; *)
		skipped="${skipped:-} $1"
		skip "$1" "not yet checked by hexoid audit: $1 ($(echo "$places" | awk -v p="$1" '$1 == p { $1 = $2 = ""; sub(/^ +/, ""); print }'))"
		;;
	esac
	return 1
}

# Every git run here: no user or system configuration, fixed identities and dates (so
# both gits make the same commits), no editor, no pager.
GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_EDITOR=true GIT_SEQUENCE_EDITOR=true
GIT_PAGER=cat GIT_TERMINAL_PROMPT=0 GIT_AUTHOR_DATE="1700000000 +0000"
GIT_COMMITTER_DATE="1700000000 +0000" GIT_ADVICE=0
export GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL GIT_EDITOR GIT_SEQUENCE_EDITOR GIT_PAGER
export GIT_TERMINAL_PROMPT GIT_AUTHOR_DATE GIT_COMMITTER_DATE GIT_ADVICE

srcdir=$(cd "$(dirname "$0")/.." && pwd)
g3=$srcdir/../shared/tools/git3/git
# The Git 3.0 build is an x86-64 program: not run beside an emulated hexoid.
if [ -n "${RUN:-}" ]; then
	g3_why="hexoid runs under $RUN"
	g3=
elif [ ! -x "$g3" ]; then
	g3_why="no $g3"
	g3=
fi
git3_direct
git3_() { "$g3" -c user.name=hexoid -c user.email=hexoid@example.com -c init.defaultBranch=main "$@"; }

# ---------------------------------------------------------------------------------------
# The audit's findings, from its --json output (one finding a line): "AREA PATH LINE
# COLUMN CLASS", line and column "null" for a finding about a file's name.
audit_json() { $H audit --json --no-progress "$1" >"$tmp/out" 2>"$tmp/err" </dev/null; }
# findings WANT: prints them; exits 0 when they are WANT's lines, 1 when not.
findings() {
	awk 'function v(k, s) {
			if (!match($0, "\"" k "\": (\"[^\"]*\"|[0-9]+|null)")) return "?"
			s = substr($0, RSTART + length(k) + 4, RLENGTH - length(k) - 4)
			gsub(/"/, "", s)
			return s
		}
		FILENAME == ARGV[1] { want[++nw] = $0; next }
		/^ *\{"area": / { f = v("area") " " v("path") " " v("line") " " v("column") " " v("class")
			print f; if (want[++ng] != f) differ = 1 }
		END { exit differ || ng != nw }' "$1" "$tmp/out"
}

# expect NAME REPO [FINDING...]: hexoid audit --json REPO gives exactly these findings,
# in this order, and exits 0 when there are none, 1 when one is git3 or error.
expect() {
	e_name=$1 e_repo=$2
	shift 2
	: >"$tmp/want"
	e_status=0
	for e_f; do
		echo "$e_f" >>"$tmp/want"
		case $e_f in *' git3' | *' error') e_status=1 ;; esac
	done
	audit_json "$e_repo"
	e_got=$?
	findings "$tmp/want" >"$tmp/got"
	e_same=$?
	# A report of warnings alone exits 0.
	if [ $e_got != $e_status ]; then
		fail "$e_name: exit $e_got, expected $e_status"
		sed 's/^/#   /' "$tmp/err" "$tmp/got" | head -6
	elif [ $e_same = 0 ]; then
		if [ $# = 0 ]; then pass "$e_name: no finding"; else pass "$e_name: $*"; fi
	else
		fail "$e_name: findings differ"
		diff "$tmp/want" "$tmp/got" | sed 's/^/#   /' | head -8
	fi
}

# plant FILE LINE COL LEN up|bad: the LEN characters at column COL of line LINE made
# uppercase, or the first of them a 'z'. Sets $col to the column a finding names: the
# first letter of the ID for up, COL for bad; empty when an uppercase ID has no letter.
# (one awk: the file read whole, then written again in place, keeping its inode and mode)
plant() {
	col=$(awk -v l="$2" -v c="$3" -v n="$4" -v m="$5" '{ t[NR] = $0 }
		NR == l { id = substr($0, c, n)
			p = m == "up" ? match(id, /[a-f]/) : 1
			if (p) col = c + p - 1
			id = m == "up" ? toupper(id) : "z" substr(id, 2)
			t[NR] = substr($0, 1, c - 1) id substr($0, c + n) }
		END { for (i = 1; i <= NR; i++) print t[i] >FILENAME
			close(FILENAME)
			print col }' "$1")
}

# copy FIX DIR: a copy of the fixture folder FIX (the repository in FIX/repo, perhaps a
# linked worktree wt/ or a repository src/ beside it) as DIR, the absolute paths linking
# them made DIR's.
copy() {
	[ ! -e "$2" ] || rm -rf "$2"
	cp -Rp "$1" "$2" || return 1
	[ -e "$2/wt" ] || [ -e "$2/src" ] || return 0
	find "$2" \( -name gitdir -o -name .git -o -name alternates \) -type f | while read -r c_f; do
		sed "s|$1|$2|g" "$c_f" >"$c_f.new" && cat "$c_f.new" >"$c_f" && rm -f "$c_f.new"
	done
}

# fresh NAME: $fresh, a folder name not used before, for a copy of a case or of the
# state a command moves on. They are all in $tmp/fresh, removed whole by sweep (once
# sixteen have been made), called where none of them is in use: one rm for sixteen
# copies, where each had one.
fresh_n=0
fresh() {
	[ $fresh_n != 0 ] || mkdir "$tmp/fresh"
	fresh_n=$((fresh_n + 1))
	fresh=$tmp/fresh/$1.$fresh_n
}
sweep() {
	[ $fresh_n -lt 16 ] || { rm -rf "$tmp/fresh"; fresh_n=0; }
}

# The oracle. run WHICH FIX SUB CMD...: git 2.39 (WHICH = 2) or the Git 3.0 build (3)
# runs CMD in FIX's folder SUB (repo, wt, ...), or in a copy's when CMD changes the
# state; $rs is the status, $tmp/o.WHICH its stdout, $tmp/e.WHICH its stderr.
run() {
	r_w=$1 r_fix=$2 r_dir=$2/$3
	shift 3
	# A command that moves the state on runs in a copy; one that only reads, in place.
	case " $* " in *' rebase '* | *' cherry-pick '* | *' revert '* | *' am '* | *' bisect '*)
		fresh run$r_w
		copy "$r_fix" "$fresh"
		r_dir=$fresh/${r_dir#"$r_fix"/}
		# (a copy's files have new inodes and times: the index learns them before a reset)
		case " $* " in *' --abort '*)
			(cd "$r_dir" && git update-index -q --refresh) >/dev/null 2>&1 ;;
		esac
		;;
	esac
	if [ "$r_w" = 2 ]; then
		(cd "$r_dir" && git_ "$@") >"$tmp/${r_out:-o.2}" 2>"$tmp/${r_err:-e.2}" </dev/null
	else
		(cd "$r_dir" && git3_ "$@") >"$tmp/o.$r_w" 2>"$tmp/e.$r_w" </dev/null
	fi
	rs=$?
}
# clean_run FIX SUB CMD...: run 2, its stdout and stderr kept as $tmp/clean.out and
# clean.err, what the planted states are compared with (written there, not copied).
clean_run() {
	r_out=clean.out r_err=clean.err
	run 2 "$@"
	r_out= r_err=
}
# same FILE1 FILE2: the two files are the same text, line for line, a last line without
# its newline told apart (cmp, in the shell: git's output here holds no NUL).
same() {
	exec 3<"$1" 4<"$2"
	while :; do
		s_1=0 s_2=0
		IFS= read -r s_a <&3 || s_1=$?
		IFS= read -r s_b <&4 || s_2=$?
		if [ "$s_1" != "$s_2" ] || [ "$s_a" != "$s_b" ]; then exec 3<&- 4<&-; return 1; fi
		[ $s_1 = 0 ] || break
	done
	exec 3<&- 4<&-
}
# both NAME FIX SUB CMD...: each git takes FIX: CMD exits 0 for both, with the same
# stdout. Kept in $tmp/clean.out for the planted states' comparisons.
both() {
	b_name=$1 b_fix=$2 b_sub=$3
	shift 3
	[ -n "$g3" ] || return 0
	clean_run "$b_fix" "$b_sub" "$@"
	b2=$rs
	c_key="$b_fix $b_sub $*"
	run 3 "$b_fix" "$b_sub" "$@"
	if [ $b2 = 0 ] && [ $rs = 0 ] && same "$tmp/clean.out" "$tmp/o.3"; then
		pass "$b_name: git 2.39 and the Git 3.0 build take it (git $*)"
	else
		fail "$b_name: git 2.39 exits $b2, the Git 3.0 build $rs, on 'git $*'"
		sed 's/^/#   2: /' "$tmp/clean.err" | head -3
		sed 's/^/#   3: /' "$tmp/e.3" | head -3
	fi
}
# complains: for each pair BEFORE AFTER of stderr files (clean.err e.2, e.2 e.3,
# clean.err e.3), "no" when AFTER has a line BEFORE lacks that holds an error, warning
# or the like, else "yes": the three words on one line, from one awk.
complains() {
	awk 'FILENAME == ARGV[1] { c[$0] = 1; next }
		FILENAME == ARGV[2] { e2[$0] = 1 }
		{ bad = tolower($0) ~ /error|fatal|warning|invalid|bad |corrupt/ }
		bad && FILENAME == ARGV[2] && !($0 in c) { q2 = 1 }
		bad && FILENAME == ARGV[3] && !($0 in e2) { q3 = 1 }
		bad && FILENAME == ARGV[3] && !($0 in c) { n3 = 1 }
		END { print (q2 ? "no" : "yes"), (q3 ? "no" : "yes"), (n3 ? "no" : "yes") }' \
		"$tmp/clean.err" "$tmp/e.2" "$tmp/e.3"
}
# judged CLASS NAME FIX SUB CMD...: what each git does with a planted FIX says CLASS:
#   git3   git 2.39 exits 0 with the clean state's stdout and no new complaint; the
#          Git 3.0 build fails, or gives another stdout, or complains where git 2.39
#          does not
#   error  both fail, give another stdout than on the clean state, or complain
#   warn   both exit 0 with the clean state's stdout
#   none   the same as warn: git does not read it as an ID
# (run after both() on the clean state, which left $tmp/clean.out)
judged() {
	j_class=$1 j_name=$2 j_fix=$3 j_sub=$4
	shift 4
	[ -n "$g3" ] || return 0
	run 2 "$j_fix" "$j_sub" "$@"
	j2=$rs
	run 3 "$j_fix" "$j_sub" "$@"
	j3=$rs
	j2same=no j3same=no
	[ $j2 = 0 ] && same "$tmp/o.2" "$tmp/clean.out" && j2same=yes
	[ $j3 = 0 ] && same "$tmp/o.3" "$tmp/clean.out" && j3same=yes
	# complaints on stderr: git 2.39's beside its own on the clean state, the Git 3.0
	# build's beside git 2.39's on the same state (j3quiet) and on the clean one (j3new)
	j_q=$(complains)
	j2quiet=${j_q%% *} j3new=${j_q##* } j_q=${j_q#* }
	j3quiet=${j_q%% *}
	case $j_class in
	git3) [ $j2same = yes ] && [ $j2quiet = yes ] && { [ $j3same = no ] || [ $j3quiet = no ]; } ;;
	error) { [ $j2same = no ] || [ $j2quiet = no ]; } && { [ $j3same = no ] || [ $j3new = no ]; } ;;
	warn | none) [ $j2same = yes ] && [ $j3same = yes ] && [ $j2quiet = yes ] && [ $j3quiet = yes ] ;;
	esac
	if [ $? = 0 ]; then
		case $j_class in
		git3) pass "$j_name: git 2.39 takes it, the Git 3.0 build does not (git $*)" ;;
		error) pass "$j_name: neither git takes it (git $*)" ;;
		*) pass "$j_name: the Git 3.0 build still takes it (git $*)" ;;
		esac
	else
		fail "$j_name: not $j_class to git: git 2.39 exit $j2 (clean stdout: $j2same, quiet: $j2quiet), Git 3.0 build exit $j3 (clean stdout: $j3same, quiet: $j3quiet/$j3new), on 'git $*'"
		sed 's/^/#   2: /' "$tmp/e.2" | head -3
		sed 's/^/#   3: /' "$tmp/e.3" | head -3
	fi
}

# case PLACE FMT FIX FILE LINE COL LEN AREA CLASS-UP CLASS-BAD CMD...: in copies of the
# fixture FIX, the ID at LINE:COL (LEN digits) of FILE (inside the git directory
# FIX/repo/.git) made uppercase, then malformed; each gives the one finding of its class
# ("none": no finding, and both gits take it; "-": no finding, and what git does is not
# about an ID; "skip": not planted), and git agrees: CMD, run in FIX/$where
# (default repo), is the oracle (none given: no oracle). PATH in findings is FILE, or
# $shown when set.
case_() {
	c_place=$1 c_fmt=$2 c_fix=$3 c_file=$4 c_line=$5 c_col=$6 c_len=$7 c_area=$8
	c_up=$9
	shift 9
	c_bad=$1
	shift
	c_where=${where:-repo}
	# git 2.39 on the clean state, once for each fixture and command
	if [ -n "$g3" ] && [ $# -gt 0 ] && [ "${c_key:-}" != "$c_fix $c_where $*" ]; then
		clean_run "$c_fix" "$c_where" "$@"
		c_key="$c_fix $c_where $*"
	fi
	for c_mode in up bad; do
		if [ $c_mode = up ]; then c_class=$c_up; else c_class=$c_bad; fi
		[ "$c_class" = skip ] && continue
		sweep
		fresh case
		c=$fresh
		copy "$c_fix" "$c"
		plant "$c/repo/.git/$c_file" "$c_line" "$c_col" "$c_len" $c_mode
		if [ -z "$col" ]; then
			skip "$c_fmt $c_place: $c_file $c_mode" "the ID has no letter"
			continue
		fi
		case $c_class in
		- | none) expect "$c_fmt $c_place: $c_file, $c_mode" "$c/repo" ;;
		*) expect "$c_fmt $c_place: $c_file, $c_mode" "$c/repo" "$c_area ${shown:-$c_file} $c_line $col $c_class" ;;
		esac
		if [ $# -gt 0 ] && [ "$c_class" != - ]; then
			judged "$c_class" "$c_fmt $c_place: $c_file, $c_mode" "$c" "$c_where" "$@"
		fi
	done
}

# clean PLACE FMT FIX CMD...: the fixture as git left it gives no finding, and both gits
# take it (CMD in FIX/repo).
clean() {
	l_place=$1 l_fmt=$2 l_fix=$3
	shift 3
	expect "$l_fmt $l_place: as git leaves it" "$l_fix/repo"
	[ $# = 0 ] || both "$l_fmt $l_place: as git leaves it" "$l_fix" "${where:-repo}" "$@"
}

up() { echo "$1" | tr a-f A-F; }
# hexsz FMT
hexsz() { if [ "$1" = sha1 ]; then echo 40; else echo 64; fi; }

# ---------------------------------------------------------------------------------------
# Fixtures, made by git 2.39. Each is a folder with the repository in repo/.
# Each is made once for each format, as a seed ($tmp/seed-NAME-FMT), and copied: the
# dates are fixed, so a copy is what git would make again, to the byte.
# seeded NAME FIX FMT: FIX a copy of the seed, made by NAME_made FIX FMT the first time.
seeded() {
	if [ ! -d "$tmp/seed-$1-$3" ]; then
		"$1_made" "$tmp/seed-$1-$3" "$3" || { rm -rf "$tmp/seed-$1-$3"; return 1; }
	fi
	if [ -d "$2" ]; then cp -Rp "$tmp/seed-$1-$3/repo" "$2/"; else cp -Rp "$tmp/seed-$1-$3" "$2"; fi
}
conflict() { seeded conflict "$@"; }
history() { seeded history "$@"; }
# conflict FIX FMT: main and side both change f, side adds g.
conflict_made() {
	git_ init -q --template= --object-format="$2" "$1/repo" || return 1
	(
		cd "$1/repo" || exit 1
		echo base >f && git_ add f && git_ commit -q -m base &&
			git_ checkout -q -b side && echo side >f && git_ commit -q -am side &&
			echo g >g && git_ add g && git_ commit -q -m side2 &&
			git_ checkout -q main && echo main >f && git_ commit -q -am main
	)
}
# history FIX FMT: eight commits of f on main.
history_made() {
	git_ init -q --template= --object-format="$2" "$1/repo" || return 1
	(
		cd "$1/repo" || exit 1
		for i in 1 2 3 4 5 6 7 8; do
			echo "$i" >f && git_ add f && git_ commit -q -m "c$i" || exit 1
		done
	)
}

# made NAME FIX: FIX was made (else a failure with git's words, and the place is left).
made() {
	if [ "$2" = ok ]; then return 0; fi
	fail "$1: git cannot make the state"
	sed 's/^/#   /' "$tmp/git.log" | tail -4
	return 1
}
# has FILE...: every FILE exists.
has() { for h_f; do [ -e "$h_f" ] || return 1; done; }

for fmt in sha1 sha256; do
	hx=$(hexsz $fmt)
	where=repo

	# --- A merge stopped on a conflict: ORIG_HEAD, MERGE_HEAD, AUTO_MERGE, each
	# "<id>\n", read through refs/files-backend.c (parse_loose_ref_contents).
	if checked pseudo-refs; then
		f=$tmp/merge-$fmt
		{ conflict "$f" $fmt && (cd "$f/repo" && git_ merge side); } >"$tmp/git.log" 2>&1
		g=$f/repo/.git
		has "$g/ORIG_HEAD" "$g/MERGE_HEAD" "$g/AUTO_MERGE" && st=ok || st=
		if made "$fmt merge" "$st"; then
			clean pseudo-refs $fmt "$f" rev-parse --verify AUTO_MERGE
			for ref in ORIG_HEAD MERGE_HEAD AUTO_MERGE; do
				case_ pseudo-refs $fmt "$f" $ref 1 1 $hx pseudo-refs git3 error rev-parse --verify $ref
			done
		fi
	fi

	# --- A bisect started on a detached HEAD (BISECT_START holds its ID), one step on:
	# BISECT_EXPECTED_REV, refs/bisect/bad (builtin/bisect.c, bisect.c); BISECT_HEAD
	# with --no-checkout.
	if checked bisect; then
		f=$tmp/bisect-$fmt
		{ history "$f" $fmt && (cd "$f/repo" && git_ checkout -q --detach &&
			git_ bisect start HEAD HEAD~6 && git_ bisect good); } >"$tmp/git.log" 2>&1
		g=$f/repo/.git
		has "$g/BISECT_START" "$g/BISECT_EXPECTED_REV" "$g/refs/bisect/bad" && st=ok || st=
		if made "$fmt bisect" "$st"; then
			clean bisect $fmt "$f" bisect next
			case_ bisect $fmt "$f" BISECT_EXPECTED_REV 1 1 $hx pseudo-refs git3 error \
				rev-parse --verify BISECT_EXPECTED_REV
			case_ bisect $fmt "$f" refs/bisect/bad 1 1 $hx refs git3 error bisect next
			# Not hex, BISECT_START names a branch to git (which has none by the name).
			case_ bisect $fmt "$f" BISECT_START 1 1 $hx pseudo-refs git3 - bisect reset
		fi
		f=$tmp/bisect-nc-$fmt
		{ history "$f" $fmt && (cd "$f/repo" &&
			git_ bisect start --no-checkout HEAD HEAD~6); } >"$tmp/git.log" 2>&1
		has "$f/repo/.git/BISECT_HEAD" && st=ok || st=
		if made "$fmt bisect --no-checkout" "$st"; then
			clean bisect $fmt "$f" rev-parse --verify BISECT_HEAD
			case_ bisect $fmt "$f" BISECT_HEAD 1 1 $hx pseudo-refs git3 error rev-parse --verify BISECT_HEAD
		fi
	fi

	# --- A rebase stopped on a conflict (the merge backend), the conflict resolved:
	# rebase-merge/onto, orig-head (builtin/rebase.c read_basic_state), the todo list
	# and done ("pick <id> subject": sequencer.c parse_insn_line), REBASE_HEAD.
	if checked rebase-merge; then
		f=$tmp/rebase-$fmt
		{ conflict "$f" $fmt && (cd "$f/repo" && git_ checkout -q side && { git_ rebase main || :; } &&
			echo fixed >f && git_ add f); } >"$tmp/git.log" 2>&1
		g=$f/repo/.git/rebase-merge
		has "$g/onto" "$g/orig-head" "$g/git-rebase-todo" "$g/done" "$f/repo/.git/REBASE_HEAD" && st=ok || st=
		if made "$fmt rebase" "$st"; then
			clean rebase-merge $fmt "$f" rebase --continue
			case_ rebase-merge $fmt "$f" rebase-merge/onto 1 1 $hx rebase git3 error rebase --continue
			case_ rebase-merge $fmt "$f" rebase-merge/orig-head 1 1 $hx rebase git3 error rebase --continue
			# An object name, perhaps short or a revision: only hex is checked.
			case_ rebase-merge $fmt "$f" rebase-merge/git-rebase-todo 1 6 $hx rebase git3 - rebase --continue
			case_ rebase-merge $fmt "$f" rebase-merge/done 1 6 $hx rebase git3 - rebase --continue
			case_ rebase-merge $fmt "$f" REBASE_HEAD 1 1 $hx pseudo-refs git3 error rev-parse --verify REBASE_HEAD
		fi
		# An interactive rebase stopped at "edit", with --autostash and --update-refs:
		# rebase-merge/amend, autostash, update-refs ("<ref>\n<before>\n<after>\n").
		f=$tmp/rebase-i-$fmt
		printf '#!/bin/sh\nawk '"'"'NR == 1 { sub(/^pick/, "edit") } { print }'"'"' "$1" >"$1.new" && mv "$1.new" "$1"\n' \
			>"$tmp/edit-first"
		chmod +x "$tmp/edit-first"
		{ history "$f" $fmt && (cd "$f/repo" && git_ branch b1 HEAD~2 && echo dirty >>f &&
			GIT_SEQUENCE_EDITOR=$tmp/edit-first git_ rebase -i --autostash --update-refs HEAD~4); } \
			>"$tmp/git.log" 2>&1
		g=$f/repo/.git/rebase-merge
		has "$g/amend" "$g/autostash" "$g/update-refs" && st=ok || st=
		if made "$fmt rebase -i" "$st"; then
			clean rebase-merge $fmt "$f" rebase --continue
			case_ rebase-merge $fmt "$f" rebase-merge/amend 1 1 $hx rebase git3 error rebase --continue
			case_ rebase-merge $fmt "$f" rebase-merge/autostash 1 1 $hx rebase git3 error rebase --continue
			case_ rebase-merge $fmt "$f" rebase-merge/update-refs 2 1 $hx rebase git3 error rebase --continue
		fi
		# rebase -i --root --no-ff stopped at the third commit: rebase-merge/squash-onto
		# (sequencer.c read_populate_opts) and rewritten-list ("<old> <new>", read by
		# git notes copy --for-rewrite when notes.rewriteRef is set).
		f=$tmp/rebase-root-$fmt
		printf '#!/bin/sh\nawk '"'"'NR == 3 { sub(/^pick/, "edit") } { print }'"'"' "$1" >"$1.new" && mv "$1.new" "$1"\n' \
			>"$tmp/edit-third"
		chmod +x "$tmp/edit-third"
		{ history "$f" $fmt && (cd "$f/repo" &&
			GIT_SEQUENCE_EDITOR=$tmp/edit-third git_ rebase -i --root --no-ff); } >"$tmp/git.log" 2>&1
		g=$f/repo/.git/rebase-merge
		has "$g/squash-onto" "$g/rewritten-list" && st=ok || st=
		if made "$fmt rebase -i --root" "$st"; then
			clean rebase-merge $fmt "$f" -c notes.rewriteRef=refs/notes/commits rebase --continue
			case_ rebase-merge $fmt "$f" rebase-merge/squash-onto 1 1 $hx rebase git3 error rebase --continue
			case_ rebase-merge $fmt "$f" rebase-merge/rewritten-list 1 1 $hx rebase git3 error \
				-c notes.rewriteRef=refs/notes/commits rebase --continue
		fi
	fi

	# --- The apply backend: `git rebase --apply` stopped and resolved (rebase-apply/onto,
	# orig-head, original-commit: builtin/rebase.c, builtin/am.c am_load), and `git am`
	# stopped (abort-safety: builtin/am.c safe_to_abort, read by am --abort).
	if checked rebase-apply; then
		f=$tmp/rebase-apply-$fmt
		{ conflict "$f" $fmt && (cd "$f/repo" && git_ checkout -q side && { git_ rebase --apply main || :; } &&
			echo fixed >f && git_ add f); } >"$tmp/git.log" 2>&1
		g=$f/repo/.git/rebase-apply
		has "$g/onto" "$g/orig-head" "$g/original-commit" "$g/0002" && st=ok || st=
		if made "$fmt rebase --apply" "$st"; then
			clean rebase-apply $fmt "$f" rebase --continue
			for r in onto orig-head original-commit; do
				case_ rebase-apply $fmt "$f" rebase-apply/$r 1 1 $hx rebase git3 error rebase --continue
			done
			# Each mail's "From <id> Mon Sep 17 00:00:00 2001": read while rebasing.
			if checked rebase-mails; then
				case_ rebase-mails $fmt "$f" rebase-apply/0002 1 6 $hx rebase git3 error rebase --continue
			fi
		fi
		f=$tmp/am-$fmt
		{ conflict "$f" $fmt && (cd "$f/repo" && git_ format-patch -q -o ../patches main..side &&
			{ git_ am -3 ../patches/*.patch || :; }); } >"$tmp/git.log" 2>&1
		has "$f/repo/.git/rebase-apply/abort-safety" && st=ok || st=
		if made "$fmt am" "$st"; then
			clean rebase-apply $fmt "$f" am --abort
			case_ rebase-apply $fmt "$f" rebase-apply/abort-safety 1 1 $hx rebase git3 error am --abort
		fi
	fi

	# --- A cherry-pick of three commits stopped on the first: sequencer/head,
	# abort-safety (sequencer.c sequencer_rollback, rollback_is_safe: read by --abort),
	# the todo list ("pick <short id> subject") read by --continue once resolved;
	# CHERRY_PICK_HEAD.
	if checked sequencer; then
		f=$tmp/pick-$fmt
		{ git_ init -q --template= --object-format=$fmt "$f/repo" && (cd "$f/repo" &&
			echo base >f && git_ add f && git_ commit -q -m base && git_ checkout -q -b src &&
			echo src >f && git_ commit -q -am c1 && echo g >g && git_ add g && git_ commit -q -m c2 &&
			echo h >h && git_ add h && git_ commit -q -m c3 && git_ checkout -q main &&
			echo main >f && git_ commit -q -am main && { git_ cherry-pick src~3..src || :; }); } \
			>"$tmp/git.log" 2>&1
		g=$f/repo/.git
		has "$g/sequencer/head" "$g/sequencer/abort-safety" "$g/sequencer/todo" "$g/CHERRY_PICK_HEAD" && st=ok || st=
		if made "$fmt cherry-pick" "$st"; then
			clean sequencer $fmt "$f" cherry-pick --abort
			case_ sequencer $fmt "$f" sequencer/head 1 1 $hx sequencer git3 error cherry-pick --abort
			case_ sequencer $fmt "$f" sequencer/abort-safety 1 1 $hx sequencer git3 error cherry-pick --abort
			case_ sequencer $fmt "$f" CHERRY_PICK_HEAD 1 1 $hx pseudo-refs git3 error rev-parse --verify CHERRY_PICK_HEAD
			copy "$f" "$f-fixed"
			(cd "$f-fixed/repo" && echo fixed >f && git_ add f)
			n2=$(awk 'NR == 2 { print length($2) }' "$g/sequencer/todo")
			clean sequencer $fmt "$f-fixed" cherry-pick --continue
			case_ sequencer $fmt "$f-fixed" sequencer/todo 2 6 "$n2" sequencer git3 - cherry-pick --continue
		fi
		# A revert of two commits stopped on the first: REVERT_HEAD, and "revert <id>"
		# in the todo list.
		f=$tmp/revert-$fmt
		{ git_ init -q --template= --object-format=$fmt "$f/repo" && (cd "$f/repo" &&
			echo base >f && git_ add f && git_ commit -q -m base && echo one >f && git_ commit -q -am c1 &&
			echo g >g && git_ add g && git_ commit -q -m c2 && echo three >f && git_ commit -q -am c3 &&
			{ git_ revert --no-edit HEAD~2 HEAD~1 || :; }); } >"$tmp/git.log" 2>&1
		g=$f/repo/.git
		has "$g/REVERT_HEAD" "$g/sequencer/todo" && st=ok || st=
		if made "$fmt revert" "$st"; then
			clean sequencer $fmt "$f" rev-parse --verify REVERT_HEAD
			case_ sequencer $fmt "$f" REVERT_HEAD 1 1 $hx pseudo-refs git3 error rev-parse --verify REVERT_HEAD
			copy "$f" "$f-fixed"
			(cd "$f-fixed/repo" && echo fixed >f && git_ add f)
			n2=$(awk 'NR == 2 { print length($2) }' "$g/sequencer/todo")
			clean sequencer $fmt "$f-fixed" revert --continue
			case_ sequencer $fmt "$f-fixed" sequencer/todo 2 8 "$n2" sequencer git3 - revert --continue
		fi
	fi

	# --- info/grafts, "<commit> <parent>..." (commit.c read_graft_line; the Git 3.0
	# build still reads grafts): a commit grafted onto an older parent.
	if checked grafts; then
		f=$tmp/grafts-$fmt
		history "$f" $fmt >"$tmp/git.log" 2>&1 &&
			(cd "$f/repo" && mkdir -p .git/info && echo "$(git rev-parse HEAD~3) $(git rev-parse HEAD~6)" >.git/info/grafts) &&
			st=ok || st=
		if made "$fmt grafts" "$st"; then
			clean grafts $fmt "$f" rev-list --count HEAD
			case_ grafts $fmt "$f" info/grafts 1 1 $hx grafts git3 error rev-list --count HEAD
			case_ grafts $fmt "$f" info/grafts 1 $((hx + 2)) $hx grafts git3 error rev-list --count HEAD
		fi
	fi

	# --- refs/replace/<id>: the name is the replaced object's ID (replace-object.c
	# register_replace_ref), loose and packed.
	if checked replace; then
		f=$tmp/replace-$fmt
		history "$f" $fmt >"$tmp/git.log" 2>&1 &&
			(cd "$f/repo" && git_ replace HEAD~3 HEAD~6) >>"$tmp/git.log" 2>&1 && st=ok || st=
		if made "$fmt replace" "$st"; then
			clean replace $fmt "$f" rev-list --count HEAD
			# The loose ref renamed: a finding about its name.
			name=$(cd "$f/repo/.git" && ls refs/replace)
			for mode in up bad; do
				copy "$f" "$tmp/case"
				if [ $mode = up ]; then to=$(up "$name"); cls=git3; else to=z$(echo "$name" | cut -c2-); cls=error; fi
				mv "$tmp/case/repo/.git/refs/replace/$name" "$tmp/case/repo/.git/refs/replace/$to"
				expect "$fmt replace: refs/replace/<id>, $mode" "$tmp/case/repo" \
					"replace refs/replace/$to null null $cls"
				judged $cls "$fmt replace: refs/replace/<id>, $mode" "$tmp/case" repo rev-list --count HEAD
			done
			copy "$f" "$f-packed"
			(cd "$f-packed/repo" && git_ pack-refs --all)
			l=$(grep -n ' refs/replace/' "$f-packed/repo/.git/packed-refs" | cut -d: -f1)
			clean replace $fmt "$f-packed" rev-list --count HEAD
			case_ replace $fmt "$f-packed" packed-refs "$l" $((hx + 15)) $hx replace git3 error rev-list --count HEAD
		fi
	fi

	# --- Notes: 300 of them (fast-import), then one by git notes add, which writes the
	# tree with fanout ("ab/cdef..."). notes.c load_subtree reads a 2-digit folder name
	# lowercase only in the Git 3.0 build (its notes vanish: git3), the rest of a
	# name in either case (warn).
	if checked notes-fanout; then
		f=$tmp/notes-$fmt
		{ git_ init -q --template= --object-format=$fmt "$f/repo" && (cd "$f/repo" &&
			awk 'BEGIN { for (i = 1; i <= 300; i++) {
					printf "commit refs/heads/main\nmark :%d\ncommitter c <c@example.com> 1700000000 +0000\ndata 6\nc%04d\n", i, i
					if (i > 1) printf "from :%d\n", i - 1
					print "" }
				print "commit refs/notes/commits\ncommitter c <c@example.com> 1700000000 +0000\ndata 0"
				for (i = 1; i < 300; i++) printf "N inline :%d\ndata 5\nnote\n", i }' |
				git_ fast-import --quiet && git_ checkout -q main && git_ notes add -m last HEAD); } \
			>"$tmp/git.log" 2>&1
		dir=$(git -C "$f/repo" ls-tree refs/notes/commits 2>/dev/null | awk '$2 == "tree" && $4 ~ /[a-f]/ { print $4; exit }')
		[ -n "$dir" ] && st=ok || st=
		if made "$fmt notes with fanout" "$st"; then
			clean notes-fanout $fmt "$f" notes list
			leaf=$(git -C "$f/repo" ls-tree --name-only "refs/notes/commits:$dir" | awk '/[a-f]/ { print; exit }')
			# notes_tree NAME FROM TO: refs/notes/commits in the copy with one tree entry
			# renamed, through git mktree (FROM a root entry, or DIR/LEAF).
			for mode in dir leaf; do
				copy "$f" "$tmp/case"
				(
					cd "$tmp/case/repo" || exit 1
					if [ $mode = dir ]; then
						t=$(git ls-tree refs/notes/commits | awk -v d="$dir" -v u="$(up "$dir")" -F '\t' '$2 == d { $0 = $1 "\t" u } { print }' | git mktree)
					else
						sub=$(git ls-tree "refs/notes/commits:$dir" | awk -v d="$leaf" -v u="$(up "$leaf")" -F '\t' '$2 == d { $0 = $1 "\t" u } { print }' | git mktree)
						t=$(git ls-tree refs/notes/commits | awk -v d="$dir" -v s="$sub" -F '\t' '$2 == d { $0 = "040000 tree " s "\t" d } { print }' | git mktree)
					fi
					c=$(echo renamed | git_ commit-tree "$t" -p refs/notes/commits) && git update-ref refs/notes/commits "$c"
				)
				if [ $mode = dir ]; then
					expect "$fmt notes: a fanout folder's name" "$tmp/case/repo" \
						"notes refs/notes/commits:$(up "$dir")/$leaf null null git3"
					judged git3 "$fmt notes: a fanout folder's name" "$tmp/case" repo notes list
				else
					expect "$fmt notes: a name under a fanout folder" "$tmp/case/repo" \
						"notes refs/notes/commits:$dir/$(up "$leaf") null null warn"
					judged warn "$fmt notes: a name under a fanout folder" "$tmp/case" repo notes list
				fi
			done
		fi
	fi
	if checked notes-flat; then
		f=$tmp/notes-flat-$fmt
		{ history "$f" $fmt && (cd "$f/repo" && git_ notes add -m one HEAD~1 && git_ notes add -m two HEAD); } \
			>"$tmp/git.log" 2>&1
		name=$(git -C "$f/repo" ls-tree --name-only refs/notes/commits 2>/dev/null | awk '/[a-f]/ { print; exit }')
		[ -n "$name" ] && st=ok || st=
		if made "$fmt notes without fanout" "$st"; then
			clean notes-flat $fmt "$f" notes list
			copy "$f" "$tmp/case"
			(cd "$tmp/case/repo" &&
				t=$(git ls-tree refs/notes/commits | awk -v d="$name" -v u="$(up "$name")" -F '\t' '$2 == d { $0 = $1 "\t" u } { print }' | git mktree) &&
				c=$(echo renamed | git_ commit-tree "$t" -p refs/notes/commits) && git update-ref refs/notes/commits "$c")
			expect "$fmt notes: a whole-ID name" "$tmp/case/repo" "notes refs/notes/commits:$(up "$name") null null warn"
			judged warn "$fmt notes: a whole-ID name" "$tmp/case" repo notes list
		fi
	fi

	# --- rerere: MERGE_RR's "<conflict id>\t<path>\0" records (rerere.c read_rr), and
	# the rr-cache/<id> folders `git rerere gc` walks (is_rr_cache_dirname).
	if checked rerere; then
		f=$tmp/rerere-$fmt
		{ conflict "$f" $fmt && (cd "$f/repo" && git config rerere.enabled true && { git_ merge side || :; }); } \
			>"$tmp/git.log" 2>&1
		has "$f/repo/.git/MERGE_RR" && st=ok || st=
		if made "$fmt rerere" "$st"; then
			clean rerere $fmt "$f" rerere status
			id=$(head -c $hx "$f/repo/.git/MERGE_RR")
			c_key=
			clean_run "$f" repo rerere status
			for mode in up bad; do
				copy "$f" "$tmp/case"
				if [ $mode = up ]; then to=$(up "$id") cls=git3 col=$(echo "$id" | awk '{ print match($0, /[a-f]/) }')
				else to=z$(echo "$id" | cut -c2-) cls=error col=1; fi
				printf '%s\tf\000' "$to" >"$tmp/case/repo/.git/MERGE_RR"
				expect "$fmt rerere: MERGE_RR, $mode" "$tmp/case/repo" "rerere MERGE_RR 1 $col $cls"
				judged $cls "$fmt rerere: MERGE_RR, $mode" "$tmp/case" repo rerere status
			done
			if checked rerere-cache; then
				copy "$f" "$tmp/case"
				mv "$tmp/case/repo/.git/rr-cache/$id" "$tmp/case/repo/.git/rr-cache/$(up "$id")"
				expect "$fmt rerere: an rr-cache folder's name" "$tmp/case/repo" \
					"rerere rr-cache/$(up "$id") null null git3"
			fi
		fi
	fi

	# --- Files config names: fsck.skipList, blame.ignoreRevsFile (oidset.c
	# oidset_parse_file_carefully: "#" comments, blanks around the ID).
	if checked config-files; then
		f=$tmp/config-$fmt
		{ history "$f" $fmt && (cd "$f/repo" && git rev-parse HEAD~2 >.git/skiplist &&
			git rev-parse HEAD~3 >.git/ignore-revs && git config fsck.skipList .git/skiplist &&
			git config blame.ignoreRevsFile .git/ignore-revs); } >"$tmp/git.log" 2>&1 && st=ok || st=
		if made "$fmt config files" "$st"; then
			clean config-files $fmt "$f" fsck
			# (shown as the configuration names them)
			shown=.git/skiplist
			case_ config-files $fmt "$f" skiplist 1 1 $hx config-files git3 error fsck
			shown=.git/ignore-revs
			case_ config-files $fmt "$f" ignore-revs 1 1 $hx config-files git3 error blame --porcelain f
			shown=
		fi
		# The same key in a file the config includes (include.path, relative to the
		# including file's folder), itself including the one that names the list.
		f=$tmp/config-include-$fmt
		{ history "$f" $fmt && (cd "$f/repo" && git rev-parse HEAD~4 >.git/skiplist2 &&
			git config include.path inc/one.cfg && mkdir .git/inc &&
			git config -f .git/inc/one.cfg include.path two.cfg &&
			git config -f .git/inc/two.cfg fsck.skipList .git/skiplist2); } >"$tmp/git.log" 2>&1 && st=ok || st=
		if made "$fmt config files through include.path" "$st"; then
			clean config-files-include $fmt "$f" fsck
			shown=.git/skiplist2
			case_ config-files-include $fmt "$f" skiplist2 1 1 $hx config-files git3 error fsck
			shown=
		fi
	fi

	# --- What `git update-server-info` writes for dumb-HTTP clients: info/refs
	# ("<id>\t<ref>": remote-curl.c parse_info_refs) and objects/info/packs ("P
	# pack-<id>.pack": http.c http_get_info_packs). The Git 3.0 build has no HTTP
	# helper: no oracle.
	if checked dumb-http; then
		f=$tmp/dumb-$fmt
		{ history "$f" $fmt && (cd "$f/repo" && git_ repack -adq && git_ update-server-info); } \
			>"$tmp/git.log" 2>&1
		has "$f/repo/.git/info/refs" "$f/repo/.git/objects/info/packs" && st=ok || st=
		if made "$fmt update-server-info" "$st"; then
			clean dumb-http $fmt "$f"
			case_ dumb-http $fmt "$f" info/refs 1 1 $hx dumb-http git3 error
			case_ dumb-http $fmt "$f" objects/info/packs 1 8 $hx dumb-http git3 error
		fi
	fi

	# --- Pack names: packfile.c add_packed_git takes the ID from the name, and when
	# that fails only forgets it: the Git 3.0 build still opens an uppercase one (warn).
	if checked pack-names; then
		f=$tmp/packs-$fmt
		{ history "$f" $fmt && (cd "$f/repo" && git_ repack -adq); } >"$tmp/git.log" 2>&1 && st=ok || st=
		if made "$fmt repack" "$st"; then
			clean pack-names $fmt "$f" rev-list --count --all
			copy "$f" "$tmp/case"
			p=$(cd "$tmp/case/repo/.git/objects/pack" && ls pack-*.pack | sed 's/^pack-//; s/\.pack$//')
			for e in pack idx rev; do
				[ -f "$tmp/case/repo/.git/objects/pack/pack-$p.$e" ] &&
					mv "$tmp/case/repo/.git/objects/pack/pack-$p.$e" "$tmp/case/repo/.git/objects/pack/pack-$(up "$p").$e"
			done
			expect "$fmt pack-names: an uppercase pack name" "$tmp/case/repo" \
				"pack-objects objects/pack/pack-$(up "$p").pack null null warn"
			judged warn "$fmt pack-names: an uppercase pack name" "$tmp/case" repo rev-list --count --all
		fi
	fi

	# --- A partial clone: its pack's .promisor file lists "<id> <ref>", which git
	# writes and never reads back as IDs (pack-write.c, repack-promisor.c): none.
	if checked promisor; then
		f=$tmp/promisor-$fmt
		{ history "$f" $fmt && mv "$f/repo" "$f/src" && git -C "$f/src" config uploadpack.allowFilter true &&
			git_ clone -q --no-local --no-checkout --filter=blob:none "file://$f/src" "$f/repo"; } >"$tmp/git.log" 2>&1
		pr=$(cd "$f/repo/.git" 2>/dev/null && ls objects/pack/*.promisor 2>/dev/null | head -n 1)
		[ -n "$pr" ] && [ -s "$f/repo/.git/$pr" ] && st=ok || st=
		if made "$fmt partial clone" "$st"; then
			clean promisor $fmt "$f" rev-list --count HEAD
			case_ promisor $fmt "$f" "$pr" 1 1 $hx promisor none none rev-list --count HEAD
		fi
	fi

	# --- A linked worktree (git worktree add) with a rebase stopped in it: its own
	# HEAD (detached), ORIG_HEAD, REBASE_HEAD and rebase-merge/, under worktrees/wt/.
	if checked worktree; then
		f=$tmp/worktree-$fmt
		{ conflict "$f" $fmt && (cd "$f/repo" && git_ branch topic side && git_ worktree add -q ../wt topic) &&
			(cd "$f/wt" && { git_ rebase main || :; } && echo fixed >f && git_ add f); } >"$tmp/git.log" 2>&1
		g=$f/repo/.git/worktrees/wt
		has "$g/ORIG_HEAD" "$g/rebase-merge/onto" && st=ok || st=
		if made "$fmt worktree" "$st"; then
			where=wt
			clean worktree $fmt "$f" rebase --continue
			case_ worktree $fmt "$f" worktrees/wt/rebase-merge/onto 1 1 $hx rebase git3 error rebase --continue
			case_ worktree $fmt "$f" worktrees/wt/ORIG_HEAD 1 1 $hx pseudo-refs git3 error rev-parse --verify ORIG_HEAD
			case_ worktree $fmt "$f" worktrees/wt/HEAD 1 1 $hx refs git3 error rev-parse --verify HEAD
			where=repo
		fi
	fi

	# --- A submodule (git submodule add): its repository in modules/sub/, whole: a
	# reset's ORIG_HEAD, the clone's packed-refs.
	if checked submodule; then
		f=$tmp/submodule-$fmt
		{ history "$f" $fmt && mv "$f/repo" "$f/lib" && git_ init -q --template= --object-format=$fmt "$f/repo" &&
			(cd "$f/repo" && git_ -c protocol.file.allow=always submodule add -q ../lib sub &&
				git_ commit -q -m sub && cd sub && git_ reset -q --hard HEAD~1); } >"$tmp/git.log" 2>&1
		g=$f/repo/.git/modules/sub
		has "$g/ORIG_HEAD" "$g/packed-refs" && st=ok || st=
		if made "$fmt submodule" "$st"; then
			where=repo/sub
			clean submodule $fmt "$f" rev-parse --verify ORIG_HEAD
			case_ submodule $fmt "$f" modules/sub/ORIG_HEAD 1 1 $hx pseudo-refs git3 error rev-parse --verify ORIG_HEAD
			l=$(grep -n ' refs/remotes/origin/main$' "$g/packed-refs" | cut -d: -f1)
			case_ submodule $fmt "$f" modules/sub/packed-refs "$l" 1 $hx packed-refs git3 error rev-parse --verify origin/main
			where=repo
		fi
	fi

	# --- Alternates: a clone --shared reads its objects from the origin's, which the
	# audit checks too. A commit there whose tree header is uppercase: git3.
	if checked alternates; then
		f=$tmp/alternates-$fmt
		{ history "$f" $fmt && mv "$f/repo" "$f/src" && git_ clone -q --shared "$f/src" "$f/repo"; } >"$tmp/git.log" 2>&1
		has "$f/repo/.git/objects/info/alternates" && st=ok || st=
		if made "$fmt clone --shared" "$st"; then
			clean alternates $fmt "$f" rev-list --count HEAD
			copy "$f" "$tmp/case"
			t=$(git -C "$f/src" rev-parse HEAD^{tree})
			(cd "$tmp/case/src" &&
				printf 'tree %s\nauthor %s\ncommitter %s\n\nuppercase tree\n' "$(up "$t")" \
					"a <a@example.com> 1700000000 +0000" "a <a@example.com> 1700000000 +0000" |
					git hash-object -w -t commit --stdin >"$tmp/alt.oid")
			o=$(cat "$tmp/alt.oid")
			expect "$fmt alternates: an uppercase tree header in the origin's objects" "$tmp/case/repo" \
				"alternates $tmp/case/src/.git/objects/$(echo "$o" | cut -c1-2)/$(echo "$o" | cut -c3-) 1 $((5 + $(echo "$t" | awk '{ print match($0, /[a-f]/) }'))) git3"
			# git 2.39 reads the commit through the alternate; the Git 3.0 build cannot
			# parse it. (The baseline is git 2.39 on this state: the commit is new.)
			if [ -n "$g3" ]; then
				clean_run "$tmp/case" repo log -1 --format=%T "$o"
				judged git3 "$fmt alternates: an uppercase tree header in the origin's objects" "$tmp/case" repo \
					log -1 --format=%T "$o"
			fi
		fi
	fi
done

# --- Forms git 2.39 and the Git 3.0 build both take, which are not findings: a symbolic
# ref without a space after "ref:", a ref ending in CRLF, a ref with more after a space,
# a pseudo-ref without its final newline, grafts with a comment, a blank line, a TAB
# between the IDs and CRLF.
for fmt in sha1 sha256; do
	f=$tmp/odd-$fmt
	history "$f" $fmt >"$tmp/git.log" 2>&1 && (cd "$f/repo/.git" &&
		h=$(git rev-parse HEAD) && p=$(git rev-parse HEAD~6) && printf 'ref:refs/heads/main\n' >HEAD &&
		printf '%s\r\n' "$h" >refs/heads/main && printf '%s a note\n' "$p" >refs/heads/side &&
		printf '%s' "$p" >ORIG_HEAD && mkdir -p info &&
		printf '# grafted by hand\n\n%s\t%s\r\n' "$(git rev-parse HEAD~3)" "$p" >info/grafts) && st=ok || st=
	if made "$fmt odd forms" "$st"; then
		expect "$fmt: forms git takes" "$f/repo"
		both "$fmt: forms git takes" "$f" repo rev-parse HEAD main side ORIG_HEAD
		both "$fmt: forms git takes, grafts" "$f" repo rev-list --count HEAD
		# (eight commits; HEAD~3 grafted onto HEAD~6 leaves six)
		if [ -n "$g3" ] && [ "$(cat "$tmp/o.3")" != 6 ]; then
			fail "$fmt: the graft was not applied: $(cat "$tmp/o.3") commits"
		fi
	fi
done

# --- States the Git 3.0 build makes itself, in files and reftable repositories, SHA-1
# and SHA-256: a merge stopped on a conflict in the main worktree, a rebase stopped in a
# linked worktree, a cherry-pick of two commits stopped in another, a bisect in a third.
# No finding.
if [ -z "$g3" ]; then
	skip "the Git 3.0 build's own states" "$g3_why"
else
	for fmt in sha1 sha256; do
		for refs in files reftable; do
			f=$tmp/g3-$refs-$fmt
			{ git3_ init -q --object-format=$fmt --ref-format=$refs "$f/repo" && (cd "$f/repo" &&
				echo base >f && git3_ add f && git3_ commit -q -m base && git3_ checkout -q -b side &&
				echo side >f && git3_ commit -q -am side && echo g >g && git3_ add g && git3_ commit -q -m side2 &&
				git3_ checkout -q main && echo main >f && git3_ commit -q -am main &&
				git3_ branch topic side && git3_ worktree add -q ../wt-rebase topic &&
				git3_ worktree add -q -b picked ../wt-pick main && git3_ worktree add -q --detach ../wt-bisect main &&
				{ git3_ merge side || :; } && (cd ../wt-rebase && { git3_ rebase main || :; }) &&
				(cd ../wt-pick && { git3_ cherry-pick side~2..side || :; }) &&
				(cd ../wt-bisect && git3_ bisect start main main~1)); } >"$tmp/git.log" 2>&1
			g=$f/repo/.git
			has "$g/MERGE_HEAD" "$g/worktrees/wt-rebase/rebase-merge/onto" "$g/worktrees/wt-pick/sequencer/todo" \
				"$g/worktrees/wt-bisect/BISECT_START" && st=ok || st=
			if made "$fmt $refs: Git 3.0 build states" "$st"; then
				expect "$fmt $refs: a merge, a rebase, a cherry-pick and a bisect by the Git 3.0 build" "$f/repo"
			fi
		done
	done
fi

# --- Reftable repositories made by the Git 3.0 build: the names of replace refs and the
# notes refs are in reftable/, among 2,000 other refs (many blocks, an index), over a
# stack of tables. An uppercase replace ref name is ignored by the Git 3.0 build ("bad
# replace ref name"); a notes tree's uppercase fanout folder hides its notes. A replace
# ref deleted in a newer table is gone. (Git 2.39 cannot read reftable: the Git 3.0
# build is the only oracle here.)
if [ -z "$g3" ]; then
	skip "replace refs and notes in reftable" "$g3_why"
else
	for fmt in sha1 sha256; do
		f=$tmp/rt-$fmt
		{ git3_ init -q --object-format=$fmt --ref-format=reftable "$f/repo" && (cd "$f/repo" &&
			awk 'BEGIN { for (i = 1; i <= 300; i++) {
					printf "commit refs/heads/main\nmark :%d\ncommitter c <c@example.com> 1700000000 +0000\ndata 6\nc%04d\n", i, i
					if (i > 1) printf "from :%d\n", i - 1
					print "" }
				print "commit refs/notes/commits\ncommitter c <c@example.com> 1700000000 +0000\ndata 0"
				for (i = 1; i < 300; i++) printf "N inline :%d\ndata 5\nnote\n", i }' |
				git3_ fast-import --quiet && git3_ checkout -q main && git3_ notes add -m last HEAD &&
			h=$(git3_ rev-parse HEAD) &&
			awk -v h="$h" 'BEGIN { for (i = 0; i < 1000; i++) printf "create refs/heads/b%04d %s\ncreate refs/tags/t%04d %s\n", i, h, i, h }' |
				git3_ update-ref --stdin && git3_ replace HEAD~2 HEAD~3); } >"$tmp/git.log" 2>&1 && st=ok || st=
		dir=$(git3_ -C "$f/repo" ls-tree refs/notes/commits 2>/dev/null | awk '$2 == "tree" && $4 ~ /[a-f]/ { print $4; exit }')
		[ -n "$dir" ] && [ -s "$f/repo/.git/reftable/tables.list" ] || st=
		if made "$fmt reftable with replace refs and notes" "$st"; then
			expect "$fmt reftable: replace refs and notes as the Git 3.0 build leaves them" "$f/repo"
			# the oracle's view of the clean state
			run 3 "$f" repo log --format=%s -1 HEAD~4
			cp "$tmp/o.3" "$tmp/clean.out"
			cp "$tmp/e.3" "$tmp/clean.err"
			victim=$(git3_ -C "$f/repo" rev-parse HEAD~4)
			copy "$f" "$tmp/case"
			git3_ -C "$tmp/case/repo" update-ref "refs/replace/$(up "$victim")" HEAD~5
			expect "$fmt reftable: an uppercase replace ref name" "$tmp/case/repo" \
				"replace refs/replace/$(up "$victim") null null git3"
			run 3 "$tmp/case" repo log --format=%s -1 HEAD~4
			if [ $rs = 0 ] && cmp -s "$tmp/o.3" "$tmp/clean.out" && grep -q 'bad replace ref name' "$tmp/e.3"; then
				pass "$fmt reftable: the Git 3.0 build ignores the uppercase replace ref"
			else
				fail "$fmt reftable: the Git 3.0 build did not ignore the uppercase replace ref (exit $rs)"
				sed 's/^/#   /' "$tmp/e.3" | head -3
			fi
			# deleted in a newer table of the stack: gone
			git3_ -C "$tmp/case/repo" update-ref -d "refs/replace/$(up "$victim")"
			t=$(wc -l <"$tmp/case/repo/.git/reftable/tables.list")
			if [ "$t" -gt 1 ]; then
				expect "$fmt reftable: the replace ref deleted in a newer table ($t tables)" "$tmp/case/repo"
			else
				fail "$fmt reftable: the deletion made no new table"
			fi
			# a notes tree whose fanout folder is uppercase, its commit in reftable
			copy "$f" "$tmp/case"
			leaf=$(git3_ -C "$tmp/case/repo" ls-tree --name-only "refs/notes/commits:$dir" | awk '/[a-f]/ { print; exit }')
			(cd "$tmp/case/repo" &&
				t=$(git3_ ls-tree refs/notes/commits | awk -v d="$dir" -v u="$(up "$dir")" -F '\t' '$2 == d { $0 = $1 "\t" u } { print }' | git3_ mktree) &&
				c=$(echo renamed | git3_ commit-tree "$t" -p refs/notes/commits) && git3_ update-ref refs/notes/commits "$c")
			expect "$fmt reftable: a notes fanout folder's name" "$tmp/case/repo" \
				"notes refs/notes/commits:$(up "$dir")/$leaf null null git3"
			n_clean=$(git3_ -C "$f/repo" notes list | wc -l)
			n_case=$(git3_ -C "$tmp/case/repo" notes list | wc -l)
			if [ "$n_case" -lt "$n_clean" ]; then
				pass "$fmt reftable: the Git 3.0 build loses the notes under it ($n_clean, then $n_case)"
			else
				fail "$fmt reftable: the Git 3.0 build still lists $n_case of $n_clean notes"
			fi
		fi
	done
fi
[ -n "$g3" ] || skip "the Git 3.0 build as the oracle" "$g3_why"
exit 0
