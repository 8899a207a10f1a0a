/* blocks.c - loops inside nested blocks and a constant if: a parallel
 * region must not take a brace with it (a span from inside a block to
 * after it once ran the statement after the block twice). */
#include <stdio.h>

#include "sizes.h"

static DATA_TYPE a[N * M], b[N * M], c[N * M];

int main(void)
{
	double s = 0;
	int i;

	{
		for (i = 0; i < N * M; i++)
			a[i] = (DATA_TYPE)(i % 13) / 13;
	}
	for (i = 0; i < N * M; i++)
		b[i] += a[i] * 2;
	if (1 < 2) {
		for (i = 0; i < N * M; i++)
			c[i] += b[i] + a[i];
	}
	for (i = 0; i < N * M; i++)
		c[i] += 1;
	{
		for (i = 0; i < N * M; i++)
			b[i] += c[i];
		{
			for (i = 0; i < N * M; i++)
				a[i] += b[i];
		}
	}
	for (i = 0; i < N * M; i++)
		s += a[i] * (i % 7 + 1) + c[i];
	printf("blocks %.9e\n", s);
	return 0;
}
