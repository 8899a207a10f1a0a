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

/* A Source over an in-memory string, as source_read would build it.  Never freed. */
Source *unit_source(const char *name, const char *text);
/*
 * One in-memory file through the front end (pp_scan, parse_source,
 * lower_source, mt_build) and, if summaries, compute_summaries; NULL if a
 * stage failed.
 */
Program *unit_front(const char *name, const char *text, bool summaries);
/* The function defined with that name, or NULL. */
Func *unit_func(const Program *prog, const char *name);

#endif
