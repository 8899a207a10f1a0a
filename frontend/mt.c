/*
 * mt.c - cuts each function body, and hierarchically each loop body, into
 * OSCAR macro tasks: BB (a run of straight-line statements), RB (a loop)
 * and SB (a call to a function defined in the program).  An if statement
 * whose arms hold loops or calls is split: a BB for the test that ends in
 * a branch, then the MTs of each arm, control-dependent on that branch.
 */
#include <string.h>

#include "frontend.h"

#define X_NAME(k, s) s,
const char *const mt_kind_name[] = { MT_KINDS(X_NAME) };

/* The call an SB statement is made of: f(...), (void)f(...), x = f(...). */
static Expr *sb_call(const Expr *e)
{
	while (e && e->kind == EX_CAST)
		e = e->lhs;
	if (e && e->kind == EX_ASSIGN && e->op == OP_ASSIGN)
		return sb_call(e->rhs);
	if (e && e->kind == EX_CALL && e->callee_func)
		return (Expr *)e;
	return NULL;
}

static bool is_exit(const Stmt *s)
{
	return s && (s->kind == ST_RETURN || s->kind == ST_BREAK ||
	             s->kind == ST_CONTINUE || s->kind == ST_GOTO);
}

/* TVM's `if (op(...) != 0) return -1;`: a call whose result only guards an exit. */
static Expr *guarded_call(const Stmt *s)
{
	const Expr *c = s->expr;
	const Stmt *then = s->then;

	if (s->kind != ST_IF || s->els || !c)
		return NULL;
	if (then && then->kind == ST_BLOCK && then->body.len == 1)
		then = then->body.items[0];
	if (!is_exit(then))
		return NULL;
	if (c->kind == EX_BINARY && (c->op == OP_NE || c->op == OP_EQ))
		return sb_call(c->lhs);
	if (c->kind == EX_UNARY && c->op == OP_NOT)
		return sb_call(c->lhs);
	return sb_call(c);
}

static Expr *stmt_sb_call(const Stmt *s)
{
	if (s->kind == ST_EXPR || s->kind == ST_DECL)
		return sb_call(s->expr);
	return guarded_call(s);
}

static bool is_loop(const Stmt *s)
{
	return s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO;
}

/* Does s hold a loop or a call that would become an MT of its own? */
static bool holds_tasks(const Stmt *s)
{
	if (!s)
		return false;
	if (is_loop(s) || stmt_sb_call(s))
		return true;
	switch (s->kind) {
	case ST_BLOCK:
		for (uint32_t i = 0; i < s->body.len; i++)
			if (holds_tasks(s->body.items[i]))
				return true;
		return false;
	case ST_IF:
		return holds_tasks(s->then) || holds_tasks(s->els);
	default:
		return false;
	}
}

/* Does s leave the level it sits in (return, break, continue, goto)? */
static bool leaves_level(const Stmt *s)
{
	if (!s)
		return false;
	if (is_exit(s))
		return true;
	if (s->kind == ST_IF)
		return leaves_level(s->then) || leaves_level(s->els);
	if (s->kind == ST_BLOCK)
		for (uint32_t i = 0; i < s->body.len; i++)
			if (leaves_level(s->body.items[i]))
				return true;
	return false;
}

/* The level being cut: where new MTs go and what they depend on. */
typedef struct Level {
	Func *func;
	MT *parent;        /* enclosing RB, or the function's root: gets the new MTs */
	MT *bb;            /* the BB still open for more statements */
	MT *branch_mt;     /* control parent of the MTs made now */
	bool branch_dir;
	int depth;         /* loops around this level */
} Level;

/*
 * Loops nested deeper than this are not cut into MTs of their own: they
 * run inside their ancestor's RB.  Far more than a schedule can use, and
 * every level's summary walks everything under it.
 */
enum { MT_MAX_LOOP_DEPTH = 64 };

static MT *new_mt(Level *lv, MTKind kind, uint32_t start, uint32_t end)
{
	MT *mt = ARENA_NEW(MT);

	mt->kind = kind;
	mt->parent = lv->parent;
	mt->func = lv->func;
	mt->start = start;
	mt->end = end;
	mt->branch_mt = lv->branch_mt;
	mt->branch_dir = lv->branch_dir;
	array_push(&lv->parent->children, mt);
	mt->id = (int)lv->parent->children.len;
	return mt;
}

static void add_stmt(MT *mt, Stmt *s)
{
	array_push(&mt->stmts, s);
	if (s->end > mt->end)
		mt->end = s->end;
	mt->unmodelled |= s->unmodelled;
	mt->exits |= leaves_level(s);
}

static void cut_stmts(Level *lv, Stmt **stmts, uint32_t n);
static void cut_body(Level *lv, Stmt **stmts, uint32_t n);

static void cut_loop(Level *lv, Stmt *s)
{
	MT *rb = new_mt(lv, MT_RB, s->start, s->end);
	Level body = { lv->func, rb, NULL, NULL, false, lv->depth + 1 };
	Stmt *b = s->loop->body;

	add_stmt(rb, s);
	rb->loop = s;
	if (body.depth > MT_MAX_LOOP_DEPTH)
		return;
	if (b && b->kind == ST_BLOCK)
		cut_body(&body, b->body.items, b->body.len);
	else if (b)
		cut_body(&body, &b, 1);
}

/* Each arm of an if runs under the test's branch in that direction. */
static void cut_arm(Level *lv, MT *test, bool dir, Stmt *arm)
{
	MT *saved = lv->branch_mt;
	bool saved_dir = lv->branch_dir;

	if (!arm)
		return;
	lv->branch_mt = test;
	lv->branch_dir = dir;
	lv->bb = NULL;
	if (arm->kind == ST_BLOCK)
		cut_stmts(lv, arm->body.items, arm->body.len);
	else
		cut_stmts(lv, &arm, 1);
	lv->bb = NULL;
	lv->branch_mt = saved;
	lv->branch_dir = saved_dir;
}

static void cut_if(Level *lv, Stmt *s)
{
	MT *test = new_mt(lv, MT_BB, s->start, s->expr ? s->expr->end + 1 : s->start);

	array_push(&test->stmts, s);
	test->ends_in_branch = true;
	test->unmodelled = s->unmodelled;
	cut_arm(lv, test, true, s->then);
	cut_arm(lv, test, false, s->els);
}

static void cut_stmt(Level *lv, Stmt *s)
{
	Expr *call = stmt_sb_call(s);

	if (is_loop(s)) {
		lv->bb = NULL;
		cut_loop(lv, s);
	} else if (call) {
		MT *sb = new_mt(lv, MT_SB, s->start, s->end);

		lv->bb = NULL;
		add_stmt(sb, s);
		sb->call = call;
		sb->callee = call->callee_func;
		sb->ends_in_branch = s->kind == ST_IF;
	} else if (s->kind == ST_BLOCK && holds_tasks(s)) {
		cut_stmts(lv, s->body.items, s->body.len);
	} else if (s->kind == ST_IF && holds_tasks(s)) {
		lv->bb = NULL;
		cut_if(lv, s);
	} else {
		if (!lv->bb)
			lv->bb = new_mt(lv, MT_BB, s->start, s->end);
		add_stmt(lv->bb, s);
		if (leaves_level(s)) { /* control leaves: the next statement starts a new BB */
			lv->bb->ends_in_branch = s->kind == ST_IF;
			lv->bb = NULL;
		}
	}
}

static void cut_stmts(Level *lv, Stmt **stmts, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		cut_stmt(lv, stmts[i]);
}

/*
 * Cuts a body (the statements of a function or a loop body) into lv's
 * MTs, or, when they would be more than MFG_MAX_MTS, into one BB that
 * runs them all: the level stays sequential and costs linear time.
 */
static void cut_body(Level *lv, Stmt **stmts, uint32_t n)
{
	MT *bb;

	cut_stmts(lv, stmts, n);
	if (lv->parent->children.len <= MFG_MAX_MTS)
		return;
	lv->parent->children.len = 0; /* the MTs cut are left in the arena */
	lv->bb = NULL;
	lv->branch_mt = NULL;
	bb = new_mt(lv, MT_BB, stmts[0]->start, stmts[0]->end);
	bb->crowded = true;
	for (uint32_t i = 0; i < n; i++)
		add_stmt(bb, stmts[i]);
}

bool mt_level_crowded(const MT *owner)
{
	return owner->children.len == 1 && owner->children.items[0]->crowded;
}

void mt_build(Program *prog)
{
	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		Func *f = prog->funcs.items[i];
		MT *root = ARENA_NEW(MT);
		Level lv = { f, root, NULL, NULL, false, 0 };

		root->kind = MT_BB;
		root->func = f;
		root->start = f->start;
		root->end = f->end;
		f->mt = root;
		if (f->body)
			cut_body(&lv, f->body->body.items, f->body->body.len);
	}
}

/* ---- --dump=mt ---- */

static void print_path(FILE *out, const MT *mt)
{
	if (mt->parent && mt->parent->parent) {
		print_path(out, mt->parent);
		fputc('.', out);
	}
	fprintf(out, "%d", mt->id);
}

/* Source text of [start, end) with each run of white space as one blank. */
static void print_squeezed(FILE *out, const char *text, uint32_t start, uint32_t end)
{
	bool blank = false;

	for (uint32_t i = start; i < end; i++) {
		char c = text[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			blank = true;
			continue;
		}
		if (blank)
			fputc(' ', out);
		blank = false;
		fputc(c, out);
	}
}

static void print_loop_header(FILE *out, const MT *mt)
{
	const Stmt *s = mt->loop;
	const Loop *l = s->loop;
	const char *text = mt->func->src->text;

	fputc(' ', out);
	if (s->kind == ST_DO && l->cond) {
		fputs("do-while (", out);
		print_squeezed(out, text, l->cond->start, l->cond->end);
		fputc(')', out);
	} else {
		print_squeezed(out, text, s->start, l->header_end);
	}
	if (l->trip_count >= 0)
		fprintf(out, " [trip %lld]", (long long)l->trip_count);
}

static void print_flags(FILE *out, const MT *mt)
{
	if (mt->branch_mt) {
		fputs(" if MT", out);
		print_path(out, mt->branch_mt);
		fputs(mt->branch_dir ? ":T" : ":F", out);
	}
	if (mt->ends_in_branch)
		fputs(" branch", out);
	if (mt->exits)
		fputs(" exits", out);
	for (int k = 0; k < UM_OTHER + 1; k++)
		if (mt->unmodelled & (1u << k))
			fprintf(out, " unmodelled(%s)", unmodelled_name[k]);
}

static void dump_level(FILE *out, const MT *parent, int depth)
{
	for (uint32_t i = 0; i < parent->children.len; i++) {
		const MT *mt = parent->children.items[i];

		fprintf(out, "%*sMT", 2 * depth, "");
		print_path(out, mt);
		fprintf(out, " %s ", mt_kind_name[mt->kind]);
		source_print_lines(out, mt->func->src, mt->start, mt->end);
		if (mt->kind == MT_SB)
			fprintf(out, " call %s", intern_name(mt->callee->name));
		if (mt->kind == MT_RB)
			print_loop_header(out, mt);
		print_flags(out, mt);
		fputc('\n', out);
		dump_level(out, mt, depth + 1);
	}
}

void mt_dump(FILE *out, const Program *prog)
{
	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		const Func *f = prog->funcs.items[i];

		fprintf(out, "function %s %s:", intern_name(f->name), f->src->path);
		source_print_lines(out, f->src, f->start, f->end);
		fputc('\n', out);
		dump_level(out, f->mt, 1);
	}
}
