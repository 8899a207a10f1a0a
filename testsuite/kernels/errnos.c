/* errnos.c - a program that reads errno after a loop of math calls: exp
 * overflows in the loop's first half (ERANGE), log takes a negative in
 * the second (EDOM), and errno is the thread's, so chunks on other cores
 * would set their own and the program would read its core's.  The functions that may set
 * errno keep their order; fabs and floor, which never set it, and the
 * loops without a math call are split as usual (found by a helper's sweep
 * of generator-style programs, session 34: m2cgen's RBF-kernel SVM). */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#define N 8192

static double x[N], w[N], y[N], z[N];

static void fill(void)
{
	for (int i = 0; i < N; i++) {
		x[i] = i < N / 2 ? 1000.0 + i % 5 : (i % 17) * 0.5;
		w[i] = i < N / 2 ? 1.0 + i % 3 : -1.0;
	}
}

static void grow(void)
{
	for (int i = 0; i < N; i++)
		y[i] = exp(x[i]) + log(w[i]);
}

static void level(void)
{
	for (int i = 0; i < N; i++)
		z[i] = floor(fabs(x[i] - 3.25)) * 0.5;
}

int main(void)
{
	double h = 0;
	int e;

	fill();
	level();
	grow(); /* errno is 0 at the program's start */
	e = errno;
	for (int i = 0; i < N; i += 64)
		h += (isinf(y[i]) || isnan(y[i]) ? 1.0 : y[i]) + z[i];
	printf("errno=%d %a\n", e, h);
	return 0;
}
