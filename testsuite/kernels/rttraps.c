/* rttraps.c - loops with sizes from the command line that a split at run
 * time once got wrong (a review of middle/rtloops.c): size_t sizes, whose
 * unsigned sum made the if clause always true; a signed counter against an
 * unsigned bound (compared unsigned: -1 < 1000u is false); counters reused
 * by a loop around the split one, which reads the value the split leaves. */
#include <stdio.h>
#include <stdlib.h>

static double G[1 << 21], x[1 << 16];

/* rows of m > 16 overlap the next one */
static void rows_of_16(size_t rows, size_t m)
{
	for (size_t i = 0; i < rows; i++)
		for (size_t j = 0; j < m; j++)
			G[i * 16 + j] = G[i * 16 + j] * 0.5 + (double)j;
}

void from(double *a, unsigned n, int lo)
{
	for (int i = lo; i < n; i++)
		a[i + 10] += 1.0;
}

int main(int argc, char **argv)
{
	size_t rows = argc > 1 ? (size_t)atol(argv[1]) : 70, m = argc > 2 ? (size_t)atol(argv[2]) : 20000;
	int n = argc > 3 ? atoi(argv[3]) : 100, k = argc > 4 ? atoi(argv[4]) : 80, lo = argc > 5 ? atoi(argv[5]) : -1;
	int i, j, t = 0;
	double s = 0;

	rows_of_16(rows, m);
	from(x, (unsigned)n, lo);
	for (j = 0; j < 3; j++) { /* the split loop's j ends at k: this loop runs once */
		t++;
		for (i = 0; i < n; i++)
			for (j = 0; j < k; j++)
				x[i * k + j] += 1;
	}
	for (i = 0; i < 5; i++) { /* i ends at n: once */
		t++;
		for (i = 0; i < n; i++)
			x[i] += 1;
	}
	for (i = 0; i < (1 << 21); i++)
		s += G[i] * (i % 7);
	for (i = 0; i < (1 << 16); i++)
		s += x[i] * (i % 5);
	printf("rttraps %d %.3f\n", t, s);
	return 0;
}
