/* gemm.c - C = alpha * A * B + beta * C, sizes and DATA_TYPE from sizes.h (-I). */
#include <stdio.h>

#include "sizes.h"

static DATA_TYPE A[N][M], B[M][N], C[N][N];

static void init_array(void)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			A[i][j] = (DATA_TYPE)((i * j + 1) % N) / N;
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++)
			B[i][j] = (double)((i * (j + 1) + 2) % M) / M;
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			C[i][j] = (double)((i + j) % 7) / 7;
}

static void kernel_gemm(DATA_TYPE alpha, DATA_TYPE beta)
{
	int i, j, k;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			C[i][j] *= SCALAR_VAL(beta);
			for (k = 0; k < M; k++)
				C[i][j] += SCALAR_VAL(alpha) * A[i][k] * B[k][j];
			C[i][j] = MAX(C[i][j], SCALAR_VAL(-1.0));
		}
}

static void print_array(void)
{
	double s = 0;
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			s += C[i][j] * ((i + j) % 3 + 1);
	printf("gemm %.9e\n", s);
}

int main(void)
{
	init_array();
	kernel_gemm(1.5, 1.2);
	print_array();
	return 0;
}
