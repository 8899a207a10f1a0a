/* contexts.c - one helper called with different sizes from different
 * places (a layer function called per layer): each call is decomposed with
 * its own constant sizes, and calls that pass the same sizes share a clone. */
#include <stdio.h>

#include "sizes.h"

static DATA_TYPE A[N][M], B[N][M];

static void scale(int rows, int cols, DATA_TYPE f, DATA_TYPE x[N][M])
{
	int i, j;

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++)
			x[i][j] = x[i][j] * f + (DATA_TYPE)(i - j) / M;
}

int main(void)
{
	double s = 0;
	int i, j;

	scale(N, M, 1.5, A);
	scale(N / 2, M - 7, 2.0, B);
	scale(N, M / 3, 0.5, A);
	scale(N / 2, M - 7, 3.0, A);
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			s += A[i][j] * (i % 3 + 1) + B[i][j];
	printf("contexts %.9e\n", s);
	return 0;
}
