/* covariance.c - the covariance of M variables over N samples, as
 * PolyBench writes it: the means by columns, the centring by rows, then
 * cov[i][j] and cov[j][i] at once (row i and column i of the matrix: the
 * iterations' rows and columns lie apart). */
#include <stdio.h>

#include "bench.h"

static void kernel_covariance(int m, int n, DATA_TYPE float_n, DATA_TYPE ARR2(data, N, M, n, m),
                              DATA_TYPE ARR2(cov, M, M, m, m), DATA_TYPE ARR1(mean, M, m))
{
	int i, j, k;

	for (j = 0; j < _B_M; j++) {
		mean[j] = SCALAR_VAL(0.0);
		for (i = 0; i < _B_N; i++)
			mean[j] += data[i][j];
		mean[j] /= float_n;
	}
	for (i = 0; i < _B_N; i++)
		for (j = 0; j < _B_M; j++)
			data[i][j] -= mean[j];
	for (i = 0; i < _B_M; i++)
		for (j = i; j < _B_M; j++) {
			cov[i][j] = SCALAR_VAL(0.0);
			for (k = 0; k < _B_N; k++)
				cov[i][j] += data[k][i] * data[k][j];
			cov[i][j] /= (float_n - SCALAR_VAL(1.0));
			cov[j][i] = cov[i][j];
		}
}

static DATA_TYPE data[N][M], cov[M][M], mean[M];

int main(void)
{
	double s = 0;
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			data[i][j] = ((DATA_TYPE)i * j) / M;
	kernel_covariance(M, N, (DATA_TYPE)N, data, cov, mean);
	for (i = 0; i < M; i++)
		for (j = 0; j < M; j++)
			s += cov[i][j] * ((i + j) % 3 + 1);
	printf("covariance %.9e\n", s);
	return 0;
}
