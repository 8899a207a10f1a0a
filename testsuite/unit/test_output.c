/*
 * test_output.c - what reaches the user: the edit list's #line directives
 * (every original line keeps its number after edits that add or remove
 * lines, never a directive cut into a preprocessor line), the diagnostics
 * channel (the caret under the column, tabs kept; remark classes filtered)
 * and the output writer's memory mode (nothing touches the disk, texts
 * reach the caller only at the commit).
 */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "unit.h"

#define HAS(hay, needle) CU_ASSERT_PTR_NOT_NULL(strstr((hay), (needle)))

/* An insertion of three lines at the top and a one-line replacement of two lines. */
static void test_line_directives(void)
{
	Source *src = unit_source("l.c", "int a;\nint b;\nint c;\nint d;\nint e;\n");
	EditList el = { .line_directives = true };
	char *out;

	edit_insert(&el, 0, "/* 1 */\n/* 2 */\n/* 3 */\n");
	edit_replace(&el, 7, 21, "int bc;"); /* "int b;\nint c;\n" */
	out = unit_edited(src, &el);
	HAS(out, "/* 3 */\n#line 1 \"l.c\"\nint a;\nint bc;\n#line 4 \"l.c\"\nint d;\n" ) ;
	array_free(&el.edits);
	free(out);
}

/* Mid-line resumption: a newline, the #line, then blanks up to the column. */
static void test_line_column(void)
{
	Source *src = unit_source("m.c", "int x = f(1,\n\t2);\n");
	EditList el = { .line_directives = true };
	char *out;

	edit_replace(&el, 8, 9, "g\n"); /* f -> g and a newline: the rest drifts */
	out = unit_edited(src, &el);
	HAS(out, "int x = g\n#line 1 \"m.c\"\n         (1,\n\t2);\n");
	array_free(&el.edits);
	free(out);
}

/* No directive inside a preprocessor line, nor without line_directives. */
static void test_line_directive_lines(void)
{
	Source *src = unit_source("d.c", "#define A \\\n  1\nint y;\n");
	EditList el = { .line_directives = true }, plain = { 0 };
	char *out;

	edit_insert(&el, 14, "\n\n"); /* inside the continued #define */
	out = unit_edited(src, &el);
	CU_ASSERT_PTR_NULL(strstr(out, "\n  #line"));
	HAS(out, "#line 3 \"d.c\"\nint y;");
	free(out);
	edit_insert(&plain, 0, "/* x */\n");
	out = unit_edited(src, &plain);
	CU_ASSERT_PTR_NULL(strstr(out, "#line"));
	array_free(&el.edits);
	array_free(&plain.edits);
	free(out);
}

/* A CRLF continuation and a comment across lines keep the directive whole; an input's own #line wins. */
static void test_directive_shapes(void)
{
	Source *crlf = unit_source("r.c", "#define A \\\r\n  1\r\nint y;\r\n");
	Source *comm = unit_source("k.c", "#define B 1 /* x\n y */\nint z;\n");
	Source *own = unit_source("o.c", "#line 100 \"p.y\"\nint w;\nint v;\n");
	EditList el = { .line_directives = true };
	char *out;

	edit_insert(&el, 14, "\n\n");
	out = unit_edited(crlf, &el);
	CU_ASSERT_PTR_NULL(strstr(out, "  #line"));
	HAS(out, "1\r\n#line 3 \"r.c\"\nint y;");
	free(out);
	el.edits.len = 0;
	edit_insert(&el, 12, "\n\n");
	out = unit_edited(comm, &el);
	HAS(out, " y */\n#line 3 \"k.c\"\nint z;");
	free(out);
	own->has_line_markers = true; /* as source_read finds it */
	el.edits.len = 0;
	edit_insert(&el, 17, "\n\n");
	out = unit_edited(own, &el);
	CU_ASSERT_PTR_NULL(strstr(out, "o.c"));
	array_free(&el.edits);
	free(out);
}

typedef struct Caught {
	char text[512];
	int count;
} Caught;

static void catch_diag(void *user, DiagKind kind, const char *text)
{
	Caught *c = user;

	(void)kind;
	snprintf(c->text + strlen(c->text), sizeof(c->text) - strlen(c->text), "%s", text);
	c->count++;
}

static void test_caret_and_classes(void)
{
	Source *src = unit_source("c.c", "int f(void)\n{\n\treturn 1 +;\n}\n");
	Caught c = { "", 0 };
	DiagConfig dc = { catch_diag, &c, 1u << DIAG_MISSED, true };

	diag_configure(&dc);
	error_at(src, 25, "expected an expression"); /* the ';' */
	CU_ASSERT_STRING_EQUAL(c.text, "c.c:3:12: error: expected an expression\n"
	                               "    3 | \treturn 1 +;\n"
	                               "      | \t          ^\n");
	CU_ASSERT_EQUAL(error_count(), 1);
	c.text[0] = '\0';
	remark_at(DIAG_OPTIMIZED, src, 0, "not asked for");
	remark_at(DIAG_MISSED, src, 0, "asked for");
	CU_ASSERT_STRING_EQUAL(c.text, "c.c:1:1: missed: asked for\n"); /* no caret under remarks */
	CU_ASSERT_EQUAL(c.count, 2);
	diag_configure(NULL);
	CU_ASSERT_EQUAL(error_count(), 0);
}

typedef struct Taken {
	char path[64], text[64];
	int count;
} Taken;

static void take(void *user, const char *path, const char *text, size_t len)
{
	Taken *t = user;

	snprintf(t->path, sizeof(t->path), "%s", path);
	snprintf(t->text, sizeof(t->text), "%.*s", (int)len, text);
	t->count++;
}

static bool write_hello(FILE *out, void *ctx)
{
	(void)ctx;
	return fputs("hello\n", out) >= 0;
}

/* Memory mode: no file is created, the caller gets the text at the commit only. */
static void test_output_in_memory(void)
{
	const char *path = "/nonexistent-dir/never.c";
	Taken t = { "", "", 0 };

	output_begin(take, &t);
	CU_ASSERT_EQUAL(output_write(path, write_hello, NULL), OUTPUT_OK);
	CU_ASSERT_EQUAL(t.count, 0);
	CU_ASSERT_TRUE(output_commit());
	CU_ASSERT_EQUAL(t.count, 1);
	CU_ASSERT_STRING_EQUAL(t.path, path);
	CU_ASSERT_STRING_EQUAL(t.text, "hello\n");
	output_begin(take, &t);
	CU_ASSERT_EQUAL(output_write(path, write_hello, NULL), OUTPUT_OK);
	output_abort(); /* a failed run: the caller gets nothing */
	CU_ASSERT_EQUAL(t.count, 1);
}

int suite_output(void)
{
	CU_pSuite s = CU_add_suite("output", NULL, NULL);

	return !s || !CU_add_test(s, "line directives", test_line_directives) ||
	       !CU_add_test(s, "line column", test_line_column) ||
	       !CU_add_test(s, "no line directive in a directive", test_line_directive_lines) ||
	       !CU_add_test(s, "directive shapes", test_directive_shapes) ||
	       !CU_add_test(s, "caret and remark classes", test_caret_and_classes) ||
	       !CU_add_test(s, "output in memory", test_output_in_memory);
}
