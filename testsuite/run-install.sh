#!/bin/sh
# run-install.sh - the library as a user gets it: `make install` into a
# temporary prefix (and a staged DESTDIR install), examples/api_client.c
# built with `pkg-config --cflags --libs mtpar` against the installed shared
# library, the static library linked too, only mtpar_ names exported, and
# testsuite/api/runs.c: several runs in one process, a bad one among them.
# One PASS/FAIL line per case.  Environment: B (build dir).
set -u
B=${B:-build}
T=$(pwd)/$B/install-test
P=$T/prefix
rm -rf "$T" && mkdir -p "$T"

ok() { echo "PASS: install $1"; }
bad() { echo "FAIL: install $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

make -s B="$B" PREFIX="$P" install >"$T/install.log" 2>&1
check "make install PREFIX=..." '[ $? -eq 0 ] && [ -x "$P/bin/mtpar" ] && [ -f "$P/include/mtpar.h" ] &&
	[ -f "$P/lib/libmtpar.a" ] && [ -L "$P/lib/libmtpar.so" ] && [ -f "$P/lib/pkgconfig/mtpar.pc" ] &&
	[ -f "$P/share/man/man1/mtpar.1" ]'
make -s B="$B" PREFIX=/usr DESTDIR="$T/stage" install >"$T/stage.log" 2>&1
check "make install DESTDIR=... PREFIX=/usr" '[ -x "$T/stage/usr/bin/mtpar" ] &&
	grep -q "^prefix=/usr$" "$T/stage/usr/lib/pkgconfig/mtpar.pc"'
so=$(readlink -f "$P/lib/libmtpar.so")
check "versioned soname" 'readelf -d "$so" | grep -q "SONAME.*\[libmtpar\.so\.[0-9]*\]"'
check "the shared library exports only mtpar_ names" \
	'[ -z "$(nm -D --defined-only "$so" | awk "\$2 ~ /[TDBRVW]/ && \$3 !~ /^mtpar_/")" ]'
check "the static library's global names are mtpar_ names only" \
	'[ -z "$(nm -g --defined-only "$P/lib/libmtpar.a" | awk "NF == 3 && \$3 !~ /^mtpar_/")" ]'

export PKG_CONFIG_PATH="$P/lib/pkgconfig"
gcc -Wall -Werror -o "$T/api_client" examples/api_client.c $(pkg-config --cflags --libs mtpar) \
	>"$T/cc.log" 2>&1
check "examples/api_client.c builds with pkg-config --cflags --libs mtpar" '[ $? -eq 0 ]'
LD_LIBRARY_PATH="$P/lib" "$T/api_client" examples/inception.c >"$T/client.c" 2>"$T/client.err"
"$P/bin/mtpar" -np 4 -o - examples/inception.c >"$T/cli.c" 2>/dev/null
check "api_client prints what mtpar -np 4 -o - prints" \
	'[ -s "$T/client.c" ] && cmp -s "$T/client.c" "$T/cli.c" && grep -q "compiled, [1-9]" "$T/client.err"'
gcc -fopenmp -O2 -c -o /dev/null "$T/client.c" 2>"$T/gcc.err"
check "api_client's output builds" '[ $? -eq 0 ]'

gcc -Wall -o "$T/runs" testsuite/api/runs.c -I"$P/include" "$P/lib/libmtpar.a" \
	$(pkg-config --static --libs-only-l mtpar | sed 's/-lmtpar//') >"$T/runs-cc.log" 2>&1
check "testsuite/api/runs.c links the static library" '[ $? -eq 0 ]'
(cd "$T" && ./runs) 2>"$T/runs.err"
