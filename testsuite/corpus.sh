# corpus.sh - helpers the test and benchmark scripts share for the corpus
# (sourced, not run).  They expect CORPUS (the corpus folder) and CF (where
# decompressed files and compiled weights are cached) to be set.

# unpack PATH.xz: decompress a corpus file once; prints the cached path.
unpack() {
	out=$CF/$(echo "${1%.xz}" | tr / _)
	if [ ! -s "$out" ]; then
		xz -dc "$CORPUS/$1" >"$out.tmp" && mv "$out.tmp" "$out"
	fi
	echo "$out"
}

# weights_obj PROGRAM: an onnx2c program's weights compiled once (they take
# gcc 10-60 s and never change); prints the object's path.
weights_obj() {
	o=$CF/$1-weights.o
	if [ ! -s "$o" ]; then
		w=$(unpack "$1/weights.c.xz")
		gcc -O2 -w -c "$w" -o "$o.tmp" && mv "$o.tmp" "$o"
		rm -f "$w"
	fi
	echo "$o"
}

# lib1_of PROGRAM: a TVM program's default_lib1.c, decompressed if need be.
lib1_of() {
	if [ -f "$CORPUS/$1/default_lib1.c" ]; then
		echo "$CORPUS/$1/default_lib1.c"
	else
		unpack "$1/default_lib1.c.xz"
	fi
}

# corpus_programs: one line per program, the files mtpar analyses together
# (onnx2c's net.c, squeezenet's single-file version, TVM's lib0 and lib1).
corpus_programs() {
	for d in "$CORPUS"/onnx2c-*; do
		[ -f "$d/net.c" ] && echo "$d/net.c"
	done
	[ -f "$CORPUS/onnx2c-squeezenet1_1/net-single.c.xz" ] &&
		unpack onnx2c-squeezenet1_1/net-single.c.xz
	for d in "$CORPUS"/tvm08-*; do
		[ -d "$d" ] && echo "$d/default_lib0.c $(lib1_of "$(basename "$d")")"
	done
}
