/* privates.c - scalars declared once at the top of a function and reused:
 * a sum that each iteration resets, filter states that four sweeps share
 * (deriche), an integer temporary.  Each iteration assigns them before it
 * reads them, so each core may keep its own.  A scalar read after the
 * loop, reset only on a branch, updated from its last value, or read after
 * the loop by the loop around it, carries a value: those loops keep their
 * order. */
#include <stdio.h>

#include "bench.h"

static DATA_TYPE A[N][M], B[N], C[N][M], D[N], E[N][M];
static int I[N];

static void init(void)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++) {
			A[i][j] = (DATA_TYPE)((i * 3 + j) % 11) / 8;
			E[i][j] = (DATA_TYPE)((i + j * 7) % 5) / 4;
		}
}

/* a sum reset by each row: private */
static void row_sums(void)
{
	int i, j;
	DATA_TYPE s;

	for (i = 0; i < _B_N; i++) {
		s = 0.0;
		for (j = 0; j < _B_M; j++)
			s += A[i][j] * A[i][(j + 1) % M];
		B[i] = s;
	}
}

/* two sweeps, forwards and backwards, sharing their states: private */
static void sweeps(void)
{
	int i, j;
	DATA_TYPE ym1, ym2, xm1;
	float f;
	int k;

	for (i = 0; i < _B_N; i++) {
		ym1 = 0;
		ym2 = 0;
		xm1 = 0;
		for (j = 0; j < _B_M; j++) {
			C[i][j] = 0.5 * A[i][j] + 0.25 * xm1 + 0.125 * ym1 - 0.0625 * ym2;
			xm1 = A[i][j];
			ym2 = ym1;
			ym1 = C[i][j];
		}
	}
	for (i = 0; i < _B_N; i++) {
		ym1 = 0;
		ym2 = 0;
		f = (float)i;
		k = i % 7;
		for (j = _B_M - 1; j >= 0; j--) {
			C[i][j] += 0.5 * ym1 - 0.25 * ym2 + f * 0.001 + k;
			ym2 = ym1;
			ym1 = C[i][j];
		}
	}
}

/* the last value is read after the loop: in order */
static DATA_TYPE last_value(void)
{
	int i, j;
	DATA_TYPE s = 0;

	for (i = 0; i < _B_N; i++) {
		s = A[i][0];
		for (j = 1; j < _B_M; j++)
			s = s * 0.5 + A[i][j];
		D[i] = s;
	}
	return s;
}

/* reset only on a branch, and updated from its last value: in order */
static void carried(void)
{
	int i, j;
	DATA_TYPE s = 1, t = 0;

	for (i = 0; i < _B_N; i++) {
		if (i % 3 == 0)
			s = 0;
		for (j = 0; j < _B_M; j++)
			s += E[i][j];
		E[i][0] = s;
	}
	for (i = 0; i < _B_N; i++) {
		t = t * 0.5 + E[i][1];
		E[i][1] = t;
	}
}

/* the loop around reads what the inner loop leaves: in order */
static void around(int tsteps)
{
	int t, i;
	DATA_TYPE s;

	for (t = 0; t < tsteps; t++) {
		s = 0;
		for (i = 0; i < _B_N; i++) {
			s = A[i][t % M] + t;
			D[i] += s;
		}
		B[t % N] += s;
	}
}

/* an integer temporary, assigned first: private */
static void temporaries(void)
{
	int i, j, idx;

	for (i = 0; i < _B_N; i++) {
		idx = (i * 7) % N;
		j = idx % M;
		I[i] = idx + (int)(A[idx][j] * 4);
	}
}

int main(void)
{
	double s = 0;
	int i, j;

	init();
	row_sums();
	sweeps();
	s += last_value();
	carried();
	around(TSTEPS * 10);
	temporaries();
	for (i = 0; i < N; i++) {
		s += (B[i] + D[i] * 2 + I[i]) * (i % 5 + 1);
		for (j = 0; j < M; j++)
			s += (C[i][j] + E[i][j]) * (j % 3 + 1);
	}
	printf("privates %.9e\n", s);
	return 0;
}
