/* foldtraps.c - loop bounds that are constant expressions: a division, a
 * remainder or a shift of constants through a macro (`(N / 8)`) is a
 * constant trip count; in unsigned arithmetic it wraps as C says, so
 * `20 + (0u - 8) / 0x20000000` is 27, not the 20 that signed 64-bit
 * arithmetic gives (a review found the chunks stopping at 20).  A signed
 * counter compared with an unsigned bound is compared as its unsigned
 * conversion: from -5, `i < 4096u` runs no time (frontend/loop.c
 * compares_unsigned; a review found the upper chunk running). */
#include <stdio.h>

#include "bench.h"

#define ROWS (N / 8)
#define WRAPPED_DIV (20 + (0u - 8) / 0x20000000)
#define WRAPPED_SHR (20 + ((0u - 1) >> 29))
#define WRAPPED_MOD (20 + (0u - 3) % 8)

static float A[N / 8][M], B[40][4096];

static void init(void)
{
	int i, j;

	for (i = 0; i < N / 8; i++)
		for (j = 0; j < M; j++)
			A[i][j] = (float)((i * 3 + j) % 7) / 4;
	for (i = 0; i < 40; i++)
		for (j = 0; j < 4096; j++)
			B[i][j] = (float)((i * j) % 5);
}

static void scale_rows(void)
{
	for (int i = 0; i < ROWS; i++)
		for (int j = 0; j < M; j++)
			A[i][j] = A[i][j] * 2 + (float)j / M;
}

static void wrapped_div(void)
{
	for (int i = 0; i < WRAPPED_DIV; i++)
		for (int j = 0; j < 4096; j++)
			B[i][j] = B[i][j] * 2.0f + (float)(i + j);
}

static void wrapped_shr(void)
{
	for (int i = 0; i < WRAPPED_SHR; i++)
		for (int j = 0; j < 4096; j++)
			B[i][j] = B[i][j] / 2 + 1;
}

static void wrapped_mod(void)
{
	for (int i = 0; i < WRAPPED_MOD; i++)
		for (int j = 0; j < 4096; j++)
			B[i][j] = B[i][j] - (float)(j % 3);
}

/* no iteration: -5 converts to a huge unsigned value; nor from -3 in long against unsigned long */
static void negative_start(void)
{
	for (int i = -5; i < 35u; i++)
		for (int j = 0; j < 4096; j++)
			B[i + 5][j] = -1;
	for (long k = -3; k < (unsigned long)37; k++)
		for (int j = 0; j < 4096; j++)
			B[k + 3][j] = -2;
	for (int i = 2; i < 40u; i++) /* from 2: every iteration, split as usual */
		for (int j = 0; j < 4096; j++)
			B[i][j] += 1;
}

int main(void)
{
	double s = 0;
	int i, j;

	init();
	scale_rows();
	wrapped_div();
	wrapped_shr();
	wrapped_mod();
	negative_start();
	for (i = 0; i < N / 8; i++)
		for (j = 0; j < M; j++)
			s += A[i][j] * ((i + j) % 3);
	for (i = 0; i < 40; i++)
		for (j = 0; j < 4096; j++)
			s += B[i][j] * (j % 5);
	printf("%.6f\n", s);
	return 0;
}
