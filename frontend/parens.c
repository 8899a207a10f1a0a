/*
 * parens.c - front end: casts that are not.  tree-sitter-c cannot tell a
 * type name from a variable, and its grammar gives a cast a higher
 * precedence than a binary operator, so `c[i] = (a[k]) + 0.5 * b[i];`
 * comes out as the cast `(a[k])(+0.5)` times `b[i]`: the read of a[k] is
 * lost, and with it a dependence (a helper's random loop nests found it,
 * session 34).  Where such a cast's operand starts with a sign, `*` or
 * `&`, and its "type" is a name with array or parameter brackets after it
 * (no cast has an array or function type) or a bare name the source
 * declares as a variable, a parameter, a function, an enumerator or an
 * integer or function-like macro, and never as a typedef, the
 * parentheses are hidden from tree-sitter
 * (HIDE_PAREN) and the source parsed again: they hold a postfix expression
 * (a name, a subscript, a call), which binds tighter than any operator
 * around it, so the reading without them is the compiler's.  The output
 * copies the text as it is.
 */
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "frontend.h"

enum { NAME_ORDINARY = 1, NAME_TYPE = 2, UNPAREN_ROUNDS = 8 };

typedef struct Unparen {
	const Source *src;
	uint8_t *names; /* by interned name: NAME_ORDINARY, NAME_TYPE */
	uint32_t nnames;
	Array(uint32_t) parens; /* bytes of the '(' and ')' to hide */
} Unparen;

static bool is(TSNode n, const char *type)
{
	return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

static TSNode field(TSNode n, const char *name)
{
	return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

static int name_of(const Unparen *u, TSNode n)
{
	uint32_t s = ts_node_start_byte(n);

	return intern(u->src->text + s, ts_node_end_byte(n) - s);
}

/* Notes what name stands for; the table grows with the names interned since it was made. */
static void mark(Unparen *u, int name, uint8_t kind)
{
	if (name <= 0)
		return;
	if ((uint32_t)name >= u->nnames) {
		uint32_t n = intern_count();

		u->names = xrealloc(u->names, n);
		memset(u->names + u->nnames, 0, n - u->nnames);
		u->nnames = n;
	}
	u->names[name] |= kind;
}

/* The name a declarator declares: through pointers, arrays, parameter lists, parentheses. */
static TSNode declared_name(TSNode d)
{
	while (!ts_node_is_null(d) && !is(d, "identifier") && !is(d, "type_identifier")) {
		TSNode in = field(d, "declarator");

		d = ts_node_is_null(in) && ts_node_named_child_count(d) == 1 ? ts_node_named_child(d, 0) : in;
	}
	return d;
}

/*
 * Visits every node of the tree under n in document order until visit
 * returns false; returns whether it never did.
 */
static bool each_node(TSNode n, bool (*visit)(Unparen *, TSNode), Unparen *u)
{
	TSTreeCursor cur = ts_tree_cursor_new(n);
	bool all = true;

	for (;;) {
		if (!visit(u, ts_tree_cursor_current_node(&cur))) {
			all = false;
			break;
		}
		if (ts_tree_cursor_goto_first_child(&cur))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&cur))
			if (!ts_tree_cursor_goto_parent(&cur))
				goto done;
	}
done:
	ts_tree_cursor_delete(&cur);
	return all;
}

/* What each declarator of node c declares: a typedef name, or an ordinary identifier. */
static bool note_declaration(Unparen *u, TSNode c)
{
	uint32_t k = ts_node_child_count(c);

	if (is(c, "enumerator"))
		mark(u, name_of(u, field(c, "name")), NAME_ORDINARY);
	for (uint32_t i = 0; i < k; i++) {
		const char *f = ts_node_field_name_for_child(c, i);
		TSNode d;

		if (!f || strcmp(f, "declarator") != 0)
			continue;
		d = declared_name(ts_node_child(c, i));
		if (!ts_node_is_null(d))
			mark(u, name_of(u, d), is(c, "type_definition") || is(d, "type_identifier")
			                             ? NAME_TYPE : NAME_ORDINARY);
	}
	return true;
}

/*
 * Integer and function-like macros name values; any other may spell a type
 * (`#define DATA_TYPE double`), and its name is never unparenthesized.
 */
static void note_macros(Unparen *u, const PPConstList *l)
{
	for (uint32_t i = 0; i < l->len; i++)
		if (l->items[i].is_int || l->items[i].params)
			mark(u, l->items[i].name, NAME_ORDINARY);
		else if (l->items[i].text)
			mark(u, l->items[i].name, NAME_TYPE);
}

/*
 * A cast `(NAME...)` whose operand starts with `+`, `-`, `*` or `&`, NAME
 * followed by nothing or by array or parameter brackets only: what a
 * parenthesized postfix expression before a binary operator looks like.
 */
static bool looks_misread(TSNode c)
{
	TSNode ty = field(c, "type"), v = field(c, "value"), d = field(ty, "declarator");
	uint32_t parts = ts_node_named_child_count(ty);

	if (!is(field(ty, "type"), "type_identifier") || parts != (ts_node_is_null(d) ? 1u : 2u))
		return false;
	while (is(d, "abstract_array_declarator") || is(d, "abstract_function_declarator"))
		d = field(d, "declarator");
	if (!ts_node_is_null(d))
		return false;
	if (is(v, "pointer_expression"))
		return true;
	if (!is(v, "unary_expression"))
		return false;
	return is(field(v, "operator"), "+") || is(field(v, "operator"), "-");
}

/* The '(' and ')' of cast c to u->parens. */
static void note_parens(Unparen *u, TSNode c)
{
	uint32_t k = ts_node_child_count(c);

	for (uint32_t i = 0; i < k; i++) {
		TSNode t = ts_node_child(c, i);

		if (is(t, "(") || is(t, ")"))
			array_push(&u->parens, ts_node_start_byte(t));
		if (is(t, ")"))
			return;
	}
}

/*
 * A cast that is not: its parentheses' bytes to u->parens.  With brackets
 * after the name (`(a[k])`, `(sqrtf(v))`) it never is one, since C casts
 * to no array or function type; a bare name must be an ordinary one.
 */
static bool note_misread(Unparen *u, TSNode c)
{
	if (is(c, "cast_expression") && looks_misread(c)) {
		TSNode ty = field(c, "type");
		int name = name_of(u, field(ty, "type"));

		if (!ts_node_is_null(field(ty, "declarator")) ||
		    (name > 0 && (uint32_t)name < u->nnames && u->names[name] == NAME_ORDINARY))
			note_parens(u, c);
	}
	return true;
}

/* Stops at the first cast that looks misread. */
static bool not_suspect(Unparen *u, TSNode c)
{
	(void)u;
	return !(is(c, "cast_expression") && looks_misread(c));
}

/* Hides the byte at (a '(' or ')') from tree-sitter, keeping src->hidden sorted. */
static void hide_paren(Source *src, uint32_t at)
{
	Hidden h = { .start = at, .end = at + 1, .kind = HIDE_PAREN };
	uint32_t i = src->hidden.len;

	array_push(&src->hidden, h);
	while (i > 0 && src->hidden.items[i - 1].start > at) {
		src->hidden.items[i] = src->hidden.items[i - 1];
		i--;
	}
	src->hidden.items[i] = h;
}

/* One round: the misread casts' parentheses hidden; false when there were none. */
static bool unparen_once(Source *src, TSTree *tree)
{
	TSNode root = ts_tree_root_node(tree);
	Unparen u = { .src = src };
	uint32_t n;

	if (each_node(root, not_suspect, &u))
		return false; /* most sources: no names to collect */
	u.nnames = intern_count();
	u.names = xcalloc(u.nnames, 1);
	each_node(root, note_declaration, &u);
	note_macros(&u, &src->own);
	note_macros(&u, &src->outside);
	each_node(root, note_misread, &u);
	n = u.parens.len;
	for (uint32_t i = 0; i < n; i++)
		hide_paren(src, u.parens.items[i]);
	free(u.names);
	array_free(&u.parens);
	return n > 0;
}

void parse_unparen(Source *src, TSTree **tree)
{
	for (int round = 0; round < UNPAREN_ROUNDS && *tree && unparen_once(src, *tree); round++) {
		ts_tree_delete(*tree);
		*tree = parse_tree(src);
	}
}
