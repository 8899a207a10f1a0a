#!/bin/sh
# run-fuzz.sh - `make fuzz`: AFL++ over mtpar, built with afl-clang-fast in
# $B.  Two harnesses (FUZZ_HARNESS):
#   persistent (default)  testsuite/fuzz/persistent.c: the library's
#            in-memory entry point (mtpar_compile), thousands of inputs per
#            process; this also checks that runs stay independent
#   command  the mtpar command, a fresh process per input (AFL's fork server)
# Seeds: the examples, the golden, kernel and test programs, and the
# adversarial tier's small inputs; dictionary: testsuite/fuzz/c.dict.
# Every input runs with -np 4 --cost-model=unlimited (the most code: plans
# for small inputs, codegen, checks).  A crash or a hang of more than 5 s is
# a finding: each is run again through the command and printed, and the
# script fails.  Environment: B (the AFL build), FUZZ_TIME (seconds,
# default 600), FUZZ_OUT (default $B/fuzz), FUZZ_HARNESS.
set -u
B=${B:-build/afl}
FUZZ_TIME=${FUZZ_TIME:-600}
OUT=${FUZZ_OUT:-$B/fuzz}
HARNESS=${FUZZ_HARNESS:-persistent}
SEEDS=$OUT/seeds
rm -rf "$OUT" && mkdir -p "$SEEDS"
for f in examples/*.c testsuite/golden/*.c testsuite/kernels/*.c testsuite/packed/*.c \
	testsuite/workspace/*.c testsuite/usmp/default_lib0.c; do
	[ "$(wc -c <"$f")" -le 32768 ] && cp "$f" "$SEEDS/$(echo "$f" | tr / _)"
done
# the shapes of the adversarial tier, small
printf '\357\273\277int a[64];\nint main(void)\n{\n#pragma GCC ivdep\n\tfor (int i = 0; i < 64; i++)\r\n\t\ta[i] = i;\n\treturn a[3];\n}\n' \
	>"$SEEDS/bom_pragma.c"
printf '/* caf\351 */\nconst char *s = "\200";\nint f(int x) { return ((((x)))) + x + x; }\n' >"$SEEDS/bytes.c"

export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
echo "fuzz: afl-fuzz for $FUZZ_TIME s, $(ls "$SEEDS" | wc -l) seeds, $HARNESS harness, output in $OUT"
if [ "$HARNESS" = persistent ]; then
	set -- "$B/fuzz-persistent"
else
	set -- "$B/mtpar" -np 4 --cost-model=unlimited -o /dev/null @@
fi
afl-fuzz -i "$SEEDS" -o "$OUT/afl" -x testsuite/fuzz/c.dict -t 5000 -V "$FUZZ_TIME" \
	-- "$@" >"$OUT/afl.log" 2>&1
rc=$?
stats=$OUT/afl/default/fuzzer_stats
if [ ! -f "$stats" ]; then
	echo "fuzz: afl-fuzz did not run (exit $rc); the end of its log:"
	tail -20 "$OUT/afl.log"
	exit 1
fi
grep -E '^(execs_done|execs_per_sec|corpus_count|bitmap_cvg|saved_crashes|saved_hangs|run_time) ' "$stats"
found=0
for f in "$OUT"/afl/default/crashes/id* "$OUT"/afl/default/hangs/id*; do
	[ -f "$f" ] || continue
	found=$((found + 1))
	echo "fuzz: finding $f:"
	timeout 10 "$B/mtpar" -np 4 --cost-model=unlimited -o /dev/null "$f" 2>&1 | tail -5
	echo "  (exit $?)"
done
echo "fuzz: $found finding(s)"
[ "$found" -eq 0 ]
