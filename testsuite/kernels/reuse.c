/* reuse.c - counters declared once and reused by sibling loops: private
 * where every loop assigns them first, not where one reads the last value. */
#include <stdio.h>

#include "sizes.h"

static double a[N][M], b[N], c[N];

static void fill(void)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			a[i][j] = (double)((i * 3 + j) % 11) / 11;
	for (i = 0; i < N; i++) {
		b[i] = 0;
		for (j = 0; j < M; j++)
			b[i] += a[i][j];
	}
}

/* the second loop reads j as the first one left it */
static void last_value(void)
{
	int i, j = 0;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			a[i][j] *= 0.5;
	for (i = 0; i < N; i++)
		c[i] = b[i] + j;
}

int main(void)
{
	double s = 0;

	fill();
	last_value();
	for (int i = 0; i < N; i++)
		s += c[i] * (i % 4 + 1) + a[i][i % M];
	printf("reuse %.9e\n", s);
	return 0;
}
