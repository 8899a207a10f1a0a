/*
 * dep.c - data dependence between two macro tasks of one level, from
 * their access summaries: flow (the earlier writes what the later reads),
 * anti (reads, then the later writes), output (both write), whenever the
 * two regions may share a byte; a barrier (an unknown call) orders both
 * against everything.  Sound: independent only when region_overlap proves
 * the bytes disjoint.
 */
#include "middle.h"

/*
 * May the write w and the access o touch a common byte?  A write through
 * another base cannot reach a const object: that would be undefined.
 */
static bool conflict(const Access *w, const Access *o)
{
	const Var *wb = w->region.base, *ob = o->region.base;

	if (wb != ob && (obj_readonly(ob) || obj_readonly(wb)))
		return false;
	return region_overlap(&w->region, &o->region);
}

static Var *cause(const Access *a, const Access *b)
{
	return a->region.base ? a->region.base : b->region.base;
}

/* Calls found(kind, a, b) for each conflicting pair, in the order flow, output, anti. */
typedef bool FoundFn(DepKind kind, const Access *a, const Access *b, void *ctx);

static void each_dep(const Summary *x, const Summary *y, FoundFn *found, void *ctx)
{
	static const struct {
		DepKind kind;
		AccessKind from, to;
	} order[] = {
		{ DEP_FLOW, ACC_WRITE, ACC_READ },
		{ DEP_OUTPUT, ACC_WRITE, ACC_WRITE },
		{ DEP_ANTI, ACC_READ, ACC_WRITE },
	};

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		for (uint32_t i = 0; i < x->acc.len; i++) {
			const Access *a = &x->acc.items[i];

			if (a->kind != order[k].from)
				continue;
			for (uint32_t j = 0; j < y->acc.len; j++) {
				const Access *b = &y->acc.items[j];
				bool hit;

				if (b->kind != order[k].to)
					continue;
				hit = a->kind == ACC_WRITE ? conflict(a, b) : conflict(b, a);
				if (hit && !found(order[k].kind, a, b, ctx))
					return;
			}
		}
	}
}

typedef struct Collect {
	Dep *out;
	uint32_t max, n;
} Collect;

static bool collect(DepKind kind, const Access *a, const Access *b, void *ctx)
{
	Collect *c = ctx;

	if (c->n < c->max) {
		c->out[c->n].kind = kind;
		c->out[c->n].from = a;
		c->out[c->n].to = b;
		c->out[c->n].object = cause(a, b);
	}
	c->n++;
	return true;
}

static bool first(DepKind kind, const Access *a, const Access *b, void *ctx)
{
	return !collect(kind, a, b, ctx);
}

/* A missing summary (acc_compute_summaries not run) orders everything. */
static bool is_barrier(const Summary *s)
{
	return !s || s->barrier;
}

uint32_t dep_summary_collect(const Summary *earlier, const Summary *later, Dep *out, uint32_t max)
{
	Collect c = { out, max, 0 };

	if (is_barrier(earlier) || is_barrier(later)) {
		if (max > 0) {
			out[0].kind = DEP_BARRIER;
			out[0].from = out[0].to = NULL;
			out[0].object = NULL;
		}
		return 1;
	}
	each_dep(earlier, later, collect, &c);
	return c.n;
}

bool dep_summary_conflict(const Summary *earlier, const Summary *later, Dep *out)
{
	Collect c = { out, 1, 0 };

	if (is_barrier(earlier) || is_barrier(later)) {
		out->kind = DEP_BARRIER;
		out->from = out->to = NULL;
		out->object = NULL;
		return true;
	}
	each_dep(earlier, later, first, &c);
	return c.n > 0;
}

uint32_t dep_collect(const MT *earlier, const MT *later, Dep *out, uint32_t max)
{
	return dep_summary_collect(earlier->summary, later->summary, out, max);
}

bool dep_between(const MT *earlier, const MT *later, Dep *out)
{
	return dep_summary_conflict(earlier->summary, later->summary, out);
}
