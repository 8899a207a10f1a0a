/* sessions.c - a parallelized function called from two POSIX threads at
 * once, as two inference sessions of one runtime would: the region's static
 * flags serve one run at a time (mtpar_enter), and the other thread runs the
 * original code meanwhile.  Before, both forked onto the same flags and
 * every thread waited for a generation it never saw. */
#include <pthread.h>
#include <stdio.h>

#define N 300

static float A[2][N][N], B[2][N][N], C[2][N][N];

static int op(int t, float k)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			B[t][i][j] = A[t][N - 1 - i][j] * k + 1.0f;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			C[t][i][j] = B[t][j][i] * 0.5f + A[t][i][j];
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			A[t][i][j] = C[t][N - 1 - j][i] * 0.25f;
	return 0;
}

static void *session(void *arg)
{
	int t = *(int *)arg;

	for (int rep = 0; rep < 30; rep++)
		if (op(t, 1.5f + t) != 0 || op(t, 0.5f) != 0)
			return NULL;
	return NULL;
}

int main(void)
{
	pthread_t th[2];
	int id[2] = { 0, 1 };
	double s = 0;

	for (int t = 0; t < 2; t++)
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				A[t][i][j] = (float)((i * 7 + j + t) % 11);
	for (int t = 0; t < 2; t++)
		pthread_create(&th[t], NULL, session, &id[t]);
	for (int t = 0; t < 2; t++)
		pthread_join(th[t], NULL);
	for (int t = 0; t < 2; t++)
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				s += A[t][i][j] * (i % 5) + B[t][i][j] + C[t][i][j] * 3;
	printf("%.9g\n", s);
	return 0;
}
