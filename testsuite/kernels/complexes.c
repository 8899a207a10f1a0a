/* complexes.c - C99's complex types, as an FFT or a signal kernel writes
 * them: `double complex` through <complex.h>, `_Complex` spelled out, a
 * typedef, a cast, and the library's creal/cimag/cabs/conj.  tree-sitter-c
 * does not know the keyword; mtpar reads `double _Complex` as a record of
 * two doubles (16 bytes), so a double pointer into the array (`d[2*i+1]`,
 * the imaginary parts) overlaps the right elements. */
#include <complex.h>
#include <stdio.h>
#include <string.h>

#define N 60000

typedef double complex cplx;

static cplx z[N + 1], w[N];
static int marks[1000 * 16];
static float _Complex zf[N];
static double re[N];
static double *parts = (double *)z;

static void init(void)
{
	for (int i = 0; i <= N; i++)
		z[i] = (i % 7) * 0.25 + (i % 5) * 0.5 * I;
	for (int i = 0; i < N; i++)
		w[i] = CMPLX(0.5 - (i % 3), 1.0 / (1 + i % 11));
}

static void multiply(cplx *restrict out, const cplx *a, const cplx *b, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = a[i] * b[i] + conj(a[i]);
}

/* iteration i reads z[i+1], whose real part iteration i+1 does not write
 * but whose imaginary part iteration i+1 does: anti-dependence */
static void imaginary(void)
{
	for (int i = 0; i < N; i++)
		parts[2 * i + 1] = creal(z[i + 1]) + 1.0;
}

static void halves(void)
{
	double _Complex *q = z;

	for (int i = 0; i < N / 2; i++)
		q[i + N / 2] = q[i] * 2;
}

static void recur(double *p)
{
	for (int i = 1; i < 2 * N; i++)
		p[i] = p[i - 1] * 0.5 + p[i];
}

static void magnitude(void)
{
	for (int i = 0; i < N; i++) {
		re[i] = creal(w[i]) * cimag(w[i]) + cabs(w[i]);
		zf[i] = (float _Complex)w[i];
	}
}

/* sizeof(double _Complex) is 16: the loop runs 16,000 times (the keyword after the type) */
static void mark(void)
{
	for (size_t i = 0; i < 1000 * sizeof(double _Complex); i++)
		marks[i] = (int)(i % 3) + 1;
}

static unsigned long long hash(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t k = 0; k < n; k++)
		h = (h ^ b[k]) * 1099511628211ULL;
	return h;
}

int main(void)
{
	init();
	multiply(w, z, w, N);
	imaginary();
	halves();
	recur((double *)z);
	magnitude();
	mark();
	printf("%llx ", hash(1469598103934665603ULL, marks, sizeof marks));
	printf("%llx %llx %llx %zu\n", hash(1469598103934665603ULL, z, sizeof z),
	       hash(1469598103934665603ULL, zf, sizeof zf),
	       hash(1469598103934665603ULL, re, sizeof re), sizeof(cplx));
	return 0;
}
