/*
 * test_power.c - the power-aware schedule (power.c): the default table and
 * the table parser (good and bad files), small task graphs whose best
 * assignment is found by brute force over every state of every task and
 * must be the greedy pass's, and random graphs with a fixed seed: energy
 * never above all FULL, fastest mode never longer, deadline always met,
 * dependences, core order and switch times kept.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "middle.h"
#include "unit.h"

static bool near(double a, double b)
{
	double d = a - b;

	return (d < 0 ? -d : d) <= 1e-9 * (1 + (a < 0 ? -a : a) + (b < 0 ? -b : b));
}

/* A table file with the given text; the name lives for the run. */
static const char *table_file(const char *text)
{
	char *path = xstrndup("/tmp/mtpar-fv-XXXXXX", 20);
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	return path;
}

static FvTable *load_text(const char *text)
{
	const char *path = table_file(text);
	FvTable *t = power_fv_load(path);

	unlink(path);
	return t;
}

/* The model of the brute-force tests: whole units, cheap switches. */
static FvTable *test_table(void)
{
	FvTable *t = load_text("unit 1\nswitch-time 0.5\nswitch-energy 0.5\nstatic 0.1\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	return t;
}

static void test_default_table(void)
{
	FvTable *t = power_fv_default();

	CU_ASSERT_EQUAL_FATAL(t->states.len, 4);
	CU_ASSERT_STRING_EQUAL(t->states.items[0].name, "FULL");
	CU_ASSERT_STRING_EQUAL(t->states.items[1].name, "MID");
	CU_ASSERT_STRING_EQUAL(t->states.items[2].name, "LOW");
	CU_ASSERT_STRING_EQUAL(t->states.items[3].name, "OFF");
	CU_ASSERT_EQUAL(t->states.items[0].freq, 1);
	CU_ASSERT_EQUAL(t->states.items[1].freq, 0.5);
	CU_ASSERT_EQUAL(t->states.items[2].freq, 0.25);
	CU_ASSERT_EQUAL(t->states.items[3].freq, 0);
	CU_ASSERT_EQUAL(t->states.items[1].volt, 0.87);
	CU_ASSERT_EQUAL(t->states.items[2].volt, 0.71);
	CU_ASSERT_EQUAL(t->off, 3);
	CU_ASSERT_EQUAL(t->static_fraction, 0.1);
	CU_ASSERT_EQUAL(t->unit_seconds, 1e-9);
	CU_ASSERT_TRUE(near(t->switch_time, 10000));
	CU_ASSERT_TRUE(near(t->switch_energy, 10000));
	CU_ASSERT_PTR_NULL(t->path);
}

static void test_table_good(void)
{
	FvTable *t = load_text("# a core with three speeds\n"
	                       "state TOP 1 1.1   # boost\n"
	                       "\n"
	                       "state HALF 1/2 0.9\n"
	                       "state SLOW 0.3 0.8\n"
	                       "static 0.25\n"
	                       "unit 2ns\n"
	                       "switch-time 20us\n"
	                       "switch-energy 1e-6\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL_FATAL(t->states.len, 3);
	CU_ASSERT_STRING_EQUAL(t->states.items[1].name, "HALF");
	CU_ASSERT_EQUAL(t->states.items[1].freq, 0.5);
	CU_ASSERT_EQUAL(t->states.items[0].volt, 1.1);
	CU_ASSERT_EQUAL(t->off, -1);
	CU_ASSERT_EQUAL(t->static_fraction, 0.25);
	CU_ASSERT_TRUE(near(t->unit_seconds, 2e-9));
	CU_ASSERT_TRUE(near(t->switch_time, 10000));
	CU_ASSERT_TRUE(near(t->switch_energy, 500));
	CU_ASSERT_PTR_NOT_NULL(t->path);

	/* settings alone keep the default states */
	t = load_text("static 0\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(t->states.len, 4);
	CU_ASSERT_EQUAL(t->off, 3);
	CU_ASSERT_EQUAL(t->static_fraction, 0);
}

/* stderr to /dev/null, returning the old one (fd -1), or back to fd. */
static int quiet(int fd)
{
	int old = -1;

	fflush(stderr);
	if (fd < 0) {
		int null = open("/dev/null", O_WRONLY);

		old = dup(2);
		dup2(null, 2);
		close(null);
	} else {
		dup2(fd, 2);
		close(fd);
	}
	return old;
}

/* Each gives a diagnostic (file:line:col: error: ...) and no table. */
static void test_table_bad(void)
{
	static const char *const bad[] = {
		"frobnicate 1\n",                          /* unknown keyword */
		"static\n",                                /* missing value */
		"static 0.1 0.2\n",                        /* extra word */
		"static -1\n",                             /* negative */
		"unit 0\n",                                /* zero unit */
		"switch-time 10 parsecs\n",                /* extra word */
		"switch-time 10lightyears\n",              /* bad suffix */
		"static abc\n",                            /* not a number */
		"state FULL 1\n",                          /* missing voltage */
		"state MID 0.5 0.87\n",                    /* first state not at 1 */
		"state FULL 1 1\nstate LOW 0.25 0.7\nstate MID 0.5 0.87\n", /* order */
		"state FULL 1 1\nstate FULL 0.5 0.87\n",   /* twice */
		"state FULL 1 1\nstate MID 0.5 0\n",       /* running at voltage 0 */
		"state FULL 1 1\nstate OFF 0 0\nstate OFF2 0 0\n", /* two at frequency 0 */
		"state 9X 1 1\n",                          /* not an identifier */
		"state FULL 2 1\n",                        /* above nominal */
		"state FULL 1 1\nstate MID 1/0 1\n",       /* division by zero */
	};
	int before = error_count(), saved = quiet(-1);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FvTable *t = load_text(bad[i]);

		if (t)
			fprintf(stderr, "\naccepted: %s", bad[i]);
		CU_ASSERT_PTR_NULL(t);
	}
	CU_ASSERT_PTR_NULL(power_fv_load("/nonexistent/mtpar.fv"));
	quiet(saved);
	CU_ASSERT_EQUAL(error_count(), before + 1 + (int)(sizeof(bad) / sizeof(bad[0])));
}

/* ---- brute force ---- */

/* Fails the test with power_check's message when ps is inconsistent. */
static void check_power(const TaskGraph *g, const Schedule *s, const PowerSchedule *ps)
{
	char why[256];
	bool ok = power_check(g, s, ps, why, sizeof(why));

	if (!ok)
		fprintf(stderr, "\npower_check: %s\n", why);
	CU_ASSERT_TRUE(ok);
}

/* The least energy of any assignment of running states that fits the frame. */
static double brute_force(const TaskGraph *g, const Schedule *s, const FvTable *t, double horizon,
                          int *best)
{
	uint32_t n = g->tasks.len, nrun = t->states.len - (t->off >= 0);
	int *state = xcalloc(n + 1, sizeof(*state));
	double least = -1;

	for (;;) {
		PowerSchedule *ps = power_evaluate(g, s, t, horizon, state);
		uint32_t i;

		if (ps && (least < 0 || ps->energy < least - 1e-12)) {
			least = ps->energy;
			memcpy(best, state, n * sizeof(*state));
		}
		for (i = 0; i < n && ++state[i] == (int)nrun; i++) /* next assignment */
			state[i] = 0;
		if (i == n)
			break;
	}
	free(state);
	return least;
}

/* power_assign finds the brute-force optimum on g (with its states when unique). */
static void check_best(const TaskGraph *g, int ncores, PowerMode mode, double factor,
                       const int *want)
{
	FvTable *t = test_table();
	Schedule *s = sched_graph(g, ncores, 0.01);
	double horizon = mode == POWER_DEADLINE ? factor * s->makespan : s->makespan;
	PowerSchedule *ps = power_assign(g, s, t, mode, horizon);
	int best[16];
	double least = brute_force(g, s, t, horizon, best);

	CU_ASSERT_PTR_NOT_NULL_FATAL(ps);
	check_power(g, s, ps);
	if (!near(ps->energy, least)) {
		fprintf(stderr, "\ngreedy %g, best %g:", ps->energy, least);
		for (uint32_t i = 0; i < g->tasks.len; i++)
			fprintf(stderr, " %d/%d", ps->state[i], best[i]);
		fputc('\n', stderr);
		if (getenv("POWER_DEBUG")) {
			power_dump(stderr, g, s, ps, t);
			power_dump(stderr, g, s, power_evaluate(g, s, t, horizon, best), t);
		}
	}
	CU_ASSERT_TRUE(near(ps->energy, least));
	for (uint32_t i = 0; want && i < g->tasks.len; i++) {
		CU_ASSERT_EQUAL(ps->state[i], want[i]);
		CU_ASSERT_EQUAL(best[i], want[i]);
	}
}

static void graph(TaskGraph *g, const double *cost, int n, const int (*edges)[2], int nedges)
{
	static const char *const names[] = { "A", "B", "C", "D", "E", "F" };

	memset(g, 0, sizeof(*g));
	for (int i = 0; i < n; i++)
		sched_add_task(g, names[i], cost[i], -1);
	for (int i = 0; i < nedges; i++)
		sched_add_edge(g, edges[i][0], edges[i][1], 8);
}

/* A -> B (long), A -> C (short) -> D: C has room for LOW, B and D have none. */
static void test_fork(void)
{
	static const double cost[] = { 10, 60, 10, 10 };
	static const int edges[][2] = { { 0, 1 }, { 0, 2 }, { 2, 3 }, { 1, 3 } };
	static const int want[] = { 0, 0, 2, 0 };
	TaskGraph g;

	graph(&g, cost, 4, edges, 4);
	check_best(&g, 2, POWER_FASTEST, 1, want);
	sched_free_graph(&g);
}

/*
 * Two independent chains, one half as long: both its tasks at MID would
 * need one switch too many; the second one slows down, so that the wait
 * after it pays for OFF with the switch back to FULL it needs anyway.
 */
static void test_chains(void)
{
	static const double cost[] = { 20, 20, 10, 10 };
	static const int edges[][2] = { { 0, 1 }, { 2, 3 } };
	static const int want[] = { 0, 0, 0, 1 };
	TaskGraph g;

	graph(&g, cost, 4, edges, 2);
	check_best(&g, 2, POWER_FASTEST, 1, want);
	sched_free_graph(&g);
}

/* A diamond of six tasks: only the brute force says which side slows down. */
static void test_diamond(void)
{
	static const double cost[] = { 5, 30, 8, 6, 12, 5 };
	static const int edges[][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 2, 4 }, { 3, 4 },
	                                { 1, 5 }, { 4, 5 } };
	TaskGraph g;

	graph(&g, cost, 6, edges, 7);
	check_best(&g, 2, POWER_FASTEST, 1, NULL);
	check_best(&g, 3, POWER_FASTEST, 1, NULL);
	sched_free_graph(&g);
}

/* A chain on one core with a deadline: the slack goes to the critical path. */
static void test_deadline_chain(void)
{
	static const double cost[] = { 10, 10, 10, 10 };
	static const int edges[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 } };
	TaskGraph g;

	graph(&g, cost, 4, edges, 3);
	check_best(&g, 2, POWER_DEADLINE, 1.5, NULL);
	check_best(&g, 2, POWER_DEADLINE, 2.2, NULL);
	check_best(&g, 2, POWER_DEADLINE, 4.5, NULL);
	sched_free_graph(&g);
}

/* Fork and join with a deadline: two cores, five tasks. */
static void test_deadline_fork(void)
{
	static const double cost[] = { 4, 16, 8, 6, 4 };
	static const int edges[][2] = { { 0, 1 }, { 0, 2 }, { 2, 3 }, { 1, 4 }, { 3, 4 } };
	TaskGraph g;

	graph(&g, cost, 5, edges, 5);
	check_best(&g, 2, POWER_DEADLINE, 1.3, NULL);
	check_best(&g, 2, POWER_DEADLINE, 2, NULL);
	sched_free_graph(&g);
}

/* ---- the model on hand-checked cases ---- */

/*
 * One task of cost 20 on core 0, nothing on core 1, frame 20: core 1 is
 * OFF for all but two switches, since 0.1 * (20 - 2 * 0.5) > 2 * 0.5.
 */
static void test_idle_core(void)
{
	FvTable *t = test_table();
	TaskGraph g = { 0 };
	Schedule *s;
	PowerSchedule *ps;
	int full[1] = { 0 };

	sched_add_task(&g, "A", 20, -1);
	s = sched_graph(&g, 2, 0);
	ps = power_evaluate(&g, s, t, 20, full);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ps);
	check_power(&g, s, ps);
	CU_ASSERT_EQUAL(ps->nswitches, 2);
	CU_ASSERT_EQUAL_FATAL(ps->switches[1].len, 2);
	CU_ASSERT_EQUAL(ps->switches[1].items[0].state, t->off);
	CU_ASSERT_FALSE(ps->switches[1].items[0].wake);
	CU_ASSERT_EQUAL(ps->switches[1].items[1].state, FV_FULL);
	CU_ASSERT_TRUE(ps->switches[1].items[1].wake);
	CU_ASSERT_EQUAL(ps->switches[1].items[1].pos, 0);
	CU_ASSERT_EQUAL(ps->switches[1].items[1].at, 19.5);
	CU_ASSERT_EQUAL_FATAL(ps->idle.len, 1);
	CU_ASSERT_EQUAL(ps->idle.items[0].core, 1);
	CU_ASSERT_EQUAL(ps->idle.items[0].state, t->off);
	CU_ASSERT_TRUE(near(ps->energy_dynamic, 20));
	CU_ASSERT_TRUE(near(ps->energy_static, 0.1 * (20 + 1)));
	CU_ASSERT_TRUE(near(ps->energy_switch, 1));
	CU_ASSERT_TRUE(near(ps->energy_full, 20 + 0.1 * 40));
	/* a deadline too short for the schedule */
	CU_ASSERT_PTR_NULL(power_assign(&g, s, t, POWER_DEADLINE, 19));
	CU_ASSERT_PTR_NULL(power_evaluate(&g, s, t, 19, full));
	sched_free_graph(&g);
}

/* Adjacent tasks in one state share one switch; times stretch by 1/f. */
static void test_shared_switch(void)
{
	FvTable *t = test_table();
	TaskGraph g = { 0 };
	Schedule *s;
	PowerSchedule *ps;
	int mid[3] = { 1, 1, 0 };

	sched_add_task(&g, "A", 4, 0);
	sched_add_task(&g, "B", 4, 0);
	sched_add_task(&g, "C", 4, 0);
	sched_add_edge(&g, 0, 1, 0);
	sched_add_edge(&g, 1, 2, 0);
	s = sched_graph(&g, 1, 0);
	ps = power_evaluate(&g, s, t, 100, mid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ps);
	check_power(&g, s, ps);
	/* FULL -> MID before A, MID -> FULL before C, then OFF and back at the end */
	CU_ASSERT_EQUAL(ps->switches[0].len, 4);
	CU_ASSERT_EQUAL(ps->start[0], 0.5);
	CU_ASSERT_EQUAL(ps->finish[0], 8.5);
	CU_ASSERT_EQUAL(ps->start[1], 8.5);
	CU_ASSERT_EQUAL(ps->start[2], 17);
	CU_ASSERT_EQUAL(ps->makespan, 21);
	CU_ASSERT_TRUE(near(ps->energy_dynamic, 8 * 0.87 * 0.87 + 4));
	sched_free_graph(&g);
}

static char *dump_text(const TaskGraph *g, const Schedule *s, const PowerSchedule *ps)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	power_dump(f, g, s, ps, ps->table);
	fclose(f);
	return text;
}

static void test_dump(void)
{
	static const double cost[] = { 10, 60, 10, 10 };
	static const int edges[][2] = { { 0, 1 }, { 0, 2 }, { 2, 3 }, { 1, 3 } };
	FvTable *t = test_table();
	TaskGraph g;
	Schedule *s;
	PowerSchedule *ps;
	char *text;

	graph(&g, cost, 4, edges, 4);
	s = sched_graph(&g, 2, 0);
	ps = power_assign(&g, s, t, POWER_FASTEST, 0);
	text = dump_text(&g, s, ps);
	if (getenv("POWER_DEBUG"))
		fputs(text, stderr);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "power fastest, 2 cores, frame 80 (80 s)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  A [0,10] FULL critical\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  idle [0,10] OFF\n  C [10,50] LOW\n  idle [50,80] OFF\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "all FULL: makespan 80 (80 s), energy 106 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "makespan +0.00%\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "core 1: 4 switches\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "power:    makespan 80 (80 s), energy 99.241 (dynamic 85.041, "
	                                    "static 12.2, switching 2), 4 switches\n"
	                                    "energy saved 6.38%, makespan +0.00%\n"));
	free(text);
	sched_free_graph(&g);
}

/* ---- random graphs ---- */

static const RandomDag dag_shape = { 24, 5, 60, 0, 256 };

static void check_random(const TaskGraph *g, const Schedule *s, const FvTable *t)
{
	double factor = 1 + unit_rand(300) / 100.0;
	PowerSchedule *fast = power_assign(g, s, t, POWER_FASTEST, 0);
	PowerSchedule *slow = power_assign(g, s, t, POWER_DEADLINE, factor * s->makespan);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fast);
	CU_ASSERT_PTR_NOT_NULL_FATAL(slow);
	check_power(g, s, fast);
	check_power(g, s, slow);
	CU_ASSERT_TRUE(fast->energy <= fast->energy_full * (1 + 1e-12));
	CU_ASSERT_TRUE(slow->energy <= slow->energy_full * (1 + 1e-12));
	CU_ASSERT_TRUE(near(fast->makespan, s->makespan));
	CU_ASSERT_TRUE(slow->makespan <= factor * s->makespan * (1 + 1e-9));
	for (uint32_t i = 0; i < g->tasks.len; i++) /* no slack: stays FULL */
		if (fast->critical[i])
			CU_ASSERT_EQUAL(fast->state[i], FV_FULL);
}

static void test_random(void)
{
	FvTable *tables[] = { test_table(),
	                      load_text("unit 1\nswitch-time 3\nswitch-energy 0\nstatic 0.4\n"),
	                      load_text("state F 1 1\nstate H 0.6 0.9\nunit 1\nswitch-time 0\n") };

	unit_seed(5);
	for (int round = 0; round < 200; round++) {
		TaskGraph g;
		int ncores = 1 + (int)unit_rand(4);
		Schedule *s;

		unit_random_dag(&g, &dag_shape);
		s = sched_graph(&g, ncores, unit_rand(3) * 0.05);
		for (size_t k = 0; k < sizeof(tables) / sizeof(tables[0]); k++)
			check_random(&g, s, tables[k]);
		sched_free_graph(&g);
	}
}

/*
 * The greedy pass against brute force on random graphs of 2 to 6 tasks:
 * never more than 10% above the optimum, and on it most of the time.
 */
static void test_random_optimum(void)
{
	FvTable *t = test_table();
	int optimal = 0, rounds = 150;

	unit_seed(11);
	for (int round = 0; round < rounds; round++) {
		TaskGraph g;
		Schedule *s;
		PowerSchedule *ps;
		double factor = unit_rand(2) ? 1 : 1 + unit_rand(300) / 100.0, least;
		int best[8];

		memset(&g, 0, sizeof(g));
		for (uint32_t i = 0, n = 2 + unit_rand(5); i < n; i++)
			sched_add_task(&g, NULL, 1 + unit_rand(40), -1);
		for (uint32_t j = 1; j < g.tasks.len; j++)
			for (uint32_t i = 0; i < j; i++)
				if (unit_rand(100) < 35)
					sched_add_edge(&g, i, j, unit_rand(64));
		s = sched_graph(&g, 2 + (int)unit_rand(2), 0.02);
		ps = power_assign(&g, s, t, factor > 1 ? POWER_DEADLINE : POWER_FASTEST,
		                  factor * s->makespan);
		least = brute_force(&g, s, t, factor * s->makespan, best);
		CU_ASSERT_TRUE(ps->energy >= least * (1 - 1e-12));
		CU_ASSERT_TRUE(ps->energy <= least * 1.1);
		optimal += near(ps->energy, least);
		sched_free_graph(&g);
	}
	CU_ASSERT_TRUE(optimal >= rounds * 8 / 10);
}

int suite_power(void)
{
	CU_pSuite s = CU_add_suite("power", NULL, NULL);

	return !s || !CU_add_test(s, "default table", test_default_table) ||
	       !CU_add_test(s, "table file", test_table_good) ||
	       !CU_add_test(s, "bad table files", test_table_bad) ||
	       !CU_add_test(s, "fork: brute force", test_fork) ||
	       !CU_add_test(s, "chains: brute force", test_chains) ||
	       !CU_add_test(s, "diamond: brute force", test_diamond) ||
	       !CU_add_test(s, "deadline chain: brute force", test_deadline_chain) ||
	       !CU_add_test(s, "deadline fork: brute force", test_deadline_fork) ||
	       !CU_add_test(s, "idle core goes OFF", test_idle_core) ||
	       !CU_add_test(s, "shared switch", test_shared_switch) ||
	       !CU_add_test(s, "dump", test_dump) ||
	       !CU_add_test(s, "random graphs", test_random) ||
	       !CU_add_test(s, "random graphs: brute force", test_random_optimum);
}
