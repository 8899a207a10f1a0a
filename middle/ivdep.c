/*
 * ivdep.c - middle stage: innermost loops whose iterations carry no
 * dependence through memory, for the compiler's vectorizer.
 *
 * Why: a slice runs inside the parallel region, which the OpenMP compiler
 * outlines into a function of its own.  There the arrays are pointers
 * loaded from the region's data block, and GCC at -O2 (its "very cheap"
 * vectorizer cost model) no longer vectorizes an inner loop that it did
 * vectorize in the sequential program, where it could see that A and B are
 * two distinct arrays.  A heat stencil's slices ran no faster on two cores
 * than the whole loop on one.  The slice's copy of such a loop is marked
 * MTPAR_IVDEP (GCC's ivdep, clang's assume_safety) when this file proves
 * that no two iterations touch the same memory with one of them writing.
 *
 * The test is exact and local, not sampled: in the loop's body every
 * memory access is an array element X[s1]...[sn] with subscripts affine in
 * the loop's counter and in values the body does not change; two accesses
 * to memory that may be the same must be to the same X, and some subscript
 * must tell distinct iterations apart (the same counter coefficient and a
 * difference it does not divide, or the same parts apart from the counter,
 * or equal constant parts that differ by a constant).  Scalars the body
 * assigns that live in registers (locals whose address is never taken) are
 * the compiler's own business: ivdep speaks of memory only.
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"

enum { MAX_TERMS = 6, MAX_ACCESSES = 64, MAX_DIMS = 8 };
/*
 * Loops of fewer trips are unrolled whole and vectorized across their
 * copies: marked, GCC vectorized TVM's 4-trip accumulator resets as loops
 * and residual.c's clones ran 15% slower.
 */
enum { MIN_TRIPS = 16 };

/* c0 + sum(coef[k] * var[k]): a subscript affine in integer variables. */
typedef struct Lin {
	bool ok;
	int64_t c0;
	int n;
	const Var *var[MAX_TERMS];
	int64_t coef[MAX_TERMS];
} Lin;

typedef struct MemAccess {
	const Var *name;      /* the X of X[...]: array or pointer variable */
	Var *obj;             /* the object it designates (val_loc's base) */
	bool write;
	int ndims;
	Lin flat;             /* the element's index in X, its rows laid end to end */
} MemAccess;

typedef struct Body {
	const Stmt *body;
	const Var *iv;
	bool failed;
	int n;
	MemAccess acc[MAX_ACCESSES];
} Body;

static void lin_add_term(Lin *l, const Var *v, int64_t c)
{
	for (int k = 0; k < l->n; k++)
		if (l->var[k] == v) {
			l->coef[k] += c;
			return;
		}
	if (l->n == MAX_TERMS) {
		l->ok = false;
		return;
	}
	l->var[l->n] = v;
	l->coef[l->n++] = c;
}

static bool small(int64_t v) { return v > -(1LL << 40) && v < (1LL << 40); }

/* dst += factor * src */
static void lin_combine(Lin *dst, const Lin *src, int64_t factor)
{
	if (!src->ok || !small(factor) || !small(src->c0)) {
		dst->ok = false;
		return;
	}
	dst->c0 += src->c0 * factor;
	for (int k = 0; k < src->n && dst->ok; k++) {
		if (!small(src->coef[k])) {
			dst->ok = false;
			return;
		}
		lin_add_term(dst, src->var[k], src->coef[k] * factor);
	}
}

/* A scalar local or parameter whose address is never taken: the compiler keeps it in a register. */
bool ivdep_register(const Var *v)
{
	return v->scope != VAR_GLOBAL && v->storage != SC_STATIC && !v->addr_taken && v->type &&
	       !type_is_volatile(v->type) && v->type->kind != TY_STRUCT && v->type->kind != TY_UNION;
}

bool ivdep_register_int(const Var *v)
{
	int size;
	bool uns;

	return ivdep_register(v) && type_int(v->type, &size, &uns);
}

/*
 * Does the cast e keep every value of its operand: an integer widened to an
 * integer type that holds all of the operand type's values?
 */
bool ivdep_keeps_value(const Expr *e)
{
	int to, from;
	bool to_uns, from_uns;

	if (!e->lhs || !e->lhs->type || !type_int(e->cast_type, &to, &to_uns) ||
	    !type_int(e->lhs->type, &from, &from_uns))
		return false;
	if (to_uns == from_uns)
		return to >= from;
	return !to_uns && to > from; /* unsigned into a wider signed type */
}

static Lin lin_of(const Expr *e)
{
	Lin l = { .ok = true }, r;
	int64_t k;

	if (!e) {
		l.ok = false;
		return l;
	}
	if (ir_const_eval(e, &k) && small(k)) { /* before any cast is looked through: it may narrow */
		l.c0 = k;
		return l;
	}
	if (e->kind == EX_CAST) {
		if (ivdep_keeps_value(e))
			return lin_of(e->lhs);
		l.ok = false;
		return l;
	}
	switch (e->kind) {
	case EX_VAR:
		if (ivdep_register_int(e->var)) {
			lin_add_term(&l, e->var, 1);
			return l;
		}
		break;
	case EX_UNARY:
		if (e->op == OP_NEG || e->op == OP_PLUS) {
			r = lin_of(e->lhs);
			lin_combine(&l, &r, e->op == OP_NEG ? -1 : 1);
			return l;
		}
		break;
	case EX_BINARY:
		if (e->op == OP_ADD || e->op == OP_SUB) {
			r = lin_of(e->lhs);
			lin_combine(&l, &r, 1);
			r = lin_of(e->rhs);
			lin_combine(&l, &r, e->op == OP_SUB ? -1 : 1);
			return l;
		}
		if (e->op == OP_MUL) {
			if (ir_const_eval(e->lhs, &k)) {
				r = lin_of(e->rhs);
				lin_combine(&l, &r, k);
				return l;
			}
			if (ir_const_eval(e->rhs, &k)) {
				r = lin_of(e->lhs);
				lin_combine(&l, &r, k);
				return l;
			}
		}
		break;
	default:
		break;
	}
	l.ok = false;
	return l;
}

static bool declares_var(const Stmt *s, void *ctx)
{
	return s->kind == ST_DECL && s->var == ctx;
}

/* May v hold different values in different iterations: the body declares or assigns it? */
static bool varies(const Body *b, const Var *v)
{
	return ir_stmt_any(b->body, declares_var, NULL, (void *)v) || ir_stmt_assigns(b->body, v);
}

/* Is every variable of l other than the counter unchanged by the body? */
static bool lin_invariant(const Lin *l, const Body *b)
{
	for (int k = 0; k < l->n; k++)
		if (l->var[k] != b->iv && l->coef[k] && varies(b, l->var[k]))
			return false;
	return true;
}

static int64_t lin_coef(const Lin *l, const Var *v)
{
	for (int k = 0; k < l->n; k++)
		if (l->var[k] == v)
			return l->coef[k];
	return 0;
}

/* Do a and b have the same terms apart from v's? */
static bool same_rest(const Lin *a, const Lin *b, const Var *v)
{
	for (int k = 0; k < a->n; k++)
		if (a->var[k] != v && a->coef[k] != lin_coef(b, a->var[k]))
			return false;
	for (int k = 0; k < b->n; k++)
		if (b->var[k] != v && b->coef[k] != lin_coef(a, b->var[k]))
			return false;
	return true;
}

/*
 * The index of element X[s0]...[s(n-1)] counted in elements from X's start:
 * ((s0 * len1 + s1) * len2 + ...), each len the extent of the row type
 * below.  One index, so that no subscript outside its row's bounds (common
 * in real code, and not undefined for the memory it reaches) can make two
 * accesses look apart.  Not ok unless every subscript is affine in values
 * the body does not change and every extent is known.
 */
static Lin flat_index(const Body *b, const Expr *e, int n)
{
	const Expr *sub[MAX_DIMS];
	int64_t len[MAX_DIMS];
	Lin flat = { .ok = true }, s;
	int k = n;

	for (const Expr *y = e; y->kind == EX_INDEX; y = y->lhs) {
		sub[--k] = y->rhs;
		len[k] = k ? (y->lhs->type && type_is_array(y->lhs->type) && !y->lhs->type->is_vla
		              ? y->lhs->type->array_len : -1) : 1;
	}
	for (k = 0; k < n && flat.ok; k++) {
		Lin scaled = { .ok = true };

		if (len[k] <= 0) {
			flat.ok = false;
			break;
		}
		lin_combine(&scaled, &flat, len[k]);
		s = lin_of(sub[k]);
		lin_combine(&scaled, &s, 1);
		flat = scaled;
	}
	if (flat.ok && !lin_invariant(&flat, b))
		flat.ok = false;
	return flat;
}

/* An access X[s1]...[sn] (or a memory scalar: n = 0) into b's list. */
static void note_access(Body *b, const Expr *e, bool write)
{
	const Expr *x = e;
	MemAccess *a;
	Ptr p;
	int n = 0;

	if (b->failed)
		return;
	if (b->n == MAX_ACCESSES) {
		b->failed = true;
		return;
	}
	a = &b->acc[b->n];
	while (x->kind == EX_INDEX && n < MAX_DIMS) {
		x = x->lhs;
		n++;
		/* rows reached through loaded pointers (double **) may overlap: arrays only */
		if (x->kind == EX_INDEX && !type_is_array(x->type))
			n = MAX_DIMS;
	}
	if (x->kind != EX_VAR || n == MAX_DIMS || type_is_volatile(x->var->type) ||
	    (e->type && type_is_volatile(e->type))) {
		b->failed = true;
		return;
	}
	a->name = x->var;
	a->write = write;
	a->ndims = n;
	a->flat = flat_index(b, e, n);
	p = val_loc(e, NULL);
	if (p.kind != P_OBJ || !p.base || (a->ndims && varies(b, x->var))) {
		b->failed = true;
		return;
	}
	a->obj = p.base;
	b->n++;
}

static void walk_lvalue(Body *b, const Expr *e, bool rd, bool wr);
static void walk_value(Body *b, const Expr *e);

/* The subscripts and base of an element access are values read. */
static void walk_subscripts(Body *b, const Expr *e)
{
	for (; e && e->kind == EX_INDEX; e = e->lhs)
		walk_value(b, e->rhs);
}

static void walk_lvalue(Body *b, const Expr *e, bool rd, bool wr)
{
	e = ir_strip_casts(e);
	if (!e) {
		b->failed = true;
		return;
	}
	if (e->kind == EX_VAR) {
		if (type_is_array(e->var->type)) /* an array's name is its address, not an access */
			return;
		if (ivdep_register(e->var))
			return; /* a register: the compiler's own dependence analysis */
	} else if (e->kind != EX_INDEX) {
		b->failed = true;
		return;
	}
	if (rd)
		note_access(b, e, false);
	if (wr)
		note_access(b, e, true);
	walk_subscripts(b, e);
}

static void walk_value(Body *b, const Expr *e)
{
	if (!e || b->failed)
		return;
	switch (e->kind) {
	case EX_NUM:
	case EX_SIZEOF:
		return;
	case EX_NAME:
		if (!e->is_constant)
			b->failed = true;
		return;
	case EX_VAR:
	case EX_INDEX:
		walk_lvalue(b, e, true, false);
		return;
	case EX_ASSIGN:
		walk_lvalue(b, e->lhs, e->op != OP_ASSIGN, true);
		walk_value(b, e->rhs);
		return;
	case EX_UNARY:
		if (ir_is_incdec(e)) {
			walk_lvalue(b, e->lhs, true, true);
			return;
		}
		if (e->op == OP_DEREF || e->op == OP_ADDR) {
			b->failed = true;
			return;
		}
		walk_value(b, e->lhs);
		return;
	case EX_BINARY:
	case EX_COMMA:
		walk_value(b, e->lhs);
		walk_value(b, e->rhs);
		return;
	case EX_COND:
		walk_value(b, e->cond);
		walk_value(b, e->lhs);
		walk_value(b, e->rhs);
		return;
	case EX_CAST:
		walk_value(b, e->lhs);
		return;
	default: /* calls, members, strings, initializers */
		b->failed = true;
		return;
	}
}

static void walk_stmt(Body *b, const Stmt *s)
{
	if (!s || b->failed)
		return;
	switch (s->kind) {
	case ST_EXPR:
		walk_value(b, s->expr);
		return;
	case ST_BLOCK:
		for (uint32_t i = 0; i < s->body.len; i++)
			walk_stmt(b, s->body.items[i]);
		return;
	case ST_IF:
		walk_value(b, s->expr);
		walk_stmt(b, s->then);
		walk_stmt(b, s->els);
		return;
	case ST_DECL:
		if (s->var && (s->var->storage == SC_STATIC || type_is_array(s->var->type)))
			b->failed = true;
		walk_value(b, s->expr);
		return;
	default: /* loops, jumps, switches, labels */
		b->failed = true;
		return;
	}
}

/* Can no two iterations make a and b meet: their flat indexes equal only in one iteration, or never? */
static bool apart(const MemAccess *a, const MemAccess *b, const Var *iv)
{
	const Lin *x = &a->flat, *y = &b->flat;
	int64_t cx, cy, diff;

	if (!x->ok || !y->ok || !same_rest(x, y, iv))
		return false;
	cx = lin_coef(x, iv);
	cy = lin_coef(y, iv);
	diff = y->c0 - x->c0;
	if (cx != cy)
		return false;
	return cx == 0 ? diff != 0 : diff % cx != 0 || diff == 0;
}

static bool may_meet(const MemAccess *a, const MemAccess *b)
{
	return a->obj == b->obj || obj_may_alias(a->obj, b->obj);
}

static bool independent(const Body *b)
{
	for (int i = 0; i < b->n; i++) {
		const MemAccess *w = &b->acc[i];

		if (!w->write)
			continue;
		for (int k = 0; k < b->n; k++) {
			const MemAccess *r = &b->acc[k];

			if (!may_meet(w, r))
				continue;
			if (r->name != w->name || r->ndims != w->ndims || !w->ndims || !apart(w, r, b->iv))
				return false;
		}
	}
	return true;
}

/* A comparison (GCC hangs its loop annotation on the exit test; `a && b` loses it). */
static bool plain_test(const Expr *e)
{
	e = ir_strip_casts(e);
	return e && e->kind == EX_BINARY &&
	       (e->op == OP_LT || e->op == OP_LE || e->op == OP_GT || e->op == OP_GE || e->op == OP_NE);
}

/* Is s an innermost counted for loop whose iterations are independent in memory? */
static bool loop_ok(const Func *f, const Stmt *s)
{
	const Loop *l = s->loop;
	Body *b;
	bool ok;

	if (s->kind != ST_FOR || l->ivs.len != 1 || !l->ivs.items[0].step_known || !plain_test(l->cond) ||
	    (l->trip_count >= 0 && l->trip_count < MIN_TRIPS) ||
	    !l->ivs.items[0].step || !ivdep_register_int(l->ivs.items[0].var) || !l->cond || !l->step ||
	    s->start >= f->src->len || strncmp(f->src->text + s->start, "for", 3) != 0)
		return false;
	b = xcalloc(1, sizeof(*b));
	b->body = l->body;
	b->iv = l->ivs.items[0].var;
	walk_stmt(b, l->body);
	walk_value(b, l->cond); /* the trip count must not hang on memory the body writes */
	walk_value(b, l->step);
	ok = !b->failed && !ir_stmt_assigns(l->body, b->iv) && independent(b);
	free(b);
	return ok;
}

static void find_loops(const Func *f, const Stmt *s, StmtConstList *out, int *nloops)
{
	int inner = 0;

	if (!s)
		return;
	find_loops(f, s->then, out, &inner);
	find_loops(f, s->els, out, &inner);
	for (uint32_t i = 0; i < s->body.len; i++)
		find_loops(f, s->body.items[i], out, &inner);
	if (s->loop)
		find_loops(f, s->loop->body, out, &inner);
	if (ir_is_loop(s)) {
		++*nloops;
		if (!inner && loop_ok(f, s))
			array_push(out, s);
	}
	*nloops += inner;
}

void ivdep_loops(const Func *f, const Stmt *loop, StmtConstList *out)
{
	int n = 0;

	if (!f || !f->src || !loop)
		return;
	acc.cur = (Func *)f;
	find_loops(f, loop, out, &n);
	acc.cur = NULL;
}
