/*
 * ir.c - IR utilities every stage shares: the expression and statement
 * visitors, cast stripping, the storage root of an lvalue, integer
 * constant evaluation (C17 6.6: integer constant expressions), what the
 * later stages ask of a type (size, members, qualifiers), and the printable
 * names of the IR's kinds.
 */
#include <string.h>

#include "frontend.h"

/* The printable names of the IR's kinds, from their X-macro lists. */
#define X_NAME(k, s) s,
const char *const type_kind_name[] = { TYPE_KINDS(X_NAME) };
const char *const expr_kind_name[] = { EXPR_KINDS(X_NAME) };
const char *const stmt_kind_name[] = { STMT_KINDS(X_NAME) };
const char *const op_name[] = { OP_KINDS(X_NAME) };
const char *const unmodelled_name[] = { UNMODELLED_KINDS(X_NAME) };

/* ------------------------------------------------------------------ */
/* Visiting the IR                                                     */
/* ------------------------------------------------------------------ */

void ir_visit_expr(Expr *e, IrExprFn *fn, void *ctx)
{
	if (!e || !fn) /* a statement visit that needs no expressions */
		return;
	fn(e, ctx);
	ir_visit_expr(e->cond, fn, ctx);
	ir_visit_expr(e->lhs, fn, ctx);
	ir_visit_expr(e->rhs, fn, ctx);
	for (uint32_t i = 0; i < e->args.len; i++)
		ir_visit_expr(e->args.items[i], fn, ctx);
}

void ir_visit_type_lengths(const Type *t, IrExprFn *fn, void *ctx)
{
	for (; t && (t->kind == TY_ARRAY || t->kind == TY_PTR); t = t->base)
		if (t->vla_len)
			ir_visit_expr(t->vla_len, fn, ctx);
}

bool ir_type_lengths_have_effect(const Type *t)
{
	for (; t && (t->kind == TY_ARRAY || t->kind == TY_PTR); t = t->base)
		if (t->vla_len && ir_has_effect(t->vla_len))
			return true;
	return false;
}

void ir_visit_stmt(Stmt *s, IrExprFn *fn, IrStmtFn *sfn, void *ctx)
{
	if (!s)
		return;
	if (sfn)
		sfn(s, ctx);
	ir_visit_expr(s->expr, fn, ctx);
	ir_visit_stmt(s->then, fn, sfn, ctx);
	ir_visit_stmt(s->els, fn, sfn, ctx);
	for (uint32_t i = 0; i < s->body.len; i++)
		ir_visit_stmt(s->body.items[i], fn, sfn, ctx);
	if (s->loop) {
		for (uint32_t i = 0; i < s->loop->init.len; i++)
			ir_visit_stmt(s->loop->init.items[i], fn, sfn, ctx);
		ir_visit_expr(s->loop->cond, fn, ctx);
		ir_visit_expr(s->loop->step, fn, ctx);
		ir_visit_stmt(s->loop->body, fn, sfn, ctx);
	}
}

bool ir_expr_any(const Expr *e, IrExprPred *pred, void *ctx)
{
	if (!e)
		return false;
	if (pred(e, ctx))
		return true;
	if (ir_expr_any(e->lhs, pred, ctx) || ir_expr_any(e->rhs, pred, ctx) ||
	    ir_expr_any(e->cond, pred, ctx))
		return true;
	for (uint32_t i = 0; i < e->args.len; i++)
		if (ir_expr_any(e->args.items[i], pred, ctx))
			return true;
	return false;
}

bool ir_stmt_any(const Stmt *s, IrStmtPred *sp, IrExprPred *ep, void *ctx)
{
	if (!s)
		return false;
	if (sp && sp(s, ctx))
		return true;
	if (ep && ir_expr_any(s->expr, ep, ctx))
		return true;
	if (ir_stmt_any(s->then, sp, ep, ctx) || ir_stmt_any(s->els, sp, ep, ctx))
		return true;
	for (uint32_t i = 0; i < s->body.len; i++)
		if (ir_stmt_any(s->body.items[i], sp, ep, ctx))
			return true;
	if (!s->loop)
		return false;
	for (uint32_t i = 0; i < s->loop->init.len; i++)
		if (ir_stmt_any(s->loop->init.items[i], sp, ep, ctx))
			return true;
	if (ep && (ir_expr_any(s->loop->cond, ep, ctx) || ir_expr_any(s->loop->step, ep, ctx)))
		return true;
	return ir_stmt_any(s->loop->body, sp, ep, ctx);
}

void ir_split_comma(Expr *e, ExprList *out)
{
	if (e && e->kind == EX_COMMA) {
		ir_split_comma(e->lhs, out);
		ir_split_comma(e->rhs, out);
	} else if (e) {
		array_push(out, e);
	}
}

typedef struct VarRefs {
	const Var *var;
	uint32_t n;
} VarRefs;

static void count_ref(Expr *e, void *ctx)
{
	VarRefs *c = ctx;

	c->n += e->kind == EX_VAR && e->var == c->var;
}

uint32_t ir_var_refs(const Stmt *s, const Var *v)
{
	VarRefs c = { v, 0 };

	ir_visit_stmt((Stmt *)s, count_ref, NULL, &c);
	return c.n;
}

static bool assigns_var(const Expr *e, void *ctx)
{
	return (e->kind == EX_ASSIGN || ir_is_incdec(e)) && ir_storage_root(e->lhs) == ctx;
}

bool ir_stmt_assigns(const Stmt *s, const Var *v)
{
	return ir_stmt_any(s, NULL, assigns_var, (void *)v);
}

bool ir_is_incdec(const Expr *e)
{
	return e->kind == EX_UNARY && e->op >= OP_PREINC && e->op <= OP_POSTDEC;
}

bool ir_is_loop(const Stmt *s)
{
	return s && (s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO);
}

typedef struct LabelSearch {
	bool cases, found;
} LabelSearch;

static void note_label(Stmt *s, void *ctx)
{
	LabelSearch *l = ctx;

	l->found |= s->kind == ST_LABEL || (l->cases && s->kind == ST_CASE);
}

bool ir_has_label(Stmt *s, bool cases)
{
	LabelSearch l = { cases, false };

	ir_visit_stmt(s, NULL, note_label, &l);
	return l.found;
}

/* ------------------------------------------------------------------ */
/* Lvalues                                                             */
/* ------------------------------------------------------------------ */

Expr *ir_strip_casts(const Expr *e)
{
	while (e && e->kind == EX_CAST)
		e = e->lhs;
	return (Expr *)e;
}

Var *ir_storage_root(const Expr *e)
{
	while (e && e->kind == EX_MEMBER && e->op == OP_DOT)
		e = e->lhs;
	return e && e->kind == EX_VAR ? e->var : NULL;
}

bool ir_is_var(const Expr *e, const Var *v)
{
	return e && e->kind == EX_VAR && e->var == v;
}

/* ------------------------------------------------------------------ */
/* Integer constant expressions                                        */
/* ------------------------------------------------------------------ */

/* An integer of `size` bytes as C holds it: truncated, then sign-extended unless unsigned. */
static int64_t wrap_int(int64_t v, int size, bool uns)
{
	uint64_t u = (uint64_t)v;
	int bits = size * 8;

	if (bits <= 0 || bits >= 64)
		return v;
	u &= (UINT64_C(1) << bits) - 1;
	if (!uns && (u >> (bits - 1)) & 1)
		u |= ~UINT64_C(0) << bits;
	return (int64_t)u;
}

/* v converted to the integer type t (truncated, sign-extended). */
static bool const_convert(const Type *t, int64_t v, int64_t *out)
{
	if (!t || (t->kind != TY_INT && t->kind != TY_BOOL && t->kind != TY_ENUM))
		return false;
	*out = t->kind == TY_BOOL ? v != 0 : wrap_int(v, (int)t->size, t->is_unsigned);
	return true;
}

static bool const_arith(OpKind op, int64_t a, int64_t b, int64_t *out)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;

	switch (op) {
	case OP_ADD: *out = (int64_t)(ua + ub); return true;
	case OP_SUB: *out = (int64_t)(ua - ub); return true;
	case OP_MUL: *out = (int64_t)(ua * ub); return true;
	case OP_DIV:
	case OP_MOD:
		if (b == 0 || (a == INT64_MIN && b == -1))
			return false;
		*out = op == OP_DIV ? a / b : a % b;
		return true;
	case OP_SHL: if (b < 0 || b > 63) return false; *out = (int64_t)(ua << b); return true;
	case OP_SHR: if (b < 0 || b > 63) return false; *out = a >> b; return true;
	case OP_LT: *out = a < b; return true;
	case OP_GT: *out = a > b; return true;
	case OP_LE: *out = a <= b; return true;
	case OP_GE: *out = a >= b; return true;
	case OP_EQ: *out = a == b; return true;
	case OP_NE: *out = a != b; return true;
	case OP_BITAND: *out = a & b; return true;
	case OP_BITOR: *out = a | b; return true;
	case OP_BITXOR: *out = a ^ b; return true;
	case OP_LOGAND: *out = a && b; return true;
	case OP_LOGOR: *out = a || b; return true;
	default: return false;
	}
}

/* The integer promotion of an operand of type t: its size and signedness after it. */
static bool promoted_int(const Type *t, int *size, bool *uns)
{
	if (!t || !type_int(t, size, uns))
		return false;
	if (*size < 4)
		*size = 4, *uns = false;
	return true;
}

/*
 * The type a binary operation computes in, C's usual arithmetic
 * conversions over the promoted operands (a shift: its left operand's);
 * false when an operand's type is not a known integer type.
 */
static bool operation_int(const Expr *e, int *size, bool *uns)
{
	int ls, rs;
	bool lu, ru;

	if (!e->lhs || !promoted_int(e->lhs->type, &ls, &lu))
		return false;
	if (e->op == OP_SHL || e->op == OP_SHR) {
		*size = ls, *uns = lu;
		return true;
	}
	if (!e->rhs || !promoted_int(e->rhs->type, &rs, &ru))
		return false;
	if (ls != rs) {
		*size = ls > rs ? ls : rs;
		*uns = ls > rs ? lu : ru; /* the wider type holds every value of the narrower */
	} else {
		*size = ls, *uns = lu || ru;
	}
	return true;
}

static bool is_comparison(OpKind op)
{
	return op == OP_LT || op == OP_GT || op == OP_LE || op == OP_GE || op == OP_EQ || op == OP_NE;
}

/*
 * a OP b on 64-bit unsigned operands: division, remainder, right shift and
 * ordering differ from int64_t's; the other operations give the same bits.
 */
static bool unsigned64_arith(OpKind op, uint64_t a, uint64_t b, int64_t *out)
{
	switch (op) {
	case OP_DIV: if (!b) return false; *out = (int64_t)(a / b); return true;
	case OP_MOD: if (!b) return false; *out = (int64_t)(a % b); return true;
	case OP_SHR: if (b > 63) return false; *out = (int64_t)(a >> b); return true;
	case OP_LT: *out = a < b; return true;
	case OP_GT: *out = a > b; return true;
	case OP_LE: *out = a <= b; return true;
	case OP_GE: *out = a >= b; return true;
	default: return const_arith(op, (int64_t)a, (int64_t)b, out);
	}
}

/*
 * a OP b as C computes it: both operands converted to the operation's
 * type, the result wrapped to it, so that `(0u - 8) / 0x20000000` is 7 and
 * `~0u >> 28` is 15.  Operands of unknown types fold in int64_t, as before.
 */
static bool const_binary(const Expr *e, int64_t a, int64_t b, int64_t *out)
{
	int size;
	bool uns, shift = e->op == OP_SHL || e->op == OP_SHR;

	if (e->op == OP_LOGAND || e->op == OP_LOGOR || !operation_int(e, &size, &uns))
		return const_arith(e->op, a, b, out);
	a = wrap_int(a, size, uns);
	if (shift && (b < 0 || b >= size * 8))
		return false; /* undefined in C */
	if (!shift)
		b = wrap_int(b, size, uns);
	if (uns && size == 8)
		return unsigned64_arith(e->op, (uint64_t)a, (uint64_t)b, out);
	if (!const_arith(e->op, a, b, out))
		return false;
	if (!is_comparison(e->op))
		*out = wrap_int(*out, size, uns);
	return true;
}

static bool const_unary(const Expr *e, int64_t *out)
{
	int64_t a;
	int size;
	bool uns, typed;

	if (!ir_const_eval(e->lhs, &a))
		return false;
	typed = promoted_int(e->lhs->type, &size, &uns);
	switch (e->op) {
	case OP_NEG: *out = (int64_t)(0 - (uint64_t)a); break;
	case OP_PLUS: *out = a; break;
	case OP_NOT: *out = !a; return true;
	case OP_BITNOT: *out = ~a; break;
	default: return false;
	}
	if (typed)
		*out = wrap_int(*out, size, uns);
	return true;
}

/* A const integer object's value, from its constant initializer ('const int M = 1;'). */
static bool const_var(const Var *v, int64_t *out)
{
	static int depth; /* 'const int x = x;' must not loop */
	bool ok;

	if (v->bound) {
		*out = v->bound_value;
		return true;
	}
	if (!v->type || !v->type->is_const || !v->init || depth > 16 ||
	    (v->type->kind != TY_INT && v->type->kind != TY_ENUM && v->type->kind != TY_BOOL))
		return false;
	depth++;
	ok = ir_const_eval(v->init, out) && const_convert(v->type, *out, out);
	depth--;
	return ok;
}

/*
 * Folds integer literals, enum constants, const integer objects, sizeof of known types, casts to
 * integer types and the arithmetic between them.  False when e is not such
 * a constant.
 */
static bool is_effect(const Expr *e, void *ctx)
{
	(void)ctx;
	return e->kind == EX_ASSIGN || e->kind == EX_CALL || e->kind == EX_OTHER || ir_is_incdec(e);
}

bool ir_has_effect(const Expr *e)
{
	return ir_expr_any(e, is_effect, NULL);
}

bool ir_const_eval(const Expr *e, int64_t *out)
{
	int64_t a, b, c;

	if (!e)
		return false;
	switch (e->kind) {
	case EX_NUM:
		*out = e->num.ival;
		return !e->num.is_float;
	case EX_NAME:
		*out = e->num.ival;
		return e->is_constant;
	case EX_SIZEOF:
		*out = e->num.ival;
		return e->num.ival >= 0;
	case EX_CAST:
		return ir_const_eval(e->lhs, &a) && const_convert(e->cast_type, a, out);
	case EX_UNARY:
		return const_unary(e, out);
	case EX_BINARY:
		return ir_const_eval(e->lhs, &a) && ir_const_eval(e->rhs, &b) &&
		       const_binary(e, a, b, out);
	case EX_COND:
		if (!ir_const_eval(e->cond, &c) || !e->lhs)
			return false;
		return ir_const_eval(c ? e->lhs : e->rhs, out);
	case EX_COMMA:
		return ir_const_eval(e->rhs, out);
	case EX_VAR:
		return const_var(e->var, out);
	default:
		return false;
	}
}

/* ------------------------------------------------------------------ */
/* Types                                                               */
/* ------------------------------------------------------------------ */

/* The innermost non-array type, and the dimensions above it. */
Type *type_elem(Type *t, int *ndims)
{
	int n = 0;

	while (t && t->kind == TY_ARRAY) {
		t = t->base;
		n++;
	}
	if (ndims)
		*ndims = n;
	return t;
}

/* Integer typedefs the lowering may leave opaque (TY_NAMED). */
bool type_int_typedef(int tag, int *size, bool *uns)
{
	static const struct {
		const char *name;
		int size;
		bool uns;
	} names[] = {
		{ "int8_t", 1, false }, { "uint8_t", 1, true }, { "int16_t", 2, false },
		{ "uint16_t", 2, true }, { "int32_t", 4, false }, { "uint32_t", 4, true },
		{ "int64_t", 8, false }, { "uint64_t", 8, true }, { "size_t", 8, true },
		{ "ssize_t", 8, false }, { "ptrdiff_t", 8, false }, { "intptr_t", 8, false },
		{ "uintptr_t", 8, true }, { "bool", 1, true }, { "_Bool", 1, true },
	};
	const char *s = tag ? intern_name(tag) : NULL;

	for (size_t i = 0; s && i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i].name) == 0) {
			*size = names[i].size;
			*uns = names[i].uns;
			return true;
		}
	}
	return false;
}

bool type_int(const Type *t, int *size, bool *uns)
{
	if (!t)
		return false;
	switch (t->kind) {
	case TY_INT:
		*size = t->size > 0 ? (int)t->size : 4;
		*uns = t->is_unsigned;
		return true;
	case TY_BOOL:
		*size = 1;
		*uns = true;
		return true;
	case TY_ENUM:
		*size = 4;
		*uns = false;
		return true;
	case TY_NAMED:
		return type_int_typedef(t->tag, size, uns);
	default:
		return false;
	}
}

bool type_is_ptr(const Type *t) { return t && t->kind == TY_PTR; }
bool type_is_array(const Type *t) { return t && t->kind == TY_ARRAY; }

/* Bytes of an object of type t, -1 unknown; void counts 1 (GNU arithmetic). */
int64_t type_size(const Type *t)
{
	int size;
	bool uns;
	int64_t n;

	if (!t)
		return -1;
	if (t->kind == TY_VOID || t->kind == TY_FUNC)
		return 1;
	if (t->size > 0)
		return t->size;
	if (t->kind == TY_PTR)
		return 8;
	if (t->kind == TY_ARRAY && t->array_len > 0 && (n = type_size(t->base)) > 0 &&
	    n <= INT64_MAX / t->array_len)
		return n * t->array_len;
	if (type_int(t, &size, &uns))
		return size;
	return -1;
}

const Member *type_member(const Type *t, int name)
{
	if (!t || (t->kind != TY_STRUCT && t->kind != TY_UNION))
		return NULL;
	for (uint32_t i = 0; i < t->members.len; i++)
		if (t->members.items[i].name == name)
			return &t->members.items[i];
	return NULL;
}

/* Could an object of type t hold a pointer?  Opaque typedefs may. */
bool type_has_pointer(const Type *t, int depth)
{
	if (!t || depth > 16)
		return true;
	switch (t->kind) {
	case TY_PTR:
	case TY_NAMED:
		return t->kind == TY_PTR || !type_int_typedef(t->tag, &(int){ 0 }, &(bool){ false });
	case TY_ARRAY:
		return type_has_pointer(t->base, depth + 1);
	case TY_STRUCT:
	case TY_UNION:
		for (uint32_t i = 0; i < t->members.len; i++)
			if (type_has_pointer(t->members.items[i].type, depth + 1))
				return true;
		return false;
	default:
		return false;
	}
}

bool type_is_const(const Type *t)
{
	while (t && t->kind == TY_ARRAY && !t->is_const)
		t = t->base;
	return t && t->is_const;
}

bool type_is_volatile(const Type *t)
{
	while (t && t->kind == TY_ARRAY && !t->is_volatile)
		t = t->base;
	return t && t->is_volatile;
}
