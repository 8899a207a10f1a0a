/* threadlocal.c - thread-local objects (__thread): every thread reaches
 * its own copy, so code that names one runs on the thread that runs the
 * original (core 0, in order), never as another core's task or chunk: an
 * operator fills a per-thread scratch buffer and a status, others read
 * them, one in a loop whose size the run gives (middle/summary.c
 * note_thread_local, middle/rtloops.c). */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define LEN (N * M)

static __thread DATA_TYPE scratch[LEN];
static __thread int status;
static DATA_TYPE other[LEN], out[LEN];

static void fill(void)
{
	for (int i = 0; i < LEN; i++)
		scratch[i] = (DATA_TYPE)(i % 29) / 8;
	status = 7;
}

static void independent(DATA_TYPE *x)
{
	for (int i = 0; i < LEN; i++)
		x[i] = (DATA_TYPE)(i % 13) * SCALAR_VAL(0.25);
}

static void use(DATA_TYPE *y)
{
	for (int i = 0; i < LEN; i++)
		y[i] = scratch[i] * 2 + other[i];
}

/* n from the command line: a loop split at run time, were it not for scratch */
static void use_n(DATA_TYPE *y, int n)
{
	for (int i = 0; i < n; i++)
		y[i] += scratch[i];
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : LEN;
	double s = 0;

	fill();
	independent(other);
	use(out);
	use_n(out, n < LEN ? n : LEN);
	for (int i = 0; i < LEN; i++)
		scratch[i] += out[i];
	for (int i = 0; i < LEN; i++)
		s += scratch[i] * (i % 7 + 1);
	printf("threadlocal %d %.9e\n", status, s);
	return 0;
}
