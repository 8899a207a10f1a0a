/*
 * values.c - access analysis: the interval of values an integer expression
 * may take and where a pointer expression leads (base object, byte offset),
 * following locals defined once; and functions that return one constant.
 */
#include "middle.h"

/* ------------------------------------------------------------------ */
/* Values: integer intervals and pointer targets                        */
/* ------------------------------------------------------------------ */

const Bind *val_env_find(const Env *env, const Var *v)
{
	for (uint32_t i = env ? env->len : 0; i-- > 0;)
		if (env->items[i].var == v)
			return &env->items[i];
	return NULL;
}

void val_env_push(Env *env, const Var *v, Ival val)
{
	Bind b = { v, val, NULL };

	array_push(env, b);
}

/* Same computation (for pure expressions: no calls, no memory). */
static bool expr_equal(const Expr *a, const Expr *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind || a->op != b->op)
		return false;
	switch (a->kind) {
	case EX_NUM:
		return a->num.is_float == b->num.is_float && a->num.ival == b->num.ival &&
		       (!a->num.is_float || a->num.fval == b->num.fval);
	case EX_VAR:
		return a->var == b->var;
	case EX_NAME:
		return a->name == b->name;
	case EX_CAST:
		if (a->cast_type != b->cast_type &&
		    (!a->cast_type || !b->cast_type || a->cast_type->kind != b->cast_type->kind ||
		     a->cast_type->size != b->cast_type->size || a->cast_type->tag != b->cast_type->tag ||
		     a->cast_type->is_unsigned != b->cast_type->is_unsigned))
			return false;
		return expr_equal(a->lhs, b->lhs);
	case EX_UNARY:
	case EX_BINARY:
		return expr_equal(a->lhs, b->lhs) && expr_equal(a->rhs, b->rhs);
	default:
		return false;
	}
}

Ptr val_ptr_make(PtrKind kind) { return (Ptr){ kind, NULL, { 0, 0 }, NULL }; }

Ptr val_ptr_obj(Var *base, Ival off, Type *type)
{
	return (Ptr){ P_OBJ, base, off, type };
}

/* A local or parameter whose value the analysis may follow. */
bool val_followable(const Var *v)
{
	VarInfo *vi = acc_lookup(v);

	/* the lowering's addr_taken also counts an array decaying into a call */
	return vi && (v->scope == VAR_LOCAL || v->scope == VAR_PARAM) &&
	       v->storage != SC_STATIC && !vi->addr &&
	       !(v->addr_taken && !type_is_array(v->type)) &&
	       !(v->type && v->type->is_volatile) && vi->kind == OBJ_VAR;
}

/* Defined exactly once, by a plain '=' or an initializer. */
bool val_single_def(const VarInfo *vi)
{
	return vi->ndefs == 1 && vi->def && !vi->self_def;
}

int64_t val_alloc_size(const Expr *call, int arg)
{
	Ival n;

	if (arg == EXT_ARG_COUNT_SIZE && call->args.len >= 2)
		n = iv_mul(val_int(call->args.items[0], NULL), val_int(call->args.items[1], NULL));
	else if (arg >= 0 && (uint32_t)arg < call->args.len)
		n = val_int(call->args.items[arg], NULL);
	else
		return -1;
	return iv_is_const(n) && n.lo > 0 ? n.lo : -1;
}

/* Is statement d, at a function's top level, v's definition by rhs? */
static bool top_def(const Stmt *d, const Var *v, const Expr *rhs)
{
	const Expr *e = d->expr;

	if (d->kind == ST_DECL)
		return d->var == v && e == rhs;
	return d->kind == ST_EXPR && e && e->kind == EX_ASSIGN && e->op == OP_ASSIGN && e->rhs == rhs &&
	       e->lhs && e->lhs->kind == EX_VAR && e->lhs->var == v;
}

/*
 * Pointer local v is defined once, by rhs, a load from memory or what a
 * call returns (PolyBench's polybench_alloc_data, defined elsewhere), in a
 * statement at its function's top level (run once per call: no goto): its
 * value is fixed, so the memory it points to is an object of its own.
 */
static bool loaded_once(const Var *v, const VarInfo *vi, const Expr *rhs)
{
	const Stmt *body = v->func ? v->func->body : NULL;
	const Expr *e = ir_strip_casts(rhs);
	FuncInfo *fi = v->func ? acc_func(v->func) : NULL;

	if (v->scope != VAR_LOCAL || !type_is_ptr(v->type) || !val_single_def(vi) || vi->def != rhs ||
	    v->addr_taken || !body || !fi || fi->has_goto || !e ||
	    !(e->kind == EX_INDEX || e->kind == EX_MEMBER || e->kind == EX_CALL ||
	      (e->kind == EX_UNARY && e->op == OP_DEREF)))
		return false;
	for (uint32_t i = 0; i < body->body.len; i++)
		if (top_def(body->body.items[i], v, rhs))
			return true;
	return false;
}

/* The value of pointer v's definition rhs, evaluated in env. */
Ptr val_def_ptr(Var *v, Expr *rhs, const Env *env)
{
	Expr *call = ir_strip_casts(rhs);
	Type *pt = type_is_ptr(v->type) ? v->type->base : NULL;
	VarInfo *vi = acc_info(v);
	int arg;
	Ptr p;

	if (call && call->kind == EX_CALL && !call->callee_func &&
	    names_call_ext(call, &arg) == EXT_ALLOC) {
		if (!val_single_def(vi))
			return val_ptr_make(P_UNKNOWN);
		return val_ptr_obj(obj_star(v, OBJ_ALLOC, val_alloc_size(call, arg)), iv_const(0), pt);
	}
	p = val_ptr(rhs, env);
	if (p.kind == P_UNKNOWN && loaded_once(v, vi, rhs))
		p = val_ptr_obj(obj_star(v, OBJ_LOADED, -1), iv_const(0), pt);
	if (pt && p.kind == P_OBJ)
		p.type = pt;
	return p;
}

/*
 * The one base every definition of a multiply-defined pointer leads to
 * (p++, p += k keep it), with an unknown offset; P_UNKNOWN when they differ.
 */
static Ptr stable_base(Var *v)
{
	VarInfo *vi = acc_info(v);
	Ptr r = val_ptr_make(P_NONE);

	if (vi->base_done)
		return vi->ptr;
	vi->busy = true;
	if (v->scope == VAR_PARAM)
		r = val_ptr_obj(obj_star(v, OBJ_POINTEE, -1), IV_TOP, NULL);
	for (uint32_t i = 0; i < vi->rhs.len; i++) {
		Ptr p = val_def_ptr(v, vi->rhs.items[i], NULL);

		if (p.kind == P_SELF || p.kind == P_NULL)
			continue;
		if (r.kind == P_NONE)
			r = p;
		else if (!(r.kind == P_OBJ && p.kind == P_OBJ && r.base == p.base) &&
		         !(r.kind == P_RODATA && p.kind == P_RODATA))
			r = val_ptr_make(P_UNKNOWN);
	}
	if (r.kind == P_NONE)
		r = val_ptr_make(P_UNKNOWN);
	r.off = IV_TOP;
	r.type = type_is_ptr(v->type) ? v->type->base :
	         type_is_array(v->type) ? v->type->base : NULL;
	vi->busy = false;
	vi->base_done = true;
	vi->ptr = r;
	return r;
}

/* The pointer value of variable v (an array decays). */
Ptr val_var_ptr(Var *v)
{
	Type *t = v->type;
	VarInfo *vi;

	if (type_is_array(t) && v->scope != VAR_PARAM)
		return val_ptr_obj(v, iv_const(0), t->base);
	if (!t || !(t->kind == TY_PTR || t->kind == TY_ARRAY || t->kind == TY_NAMED))
		return val_ptr_make(P_NONE);
	if (t->kind == TY_NAMED && type_int_typedef(t->tag, &(int){ 0 }, &(bool){ false }))
		return val_ptr_make(P_NONE);
	if (!val_followable(v))
		return val_ptr_make(P_UNKNOWN);
	vi = acc_info(v);
	if (vi->busy)
		return val_ptr_make(P_SELF);
	if (v->scope == VAR_PARAM && vi->ndefs == 0)
		return val_ptr_obj(obj_star(v, OBJ_POINTEE, -1), iv_const(0), t->base);
	if (val_single_def(vi) && v->scope == VAR_LOCAL) {
		Ptr p;

		if (vi->has_val)
			return vi->ptr;
		vi->busy = true; /* used before its definition was reached */
		p = val_def_ptr(v, vi->def, NULL);
		vi->busy = false;
		return p.kind == P_SELF ? val_ptr_make(P_UNKNOWN) : p;
	}
	if (vi->ndefs == 0)
		return val_ptr_make(P_UNKNOWN); /* never set: reading it is undefined */
	return stable_base(v);
}

/* The integer value of variable v outside the environment. */
Ival val_var_int(Var *v)
{
	VarInfo *vi = acc_lookup(v);
	Ival r = iv_of_type(v->type);

	if (v->bound) /* every caller passes this value, or only its initializer sets it */
		return iv_const(v->bound_value);
	if (!val_followable(v) || !val_single_def(vi) || v->scope != VAR_LOCAL)
		return r;
	if (vi->has_val)
		return vi->val;
	if (vi->busy)
		return r;
	vi->busy = true;
	r = iv_convert(val_int(vi->def, NULL), v->type);
	vi->busy = false;
	return r;
}

static Ival arith(OpKind op, Ival a, Ival b)
{
	switch (op) {
	case OP_ADD: return iv_add(a, b);
	case OP_SUB: return iv_add(a, iv_neg(b));
	case OP_MUL: return iv_mul(a, b);
	case OP_DIV: return iv_div(a, b);
	case OP_MOD: return iv_mod(a, b);
	case OP_SHR: return iv_shr(a, b);
	case OP_SHL: return iv_shl(a, b);
	case OP_BITAND: return iv_and(a, b);
	case OP_BITOR: case OP_BITXOR: return iv_or(a, b);
	default: return IV_TOP;
	}
}

/*
 * Unsigned arithmetic wraps: a result that leaves its type's range, as
 * numbers, may be any value of it (`k * 42949673u * 100` is 4 * k).  A
 * signed result that leaves it is undefined, and stays as computed.
 */
static Ival wrapped(const Expr *e, Ival r)
{
	int size;
	bool uns = false;

	if (!e->type || !type_int(e->type, &size, &uns) || !uns)
		return r;
	return iv_convert(r, e->type);
}

static Ival eval_binary(const Expr *e, const Env *env)
{
	Ival a, b;

	switch (e->op) {
	case OP_LT: case OP_GT: case OP_LE: case OP_GE: case OP_EQ: case OP_NE:
	case OP_LOGAND: case OP_LOGOR:
		return (Ival){ 0, 1 };
	default:
		break;
	}
	a = val_int(e->lhs, env);
	b = val_int(e->rhs, env);
	return wrapped(e, arith(e->op, a, b));
}

static Ival eval_int1(const Expr *e, const Env *env);

/*
 * Every value integer expression e may take in env; IV_TOP when unknown.  A
 * condition known to hold on e (`1 <= (i % 130)`) narrows it further.
 */
Ival val_int(const Expr *e, const Env *env)
{
	Ival r = eval_int1(e, env);
	bool empty;

	if (!e || e->kind == EX_VAR || e->kind == EX_NUM)
		return r;
	for (uint32_t i = 0; env && i < env->len; i++) {
		const Bind *b = &env->items[i];
		Ival m;

		if (b->expr && expr_equal(b->expr, e)) {
			m = iv_meet(r, b->val, &empty);
			if (!empty)
				r = m;
		}
	}
	return r;
}

static Ival eval_int1(const Expr *e, const Env *env)
{
	const Bind *b;

	if (!e)
		return IV_TOP;
	switch (e->kind) {
	case EX_NUM:
		return e->num.is_float ? IV_TOP : iv_const(e->num.ival);
	case EX_SIZEOF:
		return e->num.ival > 0 ? iv_const(e->num.ival) : IV_TOP;
	case EX_VAR:
		if ((b = val_env_find(env, e->var)))
			return b->val;
		return val_var_int(e->var);
	case EX_NAME: {
		int64_t v;

		if (e->is_constant)
			return iv_const(e->num.ival);
		return names_value(e->name, &v) ? iv_const(v) : IV_TOP;
	}
	case EX_UNARY:
		switch (e->op) {
		case OP_NEG: return iv_neg(val_int(e->lhs, env));
		case OP_PLUS: return val_int(e->lhs, env);
		case OP_BITNOT: return iv_add(iv_neg(val_int(e->lhs, env)), iv_const(-1));
		case OP_NOT: return (Ival){ 0, 1 };
		default: return IV_TOP;
		}
	case EX_BINARY:
		return eval_binary(e, env);
	case EX_COND:
		return iv_join(val_int(e->lhs, env), val_int(e->rhs, env));
	case EX_COMMA:
		return val_int(e->rhs, env);
	case EX_CAST:
		if (iv_of_type(e->cast_type).lo == IV_NINF && iv_of_type(e->cast_type).hi == IV_PINF &&
		    !(e->cast_type && type_int(e->cast_type, &(int){ 0 }, &(bool){ false })))
			return IV_TOP; /* float or unknown type */
		return iv_convert(val_int(e->lhs, env), e->cast_type);
	default:
		return IV_TOP;
	}
}

/* An lvalue of array type decays; one of pointer type is a loaded pointer. */
static Ptr decay_or_load(Ptr l)
{
	if (l.kind != P_OBJ && l.kind != P_UNKNOWN && l.kind != P_RODATA)
		return l;
	if (type_is_array(l.type)) {
		l.type = l.type->base;
		return l;
	}
	if (l.kind == P_RODATA)
		return val_ptr_make(P_NONE);
	if (!l.type || type_is_ptr(l.type) ||
	    (l.type->kind == TY_NAMED && !type_int_typedef(l.type->tag, &(int){ 0 }, &(bool){ false })))
		return val_ptr_make(P_UNKNOWN);
	return val_ptr_make(P_NONE);
}

/* p + k elements (k bytes for void). */
static Ptr ptr_offset(Ptr p, Ival k)
{
	int64_t size;

	if (p.kind != P_OBJ)
		return p;
	size = type_size(p.type);
	p.off = size > 0 ? iv_add(p.off, iv_mul(k, iv_const(size))) : IV_TOP;
	return p;
}

static Ptr ptr_join(Ptr a, Ptr b)
{
	if (a.kind == P_NULL || a.kind == P_SELF)
		return b;
	if (b.kind == P_NULL || b.kind == P_SELF)
		return a;
	if (a.kind == P_NONE && b.kind == P_NONE)
		return a;
	if (a.kind == P_RODATA && b.kind == P_RODATA)
		return a;
	if (a.kind == P_OBJ && b.kind == P_OBJ && a.base == b.base) {
		a.off = iv_join(a.off, b.off);
		if (type_size(a.type) != type_size(b.type))
			a.type = NULL;
		return a;
	}
	return val_ptr_make(P_UNKNOWN);
}

static Ptr resolve_cast(const Expr *e, const Env *env)
{
	Type *t = e->cast_type;
	Ptr p;

	if (t && t->kind == TY_PTR) {
		p = val_ptr(e->lhs, env);
		if (p.kind == P_NONE)
			return val_ptr_make(P_UNKNOWN); /* an integer made a pointer */
		p.type = t->base;
		return p;
	}
	if (t && t->kind == TY_NAMED && !type_int_typedef(t->tag, &(int){ 0 }, &(bool){ false })) {
		p = val_ptr(e->lhs, env);
		p.type = NULL;
		return p;
	}
	return val_ptr_make(P_NONE);
}

static Ptr resolve_call(const Expr *e, const Env *env)
{
	int arg;

	if (e->callee_func)
		return type_is_ptr(e->callee_func->ret) ? val_ptr_make(P_UNKNOWN) : val_ptr_make(P_NONE);
	switch (names_call_ext(e, &arg)) {
	case EXT_PURE:
		/* a value computed from its arguments: a pointer only if one came in */
		for (uint32_t i = 0; i < e->args.len; i++)
			if (val_ptr(e->args.items[i], env).kind > P_NULL)
				return val_ptr_make(P_UNKNOWN);
		return val_ptr_make(P_NONE);
	case EXT_MEMCPY:
	case EXT_MEMSET:
		return e->args.len ? val_ptr(e->args.items[0], env) : val_ptr_make(P_UNKNOWN);
	default:
		return val_ptr_make(P_UNKNOWN);
	}
}

static Ptr locate(const Expr *e, const Env *env, bool address_only);

/* Where the pointer value of e leads. */
Ptr val_ptr(const Expr *e, const Env *env)
{
	Ptr p, q;

	if (!e)
		return val_ptr_make(P_UNKNOWN);
	switch (e->kind) {
	case EX_VAR:
		return val_var_ptr(e->var);
	case EX_NAME: {
		int64_t v;
		if (names_value(e->name, &v) && v == 0)
			return val_ptr_make(P_NULL);
		return names_kind(e->name) == NM_IOOBJ ? val_ptr_make(P_RODATA) : val_ptr_make(P_UNKNOWN);
	}
	case EX_NUM:
		return !e->num.is_float && e->num.ival == 0 ? val_ptr_make(P_NULL) : val_ptr_make(P_NONE);
	case EX_STR:
		return val_ptr_make(P_RODATA);
	case EX_UNARY:
		if (e->op == OP_ADDR)
			return locate(e->lhs, env, true);
		if (e->op == OP_DEREF)
			return decay_or_load(val_loc(e, env));
		if (ir_is_incdec(e) || e->op == OP_PLUS)
			return val_ptr(e->lhs, env);
		return val_ptr_make(P_NONE);
	case EX_INDEX:
	case EX_MEMBER:
		return decay_or_load(val_loc(e, env));
	case EX_CAST:
		return resolve_cast(e, env);
	case EX_BINARY:
		if (e->op == OP_ADD) {
			p = val_ptr(e->lhs, env);
			if (p.kind != P_NONE)
				return ptr_offset(p, val_int(e->rhs, env));
			p = val_ptr(e->rhs, env);
			return p.kind == P_NONE ? p : ptr_offset(p, val_int(e->lhs, env));
		}
		if (e->op == OP_SUB) {
			p = val_ptr(e->lhs, env);
			q = val_ptr(e->rhs, env);
			if (p.kind == P_NONE || (q.kind != P_NONE && q.kind != P_NULL))
				return val_ptr_make(P_NONE); /* integer, or a pointer difference */
			return ptr_offset(p, iv_neg(val_int(e->rhs, env)));
		}
		return val_ptr_make(P_NONE);
	case EX_COND:
		return ptr_join(val_ptr(e->lhs, env), val_ptr(e->rhs, env));
	case EX_COMMA:
		return val_ptr(e->rhs, env);
	case EX_ASSIGN:
		return e->op == OP_ASSIGN ? val_ptr(e->rhs, env) : val_ptr(e->lhs, env);
	case EX_CALL:
		return resolve_call(e, env);
	case EX_SIZEOF:
		return val_ptr_make(P_NONE);
	default:
		return val_ptr_make(P_UNKNOWN);
	}
}

static Ptr resolve_member(const Expr *e, const Env *env)
{
	Ptr p = e->op == OP_ARROW ? val_ptr(e->lhs, env) : val_loc(e->lhs, env);
	const Member *m;

	if (p.kind == P_NONE)
		return p; /* a member of a struct value (a call's result) */
	if (p.kind == P_NULL)
		return val_ptr_make(P_UNKNOWN);
	m = type_member(p.type, e->name);
	if (!m) {
		p.off.hi = IV_PINF; /* somewhere at or after the aggregate's start */
		p.type = NULL;
		return p;
	}
	if (p.type->kind == TY_UNION)
		;
	else if (m->offset < 0)
		p.off.hi = IV_PINF;
	else
		p.off = iv_add(p.off, iv_const(m->offset));
	p.type = m->type;
	return p;
}

/*
 * The index of subscript e, idx.  When e subscripts a row of an array of
 * arrays (`Y[i][k]`, Y[i] of type double[M]), the lvalue lies inside that
 * row: C leaves `a[1][7]` undefined for `int a[4][5]` (C11 J.2), and GCC
 * bounds loops by it.  So an index the analysis cannot bound on a side
 * (`Y[i][perm[j]]`, a gather), or bounds only by its type (`Y[i][j - n]`),
 * keeps to [0, M) on that side; a bound it knows is left as it is, so code
 * that walks a matrix through its first row with a known range is still
 * read as it runs.  The operand of & may also name the place one past the
 * row (`&Y[i][M]`, whose `[-1]` is the row's last element): there the
 * index keeps to [0, M].
 */
static Ival row_index(const Expr *e, const Expr *idx, const Env *env, bool address_only)
{
	Ival k = val_int(idx, env), in_row = k;
	const Type *row = e->lhs->kind == EX_INDEX ? e->lhs->type : NULL;

	if (idx != e->rhs || !row || row->kind != TY_ARRAY || row->is_vla || row->array_len <= 0)
		return k;
	if (k.lo <= -(int64_t)INT32_MAX) /* unbounded, or bounded only by the index's type */
		in_row.lo = 0;
	if (k.hi >= INT32_MAX)
		in_row.hi = address_only ? row->array_len : row->array_len - 1;
	return in_row.lo <= in_row.hi ? in_row : k;
}

/*
 * The storage lvalue e designates: base, byte offset, and its type;
 * address_only when e is the operand of &, which evaluates no access.
 */
static Ptr locate(const Expr *e, const Env *env, bool address_only)
{
	Ptr p;
	const Expr *idx;

	if (!e)
		return val_ptr_make(P_UNKNOWN);
	switch (e->kind) {
	case EX_VAR:
		return val_ptr_obj(e->var, iv_const(0), e->var->type);
	case EX_STR:
		return (Ptr){ P_RODATA, NULL, { 0, 0 }, e->type };
	case EX_INDEX:
		p = val_ptr(e->lhs, env);
		idx = e->rhs;
		if (p.kind == P_NONE) { /* i[a] */
			p = val_ptr(e->rhs, env);
			idx = e->lhs;
		}
		if (p.kind == P_NONE || p.kind == P_NULL || p.kind == P_SELF)
			return (Ptr){ P_UNKNOWN, NULL, { 0, 0 }, e->type };
		return ptr_offset(p, row_index(e, idx, env, address_only));
	case EX_UNARY:
		if (e->op != OP_DEREF)
			return val_ptr_make(P_UNKNOWN);
		p = val_ptr(e->lhs, env);
		if (p.kind == P_NONE || p.kind == P_NULL || p.kind == P_SELF)
			return (Ptr){ P_UNKNOWN, NULL, { 0, 0 }, e->type };
		return p;
	case EX_MEMBER:
		return resolve_member(e, env);
	case EX_CALL:
		return val_ptr_make(P_NONE); /* a struct value: not memory of ours */
	default:
		return (Ptr){ P_UNKNOWN, NULL, { 0, 0 }, e->type };
	}
}

Ptr val_loc(const Expr *e, const Env *env)
{
	return locate(e, env, false);
}

/* rs for bytes from off + (t * stride_elems + k) * es, every t and k of their intervals. */
static bool make_rows(int64_t off, Ival t, Ival k, int64_t stride, int64_t es, int64_t size, RowSet *rs)
{
	IvWide lo = (IvWide)off + (IvWide)k.lo * es, hi = (IvWide)off + (IvWide)k.hi * es + size;

	if (k.lo == IV_NINF || k.hi == IV_PINF || t.lo == t.hi || hi - lo > stride || lo <= IV_NINF ||
	    hi >= IV_PINF)
		return false;
	*rs = (RowSet){ (int64_t)lo, (int64_t)hi, stride, t.lo, t.hi, REGION_BEGIN, REGION_END };
	return true;
}

/* Does v, computed as numbers, stay within the range of e's type (wrapping when unsigned)? */
static bool fits_type(const Expr *e, Ival v)
{
	Ival r = e->type ? iv_of_type(e->type) : IV_TOP;

	return v.lo != IV_NINF && v.hi != IV_PINF && v.lo >= r.lo && v.hi <= r.hi;
}

/*
 * The same for a flat array indexed as a matrix, `X[t * C + k]` (C a
 * constant, the row length): a transpose's `out[j * N + i]` with i split.
 * t * C + k, as numbers, must stay in the index's type: an unsigned index
 * that wraps lands outside the rows its parts name.
 */
static bool flat_rows(const Expr *e, const Env *env, int64_t size, Var **base, RowSet *rs)
{
	const Expr *idx = e->rhs, *mul, *k, *t;
	int64_t es = type_size(e->type);
	Ival c, whole, tv, kv;
	Ptr x;

	if (!idx || idx->kind != EX_BINARY || idx->op != OP_ADD || es <= 0 || size <= 0)
		return false;
	mul = idx->lhs && idx->lhs->kind == EX_BINARY && idx->lhs->op == OP_MUL ? idx->lhs : idx->rhs;
	k = mul == idx->lhs ? idx->rhs : idx->lhs;
	if (!mul || mul->kind != EX_BINARY || mul->op != OP_MUL)
		return false;
	c = val_int(mul->rhs, env);
	t = mul->lhs;
	if (!iv_is_const(c)) {
		c = val_int(mul->lhs, env);
		t = mul->rhs;
	}
	whole = val_int(idx, env);
	x = val_ptr(e->lhs, env);
	if (!iv_is_const(c) || c.lo <= 0 || c.lo > INT32_MAX || whole.lo == IV_NINF || whole.hi == IV_PINF ||
	    x.kind != P_OBJ || !iv_is_const(x.off) || type_size(x.type) != es)
		return false;
	tv = val_int(t, env);
	kv = val_int(k, env);
	if (!fits_type(idx, iv_add(iv_mul(tv, c), kv)))
		return false; /* t * C + k may wrap: its parts say nothing of where it lands */
	*base = x.base;
	return make_rows(x.off.lo, tv, kv, c.lo * es, es, size, rs);
}

/* The most subscripts of one chain X[e1]...[en] that read_chain takes. */
#define CHAIN_MAX 8

typedef struct Chain {
	int n;                  /* levels: 0 the innermost subscript, n - 1 the outermost */
	Ival sub[CHAIN_MAX];    /* each level's subscript */
	int64_t step[CHAIN_MAX]; /* the bytes one step of it moves: its element's size */
	Ptr root;               /* X */
} Chain;

/*
 * The subscripts of e = X[e1]...[en] while each subscripts a row of an
 * array of arrays (not the i[X] forms), X at one known offset and its
 * elements the size of X[e1].
 */
static bool read_chain(const Expr *e, const Env *env, Chain *c)
{
	const Expr *a = e;

	c->n = 0;
	for (;;) {
		const Type *rt = a->lhs->kind == EX_INDEX ? a->lhs->type : NULL;

		if (c->n == CHAIN_MAX || val_ptr(a->rhs, env).kind != P_NONE)
			return false;
		c->step[c->n] = type_size(a->type);
		c->sub[c->n] = row_index(a, a->rhs, env, false);
		if (c->step[c->n] <= 0)
			return false;
		c->n++;
		if (!rt || rt->kind != TY_ARRAY || rt->is_vla || rt->array_len <= 0)
			break;
		a = a->lhs;
	}
	c->root = val_ptr(a->lhs, env);
	return c->n >= 2 && c->root.kind == P_OBJ &&
	       iv_is_const(c->root.off) && type_size(c->root.type) == c->step[c->n - 1];
}

/* The chain's levels below p as the columns of rows of step[p] bytes, the ones above counting rows. */
static bool chain_rows_at(const Chain *c, int p, int64_t size, RowSet *rs)
{
	Ival cols = iv_const(0), t = iv_const(0);

	for (int k = 0; k < c->n; k++) {
		if (k < p) {
			cols = iv_add(cols, iv_mul(c->sub[k], iv_const(c->step[k])));
		} else {
			if (c->step[k] % c->step[p] != 0)
				return false;
			t = iv_add(t, iv_mul(c->sub[k], iv_const(c->step[k] / c->step[p])));
		}
	}
	return make_rows(c->root.off.lo, t, cols, c->step[p], 1, size, rs);
}

/*
 * Interval arithmetic folds the places `X[e1][e2]` reaches into one range,
 * from the first row's first column to the last row's last, the columns
 * between included; so the chunks of a loop over columns (`B[k][j]`, j
 * split) look as if they met.  The row set keeps row e1's columns e2 for
 * every value of e1.  Deeper chains choose where the columns begin: the
 * level whose columns take the smallest part of a row, so that a
 * transpose's `out[i0][i2][i1][i3][i4]`, i1 split, reaches half of each
 * row out[i0][i2] rather than every byte (the last two levels alone would
 * cover them all).  Ties keep the innermost level.
 */
bool val_rows(const Expr *e, const Env *env, int64_t size, Var **base, RowSet *rs)
{
	const Expr *row = e && e->kind == EX_INDEX ? e->lhs : NULL;
	const Type *rt = row && row->kind == EX_INDEX ? row->type : NULL;
	bool found = false;
	Chain c;

	if (e && e->kind == EX_INDEX && (!rt || rt->kind != TY_ARRAY))
		return flat_rows(e, env, size, base, rs);
	if (!rt || size <= 0 || !read_chain(e, env, &c))
		return false;
	for (int p = 1; p < c.n; p++) {
		RowSet at;

		if (chain_rows_at(&c, p, size, &at) &&
		    (!found || (IvWide)(at.hi - at.lo) * rs->stride < (IvWide)(rs->hi - rs->lo) * at.stride)) {
			*rs = at;
			found = true;
		}
	}
	*base = c.root.base;
	return found;
}

/* ------------------------------------------------------------------ */
/* Constant returns                                                    */
/* ------------------------------------------------------------------ */

typedef struct Returns {
	int n;
	bool ok;
	int64_t val;
} Returns;

static void check_return(Stmt *s, void *ctx)
{
	Returns *r = ctx;
	int64_t v = 0;

	if (s->kind != ST_RETURN)
		return;
	if (!s->expr || !ir_const_eval(s->expr, &v) || (r->n > 0 && v != r->val))
		r->ok = false;
	r->val = v;
	r->n++;
}

static void no_expr(Expr *e, void *ctx)
{
	(void)e;
	(void)ctx;
}

bool val_returns_constant(const Func *f, int64_t *value)
{
	Returns r = { 0, true, 0 };
	const Stmt *last;

	if (!f->body || !f->ret || f->ret->kind == TY_VOID || f->body->body.len == 0)
		return false;
	last = f->body->body.items[f->body->body.len - 1];
	if (last->kind != ST_RETURN)
		return false; /* control may run off the end */
	ir_visit_stmt(f->body, no_expr, check_return, &r);
	if (!r.ok || r.n == 0)
		return false;
	*value = r.val;
	return true;
}
