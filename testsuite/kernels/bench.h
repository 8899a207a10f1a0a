/* bench.h - what a benchmark suite's support header gives its kernels:
 * array parameters declared through a macro, loop bounds through a macro
 * that may name either the constant or the size parameter, scalars
 * through a macro (after PolyBench's polybench.h). */
#ifndef BENCH_H
#define BENCH_H

#include "sizes.h"

#define ARR3(var, d1, d2, d3, ddim1, ddim2, ddim3) var[d1][d2][d3]
#define ARR2(var, d1, d2, ddim1, ddim2) var[d1][d2]
#define ARR1(var, d1, ddim1) var[d1]
#define LOOP_BOUND(x, y) x
#define _B_N LOOP_BOUND(N, n)
#define _B_M LOOP_BOUND(M, m)
#define _B_T LOOP_BOUND(TSTEPS, tsteps)

#endif
