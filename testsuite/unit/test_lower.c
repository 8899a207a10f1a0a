/*
 * test_lower.c - the lowering to the IR on small programs run through
 * pp_scan, parse_source and lower_source: types and layout, scopes,
 * loops with their induction variables, unmodelled constructs, and calls
 * and objects that meet across two sources.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <tree_sitter/api.h>

#define MTPAR_LOWERING /* lw_type_of_text */
#include "unit.h"

/* Lowers one more in-memory source into prog under cfg; false if any stage failed. */
static bool add_source_with(Program *prog, const char *name, const char *text,
                            const PPConfig *cfg)
{
	Source *src = unit_source(name, text);
	TSTree *tree;
	bool ok;

	array_push(&prog->sources, src);
	if (!pp_scan(src, cfg) || !(tree = parse_source(src)))
		return false;
	ok = lower_source(prog, src, tree);
	ts_tree_delete(tree); /* the IR keeps no tree-sitter nodes */
	return ok;
}

static bool add_source(Program *prog, const char *name, const char *text)
{
	PPConfig cfg = { .initializer_min = 16 };

	return add_source_with(prog, name, text, &cfg);
}

/* A program of one source, calls resolved; NULL if a stage failed. */
static Program *lower_one(const char *text)
{
	Program *prog = ARENA_NEW(Program);

	if (!add_source(prog, "t.c", text))
		return NULL;
	lower_resolve_calls(prog);
	return prog;
}

static int name_of(const char *s)
{
	return intern(s, strlen(s));
}

static Var *global_named(const Program *prog, const char *name)
{
	for (uint32_t i = 0; i < prog->globals.len; i++)
		if (prog->globals.items[i]->name == name_of(name))
			return prog->globals.items[i];
	return NULL;
}

static Func *func_named(const Program *prog, const char *name)
{
	return program_find_func(prog, name_of(name));
}

/* Statement i of a function's body block. */
static Stmt *body_stmt(const Func *f, uint32_t i)
{
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(f->body->kind, ST_BLOCK);
	CU_ASSERT_TRUE_FATAL(i < f->body->body.len);
	return f->body->body.items[i];
}

static void test_params(void)
{
	Program *prog = lower_one(
		"void f(const float x[1][3][224][224], float **pp, const char *const s,\n"
		"       float (*rows)[1000], int n) { }\n");
	Func *f;
	Type *t, *elem;
	int ndims;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	f = func_named(prog, "f");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(f->params.len, 5);
	/* parameter arrays keep their declared type, the element is const */
	t = f->params.items[0]->type;
	CU_ASSERT_EQUAL(t->kind, TY_ARRAY);
	CU_ASSERT_EQUAL(t->array_len, 1);
	CU_ASSERT_EQUAL(t->base->array_len, 3);
	elem = type_elem(t, &ndims);
	CU_ASSERT_EQUAL(ndims, 4);
	CU_ASSERT_EQUAL(elem->kind, TY_FLOAT);
	CU_ASSERT_TRUE(elem->is_const);
	CU_ASSERT_EQUAL(t->size, 3 * 224 * 224 * 4);
	CU_ASSERT_EQUAL(f->params.items[0]->scope, VAR_PARAM);
	/* pointer levels and where const sits */
	t = f->params.items[1]->type;
	CU_ASSERT_TRUE(t->kind == TY_PTR && t->base->kind == TY_PTR);
	CU_ASSERT_EQUAL(t->base->base->kind, TY_FLOAT);
	t = f->params.items[2]->type;
	CU_ASSERT_TRUE(t->kind == TY_PTR && t->is_const && t->base->is_const);
	CU_ASSERT_TRUE(t->base->kind == TY_INT && t->base->size == 1);
	t = f->params.items[3]->type;
	CU_ASSERT_TRUE(t->kind == TY_PTR && t->base->kind == TY_ARRAY);
	CU_ASSERT_EQUAL(t->base->array_len, 1000);
	CU_ASSERT_EQUAL(f->params.items[4]->type->size, 4);
}

static void test_union_global(void)
{
	Program *prog = lower_one(
		"union tensor_union_0 { float a[1][64][112][112]; float b[1][512]; };\n"
		"static union tensor_union_0 tu0;\n"
		"union { int i; double d; } u;\n"
		"void g(float *p);\n"
		"void f(void) { g(tu0.b[0]); tu0.a[0][0][0][0] = 1; }\n");
	Var *tu0, *u;
	Type *t;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	CU_ASSERT_EQUAL(prog->globals.len, 2);
	tu0 = global_named(prog, "tu0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(tu0);
	t = tu0->type;
	CU_ASSERT_EQUAL(t->kind, TY_UNION);
	CU_ASSERT_EQUAL(tu0->storage, SC_STATIC);
	CU_ASSERT_EQUAL(tu0->scope, VAR_GLOBAL);
	CU_ASSERT_EQUAL(t->size, 64 * 112 * 112 * 4);
	CU_ASSERT_EQUAL_FATAL(t->members.len, 2);
	CU_ASSERT_EQUAL(t->members.items[0].offset, 0);
	CU_ASSERT_EQUAL(t->members.items[1].offset, 0);
	CU_ASSERT_TRUE(tu0->addr_taken); /* tu0.b[0] decays into the call */
	u = global_named(prog, "u");
	CU_ASSERT_PTR_NOT_NULL_FATAL(u);
	CU_ASSERT_EQUAL(u->type->kind, TY_UNION);
	CU_ASSERT_EQUAL(u->type->size, 8);
	CU_ASSERT_EQUAL(u->type->members.items[1].offset, 0);
	CU_ASSERT_FALSE(u->addr_taken);
}

static void test_struct_layout(void)
{
	Program *prog = lower_one(
		"struct S { char c; int i; double d; short s; char tail[3]; };\n"
		"typedef struct { char a; struct S in; int bits : 3, more : 7; } W;\n"
		"W w;\n"
		"enum { K = 4 };\n"
		"int a[K * 2 + sizeof(struct S) / 8], b, *c;\n");
	Type *s, *w;
	Var *a;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	w = global_named(prog, "w")->type;
	CU_ASSERT_EQUAL_FATAL(w->kind, TY_STRUCT);
	CU_ASSERT_EQUAL_FATAL(w->members.len, 4);
	s = w->members.items[1].type;
	CU_ASSERT_EQUAL_FATAL(s->members.len, 5);
	CU_ASSERT_EQUAL(s->members.items[0].offset, 0);
	CU_ASSERT_EQUAL(s->members.items[1].offset, 4);
	CU_ASSERT_EQUAL(s->members.items[2].offset, 8);
	CU_ASSERT_EQUAL(s->members.items[3].offset, 16);
	CU_ASSERT_EQUAL(s->members.items[4].offset, 18);
	CU_ASSERT_EQUAL(s->size, 24);
	CU_ASSERT_EQUAL(s->align, 8);
	CU_ASSERT_EQUAL(w->members.items[1].offset, 8);
	CU_ASSERT_EQUAL(w->members.items[2].offset, 32); /* bitfields share one int */
	CU_ASSERT_EQUAL(w->members.items[3].offset, 32);
	CU_ASSERT_EQUAL(w->size, 40);
	/* several declarators, a dimension from an enum constant and sizeof */
	CU_ASSERT_EQUAL(prog->globals.len, 4);
	a = global_named(prog, "a");
	CU_ASSERT_EQUAL(a->type->array_len, 11);
	CU_ASSERT_FALSE(a->type->is_vla);
	CU_ASSERT_EQUAL(global_named(prog, "c")->type->kind, TY_PTR);
}

/* A record that names its alignment or packing has no layout the analysis may guess. */
static void test_attributed_layout(void)
{
	Program *prog = lower_one(
		"struct A { char c; _Alignas(32) double d; } a;\n"
		"struct P { char c; double d; } __attribute__((packed)) p;\n"
		"struct __attribute__((aligned(64))) G { char c; } g;\n"
		"struct D { char c; double d; } d;\n"
		"typedef double ad __attribute__((aligned(32)));\n"
		"struct T { char c; ad d; } t;\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	CU_ASSERT_EQUAL(global_named(prog, "a")->type->size, -1);
	CU_ASSERT_EQUAL(global_named(prog, "a")->type->members.items[1].offset, -1);
	CU_ASSERT_EQUAL(global_named(prog, "p")->type->size, -1);
	CU_ASSERT_EQUAL(global_named(prog, "g")->type->size, -1);
	CU_ASSERT_EQUAL(global_named(prog, "d")->type->size, 16);
	CU_ASSERT_EQUAL(global_named(prog, "t")->type->size, -1);
}

static void test_two_iv_loop(void)
{
	const char *text =
		"#include <stdint.h>\n"
		"void f(float y[112]) {\n"
		"  for( int32_t o0=0, i0=-3; o0<112; o0++, i0+=2) y[o0] = i0;\n"
		"  for( uint32_t m=0, c=0; m<64; m++, c=m) y[m] = c;\n"
		"  for (int k = 30; 2 <= k; k -= 4) y[k] = 0;\n"
		"}\n";
	Program *prog = lower_one(text);
	Func *f;
	Loop *lp;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	f = func_named(prog, "f");
	lp = body_stmt(f, 0)->loop;
	CU_ASSERT_EQUAL(body_stmt(f, 0)->kind, ST_FOR);
	CU_ASSERT_EQUAL(lp->init.len, 2);
	CU_ASSERT_EQUAL_FATAL(lp->ivs.len, 2);
	CU_ASSERT_EQUAL(lp->ivs.items[0].var->name, name_of("o0"));
	CU_ASSERT_EQUAL(lp->ivs.items[0].step, 1);
	CU_ASSERT_EQUAL(lp->ivs.items[1].var->name, name_of("i0"));
	CU_ASSERT_EQUAL(lp->ivs.items[1].step, 2);
	CU_ASSERT_EQUAL(lp->ivs.items[1].init->num.ival, -3);
	CU_ASSERT_EQUAL(lp->trip_count, 112);
	CU_ASSERT_EQUAL(lp->lower, 0);
	CU_ASSERT_EQUAL(lp->upper, 112);
	CU_ASSERT_EQUAL(text[lp->header_end - 1], ')');
	CU_ASSERT_EQUAL(text[lp->header_end], ' ');
	/* c=m is not an induction variable */
	lp = body_stmt(f, 1)->loop;
	CU_ASSERT_EQUAL(lp->init.len, 2);
	CU_ASSERT_EQUAL_FATAL(lp->ivs.len, 1);
	CU_ASSERT_EQUAL(lp->ivs.items[0].var->name, name_of("m"));
	CU_ASSERT_EQUAL(lp->trip_count, 64);
	/* k = 30, 26, ..., 2: eight iterations */
	CU_ASSERT_EQUAL(body_stmt(f, 2)->loop->trip_count, 8);
}

static void test_constants(void)
{
	Program *prog = lower_one(
		"#define OUT_N 1000 /* elements */\n"
		"enum { C = 3 };\n"
		"static float out[1][OUT_N];\n"
		"void f(void) {\n"
		"  const int M = C * 2;\n"
		"  for (int i = 0; i < OUT_N; i++) out[0][i] = 0;\n"
		"  for (int r = 0; r < M; r++) out[0][r] = 1;\n"
		"  for (long j = 0; j < sizeof(out) / sizeof(out[0][0]); j += 8) out[0][j] = 2;\n"
		"  int n = 4;\n"
		"  for (int k = 0; k < n; k++) out[0][k] = 3;\n"
		"}\n");
	Func *f;
	Expr *bound;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	CU_ASSERT_EQUAL(global_named(prog, "out")->type->base->array_len, 1000);
	f = func_named(prog, "f");
	CU_ASSERT_EQUAL(body_stmt(f, 1)->loop->trip_count, 1000);
	bound = body_stmt(f, 1)->loop->cond->rhs;
	CU_ASSERT_TRUE(bound->kind == EX_NAME && bound->is_constant && bound->num.ival == 1000);
	CU_ASSERT_EQUAL(body_stmt(f, 2)->loop->trip_count, 6);
	CU_ASSERT_EQUAL(body_stmt(f, 3)->loop->trip_count, 125);
	CU_ASSERT_EQUAL(body_stmt(f, 5)->loop->trip_count, -1); /* n is not const */
	CU_ASSERT_EQUAL(body_stmt(f, 5)->loop->ivs.len, 1);
}

/* The values a first IV takes, ascending, whichever way the loop counts. */
static void test_value_ranges(void)
{
	Program *prog = lower_one(
		"static float a[100];\n"
		"void f(void) {\n"
		"  for (int i = 9; i >= 0; i -= 3) a[i] = 0;\n"
		"  for (int i = 100; i > 0; --i) a[i - 1] = 1;\n"
		"  for (int i = 4; i <= 40; i += 4) a[i] = 2;\n"
		"  for (int i = 5; i > 5; i--) a[i] = 3;\n"
		"}\n");
	static const int64_t want[][4] = { { 4, 0, 12, 3 }, { 100, 1, 101, 1 }, { 10, 4, 41, 4 },
	                                   { 0, 6, 6, 1 } };
	Func *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	f = func_named(prog, "f");
	for (uint32_t k = 0; k < 4; k++) {
		const Loop *lp = body_stmt(f, k)->loop;
		int64_t lo = -1, hi = -1, step = -1;

		CU_ASSERT_EQUAL(lp->trip_count, want[k][0]);
		CU_ASSERT_TRUE(loop_value_range(lp, &lo, &hi, &step));
		CU_ASSERT_EQUAL(lo, want[k][1]);
		CU_ASSERT_EQUAL(hi, want[k][2]);
		CU_ASSERT_EQUAL(step, want[k][3]);
	}
}

/* Constant expressions fold in C's types: unsigned ones wrap and divide as unsigned. */
static void test_unsigned_constants(void)
{
	Program *prog = lower_one(
		"#include <stdint.h>\n"
		"static float a1[20 + (0u - 8) / 0x20000000], a2[~0u >> 28],\n"
		"  a3[(0ul - 1) / 0x1000000000000000ul], a4[-1 < 0u ? 5 : 9], a5[(uint8_t)300 + 1],\n"
		"  a6[-(1u) >> 29], a7[(unsigned short)65535 * 2 / 4096], a8[0x80000000 >> 28],\n"
		"  a9[(-7) / 2 + 5], a10[(1 << 4) % 7];\n"
		"void f(void) {\n"
		"  for (unsigned i = 0; i < 0u - 4294967270u; i++) a1[i] = 0;\n"
		"}\n");
	static const struct {
		const char *name;
		int64_t len; /* as gcc's sizeof says */
	} want[] = { { "a1", 27 }, { "a2", 15 }, { "a3", 15 }, { "a4", 9 }, { "a5", 45 },
	             { "a6", 7 }, { "a7", 31 }, { "a8", 8 }, { "a9", 2 }, { "a10", 2 } };

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CU_ASSERT_EQUAL(global_named(prog, want[i].name)->type->array_len, want[i].len);
	CU_ASSERT_EQUAL(body_stmt(func_named(prog, "f"), 0)->loop->trip_count, 26);
}

static void test_tvm_cast(void)
{
	Program *prog = lower_one(
		"#include <stdint.h>\n"
		"static uint8_t global_ws[1024];\n"
		"void op(uint8_t *ws) {\n"
		"  for (int32_t i = 0; i < 896; ++i) ((float*)(&ws[128]))[i] = 0.0f;\n"
		"  void *x_let = &global_ws[256];\n"
		"}\n");
	Func *f;
	Stmt *loop;
	Expr *e, *cast, *addr;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	f = func_named(prog, "op");
	loop = body_stmt(f, 0);
	CU_ASSERT_EQUAL(loop->loop->trip_count, 896);
	CU_ASSERT_EQUAL(loop->loop->ivs.items[0].step, 1);
	e = loop->loop->body->expr;
	CU_ASSERT_EQUAL_FATAL(e->kind, EX_ASSIGN);
	CU_ASSERT_EQUAL(e->op, OP_ASSIGN);
	CU_ASSERT_EQUAL_FATAL(e->lhs->kind, EX_INDEX);
	CU_ASSERT_EQUAL(e->lhs->type->kind, TY_FLOAT);
	CU_ASSERT_EQUAL(e->lhs->rhs->var, loop->loop->ivs.items[0].var);
	cast = e->lhs->lhs;
	CU_ASSERT_EQUAL_FATAL(cast->kind, EX_CAST);
	CU_ASSERT_TRUE(cast->cast_type->kind == TY_PTR && cast->cast_type->base->kind == TY_FLOAT);
	addr = cast->lhs;
	CU_ASSERT_TRUE_FATAL(addr->kind == EX_UNARY && addr->op == OP_ADDR);
	CU_ASSERT_EQUAL_FATAL(addr->lhs->kind, EX_INDEX);
	CU_ASSERT_EQUAL(addr->lhs->lhs->var, f->params.items[0]);
	CU_ASSERT_EQUAL(addr->lhs->rhs->num.ival, 128);
	CU_ASSERT_TRUE(e->rhs->kind == EX_NUM && e->rhs->num.is_float);
	CU_ASSERT_FALSE(f->params.items[0]->addr_taken); /* &ws[i] points into what ws points to */
	CU_ASSERT_TRUE(global_named(prog, "global_ws")->addr_taken);
}

static void test_scopes(void)
{
	Program *prog = lower_one(
		"int x;\n"
		"void f(int x) {\n"
		"  x = 1;\n"
		"  { int x = 2; x++; }\n"
		"  for (int x = 0; x < 3; x++) ;\n"
		"  x = 3;\n"
		"}\n"
		"void g(void) { x = 4; y = 5; }\n");
	Func *f, *g;
	Var *param, *inner, *loopvar;
	Stmt *s;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	f = func_named(prog, "f");
	g = func_named(prog, "g");
	param = f->params.items[0];
	CU_ASSERT_EQUAL(body_stmt(f, 0)->expr->lhs->var, param);
	s = body_stmt(f, 1);
	inner = s->body.items[0]->var;
	CU_ASSERT_TRUE(inner != param && inner->scope == VAR_LOCAL && inner->func == f);
	CU_ASSERT_EQUAL(s->body.items[1]->expr->lhs->var, inner);
	s = body_stmt(f, 2);
	loopvar = s->loop->init.items[0]->var;
	CU_ASSERT_TRUE(loopvar != inner && loopvar != param);
	CU_ASSERT_EQUAL(s->loop->cond->lhs->var, loopvar);
	CU_ASSERT_EQUAL(body_stmt(f, 3)->expr->lhs->var, param);
	CU_ASSERT_EQUAL(f->locals.len, 2);
	/* g sees the global x; y was never declared */
	CU_ASSERT_EQUAL(body_stmt(g, 0)->expr->lhs->var, global_named(prog, "x"));
	CU_ASSERT_EQUAL(body_stmt(g, 1)->expr->lhs->kind, EX_NAME);
	for (uint32_t i = 0; i < prog->vars.len; i++)
		CU_ASSERT_EQUAL(prog->vars.items[i]->id, (int)i);
}

static void test_unmodelled(void)
{
	Program *prog = lower_one(
		"int printf(const char *fmt, ...);\n"
		"void f(int *p) {\n"
		"  if (p[0]) goto out;\n"
		"  p[0] = 1;\n"
		"out:\n"
		"  p[1] = 2;\n"
		"  printf(\"%d\\n\", p[1]);\n"
		"}\n");
	Func *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	f = func_named(prog, "f");
	CU_ASSERT_EQUAL_FATAL(f->unmodelled.len, 2);
	CU_ASSERT_EQUAL(f->unmodelled.items[0].kind, UM_GOTO);
	CU_ASSERT_EQUAL(f->unmodelled.items[1].kind, UM_VARIADIC_CALL);
	CU_ASSERT_TRUE(body_stmt(f, 0)->unmodelled & (1u << UM_GOTO));
	CU_ASSERT_EQUAL(body_stmt(f, 1)->unmodelled, 0);
	CU_ASSERT_EQUAL(body_stmt(f, 2)->kind, ST_LABEL);
	CU_ASSERT_TRUE(body_stmt(f, 3)->unmodelled & (1u << UM_VARIADIC_CALL));
	CU_ASSERT_TRUE(f->body->unmodelled & (1u << UM_GOTO));
	CU_ASSERT_EQUAL(prog->decls.len, 1);
	CU_ASSERT_TRUE(program_find_decl(prog, name_of("printf"))->is_variadic);
}

static void test_calls_across_sources(void)
{
	Program *prog = ARENA_NEW(Program);
	Func *entry, *op;
	Var *buf;

	CU_ASSERT_TRUE_FATAL(add_source(prog, "a.c",
		"extern float buf[16];\n"
		"void op(float *x);\n"
		"static void helper(void) { }\n"
		"void entry(void) { op(buf); helper(); }\n"));
	CU_ASSERT_TRUE_FATAL(add_source(prog, "b.c",
		"float buf[16];\n"
		"static void helper(void) { }\n"
		"void op(float *x) { x[0] = 1; helper(); }\n"));
	lower_resolve_calls(prog);
	CU_ASSERT_EQUAL_FATAL(prog->funcs.len, 4);
	entry = prog->funcs.items[1];
	op = prog->funcs.items[3];
	CU_ASSERT_EQUAL(body_stmt(entry, 0)->expr->callee_func, op);
	CU_ASSERT_EQUAL(body_stmt(entry, 1)->expr->callee_func, prog->funcs.items[0]);
	CU_ASSERT_EQUAL(body_stmt(op, 1)->expr->callee_func, prog->funcs.items[2]);
	CU_ASSERT_EQUAL(prog->decls.len, 0); /* op turned out to be defined */
	/* the extern declaration and the definition are one object */
	CU_ASSERT_EQUAL_FATAL(prog->globals.len, 1);
	buf = prog->globals.items[0];
	CU_ASSERT_EQUAL(body_stmt(entry, 0)->expr->args.items[0]->var, buf);
	CU_ASSERT_EQUAL(buf->storage, SC_NONE);
	CU_ASSERT_EQUAL(buf->src, prog->sources.items[1]);
	CU_ASSERT_TRUE(buf->addr_taken);
}

/* Sizes from -D and from a header found through -I are constants, as in the file. */
static void test_outside_sizes(void)
{
	char dir[] = "/tmp/mtpar-lower-XXXXXX", path[64];
	PPConfig cfg = { .initializer_min = 16 };
	Program *prog = ARENA_NEW(Program);
	FILE *h;
	Var *z;
	Func *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sizes.h", dir);
	h = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	fputs("#define N 400\n", h);
	fclose(h);
	array_push(&cfg.include_dirs, dir);
	array_push(&cfg.defines, ((PPDefine){ "M", "8" }));
	CU_ASSERT_TRUE_FATAL(add_source_with(prog, "t.c",
	                                     "#include \"sizes.h\"\ndouble z[N];\n"
	                                     "void f(void) { for (int i = 0; i < M; i++) z[i] = 0; }\n",
	                                     &cfg));
	lower_resolve_calls(prog);
	z = global_named(prog, "z");
	CU_ASSERT_PTR_NOT_NULL_FATAL(z);
	CU_ASSERT_EQUAL(z->type->array_len, 400);
	CU_ASSERT_FALSE(z->type->is_vla);
	f = func_named(prog, "f");
	CU_ASSERT_EQUAL(body_stmt(f, 0)->loop->trip_count, 8);
	unlink(path);
	rmdir(dir);
	array_free(&cfg.include_dirs);
	array_free(&cfg.defines);
}

/* Object-like macros that spell a type are typedef names, in the file or from -D. */
static void test_type_macros(void)
{
	PPConfig cfg = { .initializer_min = 16 };
	Program *prog = ARENA_NEW(Program);
	const Type *t;

	array_push(&cfg.defines, ((PPDefine){ "REAL", "float" }));
	CU_ASSERT_TRUE_FATAL(add_source_with(prog, "t.c",
	                                     "#define DATA_TYPE double\n"
	                                     "#define U unsigned long /* wide */\n"
	                                     "#define LD long double\n"
	                                     "#define CI const int\n"
	                                     "typedef short hword;\n#define H hword\n"
	                                     "DATA_TYPE a[4]; U b; LD c; CI d = 1; H e; REAL f;\n"
	                                     "int g(int x) { return (DATA_TYPE)(x + 1) > 0; }\n",
	                                     &cfg));
	t = global_named(prog, "a")->type;
	CU_ASSERT(t->kind == TY_ARRAY && t->base->kind == TY_FLOAT && t->base->size == 8);
	t = global_named(prog, "b")->type;
	CU_ASSERT(t->kind == TY_INT && t->size == 8 && t->is_unsigned);
	t = global_named(prog, "c")->type;
	CU_ASSERT(t->kind == TY_FLOAT && t->size == 16);
	t = global_named(prog, "d")->type;
	CU_ASSERT(t->kind == TY_INT && t->size == 4 && t->is_const);
	t = global_named(prog, "e")->type;
	CU_ASSERT(t->kind == TY_INT && t->size == 2);
	t = global_named(prog, "f")->type;
	CU_ASSERT(t->kind == TY_FLOAT && t->size == 4);
	/* (DATA_TYPE)(x + 1) parses as a call of (DATA_TYPE): it is a cast */
	{
		const Expr *r = body_stmt(func_named(prog, "g"), 0)->expr;

		CU_ASSERT_EQUAL_FATAL(r->kind, EX_BINARY);
		CU_ASSERT_EQUAL(r->lhs->kind, EX_CAST);
		CU_ASSERT(r->lhs->cast_type && r->lhs->cast_type->kind == TY_FLOAT);
	}
	/* not plain type words: no type */
	CU_ASSERT_PTR_NULL(lw_type_of_text("double *", 8));
	CU_ASSERT_PTR_NULL(lw_type_of_text("double double", 13));
	CU_ASSERT_PTR_NULL(lw_type_of_text("unsigned float", 14));
	CU_ASSERT_PTR_NULL(lw_type_of_text("static", 6));
	CU_ASSERT_PTR_NULL(lw_type_of_text("", 0));
	array_free(&cfg.defines);
}

static void test_hidden_specifiers(void)
{
	const char *text =
		"#define FUNC_PREFIX static inline\n"
		"static const float w[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };\n"
		"FUNC_PREFIX void node_a(float y[8]) { y[0] = w[0]; }\n";
	Program *prog = lower_one(text);
	Func *f;
	Var *w;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	f = func_named(prog, "node_a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(f->storage, SC_STATIC);
	CU_ASSERT_TRUE(f->is_inline);
	CU_ASSERT_EQUAL(f->start, (uint32_t)(strstr(text, "FUNC_PREFIX void") - text));
	CU_ASSERT_EQUAL(f->end, (uint32_t)strlen(text) - 1);
	w = global_named(prog, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_TRUE(w->has_init && w->init_hidden);
	CU_ASSERT_PTR_NULL(w->init);
}

/* The first loop statement of f's body, looking into blocks. */
static Stmt *first_loop(Stmt *s)
{
	if (!s)
		return NULL;
	if (s->loop)
		return s;
	for (uint32_t i = 0; i < s->body.len; i++) {
		Stmt *l = first_loop(s->body.items[i]);

		if (l)
			return l;
	}
	return NULL;
}

/*
 * Macro uses in expressions read as their replacement: bounds through
 * function-like macros, array parameters declared through one, scalars;
 * the nodes take the use's bytes.  Uses with effects stay as written.
 */
/* ## pastes its operands as written; an integer macro inside a replacement is its text. */
static void test_macro_paste(void)
{
	Program *prog = lower_one(
		"#define SV(x) x##f\n"
		"#define CAT(a, b) a ## b\n"
		"#define XCAT(a, b) CAT(a, b)\n"
		"#define ONE 1\n"
		"int v1, vONE;\n"
		"void f(float *y) { y[0] = SV(0.5); y[1] = CAT(v, ONE) + XCAT(v, ONE); }\n");
	Func *f;
	const Expr *e;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	f = func_named(prog, "f");
	e = body_stmt(f, 0)->expr->rhs;
	CU_ASSERT_EQUAL_FATAL(e->kind, EX_NUM);
	CU_ASSERT_TRUE(e->num.is_float && e->num.fval == 0.5);
	e = body_stmt(f, 1)->expr->rhs;
	CU_ASSERT_EQUAL_FATAL(e->kind, EX_BINARY);
	CU_ASSERT_EQUAL_FATAL(e->lhs->kind, EX_VAR);
	CU_ASSERT_EQUAL(e->lhs->var->name, name_of("vONE"));
	CU_ASSERT_EQUAL_FATAL(e->rhs->kind, EX_VAR);
	CU_ASSERT_EQUAL(e->rhs->var->name, name_of("v1"));
}

/* A replacement read as one node only where the text means the same: `i * N` with N 2+3 is i*2+3. */
static void test_macro_precedence(void)
{
	Program *prog = lower_one(
		"#define N 2+3\n"
		"#define SH 1<<2\n"
		"int x[9];\n"
		"int f(int i) { return i * N + x[N] + (i < N) + (SH + 1) + (i * SH) + (-N); }\n");
	const Expr *e;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	/* ((((((i * N) + x[N]) + (i < N)) + (SH + 1)) + (i * SH)) + (-N)) */
	e = body_stmt(func_named(prog, "f"), 0)->expr;
	CU_ASSERT_EQUAL(e->rhs->lhs->kind, EX_NAME);                       /* -N: kept */
	CU_ASSERT_EQUAL(e->lhs->rhs->lhs->kind, EX_VAR);                   /* i * SH: 1<<2 binds looser than * */
	CU_ASSERT_EQUAL(e->lhs->rhs->rhs->kind, EX_NAME);
	CU_ASSERT_EQUAL(e->lhs->lhs->rhs->lhs->kind, EX_NAME);             /* SH + 1: kept */
	CU_ASSERT_EQUAL(e->lhs->lhs->lhs->rhs->rhs->kind, EX_BINARY);      /* i < N: 2 + 3 */
	CU_ASSERT_EQUAL(e->lhs->lhs->lhs->lhs->rhs->rhs->kind, EX_BINARY); /* x[N]: an index */
	CU_ASSERT_EQUAL(e->lhs->lhs->lhs->lhs->lhs->rhs->kind, EX_NAME);   /* i * N: kept */
}

/* Statement macros that declare and allocate, `T (*A)[N];`, loops bounded by `a * iv + b < K`. */
static void test_macro_stmts(void)
{
	const char *text =
		"#define DT double\n"
		"#define DECL(v, t, n) t (*v)[n]; v = (t(*)[n])get((n), sizeof(t));\n"
		"#define LOOP { for (;;) ; }\n"
		"void *get(unsigned long n, unsigned long s);\n"
		"typedef float F;\n"
		"void f(void)\n"
		"{ DECL(A, DT, 8);\n"
		"  F (*B)[4];\n"
		"  LOOP;\n"
		"  for (int j = 0; 2 * j + 1 < 64; j++) (*A)[0] = 1;\n"
		"  for (int i = 1; i + 1 < 100; i++) (*A)[1] = 2;\n"
		"  for (int k = -3; 2 * k < 10; k++) (*A)[2] = 3;\n"
		"  for (int u = 6; u + 4294967290u < 100; u++) (*A)[3] = 4;\n"
		"  for (int c = 0; (unsigned char)(7 * c) < 254; c++) (*A)[4] = 5;\n"
		"  for (unsigned v = 0; 2 * v + 1 < 64; v++) (*A)[5] = 6; }\n";
	Program *prog = lower_one(text);
	Func *f;
	Stmt *s;
	uint32_t use = (uint32_t)(strstr(text, "DECL(A") - text);

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	f = func_named(prog, "f");
	/* DECL: the declaration of A and its assignment, both with the use's bytes */
	s = body_stmt(f, 0);
	CU_ASSERT_EQUAL_FATAL(s->kind, ST_DECL);
	CU_ASSERT_EQUAL(s->var->name, name_of("A"));
	CU_ASSERT(type_is_ptr(s->var->type) && s->var->type->base->kind == TY_ARRAY &&
	          s->var->type->base->array_len == 8);
	CU_ASSERT_TRUE(s->in_macro);
	CU_ASSERT_EQUAL(s->start, use);
	s = body_stmt(f, 1);
	CU_ASSERT_EQUAL_FATAL(s->kind, ST_EXPR);
	CU_ASSERT_EQUAL(s->expr->kind, EX_ASSIGN);
	CU_ASSERT_TRUE(s->in_macro && s->expr->in_macro);
	CU_ASSERT_EQUAL(s->start, use);
	CU_ASSERT_EQUAL(s->expr->lhs->var, body_stmt(f, 0)->var);
	/* F (*B)[4]: a declaration, not a call of F */
	s = body_stmt(f, 3);
	CU_ASSERT_EQUAL_FATAL(s->kind, ST_DECL);
	CU_ASSERT_EQUAL(s->var->name, name_of("B"));
	CU_ASSERT(type_is_ptr(s->var->type) && s->var->type->base->array_len == 4);
	/* LOOP spells a block: kept as it reads (a name) */
	s = body_stmt(f, 4);
	CU_ASSERT_EQUAL(s->kind, ST_EXPR);
	CU_ASSERT_FALSE(s->in_macro);
	CU_ASSERT_EQUAL(body_stmt(f, 5)->loop->trip_count, 32);
	CU_ASSERT_EQUAL(body_stmt(f, 5)->loop->upper, 32);
	CU_ASSERT_EQUAL(body_stmt(f, 6)->loop->trip_count, 98);
	CU_ASSERT_EQUAL(body_stmt(f, 7)->loop->trip_count, 8); /* k from -3 to 4 */
	/* unsigned arithmetic wraps, a cast narrows: no line */
	CU_ASSERT_EQUAL(body_stmt(f, 8)->loop->trip_count, -1);
	CU_ASSERT_EQUAL(body_stmt(f, 9)->loop->trip_count, -1);
	CU_ASSERT_EQUAL(body_stmt(f, 10)->loop->trip_count, -1);
}

static void test_macro_uses(void)
{
	const char *text =
		"#define N 64\n"
		"#define LOOP_BOUND(x, y) x\n"
		"#define _B_N LOOP_BOUND(N, n)\n"
		"#define ARR2(v, d1, d2) v[d1][d2]\n"
		"#define IDX(i, j) ((i) * N + (j))\n"
		"#define TWICE(x) ((x) + (x))\n"
		"#define BUMP(x) ((x)++)\n"
		"#define CALL(x) g(x)\n"
		"#define REC REC\n"
		"int g(int);\n"
		"void f(int n, double ARR2(A, N, N), double *b)\n"
		"{ for (int i = 0; i < _B_N; i++) b[IDX(i, 1)] = A[i][0] + TWICE(n);\n"
		"  n = BUMP(n) + CALL(n) + REC; }\n";
	Program *prog = lower_one(text);
	Func *f;
	Stmt *l;
	const Expr *bound, *idx, *e;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	f = func_named(prog, "f");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(f->params.len, 3);
	CU_ASSERT_EQUAL(f->params.items[1]->name, name_of("A"));
	CU_ASSERT(f->params.items[1]->type->kind == TY_ARRAY &&
	          f->params.items[1]->type->array_len == 64);
	l = first_loop(f->body);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_EQUAL(l->loop->trip_count, 64);
	bound = l->loop->cond->rhs;
	CU_ASSERT_EQUAL(bound->start, (uint32_t)(strstr(text, "_B_N;") - text));
	CU_ASSERT_EQUAL(bound->end, bound->start + 4);
	CU_ASSERT_FALSE(bound->in_macro);
	/* b[IDX(i, 1)]: the index is i * 64 + 1, its inner nodes marked */
	idx = l->loop->body->expr->lhs->rhs;
	CU_ASSERT_EQUAL_FATAL(idx->kind, EX_BINARY);
	CU_ASSERT_EQUAL(idx->op, OP_ADD);
	CU_ASSERT_TRUE(idx->lhs->in_macro);
	CU_ASSERT_EQUAL(idx->lhs->start, idx->start);
	/* BUMP, CALL and REC stay calls and a name */
	e = body_stmt(f, 1)->expr->rhs;
	CU_ASSERT_EQUAL_FATAL(e->kind, EX_BINARY);
	CU_ASSERT_EQUAL(e->rhs->kind, EX_NAME);
	CU_ASSERT_EQUAL(e->lhs->kind, EX_BINARY);
	CU_ASSERT_EQUAL(e->lhs->lhs->kind, EX_CALL);
	CU_ASSERT_EQUAL(e->lhs->rhs->kind, EX_CALL);
	CU_ASSERT_EQUAL(e->lhs->rhs->name, name_of("CALL"));
}

/*
 * A size parameter that every call passes as the same constant (directly,
 * through a local set once, or through a caller's bound parameter) is
 * that constant; one passed two values, or written, is not.
 */
static void test_bound_params(void)
{
	Program *prog = lower_one(
		"static double z[100];\n"
		"static void leaf(int n) { for (int i = 0; i < n; i++) z[i] = i; }\n"
		"static void mid(int n, int m) { leaf(n); for (int i = 0; i < m; i++) z[i]++; }\n"
		"static void two(int n) { for (int i = 0; i < n; i++) z[i] = 0; }\n"
		"static void wr(int n) { n--; for (int i = 0; i < n; i++) z[i] = 0; }\n"
		"static void narrow(signed char n) { for (int i = 0; i < n; i++) z[i] = 0; }\n"
		"int main(void) { int n = 40, k = 3; k++; signed char c = 300;\n"
		"  mid(n, 50); mid(40, 50); two(1); two(2); wr(9); narrow(300); return k + c; }\n");
	Var *p;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	bind_params(prog);
	p = func_named(prog, "leaf")->params.items[0];
	CU_ASSERT_TRUE(p->bound && p->bound_value == 40);
	CU_ASSERT_EQUAL(first_loop(func_named(prog, "leaf")->body)->loop->trip_count, 40);
	p = func_named(prog, "mid")->params.items[1];
	CU_ASSERT_TRUE(p->bound && p->bound_value == 50);
	CU_ASSERT_FALSE(func_named(prog, "two")->params.items[0]->bound);
	CU_ASSERT_FALSE(func_named(prog, "wr")->params.items[0]->bound);
	CU_ASSERT_EQUAL(first_loop(func_named(prog, "two")->body)->loop->trip_count, -1);
	/* 300 does not fit a signed char: the value it holds is another */
	CU_ASSERT_FALSE(func_named(prog, "narrow")->params.items[0]->bound);
	CU_ASSERT_FALSE(func_named(prog, "main")->locals.items[2]->bound);
}

/* A variable-length array parameter whose lengths every caller fixes becomes an array of them. */
static void test_vla_params(void)
{
	Program *prog = lower_one(
		"static double a[30][40], b[30][40];\n"
		"static void k(int n, int m, double A[n][m + 0]) { A[1][2] = 0; }\n"
		"static void two(int n, double A[n][n]) { A[1][2] = 0; }\n"
		"int main(void) { int n = 30, m = 40; double (*p)[m] = a;\n"
		"  k(n, m, a); k(30, 40, b); two(3, 0); two(4, 0); return (int)p[0][0]; }\n");
	const Type *t;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	bind_params(prog);
	t = func_named(prog, "k")->params.items[2]->type;
	CU_ASSERT_TRUE(t->kind == TY_ARRAY && !t->is_vla && t->array_len == 30);
	CU_ASSERT_TRUE(t->base->kind == TY_ARRAY && !t->base->is_vla && t->base->array_len == 40 &&
	               t->base->size == 320);
	/* A[1][2]: the row's type has its length too */
	t = body_stmt(func_named(prog, "k"), 0)->expr->lhs->lhs->type;
	CU_ASSERT_TRUE(t && t->kind == TY_ARRAY && t->array_len == 40);
	/* two() gets 3 and 4: its rows keep an unknown length */
	t = func_named(prog, "two")->params.items[1]->type;
	CU_ASSERT_TRUE(t->is_vla && t->base->is_vla);
	/* a pointer local to rows of m, m set once to 40 */
	t = func_named(prog, "main")->locals.items[2]->type;
	CU_ASSERT_TRUE(t->kind == TY_PTR && !t->base->is_vla && t->base->array_len == 40);
}

/* A function called through a macro the lowering keeps, or exported from a program without main, stays unbound. */
static void test_unseen_callers(void)
{
	Program *prog = lower_one(
		"#define RUN(x) k(x)\n"
		"static double z[100];\n"
		"static void k(int n) { for (int i = 0; i < n; i++) z[i] = i; }\n"
		"void e(int n) { for (int i = 0; i < n; i++) z[i] = i; }\n"
		"void top(void) { k(10); RUN(20); e(5); }\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	bind_params(prog);
	CU_ASSERT_FALSE(func_named(prog, "k")->params.items[0]->bound);
	CU_ASSERT_FALSE(func_named(prog, "e")->params.items[0]->bound);
}

int suite_lower(void)
{
	CU_pSuite s = CU_add_suite("lower", NULL, NULL);

	return !s || !CU_add_test(s, "typed parameters", test_params) ||
	       !CU_add_test(s, "union global", test_union_global) ||
	       !CU_add_test(s, "struct layout", test_struct_layout) ||
	    !CU_add_test(s, "attributed layout", test_attributed_layout) ||
	       !CU_add_test(s, "two-IV loop header", test_two_iv_loop) ||
	       !CU_add_test(s, "constants", test_constants) ||
	       !CU_add_test(s, "unsigned constants", test_unsigned_constants) ||
	       !CU_add_test(s, "IV value ranges", test_value_ranges) ||
	       !CU_add_test(s, "TVM casts", test_tvm_cast) ||
	       !CU_add_test(s, "scopes", test_scopes) ||
	       !CU_add_test(s, "unmodelled", test_unmodelled) ||
	       !CU_add_test(s, "calls across sources", test_calls_across_sources) ||
	       !CU_add_test(s, "hidden specifiers", test_hidden_specifiers) ||
	       !CU_add_test(s, "sizes from -D and headers", test_outside_sizes) ||
	       !CU_add_test(s, "type macros", test_type_macros) ||
	       !CU_add_test(s, "macro uses", test_macro_uses) ||
	       !CU_add_test(s, "statement macros", test_macro_stmts) ||
	       !CU_add_test(s, "token pasting", test_macro_paste) ||
	       !CU_add_test(s, "replacements and precedence", test_macro_precedence) ||
	       !CU_add_test(s, "bound parameters", test_bound_params) ||
	       !CU_add_test(s, "callers not all seen", test_unseen_callers) ||
	       !CU_add_test(s, "variable-length array parameters", test_vla_params);
}
