/*
 * eec.c - earliest executable conditions (Kasahara, Honda et al.): MTi may
 * start once the branch it is control dependent on has gone its way and
 * every MT it is data dependent on has finished or can no longer run.
 * Conditions are kept in CNF over Fin/Br literals and simplified with what
 * the level's control flow proves: directions of one branch exclude each
 * other, Fin(k) implies EEC(k) (and so k's control condition), Br(j,d)
 * implies Fin(j), MTs on no common path never both run; then absorption.
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"

/* What Fin(node) implies, for the nodes after it. */
typedef struct EecFacts {
	Bitset fin;  /* k: Fin(node) implies Fin(k) */
	Bitset br;   /* 2*j+d: Fin(node) implies Br(j,d) */
	Array(const EecClause *) nonunit; /* clauses of several literals Fin(node) implies */
} EecFacts;

enum {
	ROUNDS = 16,      /* simplification passes at most (each one only strengthens) */
	DEPTH = 2,        /* how deep clause implication looks through nonunit facts */
	MAX_NONUNIT = 64, /* nonunit facts kept per node */
};

/* ---- literals ---- */

static EecLit fin(int node)
{
	EecLit l = { EEC_FIN, false, node };

	return l;
}

static EecLit br(int node, bool dir)
{
	EecLit l = { EEC_BR, dir, node };

	return l;
}

/* Fin before Br, then by node, T before F. */
static int lit_cmp(const EecLit *a, const EecLit *b)
{
	if (a->kind != b->kind)
		return a->kind == EEC_FIN ? -1 : 1;
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->kind == EEC_BR && a->dir != b->dir)
		return a->dir ? -1 : 1;
	return 0;
}

static bool lit_eq(const EecLit *a, const EecLit *b)
{
	return lit_cmp(a, b) == 0;
}

static const EecFacts *facts_of(const MfgLevel *lv, int node)
{
	const EecFacts *f = lv->nodes[node].facts;

	if (!f)
		die("eec: node %d used before its condition", node);
	return f;
}

/* a => b, from equality, Br(j,d) => Fin(j), and what Fin(a.node) implies. */
static bool implies(const MfgLevel *lv, const EecLit *a, const EecLit *b)
{
	const EecFacts *f;

	if (lit_eq(a, b))
		return true;
	if (b->kind == EEC_FIN && b->node == a->node)
		return true;
	f = facts_of(lv, a->node);
	if (b->kind == EEC_FIN)
		return bitset_has(&f->fin, (uint32_t)b->node);
	return bitset_has(&f->br, (uint32_t)(2 * b->node + b->dir));
}

/* Can a and b never both hold?  Both MTs must lie on one path, a's branch towards b. */
static bool excludes(const MfgLevel *lv, const EecLit *a, const EecLit *b)
{
	if (a->node == b->node)
		return a->kind == EEC_BR && b->kind == EEC_BR && a->dir != b->dir;
	if (a->node > b->node) {
		const EecLit *t = a;

		a = b;
		b = t;
	}
	if (!mfg_reaches(lv, a->node, b->node))
		return true;
	return a->kind == EEC_BR && !mfg_reaches(lv, lv->nodes[a->node].succ[a->dir], b->node);
}

/* ---- clauses ---- */

static bool clause_has(const EecClause *c, const EecLit *l)
{
	for (uint32_t i = 0; i < c->lits.len; i++)
		if (lit_eq(&c->lits.items[i], l))
			return true;
	return false;
}

static void clause_add(EecClause *c, EecLit l)
{
	if (!clause_has(c, &l))
		array_push(&c->lits, l);
}

static void clause_remove(EecClause *c, uint32_t i)
{
	memmove(&c->lits.items[i], &c->lits.items[i + 1],
	        (c->lits.len - i - 1) * sizeof(*c->lits.items));
	c->lits.len--;
}

static int qsort_lit(const void *a, const void *b)
{
	return lit_cmp(a, b);
}

static bool clause_has_fin(const EecClause *c)
{
	return c->lits.len && c->lits.items[0].kind == EEC_FIN;
}

/* Control clauses (Br only) first, then by literals. */
static int clause_cmp(const void *pa, const void *pb)
{
	const EecClause *a = pa, *b = pb;
	uint32_t n = a->lits.len < b->lits.len ? a->lits.len : b->lits.len;

	if (clause_has_fin(a) != clause_has_fin(b))
		return clause_has_fin(a) ? 1 : -1;
	for (uint32_t i = 0; i < n; i++) {
		int c = lit_cmp(&a->lits.items[i], &b->lits.items[i]);

		if (c)
			return c;
	}
	return a->lits.len < b->lits.len ? -1 : a->lits.len > b->lits.len;
}

static void eec_remove(Eec *e, uint32_t i)
{
	array_free(&e->clauses.items[i].lits);
	memmove(&e->clauses.items[i], &e->clauses.items[i + 1],
	        (e->clauses.len - i - 1) * sizeof(*e->clauses.items));
	e->clauses.len--;
}

static void eec_set_false(Eec *e)
{
	while (e->clauses.len)
		eec_remove(e, e->clauses.len - 1);
	e->is_false = true;
}

static bool clause_implies(const MfgLevel *lv, const EecClause *d, const EecClause *c, int depth);

/* l => c: l implies one of c's literals, or a clause that Fin(l.node) implies does. */
static bool lit_implies_clause(const MfgLevel *lv, const EecLit *l, const EecClause *c, int depth)
{
	const EecFacts *f;

	for (uint32_t i = 0; i < c->lits.len; i++)
		if (implies(lv, l, &c->lits.items[i]))
			return true;
	if (depth <= 0)
		return false;
	f = facts_of(lv, l->node);
	for (uint32_t i = 0; i < f->nonunit.len; i++)
		if (clause_implies(lv, f->nonunit.items[i], c, depth - 1))
			return true;
	return false;
}

static bool clause_implies(const MfgLevel *lv, const EecClause *d, const EecClause *c, int depth)
{
	for (uint32_t i = 0; i < d->lits.len; i++)
		if (!lit_implies_clause(lv, &d->lits.items[i], c, depth))
			return false;
	return d->lits.len > 0;
}

/* ---- simplification ---- */

/* Everything the unit clauses make true, with what each of them implies. */
static void unit_facts(const MfgLevel *lv, const Eec *e, Bitset *tfin, Bitset *tbr)
{
	uint32_t nn = (uint32_t)lv->n + 2;

	bitset_init(tfin, nn);
	bitset_init(tbr, 2 * nn);
	for (uint32_t i = 0; i < e->clauses.len; i++) {
		const EecClause *c = &e->clauses.items[i];
		const EecFacts *f;

		if (c->lits.len != 1)
			continue;
		f = facts_of(lv, c->lits.items[0].node);
		bitset_set(tfin, (uint32_t)c->lits.items[0].node);
		if (c->lits.items[0].kind == EEC_BR)
			bitset_set(tbr, (uint32_t)(2 * c->lits.items[0].node + c->lits.items[0].dir));
		bitset_union(tfin, &f->fin);
		bitset_union(tbr, &f->br);
	}
}

/* Is l excluded by one of the facts? */
static bool refuted(const MfgLevel *lv, const EecLit *l, const Bitset *tfin, const Bitset *tbr)
{
	for (uint32_t k = 0; bitset_iter(tfin, &k); k++) {
		EecLit f = fin((int)k);

		if (excludes(lv, &f, l))
			return true;
	}
	for (uint32_t k = 0; bitset_iter(tbr, &k); k++) {
		EecLit b = br((int)(k / 2), k % 2);

		if (excludes(lv, &b, l))
			return true;
	}
	return false;
}

/* Mutual exclusion with the unit clauses: drop literals that cannot hold. */
static bool drop_refuted(const MfgLevel *lv, Eec *e)
{
	Bitset tfin, tbr;
	bool changed = false;

	unit_facts(lv, e, &tfin, &tbr);
	for (uint32_t i = 0; i < e->clauses.len; i++) {
		EecClause *c = &e->clauses.items[i];

		if (c->lits.len < 2)
			continue;
		for (uint32_t j = 0; j < c->lits.len;) {
			if (refuted(lv, &c->lits.items[j], &tfin, &tbr)) {
				clause_remove(c, j);
				changed = true;
			} else {
				j++;
			}
		}
		if (c->lits.len == 0) {
			eec_set_false(e);
			return true;
		}
	}
	return changed;
}

/* Index of a literal of c that implies another one of c, -1 if none. */
static int absorbed_literal(const MfgLevel *lv, const EecClause *c)
{
	for (uint32_t a = 0; a < c->lits.len; a++)
		for (uint32_t b = 0; b < c->lits.len; b++)
			if (a != b && implies(lv, &c->lits.items[a], &c->lits.items[b]))
				return (int)a;
	return -1;
}

/* Absorption inside a clause: a OR b is b when a => b. */
static bool absorb_literals(const MfgLevel *lv, Eec *e)
{
	bool changed = false;

	for (uint32_t i = 0; i < e->clauses.len; i++) {
		EecClause *c = &e->clauses.items[i];
		int a;

		while ((a = absorbed_literal(lv, c)) >= 0) {
			clause_remove(c, (uint32_t)a);
			changed = true;
		}
	}
	return changed;
}

/*
 * Under literal l, clause c2 is either satisfied (-1), or left with exactly
 * one literal that can still hold (its index), or more (-2).
 */
static int residual(const MfgLevel *lv, const EecLit *l, const EecClause *c2)
{
	int only = -2;
	int n = 0;

	for (uint32_t i = 0; i < c2->lits.len; i++) {
		if (implies(lv, l, &c2->lits.items[i]))
			return -1;
		if (!excludes(lv, l, &c2->lits.items[i])) {
			only = (int)i;
			n++;
		}
	}
	return n == 1 ? only : -2;
}

/*
 * c1 = l OR x, and under l another clause c2 comes down to u with u => l:
 * then c1 AND c2 = (u OR x) AND c2.  This turns the join of a diamond,
 * (Fin(a) OR Br(t,F)) AND (Fin(b) OR Br(t,T)), into Fin(a) OR Fin(b).
 */
static bool substitute(const MfgLevel *lv, Eec *e)
{
	for (uint32_t i = 0; i < e->clauses.len; i++) {
		EecClause *c1 = &e->clauses.items[i];

		for (uint32_t j = 0; j < c1->lits.len; j++) {
			EecLit l = c1->lits.items[j];

			for (uint32_t k = 0; k < e->clauses.len; k++) {
				const EecClause *c2 = &e->clauses.items[k];
				int r = k == i ? -2 : residual(lv, &l, c2);
				EecLit u;

				if (r < 0)
					continue;
				u = c2->lits.items[r];
				if (!implies(lv, &u, &l) || lit_eq(&u, &l))
					continue;
				clause_remove(c1, j);
				clause_add(c1, u);
				return true;
			}
		}
	}
	return false;
}

/* Absorption between clauses: drop a clause that another one implies. */
static bool drop_implied(const MfgLevel *lv, Eec *e)
{
	bool changed = false;

	for (uint32_t i = 0; i < e->clauses.len;) {
		bool implied = false;

		for (uint32_t j = 0; j < e->clauses.len && !implied; j++)
			implied = j != i && clause_implies(lv, &e->clauses.items[j],
			                                   &e->clauses.items[i], DEPTH);
		if (implied) {
			eec_remove(e, i);
			changed = true;
		} else {
			i++;
		}
	}
	return changed;
}

static void sort_eec(Eec *e)
{
	for (uint32_t i = 0; i < e->clauses.len; i++) {
		EecClause *c = &e->clauses.items[i];

		if (c->lits.len > 1)
			qsort(c->lits.items, c->lits.len, sizeof(*c->lits.items), qsort_lit);
	}
	if (e->clauses.len > 1)
		qsort(e->clauses.items, e->clauses.len, sizeof(*e->clauses.items), clause_cmp);
}

static void simplify(const MfgLevel *lv, Eec *e)
{
	for (int round = 0; round < ROUNDS && !e->is_false; round++) {
		bool changed = drop_refuted(lv, e);

		if (e->is_false)
			break;
		changed |= absorb_literals(lv, e);
		changed |= substitute(lv, e);
		changed |= drop_implied(lv, e);
		if (!changed)
			break;
	}
	sort_eec(e);
}

/* ---- building the conditions ---- */

/* Skip(k): branches after which k can no longer run. */
static void add_skip(const MfgLevel *lv, EecClause *c, int k)
{
	for (int j = 1; j < k; j++) {
		const MfgNode *x = &lv->nodes[j];

		if (!x->branch || !x->live || !mfg_reaches(lv, j, k))
			continue;
		for (int d = 1; d >= 0; d--)
			if (!mfg_reaches(lv, x->succ[d], k))
				clause_add(c, br(j, d));
	}
}

/* Fin(k) OR Skip(k) */
static void add_wait(const MfgLevel *lv, Eec *e, int k)
{
	EecClause c = { { 0 } };

	clause_add(&c, fin(k));
	add_skip(lv, &c, k);
	array_push(&e->clauses, c);
}

static Eec *raw_eec(const MfgLevel *lv, int i)
{
	const MfgNode *x = &lv->nodes[i];
	Eec *e = ARENA_NEW(Eec);

	if (!x->live) {
		e->is_false = true;
		return e;
	}
	if (i == lv->n + 1) { /* the EMT waits for every MT */
		for (int k = 1; k <= lv->n; k++)
			if (lv->nodes[k].live)
				add_wait(lv, e, k);
		return e;
	}
	if (x->cd.len) {
		EecClause c = { { 0 } };

		for (uint32_t j = 0; j < x->cd.len; j++)
			clause_add(&c, br(x->cd.items[j] / 2, x->cd.items[j] % 2));
		array_push(&e->clauses, c);
	}
	for (uint32_t j = 0; j < lv->deps.len; j++)
		if (lv->deps.items[j].to == i && lv->nodes[lv->deps.items[j].from].live)
			add_wait(lv, e, lv->deps.items[j].from);
	return e;
}

static void add_nonunit(EecFacts *f, const EecClause *c)
{
	for (uint32_t i = 0; i < f->nonunit.len; i++)
		if (f->nonunit.items[i] == c)
			return;
	if (f->nonunit.len < MAX_NONUNIT)
		array_push(&f->nonunit, c);
}

/* Fin(k) implies the facts of k too. */
static void add_fin_fact(const MfgLevel *lv, EecFacts *f, int k)
{
	const EecFacts *g = facts_of(lv, k);

	bitset_set(&f->fin, (uint32_t)k);
	bitset_union(&f->fin, &g->fin);
	bitset_union(&f->br, &g->br);
	for (uint32_t i = 0; i < g->nonunit.len; i++)
		add_nonunit(f, g->nonunit.items[i]);
}

/* Fin(i) implies EEC(i): unit clauses become facts, the rest are kept as they are. */
static EecFacts *make_facts(const MfgLevel *lv, int i, const Eec *e)
{
	uint32_t nn = (uint32_t)lv->n + 2;
	EecFacts *f = ARENA_NEW(EecFacts);

	bitset_init(&f->fin, nn);
	bitset_init(&f->br, 2 * nn);
	for (uint32_t j = 0; j < e->clauses.len; j++) {
		const EecClause *c = &e->clauses.items[j];
		const EecLit *l = &c->lits.items[0];

		if (c->lits.len > 1) {
			add_nonunit(f, c);
			continue;
		}
		if (l->kind == EEC_BR)
			bitset_set(&f->br, (uint32_t)(2 * l->node + l->dir));
		add_fin_fact(lv, f, l->node);
	}
	return f;
}

void eec_compute_level(MfgLevel *lv)
{
	uint32_t nn = (uint32_t)lv->n + 2;
	EecFacts *none = ARENA_NEW(EecFacts);

	bitset_init(&none->fin, nn); /* START: implies nothing */
	bitset_init(&none->br, 2 * nn);
	lv->nodes[0].facts = none;
	lv->nodes[0].eec = ARENA_NEW(Eec);
	for (int i = 1; i <= lv->n + 1; i++) {
		Eec *e = raw_eec(lv, i);

		simplify(lv, e);
		lv->nodes[i].eec = e;
		lv->nodes[i].facts = make_facts(lv, i, e);
	}
}

void eec_compute(Program *prog)
{
	mfg_each_level(prog, eec_compute_level);
}

/* ---- printing ---- */

static void print_lit(FILE *out, const MfgLevel *lv, const EecLit *l)
{
	fputs(l->kind == EEC_FIN ? "Fin(" : "Br(", out);
	mfg_print_node(out, lv, l->node);
	if (l->kind == EEC_BR)
		fputs(l->dir ? ",T" : ",F", out);
	fputc(')', out);
}

void eec_print(FILE *out, const MfgLevel *lv, const Eec *e)
{
	if (e->is_false) {
		fputs("false", out);
		return;
	}
	if (e->clauses.len == 0) {
		fputs("true", out);
		return;
	}
	for (uint32_t i = 0; i < e->clauses.len; i++) {
		const EecClause *c = &e->clauses.items[i];
		bool paren = e->clauses.len > 1 && c->lits.len > 1;

		fputs(i ? " AND " : "", out);
		fputs(paren ? "(" : "", out);
		for (uint32_t j = 0; j < c->lits.len; j++) {
			fputs(j ? " OR " : "", out);
			print_lit(out, lv, &c->lits.items[j]);
		}
		fputs(paren ? ")" : "", out);
	}
}
