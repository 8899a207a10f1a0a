/* atax.c - y = A^T (A x) on flat arrays indexed through a macro, sizes
 * from -D-overridable header macros; tmp is a scratch vector. */
#include <stdio.h>

#include "bench.h"

#define IDX(i, j) ((i) * ATAX_M + (j))

static DATA_TYPE A[ATAX_N * ATAX_M], x[ATAX_M], y[ATAX_M], tmp[ATAX_N];

static void kernel_atax(int n, int m)
{
	int i, j;

	for (i = 0; i < n; i++) {
		tmp[i] = SCALAR_VAL(0.0);
		for (j = 0; j < m; j++)
			tmp[i] = tmp[i] + A[IDX(i, j)] * x[j];
	}
	for (j = 0; j < m; j++) {
		y[j] = 0;
		for (i = 0; i < n; i++)
			y[j] = y[j] + A[IDX(i, j)] * tmp[i];
	}
}

int main(void)
{
	double s = 0;
	int i, j;

	for (i = 0; i < ATAX_M; i++)
		x[i] = 1 + (i / (DATA_TYPE)ATAX_M);
	for (i = 0; i < ATAX_N; i++)
		for (j = 0; j < ATAX_M; j++)
			A[IDX(i, j)] = (DATA_TYPE)((i + j) % ATAX_M) / (5 * ATAX_N);
	kernel_atax(ATAX_N, ATAX_M);
	for (i = 0; i < ATAX_M; i++)
		s += y[i] * (i % 5 + 1);
	printf("atax %.9e\n", s);
	return 0;
}
