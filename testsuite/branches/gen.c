/*
 * gen.c - random programs with branches, for the dynamic scheduler
 * (middle/branches.c): `gen SEED` prints a C program whose `run` holds
 * if/else statements (nested up to three deep, some without else) whose
 * conditions read arrays and a global counter that the arms write, around
 * calls of two operators, loops over the arrays and counter updates; in
 * half of them inside a sequential loop.  run-tests.sh's `branches` tier
 * checks that mtpar's output prints what the program prints, at several
 * core counts and with jitter.
 */
#include <stdio.h>
#include <stdlib.h>

enum { N = 2048, NARR = 5 };

static unsigned long long state;

static unsigned rnd(unsigned n)
{
	state = state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(state >> 33) % n;
}

static char arr(void) { return (char)('a' + rnd(NARR)); }

static void stmt(int depth, int indent);

static void block(int depth, int indent)
{
	int n = 1 + (int)rnd(3);

	while (n-- > 0)
		stmt(depth + 1, indent + 1);
}

static void stmt(int depth, int indent)
{
	unsigned k = rnd(100);

	printf("%*s", indent * 2, "");
	if (depth < 3 && k < 30) {
		switch (rnd(3)) {
		case 0: printf("if (%c[%u] > %c[%u]) {\n", arr(), rnd(N), arr(), rnd(N)); break;
		case 1: printf("if (g %% 2 == %u) {\n", rnd(2)); break;
		default: printf("if (%c[%u] < %u.%u) {\n", arr(), rnd(N), rnd(3), rnd(10)); break;
		}
		block(depth, indent);
		printf("%*s}", indent * 2, "");
		if (rnd(10) < 6) {
			printf(" else {\n");
			block(depth, indent);
			printf("%*s}", indent * 2, "");
		}
		printf("\n");
	} else if (k < 40) {
		printf("g += %u;\n", 1 + rnd(3));
	} else if (k < 50) {
		printf("for (int i = 0; i < N; i++) %c[i] = %c[i] * 0.5 + g;\n", arr(), arr());
	} else if (k < 55) {
		printf("fill(%c, %u.%u);\n", arr(), rnd(2), rnd(10));
	} else {
		char x = arr(), y = arr(), z = arr();

		printf("op(%c, %c, %c, 0.%u);\n", x, y, z, 1 + rnd(9));
	}
}

int main(int argc, char **argv)
{
	int n;

	state = argc > 1 ? strtoull(argv[1], NULL, 10) * 2654435761ULL + 1 : 1;
	printf("#include <stdio.h>\n#define N %d\n", N);
	printf("static double a[N], b[N], c[N], d[N], e[N];\nstatic int g;\n");
	printf("static void op(const double *x, const double *y, double *z, double k)\n"
	       "{\n  for (int i = 0; i < N; i++)\n    z[i] = x[i] * k + y[i] * (1 - k) + (i %% 5) * 0.01;\n}\n");
	printf("static void fill(double *x, double v)\n"
	       "{\n  for (int i = 0; i < N; i++)\n    x[i] = v + (i %% 11) * 0.125;\n}\n");
	printf("static void run(void)\n{\n");
	if (rnd(2)) {
		printf("  for (int t = 0; t < 3; t++) {\n");
		for (n = 4 + (int)rnd(7); n > 0; n--)
			stmt(0, 2);
		printf("  }\n");
	} else {
		for (n = 4 + (int)rnd(7); n > 0; n--)
			stmt(0, 1);
	}
	printf("}\n");
	/* a recurrence: nothing to parallelize in main, so the plan is run's */
	printf("static void init(void)\n{\n  a[0] = 1; b[0] = 2; c[0] = 0.5; d[0] = 1.5; e[0] = 0.25;\n"
	       "  for (int i = 1; i < N; i++) {\n"
	       "    a[i] = a[i - 1] * 0.999 + (i %% 11) * 0.125; b[i] = b[i - 1] * 0.998 + a[i] * 0.01;\n"
	       "    c[i] = c[i - 1] * 0.997 + b[i] * 0.01; d[i] = d[i - 1] * 0.996 + c[i] * 0.01;\n"
	       "    e[i] = e[i - 1] * 0.995 + d[i] * 0.01;\n  }\n}\n");
	printf("int main(void)\n{\n  double s = 0;\n\n  init();\n  run();\n"
	       "  for (int i = 0; i < N; i++)\n    s += a[i] + 2 * b[i] + 3 * c[i] + 4 * d[i] + 5 * e[i];\n"
	       "  printf(\"%%.9e %%d\\n\", s, g);\n  return 0;\n}\n");
	return 0;
}
