/*
 * test_pp.c - the preprocessor scan: which byte ranges pp_scan hides from
 * tree-sitter (conditionals, specifier macros, attributes, initializers)
 * and the #if evaluator, checked through pp_dump's text; the #define lines,
 * enumerators and tokens it records for the middle end.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

/* pp_dump's output for text scanned with cfg (NULL: no options). Caller frees. */
static char *scan_dump(const char *text, const PPConfig *cfg, Source **out)
{
	Source *src = unit_source("t.c", text);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	CU_ASSERT_TRUE_FATAL(pp_scan(src, cfg));
	f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	pp_dump(f, src);
	fclose(f);
	if (out)
		*out = src;
	return buf;
}

static void check_dump(const char *text, const PPConfig *cfg, const char *want)
{
	char *got = scan_dump(text, cfg, NULL);

	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n--- want\n%s--- got\n%s", want, got);
	free(got);
}

/* The text of hidden span i. */
static char *span_text(const Source *src, uint32_t i)
{
	const Hidden *h = &src->hidden.items[i];

	return xstrndup(src->text + h->start, h->end - h->start);
}

/* Whether "#if expr" takes its branch under cfg. */
static bool if_true(const char *expr, const PPConfig *cfg)
{
	char text[512];
	Source *src;

	snprintf(text, sizeof(text), "#if %s\nint yes;\n#endif\n", expr);
	src = unit_source("t.c", xstrndup(text, strlen(text)));
	CU_ASSERT_TRUE_FATAL(pp_scan(src, cfg));
	return src->hidden.len == 2; /* #if and #endif; 3 with the inactive line */
}

static bool scan_fails(const char *text)
{
	int before = error_count();
	bool ok = pp_scan(unit_source("t.c", text), NULL);

	CU_ASSERT_TRUE(ok || error_count() > before); /* false always comes with a diagnostic */
	return !ok;
}

static void test_func_prefix(void)
{
	Source *src;
	char *dump = scan_dump("#if __STDC_VERSION__ < 199901L\n"
	                       "#define FUNC_PREFIX\n"
	                       "#else\n"
	                       "#define FUNC_PREFIX static inline\n"
	                       "#endif\n"
	                       "FUNC_PREFIX void node_X(float x[2]) { }\n", NULL, &src);

	CU_ASSERT_STRING_EQUAL(dump, "directive 1:1-1:30\n"
	                             "inactive 2:1-2:20\n"
	                             "directive 3:1-3:5\n"
	                             "directive 5:1-5:6\n"
	                             "macro 6:1-6:11 -> \"static inline\"\n");
	CU_ASSERT_STRING_EQUAL(src->hidden.items[4].expansion, "static inline");
	free(dump);
}

static void test_extern_c(void)
{
	check_dump("#ifdef __cplusplus\n"
	           "extern \"C\" {\n"
	           "#endif\n"
	           "int x;\n"
	           "#ifdef __cplusplus\n"
	           "}  // extern \"C\"\n"
	           "#endif\n", NULL,
	           "directive 1:1-1:18\n"
	           "inactive 2:1-2:13\n"
	           "directive 3:1-3:6\n"
	           "directive 5:1-5:18\n"
	           "inactive 6:1-6:17\n"
	           "directive 7:1-7:6\n");
}

static void test_attribute(void)
{
	Source *src;
	char *dump = scan_dump("static float w[4] __attribute__((section(\".rodata.tvm\"), )) ;\n"
	                       "int y __attribute ((aligned(8)));\n"
	                       "__declspec(dllexport) int z;\n"
	                       "int __attribute__;\n", NULL, &src);
	char *a = span_text(src, 0), *b = span_text(src, 1), *c = span_text(src, 2);

	CU_ASSERT_EQUAL(src->hidden.len, 3); /* a bare keyword stays for tree-sitter to reject */
	CU_ASSERT_STRING_EQUAL(a, "__attribute__((section(\".rodata.tvm\"), ))");
	CU_ASSERT_STRING_EQUAL(b, "__attribute ((aligned(8)))");
	CU_ASSERT_STRING_EQUAL(c, "__declspec(dllexport)");
	CU_ASSERT_PTR_NOT_NULL(strstr(dump, "attribute 1:19-1:59\n"));
	free(a);
	free(b);
	free(c);
	free(dump);
}

/* "static const float big[n] = {...};" with n elements of 13 bytes. */
static char *big_initializer(const char *name, int n)
{
	size_t cap = (size_t)n * 13 + 128, len;
	char *s = xmalloc(cap);

	len = (size_t)snprintf(s, cap, "static const float %s[%d] = {", name, n);
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, "%s{-0x1.9p-4}", i ? ", " : "");
	snprintf(s + len, cap - len, "};\n");
	return s;
}

static void test_initializer(void)
{
	char *big = big_initializer("w", 1000), *text = xmalloc(strlen(big) + 512), *t;
	Source *src;

	snprintf(text, strlen(big) + 512,
	         "struct s { int a; } v = { 1 };\n"
	         "int small[3] = {1, 2, 3};\n"
	         "%s"
	         "int f(void) { static int in[2] = {1, 2}; return in[0] == 1; }\n",
	         big);
	src = unit_source("t.c", text);
	CU_ASSERT_TRUE_FATAL(pp_scan(src, NULL));
	CU_ASSERT_EQUAL_FATAL(src->hidden.len, 1);
	CU_ASSERT_EQUAL(src->hidden.items[0].kind, HIDE_INITIALIZER);
	t = span_text(src, 0);
	CU_ASSERT_EQUAL(t[0], '=');
	CU_ASSERT_EQUAL(t[strlen(t) - 1], '}');
	CU_ASSERT_EQUAL(src->text[src->hidden.items[0].end], ';');
	free(t);
	free(big);
}

/* Braces in strings and comments, and a minimum from the config. */
static void test_initializer_lexing(void)
{
	PPConfig cfg = { .initializer_min = 16 };
	Source *src;
	char *dump = scan_dump("const char *s[] = { \"}\", /* } */ \"{\" // }\n };\n"
	                       "int a[] = {1}, b[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};\n"
	                       "int c == {1, 2, 3, 4, 5, 6, 7, 8};\n"
	                       "int d[] = {\n#if 1\n1, 2, 3, 4, 5, 6, 7, 8\n#endif\n};\n",
	                       &cfg, &src);

	CU_ASSERT_STRING_EQUAL(dump, "initializer 1:17-2:2\n"
	                             "initializer 3:20-3:48\n"
	                             "directive 6:1-6:5\n"
	                             "directive 8:1-8:6\n");
	free(dump);
}

static void test_elif_chain(void)
{
	check_dump("#if 0\na\n#elif 1 + 1 == 2\nb\n#elif 1\nc\n#else\nd\n#endif\n", NULL,
	           "directive 1:1-1:5\n"
	           "inactive 2:1-2:2\n"
	           "directive 3:1-3:16\n"
	           "directive 5:1-5:7\n"
	           "inactive 6:1-6:2\n"
	           "directive 7:1-7:5\n"
	           "inactive 8:1-8:2\n"
	           "directive 9:1-9:6\n");
	/* nested conditionals inside an inactive branch are only counted */
	check_dump("#if 0\n#if 1\nx\n#else\ny\n#endif\n#else\nz\n#endif\n", NULL,
	           "directive 1:1-1:5\n"
	           "inactive 2:1-6:7\n"
	           "directive 7:1-7:5\n"
	           "directive 9:1-9:6\n");
	/* continuation and comments inside a directive */
	check_dump("#if 1 /* a\n b */ && \\\n 0\nx\n#endif\n", NULL,
	           "directive 1:1-3:2\n"
	           "inactive 4:1-4:2\n"
	           "directive 5:1-5:6\n");
	check_dump("#ifdef X\n#elifndef Y\nint y;\n#endif\n", NULL,
	           "directive 1:1-1:8\n"
	           "directive 2:1-2:11\n"
	           "directive 4:1-4:6\n");
}

static void test_expressions(void)
{
	CU_ASSERT_TRUE(if_true("(2 * 3 + 1) % 4 == 3", NULL));
	CU_ASSERT_TRUE(if_true("0x10 == 16 && 010 == 8 && 0b11 == 3 && 10UL == 10", NULL));
	CU_ASSERT_TRUE(if_true("'a' == 97 && '\\n' == 10 && '\\x41' == 65 && '\\377' < 0", NULL));
	CU_ASSERT_TRUE(if_true("-1 < 0 && ~0 == -1 && !0 && +3 == 3", NULL));
	CU_ASSERT_TRUE(if_true("(1 << 4) == 16 && (-16 >> 2) == -4 && (6 & 3) == 2", NULL));
	CU_ASSERT_TRUE(if_true("(5 ^ 1) == 4 && (4 | 1) == 5 && 7 / 2 == 3 && -7 % 2 == -1", NULL));
	CU_ASSERT_TRUE(if_true("1 ? 2 ? 3 : 4 : 5 == 3", NULL));
	CU_ASSERT_TRUE(if_true("0 ? 1 : 0 ? 2 : 3", NULL));
	CU_ASSERT_TRUE(if_true("2 >= 2 && 2 <= 2 && 3 > 2 && 1 != 2", NULL));
	CU_ASSERT_TRUE(if_true("0 || 1 / 1", NULL));
	CU_ASSERT_TRUE(if_true("1 || 1 / 0", NULL));    /* not evaluated: no error */
	CU_ASSERT_FALSE(if_true("0 && 1 % 0", NULL));
	CU_ASSERT_FALSE(if_true("UNKNOWN", NULL));       /* unknown names are 0 */
	CU_ASSERT_FALSE(if_true("__cplusplus", NULL));
	CU_ASSERT_TRUE(scan_fails("#if __has_include(<stdio.h>)\n#endif\n")); /* not a guess */
	CU_ASSERT_TRUE(scan_fails("#if __has_attribute(unused) || F(1, (2))\n#endif\n"));
	CU_ASSERT_FALSE(if_true("F(1, (2))", NULL));
	CU_ASSERT_TRUE(if_true("__GNUC__ >= 4 && __x86_64__ && __SIZEOF_POINTER__ == 8", NULL));
	CU_ASSERT_TRUE(if_true("__STDC_VERSION__ >= 201112L && __STDC__", NULL));
	/* uintmax_t where a side is unsigned (C11 6.10.1p4), as gcc */
	CU_ASSERT_TRUE(if_true("-1 > 0u && (1 ? -1 : 0u) > 0 && -1 / 2u > 1000", NULL));
	CU_ASSERT_TRUE(if_true("(0u - 1) >> 63 == 1 && -1 >> 63 == -1 && -1 % 3u == 0", NULL));
	CU_ASSERT_TRUE(if_true("18446744073709551615 == -1 && 18446744073709551615 > 0", NULL));
	CU_ASSERT_TRUE(if_true("-1 < 0 && !(0u - 1) == 0 && (0u < -1) == 1", NULL));
	CU_ASSERT_TRUE(if_true("_OPENMP >= 201107", NULL)); /* the output is built with -fopenmp */
	/* what cpp defines itself: defined, and __LINE__ has the line's number */
	CU_ASSERT_TRUE(if_true("defined(__FILE__) && defined __has_include && __LINE__ == 1", NULL));
}

static void test_macros_in_if(void)
{
	check_dump("#define A B + 1\n#define B 2\n#define C C\n"
	           "#if A * 2 == 4 && !C\nint y;\n#endif\n", NULL,
	           "directive 4:1-4:20\n"
	           "directive 6:1-6:6\n");
	check_dump("#define F(x) x\n#if F(1)\nint n;\n#endif\n", NULL,
	           "directive 2:1-2:8\n"
	           "inactive 3:1-3:7\n"
	           "directive 4:1-4:6\n");
}

static void test_defined(void)
{
	check_dump("#define FOO\n"
	           "#if defined(FOO) && !defined BAR && defined FOO\nint a;\n#endif\n"
	           "#undef FOO\n"
	           "#if defined(FOO)\nint b;\n#endif\n"
	           "#ifndef FOO\nint c;\n#endif\n", NULL,
	           "directive 2:1-2:47\n"
	           "directive 4:1-4:6\n"
	           "directive 6:1-6:16\n"
	           "inactive 7:1-7:7\n"
	           "directive 8:1-8:6\n"
	           "directive 9:1-9:11\n"
	           "directive 11:1-11:6\n");
	/* a #define in an inactive branch does not count */
	check_dump("#if 0\n#define Z 1\n#endif\n#if Z\nint z;\n#endif\n", NULL,
	           "directive 1:1-1:5\n"
	           "inactive 2:1-2:12\n"
	           "directive 3:1-3:6\n"
	           "directive 4:1-4:5\n"
	           "inactive 5:1-5:7\n"
	           "directive 6:1-6:6\n");
}

static void test_config_defines(void)
{
	PPConfig cfg = { 0 };
	PPDefine d[] = {
		{ "MODE", "2" }, { "__GNUC__", NULL }, { "EMPTY", "" }, { "X", "1" },
		{ "X", NULL }, { "API", "static  const" },
	};
	Source *src;
	char *dump;

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		array_push(&cfg.defines, d[i]);
	CU_ASSERT_TRUE(if_true("MODE == 2", &cfg));
	CU_ASSERT_TRUE(if_true("!defined(__GNUC__) && defined(EMPTY) && !defined X", &cfg));
	CU_ASSERT_FALSE(if_true("MODE == 2", NULL));
	dump = scan_dump("EMPTY int z;\nAPI int w;\n", &cfg, &src);
	CU_ASSERT_STRING_EQUAL(dump, "macro 1:1-1:5 -> \"\"\n"
	                             "macro 2:1-2:3 -> \"static const\"\n");
	free(dump);
	array_free(&cfg.defines);
}

static void test_specifier_macros(void)
{
	check_dump("#define API EXPORT static\n"
	           "#define EXPORT __attribute__((used))\n"
	           "#define N 4\n"
	           "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n"
	           "API int f(int x[N]) { return MAX(x[0], 1); }\n"
	           "#undef API\n"
	           "int API;\n"
	           "TVM_DLL int g(void);\n"
	           "TVM_ALWAYS_INLINE int h(void);\n"
	           "#if 0\nTVM_DLL int i(void);\n#endif\n"
	           "const char *s = \"TVM_DLL __attribute__((x))\";\n", NULL,
	           "macro 5:1-5:3 -> \"__attribute__((used)) static\"\n"
	           "macro 8:1-8:7 -> \"\"\n"
	           "macro 9:1-9:17 -> \"inline\"\n"
	           "directive 10:1-10:5\n"
	           "inactive 11:1-11:21\n"
	           "directive 12:1-12:6\n");
	/* a definition that is not a specifier list turns the built-in off */
	check_dump("#define TVM_DLL 1\nTVM_DLL int g(void);\n", NULL, "");
}

/* Writes text to dir/name. */
static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void remove_file(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

static void test_include(void)
{
	char dir[] = "/tmp/mtpar-pp-XXXXXX";
	PPConfig cfg = { 0 };
	const char *text = "#include \"api.h\"\n#include <missing.h>\n"
	                   "#if INNER == 2\nTVM_DLL int f(void);\n#endif\n";
	Source *src;
	char *dump;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	write_file(dir, "api.h", "#ifndef API_H\n#define API_H\n" /* it includes itself */
	                         "#ifndef TVM_DLL\n"
	                         "#define TVM_DLL __attribute__((visibility(\"default\")))\n"
	                         "#endif\n"
	                         "#include \"inner.h\"\n#include \"api.h\"\n"
	                         "#if 0\n#define INNER 3\n#endif\n#endif\n");
	write_file(dir, "inner.h", "#define INNER 2 /* beside api.h */\n");
	array_push(&cfg.include_dirs, dir);
	dump = scan_dump(text, &cfg, &src);
	CU_ASSERT_STRING_EQUAL(dump, "directive 3:1-3:14\n"
	                             "macro 4:1-4:7 -> "
	                             "\"__attribute__((visibility(\\\"default\\\")))\"\n"
	                             "directive 5:1-5:6\n");
	CU_ASSERT_STRING_EQUAL(src->hidden.items[1].expansion,
	                       "__attribute__((visibility(\"default\")))");
	free(dump);
	/* without the include directory: INNER may come from api.h, not found: an error */
	CU_ASSERT_FALSE(pp_scan(unit_source("t.c", text), NULL));
	/* an include guard (`#ifndef G` then `#define G`) is let be; a default with a value is not */
	CU_ASSERT_TRUE(pp_scan(unit_source("g.c", "#include \"api.h\"\n#ifndef G_H\n#define G_H\n#endif\n"), NULL));
	CU_ASSERT_FALSE(pp_scan(unit_source("d.c", "#include \"api.h\"\n#ifndef N\n#define N 8\n#endif\n"), NULL));
	/* a reserved name is let be */
	check_dump("#include \"api.h\"\n#ifdef __cplusplus\nint g;\n#endif\n", NULL,
	           "directive 2:1-2:18\n"
	           "inactive 3:1-3:7\n"
	           "directive 4:1-4:6\n");
	/* an error inside a header fails the scan */
	write_file(dir, "inner.h", "#if 1\n");
	CU_ASSERT_FALSE(pp_scan(unit_source("t.c", text), &cfg));
	remove_file(dir, "api.h");
	remove_file(dir, "inner.h");
	rmdir(dir);
	array_free(&cfg.include_dirs);
}

/* The macros a file sees without defining them: -D, -U and its headers'. */
static void test_outside_macros(void)
{
	char dir[] = "/tmp/mtpar-pp-XXXXXX";
	PPConfig cfg = { 0 };
	PPDefine d[] = { { "M", "8" }, { "F(x)", "x" }, { "K", NULL } };
	const char *text = "int a;\n#include \"sizes.h\"\nint b[N];\n";
	Source *src = unit_source("t.c", text);
	const PPConst *c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	write_file(dir, "sizes.h", "#ifdef BIG\n#define N 4000\n#else\n# define N 400 /* rows */\n"
	                           "#endif\n#define TWICE (N * 2)\n#undef M\n#define HEX 0x10UL\n"
	                           "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n");
	array_push(&cfg.include_dirs, dir);
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		array_push(&cfg.defines, d[i]);
	CU_ASSERT_TRUE_FATAL(pp_scan(src, &cfg));
	CU_ASSERT_EQUAL_FATAL(src->outside.len, 8);
	c = src->outside.items;
	/* -D M=8, -D F(x)=x, -U K at byte 0 */
	CU_ASSERT(c[0].at == 0 && c[0].name == intern("M", 1) && c[0].is_int && c[0].value == 8);
	CU_ASSERT(c[1].at == 0 && c[1].name == intern("F", 1) && !c[1].is_int);
	CU_ASSERT(c[1].params && !strcmp(c[1].params, "x") && !strcmp(c[1].text, "x"));
	CU_ASSERT(c[2].at == 0 && c[2].name == intern("K", 1) && !c[2].is_int);
	/* the header's, at its #include: the active N only, an expression is no literal */
	CU_ASSERT(c[3].at == 7 && c[3].name == intern("N", 1) && c[3].is_int && c[3].value == 400);
	CU_ASSERT(c[4].name == intern("TWICE", 5) && !c[4].is_int);
	CU_ASSERT(c[5].name == intern("M", 1) && !c[5].is_int);
	CU_ASSERT(c[6].name == intern("HEX", 3) && c[6].is_int && c[6].value == 16);
	CU_ASSERT(c[7].name == intern("MAX", 3) && c[7].params && !strcmp(c[7].params, "a, b") &&
	          !strcmp(c[7].text, "((a) > (b) ? (a) : (b))"));
	remove_file(dir, "sizes.h");
	rmdir(dir);
	array_free(&cfg.include_dirs);
	array_free(&cfg.defines);
}

static void test_errors(void)
{
	CU_ASSERT_TRUE(scan_fails("#if 1\nint x;\n"));
	CU_ASSERT_TRUE(scan_fails("#if 0\n#if 1\n#endif\n"));
	CU_ASSERT_TRUE(scan_fails("#if 1\n#else\n#else\n#endif\n"));
	CU_ASSERT_TRUE(scan_fails("#if 1\n#else\n#elif 1\n#endif\n"));
	CU_ASSERT_TRUE(scan_fails("#endif\n"));
	CU_ASSERT_TRUE(scan_fails("#else\n"));
	CU_ASSERT_TRUE(scan_fails("#elif 1\n"));
	CU_ASSERT_TRUE(scan_fails("int x; /* never closed\n"));
	CU_ASSERT_TRUE(scan_fails("#if 1 /* never closed\n#endif\n"));
	CU_ASSERT_TRUE(scan_fails("#if 1 / 0\n#endif\n"));
	CU_ASSERT_TRUE(scan_fails("#if\n#endif\n"));
	CU_ASSERT_TRUE(scan_fails("#if (1\n#endif\n"));
	CU_ASSERT_TRUE(scan_fails("#if 1 2\n#endif\n"));
	CU_ASSERT_TRUE(scan_fails("#if 1.5\n#endif\n"));
	CU_ASSERT_TRUE(scan_fails("#if 09\n#endif\n"));
	CU_ASSERT_TRUE(scan_fails("#if defined\n#endif\n"));
	CU_ASSERT_TRUE(scan_fails("#if \"s\"\n#endif\n"));
	CU_ASSERT_TRUE(scan_fails("#ifdef\n#endif\n"));
	CU_ASSERT_FALSE(scan_fails("#if 0\n#if garbage (((\n#endif\n#endif\n"));
}

/* The tokens pp_next_token reads from text, each as "kind:spelling ". Caller frees. */
static char *tokens_of(const char *text)
{
	const char *p = text, *end = text + strlen(text);
	char *out = xcalloc(1, 1);
	size_t len = 0;
	PPToken t;

	while (pp_next_token(&p, end, &t)) {
		out = xrealloc(out, len + t.n + 4);
		len += (size_t)sprintf(out + len, "%c:%.*s ", t.kind, (int)t.n, t.s);
	}
	return out;
}

static void check_tokens(const char *text, const char *want)
{
	char *got = tokens_of(text);

	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n--- want %s\n--- got  %s\n", want, got);
	free(got);
}

/* The tokenizer the middle end reads macro bodies and hidden initializers with. */
static void test_tokens(void)
{
	int64_t v;
	PPToken t;
	const char *p = "0x10UL", *q = "1.5f";

	check_tokens(" ((x) * 2 + 1.5e-3f) /* c */ \\\n - 'a' ",
	             "p:( p:( i:x p:) p:* n:2 p:+ n:1.5e-3f p:) p:- s:'a' ");
	check_tokens("a<<=b>>c->d##e != \"s\\\"t\" .5 // rest", 
	             "i:a p:<<= i:b p:>> i:c p:-> i:d p:## i:e p:!= s:\"s\\\"t\" n:.5 ");
	check_tokens("x+=1;y[0]--", "i:x p:+= n:1 p:; i:y p:[ n:0 p:] p:-- ");
	check_tokens("  /* only */ ", "");
	CU_ASSERT_TRUE_FATAL(pp_next_token(&p, p + strlen(p), &t));
	CU_ASSERT_TRUE(pp_token_int(&t, &v) && v == 16);
	CU_ASSERT_TRUE(pp_token_is(&t, "0x10UL") && !pp_token_is(&t, "0x10"));
	CU_ASSERT_TRUE_FATAL(pp_next_token(&q, q + strlen(q), &t));
	CU_ASSERT_FALSE(pp_token_int(&t, &v));
}

static bool macro_is(const PPMacroDef *m, const char *name, const char *params,
                     const char *body)
{
	size_t np = params ? strlen(params) : 0, nb = strlen(body);

	return m->name_len == strlen(name) && memcmp(m->name, name, m->name_len) == 0 &&
	       m->is_func == (params != NULL) &&
	       (!params || ((size_t)(m->params_end - m->params) == np &&
	                    memcmp(m->params, params, np) == 0)) &&
	       (size_t)(m->end - m->body) == nb && memcmp(m->body, body, nb) == 0;
}

/* pp_next_define: the active #define lines, with parameters and continued bodies. */
static void test_macro_defs(void)
{
	Source *src = unit_source("t.c",
		"#define N 64\n"
		"  #  define SQ(x, y) ((x) * \\\n (y))\n"
		"#if 0\n#define DEAD 1\n#endif\n"
		"#ifdef N\n#define LIVE\n#else\n#define OTHER 2\n#endif\n"
		"#undef N\n#defined X\nint defined;\n#define\n");
	PPMacroDef m[4];
	uint32_t line = 0, n = 0;

	CU_ASSERT_TRUE_FATAL(pp_scan(src, NULL));
	while (n < 4 && pp_next_define(src, &line, &m[n]))
		n++;
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_TRUE(macro_is(&m[0], "N", NULL, " 64"));
	CU_ASSERT_TRUE(macro_is(&m[1], "SQ", "x, y", " ((x) * \\\n (y))"));
	CU_ASSERT_TRUE(macro_is(&m[2], "LIVE", NULL, ""));
	CU_ASSERT_FALSE(pp_next_define(src, &line, &m[3]));
}

/* pp_next_enumerator: the names starting enum items, in text order, even in #if 0. */
static void test_enumerators(void)
{
	Source *src = unit_source("t.c",
		"enum color { RED, GREEN = (1, 2), BLUE = f(RED, 3) };\n"
		"typedef enum { A = 1 << 2, B } ab;\n"
		"enum color c;\n"
		"#if 0\nenum { HIDDEN };\n#endif\n"
		"#define E enum { MACRO_E }\n"
		"const char *s = \"enum { NOT }\"; /* enum { NOR } */\n"
		"enum { LAST");
	static const char *const want[] = { "RED", "GREEN", "BLUE", "A", "B", "HIDDEN", "MACRO_E",
	                                    "LAST" };
	PPEnumScan es;
	PPToken t;
	uint32_t n = 0;

	CU_ASSERT_TRUE_FATAL(pp_scan(src, NULL));
	pp_enum_scan_init(&es, src);
	while (pp_next_enumerator(&es, &t)) {
		CU_ASSERT_TRUE_FATAL(n < 8);
		CU_ASSERT_TRUE(pp_token_is(&t, want[n]));
		n++;
	}
	CU_ASSERT_EQUAL(n, 8);
	CU_ASSERT_FALSE(pp_next_enumerator(&es, &t));
}

/* Spans are sorted and disjoint on a file that mixes every kind. */
static void test_sorted(void)
{
	PPConfig cfg = { .initializer_min = 8 };
	Source *src = unit_source("t.c",
		"#define S static\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
		"S const int a[4] __attribute__((aligned(16))) = {1, 2, 3, 4};\n"
		"#\n"
		"S int f(void) { int b[4] = {1, 2, 3, 4}; return b[0]; }\n"
		"#if 0\nS int g;\n#endif\n");
	uint32_t end = 0;

	CU_ASSERT_TRUE_FATAL(pp_scan(src, &cfg));
	CU_ASSERT_EQUAL(src->hidden.len, 11);
	for (uint32_t i = 0; i < src->hidden.len; i++) {
		CU_ASSERT_TRUE(src->hidden.items[i].start >= end);
		CU_ASSERT_TRUE(src->hidden.items[i].end > src->hidden.items[i].start);
		end = src->hidden.items[i].end;
	}
}

int suite_pp(void)
{
	CU_pSuite s = CU_add_suite("pp", NULL, NULL);

	return !s || !CU_add_test(s, "FUNC_PREFIX", test_func_prefix) ||
	       !CU_add_test(s, "extern C", test_extern_c) ||
	       !CU_add_test(s, "attribute", test_attribute) ||
	       !CU_add_test(s, "initializer", test_initializer) ||
	       !CU_add_test(s, "initializer lexing", test_initializer_lexing) ||
	       !CU_add_test(s, "elif chain", test_elif_chain) ||
	       !CU_add_test(s, "expressions", test_expressions) ||
	       !CU_add_test(s, "macros in #if", test_macros_in_if) ||
	       !CU_add_test(s, "defined", test_defined) ||
	       !CU_add_test(s, "-D and -U", test_config_defines) ||
	       !CU_add_test(s, "specifier macros", test_specifier_macros) ||
	       !CU_add_test(s, "include", test_include) ||
	       !CU_add_test(s, "errors", test_errors) ||
	       !CU_add_test(s, "sorted", test_sorted) ||
	       !CU_add_test(s, "tokens", test_tokens) ||
	       !CU_add_test(s, "#define lines", test_macro_defs) ||
	       !CU_add_test(s, "enumerators", test_enumerators) ||
	       !CU_add_test(s, "macros from -D and headers", test_outside_macros);
}
