# Fewer processes for the audit and repair suites, sourced after lib.sh: every process
# they start costs milliseconds, most of it in the kernel.
#
#   git3_direct     when $g3 names the Git 3.0 build's wrapper (../shared/tools/git3/git,
#                   a shell script that unpacks the build once, then sets GIT_EXEC_PATH
#                   and execs it), $g3 becomes git3, a shell function that runs the
#                   unpacked build the same way, without the shell and dirname around it
#   python3         a function running lib.sh's $py, the interpreter itself
#
# And git runs no `git maintenance run --auto` after each commit or fetch (it would
# find nothing to do in repositories this small), through GIT_CONFIG_COUNT, which adds
# to what the environment already holds.
# shellcheck shell=sh

git3_direct() {
	if [ -n "${g3:-}" ] && d_x=$("$g3" --exec-path 2>/dev/null) &&
		[ -x "${d_x%/libexec/git-core}/bin/git" ]; then
		g3_exec=$d_x
		g3_bin=${d_x%/libexec/git-core}/bin/git
		g3=git3
	fi
}
git3() { GIT_EXEC_PATH=$g3_exec "$g3_bin" "$@"; }

python3() { "$py" "$@"; }

d_i=${GIT_CONFIG_COUNT:-0}
export "GIT_CONFIG_KEY_$d_i=maintenance.auto" "GIT_CONFIG_VALUE_$d_i=false"
export GIT_CONFIG_COUNT=$((d_i + 1))
