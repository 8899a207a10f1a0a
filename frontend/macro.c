/*
 * macro.c - front end: macro uses in expressions, expanded for the
 * analysis.  tree-sitter sees a macro use as a name or a call; the
 * compiler sees its replacement.  A use of a macro the lowering knows (a
 * #define of the file, of a header found through -I, or -D) is expanded
 * here the way the preprocessor would (arguments expanded first, then the
 * result rescanned with the macro's own name hidden), the replacement is
 * parsed as an expression, and that expression is lowered in place of the
 * use.  Every node of it carries the use's bytes, so remarks point at the
 * user's line and a backend edit of the whole expression replaces the use;
 * the nodes inside it are marked in_macro, for the stages that must not
 * edit them one by one.
 *
 * Only replacements without effects are taken (no calls, assignments,
 * increments or statements): the output keeps the macro uses, and a task
 * that calls through a macro keeps the old, conservative reading of an
 * unknown call.  Anything the expander does not model (# and ##, an
 * argument list that runs past the use, a too-deep or too-long expansion)
 * leaves the use as it was.
 */
#include <stdlib.h>
#include <string.h>
#define MTPAR_LOWERING
#include <tree_sitter/api.h>

#include "frontend.h"

const TSLanguage *tree_sitter_c(void);

enum {
	MACRO_DEPTH_MAX = 64,          /* nested expansions of one use */
	MACRO_TEXT_MAX = 64 * 1024,    /* bytes of one use's replacement */
	MACRO_ARGS_MAX = 64,
};

typedef struct Buf {
	Array(char) c;
	bool failed;
} Buf;

typedef struct Expander {
	int hide[MACRO_DEPTH_MAX]; /* the macros being expanded: not again inside */
	int nhide;
	MacroLookup *define_of;    /* the #define a name has where the text is */
	void *ctx;
} Expander;

static void buf_put(Buf *b, const char *s, size_t n)
{
	if (b->c.len + n + 2 > MACRO_TEXT_MAX) {
		b->failed = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		array_push(&b->c, s[i]);
	array_push(&b->c, ' '); /* tokens stay apart: no accidental pasting */
}

static bool hidden(const Expander *x, int name)
{
	for (int i = 0; i < x->nhide; i++)
		if (x->hide[i] == name)
			return true;
	return false;
}

/* The macro binding of name, or NULL. */
static const Ident *macro_of(int name)
{
	const Ident *id = lw_lookup(name);

	return id && id->kind == ID_MACRO ? id : NULL;
}

/*
 * The #define of name for the expander, or NULL: inside a replacement an
 * integer or type macro is its text too (`XCAT(v, ONE)` pastes v1, and
 * `DATA_TYPE (*A)[N]` must read as a declaration).
 */
static const Ident *define_of(int name, void *ctx)
{
	(void)ctx;
	const Ident *id = lw_lookup(name);

	if (id && id->kind == ID_MACRO)
		return id;
	return id && (id->kind == ID_CONST || id->kind == ID_TYPEDEF) && id->macro_body ? id : NULL;
}

static void expand(Expander *x, const char *s, const char *end, Buf *out);

/* One argument of a call: [s, e), expanded into its own buffer (arena text). */
typedef struct Arg {
	const char *s, *e;
	char *expanded;
} Arg;

/*
 * After a function-like macro's name at *p: the arguments up to the
 * matching ')', split at the top-level commas.  False when there is no
 * '(' or it does not close within the text.
 */
static bool read_args(const char **p, const char *end, Arg *args, int *n)
{
	const char *q = *p, *start;
	int depth = 0;
	PPToken t;

	if (!pp_next_token(&q, end, &t) || !pp_token_is(&t, "("))
		return false;
	start = q;
	*n = 0;
	while (pp_next_token(&q, end, &t)) {
		bool close = pp_token_is(&t, ")"), comma = pp_token_is(&t, ",");

		if (pp_token_is(&t, "(") || pp_token_is(&t, "[") || pp_token_is(&t, "{"))
			depth++;
		else if ((close || pp_token_is(&t, "]") || pp_token_is(&t, "}")) && depth > 0)
			depth--;
		else if ((close || comma) && depth == 0) {
			if (*n == MACRO_ARGS_MAX)
				return false;
			args[*n].s = start;
			args[(*n)++].e = t.s;
			start = q;
			if (close) {
				*p = q;
				return true;
			}
		}
	}
	return false;
}

/* The parameter list "a, b, ..." as interned names; "..." is __VA_ARGS__. */
static int read_params(const char *s, int *names, bool *variadic)
{
	const char *end = s + strlen(s);
	PPToken t;
	int n = 0;

	*variadic = false;
	while (pp_next_token(&s, end, &t) && n < MACRO_ARGS_MAX) {
		if (t.kind == 'i')
			names[n++] = intern(t.s, t.n);
		else if (t.kind == 'p' && t.n == 1 && *t.s == '.') {
			names[n++] = intern("__VA_ARGS__", 11);
			*variadic = true;
			return n;
		}
	}
	return n;
}

static char *expand_arg(Expander *x, const Arg *a, Buf *out)
{
	Buf b = { 0 };
	char *text;

	expand(x, a->s, a->e, &b);
	out->failed |= b.failed;
	text = arena_strndup(b.c.items ? b.c.items : "", b.c.len);
	array_free(&b.c);
	return text;
}

static bool is_paste(const PPToken *t)
{
	return t->kind == 'p' && t->n == 2 && t->s[0] == '#' && t->s[1] == '#';
}

/* The index of parameter token t among params, or -1. */
static int param_index(const PPToken *t, const int *params, int np)
{
	for (int i = 0; t->kind == 'i' && i < np; i++)
		if (params[i] == intern(t->s, t->n))
			return i;
	return -1;
}

/* Appends s[0, n) to the token before it in b, with no space between: `x ## f`. */
static void paste_onto(Buf *b, const char *s, size_t n)
{
	while (b->c.len && b->c.items[b->c.len - 1] == ' ')
		b->c.len--;
	buf_put(b, s, n);
}

/* Argument k as written, blanks trimmed: an operand of ## is not expanded. */
static void raw_arg(const Arg *a, const char **s, size_t *n)
{
	const char *p = a->s, *e = a->e;

	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n'))
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		e--;
	*s = p;
	*n = (size_t)(e - p);
}

/*
 * The body of m with each parameter replaced by its expanded argument, or
 * by the argument as written next to ##, which pastes its operands
 * (PolyBench's `#define SCALAR_VAL(x) x##f`).  # (stringizing) gives up.
 */
static bool substitute(Expander *x, const Ident *m, Arg *args, int nargs, Buf *body)
{
	int params[MACRO_ARGS_MAX];
	bool variadic, paste = false, left = false; /* left: the last operand gave a token */
	int np = read_params(m->macro_params, params, &variadic);
	const char *p = m->macro_body, *end = p + strlen(p);
	PPToken t, next;

	if (np == 0 && nargs == 1 && args[0].s == args[0].e)
		nargs = 0; /* F() */
	if (variadic ? nargs < np - 1 : nargs != np)
		return false;
	for (int i = 0; i < nargs; i++)
		args[i].expanded = expand_arg(x, &args[i], body);
	while (pp_next_token(&p, end, &t)) {
		const char *q = p;
		bool before_paste = pp_next_token(&q, end, &next) && is_paste(&next);
		int k = param_index(&t, params, np);
		const char *s = t.s;
		size_t n = t.n;

		if (is_paste(&t)) {
			paste = true;
			continue;
		}
		if (t.kind == 'p' && *t.s == '#')
			return false; /* stringizing works on the text as written */
		if (k >= 0 && variadic && k == np - 1) {
			if (paste || before_paste)
				return false; /* GNU's `, ## __VA_ARGS__` */
			for (int i = k; i < nargs; i++) {
				if (i > k)
					buf_put(body, ",", 1);
				buf_put(body, args[i].expanded, strlen(args[i].expanded));
			}
			left = true;
			continue;
		}
		if (k >= 0 && k < nargs) {
			if (paste || before_paste)
				raw_arg(&args[k], &s, &n);
			else
				s = args[k].expanded, n = strlen(args[k].expanded);
		}
		if (paste && left)
			paste_onto(body, s, n);
		else if (n)
			buf_put(body, s, n);
		left = n > 0 || (paste && left); /* an empty operand is a placemarker */
		paste = false;
	}
	return !paste && !body->failed;
}

/* The use of macro m named name at *p (its arguments follow): its expansion into out. */
static bool expand_use(Expander *x, int name, const Ident *m, const char **p, const char *end,
                       Buf *out)
{
	Buf body = { 0 };
	const char *s = m->macro_body;
	bool ok = true;

	if (x->nhide == MACRO_DEPTH_MAX)
		return false;
	if (m->macro_params) {
		Arg args[MACRO_ARGS_MAX];
		int n;

		if (!read_args(p, end, args, &n))
			return false;
		ok = substitute(x, m, args, n, &body);
		s = body.c.items ? body.c.items : "";
		end = s + body.c.len;
	} else {
		end = s + strlen(s);
	}
	if (ok) {
		x->hide[x->nhide++] = name;
		expand(x, s, end, out);
		x->nhide--;
	}
	array_free(&body.c);
	return ok;
}

/* A function-like macro's name not followed by '(' is no use of it. */
static bool next_is_paren(const char *s, const char *end)
{
	PPToken t;

	return pp_next_token(&s, end, &t) && pp_token_is(&t, "(");
}

/* The tokens of [s, end) with every macro use expanded, into out. */
static void expand(Expander *x, const char *s, const char *end, Buf *out)
{
	PPToken t;

	while (!out->failed && pp_next_token(&s, end, &t)) {
		int name = t.kind == 'i' ? intern(t.s, t.n) : 0;
		const Ident *m = name ? x->define_of(name, x->ctx) : NULL;

		if (m && !hidden(x, name) && (!m->macro_params || next_is_paren(s, end))) {
			if (!expand_use(x, name, m, &s, end, out))
				out->failed = true;
			continue;
		}
		buf_put(out, t.s, t.n);
	}
}

char *macro_expand_use(const char **p, const char *end, MacroLookup *lookup, void *ctx,
                       uint32_t *len)
{
	Expander x = { .nhide = 0, .define_of = lookup, .ctx = ctx };
	Buf out = { 0 };
	const char *q = *p;
	char *text = NULL;
	const Ident *m;
	PPToken t;
	int name;

	if (!pp_next_token(&q, end, &t) || t.kind != 'i')
		return NULL;
	name = intern(t.s, t.n);
	m = lookup(name, ctx);
	if (!m || (m->macro_params && !next_is_paren(q, end)))
		return NULL;
	if (expand_use(&x, name, m, &q, end, &out) && !out.failed) {
		text = arena_strndup(out.c.items ? out.c.items : "", out.c.len);
		*len = out.c.len;
		*p = q;
	}
	array_free(&out.c);
	return text;
}

/* Node kinds a replacement may hold: anything with an effect keeps the use as it was. */
static bool effect_free(TSNode n)
{
	uint32_t k = ts_node_child_count(n);

	switch (node_kind(n)) {
	case N_ASSIGNMENT_EXPRESSION: case N_UPDATE_EXPRESSION: case N_COMPOUND_STATEMENT:
	case N_GNU_ASM_EXPRESSION:
		return false;
	case N_CALL_EXPRESSION: /* only `(T)(x)`, a cast */
		if (node_kind(node_field(n, "function")) != N_PARENTHESIZED_EXPRESSION)
			return false;
		break;
	default:
		break;
	}
	for (uint32_t i = 0; i < k; i++)
		if (!effect_free(ts_node_child(n, i)))
			return false;
	return true;
}

static void mark_in_macro(Expr *e, void *ctx)
{
	(void)ctx;
	e->in_macro = true;
}


/* A parse of head + text + tail; *src holds the text it read (caller frees both). */
static TSTree *parse_wrapped(const char *head, const char *text, uint32_t len, const char *tail,
                             char **src)
{
	size_t h = strlen(head), t = strlen(tail);
	TSParser *parser = ts_parser_new();
	TSTree *tree;

	*src = xmalloc(h + len + t + 1);
	memcpy(*src, head, h);
	memcpy(*src + h, text, len);
	memcpy(*src + h + len, tail, t + 1);
	ts_parser_set_language(parser, tree_sitter_c());
	tree = ts_parser_parse_string(parser, NULL, *src, (uint32_t)(h + len + t));
	ts_parser_delete(parser);
	if (tree && ts_node_has_error(ts_tree_root_node(tree))) {
		ts_tree_delete(tree);
		tree = NULL;
	}
	return tree;
}

/* The lowering reads the nodes of a replacement's tree (text src) as the use's bytes. */
static void enter_replacement(const char *src, TSNode use)
{
	lw.mx_start = node_start(use);
	lw.mx_end = node_end(use);
	lw.mx_text = src;
}

/* The parse of text as one expression (*expr, null when it is not one); caller frees both. */
static TSTree *parse_expr(const char *text, uint32_t len, char **src, TSNode *expr)
{
	TSTree *tree = parse_wrapped("void mtpar_macro(void) { (", text, len, "\n); }", src);

	*expr = (TSNode){ 0 };
	if (tree) {
		TSNode body = node_field(ts_node_named_child(ts_tree_root_node(tree), 0), "body");
		TSNode stmt = ts_node_named_child(body, 0);

		if (ts_node_named_child_count(body) == 1 && node_kind(stmt) == N_EXPRESSION_STATEMENT)
			*expr = ts_node_named_child(stmt, 0);
	}
	return tree;
}

/* Is text one expression without effects (lower_expr reads such a use)? */
static bool one_plain_expr(const char *text, uint32_t len)
{
	char *src;
	TSNode expr;
	TSTree *tree = parse_expr(text, len, &src, &expr);
	bool plain = !ts_node_is_null(expr) && effect_free(expr);

	if (tree)
		ts_tree_delete(tree);
	free(src);
	return plain;
}

/* How tightly a binary operator binds (C's precedence levels), 0 when n is no binary expression. */
static int binary_level(TSNode n)
{
	static const struct { const char *op; int level; } ops[] = {
		{ "*", 10 }, { "/", 10 }, { "%", 10 }, { "+", 9 }, { "-", 9 }, { "<<", 8 }, { ">>", 8 },
		{ "<", 7 }, { "<=", 7 }, { ">", 7 }, { ">=", 7 }, { "==", 6 }, { "!=", 6 }, { "&", 5 },
		{ "^", 4 }, { "|", 3 }, { "&&", 2 }, { "||", 1 },
	};
	TSNode op;
	uint32_t len;
	const char *t;

	if (node_kind(n) != N_BINARY_EXPRESSION || ts_node_is_null(op = node_field(n, "operator")))
		return 0;
	t = ts_node_type(op); /* an operator token's type is its text */
	len = (uint32_t)strlen(t);
	for (size_t i = 0; i < sizeof(ops) / sizeof(*ops); i++)
		if (strlen(ops[i].op) == len && memcmp(ops[i].op, t, len) == 0)
			return ops[i].level;
	return 0;
}

/*
 * How tightly the replacement's top node binds: 12 postfix or primary, 11
 * prefix, 1-10 binary, 0 conditional or assignment, -1 a comma.
 */
static int replacement_level(TSNode r)
{
	switch (node_kind(r)) {
	case N_BINARY_EXPRESSION:
		return binary_level(r);
	case N_UNARY_EXPRESSION: case N_POINTER_EXPRESSION: case N_CAST_EXPRESSION:
	case N_SIZEOF_EXPRESSION:
		return 11;
	case N_CONDITIONAL_EXPRESSION: case N_ASSIGNMENT_EXPRESSION:
		return 0;
	case N_COMMA_EXPRESSION:
		return -1;
	default:
		return 12;
	}
}

static bool same_node(TSNode a, TSNode b)
{
	return !ts_node_is_null(a) && !ts_node_is_null(b) && ts_node_eq(a, b);
}

/*
 * Does replacing use by the replacement r as one node mean what the
 * preprocessor's text means?  `#define N 2+3` in `i * N` is `i*2+3` to
 * the compiler, not `i * (2 + 3)`: the replacement must bind at least as
 * tightly as the operator around the use (a left operand of its own level
 * too, operators being left-associative).
 */
static bool fits_context(TSNode use, TSNode r)
{
	TSNode parent = ts_node_parent(use);
	int level = replacement_level(r), around;

	if (level == 12 || ts_node_is_null(parent))
		return true;
	if (level < 0) /* `f(M)`, `int x = M;` would take a comma for a separator */
		return node_kind(parent) == N_PARENTHESIZED_EXPRESSION;
	switch (node_kind(parent)) {
	case N_BINARY_EXPRESSION:
		around = binary_level(parent);
		return level > around ||
		       (level == around && same_node(node_field(parent, "left"), use));
	case N_UNARY_EXPRESSION: case N_POINTER_EXPRESSION: case N_CAST_EXPRESSION:
	case N_SIZEOF_EXPRESSION: case N_UPDATE_EXPRESSION:
		return level >= 11;
	case N_SUBSCRIPT_EXPRESSION: case N_CALL_EXPRESSION: case N_FIELD_EXPRESSION:
		return !same_node(node_field(parent, "argument"), use) &&
		       !same_node(node_field(parent, "function"), use);
	case N_CONDITIONAL_EXPRESSION:
		return level > 0 || !same_node(node_field(parent, "condition"), use);
	case N_ASSIGNMENT_EXPRESSION:
		return !same_node(node_field(parent, "left"), use);
	default: /* parentheses, arguments, an index, an initializer, a statement */
		return true;
	}
}

/* The expression text spells, lowered in place of use; NULL when it is not one without effects. */
static Expr *lower_replacement(const char *text, uint32_t len, TSNode use)
{
	char *src;
	TSNode expr;
	TSTree *tree = parse_expr(text, len, &src, &expr);
	Expr *e = NULL;

	if (!ts_node_is_null(expr) && effect_free(expr) &&
	    fits_context(use, ts_node_named_child(expr, 0))) { /* inside parse_expr's parentheses */
		enter_replacement(src, use);
		e = lower_expr(expr);
		lw.mx_text = NULL;
		ir_visit_expr(e, mark_in_macro, NULL);
		e->in_macro = false;
	}
	if (tree)
		ts_tree_delete(tree);
	free(src);
	return e;
}

/* The use's text with every macro expanded (arena); NULL when the expander gives up. */
/*
 * Do the replacement's parentheses and brackets pair up?  `#define X a) + (b`
 * means something else inside `f(X)` than `(X)` means; read alone it would
 * be lowered as neither.
 */
static bool balanced(const char *s, const char *end)
{
	PPToken t;
	int depth = 0;

	while (depth >= 0 && pp_next_token(&s, end, &t))
		if (t.kind == 'p' && t.n == 1)
			depth += (*t.s == '(' || *t.s == '[') - (*t.s == ')' || *t.s == ']');
	return depth == 0;
}

static char *expand_use_text(TSNode n, uint32_t *len)
{
	Expander x = { .nhide = 0, .define_of = define_of };
	Buf out = { 0 };
	const char *s = node_text(n, len);
	char *text = NULL;

	expand(&x, s, s + *len, &out);
	if (!out.failed && out.c.len && balanced(out.c.items, out.c.items + out.c.len)) {
		text = arena_strndup(out.c.items, out.c.len);
		*len = out.c.len;
	}
	array_free(&out.c);
	return text;
}

/* Block items a statement macro may spell: no control flow, no block, no loop. */
static bool plain_items(TSNode body)
{
	uint32_t n = ts_node_named_child_count(body);

	for (uint32_t i = 0; i < n; i++) {
		TSNode item = ts_node_named_child(body, i), e;
		NodeKind k = node_kind(item);

		if (k != N_DECLARATION && k != N_EXPRESSION_STATEMENT && k != N_COMMENT)
			return false;
		if (k == N_EXPRESSION_STATEMENT && !ts_node_is_null(e = node_first_content(item)) &&
		    node_kind(e) == N_GNU_ASM_EXPRESSION)
			return false;
	}
	return n > 0;
}

static void mark_stmt_in_macro(Stmt *s)
{
	s->in_macro = true;
	if (s->expr)
		ir_visit_expr(s->expr, mark_in_macro, NULL);
	for (uint32_t i = 0; i < s->body.len; i++)
		mark_stmt_in_macro(s->body.items[i]);
}

/* The items of block body (text src) lowered into list in n's place, marked in_macro. */
static void lower_items_at(StmtList *list, TSNode n, const char *src, TSNode body,
                           void (*lower_item)(StmtList *, TSNode))
{
	const char *outer = lw.mx_text;
	uint32_t first = list->len;

	enter_replacement(src, n);
	for (uint32_t i = 0; i < ts_node_named_child_count(body); i++)
		lower_item(list, ts_node_named_child(body, i));
	lw.mx_text = outer;
	for (uint32_t i = first; i < list->len; i++)
		mark_stmt_in_macro(list->items[i]);
}

/*
 * A statement that is only a macro use whose replacement is not one
 * expression without effects: PolyBench's POLYBENCH_2D_ARRAY_DECL(A, ...)
 * declares A and assigns it what an allocator returns; a macro may spell a
 * call or an increment.  Read as the statements the compiler sees, when
 * they are declarations and expression statements only: the objects they
 * declare are in scope for the rest of the block, and their effects are
 * what the analysis sees.  Every statement takes the use's bytes and is
 * marked in_macro, so that no stage edits inside it (the output keeps the
 * use, and the #define it needs).
 */
bool lower_macro_stmt(StmtList *list, TSNode n, void (*lower_item)(StmtList *, TSNode))
{
	TSNode use = node_first_content(n), body = { 0 };
	uint32_t len;
	char *text, *src;
	TSTree *tree;
	bool ok;

	if (lw.mx_text || ts_node_is_null(use) || !lw_is_macro_use(use) ||
	    !(text = expand_use_text(use, &len)) || one_plain_expr(text, len))
		return false;
	if (!(tree = parse_wrapped("void mtpar_macro(void) {\n", text, len, "\n; }", &src))) {
		free(src);
		return false;
	}
	body = node_field(ts_node_named_child(ts_tree_root_node(tree), 0), "body");
	if ((ok = !ts_node_is_null(body) && plain_items(body)))
		lower_items_at(list, n, src, body, lower_item);
	ts_tree_delete(tree);
	free(src);
	return ok;
}

/* Lowers the one declaration `auto TEXT` in n's place; false when it is none. */
static bool lower_auto_decl(StmtList *list, TSNode n, const char *text, uint32_t len,
                            void (*lower_item)(StmtList *, TSNode))
{
	TSNode body;
	char *src;
	TSTree *tree = parse_wrapped("void mtpar_decl(void) {\nauto ", text, len, "\n}", &src);
	bool ok = false;

	if (tree) {
		body = node_field(ts_node_named_child(ts_tree_root_node(tree), 0), "body");
		if ((ok = ts_node_named_child_count(body) == 1 &&
		          node_kind(ts_node_named_child(body, 0)) == N_DECLARATION))
			lower_items_at(list, n, src, body, lower_item);
		ts_tree_delete(tree);
	}
	free(src);
	return ok;
}

/*
 * `T (*A)[N];` with T a typedef name or a type macro (`#define DATA_TYPE
 * double`): tree-sitter, which knows no typedefs, reads a call of T where
 * the compiler sees a declaration.  Read again after `auto` (the storage a
 * block-scope object has anyway), which makes it one.
 */
bool lower_typename_stmt(StmtList *list, TSNode n, void (*lower_item)(StmtList *, TSNode))
{
	uint32_t len;
	const char *text = node_text(n, &len), *p = text, *end = text + len;
	const Ident *id;
	PPToken t;

	if (!pp_next_token(&p, end, &t) || t.kind != 'i' || !(id = lw_lookup(intern(t.s, t.n))) ||
	    id->kind != ID_TYPEDEF || !pp_next_token(&p, end, &t) || !pp_token_is(&t, "("))
		return false;
	return lower_auto_decl(list, n, text, len, lower_item);
}

bool lower_macro_declarator(TSNode d, Type *t, Declarator *out)
{
	uint32_t len;
	char *text, *src;
	TSTree *tree;
	TSNode decl, dd;
	bool ok = false;

	if (lw.mx_text || !(text = expand_use_text(d, &len)))
		return false;
	if (!(tree = parse_wrapped("int ", text, len, "\n;", &src))) {
		free(src);
		return false;
	}
	decl = ts_node_named_child(ts_tree_root_node(tree), 0);
	dd = node_field(decl, "declarator");
	if (node_kind(decl) == N_DECLARATION && ts_node_named_child_count(decl) == 2 &&
	    !ts_node_is_null(dd) && node_kind(dd) != N_INIT_DECLARATOR) {
		enter_replacement(src, d);
		lower_declarator(dd, t, out);
		lw.mx_text = NULL;
		out->name_node = (TSNode){ 0 }; /* its tree is gone */
		ok = ts_node_is_null(out->func) && out->name;
	}
	ts_tree_delete(tree);
	free(src);
	return ok;
}

bool lw_is_macro_declarator(TSNode d)
{
	TSNode name = node_field(d, "declarator");
	const Ident *m;

	return node_kind(name) == N_IDENTIFIER && (m = macro_of(node_name(name))) && m->macro_params;
}

Expr *lower_macro_use(TSNode n)
{
	uint32_t len;
	char *text;

	if (lw.mx_text)
		return NULL; /* inside a replacement: what is left is not a macro */
	text = expand_use_text(n, &len);
	return text ? lower_replacement(text, len, n) : NULL;
}

bool lw_is_macro_use(TSNode n)
{
	if (node_kind(n) == N_CALL_EXPRESSION) {
		TSNode fn = node_field(n, "function");
		const Ident *m;

		return node_kind(fn) == N_IDENTIFIER && (m = macro_of(node_name(fn))) && m->macro_params;
	}
	return node_kind(n) == N_IDENTIFIER && macro_of(node_name(n)) &&
	       !macro_of(node_name(n))->macro_params;
}

void lw_bind_macro(int name, const char *params, size_t plen, const char *body, size_t blen)
{
	Ident *id = lw_bind(name, ID_MACRO);

	id->macro_params = params ? arena_strndup(params, plen) : NULL;
	id->macro_body = arena_strndup(body, blen);
}
