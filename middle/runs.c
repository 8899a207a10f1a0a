/*
 * runs.c - middle stage: does a function run once per run of the program?
 * main does; so does a function that one statement of such a function
 * calls, outside any loop.  A plan for a function that runs once pays for
 * starting the team of threads (the first fork creates them) out of its
 * own gain; a function that may run many times shares that cost among its
 * runs.
 */
#include "middle.h"

enum { MAX_CHAIN = 16 };

typedef struct CallSites {
	const Func *callee;
	bool in_loop;         /* the walk is inside a loop */
	uint32_t outside_loops, in_loops;
	bool has_goto;        /* a backward goto may repeat any statement */
} CallSites;

static void note_call(Expr *e, void *ctx)
{
	CallSites *cs = ctx;

	if (e->kind == EX_CALL && e->callee_func == cs->callee)
		++*(cs->in_loop ? &cs->in_loops : &cs->outside_loops);
}

static void note_goto(Stmt *s, void *ctx)
{
	if (s->kind == ST_GOTO)
		((CallSites *)ctx)->has_goto = true;
}

/* Counts s's calls of cs->callee, inside and outside loops. */
static void count_calls(Stmt *s, CallSites *cs)
{
	if (!s)
		return;
	switch (s->kind) {
	case ST_FOR:
	case ST_WHILE:
	case ST_DO:
		cs->in_loop = true;
		ir_visit_stmt(s, note_call, note_goto, cs);
		cs->in_loop = false;
		return;
	case ST_BLOCK:
		for (uint32_t i = 0; i < s->body.len; i++)
			count_calls(s->body.items[i], cs);
		return;
	case ST_IF:
		ir_visit_expr(s->expr, note_call, cs);
		count_calls(s->then, cs);
		count_calls(s->els, cs);
		return;
	case ST_SWITCH:
		ir_visit_expr(s->expr, note_call, cs);
		count_calls(s->then, cs);
		return;
	case ST_CASE:
	case ST_LABEL:
		count_calls(s->then, cs);
		return;
	default:
		ir_visit_stmt(s, note_call, note_goto, cs);
		return;
	}
}

/* f runs once per run (once), or a number of times the text bounds: no call in a loop on the way from main. */
static bool runs_once_at(const Program *prog, const Func *f, int depth, bool once)
{
	const Func *caller = NULL;
	uint32_t sites = 0;

	if (f->name == intern("main", 4))
		return true;
	if (depth >= MAX_CHAIN)
		return false;
	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		Func *g = prog->funcs.items[i];
		CallSites cs = { f, false, 0, 0, false };

		if (!g->body || g == f)
			continue;
		count_calls(g->body, &cs);
		if (cs.in_loops || (cs.outside_loops && cs.has_goto))
			return false;
		if (cs.outside_loops) {
			if (!once && !runs_once_at(prog, g, depth + 1, false))
				return false;
			caller = g;
			sites += cs.outside_loops;
		}
	}
	return once ? sites == 1 && runs_once_at(prog, caller, depth + 1, true) : sites > 0;
}

bool runs_once(const Program *prog, const Func *f)
{
	return runs_once_at(prog, f, 0, true);
}

bool runs_few(const Program *prog, const Func *f)
{
	return runs_once_at(prog, f, 0, false);
}
