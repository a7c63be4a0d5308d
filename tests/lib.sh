# Shared by the shell tests, sourced after `set -u`: $H (the command, perhaps behind an
# emulator prefix), $tmp (removed at exit), TAP-style pass/fail/skip lines numbered by $n,
# git_ (git with a fixed identity and branch name), and judge, which checks a result.
# shellcheck shell=sh
H=${HEXOID:?HEXOID must name the hexoid command}
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
n=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # skip $2"; }
# $py: the python3 interpreter itself, found once (a version manager's python3 is a shell
# script that starts a dozen processes a call); python3 when it cannot say.
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || py=
[ -x "${py:-}" ] || py=python3
git_() { git -c user.name=hexoid -c user.email=hexoid@example.com -c init.defaultBranch=main "$@"; }

# judge NAME WANT PATTERN GOT: exit status GOT must be WANT (and not a signal), and when
# PATTERN is not empty, $tmp/err must hold it.
judge() {
	if [ "$4" -gt 128 ]; then
		fail "$1: killed by signal $(($4 - 128))"
	elif [ "$4" != "$2" ]; then
		fail "$1: exit $4, expected $2"
		sed 's/^/#   /' "$tmp/err" 2>/dev/null | head -5
	elif [ -n "$3" ] && ! grep -qF -- "$3" "$tmp/err"; then
		fail "$1: stderr lacks '$3'"
		sed 's/^/#   /' "$tmp/err" | head -5
	else
		pass "$1"
	fi
}
