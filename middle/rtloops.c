/*
 * rtloops.c - middle stage: loops whose trip count only the run knows
 * (`for (i = 0; i < n; i++)`, n a parameter that no caller in the program
 * fixes), split with bounds computed at run time: the output makes such a
 * loop an OpenMP worksharing loop whose `if` clause holds the conditions
 * under which its iterations are independent and its work pays for the
 * fork.  Where a condition fails, the one thread that meets the loop runs
 * it whole, as written.
 *
 * The dependence test is symbolic.  Every memory access of the nest is an
 * array element X[s1]...[sn] whose index, the rows laid end to end, is a
 * polynomial of degree two at most in the counters of the nest and in
 * integers the nest does not change (`i * m + j`, `i * N + j`).  Two
 * accesses to memory that may be the same (one of them a write) must be
 * to the same X with the same multiple c of the split counter i and the
 * same terms free of counters; then two different iterations i and i'
 * meet only where c * (i - i') equals the difference of their inner parts
 * (the terms with inner counters).  Bounding those parts over the inner
 * counters' ranges (which may depend on outer counters: triangles) gives
 * the condition |difference| < |c|, a polynomial in the parameters: true,
 * false, or a test made at run time (`1200 - n >= 0` when a row of 1200
 * holds an inner range of n).  Pointer parameters that callers the
 * program does not show may pass overlapping are assumed apart, and each
 * such pair is checked at run time (mtpar_apart over the bytes the nest
 * can reach through them).
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"

enum { MAX_MONO = 24, MAX_OPEN = 8, MAX_COUNTERS = 32, MAX_ACC = 96, MAX_DIMS = 8, MAX_CONDS = 24 };
/*
 * What the test takes for the trips of an inner loop whose bounds it
 * cannot write down before the loop: few, so that the work is not
 * overestimated (a fork that does not pay is a slowdown).
 */
#define UNKNOWN_INNER_TRIPS 8.0
/*
 * The work written into the if clause is an estimate, inner trips bounded
 * above (a triangle counts as its square): a split must pay for its fork
 * this many times over before the run makes it.
 */
#define WORK_MARGIN 3.0

/* ------------------------------------------------------------------ */
/* Polynomials of degree two over integer variables                    */
/* ------------------------------------------------------------------ */

/* k * a * b; b NULL: k * a; a and b NULL: the constant k.  a->id <= b->id. */
typedef struct Mono {
	const Var *a, *b;
	int64_t k;
} Mono;

typedef struct Poly {
	bool ok;
	int n;
	Mono m[MAX_MONO];
} Poly;

static bool small(int64_t v) { return v > -(1LL << 40) && v < (1LL << 40); }

static Poly poly_const(int64_t k)
{
	Poly p = { .ok = true };

	if (k) {
		p.m[0].k = k;
		p.n = 1;
	}
	p.ok = small(k);
	return p;
}

static void poly_add_mono(Poly *p, const Var *a, const Var *b, int64_t k)
{
	if (!k || !p->ok)
		return;
	if (a && b && b->id < a->id) {
		const Var *t = a;

		a = b;
		b = t;
	}
	if (!a && b) {
		a = b;
		b = NULL;
	}
	for (int i = 0; i < p->n; i++)
		if (p->m[i].a == a && p->m[i].b == b) {
			p->m[i].k += k;
			if (!small(p->m[i].k))
				p->ok = false;
			if (!p->m[i].k)
				p->m[i] = p->m[--p->n];
			return;
		}
	if (p->n == MAX_MONO || !small(k)) {
		p->ok = false;
		return;
	}
	p->m[p->n++] = (Mono){ a, b, k };
}

static Poly poly_var(const Var *v)
{
	Poly p = { .ok = true };

	poly_add_mono(&p, v, NULL, 1);
	return p;
}

/* dst += f * src */
static void poly_add(Poly *dst, const Poly *src, int64_t f)
{
	if (!src->ok || !small(f)) {
		dst->ok = false;
		return;
	}
	for (int i = 0; i < src->n && dst->ok; i++)
		poly_add_mono(dst, src->m[i].a, src->m[i].b, src->m[i].k * f);
}

static int degree(const Mono *m)
{
	return (m->a != NULL) + (m->b != NULL);
}

static Poly poly_mul(const Poly *x, const Poly *y)
{
	Poly p = { .ok = x->ok && y->ok };

	for (int i = 0; i < x->n && p.ok; i++)
		for (int j = 0; j < y->n && p.ok; j++) {
			const Mono *u = &x->m[i], *w = &y->m[j];
			const Var *v[4] = { u->a, u->b, w->a, w->b }, *f[2] = { NULL, NULL };
			int nf = 0;

			if (degree(u) + degree(w) > 2 || !small(u->k) || !small(w->k)) {
				p.ok = false;
				break;
			}
			for (int k = 0; k < 4; k++)
				if (v[k])
					f[nf++] = v[k];
			poly_add_mono(&p, f[0], f[1], u->k * w->k);
		}
	return p;
}

static bool poly_const_value(const Poly *p, int64_t *k)
{
	*k = 0;
	for (int i = 0; i < p->n; i++) {
		if (degree(&p->m[i]))
			return false;
		*k = p->m[i].k;
	}
	return true;
}

static bool poly_equal(const Poly *x, const Poly *y)
{
	Poly d = *x;

	poly_add(&d, y, -1);
	return d.ok && d.n == 0;
}

static bool mono_has(const Mono *m, const Var *v)
{
	return m->a == v || m->b == v;
}

/* p = k * v + rest, k free of v: false when v appears squared. */
static bool poly_split(const Poly *p, const Var *v, Poly *k, Poly *rest)
{
	*k = poly_const(0);
	*rest = poly_const(0);
	for (int i = 0; i < p->n; i++) {
		const Mono *m = &p->m[i];

		if (m->a == v && m->b == v)
			return false;
		if (mono_has(m, v))
			poly_add_mono(k, m->a == v ? m->b : m->a, NULL, m->k);
		else
			poly_add_mono(rest, m->a, m->b, m->k);
	}
	return k->ok && rest->ok;
}

/* p with v replaced by the integer x; not ok where that overflows. */
static Poly poly_at(const Poly *p, const Var *v, int64_t x)
{
	Poly q = poly_const(0);

	if (!small(x))
		q.ok = false;
	for (int i = 0; i < p->n && q.ok; i++) {
		const Mono *m = &p->m[i];
		const Var *a = m->a, *b = m->b;
		int64_t k = m->k;

		if (b == v) {
			if (__builtin_mul_overflow(k, x, &k))
				q.ok = false;
			b = NULL;
		}
		if (a == v) {
			if (__builtin_mul_overflow(k, x, &k))
				q.ok = false;
			a = b;
			b = NULL;
		}
		poly_add_mono(&q, a, b, k);
	}
	q.ok = q.ok && p->ok;
	return q;
}

/* ------------------------------------------------------------------ */
/* The nest                                                            */
/* ------------------------------------------------------------------ */

/*
 * A loop of the nest: its counter and the counter's values [lo, hi] while
 * it runs.  Sibling loops may reuse one variable with other ranges, so the
 * polynomials name the loop (its stand-in `as`), not the variable.
 */
typedef struct Counter {
	const Stmt *loop;
	const Var *var;
	Var as;
	Poly lo, hi;
} Counter;

typedef struct Touch {
	const Var *name;      /* the X of X[...] */
	Var *obj;             /* the memory it designates */
	bool write;
	int ndims;
	int64_t size;         /* bytes of the element */
	Poly flat;            /* the element's index, rows end to end */
} Touch;

/* The loops around the one scanned, innermost first. */
typedef struct Around {
	const Stmt *loop;
	struct Around *up;
	signed char splits; /* may loop be split: -1 not asked yet */
} Around;

typedef struct Nest {
	const Func *f;
	const Stmt *L;
	const Around *around; /* the loops of f around L */
	bool strict;          /* conditions only on the counters of those loops */
	CostModel *cost;
	int nall, nopen;
	Counter all[MAX_COUNTERS]; /* all[0]: L's; then the inner loops', outer before inner */
	int open[MAX_OPEN];   /* indexes into all: the loops around the statement walked */
	int nacc;
	Touch acc[MAX_ACC];
	const char *why;      /* set: the loop stays as it is */
	Array(const char *) conds; /* C expressions, each true for the split */
	Array(const Var *) privates;
} Nest;

static void fail(Nest *n, const char *why)
{
	if (!n->why)
		n->why = why;
}

static bool inside_loop(const Nest *n, const Var *v)
{
	return v->start >= n->L->start && v->end <= n->L->end;
}

/* The loop of the nest whose counter v is where the walk stands, -1 none. */
static int counter_of(const Nest *n, const Var *v)
{
	for (int k = n->nopen - 1; k >= 0; k--)
		if (n->all[n->open[k]].var == v)
			return n->open[k];
	return -1;
}

/* An integer the nest reads and never changes: a register declared before it. */
static bool invariant(const Nest *n, const Var *v)
{
	return ivdep_register_int(v) && !inside_loop(n, v) && !ir_stmt_assigns(n->L, v);
}

/* A pointer the nest indexes through and never changes. */
static bool invariant_ptr(const Nest *n, const Var *v)
{
	return !inside_loop(n, v) && !ir_stmt_assigns(n->L, v) && !v->addr_taken;
}

static Poly poly_of(Nest *n, const Expr *e)
{
	Poly p = { .ok = false }, r;
	int64_t k;

	if (!e)
		return p;
	if (ir_const_eval(e, &k) && small(k))
		return poly_const(k);
	switch (e->kind) {
	case EX_CAST:
		if (ivdep_keeps_value(e))
			return poly_of(n, e->lhs);
		break;
	case EX_VAR:
		if (counter_of(n, e->var) >= 0)
			return poly_var(&n->all[counter_of(n, e->var)].as);
		if (invariant(n, e->var))
			return e->var->bound ? poly_const(e->var->bound_value) : poly_var(e->var);
		break;
	case EX_UNARY:
		if (e->op == OP_NEG || e->op == OP_PLUS) {
			p = poly_const(0);
			r = poly_of(n, e->lhs);
			poly_add(&p, &r, e->op == OP_NEG ? -1 : 1);
			return p;
		}
		break;
	case EX_BINARY:
		if (e->op == OP_ADD || e->op == OP_SUB) {
			p = poly_of(n, e->lhs);
			r = poly_of(n, e->rhs);
			poly_add(&p, &r, e->op == OP_SUB ? -1 : 1);
			return p;
		}
		if (e->op == OP_MUL) {
			p = poly_of(n, e->lhs);
			r = poly_of(n, e->rhs);
			return poly_mul(&p, &r);
		}
		break;
	default:
		break;
	}
	p.ok = false;
	return p;
}

/*
 * The index of X[s0]...[s(n-1)] in elements from X's start, its rows laid
 * end to end (as ivdep.c's: no subscript outside its row may make two
 * accesses look apart).
 */
static Poly flat_index(Nest *n, const Expr *e, int nd)
{
	const Expr *sub[MAX_DIMS];
	int64_t len[MAX_DIMS];
	Poly flat = poly_const(0), s;
	int k = nd;

	for (const Expr *y = e; y->kind == EX_INDEX; y = y->lhs) {
		sub[--k] = y->rhs;
		len[k] = k ? (y->lhs->type && type_is_array(y->lhs->type) && !y->lhs->type->is_vla
		              ? y->lhs->type->array_len : -1) : 1;
	}
	for (k = 0; k < nd && flat.ok; k++) {
		Poly scaled = poly_const(0);

		if (len[k] <= 0) {
			flat.ok = false;
			break;
		}
		poly_add(&scaled, &flat, len[k]);
		s = poly_of(n, sub[k]);
		poly_add(&scaled, &s, 1);
		flat = scaled;
	}
	return flat;
}

static void note_access(Nest *n, const Expr *e, bool write)
{
	const Expr *x = e;
	Touch *a;
	Ptr p;
	int nd = 0;

	while (x->kind == EX_INDEX && nd < MAX_DIMS) {
		x = x->lhs;
		nd++;
		if (x->kind == EX_INDEX && !type_is_array(x->type))
			nd = MAX_DIMS; /* rows through loaded pointers (double **) may overlap */
	}
	if (x->kind == EX_VAR && x->var->aliased) {
		fail(n, plan_fmt("it names %s, another object's name (asm label or alias)",
		                 intern_name(x->var->name)));
		return;
	}
	if (x->kind == EX_VAR && x->var->thread_local) {
		fail(n, plan_fmt("it names %s, thread-local: each thread has its own", intern_name(x->var->name)));
		return;
	}
	if (x->kind != EX_VAR || nd == MAX_DIMS || type_is_volatile(x->var->type) ||
	    (e->type && type_is_volatile(e->type))) {
		fail(n, "it accesses memory in a way the test does not model");
		return;
	}
	if (inside_loop(n, x->var) && type_is_array(x->var->type))
		return; /* an array of the body: each iteration has its own */
	if (n->nacc == MAX_ACC) {
		fail(n, "it makes too many accesses to memory");
		return;
	}
	a = &n->acc[n->nacc];
	a->name = x->var;
	a->write = write;
	a->ndims = nd;
	a->size = e->type ? type_size(e->type) : -1;
	a->flat = flat_index(n, e, nd);
	p = val_loc(e, NULL);
	if (p.kind != P_OBJ || !p.base || (nd && !type_is_array(x->var->type) && !invariant_ptr(n, x->var))) {
		fail(n, plan_fmt("it accesses %s, which it cannot place", intern_name(x->var->name)));
		return;
	}
	if (!a->flat.ok && write) {
		fail(n, plan_fmt("the index of %s is not a polynomial of the counters",
		                 intern_name(x->var->name)));
		return;
	}
	a->obj = p.base;
	n->nacc++;
}

static void walk_value(Nest *n, const Expr *e);
static void walk_stmt(Nest *n, const Stmt *s);

static void add_private(Nest *n, const Var *v)
{
	for (uint32_t i = 0; i < n->privates.len; i++)
		if (n->privates.items[i] == v)
			return;
	array_push(&n->privates, v);
}

/*
 * A register of the function that the nest assigns: each thread has its
 * own where no value of it flows between iterations or out of the nest
 * (a counter declared once and reused: plan_private_counter).
 */
static void assign_register(Nest *n, const Var *v)
{
	if (inside_loop(n, v) || v == n->all[0].var)
		return;
	if (plan_private_counter(n->f, n->L, v))
		add_private(n, v);
	else
		fail(n, plan_fmt("it assigns %s, declared outside it, and uses its value across "
		                 "iterations or after the loop", intern_name(v->name)));
}

static void walk_lvalue(Nest *n, const Expr *e, bool rd, bool wr)
{
	e = ir_strip_casts(e);
	if (!e) {
		fail(n, "it has an expression the test does not model");
		return;
	}
	if (e->kind == EX_VAR && type_is_array(e->var->type))
		return; /* the array's address, not an access */
	if (e->kind == EX_VAR && ivdep_register(e->var)) {
		if (wr)
			assign_register(n, e->var);
		return;
	}
	if (e->kind != EX_VAR && e->kind != EX_INDEX) {
		fail(n, "it accesses memory through a pointer or a member");
		return;
	}
	if (rd)
		note_access(n, e, false);
	if (wr)
		note_access(n, e, true);
	for (; e->kind == EX_INDEX; e = e->lhs)
		walk_value(n, e->rhs);
}

static void walk_call(Nest *n, const Expr *e)
{
	int arg;

	if (e->callee_func || names_call_ext(e, &arg) != EXT_PURE) {
		fail(n, "it calls a function");
		return;
	}
	for (uint32_t i = 0; i < e->args.len; i++)
		walk_value(n, e->args.items[i]);
}

static void walk_value(Nest *n, const Expr *e)
{
	if (!e || n->why)
		return;
	switch (e->kind) {
	case EX_NUM:
	case EX_SIZEOF:
		return;
	case EX_NAME:
		if (!e->is_constant)
			fail(n, plan_fmt("it names %s, which is not a variable or a constant",
			                 intern_name(e->name)));
		return;
	case EX_VAR:
	case EX_INDEX:
		walk_lvalue(n, e, true, false);
		return;
	case EX_ASSIGN:
		walk_lvalue(n, e->lhs, e->op != OP_ASSIGN, true);
		walk_value(n, e->rhs);
		return;
	case EX_UNARY:
		if (ir_is_incdec(e))
			walk_lvalue(n, e->lhs, true, true);
		else if (e->op == OP_DEREF || e->op == OP_ADDR)
			fail(n, "it takes an address or reads through a pointer");
		else
			walk_value(n, e->lhs);
		return;
	case EX_BINARY:
	case EX_COMMA:
		walk_value(n, e->lhs);
		walk_value(n, e->rhs);
		return;
	case EX_COND:
		walk_value(n, e->cond);
		walk_value(n, e->lhs);
		walk_value(n, e->rhs);
		return;
	case EX_CAST:
		walk_value(n, e->lhs);
		return;
	case EX_CALL:
		walk_call(n, e);
		return;
	default:
		fail(n, "it has an expression the test does not model");
		return;
	}
}

/* Is e the counter v, or v converted keeping its value? */
static bool is_counter(const Expr *e, const Var *v)
{
	while (e && e->kind == EX_CAST && ivdep_keeps_value(e))
		e = e->lhs;
	return e && e->kind == EX_VAR && e->var == v;
}

/*
 * Do the two sides of a comparison keep their values in it?  A signed
 * counter against an unsigned bound is compared unsigned (-1 < 40u is
 * false), which the polynomials, exact integers, do not model.  A
 * constant side that is not negative fits either.
 */
static bool same_signedness(const Expr *a, const Expr *b)
{
	int sa, sb;
	bool ua, ub;
	int64_t k;

	if ((ir_const_eval(a, &k) && k >= 0) || (ir_const_eval(b, &k) && k >= 0))
		return true;
	return a->type && b->type && type_int(a->type, &sa, &ua) && type_int(b->type, &sb, &ub) && ua == ub;
}

/*
 * A for loop of one counter v, stepped by a constant, bounded by a
 * comparison of v with an expression the nest can bound: its values
 * [lo, hi] in c (an empty range when the loop does not run).
 */
static bool counted(Nest *n, const Stmt *s, Counter *c)
{
	const Loop *l = s->loop;
	const InductionVar *iv;
	Var *v;
	Expr *init, *cond, *bound;
	OpKind op;
	Poly e;

	if (s->kind != ST_FOR || l->ivs.len != 1 || l->init.len != 1 || !l->cond || !l->step)
		return false;
	iv = &l->ivs.items[0];
	if (!iv->step_known || !iv->step || !ivdep_register_int(iv->var) ||
	    !loop_init_assign(l->init.items[0], &v, &init) || v != iv->var ||
	    ir_stmt_assigns(l->body, v))
		return false;
	cond = ir_strip_casts(l->cond);
	if (!cond || cond->kind != EX_BINARY)
		return false;
	op = cond->op;
	if (is_counter(cond->lhs, v)) {
		bound = cond->rhs;
	} else if (is_counter(cond->rhs, v)) {
		bound = cond->lhs;
		op = loop_flip_cmp(op);
	} else {
		return false;
	}
	if (!same_signedness(cond->lhs, cond->rhs))
		return false;
	memset(c, 0, sizeof(*c));
	c->loop = s;
	c->var = v;
	c->as.id = -1 - n->nall; /* below every Var's, apart from each other */
	c->as.name = v->name;
	c->lo = poly_of(n, init);
	e = poly_of(n, bound);
	if (!c->lo.ok || !e.ok)
		return false;
	if (iv->step > 0 && (op == OP_LT || op == OP_LE)) {
		c->hi = e;
		if (op == OP_LT)
			poly_add_mono(&c->hi, NULL, NULL, -1);
		return c->hi.ok;
	}
	if (iv->step < 0 && (op == OP_GT || op == OP_GE) && !v->type->is_unsigned) {
		c->hi = c->lo;
		c->lo = e;
		if (op == OP_GT)
			poly_add_mono(&c->lo, NULL, NULL, 1);
		return c->lo.ok;
	}
	return false;
}

static void walk_inner_loop(Nest *n, const Stmt *s)
{
	const Loop *l = s->loop;

	if (n->nopen == MAX_OPEN || n->nall == MAX_COUNTERS || !counted(n, s, &n->all[n->nall])) {
		fail(n, "it holds a loop that is not a counted for loop with bounds the test can follow");
		return;
	}
	walk_stmt(n, l->init.items[0]);
	walk_value(n, l->cond);
	walk_value(n, l->step);
	n->open[n->nopen++] = n->nall++;
	walk_stmt(n, l->body);
	n->nopen--; /* after its loop, the counter is a value like any other */
}

static void walk_stmt(Nest *n, const Stmt *s)
{
	if (!s || n->why)
		return;
	switch (s->kind) {
	case ST_EXPR:
		walk_value(n, s->expr);
		return;
	case ST_BLOCK:
		for (uint32_t i = 0; i < s->body.len; i++)
			walk_stmt(n, s->body.items[i]);
		return;
	case ST_IF:
		walk_value(n, s->expr);
		walk_stmt(n, s->then);
		walk_stmt(n, s->els);
		return;
	case ST_DECL:
		if (s->var && (s->var->storage == SC_STATIC || s->var->storage == SC_EXTERN ||
		               (s->var->type && s->var->type->is_vla)))
			fail(n, plan_fmt("it declares %s, static or of variable length", intern_name(s->var->name)));
		walk_value(n, s->expr);
		return;
	case ST_FOR:
		walk_inner_loop(n, s);
		return;
	case ST_EMPTY:
		return;
	default:
		fail(n, "it holds a statement that leaves or enters it, or a loop that is not a for loop");
		return;
	}
}

/* ------------------------------------------------------------------ */
/* Conditions                                                          */
/* ------------------------------------------------------------------ */

/* p as a C expression of type long long. */
static const char *poly_text(const Poly *p)
{
	const char *t = "";

	if (!p->n)
		return "0LL";
	for (int i = 0; i < p->n; i++) {
		const Mono *m = &p->m[i];
		long long k = m->k < 0 ? -m->k : m->k;
		const char *sign = m->k < 0 ? (i ? " - " : "-") : (i ? " + " : "");

		if (!m->a)
			t = plan_fmt("%s%s%lldLL", t, sign, k);
		else if (k == 1)
			t = plan_fmt("%s%s(long long)%s", t, sign, intern_name(m->a->name));
		else
			t = plan_fmt("%s%s%lldLL * (long long)%s", t, sign, k, intern_name(m->a->name));
		if (m->b) /* every factor signed: an unsigned one would make the sum unsigned */
			t = plan_fmt("%s * (long long)%s", t, intern_name(m->b->name));
	}
	return t;
}

static void add_cond_text(Nest *n, const char *text)
{
	for (uint32_t i = 0; i < n->conds.len; i++)
		if (!strcmp(n->conds.items[i], text))
			return;
	if (n->conds.len == MAX_CONDS) {
		fail(n, "its iterations are independent only under too many conditions");
		return;
	}
	array_push(&n->conds, text);
}

/*
 * p with the counters of the loops around the nest at the point k / 8 of
 * their known ranges (the first iteration 0, the last 8).
 */
static Poly around_at(const Nest *n, Poly p, int k)
{
	for (const Around *a = n->around; a && p.ok; a = a->up) {
		const Loop *lp = a->loop->loop;

		if (lp && lp->trip_count > 0 && lp->ivs.len && lp->ivs.items[0].step_known)
			p = poly_at(&p, lp->ivs.items[0].var,
			            lp->lower + (lp->trip_count - 1) * k / 8 * lp->ivs.items[0].step);
	}
	return p;
}

/*
 * Is p >= 0 a condition not worth testing?  When it fails with the
 * counters of the loops around the nest midway, a split under it would
 * run, if ever, only near their ends (cholesky's row loop, j < i, is
 * independent while i <= 1).  Under the strict tests (rests that differ
 * by terms free of counters, reaches apart), a condition on parameters
 * tends to hold only where the loops hardly run (seidel's rows, apart
 * while n <= 3): those must hold midway, with no parameter left.
 */
static bool not_worth(const Nest *n, const Poly *p)
{
	Poly mid = around_at(n, *p, 4); /* midway */
	int64_t k;

	if (!mid.ok || !poly_const_value(&mid, &k))
		return n->strict;
	return k < 0;
}

/* p >= 0 must hold: decided now when p is a constant, else at run time. */
static void require(Nest *n, const Poly *p, const char *why)
{
	int64_t k;

	if (!p->ok || not_worth(n, p)) {
		fail(n, why);
		return;
	}
	if (poly_const_value(p, &k)) {
		if (k < 0)
			fail(n, why);
		return;
	}
	add_cond_text(n, plan_fmt("%s >= 0", poly_text(p)));
}

/* The highest-numbered counter of the nest that p names, -1 none. */
static int last_counter(const Nest *n, const Poly *p, int ncount)
{
	for (int k = ncount - 1; k >= 0; k--)
		for (int i = 0; i < p->n; i++)
			if (mono_has(&p->m[i], &n->all[k].as))
				return k;
	return -1;
}

/*
 * The largest (dir 1) or smallest (dir -1) value of p over the nest's
 * counters, a polynomial in the values the nest does not change: each
 * counter, innermost first, replaced by the end of its range that its
 * coefficient's sign picks.  A coefficient of unknown sign is taken for
 * not negative, a condition added (cond: else the bound fails).
 */
static Poly poly_bound(Nest *n, Poly p, int dir, bool cond)
{
	int k;

	while (p.ok && (k = last_counter(n, &p, n->nall)) >= 0) {
		const Counter *c = &n->all[k];
		Poly coef, rest, end;
		int64_t v;
		int sign = 1;

		if (!poly_split(&p, &c->as, &coef, &rest) || last_counter(n, &coef, n->nall) >= 0) {
			p.ok = false;
			break;
		}
		if (poly_const_value(&coef, &v))
			sign = v < 0 ? -1 : 1;
		else if (cond)
			require(n, &coef, "a counter's multiple has no known sign");
		else
			p.ok = false;
		end = poly_mul(&coef, sign * dir > 0 ? &c->hi : &c->lo);
		poly_add(&rest, &end, 1);
		p = rest;
	}
	return p;
}

/* ------------------------------------------------------------------ */
/* The dependence test                                                 */
/* ------------------------------------------------------------------ */

/* flat = c * i + inv + inner: i the split counter, inv free of counters. */
static bool split_index(const Nest *n, const Poly *flat, Poly *c, Poly *inv, Poly *inner)
{
	Poly rest;

	if (!flat->ok || !poly_split(flat, &n->all[0].as, c, &rest) ||
	    last_counter(n, c, n->nall) >= 0)
		return false;
	*inv = poly_const(0);
	*inner = poly_const(0);
	for (int i = 0; i < rest.n; i++) {
		const Mono *m = &rest.m[i];
		Poly one = poly_const(0);

		poly_add_mono(&one, m->a, m->b, m->k);
		poly_add(last_counter(n, &one, n->nall) >= 0 ? inner : inv, &one, 1);
	}
	return inv->ok && inner->ok;
}

static bool assumed_apart(const Var *a, const Var *b)
{
	uint32_t np;
	const Var *const *pairs = obj_assumed(&np);

	for (uint32_t i = 0; i < np; i++)
		if ((pairs[2 * i] == a && pairs[2 * i + 1] == b) ||
		    (pairs[2 * i] == b && pairs[2 * i + 1] == a))
			return true;
	return false;
}

/* The bytes [lo, hi) that access a may touch, from where its pointer points. */
static void reach_text(Nest *n, const Touch *a, const char **lo, const char **hi)
{
	Poly l = poly_bound(n, a->flat, -1, true), h = poly_bound(n, a->flat, 1, true), bl = poly_const(0),
	     bh = poly_const(a->size);

	poly_add(&bl, &l, a->size);
	poly_add(&bh, &h, a->size);
	*lo = bl.ok ? poly_text(&bl) : NULL;
	*hi = bh.ok ? poly_text(&bh) : NULL;
}

/* Pointer parameters taken for apart: the run checks it before the split. */
static void check_apart(Nest *n, const Touch *w, const Touch *r)
{
	const char *wl, *wh, *rl, *rh;

	if (!w->flat.ok || !r->flat.ok || w->size <= 0 || r->size <= 0 ||
	    w->name->scope != VAR_PARAM || r->name->scope != VAR_PARAM) {
		fail(n, plan_fmt("%s and %s may be the same memory", intern_name(w->name->name),
		                 intern_name(r->name->name)));
		return;
	}
	reach_text(n, w, &wl, &wh);
	reach_text(n, r, &rl, &rh);
	if (!wl || !wh || !rl || !rh) {
		fail(n, plan_fmt("the bytes it reaches through %s cannot be bounded",
		                 intern_name(w->name->name)));
		return;
	}
	add_cond_text(n, plan_fmt("mtpar_apart(%s, %s, %s, %s, %s, %s)", intern_name(w->name->name),
	                          wl, wh, intern_name(r->name->name), rl, rh));
}

/*
 * The inner parts of both accesses are multiples of one g (g * j: a
 * column, `A[j][i]` or `A[j * m + i]`): then c * (i - i') is a multiple
 * of g, and |c| * (the counter's span) < g leaves only i == i'.  g as a
 * polynomial, not ok when there is no such factor.
 */
static bool is_counter_var(const Nest *n, const Var *v)
{
	for (int k = 0; v && k < n->nall; k++)
		if (v == &n->all[k].as)
			return true;
	return false;
}

static Poly common_factor(const Nest *n, const Poly *dw, const Poly *dr)
{
	Poly g = { .ok = false };
	const Var *inv = NULL;
	int64_t k = 0;

	for (int side = 0; side < 2; side++) {
		const Poly *d = side ? dr : dw;

		for (int i = 0; i < d->n; i++) {
			const Mono *m = &d->m[i];
			bool ca = is_counter_var(n, m->a), cb = is_counter_var(n, m->b);
			const Var *other = ca ? m->b : m->a; /* the invariant factor, NULL none */
			int64_t a = m->k < 0 ? -m->k : m->k;

			if ((ca && cb) || (!ca && !cb) || ((i || side) && other != inv))
				return g; /* two counters, none, or another factor */
			inv = other;
			while (a) { /* k = gcd(k, a) */
				int64_t t = k % a;

				k = a;
				a = t;
			}
		}
	}
	if (!k)
		return g;
	g = poly_const(0);
	poly_add_mono(&g, inv, NULL, k);
	return g;
}

/* The test when both inner parts are multiples of g: g - 1 - |c| * (hi - lo) >= 0. */
static void test_modular(Nest *n, const Poly *c, const Poly *dw, const Poly *dr, const char *why)
{
	Poly g = common_factor(n, dw, dr), span = n->all[0].hi, need;

	poly_add(&span, &n->all[0].lo, -1);
	need = poly_mul(c, &span);
	if (!g.ok) {
		fail(n, why);
		return;
	}
	poly_add_mono(&g, NULL, NULL, -1);
	poly_add(&g, &need, -1);
	require(n, &g, why);
}

/* The test on the inner parts' ranges: c - 1 - (max hi - min lo) >= 0, both ways. */
static void test_ranges(Nest *n, const Poly *c, const Poly *dw, const Poly *dr, const char *why)
{
	for (int side = 0; side < 2 && !n->why; side++) {
		const Poly *hi = side ? dw : dr, *lo = side ? dr : dw;
		Poly top = poly_bound(n, *hi, 1, true), bot = poly_bound(n, *lo, -1, true), gap = *c;

		poly_add_mono(&gap, NULL, NULL, -1);
		poly_add(&gap, &top, -1);
		poly_add(&gap, &bot, 1);
		require(n, &gap, why);
	}
}

/* The conditions that test added to n since before, joined with &&; NULL when it failed. */
static const char *take_conds(Nest *n, uint32_t before)
{
	const char *t = "";

	if (n->why) {
		n->why = NULL;
		n->conds.len = before;
		return NULL;
	}
	for (uint32_t i = before; i < n->conds.len; i++)
		t = plan_fmt("%s%s(%s)", t, i > before ? " && " : "", n->conds.items[i]);
	n->conds.len = before;
	return t;
}

/* One of two tests' conditions, or the other's (NULL: the test failed; "": none needed). */
static void either_text(Nest *n, const char *x, const char *y, const char *why)
{
	if (!x && !y)
		fail(n, why);
	else if (!x || !y)
		add_cond_text(n, x ? x : y);
	else
		add_cond_text(n, plan_fmt("(%s) || (%s)", x, y));
}

/*
 * Either test proves w and r apart: the one that needs no condition, or
 * the run checks that one of the two holds.
 */
static void either(Nest *n, const Poly *c, const Poly *dw, const Poly *dr, const char *why,
                   uint32_t before)
{
	const char *ranges, *modular;

	test_ranges(n, c, dw, dr, why);
	ranges = take_conds(n, before);
	if (ranges && !*ranges)
		return;
	test_modular(n, c, dw, dr, why);
	modular = take_conds(n, before);
	if (modular && !*modular)
		return;
	either_text(n, ranges, modular, why);
}

/*
 * All the elements w and r may reach over the whole nest lie apart, the
 * one's below the other's (lu's `A[i][j]`, j from i up, against
 * `A[i][k]`, k below i): then no two iterations meet, whatever multiples
 * of the counter the two move by.  A test on the parameters where the
 * bounds are not constants; either order may hold.
 */
static void test_apart(Nest *n, const Touch *w, const Touch *r, const char *why, uint32_t before)
{
	const char *order[2];

	for (int side = 0; side < 2; side++) {
		const Touch *below = side ? r : w, *above = side ? w : r;
		Poly top = poly_bound(n, below->flat, 1, true), gap = poly_bound(n, above->flat, -1, true);

		poly_add_mono(&gap, NULL, NULL, -1);
		poly_add(&gap, &top, -1); /* above's least - below's most - 1 >= 0 */
		require(n, &gap, why);
		order[side] = take_conds(n, before);
		if (order[side] && !*order[side])
			return;
	}
	either_text(n, order[0], order[1], why);
}

/*
 * Can two different iterations of the split loop make w (a write) and r
 * meet?  Not when both move by the same multiple c of the counter and
 * either the rest of their indexes differ by less than |c| (terms free of
 * counters included: `A[i][k]` against `A[i][k - 1]` split over i), or
 * both have the same terms free of counters and their inner parts are
 * multiples of a g larger than c times the counter's span; nor when all
 * that the one reaches lies apart from all that the other does.
 * Conditions on the parameters where that is not a constant; the test
 * that needs none wins, else the run checks that one holds.
 */
static void test_pair(Nest *n, const Touch *w, const Touch *r)
{
	Poly cw, cr, iw, ir, dw, dr, c;
	const char *why = plan_fmt("iterations may depend on each other through %s",
	                           intern_name(w->name->name));
	const char *by_parts = NULL, *by_reach;
	uint32_t before = n->conds.len;
	bool merged = false; /* the terms free of counters differ, joined to the rests */
	int64_t k;

	if (w->obj != r->obj && !obj_may_alias(w->obj, r->obj)) {
		if (assumed_apart(w->obj, r->obj))
			check_apart(n, w, r);
		return;
	}
	if (w->obj != r->obj || r->name != w->name || r->ndims != w->ndims || !w->ndims) {
		fail(n, why);
		return;
	}
	if (split_index(n, &w->flat, &cw, &iw, &dw) && split_index(n, &r->flat, &cr, &ir, &dr) &&
	    poly_equal(&cw, &cr) && cw.n) {
		c = cw;
		if (poly_const_value(&c, &k) && k < 0)
			c = poly_const(-k);
		else if (!poly_const_value(&c, &k)) {
			Poly pos = c;

			poly_add_mono(&pos, NULL, NULL, -1);
			require(n, &pos, why); /* c >= 1 */
			if (n->why) /* before the tests, whose take_conds would clear it */
				return;
			before = n->conds.len;
		}
		merged = !poly_equal(&iw, &ir);
		if (merged) {
			poly_add(&dw, &iw, 1);
			poly_add(&dr, &ir, 1);
		}
		n->strict = merged;
		either(n, &c, &dw, &dr, why, before);
		n->strict = false;
		by_parts = take_conds(n, before);
		if (by_parts && !*by_parts)
			return;
	}
	by_reach = NULL;
	if (w != r) {
		n->strict = true;
		test_apart(n, w, r, why, before);
		n->strict = false;
		by_reach = take_conds(n, before);
		if (by_reach && !*by_reach)
			return;
	}
	if (by_parts && !by_reach) { /* the first tests' conditions, as they gave them */
		n->strict = merged;
		either(n, &c, &dw, &dr, why, before);
		n->strict = false;
		return;
	}
	either_text(n, by_parts, by_reach, why);
}

static void test_nest(Nest *n)
{
	for (int i = 0; i < n->nacc && !n->why; i++) {
		if (!n->acc[i].write)
			continue;
		for (int k = 0; k < n->nacc && !n->why; k++)
			test_pair(n, &n->acc[i], &n->acc[k]);
	}
}

/* ------------------------------------------------------------------ */
/* The work of one run of the nest, as the run computes it             */
/* ------------------------------------------------------------------ */

static bool has_loop(const Stmt *s, void *ctx)
{
	(void)ctx;
	return ir_is_loop(s);
}

static const Counter *counter_of_loop(const Nest *n, const Stmt *s)
{
	for (int k = 0; k < n->nall; k++)
		if (n->all[k].loop == s)
			return &n->all[k];
	return NULL;
}

/* The trips of a loop of the nest as a C expression, at most its largest. */
/* The most trips of loop s of the nest, a polynomial; not ok when unknown. */
static Poly trips_poly(Nest *n, const Stmt *s)
{
	const Counter *c = counter_of_loop(n, s);
	Poly t;

	if (!c)
		return (Poly){ .ok = false };
	t = c->hi;
	poly_add(&t, &c->lo, -1);
	poly_add_mono(&t, NULL, NULL, 1);
	return poly_bound(n, t, 1, false);
}

static const char *trips_text(Nest *n, const Stmt *s)
{
	Poly top = trips_poly(n, s);
	int64_t k;

	if (!top.ok)
		return plan_fmt("%g", UNKNOWN_INNER_TRIPS);
	if (poly_const_value(&top, &k))
		return plan_fmt("%lld.0", (long long)(k > 0 ? k : 0));
	return plan_fmt("(double)(%s > 0 ? %s : 0)", poly_text(&top), poly_text(&top));
}

/* One run of s in the cost model's units, a C expression of the parameters. */
static const char *work_text(Nest *n, const Stmt *s)
{
	const char *sum = NULL;
	double fixed = 0;

	if (!s || !ir_stmt_any(s, has_loop, NULL, NULL))
		return plan_fmt("%.0f.0", s ? cost_stmt(n->cost, s) : 0.0);
	switch (s->kind) {
	case ST_FOR:
		return plan_fmt("%s * (%.0f.0 + %s)", trips_text(n, s),
		                2 + cost_stmt(n->cost, &(Stmt){ .kind = ST_EXPR, .expr = s->loop->cond }),
		                work_text(n, s->loop->body));
	case ST_BLOCK:
		for (uint32_t i = 0; i < s->body.len; i++) {
			const Stmt *t = s->body.items[i];

			if (!ir_stmt_any(t, has_loop, NULL, NULL))
				fixed += cost_stmt(n->cost, t);
			else
				sum = sum ? plan_fmt("%s + %s", sum, work_text(n, t)) : work_text(n, t);
		}
		return plan_fmt("(%.0f.0 + %s)", fixed, sum ? sum : "0.0");
	case ST_IF: /* both arms: at most twice the longer */
		return plan_fmt("(%s + %s)", work_text(n, s->then), work_text(n, s->els));
	default:
		return plan_fmt("%.0f.0", cost_stmt(n->cost, s));
	}
}

/*
 * work_text's value with the counters of the loops around the nest at the
 * point k / 8 of their ranges; negative where it names anything else (a
 * parameter).
 */
static double work_at(Nest *n, const Stmt *s, int k)
{
	double sum = 0, w;

	if (!s || !ir_stmt_any(s, has_loop, NULL, NULL))
		return s ? cost_stmt(n->cost, s) : 0.0;
	switch (s->kind) {
	case ST_FOR: {
		Poly top = around_at(n, trips_poly(n, s), k);
		int64_t trips;

		w = work_at(n, s->loop->body, k);
		if (!top.ok || !poly_const_value(&top, &trips) || w < 0)
			return -1;
		return (double)(trips > 0 ? trips : 0) *
		       (2 + cost_stmt(n->cost, &(Stmt){ .kind = ST_EXPR, .expr = s->loop->cond }) + w);
	}
	case ST_BLOCK:
		for (uint32_t i = 0; i < s->body.len; i++) {
			if ((w = work_at(n, s->body.items[i], k)) < 0)
				return -1;
			sum += w;
		}
		return sum;
	case ST_IF:
		w = work_at(n, s->then, k);
		sum = work_at(n, s->els, k);
		return w < 0 || sum < 0 ? -1 : w + sum;
	default:
		return cost_stmt(n->cost, s);
	}
}

/*
 * Does every run of the nest fall short of min_work, with the loops
 * around it at nine points of their ranges (durbin's vectors of k
 * elements, a fork per k)?  False where the work names a parameter.
 */
static bool always_short(Nest *n, double min_work)
{
	if (!n->around || min_work <= 0)
		return false;
	for (int k = 0; k <= 8; k++) {
		double w = work_at(n, n->L, k);

		if (w < 0 || w >= min_work)
			return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* The loops                                                           */
/* ------------------------------------------------------------------ */

/* The header as OpenMP's canonical loop wants it: `i++`, `++i`, `i += k` or `i = i + k`. */
static bool canonical_step(const Expr *e, const Var *v)
{
	e = ir_strip_casts(e);
	if (!e)
		return false;
	if (ir_is_incdec(e))
		return e->lhs->kind == EX_VAR && e->lhs->var == v;
	if (e->kind != EX_ASSIGN || e->lhs->kind != EX_VAR || e->lhs->var != v)
		return false;
	if (e->op == OP_ADD || e->op == OP_SUB)
		return true;
	return e->op == OP_ASSIGN && e->rhs->kind == EX_BINARY && e->rhs->op == OP_ADD &&
	       ((e->rhs->lhs->kind == EX_VAR && e->rhs->lhs->var == v) ||
	        (e->rhs->rhs->kind == EX_VAR && e->rhs->rhs->var == v));
}

/* Why loop L of f may not be split at run time; NULL when it may (the conditions in n). */
static const char *nest_why(Nest *n)
{
	const Stmt *L = n->L;
	const Func *f = n->f;
	const Var *v;

	if (L->start >= f->src->len || strncmp(f->src->text + L->start, "for", 3) != 0)
		return "its header is written by a macro";
	if (!counted(n, L, &n->all[0]) || !canonical_step(L->loop->step, L->loop->ivs.items[0].var))
		return "it is not a counted loop that steps to a bound";
	v = n->all[0].var;
	if (!inside_loop(n, v) && !plan_private_counter(f, L, v))
		return plan_fmt("its counter %s is used after it", intern_name(v->name));
	n->nall = n->nopen = 1;
	walk_value(n, L->loop->cond);
	walk_stmt(n, L->loop->body);
	if (!n->why)
		test_nest(n);
	return n->why;
}

/* The if clause: the conditions, and the work against what the fork costs. */
static const char *if_clause(Nest *n, double min_work)
{
	const char *text = "";

	for (uint32_t i = 0; i < n->conds.len; i++)
		text = plan_fmt("%s%s(%s)", text, i ? " && " : "", n->conds.items[i]);
	if (min_work > 0)
		text = plan_fmt("%s%s%s >= %.0f.0", text, n->conds.len ? " && " : "",
		                work_text(n, n->L), min_work);
	return *text ? text : NULL;
}

/* How often a loop inside these runs per run of the outermost: their known trips multiplied. */
static double runs_around(const Around *around)
{
	double runs = 1;

	for (const Around *a = around; a; a = a->up)
		if (a->loop->loop && a->loop->loop->trip_count > 0)
			runs *= (double)a->loop->loop->trip_count;
	return runs;
}

/* A nest to test loop L of f, with the access analysis set for f. */
static Nest *nest_open(Func *f, const Stmt *L, const Around *around)
{
	Nest *n = xcalloc(1, sizeof(*n));

	n->f = f;
	n->L = L;
	n->around = around;
	acc.cur = f;
	obj_assume_apart(f);
	return n;
}

static void nest_close(Nest *n)
{
	obj_assume_apart(NULL);
	acc.cur = NULL;
	array_free(&n->conds);
	array_free(&n->privates);
	free(n);
}

static ParPlan *loop_plan(PlanCtx *c, Func *f, const Stmt *L, const Around *around)
{
	ParPlan *p = ARENA_NEW(ParPlan);
	RtLoop *rt = ARENA_NEW(RtLoop);
	Nest *n = nest_open(f, L, around);
	double min_work;

	p->func = f;
	p->rt = rt;
	rt->loop = L;
	n->cost = &c->cost;
	p->why_not = nest_why(n);
	min_work = WORK_MARGIN * plan_min_region_work(c, f, runs_around(around));
	if (!p->why_not && always_short(n, min_work))
		p->why_not = "no run of it has the work to pay for a fork";
	if (!p->why_not) {
		rt->cond = if_clause(n, min_work);
		for (uint32_t i = 0; i < n->privates.len; i++)
			array_push(&rt->privates, n->privates.items[i]);
		ivdep_loops(f, L->loop->body, &rt->simd);
		rt->ncores = c->ncores;
	}
	nest_close(n);
	return p;
}

/*
 * The outermost loops under s whose trips the run decides that may be
 * split at run time go to plans; true when one did.  A loop that may not
 * gets a plan with the reason unless a loop inside it may, or one around
 * it has said why (quiet).
 */
typedef struct Moves {
	const Stmt *around, *loop;
	bool any;
} Moves;

static void note_moved(Expr *e, void *ctx)
{
	Moves *m = ctx;

	if (e->kind == EX_VAR && !loop_find_iv(m->loop->loop, e->var) && ir_stmt_assigns(m->around, e->var))
		m->any = true;
}

/*
 * Do the bounds of loop s change with the loops around it (`j <= i`; around:
 * the outermost)?  Then one of those is the loop to split, and s, a run of
 * it, is left alone.
 */
static bool bounds_move(const Stmt *around, const Stmt *s)
{
	Moves m = { around, s, false };

	if (!around)
		return false;
	for (uint32_t i = 0; i < s->loop->init.len; i++)
		ir_visit_stmt(s->loop->init.items[i], note_moved, NULL, &m);
	ir_visit_expr(s->loop->cond, note_moved, &m);
	return m.any;
}

static const Stmt *outermost(const Around *a)
{
	while (a && a->up)
		a = a->up;
	return a ? a->loop : NULL;
}

/* May loop L of f be split, its iterations independent? */
static bool splits(Func *f, const Stmt *L)
{
	Nest *n = nest_open(f, L, NULL);
	bool yes = !nest_why(n);

	nest_close(n);
	return yes;
}

/*
 * Do s's bounds move with the loops around it (`j <= i`)?  Then one of
 * those is the loop to split, and s, a run of it, is left alone, unless
 * none of them may be split (lu's and gramschmidt's outer loops carry
 * their results from one iteration to the next): then s is split on each
 * run, a fork each, when its work pays for it.
 */
static bool left_to_outer(Around *around, const Stmt *s, Func *f)
{
	if (!bounds_move(outermost(around), s))
		return false;
	for (Around *a = around; a; a = a->up) {
		if (a->splits < 0) /* once per loop, however many moving loops it holds */
			a->splits = a->loop->kind == ST_FOR && splits(f, a->loop);
		if (a->splits)
			return true;
	}
	return false;
}

static bool scan(PlanCtx *c, Func *f, const Stmt *s, PlanList *plans, bool quiet, Around *around)
{
	bool any = false;
	ParPlan *p = NULL;

	if (!s)
		return false;
	if (s->kind == ST_FOR && s->loop->trip_count < 0 && !left_to_outer(around, s, f)) {
		p = loop_plan(c, f, s, around);
		if (!p->why_not) {
			array_push(plans, p);
			return true;
		}
	}
	any |= scan(c, f, s->then, plans, quiet || p, around);
	any |= scan(c, f, s->els, plans, quiet || p, around);
	for (uint32_t i = 0; i < s->body.len; i++)
		any |= scan(c, f, s->body.items[i], plans, quiet || p, around);
	if (s->loop) {
		Around in = { s, around, -1 };

		any |= scan(c, f, s->loop->body, plans, quiet || p, &in);
	}
	if (p && !any && !quiet)
		array_push(plans, p);
	return any;
}

void plan_rt_loops(PlanCtx *c, PlanList *plans, const Bitset *busy)
{
	if (c->ncores < 2 || c->plain_regions)
		return;
	for (uint32_t i = 0; i < c->prog->funcs.len; i++) {
		Func *f = c->prog->funcs.items[i];

		if (f->body && f->src && !bitset_has(busy, (uint32_t)f->id))
			scan(c, f, f->body, plans, false, NULL);
	}
}
