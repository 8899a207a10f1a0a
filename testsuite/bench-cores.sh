#!/bin/sh
# bench-cores.sh - the speedup of mtpar's output at many core counts, on a
# machine that cannot build it: `prepare` builds everything here, `run`
# times it there (it needs only sh, awk and python3 or xz).
#
#   sh testsuite/bench-cores.sh prepare DIR   # here: B, CORPUS, NPS
#   sh testsuite/bench-cores.sh run DIR OUT   # there: OUT gets the tables
#
# For every corpus program and every kernel of testsuite/kernels: the
# sequential build, mtpar's output at each -np of NPS (default 2 4 7 8 16)
# and GCC's -ftree-parallelize-loops at the same counts.  The weights do not
# travel once per build: onnx2c's weights.o, and the __tvm_param__ arrays of
# TVM's AOT libraries (cut out of each build's default_lib1 into a file of
# their own, the same text), become one shared library per program that
# every build of it links.  The sequential builds link it the same way, so
# the comparison is fair.  Environment for run: REPEAT (default 3; GCC's
# builds run once), DEADLINE (seconds; later runs are skipped, default 480).
set -u
NPS=${NPS:-2 4 7 8 16}
REPEAT=${REPEAT:-3}
DEADLINE=${DEADLINE:-480}
KFLAGS="-I testsuite/kernels -DLARGE_DATASET -DH=384 -DW=384"
KLIB=testsuite/kernels/support/bench.c
TESTS=" blocks calls cascade clonetraps columns contexts foldtraps gathers headcopy heads layouts liveout permute privates reuse rttraps shear smallspan triangles zeroed formacros pragmas pragmaops siblings directives threadlocal fpmodes prologue statements predefs aliases macrostmts macroops linemarks kernelmacro c11words privarrays privtraps privreverse pooled poolfail macrofree texttraps latetypes complexes nests nestslices errnos fpflags operands parencasts literals "

# ---- prepare (here) ----

# cut_params IN CODE WEIGHTS: TVM's static parameter arrays out of IN.
cut_params() {
	awk -v w="$3" '
		/^static const float __tvm_param__p[0-9]+\[[0-9]+\] = \{$/ {
			d = $0; sub(/^static /, "", d); print d > w
			e = $0; sub(/^static /, "extern ", e); sub(/ = \{$/, ";", e); print e
			inside = 1; next }
		inside { print > w; if ($0 ~ /\};[ \t]*$/) inside = 0; next }
		{ print }' "$1" >"$2"
}

# shellcheck disable=SC2086 # $link is a list of words
prepare_onnx2c() { # program
	d=$CORPUS/$1 lib=$D/lib/libw_$1.so
	gcc -shared -o "$lib" "$(weights_obj "$1")" || return 1
	link="-no-pie -L$D/lib -lw_$1 -lm -Wl,-rpath,\$ORIGIN/../lib"
	# shellcheck disable=SC2086
	gcc -O2 -o "$D/bin/$1.seq" "$d/net.c" "$d/main.c" $link || return 1
	for np in $NPS; do
		"$B/mtpar" -np "$np" -o "$W/$1.c" "$d/net.c" &&
			gcc -O2 -fopenmp -o "$D/bin/$1.np$np" "$W/$1.c" "$d/main.c" $link || return 1
		gcc -O2 -ftree-parallelize-loops="$np" -o "$D/bin/$1.gcc$np" "$d/net.c" "$d/main.c" $link || return 1
	done
	rm -f "$W/$1.c"
}

prepare_tvm08() { # program
	d=$CORPUS/$1 l1=$(lib1_of "$1") t=$W/$1
	inc="-std=c99 -w -I$d -I$SHIM/include"
	mkdir -p "$t"
	cut_params "$l1" "$t/code.c" "$t/weights.c"
	link="$SHIM/tvm_shim.c -lm"
	if [ -s "$t/weights.c" ]; then
		gcc -O2 -shared -fPIC -o "$D/lib/libw_$1.so" "$t/weights.c" || return 1
		link="-no-pie -L$D/lib -lw_$1 -Wl,-rpath,\$ORIGIN/../lib $link"
	fi
	# shellcheck disable=SC2086
	gcc -O2 $inc -o "$D/bin/$1.seq" "$d/default_lib0.c" "$t/code.c" "$d/main.c" $link || return 1
	for np in $NPS; do
		# shellcheck disable=SC2086
		gcc -O2 $inc -ftree-parallelize-loops="$np" -o "$D/bin/$1.gcc$np" \
			"$d/default_lib0.c" "$t/code.c" "$d/main.c" $link || return 1
		ln -sf "$d/default_lib0.c" "$t/default_lib0.c" && ln -sf "$l1" "$t/default_lib1.c" &&
			"$B/mtpar" -np "$np" -I "$SHIM/include" -I "$d" "$t/default_lib0.c" "$t/default_lib1.c" &&
			cut_params "$t/default_lib1.par.c" "$t/code.par.c" /dev/null &&
			rm -f "$t/default_lib1.par.c" || return 1
		# shellcheck disable=SC2086
		gcc -O2 $inc -fopenmp -o "$D/bin/$1.np$np" "$t/default_lib0.par.c" "$t/code.par.c" "$d/main.c" $link ||
			return 1
	done
	rm -rf "$t"
}

prepare_kernel() { # source
	n=$(basename "$1" .c)
	# shellcheck disable=SC2086
	gcc -O2 -w $KFLAGS -o "$D/kbin/$n.seq" "$1" $KLIB -lm || return 1
	for np in $NPS; do
		# shellcheck disable=SC2086
		"$B/mtpar" -np "$np" $KFLAGS -o "$W/$n.c" "$1" 2>/dev/null &&
			gcc -O2 -w -fopenmp $KFLAGS -o "$D/kbin/$n.np$np" "$W/$n.c" $KLIB -lm &&
			gcc -O2 -w -ftree-parallelize-loops="$np" $KFLAGS -o "$D/kbin/$n.gcc$np" "$1" $KLIB -lm ||
			return 1
	done
	rm -f "$W/$n.c"
}

prepare_example() { # source: examples/ as make demo builds them
	n=$(basename "$1" .c)
	gcc -O2 -std=c11 -o "$D/kbin/$n.seq" "$1" -lm || return 1
	for np in $NPS; do
		"$B/mtpar" -np "$np" -o "$W/$n.c" "$1" &&
			gcc -O2 -std=c11 -fopenmp -o "$D/kbin/$n.np$np" "$W/$n.c" -lm &&
			gcc -O2 -std=c11 -ftree-parallelize-loops="$np" -o "$D/kbin/$n.gcc$np" "$1" -lm ||
			return 1
	done
	rm -f "$W/$n.c"
	echo "$n" >>"$D/examples"
}

prepare() {
	B=$(cd "${B:-build}" && pwd)
	CORPUS=$(cd "${CORPUS:-../shared/corpus}" && pwd)
	SHIM=$CORPUS/tvm-shim
	CF=$B/corpus W=$B/cores
	# shellcheck source=testsuite/corpus.sh
	. testsuite/corpus.sh
	P=$D T=$B/cores-tree # the builds in T (kept: a program built before is not built again), packed into P
	D=$T
	mkdir -p "$D/bin" "$D/kbin" "$D/lib" "$D/data" "$CF" "$W" "$P"
	gcc -O2 -std=c99 -fopenmp -Iapi -o "$D/bin/costs" testsuite/runtime/costs.c
	cp "$(gcc -print-file-name=libgomp.so.1)" "$D/lib/"
	echo "$NPS" >"$D/nps"
	for dir in "$CORPUS"/onnx2c-* "$CORPUS"/tvm08-*; do
		p=$(basename "$dir") gen=${p%%-*}
		echo "prepare $p" >&2
		mkdir -p "$D/data/$p"
		cp "$dir/expected.txt" "$D/data/$p/"
		[ -f "$dir/params.bin.xz" ] && cp "$dir/params.bin.xz" "$D/data/$p/"
		[ -e "$D/bin/$p.gcc${NPS##* }" ] || "prepare_$gen" "$p" || echo "$p: not prepared" >&2
	done
	for c in testsuite/kernels/*.c; do
		case $TESTS in *" $(basename "$c" .c) "*) continue ;; esac
		prepare_kernel "$c" || echo "$c: not prepared" >&2
	done
	: >"$D/examples"
	for c in examples/tvm_aot.c examples/onnx2c_net.c examples/inception.c examples/residual.c; do
		prepare_example "$c" || echo "$c: not prepared" >&2
	done
	# One archive: the builds of a program share most of their bytes.
	(cd "$D" && tar cf - bin kbin lib data nps examples | xz -T2 -6 >"$P/pack.tar.xz")
	ls -l "$P"
}

# ---- run (there) ----

unpack_all() {
	if command -v xz >/dev/null; then
		xz -dc pack.tar.xz | tar xf -
	else
		python3 -c 'import tarfile; tarfile.open("pack.tar.xz").extractall()'
	fi
	for x in data/*/params.bin.xz; do
		[ -f "$x" ] || continue
		if command -v xz >/dev/null; then xz -d "$x"; else
			python3 -c 'import lzma, sys; open(sys.argv[1][:-3], "wb").write(lzma.open(sys.argv[1]).read())' "$x"
		fi
	done
}

late() { [ $(($(date +%s) - START)) -ge "$DEADLINE" ]; }

median() { sort -g | awk '{ t[NR] = $1 } END { if (NR) print t[int((NR + 1) / 2)]; else print "-" }'; }

# corpus_time PROGRAM BUILD REPS: median time_s, "wrong" or "fail".
corpus_time() {
	args=
	[ -f "data/$1/params.bin" ] && args=$PWD/data/$1/params.bin
	k=0
	: >"$TIMES"
	while [ $k -lt "$3" ]; do
		late && break
		# shellcheck disable=SC2086
		(cd "data/$1" && LD_LIBRARY_PATH=$LIBS "$PWD/../../bin/$1.$2" $args) >out 2>/dev/null || { echo fail; return; }
		grep -v '^time_s:' out | cmp -s - "data/$1/expected.txt" || { echo wrong; return; }
		sed -n 's/^time_s: *//p' out >>"$TIMES"
		k=$((k + 1))
	done
	median <"$TIMES"
}

# kernel_time KERNEL BUILD REPS: median seconds (the program's time_s
# line where it prints one, else the wall time), or "wrong"/"fail".
kernel_time() {
	k=0
	: >"$TIMES"
	while [ $k -lt "$3" ]; do
		late && break
		s=$(date +%s.%N)
		LD_LIBRARY_PATH=$LIBS "kbin/$1.$2" >out 2>&1 || { echo fail; return; }
		e=$(date +%s.%N)
		grep -v '^time_s:' out | cmp -s - "kbin/$1.want" || { echo wrong; return; }
		t=$(sed -n 's/^time_s: *//p' out)
		if [ -n "$t" ]; then echo "$t"; else echo "$s $e" | awk '{ printf "%.4f\n", $2 - $1 }'; fi >>"$TIMES"
		k=$((k + 1))
	done
	median <"$TIMES"
}

speedup() { # seq t
	case $2 in [0-9]*) echo "$1 $2" | awk '{ printf "%.2fx", $1 / $2 }' ;; *) echo "$2" ;; esac
}

# table KIND NAMES...: one row per program, mtpar then GCC at each count.
table() {
	kind=$1
	shift
	hm='' hg='' sep=''
	for np in $NPS; do hm="$hm mtpar $np |" hg="$hg GCC $np |" sep="$sep---:|---:|"; done
	echo "| program | sequential (s) |$hm$hg"
	echo "|---|---:|$sep"
	for p in "$@"; do
		[ -e "bin/$p.seq" ] || [ -e "kbin/$p.seq" ] || continue
		if [ "$kind" = kernel ]; then
			LD_LIBRARY_PATH=$LIBS "kbin/$p.seq" 2>&1 | grep -v '^time_s:' >"kbin/$p.want"
			seq=$(kernel_time "$p" seq "$REPEAT")
		else
			seq=$(corpus_time "$p" seq "$REPEAT")
		fi
		row="| $p | $seq |" rg=
		for np in $NPS; do
			"${kind}_time" "$p" "np$np" "$REPEAT" >t.m
			"${kind}_time" "$p" "gcc$np" 1 >t.g
			row="$row $(speedup "$seq" "$(cat t.m)") |" rg="$rg $(speedup "$seq" "$(cat t.g)") |"
		done
		echo "$row$rg"
	done
}

run() {
	START=$(date +%s)
	cd "$D" || exit 1
	unpack_all
	LIBS=$PWD/lib TIMES=$PWD/times
	NPS=$(cat nps)
	{
		echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(uname -r)"
		echo
		for np in 2 4 8 16; do [ "$np" -le "$(nproc)" ] && LD_LIBRARY_PATH=$LIBS bin/costs "$np" && echo; done
		echo "## corpus (speedup = sequential / parallel, median of $REPEAT runs of time_s; GCC once)"
		echo
		# shellcheck disable=SC2046 # one name per word
		table corpus $(cd data && ls -d tvm08-* onnx2c-*)
		echo
		echo "## examples (make demo's; time_s, median of $REPEAT runs; GCC once)"
		echo
		# shellcheck disable=SC2046
		table kernel $(cat examples)
		echo
		echo "## kernels (LARGE; wall time, median of $REPEAT runs; GCC once)"
		echo
		# shellcheck disable=SC2046
		table kernel $(cd kbin && ls -- *.seq | sed 's/\.seq$//' | grep -vxF -f ../examples)
		echo
		echo "total $(($(date +%s) - START)) s"
	} 2>&1 | tee "$OUT_FILE"
}

case ${1:-} in
prepare) D=$(mkdir -p "$2" && cd "$2" && pwd) && prepare ;;
run) D=$2 OUT_FILE=$3 && run ;;
*) echo "usage: $0 prepare DIR | run DIR OUTFILE" >&2; exit 2 ;;
esac
