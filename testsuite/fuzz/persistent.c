/*
 * persistent.c - the library's in-memory entry point under AFL++'s
 * persistent mode: one process compiles input after input through
 * mtpar_compile (-np 4, --cost-model=unlimited, every remark class), so
 * fuzzing runs without a fork per input and also checks that runs stay
 * independent of each other (each frees what it made).  Built with
 * afl-clang-fast by `make fuzz` (FUZZ_HARNESS=persistent, the default).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h> /* read, in AFL++'s __AFL_FUZZ_TESTCASE_LEN */

#include "mtpar.h"

#ifndef __AFL_FUZZ_TESTCASE_LEN /* built without afl-clang-fast: read one file */
static unsigned char fuzz_buf[1 << 20];
static ssize_t fuzz_len;
#define __AFL_FUZZ_INIT() void mtpar_fuzz_init_(void)
#define __AFL_INIT() (fuzz_len = (ssize_t)fread(fuzz_buf, 1, sizeof(fuzz_buf), stdin))
#define __AFL_FUZZ_TESTCASE_BUF fuzz_buf
#define __AFL_FUZZ_TESTCASE_LEN fuzz_len
#define __AFL_LOOP(n) (loops_left-- > 0)
static int loops_left = 1;
#endif

__AFL_FUZZ_INIT();

/* Diagnostics go nowhere: the finding is a crash or a hang, not a message. */
static void quiet(void *user, mtpar_diag_kind kind, const char *text)
{
	(void)user;
	(void)kind;
	(void)text;
}

int main(void)
{
	mtpar_options opts;
	unsigned char *buf;

	__AFL_INIT();
	buf = __AFL_FUZZ_TESTCASE_BUF;
	mtpar_options_init(&opts);
	opts.ncores = 4;
	opts.unlimited_cost = 1;
	opts.report = MTPAR_REPORT_ALL;
	while (__AFL_LOOP(10000)) {
		mtpar_context *ctx = mtpar_context_new();

		if (!ctx)
			abort();
		mtpar_set_diag_handler(ctx, quiet, NULL);
		if (mtpar_add_source(ctx, "fuzz.c", (const char *)buf, (size_t)__AFL_FUZZ_TESTCASE_LEN) == 0)
			mtpar_compile(ctx, &opts);
		mtpar_context_free(ctx);
	}
	return 0;
}
