/*
 * dot.c - back end: the MTG and the MFG as Graphviz graphs, built with the
 * cgraph API (agopen, agsubg, agnode, agedge, agsafeset, agwrite, agclose).
 * One cluster per function; a loop's body is a cluster nested in its
 * level, headed by the RB's own node and closed by the body's EMT, so that
 * edges into an RB end at the cluster's border (lhead) and edges out of it
 * leave from there (ltail).
 *
 * --dot draws an overview that a person can read for a network of a few
 * hundred operators: per function only its own level, loops as one node,
 * chains (an MT whose one successor has it as its one predecessor)
 * collapsed into one node, and functions that are one node after that left
 * out (counted in the graph's label).  --dot-func draws one function in
 * full.  --dot-sched draws the schedules: a cluster per core, its tasks in
 * order (runs with no wait between them as one node), and the waits for
 * other cores as red edges.
 *
 * Drawing convention (OSCAR's, with what DOT can draw):
 *   MTG: solid edge = data dependence, dotted edge = extended control
 *        dependence labelled with the branch direction (T/F), leaving its
 *        branch MT from a small circle (OSCAR's branch circle).  Edges in one
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

/*
 * Functions whose name another function of the drawing also has (two
 * static ones in two files), by Func.id; set while a graph is drawn.
 */
static struct {
	bool *clash;
	uint32_t n;
} names_seen;

/* Marks the functions of funcs whose name is not theirs alone. */
static void find_clashes(Func *const *funcs, uint32_t n)
{
	uint32_t top = 0;

	for (uint32_t i = 0; i < n; i++)
		top = (uint32_t)funcs[i]->id + 1 > top ? (uint32_t)funcs[i]->id + 1 : top;
	names_seen.clash = xcalloc(top + 1, sizeof(bool));
	names_seen.n = top;
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = i + 1; j < n; j++)
			if (funcs[i]->name == funcs[j]->name && funcs[i] != funcs[j])
				names_seen.clash[funcs[i]->id] = names_seen.clash[funcs[j]->id] = true;
}

static void forget_clashes(void)
{
	free(names_seen.clash);
	names_seen.clash = NULL;
	names_seen.n = 0;
}

/* f's name in the graph: its own, or "name@id" when another function has it too. */
static const char *func_key(const Func *f)
{
	static char buf[NAME_MAX_LEN];

	if (f->id < 0 || (uint32_t)f->id >= names_seen.n || !names_seen.clash[f->id])
		return intern_name(f->name);
	snprintf(buf, sizeof(buf), "%s@%d", intern_name(f->name), f->id);
	return buf;
}

/* "f" for a function's level, "f/MT4.2" for a loop body's. */
static void level_id(char *buf, size_t size, const MfgLevel *lv)
{
	const MT *owner = lv->owner;
	const char *f = func_key(owner->func);
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

/*
 * A control edge: dotted, leaving its branch MT from a small circle at the
 * node's bottom (OSCAR's branch circle, drawn as the edge's tail).
 */
static void branch_tail(Agedge_t *e)
{
	set(e, "style", "dotted");
	set(e, "dir", "both");
	set(e, "arrowtail", "odot");
	set(e, "tailport", "s");
}

static void draw_mtg_edges(Dot *d, const MfgLevel *lv)
{
	char buf[NAME_MAX_LEN * 2];

	for (uint32_t i = 0; i < lv->mtg.len; i++) {
		const MtgEdge *m = &lv->mtg.items[i];
		Agedge_t *e = draw_edge(d, lv, m->from, m->to);
		char label[32] = "";

		if (m->control) {
			branch_tail(e);
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

/* ---- the overview: a function's own level, chains collapsed ---- */

/*
 * Per MTG edge: is it a plain AND edge implied by a path of other edges
 * (A->C beside A->B->C)?  The overview leaves those out: a straight line
 * of calls that all touch one buffer would otherwise be a tangle, and no
 * chain could be collapsed.  Node numbers follow program order.
 */
static bool *implied_mtg_edges(const MfgLevel *lv)
{
	bool *implied = xcalloc(lv->mtg.len + 1, sizeof(*implied));
	Bitset *reach = xcalloc((size_t)lv->n + 2, sizeof(*reach));

	for (int v = 0; v <= lv->n + 1; v++)
		bitset_init(&reach[v], (uint32_t)lv->n + 2);
	for (int v = lv->n + 1; v >= 0; v--) /* edges go forward: successors are done */
		for (uint32_t i = 0; i < lv->mtg.len; i++) {
			const MtgEdge *m = &lv->mtg.items[i];

			if (m->from == v) {
				bitset_set(&reach[v], (uint32_t)m->to);
				bitset_union(&reach[v], &reach[m->to]);
			}
		}
	for (uint32_t i = 0; i < lv->mtg.len; i++) {
		const MtgEdge *m = &lv->mtg.items[i];

		for (uint32_t j = 0; j < lv->mtg.len && !implied[i] && !m->control && !m->group; j++) {
			const MtgEdge *via = &lv->mtg.items[j];

			implied[i] = j != i && via->from == m->from && via->to != m->to &&
			             bitset_has(&reach[via->to], (uint32_t)m->to);
		}
	}
	free(reach); /* the words are the arena's */
	return implied;
}

/* Per node of lv: the first node of its chain (itself if it heads one). */
static int *chain_heads(const MfgLevel *lv, const bool *implied)
{
	int n = lv->n + 2, *in = xcalloc((size_t)n, sizeof(int)), *out = xcalloc((size_t)n, sizeof(int));
	int *next = xcalloc((size_t)n, sizeof(int)), *head = xmalloc((size_t)n * sizeof(int));

	for (uint32_t i = 0; i < lv->mtg.len; i++) {
		const MtgEdge *m = &lv->mtg.items[i];

		if (implied[i])
			continue;
		in[m->to]++;
		out[m->from]++;
		next[m->from] = m->control || m->group ? -1 : m->to;
	}
	for (int v = 0; v < n; v++)
		head[v] = v;
	for (int v = 1; v <= lv->n; v++) {
		int w = next[v];

		if (out[v] == 1 && w > 0 && w <= lv->n && in[w] == 1 && !lv->nodes[v].branch &&
		    lv->nodes[v].live && lv->nodes[w].live)
			head[w] = head[v]; /* node numbers follow program order: v's head is final */
	}
	free(in);
	free(out);
	free(next);
	return head;
}

/* "MT3 .. MT9 (7 MTs)\nlines 120-180\ncalls conv1 .. relu3" for the chain headed by h. */
static void print_chain(FILE *out, const MfgLevel *lv, const int *head, int h)
{
	int last = h, count = 0;
	const MT *first_call = NULL, *last_call = NULL;

	for (int v = h; v <= lv->n; v++) {
		if (head[v] != h)
			continue;
		last = v;
		count++;
		if (lv->nodes[v].mt && lv->nodes[v].mt->kind == MT_SB) {
			first_call = first_call ? first_call : lv->nodes[v].mt;
			last_call = lv->nodes[v].mt;
		}
	}
	if (count == 1) {
		print_label(out, lv, h);
		return;
	}
	mfg_print_node(out, lv, h);
	fputs(" .. ", out);
	mfg_print_node(out, lv, last);
	fprintf(out, " (%d MTs)\\nlines ", count);
	source_print_lines(out, lv->owner->func->src, lv->nodes[h].mt->start, lv->nodes[last].mt->end);
	if (first_call && first_call != last_call)
		fprintf(out, "\\ncalls %s .. %s", intern_name(first_call->callee->name),
		        intern_name(last_call->callee->name));
	else if (first_call)
		fprintf(out, "\\ncall %s", intern_name(first_call->callee->name));
}

static int *chain_heads_of; /* print_to's callback takes a node only: the current chains */

static void print_chain_of(FILE *out, const MfgLevel *lv, int node)
{
	print_chain(out, lv, chain_heads_of, node);
}

/* The level's chains as nodes, the MTG edges between them (each pair once). */
static void draw_overview_level(Dot *d, Agraph_t *sub, const MfgLevel *lv, int *head,
                                const bool *implied)
{
	char name[NAME_MAX_LEN], buf[NAME_MAX_LEN * 2];

	chain_heads_of = head;
	for (int i = 1; i <= lv->n; i++) { /* the exit is left out */
		Agnode_t *an;

		if (head[i] != i)
			continue;
		node_name(name, sizeof(name), lv, i);
		an = agnode(sub, name, 1);
		style_node(d, an, lv, i);
		set(an, "label", print_to(buf, sizeof(buf), print_chain_of, lv, i));
	}
	for (uint32_t i = 0; i < lv->mtg.len; i++) {
		const MtgEdge *m = &lv->mtg.items[i];
		Agnode_t *t, *h;
		Agedge_t *e;

		if (implied[i] || head[m->from] == head[m->to] || m->to > lv->n || m->from < 1)
			continue;
		node_name(name, sizeof(name), lv, head[m->from]);
		t = agnode(d->g, name, 0);
		node_name(name, sizeof(name), lv, head[m->to]);
		h = agnode(d->g, name, 0);
		if (agedge(d->g, t, h, NULL, 0))
			continue;
		e = agedge(d->g, t, h, NULL, 1);
		if (m->control) {
			branch_tail(e);
			set(e, "label", m->dir ? "T" : "F");
		}
		if (m->group)
			set(e, "arrowhead", "onormal");
	}
}

/* Chains of the level that hold work (a loop or a call), not just declarations and a return. */
static int working_chains(const MfgLevel *lv, const int *head)
{
	int n = 0;

	for (int i = 1; i <= lv->n; i++) {
		const MT *mt = lv->nodes[i].mt;
		bool first = true;

		if (!mt || mt->kind == MT_BB)
			continue;
		for (int j = head[i]; j < i && first; j++) /* the chain's first loop or call */
			first = head[j] != head[i] || !lv->nodes[j].mt || lv->nodes[j].mt->kind == MT_BB;
		n += first;
	}
	return n;
}

/* Does the level call a function of the program (not a library or runtime function)? */
static bool calls_functions(const MfgLevel *lv)
{
	for (int i = 1; i <= lv->n; i++) {
		const MT *mt = lv->nodes[i].mt;

		if (mt && mt->kind == MT_SB && mt->callee && mt->callee->body)
			return true;
	}
	return false;
}

/* f's plan if it runs in parallel, else NULL. */
static const ParPlan *parallel_plan(const PlanList *plans, const Func *f)
{
	for (uint32_t i = 0; plans && i < plans->len; i++) {
		const ParPlan *p = plans->items[i];

		if (p->func == f && p->tasks.len && !p->why_not && p->sched)
			return p;
	}
	return NULL;
}

/*
 * A function's cluster in the overview; false (nothing drawn) when it is
 * one node that calls nothing and is not parallelized itself.
 */
static bool draw_overview_func(Dot *d, const Func *f, const PlanList *plans)
{
	const MfgLevel *lv = mfg_node(f->mt)->inner;
	const ParPlan *p = parallel_plan(plans, f);
	bool *implied = implied_mtg_edges(lv);
	int *head = chain_heads(lv, implied);
	char name[NAME_MAX_LEN];
	bool draw = working_chains(lv, head) > 1 || calls_functions(lv) || p;
	Agraph_t *c;
	int n;

	if (draw) {
		snprintf(name, sizeof(name), "cluster_%s", func_key(f));
		c = agsubg(d->g, name, 1);
		n = snprintf(name, sizeof(name), "function %s: %d MTs", intern_name(f->name), lv->n);
		n = n < (int)sizeof(name) ? n : (int)sizeof(name) - 1;
		if (p)
			snprintf(name + n, sizeof(name) - (size_t)n,
			         "; parallelized, %u tasks on %d cores, predicted speedup %.2f",
			         p->tasks.len, p->sched->ncores,
			         p->sched->makespan > 0 ? p->sched->seq_time / p->sched->makespan : 1.0);
		set(c, "label", name);
		draw_overview_level(d, c, lv, head, implied);
	}
	free(head);
	free(implied);
	return draw;
}

static bool write_dot(FILE *out, void *g)
{
	return agwrite(g, out) == 0;
}

static void start_graph(Dot *d, bool mtg)
{
	set(d->g, "compound", "true");
	/*
	 * Graphviz 2.43's spline router fails ("illegal values of prev") on some
	 * MFGs whose loop exits are clipped at cluster borders; straight edges
	 * always route.  The MTG has no such edges and keeps its curves.  Crossing
	 * minimisation and network simplex are cut short on MFGs: they hold all
	 * data edges, and dot would spend minutes on a TVM program.
	 */
	if (!mtg) {
		set(d->g, "splines", "line");
		/* MFGs of whole TVM programs: fewer layout passes, seconds instead of minutes */
		set(d->g, "mclimit", "0.05");
		set(d->g, "nslimit", "0.5");
		set(d->g, "nslimit1", "0.5");
	}
	set(d->g, "fontname", "Helvetica");
	agattr(d->g, AGNODE, "shape", "box");
	agattr(d->g, AGNODE, "fontname", "Helvetica");
	agattr(d->g, AGNODE, "fontsize", "10");
	agattr(d->g, AGEDGE, "fontsize", "9");
}

/* Writes the graph to path (through output_write) and closes it. */
static bool finish_graph(Agraph_t *g, const char *path)
{
	OutputStatus st = output_write(path, write_dot, g);

	agclose(g);
	if (st == OUTPUT_CANNOT_CREATE)
		error_plain("%s: %s", path, strerror(errno));
	else if (st == OUTPUT_CANNOT_WRITE)
		error_plain("%s: cannot write the graph", path);
	return st == OUTPUT_OK;
}

/*
 * Functions one below the other, in program order, not side by side: an
 * invisible edge from the first node of the one above (its bottom rank
 * would be better, but the first keeps the clusters aligned at the left)
 * to the first of f's cluster.  Returns f's first node.
 */
static Agnode_t *stack_below(Dot *d, Agnode_t *above, const Func *f)
{
	char name[NAME_MAX_LEN];
	Agraph_t *c;
	Agnode_t *first;
	Agedge_t *e;

	snprintf(name, sizeof(name), "cluster_%s", func_key(f));
	c = agsubg(d->g, name, 0);
	first = c ? agfstnode(c) : NULL;
	if (above && first) {
		e = agedge(d->g, above, first, NULL, 1);
		set(e, "style", "invis");
		set(e, "minlen", "2");
	}
	return first ? first : above;
}

/* --dot: the overview of every function that is more than one node. */
static bool write_overview(const Program *prog, const PlanList *plans, const char *path)
{
	Agdisc_t disc = { &AgMemDisc, &creation_order_ids, &AgIoDisc };
	Dot d = { agopen("mtg", Agdirected, &disc), true };
	uint32_t left = 0;
	char label[256];

	Agnode_t *above = NULL;

	start_graph(&d, true);
	find_clashes(prog->funcs.items, prog->funcs.len);
	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		const Func *f = prog->funcs.items[i];

		if (!f->mt || !mfg_node(f->mt) || !mfg_node(f->mt)->inner)
			continue;
		if (!draw_overview_func(&d, f, plans)) {
			left++;
			continue;
		}
		above = stack_below(&d, above, f);
	}
	snprintf(label, sizeof(label), "macro-task graphs, chains collapsed; %u function%s with one "
	         "chain of work and no call not drawn (--dot-func NAME draws a function in full)",
	         left, left == 1 ? "" : "s");
	set(d.g, "label", label);
	set(d.g, "labelloc", "t");
	forget_clashes();
	return finish_graph(d.g, path);
}

/* only: the one function to draw, NULL for all. */
static bool write_graph(const Program *prog, const char *path, bool mtg, const char *only)
{
	Agdisc_t disc = { &AgMemDisc, &creation_order_ids, &AgIoDisc };
	Dot d = { agopen(mtg ? "mtg" : "mfg", Agdirected, &disc), mtg };

	start_graph(&d, mtg);
	find_clashes(prog->funcs.items, prog->funcs.len);
	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		const Func *f = prog->funcs.items[i];
		char name[NAME_MAX_LEN];
		Agraph_t *c;

		if (!f->mt || !mfg_node(f->mt) || !mfg_node(f->mt)->inner)
			continue;
		if (only && strcmp(only, intern_name(f->name)) != 0)
			continue;
		snprintf(name, sizeof(name), "cluster_%s", func_key(f));
		c = agsubg(d.g, name, 1);
		snprintf(name, sizeof(name), "function %s", intern_name(f->name));
		set(c, "label", name);
		draw_level(&d, c, mfg_node(f->mt)->inner);
	}
	forget_clashes();
	return finish_graph(d.g, path);
}

bool dot_write_mtg(const Program *prog, const PlanList *plans, const char *path)
{
	return write_overview(prog, plans, path);
}

/* ---- the schedules: a cluster per core, runs of tasks, waits across cores ---- */

/* Does task t wait for a task on another core, or another core for it (succ)? */
static bool crosses(const ParPlan *p, uint32_t t, bool succ)
{
	const SchedTask *st = &p->graph.tasks.items[t];
	const SchedList *l = succ ? &st->succ : &st->pred;

	for (uint32_t i = 0; i < l->len; i++)
		if (p->sched->core_of[l->items[i]] != p->sched->core_of[t])
			return true;
	return false;
}

/* Per task: the first task of its run on its core (tasks with no wait between them). */
static uint32_t *run_heads(const ParPlan *p)
{
	uint32_t *head = xmalloc((p->tasks.len + 1) * sizeof(*head));
	const Schedule *s = p->sched;

	for (int c = 0; c < s->ncores; c++) {
		const SchedList *l = &s->core[c];

		for (uint32_t k = 0; k < l->len; k++) {
			uint32_t t = l->items[k], prev = k ? l->items[k - 1] : t;

			head[t] = k && !crosses(p, t, false) && !crosses(p, prev, true) ? head[prev] : t;
		}
	}
	return head;
}

static void task_node_name(char *buf, size_t size, const ParPlan *p, uint32_t t)
{
	snprintf(buf, size, "%s/t%u", func_key(p->func), t);
}

/* A run's node: its tasks' names (first .. last), count and share of the work. */
static void draw_run(Agraph_t *core, const ParPlan *p, const uint32_t *head, const SchedList *l,
                     uint32_t k)
{
	uint32_t t = l->items[k], last = t, n = 0;
	double cost = 0;
	char name[NAME_MAX_LEN], label[NAME_MAX_LEN * 2];
	const char *tn = p->graph.tasks.items[t].name;

	for (uint32_t j = k; j < l->len && head[l->items[j]] == t; j++) {
		last = l->items[j];
		cost += p->graph.tasks.items[last].cost;
		n++;
	}
	if (n == 1)
		snprintf(label, sizeof(label), "%s\n%.1f%% of the work", tn ? tn : "task",
		         p->sched->seq_time > 0 ? 100 * cost / p->sched->seq_time : 0);
	else
		snprintf(label, sizeof(label), "%s .. %s\n%u tasks, %.1f%% of the work", tn ? tn : "task",
		         p->graph.tasks.items[last].name ? p->graph.tasks.items[last].name : "task", n,
		         p->sched->seq_time > 0 ? 100 * cost / p->sched->seq_time : 0);
	task_node_name(name, sizeof(name), p, t);
	set(agnode(core, name, 1), "label", label);
}

static void draw_schedule(Dot *d, const ParPlan *p)
{
	const Schedule *s = p->sched;
	uint32_t *head = run_heads(p);
	char name[NAME_MAX_LEN];
	Agraph_t *fc;

	snprintf(name, sizeof(name), "cluster_%s", func_key(p->func));
	fc = agsubg(d->g, name, 1);
	snprintf(name, sizeof(name), "function %s: %u tasks on %d cores (%s), predicted speedup %.2f",
	         intern_name(p->func->name), p->tasks.len, s->ncores, s->heuristic,
	         s->makespan > 0 ? s->seq_time / s->makespan : 1.0);
	set(fc, "label", name);
	for (int c = 0; c < s->ncores; c++) {
		const SchedList *l = &s->core[c];
		Agnode_t *prev = NULL;
		Agraph_t *core;

		snprintf(name, sizeof(name), "cluster_%s/core%d", func_key(p->func), c);
		core = agsubg(fc, name, 1);
		snprintf(name, sizeof(name), "core %d", c);
		set(core, "label", name);
		for (uint32_t k = 0; k < l->len; k++) {
			Agnode_t *an;

			if (head[l->items[k]] != l->items[k])
				continue;
			draw_run(core, p, head, l, k);
			task_node_name(name, sizeof(name), p, l->items[k]);
			an = agnode(d->g, name, 0);
			if (prev)
				set(agedge(d->g, prev, an, NULL, 1), "color", "grey");
			prev = an;
		}
	}
	for (uint32_t t = 0; t < p->graph.tasks.len; t++) {
		const SchedList *succ = &p->graph.tasks.items[t].succ;

		for (uint32_t i = 0; i < succ->len; i++) {
			uint32_t u = succ->items[i];
			Agnode_t *a, *b;
			Agedge_t *e;

			if (s->core_of[u] == s->core_of[t])
				continue;
			task_node_name(name, sizeof(name), p, head[t]);
			a = agnode(d->g, name, 0);
			task_node_name(name, sizeof(name), p, head[u]);
			b = agnode(d->g, name, 0);
			if (a == b || agedge(d->g, a, b, NULL, 0))
				continue;
			e = agedge(d->g, a, b, NULL, 1);
			set(e, "color", "red");
			set(e, "constraint", "false");
		}
	}
	free(head);
}

bool dot_write_sched(const PlanList *plans, const char *path)
{
	Agdisc_t disc = { &AgMemDisc, &creation_order_ids, &AgIoDisc };
	Dot d = { agopen("schedule", Agdirected, &disc), true };

	Func **funcs = xcalloc(plans->len + 1, sizeof(*funcs));

	start_graph(&d, true);
	for (uint32_t i = 0; i < plans->len; i++)
		funcs[i] = plans->items[i]->func;
	find_clashes(funcs, plans->len);
	free(funcs);
	set(d.g, "label", "static schedules: each core's tasks in order (grey), a run of tasks "
	                  "with no wait as one node; red: a wait for another core");
	set(d.g, "labelloc", "t");
	for (uint32_t i = 0; i < plans->len; i++)
		if (parallel_plan(plans, plans->items[i]->func) == plans->items[i])
			draw_schedule(&d, plans->items[i]);
	forget_clashes();
	return finish_graph(d.g, path);
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
