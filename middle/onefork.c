/*
 * onefork.c - middle stage: may a region that runs a loop's body once per
 * iteration fork once around the whole loop instead?  This is OSCAR's
 * hierarchical parallelism for a loop that stays sequential (a stencil's
 * time loop, a recurrence over layers): the threads are forked once, every
 * thread runs the loop's header itself with its own copy of the counter,
 * each iteration runs the body's tasks on their cores, and a barrier ends
 * each iteration (backend/codegen.c).
 *
 * That is right only when every thread computes the same trips and leaves
 * the loop the same way as the original loop: the header writes only the
 * counter, reads only the counter and values that nothing in the body (nor
 * another thread) changes, and no jump leaves the body or enters it.
 */
#include "middle.h"

typedef struct Header {
	const Stmt *body;
	const Var *iv;
} Header;

/* Does e write anything but the counter, or call a function? */
static bool writes_other(const Expr *e, void *ctx)
{
	const Header *h = ctx;

	if (e->kind == EX_CALL)
		return true;
	return (e->kind == EX_ASSIGN || ir_is_incdec(e)) && !ir_is_var(ir_strip_casts(e->lhs), h->iv);
}

/* Does e read a value that may change while the loop runs (or differ between threads)? */
static bool unstable(const Expr *e, void *ctx)
{
	const Header *h = ctx;
	const Var *v = e->var;

	if (e->kind == EX_INDEX || e->kind == EX_MEMBER || e->kind == EX_CALL ||
	    (e->kind == EX_UNARY && e->op == OP_DEREF))
		return true; /* memory: the body, or another thread, may write it */
	if (e->kind != EX_VAR || v == h->iv)
		return false;
	if (v->scope == VAR_GLOBAL || v->storage == SC_STATIC || v->addr_taken)
		return !type_is_const(v->type);
	return ir_stmt_assigns(h->body, v);
}

static bool header_expr_ok(const Expr *e, Header *h)
{
	return !ir_expr_any(e, writes_other, h) && !ir_expr_any(e, unstable, h);
}

/* The for-initializer: `v = e`, `int v = e`, or nothing. */
static const char *init_why(const Loop *l, Header *h)
{
	for (uint32_t i = 0; i < l->init.len; i++) {
		const Stmt *s = l->init.items[i];

		if (s->kind == ST_DECL && s->var != h->iv)
			return "its header declares more than the counter";
		if (!header_expr_ok(s->expr, h))
			return "its initializer writes or reads what the loop may change";
	}
	return NULL;
}

/* Does the span cover every statement of the body (only braces and blanks outside it)? */
static bool span_is_body(const ParPlan *p, const Stmt *body)
{
	const MT *first = p->root->children.items[p->first];
	const MT *last = p->root->children.items[p->last];
	const Stmt *a = body, *b = body;

	if (p->first != 0 || p->last + 1 != p->root->children.len)
		return false;
	if (body->kind == ST_BLOCK) {
		if (!body->body.len)
			return false;
		a = body->body.items[0];
		b = body->body.items[body->body.len - 1];
	}
	return first->start <= a->start && last->end >= b->end;
}

static bool counter_ok(const Var *iv)
{
	int size;
	bool uns;

	return iv && iv->scope != VAR_GLOBAL && iv->storage != SC_STATIC && !iv->addr_taken &&
	       !type_is_volatile(iv->type) && type_int(iv->type, &size, &uns);
}

const char *plan_one_fork_why(const PlanCtx *c, const ParPlan *p)
{
	const Stmt *s = p->root->loop;
	const Loop *l = s ? s->loop : NULL;
	Header h;
	const char *why;

	if (c->plain_regions)
		return "this output form forks per iteration";
	if (!l || s->kind != ST_FOR || l->ivs.len != 1 || !counter_ok(l->ivs.items[0].var))
		return "its header is not a plain counted loop";
	if (!span_is_body(p, l->body))
		return "the region is part of the body";
	if (p->apart.len)
		return "run-time checks come before each fork";
	if (p->dynamic)
		return "its tasks are scheduled dynamically";
	for (uint32_t i = 0; i < p->slots.len; i++)
		if (p->slots.items[i].used)
			return "workspaces are taken before each fork";
	if (plan_leaves(NULL, l->body, 0, 0, false))
		return "control may leave the body";
	h.body = l->body;
	h.iv = l->ivs.items[0].var;
	if (ir_stmt_assigns(l->body, h.iv))
		return "the body assigns the counter";
	if ((why = init_why(l, &h)))
		return why;
	if (!header_expr_ok(l->cond, &h) || !header_expr_ok(l->step, &h))
		return "its condition or step reads what the loop may change";
	return NULL;
}
