/* calls.c - a small function called millions of times from loops (issue
 * 12): a recurrence through it, which must stay sequential (a fork per call
 * would cost more than the call), and a batch of independent calls, whose
 * loop one level up is the parallel one. */
#include <stdio.h>

#include "sizes.h"

#define LEN 16
#ifdef LARGE_DATASET
# define STEPS 300000
# define BATCH 250000
#else
# define STEPS 20000
# define BATCH 4000
#endif

static float w[LEN][LEN], state[LEN], next[LEN];
static float in[BATCH][LEN], out[BATCH][LEN];

/* One step of a tiny recurrent cell: out = (W in + in) / 2. */
static void cell(const float *x, float *y)
{
	int i, j;

	for (i = 0; i < LEN; i++) {
		float s = 0;

		for (j = 0; j < LEN; j++)
			s += w[i][j] * x[j];
		y[i] = (s + x[i]) * 0.5f;
	}
}

int main(void)
{
	double sum = 0;
	int t, b, i;

	for (i = 0; i < LEN; i++) {
		state[i] = (float)(i % 5) / 5;
		for (t = 0; t < LEN; t++)
			w[i][t] = (float)((i * 7 + t * 3) % 11) / 110 - 0.045f;
	}
	for (b = 0; b < BATCH; b++)
		for (i = 0; i < LEN; i++)
			in[b][i] = (float)((b + i) % 17) / 17;
	for (t = 0; t < STEPS; t++) { /* each step needs the one before */
		cell(state, next);
		for (i = 0; i < LEN; i++)
			state[i] = next[i];
	}
	for (b = 0; b < BATCH; b++) /* independent calls */
		cell(in[b], out[b]);
	for (b = 0; b < BATCH; b++)
		for (i = 0; i < LEN; i++)
			sum += out[b][i] * (i + 1);
	for (i = 0; i < LEN; i++)
		sum += state[i];
	printf("calls %.9e\n", sum);
	return 0;
}
