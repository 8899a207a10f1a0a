/*
 * privarr.c - middle stage: array privatization.  A loop whose every
 * iteration first writes an array and then reads only what it wrote
 * (PolyBench's doitgen: `sum[p] = 0; ... sum[p] += ...;` then
 * `A[r][q][p] = sum[p];` for each (r, q)) carries nothing from one
 * iteration to the next through that array, though every iteration
 * writes the same elements.  Split, each chunk may work on a copy of its
 * own, and the chunk that runs the last iteration copies its copy back, so
 * the array ends as the loop leaves it (backend/codegen.c, privarr_open);
 * to the summaries, that chunk reads and writes the array as the loop does
 * and the others do not touch it.
 *
 * The test is exact for one iteration and holds for all of them: every
 * use of the array in the loop is an element X[s1]...[sn] of scalar type,
 * reached by no condition (only blocks and for loops lead to it, no jump
 * leaves the loop, no `?:`, `&&` or `||` operand holds it), and its
 * subscripts and the bounds of the loops around it read only constants,
 * values the loop never assigns, and the counters of those loops.  So
 * every iteration touches the same elements in the same order, and one
 * iteration is run here, counters bound to each value in turn, with a
 * byte map of what it has written: each element read must be written
 * before, by an earlier statement of the same iteration.
 *
 * That no other name reaches the array is the summaries' business
 * (decomp.c compares a chunk's summary with and without the array's
 * accesses).
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"

enum {
	PRIVARR_MAX_BYTES = 64 * 1024, /* a copy on each thread's stack */
	PRIVARR_MAX_STEPS = 1 << 20,   /* statements run for one iteration */
	PRIVARR_MAX_VARS = 4,
};

typedef Array(const Var *) VarList;

/*
 * X of X[s1]...[sn], a chain of subscripts within X's own storage (every
 * level above the first an array, not a pointer that leads elsewhere:
 * `rp[1][j]` with `double *rp[2]` writes what rp[1] points to), or NULL.
 */
static const Var *chain_root(const Expr *e)
{
	while (e && e->kind == EX_INDEX && e->lhs && e->lhs->kind == EX_INDEX) {
		if (!e->lhs->type || e->lhs->type->kind != TY_ARRAY)
			return NULL;
		e = e->lhs;
	}
	if (e && e->kind == EX_INDEX)
		e = e->lhs;
	return e && e->kind == EX_VAR ? e->var : NULL;
}

static bool scalar_type(const Type *t)
{
	return t && (t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_BOOL || t->kind == TY_ENUM) &&
	       !t->is_volatile;
}

static bool names_x(const Expr *e, void *ctx)
{
	return e->kind == EX_VAR && e->var == ctx;
}

static bool mentions(const Expr *e, const Var *x)
{
	return e && ir_expr_any(e, names_x, (void *)x);
}

/*
 * Is every use of x in e an element of scalar type, evaluated whenever e
 * is?  Not `&x[i]`, a row `x[i]` of a 2-D x, x alone, a member of an
 * element, nor an operand that `?:`, `&&` or `||` may skip.
 */
static bool uses_ok(const Var *x, const Expr *e)
{
	if (!e || !mentions(e, x))
		return true;
	if (e->kind == EX_INDEX && chain_root(e) == x) {
		if (!scalar_type(e->type))
			return false;
		for (const Expr *c = e; c->kind == EX_INDEX; c = c->lhs)
			if (mentions(c->rhs, x))
				return false;
		return true;
	}
	switch (e->kind) {
	case EX_VAR:
	case EX_SIZEOF:
	case EX_OTHER:
	case EX_INIT:
		return false;
	case EX_UNARY:
		return e->op != OP_ADDR && uses_ok(x, e->lhs);
	case EX_COND:
		return uses_ok(x, e->cond) && !mentions(e->lhs, x) && !mentions(e->rhs, x);
	case EX_BINARY:
		if (e->op == OP_LOGAND || e->op == OP_LOGOR)
			return uses_ok(x, e->lhs) && !mentions(e->rhs, x);
		break;
	default:
		break;
	}
	if (!uses_ok(x, e->lhs) || !uses_ok(x, e->rhs) || !uses_ok(x, e->cond))
		return false;
	for (uint32_t i = 0; i < e->args.len; i++)
		if (!uses_ok(x, e->args.items[i]))
			return false;
	return true;
}

/* ---- running one iteration ---- */

typedef struct Sim {
	const Var *x;
	const Stmt *loop;        /* the split loop */
	VarList active;          /* counters of the loops being run, bound to their values */
	unsigned char *written;  /* byte k of x written in this iteration */
	int64_t top;             /* bytes [0, top) reached */
	long steps;
	bool ok;
} Sim;

static bool is_active(const Sim *s, const Var *v)
{
	for (uint32_t i = 0; i < s->active.len; i++)
		if (s->active.items[i] == v)
			return true;
	return false;
}

/* A variable the loop assigns is read only as a running counter; no global but constants. */
static bool var_fixed(const Expr *e, void *ctx)
{
	const Sim *s = ctx;
	const Var *v = e->var;

	if (e->kind != EX_VAR)
		return false;
	if (is_active(s, v))
		return false;
	return ir_stmt_assigns(s->loop, v) || v->addr_taken || v->scope == VAR_GLOBAL ||
	       (v->type && v->type->is_volatile);
}

/* e's value here, from constants, fixed values and the bound counters. */
static bool sim_value(Sim *s, const Expr *e, int64_t *out)
{
	Ival v;

	if (ir_expr_any(e, var_fixed, s) || ir_has_effect(e))
		return false;
	v = val_int(e, NULL);
	if (!iv_is_const(v))
		return false;
	*out = v.lo;
	return true;
}

static bool unsigned_operand(const Expr *e)
{
	return e->type && e->type->kind == TY_INT && e->type->is_unsigned;
}

/* A loop condition's truth here: comparisons of values sim_value knows, and their negation and conjunctions. */
static bool sim_cond(Sim *s, const Expr *e, bool *out)
{
	int64_t a, b;
	bool p, q;

	if (e->kind == EX_UNARY && e->op == OP_NOT && sim_cond(s, e->lhs, &p)) {
		*out = !p;
		return true;
	}
	if (e->kind == EX_BINARY && (e->op == OP_LOGAND || e->op == OP_LOGOR)) {
		if (!sim_cond(s, e->lhs, &p) || !sim_cond(s, e->rhs, &q))
			return false;
		*out = e->op == OP_LOGAND ? p && q : p || q;
		return true;
	}
	if (e->kind != EX_BINARY || e->op < OP_LT || e->op > OP_NE)
		return sim_value(s, e, &a) && ((*out = a != 0), true);
	if (!sim_value(s, e->lhs, &a) || !sim_value(s, e->rhs, &b))
		return false;
	if ((a < 0 || b < 0) && (unsigned_operand(e->lhs) || unsigned_operand(e->rhs)))
		return false; /* a conversion to unsigned: not worth modelling */
	switch (e->op) {
	case OP_LT: *out = a < b; break;
	case OP_GT: *out = a > b; break;
	case OP_LE: *out = a <= b; break;
	case OP_GE: *out = a >= b; break;
	case OP_EQ: *out = a == b; break;
	default: *out = a != b; break;
	}
	return true;
}

/* The bytes [*lo, *lo + *size) of x that element e reaches. */
static bool element_bytes(Sim *s, const Expr *e, int64_t *lo, int64_t *size)
{
	int64_t off = 0;

	*size = type_size(e->type);
	for (const Expr *c = e; c->kind == EX_INDEX; c = c->lhs) {
		int64_t k, stride = type_size(c->type);

		if (!sim_value(s, c->rhs, &k) || stride <= 0 || k < 0 || k > PRIVARR_MAX_BYTES)
			return false;
		off += k * stride;
	}
	*lo = off;
	return *size > 0 && off + *size <= PRIVARR_MAX_BYTES;
}

static void sim_read(Sim *s, const Expr *e)
{
	int64_t lo, size;

	if (!s->ok || !element_bytes(s, e, &lo, &size)) {
		s->ok = false;
		return;
	}
	for (int64_t b = lo; b < lo + size; b++)
		if (!s->written[b]) {
			s->ok = false;
			return;
		}
}

static void sim_write(Sim *s, const Expr *e)
{
	int64_t lo, size;

	if (!s->ok || !element_bytes(s, e, &lo, &size)) {
		s->ok = false;
		return;
	}
	memset(s->written + lo, 1, (size_t)size);
	if (lo + size > s->top)
		s->top = lo + size;
}

typedef Array(const Expr *) ExprConstList;

/* The elements of x that e reads and writes (an update both). */
static void elements(const Var *x, const Expr *e, ExprConstList *rd, ExprConstList *wr)
{
	if (!e || !mentions(e, x))
		return;
	if (e->kind == EX_ASSIGN && e->lhs && e->lhs->kind == EX_INDEX && chain_root(e->lhs) == x) {
		elements(x, e->rhs, rd, wr);
		if (e->op != OP_ASSIGN)
			array_push(rd, e->lhs);
		array_push(wr, e->lhs);
		return;
	}
	if (ir_is_incdec(e) && e->lhs && e->lhs->kind == EX_INDEX && chain_root(e->lhs) == x) {
		array_push(rd, e->lhs);
		array_push(wr, e->lhs);
		return;
	}
	if (e->kind == EX_INDEX && chain_root(e) == x) {
		array_push(rd, e);
		return;
	}
	elements(x, e->lhs, rd, wr);
	elements(x, e->rhs, rd, wr);
	elements(x, e->cond, rd, wr);
	for (uint32_t i = 0; i < e->args.len; i++)
		elements(x, e->args.items[i], rd, wr);
}

/* One statement's reads, then its writes: a read the same statement writes first is refused. */
static void sim_expr(Sim *s, const Expr *e)
{
	ExprConstList rd = { 0 }, wr = { 0 };

	elements(s->x, e, &rd, &wr);
	for (uint32_t i = 0; s->ok && i < rd.len; i++)
		sim_read(s, rd.items[i]);
	for (uint32_t i = 0; s->ok && i < wr.len; i++)
		sim_write(s, wr.items[i]);
	array_free(&rd);
	array_free(&wr);
}

static void sim_stmt(Sim *s, const Stmt *st);

/* The header's step updates v once and nothing else (not `j++, j++`, whose step reads 1). */
static bool one_update(const Loop *l, const Var *v)
{
	ExprList parts = { 0 };
	bool ok;

	ir_split_comma(l->step, &parts);
	ok = parts.len == 1 && loop_updated_var(parts.items[0]) == v;
	array_free(&parts);
	return ok;
}

/* Does v's type hold value?  A counter that would wrap (an unsigned char) is not run here. */
static bool in_type(const Var *v, int64_t value)
{
	Ival t = iv_of_type(v->type);

	return v->type && v->type->kind == TY_INT && value >= t.lo && value <= t.hi;
}

typedef struct Varies {
	const Var *x, *v;
	bool found;
} Varies;

static bool names_v(const Expr *e, void *ctx)
{
	return e->kind == EX_VAR && e->var == ((const Varies *)ctx)->v;
}

/* Does an element of x in e have a subscript that reads v? */
static void element_reads_v(Expr *e, void *ctx)
{
	Varies *vr = ctx;

	if (e->kind != EX_INDEX || chain_root(e) != vr->x)
		return;
	for (const Expr *c = e; c->kind == EX_INDEX; c = c->lhs)
		vr->found |= ir_expr_any(c->rhs, names_v, vr);
}

/* A loop that leads to x (its header) reads v, or an element of x does. */
static void header_reads_v(Stmt *st, void *ctx)
{
	Varies *vr = ctx;
	const Loop *l = st->loop;

	if (!l || !ir_var_refs(st, vr->x))
		return;
	vr->found |= ir_expr_any(l->cond, names_v, vr) || ir_expr_any(l->step, names_v, vr);
	for (uint32_t i = 0; i < l->init.len; i++)
		vr->found |= ir_var_refs(l->init.items[i], vr->v) > 0;
}

/*
 * Do the elements of x that body touches depend on v?  When not, every
 * iteration of v's loop touches the same ones in the same order, and the
 * first iteration tells what all of them read and write (doitgen's q loop
 * around the p loops: one run of its body, not 100).
 */
static bool x_varies(const Var *x, const Stmt *body, const Var *v)
{
	Varies vr = { x, v, false };

	ir_visit_stmt((Stmt *)body, element_reads_v, header_reads_v, &vr);
	return vr.found;
}

/* A for loop with one counter that only its header steps, run value by value. */
static void sim_for(Sim *s, const Stmt *st)
{
	const Loop *l = st->loop;
	const InductionVar *iv = l && l->ivs.len == 1 ? &l->ivs.items[0] : NULL;
	Var *v = iv ? iv->var : NULL;
	bool was_bound, same;
	int64_t old_value, value;

	if (!iv || !iv->step_known || iv->step == 0 || !l->cond || l->init.len != 1 || v->addr_taken ||
	    !one_update(l, v) || ir_stmt_assigns(l->body, v) || mentions(l->cond, s->x) ||
	    ir_var_refs(l->init.items[0], s->x) || !sim_value(s, iv->init, &value) ||
	    !in_type(v, value)) {
		s->ok = false;
		return;
	}
	same = !x_varies(s->x, l->body, v);
	was_bound = v->bound;
	old_value = v->bound_value;
	v->bound = true;
	array_push(&s->active, v);
	for (bool first = true; !(same && !first); first = false) {
		bool go;

		v->bound_value = value;
		if (!sim_cond(s, l->cond, &go) || ++s->steps > PRIVARR_MAX_STEPS) {
			s->ok = false;
			break;
		}
		if (!go)
			break;
		sim_stmt(s, l->body);
		if (!s->ok || __builtin_add_overflow(value, iv->step, &value) || !in_type(v, value)) {
			s->ok = false;
			break;
		}
	}
	s->active.len--;
	v->bound = was_bound;
	v->bound_value = old_value;
}

/* Only blocks, expressions, declarations and for loops may lead to x. */
static void sim_stmt(Sim *s, const Stmt *st)
{
	if (!s->ok || !st || !ir_var_refs(st, s->x))
		return;
	if (++s->steps > PRIVARR_MAX_STEPS) {
		s->ok = false;
		return;
	}
	switch (st->kind) {
	case ST_BLOCK:
		for (uint32_t i = 0; s->ok && i < st->body.len; i++)
			sim_stmt(s, st->body.items[i]);
		return;
	case ST_EXPR:
	case ST_DECL:
		if (!uses_ok(s->x, st->expr))
			s->ok = false;
		else
			sim_expr(s, st->expr);
		return;
	case ST_FOR:
		sim_for(s, st);
		return;
	default:
		s->ok = false;
	}
}

/* ---- candidates ---- */

static bool jump_stmt(const Stmt *s, void *ctx)
{
	(void)ctx;
	switch (s->kind) {
	case ST_RETURN:
	case ST_BREAK:
	case ST_CONTINUE:
	case ST_GOTO:
	case ST_LABEL:
	case ST_ASM:
	case ST_OTHER:
		return true;
	default:
		return false;
	}
}

static bool vla_type(const Type *t)
{
	for (; t; t = t->kind == TY_PTR || t->kind == TY_ARRAY ? t->base : NULL)
		if (t->is_vla)
			return true;
	return false;
}

/*
 * What the IR does not show whole: a construct it leaves unmodelled (a
 * statement expression, _Generic, a compound literal) or a variable-length
 * type, whose lengths are expressions (`sizeof(char[tmp[3]])` reads tmp).
 */
static bool hidden_expr(const Expr *e, void *ctx)
{
	(void)ctx;
	return e->kind == EX_OTHER ||
	       ((e->kind == EX_SIZEOF || e->kind == EX_CAST) && vla_type(e->cast_type));
}

static bool hidden_stmt(const Stmt *s, void *ctx)
{
	(void)ctx;
	return (s->kind == ST_DECL && s->var && vla_type(s->var->type)) || s->kind == ST_OTHER ||
	       s->kind == ST_ASM;
}

/*
 * An array of fixed size that a copy on the stack may hold, or a pointer
 * parameter that f never sets: a name a copy of the same type may shadow.
 */
static bool candidate_var(const Func *f, const Var *x)
{
	const Type *t = x->type;

	if (!t || t->is_volatile || x->thread_local || x->aliased || !t->base || t->base->size <= 0)
		return false;
	if (x->scope == VAR_GLOBAL || x->scope == VAR_LOCAL)
		return t->kind == TY_ARRAY && !t->is_vla && t->size > 0 && t->size <= PRIVARR_MAX_BYTES &&
		       x->storage != SC_TYPEDEF;
	return x->scope == VAR_PARAM && (t->kind == TY_PTR || t->kind == TY_ARRAY) &&
	       !ir_stmt_assigns(f->body, x);
}

typedef struct Written {
	VarList vars;
} Written;

/* Roots of the elements that the loop assigns or steps. */
static void note_written(Expr *e, void *ctx)
{
	Written *w = ctx;
	const Expr *lv = e->kind == EX_ASSIGN || ir_is_incdec(e) ? e->lhs : NULL;
	const Var *x = lv && lv->kind == EX_INDEX ? chain_root(lv) : NULL;

	if (!x)
		return;
	for (uint32_t i = 0; i < w->vars.len; i++)
		if (w->vars.items[i] == x)
			return;
	array_push(&w->vars, x);
}

static bool uses_all_ok(const Var *x, const Stmt *s);

static bool uses_list_ok(const Var *x, const Stmt *s)
{
	for (uint32_t i = 0; i < s->body.len; i++)
		if (!uses_all_ok(x, s->body.items[i]))
			return false;
	return true;
}

/* uses_ok for every expression of s. */
static bool uses_all_ok(const Var *x, const Stmt *s)
{
	if (!s || !ir_var_refs(s, x))
		return true;
	if (!uses_ok(x, s->expr) || !uses_all_ok(x, s->then) || !uses_all_ok(x, s->els) ||
	    !uses_list_ok(x, s))
		return false;
	if (!s->loop)
		return true;
	for (uint32_t i = 0; i < s->loop->init.len; i++)
		if (!uses_all_ok(x, s->loop->init.items[i]))
			return false;
	return uses_ok(x, s->loop->cond) && uses_ok(x, s->loop->step) && uses_all_ok(x, s->loop->body);
}

/*
 * Is x private to each iteration of L?  Then pa gets the rows of x's first
 * dimension that one iteration reaches and the bytes it writes, which
 * must be one run [from, to) for one copy to give them back.
 */
static bool private_bytes(const Stmt *L, PrivArray *pa)
{
	const Loop *l = L->loop;
	Sim s = { .x = pa->var, .loop = L, .ok = true };
	int64_t row = pa->var->type->base->size;
	bool ok;

	if (ir_var_refs(L, pa->var) != ir_var_refs(l->body, pa->var) || !uses_all_ok(pa->var, l->body))
		return false;
	s.written = xcalloc(PRIVARR_MAX_BYTES, 1);
	sim_stmt(&s, l->body);
	ok = s.ok && s.top > 0;
	pa->from = 0;
	while (ok && !s.written[pa->from])
		pa->from++;
	pa->to = s.top;
	for (int64_t b = pa->from; ok && b < pa->to; b++)
		ok = s.written[b];
	pa->rows = (s.top + row - 1) / row;
	free(s.written);
	array_free(&s.active);
	return ok && pa->rows * row <= PRIVARR_MAX_BYTES;
}

/*
 * The first IV's value in the loop's last iteration: the highest of lo,
 * lo + step, ... below hi; counting down from hi - step, the lowest.
 */
static int64_t last_value(const SplitLoop *sl)
{
	if (sl->reverse)
		return sl->hi - (sl->hi - sl->lo) / sl->step * sl->step;
	return sl->lo + (sl->hi - 1 - sl->lo) / sl->step * sl->step;
}

uint32_t privarr_find(const Func *f, SplitLoop *sl)
{
	const Stmt *L = sl->loop;
	Written w = { 0 };

	sl->privarr.len = 0;
	if (!L || !L->loop || !L->loop->body || sl->step <= 0 || sl->hi <= sl->lo ||
	    ir_stmt_any(L->loop->body, jump_stmt, NULL, NULL) ||
	    ir_stmt_any(L->loop->body, hidden_stmt, hidden_expr, NULL))
		return 0;
	sl->last = last_value(sl);
	ir_visit_stmt((Stmt *)L->loop->body, note_written, NULL, &w);
	for (uint32_t i = 0; i < w.vars.len && sl->privarr.len < PRIVARR_MAX_VARS; i++) {
		const Var *x = w.vars.items[i];
		PrivArray pa = { .var = x };

		if (candidate_var(f, x) && private_bytes(L, &pa))
			array_push(&sl->privarr, pa);
	}
	array_free(&w.vars);
	return sl->privarr.len;
}

bool privarr_copies(const SplitLoop *sl, int64_t lo, int64_t hi)
{
	return sl && sl->privarr.len && !(lo <= sl->last && sl->last < hi);
}
