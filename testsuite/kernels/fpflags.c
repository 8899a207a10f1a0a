/* fpflags.c - a program that reads the floating-point exception flags
 * after a loop that overflows in its second half: each thread keeps flags
 * of its own, and a worker's never reach the program, so mtpar leaves it
 * sequential with a warning ("mtpar: sequential"; found by a helper's
 * sweep, session 34). */
#include <fenv.h>
#include <stdio.h>

#define N 8192

static float x[N], y[N];

int main(void)
{
	double h = 0;
	int overflow;

	for (int i = 0; i < N; i++)
		x[i] = i < N / 2 ? 1.5f : 1e30f;
	feclearexcept(FE_ALL_EXCEPT);
	for (int i = 0; i < N; i++)
		y[i] = x[i] * x[i] * 4.0f;
	overflow = fetestexcept(FE_OVERFLOW) != 0;
	for (int i = 0; i < N; i += 64)
		h += y[i] < 1e38f ? y[i] : 1.0;
	printf("overflow=%d %a\n", overflow, h);
	return 0;
}
