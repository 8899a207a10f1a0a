/*
 * Calls the packed operators of net.c with separate tensors (the parallel
 * code may run), with the output on the input (in place) and with an
 * output that overlaps the input a few rows further on: there only the
 * original code gives the sequential result, so the run-time check must
 * send it there.  Prints an FNV-1a checksum of each result.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tensor.h"

int32_t op_scale_relu(void *args, int32_t *type_ids, int32_t num_args);
int32_t op_stencil(void *args, int32_t *type_ids, int32_t num_args);
int32_t op_calls(void *args, int32_t *type_ids, int32_t num_args);

static float pool[3 * 66 * 66];

static uint32_t fnv(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

static void fill(void)
{
	for (int i = 0; i < 3 * 66 * 66; i++)
		pool[i] = (float)((i * 7919) % 1000) / 250.0f - 2.0f;
}

static int call(int32_t (*op)(void *, int32_t *, int32_t), float *a, float *b, float *c)
{
	Tensor t[3] = { { a, 0 }, { b, 0 }, { c, 0 } };
	Value v[3] = { { &t[0] }, { &t[1] }, { &t[2] } };
	int32_t ids[3] = { 0, 0, 0 };

	return op(v, ids, c ? 3 : 2);
}

int main(void)
{
	float *x = pool, *w = pool + 4356, *y = pool + 2 * 4356;
	int rc = 0;

	for (int rep = 0; rep < 3; rep++) {
		fill();
		rc |= call(op_scale_relu, x, w, y);
		printf("scale apart: %08x\n", (unsigned)fnv(y, 4096 * sizeof(float)));
		rc |= call(op_scale_relu, x, w, x);
		printf("scale in place: %08x\n", (unsigned)fnv(x, 4096 * sizeof(float)));
		fill();
		rc |= call(op_stencil, x, y, NULL);
		printf("stencil apart: %08x\n", (unsigned)fnv(y, 4096 * sizeof(float)));
		fill();
		rc |= call(op_stencil, x + 200, x, NULL);
		printf("stencil overlapping: %08x\n", (unsigned)fnv(x, 4096 * sizeof(float)));
		fill();
		rc |= call(op_calls, x, y, NULL);
		printf("calls apart: %08x %08x\n", (unsigned)fnv(x, 4097 * sizeof(float)),
		       (unsigned)fnv(y, 4096 * sizeof(float)));
		fill();
		rc |= call(op_calls, x, x + 2000, NULL);
		printf("calls overlapping: %08x\n", (unsigned)fnv(x, 6096 * sizeof(float)));
	}
	return rc;
}
