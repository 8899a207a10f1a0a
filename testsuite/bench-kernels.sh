#!/bin/sh
# bench-kernels.sh - `make bench`, third part: the loop-nest kernels of
# testsuite/kernels (sizes in sizes.h, the large dataset), and the TVM 0.17
# USMP model of testsuite/usmp, built sequentially, through mtpar at -np 2,
# and with GCC's -ftree-parallelize-loops=2; the median wall time of REPEAT
# interleaved runs of each, whether the output matches the sequential one,
# and the speedups.  Prints Markdown tables (the kernels,
# the behaviour tests, the model) with each table's geometric means, also
# left in $B/bench-kernels.md.  Environment: B, REPEAT (default 5), KFLAGS.
set -u
B=${B:-build}
REPEAT=${REPEAT:-5}
KFLAGS=${KFLAGS:--I testsuite/kernels -DLARGE_DATASET -DH=384 -DW=384}
W=$B/kernels
KLIB=testsuite/kernels/support/bench.c # built with each kernel, not given to mtpar
mkdir -p "$W"

# The median wall seconds of REPEAT runs of each of the programs $2..., or
# "wrong" when one's output is not $1's, or "fail": one line per program.
# The runs interleave (one of each per round), so that a burst of load on
# this noisy machine falls on all of them rather than on one's five runs.
median_walls() {
	want=$1
	shift
	k=0
	for p in "$@"; do
		: >"$W/times.$k"
		k=$((k + 1))
	done
	i=0
	while [ $i -lt "$REPEAT" ]; do
		k=0
		for p in "$@"; do
			if [ -f "$W/times.$k" ]; then
				s=$(date +%s.%N)
				if "$p" >"$W/out" 2>&1; then
					e=$(date +%s.%N)
					if cmp -s "$W/out" "$want"; then
						echo "$s $e" | awk '{ printf "%.4f\n", $2 - $1 }' >>"$W/times.$k"
					else
						rm -f "$W/times.$k"; echo wrong >"$W/verdict.$k"
					fi
				else
					rm -f "$W/times.$k"; echo fail >"$W/verdict.$k"
				fi
			fi
			k=$((k + 1))
		done
		i=$((i + 1))
	done
	k=0
	for p in "$@"; do
		if [ -f "$W/times.$k" ]; then
			sort -g "$W/times.$k" | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
		else
			cat "$W/verdict.$k"
		fi
		rm -f "$W/times.$k" "$W/verdict.$k"
		k=$((k + 1))
	done
}

ratio() { # seq par
	case $2 in fail | wrong) echo "$2" ;; *) echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }' ;; esac
}

# Programs of testsuite/kernels that test one behaviour (a trap of the
# analysis, a schedule of branches, a refusal of the cost model) rather
# than being a loop-nest kernel: measured in a table of their own, where
# what counts is that none runs slower.
TESTS=" blocks calls cascade clonetraps columns contexts foldtraps gathers headcopy heads layouts liveout permute privates reuse rttraps shear smallspan triangles zeroed formacros pragmas pragmaops siblings directives threadlocal fpmodes prologue statements predefs aliases macrostmts macroops linemarks kernelmacro c11words privarrays privtraps privreverse pooled poolfail macrofree texttraps latetypes complexes nests nestslices errnos fpflags operands parencasts literals "

out=$B/bench-kernels.md
rows=$W/rows.kernels
: >"$rows"
: >"$W/rows.tests"
: >"$W/rows.usmp"
for c in testsuite/kernels/*.c; do
	n=$(basename "$c" .c)
	case $TESTS in *" $n "*) rows=$W/rows.tests ;; *) rows=$W/rows.kernels ;; esac
	# shellcheck disable=SC2086
	gcc -O2 -w $KFLAGS -o "$W/$n.seq" "$c" $KLIB -lm || continue
	"$W/$n.seq" >"$W/$n.want"
	# shellcheck disable=SC2086
	"$B/mtpar" -np 2 $KFLAGS -o "$W/$n.par.c" "$c" 2>/dev/null &&
		gcc -O2 -fopenmp -w $KFLAGS -o "$W/$n.par" "$W/$n.par.c" $KLIB -lm || continue
	# shellcheck disable=SC2086
	gcc -O2 -w -ftree-parallelize-loops=2 $KFLAGS -o "$W/$n.gcc" "$c" $KLIB -lm || continue
	# shellcheck disable=SC2086
	span=$("$B/mtpar" -np 2 $KFLAGS --dump=sched "$c" 2>/dev/null | grep -c '^plan .*: span')
	median_walls "$W/$n.want" "$W/$n.seq" "$W/$n.par" "$W/$n.gcc" >"$W/medians"
	{ read -r seq; read -r par; read -r gccp; } <"$W/medians"
	echo "| $n | $seq | $par | $(ratio "$seq" "$par") | $gccp | $(ratio "$seq" "$gccp") | $([ "$span" -gt 0 ] && echo yes || echo no) |" >>"$rows"
done
rows=$W/rows.kernels
# the TVM 0.17 USMP model (testsuite/usmp): 200 inferences, the two files as one program
U=testsuite/usmp
UF="-std=c99 -w -I $U/include -DRUNS=200"
mkdir -p "$W/usmp"
cp $U/default_lib0.c $U/default_lib1.c "$W/usmp/"
# shellcheck disable=SC2086
if gcc -O2 $UF -o "$W/usmp.seq" $U/default_lib0.c $U/default_lib1.c $U/main.c -lm &&
   "$B/mtpar" -np 2 -I $U/include "$W/usmp/default_lib0.c" "$W/usmp/default_lib1.c" 2>/dev/null &&
   gcc -O2 -fopenmp $UF -o "$W/usmp.par" "$W/usmp/default_lib0.par.c" "$W/usmp/default_lib1.par.c" \
       $U/main.c -lm &&
   gcc -O2 -ftree-parallelize-loops=2 $UF -o "$W/usmp.gcc" $U/default_lib0.c $U/default_lib1.c \
       $U/main.c -lm; then
	"$W/usmp.seq" | grep -v '^time_s' >"$W/usmp.want"
	for v in seq par gcc; do # the outputs without the time line
		printf '#!/bin/sh\n"%s" | grep -v "^time_s"\n' "$W/usmp.$v" >"$W/usmp.$v.sh"
		chmod +x "$W/usmp.$v.sh"
	done
	median_walls "$W/usmp.want" "$W/usmp.seq.sh" "$W/usmp.par.sh" "$W/usmp.gcc.sh" >"$W/medians"
	{ read -r seq; read -r par; read -r gccp; } <"$W/medians"
	echo "| usmp (TVM 0.17, 200 inferences) | $seq | $par | $(ratio "$seq" "$par") | $gccp | $(ratio "$seq" "$gccp") | $(grep -q '#pragma omp parallel' "$W/usmp/default_lib1.par.c" && echo yes || echo no) |" >>"$W/rows.usmp"
fi

header() {
	echo "| $1 | sequential (s) | mtpar -np 2 (s) | speedup | GCC autopar 2 (s) | speedup | parallelized by mtpar |"
	echo "|---|---|---|---|---|---|---|"
}
# "N of M parallelized; geometric mean mtpar Ax, GCC Bx" over the rows of $1
summary() {
	awk -F'|' '$4 ~ /^ *[0-9.]+ *$/ && $5 ~ /^ *[0-9.]+ *$/ && $7 ~ /^ *[0-9.]+ *$/ {
		n++; m += log($5); g += log($7); p += ($8 ~ /yes/) }
		END { if (n) printf "%d of %d parallelized; geometric mean of the speedups: mtpar %.2fx, GCC autopar %.2fx\n", p, n, exp(m / n), exp(g / n) }' "$1"
}
{
	header kernel
	cat "$W/rows.kernels"
	echo
	summary "$W/rows.kernels"
	echo
	header "behaviour test"
	cat "$W/rows.tests"
	echo
	summary "$W/rows.tests"
	if [ -s "$W/rows.usmp" ]; then
		echo
		header model
		cat "$W/rows.usmp"
	fi
} >"$out"
cat "$out"
