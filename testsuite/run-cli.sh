#!/bin/sh
# run-cli.sh - the command line as a toolchain uses it, one PASS/FAIL line
# per case: "-" and "-o -" (mtpar in a pipeline), -o through a symbolic
# link and at a FIFO, the first-line comment, #line (every line of the
# input keeps its number: check-lines.sh), the remark classes of --report
# and --report=FILE, --dot=FILE, -v, carets under errors.
# Environment: B (build dir).
set -u
B=${B:-build}
MTPAR=$B/mtpar
T=$B/cli
rm -rf "$T" && mkdir -p "$T"
EX=examples/inception.c

ok() { echo "PASS: cli $1"; }
bad() { echo "FAIL: cli $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

# ---- the reference output, to a file ----
"$MTPAR" -o "$T/ref.c" "$EX" 2>"$T/ref.err"
check "reference output" '[ -s "$T/ref.c" ] && [ ! -s "$T/ref.err" ]'

# ---- -o - and - : a pipeline; a failed run writes nothing to stdout ----
"$MTPAR" -o - "$EX" >"$T/stdout.c" 2>/dev/null
check "-o - writes the program to stdout" 'cmp -s "$T/ref.c" "$T/stdout.c"'
(cd examples && ../"$MTPAR" - <inception.c >"../$T/pipe.c" 2>/dev/null)
check "- reads stdin, writes stdout" 'grep -q "#pragma omp" "$T/pipe.c" && grep -q "^#line 1 \"<stdin>\"" "$T/pipe.c"'
printf 'int f(void) { return 1 +; }\n' | "$MTPAR" - >"$T/badpipe.out" 2>"$T/badpipe.err"
rc=$?
check "- with bad input: exit 1, nothing on stdout, <stdin>:1:" \
	'[ $rc -eq 1 ] && [ ! -s "$T/badpipe.out" ] && grep -q "^<stdin>:1:" "$T/badpipe.err"'
"$MTPAR" --dump=mt - <"$EX" >"$T/dump.txt" 2>/dev/null
check "--dump with - to stdout" 'grep -q "MT1" "$T/dump.txt"'

# ---- -o through a symbolic link writes its target; a FIFO is written, not replaced ----
: >"$T/target.c" && ln -s target.c "$T/link.c"
"$MTPAR" -o "$T/link.c" "$EX" 2>/dev/null
check "-o through a symlink writes the target, keeps the link" \
	'[ -L "$T/link.c" ] && cmp -s "$T/ref.c" "$T/target.c"'
if mkfifo "$T/fifo" 2>/dev/null; then
	cat "$T/fifo" >"$T/fifo.out" &
	"$MTPAR" -o "$T/fifo" "$EX" 2>/dev/null
	wait
	check "-o a FIFO: written through, still a FIFO" '[ -p "$T/fifo" ] && cmp -s "$T/ref.c" "$T/fifo.out"'
fi

# ---- the first line names mtpar, its version and the options ----
"$MTPAR" -np 3 --cost-model=unlimited -DX=1 -o "$T/opts.c" "$EX" 2>/dev/null
check "first line: mtpar, version, options, input" \
	'head -1 "$T/opts.c" | grep -q "^/\* mtpar [0-9.]* -np 3 --cost-model=unlimited -DX=1 examples/inception.c: generated"'
printf 'int g;\n' >"$T/plain.c"
"$MTPAR" "$T/plain.c" 2>/dev/null
check "an unparallelized file: the comment, then the input from line 1" \
	'[ "$(sed -n 2p "$T/plain.par.c")" = "#line 1 \"$T/plain.c\"" ] && [ "$(tail -1 "$T/plain.par.c")" = "int g;" ]'

# ---- #line: every line of the input keeps its number, and the output builds ----
for c in examples/*.c testsuite/kernels/gemm.c testsuite/kernels/formacros.c; do
	case $c in *api_client.c) continue ;; esac
	"$MTPAR" --cost-model=unlimited -Itestsuite/kernels -o "$T/lines.c" "$c" 2>/dev/null &&
		sh testsuite/check-lines.sh "$c" "$T/lines.c" >"$T/lines.log" 2>&1
	check "#line keeps the lines of $c ($(tail -1 "$T/lines.log"))" '[ $? -eq 0 ]'
done
"$MTPAR" -P -o "$T/nolines.c" "$EX" 2>/dev/null
check "-P: no #line" '! grep -q "^#line" "$T/nolines.c"'
# with -P nothing renumbers the lines: the banner shares the first, so a
# sequential output keeps every line's number (and __LINE__'s value)
"$MTPAR" -np 1 -P -o "$T/np1P.c" "$EX" 2>/dev/null
tail -n +2 "$EX" >"$T/np1P.want"
tail -n +2 "$T/np1P.c" >"$T/np1P.got"
check "-P: the banner shares the first line" \
	'cmp -s "$T/np1P.want" "$T/np1P.got" && [ "$(wc -l <"$T/np1P.c")" = "$(wc -l <"$EX")" ]'
# an error the compiler finds in the output points at the user's line
sed 's/^\tnode__stem_conv_Conv( tensor_input/\tundeclared_call( tensor_input/' "$EX" >"$T/typo.c"
"$MTPAR" -o "$T/typo.par.c" "$T/typo.c" 2>/dev/null
want=$(grep -n "undeclared_call" "$T/typo.c" | head -1 | cut -d: -f1)
gcc -fopenmp -c -o /dev/null -Werror=implicit-function-declaration "$T/typo.par.c" 2>"$T/gcc.err"
check "gcc's error in the output names the input's line $want" \
	'grep -q "^$T/typo.c:$want:.*undeclared_call" "$T/gcc.err"'

# ---- remarks: GCC's classes, decisions by default, =FILE ----
"$MTPAR" --report -o /dev/null "$EX" 2>"$T/report.txt"
check "--report: optimized remarks with the predicted speedup" \
	'grep -q "^examples/inception.c:[0-9]*:[0-9]*: optimized: entry parallelized: .*predicted speedup" "$T/report.txt"'
check "--report: missed remarks say why" 'grep -q ": missed: " "$T/report.txt"'
check "--report: no notes by default" '! grep -q ": note: " "$T/report.txt"'
"$MTPAR" --report-all -o /dev/null "$EX" 2>"$T/all.txt"
check "--report-all: notes for every macro task" \
	'[ "$(grep -c ": note: " "$T/all.txt")" -gt "$(grep -c . "$T/report.txt")" ]'
"$MTPAR" --report-missed -o /dev/null "$EX" 2>"$T/missed.txt"
check "--report-missed: only missed" '[ -s "$T/missed.txt" ] && ! grep -qv ": missed: " "$T/missed.txt"'
"$MTPAR" --report=$T/remarks.txt -o /dev/null "$EX" 2>"$T/quiet.err"
check "--report=FILE: remarks in FILE, none on stderr" \
	'cmp -s "$T/report.txt" "$T/remarks.txt" && [ ! -s "$T/quiet.err" ]'
"$MTPAR" --report-bogus "$EX" 2>"$T/bogus.err"
check "--report-bogus is refused" '[ $? -eq 1 ] && grep -q "unknown remark class" "$T/bogus.err"'

# ---- --dot=FILE, -v, carets ----
"$MTPAR" --dot="$T/g.dot" -o /dev/null "$EX" 2>/dev/null
check "--dot=FILE" 'grep -q "^digraph" "$T/g.dot"'
"$MTPAR" -v -o /dev/null "$EX" 2>"$T/v.err"
check "-v: progress and a summary per file" \
	'grep -q "^mtpar: examples/inception.c: [0-9]* of [0-9]* functions parallelized for 2 cores; entry: predicted speedup" "$T/v.err"'
printf 'int f(void)\n{\n\treturn 1 +;\n}\n' >"$T/caret.c"
"$MTPAR" "$T/caret.c" 2>"$T/caret.err"
check "an error shows its line and a caret" \
	'[ "$(sed -n 2p "$T/caret.err")" = "    3 | 	return 1 +;" ] && [ "$(sed -n 3p "$T/caret.err")" = "      | 	          ^" ]'
"$MTPAR" -fno-diagnostics-show-caret "$T/caret.c" 2>"$T/nocaret.err"
check "-fno-diagnostics-show-caret" '[ "$(wc -l <"$T/nocaret.err")" -eq 1 ]'

# ---- graphs a person can read: the overview and the schedules ----
"$MTPAR" --dot="$T/o.dot" --dot-sched="$T/s.dot" -o /dev/null "$EX" 2>/dev/null
check "--dot: the overview collapses chains and draws entry's four branches" \
	'grep -q "function entry: [0-9]* MTs; parallelized" "$T/o.dot" && grep -q " MTs)" "$T/o.dot" &&
	 dot -Tsvg "$T/o.dot" >/dev/null 2>&1'
check "--dot-sched: a cluster per core, waits across cores, renders" \
	'grep -q "cluster_entry/core0" "$T/s.dot" && grep -q "cluster_entry/core1" "$T/s.dot" &&
	 grep -q "color=red" "$T/s.dot" && dot -Tsvg "$T/s.dot" >/dev/null 2>&1'
"$MTPAR" --dot-func=entry --dot="$T/f.dot" -o /dev/null "$EX" 2>/dev/null
check "--dot-func: one function in full, loop bodies as clusters" \
	'grep -q "cluster_entry" "$T/f.dot" && ! grep -q "cluster_node__" "$T/f.dot"'

# ---- slices without copies: each split loop written once, whatever the core count ----
for np in 2 16; do
	"$MTPAR" -np $np --cost-model=unlimited -Itestsuite/kernels -DLARGE_DATASET \
		-o "$T/j$np.c" testsuite/kernels/jacobi2d.c 2>/dev/null
done
check "slices share one copy of each loop at -np 16 (2 loops, 16 jumps each)" \
	'[ "$(grep -c "mtpar_slice[0-9]*: " "$T/j16.c")" -eq 2 ] &&
	 [ "$(grep -o "goto mtpar_slice[0-9]*;" "$T/j16.c" | wc -l)" -eq 32 ] &&
	 [ "$(grep -c "mtpar_slice[0-9]*: " "$T/j2.c")" -eq 2 ]'

# ---- -std= and -O: the macros #if reads are the compiler's for that build ----
cat >"$T/std.c" <<'PROG'
#include <stdio.h>
#if __STDC_VERSION__ >= 201710L
#define ROWS 200
#else
#define ROWS 400
#endif
#ifdef __OPTIMIZE__
#define COLS 300
#else
#define COLS 500
#endif
static double a[ROWS * COLS];
int main(void)
{
	double s = 0;
	int i;

	for (i = 0; i < ROWS * COLS; i++)
		a[i] = i * 0.5;
	for (i = 0; i < ROWS * COLS; i++)
		s += a[i];
	printf("%.17g\n", s);
	return 0;
}
PROG
std_same() { # std_same TITLE GCCFLAGS MTPARFLAGS...
	st=$1 sg=$2
	shift 2
	if gcc $sg -w -o "$T/std.seq" "$T/std.c" && "$T/std.seq" >"$T/std.want" &&
	   "$MTPAR" -np 2 --cost-model=unlimited "$@" -o "$T/std.par.c" "$T/std.c" 2>/dev/null &&
	   gcc $sg -fopenmp -w -o "$T/std.par" "$T/std.par.c" && "$T/std.par" >"$T/std.got" &&
	   cmp -s "$T/std.want" "$T/std.got"; then
		ok "$st"
	else
		bad "$st"
	fi
}
std_same "-std=c11 -O0: the output built the same way prints the same" "-std=c11 -O0" -std=c11 -O0
std_same "-std=gnu99 -O2 -O0 -Os: the last -O counts" "-std=gnu99 -Os" -std=gnu99 -O2 -O0 -Os
std_same "-ansi: C90 has no __STDC_VERSION__" "-ansi -O2" -ansi
"$MTPAR" -std=c13 "$T/std.c" >/dev/null 2>"$T/std.err"
check "-std=c13: unrecognized, exit 1" '[ $? -eq 1 ] && grep -q "unrecognized command-line option" "$T/std.err"'
