/* mvt.c - x1 = x1 + A * v1 and x2 = x2 + A^T * v2: two independent products. */
#include <stdio.h>

#include "sizes.h"

double A[MVT_N][MVT_N], x1[MVT_N], x2[MVT_N], v1[MVT_N], v2[MVT_N];

void init_array(void)
{
	int i, j;

	for (i = 0; i < MVT_N; i++) {
		x1[i] = (double)(i % MVT_N) / MVT_N;
		x2[i] = (double)((i + 1) % MVT_N) / MVT_N;
		v1[i] = (double)((i + 3) % MVT_N) / MVT_N;
		v2[i] = (double)((i + 4) % MVT_N) / MVT_N;
		for (j = 0; j < MVT_N; j++)
			A[i][j] = (double)(i * j % MVT_N) / MVT_N;
	}
}

void kernel_x1(void)
{
	int i, j;

	for (i = 0; i < MVT_N; i++)
		for (j = 0; j < MVT_N; j++)
			x1[i] = x1[i] + A[i][j] * v1[j];
}

void kernel_x2(void)
{
	int i, j;

	for (i = 0; i < MVT_N; i++)
		for (j = 0; j < MVT_N; j++)
			x2[i] = x2[i] + A[j][i] * v2[j];
}

int main(void)
{
	double s = 0;
	int i;

	init_array();
	kernel_x1();
	kernel_x2();
	for (i = 0; i < MVT_N; i++)
		s += x1[i] * 2 + x2[i];
	printf("mvt %.9e\n", s);
	return 0;
}
