/* siblings.c - operators whose status the caller stores and tests
 * (`ret = op(...); if (ret != 0) return ret;`, as hand-written runtimes
 * and some generators call them).  The caller's span stops at each test,
 * so its plan goes into one operator; the others, called beside it, get a
 * plan of their own (middle/plan.c plan_uncovered). */
#include <stdio.h>

#include "bench.h"

static DATA_TYPE A[N][M], B[N][M], C[N][M];

static int add_bias(DATA_TYPE X[N][M], DATA_TYPE Y[N][M])
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			Y[i][j] = X[i][j] + (DATA_TYPE)(j % 5) / 4;
	return 0;
}

static int scale_rows(DATA_TYPE (*X)[M], DATA_TYPE (*Y)[M])
{
	int i, j;

	for (i = 0; i < N - 1; i++)
		for (j = 0; j < M; j++)
			Y[i][j] = X[i][j] * SCALAR_VAL(0.75) + Y[i][j] * SCALAR_VAL(0.25);
	return 0;
}

static int clip(DATA_TYPE Y[N][M])
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			Y[i][j] = Y[i][j] > SCALAR_VAL(2.0) ? SCALAR_VAL(2.0) : Y[i][j];
	return 0;
}

static int run(void)
{
	int ret;

	ret = add_bias(A, B);
	if (ret != 0)
		return ret;
	ret = scale_rows(B, C);
	if (ret != 0)
		return ret;
	ret = clip(C);
	return ret;
}

int main(void)
{
	double s = 0;
	int i, j, rc = 0;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			A[i][j] = (DATA_TYPE)((i * 3 + j * 7) % 13) / 8;
	for (i = 0; i < 4 && rc == 0; i++)
		rc = run();
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			s += C[i][j] * ((i + j) % 7 + 1);
	printf("siblings %d %.9e\n", rc, s);
	return 0;
}
