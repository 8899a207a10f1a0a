/*
 * cost.c - middle stage: the cost model of the parallel plan.  A task's
 * time is its operations (each expression's operators and memory
 * references, times the trip counts of the loops around it, callees
 * included) plus its memory traffic (the bytes its summary reads and
 * writes).  The unit is one simple operation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "middle.h"

#define DEFAULT_TRIPS 64.0     /* a loop whose trip count is not a constant */
#define COST_MEM 1.0           /* a memory reference */
#define COST_DIV 2.0           /* division and remainder (mostly by constants) */
#define COST_LIBCALL 20.0      /* a library call: math functions */
#define COST_PER_BYTE 0.125    /* memory traffic: each byte of a task's footprint */

void cost_init(CostModel *cm, Program *prog)
{
	uint32_t n = prog->funcs.len;

	cm->prog = prog;
	cm->fcost = xmalloc((n ? n : 1) * sizeof(*cm->fcost));
	cm->fbusy = xcalloc(n ? n : 1, sizeof(*cm->fbusy));
	cm->outer_len = cm->outer_base = 0;
	for (uint32_t i = 0; i < n; i++)
		cm->fcost[i] = -1;
}

void cost_free(CostModel *cm)
{
	free(cm->fcost);
	free(cm->fbusy);
}

/* ------------------------------------------------------------------ */
/* Operations x trip counts                                            */
/* ------------------------------------------------------------------ */

static bool name_is(int name, const char *s)
{
	return name && strcmp(intern_name(name), s) == 0;
}

static double call_cost(CostModel *c, const Expr *e, double args)
{
	int64_t n;

	if (e->callee_func)
		return 2 + args + cost_func(c, e->callee_func);
	if ((name_is(e->name, "memcpy") || name_is(e->name, "memmove") ||
	     name_is(e->name, "memset")) && e->args.len == 3)
		return 2 + args + (plan_const(e->args.items[2], &n) && n > 0 ? n / 4.0 : 64);
	return COST_LIBCALL + args;
}

/*
 * in_addr: e is the array operand of an enclosing subscript (no load of
 * its own); idx: e computes an index, whose arithmetic the compiler mostly
 * strength-reduces or hoists (it counts a quarter).
 */
static double expr_cost(CostModel *c, const Expr *e, bool in_addr, bool idx)
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

static double ecost(CostModel *c, const Expr *e)
{
	return expr_cost(c, e, false, false);
}

/* ------------------------------------------------------------------ */
/* Trips of loops whose bounds are not constants                       */
/* ------------------------------------------------------------------ */

/*
 * A bound as a sum of variables times constants plus a constant.  The
 * trips of `for (m = go * g; m < go * (g + 1); m++)` (onnx2c's grouped
 * convolutions) are the same in every iteration of g although neither
 * bound is a constant; those of `j <= i` are those of i's mean value.
 */
enum { MAX_TERMS = 8 };

typedef struct Affine {
	const Var *var[MAX_TERMS];
	double coef[MAX_TERMS];
	uint32_t n;
	double k;
} Affine;

static void affine_add_var(Affine *a, const Var *v, double coef)
{
	for (uint32_t i = 0; i < a->n; i++)
		if (a->var[i] == v) {
			a->coef[i] += coef;
			return;
		}
	if (a->n < MAX_TERMS) {
		a->var[a->n] = v;
		a->coef[a->n++] = coef;
	} else {
		a->k = NAN; /* too many terms: no estimate */
	}
}

/* a += scale * e; false when e is not affine. */
static bool affine_of(const Expr *e, double scale, Affine *a)
{
	int64_t n;

	e = ir_strip_casts(e);
	if (!e)
		return false;
	if (ir_const_eval(e, &n)) {
		a->k += scale * (double)n;
		return true;
	}
	switch (e->kind) {
	case EX_VAR:
		affine_add_var(a, e->var, scale);
		return true;
	case EX_UNARY:
		return e->op == OP_NEG ? affine_of(e->lhs, -scale, a)
		       : e->op == OP_PLUS && affine_of(e->lhs, scale, a);
	case EX_BINARY:
		if (e->op == OP_ADD || e->op == OP_SUB)
			return affine_of(e->lhs, scale, a) &&
			       affine_of(e->rhs, e->op == OP_ADD ? scale : -scale, a);
		if (e->op != OP_MUL)
			return false;
		if (ir_const_eval(ir_strip_casts(e->lhs), &n))
			return affine_of(e->rhs, scale * (double)n, a);
		if (ir_const_eval(ir_strip_casts(e->rhs), &n))
			return affine_of(e->lhs, scale * (double)n, a);
		return false;
	default:
		return false;
	}
}

/* The mean value of an enclosing loop's IV v, if the walk knows one. */
static bool outer_mean(const CostModel *c, const Var *v, double *mean)
{
	for (uint32_t i = c->outer_len; i-- > c->outer_base;)
		if (c->outer[i].var == v) {
			*mean = c->outer[i].mean;
			return true;
		}
	return false;
}

/* A's value with the enclosing IVs at their means; false when other variables remain. */
static bool affine_value(const CostModel *c, const Affine *a, double *out)
{
	double v = a->k, mean;

	if (isnan(v))
		return false;
	for (uint32_t i = 0; i < a->n; i++) {
		if (a->coef[i] == 0)
			continue;
		if (!outer_mean(c, a->var[i], &mean))
			return false;
		v += a->coef[i] * mean;
	}
	*out = v;
	return true;
}

/* The estimated trips of a for loop `iv = A; iv OP B; iv += step` with A, B affine; < 0: none. */
static double symbolic_trips(const CostModel *c, const Loop *l)
{
	const InductionVar *iv;
	const Expr *bound;
	Affine d = { 0 };
	double span;
	OpKind op;

	if (!(bound = loop_iv_bound(l, &op)) || !(iv = &l->ivs.items[0])->init)
		return -1;
	if (!affine_of(bound, 1, &d) || !affine_of(iv->init, -1, &d) || !affine_value(c, &d, &span))
		return -1;
	if (iv->step < 0) {
		span = -span;
		op = loop_flip_cmp(op);
	}
	if (op == OP_LE)
		span += 1;
	else if (op != OP_LT)
		return -1;
	span = ceil(span / (double)(iv->step < 0 ? -iv->step : iv->step));
	return span > 0 ? span : 0;
}

double cost_loop_trips(const CostModel *c, const Stmt *s)
{
	double n;

	if (s->kind != ST_FOR)
		return DEFAULT_TRIPS;
	if (s->loop->trip_count >= 0)
		return (double)s->loop->trip_count;
	n = symbolic_trips(c, s->loop);
	return n >= 0 ? n : DEFAULT_TRIPS;
}

/* Enters a for loop in cost_stmt's walk: its first IV's mean value, when it has one. */
static bool outer_push(CostModel *c, const Stmt *s, double trips)
{
	const InductionVar *iv;
	Affine a = { 0 };
	double init;

	if (s->kind != ST_FOR || !s->loop->ivs.len || c->outer_len >= COST_MAX_OUTER)
		return false;
	iv = &s->loop->ivs.items[0];
	if (!iv->step_known || !iv->init || !affine_of(iv->init, 1, &a) || !affine_value(c, &a, &init))
		return false;
	c->outer[c->outer_len].var = iv->var;
	c->outer[c->outer_len++].mean = init + (trips > 1 ? (trips - 1) * (double)iv->step / 2 : 0);
	return true;
}

double cost_stmt(CostModel *c, const Stmt *s)
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
			sum += cost_stmt(c, s->body.items[i]);
		return sum;
	case ST_IF:
		a = cost_stmt(c, s->then);
		b = cost_stmt(c, s->els);
		return 1 + ecost(c, s->expr) + (a > b ? a : b);
	case ST_FOR:
	case ST_WHILE:
	case ST_DO: {
		double trips = cost_loop_trips(c, s);
		bool pushed = outer_push(c, s, trips);

		for (uint32_t i = 0; i < s->loop->init.len; i++)
			sum += cost_stmt(c, s->loop->init.items[i]);
		sum += trips * (1 + ecost(c, s->loop->cond) + ecost(c, s->loop->step) +
		                cost_stmt(c, s->loop->body));
		c->outer_len -= pushed;
		return sum;
	}
	case ST_SWITCH:
		return 1 + ecost(c, s->expr) + cost_stmt(c, s->then);
	case ST_CASE:
	case ST_LABEL:
		return cost_stmt(c, s->then);
	default:
		return 0;
	}
}

/* One call of f, its callees included; a recursive call counts nothing. */
double cost_func(CostModel *c, Func *f)
{
	uint32_t base = c->outer_base;

	if (c->fcost[f->id] >= 0)
		return c->fcost[f->id];
	if (c->fbusy[f->id])
		return 0;
	c->fbusy[f->id] = true;
	c->outer_base = c->outer_len; /* a callee's body sees no loop of its caller */
	c->fcost[f->id] = cost_stmt(c, f->body);
	c->outer_base = base;
	c->fbusy[f->id] = false;
	return c->fcost[f->id];
}

double cost_mt_ops(CostModel *c, const MT *mt)
{
	double sum = 0;

	/* a test whose arms are MTs of their own (mt.c's cut_if): the condition alone */
	if (mt->kind == MT_BB && mt->ends_in_branch && mt->stmts.len == 1 &&
	    mt->stmts.items[0]->kind == ST_IF && mt->end < mt->stmts.items[0]->end)
		return 1 + ecost(c, mt->stmts.items[0]->expr);

	for (uint32_t i = 0; i < mt->stmts.len; i++)
		sum += cost_stmt(c, mt->stmts.items[i]);
	return sum;
}

/* ------------------------------------------------------------------ */
/* Memory traffic                                                      */
/* ------------------------------------------------------------------ */

/* Bytes in r's ranges with both ends known; a whole object of known size. */
static double cost_region_bytes(const Region *r)
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
		n += cost_region_bytes(&s->acc.items[i].region);
	return n;
}

/*
 * The traffic is at most what the task's memory references can move, 8
 * bytes each, and each is one of its ops: a summary's ranges are a hull,
 * and those of a loop's body span every iteration of the loop (max-pool's
 * `X[c][i0][i1]` under `for (m = 0, c = 0; ...)`: all of X where one run
 * reads a row), which counted 100 times the work of one run.
 */
double cost_with_traffic(double ops, const Summary *s)
{
	double bytes = footprint(s), most = 8 * ops;

	return ops + COST_PER_BYTE * (bytes < most ? bytes : most);
}

double cost_mt(CostModel *c, const MT *mt)
{
	return cost_with_traffic(cost_mt_ops(c, mt), mt->summary);
}

double cost_shared_bytes(const Region *a, const Region *b)
{
	double na = cost_region_bytes(a), nb = cost_region_bytes(b), n = 0;
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
