/* rtsizes.c - kernels whose sizes only the run knows: read from the command
 * line (the default when none is given), passed as int parameters, bounding
 * loops over arrays of the header's sizes.  No caller fixes them, so mtpar
 * splits each loop at run time (middle/rtloops.c) under the conditions its
 * symbolic test finds: a row of M holds an inner range of m, a column of N
 * one of n.  spill() runs with rows longer than the array's: its condition
 * fails at run time and the loop runs as written.  seidel() and total()
 * carry values between iterations and stay sequential. */
#include <stdio.h>
#include <stdlib.h>

#include "sizes.h"

static DATA_TYPE A[N][M], B[N][M], C[N][N], T[M][N];
static float img[N * M], blurred[N * M];
static DATA_TYPE G[64 * 64]; /* rows of 64 */

/* exported: its callers are not all known, so the arrays are checked apart at run time */
void gemm(int n, int m, DATA_TYPE alpha, DATA_TYPE c[N][N], DATA_TYPE a[N][M], DATA_TYPE b[N][M])
{
	int i, j, k;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			DATA_TYPE s = 0;

			for (k = 0; k < m; k++)
				s += a[i][k] * b[j][k];
			c[i][j] += alpha * s;
		}
}

/* a triangle: row i's inner range is [0, i] */
static void syrk_lower(int n, int m)
{
	int i, j, k;

	for (i = 0; i < n; i++)
		for (j = 0; j <= i; j++) {
			C[i][j] *= 0.5;
			for (k = 0; k < m; k++)
				C[i][j] += A[i][k] * A[j][k];
		}
}

/* each iteration writes a column */
static void transpose(int n, int m)
{
	for (int j = 0; j < m; j++)
		for (int i = 0; i < n; i++)
			T[j][i] = A[i][j] + B[i][j];
}

/* a flat image of h rows of w pixels */
static void blur(int h, int w, const float *in, float *out)
{
	for (int y = 1; y < h - 1; y++)
		for (int x = 1; x < w - 1; x++)
			out[y * w + x] = (in[(y - 1) * w + x] + in[y * w + x - 1] + in[y * w + x] +
			                  in[y * w + x + 1] + in[(y + 1) * w + x]) * 0.2f;
}

/* rows of m > 64 overlap the next one: the run-time condition fails */
static void spill(int rows, int m)
{
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < m; j++)
			G[i * 64 + j] = (DATA_TYPE)(i * 1000 + j);
}

/* in place: each row reads the one before (sequential) */
static void seidel(int n, int m)
{
	for (int i = 1; i < n - 1; i++)
		for (int j = 1; j < m - 1; j++)
			B[i][j] = (B[i - 1][j] + B[i][j - 1] + B[i][j] + B[i][j + 1] + B[i + 1][j]) / 5;
}

/* a sum carried across iterations (sequential) */
static DATA_TYPE total(int n, int m)
{
	DATA_TYPE s = 0;
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++)
			s += C[i][j % N] + T[j][i];
	return s;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : N, m = argc > 2 ? atoi(argv[2]) : M;
	int i, j;
	double s = 0;

	if (n < 3 || n > N || m < 3 || m > M)
		return 1;
	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++) {
			A[i][j] = (DATA_TYPE)((i * j + 1) % 17) / 17;
			B[i][j] = (DATA_TYPE)((i + 2 * j) % 13) / 13;
			img[i * m + j] = (float)((i * 7 + j * 3) % 11);
		}
	gemm(n, m, 1.5, C, A, B);
	syrk_lower(n, m);
	transpose(n, m);
	blur(n, m, img, blurred);
	spill(n / 25, 64 + n / 10);
	seidel(n, m);
	s = total(n, m);
	for (i = 0; i < n * m; i++)
		s += blurred[i] * (i % 5);
	for (i = 0; i < 64; i++)
		for (j = 0; j < 64; j++)
			s += G[i * 64 + j] * ((i + j) % 3);
	printf("rtsizes %.9e\n", s);
	return 0;
}
