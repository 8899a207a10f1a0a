/* main.c - harness (ours) for the USMP model in default_lib0.c and
 * default_lib1.c: fills the int8 input with a fixed pattern, runs RUNS
 * inferences (each on a slightly different input), prints a checksum of
 * the outputs and the mean time of one inference (time_s). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>

#include "tvmgen_default.h"

#ifndef RUNS
#define RUNS 20
#endif

static const char *last_error;

void TVMAPISetLastError(const char *msg)
{
	last_error = msg;
}

static int8_t input[32 * 32 * 16];
static float output[10];

int main(void)
{
	struct tvmgen_default_inputs in = { input };
	struct tvmgen_default_outputs out = { output };
	struct timespec t0, t1;
	double sum = 0, secs;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int r = 0; r < RUNS; r++) {
		for (int i = 0; i < (int)sizeof(input); i++)
			input[i] = (int8_t)(((i * 7919 + r * 131) % 251) - 125);
		if (tvmgen_default_run(&in, &out) != 0) {
			fprintf(stderr, "tvmgen_default_run failed: %s\n", last_error ? last_error : "?");
			return 1;
		}
		for (int k = 0; k < 10; k++)
			sum += output[k] * (k + 1) * (r + 1);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	printf("usmp checksum: %.9e\n", sum);
	printf("time_s: %.6f\n", secs / RUNS);
	return 0;
}
