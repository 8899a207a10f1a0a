/* nestslices.c - a perfect nest whose outer loop carries a dependence, in
 * a kernel that main calls from a repeat loop, as benchmarks time it:
 * the kernel is planned on its own, and its loop is split in place at the
 * inner loop (slices), each slice running every iteration of the outer
 * loop.  The second kernel's inner loop reads a column another slice
 * writes, and keeps its order. */
#include <stdio.h>
#include "sizes.h"

#define REPS 3

static double A[N][M], x[N], y[M], v[M];

static void init(void)
{
	int i, j;

	for (j = 0; j < M; j++)
		v[j] = j % 3;
	for (i = 0; i < N; i++) {
		x[i] = 1 - (i % 7) * 0.125;
		for (j = 0; j < M; j++)
			A[i][j] = ((i + 3 * j) % 11) * 0.25 - 1;
	}
}

static void transposed(void)
{
	int i, j;

	for (j = 0; j < M; j++)
		y[j] = 0;
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			y[j] += A[i][j] * x[i];
}

static void shifted(void)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 1; j < M; j++)
			v[j] = v[j] * 0.5 + v[j - 1] * 0.25 + A[i][j] * x[i] + y[j];
}

int main(void)
{
	double s = 0;

	init();
	for (int r = 0; r < REPS; r++)
		transposed();
	for (int r = 0; r < REPS; r++)
		shifted();
	for (int j = 0; j < M; j++)
		s += (y[j] + v[j]) * (j % 7 + 1);
	printf("%.17g\n", s);
	return 0;
}
