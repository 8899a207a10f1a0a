/* clonetraps.c - what a chunk clone of a callee must keep: the callee's
 * own name, which __func__ reads (a clone is another function), and a
 * macro whose body has a comment before more of it (tree-sitter-c ended
 * the #define at the comment and mtpar failed with a syntax error). */
#include <stdio.h>

#include "sizes.h"

#define SCALE(x) ((x) /* by a half */ * SCALAR_VAL(0.5))

static DATA_TYPE a[N][M], b[N][M];

static void named(void)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			b[i][j] = SCALE(a[i][j]) + (DATA_TYPE)sizeof(__func__);
}

int main(void)
{
	double s = 0;
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			a[i][j] = (DATA_TYPE)((i * 3 + j) % 17);
	named();
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			s += b[i][j] * ((i + j) % 5 + 1);
	printf("clonetraps %.9e\n", s);
	return 0;
}
