/*
 * codegen.c - back end: the parallel program, written as edits of the
 * original text.  Each ParPlan's span of level MTs becomes one block that
 * forks threads once; every core runs its straight-line task sequence and
 * waits only for tasks on other cores, through end flags that carry a
 * generation count (OSCAR's point-to-point synchronisation of a static
 * schedule).  Chunked calls go to clones of their callees that take the
 * part and the iteration range as extra parameters.
 *
 * Correctness comes first: every plan is checked against what this file can
 * express without changing the program's meaning (codegen_check_plan), and
 * the original span stays in the output as the fallback when the OpenMP
 * runtime cannot provide the full team.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* api/mtpar_rt.h as a C string, made by the build (GNUmakefile). */
static const char mtpar_rt_text[] =
#include "mtpar_rt.inc"
;

/* ---- text builder ---- */

typedef struct Str {
	char *s;
	size_t len, cap;
} Str;

static void str_putn(Str *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void str_puts(Str *b, const char *s)
{
	str_putn(b, s, strlen(s));
}

static void str_vprintf(Str *b, const char *fmt, va_list ap)
{
	char small[256];
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n < 0)
		die("str_printf: bad format %s", fmt);
	if ((size_t)n < sizeof(small)) {
		str_putn(b, small, (size_t)n);
		return;
	}
	{
		char *big = xmalloc((size_t)n + 1);

		vsnprintf(big, (size_t)n + 1, fmt, ap);
		str_putn(b, big, (size_t)n);
		free(big);
	}
}

static void str_printf(Str *b, const char *fmt, ...) MTPAR_PRINTF(2, 3);
static void str_printf(Str *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	str_vprintf(b, fmt, ap);
	va_end(ap);
}

/* The text, moved to the arena; b is empty afterwards. */
static const char *str_done(Str *b)
{
	const char *s = arena_strndup(b->s ? b->s : "", b->len);

	free(b->s);
	memset(b, 0, sizeof(*b));
	return s;
}

/* One line of generated code: indent, depth tabs, the text, a newline. */
static void line(Str *b, const char *indent, int depth, const char *fmt, ...)
	MTPAR_PRINTF(4, 5);
static void line(Str *b, const char *indent, int depth, const char *fmt, ...)
{
	va_list ap;

	str_puts(b, indent);
	for (int i = 0; i < depth; i++)
		str_putn(b, "\t", 1);
	va_start(ap, fmt);
	str_vprintf(b, fmt, ap);
	va_end(ap);
	str_putn(b, "\n", 1);
}

/* Source bytes [start, end) appended, with any comment closer defused. */
static void put_comment_text(Str *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n' || s[i] == '\r')
			continue;
		str_putn(b, &s[i], 1);
		if (s[i] == '*' && i + 1 < n && s[i + 1] == '/')
			str_putn(b, " ", 1);
	}
}

/* false, with the reason in why (codegen_check_plan's channel). */
static bool fail(char *why, size_t size, const char *fmt, ...) MTPAR_PRINTF(3, 4);
static bool fail(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (size == 0)
		return false;
	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return false;
}

static uint32_t line_of(const Source *src, uint32_t byte)
{
	uint32_t line, col;

	source_pos(src, byte, &line, &col);
	return line;
}

static const char *func_name(const Func *f)
{
	return intern_name(f->name);
}

/* ---- scanning source text: comments, literals, identifiers ---- */

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$';
}

/* Past the comment or literal at i, or i itself when there is none. */
static uint32_t skip_comment_or_literal(const char *t, uint32_t i, uint32_t end)
{
	char q;

	if (i + 1 < end && t[i] == '/' && t[i + 1] == '*') {
		for (i += 2; i + 1 < end && !(t[i] == '*' && t[i + 1] == '/'); i++)
			;
		return i + 2 <= end ? i + 2 : end;
	}
	if (i + 1 < end && t[i] == '/' && t[i + 1] == '/') {
		while (i < end && t[i] != '\n')
			i++;
		return i;
	}
	if (t[i] != '"' && t[i] != '\'')
		return i;
	q = t[i];
	for (i++; i < end && t[i] != q && t[i] != '\n'; i++)
		if (t[i] == '\\')
			i++;
	return i < end ? i + 1 : end;
}

/* Past blanks and comments from i. */
static uint32_t skip_blanks(const char *t, uint32_t i, uint32_t end)
{
	for (;;) {
		uint32_t j;

		while (i < end && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r' ||
		                   t[i] == '\f' || t[i] == '\v'))
			i++;
		if (i >= end || t[i] != '/')
			return i;
		j = skip_comment_or_literal(t, i, end);
		if (j == i)
			return i;
		i = j;
	}
}

/*
 * The declarator name of f's definition: the first occurrence of the name,
 * outside comments and literals, that is followed by '(' (after blanks).
 * Fills the name's offset, its '(' and the matching ')'.
 */
static bool find_decl_name(const Func *f, uint32_t *name_at, uint32_t *lparen, uint32_t *rparen)
{
	const char *t = f->src->text, *name = func_name(f);
	uint32_t n = (uint32_t)strlen(name), end = f->body->start, i = f->start;

	while (i < end) {
		uint32_t j = skip_comment_or_literal(t, i, end), k;
		int depth;

		if (j != i) {
			i = j;
			continue;
		}
		if (!is_ident_char(t[i])) {
			i++;
			continue;
		}
		for (j = i; j < end && is_ident_char(t[j]); j++)
			;
		k = skip_blanks(t, j, end);
		if (j - i != n || memcmp(t + i, name, n) != 0 || k >= end || t[k] != '(') {
			i = j;
			continue;
		}
		*name_at = i;
		*lparen = k;
		for (depth = 0, j = k; j < end; j++) {
			uint32_t m = skip_comment_or_literal(t, j, end);

			if (m != j) {
				j = m - 1;
				continue;
			}
			if (t[j] == '(')
				depth++;
			if (t[j] == ')' && --depth == 0) {
				*rparen = j;
				return true;
			}
		}
		return false;
	}
	return false;
}

/* Is the parameter list between lparen and rparen empty or `void`? */
static bool params_empty(const char *t, uint32_t lparen, uint32_t rparen)
{
	uint32_t i = skip_blanks(t, lparen + 1, rparen);

	if (i == rparen)
		return true;
	if (rparen - i < 4 || memcmp(t + i, "void", 4) != 0)
		return false;
	return skip_blanks(t, i + 4, rparen) == rparen;
}

/* The blanks that start the line holding byte at. */
static const char *indent_of(const Source *src, uint32_t at)
{
	uint32_t s = at, e;

	while (s > 0 && src->text[s - 1] != '\n')
		s--;
	for (e = s; e < at && (src->text[e] == ' ' || src->text[e] == '\t'); e++)
		;
	return arena_strndup(src->text + s, e - s);
}

/* ---- walking the IR ---- */

typedef bool (*ExprPred)(const Expr *e, void *ctx);
typedef bool (*StmtPred)(const Stmt *s, void *ctx);

/* Does p hold for e or any expression inside it? */
static bool expr_any(const Expr *e, ExprPred p, void *ctx)
{
	if (!e)
		return false;
	if (p(e, ctx))
		return true;
	if (expr_any(e->lhs, p, ctx) || expr_any(e->rhs, p, ctx) || expr_any(e->cond, p, ctx))
		return true;
	for (uint32_t i = 0; i < e->args.len; i++)
		if (expr_any(e->args.items[i], p, ctx))
			return true;
	return false;
}

/* Does sp hold for s or a statement inside it, or ep for one of their expressions? */
static bool stmt_any(const Stmt *s, StmtPred sp, ExprPred ep, void *ctx)
{
	if (!s)
		return false;
	if (sp && sp(s, ctx))
		return true;
	if (ep && expr_any(s->expr, ep, ctx))
		return true;
	if (stmt_any(s->then, sp, ep, ctx) || stmt_any(s->els, sp, ep, ctx))
		return true;
	for (uint32_t i = 0; i < s->body.len; i++)
		if (stmt_any(s->body.items[i], sp, ep, ctx))
			return true;
	if (!s->loop)
		return false;
	for (uint32_t i = 0; i < s->loop->init.len; i++)
		if (stmt_any(s->loop->init.items[i], sp, ep, ctx))
			return true;
	if (ep && (expr_any(s->loop->cond, ep, ctx) || expr_any(s->loop->step, ep, ctx)))
		return true;
	return stmt_any(s->loop->body, sp, ep, ctx);
}

static bool is_incdec(const Expr *e)
{
	return e->kind == EX_UNARY && e->op >= OP_PREINC && e->op <= OP_POSTDEC;
}

/* An assignment, ++/--, a call or an expression the IR does not model. */
static bool has_effect(const Expr *e, void *ctx)
{
	(void)ctx;
	return e->kind == EX_ASSIGN || e->kind == EX_CALL || e->kind == EX_OTHER || is_incdec(e);
}

/* A variable every thread may share: global, or a static local. */
static bool shared_var(const Var *v)
{
	return v->scope == VAR_GLOBAL || v->storage == SC_STATIC || v->storage == SC_EXTERN;
}

static bool expr_private(const Expr *e);

/*
 * The address of lvalue e computed without reading shared memory:
 * v, a[i] with a's address private, s.m, p->m and *p with p's value private.
 */
static bool addr_private(const Expr *e)
{
	switch (e->kind) {
	case EX_VAR:
	case EX_NAME:
	case EX_STR:
		return true;
	case EX_INDEX:
		if (!expr_private(e->rhs))
			return false;
		if (e->lhs->type && e->lhs->type->kind == TY_PTR)
			return expr_private(e->lhs);
		return addr_private(e->lhs);
	case EX_MEMBER:
		return e->op == OP_ARROW ? expr_private(e->lhs) : addr_private(e->lhs);
	case EX_UNARY:
		return e->op == OP_DEREF && expr_private(e->lhs);
	default:
		return false;
	}
}

/*
 * Can every chunk evaluate e at once without a race or an effect: no
 * assignment or call, and no read of memory other threads may write (only
 * locals, parameters and the addresses of anything)?
 */
static bool expr_private(const Expr *e)
{
	if (!e)
		return true;
	switch (e->kind) {
	case EX_NUM:
	case EX_STR:
	case EX_NAME:
	case EX_SIZEOF:
		return true;
	case EX_VAR:
		return !shared_var(e->var) || (e->var->type && (e->var->type->kind == TY_ARRAY ||
		                                                e->var->type->kind == TY_FUNC));
	case EX_UNARY:
		if (e->op == OP_ADDR)
			return addr_private(e->lhs);
		if (e->op == OP_DEREF || is_incdec(e))
			return false;
		return expr_private(e->lhs);
	case EX_BINARY:
	case EX_COMMA:
		return expr_private(e->lhs) && expr_private(e->rhs);
	case EX_COND:
		return expr_private(e->cond) && expr_private(e->lhs) && expr_private(e->rhs);
	case EX_CAST:
		return expr_private(e->lhs);
	case EX_INDEX:
	case EX_MEMBER:
		/* an array member or element decays to its address; anything else is a read */
		return e->type && e->type->kind == TY_ARRAY && addr_private(e);
	case EX_INIT:
		for (uint32_t i = 0; i < e->args.len; i++)
			if (!expr_private(e->args.items[i]))
				return false;
		return true;
	default:
		return false;
	}
}

/* ---- checks: what the generator can express ---- */

typedef Array(const Expr *) ExprList;
typedef Array(const Clone *) CloneList;

/* The header variables of a split loop: IVs first, then copies of the first IV. */
typedef struct Header {
	Array(Var *) vars;
	ExprList copy_init;    /* per copy variable: its init expression */
	Array(Var *) copies;
} Header;

static bool var_in(Var *const *vs, uint32_t n, const Var *v)
{
	for (uint32_t i = 0; i < n; i++)
		if (vs[i] == v)
			return true;
	return false;
}

static bool mentions_header(const Expr *e, void *ctx)
{
	const Header *h = ctx;

	return e->kind == EX_VAR && var_in(h->vars.items, h->vars.len, e->var);
}

/* Writes a header variable or takes its address. */
static bool writes_header(const Expr *e, void *ctx)
{
	const Expr *target = NULL;

	if (e->kind == EX_ASSIGN || is_incdec(e) || (e->kind == EX_UNARY && e->op == OP_ADDR))
		target = e->lhs;
	return target && mentions_header(target, ctx);
}

/* A reference to a header variable outside the loop [start, end). */
typedef struct Outside {
	const Header *h;
	uint32_t start, end;
} Outside;

static bool mentions_outside(const Expr *e, void *ctx)
{
	const Outside *o = ctx;

	return (e->start < o->start || e->start >= o->end) && mentions_header(e, (void *)o->h);
}

static void flatten_comma(const Expr *e, ExprList *out)
{
	if (e && e->kind == EX_COMMA) {
		flatten_comma(e->lhs, out);
		flatten_comma(e->rhs, out);
	} else if (e) {
		array_push(out, e);
	}
}

/* The variable a for-step part updates: v++, --v, v = ..., v += ... */
static Var *step_target(const Expr *e)
{
	if ((e->kind == EX_ASSIGN || is_incdec(e)) && e->lhs && e->lhs->kind == EX_VAR)
		return e->lhs->var;
	return NULL;
}

/* The variable an init part sets, and its init expression. */
static bool init_target(const Stmt *s, Var **v, const Expr **init)
{
	if (s->kind == ST_DECL && s->var && s->expr && s->expr->kind != EX_INIT) {
		*v = s->var;
		*init = s->expr;
		return true;
	}
	if (s->kind == ST_EXPR && s->expr && s->expr->kind == EX_ASSIGN && s->expr->op == OP_ASSIGN &&
	    s->expr->lhs && s->expr->lhs->kind == EX_VAR) {
		*v = s->expr->lhs->var;
		*init = s->expr->rhs;
		return true;
	}
	return false;
}

static bool int_like(const Type *t, bool ptr_ok)
{
	return t && (t->kind == TY_INT || t->kind == TY_ENUM || (ptr_ok && t->kind == TY_PTR));
}

static const InductionVar *find_iv(const Loop *lp, const Var *v)
{
	for (uint32_t i = 0; i < lp->ivs.len; i++)
		if (lp->ivs.items[i].var == v)
			return &lp->ivs.items[i];
	return NULL;
}

/*
 * The step parts: each updates an IV once, or copies the first IV into a
 * header variable after the first IV's own update (onnx2c's `m++, c=m`).
 */
static bool check_step(const Loop *lp, Header *h, char *why, size_t size)
{
	ExprList parts = { 0 };
	Array(Var *) seen = { 0 };
	Var *iv0 = lp->ivs.items[0].var;
	bool ok = true, iv0_done = false;

	flatten_comma(lp->step, &parts);
	for (uint32_t i = 0; ok && i < parts.len; i++) {
		const Expr *e = parts.items[i];
		Var *v = step_target(e);

		if (!v || var_in(seen.items, seen.len, v)) {
			ok = fail(why, size, "loop step part is not one update of a header variable");
			break;
		}
		array_push(&seen, v);
		if (v == iv0)
			iv0_done = true;
		if (find_iv(lp, v))
			continue;
		if (e->kind == EX_ASSIGN && e->op == OP_ASSIGN && e->rhs && e->rhs->kind == EX_VAR &&
		    e->rhs->var == iv0 && iv0_done) {
			array_push(&h->copies, v);
			continue;
		}
		ok = fail(why, size, "header variable %s is neither an IV nor a copy of %s",
		          intern_name(v->name), intern_name(iv0->name));
	}
	for (uint32_t i = 0; ok && i < lp->ivs.len; i++)
		if (!var_in(seen.items, seen.len, lp->ivs.items[i].var))
			ok = fail(why, size, "IV %s has no update", intern_name(lp->ivs.items[i].var->name));
	array_free(&parts);
	array_free(&seen);
	return ok;
}

/* Every init part sets an IV or a copy (to the first IV's start value). */
static bool check_init(const Loop *lp, const SplitLoop *sl, Header *h, char *why, size_t size)
{
	for (uint32_t i = 0; i < lp->init.len; i++) {
		const Stmt *s = lp->init.items[i];
		const Expr *init;
		Var *v;

		if (!init_target(s, &v, &init))
			return fail(why, size, "loop init part that does not set a header variable");
		if (find_iv(lp, v))
			continue;
		if (!var_in(h->copies.items, h->copies.len, v))
			return fail(why, size, "header variable %s is not an IV", intern_name(v->name));
		if (init->kind != EX_NUM || init->num.is_float || init->num.ival != sl->lo)
			return fail(why, size, "copy %s does not start at %lld", intern_name(v->name),
			            (long long)sl->lo);
		array_push(&h->copy_init, init);
	}
	if (h->copy_init.len != h->copies.len)
		return fail(why, size, "copy of the IV without an init part");
	return true;
}

/* The IVs besides the first: constant steps, integers or pointers, starts free of the header. */
static bool check_other_ivs(const Loop *lp, Header *h, char *why, size_t size)
{
	for (uint32_t i = 1; i < lp->ivs.len; i++) {
		const InductionVar *iv = &lp->ivs.items[i];
		const char *name = intern_name(iv->var->name);

		if (!iv->step_known)
			return fail(why, size, "IV %s has no constant step", name);
		if (!int_like(iv->var->type, true))
			return fail(why, size, "IV %s is neither an integer nor a pointer", name);
		if (expr_any(iv->init, mentions_header, h) || expr_any(iv->init, has_effect, NULL))
			return fail(why, size, "the start of IV %s depends on the header", name);
	}
	return true;
}

static bool check_split_body(const SplitLoop *sl, const Header *h, const Func *callee,
                             char *why, size_t size);

/*
 * The loop header rewrite is sound when the first IV runs lo, lo+step, ...
 * below hi, every other header variable is an IV with a closed form (or a
 * copy of the first), and nothing else touches them.
 */
static bool split_ok(const SplitLoop *sl, const Func *callee, Header *h, char *why, size_t size)
{
	const Loop *lp;
	const InductionVar *iv0;

	if (!sl->top || !sl->loop || sl->loop->kind != ST_FOR || !sl->loop->loop)
		return fail(why, size, "split part is not a for loop");
	if (sl->loop->start < sl->top->start || sl->loop->end > sl->top->end)
		return fail(why, size, "split loop outside its part");
	lp = sl->loop->loop;
	if (!lp->ivs.len || !lp->cond || !lp->step)
		return fail(why, size, "loop without an induction variable, condition or step");
	iv0 = &lp->ivs.items[0];
	if (!iv0->step_known || iv0->step != sl->step || sl->step <= 0)
		return fail(why, size, "first IV %s does not count up by %lld",
		            intern_name(iv0->var->name), (long long)sl->step);
	if (!int_like(iv0->var->type, false))
		return fail(why, size, "first IV %s is not an integer", intern_name(iv0->var->name));
	if (lp->trip_count < 0 || lp->lower != sl->lo || sl->hi < sl->lo ||
	    (sl->hi - sl->lo + sl->step - 1) / sl->step != lp->trip_count)
		return fail(why, size, "range [%lld, %lld) step %lld is not the loop's",
		            (long long)sl->lo, (long long)sl->hi, (long long)sl->step);
	for (uint32_t i = 0; i < lp->ivs.len; i++)
		array_push(&h->vars, lp->ivs.items[i].var);
	if (!check_step(lp, h, why, size))
		return false;
	for (uint32_t i = 0; i < h->copies.len; i++)
		array_push(&h->vars, h->copies.items[i]);
	if (!check_init(lp, sl, h, why, size) || !check_other_ivs(lp, h, why, size))
		return false;
	return check_split_body(sl, h, callee, why, size);
}

/* A break that leaves the split loop itself (not a nested loop or switch). */
static bool breaks_out(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_BREAK)
		return true;
	if (s->loop || s->kind == ST_SWITCH)
		return false;
	if (breaks_out(s->then) || breaks_out(s->els))
		return true;
	for (uint32_t i = 0; i < s->body.len; i++)
		if (breaks_out(s->body.items[i]))
			return true;
	return false;
}

/* The body keeps its hands off the header; a variable declared outside stays unused there. */
static bool check_split_body(const SplitLoop *sl, const Header *h, const Func *callee,
                             char *why, size_t size)
{
	const Loop *lp = sl->loop->loop;
	Outside o = { h, sl->loop->start, sl->loop->end };

	if (stmt_any(lp->body, NULL, writes_header, (void *)h))
		return fail(why, size, "the loop body writes a header variable");
	if (breaks_out(lp->body))
		return fail(why, size, "the loop body breaks out of the loop");
	for (uint32_t i = 0; i < h->vars.len; i++) {
		if (shared_var(h->vars.items[i]))
			return fail(why, size, "header variable %s is shared",
			            intern_name(h->vars.items[i]->name));
	}
	if (callee && stmt_any(callee->body, NULL, mentions_outside, &o))
		return fail(why, size, "a header variable is used outside the loop");
	return true;
}

static void header_free(Header *h)
{
	array_free(&h->vars);
	array_free(&h->copies);
	array_free(&h->copy_init);
}

bool codegen_split_ok(const SplitLoop *sl, const Func *callee, char *why, size_t size)
{
	Header h = { 0 };
	bool ok = split_ok(sl, callee, &h, why, size);

	header_free(&h);
	return ok;
}

/*
 * Does a return, goto or label lie inside s, outside the workspace
 * statements of f (scratch_stmt: a null check's return is never taken in
 * the clone, whose workspaces are buffers)?
 */
static bool part_leaves(const Func *f, const Stmt *s)
{
	if (!s || scratch_stmt(f, s))
		return false;
	if (s->kind == ST_RETURN || s->kind == ST_GOTO || s->kind == ST_LABEL)
		return true;
	if (part_leaves(f, s->then) || part_leaves(f, s->els))
		return true;
	for (uint32_t i = 0; i < s->body.len; i++)
		if (part_leaves(f, s->body.items[i]))
			return true;
	return s->loop && part_leaves(f, s->loop->body);
}

/*
 * A statement of the callee outside its parts: it runs in every chunk.  A
 * local's initializer may read shared memory (Clip's `float minv =
 * *min_val;`): every chunk's summary holds that read, so the task graph
 * orders it against any task that writes those bytes.  It must have no
 * effect of its own.
 */
static bool harmless_in_every_chunk(const Stmt *s)
{
	switch (s->kind) {
	case ST_EMPTY:
		return true;
	case ST_DECL:
		if (s->var && shared_var(s->var))
			return !s->expr;
		return !expr_any(s->expr, has_effect, NULL);
	case ST_EXPR:
	case ST_RETURN:
		return expr_private(s->expr);
	default:
		return false;
	}
}

/*
 * Where the callee's own variables are used.  Each chunk call has fresh
 * locals and parameters, so a variable one part writes must not carry a
 * value into another part or into the statements outside the parts.
 */
typedef struct VarUse {
	Var *var;
	Array(int) places; /* distinct parts that mention it; -1: outside every part */
	bool written;      /* assigned, or its address taken, inside a part */
} VarUse;

typedef struct Uses {
	const Clone *clone;
	Array(VarUse) vars;
	const Stmt *ret;   /* the top-level return being walked: its value is discarded */
} Uses;

/* The part whose top statement holds byte at, or -1. */
static int part_at(const Clone *c, uint32_t at)
{
	for (uint32_t k = 0; k < c->parts.len; k++)
		if (at >= c->parts.items[k].top->start && at < c->parts.items[k].top->end)
			return (int)k;
	return -1;
}

static VarUse *use_of(Uses *u, Var *v)
{
	VarUse nu = { 0 };

	for (uint32_t i = 0; i < u->vars.len; i++)
		if (u->vars.items[i].var == v)
			return &u->vars.items[i];
	nu.var = v;
	array_push(&u->vars, nu);
	return &array_last(&u->vars);
}

/* A parameter declared as an array: a pointer, so its elements are the caller's. */
static bool array_param(const Var *v)
{
	return v->scope == VAR_PARAM && v->type && v->type->kind == TY_ARRAY;
}

/*
 * The variable whose own storage an lvalue names: v, v[i] of an array v,
 * v.m; NULL when the lvalue is reached through a pointer.
 */
static Var *lvalue_root(const Expr *e)
{
	bool indexed = false;

	while (e) {
		if (e->kind == EX_VAR)
			return indexed && array_param(e->var) ? NULL : e->var;
		if (e->kind == EX_INDEX && !(e->lhs->type && e->lhs->type->kind == TY_PTR))
			e = e->lhs, indexed = true;
		else if (e->kind == EX_MEMBER && e->op != OP_ARROW)
			e = e->lhs;
		else
			return NULL;
	}
	return NULL;
}

static bool note_use(const Expr *e, void *ctx)
{
	Uses *u = ctx;
	int place = part_at(u->clone, e->start);
	Var *w = NULL;

	if (e->kind == EX_ASSIGN || is_incdec(e) || (e->kind == EX_UNARY && e->op == OP_ADDR))
		w = lvalue_root(e->lhs);
	if (w && w->func == u->clone->callee && place >= 0)
		use_of(u, w)->written = true;
	if (e->kind == EX_VAR && e->var->func == u->clone->callee &&
	    !(u->ret && place < 0)) {
		VarUse *vu = use_of(u, e->var);
		bool seen = false;

		for (uint32_t i = 0; i < vu->places.len; i++)
			seen |= vu->places.items[i] == place;
		if (!seen)
			array_push(&vu->places, place);
		if (e->var->addr_taken && !array_param(e->var) && place >= 0)
			vu->written = true;
	}
	return false;
}

/* Does part k's top loop set v in its header before anything else reads it? */
static bool mentions_var(const Expr *e, void *ctx)
{
	return e->kind == EX_VAR && e->var == ctx;
}

static bool part_sets_first(const Clone *c, int k, Var *v)
{
	const Stmt *top;

	if (k < 0)
		return false;
	top = c->parts.items[k].top;
	if (top->kind != ST_FOR)
		return false;
	for (uint32_t i = 0; i < top->loop->init.len; i++) {
		const Expr *init;
		Var *w;

		if (init_target(top->loop->init.items[i], &w, &init) && w == v &&
		    !expr_any(init, mentions_var, v))
			return true;
	}
	return false;
}

static bool check_part_locals(const Clone *c, char *why, size_t size)
{
	const Func *f = c->callee;
	Uses u = { c, { 0 }, NULL };
	bool ok = true;

	for (uint32_t i = 0; i < f->body->body.len; i++) {
		const Stmt *s = f->body->body.items[i];

		u.ret = s->kind == ST_RETURN ? s : NULL;
		stmt_any(s, NULL, note_use, &u);
	}
	for (uint32_t i = 0; ok && i < u.vars.len; i++) {
		VarUse *vu = &u.vars.items[i];

		if (vu->written && vu->places.len > 1) {
			for (uint32_t k = 0; ok && k < vu->places.len; k++)
				if (!part_sets_first(c, vu->places.items[k], vu->var))
					ok = fail(why, size, "%s carries a value from one part to another",
					          intern_name(vu->var->name));
		}
	}
	for (uint32_t i = 0; i < u.vars.len; i++)
		array_free(&u.vars.items[i].places);
	array_free(&u.vars);
	return ok;
}

bool codegen_check_clone(const Clone *c, const Func *caller, char *why, size_t size)
{
	const Func *f = c->callee;
	const char *name;
	uint32_t at, lp, rp, next = 0;
	char sub[160];

	if (!f || !f->body)
		return fail(why, size, "clone without a callee");
	name = func_name(f);
	if (f->is_variadic)
		return fail(why, size, "callee %s is variadic", name);
	if (f->src != caller->src && f->storage == SC_STATIC)
		return fail(why, size, "static callee %s lives in another file", name);
	for (uint32_t i = 0; i < f->locals.len; i++)
		if (f->locals.items[i]->storage == SC_STATIC)
			return fail(why, size, "callee %s has static locals", name);
	if (!find_decl_name(f, &at, &lp, &rp))
		return fail(why, size, "cannot find the declarator of %s", name);
	if (skip_blanks(f->src->text, rp + 1, f->body->start) != f->body->start &&
	    memchr(f->src->text + rp, ';', f->body->start - rp))
		return fail(why, size, "%s has an old-style parameter list", name);
	if (!c->parts.len)
		return fail(why, size, "clone of %s without parts", name);
	for (uint32_t i = 0; i < f->body->body.len; i++) {
		const Stmt *s = f->body->body.items[i];
		const SplitLoop *sl = next < c->parts.len ? &c->parts.items[next] : NULL;
		Header h = { 0 };
		bool ok;

		if (!sl || sl->top != s) {
			if (!harmless_in_every_chunk(s) && !scratch_stmt(f, s))
				return fail(why, size, "%s: line %u would run in every chunk", name,
				            line_of(f->src, s->start));
			continue;
		}
		next++;
		if (part_leaves(f, s))
			return fail(why, size, "%s: part at line %u returns or jumps", name,
			            line_of(f->src, s->start));
		if (!sl->split)
			continue;
		ok = split_ok(sl, f, &h, sub, sizeof(sub));
		header_free(&h);
		if (!ok)
			return fail(why, size, "%s: loop at line %u: %s", name,
			            line_of(f->src, sl->top->start), sub);
	}
	if (next != c->parts.len)
		return fail(why, size, "%s: parts are not its top-level statements in order", name);
	if (!check_part_locals(c, sub, sizeof(sub)))
		return fail(why, size, "%s: %s", name, sub);
	return true;
}

static bool in_clones(const ParPlan *p, const Clone *c)
{
	for (uint32_t i = 0; i < p->clones.len; i++)
		if (p->clones.items[i] == c)
			return true;
	return false;
}

static int cmp_task_lo(const void *a, const void *b)
{
	const ParTask *x = *(const ParTask *const *)a, *y = *(const ParTask *const *)b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The chunks of part k of mt tile the loop: one task when not split. */
static bool check_part_cover(const ParPlan *p, const MT *mt, const SplitLoop *sl, int k,
                             char *why, size_t size)
{
	Array(const ParTask *) ch = { 0 };
	int64_t at = sl->lo;
	bool ok = true;

	for (uint32_t i = 0; i < p->tasks.len; i++)
		if (p->tasks.items[i].mt == mt && p->tasks.items[i].part == k)
			array_push(&ch, &p->tasks.items[i]);
	if (!sl->split) {
		ok = ch.len == 1 || fail(why, size, "MT%d: part %d runs %u times", mt->id, k, ch.len);
		array_free(&ch);
		return ok;
	}
	qsort(ch.items, ch.len, sizeof(*ch.items), cmp_task_lo);
	for (uint32_t i = 0; ok && i < ch.len; i++) {
		const ParTask *t = ch.items[i];

		if (t->lo != at || t->hi <= t->lo || (t->lo - sl->lo) % sl->step != 0)
			ok = fail(why, size, "MT%d: chunks of part %d do not tile [%lld, %lld)", mt->id,
			          k, (long long)sl->lo, (long long)sl->hi);
		at = t->hi;
	}
	if (ok && at != sl->hi)
		ok = fail(why, size, "MT%d: chunks of part %d end at %lld, not %lld", mt->id, k,
		          (long long)at, (long long)sl->hi);
	array_free(&ch);
	return ok;
}

/* Strips a (void) cast. */
static const Expr *uncast(const Expr *e)
{
	if (e && e->kind == EX_CAST && e->cast_type && e->cast_type->kind == TY_VOID)
		return e->lhs;
	return e;
}

/*
 * TVM's guard `if (f(...) != 0) return -1;` (or `if (f(...)) { return -1; }`):
 * once the planner knows f returns 0, only the call is left to run.
 */
static bool fold_guard_ok(const MT *mt)
{
	const Stmt *s, *then;
	const Expr *c;

	if (mt->stmts.len != 1 || !mt->call)
		return false;
	s = mt->stmts.items[0];
	if (s->kind != ST_IF || s->els || !(c = s->expr) || !(then = s->then))
		return false;
	if (then->kind == ST_BLOCK && then->body.len == 1)
		then = then->body.items[0];
	if (then->kind != ST_RETURN || expr_any(then->expr, has_effect, NULL))
		return false;
	if (c->kind == EX_BINARY && (c->op == OP_NE || c->op == OP_EQ) &&
	    (c->lhs == mt->call || c->rhs == mt->call))
		c = c->lhs == mt->call ? c->rhs : c->lhs;
	else if (c == mt->call)
		return true;
	return c->kind == EX_NUM;
}

/* The single statement of a chunked call MT: `f(...);`, `(void)f(...);` or a folded guard. */
static bool plain_call_stmt(const MT *mt, bool fold_guard)
{
	const Stmt *s;
	const Expr *e;

	if (mt->stmts.len != 1)
		return false;
	s = mt->stmts.items[0];
	if (fold_guard)
		return fold_guard_ok(mt);
	if (s->kind != ST_EXPR || !(e = s->expr))
		return false;
	return uncast(e) == mt->call;
}

/* One level MT: one whole task, or chunks that cover every part of its clone. */
static bool check_mt_cover(const ParPlan *p, const MT *mt, char *why, size_t size)
{
	const ParTask *first = NULL;
	uint32_t n = 0;

	for (uint32_t i = 0; i < p->tasks.len; i++) {
		const ParTask *t = &p->tasks.items[i];

		if (t->mt != mt)
			continue;
		n++;
		if (!first)
			first = t;
		if (t->kind != first->kind || t->clone != first->clone ||
		    t->fold_guard != first->fold_guard)
			return fail(why, size, "MT%d: tasks of different kinds", mt->id);
	}
	if (!first)
		return fail(why, size, "MT%d is not covered by a task", mt->id);
	if (first->kind == TASK_WHOLE)
		return n == 1 || fail(why, size, "MT%d runs %u times", mt->id, n);
	if (first->kind == TASK_SLICE)
		return check_part_cover(p, mt, first->slice, 0, why, size);
	if (!first->clone || !in_clones(p, first->clone) || mt->kind != MT_SB || !mt->call ||
	    mt->callee != first->clone->callee)
		return fail(why, size, "MT%d: chunks without a clone of its callee", mt->id);
	if (!plain_call_stmt(mt, first->fold_guard))
		return fail(why, size, "MT%d: the call's value is used", mt->id);
	for (uint32_t i = 0; i < mt->call->args.len; i++)
		if (expr_any(mt->call->args.items[i], has_effect, NULL))
			return fail(why, size, "MT%d: argument %u has side effects", mt->id, i + 1);
	for (uint32_t k = 0; k < first->clone->parts.len; k++)
		if (!check_part_cover(p, mt, &first->clone->parts.items[k], (int)k, why, size))
			return false;
	return true;
}

/* A register variable: OpenMP shares variables by address. */
static bool uses_register(const Expr *e, void *ctx)
{
	(void)ctx;
	return e->kind == EX_VAR && e->var->storage == SC_REGISTER;
}

static bool labels_or_statics(const Stmt *s, void *ctx)
{
	(void)ctx;
	return s->kind == ST_LABEL || s->kind == ST_CASE ||
	       (s->kind == ST_DECL && s->var && s->var->storage == SC_STATIC);
}

/* The span's MTs can move into a switch case (their text appears twice). */
static bool check_span_mt(const MT *mt, bool fold_guard, char *why, size_t size)
{
	const uint32_t jumps = 1u << UM_GOTO | 1u << UM_COMPUTED_GOTO | 1u << UM_SETJMP;

	for (uint32_t i = 0; i < mt->stmts.len; i++) {
		const Stmt *s = mt->stmts.items[i];

		if (s->kind == ST_DECL)
			return fail(why, size, "MT%d declares %s, which later code may use", mt->id,
			            s->var ? intern_name(s->var->name) : "a variable");
		if (stmt_any(s, labels_or_statics, NULL, NULL))
			return fail(why, size, "MT%d holds a label or a static variable", mt->id);
		if (stmt_any(s, NULL, uses_register, NULL))
			return fail(why, size, "MT%d uses a register variable", mt->id);
	}
	if (mt->unmodelled & jumps)
		return fail(why, size, "MT%d jumps (goto, setjmp)", mt->id);
	if (mt->exits && !(fold_guard && mt->kind == MT_SB))
		return fail(why, size, "MT%d leaves the function or loop", mt->id);
	if (fold_guard && !fold_guard_ok(mt))
		return fail(why, size, "MT%d is not a guard `if (call != 0) return ...;`", mt->id);
	return true;
}

static bool check_span(const ParPlan *p, char *why, size_t size)
{
	const Func *f = p->func;
	const MT *root = f->mt;
	uint32_t start, end;

	if (p->first > p->last || p->last >= root->children.len)
		return fail(why, size, "span MT%u..MT%u outside the function", p->first + 1, p->last + 1);
	if (f->is_inline && f->storage != SC_STATIC)
		return fail(why, size, "extern inline function cannot hold static flags");
	start = root->children.items[p->first]->start;
	end = root->children.items[p->last]->end;
	for (uint32_t i = 0; i < f->src->hidden.len; i++) {
		const Hidden *h = &f->src->hidden.items[i];

		if (h->start < end && h->end > start &&
		    (h->kind == HIDE_DIRECTIVE || h->kind == HIDE_INACTIVE))
			return fail(why, size, "preprocessor conditional inside the span");
	}
	for (uint32_t i = p->first; i <= p->last; i++) {
		const MT *mt = root->children.items[i];
		bool fold = false;

		for (uint32_t k = 0; k < p->tasks.len; k++)
			if (p->tasks.items[k].mt == mt)
				fold = p->tasks.items[k].fold_guard;
		if (!check_span_mt(mt, fold, why, size) || !check_mt_cover(p, mt, why, size))
			return false;
	}
	return true;
}

bool codegen_check_plan(const ParPlan *p, char *why, size_t size)
{
	const MT *root;

	if (!p->func || !p->func->mt || !p->func->body)
		return fail(why, size, "plan without a function");
	root = p->func->mt;
	for (uint32_t i = 0; i < p->tasks.len; i++) {
		const ParTask *t = &p->tasks.items[i];
		bool in_span = false;

		for (uint32_t k = p->first; k <= p->last && k < root->children.len; k++)
			in_span |= root->children.items[k] == t->mt;
		if (!in_span)
			return fail(why, size, "task %u is not an MT of the span", i);
		if (t->kind == TASK_CHUNK &&
		    (!t->clone || t->part < 0 || (uint32_t)t->part >= t->clone->parts.len))
			return fail(why, size, "task %u: no such part", i);
		if (t->kind == TASK_SLICE &&
		    (!t->slice || t->part != 0 || t->mt->kind != MT_RB || !t->slice->split ||
		     t->slice->top != t->mt->loop || t->slice->loop != t->mt->loop))
			return fail(why, size, "task %u: a slice of no loop of the level", i);
	}
	for (uint32_t i = 0; i < p->clones.len; i++)
		if (!codegen_check_clone(p->clones.items[i], p->func, why, size))
			return false;
	return check_span(p, why, size);
}

/* ---- the schedule as per-core sequences with waits and posts ---- */

/*
 * Cores renumbered to those that run tasks.  A task waits for a
 * predecessor on another core unless an earlier wait or its own core's
 * order already implies that predecessor has finished (vector clocks over
 * the cores); a task posts its flag when some task waits for it.
 */
typedef struct Sync {
	int ncores;            /* cores with tasks */
	int *core;             /* per task: its core, renumbered */
	uint32_t *pos;         /* per task: its position on that core */
	SchedList *seq;        /* per core: its tasks in order */
	SchedList *waits;      /* per task: the tasks it waits for, by index */
	int *flag;             /* per task: its end flag, -1 when none */
	int nflags;
} Sync;

/* A topological order of the graph's edges plus each core's order; dies on a cycle. */
static uint32_t *sync_order(const ParPlan *p, const Sync *sy)
{
	uint32_t n = p->tasks.len, *order = xcalloc(n, sizeof(*order)), *indeg, head = 0, tail = 0;

	indeg = xcalloc(n, sizeof(*indeg));
	for (uint32_t t = 0; t < n; t++)
		indeg[t] = p->graph.tasks.items[t].pred.len + (sy->pos[t] > 0);
	for (uint32_t t = 0; t < n; t++)
		if (indeg[t] == 0)
			order[tail++] = t;
	while (head < tail) {
		uint32_t t = order[head++];
		const SchedTask *st = &p->graph.tasks.items[t];
		const SchedList *cs = &sy->seq[sy->core[t]];

		for (uint32_t i = 0; i < st->succ.len; i++)
			if (--indeg[st->succ.items[i]] == 0)
				order[tail++] = st->succ.items[i];
		if (sy->pos[t] + 1 < cs->len && --indeg[cs->items[sy->pos[t] + 1]] == 0)
			order[tail++] = cs->items[sy->pos[t] + 1];
	}
	if (tail != n)
		die("schedule of %s deadlocks: a core's order contradicts the task graph",
		    func_name(p->func));
	free(indeg);
	return order;
}

/* Places every task once, from the schedule's core lists. */
static void sync_place(const ParPlan *p, Sync *sy)
{
	const Schedule *s = p->sched;
	uint32_t n = p->tasks.len;

	for (uint32_t t = 0; t < n; t++)
		sy->core[t] = -1;
	for (int c = 0; c < s->ncores; c++) {
		if (!s->core[c].len)
			continue;
		for (uint32_t i = 0; i < s->core[c].len; i++) {
			uint32_t t = s->core[c].items[i];

			if (t >= n || sy->core[t] >= 0)
				die("schedule of %s lists task %u twice or out of range", func_name(p->func), t);
			sy->core[t] = sy->ncores;
			sy->pos[t] = i;
			array_push(&sy->seq[sy->ncores], t);
		}
		sy->ncores++;
	}
	for (uint32_t t = 0; t < n; t++)
		if (sy->core[t] < 0)
			die("schedule of %s leaves task %u out", func_name(p->func), t);
}

/* Which cross-core predecessors each task must wait for, and which tasks post. */
static void sync_waits(const ParPlan *p, Sync *sy, const uint32_t *order)
{
	uint32_t n = p->tasks.len, nc = (uint32_t)sy->ncores;
	uint32_t *vc = xcalloc((size_t)n * nc, sizeof(*vc)); /* finish clocks */
	uint32_t *cur = xcalloc(nc, sizeof(*cur));
	bool *posts = xcalloc(n, sizeof(*posts));

	for (uint32_t k = 0; k < n; k++) {
		uint32_t t = order[k], c = (uint32_t)sy->core[t];
		const SchedList *pred = &p->graph.tasks.items[t].pred;
		SchedList cand = { 0 };

		if (sy->pos[t] > 0)
			memcpy(cur, &vc[(size_t)sy->seq[c].items[sy->pos[t] - 1] * nc], nc * sizeof(*cur));
		else
			memset(cur, 0, nc * sizeof(*cur));
		for (uint32_t i = 0; i < pred->len; i++) {
			uint32_t q = pred->items[i], qc = (uint32_t)sy->core[q];

			if (q >= t)
				die("task graph of %s: edge %u -> %u goes backwards", func_name(p->func), q, t);
			if (qc != c && cur[qc] <= sy->pos[q])
				array_push(&cand, q);
		}
		for (uint32_t i = 0; i < cand.len; i++) {
			uint32_t q = cand.items[i], qc = (uint32_t)sy->core[q];
			bool covered = false;

			for (uint32_t j = 0; j < cand.len && !covered; j++)
				covered = j != i && vc[(size_t)cand.items[j] * nc + qc] > sy->pos[q];
			if (!covered) {
				array_push(&sy->waits[t], q);
				posts[q] = true;
			}
		}
		for (uint32_t i = 0; i < cand.len; i++)
			for (uint32_t j = 0; j < nc; j++)
				if (vc[(size_t)cand.items[i] * nc + j] > cur[j])
					cur[j] = vc[(size_t)cand.items[i] * nc + j];
		cur[c] = sy->pos[t] + 1;
		memcpy(&vc[(size_t)t * nc], cur, nc * sizeof(*cur));
		array_free(&cand);
	}
	for (uint32_t t = 0; t < n; t++)
		sy->flag[t] = posts[t] ? sy->nflags++ : -1;
	free(vc);
	free(cur);
	free(posts);
}

/* sync_verify's bit matrix stays below 32 MB. */
#define VERIFY_MAX_TASKS 16384

/*
 * An independent check of sync_waits: every edge of the task graph must
 * follow from a core's order and the waits (happens-before is transitive).
 */
static void sync_verify(const ParPlan *p, const Sync *sy, const uint32_t *order)
{
	uint32_t n = p->tasks.len, words = (n + 63) / 64;
	uint64_t *hb; /* per task: the tasks finished when it finishes */

	if (n > VERIFY_MAX_TASKS)
		return;
	hb = xcalloc((size_t)n * words, sizeof(*hb));

	for (uint32_t k = 0; k < n; k++) {
		uint32_t t = order[k], c = (uint32_t)sy->core[t];
		uint64_t *row = &hb[(size_t)t * words];
		const SchedList *pred = &p->graph.tasks.items[t].pred;

		if (sy->pos[t] > 0) {
			const uint64_t *prev = &hb[(size_t)sy->seq[c].items[sy->pos[t] - 1] * words];

			for (uint32_t w = 0; w < words; w++)
				row[w] |= prev[w];
		}
		for (uint32_t i = 0; i < sy->waits[t].len; i++) {
			const uint64_t *q = &hb[(size_t)sy->waits[t].items[i] * words];

			for (uint32_t w = 0; w < words; w++)
				row[w] |= q[w];
		}
		for (uint32_t i = 0; i < pred->len; i++)
			if (!(row[pred->items[i] / 64] >> (pred->items[i] % 64) & 1))
				die("codegen: task %u of %s would not wait for task %u", t,
				    func_name(p->func), pred->items[i]);
		row[t / 64] |= 1ull << (t % 64);
	}
	free(hb);
}

/* Dies on a schedule or graph that breaks the planner's invariants. */
static void sync_build(const ParPlan *p, Sync *sy)
{
	uint32_t n = p->tasks.len, *order;

	if (!p->sched || p->sched->ncores < 1 || p->graph.tasks.len != n)
		die("plan of %s: schedule or task graph does not match its %u tasks",
		    func_name(p->func), n);
	memset(sy, 0, sizeof(*sy));
	sy->core = xcalloc(n, sizeof(*sy->core));
	sy->pos = xcalloc(n, sizeof(*sy->pos));
	sy->seq = xcalloc((size_t)p->sched->ncores, sizeof(*sy->seq));
	sy->waits = xcalloc(n, sizeof(*sy->waits));
	sy->flag = xcalloc(n, sizeof(*sy->flag));
	sync_place(p, sy);
	order = sync_order(p, sy);
	sync_waits(p, sy, order);
	sync_verify(p, sy, order);
	free(order);
}

static void sync_free(Sync *sy, uint32_t ntasks, int ncores_alloc)
{
	for (uint32_t t = 0; t < ntasks; t++)
		array_free(&sy->waits[t]);
	for (int c = 0; c < ncores_alloc; c++)
		array_free(&sy->seq[c]);
	free(sy->core);
	free(sy->pos);
	free(sy->seq);
	free(sy->waits);
	free(sy->flag);
}

/* ---- clones ---- */

static const char *clone_name(const Clone *c)
{
	Str b = { 0 };

	str_printf(&b, "%s__mtpar%d", func_name(c->callee), c->id);
	return str_done(&b);
}

static const ScratchList *scratch_of(const Func *f)
{
	static const ScratchList none;
	bool only;
	const ScratchList *l = func_scratch(f, &only);

	return l ? l : &none;
}

static const char *fmt_str(const char *fmt, ...) MTPAR_PRINTF(1, 2);
static const char *fmt_str(const char *fmt, ...)
{
	Str b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	str_vprintf(&b, fmt, ap);
	va_end(ap);
	return str_done(&b);
}

/*
 * The clone's workspaces: a top-level one becomes parameter mtpar_wsK, one
 * in a nested block a buffer on the stack declared just before it; their
 * frees become 0 (a bare `FREE(v);` becomes `(void)0;`).
 */
static void scratch_edits(const Func *f, EditList *el)
{
	const ScratchList *ws = scratch_of(f);
	uint32_t top = 0, stack = 0;

	for (uint32_t i = 0; i < ws->len; i++) {
		const Scratch *sc = &ws->items[i];
		const Stmt *d = sc->decl;

		if (sc->top) {
			edit_replace(el, sc->alloc->start, sc->alloc->end, fmt_str("mtpar_ws%u", top++));
		} else {
			edit_insert(el, d->start, fmt_str("MTPAR_ALIGN64 unsigned char mtpar_stack%u[%lld]; ",
			                                  stack, (long long)sc->size));
			edit_replace(el, sc->alloc->start, sc->alloc->end,
			             fmt_str("(void *)mtpar_stack%u", stack++));
		}
		edit_replace(el, sc->free->start, sc->free->end, sc->bare_free ? "(void)0" : "0");
	}
}

/* The declarator edits shared by the clone and its prototype: name and parameters. */
static void clone_decl_edits(const Clone *c, EditList *el)
{
	const Func *f = c->callee;
	uint32_t at, lp, rp;

	if (!find_decl_name(f, &at, &lp, &rp))
		die("declarator of %s vanished", func_name(f));
	Str b = { 0 };
	const ScratchList *ws = scratch_of(f);

	str_puts(&b, "int mtpar_part, long mtpar_lo, long mtpar_hi");
	for (uint32_t i = 0, k = 0; i < ws->len; i++)
		if (ws->items[i].top)
			str_printf(&b, ", void *mtpar_ws%u", k++);
	edit_replace(el, at, at + (uint32_t)strlen(func_name(f)), clone_name(c));
	if (params_empty(f->src->text, lp, rp)) {
		edit_replace(el, lp + 1, rp, str_done(&b));
		return;
	}
	/* right after the last parameter, before any blanks up to ')' */
	while (rp > lp + 1 && strchr(" \t\r\n", f->src->text[rp - 1]))
		rp--;
	edit_insert(el, rp, fmt_str(", %s", str_done(&b)));
}

static const char *src_text(const Source *src, const Expr *e)
{
	return arena_strndup(src->text + e->start, e->end - e->start);
}

/*
 * The split loop's header for chunk [mtpar_lo, mtpar_hi): the first IV
 * starts at mtpar_lo, every other IV v_j = e_j; v_j += s_j at
 * (e_j) + (s_j) * ((mtpar_lo - (e_0)) / (s_0)), a copy of the first IV at
 * mtpar_lo, and the condition COND becomes (COND) && IV < mtpar_hi.
 */
static void split_edits(const SplitLoop *sl, const Source *src, EditList *el)
{
	const Loop *lp = sl->loop->loop;
	const InductionVar *iv0 = &lp->ivs.items[0];
	Str b = { 0 };

	edit_replace(el, iv0->init->start, iv0->init->end, "mtpar_lo");
	for (uint32_t i = 1; i < lp->ivs.len; i++) {
		const InductionVar *iv = &lp->ivs.items[i];

		str_printf(&b, "(%s) + (%lld) * ((mtpar_lo - (%lld)) / (%lld))", src_text(src, iv->init),
		           (long long)iv->step, (long long)sl->lo, (long long)sl->step);
		edit_replace(el, iv->init->start, iv->init->end, str_done(&b));
	}
	for (uint32_t i = 0; i < lp->init.len; i++) {
		const Expr *init;
		Var *v;

		if (init_target(lp->init.items[i], &v, &init) && !find_iv(lp, v))
			edit_replace(el, init->start, init->end, "mtpar_lo");
	}
	/*
	 * The original condition stays: it is true for every chunk value, keeps
	 * the loop inside its bounds whatever the chunk, and keeps clones of
	 * look-alike callees distinct (GCC's identical-code folding would merge
	 * them and warn about the other's array bounds).  An unsigned IV meets
	 * a cast bound: no sign-compare warning, and hi >= lo >= 0.
	 */
	str_printf(&b, "(%s) && %s < %smtpar_hi", src_text(src, lp->cond),
	           intern_name(iv0->var->name), iv0->var->type->is_unsigned ? "(unsigned long)" : "");
	edit_replace(el, lp->cond->start, lp->cond->end, str_done(&b));
}

/* NAME__mtparID's full definition. */
static const char *clone_definition(const Clone *c)
{
	const Func *f = c->callee;
	EditList el = { 0 };
	Str b = { 0 };
	char *text;

	clone_decl_edits(c, &el);
	edit_insert(&el, f->body->start + 1, " (void)mtpar_part; (void)mtpar_lo; (void)mtpar_hi;");
	scratch_edits(f, &el);
	for (uint32_t k = 0; k < c->parts.len; k++) {
		const SplitLoop *sl = &c->parts.items[k];

		str_printf(&b, "if (mtpar_part == %u) ", k);
		edit_insert(&el, sl->top->start, str_done(&b));
		if (sl->split)
			split_edits(sl, f->src, &el);
	}
	text = edit_apply_range(f->src, &el, f->start, f->end);
	array_free(&el.edits);
	str_puts(&b, text);
	free(text);
	return str_done(&b);
}

/* The clone's prototype: its header up to the body, then ';'. */
static const char *clone_prototype(const Clone *c)
{
	const Func *f = c->callee;
	EditList el = { 0 };
	Str b = { 0 };
	char *text;
	size_t n;

	clone_decl_edits(c, &el);
	text = edit_apply_range(f->src, &el, f->start, f->body->start);
	array_free(&el.edits);
	for (n = strlen(text); n > 0 && strchr(" \t\r\n", text[n - 1]); n--)
		;
	str_putn(&b, text, n);
	str_puts(&b, ";\n");
	free(text);
	return str_done(&b);
}

/* "/ * mtpar: NAME cloned for chunks: part 0 = loop at line 12 split over m, ... * /" */
static void clone_comment(Str *b, const Clone *c)
{
	const Func *f = c->callee;

	str_printf(b, "/* mtpar: %s cloned as %s for chunks:", func_name(f), clone_name(c));
	for (uint32_t k = 0; k < c->parts.len; k++) {
		const SplitLoop *sl = &c->parts.items[k];

		str_printf(b, "%s part %u = loop at line %u", k ? "," : "", k,
		           line_of(f->src, sl->top->start));
		if (sl->split)
			str_printf(b, " split over %s",
			           intern_name(sl->loop->loop->ivs.items[0].var->name));
	}
	for (uint32_t i = 0, k = 0, n = 0; i < scratch_of(f)->len; i++) {
		const Scratch *sc = &scratch_of(f)->items[i];

		str_printf(b, "%s workspace %s %s", n++ ? "," : ";", intern_name(sc->var->name),
		           sc->top ? fmt_str("from the caller (mtpar_ws%u)", k++) : "on the stack");
	}
	str_puts(b, " */\n");
}

static int source_index(const Program *prog, const Source *src)
{
	for (uint32_t i = 0; i < prog->sources.len; i++)
		if (prog->sources.items[i] == src)
			return (int)i;
	die("source %s is not part of the program", src->path);
}

/* Each clone once, right after its callee; prototypes go before the planned function. */
static void emit_clones(const Program *prog, const ParPlan *p, EditList *edits,
                        CloneList *done, Str *protos)
{
	for (uint32_t i = 0; i < p->clones.len; i++) {
		const Clone *c = p->clones.items[i];
		Str b = { 0 };
		bool seen = false;

		for (uint32_t k = 0; k < done->len; k++) {
			const Clone *d = done->items[k];

			seen |= d == c;
			if (d != c && d->id == c->id && d->callee->name == c->callee->name)
				die("two clones named %s", clone_name(c));
		}
		str_puts(protos, clone_prototype(c));
		if (seen)
			continue;
		array_push(done, c);
		str_puts(&b, "\n\n");
		clone_comment(&b, c);
		str_puts(&b, clone_definition(c));
		edit_insert(&edits[source_index(prog, c->callee->src)], c->callee->end, str_done(&b));
	}
}

/* ---- the parallel span ---- */

/* The slot of the caller's buffer that SB mt passes for its workspace sc. */
static uint32_t slot_of(const ParPlan *p, const MT *mt, const Scratch *sc)
{
	Var *obj = scratch_object(mt, sc->var);

	for (uint32_t s = 0; s < p->slots.len; s++)
		if (p->slots.items[s].obj == obj)
			return s;
	die("%s: MT%d's workspace %s has no slot", func_name(p->func), mt->id,
	    intern_name(sc->var->name));
}

/* `FREE(..., mtpar_bufN, ...)`: the callee's free call on the caller's buffer. */
static const char *free_text(const Source *src, const Scratch *sc, const char *var)
{
	Str b = { 0 };

	str_putn(&b, src->text + sc->free->start, sc->free_ptr->start - sc->free->start);
	str_puts(&b, var);
	str_putn(&b, src->text + sc->free_ptr->end, sc->free->end - sc->free_ptr->end);
	return str_done(&b);
}

typedef struct Gen {
	const ParPlan *plan;
	const Sync *sy;
	const CodegenOptions *opts;
	const char *indent;   /* the span's line indent */
	const char *fname;    /* the planned function's name */
	Str out;
} Gen;

/* The task's name, safe inside a comment; "task N" when it has none. */
static const char *task_label(const ParTask *task, uint32_t t)
{
	Str b = { 0 };

	if (task->name)
		put_comment_text(&b, task->name, strlen(task->name));
	else
		str_printf(&b, "task %u", t);
	return str_done(&b);
}

/* "MT3.p0[16:32): SB MT3 node_x, line 412, part 0: m in [16, 32)" */
static void task_comment(Gen *g, uint32_t t, int depth)
{
	const ParTask *task = &g->plan->tasks.items[t];
	const MT *mt = task->mt;
	Str b = { 0 };

	str_puts(&b, task_label(task, t));
	str_printf(&b, ": %s MT%d", mt_kind_name[mt->kind], mt->id);
	if (mt->callee)
		str_printf(&b, " %s", func_name(mt->callee));
	str_printf(&b, ", line %u", line_of(mt->func->src, mt->start));
	if (task->kind == TASK_SLICE)
		str_printf(&b, ", slice: %s in [%lld, %lld)",
		           intern_name(task->slice->loop->loop->ivs.items[0].var->name),
		           (long long)task->lo, (long long)task->hi);
	if (task->kind == TASK_CHUNK) {
		const SplitLoop *sl = &task->clone->parts.items[task->part];

		str_printf(&b, ", part %d", task->part);
		if (sl->split)
			str_printf(&b, ": %s in [%lld, %lld)",
			           intern_name(sl->loop->loop->ivs.items[0].var->name),
			           (long long)task->lo, (long long)task->hi);
	}
	line(&g->out, g->indent, depth, "/* %s */", b.s);
	free(b.s);
}

/* The statement a task runs. */
static void task_text(Gen *g, uint32_t t, int depth)
{
	const ParTask *task = &g->plan->tasks.items[t];
	const MT *mt = task->mt;
	const Source *src = mt->func->src;
	Str b = { 0 };

	if (task->kind == TASK_WHOLE && !task->fold_guard) {
		str_putn(&b, src->text + mt->start, mt->end - mt->start);
	} else if (task->kind == TASK_WHOLE) {
		str_printf(&b, "(void)%s;", src_text(src, mt->call));
	} else if (task->kind == TASK_SLICE) {
		EditList el = { 0 };
		char *text;

		split_edits(task->slice, src, &el);
		text = edit_apply_range(src, &el, mt->start, mt->end);
		array_free(&el.edits);
		str_printf(&b, "{ const long mtpar_lo = %lld, mtpar_hi = %lld; %s }",
		           (long long)task->lo, (long long)task->hi, text);
		free(text);
	} else {
		const SplitLoop *sl = &task->clone->parts.items[task->part];
		int64_t lo = sl->split ? task->lo : sl->lo, hi = sl->split ? task->hi : sl->hi;

		str_printf(&b, "(void)%s(", clone_name(task->clone));
		for (uint32_t i = 0; i < mt->call->args.len; i++)
			str_printf(&b, "%s, ", src_text(src, mt->call->args.items[i]));
		str_printf(&b, "%d, %lld, %lld", task->part, (long long)lo, (long long)hi);
		for (uint32_t k = 0; k < scratch_of(mt->callee)->len; k++) {
			const Scratch *sc = &scratch_of(mt->callee)->items[k];

			if (sc->top)
				str_printf(&b, ", mtpar_buf%u", slot_of(g->plan, mt, sc));
		}
		str_puts(&b, ");");
	}
	line(&g->out, g->indent, depth, "%s", b.s);
	free(b.s);
}

/* ---- power control: oscar_fvcontrol at each state change of the power schedule ---- */

/* The schedule's core that the region's core c (cores without tasks left out) is. */
static int sched_core(const ParPlan *p, int c)
{
	for (int k = 0, n = 0; k < p->sched->ncores; k++)
		if (p->sched->core[k].len && n++ == c)
			return k;
	die("core %d of %s's region has no schedule core", c, func_name(p->func));
}

static void fv_call(Gen *g, int c, int state, int depth)
{
	const FvTable *t = g->plan->power->table;

	if (g->opts->oscar_api)
		str_printf(&g->out, "#pragma oscar fvcontrol(%d, (FV_LOGIC, %d))\n", c, state);
	line(&g->out, g->indent, depth, "oscar_fvcontrol(%d, %d); /* %s */", c, state,
	     t->states.items[state].name);
}

/*
 * Core c's state changes at position pos of its sequence: those before the
 * waits (!wake: they overlap the wait) or those after them (wake).
 */
static void fv_switches(Gen *g, int c, uint32_t pos, bool wake, int depth)
{
	const PowerSchedule *ps = g->plan->power;
	const PowerSwitchList *sw;

	if (!ps)
		return;
	sw = &ps->switches[sched_core(g->plan, c)];
	for (uint32_t i = 0; i < sw->len; i++)
		if (sw->items[i].pos == pos && sw->items[i].wake == wake)
			fv_call(g, c, sw->items[i].state, depth);
}

/* The table the runtime maps state numbers with, declared in the span block. */
static void fv_table_decl(Gen *g)
{
	const FvTable *t = g->plan->power ? g->plan->power->table : NULL;

	if (!t)
		return;
	str_puts(&g->out, g->indent);
	str_printf(&g->out, "\tstatic const double mtpar_fv_freq[%u] = {", t->states.len);
	for (uint32_t i = 0; i < t->states.len; i++)
		str_printf(&g->out, "%s%.17g", i ? ", " : " ", t->states.items[i].freq);
	str_puts(&g->out, " };\n");
	str_puts(&g->out, g->indent);
	str_printf(&g->out, "\tstatic const char *const mtpar_fv_name[%u] = {", t->states.len);
	for (uint32_t i = 0; i < t->states.len; i++)
		str_printf(&g->out, "%s\"%s\"", i ? ", " : " ", t->states.items[i].name);
	str_puts(&g->out, " };\n");
}

/* After the join: every core whose frame ends with a wake-up gets it from here. */
static void fv_frame_end(Gen *g, int depth)
{
	for (int c = 0; g->plan->power && c < g->sy->ncores; c++)
		fv_switches(g, c, g->sy->seq[c].len, true, depth);
}

/* One core's straight-line sequence: for each task its waits, the task, its post. */
static void core_body(Gen *g, int c, int depth)
{
	const SchedList *seq = &g->sy->seq[c];

	if (c == 0)
		line(&g->out, g->indent, depth,
		     "mtpar_ran = 1; /* read after the region's closing barrier */");
	for (uint32_t i = 0; i < seq->len; i++) {
		uint32_t t = seq->items[i];
		const SchedList *w = &g->sy->waits[t];

		task_comment(g, t, depth);
		fv_switches(g, c, i, false, depth);
		for (uint32_t k = 0; k < w->len; k++) {
			uint32_t q = w->items[k];
			const ParTask *qt = &g->plan->tasks.items[q];

			line(&g->out, g->indent, depth,
			     "mtpar_wait(&mtpar_sync_%s[%d], mtpar_gen); /* %s, core %d */", g->fname,
			     g->sy->flag[q], task_label(qt, q), g->sy->core[q]);
		}
		fv_switches(g, c, i, true, depth);
		task_text(g, t, depth);
		if (g->sy->flag[t] >= 0)
			line(&g->out, g->indent, depth, "mtpar_post(&mtpar_sync_%s[%d], mtpar_gen);",
			     g->fname, g->sy->flag[t]);
	}
	fv_switches(g, c, seq->len, false, depth);
}

/* --api=openmp: one parallel region, a switch on the thread number. */
static void region_openmp(Gen *g)
{
	int np = g->sy->ncores;

	str_printf(&g->out, "#pragma omp parallel num_threads(%d)\n", np);
	line(&g->out, g->indent, 2, "{");
	line(&g->out, g->indent, 3,
	     "/* a smaller team runs nothing here: the original code below does it all */");
	line(&g->out, g->indent, 3, "if (mtpar_team_size() == %d) {", np);
	line(&g->out, g->indent, 4, "switch (mtpar_thread()) {");
	for (int c = 0; c < np; c++) {
		line(&g->out, g->indent, 4, "case %d:", c);
		core_body(g, c, 5);
		line(&g->out, g->indent, 5, "break;");
	}
	line(&g->out, g->indent, 4, "}");
	line(&g->out, g->indent, 3, "}");
	line(&g->out, g->indent, 2, "}");
}

/*
 * --api=oscar: parallel sections, one per core, bound to virtual cores with
 * #pragma oscar execution.  A section waits only through flags, so it is
 * right on any thread.  Sections are handed out in order, each to a thread
 * that has finished its previous one: with a full team every section gets
 * its own thread before any thread takes a second, and the waits (acyclic
 * with each core's order) cannot deadlock.  A smaller team would run a
 * waiting section before the one it waits for on the same thread: then no
 * section runs (the team-size test) and the original code does the work.
 */
static void region_oscar(Gen *g)
{
	int np = g->sy->ncores;

	str_printf(&g->out, "#pragma omp parallel sections num_threads(%d)\n", np);
	line(&g->out, g->indent, 2, "{");
	for (int c = 0; c < np; c++) {
		str_puts(&g->out, "#pragma omp section\n");
		line(&g->out, g->indent, 3, "{");
		str_printf(&g->out, "#pragma oscar execution vpe(%d)\n", c);
		line(&g->out, g->indent, 4, "if (mtpar_team_size() == %d) {", np);
		core_body(g, c, 5);
		line(&g->out, g->indent, 4, "}");
		line(&g->out, g->indent, 3, "}");
	}
	line(&g->out, g->indent, 2, "}");
}

/*
 * The buffers the chunks' workspaces live in (ParPlan.slots): declared,
 * taken in order as part of the fork condition, given back in reverse
 * order after the region (TVM's allocator is a stack).
 */
static void slot_decls(Gen *g)
{
	for (uint32_t s = 0; s < g->plan->slots.len; s++) {
		const WsSlot *ws = &g->plan->slots.items[s];

		if (ws->used)
			line(&g->out, g->indent, 1,
			     "void *mtpar_buf%u = NULL; /* workspace: %lld bytes, as %s of %s at line %u */",
			     s, (long long)ws->sc->size, intern_name(ws->sc->var->name),
			     func_name(ws->sb->callee), line_of(ws->sb->func->src, ws->sb->start));
	}
}

/* The loaded pointers' memories the plan took for apart are, or the original code runs. */
static void apart_tests(Gen *g)
{
	for (uint32_t i = 0; i < g->plan->apart.len; i++) {
		const ApartCheck *ck = &g->plan->apart.items[i];

		str_printf(&g->out, " &&\n%s\t\tmtpar_apart(%s, %lld, %lld, %s, %lld, %lld)", g->indent,
		           intern_name(ck->a->name), (long long)ck->alo, (long long)ck->ahi,
		           intern_name(ck->b->name), (long long)ck->blo, (long long)ck->bhi);
	}
}

static void slot_takes(Gen *g)
{
	for (uint32_t s = 0; s < g->plan->slots.len; s++) {
		const WsSlot *ws = &g->plan->slots.items[s];

		if (ws->used)
			str_printf(&g->out, " &&\n%s\t\t(mtpar_buf%u = (void *)%s) != NULL", g->indent, s,
			           src_text(ws->sb->callee->src, ws->sc->alloc));
	}
}

static void slot_gives(Gen *g)
{
	for (uint32_t s = g->plan->slots.len; s-- > 0;) {
		const WsSlot *ws = &g->plan->slots.items[s];
		const char *var = fmt_str("mtpar_buf%u", s);

		if (!ws->used)
			continue;
		line(&g->out, g->indent, 1, "if (%s != NULL)", var);
		line(&g->out, g->indent, 2, "(void)%s;", free_text(ws->sb->callee->src, ws->sc, var));
	}
}

static bool any_slot(const ParPlan *p)
{
	for (uint32_t s = 0; s < p->slots.len; s++)
		if (p->slots.items[s].used)
			return true;
	return false;
}

/*
 * The workspaces that the region's tasks will write for the first time:
 * f's own, taken before the span and given back after it, and the callees'
 * that the caller took.  Their pages are mapped before the fork (see
 * mtpar_prefault), not faulted in one by one by the cores.
 */
static void prefaults(Gen *g, uint32_t start, uint32_t end)
{
	const ScratchList *l = scratch_of(g->plan->func);

	for (uint32_t i = 0; i < l->len; i++) {
		const Scratch *sc = &l->items[i];

		if (sc->top && sc->decl->end <= start && sc->free->start >= end)
			line(&g->out, g->indent, 2, "mtpar_prefault(%s, %lld);",
			     intern_name(sc->var->name), (long long)sc->size);
	}
	for (uint32_t s = 0; s < g->plan->slots.len; s++)
		if (g->plan->slots.items[s].used)
			line(&g->out, g->indent, 2, "mtpar_prefault(mtpar_buf%u, %lld);", s,
			     (long long)g->plan->slots.items[s].sc->size);
}

static const char *const block_comment[] = {
	"/*",
	" * Threads fork once; each core runs its tasks in order and waits only",
	" * for tasks on other cores, through end flags set to a generation count",
	" * that grows by one per entry, so flags never need resetting.  Safe to",
	" * call again and again, not concurrently (the flags are static).",
	" */",
};

/* The block that replaces children[first..last]: fork once, fall back to the original. */
static const char *span_block(Gen *g, uint32_t start, uint32_t end)
{
	const ParPlan *p = g->plan;
	const Schedule *s = p->sched;
	const Source *src = p->func->src;
	int np = g->sy->ncores;

	str_printf(&g->out,
	           "{ /* mtpar: %u tasks on %d cores, %s schedule, predicted speedup %.2f */\n",
	           p->tasks.len, np, s->heuristic ? s->heuristic : sched_kind_name(s->kind),
	           s->makespan > 0 ? s->seq_time / s->makespan : 1.0);
	for (size_t i = 0; i < sizeof(block_comment) / sizeof(*block_comment); i++)
		line(&g->out, g->indent, 1, "%s", block_comment[i]);
	if (g->sy->nflags > 0)
		line(&g->out, g->indent, 1, "static mtpar_sync_t mtpar_sync_%s[%d];", g->fname,
		     g->sy->nflags);
	line(&g->out, g->indent, 1, "static unsigned mtpar_gen_%s;", g->fname);
	line(&g->out, g->indent, 1, "int mtpar_ran = 0;");
	fv_table_decl(g);
	slot_decls(g);
	str_puts(&g->out, "\n");
	if (any_slot(p))
		line(&g->out, g->indent, 1,
		     "/* the callees' workspaces are taken here, on this thread, and given back below */");
	str_puts(&g->out, g->indent);
	str_printf(&g->out, "\tif (mtpar_can_fork(%d)", np);
	apart_tests(g);
	slot_takes(g);
	str_puts(&g->out, ") {\n");
	line(&g->out, g->indent, 2, "unsigned mtpar_gen = ++mtpar_gen_%s;", g->fname);
	if (g->sy->nflags == 0)
		line(&g->out, g->indent, 2, "(void)mtpar_gen; /* no task waits */");
	if (p->power)
		line(&g->out, g->indent, 2, "mtpar_fv_setup(%u, mtpar_fv_freq, mtpar_fv_name);",
		     p->power->table->states.len);
	prefaults(g, start, end);
	str_puts(&g->out, "\n");
	if (g->opts->oscar_api)
		region_oscar(g);
	else
		region_openmp(g);
	fv_frame_end(g, 2);
	line(&g->out, g->indent, 1, "}");
	slot_gives(g);
	line(&g->out, g->indent, 1, "if (!mtpar_ran) {");
	str_puts(&g->out, g->indent);
	str_puts(&g->out, "\t\t");
	str_putn(&g->out, src->text + start, end - start);
	str_puts(&g->out, "\n");
	line(&g->out, g->indent, 1, "}");
	str_puts(&g->out, g->indent);
	str_puts(&g->out, "}");
	return str_done(&g->out);
}

static void emit_plan(const Program *prog, const ParPlan *p, const Sync *sy,
                      const CodegenOptions *opts, EditList *edits,
                      CloneList *done)
{
	const Func *f = p->func;
	const MT *root = f->mt;
	uint32_t start = root->children.items[p->first]->start;
	uint32_t end = root->children.items[p->last]->end;
	EditList *el = &edits[source_index(prog, f->src)];
	Gen g = { p, sy, opts, indent_of(f->src, start), func_name(f), { 0 } };
	Str protos = { 0 };

	emit_clones(prog, p, edits, done, &protos);
	if (protos.len) {
		Str b = { 0 };

		str_printf(&b, "/* mtpar: chunk clones that %s calls */\n", func_name(f));
		str_putn(&b, protos.s, protos.len);
		str_puts(&b, "\n");
		edit_insert(el, f->start, str_done(&b));
		free(protos.s);
	}
	edit_replace(el, start, end, span_block(&g, start, end));
}

/* The runtime as emitted at byte 0, once per file. */
static const char *runtime_text(void)
{
	static const char *text;
	Str b = { 0 };

	if (text)
		return text;
	str_puts(&b, "/* mtpar: the runtime of the parallel code below (api/mtpar_rt.h) */\n");
	str_puts(&b, mtpar_rt_text);
	str_puts(&b, "/* mtpar: end of the runtime; the original file follows */\n");
	return text = str_done(&b);
}

bool codegen_program(const Program *prog, const PlanList *plans, const CodegenOptions *opts,
                     EditList *edits_per_source)
{
	uint32_t nsrc = prog->sources.len;
	bool *runtime = xcalloc(nsrc ? nsrc : 1, sizeof(*runtime));
	Sync *sync = xcalloc(plans->len ? plans->len : 1, sizeof(*sync));
	bool *emit = xcalloc(plans->len ? plans->len : 1, sizeof(*emit));
	CloneList done = { 0 };
	char why[256];

	for (uint32_t i = 0; i < plans->len; i++) {
		const ParPlan *p = plans->items[i];

		if (!p->tasks.len || p->why_not)
			continue;
		if (!codegen_check_plan(p, why, sizeof(why))) {
			remark_at(p->func->src, p->func->start, "%s stays sequential: %s",
			          func_name(p->func), why);
			continue;
		}
		sync_build(p, &sync[i]);
		emit[i] = sync[i].ncores >= 2;
		if (emit[i])
			runtime[source_index(prog, p->func->src)] = true;
	}
	for (uint32_t s = 0; s < nsrc; s++)
		if (runtime[s])
			edit_insert(&edits_per_source[s], 0, runtime_text());
	for (uint32_t i = 0; i < plans->len; i++)
		if (emit[i])
			emit_plan(prog, plans->items[i], &sync[i], opts, edits_per_source, &done);
	for (uint32_t i = 0; i < plans->len; i++)
		if (sync[i].core)
			sync_free(&sync[i], plans->items[i]->tasks.len, plans->items[i]->sched->ncores);
	array_free(&done);
	free(runtime);
	free(sync);
	free(emit);
	return true;
}
