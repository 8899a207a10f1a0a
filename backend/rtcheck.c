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

/* Each used slot taken with its user's allocator call, in order. */
static void slot_takes(FILE *out, const ParPlan *p, const char *indent)
{
	for (uint32_t s = 0; s < p->slots.len; s++) {
		const WsSlot *ws = &p->slots.items[s];
		const Expr *a = ws->sc->alloc;

		if (ws->used)
			fprintf(out, " &&\n%s\t\t(mtpar_buf%u = (void *)%.*s) != NULL", indent, s,
			        (int)(a->end - a->start), ws->sb->callee->src->text + a->start);
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
