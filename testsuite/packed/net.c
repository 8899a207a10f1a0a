/*
 * Operators in the form of TVM's graph executor (packed API): each takes
 * an array of argument values and finds its tensors' data pointers in
 * DLTensor-like structs, so nothing in the file says whether two of them
 * point into the same memory.  mtpar may split their loops only under a
 * run-time check that the bytes each loop reaches through them are apart;
 * main.c calls them with separate, identical and overlapping tensors.
 */
#include <stdint.h>

#include "tensor.h"

/* y = relu(x * w), 64 rows of 64 */
int32_t op_scale_relu(void *args, int32_t *type_ids, int32_t num_args)
{
	void *arg0 = (((Value *)args)[0].v_handle);
	void *arg1 = (((Value *)args)[1].v_handle);
	void *arg2 = (((Value *)args)[2].v_handle);
	void *x = (((Tensor *)arg0)[0].data);
	void *w = (((Tensor *)arg1)[0].data);
	void *y = (((Tensor *)arg2)[0].data);

	(void)type_ids;
	(void)num_args;
	for (int32_t r = 0; r < 64; ++r) {
		for (int32_t c = 0; c < 64; ++c) {
			float v = ((float *)x)[((r * 64) + c)] * ((float *)w)[c];
			((float *)y)[((r * 64) + c)] = v > 0.0f ? v : 0.0f;
		}
	}
	return 0;
}

/* y = a 3x3 diagonal stencil of x (66 x 66, borders included), then y += 1 */
int32_t op_stencil(void *args, int32_t *type_ids, int32_t num_args)
{
	void *arg0 = (((Value *)args)[0].v_handle);
	void *arg1 = (((Value *)args)[1].v_handle);
	void *x = (((Tensor *)arg0)[0].data);
	void *y = (((Tensor *)arg1)[0].data);

	(void)type_ids;
	(void)num_args;
	for (int32_t r = 0; r < 64; ++r) {
		for (int32_t c = 0; c < 64; ++c) {
			float s = ((float *)x)[((r * 66) + c)] + ((float *)x)[((((r + 1) * 66) + c) + 1)];
			s = s + ((float *)x)[((((r + 2) * 66) + c) + 2)];
			((float *)y)[((r * 64) + c)] = s * 0.25f;
		}
	}
	for (int32_t i = 0; i < 4096; ++i) {
		((float *)y)[i] = ((float *)y)[i] + 1.0f;
	}
	return 0;
}

static void halve_mirror(float *a, float *b)
{
	for (int32_t r = 0; r < 64; ++r) {
		for (int32_t c = 0; c < 64; ++c) {
			b[((r * 64) + c)] = a[((r * 64) + c)] * 0.5f + a[(((r * 64) + 63) - c)];
		}
	}
}

static void add_reversed(float *a, float *b)
{
	for (int32_t r = 0; r < 64; ++r) {
		for (int32_t c = 0; c < 64; ++c) {
			a[((r * 64) + c)] += b[((4095 - (r * 64)) - c)] * 0.75f - a[((r * 64) + c)] * 0.125f;
		}
	}
}

/* The same through calls that the loops are cloned from, one of them one float on */
int32_t op_calls(void *args, int32_t *type_ids, int32_t num_args)
{
	void *arg0 = (((Value *)args)[0].v_handle);
	void *arg1 = (((Value *)args)[1].v_handle);
	void *x = (((Tensor *)arg0)[0].data);
	void *y = (((Tensor *)arg1)[0].data);

	(void)type_ids;
	(void)num_args;
	halve_mirror((float *)x, (float *)y);
	add_reversed((float *)x + 1, (float *)y);
	return 0;
}
