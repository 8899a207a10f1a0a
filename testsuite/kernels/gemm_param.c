/* gemm_param.c - C = alpha*A*B + beta*C with the sizes passed as int
 * parameters, arrays declared through ARR2 and bounds through _B_N. */
#include <stdio.h>

#include "bench.h"

static void init_array(int n, int m, DATA_TYPE ARR2(A, N, M, n, m), DATA_TYPE ARR2(B, M, N, m, n),
                       DATA_TYPE ARR2(C, N, N, n, n))
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++)
			A[i][j] = (DATA_TYPE)((i * j + 1) % n) / n;
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++)
			B[i][j] = (DATA_TYPE)((i * (j + 1) + 2) % m) / m;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			C[i][j] = (DATA_TYPE)((i + j) % 7) / 7;
}

static void kernel_gemm(int n, int m, DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE ARR2(A, N, M, n, m), DATA_TYPE ARR2(B, M, N, m, n),
                        DATA_TYPE ARR2(C, N, N, n, n))
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

static DATA_TYPE A[N][M], B[M][N], C[N][N];

int main(void)
{
	int n = N, m = M;
	double s = 0;
	int i, j;

	init_array(n, m, A, B, C);
	kernel_gemm(n, m, SCALAR_VAL(1.5), SCALAR_VAL(1.2), A, B, C);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			s += C[i][j] * ((i + j) % 3 + 1);
	printf("gemm_param %.9e\n", s);
	return 0;
}
