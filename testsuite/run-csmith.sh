#!/bin/sh
# run-csmith.sh - the differential tier: random programs from csmith with
# fixed seeds go through `mtpar -np 4 --cost-model=unlimited` (parallel
# code wherever there is any gain); the output, built with -fopenmp, must
# print the same checksum as the original, also under MTPAR_JITTER=1
# (random delays before tasks and waits).  mtpar may leave a program
# sequential; it must not break it or crash.  Seeds whose original program
# does not finish in time are skipped (csmith can write long loops).
# Prints PASS/FAIL lines; sourced by run-tests.sh, which counts them.
# Environment: B, CSMITH_SEEDS (default "1 100"), CSMITH_INC.
set -u
B=${B:-build}
CSMITH_INC=${CSMITH_INC:-/usr/include/csmith}
C=$B/csmith
mkdir -p "$C"
first=${CSMITH_SEEDS% *}
last=${CSMITH_SEEDS#* }
skipped=0
parallel=0
seed=$first
while [ "$seed" -le "$last" ]; do
	f=$C/s$seed
	(cd "$C" && csmith --seed "$seed") >"$f.c" 2>/dev/null &&
	gcc -O2 -w -I"$CSMITH_INC" -o "$f.seq" "$f.c" 2>/dev/null &&
	timeout 5 "$f.seq" >"$f.want" 2>/dev/null
	if [ $? -ne 0 ]; then
		skipped=$((skipped + 1))
	elif ! "$B/mtpar" -np 4 --cost-model=unlimited -I "$CSMITH_INC" -o "$f.par.c" "$f.c" 2>"$f.err"; then
		echo "FAIL: csmith seed $seed: mtpar failed: $(head -1 "$f.err")"
	elif ! gcc -O2 -w -fopenmp -I"$CSMITH_INC" -o "$f.par" "$f.par.c" 2>"$f.err"; then
		echo "FAIL: csmith seed $seed: output does not build: $(head -1 "$f.err")"
	elif OMP_NUM_THREADS=4 timeout 20 "$f.par" >"$f.got" 2>/dev/null && cmp -s "$f.want" "$f.got" &&
		MTPAR_JITTER=1 OMP_NUM_THREADS=4 timeout 20 "$f.par" >"$f.got" 2>/dev/null &&
		cmp -s "$f.want" "$f.got"; then
		if grep -q mtpar_can_fork "$f.par.c"; then
			parallel=$((parallel + 1))
			echo "PASS: csmith seed $seed (parallelized)"
		else
			echo "PASS: csmith seed $seed"
		fi
		rm -f "$f.seq" "$f.par" "$f.c" "$f.par.c" "$f.want" "$f.got" "$f.err"
	else
		echo "FAIL: csmith seed $seed: checksum differs or the program failed (with or without jitter)"
	fi
	seed=$((seed + 1))
done
echo "note: csmith: $parallel program(s) parallelized; $skipped seed(s) skipped (original did not finish in 5 s)"
