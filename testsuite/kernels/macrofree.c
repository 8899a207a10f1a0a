/* macrofree.c - a scratch row that each iteration takes with malloc and
 * gives back through a macro (`RELEASE(t);`).  A clone could not replace
 * the macro's use (its text is the use, up to the semicolon), so the row is
 * no workspace: op stays whole, op2 and the loops of main are split. */
#include <stdio.h>
#include <stdlib.h>
#define RELEASE(p) free(p)
static float a[64][256], b[64][256];
static int op(void)
{
	for (int i = 0; i < 64; i++) {
		float *t = malloc(256 * sizeof(float));
		if (t == NULL)
			return -1;
		for (int j = 0; j < 256; j++)
			t[j] = a[i][j] * 2.0f;
		for (int j = 0; j < 256; j++)
			b[i][j] = t[j] + t[255 - j];
		RELEASE(t);
	}
	return 0;
}
static int op2(void)
{
	for (int i = 0; i < 64; i++)
		for (int j = 0; j < 256; j++)
			a[i][j] += 1.0f;
	return 0;
}
int main(void)
{
	double s = 0;
	for (int i = 0; i < 64; i++)
		for (int j = 0; j < 256; j++)
			a[i][j] = (float)((i * 7 + j) % 13);
	(void)op();
	(void)op2();
	(void)op();
	for (int i = 0; i < 64; i++)
		for (int j = 0; j < 256; j++)
			s += b[i][j] * (j % 3 + 1);
	printf("%.17g\n", s);
	return 0;
}
