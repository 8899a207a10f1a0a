/* prologue.c - callees that set locals between their loops (`scale =
 * alpha * 2;`, as PolyBench's deriche and hand-written kernels do): each
 * chunk call runs those settings again, in their place, and gets the
 * values the whole call has there (middle/decomp.c local_set_stmt).  Not
 * when a setting reads what the call writes, or a local that a loop sets:
 * then the call stays whole. */
#include <stdio.h>

#include "bench.h"

static DATA_TYPE A[N][M], B[N][M];

static void rescale(DATA_TYPE alpha, DATA_TYPE X[N][M], DATA_TYPE Y[N][M])
{
	int i, j;
	DATA_TYPE scale, shift;

	scale = alpha * 2;
	shift = scale + 1;
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			Y[i][j] = X[i][j] * scale + shift;
	scale = alpha / 2;
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			X[i][j] = Y[i][j] * scale - X[i][j];
}

/* t reads what the first loop writes: the call stays whole */
static void from_first(DATA_TYPE X[N][M])
{
	int i, j;
	DATA_TYPE t;

	for (i = 0; i < N; i++)
		X[i][0] = i;
	t = X[N / 2][0];
	for (i = 0; i < N; i++)
		for (j = 1; j < M; j++)
			X[i][j] = t + j;
}

/* k reads the first loop's counter: the call stays whole */
static void after_counter(DATA_TYPE X[N][M])
{
	int i, j, k;

	for (i = 0; i < N; i++)
		X[i][1] = i;
	k = i;
	for (i = 0; i < N; i++)
		for (j = 2; j < M; j++)
			X[i][j] = k + j;
}

int main(void)
{
	double s = 0;

	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			A[i][j] = (DATA_TYPE)((i * 7 + j) % 11) / 4;
	rescale(SCALAR_VAL(1.5), A, B);
	from_first(B);
	after_counter(A);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			s += A[i][j] * (j % 3) + B[i][j];
	printf("prologue %.9e\n", s);
	return 0;
}
