/*
 * decomp.c - middle stage: decomposition of one task of the parallel plan
 * into chunks.  An SB whose callee is a sequence of loops runs as
 * iteration chunks of a callee clone (OSCAR's loop-aligned decomposition:
 * a chunk waits only for the producer chunks it reads); a loop of the
 * level itself runs as slices of its first induction variable's range,
 * in place.  Sound first: a loop is split only when the summaries of its
 * chunks are pairwise independent.
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"

#define MIN_CHUNK_COST 20000.0 /* a smaller chunk does not pay for its synchronisation */
#define NEST_CHUNK_TRIPS_MIN 64 /* chunk_count */
#define NEST_DEPTH_MAX 8        /* nest_inner: loops around the one split, at most */

typedef Array(SplitLoop) PartList;
typedef Array(const Var *) VarList;

/* ------------------------------------------------------------------ */
/* Visiting the IR                                                     */
/* ------------------------------------------------------------------ */

/* The shared visitors (ir.c), on IR that this file only reads. */
static void each_expr(const Expr *e, IrExprFn *fn, void *ctx)
{
	ir_visit_expr((Expr *)e, fn, ctx);
}

/* Every expression of s: conditions, initializers, loop headers, bodies. */
static void each_stmt_expr(const Stmt *s, IrExprFn *fn, void *ctx)
{
	ir_visit_stmt((Stmt *)s, fn, NULL, ctx);
}


typedef struct VarCount {
	const Var *var;
	uint32_t n;
} VarCount;


/* How many nodes of s and e fn counts for v. */
static uint32_t count_in(const Stmt *s, const Expr *e, IrExprFn *fn, const Var *v)
{
	VarCount c = { v, 0 };

	each_stmt_expr(s, fn, &c);
	each_expr(e, fn, &c);
	return c.n;
}


static void count_def(Expr *e, void *ctx)
{
	VarCount *c = ctx;

	switch (e->kind) {
	case EX_ASSIGN:
		c->n += ir_storage_root(e->lhs) == c->var;
		break;
	case EX_UNARY:
		if (ir_is_incdec(e) || e->op == OP_ADDR)
			c->n += ir_storage_root(e->lhs) == c->var;
		break;
	default:
		break;
	}
}

/* Assignments, increments and address-takings of v inside s (initializers not counted). */
static uint32_t writes_in(const Stmt *s, const Var *v)
{
	return count_in(s, NULL, count_def, v);
}

static uint32_t writes_in_expr(const Expr *e, const Var *v)
{
	return count_in(NULL, e, count_def, v);
}

/* No assignment, increment, call or unmodelled expression in e. */
static bool effect_free(const Expr *e)
{
	return !ir_has_effect(e);
}

/* Does g take a workspace at its top level (which the caller must then provide)? */
static bool has_top_scratch(const Func *g)
{
	bool only;
	const ScratchList *l = scratch_list(g, &only);

	for (uint32_t i = 0; l && i < l->len; i++)
		if (l->items[i].top)
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* Decomposition of an SB into chunks of its callee's loops             */
/* ------------------------------------------------------------------ */

static bool is_scalar_type(const Type *t)
{
	if (!t)
		return false;
	switch (t->kind) {
	case TY_BOOL:
	case TY_INT:
	case TY_FLOAT:
	case TY_ENUM:
	case TY_PTR:
	case TY_NAMED: /* int32_t, size_t; a struct typedef would not be assigned from a scalar */
		return true;
	default:
		return false;
	}
}

/* A top-level `return;` or `return CONST;`. */
static bool is_return_bb(const MT *m)
{
	const Stmt *s = m->stmts.len == 1 ? m->stmts.items[0] : NULL;
	int64_t v;

	return s && s->kind == ST_RETURN && (!s->expr || plan_const(s->expr, &v));
}

/*
 * `v = e;` at the callee's top level, v a scalar local whose address is not
 * taken, e without effects: every chunk call runs it again, in its place
 * between the loops, and gets the value the whole call has there, as long
 * as e reads nothing the call writes (the prologue's summary, checked
 * against the call's) and no local a loop sets (locals_ok).
 */
static bool local_set_stmt(const Stmt *s)
{
	const Expr *e = s->kind == ST_EXPR ? s->expr : NULL;

	return e && e->kind == EX_ASSIGN && e->op == OP_ASSIGN && e->lhs->kind == EX_VAR &&
	       e->lhs->var->scope == VAR_LOCAL && e->lhs->var->storage == SC_NONE &&
	       !e->lhs->var->addr_taken && is_scalar_type(e->lhs->var->type) && effect_free(e->rhs);
}

/*
 * Is t a type name that the file defines as a macro spelled with no name
 * first (`#define INCR ++` makes `INCR cnt;` read as a declaration)?  Then
 * the statement is not the declaration it looks like.
 */
static bool named_by_macro(const Func *g, const Type *t)
{
	const PPConstList *lists[2] = { &g->src->own, &g->src->outside };

	if (!t || t->kind != TY_NAMED)
		return false;
	for (int k = 0; k < 2; k++)
		for (uint32_t i = 0; i < lists[k]->len; i++) {
			const char *x = lists[k]->items[i].text;

			while (x && (*x == ' ' || *x == '\t'))
				x++;
			if (lists[k]->items[i].name == t->tag && x && *x && !(*x == '_' || ((*x | 0x20) >= 'a' && (*x | 0x20) <= 'z')))
				return true; /* `++`, `(void)0,`: not a type's spelling (DATA_TYPE double is) */
		}
	return false;
}

bool decomp_in_prologue(const Func *g, const Stmt *s)
{
	return s->kind == ST_EMPTY || s->kind == ST_DECL || scratch_stmt(g, s) || local_set_stmt(s);
}

/*
 * An expression statement at the callee's top level that is none of the
 * prologue's (`C[m - 1][m - 1] = 1;`, `trace();`): it becomes a part of its
 * own, which one chunk runs.  It may write memory (its summary orders it
 * against the other parts) but no variable of the callee, whose other
 * chunk calls would not see the value.
 */
static bool whole_stmt_ok(const Func *g, const Stmt *s)
{
	if (s->kind != ST_EXPR || !s->expr)
		return false;
	for (uint32_t i = 0; i < g->locals.len; i++)
		if (writes_in(s, g->locals.items[i]))
			return false;
	for (uint32_t i = 0; i < g->params.len; i++)
		if (writes_in(s, g->params.items[i]))
			return false;
	return true;
}

/*
 * A BB at the callee's top level: declarations of scalars and pointers with
 * effect-free initializers and effect-free settings of such locals (run by
 * every chunk call), and statements that are parts of their own (parts).
 */
static bool top_bb_ok(const Func *g, const MT *m, PartList *parts, const char **why)
{
	for (uint32_t i = 0; i < m->stmts.len; i++) {
		Stmt *s = m->stmts.items[i];

		if (s->in_macro && s->kind != ST_EMPTY && s->kind != ST_DECL) {
			*why = "a macro spells a statement beside the callee's loops";
			return false;
		}
		if (!decomp_in_prologue(g, s)) {
			SplitLoop sl = { 0 };

			if (!whole_stmt_ok(g, s)) {
				*why = "the callee has top-level statements besides declarations, loops and "
				       "statements that set no variable of its own";
				return false;
			}
			sl.top = sl.loop = s;
			sl.whole_stmt = true;
			array_push(parts, sl);
			continue;
		}
		if (s->kind != ST_DECL || !s->var || scratch_stmt(g, s))
			continue;
		if (named_by_macro(g, s->var->type)) {
			*why = "a macro spells a statement beside the callee's loops";
			return false;
		}
		if (!is_scalar_type(s->var->type) || s->var->storage != SC_NONE) {
			*why = plan_fmt("the callee declares %s, not a plain scalar or pointer",
			           intern_name(s->var->name));
			return false;
		}
		if (s->expr && (!effect_free(s->expr) || s->expr->kind == EX_INIT)) {
			*why = plan_fmt("the initializer of %s has effects", intern_name(s->var->name));
			return false;
		}
	}
	return true;
}

/*
 * The callee's top level: declaration BBs, loops and statements (the
 * parts), and an optional final `return CONST;`.
 */
static bool shape_ok(const Func *g, PartList *parts, const char **why)
{
	const MT *root = g->mt;

	for (uint32_t i = 0; i < root->children.len; i++) {
		MT *m = root->children.items[i];
		SplitLoop sl;

		if (m->kind == MT_RB) {
			if (plan_leaves(g, m->loop->loop->body, 1, 0, true)) {
				*why = "the callee returns from inside a loop";
				return false;
			}
			memset(&sl, 0, sizeof(sl));
			sl.top = sl.loop = m->loop;
			array_push(parts, sl);
			continue;
		}
		if (m->kind == MT_SB) {
			if (m->stmts.len != 1 || !whole_stmt_ok(g, m->stmts.items[0])) {
				*why = plan_fmt("the callee calls %s at its top level", intern_name(m->callee->name));
				return false;
			}
			memset(&sl, 0, sizeof(sl));
			sl.top = sl.loop = m->stmts.items[0];
			sl.whole_stmt = true;
			array_push(parts, sl);
			continue;
		}
		if (is_return_bb(m)) {
			if (i + 1 != root->children.len) {
				*why = "the callee returns early";
				return false;
			}
			continue;
		}
		if (!top_bb_ok(g, m, parts, why))
			return false;
	}
	for (uint32_t k = 0; k < parts->len; k++)
		if (!parts->items[k].whole_stmt)
			return true;
	*why = "the callee has no loop";
	return false;
}

/* The part whose top loop holds source byte `byte`, -1 if none. */
static int part_of(const PartList *parts, uint32_t byte)
{
	for (uint32_t i = 0; i < parts->len; i++)
		if (byte >= parts->items[i].top->start && byte < parts->items[i].top->end)
			return (int)i;
	return -1;
}

/* The declaration statement of local v inside s, NULL if none. */
static const Stmt *find_decl(const Stmt *s, const Var *v)
{
	const Stmt *d = NULL;

	if (!s)
		return NULL;
	if (s->kind == ST_DECL && s->var == v)
		return s;
	if ((d = find_decl(s->then, v)) || (d = find_decl(s->els, v)))
		return d;
	for (uint32_t i = 0; !d && i < s->body.len; i++)
		d = find_decl(s->body.items[i], v);
	if (!d && s->loop) {
		for (uint32_t i = 0; !d && i < s->loop->init.len; i++)
			d = find_decl(s->loop->init.items[i], v);
		if (!d)
			d = find_decl(s->loop->body, v);
	}
	return d;
}

/*
 * A local that every run of its declaration sets to its final value:
 * initialized without effects, never assigned again, its address never
 * taken.  A chunk call that runs the declaration gets what the whole call
 * would have (what the initializer reads is in the chunk's summary).
 */
static bool pure_local(const Func *g, const Var *v)
{
	const Stmt *d = find_decl(g->body, v);

	return d && d->expr && d->expr->kind != EX_INIT && effect_free(d->expr) &&
	       !v->addr_taken && writes_in(g->body, v) == 0;
}

/* A top-level workspace: every chunk call gets the same buffer from the caller. */
static bool top_scratch_var(const Func *g, const Var *v)
{
	const Scratch *sc = scratch_var(g, v);

	return sc && sc->top;
}

/* Is every assignment of v one of the callee's top-level local_set_stmt? */
static bool set_at_top_only(const Func *g, const Var *v)
{
	uint32_t sets = 0;

	for (uint32_t i = 0; i < g->body->body.len; i++) {
		const Stmt *s = g->body->body.items[i];

		sets += local_set_stmt(s) && s->expr->lhs->var == v;
	}
	return sets && !v->addr_taken && writes_in(g->body, v) == sets;
}

/* Does a part's loop assign v? */
static bool written_in_parts(const PartList *parts, const Var *v)
{
	for (uint32_t p = 0; p < parts->len; p++)
		if (writes_in(parts->items[p].top, v))
			return true;
	return false;
}

/*
 * Each chunk is a separate call: a prologue local may not carry a value
 * from one part to another.  Allowed: locals every call recomputes alike
 * (pure_local, and those that only the top level sets: local_set_stmt), and
 * locals whose every use in each part follows an assignment in a for
 * header of that part (the parts' loop counters).
 */
static bool locals_ok(const Func *g, const PartList *parts, const char **why)
{
	for (uint32_t i = 0; i < g->locals.len; i++) {
		const Var *v = g->locals.items[i];
		uint32_t total, in_parts = 0, users = 0;

		if (v->storage == SC_STATIC) {
			*why = plan_fmt("the callee has a static local %s", intern_name(v->name));
			return false;
		}
		if (part_of(parts, v->start) >= 0 || pure_local(g, v) || top_scratch_var(g, v))
			continue; /* scoped inside one part, or the same in every call */
		if (v->addr_taken) {
			*why = plan_fmt("the address of local %s is taken", intern_name(v->name));
			return false;
		}
		total = ir_var_refs(g->body, v);
		for (uint32_t p = 0; p < parts->len; p++) {
			uint32_t n = ir_var_refs(parts->items[p].top, v);

			in_parts += n;
			users += n > 0;
		}
		if (in_parts != total && written_in_parts(parts, v)) {
			*why = plan_fmt("local %s is used outside the callee's loops", intern_name(v->name));
			return false;
		}
		if (in_parts != total)
			continue; /* set outside the loops only (local_set_stmt): the same in every call */
		if (users <= 1)
			continue;
		for (uint32_t p = 0; p < parts->len; p++) {
			const Stmt *top = parts->items[p].top;
			uint32_t n = ir_var_refs(top, v);

			if (n && !loop_covers(top, v, n, NULL) && !plan_scalar_set_first(top, v)) {
				*why = plan_fmt("local %s carries a value from one loop to the next",
				           intern_name(v->name));
				return false;
			}
		}
	}
	return true;
}

static void note_own_name(Expr *e, void *ctx)
{
	static const char *const names[] = { "__func__", "__FUNCTION__", "__PRETTY_FUNCTION__" };

	for (size_t i = 0; e->kind == EX_NAME && i < sizeof(names) / sizeof(*names); i++)
		if (e->name == intern(names[i], (uint32_t)strlen(names[i])))
			*(bool *)ctx = true;
}

/* Does g read its own name?  A clone has another one. */
static bool names_itself(const Func *g)
{
	bool seen = false;

	ir_visit_stmt(g->body, note_own_name, NULL, &seen);
	return seen;
}

/* Assigns none of the callee's parameters: every chunk call gets them as passed. */
static bool params_ok(const Func *g, const char **why)
{
	for (uint32_t i = 0; i < g->params.len; i++) {
		if (ir_type_lengths_have_effect(g->params.items[i]->type)) {
			*why = plan_fmt("the type of the callee's parameter %s has an effect",
			                intern_name(g->params.items[i]->name));
			return false;
		}
		if (writes_in(g->body, g->params.items[i])) {
			*why = plan_fmt("the callee assigns its parameter %s",
			           intern_name(g->params.items[i]->name));
			return false;
		}
	}
	return true;
}

/*
 * The loop a one-trip loop s wraps: its body is that loop alone, or
 * declarations of scalars with effect-free initializers and then that
 * loop (onnx2c's grouped convolution: `uint32_t go = 1;` before the g loop).
 */
static Stmt *wrapped_loop(const Stmt *s)
{
	Stmt *b = s->loop->body;

	if (ir_is_loop(b))
		return b;
	if (!b || b->kind != ST_BLOCK || !b->body.len || !ir_is_loop(array_last(&b->body)))
		return NULL;
	for (uint32_t i = 0; i + 1 < b->body.len; i++) {
		const Stmt *d = b->body.items[i];

		if (d->kind == ST_EMPTY)
			continue;
		if (d->kind != ST_DECL || !d->var || !is_scalar_type(d->var->type) ||
		    d->var->storage != SC_NONE || !d->expr || d->expr->kind == EX_INIT ||
		    !effect_free(d->expr))
			return NULL;
	}
	return array_last(&b->body);
}

/* The loop to split: below `top` through loops of one trip that wrap one loop. */
static Stmt *descend_one_trip(Stmt *top)
{
	Stmt *s = top, *inner;

	while (s->kind == ST_FOR && s->loop->trip_count == 1 && (inner = wrapped_loop(s)))
		s = inner;
	return s;
}

/* A for-step part that moves an IV by its constant step. */
static const InductionVar *step_update(const Loop *l, const Expr *u)
{
	Var *v = loop_updated_var(u);
	const InductionVar *iv = v ? loop_find_iv(l, v) : NULL;
	int64_t step;
	bool known;

	if (!iv || !loop_update_step(u, v, &step, &known) || !known)
		return NULL;
	return plan_plain(u->rhs, v) ? iv : NULL;
}

/*
 * Every comma part of the step moves an IV, each IV exactly once, or,
 * after the first IV has moved, copies it (onnx2c's max-pool header
 * `m++, c=m`: c equals m in every iteration when it starts equal).
 */
static bool steps_ok(const Loop *l, const Expr *e, uint32_t *moved, bool *first_moved)
{
	const InductionVar *iv;

	if (!e)
		return true;
	if (e->kind == EX_COMMA)
		return steps_ok(l, e->lhs, moved, first_moved) && steps_ok(l, e->rhs, moved, first_moved);
	if (*first_moved && loop_copies_first_iv(l, e))
		return true;
	if (!(iv = step_update(l, e)))
		return false;
	*first_moved |= iv == &l->ivs.items[0];
	(*moved)++;
	return true;
}

/* Is v assigned, or its address taken, in l's body or condition? */
static bool header_var_moved(const Loop *l, const Var *v)
{
	return v->addr_taken || writes_in(l->body, v) || writes_in_expr(l->cond, v);
}

/* Every copy of the first IV in l's step is set by the initializer and kept by the body. */
static bool copies_kept(const Loop *l, const char **why)
{
	ExprList parts = { 0 };
	bool ok = true;

	ir_split_comma(l->step, &parts);
	for (uint32_t i = 0; ok && i < parts.len; i++) {
		const Var *c = loop_copies_first_iv(l, parts.items[i]) ? parts.items[i]->lhs->var : NULL;
		bool set = c && loop_init_of(l, c);

		if (c && (!set || header_var_moved(l, c))) {
			*why = plan_fmt("%s, a copy of the first induction variable, is %s", intern_name(c->name),
			                set ? "assigned in the loop" : "not set by the initializer");
			ok = false;
		}
	}
	array_free(&parts);
	return ok;
}

/* Is v a header copy of the first IV (loop_copies_first_iv) in l's step? */
static bool header_copy(const Loop *l, const Var *v)
{
	ExprList parts = { 0 };
	bool found = false;

	ir_split_comma(l->step, &parts);
	for (uint32_t i = 0; i < parts.len; i++)
		found |= loop_copies_first_iv(l, parts.items[i]) && parts.items[i]->lhs->var == v;
	array_free(&parts);
	return found;
}

/*
 * An initializer part sets an IV to a constant, or a copy of the first IV
 * (header_copy) to the first IV's start.
 */
static bool init_part_ok(const Loop *l, const Stmt *part, const char **why)
{
	Var *v = NULL;
	Expr *init;
	int64_t k;

	if (!loop_init_assign(part, &v, &init) || !plan_const(init, &k) ||
	    !(loop_find_iv(l, v) || header_copy(l, v))) {
		*why = v ? plan_fmt("the header sets %s, not an induction variable from a constant",
		                    intern_name(v->name))
		         : "the header's initializer is not a list of IV assignments";
		return false;
	}
	if (!loop_find_iv(l, v) && k != l->lower) {
		*why = plan_fmt("%s, a copy of the first induction variable, starts at %lld, not %lld",
		                intern_name(v->name), (long long)k, (long long)l->lower);
		return false;
	}
	return true;
}

/*
 * Does a decreasing IV stay in its type one step below its last value lo?
 * (An unsigned `i > 0; i -= 3` from 10 wraps.)  IV_NINF + step is no
 * overflow: step > 0.
 */
static bool steps_below_stay(const Type *t, int64_t lo, int64_t step)
{
	return lo >= iv_of_type(t).lo + step;
}

/*
 * The first IV's condition: `iv < K` or `iv <= K` counting up, `iv > K`
 * or `iv >= K` counting down (the chunk then runs its values from the top,
 * the loop's own order), K a constant.  A decreasing loop has its first
 * IV alone in the header (the chunk's start is not where the loop starts).
 * K folds as C folds it (`(int)(sizeof a / sizeof a[0])`, a `static const
 * int`): the chunks keep the condition, and only the trips count here.
 */
static bool bound_ok(const Loop *l, const char **why)
{
	const InductionVar *iv = &l->ivs.items[0];
	const Expr *c = l->cond, *v = c && c->kind == EX_BINARY ? ir_strip_casts(c->lhs) : NULL;
	bool up = iv->step_known && iv->step > 0, down = iv->step_known && iv->step < 0;
	int64_t k, lo, hi, step;

	if (!v || v->kind != EX_VAR || v->var != iv->var || ir_has_effect(c->rhs) ||
	    !ir_const_eval(c->rhs, &k) ||
	    (!(up && (c->op == OP_LT || c->op == OP_LE)) && !(down && (c->op == OP_GT || c->op == OP_GE)))) {
		*why = "the condition is not `iv < K` on an increasing IV or `iv > K` on a decreasing one";
		return false;
	}
	if (!down)
		return true;
	if (l->ivs.len > 1 || l->init.len > 1) {
		*why = "a decreasing loop whose header moves more than its induction variable";
		return false;
	}
	if (!loop_value_range(l, &lo, &hi, &step) || !steps_below_stay(iv->var->type, lo, step)) {
		*why = plan_fmt("%s would leave its type one step below its last value",
		                intern_name(iv->var->name));
		return false;
	}
	return true;
}

/*
 * Can chunks of s's first IV run as separate calls?  A for statement
 * whose initializer sets only IVs to constants (and copies of the first
 * IV to its start, steps_ok), whose condition bounds the first IV
 * (bound_ok; a constant trip count), whose step moves each IV by a
 * constant, with no IV assigned in the body and no way out of the body
 * but its end or `continue`.
 */
static bool header_splittable(const Func *g, const Stmt *s, const char **why)
{
	const Loop *l = s->loop;
	uint32_t moved = 0;
	bool first_moved = false;

	if (s->kind != ST_FOR || !l->ivs.len) {
		*why = "no induction variable";
		return false;
	}
	if (l->trip_count < 2) {
		*why = l->trip_count < 0 ? "the trip count is not a constant" : "one trip";
		return false;
	}
	if (!bound_ok(l, why))
		return false;
	for (uint32_t i = 0; i < l->init.len; i++)
		if (!init_part_ok(l, l->init.items[i], why))
			return false;
	if (!steps_ok(l, l->step, &moved, &first_moved) || moved != l->ivs.len) {
		*why = "the header's step updates something besides its induction variables";
		return false;
	}
	if (!copies_kept(l, why))
		return false;
	for (uint32_t i = 0; i < l->ivs.len; i++) {
		const Var *v = l->ivs.items[i].var;

		if (!l->ivs.items[i].step_known || header_var_moved(l, v)) {
			*why = plan_fmt("induction variable %s is assigned in the loop", intern_name(v->name));
			return false;
		}
	}
	if (plan_leaves(g, l->body, 0, 0, true)) {
		*why = "control leaves the loop body";
		return false;
	}
	if (s->unmodelled) {
		*why = "unmodelled construct in the loop";
		return false;
	}
	return true;
}


static void collect_var(Expr *e, void *ctx)
{
	VarList *l = ctx;

	if (e->kind != EX_VAR)
		return;
	for (uint32_t i = 0; i < l->len; i++)
		if (l->items[i] == e->var)
			return;
	array_push(l, e->var);
}

/* Is v an IV of a loop between top and the split loop L? */
static bool wrapper_iv(const Stmt *top, const Stmt *L, const Var *v)
{
	for (const Stmt *s = top; s && s != L; s = wrapped_loop(s))
		if (loop_find_iv(s->loop, v))
			return true;
	return false;
}

/*
 * Is v declared in the body of a loop between top and the split loop L,
 * before the loop it wraps (wrapped_loop: a scalar with an effect-free
 * initializer)?  Every chunk computes it again in each of its iterations.
 */
static bool wrapper_local(const Stmt *top, const Stmt *L, const Var *v)
{
	for (const Stmt *s = top; s && s != L; s = wrapped_loop(s)) {
		const Stmt *body = s->loop->body;

		if (body && v->start >= body->start && v->end <= L->start)
			return true;
	}
	return false;
}

/*
 * Chunks of L are separate calls, each with its own locals: a callee local
 * that L uses must not carry a value from one iteration to another.  Fine
 * are locals declared in L's body, L's own IVs, IVs and locals of the
 * loops around L (nest_inner) that L does not assign, prologue locals every call recomputes
 * alike, L's header copies of its first IV (header_splittable checked them),
 * and locals that a for header inside L's body assigns before each
 * use, with no other use in L's part: a counter declared once at the top
 * and reused by the other parts too (`int i, j;`), since locals_ok has
 * checked that each of those assigns it before use as well.
 */
static bool split_locals_ok(const Func *g, const Stmt *top, const Stmt *L, const char **why)
{
	VarList vars = { 0 };
	const Stmt *body = L->loop->body;
	bool ok = true;

	each_stmt_expr(L, collect_var, &vars);
	for (uint32_t i = 0; ok && i < vars.len; i++) {
		const Var *v = vars.items[i];
		uint32_t n;

		if (v->func != g || v->scope != VAR_LOCAL)
			continue; /* a parameter (never assigned) or a global (in the summary) */
		if (body && v->start >= body->start && v->end <= body->end)
			continue;
		n = ir_var_refs(L, v);
		if ((loop_find_iv(L->loop, v) || header_copy(L->loop, v)) && ir_var_refs(top, v) == n)
			continue;
		if ((wrapper_iv(top, L, v) || wrapper_local(top, L, v)) && writes_in(L, v) == 0)
			continue;
		if (pure_local(g, v) || top_scratch_var(g, v) || (!writes_in(top, v) && set_at_top_only(g, v)))
			continue;
		if (ir_var_refs(top, v) == n && loop_covers(L, v, n, body))
			continue;
		if (plan_private_counter(g, L, v))
			continue;
		*why = plan_fmt("local %s carries a value from one iteration to the next",
		           intern_name(v->name));
		ok = false;
	}
	array_free(&vars);
	return ok;
}

/* No effect in the call's arguments: each chunk call evaluates them again. */
static bool args_ok(const Expr *call)
{
	for (uint32_t i = 0; i < call->args.len; i++)
		if (!effect_free(call->args.items[i]))
			return false;
	return true;
}

/* sl's first-IV values and direction from l's header; 0 0 0 when they do not fold. */
static void set_split_range(SplitLoop *sl, const Loop *l)
{
	if (loop_value_range(l, &sl->lo, &sl->hi, &sl->step))
		sl->reverse = l->ivs.items[0].step < 0;
}

/* First-IV value that starts chunk k of n (k == n: the end). */
static int64_t chunk_bound(const SplitLoop *sl, int64_t trip, int n, int k)
{
	if (k >= n)
		return sl->hi;
	return sl->lo + (int64_t)((__int128)k * trip / n) * sl->step;
}

enum { WEIGHED_TRIPS_MAX = 1 << 16 }; /* longer loops are cut evenly */
#define UNKNOWN_TRIPS 8.0              /* an inner loop whose trips do not fold */

/* The work of one run of s, its loops' trips folded with the variables bound now. */
static double run_weight(const Stmt *s)
{
	double w = 0;
	int64_t n;

	if (!s)
		return 0;
	switch (s->kind) {
	case ST_FOR: case ST_WHILE: case ST_DO:
		n = s->loop ? loop_trips_now(s->loop) : -1;
		return 1 + (n < 0 ? UNKNOWN_TRIPS : (double)n) * (1 + run_weight(s->loop->body));
	case ST_BLOCK:
		for (uint32_t i = 0; i < s->body.len; i++)
			w += run_weight(s->body.items[i]);
		return w;
	case ST_IF:
		w = run_weight(s->then);
		return 1 + (run_weight(s->els) > w ? run_weight(s->els) : w);
	default:
		return 1;
	}
}

/*
 * Cumulative work before each iteration of the split loop (cum[0..trip]),
 * when the inner loops' trips depend on its IV (a triangle: `j <= i`);
 * NULL when every iteration weighs the same or the loop is too long.  The
 * IV is bound to each value in turn while the inner trips fold.
 */
static double *iteration_work(const SplitLoop *sl, int64_t trip)
{
	Var *iv = sl->loop->loop->ivs.items[0].var;
	double *cum;
	bool uneven = false;

	if (trip < 2 || trip > WEIGHED_TRIPS_MAX || iv->bound)
		return NULL;
	cum = xmalloc((size_t)(trip + 1) * sizeof(*cum));
	cum[0] = 0;
	iv->bound = true;
	for (int64_t i = 0; i < trip; i++) {
		double w;

		iv->bound_value = sl->lo + i * sl->step;
		w = run_weight(sl->loop->loop->body);
		uneven |= i > 0 && w != cum[i] - cum[i - 1];
		cum[i + 1] = cum[i] + w;
	}
	iv->bound = false;
	if (!uneven || cum[trip] <= 0) {
		free(cum);
		return NULL;
	}
	return cum;
}

/* Iterations before chunk k of n when the chunks share cum's work evenly (k == n: trip). */
static int64_t even_work_index(const double *cum, int64_t trip, int n, int k)
{
	double want = cum[trip] * k / n;
	int64_t i = 0;

	if (k >= n)
		return trip;
	while (i < trip && cum[i] < want)
		i++;
	return i;
}

static bool try_split_once(PlanCtx *c, MT *sb, SplitLoop *sl, int part, int n, double ops,
                           double pro_cost, ChunkList *out, const char **why);

static Summary *chunk_summary(MT *sb, const SplitLoop *sl, int64_t lo, int64_t hi)
{
	return sb->kind == MT_RB ? sum_slice(sb, sl, lo, hi) : sum_chunk(sb, sl, lo, hi);
}

/* Does a in one summary reach an object that none of b's accesses reaches? */
static bool gone_in(const Access *a, const Summary *b)
{
	for (uint32_t i = 0; i < b->acc.len; i++)
		if (b->acc.items[i].region.base == a->region.base)
			return false;
	return true;
}

/*
 * Does the array that pa names reach objects that nothing else in the loop
 * reaches?  The whole loop's summary with its elements (full) and without
 * them (rest): some object must leave with them, and nothing left may
 * share a byte with it, or another name reaches the array and the copy
 * would miss what that name writes or reads.
 */
static bool privarr_alone(MT *sb, SplitLoop *sl, PrivArray pa, const Summary *full)
{
	SplitLoop one = *sl;
	Summary *rest;
	bool gone = false;

	one.privarr.items = &pa;
	one.privarr.len = one.privarr.cap = 1;
	one.last = sl->lo - 1; /* every chunk a copy: the walk leaves the array out */
	rest = chunk_summary(sb, &one, sl->lo, sl->hi);
	if (!rest || rest->barrier || full->barrier)
		return false;
	for (uint32_t i = 0; i < full->acc.len; i++) {
		const Access *a = &full->acc.items[i];
		Region whole;

		if (!gone_in(a, rest))
			continue;
		gone = true;
		region_init(&whole, a->region.base);
		region_set_whole(&whole);
		for (uint32_t j = 0; j < rest->acc.len; j++)
			if (region_overlap(&whole, &rest->acc.items[j].region)) {
				region_free(&whole);
				return false;
			}
		region_free(&whole);
	}
	return gone;
}

/*
 * The arrays of sl that chunks may copy (privarr.c), those that no other
 * name reaches; false when there are none.  The caller tries it once per
 * loop (privarr_tried).
 */
static bool privatize(MT *sb, SplitLoop *sl)
{
	SplitLoop plain;
	Summary *full;
	uint32_t k = 0;

	sl->privarr_tried = true;
	if (!privarr_find(sb->kind == MT_RB ? sb->func : sb->callee, sl))
		return false;
	plain = *sl; /* the loop as it is, every chunk on the arrays themselves */
	memset(&plain.privarr, 0, sizeof(plain.privarr));
	full = chunk_summary(sb, &plain, sl->lo, sl->hi);
	for (uint32_t i = 0; full && i < sl->privarr.len; i++)
		if (privarr_alone(sb, sl, sl->privarr.items[i], full))
			sl->privarr.items[k++] = sl->privarr.items[i];
	sl->privarr.len = full ? k : 0;
	return sl->privarr.len > 0;
}

/*
 * Splits part sl of sb's callee into n chunks; true when their summaries
 * are pairwise independent (then the chunks go to out).  Where an array
 * makes them depend, once more with copies of the arrays that each
 * iteration writes before it reads (privatize).
 */
static bool try_split(PlanCtx *c, MT *sb, SplitLoop *sl, int part, int n, double ops,
                      double pro_cost, ChunkList *out, const char **why)
{
	const char *first_why = NULL;

	if (try_split_once(c, sb, sl, part, n, ops, pro_cost, out, &first_why))
		return true;
	*why = first_why;
	if (sl->privarr_tried || !privatize(sb, sl))
		return false;
	if (try_split_once(c, sb, sl, part, n, ops, pro_cost, out, why))
		return true;
	sl->privarr.len = 0;
	*why = first_why;
	return false;
}

/*
 * Splits part sl of sb's callee into n chunks; true when their summaries
 * are pairwise independent (then the chunks go to out).
 */
static bool try_split_once(PlanCtx *c, MT *sb, SplitLoop *sl, int part, int n, double ops,
                           double pro_cost, ChunkList *out, const char **why)
{
	int64_t trip = sl->loop->loop->trip_count;
	Chunk *ch = xcalloc((size_t)n, sizeof(*ch));
	double *cum = iteration_work(sl, trip);
	bool ok = true;
	Dep d;

	for (int k = 0; cum && k < n; k++) /* a triangle cut by work: no chunk may be empty */
		if (even_work_index(cum, trip, n, k) >= even_work_index(cum, trip, n, k + 1)) {
			free(cum);
			cum = NULL;
		}
	sl->split = true;
	for (int k = 0; ok && k < n; k++) {
		double share;

		ch[k].part = part;
		ch[k].lo = cum ? sl->lo + even_work_index(cum, trip, n, k) * sl->step
		               : chunk_bound(sl, trip, n, k);
		ch[k].hi = cum ? (k + 1 == n ? sl->hi : sl->lo + even_work_index(cum, trip, n, k + 1) * sl->step)
		               : chunk_bound(sl, trip, n, k + 1);
		ch[k].sum = chunk_summary(sb, sl, ch[k].lo, ch[k].hi);
		if (!ch[k].sum) {
			*why = "the chunks' index ranges cannot be bound";
			ok = false;
			break;
		}
		if (cum)
			share = (cum[even_work_index(cum, trip, n, k + 1)] - cum[even_work_index(cum, trip, n, k)]) /
			        cum[trip];
		else
			share = (double)(((__int128)(k + 1) * trip / n) - ((__int128)k * trip / n)) / (double)trip;
		ch[k].cost = cost_with_traffic(pro_cost + ops * share, ch[k].sum);
	}
	for (int i = 0; ok && i < n; i++) {
		for (int j = i + 1; ok && j < n; j++) {
			if (dep_summary_conflict(ch[i].sum, ch[j].sum, &d)) {
				*why = plan_fmt("iterations depend on each other through %s", plan_dep_object(&d));
				ok = false;
			}
		}
	}
	for (int k = 0; ok && k < n; k++)
		array_push(out, ch[k]);
	free(ch);
	free(cum);
	sl->split = ok;
	return ok;
}

/*
 * The split loop's own header becomes `(cond) && i < mtpar_hi`, a condition
 * GCC cannot hang a loop annotation on ("ignoring loop annotation"): the
 * mark stays on the loops inside it only.
 */
static void drop_split_loop_mark(SplitLoop *sl)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < sl->simd.len; i++)
		if (sl->simd.items[i] != sl->loop)
			sl->simd.items[k++] = sl->simd.items[i];
	sl->simd.len = k;
}

/* ------------------------------------------------------------------ */
/* A perfect nest split at an inner loop                               */
/* ------------------------------------------------------------------ */

typedef struct HeaderScan {
	const Stmt *inner; /* the loop split */
	const Loop *wrap;  /* the loop around it whose header is read */
	bool ok;
} HeaderScan;

/*
 * Every chunk runs the loops around the split one whole, so their headers
 * must count alike in every chunk: they read no memory and no variable the
 * split loop may change (a global, or a local it assigns or whose address
 * is taken), and assign only their own induction variables.
 */
static void scan_wrapper_header(Expr *e, void *ctx)
{
	HeaderScan *h = ctx;
	const Var *v;

	switch (e->kind) {
	case EX_NUM: case EX_NAME: case EX_BINARY: case EX_COND: case EX_COMMA: case EX_CAST:
	case EX_SIZEOF:
		return;
	case EX_VAR:
		v = e->var;
		h->ok &= v->scope != VAR_GLOBAL && !v->addr_taken && v->storage == SC_NONE &&
		         !writes_in(h->inner, v);
		return;
	case EX_UNARY:
		v = ir_storage_root(e->lhs);
		h->ok &= e->op != OP_DEREF && e->op != OP_ADDR &&
		         (!ir_is_incdec(e) || (v && loop_find_iv(h->wrap, v)));
		return;
	case EX_ASSIGN:
		v = ir_storage_root(e->lhs);
		h->ok &= e->lhs->kind == EX_VAR && v && loop_find_iv(h->wrap, v);
		return;
	default:
		h->ok = false;
	}
}

/* Does the header of loop l (not its body) pass scan_wrapper_header? */
static bool wrapper_header_ok(const Loop *l, const Stmt *inner)
{
	HeaderScan h = { inner, l, true };

	for (uint32_t i = 0; i < l->init.len; i++) {
		const Stmt *part = l->init.items[i];

		if (part->kind != ST_EXPR && part->kind != ST_DECL)
			return false;
		each_expr(part->expr, scan_wrapper_header, &h);
	}
	each_expr(l->cond, scan_wrapper_header, &h);
	each_expr(l->step, scan_wrapper_header, &h);
	return h.ok && l->cond;
}

/* Does the header of the split loop L read v? */
static bool header_reads(const Loop *l, const Var *v)
{
	VarList vars = { 0 };
	bool found = false;

	for (uint32_t i = 0; i < l->init.len; i++)
		each_stmt_expr(l->init.items[i], collect_var, &vars);
	each_expr(l->cond, collect_var, &vars);
	each_expr(l->step, collect_var, &vars);
	for (uint32_t i = 0; i < vars.len; i++)
		found |= vars.items[i] == v;
	array_free(&vars);
	return found;
}

/*
 * The loop inside a perfect nest at L (for (i) for (j) ...) whose chunks
 * may each run every iteration of the loops around it: `for (i) for (j)
 * y[j] += A[i][j] * x[i]`, a transposed matrix-vector product, carries
 * y[j] from one i to the next, but chunks of j keep apart, and each keeps
 * the order of i.  The loops around it are for loops with plain headers
 * (wrapper_header_ok), and the inner loop's range does not move with
 * their counters (a triangle would start every chunk at mtpar_lo).  Loops
 * too short to split that way are passed over; at most NEST_DEPTH_MAX
 * loops lie around the one returned, so that a deep nest (3,000 one-trip
 * loops in run-adversarial.sh) costs no more than a shallow one.  NULL when
 * there is none.
 */
static Stmt *nest_inner(Stmt *top, Stmt *L)
{
	Stmt *inner = L;
	int depth = 0;

	do { /* past loops too short to give each chunk NEST_CHUNK_TRIPS_MIN */
		inner = inner->kind == ST_FOR ? wrapped_loop(inner) : NULL;
		if (!inner || inner->kind != ST_FOR)
			return NULL;
	} while (inner->loop->trip_count < 2 * NEST_CHUNK_TRIPS_MIN && ++depth < NEST_DEPTH_MAX);
	depth = 0;
	for (const Stmt *w = top; w && w != inner; w = wrapped_loop(w)) {
		if (w->kind != ST_FOR || !wrapper_header_ok(w->loop, inner) || ++depth > NEST_DEPTH_MAX)
			return NULL;
		for (uint32_t i = 0; i < w->loop->ivs.len; i++)
			if (header_reads(inner->loop, w->loop->ivs.items[i].var))
				return NULL;
	}
	return inner;
}

/* Makes L the loop sl splits, over its range. */
static void aim_at(SplitLoop *sl, Stmt *L)
{
	sl->loop = L;
	sl->outer = NULL;
	sl->lo = sl->hi = sl->step = 0;
	sl->reverse = false;
	if (L->kind == ST_FOR)
		set_split_range(sl, L->loop);
}

/*
 * How many chunks a loop of trip iterations and ops work is cut into: no
 * more than the cores, and each with the work to pay for its
 * synchronisation.  Nested (an inner loop, every chunk running all of the
 * outer loop's iterations): each chunk also has NEST_CHUNK_TRIPS_MIN
 * iterations, for neighbouring chunks write next to each other in every
 * outer iteration, and a cache line they share passes between their cores.
 */
static int64_t chunk_count(const PlanCtx *c, int64_t trip, double ops, bool nested)
{
	int64_t n = c->ncores < trip ? c->ncores : trip;

	if (n > (int64_t)(ops / MIN_CHUNK_COST))
		n = (int64_t)(ops / MIN_CHUNK_COST);
	if (nested && n > trip / NEST_CHUNK_TRIPS_MIN)
		n = trip / NEST_CHUNK_TRIPS_MIN;
	return n;
}

/*
 * One try at splitting L, the loop of part sl at or below sl->top; true
 * when its chunks went to out, else *why says why not.
 */
static bool split_at(PlanCtx *c, MT *sb, SplitLoop *sl, Stmt *L, bool nested, int part,
                     double ops, double pro_cost, ChunkList *out, const char **why)
{
	int64_t n;

	aim_at(sl, L);
	if (!header_splittable(sb->callee, L, why) || !split_locals_ok(sb->callee, sl->top, L, why))
		return false;
	n = chunk_count(c, L->loop->trip_count, ops, nested);
	if (n < 2) {
		*why = "too little work to split";
		return false;
	}
	return try_split(c, sb, sl, part, (int)n, ops, pro_cost, out, why);
}

/*
 * When L's chunks may not run side by side: the loops of the perfect nest
 * below it, outermost first (nest_inner).  Without copies of arrays
 * (privatize): the chunk that has the inner loop's last iteration does
 * not run the last of the outer loop's alone.
 */
static bool split_nest_inner(PlanCtx *c, MT *sb, SplitLoop *sl, Stmt *L, int part, double ops,
                             double pro_cost, ChunkList *out)
{
	bool tried = sl->privarr_tried;
	const char *why;

	sl->privarr_tried = true;
	for (Stmt *in = nest_inner(sl->top, L); in; in = nest_inner(sl->top, in))
		if (split_at(c, sb, sl, in, true, part, ops, pro_cost, out, &why)) {
			sl->outer = L;
			return true;
		}
	sl->privarr_tried = tried;
	return false;
}

/*
 * One part of a decomposable callee: finds the loop to split, splits it
 * when its chunks are independent, else makes the whole part one chunk.
 * Returns whether it split.
 */
static bool decompose_part(PlanCtx *c, MT *sb, SplitLoop *sl, int part, double pro_cost,
                           ChunkList *out)
{
	Stmt *L = descend_one_trip(sl->top);
	double ops = cost_stmt(&c->cost, sl->top);
	const char *why = NULL;
	Chunk one;

	if (sl->whole_stmt) {
		why = "a statement: one chunk runs it";
		goto whole;
	}
	ivdep_loops(sb->callee, sl->top, &sl->simd); /* the clone is outlined from its caller too */
	if (split_at(c, sb, sl, L, false, part, ops, pro_cost, out, &why) ||
	    split_nest_inner(c, sb, sl, L, part, ops, pro_cost, out)) {
		drop_split_loop_mark(sl);
		return true;
	}
	aim_at(sl, L); /* the whole part, over L's range */
whole:
	sl->split = false;
	sl->why_not = why;
	one.part = part;
	one.lo = sl->lo;
	one.hi = sl->hi;
	one.sum = sum_chunk(sb, sl, sl->lo, sl->hi);
	if (!one.sum)
		one.sum = sb->summary; /* the whole call: a superset */
	one.cost = cost_with_traffic(pro_cost + ops, one.sum);
	array_push(out, one);
	return false;
}

/* p's clone of g with these parts' split decisions, made once per plan. */
static Clone *clone_for(PlanCtx *c, ParPlan *p, Func *g, const PartList *parts,
                        const BindContext *ctx)
{
	Clone *cl;

	for (uint32_t i = 0; i < p->clones.len; i++) {
		bool same;

		cl = p->clones.items[i];
		same = cl->callee == g && cl->parts.len == parts->len && bind_context_same(&cl->ctx, ctx);
		for (uint32_t k = 0; same && k < parts->len; k++)
			same = cl->parts.items[k].split == parts->items[k].split &&
			       cl->parts.items[k].privarr.len == parts->items[k].privarr.len;
		if (same)
			return cl;
	}
	cl = ARENA_NEW(Clone);
	cl->callee = g;
	cl->id = ++c->next_clone;
	for (uint32_t k = 0; k < parts->len; k++)
		array_push(&cl->parts, parts->items[k]);
	for (uint32_t k = 0; k < ctx->len; k++) /* its own copy: the caller's goes */
		array_push(&cl->ctx, ctx->items[k]);
	array_push(&p->clones, cl);
	return cl;
}

/* Cost of the callee's prologue: what every chunk call repeats. */
static double prologue_cost(PlanCtx *c, const Func *g)
{
	double sum = 0;

	for (uint32_t i = 0; i < g->mt->children.len; i++)
		if (g->mt->children.items[i]->kind == MT_BB)
			sum += cost_mt_ops(&c->cost, g->mt->children.items[i]);
	return sum;
}

/*
 * Does g's body hold a preprocessor conditional?  A clone cuts the branch
 * the analysis read; the compiler may build another (a macro it predefines
 * and mtpar does not, other flags), which would run whole in every chunk.
 */
static bool has_conditionals(const Func *g)
{
	return source_has_conditional(g->src, g->body->start, g->body->end);
}

/*
 * With its workspaces replaced, no chunk may still touch the allocator or
 * the output, and each must have its own summary: the whole call's leaves
 * out a top-level workspace, through which the parts depend on each other.
 */
static bool chunks_stateless(const MT *sb, const ChunkList *chunks, const char **why)
{
	for (uint32_t k = 0; k < chunks->len; k++) {
		const Chunk *ch = &chunks->items[k];

		if (plan_touches_state(ch->sum)) {
			*why = "the callee allocates, frees, does I/O or names a thread-local object outside its workspaces";
			return false;
		}
		if (ch->sum == sb->summary && has_top_scratch(sb->callee)) {
			*why = "a part that shares the callee's workspace cannot be summarized";
			return false;
		}
	}
	return true;
}

/*
 * Decomposes SB sb of f into chunks of its callee's top-level loops (out),
 * or returns NULL with the reason it stays whole.
 */
/*
 * The chunks of sb's call of g, whose parts parts are (g's parameters bound
 * to the call's constant arguments meanwhile); the clone they call, or NULL.
 */
static Clone *decompose_call(PlanCtx *c, ParPlan *pl, MT *sb, PartList *parts,
                             const BindContext *ctx, ChunkList *out, const char **why)
{
	Func *g = sb->callee;
	/* every chunk call evaluates the arguments and the prologue again */
	Summary *pro_sum = sum_chunk(sb, NULL, 0, 0);
	bool any = false;
	double pro;
	Dep d;

	if (!pro_sum || dep_summary_conflict(sb->summary, pro_sum, &d)) {
		*why = "the call's arguments or the callee's declarations read what the call writes";
		return NULL;
	}
	pro = prologue_cost(c, g);
	for (uint32_t p = 0; p < parts->len; p++)
		any |= decompose_part(c, sb, &parts->items[p], (int)p, pro, out);
	if (!chunks_stateless(sb, out, why)) {
		out->len = 0;
		return NULL;
	}
	if (!any && parts->len == 1) {
		*why = plan_fmt("its loop is not split: %s", parts->items[0].why_not);
		out->len = 0;
		return NULL;
	}
	return clone_for(c, pl, g, parts, ctx);
}

Clone *decomp_call(PlanCtx *c, ParPlan *pl, MT *sb, ChunkList *out, const char **why)
{
	Func *f = pl->func;
	Func *g = sb->callee;
	const Summary *fs = acc_func_summary(g);
	PartList parts = { 0 };
	BindContext ctx = { 0 };
	Clone *cl = NULL;

	if (!g->body || !g->mt || !fs)
		*why = "the callee has no body";
	else if (g->src != f->src)
		*why = "the callee is in another file";
	else if (g->unmodelled.len)
		*why = plan_fmt("the callee has a %s", unmodelled_name[g->unmodelled.items[0].kind]);
	else if (g->is_variadic)
		*why = "the callee is variadic";
	else if (fs->barrier)
		*why = "the callee calls something unknown";
	else if (plan_touches_state(fs) && !plan_workspace_only(g))
		*why = "the callee allocates, frees, does I/O or names a thread-local object";
	else if (has_top_scratch(g) && g->start > f->start)
		*why = "the callee's workspace allocator may be declared after the caller";
	else if (!args_ok(sb->call))
		*why = "the call's arguments have effects";
	else if (sb->call->in_macro) /* its chunks' calls would replace the whole use */
		*why = "a macro spells the call";
	else if (names_itself(g))
		*why = "the callee reads __func__, which a clone would change";
	else if (has_conditionals(g))
		*why = "the callee holds #if or #ifdef, whose other branches a clone would not cut";
	else if (params_ok(g, why)) {
		bind_context_of(sb->call, g, &ctx); /* a size this call passes as a constant */
		bind_context_apply(g, &ctx, true);
		if (shape_ok(g, &parts, why) && locals_ok(g, &parts, why))
			cl = decompose_call(c, pl, sb, &parts, &ctx, out, why);
		bind_context_apply(g, &ctx, false); /* the loops' trips as every caller sees them */
	}
	array_free(&ctx);
	array_free(&parts);
	return cl;
}

static void count_ref(Expr *e, void *ctx)
{
	VarCount *c = ctx;

	c->n += e->kind == EX_VAR && e->var == c->var;
}

/* Does the header of a loop of s around L (not L's own) name v? */
static bool header_around(const Stmt *s, const Stmt *L, const Var *v)
{
	if (!s || s == L || s->start > L->start || s->end < L->end)
		return false;
	if (ir_is_loop(s)) {
		for (uint32_t i = 0; i < s->loop->init.len; i++)
			if (ir_var_refs(s->loop->init.items[i], v))
				return true;
		if (count_in(NULL, s->loop->cond, count_ref, v) || count_in(NULL, s->loop->step, count_ref, v))
			return true;
		return header_around(s->loop->body, L, v);
	}
	if (header_around(s->then, L, v) || header_around(s->els, L, v))
		return true;
	for (uint32_t i = 0; i < s->body.len; i++)
		if (header_around(s->body.items[i], L, v))
			return true;
	return false;
}

/*
 * Does each iteration of L assign v before anything else there names it?
 * The first statement of L's body that names v must be `v = e`, e not
 * naming v, at the body's top level (so it runs in every iteration that
 * reaches a use), and no label inside L may let a jump skip it.
 */
static bool assigned_first(const Stmt *L, const Var *v)
{
	const Stmt *body = L->loop->body;
	const Stmt *const *items = body && body->kind == ST_BLOCK ? (const Stmt *const *)body->body.items : &body;
	uint32_t n = body && body->kind == ST_BLOCK ? body->body.len : 1;

	if (!body || ir_has_label((Stmt *)body, false))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		const Stmt *s = items[i];
		const Expr *e = s->kind == ST_EXPR ? s->expr : NULL;

		if (!ir_var_refs(s, v))
			continue;
		return e && e->kind == EX_ASSIGN && e->op == OP_ASSIGN && e->lhs && e->lhs->kind == EX_VAR &&
		       e->lhs->var == v && count_in(NULL, e->rhs, count_ref, v) == 0;
	}
	return false;
}

/* An integer or floating local of automatic storage whose address is not taken. */
static bool private_scalar_type(const Var *v)
{
	const Type *t = v->type;

	return t && (t->kind == TY_INT || t->kind == TY_FLOAT) && !t->is_volatile && !v->addr_taken &&
	       v->storage != SC_STATIC && v->storage != SC_EXTERN;
}

/*
 * The uses of v in s that lie in loops assigning it first (and not in
 * their headers), L (when not NULL) one of them, none around L: each of
 * those reads only the value its own iteration gave v.  A loop around L is
 * not one: its iteration could read after L the value L leaves.
 */
static uint32_t scalar_covered(const Stmt *s, const Stmt *L, const Var *v)
{
	uint32_t n = 0;

	if (!s || !ir_var_refs(s, v))
		return 0;
	if (ir_is_loop(s) && s->loop && (!L || s == L || s->end <= L->start || s->start >= L->end) &&
	    ir_var_refs(s, v) == ir_var_refs(s->loop->body, v) && assigned_first(s, v))
		return ir_var_refs(s, v);
	if (s == L)
		return 0;
	n += scalar_covered(s->then, L, v) + scalar_covered(s->els, L, v);
	for (uint32_t i = 0; i < s->body.len; i++)
		n += scalar_covered(s->body.items[i], L, v);
	if (s->loop)
		n += scalar_covered(s->loop->body, L, v);
	return n;
}

bool plan_scalar_set_first(const Stmt *top, const Var *v)
{
	return private_scalar_type(v) && scalar_covered(top, NULL, v) == ir_var_refs(top, v);
}

/*
 * A counter of f that every use of which, in all of f, follows an
 * assignment in the header of the same run of a for loop (`int i, j;` at
 * the top, reused by every loop), none of them a loop around L: no value
 * of it flows from one loop to another, so a slice of L may declare its
 * own.  (A loop around L that runs on the same counter reads the value L
 * leaves in it.)  Or an arithmetic scalar that each iteration of L
 * assigns first (`s = 0;` opening the body, a sum declared at the top of
 * the function), and that every other loop using it assigns first too
 * (deriche's four sweeps over one ym1): no value of it flows from one
 * iteration to another or out of L.
 */
bool plan_private_counter(const Func *f, const Stmt *L, const Var *v)
{
	if (!private_scalar_type(v))
		return false;
	if (v->type->kind == TY_INT && loop_covers(f->body, v, ir_var_refs(f->body, v), NULL) &&
	    !header_around(f->body, L, v))
		return true;
	return scalar_covered(f->body, L, v) == ir_var_refs(f->body, v); /* L among the loops */
}

/*
 * A slice runs the loop's own text on a core of the region, where f's
 * locals are shared: a local of f that the loop assigns must be declared
 * inside the loop (its header included), or be a counter that the slice
 * declares again (sl->privates).
 */
static bool slice_locals_ok(const Func *f, const Stmt *L, SplitLoop *sl, const char **why)
{
	VarList vars = { 0 };
	bool ok = true;

	each_stmt_expr(L, collect_var, &vars);
	for (uint32_t i = 0; ok && i < vars.len; i++) {
		const Var *v = vars.items[i];

		if (v->func != f || v->scope != VAR_LOCAL || (v->start >= L->start && v->end <= L->end))
			continue;
		if (writes_in(L, v) && plan_private_counter(f, L, v)) {
			array_push(&sl->privates, v);
		} else if (writes_in(L, v)) {
			*why = plan_fmt("the loop assigns %s, declared outside it", intern_name(v->name));
			ok = false;
		}
	}
	array_free(&vars);
	return ok;
}

/* The level's loop L itself cut into slices (out), when they are independent. */
static bool split_slices(PlanCtx *c, MT *mt, SplitLoop *sl, double ops, ChunkList *out,
                         const char **why)
{
	Stmt *L = sl->top;
	int64_t n;

	if (!header_splittable(mt->func, L, why) || !slice_locals_ok(mt->func, L, sl, why))
		return false;
	set_split_range(sl, L->loop); /* header_splittable: it folds */
	n = chunk_count(c, L->loop->trip_count, ops, false);
	if (n < 2) {
		*why = "too little work to split";
		return false;
	}
	return try_split(c, mt, sl, 0, (int)n, ops, 0, out, why);
}

/*
 * When the slices of the level's loop may not run side by side: the loops
 * of the perfect nest inside it (nest_inner), each slice running every
 * iteration of the loops around, without copies of arrays (as
 * split_nest_inner).
 */
static bool slice_nest_inner(PlanCtx *c, MT *mt, SplitLoop *sl, double ops, ChunkList *out)
{
	const char *why;

	sl->privates.len = 0; /* split_slices may have stopped before it saw them all */
	if (!slice_locals_ok(mt->func, sl->top, sl, &why))
		return false;
	sl->privarr_tried = true;
	for (Stmt *in = nest_inner(sl->top, sl->top); in; in = nest_inner(sl->top, in)) {
		int64_t n = chunk_count(c, in->loop->trip_count, ops, true);

		aim_at(sl, in);
		if (n >= 2 && header_splittable(mt->func, in, &why) &&
		    try_split(c, mt, sl, 0, (int)n, ops, 0, out, &why)) {
			sl->outer = sl->top;
			return true;
		}
	}
	aim_at(sl, sl->top);
	return false;
}

/*
 * The level's own loop mt cut into slices of its first IV's range (out)
 * when they are independent; each runs the loop's text in place.
 */
bool decomp_loop(PlanCtx *c, MT *mt, SplitLoop *sl, ChunkList *out, const char **why)
{
	Stmt *L = mt->loop;
	double ops = cost_stmt(&c->cost, L);

	memset(sl, 0, sizeof(*sl));
	sl->top = sl->loop = L;
	if (!L || (!split_slices(c, mt, sl, ops, out, why) && !slice_nest_inner(c, mt, sl, ops, out)))
		return false;
	ivdep_loops(mt->func, L, &sl->simd);
	drop_split_loop_mark(sl);
	return true;
}

