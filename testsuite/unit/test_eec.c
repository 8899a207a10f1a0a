/*
 * test_eec.c - control dependence, earliest executable conditions and the
 * MTG's edges on small hand-built levels: the brief's worked example, a
 * diamond, mutual exclusion of branch directions, absorption through
 * Fin(k) => control(k), OR of control dependences, and the transitive
 * reduction of data edges on a straight-line level.
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"
#include "unit.h"

int suite_eec(void); /* belongs in unit.h */

/* EEC of a node as text; the caller frees it. */
static char *eec_text(const MfgLevel *lv, int node)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	eec_print(f, lv, lv->nodes[node].eec);
	fclose(f);
	return s;
}

static void check_eec(const MfgLevel *lv, int node, const char *want)
{
	char *got = eec_text(lv, node);

	if (strcmp(got, want) != 0)
		fprintf(stderr, "\nEEC(MT%d): got \"%s\", want \"%s\"\n", node, got, want);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}

static void dep(MfgLevel *lv, int from, int to)
{
	mfg_add_dep(lv, from, to, NULL);
}

static void finish(MfgLevel *lv)
{
	eec_compute_level(lv);
	mtg_build_level(lv);
}

/* Is there an MTG edge from..to of that kind? */
static bool has_edge(const MfgLevel *lv, int from, int to, bool control)
{
	for (uint32_t i = 0; i < lv->mtg.len; i++) {
		const MtgEdge *m = &lv->mtg.items[i];

		if (m->from == from && m->to == to && m->control == control)
			return true;
	}
	return false;
}

/*
 * MT1 branches to MT2 (T) or not, MT3 is independent, MT4 reads what MT2
 * and MT3 write.  The test MT1 also "writes" what MT2 writes, as a summary
 * of a whole if statement would.
 */
static void test_worked_example(void)
{
	MfgLevel *lv = mfg_level_new(NULL, 4);

	mfg_set_next(lv, 0, 1);
	mfg_set_branch(lv, 1, 2, 3);
	mfg_set_next(lv, 2, 3);
	mfg_set_next(lv, 3, 4);
	mfg_set_next(lv, 4, 5);
	mfg_compute_control(lv);
	CU_ASSERT_EQUAL(lv->nodes[2].cd.len, 1);
	CU_ASSERT_EQUAL(lv->nodes[2].cd.items[0], 2 * 1 + 1);
	CU_ASSERT_EQUAL(lv->nodes[3].cd.len, 0);
	dep(lv, 1, 2);
	dep(lv, 1, 4);
	dep(lv, 2, 4);
	dep(lv, 3, 4);
	finish(lv);
	check_eec(lv, 1, "true");
	check_eec(lv, 2, "Br(MT1,T)");
	check_eec(lv, 3, "true");
	check_eec(lv, 4, "(Fin(MT2) OR Br(MT1,F)) AND Fin(MT3)");
	check_eec(lv, 5, "Fin(MT4)");
	CU_ASSERT_TRUE(has_edge(lv, 2, 4, false));
	CU_ASSERT_TRUE(has_edge(lv, 1, 4, true));
	CU_ASSERT_FALSE(has_edge(lv, 1, 4, false)); /* MT4 never waits for MT1 as such */
	CU_ASSERT_TRUE(has_edge(lv, 1, 2, true));
	CU_ASSERT_FALSE(has_edge(lv, 1, 2, false));
}

/* if (c) MT2 else MT3; MT4 reads what both write: the join is an OR of Fins. */
static void test_diamond(void)
{
	MfgLevel *lv = mfg_level_new(NULL, 4);

	mfg_set_next(lv, 0, 1);
	mfg_set_branch(lv, 1, 2, 3);
	mfg_set_next(lv, 2, 4);
	mfg_set_next(lv, 3, 4);
	mfg_set_next(lv, 4, 5);
	mfg_compute_control(lv);
	CU_ASSERT_FALSE(mfg_reaches(lv, 2, 3));
	dep(lv, 2, 4);
	dep(lv, 3, 4);
	finish(lv);
	check_eec(lv, 2, "Br(MT1,T)");
	check_eec(lv, 3, "Br(MT1,F)");
	check_eec(lv, 4, "Fin(MT2) OR Fin(MT3)");
	check_eec(lv, 5, "Fin(MT4)");
}

/*
 * MT2 and MT3 both in the T arm of MT1, MT3 reads MT2: under Br(MT1,T) the
 * other direction cannot hold, and Fin(MT2) implies Br(MT1,T).
 */
static void test_mutual_exclusion(void)
{
	MfgLevel *lv = mfg_level_new(NULL, 4);

	mfg_set_next(lv, 0, 1);
	mfg_set_branch(lv, 1, 2, 4);
	mfg_set_next(lv, 2, 3);
	mfg_set_next(lv, 3, 4);
	mfg_set_next(lv, 4, 5);
	mfg_compute_control(lv);
	dep(lv, 2, 3);
	dep(lv, 3, 4);
	finish(lv);
	check_eec(lv, 3, "Fin(MT2)");
	check_eec(lv, 4, "Fin(MT3) OR Br(MT1,F)");
	CU_ASSERT_FALSE(has_edge(lv, 1, 3, true));
}

/*
 * An early exit (MT1: if (...) return) then MT2 and MT3, MT3 reading both:
 * Br(MT1,F) is absorbed by Fin(MT2), which implies it, and so is Fin(MT1).
 */
static void test_absorption(void)
{
	MfgLevel *lv = mfg_level_new(NULL, 3);

	mfg_set_next(lv, 0, 1);
	mfg_set_branch(lv, 1, 4, 2);
	mfg_set_next(lv, 2, 3);
	mfg_set_next(lv, 3, 4);
	mfg_compute_control(lv);
	dep(lv, 1, 3);
	dep(lv, 2, 3);
	finish(lv);
	check_eec(lv, 2, "Br(MT1,F)");
	check_eec(lv, 3, "Fin(MT2)");
	check_eec(lv, 4, "Fin(MT3) OR Br(MT1,T)");
}

/* TVM's unfolded `if (op(...) != 0) return -1;` chain. */
static void test_guard_chain(void)
{
	MfgLevel *lv = mfg_level_new(NULL, 4);

	mfg_set_next(lv, 0, 1);
	for (int i = 1; i <= 4; i++)
		mfg_set_branch(lv, i, 5, i + 1);
	mfg_compute_control(lv);
	for (int i = 1; i < 4; i++)
		dep(lv, i, i + 1);
	finish(lv);
	check_eec(lv, 2, "Br(MT1,F)");
	check_eec(lv, 4, "Br(MT3,F)");
	check_eec(lv, 5, "Fin(MT4) OR Br(MT1,T) OR Br(MT2,T) OR Br(MT3,T)");
}

/* MT3 runs when MT1 goes F, or MT1 goes T and MT2 does not exit: an OR of control. */
static void test_control_or(void)
{
	MfgLevel *lv = mfg_level_new(NULL, 3);

	mfg_set_next(lv, 0, 1);
	mfg_set_branch(lv, 1, 2, 3);
	mfg_set_branch(lv, 2, 4, 3);
	mfg_set_next(lv, 3, 4);
	mfg_compute_control(lv);
	CU_ASSERT_EQUAL(lv->nodes[3].cd.len, 2);
	finish(lv);
	check_eec(lv, 2, "Br(MT1,T)");
	check_eec(lv, 3, "Br(MT1,F) OR Br(MT2,F)");
}

/* Nested ifs: MT4 after both joins waits for MT3 unless either test skipped it. */
static void test_nested(void)
{
	MfgLevel *lv = mfg_level_new(NULL, 4);

	mfg_set_next(lv, 0, 1);
	mfg_set_branch(lv, 1, 2, 4);
	mfg_set_branch(lv, 2, 3, 4);
	mfg_set_next(lv, 3, 4);
	mfg_set_next(lv, 4, 5);
	mfg_compute_control(lv);
	dep(lv, 3, 4);
	finish(lv);
	check_eec(lv, 3, "Br(MT2,T)");
	check_eec(lv, 4, "Fin(MT3) OR Br(MT1,F) OR Br(MT2,F)");
}

/* Straight line: the MTG keeps only the transitive reduction of the data edges. */
static void test_transitive_reduction(void)
{
	MfgLevel *lv = mfg_level_new(NULL, 5);

	for (int i = 0; i <= 5; i++)
		mfg_set_next(lv, i, i + 1);
	mfg_compute_control(lv);
	dep(lv, 1, 2);
	dep(lv, 1, 3);
	dep(lv, 2, 3);
	dep(lv, 1, 4);
	dep(lv, 3, 4);
	dep(lv, 1, 5);
	dep(lv, 2, 5);
	finish(lv);
	check_eec(lv, 3, "Fin(MT2)");
	check_eec(lv, 4, "Fin(MT3)");
	check_eec(lv, 5, "Fin(MT2)");
	check_eec(lv, 6, "Fin(MT4) AND Fin(MT5)");
	CU_ASSERT_EQUAL(lv->mtg.len, 6);
	CU_ASSERT_TRUE(has_edge(lv, 1, 2, false));
	CU_ASSERT_TRUE(has_edge(lv, 2, 3, false));
	CU_ASSERT_TRUE(has_edge(lv, 3, 4, false));
	CU_ASSERT_TRUE(has_edge(lv, 2, 5, false));
	CU_ASSERT_FALSE(has_edge(lv, 1, 3, false));
	CU_ASSERT_FALSE(has_edge(lv, 1, 5, false));
	CU_ASSERT_PTR_NOT_NULL(mfg_find_dep(lv, 1, 5)); /* still in the MFG */
}

/* An MT no path reaches never runs. */
static void test_dead(void)
{
	MfgLevel *lv = mfg_level_new(NULL, 2);

	mfg_set_next(lv, 0, 1);
	mfg_set_next(lv, 1, 3);
	mfg_set_next(lv, 2, 3);
	mfg_compute_control(lv);
	CU_ASSERT_FALSE(lv->nodes[2].live);
	finish(lv);
	check_eec(lv, 2, "false");
	check_eec(lv, 3, "Fin(MT1)");
}

int suite_eec(void)
{
	CU_pSuite s = CU_add_suite("eec", NULL, NULL);

	return !s || !CU_add_test(s, "worked example", test_worked_example) ||
	       !CU_add_test(s, "diamond", test_diamond) ||
	       !CU_add_test(s, "mutual exclusion", test_mutual_exclusion) ||
	       !CU_add_test(s, "absorption", test_absorption) ||
	       !CU_add_test(s, "guard chain", test_guard_chain) ||
	       !CU_add_test(s, "control or", test_control_or) ||
	       !CU_add_test(s, "nested", test_nested) ||
	       !CU_add_test(s, "transitive reduction", test_transitive_reduction) ||
	       !CU_add_test(s, "dead", test_dead);
}
