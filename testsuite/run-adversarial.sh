#!/bin/sh
# run-adversarial.sh - inputs made to break a compiler: nesting of every
# kind far deeper than real code, long functions and lines, a byte-order
# mark, CRLF line ends, pragmas at the edges of a parallelized span, bytes
# that are not UTF-8, NUL bytes, an empty file, headers that include
# themselves.  Each must end in one of two ways, within LIMIT seconds and
# without a crash:
#   ok    exit 0, and the output is the input, or it builds with -fopenmp
#         and, where the input has a main, prints and returns what the
#         input does at OMP_NUM_THREADS=1, 2 and 4 and under MTPAR_JITTER=1
#   diag  exit 1, a `file:line:col: error: ` diagnostic, no output file
# Prints PASS/FAIL lines; sourced by run-tests.sh, which counts them.
# Environment: B (build dir), LIMIT (seconds per mtpar run, default 60).
set -u
B=${B:-build}
LIMIT=${LIMIT:-60}
A=$B/adversarial
rm -rf "$A" && mkdir -p "$A"
MTPAR=$B/mtpar

# ---- generators (awk: in every Debian install) ----
gen() { # name awk-program
	awk "BEGIN { $2 }" >"$A/$1.c"
}
# 10,000 nested blocks around a statement
gen blocks 'n = 10000; print "int g;\nint main(void)\n{"; s = ""; for (i = 0; i < n; i++) s = s "{"; s = s "g++;"; for (i = 0; i < n; i++) s = s "}"; print s; print "return g;\n}"'
# a sum of 10,000 terms: a left-deep tree 10,000 levels deep
gen sum 'n = 10000; printf "int f(int x)\n{\nreturn x"; for (i = 1; i < n; i++) printf "+x"; print ";\n}\nint main(void) { return f(1) & 127; }"'
# an else-if chain of 30,000 arms
gen elif 'n = 30000; print "int f(int x)\n{"; for (i = 0; i < n; i++) printf "if (x == %d) return %d; else ", i, i % 100; print "return 0;\n}\nint main(void) { return f(29999); }"'
# if (x) if (x) ... 90,000 deep: below the limit
gen ifs 'n = 90000; print "int g;\nint f(int x)\n{"; for (i = 0; i < n; i++) printf "if (x) "; print "g++;\nreturn g;\n}\nint main(void) { return f(1); }"'
# 200,000 nested ifs and 200,000 nested parentheses: above the limit
gen ifs_deep 'n = 200000; print "int g;\nint f(int x)\n{"; for (i = 0; i < n; i++) printf "if (x) "; print "g++;\nreturn g;\n}"'
gen parens_deep 'n = 200000; printf "int f(int x)\n{\nreturn "; for (i = 0; i < n; i++) printf "("; printf "x"; for (i = 0; i < n; i++) printf ")"; print ";\n}"'
# a loop nest 3,000 deep (superlinear analyses would hang here)
gen loops 'n = 3000; print "double a[4];\nint main(void)\n{"; for (i = 0; i < n; i++) printf "for (int i%d = 0; i%d < 1; i%d++)\n", i, i, i; print "a[0] += 1;\nreturn (int)a[0];\n}"'
# a function of 100,000 statements
gen long 'n = 100000; print "int g;\nint main(void)\n{"; for (i = 0; i < n; i++) print "g = g * 3 + 1;"; print "return g & 127;\n}"'
# 20,000 calls and 100,000 loops in one function: one BB each past 1,000 MTs (linear time)
gen calls 'n = 20000; print "int a[100];\nvoid f(int i) { a[i % 100]++; }\nint main(void)\n{"; for (i = 0; i < n; i++) printf "f(%d);\n", i; print "return a[7] & 127;\n}"'
gen manyloops 'n = 100000; print "int a[100];\nint main(void)\n{"; for (i = 0; i < n; i++) printf "for (int i = 0; i < 10; i++) a[i] += %d;\n", i % 7; print "return a[3] & 127;\n}"'
# a line of 1 MB: an initializer of 150,000 numbers
gen longline 'n = 150000; printf "int t[%d] = {", n; for (i = 0; i < n; i++) printf "%d,", i % 1000; print "};\nint main(void)\n{\nlong s = 0;\nfor (int i = 0; i < 150000; i++) s += t[i];\nreturn (int)(s & 127);\n}"'
# two parallel loops, the file starting with a UTF-8 byte-order mark
loops2='int a[200000], b[200000];
int main(void)
{
	for (int i = 0; i < 200000; i++)
		a[i] = i % 7;
	for (int i = 0; i < 200000; i++)
		b[i] = 2 * i % 5;
	return (a[5] + b[7]) & 127;
}'
printf '\357\273\277%s\n' "$loops2" >"$A/bom.c"
printf '%s\n' "$loops2" | sed 's/$/\r/' >"$A/crlf.c"
# pragmas directly before the span, inside it, and before its last loop
cat >"$A/pragmas.c" <<'EOF'
int a[200000], b[200000];
int main(void)
{
	int s = 0;
#pragma GCC ivdep
	for (int i = 0; i < 200000; i++)
		a[i] = i % 7;
	#pragma GCC unroll 4
	for (int i = 0; i < 200000; i++)
		b[i] = 2 * i % 5;
#pragma omp parallel for \
	schedule(static)
	for (int i = 0; i < 200000; i++)
		b[i] += a[i];
	for (int i = 0; i < 200000; i++)
		s += b[i];
	return s & 127;
}
EOF
# bytes that are not UTF-8 in a comment and a string literal (kept), and in code (an error)
printf '/* caf\351 */\nconst char *s = "\200\377";\nint main(void) { return (unsigned char)s[0] & 127; }\n' >"$A/latin1.c"
printf 'int caf\351 = 1;\n' >"$A/stray.c"
printf 'int x;\0\n' >"$A/nul.c"
printf '' >"$A/empty.c"
printf '#if 0\nint x;\n#endif\n' >"$A/hidden.c"
printf '#include "self.h"\nint x;\n' >"$A/self.h"
printf '#include "self.h"\nint main(void) { return 0; }\n' >"$A/self.c"
printf '#ifndef GUARD_H\n#define GUARD_H\n#include "guard.h"\n#define N 10\n#endif\n' >"$A/guard.h"
printf '#include "guard.h"\nint a[N];\nint main(void) { for (int i = 0; i < N; i++) a[i] = i; return a[3]; }\n' >"$A/guard.c"

# ---- checks ----
run_mtpar() { # name: exit status of mtpar on it, 124 on a timeout
	rm -f "$A/$1.par.c"
	timeout "$LIMIT" "$MTPAR" -np 4 --cost-model=unlimited -I "$A" -o "$A/$1.par.c" "$A/$1.c" \
		>/dev/null 2>"$A/$1.err"
}
same_run() { # name: the output behaves as the input at 1, 2 and 4 threads and with jitter
	gcc -O1 -w -o "$A/$1.seq" "$A/$1.c" || return 1
	"$A/$1.seq" >"$A/$1.want"
	want=$?
	for env in OMP_NUM_THREADS=1 OMP_NUM_THREADS=2 OMP_NUM_THREADS=4 MTPAR_JITTER=1; do
		env "$env" "$A/$1.par" >"$A/$1.got"
		[ $? -eq "$want" ] && cmp -s "$A/$1.want" "$A/$1.got" || return 1
	done
}
expect_ok() { # name
	run_mtpar "$1"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL: adversarial $1: exit $rc: $(head -c 200 "$A/$1.err")"
	elif sh testsuite/unchanged.sh "$A/$1.c" "$A/$1.par.c"; then
		echo "PASS: adversarial $1 (left as it is)" # GCC itself takes minutes on some
	elif ! gcc -O1 -w -fopenmp -c -o "$A/$1.o" "$A/$1.par.c" 2>"$A/$1.cc"; then
		echo "FAIL: adversarial $1: output does not build: $(head -2 "$A/$1.cc")"
	elif grep -q 'main' "$A/$1.c" && ! { gcc -fopenmp -o "$A/$1.par" "$A/$1.o" && same_run "$1"; }; then
		echo "FAIL: adversarial $1: output does not behave as the input"
	else
		echo "PASS: adversarial $1"
	fi
}
expect_diag() { # name
	run_mtpar "$1"
	rc=$?
	if [ $rc -eq 1 ] && [ ! -e "$A/$1.par.c" ] &&
		grep -Eq "^[^:]+:[0-9]+:[0-9]+: error: " "$A/$1.err"; then
		printf 'PASS: adversarial %s: %s\n' "$1" "$(head -c 120 "$A/$1.err" | sed 's/.*error: //')"
	else
		echo "FAIL: adversarial $1: exit $rc: $(head -c 200 "$A/$1.err")"
	fi
}
for n in blocks sum elif ifs loops long calls manyloops longline bom crlf pragmas latin1 empty hidden guard; do
	expect_ok "$n"
done
for n in ifs_deep parens_deep stray nul self; do
	expect_diag "$n"
done
# the span of pragmas.c was parallelized, with its pragmas above the region
if grep -q 'mtpar_can_fork' "$A/pragmas.par.c" 2>/dev/null &&
	grep -B1 -n '^{ /\* mtpar:' "$A/pragmas.par.c" | grep -q 'int s = 0;'; then
	echo "PASS: adversarial pragmas: the region opens above the span's pragma"
else
	echo "FAIL: adversarial pragmas: the region does not open above the span's pragma"
fi
# the byte-order mark stays first, the runtime after it
if [ "$(head -c 3 "$A/bom.par.c" | od -An -tx1 | tr -d ' ')" = efbbbf ] &&
	grep -q 'mtpar_can_fork' "$A/bom.par.c"; then
	echo "PASS: adversarial bom: the mark stays first"
else
	echo "FAIL: adversarial bom: the mark is not first, or nothing was parallelized"
fi
# a run leaves all of its outputs or none: here the second cannot be written
cp "$A/bom.c" "$A/multi1.c"
printf 'int f(void) { return 1; }\n' >"$A/multi2.c"
mkdir -p "$A/multi2.par.c"
"$MTPAR" "$A/multi1.c" "$A/multi2.c" 2>"$A/multi.err"
rc=$?
if [ $rc -eq 1 ] && [ ! -e "$A/multi1.par.c" ] && ! ls "$A"/*.tmp.* >/dev/null 2>&1; then
	echo "PASS: adversarial two outputs, the second a directory: neither written"
else
	echo "FAIL: adversarial two outputs, the second a directory: exit $rc, $(ls "$A" | grep -c 'multi1.par.c\|tmp') files left"
fi
# -o naming an input (here through a symbolic link) is refused; the input stays as it was
cp "$A/bom.c" "$A/inout.c" && ln -sf inout.c "$A/inout-link.c"
"$MTPAR" -o "$A/inout-link.c" "$A/inout.c" 2>"$A/inout.err"
rc=$?
if [ $rc -eq 1 ] && cmp -s "$A/bom.c" "$A/inout.c" && grep -q 'is also an input' "$A/inout.err"; then
	echo "PASS: adversarial -o naming the input: refused"
else
	echo "FAIL: adversarial -o naming the input: exit $rc"
fi
