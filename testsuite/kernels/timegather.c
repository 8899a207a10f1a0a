/* timegather.c - a time loop over arrays passed as parameters, with an
 * inner loop whose even and odd elements are apart and one that gathers
 * through an index array (independent rows, an inner loop that must not be
 * marked for the vectorizer: middle/ivdep.c). */
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

/* independent pairs and a gather */
static void pairs(DATA_TYPE ARR2(X, N, M, n, m), DATA_TYPE ARR2(Y, N, M, n, m), int n, int m)
{
	int t, i, j;

	for (t = 0; t < TSTEPS; t++) {
		for (i = 0; i < _B_N; i++)
			for (j = 0; 2 * j + 1 < _B_M; j++)
				X[i][2 * j] = X[i][2 * j + 1] + Y[i][j]; /* apart: even and odd */
		for (i = 0; i < _B_N; i++)
			for (j = 0; j < _B_M; j++)
				Y[i][perm[j]] = X[i][j] + Y[i][perm[j]]; /* a gather: no mark */
	}
}

int main(void)
{
	double s;
	int t = 0;

	init();
	pairs(A, B, N, M);
	s = grids_sum();
	printf("timegather %d %.9e\n", t, s);
	return 0;
}
