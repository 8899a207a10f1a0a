/* directives.c - #define, #undef and #include inside function bodies.  A
 * macro redefined between two loops means one thing in the first and
 * another in the second, so no code moves across the directive (a region's
 * copy of a loop placed after it, a callee's clone placed after the
 * callee); an included file brings code the analysis does not see, so what
 * holds the #include is unknown code (frontend/stmt.c lower_directive). */
#include <stdio.h>

#include "bench.h"

static DATA_TYPE A[N][M], B[N][M], C[N][M];

/* redefines SCALE in its body: never cloned, its loops split only in place */
static void scaled(DATA_TYPE X[N][M])
{
	int i, j;

#define SCALE SCALAR_VAL(2.0)
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			X[i][j] *= SCALE;
#undef SCALE
#define SCALE SCALAR_VAL(3.0)
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			X[i][j] += SCALE;
}

int main(void)
{
	double s = 0;
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			A[i][j] = (DATA_TYPE)((i * 5 + j * 3) % 17) / 16;
	for (j = 0; j < M; j++)
		B[0][j] = A[0][j];
	for (i = 1; i < N; i++) {
#include "support/directives_row.inc"
	}
#undef SCALE
#define SCALE SCALAR_VAL(1.0)
#include "support/directives_pass.inc"
	scaled(C);
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			A[i][j] = C[i][j] * SCALE;
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			s += A[i][j] * ((i + j) % 7 + 1);
	printf("directives %.9e\n", s);
	return 0;
}
