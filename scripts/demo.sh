#!/bin/sh
# The main job on a built-in default: verify this repository's own object listing and a
# freshly made SHA-256 repository's, then show what Git 3.0 would reject, in a listing
# and with hexoid audit in a repository.
set -u
H=${1:-build/hexoid}
case $H in /*) ;; *) H=$PWD/$H ;; esac # the audit runs inside the repository
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git_() { git -c user.name=demo -c user.email=demo@example.com -c init.defaultBranch=main "$@"; }

echo "== active kernel"
$H kernels | grep -E '^(\*|active|cpu)'

echo
echo "== this repository: git rev-list --objects --all, verified as Git 3.0 would"
if git rev-parse --git-dir >/dev/null 2>&1; then
	git rev-list --objects --all >"$tmp/self"
	fmt=$(head -n 1 "$tmp/self" | awk '{ print length($1) == 64 ? "sha256" : "sha1" }')
	$H verify --format=rev-list "$tmp/self" && echo "$(wc -l <"$tmp/self") $fmt object IDs: all valid lowercase"
else
	echo "(not a git checkout: skipped)"
fi

echo
echo "== a fresh SHA-256 repository"
git_ init -q --object-format=sha256 "$tmp/repo"
for i in 1 2 3; do
	echo "file $i" >"$tmp/repo/f$i"
	git_ -C "$tmp/repo" add -A && git_ -C "$tmp/repo" commit -q -m "commit $i"
done
git -C "$tmp/repo" rev-list --objects --all | cut -d' ' -f1 >"$tmp/s256"
$H verify "$tmp/s256" && echo "$(wc -l <"$tmp/s256") sha256 object IDs: all valid"
git_ -C "$tmp/repo" repack -adq
idx=$(ls "$tmp"/repo/.git/objects/pack/*.idx)
$H check-listing --idx "$idx" --exact "$tmp/s256" && echo "and exactly the objects of its pack"
git -C "$tmp/repo" show-index <"$idx" >"$tmp/git-show"
$H show-index <"$idx" | cmp -s - "$tmp/git-show" &&
	echo "hexoid show-index prints what git show-index prints, byte for byte"

echo
echo "== the same listing with one ID in uppercase: Git 2.x accepts it, Git 3.0 will not"
awk 'NR == 2 { $0 = toupper($0) } { print }' "$tmp/s256" >"$tmp/upper"
$H verify --mixed "$tmp/upper" && echo "--mixed (Git 2.x): valid"
$H verify "$tmp/upper" 2>&1 | sed "s|$tmp/||"
echo "(exit status 1: invalid records found)"

echo
echo "== hexoid audit: a commit whose tree header is uppercase (git fsck --strict passes it)"
tree=$(git -C "$tmp/repo" rev-parse 'HEAD^{tree}' | tr a-f A-F)
twin=$(printf 'tree %s\nparent %s\nauthor demo <demo@example.com> 1700000000 +0000\ncommitter demo <demo@example.com> 1700000000 +0000\n\nparallel history\n' \
	"$tree" "$(git -C "$tmp/repo" rev-parse HEAD)" | git -C "$tmp/repo" hash-object -w -t commit --stdin)
git -C "$tmp/repo" update-ref refs/heads/twin "$twin"
git -C "$tmp/repo" fsck --strict 2>/dev/null && echo "git fsck --strict: no complaint"
(cd "$tmp/repo" && $H audit --no-progress) | head -n 2
echo "(exit status 1: findings)"
