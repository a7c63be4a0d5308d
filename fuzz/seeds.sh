#!/bin/sh
# Seed corpora for the fuzz targets, made from real git output: a small SHA-1 and SHA-256
# repository and every listing format git prints for them.
# Usage: fuzz/seeds.sh OUTDIR   (makes OUTDIR/kernels, OUTDIR/listing, OUTDIR/idx,
#                               OUTDIR/pack, OUTDIR/loose, OUTDIR/object and
#                               OUTDIR/reftable: tables made by the Git 3.0 build when
#                               it is at hand, ../shared/tools/git3/git)
set -eu
out=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out/kernels" "$out/listing" "$out/idx" "$out/pack" "$out/loose" "$out/object" "$out/reftable"
git_() { git -c user.name=fuzz -c user.email=fuzz@example.com -c init.defaultBranch=main "$@"; }
for fmt in sha1 sha256; do
	r=$tmp/$fmt
	git_ init -q --object-format=$fmt "$r"
	for i in 1 2 3; do
		echo "$i" >"$r/f$i"
		git_ -C "$r" add -A && git_ -C "$r" commit -q -m "c$i"
	done
	git_ -C "$r" tag -a -m t v1 && git_ -C "$r" pack-refs --all && git_ -C "$r" repack -adq
	idx=$(ls "$r"/.git/objects/pack/*.idx)
	git -C "$r" rev-list --objects --all >"$tmp/rev-list"
	git -C "$r" rev-list --objects --all | cut -d' ' -f1 >"$tmp/oids"
	git -C "$r" cat-file --batch-all-objects --batch-check >"$tmp/batch-check"
	git -C "$r" show-index --object-format=$fmt <"$idx" >"$tmp/show-index"
	git -C "$r" verify-pack -v "$idx" >"$tmp/verify-pack"
	git -C "$r" ls-tree HEAD >"$tmp/ls-tree"
	git -C "$r" for-each-ref >"$tmp/for-each-ref"
	cp "$r/.git/packed-refs" "$tmp/packed-refs"
	cp "$r/.git/logs/HEAD" "$tmp/reflog"
	git -C "$r" rev-list --parents --all >"$tmp/rev-list-parents"
	git -C "$r" ls-files --stage >"$tmp/ls-files"
	git -C "$r" ls-remote "$r" >"$tmp/ls-remote"
	git -C "$r" show-ref -d --head >"$tmp/show-ref"
	git -C "$r" diff-tree -r --root --no-abbrev HEAD~2 HEAD >"$tmp/diff-raw"
	echo x | git -C "$r" hash-object -w --stdin >/dev/null
	git -C "$r" fsck --dangling --root --tags --no-progress >"$tmp/fsck" 2>/dev/null
	cp "$tmp/show-ref" "$tmp/promisor"
	git -C "$r" fast-export --all --export-marks="$tmp/marks" >/dev/null
	git -C "$r" bundle create "$tmp/bundle" --all 2>/dev/null
	git -C "$r" ls-tree -r -z HEAD >"$tmp/ls-tree-z"
	git -C "$r" ls-files --stage -z >"$tmp/ls-files-z"
	# listing: byte 0 picks the format (its index in enum hexoid_format), byte 1 the piece size
	i=1
	for f in oids pack-objects rev-list batch-check show-index verify-pack ls-tree for-each-ref \
		packed-refs fetch-head reflog ls-files ls-remote show-ref diff-raw fsck promisor marks \
		bundle ls-tree-z ls-files-z; do
		src=$tmp/$f
		[ -f "$src" ] || src=$tmp/oids
		{ printf "\\$(printf %03o $i)\\007"; cat "$src"; } >"$out/listing/$fmt-$f"
		{ printf '\000\003'; cat "$src"; } >"$out/listing/$fmt-$f-auto"
		i=$((i + 1))
	done
	{ printf '\003\005'; cat "$tmp/rev-list-parents"; } >"$out/listing/$fmt-rev-list-parents"
	# idx: byte 0 = 0 infer the hash, 1 sha1, 2 sha256; then the .idx, and a v1 one
	{ printf '\000'; cat "$idx"; } >"$out/idx/$fmt-v2"
	git -C "$r" index-pack --index-version=1 -o "$tmp/v1.idx" "${idx%.idx}.pack" >/dev/null
	{ printf '\000'; cat "$tmp/v1.idx"; } >"$out/idx/$fmt-v1"
	# kernels: byte 0 = bit 0 sha256, bit 1 lower, bits 2.. stride extra; lines have stride hexsz+1
	if [ $fmt = sha1 ]; then b0=006; else b0=007; fi
	{ printf "\\$b0"; cat "$tmp/oids"; } >"$out/kernels/$fmt-lines"
	{ printf "\\$b0"; tr -d '\n' <"$tmp/oids"; } >"$out/kernels/$fmt-packed-as-lines"
done

# pack: a 4-byte little-endian index length, the .idx, then the .pack
pack_seed() { # IDX PACK OUT
	n=$(wc -c <"$1")
	printf "\\$(printf %03o $((n & 255)))\\$(printf %03o $((n >> 8 & 255)))\\$(printf %03o $((n >> 16 & 255)))\\$(printf %03o $((n >> 24 & 255)))" >"$3"
	cat "$1" "$2" >>"$3"
}
# Commits and tags, as packs (with deltas: a file growing commit by commit, commits
# alike but for their message), as loose objects, and as text.
for fmt in sha1 sha256; do
	r=$tmp/p$fmt
	git_ init -q --object-format=$fmt "$r"
	i=1
	while [ $i -le 8 ]; do
		seq 1 $((i * 20)) >"$r/grow"
		echo "$i" >"$r/f$((i % 3))"
		git_ -C "$r" add -A && git_ -C "$r" commit -q -m "change $i of a file that grows, with a message long enough to delta"
		i=$((i + 1))
	done
	{ printf '\003\005'; cat "$tmp/rev-list-parents"; } >"$out/listing/$fmt-rev-list-parents"
	git_ -C "$r" checkout -q -b side HEAD~2
	echo side >"$r/side" && git_ -C "$r" add -A && git_ -C "$r" commit -q -m "side branch"
	git_ -C "$r" tag -a -m "annotated tag on the side branch" vside
	git_ -C "$r" checkout -q main
	git_ -C "$r" merge -q --no-ff -m "merge the side branch" side
	long="This tag says a little more, at some length, so that tags are worth a delta: the same words in each, the same words in each, the same words in each."
	git_ -C "$r" tag -a -m "annotated tag v1. $long" v1
	git_ -C "$r" tag -a -m "annotated tag v2. $long" v2 HEAD~1
	git_ -C "$r" tag -a -m "annotated tag v3. $long" v3 HEAD~2
	# A commit and a tag git 3.0 will refuse: uppercase tree and object IDs.
	upc=$(git -C "$r" cat-file commit HEAD | sed -e '1{s/^tree //;y/abcdef/ABCDEF/;s/^/tree /;}' |
		git -C "$r" hash-object -t commit --literally -w --stdin)
	upt=$(git -C "$r" cat-file tag v1 | sed -e '1{s/^object //;y/abcdef/ABCDEF/;s/^/object /;}' |
		git -C "$r" hash-object -t tag --literally -w --stdin)
	# loose: the files themselves (before anything is packed)
	for f in "$r"/.git/objects/??/*; do
		d=$(basename "$(dirname "$f")")
		cp "$f" "$out/loose/$fmt-$d$(basename "$f")"
	done
	# object: byte 0 bit 0 = tag, bit 1 = sha256
	if [ $fmt = sha1 ]; then c=000; t=001; else c=002; t=003; fi
	for rev in HEAD HEAD~1 HEAD~3 side $upc; do
		{ printf "\\$c"; git -C "$r" cat-file commit $rev; } >"$out/object/$fmt-commit-$rev"
	done
	for rev in v1 v2 vside $upt; do
		{ printf "\\$t"; git -C "$r" cat-file tag $rev; } >"$out/object/$fmt-tag-$rev"
	done
	{ printf "\\$c"; git -C "$r" cat-file commit HEAD | sed -e '2s/[a-f]/\U&/'; } >"$out/object/$fmt-commit-upper-parent"
	{ printf "\\$c"; git -C "$r" cat-file commit HEAD | sed -e '1s/.$//'; } >"$out/object/$fmt-commit-short-tree"
	{ printf "\\$c"; git -C "$r" cat-file commit HEAD | sed -e '1s/$/0/'; } >"$out/object/$fmt-commit-long-tree"
	{ printf "\\$c"; git -C "$r" cat-file commit HEAD | sed -e '1s/ \(...\)/ \1g/'; } >"$out/object/$fmt-commit-bad-digit"
	{ printf "\\$c"; git -C "$r" cat-file commit HEAD | head -n 1 | tr -d '\n'; } >"$out/object/$fmt-commit-no-newline"
	{
		printf "\\$c"
		git -C "$r" cat-file commit HEAD | sed -n '1,2p'
		printf 'mergetag object %s\n' "$(git -C "$r" rev-parse side | tr abcdef ABCDEF)"
		git -C "$r" cat-file tag vside | sed -e '1d' -e 's/^/ /'
		printf '\nmerge\n'
	} >"$out/object/$fmt-commit-mergetag-upper"
	# pack: everything, deltas allowed everywhere
	git_ -C "$r" repack -adfq --window=50 --depth=50
	idx=$(ls "$r"/.git/objects/pack/*.idx)
	pack_seed "$idx" "${idx%.idx}.pack" "$out/pack/$fmt-repack"
	# ... and with the two uppercase objects, which no ref reaches
	{ git -C "$r" rev-list --objects --all | cut -d' ' -f1; echo "$upc"; echo "$upt"; } |
		git -C "$r" pack-objects -q --window=50 --depth=50 "$tmp/up-$fmt" >/dev/null
	idx=$(ls "$tmp"/up-$fmt-*.idx)
	pack_seed "$idx" "${idx%.idx}.pack" "$out/pack/$fmt-upper"
	# ... and with REF_DELTA bases (no --delta-base-offset): git pack-objects' default
	{ git -C "$r" rev-list --objects --all | cut -d' ' -f1; } |
		git -C "$r" pack-objects -q --window=50 --depth=50 "$tmp/ref-$fmt" >/dev/null
	idx=$(ls "$tmp"/ref-$fmt-*.idx)
	pack_seed "$idx" "${idx%.idx}.pack" "$out/pack/$fmt-refdelta"
done

# reftable: byte 0 = hash (bit 0: sha256) and prefix (bit 1: refs/replace/), byte 1 =
# tables; then the tables of a stack, as the Git 3.0 build writes them: many refs in
# several blocks, a replace ref, then a deletion in a table of its own.
g3=$(cd "$(dirname "$0")/.." && pwd)/../shared/tools/git3/git
byte() { printf "\\$(printf %03o "$1")"; }
if [ -x "$g3" ]; then
	for fmt in sha1 sha256; do
		r=$tmp/rt-$fmt
		"$g3" -c init.defaultBranch=main init -q --object-format=$fmt --ref-format=reftable "$r" 2>/dev/null || continue
		(cd "$r" && echo a >a && "$g3" add a && "$g3" -c user.name=f -c user.email=f@example.com commit -q -m a &&
			h=$("$g3" rev-parse HEAD) &&
			awk -v h="$h" 'BEGIN { for (i = 0; i < 300; i++) printf "create refs/heads/b%03d %s\n", i, h }' |
				"$g3" update-ref --stdin && "$g3" update-ref "refs/replace/$h" HEAD &&
			"$g3" tag -a -m t v1 2>/dev/null; "$g3" update-ref -d refs/heads/b007) >/dev/null 2>&1 || continue
		b=$(if [ $fmt = sha1 ]; then echo 0; else echo 1; fi)
		n=$(wc -l <"$r/.git/reftable/tables.list")
		for t in $(cat "$r/.git/reftable/tables.list"); do
			{ byte $((b | 2)); byte 0; cat "$r/.git/reftable/$t"; } >"$out/reftable/$fmt-$t"
		done
		# the whole stack in one input, cut in as many tables as it has (when they are
		# of one size, the cuts fall between them)
		{ byte $b; byte $((n - 1)); for t in $(cat "$r/.git/reftable/tables.list"); do cat "$r/.git/reftable/$t"; done; } \
			>"$out/reftable/$fmt-stack"
	done
fi
