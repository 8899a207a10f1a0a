/* heapdecl.c - arrays declared and allocated by statement macros, as
 * PolyBench's default build does: ARRAY_2D_DECL(A, DATA_TYPE, N, M)
 * declares `DATA_TYPE (*A)[N][M]` (a pointer to an array, through a type
 * macro) and assigns it what an allocator returns; the kernels get *A.
 * The allocator's pointers are set once before the kernels, so mtpar
 * checks them apart at run time.  shift() is also called with one array
 * for both of its parameters: the check fails there and the loop runs as
 * written.  The allocator is in another file (support/bench.c), as
 * PolyBench's is: neither mtpar nor GCC sees that its results are apart. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define ARRAY_2D_DECL(var, type, d1, d2) \
	type (*var)[d1][d2]; \
	var = (type(*)[d1][d2])bench_alloc((d1) * (d2), sizeof(type));
#define ARRAY_1D_DECL(var, type, d1) \
	type (*var)[d1]; \
	var = (type(*)[d1])bench_alloc(d1, sizeof(type));
#define ARRAY(x) *x
#define FREE_ARRAY(x) free((void *)x);
#define BENCH_START bench_timer(0);
#define BENCH_STOP bench_timer(1);

/* in support/bench.c, built with the kernels but not given to mtpar */
void *bench_alloc(unsigned long n, int size);
void bench_timer(int stop);

static void init(int n, int m, DATA_TYPE ARR2(A, N, M, n, m), DATA_TYPE ARR2(B, M, N, m, n))
{
	int i, j;

	for (i = 0; i < _B_N; i++)
		for (j = 0; j < _B_M; j++) {
			A[i][j] = (DATA_TYPE)((i * j + 1) % n) / n;
			B[j][i] = (DATA_TYPE)((i * (j + 2)) % m) / m;
		}
}

/* tmp = A B, then D = D * beta + tmp * alpha */
static void kernel_mm(int n, int m, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE ARR2(A, N, M, n, m),
                      DATA_TYPE ARR2(B, M, N, m, n), DATA_TYPE ARR2(tmp, N, N, n, n),
                      DATA_TYPE ARR2(D, N, N, n, n))
{
	int i, j, k;

	for (i = 0; i < _B_N; i++)
		for (j = 0; j < _B_N; j++) {
			tmp[i][j] = SCALAR_VAL(0.0);
			for (k = 0; k < _B_M; ++k)
				tmp[i][j] += A[i][k] * B[k][j];
		}
	for (i = 0; i < _B_N; i++)
		for (j = 0; j < _B_N; j++)
			D[i][j] = D[i][j] * beta + tmp[i][j] * alpha;
}

/* each row from the next one: apart only when X and Y are */
static void shift(int n, DATA_TYPE ARR2(X, N, N, n, n), DATA_TYPE ARR2(Y, N, N, n, n))
{
	int i, j;

	for (i = 0; i < _B_N - 1; i++)
		for (j = 0; j < _B_N; j++)
			Y[i][j] = X[i + 1][j] * SCALAR_VAL(0.5) + Y[i][j];
}

int main(void)
{
	int n = N, m = M, i, j;
	double s = 0;
	ARRAY_2D_DECL(A, DATA_TYPE, N, M);
	ARRAY_2D_DECL(B, DATA_TYPE, M, N);
	ARRAY_2D_DECL(tmp, DATA_TYPE, N, N);
	ARRAY_2D_DECL(D, DATA_TYPE, N, N);
	ARRAY_1D_DECL(w, DATA_TYPE, N);
	DATA_TYPE (*row)[N];

	init(n, m, ARRAY(A), ARRAY(B));
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			(*D)[i][j] = (DATA_TYPE)(i + j) / n;
	BENCH_START;
	kernel_mm(n, m, SCALAR_VAL(1.5), SCALAR_VAL(1.2), ARRAY(A), ARRAY(B), ARRAY(tmp), ARRAY(D));
	BENCH_STOP;
	shift(n, ARRAY(tmp), ARRAY(D));
	shift(n, ARRAY(D), ARRAY(D)); /* the same array twice: sequential */
	row = &(*D)[n / 2];
	for (j = 0; j < n; j++)
		(*w)[j] = (*row)[j];
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			s += (*D)[i][j] * ((i + j) % 7 + 1);
	for (j = 0; j < n; j++)
		s += (*w)[j];
	printf("heapdecl %.9e\n", s);
	FREE_ARRAY(A);
	FREE_ARRAY(B);
	FREE_ARRAY(tmp);
	FREE_ARRAY(D);
	FREE_ARRAY(w);
	return 0;
}
