#!/bin/sh
# run-sanitized.sh - the sanitizer tier: mtpar built with ASan and UBSan
# (`make sanitize` builds it in $B, normally build/asan) runs the unit
# tests, the golden and bad-input tests, the adversarial inputs, and every
# example, kernel, test program and corpus program with the options that
# reach the most code.  Any sanitizer report (a memory error, undefined
# behaviour, a leak) fails the case: the sanitizers exit with 99, which
# mtpar never does.  One PASS/FAIL line per case and a summary.
# Environment: B (the sanitized build), CORPUS (../shared/corpus).
set -u
# the example networks (examples/api_client.c is a library client, not one)
EXAMPLES=$(ls examples/*.c | grep -v "/api_client\.c$")
B=${B:-build/asan}
CORPUS=${CORPUS:-../shared/corpus}
MTPAR=$B/mtpar
T=$B/test
SHIM=$CORPUS/tvm-shim/include
CF=$B/corpus
pass=0
fail=0
rm -rf "$T" && mkdir -p "$T" "$CF"
ASAN_OPTIONS=exitcode=99:detect_leaks=1:abort_on_error=0
UBSAN_OPTIONS=exitcode=99:halt_on_error=1:print_stacktrace=1
LSAN_OPTIONS=suppressions=$(pwd)/testsuite/lsan.supp
export ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS

ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

# A sanitizer said something: its exit status, or its report in the log.
reported() { # status log
	[ "$1" -eq 99 ] || grep -q 'ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:' "$2"
}

# mtpar with these arguments: its own status is 0 or 1, never a report.
clean_run() { # name args...
	name=$1
	shift
	"$MTPAR" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	if reported $rc "$T/err" || [ $rc -gt 1 ]; then
		bad "sanitized $name (exit $rc)"; grep -A12 'ERROR\|runtime error' "$T/err" | head -30
	else
		ok "sanitized $name"
	fi
}

# the unit tests reset the analyses' global state between cases without
# freeing it (issue 13 makes that state a context): no leak check there
if ASAN_OPTIONS=exitcode=99:detect_leaks=0 "$B/unit-tests" >"$T/unit.log" 2>&1; then
	ok "sanitized unit tests"
else
	bad "sanitized unit tests"; grep -A12 'ERROR\|runtime error\|FAILED' "$T/unit.log" | head -30
fi

# the library in one process: runs after a failed one, a dump, graphs in memory;
# every run frees what it made (a leak or a use after a run's end is a report)
(cd "$T" && "$OLDPWD/$B/api-runs") >"$T/api.log" 2>&1
rc=$?
if reported $rc "$T/api.log" || [ $rc -ne 0 ]; then
	bad "sanitized library runs in one process (exit $rc)"; grep -A12 'ERROR\|runtime error\|FAIL' "$T/api.log" | head -30
else
	ok "sanitized library runs in one process ($(grep -c '^PASS' "$T/api.log") checks)"
fi

for c in testsuite/golden/*.c; do
	for stage in pp ir mt mfg mtg sched; do
		clean_run "golden --dump=$stage $c" --dump=$stage "$c"
	done
done
for c in testsuite/bad/*.c; do
	clean_run "bad $c" -o "$T/bad.par.c" "$c"
done
for f in testsuite/bad/*.fv; do
	clean_run "bad table $f" -np 4 --fv-table "$f" -o "$T/bad.par.c" examples/tvm_aot.c
done

for c in $EXAMPLES testsuite/golden/*.c; do
	for np in 2 4 7; do
		clean_run "$c -np $np" -np $np --report-all --dot "$T/g.dot" --dot-mfg "$T/m.dot" \
			-o "$T/x.c" "$c"
	done
	clean_run "$c --power --gantt" -np 4 --power --gantt "$T/g.svg" -o "$T/x.c" "$c"
	clean_run "$c --deadline" -np 4 --deadline 1.5x -o "$T/x.c" "$c"
	clean_run "$c --api=oscar --profile" -np 3 --api=oscar --profile -o "$T/x.c" "$c"
done
for c in testsuite/kernels/*.c; do
	clean_run "kernel $c" -np 4 --cost-model=unlimited --report-all -I testsuite/kernels \
		-DLARGE_DATASET -o "$T/x.c" "$c"
done
clean_run "usmp" -np 4 --report-all -o "$T/x.c" testsuite/usmp/default_lib0.c testsuite/usmp/default_lib1.c
for c in testsuite/workspace/*.c testsuite/packed/*.c; do
	[ -f "$c" ] && clean_run "$c" -np 4 --cost-model=unlimited -I "$SHIM" -o "$T/x.c" "$c"
done

# the adversarial inputs, through the sanitized mtpar
B=$B sh testsuite/run-adversarial.sh >"$T/adversarial.log" 2>&1
while IFS= read -r line; do
	case $line in
	PASS:*) ok "sanitized ${line#PASS: }" ;;
	FAIL:*) bad "sanitized ${line#FAIL: }" ;;
	esac
done <"$T/adversarial.log"
if grep -q 'ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:' "$B"/adversarial/*.err 2>/dev/null; then
	bad "sanitized adversarial: a sanitizer report"; grep -l 'ERROR\|runtime error' "$B"/adversarial/*.err
fi

if [ -d "$CORPUS" ]; then
	. testsuite/corpus.sh
	corpus_programs >"$T/corpus.list"
	while read -r files; do
		first=${files%% *}
		# shellcheck disable=SC2086
		clean_run "corpus $files" -np 4 --report-all -I "$SHIM" -I "$(dirname "$first")" \
			--dump=sched $files
	done <"$T/corpus.list"
fi

echo "sanitized: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
