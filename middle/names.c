/*
 * names.c - access analysis: what an identifier that is neither a Var nor
 * a defined function stands for: library functions, standard macros, and
 * the sources' own #defines and enumerators, as the front end lists them (ppdefs.c).
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"

/* ------------------------------------------------------------------ */
/* Names: library functions, standard macros, the sources' #defines    */
/* ------------------------------------------------------------------ */

/* What an interned name stands for (NameKind and ExtKind are in middle.h). */
typedef struct NameInfo {
	uint8_t kind;  /* NameKind */
	uint8_t ext;   /* ExtKind for NM_EXT */
	int8_t arg;    /* EXT_ALLOC size argument, EXT_FREE pointer argument */
	bool has_val;
	int64_t val;
} NameInfo;

static Array(NameInfo) name_table; /* by interned name, for the program names_init saw */

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
	/* <complex.h> */
	"creal", "crealf", "cimag", "cimagf", "cabs", "cabsf", "carg", "cargf", "conj",
	"conjf", "cproj", "cprojf", "cexp", "cexpf", "clog", "clogf", "csqrt", "csqrtf",
	"cpow", "cpowf", "csin", "csinf", "ccos", "ccosf", "ctan", "ctanf", "ctanh", "ctanhf",
	"CMPLX", "CMPLXF", "__builtin_complex",
};

/* Of pure_funcs, those that never set errno (C11 7.12.1 and the functions' own clauses). */
static const char *const errno_free[] = {
	"fabs", "fabsf", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "trunc", "truncf",
	"rint", "rintf", "nearbyint", "nearbyintf", "fmax", "fmaxf", "fmin", "fminf", "copysign",
	"copysignf", "abs", "labs", "llabs", "isnan", "isinf", "isfinite", "signbit", "fpclassify",
	"__builtin_expect", "__builtin_isnan", "__builtin_isinf", "creal", "crealf", "cimag",
	"cimagf", "conj", "conjf", "cproj", "cprojf", "carg", "cargf", "CMPLX", "CMPLXF",
	"__builtin_complex",
};

static bool sets_errno(const char *name)
{
	for (size_t i = 0; i < sizeof(errno_free) / sizeof(*errno_free); i++)
		if (strcmp(errno_free[i], name) == 0)
			return false;
	return true;
}

static const struct {
	const char *name;
	ExtKind ext;
	int arg;
} ext_funcs[] = {
	{ "memcpy", EXT_MEMCPY, 0 }, { "memmove", EXT_MEMCPY, 0 }, { "memset", EXT_MEMSET, 0 },
	{ "__builtin_memcpy", EXT_MEMCPY, 0 }, { "__builtin_memmove", EXT_MEMCPY, 0 },
	{ "__builtin_memset", EXT_MEMSET, 0 },
	{ "malloc", EXT_ALLOC, 0 }, { "calloc", EXT_ALLOC, EXT_ARG_COUNT_SIZE },
	{ "aligned_alloc", EXT_ALLOC, 1 },
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
	{ "I", false, 0 }, { "_Complex_I", false, 0 },
};

static NameInfo *name_info(int name)
{
	static NameInfo none;

	if (name <= 0 || (uint32_t)name >= name_table.len) {
		memset(&none, 0, sizeof(none));
		return &none;
	}
	return &name_table.items[name];
}

static NameInfo *name_slot(int name)
{
	NameInfo zero = { 0 };

	while (name_table.len <= (uint32_t)name)
		array_push(&name_table, zero);
	return &name_table.items[name];
}

/* ------------------------------------------------------------------ */
/* The sources' #define lines and enumerators (from ppdefs.c)         */
/* ------------------------------------------------------------------ */

static bool is_type_word(const PPToken *t)
{
	static const char *const words[] = { "float", "double", "int", "char", "short", "long",
	                                     "unsigned", "signed", "const", "volatile", "void",
	                                     "_Bool", "bool", "sizeof", "int8_t", "uint8_t",
	                                     "int16_t", "uint16_t", "int32_t", "uint32_t",
	                                     "int64_t", "uint64_t", "size_t" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (pp_token_is(t, words[i]))
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

static bool is_param(const Macro *m, const PPToken *t)
{
	const char *p = m->params;
	PPToken pt;

	while (p && pp_next_token(&p, m->pend, &pt))
		if (pt.kind == 'i' && pt.n == t->n && memcmp(pt.s, t->s, t->n) == 0)
			return true;
	return false;
}

static void escape_global_named(const PPToken *t);
static NameKind macro_kind(MacroList *ml, int name, int depth);

/*
 * Is the body harmless: it computes a value from its parameters,
 * literals, constants and pure functions, with no assignment, no
 * dereference, no member access, no statement?
 */
static bool macro_pure(MacroList *ml, const Macro *m, int depth)
{
	const char *p = m->body;
	PPToken t, prev = { NULL, 0, 'p' };
	bool pure = true;

	while (pp_next_token(&p, m->end, &t)) {
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
			bool after_operand = prev.kind == 'i' || prev.kind == 'n' || pp_token_is(&prev, ")") ||
			                     pp_token_is(&prev, "]");
			static const char *const bad[] = { "=", "++", "--", "+=", "-=", "*=", "/=", "%=",
			                                   "&=", "|=", "^=", "<<=", ">>=", "{", "}", ";",
			                                   "#", "##", "->", ".", "[" };

			for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
				if (pp_token_is(&t, bad[i]))
					pure = false;
			if ((pp_token_is(&t, "*") || pp_token_is(&t, "&")) && !after_operand)
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
		PPToken t, t2;
		int64_t v;

		if (m->name != name)
			continue;
		found = true;
		is_func |= m->is_func;
		pure &= macro_pure(ml, m, depth);
		/* an integer literal, possibly parenthesized and negated */
		bool neg = false, ok = false;
		while (pp_next_token(&p, m->end, &t) && (pp_token_is(&t, "(") || pp_token_is(&t, "-")))
			neg ^= pp_token_is(&t, "-");
		if (pp_token_int(&t, &v)) {
			ok = true;
			while (pp_next_token(&p, m->end, &t2))
				ok &= pp_token_is(&t2, ")");
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

/*
 * Collects the macros src sees: those -D and its headers define (in the
 * order the scan met them), then its own active #define lines.
 */
static void scan_defines(const Source *src, MacroList *ml)
{
	PPMacroDef d;

	for (uint32_t i = 0; i < src->outside.len; i++) {
		const PPConst *c = &src->outside.items[i];
		Macro m = { c->name, c->params != NULL, c->params, NULL, c->text, NULL };

		if (!c->text)
			continue; /* an #undef */
		m.pend = c->params ? c->params + strlen(c->params) : NULL;
		m.end = c->text + strlen(c->text);
		array_push(ml, m);
	}

	for (uint32_t ln = 0; pp_next_define(src, &ln, &d);) {
		Macro m = { intern(d.name, d.name_len), d.is_func, d.params, d.params_end,
		            d.body, d.end };

		array_push(ml, m);
	}
}

/* Enumerators: identifiers starting the items of enum { ... } bodies. */
static void scan_enums(const Source *src)
{
	PPEnumScan es;
	PPToken t;

	pp_enum_scan_init(&es, src);
	while (pp_next_enumerator(&es, &t)) {
		NameInfo *ni = name_slot(intern(t.s, t.n));

		if (ni->kind == NM_UNKNOWN)
			ni->kind = NM_CONST;
	}
}

static void escape_global_named(const PPToken *t)
{
	int id = intern(t->s, t->n);

	for (uint32_t i = 0; i < acc.prog->globals.len; i++)
		if (acc.prog->globals.items[i]->name == id)
			acc_info(acc.prog->globals.items[i])->escapes = true;
}

/*
 * A file-scope pointer initialized with an address (`float *gp = buf;`)
 * whose initializer pp_scan hid: the text up to the ';' is scanned and
 * every global it names escapes.
 */
void names_scan_hidden_initializers(void)
{
	for (uint32_t i = 0; i < acc.prog->globals.len; i++) {
		Var *g = acc.prog->globals.items[i];
		const char *p, *end;
		int depth = 0;
		PPToken t;

		if (!g->init_hidden || !g->src || !type_has_pointer(g->type, 0))
			continue;
		p = g->src->text + g->start;
		end = g->src->text + g->src->len;
		while (pp_next_token(&p, end, &t)) {
			if (pp_token_is(&t, "{") || pp_token_is(&t, "("))
				depth++;
			else if (pp_token_is(&t, "}") || pp_token_is(&t, ")"))
				depth--;
			else if (depth <= 0 && pp_token_is(&t, ";"))
				break;
			else if (t.kind == 'i')
				escape_global_named(&t);
		}
	}
}

void names_release(void)
{
	array_free(&name_table);
}

void names_init(void)
{
	MacroList ml = { 0 };
	bool errno_read = errno_used(acc.prog);

	array_free(&name_table);
	for (size_t i = 0; i < sizeof(pure_funcs) / sizeof(pure_funcs[0]); i++) {
		NameInfo *ni = name_slot(intern(pure_funcs[i], strlen(pure_funcs[i])));
		ni->kind = NM_EXT;
		ni->ext = errno_read && sets_errno(pure_funcs[i]) ? EXT_ERRNO : EXT_PURE;
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
	for (uint32_t i = 0; i < acc.prog->sources.len; i++)
		scan_enums(acc.prog->sources.items[i]);
	/* the sources' macros override the standard names they redefine */
	for (uint32_t i = 0; i < acc.prog->sources.len; i++)
		scan_defines(acc.prog->sources.items[i], &ml);
	for (uint32_t i = 0; i < ml.len; i++) {
		NameInfo *ni = name_slot(ml.items[i].name);
		if (ni->kind == NM_CONST || ni->kind == NM_EXT)
			ni->kind = NM_UNKNOWN;
	}
	for (uint32_t i = 0; i < ml.len; i++)
		macro_kind(&ml, ml.items[i].name, 0);
	array_free(&ml);
	/* functions of the program last: a definition beats a same-named macro */
	for (uint32_t i = 0; i < acc.prog->decls.len; i++) {
		NameInfo *ni = name_slot(acc.prog->decls.items[i]->name);
		if (ni->kind != NM_EXT)
			ni->kind = NM_FUNC;
	}
	/* but not over a contract known by name (names_unbind_contracts) */
	for (uint32_t i = 0; i < acc.prog->funcs.len; i++) {
		NameInfo *ni = name_slot(acc.prog->funcs.items[i]->name);
		if (ni->kind != NM_EXT)
			ni->kind = NM_FUNC;
	}
}

static bool is_contract(int name)
{
	const char *s = intern_name(name);

	for (size_t i = 0; i < sizeof(ext_funcs) / sizeof(ext_funcs[0]); i++)
		if (strcmp(s, ext_funcs[i].name) == 0)
			return true;
	return false;
}

static void unbind_contract(Expr *e, void *ctx)
{
	(void)ctx;
	if (e->kind == EX_CALL && e->callee_func && is_contract(e->name))
		e->callee_func = NULL;
}

void names_unbind_contracts(Program *prog)
{
	for (uint32_t i = 0; i < prog->funcs.len; i++)
		if (prog->funcs.items[i]->body)
			ir_visit_stmt(prog->funcs.items[i]->body, unbind_contract, NULL, NULL);
}

/* The library function a call names, EXT_UNKNOWN if none. */
ExtKind names_call_ext(const Expr *call, int *arg)
{
	NameInfo *ni = name_info(call->name);

	*arg = ni->arg;
	return ni->kind == NM_EXT ? (ExtKind)ni->ext : EXT_UNKNOWN;
}

NameKind names_kind(int name)
{
	return (NameKind)name_info(name)->kind;
}

bool names_value(int name, int64_t *val)
{
	NameInfo *ni = name_info(name);

	*val = ni->val;
	return ni->kind == NM_CONST && ni->has_val;
}
