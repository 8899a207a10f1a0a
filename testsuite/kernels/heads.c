/* heads.c - an else-if chain picks one of three heads, all writing the same
 * output (the writes of arms that exclude each other need no order), the
 * choice made from data a chunked layer computes; a head in a braceless arm;
 * the output read after the chain.  Scheduled dynamically
 * (middle/branches.c). */
#include <stdio.h>

#include "bench.h"

#ifndef SHIFT
#define SHIFT 0 /* -DSHIFT=5 or -5: the first or the last head */
#endif

static DATA_TYPE feat[N][M], out[N][M], bias[M];

static void init(void)
{
	int i, j;

	for (j = 0; j < M; j++)
		bias[j] = (DATA_TYPE)(j % 7) / 4;
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			feat[i][j] = (DATA_TYPE)((i * 11 + j) % 29) / 16 - 1;
}

static void head(DATA_TYPE ARR2(f, N, M, n, m), DATA_TYPE ARR2(o, N, M, n, m), int kind)
{
	int i, j, r;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++) {
			DATA_TYPE v = f[i][j];

			for (r = 0; r < 6; r++)
				v = kind == 0 ? v * SCALAR_VAL(0.5) + bias[j] : kind == 1 ? v - bias[(j + r) % M] * v
				                                                  : v * v * SCALAR_VAL(0.01) + r;
			o[i][j] = v;
		}
}

int main(void)
{
	double sum = 0;
	int i, j;
	DATA_TYPE score;

	init();
	head(feat, out, 2);
	score = out[2][3] - out[4][1] + SHIFT;
	if (score > 1)
		head(feat, out, 0);
	else if (score > -1) {
		head(feat, out, 1);
		head(out, feat, 0);
	} else
		head(out, feat, 2);
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			sum += (out[i][j] + feat[i][j]) * ((i * j) % 3 + 1);
	printf("heads %.3f %.9e\n", (double)score, sum);
	return 0;
}
