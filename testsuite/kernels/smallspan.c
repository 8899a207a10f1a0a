/* smallspan.c - a program whose parallel part is a small share of its
 * work: a long recurrence (each step needs the one before), then a short
 * loop over its result that could be split.  The split pays for its fork on
 * its own, but gains under 5% of the whole: the cost model, which counts
 * the fork and the waits, keeps it sequential (--cost-model=unlimited
 * does not). */
#include <stdio.h>

#include "sizes.h"

#define STEPS (400 * N)
#define SHORT (20 * N)

static float a[SHORT];
static double r;

static void kernel(void)
{
	int i;

	for (i = 0; i < STEPS; i++)
		r = r * 0.999 + (i % 7);
	for (i = 0; i < SHORT; i++)
		a[i] = (float)(r * (i % 3)) + 1;
}

int main(void)
{
	double s = 0;
	int i;

	kernel();
	for (i = 0; i < SHORT; i++)
		s += a[i];
	printf("smallspan %.9e %.9e\n", s, r);
	return 0;
}
