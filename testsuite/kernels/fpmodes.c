/* fpmodes.c - the rounding mode is each thread's own: the program sets it
 * after a first parallel region has started OpenMP's threads, and the
 * chunks of the next region must round as the original code does (the
 * runtime's mtpar_fp_save and mtpar_fp_load, at every fork).  prepare is
 * called through a pointer, so that main's plan does not take its loops. */
#include <fenv.h>
#include <math.h>
#include <stdio.h>

#include "bench.h"

#define LEN (N * M)

static float w[LEN], b[LEN], x[LEN], y[LEN];
static long q[LEN];

static void weights(float *v) { for (int i = 0; i < LEN; i++) v[i] = 1.0f / (float)(i + 3); }
static void biases(float *v) { for (int i = 0; i < LEN; i++) v[i] = 1.0f / (float)(i + 7); }
static void scale(const float *u, float *v) { for (int i = 0; i < LEN; i++) v[i] = u[i] * 3.0f + 0.1f; }
static void quantize(const float *u, long *v) { for (int i = 0; i < LEN; i++) v[i] = lrintf(u[i] * 1000.5f); }

void prepare(void)
{
	weights(w);
	biases(b);
}

void infer(void)
{
	scale(w, x);
	scale(b, y);
	quantize(x, q);
}

int main(void)
{
	void (*first)(void) = prepare;
	double s = 0;
	long t = 0;

	first();
	fesetround(FE_UPWARD);
	infer();
	for (int i = 0; i < LEN; i++) {
		s += x[i] + y[i];
		t += q[i];
	}
	fesetround(FE_TONEAREST);
	printf("fpmodes %.17g %ld\n", s, t);
	return 0;
}
