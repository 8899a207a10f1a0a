/* linemarks.c - a source that numbers its own lines (#line, and the
 * "# N file" markers of preprocessed text): mtpar's #line directives after
 * the code it adds follow them, so __LINE__ and __FILE__ after a parallel
 * region, and the compiler's messages, read as in the input. */
#include <stdio.h>

#include "bench.h"

static DATA_TYPE A[N][M], B[N][M];

static void fill(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			A[i][j] = (DATA_TYPE)((i * 7 + j * 3) % 11) / 8;
}

#line 100 "renamed.c"
static void blur(void)
{
	for (int i = 1; i < N - 1; i++)
		for (int j = 0; j < M; j++)
			B[i][j] = (A[i - 1][j] + A[i + 1][j]) * SCALAR_VAL(0.5);
}

# 7 "other.c"
int main(void)
{
	double s = 0;

	fill();
	blur();
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			s += B[i][j] * ((i + j) % 5);
	printf("%.6f %s:%d\n", s, __FILE__, __LINE__);
	return 0;
}
