/*
 * ppexpr.c - front end, the preprocessor scan's #if evaluator: lexes the
 * cleaned directive line, resolves 'defined' and expands object-like macros
 * (C17 6.10.1p4), then evaluates the integer constant expression in intmax_t
 * by precedence climbing, as cpp does.
 */
#include <stdlib.h>
#include <string.h>

#define MTPAR_PP
#include "frontend.h"

enum {
	IF_TOKENS_MAX = 1 << 20,  /* a #if that expands past this is an error, not a hang */
};

typedef enum TokKind {
	TK_NUM,    /* pp-number, read when used */
	TK_CHAR,   /* character constant, maybe with an L/u/U/u8 prefix */
	TK_VAL,    /* computed: the result of defined */
	TK_IDENT,
	TK_PUNCT,  /* op: the character, or a PX_ code for two characters */
	TK_OTHER,  /* string literals and the like: never valid in #if */
} TokKind;

enum { PX_SHL = 256, PX_SHR, PX_LE, PX_GE, PX_EQ, PX_NE, PX_LAND, PX_LOR };

typedef struct Tok {
	TokKind kind;
	int op;
	intmax_t val;        /* TK_VAL */
	const char *s;       /* spelling, in the line or a macro body */
	uint32_t n;
	uint32_t at;         /* source byte for diagnostics */
} Tok;

typedef Array(Tok) TokList;

/* A value of #if: an intmax_t, or a uintmax_t where u (C11 6.10.1p4). */
typedef struct PPVal {
	intmax_t v;
	bool u;
} PPVal;

typedef struct Eval {
	PPScan *s;
	TokList toks;        /* the line after macro expansion */
	uint32_t i;          /* next token */
	uint32_t end_at;     /* source byte of the line's end */
	bool ok;
} Eval;

static void eval_error(Eval *e, const Tok *t, const char *msg)
{
	if (!e->ok)
		return;
	if (t)
		pp_fail(e->s, t->at, "%s '%.*s' in #if", msg, (int)t->n, t->s);
	else
		pp_fail(e->s, e->end_at, "%s in #if", msg);
	e->ok = false;
}

/* "expected X before 'tok'", or "at the end" when the line ran out. */
static void eval_expected(Eval *e, const char *what)
{
	const Tok *t = e->ok && e->i < e->toks.len ? &e->toks.items[e->i] : NULL;

	if (!e->ok)
		return;
	if (t)
		pp_fail(e->s, t->at, "expected %s before '%.*s' in #if", what, (int)t->n, t->s);
	else
		pp_fail(e->s, e->end_at, "expected %s at the end of #if", what);
	e->ok = false;
}

static int punct_op(const char *p, uint32_t *n)
{
	static const char two[][3] = { "<<", ">>", "<=", ">=", "==", "!=", "&&", "||" };

	for (int k = 0; k < 8; k++) {
		if (p[0] == two[k][0] && p[1] == two[k][1]) {
			*n = 2;
			return PX_SHL + k;
		}
	}
	*n = 1;
	return (unsigned char)p[0];
}

/* Whether the identifier p[0..n) prefixes a character or string literal. */
static bool is_literal_prefix(const char *p, uint32_t n)
{
	return (n == 1 && (p[0] == 'L' || p[0] == 'u' || p[0] == 'U')) ||
	       (n == 2 && p[0] == 'u' && p[1] == '8');
}

/* One token at p[i] (not a blank); returns its end. */
static uint32_t lex_one(const char *p, uint32_t n, uint32_t i, Tok *t)
{
	uint32_t j, k;

	if (pp_is_digit(p[i]) || (p[i] == '.' && pp_is_digit(p[i + 1]))) {
		t->kind = TK_NUM;
		return pp_skip_number(p, i);
	}
	if (pp_ident_char[(unsigned char)p[i]]) {
		j = pp_ident_end(p, i);
		t->kind = TK_IDENT;
		if ((p[j] == '\'' || p[j] == '"') && is_literal_prefix(p + i, j - i)) {
			t->kind = p[j] == '\'' ? TK_CHAR : TK_OTHER;
			return pp_skip_literal(p, n, j);
		}
		return j;
	}
	if (p[i] == '\'' || p[i] == '"') {
		t->kind = p[i] == '\'' ? TK_CHAR : TK_OTHER;
		return pp_skip_literal(p, n, i);
	}
	t->kind = TK_PUNCT;
	t->op = punct_op(p + i, &k);
	return i + k;
}

/* Tokens of p[0..n); positions from map, or all at 'at' for a macro body. */
static void lex_tokens(const char *p, uint32_t n, const uint32_t *map, uint32_t at,
                       TokList *out)
{
	uint32_t i = 0;

	while (i < n) {
		Tok t = { .s = p + i, .at = map ? map[i] : at };
		uint32_t j;

		if (pp_is_blank(p[i])) {
			i++;
			continue;
		}
		j = lex_one(p, n, i, &t);
		t.n = j - i;
		array_push(out, t);
		i = j;
	}
}

static bool is_punct(const Tok *t, int op)
{
	return t->kind == TK_PUNCT && t->op == op;
}

/* 'defined X' or 'defined ( X )' at in[*i]: one TK_VAL. */
static void expand_defined(Eval *e, const TokList *in, uint32_t *i)
{
	const Tok *d = &in->items[*i];
	uint32_t k = *i + 1;
	bool paren = k < in->len && is_punct(&in->items[k], '(');
	Tok v = { .kind = TK_VAL, .s = d->s, .n = d->n, .at = d->at };
	PPMacro *m;

	k += paren;
	if (k >= in->len || in->items[k].kind != TK_IDENT) {
		eval_error(e, d, "no identifier after");
		return;
	}
	m = pp_macro_find(e->s, in->items[k].s, in->items[k].n);
	v.val = (m && m->defined) || pp_builtin_macro(in->items[k].s, in->items[k].n);
	if (!v.val)
		pp_undefined_name(e->s, in->items[k].s, in->items[k].n, in->items[k].at);
	if (paren && (++k >= in->len || !is_punct(&in->items[k], ')'))) {
		eval_error(e, d, "missing ')' after");
		return;
	}
	*i = k;
	array_push(&e->toks, v);
}

/*
 * Appends the tokens of p[0..n) to e->toks with 'defined' resolved and
 * object-like macros replaced by their expansions (C17 6.10.1p4).  Names
 * left over are 0 or calls; the evaluator reads them so.
 */
static void expand(Eval *e, const char *p, uint32_t n, const uint32_t *map,
                   uint32_t at, int depth)
{
	TokList in = { 0 };

	lex_tokens(p, n, map, at, &in);
	for (uint32_t i = 0; i < in.len && e->ok; i++) {
		Tok *t = &in.items[i];
		PPMacro *m;

		if (t->kind != TK_IDENT) {
			array_push(&e->toks, *t);
			continue;
		}
		if (t->n == 7 && memcmp(t->s, "defined", 7) == 0) {
			expand_defined(e, &in, &i);
			continue;
		}
		m = pp_macro_find(e->s, t->s, t->n);
		if (!m || !m->defined || m->funclike || m->expanding ||
		    depth >= PP_EXPAND_DEPTH_MAX) {
			array_push(&e->toks, *t);
			continue;
		}
		m->expanding = true;
		expand(e, m->body, (uint32_t)strlen(m->body), NULL, t->at, depth + 1);
		m->expanding = false;
		if (e->toks.len > IF_TOKENS_MAX)
			eval_error(e, t, "expansion too large at");
	}
	array_free(&in);
}

static const Tok *peek(const Eval *e)
{
	return e->ok && e->i < e->toks.len ? &e->toks.items[e->i] : NULL;
}

static bool accept(Eval *e, int op)
{
	const Tok *t = peek(e);

	if (!t || !is_punct(t, op))
		return false;
	e->i++;
	return true;
}

static int digit_value(char c)
{
	if (pp_is_digit(c))
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'z' ? c - 'a' + 10 : 99;
}

/* u, l, ll in either order, any case (ll only with equal letters); *u: a u. */
static bool int_suffix(const char *p, const char *end, bool *unsig)
{
	bool u = false, l = false;

	while (p < end) {
		if ((*p == 'u' || *p == 'U') && !u) {
			u = true;
			p++;
		} else if ((*p == 'l' || *p == 'L') && !l) {
			l = true;
			p += p + 1 < end && p[1] == p[0] ? 2 : 1;
		} else {
			return false;
		}
	}
	*unsig = u;
	return true;
}

/*
 * Decimal, hex, octal or binary integer constant; wraps like gcc.  In #if
 * it is an intmax_t, or a uintmax_t with a u suffix or when it does not
 * fit (C11 6.10.1p4).
 */
static PPVal number_value(Eval *e, const Tok *t)
{
	const char *p = t->s, *end = t->s + t->n, *digits;
	uintmax_t v = 0;
	int base = 10;
	bool u = false;

	if (p[0] == '0' && t->n > 1) {
		base = (p[1] | 0x20) == 'x' ? 16 : (p[1] | 0x20) == 'b' ? 2 : 8;
		p += base == 8 ? 1 : 2;
	}
	for (digits = p; p < end && digit_value(*p) < base; p++)
		v = v * (uintmax_t)base + (uintmax_t)digit_value(*p);
	if ((p == digits && base != 8) || !int_suffix(p, end, &u))
		eval_error(e, t, "invalid integer constant");
	return (PPVal){ (intmax_t)v, u || v > (uintmax_t)INTMAX_MAX };
}

/* The character or escape sequence at *p, before the closing quote at end. */
static int char_escape(const char **pp, const char *end)
{
	static const char from[] = "ntrabfve", to[] = "\n\t\r\a\b\f\v\x1b";
	const char *p = *pp, *k;
	int v = 0;

	if (*p != '\\' || p + 1 >= end) {
		*pp = p + 1;
		return (unsigned char)*p;
	}
	p++;
	if (*p == 'x') {
		for (p++; p < end && digit_value(*p) < 16; p++)
			v = v * 16 + digit_value(*p);
	} else if (*p >= '0' && *p <= '7') {
		for (int k8 = 0; k8 < 3 && p < end && *p >= '0' && *p <= '7'; k8++, p++)
			v = v * 8 + (*p - '0');
	} else {
		k = strchr(from, *p);
		v = k && *k ? (unsigned char)to[k - from] : (unsigned char)*p;
		p++;
	}
	*pp = p;
	return v;
}

/* 'a', '\n', L'x': a plain one-character constant is a signed char, as in gcc. */
static intmax_t char_value(Eval *e, const Tok *t)
{
	const char *p = (const char *)memchr(t->s, '\'', t->n) + 1, *end = t->s + t->n - 1;
	bool plain = t->s[0] == '\'';
	uintmax_t v = 0;
	int count = 0;

	if (end < p || *end != '\'' || p == end) {
		eval_error(e, t, "malformed character constant");
		return 0;
	}
	while (p < end) {
		int c = char_escape(&p, end);

		v = plain ? v << 8 | (unsigned)(c & 0xff) : (uintmax_t)c;
		count++;
	}
	if (plain && count == 1)
		return (signed char)v;
	return (intmax_t)v;
}

/* A name followed by '(' is a call of a function-like macro or __has_include. */
static void skip_call(Eval *e)
{
	uint32_t depth = 0;

	if (!accept(e, '('))
		return;
	for (depth = 1; e->i < e->toks.len && depth; e->i++) {
		const Tok *t = &e->toks.items[e->i];

		depth += is_punct(t, '(');
		depth -= is_punct(t, ')');
	}
	if (depth)
		eval_error(e, NULL, "unterminated macro call");
}

static PPVal ev_cond(Eval *e, bool live);

static PPVal signed_val(intmax_t v)
{
	return (PPVal){ v, false };
}

static PPVal ev_primary(Eval *e, bool live)
{
	const Tok *t = peek(e);
	PPVal v;

	if (!t) {
		eval_error(e, NULL, "missing expression");
		return signed_val(0);
	}
	e->i++;
	switch (t->kind) {
	case TK_VAL:
		return signed_val(t->val);
	case TK_NUM:
		return number_value(e, t);
	case TK_CHAR:
		return signed_val(char_value(e, t));
	case TK_IDENT:
		if (pp_builtin_macro(t->s, t->n)) {
			intmax_t b = 0;

			if (!pp_builtin_value(e->s, t->s, t->n, t->at, &b))
				e->ok = false;
			skip_call(e);
			return signed_val(b);
		}
		if (peek(e) && is_punct(peek(e), '('))
			skip_call(e);
		else
			pp_undefined_name(e->s, t->s, t->n, t->at);
		return signed_val(0);
	default:
		if (!is_punct(t, '('))
			break;
		v = ev_cond(e, live);
		if (!accept(e, ')'))
			eval_expected(e, "')'");
		return v;
	}
	eval_error(e, t, "unexpected token");
	return signed_val(0);
}

static PPVal ev_unary(Eval *e, bool live)
{
	const Tok *t = peek(e);
	PPVal v;

	if (!t || t->kind != TK_PUNCT)
		return ev_primary(e, live);
	switch (t->op) {
	case '!':
		e->i++;
		return signed_val(!ev_unary(e, live).v);
	case '~':
		e->i++;
		v = ev_unary(e, live);
		return (PPVal){ (intmax_t)~(uintmax_t)v.v, v.u };
	case '-':
		e->i++;
		v = ev_unary(e, live);
		return (PPVal){ (intmax_t)(0 - (uintmax_t)v.v), v.u };
	case '+':
		e->i++;
		return ev_unary(e, live);
	}
	return ev_primary(e, live);
}

static int binary_prec(const Tok *t)
{
	if (t->kind != TK_PUNCT)
		return 0;
	switch (t->op) {
	case PX_LOR: return 1;
	case PX_LAND: return 2;
	case '|': return 3;
	case '^': return 4;
	case '&': return 5;
	case PX_EQ: case PX_NE: return 6;
	case '<': case '>': case PX_LE: case PX_GE: return 7;
	case PX_SHL: case PX_SHR: return 8;
	case '+': case '-': return 9;
	case '*': case '/': case '%': return 10;
	}
	return 0;
}

/*
 * l shifted left by n (right when n < 0); n is within [-64, 64].  A right
 * shift is arithmetic for a signed l (as gcc), logical for an unsigned one.
 */
static intmax_t shift(PPVal l, intmax_t n)
{
	if (n >= 64)
		return 0;
	if (n <= -64)
		return l.v < 0 && !l.u ? -1 : 0;
	if (n >= 0)
		return (intmax_t)((uintmax_t)l.v << n);
	return l.u ? (intmax_t)((uintmax_t)l.v >> -n) : l.v >> -n;
}

static intmax_t divide(Eval *e, const Tok *op, PPVal l, PPVal r, bool unsig, bool live)
{
	uintmax_t ul = (uintmax_t)l.v, ur = (uintmax_t)r.v;

	if (r.v == 0) {
		if (live)
			eval_error(e, op, "division by zero at");
		return 0;
	}
	if (unsig)
		return (intmax_t)(op->op == '/' ? ul / ur : ul % ur);
	if (r.v == -1) /* INTMAX_MIN / -1 wraps */
		return op->op == '/' ? (intmax_t)(0 - ul) : 0;
	return op->op == '/' ? l.v / r.v : l.v % r.v;
}

/* A comparison, in uintmax_t when either side is unsigned (-1 > 0u holds). */
static bool compare(int op, PPVal l, PPVal r, bool unsig)
{
	uintmax_t ul = (uintmax_t)l.v, ur = (uintmax_t)r.v;

	switch (op) {
	case '<': return unsig ? ul < ur : l.v < r.v;
	case '>': return unsig ? ul > ur : l.v > r.v;
	case PX_LE: return unsig ? ul <= ur : l.v <= r.v;
	case PX_GE: return unsig ? ul >= ur : l.v >= r.v;
	case PX_EQ: return l.v == r.v;
	default: return l.v != r.v;
	}
}

/* The usual arithmetic conversions over intmax_t and uintmax_t (C11 6.10.1p4). */
static PPVal apply(Eval *e, const Tok *op, PPVal l, PPVal r, bool live)
{
	uintmax_t ul = (uintmax_t)l.v, ur = (uintmax_t)r.v;
	intmax_t c = r.u && (uintmax_t)r.v > 64 ? 64 : r.v < -64 ? -64 : r.v > 64 ? 64 : r.v;
	bool u = l.u || r.u;

	switch (op->op) {
	case '*': return (PPVal){ (intmax_t)(ul * ur), u };
	case '/': case '%': return (PPVal){ divide(e, op, l, r, u, live), u };
	case '+': return (PPVal){ (intmax_t)(ul + ur), u };
	case '-': return (PPVal){ (intmax_t)(ul - ur), u };
	case PX_SHL: return (PPVal){ shift(l, c), l.u };
	case PX_SHR: return (PPVal){ shift(l, -c), l.u };
	case '<': case '>': case PX_LE: case PX_GE: case PX_EQ: case PX_NE:
		return signed_val(compare(op->op, l, r, u));
	case '&': return (PPVal){ l.v & r.v, u };
	case '^': return (PPVal){ l.v ^ r.v, u };
	case '|': return (PPVal){ l.v | r.v, u };
	}
	die("pp: binary operator %d", op->op);
}

/* Precedence climbing; && and || evaluate their right side only if live. */
static PPVal ev_binary(Eval *e, int minprec, bool live)
{
	PPVal l = ev_unary(e, live), r;

	for (;;) {
		const Tok *t = peek(e);
		int prec = t ? binary_prec(t) : 0;

		if (prec == 0 || prec < minprec)
			return l;
		e->i++;
		if (t->op == PX_LAND) {
			r = ev_binary(e, prec + 1, live && l.v);
			l = signed_val(l.v && r.v);
		} else if (t->op == PX_LOR) {
			r = ev_binary(e, prec + 1, live && !l.v);
			l = signed_val(l.v || r.v);
		} else {
			r = ev_binary(e, prec + 1, live);
			l = apply(e, t, l, r, live);
		}
	}
}

/* c ? a : b has the type of a and b after the usual conversions. */
static PPVal ev_cond(Eval *e, bool live)
{
	PPVal c = ev_binary(e, 1, live), a, b, r;

	if (!accept(e, '?'))
		return c;
	a = ev_cond(e, live && c.v);
	if (!accept(e, ':')) {
		eval_expected(e, "':'");
		return signed_val(0);
	}
	b = ev_cond(e, live && !c.v);
	r = c.v ? a : b;
	r.u = a.u || b.u;
	return r;
}

bool pp_eval_if(PPScan *s, const char *line, uint32_t n, const uint32_t *map, bool *v)
{
	Eval e = { .s = s, .ok = true, .end_at = map[n] };
	PPVal r = { 0, false };

	expand(&e, line, n, map, 0, 0);
	if (e.ok && e.toks.len == 0)
		eval_error(&e, NULL, "missing expression");
	if (e.ok)
		r = ev_cond(&e, true);
	if (e.ok && e.i < e.toks.len)
		eval_error(&e, &e.toks.items[e.i], "missing binary operator before");
	array_free(&e.toks);
	*v = r.v != 0;
	return e.ok;
}
