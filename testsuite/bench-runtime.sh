#!/bin/sh
# bench-runtime.sh - `make bench`, fourth part: what the runtime costs, in
# nanoseconds (testsuite/runtime/costs.c): a fork and join, a barrier and a
# point-to-point wait, mtpar's runtime against libgomp, at 2 threads and at
# one per CPU.  Prints Markdown tables, also left in $B/bench-runtime.md.
# Environment: B.
set -eu
B=${B:-build}
out=$B/bench-runtime.md
gcc -O2 -std=c99 -fopenmp -Iapi -o "$B/costs" testsuite/runtime/costs.c
: >"$out"
for np in 2 $(nproc); do
	[ "$np" -ge 2 ] || continue
	[ "$np" = 2 ] && [ -s "$out" ] && continue
	"$B/costs" "$np" >>"$out"
	echo >>"$out"
done
cat "$out"
