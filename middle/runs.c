/*
 * runs.c - middle stage: does a function run once per run of the program?
 * main does; so does a function that one statement of such a function
 * calls, outside any loop.  A plan for a function that runs once pays for
 * starting the team of threads (the first fork creates them) out of its
 * own gain; a function that may run many times shares that cost among its
 * runs.
 */
#include <stdlib.h>

#include "middle.h"

enum { MAX_CHAIN = 16 };

/* One caller's calls of one callee. */
typedef struct CallerSite {
	const Func *caller;
	uint32_t outside_loops, in_loops;
	bool has_goto;        /* the caller has a goto: a backward one may repeat any call */
} CallerSite;

typedef Array(CallerSite) CallerSites;

struct RunsIndex {
	CallerSites *by_callee; /* per Func.id: who calls it, how often, where */
	uint32_t n;
};

typedef struct CallWalk {
	RunsIndex *ix;
	const Func *caller;
	bool in_loop;         /* the walk is inside a loop */
	bool has_goto;
	Array(const Func *) seen; /* the callees noted, in the order first met */
} CallWalk;

/* The caller's entry in callee's list, made on first use. */
static CallerSite *site_of(CallWalk *w, const Func *callee)
{
	CallerSites *l = &w->ix->by_callee[callee->id];
	CallerSite s = { w->caller, 0, 0, false };

	if (l->len && l->items[l->len - 1].caller == w->caller)
		return &l->items[l->len - 1];
	array_push(l, s);
	array_push(&w->seen, callee);
	return &l->items[l->len - 1];
}

static void note_call(Expr *e, void *ctx)
{
	CallWalk *w = ctx;

	if (e->kind == EX_CALL && e->callee_func && (uint32_t)e->callee_func->id < w->ix->n)
		++*(w->in_loop ? &site_of(w, e->callee_func)->in_loops
		               : &site_of(w, e->callee_func)->outside_loops);
}

static void note_goto(Stmt *s, void *ctx)
{
	if (s->kind == ST_GOTO)
		((CallWalk *)ctx)->has_goto = true;
}

/* Counts s's calls, inside and outside loops. */
static void count_calls(Stmt *s, CallWalk *w)
{
	if (!s)
		return;
	switch (s->kind) {
	case ST_FOR:
	case ST_WHILE:
	case ST_DO:
		w->in_loop = true;
		ir_visit_stmt(s, note_call, note_goto, w);
		w->in_loop = false;
		return;
	case ST_BLOCK:
		for (uint32_t i = 0; i < s->body.len; i++)
			count_calls(s->body.items[i], w);
		return;
	case ST_IF:
		ir_visit_expr(s->expr, note_call, w);
		count_calls(s->then, w);
		count_calls(s->els, w);
		return;
	case ST_SWITCH:
		ir_visit_expr(s->expr, note_call, w);
		count_calls(s->then, w);
		return;
	case ST_CASE:
	case ST_LABEL:
		count_calls(s->then, w);
		return;
	default:
		ir_visit_stmt(s, note_call, note_goto, w);
		return;
	}
}

RunsIndex *runs_index(const Program *prog)
{
	RunsIndex *ix = xcalloc(1, sizeof(*ix));
	CallWalk w = { ix, NULL, false, false, { 0 } };

	ix->n = prog->funcs.len;
	ix->by_callee = xcalloc(ix->n ? ix->n : 1, sizeof(*ix->by_callee));
	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		Func *g = prog->funcs.items[i];

		if (!g->body)
			continue;
		w.caller = g;
		w.has_goto = false;
		w.seen.len = 0;
		count_calls(g->body, &w);
		for (uint32_t k = 0; k < w.seen.len; k++) { /* a goto anywhere in g: it was found by now */
			CallerSites *l = &ix->by_callee[w.seen.items[k]->id];

			l->items[l->len - 1].has_goto = w.has_goto;
		}
	}
	array_free(&w.seen);
	return ix;
}

void runs_index_free(RunsIndex *ix)
{
	for (uint32_t i = 0; ix && i < ix->n; i++)
		array_free(&ix->by_callee[i]);
	if (ix)
		free(ix->by_callee);
	free(ix);
}

/* f runs once per run (once), or a number of times the text bounds: no call in a loop on the way from main. */
static bool runs_once_at(const RunsIndex *ix, const Func *f, int depth, bool once)
{
	const Func *caller = NULL;
	uint32_t sites = 0;
	const CallerSites *l;

	if (f->name == intern("main", 4))
		return true;
	if (depth >= MAX_CHAIN || (uint32_t)f->id >= ix->n)
		return false;
	l = &ix->by_callee[f->id];
	for (uint32_t i = 0; i < l->len; i++) {
		const CallerSite *cs = &l->items[i];

		if (cs->caller == f)
			continue;
		if (cs->in_loops || (cs->outside_loops && cs->has_goto))
			return false;
		if (cs->outside_loops) {
			if (!once && !runs_once_at(ix, cs->caller, depth + 1, false))
				return false;
			caller = cs->caller;
			sites += cs->outside_loops;
		}
	}
	return once ? sites == 1 && runs_once_at(ix, caller, depth + 1, true) : sites > 0;
}

bool runs_once(const RunsIndex *ix, const Func *f)
{
	return runs_once_at(ix, f, 0, true);
}

bool runs_few(const RunsIndex *ix, const Func *f)
{
	return runs_once_at(ix, f, 0, false);
}
