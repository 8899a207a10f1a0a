/* Overlapping buffers: TVM-style operators over one workspace at fixed
 * byte offsets (an operator's input and output may be the same bytes),
 * and onnx2c-style union members that share storage.  Only MT3 of main_ws
 * and MT3 of main_union are independent of the rest. */
#include <stdint.h>

static uint8_t ws[512];
union tensors {
	float t0[64];
	float t1[32];
};
static union tensors tu;
static float in[64], out[64], other[64];

static int32_t relu(void *arg0, void *arg1) {
	for (int32_t i = 0; i < 16; ++i)
		((float *)arg1)[i] = ((float *)arg0)[i] > 0.0f ? ((float *)arg0)[i] : 0.0f;
	return 0;
}

void main_ws(void) {
	relu(in, &ws[0]);
	relu(&ws[0], &ws[0]);
	relu(in, &ws[128]);
	relu(&ws[0], &ws[64]);
	relu(&ws[64], out);
}

static void copy64(const float x[64], float y[64]) {
	for (int i = 0; i < 64; i++)
		y[i] = x[i];
}

static void copy32(const float x[32], float y[32]) {
	for (int i = 0; i < 32; i++)
		y[i] = x[i];
}

void main_union(void) {
	copy64(in, tu.t0);
	copy32(tu.t1, other);
	copy64(in, out);
}
