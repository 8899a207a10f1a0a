/*
 * test_codegen.c - the code generator on hand-built plans over small
 * programs run through the front end: the clone's declarator and loop
 * header rewrite, the span block, point-to-point waits, and the plans it
 * must refuse or leave alone.
 */
#include <stdio.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "backend.h"
#include "unit.h"

int suite_codegen(void); /* until unit.h lists it */

/* hay contains needle */
#define HAS(hay, needle) CU_ASSERT_PTR_NOT_NULL(strstr((hay), (needle)))

/* Front end over one in-memory file; NULL if any stage failed. */
static Program *front(const char *text)
{
	return unit_front("cg.c", text, false);
}

static Func *find_func(const Program *prog, const char *name)
{
	return unit_func(prog, name);
}

/* A clone of callee whose every top-level loop is a part, the first one split. */
static Clone *clone_of(Func *callee, int id, bool split)
{
	Clone *c = ARENA_NEW(Clone);

	c->callee = callee;
	c->id = id;
	for (uint32_t i = 0; i < callee->body->body.len; i++) {
		Stmt *s = callee->body->body.items[i];
		SplitLoop sl = { 0 };

		if (s->kind != ST_FOR)
			continue;
		sl.top = sl.loop = s;
		sl.split = split && c->parts.len == 0;
		sl.lo = s->loop->lower;
		sl.hi = s->loop->upper;
		sl.step = s->loop->ivs.len ? s->loop->ivs.items[0].step : 1;
		array_push(&c->parts, sl);
	}
	return c;
}

static void add_task(ParPlan *p, TaskKind kind, MT *mt, Clone *c, int part, int64_t lo,
                     int64_t hi, const char *name)
{
	ParTask t = { 0 };

	t.kind = kind;
	t.mt = mt;
	t.clone = c;
	t.part = part;
	t.lo = lo;
	t.hi = hi;
	t.cost = 1;
	t.name = name;
	array_push(&p->tasks, t);
	sched_add_task(&p->graph, name, 1, -1);
}

/* A schedule with the given core of each task, in task order. */
static Schedule *fixed_schedule(const ParPlan *p, int ncores, const int *core_of)
{
	Schedule *s = ARENA_NEW(Schedule);

	s->ncores = ncores;
	s->kind = SCHED_CP_MISF;
	s->heuristic = "CP/MISF";
	s->core = arena_alloc((size_t)ncores * sizeof(*s->core));
	s->makespan = 2;
	s->seq_time = 4;
	for (uint32_t t = 0; t < p->tasks.len; t++)
		array_push(&s->core[core_of[t]], t);
	return s;
}

/* The text of the edit that starts at byte `at`, inserting (start == end) or not. */
static const char *edit_at(const EditList *el, uint32_t at, bool insertion)
{
	for (uint32_t i = 0; i < el->edits.len; i++) {
		const Edit *e = &el->edits.items[i];

		if (e->start == at && (e->start == e->end) == insertion)
			return e->text;
	}
	return "";
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static const char *conv_src =
	"#include <stdint.h>\n"
	"float a[1][4][32][32], b[1][4][32][32], c[1][4][32][32];\n"
	"static inline void op( const float x[1][4][32][32], float y[1][4][32][32] )\n"
	"{\n"
	"\t/* op */\n"
	"\tfor( int32_t o0=0, i0=-1; o0<32; o0++, i0+=1) {\n"
	"\t\ty[0][0][o0][0] = x[0][0][o0][0] + (float)i0;\n"
	"\t}\n"
	"}\n"
	"static void fill(void)\n"
	"{\n"
	"\tfor (int i = 0; i < 4; i++)\n"
	"\t\ta[0][i][0][0] = (float)i;\n"
	"}\n"
	"void entry(void)\n"
	"{\n"
	"\top( a, b );\n"
	"\top( b, c );\n"
	"\tfill();\n"
	"}\n";

/* entry's MT1 and MT2 in two chunks each, MT3 (fill) whole or as one chunk. */
static ParPlan *conv_plan(Program *prog, const int *core_of)
{
	Func *entry = find_func(prog, "entry");
	ParPlan *p = ARENA_NEW(ParPlan);
	MT **mts = entry->mt->children.items;
	Clone *c = clone_of(find_func(prog, "op"), 1, true);
	Clone *d = clone_of(find_func(prog, "fill"), 2, false);

	p->func = entry;
	p->root = p->func->mt;
	p->reps = 1;
	p->first = 0;
	p->last = 2;
	array_push(&p->clones, c);
	array_push(&p->clones, d);
	add_task(p, TASK_CHUNK, mts[0], c, 0, 0, 16, "MT1.p0[0:16)");
	add_task(p, TASK_CHUNK, mts[0], c, 0, 16, 32, "MT1.p0[16:32)");
	add_task(p, TASK_CHUNK, mts[1], c, 0, 0, 16, "MT2.p0[0:16)");
	add_task(p, TASK_CHUNK, mts[1], c, 0, 16, 32, "MT2.p0[16:32)");
	add_task(p, TASK_CHUNK, mts[2], d, 0, 0, 4, "MT3");
	sched_add_edge(&p->graph, 0, 2, 0);
	sched_add_edge(&p->graph, 0, 3, 0);
	sched_add_edge(&p->graph, 1, 2, 0);
	sched_add_edge(&p->graph, 1, 3, 0);
	sched_add_edge(&p->graph, 0, 4, 0);
	sched_add_edge(&p->graph, 2, 4, 0);
	sched_add_edge(&p->graph, 3, 4, 0);
	p->sched = fixed_schedule(p, 2, core_of);
	return p;
}

static void test_clone_header(void)
{
	static const int core_of[] = { 0, 1, 0, 1, 0 };
	Program *prog = front(conv_src);
	PlanList plans = { 0 };
	CodegenOptions opts = { 2, false, false, false };
	EditList el = { 0 };
	Func *op, *fill;
	const char *clone, *clone2;
	char why[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	array_push(&plans, conv_plan(prog, core_of));
	CU_ASSERT_TRUE_FATAL(check_plan(plans.items[0], why, sizeof(why)));
	CU_ASSERT_TRUE_FATAL(codegen_program(prog, &plans, &opts, &el));
	op = find_func(prog, "op");
	fill = find_func(prog, "fill");
	clone = edit_at(&el, op->end, true);
	HAS(clone, "static inline void op__mtpar1( const float x[1][4][32][32], "
	    "float y[1][4][32][32], int mtpar_part, long mtpar_lo, "
	    "long mtpar_hi )\n{");
	HAS(clone, " (void)mtpar_part; (void)mtpar_lo; (void)mtpar_hi;\n}");
	HAS(clone, "\tif (mtpar_part == 0) for( int32_t o0=mtpar_lo, "
	    "i0=(-1) + (1) * ((mtpar_lo - (0)) / (1)); "
	    "(o0<32) && o0 < mtpar_hi; o0++, i0+=1) {");
	HAS(clone, "/* op */");
	/* a (void) parameter list, and an unsplit part */
	clone2 = edit_at(&el, fill->end, true);
	HAS(clone2, "static void fill__mtpar2(int mtpar_part, long mtpar_lo, long mtpar_hi)\n");
	HAS(clone2, "if (mtpar_part == 0) for (int i = 0; i < 4; i++)");
	array_free(&el.edits);
}

static void test_span_block(void)
{
	static const int core_of[] = { 0, 1, 0, 1, 0 };
	Program *prog = front(conv_src);
	PlanList plans = { 0 };
	CodegenOptions opts = { 2, false, false, false };
	EditList el = { 0 };
	Func *entry;
	MT *first, *last;
	const char *block, *protos;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	array_push(&plans, conv_plan(prog, core_of));
	CU_ASSERT_TRUE_FATAL(codegen_program(prog, &plans, &opts, &el));
	entry = find_func(prog, "entry");
	first = entry->mt->children.items[0];
	last = entry->mt->children.items[2];
	/* runtime, clones, prototypes, the span: nothing else */
	CU_ASSERT_EQUAL(el.edits.len, 5);
	HAS(edit_at(&el, 0, true), "#ifndef MTPAR_RT_H");
	protos = edit_at(&el, entry->start, true);
	HAS(protos, "static inline void op__mtpar1( const float x[1][4][32][32], "
	    "float y[1][4][32][32], int mtpar_part, long mtpar_lo, "
	    "long mtpar_hi );\n");
	HAS(protos, "static void fill__mtpar2(int mtpar_part, long mtpar_lo, long mtpar_hi);\n");
	block = edit_at(&el, first->start, false);
	CU_ASSERT_EQUAL(el.edits.items[4].end, last->end);
	HAS(block, "static mtpar_sync_t mtpar_sync_entry[3];");
	HAS(block, "if (mtpar_can_fork(2) &&\n\t\t\tmtpar_enter(&mtpar_busy_entry)) {");
	HAS(block, "mtpar_leave(&mtpar_busy_entry);");
	HAS(block, "\n#pragma omp parallel num_threads(2)\n");
	HAS(block, "if (mtpar_team_size() == 2) {");
	HAS(block, "switch (mtpar_thread()) {");
	HAS(block, "(void)op__mtpar1(a, b, 0, 16, 32);");
	HAS(block, "(void)fill__mtpar2(0, 0, 4);");
	/* fallback: the original span, byte for byte */
	HAS(block, "if (!mtpar_ran) {\n\t\t\top( a, b );\n\top( b, c );\n"
	    "\tfill();\n\t\t}\n\t}");
	/*
	 * Each MT2 chunk waits for the MT1 chunk on the other core; MT3 waits
	 * only for MT2.p0[16:32), which implies MT1.p0[16:32).
	 */
	CU_ASSERT_EQUAL(count(block, "mtpar_wait("), 3);
	CU_ASSERT_EQUAL(count(block, "mtpar_post("), 3);
	HAS(block, "mtpar_wait(&mtpar_sync_entry[1], mtpar_gen); /* MT1.p0[16:32), core 1 */\n"
	    "\t\t\t\t\t\t(void)op__mtpar1(b, c, 0, 0, 16);");
	HAS(block, "mtpar_wait(&mtpar_sync_entry[2], mtpar_gen); /* MT2.p0[16:32), core 1 */\n"
	    "\t\t\t\t\t\t(void)fill__mtpar2(0, 0, 4);");
	CU_ASSERT_EQUAL(count(block, "case 0:"), 1);
	CU_ASSERT_EQUAL(count(block, "case 1:"), 1);
	array_free(&el.edits);
}

static void test_oscar_sections(void)
{
	static const int core_of[] = { 0, 1, 1, 0, 1 };
	Program *prog = front(conv_src);
	PlanList plans = { 0 };
	CodegenOptions opts = { 2, true, false, false };
	EditList el = { 0 };
	const char *block;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	array_push(&plans, conv_plan(prog, core_of));
	CU_ASSERT_TRUE_FATAL(codegen_program(prog, &plans, &opts, &el));
	block = edit_at(&el, find_func(prog, "entry")->mt->children.items[0]->start, false);
	HAS(block, "\n#pragma omp parallel sections num_threads(2)\n");
	CU_ASSERT_EQUAL(count(block, "\n#pragma omp section\n"), 2);
	HAS(block, "\n#pragma oscar execution vpe(0)\n");
	HAS(block, "\n#pragma oscar execution vpe(1)\n");
	CU_ASSERT_PTR_NULL(strstr(block, "switch"));
	array_free(&el.edits);
}

static void test_nothing_to_do(void)
{
	static const int one_core[] = { 0, 0, 0, 0, 0 };
	Program *prog = front(conv_src);
	PlanList plans = { 0 };
	CodegenOptions opts = { 2, false, false, false };
	EditList el = { 0 };
	ParPlan *seq = ARENA_NEW(ParPlan);

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	CU_ASSERT_TRUE(codegen_program(prog, &plans, &opts, &el));
	CU_ASSERT_EQUAL(el.edits.len, 0);
	seq->func = find_func(prog, "entry");
	seq->root = seq->func->mt;
	seq->reps = 1;
	seq->why_not = "no parallelism";
	array_push(&plans, seq);
	CU_ASSERT_TRUE(codegen_program(prog, &plans, &opts, &el));
	CU_ASSERT_EQUAL(el.edits.len, 0);
	/* a schedule that keeps every task on one core */
	array_push(&plans, conv_plan(prog, one_core));
	CU_ASSERT_TRUE(codegen_program(prog, &plans, &opts, &el));
	CU_ASSERT_EQUAL(el.edits.len, 0);
	array_free(&plans);
}

/* check_split on the first loop of f(float *y) { BODY }. */
static bool split_of(const char *body)
{
	static char text[512];
	char why[256];
	Program *prog;
	Func *f;
	Stmt *s = NULL;
	SplitLoop sl = { 0 };

	snprintf(text, sizeof(text), "void f(float *y) { %s }\n", body);
	if (!(prog = front(arena_strndup(text, strlen(text)))) || !(f = find_func(prog, "f")))
		return false;
	for (uint32_t i = 0; i < f->body->body.len && !s; i++)
		if (f->body->body.items[i]->kind == ST_FOR)
			s = f->body->body.items[i];
	if (!s)
		return false;
	sl.top = sl.loop = s;
	sl.split = true;
	sl.lo = s->loop->lower;
	sl.hi = s->loop->upper;
	sl.step = s->loop->ivs.len ? s->loop->ivs.items[0].step : 1;
	return check_split(&sl, f, why, sizeof(why));
}

static void test_split_checks(void)
{
	/* onnx2c's max pool: c copies m after m's update */
	CU_ASSERT_TRUE(split_of("for (unsigned m=0, c=0; m<8; m++, c=m) y[c] = m;"));
	/* a copy made before the update lags behind */
	CU_ASSERT_FALSE(split_of("for (unsigned m=0, c=0; m<8; c=m, m++) y[c] = m;"));
	/* a header variable that is not an IV */
	CU_ASSERT_FALSE(split_of("for (int i=0, j=1; i<8; i++, j=j*2) y[i] = j;"));
	/* a second IV whose start reads the first */
	CU_ASSERT_FALSE(split_of("for (int i=0, j=i; i<8; i++, j++) y[i] = j;"));
	/* the body moves an IV */
	CU_ASSERT_FALSE(split_of("for (int i=0, j=0; i<8; i++, j++) { y[i] = j; j++; }"));
	/* an IV declared outside and read after the loop */
	CU_ASSERT_FALSE(split_of("int i; for (i=0; i<8; i++) y[i] = 0; y[0] = i;"));
	/* a break leaves the loop */
	CU_ASSERT_FALSE(split_of("for (int i=0; i<8; i++) { if (y[i]) break; y[i] = 1; }"));
	/* counting down */
	CU_ASSERT_FALSE(split_of("for (int i=7; i>=0; i--) y[i] = 0;"));
	/* a pointer IV has a closed form */
	CU_ASSERT_TRUE(split_of("int i; float *p; for (i=0, p=y; i<8; i++, p+=2) *p = 0;"));
	/* a nested break is fine */
	CU_ASSERT_TRUE(split_of("for (int i=0; i<8; i++) for (int j=0; j<8; j++) if (j > i) break;"));
}

static const char *refuse_src =
	"float a[64], b[64];\n"
	"float *p;\n"
	"static void op(float *x, float *y) { for (int i = 0; i < 64; i++) y[i] = x[i]; }\n"
	"static void two(float *x, float *y) {\n"
	"  float s = 0;\n"
	"  for (int i = 0; i < 64; i++) s += x[i];\n"
	"  for (int i = 0; i < 64; i++) y[i] = x[i] / s;\n"
	"}\n"
	"void bump(void) { op(p++, b); op(a, b); }\n"
	"void decl(void) { int k = 0; op(a, b); op(b, a); (void)k; }\n"
	"void norm(void) { two(a, b); two(b, a); }\n";

/* Two chunks of MT index i of func, [0,32) and [32,64), both on core i % 2. */
static bool refused(Program *prog, const char *func, uint32_t first, uint32_t last,
                    const char *callee, char *why, size_t size)
{
	ParPlan *p = ARENA_NEW(ParPlan);
	Clone *c = clone_of(find_func(prog, callee), 1, true);
	MT **mts;

	p->func = find_func(prog, func);
	p->root = p->func->mt;
	p->reps = 1;
	p->first = first;
	p->last = last;
	mts = p->func->mt->children.items;
	array_push(&p->clones, c);
	for (uint32_t i = first; i <= last; i++) {
		if (mts[i]->kind != MT_SB) {
			add_task(p, TASK_WHOLE, mts[i], NULL, 0, 0, 0, "whole");
			continue;
		}
		for (uint32_t k = 0; k < c->parts.len; k++) {
			add_task(p, TASK_CHUNK, mts[i], c, (int)k, 0, c->parts.items[k].split ? 32 : 64, "lo");
			if (c->parts.items[k].split)
				add_task(p, TASK_CHUNK, mts[i], c, (int)k, 32, 64, "hi");
		}
	}
	return !check_plan(p, why, size);
}

static void test_refusals(void)
{
	Program *prog = front(refuse_src);
	char why[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	/* p++ would run once per chunk */
	CU_ASSERT_TRUE(refused(prog, "bump", 0, 1, "op", why, sizeof(why)));
	HAS(why, "side effects");
	/* k would end up inside a switch case */
	CU_ASSERT_TRUE(refused(prog, "decl", 0, 2, "op", why, sizeof(why)));
	HAS(why, "declares k");
	/* the sum s goes from the first part to the second */
	CU_ASSERT_TRUE(refused(prog, "norm", 0, 1, "two", why, sizeof(why)));
	HAS(why, "s carries a value");
	/* the plain case passes */
	CU_ASSERT_FALSE(refused(prog, "decl", 1, 2, "op", why, sizeof(why)));
}

static void test_tiling(void)
{
	Program *prog = front(refuse_src);
	ParPlan *p = ARENA_NEW(ParPlan);
	Clone *c;
	MT **mts;
	char why[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	c = clone_of(find_func(prog, "op"), 1, true);
	p->func = find_func(prog, "decl");
	p->root = p->func->mt;
	p->reps = 1;
	p->first = p->last = 1;
	mts = p->func->mt->children.items;
	array_push(&p->clones, c);
	add_task(p, TASK_CHUNK, mts[1], c, 0, 0, 30, "a");
	add_task(p, TASK_CHUNK, mts[1], c, 0, 32, 64, "b");
	CU_ASSERT_FALSE(check_plan(p, why, sizeof(why)));
	HAS(why, "do not tile");
	p->tasks.items[0].hi = 32;
	CU_ASSERT_TRUE(check_plan(p, why, sizeof(why)));
	p->tasks.items[1].hi = 60;
	CU_ASSERT_FALSE(check_plan(p, why, sizeof(why)));
}

static void test_folded_guards(void)
{
	static const int core_of[] = { 0, 1, 1 };
	Program *prog = front(
		"#include <stdint.h>\n"
		"float a[64], b[64], c[64];\n"
		"static int32_t op(void* x, void* y) {\n"
		"  void* t = y;\n"
		"  for (int32_t i = 0; i < 64; ++i) {\n"
		"    ((float*)t)[i] = ((float*)x)[i];\n"
		"  }\n"
		"  return 0;\n"
		"}\n"
		"int32_t run(void) {\n"
		"  if (op(a, b) != 0 ) return -1;\n"
		"  if (op(a, c) != 0) { return -1; }\n"
		"  return 0;\n"
		"}\n");
	PlanList plans = { 0 };
	CodegenOptions opts = { 2, false, false, false };
	EditList el = { 0 };
	ParPlan *p = ARENA_NEW(ParPlan);
	Clone *c;
	MT **mts;
	const char *block;
	char why[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	c = clone_of(find_func(prog, "op"), 7, true);
	p->func = find_func(prog, "run");
	p->root = p->func->mt;
	p->reps = 1;
	p->first = 0;
	p->last = 1;
	mts = p->func->mt->children.items;
	array_push(&p->clones, c);
	add_task(p, TASK_CHUNK, mts[0], c, 0, 0, 32, "lo");
	add_task(p, TASK_CHUNK, mts[0], c, 0, 32, 64, "hi");
	add_task(p, TASK_WHOLE, mts[1], NULL, 0, 0, 0, "whole");
	for (uint32_t t = 0; t < 3; t++)
		p->tasks.items[t].fold_guard = true;
	p->sched = fixed_schedule(p, 2, core_of);
	CU_ASSERT_TRUE_FATAL(check_plan(p, why, sizeof(why)));
	array_push(&plans, p);
	CU_ASSERT_TRUE_FATAL(codegen_program(prog, &plans, &opts, &el));
	block = edit_at(&el, mts[0]->start, false);
	HAS(block, "(void)op__mtpar7(a, b, 0, 32, 64);");
	HAS(block, "(void)op(a, c);");
	HAS(block, "if (op(a, b) != 0 ) return -1;");
	HAS(edit_at(&el, find_func(prog, "op")->end, true),
	    "if (mtpar_part == 0) for (int32_t i = mtpar_lo; (i < 64) && i < mtpar_hi; ++i) {");
	/* a guard whose value is kept is no guard */
	p->tasks.items[2].fold_guard = false;
	CU_ASSERT_FALSE(check_plan(p, why, sizeof(why)));
	array_free(&el.edits);
}

int suite_codegen(void)
{
	CU_pSuite s = CU_add_suite("codegen", NULL, NULL);

	return !s || !CU_add_test(s, "clone header", test_clone_header) ||
	       !CU_add_test(s, "span block", test_span_block) ||
	       !CU_add_test(s, "oscar sections", test_oscar_sections) ||
	       !CU_add_test(s, "nothing to do", test_nothing_to_do) ||
	       !CU_add_test(s, "split checks", test_split_checks) ||
	       !CU_add_test(s, "refusals", test_refusals) ||
	       !CU_add_test(s, "tiling", test_tiling) ||
	       !CU_add_test(s, "folded guards", test_folded_guards);
}
