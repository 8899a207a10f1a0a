#!/bin/sh
# Parallelize each example with mtpar, build the sequential and the parallel program, check
# that both print the same checksum, and show the speedup (median of three runs each).
# Run from the repository root with mtpar built:  B=build sh examples/demo.sh  (make demo)
# Everything it writes goes under $B/demo.
set -eu

B=${B:-build}
CC=${CC:-gcc}
EX=$(dirname "$0")
DEMO=$B/demo
MTPAR=$B/mtpar
RUNS=3
EXAMPLES="tvm_aot onnx2c_net inception residual"
NP=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
OMP_NUM_THREADS=${OMP_NUM_THREADS:-$NP}
export OMP_NUM_THREADS

die() {
	echo "demo: $*" >&2
	exit 1
}

[ -x "$MTPAR" ] || die "$MTPAR not found or not executable (build it first: make)"
mkdir -p "$DEMO"

# seconds PROG OUT: run PROG once, keep its stdout minus the time_s line in OUT, and print
# the run time: the program's own time_s line if it has one, the wall time otherwise.
seconds() {
	start=$(date +%s.%N)
	"$1" > "$2.raw" || die "$1 exited with status $?"
	end=$(date +%s.%N)
	grep -v '^time_s:' "$2.raw" > "$2" || true
	t=$(sed -n 's/^time_s:[[:space:]]*//p' "$2.raw" | head -n 1)
	if [ -z "$t" ]; then
		t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", b - a }')
	fi
	echo "$t"
}

# median_time PROG OUT: run PROG $RUNS times, check every run prints the same, print the median.
median_time() {
	i=1
	: > "$2.times"
	while [ "$i" -le "$RUNS" ]; do
		seconds "$1" "$2.$i" >> "$2.times"
		if [ "$i" -gt 1 ] && ! cmp -s "$2.1" "$2.$i"; then
			die "$1: run $i printed something different from run 1 (see $2.1, $2.$i)"
		fi
		i=$((i + 1))
	done
	cp "$2.1" "$2"
	sort -n "$2.times" | sed -n "$(((RUNS + 1) / 2))p"
	i=1
	while [ "$i" -le "$RUNS" ]; do
		rm -f "$2.$i" "$2.$i.raw"
		i=$((i + 1))
	done
	rm -f "$2.times"
}

failed=""
printf '%-12s %10s %10s %8s  %s\n' example "seq (s)" "par (s)" speedup check > "$DEMO/table"
for x in $EXAMPLES; do
	src=$EX/$x.c
	[ -f "$src" ] || die "$src not found"
	echo "demo: $x: building" >&2
	$CC -O2 -std=c11 "$src" -lm -o "$DEMO/$x.seq" || die "$x: sequential build failed"
	"$MTPAR" -np "$NP" -o "$DEMO/$x.par.c" "$src" || die "$x: mtpar failed"
	$CC -O2 -std=c11 -fopenmp "$DEMO/$x.par.c" -lm -o "$DEMO/$x.par" ||
		die "$x: parallel build of $DEMO/$x.par.c failed"

	echo "demo: $x: running" >&2
	ts=$(median_time "$DEMO/$x.seq" "$DEMO/$x.seq.out")
	tp=$(median_time "$DEMO/$x.par" "$DEMO/$x.par.out")
	grep -q '^checksum:' "$DEMO/$x.seq.out" || die "$x: no checksum line in the output"
	if cmp -s "$DEMO/$x.seq.out" "$DEMO/$x.par.out"; then
		check=ok
	else
		check=MISMATCH
		failed="$failed $x"
		echo "demo: $x: sequential and parallel outputs differ:" >&2
		diff "$DEMO/$x.seq.out" "$DEMO/$x.par.out" >&2 || true
	fi
	speedup=$(awk -v s="$ts" -v p="$tp" 'BEGIN { if (p > 0) printf "%.2f", s / p; else print "-" }')
	printf '%-12s %10.3f %10.3f %8s  %s\n' "$x" "$ts" "$tp" "$speedup" "$check" >> "$DEMO/table"
done

echo "mtpar -np $NP, $OMP_NUM_THREADS OpenMP threads, median of $RUNS runs"
cat "$DEMO/table"
[ -z "$failed" ] || die "checksums differ for:$failed"
