/*
 * branches.c - middle stage: spans that hold a conditional branch, run by a
 * dynamic scheduler (OSCAR's dynamic scheduling, issue 15).
 *
 * A branch test MT (the `if` whose arms hold tasks) may join a span with
 * the MTs of its arms.  Which arm runs is known only when the test has run,
 * so such a span is not given a static schedule: the output carries a
 * small scheduler (api/mtpar_rt.h, mtpar_dyn_*) in which a task becomes
 * ready when every task it depends on has finished or been skipped
 * (OSCAR's earliest executable condition, Fin(k) OR Skip(k)), the test's
 * task is a predecessor of every task of its arms, and a task of the arm
 * not taken is skipped.  Ready tasks are taken longest path to the exit
 * first.
 *
 * The span must hold whole `if` statements: an arm's MT is in it only with
 * its test, or the span lies inside that one arm.
 */
#include "middle.h"

bool plan_branch_test(const MT *mt)
{
	const Stmt *s = mt->stmts.len == 1 ? mt->stmts.items[0] : NULL;

	return mt->kind == MT_BB && mt->ends_in_branch && s && s->kind == ST_IF && s->expr &&
	       !mt->unmodelled && !ir_has_effect(s->expr);
}

/* The test outside root's children [first, ...) that mt runs under, with its direction. */
static const MT *anchor(const MT *mt, uint32_t first, bool *dir)
{
	*dir = false;
	while (mt->branch_mt && (uint32_t)(mt->branch_mt->id - 1) >= first) {
		*dir = mt->branch_dir;
		mt = mt->branch_mt;
	}
	if (!mt->branch_mt)
		return NULL;
	*dir = mt->branch_dir;
	return mt->branch_mt;
}

bool plan_under_test_from(const MT *mt, uint32_t first)
{
	for (; mt->branch_mt; mt = mt->branch_mt)
		if ((uint32_t)(mt->branch_mt->id - 1) >= first)
			return true;
	return false;
}

/* The if statement of a test MT. */
static const Stmt *test_if(const MT *mt)
{
	return mt->stmts.items[0];
}

uint32_t plan_run_close(const MT *root, uint32_t first, uint32_t last)
{
	bool dir0, dir;
	const MT *a0 = anchor(root->children.items[first], first, &dir0);
	uint32_t k;

	for (k = first + 1; k <= last; k++) { /* one arm, or none, outside the span */
		const MT *a = anchor(root->children.items[k], first, &dir);

		if (a != a0 || (a && dir != dir0))
			break;
	}
	last = k - 1;
	for (k = first; k <= last; k++) { /* whole if statements */
		const MT *mt = root->children.items[k];

		if (mt->ends_in_branch && mt->kind == MT_BB &&
		    test_if(mt)->end > root->children.items[last]->end) {
			if (k == first)
				return UINT32_MAX;
			last = k - 1;
		}
	}
	return last;
}

/* The task of test MT t in p, or -1 when t is outside the span. */
static int task_of_test(const ParPlan *p, const MT *t)
{
	for (uint32_t i = 0; i < p->tasks.len; i++)
		if (p->tasks.items[i].mt == t)
			return (int)i;
	return -1;
}

void plan_control(ParPlan *p)
{
	p->dynamic = false;
	for (uint32_t i = 0; i < p->tasks.len; i++) {
		ParTask *t = &p->tasks.items[i];

		t->ctl = t->mt->branch_mt ? task_of_test(p, t->mt->branch_mt) : -1;
		t->ctl_dir = t->mt->branch_dir;
		t->test = plan_branch_test(t->mt) && p->first <= (uint32_t)(t->mt->id - 1);
		p->dynamic |= t->ctl >= 0;
	}
	if (!p->dynamic) /* a test whose arms are outside the span runs as a plain task */
		for (uint32_t i = 0; i < p->tasks.len; i++)
			p->tasks.items[i].test = false;
}

const char *plan_dynamic_why(const ParPlan *p)
{
	for (uint32_t i = 0; p->dynamic && i < p->tasks.len; i++)
		if (p->tasks.items[i].on_core0) /* any core may take any task from the queue */
			return "a task that allocates or does I/O must stay on core 0, "
			       "and the branch inside needs a dynamic schedule";
	return NULL;
}

bool plan_exclusive(const MT *a, const MT *b)
{
	for (const MT *x = a; x->branch_mt; x = x->branch_mt)
		for (const MT *y = b; y->branch_mt; y = y->branch_mt)
			if (x->branch_mt == y->branch_mt && x->branch_dir != y->branch_dir)
				return true;
	return false;
}
