/* jacobi2d.c - a 5-point stencil with a time loop, as PolyBench writes it:
 * the sweeps alternate between two arrays; each sweep's rows are independent,
 * the time loop carries the dependence (a region per time step, counters
 * i and j declared once at the top and reused by both sweeps). */
#include <stdio.h>

#include "bench.h"

static void init_array(int n, DATA_TYPE ARR2(A, N, N, n, n), DATA_TYPE ARR2(B, N, N, n, n))
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			A[i][j] = ((DATA_TYPE)i * (j + 2) + 2) / n;
			B[i][j] = ((DATA_TYPE)i * (j + 3) + 3) / n;
		}
}

static void kernel_jacobi_2d(int tsteps, int n, DATA_TYPE ARR2(A, N, N, n, n),
                             DATA_TYPE ARR2(B, N, N, n, n))
{
	int t, i, j;

	for (t = 0; t < _B_T; t++) {
		for (i = 1; i < _B_N - 1; i++)
			for (j = 1; j < _B_N - 1; j++)
				B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j - 1] + A[i][1 + j] +
				                             A[1 + i][j] + A[i - 1][j]);
		for (i = 1; i < _B_N - 1; i++)
			for (j = 1; j < _B_N - 1; j++)
				A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j - 1] + B[i][1 + j] +
				                             B[1 + i][j] + B[i - 1][j]);
	}
}

static DATA_TYPE A[N][N], B[N][N];

int main(void)
{
	int n = N, tsteps = TSTEPS;
	double s = 0;
	int i, j;

	init_array(n, A, B);
	kernel_jacobi_2d(tsteps, n, A, B);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			s += A[i][j] * ((i + j) % 3 + 1);
	printf("jacobi2d %.9e\n", s);
	return 0;
}
