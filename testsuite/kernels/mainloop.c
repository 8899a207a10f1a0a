/* mainloop.c - a whole program in main, as quick benchmarks are written:
 * the arrays set up by loops, a time loop around one sweep and an update
 * of the coefficients, and a pass after it.  main's plan goes inside the time loop (a sweep split on each
 * step); more plans of main's top level split the loops after it and the
 * one before it (middle/plan.c, plan_around_loops), each region with
 * labels of its own. */
#include <stdio.h>

#include "bench.h"

static DATA_TYPE U[N][M], V[N][M], Coef[M];

int main(void)
{
	int i, j, t;
	double s = 0;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			U[i][j] = (DATA_TYPE)((i * 3 + j * 7) % 23) / 16;
	for (j = 0; j < M; j++)
		Coef[j] = (DATA_TYPE)(j % 4 + 1) / 8;
	for (t = 0; t < TSTEPS; t++) {
		for (i = 0; i < _B_N; i++)
			for (j = 0; j < _B_M; j++)
				U[i][j] = U[i][j] * (SCALAR_VAL(1.0) - Coef[j]) + Coef[j] * (DATA_TYPE)(t % 3);
		Coef[t % M] = Coef[t % M] / 2; /* a step's own work: the sweeps are no perfect nest */
	}
	for (i = N - 1; i >= 0; i--)
		for (j = 0; j < M; j++)
			V[i][j] = U[i][j] * U[i][j] + (DATA_TYPE)(i % 5);
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			s += V[i][j] * ((i + j) % 3 + 1);
	printf("%.6f\n", s);
	return 0;
}
