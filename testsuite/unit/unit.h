/*
 * unit.h - the suites of the CUnit runner, one per test_*.c file, and the
 * helpers they share.
 */
#ifndef MTPAR_UNIT_H
#define MTPAR_UNIT_H

#include <CUnit/CUnit.h>

#include "frontend.h"

/* Each returns 0, or non-zero when CUnit refused to register the suite. */
int suite_util(void);
int suite_pp(void);
int suite_lower(void);
int suite_mt(void);
int suite_dep(void);
int suite_eec(void);
int suite_sched(void);
int suite_codegen(void);
int suite_plan(void);
int suite_power(void);
int suite_output(void);

/* A Source over an in-memory string, as source_read would build it.  Never freed. */
Source *unit_source(const char *name, const char *text);
/*
 * One in-memory file through the front end (pp_scan, parse_source,
 * lower_source, mt_build) and, if summaries, acc_compute_summaries; NULL if a
 * stage failed.
 */
Program *unit_front(const char *name, const char *text, bool summaries);
/* src with list's edits applied (edit_apply into memory; caller frees). */
struct EditList;
char *unit_edited(const Source *src, struct EditList *list);
/* The function defined with that name, or NULL. */
Func *unit_func(const Program *prog, const char *name);

/* A repeatable pseudo-random number in [0, n), after unit_seed. */
void unit_seed(uint32_t seed);
uint32_t unit_rand(uint32_t n);

/*
 * The shape of unit_random_dag's graphs: 1..max_tasks tasks, one in
 * small_one_in of cost below 16 (else 1..cost_max), one in pin_one_in
 * pinned to a core below 10 (0: none), edges of 0..max_bytes-1 bytes.
 */
typedef struct RandomDag {
	uint32_t max_tasks, small_one_in, cost_max, pin_one_in, max_bytes;
} RandomDag;

struct TaskGraph;
/* A random task graph (edges from lower to higher index), g zeroed first. */
void unit_random_dag(struct TaskGraph *g, const RandomDag *shape);

#endif
