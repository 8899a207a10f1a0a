/*
 * test_plan.c - the parallel plan (plan.c) and chunk summaries (summary.c)
 * on small programs run through the front end and acc_compute_summaries:
 * which SBs are split into chunks and which stay whole, folded guards,
 * where the span stops, and the edges between chunks of consecutive
 * layers.  A wrong "split" here would be a miscompile.
 */
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "middle.h"
#include "unit.h"

int suite_plan(void);

static Program *front(const char *text)
{
	return unit_front("plan.c", text, true);
}

/* The plan of function name, NULL if none. */
static ParPlan *plan_of(const PlanList *pl, const char *name)
{
	for (uint32_t i = 0; i < pl->len; i++)
		if (strcmp(intern_name(pl->items[i]->func->name), name) == 0)
			return pl->items[i];
	return NULL;
}

/* The tasks of the span MT with this callee: first index, count. */
static uint32_t tasks_of(const ParPlan *p, const char *callee, uint32_t *first)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < p->tasks.len; i++) {
		const MT *mt = p->tasks.items[i].mt;

		if (mt->kind != MT_SB || strcmp(intern_name(mt->callee->name), callee) != 0)
			continue;
		if (n++ == 0)
			*first = i;
	}
	return n;
}

/* Is there an edge a -> b in the plan's task graph? */
static bool has_edge(const ParPlan *p, uint32_t a, uint32_t b)
{
	const SchedTask *t = &p->graph.tasks.items[a];

	for (uint32_t i = 0; i < t->succ.len; i++)
		if (t->succ.items[i] == b)
			return true;
	return false;
}

/* plan_dump's text (for the dump's determinism and the reasons it gives). */
static char *dump(const PlanList *pl)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	plan_dump(f, pl);
	fclose(f);
	return buf;
}

/* An onnx2c convolution: the b loop has one trip, the m loop is split. */
#define CONV(NAME, C, M)                                                            \
	"static void " NAME "(const float x[1][" #C "][16][16], const float w[" #M "][" #C \
	"][3][3], float y[1][" #M "][16][16]) {\n"                                      \
	"  for (uint32_t b=0; b<1; b++) {\n"                                            \
	"  for (uint32_t m=0; m<" #M "; m++) {\n"                                       \
	"    for (int32_t o0=0, i0=-1; o0<16; o0++, i0+=1) {\n"                         \
	"    for (int32_t o1=0, i1=-1; o1<16; o1++, i1+=1) {\n"                         \
	"      y[b][m][o0][o1] = 0;\n"                                                  \
	"      for (int32_t c=0; c<" #C "; c++) {\n"                                    \
	"      for (int32_t k0=0; k0<3; k0++) {\n"                                      \
	"      for (int32_t k1=0; k1<3; k1++) {\n"                                      \
	"        int ii0 = i0+k0; int ii1 = i1+k1;\n"                                   \
	"        if (ii0 >= 0 && ii0 < 16 && ii1 >= 0 && ii1 < 16)\n"                   \
	"          y[b][m][o0][o1] += x[b][c][ii0][ii1] * w[m][c][k0][k1];\n"           \
	"      } } }\n"                                                                 \
	"    } }\n"                                                                     \
	"  } }\n"                                                                       \
	"}\n"

#define HEADER "#include <stdint.h>\n"

/* A conv is split on m; its chunks write disjoint channels and are independent. */
static void test_conv_split(void)
{
	Program *prog = front(HEADER
		"static float in[1][32][16][16], w1[32][32][3][3], w2[32][32][3][3];\n"
		"static float t1[1][32][16][16], t2[1][32][16][16];\n"
		CONV("conv1", 32, 32) CONV("conv2", 32, 32)
		"void entry(void) { conv1(in, w1, t1); conv2(t1, w2, t2); }\n");
	PlanList pl;
	ParPlan *p;
	uint32_t first = 0, n;
	Dep d;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 4 });
	p = plan_of(&pl, "entry");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NULL_FATAL(p->why_not);
	n = tasks_of(p, "conv1", &first);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	for (uint32_t i = 0; i < n; i++) {
		const ParTask *t = &p->tasks.items[first + i];

		CU_ASSERT_EQUAL(t->kind, TASK_CHUNK);
		CU_ASSERT_EQUAL(t->lo, 8 * (int64_t)i);
		CU_ASSERT_EQUAL(t->hi, 8 * (int64_t)i + 8);
		for (uint32_t j = i + 1; j < n; j++)
			CU_ASSERT_FALSE(dep_summary_conflict(t->summary, p->tasks.items[first + j].summary, &d));
	}
	CU_ASSERT_TRUE(p->tasks.items[first].clone->parts.items[0].split);
	/* the loop split is m, below the one-trip b loop */
	CU_ASSERT_PTR_NOT_EQUAL(p->tasks.items[first].clone->parts.items[0].loop,
	                        p->tasks.items[first].clone->parts.items[0].top);
	/* conv2 reads all of t1: every chunk of conv2 waits for every chunk of conv1 */
	CU_ASSERT_EQUAL(tasks_of(p, "conv2", &first), 4);
	for (uint32_t i = 0; i < 4; i++)
		for (uint32_t j = 0; j < 4; j++)
			CU_ASSERT_TRUE(has_edge(p, i, first + j));
	CU_ASSERT_TRUE(p->sched->makespan < p->sched->seq_time / 3);
	arena_free_all();
}

/*
 * Two branches reading the stem's output are independent of each other;
 * the plan goes to net(), the callee of main()'s loop that holds the work.
 */
static void test_branches(void)
{
	Program *prog = front(HEADER
		"static float in[1][32][16][16], w1[32][32][3][3];\n"
		"static float t1[1][32][16][16], t2[1][32][16][16], t3[1][32][16][16];\n"
		CONV("stem", 32, 32) CONV("left", 32, 32) CONV("right", 32, 32)
		"int main(void) { for (int r = 0; r < 3; r++) { stem(in, w1, t1); left(t1, w1, t2);\n"
		"  right(t1, w1, t3); } return 0; }\n");
	PlanList pl;
	ParPlan *p;
	uint32_t fl = 0, fr = 0, fs = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2 });
	CU_ASSERT_EQUAL_FATAL(pl.len, 1);
	p = pl.items[0];
	/*
	 * the calls sit in a loop of main(), one whole task at main's level; the
	 * span is the loop's body instead, a region per iteration
	 */
	CU_ASSERT_STRING_EQUAL(intern_name(p->func->name), "main");
	CU_ASSERT_PTR_NULL(p->why_not);
	CU_ASSERT_TRUE(p->root != p->func->mt && p->root->kind == MT_RB);
	CU_ASSERT_EQUAL(p->reps, 3);
	arena_free_all();

	prog = front(HEADER
		"static float in[1][32][16][16], w1[32][32][3][3];\n"
		"static float t1[1][32][16][16], t2[1][32][16][16], t3[1][32][16][16];\n"
		CONV("stem", 32, 32) CONV("left", 32, 32) CONV("right", 32, 32)
		"static void net(void) { stem(in, w1, t1); left(t1, w1, t2); right(t1, w1, t3); }\n"
		"int main(void) { for (int r = 0; r < 3; r++) net(); return 0; }\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2 });
	CU_ASSERT_EQUAL_FATAL(pl.len, 1);
	p = pl.items[0];
	CU_ASSERT_STRING_EQUAL(intern_name(p->func->name), "net");
	CU_ASSERT_PTR_NULL_FATAL(p->why_not);
	CU_ASSERT_EQUAL_FATAL(tasks_of(p, "stem", &fs), 2);
	CU_ASSERT_EQUAL_FATAL(tasks_of(p, "left", &fl), 2);
	CU_ASSERT_EQUAL_FATAL(tasks_of(p, "right", &fr), 2);
	for (uint32_t i = 0; i < 2; i++) {
		for (uint32_t j = 0; j < 2; j++) {
			CU_ASSERT_TRUE(has_edge(p, fs + i, fl + j));
			CU_ASSERT_TRUE(has_edge(p, fs + i, fr + j));
			CU_ASSERT_FALSE(has_edge(p, fl + i, fr + j));
		}
	}
	arena_free_all();
}

/*
 * Elementwise add, then relu on its result: aligned chunks, so relu's
 * chunk k depends only on add's chunk k.
 */
static void test_aligned_layers(void)
{
	Program *prog = front(HEADER
		"static float a[65536], b[65536], s[65536], r[65536];\n"
		"static void add(const float *x, const float *y, float *z) {\n"
		"  for (uint32_t i = 0; i < 65536; i++) z[i] = x[i] + y[i]; }\n"
		"static void relu(const float X[65536], float Y[65536]) {\n"
		"  float *X_ptr = (float*)X; float *Y_ptr = (float*)Y; uint32_t i;\n"
		"  for (i = 0; i < 65536; i++) Y_ptr[i] = X_ptr[i] > 0 ? X_ptr[i] : 0; }\n"
		"void entry(void) { add(a, b, s); relu(s, r); }\n");
	PlanList pl;
	ParPlan *p;
	uint32_t fa = 0, fr = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2 });
	p = plan_of(&pl, "entry");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NULL_FATAL(p->why_not);
	CU_ASSERT_EQUAL_FATAL(tasks_of(p, "add", &fa), 2);
	CU_ASSERT_EQUAL_FATAL(tasks_of(p, "relu", &fr), 2);
	CU_ASSERT_TRUE(has_edge(p, fa, fr));
	CU_ASSERT_TRUE(has_edge(p, fa + 1, fr + 1));
	CU_ASSERT_FALSE(has_edge(p, fa, fr + 1));
	CU_ASSERT_FALSE(has_edge(p, fa + 1, fr));
	CU_ASSERT_EQUAL(p->graph.tasks.items[fr].pred.len, 1);
	arena_free_all();
}

/*
 * Loops that must not be split, each beside a conv that keeps the plan
 * worth it: a recurrence a[i] = a[i-1] + 1, a scalar sum into one
 * location, the `m++, c=m` header, and a prologue that calls a function.
 */
static void test_not_split(void)
{
	Program *prog = front(HEADER
		"float scale(void);\n"
		"static float in[1][32][16][16], w1[32][32][3][3], t1[1][32][16][16];\n"
		"static float a[100000], x[100000], s[1], p[64][4096], q[64][4096], y[100000];\n"
		CONV("conv1", 32, 32)
		"static void scan(float *v) {\n"
		"  for (int i = 1; i < 100000; i++) v[i] = v[i-1] + 1; }\n"
		"static void sum(const float *v, float *out) {\n"
		"  for (int i = 0; i < 100000; i++) out[0] += v[i]; }\n"
		"static void pool(const float X[64][4096], float Y[64][4096]) {\n"
		"  for (uint32_t m=0, c=0; m<64; m++, c=m) {\n"
		"    for (int k = 0; k < 4096; k++) Y[m][k] = X[c][k] * 2; } }\n"
		"static void scaled(const float *v, float *out) {\n"
		"  float k = scale();\n"
		"  for (int i = 0; i < 100000; i++) out[i] = v[i] * k; }\n"
		"void entry(void) { conv1(in, w1, t1); scan(a); sum(x, s); pool(p, q); scaled(x, y); }\n");
	PlanList pl;
	ParPlan *p;
	uint32_t f = 0;
	char *text;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2 });
	p = plan_of(&pl, "entry");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NULL_FATAL(p->why_not);
	CU_ASSERT_EQUAL(tasks_of(p, "conv1", &f), 2);
	CU_ASSERT_EQUAL(tasks_of(p, "scan", &f), 1);
	CU_ASSERT_EQUAL(p->tasks.items[f].kind, TASK_WHOLE);
	CU_ASSERT_PTR_NOT_NULL(strstr(p->tasks.items[f].note, "depend on each other"));
	CU_ASSERT_EQUAL(tasks_of(p, "sum", &f), 1);
	CU_ASSERT_EQUAL(p->tasks.items[f].kind, TASK_WHOLE);
	CU_ASSERT_PTR_NOT_NULL(strstr(p->tasks.items[f].note, "depend on each other"));
	/* c copies m in the step (onnx2c's max-pool): the loop splits over m */
	CU_ASSERT_EQUAL(tasks_of(p, "pool", &f), 2);
	/* scaled calls an unknown function: the SB cannot even run in the region */
	CU_ASSERT_EQUAL(tasks_of(p, "scaled", &f), 0);
	text = dump(&pl);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "plan entry: span MT1..MT4"));
	free(text);
	arena_free_all();
}

/* A prologue declaration that calls a (known, pure) function is not repeated per chunk. */
static void test_prologue_call(void)
{
	Program *prog = front(HEADER
		"static float in[1][32][16][16], w1[32][32][3][3], t1[1][32][16][16];\n"
		"static float x[100000], y[100000];\n"
		CONV("conv1", 32, 32)
		"static float half(void) { return 0.5f; }\n"
		"static void scaled(const float *v, float *out) {\n"
		"  float k = half();\n"
		"  for (int i = 0; i < 100000; i++) out[i] = v[i] * k; }\n"
		"void entry(void) { conv1(in, w1, t1); scaled(x, y); }\n");
	PlanList pl;
	ParPlan *p;
	uint32_t f = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2 });
	p = plan_of(&pl, "entry");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NULL_FATAL(p->why_not);
	CU_ASSERT_EQUAL_FATAL(tasks_of(p, "scaled", &f), 1);
	CU_ASSERT_EQUAL(p->tasks.items[f].kind, TASK_WHOLE);
	CU_ASSERT_PTR_NOT_NULL(strstr(p->tasks.items[f].note, "calls half"));
	arena_free_all();
}

/*
 * Each chunk is a separate call that evaluates the arguments and the
 * callee's declarations again: a local carried across iterations, a
 * declaration or an argument reading what the call writes, and a library
 * call in an initializer keep the call whole.
 */
static void test_chunk_calls(void)
{
	Program *prog = front(HEADER
		"#include <math.h>\n"
		"static float in[1][32][16][16], w1[32][32][3][3], t1[1][32][16][16];\n"
		"static float x[100000], y[100000], z[100000], u[100000];\n"
		CONV("conv1", 32, 32)
		"static void carried(const float *v, float *out) {\n"
		"  float acc;\n"
		"  for (int i = 0; i < 100000; i++) { if (i == 0) acc = 0; acc += v[i]; out[i] = acc; } }\n"
		"static void twopart(float *v, float *out) {\n"
		"  float first = v[0];\n"
		"  for (int i = 0; i < 100000; i++) v[i] = v[i] + 1;\n"
		"  for (int i = 0; i < 100000; i++) out[i] = v[i] * first; }\n"
		"static void fill(float *o, float s) {\n"
		"  for (int i = 0; i < 100000; i++) o[i] = s * (float)i; }\n"
		"static void expo(const float *v, float *out) {\n"
		"  float k = expf(1.0f);\n"
		"  for (int i = 0; i < 100000; i++) out[i] = v[i] * k; }\n"
		"void entry(void) { conv1(in, w1, t1); carried(x, y); twopart(z, y);\n"
		"  fill(u, u[5]); expo(x, z); }\n");
	PlanList pl;
	ParPlan *p;
	uint32_t f = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2 });
	p = plan_of(&pl, "entry");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NULL_FATAL(p->why_not);
	CU_ASSERT_EQUAL_FATAL(tasks_of(p, "carried", &f), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(p->tasks.items[f].note, "local acc carries"));
	CU_ASSERT_EQUAL_FATAL(tasks_of(p, "twopart", &f), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(p->tasks.items[f].note, "read what the call writes"));
	CU_ASSERT_EQUAL_FATAL(tasks_of(p, "fill", &f), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(p->tasks.items[f].note, "read what the call writes"));
	CU_ASSERT_EQUAL_FATAL(tasks_of(p, "expo", &f), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(p->tasks.items[f].note, "initializer of k"));
	arena_free_all();
}

/* TVM 0.17: guarded calls of operators that always return 0 are folded. */
static void test_guard_folded(void)
{
	Program *prog = front(HEADER
		"static float ws[2][100000];\n"
		"int32_t op(void* arg0, void* arg1) {\n"
		"  void* x = arg0; void* y = arg1;\n"
		"  for (int32_t i = 0; i < 100000; ++i) ((float*)y)[i] = ((float*)x)[i] * 2.0f;\n"
		"  return 0;\n"
		"}\n"
		"int32_t main_fn(void) {\n"
		"  void* a = &ws[0][0];\n"
		"  void* b = &ws[1][0];\n"
		"  if (op(a, b) != 0) return -1;\n"
		"  if (op(b, a) != 0) return -1;\n"
		"  return 0;\n"
		"}\n");
	PlanList pl;
	ParPlan *p;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2 });
	p = plan_of(&pl, "main_fn");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NULL_FATAL(p->why_not);
	CU_ASSERT_EQUAL(p->first, 1);
	CU_ASSERT_EQUAL(p->last, 2);
	CU_ASSERT_EQUAL_FATAL(p->tasks.len, 4);
	for (uint32_t i = 0; i < 4; i++) {
		CU_ASSERT_TRUE(p->tasks.items[i].fold_guard);
		CU_ASSERT_EQUAL(p->tasks.items[i].kind, TASK_CHUNK);
	}
	/* the second call reads what the first writes, chunk by chunk, and overwrites its input */
	CU_ASSERT_TRUE(has_edge(p, 0, 2));
	CU_ASSERT_TRUE(has_edge(p, 1, 3));
	CU_ASSERT_FALSE(has_edge(p, 0, 3));
	CU_ASSERT_EQUAL(p->clones.len, 1);
	arena_free_all();
}

/* TVM 0.8: an operator that allocates ends the span; the allocations before it stay out. */
#define WORKSPACE_API                                                          \
	"void* TVMBackendAllocWorkspace(int t, int d, uint64_t n, int c, int b);\n" \
	"int TVMBackendFreeWorkspace(int t, int d, void* p);\n"

/*
 * TVM 0.8's workspace inside an operator: the caller takes it for the
 * chunks, which depend on each other through it row by row; a workspace
 * whose pointer escapes is not one, and its operator ends the span.
 */
static void test_workspace_from_caller(void)
{
	Program *prog = front(HEADER WORKSPACE_API
		"void* g_keep;\n"
		"static int32_t ew(void* arg0, void* arg1) {\n"
		"  for (int32_t i = 0; i < 100000; ++i) ((float*)arg1)[i] = ((float*)arg0)[i] + 1.0f;\n"
		"  return 0;\n"
		"}\n"
		"static int32_t padded(void* arg0, void* arg1) {\n"
		"  void* pad = TVMBackendAllocWorkspace(1, 0, (uint64_t)400000, 2, 32);\n"
		"  if (pad == NULL) return -1;\n"
		"  for (int32_t i = 0; i < 100000; ++i) ((float*)pad)[i] = ((float*)arg0)[i];\n"
		"  for (int32_t i = 0; i < 100000; ++i) {\n"
		"    void* t = TVMBackendAllocWorkspace(1, 0, (uint64_t)16, 2, 32);\n"
		"    if (t == NULL) return -1;\n"
		"    ((float*)t)[0] = ((float*)pad)[i] * 2.0f;\n"
		"    ((float*)arg1)[i] = ((float*)t)[0];\n"
		"    if (TVMBackendFreeWorkspace(1, 0, t) != 0) return -1;\n"
		"  }\n"
		"  if (TVMBackendFreeWorkspace(1, 0, pad) != 0) return -1;\n"
		"  return 0;\n"
		"}\n"
		"static int32_t leaky(void* arg0, void* arg1) {\n"
		"  void* pad = TVMBackendAllocWorkspace(1, 0, (uint64_t)400000, 2, 32);\n"
		"  if (pad == NULL) return -1;\n"
		"  g_keep = pad;\n"
		"  for (int32_t i = 0; i < 100000; ++i) ((float*)pad)[i] = ((float*)arg0)[i];\n"
		"  for (int32_t i = 0; i < 100000; ++i) ((float*)arg1)[i] = ((float*)pad)[i];\n"
		"  if (TVMBackendFreeWorkspace(1, 0, pad) != 0) return -1;\n"
		"  return 0;\n"
		"}\n"
		"int32_t run_model(void* arg0, void* arg1) {\n"
		"  void* sid_1 = TVMBackendAllocWorkspace(1, 0, (uint64_t)400000, 0, 8);\n"
		"  if (sid_1 == NULL) { return -1; }\n"
		"  void* sid_2 = TVMBackendAllocWorkspace(1, 0, (uint64_t)400000, 0, 8);\n"
		"  if (sid_2 == NULL) { return -1; }\n"
		"  (void)ew(arg0, sid_1);\n"
		"  (void)padded(sid_1, sid_2);\n"
		"  (void)ew(sid_2, sid_1);\n"
		"  (void)leaky(sid_1, arg1);\n"
		"  if (TVMBackendFreeWorkspace(1, 0, sid_2) != 0) { return -1; }\n"
		"  if (TVMBackendFreeWorkspace(1, 0, sid_1) != 0) { return -1; }\n"
		"  return 0;\n"
		"}\n");
	PlanList pl;
	ParPlan *p;
	const MT *root;
	const ScratchList *ws;
	uint32_t first = 0, n;
	bool only;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	ws = scratch_list(unit_func(prog, "padded"), &only);
	CU_ASSERT_TRUE(only);
	CU_ASSERT_EQUAL_FATAL(ws->len, 2);
	CU_ASSERT_TRUE(ws->items[0].top);
	CU_ASSERT_EQUAL(ws->items[0].size, 400000);
	CU_ASSERT_FALSE(ws->items[1].top); /* t: one per iteration, on the clone's stack */
	scratch_list(unit_func(prog, "leaky"), &only);
	CU_ASSERT_FALSE(only);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2 });
	p = plan_of(&pl, "run_model");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NULL_FATAL(p->why_not);
	root = p->func->mt;
	CU_ASSERT_EQUAL(p->last - p->first, 2); /* ew, padded, ew; not leaky */
	CU_ASSERT_STRING_EQUAL(intern_name(root->children.items[p->last]->callee->name), "ew");
	n = tasks_of(p, "padded", &first);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	for (uint32_t i = first; i < first + 4; i++)
		CU_ASSERT_EQUAL(p->tasks.items[i].kind, TASK_CHUNK);
	/* part 1's first half reads the rows of pad that part 0's first half writes */
	CU_ASSERT_TRUE(has_edge(p, first, first + 2));
	CU_ASSERT_FALSE(has_edge(p, first + 1, first + 2));
	CU_ASSERT_TRUE(has_edge(p, first + 1, first + 3));
	CU_ASSERT_PTR_NOT_NULL(strstr(dump(&pl), "<workspace 0 of run_model>"));
	CU_ASSERT_EQUAL(p->slots.len, 1);
	CU_ASSERT_TRUE(p->slots.len && p->slots.items[0].used);
	arena_free_all();
}

/* Under a parallelized span, a callee is not parallelized again; one core plans nothing. */
static void test_no_nesting_one_core(void)
{
	Program *prog = front(HEADER
		"static float in[1][32][16][16], w1[32][32][3][3], t1[1][32][16][16], t2[1][32][16][16];\n"
		CONV("conv1", 32, 32)
		"void entry(void) { conv1(in, w1, t1); conv1(in, w1, t2); }\n"
		"void other(void) { entry(); }\n");
	PlanList pl;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2 });
	CU_ASSERT_EQUAL_FATAL(pl.len, 1); /* other() descends into entry() */
	CU_ASSERT_STRING_EQUAL(intern_name(pl.items[0]->func->name), "entry");
	CU_ASSERT_PTR_NULL(pl.items[0]->why_not);
	CU_ASSERT_EQUAL(pl.items[0]->tasks.len, 4);
	CU_ASSERT_EQUAL(pl.items[0]->clones.len, 1); /* both calls share one clone */
	array_free(&pl);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 1 });
	CU_ASSERT_EQUAL_FATAL(pl.len, 1);
	CU_ASSERT_PTR_NOT_NULL(pl.items[0]->why_not);
	CU_ASSERT_EQUAL(pl.items[0]->tasks.len, 0);
	arena_free_all();
}

/*
 * A packed operator's loop is sliced in place when the bytes it reaches
 * through its loaded pointers are bounded (a check per pair); through a
 * subscript with an unknown stride they are not, and without the check
 * the pointers may alias: the loop stays whole.
 */
static void test_slices_checked(void)
{
	Program *prog = front(
		"typedef struct T { void *data; long n; } T;\n"
		"int bounded(void *args) {\n"
		"  void *x = ((T *)((void **)args)[0])->data;\n"
		"  void *y = ((T *)((void **)args)[1])->data;\n"
		"  for (int i = 0; i < 4096; ++i) {\n"
		"    float s = ((float *)x)[i];\n"
		"    for (int k = 0; k < 64; ++k) s = s * 0.5f + ((float *)x)[(i + k) % 4096];\n"
		"    ((float *)y)[i] = s;\n"
		"  }\n"
		"  return 0;\n"
		"}\n"
		"int strided(void *args, int n) {\n"
		"  void *x = ((T *)((void **)args)[0])->data;\n"
		"  void *y = ((T *)((void **)args)[1])->data;\n"
		"  for (int i = 0; i < 4096; ++i) {\n"
		"    float s = ((float *)x)[i];\n"
		"    for (int k = 0; k < 64; ++k) s = s * 0.5f + ((float *)x)[(i + k) % 4096];\n"
		"    ((float *)y)[i * n] = s;\n"
		"  }\n"
		"  return 0;\n"
		"}\n");
	PlanList pl;
	ParPlan *p;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2 });
	p = plan_of(&pl, "bounded");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NULL(p->why_not);
	CU_ASSERT_EQUAL(p->tasks.len, 2);
	CU_ASSERT_TRUE(p->tasks.len == 2 && p->tasks.items[0].kind == TASK_SLICE &&
	               p->tasks.items[0].lo == 0 && p->tasks.items[0].hi == 2048);
	CU_ASSERT_EQUAL_FATAL(p->apart.len, 1);
	CU_ASSERT_STRING_EQUAL(intern_name(p->apart.items[0].a->name), "y");
	CU_ASSERT_EQUAL(p->apart.items[0].ahi, 16384);
	CU_ASSERT_EQUAL(p->apart.items[0].bhi, 16384);
	p = plan_of(&pl, "strided");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NOT_NULL(p->why_not);
	CU_ASSERT_EQUAL(p->apart.len, 0);
	array_free(&pl);
	arena_free_all();
}

/* The chunk summary of a split loop covers exactly the chunk's rows. */
static void test_chunk_summary(void)
{
	Program *prog = front(HEADER
		"static float g[64][256];\n"
		"static void rows(float y[64][256]) {\n"
		"  for (uint32_t b = 0; b < 1; b++)\n"
		"  for (uint32_t r = 0; r < 64; r++)\n"
		"    for (uint32_t k = 0; k < 256; k++) y[r][k] = (float)(r + k); }\n"
		"void entry(void) { rows(g); }\n");
	const MT *sb;
	SplitLoop sl;
	Summary *s;
	const Access *a;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	sb = prog->funcs.items[1]->mt->children.items[0];
	CU_ASSERT_EQUAL_FATAL(sb->kind, MT_SB);
	memset(&sl, 0, sizeof(sl));
	sl.top = sb->callee->mt->children.items[0]->loop;
	sl.loop = sl.top->loop->body;
	sl.split = true;
	s = sum_chunk(sb, &sl, 16, 32);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(s->acc.len, 1);
	a = &s->acc.items[0];
	CU_ASSERT_EQUAL(a->kind, ACC_WRITE);
	CU_ASSERT_EQUAL_FATAL(a->region.ranges.len, 1);
	CU_ASSERT_EQUAL(a->region.ranges.items[0].lo, 16 * 1024);
	CU_ASSERT_EQUAL(a->region.ranges.items[0].hi, 32 * 1024);
	/* a range outside the loop's cannot be bound */
	CU_ASSERT_PTR_NULL(sum_chunk(sb, &sl, 60, 70));
	/* the prologue alone touches nothing */
	s = sum_chunk(sb, NULL, 0, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->acc.len, 0);
	arena_free_all();
}

/*
 * A span never takes a brace with it: from inside a block to after it, the
 * statement after the block would leave the sequential fallback and run
 * twice.  The runs end at the braces; the plan takes the one that pays.
 */
static void test_span_braces(void)
{
	const char *text =
		"static double a[100000], b[100000];\n"
		"int main(void) {\n"
		"  { for (int i = 0; i < 100000; i++) a[i] = i; }\n"
		"  for (int j = 0; j < 100000; j++) b[j] += a[j];\n"
		"  return 0;\n"
		"}\n";
	Program *prog = front(text);
	const Func *f;
	uint32_t blk, after, end;
	PlanList pl;
	ParPlan *p;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	f = program_find_func(prog, intern("main", 4));
	blk = (uint32_t)(strstr(text, "{ for") - text);
	after = (uint32_t)(strstr(text, "for (int j") - text);
	end = (uint32_t)(strstr(text, "return") - text);
	CU_ASSERT_TRUE(plan_crosses_block(f, blk + 2, end));   /* from inside the block to after it */
	CU_ASSERT_FALSE(plan_crosses_block(f, blk, end));      /* the whole block and what follows */
	CU_ASSERT_FALSE(plan_crosses_block(f, after, end));    /* after the block */
	CU_ASSERT_FALSE(plan_crosses_block(f, blk + 2, blk + 20)); /* inside it */
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2, .unlimited = true }); /* small: any gain */
	p = plan_of(&pl, "main");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NULL(p->why_not);
	CU_ASSERT_EQUAL(p->first, p->last); /* one loop: the two are on either side of a brace */
	arena_free_all();
}

/*
 * A triangle (`j <= i`) is cut where the work, not the index range, is
 * halved: at about 0.71 of 400 for two chunks.  A rectangle stays cut in
 * equal ranges.
 */
static void test_triangle_split(void)
{
	Program *prog = front(
		"static double c[400][400], a[400][400];\n"
		"static void tri(void) { int i, j, k;\n"
		"  for (i = 0; i < 400; i++)\n"
		"    for (j = 0; j <= i; j++)\n"
		"      for (k = 0; k < 64; k++) c[i][j] += a[i][k] * a[j][k]; }\n"
		"static void rect(void) { int i, j;\n"
		"  for (i = 0; i < 400; i++)\n"
		"    for (j = 0; j < 400; j++) a[i][j] = i + j; }\n"
		"int main(void) { rect(); tri(); return 0; }\n");
	PlanList pl;
	ParPlan *p;
	uint32_t first = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2, .unlimited = true }); /* small: any gain */
	p = plan_of(&pl, "main");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NULL_FATAL(p->why_not);
	CU_ASSERT_EQUAL_FATAL(tasks_of(p, "tri", &first), 2);
	CU_ASSERT_TRUE(p->tasks.items[first].hi > 270 && p->tasks.items[first].hi < 295);
	CU_ASSERT_EQUAL(p->tasks.items[first + 1].hi, 400);
	CU_ASSERT_EQUAL_FATAL(tasks_of(p, "rect", &first), 2);
	CU_ASSERT_EQUAL(p->tasks.items[first].hi, 200);
	arena_free_all();
}

/*
 * main runs once, so does what it calls once outside loops; what two calls
 * call runs twice; what a loop calls, without bound.
 */
static void test_runs_bound(void)
{
	Program *prog = front(
		"static int x;\n"
		"static void once(void) { x++; }\n"
		"static void looped(void) { x++; }\n"
		"static void below(void) { x++; }\n"
		"static void mid(void) { below(); }\n"
		"static void twice2(void) { x++; }\n"
		"static void twice(void) { twice2(); twice2(); }\n"
		"int main(void) { int i; once(); mid(); twice(); twice();\n"
		"  for (i = 0; i < 9; i++) looped(); return 0; }\n");

	RunsIndex *ix;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	ix = runs_index(prog);
	CU_ASSERT_EQUAL(runs_bound(ix, program_find_func(prog, intern("main", 4))), 1);
	CU_ASSERT_EQUAL(runs_bound(ix, program_find_func(prog, intern("once", 4))), 1);
	CU_ASSERT_EQUAL(runs_bound(ix, program_find_func(prog, intern("below", 5))), 1);
	CU_ASSERT_EQUAL(runs_bound(ix, program_find_func(prog, intern("twice", 5))), 2);
	CU_ASSERT_EQUAL(runs_bound(ix, program_find_func(prog, intern("twice2", 6))), 4);
	CU_ASSERT_EQUAL(runs_bound(ix, program_find_func(prog, intern("looped", 6))), HUGE_VAL);
	runs_index_free(ix);
	arena_free_all();
}

/*
 * A branch inside the span (branches.c): the test is a task, each arm's
 * tasks run under it in their direction, the arms' tasks get no edge
 * between them, and the loop after the if depends on both arms.
 */
static void test_dynamic_branch(void)
{
	Program *prog = front(HEADER
		"static double a[4096], b[4096], c[4096], d[4096];\n"
		"void entry(void) {\n"
		"  int i;\n"
		"  for (i = 0; i < 4096; i++) a[i] = i * 0.5;\n"
		"  if (a[7] > 3) {\n"
		"    for (i = 0; i < 4096; i++) b[i] = a[i] * a[i];\n"
		"  } else\n"
		"    for (i = 0; i < 4096; i++) b[i] = a[i] + 1;\n"
		"  for (i = 0; i < 4096; i++) c[i] = a[i] - 2;\n"
		"  for (i = 0; i < 4096; i++) d[i] = b[i] + c[i];\n"
		"}\n");
	PlanList pl;
	ParPlan *p;
	int test = -1, then_t = -1, else_t = -1, last = -1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2, .unlimited = true });
	p = plan_of(&pl, "entry");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NULL_FATAL(p->why_not);
	CU_ASSERT_TRUE(p->dynamic);
	for (uint32_t t = 0; t < p->tasks.len; t++) {
		const ParTask *k = &p->tasks.items[t];

		if (k->test)
			test = (int)t;
		else if (k->ctl >= 0 && k->ctl_dir && then_t < 0)
			then_t = (int)t;
		else if (k->ctl >= 0 && !k->ctl_dir && else_t < 0)
			else_t = (int)t;
		if (k->mt->id == 6)
			last = (int)t;
	}
	CU_ASSERT_FATAL(test >= 0 && then_t > test && else_t > then_t && last > else_t);
	CU_ASSERT_EQUAL(p->tasks.items[then_t].ctl, test);
	CU_ASSERT_EQUAL(p->tasks.items[else_t].ctl, test);
	CU_ASSERT_TRUE(has_edge(p, (uint32_t)test, (uint32_t)then_t));
	CU_ASSERT_FALSE(has_edge(p, (uint32_t)then_t, (uint32_t)else_t));
	CU_ASSERT_TRUE(has_edge(p, (uint32_t)then_t, (uint32_t)last) || p->tasks.items[then_t].kind == TASK_SLICE);
	array_free(&pl);
}

/* The marks of the slices of MT `id` of the level (99: it has no slice). */
static uint32_t marks_of(const ParPlan *p, int id)
{
	for (uint32_t t = 0; t < p->tasks.len; t++) {
		const ParTask *task = &p->tasks.items[t];

		if (task->kind == TASK_SLICE && task->mt->id == id)
			return task->slice->simd.len;
	}
	return 99;
}

/*
 * The vectorizer's marks (ivdep.c): an inner loop is marked only when no
 * two of its iterations meet in memory; rows through loaded pointers, a
 * carried sum, a shift, a gather, a local of the body and a narrowing cast
 * that hide a distance of one are not; even and odd elements are.
 */
static void test_ivdep_marks(void)
{
	Program *prog = front(HEADER
		"static double A[512][512], B[512][512], *R[512], Q[512][1024];\n"
		"static int ix[512];\n"
		"void entry(void) {\n"
		"  int i, j;\n"
		"  for (i = 0; i < 512; i++) for (j = 1; j < 511; j++) B[i][j] = A[i][j - 1] + A[i][j + 1];\n"
		"  for (i = 0; i < 512; i++) for (j = 1; j < 512; j++) A[i][j] = A[i][j - 1] + B[i][j];\n"
		"  for (i = 0; i < 512; i++) for (j = 0; j < 508; j++) B[i][j + 4] = B[i][j] * 2;\n"
		"  for (i = 0; i < 512; i++) for (j = 0; j < 256; j++) A[i][2 * j] = A[i][2 * j + 1];\n"
		"  for (i = 0; i < 512; i++) for (j = 0; j < 512; j++) B[i][ix[j]] = B[i][j];\n"
		"  for (i = 0; i < 511; i++) for (j = 0; j < 512; j++) R[i][j] = R[i + 1][j];\n"
		"  for (i = 0; i < 512; i++) for (j = 0; j < 256; j++) { int k = 256 - j; Q[i][2 * j + k + 1] = Q[i][2 * j + k] * 2; }\n"
		"  for (i = 0; i < 512; i++) for (j = 0; j < 256; j++) Q[i][3 * j + (unsigned char)259] = Q[i][3 * j] * 2;\n"
		"}\n");
	PlanList pl;
	ParPlan *p;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2, .unlimited = true });
	p = plan_of(&pl, "entry");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NULL_FATAL(p->why_not);
	CU_ASSERT_EQUAL(marks_of(p, 2), 1);  /* B[i][j] from A's neighbours */
	CU_ASSERT_EQUAL(marks_of(p, 3), 0);  /* a running sum along the row */
	CU_ASSERT_EQUAL(marks_of(p, 4), 0);  /* a shift by 4 */
	CU_ASSERT_EQUAL(marks_of(p, 5), 1);  /* even from odd */
	CU_ASSERT_NOT_EQUAL(marks_of(p, 6), 1); /* a gather through ix (not sliced either) */
	CU_ASSERT_NOT_EQUAL(marks_of(p, 7), 1); /* rows through loaded pointers */
	CU_ASSERT_EQUAL(marks_of(p, 8), 0);  /* k = 256 - j declared in the body: one apart */
	CU_ASSERT_EQUAL(marks_of(p, 9), 0);  /* (unsigned char)259 is 3: one apart */
	array_free(&pl);
}

/*
 * Two independent loops of 10^5 iterations gain about 0.15 ms on two
 * cores: not enough to start the threads in main, which runs once; the
 * same loops in a library function that may run many times are split.
 */
static void test_start_cost(void)
{
	static const char head[] = "static double a[100000], b[100000];\n";
	static const char body[] =
		" {\n"
		"  for (int i = 0; i < 100000; i++) a[i] = a[i] * 3 + 1;\n"
		"  for (int j = 0; j < 100000; j++) b[j] = b[j] * 5 + 2;\n"
		"}\n";
	char text[512];
	Program *prog;
	PlanList pl;
	ParPlan *p;

	snprintf(text, sizeof(text), "%s%s%s", head, "int main(void)", body);
	CU_ASSERT_PTR_NOT_NULL_FATAL(prog = front(text));
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2 });
	CU_ASSERT_PTR_NOT_NULL_FATAL(p = plan_of(&pl, "main"));
	CU_ASSERT_TRUE(p->why_not && strstr(p->why_not, "starting the threads"));
	arena_free_all();
	snprintf(text, sizeof(text), "%s%s%s", head, "void layer(void)", body);
	CU_ASSERT_PTR_NOT_NULL_FATAL(prog = front(text));
	pl = plan_program(prog, &(PlanOptions){ .ncores = 2 });
	CU_ASSERT_PTR_NOT_NULL_FATAL(p = plan_of(&pl, "layer"));
	CU_ASSERT_PTR_NULL(p->why_not);
	arena_free_all();
}

int suite_plan(void)
{
	CU_pSuite s = CU_add_suite("plan", NULL, NULL);

	if (!s)
		return 1;
	if (!CU_add_test(s, "conv split on m", test_conv_split) ||
	    !CU_add_test(s, "aligned layers", test_aligned_layers) ||
	    !CU_add_test(s, "independent branches", test_branches) ||
	    !CU_add_test(s, "loops not split", test_not_split) ||
	    !CU_add_test(s, "prologue with a call", test_prologue_call) ||
	    !CU_add_test(s, "chunks are separate calls", test_chunk_calls) ||
	    !CU_add_test(s, "guards folded", test_guard_folded) ||
	    !CU_add_test(s, "workspace from the caller", test_workspace_from_caller) ||
	    !CU_add_test(s, "no nesting, one core", test_no_nesting_one_core) ||
	    !CU_add_test(s, "chunk summary", test_chunk_summary) ||
	    !CU_add_test(s, "slices behind run-time checks", test_slices_checked) ||
	    !CU_add_test(s, "spans and braces", test_span_braces) ||
	    !CU_add_test(s, "a triangle cut by work", test_triangle_split) ||
	    !CU_add_test(s, "runs bound", test_runs_bound) ||
	    !CU_add_test(s, "the team's start is paid once", test_start_cost) ||
	    !CU_add_test(s, "marks for the vectorizer", test_ivdep_marks) ||
	    !CU_add_test(s, "a branch inside the span", test_dynamic_branch))
		return 1;
	return 0;
}
