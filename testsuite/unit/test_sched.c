/*
 * test_sched.c - the static scheduler (sched.c) on hand-built task graphs:
 * the brief's CP/MISF worked example (levels, order, exact times, dump),
 * degenerate graphs, a case where only the transfer-aware heuristics avoid
 * a costly transfer, pinned tasks, and random DAGs with a fixed seed
 * checked for precedence, overlap and the makespan's lower bounds.
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"
#include "unit.h"

int suite_sched(void); /* belongs in unit.h */

/* a >= b up to rounding. */
static bool geq(double a, double b)
{
	return a >= b - 1e-9 * (1 + (a < 0 ? -a : a) + (b < 0 ? -b : b));
}

static bool near(double a, double b)
{
	return geq(a, b) && geq(b, a);
}

/* Fails the test with sched_check's message when s is invalid. */
static void check_valid(const TaskGraph *g, const Schedule *s)
{
	char why[256];
	bool ok = sched_check(g, s, why, sizeof(why));

	if (!ok)
		fprintf(stderr, "\n%s on %d cores: %s\n", s->heuristic, s->ncores, why);
	CU_ASSERT_TRUE(ok);
}

static char *dump_text(const TaskGraph *g, const Schedule *s)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	sched_dump(f, g, s);
	fclose(f);
	return text;
}

/*
 * The brief's example: T1=2 T2=3 T3=2 T4=4 T5=3 T6=1 T7=2; T1 -> T2,T3,T4;
 * T2 -> T5; T3 -> T5,T6; T4 -> T6; T5,T6 -> T7.  T1 is index 0.
 */
static void worked_example(TaskGraph *g)
{
	static const char *const names[] = {"T1", "T2", "T3", "T4", "T5", "T6", "T7"};
	static const double costs[] = {2, 3, 2, 4, 3, 1, 2};
	static const int edges[][2] = {{1, 2}, {1, 3}, {1, 4}, {2, 5}, {3, 5},
	                               {3, 6}, {4, 6}, {5, 7}, {6, 7}};

	memset(g, 0, sizeof(*g));
	for (int i = 0; i < 7; i++)
		sched_add_task(g, names[i], costs[i], -1);
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		sched_add_edge(g, edges[i][0] - 1, edges[i][1] - 1, 64);
}

static void check_core(const Schedule *s, int core, const int *tasks, const double *times, int n)
{
	CU_ASSERT_EQUAL_FATAL(s->core[core].len, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		uint32_t t = s->core[core].items[i];

		CU_ASSERT_EQUAL(t, (uint32_t)tasks[i] - 1);
		CU_ASSERT_EQUAL(s->start[t], times[2 * i]);
		CU_ASSERT_EQUAL(s->finish[t], times[2 * i + 1]);
		CU_ASSERT_EQUAL(s->core_of[t], core);
	}
}

static void test_levels(void)
{
	static const double want[] = {10, 8, 7, 7, 5, 3, 2};
	TaskGraph g;
	double *level;

	worked_example(&g);
	level = sched_levels(&g);
	for (int i = 0; i < 7; i++)
		CU_ASSERT_EQUAL(level[i], want[i]);
	sched_free_graph(&g);
}

static void check_worked_schedule(const Schedule *s)
{
	static const int pe0[] = {1, 2, 5, 6, 7}, pe1[] = {3, 4};
	static const double t0[] = {0, 2, 2, 5, 5, 8, 8, 9, 9, 11}, t1[] = {2, 4, 4, 8};

	check_core(s, 0, pe0, t0, 5);
	check_core(s, 1, pe1, t1, 2);
	CU_ASSERT_EQUAL(s->makespan, 11);
	CU_ASSERT_EQUAL(s->seq_time, 17);
	CU_ASSERT_EQUAL(s->critical_path, 10);
	CU_ASSERT_EQUAL_FATAL(s->cp.len, 4); /* T1 T2 T5 T7 */
	CU_ASSERT_EQUAL(s->cp.items[0], 0);
	CU_ASSERT_EQUAL(s->cp.items[1], 1);
	CU_ASSERT_EQUAL(s->cp.items[2], 4);
	CU_ASSERT_EQUAL(s->cp.items[3], 6);
}

static void test_worked_example(void)
{
	TaskGraph g;
	Schedule *s;

	worked_example(&g);
	s = sched_with(&g, 2, 0, SCHED_CP_MISF);
	check_valid(&g, s);
	CU_ASSERT_STRING_EQUAL(s->heuristic, "CP/MISF");
	/* T3 (two successors) before T4 (one), both level 7 */
	CU_ASSERT_TRUE(s->start[2] < s->start[3]);
	check_worked_schedule(s);
	CU_ASSERT_EQUAL(s->tried[SCHED_CP_MISF], 11);
	CU_ASSERT_TRUE(s->tried[SCHED_ETF_CP] < 0);

	/* 11 is optimal, so sched_graph keeps CP/MISF on the tie */
	s = sched_graph(&g, 2, 0);
	check_valid(&g, s);
	CU_ASSERT_STRING_EQUAL(s->heuristic, "CP/MISF");
	check_worked_schedule(s);
	for (int k = 0; k < SCHED_NKINDS; k++)
		CU_ASSERT_TRUE(k == SCHED_ALIGNED ? s->tried[k] < 0 : geq(s->tried[k], s->makespan));
	sched_free_graph(&g);
}

static void test_dump(void)
{
	static const char want[] =
	    "schedule CP/MISF, 2 cores, transfer 0 per byte\n"
	    "tried: CP/MISF 11, CP/DT/MISF 11, ETF/CP 11, sequential 17\n"
	    "core 0:\n"
	    "  T1[0,2]\n"
	    "  T2[2,5]\n"
	    "  T5[5,8]\n"
	    "  T6[8,9]\n"
	    "  T7[9,11]\n"
	    "core 1:\n"
	    "  T3[2,4]\n"
	    "  T4[4,8]\n"
	    "critical path: T1 T2 T5 T7 = 10\n"
	    "makespan 11, sequential 17, predicted speedup 1.55\n";
	TaskGraph g;
	Schedule *s;
	char *got;

	worked_example(&g);
	s = sched_graph(&g, 2, 0);
	got = dump_text(&g, s);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\ngot:\n%s", got);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
	sched_free_graph(&g);
}

static void test_degenerate(void)
{
	TaskGraph g = {0};
	Schedule *s;
	char *text;

	/* no task at all */
	s = sched_graph(&g, 4, 1);
	check_valid(&g, s);
	CU_ASSERT_EQUAL(s->makespan, 0);
	CU_ASSERT_EQUAL(s->cp.len, 0);
	text = dump_text(&g, s);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "predicted speedup 1.00"));
	free(text);

	/* one task, more cores than tasks */
	sched_add_task(&g, NULL, 2.5, -1);
	s = sched_graph(&g, 8, 1);
	check_valid(&g, s);
	CU_ASSERT_EQUAL(s->makespan, 2.5);
	CU_ASSERT_EQUAL(s->critical_path, 2.5);
	text = dump_text(&g, s);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  t0[0,2.5]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "core 7: idle\n"));
	free(text);

	/* independent tasks spread over the cores */
	sched_add_task(&g, NULL, 2.5, -1);
	sched_add_task(&g, NULL, 2.5, -1);
	s = sched_graph(&g, 8, 1);
	check_valid(&g, s);
	CU_ASSERT_EQUAL(s->makespan, 2.5);
	CU_ASSERT_EQUAL(s->core[2].len, 1);

	/* one core: the sequential order */
	s = sched_graph(&g, 1, 1);
	check_valid(&g, s);
	CU_ASSERT_STRING_EQUAL(s->heuristic, "sequential");
	CU_ASSERT_EQUAL(s->makespan, 7.5);
	CU_ASSERT_EQUAL_FATAL(s->core[0].len, 3);
	for (uint32_t i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(s->core[0].items[i], i);
	sched_free_graph(&g);
}

static void test_duplicate_edges(void)
{
	TaskGraph g = {0};

	sched_add_task(&g, "a", 1, -1);
	sched_add_task(&g, "b", 1, -1);
	sched_add_edge(&g, 0, 1, 10);
	sched_add_edge(&g, 0, 1, 30);
	sched_add_edge(&g, 0, 1, 20);
	CU_ASSERT_EQUAL(g.tasks.items[0].succ.len, 1);
	CU_ASSERT_EQUAL(g.tasks.items[1].pred.len, 1);
	CU_ASSERT_EQUAL(g.tasks.items[0].succ_bytes.items[0], 30);
	sched_free_graph(&g);
	CU_ASSERT_EQUAL(g.tasks.len, 0);
}

/*
 * A -> B and A -> C, both carrying a lot of data.  CP/MISF puts C on the
 * other idle core and pays the transfer; the DT-aware heuristics keep it.
 */
static void test_transfer(void)
{
	TaskGraph g = {0};
	Schedule *s;

	sched_add_task(&g, "A", 1, -1);
	sched_add_task(&g, "B", 2, -1);
	sched_add_task(&g, "C", 2, -1);
	sched_add_edge(&g, 0, 1, 100);
	sched_add_edge(&g, 0, 2, 100);

	s = sched_with(&g, 2, 1, SCHED_CP_MISF);
	check_valid(&g, s);
	CU_ASSERT_EQUAL(s->makespan, 103);
	CU_ASSERT_EQUAL(s->start[2], 101); /* the transfer is charged */

	s = sched_graph(&g, 2, 1);
	check_valid(&g, s);
	CU_ASSERT_STRING_EQUAL(s->heuristic, "CP/DT/MISF");
	CU_ASSERT_EQUAL(s->makespan, 5);
	CU_ASSERT_EQUAL(s->tried[SCHED_CP_MISF], 103);
	CU_ASSERT_EQUAL(s->tried[SCHED_ETF_CP], 5);

	/* with free transfers the two consumers run side by side */
	s = sched_graph(&g, 2, 0);
	check_valid(&g, s);
	CU_ASSERT_STRING_EQUAL(s->heuristic, "CP/MISF");
	CU_ASSERT_EQUAL(s->makespan, 3);
	sched_free_graph(&g);
}

/* Allocator calls stay on core 0, pins above ncores wrap around. */
static void test_pinned(void)
{
	TaskGraph g = {0};

	for (int i = 0; i < 8; i++)
		sched_add_task(&g, NULL, 1 + i % 3, i % 4 == 0 ? 0 : i == 3 ? 5 : -1);
	sched_add_edge(&g, 0, 4, 8);
	sched_add_edge(&g, 1, 4, 8);
	sched_add_edge(&g, 2, 7, 8);
	for (int ncores = 1; ncores <= 4; ncores++) {
		for (int k = 0; k < SCHED_NKINDS; k++) {
			Schedule *s = sched_with(&g, ncores, 0.5, (SchedKind)k);

			if (k == SCHED_SEQUENTIAL && ncores > 1) {
				CU_ASSERT_PTR_NULL(s); /* pins name two cores */
				continue;
			}
			check_valid(&g, s);
			CU_ASSERT_EQUAL(s->core_of[0], 0);
			CU_ASSERT_EQUAL(s->core_of[4], 0);
			CU_ASSERT_EQUAL(s->core_of[3], 5 % ncores);
		}
	}
	sched_free_graph(&g);
}

/*
 * Two loops over the same rows, each in two chunks, the second's chunk k
 * after both of the first's (a stencil's sweeps): CP/MISF may give one
 * core both halves of the first; the aligned heuristic keeps chunk k on
 * core k, and is kept for a makespan within 3% of the best.  Where the
 * chunks are too uneven for that, the best makespan wins.
 */
static void test_aligned(void)
{
	for (int uneven = 0; uneven <= 1; uneven++) {
		TaskGraph g = {0};
		Schedule *s;

		sched_add_task(&g, "a0", 10, -1);
		sched_add_task(&g, "a1", uneven ? 30 : 10.1, -1);
		sched_add_task(&g, "b0", 10, -1);
		sched_add_task(&g, "b1", 10, -1);
		sched_add_task(&g, "c0", 10, -1);
		sched_add_task(&g, "c1", 10, -1);
		for (int k = 0; k < 6; k++)
			sched_set_chunk(&g, (uint32_t)k, k % 2, 2);
		for (int from = 0; from < 4; from++)
			for (int to = 4; to < 6; to++)
				sched_add_edge(&g, (uint32_t)from, (uint32_t)to, 0);
		s = sched_graph(&g, 2, 0);
		check_valid(&g, s);
		CU_ASSERT_TRUE(s->tried[SCHED_ALIGNED] >= 0);
		if (!uneven) {
			CU_ASSERT_EQUAL(s->kind, SCHED_ALIGNED);
			for (int k = 0; k < 6; k++)
				CU_ASSERT_EQUAL(s->core_of[k], k % 2);
		} else {
			CU_ASSERT_NOT_EQUAL(s->kind, SCHED_ALIGNED);
		}
		sched_free_graph(&g);
	}
}

/* ---- random DAGs ---- */

static const RandomDag dag_shape = { 30, 4, 20, 10, 4096 };

static void check_bounds(const TaskGraph *g, const Schedule *s, int ncores)
{
	check_valid(g, s);
	CU_ASSERT_TRUE(geq(s->makespan, s->critical_path));
	CU_ASSERT_TRUE(geq(s->makespan, s->seq_time / ncores));
	if (ncores == 1)
		CU_ASSERT_TRUE(near(s->makespan, s->seq_time));
}

static void test_random(void)
{
	static const double tpb[] = {0, 0.001, 0.05, 2};

	unit_seed(2024);
	for (int round = 0; round < 60; round++) {
		TaskGraph g;

		unit_random_dag(&g, &dag_shape);
		for (int ncores = 1; ncores <= 8; ncores++) {
			for (size_t x = 0; x < sizeof(tpb) / sizeof(tpb[0]); x++) {
				Schedule *best = sched_graph(&g, ncores, tpb[x]);

				check_bounds(&g, best, ncores);
				for (int k = 0; k < SCHED_NKINDS; k++) {
					Schedule *s = sched_with(&g, ncores, tpb[x], (SchedKind)k);

					if (k == SCHED_ALIGNED) { /* no chunks: not tried */
						CU_ASSERT_TRUE(best->tried[k] < 0);
						continue;
					}
					if (!s) { /* a sequential order the pins forbid */
						CU_ASSERT_EQUAL(k, SCHED_SEQUENTIAL);
						CU_ASSERT_TRUE(best->tried[k] < 0);
						continue;
					}
					check_bounds(&g, s, ncores);
					/* the one kept is never worse than any heuristic */
					CU_ASSERT_TRUE(geq(s->makespan, best->makespan));
					if (ncores > 1)
						CU_ASSERT_EQUAL(best->tried[k], s->makespan);
				}
				/* no worse than sequential, unless pins force transfers */
				if (tpb[x] == 0 || best->tried[SCHED_SEQUENTIAL] >= 0)
					CU_ASSERT_TRUE(geq(best->seq_time, best->makespan));
			}
		}
		sched_free_graph(&g);
	}
}

int suite_sched(void)
{
	CU_pSuite s = CU_add_suite("sched", NULL, NULL);

	return !s || !CU_add_test(s, "levels", test_levels) ||
	       !CU_add_test(s, "worked example", test_worked_example) ||
	       !CU_add_test(s, "dump", test_dump) ||
	       !CU_add_test(s, "degenerate graphs", test_degenerate) ||
	       !CU_add_test(s, "duplicate edges", test_duplicate_edges) ||
	       !CU_add_test(s, "transfer", test_transfer) ||
	       !CU_add_test(s, "pinned", test_pinned) ||
	       !CU_add_test(s, "aligned chunks", test_aligned) ||
	       !CU_add_test(s, "random DAGs", test_random);
}
