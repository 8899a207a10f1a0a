/* layouts.c - records whose layout the compiler, not C's default rules,
 * decides: a member with _Alignas, a packed struct.  The analysis must not
 * guess their offsets: a gather into one (u.q[i][perm[j]].d, within the
 * row) and a loop over the union's tail through another member meet, and
 * keep their order (a review found them run at once when mtpar laid the
 * struct out as 16 bytes where GCC has 64). */
#include <stdio.h>

#include "bench.h"

#define ROWS (N * 4)

struct aligned_cell {
	char tag;
	_Alignas(32) double d; /* GCC: at 32, sizeof 64 */
};

struct packed_cell {
	char tag;
	double d; /* GCC: at 1, sizeof 9 */
} __attribute__((packed));

static union {
	struct aligned_cell q[ROWS][4];
	double flat[ROWS * 32];
} u;
static union {
	struct packed_cell p[ROWS][4];
	char bytes[ROWS * 36];
} v;
static int perm[4];

static void fill(void)
{
	int i, j, t;

	for (i = 0; i < ROWS; i++)
		for (j = 0; j < 4; j++) {
			double x = i + j;

			for (t = 0; t < 20; t++)
				x = x * 0.999 + 0.5;
			u.q[i][perm[j]].d = x;
			v.p[i][j].d = x * 0.5; /* a known index: wrong offsets alone misplace it */
		}
}

static void clear_tails(void)
{
	int k;

	for (k = ROWS * 8; k < ROWS * 32; k++)
		u.flat[k] = -1.0;
	for (k = ROWS * 9; k < ROWS * 36; k++)
		v.bytes[k] = 7;
}

int main(void)
{
	double s = 0;
	int i, j;

	for (j = 0; j < 4; j++)
		perm[j] = (j + 1) % 4;
	fill();
	clear_tails();
	for (i = 0; i < ROWS; i++)
		for (j = 0; j < 4; j++)
			s += (u.q[i][j].d + v.p[i][j].d) * (j + 1);
	for (i = 0; i < ROWS * 36; i++)
		s += v.bytes[i] * 0.001;
	printf("layouts %.9e\n", s);
	return 0;
}
