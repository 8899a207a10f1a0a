/* bench.c - what a benchmark suite's support file gives its kernels, built
 * with each of them and never given to mtpar (as PolyBench's polybench.c):
 * zeroed memory, and a timer that prints nothing. */
#include <stdio.h>
#include <stdlib.h>

void *bench_alloc(unsigned long n, int size);
void bench_timer(int stop);

void *bench_alloc(unsigned long n, int size)
{
	void *p = calloc(n, (size_t)size);

	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}

void bench_timer(int stop)
{
	(void)stop;
}
