/*
 * lower.c - lowers one source's tree-sitter tree into mtpar's IR: types with
 * C layout, objects resolved through block scopes (one program-wide table
 * for external linkage), expressions, statements, loops with their induction
 * variables and trip counts, and the constructs later passes must treat as
 * unmodelled.  After this pass no stage looks at tree-sitter nodes again.
 *
 * One recursive walk, linear in the tree: each lowering function names the
 * node shape it reads (chibicc's "// stmt = ..." lines).  Names resolve
 * through one table indexed by interned name (NameInfo): the innermost
 * binding of the source being lowered, undone scope by scope as in a
 * shadow stack, beside the program-wide entries (objects with external
 * linkage, struct/union/enum tags, definitions and prototypes) that make
 * several sources one program.  Unmodelled constructs are noted where they
 * are met and flow up: each Stmt ORs in what its parts noted.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "frontend.h"

#define X_NAME(k, s) s,
const char *const type_kind_name[] = { TYPE_KINDS(X_NAME) };
const char *const expr_kind_name[] = { EXPR_KINDS(X_NAME) };
const char *const stmt_kind_name[] = { STMT_KINDS(X_NAME) };
const char *const op_name[] = { OP_KINDS(X_NAME) };
const char *const unmodelled_name[] = { UNMODELLED_KINDS(X_NAME) };

/* ---- node kinds: the grammar's named symbols we read, as an enum ---- */

#define NODE_KINDS(X)                                                        \
	X(N_OTHER, "")                                                          \
	X(N_COMMENT, "comment") X(N_ERROR, "ERROR")                              \
	X(N_FUNCTION_DEFINITION, "function_definition")                          \
	X(N_DECLARATION, "declaration") X(N_TYPE_DEFINITION, "type_definition")  \
	X(N_LINKAGE_SPECIFICATION, "linkage_specification")                      \
	X(N_DECLARATION_LIST, "declaration_list")                                \
	X(N_PREPROC_IF, "preproc_if") X(N_PREPROC_IFDEF, "preproc_ifdef")        \
	X(N_PREPROC_INCLUDE, "preproc_include") X(N_PREPROC_DEF, "preproc_def")  \
	X(N_PREPROC_FUNCTION_DEF, "preproc_function_def")                        \
	X(N_PREPROC_CALL, "preproc_call")                                        \
	X(N_STORAGE_CLASS_SPECIFIER, "storage_class_specifier")                  \
	X(N_TYPE_QUALIFIER, "type_qualifier")                                    \
	X(N_STRUCT_SPECIFIER, "struct_specifier")                                \
	X(N_UNION_SPECIFIER, "union_specifier")                                  \
	X(N_ENUM_SPECIFIER, "enum_specifier")                                    \
	X(N_MACRO_TYPE_SPECIFIER, "macro_type_specifier")                        \
	X(N_SIZED_TYPE_SPECIFIER, "sized_type_specifier")                        \
	X(N_PRIMITIVE_TYPE, "primitive_type") X(N_TYPE_IDENTIFIER, "type_identifier") \
	X(N_FIELD_DECLARATION, "field_declaration")                              \
	X(N_BITFIELD_CLAUSE, "bitfield_clause") X(N_ENUMERATOR, "enumerator")    \
	X(N_IDENTIFIER, "identifier") X(N_FIELD_IDENTIFIER, "field_identifier")  \
	X(N_INIT_DECLARATOR, "init_declarator")                                  \
	X(N_POINTER_DECLARATOR, "pointer_declarator")                            \
	X(N_ARRAY_DECLARATOR, "array_declarator")                                \
	X(N_FUNCTION_DECLARATOR, "function_declarator")                          \
	X(N_PARENTHESIZED_DECLARATOR, "parenthesized_declarator")                \
	X(N_ATTRIBUTED_DECLARATOR, "attributed_declarator")                      \
	X(N_ABSTRACT_POINTER_DECLARATOR, "abstract_pointer_declarator")          \
	X(N_ABSTRACT_ARRAY_DECLARATOR, "abstract_array_declarator")              \
	X(N_ABSTRACT_FUNCTION_DECLARATOR, "abstract_function_declarator")        \
	X(N_ABSTRACT_PARENTHESIZED_DECLARATOR, "abstract_parenthesized_declarator") \
	X(N_PARAMETER_DECLARATION, "parameter_declaration")                      \
	X(N_VARIADIC_PARAMETER, "variadic_parameter")                            \
	X(N_MS_CALL_MODIFIER, "ms_call_modifier")                                \
	X(N_COMPOUND_STATEMENT, "compound_statement")                            \
	X(N_EXPRESSION_STATEMENT, "expression_statement")                        \
	X(N_IF_STATEMENT, "if_statement") X(N_SWITCH_STATEMENT, "switch_statement") \
	X(N_CASE_STATEMENT, "case_statement") X(N_WHILE_STATEMENT, "while_statement") \
	X(N_DO_STATEMENT, "do_statement") X(N_FOR_STATEMENT, "for_statement")    \
	X(N_RETURN_STATEMENT, "return_statement")                                \
	X(N_BREAK_STATEMENT, "break_statement")                                  \
	X(N_CONTINUE_STATEMENT, "continue_statement")                            \
	X(N_GOTO_STATEMENT, "goto_statement")                                    \
	X(N_LABELED_STATEMENT, "labeled_statement")                              \
	X(N_ATTRIBUTED_STATEMENT, "attributed_statement")                        \
	X(N_ATTRIBUTE_DECLARATION, "attribute_declaration")                      \
	X(N_NUMBER_LITERAL, "number_literal") X(N_STRING_LITERAL, "string_literal") \
	X(N_CONCATENATED_STRING, "concatenated_string")                          \
	X(N_CHAR_LITERAL, "char_literal") X(N_TRUE, "true") X(N_FALSE, "false")  \
	X(N_NULL, "null") X(N_STRING_CONTENT, "string_content")                  \
	X(N_ESCAPE_SEQUENCE, "escape_sequence")                                  \
	X(N_BINARY_EXPRESSION, "binary_expression")                              \
	X(N_UNARY_EXPRESSION, "unary_expression")                                \
	X(N_POINTER_EXPRESSION, "pointer_expression")                            \
	X(N_UPDATE_EXPRESSION, "update_expression")                              \
	X(N_ASSIGNMENT_EXPRESSION, "assignment_expression")                      \
	X(N_CONDITIONAL_EXPRESSION, "conditional_expression")                    \
	X(N_COMMA_EXPRESSION, "comma_expression")                                \
	X(N_CALL_EXPRESSION, "call_expression")                                  \
	X(N_SUBSCRIPT_EXPRESSION, "subscript_expression")                        \
	X(N_FIELD_EXPRESSION, "field_expression")                                \
	X(N_CAST_EXPRESSION, "cast_expression")                                  \
	X(N_SIZEOF_EXPRESSION, "sizeof_expression")                              \
	X(N_ALIGNOF_EXPRESSION, "alignof_expression")                            \
	X(N_OFFSETOF_EXPRESSION, "offsetof_expression")                          \
	X(N_GENERIC_EXPRESSION, "generic_expression")                            \
	X(N_COMPOUND_LITERAL_EXPRESSION, "compound_literal_expression")          \
	X(N_PARENTHESIZED_EXPRESSION, "parenthesized_expression")                \
	X(N_INITIALIZER_LIST, "initializer_list")                                \
	X(N_INITIALIZER_PAIR, "initializer_pair")                                \
	X(N_GNU_ASM_EXPRESSION, "gnu_asm_expression")                            \
	X(N_EXTENSION_EXPRESSION, "extension_expression")                        \
	X(N_TYPE_DESCRIPTOR, "type_descriptor")

typedef enum NodeKind { NODE_KINDS(X_ENUM) } NodeKind;
static const char *const node_kind_name[] = { NODE_KINDS(X_NAME) };

/* TSSymbol -> NodeKind, built once for the grammar (it never changes). */
static uint8_t *sym_kind;
static uint32_t nsyms;

static void build_sym_kinds(const TSLanguage *lang)
{
	uint32_t n = ts_language_symbol_count(lang);

	if (sym_kind && nsyms == n)
		return;
	free(sym_kind);
	sym_kind = xcalloc(n, sizeof(*sym_kind));
	nsyms = n;
	for (uint32_t s = 0; s < n; s++) {
		const char *name = ts_language_symbol_name(lang, (TSSymbol)s);

		if (ts_language_symbol_type(lang, (TSSymbol)s) != TSSymbolTypeRegular || !name)
			continue;
		for (int k = 1; k < (int)(sizeof(node_kind_name) / sizeof(*node_kind_name)); k++)
			if (strcmp(name, node_kind_name[k]) == 0)
				sym_kind[s] = (uint8_t)k;
	}
}

static NodeKind nk(TSNode n)
{
	TSSymbol s = ts_node_symbol(n);

	if (ts_node_is_null(n))
		return N_OTHER;
	if (s == (TSSymbol)-1)
		return N_ERROR;
	return s < nsyms ? (NodeKind)sym_kind[s] : N_OTHER;
}

static TSNode field(TSNode n, const char *name)
{
	return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

/*
 * Children of a node in order.  tree-sitter's cursor walks them in linear
 * time, where ts_node_child(n, i) restarts from the first child.
 */
typedef struct Kids {
	TSTreeCursor cur;
	bool live;    /* cursor allocated, not yet exhausted */
	bool started; /* the cursor stands on a child */
} Kids;

static void kids_init(Kids *k, TSNode n)
{
	k->cur = ts_tree_cursor_new(n);
	k->live = true;
	k->started = false;
}

/* Next child, named or not; false at the end, where the cursor is freed. */
static bool kids_next(Kids *k, TSNode *out)
{
	bool ok;

	if (!k->live)
		return false;
	ok = k->started ? ts_tree_cursor_goto_next_sibling(&k->cur)
	                : ts_tree_cursor_goto_first_child(&k->cur);
	k->started = true;
	if (!ok) {
		ts_tree_cursor_delete(&k->cur);
		k->live = false;
		return false;
	}
	*out = ts_tree_cursor_current_node(&k->cur);
	return true;
}

static bool kids_field_is(const Kids *k, const char *name)
{
	const char *f = ts_tree_cursor_current_field_name(&k->cur);

	return f && strcmp(f, name) == 0;
}

/* A named child that is not a comment (the grammar's extras). */
static bool is_content(TSNode n)
{
	return ts_node_is_named(n) && nk(n) != N_COMMENT;
}

/* The first named, non-comment child, or a null node. */
static TSNode first_content(TSNode n)
{
	Kids k;
	TSNode c, found = { 0 };

	kids_init(&k, n);
	while (kids_next(&k, &c))
		if (ts_node_is_null(found) && is_content(c))
			found = c;
	return found;
}

/* ---- lowering state ---- */

typedef enum IdentKind {
	ID_VAR,        /* an object */
	ID_TYPEDEF,    /* a typedef name */
	ID_CONST,      /* an enumeration constant, or a '#define N 64' */
	ID_UNDEF,      /* a macro name after #undef */
	ID_FUNC,       /* a declared or defined function */
} IdentKind;

/* One binding in the ordinary name space. */
typedef struct Ident {
	IdentKind kind;
	int depth;     /* scope depth it was declared at: 0 is file scope */
	Var *var;      /* ID_VAR */
	Type *type;    /* ID_TYPEDEF: the type; ID_FUNC: its TY_FUNC type */
	int64_t value; /* ID_CONST */
} Ident;

/* Everything known about one interned name, program-wide or per source. */
typedef struct NameInfo {
	Ident *ident;     /* innermost binding in the source being lowered */
	Var *ext;         /* the object with external linkage of that name */
	Type *tag;        /* struct/union/enum with that tag */
	Func *funcs;      /* latest definition of that name (chain: LowerTables.next_func) */
	FuncDecl *decl;   /* its prototype, while no definition is known */
	bool variadic;    /* declared with '...' somewhere */
} NameInfo;

typedef struct CallSite {
	Expr *call;       /* EX_CALL with a plain callee name */
	const Source *src;
} CallSite;

enum PrimKind {
	P_VOID, P_BOOL, P_CHAR, P_SCHAR, P_UCHAR, P_SHORT, P_USHORT, P_INT, P_UINT,
	P_LONG, P_ULONG, P_LLONG, P_ULLONG, P_FLOAT, P_DOUBLE, P_LDOUBLE, NPRIM
};

struct LowerTables {
	Array(NameInfo) names;    /* by interned name id */
	Array(CallSite) calls;    /* resolved by lower_resolve_calls */
	Array(Func *) next_func;  /* by Func.id: earlier definition of the same name */
	Array(Type *) records;    /* struct/union types with members, in definition order */
	Type *prim[NPRIM];        /* primitive types of this program */
};

typedef struct Undo {
	int name;
	Ident *prev; /* binding to restore when the scope closes */
} Undo;

typedef Array(Stmt *) StmtList;

static struct {
	Program *prog;
	struct LowerTables *lt;
	const Source *src;
	Func *func;        /* function being lowered, NULL at file scope */
	int depth;         /* block depth: 0 file scope */
	Array(Undo) undo;  /* bindings to restore, innermost last */
	uint32_t um;       /* unmodelled bits of the statement being lowered */
	bool ok;           /* no diagnostic so far */
} cur;

static NameInfo *name_info(int name)
{
	struct LowerTables *lt = cur.lt;

	if (name < 0)
		die("negative name id %d", name);
	while (lt->names.len <= (uint32_t)name)
		array_push(&lt->names, (NameInfo){ 0 });
	return &lt->names.items[name];
}

static Ident *lookup(int name)
{
	if (name <= 0 || (uint32_t)name >= cur.lt->names.len)
		return NULL;
	return cur.lt->names.items[name].ident;
}

/* Binds name in the innermost scope; the caller fills the binding. */
static Ident *bind(int name, IdentKind kind)
{
	Ident *id = ARENA_NEW(Ident);
	NameInfo *ni;

	id->kind = kind;
	id->depth = cur.depth;
	if (name <= 0)
		return id;
	ni = name_info(name);
	array_push(&cur.undo, ((Undo){ name, ni->ident }));
	ni->ident = id;
	return id;
}

static uint32_t scope_enter(void)
{
	cur.depth++;
	return cur.undo.len;
}

/* Restores the bindings made since the undo log was mark long. */
static void unbind_to(uint32_t mark)
{
	while (cur.undo.len > mark) {
		Undo u = cur.undo.items[--cur.undo.len];

		cur.lt->names.items[u.name].ident = u.prev;
	}
}

static void scope_leave(uint32_t mark)
{
	unbind_to(mark);
	cur.depth--;
}

/* Records an unmodelled construct for the statement and function around it. */
static void note_um(UnmodelledKind kind, uint32_t at)
{
	cur.um |= 1u << kind;
	if (cur.func)
		array_push(&cur.func->unmodelled, ((Unmodelled){ kind, at }));
}

/* Byte offsets of a node; 0 for a null node (a field the tree lacks). */
static uint32_t node_start(TSNode n)
{
	return ts_node_is_null(n) ? 0 : ts_node_start_byte(n);
}

static uint32_t node_end(TSNode n)
{
	return ts_node_is_null(n) ? 0 : ts_node_end_byte(n);
}

static const char *node_text(TSNode n, uint32_t *len)
{
	*len = node_end(n) - node_start(n);
	return cur.src->text + node_start(n);
}

static bool node_is(TSNode n, const char *text)
{
	uint32_t len;
	const char *s = node_text(n, &len);

	return strlen(text) == len && memcmp(s, text, len) == 0;
}

static int node_name(TSNode n)
{
	uint32_t len;
	const char *s = node_text(n, &len);

	return intern(s, len);
}

static bool name_in(int name, const char *const *list)
{
	const char *s = intern_name(name);

	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

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

static Type *prim(enum PrimKind p)
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
	Type **slot = &cur.lt->prim[p];

	if (!*slot) {
		*slot = new_type(tab[p].kind, tab[p].size, tab[p].size);
		(*slot)->is_unsigned = tab[p].is_unsigned;
	}
	return *slot;
}

static Type *pointer_to(Type *base)
{
	Type *t = new_type(TY_PTR, 8, 8);

	t->base = base;
	return t;
}

/* Array of len elements (-1: unknown). */
static Type *array_of(Type *base, int64_t len)
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

/* Integer promotion: anything narrower than int becomes int. */
static Type *promote(Type *t)
{
	if (!t)
		return NULL;
	if (t->kind == TY_BOOL || t->kind == TY_ENUM || (t->kind == TY_INT && t->size < 4))
		return prim(P_INT);
	return t;
}

static bool is_arith(const Type *t)
{
	return t && (t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_BOOL ||
	             t->kind == TY_ENUM);
}

static bool is_ptrlike(const Type *t)
{
	return t && (t->kind == TY_PTR || t->kind == TY_ARRAY);
}

/* The usual arithmetic conversions, roughly; NULL when a side is unknown. */
static Type *usual_type(Type *a, Type *b)
{
	if (!is_arith(a) || !is_arith(b))
		return NULL;
	if (a->kind == TY_FLOAT || b->kind == TY_FLOAT) {
		if (a->kind != TY_FLOAT)
			return b;
		if (b->kind != TY_FLOAT)
			return a;
		return a->size >= b->size ? a : b;
	}
	a = promote(a);
	b = promote(b);
	if (a->size != b->size)
		return a->size > b->size ? a : b;
	return b->is_unsigned ? b : a;
}

/* Member name of a struct/union, looking into anonymous members too. */
static Type *member_type(Type *t, int name)
{
	if (!t || (t->kind != TY_STRUCT && t->kind != TY_UNION))
		return NULL;
	for (uint32_t i = 0; i < t->members.len; i++) {
		Member *m = &t->members.items[i];
		Type *inner;

		if (m->name == name)
			return m->type;
		if (m->name == 0 && (inner = member_type(m->type, name)))
			return inner;
	}
	return NULL;
}

/* Element type of an array or pointee of a pointer, else NULL. */
static Type *pointee(Type *t)
{
	return is_ptrlike(t) ? t->base : NULL;
}

/* ---- declaration specifiers and declarators ---- */

static Expr *lower_expr(TSNode n);
static Type *lower_specifier(TSNode n);

/* What the specifiers of one declaration say. */
typedef struct DeclSpec {
	Type *type;           /* base type, qualifiers applied */
	StorageClass storage;
	bool is_inline;
} DeclSpec;

/* Built-in names of <stdint.h>, <stddef.h> and friends, when not typedef'd here. */
static Type *builtin_type(const char *s)
{
	static const struct {
		const char *name;
		enum PrimKind p;
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
			return prim(tab[i].p);
	if (strcmp(s, "nullptr_t") == 0)
		return pointer_to(prim(P_VOID));
	if (strcmp(s, "charptr_t") == 0)
		return pointer_to(prim(P_CHAR));
	return NULL;
}

// primitive_type = 'int' | 'float' | 'int32_t' | 'size_t' | ...
// type_identifier = a typedef name: ours, a built-in one, or TY_NAMED
static Type *lower_type_name(TSNode n)
{
	int name = node_name(n);
	Ident *id = lookup(name);
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
		return nlong ? prim(P_LDOUBLE) : base;
	if (is_char)
		return uns ? prim(P_UCHAR) : sgn ? prim(P_SCHAR) : prim(P_CHAR);
	if (shrt)
		return uns ? prim(P_USHORT) : prim(P_SHORT);
	if (nlong >= 2)
		return uns ? prim(P_ULLONG) : prim(P_LLONG);
	if (nlong == 1)
		return uns ? prim(P_ULONG) : prim(P_LONG);
	return uns ? prim(P_UINT) : prim(P_INT);
}

// sized_type_specifier = ('signed' | 'unsigned' | 'long' | 'short')+ type_qualifier* type:(primitive_type | type_identifier)?
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
		else if (nk(c) == N_TYPE_QUALIFIER)
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
static void add_storage(const char *w, size_t len, DeclSpec *ds)
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
}

/*
 * The specifiers of a declaration, function_definition, field_declaration,
 * parameter_declaration, type_definition or type_descriptor:
 *   (storage_class_specifier | type_qualifier | attribute...)* type:type_specifier (...)*
 */
static void lower_specifiers(TSNode n, DeclSpec *ds)
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
		} else if (nk(c) == N_TYPE_QUALIFIER) {
			add_qualifier(c, &q);
		} else if (nk(c) == N_STORAGE_CLASS_SPECIFIER) {
			w = node_text(c, &len);
			add_storage(w, len, ds);
		}
	}
	ds->type = qualified(base ? base : prim(P_INT), &q);
}

/* The name and type a declarator gives, and the function_declarator of the name. */
typedef struct Declarator {
	int name;
	TSNode name_node; /* identifier, or null for an abstract declarator */
	Type *type;
	TSNode func;      /* innermost function_declarator, or null */
} Declarator;

static Type *lower_func_type(TSNode fd, Type *ret);

// array_declarator = declarator:_declarator? '[' type_qualifier* size:(expression | '*')? ']'
static Type *lower_array_dim(TSNode d, Type *elem)
{
	TSNode size = field(d, "size");
	Type *t;
	int64_t len;
	Expr *e;

	if (ts_node_is_null(size))
		return array_of(elem, -1);
	if (!ts_node_is_named(size)) { /* '[*]' */
		t = array_of(elem, -1);
		t->is_vla = true;
		return t;
	}
	e = lower_expr(size);
	if (ir_const_eval(e, &len) && len >= 0)
		return array_of(elem, len);
	t = array_of(elem, -1);
	t->is_vla = true;
	return t;
}

/* The node inside a parenthesized or attributed declarator. */
static TSNode inner_declarator(TSNode d)
{
	Kids k;
	TSNode c, found = { 0 };

	kids_init(&k, d);
	while (kids_next(&k, &c)) {
		NodeKind kind = nk(c);

		if (ts_node_is_null(found) && is_content(c) && kind != N_MS_CALL_MODIFIER &&
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
		if (nk(c) == N_TYPE_QUALIFIER)
			add_qualifier(c, &q);
	return qualified(pointer_to(base), &q);
}

/*
 * declarator = identifier | pointer_declarator | array_declarator
 *            | function_declarator | parenthesized_declarator
 *            | attributed_declarator (and their field, type and abstract forms)
 * Applied from the outside in: each level wraps the type built so far.
 */
static void apply_declarator(TSNode d, Type *t, Declarator *out)
{
	memset(out, 0, sizeof(*out));
	while (!ts_node_is_null(d)) {
		switch (nk(d)) {
		case N_POINTER_DECLARATOR:
		case N_ABSTRACT_POINTER_DECLARATOR:
			t = lower_pointer(d, t);
			d = field(d, "declarator");
			break;
		case N_ARRAY_DECLARATOR:
		case N_ABSTRACT_ARRAY_DECLARATOR:
			t = lower_array_dim(d, t);
			d = field(d, "declarator");
			break;
		case N_FUNCTION_DECLARATOR:
		case N_ABSTRACT_FUNCTION_DECLARATOR:
			t = lower_func_type(d, t);
			out->func = d;
			d = field(d, "declarator");
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
	apply_declarator(field(p, "declarator"), ds.type, dc);
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
	kids_init(&k, field(fd, "parameters"));
	while (kids_next(&k, &c)) {
		switch (nk(c)) {
		case N_PARAMETER_DECLARATION:
			lower_param_decl(c, &dc);
			if (dc.type->kind == TY_VOID && ts_node_is_null(field(c, "declarator")))
				break; /* '(void)': no parameters */
			array_push(&t->members, ((Member){ dc.name, dc.type, -1 }));
			break;
		case N_IDENTIFIER: /* K&R parameter list: int until declared */
			array_push(&t->members, ((Member){ node_name(c), prim(P_INT), -1 }));
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
static Type *lower_type_descriptor(TSNode n)
{
	DeclSpec ds;
	Declarator dc;

	lower_specifiers(n, &ds);
	apply_declarator(field(n, "declarator"), ds.type, &dc);
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

	if (!ir_const_eval(lower_expr(first_content(n)), &w) || w < 0)
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
			apply_declarator(c, ds.type, &dc);
			d = c;
			any = true;
		} else if (nk(c) == N_BITFIELD_CLAUSE) {
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
		if (nk(c) == N_FIELD_DECLARATION)
			lower_field_decl(lay, c);
		else if (is_preproc_cond(nk(c)) && !kids_field_is(&k, "alternative"))
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
	for (uint32_t i = 0; i < cur.src->hidden.len; i++) {
		const Hidden *h = &cur.src->hidden.items[i];

		if (h->kind == HIDE_BITFIELD && h->start >= start && h->end <= end)
			return true;
	}
	return false;
}

// struct_specifier = 'struct' name:type_identifier? body:field_declaration_list?
// union_specifier  = 'union'  name:type_identifier? body:field_declaration_list?
static Type *lower_record(TSNode n, TypeKind kind)
{
	TSNode name = field(n, "name"), body = field(n, "body");
	int tag = ts_node_is_null(name) ? 0 : node_name(name);
	Type *t = tag ? name_info(tag)->tag : NULL;
	Layout lay = { 0 };

	if (ts_node_is_null(body) && t && t->kind == kind)
		return t;
	if (!t || t->kind != kind || !is_incomplete(t)) {
		t = new_type(kind, -1, 0); /* a new tag, or a redefinition */
		t->tag = tag;
		if (tag)
			name_info(tag)->tag = t;
	}
	if (ts_node_is_null(body))
		return t;
	lay.t = t;
	/* pp_scan hid an unnamed bit-field: its padding is unknown, so are the offsets */
	lay.unknown = hides_bitfield(ts_node_start_byte(body), ts_node_end_byte(body));
	lower_fields(&lay, body);
	layout_finish(&lay);
	array_push(&cur.lt->records, t);
	return t;
}

// enumerator = name:identifier ('=' value:expression)?
static void lower_enumerator(TSNode n, int64_t *next)
{
	TSNode value = field(n, "value");
	Ident *id;
	int64_t v;

	if (!ts_node_is_null(value) && ir_const_eval(lower_expr(value), &v))
		*next = v;
	id = bind(node_name(field(n, "name")), ID_CONST);
	id->value = *next;
	id->type = prim(P_INT);
	(*next)++;
}

// enumerator_list = '{' (enumerator | preproc_if ...),* '}'
static void lower_enumerators(TSNode list, int64_t *next)
{
	Kids k;
	TSNode c;

	kids_init(&k, list);
	while (kids_next(&k, &c)) {
		if (nk(c) == N_ENUMERATOR)
			lower_enumerator(c, next);
		else if (is_preproc_cond(nk(c)) && !kids_field_is(&k, "alternative"))
			lower_enumerators(c, next);
	}
}

// enum_specifier = 'enum' name:type_identifier? (':' underlying_type)? body:enumerator_list?
static Type *lower_enum(TSNode n)
{
	TSNode name = field(n, "name"), body = field(n, "body");
	int tag = ts_node_is_null(name) ? 0 : node_name(name);
	Type *t = tag ? name_info(tag)->tag : NULL;
	int64_t next = 0;

	if (!t || t->kind != TY_ENUM || !ts_node_is_null(body)) {
		t = new_type(TY_ENUM, 4, 4);
		t->tag = tag;
		if (tag)
			name_info(tag)->tag = t;
	}
	if (!ts_node_is_null(body))
		lower_enumerators(body, &next);
	return t;
}

// type_specifier = struct_specifier | union_specifier | enum_specifier
//                | sized_type_specifier | primitive_type | type_identifier
//                | macro_type_specifier
static Type *lower_specifier(TSNode n)
{
	switch (nk(n)) {
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
		return named_type(node_name(field(n, "name")));
	default:
		return named_type(0);
	}
}

// type_definition = 'typedef' type_qualifier* type:type_specifier type_qualifier* declarator:_type_declarator,+ ';'
static void lower_typedef(TSNode n)
{
	DeclSpec ds;
	Declarator dc;
	Kids k;
	TSNode c;

	lower_specifiers(n, &ds);
	kids_init(&k, n);
	while (kids_next(&k, &c)) {
		if (!kids_field_is(&k, "declarator"))
			continue;
		apply_declarator(c, ds.type, &dc);
		if (dc.name)
			bind(dc.name, ID_TYPEDEF)->type = dc.type;
	}
}

/* ---- expressions ---- */

static Expr *new_expr(ExprKind kind, TSNode n)
{
	Expr *e = ARENA_NEW(Expr);

	e->kind = kind;
	e->start = node_start(n);
	e->end = node_end(n);
	return e;
}

/* An expression the IR does not model; the caller may add sub-expressions to args. */
static Expr *other_expr(TSNode n, UnmodelledKind um)
{
	note_um(um, node_start(n));
	return new_expr(EX_OTHER, n);
}

static Type *type_of(const Expr *e)
{
	return e ? e->type : NULL;
}

/* An array used as a value becomes a pointer to its first element. */
static Type *decayed(Type *t)
{
	return t && t->kind == TY_ARRAY ? pointer_to(t->base) : t;
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
static void note_decay(const Expr *e)
{
	Var *v;

	if (e && e->type && e->type->kind == TY_ARRAY && (v = base_var(e)))
		v->addr_taken = true;
}

// identifier = a variable in scope, an enum constant, a function, or an undeclared name
static Expr *lower_ident(TSNode n)
{
	int name = node_name(n);
	Ident *id = lookup(name);
	Expr *e;

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
		e->type = prim(P_INT);
	} else if (id && id->kind == ID_FUNC) {
		e->type = id->type;
	}
	return e;
}

/* Type of an integer literal from its value and suffix (C11 6.4.4.1, roughly). */
static Type *int_literal_type(uint64_t v, bool u, int l, bool decimal)
{
	if (!l && !u && v <= INT_MAX)
		return prim(P_INT);
	if (!l && (u || !decimal) && v <= UINT_MAX)
		return prim(P_UINT);
	if (!u && v <= INT64_MAX)
		return prim(P_LONG);
	return prim(P_ULONG);
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
		e->type = f ? prim(P_FLOAT) : l ? prim(P_LDOUBLE) : prim(P_DOUBLE);
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

	e->type = prim(P_INT);
	if (!q || q + 1 >= s + len)
		return e;
	memcpy(buf, q + 1, (size_t)(s + len - q - 1) < sizeof(buf) - 1 ? (size_t)(s + len - q - 1)
	                                                              : sizeof(buf) - 1);
	e->num.ival = buf[0] == '\\' ? escape_value(buf + 1) : (signed char)buf[0];
	return e;
}

/* Bytes of a string_literal's contents, an escape counting as one; -1 unknown. */
static int64_t string_bytes(TSNode n)
{
	Kids k;
	TSNode c;
	int64_t bytes = 0;

	kids_init(&k, n);
	while (kids_next(&k, &c)) {
		if (nk(c) == N_STRING_CONTENT)
			bytes += node_end(c) - node_start(c);
		else if (nk(c) == N_ESCAPE_SEQUENCE)
			bytes++;
		else if (nk(c) == N_STRING_LITERAL)
			bytes += string_bytes(c);
		else if (nk(c) == N_IDENTIFIER) /* a macro such as PRIu64 */
			return -1;
	}
	return bytes;
}

// string_literal = '"' (string_content | escape_sequence)* '"'
// concatenated_string = (string_literal | identifier)+
static Expr *lower_string(TSNode n)
{
	Expr *e = new_expr(EX_STR, n);
	uint32_t len;
	const char *s = node_text(n, &len);
	int64_t bytes = string_bytes(n);

	e->str = arena_strndup(s, len);
	e->type = array_of(prim(P_CHAR), bytes >= 0 ? bytes + 1 : -1);
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
		return prim(P_INT);
	case OP_SHL: case OP_SHR:
		return is_arith(lt) ? promote(lt) : NULL;
	case OP_ADD:
		if (is_ptrlike(lt) || is_ptrlike(rt))
			return decayed(is_ptrlike(lt) ? lt : rt);
		break;
	case OP_SUB:
		if (is_ptrlike(lt))
			return is_ptrlike(rt) ? prim(P_LONG) : decayed(lt);
		break;
	default:
		break;
	}
	return usual_type(lt, rt);
}

// binary_expression = left:expression operator:('+' | '-' | '*' | ... | '||') right:expression
static Expr *lower_binary(TSNode n)
{
	Expr *e = new_expr(EX_BINARY, n);

	e->op = op_of(field(n, "operator"), false);
	e->lhs = lower_expr(field(n, "left"));
	e->rhs = lower_expr(field(n, "right"));
	e->type = binary_type(e->op, e->lhs, e->rhs);
	if (e->op == OP_ADD || e->op == OP_SUB) {
		note_decay(e->lhs);
		note_decay(e->rhs);
	}
	return e;
}

// unary_expression = operator:('!' | '~' | '-' | '+') argument:expression
// pointer_expression = operator:('*' | '&') argument:expression
static Expr *lower_unary(TSNode n)
{
	Expr *e = new_expr(EX_UNARY, n);
	uint32_t len;
	const char *op = node_text(field(n, "operator"), &len);
	Type *t;
	Var *v;

	e->lhs = lower_expr(field(n, "argument"));
	t = type_of(e->lhs);
	switch (len ? op[0] : 0) {
	case '!': e->op = OP_NOT; e->type = prim(P_INT); break;
	case '~': e->op = OP_BITNOT; e->type = promote(t); break;
	case '-': e->op = OP_NEG; e->type = promote(t); break;
	case '+': e->op = OP_PLUS; e->type = promote(t); break;
	case '*': e->op = OP_DEREF; e->type = pointee(t); break;
	case '&':
		e->op = OP_ADDR;
		e->type = t ? pointer_to(t) : NULL;
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
	TSNode op = field(n, "operator"), arg = field(n, "argument");
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

	e->op = op_of(field(n, "operator"), true);
	e->lhs = lower_expr(field(n, "left"));
	e->rhs = lower_expr(field(n, "right"));
	e->type = type_of(e->lhs);
	note_decay(e->rhs);
	return e;
}

// conditional_expression = condition:expression '?' consequence:expression? ':' alternative:expression
static Expr *lower_cond(TSNode n)
{
	Expr *e = new_expr(EX_COND, n);
	Type *t;

	e->cond = lower_expr(field(n, "condition"));
	e->lhs = lower_expr(field(n, "consequence")); /* NULL for GNU 'c ?: b' */
	e->rhs = lower_expr(field(n, "alternative"));
	note_decay(e->lhs);
	note_decay(e->rhs);
	t = usual_type(type_of(e->lhs ? e->lhs : e->cond), type_of(e->rhs));
	e->type = t ? t : type_of(e->lhs) ? decayed(type_of(e->lhs)) : decayed(type_of(e->rhs));
	return e;
}

// comma_expression = left:expression ',' right:(expression | comma_expression)
static Expr *lower_comma(TSNode n)
{
	Expr *e = new_expr(EX_COMMA, n);

	e->lhs = lower_expr(field(n, "left"));
	e->rhs = lower_expr(field(n, "right"));
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
		array_push(&cur.lt->calls, ((CallSite){ e, cur.src }));
		if (name_in(e->name, jumps))
			note_um(UM_SETJMP, e->start);
	}
	if ((ft && ft->is_variadic) || (named && name_info(e->name)->variadic) ||
	    (named && name_in(e->name, variadic)))
		note_um(UM_VARIADIC_CALL, e->start);
}

// call_expression = function:expression arguments:argument_list
// argument_list = '(' (expression | compound_statement),* ')'
static Expr *lower_call(TSNode n)
{
	Expr *e = new_expr(EX_CALL, n);
	TSNode fn = field(n, "function"), c;
	Type *ft;
	Kids k;

	e->lhs = lower_expr(fn);
	if (nk(fn) == N_IDENTIFIER)
		e->name = node_name(fn);
	kids_init(&k, field(n, "arguments"));
	while (kids_next(&k, &c)) {
		Expr *a;

		if (!is_content(c))
			continue;
		a = nk(c) == N_COMPOUND_STATEMENT ? other_expr(c, UM_OTHER) : lower_expr(c);
		note_decay(a);
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

	e->lhs = lower_expr(field(n, "argument"));
	e->rhs = lower_expr(field(n, "index"));
	e->type = pointee(type_of(e->lhs));
	if (!e->type) /* i[a] */
		e->type = pointee(type_of(e->rhs));
	return e;
}

// field_expression = argument:expression operator:('.' | '->') field:field_identifier
static Expr *lower_member(TSNode n)
{
	Expr *e = new_expr(EX_MEMBER, n);
	Type *t;

	e->op = node_is(field(n, "operator"), "->") ? OP_ARROW : OP_DOT;
	e->name = node_name(field(n, "field"));
	e->lhs = lower_expr(field(n, "argument"));
	t = type_of(e->lhs);
	e->type = member_type(e->op == OP_ARROW ? pointee(t) : t, e->name);
	return e;
}

// cast_expression = '(' type:type_descriptor ')' value:expression
static Expr *lower_cast(TSNode n)
{
	Expr *e = new_expr(EX_CAST, n);

	e->cast_type = lower_type_descriptor(field(n, "type"));
	e->lhs = lower_expr(field(n, "value"));
	e->type = e->cast_type;
	note_decay(e->lhs);
	return e;
}

/* 'sizeof (T)' where T is a typedef name parses as a parenthesized identifier. */
static Type *typedef_in_parens(TSNode v)
{
	Ident *id;

	while (nk(v) == N_PARENTHESIZED_EXPRESSION)
		v = first_content(v);
	if (nk(v) != N_IDENTIFIER)
		return NULL;
	id = lookup(node_name(v));
	return id && id->kind == ID_TYPEDEF ? id->type : NULL;
}

// sizeof_expression = 'sizeof' (value:expression | '(' type:type_descriptor ')')
static Expr *lower_sizeof(TSNode n)
{
	Expr *e = new_expr(EX_SIZEOF, n);
	TSNode ty = field(n, "type"), value = field(n, "value");
	Type *t;

	e->type = prim(P_ULONG);
	if (!ts_node_is_null(ty))
		e->cast_type = lower_type_descriptor(ty);
	else if (!(e->cast_type = typedef_in_parens(value)))
		e->lhs = lower_expr(value);
	t = e->cast_type ? e->cast_type : type_of(e->lhs);
	e->num.ival = t && t->kind != TY_FUNC ? t->size : -1;
	return e;
}

// alignof_expression = '_Alignof' '(' type:type_descriptor ')'
static Expr *lower_alignof(TSNode n)
{
	Type *t = lower_type_descriptor(field(n, "type"));
	Expr *e;

	if (t->align <= 0)
		return other_expr(n, UM_OTHER);
	e = new_expr(EX_NUM, n);
	e->num.ival = t->align;
	e->type = prim(P_ULONG);
	return e;
}

// offsetof_expression = 'offsetof' '(' type:type_descriptor ',' member:field_identifier ')'
static Expr *lower_offsetof(TSNode n)
{
	Type *t = lower_type_descriptor(field(n, "type"));
	int name = node_name(field(n, "member"));
	Expr *e;

	for (uint32_t i = 0; i < t->members.len && t->kind != TY_FUNC; i++) {
		if (t->members.items[i].name != name || t->members.items[i].offset < 0)
			continue;
		e = new_expr(EX_NUM, n);
		e->num.ival = t->members.items[i].offset;
		e->type = prim(P_ULONG);
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
		if (is_content(c) && nk(c) != N_TYPE_DESCRIPTOR)
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

		if (!is_content(c))
			continue;
		a = lower_expr(nk(c) == N_INITIALIZER_PAIR ? field(c, "value") : c);
		note_decay(a);
		array_push(&e->args, a);
	}
	return e;
}

// parenthesized_expression = '(' (expression | comma_expression | compound_statement) ')'
static Expr *lower_paren(TSNode n)
{
	TSNode inner = first_content(n);

	if (nk(inner) == N_COMPOUND_STATEMENT) /* GNU statement expression */
		return other_expr(n, UM_OTHER);
	return lower_expr(inner);
}

static Expr *lower_literal(TSNode n, int64_t v)
{
	Expr *e = new_expr(EX_NUM, n);

	e->num.ival = v;
	e->type = prim(P_INT);
	return e;
}

// null = 'NULL' | 'nullptr': an undeclared name, as the macro it is
static Expr *lower_null(TSNode n)
{
	Expr *e = new_expr(EX_NAME, n);

	e->name = node_name(n);
	e->type = pointer_to(prim(P_VOID));
	return e;
}

/*
 * expression = identifier | number_literal | ... | call_expression | ...
 * Parentheses are unwrapped: the result carries the inner expression's bytes.
 * NULL for a null node.
 */
static Expr *lower_expr(TSNode n)
{
	if (ts_node_is_null(n))
		return NULL;
	switch (nk(n)) {
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
	case N_EXTENSION_EXPRESSION: return lower_expr(first_content(n));
	case N_GENERIC_EXPRESSION:
	case N_COMPOUND_LITERAL_EXPRESSION: return other_with_args(n);
	case N_GNU_ASM_EXPRESSION: return other_expr(n, UM_ASM);
	default: return other_expr(n, UM_OTHER);
	}
}

/* ---- objects ---- */

static Var *new_var(int name, Type *t, VarScope scope, TSNode d)
{
	Var *v = ARENA_NEW(Var);

	v->id = (int)cur.prog->vars.len;
	v->name = name;
	v->type = t;
	v->scope = scope;
	v->src = cur.src;
	v->start = node_start(d);
	v->end = node_end(d);
	if (scope != VAR_GLOBAL)
		v->func = cur.func;
	array_push(&cur.prog->vars, v);
	return v;
}

/* A later declaration of a file-scope object: the definition wins, arrays get their length. */
static void merge_global(Var *v, Type *t, StorageClass sc, TSNode d)
{
	if (sc != SC_EXTERN && v->storage == SC_EXTERN) {
		v->storage = sc;
		v->src = cur.src;
		v->start = node_start(d);
		v->end = node_end(d);
	}
	if (v->type->kind == TY_ARRAY && v->type->array_len < 0 && t->kind == TY_ARRAY &&
	    t->array_len >= 0)
		v->type = t;
}

/*
 * The object a file-scope (or block-scope extern) declaration names: one Var
 * per object, so an extern declaration in one file and the definition in
 * another meet in the program-wide table; a static object stays in its file.
 */
static Var *global_var(const Declarator *dc, StorageClass sc, TSNode d)
{
	Ident *id = lookup(dc->name);
	Var *v = NULL;

	if (id && id->kind == ID_VAR && id->var->scope == VAR_GLOBAL)
		v = id->var;
	if (!v && sc != SC_STATIC)
		v = name_info(dc->name)->ext;
	if (!v) {
		v = new_var(dc->name, dc->type, VAR_GLOBAL, d);
		v->storage = sc == SC_REGISTER ? SC_NONE : sc;
		array_push(&cur.prog->globals, v);
		if (sc != SC_STATIC)
			name_info(dc->name)->ext = v;
	} else {
		merge_global(v, dc->type, sc, d);
	}
	if (!id || id->kind != ID_VAR || id->var != v || id->depth != cur.depth)
		bind(dc->name, ID_VAR)->var = v;
	return v;
}

/* A function declared, not defined, here: binds its name and notes a prototype. */
static void declare_func(const Declarator *dc, const DeclSpec *ds)
{
	NameInfo *ni;
	FuncDecl *fd;

	if (!dc->name)
		return;
	bind(dc->name, ID_FUNC)->type = dc->type;
	ni = name_info(dc->name);
	ni->variadic |= dc->type->is_variadic;
	if (ni->funcs)
		return;
	if (ni->decl) {
		ni->decl->is_variadic |= dc->type->is_variadic;
		return;
	}
	fd = ARENA_NEW(FuncDecl);
	fd->name = dc->name;
	fd->type = dc->type;
	fd->is_variadic = dc->type->is_variadic;
	fd->storage = ds->storage;
	ni->decl = fd;
	array_push(&cur.prog->decls, fd);
}

/* First hidden span that starts at or after byte. */
static uint32_t hidden_from(uint32_t byte)
{
	uint32_t lo = 0, hi = cur.src->hidden.len;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (cur.src->hidden.items[mid].start < byte)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Whether pp_scan hid the initializer of the declarator [start, end): a
 * HIDE_INITIALIZER span starts inside it or right after it (past blanks and
 * other hidden spans such as an attribute list).
 */
static bool init_hidden_after(uint32_t start, uint32_t end)
{
	const Source *src = cur.src;
	uint32_t pos = end;

	for (uint32_t i = hidden_from(start); i < src->hidden.len; i++) {
		const Hidden *h = &src->hidden.items[i];

		while (pos < src->len && strchr(" \t\r\n\f\v", src->text[pos]))
			pos++;
		if (h->start > pos)
			return false;
		if (h->kind == HIDE_INITIALIZER)
			return true;
		if (h->end > pos)
			pos = h->end;
	}
	return false;
}

/* Whether an initializer_list names its elements ('[3] = x', '.f = y'). */
static bool has_designators(TSNode list)
{
	Kids k;
	TSNode c;
	bool found = false;

	kids_init(&k, list);
	while (kids_next(&k, &c))
		found |= nk(c) == N_INITIALIZER_PAIR;
	return found;
}

/* 'int a[] = {1, 2, 3}' and 'char s[] = "abc"': the length comes from the initializer. */
static Type *completed(Type *t, TSNode value, const Expr *init)
{
	int64_t n;
	Type *c;

	if (!init || t->kind != TY_ARRAY || t->array_len >= 0 || t->is_vla)
		return t;
	if (init->kind == EX_STR && t->base->size == 1 && init->type->array_len >= 0)
		n = init->type->array_len;
	else if (init->kind == EX_INIT && !has_designators(value))
		n = init->args.len;
	else
		return t;
	c = array_of(t->base, n);
	c->is_const = t->is_const;
	c->is_volatile = t->is_volatile;
	return c;
}

static bool has_vla(const Type *t)
{
	for (; t && t->kind == TY_ARRAY; t = t->base)
		if (t->is_vla)
			return true;
	return false;
}

/* ---- statements ---- */

static Stmt *lower_stmt(TSNode n);
static void lower_stmt_into(StmtList *list, TSNode n);

static Stmt *new_stmt(StmtKind kind, TSNode n)
{
	Stmt *s = ARENA_NEW(Stmt);

	s->kind = kind;
	s->start = node_start(n);
	s->end = node_end(n);
	return s;
}

/*
 * Unmodelled bits flow upwards: um_begin starts a statement's own set,
 * um_end stores it in s (NULL: no statement came of it) and adds it to the
 * set of the statement around.
 */
static uint32_t um_begin(void)
{
	uint32_t saved = cur.um;

	cur.um = 0;
	return saved;
}

static void um_end(Stmt *s, uint32_t saved)
{
	if (s)
		s->unmodelled |= cur.um;
	cur.um |= saved;
}

/* Moves a temporary list into an IR statement list (same element type). */
#define MOVE_LIST(dst, src) \
	((dst)->items = (src)->items, (dst)->len = (src)->len, (dst)->cap = (src)->cap)

static Loop *new_loop(void)
{
	Loop *lp = ARENA_NEW(Loop);

	lp->trip_count = -1;
	return lp;
}

// init_declarator = declarator:_declarator '=' value:(initializer_list | expression)
// One ST_DECL per declarator of a block-scope declaration.
static void lower_local_declarator(StmtList *list, TSNode decl, TSNode d, const DeclSpec *ds)
{
	uint32_t saved = um_begin();
	TSNode value = { 0 };
	Declarator dc;
	Stmt *s;
	Var *v;

	if (nk(d) == N_INIT_DECLARATOR) {
		value = field(d, "value");
		d = field(d, "declarator");
	}
	apply_declarator(d, ds->type, &dc);
	if (dc.type->kind == TY_FUNC || ds->storage == SC_EXTERN || !dc.name) {
		if (dc.type->kind == TY_FUNC)
			declare_func(&dc, ds);
		else if (dc.name)
			global_var(&dc, SC_EXTERN, d);
		um_end(NULL, saved);
		return;
	}
	v = new_var(dc.name, dc.type, VAR_LOCAL, d);
	v->storage = ds->storage;
	v->has_init = !ts_node_is_null(value);
	if (cur.func)
		array_push(&cur.func->locals, v);
	bind(dc.name, ID_VAR)->var = v; /* in scope in its own initializer */
	if (has_vla(dc.type))
		note_um(UM_VLA, node_start(d));
	s = new_stmt(ST_DECL, decl);
	s->var = v;
	s->expr = v->init = lower_expr(value);
	v->type = completed(v->type, value, v->init);
	note_decay(s->expr);
	um_end(s, saved);
	array_push(list, s);
}

// declaration = specifiers (declarator | init_declarator),+ ';'
static void lower_local_decl(StmtList *list, TSNode n)
{
	DeclSpec ds;
	Kids k;
	TSNode c;

	lower_specifiers(n, &ds);
	kids_init(&k, n);
	while (kids_next(&k, &c))
		if (kids_field_is(&k, "declarator"))
			lower_local_declarator(list, n, c, &ds);
}

/* The block items of a compound statement, or of the first branch of a preproc_if. */
static void lower_items_into(StmtList *list, TSNode n)
{
	Kids k;
	TSNode c;

	kids_init(&k, n);
	while (kids_next(&k, &c)) {
		if (!is_content(c) || kids_field_is(&k, "condition") || kids_field_is(&k, "name") ||
		    kids_field_is(&k, "alternative"))
			continue;
		lower_stmt_into(list, c);
	}
}

// compound_statement = '{' _block_item* '}'
static Stmt *lower_block(TSNode n)
{
	Stmt *s = new_stmt(ST_BLOCK, n);
	StmtList list = { 0 };
	uint32_t mark = scope_enter();

	lower_items_into(&list, n);
	scope_leave(mark);
	MOVE_LIST(&s->body, &list);
	return s;
}

// expression_statement = (expression | comma_expression)? ';'
static Stmt *lower_expr_stmt(TSNode n)
{
	TSNode c = first_content(n);
	Stmt *s;

	if (ts_node_is_null(c))
		return new_stmt(ST_EMPTY, n);
	if (nk(c) == N_GNU_ASM_EXPRESSION) {
		note_um(UM_ASM, node_start(n));
		return new_stmt(ST_ASM, n);
	}
	s = new_stmt(ST_EXPR, n);
	s->expr = lower_expr(c);
	return s;
}

// if_statement = 'if' condition:parenthesized_expression consequence:statement alternative:else_clause?
// else_clause = 'else' statement
static Stmt *lower_if(TSNode n)
{
	Stmt *s = new_stmt(ST_IF, n);
	TSNode alt = field(n, "alternative");

	s->expr = lower_expr(field(n, "condition"));
	s->then = lower_stmt(field(n, "consequence"));
	if (!ts_node_is_null(alt))
		s->els = lower_stmt(first_content(alt));
	return s;
}

// switch_statement = 'switch' condition:parenthesized_expression body:compound_statement
static Stmt *lower_switch(TSNode n)
{
	Stmt *s = new_stmt(ST_SWITCH, n);

	s->expr = lower_expr(field(n, "condition"));
	s->then = lower_stmt(field(n, "body"));
	return s;
}

/*
 * case_statement = ('case' value:expression | 'default') ':' (statement | declaration)*
 * As in C, the label marks one statement: ST_CASE's then; the statements
 * after it up to the next label become its siblings in the switch body.
 */
static void lower_case(StmtList *list, TSNode n)
{
	Stmt *s = new_stmt(ST_CASE, n);
	StmtList rest = { 0 };
	uint32_t saved;
	Kids k;
	TSNode c;

	kids_init(&k, n);
	while (kids_next(&k, &c)) {
		if (kids_field_is(&k, "value")) {
			saved = um_begin();
			s->expr = lower_expr(c);
			um_end(s, saved);
		} else if (!ts_node_is_named(c) && node_is(c, ":")) {
			s->end = node_end(c);
		} else if (is_content(c)) {
			lower_stmt_into(&rest, c);
		}
	}
	if (rest.len) {
		s->then = rest.items[0];
		s->end = s->then->end;
		s->unmodelled |= s->then->unmodelled;
	}
	array_push(list, s);
	for (uint32_t i = 1; i < rest.len; i++)
		array_push(list, rest.items[i]);
	array_free(&rest);
}

// while_statement = 'while' condition:parenthesized_expression body:statement
static Stmt *lower_while(TSNode n)
{
	Stmt *s = new_stmt(ST_WHILE, n);
	TSNode cond = field(n, "condition");

	s->loop = new_loop();
	s->loop->cond = lower_expr(cond);
	s->loop->header_end = node_end(cond);
	s->loop->body = lower_stmt(field(n, "body"));
	return s;
}

// do_statement = 'do' body:statement 'while' condition:parenthesized_expression ';'
static Stmt *lower_do(TSNode n)
{
	Stmt *s = new_stmt(ST_DO, n);

	s->loop = new_loop();
	s->loop->body = lower_stmt(field(n, "body"));
	s->loop->cond = lower_expr(field(n, "condition"));
	return s;
}

// return_statement = 'return' (expression | comma_expression)? ';'
static Stmt *lower_return(TSNode n)
{
	Stmt *s = new_stmt(ST_RETURN, n);

	s->expr = lower_expr(first_content(n));
	note_decay(s->expr);
	return s;
}

// goto_statement = 'goto' label:statement_identifier ';'
// (GNU 'goto *p;' is a syntax error for this grammar; kept for a grammar that accepts it)
static Stmt *lower_goto(TSNode n)
{
	Stmt *s = new_stmt(ST_GOTO, n);
	TSNode label = field(n, "label");

	if (ts_node_is_null(label) || ts_node_has_error(n)) {
		note_um(UM_COMPUTED_GOTO, node_start(n));
		return s;
	}
	s->name = node_name(label);
	note_um(UM_GOTO, node_start(n));
	return s;
}

// labeled_statement = label:statement_identifier ':' (declaration | statement)
static Stmt *lower_label(TSNode n)
{
	Stmt *s = new_stmt(ST_LABEL, n);
	Kids k;
	TSNode c, target = { 0 };

	kids_init(&k, n);
	while (kids_next(&k, &c))
		if (is_content(c) && !kids_field_is(&k, "label"))
			target = c;
	s->name = node_name(field(n, "label"));
	s->then = lower_stmt(target);
	return s;
}

// attributed_statement = attribute_declaration+ statement
static Stmt *lower_attributed(TSNode n)
{
	Kids k;
	TSNode c, target = { 0 };

	kids_init(&k, n);
	while (kids_next(&k, &c))
		if (is_content(c) && nk(c) != N_ATTRIBUTE_DECLARATION)
			target = c;
	return lower_stmt(target);
}

/* One ST_EXPR per comma-separated part of a for-initializer. */
static void lower_for_init(StmtList *init, TSNode c)
{
	uint32_t saved;
	Stmt *s;

	if (nk(c) == N_DECLARATION) {
		lower_local_decl(init, c);
		return;
	}
	for (;;) {
		bool comma = nk(c) == N_COMMA_EXPRESSION;
		TSNode part = comma ? field(c, "left") : c;

		saved = um_begin();
		s = new_stmt(ST_EXPR, part);
		s->expr = lower_expr(part);
		um_end(s, saved);
		array_push(init, s);
		if (!comma)
			return;
		c = field(c, "right");
	}
}

/*
 * for_statement = 'for' '(' (initializer:declaration | initializer:expression? ';')
 *                 condition:expression? ';' update:expression? ')' body:statement
 * A declaration in the initializer is scoped to the loop.
 */
static Stmt *lower_for(TSNode n)
{
	Stmt *s = new_stmt(ST_FOR, n);
	Loop *lp = s->loop = new_loop();
	StmtList init = { 0 };
	uint32_t mark = scope_enter();
	Kids k;
	TSNode c;

	kids_init(&k, n);
	while (kids_next(&k, &c)) {
		if (kids_field_is(&k, "initializer"))
			lower_for_init(&init, c);
		else if (kids_field_is(&k, "condition"))
			lp->cond = lower_expr(c);
		else if (kids_field_is(&k, "update"))
			lp->step = lower_expr(c);
		else if (kids_field_is(&k, "body"))
			lp->body = lower_stmt(c);
		else if (!ts_node_is_named(c) && node_is(c, ")"))
			lp->header_end = node_end(c);
	}
	scope_leave(mark);
	MOVE_LIST(&lp->init, &init);
	loop_recognise(lp);
	return s;
}

/* Statements that lower to exactly one Stmt. */
static Stmt *lower_stmt_kind(TSNode n)
{
	switch (nk(n)) {
	case N_COMPOUND_STATEMENT: return lower_block(n);
	case N_EXPRESSION_STATEMENT: return lower_expr_stmt(n);
	case N_IF_STATEMENT: return lower_if(n);
	case N_SWITCH_STATEMENT: return lower_switch(n);
	case N_WHILE_STATEMENT: return lower_while(n);
	case N_DO_STATEMENT: return lower_do(n);
	case N_FOR_STATEMENT: return lower_for(n);
	case N_RETURN_STATEMENT: return lower_return(n);
	case N_BREAK_STATEMENT: return new_stmt(ST_BREAK, n);
	case N_CONTINUE_STATEMENT: return new_stmt(ST_CONTINUE, n);
	case N_GOTO_STATEMENT: return lower_goto(n);
	case N_LABELED_STATEMENT: return lower_label(n);
	case N_ATTRIBUTED_STATEMENT: return lower_attributed(n);
	default: /* nested function, __try, ... */
		note_um(UM_OTHER, node_start(n));
		return new_stmt(ST_OTHER, n);
	}
}

/* Block items that lower to zero or several statements. */
static bool is_multi_item(NodeKind k)
{
	switch (k) {
	case N_DECLARATION: case N_TYPE_DEFINITION: case N_CASE_STATEMENT:
	case N_PREPROC_IF: case N_PREPROC_IFDEF: case N_PREPROC_INCLUDE:
	case N_PREPROC_DEF: case N_PREPROC_FUNCTION_DEF: case N_PREPROC_CALL:
	case N_STRUCT_SPECIFIER: case N_UNION_SPECIFIER: case N_ENUM_SPECIFIER:
	case N_COMMENT:
		return true;
	default:
		return false;
	}
}

// _block_item = declaration | statement | type_definition | preproc_if | ...
static void lower_stmt_into(StmtList *list, TSNode n)
{
	switch (nk(n)) {
	case N_DECLARATION:
		lower_local_decl(list, n);
		break;
	case N_TYPE_DEFINITION:
		lower_typedef(n);
		break;
	case N_STRUCT_SPECIFIER: case N_UNION_SPECIFIER: case N_ENUM_SPECIFIER:
		lower_specifier(n);
		break;
	case N_CASE_STATEMENT:
		lower_case(list, n);
		break;
	case N_PREPROC_IF: case N_PREPROC_IFDEF: /* not evaluated by pp_scan: first branch */
		lower_items_into(list, n);
		break;
	default:
		if (!is_multi_item(nk(n)))
			array_push(list, lower_stmt(n));
		break;
	}
}

/* One statement; a declaration of several objects becomes a block of ST_DECLs. */
static Stmt *lower_stmt(TSNode n)
{
	StmtList list = { 0 };
	uint32_t saved;
	Stmt *s;

	if (ts_node_is_null(n)) { /* only in broken trees */
		s = ARENA_NEW(Stmt);
		s->kind = ST_EMPTY;
		return s;
	}
	if (is_multi_item(nk(n))) {
		lower_stmt_into(&list, n);
		if (list.len == 1) {
			s = list.items[0];
			array_free(&list);
			return s;
		}
		s = new_stmt(list.len ? ST_BLOCK : ST_EMPTY, n);
		for (uint32_t i = 0; i < list.len; i++)
			s->unmodelled |= list.items[i]->unmodelled;
		MOVE_LIST(&s->body, &list);
		return s;
	}
	saved = um_begin();
	s = lower_stmt_kind(n);
	um_end(s, saved);
	return s;
}

/* ---- functions and file scope ---- */

static bool has_register(TSNode p)
{
	Kids k;
	TSNode c;
	bool found = false;

	kids_init(&k, p);
	while (kids_next(&k, &c))
		found |= nk(c) == N_STORAGE_CLASS_SPECIFIER && node_is(c, "register");
	return found;
}

// parameter_declaration = specifiers declarator:(_declarator | _abstract_declarator)?
// (or an identifier of a K&R list); m: what the function type says of it
static void add_param(Func *fn, TSNode p, const Member *m)
{
	TSNode d = nk(p) == N_PARAMETER_DECLARATION ? field(p, "declarator") : p;
	Var *v = new_var(m->name, m->type, VAR_PARAM, ts_node_is_null(d) ? p : d);

	v->storage = has_register(p) ? SC_REGISTER : SC_NONE;
	array_push(&fn->params, v);
	if (m->name)
		bind(m->name, ID_VAR)->var = v;
}

/* K&R definitions: 'int f(a, b) float a; { ... }' gives the parameters their types. */
static void kr_param_types(Func *fn, TSNode def)
{
	Kids k, kd;
	TSNode c, d;
	DeclSpec ds;
	Declarator dc;

	kids_init(&k, def);
	while (kids_next(&k, &c)) {
		if (nk(c) != N_DECLARATION)
			continue;
		lower_specifiers(c, &ds);
		kids_init(&kd, c);
		while (kids_next(&kd, &d)) {
			if (!kids_field_is(&kd, "declarator"))
				continue;
			apply_declarator(d, ds.type, &dc);
			for (uint32_t i = 0; i < fn->params.len; i++)
				if (fn->params.items[i]->name == dc.name)
					fn->params.items[i]->type = dc.type;
		}
	}
}

/*
 * parameter_list = '(' (parameter_declaration | variadic_parameter | identifier),* ')'
 * The parameters of a definition, in the order of ft's members (the
 * function type lowered them already; '(void)' and '()' have none).
 */
static void lower_params(Func *fn, TSNode fdecl, const Type *ft, TSNode def)
{
	Kids k;
	TSNode c;
	bool kr = false;
	uint32_t i = 0;

	if (ft->members.len == 0)
		return;
	kids_init(&k, field(fdecl, "parameters"));
	while (kids_next(&k, &c)) {
		NodeKind kind = nk(c);

		if ((kind != N_PARAMETER_DECLARATION && kind != N_IDENTIFIER) ||
		    i >= ft->members.len)
			continue;
		add_param(fn, c, &ft->members.items[i++]);
		kr |= kind == N_IDENTIFIER;
	}
	if (kr)
		kr_param_types(fn, def);
}

/* Adds a definition to the program and its name to file scope. */
static void register_func(Func *fn, Type *ft)
{
	NameInfo *ni;
	Func *f;

	bind(fn->name, ID_FUNC)->type = ft;
	ni = name_info(fn->name);
	ni->variadic |= ft->is_variadic;
	for (f = ni->funcs; f; f = cur.lt->next_func.items[f->id]) {
		/* invalid C, or a name built by a macro we cannot expand: TRANS(open)(...) */
		if (f->src == cur.src || (f->storage != SC_STATIC && fn->storage != SC_STATIC)) {
			warning_at(cur.src, fn->start, "redefinition of '%s'",
			           intern_name(fn->name));
			break;
		}
	}
	fn->id = (int)cur.prog->funcs.len;
	array_push(&cur.prog->funcs, fn);
	array_push(&cur.lt->next_func, ni->funcs);
	ni->funcs = fn;
}

/* Storage words a hidden macro contributes, and the specifiers written out. */
static void merge_spec(DeclSpec *ds, const DeclSpec *hidden)
{
	if (ds->storage == SC_NONE)
		ds->storage = hidden->storage;
	ds->is_inline |= hidden->is_inline;
}

// function_definition = specifiers declarator:_declarator body:compound_statement
static void lower_func_def(TSNode n, const DeclSpec *hidden, uint32_t start)
{
	Func *fn = ARENA_NEW(Func);
	DeclSpec ds;
	Declarator dc;
	uint32_t mark;

	lower_specifiers(n, &ds);
	merge_spec(&ds, hidden);
	cur.func = fn;
	apply_declarator(field(n, "declarator"), ds.type, &dc);
	if (dc.type->kind != TY_FUNC || ts_node_is_null(dc.func) || !dc.name) {
		error_at(cur.src, node_start(n), "cannot find the parameters of this function");
		cur.ok = false;
		cur.func = NULL;
		return;
	}
	fn->name = dc.name;
	fn->ret = dc.type->base;
	fn->storage = ds.storage;
	fn->is_inline = ds.is_inline;
	fn->is_variadic = dc.type->is_variadic;
	fn->src = cur.src;
	fn->start = start;
	fn->end = node_end(n);
	register_func(fn, dc.type);
	mark = scope_enter();
	lower_params(fn, dc.func, dc.type, n);
	fn->body = lower_stmt(field(n, "body"));
	scope_leave(mark);
	cur.func = NULL;
	cur.um = 0; /* file scope: no statement collects unmodelled bits */
}

// init_declarator = declarator:_declarator '=' value:(initializer_list | expression)
static void lower_global_declarator(TSNode d, const DeclSpec *ds)
{
	TSNode value = { 0 };
	Declarator dc;
	Var *v;

	if (nk(d) == N_INIT_DECLARATOR) {
		value = field(d, "value");
		d = field(d, "declarator");
	}
	apply_declarator(d, ds->type, &dc);
	if (!dc.name)
		return;
	if (dc.type->kind == TY_FUNC) {
		declare_func(&dc, ds);
		return;
	}
	v = global_var(&dc, ds->storage, d);
	if (!ts_node_is_null(value)) {
		v->has_init = true;
		v->init = lower_expr(value);
		v->type = completed(v->type, value, v->init);
		note_decay(v->init);
	} else if (init_hidden_after(node_start(d), node_end(d))) {
		v->has_init = v->init_hidden = true;
	}
}

// declaration = specifiers (declarator | init_declarator),+ ';'   (at file scope)
static void lower_global_decl(TSNode n, const DeclSpec *hidden)
{
	DeclSpec ds;
	Kids k;
	TSNode c;

	lower_specifiers(n, &ds);
	merge_spec(&ds, hidden);
	kids_init(&k, n);
	while (kids_next(&k, &c))
		if (kids_field_is(&k, "declarator"))
			lower_global_declarator(c, &ds);
	cur.um = 0; /* file scope: no statement collects unmodelled bits */
}

/* Applies the storage words (static, extern, inline) of a macro's expansion. */
static void apply_words(const char *s, DeclSpec *ds)
{
	while (*s) {
		const char *w = s;

		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) {
			s++;
			continue;
		}
		while (*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		       (*s >= '0' && *s <= '9'))
			s++;
		add_storage(w, (size_t)(s - w), ds);
	}
}

/*
 * Specifier macros pp_scan hid in [from, to) (FUNC_PREFIX = "static inline",
 * TVM_DLL): their storage words go to ds, and *start moves back to the first
 * hidden macro or attribute before the node at byte at.
 */
static void hidden_specifiers(uint32_t from, uint32_t to, uint32_t at, DeclSpec *ds,
                              uint32_t *start)
{
	const Source *src = cur.src;

	for (uint32_t i = hidden_from(from); i < src->hidden.len; i++) {
		const Hidden *h = &src->hidden.items[i];

		if (h->start >= to)
			break;
		if (h->kind != HIDE_MACRO && h->kind != HIDE_ATTRIBUTE)
			continue;
		if (h->start < at && h->start < *start)
			*start = h->start;
		if (h->kind == HIDE_MACRO && h->expansion)
			apply_words(h->expansion, ds);
	}
}

static void lower_top_items(TSNode parent);

/* The integer an object-like macro's replacement spells: 3, (64), -1L, 0x10 // note. */
static bool macro_int(const char *s, size_t len, int64_t *out)
{
	char buf[64], *p = buf, *end;
	bool neg = false;
	uint64_t v;

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if ((end = strstr(buf, "//")) || (end = strstr(buf, "/*")))
		*end = '\0';
	while (*p == ' ' || *p == '\t' || *p == '(')
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (*p < '0' || *p > '9')
		return false;
	v = strtoull(p, &end, 0);
	while (*end && strchr("uUlL", *end))
		end++;
	while (*end == ' ' || *end == '\t' || *end == ')' || *end == '\r')
		end++;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return *end == '\0';
}

// preproc_def = '#define' name:identifier value:preproc_arg?
// A macro whose replacement is an integer literal folds like an enum constant.
static void lower_define(TSNode n)
{
	TSNode value = field(n, "value");
	uint32_t len;
	const char *s;
	int64_t v;
	Ident *id;

	if (ts_node_is_null(value))
		return;
	s = node_text(value, &len);
	if (!macro_int(s, len, &v))
		return;
	id = bind(node_name(field(n, "name")), ID_CONST);
	id->value = v;
	id->type = prim(P_INT);
}

// preproc_call = directive:preproc_directive argument:preproc_arg?   ('#undef N')
static void lower_undef(TSNode n)
{
	TSNode arg = field(n, "argument");
	uint32_t len;
	const char *s;
	Ident *id;

	if (!node_is(field(n, "directive"), "#undef") || ts_node_is_null(arg))
		return;
	s = node_text(arg, &len);
	while (len > 0 && strchr(" \t\r", s[len - 1]))
		len--;
	id = lookup(intern(s, len));
	if (id && id->kind == ID_CONST)
		bind(intern(s, len), ID_UNDEF);
}

// function_definition | declaration at file scope, after the previous item ended at prev_end
static void lower_top_decl(TSNode n, uint32_t prev_end)
{
	DeclSpec hidden = { 0 };
	TSNode d = field(n, "declarator");
	uint32_t start = node_start(n);
	uint32_t to = ts_node_is_null(d) ? start : node_start(d);

	hidden_specifiers(prev_end, to, node_start(n), &hidden, &start);
	if (nk(n) == N_FUNCTION_DEFINITION)
		lower_func_def(n, &hidden, start);
	else
		lower_global_decl(n, &hidden);
}

// _top_level_item = function_definition | declaration | type_definition | linkage_specification
//                 | preproc_if | preproc_ifdef | preproc_* | struct_specifier ';' | statement
static void lower_top_item(TSNode c, uint32_t prev_end)
{
	TSNode body;

	switch (nk(c)) {
	case N_FUNCTION_DEFINITION:
	case N_DECLARATION:
		lower_top_decl(c, prev_end);
		break;
	case N_TYPE_DEFINITION:
		lower_typedef(c);
		break;
	case N_STRUCT_SPECIFIER: case N_UNION_SPECIFIER: case N_ENUM_SPECIFIER:
		lower_specifier(c);
		break;
	case N_LINKAGE_SPECIFICATION: /* extern "C" ... */
		body = field(c, "body");
		if (nk(body) == N_DECLARATION_LIST)
			lower_top_items(body);
		else
			lower_top_item(body, prev_end);
		break;
	case N_PREPROC_IF: case N_PREPROC_IFDEF: /* not evaluated by pp_scan: first branch */
		lower_top_items(c);
		break;
	case N_PREPROC_DEF:
		lower_define(c);
		break;
	case N_PREPROC_CALL:
		lower_undef(c);
		break;
	default: /* #include, function-like macros, top-level statements of macro code */
		break;
	}
}

// translation_unit = _top_level_item*   (also declaration_list and a preproc_if branch)
static void lower_top_items(TSNode parent)
{
	uint32_t prev_end = node_start(parent);
	Kids k;
	TSNode c;

	kids_init(&k, parent);
	while (kids_next(&k, &c)) {
		if (!is_content(c) || kids_field_is(&k, "condition") || kids_field_is(&k, "name") ||
		    kids_field_is(&k, "alternative"))
			continue;
		lower_top_item(c, prev_end);
		prev_end = node_end(c);
	}
}

bool lower_source(Program *prog, const Source *src, TSTree *tree)
{
	TSNode root = ts_tree_root_node(tree);

	if (!prog->lower)
		prog->lower = ARENA_NEW(struct LowerTables);
	memset(&cur, 0, sizeof(cur));
	cur.prog = prog;
	cur.lt = prog->lower;
	cur.src = src;
	cur.ok = true;
	build_sym_kinds(ts_tree_language(tree));
	if (ts_node_has_error(root)) { /* parse_source refuses such trees */
		error_at(src, node_start(root), "cannot lower a tree with syntax errors");
		return false;
	}
	lower_top_items(root);
	unbind_to(0); /* file scope: the next source starts empty */
	array_free(&cur.undo);
	return cur.ok;
}

/* The definition a call to name from src means: a static one in src first. */
static Func *find_def(const struct LowerTables *lt, int name, const Source *src)
{
	Func *f, *ext = NULL;

	if (name <= 0 || (uint32_t)name >= lt->names.len)
		return NULL;
	for (f = lt->names.items[name].funcs; f; f = lt->next_func.items[f->id]) {
		if (f->storage == SC_STATIC && f->src == src)
			return f;
		if (f->storage != SC_STATIC && !ext)
			ext = f;
	}
	return ext;
}

void lower_resolve_calls(Program *prog)
{
	struct LowerTables *lt = prog->lower;
	uint32_t n = 0;

	if (!lt)
		return;
	for (uint32_t i = 0; i < lt->calls.len; i++) {
		CallSite *cs = &lt->calls.items[i];

		cs->call->callee_func = find_def(lt, cs->call->name, cs->src);
	}
	/* prototypes of functions that turned out to be defined are not FuncDecls */
	for (uint32_t i = 0; i < prog->decls.len; i++) {
		FuncDecl *fd = prog->decls.items[i];

		if ((uint32_t)fd->name < lt->names.len && lt->names.items[fd->name].funcs) {
			lt->names.items[fd->name].decl = NULL;
			continue;
		}
		prog->decls.items[n++] = fd;
	}
	prog->decls.len = n;
}

Func *program_find_func(const Program *prog, int name)
{
	Func *found = NULL;

	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		Func *f = prog->funcs.items[i];

		if (f->name != name)
			continue;
		if (f->storage != SC_STATIC)
			return f;
		if (!found)
			found = f;
	}
	return found;
}

FuncDecl *program_find_decl(const Program *prog, int name)
{
	for (uint32_t i = 0; i < prog->decls.len; i++)
		if (prog->decls.items[i]->name == name)
			return prog->decls.items[i];
	return NULL;
}

/* ---- --dump=ir: deterministic text ---- */

typedef struct Buf {
	char *s;
	size_t len, cap;
} Buf;

static void buf_printf(Buf *b, const char *fmt, ...) MTPAR_PRINTF(2, 3);

static void buf_printf(Buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("vsnprintf failed");
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->len + (size_t)n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static const char *int_name(const Type *t)
{
	static const char *const names[2][4] = {
		{ "char", "short", "int", "long" },
		{ "unsigned char", "unsigned short", "unsigned int", "unsigned long" },
	};
	int i = t->size == 1 ? 0 : t->size == 2 ? 1 : t->size == 4 ? 2 : 3;

	return names[t->is_unsigned][i];
}

/* Qualifiers, then the name of a type that has no declarator part. */
static void base_text(Buf *b, const Type *t)
{
	const char *tag = t->tag ? intern_name(t->tag) : "<anon>", *fl;

	buf_printf(b, "%s%s%s", t->is_const ? "const " : "", t->is_volatile ? "volatile " : "",
	           t->is_restrict ? "restrict " : "");
	switch (t->kind) {
	case TY_VOID: buf_printf(b, "void"); break;
	case TY_BOOL: buf_printf(b, "_Bool"); break;
	case TY_INT: buf_printf(b, "%s", int_name(t)); break;
	case TY_FLOAT:
		fl = t->size == 4 ? "float" : t->size == 8 ? "double" : "long double";
		buf_printf(b, "%s", fl);
		break;
	case TY_STRUCT: buf_printf(b, "struct %s", tag); break;
	case TY_UNION: buf_printf(b, "union %s", tag); break;
	case TY_ENUM: buf_printf(b, "enum %s", tag); break;
	default: buf_printf(b, "%s", t->tag ? intern_name(t->tag) : "?"); break;
	}
}

/* C-like text of t around the declarator text inner: float(*)[1000]. */
static void type_text(Buf *out, const Type *t, const char *inner)
{
	Buf d = { 0 };
	bool paren;

	if (!t) {
		buf_printf(out, "?%s", inner);
		return;
	}
	switch (t->kind) {
	case TY_PTR:
		paren = t->base && (t->base->kind == TY_ARRAY || t->base->kind == TY_FUNC);
		buf_printf(&d, "%s*%s%s%s%s%s", paren ? "(" : "", t->is_const ? "const" : "",
		           t->is_volatile ? " volatile" : "", t->is_restrict ? " restrict" : "",
		           inner, paren ? ")" : "");
		type_text(out, t->base, d.s);
		break;
	case TY_ARRAY:
		if (t->array_len >= 0)
			buf_printf(&d, "%s[%lld]", inner, (long long)t->array_len);
		else
			buf_printf(&d, "%s[%s]", inner, t->is_vla ? "*" : "");
		type_text(out, t->base, d.s);
		break;
	case TY_FUNC:
		buf_printf(&d, "%s(", inner);
		for (uint32_t i = 0; i < t->members.len; i++) {
			if (i)
				buf_printf(&d, ", ");
			type_text(&d, t->members.items[i].type, "");
		}
		buf_printf(&d, "%s)", t->is_variadic ? (t->members.len ? ", ..." : "...") : "");
		type_text(out, t->base, d.s);
		break;
	default:
		base_text(out, t);
		buf_printf(out, "%s", inner);
		break;
	}
	free(d.s);
}

static void print_type(FILE *out, const Type *t)
{
	Buf b = { 0 };

	type_text(&b, t, "");
	fputs(b.s ? b.s : "", out);
	free(b.s);
}

/* Literal text on one line: newlines and tabs of concatenated strings become blanks. */
static void print_squeezed(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\n' || *s == '\t' || *s == '\r' ? ' ' : *s, out);
}

static void print_expr(FILE *out, const Expr *e);

/* A float literal that still reads as one: 0 prints as 0.0. */
static void print_float(FILE *out, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.9g", v);
	fprintf(out, "%s%s", buf, strpbrk(buf, ".eEni") ? "" : ".0");
}

static void print_args(FILE *out, const Expr *e)
{
	for (uint32_t i = 0; i < e->args.len; i++) {
		fputc(' ', out);
		print_expr(out, e->args.items[i]);
	}
}

/* Prefix form: (op lhs rhs); variables by name, undeclared names as $NAME. */
/* An initializer list, long ones cut after 16 elements: { 1 2 ... (4096) }. */
static void print_init(FILE *out, const Expr *e)
{
	fputc('{', out);
	for (uint32_t i = 0; i < e->args.len && i < 16; i++) {
		fputc(' ', out);
		print_expr(out, e->args.items[i]);
	}
	if (e->args.len > 16)
		fprintf(out, " ... (%u)", e->args.len);
	fputs(" }", out);
}

/* Leaves and the other forms that print whole; false for an operator form. */
static bool print_leaf(FILE *out, const Expr *e)
{
	switch (e->kind) {
	case EX_NUM:
		if (e->num.is_float)
			print_float(out, e->num.fval);
		else
			fprintf(out, "%lld", (long long)e->num.ival);
		return true;
	case EX_STR: print_squeezed(out, e->str); return true;
	case EX_VAR: fputs(intern_name(e->var->name), out); return true;
	case EX_NAME: fprintf(out, "$%s", intern_name(e->name)); return true;
	case EX_INIT: print_init(out, e); return true;
	case EX_OTHER: fputs("(other", out); print_args(out, e); fputc(')', out); return true;
	case EX_SIZEOF:
		if (!e->cast_type)
			return false;
		fprintf(out, "(sizeof %lld ", (long long)e->num.ival);
		print_type(out, e->cast_type);
		fputc(')', out);
		return true;
	default:
		return false;
	}
}

static void print_expr(FILE *out, const Expr *e)
{
	if (!e) {
		fputc('_', out);
		return;
	}
	if (print_leaf(out, e))
		return;
	switch (e->kind) {
	case EX_UNARY: fprintf(out, "(%s ", op_name[e->op]); break;
	case EX_BINARY: fprintf(out, "(%s ", op_name[e->op]); break;
	case EX_ASSIGN:
		fprintf(out, "(%s%s ", e->op == OP_ASSIGN ? "" : op_name[e->op], "=");
		break;
	case EX_COND: fputs("(? ", out); print_expr(out, e->cond); fputc(' ', out); break;
	case EX_COMMA: fputs("(, ", out); break;
	case EX_CALL: fprintf(out, "(call%s ", e->callee_func ? ":def" : ""); break;
	case EX_INDEX: fputs("([] ", out); break;
	case EX_MEMBER: fprintf(out, "(%s ", op_name[e->op]); break;
	case EX_CAST: fputs("(cast ", out); print_type(out, e->cast_type); fputc(' ', out); break;
	case EX_SIZEOF: fprintf(out, "(sizeof %lld ", (long long)e->num.ival); break;
	default: break;
	}
	print_expr(out, e->lhs);
	if (e->kind == EX_MEMBER)
		fprintf(out, " %s", intern_name(e->name));
	if (e->rhs || e->kind == EX_COND) {
		fputc(' ', out);
		print_expr(out, e->rhs);
	}
	if (e->kind == EX_CALL)
		print_args(out, e);
	fputc(')', out);
}

static uint32_t line_of(const Source *src, uint32_t byte)
{
	uint32_t line, col;

	source_pos(src, byte, &line, &col);
	return line;
}

static void print_um(FILE *out, uint32_t mask)
{
	const char *sep = " [unmodelled: ";

	for (int k = 0; k < UM_OTHER + 1; k++) {
		if (!(mask & (1u << k)))
			continue;
		fprintf(out, "%s%s", sep, unmodelled_name[k]);
		sep = ", ";
	}
	if (mask)
		fputc(']', out);
}

static void print_stmt(FILE *out, const Source *src, const Stmt *s, int depth, const char *label);

static void print_loop_head(FILE *out, const Loop *lp)
{
	for (uint32_t i = 0; i < lp->ivs.len; i++) {
		const InductionVar *iv = &lp->ivs.items[i];

		fprintf(out, " iv(%s = ", intern_name(iv->var->name));
		print_expr(out, iv->init);
		if (iv->step_known)
			fprintf(out, ", step %lld)", (long long)iv->step);
		else
			fputs(", step ?)", out);
	}
	if (lp->trip_count >= 0)
		fprintf(out, " trip %lld [%lld, %lld)", (long long)lp->trip_count,
		        (long long)lp->lower, (long long)lp->upper);
	else if (lp->ivs.len)
		fputs(" trip ?", out);
}

static void print_labeled_expr(FILE *out, int depth, const char *label, const Expr *e)
{
	fprintf(out, "%*s%s ", 2 * depth, "", label);
	print_expr(out, e);
	fputc('\n', out);
}

static void print_loop_body(FILE *out, const Source *src, const Stmt *s, int depth)
{
	const Loop *lp = s->loop;

	for (uint32_t i = 0; i < lp->init.len; i++)
		print_stmt(out, src, lp->init.items[i], depth, "init ");
	if (lp->cond)
		print_labeled_expr(out, depth, "cond", lp->cond);
	if (lp->step)
		print_labeled_expr(out, depth, "step", lp->step);
	if (lp->body)
		print_stmt(out, src, lp->body, depth, "body ");
}

/* The rest of a statement's line, after "LINE: kind". */
static void print_stmt_line(FILE *out, const Stmt *s)
{
	switch (s->kind) {
	case ST_DECL:
		fprintf(out, " %s%s: ", s->var->storage == SC_STATIC ? "static " : "",
		        intern_name(s->var->name));
		print_type(out, s->var->type);
		if (s->expr) {
			fputs(" = ", out);
			print_expr(out, s->expr);
		}
		break;
	case ST_FOR: case ST_WHILE: case ST_DO:
		print_loop_head(out, s->loop);
		break;
	case ST_GOTO: case ST_LABEL:
		fprintf(out, " %s", s->name ? intern_name(s->name) : "*");
		break;
	case ST_EXPR: case ST_IF: case ST_SWITCH: case ST_CASE: case ST_RETURN:
		if (s->expr || s->kind == ST_CASE) {
			fputc(' ', out);
			if (s->kind == ST_CASE && !s->expr)
				fputs("default", out);
			else
				print_expr(out, s->expr);
		}
		break;
	default:
		break;
	}
	print_um(out, s->unmodelled);
}

/* One line per statement, children indented: "LINE: kind details". */
static void print_stmt(FILE *out, const Source *src, const Stmt *s, int depth, const char *label)
{
	fprintf(out, "%*s%s%u: %s", 2 * depth, "", label, line_of(src, s->start),
	        stmt_kind_name[s->kind]);
	print_stmt_line(out, s);
	fputc('\n', out);
	for (uint32_t i = 0; i < s->body.len; i++)
		print_stmt(out, src, s->body.items[i], depth + 1, "");
	if (s->loop)
		print_loop_body(out, src, s, depth + 1);
	if (s->then)
		print_stmt(out, src, s->then, depth + 1, s->kind == ST_IF ? "then " : "");
	if (s->els)
		print_stmt(out, src, s->els, depth + 1, "else ");
}

static const char *storage_name(StorageClass sc)
{
	static const char *const names[] = { "", " static", " extern", " register", " typedef" };

	return names[sc];
}

static void print_global(FILE *out, const Var *v)
{
	fprintf(out, "global %s: ", intern_name(v->name));
	print_type(out, v->type);
	fputs(storage_name(v->storage), out);
	if (v->init_hidden)
		fputs(" init(hidden)", out);
	else if (v->init) {
		fputs(" init ", out);
		print_expr(out, v->init);
	}
	if (v->addr_taken)
		fputs(" addr_taken", out);
	fputc('\n', out);
}

static void print_func(FILE *out, const Func *f)
{
	fprintf(out, "func %s:%s%s%s -> ", intern_name(f->name), storage_name(f->storage),
	        f->is_inline ? " inline" : "", f->is_variadic ? " variadic" : "");
	print_type(out, f->ret);
	fprintf(out, " [%u-%u]\n", line_of(f->src, f->start), line_of(f->src, f->end));
	for (uint32_t i = 0; i < f->params.len; i++) {
		const Var *v = f->params.items[i];

		fprintf(out, "  param %s: ", v->name ? intern_name(v->name) : "_");
		print_type(out, v->type);
		fputs(v->addr_taken ? " addr_taken\n" : "\n", out);
	}
	for (uint32_t i = 0; i < f->unmodelled.len; i++) {
		const Unmodelled *u = &f->unmodelled.items[i];

		fprintf(out, "  unmodelled %s at line %u\n", unmodelled_name[u->kind],
		        line_of(f->src, u->at));
	}
	if (f->body)
		print_stmt(out, f->src, f->body, 1, "");
}

static void print_record(FILE *out, const Type *t)
{
	fprintf(out, "%s %s size %lld align %d\n", type_kind_name[t->kind],
	        t->tag ? intern_name(t->tag) : "<anon>", (long long)t->size, t->align);
	for (uint32_t i = 0; i < t->members.len; i++) {
		const Member *m = &t->members.items[i];

		fprintf(out, "  member %s: ", m->name ? intern_name(m->name) : "<anon>");
		print_type(out, m->type);
		fprintf(out, " @%lld\n", (long long)m->offset);
	}
}

void lower_dump(FILE *out, const Program *prog)
{
	const struct LowerTables *lt = prog->lower;

	for (uint32_t i = 0; lt && i < lt->records.len; i++)
		print_record(out, lt->records.items[i]);
	for (uint32_t s = 0; s < prog->sources.len; s++) {
		const Source *src = prog->sources.items[s];

		fprintf(out, "source %s\n", src->path);
		for (uint32_t i = 0; i < prog->globals.len; i++)
			if (prog->globals.items[i]->src == src)
				print_global(out, prog->globals.items[i]);
		for (uint32_t i = 0; i < prog->funcs.len; i++)
			if (prog->funcs.items[i]->src == src)
				print_func(out, prog->funcs.items[i]);
	}
	for (uint32_t i = 0; i < prog->decls.len; i++) {
		const FuncDecl *fd = prog->decls.items[i];

		fprintf(out, "decl %s:", intern_name(fd->name));
		fputs(storage_name(fd->storage), out);
		fputc(' ', out);
		print_type(out, fd->type);
		fputc('\n', out);
	}
}
