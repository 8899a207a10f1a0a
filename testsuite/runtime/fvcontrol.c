/*
 * fvcontrol.c - the runtime's power control (api/mtpar_rt.h) on its own:
 * each thread walks its core through the states of a small table, the
 * master puts every core back at FULL after the join, and the program's
 * result does not depend on any of it.  run-tests.sh builds it with
 * -fopenmp and checks MTPAR_FV_TRACE and the one notice on stderr.
 */
#include "mtpar_rt.h"

#include <stdio.h>

#define NP 4

int main(void)
{
	static const double freq[] = { 1, 0.5, 0.25, 0 };
	static const char *const names[] = { "FULL", "MID", "LOW", "OFF" };
	double sum[NP] = { 0 }, total = 0;
	int pe;

	mtpar_fv_setup(4, freq, names);
#pragma omp parallel num_threads(NP)
	{
		int me = mtpar_thread(), st, i;

		for (st = 1; st < 4; st++) {
			oscar_fvcontrol(me, st);
			for (i = 0; i < 1000; i++)
				sum[me] += (double)(i % 7) * st;
		}
	}
	for (pe = 0; pe < NP; pe++) {
		oscar_fvcontrol(pe, 0);
		total += sum[pe];
	}
	oscar_fvcontrol(0, 99); /* not a state: ignored */
	printf("checksum: %.1f\n", total);
	return 0;
}
