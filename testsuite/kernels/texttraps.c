/* texttraps.c - text that the output copies and edits, found by a helper's
 * sweep (session 33): a #pragma between a loop's header and its body
 * without braces (tree-sitter-c takes it only where a statement may stand);
 * a parameter list whose last line ends in a // comment (the clone's added
 * parameters go after it, not into it); a workspace from a malloc that the
 * program declares itself, without <stdlib.h> and so without NULL. */
int printf(const char *, ...);
void *malloc(unsigned long);
void free(void *);

#define R 200
#define C 300

static double m[R][C], o[R][C];

static void fill(void)
{
	for (int i = 0; i < R; i++)
#pragma GCC unroll 4
		for (int j = 0; j < C; j++)
			m[i][j] = i * 0.5 + j;
}

static void scale(double *x, // the rows, in place
                  int n      // how many doubles
                  )
{
	for (int i = 0; i < n; i++)
		x[i] = x[i] * 0.25 + 1;
}

static void smooth(int n)
{
	double *t = malloc(C * sizeof(double));

	for (int i = 0; i < n; i++)
		for (int j = 0; j < C; j++)
			t[j] = m[i][j] * 2;
	for (int i = 0; i < n; i++)
		for (int j = 1; j < C; j++)
			o[i][j] = m[i][j] + t[j - 1];
	free(t);
}

int main(void)
{
	double s = 0;

	fill();
	scale(&m[0][0], R * C);
	smooth(R);
	for (int i = 0; i < R; i++)
#pragma GCC unroll 2
		for (int j = 0; j < C; j++)
			s += o[i][j] * ((i + j) % 3 + 1);
	printf("texttraps %.17g\n", s);
	return 0;
}
