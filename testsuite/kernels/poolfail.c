/* poolfail.c - TVM 0.8-style operators over a workspace pool of the
 * program's own that is too small: the buffer each iteration of conv takes
 * does not fit beside its padded input, so the original conv gives up
 * (return -1) before its first row, and the run goes on (TVM 0.8's AOT
 * ignores the codes).  A chunk keeps that buffer on its stack, where it
 * would always fit: the fork condition takes one and gives it back first,
 * and where it cannot, the original runs.  With a larger pool (-DPOOL=4096)
 * every take succeeds and the region runs. */
#include <stdint.h>
#include <stdio.h>

#ifndef POOL
#define POOL 2500
#endif

static uint8_t pool[POOL] __attribute__((aligned(64)));
static size_t pool_top, pool_stack[16];
static int pool_depth, pool_fails; /* pool_fails: what a harness would count */

void *TVMBackendAllocWorkspace(int device_type, int device_id, uint64_t nbytes, int dtype_code_hint,
                               int dtype_bits_hint)
{
	size_t n = ((size_t)nbytes + 63) & ~(size_t)63;

	(void)device_type, (void)device_id, (void)dtype_code_hint, (void)dtype_bits_hint;
	if (pool_depth == 16 || pool_top + n > sizeof(pool)) {
		pool_fails++;
		return NULL;
	}
	pool_stack[pool_depth++] = pool_top;
	pool_top += n;
	return pool + pool_stack[pool_depth - 1];
}

int TVMBackendFreeWorkspace(int device_type, int device_id, void *ptr)
{
	(void)device_type, (void)device_id;
	if (pool_depth == 0 || (uint8_t *)ptr != pool + pool_stack[pool_depth - 1])
		return -1;
	pool_top = pool_stack[--pool_depth];
	return 0;
}

static float input[16 * 20], weight[8 * 16 * 3], bias[8], output[8 * 18], pooled[8];

/* 3-wide conv over 16 channels of 20: pad into data_pad, a row buffer per output channel */
int32_t fused_conv(void *arg0, void *arg1, void *arg2, void *arg3)
{
	void *data_pad = TVMBackendAllocWorkspace(1, 0, (uint64_t)1344, 2, 32);
	if (data_pad == NULL) {
		return -1;
	}
	for (int32_t i = 0; i < 16 * 21; ++i) {
		((float *)data_pad)[i] = (i % 21 < 20) ? ((float *)arg0)[(i / 21) * 20 + i % 21] : 0.0f;
	}
	for (int32_t oc = 0; oc < 8; ++oc) {
		void *acc = TVMBackendAllocWorkspace(1, 0, (uint64_t)640, 2, 32);
		if (acc == NULL) {
			return -1;
		}
		for (int32_t x = 0; x < 18; ++x) {
			((float *)acc)[x] = ((float *)arg2)[oc];
			for (int32_t ic = 0; ic < 16; ++ic) {
				for (int32_t k = 0; k < 3; ++k) {
					((float *)acc)[x] += ((float *)data_pad)[ic * 21 + x + k] *
					                     ((float *)arg1)[(oc * 16 + ic) * 3 + k];
				}
			}
		}
		for (int32_t x = 0; x < 18; ++x) {
			((float *)arg3)[oc * 18 + x] = ((float *)acc)[x] > 0.0f ? ((float *)acc)[x] : 0.0f;
		}
		if (TVMBackendFreeWorkspace(1, 0, acc) != 0) {
			return -1;
		}
	}
	if (TVMBackendFreeWorkspace(1, 0, data_pad) != 0) {
		return -1;
	}
	return 0;
}

int32_t fused_mean(void *arg0, void *arg1)
{
	for (int32_t oc = 0; oc < 8; ++oc) {
		float s = 0.0f;
		for (int32_t x = 0; x < 18; ++x) {
			s += ((float *)arg0)[oc * 18 + x];
		}
		((float *)arg1)[oc] = s / 18.0f;
	}
	return 0;
}

int32_t fused_scale(void *arg0, void *arg1)
{
	for (int32_t i = 0; i < 8 * 18; ++i) {
		((float *)arg1)[i] = ((float *)arg0)[i] * 0.5f + 1.0f;
	}
	return 0;
}

int32_t run_model(void)
{
	void *sid_1 = TVMBackendAllocWorkspace(1, 0, (uint64_t)576, 0, 8);
	if (sid_1 == NULL) {
		return -1;
	}
	(void)fused_conv(input, weight, bias, sid_1);
	(void)fused_mean(sid_1, pooled);
	(void)fused_scale(sid_1, output);
	if (TVMBackendFreeWorkspace(1, 0, sid_1) != 0) {
		return -1;
	}
	return 0;
}

int main(void)
{
	double s = 0;
	int32_t rc;

	for (int i = 0; i < 16 * 20; i++)
		input[i] = (float)((i * 37) % 29) / 16.0f - 0.75f;
	for (int i = 0; i < 8 * 16 * 3; i++)
		weight[i] = (float)((i * 11) % 13) / 32.0f - 0.2f;
	for (int i = 0; i < 8; i++)
		bias[i] = 0.05f * (float)i;
	rc = run_model();
	for (int i = 0; i < 8 * 18; i++)
		s += output[i] * (i % 5 + 1);
	for (int i = 0; i < 8; i++)
		s += pooled[i] * (i + 1);
	/* not pool_fails: the fork condition's takes are the allocator's business (its contract) */
	printf("rc %d, depth %d, checksum %.9g\n", (int)rc, pool_depth, s);
	return 0;
}
