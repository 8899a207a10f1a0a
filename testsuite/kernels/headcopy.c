/* headcopy.c - for headers with a second variable that copies the
 * counter in the step, as onnx2c writes its max-pool
 * (`for (uint32_t m=0, c=0; m<24; m++, c=m)`): c equals m in every
 * iteration, so the loop splits over m, also when both start at a macro's
 * value past 0 and writing through the copy.  And four that look alike but
 * must keep their order: the copy taken before the counter moves (c lags
 * one behind, two iterations share a row), a copy that starts elsewhere
 * (the first two iterations share a row), a copy the body reassigns, and
 * an unsigned char copy, which wraps at 256 (a review found it split). */
#include <stdint.h>
#include <stdio.h>

#include "bench.h"

#define CH (N / 8)
#define HW 40
#define FIRST_CH 2

static float X[CH][2 * HW][2 * HW], Y[CH][HW][HW], Sum[CH][HW];
static float Lag[CH][HW], Off[CH][HW], Half[CH][HW], Wrap[512][HW]; /* rows past 255 stay unused */

static void init(void)
{
	for (int c = 0; c < CH; c++) {
		for (int h = 0; h < 2 * HW; h++)
			for (int w = 0; w < 2 * HW; w++)
				X[c][h][w] = (float)((c * 7 + h * 3 + w) % 19) / 8;
		for (int w = 0; w < HW; w++)
			Lag[c][w] = Off[c][w] = Half[c][w] = (float)((c + w) % 5);
	}
}

/* onnx2c's max-pool, 2x2 windows: split over m */
static void pool(void)
{
	for (uint32_t m = 0, c = 0; m < CH; m++, c = m)
		for (int32_t o0 = 0, i0 = 0; o0 < HW; o0++, i0 += 2)
			for (int32_t o1 = 0, i1 = 0; o1 < HW; o1++, i1 += 2) {
				float best = X[c][i0][i1];

				for (int k0 = 0; k0 < 2; k0++)
					for (int k1 = 0; k1 < 2; k1++)
						if (best < X[c][i0 + k0][i1 + k1])
							best = X[c][i0 + k0][i1 + k1];
				Y[m][o0][o1] = best;
			}
}

/* both start at a macro's value: split over m */
static void row_sums(void)
{
	for (uint32_t m = FIRST_CH, c = FIRST_CH; m < CH; m++, c = m)
		for (int w = 0; w < HW; w++) {
			float t = 0;

			for (int h = 0; h < 2 * HW; h++)
				t += X[c][h][2 * w];
			Sum[c][w] = t;
		}
}

/* c = m before m++: c is m - 1 from the second iteration on, and the
 * first two iterations both update row 0: sequential */
static void lagging(void)
{
	for (uint32_t m = 0, c = 0; m < CH; c = m, m++)
		for (int w = 0; w < HW; w++)
			Lag[c][w] = Lag[c][w] * 0.5f + (float)m;
}

/* c starts at 1, then follows m: iterations 0 and 1 both update row 1 */
static void offset(void)
{
	for (uint32_t m = 0, c = 1; m < CH; m++, c = m)
		for (int w = 0; w < HW; w++)
			Off[c][w] = Off[c][w] * 0.5f + (float)m;
}

/* the body halves the copy: iterations 2k and 2k+1 share row k */
static void halved(void)
{
	for (uint32_t m = 0, c = 0; m < CH; m++, c = m) {
		c = c / 2;
		for (int w = 0; w < HW; w++)
			Half[c][w] = Half[c][w] * 0.5f + (float)m;
	}
}

/* c wraps at 256: iterations m and m + 256 write the same row, the later one's values stay */
static void narrow(void)
{
	unsigned char c;
	int m;

	for (m = 0, c = 0; m < 512; m++, c = m)
		for (int w = 0; w < HW; w++)
			Wrap[c][w] = (float)m * 0.5f + (float)w;
}

int main(void)
{
	double s = 0;

	init();
	pool();
	row_sums();
	lagging();
	offset();
	halved();
	narrow();
	for (int c = 0; c < CH; c++) {
		for (int h = 0; h < HW; h++)
			for (int w = 0; w < HW; w++)
				s += Y[c][h][w] * ((c + h + w) % 3);
		for (int w = 0; w < HW; w++)
			s += Lag[c][w] * 3 + Off[c][w] * 5 + Half[c][w] * 7 + Sum[c][w];
	}
	for (int c = 0; c < 256; c++)
		for (int w = 0; w < HW; w++)
			s += Wrap[c][w] * ((c + w) % 7);
	printf("%.6f\n", s);
	return 0;
}
