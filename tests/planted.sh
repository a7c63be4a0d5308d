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
#   in_offset_order FILE VERIFY  the pack findings in FILE come in offset order
#   threads_work REPO         whether hexoid audit --jobs 2 REPO finishes (see below)
#   flip FILE OFFSET [MASK]   invert the bits of MASK (all by default) of one byte
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

# Where a finding's column is the start of the ID or its first bad digit is the command's
# choice: every ID planted here begins with a letter, or its bad digit, so both agree.
# letter_led TYPE COMMAND ARGS...: write the object COMMAND ARGS N prints, for the first
# N = 0, 1, ... whose ID starts with a-f; print its ID.
letter_led() {
	l_type=$1
	shift
	l_n=0
	while [ $l_n -lt 100 ]; do
		l_o=$("$@" $l_n | git hash-object -t "$l_type" --stdin) || return 1
		case $l_o in [a-f]*)
			"$@" $l_n | git hash-object -w -t "$l_type" --stdin
			return
			;;
		esac
		l_n=$((l_n + 1))
	done
	return 1
}
# commit_text TREE PARENT NOTE N: a commit with the long message (so it deltifies against
# commit 4 of make_clean), the tree and parent fields as given.
commit_text() {
	printf 'tree %s\nparent %s\nauthor %s\ncommitter %s\n\n' "$1" "$2" "$p_ident" "$p_ident"
	long_message
	echo "$3"
	[ "$4" = 0 ] || echo "attempt $4"
}
# tree_text BLOB N: a tree of one file; git mktree's input.
tree_text() { printf '100644 blob %s\tfile-%d\n' "$1" "$2"; }
letter_tree() { # letter_tree BLOB
	l_n=0
	while [ $l_n -lt 100 ]; do
		l_t=$(tree_text "$1" $l_n | git mktree) || return 1
		case $l_t in [a-f]*) echo "$l_t" && return ;; esac
		l_n=$((l_n + 1))
	done
	return 1
}
# replace_line FILE LINE AWK-EXPRESSION: line LINE of FILE becomes the expression's value
# ($0 is the line; h the hex size), in place.
replace_line() {
	awk -v l="$2" -v h="$p_hexsz" "NR == l { \$0 = $3 } { print }" "$1" >"$1.new" &&
		cat "$1.new" >"$1" && rm "$1.new"
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
		# a: its tree ID in uppercase. Every other uppercase ID planted is a's own.
		utree=$(letter_tree "$(git rev-parse HEAD:f1)") || exit 1
		a=$(letter_led commit commit_text "$(up "$utree")" "$head" "uppercase tree") || exit 1
		A=$(up "$a")
		# b: its second header line, the parent, in uppercase.
		b=$(commit_text "$tree" "$A" "uppercase parent" 0 | git hash-object -w -t commit --stdin) || exit 1
		t=$( { printf 'object %s\ntype commit\ntag up-tag\ntagger %s\n\n' "$A" "$p_ident"
			long_message; echo "uppercase object"; } | git hash-object -w -t tag --stdin) || exit 1
		# A merge that carries the tag it merged (git merge of a signed tag does this):
		# the embedded tag's object line is the commit's line 6, its hex at column 17.
		m=$(printf 'tree %s\nparent %s\nparent %s\nauthor %s\ncommitter %s\nmergetag object %s\n type commit\n tag a-tag\n tagger %s\n \n merged\n\nmerge a\n' \
			"$tree" "$head" "$a" "$p_ident" "$p_ident" "$A" "$p_ident" |
			git hash-object -w -t commit --stdin) || exit 1
		# up-packed: a branch born at a, so its reflog's line 1 names a as the new value.
		git_ update-ref refs/heads/up-parent "$b" && git_ update-ref refs/tags/up-tag "$t" &&
			git_ update-ref refs/heads/up-merge "$m" && git_ update-ref refs/heads/up-packed "$a" || exit 1
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
		echo "$A" >"$g/refs/heads/up-loose"
		replace_line "$g/packed-refs" "$(grep -n ' refs/heads/up-packed$' "$g/packed-refs" | cut -d: -f1)" \
			'toupper(substr($0, 1, h)) substr($0, h + 1)' &&
			replace_line "$g/logs/refs/heads/up-packed" 1 \
				'substr($0, 1, h + 1) toupper(substr($0, h + 2, h)) substr($0, 2 * h + 2)' || exit 1
		echo "$A" >"$g/shallow"
		printf '%s\t\tbranch '"'"'main'"'"' of example\n%s\tnot-for-merge\tbranch '"'"'up-packed'"'"' of example\n' \
			"$head" "$A" >"$g/FETCH_HEAD"
	) || return 1
	# What audit must find, in its order: areas as listed, then path, then line/offset.
	exp_line refs refs/heads/up-loose 1 1 git3 uppercase
	exp_line packed-refs packed-refs "$(grep -n ' refs/heads/up-packed$' "$g/packed-refs" | cut -d: -f1)" 1 git3 uppercase
	exp_line reflogs logs/refs/heads/up-packed 1 $((p_hexsz + 2)) git3 uppercase
	exp_line shallow shallow 1 1 git3 uppercase
	exp_line fetch-head FETCH_HEAD 2 1 git3 uppercase
	while IFS='	' read -r ty o hd l c; do
		echo "$(obj_loose "$o")	$ty	$o	$hd	$l	$c"
	done <"$p_objects" | LC_ALL=C sort | while IFS='	' read -r p ty o hd l c; do
		exp_obj loose-objects "$p" "$ty" "$o" "$hd" "$l" "$c" git3 uppercase
	done
	p_pack=$(cd "$g" && ls objects/pack/pack-*.pack)
	git -C "$1" verify-pack -v "$g/${p_pack%.pack}.idx" >"$1.verify" || return 1
	# The pack's findings come in the order of the objects' offsets.
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
		head=$(git rev-parse HEAD) tree=$(git rev-parse HEAD^{tree})
		# An annotated tag of a letter-led commit, for an uppercase peeled line.
		l=$(letter_led commit commit_text "$tree" "$head" "letter-led") &&
			git_ tag -a -m "of a letter-led commit" vb "$l" && git_ pack-refs --all || exit 1
		git_ commit-graph write --reachable --split || exit 1
		# Git 2.39 opens the graph file by the chain line's text, so this one git
		# would miss too on a case-sensitive file system; it is still a Git 3.0 error.
		replace_line "$g/objects/info/commit-graphs/commit-graph-chain" 1 'toupper($0)' || exit 1
		# git 2.39 writes no incremental multi-pack-index; the chain file is made by hand.
		mkdir -p "$g/objects/pack/multi-pack-index.d"
		up "$l" >"$g/objects/pack/multi-pack-index.d/multi-pack-index-chain"
		# Not hex; one digit short.
		echo "$head" | sed 's/^./z/' >"$g/refs/heads/bad"
		echo "$head" | cut -c2- >"$g/refs/tags/short"
		# vb's peeled line, after its own, in uppercase: its hex starts at column 2.
		replace_line "$g/packed-refs" $(($(grep -n ' refs/tags/vb$' "$g/packed-refs" | cut -d: -f1) + 1)) \
			'toupper($0)' &&
			replace_line "$g/logs/HEAD" 2 'substr($0, 1, h + 1) "x" substr($0, h + 3)' || exit 1
		{ echo "$head"; echo "$head" | sed 's/^./g/'; } >"$g/shallow"
	) || return 1
	exp_line refs refs/heads/bad 1 1 error "invalid hex"
	exp_line refs refs/tags/short 1 '*' error ""
	exp_line packed-refs packed-refs $(($(grep -n ' refs/tags/vb$' "$g/packed-refs" | cut -d: -f1) + 1)) 2 git3 uppercase
	exp_line reflogs logs/HEAD 2 $((p_hexsz + 2)) error "invalid hex"
	exp_line shallow shallow 2 1 error "invalid hex"
	# The chain names the graph file by its checksum: its first letter may come late.
	exp_line commit-graph-chain objects/info/commit-graphs/commit-graph-chain 1 '*' git3 uppercase
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

# in_offset_order FILE VERIFY: the pack findings in FILE (audit's or verify-pack's lines)
# come in the order of their offsets: "offset N:", or for a header finding its object's
# offset in VERIFY (git verify-pack -v output). Lines with neither are not ordered.
# Prints the offsets seen, in their order.
in_offset_order() {
	awk 'NR == FNR { if (NF >= 5) off[$1] = $5; next }
		{
			o = -1
			if (match($0, /: offset [0-9]+: /))
				o = substr($0, RSTART + 9, RLENGTH - 11) + 0
			else if (match($0, /: (commit|tag) [0-9a-f]+: /)) {
				split(substr($0, RSTART + 2, RLENGTH - 4), w, " ")
				if (w[2] in off) o = off[w[2]] + 0
			}
			if (o < 0) next
			printf "%d ", o
			if (seen && o < last) bad = 1
			last = o; seen = 1
		}
		END { print ""; exit bad }' "$2" "$1"
}

# threads_work REPO: under an emulator (make sets RUN) some qemu-user and glibc pairs hang
# in a dynamically linked program's first pthread_create, whatever the program. There a
# --jobs 2 run on a small repository that does not finish in 10 s (it takes a fraction of
# one) says so, once per script; the tests then skip what needs threads rather than hang.
# Natively it always answers yes: a hang there is hexoid's.
threads_work() {
	if [ -z "${threads_answer:-}" ]; then
		threads_answer=yes
		if [ -n "${RUN:-}" ] && command -v timeout >/dev/null 2>&1; then
			timeout 10 $H audit --no-progress --jobs 2 "$1" >/dev/null 2>&1
			[ $? = 124 ] && threads_answer=no
		fi
	fi
	[ $threads_answer = yes ]
}

# flip FILE OFFSET [MASK]: invert the bits of MASK (all by default) of one byte in place.
flip() {
	f_byte=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "\\$(printf %03o $((f_byte ^ ${3:-255})))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
