/* lu.c - LU decomposition in place, as PolyBench writes it: the loop over
 * pivots carries its results, and so does the loop over the columns left
 * of the diagonal (each reads the ones before it); the loop over the
 * columns from the diagonal on reads only the row's left part and the
 * rows above, so it is split, a region per pivot, its bounds moving with
 * the pivot. */
#include <stdio.h>

#include "bench.h"

static void kernel_lu(int n, DATA_TYPE ARR2(A, N, N, n, n))
{
	int i, j, k;

	for (i = 0; i < _B_N; i++) {
		for (j = 0; j < i; j++) {
			for (k = 0; k < j; k++)
				A[i][j] -= A[i][k] * A[k][j];
			A[i][j] /= A[j][j];
		}
		for (j = i; j < _B_N; j++)
			for (k = 0; k < i; k++)
				A[i][j] -= A[i][k] * A[k][j];
	}
}

static DATA_TYPE A[N][N];

int main(void)
{
	double s = 0;
	int i, j;

	/* diagonally dominant, so that the pivots stay away from zero */
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			A[i][j] = i == j ? (DATA_TYPE)N : (DATA_TYPE)((i * 7 + j * 3) % 11) / 16;
	kernel_lu(N, A);
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			s += A[i][j] * ((i + 2 * j) % 5 + 1);
	printf("lu %.9e\n", s);
	return 0;
}
