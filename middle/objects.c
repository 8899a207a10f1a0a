/*
 * objects.c - access analysis: the objects a Region's base stands for
 * (program Vars and synthetic ones), escape analysis (where the addresses a
 * function handles go, what each pointer parameter may receive) and may-alias.
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"

/* ---- synthetic objects ---- */

static Type *bytes_type(int64_t n)
{
	Type *u8 = ARENA_NEW(Type), *t = ARENA_NEW(Type);

	u8->kind = TY_INT;
	u8->size = 1;
	u8->align = 1;
	u8->is_unsigned = true;
	t->kind = TY_ARRAY;
	t->base = u8;
	t->array_len = n;
	t->size = n;
	t->align = 1;
	return t;
}

Var *obj_new(const char *name, ObjKind kind, VarScope scope, Func *f,
                       Var *origin, int64_t size)
{
	Var *v = ARENA_NEW(Var);
	VarInfo *vi;

	v->id = (int)acc.prog->vars.len;
	v->name = intern(name, strlen(name));
	v->type = bytes_type(size);
	v->scope = scope;
	v->storage = scope == VAR_GLOBAL ? SC_STATIC : SC_NONE;
	v->func = f;
	array_push(&acc.prog->vars, v);
	vi = acc_info(v);
	vi->kind = kind;
	vi->origin = origin;
	vi->size = size;
	return v;
}

Var *obj_star(Var *p, ObjKind kind, int64_t size)
{
	VarInfo *vi = acc_info(p);
	const char *pn = intern_name(p->name);
	char *name;

	if (vi->target)
		return vi->target;
	name = xmalloc(strlen(pn) + 2);
	name[0] = '*';
	strcpy(name + 1, pn);
	vi->target = obj_new(name, kind, kind == OBJ_POINTEE ? VAR_PARAM : VAR_LOCAL,
	                        p->func, p, size);
	free(name);
	return vi->target;
}

/* ------------------------------------------------------------------ */
/* Escape analysis                                                      */
/* ------------------------------------------------------------------ */

/* Where an address goes: anywhere (a leak), or into a call's argument. */
typedef enum AddrFlow { ADDR_LEAKS, ADDR_TO_ARG } AddrFlow;

/* Adds o to what parameter p may point into. */
static void receive(Var *p, Var *o)
{
	VarInfo *pi = acc_info(p);

	for (uint32_t i = 0; i < pi->receives.len; i++)
		if (pi->receives.items[i] == o)
			return;
	array_push(&pi->receives, o);
}

static bool param_leaks(const Func *callee, uint32_t i)
{
	FuncInfo *fi = acc_func(callee);

	if (!fi || fi->state != FS_DONE || i >= callee->params.len)
		return true;
	return acc_info(callee->params.items[i])->leaks;
}

/*
 * The address of base flows somewhere.  Into a parameter (ADDR_TO_ARG): the
 * parameter may now point into base; base escapes only if the callee lets
 * the parameter's value escape.  Anywhere else (ADDR_LEAKS): base escapes,
 * or, for a pointee, its parameter leaks (and so will whatever a caller
 * passes it: callers are analysed after their callees).
 */
static void mark(Var *base, AddrFlow fl, const Func *callee, uint32_t argi)
{
	VarInfo *vi = acc_info(base);
	Var *param = callee && argi < callee->params.len ? callee->params.items[argi] : NULL;

	if (vi->kind == OBJ_LOADED) {
		/* it may be anything escaping already: to the callee, an unknown pointer */
		if (fl == ADDR_TO_ARG && param)
			acc_info(param)->recv_unknown = true;
		return;
	}
	if (fl == ADDR_TO_ARG && param) {
		if (vi->kind == OBJ_POINTEE) {
			ParamEdge e = { vi->origin, param };
			array_push(&acc.edges, e);
		} else if (vi->kind != OBJ_STATE) {
			receive(param, base);
		}
	}
	if (fl == ADDR_TO_ARG && !param_leaks(callee, argi))
		return;
	if (vi->kind == OBJ_POINTEE)
		acc_info(vi->origin)->leaks = true;
	else
		vi->escapes = true;
}

static void flow_value(const Expr *e, AddrFlow fl, const Func *callee, uint32_t argi);

/* A pointer we cannot follow: everything that flows into it escapes. */
static void flow_parts(const Expr *e)
{
	if (!e)
		return;
	switch (e->kind) {
	case EX_CAST:
	case EX_UNARY:
		if (e->kind == EX_UNARY && e->op == OP_ADDR)
			break;
		flow_parts(e->lhs);
		return;
	case EX_COND:
		flow_value(e->lhs, ADDR_LEAKS, NULL, 0);
		flow_value(e->rhs, ADDR_LEAKS, NULL, 0);
		return;
	case EX_COMMA:
	case EX_ASSIGN:
		flow_value(e->rhs, ADDR_LEAKS, NULL, 0);
		return;
	case EX_BINARY:
		flow_value(e->lhs, ADDR_LEAKS, NULL, 0);
		flow_value(e->rhs, ADDR_LEAKS, NULL, 0);
		return;
	default:
		break;
	}
}

/* The pointer value of e goes somewhere: marks the object it leads to. */
static void flow_value(const Expr *e, AddrFlow fl, const Func *callee, uint32_t argi)
{
	Ptr p;

	if (!e)
		return;
	p = val_ptr(e, NULL);
	if (p.kind == P_OBJ)
		mark(p.base, fl, callee, argi);
	else if (p.kind == P_UNKNOWN) {
		if (fl == ADDR_TO_ARG && callee && argi < callee->params.len)
			acc_info(callee->params.items[argi])->recv_unknown = true;
		flow_parts(e);
	}
}

/* Does v hold its pointer in a way the analysis follows? */
static bool holds_followed(Var *v)
{
	PtrKind k;

	if (!val_followable(v))
		return false;
	k = val_var_ptr(v).kind;
	return k == P_OBJ || k == P_RODATA || k == P_NULL || k == P_NONE;
}

static void escape_call(Expr *e)
{
	int arg;

	if (e->callee_func) {
		for (uint32_t i = 0; i < e->args.len; i++)
			flow_value(e->args.items[i], ADDR_TO_ARG, e->callee_func, i);
		return;
	}
	switch (e->lhs && e->lhs->kind == EX_VAR ? EXT_UNKNOWN : names_call_ext(e, &arg)) {
	case EXT_MEMCPY:
	case EXT_MEMSET:
	case EXT_ALLOC:
	case EXT_FREE:
	case EXT_IO:
		return; /* they keep no pointer */
	default:
		/* unknown, or pure: a macro like MAX may hand a pointer back */
		for (uint32_t i = 0; i < e->args.len; i++)
			flow_value(e->args.items[i], ADDR_LEAKS, NULL, 0);
	}
}

/* A pointer parameter whose value the analysis loses leaks what it gets. */
static void escape_params(Func *f)
{
	for (uint32_t i = 0; i < f->params.len; i++) {
		Var *p = f->params.items[i];
		VarInfo *pi = acc_info(p);

		if (pi->target && val_var_ptr(p).kind != P_OBJ)
			pi->leaks = true;
	}
}

static void escape_expr(Expr *e, void *ctx)
{
	Type *t;

	switch (e->kind) {
	case EX_ASSIGN:
		if (e->op == OP_ASSIGN && !(e->lhs && e->lhs->kind == EX_VAR &&
		                            holds_followed(e->lhs->var)))
			flow_value(e->rhs, ADDR_LEAKS, NULL, 0);
		break;
	case EX_CALL:
		escape_call(e);
		break;
	case EX_CAST:
		t = e->cast_type;
		if (!t || (t->kind != TY_PTR && t->kind != TY_VOID))
			flow_value(e->lhs, ADDR_LEAKS, NULL, 0); /* a pointer made an integer */
		break;
	case EX_INIT:
		for (uint32_t i = 0; i < e->args.len; i++)
			flow_value(e->args.items[i], ADDR_LEAKS, NULL, 0);
		break;
	case EX_NAME:
		if (names_kind(e->name) == NM_FUNC) {
			/* a function used as a value: it may be called from anywhere */
			for (uint32_t i = 0; i < acc.prog->funcs.len; i++)
				if (acc.prog->funcs.items[i]->name == e->name)
					acc_func(acc.prog->funcs.items[i])->external = true;
		}
		break;
	case EX_OTHER:
		acc.all_escape = true;
		break;
	default:
		break;
	}
}

static void escape_stmt(Stmt *s, void *ctx)
{
	if (s->kind == ST_DECL && s->expr && s->var && !holds_followed(s->var))
		flow_value(s->expr, ADDR_LEAKS, NULL, 0);
	if (s->kind == ST_RETURN && s->expr)
		flow_value(s->expr, ADDR_LEAKS, NULL, 0);
	if (s->kind == ST_OTHER || s->kind == ST_ASM)
		acc.all_escape = true;
}

/* Every node of e; a call's callee name is not a use of the function as a value. */
static void escape_walk(Expr *e)
{
	if (!e)
		return;
	escape_expr(e, NULL);
	escape_walk(e->cond);
	if (!(e->kind == EX_CALL && e->lhs && e->lhs->kind == EX_NAME))
		escape_walk(e->lhs);
	escape_walk(e->rhs);
	for (uint32_t i = 0; i < e->args.len; i++)
		escape_walk(e->args.items[i]);
}

static void escape_stmts(Stmt *s)
{
	if (!s)
		return;
	escape_stmt(s, NULL);
	escape_walk(s->expr);
	escape_stmts(s->then);
	escape_stmts(s->els);
	for (uint32_t i = 0; i < s->body.len; i++)
		escape_stmts(s->body.items[i]);
	if (s->loop) {
		for (uint32_t i = 0; i < s->loop->init.len; i++)
			escape_stmts(s->loop->init.items[i]);
		escape_walk(s->loop->cond);
		escape_walk(s->loop->step);
		escape_stmts(s->loop->body);
	}
}

void obj_escape_func(Func *f)
{
	escape_params(f);
	escape_stmts(f->body);
}

void obj_escape_init(Expr *init)
{
	escape_walk(init);
	flow_value(init, ADDR_LEAKS, NULL, 0);
}

/*
 * What each parameter may point into, along the chains of calls: a
 * function callable from outside (not static, main, or used as a value)
 * may get any escaping object; a parameter passed on as another's
 * argument hands over everything it may get.  A fixpoint over the edges.
 */
void obj_finish_receives(void)
{
	bool changed = true;

	for (uint32_t i = 0; i < acc.prog->funcs.len; i++) {
		Func *f = acc.prog->funcs.items[i];

		if (!acc_func(f)->external)
			continue;
		for (uint32_t j = 0; j < f->params.len; j++)
			acc_info(f->params.items[j])->recv_unknown = true;
	}
	while (changed) {
		changed = false;
		for (uint32_t i = 0; i < acc.edges.len; i++) {
			VarInfo *from = acc_info(acc.edges.items[i].from), *to = acc_info(acc.edges.items[i].to);

			if (from->recv_unknown && !to->recv_unknown) {
				to->recv_unknown = true;
				changed = true;
			}
			for (uint32_t j = 0; j < from->receives.len; j++) {
				if (!obj_in_list(&to->receives, from->receives.items[j])) {
					array_push(&to->receives, from->receives.items[j]);
					changed = true;
				}
			}
		}
	}
}

bool obj_in_list(const ObjList *l, const Var *v)
{
	for (uint32_t i = 0; i < l->len; i++)
		if (l->items[i] == v)
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* Objects                                                             */
/* ------------------------------------------------------------------ */

ObjKind obj_kind(const Var *v)
{
	VarInfo *vi = acc_lookup(v);

	return vi ? vi->kind : OBJ_VAR;
}

Var *obj_origin(const Var *v)
{
	VarInfo *vi = acc_lookup(v);

	return vi ? vi->origin : NULL;
}

int64_t obj_size(const Var *v)
{
	VarInfo *vi = acc_lookup(v);

	if (!v)
		return -1;
	if (vi && vi->kind != OBJ_VAR)
		return vi->kind == OBJ_ALLOC ? vi->size : -1;
	if (v->scope == VAR_PARAM && type_is_array(v->type))
		return 8; /* the parameter itself is a pointer */
	return type_size(v->type);
}

bool obj_readonly(const Var *v)
{
	return v && obj_kind(v) == OBJ_VAR && v->scope != VAR_PARAM && type_is_const(v->type);
}

/* May a pointer of unknown origin (Region base NULL) reach v? */
static bool obj_escapes(const Var *v)
{
	VarInfo *vi = acc_lookup(v);

	if (!v)
		return true;
	if (vi && vi->kind == OBJ_STATE)
		return false;
	if (acc.all_escape && vi)
		return true;
	if (vi && (vi->kind == OBJ_POINTEE || vi->kind == OBJ_LOADED))
		return true;
	if (v->scope == VAR_GLOBAL && v->storage != SC_STATIC)
		return true; /* outside code can name it */
	if (v->scope == VAR_LOCAL && v->storage == SC_EXTERN)
		return true;
	if (!vi)
		return v->addr_taken || v->scope == VAR_PARAM;
	return vi->escapes;
}

/* What a base may stand for: itself, or a set plus anything escaping. */
typedef struct Targets {
	const Var *self;
	const ObjList *set;
	bool unknown;
} Targets;

static Targets targets_of(const Var *v)
{
	VarInfo *vi = acc_lookup(v);
	Targets t = { NULL, NULL, false };

	if (!v || (vi && vi->kind == OBJ_LOADED)) {
		t.unknown = true;
	} else if (vi && vi->kind == OBJ_POINTEE) {
		VarInfo *pi = acc_lookup(vi->origin);

		t.set = pi ? &pi->receives : NULL;
		t.unknown = !pi || pi->recv_unknown;
	} else if (!vi && v->scope == VAR_PARAM && !type_is_array(v->type) &&
	           !type_is_ptr(v->type)) {
		t.self = v;
	} else if (!vi && v->scope == VAR_PARAM) {
		t.unknown = true; /* another stage's view: a parameter as its pointee */
	} else {
		t.self = v;
	}
	return t;
}

static bool targets_escape(const Targets *t)
{
	if (t->self && obj_escapes(t->self))
		return true;
	for (uint32_t i = 0; t->set && i < t->set->len; i++)
		if (obj_escapes(t->set->items[i]))
			return true;
	return false;
}

static bool targets_have(const Targets *t, const Var *o)
{
	return t->self == o || (t->set && obj_in_list(t->set, o));
}

/*
 * Two bases may share storage when what they may stand for meets: a
 * distinct object only itself; a pointee what its parameter may receive;
 * an unknown pointer (and a parameter callable from outside) any escaping
 * object.  Two "anything escaping" sets are taken to meet.
 */
static void note_assumed(const Var *a, const Var *b)
{
	for (uint32_t i = 0; i + 1 < acc.assumed.len; i += 2)
		if ((acc.assumed.items[i] == a && acc.assumed.items[i + 1] == b) ||
		    (acc.assumed.items[i] == b && acc.assumed.items[i + 1] == a))
			return;
	array_push(&acc.assumed, a);
	array_push(&acc.assumed, b);
}

void obj_assume_apart(const Func *f)
{
	acc.assume_apart = f;
	if (f)
		acc.assumed.len = 0;
}

/* A memory that only a run-time check of its pointer can tell apart from another. */
static bool checkable(const Var *v)
{
	VarInfo *vi = acc_lookup(v), *pi;

	if (!vi)
		return false;
	if (vi->kind == OBJ_LOADED)
		return true;
	if (vi->kind != OBJ_POINTEE || !vi->origin || vi->origin->func != acc.assume_apart ||
	    vi->origin->scope != VAR_PARAM)
		return false;
	pi = acc_lookup(vi->origin);
	return pi && pi->ndefs == 0 && pi->recv_unknown && !vi->origin->addr_taken;
}

const Var *const *obj_assumed(uint32_t *npairs)
{
	*npairs = acc.assumed.len / 2;
	return acc.assumed.items;
}

bool obj_may_alias(const Var *a, const Var *b)
{
	Targets ta, tb;

	if (a == b)
		return true;
	if (obj_kind(a) == OBJ_STATE || obj_kind(b) == OBJ_STATE)
		return false;
	if (acc.assume_apart && checkable(a) && checkable(b)) {
		note_assumed(a, b);
		return false;
	}
	ta = targets_of(a);
	tb = targets_of(b);
	if (ta.self && tb.self)
		return false; /* two distinct objects */
	if (ta.unknown && tb.unknown)
		return true;
	if ((ta.unknown && targets_escape(&tb)) || (tb.unknown && targets_escape(&ta)))
		return true;
	if (ta.self)
		return targets_have(&tb, ta.self);
	if (tb.self)
		return targets_have(&ta, tb.self);
	for (uint32_t i = 0; ta.set && i < ta.set->len; i++)
		if (targets_have(&tb, ta.set->items[i]))
			return true;
	return false;
}
