/* gemm_heap.c - PolyBench's gemm as PolyBench writes it: the arrays on the
 * heap behind pointers to arrays (POLYBENCH_2D_ARRAY_DECL), passed to the
 * kernel as `*A`, the loops in i-k-j order so that the inner loop
 * vectorizes.  The clones' and slices' inner loops must stay vectorized
 * inside the parallel region (middle/ivdep.c, bound sizes declared as
 * constants).  At the large sizes each row of C streams all of B from the
 * shared cache: two cores share that bandwidth (doc/benchmarks.md). */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

static void init_array(int ni, int nk, DATA_TYPE ARR2(C, N, N, ni, ni), DATA_TYPE ARR2(A, N, M, ni, nk),
                       DATA_TYPE ARR2(B, M, N, nk, ni))
{
	int i, j;

	for (i = 0; i < ni; i++)
		for (j = 0; j < ni; j++)
			C[i][j] = (DATA_TYPE)((i * j + 1) % ni) / ni;
	for (i = 0; i < ni; i++)
		for (j = 0; j < nk; j++)
			A[i][j] = (DATA_TYPE)(i * (j + 1) % nk) / nk;
	for (i = 0; i < nk; i++)
		for (j = 0; j < ni; j++)
			B[i][j] = (DATA_TYPE)(i * (j + 2) % ni) / ni;
}

static void kernel_gemm(int ni, int nk, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE ARR2(C, N, N, ni, ni),
                        DATA_TYPE ARR2(A, N, M, ni, nk), DATA_TYPE ARR2(B, M, N, nk, ni))
{
	int i, j, k;

	for (i = 0; i < _B_N; i++) {
		for (j = 0; j < _B_N; j++)
			C[i][j] *= beta;
		for (k = 0; k < _B_M; k++)
			for (j = 0; j < _B_N; j++)
				C[i][j] += alpha * A[i][k] * B[k][j];
	}
}

int main(void)
{
	int ni = N, nk = M, i, j;
	DATA_TYPE(*C)[N][N] = malloc(sizeof(*C));
	DATA_TYPE(*A)[N][M] = malloc(sizeof(*A));
	DATA_TYPE(*B)[M][N] = malloc(sizeof(*B));
	double s = 0;

	if (!A || !B || !C)
		return 1;
	init_array(ni, nk, *C, *A, *B);
	kernel_gemm(ni, nk, SCALAR_VAL(1.5), SCALAR_VAL(1.2), *C, *A, *B);
	for (i = 0; i < ni; i++)
		for (j = 0; j < ni; j++)
			s += (*C)[i][j] * ((i + j) % 3 + 1);
	printf("gemm_heap %.9e\n", s);
	free(A);
	free(B);
	free(C);
	return 0;
}
