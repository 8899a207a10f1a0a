/*
 * runs.c - middle stage: how many times does a function run per run of the
 * program, at most?  main once; a function called outside loops, as often
 * as its callers call it.  A plan for a function that runs once pays for
 * starting the team of threads (the first fork creates them) out of its
 * own gain, one that runs twice half of it; one that may run without
 * bound shares that cost among its runs.
 */
#include <math.h>
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
	double *bound;          /* per Func.id: runs_bound, 0 until found */
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
	ix->bound = xcalloc(ix->n ? ix->n : 1, sizeof(*ix->bound));
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
	if (ix) {
		free(ix->by_callee);
		free(ix->bound);
	}
	free(ix);
}

/*
 * How many times f runs per run of the program, at most, when no call on
 * the way from main sits in a loop (or in a function with a goto): the
 * calls outside loops times their callers' runs; HUGE_VAL when the text
 * bounds it not, or main does not reach it.
 */
static double runs_bound_at(const RunsIndex *ix, const Func *f, int depth)
{
	const CallerSites *l;
	double runs = 0;

	if (f->name == intern("main", 4))
		return 1;
	if (depth >= MAX_CHAIN || (uint32_t)f->id >= ix->n)
		return HUGE_VAL;
	if (ix->bound[f->id] > 0)
		return ix->bound[f->id];
	l = &ix->by_callee[f->id];
	for (uint32_t i = 0; i < l->len && runs < HUGE_VAL; i++) {
		const CallerSite *cs = &l->items[i];

		if (cs->caller == f)
			continue;
		if (cs->in_loops || (cs->outside_loops && cs->has_goto))
			return HUGE_VAL;
		if (cs->outside_loops)
			runs += cs->outside_loops * runs_bound_at(ix, cs->caller, depth + 1);
	}
	return ix->bound[f->id] = runs > 0 ? runs : HUGE_VAL;
}

double runs_bound(const RunsIndex *ix, const Func *f)
{
	return runs_bound_at(ix, f, 0);
}
