/*
 * plan.c - middle stage: the parallel plan.  Picks the entry-like
 * function and the span of its top-level MTs that can run inside one
 * parallel region, makes each MT of the span one task or, through
 * decomp.c, several chunks, estimates their costs (cost.c), draws an edge
 * wherever two tasks' access summaries conflict, and schedules the graph
 * with sched.c.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "middle.h"

#define TRANSFER_PER_BYTE 0.1  /* a byte produced on one core and read on another */
#define MIN_GAIN 0.95          /* the region must beat the sequential time by 5% */
/*
 * What the runtime costs, in the cost model's units (one simple
 * operation: about 0.1 ns on the machines of doc/benchmarks.md, where
 * the corpus programs run 1e10 of them per second).  A fork and join of
 * a warm team is about 2 us there (libgomp's `omp parallel` plus the
 * closing barrier); a wait for a task of another core moves the end
 * flag's cache line and the data, about 0.2 us.  Every region pays
 * the fork, each run of it: a function called a million times from a
 * loop forks a million times.
 */
#define FORK_COST 20000.0
#define WAIT_COST 2000.0
/*
 * A region forked once around a sequential loop ends each iteration with a
 * barrier instead of a join: libgomp's barrier is 0.3 us on the 2-core VM
 * (doc/benchmarks.md), plus the cores' imbalance.
 */
#define BARRIER_COST 5000.0
/*
 * A task of a dynamic schedule is taken from the shared queue and its
 * successors are released, each under the queue's lock: 0.1 us per task on
 * the 2-core VM (doc/benchmarks.md), 0.2 us counted for the lock's
 * contention when the cores ask at once.
 */
#define DYN_TASK_COST 2000.0
/*
 * The first fork of a program creates the team's threads.  That takes 0.1
 * to 8 ms on the 2-core VM (doc/benchmarks.md: libgomp's master spins
 * while a new thread waits for a CPU), 3 ms typically.  A function that
 * runs once per program run (main, or what main calls once) pays it out
 * of its own gain; one that may run many times spreads it over the runs.
 */
#define TEAM_START_COST 3e7
#define UNITS_PER_MS (COST_UNITS_PER_NS * 1e6) /* for remarks in milliseconds */

enum { MAX_DEPS = 16, MAX_DESCENT = 8 };

#define X_NAME(k, s) s,
static const char *const task_kind_name[] = { TASK_KINDS(X_NAME) };
#undef X_NAME

const char *plan_fmt(const char *f, ...)
{
	va_list ap;
	int len;
	char *s;

	va_start(ap, f);
	len = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	s = arena_alloc((size_t)len + 1);
	va_start(ap, f);
	vsnprintf(s, (size_t)len + 1, f, ap);
	va_end(ap);
	return s;
}

static const char *name_of(const Func *f)
{
	return intern_name(f->name);
}

const char *plan_dep_object(const Dep *d)
{
	if (d->kind == DEP_BARRIER)
		return "an unknown call";
	return d->object ? intern_name(d->object->name) : "memory of unknown origin";
}

/* A number or an operation that is not of a signed integer type. */
static bool unsigned_arith(const Expr *e, void *ctx)
{
	(void)ctx;
	return (e->kind == EX_NUM || e->kind == EX_UNARY || e->kind == EX_BINARY) &&
	       (!e->type || e->type->is_unsigned || e->type->kind != TY_INT);
}

/*
 * A division, remainder or shift whose operands are constants folds like
 * their sum does: a bound written `(N / 8)` through a macro is a constant
 * (only an IV's quotient is not affine).  Only in signed arithmetic:
 * ir_const_eval folds in C's types, but the affine forms built from a
 * plain expression compute in int64_t, where `(0u - 8) / 8` would be -1,
 * not C's 536870911 (a bound folded too small would drop the loop's last
 * iterations).
 */
static bool folded_int(const Expr *e)
{
	int64_t k;

	return (e->op == OP_DIV || e->op == OP_MOD || e->op == OP_SHL || e->op == OP_SHR) &&
	       !ir_expr_any(e, unsigned_arith, NULL) && ir_const_eval(e, &k);
}

/* A node that plan_plain refuses; ctx: the variable it accepts, or NULL. */
static bool not_plain(const Expr *e, void *ctx)
{
	switch (e->kind) {
	case EX_NUM:
	case EX_NAME:
	case EX_CAST:
		return false;
	case EX_VAR: /* a bound one is a constant (bind.c) */
		return (!ctx || e->var != ctx) && !e->var->bound;
	case EX_UNARY:
		return e->op != OP_NEG;
	case EX_BINARY:
		return e->op != OP_ADD && e->op != OP_SUB && e->op != OP_MUL && !folded_int(e);
	default:
		return true;
	}
}

bool plan_plain(const Expr *e, const Var *v)
{
	return !ir_expr_any(e, not_plain, (void *)v);
}

bool plan_const(const Expr *e, int64_t *out)
{
	return plan_plain(e, NULL) && ir_const_eval(e, out);
}

/* The shared statement visitor (ir.c), on IR that this file only reads. */
static void each_stmt_expr(const Stmt *s, IrExprFn *fn, void *ctx)
{
	ir_visit_stmt((Stmt *)s, fn, NULL, ctx);
}

/*
 * Does control leave s other than by falling through: return, goto, a
 * label (an entry), or a break (a continue unless cont_ok) not bound
 * inside s?  loops and switches: how many enclosing ones s sits in.  With
 * g, the callee being cloned, its workspace statements (scratch_stmt) do
 * not count: in the clone they never leave.
 */
bool plan_leaves(const Func *g, const Stmt *s, int loops, int switches, bool cont_ok)
{
	if (!s || (g && scratch_stmt(g, s)))
		return false;
	switch (s->kind) {
	case ST_RETURN:
	case ST_GOTO:
	case ST_LABEL:
		return true;
	case ST_BREAK:
		return loops == 0 && switches == 0;
	case ST_CONTINUE:
		return loops == 0 && !cont_ok;
	case ST_FOR:
	case ST_WHILE:
	case ST_DO:
		return plan_leaves(g, s->loop->body, loops + 1, switches, cont_ok);
	case ST_SWITCH:
		return plan_leaves(g, s->then, loops, switches + 1, cont_ok);
	default:
		break;
	}
	if (plan_leaves(g, s->then, loops, switches, cont_ok) ||
	    plan_leaves(g, s->els, loops, switches, cont_ok))
		return true;
	for (uint32_t i = 0; i < s->body.len; i++)
		if (plan_leaves(g, s->body.items[i], loops, switches, cont_ok))
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* Call graph                                                          */
/* ------------------------------------------------------------------ */

static void note_callee(Expr *e, void *ctx)
{
	if (e->kind == EX_CALL && e->callee_func)
		bitset_set(ctx, (uint32_t)e->callee_func->id);
}

static void build_calls(PlanCtx *c)
{
	uint32_t n = c->prog->funcs.len;

	c->calls = arena_alloc(n * sizeof(*c->calls) + 1);
	for (uint32_t i = 0; i < n; i++) {
		bitset_init(&c->calls[i], n);
		each_stmt_expr(c->prog->funcs.items[i]->body, note_callee, &c->calls[i]);
	}
}

/* out gets every function that the MTs mt[0..n) call, transitively. */
static void span_reach(PlanCtx *c, MT *const *mts, uint32_t n, Bitset *out)
{
	Array(uint32_t) work = { 0 };
	uint32_t nf = c->prog->funcs.len;

	bitset_init(out, nf);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < mts[i]->stmts.len; j++)
			each_stmt_expr(mts[i]->stmts.items[j], note_callee, out);
	for (uint32_t f = 0; bitset_iter(out, &f); f++)
		array_push(&work, f);
	while (work.len) {
		uint32_t f = work.items[--work.len];

		for (uint32_t g = 0; bitset_iter(&c->calls[f], &g); g++) {
			if (!bitset_has(out, g)) {
				bitset_set(out, g);
				array_push(&work, g);
			}
		}
	}
	array_free(&work);
}

/* ------------------------------------------------------------------ */
/* Which MTs may run inside the parallel region                        */
/* ------------------------------------------------------------------ */

/*
 * A callee whose allocations and frees are all workspaces (scratch_list):
 * its clone touches no allocator state, so its chunks may run anywhere; run
 * whole, it stays on core 0, the thread that runs the code around the region.
 */
bool plan_workspace_only(const Func *g)
{
	bool only = false;

	if (g && g->body)
		scratch_list(g, &only);
	return only;
}

/* Accesses the allocator or I/O state, which must stay in program order on one thread. */
bool plan_touches_state(const Summary *s)
{
	for (uint32_t i = 0; s && i < s->acc.len; i++) {
		const Var *b = s->acc.items[i].region.base;

		if (b && obj_kind(b) == OBJ_STATE)
			return true;
	}
	return false;
}

/*
 * `if (f(...) != K) exit;` and its variants: is the exit taken when f
 * returns v?  false when the condition is not one of those shapes.
 */
static bool guard_taken(const Expr *cond, const Expr *call, int64_t v, bool *taken)
{
	int64_t k;

	if (ir_strip_casts(cond) == call) {
		*taken = v != 0;
		return true;
	}
	if (cond->kind == EX_UNARY && cond->op == OP_NOT && ir_strip_casts(cond->lhs) == call) {
		*taken = v == 0;
		return true;
	}
	if (cond->kind == EX_BINARY && (cond->op == OP_NE || cond->op == OP_EQ) &&
	    ir_strip_casts(cond->lhs) == call && plan_const(cond->rhs, &k)) {
		*taken = cond->op == OP_NE ? v != k : v == k;
		return true;
	}
	return false;
}

/* A call statement: f(...), (void)f(...), or a guard that never exits. */
static bool sb_ok(const MT *mt, bool *fold, const char **why)
{
	const Stmt *s = mt->stmts.len == 1 ? mt->stmts.items[0] : NULL;
	int64_t v;
	bool taken;

	if (!s || !mt->call) {
		*why = "not a single call";
		return false;
	}
	if (s->kind == ST_EXPR && ir_strip_casts(s->expr) == mt->call)
		return true;
	if (s->kind != ST_IF) {
		*why = "the call's result is stored";
		return false;
	}
	if (!val_returns_constant(mt->callee, &v) ||
	    !guard_taken(s->expr, mt->call, v, &taken) || taken) {
		*why = "the call's result decides an exit";
		return false;
	}
	*fold = true;
	return true;
}

/*
 * Can mt run as a task inside the parallel region?  why: the reason not.
 * dyn: a dynamic schedule may run branch tests and their arms.
 */
/*
 * Does a statement macro spell part of mt?  Its statements share the use's
 * bytes, so a span that began or ended between two of them would copy the
 * whole use twice (frontend/macro.c): such an MT is never a task.
 */
static bool spelled_by_macro(const MT *mt)
{
	for (uint32_t i = 0; i < mt->stmts.len; i++)
		if (mt->stmts.items[i]->in_macro)
			return true;
	return false;
}

static void note_vla(Expr *e, void *ctx)
{
	if (e->kind == EX_VAR && e->var->type && e->var->type->kind == TY_ARRAY && e->var->type->is_vla)
		*(bool *)ctx = true;
}

/* Does mt name a variable-length array object (`sizeof B`)?  GCC 12 crashes sharing one with a region. */
static bool names_vla(const MT *mt)
{
	bool seen = false;

	for (uint32_t i = 0; i < mt->stmts.len && !seen; i++)
		ir_visit_stmt(mt->stmts.items[i], note_vla, NULL, &seen);
	return seen;
}

static bool task_ok(const MT *mt, bool dyn, bool *fold, const char **why)
{
	*fold = false;
	if (mt->unmodelled) {
		*why = "unmodelled construct";
		return false;
	}
	if (spelled_by_macro(mt)) {
		*why = "a macro spells it";
		return false;
	}
	if (names_vla(mt)) {
		*why = "it names a variable-length array";
		return false;
	}
	if (dyn && plan_branch_test(mt))
		return mt->summary && !mt->summary->barrier;
	if ((mt->branch_mt && !dyn) || (mt->ends_in_branch && mt->kind != MT_SB)) {
		*why = "conditional control flow";
		return false;
	}
	if (!mt->summary || mt->summary->barrier) {
		*why = "calls something unknown";
		return false;
	}
	if (plan_touches_state(mt->summary) && !(mt->kind == MT_SB && plan_workspace_only(mt->callee))) {
		*why = "allocates, frees, does I/O or names a thread-local object";
		return false;
	}
	switch (mt->kind) {
	case MT_SB:
		return sb_ok(mt, fold, why);
	case MT_RB:
		if (plan_leaves(NULL, mt->loop->loop->body, 1, 0, false)) {
			*why = "control leaves the loop";
			return false;
		}
		return true;
	case MT_BB:
		for (uint32_t i = 0; i < mt->stmts.len; i++) {
			const Stmt *s = mt->stmts.items[i];

			if (s->kind == ST_DECL) {
				*why = "declares a variable";
				return false;
			}
			if (plan_leaves(NULL, s, 0, 0, false)) {
				*why = "exits";
				return false;
			}
		}
		return true;
	}
	return false;
}

typedef struct Straddle {
	uint32_t start, end;
	bool found;
} Straddle;

static bool straddles(const Stmt *s, void *ctx)
{
	Straddle *st = ctx;

	if (s->kind != ST_BLOCK || s->end <= st->start || s->start >= st->end)
		return false;
	if ((s->start >= st->start && s->end <= st->end) || (s->start <= st->start && s->end >= st->end))
		return false;
	return st->found = true;
}

bool plan_crosses_block(const Func *f, uint32_t start, uint32_t end)
{
	Straddle st = { start, end, false };

	return f->body && ir_stmt_any(f->body, straddles, NULL, &st);
}

/* A run of task-worthy MTs: root->children[first..last], and its work. */
typedef struct Run {
	uint32_t first, last;
	double work;
} Run;

typedef Array(Run) RunList;

static void end_run(PlanCtx *c, const MT *root, RunList *runs, uint32_t start, uint32_t *len,
                    uint32_t i, double *work)
{
	uint32_t last = *len ? plan_run_close(root, start, i - 1) : UINT32_MAX;

	if (last != UINT32_MAX) {
		if (last != i - 1) { /* cut back to whole if statements: its work again */
			*work = 0;
			for (uint32_t k = start; k <= last; k++)
				*work += cost_mt(&c->cost, root->children.items[k]);
		}
		array_push(runs, ((Run){ start, last, *work }));
	}
	*len = 0;
	*work = 0;
}

/* Does mt call, at any depth, a function that has a region of its own (c->avoid)? */
static bool reaches_avoided(PlanCtx *c, MT *mt)
{
	Bitset reach;

	if (!c->avoid)
		return false;
	span_reach(c, &mt, 1, &reach);
	for (uint32_t g = 0; bitset_iter(&reach, &g); g++)
		if (bitset_has(c->avoid, g))
			return true;
	return false;
}

/*
 * The runs of root's task-worthy MTs, most work first (the earlier of equal
 * ones first); a run ends where the next MT would take it across a
 * block's brace.
 */
/* Is root's i-th child in a span that a plan of this level took (plan_around_loops)? */
static bool in_taken_span(const PlanCtx *c, const MT *root, uint32_t i)
{
	for (uint32_t k = 0; k < c->ntaken; k++)
		if (c->taken[k]->root == root && c->taken[k]->first <= i && i <= c->taken[k]->last)
			return true;
	return false;
}

static RunList span_runs(PlanCtx *c, const MT *root)
{
	RunList runs = { 0 };
	double work = 0;
	uint32_t start = 0, len = 0;
	bool fold;
	const char *why;

	if (root && mt_level_crowded(root))
		return runs; /* one BB taken in order (mt.c): no span */
	for (uint32_t i = 0; root && i <= root->children.len; i++) {
		MT *mt = i < root->children.len ? root->children.items[i] : NULL;
		bool ok = mt && mt != c->avoid_mt && !in_taken_span(c, root, i) &&
		          task_ok(mt, !c->plain_regions, &fold, &why) && !reaches_avoided(c, mt);

		/* an arm's braces are crossed until its if statement ends: plan_run_close */
		if (ok && len && !plan_under_test_from(mt, start) &&
		    plan_crosses_block(mt->func, root->children.items[start]->start, mt->end))
			end_run(c, root, &runs, start, &len, i, &work);
		if (!ok) {
			end_run(c, root, &runs, start, &len, i, &work);
			continue;
		}
		if (len++ == 0)
			start = i;
		work += cost_mt(&c->cost, mt);
	}
	for (uint32_t i = 1; i < runs.len; i++) /* insertion sort: stable, few runs */
		for (uint32_t k = i; k > 0 && runs.items[k].work > runs.items[k - 1].work; k--) {
			Run t = runs.items[k];

			runs.items[k] = runs.items[k - 1];
			runs.items[k - 1] = t;
		}
	return runs;
}

/* The run of root's task-worthy MTs with the most work (the first of equal ones). */
static bool best_span(PlanCtx *c, const MT *root, uint32_t *first, uint32_t *last, double *work)
{
	RunList runs = span_runs(c, root);
	bool any = runs.len > 0;

	if (any) {
		*first = runs.items[0].first;
		*last = runs.items[0].last;
		*work = runs.items[0].work;
	}
	array_free(&runs);
	return any;
}

/* ------------------------------------------------------------------ */
/* Choosing the function                                               */
/* ------------------------------------------------------------------ */

/* What attribute adds to: the weight of the calls it meets. */
typedef struct Attr {
	PlanCtx *c;
	double mult;           /* the trips of the loops around them */
	double *attr;          /* per Func.id */
} Attr;

static void attribute_call(Expr *e, void *ctx)
{
	Attr *a = ctx;

	if (e->kind == EX_CALL && e->callee_func)
		a->attr[e->callee_func->id] += a->mult * cost_func(&a->c->cost, e->callee_func);
}

static void attribute_expr(PlanCtx *c, const Expr *e, double mult, double *attr)
{
	Attr a = { c, mult, attr };

	ir_visit_expr((Expr *)e, attribute_call, &a);
}

/* attr[g] += the work of f's calls to g, times the trips of the loops around them. */
static void attribute(PlanCtx *c, const Stmt *s, double mult, double *attr)
{
	if (!s)
		return;
	attribute_expr(c, s->expr, mult, attr);
	attribute(c, s->then, mult, attr);
	attribute(c, s->els, mult, attr);
	for (uint32_t i = 0; i < s->body.len; i++)
		attribute(c, s->body.items[i], mult, attr);
	if (s->loop) {
		for (uint32_t i = 0; i < s->loop->init.len; i++)
			attribute(c, s->loop->init.items[i], mult, attr);
		mult *= cost_loop_trips(&c->cost, s);
		attribute_expr(c, s->loop->cond, mult, attr);
		attribute_expr(c, s->loop->step, mult, attr);
		attribute(c, s->loop->body, mult, attr);
	}
}

/*
 * Has f a level a plan may take: two MTs or more of its own, or in its one
 * loop's body, or a loop in that body (a time loop around one sweep,
 * which the caller cannot split but f's plan may)?
 */
static bool has_levels(const Func *f)
{
	const MT *m = f->mt, *loop;

	if (!m || m->children.len >= 2)
		return m != NULL;
	if (m->children.len != 1 || m->children.items[0]->kind != MT_RB)
		return false;
	loop = m->children.items[0];
	return loop->children.len >= 2 ||
	       (loop->children.len == 1 && loop->children.items[0]->kind == MT_RB);
}

/* The callee (with at least two MTs, or one loop around them) holding most of f's work, NULL if none. */
static Func *big_callee(PlanCtx *c, Func *f, double *attr)
{
	uint32_t n = c->prog->funcs.len;
	Func *g = NULL;

	memset(attr, 0, n * sizeof(*attr));
	attribute(c, f->body, 1, attr);
	for (uint32_t i = 0; i < n; i++) {
		Func *h = c->prog->funcs.items[i];

		if (h != f && has_levels(h) && attr[i] > 0 &&
		    (!g || attr[i] > attr[g->id]))
			g = h;
	}
	return g;
}

static ParPlan *plan_function(PlanCtx *c, Func *f);

/* Waits of a schedule: edges between tasks on different cores. */
static uint32_t cross_core_edges(const TaskGraph *g, const Schedule *s)
{
	uint32_t n = 0;

	for (uint32_t t = 0; t < g->tasks.len; t++)
		for (uint32_t i = 0; i < g->tasks.items[t].pred.len; i++)
			n += s->core_of[g->tasks.items[t].pred.items[i]] != s->core_of[t];
	return n;
}

/* The runtime's part of one run of the region: the fork and join, and the waits spread over the cores. */
static double runtime_cost(const PlanCtx *c, const ParPlan *p)
{
	double waits = cross_core_edges(&p->graph, p->sched) * WAIT_COST / c->ncores;

	if (c->unlimited)
		return 0;
	if (p->dynamic) /* every task goes through the scheduler's queue */
		return FORK_COST + p->tasks.len * DYN_TASK_COST / c->ncores;
	if (p->one_fork)
		return FORK_COST / p->reps + BARRIER_COST + waits;
	return FORK_COST + waits;
}

/* One run of the region, the runtime included. */
static double region_time(const ParPlan *p)
{
	return p->sched->makespan + p->runtime_cost;
}

/* The work a plan saves per call of its function; 0 when it stays sequential. */
static double saving_of(const ParPlan *p)
{
	return p->why_not ? 0 : (p->sched->seq_time - region_time(p)) * p->reps - p->start_cost;
}

/* The work f's plan would save (0 if it stays sequential); uses up no clone id. */
static double plan_saving(PlanCtx *c, Func *f)
{
	int next = c->next_clone;
	ParPlan *p = plan_function(c, f);
	double saving = saving_of(p);

	sched_free_graph(&p->graph);
	c->next_clone = next;
	return saving;
}

/*
 * The function to plan for a root: the root itself or one of the callees
 * down the chain of those holding most of the work (main() calling the
 * network once per run, TVM's tvmgen_default_run calling run_model),
 * whichever plan saves the most work; ties go to the shallower one.  When
 * none saves anything, the one with the longest span (the caller of the
 * operators: its remark is the one worth reading).
 */
static Func *choose_function(PlanCtx *c, Func *root)
{
	uint32_t n = c->prog->funcs.len, first = 0, last = 0, longest = 0;
	double *attr = xcalloc(n ? n : 1, sizeof(*attr));
	double best_saving = -1, saving, work;
	Func *best = root, *caller = root, *f = root;

	for (int depth = 0; f && depth <= MAX_DESCENT; depth++, f = big_callee(c, f, attr)) {
		saving = plan_saving(c, f);
		if (saving > best_saving) {
			best = f;
			best_saving = saving;
		}
		if (f->mt && best_span(c, f->mt, &first, &last, &work) && last - first + 1 > longest) {
			caller = f;
			longest = last - first + 1;
		}
	}
	free(attr);
	return best_saving > 0 ? best : caller;
}

/* ------------------------------------------------------------------ */
/* Tasks and the task graph                                            */
/* ------------------------------------------------------------------ */

static void add_whole(PlanCtx *c, ParPlan *p, MT *mt, bool fold, const char *note)
{
	ParTask t;

	memset(&t, 0, sizeof(t));
	t.kind = TASK_WHOLE;
	t.mt = mt;
	t.fold_guard = fold;
	t.cost = cost_mt(&c->cost, mt);
	t.summary = mt->summary;
	t.name = plan_fmt("MT%d", mt->id);
	t.note = note;
	t.on_core0 = plan_touches_state(mt->summary);
	if (mt->kind == MT_RB && !fold) /* run inside the outlined region: see ivdep.c */
		ivdep_loops(mt->func, mt->loop, &t.simd);
	array_push(&p->tasks, t);
}

/* A task per chunk: of mt's callee clone cl, or (cl NULL) slices of mt's own loop sl. */
static void add_chunk_tasks(ParPlan *p, MT *mt, bool fold, Clone *cl, SplitLoop *sl,
                            const ChunkList *chunks)
{
	uint32_t first = 0, end = 0; /* ch's part's chunks: they come part by part */

	for (uint32_t k = 0; k < chunks->len; k++) {
		const Chunk *ch = &chunks->items[k];
		ParTask t;

		if (k == end) {
			first = k;
			while (end < chunks->len && chunks->items[end].part == ch->part)
				end++;
		}

		memset(&t, 0, sizeof(t));
		t.kind = cl ? TASK_CHUNK : TASK_SLICE;
		t.mt = mt;
		t.fold_guard = fold;
		t.clone = cl;
		t.slice = sl;
		t.part = ch->part;
		t.lo = ch->lo;
		t.hi = ch->hi;
		t.chunk = (int)(k - first);
		t.nchunks = (int)(end - first);
		t.cost = ch->cost;
		t.summary = ch->sum;
		t.name = cl ? plan_fmt("MT%d.p%d[%lld:%lld)", mt->id, ch->part, (long long)ch->lo,
		                  (long long)ch->hi)
		            : plan_fmt("MT%d[%lld:%lld)", mt->id, (long long)ch->lo, (long long)ch->hi);
		array_push(&p->tasks, t);
	}
}

static void add_mt_tasks(PlanCtx *c, ParPlan *p, MT *mt)
{
	ChunkList chunks = { 0 };
	const char *why = NULL;
	bool fold = false;
	SplitLoop *sl;
	Clone *cl;

	task_ok(mt, !c->plain_regions, &fold, &why);
	if (mt->kind == MT_RB) {
		sl = ARENA_NEW(SplitLoop);
		if (decomp_loop(c, mt, sl, &chunks, &why))
			add_chunk_tasks(p, mt, fold, NULL, sl, &chunks);
		else
			add_whole(c, p, mt, fold, why);
	} else if (mt->kind != MT_SB) {
		add_whole(c, p, mt, fold, NULL);
	} else if ((cl = decomp_call(c, p, mt, &chunks, &why))) {
		add_chunk_tasks(p, mt, fold, cl, NULL, &chunks);
	} else {
		add_whole(c, p, mt, fold, why);
	}
	array_free(&chunks);
}

/* Data a flow dependence carries from one task to the other. */
static double flow_bytes(const Dep *deps, uint32_t n)
{
	double sum = 0;

	for (uint32_t i = 0; i < n && i < MAX_DEPS; i++)
		if (deps[i].kind == DEP_FLOW)
			sum += cost_shared_bytes(&deps[i].from->region, &deps[i].to->region);
	return sum;
}

typedef struct Edge {
	uint32_t from, to;
	double bytes;
} Edge;

/*
 * One task per ParTask, an edge wherever two summaries conflict, minus the
 * edges another path already implies (a core waits on fewer flags).
 */
static void build_graph(ParPlan *p)
{
	uint32_t n = p->tasks.len;
	Array(Edge) edges = { 0 };
	Array(uint32_t) *succ = xcalloc(n ? n : 1, sizeof(*succ));
	Bitset *reach = arena_alloc((n ? n : 1) * sizeof(*reach));
	Dep deps[MAX_DEPS];

	for (uint32_t i = 0; i < n; i++) {
		sched_add_task(&p->graph, p->tasks.items[i].name, p->tasks.items[i].cost,
		                   p->tasks.items[i].on_core0 ? 0 : -1);
		sched_set_chunk(&p->graph, i, p->tasks.items[i].chunk, p->tasks.items[i].nchunks);
	}
	for (uint32_t j = 0; j < n; j++) {
		for (uint32_t i = 0; i < j; i++) {
			const ParTask *a = &p->tasks.items[i], *b = &p->tasks.items[j];
			uint32_t k;
			Edge e = { i, j, 0 };

			if (p->dynamic && plan_exclusive(a->mt, b->mt))
				continue; /* never both run: no order between them */
			k = dep_summary_collect(a->summary, b->summary, deps, MAX_DEPS);
			if (!k && !(p->dynamic && b->ctl == (int)i))
				continue;
			e.bytes = k ? flow_bytes(deps, k) : 0;
			array_push(&succ[i], edges.len);
			array_push(&edges, e);
		}
	}
	/* transitive reduction: successors in increasing order, latest tasks first */
	for (uint32_t i = n; i-- > 0;) {
		bitset_init(&reach[i], n);
		for (uint32_t k = 0; k < succ[i].len; k++) {
			Edge *e = &edges.items[succ[i].items[k]];

			if (bitset_has(&reach[i], e->to)) {
				e->to = UINT32_MAX; /* implied */
				continue;
			}
			bitset_set(&reach[i], e->to);
			bitset_union(&reach[i], &reach[e->to]);
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t k = 0; k < succ[i].len; k++) {
			const Edge *e = &edges.items[succ[i].items[k]];

			if (e->to != UINT32_MAX)
				sched_add_edge(&p->graph, e->from, e->to, e->bytes);
		}
		array_free(&succ[i]);
	}
	free(succ);
	array_free(&edges);
}

/* ------------------------------------------------------------------ */
/* Plans                                                               */
/* ------------------------------------------------------------------ */

/* Why no MT of f can run in a parallel region: the first MT's reason. */
static const char *no_span_why(const PlanCtx *c, const Func *f)
{
	bool fold;
	const char *why = "no macro task";

	if (f->mt && mt_level_crowded(f->mt))
		return unmodelled_name[UM_TOO_MANY_MTS];
	for (uint32_t i = 0; f->mt && i < f->mt->children.len; i++) {
		const MT *mt = f->mt->children.items[i];

		if (!task_ok(mt, !c->plain_regions, &fold, &why))
			return plan_fmt("no macro task can run in a parallel region (MT%d: %s)", mt->id, why);
	}
	return why;
}

static void drop_tasks(ParPlan *p)
{
	p->tasks.len = 0;
	p->clones.len = 0;
	p->apart.len = 0;
	sched_free_graph(&p->graph);
	p->sched = NULL;
}

/* Does later depend on earlier through something besides the allocator and I/O state? */
static bool data_dep(const MT *earlier, const MT *later)
{
	Dep deps[MAX_DEPS];
	uint32_t n = dep_summary_collect(earlier->summary, later->summary, deps, MAX_DEPS);

	if (n > MAX_DEPS)
		return true;
	for (uint32_t i = 0; i < n; i++)
		if (!deps[i].object || obj_kind(deps[i].object) != OBJ_STATE)
			return true;
	return false;
}

/* reach[j]: the span MTs (index from first) that span MT j depends on, transitively. */
static Bitset *span_deps(const MT *root, uint32_t first, uint32_t n)
{
	Bitset *reach = arena_alloc(n * sizeof(*reach));

	for (uint32_t j = 0; j < n; j++) {
		bitset_init(&reach[j], n);
		for (uint32_t i = j; i-- > 0;) {
			if (bitset_has(&reach[j], i) ||
			    !data_dep(root->children.items[first + i], root->children.items[first + j]))
				continue;
			bitset_set(&reach[j], i);
			bitset_union(&reach[j], &reach[i]);
		}
	}
	return reach;
}

/* A workspace-taking SB of the span: the slot its workspace sc goes to. */
static void slot_for(ParPlan *p, const Bitset *reach, uint32_t j, const MT *mt,
                     const Scratch *sc)
{
	uint32_t s;
	WsSlot *ws;

	for (s = 0; !sc->zeroed && s < p->slots.len; s++) { /* one whose last user j depends on */
		ws = &p->slots.items[s];
		if (!ws->zeroed && ws->last != j && bitset_has(&reach[j], ws->last))
			break;
	}
	if (sc->zeroed || s == p->slots.len) {
		WsSlot nw = { scratch_buffer(plan_fmt("<workspace %u of %s>", s, name_of(p->func))), mt, sc,
		              false, sc->zeroed, j };

		s = p->slots.len;

		array_push(&p->slots, nw);
	}
	ws = &p->slots.items[s];
	if (sc->size > ws->sc->size) {
		ws->sb = mt;
		ws->sc = sc;
	}
	ws->last = j;
	scratch_bind(mt, sc->var, ws->obj);
}

/*
 * Gives each top-level workspace of the span's calls a slot, in program
 * order: a slot whose last user the call already depends on, else a new
 * one; a zeroed workspace (calloc) always a new one, which no later call
 * shares: the zeros are what the allocator gives each call.  Before decomp_call, which summarizes chunks with the slots' objects.
 */
static void assign_slots(ParPlan *p, uint32_t first, uint32_t last)
{
	uint32_t n = last - first + 1;
	Bitset *reach = span_deps(p->root, first, n);

	for (uint32_t j = 0; j < n; j++) {
		const MT *mt = p->root->children.items[first + j];
		bool only;
		const ScratchList *l;

		if (mt->kind != MT_SB || !plan_workspace_only(mt->callee))
			continue;
		l = scratch_list(mt->callee, &only);
		for (uint32_t k = 0; k < l->len; k++)
			if (l->items[k].top)
				slot_for(p, reach, j, mt, &l->items[k]);
	}
}

/* Slots that some chunk task uses; the others are never taken. */
static void mark_slots(ParPlan *p)
{
	for (uint32_t t = 0; t < p->tasks.len; t++) {
		const ParTask *task = &p->tasks.items[t];
		bool only;
		const ScratchList *l;

		if (task->kind != TASK_CHUNK)
			continue;
		l = scratch_list(task->mt->callee, &only);
		for (uint32_t k = 0; k < l->len; k++) {
			Var *obj = l->items[k].top ? scratch_object(task->mt, l->items[k].var) : NULL;

			for (uint32_t s = 0; obj && s < p->slots.len; s++)
				p->slots.items[s].used |= p->slots.items[s].obj == obj;
		}
	}
}

/*
 * A check of a wider reach could never pass (no tensor is that large) and
 * could overflow the runtime's pointer arithmetic: plan without the assumption.
 */
#define MAX_CHECKED_REACH ((int64_t)1 << 40)

/* Widens [*lo, *hi) by what summary s reaches of o (*any: something before); false if unbounded. */
static bool summary_reach(const Summary *s, const Var *o, int64_t *lo, int64_t *hi, bool *any)
{
	for (uint32_t i = 0; s && i < s->acc.len; i++) {
		const Region *r = &s->acc.items[i].region;

		if (r->base != o)
			continue;
		if (r->whole || !r->ranges.len)
			return false;
		for (uint32_t k = 0; k < r->ranges.len; k++) {
			const ByteRange *b = &r->ranges.items[k];

			if (b->lo < -MAX_CHECKED_REACH || b->hi > MAX_CHECKED_REACH)
				return false;
			*lo = *any && *lo < b->lo ? *lo : b->lo;
			*hi = *any && *hi > b->hi ? *hi : b->hi;
			*any = true;
		}
	}
	return true;
}

/*
 * The bytes from loaded object o's pointer that p's tasks reach; false if
 * unbounded.  Inside a loop, the tasks' summaries hold the loop's counter
 * unbounded (one iteration's view: `A[r][t]` reaches any t), so the loop's
 * own summary, over all its iterations, gives the reach.
 */
static bool reach_of(const ParPlan *p, const Var *o, int64_t *lo, int64_t *hi)
{
	bool any = false;

	if (p->root != p->func->mt && p->root->summary)
		return summary_reach(p->root->summary, o, lo, hi, &any) && any;
	for (uint32_t t = 0; t < p->tasks.len; t++)
		if (!summary_reach(p->tasks.items[t].summary, o, lo, hi, &any))
			return false;
	return any;
}

/* Is pointer v declared and given its value before byte start? */
static bool set_before(const Var *v, uint32_t start)
{
	const VarInfo *vi = acc_lookup(v);

	return v->end <= start && (!vi || !vi->def || vi->def->end <= start);
}

/*
 * The checks that make the plan's assumption true (the loaded pointers'
 * memories it took for apart): each pair's reach from its two pointers,
 * both set before the span.  False when one cannot be made.
 */
static bool apart_checks(ParPlan *p)
{
	uint32_t n;
	const Var *const *pairs = obj_assumed(&n);
	uint32_t start = p->root->children.items[p->first]->start;

	p->apart.len = 0;
	for (uint32_t i = 0; i < n; i++) {
		ApartCheck ck;

		if (!reach_of(p, pairs[2 * i], &ck.alo, &ck.ahi) ||
		    !reach_of(p, pairs[2 * i + 1], &ck.blo, &ck.bhi))
			return false;
		ck.a = obj_origin(pairs[2 * i]);
		ck.b = obj_origin(pairs[2 * i + 1]);
		if (!ck.a || !ck.b || !set_before(ck.a, start) || !set_before(ck.b, start))
			return false;
		array_push(&p->apart, ck);
	}
	return true;
}

/* Tasks and their graph; with assume, loaded pointers' memories taken for apart. */
static void plan_tasks(PlanCtx *c, ParPlan *p, bool assume)
{
	obj_assume_apart(assume ? p->func : NULL);
	assign_slots(p, p->first, p->last);
	for (uint32_t i = p->first; i <= p->last; i++)
		add_mt_tasks(c, p, p->root->children.items[i]);
	p->measured_ratio = measured_apply(c->measured, p->func, p->root, &p->tasks);
	mark_slots(p);
	plan_control(p);
	build_graph(p);
	obj_assume_apart(NULL);
}

/*
 * The share of the team's start that one run of f pays: all of it where f
 * runs once per program run, a part where it runs a bounded few times
 * (op() called twice from main), none where it may run without bound, or
 * where a plan taken before pays for it (the team starts once a program).
 */
static double start_share(PlanCtx *c, const Func *f)
{
	return c->team_paid ? 0 : TEAM_START_COST / runs_bound(c->runs, f);
}

/* Does a plan of plans[0..) run in parallel: then the threads' start is paid for. */
static void note_team_paid(PlanCtx *c, const PlanList *plans)
{
	for (uint32_t i = 0; i < plans->len; i++)
		c->team_paid |= !plans->items[i]->why_not;
}

/*
 * A loop split at run time does not know how often it will be split: a
 * function that the text runs a bounded number of times (several calls
 * from main, each with other sizes) pays for the team's start from each,
 * shared among the region's runs per call (a loop inside a loop of known
 * trips: lu's row loop forks once per pivot).
 */
double plan_min_region_work(PlanCtx *c, const Func *f, double runs)
{
	double share = MIN_GAIN - 1.0 / c->ncores; /* of the work, what the cores save */
	double start = start_share(c, f) / (runs > 1 ? runs : 1);

	if (c->unlimited)
		return 0;
	return (FORK_COST + start) / (share > 0.05 ? share : 0.05);
}

/* The test of rejection() that a plan fails, in the order they are made. */
typedef enum { PAYS, NO_WORK, SPAN_TOO_SMALL, FUNC_TOO_SMALL, START_ONCE, START_PER_RUN } Verdict;

/*
 * A scheduled plan pays when its region, the runtime's costs included,
 * beats the span's sequential time by 5%, saves 5% of the whole
 * function's work, and pays for starting the threads where the function
 * runs once.  --cost-model=unlimited asks for any gain at all.
 */
static Verdict verdict(const PlanCtx *c, const ParPlan *p)
{
	double region = region_time(p), seq = p->sched->seq_time, gain = (seq - region) * p->reps;

	if (!(seq > 0))
		return NO_WORK;
	if (c->unlimited ? !(region < seq) : !(region <= MIN_GAIN * seq))
		return SPAN_TOO_SMALL;
	if (!c->unlimited && gain < (1 - MIN_GAIN) * p->func_cost)
		return FUNC_TOO_SMALL;
	if (gain < p->start_cost)
		return p->start_cost >= TEAM_START_COST ? START_ONCE : START_PER_RUN;
	return PAYS;
}

/* Why a plan fails test v, or NULL when it pays. */
static const char *rejection(const PlanCtx *c, const ParPlan *p, Verdict v)
{
	double region = region_time(p), seq = p->sched->seq_time, gain = (seq - region) * p->reps;

	switch (v) {
	case NO_WORK:
		return plan_fmt("the span has no work to share (%u task%s)", p->tasks.len,
		                p->tasks.len == 1 ? "" : "s");
	case SPAN_TOO_SMALL:
		return plan_fmt("predicted speedup %.2f on %d cores (%u task%s%s%s) is too small",
		                seq / region, c->ncores, p->tasks.len, p->tasks.len == 1 ? "" : "s",
		                p->reps <= 1  ? ""
		                : p->one_fork ? ", a barrier per iteration"
		                              : ", a fork per iteration",
		                c->unlimited ? "" : ", the fork and waits counted");
	case FUNC_TOO_SMALL:
		return plan_fmt("predicted speedup %.2f for the whole function on %d cores is too "
		                "small: the span is %.0f%% of its work",
		                p->func_cost / (p->func_cost - gain), c->ncores,
		                100 * seq * p->reps / p->func_cost);
	case START_ONCE:
		return plan_fmt("the predicted gain, %.2g ms, does not pay for starting the threads "
		                "(%.2g ms) in a function that runs once",
		                gain / UNITS_PER_MS, p->start_cost / UNITS_PER_MS);
	case START_PER_RUN:
		return plan_fmt("the predicted gain, %.2g ms per run, does not pay for starting the "
		                "threads (%.2g ms) in a function that runs %.0f times",
		                gain / UNITS_PER_MS, TEAM_START_COST / UNITS_PER_MS,
		                TEAM_START_COST / p->start_cost);
	case PAYS:
		break;
	}
	return NULL;
}

/* f's plan for the span root->children[first..last], a level that runs reps times per call. */
static ParPlan *plan_span(PlanCtx *c, Func *f, MT *root, double reps, uint32_t first, uint32_t last)
{
	ParPlan *p = ARENA_NEW(ParPlan);
	Verdict v;

	p->func = f;
	p->root = root;
	p->reps = reps;
	p->first = first;
	p->last = last;
	if (c->ncores < 2) {
		p->why_not = "one core";
		return p;
	}
	plan_tasks(c, p, true);
	if (!apart_checks(p)) {
		drop_tasks(p);
		p->slots.len = 0;
		plan_tasks(c, p, false);
	}
	p->sched = sched_graph(&p->graph, c->ncores, TRANSFER_PER_BYTE);
	for (uint32_t i = 0; i < f->mt->children.len; i++) /* the loop with its own region apart */
		if (f->mt->children.items[i] != c->avoid_mt)
			p->func_cost += cost_mt(&c->cost, f->mt->children.items[i]);
	p->func_cost *= p->measured_ratio; /* in the units of the tasks' measured costs */
	if ((p->why_not = plan_dynamic_why(p))) {
		drop_tasks(p);
		return p;
	}
	p->one_fork = root != f->mt && !plan_one_fork_why(c, p);
	p->runtime_cost = runtime_cost(c, p);
	/* around a loop with a region (plan_around_loops): that plan paid for the team */
	p->start_cost = !c->unlimited && !c->avoid_mt ? start_share(c, f) : 0;
	p->gain_total = (p->sched->seq_time - region_time(p)) * p->reps * runs_bound(c->runs, f);
	v = verdict(c, p);
	p->why_not = rejection(c, p, v);
	p->start_only = v == START_ONCE || v == START_PER_RUN; /* pooled in plan_program */
	if (p->why_not) {
		p->considered = p->tasks; /* the clones they point to stay in the arena */
		memset(&p->tasks, 0, sizeof(p->tasks));
		drop_tasks(p);
	}
	return p;
}

enum { MAX_RUNS = 8 }; /* the runs of a level tried, most work first */

/*
 * f's plan at root's level: of its runs of task-worthy MTs (brace-bounded),
 * the one whose plan saves the most; made again from the same clone number
 * so that the plans tried leave no gaps.  The first run's plan when none
 * pays (its reasons are the ones reported).
 */
static ParPlan *plan_level(PlanCtx *c, Func *f, MT *root, double reps)
{
	RunList runs = span_runs(c, root);
	int next = c->next_clone;
	uint32_t best = 0, n = runs.len < MAX_RUNS ? runs.len : MAX_RUNS;
	double most = 0;
	ParPlan *p;

	if (!n) {
		p = ARENA_NEW(ParPlan);
		p->func = f;
		p->root = root;
		p->reps = reps;
		p->why_not = no_span_why(c, f);
		array_free(&runs);
		return p;
	}
	for (uint32_t i = 0; n > 1 && i < n; i++) {
		p = plan_span(c, f, root, reps, runs.items[i].first, runs.items[i].last);
		if (saving_of(p) > most) {
			most = saving_of(p);
			best = i;
		}
		sched_free_graph(&p->graph);
		c->next_clone = next;
	}
	p = plan_span(c, f, root, reps, runs.items[best].first, runs.items[best].last);
	array_free(&runs);
	return p;
}

/*
 * The top-level loop of f with the most work whose body has MTs of its
 * own and a known trip count: a time loop around parallel sweeps.
 */
static MT *heaviest_loop(PlanCtx *c, const Func *f)
{
	MT *best = NULL;
	double most = 0;

	for (uint32_t i = 0; f->mt && i < f->mt->children.len; i++) {
		MT *mt = f->mt->children.items[i];
		double w;

		if (mt->kind != MT_RB || !mt->children.len || mt->loop->loop->trip_count < 2 ||
		    mt->branch_mt || mt->unmodelled)
			continue;
		w = cost_mt(&c->cost, mt);
		if (w > most) {
			most = w;
			best = mt;
		}
	}
	return best;
}

/*
 * f's plan: a span of its top-level MTs; when none pays, a span inside
 * the body of its heaviest loop (a stencil's time loop whose sweeps are
 * parallel: one region around the loop when onefork.c allows, else a
 * fork per iteration).
 */
static ParPlan *plan_function(PlanCtx *c, Func *f)
{
	ParPlan *p = plan_level(c, f, f->mt, 1), *q;
	MT *loop;

	if (!p->why_not || c->ncores < 2 || !(loop = heaviest_loop(c, f)))
		return p;
	q = plan_level(c, f, loop, (double)loop->loop->loop->trip_count);
	return q->why_not ? p : q;
}

/* The functions reachable from p's span, transitively. */
static void plan_reach(PlanCtx *c, const ParPlan *p, Bitset *out)
{
	span_reach(c, &p->root->children.items[p->first], p->last - p->first + 1, out);
}

/*
 * No nested parallel regions: a plan whose function a parallelized span
 * reaches, or whose span reaches a parallelized function (or itself),
 * stays sequential.
 */
static void check_nesting(PlanCtx *c, PlanList *plans, Bitset *reach, ParPlan *p)
{
	Bitset mine;

	plan_reach(c, p, &mine);
	if (bitset_has(&mine, (uint32_t)p->func->id)) {
		p->why_not = "its span calls it back";
		drop_tasks(p);
		return;
	}
	for (uint32_t i = 0; i < plans->len; i++) {
		const ParPlan *q = plans->items[i];

		if (q->why_not)
			continue;
		if (bitset_has(&reach[i], (uint32_t)p->func->id)) {
			p->why_not = plan_fmt("called from the parallel span of %s", name_of(q->func));
			drop_tasks(p);
			return;
		}
		if (bitset_has(&mine, (uint32_t)q->func->id)) {
			p->why_not = plan_fmt("its span calls %s, which is parallelized", name_of(q->func));
			drop_tasks(p);
			return;
		}
	}
	reach[plans->len] = mine;
}

/* The functions that have a parallel region, or that one runs. */
static Bitset *busy_functions(PlanCtx *c, const PlanList *plans)
{
	Bitset *busy = ARENA_NEW(Bitset);

	bitset_init(busy, c->prog->funcs.len);
	for (uint32_t i = 0; i < plans->len; i++) {
		const ParPlan *p = plans->items[i];
		Bitset mine;

		if (p->why_not || !p->tasks.len)
			continue;
		bitset_set(busy, (uint32_t)p->func->id);
		plan_reach(c, p, &mine);
		bitset_union(busy, &mine);
	}
	return busy;
}

/* A second plan of a function goes to plans when it pays and nests in no other region. */
static void add_second_plan(PlanCtx *c, PlanList *plans, Bitset *reach, ParPlan *p)
{
	if (p->why_not && p->start_only)
		c->start_refused += p->gain_total; /* plan_program may pool it with others */
	if (p->why_not)
		return;
	memset(&reach[plans->len], 0, sizeof(reach[0]));
	check_nesting(c, plans, reach, p);
	if (!p->why_not)
		array_push(plans, p);
}

/*
 * A root whose plan went to a callee (main calling a kernel with a time
 * loop) may have work of its own besides (the arrays' initialization): a
 * second plan of the root, whose spans reach no function with a region.
 * The first n plans are the candidates'; roots[k] the root of the k-th.
 */
static void plan_roots_around(PlanCtx *c, PlanList *plans, Bitset *reach, Func *const *roots,
                              uint32_t n)
{
	Bitset *busy = busy_functions(c, plans);

	c->avoid = busy;
	for (uint32_t k = 0; k < n; k++) {
		ParPlan *p;

		if (roots[k] == plans->items[k]->func || plans->items[k]->why_not ||
		    bitset_has(busy, (uint32_t)roots[k]->id))
			continue;
		p = plan_function(c, roots[k]);
		add_second_plan(c, plans, reach, p); /* else the callee's plan is the one reported */
	}
	c->avoid = NULL;
}

/*
 * A function whose plan went inside its heaviest loop (a time loop in
 * main) may have work of its own around that loop (the arrays'
 * initialization before it, a sweep after it): more plans of its top
 * level, whose spans hold neither the loop, nor a span taken before, nor
 * calls of functions with a region.  The first n plans are the candidates'.
 */
static void plan_around_loops(PlanCtx *c, PlanList *plans, Bitset *reach, uint32_t n)
{
	c->avoid = busy_functions(c, plans);
	for (uint32_t k = 0; k < n; k++) {
		ParPlan *q = plans->items[k], *p;
		uint32_t before;

		if (q->why_not || q->root == q->func->mt)
			continue;
		c->avoid_mt = q->root;
		do {
			before = plans->len;
			p = plan_level(c, q->func, q->func->mt, 1);
			add_second_plan(c, plans, reach, p); /* else the loop's plan is the one reported */
			if (plans->len > before)
				c->taken[c->ntaken++] = p;
		} while (plans->len > before && c->ntaken < sizeof(c->taken) / sizeof(c->taken[0]));
		c->avoid_mt = NULL;
		c->ntaken = 0;
	}
	c->avoid = NULL;
}

/* Has f a plan in plans, made or rejected? */
static bool has_plan(const PlanList *plans, const Func *f)
{
	for (uint32_t i = 0; i < plans->len; i++)
		if (plans->items[i]->func == f)
			return true;
	return false;
}

static CostModel *sort_cost;

/* Heaviest first: a caller before the callees whose work it holds. */
static int by_cost_down(const void *a, const void *b)
{
	double x = cost_func(sort_cost, *(Func *const *)a), y = cost_func(sort_cost, *(Func *const *)b);

	return (x < y) - (x > y);
}

/* Has f a loop or a call at its top level: something --report should say was not split? */
static bool holds_loop_or_call(const Func *f)
{
	for (uint32_t i = 0; i < f->mt->children.len; i++)
		if (f->mt->children.items[i]->kind != MT_BB)
			return true;
	return false;
}

/*
 * The functions that no plan covers: one called beside the callee that a
 * root's plan went into, when the caller's own span is cut (`ret = op1(...);
 * if (ret != 0) return ret;`), would else stay sequential while its sibling
 * forks.  Each gets a plan of its own, heaviest first, where it pays and
 * nests in no other region; one that does not pay goes to c->refused,
 * for --report.
 */
static void plan_uncovered(PlanCtx *c, PlanList *plans, Bitset *reach)
{
	Array(Func *) todo = { 0 };
	Bitset *busy = busy_functions(c, plans);

	for (uint32_t i = 0; i < c->prog->funcs.len; i++) {
		Func *f = c->prog->funcs.items[i];

		if (f->body && f->mt && has_levels(f) && !bitset_has(busy, (uint32_t)f->id) &&
		    !has_plan(plans, f))
			array_push(&todo, f);
	}
	sort_cost = &c->cost;
	if (todo.len > 1) /* qsort wants an array, even for none */
		qsort(todo.items, todo.len, sizeof(todo.items[0]), by_cost_down);
	for (uint32_t k = 0; k < todo.len; k++) {
		uint32_t before = plans->len;
		ParPlan *p;

		if (bitset_has(busy, (uint32_t)todo.items[k]->id))
			continue;
		c->avoid = busy;
		p = plan_function(c, todo.items[k]);
		add_second_plan(c, plans, reach, p);
		c->avoid = NULL;
		if (plans->len > before) {
			busy = busy_functions(c, plans);
			note_team_paid(c, plans);
		} else if (c->refused && c->ncores > 1 && holds_loop_or_call(todo.items[k])) {
			array_push(c->refused, p);
		}
	}
	array_free(&todo);
}

/*
 * The plans of the program; with team_paid, as if another plan had paid
 * for starting the threads.  *refused: what the plans refused only for
 * starting the threads would save.
 */
static PlanList plan_all(Program *prog, const PlanOptions *opts, bool team_paid, double *refused,
                         PlanList *quiet)
{
	uint32_t n = prog->funcs.len;
	PlanList plans = { 0 };
	Array(Func *) cands = { 0 }, roots = { 0 }; /* roots.items[k]: the root cands.items[k] serves */
	Bitset called, *reach;
	PlanCtx c;

	memset(&c, 0, sizeof(c));
	c.team_paid = team_paid;
	c.refused = quiet;
	c.prog = prog;
	c.ncores = opts->ncores < 1 ? 1 : opts->ncores;
	c.unlimited = opts->unlimited;
	c.measured = opts->measured;
	c.plain_regions = opts->plain_regions;
	c.runs = runs_index(prog);
	cost_init(&c.cost, prog);
	build_calls(&c);
	bitset_init(&called, n);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t g = 0; bitset_iter(&c.calls[i], &g); g++)
			if (g != i)
				bitset_set(&called, g);
	/* the roots, each through the callees that hold its work */
	for (uint32_t i = 0; i < n; i++) {
		Func *f = prog->funcs.items[i], *root;
		bool seen = false;

		if (bitset_has(&called, i) || !f->body || !f->mt)
			continue;
		root = f;
		f = choose_function(&c, f);
		for (uint32_t k = 0; k < cands.len; k++)
			seen |= cands.items[k] == f;
		if (!seen) {
			array_push(&cands, f);
			array_push(&roots, root);
		}
	}
	reach = arena_alloc((3 * cands.len + n + 1) * sizeof(*reach)); /* plans: at most 3 a candidate, 1 a function besides */
	for (uint32_t k = 0; k < cands.len; k++) {
		ParPlan *p = plan_function(&c, cands.items[k]);

		memset(&reach[plans.len], 0, sizeof(reach[0]));
		if (!p->why_not)
			check_nesting(&c, &plans, reach, p);
		array_push(&plans, p);
	}
	plan_around_loops(&c, &plans, reach, cands.len);
	note_team_paid(&c, &plans);
	plan_roots_around(&c, &plans, reach, roots.items, cands.len);
	note_team_paid(&c, &plans);
	plan_uncovered(&c, &plans, reach);
	note_team_paid(&c, &plans);
	plan_rt_loops(&c, &plans, busy_functions(&c, &plans));
	*refused = c.start_refused;
	for (uint32_t i = 0; i < plans.len; i++)
		if (plans.items[i]->why_not && plans.items[i]->start_only)
			*refused += plans.items[i]->gain_total;
	array_free(&roots);
	array_free(&cands);
	cost_free(&c.cost);
	runs_index_free(c.runs);
	return plans;
}

/* What the plans taken save in a program run. */
static double plans_gain(const PlanList *plans)
{
	double taken = 0;

	for (uint32_t i = 0; i < plans->len; i++)
		if (!plans->items[i]->why_not)
			taken += plans->items[i]->gain_total;
	return taken;
}

/*
 * The team of threads starts once a program run, whichever plan starts it.
 * Where no plan pays for that alone but several together would (an
 * initialisation loop in main, then a kernel that main calls: 2.7 and
 * 2.4 ms against a 3 ms start), the program is planned again as if the
 * start were paid, and that planning is kept when what its plans save
 * pays for it.  Plans a rt loop makes (rtloops.c) pay their own way.
 */
PlanList plan_program(Program *prog, const PlanOptions *opts)
{
	double refused;
	PlanList quiet = { 0 }, pooled_quiet = { 0 };
	PlanList plans = plan_all(prog, opts, false, &refused, &quiet), pooled;

	if (!opts->unlimited && plans_gain(&plans) <= 0 && refused >= TEAM_START_COST) {
		pooled = plan_all(prog, opts, true, &refused, &pooled_quiet);
		if (plans_gain(&pooled) >= TEAM_START_COST) {
			array_free(&plans);
			array_free(&quiet);
			plans = pooled;
			quiet = pooled_quiet;
		} else {
			array_free(&pooled);
			array_free(&pooled_quiet);
		}
	}
	if (opts->refused)
		*opts->refused = quiet;
	else
		array_free(&quiet);
	return plans;
}

/* ------------------------------------------------------------------ */
/* --dump=sched                                                        */
/* ------------------------------------------------------------------ */

static const char *const dep_kind_name[] = { "flow", "anti", "output", "barrier" };

static void dump_clone(FILE *out, const Clone *cl)
{
	fprintf(out, "clone %s__mtpar%d\n", name_of(cl->callee), cl->id);
	for (uint32_t i = 0; i < cl->parts.len; i++) {
		const SplitLoop *sl = &cl->parts.items[i];
		uint32_t line, col;

		source_pos(cl->callee->src, sl->loop->start, &line, &col);
		fprintf(out, "  part %u: %s %u:%u", i, sl->whole_stmt ? "statement" : "loop", line, col);
		if (sl->split)
			fprintf(out, " split [%lld,%lld) step %lld\n", (long long)sl->lo,
			        (long long)sl->hi, (long long)sl->step);
		else
			fprintf(out, " whole (%s)\n", sl->why_not ? sl->why_not : "not split");
	}
}

static void dump_task(FILE *out, const ParPlan *p, uint32_t t)
{
	const ParTask *task = &p->tasks.items[t];
	const SchedTask *st = &p->graph.tasks.items[t];

	fprintf(out, "task %s %s", task->name, task_kind_name[task->kind]);
	if (task->mt->kind == MT_SB)
		fprintf(out, " %s", name_of(task->mt->callee));
	if (task->kind == TASK_CHUNK)
		fprintf(out, " (clone %d)", task->clone->id);
	fprintf(out, " cost %.0f", task->cost);
	if (task->fold_guard)
		fputs(" guard folded", out);
	if (task->test)
		fputs(" branch test", out);
	if (task->ctl >= 0 && p->dynamic)
		fprintf(out, " runs if %s is %s", p->tasks.items[task->ctl].name,
		        task->ctl_dir ? "true" : "false");
	if (task->note)
		fprintf(out, " [whole: %s]", task->note);
	fputc('\n', out);
	for (uint32_t i = 0; i < st->pred.len; i++) {
		const ParTask *from = &p->tasks.items[st->pred.items[i]];
		Dep d;

		if (!dep_summary_conflict(from->summary, task->summary, &d))
			continue; /* cannot happen: every edge comes from a conflict */
		fprintf(out, "  after %s (%s %s)\n", from->name, dep_kind_name[d.kind],
		        plan_dep_object(&d));
	}
}

/* The span's gain over the whole function: the code outside it stays sequential. */
static void dump_whole(FILE *out, const ParPlan *p)
{
	double reps = p->reps > 1 ? p->reps : 1;
	double seq = p->sched->seq_time * reps;
	double rest = p->func_cost - seq;
	double par = (rest > 0 ? rest : 0) + region_time(p) * reps + p->start_cost;

	fprintf(out, "runtime: %.0f per run of the region (the fork and join, %u waits between cores), "
	        "%.0f to start the threads\n",
	        p->runtime_cost, cross_core_edges(&p->graph, p->sched), p->start_cost);
	fprintf(out, "whole function: sequential %.0f, parallel %.0f, predicted speedup %.2f\n",
	        seq + (rest > 0 ? rest : 0), par, par > 0 ? (seq + (rest > 0 ? rest : 0)) / par : 1.0);
}

static void dump_rt_loop(FILE *out, const ParPlan *p)
{
	uint32_t line, col;

	source_pos(p->func->src, p->rt->loop->start, &line, &col);
	if (p->why_not) {
		fprintf(out, ": loop %u:%u whose trips the run decides: sequential: %s\n", line, col,
		        p->why_not);
		return;
	}
	fprintf(out, ": span loop %u:%u, split at run time on %d cores if %s\n", line, col,
	        p->rt->ncores, p->rt->cond ? p->rt->cond : "1");
	for (uint32_t i = 0; i < p->rt->privates.len; i++)
		fprintf(out, "  private %s\n", intern_name(p->rt->privates.items[i]->name));
}

void plan_dump(FILE *out, const PlanList *plans)
{
	for (uint32_t i = 0; i < plans->len; i++) {
		const ParPlan *p = plans->items[i];
		uint32_t chunks = 0;

		fprintf(out, "plan %s", name_of(p->func));
		if (p->rt) {
			dump_rt_loop(out, p);
			continue;
		}
		if (p->why_not) {
			fprintf(out, ": sequential: %s\n", p->why_not);
			continue;
		}
		for (uint32_t t = 0; t < p->tasks.len; t++)
			chunks += p->tasks.items[t].kind == TASK_CHUNK;
		fprintf(out, ": span MT%d..MT%d", p->root->children.items[p->first]->id,
		        p->root->children.items[p->last]->id);
		if (p->root != p->func->mt)
			fprintf(out, " in the body of loop MT%d (%.0f iterations, %s)", p->root->id,
			        p->reps, p->one_fork ? "one fork around the loop, a barrier each"
			                             : "a fork each");
		fprintf(out, ", %u tasks (%u chunks), %u clones%s\n", p->tasks.len, chunks, p->clones.len,
		        p->dynamic ? ", scheduled dynamically (a branch inside decides which tasks run)"
		                   : "");
		for (uint32_t k = 0; k < p->clones.len; k++)
			dump_clone(out, p->clones.items[k]);
		for (uint32_t t = 0; t < p->tasks.len; t++)
			dump_task(out, p, t);
		sched_dump(out, &p->graph, p->sched);
		if (p->power)
			power_dump(out, &p->graph, p->sched, p->power, p->power->table);
		dump_whole(out, p);
	}
}
