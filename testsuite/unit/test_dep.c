/*
 * test_dep.c - byte regions (region.c), access summaries (access.c, summary.c) and
 * the dependence test (dep.c): regions built by hand, then small programs
 * run through the whole front end.  Several cases fail if aliasing is
 * assumed away: a union's members, an operator working in place on one
 * workspace address, a pointer parameter that may reach a global.
 */
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "middle.h"
#include "unit.h"


int suite_dep(void);

/* ---- regions ---- */

/* A hand-made object the analysis knows nothing of (ids far above any program's). */
static Var *object(const char *name, VarScope scope, StorageClass sc, int64_t size)
{
	static int next_id = 1 << 28;
	Var *v = xcalloc(1, sizeof(*v));
	Type *t = xcalloc(1, sizeof(*t));

	t->kind = TY_ARRAY;
	t->size = size;
	t->array_len = size;
	v->id = next_id++;
	v->name = intern(name, strlen(name));
	v->type = t;
	v->scope = scope;
	v->storage = sc;
	return v;
}

static Region range(Var *base, int64_t lo, int64_t hi)
{
	Region r;

	region_init(&r, base);
	region_add_range(&r, lo, hi);
	return r;
}

static char *print(const Region *r)
{
	static char buf[512];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	region_print(f, r);
	fclose(f);
	return buf;
}

static void test_region_merge(void)
{
	Var *ws = object("ws", VAR_GLOBAL, SC_STATIC, 4096);
	Region r;

	region_init(&r, ws);
	region_add_range(&r, 0, 4);
	region_add_range(&r, 8, 12);
	CU_ASSERT_EQUAL(r.ranges.len, 2);
	region_add_range(&r, 4, 8); /* touches both: one range */
	CU_ASSERT_EQUAL(r.ranges.len, 1);
	CU_ASSERT_STRING_EQUAL(print(&r), "ws[0,12)");
	region_add_range(&r, 128, 256);
	region_add_range(&r, 64, 100);
	region_add_range(&r, 90, 130); /* bridges 64..100 and 128..256 */
	CU_ASSERT_STRING_EQUAL(print(&r), "ws[0,12)+[64,256)");
	region_add_range(&r, 5, 5); /* empty: ignored */
	CU_ASSERT_STRING_EQUAL(print(&r), "ws[0,12)+[64,256)");
	region_add_range(&r, 0, 4096);
	CU_ASSERT_STRING_EQUAL(print(&r), "ws"); /* every byte */
	region_set_whole(&r);
	CU_ASSERT_STRING_EQUAL(print(&r), "ws");
	CU_ASSERT_TRUE(r.whole);
}

static void test_region_overlap(void)
{
	Var *ws = object("ws", VAR_GLOBAL, SC_STATIC, 1 << 20);
	Region a = range(ws, 0, 4096), b = range(ws, 4096, 8192), c = range(ws, 4095, 4097);
	Region e, w;

	CU_ASSERT_FALSE(region_overlap(&a, &b)); /* [0,4096) and [4096,8192) only touch */
	CU_ASSERT_TRUE(region_overlap(&a, &c));
	CU_ASSERT_TRUE(region_overlap(&b, &c));
	region_add_range(&a, 8192, 9000);
	CU_ASSERT_FALSE(region_overlap(&a, &b));
	region_add_range(&b, 8999, 9001);
	CU_ASSERT_TRUE(region_overlap(&a, &b)); /* second range of each */
	region_init(&e, ws);
	region_init(&w, ws);
	region_set_whole(&w);
	CU_ASSERT_FALSE(region_overlap(&e, &w)); /* empty touches nothing */
	CU_ASSERT_TRUE(region_overlap(&w, &c));
	CU_ASSERT_TRUE(region_is_empty(&e));
	region_union(&e, &c);
	CU_ASSERT_STRING_EQUAL(print(&e), "ws[4095,4097)");
	region_union(&e, &w);
	CU_ASSERT_TRUE(e.whole);
}

static void test_region_bases(void)
{
	Var *s1 = object("s1", VAR_GLOBAL, SC_STATIC, 64);
	Var *s2 = object("s2", VAR_GLOBAL, SC_STATIC, 64);
	Var *ext = object("ext", VAR_GLOBAL, SC_NONE, 64);
	Var *taken = object("taken", VAR_GLOBAL, SC_STATIC, 64);
	Region a = range(s1, 0, 64), b = range(s2, 0, 64), x = range(ext, 0, 4);
	Region t = range(taken, 0, 4), u1, u2;

	taken->addr_taken = true;
	region_init(&u1, NULL);
	region_set_whole(&u1);
	region_init(&u2, NULL);
	region_set_whole(&u2);
	CU_ASSERT_FALSE(region_overlap(&a, &b)); /* distinct objects */
	CU_ASSERT_TRUE(region_overlap(&u1, &u2)); /* two unknown pointers */
	CU_ASSERT_TRUE(region_overlap(&u1, &x)); /* outside code can name ext */
	CU_ASSERT_TRUE(region_overlap(&x, &u1));
	CU_ASSERT_TRUE(region_overlap(&u1, &t)); /* its address was taken */
	CU_ASSERT_FALSE(region_overlap(&u1, &a)); /* static, address never taken */
	CU_ASSERT_STRING_EQUAL(print(&u1), "*unknown*");
}

static RowSet rows(int64_t lo, int64_t hi, int64_t stride, int64_t t0, int64_t t1)
{
	return (RowSet){ lo, hi, stride, t0, t1, REGION_BEGIN, REGION_END };
}

/* The bytes of rs in [0, n) set in bits. */
static void mark_rows(unsigned char *bits, int n, RowSet rs)
{
	for (int64_t t = rs.t0; t <= rs.t1; t++)
		for (int64_t b = rs.lo + t * rs.stride; b < rs.hi + t * rs.stride; b++)
			if (b >= 0 && b < n && b >= rs.min && b < rs.max)
				bits[b] = 1;
}

/* A random region of 1 to 3 parts (ranges or row sets), its bytes in bits. */
static Region random_region(Var *base, unsigned char *bits, int n, int64_t stride, unsigned *seed,
                            bool *clipped)
{
	Region r;
	int parts = 1 + rand_r(seed) % 3;

	region_init(&r, base);
	memset(bits, 0, (size_t)n);
	for (int p = 0; p < parts; p++) {
		if (rand_r(seed) % 3 == 0) {
			int64_t lo = rand_r(seed) % (n - 8), hi = lo + 1 + rand_r(seed) % 8;

			region_add_range(&r, lo, hi);
			mark_rows(bits, n, rows(lo, hi, 1, 0, 0));
		} else {
			int64_t lo = rand_r(seed) % stride, hi = lo + 1 + rand_r(seed) % (stride - lo), t0 = rand_r(seed) % 6;
			RowSet rs = rows(lo, hi, stride, t0, t0 + rand_r(seed) % 6);
			bool empty;

			if (rand_r(seed) % 2) { /* within a window, as a narrowed address allows */
				int64_t wlo = rand_r(seed) % 128;

				rs = region_rows_within(rs, wlo, wlo + rand_r(seed) % 128, &empty);
				*clipped = true;
				if (empty)
					continue;
			}

			region_add_rows(&r, rs);
			mark_rows(bits, n, rs);
		}
	}
	return r;
}

/*
 * Row sets against brute force: two regions meet when their bytes do
 * (never less: that would be unsound), and only then when their rows have
 * one stride and no window (rows of another stride are taken whole, as
 * their hull; rows cut by a window, whole).
 */
static void test_region_rows(void)
{
	Var *ws = object("ws", VAR_GLOBAL, SC_STATIC, 1 << 20);
	unsigned char a_bits[256], b_bits[256];
	unsigned seed = 7;
	int unsound = 0, imprecise = 0;

	for (int i = 0; i < 40000; i++) {
		int64_t sa = 4 + rand_r(&seed) % 5 * 4, sb = i % 2 ? sa : 4 + rand_r(&seed) % 5 * 4;
		bool clipped = false;
		Region a = random_region(ws, a_bits, 256, sa, &seed, &clipped);
		Region b = random_region(ws, b_bits, 256, sb, &seed, &clipped);
		bool meet = false, overlap = region_overlap(&a, &b);

		for (int k = 0; k < 256; k++)
			meet |= a_bits[k] && b_bits[k];
		unsound += meet && !overlap;
		imprecise += overlap && !meet && sa == sb && !clipped;
		region_free(&a);
		region_free(&b);
	}
	CU_ASSERT_EQUAL(unsound, 0);
	CU_ASSERT_EQUAL(imprecise, 0);
	/* rows without end: columns [0,8) and [8,16) of 16-byte rows never meet, [8,17) does */
	{
		Region a, b;

		region_init(&a, ws);
		region_init(&b, ws);
		region_add_rows(&a, rows(0, 8, 16, IV_NINF, IV_PINF));
		region_add_rows(&b, rows(8, 16, 16, 3, IV_PINF));
		CU_ASSERT_FALSE(region_overlap(&a, &b));
		region_add_range(&b, 1 << 19, (1 << 19) + 1); /* column 0 of a row of a */
		CU_ASSERT_TRUE(region_overlap(&a, &b));
		region_free(&b);
		region_init(&b, ws);
		region_add_rows(&b, rows(8, 17, 16, IV_NINF, 0));
		CU_ASSERT_TRUE(region_overlap(&a, &b));
		region_free(&b);
		region_init(&b, ws);
		region_add_rows(&b, rows(24, 32, 16, -5, 5)); /* same columns, moved a row */
		CU_ASSERT_FALSE(region_overlap(&a, &b));
	}
}

static void test_region_cap(void)
{
	Var *ws = object("big", VAR_GLOBAL, SC_STATIC, -1);
	Region r, probe;

	region_init(&r, ws);
	for (int i = 0; i < 100; i++)
		region_add_range(&r, 100 * i, 100 * i + 10);
	CU_ASSERT_TRUE(r.ranges.len <= 32);
	for (int i = 0; i < 100; i++) { /* merged, never lost */
		probe = range(ws, 100 * i + 5, 100 * i + 6);
		CU_ASSERT_TRUE(region_overlap(&r, &probe));
	}
	probe = range(ws, 10000, 10001);
	CU_ASSERT_FALSE(region_overlap(&r, &probe));
}

/* ---- programs through the front end ---- */

static Program *front(const char *text)
{
	return unit_front("dep.c", text, true);
}

static Func *fn(const Program *prog, const char *name)
{
	return unit_func(prog, name);
}

/* The i-th MT (1-based) of function name's body. */
static MT *mt_of(const Program *prog, const char *name, uint32_t i)
{
	Func *f = fn(prog, name);

	if (!f || !f->mt || i < 1 || i > f->mt->children.len)
		return NULL;
	return f->mt->children.items[i - 1];
}

/* sum_dump's text, lines joined by "; ". */
static char *dump(const MT *mt)
{
	static char buf[4096];
	char *p;
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	sum_dump(f, mt);
	fclose(f);
	while ((p = strchr(buf, '\n'))) {
		if (p[1])
			memmove(p + 2, p + 1, strlen(p + 1) + 1), p[0] = ';', p[1] = ' ';
		else
			*p = '\0';
	}
	return buf;
}

static bool dependent(const MT *a, const MT *b)
{
	Dep d;

	return dep_between(a, b, &d);
}

/* Two onnx2c layers on different members of one union share its storage. */
static void test_union_members(void)
{
	Program *prog = front(
		"union U { float a[64]; float b[32]; };\n"
		"static union U tu0;\n"
		"static float w[64], out[32], out2[64];\n"
		"static inline void scale(const float x[64], float y[64]) {\n"
		"  for (int i = 0; i < 64; i++) y[i] = x[i] * 2.0f; }\n"
		"static inline void add1(const float x[32], float y[32]) {\n"
		"  for (int i = 0; i < 32; i++) y[i] = x[i] + 1.0f; }\n"
		"static inline void fill(float y[32]) {\n"
		"  for (int i = 0; i < 32; i++) y[i] = 0.0f; }\n"
		"void entry(void) {\n"
		"  scale(w, tu0.a);\n"
		"  add1(tu0.b, out);\n"
		"  fill(tu0.b);\n"
		"  scale(w, out2);\n"
		"}\n");
	MT *l1, *l2, *l3, *l4;
	Dep d;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	l1 = mt_of(prog, "entry", 1);
	l2 = mt_of(prog, "entry", 2);
	l3 = mt_of(prog, "entry", 3);
	l4 = mt_of(prog, "entry", 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l4);
	CU_ASSERT_STRING_EQUAL(dump(l1), "reads w; writes tu0");
	CU_ASSERT_STRING_EQUAL(dump(l2), "reads tu0[0,128); writes out");
	CU_ASSERT_TRUE_FATAL(dep_between(l1, l2, &d)); /* .a written, .b read */
	CU_ASSERT_EQUAL(d.kind, DEP_FLOW);
	CU_ASSERT_STRING_EQUAL(intern_name(d.object->name), "tu0");
	CU_ASSERT_TRUE(dep_between(l1, l3, &d)); /* both write tu0's first bytes */
	CU_ASSERT_EQUAL(d.kind, DEP_OUTPUT);
	CU_ASSERT_TRUE(dep_between(l2, l3, &d));
	CU_ASSERT_EQUAL(d.kind, DEP_ANTI);
	CU_ASSERT_FALSE(dependent(l1, l4)); /* both only read w */
	CU_ASSERT_FALSE(dependent(l3, l4));
}

/* An operator whose input and output are the same workspace address. */
static void test_in_place_workspace(void)
{
	Program *prog = front(
		"#include <stdint.h>\n"
		"static float in0[64];\n"
		"int32_t op(void* arg0, void* arg1) {\n"
		"  void* x = arg0;\n"
		"  void* y = arg1;\n"
		"  for (int32_t i = 0; i < 64; ++i) ((float*)y)[i] = ((float*)x)[i] * 2.0f;\n"
		"  return 0;\n"
		"}\n"
		"int32_t run(float* out, uint8_t* ws) {\n"
		"  if (op(in0, &ws[0]) != 0) return -1;\n"
		"  if (op(&ws[0], &ws[0]) != 0) return -1;\n"
		"  if (op(&ws[0], out) != 0) return -1;\n"
		"  return 0;\n"
		"}\n");
	MT *a, *b, *c;
	Dep d;
	int64_t v = 1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	a = mt_of(prog, "run", 1);
	b = mt_of(prog, "run", 2);
	c = mt_of(prog, "run", 3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_STRING_EQUAL(dump(b), "reads ws *ws[0,256); writes *ws[0,256)");
	CU_ASSERT_TRUE_FATAL(dep_between(a, b, &d));
	CU_ASSERT_EQUAL(d.kind, DEP_FLOW);
	CU_ASSERT_TRUE_FATAL(dep_between(b, c, &d));
	CU_ASSERT_EQUAL(d.kind, DEP_FLOW);
	CU_ASSERT_TRUE(dependent(a, c));
	CU_ASSERT_TRUE(val_returns_constant(fn(prog, "op"), &v));
	CU_ASSERT_EQUAL(v, 0);
	CU_ASSERT_FALSE(val_returns_constant(fn(prog, "run"), &v)); /* -1 or 0 */
}

/* TVM with USMP: operators on disjoint byte ranges of one workspace. */
static void test_disjoint_workspace(void)
{
	Program *prog = front(
		"#include <stdint.h>\n"
		"static int32_t copy(void* arg0, void* arg1) {\n"
		"  for (int32_t i = 0; i < 256; ++i) ((float*)arg1)[i] = ((float*)arg0)[i];\n"
		"  return 0;\n"
		"}\n"
		"static int32_t pad(void* arg0, void* arg1, uint8_t* gws) {\n"
		"  void* scratch = (&(gws[8192]));\n"
		"  for (int32_t i = 0; i < 264; ++i)\n"
		"    ((float*)scratch)[i] = ((4 <= i) && (i < 260)) ? ((float*)arg0)[(i - 4)] : 0.0f;\n"
		"  for (int32_t j = 0; j < 256; ++j) ((float*)arg1)[j] = ((float*)scratch)[j + 4];\n"
		"  return 0;\n"
		"}\n"
		"int32_t run(uint8_t* ws) {\n"
		"  void* s0 = (&(ws[0]));\n"
		"  void* s1 = (&(ws[4096]));\n"
		"  if (copy(&ws[12288], s0) != 0) return -1;\n"
		"  if (copy(&ws[12288], s1) != 0) return -1;\n"
		"  if (pad(s0, &ws[5120], ws) != 0) return -1;\n"
		"  if (copy(&ws[1000], &ws[13000]) != 0) return -1;\n"
		"  return 0;\n"
		"}\n");
	MT *c0, *c1, *p, *c2;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	c0 = mt_of(prog, "run", 2);
	c1 = mt_of(prog, "run", 3);
	p = mt_of(prog, "run", 4);
	c2 = mt_of(prog, "run", 5);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c2);
	CU_ASSERT_STRING_EQUAL(dump(c0), "reads ws s0 *ws[12288,13312); writes *ws[0,1024)");
	CU_ASSERT_STRING_EQUAL(dump(p),
	                       "reads ws s0 *ws[0,1024)+[8208,9232); writes *ws[5120,6144)+[8192,9248)");
	CU_ASSERT_FALSE(dependent(c0, c1)); /* [0,1024) and [4096,5120) */
	CU_ASSERT_FALSE(dependent(c1, p)); /* pad's padded reads stay inside [0,1024) */
	CU_ASSERT_TRUE(dependent(c0, p));
	CU_ASSERT_TRUE(dependent(c0, c2)); /* reads [1000,2024): overlaps [0,1024) */
	CU_ASSERT_TRUE(dependent(c1, c2)); /* writes [13000,14024): c1 read [12288,13312) */
}

/* The four branches of an Inception block and their concatenation. */
static void test_inception(void)
{
	Program *prog = front(
		"static float in[64], b1[64], b2[64], b3[64], b4[64], cat[1][256];\n"
		"static inline void conv(const float x[64], float y[64]) {\n"
		"  for (int i = 0; i < 64; i++) y[i] = x[i] * 0.5f; }\n"
		"static inline void concat(const float a[64], const float b[64], const float c[64],\n"
		"                          const float d[64], float y[1][256]) {\n"
		"  for (int i = 0; i < 64; i++) y[0][i] = a[i];\n"
		"  for (int i = 0; i < 64; i++) y[0][64 + i] = b[i];\n"
		"  for (int i = 0; i < 64; i++) y[0][128 + i] = c[i];\n"
		"  for (int i = 0; i < 64; i++) y[0][192 + i] = d[i];\n"
		"}\n"
		"void entry(void) {\n"
		"  conv(in, b1);\n"
		"  conv(in, b2);\n"
		"  conv(in, b3);\n"
		"  conv(in, b4);\n"
		"  concat(b1, b2, b3, b4, cat);\n"
		"}\n");
	MT *m[6];
	Func *cf;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	for (uint32_t i = 1; i <= 5; i++) {
		m[i] = mt_of(prog, "entry", i);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m[i]);
	}
	for (int i = 1; i <= 4; i++)
		for (int j = i + 1; j <= 4; j++)
			CU_ASSERT_FALSE(dependent(m[i], m[j]));
	for (int i = 1; i <= 4; i++)
		CU_ASSERT_TRUE(dependent(m[i], m[5]));
	/* inside concat the four copies write disjoint quarters of one parameter */
	cf = fn(prog, "concat");
	CU_ASSERT_PTR_NOT_NULL_FATAL(cf);
	CU_ASSERT_EQUAL_FATAL(cf->mt->children.len, 4);
	CU_ASSERT_STRING_EQUAL(dump(cf->mt->children.items[1]), "reads b y *b[0,256); writes *y[256,512)");
	CU_ASSERT_FALSE(dependent(cf->mt->children.items[0], cf->mt->children.items[1]));
	CU_ASSERT_FALSE(dependent(cf->mt->children.items[2], cf->mt->children.items[3]));
}

/* A pointer parameter of the entry function may point into an escaping global. */
static void test_entry_pointer(void)
{
	Program *prog = front(
		"float g[16];\n"
		"static float h[16], k[16];\n"
		"float *gp = k;\n"
		"void entry(float *p) {\n"
		"  for (int i = 0; i < 16; i++) p[i] = 1.0f;\n"
		"  for (int i = 0; i < 16; i++) g[i] += 1.0f;\n"
		"  for (int i = 0; i < 16; i++) h[i] += 1.0f;\n"
		"  for (int i = 0; i < 16; i++) k[i] += 1.0f;\n"
		"}\n");
	MT *mp, *mg, *mh, *mk;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	mp = mt_of(prog, "entry", 1);
	mg = mt_of(prog, "entry", 2);
	mh = mt_of(prog, "entry", 3);
	mk = mt_of(prog, "entry", 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mk);
	CU_ASSERT_STRING_EQUAL(dump(mp), "reads p; writes *p[0,64)");
	CU_ASSERT_TRUE(dependent(mp, mg)); /* g has external linkage */
	CU_ASSERT_FALSE(dependent(mp, mh)); /* h is static and never escapes */
	CU_ASSERT_TRUE(dependent(mp, mk)); /* k's address is in a global */
	CU_ASSERT_FALSE(dependent(mg, mh));
}

/*
 * A subscript of a row of an array of arrays stays in the row where its
 * range is unknown on a side (C11 J.2); a known range is kept, and a row
 * reached through a pointer gets no bound.
 */
static void test_row_bounds(void)
{
	Program *prog = front(
		"static float Y[8][16];\n"
		"static int perm[16];\n"
		"void f(int n) {\n"
		"  for (int j = 0; j < 16; j++) Y[3][perm[j]] = 1.0f;\n"
		"  for (int j = 0; j < 16; j++) Y[3][j - n] = 1.0f;\n"
		"  for (int j = 0; j < 16; j++) Y[0][j + 16] = 1.0f;\n"
		"  float (*R)[16] = Y;\n"
		"  for (int j = 0; j < 16; j++) R[2][perm[j]] = 1.0f;\n"
		"  for (int j = 0; j < 16; j++) (&Y[4][perm[j]])[-1] = 1.0f;\n"
		"}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	CU_ASSERT_STRING_EQUAL(dump(mt_of(prog, "f", 1)), "reads perm; writes Y[192,256)");
	CU_ASSERT_STRING_EQUAL(dump(mt_of(prog, "f", 2)), "reads n; writes Y[192,256)");
	CU_ASSERT_STRING_EQUAL(dump(mt_of(prog, "f", 3)), "writes Y[64,128)");
	CU_ASSERT_STRING_EQUAL(dump(mt_of(prog, "f", 5)), "reads perm R; writes Y[128,192)");
	/* & may name the place one past the row: its [-1] is the row's last element */
	CU_ASSERT_STRING_EQUAL(dump(mt_of(prog, "f", 6)), "reads perm; writes Y[252,320)");
}

/* Unknown functions order everything; math.h functions read their arguments. */
static void test_calls(void)
{
	Program *prog = front(
		"#include <math.h>\n"
		"#include <stdio.h>\n"
		"#define MAX(X,Y) ( X > Y ? X : Y)\n"
		"#define BUMP(X) ((X)++)\n"
		"extern void mystery(float *x);\n"
		"static float a[8], b[8], c[8];\n"
		"void entry(void) {\n"
		"  for (int i = 0; i < 8; i++) a[i] = expf(b[i]) + MAX(sqrtf(b[i]), 0.0f);\n"
		"  mystery(c);\n"
		"  for (int i = 0; i < 8; i++) c[i] = tanhf(a[i]) + fabsf(a[i]);\n"
		"  printf(\"%f\\n\", a[0]);\n"
		"  for (int i = 0; i < 8; i++) b[i] = powf(c[i], 2.0f);\n"
		"  printf(\"%f\\n\", b[0]);\n"
		"  for (int i = 0; i < 8; i++) BUMP(b[i]);\n"
		"}\n");
	MT *m1, *m2, *m3, *m4, *m5, *m6, *m7;
	Dep d;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	m1 = mt_of(prog, "entry", 1);
	m2 = mt_of(prog, "entry", 2);
	m3 = mt_of(prog, "entry", 3);
	m4 = mt_of(prog, "entry", 4);
	m5 = mt_of(prog, "entry", 5);
	m6 = mt_of(prog, "entry", 6);
	m7 = mt_of(prog, "entry", 7);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m7);
	CU_ASSERT_FALSE(m1->summary->barrier);
	CU_ASSERT_STRING_EQUAL(dump(m1), "reads b; writes a");
	CU_ASSERT_TRUE(m2->summary->barrier);
	CU_ASSERT_TRUE_FATAL(dep_between(m1, m2, &d));
	CU_ASSERT_EQUAL(d.kind, DEP_BARRIER);
	CU_ASSERT_TRUE(dependent(m2, m3));
	CU_ASSERT_FALSE(m3->summary->barrier);
	/* output stays ordered, without a barrier */
	CU_ASSERT_FALSE(m4->summary->barrier);
	CU_ASSERT_TRUE(dependent(m4, m6));
	CU_ASSERT_STRING_EQUAL(dump(m4), "reads a[0,4) <io>; writes <io>");
	CU_ASSERT_FALSE(dependent(m3, m4)); /* both read a; printf writes only <io> */
	CU_ASSERT_TRUE(dependent(m3, m5)); /* c */
	CU_ASSERT_TRUE(m7->summary->barrier); /* BUMP assigns: not a pure macro */
	CU_ASSERT_TRUE(acc_func_summary(fn(prog, "entry"))->barrier);
}

/* The pointer shapes of generated code, and memcpy/memset. */
static void test_pointer_shapes(void)
{
	Program *prog = front(
		"#include <stdint.h>\n"
		"#include <string.h>\n"
		"static uint8_t ws[4096];\n"
		"static float X[1][4][8][8];\n"
		"static float C[10][1000];\n"
		"void entry(void) {\n"
		"  void* p = &ws[128];\n"
		"  for (int32_t j = 0; j < 16; ++j) ((int16_t*)p)[j] = 0;\n"
		"  for (int32_t j = 0; j < 8; ++j) ((float*)(&ws[1024]))[j + 8] = 1.0f;\n"
		"  float *X_ptr = (float*)X;\n"
		"  for (uint32_t i = 0; i < 128; i++) X_ptr[i + 64] = 2.0f;\n"
		"  float (*C_)[1000] = (float(*)[1000])C;\n"
		"  for (int r = 2; r < 4; r++) for (int c = 0; c < 1000; c++) C_[r][c] = 0.0f;\n"
		"  memset(&ws[2048], 0, 256);\n"
		"  memcpy(&ws[3072], &ws[2048], 100);\n"
		"}\n");
	Func *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	f = fn(prog, "entry");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(f->mt->children.len, 8);
	CU_ASSERT_STRING_EQUAL(dump(f->mt->children.items[1]), "reads p; writes ws[128,160)");
	CU_ASSERT_STRING_EQUAL(dump(f->mt->children.items[2]), "writes ws[1056,1088)");
	CU_ASSERT_STRING_EQUAL(dump(f->mt->children.items[4]), "reads X_ptr; writes X[256,768)");
	CU_ASSERT_STRING_EQUAL(dump(f->mt->children.items[6]), "reads C_; writes C[8000,16000)");
	CU_ASSERT_STRING_EQUAL(dump(f->mt->children.items[7]),
	                       "reads ws[2048,2148); writes ws[2048,2304)+[3072,3172)");
}

/* Fresh memory from the allocator: distinct objects, allocations kept in order. */
static void test_allocator(void)
{
	Program *prog = front(
		"#include <stdint.h>\n"
		"static int32_t op(void* arg0, void* arg1) {\n"
		"  for (int32_t i = 0; i < 64; ++i) ((float*)arg1)[i] = ((float*)arg0)[i];\n"
		"  return 0;\n"
		"}\n"
		"static int32_t scratchy(void* arg0, void* arg1) {\n"
		"  for (int32_t o = 0; o < 4; ++o) {\n"
		"    void* t = TVMBackendAllocWorkspace(1, 0, (uint64_t)64, 2, 32);\n"
		"    if (t == NULL) return -1;\n"
		"    for (int32_t i = 0; i < 16; ++i) ((float*)t)[i] = ((float*)arg0)[o * 16 + i];\n"
		"    for (int32_t i = 0; i < 16; ++i) ((float*)arg1)[o * 16 + i] = ((float*)t)[i];\n"
		"    if (TVMBackendFreeWorkspace(1, 0, t) != 0) return -1;\n"
		"  }\n"
		"  return 0;\n"
		"}\n"
		"int32_t run(void* in, void* out) {\n"
		"  void* s1 = TVMBackendAllocWorkspace(1, 0, (uint64_t)256, 0, 8);\n"
		"  void* s2 = TVMBackendAllocWorkspace(1, 0, (uint64_t)256, 0, 8);\n"
		"  (void)op(in, s1);\n"
		"  (void)op(in, s2);\n"
		"  (void)scratchy(s1, s2);\n"
		"  (void)scratchy(in, out);\n"
		"  (void)TVMBackendFreeWorkspace(1, 0, s2);\n"
		"  return 0;\n"
		"}\n");
	MT *o1, *o2, *k1, *k2, *fr;
	int64_t v;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	o1 = mt_of(prog, "run", 2);
	o2 = mt_of(prog, "run", 3);
	k1 = mt_of(prog, "run", 4);
	k2 = mt_of(prog, "run", 5);
	fr = mt_of(prog, "run", 6);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fr);
	CU_ASSERT_STRING_EQUAL(dump(o1), "reads in s1 *in[0,256); writes *s1");
	CU_ASSERT_FALSE(dependent(o1, o2)); /* two fresh objects */
	CU_ASSERT_TRUE(dependent(o2, k1));
	CU_ASSERT_TRUE(dependent(k1, k2)); /* both allocate: the pool is shared */
	CU_ASSERT_TRUE(dependent(k1, fr)); /* s2 is freed after its last use */
	CU_ASSERT_FALSE(val_returns_constant(fn(prog, "scratchy"), &v));
	/* the per-iteration scratch is private to the loop */
	CU_ASSERT_STRING_EQUAL(dump(mt_of(prog, "scratchy", 1)),
	                       "reads arg0 arg1 <allocator> *arg0[0,256); writes <allocator> *arg1[0,256)");
}

/* Scalars: flow through a variable, privacy of loop-local ones, recursion. */
static void test_scalars(void)
{
	Program *prog = front(
		"static float a[16];\n"
		"static int rec(int n) { return n ? rec(n - 1) : 0; }\n"
		"int entry(int n) {\n"
		"  int k = n * 2;\n"
		"  for (int i = 0; i < 16; i++) { float t = a[i]; a[i] = t + k; }\n"
		"  k = rec(k);\n"
		"  for (int i = 0; i < 16; i++) a[i] += 1.0f;\n"
		"  return k;\n"
		"}\n");
	MT *m1, *m2, *m3, *m4;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	m1 = mt_of(prog, "entry", 1);
	m2 = mt_of(prog, "entry", 2);
	m3 = mt_of(prog, "entry", 3);
	m4 = mt_of(prog, "entry", 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m4);
	CU_ASSERT_STRING_EQUAL(dump(m2), "reads a k; writes a"); /* t and i are private */
	CU_ASSERT_TRUE(dependent(m1, m2)); /* k */
	CU_ASSERT_TRUE(dependent(m2, m3)); /* anti on k */
	CU_ASSERT_TRUE(m3->summary->barrier); /* recursion */
	CU_ASSERT_TRUE(acc_func_summary(fn(prog, "rec"))->barrier);
}

/* Corners where a shortcut would lose a dependence. */
static void test_soundness_corners(void)
{
	Program *prog = front(
		"static float a[100], b[100], s1[10], s2[10];\n"
		"static float *gp;\n"
		"static void keep(float *p) { gp = p; }\n"
		"void narrow(int n) {\n"
		"  for (int i = 0; i < 10; i++) { int t = i; if (t < 5) a[t] = 1; }\n"
		"  int k = n;\n"
		"  if (k < 5) { k = 50; a[k] = 2; }\n"
		"}\n"
		"void walk(void) {\n"
		"  float *p = b;\n"
		"  for (int i = 0; i < 10; i++) { *p = 0; p++; }\n"
		"  for (int i = 0; i < 10; i++) { b[i] = 0; i += 20; b[i] = 1; }\n"
		"}\n"
		"void esc(void) {\n"
		"  keep(s1);\n"
		"  for (int i = 0; i < 10; i++) gp[i] = 0;\n"
		"  for (int i = 0; i < 10; i++) s1[i] += 1;\n"
		"  for (int i = 0; i < 10; i++) s2[i] += 1;\n"
		"}\n"
		"void jump(int n) {\n"
		"  int i = n;\n"
		"  goto in;\n"
		"  if (i < 5) {\n"
		"in:\n"
		"    a[i] = 0;\n"
		"  }\n"
		"}\n");
	MT *g, *w1, *w2;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	CU_ASSERT_STRING_EQUAL(dump(mt_of(prog, "narrow", 1)), "writes a[0,20)");
	/* k is redefined inside the arm: the test says nothing of a[k] */
	CU_ASSERT_STRING_EQUAL(dump(mt_of(prog, "narrow", 2)), "reads n k; writes a k");
	CU_ASSERT_STRING_EQUAL(dump(mt_of(prog, "walk", 2)), "reads p; writes b p");
	CU_ASSERT_STRING_EQUAL(dump(mt_of(prog, "walk", 3)), "writes b");
	/* keep() stores its argument: s1 becomes reachable through gp */
	g = mt_of(prog, "esc", 2);
	w1 = mt_of(prog, "esc", 3);
	w2 = mt_of(prog, "esc", 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w2);
	CU_ASSERT_TRUE(dependent(g, w1));
	CU_ASSERT_FALSE(dependent(g, w2));
	/* the goto enters the arm without the test */
	CU_ASSERT_STRING_EQUAL(dump(mt_of(prog, "jump", 2)), "reads i; writes a");
}

/*
 * Pointers loaded once at the top of a function (TVM's DLTensor data) are
 * objects of their own: offsets relative to the pointer, aliasing each
 * other and escaping memory unless assumed apart, and unknown to a caller.
 */
static void test_loaded_pointers(void)
{
	Program *prog = front(
		"typedef struct T { void *data; } T;\n"
		"float g[16];\n"
		"int op(void *args) {\n"
		"  void *a0 = ((void **)args)[0];\n"
		"  void *a1 = ((void **)args)[1];\n"
		"  void *x = ((T *)a0)->data;\n"
		"  void *y = ((T *)a1)->data;\n"
		"  for (int i = 0; i < 8; ++i) ((float *)y)[i] = ((float *)x)[i + 2];\n"
		"  for (int i = 0; i < 8; ++i) ((float *)x)[i + 16] = 0.0f;\n"
		"  for (int i = 0; i < 8; ++i) g[i] = 1.0f;\n"
		"  return 0;\n"
		"}\n"
		"int caller(void *args) {\n"
		"  op(args);\n"
		"  return 0;\n"
		"}\n");
	MT *copy, *clear, *glob;
	const Var *const *pairs;
	uint32_t n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	copy = mt_of(prog, "op", 2);
	clear = mt_of(prog, "op", 3);
	glob = mt_of(prog, "op", 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(glob);
	CU_ASSERT_STRING_EQUAL(dump(copy), "reads x y *x[8,40); writes *y[0,32)");
	CU_ASSERT_TRUE(dependent(copy, clear)); /* y may be x */
	CU_ASSERT_TRUE(dependent(clear, glob)); /* x may point into g */
	obj_assume_apart(program_find_func(prog, intern("op", 2)));
	CU_ASSERT_FALSE(dependent(copy, clear));
	CU_ASSERT_TRUE(dependent(clear, glob)); /* assumed apart from each other only */
	obj_assume_apart(NULL);
	pairs = obj_assumed(&n);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_TRUE(n == 1 && obj_kind(pairs[0]) == OBJ_LOADED && obj_kind(pairs[1]) == OBJ_LOADED);
	CU_ASSERT_TRUE(dependent(copy, clear));
	/* another call loads other values: the caller sees unknown memory */
	CU_ASSERT_STRING_EQUAL(dump(mt_of(prog, "caller", 1)),
	                       "reads *unknown* args *args[0,16); writes *unknown* g[0,32)");
}

/*
 * An exported function's pointer parameters (TVM's __tvm_main__ with its
 * workspaces) may receive anything from callers the program does not
 * show: they alias, unless the plan of that function assumes them apart
 * behind a run-time check.  A parameter it assigns is never assumed.
 */
static void test_exported_params(void)
{
	Program *prog = front(
		"int op(unsigned char *ws, float *in, float *q) {\n"
		"  for (int i = 0; i < 8; ++i) ((float *)&ws[64])[i] = in[i];\n"
		"  for (int i = 0; i < 8; ++i) in[i + 8] = 1.0f;\n"
		"  q = q + 1;\n"
		"  for (int i = 0; i < 8; ++i) q[i] = 0.0f;\n"
		"  return 0;\n"
		"}\n");
	Func *op = program_find_func(prog, intern("op", 2));
	const Var *const *pairs;
	uint32_t n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(op);
	CU_ASSERT_TRUE(dependent(mt_of(prog, "op", 1), mt_of(prog, "op", 2)));
	obj_assume_apart(op);
	CU_ASSERT_FALSE(dependent(mt_of(prog, "op", 1), mt_of(prog, "op", 2)));
	CU_ASSERT_TRUE(dependent(mt_of(prog, "op", 2), mt_of(prog, "op", 4))); /* q is assigned */
	obj_assume_apart(NULL);
	pairs = obj_assumed(&n);
	CU_ASSERT_TRUE(n >= 1 && obj_kind(pairs[0]) == OBJ_POINTEE && obj_kind(pairs[1]) == OBJ_POINTEE);
	CU_ASSERT_TRUE(dependent(mt_of(prog, "op", 1), mt_of(prog, "op", 2)));
}

int suite_dep(void)
{
	CU_pSuite s = CU_add_suite("dep", NULL, NULL);

	return !s || !CU_add_test(s, "region merge", test_region_merge) ||
	       !CU_add_test(s, "region overlap", test_region_overlap) ||
	       !CU_add_test(s, "region bases", test_region_bases) ||
	       !CU_add_test(s, "region cap", test_region_cap) ||
	       !CU_add_test(s, "region rows", test_region_rows) ||
	       !CU_add_test(s, "union members", test_union_members) ||
	       !CU_add_test(s, "in-place workspace", test_in_place_workspace) ||
	       !CU_add_test(s, "disjoint workspace", test_disjoint_workspace) ||
	       !CU_add_test(s, "inception", test_inception) ||
	       !CU_add_test(s, "entry pointer", test_entry_pointer) ||
	       !CU_add_test(s, "row bounds", test_row_bounds) ||
	       !CU_add_test(s, "calls", test_calls) ||
	       !CU_add_test(s, "pointer shapes", test_pointer_shapes) ||
	       !CU_add_test(s, "allocator", test_allocator) ||
	       !CU_add_test(s, "scalars", test_scalars) ||
	       !CU_add_test(s, "soundness corners", test_soundness_corners) ||
	       !CU_add_test(s, "loaded pointers", test_loaded_pointers) ||
	       !CU_add_test(s, "exported parameters", test_exported_params);
}
