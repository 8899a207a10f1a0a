/*
 * power.c - middle stage: power-aware static scheduling.  Each task of a
 * static schedule gets a frequency/voltage (FV) state and each wait of a
 * core is spent OFF when that pays for the switches, after OSCAR's
 * compiler-controlled power saving (Shirako et al., "Compiler control power
 * saving scheme for multi core processors", LCPC 2005; Kimura et al.,
 * "OSCAR API for real-time low-power multicores", LCPC 2009).
 *
 * Model.  A task of cost c (cost units: one simple operation at FULL) runs
 * in state s for c / f(s) and spends c * V(s)^2 of dynamic energy (energy
 * units: one operation at FULL): the energy of a cycle grows with V
 * squared and the number of cycles does not depend on f.  A core that is
 * on, in any state but OFF, whether busy, waiting or switching, pays
 * static power: static_fraction energy units per cost unit; OFF pays
 * nothing.  A state change takes switch_time (the core is on) and costs
 * switch_energy.  The frame runs from 0 to the horizon (the makespan at
 * FULL in fastest mode, the deadline in deadline mode); every core starts
 * it at FULL and is back at FULL when it ends; after the frame the cores
 * sleep, so nothing after it counts.  A wait of length L goes OFF when L is
 * at least two switch times and the static energy saved,
 * static_fraction * (L - 2 switch_time), beats the extra switches; else the
 * core stays on and switches once if the states around the wait differ.
 * Adjacent tasks in one state share one switch (none between them).  The
 * baseline is the same schedule without power control: every task at
 * FULL, every core on from 0 to the horizon.
 *
 * Algorithm.  Each core keeps its tasks and their order; a task starts as
 * early as its core, its data (with sched.c's transfer time between cores)
 * and the switches allow.  A greedy pass lowers one task at a time: of the
 * lower states that fit the task's slack (its earliest start against the
 * latest start of what follows it, ALAP against the horizon), it takes the
 * change with the most energy saved per unit of time added, so slack is
 * spread thinly before it is spent deeply, and keeps it when the exact
 * energy of the whole schedule drops.  Tasks without slack (the critical
 * path) stay FULL.  Deadline mode runs the pass on the critical tasks
 * first, then on all of them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "middle.h"

/* ---- the table ---- */

static const FvState default_states[] = {
	{ "FULL", 1, 1 }, { "MID", 0.5, 0.87 }, { "LOW", 0.25, 0.71 }, { "OFF", 0, 0 },
};

#define DEFAULT_STATIC 0.1
#define DEFAULT_SWITCH_S 10e-6        /* a DVFS transition: tens of microseconds */
#define DEFAULT_SWITCH_ENERGY_S 10e-6 /* as much as FULL's dynamic power in that time */
#define DEFAULT_UNIT_S 1e-9           /* one simple operation at FULL */
#define MAX_STATES 32
#define MAX_TOKENS 8

/* The OFF state: the one with frequency 0 (only the last can have it). */
static int find_off(const FvTable *t)
{
	if (t->states.len > 0 && array_last(&t->states).freq == 0)
		return (int)t->states.len - 1;
	return -1;
}

/* Switch time and energy from seconds into the model's units. */
static void set_switch(FvTable *t, double time_s, double energy_s)
{
	t->switch_time = time_s / t->unit_seconds;
	t->switch_energy = energy_s / t->unit_seconds;
}

FvTable *power_fv_default(void)
{
	FvTable *t = ARENA_NEW(FvTable);

	for (size_t i = 0; i < sizeof(default_states) / sizeof(default_states[0]); i++)
		array_push(&t->states, default_states[i]);
	t->off = find_off(t);
	t->static_fraction = DEFAULT_STATIC;
	t->unit_seconds = DEFAULT_UNIT_S;
	set_switch(t, DEFAULT_SWITCH_S, DEFAULT_SWITCH_ENERGY_S);
	return t;
}

/* A word of a table line. */
typedef struct Tok {
	const char *s;
	uint32_t len, at;       /* at: byte offset in the file, for diagnostics */
} Tok;

typedef struct TableFile {
	FvTable *t;
	const Source *src;
	Array(FvState) states;  /* the file's state lines, if any */
	double switch_s, switch_energy_s;
} TableFile;

static bool tok_is(const Tok *k, const char *word)
{
	return k->len == strlen(word) && memcmp(k->s, word, k->len) == 0;
}

/* Splits bytes [at, end) into words up to a '#'; returns their number (at most max + 1). */
static int split_line(const Source *src, uint32_t at, uint32_t end, Tok *tok, int max)
{
	int n = 0;

	while (at < end && src->text[at] != '#') {
		uint32_t from;

		if (strchr(" \t\r\n", src->text[at])) {
			at++;
			continue;
		}
		for (from = at; at < end && !strchr(" \t\r\n#", src->text[at]); at++)
			;
		if (n < max)
			tok[n] = (Tok){ src->text + from, at - from, from };
		if (n <= max)
			n++;
	}
	return n;
}

/* Seconds per suffix of a time value; 0 for an unknown suffix. */
static double time_scale(const char *suffix)
{
	static const struct { const char *s; double scale; } units[] = {
		{ "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(suffix, units[i].s) == 0)
			return units[i].scale;
	return 0;
}

/* A number ("0.87", "1/4", "1e-3"), with a time suffix (s, ms, us, ns) when time. */
static bool parse_value(const Tok *k, bool time, double *v)
{
	char buf[64], *end;
	double scale = 1;

	if (k->len >= sizeof(buf))
		return false;
	memcpy(buf, k->s, k->len);
	buf[k->len] = '\0';
	*v = strtod(buf, &end);
	if (end == buf)
		return false;
	if (*end == '/') {
		char *den = end + 1;
		double d = strtod(den, &end);

		if (end == den || !(d > 0))
			return false;
		*v /= d;
	}
	if (time)
		scale = time_scale(end);
	else if (*end != '\0')
		scale = 0;
	*v *= scale;
	return scale > 0 && isfinite(*v);
}

static bool is_identifier(const Tok *k)
{
	for (uint32_t i = 0; i < k->len; i++) {
		char c = k->s[i];
		bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';

		if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
			return false;
	}
	return k->len > 0;
}

/* The value of a `keyword VALUE` line, or false after a diagnostic. */
static bool line_value(TableFile *f, const Tok *tok, int n, bool time, double *v)
{
	if (n < 2) {
		error_at(f->src, tok[0].at + tok[0].len, "missing value after '%.*s'",
		         (int)tok[0].len, tok[0].s);
		return false;
	}
	if (n > 2) {
		error_at(f->src, tok[2].at, "unexpected '%.*s' after the value", (int)tok[2].len, tok[2].s);
		return false;
	}
	if (!parse_value(&tok[1], time, v)) {
		error_at(f->src, tok[1].at, "bad %s '%.*s'", time ? "time" : "number",
		         (int)tok[1].len, tok[1].s);
		return false;
	}
	return true;
}

/* static F, switch-time T, switch-energy T, unit T: non-negative, the unit positive. */
static bool parse_setting(TableFile *f, const Tok *tok, int n)
{
	bool is_static = tok_is(&tok[0], "static"), is_unit = tok_is(&tok[0], "unit");
	double v;

	if (!line_value(f, tok, n, !is_static, &v))
		return false;
	if (v < 0 || (is_unit && v == 0)) {
		error_at(f->src, tok[1].at, "'%.*s' must be %s", (int)tok[0].len, tok[0].s,
		         is_unit ? "positive" : "zero or more");
		return false;
	}
	if (is_static)
		f->t->static_fraction = v;
	else if (is_unit)
		f->t->unit_seconds = v;
	else if (tok_is(&tok[0], "switch-time"))
		f->switch_s = v;
	else
		f->switch_energy_s = v;
	return true;
}

/* Is state st (at token k) a valid next state: a new name, ordered, in range? */
static bool check_state(TableFile *f, const FvState *st, const Tok *tok)
{
	const FvState *prev = f->states.len ? &array_last(&f->states) : NULL;

	for (uint32_t i = 0; i < f->states.len; i++)
		if (strcmp(f->states.items[i].name, st->name) == 0) {
			error_at(f->src, tok[1].at, "state '%s' is defined twice", st->name);
			return false;
		}
	if (!(st->freq >= 0 && st->freq <= 1)) {
		error_at(f->src, tok[2].at, "frequency %g is not in [0, 1] (a fraction of the nominal)", st->freq);
		return false;
	}
	if (!prev && st->freq != 1) {
		error_at(f->src, tok[2].at, "the first state must run at frequency 1 (the nominal speed)");
		return false;
	}
	if (prev && !(st->freq < prev->freq)) {
		error_at(f->src, tok[2].at, "states go from the fastest to the slowest: '%s' at %g follows '%s' at %g",
		         st->name, st->freq, prev->name, prev->freq);
		return false;
	}
	if (!(st->volt >= 0) || (st->freq > 0 && st->volt == 0)) {
		error_at(f->src, tok[3].at, "voltage %g of a running state must be positive", st->volt);
		return false;
	}
	return true;
}

/* state NAME FREQ VOLT */
static bool parse_state(TableFile *f, const Tok *tok, int n)
{
	FvState st;

	if (n != 4) {
		uint32_t at = n > 4 ? tok[4].at : tok[n - 1].at + tok[n - 1].len;

		error_at(f->src, at, "expected 'state NAME FREQUENCY VOLTAGE'");
		return false;
	}
	if (!is_identifier(&tok[1])) {
		error_at(f->src, tok[1].at, "state name '%.*s' is not an identifier", (int)tok[1].len, tok[1].s);
		return false;
	}
	if (f->states.len == MAX_STATES) {
		error_at(f->src, tok[0].at, "more than %d states", MAX_STATES);
		return false;
	}
	st.name = arena_strndup(tok[1].s, tok[1].len);
	if (!parse_value(&tok[2], false, &st.freq) || !parse_value(&tok[3], false, &st.volt)) {
		const Tok *bad = parse_value(&tok[2], false, &st.freq) ? &tok[3] : &tok[2];

		error_at(f->src, bad->at, "bad number '%.*s'", (int)bad->len, bad->s);
		return false;
	}
	if (!check_state(f, &st, tok))
		return false;
	array_push(&f->states, st);
	return true;
}

static bool parse_line(TableFile *f, const Tok *tok, int n)
{
	if (n == 0)
		return true;
	if (n > MAX_TOKENS) {
		error_at(f->src, tok[MAX_TOKENS - 1].at, "line too long");
		return false;
	}
	if (tok_is(&tok[0], "state"))
		return parse_state(f, tok, n);
	if (tok_is(&tok[0], "static") || tok_is(&tok[0], "switch-time") ||
	    tok_is(&tok[0], "switch-energy") || tok_is(&tok[0], "unit"))
		return parse_setting(f, tok, n);
	error_at(f->src, tok[0].at,
	         "unknown keyword '%.*s' (expected state, static, switch-time, switch-energy or unit)",
	         (int)tok[0].len, tok[0].s);
	return false;
}

FvTable *power_fv_load(const char *path)
{
	Source *src = source_read(path);
	TableFile f = { power_fv_default(), src, { 0 }, DEFAULT_SWITCH_S, DEFAULT_SWITCH_ENERGY_S };
	bool ok = src != NULL;

	for (uint32_t i = 0; ok && i < src->nlines; i++) {
		uint32_t end = i + 1 < src->nlines ? src->line_start[i + 1] : src->len;
		Tok tok[MAX_TOKENS + 1];
		int n = split_line(src, src->line_start[i], end, tok, MAX_TOKENS);

		ok = parse_line(&f, tok, n);
	}
	if (!ok) {
		array_free(&f.states);
		source_free(src);
		return NULL;
	}
	f.t->path = path;
	if (f.states.len > 0)
		f.t->states.len = 0;
	for (uint32_t i = 0; i < f.states.len; i++)
		array_push(&f.t->states, f.states.items[i]);
	array_free(&f.states);
	source_free(src); /* the states' names are the arena's */
	f.t->off = find_off(f.t);
	set_switch(f.t, f.switch_s, f.switch_energy_s);
	return f.t;
}

const char *power_mode_name(PowerMode m)
{
	static const char *const names[] = {
#define X(kind, name) name,
		POWER_MODES(X)
#undef X
	};

	return (unsigned)m < sizeof(names) / sizeof(names[0]) ? names[m] : "?";
}

/* ---- one assignment: its timing (ASAP) and slack windows (ALAP) ---- */

#define NONE UINT32_MAX

typedef struct Power {
	const TaskGraph *g;
	const Schedule *s;
	const FvTable *t;
	uint32_t n;
	double horizon;
	uint32_t *order;  /* the tasks in a topological order of data and core edges */
	uint32_t *pos;    /* per task: its index in its core's list */
	int *state;       /* per task: the assignment */
	double *es, *ef;  /* earliest start and finish */
	double *ready;    /* when the data of every predecessor has arrived */
	double *ls;       /* latest start that keeps everything after it in the frame */
	double *due;      /* latest finish that its data successors allow */
} Power;

/* a <= b up to rounding. */
static bool fits(double a, double b)
{
	return a <= b + 1e-9 * (1 + fabs(b));
}

static double dur(const Power *p, uint32_t t, int st)
{
	return p->g->tasks.items[t].cost / p->t->states.items[st].freq;
}

static double volt2(const Power *p, int st)
{
	double v = p->t->states.items[st].volt;

	return v * v;
}

/* Time the core needs between state a and state b. */
static double gap(const Power *p, int a, int b)
{
	return a != b ? p->t->switch_time : 0;
}

static uint32_t core_prev(const Power *p, uint32_t t)
{
	const SchedList *l = &p->s->core[p->s->core_of[t]];

	return p->pos[t] > 0 ? l->items[p->pos[t] - 1] : NONE;
}

static uint32_t core_next(const Power *p, uint32_t t)
{
	const SchedList *l = &p->s->core[p->s->core_of[t]];

	return p->pos[t] + 1 < l->len ? l->items[p->pos[t] + 1] : NONE;
}

/* The state the core is in before t (FULL at the frame's start) and after it. */
static int state_before(const Power *p, uint32_t t)
{
	uint32_t u = core_prev(p, t);

	return u == NONE ? FV_FULL : p->state[u];
}

static int state_after(const Power *p, uint32_t t)
{
	uint32_t v = core_next(p, t);

	return v == NONE ? FV_FULL : p->state[v];
}

/* Transfer time of t's k-th successor edge, as sched.c charges it. */
static double transfer(const Power *p, uint32_t t, uint32_t k)
{
	const SchedTask *task = &p->g->tasks.items[t];
	uint32_t v = task->succ.items[k];
	double bytes = k < task->succ_bytes.len ? task->succ_bytes.items[k] : 0;

	return p->s->core_of[t] == p->s->core_of[v] ? 0 : bytes * p->s->transfer_per_byte;
}

/* Kahn's algorithm over data edges and core order, ties by index. */
static void fill_order(Power *p)
{
	uint32_t *indeg = xcalloc(p->n + 1, sizeof(*indeg));
	uint32_t head = 0, tail = 0;

	for (uint32_t t = 0; t < p->n; t++)
		indeg[t] = p->g->tasks.items[t].pred.len + (p->pos[t] > 0);
	for (uint32_t t = 0; t < p->n; t++)
		if (indeg[t] == 0)
			p->order[tail++] = t;
	while (head < tail) {
		uint32_t t = p->order[head++], v = core_next(p, t);
		const SchedList *succ = &p->g->tasks.items[t].succ;

		if (v != NONE && --indeg[v] == 0)
			p->order[tail++] = v;
		for (uint32_t k = 0; k < succ->len; k++)
			if (--indeg[succ->items[k]] == 0)
				p->order[tail++] = succ->items[k];
	}
	if (tail != p->n)
		die("power: the schedule's core order contradicts the task graph");
	free(indeg);
}

static void power_init(Power *p, const TaskGraph *g, const Schedule *s, const FvTable *t,
                       double horizon)
{
	uint32_t n1 = g->tasks.len + 1;

	memset(p, 0, sizeof(*p));
	p->g = g;
	p->s = s;
	p->t = t;
	p->n = g->tasks.len;
	p->horizon = horizon;
	p->order = arena_alloc(n1 * sizeof(*p->order));
	p->pos = arena_alloc(n1 * sizeof(*p->pos));
	p->state = arena_alloc(n1 * sizeof(*p->state));
	p->es = arena_alloc(n1 * sizeof(*p->es));
	p->ef = arena_alloc(n1 * sizeof(*p->ef));
	p->ready = arena_alloc(n1 * sizeof(*p->ready));
	p->ls = arena_alloc(n1 * sizeof(*p->ls));
	p->due = arena_alloc(n1 * sizeof(*p->due));
	for (int k = 0; k < s->ncores; k++)
		for (uint32_t i = 0; i < s->core[k].len; i++)
			p->pos[s->core[k].items[i]] = i;
	fill_order(p);
}

/* ASAP: es, ef and ready of every task under the current assignment. */
static void forward(Power *p)
{
	for (uint32_t t = 0; t < p->n; t++)
		p->ready[t] = 0;
	for (uint32_t i = 0; i < p->n; i++) {
		uint32_t t = p->order[i], u = core_prev(p, t);
		const SchedTask *task = &p->g->tasks.items[t];
		double at = u == NONE ? gap(p, FV_FULL, p->state[t])
		                      : p->ef[u] + gap(p, p->state[u], p->state[t]);

		p->es[t] = at > p->ready[t] ? at : p->ready[t];
		p->ef[t] = p->es[t] + dur(p, t, p->state[t]);
		for (uint32_t k = 0; k < task->succ.len; k++) {
			uint32_t v = task->succ.items[k];
			double arrive = p->ef[t] + transfer(p, t, k);

			if (arrive > p->ready[v])
				p->ready[v] = arrive;
		}
	}
}

/* ALAP against the horizon: ls and due of every task. */
static void backward(Power *p)
{
	for (uint32_t i = p->n; i-- > 0;) {
		uint32_t t = p->order[i], v = core_next(p, t);
		const SchedTask *task = &p->g->tasks.items[t];
		double due = HUGE_VAL, limit;

		for (uint32_t k = 0; k < task->succ.len; k++) {
			double by = p->ls[task->succ.items[k]] - transfer(p, t, k);

			if (by < due)
				due = by;
		}
		p->due[t] = due;
		limit = v == NONE ? p->horizon - gap(p, p->state[t], FV_FULL)
		                  : p->ls[v] - gap(p, p->state[t], p->state[v]);
		p->ls[t] = (due < limit ? due : limit) - dur(p, t, p->state[t]);
	}
}

/* Does the forward timing fit the frame (each core back at FULL by the horizon)? */
static bool timing_fits(const Power *p)
{
	for (uint32_t t = 0; t < p->n; t++)
		if (core_next(p, t) == NONE &&
		    !fits(p->ef[t] + gap(p, p->state[t], FV_FULL), p->horizon))
			return false;
	return true;
}

/* ---- the waits of each core, their state, and the energy ---- */

typedef struct Tally {
	uint32_t nswitches;
	double off_time;  /* all cores, the switches into and out of OFF excluded */
} Tally;

/* Does a wait of length len between states that differ (or not) pay for going OFF? */
static bool off_pays(const Power *p, double len, bool differ)
{
	const FvTable *t = p->t;
	double off = len - 2 * t->switch_time;

	return t->off >= 0 && off > 0 && t->static_fraction * off > t->switch_energy * (2 - differ);
}

static void add_switch(PowerSchedule *ps, int k, uint32_t pos, int state, bool wake, double at)
{
	PowerSwitch sw = { pos, state, wake, at };

	array_push(&ps->switches[k], sw);
	ps->nswitches++;
}

static void add_idle(PowerSchedule *ps, int k, uint32_t pos, double from, double to, int state)
{
	PowerIdle w = { k, pos, from, to, state };

	if (to - from > 1e-9 * (1 + ps->horizon))
		array_push(&ps->idle, w);
}

/*
 * The wait [from, to) of core k before its task pos (pos == len: the frame's
 * end), from state cur to state next: OFF, or on with at most one switch at
 * its start.  Records switches and the wait in ps unless ps is NULL.
 */
static void wait_state(const Power *p, Tally *tally, PowerSchedule *ps, int k, uint32_t pos,
                       double from, double to, int cur, int next)
{
	bool differ = cur != next;

	if (off_pays(p, to - from, differ)) {
		tally->nswitches += 2;
		tally->off_time += to - from - 2 * p->t->switch_time;
		if (ps) {
			add_switch(ps, k, pos, p->t->off, false, from);
			add_switch(ps, k, pos, next, true, to - p->t->switch_time);
			add_idle(ps, k, pos, from, to, p->t->off);
		}
		return;
	}
	tally->nswitches += differ;
	if (ps) {
		if (differ)
			add_switch(ps, k, pos, next, false, from);
		add_idle(ps, k, pos, from, to, next);
	}
}

/* Every wait of every core, from the forward timing. */
static void walk_cores(const Power *p, Tally *tally, PowerSchedule *ps)
{
	memset(tally, 0, sizeof(*tally));
	for (int k = 0; k < p->s->ncores; k++) {
		const SchedList *l = &p->s->core[k];
		double at = 0;
		int cur = FV_FULL;

		for (uint32_t i = 0; i < l->len; i++) {
			uint32_t t = l->items[i];

			wait_state(p, tally, ps, k, i, at, p->es[t], cur, p->state[t]);
			at = p->ef[t];
			cur = p->state[t];
		}
		wait_state(p, tally, ps, k, l->len, at, p->horizon, cur, FV_FULL);
	}
}

static double dynamic_energy(const Power *p)
{
	double e = 0;

	for (uint32_t t = 0; t < p->n; t++)
		e += p->g->tasks.items[t].cost * volt2(p, p->state[t]);
	return e;
}

static double static_energy(const Power *p, const Tally *tally)
{
	return p->t->static_fraction * (p->s->ncores * p->horizon - tally->off_time);
}

/* Energy of the assignment, after forward(). */
static double energy(const Power *p)
{
	Tally tally;

	walk_cores(p, &tally, NULL);
	return dynamic_energy(p) + static_energy(p, &tally) + tally.nswitches * p->t->switch_energy;
}

/* Tasks with no slack at FULL in a frame as long as the schedule. */
static bool *find_critical(Power *p)
{
	bool *critical = arena_alloc((p->n + 1) * sizeof(*critical));
	double horizon = p->horizon;

	p->horizon = p->s->makespan;
	forward(p);
	backward(p);
	for (uint32_t t = 0; t < p->n; t++)
		critical[t] = fits(p->ls[t], p->es[t]);
	p->horizon = horizon;
	return critical;
}

static PowerSchedule *build(const Power *p, const bool *critical)
{
	PowerSchedule *ps = ARENA_NEW(PowerSchedule);
	uint32_t n1 = p->n + 1;
	double seq = 0;
	Tally tally;

	ps->table = p->t;
	ps->horizon = p->horizon;
	ps->state = arena_alloc(n1 * sizeof(*ps->state));
	ps->start = arena_alloc(n1 * sizeof(*ps->start));
	ps->finish = arena_alloc(n1 * sizeof(*ps->finish));
	ps->critical = arena_alloc(n1 * sizeof(*ps->critical));
	ps->switches = arena_alloc((p->s->ncores + 1) * sizeof(*ps->switches));
	for (uint32_t t = 0; t < p->n; t++) {
		ps->state[t] = p->state[t];
		ps->start[t] = p->es[t];
		ps->finish[t] = p->ef[t];
		ps->critical[t] = critical[t];
		if (p->ef[t] > ps->makespan)
			ps->makespan = p->ef[t];
		seq += p->g->tasks.items[t].cost;
	}
	walk_cores(p, &tally, ps);
	ps->energy_dynamic = dynamic_energy(p);
	ps->energy_static = static_energy(p, &tally);
	ps->energy_switch = tally.nswitches * p->t->switch_energy;
	ps->energy = ps->energy_dynamic + ps->energy_static + ps->energy_switch;
	ps->makespan_full = p->s->makespan;
	ps->energy_full = seq + p->t->static_fraction * p->s->ncores * p->horizon;
	return ps;
}

PowerSchedule *power_evaluate(const TaskGraph *g, const Schedule *s, const FvTable *t,
                              double horizon, const int *state)
{
	Power p;
	bool *critical;

	power_init(&p, g, s, t, horizon);
	critical = find_critical(&p);
	for (uint32_t i = 0; i < p.n; i++) {
		if (state[i] < 0 || (uint32_t)state[i] >= t->states.len || state[i] == t->off)
			die("power_evaluate: task %u in state %d", i, state[i]);
		p.state[i] = state[i];
	}
	forward(&p);
	if (!timing_fits(&p))
		return NULL;
	return build(&p, critical);
}

/* ---- the greedy pass ---- */

/*
 * Lowering a run of adjacent tasks of one core, all in one state, to state
 * `to`: a single task, or a longer run whose tasks keep sharing their
 * switches (one task at a time would pay two switches each).
 */
typedef struct Move {
	int core;
	uint32_t pos, len;  /* the run: Schedule.core[core].items[pos .. pos + len) */
	int to;
	double saving;      /* estimated: dynamic and switch energy (static not counted) */
	double added;       /* time added on the core */
	double rate;        /* saving per unit of time added; HUGE_VAL when none is added */
} Move;

typedef Array(Move) MoveList;

/* Moves rejected for good: per first task and state, the run length (0: none). */
typedef struct Rejects {
	uint32_t ns;
	uint32_t *len;
} Rejects;

#define TRIES 8 /* moves evaluated exactly per step, the best kept */

static uint32_t run_task(const Power *p, const Move *m, uint32_t i)
{
	return p->s->core[m->core].items[m->pos + i];
}

/*
 * Does single task t fit in state b, everything else unchanged?  Its
 * predecessors' finish and its successors' latest start do not depend on
 * it: only its own start and finish, with the switches next to it, change.
 */
static bool single_fits(const Power *p, uint32_t t, int b)
{
	uint32_t u = core_prev(p, t), v = core_next(p, t);
	double head = u == NONE ? gap(p, FV_FULL, b) : p->ef[u] + gap(p, p->state[u], b);
	double fin, limit;

	if (p->ready[t] > head)
		head = p->ready[t];
	fin = head + dur(p, t, b);
	limit = v == NONE ? p->horizon - gap(p, b, FV_FULL) : p->ls[v] - gap(p, b, p->state[v]);
	return fits(fin, p->due[t]) && fits(fin, limit);
}

/* The local effect of m: energy saved and time added; false when it saves nothing. */
static bool estimate(const Power *p, Move *m)
{
	uint32_t first = run_task(p, m, 0), last = run_task(p, m, m->len - 1);
	int a = p->state[first], before = state_before(p, first), after = state_after(p, last);
	int dsw = (before != m->to) + (m->to != after) - (before != a) - (a != after);
	double dyn = 0, added = dsw * p->t->switch_time;

	for (uint32_t i = 0; i < m->len; i++) {
		uint32_t t = run_task(p, m, i);

		dyn += p->g->tasks.items[t].cost * (volt2(p, a) - volt2(p, m->to));
		added += dur(p, t, m->to) - dur(p, t, a);
	}
	m->saving = dyn - dsw * p->t->switch_energy;
	m->added = added;
	m->rate = added > 0 ? m->saving / added : HUGE_VAL;
	return m->saving > 0;
}

/* Best rate first, then more saving, then core, place and state for determinism. */
static int move_cmp(const void *pa, const void *pb)
{
	const Move *a = pa, *b = pb;

	if (a->rate != b->rate)
		return a->rate > b->rate ? -1 : 1;
	if (a->saving != b->saving)
		return a->saving > b->saving ? -1 : 1;
	if (a->core != b->core)
		return a->core < b->core ? -1 : 1;
	if (a->pos != b->pos)
		return a->pos < b->pos ? -1 : 1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return a->to < b->to ? -1 : a->to > b->to;
}

static bool rejected(const Power *p, const Rejects *r, const Move *m)
{
	return r->len[run_task(p, m, 0) * r->ns + m->to] == m->len;
}

/* Adds the moves of run [pos, pos + len) of core k that are not rejected and save. */
static void add_moves(const Power *p, const Rejects *r, int k, uint32_t pos, uint32_t len,
                      MoveList *moves)
{
	uint32_t t = p->s->core[k].items[pos];

	for (int b = p->state[t] + 1; b < (int)p->t->states.len && b != p->t->off; b++) {
		Move m = { k, pos, len, b, 0, 0, 0 };

		if (rejected(p, r, &m) || (len == 1 && !single_fits(p, t, b)))
			continue;
		if (estimate(p, &m))
			array_push(moves, m);
	}
}

/* Can t change at all: in `only` (NULL: all) and with some slack? */
static bool movable(const Power *p, const bool *only, uint32_t t)
{
	return (!only || only[t]) && !fits(p->ls[t], p->es[t]);
}

/*
 * Every single task, and every maximal run of two or more movable tasks in
 * one state, of core k.
 */
static void core_moves(const Power *p, const bool *only, const Rejects *r, int k,
                       MoveList *moves)
{
	const SchedList *l = &p->s->core[k];

	for (uint32_t i = 0, j; i < l->len; i = j) {
		if (!movable(p, only, l->items[i])) {
			j = i + 1;
			continue;
		}
		add_moves(p, r, k, i, 1, moves);
		for (j = i + 1; j < l->len && movable(p, only, l->items[j]) &&
		                p->state[l->items[j]] == p->state[l->items[i]]; j++)
			add_moves(p, r, k, j, 1, moves);
		if (j - i >= 2)
			add_moves(p, r, k, i, j - i, moves);
	}
}

static void collect_moves(const Power *p, const bool *only, const Rejects *r, MoveList *moves)
{
	moves->len = 0;
	for (int k = 0; k < p->s->ncores; k++)
		core_moves(p, only, r, k, moves);
	if (moves->len > 1) /* qsort wants an array, even for none */
		qsort(moves->items, moves->len, sizeof(*moves->items), move_cmp);
}

static void set_run(Power *p, const Move *m, int st)
{
	for (uint32_t i = 0; i < m->len; i++)
		p->state[run_task(p, m, i)] = st;
}

/* The exact energy with m applied, HUGE_VAL when it does not fit; p is left as it was. */
static double try_move(Power *p, const Move *m)
{
	int old = p->state[run_task(p, m, 0)];
	double e;

	set_run(p, m, m->to);
	forward(p);
	e = timing_fits(p) ? energy(p) : HUGE_VAL;
	set_run(p, m, old);
	return e;
}

/*
 * Evaluates the moves exactly, TRIES at a time in their order, and applies
 * the one of each batch that saves most per unit of time added; moves that
 * save nothing are rejected for good.  True when one was applied; *cur is
 * the energy.
 */
static bool apply_best(Power *p, const MoveList *moves, Rejects *r, double *cur)
{
	for (uint32_t from = 0; from < moves->len; from += TRIES) {
		const Move *best = NULL;
		double best_e = 0, best_rate = 0;

		for (uint32_t i = from; i < moves->len && i < from + TRIES; i++) {
			const Move *m = &moves->items[i];
			double e = try_move(p, m), saved = *cur - e, rate;

			if (!(saved > 1e-12 * fabs(*cur))) {
				r->len[run_task(p, m, 0) * r->ns + m->to] = m->len;
				continue;
			}
			rate = m->added > 0 ? saved / m->added : HUGE_VAL;
			if (!best || rate > best_rate) {
				best = m;
				best_e = e;
				best_rate = rate;
			}
		}
		if (best) {
			set_run(p, best, best->to);
			*cur = best_e;
			return true;
		}
	}
	return false;
}

#define ROUNDS 4 /* passes over the moves, each forgetting the last one's rejections */

/*
 * Lowers tasks of `only` (NULL: all) while the energy drops.  A move is
 * rejected by its effect on the whole schedule (a wait elsewhere that no
 * longer pays for OFF), which later moves can change: a new round tries
 * the rejected ones again.
 */
static void lower_tasks(Power *p, const bool *only, double *cur)
{
	Rejects r = { p->t->states.len, NULL };
	MoveList moves = { 0 };
	bool changed = true;

	r.len = xmalloc(((size_t)p->n * r.ns + 1) * sizeof(*r.len));
	for (int round = 0; changed && round < ROUNDS; round++) {
		memset(r.len, 0, ((size_t)p->n * r.ns + 1) * sizeof(*r.len));
		changed = false;
		for (;;) {
			forward(p);
			backward(p);
			collect_moves(p, only, &r, &moves);
			if (!apply_best(p, &moves, &r, cur))
				break;
			changed = true;
		}
	}
	forward(p);
	array_free(&moves);
	free(r.len);
}

PowerSchedule *power_assign(const TaskGraph *g, const Schedule *s, const FvTable *t,
                            PowerMode mode, double deadline)
{
	double horizon = mode == POWER_DEADLINE ? deadline : s->makespan;
	PowerSchedule *ps;
	bool *critical;
	double cur;
	Power p;

	if (mode == POWER_DEADLINE && !fits(s->makespan, deadline))
		return NULL;
	if (t->states.len == 0 || t->states.items[FV_FULL].freq != 1)
		die("power_assign: the table's first state must run at frequency 1");
	power_init(&p, g, s, t, horizon);
	critical = find_critical(&p);
	forward(&p);
	cur = energy(&p);
	if (mode == POWER_DEADLINE)
		lower_tasks(&p, critical, &cur);
	lower_tasks(&p, NULL, &cur);
	ps = build(&p, critical);
	ps->mode = mode;
	return ps;
}

/* ---- checking ---- */

#define CHECK_FAIL(...) do { snprintf(why, size, __VA_ARGS__); return false; } while (0)

static bool check_core_order(const Power *p, const PowerSchedule *ps, int k, char *why, size_t size)
{
	const SchedList *l = &p->s->core[k];
	double at = 0;
	int cur = FV_FULL;

	for (uint32_t i = 0; i < l->len; i++) {
		uint32_t t = l->items[i];

		if (!fits(at + gap(p, cur, ps->state[t]), ps->start[t]))
			CHECK_FAIL("core %d: task %u starts at %g, before %g", k, t, ps->start[t],
			           at + gap(p, cur, ps->state[t]));
		at = ps->finish[t];
		cur = ps->state[t];
	}
	if (!fits(at + gap(p, cur, FV_FULL), ps->horizon))
		CHECK_FAIL("core %d is not back at FULL by the end of the frame", k);
	return true;
}

static bool check_task_times(const Power *p, const PowerSchedule *ps, uint32_t t, char *why, size_t size)
{
	const SchedTask *task = &p->g->tasks.items[t];
	int st = ps->state[t];

	if (st < 0 || (uint32_t)st >= p->t->states.len || p->t->states.items[st].freq <= 0)
		CHECK_FAIL("task %u in state %d", t, st);
	if (ps->start[t] < 0 || fabs(ps->finish[t] - ps->start[t] - dur(p, t, st)) >
	                        1e-9 * (1 + ps->finish[t]))
		CHECK_FAIL("task %u: bad times [%g,%g]", t, ps->start[t], ps->finish[t]);
	for (uint32_t k = 0; k < task->succ.len; k++) {
		uint32_t v = task->succ.items[k];

		if (!fits(ps->finish[t] + transfer(p, t, k), ps->start[v]))
			CHECK_FAIL("task %u starts at %g before the data of task %u", v, ps->start[v], t);
	}
	return true;
}

bool power_check(const TaskGraph *g, const Schedule *s, const PowerSchedule *ps,
                 char *why, size_t size)
{
	uint32_t nswitches = 0;
	Power p;

	power_init(&p, g, s, ps->table, ps->horizon);
	for (uint32_t t = 0; t < p.n; t++)
		if (!check_task_times(&p, ps, t, why, size))
			return false;
	for (int k = 0; k < s->ncores; k++) {
		if (!check_core_order(&p, ps, k, why, size))
			return false;
		nswitches += ps->switches[k].len;
	}
	if (!fits(ps->makespan, ps->horizon))
		CHECK_FAIL("makespan %g after the end of the frame %g", ps->makespan, ps->horizon);
	if (nswitches != ps->nswitches)
		CHECK_FAIL("%u switches listed, %u counted", nswitches, ps->nswitches);
	if (!fits(ps->energy, ps->energy_full))
		CHECK_FAIL("energy %g above all FULL %g", ps->energy, ps->energy_full);
	return true;
}

/* ---- dump ---- */

static void put_span(FILE *out, double from, double to)
{
	fputc('[', out);
	sched_put_num(out, from);
	fputc(',', out);
	sched_put_num(out, to);
	fputc(']', out);
}

static void dump_table(FILE *out, const FvTable *t)
{
	fprintf(out, "fv table %s:", t->path ? t->path : "default");
	for (uint32_t i = 0; i < t->states.len; i++)
		fprintf(out, "%s %u %s f %g V %g", i ? "," : "", i, t->states.items[i].name,
		        t->states.items[i].freq, t->states.items[i].volt);
	fprintf(out, "\n  static %g of FULL dynamic power, switch %g units and %g energy, "
	        "unit %g s\n", t->static_fraction, t->switch_time, t->switch_energy, t->unit_seconds);
}

static void dump_core(FILE *out, const TaskGraph *g, const Schedule *s, const PowerSchedule *ps,
                      int k, uint32_t *next_idle)
{
	const SchedList *l = &s->core[k];
	const FvTable *t = ps->table;

	fprintf(out, "core %d: %u switch%s\n", k, ps->switches[k].len,
	        ps->switches[k].len == 1 ? "" : "es");
	for (uint32_t i = 0; i <= l->len; i++) {
		for (; *next_idle < ps->idle.len && ps->idle.items[*next_idle].core == k &&
		       ps->idle.items[*next_idle].pos == i; ++*next_idle) {
			const PowerIdle *w = &ps->idle.items[*next_idle];

			fputs("  idle ", out);
			put_span(out, w->from, w->to);
			fprintf(out, " %s\n", t->states.items[w->state].name);
		}
		if (i == l->len)
			break;
		fputs("  ", out);
		if (g->tasks.items[l->items[i]].name)
			fputs(g->tasks.items[l->items[i]].name, out);
		else
			fprintf(out, "t%u", l->items[i]);
		fputc(' ', out);
		put_span(out, ps->start[l->items[i]], ps->finish[l->items[i]]);
		fprintf(out, " %s%s\n", t->states.items[ps->state[l->items[i]]].name,
		        ps->critical[l->items[i]] ? " critical" : "");
	}
}

static void dump_result(FILE *out, const char *what, double makespan, double seconds,
                        double energy)
{
	fprintf(out, "%s makespan ", what);
	sched_put_num(out, makespan);
	fprintf(out, " (%.4g s), energy %.6g", makespan * seconds, energy);
}

void power_dump(FILE *out, const TaskGraph *g, const Schedule *s, const PowerSchedule *ps,
                const FvTable *t)
{
	uint32_t next_idle = 0;
	double saved = ps->energy_full > 0 ? 100 * (1 - ps->energy / ps->energy_full) : 0;
	double longer = ps->makespan_full > 0 ? 100 * (ps->makespan / ps->makespan_full - 1) : 0;

	fprintf(out, "power %s, %d core%s, frame ", power_mode_name(ps->mode), s->ncores,
	        s->ncores == 1 ? "" : "s");
	sched_put_num(out, ps->horizon);
	fprintf(out, " (%.4g s)\n", ps->horizon * t->unit_seconds);
	dump_table(out, t);
	for (int k = 0; k < s->ncores; k++)
		dump_core(out, g, s, ps, k, &next_idle);
	dump_result(out, "all FULL:", ps->makespan_full, t->unit_seconds, ps->energy_full);
	fprintf(out, " (dynamic %.6g, static %.6g)\n", ps->energy_full -
	        t->static_fraction * s->ncores * ps->horizon, t->static_fraction * s->ncores * ps->horizon);
	dump_result(out, "power:   ", ps->makespan, t->unit_seconds, ps->energy);
	fprintf(out, " (dynamic %.6g, static %.6g, switching %.6g), %u switches\n",
	        ps->energy_dynamic, ps->energy_static, ps->energy_switch, ps->nswitches);
	if (fabs(saved) < 0.005)
		saved = 0; /* no "-0.00" */
	if (fabs(longer) < 0.005)
		longer = 0;
	fprintf(out, "energy saved %.2f%%, makespan %+.2f%%\n", saved, longer);
}
