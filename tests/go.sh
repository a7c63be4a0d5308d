#!/bin/sh
# The Go package (bindings/go) through make check-go: go test against this build, linked
# with the shared library and again statically; each Go test becomes a TAP line.
# Skipped for a cross build (RUN set: cgo would need the target's toolchain for Go) and a
# sanitizer build (its library needs the sanitizer's runtime, which go does not link).
# Needs: MAKE, BUILD, CFLAGS from the Makefile.
set -u
if [ -n "${RUN:-}" ]; then
	echo "ok - go test # skip: cross build"
	exit 0
fi
case "${CFLAGS:-}" in
*-fsanitize*)
	echo "ok - go test # skip: sanitizer build"
	exit 0
	;;
esac
if ! command -v go >/dev/null 2>&1; then
	echo "not ok - go test: no go command (scripts/deps.sh core installs golang-go)"
	exit 0
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
${MAKE:-make} -s --no-print-directory BUILD="${BUILD:-build}" GO_TEST_FLAGS=-v check-go >"$log" 2>&1
rc=$?
# Only our own lines: go's "ok <package>" would be counted as a test of its own.
awk '/^# go test \(/ { how = $4; gsub(/[()]/, "", how) }
	/^--- PASS: / { print "ok - go (" how "): " $3 }
	/^--- SKIP: / { print "ok - go (" how "): " $3 " # skip" }
	/^--- FAIL: / { print "not ok - go (" how "): " $3 }' "$log" >"$log.tap"
cat "$log.tap"
if [ $rc != 0 ] || ! grep -q '^ok' "$log.tap"; then
	echo "not ok - make check-go exited with status $rc"
	sed 's/^/#   /' "$log" | tail -30
fi
rm -f "$log.tap"
exit 0
