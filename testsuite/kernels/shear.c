/* shear.c - a loop split at run time whose counter's multiple moves with
 * the loop around it: `S[(t - 60) * j + ...]` over j meets itself in other
 * iterations unless t - 60 >= 1 and the rows of k fit between.  A review
 * found the condition t - 60 >= 1 dropped (it fails midway through t, and
 * the failure was cleared by the next test) and the loop split for every
 * t.  mtpar: sequential, since the run-time test may only name the
 * counters of the loops around where it holds midway through them. */
#include <stdio.h>

#include "bench.h"

static long S[600000];
static int len = 2 * N; /* not a constant: the split is made at run time */

static void sheared(int n)
{
	int t, j, k;

	for (t = 0; t < 100; t++)
		for (j = 0; j < n; j++)
			for (k = 0; k < 300; k++)
				S[(t - 60) * j + 1000 * k + 150000] = S[(t - 60) * j + 1000 * k + 150000] * 3 + j;
}

int main(void)
{
	long s = 0;
	int i;

	sheared(len);
	for (i = 0; i < 600000; i++)
		s = s * 31 + S[i];
	printf("shear %ld\n", s);
	return 0;
}
