/* parencasts.c - parentheses around a variable before a sign, `*` or `&`:
 * tree-sitter-c reads `(a[N - 1 - i]) + 0.5 * b[i]` as the cast
 * `(a[N - 1 - i])(+0.5)` times b[i], and the read of a was lost, so the
 * loop that reads a ran beside the one that writes it (a helper's random
 * loop nests, session 34).  mtpar hides such parentheses from the parser
 * where the name is a variable, a function, an enumerator or an integer
 * or function-like macro, or has brackets after it, which no cast's type
 * has (`(fabs(x)) - y * 2`; frontend/parens.c); a real cast to a typedef
 * or a type macro stays a cast. */
#include <math.h>
#include <stdio.h>
#include "sizes.h"

#define LEN (N * M)
#define SHIFT 3

typedef double real;
enum { BIAS = 2 };

static double a[LEN], b[LEN], c[LEN], d[LEN];
static int k[LEN];

static int twice(int v)
{
	return 2 * v;
}

static void fill(void)
{
	for (int i = 0; i < LEN; i++) {
		b[i] = (i % 7) * 0.25;
		k[i] = i % 11;
	}
}

static void produce(void)
{
	for (int i = 0; i < LEN; i++)
		a[i] = b[i] * b[i] + 1.0;
}

/* reads a only through the parentheses */
static void consume(void)
{
	for (int i = 0; i < LEN; i++)
		c[i] = (a[LEN - 1 - i]) + 0.5 * b[i];
}

static void mix(void)
{
	int m = 5;

	for (int i = 0; i < LEN; i++) {
		d[i] = (m) - k[i] % 3 + (BIAS) - k[i] * 2 + (twice(k[i])) + 2 * (c[i]) * 3;
		d[i] += (SHIFT) - 1 + (m) * b[i] + (real) - b[i] + (DATA_TYPE) + c[i];
		d[i] += (fabs(c[(i + LEN / 2) % LEN])) - b[i] * 2;
	}
}

int main(void)
{
	double s = 0;

	fill();
	produce();
	consume();
	mix();
	for (int i = 0; i < LEN; i++)
		s += (c[i] + d[i]) * (i % 5 + 1);
	printf("%.17g\n", s);
	return 0;
}
