/*
 * stmt.c - front end, lowering of statements: blocks with their scopes,
 * block-scope declarations (one ST_DECL per declarator), control flow,
 * and loops, whose induction variables loop.c recognises.
 */
#include <tree_sitter/api.h>

#define MTPAR_LOWERING
#include "frontend.h"


/* ---- statements ---- */

static void lower_stmt_into(StmtList *list, TSNode n);

static Stmt *new_stmt(StmtKind kind, TSNode n)
{
	Stmt *s = ARENA_NEW(Stmt);

	s->kind = kind;
	node_span(n, &s->start, &s->end);
	return s;
}

/*
 * Unmodelled bits flow upwards: um_begin starts a statement's own set,
 * um_end stores it in s (NULL: no statement came of it) and adds it to the
 * set of the statement around.
 */
static uint32_t um_begin(void)
{
	uint32_t saved = lw.um;

	lw.um = 0;
	return saved;
}

static void um_end(Stmt *s, uint32_t saved)
{
	if (s)
		s->unmodelled |= lw.um;
	lw.um |= saved;
}

static bool has_vla(const Type *t)
{
	for (; t && t->kind == TY_ARRAY; t = t->base)
		if (t->is_vla)
			return true;
	return false;
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

	if (node_kind(d) == N_INIT_DECLARATOR) {
		value = node_field(d, "value");
		d = node_field(d, "declarator");
	}
	lower_declarator(d, ds->type, &dc);
	if (dc.type->kind == TY_FUNC || ds->storage == SC_EXTERN || !dc.name) {
		if (dc.type->kind == TY_FUNC)
			lw_declare_func(&dc, ds);
		else if (dc.name)
			lw_global_var(&dc, SC_EXTERN, d);
		um_end(NULL, saved);
		return;
	}
	v = lw_new_var(dc.name, dc.type, VAR_LOCAL, d);
	v->storage = ds->storage;
	v->thread_local = ds->is_thread_local;
	v->has_init = !ts_node_is_null(value);
	if (lw.func)
		array_push(&lw.func->locals, v);
	lw_bind(dc.name, ID_VAR)->var = v; /* in scope in its own initializer */
	if (has_vla(dc.type) || ir_type_lengths_have_effect(dc.type))
		lw_note_um(UM_VLA, node_start(d));
	s = new_stmt(ST_DECL, decl);
	s->var = v;
	s->expr = v->init = lower_expr(value);
	v->type = lw_completed_type(v->type, value, v->init);
	lw_note_decay(s->expr);
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
	lw_hidden_specifiers(n, &ds);
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
		if (!node_is_content(c) || kids_field_is(&k, "condition") || kids_field_is(&k, "name") ||
		    kids_field_is(&k, "alternative"))
			continue;
		lower_stmt_into(list, c);
	}
}

static bool is_jump_target(const Stmt *s, void *ctx)
{
	(void)ctx;
	return s->kind == ST_LABEL || s->kind == ST_CASE;
}

/* Does control never reach the statement after s? */
static bool always_leaves(const Stmt *s)
{
	switch (s->kind) {
	case ST_RETURN: case ST_BREAK: case ST_CONTINUE: case ST_GOTO:
		return true;
	case ST_BLOCK:
		return s->body.len && always_leaves(s->body.items[s->body.len - 1]);
	case ST_IF:
		return s->then && s->els && always_leaves(s->then) && always_leaves(s->els);
	default:
		return false;
	}
}


/*
 * The statements after one that always leaves cannot run (no label or
 * case among them): dropped, so that their calls are no barrier.  Their
 * text stays in the output.
 */
static void drop_dead_tail(StmtList *list)
{
	for (uint32_t i = 0; i + 1 < list->len; i++) {
		if (!always_leaves(list->items[i]))
			continue;
		for (uint32_t k = i + 1; k < list->len; k++)
			if (ir_stmt_any(list->items[k], is_jump_target, NULL, NULL))
				return;
		list->len = i + 1;
		return;
	}
}

// compound_statement = '{' _block_item* '}'
static Stmt *lower_block(TSNode n)
{
	Stmt *s = new_stmt(ST_BLOCK, n);
	StmtList list = { 0 };
	uint32_t mark = lw_scope_enter();

	lower_items_into(&list, n);
	lw_scope_leave(mark);
	drop_dead_tail(&list);
	MOVE_LIST(&s->body, &list);
	return s;
}

// expression_statement = (expression | comma_expression)? ';'
static Stmt *lower_expr_stmt(TSNode n)
{
	TSNode c = node_first_content(n);
	Stmt *s;

	if (ts_node_is_null(c))
		return new_stmt(ST_EMPTY, n);
	if (node_kind(c) == N_GNU_ASM_EXPRESSION) {
		lw_note_um(UM_ASM, node_start(n));
		return new_stmt(ST_ASM, n);
	}
	s = new_stmt(ST_EXPR, n);
	s->expr = lower_expr(c);
	return s;
}

/*
 * `if (1 < 2) A else B` is A (TVM's kernels wrap their bodies so): the arm
 * that runs stands for the whole statement, and takes its bytes, so that
 * a copy of its text is the if as written; no arm runs: an empty statement.
 */
static Stmt *fold_if(Stmt *s)
{
	int64_t v;
	Stmt *arm;

	if (!ir_const_eval(s->expr, &v) || ir_has_effect(s->expr) ||
	    ir_stmt_any(v ? s->els : s->then, is_jump_target, NULL, NULL))
		return s; /* a goto or case may still enter the arm that the test skips */
	arm = v ? s->then : s->els;
	if (!arm) {
		arm = s;
		arm->kind = ST_EMPTY;
		arm->expr = NULL;
		arm->then = NULL;
	}
	arm->start = s->start;
	arm->end = s->end;
	arm->unmodelled = s->unmodelled;
	return arm;
}

// if_statement = 'if' condition:parenthesized_expression consequence:statement alternative:else_clause?
// else_clause = 'else' statement
static Stmt *lower_if(TSNode n)
{
	Stmt *s = new_stmt(ST_IF, n);
	TSNode alt = node_field(n, "alternative");

	s->expr = lower_expr(node_field(n, "condition"));
	s->then = lower_stmt(node_field(n, "consequence"));
	if (!ts_node_is_null(alt))
		s->els = lower_stmt(node_first_content(alt));
	return fold_if(s);
}

// switch_statement = 'switch' condition:parenthesized_expression body:compound_statement
static Stmt *lower_switch(TSNode n)
{
	Stmt *s = new_stmt(ST_SWITCH, n);

	s->expr = lower_expr(node_field(n, "condition"));
	s->then = lower_stmt(node_field(n, "body"));
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
		} else if (node_is_content(c)) {
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
	TSNode cond = node_field(n, "condition");

	s->loop = new_loop();
	s->loop->cond = lower_expr(cond);
	s->loop->header_end = node_end(cond);
	s->loop->body = lower_stmt(node_field(n, "body"));
	return s;
}

// do_statement = 'do' body:statement 'while' condition:parenthesized_expression ';'
static Stmt *lower_do(TSNode n)
{
	Stmt *s = new_stmt(ST_DO, n);

	s->loop = new_loop();
	s->loop->body = lower_stmt(node_field(n, "body"));
	s->loop->cond = lower_expr(node_field(n, "condition"));
	return s;
}

// return_statement = 'return' (expression | comma_expression)? ';'
static Stmt *lower_return(TSNode n)
{
	Stmt *s = new_stmt(ST_RETURN, n);

	s->expr = lower_expr(node_first_content(n));
	lw_note_decay(s->expr);
	return s;
}

// goto_statement = 'goto' label:statement_identifier ';'
// (GNU 'goto *p;' is a syntax error for this grammar; kept for a grammar that accepts it)
static Stmt *lower_goto(TSNode n)
{
	Stmt *s = new_stmt(ST_GOTO, n);
	TSNode label = node_field(n, "label");

	if (ts_node_is_null(label) || ts_node_has_error(n)) {
		lw_note_um(UM_COMPUTED_GOTO, node_start(n));
		return s;
	}
	s->name = node_name(label);
	lw_note_um(UM_GOTO, node_start(n));
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
		if (node_is_content(c) && !kids_field_is(&k, "label"))
			target = c;
	s->name = node_name(node_field(n, "label"));
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
		if (node_is_content(c) && node_kind(c) != N_ATTRIBUTE_DECLARATION)
			target = c;
	return lower_stmt(target);
}

/* One ST_EXPR per comma-separated part of a for-initializer. */
static void lower_for_init(StmtList *init, TSNode c)
{
	uint32_t saved;
	Stmt *s;

	if (node_kind(c) == N_DECLARATION) {
		lower_local_decl(init, c);
		return;
	}
	for (;;) {
		bool comma = node_kind(c) == N_COMMA_EXPRESSION;
		TSNode part = comma ? node_field(c, "left") : c;

		saved = um_begin();
		s = new_stmt(ST_EXPR, part);
		s->expr = lower_expr(part);
		um_end(s, saved);
		array_push(init, s);
		if (!comma)
			return;
		c = node_field(c, "right");
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
	uint32_t mark = lw_scope_enter();
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
	lw_scope_leave(mark);
	MOVE_LIST(&lp->init, &init);
	loop_recognise(lp);
	return s;
}

/* Statements that lower to exactly one Stmt. */
static Stmt *lower_stmt_kind(TSNode n)
{
	switch (node_kind(n)) {
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
		lw_note_um(UM_OTHER, node_start(n));
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

/*
 * A directive inside a function body, kept as a statement that marks what
 * holds it.  An #include brings code that the analysis does not see: an
 * unknown statement (a barrier).  A #define or #undef changes what the
 * text after it means: no code may move across it (a region's copies of
 * its span, a callee's clone placed after the callee), so what holds it
 * is no task and no loop to split, though it reads and writes nothing.
 */
static void lower_directive(StmtList *list, TSNode n, UnmodelledKind kind)
{
	uint32_t saved = um_begin();
	Stmt *s = new_stmt(kind == UM_INCLUDE ? ST_OTHER : ST_EMPTY, n);

	lw_note_um(kind, node_start(n));
	um_end(s, saved);
	array_push(list, s);
}

// _block_item = declaration | statement | type_definition | preproc_if | ...
static void lower_stmt_into(StmtList *list, TSNode n)
{
	switch (node_kind(n)) {
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
	case N_PREPROC_DEF: case N_PREPROC_FUNCTION_DEF:
		lw_define(n);
		lower_directive(list, n, UM_DIRECTIVE);
		break;
	case N_PREPROC_CALL:
		lw_undef(n);
		if (!node_is(node_field(n, "directive"), "#pragma"))
			lower_directive(list, n, UM_DIRECTIVE);
		break;
	case N_PREPROC_INCLUDE:
		lower_directive(list, n, UM_INCLUDE);
		break;
	default:
		if (node_kind(n) == N_EXPRESSION_STATEMENT && (lower_macro_stmt(list, n, lower_stmt_into) ||
		                                               lower_typename_stmt(list, n, lower_stmt_into)))
			break;
		if (!is_multi_item(node_kind(n)))
			array_push(list, lower_stmt(n));
		break;
	}
}

/* One statement; a declaration of several objects becomes a block of ST_DECLs. */
Stmt *lower_stmt(TSNode n)
{
	StmtList list = { 0 };
	uint32_t saved;
	Stmt *s;

	if (ts_node_is_null(n)) { /* only in broken trees */
		s = ARENA_NEW(Stmt);
		s->kind = ST_EMPTY;
		return s;
	}
	if (is_multi_item(node_kind(n))) {
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

