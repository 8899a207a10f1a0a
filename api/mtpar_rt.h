/*
 * mtpar_rt.h - the runtime of a program that mtpar parallelized: end flags
 * with a generation count for point-to-point synchronisation between cores
 * (OSCAR's static-schedule code), the check before forking, and the
 * MTPAR_JITTER test mode.  mtpar copies this text into every output file
 * that has a parallel function, so the output builds with gcc -fopenmp and
 * no other file; everything is static inline with an mtpar_ prefix, so that
 * several files of one program may each hold a copy.
 *
 * Builds as C89, C99, C11 and later: C11 atomics where the language has
 * them, GCC's __atomic builtins before that.  Only <omp.h> and (C11)
 * <stdatomic.h> are included: neither pulls in the C library's headers, so
 * feature-test macros that the file defines after this text still take
 * effect.  Without -fopenmp the program builds and runs sequentially.
 */
#ifndef MTPAR_RT_H
#define MTPAR_RT_H

#ifdef _OPENMP
#include <omp.h>
#endif

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
typedef atomic_uint mtpar_atomic_uint;
#define MTPAR_LOAD(p, order) atomic_load_explicit((p), memory_order_##order)
#define MTPAR_STORE(p, v, order) atomic_store_explicit((p), (v), memory_order_##order)
#elif defined(__GNUC__)
typedef unsigned mtpar_atomic_uint;
#define MTPAR_LOAD(p, order) __atomic_load_n((p), mtpar_order_##order)
#define MTPAR_STORE(p, v, order) __atomic_store_n((p), (v), mtpar_order_##order)
#define mtpar_order_relaxed __ATOMIC_RELAXED
#define mtpar_order_acquire __ATOMIC_ACQUIRE
#define mtpar_order_release __ATOMIC_RELEASE
#else
#error "mtpar_rt.h needs C11 atomics or GCC's __atomic builtins"
#endif

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
#define MTPAR_INLINE inline
#elif defined(__GNUC__)
#define MTPAR_INLINE __inline__
#else
#define MTPAR_INLINE
#endif

#if defined(__GNUC__)
#define MTPAR_ALIGN64 __attribute__((aligned(64)))
#define MTPAR_THREAD __thread
#else
#define MTPAR_ALIGN64 _Alignas(64)
#define MTPAR_THREAD _Thread_local
#endif

/* Declared here rather than through <stdlib.h> and <sched.h> (see above). */
extern char *getenv(const char *name);
extern int sched_yield(void);

/*
 * The end flag of one task, alone on its cache line: it holds the
 * generation count of the last run in which the task finished.  The count
 * grows by one each time the parallel part is entered, so flags never need
 * resetting; static flags are zero, and the first generation is 1.
 */
typedef struct mtpar_sync {
	MTPAR_ALIGN64 mtpar_atomic_uint gen;
} mtpar_sync_t;

/*
 * The team, through wrappers so that a build without -fopenmp still links:
 * it runs one thread, mtpar_can_fork says no, and the original code runs.
 */
#ifdef _OPENMP
static MTPAR_INLINE int mtpar_team_size(void) { return omp_get_num_threads(); }
static MTPAR_INLINE int mtpar_thread(void) { return omp_get_thread_num(); }
#else
static MTPAR_INLINE int mtpar_team_size(void) { return 1; }
static MTPAR_INLINE int mtpar_thread(void) { return 0; }
#endif

/* Busy-wait iterations before a waiting core starts to yield its CPU. */
#define MTPAR_SPINS 4000

static MTPAR_INLINE void mtpar_cpu_relax(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
	__builtin_ia32_pause();
#elif defined(__GNUC__) && (defined(__aarch64__) || defined(__arm__))
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

/*
 * MTPAR_JITTER: 1 while unread, 2 when off, else an odd seed.  Read by the
 * thread that forks (mtpar_can_fork) before any other thread runs; a late
 * reader would compute the same value, so the race is harmless anyway.
 */
static MTPAR_INLINE unsigned mtpar_jitter_seed(void)
{
	static mtpar_atomic_uint state = 1;
	unsigned s = MTPAR_LOAD(&state, relaxed);

	if (s == 1) {
		const char *v = getenv("MTPAR_JITTER");

		s = 2;
		if (v && v[0] && !(v[0] == '0' && v[1] == '\0')) {
			unsigned h = 2166136261u; /* FNV-1a of the value */

			for (; *v; v++)
				h = (h ^ (unsigned char)*v) * 16777619u;
			s = h | 1u;
		}
		MTPAR_STORE(&state, s, relaxed);
	}
	return s;
}

/*
 * Jitter mode: before each wait and post, stall for a random short time
 * (nothing, up to about a thousand pauses, up to about 60000, or a few
 * yields), drawn from a per-thread LCG seeded from the thread number and
 * the variable's value.  Shifts the cores against each other so that a
 * missing wait shows up as a wrong result.
 */
static MTPAR_INLINE void mtpar_jitter(void)
{
	static MTPAR_THREAD unsigned lcg;
	unsigned seed = mtpar_jitter_seed();
	unsigned r, n;

	if (seed == 2)
		return;
	if (lcg == 0)
		lcg = (seed ^ ((unsigned)mtpar_thread() + 1u) * 2654435761u) | 1u;
	lcg = lcg * 1664525u + 1013904223u;
	r = lcg >> 8;
	switch (r & 3u) {
	case 0:
		break;
	case 1:
		for (n = (r >> 2) & 1023u; n > 0; n--)
			mtpar_cpu_relax();
		break;
	case 2:
		for (n = (r >> 2) & 65535u; n > 0; n--)
			mtpar_cpu_relax();
		break;
	default:
		for (n = 1 + ((r >> 2) & 3u); n > 0; n--)
			sched_yield();
		break;
	}
}

/* Task finished in generation gen: everything it wrote becomes visible to a waiter. */
static MTPAR_INLINE void mtpar_post(mtpar_sync_t *flag, unsigned gen)
{
	mtpar_jitter();
	MTPAR_STORE(&flag->gen, gen, release);
}

/* Waits until the flag's task has finished in generation gen: spin, then yield. */
static MTPAR_INLINE void mtpar_wait(mtpar_sync_t *flag, unsigned gen)
{
	unsigned spins = 0;

	mtpar_jitter();
	while (MTPAR_LOAD(&flag->gen, acquire) != gen) {
		if (spins < MTPAR_SPINS) {
			spins++;
			mtpar_cpu_relax();
		} else {
			sched_yield();
		}
	}
}

/*
 * May this thread fork a team of exactly np threads?  Not from inside an
 * active parallel region (the flags are per function: two teams would
 * share them), and not where the OpenMP runtime may hand out a smaller team
 * (dynamic adjustment, a thread limit below np, no active levels): a core
 * that waits for a task no thread runs would hang.  The generated code also
 * checks the size of the team it got and runs the original, sequential
 * code when it is smaller.  OMP_NUM_THREADS does not matter: the
 * num_threads clause fixes the team size at mtpar's -np.
 */
static MTPAR_INLINE int mtpar_can_fork(int np)
{
	(void)mtpar_jitter_seed();
#ifdef _OPENMP
	return !omp_in_parallel() && !omp_get_dynamic() && omp_get_max_active_levels() > 0 &&
	       omp_get_thread_limit() >= np;
#else
	(void)np;
	return 0;
#endif
}

/*
 * OSCAR API power control, `#pragma oscar fvcontrol(pe, (FV_LOGIC, state))`:
 * a no-op until frequency/voltage control exists (issue 5).
 */
static MTPAR_INLINE void oscar_fvcontrol(int pe, int state)
{
	(void)pe;
	(void)state;
}

#endif /* MTPAR_RT_H */
