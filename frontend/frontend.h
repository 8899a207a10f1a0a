/*
 * frontend.h - mtpar's front end: sources, preprocessor scan, tree-sitter
 * parse, lowering to the IR, and the cut into macro tasks (BB, RB, SB).
 * One section per .c file of frontend/; the later stages include this
 * header for the IR and the shared containers.
 */
#ifndef MTPAR_FRONTEND_H
#define MTPAR_FRONTEND_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ------------------------------------------------------------------ */
/* util.c: memory, containers, interning, diagnostics                  */
/* ------------------------------------------------------------------ */

#if defined(__GNUC__)
#define MTPAR_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define MTPAR_NORETURN __attribute__((noreturn))
#else
#define MTPAR_PRINTF(f, a)
#define MTPAR_NORETURN
#endif

/* Allocation that dies on exhaustion.  Caller owns the result. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrndup(const char *s, size_t n);

/*
 * One arena per compilation: IR nodes are never freed one by one.
 * arena_alloc returns zeroed memory owned by the arena; arena_free_all
 * releases everything (at exit, or between unit tests).
 */
void *arena_alloc(size_t n);
char *arena_strndup(const char *s, size_t n);
void arena_free_all(void);
#define ARENA_NEW(T) ((T *)arena_alloc(sizeof(T)))

/* Broken invariant: print and abort.  Never used for bad input. */
MTPAR_NORETURN void die(const char *fmt, ...) MTPAR_PRINTF(1, 2);

/*
 * Typed growable array, after tree-sitter's array.h.  Storage comes from
 * xrealloc: an Array that lives in the IR is never freed (it belongs to the
 * compilation, like the arena); a temporary one is released with array_free.
 */
#define Array(T)               \
	struct {                   \
		T *items;              \
		uint32_t len, cap;     \
	}
#define array_push(a, x)                                                    \
	(array_reserve_((void **)&(a)->items, &(a)->cap, (a)->len + 1,           \
	                sizeof(*(a)->items)),                                    \
	 (a)->items[(a)->len++] = (x))
#define array_last(a) ((a)->items[(a)->len - 1])
#define array_free(a) (free((a)->items), (a)->items = NULL, (a)->len = (a)->cap = 0)
void array_reserve_(void **items, uint32_t *cap, uint32_t need, size_t elem);

/* Bitset over small integers (MT ids, object ids), after QBE's BSet. */
typedef struct Bitset {
	uint32_t nbits;
	uint64_t *words; /* ceil(nbits/64) words, arena-owned */
} Bitset;
void bitset_init(Bitset *b, uint32_t nbits);
void bitset_set(Bitset *b, uint32_t i);
void bitset_clear(Bitset *b, uint32_t i);
bool bitset_has(const Bitset *b, uint32_t i);
void bitset_union(Bitset *dst, const Bitset *src); /* same nbits */
bool bitset_equal(const Bitset *a, const Bitset *b);
uint32_t bitset_count(const Bitset *b);
/* Next set bit at or after *i; false when none.  for (i=0; bitset_iter(b,&i); i++) */
bool bitset_iter(const Bitset *b, uint32_t *i);

/* Identifiers interned to small integers; 0 is "no name". */
int intern(const char *s, size_t n);
const char *intern_name(int id);

/* ------------------------------------------------------------------ */
/* source.c: input files and positions                                 */
/* ------------------------------------------------------------------ */

typedef enum HideKind {
	HIDE_INACTIVE,    /* a branch of #if/#ifdef that the define set turns off */
	HIDE_DIRECTIVE,   /* an evaluated #if/#ifdef/#elif/#else/#endif line */
	HIDE_MACRO,       /* use of an object-like macro expanding to specifiers */
	HIDE_ATTRIBUTE,   /* __attribute__((...)) or __declspec(...) */
	HIDE_INITIALIZER, /* '= { ... }' of a large top-level initializer */
	HIDE_BITFIELD,    /* unnamed bit-field 'unsigned : 0;', which tree-sitter-c cannot parse */
} HideKind;

/* A byte range [start, end) that tree-sitter does not see. */
typedef struct Hidden {
	uint32_t start, end;
	HideKind kind;
	const char *expansion; /* HIDE_MACRO: replacement text, else NULL */
} Hidden;

typedef struct Source {
	const char *path;    /* as given on the command line */
	const char *text;    /* whole file, NUL-terminated; lives for the run */
	uint32_t len;        /* bytes, without the NUL */
	uint32_t *line_start; /* byte offset of each line */
	uint32_t nlines;
	Array(Hidden) hidden; /* sorted, disjoint; filled by pp_scan */
} Source;

/*
 * Reads a C source file.  Missing, unreadable, directory, empty, binary
 * (NUL bytes) and non-UTF-8 files get a diagnostic and NULL.
 */
Source *source_read(const char *path);
/* 1-based line and column (in bytes) of a byte offset. */
void source_pos(const Source *src, uint32_t byte, uint32_t *line, uint32_t *col);
/* Prints the 1-based line range of bytes [start, end): "12" or "12-30". */
void source_print_lines(FILE *out, const Source *src, uint32_t start, uint32_t end);
/* The hidden span containing byte, or NULL. */
const Hidden *source_hidden_at(const Source *src, uint32_t byte);

/* GCC-style diagnostics: "file:line:col: error: msg".  Count of errors so far. */
void error_at(const Source *src, uint32_t byte, const char *fmt, ...) MTPAR_PRINTF(3, 4);
void warning_at(const Source *src, uint32_t byte, const char *fmt, ...) MTPAR_PRINTF(3, 4);
void remark_at(const Source *src, uint32_t byte, const char *fmt, ...) MTPAR_PRINTF(3, 4);
/* "mtpar: error: msg" for trouble that has no position. */
void error_plain(const char *fmt, ...) MTPAR_PRINTF(1, 2);
int error_count(void);

/* ------------------------------------------------------------------ */
/* pp.c: the preprocessor scan that makes generator output parse       */
/* ------------------------------------------------------------------ */

typedef struct PPDefine {
	const char *name;
	const char *value; /* NULL for -U */
} PPDefine;

typedef struct PPConfig {
	Array(PPDefine) defines; /* -D NAME[=VALUE] and -U NAME, in command-line order */
	Array(const char *) include_dirs; /* -I DIR */
	uint32_t initializer_min; /* hide '= {...}' initializers of at least this many bytes */
} PPConfig;

/*
 * Fills src->hidden: inactive conditional branches and the directive lines
 * that were evaluated, uses of object-like macros that expand to storage
 * classes, qualifiers, attributes or nothing, __attribute__ lists, and large
 * top-level initializers.  Everything else is left for tree-sitter, which
 * parses #include and #define lines by itself.  Returns false after a
 * diagnostic (unterminated #if, #else after #else, bad #if expression).
 */
bool pp_scan(Source *src, const PPConfig *cfg);
/* One line per hidden span: kind, line:col-line:col, expansion (--dump=pp). */
void pp_dump(FILE *out, const Source *src);

/* ------------------------------------------------------------------ */
/* IR: types, objects, expressions, statements, functions              */
/* ------------------------------------------------------------------ */

/* X-macro lists give the enum and the printable names (QBE's ops.h). */
#define TYPE_KINDS(X)        \
	X(TY_VOID, "void")       \
	X(TY_BOOL, "bool")       \
	X(TY_INT, "int")         /* integer of size bytes, is_unsigned; char too */ \
	X(TY_FLOAT, "float")     /* size 4 or 8 (double) or 16 (long double) */ \
	X(TY_PTR, "ptr")         /* base: pointee */ \
	X(TY_ARRAY, "array")     /* base: element; array_len (-1: unknown) */ \
	X(TY_STRUCT, "struct")   /* tag, members */ \
	X(TY_UNION, "union")     /* tag, members, all at offset 0 */ \
	X(TY_ENUM, "enum")       /* an int */ \
	X(TY_FUNC, "func")       /* base: return type; members: parameters (offset -1) */ \
	X(TY_NAMED, "named")     /* typedef name we cannot see through (tag) */

#define X_ENUM(k, s) k,
typedef enum TypeKind { TYPE_KINDS(X_ENUM) } TypeKind;

typedef struct Type Type;
typedef struct Member {
	int name;
	Type *type;
	int64_t offset; /* bytes from the start of the aggregate; -1 unknown */
} Member;

struct Type {
	TypeKind kind;
	int64_t size;      /* bytes; -1 unknown */
	int align;         /* bytes; 0 unknown */
	bool is_unsigned;  /* TY_INT */
	bool is_const;
	bool is_volatile;
	bool is_restrict;
	Type *base;        /* TY_PTR, TY_ARRAY, TY_FUNC */
	int64_t array_len; /* TY_ARRAY; -1 unknown or VLA */
	bool is_vla;       /* TY_ARRAY whose length is not a constant */
	int tag;           /* TY_STRUCT/UNION/ENUM tag, TY_NAMED typedef name */
	Array(Member) members; /* TY_STRUCT/UNION; TY_FUNC: the parameters */
	bool is_variadic;  /* TY_FUNC declared with '...' */
};

extern const char *const type_kind_name[];
/* Innermost non-array type, and the number of array dimensions above it. */
Type *type_elem(Type *t, int *ndims);

typedef enum StorageClass {
	SC_NONE,
	SC_STATIC,
	SC_EXTERN,
	SC_REGISTER,
	SC_TYPEDEF,
} StorageClass;

typedef enum VarScope {
	VAR_GLOBAL, /* file scope (static or not: see storage) */
	VAR_LOCAL,  /* block scope (a static local is still VAR_LOCAL) */
	VAR_PARAM,
} VarScope;

typedef struct Func Func;
typedef struct Expr Expr;

/* A named object: one memory object for the dependence analysis. */
typedef struct Var {
	int id;            /* dense over the program */
	int name;
	Type *type;        /* parameter arrays keep their declared array type */
	StorageClass storage;
	VarScope scope;
	bool has_init;
	bool init_hidden;  /* initializer skipped by pp_scan (large constant data) */
	bool addr_taken;   /* &v appears, or v (an array) decays to a pointer: call
	                      argument, assignment, initializer, cast, arithmetic */
	Expr *init;        /* lowered initializer (NULL if none or hidden); for a local
	                      the same Expr as its ST_DECL's expr */
	Func *func;        /* VAR_LOCAL/VAR_PARAM: owner */
	const Source *src;
	uint32_t start, end; /* declarator's byte range */
} Var;

#define EXPR_KINDS(X)                                                       \
	X(EX_NUM, "num")       /* num */                                        \
	X(EX_STR, "str")       /* str (text with quotes) */                     \
	X(EX_VAR, "var")       /* var */                                        \
	X(EX_NAME, "name")     /* name: identifier with no declaration seen (enum constant, function, macro) */ \
	X(EX_UNARY, "unary")   /* op, lhs */                                    \
	X(EX_BINARY, "binary") /* op, lhs, rhs */                               \
	X(EX_ASSIGN, "assign") /* op ('=' or the compound operator), lhs, rhs */ \
	X(EX_COND, "cond")     /* cond, lhs (then), rhs (else) */               \
	X(EX_COMMA, "comma")   /* lhs, rhs */                                   \
	X(EX_CALL, "call")     /* lhs (callee), args; callee_func if defined */ \
	X(EX_INDEX, "index")   /* lhs [rhs] */                                  \
	X(EX_MEMBER, "member") /* lhs . member or lhs -> member (op OP_ARROW) */ \
	X(EX_CAST, "cast")     /* cast_type, lhs */                             \
	X(EX_SIZEOF, "sizeof") /* num.ival: the size, -1 unknown; lhs or cast_type */ \
	X(EX_INIT, "init")     /* args: initializer list elements */            \
	X(EX_OTHER, "other")   /* unmodelled expression (compound literal, statement expression, _Generic); args: the sub-expressions that could be lowered */

typedef enum ExprKind { EXPR_KINDS(X_ENUM) } ExprKind;

#define OP_KINDS(X)                                                         \
	X(OP_NONE, "")                                                          \
	X(OP_ADD, "+") X(OP_SUB, "-") X(OP_MUL, "*") X(OP_DIV, "/")             \
	X(OP_MOD, "%") X(OP_SHL, "<<") X(OP_SHR, ">>") X(OP_LT, "<")            \
	X(OP_GT, ">") X(OP_LE, "<=") X(OP_GE, ">=") X(OP_EQ, "==")              \
	X(OP_NE, "!=") X(OP_BITAND, "&") X(OP_BITOR, "|") X(OP_BITXOR, "^")     \
	X(OP_LOGAND, "&&") X(OP_LOGOR, "||")                                    \
	X(OP_NEG, "neg") X(OP_PLUS, "pos") X(OP_NOT, "!") X(OP_BITNOT, "~")     \
	X(OP_DEREF, "deref") X(OP_ADDR, "addr")                                 \
	X(OP_PREINC, "++pre") X(OP_PREDEC, "--pre")                             \
	X(OP_POSTINC, "post++") X(OP_POSTDEC, "post--")                         \
	X(OP_ASSIGN, "=") X(OP_DOT, ".") X(OP_ARROW, "->")

typedef enum OpKind { OP_KINDS(X_ENUM) } OpKind;

typedef struct Number {
	bool is_float;
	int64_t ival;  /* integer literals, and sizeof when known */
	double fval;
} Number;

struct Expr {
	ExprKind kind;
	OpKind op;
	Type *type;       /* static type where the lowering could tell, else NULL */
	uint32_t start, end; /* source bytes */
	Expr *lhs, *rhs, *cond;
	Array(Expr *) args; /* EX_CALL arguments, EX_INIT elements */
	Var *var;         /* EX_VAR */
	int name;         /* EX_NAME, EX_MEMBER (member name), EX_CALL (callee name if plain) */
	Func *callee_func; /* EX_CALL to a function defined in the program */
	Type *cast_type;  /* EX_CAST, EX_SIZEOF of a type */
	Number num;       /* EX_NUM, EX_SIZEOF, EX_NAME with is_constant */
	bool is_constant; /* EX_NAME of an enum constant or of a '#define N 64' (value in num.ival) */
	const char *str;  /* EX_STR */
};

#define STMT_KINDS(X)                                                       \
	X(ST_EXPR, "expr")         /* expr */                                   \
	X(ST_DECL, "decl")         /* var, expr (initializer or NULL); one per declarator, each with the declaration's bytes */ \
	X(ST_BLOCK, "block")       /* body */                                   \
	X(ST_IF, "if")             /* expr (condition), then, els */            \
	X(ST_FOR, "for")           /* loop */                                   \
	X(ST_WHILE, "while")       /* loop (cond only) */                       \
	X(ST_DO, "do")             /* loop (cond only) */                       \
	X(ST_SWITCH, "switch")     /* expr, then (body) */                      \
	X(ST_CASE, "case")         /* expr (NULL for default), then (the one statement it labels, NULL if another label follows); the rest of the case are its siblings */ \
	X(ST_RETURN, "return")     /* expr or NULL */                           \
	X(ST_BREAK, "break")                                                    \
	X(ST_CONTINUE, "continue")                                              \
	X(ST_GOTO, "goto")         /* name (label), expr for computed goto */   \
	X(ST_LABEL, "label")       /* name, then (the labelled statement) */    \
	X(ST_ASM, "asm")                                                        \
	X(ST_EMPTY, "empty")                                                    \
	X(ST_OTHER, "other")       /* a construct the IR does not model */

typedef enum StmtKind { STMT_KINDS(X_ENUM) } StmtKind;

/* Constructs that force the code around them to stay sequential. */
#define UNMODELLED_KINDS(X)                                 \
	X(UM_GOTO, "goto")                                      \
	X(UM_COMPUTED_GOTO, "computed goto")                    \
	X(UM_ASM, "inline asm")                                 \
	X(UM_SETJMP, "setjmp/longjmp")                          \
	X(UM_VLA, "variable-length array")                      \
	X(UM_VARIADIC_CALL, "variadic call")                    \
	X(UM_OTHER, "unmodelled construct")

typedef enum UnmodelledKind { UNMODELLED_KINDS(X_ENUM) } UnmodelledKind;
extern const char *const unmodelled_name[];

typedef struct Unmodelled {
	UnmodelledKind kind;
	uint32_t at; /* source byte */
} Unmodelled;

typedef struct Stmt Stmt;

/* One induction variable of a loop header: v = init; ...; v += step. */
typedef struct InductionVar {
	Var *var;
	Expr *init;
	int64_t step;     /* valid when step_known */
	bool step_known;
} InductionVar;

typedef struct Loop {
	Array(Stmt *) init;   /* ST_DECL or ST_EXPR parts of the for-initializer */
	Expr *cond, *step;    /* either may be NULL */
	Stmt *body;
	Array(InductionVar) ivs; /* recognised induction variables, first one drives cond */
	int64_t lower, upper; /* first IV's init and exclusive bound, when constant */
	int64_t trip_count;   /* -1 when not constant */
	uint32_t header_end;  /* byte just past the ')' of the header */
} Loop;

struct Stmt {
	StmtKind kind;
	uint32_t start, end; /* source bytes, including the ';' or '}' */
	Expr *expr;
	Var *var;
	Stmt *then, *els;
	Array(Stmt *) body;  /* ST_BLOCK */
	Loop *loop;          /* ST_FOR, ST_WHILE, ST_DO */
	int name;            /* ST_GOTO, ST_LABEL */
	uint32_t unmodelled; /* bitmask of 1u << UnmodelledKind found inside */
};

typedef struct MT MT;

struct Func {
	int id;
	int name;
	Type *ret;
	Array(Var *) params;
	Array(Var *) locals;  /* every block-scope object, in source order */
	StorageClass storage;
	bool is_inline;
	bool is_variadic;
	const Source *src;
	uint32_t start, end;  /* whole definition, from the hidden specifier macros before it (FUNC_PREFIX) to the '}' */
	Stmt *body;           /* ST_BLOCK */
	Array(Unmodelled) unmodelled;
	MT *mt;               /* root macro task of the body (filled by mt_build) */
};

/* A declared but not defined function (prototype), e.g. TVMBackendAllocWorkspace. */
typedef struct FuncDecl {
	int name;
	Type *type;       /* TY_FUNC */
	bool is_variadic;
	StorageClass storage;
} FuncDecl;

typedef struct Program {
	Array(Source *) sources;
	Array(Func *) funcs;     /* definitions in source order, all files */
	Array(FuncDecl *) decls; /* prototypes of functions not defined */
	Array(Var *) globals;    /* file-scope objects, all files */
	Array(Var *) vars;       /* every Var, indexed by Var.id */
	struct LowerTables *lower; /* lower.c's program-wide tables (external names, tags, calls) */
} Program;

extern const char *const expr_kind_name[];
extern const char *const stmt_kind_name[];
extern const char *const op_name[];

/* ------------------------------------------------------------------ */
/* ir.c: visitors, lvalues and constants, for every stage              */
/* ------------------------------------------------------------------ */

typedef void IrExprFn(Expr *e, void *ctx);
typedef void IrStmtFn(Stmt *s, void *ctx);
typedef bool IrExprPred(const Expr *e, void *ctx);

/* Calls fn on e and every subexpression, parents first (cond, lhs, rhs, args). */
void ir_visit_expr(Expr *e, IrExprFn *fn, void *ctx);
/*
 * Calls sfn (if any) on s and every statement inside it, and fn on every
 * expression: conditions, initializers, loop headers, bodies.
 */
void ir_visit_stmt(Stmt *s, IrExprFn *fn, IrStmtFn *sfn, void *ctx);
/* Whether pred holds for e or an expression inside it. */
bool ir_expr_any(const Expr *e, IrExprPred *pred, void *ctx);
/* for, while and do statements. */
bool ir_is_loop(const Stmt *s);
/* e without the casts around it. */
Expr *ir_strip_casts(const Expr *e);
/* The variable whose own storage the lvalue e is (v, v.x.y), or NULL. */
Var *ir_storage_root(const Expr *e);
/* Whether e names v itself. */
bool ir_is_var(const Expr *e, const Var *v);
/*
 * Folds integer literals, enum and #define constants, const integer objects,
 * sizeof of known types, casts to integer types (converting the value) and
 * the arithmetic, comparisons and ?: between them.  False when e is not such
 * a constant.
 */
bool ir_const_eval(const Expr *e, int64_t *out);

/* ------------------------------------------------------------------ */
/* loop.c: induction variables, steps and trip counts                  */
/* ------------------------------------------------------------------ */

/* Fills lp->ivs (the one the condition tests first), lower, upper, trip_count. */
void loop_recognise(Loop *lp);
/*
 * Whether u updates v as ++v, v--, v += k, v -= k, v = v + k, v = k + v or
 * v = v - k (casts around v allowed): *amount is k (NULL for ++ and --)
 * and *sign says whether it is added or subtracted.
 */
bool loop_update_parts(const Expr *u, const Var *v, const Expr **amount, int *sign);
/* The same, with k folded by ir_const_eval: *known when it is a constant (*step). */
bool loop_update_step(const Expr *u, const Var *v, int64_t *step, bool *known);
/* v's update among the comma-separated parts of a for-step. */
bool loop_find_step(const Expr *step, const Var *v, int64_t *out, bool *known);
/* The variable an increment, decrement or assignment u updates, or NULL. */
Var *loop_updated_var(const Expr *u);
/* The induction variable of l that is v, or NULL. */
const InductionVar *loop_find_iv(const Loop *l, const Var *v);

/* ------------------------------------------------------------------ */
/* parse.c: tree-sitter over the visible ranges                        */
/* ------------------------------------------------------------------ */

typedef struct TSTree TSTree;

/* Checks that the grammar's ABI is one the runtime accepts; false after a diagnostic. */
bool parse_check_abi(void);
/*
 * Parses src, skipping src->hidden.  On a syntax error reports the first
 * ERROR or MISSING node and returns NULL.  Caller frees with ts_tree_delete.
 */
TSTree *parse_source(const Source *src);

/* ------------------------------------------------------------------ */
/* lower.c: tree-sitter tree -> IR                                     */
/* ------------------------------------------------------------------ */

/*
 * Adds src's functions, prototypes and file-scope objects to prog.  Call
 * once per source, then lower_resolve_calls once for the whole program so
 * that calls across files find their definitions.  Returns false after a
 * diagnostic.
 */
bool lower_source(Program *prog, const Source *src, TSTree *tree);
void lower_resolve_calls(Program *prog);
Func *program_find_func(const Program *prog, int name);
FuncDecl *program_find_decl(const Program *prog, int name);
/* Globals, prototypes, functions and their statement trees (--dump=ir). */
void lower_dump(FILE *out, const Program *prog);

/* ------------------------------------------------------------------ */
/* mt.c: macro tasks                                                   */
/* ------------------------------------------------------------------ */

#define MT_KINDS(X)              \
	X(MT_BB, "BB") /* run of straight-line statements */ \
	X(MT_RB, "RB") /* a loop; children: the MTs of its body */ \
	X(MT_SB, "SB") /* a call to a function defined in the program */

typedef enum MTKind { MT_KINDS(X_ENUM) } MTKind;
extern const char *const mt_kind_name[];

struct MT {
	int id;             /* 1-based within its level */
	MTKind kind;
	MT *parent;         /* the RB (or NULL at function level) */
	Func *func;
	Array(Stmt *) stmts; /* the statements it covers, in order */
	uint32_t start, end; /* source bytes */
	Stmt *loop;         /* MT_RB: the loop statement */
	Expr *call;         /* MT_SB: the call */
	Func *callee;       /* MT_SB */
	bool ends_in_branch; /* the MT ends in a conditional branch (if, or a guarded call) */
	bool exits;         /* contains return/break/continue leaving the level */
	uint32_t unmodelled; /* bitmask of UnmodelledKind */
	Array(MT *) children; /* MT_RB: the body's MTs; root: the function's MTs */
	/* control parent at the same level: this MT runs only if branch_mt took branch_dir */
	MT *branch_mt;
	bool branch_dir;
	struct Summary *summary; /* reads and writes: filled by compute_summaries (middle/) */
	void *graph;        /* the middle stage's per-MT data (MFG/MTG node) */
};

/* Cuts every function body and loop body of prog into macro tasks. */
void mt_build(Program *prog);
/* Deterministic indented listing (--dump=mt). */
void mt_dump(FILE *out, const Program *prog);

#endif /* MTPAR_FRONTEND_H */
