/* timeloops.c - a time loop whose counter is declared in its header and
 * read by the sweeps: every thread of the one-fork region runs the header
 * with its own counter (middle/onefork.c); the sweeps' inner loops are
 * independent and marked for the vectorizer (middle/ivdep.c).  The shapes
 * that must not be marked are in timestep2.c and timegather.c. */
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

/* the counter declared in the header; the sweeps read it */
static void declared(int steps)
{
	int i, j;

	for (int t = 0; t < steps; t++) {
		for (i = 1; i < N - 1; i++)
			for (j = 0; j < M; j++)
				B[i][j] = (A[i - 1][j] + A[i + 1][j]) * SCALAR_VAL(0.25) + (DATA_TYPE)t / 64;
		for (i = 1; i < N - 1; i++)
			for (j = 0; j < M; j++)
				A[i][j] = B[i][j] * SCALAR_VAL(0.5) + A[i][j] * SCALAR_VAL(0.5);
	}
}

int main(void)
{
	double s;
	int t = 0;

	init();
	declared(TSTEPS);
	s = grids_sum();
	printf("timeloops %d %.9e\n", t, s);
	return 0;
}
