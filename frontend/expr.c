/*
 * expr.c - front end, lowering of expressions: each tree-sitter expression
 * node into an Expr with its static type where it can be told, noting
 * arrays that decay (their address escapes) and calls that force sequential code.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#define MTPAR_LOWERING
#include "frontend.h"

/* ---- expressions ---- */

static Expr *new_expr(ExprKind kind, TSNode n)
{
	Expr *e = ARENA_NEW(Expr);

	e->kind = kind;
	node_span(n, &e->start, &e->end);
	return e;
}

/* An expression the IR does not model; the caller may add sub-expressions to args. */
static Expr *other_expr(TSNode n, UnmodelledKind um)
{
	lw_note_um(um, node_start(n));
	return new_expr(EX_OTHER, n);
}

static Type *type_of(const Expr *e)
{
	return e ? e->type : NULL;
}

/* An array used as a value becomes a pointer to its first element. */
static Type *decayed(Type *t)
{
	return t && t->kind == TY_ARRAY ? lw_pointer_to(t->base) : t;
}

/* The named object an lvalue designates part of: v, v[i] or v.f of an array or aggregate v. */
static Var *base_var(const Expr *e)
{
	while (e) {
		switch (e->kind) {
		case EX_VAR:
			return e->var;
		case EX_INDEX:
			if (!e->lhs || !e->lhs->type || e->lhs->type->kind != TY_ARRAY)
				return NULL;
			e = e->lhs;
			break;
		case EX_MEMBER:
			if (e->op != OP_DOT)
				return NULL;
			e = e->lhs;
			break;
		default:
			return NULL;
		}
	}
	return NULL;
}

/* e is used as a value: an array there decays, and its object's address escapes. */
void lw_note_decay(const Expr *e)
{
	Var *v;

	if (e && e->type && e->type->kind == TY_ARRAY && (v = base_var(e)))
		v->addr_taken = true;
}

// identifier = a variable in scope, an enum constant, a function, or an undeclared name
static Expr *lower_ident(TSNode n)
{
	int name = node_name(n);
	Ident *id = lw_lookup(name);
	Expr *e;

	if (id && id->kind == ID_MACRO && (e = lower_macro_use(n)))
		return e;
	if (id && id->kind == ID_VAR) {
		e = new_expr(EX_VAR, n);
		e->var = id->var;
		e->type = id->var->type;
		return e;
	}
	e = new_expr(EX_NAME, n);
	e->name = name;
	if (id && id->kind == ID_CONST) {
		e->is_constant = true;
		e->num.ival = id->value;
		e->type = lw_prim(P_INT);
	} else if (id && id->kind == ID_FUNC) {
		e->type = id->type;
	}
	return e;
}

/* Type of an integer literal from its value and suffix (C11 6.4.4.1, roughly). */
static Type *int_literal_type(uint64_t v, bool u, int l, bool decimal)
{
	if (!l && !u && v <= INT_MAX)
		return lw_prim(P_INT);
	if (!l && (u || !decimal) && v <= UINT_MAX)
		return lw_prim(P_UINT);
	if (!u && v <= INT64_MAX)
		return lw_prim(P_LONG);
	return lw_prim(P_ULONG);
}

/* Strips the suffix letters of a literal (in place); counts u, l and f. */
static void strip_suffix(char *p, bool isf, bool *u, int *l, bool *f)
{
	char *end = p + strlen(p);
	const char *suffix = isf ? "fFlLdD" : "uUlLwWbB";

	while (end > p && strchr(suffix, end[-1])) {
		char ch = *--end;

		*u |= ch == 'u' || ch == 'U';
		*l += ch == 'l' || ch == 'L';
		*f |= ch == 'f' || ch == 'F';
		*end = '\0';
	}
}

// number_literal = [-+]? (decimal | 0x hex | 0b binary | 0 octal) ('.' digits)? ([eEpP] exp)? suffix
static Expr *lower_number(TSNode n)
{
	Expr *e = new_expr(EX_NUM, n);
	uint32_t len, m = 0;
	const char *s = node_text(n, &len);
	char *t = arena_alloc(len + 1), *p = t;
	bool neg = false, hex, bin, isf, u = false, f = false;
	int l = 0;

	for (uint32_t i = 0; i < len; i++)
		if (s[i] != '\'') /* C23 digit separators */
			t[m++] = s[i];
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	bin = p[0] == '0' && (p[1] == 'b' || p[1] == 'B');
	isf = hex ? strpbrk(p, ".pP") != NULL : !bin && strpbrk(p, ".eE") != NULL;
	strip_suffix(p, isf, &u, &l, &f);
	if (isf) {
		e->num.is_float = true;
		e->num.fval = strtod(p, NULL) * (neg ? -1 : 1);
		e->type = f ? lw_prim(P_FLOAT) : l ? lw_prim(P_LDOUBLE) : lw_prim(P_DOUBLE);
	} else {
		uint64_t v = bin ? strtoull(p + 2, NULL, 2) : strtoull(p, NULL, 0);

		e->num.ival = neg ? (int64_t)(0 - v) : (int64_t)v;
		e->type = int_literal_type(v, u, l, !hex && !bin && p[0] != '0');
	}
	return e;
}

/* Value of the escape sequence at p (just after the backslash). */
static int64_t escape_value(const char *p)
{
	static const char from[] = "ntrabfve", to[] = "\n\t\r\a\b\f\v\033";
	const char *hit = strchr(from, *p);

	if (*p && hit)
		return to[hit - from];
	if (*p == 'x' || *p == 'u' || *p == 'U')
		return strtol(p + 1, NULL, 16);
	if (*p >= '0' && *p <= '7') {
		int64_t v = 0;

		for (int i = 0; i < 3 && p[i] >= '0' && p[i] <= '7'; i++)
			v = v * 8 + (p[i] - '0');
		return v;
	}
	return (unsigned char)*p;
}

// char_literal = ('\'' | "L'" | "u'" | "U'" | "u8'") (escape_sequence | character)+ '\''
static Expr *lower_char(TSNode n)
{
	Expr *e = new_expr(EX_NUM, n);
	uint32_t len;
	const char *s = node_text(n, &len);
	const char *q = memchr(s, '\'', len);
	char buf[16] = { 0 };

	e->type = lw_prim(P_INT);
	if (!q || q + 1 >= s + len)
		return e;
	memcpy(buf, q + 1, (size_t)(s + len - q - 1) < sizeof(buf) - 1 ? (size_t)(s + len - q - 1)
	                                                              : sizeof(buf) - 1);
	e->num.ival = buf[0] == '\\' ? escape_value(buf + 1) : (signed char)buf[0];
	return e;
}

/* The code unit of a literal's prefix: L and U 4 bytes (wchar_t is int here), u 2, u8 and none 1. */
static int literal_unit(TSNode n)
{
	uint32_t len;
	const char *t = node_text(n, &len);

	if (t[0] == 'L' || t[0] == 'U')
		return 4;
	return t[0] == 'u' && t[1] != '8' ? 2 : 1;
}

/* Code units of code point cp in a literal of unit bytes each: UTF-8, UTF-16 or UTF-32. */
static int64_t units_of(uint32_t cp, int unit)
{
	if (unit == 4)
		return 1;
	if (unit == 2)
		return cp >= 0x10000 ? 2 : 1;
	return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* Units of source text [s, e), UTF-8 (a byte outside UTF-8 counts as one code point). */
static int64_t content_units(const char *s, const char *e, int unit)
{
	int64_t units = 0;

	while (s < e) {
		unsigned char c = (unsigned char)*s;
		int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
		uint32_t cp = n == 1 ? c : n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;

		if (unit == 1)
			units += n > e - s ? e - s : n;
		else
			units += units_of(cp, unit);
		s += n > e - s ? e - s : n;
	}
	return units;
}

/* Units of one escape sequence: \u and \U name a code point, any other escape is one unit. */
static int64_t escape_units(TSNode c, int unit)
{
	uint32_t len;
	const char *t = node_text(c, &len);

	if (len >= 6 && (t[1] == 'u' || t[1] == 'U'))
		return units_of((uint32_t)strtoul(t + 2, NULL, 16), unit);
	return 1;
}

/* Code units of a string_literal's contents (or a concatenation's); -1 unknown. */
static int64_t string_units(TSNode n, int unit)
{
	Kids k;
	TSNode c;
	int64_t units = 0, more;

	kids_init(&k, n);
	while (kids_next(&k, &c)) {
		if (node_kind(c) == N_STRING_CONTENT)
			units += content_units(lw.src->text + node_start(c), lw.src->text + node_end(c), unit);
		else if (node_kind(c) == N_ESCAPE_SEQUENCE)
			units += escape_units(c, unit);
		else if (node_kind(c) == N_STRING_LITERAL && (more = string_units(c, unit)) >= 0)
			units += more;
		else if (node_kind(c) == N_IDENTIFIER || node_kind(c) == N_STRING_LITERAL)
			return -1; /* a macro such as PRIu64 */
	}
	return units;
}

/* The widest unit among a concatenation's literals ("a" L"b" is wide). */
static int string_unit(TSNode n)
{
	Kids k;
	TSNode c;
	int unit;

	if (node_kind(n) == N_STRING_LITERAL)
		return literal_unit(n);
	unit = 1;
	kids_init(&k, n);
	while (kids_next(&k, &c))
		if (node_kind(c) == N_STRING_LITERAL && literal_unit(c) > unit)
			unit = literal_unit(c);
	return unit;
}

// string_literal = '"' (string_content | escape_sequence)* '"'
// concatenated_string = (string_literal | identifier)+
static Expr *lower_string(TSNode n)
{
	Expr *e = new_expr(EX_STR, n);
	uint32_t len;
	const char *s = node_text(n, &len);
	int unit = string_unit(n);
	int64_t units = string_units(n, unit);
	Type *elem = unit == 1 ? lw_prim(P_CHAR) : unit == 2 ? lw_prim(P_USHORT) : lw_prim(P_INT);

	e->str = arena_strndup(s, len);
	e->type = lw_array_of(elem, units >= 0 ? units + 1 : -1);
	return e;
}

/* A binary operator from its token text: '+' .. '||'. */
static OpKind binary_op(const char *s, size_t len)
{
	for (int op = OP_ADD; op <= OP_LOGOR; op++)
		if (strlen(op_name[op]) == len && memcmp(op_name[op], s, len) == 0)
			return (OpKind)op;
	return OP_NONE;
}

static OpKind op_of(TSNode n, bool compound)
{
	uint32_t len;
	const char *s = node_text(n, &len);

	if (compound && len == 1 && s[0] == '=')
		return OP_ASSIGN;
	return binary_op(s, compound && len > 0 ? len - 1 : len);
}

static Type *binary_type(OpKind op, const Expr *l, const Expr *r)
{
	Type *lt = type_of(l), *rt = type_of(r);

	switch (op) {
	case OP_LT: case OP_GT: case OP_LE: case OP_GE: case OP_EQ: case OP_NE:
	case OP_LOGAND: case OP_LOGOR:
		return lw_prim(P_INT);
	case OP_SHL: case OP_SHR:
		return lw_is_arith(lt) ? lw_promote(lt) : NULL;
	case OP_ADD:
		if (lw_is_ptrlike(lt) || lw_is_ptrlike(rt))
			return decayed(lw_is_ptrlike(lt) ? lt : rt);
		break;
	case OP_SUB:
		if (lw_is_ptrlike(lt))
			return lw_is_ptrlike(rt) ? lw_prim(P_LONG) : decayed(lt);
		break;
	default:
		break;
	}
	return lw_usual_type(lt, rt);
}

// binary_expression = left:expression operator:('+' | '-' | '*' | ... | '||') right:expression
static Expr *lower_binary(TSNode n)
{
	Expr *e = new_expr(EX_BINARY, n);

	e->op = op_of(node_field(n, "operator"), false);
	e->lhs = lower_expr(node_field(n, "left"));
	e->rhs = lower_expr(node_field(n, "right"));
	e->type = binary_type(e->op, e->lhs, e->rhs);
	if (e->op == OP_ADD || e->op == OP_SUB) {
		lw_note_decay(e->lhs);
		lw_note_decay(e->rhs);
	}
	return e;
}

// unary_expression = operator:('!' | '~' | '-' | '+') argument:expression
// pointer_expression = operator:('*' | '&') argument:expression
static Expr *lower_unary(TSNode n)
{
	Expr *e = new_expr(EX_UNARY, n);
	uint32_t len;
	const char *op = node_text(node_field(n, "operator"), &len);
	Type *t;
	Var *v;

	e->lhs = lower_expr(node_field(n, "argument"));
	t = type_of(e->lhs);
	switch (len ? op[0] : 0) {
	case '!': e->op = OP_NOT; e->type = lw_prim(P_INT); break;
	case '~': e->op = OP_BITNOT; e->type = lw_promote(t); break;
	case '-': e->op = OP_NEG; e->type = lw_promote(t); break;
	case '+': e->op = OP_PLUS; e->type = lw_promote(t); break;
	case '*': e->op = OP_DEREF; e->type = lw_pointee(t); break;
	case '&':
		e->op = OP_ADDR;
		e->type = t ? lw_pointer_to(t) : NULL;
		if ((v = base_var(e->lhs)))
			v->addr_taken = true;
		break;
	default: break;
	}
	return e;
}

// update_expression = operator:('++' | '--') argument:expression | argument:expression operator:('++' | '--')
static Expr *lower_update(TSNode n)
{
	Expr *e = new_expr(EX_UNARY, n);
	TSNode op = node_field(n, "operator"), arg = node_field(n, "argument");
	bool pre = node_start(op) < node_start(arg);
	bool inc = node_is(op, "++");

	e->op = pre ? (inc ? OP_PREINC : OP_PREDEC) : (inc ? OP_POSTINC : OP_POSTDEC);
	e->lhs = lower_expr(arg);
	e->type = type_of(e->lhs);
	return e;
}

// assignment_expression = left:expression operator:('=' | '+=' | ... | '|=') right:expression
static Expr *lower_assign(TSNode n)
{
	Expr *e = new_expr(EX_ASSIGN, n);

	e->op = op_of(node_field(n, "operator"), true);
	e->lhs = lower_expr(node_field(n, "left"));
	e->rhs = lower_expr(node_field(n, "right"));
	e->type = type_of(e->lhs);
	lw_note_decay(e->rhs);
	return e;
}

// conditional_expression = condition:expression '?' consequence:expression? ':' alternative:expression
static Expr *lower_cond(TSNode n)
{
	Expr *e = new_expr(EX_COND, n);
	Type *t;

	e->cond = lower_expr(node_field(n, "condition"));
	e->lhs = lower_expr(node_field(n, "consequence")); /* NULL for GNU 'c ?: b' */
	e->rhs = lower_expr(node_field(n, "alternative"));
	lw_note_decay(e->lhs);
	lw_note_decay(e->rhs);
	t = lw_usual_type(type_of(e->lhs ? e->lhs : e->cond), type_of(e->rhs));
	e->type = t ? t : type_of(e->lhs) ? decayed(type_of(e->lhs)) : decayed(type_of(e->rhs));
	return e;
}

// comma_expression = left:expression ',' right:(expression | comma_expression)
static Expr *lower_comma(TSNode n)
{
	Expr *e = new_expr(EX_COMMA, n);

	e->lhs = lower_expr(node_field(n, "left"));
	e->rhs = lower_expr(node_field(n, "right"));
	e->type = type_of(e->rhs);
	return e;
}

/* The function type a callee designates (a function, or a pointer to one). */
static Type *callee_type(const Expr *callee)
{
	Type *t = type_of(callee);

	if (t && t->kind == TY_PTR)
		t = t->base;
	return t && t->kind == TY_FUNC ? t : NULL;
}

static bool name_in(int name, const char *const *list)
{
	const char *s = intern_name(name);

	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

/* Calls that force sequential code: setjmp and friends, variadic functions. */
static void note_call(Expr *e)
{
	static const char *const jumps[] = {
		"setjmp", "longjmp", "sigsetjmp", "siglongjmp", "_setjmp", "_longjmp",
		"__builtin_setjmp", "__builtin_longjmp", NULL
	};
	static const char *const variadic[] = {
		"printf", "fprintf", "sprintf", "snprintf", "dprintf", "asprintf", "scanf",
		"fscanf", "sscanf", "syslog", "open", "openat", "fcntl", "ioctl", "execl",
		"execle", "execlp", "err", "errx", "warn", "warnx", "printk", NULL
	};
	Type *ft = callee_type(e->lhs);
	bool named = e->name && e->lhs->kind == EX_NAME;

	if (named) {
		array_push(&lw.lt->calls, ((CallSite){ e, lw.src }));
		if (name_in(e->name, jumps))
			lw_note_um(UM_SETJMP, e->start);
	}
	if ((ft && ft->is_variadic) || (named && lw_bindings(e->name)->variadic) ||
	    (named && name_in(e->name, variadic)))
		lw_note_um(UM_VARIADIC_CALL, e->start);
}

/* 'sizeof (T)' where T is a typedef name parses as a parenthesized identifier. */
static Type *typedef_in_parens(TSNode v)
{
	Ident *id;

	while (node_kind(v) == N_PARENTHESIZED_EXPRESSION)
		v = node_first_content(v);
	if (node_kind(v) != N_IDENTIFIER)
		return NULL;
	id = lw_lookup(node_name(v));
	return id && id->kind == ID_TYPEDEF ? id->type : NULL;
}

/*
 * `(T)(x)` with T a typedef name (or a macro that spells a type) parses
 * as a call of the parenthesized name: it is a cast of x.
 */
static Expr *cast_of_call(TSNode n, Type *t)
{
	Expr *e = new_expr(EX_CAST, n);

	e->cast_type = t;
	e->lhs = lower_expr(node_first_content(node_field(n, "arguments")));
	e->type = t;
	lw_note_decay(e->lhs);
	return e;
}

// call_expression = function:expression arguments:argument_list
// argument_list = '(' (expression | compound_statement),* ')'
static Expr *lower_call(TSNode n)
{
	Expr *e;
	TSNode fn = node_field(n, "function"), c;
	Type *ft;
	Kids k;

	if ((ft = typedef_in_parens(fn)) && node_kind(fn) == N_PARENTHESIZED_EXPRESSION &&
	    ts_node_named_child_count(node_field(n, "arguments")) == 1)
		return cast_of_call(n, ft);
	if (lw_is_macro_use(n) && (e = lower_macro_use(n)))
		return e;
	e = new_expr(EX_CALL, n);
	e->lhs = lower_expr(fn);
	if (node_kind(fn) == N_IDENTIFIER)
		e->name = node_name(fn);
	kids_init(&k, node_field(n, "arguments"));
	while (kids_next(&k, &c)) {
		Expr *a;

		if (!node_is_content(c))
			continue;
		a = node_kind(c) == N_COMPOUND_STATEMENT ? other_expr(c, UM_OTHER) : lower_expr(c);
		lw_note_decay(a);
		array_push(&e->args, a);
	}
	ft = callee_type(e->lhs);
	e->type = ft ? ft->base : NULL;
	note_call(e);
	return e;
}

// subscript_expression = argument:expression '[' index:expression ']'
static Expr *lower_index(TSNode n)
{
	Expr *e = new_expr(EX_INDEX, n);

	e->lhs = lower_expr(node_field(n, "argument"));
	e->rhs = lower_expr(node_field(n, "index"));
	e->type = lw_pointee(type_of(e->lhs));
	if (!e->type) /* i[a] */
		e->type = lw_pointee(type_of(e->rhs));
	return e;
}

// field_expression = argument:expression operator:('.' | '->') field:field_identifier
static Expr *lower_member(TSNode n)
{
	Expr *e = new_expr(EX_MEMBER, n);
	Type *t;

	e->op = node_is(node_field(n, "operator"), "->") ? OP_ARROW : OP_DOT;
	e->name = node_name(node_field(n, "field"));
	e->lhs = lower_expr(node_field(n, "argument"));
	t = type_of(e->lhs);
	e->type = lw_member_type(e->op == OP_ARROW ? lw_pointee(t) : t, e->name);
	return e;
}

// cast_expression = '(' type:type_descriptor ')' value:expression
static Expr *lower_cast(TSNode n)
{
	Expr *e = new_expr(EX_CAST, n);

	e->cast_type = lower_type_descriptor(node_field(n, "type"));
	e->lhs = lower_expr(node_field(n, "value"));
	e->type = e->cast_type;
	lw_note_decay(e->lhs);
	return e;
}

// sizeof_expression = 'sizeof' (value:expression | '(' type:type_descriptor ')')
static Expr *lower_sizeof(TSNode n)
{
	Expr *e = new_expr(EX_SIZEOF, n);
	TSNode ty = node_field(n, "type"), value = node_field(n, "value");
	Type *t;

	e->type = lw_prim(P_ULONG);
	if (!ts_node_is_null(ty))
		e->cast_type = lower_type_descriptor(ty);
	else if (!(e->cast_type = typedef_in_parens(value)))
		e->lhs = lower_expr(value);
	t = e->cast_type ? e->cast_type : type_of(e->lhs);
	e->num.ival = t && t->kind != TY_FUNC ? t->size : -1;
	if (e->lhs && e->lhs->kind == EX_VAR && e->lhs->var->scope == VAR_PARAM &&
	    type_is_array(e->lhs->var->type))
		e->num.ival = lw_pointer_to(t->base)->size; /* `char v[2]` is a pointer there */
	return e;
}

// alignof_expression = '_Alignof' '(' type:type_descriptor ')'
static Expr *lower_alignof(TSNode n)
{
	Type *t = lower_type_descriptor(node_field(n, "type"));
	Expr *e;

	if (t->align <= 0)
		return other_expr(n, UM_OTHER);
	e = new_expr(EX_NUM, n);
	e->num.ival = t->align;
	e->type = lw_prim(P_ULONG);
	return e;
}

// offsetof_expression = 'offsetof' '(' type:type_descriptor ',' member:field_identifier ')'
static Expr *lower_offsetof(TSNode n)
{
	Type *t = lower_type_descriptor(node_field(n, "type"));
	int name = node_name(node_field(n, "member"));
	Expr *e;

	if (lw_hidden_within(node_start(n), node_end(n), HIDE_OPERAND))
		return other_expr(n, UM_OTHER); /* `in.x`, `arr[1]`: pp_scan hid all but `in` */

	for (uint32_t i = 0; i < t->members.len && t->kind != TY_FUNC; i++) {
		if (t->members.items[i].name != name || t->members.items[i].offset < 0)
			continue;
		e = new_expr(EX_NUM, n);
		e->num.ival = t->members.items[i].offset;
		e->type = lw_prim(P_ULONG);
		return e;
	}
	return other_expr(n, UM_OTHER);
}

/* EX_OTHER with the expression children of n lowered into args. */
static Expr *other_with_args(TSNode n)
{
	Expr *e = other_expr(n, UM_OTHER);
	Kids k;
	TSNode c;

	kids_init(&k, n);
	while (kids_next(&k, &c))
		if (node_is_content(c) && node_kind(c) != N_TYPE_DESCRIPTOR)
			array_push(&e->args, lower_expr(c));
	return e;
}

// initializer_list = '{' (expression | initializer_list | initializer_pair),* ','? '}'
// initializer_pair = designator+ '=' value:(expression | initializer_list)
static Expr *lower_init_list(TSNode n)
{
	Expr *e = new_expr(EX_INIT, n);
	Kids k;
	TSNode c;

	kids_init(&k, n);
	while (kids_next(&k, &c)) {
		Expr *a;

		if (!node_is_content(c))
			continue;
		a = lower_expr(node_kind(c) == N_INITIALIZER_PAIR ? node_field(c, "value") : c);
		lw_note_decay(a);
		array_push(&e->args, a);
	}
	return e;
}

// parenthesized_expression = '(' (expression | comma_expression | compound_statement) ')'
static Expr *lower_paren(TSNode n)
{
	TSNode inner = node_first_content(n);

	if (node_kind(inner) == N_COMPOUND_STATEMENT) /* GNU statement expression */
		return other_expr(n, UM_OTHER);
	return lower_expr(inner);
}

static Expr *lower_literal(TSNode n, int64_t v)
{
	Expr *e = new_expr(EX_NUM, n);

	e->num.ival = v;
	e->type = lw_prim(P_INT);
	return e;
}

// null = 'NULL' | 'nullptr': an undeclared name, as the macro it is
static Expr *lower_null(TSNode n)
{
	Expr *e = new_expr(EX_NAME, n);

	e->name = node_name(n);
	e->type = lw_pointer_to(lw_prim(P_VOID));
	return e;
}

/*
 * expression = identifier | number_literal | ... | call_expression | ...
 * Parentheses are unwrapped: the result carries the inner expression's bytes.
 * NULL for a null node.
 */
Expr *lower_expr(TSNode n)
{
	if (ts_node_is_null(n))
		return NULL;
	switch (node_kind(n)) {
	case N_IDENTIFIER: return lower_ident(n);
	case N_NUMBER_LITERAL: return lower_number(n);
	case N_CHAR_LITERAL: return lower_char(n);
	case N_STRING_LITERAL:
	case N_CONCATENATED_STRING: return lower_string(n);
	case N_TRUE: return lower_literal(n, 1);
	case N_FALSE: return lower_literal(n, 0);
	case N_NULL: return lower_null(n);
	case N_BINARY_EXPRESSION: return lower_binary(n);
	case N_UNARY_EXPRESSION:
	case N_POINTER_EXPRESSION: return lower_unary(n);
	case N_UPDATE_EXPRESSION: return lower_update(n);
	case N_ASSIGNMENT_EXPRESSION: return lower_assign(n);
	case N_CONDITIONAL_EXPRESSION: return lower_cond(n);
	case N_COMMA_EXPRESSION: return lower_comma(n);
	case N_CALL_EXPRESSION: return lower_call(n);
	case N_SUBSCRIPT_EXPRESSION: return lower_index(n);
	case N_FIELD_EXPRESSION: return lower_member(n);
	case N_CAST_EXPRESSION: return lower_cast(n);
	case N_SIZEOF_EXPRESSION: return lower_sizeof(n);
	case N_ALIGNOF_EXPRESSION: return lower_alignof(n);
	case N_OFFSETOF_EXPRESSION: return lower_offsetof(n);
	case N_PARENTHESIZED_EXPRESSION: return lower_paren(n);
	case N_INITIALIZER_LIST: return lower_init_list(n);
	case N_EXTENSION_EXPRESSION: return lower_expr(node_first_content(n));
	case N_GENERIC_EXPRESSION:
	case N_COMPOUND_LITERAL_EXPRESSION: return other_with_args(n);
	case N_GNU_ASM_EXPRESSION: return other_expr(n, UM_ASM);
	default: return other_expr(n, UM_OTHER);
	}
}

