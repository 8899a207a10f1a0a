/* triangles.c - loops whose bounds move with a loop around them that
 * carries a dependence (the pivots of a factorisation): the inner loop is
 * split, a fork per run, when all it writes lies apart from all it reads
 * of the same array (rows below the pivot against the pivot's row and
 * column) and a run has the work to pay for the fork, and keeps its
 * order when they meet (the diagonal read by every column, the column
 * before, a shift that may reach back less than its length). */
#include <stdio.h>

#include "bench.h"

static DATA_TYPE A[N][N], B[N][N], C[N][N], D[N][N], X[4 * N];

static void init(void)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			A[i][j] = i == j ? (DATA_TYPE)N : (DATA_TYPE)((i * 5 + j) % 7) / 8;
			B[i][j] = A[i][j];
			C[i][j] = A[i][j] / 2;
			D[i][j] = A[i][j] / 4;
		}
	for (i = 0; i < 4 * N; i++)
		X[i] = (DATA_TYPE)(i % 9) / 4;
}

/* rows below the pivot, scaled by the pivot's row (Gaussian elimination): split */
static void eliminate(void)
{
	int i, j, k;

	for (k = 0; k < _B_N; k++)
		for (i = k + 1; i < _B_N; i++)
			for (j = k; j < _B_N; j++)
				A[i][j] -= A[k][j] * (A[i][k] / A[k][k]) * 0.001;
}

/* each column from the diagonal on reads the diagonal, which i == k writes: in order */
static void diagonal(void)
{
	int i, k;

	for (k = 1; k < _B_N; k++)
		for (i = k; i < _B_N; i++)
			B[k][i] = B[k - 1][i] * 0.5 + B[k][k] * 0.25;
}

/* each column reads the one before it, from the diagonal on: in order */
static void before(void)
{
	int i, k;

	for (k = 1; k < _B_N; k++)
		for (i = k; i < _B_N; i++)
			C[k][i] = C[k - 1][i] * 0.5 + C[k][i - 1] * 0.5;
}

/* writes [m, n) reading [0, n - m): apart only where n <= 2 * m, a test on
 * the parameters that mtpar does not make (such tests tend to hold only
 * where the loop hardly runs): in order */
static void shift(int m, int n)
{
	int j;

	for (j = m; j < n; j++)
		X[j] = X[j - m] * 0.5 + 1;
}

/* the column below the diagonal from the diagonal element and the column
 * before (cholesky's scaling): apart, but a column of N is too little work
 * for a fork: in order */
static void column(void)
{
	int i, k;

	for (k = 1; k < _B_N; k++)
		for (i = k + 1; i < _B_N; i++)
			D[i][k] = D[i][k] / D[k][k] + D[k][i] * 0.125 + D[i][k - 1] * 0.0625;
}

int main(void)
{
	double s = 0;
	int i, j;

	init();
	eliminate();
	diagonal();
	before();
	shift(3 * N / 2, 2 * N);  /* apart: 2 * N <= 3 * N */
	shift(N / 3, 4 * N);      /* meet: reads what it wrote */
	column();
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			s += (A[i][j] + B[i][j] * 2 + C[i][j] * 3 + D[i][j] * 5) * ((i + j) % 3 + 1);
	for (i = 0; i < 4 * N; i++)
		s += X[i] * (i % 7 + 1);
	printf("triangles %.9e\n", s);
	return 0;
}
