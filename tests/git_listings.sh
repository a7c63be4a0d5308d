#!/bin/sh
# hexoid verify on what the installed git prints, every format and shape, in SHA-1 and
# SHA-256 repositories made here, and by the Git 3.0 build (when there is one) the shapes
# that come from commands rather than from files, (merges, an octopus, tags, a submodule, notes, a partial
# clone, a bundle): each listing is valid with its format's name and with auto; then an
# uppercase digit, and in another copy a 'G', planted in its first, middle and last
# records (by tests/plant_all.awk) are reported at their exact LINE:COL, and nothing else, with
# the format given and with auto; so is a '-' in one (a byte that is no letter, where an
# ID may be told from a path by its shape). Prints "ok N - ..." / "not ok N - ...". Needs: HEXOID.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/direct.sh"
gitprog=git
git_() { "$gitprog" -c user.name=hexoid -c user.email=hexoid@example.com -c init.defaultBranch=main \
	-c protocol.file.allow=always -c uploadpack.allowFilter=true -c advice.detachedHead=false \
	-c gc.auto=0 -c maintenance.auto=false "$@"; }

# The repository, its submodule, a clone with FETCH_HEAD, a partial clone.
make_repo() { # make_repo HASH DIR
	set -e
	git_ init -q --object-format=$1 "$2.sub"
	echo s >"$2.sub/s" && git_ -C "$2.sub" add s && git_ -C "$2.sub" commit -q -m sub
	git_ init -q --object-format=$1 "$2"
	cd "$2"
	for i in 1 2 3 4 5 6; do
		mkdir -p "d $i" && echo "$i" >"d $i/f $i" && echo "$i" >top
		git_ add -A && git_ commit -q -m "c $i"
	done
	# Named like IDs: a file (also the first entry of a tree of its own) of hexsz-1
	# hex digits and a 'g', and a tag of hexsz letters. They are paths, not IDs.
	if [ $1 = sha1 ]; then k=40; else k=64; fi
	idish=$(printf '%s' 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef |
		cut -c1-$((k - 1)))g
	mkdir h && echo h >"h/$idish" && echo t >"$idish" && git_ add -A && git_ commit -q -m idish
	# And a file named with hexsz hex digits in uppercase: a path, not a delta base.
	mkdir u && echo u >"u/$(printf '%s' 0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF | cut -c1-$k)"
	git_ add -A && git_ commit -q -m upper
	git_ tag -a -m t "$(printf '%s' abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl |
		cut -c1-$k)"
	for b in x y z; do
		git_ checkout -q -b $b main~2 && echo $b >$b && git_ add $b && git_ commit -q -m $b
	done
	# Two branches whose merge conflicts: merge-tree.
	git_ checkout -q -b c1 main~2 && echo one >top && git_ commit -qam c1
	git_ checkout -q -b c2 main~2 && echo two >top && git_ commit -qam c2
	git_ checkout -q main
	git_ merge -q --no-edit x
	git_ merge -q --no-edit y z # an octopus
	# A side branch with x cherry-picked: rev-list's marks, git cherry.
	git_ checkout -q -b w x~1 && echo w >w && git_ add w && git_ commit -q -m w
	git_ cherry-pick x >/dev/null && git_ checkout -q main
	git_ tag -a -m a v1 && git_ tag light main~1
	git_ submodule -q add "$2.sub" sm && git_ commit -q -m sm
	git_ notes add -m note HEAD && git_ notes add -m note2 HEAD~1
	# fsck's lines: a dangling blob, a dangling commit.
	echo dangling | git_ hash-object -w --stdin >/dev/null
	git_ commit-tree -m loose "$(git_ rev-parse HEAD^{tree})" >/dev/null
	git_ worktree add -q --detach "$2.wt" main~1 && git_ worktree add -q -b wt "$2.wt2" main~2
	git_ worktree lock --reason 'on a stick' "$2.wt2"
	git_ clone -q "file://$2" "$2.clone" && git_ -C "$2.clone" fetch -q origin
	git_ clone -q --no-local --filter=blob:none "file://$2" "$2.partial"
	# A copy with a blob gone (its loose object), for --missing=print and fsck.
	cp -R "$2" "$2.missing"
	rm "$2.missing/.git/objects/$(git_ rev-parse main:top | sed 's|^\(..\)|\1/|')"
}

# The listings: "FORMAT NAME" a line, NAME a file in $L.
listings() { # listings HASH DIR L
	r=$2 L=$3
	cd "$r"
	g() { # g NAME FORMAT GIT-ARGS...: git's stdout into $L/NAME
		name=$1 f=$2
		shift 2
		# (under the Git 3.0 build, only the listings checked for it: the others
		# would be printed to be dropped)
		if [ "$gitprog" != git ]; then
			case " $git3_names " in *" $name "*) ;; *) return 1 ;; esac
		fi
		git_ "$@" >"$L/$name" && echo "$f $name"
	}
	g oids oids rev-list --all
	g rev-list rev-list rev-list --all
	g rev-list-objects rev-list rev-list --objects --all
	g rev-list-objects-tree rev-list rev-list --objects "$(git_ rev-parse main:h)"
	g rev-list-boundary rev-list rev-list --objects --boundary main~1 ^x --
	g rev-list-edge rev-list rev-list --objects-edge main ^main~2
	g rev-list-parents rev-list rev-list --parents --all
	g rev-list-children rev-list rev-list --children --all
	g rev-list-boundary-parents rev-list rev-list --boundary --parents main ^main~3
	g log-parents rev-list log --format='%H %P' --all
	g log-trees rev-list log --format='%H %T' --all
	# A root commit's empty %P: the line ends in a space (first here), or two spaces.
	g log-tree-parents rev-list log --reverse --format='%H %T %P' main
	g log-parents-tree rev-list log --reverse --format='%H %P %T' main
	g left-right rev-list rev-list --left-right w...x
	g cherry-mark rev-list rev-list --cherry-mark --boundary --parents w...main
	g cherry-pick rev-list rev-list --cherry-pick --left-right w...main
	g cherry-only rev-list rev-list --cherry w...main
	g left-right-objects rev-list rev-list --left-right --objects w...x
	g filter-objects rev-list rev-list --objects --filter=blob:none --filter-print-omitted --all
	g cherry cherry cherry x w
	g cherry-v cherry cherry -v main w
	g pack-objects pack-objects rev-list --objects --boundary main ^x --
	# Records that span lines.
	g log-pretty-raw pretty-raw log --pretty=raw --all
	g rev-list-pretty-raw pretty-raw rev-list --pretty=raw --parents main
	g cat-file-commit pretty-raw cat-file -p main
	g cat-file-tag pretty-raw cat-file -p v1
	g rev-list-format rev-list-format rev-list --format=%s --all
	g rev-list-format-ids rev-list-format rev-list --parents --format=%T%n%an main
	# The marks before a commit's ID: rev-list's "commit ><oid>", log's "commit > <oid>";
	# a root commit's '%H %P' (a line that ends in a space), notes after a message.
	g rev-list-format-marks rev-list-format rev-list --left-right --boundary --format='%H %P' w...x
	g rev-list-format-cherry rev-list-format rev-list --cherry-mark --format=%T%n%s w...main
	g rev-list-format-root rev-list-format rev-list --format='%H %P' main
	g log-pretty-raw-marks pretty-raw log --pretty=raw --left-right --boundary w...x
	g rev-list-pretty-raw-marks pretty-raw rev-list --pretty=raw --cherry-mark --boundary w...main
	g log-pretty-raw-notes pretty-raw log --pretty=raw --notes main
	# A commit whose message has lines like a commit's headers (an uppercase ID, one with a
	# 'g'): cat-file -p prints them as they are after its blank line, where they are no
	# headers; log --pretty=raw indents them, and the record after it is read.
	up=$(git_ rev-parse main | tr a-f A-F)
	msg=$(printf 'commit %s\n\n    commit %s\n\ncommit %sg\ntree %s' "$up" "$up" \
		"$(git_ rev-parse main~1 | cut -c2-)" "$up")
	odd=$(git_ commit-tree -p main -m "$msg" "main^{tree}")
	g cat-file-message pretty-raw cat-file -p "$odd"
	g log-message pretty-raw log --pretty=raw -2 "$odd"
	g log-raw diff-raw log --raw --no-abbrev --format=%H --all
	g blame blame blame --porcelain top
	g blame-line blame blame --line-porcelain top
	g worktrees worktrees worktree list --porcelain
	g log-graph graph log --graph --format=%H --all
	# (Not the notes: their paths are the IDs of the commits they annotate.)
	refs=$(git_ for-each-ref --format='%(refname)' refs/heads refs/tags)
	g fast-export fast-export fast-export --show-original-ids $refs
	g fast-export-nodata fast-export fast-export --show-original-ids --no-data $refs
	g log-graph-parents graph log --graph --format='%H %P' --all
	g log-h-tab-p id-fields log --format=%H%x09%P --all
	g peeled-only id-fields for-each-ref --format='%(*objectname)'
	git_ merge-tree --write-tree c1 c2 >"$L/merge-tree"; echo "merge-tree merge-tree"
	git_ merge-tree --write-tree --name-only c1 c2 >"$L/merge-tree-names"; echo "merge-tree merge-tree-names"
	# -z: records ended by NUL, each message's paths, type and text (with its newline);
	# a clean merge; --stdin, a status before each merge and an empty record after it.
	git_ merge-tree --write-tree -z c1 c2 >"$L/merge-tree-z"; echo "merge-tree-z merge-tree-z"
	git_ merge-tree --write-tree -z --name-only c1 c2 >"$L/merge-tree-z-names"
	echo "merge-tree-z merge-tree-z-names"
	g merge-tree-z-clean merge-tree-z merge-tree --write-tree -z --messages c1 x
	printf 'c1 c2\nc1 x\nc2 y\n' | git_ merge-tree --stdin -z >"$L/merge-tree-z-stdin"
	echo "merge-tree-z merge-tree-z-stdin"
	git_ -C "$r.missing" rev-list --objects --missing=print --all >"$L/rev-list-missing" &&
		echo "rev-list rev-list-missing"
	g ls-tree ls-tree ls-tree HEAD
	g ls-tree-r ls-tree ls-tree -r HEAD
	g ls-tree-rt ls-tree ls-tree -r -t HEAD
	g ls-tree-d ls-tree ls-tree -d HEAD
	g ls-tree-long ls-tree ls-tree -r -l HEAD
	(cd "d 1" && git_ ls-tree --full-tree -r HEAD >"$L/ls-tree-full" && echo "ls-tree ls-tree-full")
	g ls-tree-z ls-tree-z ls-tree -r -z HEAD
	g ls-tree-zl ls-tree-z ls-tree -z -l HEAD
	g ls-files ls-files ls-files --stage
	g ls-files-z ls-files-z ls-files --stage -z
	g ls-remote ls-remote ls-remote .
	g show-ref show-ref show-ref
	g show-ref-d show-ref show-ref -d --head
	g for-each-ref for-each-ref for-each-ref
	g diff-tree diff-raw diff-tree -r --no-abbrev main~4 main
	git_ rev-list --all | git_ diff-tree --stdin -r --root -m --no-abbrev >"$L/diff-tree-stdin" &&
		echo "diff-raw diff-tree-stdin"
	g diff-tree-combined diff-raw diff-tree -r -c --no-abbrev main~1
	echo change >top && echo staged >x && git_ add x
	g diff-index diff-raw diff-index --raw --no-abbrev HEAD
	g diff-files diff-raw diff-files --raw --no-abbrev
	git_ checkout -q HEAD -- top x
	{ git_ rev-parse HEAD HEAD~1 v1 HEAD:top; echo nosuch; } |
		g batch-check batch-check cat-file --batch-check
	g batch-all batch-check cat-file --batch-all-objects --batch-check
	git_ rev-list --objects --all |
		g batch-rest batch-check cat-file --batch-check='%(objectname) %(objecttype) %(rest)'
	git_ rev-list --objects --all |
		g batch-size-rest batch-check cat-file --batch-check='%(objectname) %(objecttype) %(objectsize) %(rest)'
	g fsck fsck fsck --unreachable --dangling --root --tags --no-progress
	git_ -C "$r.missing" fsck --no-progress --no-dangling >"$L/fsck-missing" 2>/dev/null
	echo "fsck fsck-missing"
	g marks-in marks fast-export --all --export-marks="$L/marks" >/dev/null && echo "marks marks"
	g bundle bundle bundle create - --all 2>/dev/null
	g bundle-prereq bundle bundle create - main~2..main 2>/dev/null
	g bundle-v3 bundle bundle create --version=3 - --all 2>/dev/null
	git_ pack-refs --all
	cp .git/packed-refs "$L/packed-refs" && echo "packed-refs packed-refs"
	cp .git/logs/HEAD "$L/reflog" && echo "reflog reflog"
	cp "$r.clone/.git/FETCH_HEAD" "$L/fetch-head" && echo "fetch-head fetch-head"
	cp "$(ls "$r.partial"/.git/objects/pack/*.promisor)" "$L/promisor" && echo "promisor promisor"
	git_ repack -q -adf
	idx=$(ls .git/objects/pack/*.idx)
	g show-index show-index show-index --object-format=$1 <"$idx"
	g verify-pack verify-pack verify-pack -v "$idx"
	g batch-deltas batch-check cat-file --batch-all-objects \
		--batch-check='%(objectname) %(objecttype) %(objectsize) %(objectsize:disk) %(deltabase)'
	# Replace refs (after the listings above, which they would change) and peeled tags.
	git_ replace main~3 main~4 && git_ replace main~5 main~6 && git_ replace x y
	g submodule-status submodule-status submodule status
	(cd sm && git_ commit -q --allow-empty -m more) && g submodule-plus submodule-status submodule status
	g replace-short oids replace -l
	g replace-medium replace replace -l --format=medium
	g replace-long replace replace -l --format=long
	g ref-peeled ref-peeled for-each-ref --format='%(objectname) %(*objectname) %(refname)' \
		refs/heads refs/tags # (not refs/replace: its names hold IDs)
}

# The header of a bundle (through its blank line).
bundle_header() { sed -n '1,/^$/p' "$1"; }

# Each listing is checked by few processes: tests/plant_all.awk plants the IDs of every
# listing in one run, hexoid verify reads many files a run (one run for each set of
# options), and tests/listing_judge.awk tells the files apart by the names its reports
# carry and judges every case. Files are added to a run by "member KEY FILE" (KEY is
# "ROUND:OPTIONS"), and each case is a line of $tmp/cases (see listing_judge.awk).
plant_all=$(dirname "$0")/plant_all.awk
judge_awk=$(dirname "$0")/listing_judge.awk
member() { printf '%s\t%s\n' "$1" "$2" >>"$tmp/members"; }
case_() { # case_ KIND NAME FIELDS...: a line of tab-separated fields
	c_line=$1
	shift
	for c_f in "$@"; do c_line="$c_line	$c_f"; done
	printf '%s\n' "$c_line" >>"$tmp/cases"
}
# run KEY FILE...: hexoid verify with KEY's options over the files; its status and stderr
# for the judge.
run_k=0
run() {
	run_k=$((run_k + 1))
	r_opts=${1#*:}
	r_key=$1
	shift
	$H verify $r_opts "$@" >/dev/null 2>"$tmp/run.$run_k.err"
	printf '%s\t%s\t%s\n' "$r_key" $? "$tmp/run.$run_k.err" >>"$tmp/runs"
}
# run_all: every run the members name, then the judge's lines as TAP lines.
run_all() {
	: >"$tmp/runs"
	awk -F '\t' -v q="'" '!($1 in at) { at[$1] = ++n; key[n] = $1 }
		{ args[at[$1]] = args[at[$1]] " " q $2 q }
		END { for (i = 1; i <= n; i++) print "run " q key[i] q args[i] }' "$tmp/members" >"$tmp/runs.sh"
	. "$tmp/runs.sh"
	awk -v hexsz=$hexsz -f "$judge_awk" "$tmp/runs" "$tmp/cases" >"$tmp/judged"
	while IFS= read -r j_line; do
		case $j_line in
		"ok "*) pass "${j_line#ok }" ;;
		"not ok "*) fail "${j_line#not ok }" ;;
		*) echo "$j_line" ;;
		esac
	done <"$tmp/judged"
}

# The outputs of other commands, "NAME GIT-ARGS..." a line: what auto makes of them is
# the rule, not a list of formats. (Not rev-list --objects: the notes tree names its
# entries by IDs, and paths are not checked.)
others() { # others DIR L
	cd "$1"
	while read -r name args; do
		eval "git_ $args" >"$2/$name" 2>/dev/null && [ -s "$2/$name" ] && echo "$name"
	done <<-'EOF'
	log log main
	log-subject log --format='%H %s' --all
	refname-first for-each-ref --format='%(refname) %(objectname)'
	count rev-list --count --all
	rev-parse rev-parse --all
	merge-base merge-base --all main x
	name-rev name-rev --all
	notes-list notes list
	reflog-show reflog --no-abbrev
	branch-v branch -v --no-abbrev
	describe describe --long --all main
	ls-tree-names ls-tree --name-only -r main
	ls-tree-format ls-tree -r --format='%(objectname) %(path)' main
	batch-names cat-file --batch-all-objects --batch-check='%(objectname)'
	no-object-names rev-list --objects --no-object-names --all
	ref-tab-name for-each-ref --format='%(objectname)%09%(refname)'
	log-email log --format='%H %ae' --all
	rev-list-format-body rev-list --format=%B --all
	show-raw show --raw --no-abbrev --format=%H main~1
	log-patch log -p -2 main
	whatchanged log --raw --no-abbrev -3 main
	EOF
}

# rule NAME FILE FIRST: auto either takes the output (exit 0), and then finds an uppercase
# digit and a 'G' planted in its first, middle and last records at their LINE:COL, or says
# once that it cannot tell what the output is (exit 2), and then --format=text does (where
# no path looks like a broken ID). Never a report on valid output. (Both runs read every
# file and its planted copies; the judge picks the one auto's answer calls for.)
rule() {
	printf '%s\t%s\t%s\tupper nonhex\n' "$3" "$2" "$2" >>"$tmp/ctl"
	for r_f in "$2" "$2.upper" "$2.nonhex"; do member 1: "$r_f" && member 1:--format=text "$r_f"; done
	case_ rule "$1" 1: "$2" 1:--format=text
}

# abbrev NAME FORMAT FILE COL: each line is reported once, as abbreviated, at COL, with the
# format given and with auto.
abbrev() {
	for a_f in $2 auto; do
		member "1:--format=$a_f" "$3"
		case_ abbrev "$1" "1:--format=$a_f" "$3" "$4" "$a_f"
	done
}

srcdir=$(cd "$(dirname "$0")/.." && pwd)
g3=$srcdir/../shared/tools/git3/git
# What the Git 3.0 build prints is checked for these listings (its other outputs are the
# installed git's, or files).
git3_names=' log-pretty-raw rev-list-pretty-raw cat-file-commit cat-file-tag rev-list-format
 rev-list-format-ids log-raw blame blame-line worktrees log-graph log-graph-parents log-h-tab-p
 peeled-only merge-tree merge-tree-names merge-tree-z merge-tree-z-names merge-tree-z-clean
 merge-tree-z-stdin rev-list-format-marks rev-list-format-cherry rev-list-format-root
 log-pretty-raw-marks rev-list-pretty-raw-marks log-pretty-raw-notes cat-file-message log-message fast-export fast-export-nodata log-parents log-tree-parents log-parents-tree rev-list-parents left-right cherry-mark
 cherry-pick cherry-only left-right-objects filter-objects cherry cherry-v replace-medium
 replace-long ref-peeled submodule-status submodule-plus'
git3_names=$(echo $git3_names)
for prog in git git3; do
if [ $prog = git3 ]; then
	if ! [ -x "$g3" ]; then skip "the Git 3.0 build's listings" "skipped: no $g3"; continue; fi
	git3_direct
	gitprog=$g3
fi
for fmt in sha1 sha256; do
	if [ $fmt = sha1 ]; then hexsz=40; else hexsz=64; fi
	r=$tmp/$prog-repo-$fmt L=$tmp/$prog-$fmt
	mkdir -p "$L"
	if ! (make_repo $fmt "$r") >"$tmp/git.log" 2>&1; then
		fail "$fmt: git cannot make the repositories"
		sed 's/^/#   /' "$tmp/git.log" | tail -3
		continue
	fi
	(listings $fmt "$r" "$L") >"$tmp/list" 2>"$tmp/git.log" || true
	if [ $prog = git3 ]; then
		while read -r f name; do
			case " $git3_names " in *" $name "*) echo "$f $name" ;; esac
		done <"$tmp/list" >"$tmp/list3"
		mv "$tmp/list3" "$tmp/list"
		want=45
	else
		want=92
	fi
	nlist=0
	while read -r f name; do nlist=$((nlist + 1)); done <"$tmp/list"
	[ $nlist -ge $want ] && pass "$prog $fmt: git printed $nlist listings" ||
		{ fail "$prog $fmt: git printed only $nlist listings: $(awk '{ print $2 }' "$tmp/list" | tr '\n' ' ')"; sed 's/^/#   /' "$tmp/git.log" | tail -3; }
	[ $prog = git3 ] && fmt="git3 $fmt"
	: >"$tmp/cases"
	: >"$tmp/members"
	: >"$tmp/ctl"
	: >"$tmp/post"
	# Each listing: valid with its format and with auto; an uppercase digit, a 'G' and a
	# '-' planted in its first, middle and last records (tests/plant_all.awk's rules) found at
	# their LINE:COL, and nothing else, with the format given and with auto; the
	# uppercase accepted with --mixed.
	while read -r f name; do
		file=$L/$name
		if ! [ -s "$file" ]; then
			case_ fail "$fmt $name: git printed nothing"
			continue
		fi
		# In rev-list --objects, what follows the first ID is a path, hex or not (the
		# notes tree names its blobs by the IDs of the commits they annotate): only
		# first IDs are planted.
		case $file in
		*-objects | *-objects-tree | *-boundary | *-edge | *-missing | */pack-objects | *-rest) first=1 ;;
		*) first=0 ;;
		esac
		case $f in
		# Records ended by NUL, a newline in one (merge-tree's messages) kept as \001.
		*-z) tr '\0\n' '\n\001' <"$file" >"$file.nl" && out=$file.nl && echo "z $file" >>"$tmp/post" ;;
		bundle) bundle_header "$file" >"$file.head" && out=$file.head && echo "bundle $file" >>"$tmp/post" ;;
		*) out=$file ;;
		esac
		printf '%s\t%s\t%s\tupper nonhex punct\n' $first "$out" "$out" >>"$tmp/ctl"
		member "1:--format=$f" "$file"
		member 1:--format=auto "$file"
		case_ clean "$fmt $name: valid as --format=$f" "1:--format=$f" "$file"
		case_ clean "$fmt $name: valid with auto" 1:--format=auto "$file"
		for mode in upper nonhex punct; do
			member "1:--format=$f" "$file.$mode"
			member 1:--format=auto "$file.$mode"
			case_ found "$fmt $name: $mode at %W--format=$f" "1:--format=$f" "$file.$mode" "$out.$mode.want" $mode \
				"$fmt $name: nothing to plant ($mode)"
			case_ found "$fmt $name: $mode, auto" 1:--format=auto "$file.$mode" "$out.$mode.want" $mode ""
		done
		member "1:--format=$f --mixed" "$file.upper"
		case_ clean "$fmt $name: --mixed accepts the uppercase" "1:--format=$f --mixed" "$file.upper"
	done <"$tmp/list"

	# The rule for auto, on outputs no format was made for.
	(others "$r" "$L") >"$tmp/others" 2>"$tmp/git.log"
	nothers=0 others_names=
	while read -r name; do nothers=$((nothers + 1)) others_names="$others_names$name "; done <"$tmp/others"
	[ $nothers -ge 12 ] && case_ pass "$fmt: git printed $nothers other outputs" ||
		case_ fail "$fmt: git printed only $others_names"
	while read -r name; do
		first=0
		case $name in name-rev | ref-tab-name) first=1 ;; esac # a name may hold an ID: refs/replace/<oid>
		rule "$fmt $name" "$L/$name" $first
	done <"$tmp/others"

	# Abbreviated IDs, wherever they stand: one message, which names --no-abbrev.
	git_ -C "$r" show-ref --hash=12 >"$L/show-ref-hash"
	abbrev "$fmt show-ref --hash=12" oids "$L/show-ref-hash" 1
	git_ -C "$r" ls-files --stage --abbrev >"$L/ls-files-abbrev"
	abbrev "$fmt ls-files --stage --abbrev" ls-files "$L/ls-files-abbrev" 8
	git_ -C "$r" rev-list --abbrev-commit --abbrev=9 --all >"$L/rev-list-abbrev"
	abbrev "$fmt rev-list --abbrev-commit" rev-list "$L/rev-list-abbrev" 1
	git_ -C "$r" log --oneline --all >"$L/log-oneline"
	abbrev "$fmt log --oneline" rev-list "$L/log-oneline" 1
	git_ -C "$r" diff-tree -r --abbrev main~4 main >"$L/diff-abbrev"
	abbrev "$fmt diff-tree --abbrev" diff-raw "$L/diff-abbrev" 16
	git_ -C "$r" ls-tree --abbrev=10 main >"$L/ls-tree-abbrev"
	abbrev "$fmt ls-tree --abbrev" ls-tree "$L/ls-tree-abbrev" 13

	# Plant every listing's IDs, put the records ended by NUL back and a bundle's pack
	# after its planted header, run hexoid, judge.
	awk -v hexsz=$hexsz -f "$plant_all" "$tmp/ctl"
	while read -r kind file; do
		if [ $kind = z ]; then
			for mode in upper nonhex punct; do tr '\n\001' '\0\n' <"$file.nl.$mode" >"$file.$mode"; done
		else
			tail -c +$(($(wc -c <"$file.head") + 1)) "$file" >"$file.pack"
			for mode in upper nonhex punct; do cat "$file.head.$mode" "$file.pack" >"$file.$mode"; done
		fi
	done <"$tmp/post"
	run_all

	[ $prog = git3 ] && continue

	# The abbreviated IDs of git diff --raw (without --no-abbrev) say what to do.
	git -C "$r" diff-tree -r main~4 main --abbrev >"$L/abbrev"
	$H verify --format=diff-raw "$L/abbrev" >/dev/null 2>"$tmp/err"
	judge "$fmt: abbreviated diff --raw IDs" 1 ":1:16: error: abbreviated object ID: 7 hex digits" $?
	grep -q -- "--no-abbrev" "$tmp/err" && pass "$fmt: the report names --no-abbrev" ||
		fail "$fmt: the report lacks --no-abbrev"
	# A bundle's pack is not text; one that is cut off, or lacks its pack, is reported.
	bundle_header "$L/bundle" >"$L/bundle.head"
	$H verify --format=bundle "$L/bundle.head" >/dev/null 2>"$tmp/err"
	judge "$fmt: a bundle without its pack" 1 "error: the bundle ends before its pack" $?
	sed '$d' "$L/bundle.head" >"$L/bundle.noblank"
	$H verify --format=bundle "$L/bundle.noblank" >/dev/null 2>"$tmp/err"
	judge "$fmt: a bundle header with no end" 1 "error: the bundle ends in its header" $?
done
done
exit 0
