/*
 * test_util.c - the shared containers (bitsets, arrays, interning), source
 * positions and the backend's edit list.
 */
#include <stdlib.h>
#include <string.h>

#include <tree_sitter/api.h>

#include "backend.h"
#include "middle.h"
#include "unit.h"

Source *unit_source(const char *name, const char *text)
{
	Source *src = xcalloc(1, sizeof(*src));
	uint32_t n = 1;

	src->path = name;
	src->text = text;
	src->len = (uint32_t)strlen(text);
	for (uint32_t i = 0; i < src->len; i++)
		n += text[i] == '\n';
	src->line_start = xmalloc(n * sizeof(*src->line_start));
	src->line_start[0] = 0;
	n = 1;
	for (uint32_t i = 0; i < src->len; i++)
		if (text[i] == '\n')
			src->line_start[n++] = i + 1;
	src->nlines = n;
	return src;
}

Program *unit_front(const char *name, const char *text, bool summaries)
{
	Program *prog = ARENA_NEW(Program);
	Source *src = unit_source(name, text);
	PPConfig cfg = { 0 };
	TSTree *tree;

	array_push(&prog->sources, src);
	if (!pp_scan(src, &cfg) || !(tree = parse_source(src)))
		return NULL;
	if (!lower_source(prog, src, tree))
		return NULL;
	lower_resolve_calls(prog);
	mt_build(prog);
	if (summaries)
		acc_compute_summaries(prog);
	return prog;
}

Func *unit_func(const Program *prog, const char *name)
{
	for (uint32_t i = 0; prog && i < prog->funcs.len; i++)
		if (strcmp(intern_name(prog->funcs.items[i]->name), name) == 0)
			return prog->funcs.items[i];
	return NULL;
}

static uint32_t rng_state;

void unit_seed(uint32_t seed)
{
	rng_state = seed;
}

uint32_t unit_rand(uint32_t n)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return (rng_state >> 8) % n;
}

void unit_random_dag(TaskGraph *g, const RandomDag *shape)
{
	uint32_t n = 1 + unit_rand(shape->max_tasks);
	uint32_t density = 5 + unit_rand(40); /* percent */

	memset(g, 0, sizeof(*g));
	for (uint32_t i = 0; i < n; i++) {
		double cost = unit_rand(shape->small_one_in) == 0 ? unit_rand(1000) / 64.0
		                                                  : 1 + unit_rand(shape->cost_max);
		int pin = shape->pin_one_in && unit_rand(shape->pin_one_in) == 0 ? (int)unit_rand(10) : -1;

		sched_add_task(g, NULL, cost, pin);
	}
	for (uint32_t j = 1; j < n; j++)
		for (uint32_t i = 0; i < j; i++)
			if (unit_rand(100) < density)
				sched_add_edge(g, i, j, unit_rand(shape->max_bytes));
}

static void test_bitset(void)
{
	Bitset a, b;
	uint32_t i, seen = 0;

	bitset_init(&a, 130);
	bitset_init(&b, 130);
	bitset_set(&a, 0);
	bitset_set(&a, 64);
	bitset_set(&b, 129);
	CU_ASSERT_TRUE(bitset_has(&a, 64));
	CU_ASSERT_FALSE(bitset_has(&a, 63));
	CU_ASSERT_FALSE(bitset_has(&a, 500));
	bitset_union(&a, &b);
	CU_ASSERT_EQUAL(bitset_count(&a), 3);
	for (i = 0; bitset_iter(&a, &i); i++)
		seen += i;
	CU_ASSERT_EQUAL(seen, 0 + 64 + 129);
	bitset_clear(&a, 64);
	CU_ASSERT_FALSE(bitset_has(&a, 64));
	CU_ASSERT_FALSE(bitset_equal(&a, &b));
	bitset_clear(&a, 0);
	CU_ASSERT_TRUE(bitset_equal(&a, &b));
}

static void test_array(void)
{
	Array(int) a = { 0 };

	for (int i = 0; i < 1000; i++)
		array_push(&a, i * 2);
	CU_ASSERT_EQUAL(a.len, 1000);
	CU_ASSERT_EQUAL(a.items[999], 1998);
	CU_ASSERT_EQUAL(array_last(&a), 1998);
	array_free(&a);
	CU_ASSERT_PTR_NULL(a.items);
}

static void test_intern(void)
{
	int x = intern("node_conv", 9);
	int y = intern("node_conv_extra", 9);
	char buf[64];

	CU_ASSERT_EQUAL(x, y);
	CU_ASSERT_STRING_EQUAL(intern_name(x), "node_conv");
	CU_ASSERT_NOT_EQUAL(intern("a", 1), intern("b", 1));
	for (int i = 0; i < 5000; i++) { /* survives growth */
		snprintf(buf, sizeof(buf), "v%d", i);
		intern(buf, strlen(buf));
	}
	CU_ASSERT_EQUAL(intern("node_conv", 9), x);
	CU_ASSERT_STRING_EQUAL(intern_name(0), "");
}

static void test_source_pos(void)
{
	Source *src = unit_source("t.c", "ab\n\ncd\n");
	uint32_t line, col;

	source_pos(src, 0, &line, &col);
	CU_ASSERT(line == 1 && col == 1);
	source_pos(src, 4, &line, &col);
	CU_ASSERT(line == 3 && col == 1);
	source_pos(src, 5, &line, &col);
	CU_ASSERT(line == 3 && col == 2);
}

char *unit_edited(const Source *src, EditList *list)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	CU_ASSERT_TRUE(edit_apply(src, list, f));
	fclose(f);
	return buf;
}

static void test_edits(void)
{
	Source *src = unit_source("t.c", "int f(void) { return 1; }\n");
	EditList list = { 0 };
	char *out = unit_edited(src, &list);

	CU_ASSERT_STRING_EQUAL(out, src->text); /* no edits: byte-identical */
	free(out);
	edit_replace(&list, 21, 22, "2");
	edit_insert(&list, 0, "/* a */ ");
	edit_insert(&list, 0, "/* b */"); /* same offset: in the order made */
	edit_insert(&list, 26, "// end\n");
	out = unit_edited(src, &list);
	CU_ASSERT_STRING_EQUAL(out, "/* a */ /* b */int f(void) { return 2; }\n// end\n");
	free(out);
	array_free(&list.edits);
}

static void test_key_map(void)
{
	KeyMap m = { 0 };
	uint32_t v = 0;

	CU_ASSERT_FALSE(map_get(&m, 42, &v));
	for (uint32_t i = 1; i <= 1000; i++) /* grows several times */
		map_put(&m, (uint64_t)i * 4096, i);
	map_put(&m, 4096, 7); /* a key put again: its value replaced */
	CU_ASSERT_EQUAL(m.len, 1000);
	CU_ASSERT_TRUE(map_get(&m, 4096, &v) && v == 7);
	CU_ASSERT_TRUE(map_get(&m, 1000 * 4096, &v) && v == 1000);
	CU_ASSERT_FALSE(map_get(&m, 4097, &v));
	map_free(&m);
	CU_ASSERT_FALSE(map_get(&m, 4096, &v));
}

/* Where the region goes in front of the statement at the marker '@'. */
static uint32_t pragma_start(const char *text)
{
	Source *src = unit_source("t.c", text);

	return scan_pragmas_before(src, (uint32_t)(strchr(text, '@') - text));
}

static void test_pragmas_before(void)
{
	CU_ASSERT_EQUAL(pragma_start("int x;\n@for"), 7);
	CU_ASSERT_EQUAL(pragma_start("@for"), 0);
	CU_ASSERT_EQUAL(pragma_start("{\n#pragma GCC ivdep\n@for"), 2);
	CU_ASSERT_EQUAL(pragma_start("{\n  # pragma omp simd\n  @for"), 4); /* indentation stays out */
	CU_ASSERT_EQUAL(pragma_start("{\n#pragma a\n#pragma b\r\n@for"), 2);
	CU_ASSERT_EQUAL(pragma_start("{\n#pragma omp for \\\n schedule(static)\n@for"), 2);
	CU_ASSERT_EQUAL(pragma_start("{\n#define P 1\n@for"), 14);
	CU_ASSERT_EQUAL(pragma_start("{\nx = 1; @for"), 9);     /* not first on its line */
	CU_ASSERT_EQUAL(pragma_start("{\n#pragmatic\n@for"), 13); /* not a pragma */
}

int suite_util(void)
{
	CU_pSuite s = CU_add_suite("util", NULL, NULL);

	return !s || !CU_add_test(s, "bitset", test_bitset) ||
	       !CU_add_test(s, "array", test_array) ||
	       !CU_add_test(s, "intern", test_intern) ||
	       !CU_add_test(s, "source_pos", test_source_pos) ||
	       !CU_add_test(s, "edit list", test_edits) ||
	       !CU_add_test(s, "key map", test_key_map) ||
	       !CU_add_test(s, "pragmas before a statement", test_pragmas_before);
}
