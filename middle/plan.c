/*
 * plan.c - middle stage: the parallel plan.  Picks the entry-like
 * function and the span of its top-level MTs that can run inside one
 * parallel region, decomposes each SB whose callee is a sequence of loops
 * into iteration chunks of a callee clone (OSCAR's loop-aligned
 * decomposition: a chunk waits only for the producer chunks it reads),
 * estimates costs (operations x trip counts, plus memory traffic), draws an
 * edge wherever two tasks' access summaries conflict, and schedules the
 * graph with sched.c.  Sound first: a loop is split only when the
 * summaries of its chunks are pairwise independent.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "middle.h"

/* ---- the cost model's unit is one simple operation ---- */

#define DEFAULT_TRIPS 64.0     /* a loop whose trip count is not a constant */
#define COST_MEM 1.0           /* a memory reference */
#define COST_DIV 2.0           /* division and remainder (mostly by constants) */
#define COST_LIBCALL 20.0      /* a library call: math functions */
#define COST_PER_BYTE 0.125    /* memory traffic: each byte of a task's footprint */
#define TRANSFER_PER_BYTE 0.1  /* a byte produced on one core and read on another */
#define MIN_CHUNK_COST 20000.0 /* a smaller chunk does not pay for its synchronisation */
#define MIN_GAIN 0.95          /* the makespan must beat the sequential time by 5% */

enum { MAX_DEPS = 16, MAX_DESCENT = 8 };

#define X_NAME(k, s) s,
static const char *const task_kind_name[] = { TASK_KINDS(X_NAME) };
#undef X_NAME

/* One chunk of a decomposed SB, before it becomes a ParTask. */
typedef struct Chunk {
	int part;               /* index into the clone's parts */
	int64_t lo, hi;         /* first-IV values [lo, hi) */
	Summary *sum;           /* summarize_chunk's, in the caller's terms */
	double cost;
} Chunk;

typedef Array(Chunk) ChunkList;
typedef Array(SplitLoop) PartList;

typedef struct Ctx {
	Program *prog;
	int ncores;
	double *fcost;          /* per Func.id: cost of one call, < 0 not known yet */
	bool *fbusy;            /* per Func.id: being costed (recursion) */
	Bitset *calls;          /* per Func.id: the defined functions its body calls */
	int next_clone;         /* the last Clone.id given */
} Ctx;

/* A reason string in the arena. */
MTPAR_PRINTF(1, 2) static const char *fmt(const char *f, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, sizeof(buf), f, ap);
	va_end(ap);
	return arena_strndup(buf, strlen(buf));
}

static const char *name_of(const Func *f)
{
	return intern_name(f->name);
}

/* ------------------------------------------------------------------ */
/* Visiting the IR                                                     */
/* ------------------------------------------------------------------ */

typedef void ExprFn(const Expr *e, void *ctx);

static void each_expr(const Expr *e, ExprFn *fn, void *ctx)
{
	if (!e)
		return;
	fn(e, ctx);
	each_expr(e->cond, fn, ctx);
	each_expr(e->lhs, fn, ctx);
	each_expr(e->rhs, fn, ctx);
	for (uint32_t i = 0; i < e->args.len; i++)
		each_expr(e->args.items[i], fn, ctx);
}

/* Every expression of s: conditions, initializers, loop headers, bodies. */
static void each_stmt_expr(const Stmt *s, ExprFn *fn, void *ctx)
{
	if (!s)
		return;
	each_expr(s->expr, fn, ctx);
	each_stmt_expr(s->then, fn, ctx);
	each_stmt_expr(s->els, fn, ctx);
	for (uint32_t i = 0; i < s->body.len; i++)
		each_stmt_expr(s->body.items[i], fn, ctx);
	if (s->loop) {
		for (uint32_t i = 0; i < s->loop->init.len; i++)
			each_stmt_expr(s->loop->init.items[i], fn, ctx);
		each_expr(s->loop->cond, fn, ctx);
		each_expr(s->loop->step, fn, ctx);
		each_stmt_expr(s->loop->body, fn, ctx);
	}
}

static bool is_loop(const Stmt *s)
{
	return s && (s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO);
}

static const Expr *strip_casts(const Expr *e)
{
	while (e && e->kind == EX_CAST)
		e = e->lhs;
	return e;
}

/* The variable whose own storage lvalue e is (v, v.x.y). */
static const Var *storage_root(const Expr *e)
{
	while (e && e->kind == EX_MEMBER && e->op == OP_DOT)
		e = e->lhs;
	return e && e->kind == EX_VAR ? e->var : NULL;
}

typedef struct VarCount {
	const Var *var;
	uint32_t n;
} VarCount;

static void count_ref(const Expr *e, void *ctx)
{
	VarCount *c = ctx;

	c->n += e->kind == EX_VAR && e->var == c->var;
}

/* References (EX_VAR) to v inside s. */
static uint32_t refs_in(const Stmt *s, const Var *v)
{
	VarCount c = { v, 0 };

	each_stmt_expr(s, count_ref, &c);
	return c.n;
}

static void count_def(const Expr *e, void *ctx)
{
	VarCount *c = ctx;

	switch (e->kind) {
	case EX_ASSIGN:
		c->n += storage_root(e->lhs) == c->var;
		break;
	case EX_UNARY:
		if (e->op == OP_PREINC || e->op == OP_PREDEC || e->op == OP_POSTINC ||
		    e->op == OP_POSTDEC || e->op == OP_ADDR)
			c->n += storage_root(e->lhs) == c->var;
		break;
	default:
		break;
	}
}

/* Assignments, increments and address-takings of v inside s (initializers not counted). */
static uint32_t defs_in(const Stmt *s, const Var *v)
{
	VarCount c = { v, 0 };

	each_stmt_expr(s, count_def, &c);
	return c.n;
}

static uint32_t defs_in_expr(const Expr *e, const Var *v)
{
	VarCount c = { v, 0 };

	each_expr(e, count_def, &c);
	return c.n;
}

static void find_effect(const Expr *e, void *ctx)
{
	bool *found = ctx;

	if (e->kind == EX_ASSIGN || e->kind == EX_CALL || e->kind == EX_OTHER)
		*found = true;
	if (e->kind == EX_UNARY && (e->op == OP_PREINC || e->op == OP_PREDEC ||
	                            e->op == OP_POSTINC || e->op == OP_POSTDEC))
		*found = true;
}

/* No assignment, increment, call or unmodelled expression in e. */
static bool effect_free(const Expr *e)
{
	bool found = false;

	each_expr(e, find_effect, &found);
	return !found;
}

/* An integer constant expression: literals, known constant names, + - * and negation. */
static bool const_int(const Expr *e, int64_t *v)
{
	int64_t a, b;

	e = strip_casts(e);
	if (!e)
		return false;
	switch (e->kind) {
	case EX_NUM:
		*v = e->num.ival;
		return !e->num.is_float;
	case EX_NAME:
		*v = e->num.ival;
		return e->is_constant;
	case EX_UNARY:
		if (e->op != OP_NEG || !const_int(e->lhs, &a) || a == INT64_MIN)
			return false;
		*v = -a;
		return true;
	case EX_BINARY:
		if (!const_int(e->lhs, &a) || !const_int(e->rhs, &b))
			return false;
		switch (e->op) {
		case OP_ADD: return !__builtin_add_overflow(a, b, v);
		case OP_SUB: return !__builtin_sub_overflow(a, b, v);
		case OP_MUL: return !__builtin_mul_overflow(a, b, v);
		default: return false;
		}
	default:
		return false;
	}
}

/*
 * Does control leave s other than by falling through: return, goto, a
 * label (an entry), or a break (a continue unless cont_ok) not bound
 * inside s?  loops and switches: how many enclosing ones s sits in.  With
 * g, the callee being cloned, its workspace statements (scratch_stmt) do
 * not count: in the clone they never leave.
 */
static bool leaves_in(const Func *g, const Stmt *s, int loops, int switches, bool cont_ok)
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
		return leaves_in(g, s->loop->body, loops + 1, switches, cont_ok);
	case ST_SWITCH:
		return leaves_in(g, s->then, loops, switches + 1, cont_ok);
	default:
		break;
	}
	if (leaves_in(g, s->then, loops, switches, cont_ok) ||
	    leaves_in(g, s->els, loops, switches, cont_ok))
		return true;
	for (uint32_t i = 0; i < s->body.len; i++)
		if (leaves_in(g, s->body.items[i], loops, switches, cont_ok))
			return true;
	return false;
}

static bool leaves(const Stmt *s, int loops, int switches, bool cont_ok)
{
	return leaves_in(NULL, s, loops, switches, cont_ok);
}

static bool stmt_escapes(const Stmt *s, int loops, int switches)
{
	return leaves(s, loops, switches, false);
}

/* ------------------------------------------------------------------ */
/* Cost model: operations x trip counts, plus memory traffic           */
/* ------------------------------------------------------------------ */

static double func_cost(Ctx *c, Func *f);

static bool name_is(int name, const char *s)
{
	return name && strcmp(intern_name(name), s) == 0;
}

static double call_cost(Ctx *c, const Expr *e, double args)
{
	int64_t n;

	if (e->callee_func)
		return 2 + args + func_cost(c, e->callee_func);
	if ((name_is(e->name, "memcpy") || name_is(e->name, "memmove") ||
	     name_is(e->name, "memset")) && e->args.len == 3)
		return 2 + args + (const_int(e->args.items[2], &n) && n > 0 ? n / 4.0 : 64);
	return COST_LIBCALL + args;
}

/*
 * in_addr: e is the array operand of an enclosing subscript (no load of
 * its own); idx: e computes an index, whose arithmetic the compiler mostly
 * strength-reduces or hoists (it counts a quarter).
 */
static double expr_cost(Ctx *c, const Expr *e, bool in_addr, bool idx)
{
	double op = idx ? 0.25 : 1, args = 0, a, b;

	if (!e)
		return 0;
	switch (e->kind) {
	case EX_NUM:
	case EX_STR:
	case EX_VAR:
	case EX_NAME:
	case EX_SIZEOF:
		return 0;
	case EX_INDEX:
		return 0.25 + expr_cost(c, e->lhs, true, idx) + expr_cost(c, e->rhs, false, true) +
		       (in_addr ? 0 : COST_MEM);
	case EX_MEMBER:
		if (e->op == OP_ARROW)
			return COST_MEM + expr_cost(c, e->lhs, false, idx);
		return expr_cost(c, e->lhs, in_addr, idx);
	case EX_UNARY:
		if (e->op == OP_DEREF)
			return COST_MEM + expr_cost(c, e->lhs, false, idx);
		if (e->op == OP_ADDR)
			return expr_cost(c, e->lhs, true, idx);
		return op + expr_cost(c, e->lhs, false, idx);
	case EX_BINARY:
		return (e->op == OP_DIV || e->op == OP_MOD ? COST_DIV * op : op) +
		       expr_cost(c, e->lhs, false, idx) + expr_cost(c, e->rhs, false, idx);
	case EX_ASSIGN:
		return (e->op == OP_ASSIGN ? 1 : 2) + expr_cost(c, e->lhs, false, idx) +
		       expr_cost(c, e->rhs, false, idx);
	case EX_COND:
		a = expr_cost(c, e->lhs, false, idx);
		b = expr_cost(c, e->rhs, false, idx);
		return op + expr_cost(c, e->cond, false, idx) + (a > b ? a : b);
	case EX_COMMA:
		return expr_cost(c, e->lhs, false, idx) + expr_cost(c, e->rhs, false, idx);
	case EX_CAST:
		return expr_cost(c, e->lhs, in_addr, idx);
	case EX_CALL:
		for (uint32_t i = 0; i < e->args.len; i++)
			args += expr_cost(c, e->args.items[i], false, false);
		return call_cost(c, e, args);
	default:
		for (uint32_t i = 0; i < e->args.len; i++)
			args += expr_cost(c, e->args.items[i], false, false);
		return 1 + args + expr_cost(c, e->lhs, false, idx) + expr_cost(c, e->rhs, false, idx);
	}
}

static double ecost(Ctx *c, const Expr *e)
{
	return expr_cost(c, e, false, false);
}

static double loop_trips(const Stmt *s)
{
	return s->kind == ST_FOR && s->loop->trip_count >= 0 ? (double)s->loop->trip_count
	                                                     : DEFAULT_TRIPS;
}

static double stmt_cost(Ctx *c, const Stmt *s)
{
	double sum = 0, a, b;

	if (!s)
		return 0;
	switch (s->kind) {
	case ST_EXPR:
	case ST_RETURN:
		return ecost(c, s->expr);
	case ST_DECL:
		return s->expr ? 1 + ecost(c, s->expr) : 0;
	case ST_BLOCK:
		for (uint32_t i = 0; i < s->body.len; i++)
			sum += stmt_cost(c, s->body.items[i]);
		return sum;
	case ST_IF:
		a = stmt_cost(c, s->then);
		b = stmt_cost(c, s->els);
		return 1 + ecost(c, s->expr) + (a > b ? a : b);
	case ST_FOR:
	case ST_WHILE:
	case ST_DO:
		for (uint32_t i = 0; i < s->loop->init.len; i++)
			sum += stmt_cost(c, s->loop->init.items[i]);
		return sum + loop_trips(s) * (1 + ecost(c, s->loop->cond) +
		                              ecost(c, s->loop->step) +
		                              stmt_cost(c, s->loop->body));
	case ST_SWITCH:
		return 1 + ecost(c, s->expr) + stmt_cost(c, s->then);
	case ST_CASE:
	case ST_LABEL:
		return stmt_cost(c, s->then);
	default:
		return 0;
	}
}

/* One call of f, its callees included; a recursive call counts nothing. */
static double func_cost(Ctx *c, Func *f)
{
	if (c->fcost[f->id] >= 0)
		return c->fcost[f->id];
	if (c->fbusy[f->id])
		return 0;
	c->fbusy[f->id] = true;
	c->fcost[f->id] = stmt_cost(c, f->body);
	c->fbusy[f->id] = false;
	return c->fcost[f->id];
}

static double mt_ops(Ctx *c, const MT *mt)
{
	double sum = 0;

	for (uint32_t i = 0; i < mt->stmts.len; i++)
		sum += stmt_cost(c, mt->stmts.items[i]);
	return sum;
}

/* Bytes in [lo, hi) ranges with both ends known; a whole object of known size. */
static double region_bytes(const Region *r)
{
	double n = 0;
	int64_t size;

	if (!r->base)
		return 0;
	if (r->whole) {
		size = obj_size(r->base);
		return size > 0 ? (double)size : 0;
	}
	for (uint32_t i = 0; i < r->ranges.len; i++) {
		const ByteRange *b = &r->ranges.items[i];

		if (b->lo != REGION_BEGIN && b->hi != REGION_END)
			n += (double)(b->hi - b->lo);
	}
	return n;
}

/* Memory traffic: the bytes a task reads and writes. */
static double footprint(const Summary *s)
{
	double n = 0;

	for (uint32_t i = 0; s && i < s->acc.len; i++)
		n += region_bytes(&s->acc.items[i].region);
	return n;
}

static double mt_cost(Ctx *c, const MT *mt)
{
	return mt_ops(c, mt) + COST_PER_BYTE * footprint(mt->summary);
}

/* ------------------------------------------------------------------ */
/* Call graph                                                          */
/* ------------------------------------------------------------------ */

static void note_callee(const Expr *e, void *ctx)
{
	if (e->kind == EX_CALL && e->callee_func)
		bitset_set(ctx, (uint32_t)e->callee_func->id);
}

static void build_calls(Ctx *c)
{
	uint32_t n = c->prog->funcs.len;

	c->calls = arena_alloc(n * sizeof(*c->calls) + 1);
	for (uint32_t i = 0; i < n; i++) {
		bitset_init(&c->calls[i], n);
		each_stmt_expr(c->prog->funcs.items[i]->body, note_callee, &c->calls[i]);
	}
}

/* out gets every function that the MTs mt[0..n) call, transitively. */
static void span_reach(Ctx *c, MT *const *mts, uint32_t n, Bitset *out)
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
 * A callee whose allocations and frees are all workspaces (func_scratch):
 * its clone touches no allocator state, so its chunks may run anywhere; run
 * whole, it stays on core 0, the thread that runs the code around the region.
 */
static bool workspace_only(const Func *g)
{
	bool only = false;

	if (g && g->body)
		func_scratch(g, &only);
	return only;
}

/* Does g take a workspace at its top level (which the caller must then provide)? */
static bool has_top_scratch(const Func *g)
{
	bool only;
	const ScratchList *l = func_scratch(g, &only);

	for (uint32_t i = 0; l && i < l->len; i++)
		if (l->items[i].top)
			return true;
	return false;
}

/* Accesses the allocator or I/O state, which must stay in program order on one thread. */
static bool touches_state(const Summary *s)
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

	if (strip_casts(cond) == call) {
		*taken = v != 0;
		return true;
	}
	if (cond->kind == EX_UNARY && cond->op == OP_NOT && strip_casts(cond->lhs) == call) {
		*taken = v == 0;
		return true;
	}
	if (cond->kind == EX_BINARY && (cond->op == OP_NE || cond->op == OP_EQ) &&
	    strip_casts(cond->lhs) == call && const_int(cond->rhs, &k)) {
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
	if (s->kind == ST_EXPR && strip_casts(s->expr) == mt->call)
		return true;
	if (s->kind != ST_IF) {
		*why = "the call's result is stored";
		return false;
	}
	if (!func_returns_constant(mt->callee, &v) ||
	    !guard_taken(s->expr, mt->call, v, &taken) || taken) {
		*why = "the call's result decides an exit";
		return false;
	}
	*fold = true;
	return true;
}

/* Can mt run as a task inside the parallel region?  why: the reason not. */
static bool task_ok(const MT *mt, bool *fold, const char **why)
{
	*fold = false;
	if (mt->unmodelled) {
		*why = "unmodelled construct";
		return false;
	}
	if (mt->branch_mt || (mt->ends_in_branch && mt->kind != MT_SB)) {
		*why = "conditional control flow";
		return false;
	}
	if (!mt->summary || mt->summary->barrier) {
		*why = "calls something unknown";
		return false;
	}
	if (touches_state(mt->summary) && !(mt->kind == MT_SB && workspace_only(mt->callee))) {
		*why = "allocates, frees or does I/O";
		return false;
	}
	switch (mt->kind) {
	case MT_SB:
		return sb_ok(mt, fold, why);
	case MT_RB:
		if (stmt_escapes(mt->loop->loop->body, 1, 0)) {
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
			if (stmt_escapes(s, 0, 0)) {
				*why = "exits";
				return false;
			}
		}
		return true;
	}
	return false;
}

/* The run of task-worthy MTs with the most work (the first of equal ones). */
static bool best_span(Ctx *c, Func *f, uint32_t *first, uint32_t *last, double *work)
{
	const MT *root = f->mt;
	double run = 0, best = -1;
	uint32_t start = 0, len = 0;
	bool fold;
	const char *why;

	for (uint32_t i = 0; root && i <= root->children.len; i++) {
		MT *mt = i < root->children.len ? root->children.items[i] : NULL;

		if (mt && task_ok(mt, &fold, &why)) {
			if (len++ == 0)
				start = i;
			run += mt_cost(c, mt);
			continue;
		}
		if (len && run > best) {
			best = run;
			*first = start;
			*last = i - 1;
		}
		run = 0;
		len = 0;
	}
	*work = best;
	return best >= 0;
}

/* ------------------------------------------------------------------ */
/* Choosing the function                                               */
/* ------------------------------------------------------------------ */

static void attribute(Ctx *c, const Stmt *s, double mult, double *attr);

static void attribute_expr(Ctx *c, const Expr *e, double mult, double *attr)
{
	if (!e)
		return;
	if (e->kind == EX_CALL && e->callee_func)
		attr[e->callee_func->id] += mult * func_cost(c, e->callee_func);
	attribute_expr(c, e->cond, mult, attr);
	attribute_expr(c, e->lhs, mult, attr);
	attribute_expr(c, e->rhs, mult, attr);
	for (uint32_t i = 0; i < e->args.len; i++)
		attribute_expr(c, e->args.items[i], mult, attr);
}

/* attr[g] += the work of f's calls to g, times the trips of the loops around them. */
static void attribute(Ctx *c, const Stmt *s, double mult, double *attr)
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
		mult *= loop_trips(s);
		attribute_expr(c, s->loop->cond, mult, attr);
		attribute_expr(c, s->loop->step, mult, attr);
		attribute(c, s->loop->body, mult, attr);
	}
}

/* The callee (with at least two MTs) holding most of f's work, NULL if none. */
static Func *big_callee(Ctx *c, Func *f, double *attr)
{
	uint32_t n = c->prog->funcs.len;
	Func *g = NULL;

	memset(attr, 0, n * sizeof(*attr));
	attribute(c, f->body, 1, attr);
	for (uint32_t i = 0; i < n; i++) {
		Func *h = c->prog->funcs.items[i];

		if (h != f && h->mt && h->mt->children.len >= 2 && attr[i] > 0 &&
		    (!g || attr[i] > attr[g->id]))
			g = h;
	}
	return g;
}

static ParPlan *plan_function(Ctx *c, Func *f);

/* The work f's plan would save (0 if it stays sequential); uses up no clone id. */
static double plan_saving(Ctx *c, Func *f)
{
	int next = c->next_clone;
	ParPlan *p = plan_function(c, f);
	double saving = p->why_not ? 0 : p->sched->seq_time - p->sched->makespan;

	taskgraph_free(&p->graph);
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
static Func *choose_function(Ctx *c, Func *root)
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
		if (best_span(c, f, &first, &last, &work) && last - first + 1 > longest) {
			caller = f;
			longest = last - first + 1;
		}
	}
	free(attr);
	return best_saving > 0 ? best : caller;
}

/* ------------------------------------------------------------------ */
/* Decomposition of an SB into chunks of its callee's loops             */
/* ------------------------------------------------------------------ */

static bool is_scalar_type(const Type *t)
{
	if (!t)
		return false;
	switch (t->kind) {
	case TY_BOOL:
	case TY_INT:
	case TY_FLOAT:
	case TY_ENUM:
	case TY_PTR:
	case TY_NAMED: /* int32_t, size_t; a struct typedef would not be assigned from a scalar */
		return true;
	default:
		return false;
	}
}

/* A top-level `return;` or `return CONST;`. */
static bool is_return_bb(const MT *m)
{
	const Stmt *s = m->stmts.len == 1 ? m->stmts.items[0] : NULL;
	int64_t v;

	return s && s->kind == ST_RETURN && (!s->expr || const_int(s->expr, &v));
}

/* A BB of declarations of scalars and pointers with effect-free initializers. */
static bool decl_bb_ok(const Func *g, const MT *m, const char **why)
{
	for (uint32_t i = 0; i < m->stmts.len; i++) {
		const Stmt *s = m->stmts.items[i];

		if (s->kind == ST_EMPTY || scratch_stmt(g, s))
			continue;
		if (s->kind != ST_DECL || !s->var) {
			*why = "the callee has top-level statements besides declarations and loops";
			return false;
		}
		if (!is_scalar_type(s->var->type) || s->var->storage != SC_NONE) {
			*why = fmt("the callee declares %s, not a plain scalar or pointer",
			           intern_name(s->var->name));
			return false;
		}
		if (s->expr && (!effect_free(s->expr) || s->expr->kind == EX_INIT)) {
			*why = fmt("the initializer of %s has effects", intern_name(s->var->name));
			return false;
		}
	}
	return true;
}

/*
 * The callee's top level: declaration BBs, loops (the parts), and an
 * optional final `return CONST;`.
 */
static bool shape_ok(const Func *g, PartList *parts, const char **why)
{
	const MT *root = g->mt;

	for (uint32_t i = 0; i < root->children.len; i++) {
		MT *m = root->children.items[i];
		SplitLoop sl;

		if (m->kind == MT_RB) {
			if (leaves_in(g, m->loop->loop->body, 1, 0, true)) {
				*why = "the callee returns from inside a loop";
				return false;
			}
			memset(&sl, 0, sizeof(sl));
			sl.top = sl.loop = m->loop;
			array_push(parts, sl);
			continue;
		}
		if (m->kind == MT_SB) {
			*why = fmt("the callee calls %s at its top level", name_of(m->callee));
			return false;
		}
		if (is_return_bb(m)) {
			if (i + 1 != root->children.len) {
				*why = "the callee returns early";
				return false;
			}
			continue;
		}
		if (!decl_bb_ok(g, m, why))
			return false;
	}
	if (!parts->len) {
		*why = "the callee has no loop";
		return false;
	}
	return true;
}

/* The part whose top loop holds source byte `byte`, -1 if none. */
static int part_of(const PartList *parts, uint32_t byte)
{
	for (uint32_t i = 0; i < parts->len; i++)
		if (byte >= parts->items[i].top->start && byte < parts->items[i].top->end)
			return (int)i;
	return -1;
}

/* The declaration statement of local v inside s, NULL if none. */
static const Stmt *find_decl(const Stmt *s, const Var *v)
{
	const Stmt *d = NULL;

	if (!s)
		return NULL;
	if (s->kind == ST_DECL && s->var == v)
		return s;
	if ((d = find_decl(s->then, v)) || (d = find_decl(s->els, v)))
		return d;
	for (uint32_t i = 0; !d && i < s->body.len; i++)
		d = find_decl(s->body.items[i], v);
	if (!d && s->loop) {
		for (uint32_t i = 0; !d && i < s->loop->init.len; i++)
			d = find_decl(s->loop->init.items[i], v);
		if (!d)
			d = find_decl(s->loop->body, v);
	}
	return d;
}

/*
 * A local that every run of its declaration sets to its final value:
 * initialized without effects, never assigned again, its address never
 * taken.  A chunk call that runs the declaration gets what the whole call
 * would have (what the initializer reads is in the chunk's summary).
 */
static bool pure_local(const Func *g, const Var *v)
{
	const Stmt *d = find_decl(g->body, v);

	return d && d->expr && d->expr->kind != EX_INIT && effect_free(d->expr) &&
	       !v->addr_taken && defs_in(g->body, v) == 0;
}

/*
 * Is every use of v inside `top` dominated by an assignment in the same
 * run of a for statement S within top (S's initializer assigns v; v has
 * no other reference in that initializer and none outside S)?  Then v
 * carries nothing into S from before.  inner: S must lie strictly inside
 * `inside` (a loop body), else S may be any for statement of top.
 */
typedef struct Cover {
	const Var *var;
	uint32_t want;       /* references of var that S must hold */
	const Stmt *inside;  /* S must lie in this statement, or NULL */
	bool found;
} Cover;

static bool init_assigns(const Stmt *s, const Var *v)
{
	for (uint32_t i = 0; i < s->loop->init.len; i++) {
		const Stmt *p = s->loop->init.items[i];
		const Expr *e = p->expr;

		if (p->kind == ST_EXPR && e && e->kind == EX_ASSIGN && e->op == OP_ASSIGN &&
		    e->lhs && e->lhs->kind == EX_VAR && e->lhs->var == v)
			return true;
	}
	return false;
}

static void find_cover(const Stmt *s, Cover *c)
{
	uint32_t in_init = 0;

	if (!s || c->found)
		return;
	if (s->kind == ST_FOR && init_assigns(s, c->var) &&
	    (!c->inside || (s->start >= c->inside->start && s->end <= c->inside->end))) {
		for (uint32_t i = 0; i < s->loop->init.len; i++)
			in_init += refs_in(s->loop->init.items[i], c->var);
		if (in_init == 1 && refs_in(s, c->var) == c->want) {
			c->found = true;
			return;
		}
	}
	find_cover(s->then, c);
	find_cover(s->els, c);
	for (uint32_t i = 0; i < s->body.len; i++)
		find_cover(s->body.items[i], c);
	if (s->loop)
		find_cover(s->loop->body, c);
}

static bool covered(const Stmt *top, const Var *v, uint32_t want, const Stmt *inside)
{
	Cover c = { v, want, inside, false };

	find_cover(top, &c);
	return c.found;
}

/* A top-level workspace: every chunk call gets the same buffer from the caller. */
static bool top_scratch_var(const Func *g, const Var *v)
{
	const Scratch *sc = scratch_var(g, v);

	return sc && sc->top;
}

/*
 * Each chunk is a separate call: a prologue local may not carry a value
 * from one part to another.  Allowed: locals every call recomputes alike
 * (pure_local), and locals whose every use in each part follows an
 * assignment in a for header of that part (the parts' loop counters).
 */
static bool locals_ok(const Func *g, const PartList *parts, const char **why)
{
	for (uint32_t i = 0; i < g->locals.len; i++) {
		const Var *v = g->locals.items[i];
		uint32_t total, in_parts = 0, users = 0;

		if (v->storage == SC_STATIC) {
			*why = fmt("the callee has a static local %s", intern_name(v->name));
			return false;
		}
		if (part_of(parts, v->start) >= 0 || pure_local(g, v) || top_scratch_var(g, v))
			continue; /* scoped inside one part, or the same in every call */
		if (v->addr_taken) {
			*why = fmt("the address of local %s is taken", intern_name(v->name));
			return false;
		}
		total = refs_in(g->body, v);
		for (uint32_t p = 0; p < parts->len; p++) {
			uint32_t n = refs_in(parts->items[p].top, v);

			in_parts += n;
			users += n > 0;
		}
		if (in_parts != total) {
			*why = fmt("local %s is used outside the callee's loops", intern_name(v->name));
			return false;
		}
		if (users <= 1)
			continue;
		for (uint32_t p = 0; p < parts->len; p++) {
			const Stmt *top = parts->items[p].top;
			uint32_t n = refs_in(top, v);

			if (n && !covered(top, v, n, NULL)) {
				*why = fmt("local %s carries a value from one loop to the next",
				           intern_name(v->name));
				return false;
			}
		}
	}
	return true;
}

/* Assigns none of the callee's parameters: every chunk call gets them as passed. */
static bool params_ok(const Func *g, const char **why)
{
	for (uint32_t i = 0; i < g->params.len; i++) {
		if (defs_in(g->body, g->params.items[i])) {
			*why = fmt("the callee assigns its parameter %s",
			           intern_name(g->params.items[i]->name));
			return false;
		}
	}
	return true;
}

/*
 * The loop a one-trip loop s wraps: its body is that loop alone, or
 * declarations of scalars with effect-free initializers and then that
 * loop (onnx2c's grouped convolution: `uint32_t go = 1;` before the g loop).
 */
static Stmt *wrapped_loop(const Stmt *s)
{
	Stmt *b = s->loop->body;

	if (is_loop(b))
		return b;
	if (!b || b->kind != ST_BLOCK || !b->body.len || !is_loop(array_last(&b->body)))
		return NULL;
	for (uint32_t i = 0; i + 1 < b->body.len; i++) {
		const Stmt *d = b->body.items[i];

		if (d->kind == ST_EMPTY)
			continue;
		if (d->kind != ST_DECL || !d->var || !is_scalar_type(d->var->type) ||
		    d->var->storage != SC_NONE || !d->expr || d->expr->kind == EX_INIT ||
		    !effect_free(d->expr))
			return NULL;
	}
	return array_last(&b->body);
}

/* The loop to split: below `top` through loops of one trip that wrap one loop. */
static Stmt *descend_one_trip(Stmt *top)
{
	Stmt *s = top, *inner;

	while (s->kind == ST_FOR && s->loop->trip_count == 1 && (inner = wrapped_loop(s)))
		s = inner;
	return s;
}

static const InductionVar *find_iv(const Loop *l, const Var *v)
{
	for (uint32_t i = 0; i < l->ivs.len; i++)
		if (l->ivs.items[i].var == v)
			return &l->ivs.items[i];
	return NULL;
}

/* A for-step part that moves an IV by its constant step. */
static const InductionVar *step_update(const Loop *l, const Expr *u)
{
	const Expr *r;
	const InductionVar *iv;
	int64_t k;

	if (!u || !u->lhs || u->lhs->kind != EX_VAR || !(iv = find_iv(l, u->lhs->var)))
		return NULL;
	if (u->kind == EX_UNARY && u->op >= OP_PREINC && u->op <= OP_POSTDEC)
		return iv;
	if (u->kind != EX_ASSIGN)
		return NULL;
	if ((u->op == OP_ADD || u->op == OP_SUB) && const_int(u->rhs, &k))
		return iv;
	r = u->rhs;
	if (u->op == OP_ASSIGN && r && r->kind == EX_BINARY && (r->op == OP_ADD || r->op == OP_SUB)) {
		const Expr *a = strip_casts(r->lhs), *b = strip_casts(r->rhs);

		if (a && a->kind == EX_VAR && a->var == iv->var && const_int(r->rhs, &k))
			return iv;
		if (r->op == OP_ADD && b && b->kind == EX_VAR && b->var == iv->var &&
		    const_int(r->lhs, &k))
			return iv;
	}
	return NULL;
}

/* Every comma part of the step moves an IV, each IV exactly once. */
static bool steps_ok(const Loop *l, const Expr *e, uint32_t *moved)
{
	const InductionVar *iv;

	if (!e)
		return true;
	if (e->kind == EX_COMMA)
		return steps_ok(l, e->lhs, moved) && steps_ok(l, e->rhs, moved);
	if (!(iv = step_update(l, e)))
		return false;
	(*moved)++;
	return true;
}

/*
 * Can chunks of s's first IV run as separate calls?  A for statement
 * whose initializer sets only IVs to constants, whose condition is
 * `iv < K` or `iv <= K` on the first IV (step > 0, constant trip count),
 * whose step moves each IV by a constant, with no IV assigned in the body
 * and no way out of the body but its end or `continue`.
 */
static bool header_splittable(const Func *g, const Stmt *s, const char **why)
{
	const Loop *l = s->loop;
	const Expr *c = l ? l->cond : NULL;
	uint32_t moved = 0;
	int64_t k;

	if (s->kind != ST_FOR || !l->ivs.len) {
		*why = "no induction variable";
		return false;
	}
	if (l->trip_count < 2) {
		*why = l->trip_count < 0 ? "the trip count is not a constant" : "one trip";
		return false;
	}
	if (!l->ivs.items[0].step_known || l->ivs.items[0].step <= 0 || !c ||
	    c->kind != EX_BINARY || (c->op != OP_LT && c->op != OP_LE) ||
	    strip_casts(c->lhs)->kind != EX_VAR || strip_casts(c->lhs)->var != l->ivs.items[0].var ||
	    !const_int(c->rhs, &k)) {
		*why = "the condition is not `iv < K` on an increasing IV";
		return false;
	}
	for (uint32_t i = 0; i < l->init.len; i++) {
		const Stmt *p = l->init.items[i];
		const Var *v = p->kind == ST_DECL ? p->var :
		               p->expr && p->expr->kind == EX_ASSIGN && p->expr->lhs &&
		               p->expr->lhs->kind == EX_VAR ? p->expr->lhs->var : NULL;
		const Expr *init = p->kind == ST_DECL ? p->expr :
		                   v && p->expr->op == OP_ASSIGN ? p->expr->rhs : NULL;

		if (!v || !find_iv(l, v) || !init || !const_int(init, &k)) {
			*why = v ? fmt("the header sets %s, not an induction variable from a constant",
			               intern_name(v->name))
			         : "the header's initializer is not a list of IV assignments";
			return false;
		}
	}
	if (!steps_ok(l, l->step, &moved) || moved != l->ivs.len) {
		*why = "the header's step updates something besides its induction variables";
		return false;
	}
	for (uint32_t i = 0; i < l->ivs.len; i++) {
		const Var *v = l->ivs.items[i].var;

		if (!l->ivs.items[i].step_known || v->addr_taken || defs_in(l->body, v) ||
		    defs_in_expr(l->cond, v)) {
			*why = fmt("induction variable %s is assigned in the loop", intern_name(v->name));
			return false;
		}
	}
	if (leaves_in(g, l->body, 0, 0, true)) {
		*why = "control leaves the loop body";
		return false;
	}
	if (s->unmodelled) {
		*why = "unmodelled construct in the loop";
		return false;
	}
	return true;
}

typedef Array(const Var *) VarList;

static void collect_var(const Expr *e, void *ctx)
{
	VarList *l = ctx;

	if (e->kind != EX_VAR)
		return;
	for (uint32_t i = 0; i < l->len; i++)
		if (l->items[i] == e->var)
			return;
	array_push(l, e->var);
}

/* Is v an IV of a one-trip loop between top and the split loop L? */
static bool wrapper_iv(const Stmt *top, const Stmt *L, const Var *v)
{
	for (const Stmt *s = top; s && s != L; s = wrapped_loop(s))
		if (find_iv(s->loop, v))
			return true;
	return false;
}

/*
 * Chunks of L are separate calls, each with its own locals: a callee local
 * that L uses must not carry a value from one iteration to another.  Fine
 * are locals declared in L's body, L's own IVs, IVs of the one-trip loops
 * around L that L does not assign, prologue locals every call recomputes
 * alike, and locals that a for header inside L's body assigns before each
 * use.
 */
static bool split_locals_ok(const Func *g, const Stmt *top, const Stmt *L, const char **why)
{
	VarList vars = { 0 };
	const Stmt *body = L->loop->body;
	bool ok = true;

	each_stmt_expr(L, collect_var, &vars);
	for (uint32_t i = 0; ok && i < vars.len; i++) {
		const Var *v = vars.items[i];
		uint32_t n;

		if (v->func != g || v->scope != VAR_LOCAL)
			continue; /* a parameter (never assigned) or a global (in the summary) */
		if (body && v->start >= body->start && v->end <= body->end)
			continue;
		n = refs_in(L, v);
		if (find_iv(L->loop, v) && refs_in(top, v) == n)
			continue;
		if (wrapper_iv(top, L, v) && defs_in(L, v) == 0)
			continue;
		if (pure_local(g, v) || top_scratch_var(g, v))
			continue;
		if (refs_in(g->body, v) == n && covered(L, v, n, body))
			continue;
		*why = fmt("local %s carries a value from one iteration to the next",
		           intern_name(v->name));
		ok = false;
	}
	array_free(&vars);
	return ok;
}

/* No effect in the call's arguments: each chunk call evaluates them again. */
static bool args_ok(const Expr *call)
{
	for (uint32_t i = 0; i < call->args.len; i++)
		if (!effect_free(call->args.items[i]))
			return false;
	return true;
}

/* First-IV value that starts chunk k of n (k == n: the end). */
static int64_t chunk_bound(const SplitLoop *sl, int64_t trip, int n, int k)
{
	if (k >= n)
		return sl->hi;
	return sl->lo + (int64_t)((__int128)k * trip / n) * sl->step;
}

static const char *object_name(const Dep *d)
{
	if (d->kind == DEP_BARRIER)
		return "an unknown call";
	return d->object ? intern_name(d->object->name) : "memory of unknown origin";
}

/*
 * Splits part sl of sb's callee into n chunks; true when their summaries
 * are pairwise independent (then the chunks go to out).
 */
static bool try_split(Ctx *c, MT *sb, SplitLoop *sl, int part, int n, double ops,
                      double pro_cost, ChunkList *out, const char **why)
{
	int64_t trip = sl->loop->loop->trip_count;
	Chunk *ch = xcalloc((size_t)n, sizeof(*ch));
	bool ok = true;
	Dep d;

	sl->split = true;
	for (int k = 0; ok && k < n; k++) {
		double share;

		ch[k].part = part;
		ch[k].lo = chunk_bound(sl, trip, n, k);
		ch[k].hi = chunk_bound(sl, trip, n, k + 1);
		ch[k].sum = sb->kind == MT_RB ? summarize_slice(sb, sl, ch[k].lo, ch[k].hi)
		                              : summarize_chunk(sb, sl, ch[k].lo, ch[k].hi);
		if (!ch[k].sum) {
			*why = "the chunks' index ranges cannot be bound";
			ok = false;
			break;
		}
		share = (double)(((__int128)(k + 1) * trip / n) - ((__int128)k * trip / n)) / (double)trip;
		ch[k].cost = pro_cost + ops * share + COST_PER_BYTE * footprint(ch[k].sum);
	}
	for (int i = 0; ok && i < n; i++) {
		for (int j = i + 1; ok && j < n; j++) {
			if (summary_conflict(ch[i].sum, ch[j].sum, &d)) {
				*why = fmt("iterations depend on each other through %s", object_name(&d));
				ok = false;
			}
		}
	}
	for (int k = 0; ok && k < n; k++)
		array_push(out, ch[k]);
	free(ch);
	sl->split = ok;
	return ok;
}

/*
 * One part of a decomposable callee: finds the loop to split, splits it
 * when its chunks are independent, else makes the whole part one chunk.
 * Returns whether it split.
 */
static bool plan_part(Ctx *c, MT *sb, SplitLoop *sl, int part, double pro_cost, ChunkList *out)
{
	Stmt *L = descend_one_trip(sl->top);
	const Loop *l = L->loop;
	double ops = stmt_cost(c, sl->top);
	const char *why = NULL;
	Chunk one;

	sl->loop = L;
	if (L->kind == ST_FOR && l->trip_count >= 0 && l->ivs.len && l->ivs.items[0].step_known &&
	    l->ivs.items[0].step > 0) {
		sl->lo = l->lower;
		sl->hi = l->upper;
		sl->step = l->ivs.items[0].step;
	}
	if (header_splittable(sb->callee, L, &why) && split_locals_ok(sb->callee, sl->top, L, &why)) {
		int64_t n = c->ncores < l->trip_count ? c->ncores : l->trip_count;

		if (n > (int64_t)(ops / MIN_CHUNK_COST))
			n = (int64_t)(ops / MIN_CHUNK_COST);
		if (n < 2)
			why = "too little work to split";
		else if (try_split(c, sb, sl, part, (int)n, ops, pro_cost, out, &why))
			return true;
	}
	sl->split = false;
	sl->why_not = why;
	one.part = part;
	one.lo = sl->lo;
	one.hi = sl->hi;
	one.sum = summarize_chunk(sb, sl, sl->lo, sl->hi);
	if (!one.sum)
		one.sum = sb->summary; /* the whole call: a superset */
	one.cost = pro_cost + ops + COST_PER_BYTE * footprint(one.sum);
	array_push(out, one);
	return false;
}

/* p's clone of g with these parts' split decisions, made once per plan. */
static Clone *clone_for(Ctx *c, ParPlan *p, Func *g, const PartList *parts)
{
	Clone *cl;

	for (uint32_t i = 0; i < p->clones.len; i++) {
		bool same;

		cl = p->clones.items[i];
		same = cl->callee == g && cl->parts.len == parts->len;
		for (uint32_t k = 0; same && k < parts->len; k++)
			same = cl->parts.items[k].split == parts->items[k].split;
		if (same)
			return cl;
	}
	cl = ARENA_NEW(Clone);
	cl->callee = g;
	cl->id = ++c->next_clone;
	for (uint32_t k = 0; k < parts->len; k++)
		array_push(&cl->parts, parts->items[k]);
	array_push(&p->clones, cl);
	return cl;
}

/* Cost of the callee's prologue: what every chunk call repeats. */
static double prologue_cost(Ctx *c, const Func *g)
{
	double sum = 0;

	for (uint32_t i = 0; i < g->mt->children.len; i++)
		if (g->mt->children.items[i]->kind == MT_BB)
			sum += mt_ops(c, g->mt->children.items[i]);
	return sum;
}

/*
 * With its workspaces replaced, no chunk may still touch the allocator or
 * the output, and each must have its own summary: the whole call's leaves
 * out a top-level workspace, through which the parts depend on each other.
 */
static bool chunks_stateless(const MT *sb, const ChunkList *chunks, const char **why)
{
	for (uint32_t k = 0; k < chunks->len; k++) {
		const Chunk *ch = &chunks->items[k];

		if (touches_state(ch->sum)) {
			*why = "the callee allocates, frees or does I/O outside its workspaces";
			return false;
		}
		if (ch->sum == sb->summary && has_top_scratch(sb->callee)) {
			*why = "a part that shares the callee's workspace cannot be summarized";
			return false;
		}
	}
	return true;
}

/*
 * Decomposes SB sb of f into chunks of its callee's top-level loops (out),
 * or returns NULL with the reason it stays whole.
 */
static Clone *decompose(Ctx *c, ParPlan *pl, MT *sb, ChunkList *out, const char **why)
{
	Func *f = pl->func;
	Func *g = sb->callee;
	const Summary *fs = func_summary(g);
	PartList parts = { 0 };
	Clone *cl = NULL;
	bool any = false;
	double pro;

	if (!g->body || !g->mt || !fs)
		*why = "the callee has no body";
	else if (g->src != f->src)
		*why = "the callee is in another file";
	else if (g->unmodelled.len)
		*why = fmt("the callee has a %s", unmodelled_name[g->unmodelled.items[0].kind]);
	else if (g->is_variadic)
		*why = "the callee is variadic";
	else if (fs->barrier)
		*why = "the callee calls something unknown";
	else if (touches_state(fs) && !workspace_only(g))
		*why = "the callee allocates, frees or does I/O";
	else if (has_top_scratch(g) && g->start > f->start)
		*why = "the callee's workspace allocator may be declared after the caller";
	else if (!args_ok(sb->call))
		*why = "the call's arguments have effects";
	else if (params_ok(g, why) && shape_ok(g, &parts, why) && locals_ok(g, &parts, why)) {
		/* every chunk call evaluates the arguments and the prologue again */
		Summary *pro_sum = summarize_chunk(sb, NULL, 0, 0);
		Dep d;

		if (!pro_sum || summary_conflict(sb->summary, pro_sum, &d)) {
			*why = "the call's arguments or the callee's declarations read what the call writes";
			goto out;
		}
		pro = prologue_cost(c, g);
		for (uint32_t p = 0; p < parts.len; p++)
			any |= plan_part(c, sb, &parts.items[p], (int)p, pro, out);
		if (!chunks_stateless(sb, out, why)) {
			out->len = 0;
			goto out;
		}
		if (!any && parts.len == 1) {
			*why = fmt("its loop is not split: %s", parts.items[0].why_not);
			out->len = 0;
			goto out;
		}
		cl = clone_for(c, pl, g, &parts);
	}
out:
	array_free(&parts);
	return cl;
}

/*
 * A slice runs the loop's own text on a core of the region, where f's
 * locals are shared: a local of f that the loop assigns must be declared
 * inside the loop (its header included).
 */
static bool slice_locals_ok(const Func *f, const Stmt *L, const char **why)
{
	VarList vars = { 0 };
	bool ok = true;

	each_stmt_expr(L, collect_var, &vars);
	for (uint32_t i = 0; ok && i < vars.len; i++) {
		const Var *v = vars.items[i];

		if (v->func != f || v->scope != VAR_LOCAL || (v->start >= L->start && v->end <= L->end))
			continue;
		if (defs_in(L, v)) {
			*why = fmt("the loop assigns %s, declared outside it", intern_name(v->name));
			ok = false;
		}
	}
	array_free(&vars);
	return ok;
}

/*
 * The level's own loop mt cut into slices of its first IV's range (out)
 * when they are independent; each runs the loop's text in place.
 */
static bool slice_loop(Ctx *c, MT *mt, SplitLoop *sl, ChunkList *out, const char **why)
{
	Stmt *L = mt->loop;
	double ops = stmt_cost(c, L);
	int64_t n;

	memset(sl, 0, sizeof(*sl));
	sl->top = sl->loop = L;
	if (!L || !header_splittable(mt->func, L, why) || !slice_locals_ok(mt->func, L, why))
		return false;
	sl->lo = L->loop->lower;
	sl->hi = L->loop->upper;
	sl->step = L->loop->ivs.items[0].step;
	n = c->ncores < L->loop->trip_count ? c->ncores : L->loop->trip_count;
	if (n > (int64_t)(ops / MIN_CHUNK_COST))
		n = (int64_t)(ops / MIN_CHUNK_COST);
	if (n < 2) {
		*why = "too little work to split";
		return false;
	}
	return try_split(c, mt, sl, 0, (int)n, ops, 0, out, why);
}

/* ------------------------------------------------------------------ */
/* Tasks and the task graph                                            */
/* ------------------------------------------------------------------ */

static void add_whole(Ctx *c, ParPlan *p, MT *mt, bool fold, const char *note)
{
	ParTask t;

	memset(&t, 0, sizeof(t));
	t.kind = TASK_WHOLE;
	t.mt = mt;
	t.fold_guard = fold;
	t.cost = mt_cost(c, mt);
	t.summary = mt->summary;
	t.name = fmt("MT%d", mt->id);
	t.note = note;
	t.on_core0 = touches_state(mt->summary);
	array_push(&p->tasks, t);
}

/* A task per chunk: of mt's callee clone cl, or (cl NULL) slices of mt's own loop sl. */
static void add_chunk_tasks(ParPlan *p, MT *mt, bool fold, Clone *cl, SplitLoop *sl,
                            const ChunkList *chunks)
{
	for (uint32_t k = 0; k < chunks->len; k++) {
		const Chunk *ch = &chunks->items[k];
		ParTask t;

		memset(&t, 0, sizeof(t));
		t.kind = cl ? TASK_CHUNK : TASK_SLICE;
		t.mt = mt;
		t.fold_guard = fold;
		t.clone = cl;
		t.slice = sl;
		t.part = ch->part;
		t.lo = ch->lo;
		t.hi = ch->hi;
		t.cost = ch->cost;
		t.summary = ch->sum;
		t.name = cl ? fmt("MT%d.p%d[%lld:%lld)", mt->id, ch->part, (long long)ch->lo,
		                  (long long)ch->hi)
		            : fmt("MT%d[%lld:%lld)", mt->id, (long long)ch->lo, (long long)ch->hi);
		array_push(&p->tasks, t);
	}
}

static void add_mt_tasks(Ctx *c, ParPlan *p, MT *mt)
{
	ChunkList chunks = { 0 };
	const char *why = NULL;
	bool fold = false;
	SplitLoop *sl;
	Clone *cl;

	task_ok(mt, &fold, &why);
	if (mt->kind == MT_RB) {
		sl = ARENA_NEW(SplitLoop);
		if (slice_loop(c, mt, sl, &chunks, &why))
			add_chunk_tasks(p, mt, fold, NULL, sl, &chunks);
		else
			add_whole(c, p, mt, fold, NULL);
	} else if (mt->kind != MT_SB) {
		add_whole(c, p, mt, fold, NULL);
	} else if ((cl = decompose(c, p, mt, &chunks, &why))) {
		add_chunk_tasks(p, mt, fold, cl, NULL, &chunks);
	} else {
		add_whole(c, p, mt, fold, why);
	}
	array_free(&chunks);
}

/* Bytes two regions may share: the overlap of known ranges, else the smaller one. */
static double overlap_bytes(const Region *a, const Region *b)
{
	double na = region_bytes(a), nb = region_bytes(b), n = 0;
	uint32_t i = 0, j = 0;

	if (a->base != b->base || a->whole || b->whole)
		return na < nb ? na : nb;
	while (i < a->ranges.len && j < b->ranges.len) {
		const ByteRange *x = &a->ranges.items[i], *y = &b->ranges.items[j];
		int64_t lo = x->lo > y->lo ? x->lo : y->lo, hi = x->hi < y->hi ? x->hi : y->hi;

		if (hi > lo && lo != REGION_BEGIN && hi != REGION_END)
			n += (double)(hi - lo);
		if (x->hi < y->hi)
			i++;
		else
			j++;
	}
	return n;
}

/* Data a flow dependence carries from one task to the other. */
static double flow_bytes(const Dep *deps, uint32_t n)
{
	double sum = 0;

	for (uint32_t i = 0; i < n && i < MAX_DEPS; i++)
		if (deps[i].kind == DEP_FLOW)
			sum += overlap_bytes(&deps[i].from->region, &deps[i].to->region);
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

	for (uint32_t i = 0; i < n; i++)
		taskgraph_add_task(&p->graph, p->tasks.items[i].name, p->tasks.items[i].cost,
		                   p->tasks.items[i].on_core0 ? 0 : -1);
	for (uint32_t j = 0; j < n; j++) {
		for (uint32_t i = 0; i < j; i++) {
			uint32_t k = summary_deps(p->tasks.items[i].summary, p->tasks.items[j].summary,
			                          deps, MAX_DEPS);
			Edge e = { i, j, 0 };

			if (!k)
				continue;
			e.bytes = flow_bytes(deps, k);
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
				taskgraph_add_edge(&p->graph, e->from, e->to, e->bytes);
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
static const char *no_span_why(const Func *f)
{
	bool fold;
	const char *why = "no macro task";

	for (uint32_t i = 0; f->mt && i < f->mt->children.len; i++) {
		const MT *mt = f->mt->children.items[i];

		if (!task_ok(mt, &fold, &why))
			return fmt("no macro task can run in a parallel region (MT%d: %s)", mt->id, why);
	}
	return why;
}

static void drop_tasks(ParPlan *p)
{
	p->tasks.len = 0;
	p->clones.len = 0;
	p->apart.len = 0;
	taskgraph_free(&p->graph);
	p->sched = NULL;
}

/* Does later depend on earlier through something besides the allocator and I/O state? */
static bool data_dep(const MT *earlier, const MT *later)
{
	Dep deps[MAX_DEPS];
	uint32_t n = summary_deps(earlier->summary, later->summary, deps, MAX_DEPS);

	if (n > MAX_DEPS)
		return true;
	for (uint32_t i = 0; i < n; i++)
		if (!deps[i].object || obj_kind(deps[i].object) != OBJ_STATE)
			return true;
	return false;
}

/* reach[j]: the span MTs (index from first) that span MT j depends on, transitively. */
static Bitset *span_deps(Func *f, uint32_t first, uint32_t n)
{
	Bitset *reach = arena_alloc(n * sizeof(*reach));

	for (uint32_t j = 0; j < n; j++) {
		bitset_init(&reach[j], n);
		for (uint32_t i = j; i-- > 0;) {
			if (bitset_has(&reach[j], i) ||
			    !data_dep(f->mt->children.items[first + i], f->mt->children.items[first + j]))
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

	for (s = 0; s < p->slots.len; s++) { /* one whose last user j depends on */
		ws = &p->slots.items[s];
		if (ws->last != j && bitset_has(&reach[j], ws->last))
			break;
	}
	if (s == p->slots.len) {
		WsSlot nw = { scratch_buffer(fmt("<workspace %u of %s>", s, name_of(p->func))), mt, sc,
		              false, j };

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
 * one.  Before decompose, which summarizes chunks with the slots' objects.
 */
static void assign_slots(ParPlan *p, Func *f, uint32_t first, uint32_t last)
{
	uint32_t n = last - first + 1;
	Bitset *reach = span_deps(f, first, n);

	for (uint32_t j = 0; j < n; j++) {
		const MT *mt = f->mt->children.items[first + j];
		bool only;
		const ScratchList *l;

		if (mt->kind != MT_SB || !workspace_only(mt->callee))
			continue;
		l = func_scratch(mt->callee, &only);
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
		l = func_scratch(task->mt->callee, &only);
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

/* The bytes from loaded object o's pointer that p's tasks reach; false if unbounded. */
static bool reach_of(const ParPlan *p, const Var *o, int64_t *lo, int64_t *hi)
{
	bool any = false;

	for (uint32_t t = 0; t < p->tasks.len; t++) {
		const Summary *s = p->tasks.items[t].summary;

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
				*lo = any && *lo < b->lo ? *lo : b->lo;
				*hi = any && *hi > b->hi ? *hi : b->hi;
				any = true;
			}
		}
	}
	return any;
}

/*
 * The checks that make the plan's assumption true (the loaded pointers'
 * memories it took for apart): each pair's reach from its two pointers,
 * both set before the span.  False when one cannot be made.
 */
static bool apart_checks(ParPlan *p)
{
	uint32_t n;
	const Var *const *pairs = alias_assumed(&n);
	uint32_t start = p->func->mt->children.items[p->first]->start;

	p->apart.len = 0;
	for (uint32_t i = 0; i < n; i++) {
		ApartCheck ck;

		if (!reach_of(p, pairs[2 * i], &ck.alo, &ck.ahi) ||
		    !reach_of(p, pairs[2 * i + 1], &ck.blo, &ck.bhi))
			return false;
		ck.a = obj_origin(pairs[2 * i]);
		ck.b = obj_origin(pairs[2 * i + 1]);
		if (!ck.a || !ck.b || ck.a->end > start || ck.b->end > start)
			return false;
		array_push(&p->apart, ck);
	}
	return true;
}

/* Tasks and their graph; with assume, loaded pointers' memories taken for apart. */
static void plan_tasks(Ctx *c, ParPlan *p, bool assume)
{
	Func *f = p->func;

	alias_assume_apart(assume);
	assign_slots(p, f, p->first, p->last);
	for (uint32_t i = p->first; i <= p->last; i++)
		add_mt_tasks(c, p, f->mt->children.items[i]);
	mark_slots(p);
	build_graph(p);
	alias_assume_apart(false);
}

static ParPlan *plan_function(Ctx *c, Func *f)
{
	ParPlan *p = ARENA_NEW(ParPlan);
	uint32_t first = 0, last = 0;
	double work;

	p->func = f;
	if (!f->mt || !best_span(c, f, &first, &last, &work)) {
		p->why_not = no_span_why(f);
		return p;
	}
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
	p->sched = schedule_graph(&p->graph, c->ncores, TRANSFER_PER_BYTE);
	for (uint32_t i = 0; i < f->mt->children.len; i++)
		p->func_cost += mt_cost(c, f->mt->children.items[i]);
	if (!(p->sched->makespan <= MIN_GAIN * p->sched->seq_time)) {
		p->why_not = fmt("predicted speedup %.2f on %d cores (%u tasks) is too small",
		                 p->sched->makespan > 0 ? p->sched->seq_time / p->sched->makespan : 1.0,
		                 c->ncores, p->tasks.len);
		drop_tasks(p);
	}
	return p;
}

/* The functions reachable from p's span, transitively. */
static void plan_reach(Ctx *c, const ParPlan *p, Bitset *out)
{
	span_reach(c, &p->func->mt->children.items[p->first], p->last - p->first + 1, out);
}

/*
 * No nested parallel regions: a plan whose function a parallelized span
 * reaches, or whose span reaches a parallelized function (or itself),
 * stays sequential.
 */
static void check_nesting(Ctx *c, PlanList *plans, Bitset *reach, ParPlan *p)
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
			p->why_not = fmt("called from the parallel span of %s", name_of(q->func));
			drop_tasks(p);
			return;
		}
		if (bitset_has(&mine, (uint32_t)q->func->id)) {
			p->why_not = fmt("its span calls %s, which is parallelized", name_of(q->func));
			drop_tasks(p);
			return;
		}
	}
	reach[plans->len] = mine;
}

PlanList plan_program(Program *prog, int ncores)
{
	uint32_t n = prog->funcs.len;
	PlanList plans = { 0 };
	Array(Func *) cands = { 0 };
	Bitset called, *reach;
	Ctx c;

	memset(&c, 0, sizeof(c));
	c.prog = prog;
	c.ncores = ncores < 1 ? 1 : ncores;
	c.fcost = xmalloc((n ? n : 1) * sizeof(*c.fcost));
	c.fbusy = xcalloc(n ? n : 1, sizeof(*c.fbusy));
	for (uint32_t i = 0; i < n; i++)
		c.fcost[i] = -1;
	build_calls(&c);
	bitset_init(&called, n);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t g = 0; bitset_iter(&c.calls[i], &g); g++)
			if (g != i)
				bitset_set(&called, g);
	/* the roots, each through the callees that hold its work */
	for (uint32_t i = 0; i < n; i++) {
		Func *f = prog->funcs.items[i];
		bool seen = false;

		if (bitset_has(&called, i) || !f->body || !f->mt)
			continue;
		f = choose_function(&c, f);
		for (uint32_t k = 0; k < cands.len; k++)
			seen |= cands.items[k] == f;
		if (!seen)
			array_push(&cands, f);
	}
	reach = arena_alloc((cands.len ? cands.len : 1) * sizeof(*reach));
	for (uint32_t k = 0; k < cands.len; k++) {
		ParPlan *p = plan_function(&c, cands.items[k]);

		memset(&reach[plans.len], 0, sizeof(reach[0]));
		if (!p->why_not)
			check_nesting(&c, &plans, reach, p);
		array_push(&plans, p);
	}
	array_free(&cands);
	free(c.fcost);
	free(c.fbusy);
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
		fprintf(out, "  part %u: loop %u:%u", i, line, col);
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
	if (task->note)
		fprintf(out, " [whole: %s]", task->note);
	fputc('\n', out);
	for (uint32_t i = 0; i < st->pred.len; i++) {
		const ParTask *from = &p->tasks.items[st->pred.items[i]];
		Dep d;

		if (!summary_conflict(from->summary, task->summary, &d))
			continue; /* cannot happen: every edge comes from a conflict */
		fprintf(out, "  after %s (%s %s)\n", from->name, dep_kind_name[d.kind],
		        object_name(&d));
	}
}

/* The span's gain over the whole function: the code outside it stays sequential. */
static void dump_whole(FILE *out, const ParPlan *p)
{
	double rest = p->func_cost - p->sched->seq_time;
	double par = (rest > 0 ? rest : 0) + p->sched->makespan;

	fprintf(out, "whole function: sequential %.0f, parallel %.0f, predicted speedup %.2f\n",
	        p->sched->seq_time + (rest > 0 ? rest : 0), par,
	        par > 0 ? (p->sched->seq_time + (rest > 0 ? rest : 0)) / par : 1.0);
}

void plan_dump(FILE *out, const PlanList *plans)
{
	for (uint32_t i = 0; i < plans->len; i++) {
		const ParPlan *p = plans->items[i];
		uint32_t chunks = 0;

		fprintf(out, "plan %s", name_of(p->func));
		if (p->why_not) {
			fprintf(out, ": sequential: %s\n", p->why_not);
			continue;
		}
		for (uint32_t t = 0; t < p->tasks.len; t++)
			chunks += p->tasks.items[t].kind == TASK_CHUNK;
		fprintf(out, ": span MT%d..MT%d, %u tasks (%u chunks), %u clones\n",
		        p->func->mt->children.items[p->first]->id,
		        p->func->mt->children.items[p->last]->id, p->tasks.len, chunks,
		        p->clones.len);
		for (uint32_t k = 0; k < p->clones.len; k++)
			dump_clone(out, p->clones.items[k]);
		for (uint32_t t = 0; t < p->tasks.len; t++)
			dump_task(out, p, t);
		schedule_dump(out, &p->graph, p->sched);
		if (p->power)
			power_dump(out, &p->graph, p->sched, p->power, p->power->table);
		dump_whole(out, p);
	}
}
