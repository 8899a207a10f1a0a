/*
 * report.c - what mtpar tells its users (--report), in the spirit of ROSE
 * autoPar and GCC's -fopt-info: one GCC-style remark per MT saying which
 * MTs of its level it may run beside and which dependences order it, or
 * why its level stays sequential; and each plan's outcome (report_plans).
 */
#include <stdlib.h>

#include "middle.h"

enum { MAX_LISTED = 8 }; /* MTs named in "runs in parallel with" */

static void print_pos(FILE *out, const Source *src, uint32_t byte)
{
	uint32_t line, col;

	source_pos(src, byte, &line, &col);
	fprintf(out, "%u:%u", line, col);
}

/* "MT4 (SB call produce)" */
static void print_head(FILE *out, const MfgLevel *lv, int i)
{
	const MT *mt = lv->nodes[i].mt;

	mfg_print_node(out, lv, i);
	fprintf(out, " (%s", mt_kind_name[mt->kind]);
	if (mt->kind == MT_SB)
		fprintf(out, " call %s", intern_name(mt->callee->name));
	fprintf(out, ") in %s: ", intern_name(mt->func->name));
}

static void print_access(FILE *out, const Access *a)
{
	fputs(a->kind == ACC_WRITE ? "write" : "read", out);
	if (a->ref && a->src) {
		fputs(" at ", out);
		print_pos(out, a->src, a->ref->start);
	}
}

/*
 * What the barrier's call is: a macro whose replacement has effects, a
 * function not in the input, or one whose body meets such a call.  Prints the head; returns the tail, for after
 * the position.
 */
static const char *print_unknown_call(FILE *out, const Expr *at)
{
	const char *name = at && at->kind == EX_CALL && at->name ? intern_name(at->name) : NULL;

	if (name && names_kind(at->name) == NM_OPAQUE) {
		fprintf(out, "macro %s", name);
		return " (its replacement may call or assign)";
	}
	if (name) {
		fprintf(out, "call to %s", name);
		if (at->callee_func && at->callee_func->body)
			return " (something it calls is unknown)";
		return " (its body is not in the input)";
	}
	fputs("call to an unknown function", out);
	return "";
}

/* Why a barrier orders from..to: the unknown call or the unmodelled construct. */
static void print_barrier(FILE *out, const MfgLevel *lv, const MfgDep *d)
{
	for (int end = 0; end < 2; end++) {
		const MT *mt = lv->nodes[end ? d->to : d->from].mt;
		Unmodelled u;

		if (mfg_unmodelled_at(mt, ~0u, &u)) {
			fprintf(out, "%s at ", unmodelled_name[u.kind]);
			print_pos(out, mt->func->src, u.at);
			return;
		}
		if (mt->summary && mt->summary->barrier) {
			const char *tail = print_unknown_call(out, mt->summary->barrier_at);

			if (mt->summary->barrier_at) {
				fputs(" at ", out);
				print_pos(out, mt->func->src, mt->summary->barrier_at->start);
			}
			fputs(tail, out);
			return;
		}
	}
	fputs("unknown accesses", out);
}

/* "flow dependence on tu0 (write at 12:3, read at 14:9)" */
static void print_dep(FILE *out, const MfgLevel *lv, const MfgDep *d)
{
	static const char *const word[] = { "flow", "anti", "output", "barrier" };
	const Dep *c = &d->causes.items[0];

	if (c->kind == DEP_BARRIER) {
		fputs("barrier: ", out);
		print_barrier(out, lv, d);
		return;
	}
	fprintf(out, "%s dependence on %s", word[c->kind],
	        c->object ? intern_name(c->object->name) : "unknown memory");
	if (c->from && c->to) {
		fputs(" (", out);
		print_access(out, c->from);
		fputs(", ", out);
		print_access(out, c->to);
		fputc(')', out);
	}
	if (d->causes.len > 1)
		fprintf(out, " and %u more", d->causes.len - 1);
}

/* anc[i]: the MTs that MTG edges order before i. */
static Bitset *ancestors(const MfgLevel *lv)
{
	uint32_t nn = (uint32_t)lv->n + 2;
	Bitset *anc = arena_alloc(nn * sizeof(*anc));

	for (uint32_t i = 0; i < nn; i++)
		bitset_init(&anc[i], nn);
	for (uint32_t i = 0; i < lv->mtg.len; i++) { /* grouped by target, in order */
		const MtgEdge *m = &lv->mtg.items[i];

		bitset_set(&anc[m->to], (uint32_t)m->from);
		bitset_union(&anc[m->to], &anc[m->from]);
	}
	return anc;
}

/* MTs of i's level that no MTG path orders with i and that can run in the same pass. */
static void print_parallel(FILE *out, const MfgLevel *lv, const Bitset *anc, int i)
{
	int n = 0;

	for (int j = 1; j <= lv->n; j++) {
		if (j == i || !lv->nodes[j].live)
			continue;
		if (bitset_has(&anc[i], (uint32_t)j) || bitset_has(&anc[j], (uint32_t)i))
			continue;
		if (!mfg_reaches(lv, i, j) && !mfg_reaches(lv, j, i))
			continue; /* never both run */
		if (n++ >= MAX_LISTED)
			continue;
		fputs(n > 1 ? ", " : "runs in parallel with ", out);
		mfg_print_node(out, lv, j);
	}
	if (n > MAX_LISTED)
		fprintf(out, " and %d more", n - MAX_LISTED);
	if (!n)
		fputs("runs in parallel with no other MT", out);
}

/* Does the EEC say more than "these MTs have finished"? */
static bool eec_has_control(const Eec *e)
{
	for (uint32_t i = 0; i < e->clauses.len; i++) {
		const EecClause *c = &e->clauses.items[i];

		if (c->lits.len > 1 || c->lits.items[0].kind == EEC_BR)
			return true;
	}
	return false;
}

/*
 * "MT4 (RB) in run: runs in parallel with MT1; depends on MT2: flow
 * dependence on a (write at 14:11, read at 18:10); starts when ..." or
 * "... kept sequential: goto at 10:4".
 */
static void print_mt_remark(FILE *out, const MfgLevel *lv, const Bitset *anc, int i)
{
	const MfgNode *x = &lv->nodes[i];
	Unmodelled u;
	int ndeps = 0;

	print_head(out, lv, i);
	if (!x->live) {
		fputs("never runs (unreachable)", out);
		return;
	}
	if (lv->sequential || mfg_unmodelled_at(x->mt, ~0u, &u)) {
		if (lv->sequential)
			u = lv->why;
		fprintf(out, "kept sequential: %s at ", unmodelled_name[u.kind]);
		print_pos(out, x->mt->func->src, u.at);
		return;
	}
	print_parallel(out, lv, anc, i);
	for (uint32_t k = 0; k < lv->mtg.len; k++) {
		const MtgEdge *m = &lv->mtg.items[k];

		if (m->to != i || !m->dep)
			continue;
		fputs("; depends on ", out);
		mfg_print_node(out, lv, m->from);
		fputs(": ", out);
		print_dep(out, lv, m->dep);
		ndeps++;
	}
	if (eec_has_control(x->eec)) {
		fputs("; starts when ", out);
		eec_print(out, lv, x->eec);
	} else if (!ndeps) {
		fputs("; depends on no other MT", out);
	}
}

static void emit_mt(const MfgLevel *lv, const Bitset *anc, int i)
{
	const MT *mt = lv->nodes[i].mt;
	char *msg = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&msg, &size);

	if (!out)
		die("open_memstream failed");
	print_mt_remark(out, lv, anc, i);
	fclose(out);
	remark_at(DIAG_NOTE, mt->func->src, mt->start, "%s", msg);
	free(msg);
}

/* Remarks for the MTs of owner's level in source order, each loop's body after it. */
static void emit_level(const MT *owner)
{
	const MTNode *mn = mfg_node(owner);
	const MfgLevel *lv = mn ? mn->inner : NULL;
	const Bitset *anc;

	if (!lv)
		return;
	anc = ancestors(lv);
	for (int i = 1; i <= lv->n; i++) {
		emit_mt(lv, anc, i);
		if (lv->nodes[i].mt->kind == MT_RB)
			emit_level(lv->nodes[i].mt);
	}
}

void report_emit(const Program *prog)
{
	if (!remark_wanted(DIAG_NOTE))
		return;
	for (uint32_t i = 0; i < prog->funcs.len; i++)
		if (prog->funcs.items[i]->mt)
			emit_level(prog->funcs.items[i]->mt);
}

/* ---- the parallel plans ---- */

static unsigned line_of(const MT *mt)
{
	uint32_t line, col;

	source_pos(mt->func->src, mt->start, &line, &col);
	return line;
}

/* The plan's tasks, or those it considered before the gain proved too small. */
static const ParTask *tasks_of(const ParPlan *p, uint32_t *n)
{
	*n = p->tasks.len ? p->tasks.len : p->considered.len;
	return p->tasks.len ? p->tasks.items : p->considered.items;
}

static uint32_t chunks_of(const ParPlan *p, const MT *mt, int part, TaskKind kind)
{
	uint32_t n = 0, len;
	const ParTask *t = tasks_of(p, &len);

	for (uint32_t i = 0; i < len; i++)
		n += t[i].mt == mt && t[i].part == part && t[i].kind == kind;
	return n;
}

/* ", each with its own copy of sum and tmp" (privarr.c), or "". */
static const char *copies_of(const SplitLoop *sl)
{
	const char *s = "";

	for (uint32_t i = 0; sl && i < sl->privarr.len; i++)
		s = plan_fmt("%s%s%s", s,
		             i == 0 ? ", each with its own copy of " : i + 1 == sl->privarr.len ? " and " : ", ",
		             intern_name(sl->privarr.items[i].var->name));
	return s;
}

/* ", each running every iteration of the loop at line N" for a split inside a nest. */
static const char *around_of(const Func *callee, const SplitLoop *sl)
{
	uint32_t line, col;

	if (!sl->outer)
		return "";
	source_pos(callee->src, sl->outer->start, &line, &col);
	return plan_fmt(", each running every iteration of the loop at line %u", line);
}

/*
 * One remark per decomposed part of a call: split in chunks, or why not.
 * applied: the plan runs; else the chunks were found but the whole
 * function stays sequential.
 */
static void report_parts(const ParPlan *p, const ParTask *t, bool applied)
{
	const Func *callee = t->clone->callee;

	for (uint32_t k = 0; k < t->clone->parts.len; k++) {
		const SplitLoop *sl = &t->clone->parts.items[k];

		if (sl->whole_stmt)
			continue; /* a statement of the callee's, run by one chunk */
		if (sl->split)
			remark_at(applied ? DIAG_OPTIMIZED : DIAG_NOTE, callee->src, sl->loop->start,
			          "loop of %s called at line %u: %u chunks %s%s%s",
			          intern_name(callee->name), line_of(t->mt), chunks_of(p, t->mt, (int)k, TASK_CHUNK),
			          applied ? "run in parallel" : "could run in parallel", copies_of(sl),
			          around_of(callee, sl));
		else
			remark_at(DIAG_MISSED, callee->src, sl->loop->start,
			          "loop of %s called at line %u not split: %s", intern_name(callee->name),
			          line_of(t->mt), sl->why_not ? sl->why_not : "no independent chunks");
	}
}

/* Has a plan of plans split the loop mt at run time, or said why not (report_rt_loop)? */
static bool rt_planned(const PlanList *plans, const MT *mt)
{
	for (uint32_t i = 0; mt->kind == MT_RB && i < plans->len; i++)
		if (plans->items[i]->rt && plans->items[i]->rt->loop == mt->loop)
			return true;
	return false;
}

/*
 * What became of each MT of the plan's span: slices, chunks, or why it
 * runs whole (a loop that rtloops.c planned has its own remark).
 */
static void report_tasks(const PlanList *plans, const ParPlan *p, bool applied)
{
	const Func *f = p->func;
	const MT *last = NULL;
	uint32_t len;
	const ParTask *all = tasks_of(p, &len);

	for (uint32_t k = 0; k < len; k++) {
		const ParTask *t = &all[k];

		if (t->mt == last)
			continue;
		last = t->mt;
		if (t->kind == TASK_SLICE)
			remark_at(applied ? DIAG_OPTIMIZED : DIAG_NOTE, f->src, t->mt->start,
			          "loop split in place: %u slices %s%s%s",
			          chunks_of(p, t->mt, 0, TASK_SLICE),
			          applied ? "run in parallel" : "could run in parallel", copies_of(t->slice),
			          around_of(f, t->slice));
		else if (t->kind == TASK_CHUNK)
			report_parts(p, t, applied);
		else if (t->note && !rt_planned(plans, t->mt))
			remark_at(DIAG_MISSED, f->src, t->mt->start, "%s%s (MT%d) not split: %s",
			          t->mt->kind == MT_SB ? "call to " : t->mt->kind == MT_RB ? "loop" : "block",
			          t->mt->kind == MT_SB && t->mt->callee ? intern_name(t->mt->callee->name) : "",
			          t->mt->id, t->note);
	}
}

/* A loop whose trips the run decides (rtloops.c): split at run time, or why not. */
static void report_rt_loop(const ParPlan *p)
{
	const Func *f = p->func;

	if (p->why_not)
		remark_at(DIAG_MISSED, f->src, p->rt->loop->start,
		          "loop not split: its trip count is known only at run time, and %s", p->why_not);
	else
		remark_at(DIAG_OPTIMIZED, f->src, p->rt->loop->start,
		          "loop split at run time on up to %d cores%s%s", p->rt->ncores,
		          p->rt->cond ? " where this holds: " : "", p->rt->cond ? p->rt->cond : "");
}

void report_plans(const PlanList *plans)
{
	for (uint32_t i = 0; i < plans->len; i++) {
		const ParPlan *p = plans->items[i];
		const Func *f = p->func;

		if (p->rt) {
			report_rt_loop(p);
			continue;
		}
		if (p->why_not || !p->sched) {
			remark_at(DIAG_MISSED, f->src, f->start, "%s kept sequential: %s", intern_name(f->name),
			          p->why_not ? p->why_not : "no plan");
			report_tasks(plans, p, false); /* what blocked each loop and call, or what it would give */
			continue;
		}
		remark_at(DIAG_OPTIMIZED, f->src, f->start,
		          "%s parallelized: %u tasks on %d cores (%s), predicted speedup %.2f",
		          intern_name(f->name), p->tasks.len, p->sched->ncores,
		          p->dynamic ? "dynamic schedule" : p->sched->heuristic,
		          p->sched->makespan > 0 ? p->sched->seq_time / p->sched->makespan : 1.0);
		for (uint32_t k = 0; p->dynamic && k < p->tasks.len; k++)
			if (p->tasks.items[k].test)
				remark_at(DIAG_NOTE, f->src, p->tasks.items[k].mt->start,
				          "this branch is decided inside the parallel region: the tasks of "
				          "its arms are scheduled dynamically, the arm not taken skipped");
		for (uint32_t k = 0; k < p->apart.len; k++) {
			const ApartCheck *ck = &p->apart.items[k];

			remark_at(DIAG_NOTE, f->src, ck->a->start,
			          "%s runs in parallel only where %s[%lld, %lld) and %s[%lld, %lld) "
			          "do not overlap (checked at run time); else sequentially",
			          intern_name(f->name), intern_name(ck->a->name), (long long)ck->alo,
			          (long long)ck->ahi, intern_name(ck->b->name), (long long)ck->blo,
			          (long long)ck->bhi);
		}
		report_tasks(plans, p, true);
	}
}
