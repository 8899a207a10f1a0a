/*
 * type.c - front end, lowering of types: C types with their x86-64 layout,
 * declaration specifiers and declarators (applied outside in), struct and
 * union layout with bit-fields (as chibicc lays them out), enums, typedefs.
 */
#include <ctype.h>
#include <string.h>
#include <tree_sitter/api.h>

#define MTPAR_LOWERING
#include "frontend.h"

/* ---- types ---- */

static Type *new_type(TypeKind kind, int64_t size, int align)
{
	Type *t = ARENA_NEW(Type);

	t->kind = kind;
	t->size = size;
	t->align = align;
	t->array_len = -1;
	return t;
}

Type *lw_prim(PrimKind p)
{
	static const struct {
		TypeKind kind;
		int size;
		bool is_unsigned;
	} tab[NPRIM] = {
		[P_VOID] = { TY_VOID, 1, false }, /* GNU: sizeof(void) == 1 */
		[P_BOOL] = { TY_BOOL, 1, true },
		[P_CHAR] = { TY_INT, 1, false },  /* plain char is signed on our targets */
		[P_SCHAR] = { TY_INT, 1, false }, [P_UCHAR] = { TY_INT, 1, true },
		[P_SHORT] = { TY_INT, 2, false }, [P_USHORT] = { TY_INT, 2, true },
		[P_INT] = { TY_INT, 4, false }, [P_UINT] = { TY_INT, 4, true },
		[P_LONG] = { TY_INT, 8, false }, [P_ULONG] = { TY_INT, 8, true },
		[P_LLONG] = { TY_INT, 8, false }, [P_ULLONG] = { TY_INT, 8, true },
		[P_FLOAT] = { TY_FLOAT, 4, false }, [P_DOUBLE] = { TY_FLOAT, 8, false },
		[P_LDOUBLE] = { TY_FLOAT, 16, false },
	};
	Type **slot = &lw.lt->prim[p];

	if (!*slot) {
		*slot = new_type(tab[p].kind, tab[p].size, tab[p].size);
		(*slot)->is_unsigned = tab[p].is_unsigned;
	}
	return *slot;
}

Type *lw_pointer_to(Type *base)
{
	Type *t = new_type(TY_PTR, 8, 8);

	t->base = base;
	return t;
}

/* Array of len elements (-1: unknown). */
Type *lw_array_of(Type *base, int64_t len)
{
	Type *t = new_type(TY_ARRAY, -1, base->align);

	t->base = base;
	t->array_len = len;
	if (len >= 0 && base->size >= 0)
		t->size = len * base->size;
	return t;
}

/* A typedef name we cannot see through (from a header that is not parsed). */
static Type *named_type(int name)
{
	Type *t = new_type(TY_NAMED, -1, 0);

	t->tag = name;
	return t;
}

typedef struct Quals {
	bool is_const, is_volatile, is_restrict;
} Quals;

/* t with the qualifiers q added: a copy when that changes anything. */
static Type *qualified(Type *t, const Quals *q)
{
	Type *c;

	if ((!q->is_const || t->is_const) && (!q->is_volatile || t->is_volatile) &&
	    (!q->is_restrict || t->is_restrict))
		return t;
	c = ARENA_NEW(Type);
	*c = *t;
	c->is_const |= q->is_const;
	c->is_volatile |= q->is_volatile;
	c->is_restrict |= q->is_restrict;
	return c;
}

// type_qualifier = 'const' | 'volatile' | 'restrict' | '__restrict__' | ...
static void add_qualifier(TSNode n, Quals *q)
{
	if (node_is(n, "const") || node_is(n, "constexpr"))
		q->is_const = true;
	else if (node_is(n, "volatile"))
		q->is_volatile = true;
	else if (node_is(n, "restrict") || node_is(n, "__restrict__"))
		q->is_restrict = true;
}

/* Integer promotion: anything narrower than int becomes int. */
Type *lw_promote(Type *t)
{
	if (!t)
		return NULL;
	if (t->kind == TY_BOOL || t->kind == TY_ENUM || (t->kind == TY_INT && t->size < 4))
		return lw_prim(P_INT);
	return t;
}

bool lw_is_arith(const Type *t)
{
	return t && (t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_BOOL ||
	             t->kind == TY_ENUM);
}

bool lw_is_ptrlike(const Type *t)
{
	return t && (t->kind == TY_PTR || t->kind == TY_ARRAY);
}

/* The usual arithmetic conversions, roughly; NULL when a side is unknown. */
Type *lw_usual_type(Type *a, Type *b)
{
	if (!lw_is_arith(a) || !lw_is_arith(b))
		return NULL;
	if (a->kind == TY_FLOAT || b->kind == TY_FLOAT) {
		if (a->kind != TY_FLOAT)
			return b;
		if (b->kind != TY_FLOAT)
			return a;
		return a->size >= b->size ? a : b;
	}
	a = lw_promote(a);
	b = lw_promote(b);
	if (a->size != b->size)
		return a->size > b->size ? a : b;
	return b->is_unsigned ? b : a;
}

/* Member name of a struct/union, looking into anonymous members too. */
Type *lw_member_type(Type *t, int name)
{
	if (!t || (t->kind != TY_STRUCT && t->kind != TY_UNION))
		return NULL;
	for (uint32_t i = 0; i < t->members.len; i++) {
		Member *m = &t->members.items[i];
		Type *inner;

		if (m->name == name)
			return m->type;
		if (m->name == 0 && (inner = lw_member_type(m->type, name)))
			return inner;
	}
	return NULL;
}

/* Element type of an array or pointee of a pointer, else NULL. */
Type *lw_pointee(Type *t)
{
	return lw_is_ptrlike(t) ? t->base : NULL;
}

/* ---- declaration specifiers and declarators ---- */


/* Built-in names of <stdint.h>, <stddef.h> and friends, when not typedef'd here. */
static Type *builtin_type(const char *s)
{
	static const struct {
		const char *name;
		PrimKind p;
	} tab[] = {
		{ "int8_t", P_SCHAR }, { "uint8_t", P_UCHAR }, { "int16_t", P_SHORT },
		{ "uint16_t", P_USHORT }, { "int32_t", P_INT }, { "uint32_t", P_UINT },
		{ "int64_t", P_LONG }, { "uint64_t", P_ULONG }, { "size_t", P_ULONG },
		{ "ssize_t", P_LONG }, { "ptrdiff_t", P_LONG }, { "intptr_t", P_LONG },
		{ "uintptr_t", P_ULONG }, { "intmax_t", P_LONG }, { "uintmax_t", P_ULONG },
		{ "_Bool", P_BOOL }, { "bool", P_BOOL }, { "char8_t", P_UCHAR },
		{ "char16_t", P_USHORT }, { "char32_t", P_UINT }, { "wchar_t", P_INT },
		{ "int_fast32_t", P_LONG }, { "uint_fast32_t", P_ULONG },
		{ "int_least32_t", P_INT }, { "uint_least32_t", P_UINT },
		{ "max_align_t", P_LDOUBLE }, { "char", P_CHAR }, { "int", P_INT },
		{ "float", P_FLOAT }, { "double", P_DOUBLE }, { "void", P_VOID },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(*tab); i++)
		if (strcmp(s, tab[i].name) == 0)
			return lw_prim(tab[i].p);
	if (strcmp(s, "nullptr_t") == 0)
		return lw_pointer_to(lw_prim(P_VOID));
	if (strcmp(s, "charptr_t") == 0)
		return lw_pointer_to(lw_prim(P_CHAR));
	return NULL;
}

// primitive_type = 'int' | 'float' | 'int32_t' | 'size_t' | ...
// type_identifier = a typedef name: ours, a built-in one, or TY_NAMED
static Type *lower_type_name(TSNode n)
{
	int name = node_name(n);
	Ident *id = lw_lookup(name);
	Type *t;

	if (id && id->kind == ID_TYPEDEF)
		return id->type;
	t = builtin_type(intern_name(name));
	return t ? t : named_type(name);
}

/* Which integer or float type the keywords of a sized_type_specifier name. */
static Type *sized_type(int nlong, bool shrt, bool uns, bool sgn, Type *base)
{
	bool is_char = base && base->kind == TY_INT && base->size == 1;

	if (base && base->kind == TY_FLOAT)
		return nlong ? lw_prim(P_LDOUBLE) : base;
	if (is_char)
		return uns ? lw_prim(P_UCHAR) : sgn ? lw_prim(P_SCHAR) : lw_prim(P_CHAR);
	if (shrt)
		return uns ? lw_prim(P_USHORT) : lw_prim(P_SHORT);
	if (nlong >= 2)
		return uns ? lw_prim(P_ULLONG) : lw_prim(P_LLONG);
	if (nlong == 1)
		return uns ? lw_prim(P_ULONG) : lw_prim(P_LONG);
	return uns ? lw_prim(P_UINT) : lw_prim(P_INT);
}

// sized_type_specifier = ('signed' | 'unsigned' | 'long' | 'short')+ type_qualifier* type:(primitive_type | type_identifier)?
/* Blank or a comment from p on: the end of a macro's replacement. */
static bool at_end(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p == end || (end - p >= 2 && p[0] == '/' && (p[1] == '/' || p[1] == '*'));
}

/* One word of a type spelled in text: a modifier, a qualifier, or the one base type. */
static bool type_word(const char *w, size_t n, int *nlong, bool *shrt, bool *uns, bool *sgn,
                      Quals *q, Type **base)
{
	char name[64];
	Ident *id;
	Type *t;

	if (n >= sizeof(name))
		return false;
	memcpy(name, w, n);
	name[n] = '\0';
	if (!strcmp(name, "long"))
		return ++*nlong <= 2;
	if (!strcmp(name, "short") || !strcmp(name, "unsigned") || !strcmp(name, "signed")) {
		*(name[1] == 'h' ? shrt : name[0] == 'u' ? uns : sgn) = true;
		return true;
	}
	if (!strcmp(name, "const") || !strcmp(name, "volatile")) {
		*(name[0] == 'c' ? &q->is_const : &q->is_volatile) = true;
		return true;
	}
	id = lw_lookup(intern(w, n));
	t = id && id->kind == ID_TYPEDEF ? id->type : builtin_type(name);
	if (!t || *base || (id && id->kind != ID_TYPEDEF))
		return false;
	*base = t;
	return true;
}

/*
 * The type a macro's replacement text spells, when it is nothing but type
 * words (`double`, `unsigned long`, `const float`, `int32_t`, a typedef
 * name): `#define DATA_TYPE double` makes DATA_TYPE a typedef name.
 */
Type *lw_type_of_text(const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	int nlong = 0;
	bool shrt = false, uns = false, sgn = false;
	Type *base = NULL;
	Quals q = { 0 };

	while (!at_end(p, end)) {
		const char *w;

		while (*p == ' ' || *p == '\t')
			p++;
		for (w = p; p < end && (isalnum((unsigned char)*p) || *p == '_'); p++)
			;
		if (p == w || !type_word(w, (size_t)(p - w), &nlong, &shrt, &uns, &sgn, &q, &base))
			return NULL; /* punctuation, a second base type, or not a type word */
	}
	if (!base && !nlong && !shrt && !uns && !sgn)
		return NULL;
	if (base && base->kind != TY_INT && !(base->kind == TY_FLOAT && nlong == 1 && !shrt && !uns &&
	                                      !sgn) && (nlong || shrt || uns || sgn))
		return NULL;
	if (nlong || shrt || uns || sgn)
		base = sized_type(nlong, shrt, uns, sgn, base);
	return qualified(base, &q);
}

static Type *lower_sized_type(TSNode n)
{
	Kids k;
	TSNode c;
	int nlong = 0;
	bool shrt = false, uns = false, sgn = false;
	Type *base = NULL;
	Quals q = { 0 };

	kids_init(&k, n);
	while (kids_next(&k, &c)) {
		if (kids_field_is(&k, "type"))
			base = lower_type_name(c);
		else if (node_kind(c) == N_TYPE_QUALIFIER)
			add_qualifier(c, &q);
		else if (node_is(c, "long"))
			nlong++;
		else if (node_is(c, "short"))
			shrt = true;
		else if (node_is(c, "unsigned"))
			uns = true;
		else if (node_is(c, "signed"))
			sgn = true;
	}
	return qualified(sized_type(nlong, shrt, uns, sgn, base), &q);
}

// storage_class_specifier = 'static' | 'extern' | 'register' | 'inline' | ...
void lw_add_storage(const char *w, size_t len, DeclSpec *ds)
{
	static const char *const inl[] = { "inline", "__inline", "__inline__", "__forceinline" };

	for (size_t i = 0; i < sizeof(inl) / sizeof(*inl); i++)
		if (strlen(inl[i]) == len && memcmp(w, inl[i], len) == 0)
			ds->is_inline = true;
	if (len == 6 && memcmp(w, "static", 6) == 0)
		ds->storage = SC_STATIC;
	else if (len == 6 && memcmp(w, "extern", 6) == 0)
		ds->storage = SC_EXTERN;
	else if (len == 8 && memcmp(w, "register", 8) == 0)
		ds->storage = SC_REGISTER;
	else if ((len == 8 && memcmp(w, "__thread", 8) == 0) ||
	         (len == 12 && memcmp(w, "thread_local", 12) == 0) ||
	         (len == 13 && memcmp(w, "_Thread_local", 13) == 0))
		ds->is_thread_local = true;
}

/* Where the specifiers of n end: at its first declarator, or its end. */
static uint32_t specifiers_end(TSNode n)
{
	TSNode d = node_field(n, "declarator");

	return ts_node_is_null(d) ? node_end(n) : node_start(d);
}

/*
 * `double _Complex`: a record of two base values to the analysis, which
 * then sees its size and never takes it for a scalar it could reduce.
 * `_Complex` alone is GCC's `double _Complex`.
 */
static Type *complex_of(Type *base)
{
	Type *t;

	if (!base)
		base = lw_prim(P_DOUBLE);
	t = new_type(TY_STRUCT, base->size > 0 ? 2 * base->size : -1, base->align);
	t->tag = intern("_Complex", 8);
	return t;
}

/*
 * The specifiers of a declaration, function_definition, field_declaration,
 * parameter_declaration, type_definition or type_descriptor:
 *   (storage_class_specifier | type_qualifier | attribute...)* type:type_specifier (...)*
 */
void lower_specifiers(TSNode n, DeclSpec *ds)
{
	Kids k;
	TSNode c;
	Quals q = { 0 };
	Type *base = NULL;
	uint32_t len;
	const char *w;

	memset(ds, 0, sizeof(*ds));
	kids_init(&k, n);
	while (kids_next(&k, &c)) {
		if (kids_field_is(&k, "type") && !base) {
			base = lower_specifier(c);
		} else if (node_kind(c) == N_TYPE_QUALIFIER) {
			add_qualifier(c, &q);
		} else if (node_kind(c) == N_STORAGE_CLASS_SPECIFIER) {
			w = node_text(c, &len);
			lw_add_storage(w, len, ds);
		}
	}
	if (lw_hidden_complex(node_start(n), specifiers_end(n)))
		base = complex_of(base);
	ds->type = qualified(base ? base : lw_prim(P_INT), &q);
}

static Type *lower_func_type(TSNode fd, Type *ret);

// array_declarator = declarator:_declarator? '[' type_qualifier* size:(expression | '*')? ']'
static Type *lower_array_dim(TSNode d, Type *elem)
{
	TSNode size = node_field(d, "size");
	Type *t;
	int64_t len;
	Expr *e;

	if (ts_node_is_null(size))
		return lw_array_of(elem, -1);
	if (!ts_node_is_named(size)) { /* '[*]' */
		t = lw_array_of(elem, -1);
		t->is_vla = true;
		return t;
	}
	e = lower_expr(size);
	if (ir_const_eval(e, &len) && len >= 0)
		return lw_array_of(elem, len);
	t = lw_array_of(elem, -1);
	t->is_vla = true;
	t->vla_len = e;
	return t;
}

/* The node inside a parenthesized or attributed declarator. */
static TSNode inner_declarator(TSNode d)
{
	Kids k;
	TSNode c, found = { 0 };

	kids_init(&k, d);
	while (kids_next(&k, &c)) {
		NodeKind kind = node_kind(c);

		if (ts_node_is_null(found) && node_is_content(c) && kind != N_MS_CALL_MODIFIER &&
		    kind != N_ATTRIBUTE_DECLARATION)
			found = c;
	}
	return found;
}

// pointer_declarator = '*' type_qualifier* declarator:_declarator
static Type *lower_pointer(TSNode d, Type *base)
{
	Kids k;
	TSNode c;
	Quals q = { 0 };

	kids_init(&k, d);
	while (kids_next(&k, &c))
		if (node_kind(c) == N_TYPE_QUALIFIER)
			add_qualifier(c, &q);
	return qualified(lw_pointer_to(base), &q);
}

/*
 * declarator = identifier | pointer_declarator | array_declarator
 *            | function_declarator | parenthesized_declarator
 *            | attributed_declarator (and their field, type and abstract forms)
 * Applied from the outside in: each level wraps the type built so far.
 */
void lower_declarator(TSNode d, Type *t, Declarator *out)
{
	memset(out, 0, sizeof(*out));
	while (!ts_node_is_null(d)) {
		switch (node_kind(d)) {
		case N_POINTER_DECLARATOR:
		case N_ABSTRACT_POINTER_DECLARATOR:
			t = lower_pointer(d, t);
			d = node_field(d, "declarator");
			break;
		case N_ARRAY_DECLARATOR:
		case N_ABSTRACT_ARRAY_DECLARATOR:
			t = lower_array_dim(d, t);
			d = node_field(d, "declarator");
			break;
		case N_FUNCTION_DECLARATOR:
			if (lw_is_macro_declarator(d) && lower_macro_declarator(d, t, out))
				return;
			/* fall through */
		case N_ABSTRACT_FUNCTION_DECLARATOR:
			t = lower_func_type(d, t);
			out->func = d;
			d = node_field(d, "declarator");
			break;
		case N_PARENTHESIZED_DECLARATOR:
		case N_ABSTRACT_PARENTHESIZED_DECLARATOR:
		case N_ATTRIBUTED_DECLARATOR:
			d = inner_declarator(d);
			break;
		default: /* identifier, field_identifier, type_identifier, primitive_type */
			out->name = node_name(d);
			out->name_node = d;
			d = (TSNode){ 0 };
			break;
		}
	}
	out->type = t;
}

// parameter_declaration = specifiers declarator:(_declarator | _abstract_declarator)?
static void lower_param_decl(TSNode p, Declarator *dc)
{
	DeclSpec ds;

	lower_specifiers(p, &ds);
	lower_declarator(node_field(p, "declarator"), ds.type, dc);
}

// function_declarator = declarator:_declarator parameters:parameter_list
// parameter_list = '(' (parameter_declaration | variadic_parameter | identifier),* ')'
static Type *lower_func_type(TSNode fd, Type *ret)
{
	Type *t = new_type(TY_FUNC, -1, 0);
	Kids k;
	TSNode c;
	Declarator dc;

	t->base = ret;
	kids_init(&k, node_field(fd, "parameters"));
	while (kids_next(&k, &c)) {
		switch (node_kind(c)) {
		case N_PARAMETER_DECLARATION:
			lower_param_decl(c, &dc);
			if (dc.type->kind == TY_VOID && ts_node_is_null(node_field(c, "declarator")))
				break; /* '(void)': no parameters */
			array_push(&t->members, ((Member){ dc.name, dc.type, -1 }));
			break;
		case N_IDENTIFIER: /* K&R parameter list: int until declared */
			array_push(&t->members, ((Member){ node_name(c), lw_prim(P_INT), -1 }));
			break;
		case N_VARIADIC_PARAMETER:
			t->is_variadic = true;
			break;
		default:
			break;
		}
	}
	return t;
}

// type_descriptor = type_qualifier* type:type_specifier type_qualifier* declarator:_abstract_declarator?
Type *lower_type_descriptor(TSNode n)
{
	DeclSpec ds;
	Declarator dc;

	lower_specifiers(n, &ds);
	lower_declarator(node_field(n, "declarator"), ds.type, &dc);
	return dc.type;
}

/* ---- struct, union and enum ---- */

/* Struct layout in progress (C rules, as chibicc lays out bitfields). */
typedef struct Layout {
	Type *t;
	int64_t bits;  /* next free bit */
	int align;     /* strictest member alignment so far */
	bool unknown;  /* a member of unknown size: later offsets are unknown */
} Layout;

static int64_t align_to(int64_t n, int64_t a)
{
	return a > 0 ? (n + a - 1) / a * a : n;
}

/* 'float data[];' as the last member of a struct. */
static bool is_flexible(const Type *t)
{
	return t->kind == TY_ARRAY && t->array_len < 0 && !t->is_vla && t->base->size >= 0;
}

/* Adds a member; width is the bitfield width, or -1 for an ordinary member. */
static void layout_add(Layout *lay, int name, Type *mt, int64_t width)
{
	Member m = { name, mt, -1 };
	int64_t unit = mt->size > 0 ? mt->size * 8 : 8;

	if (mt->align < 0) /* a typedef that names its alignment */
		lay->unknown = true;
	if (lay->t->kind == TY_UNION) {
		int64_t bits = width >= 0 ? align_to(width, unit) : mt->size * 8;

		m.offset = 0;
		if (width < 0 && mt->size < 0)
			lay->unknown = true;
		else if (bits > lay->bits)
			lay->bits = bits;
	} else if (lay->unknown) {
		m.offset = -1;
	} else if (width >= 0) {
		if (width == 0 || lay->bits / unit != (lay->bits + width - 1) / unit)
			lay->bits = align_to(lay->bits, unit);
		m.offset = lay->bits / unit * (unit / 8);
		lay->bits += width;
	} else {
		lay->bits = align_to(lay->bits, mt->align > 0 ? mt->align * 8 : 8);
		m.offset = lay->bits / 8;
		if (mt->size >= 0)
			lay->bits += mt->size * 8;
		else if (!is_flexible(mt)) /* a flexible array member adds nothing */
			lay->unknown = true;
	}
	if (mt->align > lay->align)
		lay->align = mt->align;
	if (name || width < 0) /* unnamed bitfields are padding */
		array_push(&lay->t->members, m);
}

static void layout_finish(Layout *lay)
{
	int align = lay->align > 0 ? lay->align : 1;

	lay->t->align = align;
	lay->t->size = lay->unknown ? -1 : align_to(align_to(lay->bits, 8) / 8, align);
}

// bitfield_clause = ':' expression
static int64_t bitfield_width(TSNode n)
{
	int64_t w;

	if (!ir_const_eval(lower_expr(node_first_content(n)), &w) || w < 0)
		return 0;
	return w;
}

// field_declaration = specifiers (declarator:_field_declarator bitfield_clause?),* ';'
static void lower_field_decl(Layout *lay, TSNode n)
{
	DeclSpec ds;
	Declarator dc;
	Kids k;
	TSNode c, d = { 0 };
	bool any = false;

	lower_specifiers(n, &ds);
	kids_init(&k, n);
	while (kids_next(&k, &c)) {
		if (kids_field_is(&k, "declarator")) {
			if (!ts_node_is_null(d))
				layout_add(lay, dc.name, dc.type, -1);
			lower_declarator(c, ds.type, &dc);
			d = c;
			any = true;
		} else if (node_kind(c) == N_BITFIELD_CLAUSE) {
			if (ts_node_is_null(d))
				layout_add(lay, 0, ds.type, bitfield_width(c));
			else
				layout_add(lay, dc.name, dc.type, bitfield_width(c));
			d = (TSNode){ 0 };
		}
	}
	if (!ts_node_is_null(d))
		layout_add(lay, dc.name, dc.type, -1);
	else if (!any) /* anonymous struct or union member */
		layout_add(lay, 0, ds.type, -1);
}

static bool is_preproc_cond(NodeKind k)
{
	return k == N_PREPROC_IF || k == N_PREPROC_IFDEF;
}

// field_declaration_list = '{' (field_declaration | preproc_if | preproc_def ...)* '}'
static void lower_fields(Layout *lay, TSNode list)
{
	Kids k;
	TSNode c;

	kids_init(&k, list);
	while (kids_next(&k, &c)) {
		if (node_kind(c) == N_FIELD_DECLARATION)
			lower_field_decl(lay, c);
		else if (is_preproc_cond(node_kind(c)) && !kids_field_is(&k, "alternative"))
			lower_fields(lay, c); /* best effort: the first branch */
	}
}

/* An incomplete struct/union: declared by tag, members not seen yet. */
static bool is_incomplete(const Type *t)
{
	return t->size < 0 && t->members.len == 0;
}

static bool hides_bitfield(uint32_t start, uint32_t end)
{
	for (uint32_t i = 0; i < lw.src->hidden.len; i++) {
		const Hidden *h = &lw.src->hidden.items[i];

		if (h->kind == HIDE_BITFIELD && h->start >= start && h->end <= end)
			return true;
	}
	return false;
}

/* A #pragma pack anywhere in the file: it may apply to any record. Scanned once per file. */
static bool has_pragma_pack(void)
{
	const char *p = lw.src->text;

	while (!lw.pragma_pack && (p = strstr(p, "pragma")) != NULL) {
		const char *eol = strchr(p, '\n');

		p += 6;
		if (pp_word_in("pack", 4, p, eol ? eol : p + strlen(p)))
			lw.pragma_pack = 1;
	}
	if (!lw.pragma_pack)
		lw.pragma_pack = -1;
	return lw.pragma_pack > 0;
}

/*
 * Does the record at [start, end) name its alignment or packing: an
 * attribute (hidden by pp_scan) inside it or right after its closing
 * brace, `_Alignas`, or a #pragma pack?  Then the compiler's layout is not
 * C's default one, and the analysis must not guess its offsets.
 */
static bool layout_attributed(uint32_t start, uint32_t end)
{
	uint32_t after = end;

	while (after < lw.src->len && strchr(" \t\r\n", lw.src->text[after]))
		after++;
	for (uint32_t i = 0; i < lw.src->hidden.len; i++) {
		const Hidden *h = &lw.src->hidden.items[i];

		if (h->kind == HIDE_ATTRIBUTE && ((h->start >= start && h->end <= end) || h->start == after))
			return true;
	}
	return pp_word_in("_Alignas", 8, lw.src->text + start, lw.src->text + end) ||
	       pp_word_in("alignas", 7, lw.src->text + start, lw.src->text + end) || has_pragma_pack();
}

// struct_specifier = 'struct' name:type_identifier? body:field_declaration_list?
// union_specifier  = 'union'  name:type_identifier? body:field_declaration_list?
static Type *lower_record(TSNode n, TypeKind kind)
{
	TSNode name = node_field(n, "name"), body = node_field(n, "body");
	int tag = ts_node_is_null(name) ? 0 : node_name(name);
	Type *t = tag ? lw_bindings(tag)->tag : NULL;
	Layout lay = { 0 };

	if (ts_node_is_null(body) && t && t->kind == kind)
		return t;
	if (!t || t->kind != kind || !is_incomplete(t)) {
		t = new_type(kind, -1, 0); /* a new tag, or a redefinition */
		t->tag = tag;
		if (tag)
			lw_bindings(tag)->tag = t;
	}
	if (ts_node_is_null(body))
		return t;
	lay.t = t;
	/* pp_scan hid an unnamed bit-field: its padding is unknown, so are the offsets */
	lay.unknown = hides_bitfield(ts_node_start_byte(body), ts_node_end_byte(body)) ||
	              layout_attributed(ts_node_start_byte(n), ts_node_end_byte(n));
	lower_fields(&lay, body);
	layout_finish(&lay);
	array_push(&lw.lt->records, t);
	return t;
}

// enumerator = name:identifier ('=' value:expression)?
static void lower_enumerator(TSNode n, int64_t *next)
{
	TSNode value = node_field(n, "value");
	Ident *id;
	int64_t v;

	if (!ts_node_is_null(value) && ir_const_eval(lower_expr(value), &v))
		*next = v;
	id = lw_bind(node_name(node_field(n, "name")), ID_CONST);
	id->value = *next;
	id->type = lw_prim(P_INT);
	(*next)++;
}

// enumerator_list = '{' (enumerator | preproc_if ...),* '}'
static void lower_enumerators(TSNode list, int64_t *next)
{
	Kids k;
	TSNode c;

	kids_init(&k, list);
	while (kids_next(&k, &c)) {
		if (node_kind(c) == N_ENUMERATOR)
			lower_enumerator(c, next);
		else if (is_preproc_cond(node_kind(c)) && !kids_field_is(&k, "alternative"))
			lower_enumerators(c, next);
	}
}

// enum_specifier = 'enum' name:type_identifier? (':' underlying_type)? body:enumerator_list?
static Type *lower_enum(TSNode n)
{
	TSNode name = node_field(n, "name"), body = node_field(n, "body");
	int tag = ts_node_is_null(name) ? 0 : node_name(name);
	Type *t = tag ? lw_bindings(tag)->tag : NULL;
	int64_t next = 0;

	if (!t || t->kind != TY_ENUM || !ts_node_is_null(body)) {
		t = new_type(TY_ENUM, 4, 4);
		t->tag = tag;
		if (tag)
			lw_bindings(tag)->tag = t;
	}
	if (!ts_node_is_null(body))
		lower_enumerators(body, &next);
	return t;
}

// type_specifier = struct_specifier | union_specifier | enum_specifier
//                | sized_type_specifier | primitive_type | type_identifier
//                | macro_type_specifier
Type *lower_specifier(TSNode n)
{
	switch (node_kind(n)) {
	case N_STRUCT_SPECIFIER:
		return lower_record(n, TY_STRUCT);
	case N_UNION_SPECIFIER:
		return lower_record(n, TY_UNION);
	case N_ENUM_SPECIFIER:
		return lower_enum(n);
	case N_SIZED_TYPE_SPECIFIER:
		return lower_sized_type(n);
	case N_PRIMITIVE_TYPE:
	case N_TYPE_IDENTIFIER:
		return lower_type_name(n);
	case N_MACRO_TYPE_SPECIFIER: /* NAME(type): a macro we cannot expand */
		return named_type(node_name(node_field(n, "name")));
	default:
		return named_type(0);
	}
}

// type_definition = 'typedef' type_qualifier* type:type_specifier type_qualifier* declarator:_type_declarator,+ ';'
/*
 * A typedef that names an alignment (`typedef double ad
 * __attribute__((aligned(32)));`): its alignment is unknown (-1), and so
 * are the offsets of a record that holds one (layout_add).
 */
static Type *unknown_alignment(Type *t)
{
	Type *c = ARENA_NEW(Type);

	*c = *t;
	c->align = -1;
	return c;
}

void lower_typedef(TSNode n)
{
	DeclSpec ds;
	Declarator dc;
	Kids k;
	TSNode c;
	bool aligned;

	aligned = layout_attributed(ts_node_start_byte(n), ts_node_end_byte(n));
	lower_specifiers(n, &ds);
	kids_init(&k, n);
	while (kids_next(&k, &c)) {
		if (!kids_field_is(&k, "declarator"))
			continue;
		lower_declarator(c, ds.type, &dc);
		if (dc.name)
			lw_bind(dc.name, ID_TYPEDEF)->type = aligned ? unknown_alignment(dc.type) : dc.type;
	}
}

