/* permute.c - arrays of three to five dimensions written with their
 * subscripts in another order than the loops run (a channel shuffle, a
 * layout change from NCHW to NHWC, an axis moved to the middle): a loop
 * over a middle subscript reaches part of every row of the level above
 * it, and its chunks lie apart row by row although their hulls meet.
 * And two that must keep their order: a middle subscript shifted by one
 * (each chunk reads the plane the one before writes), and a union whose
 * other view reads across the planes the chunks write. */
#include <stdio.h>

#include "bench.h"

#define G 2
#define CH (N / 8)
#define HW 28

static float In[G][CH][HW][HW], Shuf[1][CH][G][HW][HW];
static float Nchw[CH][HW][HW], Nhwc[HW][HW][CH];
static float Mid[HW][CH][HW], Stag[HW][CH + 1][HW];
static union {
	float a[CH][8][HW];
	float b[8][CH][HW];
} u;

static void init(void)
{
	int g, c, h, w;

	for (g = 0; g < G; g++)
		for (c = 0; c < CH; c++)
			for (h = 0; h < HW; h++)
				for (w = 0; w < HW; w++)
					In[g][c][h][w] = (float)((g * 7 + c * 5 + h * 3 + w) % 17) / 16;
	for (c = 0; c < CH; c++)
		for (h = 0; h < HW; h++)
			for (w = 0; w < HW; w++)
				Nchw[c][h][w] = (float)((c + h * 5 + w * 3) % 13) / 8;
	for (c = 0; c < CH; c++)
		for (h = 0; h < 8; h++)
			for (w = 0; w < HW; w++)
				u.a[c][h][w] = (float)((c * 3 + h + w) % 11) / 4;
}

/* onnx2c's channel shuffle, perm 0 2 1 3 4, over the group first: split */
static void shuffle(void)
{
	for (int i0 = 0; i0 < 1; i0++)
		for (int i1 = 0; i1 < G; i1++)
			for (int i2 = 0; i2 < CH; i2++)
				for (int i3 = 0; i3 < HW; i3++)
					for (int i4 = 0; i4 < HW; i4++)
						Shuf[i0][i2][i1][i3][i4] = In[i1][i2][i3][i4];
}

/* NCHW to NHWC over the channels: each chunk writes its columns of every row: split */
static void to_nhwc(void)
{
	int c, h, w;

	for (c = 0; c < CH; c++)
		for (h = 0; h < HW; h++)
			for (w = 0; w < HW; w++)
				Nhwc[h][w][c] = Nchw[c][h][w] * 2;
}

/* the channel axis moved to the middle: split */
static void to_middle(void)
{
	int c, h, w;

	for (c = 0; c < CH; c++)
		for (h = 0; h < HW; h++)
			for (w = 0; w < HW; w++)
				Mid[h][c][w] = Nchw[c][h][w] + Nhwc[h][w][c];
}

/* each plane from the one before it: sequential */
static void stagger(void)
{
	int c, h, w;

	for (c = 0; c < CH; c++)
		for (h = 0; h < HW; h++)
			for (w = 0; w < HW; w++)
				Stag[h][c + 1][w] = Stag[h][c][w] / 2 + Mid[h][c][w];
}

/* writes through one view of a union, reads through the other: sequential */
static void views(void)
{
	int c, h, w;

	for (h = 0; h < 8; h++)
		for (c = 0; c < CH; c++)
			for (w = 0; w < HW; w++)
				u.a[c][h][w] = u.b[h][c][w] * 3 / 4 + 1;
}

int main(void)
{
	double s = 0;
	int a, b, c;

	init();
	shuffle();
	to_nhwc();
	to_middle();
	stagger();
	views();
	for (a = 0; a < CH; a++)
		for (b = 0; b < HW; b++)
			for (c = 0; c < HW; c++)
				s += Shuf[0][a][1][b][c] * (a % 3) + Nhwc[b][c][a] + Mid[b][a][c] * (c % 5) +
				     Stag[b][a + 1][c];
	for (a = 0; a < CH; a++)
		for (b = 0; b < 8; b++)
			for (c = 0; c < HW; c++)
				s += u.a[a][b][c] * ((a + b + c) % 7);
	printf("%.6f\n", s);
	return 0;
}
