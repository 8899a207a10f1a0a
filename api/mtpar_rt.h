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
#define MTPAR_XCHG(p, v, order) atomic_exchange_explicit((p), (v), memory_order_##order)
#elif defined(__GNUC__)
typedef unsigned mtpar_atomic_uint;
#define MTPAR_LOAD(p, order) __atomic_load_n((p), mtpar_order_##order)
#define MTPAR_STORE(p, v, order) __atomic_store_n((p), (v), mtpar_order_##order)
#define MTPAR_XCHG(p, v, order) __atomic_exchange_n((p), (v), mtpar_order_##order)
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

/*
 * Before a loop of a slice whose iterations mtpar proved independent in
 * memory (middle/ivdep.c): inside the outlined region the compiler no
 * longer sees which arrays the pointers name, and would not vectorize it.
 */
#if defined(__clang__)
#define MTPAR_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__) && (__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ >= 9))
#define MTPAR_IVDEP _Pragma("GCC ivdep")
#else
#define MTPAR_IVDEP
#endif

#if defined(__GNUC__)
#define MTPAR_ALIGN64 __attribute__((aligned(64)))
#define MTPAR_THREAD __thread
#else
#define MTPAR_ALIGN64 _Alignas(64)
#define MTPAR_THREAD _Thread_local
#endif

#ifdef __cplusplus
/*
 * C++ (g++ builds a .c file as C++, as TVM's export_library does): the
 * library's own declarations, whose linkage and exception specifications
 * C++ holds a redeclaration to; g++ defines _GNU_SOURCE itself, so no
 * feature-test macro comes too late.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#if defined(__linux__) && defined(__GNUC__)
#include <sys/mman.h>
#endif
#else
/* Declared here rather than through <stdlib.h> and <sched.h> (see above). */
extern char *getenv(const char *name);
extern int sched_yield(void);
#endif

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

/* Is an environment variable's value exactly "0" (the variables' "off")? */
static MTPAR_INLINE int mtpar_env_zero(const char *v)
{
	return v && v[0] == '0' && v[1] == '\0';
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
		if (v && v[0] && !mtpar_env_zero(v)) {
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

/*
 * A region's static flags serve one run at a time.  A thread that finds
 * the region running already (two inference sessions on two pthreads)
 * runs the original code instead of forking a second team onto them.
 */
static MTPAR_INLINE int mtpar_enter(mtpar_atomic_uint *busy)
{
	return MTPAR_XCHG(busy, 1u, acquire) == 0u;
}

static MTPAR_INLINE void mtpar_leave(mtpar_atomic_uint *busy)
{
	MTPAR_STORE(busy, 0u, release);
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
 * Maps the pages of [p, p + n) before the cores start, in one call and
 * without changing their contents, so that the cores do not take a page
 * fault at the first write to each.  Those faults are serialised in the
 * kernel: 10 us each on the 2-core VM of our benchmarks, slower still when
 * two cores fault at once, and the 8 MB that an inference of TVM's
 * googlenet allocates afresh would cost 20 ms.  MADV_POPULATE_WRITE
 * (23, Linux 5.14) maps them in about a sixth of that; an older kernel
 * refuses it and the pages fault as before.  MTPAR_PREFAULT=0 turns it off.
 */
#if defined(__linux__) && defined(__GNUC__)
#ifndef __cplusplus
extern int madvise(void *addr, __SIZE_TYPE__ length, int advice);
#endif

static MTPAR_INLINE void mtpar_prefault(void *p, unsigned long long n)
{
	static mtpar_atomic_uint state; /* 0 unread, 1 on, 2 off */
	unsigned s = MTPAR_LOAD(&state, relaxed);
	__SIZE_TYPE__ first = (__SIZE_TYPE__)p & ~(__SIZE_TYPE__)4095;
	__SIZE_TYPE__ last = ((__SIZE_TYPE__)p + (__SIZE_TYPE__)n + 4095) & ~(__SIZE_TYPE__)4095;

	if (s == 0) {
		s = mtpar_env_zero(getenv("MTPAR_PREFAULT")) ? 2 : 1;
		MTPAR_STORE(&state, s, relaxed);
	}
	if (s == 1 && p && n)
		(void)madvise((void *)first, last - first, 23 /* MADV_POPULATE_WRITE */);
}
#else
static MTPAR_INLINE void mtpar_prefault(void *p, unsigned long long n)
{
	(void)p;
	(void)n;
}
#endif

/*
 * The floating-point control modes (rounding direction, flush to zero,
 * denormals are zero) belong to each thread, and OpenMP's threads keep
 * those they started with.  The forking thread's modes are read before
 * each region and set in every thread of it, so that a chunk rounds as the
 * original code would after fesetround() or a flush-to-zero set at model
 * load.  (The exception flags that a chunk raises are not carried back.)
 */
#if defined(__GNUC__) && (defined(__x86_64__) || (defined(__i386__) && defined(__SSE__)))
typedef struct mtpar_fp {
	unsigned csr;          /* MXCSR, its 6 flag bits left out */
	unsigned short cw;     /* the x87 control word */
} mtpar_fp_t;

static MTPAR_INLINE mtpar_fp_t mtpar_fp_save(void)
{
	mtpar_fp_t m;

	m.csr = __builtin_ia32_stmxcsr() & ~0x3fu;
	__asm__ __volatile__("fnstcw %0" : "=m"(m.cw));
	return m;
}

static MTPAR_INLINE void mtpar_fp_load(mtpar_fp_t m)
{
	unsigned csr = __builtin_ia32_stmxcsr();
	unsigned short cw;

	__asm__ __volatile__("fnstcw %0" : "=m"(cw));
	if ((csr & ~0x3fu) != m.csr)
		__builtin_ia32_ldmxcsr(m.csr | (csr & 0x3fu));
	if (cw != m.cw)
		__asm__ __volatile__("fldcw %0" : : "m"(m.cw));
}
#elif defined(__GNUC__) && defined(__aarch64__)
typedef struct mtpar_fp {
	unsigned long long fpcr;
} mtpar_fp_t;

static MTPAR_INLINE mtpar_fp_t mtpar_fp_save(void)
{
	mtpar_fp_t m;

	__asm__ __volatile__("mrs %0, fpcr" : "=r"(m.fpcr));
	return m;
}

static MTPAR_INLINE void mtpar_fp_load(mtpar_fp_t m)
{
	if (mtpar_fp_save().fpcr != m.fpcr)
		__asm__ __volatile__("msr fpcr, %0" : : "r"(m.fpcr));
}
#else
typedef struct mtpar_fp {
	int none;
} mtpar_fp_t;

static MTPAR_INLINE mtpar_fp_t mtpar_fp_save(void)
{
	mtpar_fp_t m = { 0 };

	return m;
}

static MTPAR_INLINE void mtpar_fp_load(mtpar_fp_t m)
{
	(void)m;
}
#endif

/*
 * Do the bytes [alo, ahi) from a and [blo, bhi) from b lie apart?  A plan
 * that took two pointers loaded from memory (TVM's DLTensor data) for
 * different objects forks only when the bytes its tasks reach through them
 * do not meet; else the original code runs.
 */
#ifdef __INTPTR_TYPE__
typedef __INTPTR_TYPE__ mtpar_intptr;
#else
typedef long mtpar_intptr;
#endif
static MTPAR_INLINE int mtpar_apart(const void *a, long long alo, long long ahi, const void *b,
                                    long long blo, long long bhi)
{
	mtpar_intptr x = (mtpar_intptr)a, y = (mtpar_intptr)b;

	return x + ahi <= y + blo || y + bhi <= x + alo;
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
 * A dynamic schedule (mtpar's middle/branches.c), for a region whose tasks
 * run under a branch decided inside it.  A task is ready when every task it
 * depends on has finished or been skipped; the ready tasks wait in one
 * queue, the one with the longest path to the region's end taken first; a
 * core takes a task, runs it unless the branch it runs under went the
 * other way, and releases its successors.  The queue is guarded by one
 * lock, whose release and acquire also order the tasks' data.  The tables
 * are the generated code's, one set per region (not reentrant, like the
 * flags).
 */
typedef struct mtpar_dyn {
#ifdef _OPENMP
	omp_lock_t lock;
#endif
	int ntasks, done, nready;
	const int *npred;          /* per task: the tasks it waits for */
	const int *succ_at, *succ; /* task t's successors: succ[succ_at[t] .. succ_at[t + 1]) */
	const int *ctl;            /* per task: the branch test it runs under, or -1 */
	const unsigned char *ctl_dir; /* the direction of that test it needs */
	const double *prio;        /* per task: the longest path from it to the end */
	int *left;                 /* per task: predecessors not yet finished or skipped */
	int *ready;                /* ready tasks, by priority, the highest last */
	unsigned char *ran;        /* per task: 1 ran, 0 skipped */
	unsigned char *dir;        /* per test: the direction it took */
} mtpar_dyn_t;

static MTPAR_INLINE void mtpar_dyn_lock(mtpar_dyn_t *q)
{
#ifdef _OPENMP
	omp_set_lock(&q->lock);
#else
	(void)q;
#endif
}

static MTPAR_INLINE void mtpar_dyn_unlock(mtpar_dyn_t *q)
{
#ifdef _OPENMP
	omp_unset_lock(&q->lock);
#else
	(void)q;
#endif
}

/* Under the lock: t joins the ready tasks, kept sorted by priority. */
static MTPAR_INLINE void mtpar_dyn_push(mtpar_dyn_t *q, int t)
{
	int k = q->nready++;

	while (k > 0 && q->prio[q->ready[k - 1]] > q->prio[t]) {
		q->ready[k] = q->ready[k - 1];
		k--;
	}
	q->ready[k] = t;
}

/* Before the fork, on one thread: every task waits for all its predecessors. */
static MTPAR_INLINE void mtpar_dyn_start(mtpar_dyn_t *q)
{
	int t;

#ifdef _OPENMP
	omp_init_lock(&q->lock);
#endif
	q->done = 0;
	q->nready = 0;
	for (t = q->ntasks; t-- > 0;) {
		q->left[t] = q->npred[t];
		if (!q->npred[t])
			mtpar_dyn_push(q, t);
	}
}

static MTPAR_INLINE void mtpar_dyn_end(mtpar_dyn_t *q)
{
#ifdef _OPENMP
	omp_destroy_lock(&q->lock);
#else
	(void)q;
#endif
}

/* The next task for this core, or -1 when every task has finished or been skipped. */
static MTPAR_INLINE int mtpar_dyn_next(mtpar_dyn_t *q)
{
	unsigned spins = 0;

	for (;;) {
		int t = -1, all;

		mtpar_jitter();
		mtpar_dyn_lock(q);
		if (q->nready)
			t = q->ready[--q->nready];
		all = q->done == q->ntasks;
		mtpar_dyn_unlock(q);
		if (t >= 0 || all)
			return t;
		if (spins < MTPAR_SPINS) {
			spins++;
			mtpar_cpu_relax();
		} else {
			sched_yield();
		}
	}
}

/*
 * Does task t run?  Its test finished before t became ready, so its
 * direction is known: t runs when the test ran and went t's way.
 */
static MTPAR_INLINE int mtpar_dyn_runs(mtpar_dyn_t *q, int t)
{
	int c = q->ctl[t];

	q->ran[t] = (unsigned char)(c < 0 || (q->ran[c] && q->dir[c] == q->ctl_dir[t]));
	return q->ran[t];
}

/* t finished or was skipped: its successors wait for one task fewer. */
static MTPAR_INLINE void mtpar_dyn_done(mtpar_dyn_t *q, int t)
{
	int k;

	mtpar_jitter();
	mtpar_dyn_lock(q);
	for (k = q->succ_at[t]; k < q->succ_at[t + 1]; k++)
		if (--q->left[q->succ[k]] == 0)
			mtpar_dyn_push(q, q->succ[k]);
	q->done++;
	mtpar_dyn_unlock(q);
}

/*
 * Power control, OSCAR API `#pragma oscar fvcontrol(pe, (FV_LOGIC, state))`:
 * oscar_fvcontrol(pe, state) puts core pe into frequency/voltage state
 * `state` of the table that the generated code hands mtpar_fv_setup() once
 * before its parallel part (without it: FULL, MID, LOW, OFF at 1, 1/2, 1/4
 * and 0 of the nominal frequency).  On GNU/Linux, when the CPU that pe's
 * thread runs on has the cpufreq `userspace` governor and a writable
 * scaling_setspeed, that CPU gets the state's fraction of cpuinfo_max_freq
 * (OFF, fraction 0: cpuinfo_min_freq), and the speeds found are put back at
 * exit; otherwise the first call prints one notice on stderr and the
 * program runs at the current speed.  A call from another thread than pe's
 * own (the master after the join) acts on the CPU pe was last seen on.
 * MTPAR_FV_TRACE=FILE appends "NANOSECONDS PE STATE" per call, the time
 * counted from the first call.  Nothing here touches the program's data:
 * results stay bit-identical.  CPUs that share a frequency domain get the
 * speed written last.
 */
#define MTPAR_FV_MAXSTATES 32
#define MTPAR_FV_MAXPE 1024
#define MTPAR_FV_MAXCPU 1024

struct mtpar_fv {
	int nstates;
	double freq[MTPAR_FV_MAXSTATES];          /* fraction of the nominal frequency */
	const char *name[MTPAR_FV_MAXSTATES];
	mtpar_atomic_uint started;                /* mtpar_fv_start has run */
	mtpar_atomic_uint control;                /* 1 until cpufreq is found unusable */
	int restoring;                            /* mtpar_fv_restore is registered */
	double t0;                                /* time of the first call, seconds */
	struct _IO_FILE *trace;                   /* MTPAR_FV_TRACE, or 0 */
	int cpu_of[MTPAR_FV_MAXPE];               /* 1 + the CPU pe ran on; 0 unknown */
	signed char cpu_ok[MTPAR_FV_MAXCPU];      /* 1 usable, -1 not, 0 not probed */
	unsigned long min_khz[MTPAR_FV_MAXCPU], max_khz[MTPAR_FV_MAXCPU], orig_khz[MTPAR_FV_MAXCPU];
};

static MTPAR_INLINE struct mtpar_fv *mtpar_fv_get(void)
{
	static struct mtpar_fv fv;

	return &fv;
}

/* Called once before the parallel part, outside it: the states' frequencies and names. */
static MTPAR_INLINE void mtpar_fv_setup(int nstates, const double *freq, const char *const *names)
{
	struct mtpar_fv *fv = mtpar_fv_get();
	int i;

	if (nstates > MTPAR_FV_MAXSTATES)
		nstates = MTPAR_FV_MAXSTATES;
	for (i = 0; i < nstates; i++) {
		fv->freq[i] = freq[i];
		fv->name[i] = names[i];
	}
	fv->nstates = nstates;
}

#if defined(__gnu_linux__) && defined(__GNUC__)
/*
 * glibc's stdio through its own declarations: FILE is struct _IO_FILE, and
 * including <stdio.h> here would fix the feature-test macros too early.
 */
#ifndef __cplusplus
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wbuiltin-requires-header"
#endif
struct _IO_FILE;
extern struct _IO_FILE *fopen(const char *path, const char *mode);
extern int fclose(struct _IO_FILE *f);
extern int fputs(const char *s, struct _IO_FILE *f);
extern char *fgets(char *s, int n, struct _IO_FILE *f);
extern struct _IO_FILE *stderr;
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
extern int sched_getcpu(void);
extern int atexit(void (*fn)(void));
#endif

/* Appends the decimal digits of v to buf at *n. */
static MTPAR_INLINE void mtpar_fv_put(char *buf, int *n, unsigned long v, int width)
{
	char d[24];
	int k = 0;

	do {
		d[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0 || k < width);
	while (k > 0)
		buf[(*n)++] = d[--k];
	buf[*n] = '\0';
}

static MTPAR_INLINE void mtpar_fv_cat(char *buf, int *n, const char *s)
{
	while (*s)
		buf[(*n)++] = *s++;
	buf[*n] = '\0';
}

/* /sys/devices/system/cpu/cpuN/cpufreq/LEAF */
static MTPAR_INLINE void mtpar_fv_path(char *buf, int cpu, const char *leaf)
{
	int n = 0;

	mtpar_fv_cat(buf, &n, "/sys/devices/system/cpu/cpu");
	mtpar_fv_put(buf, &n, (unsigned long)cpu, 1);
	mtpar_fv_cat(buf, &n, "/cpufreq/");
	mtpar_fv_cat(buf, &n, leaf);
}

/* The first line of a cpufreq file into buf (size 64); 0 when it cannot be read. */
static MTPAR_INLINE int mtpar_fv_read(int cpu, const char *leaf, char *buf)
{
	char path[128];
	struct _IO_FILE *f;
	int ok;

	mtpar_fv_path(path, cpu, leaf);
	if (!(f = fopen(path, "r")))
		return 0;
	ok = fgets(buf, 64, f) != 0;
	fclose(f);
	return ok;
}

static MTPAR_INLINE unsigned long mtpar_fv_number(const char *s)
{
	unsigned long v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + (unsigned long)(*s++ - '0');
	return v;
}

static MTPAR_INLINE int mtpar_fv_write(int cpu, unsigned long khz)
{
	char path[128], num[24];
	struct _IO_FILE *f;
	int n = 0, ok;

	mtpar_fv_path(path, cpu, "scaling_setspeed");
	mtpar_fv_put(num, &n, khz, 1);
	if (!(f = fopen(path, "w")))
		return 0;
	ok = fputs(num, f) >= 0;
	return fclose(f) == 0 && ok;
}

static MTPAR_INLINE void mtpar_fv_notice(const char *why, int cpu)
{
	char msg[256];
	int n = 0;

	mtpar_fv_cat(msg, &n, "mtpar: frequency control unavailable (cpu ");
	mtpar_fv_put(msg, &n, (unsigned long)cpu, 1);
	mtpar_fv_cat(msg, &n, ": ");
	mtpar_fv_cat(msg, &n, why);
	mtpar_fv_cat(msg, &n, "); running at the current speed\n");
	fputs(msg, stderr);
	MTPAR_STORE(&mtpar_fv_get()->control, 0, relaxed);
}

/* At exit: the speeds the CPUs had before the first change. */
static MTPAR_INLINE void mtpar_fv_restore(void)
{
	struct mtpar_fv *fv = mtpar_fv_get();
	int cpu;

	for (cpu = 0; cpu < MTPAR_FV_MAXCPU; cpu++)
		if (fv->cpu_ok[cpu] == 1 && fv->orig_khz[cpu] > 0)
			mtpar_fv_write(cpu, fv->orig_khz[cpu]);
}

/* Is cpufreq usable on cpu: userspace governor, known limits, writable setspeed? */
static MTPAR_INLINE int mtpar_fv_probe(int cpu)
{
	struct mtpar_fv *fv = mtpar_fv_get();
	char buf[64];
	int i;

	if (!mtpar_fv_read(cpu, "scaling_governor", buf))
		return mtpar_fv_notice("no cpufreq", cpu), 0;
	for (i = 0; "userspace"[i] && buf[i] == "userspace"[i]; i++)
		;
	if (i != 9 || (buf[9] != '\n' && buf[9] != '\0'))
		return mtpar_fv_notice("governor is not 'userspace'", cpu), 0;
	if (!mtpar_fv_read(cpu, "cpuinfo_max_freq", buf) || !(fv->max_khz[cpu] = mtpar_fv_number(buf)) ||
	    !mtpar_fv_read(cpu, "cpuinfo_min_freq", buf))
		return mtpar_fv_notice("no frequency limits", cpu), 0;
	fv->min_khz[cpu] = mtpar_fv_number(buf);
	fv->orig_khz[cpu] = mtpar_fv_read(cpu, "scaling_cur_freq", buf) ? mtpar_fv_number(buf) : 0;
	if (!mtpar_fv_write(cpu, fv->orig_khz[cpu] ? fv->orig_khz[cpu] : fv->max_khz[cpu]))
		return mtpar_fv_notice("scaling_setspeed is not writable", cpu), 0;
	return 1;
}

/* The CPU a call for pe acts on, -1 if none is known. */
static MTPAR_INLINE int mtpar_fv_cpu(int pe)
{
	struct mtpar_fv *fv = mtpar_fv_get();
	int own = mtpar_team_size() > 1 ? mtpar_thread() == pe : pe == 0;

	if (own) {
		int cpu = sched_getcpu();

		if (cpu >= 0 && cpu < MTPAR_FV_MAXCPU && pe >= 0 && pe < MTPAR_FV_MAXPE)
			fv->cpu_of[pe] = cpu + 1;
		return cpu < MTPAR_FV_MAXCPU ? cpu : -1;
	}
	return pe >= 0 && pe < MTPAR_FV_MAXPE ? fv->cpu_of[pe] - 1 : -1;
}

/* Sets cpu to the state's fraction of its maximum (OFF: its minimum). */
static MTPAR_INLINE void mtpar_fv_apply(int cpu, double freq)
{
	struct mtpar_fv *fv = mtpar_fv_get();
	unsigned long khz;
	int ok = 1;

#ifdef _OPENMP
#pragma omp critical(mtpar_fv)
#endif
	{
		if (MTPAR_LOAD(&fv->control, relaxed) && fv->cpu_ok[cpu] == 0) {
			if (!fv->restoring)
				fv->restoring = atexit(mtpar_fv_restore) == 0;
			fv->cpu_ok[cpu] = (signed char)(mtpar_fv_probe(cpu) ? 1 : -1);
		}
		ok = MTPAR_LOAD(&fv->control, relaxed) && fv->cpu_ok[cpu] == 1;
	}
	if (!ok)
		return;
	khz = freq > 0 ? (unsigned long)(freq * (double)fv->max_khz[cpu] + 0.5) : fv->min_khz[cpu];
	if (khz < fv->min_khz[cpu])
		khz = fv->min_khz[cpu];
	if (khz > fv->max_khz[cpu])
		khz = fv->max_khz[cpu];
	mtpar_fv_write(cpu, khz);
}

/* MTPAR_FV_TRACE: one line per call, written by one fputs (stdio locks the stream). */
static MTPAR_INLINE void mtpar_fv_trace(int pe, const char *name)
{
	struct mtpar_fv *fv = mtpar_fv_get();
	double ns = 0;
	char line[128];
	int n = 0;

#ifdef _OPENMP
	ns = (omp_get_wtime() - fv->t0) * 1e9;
#endif
	if (ns >= 1e9)
		mtpar_fv_put(line, &n, (unsigned long)(ns / 1e9), 1);
	mtpar_fv_put(line, &n, (unsigned long)(ns - (double)(unsigned long)(ns / 1e9) * 1e9),
	             ns >= 1e9 ? 9 : 1);
	mtpar_fv_cat(line, &n, " ");
	mtpar_fv_put(line, &n, (unsigned long)pe, 1);
	mtpar_fv_cat(line, &n, " ");
	for (; *name && n < (int)sizeof(line) - 2; name++)
		line[n++] = *name;
	line[n++] = '\n';
	line[n] = '\0';
	fputs(line, fv->trace);
}

/* The first call opens the trace and starts its clock. */
static MTPAR_INLINE void mtpar_fv_start(void)
{
	static const double mtpar_fv_default_freq[] = { 1, 0.5, 0.25, 0 };
	static const char *const mtpar_fv_default_name[] = { "FULL", "MID", "LOW", "OFF" };
	struct mtpar_fv *fv = mtpar_fv_get();

	if (MTPAR_LOAD(&fv->started, acquire))
		return;
#ifdef _OPENMP
#pragma omp critical(mtpar_fv)
#endif
	if (!MTPAR_LOAD(&fv->started, relaxed)) {
		const char *path = getenv("MTPAR_FV_TRACE");

#ifdef _OPENMP
		fv->t0 = omp_get_wtime();
#endif
		if (fv->nstates == 0) /* no mtpar_fv_setup: the default table */
			mtpar_fv_setup(4, mtpar_fv_default_freq, mtpar_fv_default_name);
		MTPAR_STORE(&fv->control, 1, relaxed);
		if (path && path[0] && !(fv->trace = fopen(path, "a")))
			fputs("mtpar: cannot open the MTPAR_FV_TRACE file\n", stderr);
		MTPAR_STORE(&fv->started, 1, release);
	}
}

static MTPAR_INLINE void oscar_fvcontrol(int pe, int state)
{
	struct mtpar_fv *fv = mtpar_fv_get();
	int cpu;

	mtpar_fv_start();
	if (state < 0 || state >= fv->nstates)
		return;
	if (fv->trace)
		mtpar_fv_trace(pe, fv->name[state]);
	cpu = mtpar_fv_cpu(pe);
	if (cpu >= 0 && MTPAR_LOAD(&fv->control, relaxed))
		mtpar_fv_apply(cpu, fv->freq[state]);
}
#else
/* Elsewhere: no frequency control, no trace. */
static MTPAR_INLINE void oscar_fvcontrol(int pe, int state)
{
	(void)pe;
	(void)state;
}
#endif

/*
 * --profile (the output defines MTPAR_PROFILE): each task's time, each
 * core's time in waits and each region's time, in nanoseconds, appended
 * at exit to the file that MTPAR_PROFILE names (mtpar.prof without it),
 * one line each:
 *   region FUNC runs N ns T predicted MAKESPAN sequential SEQ cores C
 *   task FUNC CORE NAME runs N ns T predicted COST
 *   wait FUNC CORE ns T
 * predicted figures are in the cost model's units; `mtpar --costs FILE`
 * schedules with the measured times.  A task runs on one thread per run
 * and a core's waits are its own thread's: the counters need no atomics.
 */
#ifdef MTPAR_PROFILE
struct mtpar_prof_task {
	const char *name;       /* as --dump=sched names it */
	double predicted;       /* cost model units */
	double seconds;         /* all runs */
	unsigned long runs;
};

struct mtpar_prof {
	const char *func;
	int ntasks, ncores;
	struct mtpar_prof_task *task;
	int *core;              /* per task */
	double *wait;           /* per core, seconds */
	double predicted, sequential; /* makespan and sequential time, cost model units */
	double seconds;         /* the regions, fork to join */
	unsigned long runs;
	struct mtpar_prof *next;
	int listed;
};

static MTPAR_INLINE double mtpar_prof_now(void)
{
#ifdef _OPENMP
	return omp_get_wtime();
#else
	return 0;
#endif
}

static MTPAR_INLINE struct mtpar_prof **mtpar_prof_head(void)
{
	static struct mtpar_prof *head;

	return &head;
}

#if defined(__gnu_linux__) && defined(__GNUC__)
/* Appends s to buf at *n, up to 511 bytes in all. */
static MTPAR_INLINE void mtpar_prof_str(char *buf, int *n, const char *s)
{
	while (*s && *n < 511)
		buf[(*n)++] = *s++;
}

static MTPAR_INLINE void mtpar_prof_num(char *buf, int *n, double v)
{
	char d[32];
	int k = 0;
	unsigned long long u = v > 0 ? (unsigned long long)(v + 0.5) : 0;

	do {
		d[k++] = (char)('0' + u % 10);
		u /= 10;
	} while (u && k < 31);
	while (k > 0 && *n < 511)
		buf[(*n)++] = d[--k];
}

/* Appends " word number" to buf at *n. */
static MTPAR_INLINE void mtpar_prof_field(char *buf, int *n, const char *word, double v)
{
	mtpar_prof_str(buf, n, " ");
	mtpar_prof_str(buf, n, word);
	mtpar_prof_str(buf, n, " ");
	mtpar_prof_num(buf, n, v);
}

/* Starts a line: "what func" and, for a core's line, " core". */
static MTPAR_INLINE void mtpar_prof_line_start(char *buf, int *n, const char *what, const char *func,
                                            int core)
{
	*n = 0;
	mtpar_prof_str(buf, n, what);
	mtpar_prof_str(buf, n, " ");
	mtpar_prof_str(buf, n, func);
	if (core >= 0) {
		mtpar_prof_str(buf, n, " ");
		mtpar_prof_num(buf, n, (double)core);
	}
}

static MTPAR_INLINE void mtpar_prof_end(struct _IO_FILE *f, char *buf, int n)
{
	buf[n++] = '\n';
	buf[n] = '\0';
	fputs(buf, f);
}

static MTPAR_INLINE void mtpar_prof_write(void)
{
	const char *path = getenv("MTPAR_PROFILE");
	struct _IO_FILE *f = fopen(path && path[0] ? path : "mtpar.prof", "a");
	struct mtpar_prof *p;
	char buf[520];
	int t, c, n;

	if (!f)
		return;
	for (p = *mtpar_prof_head(); p; p = p->next) {
		mtpar_prof_line_start(buf, &n, "region", p->func, -1);
		mtpar_prof_field(buf, &n, "runs", (double)p->runs);
		mtpar_prof_field(buf, &n, "ns", p->seconds * 1e9);
		mtpar_prof_field(buf, &n, "predicted", p->predicted);
		mtpar_prof_field(buf, &n, "sequential", p->sequential);
		mtpar_prof_field(buf, &n, "cores", (double)p->ncores);
		mtpar_prof_end(f, buf, n);
		for (t = 0; t < p->ntasks; t++) {
			mtpar_prof_line_start(buf, &n, "task", p->func, p->core[t]);
			mtpar_prof_str(buf, &n, " ");
			mtpar_prof_str(buf, &n, p->task[t].name);
			mtpar_prof_field(buf, &n, "runs", (double)p->task[t].runs);
			mtpar_prof_field(buf, &n, "ns", p->task[t].seconds * 1e9);
			mtpar_prof_field(buf, &n, "predicted", p->task[t].predicted);
			mtpar_prof_end(f, buf, n);
		}
		for (c = 0; c < p->ncores; c++) {
			mtpar_prof_line_start(buf, &n, "wait", p->func, c);
			mtpar_prof_field(buf, &n, "ns", p->wait[c] * 1e9);
			mtpar_prof_end(f, buf, n);
		}
	}
	fclose(f);
}
#endif

/* The master, before the fork: the region's start time; lists p once. */
static MTPAR_INLINE double mtpar_prof_enter(struct mtpar_prof *p)
{
	static int registered;

	if (!p->listed) {
		p->listed = 1;
		p->next = *mtpar_prof_head();
		*mtpar_prof_head() = p;
#if defined(__gnu_linux__) && defined(__GNUC__)
		if (!registered)
			registered = atexit(mtpar_prof_write) == 0;
#else
		(void)registered;
#endif
	}
	return mtpar_prof_now();
}

/* The master, after the join. */
static MTPAR_INLINE void mtpar_prof_leave(struct mtpar_prof *p, double t0)
{
	p->seconds += mtpar_prof_now() - t0;
	p->runs++;
}

static MTPAR_INLINE void mtpar_prof_task_done(struct mtpar_prof_task *t, double t0)
{
	t->seconds += mtpar_prof_now() - t0;
	t->runs++;
}

static MTPAR_INLINE void mtpar_prof_wait(mtpar_sync_t *flag, unsigned gen, double *waited)
{
	double t0 = mtpar_prof_now();

	mtpar_wait(flag, gen);
	*waited += mtpar_prof_now() - t0;
}
#endif /* MTPAR_PROFILE */

#endif /* MTPAR_RT_H */
