/* aliases.c - one object under two names: an asm label (`extern float
 * Y[] __asm__("X");`) and an alias attribute make another name of X, which
 * the analysis, keeping named objects apart, cannot follow: what names
 * such an object is unknown memory (frontend/lower.c names_another_object).
 * Loops that touch only X are still split. */
#include <stdio.h>

#include "bench.h"

#define LEN (N * M)

float aliases_x[LEN];
extern float aliases_y[LEN] __asm__("aliases_x");
extern float aliases_z[LEN] __attribute__((alias("aliases_x")));
static float out[LEN], out2[LEN];

int main(void)
{
	double s = 0;

	for (int i = 0; i < LEN; i++)
		aliases_x[i] = (float)(i % 10);
	for (int i = 0; i < LEN; i++)
		aliases_y[i] = aliases_y[i] * 2.0f + 1.0f;
	for (int i = 0; i < LEN; i++)
		out[i] = aliases_x[i];
	for (int i = 0; i < LEN; i++)
		aliases_z[i] += 3.0f;
	for (int i = 0; i < LEN; i++)
		out2[i] = aliases_x[i];
	for (int i = 0; i < LEN; i++)
		s += out[i] + 2.0 * out2[i];
	printf("aliases %.9g\n", s);
	return 0;
}
