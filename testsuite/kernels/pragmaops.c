/* pragmaops.c - pragmas.c with C99's pragma operator: _Pragma("...") on a
 * line of its own, in a macro (`#define UNROLL4 _Pragma("GCC unroll 4")`),
 * and on the loop's own line.  mtpar reads each as the #pragma it stands
 * for: hidden from the parser, kept above a loop whose chunk test goes
 * before it, dropped from a chunk's copy (backend/edit.c). */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define UNROLL4 _Pragma("GCC unroll 4")
#define SIMD _Pragma("omp simd")

static DATA_TYPE A[N][M], B[N][M], C[N * M];

static void scale(void)
{
	UNROLL4
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			B[i][j] = A[i][j] * SCALAR_VAL(0.5);

	_Pragma("omp simd") for (int i = 0; i < N; i++)
		A[i][0] += B[i][M - 1];
}

/* n rows, known at run time only */
static void flatten(int n)
{
	_Pragma("GCC ivdep")
	for (int i = 0; i < n * M; i++)
		C[i] = B[i / M][i % M] + A[i / M][i % M];
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : N;
	double s = 0;

	_Pragma("GCC ivdep") _Pragma("GCC unroll 2")
	for (int i = 0; i < N; i++)
		SIMD
		for (int j = 0; j < M; j++)
			A[i][j] = (DATA_TYPE)((i * 7 + j * 3) % 11) / 8;
	scale();
	flatten(n);
	for (int i = 0; i < N * M; i++)
		s += C[i] * (i % 7 + 1);
	printf("%.6f\n", s);
	return 0;
}
