/* moe.c - a router picks one of two experts (a data-dependent branch between
 * two sequences of layer calls), with a layer beside the branch that does
 * not depend on it: the span holds the branch, its tasks are scheduled
 * dynamically (middle/branches.c): the arm not taken is skipped, the side
 * layer and the chosen expert's chunks share the cores (issue 15). */
#include <stdio.h>

#include "bench.h"

#define EXPERT_REPS 64
#ifndef ROUTER_BIAS
#define ROUTER_BIAS 0 /* -DROUTER_BIAS=-1e9: the other expert (the tests take both) */
#endif
#define ROWS 64 /* weight rows: they stay in the caches, the layers compute */

static DATA_TYPE x[N], h1[N], ya[N], yb[N], h2[N], side[N], w[ROWS][N];

static void init(void)
{
	int i, k;

	for (i = 0; i < N; i++)
		x[i] = (DATA_TYPE)(i % 17) / 16;
	for (i = 0; i < ROWS; i++)
		for (k = 0; k < N; k++)
			w[i][k] = (DATA_TYPE)((i * 3 + k * 7) % 23) / 64 - SCALAR_VAL(0.17);
}

/* out = act(W' in), W' the rows of w shifted by salt, EXPERT_REPS times over */
static void layer(const DATA_TYPE *in, DATA_TYPE *out, int salt)
{
	int i, r, k;

	for (i = 0; i < N; i++) {
		DATA_TYPE s = 0;

		for (r = 0; r < EXPERT_REPS; r++)
			for (k = 0; k < N; k++)
				s += w[(i + salt + r) % ROWS][k] * in[k];
		out[i] = (s > 0 ? s / (1 + s) : SCALAR_VAL(0.01) * s) + salt * SCALAR_VAL(0.001);
	}
}

int main(void)
{
	double sum = 0;
	int i;

	init();
	layer(x, h1, 1);
	if (h1[3] > h1[5] + ROUTER_BIAS) { /* the router */
		layer(h1, ya, 2);
		layer(ya, h2, 3);
	} else {
		layer(h1, yb, 4);
		layer(yb, h2, 5);
	}
	layer(x, side, 6);
	for (i = 0; i < N; i++)
		sum += h2[i] * (i % 3 + 1) + side[i];
	printf("moe %s %.9e\n", h1[3] > h1[5] + ROUTER_BIAS ? "a" : "b", sum);
	return 0;
}
