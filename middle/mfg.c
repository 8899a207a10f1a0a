/*
 * mfg.c - the macro-flow graph (MFG) of each level, OSCAR's first graph:
 * control-flow edges between the MTs of a function or loop body, with the
 * branch direction, then post-dominators and control dependence (Ferrante,
 * Ottenstein and Warren), then the data-dependence edges between MTs that
 * can run in that order, with every object that causes them.
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"

MTNode *mfg_node(const MT *mt)
{
	return mt ? mt->graph : NULL;
}

/* ---- building blocks, shared with the unit tests ---- */

MfgLevel *mfg_level_new(MT *owner, int n)
{
	MfgLevel *lv = ARENA_NEW(MfgLevel);

	lv->owner = owner;
	lv->n = n;
	lv->nodes = arena_alloc((size_t)(n + 2) * sizeof(*lv->nodes));
	for (int i = 0; i < n + 2; i++)
		lv->nodes[i].succ[0] = lv->nodes[i].succ[1] = -1;
	return lv;
}

static void check_node(const MfgLevel *lv, int node)
{
	if (node < 0 || node > lv->n + 1)
		die("mfg: node %d out of 0..%d", node, lv->n + 1);
}

void mfg_set_next(MfgLevel *lv, int node, int next)
{
	check_node(lv, node);
	check_node(lv, next);
	if (next <= node)
		die("mfg: edge %d -> %d goes backwards", node, next);
	lv->nodes[node].succ[0] = next;
	lv->nodes[node].succ[1] = -1;
	lv->nodes[node].branch = false;
}

void mfg_set_branch(MfgLevel *lv, int node, int on_true, int on_false)
{
	mfg_set_next(lv, node, on_false);
	check_node(lv, on_true);
	if (on_true <= node)
		die("mfg: edge %d -> %d goes backwards", node, on_true);
	lv->nodes[node].succ[1] = on_true;
	lv->nodes[node].branch = true;
}

bool mfg_reaches(const MfgLevel *lv, int a, int b)
{
	return bitset_has(&lv->reach[a], (uint32_t)b);
}

/* Nodes reachable from each node, in reverse order (edges go forward). */
static void compute_reach(MfgLevel *lv)
{
	uint32_t nn = (uint32_t)lv->n + 2;

	lv->reach = arena_alloc(nn * sizeof(*lv->reach));
	for (int v = lv->n + 1; v >= 0; v--) {
		Bitset *r = &lv->reach[v];

		bitset_init(r, nn);
		bitset_set(r, (uint32_t)v);
		for (int d = 0; d < 2; d++)
			if (lv->nodes[v].succ[d] >= 0)
				bitset_union(r, &lv->reach[lv->nodes[v].succ[d]]);
	}
	for (int v = 0; v < lv->n + 2; v++)
		lv->nodes[v].live = mfg_reaches(lv, 0, v);
}

/* pdom[v] = {v} + the intersection of pdom over v's successors. */
static Bitset *compute_pdom(const MfgLevel *lv)
{
	uint32_t nn = (uint32_t)lv->n + 2;
	uint32_t nw = (nn + 63) / 64;
	Bitset *pdom = arena_alloc(nn * sizeof(*pdom));

	for (int v = lv->n + 1; v >= 0; v--) {
		const MfgNode *x = &lv->nodes[v];
		bool first = true;

		bitset_init(&pdom[v], nn);
		for (int d = 0; d < 2; d++) {
			int s = x->succ[d];

			if (s < 0)
				continue;
			for (uint32_t w = 0; w < nw; w++)
				pdom[v].words[w] = first ? pdom[s].words[w]
				                         : pdom[v].words[w] & pdom[s].words[w];
			first = false;
		}
		bitset_set(&pdom[v], (uint32_t)v);
	}
	return pdom;
}

/*
 * y is control dependent on (j, d) when y post-dominates j's successor on
 * d but does not strictly post-dominate j.  The EMT post-dominates all.
 */
static void compute_cd(MfgLevel *lv, const Bitset *pdom)
{
	for (int j = 0; j <= lv->n; j++) {
		const MfgNode *x = &lv->nodes[j];

		if (!x->branch || !x->live)
			continue;
		for (int d = 1; d >= 0; d--) {
			const Bitset *ps = &pdom[x->succ[d]];

			for (uint32_t y = 0; bitset_iter(ps, &y); y++)
				if (!bitset_has(&pdom[j], y) && (int)y <= lv->n)
					array_push(&lv->nodes[y].cd, 2 * j + d);
		}
	}
}

void mfg_compute_control(MfgLevel *lv)
{
	for (int v = 0; v <= lv->n; v++)
		if (lv->nodes[v].succ[0] < 0)
			die("mfg: node %d has no successor", v);
	compute_reach(lv);
	compute_cd(lv, compute_pdom(lv));
}

static bool same_dep(const Dep *a, const Dep *b)
{
	return a->kind == b->kind && a->object == b->object;
}

static void add_cause(MfgDep *e, const Dep *d)
{
	for (uint32_t i = 0; i < e->causes.len; i++)
		if (same_dep(&e->causes.items[i], d))
			return;
	array_push(&e->causes, *d);
	e->kinds |= 1u << d->kind;
}

MfgDep *mfg_add_dep(MfgLevel *lv, int from, int to, const Dep *d)
{
	Dep barrier = { DEP_BARRIER, NULL, NULL, NULL };
	MfgDep *e = lv->deps.len ? &array_last(&lv->deps) : NULL;

	check_node(lv, from);
	check_node(lv, to);
	if (from >= to || from < 1 || to > lv->n)
		die("mfg: data edge %d -> %d", from, to);
	if (!e || e->from != from || e->to != to) {
		MfgDep fresh = { from, to, 0, { 0 } };

		array_push(&lv->deps, fresh);
		e = &array_last(&lv->deps);
	}
	add_cause(e, d ? d : &barrier);
	return e;
}

const MfgDep *mfg_find_dep(const MfgLevel *lv, int from, int to)
{
	for (uint32_t i = 0; i < lv->deps.len; i++)
		if (lv->deps.items[i].from == from && lv->deps.items[i].to == to)
			return &lv->deps.items[i];
	return NULL;
}

/* ---- names, for every dump ---- */

static void print_path(FILE *out, const MT *mt)
{
	if (mt->parent && mt->parent->parent) {
		print_path(out, mt->parent);
		fputc('.', out);
	}
	fprintf(out, "%d", mt->id);
}

void mfg_print_node(FILE *out, const MfgLevel *lv, int node)
{
	const MT *mt = lv->nodes[node].mt;

	if (node == lv->n + 1) {
		fputs("EMT", out);
	} else if (node == 0) {
		fputs("START", out);
	} else if (mt) {
		fputs("MT", out);
		print_path(out, mt);
	} else {
		fprintf(out, "MT%d", node);
	}
}

static const char *const dep_kind_word[] = { "flow", "anti", "output", "barrier" };

void mfg_print_causes(FILE *out, const MfgDep *d)
{
	for (uint32_t i = 0; i < d->causes.len; i++) {
		const Dep *c = &d->causes.items[i];

		fprintf(out, "%s%s", i ? ", " : "", dep_kind_word[c->kind]);
		if (c->object)
			fprintf(out, " %s", intern_name(c->object->name));
		else if (c->kind != DEP_BARRIER)
			fputs(" *unknown*", out);
	}
}

/* ---- control flow of a level cut by mt.c ---- */

/*
 * May s send control out of the level: return, goto, or a break or
 * continue that no loop or switch inside s catches?
 */
static bool may_leave(const Stmt *s, bool in_loop, bool in_switch)
{
	if (!s)
		return false;
	switch (s->kind) {
	case ST_RETURN:
	case ST_GOTO:
		return true;
	case ST_BREAK:
		return !in_loop && !in_switch;
	case ST_CONTINUE:
		return !in_loop;
	case ST_FOR:
	case ST_WHILE:
	case ST_DO:
		return may_leave(s->loop->body, true, in_switch);
	case ST_SWITCH:
		return may_leave(s->then, in_loop, true);
	case ST_IF:
		return may_leave(s->then, in_loop, in_switch) ||
		       may_leave(s->els, in_loop, in_switch);
	case ST_CASE:
	case ST_LABEL:
		return may_leave(s->then, in_loop, in_switch);
	case ST_BLOCK:
		for (uint32_t i = 0; i < s->body.len; i++)
			if (may_leave(s->body.items[i], in_loop, in_switch))
				return true;
		return false;
	default:
		return false;
	}
}

/* Does s always leave the level (no path falls through to the next statement)? */
static bool always_leaves(const Stmt *s)
{
	if (!s)
		return false;
	switch (s->kind) {
	case ST_RETURN:
	case ST_GOTO:
	case ST_BREAK:
	case ST_CONTINUE:
		return true;
	case ST_IF:
		return s->els && always_leaves(s->then) && always_leaves(s->els);
	case ST_BLOCK:
		for (uint32_t i = 0; i < s->body.len; i++)
			if (always_leaves(s->body.items[i]))
				return true;
		return false;
	default:
		return false;
	}
}

/* Value of an integer constant expression made of a literal and a sign. */
static bool int_const(const Expr *e, int64_t *v)
{
	if (e && e->kind == EX_NUM && !e->num.is_float) {
		*v = e->num.ival;
		return true;
	}
	if (e && e->kind == EX_UNARY && e->op == OP_NEG && int_const(e->lhs, v)) {
		*v = -*v;
		return true;
	}
	return false;
}

/* What a guarded call's test `call OP k`, `!call` or `call` is when call returns v. */
static int fold_test(const Expr *c, int64_t v)
{
	int64_t k;

	while (c && c->kind == EX_CAST)
		c = c->lhs;
	if (!c)
		return -1;
	if (c->kind == EX_BINARY && (c->op == OP_NE || c->op == OP_EQ)) {
		if (!int_const(c->rhs, &k))
			return -1;
		return c->op == OP_NE ? v != k : v == k;
	}
	if (c->kind == EX_UNARY && c->op == OP_NOT)
		return v == 0;
	return v != 0;
}

typedef enum Flow {
	FLOW_NEXT,   /* falls through */
	FLOW_TEST,   /* split if: T to its then arm, F to its else arm */
	FLOW_EXIT,   /* always leaves the level */
	FLOW_MAYEXIT, /* T: leaves the level, F: falls through */
} Flow;

/* How control leaves an MT, from the statements it covers. */
static Flow mt_flow(const MT *mt, bool is_test)
{
	bool leave = mt->exits, always = false;
	int64_t v;

	if (is_test)
		return FLOW_TEST; /* stmts hold the whole if; the arms are MTs of their own */
	if (mt->kind == MT_SB && mt->stmts.len && mt->stmts.items[0]->kind == ST_IF) {
		/* if (op(...) != 0) return -1; with op returning one constant */
		int t = val_returns_constant(mt->callee, &v)
		            ? fold_test(mt->stmts.items[0]->expr, v) : -1;

		return t == 0 ? FLOW_NEXT : t == 1 ? FLOW_EXIT : FLOW_MAYEXIT;
	}
	for (uint32_t i = 0; i < mt->stmts.len; i++) {
		const Stmt *s = mt->stmts.items[i];

		leave |= may_leave(s, false, false);
		always |= mt->kind == MT_BB && always_leaves(s);
	}
	return always ? FLOW_EXIT : leave ? FLOW_MAYEXIT : FLOW_NEXT;
}

/* Is (bm, bd) the control context of `mt` or one of its enclosing ones? */
static bool in_context(const MT *mt, const MT *bm, bool bd)
{
	for (const MT *c = mt; ; c = c->branch_mt) {
		if (c->branch_mt == bm && (!bm || c->branch_dir == bd))
			return true;
		if (!c->branch_mt)
			return false;
	}
}

/*
 * The node control reaches after MT i (1-based) leaves its arm: the first
 * later MT whose context encloses i's.  With test set, also the first MT
 * of test's arm `dir` (arm MTs come before the join).
 */
static int next_node(const MT *parent, int i, const MT *test, bool dir)
{
	const MT *mt = parent->children.items[i - 1];

	for (uint32_t j = (uint32_t)i; j < parent->children.len; j++) {
		const MT *x = parent->children.items[j];

		if (test && x->branch_mt == test && x->branch_dir == dir)
			return (int)j + 1;
		if (in_context(mt, x->branch_mt, x->branch_dir))
			return (int)j + 1;
	}
	return (int)parent->children.len + 1;
}

/* Where mt.c's bitmask came from: the function's list, else the MT's start. */
bool mfg_unmodelled_at(const MT *mt, uint32_t mask, Unmodelled *out)
{
	const Func *f = mt->func;

	if (!(mt->unmodelled & mask))
		return false;
	for (uint32_t i = 0; i < f->unmodelled.len; i++) {
		const Unmodelled *u = &f->unmodelled.items[i];

		if ((mask & 1u << u->kind) && u->at >= mt->start && u->at < mt->end) {
			*out = *u;
			return true;
		}
	}
	out->kind = UM_OTHER;
	for (int k = 0; k <= UM_OTHER; k++)
		if (mt->unmodelled & mask & 1u << k) {
			out->kind = (UnmodelledKind)k;
			break;
		}
	out->at = mt->start;
	return true;
}

/* Constructs that hide control flow: their level keeps its order. */
#define UM_CONTROL (1u << UM_GOTO | 1u << UM_COMPUTED_GOTO | 1u << UM_SETJMP)

/*
 * Control flow of a level cut by mt.c: START goes to the first MT; a split
 * if's test branches to the first MT of each arm (or the join when an arm
 * holds none); an MT that may leave the level (return, break, continue, a
 * guarded call that is not folded) branches to the EMT on T; everything
 * else falls through to the next MT of an enclosing context.  Under goto
 * or setjmp the level runs its MTs in order.
 */
static void set_control(MfgLevel *lv)
{
	const MT *parent = lv->owner;
	int n = lv->n;
	bool *is_test = arena_alloc((size_t)(n + 1) * sizeof(*is_test));

	mfg_set_next(lv, 0, 1);
	if (mt_level_crowded(parent)) {
		lv->sequential = true;
		lv->why.kind = UM_TOO_MANY_MTS;
		lv->why.at = parent->children.items[0]->start;
	}
	for (int i = 1; i <= n; i++) {
		MT *mt = parent->children.items[i - 1];

		if (!lv->sequential && mfg_unmodelled_at(mt, UM_CONTROL, &lv->why))
			lv->sequential = true;
		if (mt->branch_mt) /* the test of a split if: some MT runs under it */
			is_test[mt->branch_mt->id] = true;
	}
	for (int i = 1; i <= n; i++) {
		MT *mt = parent->children.items[i - 1];
		int next = next_node(parent, i, NULL, false);

		if (lv->sequential) {
			mfg_set_next(lv, i, i + 1);
			continue;
		}
		switch (mt_flow(mt, is_test[i])) {
		case FLOW_NEXT:
			mfg_set_next(lv, i, next);
			break;
		case FLOW_TEST:
			mfg_set_branch(lv, i, next_node(parent, i, mt, true),
			               next_node(parent, i, mt, false));
			break;
		case FLOW_EXIT:
			mfg_set_next(lv, i, n + 1);
			break;
		case FLOW_MAYEXIT:
			mfg_set_branch(lv, i, n + 1, next);
			break;
		}
	}
}

/* ---- data dependence ---- */

/* Flow, anti, output, barrier; then by object. */
static int cause_cmp(const void *pa, const void *pb)
{
	const Dep *a = pa, *b = pb;
	int ia = a->object ? a->object->id : -1, ib = b->object ? b->object->id : -1;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

/* Data dependence between MTs i < j of a level, with all its causes. */
static void add_data_edge(MfgLevel *lv, int i, int j)
{
	const MT *a = lv->nodes[i].mt, *b = lv->nodes[j].mt;
	Dep buf[16], *all = buf;
	uint32_t n;
	MfgDep *e;

	if (lv->nodes[i].barrier || lv->nodes[j].barrier || !a->summary || !b->summary) {
		mfg_add_dep(lv, i, j, NULL);
		return;
	}
	n = dep_collect(a, b, buf, 16);
	if (n == 0)
		return;
	if (n > 16) {
		all = xmalloc(n * sizeof(*all));
		dep_collect(a, b, all, n);
	}
	e = mfg_add_dep(lv, i, j, &all[0]);
	for (uint32_t k = 1; k < n; k++)
		add_cause(e, &all[k]);
	if (e->causes.len > 1) /* qsort wants an array, even for none */
		qsort(e->causes.items, e->causes.len, sizeof(*e->causes.items), cause_cmp);
	if (all != buf)
		free(all);
}

/*
 * Data edges between every two MTs that one run of the level can execute
 * in that order: never between the arms of one if, nor into code after an
 * exit.  An unmodelled MT is a barrier to all others; a sequential level
 * is a chain of barriers.
 */
static void add_data(MfgLevel *lv)
{
	for (int i = 1; i <= lv->n; i++) {
		MfgNode *x = &lv->nodes[i];
		Unmodelled u;

		x->barrier = lv->sequential || mfg_unmodelled_at(x->mt, ~0u, &u);
	}
	for (int i = 1; i <= lv->n; i++) {
		if (!lv->nodes[i].live)
			continue;
		if (lv->sequential) {
			if (i < lv->n)
				mfg_add_dep(lv, i, i + 1, NULL);
			continue;
		}
		for (int j = i + 1; j <= lv->n; j++)
			if (lv->nodes[j].live && mfg_reaches(lv, i, j))
				add_data_edge(lv, i, j);
	}
}

/* ---- the whole program ---- */

/* The MTNode of owner, and when owner has children (root or RB) the MFG of their level. */
static void build_level(MT *owner, MfgLevel *container, int node)
{
	MTNode *mn = arena_alloc(sizeof(*mn));
	int n = (int)owner->children.len;
	MfgLevel *lv;

	mn->level = container;
	mn->node = node;
	mn->cost = -1;
	owner->graph = mn;
	if (container && owner->kind != MT_RB)
		return;
	lv = mfg_level_new(owner, n);
	mn->inner = lv;
	for (int i = 1; i <= n; i++) {
		lv->nodes[i].mt = owner->children.items[i - 1];
		build_level(owner->children.items[i - 1], lv, i);
	}
	set_control(lv);
	mfg_compute_control(lv);
	add_data(lv);
}

void mfg_build(Program *prog)
{
	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		Func *f = prog->funcs.items[i];

		if (f->mt)
			build_level(f->mt, NULL, 0);
	}
}

static void each_level_under(MT *owner, void (*fn)(MfgLevel *lv))
{
	MTNode *mn = mfg_node(owner);

	if (!mn || !mn->inner)
		return;
	fn(mn->inner);
	for (uint32_t i = 0; i < owner->children.len; i++)
		each_level_under(owner->children.items[i], fn);
}

void mfg_each_level(Program *prog, void (*fn)(MfgLevel *lv))
{
	for (uint32_t i = 0; i < prog->funcs.len; i++)
		if (prog->funcs.items[i]->mt)
			each_level_under(prog->funcs.items[i]->mt, fn);
}
