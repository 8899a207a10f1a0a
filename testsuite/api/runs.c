/*
 * runs.c - libmtpar called several times in one process: a good source, a
 * bad one, the good one again (through one context and through fresh ones),
 * a dump, and mtpar_run on a missing file in between.  Each run must stand
 * alone: the same output every time, the error only where the input is bad.
 * Prints one PASS/FAIL line per check; exits 1 on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mtpar.h>

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: api %s\n", ok ? "PASS" : "FAIL", what);
	failures += !ok;
}

/* One compile of one source in a fresh context; the output (caller frees) or NULL. */
static char *compile_once(const char *name, const char *text, size_t len, char **diags)
{
	mtpar_context *ctx = mtpar_context_new();
	mtpar_options opts;
	const char *out;
	char *copy = NULL;
	size_t n;

	mtpar_options_init(&opts);
	opts.unlimited_cost = 1; /* small loops: parallel code all the same */
	mtpar_add_source(ctx, name, text, len);
	if (mtpar_compile(ctx, &opts) == 0 && (out = mtpar_output(ctx, 0, &n)) != NULL) {
		copy = malloc(n + 1);
		memcpy(copy, out, n + 1);
	}
	if (diags)
		*diags = strdup(mtpar_diagnostics(ctx));
	mtpar_context_free(ctx);
	return copy;
}

int main(void)
{
	static const char good[] =
		"double a[4096], b[4096];\n"
		"void f(void)\n{\n"
		"\tfor (int i = 0; i < 4096; i++)\n\t\ta[i] = i * 0.5;\n"
		"\tfor (int i = 0; i < 4096; i++)\n\t\tb[i] = i * 2.0;\n}\n";
	static const char bad[] = "int f(void)\n{\n\treturn 1 +;\n}\n";
	const char *missing[] = { "no-such-file.c" }, *name = "good.c";
	size_t len = sizeof(good) - 1;
	char *first, *second, *third, *diags;
	mtpar_options opts;
	mtpar_context *ctx;

	first = compile_once(name, good, len, NULL);
	check(first && strstr(first, "#pragma omp"), "first run parallelizes");
	check(!compile_once("bad.c", bad, sizeof(bad) - 1, &diags), "bad source fails");
	check(strstr(diags, "bad.c:3:") && strstr(diags, "error:"), "bad source's located error");
	free(diags);
	mtpar_options_init(&opts);
	check(mtpar_run(&opts, 1, missing) == 1, "mtpar_run on a missing file fails");
	second = compile_once(name, good, len, &diags);
	check(second && first && strcmp(first, second) == 0, "good run after failed runs: same output");
	check(diags && !strstr(diags, "error"), "good run after failed runs: no error");
	free(diags);

	ctx = mtpar_context_new(); /* one context, compiled twice, a dump between */
	mtpar_add_source(ctx, name, good, len);
	opts.unlimited_cost = 1;
	opts.dump = MTPAR_DUMP_MT;
	check(mtpar_compile(ctx, &opts) == 0 && mtpar_result(ctx, "-", NULL) &&
	      !mtpar_output(ctx, 0, NULL), "dump kept as \"-\", no program");
	opts.dump = MTPAR_DUMP_NONE;
	opts.dot_mtg = "mtg.dot";
	check(mtpar_compile(ctx, &opts) == 0 && (third = (char *)mtpar_output(ctx, 0, NULL)) &&
	      strcmp(third, first) == 0, "same context, second compile: same output");
	check(mtpar_result(ctx, "mtg.dot", NULL) && strstr(mtpar_result(ctx, "mtg.dot", NULL), "digraph"),
	      "--dot kept in memory");
	opts.gantt = "g.svg"; /* Graphviz's layout twice in one process */
	check(mtpar_compile(ctx, &opts) == 0 && mtpar_compile(ctx, &opts) == 0 &&
	      mtpar_result(ctx, "g.svg", NULL) && strstr(mtpar_result(ctx, "g.svg", NULL), "<svg"),
	      "--gantt twice in one process");
	opts.gantt = NULL;
	opts.output = "x.c";
	mtpar_add_source(ctx, "second.c", good, len);
	check(mtpar_compile(ctx, &opts) == 1 && strstr(mtpar_diagnostics(ctx), "for 2 inputs"),
	      "one output for two sources is refused");
	mtpar_context_free(ctx);
	free(first);
	free(second);
	return failures != 0;
}
