#!/bin/sh
# bench-speedup.sh - `make bench`, second half: speed of the generated code.
# For each corpus program: the sequential build, mtpar at -np 2 and at -np
# nproc, GCC's -ftree-parallelize-loops=2, and "#pragma omp parallel for" on
# every outermost loop of every node function (what a user would write by
# hand); each the median of REPEAT runs of the program's own time_s, and
# whether its output matches expected.txt.  mtpar's predicted speedup comes
# from --dump=sched, with its estimates and with the costs that one run of a
# --profile build measured (--costs).  Prints a Markdown table, also left in $B/bench-speedup.md.
# Environment: B, CORPUS, REPEAT (default 5), PROGRAMS (default: all).
set -u
B=${B:-build}
CORPUS=${CORPUS:-../shared/corpus}
REPEAT=${REPEAT:-5}
NPROC=$(nproc)
mkdir -p "$B/speed" "$B/corpus"
B=$(cd "$B" && pwd)
CORPUS=$(cd "$CORPUS" && pwd)
SHIM=$CORPUS/tvm-shim
W=$B/speed
CF=$B/corpus
. testsuite/corpus.sh

# The hand-written baseline: a pragma before each loop at a function body's
# top level (one tab in onnx2c, two blanks in TVM) whose header OpenMP
# accepts (one loop variable: not onnx2c's "o0=0, i0=-1").
naive_omp() {
	sed -E 's/^(\t|  )(for *\( *[^;,]*;)/#pragma omp parallel for\n\1\2/' "$1" >"$2"
}

# median time_s of REPEAT runs, or "fail" when an output differs; in dir $1.
median_time() {
	dir=$1
	shift
	i=0
	: >"$W/times"
	while [ $i -lt "$REPEAT" ]; do
		(cd "$dir" && "$@") >"$W/out" 2>/dev/null || { echo fail; return; }
		grep -v '^time_s:' "$W/out" | cmp -s - "$dir/expected.txt" || { echo wrong; return; }
		sed -n 's/^time_s: *//p' "$W/out" >>"$W/times"
		i=$((i + 1))
	done
	sort -g "$W/times" | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}

predicted_of() { # generator program [mtpar-options]: mtpar's predicted speedup at -np 2
	d=$CORPUS/$2 g=$1
	shift 2
	if [ "$g" = onnx2c ]; then set -- "$@" "$d/net.c"; else set -- "$@" -I "$SHIM/include" -I "$d" "$d/default_lib0.c" "$(lib1_of "$(basename "$d")")"; fi
	r=$("$B/mtpar" -np 2 --dump=sched "$@" 2>/dev/null | sed -n 's/^whole function:.*predicted speedup \([0-9.]*\).*/\1/p' | sort -g | tail -1)
	echo "${r:-1.00}"
}

# The prediction from measured costs: a --profile build at -np 2 runs once
# and mtpar --costs schedules with what it measured; "-" when it fails.
profiled_prediction() { # generator program run-arguments
	prof=$W/$2.profile
	rm -f "$prof"
	# shellcheck disable=SC2086
	if "build_$1" "$2" prof >"$W/build.log" 2>&1 &&
	   (cd "$CORPUS/$2" && MTPAR_PROFILE="$prof" "$W/$2.prof" $3 >/dev/null 2>&1) && [ -s "$prof" ]; then
		echo "$(predicted_of "$1" "$2" --costs "$prof")x"
	else
		echo "-"
	fi
	rm -rf "$W/$2.prof" "$W/$2.prof.c" "$W/$2.prof.d"
}

# build VARIANT: leaves $W/VARIANT, or returns 1 (prof: -np 2 --profile).
build_onnx2c() { # program variant
	d=$CORPUS/$1 wo=$(weights_obj "$1") x=$W/$1.$2
	case $2 in
	seq) gcc -O2 -o "$x" "$d/net.c" "$d/main.c" "$wo" -lm ;;
	np*) "$B/mtpar" -np "${2#np}" -o "$x.c" "$d/net.c" &&
		gcc -O2 -fopenmp -o "$x" "$x.c" "$d/main.c" "$wo" -lm ;;
	prof) "$B/mtpar" -np 2 --profile -o "$x.c" "$d/net.c" &&
		gcc -O2 -fopenmp -o "$x" "$x.c" "$d/main.c" "$wo" -lm ;;
	gccpar) gcc -O2 -ftree-parallelize-loops=2 -o "$x" "$d/net.c" "$d/main.c" "$wo" -lm ;;
	omp) naive_omp "$d/net.c" "$x.c" && gcc -O2 -fopenmp -o "$x" "$x.c" "$d/main.c" "$wo" -lm ;;
	esac
}

build_tvm08() { # program variant
	d=$CORPUS/$1 x=$W/$1.$2 v=$2
	l1=$(lib1_of "$1")
	set -- "$d/default_lib0.c" "$l1" # from here on the variant is $v
	case $v in
	np* | prof) mkdir -p "$x.d" && ln -sf "$d/default_lib0.c" "$x.d/default_lib0.c" &&
		ln -sf "$l1" "$x.d/default_lib1.c" &&
		if [ "$v" = prof ]; then set -- -np 2 --profile; else set -- -np "${v#np}"; fi &&
		"$B/mtpar" "$@" -I "$SHIM/include" -I "$d" "$x.d/default_lib0.c" "$x.d/default_lib1.c" &&
		set -- "$x.d/default_lib0.par.c" "$x.d/default_lib1.par.c" || return 1 ;;
	omp) { naive_omp "$l1" "$x.lib1.c" && set -- "$d/default_lib0.c" "$x.lib1.c"; } || return 1 ;;
	esac
	case $v in
	seq) flags= ;;
	gccpar) flags=-ftree-parallelize-loops=2 ;;
	*) flags=-fopenmp ;;
	esac
	# shellcheck disable=SC2086
	gcc -O2 -std=c99 -w $flags -I"$d" -I"$SHIM/include" -o "$x" "$@" "$d/main.c" "$SHIM/tvm_shim.c" -lm
}

if [ "$NPROC" = 2 ]; then
	VARIANTS="seq np2 gccpar omp" LAST_NP=np2 NPHEAD=
else
	VARIANTS="seq np2 np$NPROC gccpar omp" LAST_NP=np$NPROC NPHEAD=" mtpar -np $NPROC |"
fi
{
	echo "| program | sequential (s) | mtpar -np 2 |$NPHEAD predicted -np 2 | predicted from a profile | gcc -ftree-parallelize-loops=2 | omp parallel for, outermost loops |"
	echo "|---|---:|---:|---:|---:|---:|---:|${NPHEAD:+---:|}"
	for d in "$CORPUS"/onnx2c-* "$CORPUS"/tvm08-*; do
		p=$(basename "$d")
		case " ${PROGRAMS:-$p} " in *" $p "*) ;; *) continue ;; esac
		gen=${p%%-*}
		args=
		[ -f "$d/params.bin.xz" ] && args=$(unpack "$p/params.bin.xz")
		line="| $p"
		seq=
		for v in $VARIANTS; do
			if "build_$gen" "$p" "$v" >"$W/build.log" 2>&1; then
				# shellcheck disable=SC2086
				t=$(median_time "$d" "$W/$p.$v" $args)
			else
				t="no build"
			fi
			rm -rf "$W/$p.$v" "$W/$p.$v.c" "$W/$p.$v.d" "$W/$p.$v.lib1.c"
			case $t in
			[0-9]*) if [ -z "$seq" ]; then cell=$t; else cell=$(echo "$seq $t" | awk '{ printf "%.2fx (%s s)", $1 / $2, $2 }'); fi ;;
			*) cell=$t ;;
			esac
			[ "$v" = seq ] && seq=${t%%[!0-9.]*}
			line="$line | $cell"
			[ "$v" = "$LAST_NP" ] &&
				line="$line | $(predicted_of "$gen" "$p")x | $(profiled_prediction "$gen" "$p" "$args")"
		done
		echo "$line |"
	done
} | tee "$B/bench-speedup.md"
echo "(median of $REPEAT runs of each program's time_s; speedup = sequential / parallel; $NPROC cores, $(uname -m); 'wrong': output differs from expected.txt)"
