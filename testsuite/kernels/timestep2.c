/* timestep2.c - a time loop with a step of 2 whose counter main reads after
 * it, around sweeps whose rows are independent but whose inner loops carry
 * a dependence (a running sum along a row, a shift by 4): the region forks
 * once around the loop (middle/onefork.c) and marks neither inner loop for
 * the vectorizer (middle/ivdep.c). */
#include <stdio.h>

#include "bench.h"

static DATA_TYPE A[N][M], B[N][M], C[N][M];
static int perm[M];

static void init(void)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++) {
			A[i][j] = (DATA_TYPE)((i * 7 + j * 3) % 11) / 8;
			B[i][j] = (DATA_TYPE)((i + j * 5) % 13) / 16;
			C[i][j] = 0;
		}
	for (j = 0; j < M; j++)
		perm[j] = (j * 37 + 11) % M;
}

static double grids_sum(void)
{
	double s = 0;
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			s += (A[i][j] + B[i][j] * 2 + C[i][j] * 3) * ((i + j) % 7 + 1);
	return s;
}

/* a step of 2 and the counter read after the loop; rows carry sums along j */
static int stepped(void)
{
	int t, i, j;

	for (t = 0; t < 2 * TSTEPS; t += 2) {
		for (i = 0; i < N; i++)
			for (j = 1; j < M; j++)
				C[i][j] = C[i][j - 1] * SCALAR_VAL(0.5) + A[i][j]; /* carried: no mark */
		for (i = 0; i < N; i++)
			for (j = 0; j + 4 < M; j++)
				B[i][j + 4] = B[i][j] * SCALAR_VAL(0.75) + C[i][j]; /* carried at distance 4 */
	}
	return t;
}

int main(void)
{
	double s;
	int t = 0;

	init();
	t = stepped();
	s = grids_sum();
	printf("timestep2 %d %.9e\n", t, s);
	return 0;
}
