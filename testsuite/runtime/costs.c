/*
 * costs.c - what the runtime of a parallelized program costs, in
 * nanoseconds: the fork and join of a region as mtpar generates it (the
 * check before the fork, the team size check, the closing barrier) against
 * libgomp's bare `#pragma omp parallel`; one point-to-point wait (a task's
 * end flag posted on one core, seen on another: half a ping-pong round
 * trip) against `#pragma omp barrier`; and a wait whose flag is already
 * set; and what the dynamic scheduler of a region with a branch inside
 * (mtpar_dyn_*) costs per task, for independent tasks that the cores take
 * side by side and for a chain whose every task waits for the one before.
 * `make bench` builds it with -fopenmp and puts its table into
 * doc/benchmarks.md; plan.c's FORK_COST and WAIT_COST are these figures
 * in the cost model's units.  Usage: costs [NP [DIV]]: NP threads (2),
 * and DIV times fewer repetitions (1) for a quick run.
 */
#define _POSIX_C_SOURCE 199309L
#include "mtpar_rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { ROUNDS = 9 };

static int REPS = 2000, PINGS = 20000; /* divided by the second argument */

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of ROUNDS runs of f, each giving nanoseconds per operation. */
static double median(double (*f)(int), int np)
{
	double t[ROUNDS];
	int i;

	for (i = 0; i < ROUNDS; i++)
		t[i] = f(np);
	qsort(t, ROUNDS, sizeof(t[0]), cmp_double);
	return t[ROUNDS / 2];
}

static volatile int sink[64 * 64];

/* libgomp alone: an empty region, fork to join. */
static double omp_fork(int np)
{
	double t0 = now_ns();
	int r;

	for (r = 0; r < REPS; r++) {
#pragma omp parallel num_threads(np)
		sink[64 * mtpar_thread()]++;
	}
	return (now_ns() - t0) / REPS;
}

/* A region as mtpar writes it: the fork check, the generation, the team check, a post each. */
static double mtpar_fork(int np)
{
	static mtpar_sync_t flags[64];
	static unsigned gen;
	double t0 = now_ns();
	int r;

	for (r = 0; r < REPS; r++) {
		if (mtpar_can_fork(np)) {
			unsigned g = ++gen;

#pragma omp parallel num_threads(np)
			if (mtpar_team_size() == np)
				mtpar_post(&flags[mtpar_thread()], g);
		}
	}
	return (now_ns() - t0) / REPS;
}

/* libgomp's barrier inside one region: nanoseconds per barrier. */
static double omp_barrier(int np)
{
	double t0 = now_ns(), t1;

#pragma omp parallel num_threads(np)
	{
		int r; /* each thread's own count: every thread meets every barrier */

		for (r = 0; r < REPS; r++) {
#pragma omp barrier
		}
	}
	t1 = now_ns();
	return (t1 - t0) / REPS;
}

/*
 * mtpar's point-to-point wait: cores 0 and 1 pass a token back and forth
 * through two end flags; one wait is half a round trip.  The other cores of
 * the team stay idle.
 */
static double mtpar_pingpong(int np)
{
	static mtpar_sync_t ping, pong;
	static unsigned gen;
	unsigned base = gen;
	double t0 = now_ns(), t1;

#pragma omp parallel num_threads(np)
	{
		int me = mtpar_thread(), r;

		for (r = 1; r <= PINGS; r++) {
			if (me == 0) {
				mtpar_post(&ping, base + (unsigned)r);
				mtpar_wait(&pong, base + (unsigned)r);
			} else if (me == 1) {
				mtpar_wait(&ping, base + (unsigned)r);
				mtpar_post(&pong, base + (unsigned)r);
			}
		}
	}
	t1 = now_ns();
	gen = base + PINGS;
	return (t1 - t0) / PINGS / 2;
}

/* A wait whose flag is already set: the cost of a wait that does not wait. */
static double mtpar_wait_set(int np)
{
	static mtpar_sync_t flag;
	double t0;
	int r;

	(void)np;
	mtpar_post(&flag, 7);
	t0 = now_ns();
	for (r = 0; r < PINGS; r++)
		mtpar_wait(&flag, 7);
	return (now_ns() - t0) / PINGS;
}

enum { DYN_TASKS = 2000 };

/*
 * The dynamic scheduler: DYN_TASKS empty tasks, independent (the cores take
 * them side by side from the queue) or a chain (each waits for the one
 * before, taken by whichever core asks first); nanoseconds per task, the
 * fork included (under 1 ns per task at this count).
 */
static double dyn_tasks(int np, int chain)
{
	static int npred[DYN_TASKS], succ_at[DYN_TASKS + 1], succ[DYN_TASKS], ctl[DYN_TASKS];
	static int left[DYN_TASKS], ready[DYN_TASKS];
	static unsigned char ctl_dir[DYN_TASKS], ran[DYN_TASKS], dir[DYN_TASKS];
	static double prio[DYN_TASKS];
	mtpar_dyn_t q;
	double t0;
	int t, r, rounds = REPS / 200 > 0 ? REPS / 200 : 1;

	for (t = 0; t < DYN_TASKS; t++) {
		npred[t] = chain && t > 0;
		succ_at[t] = chain ? t : 0;
		succ[t] = t + 1;
		ctl[t] = -1;
		prio[t] = DYN_TASKS - t;
	}
	succ_at[DYN_TASKS] = chain ? DYN_TASKS - 1 : 0;
	q = (mtpar_dyn_t){ .ntasks = DYN_TASKS, .npred = npred, .succ_at = succ_at, .succ = succ,
	                   .ctl = ctl, .ctl_dir = ctl_dir, .prio = prio, .left = left,
	                   .ready = ready, .ran = ran, .dir = dir };
	t0 = now_ns();
	for (r = 0; r < rounds; r++) {
		mtpar_dyn_start(&q);
#pragma omp parallel num_threads(np)
		{
			int k;

			while ((k = mtpar_dyn_next(&q)) >= 0) {
				if (mtpar_dyn_runs(&q, k))
					sink[mtpar_thread() * 64]++;
				mtpar_dyn_done(&q, k);
			}
		}
		mtpar_dyn_end(&q);
	}
	return (now_ns() - t0) / rounds / DYN_TASKS;
}

static double dyn_independent(int np) { return dyn_tasks(np, 0); }
static double dyn_chain(int np) { return dyn_tasks(np, 1); }

int main(int argc, char **argv)
{
	int np = argc > 1 ? atoi(argv[1]) : 2, div = argc > 2 ? atoi(argv[2]) : 1;

	if (div > 1) {
		REPS /= div;
		PINGS /= div;
	}

	if (np < 2 || !mtpar_can_fork(np)) {
		fprintf(stderr, "costs: needs -fopenmp and NP >= 2 threads\n");
		return 1;
	}
	omp_fork(np); /* the team is made once: not part of what is measured */
	printf("| operation, %d threads | ns (median of %d) |\n|---|---:|\n", np, ROUNDS);
	printf("| fork and join, libgomp `omp parallel` | %.0f |\n", median(omp_fork, np));
	printf("| fork and join, mtpar's region (check, team size, one post each) | %.0f |\n",
	       median(mtpar_fork, np));
	printf("| barrier, libgomp `omp barrier` | %.0f |\n", median(omp_barrier, np));
	printf("| point-to-point wait, mtpar end flag (half a ping-pong) | %.0f |\n",
	       median(mtpar_pingpong, np));
	printf("| wait on a flag already set | %.1f |\n", median(mtpar_wait_set, np));
	printf("| dynamic schedule, per task: independent tasks taken side by side | %.0f |\n",
	       median(dyn_independent, np));
	printf("| dynamic schedule, per task: a chain, each task waiting for the one before | %.0f |\n",
	       median(dyn_chain, np));
	return 0;
}
