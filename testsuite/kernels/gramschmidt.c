/* gramschmidt.c - QR decomposition by modified Gram-Schmidt, as PolyBench
 * writes it: each column k is normalised, then taken out of the columns
 * right of it.  The loop over k carries its results; the loop over those
 * columns, from k + 1 on, is split, a region per k, with the sum nrm and
 * the row counter shared by the loops reset before each use. */
#include <math.h>
#include <stdio.h>

#include "bench.h"

static void kernel_gramschmidt(int m, int n, DATA_TYPE ARR2(A, M, N, m, n),
                               DATA_TYPE ARR2(R, N, N, n, n), DATA_TYPE ARR2(Q, M, N, m, n))
{
	int i, j, k;
	DATA_TYPE nrm;

	for (k = 0; k < _B_N; k++) {
		nrm = SCALAR_VAL(0.0);
		for (i = 0; i < _B_M; i++)
			nrm += A[i][k] * A[i][k];
		R[k][k] = sqrt(nrm);
		for (i = 0; i < _B_M; i++)
			Q[i][k] = A[i][k] / R[k][k];
		for (j = k + 1; j < _B_N; j++) {
			R[k][j] = SCALAR_VAL(0.0);
			for (i = 0; i < _B_M; i++)
				R[k][j] += Q[i][k] * A[i][j];
			for (i = 0; i < _B_M; i++)
				A[i][j] = A[i][j] - Q[i][k] * R[k][j];
		}
	}
}

static DATA_TYPE A[M][N], R[N][N], Q[M][N];

int main(void)
{
	double s = 0;
	int i, j;

	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++)
			A[i][j] = (DATA_TYPE)((i * j) % M + (i == j ? M : 0)) / M * 100 + 10;
	kernel_gramschmidt(M, N, A, R, Q);
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			s += R[i][j] * ((i + j) % 3 + 1);
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++)
			s += Q[i][j] * ((i + 2 * j) % 5 + 1);
	printf("gramschmidt %.9e\n", s);
	return 0;
}
