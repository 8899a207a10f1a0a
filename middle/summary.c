/*
 * summary.c - access analysis: the walk that records what statements read
 * and write (per base object, byte ranges from the values and ranges), and
 * the summaries of functions, MTs, chunks and slices; the --dump=mfg lines.
 */
#include <stdlib.h>

#include "middle.h"

/* ------------------------------------------------------------------ */
/* Summaries: walking an MT's statements                                */
/* ------------------------------------------------------------------ */

/* Unmodelled constructs that may touch anything. */
#define BARRIER_KINDS ((1u << UM_ASM) | (1u << UM_SETJMP) | (1u << UM_COMPUTED_GOTO) | \
                       (1u << UM_INCLUDE) | (1u << UM_OTHER))

typedef struct Walk {
	Summary *sum;
	const MT *mt;        /* NULL: a whole function body */
	const Source *src;
	int depth;           /* scopes opened inside the walked statements */
	ObjList priv;        /* non-static objects declared at depth > 0 */
	Env env;             /* induction variables and narrowed variables */
	/* a chunk walk (sum_chunk): ranges follow the chunk, not the whole loop */
	bool chunk;          /* loops and single definitions re-evaluated in env */
	const struct SplitLoop *part; /* the part being walked, NULL for the prologue alone */
	int64_t lo, hi;      /* first-IV values [lo, hi) of part->loop */
	bool failed;         /* the chunk's ranges could not be bound */
	KeyMap index;        /* (base, kind) -> its access in sum, once sum is long */
} Walk;

/* The workspace of the function being walked that v (a pointer local) holds, if any. */
static const Scratch *scratch_of(const Var *v)
{
	return scratch_var(acc.cur, v);
}

static void set_barrier(Walk *w, const Expr *at)
{
	if (!w->sum->barrier) {
		w->sum->barrier = true;
		w->sum->barrier_at = at;
	}
}

enum { INDEXED_FROM = 16 }; /* accesses searched in order below this many */

static uint64_t access_key(const Var *base, AccessKind kind)
{
	return ((uint64_t)(uintptr_t)base << 1 | (uint64_t)kind) + 1;
}

/* The access of that kind and base in w's summary, or NULL. */
static Access *find_access(Walk *w, AccessKind kind, const Var *base)
{
	Summary *s = w->sum;
	uint32_t at;

	if (s->acc.len >= INDEXED_FROM) { /* deep nests make long summaries */
		for (uint32_t i = w->index.len; i < s->acc.len; i++)
			map_put(&w->index, access_key(s->acc.items[i].region.base, s->acc.items[i].kind), i);
		return map_get(&w->index, access_key(base, kind), &at) ? &s->acc.items[at] : NULL;
	}
	for (uint32_t i = 0; i < s->acc.len; i++)
		if (s->acc.items[i].kind == kind && s->acc.items[i].region.base == base)
			return &s->acc.items[i];
	return NULL;
}

/* Adds r (whose ranges it takes over) to the access of that kind and base. */
static void sum_add(Walk *w, AccessKind kind, Region *r, const Expr *ref)
{
	Access *b = find_access(w, kind, r->base), a;

	if (b) {
		region_union(&b->region, r);
		region_free(r);
		return;
	}
	a.kind = kind;
	a.region = *r;
	a.ref = ref;
	a.src = w->src;
	array_push(&w->sum->acc, a);
}

/*
 * How an access to r's object is added: as the whole object (the program's
 * state, or no known base), as it is (a pointee's or a loaded pointer's:
 * their ends are not ours to know), or clamped to the object (ours).
 */
typedef enum AddMode { ADD_WHOLE, ADD_AS_IS, ADD_CLAMPED } AddMode;

static AddMode add_mode(const Region *r)
{
	if (!r->base)
		return ADD_WHOLE;
	switch (obj_kind(r->base)) {
	case OBJ_STATE:
		return ADD_WHOLE;
	case OBJ_POINTEE:
	case OBJ_LOADED:
		return ADD_AS_IS;
	default:
		return ADD_CLAMPED;
	}
}

/* Adds bytes [lo, hi) to r, within its object when the object is ours. */
static void add_clamped(Region *r, int64_t lo, int64_t hi)
{
	AddMode mode = add_mode(r);
	int64_t size;

	if (mode != ADD_CLAMPED) {
		if (mode == ADD_WHOLE)
			region_set_whole(r);
		else
			region_add_range(r, lo, hi);
		return;
	}
	/* outside its object an access is undefined: clamp to the object */
	size = obj_size(r->base);
	if (lo < 0)
		lo = 0;
	if (size >= 0 && hi > size)
		hi = size;
	if (lo >= hi)
		region_set_whole(r); /* nowhere inside: trust nothing */
	else
		region_add_range(r, lo, hi);
}

/* Adds the rows rs to r, those within its object when the object is ours. */
static void add_clamped_rows(Region *r, RowSet rs)
{
	AddMode mode = add_mode(r);
	bool empty = false;

	if (mode == ADD_CLAMPED)
		rs = region_rows_within(rs, 0, obj_size(r->base) < 0 ? REGION_END : obj_size(r->base), &empty);
	if (mode == ADD_WHOLE || empty)
		region_set_whole(r); /* or nowhere inside: trust nothing */
	else
		region_add_rows(r, rs);
}

static void state_rw(Walk *w, Var *obj, const Expr *ref)
{
	Region r;

	region_init(&r, obj);
	region_set_whole(&r);
	sum_add(w, ACC_READ, &r, ref);
	region_init(&r, obj);
	region_set_whole(&r);
	sum_add(w, ACC_WRITE, &r, ref);
}

/* Records an access of size bytes (-1 unknown) at p. */
static void record(Walk *w, Ptr p, int64_t size, AccessKind kind, const Expr *ref)
{
	Region r;

	if (p.kind == P_OBJ) {
		int64_t lo = p.off.lo;
		int64_t hi = p.off.hi == IV_PINF || size <= 0 ? REGION_END : iv_clamp_hi((IvWide)p.off.hi + size);

		region_init(&r, p.base);
		add_clamped(&r, lo, hi);
	} else if (p.kind == P_UNKNOWN) {
		region_init(&r, NULL);
		region_set_whole(&r);
	} else {
		return;
	}
	sum_add(w, kind, &r, ref);
	if (p.kind == P_OBJ && (type_is_volatile(p.base->type) || type_is_volatile(p.type) ||
	                        p.base->thread_local))
		state_rw(w, acc.io, ref);
	if (p.kind == P_OBJ && p.base->aliased)
		set_barrier(w, ref); /* another name of some object: it may be any */
}

/*
 * A thread-local object named in code: each thread that runs the code
 * reaches its own copy, so the code must run on the thread that runs the
 * original (state, as I/O is: no task, no chunk on another core).
 */
static void note_thread_local(Walk *w, const Expr *e)
{
	while (e && (e->kind == EX_INDEX || (e->kind == EX_MEMBER && e->op != OP_ARROW)))
		e = e->lhs;
	if (e && e->kind == EX_VAR && e->var->thread_local)
		state_rw(w, acc.io, e);
}

static void record_whole(Walk *w, Ptr p, AccessKind kind, const Expr *ref)
{
	if (p.kind == P_OBJ)
		p.off = IV_TOP;
	record(w, p, -1, kind, ref);
}

static void walk_expr(Walk *w, Expr *e);

/*
 * A chunk walk binds an integer local defined once to the value its
 * definition computes here, from the chunk's ranges: every value it ever
 * holds comes from that definition, so the range holds at the uses that
 * follow in the same scope (the binding ends with the scope).
 */
static void chunk_rebind(Walk *w, Var *v, Expr *rhs)
{
	VarInfo *vi = acc_lookup(v);

	if (!w->chunk || !vi || !range_goto_free() || !val_followable(v) || !val_single_def(vi) ||
	    vi->def != rhs || v->scope != VAR_LOCAL ||
	    !type_int(v->type, &(int){ 0 }, &(bool){ false }))
		return;
	val_env_push(&w->env, v, iv_convert(val_int(rhs, &w->env), v->type));
}

/*
 * A copy of the first IV taken in the step after the IV's own update
 * (`m++, c=m`), starting where the IV starts, holds the IV's value in
 * every iteration, converted to its type: it gets the IV's range r where
 * its type holds r, and its whole type's where not (an unsigned char copy
 * wraps at 256).  The split's check refuses a body that assigns a header
 * variable, so the copy keeps that value.
 */
static void push_first_iv_copies(Walk *w, const Loop *l, Ival r)
{
	ExprList parts = { 0 };
	const InductionVar *first = &l->ivs.items[0];
	bool moved = false;
	int64_t start, copy_start;

	if (!ir_const_eval(first->init, &start))
		return;
	ir_split_comma(l->step, &parts);
	for (uint32_t i = 0; i < parts.len; i++) {
		const Expr *u = parts.items[i];

		if (loop_updated_var(u) == first->var)
			moved = true;
		else if (moved && loop_copies_first_iv(l, u) &&
		         ir_const_eval(loop_init_of(l, u->lhs->var), &copy_start) && copy_start == start)
			val_env_push(&w->env, u->lhs->var, iv_convert(r, u->lhs->var->type));
	}
	array_free(&parts);
}

/* The iteration in which l's first IV has the value v, one of its values. */
static int64_t iteration_of(const Loop *l, int64_t v, int64_t step)
{
	return l->ivs.items[0].step > 0 ? (v - l->lower) / step : (l->lower - v) / step;
}

/*
 * The split loop s with its first IV restricted to [w->lo, w->hi): the
 * chunk runs iterations t0..t1 (counted from the loop's start, whichever
 * way it counts), and every IV k takes init_k + t * step_k there, and so
 * do the first IV's copies.  False when an IV's initial
 * value is not a constant or a value leaves its type.
 */
static bool push_split_loop(Walk *w, const Stmt *s)
{
	const Loop *l = s->loop;
	Ival first_range = { 0 };
	int64_t lo, hi, step, last, t0, t1;

	if (!l || l->trip_count < 1 || !loop_value_range(l, &lo, &hi, &step) || w->lo >= w->hi ||
	    w->lo < lo || w->hi > hi || (w->lo - lo) % step != 0)
		return false;
	last = lo + (w->hi - 1 - lo) / step * step;
	t0 = iteration_of(l, w->lo, step);
	t1 = iteration_of(l, last, step);
	if (t1 < t0) {
		int64_t t = t0;

		t0 = t1, t1 = t;
	}
	if (t0 < 0 || t1 >= l->trip_count)
		return false;
	for (uint32_t i = 0; i < l->ivs.len; i++) {
		const InductionVar *iv = &l->ivs.items[i];
		Ival init = val_int(iv->init, NULL), r, tr;

		if (!iv->step_known || !iv_is_const(init))
			return false;
		r = iv_join(iv_add(init, iv_mul(iv_const(t0), iv_const(iv->step))),
		            iv_add(init, iv_mul(iv_const(t1), iv_const(iv->step))));
		tr = iv_of_type(iv->var->type);
		if (r.lo == IV_NINF || r.hi == IV_PINF || r.lo < tr.lo || r.hi > tr.hi)
			return false;
		val_env_push(&w->env, iv->var, r);
		if (i == 0)
			first_range = r;
	}
	push_first_iv_copies(w, l, first_range);
	return true;
}

/*
 * A loop met by a chunk walk: the split loop gets the chunk's ranges, any
 * other loop's induction ranges are computed afresh in the current env
 * (narrower than the whole loop's when they follow an outer IV).
 */
static void push_chunk_loop(Walk *w, const Stmt *s)
{
	LoopInfo *li;

	if (w->part && w->part->split && s == w->part->loop) {
		if (!push_split_loop(w, s)) {
			w->failed = true;
			range_push_loop(&w->env, range_loop(s, &w->env));
		}
		return;
	}
	li = range_compute_loop(s, &w->env);
	range_push_loop(&w->env, li);
	free(li->binds);
	free(li);
}

/* Reads what computing lvalue e's address reads: subscripts, pointers. */
static void walk_addr(Walk *w, Expr *e)
{
	if (!e)
		return;
	switch (e->kind) {
	case EX_VAR:
	case EX_STR:
		return;
	case EX_INDEX:
		walk_expr(w, e->lhs);
		walk_expr(w, e->rhs);
		return;
	case EX_UNARY:
		if (e->op != OP_DEREF)
			break;
		walk_expr(w, e->lhs);
		return;
	case EX_MEMBER:
		if (e->op == OP_ARROW)
			walk_expr(w, e->lhs);
		else
			walk_addr(w, e->lhs);
		return;
	default:
		break;
	}
	walk_expr(w, e);
}

/* An access to lvalue e at p: as rows of an array of arrays where it walks them. */
static void record_lvalue(Walk *w, Expr *e, Ptr p, AccessKind kind)
{
	int64_t size = type_size(p.type);
	Var *base;
	RowSet rs;
	Region r;

	bool empty = true;

	/* the rows within the bytes the whole address's range allows (a condition may narrow it) */
	if (p.kind == P_OBJ && p.base && !type_is_volatile(p.base->type) && !type_is_volatile(p.type) &&
	    val_rows(e, &w->env, size, &base, &rs) && base == p.base)
		rs = region_rows_within(rs, p.off.lo == IV_NINF ? REGION_BEGIN : p.off.lo,
		                        p.off.hi == IV_PINF ? REGION_END : iv_clamp_hi((IvWide)p.off.hi + size), &empty);
	if (!empty) {
		region_init(&r, base);
		add_clamped_rows(&r, rs);
		sum_add(w, kind, &r, e);
		return;
	}
	record(w, p, size, kind, e);
}

/*
 * An element, in the split loop, of an array that this chunk works on a
 * copy of (privarr.c): the copy is the chunk's own, not the array.
 */
static bool on_copy(const Walk *w, const Expr *e)
{
	const SplitLoop *sl = w->part;
	const Expr *r = e;

	if (!sl || !sl->loop || !privarr_copies(sl, w->lo, w->hi) || e->start < sl->loop->start ||
	    e->end > sl->loop->end)
		return false;
	while (r->kind == EX_INDEX)
		r = r->lhs;
	for (uint32_t i = 0; r != e && r->kind == EX_VAR && i < sl->privarr.len; i++)
		if (sl->privarr.items[i].var == r->var)
			return true;
	return false;
}

static void access_lvalue(Walk *w, Expr *e, bool rd, bool wr)
{
	Ptr p;
	const Type *t;

	if (on_copy(w, e)) {
		walk_addr(w, e);
		return;
	}
	p = val_loc(e, &w->env);
	t = p.kind != P_UNKNOWN ? p.type : e->type; /* `*A`, A from an unknown call */

	if (rd && !wr && type_is_array(t)) {
		walk_addr(w, e); /* an array decays: only its address is computed */
		return;
	}
	if (rd)
		record_lvalue(w, e, p, ACC_READ);
	if (wr)
		record_lvalue(w, e, p, ACC_WRITE);
	walk_addr(w, e);
}

static void walk_name(Walk *w, Expr *e)
{
	if (e->is_constant) /* the lowering's: an enumerator, an integer #define, -D, a header's */
		return;
	switch (names_kind(e->name)) {
	case NM_CONST:
	case NM_FUNC:
	case NM_EXT:
	case NM_IOOBJ:
		return;
	default:
		set_barrier(w, e); /* a macro or an outside object we cannot see */
	}
}

static void walk_var(Walk *w, Expr *e)
{
	Var *v = e->var;

	note_thread_local(w, e);
	if (type_is_array(v->type)) {
		if (v->scope == VAR_PARAM) /* a parameter array is a pointer */
			record(w, val_ptr_obj(v, iv_const(0), NULL), 8, ACC_READ, e);
		return;
	}
	access_lvalue(w, e, true, false);
}

/* The definition of a pointer local that malloc's fresh memory: it is written. */
static void alloc_def(Walk *w, Var *v, const Expr *ref)
{
	VarInfo *vi = acc_lookup(v);

	if (vi && vi->target && acc_info(vi->target)->kind == OBJ_ALLOC)
		record_whole(w, val_ptr_obj(vi->target, IV_TOP, NULL), ACC_WRITE, ref);
}

static void walk_unary(Walk *w, Expr *e)
{
	switch (e->op) {
	case OP_ADDR:
		note_thread_local(w, e->lhs);
		if (e->lhs && e->lhs->kind == EX_NAME)
			walk_name(w, e->lhs);
		else
			walk_addr(w, e->lhs);
		return;
	case OP_DEREF:
		access_lvalue(w, e, true, false);
		return;
	case OP_PREINC:
	case OP_PREDEC:
	case OP_POSTINC:
	case OP_POSTDEC:
		access_lvalue(w, e->lhs, true, true);
		return;
	default:
		walk_expr(w, e->lhs);
	}
}

static void walk_assign(Walk *w, Expr *e)
{
	walk_expr(w, e->rhs);
	if (e->lhs && e->lhs->kind == EX_NAME) {
		walk_name(w, e->lhs);
		return;
	}
	access_lvalue(w, e->lhs, e->op != OP_ASSIGN, true);
	if (e->lhs && e->lhs->kind == EX_VAR) {
		alloc_def(w, e->lhs->var, e);
		if (e->op == OP_ASSIGN)
			chunk_rebind(w, e->lhs->var, e->rhs);
	}
}

/* A callee's access to its parameter's pointee, moved onto the argument q. */
static void map_region(Walk *w, const Region *cr, Ptr q, AccessKind kind, const Expr *ref)
{
	Region r;

	if (q.kind == P_NULL || q.kind == P_RODATA)
		return; /* a null pointer or a literal: no legal access reaches ours */
	if (q.kind != P_OBJ) {
		region_init(&r, NULL);
		region_set_whole(&r);
		sum_add(w, kind, &r, ref);
		return;
	}
	region_init(&r, q.base);
	if (cr->whole || iv_is_top(q.off)) {
		add_clamped(&r, REGION_BEGIN, REGION_END);
	} else {
		/* the rows move with one known offset; else their hulls in ranges do */
		const ByteRanges *plain = cr->rows.len && iv_is_const(q.off) ? &cr->exact : &cr->ranges;

		for (uint32_t i = 0; i < plain->len; i++) {
			int64_t lo = plain->items[i].lo, hi = plain->items[i].hi;

			lo = lo == REGION_BEGIN || q.off.lo == IV_NINF ? REGION_BEGIN : iv_clamp_lo((IvWide)lo + q.off.lo);
			hi = hi == REGION_END || q.off.hi == IV_PINF ? REGION_END : iv_clamp_hi((IvWide)hi + q.off.hi);
			add_clamped(&r, lo, hi);
		}
		for (uint32_t i = 0; plain == &cr->exact && i < cr->rows.len; i++)
			add_clamped_rows(&r, region_rows_shift(cr->rows.items[i], q.off.lo));
	}
	if (region_is_empty(&r))
		return;
	sum_add(w, kind, &r, ref);
}

/* Callee f's summary cs (its whole body's, or a chunk's) on the arguments of call e. */
static void map_summary(Walk *w, Expr *e, Func *f, const Summary *cs)
{
	if (cs->barrier)
		set_barrier(w, e);
	for (uint32_t i = 0; i < cs->acc.len; i++) {
		const Access *a = &cs->acc.items[i];
		VarInfo *bi = acc_lookup(a->region.base);

		if (bi && bi->kind == OBJ_POINTEE && bi->origin->func == f) {
			int k = acc_info(bi->origin)->param_index;
			Expr *actual = k >= 0 && (uint32_t)k < e->args.len ? e->args.items[k] : NULL;
			Ptr q = actual ? val_ptr(actual, &w->env) : val_ptr_make(P_UNKNOWN);

			if (q.kind == P_NONE || q.kind == P_SELF)
				q = val_ptr_make(P_UNKNOWN);
			map_region(w, &a->region, q, a->kind, actual ? actual : e);
		} else if (bi && bi->kind == OBJ_LOADED) {
			Region r; /* loaded in the callee's activation: unknown here */

			region_init(&r, NULL);
			region_set_whole(&r);
			sum_add(w, a->kind, &r, e);
		} else {
			Region r;

			region_copy(&r, &a->region);
			sum_add(w, a->kind, &r, e);
		}
	}
}

/* An SB or a call inside an MT: the callee's summary on our arguments. */
static void map_callee(Walk *w, Expr *e)
{
	Func *f = e->callee_func;
	FuncInfo *fi = acc_func(f);

	if (!fi || fi->state != FS_DONE || !fi->sum) {
		set_barrier(w, e); /* recursion */
		return;
	}
	map_summary(w, e, f, fi->sum);
}

/* memcpy, memmove, memset: n bytes at argument i. */
static void mem_span(Walk *w, Expr *e, uint32_t i, AccessKind kind)
{
	Ival n;

	if (e->args.len < 3) {
		set_barrier(w, e);
		return;
	}
	n = val_int(e->args.items[2], &w->env);
	if (n.hi <= 0)
		return;
	record(w, val_ptr(e->args.items[i], &w->env), n.hi == IV_PINF ? -1 : n.hi, kind,
	       e->args.items[i]);
}

static void walk_call(Walk *w, Expr *e)
{
	int arg = 0;
	ExtKind ext;

	for (uint32_t i = 0; i < e->args.len; i++)
		walk_expr(w, e->args.items[i]);
	if (e->callee_func) {
		map_callee(w, e);
		return;
	}
	if (!e->name || (e->lhs && e->lhs->kind != EX_NAME)) {
		walk_expr(w, e->lhs); /* through a function pointer */
		set_barrier(w, e);
		return;
	}
	ext = names_call_ext(e, &arg);
	switch (ext) {
	case EXT_PURE:
		return;
	case EXT_MEMCPY:
		mem_span(w, e, 0, ACC_WRITE);
		mem_span(w, e, 1, ACC_READ);
		return;
	case EXT_MEMSET:
		mem_span(w, e, 0, ACC_WRITE);
		return;
	case EXT_ALLOC:
		if (!(w->chunk && scratch_call(e)))
			state_rw(w, acc.allocator, e);
		return;
	case EXT_FREE:
		if (w->chunk && scratch_call(e))
			return; /* a clone gives nothing back: the caller or the stack owns it */
		if (arg >= 0 && (uint32_t)arg < e->args.len)
			record_whole(w, val_ptr(e->args.items[arg], &w->env), ACC_WRITE, e);
		else
			set_barrier(w, e);
		state_rw(w, acc.allocator, e);
		return;
	case EXT_ERRNO:
		state_rw(w, acc.io, e); /* errno is the thread's: the calls keep their order */
		return;
	case EXT_IO:
		state_rw(w, acc.io, e);
		for (uint32_t i = 0; i < e->args.len; i++) {
			Ptr p = val_ptr(e->args.items[i], &w->env);

			record_whole(w, p, ACC_READ, e->args.items[i]);
			record_whole(w, p, ACC_WRITE, e->args.items[i]); /* %n */
		}
		return;
	default:
		set_barrier(w, e);
	}
}

static void walk_expr(Walk *w, Expr *e)
{
	uint32_t mark;

	if (!e)
		return;
	switch (e->kind) {
	case EX_NUM:
	case EX_STR:
	case EX_SIZEOF:
		return;
	case EX_NAME:
		walk_name(w, e);
		return;
	case EX_VAR:
		walk_var(w, e);
		return;
	case EX_UNARY:
		walk_unary(w, e);
		return;
	case EX_ASSIGN:
		walk_assign(w, e);
		return;
	case EX_COND:
		mark = w->env.len;
		walk_expr(w, e->cond);
		range_narrow_expr(&w->env, e->cond, false, e->lhs);
		walk_expr(w, e->lhs);
		w->env.len = mark;
		range_narrow_expr(&w->env, e->cond, true, e->rhs);
		walk_expr(w, e->rhs);
		w->env.len = mark;
		return;
	case EX_CALL:
		walk_call(w, e);
		return;
	case EX_INDEX:
	case EX_MEMBER:
		access_lvalue(w, e, true, false);
		return;
	case EX_OTHER:
		set_barrier(w, e);
		return;
	default:
		walk_expr(w, e->cond);
		walk_expr(w, e->lhs);
		walk_expr(w, e->rhs);
		for (uint32_t i = 0; i < e->args.len; i++)
			walk_expr(w, e->args.items[i]);
	}
}

static void walk_stmt(Walk *w, Stmt *s);

/* Is s part of the MT being walked?  A branch test owns no arm. */
static bool in_mt(const Walk *w, const Stmt *s)
{
	return !w->mt || (s->start >= w->mt->start && s->end <= w->mt->end);
}

/* A compound statement written with braces (not one the lowering made up). */
static bool real_block(const Walk *w, const Stmt *s)
{
	return w->src && s->start < w->src->len && w->src->text[s->start] == '{';
}

/* An arm or a loop body is a scope of its own. */
static void walk_scope(Walk *w, Stmt *s)
{
	w->depth++;
	walk_stmt(w, s);
	w->depth--;
}

static void walk_decl(Walk *w, Stmt *s)
{
	Var *v = s->var;

	if (!v) {
		walk_expr(w, s->expr);
		return;
	}
	if (w->depth > 0 && v->storage != SC_STATIC && v->storage != SC_EXTERN)
		array_push(&w->priv, v);
	if (!s->expr || v->storage == SC_STATIC)
		return; /* a static's initializer runs once, before the program */
	walk_expr(w, s->expr);
	record(w, val_ptr_obj(v, iv_const(0), v->type), type_size(v->type), ACC_WRITE, s->expr);
	if (!(w->chunk && scratch_of(v)))
		alloc_def(w, v, s->expr); /* a clone's workspace is not fresh: its parts share it */
	chunk_rebind(w, v, s->expr);
}

static void walk_loop(Walk *w, Stmt *s)
{
	uint32_t mark = w->env.len;
	Loop *l = s->loop;

	w->depth++;
	for (uint32_t i = 0; i < l->init.len; i++)
		walk_stmt(w, l->init.items[i]);
	walk_expr(w, l->cond);
	if (w->chunk)
		push_chunk_loop(w, s);
	else
		range_push_loop(&w->env, range_loop(s, &w->env));
	walk_scope(w, l->body);
	walk_expr(w, l->step);
	w->env.len = mark;
	w->depth--;
}

static void walk_stmt(Walk *w, Stmt *s)
{
	uint32_t mark = w->env.len;
	bool real;

	if (!s)
		return;
	switch (s->kind) {
	case ST_EXPR:
	case ST_RETURN:
		walk_expr(w, s->expr);
		break;
	case ST_DECL:
		walk_decl(w, s);
		break;
	case ST_BLOCK:
		real = real_block(w, s);
		w->depth += real;
		for (uint32_t i = 0; i < s->body.len; i++)
			walk_stmt(w, s->body.items[i]);
		w->depth -= real;
		break;
	case ST_IF:
		walk_expr(w, s->expr);
		if (s->then && in_mt(w, s->then)) {
			range_narrow_arm(&w->env, s->expr, false, s->then);
			walk_scope(w, s->then);
			w->env.len = mark;
		}
		if (s->els && in_mt(w, s->els)) {
			range_narrow_arm(&w->env, s->expr, true, s->els);
			walk_scope(w, s->els);
			w->env.len = mark;
		}
		break;
	case ST_FOR:
	case ST_WHILE:
	case ST_DO:
		if (s->loop)
			walk_loop(w, s);
		else
			set_barrier(w, NULL);
		break;
	case ST_SWITCH:
		walk_expr(w, s->expr);
		walk_scope(w, s->then);
		break;
	case ST_CASE:
	case ST_LABEL:
		walk_expr(w, s->expr);
		walk_stmt(w, s->then);
		break;
	case ST_GOTO:
		if (s->expr) {
			walk_expr(w, s->expr);
			set_barrier(w, s->expr);
		}
		break;
	case ST_ASM:
	case ST_OTHER:
		set_barrier(w, NULL);
		break;
	default:
		break;
	}
}


/* Is v one of w's private objects?  priv_set indexes them when there are many. */
static bool in_priv(const Walk *w, const KeyMap *priv_set, const Var *v)
{
	uint32_t at;

	if (priv_set->cap)
		return map_get(priv_set, access_key(v, ACC_READ), &at);
	return obj_in_list(&w->priv, v);
}

static bool is_private(const Walk *w, const KeyMap *priv_set, const Var *b)
{
	VarInfo *bi = acc_lookup(b);

	if (!b)
		return false;
	if (bi && bi->kind == OBJ_ALLOC && w->chunk && bi->origin && bi->origin->scope == VAR_LOCAL) {
		const Scratch *sc = scratch_of(bi->origin);

		if (sc && sc->top)
			return false; /* the chunks of one call share it */
	}
	if (bi && bi->kind == OBJ_ALLOC)
		return !bi->escapes && in_priv(w, priv_set, bi->origin);
	return in_priv(w, priv_set, b);
}

/* Leaves out the objects whose lifetime ends inside the walked code. */
static void drop_private(Walk *w)
{
	Summary *s = w->sum;
	KeyMap priv_set = { 0 };
	uint32_t j = 0;

	for (uint32_t i = 0; w->priv.len >= INDEXED_FROM && i < w->priv.len; i++)
		map_put(&priv_set, access_key(w->priv.items[i], ACC_READ), i);
	for (uint32_t i = 0; i < s->acc.len; i++) {
		Access *a = &s->acc.items[i];

		if (is_private(w, &priv_set, a->region.base)) {
			region_free(&a->region);
			continue;
		}
		s->acc.items[j++] = *a;
	}
	s->acc.len = j;
	map_free(&priv_set);
}

static void walk_done(Walk *w)
{
	drop_private(w);
	array_free(&w->priv);
	array_free(&w->env);
	map_free(&w->index);
}

/* What one call of f does: its locals and parameters' storage left out. */
Summary *sum_func(Func *f)
{
	Walk w = { 0 };

	w.sum = ARENA_NEW(Summary);
	w.src = f->src;
	w.depth = 1;
	for (uint32_t i = 0; i < f->params.len; i++)
		array_push(&w.priv, f->params.items[i]);
	for (uint32_t i = 0; i < f->locals.len; i++) {
		Var *v = f->locals.items[i];

		if (v->storage != SC_STATIC && v->storage != SC_EXTERN)
			array_push(&w.priv, v);
	}
	if (f->body)
		walk_stmt(&w, f->body);
	if (f->unmodelled.len) {
		for (uint32_t i = 0; i < f->unmodelled.len; i++)
			if (BARRIER_KINDS & (1u << f->unmodelled.items[i].kind))
				set_barrier(&w, NULL);
	}
	walk_done(&w);
	return w.sum;
}

static Summary *mt_summary(Func *f, const MT *mt, const Env *env)
{
	Walk w = { 0 };

	w.sum = ARENA_NEW(Summary);
	w.mt = mt;
	w.src = f->src;
	for (uint32_t i = 0; i < env->len; i++)
		array_push(&w.env, env->items[i]);
	for (uint32_t i = 0; i < mt->stmts.len; i++)
		walk_stmt(&w, mt->stmts.items[i]);
	if (mt->unmodelled & BARRIER_KINDS)
		set_barrier(&w, NULL);
	walk_done(&w);
	return w.sum;
}

static void branch_env(Env *env, const MT *c);

/*
 * The callee g's prologue (its top-level statements outside loops) and,
 * when part is given, that one top-level loop with the chunk's ranges, in
 * g's terms: its locals and its parameters' storage left out.  NULL when
 * the part is not a top-level loop of g or the chunk cannot be bound.
 */
static Summary *chunk_walk(Func *g, const SplitLoop *part, int64_t lo, int64_t hi)
{
	Walk w = { 0 };
	bool found = part == NULL, ok;

	w.sum = ARENA_NEW(Summary);
	w.src = g->src;
	w.depth = 1;
	w.chunk = true;
	w.part = part;
	w.lo = lo;
	w.hi = hi;
	for (uint32_t i = 0; i < g->params.len; i++)
		array_push(&w.priv, g->params.items[i]);
	for (uint32_t i = 0; i < g->locals.len; i++) {
		Var *v = g->locals.items[i];

		if (v->storage != SC_STATIC && v->storage != SC_EXTERN)
			array_push(&w.priv, v);
	}
	acc.cur = g;
	for (uint32_t i = 0; i < g->mt->children.len; i++) {
		MT *c = g->mt->children.items[i];

		if (c->kind == MT_RB) {
			if (part && c->loop == part->top) {
				walk_stmt(&w, c->loop);
				found = true;
			}
			continue;
		}
		for (uint32_t j = 0; j < c->stmts.len; j++) {
			Stmt *s = c->stmts.items[j];

			if (!decomp_in_prologue(g, s) && s->kind != ST_RETURN) { /* a part of its own */
				if (!part || part->top != s)
					continue;
				found = true;
			}
			walk_stmt(&w, s);
		}
	}
	for (uint32_t i = 0; i < g->unmodelled.len; i++)
		if (BARRIER_KINDS & (1u << g->unmodelled.items[i].kind))
			set_barrier(&w, NULL);
	ok = found && !w.failed;
	walk_done(&w);
	acc.cur = NULL;
	return ok ? w.sum : NULL;
}

/* The callee's top-level workspaces in a chunk's summary become sb's own objects. */
static void rebase_scratch(Summary *sum, const MT *sb)
{
	for (uint32_t i = 0; i < sum->acc.len; i++) {
		Region *r = &sum->acc.items[i].region;
		VarInfo *bi = acc_lookup(r->base);
		const Scratch *sc;

		if (!bi || bi->kind != OBJ_ALLOC || !bi->origin)
			continue;
		sc = scratch_of(bi->origin);
		if (sc && sc->top)
			r->base = scratch_object(sb, sc->var);
	}
}

Summary *sum_chunk(const MT *sb, const SplitLoop *part, int64_t lo, int64_t hi)
{
	Func *g = sb && sb->kind == MT_SB ? sb->callee : NULL;
	FuncInfo *fi = g ? acc_func(g) : NULL;
	Summary *inner;
	Walk w = { 0 };

	if (!fi || fi->state != FS_DONE || !g->mt || !sb->call || !sb->func ||
	    sb->call->callee_func != g)
		return NULL;
	inner = chunk_walk(g, part, lo, hi);
	if (!inner)
		return NULL;
	w.sum = ARENA_NEW(Summary);
	w.mt = sb;
	w.src = sb->func->src;
	acc.cur = sb->func;
	branch_env(&w.env, sb);
	for (uint32_t i = 0; i < sb->call->args.len; i++)
		walk_expr(&w, sb->call->args.items[i]);
	map_summary(&w, sb->call, g, inner);
	if (sb->unmodelled & BARRIER_KINDS)
		set_barrier(&w, NULL);
	walk_done(&w);
	acc.cur = g;
	rebase_scratch(w.sum, sb);
	acc.cur = NULL;
	return w.sum;
}

Summary *sum_slice(const MT *rb, const SplitLoop *sl, int64_t lo, int64_t hi)
{
	Func *f = rb && rb->kind == MT_RB ? rb->func : NULL;
	FuncInfo *fi = f ? acc_func(f) : NULL;
	Walk w = { 0 };
	bool ok;

	if (!fi || fi->state != FS_DONE || !sl || sl->top != rb->loop || !sl->loop ||
	    sl->loop->start < rb->loop->start || sl->loop->end > rb->loop->end)
		return NULL;
	w.sum = ARENA_NEW(Summary);
	w.mt = rb;
	w.src = f->src;
	w.chunk = true; /* locals declared in the loop are private: the walk's depth is 1 there */
	w.part = sl;
	w.lo = lo;
	w.hi = hi;
	for (uint32_t i = 0; i < sl->privates.len; i++) /* counters each slice declares again */
		array_push(&w.priv, (Var *)sl->privates.items[i]);
	acc.cur = f;
	branch_env(&w.env, rb);
	walk_stmt(&w, rb->loop);
	ok = !w.failed;
	walk_done(&w);
	acc.cur = NULL;
	return ok ? w.sum : NULL;
}

/* What the branches an MT runs under say of its variables. */
static void branch_env(Env *env, const MT *c)
{
	for (const MT *m = c; m->branch_mt; m = m->branch_mt) {
		const MT *t = m->branch_mt;
		const Stmt *s = t->stmts.len ? t->stmts.items[0] : NULL;

		const Stmt *arm = !s || s->kind != ST_IF ? NULL : m->branch_dir ? s->then : s->els;

		if (arm && c->start >= arm->start && c->end <= arm->end)
			range_narrow_arm(env, s->expr, !m->branch_dir, arm);
	}
}

void sum_level(Func *f, MT *parent, Env *env)
{
	for (uint32_t i = 0; i < parent->children.len; i++) {
		MT *c = parent->children.items[i];
		uint32_t mark = env->len;

		branch_env(env, c);
		c->summary = mt_summary(f, c, env);
		if (c->kind == MT_RB && c->loop && c->loop->loop) {
			range_push_loop(env, range_loop(c->loop, env));
			sum_level(f, c, env);
		}
		env->len = mark;
	}
}


/* ------------------------------------------------------------------ */
/* --dump=mfg                                                          */
/* ------------------------------------------------------------------ */

static int cmp_access(const void *x, const void *y)
{
	const Access *a = *(const Access *const *)x, *b = *(const Access *const *)y;
	int ia = a->region.base ? a->region.base->id : -1;
	int ib = b->region.base ? b->region.base->id : -1;

	return (ia > ib) - (ia < ib);
}

void sum_dump(FILE *out, const MT *mt)
{
	const Summary *s = mt->summary;
	const Access **sorted;

	if (!s)
		return;
	sorted = xmalloc((s->acc.len + 1) * sizeof(*sorted));
	for (int k = ACC_READ; k <= ACC_WRITE; k++) {
		uint32_t n = 0;

		for (uint32_t i = 0; i < s->acc.len; i++)
			if (s->acc.items[i].kind == (AccessKind)k)
				sorted[n++] = &s->acc.items[i];
		if (!n)
			continue;
		qsort(sorted, n, sizeof(*sorted), cmp_access);
		fputs(k == ACC_READ ? "reads" : "writes", out);
		for (uint32_t i = 0; i < n; i++) {
			fputc(' ', out);
			region_print(out, &sorted[i]->region);
		}
		fputc('\n', out);
	}
	free(sorted);
	if (s->barrier) {
		fputs("barrier", out);
		if (s->barrier_at && mt->func && mt->func->src) {
			uint32_t line, col;

			source_pos(mt->func->src, s->barrier_at->start, &line, &col);
			fprintf(out, " %u:%u", line, col);
		}
		fputc('\n', out);
	}
}
