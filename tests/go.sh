#!/bin/sh
# The Go package (bindings/go) through make check-go: go test against this build, linked
# with the shared library, again statically, under -race, and built without cgo (the
# pure-Go package, the same tests and examples on the same cases where they do not need
# the library); each Go test becomes a TAP line.
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
awk '/^# go test \(race\) skipped/ { sub(/^# go test \(race\) skipped: /, ""); print "ok - go (race) # skip: " $0; next }
	/^# go vet and gofmt: clean/ { print "ok - go vet and gofmt: clean, with cgo and without" }
	/^# go test \(/ { how = $4; gsub(/[()]/, "", how) }
	/^--- PASS: / { print "ok - go (" how "): " $3 }
	/^--- SKIP: / { print "ok - go (" how "): " $3 " # skip" }
	/^--- FAIL: / { print "not ok - go (" how "): " $3 }' "$log" >"$log.tap"
cat "$log.tap"
if [ $rc != 0 ] || ! grep -q '^ok' "$log.tap"; then
	echo "not ok - make check-go exited with status $rc"
	sed 's/^/#   /' "$log" | tail -30
fi
rm -f "$log.tap"

# The README's lines for a module outside the checkout, as they stand: make install into
# a prefix under a HOME of our own, the module in our TMPDIR, the listing program
# built statically against the installed hexoid.pc and run on this checkout's history.
# Its go cache is the build's. That cache does not see what pkg-config said (golang/go
# issue 24544): the hexoid package compiled for one prefix is reused for the next, with
# the first one's -L. So the HOME, and the prefix in it, is the same path every run.
src=$(pwd)
home="$src/${BUILD:-build}/go-readme-home"
rm -rf "$home" && mkdir -p "$home"
trap 'rm -f "$log"; rm -rf "$home"' EXIT
mkdir -p "$home/tmp"
# The sh block that holds `make install PREFIX=`, and only it.
awk '/^```sh$/ { inb = 1; blk = ""; next } inb && /^```$/ { inb = 0; if (blk ~ /make install PREFIX=/) printf "%s", blk; next }
	inb { blk = blk $0 "\n" }' README.md >"$home/steps.sh"
sed -n '/^```go$/,/^```$/p' README.md | sed -n '1,/^```$/p' | sed '1d;$d' >"$home/main.go"
sed -n '1,/^# save the program above as main.go/p' "$home/steps.sh" >"$home/steps1.sh"
sed -n '/^# save the program above as main.go/,$p' "$home/steps.sh" >"$home/steps2.sh"
if ! grep -q 'make install' "$home/steps1.sh" || ! grep -q 'go build' "$home/steps2.sh" || [ ! -s "$home/main.go" ]; then
	echo "not ok - go: the README's lines for a module of one's own are not found"
else
	(
		export HOME="$home" TMPDIR="$home/tmp" GOPROXY=off GOCACHE="$src/${BUILD:-build}/go-cache"
		unset PKG_CONFIG_PATH GOFLAGS LD_LIBRARY_PATH
		set -e
		. "$home/steps1.sh" >"$home/log1" 2>&1
		cp "$home/main.go" main.go
		. "$home/steps2.sh" >"$home/out" 2>"$home/err"
	) >"$home/log" 2>&1
	rc=$?
	if [ $rc = 0 ] && grep -q ' problems (' "$home/out" && [ -x "$home/tmp/checkids/checkids" ]; then
		echo "ok - go: the README's lines build the listing program in a module outside the checkout, against make install PREFIX=..."
	else
		echo "not ok - go: the README's lines for a module of one's own (status $rc)"
		cat "$home/log" "$home/log1" "$home/out" "$home/err" 2>/dev/null | sed 's/^/#   /' | tail -20
	fi
fi
exit 0
