/* cascade.c - an early-exit cascade: each stage runs only when the one
 * before is not confident, nested ifs without else; a side layer and a
 * stage whose arm is a loop of the function itself (a slice).  The arms'
 * tasks are skipped or run by the dynamic schedule (middle/branches.c). */
#include <stdio.h>

#include "bench.h"

#ifndef CONFIDENT
#define CONFIDENT 100 /* -DCONFIDENT=-1: no stage after the first */
#endif
#ifndef STILL
#define STILL 0 /* -DSTILL=-1e9: not the last stage */
#endif

static DATA_TYPE in[N][M], s1[N][M], s2[N][M], s3[N][M], aux[N][M];

static void init(void)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++) {
			in[i][j] = (DATA_TYPE)((i * 5 + j * 3) % 19) / 8;
			s2[i][j] = s3[i][j] = 0;
		}
}

static void stage(DATA_TYPE ARR2(src, N, M, n, m), DATA_TYPE ARR2(dst, N, M, n, m), DATA_TYPE k)
{
	int i, j, r;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++) {
			DATA_TYPE v = src[i][j];

			for (r = 0; r < 8; r++)
				v = v * k + src[i][(j + r) % M] * SCALAR_VAL(0.125);
			dst[i][j] = v;
		}
}

int main(void)
{
	double sum = 0, conf;
	int i, j, depth = 1;

	init();
	stage(in, s1, SCALAR_VAL(0.5));
	conf = s1[1][2];
	if (conf < CONFIDENT) { /* not confident: the next stage */
		stage(s1, s2, SCALAR_VAL(0.25));
		depth = 2;
		if (s2[3][4] < s1[3][4] + STILL) /* still not: the last */
			for (i = 0; i < N; i++)
				for (j = 0; j < M; j++)
					s3[i][j] = s2[i][j] * s2[i][j] + s1[i][j];
	}
	stage(in, aux, SCALAR_VAL(0.75));
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			sum += (s1[i][j] + s2[i][j] + s3[i][j] + aux[i][j]) * ((i + j) % 5 + 1);
	printf("cascade depth %d %.9e\n", depth, sum);
	return 0;
}
