/* vlaparam.c - kernels with C99 variable-length array parameters, as
 * PolyBench's C99 prototypes and hand-written C write them:
 * `void gemm(int n, int m, double C[n][m], ...)`, sizes passed from main.
 * Every call passes the same sizes, so the arrays have rows of M and N
 * (frontend/bind.c folds the lengths).  rowsum() is called with two
 * different widths: its rows stay of unknown length, and its loop as
 * written. */
#include <stdio.h>

#include "sizes.h"

static DATA_TYPE A[N][M], B[M][N], C[N][N], Rows[N][M];

static void gemm(int n, int m, DATA_TYPE alpha, DATA_TYPE C[n][n], DATA_TYPE A[n][m],
                 DATA_TYPE B[m][n])
{
	int i, j, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < m; k++)
			for (j = 0; j < n; j++)
				C[i][j] += alpha * A[i][k] * B[k][j];
}

static void rowsum(int n, int w, DATA_TYPE X[n][w], DATA_TYPE out[n])
{
	int i, j;

	for (i = 0; i < n; i++) {
		out[i] = 0;
		for (j = 0; j < w; j++)
			out[i] += X[i][j];
	}
}

int main(void)
{
	int n = N, m = M, i, j;
	DATA_TYPE sums[N], half[N];
	double s = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++) {
			A[i][j] = (DATA_TYPE)((i * j + 3) % 13) / 13;
			B[j][i] = (DATA_TYPE)((i + 2 * j) % 11) / 11;
			Rows[i][j] = (DATA_TYPE)((i + j) % 5);
		}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			C[i][j] = (DATA_TYPE)(i - j) / n;
	gemm(n, m, SCALAR_VAL(1.5), C, A, B);
	rowsum(n, m, Rows, sums);
	rowsum(n / 2, m / 2, (DATA_TYPE(*)[M / 2])Rows, half);
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++)
			s += C[i][j] * ((i + j) % 7 + 1);
		s += sums[i] * 3;
	}
	for (i = 0; i < n / 2; i++)
		s += half[i];
	printf("vlaparam %.9e\n", s);
	return 0;
}
