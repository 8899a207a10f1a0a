/* liveout.c - a time loop whose sweeps reuse the counter i, which the code
 * after the nest reads: no slice may take its own i, so the sweeps stay as
 * written.  mtpar: sequential (the counter's last value is used). */
#include <stdio.h>

#include "sizes.h"

static DATA_TYPE A[N], B[N];

static int kernel_liveout(int tsteps)
{
	int t, i;

	for (t = 0; t < tsteps; t++) {
		for (i = 1; i < N - 1; i++)
			B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3;
		for (i = 1; i < N - 1; i++)
			A[i] = (B[i - 1] + B[i] + B[i + 1]) / 3;
	}
	return i;
}

int main(void)
{
	double s = 0;
	int i, last;

	for (i = 0; i < N; i++)
		A[i] = (DATA_TYPE)(i % 17) / 17;
	last = kernel_liveout(TSTEPS * 50);
	for (i = 0; i < N; i++)
		s += A[i] * (i % 5 + 1);
	printf("liveout %d %.9e\n", last, s);
	return 0;
}
