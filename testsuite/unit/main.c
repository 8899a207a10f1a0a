/*
 * main.c - CUnit runner for mtpar's algorithmic core.  Each test_*.c file
 * exports one suite_NAME() that adds its suite; the list below is the
 * order they run in.
 */
#include <CUnit/Basic.h>
#include <stdio.h>

#include "unit.h"

int main(void)
{
	unsigned failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	if (suite_util() || suite_pp() || suite_lower() || suite_mt() ||
	    suite_dep() || suite_eec() || suite_sched() ||
	    suite_codegen() || suite_plan() || suite_power() || suite_output()) {
		fprintf(stderr, "unit-tests: cannot register suites: %s\n", CU_get_error_msg());
		return 2;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
