/* zeroed.c - callees that take zeroed scratch from calloc and rely on its
 * zeros: the callers' workspace for the one at a callee's top level is not
 * shared between two calls (the second would read the first's values), and
 * the stack buffer that stands for a nested one is zeroed each time its
 * block runs.  A malloc sized from a parameter is taken with its size. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

static DATA_TYPE In[N * M], Out[N * M];

/* writes only some of tmp: the others are read as calloc's zeros */
static void sparse_reverse(DATA_TYPE *out, const DATA_TYPE *x)
{
	DATA_TYPE *tmp = calloc(N * M, sizeof(DATA_TYPE));

	for (int i = 0; i < N * M; i++)
		if (x[i] > 20)
			tmp[i] = x[i] * 2;
	for (int i = 0; i < N * M; i++)
		out[i] = tmp[N * M - 1 - i] + 1;
	free(tmp);
}

/* its size from a parameter every call binds to one constant: the caller
 * takes the workspace with the size's value, not the callee's names */
static void reverse_n(DATA_TYPE *out, const DATA_TYPE *x, int n)
{
	DATA_TYPE *tmp = malloc(n * sizeof *tmp);

	for (int i = 0; i < n; i++)
		tmp[i] = x[i] * 2;
	for (int i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	free(tmp);
}

/* each row counts into a zeroed histogram of its own */
static void row_histograms(DATA_TYPE *out, const DATA_TYPE *x)
{
	for (int i = 0; i < N; i++) {
		int *h = calloc(16, sizeof(int));

		for (int j = 0; j < M; j++)
			if ((int)x[i * M + j] % 3)
				h[(int)x[i * M + j] % 16]++;
		for (int j = 0; j < M; j++)
			out[i * M + j] = (DATA_TYPE)h[j % 16];
		free(h);
	}
}

int main(void)
{
	double s = 0;

	for (int i = 0; i < N * M; i++)
		In[i] = (DATA_TYPE)(i % 29 + 1);
	sparse_reverse(Out, In);
	sparse_reverse(Out, Out);
	for (int i = 0; i < N * M; i++)
		s += Out[i] * (i % 3);
	reverse_n(In, Out, N * M);
	row_histograms(Out, In);
	for (int i = 0; i < N * M; i++)
		s += Out[i] * (i % 5);
	printf("%.6f\n", s);
	return 0;
}
