/* sizes.h - problem sizes of the kernels, as benchmark suites keep them:
 * in a header, chosen by a dataset macro (-DLARGE_DATASET), overridable. */
#ifndef SIZES_H
#define SIZES_H

#ifdef LARGE_DATASET
# define N 1000
# define M 1200
# ifndef TSTEPS
#  define TSTEPS 100
# endif
# define HEAT_N 400   /* heat2d: two grids that fit the cores' caches */
# define HEAT_T 1000
# define ATAX_N 2100  /* PolyBench's LARGE sizes of the matrix-vector kernels */
# define ATAX_M 1900
# define MVT_N 2000
# define DOIT_R 100   /* doitgen: PolyBench's LARGE is 140 x 150 x 160 */
# define DOIT_Q 100
# define DOIT_P 128
# define FDTD_T 100   /* fdtd2d: PolyBench's LARGE is 500 x 1000 x 1200 */
# define FDTD_X 500
# define FDTD_Y 600
#else
# define N 240 /* rows */
# define M 320 /* columns */
# define HEAT_N 64
# define HEAT_T 20
# define ATAX_N N
# define ATAX_M M
# define MVT_N N
# define DOIT_R 24
# define DOIT_Q 20
# define DOIT_P 32
# define FDTD_T 8
# define FDTD_X 60
# define FDTD_Y 72
#endif

#ifndef DATA_TYPE
# define DATA_TYPE double
#endif

/* as PolyBench spells constants and scalars */
#define SCALAR_VAL(x) x
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#ifndef TSTEPS
# define TSTEPS 4
#endif

#endif
