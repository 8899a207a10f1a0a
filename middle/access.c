/*
 * access.c - access summaries: the bytes each macro task may read and
 * write, per base object.  Subscripts are evaluated by interval arithmetic
 * over the ranges of the enclosing loops' induction variables (a plain
 * non-relational interval domain, as in Cousot and Cousot 1977); pointer
 * locals defined once are followed to their target; a call maps its
 * callee's summary onto the actual arguments, callees first.  An escape
 * pass decides which objects a pointer of unknown origin may reach and
 * what each pointer parameter may receive.  Everything unproven widens:
 * an unknown subscript touches the whole object, an unknown pointer any
 * escaping object, an unknown call everything (a barrier).
 *
 * Per program: scan names (library functions, the sources' #defines and
 * enumerators), count every variable's definitions, then each function
 * callees first: (1) values: induction ranges of its loops and the value
 * of each variable defined once, at its definition; (2) escapes: where
 * the addresses it handles go; (3) its summary and its MTs' summaries.
 * Last, what each pointer parameter may receive is closed over the calls.
 *
 * Assumptions: the program has no undefined behaviour (an access stays in
 * its object, a const object is never written, signed arithmetic does not
 * overflow).  Within an object nothing else is assumed: subscripts may
 * leave their dimension, and buffers may overlap anywhere.
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"

/* ------------------------------------------------------------------ */
/* Intervals [lo, hi] over int64, with INT64_MIN/MAX as -inf/+inf      */
/* ------------------------------------------------------------------ */

#define NINF INT64_MIN
#define PINF INT64_MAX

typedef struct Ival {
	int64_t lo, hi;
} Ival;

static const Ival TOP = { NINF, PINF };

/* Wide arithmetic: infinities become +-2^100, results are clamped back. */
typedef __int128 Wide;
#define WBIG ((Wide)1 << 100)

static Wide wlo(int64_t v) { return v == NINF ? -WBIG : v; }
static Wide whi(int64_t v) { return v == PINF ? WBIG : v; }

static int64_t to_lo(Wide w)
{
	if (w <= (Wide)INT64_MIN)
		return NINF;
	return w >= (Wide)INT64_MAX ? INT64_MAX - 1 : (int64_t)w;
}

static int64_t to_hi(Wide w)
{
	if (w >= (Wide)INT64_MAX)
		return PINF;
	return w <= (Wide)INT64_MIN ? INT64_MIN + 1 : (int64_t)w;
}

static Ival iv_const(int64_t c) { return (Ival){ c, c }; }
static bool iv_is_const(Ival a) { return a.lo == a.hi && a.lo != NINF && a.hi != PINF; }
static bool iv_is_top(Ival a) { return a.lo == NINF && a.hi == PINF; }

static Ival iv_join(Ival a, Ival b)
{
	return (Ival){ a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi };
}

/* Intersection; *empty tells when there is none (a keeps its value then). */
static Ival iv_meet(Ival a, Ival b, bool *empty)
{
	Ival r = { a.lo > b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi };

	*empty = r.lo > r.hi;
	return *empty ? a : r;
}

static Ival iv_add(Ival a, Ival b)
{
	return (Ival){ to_lo(wlo(a.lo) + wlo(b.lo)), to_hi(whi(a.hi) + whi(b.hi)) };
}

static Ival iv_neg(Ival a)
{
	return (Ival){ to_lo(-whi(a.hi)), to_hi(-wlo(a.lo)) };
}

static Wide wmul(Wide x, Wide y)
{
	if (x == 0 || y == 0)
		return 0;
	if (x >= WBIG || x <= -WBIG || y >= WBIG || y <= -WBIG)
		return (x > 0) == (y > 0) ? WBIG : -WBIG;
	return x * y;
}

static Ival iv_mul(Ival a, Ival b)
{
	Wide c[4] = {
		wmul(wlo(a.lo), wlo(b.lo)), wmul(wlo(a.lo), whi(b.hi)),
		wmul(whi(a.hi), wlo(b.lo)), wmul(whi(a.hi), whi(b.hi)),
	};
	Wide lo = c[0], hi = c[0];

	for (int i = 1; i < 4; i++) {
		if (c[i] < lo)
			lo = c[i];
		if (c[i] > hi)
			hi = c[i];
	}
	return (Ival){ to_lo(lo), to_hi(hi) };
}

/* C division truncates toward zero, which is monotone in the dividend. */
static Ival iv_div(Ival a, Ival b)
{
	int64_t c = b.lo;

	if (!iv_is_const(b) || c == 0 || c == INT64_MIN)
		return TOP;
	if (c < 0)
		return iv_neg(iv_div(a, iv_const(-c)));
	return (Ival){ a.lo == NINF ? NINF : a.lo / c, a.hi == PINF ? PINF : a.hi / c };
}

/* The remainder has the dividend's sign and a smaller magnitude than c. */
static Ival iv_mod(Ival a, Ival b)
{
	int64_t c = b.lo;

	if (!iv_is_const(b) || c == 0 || c == INT64_MIN)
		return TOP;
	if (c < 0)
		c = -c;
	if (a.lo >= 0)
		return a.hi < c ? a : (Ival){ 0, c - 1 };
	if (a.hi <= 0)
		return a.lo > -c ? a : (Ival){ -(c - 1), 0 };
	return (Ival){ a.lo > -(c - 1) ? a.lo : -(c - 1), a.hi < c - 1 ? a.hi : c - 1 };
}

static Ival iv_shr(Ival a, Ival b)
{
	int k = (int)b.lo;

	if (!iv_is_const(b) || b.lo < 0 || b.lo > 62)
		return TOP;
	return (Ival){ a.lo == NINF ? NINF : a.lo >> k, a.hi == PINF ? PINF : a.hi >> k };
}

static Ival iv_shl(Ival a, Ival b)
{
	if (!iv_is_const(b) || b.lo < 0 || b.lo > 62)
		return TOP;
	return iv_mul(a, iv_const((int64_t)1 << b.lo));
}

/* x & m with m >= 0 lies in [0, m] whatever x is. */
static Ival iv_and(Ival a, Ival b)
{
	if (iv_is_const(b) && b.lo >= 0)
		return (Ival){ 0, a.lo >= 0 && a.hi < b.lo ? a.hi : b.lo };
	if (iv_is_const(a) && a.lo >= 0)
		return iv_and(b, a);
	if (a.lo >= 0 && b.lo >= 0)
		return (Ival){ 0, a.hi < b.hi ? a.hi : b.hi };
	return TOP;
}

/* x | y and x ^ y of non-negative values stay below the next power of two. */
static Ival iv_or(Ival a, Ival b)
{
	int64_t m = a.hi > b.hi ? a.hi : b.hi, mask = 1;

	if (a.lo < 0 || b.lo < 0 || m == PINF || m >= ((int64_t)1 << 61))
		return TOP;
	while (mask <= m)
		mask <<= 1;
	return (Ival){ 0, mask - 1 };
}

/* ------------------------------------------------------------------ */
/* Types                                                               */
/* ------------------------------------------------------------------ */

/* Integer typedefs the lowering may leave opaque (TY_NAMED). */
static bool named_int(int tag, int *size, bool *uns)
{
	static const struct {
		const char *name;
		int size;
		bool uns;
	} names[] = {
		{ "int8_t", 1, false }, { "uint8_t", 1, true }, { "int16_t", 2, false },
		{ "uint16_t", 2, true }, { "int32_t", 4, false }, { "uint32_t", 4, true },
		{ "int64_t", 8, false }, { "uint64_t", 8, true }, { "size_t", 8, true },
		{ "ssize_t", 8, false }, { "ptrdiff_t", 8, false }, { "intptr_t", 8, false },
		{ "uintptr_t", 8, true }, { "bool", 1, true }, { "_Bool", 1, true },
	};
	const char *s = tag ? intern_name(tag) : NULL;

	for (size_t i = 0; s && i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i].name) == 0) {
			*size = names[i].size;
			*uns = names[i].uns;
			return true;
		}
	}
	return false;
}

static bool int_info(const Type *t, int *size, bool *uns)
{
	if (!t)
		return false;
	switch (t->kind) {
	case TY_INT:
		*size = t->size > 0 ? (int)t->size : 4;
		*uns = t->is_unsigned;
		return true;
	case TY_BOOL:
		*size = 1;
		*uns = true;
		return true;
	case TY_ENUM:
		*size = 4;
		*uns = false;
		return true;
	case TY_NAMED:
		return named_int(t->tag, size, uns);
	default:
		return false;
	}
}

/* Every value an object of integer type t can hold. */
static Ival int_range(const Type *t)
{
	int size;
	bool uns;

	if (!int_info(t, &size, &uns))
		return TOP;
	if (t->kind == TY_BOOL)
		return (Ival){ 0, 1 };
	if (size >= 8)
		return uns ? (Ival){ 0, PINF } : TOP;
	if (uns)
		return (Ival){ 0, ((int64_t)1 << (8 * size)) - 1 };
	return (Ival){ -((int64_t)1 << (8 * size - 1)), ((int64_t)1 << (8 * size - 1)) - 1 };
}

/* A value converted to type t: exact when it fits, else whatever t holds. */
static Ival iv_convert(Ival v, const Type *t)
{
	Ival r = int_range(t);

	return v.lo >= r.lo && v.hi <= r.hi ? v : r;
}

static bool is_ptr_type(const Type *t) { return t && t->kind == TY_PTR; }
static bool is_array_type(const Type *t) { return t && t->kind == TY_ARRAY; }

/* Bytes of an object of type t, -1 unknown; void counts 1 (GNU arithmetic). */
static int64_t type_size(const Type *t)
{
	int size;
	bool uns;
	int64_t n;

	if (!t)
		return -1;
	if (t->kind == TY_VOID || t->kind == TY_FUNC)
		return 1;
	if (t->size > 0)
		return t->size;
	if (t->kind == TY_PTR)
		return 8;
	if (t->kind == TY_ARRAY && t->array_len > 0 && (n = type_size(t->base)) > 0 &&
	    n <= INT64_MAX / t->array_len)
		return n * t->array_len;
	if (int_info(t, &size, &uns))
		return size;
	return -1;
}

static const Member *find_member(const Type *t, int name)
{
	if (!t || (t->kind != TY_STRUCT && t->kind != TY_UNION))
		return NULL;
	for (uint32_t i = 0; i < t->members.len; i++)
		if (t->members.items[i].name == name)
			return &t->members.items[i];
	return NULL;
}

/* Could an object of type t hold a pointer?  Opaque typedefs may. */
static bool type_has_pointer(const Type *t, int depth)
{
	if (!t || depth > 16)
		return true;
	switch (t->kind) {
	case TY_PTR:
	case TY_NAMED:
		return t->kind == TY_PTR || !named_int(t->tag, &(int){ 0 }, &(bool){ false });
	case TY_ARRAY:
		return type_has_pointer(t->base, depth + 1);
	case TY_STRUCT:
	case TY_UNION:
		for (uint32_t i = 0; i < t->members.len; i++)
			if (type_has_pointer(t->members.items[i].type, depth + 1))
				return true;
		return false;
	default:
		return false;
	}
}

static bool type_is_const(const Type *t)
{
	while (t && t->kind == TY_ARRAY && !t->is_const)
		t = t->base;
	return t && t->is_const;
}

static bool type_is_volatile(const Type *t)
{
	while (t && t->kind == TY_ARRAY && !t->is_volatile)
		t = t->base;
	return t && t->is_volatile;
}

/* ------------------------------------------------------------------ */
/* Names: library functions, standard macros, the sources' #defines    */
/* ------------------------------------------------------------------ */

/* What an identifier that is neither a Var nor a defined function is. */
typedef enum NameKind {
	NM_UNKNOWN,   /* could be anything: using it is a barrier */
	NM_CONST,     /* a constant (enumerator, numeric macro); val when has_val */
	NM_IOOBJ,     /* stdin, stdout, stderr */
	NM_FUNC,      /* a function of the program (defined or declared) */
	NM_EXT,       /* a library function that ext describes */
	NM_OPAQUE,    /* a #define of the sources that may touch memory */
} NameKind;

typedef enum ExtKind {
	EXT_UNKNOWN,
	EXT_PURE,     /* reads its scalar arguments only (math.h, pure macros) */
	EXT_MEMCPY,   /* writes [dst, dst+n), reads [src, src+n) */
	EXT_MEMSET,   /* writes [dst, dst+n) */
	EXT_ALLOC,    /* returns fresh memory; arg: the size argument, -2 for n*m */
	EXT_FREE,     /* arg: the pointer argument */
	EXT_IO,       /* output: reads and writes <io> */
} ExtKind;

typedef struct NameInfo {
	uint8_t kind;  /* NameKind */
	uint8_t ext;   /* ExtKind for NM_EXT */
	int8_t arg;    /* EXT_ALLOC size argument, EXT_FREE pointer argument */
	bool has_val;
	int64_t val;
} NameInfo;

static const char *const pure_funcs[] = {
	"exp", "expf", "exp2", "exp2f", "expm1", "expm1f", "log", "logf", "log2", "log2f",
	"log10", "log10f", "log1p", "log1pf", "sqrt", "sqrtf", "cbrt", "cbrtf", "tanh",
	"tanhf", "sinh", "sinhf", "cosh", "coshf", "sin", "sinf", "cos", "cosf", "tan",
	"tanf", "asin", "asinf", "acos", "acosf", "atan", "atanf", "atan2", "atan2f",
	"fabs", "fabsf", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "trunc",
	"truncf", "rint", "rintf", "lrint", "lrintf", "lround", "lroundf", "nearbyint",
	"nearbyintf", "pow", "powf", "fmax", "fmaxf", "fmin", "fminf", "fmod", "fmodf",
	"erf", "erff", "erfc", "erfcf", "hypot", "hypotf", "copysign", "copysignf",
	"abs", "labs", "llabs", "isnan", "isinf", "isfinite", "signbit", "fpclassify",
	"__builtin_expect", "__builtin_isnan", "__builtin_isinf",
};

static const struct {
	const char *name;
	ExtKind ext;
	int arg;
} ext_funcs[] = {
	{ "memcpy", EXT_MEMCPY, 0 }, { "memmove", EXT_MEMCPY, 0 }, { "memset", EXT_MEMSET, 0 },
	{ "__builtin_memcpy", EXT_MEMCPY, 0 }, { "__builtin_memmove", EXT_MEMCPY, 0 },
	{ "__builtin_memset", EXT_MEMSET, 0 },
	{ "malloc", EXT_ALLOC, 0 }, { "calloc", EXT_ALLOC, -2 }, { "aligned_alloc", EXT_ALLOC, 1 },
	{ "TVMBackendAllocWorkspace", EXT_ALLOC, 2 },
	{ "free", EXT_FREE, 0 }, { "TVMBackendFreeWorkspace", EXT_FREE, 2 },
	{ "printf", EXT_IO, 0 }, { "puts", EXT_IO, 0 }, { "putchar", EXT_IO, 0 },
	{ "fprintf", EXT_IO, 0 }, { "fputs", EXT_IO, 0 }, { "fputc", EXT_IO, 0 },
	{ "putc", EXT_IO, 0 }, { "fwrite", EXT_IO, 0 }, { "fflush", EXT_IO, 0 },
	{ "perror", EXT_IO, 0 }, { "vprintf", EXT_IO, 0 }, { "vfprintf", EXT_IO, 0 },
};

static const struct {
	const char *name;
	bool has_val;
	int64_t val;
} std_consts[] = {
	{ "NULL", true, 0 }, { "true", true, 1 }, { "false", true, 0 },
	{ "INFINITY", false, 0 }, { "NAN", false, 0 }, { "HUGE_VAL", false, 0 },
	{ "HUGE_VALF", false, 0 }, { "FLT_MAX", false, 0 }, { "FLT_MIN", false, 0 },
	{ "FLT_EPSILON", false, 0 }, { "DBL_MAX", false, 0 }, { "DBL_MIN", false, 0 },
	{ "DBL_EPSILON", false, 0 }, { "M_PI", false, 0 }, { "M_E", false, 0 },
	{ "M_SQRT2", false, 0 }, { "M_LN2", false, 0 }, { "M_PI_2", false, 0 },
	{ "INT8_MIN", true, -128 }, { "INT8_MAX", true, 127 }, { "UINT8_MAX", true, 255 },
	{ "INT16_MIN", true, -32768 }, { "INT16_MAX", true, 32767 },
	{ "UINT16_MAX", true, 65535 }, { "INT32_MIN", true, INT32_MIN },
	{ "INT32_MAX", true, INT32_MAX }, { "UINT32_MAX", true, UINT32_MAX },
	{ "INT64_MIN", false, 0 }, { "INT64_MAX", false, 0 }, { "UINT64_MAX", false, 0 },
	{ "INT_MIN", true, INT32_MIN }, { "INT_MAX", true, INT32_MAX },
	{ "UINT_MAX", true, UINT32_MAX }, { "LONG_MAX", false, 0 }, { "LONG_MIN", false, 0 },
	{ "SIZE_MAX", false, 0 }, { "CHAR_BIT", true, 8 }, { "EXIT_SUCCESS", true, 0 },
	{ "EXIT_FAILURE", true, 1 }, { "RAND_MAX", false, 0 }, { "EOF", true, -1 },
	{ "CLOCKS_PER_SEC", false, 0 }, { "TIME_UTC", true, 1 },
};

/* ------------------------------------------------------------------ */
/* The analysis state: one program at a time                            */
/* ------------------------------------------------------------------ */

/* Where a pointer expression leads. */
typedef enum PtrKind {
	P_NONE,    /* not a pointer (an integer, a float, a struct value) */
	P_NULL,    /* the null pointer */
	P_RODATA,  /* a string literal, or an object no tracked access needs */
	P_UNKNOWN, /* somewhere we cannot tell: base NULL */
	P_SELF,    /* the pointer variable being resolved itself */
	P_OBJ,     /* base + off bytes */
} PtrKind;

/*
 * A pointer value, or (from resolve_loc) an lvalue: base object, byte
 * offset interval, and the pointee (lvalue) type when known.
 */
typedef struct Ptr {
	PtrKind kind;
	Var *base;
	Ival off;
	Type *type;
} Ptr;

typedef Array(Var *) VarList;
typedef Array(Expr *) ExprList;

/* What the analysis knows of one Var (program or synthetic), by Var.id. */
typedef struct VarInfo {
	Var *var;             /* identity check against stale tables */
	ObjKind kind;
	Var *origin;          /* OBJ_POINTEE: the parameter; OBJ_ALLOC: the local */
	Var *target;          /* a parameter's OBJ_POINTEE, a local's OBJ_ALLOC */
	int param_index;      /* VAR_PARAM: position in its function */
	int64_t size;         /* OBJ_ALLOC: bytes requested, -1 unknown */
	/* definitions in the owner function */
	uint32_t ndefs;       /* every assignment, the initializer included */
	bool self_def;        /* v++, v += k and the like */
	bool addr;            /* &v: the value is not followed */
	Expr *def;            /* right side of the last plain '=' definition */
	Array(uint32_t) def_at; /* source byte of every definition */
	Array(Expr *) rhs;    /* right side of every plain definition */
	/* values: at the definition site for single definitions */
	bool has_val, busy, base_done;
	Ival val;
	Ptr ptr;              /* pointer value (single definition) or stable base */
	/* escape analysis */
	bool escapes;         /* an unknown pointer may reach it */
	bool leaks;           /* parameter: its value escapes the function */
	bool recv_unknown;    /* parameter: may point to anything escaping */
	VarList receives;     /* parameter: objects call sites pass it */
} VarInfo;

/* One loop's induction variables with their ranges inside the body. */
typedef struct LoopInfo {
	const Stmt *loop;
	uint32_t n;
	struct Bind *binds;
} LoopInfo;

/* A variable's range; or, var NULL, a pure expression's (from a condition). */
typedef struct Bind {
	const Var *var;
	Ival val;
	const Expr *expr;
} Bind;

typedef Array(Bind) Env;

typedef enum FuncState { FS_NONE, FS_BUSY, FS_DONE } FuncState;

typedef struct FuncInfo {
	Func *func;
	FuncState state;
	bool has_goto;        /* loops' induction ranges are not trusted */
	bool external;        /* callable from outside the program */
	Summary *sum;
	bool scratch_done;    /* scratch and scratch_only are known */
	bool scratch_only;    /* every allocation, free and I/O is a workspace's */
	ScratchList scratch;  /* func_scratch */
} FuncInfo;

/* The object that stands for one SB's copy of its callee's top-level workspace. */
typedef struct ScratchObj {
	const MT *sb;
	const Var *local;     /* the callee's pointer local */
	Var *obj;
} ScratchObj;

/* A pointer parameter passed on as another function's argument. */
typedef struct ParamEdge {
	Var *from, *to;
} ParamEdge;

static struct {
	Program *prog;
	Array(VarInfo *) vars;   /* by Var.id */
	Array(FuncInfo) funcs;   /* by Func.id */
	Array(NameInfo) names;   /* by interned name */
	LoopInfo **loops;        /* open addressing on the Stmt pointer */
	uint32_t loop_cap, loop_len;
	Array(ParamEdge) edges;
	Var *allocator, *io;
	Array(struct ScratchObj) scratch_objs; /* per SB and workspace, for chunks */
	bool all_escape;         /* an unmodelled expression: assume the worst */
	Func *cur;               /* function being analysed */
	bool assume_apart;       /* alias_assume_apart */
	Array(const Var *) assumed; /* the pairs it answered, two by two */
} A;

static VarInfo *info_lookup(const Var *v)
{
	if (!v || v->id < 0 || (uint32_t)v->id >= A.vars.len)
		return NULL;
	VarInfo *vi = A.vars.items[v->id];
	return vi && vi->var == v ? vi : NULL;
}

/* The info of a Var of the program being analysed, created on demand. */
static VarInfo *info(Var *v)
{
	VarInfo *vi = info_lookup(v);

	if (vi)
		return vi;
	while (A.vars.len <= (uint32_t)v->id)
		array_push(&A.vars, NULL);
	vi = xcalloc(1, sizeof(*vi));
	vi->var = v;
	vi->param_index = -1;
	vi->size = -1;
	A.vars.items[v->id] = vi;
	return vi;
}

static FuncInfo *finfo(const Func *f)
{
	if (f->id < 0 || (uint32_t)f->id >= A.funcs.len || A.funcs.items[f->id].func != f)
		return NULL;
	return &A.funcs.items[f->id];
}

static NameInfo *name_info(int name)
{
	static NameInfo none;

	if (name <= 0 || (uint32_t)name >= A.names.len) {
		memset(&none, 0, sizeof(none));
		return &none;
	}
	return &A.names.items[name];
}

static NameInfo *name_slot(int name)
{
	NameInfo zero = { 0 };

	while (A.names.len <= (uint32_t)name)
		array_push(&A.names, zero);
	return &A.names.items[name];
}

static void reset_state(void)
{
	for (uint32_t i = 0; i < A.vars.len; i++) {
		VarInfo *vi = A.vars.items[i];

		if (!vi)
			continue;
		array_free(&vi->def_at);
		array_free(&vi->rhs);
		array_free(&vi->receives);
		free(vi);
	}
	array_free(&A.vars);
	for (uint32_t i = 0; i < A.funcs.len; i++)
		array_free(&A.funcs.items[i].scratch);
	array_free(&A.funcs);
	array_free(&A.names);
	for (uint32_t i = 0; i < A.loop_cap; i++) {
		if (A.loops[i]) {
			free(A.loops[i]->binds);
			free(A.loops[i]);
		}
	}
	free(A.loops);
	array_free(&A.edges);
	array_free(&A.scratch_objs);
	memset(&A, 0, sizeof(A));
}

/* ---- loop table: Stmt* -> LoopInfo ---- */

static uint32_t loop_hash(const Stmt *s, uint32_t cap)
{
	uintptr_t x = (uintptr_t)s;

	x ^= x >> 17;
	x *= 0x9E3779B97F4A7C15u;
	return (uint32_t)(x >> 32) & (cap - 1);
}

static LoopInfo *loop_get(const Stmt *s)
{
	if (!A.loop_cap)
		return NULL;
	for (uint32_t i = loop_hash(s, A.loop_cap);; i = (i + 1) & (A.loop_cap - 1)) {
		if (!A.loops[i])
			return NULL;
		if (A.loops[i]->loop == s)
			return A.loops[i];
	}
}

static void loop_put(LoopInfo *li)
{
	if (2 * (A.loop_len + 1) > A.loop_cap) {
		uint32_t old = A.loop_cap;
		LoopInfo **tab = A.loops;

		A.loop_cap = old ? 2 * old : 64;
		A.loops = xcalloc(A.loop_cap, sizeof(*A.loops));
		A.loop_len = 0;
		for (uint32_t i = 0; i < old; i++)
			if (tab[i])
				loop_put(tab[i]);
		free(tab);
	}
	uint32_t i = loop_hash(li->loop, A.loop_cap);
	while (A.loops[i])
		i = (i + 1) & (A.loop_cap - 1);
	A.loops[i] = li;
	A.loop_len++;
}

/* ---- synthetic objects ---- */

static Type *bytes_type(int64_t n)
{
	Type *u8 = ARENA_NEW(Type), *t = ARENA_NEW(Type);

	u8->kind = TY_INT;
	u8->size = 1;
	u8->align = 1;
	u8->is_unsigned = true;
	t->kind = TY_ARRAY;
	t->base = u8;
	t->array_len = n;
	t->size = n;
	t->align = 1;
	return t;
}

static Var *new_object(const char *name, ObjKind kind, VarScope scope, Func *f,
                       Var *origin, int64_t size)
{
	Var *v = ARENA_NEW(Var);
	VarInfo *vi;

	v->id = (int)A.prog->vars.len;
	v->name = intern(name, strlen(name));
	v->type = bytes_type(size);
	v->scope = scope;
	v->storage = scope == VAR_GLOBAL ? SC_STATIC : SC_NONE;
	v->func = f;
	array_push(&A.prog->vars, v);
	vi = info(v);
	vi->kind = kind;
	vi->origin = origin;
	vi->size = size;
	return v;
}

static Var *star_object(Var *p, ObjKind kind, int64_t size)
{
	VarInfo *vi = info(p);
	const char *pn = intern_name(p->name);
	char *name;

	if (vi->target)
		return vi->target;
	name = xmalloc(strlen(pn) + 2);
	name[0] = '*';
	strcpy(name + 1, pn);
	vi->target = new_object(name, kind, kind == OBJ_POINTEE ? VAR_PARAM : VAR_LOCAL,
	                        p->func, p, size);
	free(name);
	return vi->target;
}

/* ------------------------------------------------------------------ */
/* Scanning the sources: #define, enum                                 */
/* ------------------------------------------------------------------ */

typedef struct Token {
	const char *s;
	uint32_t n;
	char kind; /* 'i' identifier, 'n' number, 's' string or char, 'p' punctuation */
} Token;

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* Next token of [*p, end), skipping blanks, comments and line continuations. */
static bool next_token(const char **p, const char *end, Token *t)
{
	const char *s = *p;

	for (;;) {
		while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == '\\'))
			s++;
		if (s + 1 < end && s[0] == '/' && s[1] == '*') {
			const char *c = s + 2;
			while (c + 1 < end && !(c[0] == '*' && c[1] == '/'))
				c++;
			s = c + 2 < end ? c + 2 : end;
			continue;
		}
		if (s + 1 < end && s[0] == '/' && s[1] == '/') {
			s = end;
			continue;
		}
		break;
	}
	if (s >= end)
		return false;
	t->s = s;
	if (is_ident_start(*s)) {
		while (s < end && is_ident_char(*s))
			s++;
		t->kind = 'i';
	} else if ((*s >= '0' && *s <= '9') || (*s == '.' && s + 1 < end && s[1] >= '0' && s[1] <= '9')) {
		while (s < end && (is_ident_char(*s) || *s == '.' ||
		                   ((*s == '+' || *s == '-') && (s[-1] == 'e' || s[-1] == 'E' ||
		                                                 s[-1] == 'p' || s[-1] == 'P'))))
			s++;
		t->kind = 'n';
	} else if (*s == '"' || *s == '\'') {
		char q = *s++;
		while (s < end && *s != q)
			s += *s == '\\' ? 2 : 1;
		s = s < end ? s + 1 : end;
		t->kind = 's';
	} else {
		static const char *const two[] = { "==", "!=", "<=", ">=", "&&", "||", "<<", ">>",
		                                   "++", "--", "+=", "-=", "*=", "/=", "%=", "&=",
		                                   "|=", "^=", "->", "##" };
		t->kind = 'p';
		s++;
		for (size_t i = 0; i < sizeof(two) / sizeof(two[0]); i++)
			if (s < end && s[-1] == two[i][0] && s[0] == two[i][1]) {
				s++;
				break;
			}
		if (s - t->s == 2 && s < end && *s == '=' && (t->s[0] == '<' || t->s[0] == '>'))
			s++; /* <<= >>= */
	}
	t->n = (uint32_t)(s - t->s);
	*p = s;
	return true;
}

static bool tok_is(const Token *t, const char *s)
{
	return t->n == strlen(s) && memcmp(t->s, s, t->n) == 0;
}

/* An integer literal token (suffixes allowed). */
static bool tok_int(const Token *t, int64_t *v)
{
	char buf[32], *endp;
	uint32_t n = t->n;

	if (t->kind != 'n' || n >= sizeof(buf))
		return false;
	while (n > 0 && (t->s[n - 1] == 'u' || t->s[n - 1] == 'U' || t->s[n - 1] == 'l' ||
	                 t->s[n - 1] == 'L'))
		n--;
	memcpy(buf, t->s, n);
	buf[n] = '\0';
	if (strpbrk(buf, ".eEpP") && !(buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')))
		return false;
	*v = strtoll(buf, &endp, 0);
	return *endp == '\0';
}

static bool is_type_word(const Token *t)
{
	static const char *const words[] = { "float", "double", "int", "char", "short", "long",
	                                     "unsigned", "signed", "const", "volatile", "void",
	                                     "_Bool", "bool", "sizeof", "int8_t", "uint8_t",
	                                     "int16_t", "uint16_t", "int32_t", "uint32_t",
	                                     "int64_t", "uint64_t", "size_t" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (tok_is(t, words[i]))
			return true;
	return false;
}

/* A #define of the sources, kept until every definition is seen. */
typedef struct Macro {
	int name;
	bool is_func;
	const char *params, *pend; /* function-like: the text between ( and ) */
	const char *body, *end;
} Macro;

typedef Array(Macro) MacroList;

static bool is_param(const Macro *m, const Token *t)
{
	const char *p = m->params;
	Token pt;

	while (p && next_token(&p, m->pend, &pt))
		if (pt.kind == 'i' && pt.n == t->n && memcmp(pt.s, t->s, t->n) == 0)
			return true;
	return false;
}

static void escape_global_named(const Token *t);
static NameKind macro_kind(MacroList *ml, int name, int depth);

/*
 * Is the body harmless: it computes a value from its parameters,
 * literals, constants and pure functions, with no assignment, no
 * dereference, no member access, no statement?
 */
static bool macro_pure(MacroList *ml, const Macro *m, int depth)
{
	const char *p = m->body;
	Token t, prev = { NULL, 0, 'p' };
	bool pure = true;

	while (next_token(&p, m->end, &t)) {
		if (t.kind == 'i') {
			int id = intern(t.s, t.n);
			NameKind k = (NameKind)name_info(id)->kind;

			if (m->is_func && is_param(m, &t))
				;
			else if (is_type_word(&t))
				;
			else if (k == NM_CONST || (k == NM_EXT && name_info(id)->ext == EXT_PURE))
				;
			else if (macro_kind(ml, id, depth + 1) == NM_CONST ||
			         macro_kind(ml, id, depth + 1) == NM_EXT)
				;
			else {
				pure = false;
				escape_global_named(&t);
			}
		} else if (t.kind == 'p') {
			bool after_operand = prev.kind == 'i' || prev.kind == 'n' || tok_is(&prev, ")") ||
			                     tok_is(&prev, "]");
			static const char *const bad[] = { "=", "++", "--", "+=", "-=", "*=", "/=", "%=",
			                                   "&=", "|=", "^=", "<<=", ">>=", "{", "}", ";",
			                                   "#", "##", "->", ".", "[" };

			for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
				if (tok_is(&t, bad[i]))
					pure = false;
			if ((tok_is(&t, "*") || tok_is(&t, "&")) && !after_operand)
				pure = false; /* unary: dereference or address */
		}
		prev = t;
	}
	return pure;
}

/*
 * NM_CONST (object-like, harmless), NM_EXT (function-like, pure: its
 * NameInfo says EXT_PURE), NM_OPAQUE, or NM_UNKNOWN when not a macro.
 */
static NameKind macro_kind(MacroList *ml, int name, int depth)
{
	NameInfo *ni = name_info(name);
	bool found = false, pure = true, is_func = false, has_val = true, first = true;
	int64_t val = 0;

	if (ni->kind == NM_OPAQUE || ni->kind == NM_CONST ||
	    (ni->kind == NM_EXT && ni->ext == EXT_PURE))
		return (NameKind)ni->kind;
	if (depth > 8)
		return NM_OPAQUE;
	for (uint32_t i = 0; i < ml->len; i++) {
		const Macro *m = &ml->items[i];
		const char *p = m->body;
		Token t, t2;
		int64_t v;

		if (m->name != name)
			continue;
		found = true;
		is_func |= m->is_func;
		pure &= macro_pure(ml, m, depth);
		/* an integer literal, possibly parenthesized and negated */
		bool neg = false, ok = false;
		while (next_token(&p, m->end, &t) && (tok_is(&t, "(") || tok_is(&t, "-")))
			neg ^= tok_is(&t, "-");
		if (tok_int(&t, &v)) {
			ok = true;
			while (next_token(&p, m->end, &t2))
				ok &= tok_is(&t2, ")");
		}
		if (!ok || m->is_func || (!first && val != (neg ? -v : v)))
			has_val = false;
		else
			val = neg ? -v : v;
		first = false;
	}
	if (!found)
		return NM_UNKNOWN;
	ni = name_slot(name);
	if (!pure) {
		ni->kind = NM_OPAQUE;
	} else if (is_func) {
		ni->kind = NM_EXT;
		ni->ext = EXT_PURE;
	} else {
		ni->kind = NM_CONST;
		ni->has_val = has_val;
		ni->val = val;
	}
	return (NameKind)ni->kind;
}

/* Collects the #define lines of src that the preprocessor scan left active. */
static void scan_defines(const Source *src, MacroList *ml)
{
	const char *text = src->text, *end = text + src->len;

	for (uint32_t ln = 0; ln < src->nlines; ln++) {
		const char *p = text + src->line_start[ln], *e;
		const Hidden *h;
		Macro m = { 0 };
		Token t;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end || *p != '#')
			continue;
		h = source_hidden_at(src, (uint32_t)(p - text));
		if (h && h->kind == HIDE_INACTIVE)
			continue;
		p++;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end - p < 7 || memcmp(p, "define", 6) != 0 || is_ident_char(p[6]))
			continue;
		p += 6;
		/* the logical line ends at a newline not preceded by a backslash */
		for (e = p; e < end && !(*e == '\n' && e[-1] != '\\'); e++)
			;
		if (!next_token(&p, e, &t) || t.kind != 'i')
			continue;
		m.name = intern(t.s, t.n);
		if (p < e && *p == '(') {
			m.is_func = true;
			m.params = p + 1;
			while (p < e && *p != ')')
				p++;
			m.pend = p;
			p = p < e ? p + 1 : e;
		}
		m.body = p;
		m.end = e;
		array_push(ml, m);
	}
}

/* Enumerators: identifiers starting the items of enum { ... } bodies. */
static void scan_enums(const Source *src)
{
	const char *text = src->text, *end = text + src->len, *p = text;
	Token t;

	while (next_token(&p, end, &t)) {
		int depth = 0;
		bool item_start = true;

		if (!(t.kind == 'i' && tok_is(&t, "enum")))
			continue;
		if (!next_token(&p, end, &t))
			return;
		if (t.kind == 'i' && !next_token(&p, end, &t))
			return;
		if (!tok_is(&t, "{"))
			continue;
		while (next_token(&p, end, &t) && !(depth == 0 && tok_is(&t, "}"))) {
			if (tok_is(&t, "(") || tok_is(&t, "{"))
				depth++;
			else if (tok_is(&t, ")") || tok_is(&t, "}"))
				depth--;
			else if (depth == 0 && tok_is(&t, ","))
				item_start = true;
			else if (item_start && t.kind == 'i') {
				NameInfo *ni = name_slot(intern(t.s, t.n));

				if (ni->kind == NM_UNKNOWN)
					ni->kind = NM_CONST;
				item_start = false;
			} else {
				item_start = false;
			}
		}
	}
}

static void escape_global_named(const Token *t)
{
	int id = intern(t->s, t->n);

	for (uint32_t i = 0; i < A.prog->globals.len; i++)
		if (A.prog->globals.items[i]->name == id)
			info(A.prog->globals.items[i])->escapes = true;
}

/*
 * A file-scope pointer initialized with an address (`float *gp = buf;`)
 * whose initializer pp_scan hid: the text up to the ';' is scanned and
 * every global it names escapes.
 */
static void scan_hidden_initializers(void)
{
	for (uint32_t i = 0; i < A.prog->globals.len; i++) {
		Var *g = A.prog->globals.items[i];
		const char *p, *end;
		int depth = 0;
		Token t;

		if (!g->init_hidden || !g->src || !type_has_pointer(g->type, 0))
			continue;
		p = g->src->text + g->start;
		end = g->src->text + g->src->len;
		while (next_token(&p, end, &t)) {
			if (tok_is(&t, "{") || tok_is(&t, "("))
				depth++;
			else if (tok_is(&t, "}") || tok_is(&t, ")"))
				depth--;
			else if (depth <= 0 && tok_is(&t, ";"))
				break;
			else if (t.kind == 'i')
				escape_global_named(&t);
		}
	}
}

static void init_names(void)
{
	MacroList ml = { 0 };

	for (size_t i = 0; i < sizeof(pure_funcs) / sizeof(pure_funcs[0]); i++) {
		NameInfo *ni = name_slot(intern(pure_funcs[i], strlen(pure_funcs[i])));
		ni->kind = NM_EXT;
		ni->ext = EXT_PURE;
	}
	for (size_t i = 0; i < sizeof(ext_funcs) / sizeof(ext_funcs[0]); i++) {
		NameInfo *ni = name_slot(intern(ext_funcs[i].name, strlen(ext_funcs[i].name)));
		ni->kind = NM_EXT;
		ni->ext = (uint8_t)ext_funcs[i].ext;
		ni->arg = (int8_t)ext_funcs[i].arg;
	}
	for (size_t i = 0; i < sizeof(std_consts) / sizeof(std_consts[0]); i++) {
		NameInfo *ni = name_slot(intern(std_consts[i].name, strlen(std_consts[i].name)));
		ni->kind = NM_CONST;
		ni->has_val = std_consts[i].has_val;
		ni->val = std_consts[i].val;
	}
	static const char *const ioobjs[] = { "stdin", "stdout", "stderr" };
	for (size_t i = 0; i < 3; i++)
		name_slot(intern(ioobjs[i], strlen(ioobjs[i])))->kind = NM_IOOBJ;
	for (uint32_t i = 0; i < A.prog->sources.len; i++)
		scan_enums(A.prog->sources.items[i]);
	/* the sources' macros override the standard names they redefine */
	for (uint32_t i = 0; i < A.prog->sources.len; i++)
		scan_defines(A.prog->sources.items[i], &ml);
	for (uint32_t i = 0; i < ml.len; i++) {
		NameInfo *ni = name_slot(ml.items[i].name);
		if (ni->kind == NM_CONST || ni->kind == NM_EXT)
			ni->kind = NM_UNKNOWN;
	}
	for (uint32_t i = 0; i < ml.len; i++)
		macro_kind(&ml, ml.items[i].name, 0);
	array_free(&ml);
	/* functions of the program last: a definition beats a same-named macro */
	for (uint32_t i = 0; i < A.prog->decls.len; i++) {
		NameInfo *ni = name_slot(A.prog->decls.items[i]->name);
		if (ni->kind != NM_EXT)
			ni->kind = NM_FUNC;
	}
	for (uint32_t i = 0; i < A.prog->funcs.len; i++)
		name_slot(A.prog->funcs.items[i]->name)->kind = NM_FUNC;
}

/* The library function a call names, EXT_UNKNOWN if none. */
static ExtKind call_ext(const Expr *call, int *arg)
{
	NameInfo *ni = name_info(call->name);

	*arg = ni->arg;
	return ni->kind == NM_EXT ? (ExtKind)ni->ext : EXT_UNKNOWN;
}

/* ------------------------------------------------------------------ */
/* Values: integer intervals and pointer targets                        */
/* ------------------------------------------------------------------ */

static Ival eval_int(const Expr *e, const Env *env);
static Ptr resolve_ptr(const Expr *e, const Env *env);
static Ptr resolve_loc(const Expr *e, const Env *env);

static const Bind *env_find(const Env *env, const Var *v)
{
	for (uint32_t i = env ? env->len : 0; i-- > 0;)
		if (env->items[i].var == v)
			return &env->items[i];
	return NULL;
}

static void env_push(Env *env, const Var *v, Ival val)
{
	Bind b = { v, val, NULL };

	array_push(env, b);
}

/* Same computation (for pure expressions: no calls, no memory). */
static bool expr_equal(const Expr *a, const Expr *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind || a->op != b->op)
		return false;
	switch (a->kind) {
	case EX_NUM:
		return a->num.is_float == b->num.is_float && a->num.ival == b->num.ival &&
		       (!a->num.is_float || a->num.fval == b->num.fval);
	case EX_VAR:
		return a->var == b->var;
	case EX_NAME:
		return a->name == b->name;
	case EX_CAST:
		if (a->cast_type != b->cast_type &&
		    (!a->cast_type || !b->cast_type || a->cast_type->kind != b->cast_type->kind ||
		     a->cast_type->size != b->cast_type->size || a->cast_type->tag != b->cast_type->tag ||
		     a->cast_type->is_unsigned != b->cast_type->is_unsigned))
			return false;
		return expr_equal(a->lhs, b->lhs);
	case EX_UNARY:
	case EX_BINARY:
		return expr_equal(a->lhs, b->lhs) && expr_equal(a->rhs, b->rhs);
	default:
		return false;
	}
}

static Ptr ptr_make(PtrKind kind) { return (Ptr){ kind, NULL, { 0, 0 }, NULL }; }

static Ptr ptr_obj(Var *base, Ival off, Type *type)
{
	return (Ptr){ P_OBJ, base, off, type };
}

/* A local or parameter whose value the analysis may follow. */
static bool followable(const Var *v)
{
	VarInfo *vi = info_lookup(v);

	/* the lowering's addr_taken also counts an array decaying into a call */
	return vi && (v->scope == VAR_LOCAL || v->scope == VAR_PARAM) &&
	       v->storage != SC_STATIC && !vi->addr &&
	       !(v->addr_taken && !is_array_type(v->type)) &&
	       !(v->type && v->type->is_volatile) && vi->kind == OBJ_VAR;
}

/* Defined exactly once, by a plain '=' or an initializer. */
static bool single_def(const VarInfo *vi)
{
	return vi->ndefs == 1 && vi->def && !vi->self_def;
}

static Expr *strip_casts(Expr *e)
{
	while (e && e->kind == EX_CAST)
		e = e->lhs;
	return e;
}

static int64_t alloc_size(const Expr *call, int arg)
{
	Ival n;

	if (arg == -2 && call->args.len >= 2)
		n = iv_mul(eval_int(call->args.items[0], NULL), eval_int(call->args.items[1], NULL));
	else if (arg >= 0 && (uint32_t)arg < call->args.len)
		n = eval_int(call->args.items[arg], NULL);
	else
		return -1;
	return iv_is_const(n) && n.lo > 0 ? n.lo : -1;
}

/*
 * Pointer local v is defined once, by rhs, a load from memory, in a
 * declaration at its function's top level (run once per call: no goto):
 * its value is fixed, so the memory it points to is an object of its own.
 */
static bool loaded_once(const Var *v, const VarInfo *vi, const Expr *rhs)
{
	const Stmt *body = v->func ? v->func->body : NULL;
	const Expr *e = strip_casts((Expr *)rhs);
	FuncInfo *fi = v->func ? finfo(v->func) : NULL;

	if (v->scope != VAR_LOCAL || !is_ptr_type(v->type) || !single_def(vi) || vi->def != rhs ||
	    !body || !fi || fi->has_goto || !e ||
	    !(e->kind == EX_INDEX || e->kind == EX_MEMBER ||
	      (e->kind == EX_UNARY && e->op == OP_DEREF)))
		return false;
	for (uint32_t i = 0; i < body->body.len; i++) {
		const Stmt *d = body->body.items[i];

		if (d->kind == ST_DECL && d->var == v && d->expr == rhs)
			return true;
	}
	return false;
}

/* The value of pointer v's definition rhs, evaluated in env. */
static Ptr def_ptr(Var *v, Expr *rhs, const Env *env)
{
	Expr *call = strip_casts(rhs);
	Type *pt = is_ptr_type(v->type) ? v->type->base : NULL;
	VarInfo *vi = info(v);
	int arg;
	Ptr p;

	if (call && call->kind == EX_CALL && !call->callee_func &&
	    call_ext(call, &arg) == EXT_ALLOC) {
		if (!single_def(vi))
			return ptr_make(P_UNKNOWN);
		return ptr_obj(star_object(v, OBJ_ALLOC, alloc_size(call, arg)), iv_const(0), pt);
	}
	p = resolve_ptr(rhs, env);
	if (p.kind == P_UNKNOWN && loaded_once(v, vi, rhs))
		p = ptr_obj(star_object(v, OBJ_LOADED, -1), iv_const(0), pt);
	if (pt && p.kind == P_OBJ)
		p.type = pt;
	return p;
}

/*
 * The one base every definition of a multiply-defined pointer leads to
 * (p++, p += k keep it), with an unknown offset; P_UNKNOWN when they differ.
 */
static Ptr stable_base(Var *v)
{
	VarInfo *vi = info(v);
	Ptr r = ptr_make(P_NONE);

	if (vi->base_done)
		return vi->ptr;
	vi->busy = true;
	if (v->scope == VAR_PARAM)
		r = ptr_obj(star_object(v, OBJ_POINTEE, -1), TOP, NULL);
	for (uint32_t i = 0; i < vi->rhs.len; i++) {
		Ptr p = def_ptr(v, vi->rhs.items[i], NULL);

		if (p.kind == P_SELF || p.kind == P_NULL)
			continue;
		if (r.kind == P_NONE)
			r = p;
		else if (!(r.kind == P_OBJ && p.kind == P_OBJ && r.base == p.base) &&
		         !(r.kind == P_RODATA && p.kind == P_RODATA))
			r = ptr_make(P_UNKNOWN);
	}
	if (r.kind == P_NONE)
		r = ptr_make(P_UNKNOWN);
	r.off = TOP;
	r.type = is_ptr_type(v->type) ? v->type->base :
	         is_array_type(v->type) ? v->type->base : NULL;
	vi->busy = false;
	vi->base_done = true;
	vi->ptr = r;
	return r;
}

/* The pointer value of variable v (an array decays). */
static Ptr var_ptr(Var *v)
{
	Type *t = v->type;
	VarInfo *vi;

	if (is_array_type(t) && v->scope != VAR_PARAM)
		return ptr_obj(v, iv_const(0), t->base);
	if (!t || !(t->kind == TY_PTR || t->kind == TY_ARRAY || t->kind == TY_NAMED))
		return ptr_make(P_NONE);
	if (t->kind == TY_NAMED && named_int(t->tag, &(int){ 0 }, &(bool){ false }))
		return ptr_make(P_NONE);
	if (!followable(v))
		return ptr_make(P_UNKNOWN);
	vi = info(v);
	if (vi->busy)
		return ptr_make(P_SELF);
	if (v->scope == VAR_PARAM && vi->ndefs == 0)
		return ptr_obj(star_object(v, OBJ_POINTEE, -1), iv_const(0), t->base);
	if (single_def(vi) && v->scope == VAR_LOCAL) {
		Ptr p;

		if (vi->has_val)
			return vi->ptr;
		vi->busy = true; /* used before its definition was reached */
		p = def_ptr(v, vi->def, NULL);
		vi->busy = false;
		return p.kind == P_SELF ? ptr_make(P_UNKNOWN) : p;
	}
	if (vi->ndefs == 0)
		return ptr_make(P_UNKNOWN); /* never set: reading it is undefined */
	return stable_base(v);
}

/* The integer value of variable v outside the environment. */
static Ival var_int(Var *v)
{
	VarInfo *vi = info_lookup(v);
	Ival r = int_range(v->type);

	if (!followable(v) || !single_def(vi) || v->scope != VAR_LOCAL)
		return r;
	if (vi->has_val)
		return vi->val;
	if (vi->busy)
		return r;
	vi->busy = true;
	r = iv_convert(eval_int(vi->def, NULL), v->type);
	vi->busy = false;
	return r;
}

static Ival eval_binary(const Expr *e, const Env *env)
{
	Ival a, b;

	switch (e->op) {
	case OP_LT: case OP_GT: case OP_LE: case OP_GE: case OP_EQ: case OP_NE:
	case OP_LOGAND: case OP_LOGOR:
		return (Ival){ 0, 1 };
	default:
		break;
	}
	a = eval_int(e->lhs, env);
	b = eval_int(e->rhs, env);
	switch (e->op) {
	case OP_ADD: return iv_add(a, b);
	case OP_SUB: return iv_add(a, iv_neg(b));
	case OP_MUL: return iv_mul(a, b);
	case OP_DIV: return iv_div(a, b);
	case OP_MOD: return iv_mod(a, b);
	case OP_SHR: return iv_shr(a, b);
	case OP_SHL: return iv_shl(a, b);
	case OP_BITAND: return iv_and(a, b);
	case OP_BITOR: case OP_BITXOR: return iv_or(a, b);
	default: return TOP;
	}
}

static Ival eval_int1(const Expr *e, const Env *env);

/*
 * Every value integer expression e may take in env; TOP when unknown.  A
 * condition known to hold on e (`1 <= (i % 130)`) narrows it further.
 */
static Ival eval_int(const Expr *e, const Env *env)
{
	Ival r = eval_int1(e, env);
	bool empty;

	if (!e || e->kind == EX_VAR || e->kind == EX_NUM)
		return r;
	for (uint32_t i = 0; env && i < env->len; i++) {
		const Bind *b = &env->items[i];
		Ival m;

		if (b->expr && expr_equal(b->expr, e)) {
			m = iv_meet(r, b->val, &empty);
			if (!empty)
				r = m;
		}
	}
	return r;
}

static Ival eval_int1(const Expr *e, const Env *env)
{
	const Bind *b;

	if (!e)
		return TOP;
	switch (e->kind) {
	case EX_NUM:
		return e->num.is_float ? TOP : iv_const(e->num.ival);
	case EX_SIZEOF:
		return e->num.ival > 0 ? iv_const(e->num.ival) : TOP;
	case EX_VAR:
		if ((b = env_find(env, e->var)))
			return b->val;
		return var_int(e->var);
	case EX_NAME: {
		NameInfo *ni = name_info(e->name);
		return ni->kind == NM_CONST && ni->has_val ? iv_const(ni->val) : TOP;
	}
	case EX_UNARY:
		switch (e->op) {
		case OP_NEG: return iv_neg(eval_int(e->lhs, env));
		case OP_PLUS: return eval_int(e->lhs, env);
		case OP_BITNOT: return iv_add(iv_neg(eval_int(e->lhs, env)), iv_const(-1));
		case OP_NOT: return (Ival){ 0, 1 };
		default: return TOP;
		}
	case EX_BINARY:
		return eval_binary(e, env);
	case EX_COND:
		return iv_join(eval_int(e->lhs, env), eval_int(e->rhs, env));
	case EX_COMMA:
		return eval_int(e->rhs, env);
	case EX_CAST:
		if (int_range(e->cast_type).lo == NINF && int_range(e->cast_type).hi == PINF &&
		    !(e->cast_type && int_info(e->cast_type, &(int){ 0 }, &(bool){ false })))
			return TOP; /* float or unknown type */
		return iv_convert(eval_int(e->lhs, env), e->cast_type);
	default:
		return TOP;
	}
}

/* An lvalue of array type decays; one of pointer type is a loaded pointer. */
static Ptr decay_or_load(Ptr l)
{
	if (l.kind != P_OBJ && l.kind != P_UNKNOWN && l.kind != P_RODATA)
		return l;
	if (is_array_type(l.type)) {
		l.type = l.type->base;
		return l;
	}
	if (l.kind == P_RODATA)
		return ptr_make(P_NONE);
	if (!l.type || is_ptr_type(l.type) ||
	    (l.type->kind == TY_NAMED && !named_int(l.type->tag, &(int){ 0 }, &(bool){ false })))
		return ptr_make(P_UNKNOWN);
	return ptr_make(P_NONE);
}

/* p + k elements (k bytes for void). */
static Ptr ptr_offset(Ptr p, Ival k)
{
	int64_t size;

	if (p.kind != P_OBJ)
		return p;
	size = type_size(p.type);
	p.off = size > 0 ? iv_add(p.off, iv_mul(k, iv_const(size))) : TOP;
	return p;
}

static Ptr ptr_join(Ptr a, Ptr b)
{
	if (a.kind == P_NULL || a.kind == P_SELF)
		return b;
	if (b.kind == P_NULL || b.kind == P_SELF)
		return a;
	if (a.kind == P_NONE && b.kind == P_NONE)
		return a;
	if (a.kind == P_RODATA && b.kind == P_RODATA)
		return a;
	if (a.kind == P_OBJ && b.kind == P_OBJ && a.base == b.base) {
		a.off = iv_join(a.off, b.off);
		if (type_size(a.type) != type_size(b.type))
			a.type = NULL;
		return a;
	}
	return ptr_make(P_UNKNOWN);
}

static Ptr resolve_cast(const Expr *e, const Env *env)
{
	Type *t = e->cast_type;
	Ptr p;

	if (t && t->kind == TY_PTR) {
		p = resolve_ptr(e->lhs, env);
		if (p.kind == P_NONE)
			return ptr_make(P_UNKNOWN); /* an integer made a pointer */
		p.type = t->base;
		return p;
	}
	if (t && t->kind == TY_NAMED && !named_int(t->tag, &(int){ 0 }, &(bool){ false })) {
		p = resolve_ptr(e->lhs, env);
		p.type = NULL;
		return p;
	}
	return ptr_make(P_NONE);
}

static Ptr resolve_call(const Expr *e, const Env *env)
{
	int arg;

	if (e->callee_func)
		return is_ptr_type(e->callee_func->ret) ? ptr_make(P_UNKNOWN) : ptr_make(P_NONE);
	switch (call_ext(e, &arg)) {
	case EXT_PURE:
		/* a value computed from its arguments: a pointer only if one came in */
		for (uint32_t i = 0; i < e->args.len; i++)
			if (resolve_ptr(e->args.items[i], env).kind > P_NULL)
				return ptr_make(P_UNKNOWN);
		return ptr_make(P_NONE);
	case EXT_MEMCPY:
	case EXT_MEMSET:
		return e->args.len ? resolve_ptr(e->args.items[0], env) : ptr_make(P_UNKNOWN);
	default:
		return ptr_make(P_UNKNOWN);
	}
}

/* Where the pointer value of e leads. */
static Ptr resolve_ptr(const Expr *e, const Env *env)
{
	Ptr p, q;

	if (!e)
		return ptr_make(P_UNKNOWN);
	switch (e->kind) {
	case EX_VAR:
		return var_ptr(e->var);
	case EX_NAME: {
		NameInfo *ni = name_info(e->name);
		if (ni->kind == NM_CONST && ni->has_val && ni->val == 0)
			return ptr_make(P_NULL);
		return ni->kind == NM_IOOBJ ? ptr_make(P_RODATA) : ptr_make(P_UNKNOWN);
	}
	case EX_NUM:
		return !e->num.is_float && e->num.ival == 0 ? ptr_make(P_NULL) : ptr_make(P_NONE);
	case EX_STR:
		return ptr_make(P_RODATA);
	case EX_UNARY:
		if (e->op == OP_ADDR)
			return resolve_loc(e->lhs, env);
		if (e->op == OP_DEREF)
			return decay_or_load(resolve_loc(e, env));
		if (e->op == OP_PREINC || e->op == OP_PREDEC || e->op == OP_POSTINC ||
		    e->op == OP_POSTDEC || e->op == OP_PLUS)
			return resolve_ptr(e->lhs, env);
		return ptr_make(P_NONE);
	case EX_INDEX:
	case EX_MEMBER:
		return decay_or_load(resolve_loc(e, env));
	case EX_CAST:
		return resolve_cast(e, env);
	case EX_BINARY:
		if (e->op == OP_ADD) {
			p = resolve_ptr(e->lhs, env);
			if (p.kind != P_NONE)
				return ptr_offset(p, eval_int(e->rhs, env));
			p = resolve_ptr(e->rhs, env);
			return p.kind == P_NONE ? p : ptr_offset(p, eval_int(e->lhs, env));
		}
		if (e->op == OP_SUB) {
			p = resolve_ptr(e->lhs, env);
			q = resolve_ptr(e->rhs, env);
			if (p.kind == P_NONE || (q.kind != P_NONE && q.kind != P_NULL))
				return ptr_make(P_NONE); /* integer, or a pointer difference */
			return ptr_offset(p, iv_neg(eval_int(e->rhs, env)));
		}
		return ptr_make(P_NONE);
	case EX_COND:
		return ptr_join(resolve_ptr(e->lhs, env), resolve_ptr(e->rhs, env));
	case EX_COMMA:
		return resolve_ptr(e->rhs, env);
	case EX_ASSIGN:
		return e->op == OP_ASSIGN ? resolve_ptr(e->rhs, env) : resolve_ptr(e->lhs, env);
	case EX_CALL:
		return resolve_call(e, env);
	case EX_SIZEOF:
		return ptr_make(P_NONE);
	default:
		return ptr_make(P_UNKNOWN);
	}
}

static Ptr resolve_member(const Expr *e, const Env *env)
{
	Ptr p = e->op == OP_ARROW ? resolve_ptr(e->lhs, env) : resolve_loc(e->lhs, env);
	const Member *m;

	if (p.kind == P_NONE)
		return p; /* a member of a struct value (a call's result) */
	if (p.kind == P_NULL)
		return ptr_make(P_UNKNOWN);
	m = find_member(p.type, e->name);
	if (!m) {
		p.off.hi = PINF; /* somewhere at or after the aggregate's start */
		p.type = NULL;
		return p;
	}
	if (p.type->kind == TY_UNION)
		;
	else if (m->offset < 0)
		p.off.hi = PINF;
	else
		p.off = iv_add(p.off, iv_const(m->offset));
	p.type = m->type;
	return p;
}

/* The storage lvalue e designates: base, byte offset, and its type. */
static Ptr resolve_loc(const Expr *e, const Env *env)
{
	Ptr p;
	const Expr *idx;

	if (!e)
		return ptr_make(P_UNKNOWN);
	switch (e->kind) {
	case EX_VAR:
		return ptr_obj(e->var, iv_const(0), e->var->type);
	case EX_STR:
		return (Ptr){ P_RODATA, NULL, { 0, 0 }, e->type };
	case EX_INDEX:
		p = resolve_ptr(e->lhs, env);
		idx = e->rhs;
		if (p.kind == P_NONE) { /* i[a] */
			p = resolve_ptr(e->rhs, env);
			idx = e->lhs;
		}
		if (p.kind == P_NONE || p.kind == P_NULL || p.kind == P_SELF)
			return (Ptr){ P_UNKNOWN, NULL, { 0, 0 }, e->type };
		return ptr_offset(p, eval_int(idx, env));
	case EX_UNARY:
		if (e->op != OP_DEREF)
			return ptr_make(P_UNKNOWN);
		p = resolve_ptr(e->lhs, env);
		if (p.kind == P_NONE || p.kind == P_NULL || p.kind == P_SELF)
			return (Ptr){ P_UNKNOWN, NULL, { 0, 0 }, e->type };
		return p;
	case EX_MEMBER:
		return resolve_member(e, env);
	case EX_CALL:
		return ptr_make(P_NONE); /* a struct value: not memory of ours */
	default:
		return (Ptr){ P_UNKNOWN, NULL, { 0, 0 }, e->type };
	}
}

/* ------------------------------------------------------------------ */
/* Visiting expressions and statements                                  */
/* ------------------------------------------------------------------ */

typedef void ExprFn(Expr *e, void *ctx);

/* Calls fn on e and every subexpression, parents first. */
static void visit_expr(Expr *e, ExprFn *fn, void *ctx)
{
	if (!e)
		return;
	fn(e, ctx);
	visit_expr(e->cond, fn, ctx);
	visit_expr(e->lhs, fn, ctx);
	visit_expr(e->rhs, fn, ctx);
	for (uint32_t i = 0; i < e->args.len; i++)
		visit_expr(e->args.items[i], fn, ctx);
}

/* Calls fn on every expression of s, and sfn (if any) on every statement. */
static void visit_stmt(Stmt *s, ExprFn *fn, void (*sfn)(Stmt *, void *), void *ctx)
{
	if (!s)
		return;
	if (sfn)
		sfn(s, ctx);
	visit_expr(s->expr, fn, ctx);
	visit_stmt(s->then, fn, sfn, ctx);
	visit_stmt(s->els, fn, sfn, ctx);
	for (uint32_t i = 0; i < s->body.len; i++)
		visit_stmt(s->body.items[i], fn, sfn, ctx);
	if (s->loop) {
		for (uint32_t i = 0; i < s->loop->init.len; i++)
			visit_stmt(s->loop->init.items[i], fn, sfn, ctx);
		visit_expr(s->loop->cond, fn, ctx);
		visit_expr(s->loop->step, fn, ctx);
		visit_stmt(s->loop->body, fn, sfn, ctx);
	}
}

/* ---- pre-pass 1: who defines what ---- */

static void note_def(Var *v, Expr *rhs, uint32_t at, bool self)
{
	VarInfo *vi = info(v);

	vi->ndefs++;
	array_push(&vi->def_at, at);
	if (self) {
		vi->self_def = true;
	} else {
		vi->def = rhs;
		array_push(&vi->rhs, rhs);
	}
}

/* The variable whose own storage lvalue e is part of (a.x.y, v). */
static Var *storage_root(Expr *e)
{
	while (e && e->kind == EX_MEMBER && e->op == OP_DOT)
		e = e->lhs;
	return e && e->kind == EX_VAR ? e->var : NULL;
}

static void defs_expr(Expr *e, void *ctx)
{
	Var *v;

	if (e->kind == EX_ASSIGN && e->lhs && e->lhs->kind == EX_VAR)
		note_def(e->lhs->var, e->rhs, e->start, e->op != OP_ASSIGN);
	else if (e->kind == EX_ASSIGN && (v = storage_root(e->lhs)))
		note_def(v, NULL, e->start, true); /* a member of a struct variable */
	if (e->kind == EX_UNARY && e->lhs &&
	    (e->op == OP_PREINC || e->op == OP_PREDEC || e->op == OP_POSTINC ||
	     e->op == OP_POSTDEC) && (v = storage_root(e->lhs)))
		note_def(v, NULL, e->start, true);
	if (e->kind == EX_UNARY && e->op == OP_ADDR && (v = storage_root(e->lhs)))
		info(v)->addr = true;
}

static void defs_stmt(Stmt *s, void *ctx)
{
	if (s->kind == ST_DECL && s->expr && s->var)
		note_def(s->var, s->expr, s->start, false);
}

/* Defines the parameters' objects and counts every definition in f. */
static void scan_defs(Func *f)
{
	for (uint32_t i = 0; i < f->params.len; i++) {
		Var *p = f->params.items[i];

		info(p)->param_index = (int)i;
		if (is_ptr_type(p->type) || is_array_type(p->type) ||
		    (p->type && p->type->kind == TY_NAMED &&
		     !named_int(p->type->tag, &(int){ 0 }, &(bool){ false })))
			star_object(p, OBJ_POINTEE, -1);
	}
	visit_stmt(f->body, defs_expr, defs_stmt, NULL);
}

/* Definitions of v whose source byte lies in [start, end). */
static uint32_t defs_in(const Var *v, uint32_t start, uint32_t end)
{
	VarInfo *vi = info_lookup(v);
	uint32_t n = 0;

	for (uint32_t i = 0; vi && i < vi->def_at.len; i++)
		n += vi->def_at.items[i] >= start && vi->def_at.items[i] < end;
	return n;
}

/* ---- pre-pass 2: loops' induction variables, definitions' values ---- */

/* May the range of v be narrowed for code in [start, end)? */
static bool narrowable(const Var *v, const Env *env, uint32_t start, uint32_t end)
{
	VarInfo *vi = info_lookup(v);

	if (!followable(v) || defs_in(v, start, end) > 0)
		return false;
	return env_find(env, v) || single_def(vi) || vi->ndefs == 0;
}

static void swap_cmp(OpKind *op)
{
	switch (*op) {
	case OP_LT: *op = OP_GT; break;
	case OP_GT: *op = OP_LT; break;
	case OP_LE: *op = OP_GE; break;
	case OP_GE: *op = OP_LE; break;
	default: break;
	}
}

/* `v op E` from a comparison with a variable on either side. */
static bool match_cmp(const Expr *c, Var **v, OpKind *op, const Expr **bound)
{
	const Expr *l, *r;

	if (!c || c->kind != EX_BINARY)
		return false;
	if (c->op != OP_LT && c->op != OP_LE && c->op != OP_GT && c->op != OP_GE &&
	    c->op != OP_EQ && c->op != OP_NE)
		return false;
	l = strip_casts(c->lhs);
	r = strip_casts(c->rhs);
	*op = c->op;
	if (l && l->kind == EX_VAR) {
		*v = l->var;
		*bound = c->rhs;
		return true;
	}
	if (r && r->kind == EX_VAR) {
		*v = r->var;
		*bound = c->lhs;
		swap_cmp(op);
		return true;
	}
	return false;
}

/*
 * An expression that only computes with integers and variables that keep
 * their value over [start, end): no call, no memory, no assignment.
 */
static bool pure_over(const Expr *e, const Env *env, uint32_t start, uint32_t end)
{
	if (!e)
		return false;
	switch (e->kind) {
	case EX_NUM:
		return !e->num.is_float;
	case EX_NAME:
		return name_info(e->name)->kind == NM_CONST;
	case EX_VAR:
		return narrowable(e->var, env, start, end) &&
		       int_info(e->var->type, &(int){ 0 }, &(bool){ false });
	case EX_CAST:
		return int_info(e->cast_type, &(int){ 0 }, &(bool){ false }) &&
		       pure_over(e->lhs, env, start, end);
	case EX_UNARY:
		return (e->op == OP_NEG || e->op == OP_PLUS || e->op == OP_BITNOT) &&
		       pure_over(e->lhs, env, start, end);
	case EX_BINARY:
		return e->op != OP_LOGAND && e->op != OP_LOGOR &&
		       pure_over(e->lhs, env, start, end) && pure_over(e->rhs, env, start, end);
	default:
		return false;
	}
}

static bool has_var(const Expr *e)
{
	return e && (e->kind == EX_VAR || has_var(e->lhs) || has_var(e->rhs) || has_var(e->cond));
}

/* What `x op bound` being true says of x, met with cur. */
static bool bound_by(OpKind op, Ival b, Ival *cur)
{
	Ival lim;
	bool empty;

	switch (op) {
	case OP_LT: lim = (Ival){ NINF, b.hi == PINF ? PINF : b.hi - 1 }; break;
	case OP_LE: lim = (Ival){ NINF, b.hi }; break;
	case OP_GT: lim = (Ival){ b.lo == NINF ? NINF : b.lo + 1, PINF }; break;
	case OP_GE: lim = (Ival){ b.lo, PINF }; break;
	case OP_EQ: lim = b; break;
	default: return false;
	}
	*cur = iv_meet(*cur, lim, &empty);
	return !empty;
}

/*
 * Pushes onto env what `cond` being true says of the variables (and pure
 * expressions) used in [start, end), where none of them is redefined.
 */
static OpKind negate_cmp(OpKind op)
{
	switch (op) {
	case OP_LT: return OP_GE;
	case OP_LE: return OP_GT;
	case OP_GT: return OP_LE;
	case OP_GE: return OP_LT;
	case OP_NE: return OP_EQ;
	default: return OP_NONE;
	}
}

/*
 * Pushes onto env what `cond` being true (false when neg) says of the
 * variables (and pure expressions) used in [start, end), where none of
 * them is redefined.
 */
static void narrow_cond(Env *env, const Expr *cond, bool neg, uint32_t start, uint32_t end)
{
	Var *v;
	OpKind op;
	const Expr *bound, *x;
	Ival cur;

	if (!cond)
		return;
	if (cond->kind == EX_UNARY && cond->op == OP_NOT) {
		narrow_cond(env, cond->lhs, !neg, start, end);
		return;
	}
	if (cond->kind == EX_BINARY && cond->op == (neg ? OP_LOGOR : OP_LOGAND)) {
		narrow_cond(env, cond->lhs, neg, start, end);
		narrow_cond(env, cond->rhs, neg, start, end);
		return;
	}
	if (cond->kind != EX_BINARY || cond->op < OP_LT || cond->op > OP_NE)
		return;
	if (match_cmp(cond, &v, &op, &bound) && narrowable(v, env, start, end)) {
		op = neg ? negate_cmp(op) : op; /* `v op bound` */
		cur = env_find(env, v) ? env_find(env, v)->val : var_int(v);
		if (bound_by(op, eval_int(bound, env), &cur))
			env_push(env, v, cur);
		return;
	}
	op = neg ? negate_cmp(cond->op) : cond->op;
	x = cond->lhs;
	bound = cond->rhs;
	if (!has_var(x)) {
		x = cond->rhs;
		bound = cond->lhs;
		swap_cmp(&op);
	}
	if (!has_var(x) || !pure_over(x, env, start, end))
		return;
	cur = eval_int(x, env);
	if (bound_by(op, eval_int(bound, env), &cur)) {
		Bind b = { NULL, cur, x };
		array_push(env, b);
	}
}

/*
 * Can control enter s other than from its start: a label, or a case of a
 * switch outside s (Duff's device)?  Then neither a condition guarding s
 * nor a loop header holds inside it.
 */
static bool has_entry(const Stmt *s, bool in_switch)
{
	if (!s)
		return false;
	if (s->kind == ST_LABEL || (s->kind == ST_CASE && !in_switch))
		return true;
	in_switch |= s->kind == ST_SWITCH;
	if (has_entry(s->then, in_switch) || has_entry(s->els, in_switch))
		return true;
	for (uint32_t i = 0; i < s->body.len; i++)
		if (has_entry(s->body.items[i], in_switch))
			return true;
	return s->loop && has_entry(s->loop->body, in_switch);
}

static bool goto_free(void)
{
	FuncInfo *fi = A.cur ? finfo(A.cur) : NULL;

	return !fi || !fi->has_goto;
}

/* Narrows for the arm s of a branch on cond (taken when !neg). */
static void narrow_arm(Env *env, const Expr *cond, bool neg, const Stmt *s)
{
	if (s && goto_free() && !has_entry(s, false))
		narrow_cond(env, cond, neg, s->start, s->end);
}

/* Narrows for a conditional expression's arm: no label can enter it. */
static void narrow_expr(Env *env, const Expr *cond, bool neg, const Expr *arm)
{
	if (arm && goto_free())
		narrow_cond(env, cond, neg, arm->start, arm->end);
}

/* One update of a for-step: v++, v--, v += k, v -= k, v = v + k, v = k + v, v = v - k. */
static bool match_update(const Expr *u, Var **v, int64_t *step)
{
	const Expr *r;
	Ival k;

	if (u->kind == EX_UNARY && u->lhs && u->lhs->kind == EX_VAR) {
		*v = u->lhs->var;
		if (u->op == OP_PREINC || u->op == OP_POSTINC)
			return (*step = 1), true;
		if (u->op == OP_PREDEC || u->op == OP_POSTDEC)
			return (*step = -1), true;
		return false;
	}
	if (u->kind != EX_ASSIGN || !u->lhs || u->lhs->kind != EX_VAR)
		return false;
	*v = u->lhs->var;
	r = u->rhs;
	if (u->op == OP_ADD || u->op == OP_SUB) {
		k = eval_int(r, NULL);
	} else if (u->op == OP_ASSIGN && r && r->kind == EX_BINARY &&
	           (r->op == OP_ADD || r->op == OP_SUB)) {
		const Expr *l = strip_casts(r->lhs), *rr = strip_casts(r->rhs);

		if (l && l->kind == EX_VAR && l->var == *v)
			k = eval_int(r->rhs, NULL);
		else if (r->op == OP_ADD && rr && rr->kind == EX_VAR && rr->var == *v)
			k = eval_int(r->lhs, NULL);
		else
			return false;
		if (r->op == OP_SUB)
			k = iv_neg(k);
		*step = k.lo;
		return iv_is_const(k);
	} else {
		return false;
	}
	if (u->op == OP_SUB)
		k = iv_neg(k);
	*step = k.lo;
	return iv_is_const(k);
}

static void split_comma(Expr *e, ExprList *out)
{
	if (e && e->kind == EX_COMMA) {
		split_comma(e->lhs, out);
		split_comma(e->rhs, out);
	} else if (e) {
		array_push(out, e);
	}
}

/* The initial value the for-initializer gives v, TOP if none or several. */
static Ival loop_init_value(const Loop *l, const Var *v, const Env *env, bool *found)
{
	ExprList parts = { 0 };
	Expr *val = NULL;
	int n = 0;

	for (uint32_t i = 0; i < l->init.len; i++) {
		Stmt *s = l->init.items[i];

		if (s->kind == ST_DECL && s->var == v && s->expr) {
			val = s->expr;
			n++;
		} else if (s->kind == ST_EXPR) {
			parts.len = 0;
			split_comma(s->expr, &parts);
			for (uint32_t j = 0; j < parts.len; j++) {
				Expr *p = parts.items[j];

				if (p->kind == EX_ASSIGN && p->op == OP_ASSIGN && p->lhs &&
				    p->lhs->kind == EX_VAR && p->lhs->var == v) {
					val = p->rhs;
					n++;
				}
			}
		}
	}
	array_free(&parts);
	*found = n == 1;
	return n == 1 ? iv_convert(eval_int(val, env), v->type) : int_range(v->type);
}

typedef struct IVCand {
	Var *var;
	int64_t step;
	Expr *derived;  /* a header variable set by `w = E` in the step */
	Ival init, bound, range;
	bool bounded, init_found;
} IVCand;

/* Byte span of a for statement's parts. */
static void span_of_init(const Loop *l, uint32_t *start, uint32_t *end)
{
	*start = UINT32_MAX;
	*end = 0;
	for (uint32_t i = 0; i < l->init.len; i++) {
		if (l->init.items[i]->start < *start)
			*start = l->init.items[i]->start;
		if (l->init.items[i]->end > *end)
			*end = l->init.items[i]->end;
	}
}

static bool valid_iv(const Stmt *s, const Var *v)
{
	const Loop *l = s->loop;
	uint32_t is, ie;

	if (!followable(v) || !int_info(v->type, &(int){ 0 }, &(bool){ false }))
		return false;
	span_of_init(l, &is, &ie);
	if (defs_in(v, s->start, s->end) != defs_in(v, is, ie) + 1)
		return false; /* defined in the body or the condition, or twice in the step */
	return defs_in(v, l->step->start, l->step->end) == 1;
}

/* Applies the condition's conjuncts `iv op E` to the candidates. */
static void apply_bounds(const Expr *cond, IVCand *c, uint32_t n, const Env *env)
{
	Var *v;
	OpKind op;
	const Expr *bound;

	if (!cond)
		return;
	if (cond->kind == EX_BINARY && cond->op == OP_LOGAND) {
		apply_bounds(cond->lhs, c, n, env);
		apply_bounds(cond->rhs, c, n, env);
		return;
	}
	if (!match_cmp(cond, &v, &op, &bound))
		return;
	for (uint32_t i = 0; i < n; i++) {
		IVCand *k = &c[i];
		Ival b = eval_int(bound, env), tr = int_range(v->type);
		Ival lim;

		if (k->var != v || k->derived)
			continue;
		if (k->step > 0 && (op == OP_LT || op == OP_LE || (op == OP_NE && k->step == 1 &&
		                                                    k->init.hi <= b.lo))) {
			if (b.hi == PINF)
				continue;
			lim = (Ival){ NINF, op == OP_LE ? b.hi : b.hi - 1 };
			if (lim.hi >= tr.hi)
				continue; /* may wrap around */
		} else if (k->step < 0 && (op == OP_GT || op == OP_GE ||
		                           (op == OP_NE && k->step == -1 && k->init.lo >= b.hi))) {
			if (b.lo == NINF)
				continue;
			lim = (Ival){ op == OP_GE ? b.lo : b.lo + 1, PINF };
			if (lim.lo <= tr.lo)
				continue;
		} else {
			continue;
		}
		if (k->bounded)
			k->bound = (Ival){ k->bound.lo > lim.lo ? k->bound.lo : lim.lo,
			                   k->bound.hi < lim.hi ? k->bound.hi : lim.hi };
		else
			k->bound = lim;
		k->bounded = true;
	}
}

/* Most iterations the loop can run, -1 unknown. */
static int64_t max_trips(const IVCand *c, uint32_t n)
{
	int64_t best = -1;

	for (uint32_t i = 0; i < n; i++) {
		const IVCand *k = &c[i];
		Wide span;
		int64_t t;

		if (k->derived || !k->bounded || k->step == 0)
			continue;
		if (k->step > 0 && k->init.lo != NINF && k->bound.hi != PINF)
			span = (Wide)k->bound.hi - k->init.lo;
		else if (k->step < 0 && k->init.hi != PINF && k->bound.lo != NINF)
			span = (Wide)k->init.hi - k->bound.lo;
		else
			continue;
		t = span < 0 ? 1 : to_hi(span / (k->step > 0 ? k->step : -(Wide)k->step) + 1);
		if (best < 0 || t < best)
			best = t;
	}
	return best;
}

static Ival iv_range(const IVCand *k, int64_t trips)
{
	Ival r = k->init, tr = int_range(k->var->type);
	bool empty;

	if (k->step == 0)
		return r;
	if (trips > 0) {
		Ival travel = iv_mul(iv_const(k->step), iv_const(trips - 1));
		r = k->step > 0 ? (Ival){ r.lo, to_hi(whi(r.hi) + whi(travel.hi)) }
		                : (Ival){ to_lo(wlo(r.lo) + wlo(travel.lo)), r.hi };
	} else {
		r = k->step > 0 ? (Ival){ r.lo, PINF } : (Ival){ NINF, r.hi };
	}
	if (k->bounded)
		r = iv_meet(r, k->bound, &empty);
	if (r.lo < tr.lo || r.hi > tr.hi)
		return tr; /* wraps around its type */
	return r;
}

/*
 * The induction variables of for statement s and their ranges in the
 * body: each updated by a constant step in the header and nowhere else,
 * bounded by the condition or by the trip count it implies.  Header
 * variables set from them in the step (`c = m` beside `m++`) come along.
 */
static LoopInfo *compute_loop(const Stmt *s, const Env *env)
{
	LoopInfo *li = xcalloc(1, sizeof(*li));
	const Loop *l = s->loop;
	ExprList ups = { 0 };
	Array(IVCand) c = { 0 };
	FuncInfo *fi = A.cur ? finfo(A.cur) : NULL;
	int64_t trips;

	li->loop = s;
	if (s->kind != ST_FOR || !l || !l->step || (fi && fi->has_goto) ||
	    has_entry(l->body, false))
		goto out;
	split_comma(l->step, &ups);
	for (uint32_t i = 0; i < ups.len; i++) {
		IVCand k = { 0 };
		Expr *u = ups.items[i];

		if (match_update(u, &k.var, &k.step)) {
			if (!valid_iv(s, k.var))
				continue;
		} else if (u->kind == EX_ASSIGN && u->op == OP_ASSIGN && u->lhs &&
		           u->lhs->kind == EX_VAR) {
			k.var = u->lhs->var;
			k.derived = u->rhs;
			if (!valid_iv(s, k.var))
				continue;
		} else {
			continue;
		}
		k.init = loop_init_value(l, k.var, env, &k.init_found);
		array_push(&c, k);
	}
	apply_bounds(l->cond, c.items, c.len, env);
	trips = max_trips(c.items, c.len);
	li->binds = xcalloc(c.len ? c.len : 1, sizeof(*li->binds));
	for (uint32_t i = 0; i < c.len; i++) {
		if (c.items[i].derived)
			continue;
		li->binds[li->n].var = c.items[i].var;
		li->binds[li->n++].val = iv_range(&c.items[i], trips);
	}
	/* derived variables: their initial value, or E over the IVs one step on */
	for (uint32_t i = 0; i < c.len; i++) {
		IVCand *k = &c.items[i];
		Env e2 = { 0 };

		if (!k->derived)
			continue;
		for (uint32_t j = 0; env && j < env->len; j++)
			array_push(&e2, env->items[j]);
		for (uint32_t j = 0; j < c.len; j++) {
			IVCand *iv = &c.items[j];
			Ival r;

			if (iv->derived)
				continue;
			r = iv_range(iv, trips);
			r = iv_join(r, iv_add(r, iv_const(iv->step)));
			env_push(&e2, iv->var, r);
		}
		li->binds[li->n].var = k->var;
		li->binds[li->n++].val = iv_convert(iv_join(k->init, eval_int(k->derived, &e2)),
		                                     k->var->type);
		array_free(&e2);
	}
out:
	array_free(&ups);
	array_free(&c);
	return li;
}

static LoopInfo *loop_info(const Stmt *s, const Env *env)
{
	LoopInfo *li = loop_get(s);

	if (!li) {
		li = compute_loop(s, env);
		loop_put(li);
	}
	return li;
}

static void push_loop(Env *env, const LoopInfo *li)
{
	for (uint32_t i = 0; i < li->n; i++)
		env_push(env, li->binds[i].var, li->binds[i].val);
}

/*
 * Evaluates a single definition of v where it stands, with the ranges of
 * the loops around it: every value v ever holds is one this definition
 * computed, so the range holds at every use (before it, v is undefined).
 */
static void set_value(Var *v, Expr *rhs, const Env *env)
{
	VarInfo *vi = info_lookup(v);

	if (!vi || !followable(v) || !single_def(vi) || vi->def != rhs || v->scope != VAR_LOCAL)
		return;
	if (is_ptr_type(v->type)) {
		vi->busy = true;
		vi->ptr = def_ptr(v, rhs, env);
		vi->busy = false;
		if (vi->ptr.kind == P_SELF)
			vi->ptr = ptr_make(P_UNKNOWN);
		vi->has_val = true;
	} else if (int_info(v->type, &(int){ 0 }, &(bool){ false })) {
		vi->busy = true;
		vi->val = iv_convert(eval_int(rhs, env), v->type);
		vi->busy = false;
		vi->has_val = true;
	}
}

static void values_expr(Expr *e, void *ctx)
{
	if (e->kind == EX_ASSIGN && e->op == OP_ASSIGN && e->lhs && e->lhs->kind == EX_VAR)
		set_value(e->lhs->var, e->rhs, ctx);
}

static void values_stmt(Stmt *s, Env *env)
{
	uint32_t mark = env->len;

	if (!s)
		return;
	switch (s->kind) {
	case ST_DECL:
		visit_expr(s->expr, values_expr, env);
		if (s->expr && s->var)
			set_value(s->var, s->expr, env);
		break;
	case ST_BLOCK:
		for (uint32_t i = 0; i < s->body.len; i++)
			values_stmt(s->body.items[i], env);
		break;
	case ST_IF:
		visit_expr(s->expr, values_expr, env);
		narrow_arm(env, s->expr, false, s->then);
		values_stmt(s->then, env);
		env->len = mark;
		narrow_arm(env, s->expr, true, s->els);
		values_stmt(s->els, env);
		env->len = mark;
		break;
	case ST_FOR:
	case ST_WHILE:
	case ST_DO:
		for (uint32_t i = 0; i < s->loop->init.len; i++)
			values_stmt(s->loop->init.items[i], env);
		visit_expr(s->loop->cond, values_expr, env);
		push_loop(env, loop_info(s, env));
		values_stmt(s->loop->body, env);
		visit_expr(s->loop->step, values_expr, env);
		env->len = mark;
		break;
	default:
		visit_expr(s->expr, values_expr, env);
		values_stmt(s->then, env);
		values_stmt(s->els, env);
		break;
	}
}

/* ------------------------------------------------------------------ */
/* Escape analysis                                                      */
/* ------------------------------------------------------------------ */

typedef enum Flow { FLOW_LEAK, FLOW_ARG } Flow;

/* Adds o to what parameter p may point into. */
static void receive(Var *p, Var *o)
{
	VarInfo *pi = info(p);

	for (uint32_t i = 0; i < pi->receives.len; i++)
		if (pi->receives.items[i] == o)
			return;
	array_push(&pi->receives, o);
}

static bool param_leaks(const Func *callee, uint32_t i)
{
	FuncInfo *fi = finfo(callee);

	if (!fi || fi->state != FS_DONE || i >= callee->params.len)
		return true;
	return info(callee->params.items[i])->leaks;
}

/*
 * The address of base flows somewhere.  Into a parameter (FLOW_ARG): the
 * parameter may now point into base; base escapes only if the callee lets
 * the parameter's value escape.  Anywhere else (FLOW_LEAK): base escapes,
 * or, for a pointee, its parameter leaks (and so will whatever a caller
 * passes it: callers are analysed after their callees).
 */
static void mark(Var *base, Flow fl, const Func *callee, uint32_t argi)
{
	VarInfo *vi = info(base);
	Var *param = callee && argi < callee->params.len ? callee->params.items[argi] : NULL;

	if (vi->kind == OBJ_LOADED) {
		/* it may be anything escaping already: to the callee, an unknown pointer */
		if (fl == FLOW_ARG && param)
			info(param)->recv_unknown = true;
		return;
	}
	if (fl == FLOW_ARG && param) {
		if (vi->kind == OBJ_POINTEE) {
			ParamEdge e = { vi->origin, param };
			array_push(&A.edges, e);
		} else if (vi->kind != OBJ_STATE) {
			receive(param, base);
		}
	}
	if (fl == FLOW_ARG && !param_leaks(callee, argi))
		return;
	if (vi->kind == OBJ_POINTEE)
		info(vi->origin)->leaks = true;
	else
		vi->escapes = true;
}

static void flow_value(const Expr *e, Flow fl, const Func *callee, uint32_t argi);

/* A pointer we cannot follow: everything that flows into it escapes. */
static void flow_parts(const Expr *e)
{
	if (!e)
		return;
	switch (e->kind) {
	case EX_CAST:
	case EX_UNARY:
		if (e->kind == EX_UNARY && e->op == OP_ADDR)
			break;
		flow_parts(e->lhs);
		return;
	case EX_COND:
		flow_value(e->lhs, FLOW_LEAK, NULL, 0);
		flow_value(e->rhs, FLOW_LEAK, NULL, 0);
		return;
	case EX_COMMA:
	case EX_ASSIGN:
		flow_value(e->rhs, FLOW_LEAK, NULL, 0);
		return;
	case EX_BINARY:
		flow_value(e->lhs, FLOW_LEAK, NULL, 0);
		flow_value(e->rhs, FLOW_LEAK, NULL, 0);
		return;
	default:
		break;
	}
}

/* The pointer value of e goes somewhere: marks the object it leads to. */
static void flow_value(const Expr *e, Flow fl, const Func *callee, uint32_t argi)
{
	Ptr p;

	if (!e)
		return;
	p = resolve_ptr(e, NULL);
	if (p.kind == P_OBJ)
		mark(p.base, fl, callee, argi);
	else if (p.kind == P_UNKNOWN) {
		if (fl == FLOW_ARG && callee && argi < callee->params.len)
			info(callee->params.items[argi])->recv_unknown = true;
		flow_parts(e);
	}
}

/* Does v hold its pointer in a way the analysis follows? */
static bool holds_followed(Var *v)
{
	PtrKind k;

	if (!followable(v))
		return false;
	k = var_ptr(v).kind;
	return k == P_OBJ || k == P_RODATA || k == P_NULL || k == P_NONE;
}

static void escape_call(Expr *e)
{
	int arg;

	if (e->callee_func) {
		for (uint32_t i = 0; i < e->args.len; i++)
			flow_value(e->args.items[i], FLOW_ARG, e->callee_func, i);
		return;
	}
	switch (e->lhs && e->lhs->kind == EX_VAR ? EXT_UNKNOWN : call_ext(e, &arg)) {
	case EXT_MEMCPY:
	case EXT_MEMSET:
	case EXT_ALLOC:
	case EXT_FREE:
	case EXT_IO:
		return; /* they keep no pointer */
	default:
		/* unknown, or pure: a macro like MAX may hand a pointer back */
		for (uint32_t i = 0; i < e->args.len; i++)
			flow_value(e->args.items[i], FLOW_LEAK, NULL, 0);
	}
}

/* A pointer parameter whose value the analysis loses leaks what it gets. */
static void escape_params(Func *f)
{
	for (uint32_t i = 0; i < f->params.len; i++) {
		Var *p = f->params.items[i];
		VarInfo *pi = info(p);

		if (pi->target && var_ptr(p).kind != P_OBJ)
			pi->leaks = true;
	}
}

static void escape_expr(Expr *e, void *ctx)
{
	Type *t;

	switch (e->kind) {
	case EX_ASSIGN:
		if (e->op == OP_ASSIGN && !(e->lhs && e->lhs->kind == EX_VAR &&
		                            holds_followed(e->lhs->var)))
			flow_value(e->rhs, FLOW_LEAK, NULL, 0);
		break;
	case EX_CALL:
		escape_call(e);
		break;
	case EX_CAST:
		t = e->cast_type;
		if (!t || (t->kind != TY_PTR && t->kind != TY_VOID))
			flow_value(e->lhs, FLOW_LEAK, NULL, 0); /* a pointer made an integer */
		break;
	case EX_INIT:
		for (uint32_t i = 0; i < e->args.len; i++)
			flow_value(e->args.items[i], FLOW_LEAK, NULL, 0);
		break;
	case EX_NAME:
		if (name_info(e->name)->kind == NM_FUNC) {
			/* a function used as a value: it may be called from anywhere */
			for (uint32_t i = 0; i < A.prog->funcs.len; i++)
				if (A.prog->funcs.items[i]->name == e->name)
					finfo(A.prog->funcs.items[i])->external = true;
		}
		break;
	case EX_OTHER:
		A.all_escape = true;
		break;
	default:
		break;
	}
}

static void escape_stmt(Stmt *s, void *ctx)
{
	if (s->kind == ST_DECL && s->expr && s->var && !holds_followed(s->var))
		flow_value(s->expr, FLOW_LEAK, NULL, 0);
	if (s->kind == ST_RETURN && s->expr)
		flow_value(s->expr, FLOW_LEAK, NULL, 0);
	if (s->kind == ST_OTHER || s->kind == ST_ASM)
		A.all_escape = true;
}

/* Every node of e; a call's callee name is not a use of the function as a value. */
static void escape_walk(Expr *e)
{
	if (!e)
		return;
	escape_expr(e, NULL);
	escape_walk(e->cond);
	if (!(e->kind == EX_CALL && e->lhs && e->lhs->kind == EX_NAME))
		escape_walk(e->lhs);
	escape_walk(e->rhs);
	for (uint32_t i = 0; i < e->args.len; i++)
		escape_walk(e->args.items[i]);
}

static void escape_stmts(Stmt *s)
{
	if (!s)
		return;
	escape_stmt(s, NULL);
	escape_walk(s->expr);
	escape_stmts(s->then);
	escape_stmts(s->els);
	for (uint32_t i = 0; i < s->body.len; i++)
		escape_stmts(s->body.items[i]);
	if (s->loop) {
		for (uint32_t i = 0; i < s->loop->init.len; i++)
			escape_stmts(s->loop->init.items[i]);
		escape_walk(s->loop->cond);
		escape_walk(s->loop->step);
		escape_stmts(s->loop->body);
	}
}

/* ------------------------------------------------------------------ */
/* Workspaces a function takes and gives back itself                   */
/* ------------------------------------------------------------------ */

static bool const_int(const Expr *e, int64_t *v);

/* The largest workspace of a nested block that a clone keeps on its stack. */
#define SCRATCH_STACK_MAX 65536

/* Every argument of call but number skip is an integer constant. */
static bool const_args(const Expr *call, uint32_t skip)
{
	for (uint32_t i = 0; i < call->args.len; i++)
		if (i != skip && !iv_is_const(eval_int(call->args.items[i], NULL)))
			return false;
	return true;
}

/* `T *v = ALLOC(constants);` with v defined there only and its memory ours alone. */
static bool scratch_decl(Stmt *s, Scratch *sc)
{
	Expr *call = s->kind == ST_DECL && s->var ? strip_casts(s->expr) : NULL;
	Var *v = s->var;
	VarInfo *vi, *ti;
	int arg;

	if (!call || call->kind != EX_CALL || call->callee_func ||
	    call_ext(call, &arg) != EXT_ALLOC || !const_args(call, UINT32_MAX))
		return false;
	vi = info_lookup(v);
	ti = vi ? info_lookup(vi->target) : NULL;
	if (!is_ptr_type(v->type) || v->storage != SC_NONE || v->addr_taken || !single_def(vi) ||
	    vi->addr || !ti || ti->kind != OBJ_ALLOC || ti->escapes)
		return false;
	memset(sc, 0, sizeof(*sc));
	sc->var = v;
	sc->decl = s;
	sc->alloc = call;
	sc->size = alloc_size(call, arg);
	return sc->size > 0;
}

/* The free of v among calls: the only one, with v itself and constants as arguments. */
static bool scratch_free(const ExprList *calls, Scratch *sc)
{
	for (uint32_t i = 0; i < calls->len; i++) {
		Expr *e = calls->items[i];
		Expr *p;
		int arg;

		if (e->callee_func || call_ext(e, &arg) != EXT_FREE || arg < 0 ||
		    (uint32_t)arg >= e->args.len)
			continue;
		p = strip_casts(e->args.items[arg]);
		if (!p || p->kind != EX_VAR || p->var != sc->var)
			continue;
		if (sc->free || !const_args(e, (uint32_t)arg))
			return false;
		sc->free = e;
		sc->free_ptr = e->args.items[arg];
	}
	return sc->free != NULL;
}

/*
 * `FREE(v);` or `if (FREE(v) != 0) exit;` (or `if (FREE(v)) exit;`): with the
 * call replaced by 0 it does nothing.
 */
static bool is_free_stmt(const Stmt *t, const Expr *call)
{
	Expr *c = t->expr;
	int64_t k;

	if (t->kind == ST_EXPR)
		return strip_casts(c) == call;
	if (t->kind != ST_IF || !c)
		return false;
	if (c->kind == EX_BINARY && c->op == OP_NE && const_int(c->rhs, &k) && k == 0)
		c = c->lhs;
	return strip_casts(c) == call;
}

/* The free runs once per run of the block, in a statement of its own after the decl. */
static bool freed_in_block(const Stmt *block, uint32_t after, Scratch *sc)
{
	for (uint32_t j = after + 1; j < block->body.len; j++) {
		const Stmt *t = block->body.items[j];

		if (is_free_stmt(t, sc->free)) {
			sc->bare_free = t->kind == ST_EXPR && t->expr == sc->free;
			return true;
		}
	}
	return false;
}

/* `if (v == NULL) return K;` (or `!v`, `v == 0`): never taken once v is a buffer. */
static bool is_null_check(const Stmt *s, const Var *v)
{
	Expr *c = s->kind == ST_IF && !s->els ? s->expr : NULL;
	const Stmt *t = s->then;
	Expr *x = NULL;
	int64_t k;

	if (!c)
		return false;
	if (c->kind == EX_UNARY && c->op == OP_NOT)
		x = strip_casts(c->lhs);
	else if (c->kind == EX_BINARY && c->op == OP_EQ && iv_is_const(eval_int(c->rhs, NULL)) &&
	         eval_int(c->rhs, NULL).lo == 0)
		x = strip_casts(c->lhs);
	if (t && t->kind == ST_BLOCK && t->body.len == 1)
		t = t->body.items[0];
	return x && x->kind == EX_VAR && x->var == v && t && t->kind == ST_RETURN &&
	       (!t->expr || const_int(t->expr, &k));
}

typedef struct ScratchScan {
	Func *f;
	ExprList calls;       /* every call of f */
	ScratchList *out;
} ScratchScan;

static void note_call(Expr *e, void *ctx)
{
	ScratchScan *sc = ctx;

	if (e->kind == EX_CALL)
		array_push(&sc->calls, e);
}

static void scan_block(ScratchScan *ss, Stmt *s);

static void scan_block_items(ScratchScan *ss, Stmt *b)
{
	for (uint32_t i = 0; i < b->body.len; i++) {
		Scratch sc;

		if (scratch_decl(b->body.items[i], &sc) && scratch_free(&ss->calls, &sc) &&
		    freed_in_block(b, i, &sc)) {
			sc.top = b == ss->f->body;
			if (sc.top || sc.size <= SCRATCH_STACK_MAX)
				array_push(ss->out, sc);
		}
		scan_block(ss, b->body.items[i]);
	}
}

static void scan_block(ScratchScan *ss, Stmt *s)
{
	if (!s)
		return;
	if (s->kind == ST_BLOCK) {
		scan_block_items(ss, s);
		return;
	}
	scan_block(ss, s->then);
	scan_block(ss, s->els);
	if (s->loop)
		scan_block(ss, s->loop->body);
}

static bool is_scratch_call(const ScratchList *l, const Expr *e)
{
	for (uint32_t i = 0; i < l->len; i++)
		if (l->items[i].alloc == e || l->items[i].free == e)
			return true;
	return false;
}

/* Every allocation, free and output of f's calls belongs to a workspace. */
static bool only_scratch_state(const ExprList *calls, const ScratchList *l)
{
	for (uint32_t i = 0; i < calls->len; i++) {
		const Expr *e = calls->items[i];
		const Summary *cs;
		int arg;

		if (e->callee_func) {
			cs = func_summary(e->callee_func);
			for (uint32_t k = 0; cs && k < cs->acc.len; k++)
				if (obj_kind(cs->acc.items[k].region.base) == OBJ_STATE)
					return false;
			continue;
		}
		switch (call_ext(e, &arg)) {
		case EXT_ALLOC:
		case EXT_FREE:
			if (!is_scratch_call(l, e))
				return false;
			break;
		case EXT_IO:
			return false;
		default:
			break;
		}
	}
	return true;
}

const ScratchList *func_scratch(const Func *f, bool *only)
{
	FuncInfo *fi = finfo(f);
	ScratchScan ss = { 0 };

	if (!fi) {
		*only = false;
		return NULL;
	}
	if (!fi->scratch_done && f->body) {
		ss.f = fi->func;
		ss.out = &fi->scratch;
		visit_stmt(f->body, note_call, NULL, &ss);
		scan_block(&ss, f->body);
		fi->scratch_only = only_scratch_state(&ss.calls, &fi->scratch);
		array_free(&ss.calls);
	}
	fi->scratch_done = true;
	*only = fi->scratch_only;
	return &fi->scratch;
}

bool scratch_stmt(const Func *f, const Stmt *s)
{
	bool only;
	const ScratchList *l = func_scratch(f, &only);

	for (uint32_t i = 0; l && i < l->len; i++) {
		const Scratch *sc = &l->items[i];

		if (sc->decl == s || is_free_stmt(s, sc->free) || is_null_check(s, sc->var))
			return true;
	}
	return false;
}

const Scratch *scratch_var(const Func *f, const Var *v)
{
	bool only;
	const ScratchList *l = f && v ? func_scratch(f, &only) : NULL;

	for (uint32_t i = 0; l && i < l->len; i++)
		if (l->items[i].var == v)
			return &l->items[i];
	return NULL;
}

/* The workspace of the function being walked that v (a pointer local) holds, if any. */
static const Scratch *scratch_of(const Var *v)
{
	return scratch_var(A.cur, v);
}

static bool scratch_call(const Expr *e)
{
	bool only;
	const ScratchList *l = A.cur ? func_scratch(A.cur, &only) : NULL;

	return l && is_scratch_call(l, e);
}

static ScratchObj *scratch_entry(const MT *sb, const Var *local)
{
	ScratchObj so = { sb, local, NULL };

	for (uint32_t i = 0; i < A.scratch_objs.len; i++)
		if (A.scratch_objs.items[i].sb == sb && A.scratch_objs.items[i].local == local)
			return &A.scratch_objs.items[i];
	array_push(&A.scratch_objs, so);
	return &array_last(&A.scratch_objs);
}

Var *scratch_buffer(const char *name)
{
	return new_object(name, OBJ_ALLOC, VAR_LOCAL, NULL, NULL, -1);
}

void scratch_bind(const MT *sb, const Var *local, Var *buffer)
{
	scratch_entry(sb, local)->obj = buffer;
}

Var *scratch_object(const MT *sb, const Var *local)
{
	ScratchObj *so = scratch_entry(sb, local);
	char *name;

	if (!so->obj) {
		name = xmalloc(strlen(intern_name(local->name)) + 32);
		sprintf(name, "*%s@MT%d", intern_name(local->name), sb->id);
		so->obj = scratch_buffer(name);
		free(name);
	}
	return so->obj;
}

/* ------------------------------------------------------------------ */
/* Summaries: walking an MT's statements                                */
/* ------------------------------------------------------------------ */

/* Unmodelled constructs that may touch anything. */
#define BARRIER_KINDS ((1u << UM_ASM) | (1u << UM_SETJMP) | (1u << UM_COMPUTED_GOTO) | \
                       (1u << UM_OTHER))

typedef struct Walk {
	Summary *sum;
	const MT *mt;        /* NULL: a whole function body */
	const Source *src;
	int depth;           /* scopes opened inside the walked statements */
	VarList priv;        /* non-static objects declared at depth > 0 */
	Env env;             /* induction variables and narrowed variables */
	/* a chunk walk (summarize_chunk): ranges follow the chunk, not the whole loop */
	bool chunk;          /* loops and single definitions re-evaluated in env */
	const struct SplitLoop *part; /* the part being walked, NULL for the prologue alone */
	int64_t lo, hi;      /* first-IV values [lo, hi) of part->loop */
	bool failed;         /* the chunk's ranges could not be bound */
} Walk;

static void set_barrier(Walk *w, const Expr *at)
{
	if (!w->sum->barrier) {
		w->sum->barrier = true;
		w->sum->barrier_at = at;
	}
}

/* Adds r (whose ranges it takes over) to the access of that kind and base. */
static void sum_add(Summary *s, AccessKind kind, Region *r, const Expr *ref, const Source *src)
{
	Access a;

	for (uint32_t i = 0; i < s->acc.len; i++) {
		Access *b = &s->acc.items[i];

		if (b->kind == kind && b->region.base == r->base) {
			region_union(&b->region, r);
			array_free(&r->ranges);
			return;
		}
	}
	a.kind = kind;
	a.region = *r;
	a.ref = ref;
	a.src = src;
	array_push(&s->acc, a);
}

/* Adds bytes [lo, hi) to r, within its object when the object is ours. */
static void add_clamped(Region *r, int64_t lo, int64_t hi)
{
	int64_t size;

	if (!r->base) {
		region_set_whole(r);
		return;
	}
	switch (obj_kind(r->base)) {
	case OBJ_STATE:
		region_set_whole(r);
		return;
	case OBJ_POINTEE:
	case OBJ_LOADED:
		region_add_range(r, lo, hi);
		return;
	default:
		break;
	}
	/* outside its object an access is undefined: clamp to the object */
	size = obj_size(r->base);
	if (lo < 0)
		lo = 0;
	if (size >= 0 && hi > size)
		hi = size;
	if (lo >= hi)
		region_set_whole(r); /* nowhere inside: trust nothing */
	else
		region_add_range(r, lo, hi);
}

static void state_rw(Walk *w, Var *obj, const Expr *ref)
{
	Region r;

	region_init(&r, obj);
	region_set_whole(&r);
	sum_add(w->sum, ACC_READ, &r, ref, w->src);
	region_init(&r, obj);
	region_set_whole(&r);
	sum_add(w->sum, ACC_WRITE, &r, ref, w->src);
}

/* Records an access of size bytes (-1 unknown) at p. */
static void record(Walk *w, Ptr p, int64_t size, AccessKind kind, const Expr *ref)
{
	Region r;

	if (p.kind == P_OBJ) {
		int64_t lo = p.off.lo;
		int64_t hi = p.off.hi == PINF || size <= 0 ? REGION_END : to_hi((Wide)p.off.hi + size);

		region_init(&r, p.base);
		add_clamped(&r, lo, hi);
	} else if (p.kind == P_UNKNOWN) {
		region_init(&r, NULL);
		region_set_whole(&r);
	} else {
		return;
	}
	sum_add(w->sum, kind, &r, ref, w->src);
	if (p.kind == P_OBJ && (type_is_volatile(p.base->type) || type_is_volatile(p.type)))
		state_rw(w, A.io, ref);
}

static void record_whole(Walk *w, Ptr p, AccessKind kind, const Expr *ref)
{
	if (p.kind == P_OBJ)
		p.off = TOP;
	record(w, p, -1, kind, ref);
}

static void walk_expr(Walk *w, Expr *e);

/*
 * A chunk walk binds an integer local defined once to the value its
 * definition computes here, from the chunk's ranges: every value it ever
 * holds comes from that definition, so the range holds at the uses that
 * follow in the same scope (the binding ends with the scope).
 */
static void chunk_rebind(Walk *w, Var *v, Expr *rhs)
{
	VarInfo *vi = info_lookup(v);

	if (!w->chunk || !vi || !goto_free() || !followable(v) || !single_def(vi) ||
	    vi->def != rhs || v->scope != VAR_LOCAL ||
	    !int_info(v->type, &(int){ 0 }, &(bool){ false }))
		return;
	env_push(&w->env, v, iv_convert(eval_int(rhs, &w->env), v->type));
}

/*
 * The split loop s with its first IV restricted to [w->lo, w->hi): the
 * chunk runs iterations t0..t1, and every IV k takes init_k + t * step_k
 * there.  False when an IV's initial value is not a constant or a value
 * leaves its type.
 */
static bool push_split_loop(Walk *w, const Stmt *s)
{
	const Loop *l = s->loop;
	const InductionVar *first = l && l->ivs.len ? &l->ivs.items[0] : NULL;
	int64_t t0, t1;

	if (!first || !first->step_known || first->step <= 0 || l->trip_count < 1 ||
	    w->lo >= w->hi || w->lo < l->lower || w->hi > l->upper ||
	    (w->lo - l->lower) % first->step != 0)
		return false;
	t0 = (w->lo - l->lower) / first->step;
	t1 = (w->hi - 1 - l->lower) / first->step;
	if (t1 < t0 || t1 >= l->trip_count)
		return false;
	for (uint32_t i = 0; i < l->ivs.len; i++) {
		const InductionVar *iv = &l->ivs.items[i];
		Ival init = eval_int(iv->init, NULL), r, tr;

		if (!iv->step_known || !iv_is_const(init))
			return false;
		r = iv_join(iv_add(init, iv_mul(iv_const(t0), iv_const(iv->step))),
		            iv_add(init, iv_mul(iv_const(t1), iv_const(iv->step))));
		tr = int_range(iv->var->type);
		if (r.lo == NINF || r.hi == PINF || r.lo < tr.lo || r.hi > tr.hi)
			return false;
		env_push(&w->env, iv->var, r);
	}
	return true;
}

/*
 * A loop met by a chunk walk: the split loop gets the chunk's ranges, any
 * other loop's induction ranges are computed afresh in the current env
 * (narrower than the whole loop's when they follow an outer IV).
 */
static void push_chunk_loop(Walk *w, const Stmt *s)
{
	LoopInfo *li;

	if (w->part && w->part->split && s == w->part->loop) {
		if (!push_split_loop(w, s)) {
			w->failed = true;
			push_loop(&w->env, loop_info(s, &w->env));
		}
		return;
	}
	li = compute_loop(s, &w->env);
	push_loop(&w->env, li);
	free(li->binds);
	free(li);
}

/* Reads what computing lvalue e's address reads: subscripts, pointers. */
static void walk_addr(Walk *w, Expr *e)
{
	if (!e)
		return;
	switch (e->kind) {
	case EX_VAR:
	case EX_STR:
		return;
	case EX_INDEX:
		walk_expr(w, e->lhs);
		walk_expr(w, e->rhs);
		return;
	case EX_UNARY:
		if (e->op != OP_DEREF)
			break;
		walk_expr(w, e->lhs);
		return;
	case EX_MEMBER:
		if (e->op == OP_ARROW)
			walk_expr(w, e->lhs);
		else
			walk_addr(w, e->lhs);
		return;
	default:
		break;
	}
	walk_expr(w, e);
}

static void access_lvalue(Walk *w, Expr *e, bool rd, bool wr)
{
	Ptr p = resolve_loc(e, &w->env);

	if (rd && !wr && is_array_type(p.type) && p.kind != P_UNKNOWN) {
		walk_addr(w, e); /* an array decays: only its address is computed */
		return;
	}
	if (rd)
		record(w, p, type_size(p.type), ACC_READ, e);
	if (wr)
		record(w, p, type_size(p.type), ACC_WRITE, e);
	walk_addr(w, e);
}

static void walk_name(Walk *w, Expr *e)
{
	switch ((NameKind)name_info(e->name)->kind) {
	case NM_CONST:
	case NM_FUNC:
	case NM_EXT:
	case NM_IOOBJ:
		return;
	default:
		set_barrier(w, e); /* a macro or an outside object we cannot see */
	}
}

static void walk_var(Walk *w, Expr *e)
{
	Var *v = e->var;

	if (is_array_type(v->type)) {
		if (v->scope == VAR_PARAM) /* a parameter array is a pointer */
			record(w, ptr_obj(v, iv_const(0), NULL), 8, ACC_READ, e);
		return;
	}
	access_lvalue(w, e, true, false);
}

/* The definition of a pointer local that malloc's fresh memory: it is written. */
static void alloc_def(Walk *w, Var *v, const Expr *ref)
{
	VarInfo *vi = info_lookup(v);

	if (vi && vi->target && info(vi->target)->kind == OBJ_ALLOC)
		record_whole(w, ptr_obj(vi->target, TOP, NULL), ACC_WRITE, ref);
}

static void walk_unary(Walk *w, Expr *e)
{
	switch (e->op) {
	case OP_ADDR:
		if (e->lhs && e->lhs->kind == EX_NAME)
			walk_name(w, e->lhs);
		else
			walk_addr(w, e->lhs);
		return;
	case OP_DEREF:
		access_lvalue(w, e, true, false);
		return;
	case OP_PREINC:
	case OP_PREDEC:
	case OP_POSTINC:
	case OP_POSTDEC:
		access_lvalue(w, e->lhs, true, true);
		return;
	default:
		walk_expr(w, e->lhs);
	}
}

static void walk_assign(Walk *w, Expr *e)
{
	walk_expr(w, e->rhs);
	if (e->lhs && e->lhs->kind == EX_NAME) {
		walk_name(w, e->lhs);
		return;
	}
	access_lvalue(w, e->lhs, e->op != OP_ASSIGN, true);
	if (e->lhs && e->lhs->kind == EX_VAR) {
		alloc_def(w, e->lhs->var, e);
		if (e->op == OP_ASSIGN)
			chunk_rebind(w, e->lhs->var, e->rhs);
	}
}

/* A callee's access to its parameter's pointee, moved onto the argument q. */
static void map_region(Walk *w, const Region *cr, Ptr q, AccessKind kind, const Expr *ref)
{
	Region r;

	if (q.kind == P_NULL || q.kind == P_RODATA)
		return; /* a null pointer or a literal: no legal access reaches ours */
	if (q.kind != P_OBJ) {
		region_init(&r, NULL);
		region_set_whole(&r);
		sum_add(w->sum, kind, &r, ref, w->src);
		return;
	}
	region_init(&r, q.base);
	if (cr->whole || iv_is_top(q.off)) {
		add_clamped(&r, REGION_BEGIN, REGION_END);
	} else {
		for (uint32_t i = 0; i < cr->ranges.len; i++) {
			int64_t lo = cr->ranges.items[i].lo, hi = cr->ranges.items[i].hi;

			lo = lo == REGION_BEGIN || q.off.lo == NINF ? REGION_BEGIN : to_lo((Wide)lo + q.off.lo);
			hi = hi == REGION_END || q.off.hi == PINF ? REGION_END : to_hi((Wide)hi + q.off.hi);
			add_clamped(&r, lo, hi);
		}
	}
	if (region_is_empty(&r))
		return;
	sum_add(w->sum, kind, &r, ref, w->src);
}

/* Callee f's summary cs (its whole body's, or a chunk's) on the arguments of call e. */
static void map_summary(Walk *w, Expr *e, Func *f, const Summary *cs)
{
	if (cs->barrier)
		set_barrier(w, e);
	for (uint32_t i = 0; i < cs->acc.len; i++) {
		const Access *a = &cs->acc.items[i];
		VarInfo *bi = info_lookup(a->region.base);

		if (bi && bi->kind == OBJ_POINTEE && bi->origin->func == f) {
			int k = info(bi->origin)->param_index;
			Expr *actual = k >= 0 && (uint32_t)k < e->args.len ? e->args.items[k] : NULL;
			Ptr q = actual ? resolve_ptr(actual, &w->env) : ptr_make(P_UNKNOWN);

			if (q.kind == P_NONE || q.kind == P_SELF)
				q = ptr_make(P_UNKNOWN);
			map_region(w, &a->region, q, a->kind, actual ? actual : e);
		} else if (bi && bi->kind == OBJ_LOADED) {
			Region r; /* loaded in the callee's activation: unknown here */

			region_init(&r, NULL);
			region_set_whole(&r);
			sum_add(w->sum, a->kind, &r, e, w->src);
		} else {
			Region r;

			region_copy(&r, &a->region);
			sum_add(w->sum, a->kind, &r, e, w->src);
		}
	}
}

/* An SB or a call inside an MT: the callee's summary on our arguments. */
static void map_callee(Walk *w, Expr *e)
{
	Func *f = e->callee_func;
	FuncInfo *fi = finfo(f);

	if (!fi || fi->state != FS_DONE || !fi->sum) {
		set_barrier(w, e); /* recursion */
		return;
	}
	map_summary(w, e, f, fi->sum);
}

/* memcpy, memmove, memset: n bytes at argument i. */
static void mem_span(Walk *w, Expr *e, uint32_t i, AccessKind kind)
{
	Ival n;

	if (e->args.len < 3) {
		set_barrier(w, e);
		return;
	}
	n = eval_int(e->args.items[2], &w->env);
	if (n.hi <= 0)
		return;
	record(w, resolve_ptr(e->args.items[i], &w->env), n.hi == PINF ? -1 : n.hi, kind,
	       e->args.items[i]);
}

static void walk_call(Walk *w, Expr *e)
{
	int arg = 0;
	ExtKind ext;

	for (uint32_t i = 0; i < e->args.len; i++)
		walk_expr(w, e->args.items[i]);
	if (e->callee_func) {
		map_callee(w, e);
		return;
	}
	if (!e->name || (e->lhs && e->lhs->kind != EX_NAME)) {
		walk_expr(w, e->lhs); /* through a function pointer */
		set_barrier(w, e);
		return;
	}
	ext = call_ext(e, &arg);
	switch (ext) {
	case EXT_PURE:
		return;
	case EXT_MEMCPY:
		mem_span(w, e, 0, ACC_WRITE);
		mem_span(w, e, 1, ACC_READ);
		return;
	case EXT_MEMSET:
		mem_span(w, e, 0, ACC_WRITE);
		return;
	case EXT_ALLOC:
		if (!(w->chunk && scratch_call(e)))
			state_rw(w, A.allocator, e);
		return;
	case EXT_FREE:
		if (w->chunk && scratch_call(e))
			return; /* a clone gives nothing back: the caller or the stack owns it */
		if (arg >= 0 && (uint32_t)arg < e->args.len)
			record_whole(w, resolve_ptr(e->args.items[arg], &w->env), ACC_WRITE, e);
		else
			set_barrier(w, e);
		state_rw(w, A.allocator, e);
		return;
	case EXT_IO:
		state_rw(w, A.io, e);
		for (uint32_t i = 0; i < e->args.len; i++) {
			Ptr p = resolve_ptr(e->args.items[i], &w->env);

			record_whole(w, p, ACC_READ, e->args.items[i]);
			record_whole(w, p, ACC_WRITE, e->args.items[i]); /* %n */
		}
		return;
	default:
		set_barrier(w, e);
	}
}

static void walk_expr(Walk *w, Expr *e)
{
	uint32_t mark;

	if (!e)
		return;
	switch (e->kind) {
	case EX_NUM:
	case EX_STR:
	case EX_SIZEOF:
		return;
	case EX_NAME:
		walk_name(w, e);
		return;
	case EX_VAR:
		walk_var(w, e);
		return;
	case EX_UNARY:
		walk_unary(w, e);
		return;
	case EX_ASSIGN:
		walk_assign(w, e);
		return;
	case EX_COND:
		mark = w->env.len;
		walk_expr(w, e->cond);
		narrow_expr(&w->env, e->cond, false, e->lhs);
		walk_expr(w, e->lhs);
		w->env.len = mark;
		narrow_expr(&w->env, e->cond, true, e->rhs);
		walk_expr(w, e->rhs);
		w->env.len = mark;
		return;
	case EX_CALL:
		walk_call(w, e);
		return;
	case EX_INDEX:
	case EX_MEMBER:
		access_lvalue(w, e, true, false);
		return;
	case EX_OTHER:
		set_barrier(w, e);
		return;
	default:
		walk_expr(w, e->cond);
		walk_expr(w, e->lhs);
		walk_expr(w, e->rhs);
		for (uint32_t i = 0; i < e->args.len; i++)
			walk_expr(w, e->args.items[i]);
	}
}

static void walk_stmt(Walk *w, Stmt *s);

/* Is s part of the MT being walked?  A branch test owns no arm. */
static bool in_mt(const Walk *w, const Stmt *s)
{
	return !w->mt || (s->start >= w->mt->start && s->end <= w->mt->end);
}

/* A compound statement written with braces (not one the lowering made up). */
static bool real_block(const Walk *w, const Stmt *s)
{
	return w->src && s->start < w->src->len && w->src->text[s->start] == '{';
}

/* An arm or a loop body is a scope of its own. */
static void walk_scope(Walk *w, Stmt *s)
{
	w->depth++;
	walk_stmt(w, s);
	w->depth--;
}

static void walk_decl(Walk *w, Stmt *s)
{
	Var *v = s->var;

	if (!v) {
		walk_expr(w, s->expr);
		return;
	}
	if (w->depth > 0 && v->storage != SC_STATIC && v->storage != SC_EXTERN)
		array_push(&w->priv, v);
	if (!s->expr || v->storage == SC_STATIC)
		return; /* a static's initializer runs once, before the program */
	walk_expr(w, s->expr);
	record(w, ptr_obj(v, iv_const(0), v->type), type_size(v->type), ACC_WRITE, s->expr);
	if (!(w->chunk && scratch_of(v)))
		alloc_def(w, v, s->expr); /* a clone's workspace is not fresh: its parts share it */
	chunk_rebind(w, v, s->expr);
}

static void walk_loop(Walk *w, Stmt *s)
{
	uint32_t mark = w->env.len;
	Loop *l = s->loop;

	w->depth++;
	for (uint32_t i = 0; i < l->init.len; i++)
		walk_stmt(w, l->init.items[i]);
	walk_expr(w, l->cond);
	if (w->chunk)
		push_chunk_loop(w, s);
	else
		push_loop(&w->env, loop_info(s, &w->env));
	walk_scope(w, l->body);
	walk_expr(w, l->step);
	w->env.len = mark;
	w->depth--;
}

static void walk_stmt(Walk *w, Stmt *s)
{
	uint32_t mark = w->env.len;
	bool real;

	if (!s)
		return;
	switch (s->kind) {
	case ST_EXPR:
	case ST_RETURN:
		walk_expr(w, s->expr);
		break;
	case ST_DECL:
		walk_decl(w, s);
		break;
	case ST_BLOCK:
		real = real_block(w, s);
		w->depth += real;
		for (uint32_t i = 0; i < s->body.len; i++)
			walk_stmt(w, s->body.items[i]);
		w->depth -= real;
		break;
	case ST_IF:
		walk_expr(w, s->expr);
		if (s->then && in_mt(w, s->then)) {
			narrow_arm(&w->env, s->expr, false, s->then);
			walk_scope(w, s->then);
			w->env.len = mark;
		}
		if (s->els && in_mt(w, s->els)) {
			narrow_arm(&w->env, s->expr, true, s->els);
			walk_scope(w, s->els);
			w->env.len = mark;
		}
		break;
	case ST_FOR:
	case ST_WHILE:
	case ST_DO:
		if (s->loop)
			walk_loop(w, s);
		else
			set_barrier(w, NULL);
		break;
	case ST_SWITCH:
		walk_expr(w, s->expr);
		walk_scope(w, s->then);
		break;
	case ST_CASE:
	case ST_LABEL:
		walk_expr(w, s->expr);
		walk_stmt(w, s->then);
		break;
	case ST_GOTO:
		if (s->expr) {
			walk_expr(w, s->expr);
			set_barrier(w, s->expr);
		}
		break;
	case ST_ASM:
	case ST_OTHER:
		set_barrier(w, NULL);
		break;
	default:
		break;
	}
}

static bool in_list(const VarList *l, const Var *v)
{
	for (uint32_t i = 0; i < l->len; i++)
		if (l->items[i] == v)
			return true;
	return false;
}

static bool is_private(const Walk *w, const Var *b)
{
	VarInfo *bi = info_lookup(b);

	if (!b)
		return false;
	if (bi && bi->kind == OBJ_ALLOC && w->chunk && bi->origin && bi->origin->scope == VAR_LOCAL) {
		const Scratch *sc = scratch_of(bi->origin);

		if (sc && sc->top)
			return false; /* the chunks of one call share it */
	}
	if (bi && bi->kind == OBJ_ALLOC)
		return !bi->escapes && in_list(&w->priv, bi->origin);
	return in_list(&w->priv, b);
}

/* Leaves out the objects whose lifetime ends inside the walked code. */
static void drop_private(Walk *w)
{
	Summary *s = w->sum;
	uint32_t j = 0;

	for (uint32_t i = 0; i < s->acc.len; i++) {
		Access *a = &s->acc.items[i];

		if (is_private(w, a->region.base)) {
			array_free(&a->region.ranges);
			continue;
		}
		s->acc.items[j++] = *a;
	}
	s->acc.len = j;
}

static void walk_done(Walk *w)
{
	drop_private(w);
	array_free(&w->priv);
	array_free(&w->env);
}

/* What one call of f does: its locals and parameters' storage left out. */
static Summary *func_walk(Func *f)
{
	Walk w = { 0 };

	w.sum = ARENA_NEW(Summary);
	w.src = f->src;
	w.depth = 1;
	for (uint32_t i = 0; i < f->params.len; i++)
		array_push(&w.priv, f->params.items[i]);
	for (uint32_t i = 0; i < f->locals.len; i++) {
		Var *v = f->locals.items[i];

		if (v->storage != SC_STATIC && v->storage != SC_EXTERN)
			array_push(&w.priv, v);
	}
	if (f->body)
		walk_stmt(&w, f->body);
	if (f->unmodelled.len) {
		for (uint32_t i = 0; i < f->unmodelled.len; i++)
			if (BARRIER_KINDS & (1u << f->unmodelled.items[i].kind))
				set_barrier(&w, NULL);
	}
	walk_done(&w);
	return w.sum;
}

static Summary *mt_summary(Func *f, const MT *mt, const Env *env)
{
	Walk w = { 0 };

	w.sum = ARENA_NEW(Summary);
	w.mt = mt;
	w.src = f->src;
	for (uint32_t i = 0; i < env->len; i++)
		array_push(&w.env, env->items[i]);
	for (uint32_t i = 0; i < mt->stmts.len; i++)
		walk_stmt(&w, mt->stmts.items[i]);
	if (mt->unmodelled & BARRIER_KINDS)
		set_barrier(&w, NULL);
	walk_done(&w);
	return w.sum;
}

static void branch_env(Env *env, const MT *c);

/*
 * The callee g's prologue (its top-level statements outside loops) and,
 * when part is given, that one top-level loop with the chunk's ranges, in
 * g's terms: its locals and its parameters' storage left out.  NULL when
 * the part is not a top-level loop of g or the chunk cannot be bound.
 */
static Summary *chunk_walk(Func *g, const SplitLoop *part, int64_t lo, int64_t hi)
{
	Walk w = { 0 };
	bool found = part == NULL, ok;

	w.sum = ARENA_NEW(Summary);
	w.src = g->src;
	w.depth = 1;
	w.chunk = true;
	w.part = part;
	w.lo = lo;
	w.hi = hi;
	for (uint32_t i = 0; i < g->params.len; i++)
		array_push(&w.priv, g->params.items[i]);
	for (uint32_t i = 0; i < g->locals.len; i++) {
		Var *v = g->locals.items[i];

		if (v->storage != SC_STATIC && v->storage != SC_EXTERN)
			array_push(&w.priv, v);
	}
	A.cur = g;
	for (uint32_t i = 0; i < g->mt->children.len; i++) {
		MT *c = g->mt->children.items[i];

		if (c->kind == MT_RB) {
			if (part && c->loop == part->top) {
				walk_stmt(&w, c->loop);
				found = true;
			}
			continue;
		}
		for (uint32_t j = 0; j < c->stmts.len; j++)
			walk_stmt(&w, c->stmts.items[j]);
	}
	for (uint32_t i = 0; i < g->unmodelled.len; i++)
		if (BARRIER_KINDS & (1u << g->unmodelled.items[i].kind))
			set_barrier(&w, NULL);
	ok = found && !w.failed;
	walk_done(&w);
	A.cur = NULL;
	return ok ? w.sum : NULL;
}

/* The callee's top-level workspaces in a chunk's summary become sb's own objects. */
static void rebase_scratch(Summary *sum, const MT *sb)
{
	for (uint32_t i = 0; i < sum->acc.len; i++) {
		Region *r = &sum->acc.items[i].region;
		VarInfo *bi = info_lookup(r->base);
		const Scratch *sc;

		if (!bi || bi->kind != OBJ_ALLOC || !bi->origin)
			continue;
		sc = scratch_of(bi->origin);
		if (sc && sc->top)
			r->base = scratch_object(sb, sc->var);
	}
}

Summary *summarize_chunk(const MT *sb, const SplitLoop *part, int64_t lo, int64_t hi)
{
	Func *g = sb && sb->kind == MT_SB ? sb->callee : NULL;
	FuncInfo *fi = g ? finfo(g) : NULL;
	Summary *inner;
	Walk w = { 0 };

	if (!fi || fi->state != FS_DONE || !g->mt || !sb->call || !sb->func ||
	    sb->call->callee_func != g)
		return NULL;
	inner = chunk_walk(g, part, lo, hi);
	if (!inner)
		return NULL;
	w.sum = ARENA_NEW(Summary);
	w.mt = sb;
	w.src = sb->func->src;
	A.cur = sb->func;
	branch_env(&w.env, sb);
	for (uint32_t i = 0; i < sb->call->args.len; i++)
		walk_expr(&w, sb->call->args.items[i]);
	map_summary(&w, sb->call, g, inner);
	if (sb->unmodelled & BARRIER_KINDS)
		set_barrier(&w, NULL);
	walk_done(&w);
	A.cur = g;
	rebase_scratch(w.sum, sb);
	A.cur = NULL;
	return w.sum;
}

Summary *summarize_slice(const MT *rb, const SplitLoop *sl, int64_t lo, int64_t hi)
{
	Func *f = rb && rb->kind == MT_RB ? rb->func : NULL;
	FuncInfo *fi = f ? finfo(f) : NULL;
	Walk w = { 0 };
	bool ok;

	if (!fi || fi->state != FS_DONE || !sl || sl->top != rb->loop || sl->loop != rb->loop)
		return NULL;
	w.sum = ARENA_NEW(Summary);
	w.mt = rb;
	w.src = f->src;
	w.chunk = true; /* locals declared in the loop are private: the walk's depth is 1 there */
	w.part = sl;
	w.lo = lo;
	w.hi = hi;
	A.cur = f;
	branch_env(&w.env, rb);
	walk_stmt(&w, rb->loop);
	ok = !w.failed;
	walk_done(&w);
	A.cur = NULL;
	return ok ? w.sum : NULL;
}

/* What the branches an MT runs under say of its variables. */
static void branch_env(Env *env, const MT *c)
{
	for (const MT *m = c; m->branch_mt; m = m->branch_mt) {
		const MT *t = m->branch_mt;
		const Stmt *s = t->stmts.len ? t->stmts.items[0] : NULL;

		const Stmt *arm = !s || s->kind != ST_IF ? NULL : m->branch_dir ? s->then : s->els;

		if (arm && c->start >= arm->start && c->end <= arm->end)
			narrow_arm(env, s->expr, !m->branch_dir, arm);
	}
}

static void summarize_level(Func *f, MT *parent, Env *env)
{
	for (uint32_t i = 0; i < parent->children.len; i++) {
		MT *c = parent->children.items[i];
		uint32_t mark = env->len;

		branch_env(env, c);
		c->summary = mt_summary(f, c, env);
		if (c->kind == MT_RB && c->loop && c->loop->loop) {
			push_loop(env, loop_info(c->loop, env));
			summarize_level(f, c, env);
		}
		env->len = mark;
	}
}

/* ------------------------------------------------------------------ */
/* Driver                                                              */
/* ------------------------------------------------------------------ */

static void collect_callee(Expr *e, void *ctx)
{
	if (e->kind == EX_CALL && e->callee_func)
		array_push((Array(Func *) *)ctx, e->callee_func);
}

static void analyse_func(Func *f)
{
	FuncInfo *fi = finfo(f);
	Array(Func *) callees = { 0 };
	Env env = { 0 };

	fi->state = FS_BUSY;
	visit_stmt(f->body, collect_callee, NULL, &callees);
	for (uint32_t i = 0; i < callees.len; i++) {
		FuncInfo *ci = finfo(callees.items[i]);

		if (ci && ci->state == FS_NONE)
			analyse_func(callees.items[i]);
	}
	array_free(&callees);
	A.cur = f;
	values_stmt(f->body, &env);
	escape_params(f);
	escape_stmts(f->body);
	fi->sum = func_walk(f);
	if (f->mt) {
		f->mt->summary = fi->sum;
		env.len = 0;
		summarize_level(f, f->mt, &env);
	}
	array_free(&env);
	fi->state = FS_DONE;
	A.cur = NULL;
}

/*
 * What each parameter may point into, along the chains of calls: a
 * function callable from outside (not static, main, or used as a value)
 * may get any escaping object; a parameter passed on as another's
 * argument hands over everything it may get.  A fixpoint over the edges.
 */
static void finish_receives(void)
{
	bool changed = true;

	for (uint32_t i = 0; i < A.prog->funcs.len; i++) {
		Func *f = A.prog->funcs.items[i];

		if (!finfo(f)->external)
			continue;
		for (uint32_t j = 0; j < f->params.len; j++)
			info(f->params.items[j])->recv_unknown = true;
	}
	while (changed) {
		changed = false;
		for (uint32_t i = 0; i < A.edges.len; i++) {
			VarInfo *from = info(A.edges.items[i].from), *to = info(A.edges.items[i].to);

			if (from->recv_unknown && !to->recv_unknown) {
				to->recv_unknown = true;
				changed = true;
			}
			for (uint32_t j = 0; j < from->receives.len; j++) {
				if (!in_list(&to->receives, from->receives.items[j])) {
					array_push(&to->receives, from->receives.items[j]);
					changed = true;
				}
			}
		}
	}
}

void compute_summaries(Program *prog)
{
	static const int goto_kinds = (1 << UM_GOTO) | (1 << UM_COMPUTED_GOTO) | (1 << UM_SETJMP);

	reset_state();
	A.prog = prog;
	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		Func *f = prog->funcs.items[i];
		FuncInfo fi = { 0 };

		while (A.funcs.len < (uint32_t)f->id)
			array_push(&A.funcs, fi);
		fi.func = f;
		fi.external = f->storage != SC_STATIC || strcmp(intern_name(f->name), "main") == 0;
		for (uint32_t j = 0; j < f->unmodelled.len; j++)
			fi.has_goto |= (goto_kinds >> f->unmodelled.items[j].kind) & 1;
		if (A.funcs.len == (uint32_t)f->id)
			array_push(&A.funcs, fi);
		else if ((uint32_t)f->id < A.funcs.len)
			A.funcs.items[f->id] = fi;
	}
	init_names();
	A.allocator = new_object("<allocator>", OBJ_STATE, VAR_GLOBAL, NULL, NULL, -1);
	A.io = new_object("<io>", OBJ_STATE, VAR_GLOBAL, NULL, NULL, -1);
	scan_hidden_initializers();
	for (uint32_t i = 0; i < prog->globals.len; i++) {
		Var *g = prog->globals.items[i];

		if (g->init) { /* whatever address it holds escapes */
			escape_walk(g->init);
			flow_value(g->init, FLOW_LEAK, NULL, 0);
		}
	}
	for (uint32_t i = 0; i < prog->funcs.len; i++)
		scan_defs(prog->funcs.items[i]);
	for (uint32_t i = 0; i < prog->funcs.len; i++)
		if (finfo(prog->funcs.items[i])->state == FS_NONE)
			analyse_func(prog->funcs.items[i]);
	finish_receives();
}

const Summary *func_summary(const Func *f)
{
	FuncInfo *fi = finfo(f);

	return fi ? fi->sum : NULL;
}

/* ------------------------------------------------------------------ */
/* Constant returns                                                    */
/* ------------------------------------------------------------------ */

static bool const_int(const Expr *e, int64_t *v)
{
	e = strip_casts((Expr *)e);
	if (!e)
		return false;
	if (e->kind == EX_NUM && !e->num.is_float) {
		*v = e->num.ival;
		return true;
	}
	if (e->kind == EX_UNARY && e->op == OP_NEG && const_int(e->lhs, v)) {
		*v = -*v;
		return true;
	}
	return false;
}

typedef struct Returns {
	int n;
	bool ok;
	int64_t val;
} Returns;

static void check_return(Stmt *s, void *ctx)
{
	Returns *r = ctx;
	int64_t v = 0;

	if (s->kind != ST_RETURN)
		return;
	if (!s->expr || !const_int(s->expr, &v) || (r->n > 0 && v != r->val))
		r->ok = false;
	r->val = v;
	r->n++;
}

static void no_expr(Expr *e, void *ctx)
{
	(void)e;
	(void)ctx;
}

bool func_returns_constant(const Func *f, int64_t *value)
{
	Returns r = { 0, true, 0 };
	const Stmt *last;

	if (!f->body || !f->ret || f->ret->kind == TY_VOID || f->body->body.len == 0)
		return false;
	last = f->body->body.items[f->body->body.len - 1];
	if (last->kind != ST_RETURN)
		return false; /* control may run off the end */
	visit_stmt(f->body, no_expr, check_return, &r);
	if (!r.ok || r.n == 0)
		return false;
	*value = r.val;
	return true;
}

/* ------------------------------------------------------------------ */
/* Objects                                                             */
/* ------------------------------------------------------------------ */

ObjKind obj_kind(const Var *v)
{
	VarInfo *vi = info_lookup(v);

	return vi ? vi->kind : OBJ_VAR;
}

Var *obj_origin(const Var *v)
{
	VarInfo *vi = info_lookup(v);

	return vi ? vi->origin : NULL;
}

int64_t obj_size(const Var *v)
{
	VarInfo *vi = info_lookup(v);

	if (!v)
		return -1;
	if (vi && vi->kind != OBJ_VAR)
		return vi->kind == OBJ_ALLOC ? vi->size : -1;
	if (v->scope == VAR_PARAM && is_array_type(v->type))
		return 8; /* the parameter itself is a pointer */
	return type_size(v->type);
}

bool obj_readonly(const Var *v)
{
	return v && obj_kind(v) == OBJ_VAR && v->scope != VAR_PARAM && type_is_const(v->type);
}

bool obj_escapes(const Var *v)
{
	VarInfo *vi = info_lookup(v);

	if (!v)
		return true;
	if (vi && vi->kind == OBJ_STATE)
		return false;
	if (A.all_escape && vi)
		return true;
	if (vi && (vi->kind == OBJ_POINTEE || vi->kind == OBJ_LOADED))
		return true;
	if (v->scope == VAR_GLOBAL && v->storage != SC_STATIC)
		return true; /* outside code can name it */
	if (v->scope == VAR_LOCAL && v->storage == SC_EXTERN)
		return true;
	if (!vi)
		return v->addr_taken || v->scope == VAR_PARAM;
	return vi->escapes;
}

/* What a base may stand for: itself, or a set plus anything escaping. */
typedef struct Targets {
	const Var *self;
	const VarList *set;
	bool unknown;
} Targets;

static Targets targets_of(const Var *v)
{
	VarInfo *vi = info_lookup(v);
	Targets t = { NULL, NULL, false };

	if (!v || (vi && vi->kind == OBJ_LOADED)) {
		t.unknown = true;
	} else if (vi && vi->kind == OBJ_POINTEE) {
		VarInfo *pi = info_lookup(vi->origin);

		t.set = pi ? &pi->receives : NULL;
		t.unknown = !pi || pi->recv_unknown;
	} else if (!vi && v->scope == VAR_PARAM && !is_array_type(v->type) &&
	           !is_ptr_type(v->type)) {
		t.self = v;
	} else if (!vi && v->scope == VAR_PARAM) {
		t.unknown = true; /* another stage's view: a parameter as its pointee */
	} else {
		t.self = v;
	}
	return t;
}

static bool targets_escape(const Targets *t)
{
	if (t->self && obj_escapes(t->self))
		return true;
	for (uint32_t i = 0; t->set && i < t->set->len; i++)
		if (obj_escapes(t->set->items[i]))
			return true;
	return false;
}

static bool targets_have(const Targets *t, const Var *o)
{
	return t->self == o || (t->set && in_list(t->set, o));
}

/*
 * Two bases may share storage when what they may stand for meets: a
 * distinct object only itself; a pointee what its parameter may receive;
 * an unknown pointer (and a parameter callable from outside) any escaping
 * object.  Two "anything escaping" sets are taken to meet.
 */
static void note_assumed(const Var *a, const Var *b)
{
	for (uint32_t i = 0; i + 1 < A.assumed.len; i += 2)
		if ((A.assumed.items[i] == a && A.assumed.items[i + 1] == b) ||
		    (A.assumed.items[i] == b && A.assumed.items[i + 1] == a))
			return;
	array_push(&A.assumed, a);
	array_push(&A.assumed, b);
}

void alias_assume_apart(bool on)
{
	A.assume_apart = on;
	if (on)
		A.assumed.len = 0;
}

const Var *const *alias_assumed(uint32_t *npairs)
{
	*npairs = A.assumed.len / 2;
	return A.assumed.items;
}

bool obj_may_alias(const Var *a, const Var *b)
{
	Targets ta, tb;

	if (a == b)
		return true;
	if (obj_kind(a) == OBJ_STATE || obj_kind(b) == OBJ_STATE)
		return false;
	if (A.assume_apart && obj_kind(a) == OBJ_LOADED && obj_kind(b) == OBJ_LOADED) {
		note_assumed(a, b);
		return false;
	}
	ta = targets_of(a);
	tb = targets_of(b);
	if (ta.self && tb.self)
		return false; /* two distinct objects */
	if (ta.unknown && tb.unknown)
		return true;
	if ((ta.unknown && targets_escape(&tb)) || (tb.unknown && targets_escape(&ta)))
		return true;
	if (ta.self)
		return targets_have(&tb, ta.self);
	if (tb.self)
		return targets_have(&ta, tb.self);
	for (uint32_t i = 0; ta.set && i < ta.set->len; i++)
		if (targets_have(&tb, ta.set->items[i]))
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* --dump=mfg                                                          */
/* ------------------------------------------------------------------ */

static int cmp_access(const void *x, const void *y)
{
	const Access *a = *(const Access *const *)x, *b = *(const Access *const *)y;
	int ia = a->region.base ? a->region.base->id : -1;
	int ib = b->region.base ? b->region.base->id : -1;

	return (ia > ib) - (ia < ib);
}

void summary_dump(FILE *out, const MT *mt)
{
	const Summary *s = mt->summary;
	const Access **sorted;

	if (!s)
		return;
	sorted = xmalloc((s->acc.len + 1) * sizeof(*sorted));
	for (int k = ACC_READ; k <= ACC_WRITE; k++) {
		uint32_t n = 0;

		for (uint32_t i = 0; i < s->acc.len; i++)
			if (s->acc.items[i].kind == (AccessKind)k)
				sorted[n++] = &s->acc.items[i];
		if (!n)
			continue;
		qsort(sorted, n, sizeof(*sorted), cmp_access);
		fputs(k == ACC_READ ? "reads" : "writes", out);
		for (uint32_t i = 0; i < n; i++) {
			fputc(' ', out);
			region_print(out, &sorted[i]->region);
		}
		fputc('\n', out);
	}
	free(sorted);
	if (s->barrier) {
		fputs("barrier", out);
		if (s->barrier_at && mt->func && mt->func->src) {
			uint32_t line, col;

			source_pos(mt->func->src, s->barrier_at->start, &line, &col);
			fprintf(out, " %u:%u", line, col);
		}
		fputc('\n', out);
	}
}
