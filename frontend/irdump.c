/*
 * irdump.c - front end, --dump=ir: the lowered program as deterministic text
 * (records with their layout, globals, functions with their statement trees,
 * loops with their induction variables, prototypes).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MTPAR_LOWERING
#include "frontend.h"

/* ---- --dump=ir: deterministic text ---- */

typedef struct Buf {
	char *s;
	size_t len, cap;
} Buf;

static void buf_printf(Buf *b, const char *fmt, ...) MTPAR_PRINTF(2, 3);

static void buf_printf(Buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("vsnprintf failed");
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->len + (size_t)n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static const char *int_name(const Type *t)
{
	static const char *const names[2][4] = {
		{ "char", "short", "int", "long" },
		{ "unsigned char", "unsigned short", "unsigned int", "unsigned long" },
	};
	int i = t->size == 1 ? 0 : t->size == 2 ? 1 : t->size == 4 ? 2 : 3;

	return names[t->is_unsigned][i];
}

/* Qualifiers, then the name of a type that has no declarator part. */
static void base_text(Buf *b, const Type *t)
{
	const char *tag = t->tag ? intern_name(t->tag) : "<anon>", *fl;

	buf_printf(b, "%s%s%s", t->is_const ? "const " : "", t->is_volatile ? "volatile " : "",
	           t->is_restrict ? "restrict " : "");
	switch (t->kind) {
	case TY_VOID: buf_printf(b, "void"); break;
	case TY_BOOL: buf_printf(b, "_Bool"); break;
	case TY_INT: buf_printf(b, "%s", int_name(t)); break;
	case TY_FLOAT:
		fl = t->size == 4 ? "float" : t->size == 8 ? "double" : "long double";
		buf_printf(b, "%s", fl);
		break;
	case TY_STRUCT: buf_printf(b, "struct %s", tag); break;
	case TY_UNION: buf_printf(b, "union %s", tag); break;
	case TY_ENUM: buf_printf(b, "enum %s", tag); break;
	default: buf_printf(b, "%s", t->tag ? intern_name(t->tag) : "?"); break;
	}
}

/* C-like text of t around the declarator text inner: float(*)[1000]. */
static void type_text(Buf *out, const Type *t, const char *inner)
{
	Buf d = { 0 };
	bool paren;

	if (!t) {
		buf_printf(out, "?%s", inner);
		return;
	}
	switch (t->kind) {
	case TY_PTR:
		paren = t->base && (t->base->kind == TY_ARRAY || t->base->kind == TY_FUNC);
		buf_printf(&d, "%s*%s%s%s%s%s", paren ? "(" : "", t->is_const ? "const" : "",
		           t->is_volatile ? " volatile" : "", t->is_restrict ? " restrict" : "",
		           inner, paren ? ")" : "");
		type_text(out, t->base, d.s);
		break;
	case TY_ARRAY:
		if (t->array_len >= 0)
			buf_printf(&d, "%s[%lld]", inner, (long long)t->array_len);
		else
			buf_printf(&d, "%s[%s]", inner, t->is_vla ? "*" : "");
		type_text(out, t->base, d.s);
		break;
	case TY_FUNC:
		buf_printf(&d, "%s(", inner);
		for (uint32_t i = 0; i < t->members.len; i++) {
			if (i)
				buf_printf(&d, ", ");
			type_text(&d, t->members.items[i].type, "");
		}
		buf_printf(&d, "%s)", t->is_variadic ? (t->members.len ? ", ..." : "...") : "");
		type_text(out, t->base, d.s);
		break;
	default:
		base_text(out, t);
		buf_printf(out, "%s", inner);
		break;
	}
	free(d.s);
}

static void print_type(FILE *out, const Type *t)
{
	Buf b = { 0 };

	type_text(&b, t, "");
	fputs(b.s ? b.s : "", out);
	free(b.s);
}

/* Literal text on one line: newlines and tabs of concatenated strings become blanks. */
static void print_squeezed(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\n' || *s == '\t' || *s == '\r' ? ' ' : *s, out);
}

static void print_expr(FILE *out, const Expr *e);

/* A float literal that still reads as one: 0 prints as 0.0. */
static void print_float(FILE *out, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.9g", v);
	fprintf(out, "%s%s", buf, strpbrk(buf, ".eEni") ? "" : ".0");
}

static void print_args(FILE *out, const Expr *e)
{
	for (uint32_t i = 0; i < e->args.len; i++) {
		fputc(' ', out);
		print_expr(out, e->args.items[i]);
	}
}

/* Prefix form: (op lhs rhs); variables by name, undeclared names as $NAME. */
/* An initializer list, long ones cut after 16 elements: { 1 2 ... (4096) }. */
static void print_init(FILE *out, const Expr *e)
{
	fputc('{', out);
	for (uint32_t i = 0; i < e->args.len && i < 16; i++) {
		fputc(' ', out);
		print_expr(out, e->args.items[i]);
	}
	if (e->args.len > 16)
		fprintf(out, " ... (%u)", e->args.len);
	fputs(" }", out);
}

/* Leaves and the other forms that print whole; false for an operator form. */
static bool print_leaf(FILE *out, const Expr *e)
{
	switch (e->kind) {
	case EX_NUM:
		if (e->num.is_float)
			print_float(out, e->num.fval);
		else
			fprintf(out, "%lld", (long long)e->num.ival);
		return true;
	case EX_STR: print_squeezed(out, e->str); return true;
	case EX_VAR: fputs(intern_name(e->var->name), out); return true;
	case EX_NAME: fprintf(out, "$%s", intern_name(e->name)); return true;
	case EX_INIT: print_init(out, e); return true;
	case EX_OTHER: fputs("(other", out); print_args(out, e); fputc(')', out); return true;
	case EX_SIZEOF:
		if (!e->cast_type)
			return false;
		fprintf(out, "(sizeof %lld ", (long long)e->num.ival);
		print_type(out, e->cast_type);
		fputc(')', out);
		return true;
	default:
		return false;
	}
}

static void print_expr(FILE *out, const Expr *e)
{
	if (!e) {
		fputc('_', out);
		return;
	}
	if (print_leaf(out, e))
		return;
	switch (e->kind) {
	case EX_UNARY: fprintf(out, "(%s ", op_name[e->op]); break;
	case EX_BINARY: fprintf(out, "(%s ", op_name[e->op]); break;
	case EX_ASSIGN:
		fprintf(out, "(%s%s ", e->op == OP_ASSIGN ? "" : op_name[e->op], "=");
		break;
	case EX_COND: fputs("(? ", out); print_expr(out, e->cond); fputc(' ', out); break;
	case EX_COMMA: fputs("(, ", out); break;
	case EX_CALL: fprintf(out, "(call%s ", e->callee_func ? ":def" : ""); break;
	case EX_INDEX: fputs("([] ", out); break;
	case EX_MEMBER: fprintf(out, "(%s ", op_name[e->op]); break;
	case EX_CAST: fputs("(cast ", out); print_type(out, e->cast_type); fputc(' ', out); break;
	case EX_SIZEOF: fprintf(out, "(sizeof %lld ", (long long)e->num.ival); break;
	default: break;
	}
	print_expr(out, e->lhs);
	if (e->kind == EX_MEMBER)
		fprintf(out, " %s", intern_name(e->name));
	if (e->rhs || e->kind == EX_COND) {
		fputc(' ', out);
		print_expr(out, e->rhs);
	}
	if (e->kind == EX_CALL)
		print_args(out, e);
	fputc(')', out);
}

static uint32_t line_of(const Source *src, uint32_t byte)
{
	uint32_t line, col;

	source_pos(src, byte, &line, &col);
	return line;
}

static void print_um(FILE *out, uint32_t mask)
{
	const char *sep = " [unmodelled: ";

	for (int k = 0; k < UM_OTHER + 1; k++) {
		if (!(mask & (1u << k)))
			continue;
		fprintf(out, "%s%s", sep, unmodelled_name[k]);
		sep = ", ";
	}
	if (mask)
		fputc(']', out);
}

static void print_stmt(FILE *out, const Source *src, const Stmt *s, int depth, const char *label);

static void print_loop_head(FILE *out, const Loop *lp)
{
	for (uint32_t i = 0; i < lp->ivs.len; i++) {
		const InductionVar *iv = &lp->ivs.items[i];

		fprintf(out, " iv(%s = ", intern_name(iv->var->name));
		print_expr(out, iv->init);
		if (iv->step_known)
			fprintf(out, ", step %lld)", (long long)iv->step);
		else
			fputs(", step ?)", out);
	}
	if (lp->trip_count >= 0)
		fprintf(out, " trip %lld [%lld, %lld)", (long long)lp->trip_count,
		        (long long)lp->lower, (long long)lp->upper);
	else if (lp->ivs.len)
		fputs(" trip ?", out);
}

static void print_labeled_expr(FILE *out, int depth, const char *label, const Expr *e)
{
	fprintf(out, "%*s%s ", 2 * depth, "", label);
	print_expr(out, e);
	fputc('\n', out);
}

static void print_loop_body(FILE *out, const Source *src, const Stmt *s, int depth)
{
	const Loop *lp = s->loop;

	for (uint32_t i = 0; i < lp->init.len; i++)
		print_stmt(out, src, lp->init.items[i], depth, "init ");
	if (lp->cond)
		print_labeled_expr(out, depth, "cond", lp->cond);
	if (lp->step)
		print_labeled_expr(out, depth, "step", lp->step);
	if (lp->body)
		print_stmt(out, src, lp->body, depth, "body ");
}

/* The rest of a statement's line, after "LINE: kind". */
static void print_stmt_line(FILE *out, const Stmt *s)
{
	switch (s->kind) {
	case ST_DECL:
		fprintf(out, " %s%s: ", s->var->storage == SC_STATIC ? "static " : "",
		        intern_name(s->var->name));
		print_type(out, s->var->type);
		if (s->expr) {
			fputs(" = ", out);
			print_expr(out, s->expr);
		}
		break;
	case ST_FOR: case ST_WHILE: case ST_DO:
		print_loop_head(out, s->loop);
		break;
	case ST_GOTO: case ST_LABEL:
		fprintf(out, " %s", s->name ? intern_name(s->name) : "*");
		break;
	case ST_EXPR: case ST_IF: case ST_SWITCH: case ST_CASE: case ST_RETURN:
		if (s->expr || s->kind == ST_CASE) {
			fputc(' ', out);
			if (s->kind == ST_CASE && !s->expr)
				fputs("default", out);
			else
				print_expr(out, s->expr);
		}
		break;
	default:
		break;
	}
	print_um(out, s->unmodelled);
}

/* One line per statement, children indented: "LINE: kind details". */
static void print_stmt(FILE *out, const Source *src, const Stmt *s, int depth, const char *label)
{
	fprintf(out, "%*s%s%u: %s", 2 * depth, "", label, line_of(src, s->start),
	        stmt_kind_name[s->kind]);
	print_stmt_line(out, s);
	fputc('\n', out);
	for (uint32_t i = 0; i < s->body.len; i++)
		print_stmt(out, src, s->body.items[i], depth + 1, "");
	if (s->loop)
		print_loop_body(out, src, s, depth + 1);
	if (s->then)
		print_stmt(out, src, s->then, depth + 1, s->kind == ST_IF ? "then " : "");
	if (s->els)
		print_stmt(out, src, s->els, depth + 1, "else ");
}

static const char *storage_name(StorageClass sc)
{
	static const char *const names[] = { "", " static", " extern", " register", " typedef" };

	return names[sc];
}

static void print_global(FILE *out, const Var *v)
{
	fprintf(out, "global %s: ", intern_name(v->name));
	print_type(out, v->type);
	fputs(storage_name(v->storage), out);
	if (v->init_hidden)
		fputs(" init(hidden)", out);
	else if (v->init) {
		fputs(" init ", out);
		print_expr(out, v->init);
	}
	if (v->addr_taken)
		fputs(" addr_taken", out);
	fputc('\n', out);
}

static void print_func(FILE *out, const Func *f)
{
	fprintf(out, "func %s:%s%s%s -> ", intern_name(f->name), storage_name(f->storage),
	        f->is_inline ? " inline" : "", f->is_variadic ? " variadic" : "");
	print_type(out, f->ret);
	fprintf(out, " [%u-%u]\n", line_of(f->src, f->start), line_of(f->src, f->end));
	for (uint32_t i = 0; i < f->params.len; i++) {
		const Var *v = f->params.items[i];

		fprintf(out, "  param %s: ", v->name ? intern_name(v->name) : "_");
		print_type(out, v->type);
		fputs(v->addr_taken ? " addr_taken\n" : "\n", out);
	}
	for (uint32_t i = 0; i < f->unmodelled.len; i++) {
		const Unmodelled *u = &f->unmodelled.items[i];

		fprintf(out, "  unmodelled %s at line %u\n", unmodelled_name[u->kind],
		        line_of(f->src, u->at));
	}
	if (f->body)
		print_stmt(out, f->src, f->body, 1, "");
}

static void print_record(FILE *out, const Type *t)
{
	fprintf(out, "%s %s size %lld align %d\n", type_kind_name[t->kind],
	        t->tag ? intern_name(t->tag) : "<anon>", (long long)t->size, t->align);
	for (uint32_t i = 0; i < t->members.len; i++) {
		const Member *m = &t->members.items[i];

		fprintf(out, "  member %s: ", m->name ? intern_name(m->name) : "<anon>");
		print_type(out, m->type);
		fprintf(out, " @%lld\n", (long long)m->offset);
	}
}

void lower_dump(FILE *out, const Program *prog)
{
	const struct LowerTables *lt = prog->lower;

	for (uint32_t i = 0; lt && i < lt->records.len; i++)
		print_record(out, lt->records.items[i]);
	for (uint32_t s = 0; s < prog->sources.len; s++) {
		const Source *src = prog->sources.items[s];

		fprintf(out, "source %s\n", src->path);
		for (uint32_t i = 0; i < prog->globals.len; i++)
			if (prog->globals.items[i]->src == src)
				print_global(out, prog->globals.items[i]);
		for (uint32_t i = 0; i < prog->funcs.len; i++)
			if (prog->funcs.items[i]->src == src)
				print_func(out, prog->funcs.items[i]);
	}
	for (uint32_t i = 0; i < prog->decls.len; i++) {
		const FuncDecl *fd = prog->decls.items[i];

		fprintf(out, "decl %s:", intern_name(fd->name));
		fputs(storage_name(fd->storage), out);
		fputc(' ', out);
		print_type(out, fd->type);
		fputc('\n', out);
	}
}

