/* operands.c - operands that tree-sitter-c 0.23 reads too narrowly: a
 * va_arg whose type is more than one name (keras2c's merge layers take
 * their inputs as `va_arg(args, k2c_tensor*)`), and an offsetof whose
 * member designator goes past its first name (`in.x`, `arr[2]`).  mtpar
 * hides the rest from the parser, copies it to the output as written,
 * and does not take `offsetof(T, arr[2])` for `offsetof(T, arr)`: a loop
 * that writes through such an offset keeps its order (found by a
 * helper's sweep of generator-style programs, session 34). */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define N 4096

typedef struct tensor {
	float *array;
	size_t numel;
} tensor;

struct rec {
	int a;
	int arr[4];
	struct {
		int x;
	} in;
};

static float a0[N], a1[N], a2[N], sum[N];
static char bytes[4 * N];
static struct rec recs[N];

/* keras2c's k2c_add: the output is the sum of num_tensors inputs */
static void add(tensor *output, size_t num_tensors, ...)
{
	va_list args;

	for (size_t i = 0; i < output->numel; i++)
		output->array[i] = 0;
	va_start(args, num_tensors);
	for (size_t i = 0; i < num_tensors; i++) {
		tensor *t = va_arg(args, tensor *);

		for (size_t j = 0; j < output->numel; j++)
			output->array[j] += t->array[j];
	}
	va_end(args);
}

static unsigned long total(int n, ...)
{
	va_list ap;
	unsigned long s = 0;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, unsigned long) + (unsigned long)*va_arg(ap, const int *);
	va_end(ap);
	return s;
}

/* each record's arr[2], written through its offset, from the next record's arr[2]: */
/* read as offsetof(struct rec, arr), the chunks would look apart */
static void through_offset(void)
{
	for (int i = 0; i < N - 1; i++) {
		char *base = (char *)&recs[i];

		*(int *)(base + offsetof(struct rec, arr[2])) = recs[i + 1].arr[2] + recs[i].in.x + 1;
	}
	for (int i = 0; i < N; i++)
		recs[i].a += *(int *)((char *)&recs[i] + offsetof(struct rec, in.x));
}

/* an array parameter is a pointer: sizeof(v) is 8, not 2, and the loop runs 4 * N times */
static void fill_bytes(char v[2])
{
	for (size_t i = 0; i < N / 2 * sizeof(v); i++)
		v[i] = (char)(i % 5 + 1);
}

static void fill(void)
{
	for (int i = 0; i < N; i++) {
		a0[i] = (float)(i % 13);
		a1[i] = (float)(i % 5) * 0.5f;
		a2[i] = (float)(i % 3) - 1.0f;
		recs[i].a = i % 11;
		recs[i].in.x = i % 9;
		recs[i].arr[2] = i % 4;
	}
}

int main(void)
{
	tensor out = { sum, N }, t0 = { a0, N }, t1 = { a1, N }, t2 = { a2, N };
	int three = 3;
	double s = 0;
	long r = 0;

	fill();
	fill_bytes(bytes);
	add(&out, 3, &t0, &t1, &t2);
	through_offset();
	for (int i = 0; i < 4 * N; i++)
		r += bytes[i];
	for (int i = 0; i < N; i++) {
		s += sum[i] * (i % 7 + 1);
		r += recs[i].arr[2] * (i % 5 + 1) + recs[i].a;
	}
	printf("%.9g %ld %lu %zu\n", s, r, total(2, 10UL, &three, 20UL, &three),
	       offsetof(struct rec, arr[2]));
	return 0;
}
