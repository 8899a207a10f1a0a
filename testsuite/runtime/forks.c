/*
 * forks.c - counts a program's parallel regions: linked with
 * -Wl,--wrap=GOMP_parallel,--wrap=GOMP_parallel_sections, it sees every
 * `#pragma omp parallel` (sections too) that GCC's libgomp runs and prints "mtpar forks N" on stderr at exit.  The tests use
 * it to check that a region around a time loop forks once, not once per step.
 */
#include <stdio.h>
#include <stdlib.h>

void __real_GOMP_parallel(void (*fn)(void *), void *data, unsigned nthreads, unsigned flags);
void __wrap_GOMP_parallel(void (*fn)(void *), void *data, unsigned nthreads, unsigned flags);
void __real_GOMP_parallel_sections(void (*fn)(void *), void *data, unsigned nthreads,
                                   unsigned count, unsigned flags);
void __wrap_GOMP_parallel_sections(void (*fn)(void *), void *data, unsigned nthreads,
                                   unsigned count, unsigned flags);

static unsigned long forks;

static void print_forks(void)
{
	fprintf(stderr, "mtpar forks %lu\n", forks);
}

static void count_fork(void)
{
	if (forks++ == 0)
		atexit(print_forks);
}

void __wrap_GOMP_parallel(void (*fn)(void *), void *data, unsigned nthreads, unsigned flags)
{
	count_fork();
	__real_GOMP_parallel(fn, data, nthreads, flags);
}

void __wrap_GOMP_parallel_sections(void (*fn)(void *), void *data, unsigned nthreads,
                                   unsigned count, unsigned flags)
{
	count_fork();
	__real_GOMP_parallel_sections(fn, data, nthreads, count, flags);
}
