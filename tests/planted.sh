# Repositories for the audit and verify-pack tests, sourced after lib.sh (it needs git_
# and $tmp). Every problem is planted with plain git plumbing, so git itself vouches that
# Git 2.x takes it: hash-object -w writes commits and tags whose tree/parent/object
# headers are uppercase, and refs, packed-refs, reflogs, shallow and FETCH_HEAD are files
# git reads with the same mixed-case parser.
#
#   make_clean DIR FORMAT     history, branches, annotated and lightweight tags, packed
#                             refs, objects partly packed and partly loose
#   make_planted DIR FORMAT   make_clean plus uppercase IDs everywhere git 2.x allows them;
#                             writes DIR.expect (the findings audit must print) and
#                             DIR.objects (the planted commits and tags)
#   make_broken DIR FORMAT    make_clean plus invalid hex, wrong lengths and the areas a
#                             git 2.39 repository has no files for (commit-graph and
#                             multi-pack-index chains); writes DIR.expect. git fsck is not
#                             asked about this one: some of it git rejects too.
#   check_findings EXPECT GOT audit finding lines GOT (in order) against EXPECT; prints
#                             "#" lines for each difference; returns 1 if any
#
# An EXPECT line is PREFIX<TAB>CLASS<TAB>WORD: the finding must start with PREFIX, go on
# with "CLASS: " and a message holding WORD (any case). A PREFIX ending in "*" leaves the
# column open (a line of the wrong length: where the error is reported is the command's
# choice).
# shellcheck shell=sh

planted_areas="refs packed-refs reflogs shallow fetch-head commit-graph-chain midx-chain loose-objects pack-objects"

up() { echo "$1" | tr a-f A-F; }
# git_dir DIR: where a work tree made here keeps its repository.
git_dir() { echo "$1/.git"; }
# Fixed identities and dates: the same planted text gives the same IDs on every run.
p_ident="hexoid <hexoid@example.com> 1700000000 +0000"

# A message long enough that a commit carrying it deltifies against another that does:
# pack-objects only tries deltas worth the effort.
long_message() {
	awk 'BEGIN { print "a long message shared by commits"; print "";
		for (i = 1; i <= 60; i++) printf "line %d of a message git will want to store once, as a delta base\n", i }'
}

make_clean() { # make_clean DIR FORMAT
	git_ init -q --object-format="$2" "$1" || return 1
	(
		cd "$1" || exit 1
		export GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000"
		for i in 1 2 3 4 5 6 7 8; do
			echo "content $i" >"f$((i % 3))"
			if [ $i = 4 ]; then
				git_ add -A && long_message | git_ commit -q -F - || exit 1
			else
				git_ add -A && git_ commit -q -m "commit $i" || exit 1
			fi
			case $i in
			3) git_ branch side && git_ tag -a -m "annotated" v1 || exit 1 ;;
			# Half the objects packed, the rest stay loose: both areas get read.
			5) git_ repack -adq || exit 1 ;;
			esac
		done
		git_ tag light
		git_ checkout -q side && echo side >side.txt && git_ add -A && git_ commit -q -m side &&
			git_ checkout -q main && git_ pack-refs --all
	)
}

# obj_loose OID: the loose object's path inside the git directory.
obj_loose() { echo "objects/$(echo "$1" | cut -c1-2)/$(echo "$1" | cut -c3-)"; }

# Append an expected line finding / object finding to $p_expect.
exp_line() { # AREA PATH LINE COL CLASS WORD
	printf '[%s] %s:%s:%s\t%s\t%s\n' "$1" "$2" "$3" "$( [ "$4" = '*' ] && echo '*' || echo "$4: ")" "$5" "$6" >>"$p_expect"
}
exp_obj() { # AREA PATH TYPE OID HEADER LINE COL CLASS WORD
	printf '[%s] %s: %s %s: %s header, line %s, column %s: \t%s\t%s\n' "$@" >>"$p_expect"
}

make_planted() { # make_planted DIR FORMAT
	make_clean "$1" "$2" || return 1
	p_expect=$1.expect p_objects=$1.objects
	: >"$p_expect"
	: >"$p_objects"
	g=$(git_dir "$1")
	if [ "$2" = sha1 ]; then p_hexsz=40; else p_hexsz=64; fi
	(
		cd "$1" || exit 1
		head=$(git rev-parse HEAD) side=$(git rev-parse side) tree=$(git rev-parse HEAD^{tree})
		root=$(git rev-list --max-parents=0 HEAD)
		# The tree ID in uppercase, with the long message: it deltifies against commit 4.
		a=$( { printf 'tree %s\nparent %s\nauthor %s\ncommitter %s\n\n' "$(up "$tree")" "$head" "$p_ident" "$p_ident"
			long_message; echo "uppercase tree"; } | git hash-object -w -t commit --stdin) || exit 1
		# Its second header line, the parent, in uppercase.
		b=$( { printf 'tree %s\nparent %s\nauthor %s\ncommitter %s\n\n' "$tree" "$(up "$a")" "$p_ident" "$p_ident"
			long_message; echo "uppercase parent"; } | git hash-object -w -t commit --stdin) || exit 1
		t=$( { printf 'object %s\ntype commit\ntag up-tag\ntagger %s\n\n' "$(up "$head")" "$p_ident"
			long_message; echo "uppercase object"; } | git hash-object -w -t tag --stdin) || exit 1
		# A merge that carries the tag it merged (git merge of a signed tag does this):
		# the embedded tag's object line is the commit's line 6, its hex at column 17.
		m=$(printf 'tree %s\nparent %s\nparent %s\nauthor %s\ncommitter %s\nmergetag object %s\n type commit\n tag side-tag\n tagger %s\n \n merged\n\nmerge side\n' \
			"$tree" "$head" "$side" "$p_ident" "$p_ident" "$(up "$side")" "$p_ident" |
			git hash-object -w -t commit --stdin) || exit 1
		git_ update-ref refs/heads/up-parent "$b" && git_ update-ref refs/tags/up-tag "$t" &&
			git_ update-ref refs/heads/up-merge "$m" || exit 1
		printf 'commit\t%s\ttree\t1\t6\ncommit\t%s\tparent\t2\t8\ntag\t%s\tobject\t1\t8\ncommit\t%s\tmergetag object\t6\t17\n' \
			"$a" "$b" "$t" "$m" >"$p_objects"
		# Keep the loose files: repack removes them once packed, and they go back after,
		# so each planted object is in both areas.
		mkdir -p "$1.loose"
		for o in $a $b $t $m; do cp "$g/$(obj_loose $o)" "$1.loose/$o" || exit 1; done
		git_ repack -adfq && git_ pack-refs --all || exit 1
		for o in $a $b $t $m; do
			mkdir -p "$(dirname "$g/$(obj_loose $o)")" && cp "$1.loose/$o" "$g/$(obj_loose $o)" || exit 1
		done
		# Files: a loose ref, a packed-refs line, a reflog entry, shallow and FETCH_HEAD.
		up "$head" >"$g/refs/heads/up-loose"
		awk '$2 == "refs/heads/side" { $0 = toupper($1) " " $2 } { print }' "$g/packed-refs" >"$1.tmp" &&
			cat "$1.tmp" >"$g/packed-refs" && rm "$1.tmp"
		awk -v h=$p_hexsz 'NR == 1 { $0 = substr($0, 1, h + 1) toupper(substr($0, h + 2, h)) substr($0, 2 * h + 2) } { print }' \
			"$g/logs/refs/heads/side" >"$1.tmp" &&
			cat "$1.tmp" >"$g/logs/refs/heads/side" && rm "$1.tmp"
		up "$root" >"$g/shallow"
		printf '%s\t\tbranch '"'"'main'"'"' of example\n%s\tnot-for-merge\tbranch '"'"'side'"'"' of example\n' \
			"$head" "$(up "$side")" >"$g/FETCH_HEAD"
	) || return 1
	# What audit must find, in its order: areas as listed, then path, then line/offset.
	exp_line refs refs/heads/up-loose 1 1 git3 uppercase
	exp_line packed-refs packed-refs "$(grep -n ' refs/heads/side$' "$g/packed-refs" | cut -d: -f1)" 1 git3 uppercase
	exp_line reflogs logs/refs/heads/side 1 $((p_hexsz + 2)) git3 uppercase
	exp_line shallow shallow 1 1 git3 uppercase
	exp_line fetch-head FETCH_HEAD 2 1 git3 uppercase
	while IFS='	' read -r ty o hd l c; do
		echo "$(obj_loose "$o")	$ty	$o	$hd	$l	$c"
	done <"$p_objects" | LC_ALL=C sort | while IFS='	' read -r p ty o hd l c; do
		exp_obj loose-objects "$p" "$ty" "$o" "$hd" "$l" "$c" git3 uppercase
	done
	p_pack=$(cd "$g" && ls objects/pack/pack-*.pack)
	git -C "$1" verify-pack -v "$g/${p_pack%.pack}.idx" >"$1.verify" || return 1
	# offsets of the planted objects, for the pack's order
	while IFS='	' read -r ty o hd l c; do
		off=$(awk -v o="$o" '$1 == o { print $5 }' "$1.verify")
		echo "$off	$ty	$o	$hd	$l	$c"
	done <"$p_objects" | sort -n >"$1.offsets"
	while IFS='	' read -r off ty o hd l c; do
		exp_obj pack-objects "$p_pack" "$ty" "$o" "$hd" "$l" "$c" git3 uppercase
	done <"$1.offsets"
}

make_broken() { # make_broken DIR FORMAT
	make_clean "$1" "$2" || return 1
	p_expect=$1.expect
	: >"$p_expect"
	g=$(git_dir "$1")
	if [ "$2" = sha1 ]; then p_hexsz=40; else p_hexsz=64; fi
	(
		cd "$1" || exit 1
		head=$(git rev-parse HEAD) root=$(git rev-list --max-parents=0 HEAD)
		git_ commit-graph write --reachable --split || exit 1
		# Git 2.39 opens the graph file by the chain line's text, so this one git
		# would miss too on a case-sensitive file system; it is still a Git 3.0 error.
		awk '{ print toupper($0) }' "$g/objects/info/commit-graphs/commit-graph-chain" >"$1.tmp" &&
			cat "$1.tmp" >"$g/objects/info/commit-graphs/commit-graph-chain" && rm "$1.tmp"
		# git 2.39 writes no incremental multi-pack-index; the chain file is made by hand.
		mkdir -p "$g/objects/pack/multi-pack-index.d"
		up "$head" >"$g/objects/pack/multi-pack-index.d/multi-pack-index-chain"
		# Invalid hex at column 10; a line one digit short.
		echo "$head" | awk '{ print substr($0, 1, 9) "z" substr($0, 11) }' >"$g/refs/heads/bad"
		echo "$head" | cut -c2- >"$g/refs/tags/short"
		# The peeled line of the annotated tag in uppercase: its hex starts at column 2.
		awk '/^\^/ { $0 = "^" toupper(substr($0, 2)) } { print }' "$g/packed-refs" >"$1.tmp" &&
			cat "$1.tmp" >"$g/packed-refs" && rm "$1.tmp"
		# logs/HEAD line 2: an 'x' in the new ID.
		awk -v c=$((p_hexsz + 6)) 'NR == 2 { $0 = substr($0, 1, c - 1) "x" substr($0, c + 1) } { print }' \
			"$g/logs/HEAD" >"$1.tmp" && cat "$1.tmp" >"$g/logs/HEAD" && rm "$1.tmp"
		{ echo "$root"; echo "$head" | awk '{ print substr($0, 1, 2) "g" substr($0, 4) }'; } >"$g/shallow"
	) || return 1
	exp_line refs refs/heads/bad 1 10 error "invalid hex"
	exp_line refs refs/tags/short 1 '*' error ""
	exp_line packed-refs packed-refs "$(grep -n '^\^' "$g/packed-refs" | cut -d: -f1)" 2 git3 uppercase
	exp_line reflogs logs/HEAD 2 $((p_hexsz + 6)) error "invalid hex"
	exp_line shallow shallow 2 3 error "invalid hex"
	exp_line commit-graph-chain objects/info/commit-graphs/commit-graph-chain 1 1 git3 uppercase
	exp_line midx-chain objects/pack/multi-pack-index.d/multi-pack-index-chain 1 1 git3 uppercase
}

check_findings() { # check_findings EXPECT GOT
	awk -F '\t' '
		NR == FNR { pre[NR] = $1; cls[NR] = $2; word[NR] = $3; n = NR; next }
		{
			m++
			if (m > n) { printf "#   unexpected: %s\n", $0; bad++; next }
			p = pre[m]; line = $0; open = 0
			if (substr(p, length(p)) == "*") { p = substr(p, 1, length(p) - 1); open = 1 }
			if (substr(line, 1, length(p)) != p) { printf "#   want: %s...\n#    got: %s\n", p, line; bad++; next }
			rest = substr(line, length(p) + 1)
			if (open && !sub(/^[0-9]+: /, "", rest)) { printf "#   no column: %s\n", line; bad++; next }
			if (substr(rest, 1, length(cls[m]) + 2) != cls[m] ": ") { printf "#   want class %s: %s\n", cls[m], line; bad++; next }
			if (word[m] != "" && index(tolower(rest), tolower(word[m])) == 0) { printf "#   message lacks \"%s\": %s\n", word[m], line; bad++ }
		}
		END {
			for (i = m + 1; i <= n; i++) { printf "#   missing: %s\n", pre[i]; bad++ }
			exit bad > 0
		}' "$1" "$2"
}
