/*
 * sched.c - middle stage: static list scheduling of a task graph onto N
 * cores.  CP/MISF (Kasahara and Narita, 1984: longest path to exit first,
 * most immediate successors first), and two variants that charge data
 * transfer between cores, CP/DT/MISF and ETF/CP (after Hwang et al., 1989).
 * sched_graph runs them all and keeps the shortest schedule.
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"

/* ---- task graphs ---- */

uint32_t sched_add_task(TaskGraph *g, const char *name, double cost, int pinned_core)
{
	SchedTask t;

	if (!(cost >= 0))
		die("sched_add_task: bad cost %g for %s", cost, name ? name : "a task");
	memset(&t, 0, sizeof(t));
	t.cost = cost;
	t.name = name;
	t.pinned_core = pinned_core < 0 ? -1 : pinned_core;
	array_push(&g->tasks, t);
	return g->tasks.len - 1;
}

void sched_set_chunk(TaskGraph *g, uint32_t t, int k, int n)
{
	if (t < g->tasks.len && n >= 2 && k >= 0 && k < n) {
		g->tasks.items[t].chunk = k;
		g->tasks.items[t].nchunks = n;
	}
}

void sched_add_edge(TaskGraph *g, uint32_t from, uint32_t to, double bytes)
{
	SchedTask *a;

	if (from >= to || to >= g->tasks.len)
		die("sched_add_edge: edge %u -> %u breaks the topological order", from, to);
	if (!(bytes >= 0))
		die("sched_add_edge: bad byte count %g", bytes);
	a = &g->tasks.items[from];
	for (uint32_t i = 0; i < a->succ.len; i++) {
		if (a->succ.items[i] != to)
			continue;
		if (bytes > a->succ_bytes.items[i])
			a->succ_bytes.items[i] = bytes;
		return;
	}
	array_push(&a->succ, to);
	array_push(&a->succ_bytes, bytes);
	array_push(&g->tasks.items[to].pred, from);
}

void sched_free_graph(TaskGraph *g)
{
	for (uint32_t i = 0; i < g->tasks.len; i++) {
		SchedTask *t = &g->tasks.items[i];

		array_free(&t->succ);
		array_free(&t->pred);
		array_free(&t->succ_bytes);
	}
	array_free(&g->tasks);
}

const char *sched_kind_name(SchedKind k)
{
	static const char *const names[] = {
#define X(kind, name) name,
		SCHED_KINDS(X)
#undef X
	};

	return (unsigned)k < SCHED_NKINDS ? names[k] : "?";
}

enum { ALIGNED_SLACK_PERCENT = 3 };
#define ALIGNED_SLACK (ALIGNED_SLACK_PERCENT / 100.0)

/* ---- what every heuristic shares: predecessors, levels, priority order ---- */

typedef struct Ctx {
	const TaskGraph *g;
	uint32_t n;
	int ncores;
	double tpb;          /* transfer time per byte between two cores */
	uint32_t *in_off;    /* predecessors of t: in_src[in_off[t] .. in_off[t+1]) */
	uint32_t *in_src;
	double *in_bytes;    /* bytes of each of those edges */
	double *level;       /* longest path to the exit, own cost included */
	uint32_t *by_rank;   /* tasks in priority order, highest first */
} Ctx;

static double cost_of(const Ctx *c, uint32_t t)
{
	return c->g->tasks.items[t].cost;
}

static double edge_bytes(const SchedTask *t, uint32_t k)
{
	return k < t->succ_bytes.len ? t->succ_bytes.items[k] : 0;
}

/* The core a task must run on, -1 if any. */
static int pinned_core(const Ctx *c, uint32_t t)
{
	int p = c->g->tasks.items[t].pinned_core;

	return p < 0 ? -1 : p % c->ncores;
}

/* Edges must go forward (the graph is given in a topological order). */
static void check_graph(const TaskGraph *g)
{
	uint32_t nsucc = 0, npred = 0;

	for (uint32_t i = 0; i < g->tasks.len; i++) {
		const SchedTask *t = &g->tasks.items[i];

		if (!(t->cost >= 0))
			die("schedule: task %u has cost %g", i, t->cost);
		for (uint32_t k = 0; k < t->succ.len; k++)
			if (t->succ.items[k] <= i || t->succ.items[k] >= g->tasks.len)
				die("schedule: edge %u -> %u is not forward", i, t->succ.items[k]);
		nsucc += t->succ.len;
		npred += t->pred.len;
	}
	if (nsucc != npred)
		die("schedule: %u successor entries but %u predecessor entries", nsucc, npred);
}

/* CSR lists of predecessors, built from the successor lists (the source of truth). */
static void fill_preds(Ctx *c)
{
	uint32_t *fill = xcalloc(c->n + 1, sizeof(*fill));
	uint32_t nedges = 0;

	c->in_off = arena_alloc((c->n + 1) * sizeof(*c->in_off));
	for (uint32_t p = 0; p < c->n; p++) {
		const SchedTask *t = &c->g->tasks.items[p];

		for (uint32_t k = 0; k < t->succ.len; k++)
			c->in_off[t->succ.items[k] + 1]++;
		nedges += t->succ.len;
	}
	for (uint32_t t = 0; t < c->n; t++)
		c->in_off[t + 1] += c->in_off[t];
	c->in_src = arena_alloc((nedges + 1) * sizeof(*c->in_src));
	c->in_bytes = arena_alloc((nedges + 1) * sizeof(*c->in_bytes));
	for (uint32_t p = 0; p < c->n; p++) {
		const SchedTask *t = &c->g->tasks.items[p];

		for (uint32_t k = 0; k < t->succ.len; k++) {
			uint32_t s = t->succ.items[k];
			uint32_t at = c->in_off[s] + fill[s]++;

			c->in_src[at] = p;
			c->in_bytes[at] = edge_bytes(t, k);
		}
	}
	free(fill);
}

/* Levels, in reverse topological order. */
static void fill_levels(const TaskGraph *g, double *level)
{
	for (uint32_t i = g->tasks.len; i-- > 0;) {
		const SchedTask *t = &g->tasks.items[i];
		double below = 0;

		for (uint32_t k = 0; k < t->succ.len; k++)
			if (level[t->succ.items[k]] > below)
				below = level[t->succ.items[k]];
		level[i] = t->cost + below;
	}
}

double *sched_levels(const TaskGraph *g)
{
	double *level = arena_alloc((g->tasks.len + 1) * sizeof(*level));

	check_graph(g);
	fill_levels(g, level);
	return level;
}

typedef struct RankKey {
	double level;
	uint32_t nsucc, task;
} RankKey;

/* Higher level first, then more immediate successors, then lower index. */
static int rank_cmp(const void *pa, const void *pb)
{
	const RankKey *a = pa, *b = pb;

	if (a->level != b->level)
		return a->level > b->level ? -1 : 1;
	if (a->nsucc != b->nsucc)
		return a->nsucc > b->nsucc ? -1 : 1;
	return a->task < b->task ? -1 : a->task > b->task;
}

static void fill_ranks(Ctx *c)
{
	RankKey *keys = xmalloc((c->n + 1) * sizeof(*keys));

	for (uint32_t t = 0; t < c->n; t++) {
		keys[t].level = c->level[t];
		keys[t].nsucc = c->g->tasks.items[t].succ.len;
		keys[t].task = t;
	}
	qsort(keys, c->n, sizeof(*keys), rank_cmp);
	c->by_rank = arena_alloc((c->n + 1) * sizeof(*c->by_rank));
	for (uint32_t r = 0; r < c->n; r++)
		c->by_rank[r] = keys[r].task;
	free(keys);
}

static void ctx_init(Ctx *c, const TaskGraph *g, int ncores, double tpb)
{
	if (ncores < 1)
		die("schedule: %d cores", ncores);
	if (!(tpb >= 0))
		die("schedule: transfer time per byte %g", tpb);
	check_graph(g);
	memset(c, 0, sizeof(*c));
	c->g = g;
	c->n = g->tasks.len;
	c->ncores = ncores;
	c->tpb = tpb;
	fill_preds(c);
	c->level = sched_levels(g);
	fill_ranks(c);
}

/* ---- one run of one heuristic ---- */

typedef struct Run {
	const Ctx *c;
	Schedule *s;
	double *free_at;   /* per core: when its last task finishes */
	uint32_t *left;    /* per task: predecessors not placed yet */
	bool *placed;
	uint32_t *order;   /* tasks in the order they were placed (topological) */
	uint32_t nplaced;
} Run;

static Schedule *schedule_new(const Ctx *c, SchedKind kind)
{
	Schedule *s = ARENA_NEW(Schedule);
	uint32_t n1 = c->n + 1;

	s->ncores = c->ncores;
	s->kind = kind;
	s->heuristic = sched_kind_name(kind);
	s->transfer_per_byte = c->tpb;
	s->core = arena_alloc(c->ncores * sizeof(*s->core));
	s->start = arena_alloc(n1 * sizeof(*s->start));
	s->finish = arena_alloc(n1 * sizeof(*s->finish));
	s->core_of = arena_alloc(n1 * sizeof(*s->core_of));
	for (uint32_t t = 0; t < c->n; t++) {
		s->core_of[t] = -1;
		s->seq_time += cost_of(c, t);
	}
	for (int k = 0; k < SCHED_NKINDS; k++)
		s->tried[k] = -1;
	return s;
}

/* Releases the arrays of a schedule that lost (the rest is in the arena). */
static void schedule_drop(Schedule *s)
{
	for (int k = 0; k < s->ncores; k++)
		array_free(&s->core[k]);
	array_free(&s->cp);
}

static void run_init(Run *r, const Ctx *c, SchedKind kind)
{
	r->c = c;
	r->s = schedule_new(c, kind);
	r->free_at = xcalloc(c->ncores, sizeof(*r->free_at));
	r->left = xcalloc(c->n + 1, sizeof(*r->left));
	r->placed = xcalloc(c->n + 1, sizeof(*r->placed));
	r->order = xcalloc(c->n + 1, sizeof(*r->order));
	r->nplaced = 0;
	for (uint32_t t = 0; t < c->n; t++)
		r->left[t] = c->in_off[t + 1] - c->in_off[t];
}

static void run_done(Run *r)
{
	free(r->free_at);
	free(r->left);
	free(r->placed);
	free(r->order);
}

/* Transfer time of an edge whose ends run on cores a and b. */
static double transfer(const Ctx *c, double bytes, int a, int b)
{
	return a == b ? 0 : bytes * c->tpb;
}

/*
 * Earliest start of placed-ready task t on core k: the core is free and
 * every predecessor's data has arrived.
 */
static double est(const Run *r, uint32_t t, int k)
{
	const Ctx *c = r->c;
	double at = r->free_at[k];

	for (uint32_t e = c->in_off[t]; e < c->in_off[t + 1]; e++) {
		uint32_t p = c->in_src[e];
		double arrive = r->s->finish[p] + transfer(c, c->in_bytes[e], r->s->core_of[p], k);

		if (arrive > at)
			at = arrive;
	}
	return at;
}

/* When the last predecessor of placed-ready task t finishes. */
static double ready_at(const Run *r, uint32_t t)
{
	const Ctx *c = r->c;
	double at = 0;

	for (uint32_t e = c->in_off[t]; e < c->in_off[t + 1]; e++)
		if (r->s->finish[c->in_src[e]] > at)
			at = r->s->finish[c->in_src[e]];
	return at;
}

static void place(Run *r, uint32_t t, int k, double start)
{
	const SchedTask *task = &r->c->g->tasks.items[t];
	Schedule *s = r->s;

	s->start[t] = start;
	s->finish[t] = start + task->cost;
	s->core_of[t] = k;
	array_push(&s->core[k], t);
	r->free_at[k] = s->finish[t];
	r->placed[t] = true;
	r->order[r->nplaced++] = t;
	for (uint32_t i = 0; i < task->succ.len; i++)
		r->left[task->succ.items[i]]--;
}

/* Placed-ready: not placed, every predecessor placed. */
static bool can_place(const Run *r, uint32_t t)
{
	return !r->placed[t] && r->left[t] == 0;
}

/*
 * CP/MISF, time-driven: at time `now`, the highest-priority task whose
 * predecessors have all finished takes an idle core (its pinned core, or
 * the lowest-numbered idle one); when no task can start, time advances to
 * the next finish.  Transfers are ignored here and charged by retime().
 */
/* The core chunk k of n prefers: k * ncores / n; -1 for a task that is not a chunk. */
static int chunk_core(const Ctx *c, uint32_t t)
{
	const SchedTask *task = &c->g->tasks.items[t];

	return task->nchunks >= 2 ? (int)((int64_t)task->chunk * c->ncores / task->nchunks) : -1;
}

/*
 * The idle core t may take now: its pinned core, or under the aligned
 * heuristic a chunk's own core; else the lowest-numbered idle one.
 */
static int idle_core(const Run *r, uint32_t t, double now)
{
	int pin = pinned_core(r->c, t);

	if (pin < 0 && r->s->kind == SCHED_ALIGNED)
		pin = chunk_core(r->c, t);
	if (pin >= 0)
		return r->free_at[pin] <= now ? pin : -1;
	for (int k = 0; k < r->c->ncores; k++)
		if (r->free_at[k] <= now)
			return k;
	return -1;
}

static bool cp_misf_step(Run *r, double now)
{
	for (uint32_t i = 0; i < r->c->n; i++) {
		uint32_t t = r->c->by_rank[i];
		int k;

		if (!can_place(r, t) || ready_at(r, t) > now)
			continue;
		k = idle_core(r, t, now);
		if (k >= 0) {
			place(r, t, k, now);
			return true;
		}
	}
	return false;
}

static void run_cp_misf(Run *r)
{
	double now = 0;

	while (r->nplaced < r->c->n) {
		double next = -1;

		if (cp_misf_step(r, now))
			continue;
		for (int k = 0; k < r->c->ncores; k++)
			if (r->free_at[k] > now && (next < 0 || r->free_at[k] < next))
				next = r->free_at[k];
		if (next < 0)
			die("CP/MISF: no task can start at %g", now);
		now = next;
	}
}

/* The core where t starts earliest, transfers included (ties: lower core). */
static int best_core(const Run *r, uint32_t t, double *start)
{
	int pin = pinned_core(r->c, t), best = -1;

	for (int k = 0; k < r->c->ncores; k++) {
		double at;

		if (pin >= 0 && k != pin)
			continue;
		at = est(r, t, k);
		if (best < 0 || at < *start) {
			best = k;
			*start = at;
		}
	}
	return best;
}

/*
 * CP/DT/MISF: the highest-priority task whose predecessors are placed goes
 * to the core where it can start earliest, data transfer included.
 */
static void run_cp_dt_misf(Run *r)
{
	while (r->nplaced < r->c->n) {
		uint32_t i = 0, t;
		double start = 0;
		int k;

		while (!can_place(r, r->c->by_rank[i]))
			i++;
		t = r->c->by_rank[i];
		k = best_core(r, t, &start);
		place(r, t, k, start);
	}
}

/*
 * ETF/CP: of every placed-ready task on every core, the pair with the
 * earliest start (transfers included); ties go to the higher priority.
 */
static void run_etf_cp(Run *r)
{
	while (r->nplaced < r->c->n) {
		uint32_t best_t = 0;
		int best_k = -1;
		double best = 0;

		for (uint32_t i = 0; i < r->c->n; i++) {
			uint32_t t = r->c->by_rank[i];
			double start = 0;
			int k;

			if (!can_place(r, t))
				continue;
			k = best_core(r, t, &start);
			if (best_k < 0 || start < best) {
				best_t = t;
				best_k = k;
				best = start;
			}
		}
		place(r, best_t, best_k, best);
	}
}

/*
 * The core the sequential order can run on: the one every pinned task
 * names (core 0 when none is pinned), -1 if pins name two cores.
 */
static int sequential_core(const Ctx *c)
{
	int core = -1;

	for (uint32_t t = 0; t < c->n; t++) {
		int pin = pinned_core(c, t);

		if (pin < 0 || pin == core)
			continue;
		if (core >= 0)
			return -1;
		core = pin;
	}
	return core < 0 ? 0 : core;
}

/* Every task on one core in index order: the original program. */
static void run_sequential(Run *r)
{
	int k = sequential_core(r->c);

	for (uint32_t t = 0; t < r->c->n; t++)
		place(r, t, k, r->free_at[k]);
}

/*
 * Start times again in placement order with transfers charged, so every
 * heuristic is measured the same way (a no-op for the DT-aware ones).
 */
static void retime(Run *r)
{
	Schedule *s = r->s;

	for (int k = 0; k < r->c->ncores; k++)
		r->free_at[k] = 0;
	s->makespan = 0;
	for (uint32_t i = 0; i < r->nplaced; i++) {
		uint32_t t = r->order[i];
		int k = s->core_of[t];

		s->start[t] = est(r, t, k);
		s->finish[t] = s->start[t] + cost_of(r->c, t);
		r->free_at[k] = s->finish[t];
		if (s->finish[t] > s->makespan)
			s->makespan = s->finish[t];
	}
}

/* One critical path: from the highest level down the highest successor. */
static void fill_critical_path(const Ctx *c, Schedule *s)
{
	uint32_t t;

	if (c->n == 0)
		return;
	t = c->by_rank[0];
	s->critical_path = c->level[t];
	for (;;) {
		const SchedTask *task = &c->g->tasks.items[t];
		uint32_t next = UINT32_MAX;

		array_push(&s->cp, t);
		for (uint32_t k = 0; k < task->succ.len; k++) {
			uint32_t v = task->succ.items[k];

			if (next == UINT32_MAX || c->level[v] > c->level[next] ||
			    (c->level[v] == c->level[next] && v < next))
				next = v;
		}
		if (next == UINT32_MAX)
			break;
		t = next;
	}
}

static Schedule *run_kind(const Ctx *c, SchedKind kind)
{
	Run r;
	Schedule *s;

	run_init(&r, c, kind);
	switch (kind) {
	case SCHED_CP_MISF: run_cp_misf(&r); break;
	case SCHED_ALIGNED: run_cp_misf(&r); break;
	case SCHED_CP_DT_MISF: run_cp_dt_misf(&r); break;
	case SCHED_ETF_CP: run_etf_cp(&r); break;
	case SCHED_SEQUENTIAL: run_sequential(&r); break;
	default: die("schedule: unknown heuristic %d", (int)kind);
	}
	retime(&r);
	s = r.s;
	s->tried[kind] = s->makespan;
	fill_critical_path(c, s);
	run_done(&r);
	return s;
}

Schedule *sched_with(const TaskGraph *g, int ncores, double transfer_per_byte, SchedKind kind)
{
	Ctx c;

	ctx_init(&c, g, ncores, transfer_per_byte);
	if (kind == SCHED_SEQUENTIAL && sequential_core(&c) < 0)
		return NULL;
	return run_kind(&c, kind);
}

/* Does the graph hold chunks of loops (the aligned heuristic's business)? */
static bool has_chunks(const Ctx *c)
{
	for (uint32_t t = 0; t < c->n; t++)
		if (c->g->tasks.items[t].nchunks >= 2)
			return true;
	return false;
}

/*
 * Does s, the aligned schedule, win?  Within ALIGNED_SLACK of the best
 * makespan: the rows its chunks find in their own core's cache are worth
 * more than the costs tell (fdtd-2d's sweeps, each split by rows, ran at
 * 0.65x when CP/MISF gave one core both halves of ey and the other both
 * halves of ex, and every step moved the grids between the cores).
 */
static bool aligned_wins(const Schedule *s, const Schedule *best)
{
	return s->kind == SCHED_ALIGNED && s->makespan <= best->makespan * (1 + ALIGNED_SLACK);
}

Schedule *sched_graph(const TaskGraph *g, int ncores, double transfer_per_byte)
{
	double tried[SCHED_NKINDS];
	Schedule *best = NULL;
	Ctx c;

	ctx_init(&c, g, ncores, transfer_per_byte);
	if (ncores == 1)
		return run_kind(&c, SCHED_SEQUENTIAL);
	for (int k = 0; k < SCHED_NKINDS; k++) {
		Schedule *s;

		tried[k] = -1;
		if ((k == SCHED_SEQUENTIAL && sequential_core(&c) < 0) || (k == SCHED_ALIGNED && !has_chunks(&c)))
			continue;
		s = run_kind(&c, (SchedKind)k);
		tried[k] = s->makespan;
		if (!best || s->makespan < best->makespan || aligned_wins(s, best)) {
			if (best)
				schedule_drop(best);
			best = s;
		} else {
			schedule_drop(s);
		}
	}
	memcpy(best->tried, tried, sizeof(tried));
	return best;
}

/* ---- checking ---- */

#define CHECK_FAIL(...) do { snprintf(why, size, __VA_ARGS__); return false; } while (0)

/* a >= b up to rounding. */
static bool not_before(double a, double b)
{
	double scale = (a < 0 ? -a : a) + (b < 0 ? -b : b) + 1;

	return a >= b - 1e-9 * scale;
}

static bool check_cores(const TaskGraph *g, const Schedule *s, char *why, size_t size)
{
	uint32_t seen = 0;

	for (int k = 0; k < s->ncores; k++) {
		const SchedList *l = &s->core[k];

		for (uint32_t i = 0; i < l->len; i++) {
			uint32_t t = l->items[i];

			if (t >= g->tasks.len || s->core_of[t] != k)
				CHECK_FAIL("core %d: task %u misplaced", k, t);
			if (i > 0 && !not_before(s->start[t], s->finish[l->items[i - 1]]))
				CHECK_FAIL("core %d: task %u overlaps task %u", k, t, l->items[i - 1]);
		}
		seen += l->len;
	}
	if (seen != g->tasks.len)
		CHECK_FAIL("%u tasks on cores, %u in the graph", seen, g->tasks.len);
	return true;
}

static bool check_task(const TaskGraph *g, const Schedule *s, uint32_t t, char *why, size_t size)
{
	const SchedTask *task = &g->tasks.items[t];
	int k = s->core_of[t];

	if (k < 0 || k >= s->ncores)
		CHECK_FAIL("task %u is on no core", t);
	if (task->pinned_core >= 0 && k != task->pinned_core % s->ncores)
		CHECK_FAIL("task %u pinned to core %d runs on core %d", t, task->pinned_core, k);
	if (s->start[t] < 0 || s->finish[t] != s->start[t] + task->cost)
		CHECK_FAIL("task %u: bad times [%g,%g]", t, s->start[t], s->finish[t]);
	if (s->finish[t] > s->makespan)
		CHECK_FAIL("task %u finishes after the makespan", t);
	for (uint32_t i = 0; i < task->succ.len; i++) {
		uint32_t v = task->succ.items[i];
		double arrive = s->finish[t];

		if (s->core_of[v] != k)
			arrive += edge_bytes(task, i) * s->transfer_per_byte;
		if (!not_before(s->start[v], arrive))
			CHECK_FAIL("task %u starts at %g before the data of task %u (%g)",
			           v, s->start[v], t, arrive);
	}
	return true;
}

bool sched_check(const TaskGraph *g, const Schedule *s, char *why, size_t size)
{
	double last = 0;

	if (!check_cores(g, s, why, size))
		return false;
	for (uint32_t t = 0; t < g->tasks.len; t++) {
		if (!check_task(g, s, t, why, size))
			return false;
		if (s->finish[t] > last)
			last = s->finish[t];
	}
	if (last != s->makespan)
		CHECK_FAIL("makespan %g, last finish %g", s->makespan, last);
	return true;
}

/* ---- dump ---- */

/* Integers as such, other values with up to three decimals. */
void sched_put_num(FILE *out, double v)
{
	char buf[64];
	size_t n;

	if (v == 0)
		v = 0; /* no "-0" */
	if (v > -1e15 && v < 1e15 && v == (double)(long long)v) {
		fprintf(out, "%lld", (long long)v);
		return;
	}
	snprintf(buf, sizeof(buf), "%.3f", v);
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	fputs(buf, out);
}

static void put_task(FILE *out, const TaskGraph *g, uint32_t t)
{
	const char *name = g->tasks.items[t].name;

	if (name)
		fputs(name, out);
	else
		fprintf(out, "t%u", t);
}

void sched_dump(FILE *out, const TaskGraph *g, const Schedule *s)
{
	const char *sep = "";

	fprintf(out, "schedule %s, %d core%s, transfer %g per byte\n", s->heuristic,
	        s->ncores, s->ncores == 1 ? "" : "s", s->transfer_per_byte);
	fputs("tried:", out);
	for (int k = 0; k < SCHED_NKINDS; k++) {
		if (s->tried[k] < 0)
			continue;
		fprintf(out, "%s %s ", sep, sched_kind_name((SchedKind)k));
		sched_put_num(out, s->tried[k]);
		sep = ",";
	}
	fputc('\n', out);
	for (int k = 0; k < s->ncores; k++) {
		fprintf(out, "core %d:", k);
		if (s->core[k].len == 0)
			fputs(" idle", out);
		fputc('\n', out);
		for (uint32_t i = 0; i < s->core[k].len; i++) {
			uint32_t t = s->core[k].items[i];

			fputs("  ", out);
			put_task(out, g, t);
			fputc('[', out);
			sched_put_num(out, s->start[t]);
			fputc(',', out);
			sched_put_num(out, s->finish[t]);
			fputs("]\n", out);
		}
	}
	fputs("critical path:", out);
	for (uint32_t i = 0; i < s->cp.len; i++) {
		fputc(' ', out);
		put_task(out, g, s->cp.items[i]);
	}
	fputs(" = ", out);
	sched_put_num(out, s->critical_path);
	fputs("\nmakespan ", out);
	sched_put_num(out, s->makespan);
	fputs(", sequential ", out);
	sched_put_num(out, s->seq_time);
	fprintf(out, ", predicted speedup %.2f\n",
	        s->makespan > 0 ? s->seq_time / s->makespan : 1.0);
}
