/* nests.c - perfect loop nests whose outer loop carries a dependence and
 * whose inner loop does not: a transposed matrix-vector product written
 * row by row (`y[j] += A[i][j] * x[i]`), a column sum, a time loop around
 * a pointwise update.  mtpar splits the inner loop, and every chunk runs
 * all of the outer loop's iterations over its own columns, in their
 * order.  The traps keep their order: a column that reads the next one, a
 * triangle whose inner range moves with i, an outer bound the inner loop
 * lowers, a stencil in a time loop, a row sum the inner loop carries. */
#include <stdio.h>
#include "sizes.h"

#define STEPS (TSTEPS * 16)

static double A[N][M], x[N], y[M], z[M], w[M], v[M], u[M], t[M], r[N], q[M];
static double h[8];
static int lim;

static void init(void)
{
	for (int i = 0; i < N; i++) {
		x[i] = (i % 9) * 0.25 - 1;
		for (int j = 0; j < M; j++)
			A[i][j] = ((i * j) % 13) * 0.125 + 0.5;
	}
	for (int j = 0; j < M; j++)
		y[j] = z[j] = w[j] = v[j] = u[j] = t[j] = q[j] = j % 5;
}

/* split over j: each chunk runs every i */
static void transposed(int n, int m)
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++)
			y[j] += A[i][j] * x[i];
}

/* a local of the outer body, read by the inner loop */
static void column_scaled(void)
{
	for (int i = 0; i < N; i++) {
		double xi = x[i] * 0.5;

		for (int j = 0; j < M; j++)
			z[j] = z[j] * 0.75 + A[i][j] * xi;
	}
}

/* a time loop around a pointwise update: one fork, not STEPS */
static void relax(void)
{
	for (int s = 0; s < STEPS; s++)
		for (int j = 0; j < M; j++)
			w[j] = w[j] * 0.99 + A[s % N][j];
}

/* trap: a column reads the next one, which another chunk writes */
static void next_column(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M - 1; j++)
			v[j] = v[j] * 0.5 + v[j + 1] * 0.25 + x[i];
}

/* trap: the inner range moves with i (a triangle) */
static void triangle(void)
{
	for (int i = 0; i < N; i++)
		for (int j = i % M; j < M; j++)
			u[j] = u[j] * 0.5 + u[M - 1 - j % 7] * 0.25 + x[i];
}

/* trap: a triangle whose columns keep apart: a chunk that started at
 * mtpar_lo would add x[i] to columns below i */
static void suffix(void)
{
	for (int i = 0; i < N; i++)
		for (int j = i % M; j < M; j++)
			q[j] += x[i];
}

/* trap: the outer bound is a global the inner loop lowers */
static void lowered(void)
{
	int i, j;

	lim = N;
	for (i = 0; i < lim; i++)
		for (j = 0; j < M; j++) {
			t[j] += x[i];
			if (t[j] > 40 && lim > i + 2)
				lim = i + 2;
		}
}

/* trap: a stencil in a time loop */
static void smooth(void)
{
	for (int s = 0; s < STEPS; s++)
		for (int j = 1; j < M - 1; j++)
			v[j] = (v[j - 1] + v[j] + v[j + 1]) / 3;
}

/* the outer loop splits itself: the row sum stays in its row */
static void rows(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			r[i] += A[i][j] * y[j];
}

/* narrow: too few columns per chunk */
static void narrow(void)
{
	for (int i = 0; i < N * 40; i++)
		for (int j = 0; j < 8; j++)
			h[j] += x[(i + j) % N];
}

static double sum(const double *a, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += a[i] * (i % 7 + 1);
	return s;
}

int main(void)
{
	init();
	transposed(N, M);
	column_scaled();
	relax();
	next_column();
	triangle();
	suffix();
	lowered();
	smooth();
	rows();
	narrow();
	printf("%.17g %.17g %.17g %.17g\n", sum(y, M), sum(z, M), sum(w, M), sum(v, M));
	printf("%.17g %.17g %.17g %.17g %d\n", sum(u, M), sum(t, M), sum(r, N), sum(q, M), lim);
	printf("%.17g\n", sum(h, 8));
	return 0;
}
