/* conv2d.c - a 3x3 convolution over flat arrays; H and W come from -D. */
#include <stdio.h>

#ifndef H
#define H 64
#endif
#ifndef W
#define W 64
#endif
#define C_IN 8
#define C_OUT 16

static float in[C_IN * (H + 2) * (W + 2)], wt[C_OUT * C_IN * 9], out[C_OUT * H * W];

static void init(void)
{
	for (int i = 0; i < C_IN * (H + 2) * (W + 2); i++)
		in[i] = (float)(i % 13) * 0.125f - 0.5f;
	for (int i = 0; i < C_OUT * C_IN * 9; i++)
		wt[i] = (float)(i % 7) * 0.0625f - 0.1875f;
}

static void conv(void)
{
	for (int oc = 0; oc < C_OUT; oc++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				float acc = 0.0f;

				for (int ic = 0; ic < C_IN; ic++)
					for (int ky = 0; ky < 3; ky++)
						for (int kx = 0; kx < 3; kx++)
							acc += in[(ic * (H + 2) + y + ky) * (W + 2) + x + kx] *
							       wt[((oc * C_IN + ic) * 3 + ky) * 3 + kx];
				out[(oc * H + y) * W + x] = acc > 0.0f ? acc : 0.0f;
			}
}

int main(void)
{
	double s = 0;

	init();
	conv();
	for (int i = 0; i < C_OUT * H * W; i++)
		s += out[i] * (i % 5 + 1);
	printf("conv2d %.9e\n", s);
	return 0;
}
