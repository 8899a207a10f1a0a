/* gathers.c - rows updated through an index array.  Y[i][perm[j]] stays
 * inside row i whatever perm holds (C leaves an index past a row
 * undefined), so the rows are independent; rows reached through an array
 * of pointers, through the address one past a row, or through the start
 * of a matrix with a known range, may meet, and those loops must keep
 * their order. */
#include <stdio.h>

#include "bench.h"

static DATA_TYPE Y[N][M], X[N][M], flat[N * M];
static DATA_TYPE *rows[N];
static int perm[M], len[N];

static void init(void)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++) {
			X[i][j] = (DATA_TYPE)((i * 5 + j * 3) % 17) / 8;
			Y[i][j] = (DATA_TYPE)((i + j) % 13) / 16;
			flat[i * M + j] = (DATA_TYPE)((i * 3 + j) % 7) / 4;
		}
	for (j = 0; j < M; j++)
		perm[j] = (j * 37 + 11) % M;
	for (i = 0; i < N; i++)
		len[i] = M;
	for (i = 0; i < N; i++) /* every row after the first is the one before it, shifted */
		rows[i] = i == 0 ? flat : rows[i - 1] + M / 2;
}

/* independent rows: a gather inside each */
static void gather_rows(void)
{
	int i, j;

	for (i = 0; i < _B_N; i++)
		for (j = 0; j < _B_M; j++)
			Y[i][perm[j]] = Y[i][perm[j]] * 0.5 + X[i][j];
}

/* rows through pointers that overlap: row i + 1 starts inside row i */
static void gather_pointer_rows(void)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M / 2; j++)
			rows[i][perm[j] / 2] = rows[i][perm[j] / 2] * 0.5 + 1;
}

/* each row's last element from the one before, through the address one
 * past the row's end (&X[i][len[i]] is allowed, and its [-1] is X[i][M - 1]) */
static void row_ends(void)
{
	int i, j;

	for (i = 1; i < N; i++) {
		DATA_TYPE t = 0;

		for (j = 0; j < M - 1; j++)
			t += X[i][j] * X[i][j];
		(&X[i][len[i]])[-1] = X[i - 1][M - 1] * 0.5 + t / M;
	}
}

/* a matrix walked from its first row, with a range the analysis knows */
static void first_row_walk(void)
{
	DATA_TYPE(*A)[M] = (DATA_TYPE(*)[M])flat;
	int i, k;

	for (i = 1; i < N; i++)
		for (k = 0; k < M; k++)
			A[0][i * M + k] = A[0][(i - 1) * M + k] * 0.5 + A[0][i * M + k];
}

static double sum(void)
{
	double s = 0;
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			s += (Y[i][j] + flat[i * M + j] * 3 + X[i][j]) * ((i + j) % 5 + 1);
	return s;
}

int main(void)
{
	init();
	gather_rows();
	row_ends();
	gather_pointer_rows();
	first_row_walk();
	printf("gathers %.9e\n", sum());
	return 0;
}
