#!/bin/sh
# make install into a scratch prefix, then build and run a program outside the tree with
# nothing but `pkg-config --cflags --libs hexoid`, shared and static (cc -static with
# pkg-config --static), and the README's Go program through the installed hexoid.pc,
# shared and static.
# Needs: MAKE, BUILD, CC, CFLAGS, LDFLAGS from the Makefile; RUN set means a cross build.
set -u
if [ -n "${RUN:-}" ]; then
	echo "ok - install # skip: cross build"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
if ! ${MAKE:-make} -s --no-print-directory BUILD="$BUILD" PREFIX="$prefix" install >"$tmp/log" 2>&1; then
	echo "not ok - make install"
	sed 's/^/#   /' "$tmp/log" | tail -5
	exit 0
fi
echo "ok - make install PREFIX=..."
for f in include/hexoid.h lib/libhexoid.a lib/libhexoid.so lib/pkgconfig/hexoid.pc bin/hexoid; do
	[ -e "$prefix/$f" ] || { echo "not ok - installed $f"; exit 0; }
done
echo "ok - installed header, libraries, hexoid.pc and the command"

cat >"$tmp/consumer.c" <<'C'
#include <hexoid.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
	unsigned char bin[20];
	char hex[41] = { 0 };
	struct hexoid_error e;
	/* hexoid.h's inline path reads the table the library's first use set: in this
	 * program's copy of hexoid__active (a copy relocation), not one of the library's */
	const struct hexoid__one *pending = hexoid__active;
	if (hexoid_decode(bin, "4b825dc642cb6eb9a060e54bf8d69288fbee4904", 1, 40, HEXOID_SHA1,
			  HEXOID_LOWER, &e) != HEXOID_OK || hexoid__active == pending)
		return 1;
	hexoid_encode(hex, 40, bin, 1, HEXOID_SHA1);
	printf("%s %s %s\n", hexoid_version(), hexoid_kernel(), hex);
	return strcmp(hex, "4b825dc642cb6eb9a060e54bf8d69288fbee4904") != 0;
}
C
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2086
if $CC $CFLAGS "$tmp/consumer.c" -o "$tmp/consumer" $(pkg-config --cflags --libs hexoid) $LDFLAGS &&
	LD_LIBRARY_PATH=$prefix/lib "$tmp/consumer" >"$tmp/out" && grep -q "^0\.[0-9.]* .* 4b825dc6" "$tmp/out"; then
	echo "ok - a program outside the tree builds with pkg-config and runs (shared)"
else
	echo "not ok - pkg-config build against the shared library"
fi
# shellcheck disable=SC2086
if $CC $CFLAGS "$tmp/consumer.c" -o "$tmp/consumer-static" $(pkg-config --cflags hexoid) \
	"$prefix/lib/libhexoid.a" $(pkg-config --static --libs-only-other hexoid) $LDFLAGS &&
	"$tmp/consumer-static" >/dev/null; then
	echo "ok - the static library links and runs"
else
	echo "not ok - static library"
fi
# A sanitizer build's library needs the sanitizer's runtime, which neither a fully
# static link nor go's linker brings.
case "$CFLAGS" in *-fsanitize*) sanitized=yes ;; *) sanitized= ;; esac
# pkg-config --static alone is enough for a static link: it names zlib and libcrypto.
# shellcheck disable=SC2086
if [ -n "$sanitized" ]; then
	echo "ok - cc -static with pkg-config --static # skip: sanitizer build"
elif $CC $CFLAGS -static "$tmp/consumer.c" -o "$tmp/consumer-full" $(pkg-config --static --cflags --libs hexoid) \
	$LDFLAGS 2>"$tmp/log" && "$tmp/consumer-full" >/dev/null &&
	! objdump -p "$tmp/consumer-full" | grep -q NEEDED; then
	echo "ok - cc -static with pkg-config --static --libs hexoid links and runs"
else
	echo "not ok - cc -static with pkg-config --static"
	sed 's/^/#   /' "$tmp/log" | head -5
fi
if pkg-config --static --libs hexoid | grep -q -- '-lz' && pkg-config --static --libs hexoid | grep -q -- '-lcrypto' &&
	! pkg-config --libs hexoid | grep -q -- '-lz'; then
	echo "ok - hexoid.pc: zlib and libcrypto for static links only"
else
	echo "not ok - hexoid.pc: '$(pkg-config --static --libs hexoid)'"
fi

# The Go package from outside the tree, found through the installed hexoid.pc: the
# README's program, linked with the shared library (found at run time through the
# rpath it was built with) and statically.
src=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "$sanitized" ] || ! command -v go >/dev/null 2>&1; then
	why=${sanitized:+sanitizer build}
	echo "ok - go program # skip: ${why:-no go command}"
	echo "ok - static go program # skip: ${why:-no go command}"
else
	mkdir -p "$tmp/goprog"
	cat >"$tmp/goprog/go.mod" <<EOF
module checkids

go 1.19

require hexoid.dev/go/hexoid v0.0.0

replace hexoid.dev/go/hexoid => $src/bindings/go
EOF
	sed -n '/^```go$/,/^```$/p' "$src/README.md" | sed '1d;$d' >"$tmp/goprog/main.go"
	# A cache of its own: go keys its cache on the pkg-config arguments, not on the
	# paths they give, and every run installs into a new prefix.
	export GOPROXY=off GOFLAGS=-mod=mod GOCACHE="$tmp/go-cache"
	printf '%s\n' 4b825dc642cb6eb9a060e54bf8d69288fbee4904 4B825DC642CB6EB9A060E54BF8D69288FBEE4904 >"$tmp/ids"
	# go_check NAME: the program reports the uppercase line and exits 1.
	go_check() {
		"$tmp/goprog/checkids" <"$tmp/ids" >"$tmp/out" 2>"$tmp/err"
		g_rc=$?
		if [ $g_rc = 1 ] && grep -q '^<stdin>:2:2: uppercase' "$tmp/err" &&
			grep -q '^2 lines, 1 IDs, 1 problems' "$tmp/out"; then
			echo "ok - $1"
		else
			echo "not ok - $1: exit $g_rc"
			sed 's/^/#   /' "$tmp/err" "$tmp/out" | head -5
		fi
	}
	if [ ! -s "$tmp/goprog/main.go" ]; then
		echo "not ok - the README has no Go program"
	elif (cd "$tmp/goprog" && CGO_LDFLAGS="-Wl,-rpath,$(pkg-config --variable=libdir hexoid)" \
		go build -o checkids . >"$tmp/log" 2>&1); then
		go_check "the README's Go program builds with the installed hexoid.pc and runs (shared)"
	else
		echo "not ok - go build against the installed library"
		sed 's/^/#   /' "$tmp/log" | head -5
	fi
	if (cd "$tmp/goprog" && go build -tags hexoid_static -o checkids . >"$tmp/log" 2>&1) &&
		! objdump -p "$tmp/goprog/checkids" | grep -q NEEDED; then
		go_check "the README's Go program linked statically (-tags hexoid_static) runs"
	else
		echo "not ok - static go build"
		sed 's/^/#   /' "$tmp/log" | head -5
	fi
fi
# Only the API is exported from the shared library.
extra=$(nm -D --defined-only "$prefix/lib/libhexoid.so" | awk '{ print $3 }' | grep -v '^hexoid_' | grep -v '^_' )
if [ -z "$extra" ] && nm -D --defined-only "$prefix/lib/libhexoid.so" | grep -q ' hexoid_decode$'; then
	echo "ok - the shared library exports only hexoid_*"
else
	echo "not ok - unexpected exports: $extra"
fi
if nm -D --defined-only "$prefix/lib/libhexoid.so" | grep -q 'hexoid_scalar_decode\|hexoid_active'; then
	echo "not ok - internal symbols are exported"
else
	echo "ok - internal symbols stay hidden"
fi
# A static link sees every global of the archive, hidden or not: each is hexoid_*, so
# none can clash with a name of the program it is linked into. A sanitizer build adds its
# own (__odr_asan.hexoid_x for each global): names of the compiler's runtime, not ours.
bare=$(nm -g --defined-only "$prefix/lib/libhexoid.a" 2>/dev/null | awk 'NF == 3 { print $3 }' |
	grep -v '^hexoid_' | grep -Ev '^__(odr_asan|asan|ubsan|tsan|sanitizer)' | sort -u | tr '\n' ' ')
if [ -z "$bare" ] && nm -g --defined-only "$prefix/lib/libhexoid.a" | grep -q ' hexoid_decode$'; then
	echo "ok - every global of libhexoid.a is hexoid_*"
else
	echo "not ok - globals of libhexoid.a without the hexoid_ prefix: $bare"
fi
soname=$(objdump -p "$prefix/lib/libhexoid.so" | awk '/SONAME/ { print $2 }')
[ "$soname" = libhexoid.so.0 ] && echo "ok - SONAME libhexoid.so.0" || echo "not ok - SONAME is '$soname'"
exit 0
