/* c11words.c - C that gcc accepts and tree-sitter-c does not parse as
 * written, found by a review on 2026-11-27 (each was a syntax error, or,
 * through a macro, a wrong result):
 *  - C11's `_Thread_local` (frontend/pp.c hides it as a specifier macro);
 *    before, `static TL int seen;` under `#define TL _Thread_local` lost the
 *    thread-local: main sets it, and a chunk on another core read its own
 *    copy, still the initial value;
 *  - a block-scope `LOCAL int k = 0;` under `#define LOCAL static`: the
 *    macro lay before the declaration's node, so k was read as automatic,
 *    private to each iteration, and the loop that counts through it split;
 *  - GNU C's case ranges `case 'a' ... 'z':` (the upper bound is hidden);
 *  - a macro's empty argument `EMPTY(, i)` and pasted arguments
 *    `CAT(0x, 10)` (frontend/unfold.c expands such uses). */
#include <stdio.h>

#include "bench.h"

#define TL _Thread_local
#define LOCAL static
#define CAT(a, b) a##b
#define EMPTY(x, y) x y
#define LEN (N * M)
#define STEP CAT(0x, 10)

static _Thread_local int bias = 2;
static TL int scale = 3;
static DATA_TYPE A[LEN], B[LEN], C[LEN];

static int kind(int c)
{
	switch (c) {
	case 'a' ... 'z':
		return 1;
	case '0' ... /* the digits */ '9':
		return 2;
	case (1) ... (3):
		return 3;
	default:
		return 0;
	}
}

static void with_thread_locals(void)
{
	for (int i = 0; i < LEN; i++)
		A[i] = (DATA_TYPE)(i % 17) * bias + scale;
}

static void counted(void)
{
	for (int i = 0; i < LEN; i++) {
		LOCAL int k = 0;

		B[i] = (DATA_TYPE)(k++ % 23);
	}
}

static void classified(void)
{
	for (int i = 0; i < LEN; i++)
		C[i] = (DATA_TYPE)kind(i % 128) * EMPTY(, (i % STEP)) + SCALAR_VAL(0.5);
}

int main(void)
{
	double s = 0;

	bias = 5;
	scale = 7;
	with_thread_locals();
	counted();
	classified();
	for (int i = 0; i < LEN; i++)
		s += (A[i] + B[i] * 3 + C[i] * 5) * (i % 7 + 1);
	printf("c11words %.6f\n", s);
	return 0;
}
