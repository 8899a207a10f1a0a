/*
 * workspace.c - access analysis: workspaces a function takes from an
 * allocator and gives back itself, which a chunk clone gets from its caller
 * or its stack instead, and the objects that stand for the caller's buffers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "middle.h"


/* ------------------------------------------------------------------ */
/* Workspaces a function takes and gives back itself                   */
/* ------------------------------------------------------------------ */

/* The largest workspace of a nested block that a clone keeps on its stack. */
#define SCRATCH_STACK_MAX 65536

/* Every argument of call but number skip is an integer constant. */
static bool const_args(const Expr *call, uint32_t skip)
{
	for (uint32_t i = 0; i < call->args.len; i++)
		if (i != skip && !iv_is_const(val_int(call->args.items[i], NULL)))
			return false;
	return true;
}

/* `T *v = ALLOC(constants);` with v defined there only and its memory ours alone. */
static bool scratch_decl(Stmt *s, Scratch *sc)
{
	Expr *call = s->kind == ST_DECL && s->var ? ir_strip_casts(s->expr) : NULL;
	Var *v = s->var;
	VarInfo *vi, *ti;
	int arg;

	if (!call || call->kind != EX_CALL || call->callee_func || call->in_macro ||
	    names_call_ext(call, &arg) != EXT_ALLOC || !const_args(call, UINT32_MAX))
		return false;
	vi = acc_lookup(v);
	ti = vi ? acc_lookup(vi->target) : NULL;
	if (!type_is_ptr(v->type) || v->storage != SC_NONE || v->addr_taken || !val_single_def(vi) ||
	    vi->addr || !ti || ti->kind != OBJ_ALLOC || ti->escapes)
		return false;
	memset(sc, 0, sizeof(*sc));
	sc->var = v;
	sc->decl = s;
	sc->alloc = call;
	sc->size = val_alloc_size(call, arg);
	sc->zeroed = arg == EXT_ARG_COUNT_SIZE;
	return sc->size > 0;
}

/*
 * The free of v among calls: the only one, with v itself and constants as
 * arguments, and spelled plainly: a clone replaces its text, and the fork
 * condition copies it, which a macro's use (`RELEASE(t);`) does not allow.
 */
static bool scratch_free(const ExprList *calls, Scratch *sc)
{
	for (uint32_t i = 0; i < calls->len; i++) {
		Expr *e = calls->items[i];
		Expr *p;
		int arg;

		if (e->callee_func || names_call_ext(e, &arg) != EXT_FREE || arg < 0 ||
		    (uint32_t)arg >= e->args.len)
			continue;
		if (e->in_macro)
			return false;
		p = ir_strip_casts(e->args.items[arg]);
		if (!p || p->kind != EX_VAR || p->var != sc->var)
			continue;
		if (sc->free || !const_args(e, (uint32_t)arg))
			return false;
		sc->free = e;
		sc->free_ptr = e->args.items[arg];
	}
	return sc->free != NULL;
}

/*
 * `FREE(v);` or `if (FREE(v) != 0) exit;` (or `if (FREE(v)) exit;`): with the
 * call replaced by 0 it does nothing.
 */
static bool is_free_stmt(const Stmt *t, const Expr *call)
{
	Expr *c = t->expr;
	int64_t k;

	if (t->kind == ST_EXPR)
		return ir_strip_casts(c) == call;
	if (t->kind != ST_IF || !c)
		return false;
	if (c->kind == EX_BINARY && c->op == OP_NE && ir_const_eval(c->rhs, &k) && k == 0)
		c = c->lhs;
	return ir_strip_casts(c) == call;
}

/* The free runs once per run of the block, in a statement of its own after the decl. */
static bool freed_in_block(const Stmt *block, uint32_t after, Scratch *sc)
{
	for (uint32_t j = after + 1; j < block->body.len; j++) {
		const Stmt *t = block->body.items[j];

		if (is_free_stmt(t, sc->free)) {
			sc->bare_free = t->kind == ST_EXPR && t->expr == sc->free;
			return true;
		}
	}
	return false;
}

/* `if (v == NULL) return K;` (or `!v`, `v == 0`): never taken once v is a buffer. */
static bool is_null_check(const Stmt *s, const Var *v)
{
	Expr *c = s->kind == ST_IF && !s->els ? s->expr : NULL;
	const Stmt *t = s->then;
	Expr *x = NULL;
	int64_t k;

	if (!c)
		return false;
	if (c->kind == EX_UNARY && c->op == OP_NOT)
		x = ir_strip_casts(c->lhs);
	else if (c->kind == EX_BINARY && c->op == OP_EQ && iv_is_const(val_int(c->rhs, NULL)) &&
	         val_int(c->rhs, NULL).lo == 0)
		x = ir_strip_casts(c->lhs);
	if (t && t->kind == ST_BLOCK && t->body.len == 1)
		t = t->body.items[0];
	return x && x->kind == EX_VAR && x->var == v && t && t->kind == ST_RETURN &&
	       (!t->expr || ir_const_eval(t->expr, &k));
}

typedef struct ScratchScan {
	Func *f;
	ExprList calls;       /* every call of f */
	ScratchList *out;
} ScratchScan;

static void note_call(Expr *e, void *ctx)
{
	ScratchScan *sc = ctx;

	if (e->kind == EX_CALL)
		array_push(&sc->calls, e);
}

static void scan_block(ScratchScan *ss, Stmt *s);

static void scan_block_items(ScratchScan *ss, Stmt *b)
{
	for (uint32_t i = 0; i < b->body.len; i++) {
		Scratch sc;

		if (scratch_decl(b->body.items[i], &sc) && scratch_free(&ss->calls, &sc) &&
		    freed_in_block(b, i, &sc)) {
			sc.top = b == ss->f->body;
			if (sc.top || sc.size <= SCRATCH_STACK_MAX)
				array_push(ss->out, sc);
		}
		scan_block(ss, b->body.items[i]);
	}
}

static void scan_block(ScratchScan *ss, Stmt *s)
{
	if (!s)
		return;
	if (s->kind == ST_BLOCK) {
		scan_block_items(ss, s);
		return;
	}
	scan_block(ss, s->then);
	scan_block(ss, s->els);
	if (s->loop)
		scan_block(ss, s->loop->body);
}

static bool is_scratch_call(const ScratchList *l, const Expr *e)
{
	for (uint32_t i = 0; i < l->len; i++)
		if (l->items[i].alloc == e || l->items[i].free == e)
			return true;
	return false;
}

/* Every allocation, free and output of f's calls belongs to a workspace. */
static bool only_scratch_state(const ExprList *calls, const ScratchList *l)
{
	for (uint32_t i = 0; i < calls->len; i++) {
		const Expr *e = calls->items[i];
		const Summary *cs;
		int arg;

		if (e->callee_func) {
			cs = acc_func_summary(e->callee_func);
			for (uint32_t k = 0; cs && k < cs->acc.len; k++)
				if (obj_kind(cs->acc.items[k].region.base) == OBJ_STATE)
					return false;
			continue;
		}
		switch (names_call_ext(e, &arg)) {
		case EXT_ALLOC:
		case EXT_FREE:
			if (!is_scratch_call(l, e))
				return false;
			break;
		case EXT_IO:
			return false;
		default:
			break;
		}
	}
	return true;
}

const ScratchList *scratch_list(const Func *f, bool *only)
{
	FuncInfo *fi = acc_func(f);
	ScratchScan ss = { 0 };

	if (!fi) {
		*only = false;
		return NULL;
	}
	if (!fi->scratch_done && f->body) {
		ss.f = fi->func;
		ss.out = &fi->scratch;
		ir_visit_stmt(f->body, note_call, NULL, &ss);
		scan_block(&ss, f->body);
		fi->scratch_only = only_scratch_state(&ss.calls, &fi->scratch);
		array_free(&ss.calls);
	}
	fi->scratch_done = true;
	*only = fi->scratch_only;
	return &fi->scratch;
}

bool scratch_stmt(const Func *f, const Stmt *s)
{
	bool only;
	const ScratchList *l = scratch_list(f, &only);

	for (uint32_t i = 0; l && i < l->len; i++) {
		const Scratch *sc = &l->items[i];

		if (sc->decl == s || is_free_stmt(s, sc->free) || is_null_check(s, sc->var))
			return true;
	}
	return false;
}

const Scratch *scratch_var(const Func *f, const Var *v)
{
	bool only;
	const ScratchList *l = f && v ? scratch_list(f, &only) : NULL;

	for (uint32_t i = 0; l && i < l->len; i++)
		if (l->items[i].var == v)
			return &l->items[i];
	return NULL;
}

bool scratch_call(const Expr *e)
{
	bool only;
	const ScratchList *l = acc.cur ? scratch_list(acc.cur, &only) : NULL;

	return l && is_scratch_call(l, e);
}

static ScratchObj *scratch_entry(const MT *sb, const Var *local)
{
	ScratchObj so = { sb, local, NULL };

	for (uint32_t i = 0; i < acc.scratch_objs.len; i++)
		if (acc.scratch_objs.items[i].sb == sb && acc.scratch_objs.items[i].local == local)
			return &acc.scratch_objs.items[i];
	array_push(&acc.scratch_objs, so);
	return &array_last(&acc.scratch_objs);
}

Var *scratch_buffer(const char *name)
{
	return obj_new(name, OBJ_ALLOC, VAR_LOCAL, NULL, NULL, -1);
}

void scratch_bind(const MT *sb, const Var *local, Var *buffer)
{
	scratch_entry(sb, local)->obj = buffer;
}

Var *scratch_object(const MT *sb, const Var *local)
{
	ScratchObj *so = scratch_entry(sb, local);
	char *name;

	if (!so->obj) {
		name = xmalloc(strlen(intern_name(local->name)) + 32);
		sprintf(name, "*%s@MT%d", intern_name(local->name), sb->id);
		so->obj = scratch_buffer(name);
		free(name);
	}
	return so->obj;
}
