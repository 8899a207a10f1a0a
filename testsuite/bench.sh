#!/bin/sh
# bench.sh - `make bench`: mtpar's own wall time and peak memory against
# `gcc -O2 -c` of the same file, for every C file of the corpus.  mtpar is
# run REPEAT times (median), gcc once per file (it takes up to a minute on
# the big TVM files).  Prints a Markdown table, also left in $B/bench.md.
# Environment: B (build dir), CORPUS, REPEAT (default 5), GCC_REPEAT (1).
set -eu
B=${B:-build}
CORPUS=${CORPUS:-../shared/corpus}
REPEAT=${REPEAT:-5}
GCC_REPEAT=${GCC_REPEAT:-1}
SHIM=$CORPUS/tvm-shim/include
W=$B/bench
CF=$B/corpus
. testsuite/corpus.sh
mkdir -p "$W" "$CF"

# "seconds kilobytes" of one run of a command, from GNU time.
measure() {
	/usr/bin/time -f '%e %M' -o "$W/time" "$@" >/dev/null 2>"$W/err" || {
		echo "bench: failed: $*" >&2; cat "$W/err" >&2; exit 1; }
	cat "$W/time"
}

# Median wall time and the largest peak memory over N runs.
median_of() {
	n=$1
	shift
	i=0
	: >"$W/runs"
	while [ $i -lt "$n" ]; do
		measure "$@" >>"$W/runs"
		i=$((i + 1))
	done
	sort -n "$W/runs" | awk '{ t[NR] = $1; if ($2 > m) m = $2 }
		END { printf "%s %d\n", t[int((NR + 1) / 2)], m }'
}

files() {
	for f in "$CORPUS"/onnx2c-*/net.c; do echo "$f"; done
	unpack onnx2c-squeezenet1_1/net-single.c.xz
	for d in "$CORPUS"/tvm08-*; do
		n=$(basename "$d")
		if [ -f "$d/default_lib1.c" ]; then echo "$d/default_lib1.c"; else unpack "$n/default_lib1.c.xz"; fi
	done
}

{
	echo "| file | size (MB) | mtpar (s) | mtpar (MB) | gcc -O2 -c (s) | gcc (MB) | time ratio | memory ratio |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	for f in $(files); do
		inc="-I $SHIM -I $(dirname "$f")"
		size=$(wc -c <"$f")
		# shellcheck disable=SC2086
		set -- $(median_of "$REPEAT" "$B/mtpar" $inc -o "$W/out.par.c" "$f")
		mt=$1 mm=$2
		# shellcheck disable=SC2086
		set -- $(median_of "$GCC_REPEAT" gcc -O2 -std=c99 -w $inc -c "$f" -o "$W/out.o")
		gt=$1 gm=$2
		echo "$f $size $mt $mm $gt $gm" | awk '{
			n = $1; sub(".*/corpus/", "", n); sub(".*/build/corpus/", "", n)
			printf "| %s | %.1f | %.3f | %.0f | %.2f | %.0f | %.1f%% | %.1f%% |\n",
				n, $2 / 1e6, $3, $4 / 1024, $5, $6 / 1024,
				($5 > 0 ? 100 * $3 / $5 : 0), ($6 > 0 ? 100 * $4 / $6 : 0) }'
	done
} | tee "$B/bench.md"
echo "(mtpar: median of $REPEAT runs, reading to writing the output; gcc: $GCC_REPEAT run(s); $(nproc) cores, $(uname -m))"
