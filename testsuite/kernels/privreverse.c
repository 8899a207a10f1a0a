/* privreverse.c - scratch arrays in loops that count down: a chunk may
 * work on its own copy, and the chunk that runs the loop's last iteration
 * (the lowest counter) leaves the copy the loop leaves; a step of two that
 * stops above zero; and a trap, a row that carries the previous
 * iteration's values (the one above).  Each kernel prints what the loop
 * leaves in its scratch array too. */
#include <stdio.h>

#include "sizes.h"

#define ROWS 90
#define COLS 48

static DATA_TYPE in[ROWS][COLS], out[ROWS][COLS];
static DATA_TYPE row[COLS]; /* private: written whole, then read */
static DATA_TYPE carry[COLS]; /* trap: read before it is written again */

static double sum_all(DATA_TYPE a[ROWS][COLS])
{
	double s = 0;
	int i, j;

	for (i = 0; i < ROWS; i++)
		for (j = 0; j < COLS; j++)
			s += a[i][j] * ((i + 3 * j) % 7 + 1);
	return s;
}

static double sum_row(const DATA_TYPE *r)
{
	double s = 0;
	int j;

	for (j = 0; j < COLS; j++)
		s += r[j] * (j % 5 + 1);
	return s;
}

/* the lowest i runs last: its row is what the loop leaves */
static void down_global(void)
{
	int i, j, k;

	for (i = ROWS - 1; i >= 0; i--) {
		for (j = 0; j < COLS; j++) {
			row[j] = 0;
			for (k = 0; k < COLS; k++)
				row[j] += in[i][k] * (DATA_TYPE)((j + 2 * k) % 5);
		}
		for (j = 0; j < COLS; j++)
			out[i][j] = row[j] - row[COLS - 1 - j];
	}
}

/* i = 89, 87, ..., 1: the last iteration is i = 1 */
static double down_by_two(void)
{
	DATA_TYPE t[COLS];
	int i, j;

	for (i = ROWS - 1; i > 0; i -= 2) {
		for (j = 0; j < COLS; j++)
			t[j] = in[i][j] * 3 + i;
		for (j = 0; j < COLS; j++)
			out[i][j] = t[j] * t[(j + 5) % COLS];
	}
	return sum_row(t);
}

/* trap: carry holds row i + 1 when row i reads it */
static void down_carry(void)
{
	int i, j;

	for (i = ROWS - 1; i >= 0; i--) {
		for (j = 0; j < COLS; j++)
			out[i][j] = carry[j] + in[i][j];
		for (j = 0; j < COLS; j++)
			carry[j] = in[i][j] * 2 - out[i][j];
	}
}

int main(void)
{
	int i, j;

	for (i = 0; i < ROWS; i++)
		for (j = 0; j < COLS; j++)
			in[i][j] = (DATA_TYPE)((i * 13 + j * 7) % 31) / 8;
	down_global();
	printf("down_global %.17g %.17g\n", sum_all(out), sum_row(row));
	printf("down_by_two %.17g", down_by_two());
	printf(" %.17g\n", sum_all(out));
	down_carry();
	printf("down_carry %.17g %.17g\n", sum_all(out), sum_row(carry));
	return 0;
}
