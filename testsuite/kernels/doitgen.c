/* doitgen.c - PolyBench's multiresolution analysis kernel: for each (r, q),
 * sum[p] = sum over s of A[r][q][s] * C4[s][p], then A[r][q][p] = sum[p].
 * sum[] is one array that every iteration writes wholly before it reads
 * it: each chunk of r works on a copy of its own, and the chunk with the
 * last r leaves sum as the loop does (main prints it). */
#include <stdio.h>

#include "bench.h"

static void kernel_doitgen(int nr, int nq, int np, DATA_TYPE ARR3(A, DOIT_R, DOIT_Q, DOIT_P, nr, nq, np),
                           DATA_TYPE ARR2(C4, DOIT_P, DOIT_P, np, np), DATA_TYPE ARR1(sum, DOIT_P, np))
{
	int r, q, p, s;

	for (r = 0; r < nr; r++)
		for (q = 0; q < nq; q++) {
			for (p = 0; p < np; p++) {
				sum[p] = SCALAR_VAL(0.0);
				for (s = 0; s < np; s++)
					sum[p] += A[r][q][s] * C4[s][p];
			}
			for (p = 0; p < np; p++)
				A[r][q][p] = sum[p];
		}
}

static DATA_TYPE A[DOIT_R][DOIT_Q][DOIT_P], C4[DOIT_P][DOIT_P], sum[DOIT_P];

int main(void)
{
	double s = 0;
	int i, j, k;

	for (i = 0; i < DOIT_R; i++)
		for (j = 0; j < DOIT_Q; j++)
			for (k = 0; k < DOIT_P; k++)
				A[i][j][k] = (DATA_TYPE)((i * j + k) % DOIT_P) / DOIT_P;
	for (i = 0; i < DOIT_P; i++)
		for (j = 0; j < DOIT_P; j++)
			C4[i][j] = (DATA_TYPE)(i * j % DOIT_P) / DOIT_P;
	kernel_doitgen(DOIT_R, DOIT_Q, DOIT_P, A, C4, sum);
	for (i = 0; i < DOIT_R; i++)
		for (j = 0; j < DOIT_Q; j++)
			for (k = 0; k < DOIT_P; k++)
				s += A[i][j][k] * ((i + j + k) % 3 + 1);
	for (k = 0; k < DOIT_P; k++)
		s += sum[k] * (k % 5 + 1); /* the last (r, q)'s row: the copy must not hide it */
	printf("doitgen %.9e\n", s);
	return 0;
}
