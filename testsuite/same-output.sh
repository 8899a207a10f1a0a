#!/bin/sh
# same-output.sh - a refactor changes no output: record what mtpar writes for
# every example, golden input, tier program, kernel and corpus program, then check
# that a later build writes the same bytes.
#
#   sh testsuite/same-output.sh record DIR   # with the build before the change
#   sh testsuite/same-output.sh check DIR    # with the build after it
#
# Each input is run at -np 1, 2, 3, 4 and 7 (the program), with --dump=pp,
# ir, mt, mfg, mtg and sched, --report, --dot and --dot-mfg, --power and
# --api=oscar.  Environment: B (build dir), CORPUS (../shared/corpus).
set -u
# the example networks (examples/api_client.c is a library client, not one)
EXAMPLES=$(ls examples/*.c | grep -v "/api_client\.c$")
mode=${1:-}
D=${2:-}
case $mode in record | check) ;; *)
	echo "usage: sh testsuite/same-output.sh record|check DIR" >&2
	exit 2
	;;
esac
[ -n "$D" ] || { echo "same-output.sh: no DIR" >&2; exit 2; }
B=${B:-build}
CORPUS=${CORPUS:-../shared/corpus}
MTPAR=$(cd "$(dirname "$B/mtpar")" && pwd)/mtpar
SHIM=$CORPUS/tvm-shim/include
CF=$B/corpus
mkdir -p "$CF"
. testsuite/corpus.sh
OUTD=$D
[ "$mode" = check ] && OUTD=$B/same-output
rm -rf "$OUTD" && mkdir -p "$OUTD"

# inputs: one line per program, the files analysed together
inputs() {
	for c in $EXAMPLES testsuite/golden/*.c testsuite/workspace/net.c testsuite/packed/net.c \
		testsuite/kernels/*.c; do
		echo "$c"
	done
	[ -d "$CORPUS" ] || return 0
	corpus_programs
}

# run NAME ARGS...: mtpar's stdout, stderr and exit status under $OUTD/NAME
run() {
	name=$1
	shift
	"$MTPAR" "$@" >"$OUTD/$name.out" 2>"$OUTD/$name.err"
	echo "exit $?" >>"$OUTD/$name.err"
}

# rewrite NAME ARGS... -- FILES...: mtpar writes FILES' programs, copied into a
# scratch folder first; each output is kept as $OUTD/NAME.K.c
rewrite() {
	name=$1
	shift
	opts=""
	while [ "$1" != -- ]; do
		opts="$opts $1"
		shift
	done
	shift
	rm -rf "$tmp" && mkdir -p "$tmp"
	n=0
	args=""
	for f in "$@"; do
		n=$((n + 1))
		cp "$f" "$tmp/in$n.c"
		args="$args $tmp/in$n.c"
	done
	# shellcheck disable=SC2086
	run "$name" $opts $args
	for i in $(seq 1 $n); do
		[ -f "$tmp/in$i.par.c" ] && sed "s|$tmp/||g" "$tmp/in$i.par.c" >"$OUTD/$name.$i.c"
	done
}

# one program: its outputs copied out of the scratch folder after each run
record_program() { # files...
	key=$(echo "$1" | sed 's|^\.\./||; s|[/.]|_|g')
	inc="-I $SHIM -I $(dirname "$1")"
	tmp=$OUTD/tmp
	for np in 1 2 3 4 7; do
		# shellcheck disable=SC2086
		rewrite "$key.np$np" -np $np $inc -- "$@"
	done
	for stage in pp ir mt mfg mtg sched; do
		# shellcheck disable=SC2086
		run "$key.$stage" -np 4 --dump=$stage $inc "$@"
	done
	# shellcheck disable=SC2086
	run "$key.report" -np 4 --report --dump=funcs --dot "$tmp/mtg.dot" --dot-mfg "$tmp/mfg.dot" $inc "$@"
	cp "$tmp/mtg.dot" "$OUTD/$key.mtg.dot" 2>/dev/null
	cp "$tmp/mfg.dot" "$OUTD/$key.mfg.dot" 2>/dev/null
	# shellcheck disable=SC2086
	run "$key.power" -np 4 --power --dump=sched $inc "$@"
	# shellcheck disable=SC2086
	rewrite "$key.oscar" -np 3 --api=oscar --power $inc -- "$@"
	rm -rf "$tmp"
}

# outputs of over 1 MB (TVM libraries with their weights) are kept as digests
digest_large() {
	find "$OUTD" -type f -size +1024k | while read -r f; do
		sum=$(sha256sum <"$f")
		echo "sha256 ${sum%% *} bytes $(wc -c <"$f")" >"$f"
	done
}

inputs >"$OUTD.list"
while read -r files; do
	# shellcheck disable=SC2086
	record_program $files
	digest_large
done <"$OUTD.list"
rm -f "$OUTD.list"

if [ "$mode" = record ]; then
	echo "recorded $(ls "$D" | wc -l) files in $D"
	exit 0
fi
if diff -r "$D" "$OUTD" >"$OUTD.diff"; then
	echo "PASS: same output ($(ls "$D" | wc -l) files)"
	exit 0
fi
echo "FAIL: output differs from $D:"
head -40 "$OUTD.diff"
exit 1
