/* reverse.c - loops that count down, as hand-written kernels often do:
 * `for (i = N - 1; i >= 0; i--)` over a row of its own, a callee's loop
 * `i > 0; --i` reaching `a[i - 1]`, a step of -2, an unsigned counter that
 * stops above zero, and a back substitution whose rows read the rows
 * below them (that one carries a dependence and stays as written), and
 * a count down from a size that only the run knows.  The independent ones
 * are split into chunks that each run their values from the top down
 * (middle/decomp.c, bound_ok), the last at run time (middle/rtloops.c). */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

static DATA_TYPE A[N][M], B[N][M], x[N], y[M], U[N][N], r[N];

static void init(void)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			A[i][j] = (DATA_TYPE)((i * 5 + j * 3) % 17) / 8;
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			U[i][j] = i == j ? (DATA_TYPE)(i % 3 + 2) : (DATA_TYPE)((i + 2 * j) % 5) / 64;
	for (i = 0; i < N; i++)
		r[i] = (DATA_TYPE)(i % 9) / 4;
}

/* each row scaled by its own sum, rows visited from the last */
static void scale_rows(void)
{
	int i, j;

	for (i = _B_N - 1; i >= 0; i--) {
		DATA_TYPE s = 0;

		for (j = _B_M - 1; j >= 0; j--)
			s += A[i][j];
		for (j = 0; j < _B_M; j++)
			B[i][j] = A[i][j] / (s + 1);
	}
}

/* column sums, the column index counting down to 1 */
static void column_sums(void)
{
	for (int j = M; j > 0; --j) {
		DATA_TYPE s = 0;

		for (int i = 0; i < N; i++)
			s += B[i][j - 1] * (i % 4 + 1);
		y[j - 1] = s;
	}
}

/* every other row, from the last odd one */
static void odd_rows(void)
{
	for (int i = N - 1; i >= 1; i -= 2)
		for (int j = 0; j < M; j++)
			B[i][j] = B[i][j] * SCALAR_VAL(0.5) + y[j] / M;
}

/* an unsigned counter that stops above zero: row 0 is left alone */
static void shift_rows(void)
{
	for (unsigned i = N - 1; i > 0; i--)
		for (unsigned j = 0; j < M; j++)
			A[i][j] = B[i][j] - A[i][j] / 2;
}

/* back substitution: row i reads x[j] of the rows below it, found before */
static void back_substitute(void)
{
	for (int i = N - 1; i >= 0; i--) {
		DATA_TYPE s = r[i];

		for (int j = i + 1; j < N; j++)
			s -= U[i][j] * x[j];
		x[i] = s / U[i][i];
	}
}

/* rows mirrored, as many as the command line says */
static void mirror(int n)
{
	for (int i = n - 1; i >= 0; i--)
		for (int j = 0; j < M; j++)
			B[i][j] += A[n - 1 - i][j] / 8;
}

int main(int argc, char **argv)
{
	DATA_TYPE s = 0;
	int n = argc > 1 ? atoi(argv[1]) : N;

	init();
	scale_rows();
	column_sums();
	odd_rows();
	shift_rows();
	back_substitute();
	mirror(n < N ? n : N);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			s += A[i][j] * ((i + j) % 7 + 1) + B[i][j];
	for (int i = 0; i < N; i++)
		s += x[i] * (i % 3 + 1);
	for (int j = 0; j < M; j++)
		s += y[j];
	printf("%.6f\n", (double)s);
	return 0;
}
