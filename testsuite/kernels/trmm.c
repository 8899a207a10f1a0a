/* trmm.c - B = alpha * A^T B with A unit lower triangular (BLAS's trmm,
 * as PolyBench writes it): each row of B takes the rows below it, so the
 * outer loop carries a dependence; the columns of B are independent, and
 * the loop over them is split, a region per row. */
#include <stdio.h>

#include "bench.h"

static void kernel_trmm(int m, int n, DATA_TYPE alpha, DATA_TYPE ARR2(A, N, N, m, m),
                        DATA_TYPE ARR2(B, N, M, m, n))
{
	int i, j, k;

	for (i = 0; i < _B_N; i++)
		for (j = 0; j < _B_M; j++) {
			for (k = i + 1; k < _B_N; k++)
				B[i][j] += A[k][i] * B[k][j];
			B[i][j] = alpha * B[i][j];
		}
}

static DATA_TYPE A[N][N], B[N][M];

int main(void)
{
	double s = 0;
	int i, j;

	for (i = 0; i < N; i++) {
		for (j = 0; j < i; j++)
			A[i][j] = (DATA_TYPE)((i + j) % N) / N;
		A[i][i] = 1.0;
		for (j = 0; j < M; j++)
			B[i][j] = (DATA_TYPE)((M + (i - j)) % M) / M;
	}
	kernel_trmm(N, M, 1.5, A, B);
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			s += B[i][j] * ((i + j) % 3 + 1);
	printf("trmm %.9e\n", s);
	return 0;
}
