/*
 * dot.c - back end: the MTG and the MFG as Graphviz graphs, built with the
 * cgraph API (agopen, agsubg, agnode, agedge, agsafeset, agwrite, agclose).
 * One cluster per function; a loop's body is a cluster nested in its
 * level, headed by the RB's own node and closed by the body's EMT, so that
 * edges into an RB end at the cluster's border (lhead) and edges out of it
 * leave from there (ltail).
 *
 * Drawing convention (OSCAR's, with what DOT can draw):
 *   MTG: solid edge = data dependence, dotted edge = extended control
 *        dependence labelled with the branch direction (T/F).  Edges in one
 *        OR clause of the target's EEC get a hollow arrowhead and the label
 *        "orN" (N numbers the OR clauses of that target); edges with a
 *        filled arrowhead are ANDed.  The EEC itself is the node's tooltip.
 *   MFG: solid edge = control flow (T/F on branches), dashed blue edge =
 *        data dependence labelled with its kinds.
 *   Nodes: "MTn KIND lines" (plus the callee of an SB, and the estimated
 *   cost when one is known); a double border (peripheries=2) marks an MT
 *   that ends in a conditional branch, standing for OSCAR's small circle;
 *   red: unmodelled construct; grey and dashed: unreachable.
 */
#include <errno.h>
#include <graphviz/cgraph.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

enum { NAME_MAX_LEN = 1024 };

/*
 * Object IDs in order of creation.  cgraph's default IDs are the addresses
 * of the name strings, and agwrite lists subgraphs in ID order, so the
 * order of the clusters in the file followed the heap.  Here a named
 * object's ID is 2 * (its name's index + 1), an anonymous one's odd, as in
 * the default discipline; names are found through an open-addressing table.
 */
typedef struct IdNames {
	Agraph_t *g;          /* the root graph, which owns the name strings */
	Array(char *) names;  /* by (ID / 2) - 1; the graph's reference-counted strings */
	uint32_t *slots;      /* name index + 1, 0 empty; cap a power of two */
	uint32_t cap;
	IDTYPE next_anon;
} IdNames;

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static uint32_t *id_slot(IdNames *t, const char *str)
{
	uint32_t i = name_hash(str) & (t->cap - 1);

	while (t->slots[i] && strcmp(t->names.items[t->slots[i] - 1], str) != 0)
		i = (i + 1) & (t->cap - 1);
	return &t->slots[i];
}

static void id_grow(IdNames *t)
{
	free(t->slots);
	t->cap = t->cap ? 2 * t->cap : 256;
	t->slots = xcalloc(t->cap, sizeof(*t->slots));
	for (uint32_t i = 0; i < t->names.len; i++)
		*id_slot(t, t->names.items[i]) = i + 1;
}

static void *id_open(Agraph_t *g, Agdisc_t *disc)
{
	IdNames *t = xcalloc(1, sizeof(*t));

	t->g = g;
	id_grow(t);
	return t;
}

static long id_map(void *state, int objtype, char *str, IDTYPE *id, int createflag)
{
	IdNames *t = state;
	uint32_t *slot;

	if (!str) {
		*id = 2 * t->next_anon++ + 1;
		return 1;
	}
	slot = id_slot(t, str);
	if (!*slot && createflag) {
		/* agwrite takes names for refstrs (it reads their HTML flag) */
		array_push(&t->names, agstrdup(t->g, str));
		*slot = t->names.len;
		if (2 * t->names.len > t->cap)
			id_grow(t);
		slot = id_slot(t, str);
	}
	*id = *slot ? 2 * (IDTYPE)*slot : 0;
	return 1;
}

static long id_alloc(void *state, int objtype, IDTYPE id)
{
	return 0; /* no object asks for an ID of its own choosing here */
}

static void id_free(void *state, int objtype, IDTYPE id)
{
}

static char *id_print(void *state, int objtype, IDTYPE id)
{
	IdNames *t = state;

	if (id % 2 || id == 0 || id / 2 > t->names.len)
		return NULL;
	return t->names.items[id / 2 - 1];
}

static void id_close(void *state)
{
	IdNames *t = state;

	/* the strings go with the graph's string dictionary, after this */
	array_free(&t->names);
	free(t->slots);
	free(t);
}

static void id_register(void *state, int objtype, void *obj)
{
}

static Agiddisc_t creation_order_ids = { id_open, id_map, id_alloc, id_free,
	                                     id_print, id_close, id_register };

typedef struct Dot {
	Agraph_t *g;
	bool mtg;          /* draw the MTG, else the MFG */
} Dot;

/* Text written by print(out, lv, node) into buf. */
static char *print_to(char *buf, size_t size, void (*print)(FILE *, const MfgLevel *, int),
                      const MfgLevel *lv, int node)
{
	FILE *f = fmemopen(buf, size, "w");

	if (!f)
		die("fmemopen: %s", strerror(errno));
	print(f, lv, node);
	fclose(f);
	buf[size - 1] = '\0';
	return buf;
}

static void print_eec_of(FILE *out, const MfgLevel *lv, int node)
{
	fputs("EEC: ", out);
	eec_print(out, lv, lv->nodes[node].eec);
}

static void print_label(FILE *out, const MfgLevel *lv, int node)
{
	const MT *mt = lv->nodes[node].mt;
	const MTNode *mn = mfg_node(mt);

	mfg_print_node(out, lv, node);
	if (!mt)
		return;
	fprintf(out, " %s ", mt_kind_name[mt->kind]);
	source_print_lines(out, mt->func->src, mt->start, mt->end);
	if (mt->kind == MT_SB)
		fprintf(out, "\\ncall %s", intern_name(mt->callee->name));
	if (mn && mn->cost >= 0)
		fprintf(out, "\\ncost %.0f", mn->cost);
}

/* "f" for a function's level, "f/MT4.2" for a loop body's. */
static void level_id(char *buf, size_t size, const MfgLevel *lv)
{
	const MT *owner = lv->owner;
	const char *f = intern_name(owner->func->name);
	MTNode *mn = mfg_node(owner);
	char node[NAME_MAX_LEN];

	if (!owner->parent) {
		snprintf(buf, size, "%s", f);
		return;
	}
	level_id(buf, size, mn->level);
	print_to(node, sizeof(node), mfg_print_node, mn->level, mn->node);
	snprintf(buf + strlen(buf), size - strlen(buf), "/%s", node);
}

static void node_name(char *buf, size_t size, const MfgLevel *lv, int node)
{
	char text[NAME_MAX_LEN];

	level_id(buf, size, lv);
	print_to(text, sizeof(text), mfg_print_node, lv, node);
	snprintf(buf + strlen(buf), size - strlen(buf), "/%s", text);
}

static void cluster_name(char *buf, size_t size, const MfgLevel *lv)
{
	static const char prefix[] = "cluster_";

	memcpy(buf, prefix, sizeof(prefix));
	level_id(buf + sizeof(prefix) - 1, size - sizeof(prefix) + 1, lv);
}

static void set(void *obj, const char *name, const char *value)
{
	char n[64], v[NAME_MAX_LEN * 2];

	snprintf(n, sizeof(n), "%s", name);
	snprintf(v, sizeof(v), "%s", value);
	agsafeset(obj, n, v, "");
}

static MfgLevel *inner_of(const MfgLevel *lv, int node)
{
	const MT *mt = lv->nodes[node].mt;

	return mt && mt->kind == MT_RB && mfg_node(mt) ? mfg_node(mt)->inner : NULL;
}

static void style_node(Dot *d, Agnode_t *an, const MfgLevel *lv, int node)
{
	const MfgNode *x = &lv->nodes[node];
	char buf[NAME_MAX_LEN * 2];

	set(an, "label", print_to(buf, sizeof(buf), print_label, lv, node));
	if (d->mtg && x->eec)
		set(an, "tooltip", print_to(buf, sizeof(buf), print_eec_of, lv, node));
	if (node == lv->n + 1)
		set(an, "style", "dashed");
	else if (x->mt && x->mt->kind == MT_SB)
		set(an, "style", "rounded");
	else if (x->mt && x->mt->kind == MT_RB)
		set(an, "style", "bold");
	if (x->branch)
		set(an, "peripheries", "2");
	if (x->mt && x->mt->unmodelled)
		set(an, "color", "red");
	if (node <= lv->n && !x->live) {
		set(an, "style", "dashed");
		set(an, "color", "grey");
	}
}

static void draw_level(Dot *d, Agraph_t *sub, const MfgLevel *lv);

/* An RB: a cluster holding its own node, then its body's level. */
static void draw_rb(Dot *d, Agraph_t *sub, const MfgLevel *lv, int node, const MfgLevel *body)
{
	char name[NAME_MAX_LEN];
	Agraph_t *c;
	Agnode_t *an;

	cluster_name(name, sizeof(name), body);
	c = agsubg(sub, name, 1);
	set(c, "label", "");
	set(c, "style", "rounded");
	node_name(name, sizeof(name), lv, node);
	an = agnode(c, name, 1);
	style_node(d, an, lv, node);
	draw_level(d, c, body);
}

/* Where an edge into (head) or out of (!head) a node attaches, and its cluster. */
static Agnode_t *endpoint(Dot *d, const MfgLevel *lv, int node, bool head, char *cluster,
                          size_t size)
{
	const MfgLevel *body = inner_of(lv, node);
	char name[NAME_MAX_LEN];

	cluster[0] = '\0';
	if (body) {
		cluster_name(cluster, size, body);
		if (!head)
			return endpoint(d, body, body->n + 1, head, name, sizeof(name));
	}
	node_name(name, sizeof(name), lv, node);
	return agnode(d->g, name, 0);
}

static Agedge_t *draw_edge(Dot *d, const MfgLevel *lv, int from, int to)
{
	char ltail[NAME_MAX_LEN], lhead[NAME_MAX_LEN];
	Agnode_t *t = endpoint(d, lv, from, false, ltail, sizeof(ltail));
	Agnode_t *h = endpoint(d, lv, to, true, lhead, sizeof(lhead));
	Agedge_t *e;

	if (!t || !h)
		die("dot: edge between unknown nodes");
	e = agedge(d->g, t, h, NULL, 1);
	if (ltail[0])
		set(e, "ltail", ltail);
	if (lhead[0])
		set(e, "lhead", lhead);
	return e;
}

static void print_causes_of(FILE *out, const MfgLevel *lv, int i)
{
	mfg_print_causes(out, &lv->deps.items[i]);
}

static void print_kinds_of(FILE *out, const MfgLevel *lv, int i)
{
	static const char *const word[] = { "flow", "anti", "output", "barrier" };
	const MfgDep *dep = &lv->deps.items[i];
	bool first = true;

	for (int k = DEP_FLOW; k <= DEP_BARRIER; k++)
		if (dep->kinds & 1u << k) {
			fprintf(out, "%s%s", first ? "" : ",", word[k]);
			first = false;
		}
}

static void draw_mtg_edges(Dot *d, const MfgLevel *lv)
{
	char buf[NAME_MAX_LEN * 2];

	for (uint32_t i = 0; i < lv->mtg.len; i++) {
		const MtgEdge *m = &lv->mtg.items[i];
		Agedge_t *e = draw_edge(d, lv, m->from, m->to);
		char label[32] = "";

		if (m->control) {
			set(e, "style", "dotted");
			snprintf(label, sizeof(label), "%s", m->dir ? "T" : "F");
		}
		if (m->group) {
			set(e, "arrowhead", "onormal");
			snprintf(label + strlen(label), sizeof(label) - strlen(label), "%sor%d",
			         label[0] ? " " : "", m->group);
		}
		if (label[0])
			set(e, "label", label);
		if (m->dep)
			set(e, "tooltip", print_to(buf, sizeof(buf), print_causes_of, lv,
			                           (int)(m->dep - lv->deps.items)));
	}
}

/*
 * Data edges implied by a path of other data edges, for levels too dense
 * to draw: generated code reuses storage so much that a straight line of
 * 140 calls can carry 7000 dependences, which dot cannot lay out.  dreach
 * is built backwards; node numbers follow program order.
 */
static bool *implied_data_edges(const MfgLevel *lv)
{
	bool *implied = xcalloc(lv->deps.len + 1, sizeof(*implied));
	Bitset *dreach = xcalloc((size_t)lv->n + 2, sizeof(*dreach));

	for (int v = 0; v <= lv->n + 1; v++)
		bitset_init(&dreach[v], (uint32_t)lv->n + 2);
	for (uint32_t i = lv->deps.len; i-- > 0;) {
		const MfgDep *dep = &lv->deps.items[i];

		bitset_set(&dreach[dep->from], (uint32_t)dep->to);
		bitset_union(&dreach[dep->from], &dreach[dep->to]);
	}
	for (uint32_t i = 0; i < lv->deps.len; i++) {
		const MfgDep *dep = &lv->deps.items[i];

		for (uint32_t j = 0; j < lv->deps.len && !implied[i]; j++) {
			const MfgDep *via = &lv->deps.items[j];

			implied[i] = via->from == dep->from && via->to != dep->to &&
			             bitset_has(&dreach[via->to], (uint32_t)dep->to);
		}
	}
	free(dreach);
	return implied;
}

/* More data edges than this per MT and the implied ones are left out. */
enum { MFG_DOT_DENSE = 4 };

static void draw_mfg_edges(Dot *d, Agraph_t *g, const MfgLevel *lv)
{
	char buf[NAME_MAX_LEN * 2];
	bool dense = lv->deps.len > (uint32_t)(MFG_DOT_DENSE * (lv->n + 1));
	bool *implied = dense ? implied_data_edges(lv) : NULL;
	uint32_t left_out = 0;

	for (int i = 1; i <= lv->n; i++) {
		const MfgNode *x = &lv->nodes[i];

		for (int dir = 1; dir >= 0; dir--) {
			Agedge_t *e;

			if (x->succ[dir] < 0)
				continue;
			e = draw_edge(d, lv, i, x->succ[dir]);
			if (x->branch)
				set(e, "label", dir ? "T" : "F");
		}
	}
	for (uint32_t i = 0; i < lv->deps.len; i++) {
		const MfgDep *dep = &lv->deps.items[i];
		Agedge_t *e;

		if (implied && implied[i]) {
			left_out++;
			continue;
		}
		e = draw_edge(d, lv, dep->from, dep->to);
		set(e, "style", "dashed");
		set(e, "color", "blue");
		set(e, "fontcolor", "blue");
		set(e, "label", print_to(buf, sizeof(buf), print_kinds_of, lv, (int)i));
		set(e, "tooltip", print_to(buf, sizeof(buf), print_causes_of, lv, (int)i));
	}
	if (left_out) {
		snprintf(buf, sizeof(buf), "%s (%u data edges implied by others not drawn; see --dump=mfg)",
		         agget(g, "label") ? agget(g, "label") : "", left_out);
		set(g, "label", buf);
	}
	free(implied);
}

/* Invisible edges from an RB's own node to the body's first MTs keep the body below it. */
static void anchor_body(Dot *d, const MfgLevel *lv)
{
	const MTNode *mn = mfg_node(lv->owner);
	char name[NAME_MAX_LEN], lhead[NAME_MAX_LEN];
	Agnode_t *rb;

	node_name(name, sizeof(name), mn->level, mn->node);
	rb = agnode(d->g, name, 0);
	for (int i = 1; i <= lv->n + 1; i++) {
		const Eec *e = lv->nodes[i].eec;
		bool first = d->mtg ? e && e->clauses.len == 0 && !e->is_false : i == 1 || lv->n == 0;
		Agedge_t *edge;

		if (!first)
			continue;
		edge = agedge(d->g, rb, endpoint(d, lv, i, true, lhead, sizeof(lhead)), NULL, 1);
		set(edge, "style", "invis");
	}
}

static void draw_level(Dot *d, Agraph_t *sub, const MfgLevel *lv)
{
	char name[NAME_MAX_LEN];

	for (int i = 1; i <= lv->n + 1; i++) {
		const MfgLevel *body = inner_of(lv, i);
		Agnode_t *an;

		if (body) {
			draw_rb(d, sub, lv, i, body);
			continue;
		}
		node_name(name, sizeof(name), lv, i);
		an = agnode(sub, name, 1);
		style_node(d, an, lv, i);
	}
	if (d->mtg)
		draw_mtg_edges(d, lv);
	else
		draw_mfg_edges(d, sub, lv);
	if (lv->owner->kind == MT_RB)
		anchor_body(d, lv);
}

static bool write_dot(FILE *out, void *g)
{
	return agwrite(g, out) == 0;
}

/* only: the one function to draw, NULL for all. */
static bool write_graph(const Program *prog, const char *path, bool mtg, const char *only)
{
	Agdisc_t disc = { &AgMemDisc, &creation_order_ids, &AgIoDisc };
	Dot d = { agopen(mtg ? "mtg" : "mfg", Agdirected, &disc), mtg };
	OutputStatus st;

	set(d.g, "compound", "true");
	/*
	 * Graphviz 2.43's spline router fails ("illegal values of prev") on some
	 * MFGs whose loop exits are clipped at cluster borders; straight edges
	 * always route.  The MTG has no such edges and keeps its curves.  Crossing
	 * minimisation and network simplex are cut short on MFGs: they hold all
	 * data edges, and dot would spend minutes on a TVM program.
	 */
	if (!mtg) {
		set(d.g, "splines", "line");
		/* MFGs of whole TVM programs: fewer layout passes, seconds instead of minutes */
		set(d.g, "mclimit", "0.05");
		set(d.g, "nslimit", "0.5");
		set(d.g, "nslimit1", "0.5");
	}
	set(d.g, "fontname", "Helvetica");
	agattr(d.g, AGNODE, "shape", "box");
	agattr(d.g, AGNODE, "fontname", "Helvetica");
	agattr(d.g, AGNODE, "fontsize", "10");
	agattr(d.g, AGEDGE, "fontsize", "9");
	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		const Func *f = prog->funcs.items[i];
		char name[NAME_MAX_LEN];
		Agraph_t *c;

		if (!f->mt || !mfg_node(f->mt) || !mfg_node(f->mt)->inner)
			continue;
		if (only && strcmp(only, intern_name(f->name)) != 0)
			continue;
		snprintf(name, sizeof(name), "cluster_%s", intern_name(f->name));
		c = agsubg(d.g, name, 1);
		snprintf(name, sizeof(name), "function %s", intern_name(f->name));
		set(c, "label", name);
		draw_level(&d, c, mfg_node(f->mt)->inner);
	}
	st = output_write(path, write_dot, d.g);
	agclose(d.g);
	if (st == OUTPUT_CANNOT_CREATE)
		error_plain("%s: %s", path, strerror(errno));
	else if (st == OUTPUT_CANNOT_WRITE)
		error_plain("%s: cannot write the graph", path);
	return st == OUTPUT_OK;
}

bool dot_write_mtg(const Program *prog, const char *path)
{
	return write_graph(prog, path, true, NULL);
}

bool dot_write_mfg(const Program *prog, const char *path)
{
	return write_graph(prog, path, false, NULL);
}

bool dot_write_func(const Program *prog, const char *func, bool mtg, const char *path)
{
	if (!program_find_func(prog, intern(func, strlen(func)))) {
		error_plain("no function '%s' to draw", func);
		return false;
	}
	return write_graph(prog, path, mtg, func);
}
