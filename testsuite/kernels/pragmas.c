/* pragmas.c - loops under the user's own pragmas (GCC unroll and ivdep,
 * omp simd), split in a callee's chunks, in place, and at run time: the
 * chunk test goes above the pragmas, which must stay right before their
 * loop, and where the loop's header becomes a chunk's (not a form OpenMP
 * accepts after omp simd) they are dropped (backend/edit.c). */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

static DATA_TYPE A[N][M], B[N][M], C[N * M];

static void scale(void)
{
#pragma GCC unroll 4
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			B[i][j] = A[i][j] * SCALAR_VAL(0.5);

#pragma omp simd
	for (int i = 0; i < N; i++)
		A[i][0] += B[i][M - 1];
}

/* n rows, known at run time only */
static void flatten(int n)
{
#pragma GCC ivdep
	for (int i = 0; i < n * M; i++)
		C[i] = B[i / M][i % M] + A[i / M][i % M];
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : N;
	double s = 0;

#pragma GCC ivdep
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			A[i][j] = (DATA_TYPE)((i * 7 + j * 3) % 11) / 8;
	scale();
	flatten(n);
	for (int i = 0; i < N * M; i++)
		s += C[i] * (i % 7 + 1);
	printf("%.6f\n", s);
	return 0;
}
