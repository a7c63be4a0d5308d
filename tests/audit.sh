#!/bin/sh
# hexoid audit: everything in a repository that Git 2.x accepts and Git 3.0 will reject,
# in SHA-1 and SHA-256 repositories made by the installed git. A clean repository (work
# tree, bare clone, a .git file naming the git directory, REPO defaulting to .) reports
# nothing; a planted one reports exactly its planted findings, in order, with exact
# paths, lines and columns, object IDs and headers, and git fsck --strict accepting it
# all; the same as JSON, with --jobs 2, --progress and --verify-ids. Findings sort by
# path as strings and, in a pack, by offset. Then invalid hex and wrong lengths (class
# error), the commit-graph and multi-pack-index chains, a corrupt pack, and unusable
# input (exit 2).
# Prints "ok N - ..." / "not ok N - ..." lines. Needs: HEXOID.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/planted.sh"
. "$(dirname "$0")/direct.sh"
# make_clean (planted.sh), made by git once for each format and copied after: its dates
# are fixed, so each copy is the repository git would make again. make_planted and
# make_broken start from one too.
eval "$(sed -n '/^make_clean() {/,/^}/{s/^make_clean()/make_clean_git()/;p;}' "$(dirname "$0")/planted.sh")"
make_clean() {
	if [ ! -d "$tmp/seed-clean-$2" ]; then
		make_clean_git "$tmp/seed-clean-$2" "$2" || { rm -rf "$tmp/seed-clean-$2"; return 1; }
	fi
	cp -Rp "$tmp/seed-clean-$2" "$1"
}
# planted.sh's up and obj_loose, by the shell alone (they ran tr, and cut twice).
up() {
	u_s=$1 u_o=
	while [ -n "$u_s" ]; do
		u_r=${u_s#?}
		u_c=${u_s%"$u_r"}
		case $u_c in a) u_c=A ;; b) u_c=B ;; c) u_c=C ;; d) u_c=D ;; e) u_c=E ;; f) u_c=F ;; esac
		u_o=$u_o$u_c u_s=$u_r
	done
	echo "$u_o"
}
obj_loose() { echo "objects/${1%"${1#??}"}/${1#??}"; }

# audit ARGS...: run it; stdout in $tmp/out, stderr in $tmp/err; returns its status.
audit() { $H audit "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; }

# The report's parts: finding lines are those between the first line and the empty line
# before "summary:"; summary rows end in "scanned git3 error", whatever the header says.
findings_of() { awk 'NR > 1 && $0 == "" { exit } NR > 1' "$1"; }
summary_of() {
	awk -v areas="$planted_areas total" '
		BEGIN { split(areas, a, " "); for (i in a) want[a[i]] = 1 }
		/^summary:/ { on = 1; next }
		on && ($1 in want) && NF >= 4 { print $1, $(NF - 2), $(NF - 1), $NF }' "$1"
}
# expected_summary EXPECT: "area git3 error" for each area key and the total.
expected_summary() {
	awk -F '\t' -v areas="$planted_areas" '
		{ a = substr($1, 2, index($1, "]") - 2); c[a, $2]++; t[$2]++ }
		END { n = split(areas, k, " ")
			for (i = 1; i <= n; i++) print k[i], c[k[i], "git3"] + 0, c[k[i], "error"] + 0
			print "total", t["git3"] + 0, t["error"] + 0 }' "$1"
}

# check_report NAME EXPECT REPO FORMAT: the text report in $tmp/out against EXPECT (an
# empty file for a clean repository): the first line, the findings, the summary table.
check_report() {
	c_name=$1 c_expect=$2
	if [ "$(head -n 1 "$tmp/out")" = "hexoid audit: $3 ($4)" ]; then
		pass "$c_name: first line names the repository and $4"
	else
		fail "$c_name: first line is '$(head -n 1 "$tmp/out")'"
	fi
	findings_of "$tmp/out" >"$tmp/found"
	if check_findings "$c_expect" "$tmp/found"; then
		pass "$c_name: exactly the $(wc -l <"$c_expect") expected findings, in order"
	else
		fail "$c_name: findings differ"
	fi
	summary_of "$tmp/out" >"$tmp/sum"
	# The counts must match; scanned must be a number at least as large as what it found.
	expected_summary "$c_expect" >"$tmp/sum.want"
	if awk '{ print $1, $3, $4 }' "$tmp/sum" | cmp -s - "$tmp/sum.want" &&
		awk '!($2 ~ /^[0-9]+$/ && $2 >= $3 + $4) { bad = 1 } END { exit bad }' "$tmp/sum"; then
		pass "$c_name: summary rows for every area and the total"
	else
		fail "$c_name: summary differs"
		awk '{ print $1, $3, $4 }' "$tmp/sum" | diff "$tmp/sum.want" - | sed 's/^/#   /' | head -12
	fi
}

# check_json NAME EXPECT REPO FORMAT: --json output in $tmp/json: it parses, every finding
# has every key, and rendered as text lines the findings are those EXPECT wants; the
# summary is the text report's ($tmp/sum).
cat >"$tmp/render.py" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
keys = ("area", "path", "line", "column", "object", "type", "header", "offset", "class", "message")
with open(sys.argv[2], "w") as out:
    for f in d["findings"]:
        missing = [k for k in keys if k not in f]
        if missing:
            sys.exit("finding without %s: %r" % (missing, f))
        if f["object"] is not None:
            s = "[%s] %s: %s %s: %s header, line %s, column %s" % (f["area"], f["path"], f["type"],
                f["object"], f["header"], f["line"], f["column"])
        elif f["offset"] is not None:
            s = "[%s] %s: offset %s" % (f["area"], f["path"], f["offset"])
        else:
            s = "[%s] %s:%s:%s" % (f["area"], f["path"], f["line"], f["column"])
        out.write("%s: %s: %s\n" % (s, f["class"], f["message"]))
with open(sys.argv[3], "w") as out:
    for area in sys.argv[4].split():
        s = d["summary"][area]
        out.write("%s %d %d %d\n" % (area, s["scanned"], s["git3"], s["error"]))
print(d["repository"], d["object_format"])
EOF
check_json() {
	j_name=$1
	if [ -z "$have_python" ]; then
		skip "$j_name: JSON" "no python3"
		return
	fi
	if ! python3 -m json.tool "$tmp/json" >/dev/null 2>"$tmp/err"; then
		fail "$j_name: --json output does not parse"
		sed 's/^/#   /' "$tmp/err" | head -3
		return
	fi
	pass "$j_name: --json output parses"
	if ! python3 "$tmp/render.py" "$tmp/json" "$tmp/jfound" "$tmp/jsum" "$planted_areas" >"$tmp/jhead" 2>"$tmp/err"; then
		fail "$j_name: --json lacks fields"
		sed 's/^/#   /' "$tmp/err" | tail -3
		return
	fi
	if [ "$(cat "$tmp/jhead")" = "$3 $4" ]; then
		pass "$j_name: --json repository and object_format"
	else
		fail "$j_name: --json repository and object_format are '$(cat "$tmp/jhead")'"
	fi
	if check_findings "$2" "$tmp/jfound"; then
		pass "$j_name: --json has the same $(wc -l <"$2") findings"
	else
		fail "$j_name: --json findings differ"
	fi
	if grep -v '^total ' "$tmp/sum" | cmp -s - "$tmp/jsum"; then
		pass "$j_name: --json summary is the text summary"
	else
		fail "$j_name: --json summary differs from the text one"
		grep -v '^total ' "$tmp/sum" | diff - "$tmp/jsum" | sed 's/^/#   /' | head -6
	fi
}
have_python=
command -v python3 >/dev/null 2>&1 && have_python=1

# same_out NAME FILE: stdout of the last run is FILE's bytes.
same_out() {
	# (an empty reference proves nothing: the run it came from failed, and said so)
	if [ -s "$2" ] && cmp -s "$2" "$tmp/out"; then pass "$1"; else
		fail "$1: stdout differs"
		diff "$2" "$tmp/out" | head -6 | sed 's/^/#   /'
	fi
}

: >"$tmp/none"
for fmt in sha1 sha256; do
	# --- A clean repository, its bare clone, a .git file, the default REPO.
	r=$tmp/clean-$fmt
	if ! make_clean "$r" $fmt >"$tmp/git.log" 2>&1; then
		fail "$fmt: git cannot make a repository"
		sed 's/^/#   /' "$tmp/git.log" | head -5
		continue
	fi
	audit "$r"
	judge "$fmt: clean work tree: exit 0" 0 "" $?
	check_report "$fmt: clean work tree" "$tmp/none" "$r" $fmt
	audit --json "$r"
	cp "$tmp/out" "$tmp/json"
	check_json "$fmt: clean work tree" "$tmp/none" "$r" $fmt

	git clone -q --bare "$r" "$tmp/bare-$fmt.git" 2>"$tmp/git.log"
	audit "$tmp/bare-$fmt.git"
	judge "$fmt: bare clone: exit 0" 0 "" $?
	check_report "$fmt: bare clone" "$tmp/none" "$tmp/bare-$fmt.git" $fmt

	# The work tree's .git is a file: "gitdir: <path>".
	git_ init -q --object-format=$fmt --separate-git-dir="$tmp/sep-$fmt.git" "$tmp/wt-$fmt" >"$tmp/git.log" 2>&1 &&
		(cd "$tmp/wt-$fmt" && echo x >x && git_ add x && git_ commit -q -m x) >>"$tmp/git.log" 2>&1
	if [ -f "$tmp/wt-$fmt/.git" ]; then
		audit "$tmp/wt-$fmt"
		judge "$fmt: work tree with a gitdir: file: exit 0" 0 "" $?
		check_report "$fmt: gitdir: file" "$tmp/none" "$tmp/wt-$fmt" $fmt
	else
		fail "$fmt: git init --separate-git-dir made no .git file"
	fi

	case $H in
	/* | *' '/*) # an absolute command path: it still runs from inside the repository
		(cd "$r" && $H audit >"$tmp/out" 2>"$tmp/err" </dev/null)
		judge "$fmt: REPO defaults to .: exit 0" 0 "" $?
		[ "$(head -n 1 "$tmp/out")" = "hexoid audit: . ($fmt)" ] &&
			pass "$fmt: REPO defaults to ." || fail "$fmt: default REPO: '$(head -n 1 "$tmp/out")'"
		;;
	*) skip "$fmt: REPO defaults to ." "HEXOID is a relative path" ;;
	esac

	# Findings sort by path, as strings: refs/heads/sub-up before refs/heads/sub/up
	# ('-' is 0x2d, '/' 0x2f), though a directory walk meets sub/ first.
	o=$(git -C "$r" rev-list --all | grep -m 1 '^[a-f]')
	if [ -n "$o" ]; then
		c=$tmp/order-$fmt
		cp -R "$r" "$c"
		mkdir -p "$c/.git/refs/heads/sub"
		up "$o" >"$c/.git/refs/heads/sub/up"
		up "$o" >"$c/.git/refs/heads/sub-up"
		audit --no-progress "$c"
		judge "$fmt: two uppercase refs: exit 1" 1 "" $?
		printf '[refs] refs/heads/sub-up:1:1: \tgit3\tuppercase\n[refs] refs/heads/sub/up:1:1: \tgit3\tuppercase\n' \
			>"$tmp/order.expect"
		findings_of "$tmp/out" >"$tmp/found"
		if check_findings "$tmp/order.expect" "$tmp/found"; then
			pass "$fmt: findings sorted by path as strings"
		else
			fail "$fmt: findings not sorted by path as strings"
		fi
	else
		skip "$fmt: findings sorted by path" "no commit ID begins with a letter"
	fi

	# --- Planted: uppercase IDs in objects (loose and packed, one a delta) and files.
	p=$tmp/planted-$fmt
	if ! make_planted "$p" $fmt >"$tmp/git.log" 2>&1; then
		fail "$fmt: cannot plant the repository"
		sed 's/^/#   /' "$tmp/git.log" | tail -5
		continue
	fi
	if git -C "$p" fsck --strict >"$tmp/git.log" 2>&1; then
		pass "$fmt: git fsck --strict accepts the planted repository (Git 2.x takes all of it)"
	else
		fail "$fmt: git fsck --strict rejects the planted repository"
		sed 's/^/#   /' "$tmp/git.log" | head -5
	fi
	# verify-pack -v prints a depth and a base after the offset for a delta.
	deltas=$(awk 'NR == FNR { o[$2] = 1; next } ($1 in o) && NF >= 7' "$p.objects" "$p.verify" | wc -l)
	if [ "$deltas" -ge 1 ]; then
		pass "$fmt: $deltas of the planted objects are deltas in the pack"
	else
		fail "$fmt: no planted object is a delta"
	fi
	audit --no-progress "$p"
	judge "$fmt: planted: exit 1" 1 "" $?
	check_report "$fmt: planted" "$p.expect" "$p" $fmt
	cp "$tmp/out" "$tmp/planted.out"
	# Planted IDs in commits and tags that are delta bases and deltas, and in ones stored
	# whole, read only to their headers' end: the report of the whole read, byte for byte.
	HEXOID_TEST_WHOLE_OBJECTS=1 audit --no-progress "$p"
	judge "$fmt: planted, every object read whole: exit 1" 1 "" $?
	same_out "$fmt: reading only the headers prints the report of the whole read" "$tmp/planted.out"
	audit --json --no-progress "$p"
	judge "$fmt: planted, --json: exit 1" 1 "" $?
	cp "$tmp/out" "$tmp/json"
	# (the text report's summary is still in $tmp/sum)
	check_json "$fmt: planted" "$p.expect" "$p" $fmt
	if threads_work "$r"; then
		jobs=2
		audit --no-progress --jobs 2 "$p"
		judge "$fmt: planted, --jobs 2: exit 1" 1 "" $?
		same_out "$fmt: --jobs 2 prints the same report" "$tmp/planted.out"
	else
		jobs=1
		skip "$fmt: planted, --jobs 2" "threads hang under this emulator"
	fi
	audit --progress "$p"
	judge "$fmt: planted, --progress: exit 1" 1 "" $?
	same_out "$fmt: --progress leaves stdout alone" "$tmp/planted.out"
	# Every planted object hashes to its ID: rehashing finds nothing more.
	audit --no-progress --verify-ids --jobs $jobs "$p"
	judge "$fmt: planted, --verify-ids: exit 1" 1 "" $?
	same_out "$fmt: --verify-ids finds nothing more" "$tmp/planted.out"

	# The pack's trailer flipped: its checksum findings sort after the headers' by offset.
	c=$tmp/trailer-$fmt
	cp -R "$p" "$c"
	pack=$(cd "$c/.git" && ls objects/pack/pack-*.pack)
	chmod u+w "$c/.git/$pack"
	flip "$c/.git/$pack" $(($(wc -c <"$c/.git/$pack") - 1))
	audit --no-progress "$c"
	judge "$fmt: planted, pack trailer flipped: exit 1" 1 "" $?
	grep '^\[pack-objects\] ' "$tmp/out" >"$tmp/packlines"
	if ! grep -q 'offset [0-9]*: error: .*checksum' "$tmp/packlines"; then
		fail "$fmt: pack trailer flipped: no checksum finding"
	elif order=$(in_offset_order "$tmp/packlines" "$p.verify"); then
		pass "$fmt: pack trailer flipped: pack findings in offset order"
	else
		fail "$fmt: pack trailer flipped: pack findings out of offset order: $order"
	fi

	# --- Invalid hex, wrong lengths, the chain files.
	b=$tmp/broken-$fmt
	if ! make_broken "$b" $fmt >"$tmp/git.log" 2>&1; then
		fail "$fmt: cannot break the repository"
		sed 's/^/#   /' "$tmp/git.log" | tail -5
		continue
	fi
	audit --no-progress "$b"
	judge "$fmt: invalid hex and chains: exit 1" 1 "" $?
	check_report "$fmt: invalid hex and chains" "$b.expect" "$b" $fmt

	# --- A corrupt pack: one byte of a commit's zlib stream, in a copy of the clean one.
	c=$tmp/corrupt-$fmt
	cp -R "$r" "$c"
	pack=$(cd "$c/.git" && ls objects/pack/pack-*.pack)
	git -C "$c" verify-pack -v "$c/.git/${pack%.pack}.idx" >"$tmp/v"
	# A commit stored whole, as "oid commit size size-in-pack offset".
	set -- $(awk '$2 == "commit" && NF == 5 { print $5, $4; exit }' "$tmp/v") 0 0
	chmod u+w "$c/.git/$pack"
	flip "$c/.git/$pack" $(($1 + $2 / 2))
	audit --no-progress "$c"
	judge "$fmt: corrupt pack: exit 1" 1 "" $?
	if grep -q "^\[pack-objects\] $pack: offset $1: error: " "$tmp/out"; then
		pass "$fmt: corrupt pack: an error at the commit's offset $1"
	else
		fail "$fmt: corrupt pack: no '[pack-objects] $pack: offset $1: error:' line"
		sed 's/^/#   /' "$tmp/out" | head -5
	fi
done

# unusable NAME ARGS...
unusable() {
	u_name=$1
	shift
	audit "$@"
	u=$?
	if [ $u = 2 ] && [ -s "$tmp/err" ]; then pass "$u_name: exit 2 and a message"; else
		judge "$u_name" 2 "" $u
		[ $u = 2 ] && echo "#   nothing on stderr"
	fi
}
# --- Layouts git finds a repository in, and files git takes that are not findings.
srcdir=$(cd "$(dirname "$0")/.." && pwd)
g3=$srcdir/../shared/tools/git3/git
[ -x "$g3" ] || g3=
git3_direct
git3_() { "$g3" -c user.name=hexoid -c user.email=hexoid@example.com -c init.defaultBranch=main "$@"; }
# first_letter WORD: the column of WORD's first letter digit (0 if none).
first_letter() { echo "$1" | awk '{ print match($0, /[a-f]/) }'; }
# expect_findings NAME EXPECT: the findings of the last text report are EXPECT's.
expect_findings() {
	findings_of "$tmp/out" >"$tmp/found"
	if check_findings "$2" "$tmp/found"; then pass "$1"; else
		fail "$1: findings differ"
		sed 's/^/#   /' "$tmp/out" | head -8
	fi
}
# resolves NAME GIT REPO REV: GIT (git or the Git 3.0 build) resolves REV in REPO.
resolves() {
	if "$2" -C "$3" rev-parse -q --verify "$4^{commit}" >/dev/null 2>&1; then pass "$1"; else
		fail "$1: $2 rev-parse $4 fails"
	fi
}
rejects() {
	if "$2" -C "$3" rev-parse -q --verify "$4^{commit}" >/dev/null 2>&1; then
		fail "$1: $2 rev-parse $4 succeeds"
	else pass "$1"; fi
}
for fmt in sha1 sha256; do
	r=$tmp/clean-$fmt
	[ -d "$r/.git" ] || continue
	head=$(git -C "$r" rev-parse HEAD)
	if [ $fmt = sha1 ]; then p_hexsz=40; else p_hexsz=64; fi
	# From a folder deep in the work tree, as git searches: upward.
	mkdir -p "$r/deep/er"
	case $H in
	/* | *' '/*)
		(cd "$r/deep/er" && $H audit --no-progress >"$tmp/out" 2>"$tmp/err" </dev/null)
		judge "$fmt: run from a subfolder of the work tree: exit 0" 0 "" $?
		;;
	*) skip "$fmt: run from a subfolder" "HEXOID is a relative path" ;;
	esac
	audit --no-progress "$r/deep/er"
	judge "$fmt: REPO a subfolder of the work tree: exit 0" 0 "" $?
	check_report "$fmt: subfolder" "$tmp/none" "$r/deep/er" $fmt
	rm -rf "$r/deep"
	# No REPO, GIT_DIR set: that repository, wherever the command runs.
	case $H in
	/* | *' '/*)
		mkdir -p "$tmp/elsewhere"
		(cd "$tmp/elsewhere" && GIT_DIR=$r/.git $H audit --no-progress >"$tmp/out" 2>"$tmp/err" </dev/null)
		judge "$fmt: GIT_DIR names the repository: exit 0" 0 "" $?
		check_report "$fmt: GIT_DIR" "$tmp/none" "$r/.git" $fmt
		;;
	*) skip "$fmt: GIT_DIR" "HEXOID is a relative path" ;;
	esac

	# Refs git 2.x and the Git 3.0 build both take: a symbolic ref without the space, a
	# ref ending in CRLF, an ID followed by a space and more, no final newline.
	o=$tmp/odd-$fmt
	cp -R "$r" "$o"
	printf 'ref:refs/heads/main\n' >"$o/.git/refs/heads/nospace"
	printf 'ref:\trefs/heads/main' >"$o/.git/refs/heads/tab"
	printf '%s\r\n' "$head" >"$o/.git/refs/heads/crlf"
	printf '%s junk\n' "$head" >"$o/.git/refs/heads/spacejunk"
	printf '%s' "$head" >"$o/.git/refs/heads/nolf"
	printf 'ref:refs/heads/main\r\n' >"$o/.git/HEAD"
	for ref in nospace tab crlf spacejunk nolf HEAD; do
		resolves "$fmt: git 2.x takes the odd ref $ref" git "$o" "$ref"
		[ -n "$g3" ] && resolves "$fmt: the Git 3.0 build takes the odd ref $ref" "$g3" "$o" "$ref"
	done
	audit --no-progress "$o"
	judge "$fmt: refs git takes as they are: exit 0" 0 "" $?
	check_report "$fmt: odd refs git takes" "$tmp/none" "$o" $fmt
	# ... and one it does not: junk right after the ID.
	printf '%sjunk\n' "$head" >"$o/.git/refs/heads/junk"
	rejects "$fmt: git 2.x rejects junk after the ID" git "$o" refs/heads/junk
	audit --no-progress "$o"
	judge "$fmt: junk after a ref's ID: exit 1" 1 "" $?
	printf '[refs] refs/heads/junk:1:*\terror\t\n' >"$tmp/x.expect"
	expect_findings "$fmt: junk after a ref's ID is an error" "$tmp/x.expect"

	# A linked worktree: its own HEAD, logs and refs, under worktrees/<name>/, from the
	# worktree itself or from the main one, audited once.
	w=$tmp/wtmain-$fmt
	cp -R "$r" "$w"
	git_ -C "$w" worktree add -q --detach "$tmp/wt-$fmt-link" HEAD >"$tmp/git.log" 2>&1
	git_ -C "$tmp/wt-$fmt-link" bisect start >>"$tmp/git.log" 2>&1
	git_ -C "$tmp/wt-$fmt-link" bisect bad HEAD >>"$tmp/git.log" 2>&1
	wd=$w/.git/worktrees/wt-$fmt-link
	if [ -f "$wd/HEAD" ] && [ -f "$wd/refs/bisect/bad" ] && [ -f "$wd/logs/HEAD" ]; then
		audit --no-progress "$tmp/wt-$fmt-link"
		judge "$fmt: linked worktree: exit 0" 0 "" $?
		check_report "$fmt: linked worktree" "$tmp/none" "$tmp/wt-$fmt-link" $fmt
		# head begins with a letter or not: the planted ID's first letter is its column.
		U=$(up "$head")
		col=$(echo "$head" | awk '{ print match($0, /[a-f]/) }')
		echo "$U" >"$wd/HEAD"
		echo "$U" >"$wd/refs/bisect/bad"
		replace_line "$wd/logs/HEAD" 1 'substr($0, 1, h + 1) toupper(substr($0, h + 2, h)) substr($0, 2 * h + 2)'
		if [ -n "$g3" ]; then
			rejects "$fmt: the Git 3.0 build rejects the worktree's uppercase ref" "$g3" "$tmp/wt-$fmt-link" refs/bisect/bad
		else
			skip "$fmt: the Git 3.0 build rejects the worktree's uppercase ref" "no Git 3.0 build"
		fi
		resolves "$fmt: git 2.x takes the worktree's uppercase ref" git "$tmp/wt-$fmt-link" refs/bisect/bad
		{
			printf '[refs] worktrees/wt-%s-link/HEAD:1:%s: \tgit3\tuppercase\n' $fmt "$col"
			printf '[refs] worktrees/wt-%s-link/refs/bisect/bad:1:%s: \tgit3\tuppercase\n' $fmt "$col"
			printf '[reflogs] worktrees/wt-%s-link/logs/HEAD:1:%s: \tgit3\tuppercase\n' $fmt $((p_hexsz + 1 + col))
		} >"$tmp/x.expect"
		for at in "$tmp/wt-$fmt-link" "$w" "$wd"; do
			audit --no-progress "$at"
			judge "$fmt: linked worktree planted, from ${at#$tmp/}: exit 1" 1 "" $?
			expect_findings "$fmt: the worktree's own files, named worktrees/<name>/..., from ${at#$tmp/}" "$tmp/x.expect"
		done
		# The work tree gone: git still reads worktrees/<name>/ (git worktree prune
		# would remove it); its .git file leads nowhere for whoever starts there.
		rm -rf "$tmp/wt-$fmt-link"
		audit --no-progress "$w"
		judge "$fmt: a worktree whose work tree is gone: still read" 1 "" $?
		expect_findings "$fmt: a gone worktree's files are still findings" "$tmp/x.expect"
		mkdir "$tmp/wt-$fmt-link" && echo "gitdir: $tmp/nowhere" >"$tmp/wt-$fmt-link/.git"
		unusable "$fmt: a .git file naming a gitdir that is gone" "$tmp/wt-$fmt-link"
	else
		fail "$fmt: git worktree add and bisect made no worktree files"
		sed 's/^/#   /' "$tmp/git.log" | head -5
	fi
done

# Submodules: each repository under modules/ (a name may hold slashes) is audited with
# the one holding it, its findings named modules/<name>/...; from the submodule's work
# tree, its own repository is the one audited.
for fmt in sha1 sha256; do
	sm=$tmp/sm-$fmt
	mkdir -p "$sm"
	if ! { git_ init -q --object-format=$fmt "$sm/lib" && (cd "$sm/lib" && echo l >l && git_ add l &&
		git_ commit -q -m l) && git_ init -q --object-format=$fmt "$sm/top" &&
		(cd "$sm/top" && echo t >t && git_ add t && git_ commit -q -m t &&
			git_ -c protocol.file.allow=always submodule add -q ../lib libs/lib &&
			git_ commit -q -m sub); } >"$tmp/git.log" 2>&1; then
		fail "$fmt: git submodule add failed"
		sed 's/^/#   /' "$tmp/git.log" | tail -3
		continue
	fi
	audit --no-progress "$sm/top"
	judge "$fmt: a repository with a submodule: exit 0" 0 "" $?
	check_report "$fmt: with a submodule" "$tmp/none" "$sm/top" $fmt
	mg=$sm/top/.git/modules/libs/lib
	lh=$(git -C "$mg" rev-parse HEAD)
	col=$(echo "$lh" | awk '{ print match($0, /[a-f]/) }')
	up "$lh" >"$mg/refs/heads/main"
	up "$lh" >"$mg/ORIG_HEAD"
	printf '[refs] modules/libs/lib/refs/heads/main:1:%s: \tgit3\tuppercase\n[pseudo-refs] modules/libs/lib/ORIG_HEAD:1:%s: \tgit3\tuppercase\n' \
		"$col" "$col" >"$tmp/x.expect"
	audit --no-progress --jobs 2 "$sm/top"
	judge "$fmt: uppercase refs in a submodule's repository: exit 1" 1 "" $?
	expect_findings "$fmt: a submodule's findings are named modules/<name>/..." "$tmp/x.expect"
	printf '[refs] refs/heads/main:1:%s: \tgit3\tuppercase\n[pseudo-refs] ORIG_HEAD:1:%s: \tgit3\tuppercase\n' \
		"$col" "$col" >"$tmp/x.expect"
	audit --no-progress "$sm/top/libs/lib"
	judge "$fmt: from the submodule's work tree: exit 1" 1 "" $?
	expect_findings "$fmt: from the submodule's work tree, its own repository" "$tmp/x.expect"
done

# Notes with fanout: fast-import writes 300 notes in folders of two digits. A note under
# a fanout folder named in uppercase Git 3.0 no longer finds (git3); one whose own name is
# uppercase it still finds (warn).
for fmt in sha1 sha256; do
	nr=$tmp/notes-$fmt
	if ! { git_ init -q --object-format=$fmt "$nr" && (cd "$nr" && {
		i=1; while [ $i -le 300 ]; do
			printf 'commit refs/heads/main\nmark :%d\ncommitter a <a@b> 0 +0000\ndata %d\n%d\n' $i ${#i} $i
			i=$((i + 1)); done
		printf 'commit refs/notes/commits\ncommitter a <a@b> 0 +0000\ndata 0\n'
		i=1; while [ $i -le 300 ]; do printf 'N inline :%d\ndata %d\n%d\n' $i ${#i} $i; i=$((i + 1)); done
		} | git_ fast-import --quiet && git_ repack -adq); } >"$tmp/git.log" 2>&1; then
		fail "$fmt: git fast-import cannot write notes"
		sed 's/^/#   /' "$tmp/git.log" | tail -3
		continue
	fi
	t=$(git -C "$nr" rev-parse 'refs/notes/commits^{tree}')
	if [ "$(git -C "$nr" ls-tree "$t" | awk '$2 == "tree"' | wc -l)" -gt 1 ]; then
		pass "$fmt: git wrote the notes in fanout folders"
	else
		fail "$fmt: no fanout in the notes tree"
	fi
	audit --no-progress "$nr"
	judge "$fmt: 300 notes with fanout: exit 0" 0 "" $?
	check_report "$fmt: notes with fanout" "$tmp/none" "$nr" $fmt
	# One folder renamed in uppercase, and in another folder one note's name.
	d=$(git -C "$nr" ls-tree "$t" | awk -F '\t' '$2 ~ /^[0-9][a-f]$/ { print $2; exit }')
	d2=$(git -C "$nr" ls-tree "$t" | awk -F '\t' -v d="$d" '$2 != d { print $2; exit }')
	nn=$(git -C "$nr" ls-tree "$t:$d2" | awk -F '\t' '$2 ~ /^[0-9]*[a-f]/ { print $2; exit }')
	sub=$(git -C "$nr" ls-tree "$t:$d2" | awk -F '\t' -v n="$nn" 'BEGIN { OFS = "\t" } $2 == n { $2 = toupper($2) } { print }' | git -C "$nr" mktree)
	nt=$(git -C "$nr" ls-tree "$t" | awk -F '\t' -v d="$d" -v d2="$d2" -v s="$sub" 'BEGIN { OFS = "\t" }
		$2 == d { $2 = toupper($2) } $2 == d2 { split($1, m, " "); $1 = m[1] " " m[2] " " s } { print }' | git -C "$nr" mktree)
	c=$(echo planted | git_ -C "$nr" commit-tree "$nt" -p refs/notes/commits) && git -C "$nr" update-ref refs/notes/commits "$c"
	du=$(echo "$d" | tr a-f A-F)
	: >"$tmp/x.expect"
	git -C "$nr" ls-tree "$t:$d" | awk -F '\t' -v du="$du" '{ printf "[notes] refs/notes/commits:%s/%s: \tgit3\tfanout\n", du, $2 }' >>"$tmp/x.expect"
	printf '[notes] refs/notes/commits:%s/%s: \twarn\tname\n' "$d2" "$(echo "$nn" | tr a-f A-F)" >"$tmp/w.expect"
	# In path order: the uppercase folder sorts before the other (digits first).
	if [ "$du" \< "$d2" ]; then cat "$tmp/w.expect" >>"$tmp/x.expect"; else
		cat "$tmp/x.expect" >>"$tmp/w.expect"; mv "$tmp/w.expect" "$tmp/x.expect"; fi
	audit --no-progress "$nr"
	judge "$fmt: notes planted: exit 1" 1 "" $?
	expect_findings "$fmt: an uppercase fanout folder is git3, an uppercase note name warn" "$tmp/x.expect"
	# A fork (clone --shared, as a forge's fork network) holds the same notes ref and
	# none of its objects: they are read through objects/info/alternates, as git reads
	# them, and found the same.
	rm -rf "$nr-fork"
	git clone -q --shared "$nr" "$nr-fork" && git -C "$nr-fork" fetch -q origin 'refs/notes/*:refs/notes/*'
	if [ -z "$(find "$nr-fork/.git/objects" -type f -path '*/pack/*')" ] &&
		git -C "$nr-fork" notes show "$d2$nn" >/dev/null 2>&1; then
		pass "$fmt: a fork's notes: git reads them through its alternates, none of its own"
	else
		fail "$fmt: a fork's notes: not as the test means them"
	fi
	audit --no-progress "$nr-fork"
	judge "$fmt: a fork's planted notes: exit 1" 1 "" $?
	expect_findings "$fmt: a fork's notes, read through its alternates, found as the origin's" "$tmp/x.expect"
	# A notes tree made by hand as a DAG: every folder level holds one tree under four
	# names, 4^19 (SHA-256: 4^31) paths to one note. Each folder is walked once; the
	# other names are repeated-tree warnings, at once.
	nd=$tmp/notes-dag-$fmt
	git_ init -q --object-format=$fmt "$nd" && (cd "$nd" && git_ commit -q --allow-empty -m x)
	hexsz=$(git -C "$nd" rev-parse HEAD | tr -d '\n' | wc -c)
	dblob=$(echo note | git -C "$nd" hash-object -w --stdin)
	dt=$(printf '100644 blob %s\tab\n' "$dblob" | git -C "$nd" mktree)
	lvl=$((hexsz / 2 - 1))
	while [ $lvl -gt 0 ]; do
		dt=$(printf '040000 tree %s\t00\n040000 tree %s\t01\n040000 tree %s\t02\n040000 tree %s\t03\n' "$dt" "$dt" "$dt" "$dt" | git -C "$nd" mktree)
		lvl=$((lvl - 1))
	done
	git -C "$nd" update-ref refs/notes/commits "$(echo dag | git_ -C "$nd" commit-tree "$dt")"
	timeout 20 $H audit --no-progress "$nd" >"$tmp/out" 2>"$tmp/err"
	judge "$fmt: a notes DAG of 4^$((hexsz / 2 - 1)) paths: exit 0 at once" 0 "" $?
	reps=$(grep -c 'repeated-tree\|the same tree as a notes folder walked before' "$tmp/out")
	[ "$reps" = $((3 * (hexsz / 2 - 1))) ] && pass "$fmt: a notes DAG: each folder walked once, $reps repeats named" ||
		fail "$fmt: a notes DAG: $reps repeats named, not $((3 * (hexsz / 2 - 1)))"
	a1=$d$(git -C "$nr" ls-tree "$t:$d" | awk -F '\t' '{ print $2; exit }')
	if git -C "$nr" notes show "$a1" >/dev/null 2>&1 && git -C "$nr" notes show "$d2$nn" >/dev/null 2>&1; then
		pass "$fmt: git 2.x finds both planted notes"
	else
		fail "$fmt: git 2.x misses a planted note"
	fi
	if [ -n "$g3" ]; then
		if ! "$g3" -C "$nr" notes show "$a1" >/dev/null 2>&1 && "$g3" -C "$nr" notes show "$d2$nn" >/dev/null 2>&1; then
			pass "$fmt: the Git 3.0 build misses the note in the uppercase folder, finds the other"
		else
			fail "$fmt: the Git 3.0 build does not behave as the classes say"
		fi
	fi
	# Its summary has a warn column now.
	if grep -q '^  area  *scanned  *git3  *warn  *error$' "$tmp/out"; then pass "$fmt: a warn column in the summary"; else
		fail "$fmt: no warn column"; fi
	# A conflicted notes merge: NOTES_MERGE_WORKTREE/<id>, NOTES_MERGE_REF, _PARTIAL.
	nm=$tmp/notes-merge-$fmt
	if git_ init -q --object-format=$fmt "$nm" && (cd "$nm" && git_ commit -q --allow-empty -m x &&
		git_ notes add -m base && git update-ref refs/notes/other refs/notes/commits &&
		git_ notes add -f -m one && git_ notes --ref=other add -f -m two &&
		! git_ notes merge other) >"$tmp/git.log" 2>&1 && [ -d "$nm/.git/NOTES_MERGE_WORKTREE" ]; then
		audit --no-progress "$nm"
		judge "$fmt: a conflicted notes merge: exit 0" 0 "" $?
		o=$(git -C "$nm" rev-parse HEAD)
		if [ "$(first_letter "$o")" -gt 0 ]; then
			mv "$nm/.git/NOTES_MERGE_WORKTREE/$o" "$nm/.git/NOTES_MERGE_WORKTREE/$(up "$o")"
			printf '[notes] NOTES_MERGE_WORKTREE/%s: \tgit3\tannotated\n' "$(up "$o")" >"$tmp/m.expect"
			audit --no-progress "$nm"
			judge "$fmt: a notes merge's file named in uppercase: exit 1" 1 "" $?
			expect_findings "$fmt: NOTES_MERGE_WORKTREE/<id> names" "$tmp/m.expect"
		fi
	else
		fail "$fmt: git made no conflicted notes merge"
		sed 's/^/#   /' "$tmp/git.log" | tail -3
	fi
done

# Files the config names, and the objects of alternates.
for fmt in sha1 sha256; do
	r=$tmp/clean-$fmt
	[ -d "$r/.git" ] || continue
	c=$tmp/config-$fmt
	cp -R "$r" "$c"
	head=$(git -C "$c" rev-parse HEAD)
	col=$(echo "$head" | awk '{ print match($0, /[a-f]/) }')
	up "$head" >"$c/skip.txt"
	printf '# reformatting\n  %s # the big one\r\n\n' "$head" >"$c/.git-blame-ignore-revs"
	git -C "$c" config fsck.skipList skip.txt
	git -C "$c" config blame.ignoreRevsFile .git-blame-ignore-revs
	printf '[config-files] skip.txt:1:%s: \tgit3\tuppercase\n' "$col" >"$tmp/x.expect"
	audit --no-progress "$c"
	judge "$fmt: fsck.skipList and blame.ignoreRevsFile: exit 1" 1 "" $?
	expect_findings "$fmt: the skip list's uppercase ID; the ignore-revs file's comments and CRLF are fine" "$tmp/x.expect"
	if git -C "$c" fsck >/dev/null 2>&1 && git -C "$c" blame f1 >/dev/null 2>&1; then
		pass "$fmt: git 2.x takes both files"
	else
		fail "$fmt: git 2.x rejects a config-named file"
	fi
	if [ -n "$g3" ]; then
		if ! "$g3" -C "$c" fsck >/dev/null 2>&1 && "$g3" -C "$c" blame f1 >/dev/null 2>&1; then
			pass "$fmt: the Git 3.0 build rejects the skip list, takes the ignore-revs file"
		else
			fail "$fmt: the Git 3.0 build does not behave as the classes say"
		fi
	fi

	# A repository borrowing the planted one's objects: they are its objects too.
	p=$tmp/planted-$fmt
	[ -d "$p/.git" ] || continue
	a=$tmp/borrower-$fmt
	git_ init -q --object-format=$fmt "$a" && echo "$p/.git/objects" >"$a/.git/objects/info/alternates"
	audit --no-progress "$p"
	grep -E '^\[(loose|pack)-objects\] ' "$tmp/out" |
		sed -e "s|^\[[a-z-]*\] objects/|[alternates] $p/.git/objects/|" >"$tmp/alt.want"
	audit --no-progress --jobs 2 "$a"
	judge "$fmt: a repository with the planted one as its alternate: exit 1" 1 "" $?
	findings_of "$tmp/out" >"$tmp/found"
	if [ -s "$tmp/alt.want" ] && cmp -s "$tmp/alt.want" "$tmp/found"; then
		pass "$fmt: the alternate's loose and packed objects, with its own paths"
	else
		fail "$fmt: the alternate's objects are not all found"
		diff "$tmp/alt.want" "$tmp/found" | head -5 | sed 's/^/#   /'
	fi
done

# The state git leaves behind: a cherry-pick of two commits stopped on a conflict with
# rerere on (sequencer/, MERGE_RR, rr-cache/), a rebase stopped on a conflict (both
# backends), grafts, a replace ref, the dumb-HTTP files. Clean, then planted.
for fmt in sha1 sha256; do
	s=$tmp/state-$fmt
	if ! { git_ init -q --object-format=$fmt "$s" && (cd "$s" &&
		for i in 1 2 3; do echo $i >f && git_ add f && git_ commit -q -m m$i || exit 1; done &&
		git_ checkout -q -b side HEAD~2 &&
		for i in x y z; do echo $i >f && echo $i >g$i && git_ add f g$i && git_ commit -q -m s$i || exit 1; done &&
		! git_ -c rerere.enabled=true cherry-pick main~1 main) &&
		[ -f "$s/.git/sequencer/todo" ] && [ -f "$s/.git/MERGE_RR" ]; } >"$tmp/git.log" 2>&1; then
		fail "$fmt: git made no stopped cherry-pick with rerere"
		sed 's/^/#   /' "$tmp/git.log" | tail -3
		continue
	fi
	rb=$tmp/rebase-$fmt
	cp -R "$s" "$rb"
	(cd "$rb" && git_ cherry-pick --abort && git_ checkout -q side && ! git_ rebase main) >"$tmp/git.log" 2>&1
	ra=$tmp/rebase-apply-$fmt
	cp -R "$s" "$ra"
	(cd "$ra" && git_ cherry-pick --abort && git_ checkout -q side && ! git_ rebase --apply main) >>"$tmp/git.log" 2>&1
	if [ ! -f "$rb/.git/rebase-merge/onto" ] || [ ! -f "$ra/.git/rebase-apply/onto" ]; then
		fail "$fmt: git made no stopped rebase"
		sed 's/^/#   /' "$tmp/git.log" | tail -3
		continue
	fi
	(cd "$s" && git_ cat-file commit HEAD >/dev/null && echo "$(git rev-parse main) $(git rev-parse main~2)" >.git/info/grafts &&
		git_ replace main~1 side && git_ update-server-info) >"$tmp/git.log" 2>&1
	for at in "$s" "$rb" "$ra"; do
		audit --no-progress "$at"
		judge "$fmt: clean ${at#$tmp/}: exit 0" 0 "" $?
		findings_of "$tmp/out" >"$tmp/found"
		if [ ! -s "$tmp/found" ]; then pass "$fmt: clean ${at#$tmp/}: no finding"; else
			fail "$fmt: clean ${at#$tmp/}: findings"
			sed 's/^/#   /' "$tmp/found" | head -3
		fi
	done

	g=$s/.git
	: >"$tmp/x.expect"
	if [ $fmt = sha1 ]; then p_hexsz=40; else p_hexsz=64; fi
	m1=$(git -C "$s" rev-parse main~1 2>/dev/null) m2=$(git -C "$s" rev-parse main~2 2>/dev/null)
	# grafts: the parent, after the commit and a space.
	if [ "$(first_letter "$m2")" -gt 0 ]; then
		echo "$(git -C "$s" rev-parse main 2>/dev/null) $(up "$m2")" >"$g/info/grafts"
		printf '[grafts] info/grafts:1:%s: \tgit3\tuppercase\n' $((p_hexsz + 1 + $(first_letter "$m2"))) >>"$tmp/x.expect"
	fi
	# replace: the name of the ref.
	if [ "$(first_letter "$m1")" -gt 0 ]; then
		mv "$g/refs/replace/$m1" "$g/refs/replace/$(up "$m1")"
		printf '[replace] refs/replace/%s: \tgit3\treplace ref\n' "$(up "$m1")" >>"$tmp/x.expect"
	fi
	# sequencer/head, and the second pick of the todo list (abbreviated).
	sh=$(cat "$g/sequencer/head")
	up "$sh" >"$g/sequencer/head"
	printf '[sequencer] sequencer/head:1:%s: \tgit3\tuppercase\n' "$(first_letter "$sh")" >>"$tmp/x.expect"
	tw=$(awk 'NR == 2 { print $2 }' "$g/sequencer/todo")
	if [ "$(first_letter "$tw")" -gt 0 ]; then
		replace_line "$g/sequencer/todo" 2 '$1 " " toupper($2) substr($0, length($1 $2) + 2)'
		printf '[sequencer] sequencer/todo:2:%s: \tgit3\tobject name\n' $((5 + $(first_letter "$tw"))) >>"$tmp/x.expect"
	fi
	# MERGE_RR's conflict ID, and its rr-cache folder.
	cid=$(cut -c1-$p_hexsz "$g/MERGE_RR")
	if [ "$(first_letter "$cid")" -gt 0 ]; then
		{ up "$cid" | tr -d '\n'; tail -c +$((p_hexsz + 1)) "$g/MERGE_RR"; } >"$g/MERGE_RR.new" &&
			mv "$g/MERGE_RR.new" "$g/MERGE_RR"
		printf '[rerere] MERGE_RR:1:%s: \tgit3\tuppercase\n' "$(first_letter "$cid")" >>"$tmp/x.expect"
		mv "$g/rr-cache/$cid" "$g/rr-cache/$(up "$cid")"
		printf '[rerere] rr-cache/%s: \tgit3\tconflict\n' "$(up "$cid")" >>"$tmp/x.expect"
	fi
	# info/refs: the first line's ID.
	ir=$(head -n 1 "$g/info/refs" | cut -f1)
	replace_line "$g/info/refs" 1 'toupper(substr($0, 1, h)) substr($0, h + 1)'
	printf '[dumb-http] info/refs:1:%s: \tgit3\tuppercase\n' "$(first_letter "$ir")" >>"$tmp/x.expect"
	audit --no-progress "$s"
	judge "$fmt: planted states: exit 1" 1 "" $?
	expect_findings "$fmt: grafts, replace, sequencer, rerere, dumb-http findings where git reads them" "$tmp/x.expect"

	: >"$tmp/x.expect"
	on=$(cat "$rb/.git/rebase-merge/onto")
	up "$on" >"$rb/.git/rebase-merge/onto"
	printf '[rebase] rebase-merge/onto:1:%s: \tgit3\tuppercase\n' "$(first_letter "$on")" >"$tmp/x.expect"
	audit --no-progress "$rb"
	judge "$fmt: a stopped rebase, planted: exit 1" 1 "" $?
	expect_findings "$fmt: rebase-merge/onto" "$tmp/x.expect"
	: >"$tmp/x.expect"
	# The mails' "From <id>" lines: read when rebasing.
	mo=$(head -n 1 "$ra/.git/rebase-apply/0002" | cut -d ' ' -f 2)
	if [ "$(first_letter "$mo")" -gt 0 ]; then
		replace_line "$ra/.git/rebase-apply/0002" 1 '"From " toupper($2) substr($0, length($2) + 6)'
		printf '[rebase] rebase-apply/0002:1:%s: \tgit3\tuppercase\n' $((5 + $(first_letter "$mo"))) >>"$tmp/x.expect"
	fi
	oh=$(cat "$ra/.git/rebase-apply/orig-head")
	up "$oh" >"$ra/.git/rebase-apply/orig-head"
	printf '[rebase] rebase-apply/orig-head:1:%s: \tgit3\tuppercase\n' "$(first_letter "$oh")" >>"$tmp/x.expect"
	audit --no-progress "$ra"
	judge "$fmt: a stopped rebase --apply, planted: exit 1" 1 "" $?
	expect_findings "$fmt: rebase-apply/orig-head and a mail's From line" "$tmp/x.expect"
done

# A partial clone: its .promisor file is not read; a pack named in uppercase hex is a
# warning (the Git 3.0 build still opens it), for its .pack and its .promisor.
for fmt in sha1 sha256; do
	r=$tmp/clean-$fmt
	[ -d "$r/.git" ] || continue
	pc=$tmp/partial-$fmt
	if ! git_ -c uploadpack.allowfilter=true clone -q --no-local --filter=blob:none "file://$r" "$pc" >"$tmp/git.log" 2>&1 ||
		! ls "$pc"/.git/objects/pack/*.promisor >/dev/null 2>&1; then
		fail "$fmt: git made no partial clone"
		sed 's/^/#   /' "$tmp/git.log" | tail -3
		continue
	fi
	audit --no-progress "$pc"
	judge "$fmt: a partial clone: exit 0" 0 "" $?
	check_report "$fmt: partial clone" "$tmp/none" "$pc" $fmt
	: >"$tmp/x.expect"
	for pk in "$pc"/.git/objects/pack/pack-*.pack; do
		base=${pk%.pack}
		hex=${base##*/pack-}
		[ "$(first_letter "$hex")" -gt 0 ] || continue
		U=$(up "$hex")
		for ext in pack idx rev promisor; do
			[ -f "$base.$ext" ] && mv "$base.$ext" "${base%/*}/pack-$U.$ext"
		done
		printf '[promisor] objects/pack/pack-%s.promisor: \twarn\tpack\n' "$U" >>"$tmp/x.expect"
		printf '[pack-objects] objects/pack/pack-%s.pack: \twarn\tpack\n' "$U" >>"$tmp/w.expect"
	done
	cat "$tmp/w.expect" >>"$tmp/x.expect" 2>/dev/null && rm -f "$tmp/w.expect"
	if [ -s "$tmp/x.expect" ]; then
		audit --no-progress "$pc"
		judge "$fmt: packs named in uppercase, warnings alone: exit 0" 0 "" $?
		expect_findings "$fmt: a pack named in uppercase is warn, in its .pack and .promisor" "$tmp/x.expect"
		if [ -n "$g3" ]; then
			if "$g3" -C "$pc" log -1 >/dev/null 2>&1 && "$g3" -C "$pc" cat-file -e HEAD^{tree} 2>/dev/null; then
				pass "$fmt: the Git 3.0 build still reads the pack named in uppercase"
			else
				fail "$fmt: the Git 3.0 build does not read the pack named in uppercase"
			fi
		fi
	else
		skip "$fmt: packs named in uppercase" "no pack name has a letter"
	fi
done

# Which files of objects/pack are packs, as git decides (src/pack/objdir.h): each NAME.idx
# whose NAME.pack is a regular file, whatever NAME is. Three packs of one commit each, its
# tree header in uppercase: a .tmp-<pid>-pack-* pair, as git repack leaves one for a
# moment (git reads it), a .pack without its .idx and an .idx without its .pack (git
# reads neither). The audit reports the commits git lists, and only those. Then a pack
# folder that is a file: git says it cannot open it and reads on; the audit says so too.
for fmt in sha1 sha256; do
	r=$tmp/clean-$fmt
	[ -d "$r/.git" ] || continue
	o=$tmp/odd-packs-$fmt
	P=$o/.git/objects/pack
	if ! git clone -q --no-local "$r" "$o" >"$tmp/git.log" 2>&1; then
		fail "$fmt: git clone for the odd packs"
		continue
	fi
	lt=$(git -C "$o" rev-parse HEAD^{tree}) && t=$(up "$lt")
	# odd_pack MESSAGE BASE: a new commit of the uppercase tree, packed alone as
	# $P/BASE.pack and .idx and nowhere else; prints its ID.
	odd_pack() {
		op_id=$(printf 'tree %s\nauthor a <a@example.com> 1 +0000\ncommitter a <a@example.com> 1 +0000\n\n%s\n' \
			"$t" "$1" | git -C "$o" hash-object -t commit --literally -w --stdin) &&
			op_h=$(echo "$op_id" | git -C "$o" pack-objects -q "$P/odd") &&
			mv "$P/odd-$op_h.pack" "$P/$2.pack" && mv "$P/odd-$op_h.idx" "$P/$2.idx" &&
			rm "$o/.git/objects/$(echo "$op_id" | cut -c1-2)/$(echo "$op_id" | cut -c3-)" &&
			echo "$op_id"
	}
	tmp_id=$(odd_pack "read" .tmp-1-pack-read)
	lone_pack=$(odd_pack "lone pack" pack-lone-pack) && rm "$P/pack-lone-pack.idx"
	lone_idx=$(odd_pack "lone index" pack-lone-idx) && rm "$P/pack-lone-idx.pack"
	git -C "$o" cat-file --batch-all-objects --batch-check='%(objectname)' >"$tmp/git.ids" 2>/dev/null
	if grep -qx "$tmp_id" "$tmp/git.ids" && ! grep -q "$lone_pack\|$lone_idx" "$tmp/git.ids"; then
		pass "$fmt: git lists the .tmp- pack's commit, not those of a lone .pack or .idx"
	else
		fail "$fmt: git lists other objects than those planted for it"
	fi
	audit --no-progress "$o"
	judge "$fmt: odd packs: exit 1" 1 "" $?
	printf '[pack-objects] objects/pack/.tmp-1-pack-read.pack: commit %s: tree header, line 1, column %s: \tgit3\tuppercase\n' \
		"$tmp_id" $((5 + $(first_letter "$lt"))) >"$tmp/x.expect"
	expect_findings "$fmt: the .tmp- pack is read, a lone .pack or .idx is not, as git reads them" "$tmp/x.expect"
	rm -rf "$P" && : >"$P"
	if git -C "$o" cat-file --batch-all-objects --batch-check 2>&1 >/dev/null |
		grep -q "unable to open object pack directory"; then
		pass "$fmt: git says it cannot open a pack folder that is a file"
	else
		fail "$fmt: git says nothing of a pack folder that is a file"
	fi
	audit --no-progress "$o"
	judge "$fmt: a pack folder that is a file: exit 1" 1 "" $?
	printf '[pack-objects] objects/pack: \terror\tcannot read the folder\n' >"$tmp/x.expect"
	expect_findings "$fmt: a pack folder that is a file is a finding, as git says it" "$tmp/x.expect"
done

# The Git 3.0 build's own repositories: reftable (its default) and the files backend,
# SHA-1 and SHA-256. Reftable's stub HEAD and refs/heads are not findings.
if [ -z "$g3" ]; then
	skip "Git 3.0 repositories" "no $srcdir/../shared/tools/git3/git"
else
	for fmt in sha1 sha256; do
		for refs in reftable files; do
			r3=$tmp/g3-$refs-$fmt
			if ! { git3_ init -q --object-format=$fmt --ref-format=$refs "$r3" &&
				(cd "$r3" && echo a >a && git3_ add a && git3_ commit -q -m a &&
					git3_ tag -a -m t v1 && git3_ branch side && echo b >a &&
					git3_ commit -q -am b && git3_ repack -adq && git3_ pack-refs --all &&
					echo c >a && git3_ commit -q -am c); } >"$tmp/git.log" 2>&1; then
				fail "$fmt $refs: the Git 3.0 build cannot make a repository"
				sed 's/^/#   /' "$tmp/git.log" | head -5
				continue
			fi
			audit --no-progress "$r3"
			judge "$fmt $refs: a Git 3.0 repository: exit 0" 0 "" $?
			findings_of "$tmp/out" >"$tmp/found"
			if [ ! -s "$tmp/found" ]; then pass "$fmt $refs: no finding"; else
				fail "$fmt $refs: findings in a clean repository"
				sed 's/^/#   /' "$tmp/found" | head -3
			fi
			if [ $refs = reftable ]; then
				want="hexoid audit: $r3 ($fmt; refs in reftable: binary IDs, nothing to lowercase)"
			else
				want="hexoid audit: $r3 ($fmt)"
			fi
			if [ "$(head -n 1 "$tmp/out")" = "$want" ]; then
				pass "$fmt $refs: the first line says how the refs are stored"
			else
				fail "$fmt $refs: first line '$(head -n 1 "$tmp/out")'"
			fi
			if [ -n "$have_python" ]; then
				audit --json --no-progress "$r3"
				if [ "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["ref_storage"])' "$tmp/out" 2>&1)" = $refs ]; then
					pass "$fmt $refs: --json ref_storage"
				else
					fail "$fmt $refs: --json ref_storage is not $refs"
				fi
			fi
			# Everything else is still read: an uppercase FETCH_HEAD, and shallow.
			h3=$(git3_ -C "$r3" rev-parse HEAD)
			printf '%s\t\tbranch '"'"'main'"'"' of example\n' "$(up "$h3")" >"$r3/.git/FETCH_HEAD"
			up "$h3" >"$r3/.git/shallow"
			col=$(echo "$h3" | awk '{ print match($0, /[a-f]/) }')
			printf '[shallow] shallow:1:%s: \tgit3\tuppercase\n[fetch-head] FETCH_HEAD:1:%s: \tgit3\tuppercase\n' \
				"$col" "$col" >"$tmp/x.expect"
			audit --no-progress "$r3"
			judge "$fmt $refs: uppercase FETCH_HEAD and shallow: exit 1" 1 "" $?
			expect_findings "$fmt $refs: FETCH_HEAD and shallow still read" "$tmp/x.expect"
			rm "$r3/.git/FETCH_HEAD" "$r3/.git/shallow"
			[ $refs = reftable ] || continue
			# Each table listed 2000 times: the Git 3.0 build reads the refs; so does the
			# audit, each table once.
			cp "$r3/.git/reftable/tables.list" "$tmp/tl.saved"
			awk '{ l[NR] = $0 } END { for (i = 0; i < 2000; i++) for (j = 1; j <= NR; j++) print l[j] }' \
				"$tmp/tl.saved" >"$r3/.git/reftable/tables.list"
			git3_ -C "$r3" rev-parse -q --verify HEAD >/dev/null 2>&1 &&
				pass "$fmt reftable: the Git 3.0 build reads a tables.list that names each table 2000 times" ||
				fail "$fmt reftable: the Git 3.0 build fails on repeated tables"
			timeout 20 $H audit --no-progress "$r3" >"$tmp/out" 2>&1
			judge "$fmt reftable: each table listed 2000 times: clean, at once" 0 "" $?
			cp "$tmp/tl.saved" "$r3/.git/reftable/tables.list"
			# A NUL in tables.list: the Git 3.0 build then reads no ref at all (not
			# HEAD's branch); the audit says so, not that the tables after it are fine.
			{ printf '\0'; cat "$r3/.git/reftable/tables.list"; } >"$tmp/tl" && cp "$tmp/tl" "$r3/.git/reftable/tables.list"
			git3_ -C "$r3" rev-parse -q --verify HEAD >/dev/null 2>&1 &&
				fail "$fmt reftable: the Git 3.0 build reads refs past a NUL in tables.list" ||
				pass "$fmt reftable: the Git 3.0 build reads no ref past a NUL in tables.list"
			audit --no-progress "$r3"
			judge "$fmt reftable: a NUL in tables.list: exit 1" 1 "" $?
			grep -qF "reftable/tables.list: error: cannot read: a NUL byte at offset 0" "$tmp/out" &&
				pass "$fmt reftable: a NUL in tables.list is an error finding" ||
				fail "$fmt reftable: a NUL in tables.list: $(grep tables.list "$tmp/out" | head -1)"
		done
	done
fi

# --- Never harmful: odd files where git reads one are findings, never a hang; the audit
# writes nothing, and runs on a read-only copy.
# snapshot DIR: every file's path, type, size, mode, mtime and contents' hash.
snapshot() {
	(cd "$1" && find . -printf '%p %y %s %m %T@\n' | LC_ALL=C sort &&
		find . -type f -exec sha256sum {} + | LC_ALL=C sort)
}
# audit_bounded ARGS...: audit, killed after 60 s (a hang is a failure, not a stuck suite).
audit_bounded() {
	if command -v timeout >/dev/null 2>&1; then
		timeout 60 $H audit "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	else
		$H audit "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	fi
}
for fmt in sha1 sha256; do
	r=$tmp/clean-$fmt
	[ -d "$r/.git" ] || continue
	h=$tmp/odd-files-$fmt
	cp -R "$r" "$h"
	g=$h/.git
	: >"$tmp/x.expect"
	ln -s nowhere "$g/refs/heads/dangling"
	printf '[refs] refs/heads/dangling: \terror\tsymbolic link\n' >>"$tmp/x.expect"
	if mknod "$g/refs/heads/dev" c 1 3 2>/dev/null; then
		printf '[refs] refs/heads/dev: \terror\tdevice\n' >>"$tmp/x.expect"
	fi
	ln -s . "$g/refs/heads/dirloop"
	mkfifo "$g/refs/heads/fifo"
	printf '[refs] refs/heads/fifo: \terror\tFIFO\n' >>"$tmp/x.expect"
	ln -s loop "$g/refs/heads/loop"
	printf '[refs] refs/heads/loop: \terror\tsymbolic link loop\n' >>"$tmp/x.expect"
	ln -s refs/heads/main "$g/refs/heads/symref-link"
	if [ -n "$have_python" ] &&
		python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$g/refs/heads/sock" 2>/dev/null; then
		printf '[refs] refs/heads/sock: \terror\tsocket\n' >>"$tmp/x.expect"
	fi
	mkfifo "$g/ORIG_HEAD"
	printf '[pseudo-refs] ORIG_HEAD: \terror\tFIFO\n' >>"$tmp/x.expect"
	mkdir "$g/packed-refs.d" && mv "$g/packed-refs" "$g/packed-refs.d/" && mkfifo "$g/packed-refs"
	printf '[packed-refs] packed-refs: \terror\tFIFO\n' >>"$tmp/x.expect"
	# A submodule's repository that is a link back to the repository holding it.
	mkdir -p "$g/modules" && ln -s .. "$g/modules/back"
	printf '[refs] modules/back: \terror\talready audited\n' >>"$tmp/x.expect"
	snapshot "$h" >"$tmp/before"
	audit_bounded --no-progress --jobs 2 "$h"
	judge "$fmt: FIFOs, a socket, a device, odd links, a submodule looping back: exit 1, no hang" 1 "" $?
	expect_findings "$fmt: each odd file is an error finding, the rest is read" "$tmp/x.expect"
	snapshot "$h" >"$tmp/after"
	if cmp -s "$tmp/before" "$tmp/after"; then pass "$fmt: odd files: nothing written or touched"; else
		fail "$fmt: odd files: the repository changed"
		diff "$tmp/before" "$tmp/after" | head -5 | sed 's/^/#   /'
	fi
	if [ "$(id -u)" != 0 ]; then
		c=$tmp/unreadable-$fmt
		cp -R "$r" "$c"
		chmod 000 "$c/.git/refs/heads/main"
		audit_bounded --no-progress "$c"
		judge "$fmt: an unreadable ref: exit 1" 1 "" $?
		printf '[refs] refs/heads/main: \terror\tpermission\n' >"$tmp/u.expect"
		expect_findings "$fmt: an unreadable ref is an error finding" "$tmp/u.expect"
		chmod 644 "$c/.git/refs/heads/main"
	else
		skip "$fmt: an unreadable ref" "root reads every file"
	fi

	# The planted repository, and a read-only copy of it: the same report, nothing
	# written, no time changed.
	p=$tmp/planted-$fmt
	[ -d "$p/.git" ] || continue
	ro=$tmp/readonly-$fmt
	cp -Rp "$p" "$ro"
	chmod -R a-w "$ro"
	snapshot "$ro" >"$tmp/before"
	audit_bounded --no-progress "$p"
	cp "$tmp/out" "$tmp/rw.out"
	audit_bounded --no-progress --jobs 2 --verify-ids "$ro"
	judge "$fmt: read-only copy of the planted repository: exit 1" 1 "" $?
	if [ "$(sed 1d "$tmp/out")" = "$(sed 1d "$tmp/rw.out")" ]; then
		pass "$fmt: read-only copy: the same report"
	else
		fail "$fmt: read-only copy: the report differs"
	fi
	snapshot "$ro" >"$tmp/after"
	if cmp -s "$tmp/before" "$tmp/after"; then pass "$fmt: read-only copy: every file's bytes and times unchanged"; else
		fail "$fmt: read-only copy: files changed"
		diff "$tmp/before" "$tmp/after" | head -5 | sed 's/^/#   /'
	fi
	chmod -R u+w "$ro"
	snapshot "$p" >"$tmp/before"
	audit_bounded --no-progress --jobs 2 "$p"
	snapshot "$p" >"$tmp/after"
	if cmp -s "$tmp/before" "$tmp/after"; then pass "$fmt: planted: every file's bytes and times unchanged"; else
		fail "$fmt: planted: files changed"
		diff "$tmp/before" "$tmp/after" | head -5 | sed 's/^/#   /'
	fi
done

# --- objects/info/alternates as git reads it: a quoted path with a space and a newline,
# a relative one, a chain deeper than git goes, a cycle, a CR before the line's end (the
# path's, for git), a NUL (the file's end). Each folder holds one commit of its own with
# an uppercase tree header: the audit reports the commits of exactly the folders through
# which git finds them.
al=$tmp/alternates
mkdir "$al"
# alt_plant DIR NAME: an objects folder at DIR/objects holding commit NAME, its ID in
# $al/NAME.oid.
alt_plant() {
	git_ init -q --bare "$1" && a_t=$(git -C "$1" mktree </dev/null) &&
		printf 'tree %s\nauthor %s\ncommitter %s\n\n%s\n' "$(up "$a_t")" "$p_ident" "$p_ident" "$2" |
		git -C "$1" hash-object -w -t commit --stdin >"$al/$2.oid"
}
cr=$(printf '\r')
nl='
'
{
	git_ init -q --bare "$al/main" &&
	alt_plant "$al/sp ace${nl}new line" quoted && alt_plant "$al/rel" relative &&
	for i in 1 2 3 4 5 6 7; do alt_plant "$al/chain$i" chain$i || exit 1; done &&
	alt_plant "$al/crlf" crlf && alt_plant "$al/crq" crlf-cr && mv "$al/crq/objects" "$al/crlf/objects$cr" &&
	alt_plant "$al/afternul" afternul &&
	printf '# a comment\n\n"../../sp ace\\nnew line/objects"\n../../rel/objects\n%s\n../../crlf/objects\r\n\0../../afternul/objects\n' \
		"$al/chain1/objects" >"$al/main/objects/info/alternates" &&
	for i in 1 2 3 4 5 6; do echo "../../chain$((i + 1))/objects" >"$al/chain$i/objects/info/alternates"; done &&
	printf '../../main/objects\n../../rel/objects\n' >"$al/rel/objects/info/alternates"
} >"$tmp/git.log" 2>&1 && st=ok || st=
if [ -n "$st" ]; then
	audit --no-progress --jobs 2 "$al/main"
	judge "alternates as git reads them: exit 1" 1 "" $?
	findings_of "$tmp/out" >"$tmp/found"
	: >"$tmp/alt.git"
	: >"$tmp/alt.audit"
	for name in quoted relative chain1 chain2 chain3 chain4 chain5 chain6 chain7 crlf crlf-cr afternul; do
		o=$(cat "$al/$name.oid")
		git -C "$al/main" cat-file -e "$o" 2>/dev/null && echo "$name" >>"$tmp/alt.git"
		grep -qF "$o" "$tmp/found" && echo "$name" >>"$tmp/alt.audit"
	done
	want='quoted relative chain1 chain2 chain3 chain4 chain5 chain6 crlf-cr'
	if [ "$(echo $(cat "$tmp/alt.git"))" = "$want" ]; then
		pass "git reads the quoted, relative, CR-ended and six chained alternates, none past a NUL or deeper"
	else
		fail "git reads other alternates than thought: $(echo $(cat "$tmp/alt.git"))"
	fi
	# (a finding's line starts with its area; the quoted path's newline is printed as it is)
	if cmp -s "$tmp/alt.git" "$tmp/alt.audit" && [ "$(grep -c '^\[' "$tmp/found")" -eq "$(wc -l <"$tmp/alt.git")" ]; then
		pass "the audit reads the alternates git reads, each once (the cycle is no repeat)"
	else
		fail "the audit reads other alternates than git: $(echo $(cat "$tmp/alt.audit"))"
		sed 's/^/#   /' "$tmp/found" | head -12
	fi
	if grep -qF "[alternates] $al/rel/objects/" "$tmp/found"; then
		pass "a relative alternate's findings name its folder resolved, as git names it"
	else
		fail "a relative alternate's findings name its folder otherwise"
	fi
else
	fail "git could not make the alternates"
	sed 's/^/#   /' "$tmp/git.log" | tail -3
fi
# An alternates file that is no regular file, or cannot be read, is a finding, never
# opened; an alternate that is not there is none (git only warns of it), one that is no
# folder is a folder that cannot be read, told once however it is named.
if git_ init -q --bare "$al/odd" >"$tmp/git.log" 2>&1; then
	f=$al/odd/objects/info/alternates
	printf '[alternates] objects/info/alternates: \terror\tcannot read it\n' >"$tmp/x.expect"
	for kind in folder fifo link; do
		rm -rf "$f"
		case $kind in
		folder) mkdir "$f" ;;
		fifo) mkfifo "$f" ;;
		link) ln -s nowhere "$f" ;;
		esac
		audit_bounded --no-progress "$al/odd"
		judge "an alternates file that is a $kind: exit 1, no hang" 1 "" $?
		expect_findings "an alternates file that is a $kind: a finding on the file" "$tmp/x.expect"
	done
	rm -rf "$f"
	: >"$al/plain"
	printf '%s\n' "$al/missing/objects" "$al/plain" ../../plain "$al/plain/objects" >"$f"
	printf '[alternates] %s: \terror\tcannot read the folder\n' "$al/plain" >"$tmp/x.expect"
	audit_bounded --no-progress "$al/odd"
	judge "alternates that lead nowhere: exit 1" 1 "" $?
	expect_findings "alternates that lead nowhere: a file named twice is one finding, what is not there none" "$tmp/x.expect"
fi

# --- Unusable input: exit 2 and a message, nothing reported.
mkdir "$tmp/not-a-repo"
unusable "a directory that is not a repository" "$tmp/not-a-repo"
unusable "a missing directory" "$tmp/no-such"
unusable "an unknown option" --frob "$tmp/clean-sha1"
unusable "--jobs without a number" --jobs
unusable "--json with two repositories" --json "$tmp/clean-sha1" "$tmp/clean-sha1"

# --- The repository's format, read from its config as git reads it: the last value of
# each key, quoted or not, and no include (check_repository_format follows none).
fr=$tmp/format
git_ init -q --bare "$fr"
printf '[extensions]\n\tobjectFormat = sha999 ; a comment\n' >>"$fr/config"
audit --no-progress "$fr"
judge "an unknown extensions.objectFormat: exit 2" 2 "unknown extensions.objectFormat sha999 in its config" $?
printf '[Extensions]\n\tObjectFormat = "sha1"\n' >>"$fr/config"
audit --no-progress "$fr"
judge "the last extensions.objectFormat wins, quoted as git takes it" 0 "" $?
printf '[include]\n\tpath = more.cfg\n' >>"$fr/config"
printf '[extensions]\n\trefStorage = rocks\n' >"$fr/more.cfg"
audit --no-progress "$fr"
judge "extensions in an included file: not the repository's format" 0 "" $?
# --- Discovery as git's: a folder inside a bare repository is audited as that one (git
# -C does the same), not above a folder of GIT_CEILING_DIRECTORIES (a ceiling is never
# the folder started from; an empty entry stops the ones after it being resolved; a
# relative one is ignored), and with --exact the path given or nothing.
# found_as NAME WANT PATH [ENV]: hexoid's exit status WANT, and it agrees with git
# -C PATH rev-parse --git-dir (found, or not) under the same environment.
found_as() {
	fa_name=$1 fa_want=$2 fa_path=$3
	audit --no-progress --json-lines "$fa_path"
	fa_rc=$?
	if git -C "$fa_path" rev-parse --absolute-git-dir >"$tmp/gitsaw" 2>/dev/null; then
		fa_git=$(cat "$tmp/gitsaw")
		fa_ours=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if d["type"] == "repository": print(d["gitdir"])' "$tmp/out" 2>/dev/null)
	else
		fa_git=none fa_ours=none
		[ "$fa_rc" = 2 ] || fa_ours="exit $fa_rc"
	fi
	if [ "$fa_rc" != "$fa_want" ]; then
		fail "$fa_name: exit $fa_rc, expected $fa_want"
		sed 's/^/#   /' "$tmp/err" | head -3
	elif [ "$fa_ours" != "$fa_git" ]; then
		fail "$fa_name: hexoid found '$fa_ours', git '$fa_git'"
	else
		pass "$fa_name (as git: $fa_git)"
	fi
}
for fmt in sha1 sha256; do
	dr=$tmp/disc-$fmt
	git_ init -q --bare --object-format=$fmt "$dr/srv/r001.git"
	mkdir -p "$dr/srv/r001.git/sub.git/deeper"
	unset GIT_CEILING_DIRECTORIES
	found_as "$fmt: an empty folder in a bare repository is that repository" 0 "$dr/srv/r001.git/sub.git"
	export GIT_CEILING_DIRECTORIES="$dr/srv/r001.git"
	found_as "$fmt: GIT_CEILING_DIRECTORIES above it: not found" 2 "$dr/srv/r001.git/sub.git"
	found_as "$fmt: GIT_CEILING_DIRECTORIES two folders up: not found" 2 "$dr/srv/r001.git/sub.git/deeper"
	found_as "$fmt: a ceiling is not the folder started from" 0 "$dr/srv/r001.git"
	export GIT_CEILING_DIRECTORIES="$dr/srv/r001.git/sub.git"
	found_as "$fmt: the folder started from as a ceiling: its parents are searched" 0 "$dr/srv/r001.git/sub.git"
	export GIT_CEILING_DIRECTORIES="srv/r001.git:$dr/elsewhere"
	found_as "$fmt: a relative ceiling is ignored" 0 "$dr/srv/r001.git/sub.git"
	ln -s "$dr/srv/r001.git" "$dr/link"
	export GIT_CEILING_DIRECTORIES="$dr/link"
	found_as "$fmt: a ceiling through a symbolic link, resolved" 2 "$dr/srv/r001.git/sub.git"
	export GIT_CEILING_DIRECTORIES=":$dr/link"
	found_as "$fmt: after an empty entry, not resolved" 0 "$dr/srv/r001.git/sub.git"
	unset GIT_CEILING_DIRECTORIES
	audit --no-progress --exact "$dr/srv/r001.git/sub.git"
	judge "$fmt: --exact on a folder that is no repository: exit 2, named" 2 "$dr/srv/r001.git/sub.git: not a git repository" $?
	audit --no-progress --exact "$dr/srv/r001.git/sub.git/../../r001.git"
	judge "$fmt: --exact on a bare repository" 0 "" $?
	git_ init -q --object-format=$fmt "$dr/wt"
	mkdir "$dr/wt/src"
	audit --no-progress --exact "$dr/wt"
	judge "$fmt: --exact on a work tree" 0 "" $?
	audit --no-progress --exact "$dr/wt/.git"
	judge "$fmt: --exact on its .git" 0 "" $?
	audit --no-progress --exact "$dr/wt/src"
	judge "$fmt: --exact on a folder of a work tree: exit 2" 2 "$dr/wt/src: not a git repository" $?
	printf 'gitdir: %s\n' "$dr/gone" >"$dr/wt/src/.git"
	audit --no-progress --exact "$dr/wt/src"
	judge "$fmt: --exact on a .git file leading nowhere: exit 2" 2 "src/.git: not a git repository" $?
done
# --- JSON error lines: a stable "code" and the repository (null for the list), on real
# cases, from hexoid audit --json-lines and hexoid repair --json-lines alike.
je=$tmp/jerr
mkdir -p "$je/empty" "$je/wt"
git_ init -q --bare "$je/odd.git"
printf '[extensions]\n\trefStorage = rocks\n' >>"$je/odd.git/config"
printf 'x\n' >"$je/file"
printf 'gitdir: %s\n' "$je/gone" >"$je/wt/.git"
git_ init -q --bare "$je/ok.git"
# json_error NAME CODE REPO-KEY: the error line of $tmp/out says CODE for REPO-KEY, every
# line but the run's names a repository (as repo and repository alike), and the run line
# is last.
json_error() {
	if python3 - "$tmp/out" "$2" "$3" >"$tmp/jmsg" 2>&1 <<'PY'; then
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
want_repo = None if sys.argv[3] == "null" else sys.argv[3]
errs = [d for d in lines if d["type"] == "error"]
assert len(errs) == 1, "error lines: %d" % len(errs)
e = errs[0]
assert e["code"] == sys.argv[2], "code %r" % e["code"]
assert e["repository"] == want_repo, "repository %r" % e["repository"]
assert e["message"], "no message"
for d in lines[:-1]:
    assert d["schema"] == 1 and "repository" in d, "a line without a repository: %r" % d
    assert d["repo"] == d["repository"], "repo and repository differ: %r" % d
assert lines[-1]["type"] == "run" and lines[-1]["exit"] == 2, "last line %r" % lines[-1]
PY
		pass "$1"
	else
		fail "$1: $(tail -1 "$tmp/jmsg")"
		sed 's/^/#   /' "$tmp/out" | head -5
	fi
}
for cmd in audit repair; do
	jl() { $H $cmd --json-lines "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; }
	[ $cmd = repair ] && dry=--dry-run || dry=--no-progress
	jl $dry "$je/ok.git" "$je/missing"
	judge "$cmd --json-lines, a missing path: exit 2" 2 "$je/missing" $?
	json_error "$cmd --json-lines, a missing path: code not-found" not-found "$je/missing"
	jl $dry "$je/empty"
	json_error "$cmd --json-lines, a folder outside any repository: code not-a-repository" not-a-repository "$je/empty"
	jl $dry "$je/file"
	json_error "$cmd --json-lines, a file: code not-a-folder" not-a-folder "$je/file"
	jl $dry "$je/wt"
	json_error "$cmd --json-lines, a .git file leading nowhere: code broken-gitdir" broken-gitdir "$je/wt"
	jl $dry "$je/odd.git"
	json_error "$cmd --json-lines, an unknown refStorage: code unknown-format" unknown-format "$je/odd.git"
	jl $dry --from="$je/no-list"
	json_error "$cmd --json-lines, an unreadable --from list: code list-unreadable, repository null" list-unreadable null
	if [ "$(id -u)" != 0 ]; then
		mkdir -p "$je/locked/in"
		chmod 0 "$je/locked"
		jl $dry "$je/locked/in"
		json_error "$cmd --json-lines, a folder that cannot be reached: code unreadable" unreadable "$je/locked/in"
		chmod 755 "$je/locked"
	else
		skip "$cmd --json-lines, a folder that cannot be reached" "root reaches every folder"
	fi
done
audit --json-lines --exact "$je/ok.git/objects"
json_error "audit --json-lines --exact, a folder inside a repository: code not-a-repository" not-a-repository "$je/ok.git/objects"
audit --json-lines --objects-dir "$je/missing"
json_error "audit --json-lines --objects-dir, a missing folder: code not-found" not-found "$je/missing"

# A config that includes itself 20 times: git dies at the eleventh level ("exceeded
# maximum include depth"), and so the audit stops reading there, not after 20^10 reads.
git_ init -q "$je/inc"
i=0
while [ $i -lt 20 ]; do printf '[include]\n\tpath = config\n' >>"$je/inc/.git/config"; i=$((i + 1)); done
git -C "$je/inc" log >/dev/null 2>"$tmp/err"
grep -q "maximum include depth" "$tmp/err" && pass "git dies of a config that includes itself 20 times" ||
	fail "git reads a config that includes itself 20 times: $(head -1 "$tmp/err")"
timeout 20 $H audit --no-progress "$je/inc" >"$tmp/out" 2>"$tmp/err"
judge "audit of a config that includes itself 20 times: at once" 0 "" $?

# SIGINT while the list piped in is awaited: what was audited is written, the run line
# says 130, no repository is started after it, and hexoid dies of the signal (the shell
# sees 130). SIGTERM the same, 143.
for sig in INT TERM; do
	rm -f "$je/fifo" "$tmp/out"
	mkfifo "$je/fifo"
	$H audit --json-lines --no-progress --from=- <"$je/fifo" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	exec 3>"$je/fifo"
	echo "$je/ok.git" >&3
	i=0
	while [ $i -lt 200 ] && ! grep -q '"type": "repository"' "$tmp/out"; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -$sig $pid
	wait $pid 2>/dev/null
	rc=$?
	exec 3>&-
	[ $sig = INT ] && want=130 || want=143
	if [ $rc = $want ] && python3 -c 'import json,sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert [d["type"] for d in lines] == ["repository", "run"], lines
assert lines[0]["exit"] == 0 and lines[-1]["repositories"] == 1 and lines[-1]["exit"] == int(sys.argv[2]), lines
' "$tmp/out" $want 2>"$tmp/py" && grep -q 'interrupted' "$tmp/err"; then
		pass "audit --from -: SIG$sig between repositories: one audited, the run line, exit $want"
	else
		fail "audit --from -: SIG$sig between repositories (exit $rc, want $want): $(tail -1 "$tmp/py")"
		sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -6
	fi
done
exit 0
