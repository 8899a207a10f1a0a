/*
 * ranges.c - access analysis: the ranges variables hold where they are
 * used: every definition counted, loops' induction ranges (bounded by the
 * condition or the trip count), conditions narrowing the arms they guard.
 */
#include <stdlib.h>

#include "middle.h"


/* ---- loop table: Stmt* -> LoopInfo ---- */

static uint32_t loop_hash(const Stmt *s, uint32_t cap)
{
	uintptr_t x = (uintptr_t)s;

	x ^= x >> 17;
	x *= 0x9E3779B97F4A7C15u;
	return (uint32_t)(x >> 32) & (cap - 1);
}

static LoopInfo *loop_get(const Stmt *s)
{
	if (!acc.loop_cap)
		return NULL;
	for (uint32_t i = loop_hash(s, acc.loop_cap);; i = (i + 1) & (acc.loop_cap - 1)) {
		if (!acc.loops[i])
			return NULL;
		if (acc.loops[i]->loop == s)
			return acc.loops[i];
	}
}

static void loop_put(LoopInfo *li)
{
	if (2 * (acc.loop_len + 1) > acc.loop_cap) {
		uint32_t old = acc.loop_cap;
		LoopInfo **tab = acc.loops;

		acc.loop_cap = old ? 2 * old : 64;
		acc.loops = xcalloc(acc.loop_cap, sizeof(*acc.loops));
		acc.loop_len = 0;
		for (uint32_t i = 0; i < old; i++)
			if (tab[i])
				loop_put(tab[i]);
		free(tab);
	}
	uint32_t i = loop_hash(li->loop, acc.loop_cap);
	while (acc.loops[i])
		i = (i + 1) & (acc.loop_cap - 1);
	acc.loops[i] = li;
	acc.loop_len++;
}

/* ---- pre-pass 1: who defines what ---- */

static void note_def(Var *v, Expr *rhs, uint32_t at, bool self)
{
	VarInfo *vi = acc_info(v);

	vi->ndefs++;
	array_push(&vi->def_at, at);
	if (self) {
		vi->self_def = true;
	} else {
		vi->def = rhs;
		array_push(&vi->rhs, rhs);
	}
}

static void defs_expr(Expr *e, void *ctx)
{
	Var *v;

	if (e->kind == EX_ASSIGN && e->lhs && e->lhs->kind == EX_VAR)
		note_def(e->lhs->var, e->rhs, e->start, e->op != OP_ASSIGN);
	else if (e->kind == EX_ASSIGN && (v = ir_storage_root(e->lhs)))
		note_def(v, NULL, e->start, true); /* a member of a struct variable */
	if (e->kind == EX_UNARY && e->lhs &&
	    ir_is_incdec(e) && (v = ir_storage_root(e->lhs)))
		note_def(v, NULL, e->start, true);
	if (e->kind == EX_UNARY && e->op == OP_ADDR && (v = ir_storage_root(e->lhs)))
		acc_info(v)->addr = true;
}

static void defs_stmt(Stmt *s, void *ctx)
{
	if (s->kind == ST_DECL && s->var) /* a length may assign: `double (*p)[n += 4]` */
		ir_visit_type_lengths(s->var->type, defs_expr, NULL);
	if (s->kind == ST_DECL && s->expr && s->var)
		note_def(s->var, s->expr, s->start, false);
}

/* Defines the parameters' objects and counts every definition in f. */
void range_scan_defs(Func *f)
{
	for (uint32_t i = 0; i < f->params.len; i++) {
		Var *p = f->params.items[i];

		acc_info(p)->param_index = (int)i;
		ir_visit_type_lengths(p->type, defs_expr, NULL);
		if (type_is_ptr(p->type) || type_is_array(p->type) ||
		    (p->type && p->type->kind == TY_NAMED &&
		     !type_int_typedef(p->type->tag, &(int){ 0 }, &(bool){ false })))
			obj_star(p, OBJ_POINTEE, -1);
	}
	ir_visit_stmt(f->body, defs_expr, defs_stmt, NULL);
}

/* Definitions of v whose source byte lies in [start, end). */
static uint32_t defs_in(const Var *v, uint32_t start, uint32_t end)
{
	VarInfo *vi = acc_lookup(v);
	uint32_t n = 0;

	for (uint32_t i = 0; vi && i < vi->def_at.len; i++)
		n += vi->def_at.items[i] >= start && vi->def_at.items[i] < end;
	return n;
}

/* ---- pre-pass 2: loops' induction variables, definitions' values ---- */

/* May the range of v be narrowed for code in [start, end)? */
static bool narrowable(const Var *v, const Env *env, uint32_t start, uint32_t end)
{
	VarInfo *vi = acc_lookup(v);

	if (!val_followable(v) || defs_in(v, start, end) > 0)
		return false;
	return val_env_find(env, v) || val_single_def(vi) || vi->ndefs == 0;
}

/* `v op E` from a comparison with a variable on either side. */
static bool match_cmp(const Expr *c, Var **v, OpKind *op, const Expr **bound)
{
	const Expr *l, *r;

	if (!c || c->kind != EX_BINARY)
		return false;
	if (c->op != OP_LT && c->op != OP_LE && c->op != OP_GT && c->op != OP_GE &&
	    c->op != OP_EQ && c->op != OP_NE)
		return false;
	l = ir_strip_casts(c->lhs);
	r = ir_strip_casts(c->rhs);
	*op = c->op;
	if (l && l->kind == EX_VAR) {
		*v = l->var;
		*bound = c->rhs;
		return true;
	}
	if (r && r->kind == EX_VAR) {
		*v = r->var;
		*bound = c->lhs;
		*op = loop_flip_cmp(*op);
		return true;
	}
	return false;
}

/*
 * An expression that only computes with integers and variables that keep
 * their value over [start, end): no call, no memory, no assignment.
 */
static bool pure_over(const Expr *e, const Env *env, uint32_t start, uint32_t end)
{
	if (!e)
		return false;
	switch (e->kind) {
	case EX_NAME:
		return e->is_constant || names_kind(e->name) == NM_CONST;
	case EX_NUM:
		return !e->num.is_float;
	case EX_VAR:
		return narrowable(e->var, env, start, end) &&
		       type_int(e->var->type, &(int){ 0 }, &(bool){ false });
	case EX_CAST:
		return type_int(e->cast_type, &(int){ 0 }, &(bool){ false }) &&
		       pure_over(e->lhs, env, start, end);
	case EX_UNARY:
		return (e->op == OP_NEG || e->op == OP_PLUS || e->op == OP_BITNOT) &&
		       pure_over(e->lhs, env, start, end);
	case EX_BINARY:
		return e->op != OP_LOGAND && e->op != OP_LOGOR &&
		       pure_over(e->lhs, env, start, end) && pure_over(e->rhs, env, start, end);
	default:
		return false;
	}
}

static bool has_var(const Expr *e)
{
	return e && (e->kind == EX_VAR || has_var(e->lhs) || has_var(e->rhs) || has_var(e->cond));
}

/* What `x op bound` being true says of x, met with cur. */
static bool bound_by(OpKind op, Ival b, Ival *cur)
{
	Ival lim;
	bool empty;

	switch (op) {
	case OP_LT: lim = (Ival){ IV_NINF, b.hi == IV_PINF ? IV_PINF : b.hi - 1 }; break;
	case OP_LE: lim = (Ival){ IV_NINF, b.hi }; break;
	case OP_GT: lim = (Ival){ b.lo == IV_NINF ? IV_NINF : b.lo + 1, IV_PINF }; break;
	case OP_GE: lim = (Ival){ b.lo, IV_PINF }; break;
	case OP_EQ: lim = b; break;
	default: return false;
	}
	*cur = iv_meet(*cur, lim, &empty);
	return !empty;
}

/*
 * Pushes onto env what `cond` being true says of the variables (and pure
 * expressions) used in [start, end), where none of them is redefined.
 */
static OpKind negate_cmp(OpKind op)
{
	switch (op) {
	case OP_LT: return OP_GE;
	case OP_LE: return OP_GT;
	case OP_GT: return OP_LE;
	case OP_GE: return OP_LT;
	case OP_NE: return OP_EQ;
	default: return OP_NONE;
	}
}

/*
 * Pushes onto env what `cond` being true (false when neg) says of the
 * variables (and pure expressions) used in [start, end), where none of
 * them is redefined.
 */
static void narrow_cond(Env *env, const Expr *cond, bool neg, uint32_t start, uint32_t end)
{
	Var *v;
	OpKind op;
	const Expr *bound, *x;
	Ival cur;

	if (!cond)
		return;
	if (cond->kind == EX_UNARY && cond->op == OP_NOT) {
		narrow_cond(env, cond->lhs, !neg, start, end);
		return;
	}
	if (cond->kind == EX_BINARY && cond->op == (neg ? OP_LOGOR : OP_LOGAND)) {
		narrow_cond(env, cond->lhs, neg, start, end);
		narrow_cond(env, cond->rhs, neg, start, end);
		return;
	}
	if (cond->kind != EX_BINARY || cond->op < OP_LT || cond->op > OP_NE)
		return;
	if (match_cmp(cond, &v, &op, &bound) && narrowable(v, env, start, end)) {
		op = neg ? negate_cmp(op) : op; /* `v op bound` */
		cur = val_env_find(env, v) ? val_env_find(env, v)->val : val_var_int(v);
		if (bound_by(op, val_int(bound, env), &cur))
			val_env_push(env, v, cur);
		return;
	}
	op = neg ? negate_cmp(cond->op) : cond->op;
	x = cond->lhs;
	bound = cond->rhs;
	if (!has_var(x)) {
		x = cond->rhs;
		bound = cond->lhs;
		op = loop_flip_cmp(op);
	}
	if (!has_var(x) || !pure_over(x, env, start, end))
		return;
	cur = val_int(x, env);
	if (bound_by(op, val_int(bound, env), &cur)) {
		Bind b = { NULL, cur, x };
		array_push(env, b);
	}
}

/*
 * Can control enter s other than from its start: a label, or a case of a
 * switch outside s (Duff's device)?  Then neither a condition guarding s
 * nor a loop header holds inside it.
 */
static bool has_entry(const Stmt *s, bool in_switch)
{
	if (!s)
		return false;
	if (s->kind == ST_LABEL || (s->kind == ST_CASE && !in_switch))
		return true;
	in_switch |= s->kind == ST_SWITCH;
	if (has_entry(s->then, in_switch) || has_entry(s->els, in_switch))
		return true;
	for (uint32_t i = 0; i < s->body.len; i++)
		if (has_entry(s->body.items[i], in_switch))
			return true;
	return s->loop && has_entry(s->loop->body, in_switch);
}

bool range_goto_free(void)
{
	FuncInfo *fi = acc.cur ? acc_func(acc.cur) : NULL;

	return !fi || !fi->has_goto;
}

/* Can control enter s mid-way?  Looked for only where a label or case exists. */
static bool entered_midway(const Stmt *s)
{
	FuncInfo *fi = acc.cur ? acc_func(acc.cur) : NULL;

	return (!fi || fi->has_labels) && has_entry(s, false);
}

/* Narrows for the arm s of a branch on cond (taken when !neg). */
void range_narrow_arm(Env *env, const Expr *cond, bool neg, const Stmt *s)
{
	if (s && range_goto_free() && !entered_midway(s))
		narrow_cond(env, cond, neg, s->start, s->end);
}

/* Narrows for a conditional expression's arm: no label can enter it. */
void range_narrow_expr(Env *env, const Expr *cond, bool neg, const Expr *arm)
{
	if (arm && range_goto_free())
		narrow_cond(env, cond, neg, arm->start, arm->end);
}

/* The initial value the for-initializer gives v, IV_TOP if none or several. */
static Ival loop_init_value(const Loop *l, const Var *v, const Env *env, bool *found)
{
	ExprList parts = { 0 };
	Expr *val = NULL;
	int n = 0;

	for (uint32_t i = 0; i < l->init.len; i++) {
		Stmt *s = l->init.items[i];

		if (s->kind == ST_DECL && s->var == v && s->expr) {
			val = s->expr;
			n++;
		} else if (s->kind == ST_EXPR) {
			parts.len = 0;
			ir_split_comma(s->expr, &parts);
			for (uint32_t j = 0; j < parts.len; j++) {
				Expr *p = parts.items[j];

				if (p->kind == EX_ASSIGN && p->op == OP_ASSIGN && p->lhs &&
				    p->lhs->kind == EX_VAR && p->lhs->var == v) {
					val = p->rhs;
					n++;
				}
			}
		}
	}
	array_free(&parts);
	*found = n == 1;
	return n == 1 ? iv_convert(val_int(val, env), v->type) : iv_of_type(v->type);
}

typedef struct IVCand {
	Var *var;
	int64_t step;
	Expr *derived;  /* a header variable set by `w = E` in the step */
	Ival init, bound, range;
	bool bounded, init_found;
} IVCand;

/* Byte span of a for statement's parts. */
static void span_of_init(const Loop *l, uint32_t *start, uint32_t *end)
{
	*start = UINT32_MAX;
	*end = 0;
	for (uint32_t i = 0; i < l->init.len; i++) {
		if (l->init.items[i]->start < *start)
			*start = l->init.items[i]->start;
		if (l->init.items[i]->end > *end)
			*end = l->init.items[i]->end;
	}
}

static bool valid_iv(const Stmt *s, const Var *v)
{
	const Loop *l = s->loop;
	uint32_t is, ie;

	if (!val_followable(v) || !type_int(v->type, &(int){ 0 }, &(bool){ false }))
		return false;
	span_of_init(l, &is, &ie);
	if (defs_in(v, s->start, s->end) != defs_in(v, is, ie) + 1)
		return false; /* defined in the body or the condition, or twice in the step */
	return defs_in(v, l->step->start, l->step->end) == 1;
}

/*
 * A conjunct `a * iv + b < E` (or <=, or the sides swapped), a > 0, on an
 * increasing candidate: iv <= (E - 1 - b) / a (`2 * j + 1 < m`, `i + 1 < n`).
 * Both sides signed arithmetic (loop_linear_in), so nothing wraps.
 */
static void apply_scaled_bound(const Expr *cond, IVCand *c, uint32_t n, const Env *env)
{
	for (uint32_t i = 0; cond && cond->kind == EX_BINARY && i < n; i++) {
		IVCand *k = &c[i];
		OpKind op = cond->op;
		const Expr *bound = cond->rhs;
		int64_t a, b, top;
		Ival e, tr = iv_of_type(k->var->type);

		if (k->derived || k->step <= 0)
			continue;
		if (!loop_linear_in(cond->lhs, k->var, &a, &b)) {
			op = loop_flip_cmp(op), bound = cond->lhs;
			if (!loop_linear_in(cond->rhs, k->var, &a, &b))
				continue;
		}
		e = val_int(bound, env);
		if (!bound->type || bound->type->kind != TY_INT || bound->type->is_unsigned)
			continue; /* an unsigned comparison: a * iv + b may wrap below E */
		if (a <= 0 || (op != OP_LT && op != OP_LE) || e.hi == IV_PINF || e.hi > (int64_t)1 << 40 ||
		    e.hi < -((int64_t)1 << 40))
			continue;
		top = e.hi - (op == OP_LT) - b;
		top = top >= 0 ? top / a : -((-top + a - 1) / a);
		if (top >= tr.hi)
			continue;
		k->bound.hi = k->bounded && k->bound.hi < top ? k->bound.hi : top;
		k->bound.lo = k->bounded ? k->bound.lo : IV_NINF;
		k->bounded = true;
	}
}

/* Applies the condition's conjuncts `iv op E` to the candidates. */
static void apply_bounds(const Expr *cond, IVCand *c, uint32_t n, const Env *env)
{
	Var *v;
	OpKind op;
	const Expr *bound;

	if (!cond)
		return;
	if (cond->kind == EX_BINARY && cond->op == OP_LOGAND) {
		apply_bounds(cond->lhs, c, n, env);
		apply_bounds(cond->rhs, c, n, env);
		return;
	}
	if (!match_cmp(cond, &v, &op, &bound)) {
		apply_scaled_bound(cond, c, n, env);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		IVCand *k = &c[i];
		Ival b = val_int(bound, env), tr = iv_of_type(v->type);
		Ival lim;

		if (k->var != v || k->derived)
			continue;
		if (k->step > 0 && (op == OP_LT || op == OP_LE || (op == OP_NE && k->step == 1 &&
		                                                    k->init.hi <= b.lo))) {
			if (b.hi == IV_PINF)
				continue;
			lim = (Ival){ IV_NINF, op == OP_LE ? b.hi : b.hi - 1 };
			if (lim.hi >= tr.hi)
				continue; /* may wrap around */
		} else if (k->step < 0 && (op == OP_GT || op == OP_GE ||
		                           (op == OP_NE && k->step == -1 && k->init.lo >= b.hi))) {
			if (b.lo == IV_NINF)
				continue;
			lim = (Ival){ op == OP_GE ? b.lo : b.lo + 1, IV_PINF };
			if (lim.lo <= tr.lo)
				continue;
		} else {
			continue;
		}
		if (k->bounded)
			k->bound = (Ival){ k->bound.lo > lim.lo ? k->bound.lo : lim.lo,
			                   k->bound.hi < lim.hi ? k->bound.hi : lim.hi };
		else
			k->bound = lim;
		k->bounded = true;
	}
}

/* Most iterations the loop can run, -1 unknown. */
static int64_t max_trips(const IVCand *c, uint32_t n)
{
	int64_t best = -1;

	for (uint32_t i = 0; i < n; i++) {
		const IVCand *k = &c[i];
		IvWide span;
		int64_t t;

		if (k->derived || !k->bounded || k->step == 0)
			continue;
		if (k->step > 0 && k->init.lo != IV_NINF && k->bound.hi != IV_PINF)
			span = (IvWide)k->bound.hi - k->init.lo;
		else if (k->step < 0 && k->init.hi != IV_PINF && k->bound.lo != IV_NINF)
			span = (IvWide)k->init.hi - k->bound.lo;
		else
			continue;
		t = span < 0 ? 1 : iv_clamp_hi(span / (k->step > 0 ? k->step : -(IvWide)k->step) + 1);
		if (best < 0 || t < best)
			best = t;
	}
	return best;
}

static Ival cand_range(const IVCand *k, int64_t trips)
{
	Ival r = k->init, tr = iv_of_type(k->var->type);
	bool empty;

	if (k->step == 0)
		return r;
	if (trips > 0) {
		Ival travel = iv_mul(iv_const(k->step), iv_const(trips - 1));
		r = k->step > 0 ? (Ival){ r.lo, iv_clamp_hi(iv_wide_hi(r.hi) + iv_wide_hi(travel.hi)) }
		                : (Ival){ iv_clamp_lo(iv_wide_lo(r.lo) + iv_wide_lo(travel.lo)), r.hi };
	} else {
		r = k->step > 0 ? (Ival){ r.lo, IV_PINF } : (Ival){ IV_NINF, r.hi };
	}
	if (k->bounded)
		r = iv_meet(r, k->bound, &empty);
	if (r.lo < tr.lo || r.hi > tr.hi)
		return tr; /* wraps around its type */
	return r;
}

/* u's update of v, when its amount is a constant under the value analysis. */
static bool constant_step(const Expr *u, const Var *v, int64_t *step)
{
	const Expr *amount;
	int sign;
	Ival k;

	if (!loop_update_parts(u, v, &amount, &sign))
		return false;
	k = amount ? val_int(amount, NULL) : iv_const(1);
	if (sign < 0)
		k = iv_neg(k);
	*step = k.lo;
	return iv_is_const(k);
}

/*
 * The induction variables of for statement s and their ranges in the
 * body: each updated by a constant step in the header and nowhere else,
 * bounded by the condition or by the trip count it implies.  Header
 * variables set from them in the step (`c = m` beside `m++`) come along.
 */
LoopInfo *range_compute_loop(const Stmt *s, const Env *env)
{
	LoopInfo *li = xcalloc(1, sizeof(*li));
	const Loop *l = s->loop;
	ExprList ups = { 0 };
	Array(IVCand) c = { 0 };
	FuncInfo *fi = acc.cur ? acc_func(acc.cur) : NULL;
	int64_t trips;

	li->loop = s;
	if (s->kind != ST_FOR || !l || !l->step || (fi && fi->has_goto) ||
	    entered_midway(l->body))
		goto out;
	ir_split_comma(l->step, &ups);
	for (uint32_t i = 0; i < ups.len; i++) {
		IVCand k = { 0 };
		Expr *u = ups.items[i];
		Var *v = loop_updated_var(u);

		/* v++, v--, v += k, v -= k, v = v + k, v = k + v, v = v - k with k constant */
		if (v && constant_step(u, v, &k.step)) {
			k.var = v;
			if (!valid_iv(s, k.var))
				continue;
		} else if (u->kind == EX_ASSIGN && u->op == OP_ASSIGN && u->lhs &&
		           u->lhs->kind == EX_VAR) {
			k.var = u->lhs->var;
			k.derived = u->rhs;
			if (!valid_iv(s, k.var))
				continue;
		} else {
			continue;
		}
		k.init = loop_init_value(l, k.var, env, &k.init_found);
		array_push(&c, k);
	}
	apply_bounds(l->cond, c.items, c.len, env);
	trips = max_trips(c.items, c.len);
	li->binds = xcalloc(c.len ? c.len : 1, sizeof(*li->binds));
	for (uint32_t i = 0; i < c.len; i++) {
		if (c.items[i].derived)
			continue;
		li->binds[li->n].var = c.items[i].var;
		li->binds[li->n++].val = cand_range(&c.items[i], trips);
	}
	/* derived variables: their initial value, or E over the IVs one step on */
	for (uint32_t i = 0; i < c.len; i++) {
		IVCand *k = &c.items[i];
		Env e2 = { 0 };

		if (!k->derived)
			continue;
		for (uint32_t j = 0; env && j < env->len; j++)
			array_push(&e2, env->items[j]);
		for (uint32_t j = 0; j < c.len; j++) {
			IVCand *iv = &c.items[j];
			Ival r;

			if (iv->derived)
				continue;
			r = cand_range(iv, trips);
			r = iv_join(r, iv_add(r, iv_const(iv->step)));
			val_env_push(&e2, iv->var, r);
		}
		li->binds[li->n].var = k->var;
		li->binds[li->n++].val = iv_convert(iv_join(k->init, val_int(k->derived, &e2)),
		                                     k->var->type);
		array_free(&e2);
	}
out:
	array_free(&ups);
	array_free(&c);
	return li;
}

LoopInfo *range_loop(const Stmt *s, const Env *env)
{
	LoopInfo *li = loop_get(s);

	if (!li) {
		li = range_compute_loop(s, env);
		loop_put(li);
	}
	return li;
}

void range_push_loop(Env *env, const LoopInfo *li)
{
	for (uint32_t i = 0; i < li->n; i++)
		val_env_push(env, li->binds[i].var, li->binds[i].val);
}

/*
 * Evaluates a single definition of v where it stands, with the ranges of
 * the loops around it: every value v ever holds is one this definition
 * computed, so the range holds at every use (before it, v is undefined).
 */
static void set_value(Var *v, Expr *rhs, const Env *env)
{
	VarInfo *vi = acc_lookup(v);

	if (!vi || !val_followable(v) || !val_single_def(vi) || vi->def != rhs || v->scope != VAR_LOCAL)
		return;
	if (type_is_ptr(v->type)) {
		vi->busy = true;
		vi->ptr = val_def_ptr(v, rhs, env);
		vi->busy = false;
		if (vi->ptr.kind == P_SELF)
			vi->ptr = val_ptr_make(P_UNKNOWN);
		vi->has_val = true;
	} else if (type_int(v->type, &(int){ 0 }, &(bool){ false })) {
		vi->busy = true;
		vi->val = iv_convert(val_int(rhs, env), v->type);
		vi->busy = false;
		vi->has_val = true;
	}
}

static void values_expr(Expr *e, void *ctx)
{
	if (e->kind == EX_ASSIGN && e->op == OP_ASSIGN && e->lhs && e->lhs->kind == EX_VAR)
		set_value(e->lhs->var, e->rhs, ctx);
}

void range_values(Stmt *s, Env *env)
{
	uint32_t mark = env->len;

	if (!s)
		return;
	switch (s->kind) {
	case ST_DECL:
		ir_visit_expr(s->expr, values_expr, env);
		if (s->expr && s->var)
			set_value(s->var, s->expr, env);
		break;
	case ST_BLOCK:
		for (uint32_t i = 0; i < s->body.len; i++)
			range_values(s->body.items[i], env);
		break;
	case ST_IF:
		ir_visit_expr(s->expr, values_expr, env);
		range_narrow_arm(env, s->expr, false, s->then);
		range_values(s->then, env);
		env->len = mark;
		range_narrow_arm(env, s->expr, true, s->els);
		range_values(s->els, env);
		env->len = mark;
		break;
	case ST_FOR:
	case ST_WHILE:
	case ST_DO:
		for (uint32_t i = 0; i < s->loop->init.len; i++)
			range_values(s->loop->init.items[i], env);
		ir_visit_expr(s->loop->cond, values_expr, env);
		range_push_loop(env, range_loop(s, env));
		range_values(s->loop->body, env);
		ir_visit_expr(s->loop->step, values_expr, env);
		env->len = mark;
		break;
	default:
		ir_visit_expr(s->expr, values_expr, env);
		range_values(s->then, env);
		range_values(s->els, env);
		break;
	}
}
