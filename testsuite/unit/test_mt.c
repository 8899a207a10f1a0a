/*
 * test_mt.c - the cut into macro tasks on small programs run through the
 * whole front end (pp_scan, parse_source, lower_source, mt_build).
 */
#include <tree_sitter/api.h>

#include "unit.h"

/* Front end over one in-memory file; NULL if any stage failed. */
static Program *front(const char *text)
{
	return unit_front("mt.c", text, false);
}

static const char *kinds(const MT *parent, char *buf)
{
	char *p = buf;

	for (uint32_t i = 0; i < parent->children.len; i++)
		p += sprintf(p, "%s%s", i ? " " : "", mt_kind_name[parent->children.items[i]->kind]);
	*p = '\0';
	return buf;
}

static void test_straight_line(void)
{
	char buf[256];
	Program *prog = front(
		"static void op(float *x) { for (int i = 0; i < 8; i++) x[i] = i; }\n"
		"float a[8], b[8];\n"
		"int g(void);\n"
		"void entry(void) {\n"
		"  int k = 1;\n"
		"  k += g();\n"
		"  op(a);\n"
		"  (void)op(b);\n"
		"  for (int i = 0; i < 8; i++) { a[i] += b[i]; op(a); }\n"
		"  k++;\n"
		"}\n");
	MT *root, *rb;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	CU_ASSERT_EQUAL_FATAL(prog->funcs.len, 2);
	root = prog->funcs.items[1]->mt;
	CU_ASSERT_STRING_EQUAL(kinds(root, buf), "BB SB SB RB BB");
	CU_ASSERT_STRING_EQUAL(intern_name(root->children.items[1]->callee->name), "op");
	rb = root->children.items[3];
	CU_ASSERT_STRING_EQUAL(kinds(rb, buf), "BB SB");
	CU_ASSERT_EQUAL(rb->children.items[1]->parent, rb);
	CU_ASSERT_STRING_EQUAL(kinds(prog->funcs.items[0]->mt, buf), "RB");
}

static void test_branches(void)
{
	char buf[256];
	Program *prog = front(
		"static int op(float *x) { x[0] = 1; return 0; }\n"
		"float a[8];\n"
		"int entry(int c) {\n"
		"  if (op(a) != 0) return -1;\n"
		"  if (c) { op(a); } else { for (int i = 0; i < 8; i++) a[i] = 0; }\n"
		"  if (c > 1) c = 2;\n"
		"  return c;\n"
		"}\n");
	MT *root;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	root = prog->funcs.items[1]->mt;
	CU_ASSERT_STRING_EQUAL(kinds(root, buf), "SB BB SB RB BB");
	CU_ASSERT_TRUE(root->children.items[0]->ends_in_branch);
	CU_ASSERT_TRUE(root->children.items[1]->ends_in_branch);
	CU_ASSERT_PTR_EQUAL(root->children.items[2]->branch_mt, root->children.items[1]);
	CU_ASSERT_TRUE(root->children.items[2]->branch_dir);
	CU_ASSERT_FALSE(root->children.items[3]->branch_dir);
	CU_ASSERT_TRUE(root->children.items[4]->exits);
}

static void test_unmodelled(void)
{
	Program *prog = front(
		"void f(int *x) {\n"
		"  for (int i = 0; i < 4; i++) { if (x[i]) goto out; x[i] = 1; }\n"
		"out:\n"
		"  x[0] = 2;\n"
		"}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	CU_ASSERT_TRUE(prog->funcs.items[0]->mt->children.items[0]->unmodelled & (1u << UM_GOTO));
}

int suite_mt(void)
{
	CU_pSuite s = CU_add_suite("mt", NULL, NULL);

	return !s || !CU_add_test(s, "straight line", test_straight_line) ||
	       !CU_add_test(s, "branches", test_branches) ||
	       !CU_add_test(s, "unmodelled", test_unmodelled);
}
