/* kernelmacro.c - functions whose headers a macro spells, in a source that
 * tree-sitter parses without an error: `KERNEL(scale) { ... }` reads as a
 * definition with no parameter list, so mtpar expands the uses
 * (frontend/parse.c, parse_misread; frontend/unfold.c) and splits the loops
 * of the functions they define. */
#include <stdio.h>

#include "bench.h"

#define KERNEL(name) void name(void)
#define KERNEL_N(name, n) static void name(int n)

static DATA_TYPE A[N][M], B[N][M];

KERNEL(fill)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			A[i][j] = (DATA_TYPE)((i * 5 + j * 3) % 13) / 8;
}

KERNEL_N(scale, rows)
{
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < M; j++)
			B[i][j] = A[i][j] * SCALAR_VAL(1.5) + A[N - 1 - i][j];
}

int main(void)
{
	double s = 0;

	fill();
	scale(N);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			s += B[i][j] * ((i * j) % 7);
	printf("%.6f\n", s);
	return 0;
}
