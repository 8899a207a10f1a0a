/* statements.c - callees with statements between or after their loops
 * that write memory (PolyBench's correlation sets `corr[m-1][m-1] = 1`;
 * operators bump a trace counter): each such statement is a part of its
 * own, which one chunk runs, ordered against the loops' chunks by what it
 * reads and writes (middle/decomp.c whole_stmt_ok).  One that sets a
 * variable of the callee keeps the call whole. */
#include <stdio.h>

#include "bench.h"

static DATA_TYPE A[N][M], B[N][M], C[N][M];
static int traced;

static void trace(void)
{
	traced++;
}

/* a corner set after the loop, then a trace */
static void corner(DATA_TYPE X[N][M], DATA_TYPE Y[N][M])
{
	int i, j;

	for (i = 0; i < N - 1; i++)
		for (j = 0; j < M; j++)
			Y[i][j] = X[i][j] * SCALAR_VAL(0.5) + X[i + 1][j];
	Y[N - 1][M - 1] = SCALAR_VAL(1.0);
	trace();
}

/* a statement between the loops that the second loop reads */
static void middle(DATA_TYPE X[N][M], DATA_TYPE Y[N][M])
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			Y[i][j] = X[i][j] + 1;
	Y[0][0] = Y[N - 1][M - 1] * 2;
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			X[i][j] = Y[0][0] + Y[i][j];
}

/* t = X[3][3] sets a local from what the call writes: the call stays whole */
static void sets_local(DATA_TYPE X[N][M])
{
	int i, j;
	DATA_TYPE t;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			X[i][j] = i - j;
	t = X[3][3];
	X[0][0] = t;
}

int main(void)
{
	double s = 0;

	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			A[i][j] = (DATA_TYPE)((i * 7 + j) % 11) / 4;
	corner(A, B);
	middle(B, C);
	corner(C, A);
	sets_local(C);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			s += A[i][j] * (j % 3) + B[i][j] + C[i][j];
	printf("statements %d %.9e\n", traced, s);
	return 0;
}
