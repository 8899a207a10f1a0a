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
#else
# define N 240 /* rows */
# define M 320 /* columns */
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
