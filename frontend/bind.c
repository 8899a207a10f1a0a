/*
 * bind.c - front end: integer parameters bound to what every caller
 * passes.  Benchmark kernels take their sizes as parameters
 * (`void kernel(int n, ...)`, `for (i = 0; i < n; i++)`) and main passes
 * the same constant each time (`int n = N; kernel(n, ...)`).  Such a local,
 * set only by its constant initializer, is bound to that constant first.  When every
 * call of a function is a direct call the program shows, and each passes
 * one and the same constant for a parameter that the function never
 * assigns, that parameter is that constant: its loops get trip counts, and
 * a chunk of a split loop is the same at run time as planned.  Values flow
 * down call chains (main -> kernel(n) -> helper(n)) by repeating the pass.
 *
 * A function whose name the analysis may not see every use of stays
 * unbound: one named in a macro body (a call through a macro the lowering
 * did not expand), in a hidden range (initializers of large tables, inactive
 * branches), used other than as a callee (its address), or, when the
 * program has no main, one with external linkage (other callers may exist).
 */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

enum { BIND_ROUNDS = 8 }; /* call-chain depth that values flow down */

typedef struct Uses {
	Program *prog;
	uint32_t *writes;   /* by Var.id: assignments and increments */
	uint32_t *names;    /* by interned name: EX_NAME references */
	uint32_t *callees;  /* by interned name: those that are a call's callee */
	uint32_t nnames;
} Uses;

static void count_name(Uses *u, uint32_t *counts, int name)
{
	if (name > 0 && (uint32_t)name < u->nnames)
		counts[name]++;
}

static void count_use(Expr *e, void *ctx)
{
	Uses *u = ctx;
	Expr *target = NULL;

	if (e->kind == EX_ASSIGN)
		target = e->lhs;
	else if (e->kind == EX_UNARY && (e->op == OP_PREINC || e->op == OP_PREDEC ||
	                                 e->op == OP_POSTINC || e->op == OP_POSTDEC))
		target = e->lhs;
	target = ir_strip_casts(target);
	if (target && target->kind == EX_VAR)
		u->writes[target->var->id]++;
	if (e->kind == EX_NAME)
		count_name(u, u->names, e->name);
	if (e->kind == EX_CALL && e->lhs && e->lhs->kind == EX_NAME)
		count_name(u, u->callees, e->lhs->name);
}

static void count_var_init(Uses *u, Var *v)
{
	if (v->init)
		ir_visit_expr(v->init, count_use, u);
}

static void count_uses(Uses *u)
{
	Program *prog = u->prog;

	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		Func *f = prog->funcs.items[i];

		if (f->body)
			ir_visit_stmt(f->body, count_use, NULL, u);
		/* the lengths of variable-length arrays may assign too (`double A[n += 4]`) */
		for (uint32_t k = 0; k < f->params.len; k++)
			ir_visit_type_lengths(f->params.items[k]->type, count_use, u);
		for (uint32_t k = 0; k < f->locals.len; k++)
			ir_visit_type_lengths(f->locals.items[k]->type, count_use, u);
	}
	for (uint32_t i = 0; i < prog->globals.len; i++)
		count_var_init(u, prog->globals.items[i]);
}

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The identifier that ends just before p (back to s), or that starts at p; length in *n. */
static const char *ident_before(const char *s, const char *p, size_t *n)
{
	const char *e;

	while (p > s && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	for (e = p; p > s && is_ident_char(p[-1]); p--)
		;
	*n = (size_t)(e - p);
	return p;
}

static const char *ident_after(const char *p, const char *end, size_t *n)
{
	const char *e;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (e = p; e < end && is_ident_char(*e); e++)
		;
	*n = (size_t)(e - p);
	return p;
}

/* Is word [w, w + n) among the parameters of d? */
static bool is_param(const PPMacroDef *d, const char *w, size_t n)
{
	return d->is_func && n && pp_word_in(w, n, d->params, d->params_end);
}

/*
 * Could a ## in d's body paste name (`kern_##name` makes kern_a)?  Each
 * operand is the text as written or, for a parameter, anything: name must
 * start with a written left operand, end with a written right one.
 */
static bool pasted_in(const char *name, size_t n, const PPMacroDef *d)
{
	for (const char *p = d->body; p + 1 < d->end; p++) {
		size_t ln, rn;
		const char *l, *r;
		bool lp, rp;

		if (p[0] != '#' || p[1] != '#')
			continue;
		l = ident_before(d->body, p, &ln);
		r = ident_after(p + 2, d->end, &rn);
		lp = is_param(d, l, ln);
		rp = is_param(d, r, rn);
		if ((lp || (ln <= n && memcmp(name, l, ln) == 0)) &&
		    (rp || (rn <= n && memcmp(name + n - rn, r, rn) == 0)))
			return true;
		p++;
	}
	return false;
}

/* Whether text the lowering did not read (macro bodies, hidden ranges) names f. */
static bool named_unseen(const Program *prog, const Func *f)
{
	const char *name = intern_name(f->name);
	size_t n = strlen(name);

	for (uint32_t i = 0; i < prog->sources.len; i++) {
		const Source *src = prog->sources.items[i];
		uint32_t line = 0;
		PPMacroDef d;

		for (uint32_t k = 0; k < src->hidden.len; k++)
			if (pp_word_in(name, n, src->text + src->hidden.items[k].start,
			            src->text + src->hidden.items[k].end))
				return true;
		for (uint32_t k = 0; k < src->outside.len; k++) {
			const PPConst *c = &src->outside.items[k];

			PPMacroDef od = { .is_func = c->params != NULL, .params = c->params,
			                  .params_end = c->params ? c->params + strlen(c->params) : NULL,
			                  .body = c->text, .end = c->text ? c->text + strlen(c->text) : NULL };

			if (c->text && (pp_word_in(name, n, od.body, od.end) || pasted_in(name, n, &od)))
				return true;
		}
		while (pp_next_define(src, &line, &d))
			if (pp_word_in(name, n, d.body, d.end) || pasted_in(name, n, &d))
				return true;
	}
	return false;
}

static bool has_main(const Program *prog)
{
	for (uint32_t i = 0; i < prog->funcs.len; i++)
		if (strcmp(intern_name(prog->funcs.items[i]->name), "main") == 0)
			return true;
	return false;
}

/* Can every call of f be seen? */
static bool callers_known(const Uses *u, const Func *f, bool whole_program)
{
	uint32_t n = (uint32_t)f->name;

	if (strcmp(intern_name(f->name), "main") == 0 || !f->body)
		return false;
	if (!whole_program && f->storage != SC_STATIC)
		return false;
	if (n >= u->nnames || u->callees[n] == 0 || u->names[n] != u->callees[n])
		return false;
	return !named_unseen(u->prog, f);
}

static bool is_int_var(const Var *v)
{
	return v->type && (v->type->kind == TY_INT || v->type->kind == TY_ENUM) && !v->addr_taken;
}

/* Has f a parameter bind_param could bind?  Only then is its callers' text scanned. */
static bool has_int_param(const Uses *u, const Func *f)
{
	for (uint32_t k = 0; k < f->params.len; k++)
		if (is_int_var(f->params.items[k]) && !u->writes[f->params.items[k]->id])
			return true;
	return false;
}

/* Does v hold value unchanged (no conversion on the way in: `char c = 300` does not)? */
static bool fits(const Var *v, int64_t value)
{
	int bits = v->type->size >= 8 ? 64 : (int)v->type->size * 8;

	if (bits >= 64)
		return !v->type->is_unsigned || value >= 0;
	if (v->type->is_unsigned)
		return value >= 0 && value < ((int64_t)1 << bits);
	return value >= -((int64_t)1 << (bits - 1)) && value < ((int64_t)1 << (bits - 1));
}

/*
 * A local integer that only its initializer sets, to a constant
 * (`int n = N;` in main), is that constant wherever it is in scope.
 */
static void bind_local(const Uses *u, Var *v)
{
	int64_t value;

	if (!v->bound && is_int_var(v) && u->writes[v->id] == 0 && v->init &&
	    !v->type->is_volatile && ir_const_eval(v->init, &value) && fits(v, value)) {
		v->bound = true;
		v->bound_value = value;
	}
}

typedef struct CallScan {
	const Uses *u;
	const Func *callee;
	uint32_t k;       /* the parameter */
	int64_t value;
	bool seen, ok;
} CallScan;

static void scan_call(Expr *e, void *ctx)
{
	CallScan *cs = ctx;
	int64_t v;

	if (e->kind != EX_CALL || e->callee_func != cs->callee || !cs->ok)
		return;
	if (cs->k >= e->args.len || !ir_const_eval(e->args.items[cs->k], &v) ||
	    (cs->seen && v != cs->value)) {
		cs->ok = false;
		return;
	}
	cs->value = v;
	cs->seen = true;
}

/* Binds parameter k of f when every call passes one constant; true when it did. */
static bool bind_param(const Uses *u, Func *f, uint32_t k)
{
	Var *p = f->params.items[k];
	CallScan cs = { u, f, k, 0, false, true };
	Program *prog = u->prog;

	if (p->bound || !is_int_var(p) || u->writes[p->id])
		return false;
	for (uint32_t i = 0; cs.ok && i < prog->funcs.len; i++)
		if (prog->funcs.items[i]->body)
			ir_visit_stmt(prog->funcs.items[i]->body, scan_call, NULL, &cs);
	if (!cs.ok || !cs.seen || !fits(p, cs.value))
		return false;
	p->bound = true;
	p->bound_value = cs.value;
	return true;
}

static void no_expr(Expr *e, void *ctx)
{
	(void)e, (void)ctx;
}

static void recount_loop(Stmt *s, void *ctx)
{
	Loop *lp = s->loop;

	(void)ctx;
	if (s->kind != ST_FOR || !lp)
		return;
	lp->ivs.len = 0;
	lp->trip_count = -1;
	lp->lower = lp->upper = 0;
	loop_recognise(lp);
}

void bind_context_of(const Expr *call, Func *g, BindContext *out)
{
	out->len = 0;
	for (uint32_t k = 0; k < g->params.len && k < call->args.len; k++) {
		Var *p = g->params.items[k];
		int64_t v;

		if (!p->bound && is_int_var(p) && !p->type->is_volatile &&
		    ir_const_eval(call->args.items[k], &v) && fits(p, v))
			array_push(out, ((BindArg){ p, v }));
	}
}

void bind_context_apply(Func *g, const BindContext *ctx, bool on)
{
	for (uint32_t i = 0; i < ctx->len; i++) {
		ctx->items[i].param->bound = on;
		ctx->items[i].param->bound_value = on ? ctx->items[i].value : 0;
	}
	if (ctx->len && g->body)
		ir_visit_stmt(g->body, no_expr, recount_loop, NULL);
}

bool bind_context_same(const BindContext *a, const BindContext *b)
{
	if (a->len != b->len)
		return false;
	for (uint32_t i = 0; i < a->len; i++)
		if (a->items[i].param != b->items[i].param || a->items[i].value != b->items[i].value)
			return false;
	return true;
}

/* A name in a parameter's array length is the parameter before it (lowered before it was in scope). */
static void name_param(Expr *e, void *ctx)
{
	const Func *f = ctx;

	for (uint32_t i = 0; e->kind == EX_NAME && i < f->params.len; i++)
		if (f->params.items[i]->name == e->name) {
			e->kind = EX_VAR;
			e->var = f->params.items[i];
		}
}

/*
 * t with every variable length that folds now (`double A[n][n]`, n a bound
 * parameter or a local set once to a constant) made that constant, through
 * pointers and arrays; t itself when one length does not fold.
 */
static Type *fold_vla(Type *t, bool *ok)
{
	Type *base, *n;
	int64_t len = 0;

	if (!t || (t->kind != TY_ARRAY && t->kind != TY_PTR))
		return t;
	base = fold_vla(t->base, ok);
	if (t->is_vla && (!t->vla_len || !ir_const_eval(t->vla_len, &len) || len < 0))
		*ok = false;
	if (!*ok || (base == t->base && !t->is_vla))
		return t;
	n = ARENA_NEW(Type);
	*n = *t;
	n->base = base;
	if (t->kind == TY_ARRAY && t->is_vla) {
		n->is_vla = false;
		n->vla_len = NULL;
		n->array_len = len;
	}
	if (n->kind == TY_ARRAY)
		n->size = n->array_len >= 0 && base->size >= 0 ? n->array_len * base->size : -1;
	return n;
}

static Type *folded(Type *t)
{
	bool ok = true;
	Type *n = fold_vla(t, &ok);

	return ok ? n : t;
}

static void fold_expr_type(Expr *e, void *ctx)
{
	(void)ctx;
	e->type = folded(e->type);
}

/*
 * Once the sizes are bound, the variable-length arrays they give lengths
 * become arrays of those lengths, in the objects' types and in every
 * expression's: `void kernel(int n, double A[n][n])`, called with n = 1000
 * only, indexes rows of 1000 (PolyBench's C99 prototypes).
 */
static void fold_vlas(Func *f)
{
	for (uint32_t i = 0; i < f->params.len; i++)
		f->params.items[i]->type = folded(f->params.items[i]->type);
	for (uint32_t i = 0; i < f->locals.len; i++)
		if (type_is_ptr(f->locals.items[i]->type)) /* a VLA object itself stays unmodelled */
			f->locals.items[i]->type = folded(f->locals.items[i]->type);
	if (f->body)
		ir_visit_stmt(f->body, fold_expr_type, NULL, NULL);
}

void bind_params(Program *prog)
{
	Uses u = { prog, NULL, NULL, NULL, intern_count() };
	bool whole = has_main(prog), changed = true;
	Array(Func *) cands = { 0 };

	u.writes = xcalloc(prog->vars.len + 1, sizeof(*u.writes));
	u.names = xcalloc(u.nnames + 1, sizeof(*u.names));
	u.callees = xcalloc(u.nnames + 1, sizeof(*u.callees));
	for (uint32_t i = 0; i < prog->funcs.len; i++)
		for (uint32_t k = 0; k < prog->funcs.items[i]->params.len; k++)
			ir_visit_type_lengths(prog->funcs.items[i]->params.items[k]->type, name_param,
			                      prog->funcs.items[i]);
	count_uses(&u);
	for (uint32_t i = 0; i < prog->funcs.len; i++)
		for (uint32_t k = 0; k < prog->funcs.items[i]->locals.len; k++)
			bind_local(&u, prog->funcs.items[i]->locals.items[k]);
	for (uint32_t i = 0; i < prog->funcs.len; i++)
		if (has_int_param(&u, prog->funcs.items[i]) && callers_known(&u, prog->funcs.items[i], whole))
			array_push(&cands, prog->funcs.items[i]);
	for (int round = 0; changed && round < BIND_ROUNDS; round++) {
		changed = false;
		for (uint32_t i = 0; i < cands.len; i++)
			for (uint32_t k = 0; k < cands.items[i]->params.len; k++)
				changed |= bind_param(&u, cands.items[i], k);
	}
	for (uint32_t i = 0; i < prog->funcs.len; i++)
		fold_vlas(prog->funcs.items[i]);
	for (uint32_t i = 0; i < prog->funcs.len; i++)
		if (prog->funcs.items[i]->body)
			ir_visit_stmt(prog->funcs.items[i]->body, no_expr, recount_loop, NULL);
	array_free(&cands);
	free(u.writes);
	free(u.names);
	free(u.callees);
}
