/* predefs.c - branches on what the compiler predefines: the output is
 * built with -fopenmp, which defines _OPENMP, and gcc defines __INT_MAX__,
 * so #if must read those branches (frontend/pp.c takes the compiler's
 * predefined macros at build time).  Both branches compute the same
 * values; the _OPENMP one goes through a shared scratch buffer, which two
 * operators run side by side would race on.  A callee that holds #if is
 * never cloned (middle/decomp.c has_conditionals). */
#include <stdio.h>

#include "bench.h"

#define LEN (N * M)

static float scratch[LEN], A[LEN], B[LEN], C[LEN], D[LEN];

static void twice_plus_one(float *o, const float *in)
{
#ifdef _OPENMP
	for (int i = 0; i < LEN; i++)
		scratch[i] = in[i] * 2.0f;
	for (int i = 0; i < LEN; i++)
		o[i] = scratch[i] + 1.0f;
#else
	for (int i = 0; i < LEN; i++)
		o[i] = in[i] * 2.0f + 1.0f;
#endif
}

static void half_minus_three(float *o, const float *in)
{
#ifdef _OPENMP
	for (int i = 0; i < LEN; i++)
		scratch[i] = in[i] - 3.0f;
	for (int i = 0; i < LEN; i++)
		o[i] = scratch[i] * 0.5f;
#else
	for (int i = 0; i < LEN; i++)
		o[i] = (in[i] - 3.0f) * 0.5f;
#endif
}

/* four at a time where int is wide, as a vector path would be */
static void accumulate(float *o, const float *in)
{
#if __INT_MAX__ > 40000 && LEN % 4 == 0
	for (int i = 0; i < LEN; i += 4) {
		o[i] += in[i];
		o[i + 1] += in[i + 1];
		o[i + 2] += in[i + 2];
		o[i + 3] += in[i + 3];
	}
#else
	for (int i = 0; i < LEN; i++)
		o[i] += in[i];
#endif
}

int main(void)
{
	double s = 0;

	for (int i = 0; i < LEN; i++)
		A[i] = (float)(i % 37);
	twice_plus_one(B, A);
	half_minus_three(C, A);
	accumulate(D, B);
	accumulate(D, C);
	for (int i = 0; i < LEN; i++)
		s += D[i] * (i % 5 + 1);
	printf("predefs %.9e\n", s);
	return 0;
}
