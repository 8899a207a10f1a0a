/*
 * gantt.c - back end: the static schedules as an SVG Gantt chart (--gantt).
 * One row per core, tasks as boxes as long as they run, colored by their
 * frequency/voltage state, the critical path with a thick border, waits
 * shown (grey: OFF), a time axis.  Drawn with Graphviz's gvc library: every
 * node pinned at its place ("x,y!") and laid out by the "nop" engine
 * (neato -n), then rendered to SVG.
 */
#include <errno.h>
#include <graphviz/gvc.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

#define WIDTH 900.0   /* points for a plan's whole frame */
#define ROW 22.0      /* points between two cores */
#define BAR 16.0      /* height of a task's box */
#define FONT 8.0
#define NTICKS 4

/* Running states fastest first; OFF and waits on their own. */
static const char *const palette[] = { "#d62728", "#ff7f0e", "#ffd92f", "#8fd175",
                                       "#4fa3d9", "#9467bd", "#8c564b" };
#define OFF_COLOR "#bdbdbd"

typedef struct Gantt {
	Agraph_t *g;
	const FvTable *t;
	double y;         /* the next row's centre; Graphviz's y grows upward */
	uint32_t serial;  /* names the nodes that are not tasks */
	char name[512];   /* the plan's function, prefixes its task nodes */
} Gantt;

static void set(void *obj, const char *attr, const char *value)
{
	char a[32], v[512];

	snprintf(a, sizeof(a), "%s", attr);
	snprintf(v, sizeof(v), "%s", value);
	agsafeset(obj, a, v, "");
}

static void setf(void *obj, const char *attr, double value)
{
	char v[32];

	snprintf(v, sizeof(v), "%.4f", value);
	set(obj, attr, v);
}

static const char *state_color(const FvTable *t, int st)
{
	if (st == t->off)
		return OFF_COLOR;
	return palette[st % (int)(sizeof(palette) / sizeof(palette[0]))];
}

/* A box of width w points centred at (x, y), fixed in place; name NULL: a fresh one. */
static Agnode_t *place(Gantt *d, const char *name, double x, double y, double w, double h)
{
	char buf[32], pos[64];
	Agnode_t *n;

	if (!name) {
		snprintf(buf, sizeof(buf), "_n%u", d->serial++);
		name = buf;
	}
	n = agnode(d->g, (char *)name, 1);
	snprintf(pos, sizeof(pos), "%.2f,%.2f!", x, y);
	set(n, "pos", pos);
	set(n, "shape", "box");
	set(n, "fixedsize", "true");
	setf(n, "width", (w > 0.5 ? w : 0.5) / 72);
	setf(n, "height", h / 72);
	setf(n, "fontsize", FONT);
	set(n, "margin", "0");
	set(n, "label", "");
	return n;
}

/* Text without a border, left-aligned at x when left, else centred. */
static void text(Gantt *d, const char *label, double x, double y, bool left)
{
	double w = strlen(label) * FONT * 0.62 + 4;
	Agnode_t *n = place(d, NULL, left ? x + w / 2 : x, y, w, FONT + 4);

	set(n, "shape", "plaintext");
	set(n, "fixedsize", "false"); /* grows if the estimate is short */
	set(n, "label", label);
}

/* A task from x0 to x1 on the current row, its name inside when it fits. */
static void task_box(Gantt *d, const char *task, int st, bool critical, double x0, double x1,
                     const char *tip)
{
	char name[640];
	Agnode_t *n;

	snprintf(name, sizeof(name), "%s/%s", d->name, task);
	n = place(d, name, (x0 + x1) / 2, d->y, x1 - x0, BAR);
	set(n, "style", "filled");
	set(n, "fillcolor", state_color(d->t, st));
	set(n, "tooltip", tip);
	if (critical)
		set(n, "penwidth", "3");
	if (strlen(task) * FONT * 0.6 + 4 <= x1 - x0)
		set(n, "label", task);
}

/* A wait: grey and dashed when OFF, dotted and empty when the core stays on. */
static void idle_box(Gantt *d, const PowerIdle *w, double scale)
{
	Agnode_t *n = place(d, NULL, (w->from + w->to) / 2 * scale, d->y,
	                    (w->to - w->from) * scale, BAR * 0.6);
	char tip[128];

	snprintf(tip, sizeof(tip), "idle %s", d->t->states.items[w->state].name);
	set(n, "tooltip", tip);
	set(n, "color", "#808080");
	if (w->state == d->t->off) {
		set(n, "style", "filled,dashed");
		set(n, "fillcolor", OFF_COLOR);
	} else {
		set(n, "style", "dotted");
	}
}

static bool on_critical_path(const Schedule *s, uint32_t t)
{
	for (uint32_t i = 0; i < s->cp.len; i++)
		if (s->cp.items[i] == t)
			return true;
	return false;
}

/* Core k's tasks (and waits, with a power schedule) on the current row. */
static void draw_core(Gantt *d, const ParPlan *p, int k, double scale)
{
	const Schedule *s = p->sched;
	const PowerSchedule *ps = p->power;
	char label[32], tip[256];

	snprintf(label, sizeof(label), "core %d", k);
	text(d, label, -50, d->y, true);
	for (uint32_t i = 0; i < s->core[k].len; i++) {
		uint32_t t = s->core[k].items[i];
		const char *task = p->graph.tasks.items[t].name;
		double from = ps ? ps->start[t] : s->start[t], to = ps ? ps->finish[t] : s->finish[t];
		int st = ps ? ps->state[t] : FV_FULL;
		char fallback[32];

		if (!task) {
			snprintf(fallback, sizeof(fallback), "t%u", t);
			task = fallback;
		}
		snprintf(tip, sizeof(tip), "%s %s [%.0f, %.0f]", task, d->t->states.items[st].name,
		         from, to);
		task_box(d, task, st, on_critical_path(s, t), from * scale, to * scale, tip);
	}
	for (uint32_t i = 0; ps && i < ps->idle.len; i++)
		if (ps->idle.items[i].core == k)
			idle_box(d, &ps->idle.items[i], scale);
}

/* The time axis under the rows: a rule and NTICKS + 1 labels in seconds. */
static void draw_axis(Gantt *d, double frame)
{
	Agnode_t *rule = place(d, NULL, WIDTH / 2, d->y + ROW / 2, WIDTH, 1);
	char label[32];

	set(rule, "style", "filled");
	set(rule, "fillcolor", "black");
	for (int i = 0; i <= NTICKS; i++) {
		snprintf(label, sizeof(label), "%.3g s", frame * d->t->unit_seconds * i / NTICKS);
		text(d, label, WIDTH * i / NTICKS, d->y, false);
	}
	d->y -= ROW;
}

static void draw_plan(Gantt *d, const ParPlan *p)
{
	const PowerSchedule *ps = p->power;
	double frame = ps ? ps->horizon : p->sched->makespan;
	double scale = frame > 0 ? WIDTH / frame : 0;
	char title[768];

	snprintf(d->name, sizeof(d->name), "%s", intern_name(p->func->name));
	if (ps)
		snprintf(title, sizeof(title), "%s: %d cores, power %s, energy saved %.1f%%", d->name,
		         p->sched->ncores, power_mode_name(ps->mode),
		         ps->energy_full > 0 ? 100 * (1 - ps->energy / ps->energy_full) : 0.0);
	else
		snprintf(title, sizeof(title), "%s: %d cores, %s", d->name, p->sched->ncores,
		         p->sched->heuristic);
	text(d, title, 0, d->y, true);
	d->y -= ROW;
	for (int k = 0; k < p->sched->ncores; k++) {
		draw_core(d, p, k, scale);
		d->y -= ROW;
	}
	draw_axis(d, frame);
	d->y -= ROW / 2;
}

/* One box per state, and the critical path's border. */
static void draw_legend(Gantt *d)
{
	double x = 0;

	for (uint32_t i = 0; i < d->t->states.len; i++) {
		Agnode_t *n = place(d, NULL, x + 8, d->y, 16, BAR * 0.6);

		set(n, "style", "filled");
		set(n, "fillcolor", state_color(d->t, (int)i));
		text(d, d->t->states.items[i].name, x + 18, d->y, true);
		x += 30 + strlen(d->t->states.items[i].name) * FONT * 0.6;
	}
	set(place(d, NULL, x + 8, d->y, 16, BAR * 0.6), "penwidth", "3");
	text(d, "critical path", x + 18, d->y, true);
}

typedef struct Render {
	GVC_t *gvc;
	Agraph_t *g;
} Render;

static bool render_svg(FILE *out, void *ctx)
{
	Render *r = ctx;

	return gvRender(r->gvc, r->g, "svg", out) == 0;
}

/* Renders g to path through the one output writer. */
static bool render_to(GVC_t *gvc, Agraph_t *g, const char *path)
{
	Render r = { gvc, g };

	if (output_write(path, render_svg, &r) == OUTPUT_OK)
		return true;
	error_plain("%s: cannot write the Gantt chart: %s", path,
	            errno ? strerror(errno) : "Graphviz cannot render SVG");
	return false;
}

/*
 * One Graphviz context for the process, never freed: Graphviz 2.42's pango
 * plugin keeps the last font name in a static that gvFreeContext frees, and
 * the next context's layout reads it (a second chart in one process, as a
 * library caller makes, read freed memory).  Runs are serialised.
 */
static GVC_t *process_gvc(void)
{
	static GVC_t *gvc;

	if (!gvc)
		gvc = gvContext();
	return gvc;
}

bool gantt_write(const PlanList *plans, const FvTable *t, const char *path)
{
	Gantt d = { agopen("gantt", Agundirected, NULL), t, 0, 0, "" };
	GVC_t *gvc = process_gvc();
	bool ok;

	agattr(d.g, AGNODE, "fontname", "Helvetica");
	for (uint32_t i = 0; i < plans->len; i++)
		if (plans->items[i]->sched && plans->items[i]->tasks.len > 0)
			draw_plan(&d, plans->items[i]);
	draw_legend(&d);
	errno = 0;
	ok = gvLayout(gvc, d.g, "nop") == 0;
	if (!ok)
		error_plain("%s: cannot draw the Gantt chart: Graphviz has no 'nop' layout", path);
	ok = ok && render_to(gvc, d.g, path);
	gvFreeLayout(gvc, d.g);
	agclose(d.g);
	return ok;
}
