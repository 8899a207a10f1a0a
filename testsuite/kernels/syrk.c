/* syrk.c - C = alpha*A*A^T + beta*C on the lower triangle: the inner
 * bound depends on the outer counter (a triangular nest). */
#include <stdio.h>

#include "bench.h"

static DATA_TYPE A[N][M], C[N][N];

static void kernel_syrk(int n, int m, DATA_TYPE alpha, DATA_TYPE beta)
{
	int i, j, k;

	for (i = 0; i < n; i++) {
		for (j = 0; j <= i; j++)
			C[i][j] *= beta;
		for (k = 0; k < m; k++)
			for (j = 0; j <= i; j++)
				C[i][j] += alpha * A[i][k] * A[j][k];
	}
}

int main(void)
{
	double s = 0;
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			A[i][j] = (DATA_TYPE)((i * j + 1) % N) / N;
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			C[i][j] = (DATA_TYPE)((i * j + 2) % M) / M;
	kernel_syrk(N, M, 1.5, 1.2);
	for (i = 0; i < N; i++)
		for (j = 0; j <= i; j++)
			s += C[i][j] * ((i + j) % 3 + 1);
	printf("syrk %.9e\n", s);
	return 0;
}
