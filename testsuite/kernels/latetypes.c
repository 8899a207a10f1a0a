/* latetypes.c - mtpar: sequential, where a clone's header could not be
 * copied: f and g come after main and spell their parameters with a
 * typedef and a macro that main does not see yet (the clones' prototypes
 * go above main), and h's header is cut by #if.  The output's check
 * refuses the plan, and the program runs as it was. */
#include <stdio.h>

#define N 100000
#define USE_LONG 0

static double a[N], b[N];

void f(double *x, int n);
void g(double *y, const double *x, int n);

#if USE_LONG
static void h(double *x, long n)
#else
static void h(double *x, int n)
#endif
{
	for (int i = 0; i < n; i++)
		x[i] = x[i] * x[i];
}

int main(void)
{
	double s = 0;

	f(a, N);
	g(b, a, N);
	h(b, N);
	for (int i = 0; i < N; i++)
		s += b[i] / 1e6;
	printf("latetypes %.17g\n", s);
	return 0;
}

typedef int idx_t;
#define REAL double

void f(REAL *x, idx_t n)
{
	for (idx_t i = 0; i < n; i++)
		x[i] = i * 0.5;
}

void g(double *y, const REAL *x, int n)
{
	for (int i = 0; i < n; i++)
		y[i] = x[i] + 1;
}
