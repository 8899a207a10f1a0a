/*
 * loop.c - the loop recogniser, the only one: induction variables of a
 * for-header (assigned in the initializer, moved by a constant step in the
 * update), which one the condition tests, and the trip count when constant.
 */
#include <string.h>

#include "frontend.h"

bool loop_init_assign(const Stmt *s, Var **v, Expr **init)
{
	const Expr *e = s->expr;

	if (s->kind == ST_DECL && s->var && e && e->kind != EX_INIT) {
		*v = s->var;
		*init = s->expr;
		return true;
	}
	if (s->kind == ST_EXPR && e && e->kind == EX_ASSIGN && e->op == OP_ASSIGN &&
	    e->lhs && e->lhs->kind == EX_VAR) {
		*v = e->lhs->var;
		*init = e->rhs;
		return true;
	}
	return false;
}

bool loop_update_parts(const Expr *e, const Var *v, const Expr **amount, int *sign)
{
	const Expr *r;

	*amount = NULL;
	*sign = 1;
	if (!e || !ir_is_var(e->lhs, v))
		return false;
	if (ir_is_incdec(e)) {
		*sign = e->op == OP_PREINC || e->op == OP_POSTINC ? 1 : -1;
		return true;
	}
	if (e->kind != EX_ASSIGN)
		return false;
	r = e->rhs;
	if (e->op == OP_ADD || e->op == OP_SUB) {
		*amount = r;
		*sign = e->op == OP_SUB ? -1 : 1;
		return true;
	}
	if (e->op != OP_ASSIGN || !r || r->kind != EX_BINARY)
		return false;
	if (r->op == OP_ADD && ir_is_var(ir_strip_casts(r->lhs), v))
		*amount = r->rhs;
	else if (r->op == OP_ADD && ir_is_var(ir_strip_casts(r->rhs), v))
		*amount = r->lhs;
	else if (r->op == OP_SUB && ir_is_var(ir_strip_casts(r->lhs), v))
		*amount = r->rhs;
	else
		return false;
	*sign = r->op == OP_SUB ? -1 : 1;
	return true;
}

bool loop_update_step(const Expr *e, const Var *v, int64_t *step, bool *known)
{
	const Expr *amount;
	int sign;

	*step = 0;
	*known = false;
	if (!loop_update_parts(e, v, &amount, &sign))
		return false;
	if (!amount) {
		*step = sign;
		*known = true;
	} else {
		*known = ir_const_eval(amount, step);
		*step = sign < 0 ? -*step : *step;
	}
	return true;
}

/* v's update among the comma-separated parts of a for-step. */
static bool loop_find_step(const Expr *e, const Var *v, int64_t *step, bool *known)
{
	for (; e && e->kind == EX_COMMA; e = e->rhs)
		if (loop_update_step(e->lhs, v, step, known))
			return true;
	return loop_update_step(e, v, step, known);
}

/* Moves the induction variable the condition tests to the front. */
static void cond_iv_first(Loop *lp)
{
	const Expr *c = lp->cond;

	if (!c || c->kind != EX_BINARY)
		return;
	for (uint32_t i = 1; i < lp->ivs.len; i++) {
		InductionVar iv = lp->ivs.items[i];

		if (!ir_is_var(c->lhs, iv.var) && !ir_is_var(c->rhs, iv.var))
			continue;
		memmove(&lp->ivs.items[1], &lp->ivs.items[0], i * sizeof(iv));
		lp->ivs.items[0] = iv;
		return;
	}
}

/* Iterations of 'v = from; v < to; v += step'. */
static int64_t count_up(int64_t from, int64_t to, int64_t step)
{
	if (from >= to)
		return 0;
	return step > 0 ? (to - from + step - 1) / step : -1;
}

/* Iterations of 'v = from; v > to; v += step' (step < 0). */
static int64_t count_down(int64_t from, int64_t to, int64_t step)
{
	if (from <= to)
		return 0;
	return step < 0 ? (from - to - step - 1) / -step : -1;
}

/* Iterations of 'v = init; v OP k; v += step'; *upper gets the exclusive bound. */
static int64_t trip(OpKind op, int64_t init, int64_t k, int64_t step, int64_t *upper)
{
	*upper = k;
	switch (op) {
	case OP_LT:
		return count_up(init, k, step);
	case OP_LE:
		*upper = k + 1;
		return count_up(init, k + 1, step);
	case OP_GT:
		return count_down(init, k, step);
	case OP_GE:
		*upper = k - 1;
		return count_down(init, k - 1, step);
	case OP_NE:
		if ((k - init) % step != 0 || (k - init) / step < 0)
			return -1;
		return (k - init) / step;
	default:
		return -1;
	}
}

OpKind loop_flip_cmp(OpKind op)
{
	switch (op) {
	case OP_LT: return OP_GT;
	case OP_GT: return OP_LT;
	case OP_LE: return OP_GE;
	case OP_GE: return OP_LE;
	default: return op;
	}
}

/* lower, upper and trip_count of the first IV under 'iv OP K' or 'K OP iv'. */
const Expr *loop_iv_bound(const Loop *lp, OpKind *op)
{
	const Expr *c = lp->cond;
	const InductionVar *iv;

	if (!lp->ivs.len || !c || c->kind != EX_BINARY)
		return NULL;
	iv = &lp->ivs.items[0];
	if (!iv->step_known || iv->step == 0)
		return NULL;
	*op = c->op;
	if (ir_is_var(c->lhs, iv->var))
		return c->rhs;
	*op = loop_flip_cmp(c->op);
	return ir_is_var(c->rhs, iv->var) ? c->lhs : NULL;
}

#define LINEAR_MAX ((int64_t)1 << 40) /* |a|, |b| and the bound: no overflow below */

static bool small(int64_t x, int64_t lim)
{
	return x > -lim && x < lim;
}

/*
 * Computed in a signed type, so that it cannot wrap (a signed overflow is
 * undefined): `j + 4294967290u` is `j - 6` in unsigned arithmetic, and a cast
 * may narrow (`(unsigned char)(7 * j)`); neither is read as a line.
 */
static bool signed_arith(const Expr *e)
{
	return e && e->type && e->type->kind == TY_INT && !e->type->is_unsigned && e->kind != EX_CAST;
}

bool loop_linear_in(const Expr *e, const Var *v, int64_t *a, int64_t *b)
{
	int64_t k;

	if (!signed_arith(e))
		return false;
	if (ir_is_var(e, v)) {
		*a = 1, *b = 0;
		return true;
	}
	if (e->kind != EX_BINARY || !signed_arith(e->lhs) || !signed_arith(e->rhs))
		return false;
	if (e->op == OP_MUL) {
		if (!(ir_const_eval(e->lhs, &k) && loop_linear_in(e->rhs, v, a, b)) &&
		    !(ir_const_eval(e->rhs, &k) && loop_linear_in(e->lhs, v, a, b)))
			return false;
		if (!small(k, 1 << 16) || !small(*a, 1 << 20))
			return false;
		*a *= k, *b *= k; /* |b| < 2^40 before: < 2^56 */
		return small(*b, LINEAR_MAX);
	}
	if (e->op != OP_ADD && e->op != OP_SUB)
		return false;
	if (ir_const_eval(e->rhs, &k) && loop_linear_in(e->lhs, v, a, b))
		*b += e->op == OP_ADD ? k : -k;
	else if (e->op == OP_ADD && ir_const_eval(e->lhs, &k) && loop_linear_in(e->rhs, v, a, b))
		*b += k;
	else
		return false;
	return small(k, LINEAR_MAX) && small(*b, LINEAR_MAX);
}

static int64_t floor_div(int64_t x, int64_t d) /* d > 0 */
{
	return x >= 0 ? x / d : -((-x + d - 1) / d);
}

/*
 * `a * iv + b < K` (or <=, or the sides swapped), a > 0, for iv from init
 * up: the bound of a loop over pairs or with a margin (`2 * j + 1 < m`,
 * `i + 1 < n`) as the exclusive bound on iv itself, *k.  Both sides are
 * signed arithmetic (loop_linear_in), so the comparison is a signed one.
 */
static bool scaled_bound(const Loop *lp, const InductionVar *iv, int64_t init, int64_t *k)
{
	const Expr *c = lp->cond, *other;
	int64_t a, b, kk;
	OpKind op;

	if (!c || c->kind != EX_BINARY || !iv->var->type || iv->var->type->is_unsigned)
		return false;
	op = c->op, other = c->rhs;
	if (!loop_linear_in(c->lhs, iv->var, &a, &b)) {
		op = loop_flip_cmp(op), other = c->lhs;
		if (!loop_linear_in(c->rhs, iv->var, &a, &b))
			return false;
	}
	if (a <= 0 || !small(init, LINEAR_MAX) || !signed_arith(other) || !ir_const_eval(other, &kk) ||
	    !small(kk, LINEAR_MAX))
		return false;
	if (op == OP_LT)
		*k = floor_div(kk - b - 1, a) + 1;
	else if (op == OP_LE)
		*k = floor_div(kk - b, a) + 1;
	else
		return false;
	return true;
}

/*
 * Does the comparison cond make in an unsigned type (the usual arithmetic
 * conversions: `i < 200000u`, `i < sizeof a / sizeof a[0]`)?  A signed
 * counter is then compared as its unsigned conversion.
 */
static bool compares_unsigned(const Expr *cond)
{
	const Type *a, *b;
	uint32_t sa, sb;
	bool ua, ub;

	if (!cond || cond->kind != EX_BINARY || !cond->lhs || !cond->rhs)
		return false;
	a = cond->lhs->type, b = cond->rhs->type;
	if (!a || !b || a->kind != TY_INT || b->kind != TY_INT)
		return false; /* a float, or an int after promotion (bool, enum, narrow ints) */
	sa = a->size < 4 ? 4 : a->size, ua = a->size >= 4 && a->is_unsigned;
	sb = b->size < 4 ? 4 : b->size, ub = b->size >= 4 && b->is_unsigned;
	return sa != sb ? (sa > sb ? ua : ub) : (ua || ub);
}

/* The first IV's trips, start and bound as constants fold now; -1 when they do not. */
static int64_t trips_now(const Loop *lp, int64_t *lower, int64_t *upper)
{
	const Expr *bound;
	const InductionVar *iv;
	int64_t init, k, n;
	OpKind op;

	if (!(bound = loop_iv_bound(lp, &op))) {
		iv = lp->ivs.len ? &lp->ivs.items[0] : NULL;
		if (!iv || !iv->step_known || iv->step <= 0 || !ir_const_eval(iv->init, &init) ||
		    !scaled_bound(lp, iv, init, &k))
			return -1;
		*lower = init;
		return trip(OP_LT, init, k, iv->step, upper);
	}
	iv = &lp->ivs.items[0];
	if (!ir_const_eval(iv->init, &init) || !ir_const_eval(bound, &k))
		return -1;
	if (compares_unsigned(lp->cond) && iv->var->type && !iv->var->type->is_unsigned &&
	    (init < 0 || k < 0 || iv->step < 0))
		return -1; /* `i < 200000u` from i = -5 runs no time: -5 converts to 4294967291 */
	n = trip(op, init, k, iv->step, upper);
	if (n < 0 || (iv->var->type && iv->var->type->is_unsigned && (k < 0 || *upper < 0)))
		return -1;
	*lower = init;
	return n;
}

int64_t loop_trips_now(const Loop *lp)
{
	int64_t lower, upper;

	return trips_now(lp, &lower, &upper);
}

bool loop_value_range(const Loop *lp, int64_t *lo, int64_t *hi, int64_t *step)
{
	const InductionVar *iv = lp->ivs.len ? &lp->ivs.items[0] : NULL;

	if (lp->trip_count < 0 || !iv || !iv->step_known || iv->step == 0 || iv->step == INT64_MIN)
		return false;
	if (iv->step > 0) {
		*lo = lp->lower, *hi = lp->upper, *step = iv->step;
		return true;
	}
	*step = -iv->step; /* small: the trip count folded */
	*hi = lp->lower + *step;
	*lo = lp->trip_count ? lp->lower - (lp->trip_count - 1) * *step : *hi;
	return true;
}

static void compute_trip(Loop *lp)
{
	int64_t lower, upper, n = trips_now(lp, &lower, &upper);

	if (n < 0)
		return;
	lp->trip_count = n;
	lp->lower = lower;
	lp->upper = upper;
}

void loop_recognise(Loop *lp)
{
	for (uint32_t i = 0; i < lp->init.len; i++) {
		InductionVar iv = { 0 };

		if (!loop_init_assign(lp->init.items[i], &iv.var, &iv.init))
			continue;
		if (loop_find_step(lp->step, iv.var, &iv.step, &iv.step_known))
			array_push(&lp->ivs, iv);
	}
	cond_iv_first(lp);
	compute_trip(lp);
}

Var *loop_updated_var(const Expr *u)
{
	if (!u || (u->kind != EX_UNARY && u->kind != EX_ASSIGN))
		return NULL;
	if (u->kind == EX_UNARY && !ir_is_incdec(u))
		return NULL;
	return u->lhs && u->lhs->kind == EX_VAR ? u->lhs->var : NULL;
}

/* The expression l's initializer sets v to, or NULL. */
Expr *loop_init_of(const Loop *l, const Var *v)
{
	for (uint32_t i = 0; i < l->init.len; i++) {
		Var *u;
		Expr *init;

		if (loop_init_assign(l->init.items[i], &u, &init) && u == v)
			return init;
	}
	return NULL;
}

/*
 * `v = iv0`: a step part that copies the first IV into another header
 * variable (onnx2c's max-pool `m++, c=m`).  Whether it follows iv0's own
 * update and starts where iv0 starts is for the caller to check.
 */
bool loop_copies_first_iv(const Loop *l, const Expr *u)
{
	return l->ivs.len && u && u->kind == EX_ASSIGN && u->op == OP_ASSIGN && u->lhs &&
	       u->lhs->kind == EX_VAR && !loop_find_iv(l, u->lhs->var) && u->rhs &&
	       u->rhs->kind == EX_VAR && u->rhs->var == l->ivs.items[0].var;
}

const InductionVar *loop_find_iv(const Loop *l, const Var *v)
{
	for (uint32_t i = 0; i < l->ivs.len; i++)
		if (l->ivs.items[i].var == v)
			return &l->ivs.items[i];
	return NULL;
}

/*
 * Is every use of v inside `top` dominated by an assignment in the same
 * run of a for statement S within top (S's initializer assigns v; v has
 * no other reference in that initializer)?  The outermost such loops are
 * counted: `j` of two sibling loops `for (j = 0; ...)` in one body is
 * covered by the two.  Then v carries nothing into any S from before.
 */
typedef struct Cover {
	const Var *var;
	const Stmt *inside;  /* S must lie in this statement, or NULL */
	uint32_t covered;    /* references of var inside the loops found */
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

	if (!s)
		return;
	if (s->kind == ST_FOR && init_assigns(s, c->var) &&
	    (!c->inside || (s->start >= c->inside->start && s->end <= c->inside->end))) {
		for (uint32_t i = 0; i < s->loop->init.len; i++)
			in_init += ir_var_refs(s->loop->init.items[i], c->var);
		if (in_init == 1) {
			c->covered += ir_var_refs(s, c->var);
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

bool loop_covers(const Stmt *top, const Var *v, uint32_t want, const Stmt *inside)
{
	Cover c = { v, inside, 0 };

	find_cover(top, &c);
	return c.covered == want;
}
