/* relax.c - a time loop around one sweep, in a function of its own whose
 * body is that loop and nothing else, every counter declared in its loop's
 * header: the caller cannot split the call (the time loop carries the
 * dependence), so the function gets a plan of its own, the sweep split on
 * each step (middle/plan.c, has_levels); main, whose plan went to relax,
 * has a second one for its other work (plan_roots_around). */
#include <stdio.h>

#include "bench.h"

static DATA_TYPE X[N][M], Wt[M];

static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			X[i][j] = (DATA_TYPE)((i * 7 + j * 3) % 11) / 16 + SCALAR_VAL(0.25);
	for (int j = 0; j < M; j++)
		Wt[j] = (DATA_TYPE)(j % 5) / 8;
}

/* each step updates every element from its own value and a shared weight */
static void relax(int steps)
{
	for (int t = 0; t < steps; t++) {
		for (int i = 0; i < _B_N; i++)
			for (int j = 0; j < _B_M; j++)
				X[i][j] = X[i][j] * (SCALAR_VAL(1.0) - X[i][j]) * SCALAR_VAL(3.5) + Wt[j] / (t + 4);
		Wt[t % _B_M] = Wt[t % _B_M] / 2; /* a step's own work: no perfect nest */
	}
}

int main(void)
{
	double s = 0;

	init();
	relax(TSTEPS);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			s += X[i][j] * ((i + j) % 7 + 1);
	printf("%.6f\n", s);
	return 0;
}
