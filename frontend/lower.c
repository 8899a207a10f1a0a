/*
 * lower.c - front end, lowering driver: one source's tree-sitter tree into
 * mtpar's IR.  Node helpers, the name table and its block scopes, objects,
 * and file scope (functions, globals, #define/#undef); type.c, expr.c and
 * stmt.c lower the rest.  After this pass no stage looks at tree-sitter nodes.
 *
 * One recursive walk, linear in the tree: each lowering function names the
 * node shape it reads (chibicc's "// stmt = ..." lines).  Names resolve
 * through one table indexed by interned name (NameBindings): the innermost
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

#define MTPAR_LOWERING
#include "frontend.h"

#define X_NAME(k, s) s,
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

NodeKind node_kind(TSNode n)
{
	TSSymbol s = ts_node_symbol(n);

	if (ts_node_is_null(n))
		return N_OTHER;
	if (s == (TSSymbol)-1)
		return N_ERROR;
	return s < nsyms ? (NodeKind)sym_kind[s] : N_OTHER;
}

TSNode node_field(TSNode n, const char *name)
{
	return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

void kids_init(Kids *k, TSNode n)
{
	k->cur = ts_tree_cursor_new(n);
	k->live = true;
	k->started = false;
}

/* Next child, named or not; false at the end, where the cursor is freed. */
bool kids_next(Kids *k, TSNode *out)
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

bool kids_field_is(const Kids *k, const char *name)
{
	const char *f = ts_tree_cursor_current_field_name(&k->cur);

	return f && strcmp(f, name) == 0;
}

/* A named child that is not a comment (the grammar's extras). */
bool node_is_content(TSNode n)
{
	return ts_node_is_named(n) && node_kind(n) != N_COMMENT;
}

/* The first named, non-comment child, or a null node. */
TSNode node_first_content(TSNode n)
{
	Kids k;
	TSNode c, found = { 0 };

	kids_init(&k, n);
	while (kids_next(&k, &c))
		if (ts_node_is_null(found) && node_is_content(c))
			found = c;
	return found;
}

/* ---- lowering state ---- */

LowerState lw;

NameBindings *lw_bindings(int name)
{
	struct LowerTables *lt = lw.lt;

	if (name < 0)
		die("negative name id %d", name);
	while (lt->names.len <= (uint32_t)name)
		array_push(&lt->names, (NameBindings){ 0 });
	return &lt->names.items[name];
}

Ident *lw_lookup(int name)
{
	if (name <= 0 || (uint32_t)name >= lw.lt->names.len)
		return NULL;
	return lw.lt->names.items[name].ident;
}

/* Binds name in the innermost scope; the caller fills the binding. */
Ident *lw_bind(int name, IdentKind kind)
{
	Ident *id = ARENA_NEW(Ident);
	NameBindings *ni;

	id->kind = kind;
	id->depth = lw.depth;
	if (name <= 0)
		return id;
	ni = lw_bindings(name);
	array_push(&lw.undo, ((Undo){ name, ni->ident }));
	ni->ident = id;
	return id;
}

uint32_t lw_scope_enter(void)
{
	lw.depth++;
	return lw.undo.len;
}

/* Restores the bindings made since the undo log was mark long. */
static void unbind_to(uint32_t mark)
{
	while (lw.undo.len > mark) {
		Undo u = lw.undo.items[--lw.undo.len];

		lw.lt->names.items[u.name].ident = u.prev;
	}
}

void lw_scope_leave(uint32_t mark)
{
	unbind_to(mark);
	lw.depth--;
}

/* Records an unmodelled construct for the statement and function around it. */
void lw_note_um(UnmodelledKind kind, uint32_t at)
{
	lw.um |= 1u << kind;
	if (lw.func)
		array_push(&lw.func->unmodelled, ((Unmodelled){ kind, at }));
}

/* Byte offsets of a node; 0 for a null node (a field the tree lacks). */
uint32_t node_start(TSNode n)
{
	if (lw.mx_text)
		return lw.mx_start; /* a node of a macro's replacement: the use's bytes */
	return ts_node_is_null(n) ? 0 : ts_node_start_byte(n);
}

uint32_t node_end(TSNode n)
{
	if (lw.mx_text)
		return lw.mx_end;
	return ts_node_is_null(n) ? 0 : ts_node_end_byte(n);
}

void node_span(TSNode n, uint32_t *start, uint32_t *end)
{
	*start = node_start(n);
	*end = node_end(n);
}

const char *node_text(TSNode n, uint32_t *len)
{
	if (lw.mx_text) {
		*len = ts_node_end_byte(n) - ts_node_start_byte(n);
		return lw.mx_text + ts_node_start_byte(n);
	}
	*len = node_end(n) - node_start(n);
	return lw.src->text + node_start(n);
}

bool node_is(TSNode n, const char *text)
{
	uint32_t len;
	const char *s = node_text(n, &len);

	return strlen(text) == len && memcmp(s, text, len) == 0;
}

int node_name(TSNode n)
{
	uint32_t len;
	const char *s = node_text(n, &len);

	return intern(s, len);
}

/* ---- objects ---- */

Var *lw_new_var(int name, Type *t, VarScope scope, TSNode d)
{
	Var *v = ARENA_NEW(Var);

	v->id = (int)lw.prog->vars.len;
	v->name = name;
	v->type = t;
	v->scope = scope;
	v->src = lw.src;
	v->start = node_start(d);
	v->end = node_end(d);
	if (scope != VAR_GLOBAL)
		v->func = lw.func;
	array_push(&lw.prog->vars, v);
	return v;
}

/* A later declaration of a file-scope object: the definition wins, arrays get their length. */
static void merge_global(Var *v, Type *t, StorageClass sc, TSNode d)
{
	if (sc != SC_EXTERN && v->storage == SC_EXTERN) {
		v->storage = sc;
		v->src = lw.src;
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
Var *lw_global_var(const Declarator *dc, StorageClass sc, TSNode d)
{
	Ident *id = lw_lookup(dc->name);
	Var *v = NULL;

	if (id && id->kind == ID_VAR && id->var->scope == VAR_GLOBAL)
		v = id->var;
	if (!v && sc != SC_STATIC)
		v = lw_bindings(dc->name)->ext;
	if (!v) {
		v = lw_new_var(dc->name, dc->type, VAR_GLOBAL, d);
		v->storage = sc == SC_REGISTER ? SC_NONE : sc;
		array_push(&lw.prog->globals, v);
		if (sc != SC_STATIC)
			lw_bindings(dc->name)->ext = v;
	} else {
		merge_global(v, dc->type, sc, d);
	}
	if (!id || id->kind != ID_VAR || id->var != v || id->depth != lw.depth)
		lw_bind(dc->name, ID_VAR)->var = v;
	return v;
}

/* A function declared, not defined, here: binds its name and notes a prototype. */
void lw_declare_func(const Declarator *dc, const DeclSpec *ds)
{
	NameBindings *ni;
	FuncDecl *fd;

	if (!dc->name)
		return;
	lw_bind(dc->name, ID_FUNC)->type = dc->type;
	ni = lw_bindings(dc->name);
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
	array_push(&lw.prog->decls, fd);
}

/* First hidden span that starts at or after byte. */
static uint32_t hidden_from(uint32_t byte)
{
	uint32_t lo = 0, hi = lw.src->hidden.len;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (lw.src->hidden.items[mid].start < byte)
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
	const Source *src = lw.src;
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

/* Whether n has a child of the kind, spelled text (NULL: any spelling). */
static bool has_kid(TSNode n, NodeKind kind, const char *text)
{
	Kids k;
	TSNode c;
	bool found = false;

	kids_init(&k, n);
	while (kids_next(&k, &c))
		found |= node_kind(c) == kind && (!text || node_is(c, text));
	return found;
}

/* 'int a[] = {1, 2, 3}' and 'char s[] = "abc"': the length comes from the initializer. */
Type *lw_completed_type(Type *t, TSNode value, const Expr *init)
{
	int64_t n;
	Type *c;

	if (!init || t->kind != TY_ARRAY || t->array_len >= 0 || t->is_vla)
		return t;
	if (init->kind == EX_STR && t->base->size == 1 && init->type->array_len >= 0)
		n = init->type->array_len;
	else if (init->kind == EX_INIT && !has_kid(value, N_INITIALIZER_PAIR, NULL))
		n = init->args.len; /* no designators: '[3] = x', '.f = y' */
	else
		return t;
	c = lw_array_of(t->base, n);
	c->is_const = t->is_const;
	c->is_volatile = t->is_volatile;
	return c;
}

/* ---- functions and file scope ---- */

// parameter_declaration = specifiers declarator:(_declarator | _abstract_declarator)?
// (or an identifier of a K&R list); m: what the function type says of it
static void add_param(Func *fn, TSNode p, const Member *m)
{
	TSNode d = node_kind(p) == N_PARAMETER_DECLARATION ? node_field(p, "declarator") : p;
	Var *v = lw_new_var(m->name, m->type, VAR_PARAM, ts_node_is_null(d) ? p : d);

	v->storage = has_kid(p, N_STORAGE_CLASS_SPECIFIER, "register") ? SC_REGISTER : SC_NONE;
	array_push(&fn->params, v);
	if (m->name)
		lw_bind(m->name, ID_VAR)->var = v;
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
		if (node_kind(c) != N_DECLARATION)
			continue;
		lower_specifiers(c, &ds);
		kids_init(&kd, c);
		while (kids_next(&kd, &d)) {
			if (!kids_field_is(&kd, "declarator"))
				continue;
			lower_declarator(d, ds.type, &dc);
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
	kids_init(&k, node_field(fdecl, "parameters"));
	while (kids_next(&k, &c)) {
		NodeKind kind = node_kind(c);

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
	NameBindings *ni;
	Func *f;

	lw_bind(fn->name, ID_FUNC)->type = ft;
	ni = lw_bindings(fn->name);
	ni->variadic |= ft->is_variadic;
	for (f = ni->funcs; f; f = lw.lt->next_func.items[f->id]) {
		/* invalid C, or a name built by a macro we cannot expand: TRANS(open)(...) */
		if (f->src == lw.src || (f->storage != SC_STATIC && fn->storage != SC_STATIC)) {
			warning_at(lw.src, fn->start, "redefinition of '%s'",
			           intern_name(fn->name));
			break;
		}
	}
	fn->id = (int)lw.prog->funcs.len;
	array_push(&lw.prog->funcs, fn);
	array_push(&lw.lt->next_func, ni->funcs);
	ni->funcs = fn;
}

/* Storage words a hidden macro contributes, and the specifiers written out. */
void lw_merge_spec(DeclSpec *ds, const DeclSpec *hidden)
{
	if (ds->storage == SC_NONE)
		ds->storage = hidden->storage;
	ds->is_inline |= hidden->is_inline;
	ds->is_thread_local |= hidden->is_thread_local;
}

// function_definition = specifiers declarator:_declarator body:compound_statement
static void lower_func_def(TSNode n, const DeclSpec *hidden, uint32_t start)
{
	Func *fn = ARENA_NEW(Func);
	DeclSpec ds;
	Declarator dc;
	uint32_t mark;

	lower_specifiers(n, &ds);
	lw_merge_spec(&ds, hidden);
	lw.func = fn;
	lower_declarator(node_field(n, "declarator"), ds.type, &dc);
	if (dc.type->kind != TY_FUNC || ts_node_is_null(dc.func) || !dc.name) {
		error_at(lw.src, node_start(n), "cannot find the parameters of this function");
		lw.ok = false;
		lw.func = NULL;
		return;
	}
	fn->name = dc.name;
	fn->ret = dc.type->base;
	fn->storage = ds.storage;
	fn->is_inline = ds.is_inline;
	fn->is_variadic = dc.type->is_variadic;
	fn->src = lw.src;
	fn->start = start;
	fn->end = node_end(n);
	register_func(fn, dc.type);
	mark = lw_scope_enter();
	lower_params(fn, dc.func, dc.type, n);
	fn->body = lower_stmt(node_field(n, "body"));
	lw_scope_leave(mark);
	lw.func = NULL;
	lw.um = 0; /* file scope: no statement collects unmodelled bits */
}

/*
 * Does the declaration from byte start to its ';' name an object by another
 * name: an asm label (`extern float Y[N] __asm__("X");`) or an alias or
 * weakref attribute?  Then two names are one object, which the analysis,
 * keeping named objects apart, cannot tell.
 */
static bool names_another_object(uint32_t start)
{
	const Source *src = lw.src;
	const char *t = src->text;
	uint32_t end = start;

	while (end < src->len && t[end] != ';' && t[end] != '{')
		end++;
	for (uint32_t i = 0; i < src->hidden.len; i++) {
		const Hidden *h = &src->hidden.items[i];

		if (h->kind == HIDE_ATTRIBUTE && h->start >= start && h->end <= end &&
		    (pp_word_in("alias", 5, t + h->start, t + h->end) ||
		     pp_word_in("weakref", 7, t + h->start, t + h->end)))
			return true;
	}
	return pp_word_in("asm", 3, t + start, t + end) || pp_word_in("__asm", 5, t + start, t + end) ||
	       pp_word_in("__asm__", 7, t + start, t + end);
}

// init_declarator = declarator:_declarator '=' value:(initializer_list | expression)
static void lower_global_declarator(TSNode d, const DeclSpec *ds)
{
	TSNode value = { 0 };
	Declarator dc;
	Var *v;

	if (node_kind(d) == N_INIT_DECLARATOR) {
		value = node_field(d, "value");
		d = node_field(d, "declarator");
	}
	lower_declarator(d, ds->type, &dc);
	if (!dc.name)
		return;
	if (dc.type->kind == TY_FUNC) {
		lw_declare_func(&dc, ds);
		return;
	}
	v = lw_global_var(&dc, ds->storage, d);
	v->thread_local |= ds->is_thread_local;
	v->aliased |= names_another_object(node_start(d));
	if (!ts_node_is_null(value)) {
		v->has_init = true;
		v->init = lower_expr(value);
		v->type = lw_completed_type(v->type, value, v->init);
		lw_note_decay(v->init);
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
	lw_merge_spec(&ds, hidden);
	kids_init(&k, n);
	while (kids_next(&k, &c))
		if (kids_field_is(&k, "declarator"))
			lower_global_declarator(c, &ds);
	lw.um = 0; /* file scope: no statement collects unmodelled bits */
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
		lw_add_storage(w, (size_t)(s - w), ds);
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
	const Source *src = lw.src;

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

/* Does a span of that kind lie in [from, to)? */
bool lw_hidden_within(uint32_t from, uint32_t to, HideKind kind)
{
	const Source *src = lw.src;

	for (uint32_t i = hidden_from(from); i < src->hidden.len && src->hidden.items[i].start < to; i++)
		if (src->hidden.items[i].kind == kind)
			return true;
	return false;
}

/* The start of the hidden specifier macros just before byte at, with only blanks between. */
static uint32_t hidden_macros_before(uint32_t at)
{
	const Source *src = lw.src;

	for (uint32_t i = hidden_from(at); i-- > 0;) {
		const Hidden *h = &src->hidden.items[i];
		uint32_t p = h->end;

		while (p < at && strchr(" \t\r\n", src->text[p]))
			p++;
		if (p != at || h->kind != HIDE_MACRO)
			break;
		at = h->start;
	}
	return at;
}

/* The end of the hidden specifier macros from byte at on, with only blanks between. */
static uint32_t hidden_macros_after(uint32_t at)
{
	const Source *src = lw.src;

	for (uint32_t i = hidden_from(at); i < src->hidden.len; i++) {
		const Hidden *h = &src->hidden.items[i];
		uint32_t p = at;

		while (p < h->start && strchr(" \t\r\n", src->text[p]))
			p++;
		if (p != h->start || h->kind != HIDE_MACRO)
			break;
		at = h->end;
	}
	return at;
}

/*
 * A block-scope declaration n's specifier macros (`LOCAL int x;` under
 * `#define LOCAL static`, C11's `_Thread_local`): those among its
 * specifiers, and those just before it, with only blanks between, which
 * tree-sitter leaves out of n.
 */
void lw_hidden_specifiers(TSNode n, DeclSpec *ds)
{
	DeclSpec hidden = { 0 };
	TSNode d = node_field(n, "declarator");
	uint32_t start = node_start(n), from;

	from = hidden_macros_before(start);
	hidden_specifiers(from, ts_node_is_null(d) ? node_end(n) : node_start(d), start, &hidden,
	                  &start);
	lw_merge_spec(ds, &hidden);
}

/* Whether _Complex or __complex__ is among the space-separated words of s. */
static bool names_complex(const char *s)
{
	while (*s) {
		size_t n = strcspn(s, " ");

		if ((n == 8 && memcmp(s, "_Complex", 8) == 0) ||
		    (n == 11 && memcmp(s, "__complex__", 11) == 0))
			return true;
		s += n + (s[n] == ' ');
	}
	return false;
}

/*
 * Whether the specifiers in [from, to), or the specifier macros just before
 * from, hold C99's _Complex (written, or through <complex.h>'s `complex`):
 * pp_scan hid it from tree-sitter, which would take `double _Complex` for
 * `double`.
 */
bool lw_hidden_complex(uint32_t from, uint32_t to)
{
	const Source *src = lw.src;

	from = hidden_macros_before(from);
	to = hidden_macros_after(to); /* `(double _Complex)`: the type's node ends at `double` */
	for (uint32_t i = hidden_from(from); i < src->hidden.len; i++) {
		const Hidden *h = &src->hidden.items[i];

		if (h->start >= to)
			break;
		if (h->kind == HIDE_MACRO && h->expansion && names_complex(h->expansion))
			return true;
	}
	return false;
}

static void lower_top_items(TSNode parent);

/* Does a #define (of the file, a header or -D) bind id, so that #undef ends it? */
static bool defined_by_macro(const Ident *id)
{
	return id && (id->kind == ID_CONST || id->kind == ID_MACRO ||
	              (id->kind == ID_TYPEDEF && id->macro_body));
}

/* A constant or type macro from -D or a header starts, or an earlier one ends (#undef). */
static void bind_outside(const PPConst *c)
{
	Ident *id;

	Type *t;

	if (c->is_int) {
		id = lw_bind(c->name, ID_CONST);
		id->value = c->value;
		id->type = lw_prim(P_INT);
		id->macro_body = c->text ? arena_strndup(c->text, strlen(c->text)) : NULL;
	} else if (c->text && !c->params && (t = lw_type_of_text(c->text, strlen(c->text)))) {
		id = lw_bind(c->name, ID_TYPEDEF);
		id->type = t;
		id->macro_body = arena_strndup(c->text, strlen(c->text));
	} else if (c->text) {
		lw_bind_macro(c->name, c->params, c->params ? strlen(c->params) : 0, c->text,
		              strlen(c->text));
	} else if (defined_by_macro(lw_lookup(c->name))) {
		lw_bind(c->name, ID_UNDEF);
	}
}

/* The macros from -D and the headers that the file sees before byte at. */
static void apply_outside(uint32_t at)
{
	while (lw.outside < lw.src->outside.len && lw.src->outside.items[lw.outside].at < at)
		bind_outside(&lw.src->outside.items[lw.outside++]);
}

// preproc_def = '#define' name:identifier value:preproc_arg?
// preproc_function_def = '#define' name:identifier parameters:preproc_params value:preproc_arg?
// A macro whose replacement is an integer literal folds like an enum constant;
// one that spells a type (`#define DATA_TYPE double`) is a typedef name; any
// other is expanded where an expression uses it.
void lw_define(TSNode n)
{
	TSNode value = node_field(n, "value"), params = node_field(n, "parameters");
	int name = node_name(node_field(n, "name"));
	uint32_t len, plen = 0;
	const char *s, *p = NULL;
	int64_t v;
	Ident *id;
	Type *t;

	if (ts_node_is_null(value))
		return;
	s = node_text(value, &len);
	if (!ts_node_is_null(params)) {
		p = node_text(params, &plen);
		p++, plen -= 2; /* inside the parentheses */
	}
	if (!p && pp_int_literal(s, len, &v)) {
		id = lw_bind(name, ID_CONST);
		id->value = v;
		id->type = lw_prim(P_INT);
		id->macro_body = arena_strndup(s, len);
	} else if (!p && (t = lw_type_of_text(s, len))) {
		id = lw_bind(name, ID_TYPEDEF);
		id->type = t;
		id->macro_body = arena_strndup(s, len);
	} else {
		lw_bind_macro(name, p, plen, s, len);
	}
}

// preproc_call = directive:preproc_directive argument:preproc_arg?   ('#undef N')
void lw_undef(TSNode n)
{
	TSNode arg = node_field(n, "argument");
	uint32_t len;
	const char *s;
	Ident *id;

	if (!node_is(node_field(n, "directive"), "#undef") || ts_node_is_null(arg))
		return;
	s = node_text(arg, &len);
	while (len > 0 && strchr(" \t\r", s[len - 1]))
		len--;
	id = lw_lookup(intern(s, len));
	if (defined_by_macro(id))
		lw_bind(intern(s, len), ID_UNDEF);
}

// function_definition | declaration at file scope, after the previous item ended at prev_end
static void lower_top_decl(TSNode n, uint32_t prev_end)
{
	DeclSpec hidden = { 0 };
	TSNode d = node_field(n, "declarator");
	uint32_t start = node_start(n);
	uint32_t to = ts_node_is_null(d) ? start : node_start(d);

	hidden_specifiers(prev_end, to, node_start(n), &hidden, &start);
	if (node_kind(n) == N_FUNCTION_DEFINITION)
		lower_func_def(n, &hidden, start);
	else
		lower_global_decl(n, &hidden);
}

// _top_level_item = function_definition | declaration | type_definition | linkage_specification
//                 | preproc_if | preproc_ifdef | preproc_* | struct_specifier ';' | statement
static void lower_top_item(TSNode c, uint32_t prev_end)
{
	TSNode body;

	apply_outside(node_start(c) + 1);
	switch (node_kind(c)) {
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
		body = node_field(c, "body");
		if (node_kind(body) == N_DECLARATION_LIST)
			lower_top_items(body);
		else
			lower_top_item(body, prev_end);
		break;
	case N_PREPROC_IF: case N_PREPROC_IFDEF: /* not evaluated by pp_scan: first branch */
		lower_top_items(c);
		break;
	case N_PREPROC_DEF: case N_PREPROC_FUNCTION_DEF:
		lw_define(c);
		break;
	case N_PREPROC_CALL:
		lw_undef(c);
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
		if (!node_is_content(c) || kids_field_is(&k, "condition") || kids_field_is(&k, "name") ||
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
	memset(&lw, 0, sizeof(lw));
	lw.prog = prog;
	lw.lt = prog->lower;
	lw.src = src;
	lw.ok = true;
	build_sym_kinds(ts_tree_language(tree));
	if (ts_node_has_error(root)) { /* parse_source refuses such trees */
		error_at(src, node_start(root), "cannot lower a tree with syntax errors");
		return false;
	}
	lower_top_items(root);
	unbind_to(0); /* file scope: the next source starts empty */
	array_free(&lw.undo);
	return lw.ok;
}

void lower_release(void)
{
	array_free(&lw.undo);
	memset(&lw, 0, sizeof(lw));
	free(sym_kind);
	sym_kind = NULL;
	nsyms = 0;
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

