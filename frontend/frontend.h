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
#define array_free(a) (array_release_((a)->items), (a)->items = NULL, (a)->len = (a)->cap = 0)
void array_reserve_(void **items, uint32_t *cap, uint32_t need, size_t elem);
void array_release_(void *items);
/*
 * A run of the pipeline: every array made from array_begin_run on (and
 * not freed) is freed by array_free_run, with the IR that holds it.
 */
void array_begin_run(void);
void array_free_run(void);

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

/*
 * Map from nonzero 64-bit keys (a pointer, or a pointer and a small tag) to
 * uint32_t, open addressing: an index beside an Array that would otherwise
 * be searched linearly.  Zero-initialised is empty; map_free releases it.
 */
typedef struct KeyMap {
	uint64_t *keys; /* 0: a free slot */
	uint32_t *vals;
	uint32_t cap, len;
} KeyMap;
void map_put(KeyMap *m, uint64_t key, uint32_t val);
bool map_get(const KeyMap *m, uint64_t key, uint32_t *val);
void map_free(KeyMap *m);

/* Identifiers interned to small integers; 0 is "no name". */
int intern(const char *s, size_t n);
const char *intern_name(int id);
/* One more than the largest id intern has given. */
uint32_t intern_count(void);
/* Forgets every name (the end of a run): ids given so far mean nothing after. */
void intern_release(void);

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
	HIDE_COMMENT,     /* a block comment inside a #define, where tree-sitter-c ends the body */
	HIDE_PRAGMA,      /* the operator _Pragma("..."), C99 6.10.9: a #pragma in a statement's place */
	HIDE_CASE_RANGE,  /* '... 9' of GNU C's 'case 0 ... 9:', which tree-sitter-c cannot parse */
	HIDE_BODY_LINE,   /* a #pragma or #line line between a header and its body: `for (...)` here */
	HIDE_OPERAND,     /* va_arg's type, offsetof's designator past its first name: more than tree-sitter-c takes */
	HIDE_PAREN,       /* a '(' or ')' around a variable that tree-sitter-c took for a cast's (parens.c) */
} HideKind;

/*
 * A macro that the file sees but does not define itself: from -D or -U (at
 * byte 0) or from a header (at the byte of the top-level #include that
 * brought it).  Integer-valued object-like macros are constants, those that
 * spell a type (`-DDATA_TYPE=float`) typedef names; any other definition,
 * or an #undef, ends an earlier constant of that name.
 */
typedef struct PPConst {
	uint32_t at;
	int name;          /* interned */
	bool is_int;
	int64_t value;     /* when is_int */
	const char *text;  /* the replacement (arena); NULL for #undef and -U */
	const char *params; /* a function-like macro's parameter text (arena), else NULL */
} PPConst;

typedef Array(PPConst) PPConstList;

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
	PPConstList outside; /* macros from -D/-U and headers, in order; filled by pp_scan */
	PPConstList own;     /* the file's own active #define and #undef lines, in order (pp_scan) */
	uint32_t reserved_at; /* active code's first name that mtpar's output declares (pp_scan, reserved.c), or UINT32_MAX */
	uint32_t errno_at;    /* active code's first `errno`, or UINT32_MAX (pp_scan) */
	uint32_t fpflags_at;  /* active code's first reader of the floating-point flags (fetestexcept), or UINT32_MAX */
	bool from_stdin;     /* read from standard input ("-"); path is "<stdin>" */
	bool has_line_markers; /* the text numbers its own lines (#line, "# N"): mtpar adds none */
} Source;

/*
 * Reads a C source file.  Missing, unreadable, directory and binary ones
 * (NUL bytes) get a diagnostic and NULL.
 */
Source *source_read(const char *path);
/* Standard input as a source named "<stdin>"; NULL as source_read. */
Source *source_read_stdin(void);
/* A source over a copy of text, named name (borrowed) in diagnostics; NULL as source_read. */
Source *source_from_text(const char *name, const char *text, size_t len);
/* Frees what source_read made (NULL is fine). */
void source_free(Source *src);
/* Fills src->line_start and nlines from src->text (line_start: caller frees). */
void source_index_lines(Source *src);
/* 3 when the text starts with a UTF-8 byte-order mark (output goes after it), else 0. */
uint32_t source_bom_len(const Source *src);
/* 1-based line and column (in bytes) of a byte offset. */
void source_pos(const Source *src, uint32_t byte, uint32_t *line, uint32_t *col);
/* Prints the 1-based line range of bytes [start, end): "12" or "12-30". */
void source_print_lines(FILE *out, const Source *src, uint32_t start, uint32_t end);
/* The hidden span containing byte, or NULL. */
const Hidden *source_hidden_at(const Source *src, uint32_t byte);
/*
 * The words of the pragma that the hidden span h stands for (`GCC unroll 4"`
 * for `_Pragma("GCC unroll 4")`, or for a macro that expands to it), the text
 * up to the closing quote; NULL when h is no pragma.
 */
const char *source_pragma_words(const Source *src, const Hidden *h);
/* Does [start, end) hold a preprocessor conditional: an evaluated #if line or an inactive branch? */
bool source_has_conditional(const Source *src, uint32_t start, uint32_t end);
/* The words of the pragma operator that begins at byte p, else NULL. */
const char *source_pragma_at(const Source *src, uint32_t p);
/* From p, past blanks and pragma operators, up to end: where anything else begins. */
uint32_t source_skip_pragmas(const Source *src, uint32_t p, uint32_t end);

/* ------------------------------------------------------------------ */
/* diag.c: the diagnostics channel                                     */
/* ------------------------------------------------------------------ */

/* What a diagnostic is; the remarks are GCC's -fopt-info classes. */
typedef enum DiagKind {
	DIAG_ERROR,
	DIAG_WARNING,
	DIAG_OPTIMIZED, /* what was parallelized */
	DIAG_MISSED,    /* a function, loop or call that was not, and why */
	DIAG_NOTE,      /* detail: each macro task, run-time checks */
	DIAG_INFO,      /* -v: progress and summaries, never filtered or diverted */
} DiagKind;

/* Where diagnostics go: text is one whole diagnostic, lines ending in '\n'. */
typedef void DiagSink(void *user, DiagKind kind, const char *text);

typedef struct DiagConfig {
	DiagSink *sink;    /* NULL: stderr */
	void *user;
	unsigned remarks;  /* bit 1 << DIAG_OPTIMIZED etc.: remark classes to emit */
	bool caret;        /* errors and warnings show the source line and a caret */
} DiagConfig;

/* Sets the channel for the run (NULL: stderr, no remarks, carets) and zeroes the error count. */
void diag_configure(const DiagConfig *cfg);
/* GCC-style diagnostics: "file:line:col: error: msg".  Count of errors so far. */
void error_at(const Source *src, uint32_t byte, const char *fmt, ...) MTPAR_PRINTF(3, 4);
void warning_at(const Source *src, uint32_t byte, const char *fmt, ...) MTPAR_PRINTF(3, 4);
/* A remark of one class; nothing unless the class was asked for. */
void remark_at(DiagKind kind, const Source *src, uint32_t byte, const char *fmt, ...)
	MTPAR_PRINTF(4, 5);
bool remark_wanted(DiagKind kind);
/* "mtpar: error: msg" for trouble that has no position. */
void error_plain(const char *fmt, ...) MTPAR_PRINTF(1, 2);
/* "mtpar: msg" (-v: progress and summaries), a note that no remark class filters. */
void diag_info(const char *fmt, ...) MTPAR_PRINTF(1, 2);
int error_count(void);

/* ------------------------------------------------------------------ */
/* pp.c, ppexpr.c, ppdefs.c: the preprocessor scan that makes generator */
/* output parse, and what the text defines                             */
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

/*
 * ppdefs.c: what the text defines, for the middle end.  Iterators that
 * allocate nothing; names are text, for the caller to intern.
 */
/* A token of C text: pp_next_token's unit. */
typedef struct PPToken {
	const char *s; /* in the text it was read from; n bytes */
	uint32_t n;
	char kind;     /* 'i' identifier, 'n' number, 's' string or char, 'p' punctuation */
} PPToken;

/* A #define line of a source outside inactive #if branches. */
typedef struct PPMacroDef {
	const char *name;     /* in the source text, name_len bytes; not interned */
	uint32_t name_len;
	bool is_func;         /* function-like: '(' right after the name */
	const char *params, *params_end; /* is_func: the text between '(' and ')' */
	const char *body, *end; /* the replacement text, to the logical line's end */
} PPMacroDef;

/*
 * The next active #define line of src from *line on (start at 0), into
 * def; advances *line.  False after the last.  Only src's own text: the
 * headers pp_scan read are not walked.  Call after pp_scan.
 */
bool pp_next_define(const Source *src, uint32_t *line, PPMacroDef *def);

/* A walk over the enum bodies of a text. */
typedef struct PPEnumScan {
	const char *p, *end; /* what is left to read */
	bool in_body;        /* inside an enum's braces */
	bool item_start;     /* the next identifier starts an item */
	int depth;           /* parentheses and braces open in the body */
} PPEnumScan;

void pp_enum_scan_init(PPEnumScan *es, const Source *src);
/*
 * The next identifier that starts an item of an 'enum [tag] { ... }' body
 * (its enumerator), anywhere in the text: inactive branches and macro
 * bodies too.  False at the end.
 */
bool pp_next_enumerator(PPEnumScan *es, PPToken *t);

/*
 * The next token of [*p, end), skipping blanks, newlines, backslashes and
 * comments (a '//' one to the end of its logical line); advances *p past it.  False at
 * the end.  Numbers are pp-numbers; a literal runs to its closing quote.
 */
bool pp_next_token(const char **p, const char *end, PPToken *t);
/* The end of the logical line from p: its newline (one without a backslash before it), or end. */
const char *pp_line_end(const char *p, const char *end);
/* Whether the token is spelled s. */
bool pp_token_is(const PPToken *t, const char *s);
/* An integer literal token (suffixes u/l allowed; no floats): its value. */
bool pp_token_int(const PPToken *t, int64_t *v);
/*
 * The integer an object-like macro's replacement text s (len bytes) spells:
 * 3, (64), -1L, 0x10, with a trailing comment; false for anything else.
 */
bool pp_int_literal(const char *s, size_t len, int64_t *out);

/* Does name (n bytes) occur in [s, end) as a whole identifier (pp.c)? */
bool pp_word_in(const char *name, size_t n, const char *s, const char *end);

/*
 * pp internals, shared by pp.c and ppexpr.c; not for later stages.  Those
 * files define MTPAR_PP before including this header.
 */
#ifdef MTPAR_PP
enum {
	PP_EXPAND_DEPTH_MAX = 64, /* nested object-like macros in #if and specifier lists */
};

/* One name of the macro table (pp.c). */
typedef struct PPMacro {
	char *name;
	uint32_t len, hash;
	bool defined;        /* by the command line, the file or a header */
	bool funclike;
	bool builtin;        /* no definition seen yet: builtin_exp applies */
	bool expanding;      /* being expanded: do not recurse into it */
	char *body;          /* object-like replacement list, blanks collapsed */
	const char *builtin_exp;
	uint32_t gen;        /* PP.gen when spec and expansion were computed */
	bool spec;           /* replacement list is declaration specifiers only */
	const char *expansion; /* spec: the list, inner specifier macros expanded; arena */
} PPMacro;

/* One file's scan state (pp.c). */
typedef struct PPScan PPScan;

/* Lexical helpers over NUL-terminated text. */
extern bool pp_ident_char[256]; /* letters, digits, '_', '$' and UTF-8 bytes */
bool pp_is_blank(char c);
bool pp_is_digit(char c);
/* The byte after the identifier characters from p. */
uint32_t pp_ident_end(const char *t, uint32_t p);
/* p at a quote: the byte after the literal's closing quote (or before its newline). */
uint32_t pp_skip_literal(const char *t, uint32_t len, uint32_t p);
/* p at a pp-number (C17 6.4.8): the byte after it, so 0x1p+3 is one token. */
uint32_t pp_skip_number(const char *t, uint32_t p);

/* The macro table's entry for name[0..n), defined or not, or NULL. */
PPMacro *pp_macro_find(const PPScan *s, const char *name, uint32_t n);
/* Reports the scan's first error, at source byte at; the scan then fails. */
void pp_fail(PPScan *s, uint32_t at, const char *fmt, ...) MTPAR_PRINTF(3, 4);
/*
 * A name that #if finds undefined: when a quoted header was not found, it
 * may have defined it (`#ifndef N` after `#include "sizes.h"`), and the
 * branch mtpar takes may not be the compiler's: a diagnostic, unless the
 * name is reserved (`__cplusplus`).
 */
void pp_undefined_name(PPScan *s, const char *name, uint32_t n, uint32_t at);
/*
 * The macros that cpp defines itself (__LINE__, __FILE__, __has_include,
 * ...): whether name is one (`defined(__LINE__)` holds), and its value in
 * #if at source byte at (false after a diagnostic where mtpar cannot tell
 * it as the compiler would: __has_attribute(x), __COUNTER__).
 */
bool pp_builtin_macro(const char *name, uint32_t n);
bool pp_builtin_value(PPScan *s, const char *name, uint32_t n, uint32_t at, intmax_t *v);
/*
 * Evaluates the #if or #elif expression line[0..n), whose source bytes are
 * map[0..n] (map[n]: the line's end).  False after a diagnostic.
 */
bool pp_eval_if(PPScan *s, const char *line, uint32_t n, const uint32_t *map, bool *v);
#endif /* MTPAR_PP */

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
	struct Expr *vla_len; /* is_vla: the length as written (`double A[n][n]`), or NULL for [*] */
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
	bool bound;          /* VAR_PARAM: every call passes bound_value (bind.c) */
	int64_t bound_value;
	bool thread_local;   /* __thread, thread_local: each thread has its own */
	bool aliased;        /* an asm label or an alias attribute: another object's name */
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
	bool in_macro;    /* inside a macro's replacement: start, end are the whole use's (macro.c) */
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
/*
 * A level (a function body or a loop body) that would have more MTs than
 * this is one BB instead (mt.c): the dependence analysis and the conditions
 * of a level grow with the square and the cube of its length.  Generated
 * code has hundreds.
 */
#define MFG_MAX_MTS 1000
#define MFG_MAX_MTS_TEXT "1000"

#define UNMODELLED_KINDS(X)                                 \
	X(UM_GOTO, "goto")                                      \
	X(UM_COMPUTED_GOTO, "computed goto")                    \
	X(UM_ASM, "inline asm")                                 \
	X(UM_SETJMP, "setjmp/longjmp")                          \
	X(UM_VLA, "variable-length array")                      \
	X(UM_VARIADIC_CALL, "variadic call")                    \
	X(UM_INCLUDE, "#include inside the function")           \
	X(UM_DIRECTIVE, "#define or #undef inside the function") \
	X(UM_OTHER, "unmodelled construct")                     \
	X(UM_TOO_MANY_MTS, "over " MFG_MAX_MTS_TEXT " macro tasks in one level")

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
	bool in_macro;       /* spelled by a statement macro: start, end are the whole use's (macro.c) */
};

typedef Array(Stmt *) StmtList;

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
/* ir.c: visitors, lvalues, constants and types, for every stage       */
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
/* Calls fn on every expression in the lengths of t's variable-length arrays, through pointers. */
void ir_visit_type_lengths(const Type *t, IrExprFn *fn, void *ctx);
/* Does a length of t's variable-length arrays assign or call (`int d[n += 4]`)? */
bool ir_type_lengths_have_effect(const Type *t);
typedef bool IrStmtPred(const Stmt *s, void *ctx);
typedef Array(Expr *) ExprList;

/* Whether pred holds for e or an expression inside it. */
bool ir_expr_any(const Expr *e, IrExprPred *pred, void *ctx);
/* Whether sp holds for s or a statement inside it, or ep for one of their expressions. */
bool ir_stmt_any(const Stmt *s, IrStmtPred *sp, IrExprPred *ep, void *ctx);
/* Appends the comma-separated parts of e to out, left to right. */
void ir_split_comma(Expr *e, ExprList *out);
/* ++v, --v, v++ or v--. */
bool ir_is_incdec(const Expr *e);
/* How many times s names v (EX_VAR nodes, loop headers included). */
uint32_t ir_var_refs(const Stmt *s, const Var *v);
/* Does s assign or step v's own storage (v = ..., v += ..., v++)? */
bool ir_stmt_assigns(const Stmt *s, const Var *v);
/* for, while and do statements. */
bool ir_is_loop(const Stmt *s);
/* Is there a label in s (or, with cases, a case or default), a place a jump may land? */
bool ir_has_label(Stmt *s, bool cases);
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
/* Does e hold an assignment, ++/--, a call or an expression the IR does not model? */
bool ir_has_effect(const Expr *e);

/* Types, as the later stages ask of them */
/* An integer typedef the lowering left opaque (TY_NAMED, int32_t, size_t, ...). */
bool type_int_typedef(int tag, int *size, bool *uns);
/* An integer type (bool, enum and integer typedefs included): its size and signedness. */
bool type_int(const Type *t, int *size, bool *uns);
bool type_is_ptr(const Type *t);
bool type_is_array(const Type *t);
/* Bytes of an object of type t, -1 unknown; void counts 1 (GNU arithmetic). */
int64_t type_size(const Type *t);
/* Member name of struct or union t, NULL if none. */
const Member *type_member(const Type *t, int name);
/* Could an object of type t hold a pointer?  Opaque typedefs may. */
bool type_has_pointer(const Type *t, int depth);
/* Const or volatile, an array through its elements. */
bool type_is_const(const Type *t);
bool type_is_volatile(const Type *t);

/* ------------------------------------------------------------------ */
/* loop.c: induction variables, steps and trip counts                  */
/* ------------------------------------------------------------------ */

/* e is a * v + b with integer constants a, b (each under 2^40 in magnitude). */
bool loop_linear_in(const Expr *e, const Var *v, int64_t *a, int64_t *b);
/* Fills lp->ivs (the one the condition tests first), lower, upper, trip_count. */
void loop_recognise(Loop *lp);
/*
 * The trips of lp's first IV as its start and bound fold now (with the
 * variables bound at this moment, Var.bound), -1 when they do not: the
 * inner loop of a triangular nest at one value of the outer counter.
 */
int64_t loop_trips_now(const Loop *lp);
/*
 * The values lp's first IV takes, as the ascending run lo, lo + step, ...
 * below hi (step > 0) whichever way the loop counts: `for (i = 9; i >= 0;
 * i -= 3)` gives [0, 12) step 3.  False when the trip count or step is not
 * a constant.
 */
bool loop_value_range(const Loop *lp, int64_t *lo, int64_t *hi, int64_t *step);
/*
 * The bound B of the first IV's condition, read as `iv OP B` (`B > iv`
 * gives `iv < B`), when the IV has a known non-zero step; else NULL.
 */
const Expr *loop_iv_bound(const Loop *lp, OpKind *op);
/* The variable and initial value a for-initializer part assigns: 'T v = e' or 'v = e'. */
bool loop_init_assign(const Stmt *s, Var **v, Expr **init);
/* The comparison seen from the other side: 'k > v' is 'v < k'. */
OpKind loop_flip_cmp(OpKind op);
/*
 * Do the outermost for statements S within top (inside `inside`, when not
 * NULL) that assign v in their initializers, naming v nowhere else there,
 * hold want references of v together?  With want all of top's, every use
 * of v in top follows such an assignment in the same run of its S: v
 * carries nothing into top (a loop counter declared once and reused, also
 * by sibling loops).
 */
bool loop_covers(const Stmt *top, const Var *v, uint32_t want, const Stmt *inside);
/*
 * Whether u updates v as ++v, v--, v += k, v -= k, v = v + k, v = k + v or
 * v = v - k (casts around v allowed): *amount is k (NULL for ++ and --)
 * and *sign says whether it is added or subtracted.
 */
bool loop_update_parts(const Expr *u, const Var *v, const Expr **amount, int *sign);
/* The same, with k folded by ir_const_eval: *known when it is a constant (*step). */
bool loop_update_step(const Expr *u, const Var *v, int64_t *step, bool *known);
/* The variable an increment, decrement or assignment u updates, or NULL. */
Var *loop_updated_var(const Expr *u);
bool loop_copies_first_iv(const Loop *l, const Expr *u);
/* The expression l's initializer sets v to, or NULL. */
Expr *loop_init_of(const Loop *l, const Var *v);
/* The induction variable of l that is v, or NULL. */
const InductionVar *loop_find_iv(const Loop *l, const Var *v);

/* ------------------------------------------------------------------ */
/* parse.c: tree-sitter over the visible ranges                        */
/* ------------------------------------------------------------------ */

typedef struct TSTree TSTree;

/*
 * Syntax trees deeper than this are refused with a located diagnostic
 * (`nesting too deep`): the lowering and the passes after it recurse, one
 * frame or a few per level, on the stack that mtpar_run provides
 * (MTPAR_STACK_BYTES).  Generated code nests tens of levels; a sum of
 * 10,000 terms is a left-deep tree 10,000 levels deep.
 */
#define MTPAR_MAX_NESTING 100000

/* Checks that the grammar's ABI is one the runtime accepts; false after a diagnostic. */
bool parse_check_abi(void);
/*
 * Parses src, skipping src->hidden.  On a syntax error, or nesting deeper
 * than MTPAR_MAX_NESTING, reports the first such node and returns NULL.  Caller frees with ts_tree_delete.
 */
TSTree *parse_source(const Source *src);
/* parse_source in two steps: tree-sitter's tree of src, errors and all ... */
TSTree *parse_tree(const Source *src);
/* ... and its check, which reports, deletes the tree and returns false on an error. */
bool parse_accept(const Source *src, TSTree *tree);
/*
 * Does the tree read the text other than the compiler would: a syntax
 * error, or a function definition with no parameter list in its header
 * (a macro spells it)?  Then macro uses are worth expanding (unfold.c).
 */
bool parse_misread(TSTree *tree);
/*
 * parens.c: parses src again, as often as it takes, with the parentheses
 * hidden of each cast of the tree whose type is a name the source declares
 * as an ordinary identifier (`(a[k]) + 0.5 * b[i]`, which tree-sitter-c
 * reads as the cast `(a[k])(+0.5)`).  *tree is replaced.
 */
void parse_unparen(Source *src, TSTree **tree);

/*
 * unfold.c: in a source that does not parse, each macro use whose
 * expansion spells more than an expression (`FOR(i, n) ...`, `BEGIN ...
 * END`, `ALIGN(64) float a[N];`) replaced by that expansion, lines kept.  Whether the text changed; the caller
 * scans and parses it again.  Call after pp_scan.
 */
bool unfold_macros(Source *src);

/* ------------------------------------------------------------------ */
/* lower.c, type.c, expr.c, stmt.c, irdump.c: tree-sitter tree -> IR   */
/* ------------------------------------------------------------------ */

/*
 * Adds src's functions, prototypes and file-scope objects to prog.  Call
 * once per source, then lower_resolve_calls once for the whole program so
 * that calls across files find their definitions.  Returns false after a
 * diagnostic.
 */
bool lower_source(Program *prog, const Source *src, TSTree *tree);
/* Frees what the lowering keeps between sources (the end of a run). */
void lower_release(void);
void lower_resolve_calls(Program *prog);

/*
 * bind.c: an integer parameter that every call passes the same constant
 * (all calls direct and seen) becomes that constant (Var.bound); the loops
 * of those functions get their trip counts again.  After lower_resolve_calls.
 */
void bind_params(Program *prog);

/*
 * A call's context: its constant integer arguments, for the callee's
 * parameters that no caller-wide binding fixed (a kernel called with
 * different sizes from different places).  The middle binds them while it
 * decomposes that call, and again wherever it reads the clone made for it.
 */
typedef struct BindArg {
	Var *param;
	int64_t value;
} BindArg;
typedef Array(BindArg) BindContext;

/* call's context for g (empty when no argument folds); out is reset first. */
void bind_context_of(const Expr *call, Func *g, BindContext *out);
/* Binds (on) or unbinds ctx's parameters, and recognises g's loops again. */
void bind_context_apply(Func *g, const BindContext *ctx, bool on);
bool bind_context_same(const BindContext *a, const BindContext *b);
Func *program_find_func(const Program *prog, int name);
FuncDecl *program_find_decl(const Program *prog, int name);
/* Globals, prototypes, functions and their statement trees (--dump=ir). */
void lower_dump(FILE *out, const Program *prog);

/* ------------------------------------------------------------------ */
/* Lowering internals, shared by lower.c, type.c, expr.c, stmt.c (and  */
/* irdump.c for the record list); not for later stages.  Those files   */
/* define MTPAR_LOWERING before including this header.                 */
/* ------------------------------------------------------------------ */

#ifdef MTPAR_LOWERING
#include <tree_sitter/api.h>

/* ---- lower.c: node kinds, the grammar's named symbols we read, as an enum ---- */

#define NODE_KINDS(X)                                                        \
	X(N_OTHER, "")                                                          \
	X(N_COMMENT, "comment") X(N_ERROR, "ERROR")                              \
	X(N_FUNCTION_DEFINITION, "function_definition")                          \
	X(N_DECLARATION, "declaration") X(N_TYPE_DEFINITION, "type_definition")  \
	X(N_LINKAGE_SPECIFICATION, "linkage_specification")                      \
	X(N_DECLARATION_LIST, "declaration_list")                                \
	X(N_PREPROC_IF, "preproc_if") X(N_PREPROC_IFDEF, "preproc_ifdef")        \
	X(N_PREPROC_INCLUDE, "preproc_include") X(N_PREPROC_DEF, "preproc_def")  \
	X(N_PREPROC_FUNCTION_DEF, "preproc_function_def")                        \
	X(N_PREPROC_CALL, "preproc_call")                                        \
	X(N_STORAGE_CLASS_SPECIFIER, "storage_class_specifier")                  \
	X(N_TYPE_QUALIFIER, "type_qualifier")                                    \
	X(N_STRUCT_SPECIFIER, "struct_specifier")                                \
	X(N_UNION_SPECIFIER, "union_specifier")                                  \
	X(N_ENUM_SPECIFIER, "enum_specifier")                                    \
	X(N_MACRO_TYPE_SPECIFIER, "macro_type_specifier")                        \
	X(N_SIZED_TYPE_SPECIFIER, "sized_type_specifier")                        \
	X(N_PRIMITIVE_TYPE, "primitive_type") X(N_TYPE_IDENTIFIER, "type_identifier") \
	X(N_FIELD_DECLARATION, "field_declaration")                              \
	X(N_BITFIELD_CLAUSE, "bitfield_clause") X(N_ENUMERATOR, "enumerator")    \
	X(N_IDENTIFIER, "identifier") X(N_FIELD_IDENTIFIER, "field_identifier")  \
	X(N_INIT_DECLARATOR, "init_declarator")                                  \
	X(N_POINTER_DECLARATOR, "pointer_declarator")                            \
	X(N_ARRAY_DECLARATOR, "array_declarator")                                \
	X(N_FUNCTION_DECLARATOR, "function_declarator")                          \
	X(N_PARENTHESIZED_DECLARATOR, "parenthesized_declarator")                \
	X(N_ATTRIBUTED_DECLARATOR, "attributed_declarator")                      \
	X(N_ABSTRACT_POINTER_DECLARATOR, "abstract_pointer_declarator")          \
	X(N_ABSTRACT_ARRAY_DECLARATOR, "abstract_array_declarator")              \
	X(N_ABSTRACT_FUNCTION_DECLARATOR, "abstract_function_declarator")        \
	X(N_ABSTRACT_PARENTHESIZED_DECLARATOR, "abstract_parenthesized_declarator") \
	X(N_PARAMETER_DECLARATION, "parameter_declaration")                      \
	X(N_VARIADIC_PARAMETER, "variadic_parameter")                            \
	X(N_MS_CALL_MODIFIER, "ms_call_modifier")                                \
	X(N_COMPOUND_STATEMENT, "compound_statement")                            \
	X(N_EXPRESSION_STATEMENT, "expression_statement")                        \
	X(N_IF_STATEMENT, "if_statement") X(N_SWITCH_STATEMENT, "switch_statement") \
	X(N_CASE_STATEMENT, "case_statement") X(N_WHILE_STATEMENT, "while_statement") \
	X(N_DO_STATEMENT, "do_statement") X(N_FOR_STATEMENT, "for_statement")    \
	X(N_RETURN_STATEMENT, "return_statement")                                \
	X(N_BREAK_STATEMENT, "break_statement")                                  \
	X(N_CONTINUE_STATEMENT, "continue_statement")                            \
	X(N_GOTO_STATEMENT, "goto_statement")                                    \
	X(N_LABELED_STATEMENT, "labeled_statement")                              \
	X(N_ATTRIBUTED_STATEMENT, "attributed_statement")                        \
	X(N_ATTRIBUTE_DECLARATION, "attribute_declaration")                      \
	X(N_NUMBER_LITERAL, "number_literal") X(N_STRING_LITERAL, "string_literal") \
	X(N_CONCATENATED_STRING, "concatenated_string")                          \
	X(N_CHAR_LITERAL, "char_literal") X(N_TRUE, "true") X(N_FALSE, "false")  \
	X(N_NULL, "null") X(N_STRING_CONTENT, "string_content")                  \
	X(N_ESCAPE_SEQUENCE, "escape_sequence")                                  \
	X(N_BINARY_EXPRESSION, "binary_expression")                              \
	X(N_UNARY_EXPRESSION, "unary_expression")                                \
	X(N_POINTER_EXPRESSION, "pointer_expression")                            \
	X(N_UPDATE_EXPRESSION, "update_expression")                              \
	X(N_ASSIGNMENT_EXPRESSION, "assignment_expression")                      \
	X(N_CONDITIONAL_EXPRESSION, "conditional_expression")                    \
	X(N_COMMA_EXPRESSION, "comma_expression")                                \
	X(N_CALL_EXPRESSION, "call_expression")                                  \
	X(N_SUBSCRIPT_EXPRESSION, "subscript_expression")                        \
	X(N_FIELD_EXPRESSION, "field_expression")                                \
	X(N_CAST_EXPRESSION, "cast_expression")                                  \
	X(N_SIZEOF_EXPRESSION, "sizeof_expression")                              \
	X(N_ALIGNOF_EXPRESSION, "alignof_expression")                            \
	X(N_OFFSETOF_EXPRESSION, "offsetof_expression")                          \
	X(N_GENERIC_EXPRESSION, "generic_expression")                            \
	X(N_COMPOUND_LITERAL_EXPRESSION, "compound_literal_expression")          \
	X(N_PARENTHESIZED_EXPRESSION, "parenthesized_expression")                \
	X(N_INITIALIZER_LIST, "initializer_list")                                \
	X(N_INITIALIZER_PAIR, "initializer_pair")                                \
	X(N_GNU_ASM_EXPRESSION, "gnu_asm_expression")                            \
	X(N_EXTENSION_EXPRESSION, "extension_expression")                        \
	X(N_TYPE_DESCRIPTOR, "type_descriptor")

typedef enum NodeKind { NODE_KINDS(X_ENUM) } NodeKind;

/* The kind of a node; N_OTHER for a null node or a symbol we do not read. */
NodeKind node_kind(TSNode n);
/* The child in field name, or a null node. */
TSNode node_field(TSNode n, const char *name);
/* Byte offsets of a node; 0 for a null node (a field the tree lacks). */
uint32_t node_start(TSNode n);
uint32_t node_end(TSNode n);
/* Both at once, into an IR node's start and end. */
void node_span(TSNode n, uint32_t *start, uint32_t *end);
/* The node's text in the source being lowered (not NUL-terminated). */
const char *node_text(TSNode n, uint32_t *len);
bool node_is(TSNode n, const char *text);
/* The node's text, interned. */
int node_name(TSNode n);
/* A named child that is not a comment (the grammar's extras). */
bool node_is_content(TSNode n);
/* The first named, non-comment child, or a null node. */
TSNode node_first_content(TSNode n);

/*
 * Children of a node in order.  tree-sitter's cursor walks them in linear
 * time, where ts_node_child(n, i) restarts from the first child.
 */
typedef struct Kids {
	TSTreeCursor cur;
	bool live;    /* cursor allocated, not yet exhausted */
	bool started; /* the cursor stands on a child */
} Kids;

void kids_init(Kids *k, TSNode n);
/* Next child, named or not; false at the end, where the cursor is freed. */
bool kids_next(Kids *k, TSNode *out);
/* Whether the child kids_next gave last is in field name. */
bool kids_field_is(const Kids *k, const char *name);

/* ---- lower.c: names, scopes and the lowering state ---- */

typedef enum IdentKind {
	ID_VAR,        /* an object */
	ID_TYPEDEF,    /* a typedef name */
	ID_CONST,      /* an enumeration constant, or a '#define N 64' */
	ID_UNDEF,      /* a macro name after #undef */
	ID_FUNC,       /* a declared or defined function */
	ID_MACRO,      /* any other #define: expanded where used in an expression */
} IdentKind;

/* One binding in the ordinary name space. */
typedef struct Ident {
	IdentKind kind;
	int depth;     /* scope depth it was declared at: 0 is file scope */
	Var *var;      /* ID_VAR */
	Type *type;    /* ID_TYPEDEF: the type; ID_FUNC: its TY_FUNC type */
	int64_t value; /* ID_CONST */
	const char *macro_params; /* ID_MACRO: "a, b" of a function-like macro, else NULL */
	const char *macro_body;   /* ID_MACRO: the replacement text; a #define's ID_CONST or ID_TYPEDEF too */
} Ident;

/*
 * What one interned name is bound to in each name space: the innermost
 * ordinary binding of the source being lowered, and the program-wide
 * object, tag, definitions and prototype of that name.
 */
typedef struct NameBindings {
	Ident *ident;     /* innermost binding in the source being lowered */
	Var *ext;         /* the object with external linkage of that name */
	Type *tag;        /* struct/union/enum with that tag */
	Func *funcs;      /* latest definition of that name (chain: LowerTables.next_func) */
	FuncDecl *decl;   /* its prototype, while no definition is known */
	bool variadic;    /* declared with '...' somewhere */
} NameBindings;

typedef struct CallSite {
	Expr *call;       /* EX_CALL with a plain callee name */
	const Source *src;
} CallSite;

typedef enum PrimKind {
	P_VOID, P_BOOL, P_CHAR, P_SCHAR, P_UCHAR, P_SHORT, P_USHORT, P_INT, P_UINT,
	P_LONG, P_ULONG, P_LLONG, P_ULLONG, P_FLOAT, P_DOUBLE, P_LDOUBLE, NPRIM
} PrimKind;

struct LowerTables {
	Array(NameBindings) names; /* by interned name id */
	Array(CallSite) calls;    /* resolved by lower_resolve_calls */
	Array(Func *) next_func;  /* by Func.id: earlier definition of the same name */
	Array(Type *) records;    /* struct/union types with members, in definition order */
	Type *prim[NPRIM];        /* primitive types of this program */
};

typedef struct Undo {
	int name;
	Ident *prev; /* binding to restore when the scope closes */
} Undo;

/* The source being lowered and where the walk stands in it. */
typedef struct LowerState {
	Program *prog;
	struct LowerTables *lt;
	const Source *src;
	Func *func;        /* function being lowered, NULL at file scope */
	int depth;         /* block depth: 0 file scope */
	Array(Undo) undo;  /* bindings to restore, innermost last */
	uint32_t um;       /* unmodelled bits of the statement being lowered */
	uint32_t outside;  /* src->outside entries applied so far */
	bool ok;           /* no diagnostic so far */
	int pragma_pack;   /* the file has a #pragma pack: 0 not scanned yet, 1 yes, -1 no */
	const char *mx_text; /* lowering a macro's replacement (macro.c): its text, */
	uint32_t mx_start, mx_end; /* and the use's bytes that its nodes take */
} LowerState;

extern LowerState lw;

/* The bindings of name (> 0), created empty on first use. */
NameBindings *lw_bindings(int name);
/* The innermost ordinary binding of name, or NULL. */
Ident *lw_lookup(int name);
/* Binds name in the innermost scope; the caller fills the binding. */
Ident *lw_bind(int name, IdentKind kind);
/* A block scope: enter returns the mark that leave restores to. */
uint32_t lw_scope_enter(void);
void lw_scope_leave(uint32_t mark);
/* Records an unmodelled construct for the statement and function around it. */
void lw_note_um(UnmodelledKind kind, uint32_t at);
/* A #define (preproc_def or preproc_function_def): binds its name (a constant, typedef or macro). */
void lw_define(TSNode n);
/* An #undef line (preproc_call); other directives are let be. */
void lw_undef(TSNode n);

/* ---- type.c: types, specifiers and declarators ---- */

/* What the specifiers of one declaration say. */
typedef struct DeclSpec {
	Type *type;           /* base type, qualifiers applied */
	StorageClass storage;
	bool is_inline;
	bool is_thread_local; /* __thread, thread_local, _Thread_local */
} DeclSpec;

/* The name and type a declarator gives, and the function_declarator of the name. */
typedef struct Declarator {
	int name;
	TSNode name_node; /* identifier, or null for an abstract declarator */
	Type *type;
	TSNode func;      /* innermost function_declarator, or null */
} Declarator;

/* The program's primitive type p (one Type per program). */
Type *lw_prim(PrimKind p);
Type *lw_pointer_to(Type *base);
/* Array of len elements (-1: unknown). */
Type *lw_array_of(Type *base, int64_t len);
/* Integer promotion: anything narrower than int becomes int. */
Type *lw_promote(Type *t);
bool lw_is_arith(const Type *t);
bool lw_is_ptrlike(const Type *t);
/* The usual arithmetic conversions, roughly; NULL when a side is unknown. */
Type *lw_usual_type(Type *a, Type *b);
/* Member name of a struct/union, looking into anonymous members too. */
Type *lw_member_type(Type *t, int name);
/* Element type of an array or pointee of a pointer, else NULL. */
Type *lw_pointee(Type *t);
/* The type a macro's replacement spells (type words only), or NULL. */
Type *lw_type_of_text(const char *s, size_t len);
/* Adds a storage word (static, extern, register, inline...) of len bytes to ds. */
void lw_add_storage(const char *w, size_t len, DeclSpec *ds);
/* The specifiers of a declaration-like node into ds. */
void lower_specifiers(TSNode n, DeclSpec *ds);
/* Adds hidden's storage class (where ds has none), inline and thread-local to ds. */
void lw_merge_spec(DeclSpec *ds, const DeclSpec *hidden);
/* Adds the storage words of the specifier macros that a block-scope declaration n holds. */
void lw_hidden_specifiers(TSNode n, DeclSpec *ds);
bool lw_hidden_complex(uint32_t from, uint32_t to);
bool lw_hidden_within(uint32_t from, uint32_t to, HideKind kind);
/* A type_specifier node: struct, union, enum, sized, primitive, typedef name. */
Type *lower_specifier(TSNode n);
/* Wraps t in the declarator d (outside in) into out. */
void lower_declarator(TSNode d, Type *t, Declarator *out);
Type *lower_type_descriptor(TSNode n);
void lower_typedef(TSNode n);

/* ---- expr.c: expressions ---- */

/* An expression node, or NULL for a null node. */
Expr *lower_expr(TSNode n);

/* ---- macro.c: macro uses in expressions, expanded for the analysis ---- */

/* The #define that name has at the place being expanded (its macro_params, macro_body), or NULL. */
typedef const Ident *MacroLookup(int name, void *ctx);
/*
 * The macro use that starts at *p (a name lookup knows; a function-like
 * one's arguments follow it), expanded as cpp does, tokens one blank apart
 * (arena text, *len bytes); *p moves past the use.  NULL, *p unmoved, when
 * *p starts no use or the expander gives up on it.
 */
char *macro_expand_use(const char **p, const char *end, MacroLookup *lookup, void *ctx,
                       uint32_t *len);

/* Binds name to a #define; params is the text between the parentheses of a function-like one. */
void lw_bind_macro(int name, const char *params, size_t plen, const char *body, size_t blen);
/* Whether n (an identifier or a call) uses a macro the lowering knows. */
bool lw_is_macro_use(TSNode n);
/* The expression macro use n expands to, lowered; NULL to keep n as it reads. */
Expr *lower_macro_use(TSNode n);
/*
 * Expression statement n that uses a macro spelling declarations and
 * statements (`POLYBENCH_2D_ARRAY_DECL(A, ...);`): its items lowered into
 * list by lower_item; false to read n as written.
 */
bool lower_macro_stmt(StmtList *list, TSNode n, void (*lower_item)(StmtList *, TSNode));
/* Expression statement n that is a declaration `T (*A)[N];` of typedef name T: lowered into list. */
bool lower_typename_stmt(StmtList *list, TSNode n, void (*lower_item)(StmtList *, TSNode));
/* Whether function_declarator d is a use of a function-like macro: `double ARR(A, N, M)`. */
bool lw_is_macro_declarator(TSNode d);
/* Wraps t in what macro use d expands to, as lower_declarator does; false to read d as written. */
bool lower_macro_declarator(TSNode d, Type *t, Declarator *out);
/* e is used as a value: an array there decays, and its object's address escapes. */
void lw_note_decay(const Expr *e);

/* ---- lower.c: objects ---- */

/* A new Var of the current source (and function, unless VAR_GLOBAL) at node d. */
Var *lw_new_var(int name, Type *t, VarScope scope, TSNode d);
/* The one Var of a file-scope (or block-scope extern) object declaration. */
Var *lw_global_var(const Declarator *dc, StorageClass sc, TSNode d);
/* A function declared, not defined, here: binds its name and notes a prototype. */
void lw_declare_func(const Declarator *dc, const DeclSpec *ds);
/* An array of unknown length given its length by its initializer init (node value). */
Type *lw_completed_type(Type *t, TSNode value, const Expr *init);

/* ---- stmt.c: statements ---- */

/* One statement; a declaration of several objects becomes a block of ST_DECLs. */
Stmt *lower_stmt(TSNode n);

#endif /* MTPAR_LOWERING */

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
	bool crowded;       /* the level's one BB: it would have had over MFG_MAX_MTS MTs */
	uint32_t unmodelled; /* bitmask of UnmodelledKind */
	Array(MT *) children; /* MT_RB: the body's MTs; root: the function's MTs */
	/* control parent at the same level: this MT runs only if branch_mt took branch_dir */
	MT *branch_mt;
	bool branch_dir;
	struct Summary *summary; /* reads and writes: filled by acc_compute_summaries (middle/) */
	void *graph;        /* the middle stage's per-MT data (MFG/MTG node) */
};

/*
 * reserved.c: does prog use a name that mtpar's output declares (mtpar_...,
 * NAME__mtparN)?  Then a warning at the first, and the caller keeps the
 * program sequential.
 */
bool reserved_names_used(const Program *prog);
/* Is the identifier [p, p + n) one that mtpar's output declares? */
bool reserved_name(const char *p, size_t n);
/*
 * Does prog read the floating-point exception flags (fetestexcept,
 * fegetexceptflag, feholdexcept, fegetenv, feupdateenv)?  Each thread keeps
 * flags of its own, and those a worker raises never reach the program:
 * then a warning, and the caller keeps the program sequential.
 */
bool fp_flags_read(const Program *prog);
bool fp_flag_reader(const char *p, size_t n);
/* Does prog read or set errno (which math functions set, per thread)? */
bool errno_used(const Program *prog);
bool errno_name(const char *p, size_t n);

/*
 * Cuts every function body and loop body of prog into macro tasks.  A body
 * that would have more than MFG_MAX_MTS becomes one BB (crowded) instead.
 */
void mt_build(Program *prog);
/* Was the level of owner's children made one BB because it was crowded? */
bool mt_level_crowded(const MT *owner);
/* Deterministic indented listing (--dump=mt). */
void mt_dump(FILE *out, const Program *prog);

#endif /* MTPAR_FRONTEND_H */
