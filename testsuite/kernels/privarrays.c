/* privarrays.c - scratch arrays that a loop's iterations share by name:
 * those that every iteration writes wholly before it reads them may be
 * copied per chunk (a global, a 2-D global, a local, a pointer parameter),
 * and traps that look alike but carry values from one iteration to the
 * next, write a different set per iteration, or reach the array by another
 * name (a pointer, or one array passed for two parameters).  Each kernel prints what the loop leaves in its scratch array too. */
#include <stdio.h>

#include "sizes.h"

#define ROWS 96
#define COLS 64

static DATA_TYPE in[ROWS][COLS], out[ROWS][COLS];
static DATA_TYPE row[COLS];       /* private: written whole, then read */
static DATA_TYPE pair[2][COLS];   /* private, two rows */
static DATA_TYPE acc[COLS];       /* trap: read before any write (a running sum) */
static DATA_TYPE part[COLS];      /* trap: the last element is never written */
static DATA_TYPE *alias = row;    /* trap in alias_read: another name of row */
static DATA_TYPE seen;

static double sum_all(DATA_TYPE a[ROWS][COLS])
{
	double s = 0;
	int i, j;

	for (i = 0; i < ROWS; i++)
		for (j = 0; j < COLS; j++)
			s += a[i][j] * ((i + 2 * j) % 5 + 1);
	return s;
}

static double sum_row(const DATA_TYPE *r, int n)
{
	double s = 0;
	int j;

	for (j = 0; j < n; j++)
		s += r[j] * (j % 3 + 1);
	return s;
}

/* row: the doitgen shape; the chunk with i = ROWS - 1 leaves row as the loop does */
static void global_row(void)
{
	int i, j, k;

	for (i = 0; i < ROWS; i++) {
		for (j = 0; j < COLS; j++) {
			row[j] = 0;
			for (k = 0; k < COLS; k++)
				row[j] += in[i][k] * (DATA_TYPE)((j + k) % 7);
		}
		for (j = 0; j < COLS; j++)
			out[i][j] = row[j] + row[(j + 1) % COLS];
	}
}

static void global_pair(void)
{
	int i, j;

	for (i = 0; i < ROWS; i++) {
		for (j = 0; j < COLS; j++) {
			pair[0][j] = in[i][j] * 2;
			pair[1][j] = in[i][COLS - 1 - j] - 1;
		}
		for (j = 0; j < COLS; j++)
			out[i][j] = pair[0][j] * pair[1][(j + 3) % COLS];
	}
}

/* a pointer parameter bound to the caller's array */
static void param_scratch(DATA_TYPE *tmp, int n)
{
	int i, j;

	for (i = 0; i < ROWS; i++) {
		for (j = 0; j < n; j++)
			tmp[j] = in[i][j] * in[i][n - 1 - j];
		for (j = 1; j < n; j++)
			out[i][j] = tmp[j] - tmp[j - 1];
	}
}

static double local_scratch(void)
{
	DATA_TYPE t[COLS];
	int i, j;

	for (i = 0; i < ROWS; i++) {
		for (j = 0; j < COLS; j++)
			t[j] = in[i][j] + i;
		for (j = 0; j < COLS; j++)
			out[i][j] = t[j] * t[COLS - 1 - j];
	}
	return sum_row(t, COLS);
}

/* trap: acc carries a running sum from one row to the next */
static void running(void)
{
	int i, j;

	for (i = 0; i < ROWS; i++)
		for (j = 0; j < COLS; j++) {
			acc[j] += in[i][j];
			out[i][j] = acc[j];
		}
}

/* trap: part[COLS - 1] is read but never written in the loop */
static void partial(void)
{
	int i, j;

	for (i = 0; i < ROWS; i++) {
		for (j = 0; j < COLS - 1; j++)
			part[j] = in[i][j];
		for (j = 0; j < COLS; j++)
			out[i][j] = part[j] + part[COLS - 1];
		part[COLS - 1] = out[i][0];
	}
}

/* trap: each row writes a different set (j < i % COLS), read whole afterwards by main */
static void growing(void)
{
	int i, j;

	for (i = 0; i < ROWS; i++) {
		for (j = 0; j < i % COLS; j++)
			pair[0][j] = in[i][j];
		for (j = 0; j < i % COLS; j++)
			out[i][j] = pair[0][j] * 3;
	}
}

/* trap: row written by name, read through alias */
static void alias_read(void)
{
	int i, j;

	for (i = 0; i < ROWS; i++) {
		for (j = 0; j < COLS; j++)
			row[j] = in[i][j] * 5;
		for (j = 0; j < COLS; j++)
			out[i][j] = alias[j] + 1;
	}
}

/* trap: a conditional write */
static void conditional(void)
{
	int i, j;

	for (i = 0; i < ROWS; i++) {
		for (j = 0; j < COLS; j++)
			if (in[i][j] > 0.5)
				row[j] = in[i][j];
		for (j = 0; j < COLS; j++)
			out[i][j] = row[j];
	}
	seen = row[7];
}

/* trap: the caller passes one array as both parameters: tmp is written, other read */
static void twice(DATA_TYPE *tmp, const DATA_TYPE *other)
{
	int i, j;

	for (i = 0; i < ROWS; i++) {
		for (j = 0; j < COLS; j++)
			tmp[j] = in[i][j] + other[(j + 1) % COLS];
		for (j = 0; j < COLS; j++)
			out[i][j] = tmp[j] * 2;
	}
}

int main(void)
{
	DATA_TYPE scratch[COLS];
	int i, j;

	for (i = 0; i < ROWS; i++)
		for (j = 0; j < COLS; j++)
			in[i][j] = (DATA_TYPE)((i * 31 + j * 17) % 101) / 101;
	global_row();
	printf("row %.9e %.9e\n", sum_all(out), sum_row(row, COLS));
	global_pair();
	printf("pair %.9e %.9e\n", sum_all(out), sum_row(pair[0], COLS) + sum_row(pair[1], COLS));
	param_scratch(scratch, COLS);
	printf("param %.9e %.9e\n", sum_all(out), sum_row(scratch, COLS));
	printf("local %.9e", local_scratch());
	printf(" %.9e\n", sum_all(out));
	running();
	printf("running %.9e %.9e\n", sum_all(out), sum_row(acc, COLS));
	partial();
	printf("partial %.9e %.9e\n", sum_all(out), sum_row(part, COLS));
	growing();
	printf("growing %.9e %.9e\n", sum_all(out), sum_row(pair[0], COLS));
	alias_read();
	printf("alias %.9e %.9e\n", sum_all(out), sum_row(row, COLS));
	conditional();
	printf("conditional %.9e %.9e %.9e\n", sum_all(out), sum_row(row, COLS), seen);
	twice(row, row);
	printf("twice %.9e %.9e\n", sum_all(out), sum_row(row, COLS));
	return 0;
}
