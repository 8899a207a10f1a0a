/* columns.c - loops over the columns of a matrix: each column of B is
 * updated from the rows below it (trmm), a symmetric matrix is filled by
 * rows and by columns at once (covariance), and columns that depend on
 * their neighbours, through a shifted view of the matrix or through the
 * next column, must keep their order.  Interval arithmetic sees a column
 * range as one span from the first row to the last; the rows apart are
 * what tells the chunks of a column loop apart, unless an unsigned index
 * wraps. */
#include <stdio.h>

#include "bench.h"

static DATA_TYPE A[N][N], B[N][M], S[M][M], D[N][M], E[N][M], T[M * N], F[N * M], Wrap[1000];
static struct {
	int pad;
	DATA_TYPE m[N][M];
} st;
static union {
	DATA_TYPE wide[N / 2][2 * M];
	DATA_TYPE tall[N][M];
} u;

static void init(void)
{
	int i, j;

	for (i = 0; i < N; i++) {
		for (j = 0; j < N; j++)
			A[i][j] = (DATA_TYPE)((i + j) % 11) / N;
		for (j = 0; j < M; j++) {
			B[i][j] = (DATA_TYPE)((i * 3 + j) % 7) / 8;
			D[i][j] = (DATA_TYPE)((i + j * 5) % 13) / 16;
			E[i][j] = (DATA_TYPE)((i * 7 + j) % 5) / 4;
			st.m[i][j] = (DATA_TYPE)((i + j) % 3);
			u.tall[i][j] = (DATA_TYPE)((i * j) % 9) / 8;
			F[i * M + j] = (DATA_TYPE)((i + 2 * j) % 7) / 8;
		}
	}
}

/* B := A^T B with A unit lower triangular: the columns of B are independent */
static void trmm_cols(int n, int m, DATA_TYPE alpha, DATA_TYPE ARR2(a, N, N, n, n),
                      DATA_TYPE ARR2(b, N, M, n, m))
{
	int i, j, k;

	for (i = 0; i < _B_N; i++)
		for (j = 0; j < _B_M; j++) {
			for (k = i + 1; k < _B_N; k++)
				b[i][j] += a[k][i] * b[k][j];
			b[i][j] = alpha * b[i][j];
		}
}

/* row i and column i of S at once: the rows of i and the columns of i are apart */
static void symmetric(void)
{
	int i, j, k;

	for (i = 0; i < _B_M; i++)
		for (j = i; j < _B_M; j++) {
			S[i][j] = 0;
			for (k = 0; k < _B_N; k++)
				S[i][j] += B[k][i] * B[k][j];
			S[j][i] = S[i][j];
		}
}

/* each column reads the next one: the chunks meet at their edges */
static void next_column(void)
{
	int j, k;

	for (j = 0; j < _B_M - 1; j++)
		for (k = 0; k < _B_N; k++)
			D[k][j] = D[k][j] * 0.5 + D[k][j + 1];
}

/* the same through a view of D that starts one column in */
static void shifted_view(void)
{
	DATA_TYPE(*v)[M] = (DATA_TYPE(*)[M]) & E[0][1];
	int j, k;

	for (j = 0; j < _B_M - 1; j++)
		for (k = 0; k < _B_N; k++)
			v[k][j] = v[k][j] * 0.25 + E[k][j];
}

/* a recurrence along the rows of each column: the columns are independent */
static void member_columns(void)
{
	int j, k;

	for (j = 0; j < _B_M; j++)
		for (k = 1; k < _B_N; k++)
			st.m[k][j] += st.m[k - 1][j] * 0.5;
}

/* columns of one union member written, the other member's read: rows of two lengths */
static void union_columns(void)
{
	int j, k;

	for (j = 0; j < _B_M; j++)
		for (k = 0; k < N / 2; k++)
			u.tall[k][j] = u.tall[k][j] + u.wide[k][j + M / 2] * 0.5;
}

/* a transpose on flat arrays: the rows of B become the columns of T */
static void flat_transpose(void)
{
	int i, j;

	for (i = 0; i < _B_N; i++)
		for (j = 0; j < _B_M; j++)
			T[j * N + i] = B[i][j] * 2;
}

/* flat columns that read the column before: in order */
static void flat_prev_column(void)
{
	int i, j;

	for (j = 1; j < _B_M; j++)
		for (i = 0; i < _B_N; i++)
			F[i * M + j] += F[M * i + j - 1] * 0.5;
}

/* an unsigned index that wraps: k * 42949673u * 100 is 4 * k, so the columns meet */
static void wrapping(void)
{
	int j, k;

	for (j = 0; j < 100; j++)
		for (k = 0; k < 150; k++)
			Wrap[k * 42949673u * 100 + j] = Wrap[k * 42949673u * 100 + j] * 0.5 + j;
}

int main(void)
{
	double s = 0;
	int i, j;

	init();
	trmm_cols(N, M, 1.5, A, B);
	symmetric();
	next_column();
	shifted_view();
	member_columns();
	union_columns();
	flat_transpose();
	flat_prev_column();
	wrapping();
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			s += (B[i][j] + D[i][j] * 2 + E[i][j] * 3 + st.m[i][j] + u.tall[i][j]) * (j % 3 + 1);
	for (i = 0; i < M; i++)
		for (j = 0; j < M; j++)
			s += S[i][j] * ((i + j) % 5 + 1);
	for (i = 0; i < N * M; i++)
		s += (T[i] + F[i] * 2) * (i % 7 + 1);
	for (i = 0; i < 1000; i++)
		s += Wrap[i] * (i % 17 + 1);
	printf("columns %.9e\n", s);
	return 0;
}
