#!/bin/sh
# Seed corpora for the fuzz targets, made from real git output: a small SHA-1 and SHA-256
# repository and every listing format git prints for them.
# Usage: fuzz/seeds.sh OUTDIR   (makes OUTDIR/kernels, OUTDIR/listing and OUTDIR/idx)
set -eu
out=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out/kernels" "$out/listing" "$out/idx"
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
	# listing: byte 0 picks the format (its index in enum hexoid_format), byte 1 the piece size
	i=1
	for f in oids pack-objects rev-list batch-check show-index verify-pack ls-tree for-each-ref packed-refs fetch-head reflog; do
		src=$tmp/$f
		[ -f "$src" ] || src=$tmp/oids
		{ printf "\\$(printf %03o $i)\\007"; cat "$src"; } >"$out/listing/$fmt-$f"
		{ printf '\000\003'; cat "$src"; } >"$out/listing/$fmt-$f-auto"
		i=$((i + 1))
	done
	# idx: byte 0 = 0 infer the hash, 1 sha1, 2 sha256; then the .idx, and a v1 one
	{ printf '\000'; cat "$idx"; } >"$out/idx/$fmt-v2"
	git -C "$r" index-pack --index-version=1 -o "$tmp/v1.idx" "${idx%.idx}.pack" >/dev/null
	{ printf '\000'; cat "$tmp/v1.idx"; } >"$out/idx/$fmt-v1"
	# kernels: byte 0 = bit 0 sha256, bit 1 lower, bits 2.. stride extra; lines have stride hexsz+1
	if [ $fmt = sha1 ]; then b0=006; else b0=007; fi
	{ printf "\\$b0"; cat "$tmp/oids"; } >"$out/kernels/$fmt-lines"
	{ printf "\\$b0"; tr -d '\n' <"$tmp/oids"; } >"$out/kernels/$fmt-packed-as-lines"
done
