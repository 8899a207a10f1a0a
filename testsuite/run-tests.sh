#!/bin/sh
# run-tests.sh - everything `make check` runs, one PASS/FAIL line per case
# and an "N passed, N failed" summary (after cproc's runtests):
#   unit     CUnit tests of the algorithmic core
#   golden   testsuite/golden/*.c against their expected --dump=mt output
#   bad      bad inputs against their expected diagnostics, exit 1, no output
#   rewrite  the output of every example and corpus file is byte-identical
#   corpus   every corpus C file parses with no ERROR or MISSING node and
#            every function definition in it is recognised
#   run      examples built from mtpar's output print the sequential checksum
#   workspace  TVM 0.8-style operators that allocate their own workspace,
#            against an allocator that aborts when used from two threads
#   packed   graph-executor operators (tensors behind loaded pointers) called
#            with separate, identical and overlapping tensors
#   branches random programs whose ifs hold work: the dynamic scheduler
#   kernels  loop nests in the style of benchmark suites (sizes in a header
#            found through -I, or from -D) give the sequential output
#   usmp     an int8 model in TVM 0.17's USMP shape (two files, workspaces
#            passed down as pointers) gives the sequential output
#   cli      "-" and "-o -", -o through a link, the first-line comment,
#            #line, --report's classes, --dot=FILE, -v, carets
#   install  make install into a temporary prefix, examples/api_client.c
#            built through pkg-config, several library runs in one process
#   adversarial  nesting far deeper than real code, long functions and lines,
#            a BOM, CRLF, pragmas at span edges, odd bytes, self-including
#            headers: a result or a located diagnostic, never a crash or hang
#   power    --dump=sched --power and --deadline 1.5x of the examples against
#            testsuite/golden/power/, bad FV tables and deadlines, --gantt
#            SVGs, the runtime's oscar_fvcontrol and MTPAR_FV_TRACE
# Environment: B (build dir), CORPUS (../shared/corpus), UPDATE_POWER=1
# rewrites testsuite/golden/power/ from the current output (after a change
# to the cost model).
set -u
# the example networks (examples/api_client.c is a library client, not one)
EXAMPLES=$(ls examples/*.c | grep -v "/api_client\.c$")
B=${B:-build}
CORPUS=${CORPUS:-../shared/corpus}
MTPAR=$B/mtpar
T=$B/test
SHIM=$CORPUS/tvm-shim/include
pass=0
fail=0
rm -rf "$T" && mkdir -p "$T"

ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

# The graphs written with --dot and --dot-mfg render.
check_dot() {
	if dot -Tsvg "$T/mtg.dot" >/dev/null 2>"$T/doterr" && dot -Tsvg "$T/mfg.dot" >/dev/null 2>>"$T/doterr"; then
		ok "dot -Tsvg renders the MTG and MFG of $1"
	else
		bad "dot -Tsvg $1"; head -5 "$T/doterr"
	fi
}

# ---- unit ----
if "$B/unit-tests" >"$T/unit.log" 2>&1; then ok "unit tests"; else bad "unit tests (see $T/unit.log)"; cat "$T/unit.log"; fi
grep -E "^ +(suites|tests|asserts) " "$T/unit.log" | sed 's/^/  /'

# ---- golden: --dump=STAGE against X.STAGE where the file exists ----
for c in testsuite/golden/*.c; do
	for stage in mt pp mfg mtg; do
		exp=${c%.c}.$stage
		[ -f "$exp" ] || continue
		if "$MTPAR" --dump=$stage "$c" >"$T/out" 2>&1 && diff -u "$exp" "$T/out" >"$T/diff"; then
			ok "golden $stage $c"
		else
			bad "golden $stage $c"; cat "$T/diff"
		fi
	done
done

# ---- graphs of the examples and golden inputs render ----
# and list their functions' clusters in program order (not heap order)
clusters_in_order() { # dump-of-funcs dot-file
	sed 's/.* //' "$1" >"$T/order.want"
	sed -n 's/^	subgraph cluster_\([^ ]*\) {$/\1/p' "$2" >"$T/order.got"
	# every drawn function, in the order of the program's definitions
	grep -Fxf "$T/order.got" "$T/order.want" | cmp -s - "$T/order.got"
}
for c in $EXAMPLES testsuite/golden/*.c; do
	if "$MTPAR" --dump=funcs --dot "$T/mtg.dot" --dot-mfg "$T/mfg.dot" "$c" >"$T/funcs" 2>"$T/err"; then
		check_dot "$c"
		if clusters_in_order "$T/funcs" "$T/mtg.dot" && clusters_in_order "$T/funcs" "$T/mfg.dot"; then
			ok "dot clusters of $c in program order"
		else
			bad "dot clusters of $c in program order"; cat "$T/order.got"
		fi
	else
		bad "dot $c"; head -5 "$T/err"
	fi
done

# ---- bad input: diagnostic text, exit status 1, no output file ----
check_bad() { # name expected-stderr-file file...
	name=$1 exp=$2
	shift 2
	rm -f "$T/bad.par.c"
	"$MTPAR" -o "$T/bad.par.c" "$@" >/dev/null 2>"$T/err"
	rc=$?
	if [ $rc -eq 1 ] && [ ! -e "$T/bad.par.c" ] && diff -u "$exp" "$T/err" >"$T/diff"; then
		ok "bad $name"
	else
		bad "bad $name (exit $rc)"; cat "$T/diff" 2>/dev/null
	fi
}
for c in testsuite/bad/*.c; do
	check_bad "$c" "${c%.c}.err" "$c"
done
printf 'int x;\0\n' >"$T/binary.c"
printf 'int caf\351 = 1;\n' >"$T/latin1.c"
mkdir -p "$T/dir.c"
printf 'mtpar: error: %s: No such file or directory\n' "$T/missing.c" >"$T/exp"
check_bad "missing file" "$T/exp" "$T/missing.c"
printf '%s:1:7: error: NUL byte in the source (a binary file?)\n' "$T/binary.c" >"$T/exp"
check_bad "binary file" "$T/exp" -fno-diagnostics-show-caret "$T/binary.c"
printf '%s:1:8: error: stray '"'"'\\351'"'"' in program\n' "$T/latin1.c" >"$T/exp"
check_bad "a byte that is not C outside literals" "$T/exp" -fno-diagnostics-show-caret "$T/latin1.c"
printf 'mtpar: error: %s: is a directory, not a C source file\n' "$T/dir.c" >"$T/exp"
check_bad "directory" "$T/exp" "$T/dir.c"
if [ "$(id -u)" != 0 ]; then
	printf 'int x;\n' >"$T/secret.c" && chmod 000 "$T/secret.c"
	printf 'mtpar: error: %s: Permission denied\n' "$T/secret.c" >"$T/exp"
	check_bad "unreadable file" "$T/exp" "$T/secret.c"
fi
printf "mtpar: error: unrecognized command-line option '--frobnicate'\nTry 'mtpar --help' for more information.\n" >"$T/exp"
check_bad "unknown option" "$T/exp" --frobnicate examples/residual.c
printf "mtpar: error: '-DX(': a macro name must be an identifier, its parameters closed by ')'\nTry 'mtpar --help' for more information.\n" >"$T/exp"
check_bad "a -D that GCC refuses" "$T/exp" '-DX(' examples/residual.c

# ---- power: the power schedule's dump, bad tables and deadlines, Gantt charts ----
for c in $EXAMPLES; do
	n=$(basename "$c" .c)
	for mode in fastest deadline; do
		exp=testsuite/golden/power/$n.$mode
		flag=--power
		[ $mode = deadline ] && flag="--deadline 1.5x"
		# shellcheck disable=SC2086
		"$MTPAR" -np 4 --dump=sched $flag "$c" >"$T/out" 2>&1
		[ -n "${UPDATE_POWER:-}" ] && cp "$T/out" "$exp"
		if [ -f "$exp" ] && diff -u "$exp" "$T/out" >"$T/diff"; then
			ok "golden power $mode $c"
		else
			bad "golden power $mode $c"; cat "$T/diff" 2>/dev/null
		fi
	done
done
for f in testsuite/bad/*.fv; do
	check_bad "$f" "${f%.fv}.err" --fv-table "$f" testsuite/golden/diamond.c
done
# a deadline below the schedule at full speed: the bound in seconds and as 1x
rm -f "$T/bad.par.c"
"$MTPAR" -o "$T/bad.par.c" --cost-model=unlimited --deadline 0.5x testsuite/golden/diamond.c >/dev/null 2>"$T/err"
rc=$?
if [ $rc -eq 1 ] && [ ! -e "$T/bad.par.c" ] &&
   grep -Eq "^testsuite/golden/diamond.c:[0-9]+:[0-9]+: error: deadline [0-9.e+-]+ s \(0.5x\) is shorter than the critical path of the schedule of 'diamond' at full speed, [0-9.e+-]+ s \(1x\)$" "$T/err"; then
	ok "bad deadline 0.5x"
else
	bad "bad deadline 0.5x (exit $rc)"; cat "$T/err"
fi
printf "mtpar: error: %s: cannot write the Gantt chart: No such file or directory\n" "$T/none/g.svg" >"$T/exp"
check_bad "gantt in a missing directory" "$T/exp" --power --gantt "$T/none/g.svg" testsuite/golden/diamond.c
if "$MTPAR" --fv-table doc/fv-table.example --dump=sched testsuite/golden/diamond.c >/dev/null 2>"$T/err"; then
	ok "doc/fv-table.example loads"
else
	bad "doc/fv-table.example loads"; cat "$T/err"
fi
# every task of the power dump is a node of the chart
for c in $EXAMPLES; do
	rm -f "$T/g.svg"
	"$MTPAR" -np 4 --power --dump=sched --gantt "$T/g.svg" "$c" >"$T/out" 2>"$T/err"
	awk '/^plan [^:]*: span/ { f = $2; sub(/:$/, "", f) } /^power / { p = 1 } /^all FULL/ { p = 0 }
	     p && /^  [^ ]+ \[/ && $1 != "idle" { print f "/" $1 }' "$T/out" >"$T/tasks"
	missing=$(while read -r t; do grep -qF "<title>$t</title>" "$T/g.svg" || echo "$t"; done <"$T/tasks")
	if [ -s "$T/g.svg" ] && grep -q "<svg" "$T/g.svg" && grep -q "</svg>" "$T/g.svg" && [ -z "$missing" ]; then
		ok "gantt $c ($(wc -l <"$T/tasks") tasks)"
	else
		bad "gantt $c"; echo "$missing" | head -5; head -5 "$T/err"
	fi
done
# the runtime's cost benchmark (make bench) builds warning-free and runs
if gcc -std=c99 -fopenmp -Wall -Wextra -Werror -Iapi -o "$T/costs" testsuite/runtime/costs.c 2>"$T/err" &&
   "$T/costs" 2 100 >"$T/costs.md" 2>&1 && [ "$(grep -c '^| .* | [0-9.]* |$' "$T/costs.md")" -eq 7 ]; then
	ok "runtime cost benchmark"
else
	bad "runtime cost benchmark"; cat "$T/err" "$T/costs.md"
fi
# the runtime alone: a trace line per call, at most one notice, same result
if gcc -std=c99 -fopenmp -Wall -Wextra -Werror -Iapi -o "$T/fvcontrol" testsuite/runtime/fvcontrol.c 2>"$T/err"; then
	rm -f "$T/fv.trace"
	MTPAR_FV_TRACE="$T/fv.trace" "$T/fvcontrol" >"$T/out" 2>"$T/err"
	if grep -qx "checksum: 71928.0" "$T/out" && [ "$(wc -l <"$T/fv.trace")" -eq 16 ] &&
	   [ "$(grep -c '^[0-9]* [0-3] \(FULL\|MID\|LOW\|OFF\)$' "$T/fv.trace")" -eq 16 ] &&
	   [ "$(wc -l <"$T/err")" -le 1 ]; then
		ok "runtime oscar_fvcontrol and MTPAR_FV_TRACE"
	else
		bad "runtime oscar_fvcontrol and MTPAR_FV_TRACE"; cat "$T/out" "$T/err"; head -20 "$T/fv.trace"
	fi
else
	bad "runtime oscar_fvcontrol: build"; head -5 "$T/err"
fi

# ---- corpus: decompress once into $B/corpus ----
CF=$B/corpus
. testsuite/corpus.sh
mkdir -p "$CF"

# Function definitions as generators write them: a header at column 0 with
# ") {" on the same line, or alone with "{" opening the next line.
defs_in() {
	awk '/^[A-Za-z_][^;=]*\)[ \t]*\{/ && !/^(if|for|while|switch|else|do|struct|union|enum)[ (]/ {
		print; next }
	/^\{/ && prev ~ /^[A-Za-z_][^;=]*\)[ \t]*$/ { print prev }
	{ prev = $0 }' "$@" | sed -E 's/\(.*//; s/.*[ *]//' | sort
}

# The files parse, and every definition in them is a function of the IR.
check_parse() { # files analysed together
	name=$1
	# shellcheck disable=SC2086
	if "$MTPAR" -I "$SHIM" -I "$(dirname "$name")" --dump=funcs --dot "$T/mtg.dot" \
		--dot-mfg "$T/mfg.dot" "$@" >"$T/funcs" 2>"$T/err"; then
		check_dot "$name"
		sed 's/.* //' "$T/funcs" | sort >"$T/found"
		defs_in "$@" >"$T/want"
		comm -23 "$T/want" "$T/found" >"$T/diff" # definitions the IR lacks
		if [ ! -s "$T/diff" ]; then
			ok "corpus parse $* ($(wc -l <"$T/found") functions)"
		else
			bad "corpus parse $*: functions missed"; head -20 "$T/diff"
		fi
	else
		bad "corpus parse $*"; head -5 "$T/err"
	fi
}

# Rewriting keeps the text byte for byte where nothing is parallelized: at
# -np 1 every function stays sequential, so the output is the input.
check_identity() { # files analysed together
	name=$1
	for f in "$@"; do
		if "$MTPAR" -np 1 -I "$SHIM" -I "$(dirname "$name")" -o "$T/same.c" "$f" 2>"$T/err" &&
		   sh testsuite/unchanged.sh "$f" "$T/same.c"; then
			ok "rewrite identity at -np 1 $f"
		else
			bad "rewrite identity at -np 1 $f"; head -5 "$T/err"
		fi
	done
	rm -f "$T/same.c"
}

if [ -d "$CORPUS" ]; then
	corpus_programs >"$T/corpus.list"
	while read -r files; do
		# shellcheck disable=SC2086
		check_parse $files && check_identity $files
	done <"$T/corpus.list"
	# every other C file: harnesses, the TVM shim, the weights
	for f in "$CORPUS"/*/main.c "$CORPUS"/tvm-shim/*.c; do
		check_parse "$f"
	done
	for d in "$CORPUS"/onnx2c-*; do
		[ -f "$d/weights.c.xz" ] || continue
		w=$(unpack "$(basename "$d")/weights.c.xz")
		check_parse "$w"
		[ -n "${KEEP_CORPUS:-}" ] || rm -f "$w" # hundreds of MB each
	done
else
	echo "note: no corpus at $CORPUS; corpus tests skipped"
fi

# ---- run: examples through mtpar, same checksum as the sequential build ----
for c in $EXAMPLES; do
	n=$(basename "$c" .c)
	if ! gcc -O2 -std=c11 -w -o "$T/$n.seq" "$c" -lm 2>"$T/err"; then
		bad "run $c: sequential build"; head -5 "$T/err"; continue
	fi
	"$T/$n.seq" | grep -v '^time_s:' >"$T/$n.want"
	for np in 1 2 3 4 7; do
		if ! "$MTPAR" -np $np -o "$T/$n.par.c" "$c" 2>"$T/err" ||
		   ! gcc -O2 -std=c11 -fopenmp -w -o "$T/$n.par" "$T/$n.par.c" -lm 2>>"$T/err"; then
			bad "run $c -np $np: build"; head -5 "$T/err"; continue
		fi
		for jitter in "" 1; do
			if env ${jitter:+MTPAR_JITTER=1} "$T/$n.par" | grep -v '^time_s:' >"$T/$n.got" &&
			   cmp -s "$T/$n.want" "$T/$n.got"; then
				ok "run $c -np $np${jitter:+ jitter}"
			else
				bad "run $c -np $np${jitter:+ jitter}"
			fi
		done
	done
	# power control: oscar_fvcontrol at each change, the same result, a trace
	# where a call is emitted (a schedule without slack changes no state)
	for flags in "--power" "--api=oscar --deadline 2x"; do
		rm -f "$T/$n.trace"
		# shellcheck disable=SC2086
		if "$MTPAR" -np 4 $flags -o "$T/$n.par.c" "$c" 2>"$T/err" &&
		   gcc -O2 -std=c11 -fopenmp -w -o "$T/$n.par" "$T/$n.par.c" -lm 2>>"$T/err" &&
		   MTPAR_FV_TRACE="$T/$n.trace" "$T/$n.par" 2>/dev/null | grep -v '^time_s:' >"$T/$n.got" &&
		   cmp -s "$T/$n.want" "$T/$n.got" &&
		   { ! grep -q "oscar_fvcontrol([0-9]" "$T/$n.par.c" || [ -s "$T/$n.trace" ]; }; then
			ok "run $c -np 4 $flags"
		else
			bad "run $c -np 4 $flags"; head -5 "$T/err"
		fi
	done
	# --profile: the same result, a line per region, task and core; --costs
	# reads them back and schedules every task with its measured time
	rm -f "$T/$n.prof"
	for api in openmp oscar; do
		if "$MTPAR" -np 2 --api=$api --profile -o "$T/$n.prof.c" "$c" 2>"$T/err" &&
		   gcc -O2 -std=c11 -fopenmp -Wall -Wno-unused -Wno-unknown-pragmas -o "$T/$n.profiled" "$T/$n.prof.c" -lm 2>>"$T/err" &&
		   MTPAR_PROFILE="$T/$n.prof" "$T/$n.profiled" | grep -v '^time_s:' >"$T/$n.got" &&
		   cmp -s "$T/$n.want" "$T/$n.got" &&
		   [ "$(grep -c '^region [a-z_0-9]* runs [1-9][0-9]* ns [0-9]* predicted' "$T/$n.prof")" -ge 1 ] &&
		   ! grep '^task ' "$T/$n.prof" | grep -qv ' runs [1-9][0-9]* ns [0-9]* predicted [0-9]*$'; then
			ok "run $c --profile --api=$api"
		else
			bad "run $c --profile --api=$api"; head -5 "$T/err"
		fi
	done
	ntasks=$(grep -c '^task ' "$T/$n.prof")
	if "$MTPAR" -np 2 --costs "$T/$n.prof" --dump=sched "$c" >"$T/out" 2>"$T/err" &&
	   grep -q '^whole function: .* predicted speedup' "$T/out" && [ "$ntasks" -gt 0 ]; then
		ok "run $c --costs from its profile ($ntasks task lines)"
	else
		bad "run $c --costs from its profile"; head -5 "$T/err"
	fi
done
printf 'task f 0 MT1 runs 1 ns 5\n' >"$T/bad.prof"
printf '%s:1:1: error: not a task line of a profile (task FUNC CORE NAME runs N ns T predicted P)\n' "$T/bad.prof" >"$T/exp"
check_bad "a profile line without its prediction" "$T/exp" -fno-diagnostics-show-caret --costs "$T/bad.prof" testsuite/golden/diamond.c

# A directory's net.c through mtpar at several core counts, with and without
# jitter, against its sequential build with main.c; leaves $T/NAME.par.c (of
# -np 7), $T/NAME.par and $T/NAME.want, and returns 1 when net.c and main.c
# do not build sequentially.
run_tier() { # name dir extra-gcc-flags [extra-mtpar-flags]
	if ! gcc -O2 -std=c11 -w -o "$T/$1.seq" "$2/net.c" "$2/main.c" 2>"$T/err"; then
		bad "$1: sequential build"; head -5 "$T/err"; return 1
	fi
	"$T/$1.seq" >"$T/$1.want" 2>&1
	for np in 1 2 3 4 7; do
		# shellcheck disable=SC2086
		if ! "$MTPAR" -np $np ${4:-} -o "$T/$1.par.c" "$2/net.c" 2>"$T/err" ||
		   ! gcc -O2 -std=c11 -fopenmp $3 -I "$2" -o "$T/$1.par" "$T/$1.par.c" "$2/main.c" 2>>"$T/err"; then
			bad "$1 -np $np: build"; head -5 "$T/err"; continue
		fi
		for jitter in "" 1; do
			if env ${jitter:+MTPAR_JITTER=1} "$T/$1.par" >"$T/$1.got" 2>&1 &&
			   cmp -s "$T/$1.want" "$T/$1.got"; then
				ok "$1 -np $np${jitter:+ jitter}"
			else
				bad "$1 -np $np${jitter:+ jitter}"; head -3 "$T/$1.got"
			fi
		done
	done
}

# ---- workspace: TVM 0.8-style scratch under a non-thread-safe allocator ----
if run_tier workspace testsuite/workspace -w; then
	if grep -q "mtpar_buf0 = (void \*)TVMBackendAllocWorkspace" "$T/workspace.par.c"; then
		ok "workspace taken by the caller"
	else
		bad "workspace taken by the caller"
	fi
	# the caller's own workspace and the callees' are mapped before the fork;
	# with MTPAR_PREFAULT=0 they are not, and the result is the same
	if grep -q "mtpar_prefault(sid_1, 16384);" "$T/workspace.par.c" &&
	   grep -q "mtpar_prefault(mtpar_buf0, 17424);" "$T/workspace.par.c" &&
	   MTPAR_PREFAULT=0 "$T/workspace.par" >"$T/workspace.got" 2>&1 &&
	   cmp -s "$T/workspace.want" "$T/workspace.got"; then
		ok "workspaces mapped before the fork"
	else
		bad "workspaces mapped before the fork"
	fi
fi

# ---- packed: graph-executor operators whose tensors may overlap ----
# operators of a few microseconds: the default cost model keeps them
# sequential (a fork costs more than they gain), so the tier forces the plans
if run_tier packed testsuite/packed "-Wall -Werror" --cost-model=unlimited; then
	# every operator split, each behind the check of its tensors' bytes (those
	# that a callee reaches through x + 1 included)
	if [ "$(grep -c '^[[:space:]]*mtpar_apart(' "$T/packed.par.c")" -eq 4 ] &&
	   grep -q "mtpar_apart(y, 0, 16384, x, 0, 17424)" "$T/packed.par.c" &&
	   grep -q "mtpar_apart(y, 0, 16384, x, 0, 16388)" "$T/packed.par.c" &&
	   [ "$(grep -c 'slice: r in' "$T/packed.par.c")" -ge 4 ]; then
		ok "packed loops split behind run-time checks"
	else
		bad "packed loops split behind run-time checks"
	fi
fi

# ---- kernels: loop nests as benchmark suites write them, sizes in a header or -D ----
# At these small sizes the default cost model keeps most of them sequential
# (the gain does not pay for the fork); --cost-model=unlimited makes the
# parallel code that the tier checks.
KFLAGS="-I testsuite/kernels -DH=96 -DW=80"
KMODEL=--cost-model=unlimited
KLIB=testsuite/kernels/support/bench.c # the suite's support file, built with each kernel
for c in testsuite/kernels/*.c; do
	n=k_$(basename "$c" .c)
	# shellcheck disable=SC2086
	if ! gcc -O2 -std=c11 -w $KFLAGS -o "$T/$n.seq" "$c" $KLIB -lm 2>"$T/err"; then
		bad "kernel $c: sequential build"; head -5 "$T/err"; continue
	fi
	"$T/$n.seq" >"$T/$n.want"
	for np in 1 2 3 4 7; do
		# shellcheck disable=SC2086
		if ! "$MTPAR" -np $np $KFLAGS $KMODEL -o "$T/$n.par.c" "$c" 2>"$T/err" ||
		   ! gcc -O2 -std=c11 -fopenmp -w $KFLAGS -o "$T/$n.par" "$T/$n.par.c" $KLIB -lm 2>>"$T/err"; then
			bad "kernel $c -np $np: build"; head -5 "$T/err"; continue
		fi
		for jitter in "" 1; do
			if env ${jitter:+MTPAR_JITTER=1} "$T/$n.par" >"$T/$n.got" 2>&1 &&
			   cmp -s "$T/$n.want" "$T/$n.got"; then
				ok "kernel $c -np $np${jitter:+ jitter}"
			else
				bad "kernel $c -np $np${jitter:+ jitter}"; head -3 "$T/$n.got"
			fi
		done
	done
	# the sizes from the header and -D are constants: the kernel is parallelized
	# (the plan made and the code generated), unless its comment names what
	# mtpar cannot do yet ("mtpar: sequential, ..."), and then it is not
	want=parallelized
	grep -q 'mtpar: sequential' "$c" && want=sequential
	# shellcheck disable=SC2086
	if "$MTPAR" -np 2 $KFLAGS $KMODEL -o "$T/$n.np2.c" "$c" 2>"$T/err" &&
	   { grep -q '#pragma omp parallel' "$T/$n.np2.c" && got=parallelized || got=sequential; } &&
	   [ "$got" = "$want" ]; then
		ok "kernel $c $want"
	else
		bad "kernel $c $want"
	fi
done
# the output builds as C++ too, as g++ builds a .c file (TVM's export_library
# does): the runtime takes the library's declarations from its headers there
if command -v g++ >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	if "$MTPAR" -np 2 $KFLAGS $KMODEL -o "$T/k_cxx.c" testsuite/kernels/gemm.c 2>"$T/err" &&
	   g++ -x c++ -O2 -fopenmp -w $KFLAGS -o "$T/k_cxx" "$T/k_cxx.c" -x c $KLIB -lm 2>>"$T/err" &&
	   "$T/k_cxx" >"$T/k_cxx.got" && cmp -s "$T/k_gemm.want" "$T/k_cxx.got"; then
		ok "kernel gemm.c's output built as C++"
	else
		bad "kernel gemm.c's output built as C++"; head -5 "$T/err"
	fi
fi
# same_at_np NAME KERNEL TITLE [ARGS...]: $T/NAME.seq built from
# testsuite/kernels/KERNEL.c with $KL; mtpar's output at -np 2, 3 and 7
# prints what it prints, run plainly and, with ARGS, under MTPAR_JITTER=1
same_at_np() {
	sn=$1 sk=$2 stitle=$3
	shift 3
	"$T/$sn.seq" >"$T/$sn.want"
	"$T/$sn.seq" "$@" >"$T/$sn.want2"
	for np in 2 3 7; do
		# shellcheck disable=SC2086
		if "$MTPAR" -np $np $KL -o "$T/$sn.c" "testsuite/kernels/$sk.c" 2>"$T/err" &&
		   gcc -O2 -std=c11 -fopenmp -w $KL -o "$T/$sn.par" "$T/$sn.c" 2>>"$T/err" &&
		   "$T/$sn.par" >"$T/$sn.got" && cmp -s "$T/$sn.want" "$T/$sn.got" &&
		   MTPAR_JITTER=1 "$T/$sn.par" "$@" >"$T/$sn.got" && cmp -s "$T/$sn.want2" "$T/$sn.got"; then
			ok "$stitle -np $np"
		else
			bad "$stitle -np $np"; head -3 "$T/err"
		fi
	done
}
# expect_lines TITLE FILE PATTERN...: ok when FILE has a line matching each
# grep PATTERN; otherwise bad, with the patterns missing and FILE's start
expect_lines() {
	el_title=$1 el_file=$2 el_missing=
	shift 2
	for el_pat in "$@"; do
		grep -q -- "$el_pat" "$el_file" || el_missing="$el_missing  missing: $el_pat
"
	done
	if [ -z "$el_missing" ]; then
		ok "$el_title"
	else
		bad "$el_title"; printf '%s' "$el_missing"; grep -v '^ ' "$el_file" | cut -c1-160 | head -20
	fi
}
# sizes that only the run knows (rtsizes.c reads them from its command line):
# the loops are split at run time where the symbolic test allows, each behind
# its if clause; the output is the sequential one at the header's sizes and
# at others given on the command line
KL="-I testsuite/kernels -DLARGE_DATASET"
# shellcheck disable=SC2086
if gcc -O2 -std=c11 -w $KL -o "$T/k_rt.seq" testsuite/kernels/rtsizes.c 2>"$T/err"; then
	same_at_np k_rt rtsizes "run-time sizes" 400 333
	# shellcheck disable=SC2086
	"$MTPAR" -np 2 $KL --dump=sched testsuite/kernels/rtsizes.c >"$T/k_rt.dump" 2>&1
	if [ "$(grep -c '^plan \(gemm\|syrk_lower\|transpose\|blur\|spill\): span loop .* split at run time' "$T/k_rt.dump")" -eq 5 ] &&
	   grep -q '^plan gemm: .*mtpar_apart(c, 0LL, -8000LL + 8008LL \* (long long)n, a, ' "$T/k_rt.dump" &&
	   grep -q '^plan transpose: .*1000LL - (long long)n >= 0' "$T/k_rt.dump" &&
	   grep -q '^plan blur: .*(long long)w - 1LL >= 0' "$T/k_rt.dump" &&
	   grep -q '^plan seidel: .*sequential: iterations may depend on each other through B' "$T/k_rt.dump" &&
	   grep -q '^plan total: .*sequential: it assigns s' "$T/k_rt.dump"; then
		ok "run-time sizes: the loops split, their conditions, the dependent ones sequential"
	else
		bad "run-time sizes: the loops split, their conditions, the dependent ones sequential"
		grep '^plan' "$T/k_rt.dump" | cut -c1-160
	fi
else
	bad "run-time sizes: sequential build"
fi
# what a review found the split got wrong (rttraps.c): size_t sizes in the
# clause (each cast to long long), a signed counter against an unsigned bound,
# counters that a loop around the split one runs on
"$MTPAR" -np 2 -I testsuite/kernels --dump=sched testsuite/kernels/rttraps.c >"$T/k_traps.dump" 2>&1
expect_lines "run-time sizes: unsigned sizes, mixed signs, counters of a loop around" "$T/k_traps.dump" \
	'^plan rows_of_16: span loop .*(16LL - (long long)m >= 0)) || ((-16LL \* (long long)rows + 16LL >= 0)' \
	'^plan from: .*sequential' \
	'^plan main: loop 36:3 .*sequential: it assigns j' \
	'^plan main: loop 42:3 .*sequential: its counter i is used after it'
# loops whose bounds move with a loop around them that carries a dependence
# (triangles.c, at the large sizes and the default cost model, so that no
# plan of main hides them): the ones whose writes lie apart from their reads
# are split at run time, a fork per run; the ones that meet keep their order,
# and so does one whose runs are too short to pay for a fork
# shellcheck disable=SC2086
if gcc -O2 -std=c11 -w $KL -o "$T/k_tri.seq" testsuite/kernels/triangles.c 2>"$T/err"; then
	same_at_np k_tri triangles "moving bounds"
	# shellcheck disable=SC2086
	"$MTPAR" -np 2 $KL --dump=sched testsuite/kernels/triangles.c >"$T/k_tri.dump" 2>&1
	expect_lines "moving bounds: the loops apart split, the ones that meet or are short sequential" "$T/k_tri.dump" \
		'^plan eliminate: span loop .* split at run time' \
		'^plan column: .*sequential: no run of it has the work to pay for a fork' \
		'^plan shift: .*sequential: iterations may depend on each other through X' \
		'^plan diagonal: .*sequential: iterations may depend on each other through B' \
		'^plan before: .*sequential: iterations may depend on each other through C'
else
	bad "moving bounds: sequential build"
fi
# perfect nests whose outer loop carries a dependence (nestslices.c, at the
# large sizes and the default cost model, so that each kernel has a plan of
# its own): the inner loop is split in place, each slice running every
# iteration of the outer loop; a column that reads the one before keeps
# its order.  nests.c, with the kernels above, splits such loops in clones.
# shellcheck disable=SC2086
if gcc -O2 -std=c11 -w $KL -o "$T/k_ns.seq" testsuite/kernels/nestslices.c 2>"$T/err"; then
	same_at_np k_ns nestslices "perfect nests"
	# shellcheck disable=SC2086
	"$MTPAR" -np 2 $KL --report -o /dev/null testsuite/kernels/nestslices.c >"$T/k_ns.rep" 2>&1
	expect_lines "perfect nests: the inner loop split in place, a column recurrence sequential" "$T/k_ns.rep" \
		'optimized: loop split in place: 2 slices run in parallel, each running every iteration of the loop at line 33' \
		'missed: shifted kept sequential'
else
	bad "perfect nests: sequential build"
fi
# shellcheck disable=SC2086
"$MTPAR" -np 7 $KFLAGS $KMODEL --report -o /dev/null testsuite/kernels/nests.c >"$T/k_nests.rep" 2>&1
expect_lines "perfect nests in clones: inner loops split, 64 columns a chunk at least, traps whole" "$T/k_nests.rep" \
	'optimized: loop of transposed called at line .*: 5 chunks run in parallel, each running every iteration of the loop at line 34' \
	'optimized: loop of relax called at line .*: 5 chunks run in parallel, each running every iteration' \
	'missed: call to next_column .*through v' \
	'missed: call to suffix .*through q' \
	'missed: call to narrow .*through h'
# subscripts in another order than the loops (permute.c): a loop over a
# middle subscript (a channel shuffle, NCHW to NHWC, an axis moved to the
# middle) is split, its chunks apart row by row; a plane shifted by one and
# a union's other view keep their order
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KFLAGS $KMODEL --report -o "$T/k_perm.c" testsuite/kernels/permute.c >"$T/k_perm.rep" 2>&1
expect_lines "permuted subscripts: the middle levels split, a shifted plane and a union's other view sequential" "$T/k_perm.rep" \
	'optimized: loop of shuffle called' \
	'optimized: loop of to_nhwc called' \
	'optimized: loop of to_middle called' \
	'call to stagger .*depend on each other through Stag' \
	'call to views .*depend on each other through u$'
# a header that copies its counter in the step (headcopy.c, onnx2c's
# max-pool `m++, c=m`) splits; a lagging copy, one that starts elsewhere, one
# the body reassigns and an unsigned char one keep their order
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KFLAGS $KMODEL --report -o "$T/k_hc.c" testsuite/kernels/headcopy.c >"$T/k_hc.rep" 2>&1
expect_lines "header copies of the counter: the max-pool splits, a lagging, offset, reassigned or narrowing copy sequential" "$T/k_hc.rep" \
	'optimized: loop of pool called' \
	'optimized: loop of row_sums called' \
	'call to lagging .*step updates something besides' \
	'call to offset .*copy of the first induction variable, starts at 1, not 0' \
	'call to halved .*copy of the first induction variable, is assigned in the loop' \
	'call to narrow .*depend on each other through Wrap'
# at the bench's sizes, the default model keeps the max-pool's level plan
# (a fork in each of 125 iterations, 8 us of work each) sequential: a
# summary spans every iteration, and its traffic once counted 100 times
# one run's (the output ran at 0.40x in make bench)
# shellcheck disable=SC2086
"$MTPAR" -np 2 -I testsuite/kernels -DLARGE_DATASET -DH=384 -DW=384 --report -o "$T/k_hc2.c" testsuite/kernels/headcopy.c >"$T/k_hc2.rep" 2>&1
if grep -q 'pool parallelized' "$T/k_hc2.rep" || ! grep -q 'main kept sequential' "$T/k_hc2.rep"; then
	bad "a fork per iteration of a small max-pool: kept sequential"; head -5 "$T/k_hc2.rep"
else
	ok "a fork per iteration of a small max-pool: kept sequential"
fi
# loop headers spelled by macros (formacros.c, loops.h): each use is expanded
# in the output, lines kept (run-cli.sh checks the #lines), and the loops
# it spells split
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KFLAGS $KMODEL --report-all -o "$T/k_fm.c" testsuite/kernels/formacros.c >"$T/k_fm.rep" 2>&1
expect_lines "loop and declaration macros: expanded where they spell more than an expression, the loops split" "$T/k_fm.rep" \
	"formacros.c:24:2: note: macro 'FOR2' expanded in the output" \
	"formacros.c:52:3: note: macro 'FOR_STEP' expanded in the output" \
	"formacros.c:20:8: note: macro 'ALIGNED' expanded in the output" \
	"formacros.c:57:1: note: macro 'KERNEL' expanded in the output" \
	'optimized: loop of product called' \
	'optimized: loop of row_sums called'
expect_lines "loop macros: the output keeps the expression macros" "$T/k_fm.c" \
	'Hb\[IDX(i, j)\] = (Gb\[IDX(i - 1, j)\]' \
	'for ( int k = 0 ; k < ( 320 ) ; k ++ )  s += A\[i\]\[k\]'
# a time loop around one sweep, the whole body of its function (relax.c):
# the function has a plan of its own, and main a second one for its other
# work, whose span does not reach relax
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KFLAGS $KMODEL --report -o "$T/k_rl.c" testsuite/kernels/relax.c >"$T/k_rl.rep" 2>&1
expect_lines "one sweep in a time loop: its function planned, and main around it" "$T/k_rl.rep" \
	'relax.c:23:1: optimized: relax parallelized' \
	'relax.c:26:3: optimized: loop split in place: 2 slices' \
	'optimized: main parallelized' \
	'optimized: loop of init called at line 37'
# two phases that each save less than the threads' start, together more
# (pooled.c): the program is planned as if the start were paid, and both
# are parallelized
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KL --report -o "$T/k_pool.c" testsuite/kernels/pooled.c >"$T/k_pool.rep" 2>&1
expect_lines "two phases pay for the threads' start together" "$T/k_pool.rep" \
	'pooled.c:21:1: optimized: main parallelized' \
	'pooled.c:11:1: optimized: work parallelized'
# fdtd-2d's three sweeps, each split by rows (fdtd2d.c): chunk k of every
# sweep on core k, the aligned schedule, not the ey sweep on one core and
# the ex sweep on the other
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KL --dump=sched -o /dev/null testsuite/kernels/fdtd2d.c >"$T/k_fd.dump" 2>&1
if sed -n '/^plan kernel_fdtd_2d/,/^whole function/p' "$T/k_fd.dump" | grep -q '^schedule aligned'; then
	ok "sweeps over the same rows: each chunk on its own core"
else
	bad "sweeps over the same rows: each chunk on its own core"; grep '^schedule\|^plan' "$T/k_fd.dump"
fi
# scratch arrays (privarrays.c): the four that every iteration writes whole
# before it reads get a copy per chunk, and none of the six traps does
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KFLAGS $KMODEL --report -o "$T/k_pa.c" testsuite/kernels/privarrays.c >"$T/k_pa.rep" 2>&1
expect_lines "arrays each iteration writes first: a copy per chunk" "$T/k_pa.rep" \
	'privarrays.c:48:2: optimized: loop of global_row called at line 188: 2 chunks run in parallel, each with its own copy of row' \
	'privarrays.c:63:2: optimized: loop split in place: 2 slices run in parallel, each with its own copy of pair' \
	'privarrays.c:78:2: optimized: loop split in place: 2 slices run in parallel, each with its own copy of tmp' \
	'privarrays.c:91:2: optimized: loop split in place: 2 slices run in parallel, each with its own copy of t'
if [ "$(grep -c 'own copy' "$T/k_pa.rep")" = 4 ]; then
	ok "arrays that carry values, differ per iteration or have another name: no copies"
else
	bad "arrays that carry values, differ per iteration or have another name: no copies"; cat "$T/k_pa.rep"
fi
# the same in loops that count down (privreverse.c): the chunk with the
# lowest counter leaves its copy; a row carried from the iteration above stays
"$MTPAR" -np 2 $KFLAGS $KMODEL --report -o "$T/k_prv.c" testsuite/kernels/privreverse.c >"$T/k_prv.rep" 2>&1
expect_lines "arrays in loops that count down: a copy per chunk" "$T/k_prv.rep" \
	'privreverse.c:44:2: optimized: loop of down_global called at line 90: 2 chunks run in parallel, each with its own copy of row' \
	'privreverse.c:61:2: optimized: loop split in place: 2 slices run in parallel, each with its own copy of t' \
	'privreverse.c:75:2: missed: loop (MT2) not split: iterations depend on each other through carry'
# a workspace each iteration takes (poolfail.c): the kernel loop above runs
# it with a pool too small for it, where the original gives up and so must
# the output; here with room for it, the fork condition takes and gives back
# one, and the region runs and leaves the pool as the original does
# shellcheck disable=SC2086
if gcc -O2 -std=c11 -w $KFLAGS -DPOOL=4096 -o "$T/k_pf.seq" testsuite/kernels/poolfail.c &&
   "$T/k_pf.seq" >"$T/k_pf.want" &&
   "$MTPAR" -np 2 $KFLAGS $KMODEL -o "$T/k_pf.c" testsuite/kernels/poolfail.c 2>"$T/err" &&
   grep -q 'mtpar_probe = (void \*)TVMBackendAllocWorkspace(1, 0, (uint64_t)640, 2, 32)) != (void \*)0' "$T/k_pf.c" &&
   gcc -O2 -std=c11 -fopenmp -w $KFLAGS -DPOOL=4096 -o "$T/k_pf.par" "$T/k_pf.c" 2>>"$T/err" &&
   MTPAR_JITTER=1 "$T/k_pf.par" >"$T/k_pf.got" && cmp -s "$T/k_pf.want" "$T/k_pf.got"; then
	ok "a workspace each iteration takes: probed before the fork"
else
	bad "a workspace each iteration takes: probed before the fork"; head -3 "$T/err"
fi
# a function planned on its own (not in main's span) that stays sequential
# still says why, and why each of its loops is not split
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KL --report -o "$T/k_pt.c" testsuite/kernels/privtraps.c >"$T/k_pt.rep" 2>&1
expect_lines "a function planned apart that stays sequential: the report says why" "$T/k_pt.rep" \
	'privtraps.c:55:1: missed: narrow_counter kept sequential: predicted speedup [0-9.]* on 2 cores (1 task,' \
	'privtraps.c:60:2: missed: loop (MT2) not split: iterations depend on each other through tmp'
# loops that count down (reverse.c): split into chunks that run from the
# top; the back substitution keeps its dependence; under the default model
# the count down from a size the run gives is split at run time
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KFLAGS $KMODEL --report -o "$T/k_rv.c" testsuite/kernels/reverse.c >"$T/k_rv.rep" 2>&1
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KFLAGS --report -o "$T/k_rv2.c" testsuite/kernels/reverse.c >>"$T/k_rv.rep" 2>&1
expect_lines "loops that count down: split, their chunks from the top" "$T/k_rv.rep" \
	'reverse.c:35:2: optimized: loop of scale_rows called at line 99: 2 chunks' \
	'reverse.c:48:2: optimized: loop of column_sums called at line 100: 2 chunks' \
	'reverse.c:60:2: optimized: loop of odd_rows called at line 101: 2 chunks' \
	'reverse.c:68:2: optimized: loop of shift_rows called at line 102: 2 chunks' \
	'reverse.c:103:2: missed: call to back_substitute (MT7) not split: its loop is not split: iterations depend on each other through x' \
	'reverse.c:88:2: optimized: loop split at run time'
# a whole program in main (mainloop.c): main's plan goes into the time
# loop, and more plans of its top level split the loops after it and the
# one before it; the three regions' labels differ (-Wall -Werror), and the
# result is the same
# shellcheck disable=SC2086
if "$MTPAR" -np 2 $KL --report -o "$T/k_ml.c" testsuite/kernels/mainloop.c >"$T/k_ml.rep" 2>&1 &&
   gcc -O2 -std=c11 -fopenmp -Wall -Werror $KL -o "$T/k_ml" "$T/k_ml.c" 2>"$T/err" &&
   gcc -O2 -std=c11 -w $KL -o "$T/k_ml.seq" testsuite/kernels/mainloop.c 2>>"$T/err" &&
   "$T/k_ml.seq" >"$T/k_ml.want" && MTPAR_JITTER=1 "$T/k_ml" >"$T/k_ml.got" &&
   cmp -s "$T/k_ml.want" "$T/k_ml.got"; then
	expect_lines "main's time loop and the loops around it: three regions" "$T/k_ml.rep" \
		'mainloop.c:24:3: optimized: loop split in place: 2 slices' \
		'mainloop.c:29:2: optimized: loop split in place: 2 slices' \
		'mainloop.c:18:2: optimized: loop split in place: 2 slices'
else
	bad "main's time loop and the loops around it: three regions"; head -5 "$T/err" "$T/k_ml.rep"
fi
# operators whose status the caller stores and tests (siblings.c): the
# caller's span stops at each test, its plan goes into one operator, and
# the operators beside it get plans of their own
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KL --report -o "$T/k_sib.c" testsuite/kernels/siblings.c >"$T/k_sib.rep" 2>&1
expect_lines "operators called beside the one a root's plan went into: planned too" "$T/k_sib.rep" \
	'siblings.c:12:1: optimized: add_bias parallelized' \
	'siblings.c:22:1: optimized: scale_rows parallelized' \
	'siblings.c:32:1: optimized: clip parallelized'
# the threads' start is paid once a program (middle/runs.c runs_bound): a
# callee that main calls twice (macroops.c, 12 ms in all) pays half of it
# a call and stays sequential with main; once main's region in heapdecl.c
# pays for the team, shift(), called twice, gets a region of its own
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KL --report -o "$T/k_mo.c" testsuite/kernels/macroops.c >"$T/k_mo.rep" 2>&1
"$MTPAR" -np 2 $KL --report -o "$T/k_hd.c" testsuite/kernels/heapdecl.c >>"$T/k_mo.rep" 2>&1
expect_lines "the threads' start: paid once a program, in shares by what runs twice" "$T/k_mo.rep" \
	'macroops.c:35:1: missed: main kept sequential: .*does not pay for starting the threads' \
	'heapdecl.c:[0-9]*:1: optimized: shift parallelized'
if grep -q '#pragma omp parallel' "$T/k_mo.c"; then
	bad "macroops.c: no region"
else
	ok "macroops.c: no region"
fi
# directives inside function bodies (directives.c): no code moves across a
# #define or #undef (scaled() is split in place, never cloned), and a loop
# whose body is an #include stays whole
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KFLAGS $KMODEL --report -o "$T/k_dir.c" testsuite/kernels/directives.c >"$T/k_dir.rep" 2>&1
if grep -q 'directives.c:14:1: optimized: scaled parallelized' "$T/k_dir.rep" &&
   ! grep -q 'loop of scaled called\|directives.c:39:2: optimized' "$T/k_dir.rep"; then
	ok "#define, #undef and #include in a body: no code moves across them"
else
	bad "#define, #undef and #include in a body: no code moves across them"; cat "$T/k_dir.rep"
fi
# thread-local objects (threadlocal.c): code that names one runs on core 0,
# never as another core's task, chunk or run-time split
# shellcheck disable=SC2086
"$MTPAR" -np 3 $KFLAGS $KMODEL --report -o "$T/k_tls.c" testsuite/kernels/threadlocal.c >"$T/k_tls.rep" 2>&1
expect_lines "thread-local objects: what names one stays on the original thread" "$T/k_tls.rep" \
	'threadlocal.c:51:2: missed: call to use (MT4) not split: .*thread-local' \
	'threadlocal.c:52:2: missed: call to use_n (MT5) not split: .*thread-local' \
	'threadlocal.c:27:2: optimized: loop of independent called at line 50'
# callees that set locals between their loops (prologue.c): chunk calls
# run the settings again; not where a setting reads what the call writes or
# a local that a loop sets
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KFLAGS $KMODEL --report -o "$T/k_pro.c" testsuite/kernels/prologue.c >"$T/k_pro.rep" 2>&1
expect_lines "locals set between a callee's loops: its chunks set them again" "$T/k_pro.rep" \
	'prologue.c:20:2: optimized: loop of rescale called at line 63: 2 chunks' \
	'prologue.c:24:2: optimized: loop of rescale called at line 63: 2 chunks' \
	'prologue.c:64:2: missed: call to from_first (MT4) not split: .*read what the call writes' \
	'prologue.c:65:2: missed: call to after_counter (MT5) not split: local i is used outside'
# statements that write memory beside a callee's loops (statements.c): each
# a part that one chunk runs; one that sets a local from what the call
# writes keeps the call whole
# shellcheck disable=SC2086
"$MTPAR" -np 2 $KFLAGS $KMODEL --report -o "$T/k_st.c" testsuite/kernels/statements.c >"$T/k_st.rep" 2>&1
expect_lines "statements beside a callee's loops: parts of their own" "$T/k_st.rep" \
	'statements.c:24:2: optimized: loop of corner called at line 65: 2 chunks' \
	'statements.c:40:2: optimized: loop of middle called at line 66: 2 chunks' \
	'statements.c:68:2: missed: call to sets_local (MT6) not split: .*read what the call writes'
# its --profile names each task of its three regions once: the time loop's
# tasks after the loop ("MT4/MT1[0:500)"), so that --costs gives each
# region's tasks their own
# shellcheck disable=SC2086
if "$MTPAR" -np 2 $KL --profile -o "$T/k_mlp.c" testsuite/kernels/mainloop.c 2>"$T/err" &&
   gcc -O2 -std=c11 -fopenmp -w $KL -o "$T/k_mlp" "$T/k_mlp.c" 2>>"$T/err" &&
   rm -f "$T/k_ml.prof" && MTPAR_PROFILE="$T/k_ml.prof" "$T/k_mlp" >/dev/null &&
   [ "$(grep -c '^region main runs' "$T/k_ml.prof")" -eq 3 ] &&
   grep -q '^task main [01] MT[0-9]*/MT1\[' "$T/k_ml.prof" &&
   [ -z "$(awk '$1 == "task" { print $2, $4 }' "$T/k_ml.prof" | sort | uniq -d)" ]; then
	ok "two regions of one function: their tasks have a name each in --profile"
else
	bad "two regions of one function: their tasks have a name each in --profile"; head -5 "$T/err" "$T/k_ml.prof"
fi
# pragma_tier NAME KERNEL LINE: KERNEL.c's loop at LINE (under the user's
# pragmas) is split at run time, mtpar's output at -np 2 and (unlimited) -np 3
# builds with -Wall -Werror (no pragma before an if or a region's '{', none
# ignored) and prints what the sequential build prints
pragma_tier() {
	# shellcheck disable=SC2086
	if gcc -O2 -std=c11 -w $KL -o "$T/$1.seq" "testsuite/kernels/$2.c" 2>"$T/err" &&
	   "$T/$1.seq" >"$T/$1.want" &&
	   "$MTPAR" -np 2 $KL --report -o "$T/$1.c" "testsuite/kernels/$2.c" >"$T/$1.rep" 2>&1 &&
	   grep -q "$2.c:$3: optimized: loop split at run time" "$T/$1.rep" &&
	   "$MTPAR" -np 3 $KL $KMODEL -o "$T/$1.3.c" "testsuite/kernels/$2.c" 2>>"$T/err" &&
	   for f in "$T/$1" "$T/$1.3"; do
		gcc -O2 -std=c11 -fopenmp -Wall -Werror $KL -o "$f" "$f.c" 2>>"$T/err" &&
		"$f" >"$T/$1.got" && cmp -s "$T/$1.want" "$T/$1.got" || return 1
	   done; then
		return 0
	fi
	head -5 "$T/err"
	return 1
}
if pragma_tier k_pg pragmas 29:2; then
	ok "pragmas above split loops: split at run time, the output builds with -Werror"
else
	bad "pragmas above split loops: split at run time, the output builds with -Werror"
fi
# the same under C99's pragma operator: _Pragma("...") on its own line, from
# a macro, before the loop on its line, and above a region's '{'
if pragma_tier k_po pragmaops 31:2 &&
   grep -q '^	_Pragma("GCC ivdep") _Pragma("GCC unroll 2")$' "$T/k_po.3.c"; then
	ok "_Pragma above split loops and regions: the output builds with -Werror"
else
	bad "_Pragma above split loops and regions: the output builds with -Werror"
fi
# a plan the back end's check refuses (a register counter) is reported as
# kept sequential, not as parallelized and then refused
printf '#include <stdio.h>\ndouble a[20000];\nvoid init(void) { register int i; for (i = 0; i < 20000; i++) a[i] = i * 0.25; }\nint main(void) { init(); printf("%%g\\n", a[7]); return 0; }\n' >"$T/reg.c"
"$MTPAR" -np 2 --cost-model=unlimited --report -o "$T/reg.par.c" "$T/reg.c" >"$T/reg.rep" 2>&1
if grep -q "missed: init kept sequential: the output's check refused the plan: MT2 uses a register variable" "$T/reg.rep" &&
   ! grep -q 'optimized: init parallelized' "$T/reg.rep"; then
	ok "a plan the output's check refuses: reported as kept sequential"
else
	bad "a plan the output's check refuses: reported as kept sequential"; cat "$T/reg.rep"
fi
# a program that uses the names the output declares (a global mtpar_lo that
# a clone's parameter would hide) is left sequential, with a warning
printf '#include <stdio.h>\nstatic long mtpar_lo = 5;\ndouble a[20000];\nstatic void f(void) { for (int i = 0; i < 20000; i++) a[i] = i * mtpar_lo; }\nint main(void) { f(); f(); printf("%%g\\n", a[7]); return 0; }\n' >"$T/rsv.c"
if "$MTPAR" -np 2 --cost-model=unlimited -o "$T/rsv.par.c" "$T/rsv.c" 2>"$T/rsv.err" &&
   grep -q "rsv.c:2:13: warning: this program uses names that mtpar's parallel code declares" "$T/rsv.err" &&
   ! grep -q '#pragma omp parallel' "$T/rsv.par.c" &&
   gcc -O2 -std=c11 -fopenmp -o "$T/rsv.par" "$T/rsv.par.c" && [ "$("$T/rsv.par")" = 35 ]; then
	ok "names the output declares, used by the program: left sequential"
else
	bad "names the output declares, used by the program: left sequential"; cat "$T/rsv.err"
fi
# a small function called from a loop is not forked per call: calls.c forks
# once, in main, and cell() stays sequential
if "$MTPAR" -np 2 -I testsuite/kernels -DLARGE_DATASET -o "$T/k_calls.np2.c" testsuite/kernels/calls.c 2>"$T/err" &&
   [ "$(grep -c '#pragma omp parallel' "$T/k_calls.np2.c")" -eq 1 ] &&
   grep -q 'static unsigned mtpar_gen_main;' "$T/k_calls.np2.c"; then
	ok "kernel calls: one fork, in main; cell() sequential"
else
	bad "kernel calls: one fork, in main; cell() sequential"
fi
# a parallelized function called from two pthreads at once (sessions.c):
# one thread runs the region, the other the original code; no hang
gcc -O2 -std=c11 -w -o "$T/sess.seq" testsuite/runtime/sessions.c 2>"$T/err" &&
	"$T/sess.seq" >"$T/sess.want"
for np in 2 3; do
	if "$MTPAR" -np $np --cost-model=unlimited -o "$T/sess.c" testsuite/runtime/sessions.c 2>>"$T/err" &&
	   gcc -O2 -std=c11 -fopenmp -w -o "$T/sess" "$T/sess.c" 2>>"$T/err" &&
	   timeout 60 "$T/sess" >"$T/sess.got" && cmp -s "$T/sess.want" "$T/sess.got" &&
	   MTPAR_JITTER=1 timeout 60 "$T/sess" >"$T/sess.got" && cmp -s "$T/sess.want" "$T/sess.got"; then
		ok "two pthreads in one parallelized function -np $np: the result, no hang"
	else
		bad "two pthreads in one parallelized function -np $np: the result, no hang"; head -5 "$T/err"
	fi
done
# one fork around a time loop (issue 15): heat2d's 20 steps run in one
# region, a barrier between steps; with --api=oscar a fork per step
# (and one more: main's own region, around its initialization)
for form in "2 " "21 --api=oscar"; do
	want=${form%% *}
	# shellcheck disable=SC2086
	if "$MTPAR" -np 2 $KFLAGS $KMODEL ${form#* } -o "$T/k_heat.c" testsuite/kernels/heat2d.c 2>"$T/err" &&
	   gcc -O2 -std=c11 -fopenmp -w $KFLAGS -Wl,--wrap=GOMP_parallel,--wrap=GOMP_parallel_sections -o "$T/k_heat" "$T/k_heat.c" \
	       testsuite/runtime/forks.c 2>>"$T/err" &&
	   "$T/k_heat" >"$T/k_heat.got" 2>"$T/k_heat.forks" && cmp -s "$T/k_heat2d.want" "$T/k_heat.got" &&
	   grep -qx "mtpar forks $want" "$T/k_heat.forks"; then
		ok "kernel heat2d: $want fork(s) for 20 time steps ${form#* }"
	else
		bad "kernel heat2d: $want fork(s) for 20 time steps ${form#* }"; cat "$T/k_heat.forks" "$T/err" 2>/dev/null | head -5
	fi
done
# the vectorizer's marks (middle/ivdep.c) in the time-loop function: the
# sweeps of timeloops.c's declared() are independent (2 marks);
# timestep2.c's stepped() has inner loops that carry dependences (none)
for km in timeloops:declared:2 timestep2:stepped:0; do
	kf=${km%%:*} kn=${km#*:} kn=${kn%:*}
	# shellcheck disable=SC2086
	if "$MTPAR" -np 2 $KFLAGS $KMODEL -o "$T/k_marks.c" "testsuite/kernels/$kf.c" 2>"$T/err" &&
	   [ "$(sed -n "/^static [a-z]* $kn(/,/^}/p" "$T/k_marks.c" | grep -c 'MTPAR_IVDEP for')" -eq "${km##*:}" ]; then
		ok "kernel $kf: ${km##*:} inner loops of $kn marked independent"
	else
		bad "kernel $kf: ${km##*:} inner loops of $kn marked independent"
	fi
done
# a branch inside the span (issue 15): moe.c, cascade.c and heads.c are
# scheduled dynamically, the tasks of each arm under their test; under
# --api=oscar, which has no dynamic schedule, the branch stays out of the span
for k in moe cascade heads; do
	# shellcheck disable=SC2086
	if "$MTPAR" -np 2 $KFLAGS $KMODEL --dump=sched testsuite/kernels/$k.c 2>&1 |
	   grep -q '^plan main: span .*scheduled dynamically' &&
	   "$MTPAR" -np 2 $KFLAGS $KMODEL --dump=sched testsuite/kernels/$k.c 2>&1 | grep -q ' runs if MT' &&
	   ! "$MTPAR" -np 2 $KFLAGS $KMODEL --api=oscar --dump=sched testsuite/kernels/$k.c 2>&1 |
	   grep -q 'scheduled dynamically'; then
		ok "kernel $k: scheduled dynamically (a branch inside the span)"
	else
		bad "kernel $k: scheduled dynamically (a branch inside the span)"
	fi
done
# every arm of those branches, taken through -D (the plain build above takes one):
# the parallel program gives the sequential output at -np 2 and 3, with jitter
for case in "moe -DROUTER_BIAS=-1e9" "cascade -DCONFIDENT=-1" "cascade -DSTILL=-1e9" \
            "heads -DSHIFT=5" "heads -DSHIFT=-5"; do
	k=${case%% *}
	flip=${case#* }
	# shellcheck disable=SC2086
	gcc -O2 -std=c11 -w $KFLAGS $flip -o "$T/k_flip.seq" testsuite/kernels/$k.c && "$T/k_flip.seq" >"$T/k_flip.want"
	for np in 2 3; do
		# shellcheck disable=SC2086
		if "$MTPAR" -np $np $KFLAGS $flip $KMODEL -o "$T/k_flip.c" testsuite/kernels/$k.c 2>"$T/err" &&
		   gcc -O2 -std=c11 -fopenmp -w $KFLAGS $flip -o "$T/k_flip" "$T/k_flip.c" 2>>"$T/err" &&
		   MTPAR_JITTER=1 "$T/k_flip" >"$T/k_flip.got" && cmp -s "$T/k_flip.want" "$T/k_flip.got"; then
			ok "kernel $k $flip -np $np jitter: the other arm"
		else
			bad "kernel $k $flip -np $np jitter: the other arm"; head -3 "$T/err" "$T/k_flip.got"
		fi
	done
done
# the default cost model: smallspan.c's short loop gains under 5% of the
# program; mvt.c at the small sizes gains 0.1 ms, less than starting the threads
for k in smallspan:-DLARGE_DATASET mvt:-DSMALL; do
	# shellcheck disable=SC2086
	if "$MTPAR" -np 2 -I testsuite/kernels ${k#*:} --dump=sched testsuite/kernels/${k%:*}.c 2>&1 |
	   grep -q '^plan main: sequential: '; then
		ok "kernel ${k%:*}: sequential by the cost model"
	else
		bad "kernel ${k%:*}: sequential by the cost model"
	fi
done
# a function of a few hundred operations does not fork (diamond.c); with
# --cost-model=unlimited it does
if "$MTPAR" -np 2 --dump=sched testsuite/golden/diamond.c 2>&1 | grep -q '^plan diamond: sequential: predicted speedup' &&
   "$MTPAR" -np 2 --cost-model=unlimited --dump=sched testsuite/golden/diamond.c 2>&1 | grep -q '^plan diamond: span'; then
	ok "diamond: a tiny function stays sequential, unless --cost-model=unlimited"
else
	bad "diamond: a tiny function stays sequential, unless --cost-model=unlimited"
fi

# ---- branches: random programs whose ifs hold work (testsuite/branches/gen.c) ----
# the dynamic scheduler (middle/branches.c) against the sequential program, at
# -np 2 to 7, with and without jitter; most of them are scheduled dynamically
if gcc -O2 -std=c99 -o "$T/gen" testsuite/branches/gen.c 2>"$T/err"; then
	dyn=0
	for seed in $(seq 1 30); do
		np=$((2 + seed % 6))
		"$T/gen" "$seed" >"$T/br.c"
		if ! gcc -O2 -w -o "$T/br.seq" "$T/br.c" 2>"$T/err" || ! "$T/br.seq" >"$T/br.want"; then
			bad "branches seed $seed: sequential build"; head -3 "$T/err"; continue
		fi
		if ! "$MTPAR" -np $np --cost-model=unlimited -o "$T/br.par.c" "$T/br.c" 2>"$T/err" ||
		   ! gcc -O2 -w -fopenmp -o "$T/br.par" "$T/br.par.c" 2>>"$T/err"; then
			bad "branches seed $seed -np $np: build"; head -3 "$T/err"; continue
		fi
		grep -q 'mtpar_dyn_start(&' "$T/br.par.c" && dyn=$((dyn + 1))
		if "$T/br.par" >"$T/br.got" && cmp -s "$T/br.want" "$T/br.got" &&
		   MTPAR_JITTER=1 "$T/br.par" >"$T/br.got" && cmp -s "$T/br.want" "$T/br.got"; then
			ok "branches seed $seed -np $np"
		else
			bad "branches seed $seed -np $np"; "$T/gen" "$seed" | head -40
		fi
	done
	if [ "$dyn" -ge 20 ]; then
		ok "branches: $dyn of 30 scheduled dynamically"
	else
		bad "branches: only $dyn of 30 scheduled dynamically"
	fi
else
	bad "branches: generator build"; head -3 "$T/err"
fi

# ---- usmp: a two-file int8 model in TVM 0.17's USMP shape (testsuite/usmp) ----
U=testsuite/usmp
UFLAGS="-std=c99 -w -I $U/include -DRUNS=3"
mkdir -p "$T/usmp"
# shellcheck disable=SC2086
if gcc -O2 $UFLAGS -o "$T/usmp.seq" $U/default_lib0.c $U/default_lib1.c $U/main.c -lm 2>"$T/err"; then
	"$T/usmp.seq" | grep -v '^time_s' >"$T/usmp.want"
	for np in 1 2 3 4 7; do
		cp $U/default_lib0.c $U/default_lib1.c "$T/usmp/"
		# shellcheck disable=SC2086
		if ! "$MTPAR" -np $np -I $U/include "$T/usmp/default_lib0.c" "$T/usmp/default_lib1.c" 2>"$T/err" ||
		   ! gcc -O2 -fopenmp $UFLAGS -o "$T/usmp.par" "$T/usmp/default_lib0.par.c" \
		       "$T/usmp/default_lib1.par.c" $U/main.c -lm 2>>"$T/err"; then
			bad "usmp -np $np: build"; head -5 "$T/err"; continue
		fi
		for jitter in "" 1; do
			if env ${jitter:+MTPAR_JITTER=1} "$T/usmp.par" 2>&1 | grep -v '^time_s' >"$T/usmp.got" &&
			   cmp -s "$T/usmp.want" "$T/usmp.got"; then
				ok "usmp -np $np${jitter:+ jitter}"
			else
				bad "usmp -np $np${jitter:+ jitter}"; head -3 "$T/usmp.got"
			fi
		done
		# the workspaces passed down as pointers do not stop the operators' loops
		if [ "$np" = 2 ]; then
			if grep -q '#pragma omp parallel' "$T/usmp/default_lib1.par.c"; then
				ok "usmp parallelized"
			else
				bad "usmp parallelized"
			fi
		fi
	done
else
	bad "usmp: sequential build"; head -5 "$T/err"
fi

# ---- gate: every corpus program at several core counts, with jitter ----
count_lines() { # file: echo its lines, counting PASS and FAIL
	while IFS= read -r line; do
		case $line in
		PASS:*) pass=$((pass + 1)) ;;
		FAIL:*) fail=$((fail + 1)) ;;
		esac
		echo "$line"
	done <"$1"
}
if [ -d "$CORPUS" ]; then
	B=$B CORPUS=$CORPUS sh testsuite/run-corpus.sh >"$T/gate.log" 2>&1
	count_lines "$T/gate.log"
fi

# ---- adversarial: deep nesting, long code, odd bytes, pragmas; no crash, no hang ----
B=$B sh testsuite/run-adversarial.sh >"$T/adversarial.log" 2>&1
count_lines "$T/adversarial.log"

# ---- cli: pipelines, -o through links, first line, #line, remark classes ----
B=$B sh testsuite/run-cli.sh >"$T/cli.log" 2>&1
count_lines "$T/cli.log"

# ---- install: make install, pkg-config, the API client, several runs in one process ----
B=$B sh testsuite/run-install.sh >"$T/install.log" 2>&1
count_lines "$T/install.log"

# ---- csmith: random programs keep their checksum through mtpar ----
if command -v csmith >/dev/null 2>&1; then
	B=$B CSMITH_SEEDS="${CSMITH_SEEDS:-1 100}" sh testsuite/run-csmith.sh >"$T/csmith.log" 2>&1
	count_lines "$T/csmith.log"
else
	echo "note: csmith is not installed; differential tier skipped"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
