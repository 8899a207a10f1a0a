/* formacros.c - loops whose headers are macros (loops.h, and one of the
 * file's own, spread over lines): tree-sitter cannot parse `FOR(i, n) s;`
 * as written, so mtpar expands such uses in its output (frontend/unfold.c),
 * one over two lines followed by as many newlines, so lines keep their numbers,
 * and parallelizes the loops they spell: a matrix product, a stencil with
 * a time loop, a row sum.  A macro that spells an expression (IDX) stays
 * as written. */
#include <stdio.h>

#include "bench.h"
#include "loops.h"

#define IDX(i, j) ((i) * M + (j))
#define FOR_STEP(v, lo, hi, s) \
	for (v = (lo);         \
	     v < (hi);         \
	     v += (s))

static DATA_TYPE A[N][M], B[M][N], C[N][N], Gb[N * M], Hb[N * M];
static ALIGNED(64) DATA_TYPE rows[N]; // the uses after a line comment are read too

static void init(void)
{
	FOR2(i, j,
	     N, M) BEGIN
		A[i][j] = (DATA_TYPE)((i * 7 + j * 3) % 11) / 8;
		B[j][i] = (DATA_TYPE)((i + j * 5) % 13) / 16;
		Gb[IDX(i, j)] = (DATA_TYPE)((i * j) % 5) / 4;
	END
}

static void product(void)
{
	FOR(i, N)
		FOR(j, N) {
			DATA_TYPE s = 0;

			FOR(k, M) s += A[i][k] * B[k][j];
			C[i][j] = s;
		}
}

static void stencil(int steps)
{
	int t, i, j;

	FOR_RANGE(t, 0, steps) {
		FOR_RANGE(i, 1, N - 1)
			FOR_RANGE(j, 1, M - 1)
				Hb[IDX(i, j)] = (Gb[IDX(i - 1, j)] + Gb[IDX(i + 1, j)] + Gb[IDX(i, j - 1)] +
				                Gb[IDX(i, j + 1)]) * SCALAR_VAL(0.25);
		FOR_STEP(i, 1, N - 1, 1)
			FOR_RANGE(j, 1, M - 1) Gb[IDX(i, j)] = Hb[IDX(i, j)];
	}
}

KERNEL(row_sums)
{
	FOR(i, N) BEGIN
		DATA_TYPE s = 0;
		FOR(j, N) s += C[i][j];
		rows[i] = s;
	END
}

int main(void)
{
	double s = 0;

	init();
	product();
	stencil(4);
	row_sums();
	FOR(i, N) s += rows[i] * (i % 5 + 1);
	FOR2(i, j, N, M) s += Gb[IDX(i, j)] * ((i + j) % 3);
	printf("%.6f\n", s);
	return 0;
}
