/*
 * middle.h - mtpar's middle stage: access summaries and dependence
 * analysis, the macro-flow graph (MFG), earliest executable conditions
 * (EEC), the macro-task graph (MTG), static scheduling, and the parallel
 * plan (cost model, decomposition into chunks, power-aware schedule).  One
 * section per .c file of middle/, as in frontend.h.  Input: the front
 * end's macro tasks.
 */
#ifndef MTPAR_MIDDLE_H
#define MTPAR_MIDDLE_H

#include "frontend.h"

/* ------------------------------------------------------------------ */
/* region.c: byte regions of memory objects                            */
/* ------------------------------------------------------------------ */

#define REGION_END INT64_MAX /* hi of a range that runs to the end of its object */
/* lo of a range that starts before its base: only for pointee objects (OBJ_POINTEE) */
#define REGION_BEGIN INT64_MIN

/* Bytes [lo, hi) of one object. */
typedef struct RunsIndex RunsIndex; /* runs.c */
typedef struct ByteRange {
	int64_t lo, hi;
} ByteRange;
typedef Array(ByteRange) ByteRanges;

/*
 * What an access may touch: a base object and a union of byte ranges in
 * it.  base NULL means "anything a pointer from outside may reach": it
 * overlaps every object whose address escapes and every other unknown.
 * An empty range list with whole set means the whole object.  A program
 * Var as base is its own storage (for a parameter: the pointer itself);
 * what a parameter points to is its OBJ_POINTEE object (see obj_kind).
 */
/*
 * The bytes [lo + t * stride, hi + t * stride) for every row t in
 * [t0, t1] (IV_NINF, IV_PINF: rows without end) that lie in [min, max)
 * (REGION_BEGIN, REGION_END: no bound): what an access `X[e1][e2]` to an
 * array of arrays reaches, e1 the row and e2 the column range, within
 * what the whole address's range allows.  0 < hi - lo <= stride, so the
 * rows never overlap.
 */
typedef struct RowSet {
	int64_t lo, hi, stride, t0, t1, min, max;
} RowSet;

/*
 * rows refine ranges: when there are any, the region's bytes are those of
 * exact (plain ranges, sorted and disjoint) and of rows, and ranges holds
 * exact and each row set's hull, so that whoever reads only ranges reads a
 * sound superset.  Only region_overlap looks at the rows.
 */
typedef struct Region {
	Var *base;
	bool whole;              /* the whole object (ranges ignored) */
	ByteRanges ranges;       /* sorted, disjoint, merged */
	ByteRanges exact;        /* with rows: the plain ranges alone */
	Array(RowSet) rows;
} Region;

void region_init(Region *r, Var *base);
void region_add_range(Region *r, int64_t lo, int64_t hi);
void region_set_whole(Region *r);
void region_union(Region *dst, const Region *src); /* same base */
/* Adds the bytes of rs (its rows, or its hull when a region holds too many). */
void region_add_rows(Region *r, RowSet rs);
/* The bytes of rs moved by k (RowSet's hull in [*lo, *hi) when asked). */
RowSet region_rows_shift(RowSet rs, int64_t k);
void region_rows_hull(RowSet rs, int64_t *lo, int64_t *hi);
/* rs within [lo, hi) (REGION_BEGIN, REGION_END: no bound); *empty if no byte is left. */
RowSet region_rows_within(RowSet rs, int64_t lo, int64_t hi, bool *empty);
void region_free(Region *r);
/* dst becomes a deep copy of src (dst's old ranges are not freed). */
void region_copy(Region *dst, const Region *src);
/* No byte at all (never true of a whole region). */
bool region_is_empty(const Region *r);
/*
 * May the two regions share a byte?  Sound: true unless proven disjoint.
 * Same base: the ranges meet.  Different bases: obj_may_alias (objects.c).
 */
bool region_overlap(const Region *a, const Region *b);
/*
 * "tu0[0,4096)" or "ws[0,64)+[128,256)" or "tu0" (whole, or every byte of
 * an object of known size) or "*unknown*"; -inf and end for open bounds.
 */
void region_print(FILE *out, const Region *r);

/* ------------------------------------------------------------------ */
/* access.c and its parts: what each MT reads and writes               */
/* ------------------------------------------------------------------ */

typedef enum AccessKind {
	ACC_READ,
	ACC_WRITE,
} AccessKind;

typedef struct Access {
	AccessKind kind;
	Region region;
	const Expr *ref;   /* the reference, for reports (line:col); may be an argument */
	const Source *src;
} Access;

/* Reads and writes of an MT, merged per base object and kind. */
typedef struct Summary {
	Array(Access) acc;
	bool barrier;      /* calls something unknown: depends on everything */
	const Expr *barrier_at;
} Summary;

/*
 * access.c: fills mt->summary of every MT at every level, callees first
 * (interprocedural).  A function's own summary is its root MT's
 * (f->mt->summary, also acc_func_summary): what one call does to globals,
 * static locals, the pointees of its parameters and the synthetic objects
 * below, with its non-static locals and its parameters' own storage left
 * out.  An MT leaves out the objects declared in a nested scope of its own
 * statements (loop-local scalars and arrays).  Appends synthetic Vars to
 * prog->vars (ids stay dense).  Summaries and regions live for the run.
 */
void acc_compute_summaries(Program *prog);
/* Frees the analysis state of the last acc_compute_summaries (the end of a run). */
void acc_release(void);
/* f's summary (NULL before acc_compute_summaries). */
const Summary *acc_func_summary(const Func *f);
/*
 * values.c: does f return the same integer constant on every path (every
 * return statement returns that constant, as ir_const_eval folds it, and
 * the body ends in one)?  TVM's operators `return 0;`: `if (op(...) != 0)
 * return -1;` folds to a call.
 */
bool val_returns_constant(const Func *f, int64_t *value);
/*
 * summary.c: "reads a b[0,64)" and "writes c" lines (each omitted when
 * empty, sorted by object id), then "barrier LINE:COL" when the MT calls
 * something unknown.  Deterministic, for --dump=mfg.
 */
void sum_dump(FILE *out, const MT *mt);
struct SplitLoop;
/*
 * summary.c: what one call of SB sb's callee does when it runs only its prologue (its
 * top-level statements outside loops) and, unless part is NULL, the
 * top-level loop part->top with the first IV of part->loop restricted to
 * [lo, hi) when part->split (every other IV of that loop follows from the
 * first): mapped onto sb's actual arguments as sb's own summary is, the
 * arguments' reads included.  Subscripts are evaluated with the chunk's
 * ranges.  NULL when the chunk cannot be bound (part not a top-level loop
 * of the callee, an IV that does not start at a constant, a value that
 * leaves its type).  Arena-owned; needs acc_compute_summaries.
 */
Summary *sum_chunk(const MT *sb, const struct SplitLoop *part, int64_t lo, int64_t hi);
/* A slice of the level's own loop rb, in place: its first IV in [lo, hi), in rb's terms. */
Summary *sum_slice(const MT *rb, const struct SplitLoop *sl, int64_t lo, int64_t hi);
/*
 * workspace.c: a workspace a function takes from an allocator and gives
 * back itself (TVM 0.8's `void* data_pad = TVMBackendAllocWorkspace(1, 0,
 * n, 2, 32);` ... `TVMBackendFreeWorkspace(1, 0, data_pad)`).  A chunk clone must not
 * call the allocator (TVM's is not thread-safe), so it gets the memory
 * another way: a top-level workspace, which every part shares, from its
 * caller, which takes it before the parallel region and gives it back
 * after; one declared in a nested block (fresh in every iteration) from a
 * buffer on the clone's stack.  The pointer is defined once, its address
 * never taken, its memory reached through no unknown pointer, and one call
 * in the same block frees it; the allocator's arguments are constants.
 */
typedef struct Scratch {
	Var *var;        /* the pointer local */
	Stmt *decl;      /* its declaration, whose initializer is the allocation */
	Expr *alloc;     /* the allocator call (the initializer without its casts) */
	Expr *free;      /* the call that gives it back */
	Expr *free_ptr;  /* free's pointer argument */
	int64_t size;    /* bytes requested */
	bool top;        /* declared at the function's top level: the caller provides it */
	bool zeroed;     /* the allocator zeroes it (calloc): every use needs memory of its own */
	bool bare_free;  /* the free is a statement of its own, `FREE(v);` (void in a clone) */
} Scratch;

typedef Array(Scratch) ScratchList;

/*
 * f's workspaces.  *only: every allocation, free and I/O of f (its callees
 * included) is one of them, so a clone that replaces them touches none of
 * the allocator's or the output's state.  Computed once; needs
 * acc_compute_summaries.
 */
const ScratchList *scratch_list(const Func *f, bool *only);
/* The workspace of f that pointer local v holds, NULL if none. */
const Scratch *scratch_var(const Func *f, const Var *v);
/*
 * Is s one of f's workspace declarations, the statement that frees one, or
 * `if (v == NULL) return K;` for one (each does nothing in a clone)?
 */
bool scratch_stmt(const Func *f, const Stmt *s);
/*
 * Summaries of chunks (sum_chunk) keep a top-level workspace: every
 * chunk of one call shares it, so its parts depend on each other through
 * it.  It is the object of the buffer the caller passes: scratch_object,
 * by default one per SB and workspace ("*VAR@MTn"), or the one that
 * scratch_bind gave (a buffer that several calls share, which orders
 * them through it).  Bind before summarizing chunks.
 */
Var *scratch_buffer(const char *name);                        /* a new buffer object */
void scratch_bind(const MT *sb, const Var *local, Var *buffer); /* NULL: its own again */
Var *scratch_object(const MT *sb, const Var *local);

/*
 * objects.c: what a Region's base stands for.  Besides program Vars (their own
 * storage), acc_compute_summaries makes synthetic Vars (src NULL, type an
 * array of bytes):
 *   OBJ_POINTEE "*p": the memory a pointer or array parameter p points to
 *     on entry, offsets relative to p (ranges may start at REGION_BEGIN);
 *     scope VAR_PARAM, func the owner.  A call maps it onto the argument.
 *   OBJ_ALLOC "*p": fresh memory a local pointer p got from malloc,
 *     calloc or TVMBackendAllocWorkspace; scope VAR_LOCAL.
 *   OBJ_STATE "<allocator>" (every allocation and free reads and writes
 *     it, so they stay ordered: TVM's workspace pool is not thread-safe)
 *     and "<io>" (output and volatile accesses).
 *   OBJ_LOADED "*p": the memory a pointer local p points to, p defined once
 *     at its function's top level by a load (`p = t->data`, TVM's
 *     DLTensor fields), offsets relative to p; scope VAR_LOCAL.  It may be
 *     anything escaping, another loaded pointer's memory included, unless
 *     assumed apart (obj_assume_apart).  A call's summary sees it as an
 *     unknown pointer: another activation loads another value.
 */
typedef enum ObjKind {
	OBJ_VAR,
	OBJ_POINTEE,
	OBJ_ALLOC,
	OBJ_STATE,
	OBJ_LOADED,
} ObjKind;

ObjKind obj_kind(const Var *v);
/* OBJ_POINTEE: the parameter; OBJ_ALLOC: the pointer local; else NULL. */
Var *obj_origin(const Var *v);
/* Bytes, -1 unknown (always for OBJ_POINTEE). */
int64_t obj_size(const Var *v);
/* A const-qualified object: no legal write reaches it. */
bool obj_readonly(const Var *v);
/*
 * May two different bases share storage?  NULL is an unknown pointer.
 * Distinct objects never; a pointee overlaps what its parameter may
 * receive at the program's call sites (anything escaping when the function
 * can be called from outside); an unknown pointer overlaps escaping objects.
 */
bool obj_may_alias(const Var *a, const Var *b);
/*
 * While on (f, the planned function, not NULL), two different memories
 * that only a run-time check can tell apart do not alias: OBJ_LOADED
 * objects, and the pointees of f's parameters that f never assigns when
 * callers the program does not show may pass anything (an exported
 * function: TVM's __tvm_main__ with its workspace pointers).
 * obj_may_alias notes each pair it answered so: a plan that uses the
 * answers checks at run time that those pointers' ranges are apart.
 * Turning it on forgets the pairs noted before; obj_assumed lists them,
 * two objects per pair.
 */
void obj_assume_apart(const Func *f);
const Var *const *obj_assumed(uint32_t *npairs);

/* ------------------------------------------------------------------ */
/* Access analysis internals: shared by access.c, interval.c, names.c, */
/* values.c, ranges.c, objects.c, workspace.c and summary.c;            */
/* not for other passes                                                 */
/* ------------------------------------------------------------------ */

typedef struct VarInfo VarInfo;

/* interval.c: intervals [lo, hi] over int64, IV_NINF/IV_PINF as -inf/+inf */
#define IV_NINF INT64_MIN
#define IV_PINF INT64_MAX
#define IV_TOP ((Ival){ IV_NINF, IV_PINF })

typedef struct Ival {
	int64_t lo, hi;
} Ival;

/* Wide arithmetic: the infinities widen to +-2^100, results clamp back. */
typedef __int128 IvWide;
IvWide iv_wide_lo(int64_t v);
IvWide iv_wide_hi(int64_t v);
int64_t iv_clamp_lo(IvWide w);
int64_t iv_clamp_hi(IvWide w);

Ival iv_const(int64_t c);
bool iv_is_const(Ival a);
bool iv_is_top(Ival a);
Ival iv_join(Ival a, Ival b);
/* Intersection; *empty tells when there is none (a is returned then). */
Ival iv_meet(Ival a, Ival b, bool *empty);
Ival iv_add(Ival a, Ival b);
Ival iv_neg(Ival a);
Ival iv_mul(Ival a, Ival b);
Ival iv_div(Ival a, Ival b);
Ival iv_mod(Ival a, Ival b);
Ival iv_shr(Ival a, Ival b);
Ival iv_shl(Ival a, Ival b);
Ival iv_and(Ival a, Ival b);
Ival iv_or(Ival a, Ival b);
/* A value converted to type t: exact when it fits, else whatever t holds. */
Ival iv_convert(Ival v, const Type *t);
/* Every value an object of integer type t can hold; IV_TOP for others. */
Ival iv_of_type(const Type *t);


/* names.c: identifiers that are neither Vars nor defined functions */
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
	EXT_ALLOC,    /* returns fresh memory; arg: the size argument, EXT_ARG_COUNT_SIZE for n*m */
	EXT_FREE,     /* arg: the pointer argument */
	EXT_IO,       /* output: reads and writes <io> */
	EXT_ERRNO,    /* a math function that may set errno, in a program that uses errno: reads and writes <io> */
} ExtKind;

/* EXT_ALLOC's arg for calloc(n, m): n*m bytes, and zeroed. */
enum { EXT_ARG_COUNT_SIZE = -2 };

/*
 * Learns the library's and the sources' names (#defines, enumerators) of
 * acc.prog; the program's own functions win over a macro of the same name.
 */
void names_init(void);
/* Frees what names_init made (the end of a run). */
void names_release(void);
/* What an interned name stands for (NM_UNKNOWN when nothing is known). */
NameKind names_kind(int name);
/* A constant of known value: NULL, INT_MAX, `#define N 64`. */
bool names_value(int name, int64_t *val);
/*
 * Calls of a function whose contract is known by name (the C library's
 * memcpy and malloc, TVM's TVMBackendAllocWorkspace) mean that contract
 * even where the program defines the function (a test harness's pool):
 * their callee_func is cleared.  Before mt_build.
 */
void names_unbind_contracts(Program *prog);
/* The library function a call names, EXT_UNKNOWN if none; *arg as for ExtKind. */
ExtKind names_call_ext(const Expr *call, int *arg);
/* Globals named in a pointer's initializer that pp_scan hid escape. */
void names_scan_hidden_initializers(void);

/* values.c: integer intervals and pointer targets */
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
 * A pointer value, or (from val_loc) an lvalue: base object, byte
 * offset interval, and the pointee (lvalue) type when known.
 */
typedef struct Ptr {
	PtrKind kind;
	Var *base;
	Ival off;
	Type *type;
} Ptr;

/* A variable's range; or, var NULL, a pure expression's (from a condition). */
typedef struct Bind {
	const Var *var;
	Ival val;
	const Expr *expr;
} Bind;

/* What holds where an expression is evaluated: innermost binding last. */
typedef Array(Bind) Env;

const Bind *val_env_find(const Env *env, const Var *v);
void val_env_push(Env *env, const Var *v, Ival val);
Ptr val_ptr_make(PtrKind kind);
Ptr val_ptr_obj(Var *base, Ival off, Type *type);
/* Every value integer expression e may take in env (NULL: none); IV_TOP when unknown. */
Ival val_int(const Expr *e, const Env *env);
/* Where the pointer value of e leads. */
Ptr val_ptr(const Expr *e, const Env *env);
/* The storage lvalue e designates: base, byte offset, and its type. */
Ptr val_loc(const Expr *e, const Env *env);
/*
 * The rows that an access of size bytes at lvalue e, `X[e1][e2]` of an
 * array of arrays, reaches in object *base; false when e is not of that
 * shape or X's start is not one known offset.
 */
bool val_rows(const Expr *e, const Env *env, int64_t size, Var **base, RowSet *rs);
/* The integer value of variable v outside any environment. */
Ival val_var_int(Var *v);
/* The pointer value of variable v (an array decays). */
Ptr val_var_ptr(Var *v);
/* The value of pointer v's definition rhs, evaluated in env. */
Ptr val_def_ptr(Var *v, Expr *rhs, const Env *env);
/* A local or parameter whose value the analysis may follow. */
bool val_followable(const Var *v);
/* Defined exactly once, by a plain '=' or an initializer. */
bool val_single_def(const VarInfo *vi);
/* Bytes an allocator call requests (arg as for EXT_ALLOC), -1 unknown. */
int64_t val_alloc_size(const Expr *call, int arg);

/* ranges.c: definitions, narrowing by conditions, loops' induction ranges */
/* One loop's induction variables with their ranges inside the body. */
typedef struct LoopInfo {
	const Stmt *loop;
	uint32_t n;
	Bind *binds;
} LoopInfo;

/* Defines the parameters' objects and counts every definition in f. */
void range_scan_defs(Func *f);
/* The induction ranges of s, computed in env (the caller frees binds and the LoopInfo). */
LoopInfo *range_compute_loop(const Stmt *s, const Env *env);
/* The same, computed once per loop and kept. */
LoopInfo *range_loop(const Stmt *s, const Env *env);
void range_push_loop(Env *env, const LoopInfo *li);
/* Is the function being analysed free of goto (conditions and loop headers hold)? */
bool range_goto_free(void);
/* Narrows env for the arm s of a branch on cond (taken when !neg). */
void range_narrow_arm(Env *env, const Expr *cond, bool neg, const Stmt *s);
/* Narrows for a conditional expression's arm: no label can enter it. */
void range_narrow_expr(Env *env, const Expr *cond, bool neg, const Expr *arm);
/* The value of every single definition in s, where it stands, with the loops' ranges. */
void range_values(Stmt *s, Env *env);

/* objects.c: the objects, escape and may-alias */
typedef Array(Var *) ObjList;

/* What the analysis knows of one Var (program or synthetic), by Var.id. */
struct VarInfo {
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
	ObjList receives;     /* parameter: objects call sites pass it */
};

/* A synthetic object (src NULL, an array of size bytes) appended to acc.prog->vars. */
Var *obj_new(const char *name, ObjKind kind, VarScope scope, Func *f, Var *origin,
             int64_t size);
/* The object "*p" of kind OBJ_POINTEE, OBJ_ALLOC or OBJ_LOADED that p points to, made once. */
Var *obj_star(Var *p, ObjKind kind, int64_t size);
bool obj_in_list(const ObjList *l, const Var *v);
/* Where the addresses f handles go (its callees are done): escapes, receives, leaks. */
void obj_escape_func(Func *f);
/* A global's initializer: whatever address it holds escapes. */
void obj_escape_init(Expr *init);
/* What each parameter may receive, closed over the chains of calls. */
void obj_finish_receives(void);

/* workspace.c */
/* Is e the allocation or the free of a workspace of acc.cur? */
bool scratch_call(const Expr *e);

/* summary.c: the walk that records accesses */
/* What one call of f does: its locals and its parameters' storage left out. */
Summary *sum_func(Func *f);
/* The summaries of parent's children, and theirs, with env holding around parent. */
void sum_level(Func *f, MT *parent, Env *env);

/* access.c: the analysis state, one program at a time */
typedef enum FuncState { FS_NONE, FS_BUSY, FS_DONE } FuncState;

typedef struct FuncInfo {
	Func *func;
	FuncState state;
	bool has_goto;        /* loops' induction ranges are not trusted */
	bool has_labels;      /* a label or case: control may enter a statement mid-way */
	bool external;        /* callable from outside the program */
	Summary *sum;
	bool scratch_done;    /* scratch and scratch_only are known */
	bool scratch_only;    /* every allocation, free and I/O is a workspace's */
	ScratchList scratch;  /* scratch_list */
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

typedef struct AccState {
	Program *prog;
	Array(VarInfo *) vars;   /* by Var.id */
	Array(FuncInfo) funcs;   /* by Func.id */
	LoopInfo **loops;        /* open addressing on the Stmt pointer */
	uint32_t loop_cap, loop_len;
	Array(ParamEdge) edges;
	Var *allocator, *io;
	Array(ScratchObj) scratch_objs; /* per SB and workspace, for chunks */
	bool all_escape;         /* an unmodelled expression: assume the worst */
	Func *cur;               /* function being analysed */
	const Func *assume_apart; /* obj_assume_apart: the planned function, or NULL */
	Array(const Var *) assumed; /* the pairs it answered, two by two */
} AccState;

extern AccState acc;
/* The info of a Var of the program being analysed, NULL if it has none. */
VarInfo *acc_lookup(const Var *v);
/* The same, created on demand. */
VarInfo *acc_info(Var *v);
/* The state of a function of the program, NULL if not one. */
FuncInfo *acc_func(const Func *f);

/* ------------------------------------------------------------------ */
/* dep.c: dependence between two MTs of one level                      */
/* ------------------------------------------------------------------ */

typedef enum DepKind {
	DEP_FLOW,   /* write then read */
	DEP_ANTI,   /* read then write */
	DEP_OUTPUT, /* write then write */
	DEP_BARRIER, /* an unknown call orders everything */
} DepKind;

typedef struct Dep {
	DepKind kind;
	const Access *from, *to; /* NULL for a barrier */
	Var *object;             /* the object that causes it, NULL if unknown */
} Dep;

/*
 * First dependence from `earlier` to `later` (same level), false if
 * independent.  Flow is reported before output, output before anti.
 */
bool dep_between(const MT *earlier, const MT *later, Dep *out);
/*
 * Every pair of accesses that orders `later` after `earlier` (a barrier
 * gives one DEP_BARRIER); stores at most max of them in out and returns
 * how many there are.
 */
uint32_t dep_collect(const MT *earlier, const MT *later, Dep *out, uint32_t max);
/*
 * The same on two summaries (tasks, chunks) instead of two MTs; a NULL or
 * barrier summary orders everything (one DEP_BARRIER).
 */
bool dep_summary_conflict(const Summary *earlier, const Summary *later, Dep *out);
uint32_t dep_summary_collect(const Summary *earlier, const Summary *later, Dep *out, uint32_t max);

/* ------------------------------------------------------------------ */
/* mfg.c: the macro-flow graph of each level                           */
/* ------------------------------------------------------------------ */

/*
 * A level is the MTs of one function body or one loop body.  Its MFG has
 * node 0 (START), nodes 1..n (the MTs, owner->children in order) and node
 * n+1 (EMT, the exit MT).  Nodes are numbered in source order, so every
 * control-flow edge goes forward and each level's graph is acyclic: loop
 * back edges stay hidden inside RBs.
 */
typedef struct MfgNode {
	MT *mt;            /* NULL for START, EMT and nodes of hand-built levels */
	int succ[2];       /* control successors: [1] on T, [0] on F or the only one; -1 none */
	bool branch;       /* two successors: a conditional branch or exit */
	bool live;         /* reachable from START */
	bool barrier;      /* unmodelled construct: ordered with every other MT */
	Array(int) cd;     /* control dependence: 2 * branch node + (1 for T) */
	struct Eec *eec;   /* earliest executable condition (eec.c) */
	struct EecFacts *facts; /* what Fin(node) implies (eec.c) */
} MfgNode;

/* A data-dependence edge from..to (from < to) and every cause, each kind/object once. */
typedef struct MfgDep {
	int from, to;
	uint32_t kinds;    /* 1u << DepKind of each cause */
	Array(Dep) causes; /* flow, anti, output, barrier; by object within a kind */
} MfgDep;

typedef struct MfgLevel {
	MT *owner;         /* function root MT or RB; NULL in a hand-built level */
	int n;             /* MTs; nodes 0..n+1 */
	MfgNode *nodes;    /* n + 2 of them */
	Array(MfgDep) deps; /* data edges as added (mfg_build: by from, then to) */
	Bitset *reach;     /* reach[v]: nodes reachable from v, v included */
	bool sequential;   /* control flow not modelled (goto, setjmp): MTs run in order */
	Unmodelled why;    /* sequential: the first construct responsible */
	Array(struct MtgEdge) mtg; /* the MTG's edges (mtg.c) */
} MfgLevel;

/* The middle stage's data of one MT, in MT.graph. */
typedef struct MTNode {
	MfgLevel *level;   /* the level it is a node of; NULL for a function's root */
	int node;          /* its node number there */
	MfgLevel *inner;   /* root or RB: the level of its children */
	double cost;       /* shown in DOT labels when >= 0; mfg_build leaves it -1 (unknown) */
} MTNode;

/* Builds every level's MFG: control flow, then data dependence (needs summaries). */
void mfg_build(Program *prog);
/* Calls fn on every level of every function, a level before those inside it. */
void mfg_each_level(Program *prog, void (*fn)(MfgLevel *lv));
/* The MT's node data, NULL before mfg_build. */
MTNode *mfg_node(const MT *mt);

/*
 * Building blocks, also used by the unit tests on hand-built levels:
 * mfg_level_new makes n MTs with no edges (arena-owned), mfg_set_next and
 * mfg_set_branch give a node's control successors, mfg_compute_control fills
 * live, reach and cd once all successors are set, mfg_add_dep records a data
 * dependence (d NULL: a barrier) and returns its edge: a new one, unless
 * the last edge added joins the same two nodes (then d becomes one more
 * cause of it).
 */
MfgLevel *mfg_level_new(MT *owner, int n);
void mfg_set_next(MfgLevel *lv, int node, int next);
void mfg_set_branch(MfgLevel *lv, int node, int on_true, int on_false);
void mfg_compute_control(MfgLevel *lv);
MfgDep *mfg_add_dep(MfgLevel *lv, int from, int to, const Dep *d);
/* The data edge from..to, NULL if none. */
const MfgDep *mfg_find_dep(const MfgLevel *lv, int from, int to);
/* Can node a reach node b along control flow (a == b included)? */
bool mfg_reaches(const MfgLevel *lv, int a, int b);
/* "MT4.2", or "EMT", or "MT3" in a hand-built level. */
void mfg_print_node(FILE *out, const MfgLevel *lv, int node);
/* "flow a, anti b, barrier" */
void mfg_print_causes(FILE *out, const MfgDep *d);
/* The first unmodelled construct of a kind in mask (1u << UnmodelledKind) inside mt. */
bool mfg_unmodelled_at(const MT *mt, uint32_t mask, Unmodelled *out);

/* ------------------------------------------------------------------ */
/* eec.c: earliest executable conditions                               */
/* ------------------------------------------------------------------ */

/*
 * EEC(i) = OR over (j,d) in CD(i) of Br(j,d), AND over data predecessors k
 * of (Fin(k) OR Skip(k)), kept in conjunctive normal form over two kinds of
 * literal, simplified (implications, mutual exclusion, absorption).  No
 * clause: true.
 */
typedef enum EecLitKind {
	EEC_FIN, /* Fin(node): the MT has finished */
	EEC_BR,  /* Br(node, dir): the MT has finished and branched towards dir */
} EecLitKind;

typedef struct EecLit {
	EecLitKind kind;
	bool dir;          /* EEC_BR: true for T */
	int node;
} EecLit;

typedef struct EecClause {
	Array(EecLit) lits; /* disjunction, sorted: Fin by node, then Br by node, T first */
} EecClause;

typedef struct Eec {
	Array(EecClause) clauses; /* conjunction, sorted: control clauses first */
	bool is_false;     /* never satisfiable (a dead MT) */
} Eec;

/* Fills nodes[1..n+1].eec of every level.  Needs mfg_build. */
void eec_compute(Program *prog);
/* The same for one level whose control and data edges are complete. */
void eec_compute_level(MfgLevel *lv);
/* "(Fin(MT2) OR Br(MT1,F)) AND Fin(MT3)", "true" or "false". */
void eec_print(FILE *out, const MfgLevel *lv, const Eec *e);

/* ------------------------------------------------------------------ */
/* mtg.c: the macro-task graph, and the --dump=mfg/--dump=mtg text      */
/* ------------------------------------------------------------------ */

/*
 * The MTG's edges into node `to` are the literals left in its simplified
 * EEC: Fin(k) gives a data edge k->to (on a level without branches, the
 * transitive reduction of the data edges), Br(j,d) an extended control
 * edge j->to.  Edges of one OR clause share a group number (1, 2, ...);
 * edges alone in their clause have group 0 and are ANDed.
 */
typedef struct MtgEdge {
	int from, to;
	bool control;      /* extended control dependence (Br), else data (Fin) */
	bool dir;          /* control: the direction */
	int group;         /* 0: AND; else the OR clause's number within `to` */
	const MfgDep *dep; /* the data dependence from..to, if there is one */
} MtgEdge;

/* Fills every level's mtg edges from the EECs.  Needs eec_compute. */
void mtg_build(Program *prog);
void mtg_build_level(MfgLevel *lv);
/* Deterministic text per function and level (--dump=mfg, --dump=mtg). */
void mtg_dump_mfg(FILE *out, const Program *prog);
void mtg_dump(FILE *out, const Program *prog);

/* ------------------------------------------------------------------ */
/* sched.c: static list scheduling of a task graph onto N cores         */
/* ------------------------------------------------------------------ */

/*
 * A generic task graph, independent of MTs: its user builds one from an
 * MTG level's tasks and chunks.  Tasks come in a topological order, so
 * every edge goes from a lower index to a higher one.  The TaskGraph and
 * its arrays belong to the caller (sched_free_graph releases a throwaway
 * one); names are borrowed and must outlive the graph and its schedules.
 */
typedef Array(uint32_t) SchedList;

typedef struct SchedTask {
	double cost;            /* estimated execution time (any unit), >= 0 */
	SchedList succ;         /* successors (indices into TaskGraph.tasks), distinct */
	SchedList pred;         /* predecessors, the same edges seen from the other end */
	Array(double) succ_bytes; /* bytes sent along each succ edge, parallel to succ */
	const char *name;       /* for dumps ("MT3", "MT5[0:16)"); NULL prints "t<index>" */
	int pinned_core;        /* -1 free; >= 0 must run on core pinned_core % ncores */
	int chunk, nchunks;     /* chunk of nchunks (>= 2) of one loop, else nchunks 0 (sched_set_chunk) */
} SchedTask;

typedef struct TaskGraph {
	Array(SchedTask) tasks;
} TaskGraph;

/* Appends a task without edges (pinned_core < 0: free); returns its index. */
uint32_t sched_add_task(TaskGraph *g, const char *name, double cost, int pinned_core);
/*
 * Task t is chunk k of n of one loop.  Where a heuristic may choose among
 * cores that serve it equally, chunk k goes to core k * ncores / n: the
 * chunks of loops over the same rows (a stencil's sweeps, a time loop's
 * steps) meet their rows on the core that wrote them, which the costs
 * cannot see.
 */
void sched_set_chunk(TaskGraph *g, uint32_t t, int k, int n);
/* Edge from -> to, from < to, carrying bytes; a duplicate keeps the larger byte count. */
void sched_add_edge(TaskGraph *g, uint32_t from, uint32_t to, double bytes);
/* Releases the arrays of a graph the caller built (not the names). */
void sched_free_graph(TaskGraph *g);
/* Per task: the longest path from it to an exit, its own cost included. Arena-owned. */
double *sched_levels(const TaskGraph *g);

/*
 * The heuristics.  Priority is the level (above), then more immediate
 * successors, then the lower index.  CP/MISF: at each moment the
 * highest-priority task whose predecessors have finished takes an idle
 * core (the lowest-numbered, or its pinned one); it decides without
 * transfers, which are charged afterwards.  CP/DT/MISF: the highest-
 * priority task whose predecessors are placed goes to the core where it
 * starts earliest, transfers included.  ETF/CP: of all such tasks and
 * cores, the pair that starts earliest, ties by priority.  Sequential:
 * everything in index order (the original program) on core 0, or on the
 * one core that pinned tasks name; not possible when they name two.
 * Aligned: CP/MISF with every chunk of a loop pinned to its own core
 * (sched_set_chunk); tried where there are chunks, and kept within 3% of
 * the best makespan.
 */
#define SCHED_KINDS(X)                  \
	X(SCHED_CP_MISF, "CP/MISF")         \
	X(SCHED_CP_DT_MISF, "CP/DT/MISF")   \
	X(SCHED_ETF_CP, "ETF/CP")           \
	X(SCHED_SEQUENTIAL, "sequential")   \
	X(SCHED_ALIGNED, "aligned")

typedef enum SchedKind {
#define X(kind, name) kind,
	SCHED_KINDS(X)
#undef X
	SCHED_NKINDS
} SchedKind;

const char *sched_kind_name(SchedKind k);

/*
 * A static schedule.  Start times always charge bytes * transfer_per_byte
 * on an edge whose two tasks run on different cores, whatever the
 * heuristic; each core's tasks run in the listed order.  Everything is
 * owned by the compilation: the struct and per-task arrays by the arena,
 * the lists (xrealloc storage) are never freed, like the IR's.
 */
typedef struct Schedule {
	int ncores;
	SchedKind kind;         /* the heuristic kept */
	const char *heuristic;  /* its name: "CP/MISF", "CP/DT/MISF", "ETF/CP", "sequential" */
	double transfer_per_byte;
	SchedList *core;        /* ncores lists: each core's tasks in execution order */
	double *start, *finish; /* per task */
	int *core_of;           /* per task */
	double makespan;        /* last finish */
	double seq_time;        /* sum of costs */
	double critical_path;   /* highest level: a lower bound of the makespan */
	SchedList cp;           /* tasks of one critical path, entry to exit */
	double tried[SCHED_NKINDS]; /* makespan of each heuristic that ran, < 0 if not */
} Schedule;

/*
 * Runs CP/MISF, CP/DT/MISF, ETF/CP and the sequential order (if pins allow)
 * and keeps the shortest (ties: the first in that order).  ncores 1 gives
 * the sequential order.  Dies on a broken graph (backward edge, negative
 * cost) or ncores < 1.
 */
Schedule *sched_graph(const TaskGraph *g, int ncores, double transfer_per_byte);
/* One heuristic only (tests, comparisons); NULL for an impossible sequential order. */
Schedule *sched_with(const TaskGraph *g, int ncores, double transfer_per_byte,
                     SchedKind kind);
/*
 * Is s valid for g: every task once on its core (pinned ones on theirs),
 * no overlap on a core, no start before a predecessor's data arrives,
 * makespan the last finish?  false with the first problem in why.
 */
bool sched_check(const TaskGraph *g, const Schedule *s, char *why, size_t size);
/*
 * Deterministic text (--dump=sched): the heuristic and the makespan of
 * every one tried, each core's tasks with start and finish, one critical
 * path, makespan, sequential time and predicted speedup seq_time/makespan.
 */
void sched_dump(FILE *out, const TaskGraph *g, const Schedule *s);
/* A time or cost as the dumps print it: integers as such, else up to three decimals. */
void sched_put_num(FILE *out, double v);

/* ------------------------------------------------------------------ */
/* power.c: frequency/voltage states and the power-aware schedule      */
/* ------------------------------------------------------------------ */

/*
 * One frequency/voltage state of a core.  A state number is an index into
 * FvTable.states: the table lists the fastest state first (state 0, the
 * nominal speed: frequency 1) and the slowest last; OFF is the state with
 * frequency 0 (the core is powered down and runs nothing).  The default
 * table: 0 FULL (f 1, V 1), 1 MID (1/2, 0.87), 2 LOW (1/4, 0.71), 3 OFF.
 */
typedef struct FvState {
	const char *name;       /* an identifier: "FULL", "MID", "LOW", "OFF" */
	double freq;            /* fraction of the nominal frequency, in [0, 1] */
	double volt;            /* fraction of the nominal voltage */
} FvState;

#define FV_FULL 0           /* the state every frame starts and ends in */

/*
 * The power model (see power.c for the energy formula).  Times are in the
 * cost model's unit (one simple operation at FULL), energies in the
 * dynamic energy of one such operation at FULL.  Arena-owned.
 */
typedef struct FvTable {
	const char *path;       /* the --fv-table file, NULL for the default table */
	Array(FvState) states;  /* fastest first; states[FV_FULL].freq == 1 */
	int off;                /* the OFF state (frequency 0), -1 if the table has none */
	double static_fraction; /* static power while on, over dynamic power at FULL */
	double switch_time;     /* one state change, cost units */
	double switch_energy;   /* one state change, energy units */
	double unit_seconds;    /* seconds per cost unit at FULL (converts --deadline) */
} FvTable;

/* FULL, MID, LOW, OFF; static 0.1; switch 10 us and 10 us of FULL power; 1 ns per unit. */
FvTable *power_fv_default(void);
/*
 * Reads a table (format in doc/mtpar.1 and doc/fv-table.example): lines of
 * `state NAME FREQ VOLT`, `static F`, `switch-time T`, `switch-energy T`,
 * `unit T`, `#` comments.  Omitted settings keep their defaults; state
 * lines, if any, replace the default states.  NULL after a GCC-style
 * diagnostic (file:line:col: error: ...).
 */
FvTable *power_fv_load(const char *path);

#define POWER_MODES(X)                                                     \
	X(POWER_NONE, "none")         /* no power control */                     \
	X(POWER_FASTEST, "fastest")   /* no longer than the schedule at FULL */ \
	X(POWER_DEADLINE, "deadline") /* the frame ends at a given deadline */

typedef enum PowerMode { POWER_MODES(X_ENUM) } PowerMode;

/*
 * One state change of a core, for the code generator: call
 * oscar_fvcontrol(core, state) at this point of the core's task list.
 * pos is the index in Schedule.core[k] of the task it precedes, or
 * core[k].len for the end of the core's work.  A change with !wake goes
 * right after the previous task (before pos's waits for other cores), so
 * that it overlaps the wait; a change with wake ends an OFF wait and goes
 * after pos's waits, right before the task runs (at pos == len: when the
 * frame ends, after the join).  An OFF wait is always a pair: OFF (!wake),
 * then the next state (wake), at the same pos.
 */
typedef struct PowerSwitch {
	uint32_t pos;           /* index into Schedule.core[k]; core[k].len: the frame's end */
	int state;              /* index into FvTable.states */
	bool wake;              /* ends an OFF wait: after the waits, not before */
	double at;              /* model time the change starts (cost units) */
} PowerSwitch;

/* A wait of a core between two of its tasks (or before its first, after its last). */
typedef struct PowerIdle {
	int core;
	uint32_t pos;           /* the task it precedes, as PowerSwitch.pos */
	double from, to;        /* in the power schedule, cost units */
	int state;              /* OFF when the wait pays for the switches, else the state kept */
} PowerIdle;

typedef Array(PowerSwitch) PowerSwitchList;

/*
 * The power schedule of one Schedule: each core keeps its tasks and their
 * order, tasks start as early as their predecessors, their core and the
 * switches allow.  Arena-owned (lists never freed, like the schedule's).
 */
typedef struct PowerSchedule {
	PowerMode mode;
	const FvTable *table;
	double horizon;         /* the frame: the makespan at FULL, or the deadline */
	int *state;             /* per task: its state (never OFF) */
	double *start, *finish; /* per task, stretched: finish - start = cost / freq */
	bool *critical;         /* per task: no slack in the schedule at FULL */
	PowerSwitchList *switches; /* per core, in execution order */
	Array(PowerIdle) idle;  /* every wait longer than zero, by core, then time */
	uint32_t nswitches;     /* all cores */
	double makespan_full;   /* the schedule at FULL: Schedule.makespan */
	double energy_full;     /* all FULL, every core on for the whole frame */
	double makespan;        /* last finish of the power schedule (<= horizon) */
	double energy;          /* energy_dynamic + energy_static + energy_switch */
	double energy_dynamic, energy_static, energy_switch;
} PowerSchedule;

const char *power_mode_name(PowerMode m);
/*
 * The power schedule of s for g (s from sched_graph or sched_with).
 * POWER_FASTEST: the frame is s->makespan, so the schedule never gets
 * longer; POWER_DEADLINE: the frame is `deadline` (cost units), and the
 * slack up to it goes to the tasks on the critical path first.  NULL when
 * the deadline is shorter than s->makespan (the caller reports it with
 * that bound).  The energy is never above energy_full.
 */
PowerSchedule *power_assign(const TaskGraph *g, const Schedule *s, const FvTable *t,
                            PowerMode mode, double deadline);
/*
 * The power schedule of a given assignment (state per task, none OFF) in a
 * frame of `horizon` cost units: times, waits, switches and energy.  NULL
 * when it does not fit the frame.  For tests and comparisons.
 */
PowerSchedule *power_evaluate(const TaskGraph *g, const Schedule *s, const FvTable *t,
                              double horizon, const int *state);
/* Is ps consistent with g and s: dependences, core order, switch times, frame? */
bool power_check(const TaskGraph *g, const Schedule *s, const PowerSchedule *ps,
                 char *why, size_t size);
/*
 * Deterministic text (--dump=sched --power): the model's parameters, each
 * core's tasks with state and stretched times and its waits with their
 * state, the number of switches, and makespan and energy all-FULL against
 * the power schedule with the saving in percent.
 */
void power_dump(FILE *out, const TaskGraph *g, const Schedule *s, const PowerSchedule *ps,
                const FvTable *t);

/* ------------------------------------------------------------------ */
/* cost.c: the cost model: operations x trip counts, memory traffic     */
/* ------------------------------------------------------------------ */

/*
 * Costs are in one unit, a simple operation: an expression counts its
 * operators and memory references, a loop its body times its trip count
 * (64 when not a constant), a call its callee's body once (a recursive call
 * nothing).  A task adds its memory traffic: each byte its summary reads or
 * writes.  A function's cost is computed once and cached.
 */
/*
 * The cost model's unit, one simple operation, is about 0.1 ns on the
 * machines of doc/benchmarks.md; measured times (--costs) and the
 * runtime's costs (plan.c) convert with this.
 */
#define COST_UNITS_PER_NS 10.0

enum { COST_MAX_OUTER = 32 };

typedef struct CostModel {
	Program *prog;
	double *fcost;          /* per Func.id: cost of one call, < 0 not known yet */
	bool *fbusy;            /* per Func.id: being costed (recursion) */
	struct {
		const Var *var;
		double mean;
	} outer[COST_MAX_OUTER]; /* cost_stmt's walk: enclosing loops' IVs at their mean values */
	uint32_t outer_len, outer_base; /* a callee's walk sees outer[outer_base..] only */
} CostModel;

void cost_init(CostModel *cm, Program *prog);
void cost_free(CostModel *cm);
/* One run of s; of one call of f. */
double cost_stmt(CostModel *cm, const Stmt *s);
double cost_func(CostModel *cm, Func *f);
/* The trips the model assumes for a loop statement. */
double cost_loop_trips(const CostModel *cm, const Stmt *s);
/* The operations of mt's statements, without memory traffic. */
double cost_mt_ops(CostModel *cm, const MT *mt);
/* ops plus the traffic of every byte s reads and writes (NULL: none). */
double cost_with_traffic(double ops, const Summary *s);
/* A task that runs mt whole: cost_with_traffic of its operations and summary. */
double cost_mt(CostModel *cm, const MT *mt);
/* Bytes two regions may share: the overlap of known ranges, else the smaller one. */
double cost_shared_bytes(const Region *a, const Region *b);

/* ------------------------------------------------------------------ */
/* plan.c: the task graph and the parallel plan                        */
/* ------------------------------------------------------------------ */

/*
 * One top-level loop (RB) of a callee that is cloned with chunk bounds.
 * Every top-level RB of the callee is a part, in order; a part whose loop
 * can be split runs as several chunks, the others as one task.  A slice
 * of a level's own loop uses one as well (top and loop: that loop).
 */
typedef Array(const Stmt *) StmtConstList;

/*
 * ivdep.c: appends to out the innermost for loops under loop (itself
 * included) in which no two iterations access the same memory with one of
 * them writing: the output marks them for the vectorizer (MTPAR_IVDEP).
 */
void ivdep_loops(const Func *f, const Stmt *loop, StmtConstList *out);
/* A scalar local or parameter whose address is never taken: the compiler keeps it in a register. */
bool ivdep_register(const Var *v);
bool ivdep_register_int(const Var *v);
/* Is the cast e an integer widened to a type that holds every value of its operand's? */
bool ivdep_keeps_value(const Expr *e);

/*
 * An array that each iteration of a split loop writes before it reads
 * (privarr.c): every chunk works on a copy of its own, declared as
 * `__typeof__(var[0]) var[rows]`, and the one that runs the last iteration
 * copies bytes [from, to) back.
 */
typedef struct PrivArray {
	const Var *var;   /* the name the loop reaches it by: a global array or a pointer parameter */
	int64_t rows;     /* elements of var[0]'s type the iteration reaches */
	int64_t from, to; /* the bytes every iteration writes (and the last chunk gives back) */
} PrivArray;

typedef struct SplitLoop {
	Stmt *top;            /* the callee's top-level loop statement (wrapped in if (part == k)) */
	Stmt *loop;           /* the loop whose first IV is split: top, or nested under 1-trip loops */
	const Stmt *outer;    /* a loop of several trips around loop that each chunk runs whole, or NULL */
	bool split;           /* chunks allowed (DOALL for the partition chosen) */
	int64_t lo, hi, step; /* first IV: lo, lo+step, ... while < hi (step > 0); 0 0 0 when the trip count is unknown */
	bool reverse;         /* the first IV counts down: a chunk [lo, hi) runs from hi - step to lo */
	bool whole_stmt;      /* top is an expression statement, not a loop: one chunk runs it */
	const char *why_not;  /* !split: why (for dumps and remarks) */
	Array(const Var *) privates; /* a slice: locals of the function it declares again */
	StmtConstList simd;   /* a slice: its innermost loops free of memory dependences (ivdep.c) */
	Array(PrivArray) privarr; /* arrays a chunk without the last iteration has copies of */
	int64_t last;         /* privarr: the first IV's value in the last iteration */
	bool privarr_tried;   /* privarr_find has run */
} SplitLoop;

/*
 * privarr.c: fills sl->privarr with the arrays that every iteration of
 * sl->loop (f's) writes wholly before it reads them, the same elements in
 * every iteration: a chunk may work on a copy, and the chunk with the last
 * iteration leaves the values the loop leaves.  Returns how many.
 */
uint32_t privarr_find(const Func *f, SplitLoop *sl);
/* Does the chunk [lo, hi) of sl work on copies of sl->privarr (it lacks the last iteration)? */
bool privarr_copies(const SplitLoop *sl, int64_t lo, int64_t hi);

/* A callee cloned as NAME__mtparID(params..., int mtpar_part, long mtpar_lo, long mtpar_hi). */
typedef struct Clone {
	Func *callee;
	int id;
	Array(SplitLoop) parts;
	BindContext ctx;      /* the constant arguments it was decomposed with (bind.c) */
} Clone;

#define TASK_KINDS(X)                                                        \
	X(TASK_WHOLE, "whole") /* a level MT run as written (fold_guard: the call alone) */ \
	X(TASK_CHUNK, "chunk") /* part `part`, first-IV values [lo, hi), of mt's callee clone */ \
	X(TASK_SLICE, "slice") /* the level's own loop mt, first-IV values [lo, hi), in place */

typedef enum TaskKind { TASK_KINDS(X_ENUM) } TaskKind;

typedef struct ParTask {
	TaskKind kind;
	MT *mt;               /* the level MT (an SB for TASK_CHUNK) */
	bool fold_guard;      /* `if (f(...) != 0) return -1;` with f always 0: emit the call alone */
	Clone *clone;         /* TASK_CHUNK */
	int part;             /* TASK_CHUNK: index into clone->parts */
	int64_t lo, hi;       /* TASK_CHUNK, TASK_SLICE: first-IV values [lo, hi) */
	SplitLoop *slice;     /* TASK_SLICE: mt's loop */
	int chunk, nchunks;   /* TASK_CHUNK, TASK_SLICE: the k-th of nchunks of its loop, lowest first */
	double cost;          /* cost model estimate, arbitrary time unit */
	Summary *summary;     /* the task's accesses in the level's terms */
	const char *name;     /* "MT3", "MT3.p1[0:16)", "MT3[0:16)" */
	const char *note;     /* TASK_WHOLE of an SB: why it was not decomposed, else NULL */
	bool on_core0;        /* allocates or frees: pinned to core 0, the thread around the region */
	int ctl;              /* p->dynamic: the task of the branch test it runs under, -1 none (branches.c) */
	bool ctl_dir;         /* the test's direction it needs */
	bool test;            /* a branch test: records the direction its arms need */
	StmtConstList simd;   /* TASK_WHOLE of an RB: its loops free of memory dependences (ivdep.c) */
} ParTask;

/*
 * A buffer the planned function takes before its parallel region for the
 * top-level workspaces of the calls it decomposes.  Calls that already
 * depend on each other share one (fewer, warmer pages); the chunks'
 * summaries see the slot's object, so sharing orders them through it.
 */
typedef struct WsSlot {
	Var *obj;             /* the buffer's object (scratch_bind) */
	const MT *sb;         /* the user with the largest workspace: the slot takes that */
	const Scratch *sc;    /* allocation and gives it back with that free */
	bool used;            /* a chunk task uses it (an SB left whole takes its own) */
	bool zeroed;          /* taken for a zeroed workspace (calloc): no other call shares it */
	uint32_t last;        /* while planning: the span index of its last user */
} WsSlot;

/*
 * A check the region's fork condition makes: the bytes [alo, ahi) from
 * where pointer local a points and [blo, bhi) from b do not meet (the
 * plan assumed their memories apart, OBJ_LOADED).
 */
typedef struct ApartCheck {
	const Var *a, *b;
	int64_t alo, ahi, blo, bhi;
} ApartCheck;

/*
 * The parallel plan of one function: the level MTs children[first..last]
 * run as `tasks` under `sched` with threads forked once; everything before
 * and after stays sequential.  Tasks are in a topological order and index
 * the TaskGraph.
 */
typedef Array(ParTask) ParTaskList;

/*
 * rtloops.c: a loop whose trips only the run knows, split at run time: an
 * OpenMP worksharing loop whose if clause holds the conditions under which
 * its iterations are independent and its work pays for the fork.
 */
typedef struct RtLoop {
	const Stmt *loop;
	const char *cond;     /* the if clause's expression, NULL: always */
	Array(const Var *) privates; /* locals of the function each thread declares again */
	StmtConstList simd;   /* its inner loops free of memory dependences (ivdep.c) */
	int ncores;
} RtLoop;

typedef struct ParPlan {
	Func *func;
	MT *root;             /* the level of the span: func->mt, or a top-level loop of func */
	double reps;          /* how often the span runs per call: 1, or that loop's trips */
	bool dynamic;         /* a task runs under a test in the span: a dynamic schedule (branches.c) */
	bool one_fork;        /* root is a loop run whole inside one region: a fork per call,
	                         a barrier per iteration (plan_one_fork) */
	uint32_t first, last; /* indices into root->children */
	ParTaskList tasks;
	TaskGraph graph;
	Schedule *sched;
	Array(Clone *) clones;
	Array(WsSlot) slots;  /* workspace buffers, in the order the region takes them */
	Array(ApartCheck) apart; /* run-time checks before the fork */
	const char *why_not;  /* set when the function stays sequential: the reason */
	ParTaskList considered; /* too small a gain: the tasks it would have had, for --report */
	double func_cost;     /* estimated cost of the whole function, span included */
	double runtime_cost;  /* the fork, join and waits of one run of the region */
	double start_cost;    /* starting the team, when the function runs once per program run */
	double gain_total;    /* what the plan saves in a program run: per run, times the runs (runs_bound) */
	bool start_only;      /* refused only because it does not pay for starting the team alone */
	double measured_ratio; /* --costs: measured over estimated cost of the tasks found, else 1 */
	struct PowerSchedule *power; /* --power: each task's FV state and each core's switches (power.c) */
	RtLoop *rt;           /* not NULL: this plan is one loop split at run time, no tasks */
} ParPlan;

typedef Array(ParPlan *) PlanList;

/* ------------------------------------------------------------------ */
/* measured.c: task times from a --profile run (--costs FILE)          */
/* ------------------------------------------------------------------ */

typedef struct MeasuredTask {
	int func;             /* interned function name */
	const char *name;     /* "MT3.p1[0:16)", as ParTask.name */
	double cost;          /* measured time per run, in the cost model's units */
	double predicted;     /* the estimate the profiled program was scheduled with */
} MeasuredTask;

typedef struct Measured {
	Array(MeasuredTask) tasks;
} Measured;

/* The task lines of a profile; NULL after a GCC-style diagnostic. */
Measured *measured_load(const char *path);
/*
 * Gives f's tasks their measured costs, and the tasks the profile lacks
 * their estimate times the measured/estimated ratio of f's tasks that it
 * has; returns that ratio (1 without a profile or a match).
 */
double measured_apply(const Measured *m, const Func *f, const MT *root, ParTaskList *tasks);
/*
 * The name a profile gives a task of the plan whose level is root's body:
 * its name, after the path of the loops around that level ("MT6/MT1[0:500)")
 * where root is not the function's (a function's regions at two levels can
 * have tasks of the same name).
 */
const char *measured_key(const MT *root, const char *name);

/*
 * Plans every function worth it (the entry-like callers of SBs) for ncores.
 * Returns the plans, one per parallelized function; a function left
 * sequential has a plan with why_not set and no tasks (those of a plan
 * whose gain is too small stay in considered, for the report).
 */
/*
 * runs.c: how many times f runs per run of the program at most (main once;
 * a function called outside loops, as often as its callers call it), or
 * HUGE_VAL where the text bounds it not.
 */
double runs_bound(const RunsIndex *ix, const Func *f);
/* Who calls each function, how often, inside loops or not: one walk of the program. */
RunsIndex *runs_index(const Program *prog);
void runs_index_free(RunsIndex *ix);

typedef struct PlanOptions {
	int ncores;
	bool unlimited;            /* --cost-model=unlimited: any gain, the fork and waits not counted */
	const Measured *measured;  /* --costs FILE, or NULL */
	bool plain_regions;   /* no region around a loop, no dynamic schedule (--api=oscar, --profile, --power) */
	/*
	 * Where not NULL, gets the plans of functions that stay sequential and
	 * that no plan returned covers (a kernel main calls after its span):
	 * --report says why each of them stays so.
	 */
	PlanList *refused;
} PlanOptions;

PlanList plan_program(Program *prog, const PlanOptions *opts);
/* --dump=sched: per plan, the tasks with cost, the graph, and the schedule. */
void plan_dump(FILE *out, const PlanList *plans);

/* The planner's state while it plans one program (plan.c, decomp.c). */
typedef struct PlanCtx {
	Program *prog;
	int ncores;
	bool unlimited;         /* --cost-model=unlimited */
	const Measured *measured; /* --costs FILE, or NULL */
	bool plain_regions;  /* PlanOptions' */
	RunsIndex *runs;        /* the call sites, for runs_bound */
	bool team_paid;         /* a plan taken so far pays for starting the threads */
	double start_refused;   /* what plans refused only for the threads' start would save */
	PlanList *refused;      /* where not NULL, the plans plan_uncovered refused (PlanOptions') */
	CostModel cost;
	Bitset *calls;          /* per Func.id: the defined functions its body calls */
	int next_clone;         /* the last Clone.id given */
	const Bitset *avoid;    /* functions with a region: a span may not reach them, or NULL */
	const MT *avoid_mt;     /* a loop with a region inside it: no span holds it, or NULL */
	const struct ParPlan *taken[4]; /* plans whose spans no later span may hold */
	uint32_t ntaken;
} PlanCtx;

/* What the planner's files share.  A reason string in the arena. */
const char *plan_fmt(const char *f, ...) MTPAR_PRINTF(1, 2);
/*
 * The integer constants the planner folds (ir_const_eval of literals, named
 * constants, casts, negation and + - * of them; not const objects): plans
 * split loops whose bounds the source spells that way.  plan_plain: e is
 * built of those and of v (NULL: none) only.
 */
bool plan_const(const Expr *e, int64_t *out);
bool plan_plain(const Expr *e, const Var *v);
/* The object a dependence runs through, for reasons and dumps. */
const char *plan_dep_object(const Dep *d);
/*
 * Does control leave s other than by falling through: return, goto, a
 * label (an entry), or a break (a continue unless cont_ok) not bound
 * inside s?  loops and switches: how many enclosing ones s sits in.  With
 * g, the callee being cloned, its workspace statements (scratch_stmt) do
 * not count: in the clone they never leave.
 */
bool plan_leaves(const Func *g, const Stmt *s, int loops, int switches, bool cont_ok);
/*
 * A counter of f that every use of which, in all of f, follows an
 * assignment in the header of the same run of a for loop, none of them a
 * loop around L (decomp.c): a thread running L may have its own.
 */
bool plan_private_counter(const Func *f, const Stmt *L, const Var *v);
/*
 * Is every use of scalar v in top inside a loop that assigns v before
 * anything else in its iteration names it?  Then no value of v flows into
 * or out of top (a temporary declared once and reused by several loops).
 */
bool plan_scalar_set_first(const Stmt *top, const Var *v);
/*
 * The least work of a region in f that pays for its fork (and the team's
 * start, shared among the region's runs per call of f).
 */
double plan_min_region_work(PlanCtx *c, const Func *f, double runs);
/*
 * rtloops.c: plans (p->rt) for the outermost loops of the functions that
 * no parallel region runs or reaches (busy) whose trip count only the run
 * knows, split at run time where a symbolic test allows; a plan with the
 * reason where it does not.
 */
void plan_rt_loops(PlanCtx *c, PlanList *plans, const Bitset *busy);
/*
 * onefork.c: why p's region, which runs the body of the loop p->root once
 * per iteration, may not fork once around the whole loop instead (a barrier
 * ending each iteration); NULL when it may.
 */
const char *plan_one_fork_why(const PlanCtx *c, const ParPlan *p);
/*
 * branches.c: spans holding a conditional branch, scheduled dynamically.
 * plan_branch_test: mt is an `if` test that may join a span with its arms.
 * plan_run_close: the last MT of the run root->children[first..last] cut
 * back so that it holds whole if statements and lies in one arm of any test
 * outside it (UINT32_MAX: no run at all).  plan_control: each task's test
 * and direction, and whether p needs a dynamic schedule.  plan_dynamic_why:
 * why p, which needs one, cannot have it (NULL when it can, or needs none).
 * plan_exclusive: a and b run under opposite arms of one test.
 */
bool plan_branch_test(const MT *mt);
uint32_t plan_run_close(const MT *root, uint32_t first, uint32_t last);
void plan_control(ParPlan *p);
const char *plan_dynamic_why(const ParPlan *p);
bool plan_exclusive(const MT *a, const MT *b);
/* Does mt run under a test among root's children [first, ...)? */
bool plan_under_test_from(const MT *mt, uint32_t first);
/* Does s access the allocator or I/O state (program order, one thread)? */
bool plan_touches_state(const Summary *s);
/*
 * Does a block of f (or a statement standing for one, a folded `if`) hold
 * part of the bytes [start, end) and not all of them, nor all of it lie
 * inside?  A span whose text does is not one run of statements: the region
 * replacing it would move a brace, and with it statements in or out of the
 * sequential fallback.
 */
bool plan_crosses_block(const Func *f, uint32_t start, uint32_t end);
/*
 * Are all of g's allocations and frees workspaces (scratch_list)?  Then its
 * clone touches no allocator state, so its chunks may run anywhere; run
 * whole, it stays on core 0, the thread that runs the code around the region.
 */
bool plan_workspace_only(const Func *g);

/* ------------------------------------------------------------------ */
/* decomp.c: one task into chunks: callee clones and loop slices        */
/* ------------------------------------------------------------------ */

/* One chunk of a decomposed SB or sliced loop, before it becomes a ParTask. */
typedef struct Chunk {
	int part;               /* index into the clone's parts */
	int64_t lo, hi;         /* first-IV values [lo, hi) */
	Summary *sum;           /* sum_chunk's or sum_slice's, in the caller's terms */
	double cost;
} Chunk;

typedef Array(Chunk) ChunkList;

/*
 * Decomposes SB sb of pl's function into chunks of its callee's top-level
 * loops (out), each loop split into at most c->ncores chunks when their
 * summaries are pairwise independent; returns pl's clone of the callee with
 * those split decisions (made once per plan).  NULL with the reason the call
 * stays whole in why.
 */
Clone *decomp_call(PlanCtx *c, ParPlan *pl, MT *sb, ChunkList *out, const char **why);
/*
 * Does every chunk call of a decomposed g run top-level statement s (a
 * declaration, a local's setting, a workspace's allocation), rather than
 * the one part that s is?
 */
bool decomp_in_prologue(const Func *g, const Stmt *s);
/*
 * The level's own loop mt cut into slices of its first IV's range (out)
 * when they are independent; each runs the loop's text in place.  sl
 * (caller-owned) describes the loop.  False with the reason in why.
 */
bool decomp_loop(PlanCtx *c, MT *mt, SplitLoop *sl, ChunkList *out, const char **why);

/* ------------------------------------------------------------------ */
/* report.c: remarks for users (--report)                              */
/* ------------------------------------------------------------------ */

/* One remark per MT on stderr. */
void report_emit(const Program *prog);
/*
 * --report, for the plans: per planned function, parallelized (tasks,
 * cores, heuristic, predicted speedup) or kept sequential and why; per
 * decomposed call, each loop split into chunks or why not.
 */
void report_plans(const PlanList *plans);

#endif /* MTPAR_MIDDLE_H */
