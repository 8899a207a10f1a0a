/* heat2d.c - PolyBench's heat-3d in two dimensions: a time loop that must
 * stay sequential around two sweeps whose rows are independent, on grids
 * small enough to stay in the cores' caches, so that each time step is
 * short and what a fork per step would cost shows.  mtpar forks once
 * around the time loop and ends each step with a barrier (issue 15);
 * testsuite/run-forks.sh counts the forks. */
#include <stdio.h>

#include "bench.h"

#define _B_HN LOOP_BOUND(HEAT_N, n)

static void init_array(int n, DATA_TYPE ARR2(A, HEAT_N, HEAT_N, n, n),
                       DATA_TYPE ARR2(B, HEAT_N, HEAT_N, n, n))
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			A[i][j] = B[i][j] = (DATA_TYPE)(i + n - j) * 10 / n;
}

static void kernel_heat_2d(int tsteps, int n, DATA_TYPE ARR2(A, HEAT_N, HEAT_N, n, n),
                           DATA_TYPE ARR2(B, HEAT_N, HEAT_N, n, n))
{
	int t, i, j;

	for (t = 1; t <= tsteps; t++) {
		for (i = 1; i < _B_HN - 1; i++)
			for (j = 1; j < _B_HN - 1; j++)
				B[i][j] = SCALAR_VAL(0.125) * (A[i + 1][j] - SCALAR_VAL(2.0) * A[i][j] + A[i - 1][j]) +
				          SCALAR_VAL(0.125) * (A[i][j + 1] - SCALAR_VAL(2.0) * A[i][j] + A[i][j - 1]) +
				          A[i][j];
		for (i = 1; i < _B_HN - 1; i++)
			for (j = 1; j < _B_HN - 1; j++)
				A[i][j] = SCALAR_VAL(0.125) * (B[i + 1][j] - SCALAR_VAL(2.0) * B[i][j] + B[i - 1][j]) +
				          SCALAR_VAL(0.125) * (B[i][j + 1] - SCALAR_VAL(2.0) * B[i][j] + B[i][j - 1]) +
				          B[i][j];
	}
	printf("steps %d\n", t);
}

static DATA_TYPE A[HEAT_N][HEAT_N], B[HEAT_N][HEAT_N];

int main(void)
{
	int n = HEAT_N;
	double s = 0;
	int i, j;

	init_array(n, A, B);
	kernel_heat_2d(HEAT_T, n, A, B);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			s += A[i][j] * ((i + j) % 5 + 1);
	printf("heat2d %.9e\n", s);
	return 0;
}
