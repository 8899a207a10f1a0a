/*
 * check.c - back end: what the code generator can express.  Every plan is
 * checked before any text is generated: its span (no declaration, label or
 * preprocessor conditional; no MT that leaves the function), its tasks
 * (each MT covered exactly once; chunks that tile their loop), each clone
 * (a callee whose statements outside its loops may run in every chunk, whose
 * locals carry no value from one part to another) and each split loop
 * (a header that can be rewritten for chunk bounds).  A plan that fails
 * stays sequential, with the reason as a remark.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* false, with the reason in why (check_plan's channel). */
static bool fail(char *why, size_t size, const char *fmt, ...) MTPAR_PRINTF(3, 4);
static bool fail(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (size == 0)
		return false;
	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return false;
}

static const char *func_name(const Func *f)
{
	return intern_name(f->name);
}

/* ---- walking the IR ---- */

/* A variable every thread may share: global, or a static local. */
static bool shared_var(const Var *v)
{
	return v->scope == VAR_GLOBAL || v->storage == SC_STATIC || v->storage == SC_EXTERN;
}

static bool expr_private(const Expr *e);

/*
 * The address of lvalue e computed without reading shared memory:
 * v, a[i] with a's address private, s.m, p->m and *p with p's value private.
 */
static bool addr_private(const Expr *e)
{
	switch (e->kind) {
	case EX_VAR:
	case EX_NAME:
	case EX_STR:
		return true;
	case EX_INDEX:
		if (!expr_private(e->rhs))
			return false;
		if (e->lhs->type && e->lhs->type->kind == TY_PTR)
			return expr_private(e->lhs);
		return addr_private(e->lhs);
	case EX_MEMBER:
		return e->op == OP_ARROW ? expr_private(e->lhs) : addr_private(e->lhs);
	case EX_UNARY:
		return e->op == OP_DEREF && expr_private(e->lhs);
	default:
		return false;
	}
}

/*
 * Can every chunk evaluate e at once without a race or an effect: no
 * assignment or call, and no read of memory other threads may write (only
 * locals, parameters and the addresses of anything)?
 */
static bool expr_private(const Expr *e)
{
	if (!e)
		return true;
	switch (e->kind) {
	case EX_NUM:
	case EX_STR:
	case EX_NAME:
	case EX_SIZEOF:
		return true;
	case EX_VAR:
		return !shared_var(e->var) || (e->var->type && (e->var->type->kind == TY_ARRAY ||
		                                                e->var->type->kind == TY_FUNC));
	case EX_UNARY:
		if (e->op == OP_ADDR)
			return addr_private(e->lhs);
		if (e->op == OP_DEREF || ir_is_incdec(e))
			return false;
		return expr_private(e->lhs);
	case EX_BINARY:
	case EX_COMMA:
		return expr_private(e->lhs) && expr_private(e->rhs);
	case EX_COND:
		return expr_private(e->cond) && expr_private(e->lhs) && expr_private(e->rhs);
	case EX_CAST:
		return expr_private(e->lhs);
	case EX_INDEX:
	case EX_MEMBER:
		/* an array member or element decays to its address; anything else is a read */
		return e->type && e->type->kind == TY_ARRAY && addr_private(e);
	case EX_INIT:
		for (uint32_t i = 0; i < e->args.len; i++)
			if (!expr_private(e->args.items[i]))
				return false;
		return true;
	default:
		return false;
	}
}

/* ---- checks: what the generator can express ---- */

typedef Array(const Expr *) ConstExprs;

/* The header variables of a split loop: IVs first, then copies of the first IV. */
typedef struct Header {
	Array(Var *) vars;
	ConstExprs copy_init;    /* per copy variable: its init expression */
	Array(Var *) copies;
} Header;

static bool var_in(Var *const *vs, uint32_t n, const Var *v)
{
	for (uint32_t i = 0; i < n; i++)
		if (vs[i] == v)
			return true;
	return false;
}

static bool mentions_header(const Expr *e, void *ctx)
{
	const Header *h = ctx;

	return e->kind == EX_VAR && var_in(h->vars.items, h->vars.len, e->var);
}

/* Writes a header variable or takes its address. */
static bool writes_header(const Expr *e, void *ctx)
{
	const Expr *target = NULL;

	if (e->kind == EX_ASSIGN || ir_is_incdec(e) || (e->kind == EX_UNARY && e->op == OP_ADDR))
		target = e->lhs;
	return target && mentions_header(target, ctx);
}

/* A reference to a header variable outside the loop [start, end). */
typedef struct Outside {
	const Header *h;
	uint32_t start, end;
} Outside;

static bool mentions_outside(const Expr *e, void *ctx)
{
	const Outside *o = ctx;

	return (e->start < o->start || e->start >= o->end) && mentions_header(e, (void *)o->h);
}

static bool int_like(const Type *t, bool ptr_ok)
{
	return t && (t->kind == TY_INT || t->kind == TY_ENUM || (ptr_ok && t->kind == TY_PTR));
}


/*
 * The step parts: each updates an IV once, or copies the first IV into a
 * header variable after the first IV's own update (onnx2c's `m++, c=m`).
 */
static bool check_step(const Loop *lp, Header *h, char *why, size_t size)
{
	ExprList parts = { 0 };
	Array(Var *) seen = { 0 };
	Var *iv0 = lp->ivs.items[0].var;
	bool ok = true, iv0_done = false;

	ir_split_comma(lp->step, &parts);
	for (uint32_t i = 0; ok && i < parts.len; i++) {
		const Expr *e = parts.items[i];
		Var *v = loop_updated_var(e);

		if (!v || var_in(seen.items, seen.len, v)) {
			ok = fail(why, size, "loop step part is not one update of a header variable");
			break;
		}
		array_push(&seen, v);
		if (v == iv0)
			iv0_done = true;
		if (loop_find_iv(lp, v))
			continue;
		if (iv0_done && loop_copies_first_iv(lp, e)) {
			array_push(&h->copies, v);
			continue;
		}
		ok = fail(why, size, "header variable %s is neither an IV nor a copy of %s",
		          intern_name(v->name), intern_name(iv0->name));
	}
	for (uint32_t i = 0; ok && i < lp->ivs.len; i++)
		if (!var_in(seen.items, seen.len, lp->ivs.items[i].var))
			ok = fail(why, size, "IV %s has no update", intern_name(lp->ivs.items[i].var->name));
	array_free(&parts);
	array_free(&seen);
	return ok;
}

/* Every init part sets an IV or a copy (to the first IV's start value). */
static bool check_init(const Loop *lp, const SplitLoop *sl, Header *h, char *why, size_t size)
{
	for (uint32_t i = 0; i < lp->init.len; i++) {
		const Stmt *s = lp->init.items[i];
		Expr *init;
		Var *v;
		int64_t start;

		if (!loop_init_assign(s, &v, &init))
			return fail(why, size, "loop init part that does not set a header variable");
		if (loop_find_iv(lp, v))
			continue;
		if (!var_in(h->copies.items, h->copies.len, v))
			return fail(why, size, "header variable %s is not an IV", intern_name(v->name));
		if (sl->reverse || !ir_const_eval(init, &start) || start != sl->lo)
			return fail(why, size, "copy %s does not start at %lld", intern_name(v->name),
			            (long long)sl->lo);
		array_push(&h->copy_init, init);
	}
	if (h->copy_init.len != h->copies.len)
		return fail(why, size, "copy of the IV without an init part");
	return true;
}

/* The IVs besides the first: constant steps, integers or pointers, starts free of the header. */
static bool check_other_ivs(const Loop *lp, Header *h, char *why, size_t size)
{
	for (uint32_t i = 1; i < lp->ivs.len; i++) {
		const InductionVar *iv = &lp->ivs.items[i];
		const char *name = intern_name(iv->var->name);

		if (!iv->step_known)
			return fail(why, size, "IV %s has no constant step", name);
		if (!int_like(iv->var->type, true))
			return fail(why, size, "IV %s is neither an integer nor a pointer", name);
		if (ir_expr_any(iv->init, mentions_header, h) || ir_has_effect(iv->init))
			return fail(why, size, "the start of IV %s depends on the header", name);
	}
	return true;
}

static bool check_split_body(const SplitLoop *sl, const Header *h, const Func *callee,
                             const Clone *c, char *why, size_t size);

/*
 * [sl->lo, sl->hi) step sl->step holds the loop's trips, from its start: a
 * reverse chunk starts one step below its hi, so hi is one step above the
 * start there.
 */
static bool range_ok(const Loop *lp, const SplitLoop *sl)
{
	if (lp->trip_count < 0 || sl->hi < sl->lo ||
	    (sl->hi - sl->lo + sl->step - 1) / sl->step != lp->trip_count)
		return false;
	return sl->reverse ? lp->lower == sl->hi - sl->step && (sl->hi - sl->lo) % sl->step == 0
	                   : lp->lower == sl->lo;
}

/*
 * The loop header rewrite is sound when the first IV runs lo, lo+step, ...
 * below hi (or those values down from the top, without wrapping), every
 * other header variable is an IV with a closed form (or a copy of the
 * first), and nothing else touches them.
 */
static bool split_ok(const SplitLoop *sl, const Func *callee, const Clone *c, Header *h,
                     char *why, size_t size)
{
	const Loop *lp;
	const InductionVar *iv0;

	if (!sl->top || !sl->loop || sl->loop->kind != ST_FOR || !sl->loop->loop)
		return fail(why, size, "split part is not a for loop");
	if (sl->loop->start < sl->top->start || sl->loop->end > sl->top->end)
		return fail(why, size, "split loop outside its part");
	lp = sl->loop->loop;
	if (!lp->ivs.len || !lp->cond || !lp->step)
		return fail(why, size, "loop without an induction variable, condition or step");
	iv0 = &lp->ivs.items[0];
	if (!iv0->step_known || iv0->step != (sl->reverse ? -sl->step : sl->step) || sl->step <= 0)
		return fail(why, size, "first IV %s does not count %s by %lld", intern_name(iv0->var->name),
		            sl->reverse ? "down" : "up", (long long)sl->step);
	if (!int_like(iv0->var->type, false))
		return fail(why, size, "first IV %s is not an integer", intern_name(iv0->var->name));
	if (!range_ok(lp, sl))
		return fail(why, size, "range [%lld, %lld) step %lld is not the loop's",
		            (long long)sl->lo, (long long)sl->hi, (long long)sl->step);
	if (sl->reverse && (lp->ivs.len != 1 || lp->init.len != 1))
		return fail(why, size, "a decreasing loop's header moves more than its first IV");
	if (sl->reverse && iv0->var->type->is_unsigned && sl->lo < sl->step)
		return fail(why, size, "unsigned %s wraps below its last value", intern_name(iv0->var->name));
	for (uint32_t i = 0; i < lp->ivs.len; i++)
		array_push(&h->vars, lp->ivs.items[i].var);
	if (!check_step(lp, h, why, size))
		return false;
	for (uint32_t i = 0; i < h->copies.len; i++)
		array_push(&h->vars, h->copies.items[i]);
	if (!check_init(lp, sl, h, why, size) || !check_other_ivs(lp, h, why, size))
		return false;
	return check_split_body(sl, h, callee, c, why, size);
}

/* A break that leaves the split loop itself (not a nested loop or switch). */
static bool breaks_out(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_BREAK)
		return true;
	if (s->loop || s->kind == ST_SWITCH)
		return false;
	if (breaks_out(s->then) || breaks_out(s->els))
		return true;
	for (uint32_t i = 0; i < s->body.len; i++)
		if (breaks_out(s->body.items[i]))
			return true;
	return false;
}

/* Is s the top statement of a part of c other than sl's? */
static bool other_part(const Clone *c, const SplitLoop *sl, const Stmt *s)
{
	for (uint32_t i = 0; c && i < c->parts.len; i++)
		if (c->parts.items[i].top == s && c->parts.items[i].top != sl->top)
			return true;
	return false;
}

/*
 * Does the code that runs in sl's chunk calls mention a header variable
 * outside the loop?  A chunk call of clone c runs the callee's statements
 * outside its parts and sl's part only: the other parts' uses of a counter
 * declared once (`int i, j;`) run in calls of their own, with fresh locals
 * (check_part_locals checks that no value goes from one part to another).
 * Without c, the whole callee counts.
 */
static bool used_outside(const SplitLoop *sl, const Func *callee, const Clone *c, Outside *o)
{
	const Stmt *body = callee->body;

	if (!c || body->kind != ST_BLOCK)
		return ir_stmt_any(body, NULL, mentions_outside, o);
	for (uint32_t i = 0; i < body->body.len; i++)
		if (!other_part(c, sl, body->body.items[i]) &&
		    ir_stmt_any(body->body.items[i], NULL, mentions_outside, o))
			return true;
	return false;
}

/* The body keeps its hands off the header; a variable declared outside stays unused there. */
static bool check_split_body(const SplitLoop *sl, const Header *h, const Func *callee,
                             const Clone *c, char *why, size_t size)
{
	const Loop *lp = sl->loop->loop;
	Outside o = { h, sl->loop->start, sl->loop->end };

	if (ir_stmt_any(lp->body, NULL, writes_header, (void *)h))
		return fail(why, size, "the loop body writes a header variable");
	if (breaks_out(lp->body))
		return fail(why, size, "the loop body breaks out of the loop");
	for (uint32_t i = 0; i < h->vars.len; i++) {
		if (shared_var(h->vars.items[i]))
			return fail(why, size, "header variable %s is shared",
			            intern_name(h->vars.items[i]->name));
	}
	if (callee && used_outside(sl, callee, c, &o))
		return fail(why, size, "a header variable is used outside the loop");
	return true;
}

static void header_free(Header *h)
{
	array_free(&h->vars);
	array_free(&h->copies);
	array_free(&h->copy_init);
}

bool check_split(const SplitLoop *sl, const Func *callee, char *why, size_t size)
{
	Header h = { 0 };
	bool ok = split_ok(sl, callee, NULL, &h, why, size);

	header_free(&h);
	return ok;
}

/*
 * Does a return, goto or label lie inside s, outside the workspace
 * statements of f (scratch_stmt: a null check's return is never taken in
 * the clone, whose workspaces are buffers)?
 */
static bool part_leaves(const Func *f, const Stmt *s)
{
	if (!s || scratch_stmt(f, s))
		return false;
	if (s->kind == ST_RETURN || s->kind == ST_GOTO || s->kind == ST_LABEL)
		return true;
	if (part_leaves(f, s->then) || part_leaves(f, s->els))
		return true;
	for (uint32_t i = 0; i < s->body.len; i++)
		if (part_leaves(f, s->body.items[i]))
			return true;
	return s->loop && part_leaves(f, s->loop->body);
}

/*
 * A statement of the callee outside its parts: it runs in every chunk.  A
 * local's initializer may read shared memory (Clip's `float minv =
 * *min_val;`): every chunk's summary holds that read, so the task graph
 * orders it against any task that writes those bytes.  It must have no
 * effect of its own.
 */
static bool harmless_in_every_chunk(const Stmt *s)
{
	switch (s->kind) {
	case ST_EMPTY:
		return true;
	case ST_DECL:
		if (s->var && shared_var(s->var))
			return !s->expr;
		return !ir_has_effect(s->expr);
	case ST_EXPR:
		if (s->expr && s->expr->kind == EX_ASSIGN && s->expr->op == OP_ASSIGN &&
		    s->expr->lhs->kind == EX_VAR && !shared_var(s->expr->lhs->var) &&
		    !s->expr->lhs->var->addr_taken)
			return !ir_has_effect(s->expr->rhs); /* a local set as a declaration would */
		return expr_private(s->expr);
	case ST_RETURN:
		return expr_private(s->expr);
	default:
		return false;
	}
}

/*
 * Where the callee's own variables are used.  Each chunk call has fresh
 * locals and parameters, so a variable one part writes must not carry a
 * value into another part or into the statements outside the parts.
 */
typedef struct VarUse {
	Var *var;
	Array(int) places; /* distinct parts that mention it; -1: outside every part */
	bool written;      /* assigned, or its address taken, inside a part */
} VarUse;

typedef struct Uses {
	const Clone *clone;
	Array(VarUse) vars;
	const Stmt *ret;   /* the top-level return being walked: its value is discarded */
} Uses;

/* The part whose top statement holds byte at, or -1. */
static int part_at(const Clone *c, uint32_t at)
{
	for (uint32_t k = 0; k < c->parts.len; k++)
		if (at >= c->parts.items[k].top->start && at < c->parts.items[k].top->end)
			return (int)k;
	return -1;
}

static VarUse *use_of(Uses *u, Var *v)
{
	VarUse nu = { 0 };

	for (uint32_t i = 0; i < u->vars.len; i++)
		if (u->vars.items[i].var == v)
			return &u->vars.items[i];
	nu.var = v;
	array_push(&u->vars, nu);
	return &array_last(&u->vars);
}

/* A parameter declared as an array: a pointer, so its elements are the caller's. */
static bool array_param(const Var *v)
{
	return v->scope == VAR_PARAM && v->type && v->type->kind == TY_ARRAY;
}

/*
 * The variable whose own storage an lvalue names: v, v[i] of an array v,
 * v.m; NULL when the lvalue is reached through a pointer.
 */
static Var *lvalue_root(const Expr *e)
{
	bool indexed = false;

	while (e) {
		if (e->kind == EX_VAR)
			return indexed && array_param(e->var) ? NULL : e->var;
		if (e->kind == EX_INDEX && !(e->lhs->type && e->lhs->type->kind == TY_PTR))
			e = e->lhs, indexed = true;
		else if (e->kind == EX_MEMBER && e->op != OP_ARROW)
			e = e->lhs;
		else
			return NULL;
	}
	return NULL;
}

static bool note_use(const Expr *e, void *ctx)
{
	Uses *u = ctx;
	int place = part_at(u->clone, e->start);
	Var *w = NULL;

	if (e->kind == EX_ASSIGN || ir_is_incdec(e) || (e->kind == EX_UNARY && e->op == OP_ADDR))
		w = lvalue_root(e->lhs);
	if (w && w->func == u->clone->callee && place >= 0)
		use_of(u, w)->written = true;
	if (e->kind == EX_VAR && e->var->func == u->clone->callee &&
	    !(u->ret && place < 0)) {
		VarUse *vu = use_of(u, e->var);
		bool seen = false;

		for (uint32_t i = 0; i < vu->places.len; i++)
			seen |= vu->places.items[i] == place;
		if (!seen)
			array_push(&vu->places, place);
		if (e->var->addr_taken && !array_param(e->var) && place >= 0)
			vu->written = true;
	}
	return false;
}

/* Part k assigns v before every use of it (a for header inside it does, or each loop's body). */
static bool part_sets_first(const Clone *c, int k, Var *v)
{
	const Stmt *top;

	if (k < 0)
		return false;
	top = c->parts.items[k].top;
	return loop_covers(top, v, ir_var_refs(top, v), NULL) || plan_scalar_set_first(top, v);
}

static bool check_part_locals(const Clone *c, char *why, size_t size)
{
	const Func *f = c->callee;
	Uses u = { c, { 0 }, NULL };
	bool ok = true;

	for (uint32_t i = 0; i < f->body->body.len; i++) {
		const Stmt *s = f->body->body.items[i];

		u.ret = s->kind == ST_RETURN ? s : NULL;
		ir_stmt_any(s, NULL, note_use, &u);
	}
	for (uint32_t i = 0; ok && i < u.vars.len; i++) {
		VarUse *vu = &u.vars.items[i];

		if (vu->written && vu->places.len > 1) {
			for (uint32_t k = 0; ok && k < vu->places.len; k++)
				if (!part_sets_first(c, vu->places.items[k], vu->var))
					ok = fail(why, size, "%s carries a value from one part to another",
					          intern_name(vu->var->name));
		}
	}
	for (uint32_t i = 0; i < u.vars.len; i++)
		array_free(&u.vars.items[i].places);
	array_free(&u.vars);
	return ok;
}

/*
 * Can callee c->callee be cloned into c's parts for chunks called from
 * caller: every top-level statement besides the parts harmless when every
 * chunk runs it (declarations with private initializers, a constant
 * return), no part that returns or jumps, no callee variable that carries
 * a value from one part to another (each chunk call has fresh locals), and
 * every split part passing check_split?  False with the reason in why, and
 * check_plan refuses the plan.
 */
static bool check_clone_bound(const Clone *c, const Func *caller, char *why, size_t size);

/* check_clone_bound with the clone's context bound, as decomposition saw the callee. */
static bool check_clone(const Clone *c, const Func *caller, char *why, size_t size)
{
	bool ok;

	bind_context_apply(c->callee, &c->ctx, true);
	ok = check_clone_bound(c, caller, why, size);
	bind_context_apply(c->callee, &c->ctx, false);
	return ok;
}

static bool check_clone_bound(const Clone *c, const Func *caller, char *why, size_t size)
{
	const Func *f = c->callee;
	const char *name, *late;
	uint32_t at, lp, rp, next = 0;
	char sub[160];

	if (!f || !f->body)
		return fail(why, size, "clone without a callee");
	name = func_name(f);
	if (f->is_variadic)
		return fail(why, size, "callee %s is variadic", name);
	if (f->src != caller->src && f->storage == SC_STATIC)
		return fail(why, size, "static callee %s lives in another file", name);
	for (uint32_t i = 0; i < f->locals.len; i++)
		if (f->locals.items[i]->storage == SC_STATIC)
			return fail(why, size, "callee %s has static locals", name);
	if (!scan_declarator(f, &at, &lp, &rp))
		return fail(why, size, "cannot find the declarator of %s", name);
	if (scan_skip_blanks(f->src->text, rp + 1, f->body->start) != f->body->start &&
	    memchr(f->src->text + rp, ';', f->body->start - rp))
		return fail(why, size, "%s has an old-style parameter list", name);
	/* the clone and its prototype copy the header's text: all of it, and above the caller */
	if (scan_has_directive(f->src->text, f->start, f->body->start))
		return fail(why, size, "the header of %s holds a preprocessor line", name);
	if (f->src == caller->src && f->start > caller->start &&
	    (late = scan_late_name(f, caller->start)))
		return fail(why, size, "the header of %s names %s, which %s does not see", name, late,
		            func_name(caller));
	if (!c->parts.len)
		return fail(why, size, "clone of %s without parts", name);
	for (uint32_t i = 0; i < f->body->body.len; i++) {
		const Stmt *s = f->body->body.items[i];
		const SplitLoop *sl = next < c->parts.len ? &c->parts.items[next] : NULL;
		Header h = { 0 };
		bool ok;

		if (!sl || sl->top != s) {
			if (!harmless_in_every_chunk(s) && !scratch_stmt(f, s))
				return fail(why, size, "%s: line %u would run in every chunk", name,
				            scan_line(f->src, s->start));
			continue;
		}
		next++;
		if (part_leaves(f, s))
			return fail(why, size, "%s: part at line %u returns or jumps", name,
			            scan_line(f->src, s->start));
		if (!sl->split)
			continue;
		ok = split_ok(sl, f, c, &h, sub, sizeof(sub));
		header_free(&h);
		if (!ok)
			return fail(why, size, "%s: loop at line %u: %s", name,
			            scan_line(f->src, sl->top->start), sub);
	}
	if (next != c->parts.len)
		return fail(why, size, "%s: parts are not its top-level statements in order", name);
	if (!check_part_locals(c, sub, sizeof(sub)))
		return fail(why, size, "%s: %s", name, sub);
	return true;
}

static bool in_clones(const ParPlan *p, const Clone *c)
{
	for (uint32_t i = 0; i < p->clones.len; i++)
		if (p->clones.items[i] == c)
			return true;
	return false;
}

static int cmp_task_lo(const void *a, const void *b)
{
	const ParTask *x = *(const ParTask *const *)a, *y = *(const ParTask *const *)b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The chunks of part k of mt tile the loop: one task when not split. */
static bool check_part_cover(const ParPlan *p, const MT *mt, const SplitLoop *sl, int k,
                             char *why, size_t size)
{
	Array(const ParTask *) ch = { 0 };
	int64_t at = sl->lo;
	bool ok = true;

	for (uint32_t i = 0; i < p->tasks.len; i++)
		if (p->tasks.items[i].mt == mt && p->tasks.items[i].part == k)
			array_push(&ch, &p->tasks.items[i]);
	if (!sl->split) {
		ok = ch.len == 1 || fail(why, size, "MT%d: part %d runs %u times", mt->id, k, ch.len);
		array_free(&ch);
		return ok;
	}
	if (ch.len > 1) /* qsort wants an array, even for none */
		qsort(ch.items, ch.len, sizeof(*ch.items), cmp_task_lo);
	for (uint32_t i = 0; ok && i < ch.len; i++) {
		const ParTask *t = ch.items[i];

		if (t->lo != at || t->hi <= t->lo || (t->lo - sl->lo) % sl->step != 0)
			ok = fail(why, size, "MT%d: chunks of part %d do not tile [%lld, %lld)", mt->id,
			          k, (long long)sl->lo, (long long)sl->hi);
		at = t->hi;
	}
	if (ok && at != sl->hi)
		ok = fail(why, size, "MT%d: chunks of part %d end at %lld, not %lld", mt->id, k,
		          (long long)at, (long long)sl->hi);
	array_free(&ch);
	return ok;
}

/* Strips a (void) cast. */
static const Expr *uncast(const Expr *e)
{
	if (e && e->kind == EX_CAST && e->cast_type && e->cast_type->kind == TY_VOID)
		return e->lhs;
	return e;
}

/*
 * TVM's guard `if (f(...) != 0) return -1;` (or `if (f(...)) { return -1; }`):
 * once the planner knows f returns 0, only the call is left to run.
 */
static bool fold_guard_ok(const MT *mt)
{
	const Stmt *s, *then;
	const Expr *c;

	if (mt->stmts.len != 1 || !mt->call)
		return false;
	s = mt->stmts.items[0];
	if (s->kind != ST_IF || s->els || !(c = s->expr) || !(then = s->then))
		return false;
	if (then->kind == ST_BLOCK && then->body.len == 1)
		then = then->body.items[0];
	if (then->kind != ST_RETURN || ir_has_effect(then->expr))
		return false;
	if (c->kind == EX_BINARY && (c->op == OP_NE || c->op == OP_EQ) &&
	    (c->lhs == mt->call || c->rhs == mt->call))
		c = c->lhs == mt->call ? c->rhs : c->lhs;
	else if (c == mt->call)
		return true;
	return c->kind == EX_NUM;
}

/* The single statement of a chunked call MT: `f(...);`, `(void)f(...);` or a folded guard. */
static bool plain_call_stmt(const MT *mt, bool fold_guard)
{
	const Stmt *s;
	const Expr *e;

	if (mt->stmts.len != 1)
		return false;
	s = mt->stmts.items[0];
	if (fold_guard)
		return fold_guard_ok(mt);
	if (s->kind != ST_EXPR || !(e = s->expr))
		return false;
	return uncast(e) == mt->call;
}

/* One level MT: one whole task, or chunks that cover every part of its clone. */
static bool check_mt_cover(const ParPlan *p, const MT *mt, char *why, size_t size)
{
	const ParTask *first = NULL;
	uint32_t n = 0;

	for (uint32_t i = 0; i < p->tasks.len; i++) {
		const ParTask *t = &p->tasks.items[i];

		if (t->mt != mt)
			continue;
		n++;
		if (!first)
			first = t;
		if (t->kind != first->kind || t->clone != first->clone ||
		    t->fold_guard != first->fold_guard)
			return fail(why, size, "MT%d: tasks of different kinds", mt->id);
	}
	if (!first)
		return fail(why, size, "MT%d is not covered by a task", mt->id);
	if (first->kind == TASK_WHOLE)
		return n == 1 || fail(why, size, "MT%d runs %u times", mt->id, n);
	if (first->kind == TASK_SLICE)
		return check_part_cover(p, mt, first->slice, 0, why, size);
	if (!first->clone || !in_clones(p, first->clone) || mt->kind != MT_SB || !mt->call ||
	    mt->callee != first->clone->callee)
		return fail(why, size, "MT%d: chunks without a clone of its callee", mt->id);
	if (!plain_call_stmt(mt, first->fold_guard))
		return fail(why, size, "MT%d: the call's value is used", mt->id);
	for (uint32_t i = 0; i < mt->call->args.len; i++)
		if (ir_has_effect(mt->call->args.items[i]))
			return fail(why, size, "MT%d: argument %u has side effects", mt->id, i + 1);
	for (uint32_t k = 0; k < first->clone->parts.len; k++)
		if (!check_part_cover(p, mt, &first->clone->parts.items[k], (int)k, why, size))
			return false;
	return true;
}

/* A register variable: OpenMP shares variables by address. */
static bool uses_register(const Expr *e, void *ctx)
{
	(void)ctx;
	return e->kind == EX_VAR && e->var->storage == SC_REGISTER;
}

static bool labels_or_statics(const Stmt *s, void *ctx)
{
	(void)ctx;
	return s->kind == ST_LABEL || s->kind == ST_CASE ||
	       (s->kind == ST_DECL && s->var && s->var->storage == SC_STATIC);
}

/* The span's MTs can move into a switch case (their text appears twice). */
static bool check_span_mt(const MT *mt, bool fold_guard, char *why, size_t size)
{
	const uint32_t jumps = 1u << UM_GOTO | 1u << UM_COMPUTED_GOTO | 1u << UM_SETJMP;

	for (uint32_t i = 0; i < mt->stmts.len; i++) {
		const Stmt *s = mt->stmts.items[i];

		if (s->kind == ST_DECL)
			return fail(why, size, "MT%d declares %s, which later code may use", mt->id,
			            s->var ? intern_name(s->var->name) : "a variable");
		if (ir_stmt_any(s, labels_or_statics, NULL, NULL))
			return fail(why, size, "MT%d holds a label or a static variable", mt->id);
		if (ir_stmt_any(s, NULL, uses_register, NULL))
			return fail(why, size, "MT%d uses a register variable", mt->id);
	}
	if (mt->unmodelled & jumps)
		return fail(why, size, "MT%d jumps (goto, setjmp)", mt->id);
	if (mt->exits && !(fold_guard && mt->kind == MT_SB))
		return fail(why, size, "MT%d leaves the function or loop", mt->id);
	if (fold_guard && !fold_guard_ok(mt))
		return fail(why, size, "MT%d is not a guard `if (call != 0) return ...;`", mt->id);
	return true;
}

static bool check_span(const ParPlan *p, char *why, size_t size)
{
	const Func *f = p->func;
	const MT *root = p->root;
	uint32_t start, end;

	if (p->first > p->last || p->last >= root->children.len)
		return fail(why, size, "span MT%u..MT%u outside the function", p->first + 1, p->last + 1);
	if (f->is_inline && f->storage != SC_STATIC)
		return fail(why, size, "extern inline function cannot hold static flags");
	start = root->children.items[p->first]->start;
	end = root->children.items[p->last]->end;
	if (plan_crosses_block(f, start, end))
		return fail(why, size, "the span crosses a block's brace");
	if (source_has_conditional(f->src, start, end))
		return fail(why, size, "preprocessor conditional inside the span");
	for (uint32_t i = p->first; i <= p->last; i++) {
		const MT *mt = root->children.items[i];
		bool fold = false;

		for (uint32_t k = 0; k < p->tasks.len; k++)
			if (p->tasks.items[k].mt == mt)
				fold = p->tasks.items[k].fold_guard;
		if (!check_span_mt(mt, fold, why, size) || !check_mt_cover(p, mt, why, size))
			return false;
	}
	return true;
}

bool check_plan(const ParPlan *p, char *why, size_t size)
{
	const MT *root;

	if (!p->func || !p->func->mt || !p->func->body)
		return fail(why, size, "plan without a function");
	root = p->root;
	if (!root || (root != p->func->mt && (root->kind != MT_RB || root->parent != p->func->mt)))
		return fail(why, size, "the span is neither the function's level nor a top-level loop's");
	for (uint32_t i = 0; i < p->tasks.len; i++) {
		const ParTask *t = &p->tasks.items[i];
		bool in_span = false;

		for (uint32_t k = p->first; k <= p->last && k < root->children.len; k++)
			in_span |= root->children.items[k] == t->mt;
		if (!in_span)
			return fail(why, size, "task %u is not an MT of the span", i);
		if (t->kind == TASK_CHUNK &&
		    (!t->clone || t->part < 0 || (uint32_t)t->part >= t->clone->parts.len))
			return fail(why, size, "task %u: no such part", i);
		if (p->dynamic && t->ctl >= 0 && ((uint32_t)t->ctl >= i || !p->tasks.items[t->ctl].test ||
		                    p->tasks.items[t->ctl].mt != t->mt->branch_mt))
			return fail(why, size, "task %u: its branch test is not an earlier task", i);
		if (t->test && (!p->dynamic || t->kind != TASK_WHOLE ||
		                t->mt->stmts.items[0]->end > root->children.items[p->last]->end))
			return fail(why, size, "task %u: a branch test whose if statement the span cuts", i);
		if (t->kind == TASK_SLICE &&
		    (!t->slice || t->part != 0 || t->mt->kind != MT_RB || !t->slice->split ||
		     t->slice->top != t->mt->loop || !t->slice->loop ||
		     t->slice->loop->start < t->mt->loop->start || t->slice->loop->end > t->mt->loop->end))
			return fail(why, size, "task %u: a slice of no loop of the level", i);
	}
	for (uint32_t i = 0; i < p->clones.len; i++)
		if (!check_clone(p->clones.items[i], p->func, why, size))
			return false;
	return check_span(p, why, size);
}
