/*
 * rtcheck.c - back end: the run-time checks of a parallel region's fork
 * condition, after mtpar_can_fork: the memories of the loaded pointers that
 * the plan took for apart do not meet (mtpar_apart), every workspace
 * buffer the chunks share could be taken, and each workspace that a chunk
 * keeps on its stack could have been taken too.  When one fails, the
 * original code runs instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		fputs(") != (void *)0", out);
	}
}

/*
 * A clone's workspace in a nested block lives on the chunk's stack
 * (scratch_edits), where taking it cannot fail, while the original takes
 * it from the user's allocator each time the block runs and gives up
 * (`return -1`) when that fails: a pool that is too small.  So each is
 * taken once here, after the slots (as much as the chunks' callees hold at
 * once, or more), and given back at once; the region runs only where that
 * succeeds, and an allocator that cannot give n bytes here could not have
 * given them to the original either.
 */
static void probe_takes(FILE *out, const ParPlan *p, const char *indent)
{
	for (uint32_t i = 0; i < p->clones.len; i++) {
		const Func *f = p->clones.items[i]->callee;
		bool only, seen = false;
		const ScratchList *l = scratch_list(f, &only);

		for (uint32_t k = 0; k < i; k++)
			seen |= p->clones.items[k]->callee == f;
		for (uint32_t k = 0; l && !seen && k < l->len; k++) {
			const Scratch *sc = &l->items[k];

			if (sc->top)
				continue;
			fprintf(out, " &&\n%s\t\t(mtpar_probe = (void *)", indent);
			print_alloc(out, sc->alloc, f->src);
			fprintf(out, ") != (void *)0 && ((void)%s, 1)", rtcheck_free_text(f->src, sc, "mtpar_probe"));
		}
	}
}

bool rtcheck_has_probe(const ParPlan *p)
{
	for (uint32_t i = 0; i < p->clones.len; i++) {
		bool only;
		const ScratchList *l = scratch_list(p->clones.items[i]->callee, &only);

		for (uint32_t k = 0; l && k < l->len; k++)
			if (!l->items[k].top)
				return true;
	}
	return false;
}

const char *rtcheck_free_text(const Source *src, const Scratch *sc, const char *var)
{
	size_t n = (sc->free_ptr->start - sc->free->start) + strlen(var) + (sc->free->end - sc->free_ptr->end);
	char *b = arena_alloc(n + 1);

	snprintf(b, n + 1, "%.*s%s%.*s", (int)(sc->free_ptr->start - sc->free->start),
	         src->text + sc->free->start, var, (int)(sc->free->end - sc->free_ptr->end),
	         src->text + sc->free_ptr->end);
	return b;
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
	probe_takes(out, p, indent);
	if (fclose(out) != 0)
		die("cannot build text in memory");
	return buf;
}
