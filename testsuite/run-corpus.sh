#!/bin/sh
# run-corpus.sh - the correctness gate on real generator output: every
# program of the corpus goes through mtpar at each core count of NPS, is
# built with gcc -O2 -fopenmp, and must print exactly its expected.txt (the
# sequential checksums), also under the runtime's jitter mode, which sleeps
# randomly at task boundaries to expose missing synchronisation.
# Prints PASS/FAIL lines; run-tests.sh counts them.
# Environment: B, CORPUS, NPS (default "1 2 3 4 7"), PROGRAMS (default: all).
set -u
B=${B:-build}
CORPUS=${CORPUS:-../shared/corpus}
NPS=${NPS:-1 2 3 4 7}
mkdir -p "$B/gate" "$B/corpus"
B=$(cd "$B" && pwd)        # absolute: programs run inside the corpus folders
CORPUS=$(cd "$CORPUS" && pwd)
SHIM=$CORPUS/tvm-shim
W=$B/gate
CF=$B/corpus
. testsuite/corpus.sh

# check_run NAME DIR COMMAND...: run in DIR; the output without time_s:
# must be DIR/expected.txt.
check_run() {
	name=$1 dir=$2
	shift 2
	if (cd "$dir" && "$@") 2>"$W/err" | grep -v '^time_s:' >"$W/out" &&
	   cmp -s "$W/out" "$dir/expected.txt"; then
		echo "PASS: $name"
	else
		echo "FAIL: $name"; diff "$dir/expected.txt" "$W/out" | head -5; head -3 "$W/err"
	fi
}

onnx2c() { # program
	d=$CORPUS/$1
	wo=$(weights_obj "$1")
	for np in $NPS; do
		out=$W/$1.np$np
		if "$B/mtpar" -np "$np" -o "$out.c" "$d/net.c" 2>"$W/err" &&
		   gcc -O2 -fopenmp -w -o "$out" "$out.c" "$d/main.c" "$wo" -lm 2>>"$W/err"; then
			check_run "corpus $1 -np $np" "$d" "$out"
			check_run "corpus $1 -np $np jitter" "$d" env MTPAR_JITTER=1 "$out"
		else
			echo "FAIL: corpus $1 -np $np: build"; head -3 "$W/err"
		fi
		rm -f "$out" "$out.c"
	done
}

tvm08() { # program: default_lib0.c + default_lib1.c analysed together
	d=$CORPUS/$1
	if [ -f "$d/default_lib1.c" ]; then l1=$d/default_lib1.c; else l1=$(unpack "$1/default_lib1.c.xz"); fi
	args=
	if [ -f "$d/params.bin.xz" ]; then args=$(unpack "$1/params.bin.xz"); fi
	for np in $NPS; do
		out=$W/$1.np$np
		mkdir -p "$out.d"
		ln -sf "$d/default_lib0.c" "$out.d/default_lib0.c"
		ln -sf "$(cd "$(dirname "$l1")" && pwd)/$(basename "$l1")" "$out.d/default_lib1.c"
		if "$B/mtpar" -np "$np" -I "$SHIM/include" -I "$d" "$out.d/default_lib0.c" \
			"$out.d/default_lib1.c" 2>"$W/err" &&
		   gcc -O2 -std=c99 -fopenmp -w -I"$d" -I"$SHIM/include" -o "$out" "$out.d/default_lib0.par.c" \
			"$out.d/default_lib1.par.c" "$d/main.c" "$SHIM/tvm_shim.c" -lm 2>>"$W/err"; then
			# shellcheck disable=SC2086
			check_run "corpus $1 -np $np" "$d" "$out" $args
			# shellcheck disable=SC2086
			check_run "corpus $1 -np $np jitter" "$d" env MTPAR_JITTER=1 "$out" $args
		else
			echo "FAIL: corpus $1 -np $np: build"; head -3 "$W/err"
		fi
		rm -rf "$out" "$out.d"
	done
}

for d in "$CORPUS"/onnx2c-* "$CORPUS"/tvm08-*; do
	p=$(basename "$d")
	case " ${PROGRAMS:-$p} " in *" $p "*) ;; *) continue ;; esac
	case $p in
	onnx2c-*) onnx2c "$p" ;;
	tvm08-*) tvm08 "$p" ;;
	esac
done
