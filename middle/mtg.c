/*
 * mtg.c - the macro-task graph (MTG): per level, the data edges that still
 * matter after the EEC's simplification (on a level without branches, the
 * transitive reduction of the data edges) and the extended control
 * dependence edges, both read off the EECs; plus the deterministic text
 * of the MFG and the MTG (--dump=mfg, --dump=mtg).
 */
#include <stdlib.h>

#include "middle.h"

/* One MTG edge per literal of EEC(to): Fin -> data, Br -> extended control. */
static void add_edges(MfgLevel *lv, int to)
{
	const Eec *e = lv->nodes[to].eec;
	int group = 0;

	for (uint32_t i = 0; i < e->clauses.len; i++) {
		const EecClause *c = &e->clauses.items[i];
		int g = c->lits.len > 1 ? ++group : 0;

		for (uint32_t j = 0; j < c->lits.len; j++) {
			const EecLit *l = &c->lits.items[j];
			MtgEdge m;

			m.from = l->node;
			m.to = to;
			m.control = l->kind == EEC_BR;
			m.dir = l->dir;
			m.group = g;
			m.dep = mfg_find_dep(lv, l->node, to);
			array_push(&lv->mtg, m);
		}
	}
}

void mtg_build_level(MfgLevel *lv)
{
	lv->mtg.len = 0;
	for (int i = 1; i <= lv->n + 1; i++)
		if (lv->nodes[i].eec)
			add_edges(lv, i);
}

void mtg_build(Program *prog)
{
	mfg_each_level(prog, mtg_build_level);
}

/* ---- dumps ---- */

/* "MT4.2 SB 17 call produce branch", as in --dump=mt without the context. */
static void print_mt(FILE *out, const MfgLevel *lv, int i)
{
	const MT *mt = lv->nodes[i].mt;

	mfg_print_node(out, lv, i);
	if (!mt)
		return;
	fprintf(out, " %s ", mt_kind_name[mt->kind]);
	source_print_lines(out, mt->func->src, mt->start, mt->end);
	if (mt->kind == MT_SB)
		fprintf(out, " call %s", intern_name(mt->callee->name));
	if (lv->nodes[i].branch)
		fputs(" branch", out);
	if (!lv->nodes[i].live)
		fputs(" dead", out);
	for (int k = 0; k <= UM_OTHER; k++)
		if (mt->unmodelled & (1u << k))
			fprintf(out, " unmodelled(%s)", unmodelled_name[k]);
}

/* "level run" or "level run/MT4.2" */
static void print_level_name(FILE *out, const MfgLevel *lv)
{
	const MT *owner = lv->owner;

	fprintf(out, "  level %s", intern_name(owner->func->name));
	if (owner->parent) {
		MTNode *mn = mfg_node(owner);

		fputc('/', out);
		mfg_print_node(out, mn->level, mn->node);
	}
	if (lv->sequential) {
		uint32_t line, col;

		source_pos(owner->func->src, lv->why.at, &line, &col);
		fprintf(out, " sequential (%s at %u:%u)", unmodelled_name[lv->why.kind], line, col);
	}
	fputc('\n', out);
}

static void print_control(FILE *out, const MfgLevel *lv, int i)
{
	const MfgNode *x = &lv->nodes[i];

	for (int d = 1; d >= 0; d--) {
		if (x->succ[d] < 0)
			continue;
		fputs("    control ", out);
		mfg_print_node(out, lv, i);
		fputs(" -> ", out);
		mfg_print_node(out, lv, x->succ[d]);
		if (x->branch)
			fputs(d ? " T" : " F", out);
		fputc('\n', out);
	}
}

static void print_dep(FILE *out, const MfgLevel *lv, const MfgDep *d)
{
	fputs("    data ", out);
	mfg_print_node(out, lv, d->from);
	fputs(" -> ", out);
	mfg_print_node(out, lv, d->to);
	fputs(": ", out);
	mfg_print_causes(out, d);
	fputc('\n', out);
}

/* The MT's reads and writes (sum_dump), indented under it. */
static void print_summary(FILE *out, const MT *mt)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	bool bol = true;

	if (!f)
		die("open_memstream failed");
	sum_dump(f, mt);
	fclose(f);
	for (const char *p = text; *p; p++) {
		if (bol)
			fputs("      ", out);
		fputc(*p, out);
		bol = *p == '\n';
	}
	free(text);
}

/*
 * --dump=mfg, per level: each MT with its reads and writes, then the
 * control-flow edges (T/F on branches) and the data edges with their causes.
 */
static void dump_mfg_level(FILE *out, const MfgLevel *lv)
{
	print_level_name(out, lv);
	for (int i = 1; i <= lv->n; i++) {
		fputs("    ", out);
		print_mt(out, lv, i);
		fputc('\n', out);
		print_summary(out, lv->nodes[i].mt);
	}
	for (int i = 1; i <= lv->n; i++)
		print_control(out, lv, i);
	for (uint32_t i = 0; i < lv->deps.len; i++)
		print_dep(out, lv, &lv->deps.items[i]);
}

static void print_mtg_edge(FILE *out, const MfgLevel *lv, const MtgEdge *m)
{
	if (m->control)
		fputs("    control ", out);
	else
		fputs(m->dep ? "    data " : "    exit ", out);
	mfg_print_node(out, lv, m->from);
	fputs(" -> ", out);
	mfg_print_node(out, lv, m->to);
	if (m->control)
		fputs(m->dir ? " T" : " F", out);
	if (m->group)
		fprintf(out, " or%d", m->group);
	if (m->dep) {
		fputs(": ", out);
		mfg_print_causes(out, m->dep);
	}
	fputc('\n', out);
}

/*
 * --dump=mtg, per level: each MT and the EMT with its EEC, then the MTG's
 * edges grouped by target: "data" (with causes), "control" (with the
 * direction, and the causes when the branch MT is also a data
 * predecessor), "exit" into the EMT; "orN" marks the Nth OR clause.
 */
static void dump_mtg_level(FILE *out, const MfgLevel *lv)
{
	print_level_name(out, lv);
	for (int i = 1; i <= lv->n + 1; i++) {
		fputs("    ", out);
		print_mt(out, lv, i);
		fputs(": EEC = ", out);
		eec_print(out, lv, lv->nodes[i].eec);
		fputc('\n', out);
	}
	for (uint32_t i = 0; i < lv->mtg.len; i++)
		print_mtg_edge(out, lv, &lv->mtg.items[i]);
}

typedef void DumpLevel(FILE *out, const MfgLevel *lv);

/* The level of owner, then the levels of its RBs, depth first. */
static void dump_tree(FILE *out, const MT *owner, DumpLevel *dump)
{
	MTNode *mn = mfg_node(owner);

	if (!mn || !mn->inner)
		return;
	dump(out, mn->inner);
	for (uint32_t i = 0; i < owner->children.len; i++)
		dump_tree(out, owner->children.items[i], dump);
}

static void dump_program(FILE *out, const Program *prog, DumpLevel *dump)
{
	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		const Func *f = prog->funcs.items[i];

		fprintf(out, "function %s %s:", intern_name(f->name), f->src->path);
		source_print_lines(out, f->src, f->start, f->end);
		fputc('\n', out);
		if (f->mt)
			dump_tree(out, f->mt, dump);
	}
}

void mtg_dump_mfg(FILE *out, const Program *prog)
{
	dump_program(out, prog, dump_mfg_level);
}

void mtg_dump(FILE *out, const Program *prog)
{
	dump_program(out, prog, dump_mtg_level);
}
