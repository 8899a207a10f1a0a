/*
 * rtcheck.c - back end: the run-time checks of a parallel region's fork
 * condition, after mtpar_can_fork: the memories of the loaded pointers that
 * the plan took for apart do not meet (mtpar_apart), and every workspace
 * buffer the chunks share could be taken.  When one fails, the original
 * code runs instead.
 */
#include <stdlib.h>

#include "backend.h"

/* `mtpar_apart(a, alo, ahi, b, blo, bhi)` for each pair the plan assumed apart. */
static void apart_tests(FILE *out, const ParPlan *p, const char *indent)
{
	for (uint32_t i = 0; i < p->apart.len; i++) {
		const ApartCheck *ck = &p->apart.items[i];

		fprintf(out, " &&\n%s\t\tmtpar_apart(%s, %lld, %lld, %s, %lld, %lld)", indent,
		        intern_name(ck->a->name), (long long)ck->alo, (long long)ck->ahi,
		        intern_name(ck->b->name), (long long)ck->blo, (long long)ck->bhi);
	}
}

/* Does e name a variable or come from a macro, text the caller may not have? */
static bool names_callee_text(const Expr *e, void *ctx)
{
	(void)ctx;
	return e->kind == EX_VAR || e->in_macro;
}

/*
 * The user's allocator call a, each argument whose text names the callee's
 * parameters and locals or its file's macros (`malloc(n * sizeof *tmp)`),
 * which the caller may not have, as its value: each is a constant
 * (scratch_decl).  Literal arguments keep their text.
 */
static void print_alloc(FILE *out, const Expr *a, const Source *src)
{
	fprintf(out, "%.*s(", (int)(a->lhs->end - a->lhs->start), src->text + a->lhs->start);
	for (uint32_t i = 0; i < a->args.len; i++) {
		const Expr *arg = a->args.items[i];
		Ival v = val_int(arg, NULL);

		if (i)
			fputs(", ", out);
		if (iv_is_const(v) && ir_expr_any(arg, names_callee_text, NULL))
			fprintf(out, "%lldLL", (long long)v.lo);
		else
			fprintf(out, "%.*s", (int)(arg->end - arg->start), src->text + arg->start);
	}
	fputc(')', out);
}

/* Each used slot taken with its user's allocator call, in order. */
static void slot_takes(FILE *out, const ParPlan *p, const char *indent)
{
	for (uint32_t s = 0; s < p->slots.len; s++) {
		const WsSlot *ws = &p->slots.items[s];

		if (!ws->used)
			continue;
		fprintf(out, " &&\n%s\t\t(mtpar_buf%u = (void *)", indent, s);
		print_alloc(out, ws->sc->alloc, ws->sb->callee->src);
		fputs(") != NULL", out);
	}
}

char *rtcheck_condition(const ParPlan *p, const char *indent)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	if (!out)
		die("cannot build text in memory");
	apart_tests(out, p, indent);
	slot_takes(out, p, indent);
	if (fclose(out) != 0)
		die("cannot build text in memory");
	return buf;
}
