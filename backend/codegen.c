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
 * express without changing the program's meaning (check_plan), and
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

static const char *func_name(const Func *f)
{
	return intern_name(f->name);
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

typedef Array(const Clone *) CloneList;

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
	const ScratchList *l = scratch_list(f, &only);

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
 * in a nested block a buffer on the stack declared just before it (zeroed
 * there for calloc's, each time the block runs); their frees become 0 (a bare `FREE(v);` becomes `(void)0;`).
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
			edit_insert(el, d->start, fmt_str("MTPAR_ALIGN64 unsigned char mtpar_stack%u[%lld]%s; ",
			                                  stack, (long long)sc->size,
			                                  sc->zeroed ? " = { 0 }" : ""));
			edit_replace(el, sc->alloc->start, sc->alloc->end,
			             fmt_str("(void *)mtpar_stack%u", stack++));
		}
		edit_replace(el, sc->free->start, sc->free->end, sc->bare_free ? "(void)0" : "0");
	}
}

/*
 * `__typeof__(&(sum)[0]) mtpar_real0 = &(sum)[0]; { __typeof__(sum) sum; `:
 * a chunk works on a copy of each array that privarr.c found private, of
 * the same type and by the same name, so that `sizeof` and `__typeof__`
 * in the loop read as before; a local array, which the compiler knows no
 * pointer reaches, so it keeps its elements in registers as it did the
 * original's.  A pointer parameter points at a local array of the rows the
 * loop reaches (`{ __typeof__((tmp)[0]) mtpar_rows0[64]; __typeof__(tmp)
 * tmp = mtpar_rows0; `), which the compiler sees as plainly.
 * privarr_close gives the chunk with the loop's last iteration's copy
 * back (the bytes every iteration writes) and ends the scopes.
 */
static const char *privarr_open(const SplitLoop *sl)
{
	Str b = { 0 };

	str_puts(&b, "");
	for (uint32_t i = 0; i < sl->privarr.len; i++) {
		const char *x = intern_name(sl->privarr.items[i].var->name);

		str_printf(&b, "__typeof__(&(%s)[0]) mtpar_real%u = &(%s)[0]; ", x, i, x);
	}
	for (uint32_t i = 0; i < sl->privarr.len; i++) {
		const PrivArray *pa = &sl->privarr.items[i];
		const char *x = intern_name(pa->var->name);

		if (pa->var->scope == VAR_PARAM)
			str_printf(&b, "{ __typeof__((%s)[0]) mtpar_rows%u[%lld]; __typeof__(%s) %s = mtpar_rows%u; ",
			           x, i, (long long)pa->rows, x, x, i);
		else
			str_printf(&b, "{ __typeof__(%s) %s; ", x, x);
	}
	return str_done(&b);
}

static const char *privarr_close(const SplitLoop *sl)
{
	Str b = { 0 };

	str_puts(&b, "");
	for (uint32_t i = 0; i < sl->privarr.len; i++) {
		const PrivArray *pa = &sl->privarr.items[i];

		str_printf(&b, " if (%lld >= mtpar_lo && %lld < mtpar_hi) __builtin_memcpy((char *)mtpar_real%u + %lld, "
		           "(char *)%s + %lld, %lld);", (long long)sl->last, (long long)sl->last, i,
		           (long long)pa->from, intern_name(pa->var->name), (long long)pa->from,
		           (long long)(pa->to - pa->from));
	}
	for (uint32_t i = 0; i < sl->privarr.len; i++)
		str_puts(&b, " }");
	return str_done(&b);
}

/* The declarator edits shared by the clone and its prototype: name and parameters. */
static void clone_decl_edits(const Clone *c, EditList *el)
{
	const Func *f = c->callee;
	uint32_t at, lp, rp;

	if (!scan_declarator(f, &at, &lp, &rp))
		die("declarator of %s vanished", func_name(f));
	Str b = { 0 };
	const ScratchList *ws = scratch_of(f);

	str_puts(&b, "int mtpar_part, long mtpar_lo, long mtpar_hi");
	for (uint32_t i = 0, k = 0; i < ws->len; i++)
		if (ws->items[i].top)
			str_printf(&b, ", void *mtpar_ws%u", k++);
	edit_replace(el, at, at + (uint32_t)strlen(func_name(f)), clone_name(c));
	if (scan_params_empty(f->src->text, lp, rp)) {
		edit_replace(el, lp + 1, rp, str_done(&b));
		return;
	}
	/*
	 * right after the last parameter, before the blanks up to ')' on its
	 * line: not before a line break, which may end a `// comment`
	 */
	while (rp > lp + 1 && strchr(" \t", f->src->text[rp - 1]))
		rp--;
	edit_insert(el, rp, fmt_str(", %s", str_done(&b)));
}

static const char *src_text(const Source *src, const Expr *e)
{
	return arena_strndup(src->text + e->start, e->end - e->start);
}

/*
 * A decreasing loop's header for chunk [mtpar_lo, mtpar_hi): its one IV
 * starts at the chunk's top value, mtpar_hi - step (mtpar_hi is one of the
 * loop's values or one step above its start), and the condition COND
 * becomes (COND) && IV >= mtpar_lo.
 */
static void reverse_split_edits(const SplitLoop *sl, const Source *src, EditList *el)
{
	const Loop *lp = sl->loop->loop;
	const InductionVar *iv0 = &lp->ivs.items[0];
	Str b = { 0 };

	str_printf(&b, "(mtpar_hi - %lld)", (long long)sl->step);
	edit_replace(el, iv0->init->start, iv0->init->end, str_done(&b));
	str_printf(&b, "(%s) && %s >= %smtpar_lo", src_text(src, lp->cond),
	           intern_name(iv0->var->name), iv0->var->type->is_unsigned ? "(unsigned long)" : "");
	edit_replace(el, lp->cond->start, lp->cond->end, str_done(&b));
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

	if (sl->reverse) {
		reverse_split_edits(sl, src, el);
		return;
	}
	edit_replace(el, iv0->init->start, iv0->init->end, "mtpar_lo");
	for (uint32_t i = 1; i < lp->ivs.len; i++) {
		const InductionVar *iv = &lp->ivs.items[i];

		str_printf(&b, "(%s) + (%lld) * ((mtpar_lo - (%lld)) / (%lld))", src_text(src, iv->init),
		           (long long)iv->step, (long long)sl->lo, (long long)sl->step);
		edit_replace(el, iv->init->start, iv->init->end, str_done(&b));
	}
	for (uint32_t i = 0; i < lp->init.len; i++) {
		Expr *init;
		Var *v;

		if (loop_init_assign(lp->init.items[i], &v, &init) && !loop_find_iv(lp, v))
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
/*
 * MTPAR_IVDEP before each loop that ivdep.c found free of memory
 * dependences, unless the user's own pragmas stand above it (`#pragma omp
 * simd` must be followed by the loop itself).
 */
static void mark_simd(EditList *el, const Source *src, const StmtConstList *loops)
{
	for (uint32_t i = 0; i < loops->len; i++) {
		uint32_t at = loops->items[i]->start;

		if (edit_pragmas_before(src, at) == at)
			edit_insert(el, at, "MTPAR_IVDEP ");
	}
}

static const char *clone_definition(const Clone *c, bool lines)
{
	const Func *f = c->callee;
	EditList el = { 0 };
	Str b = { 0 };
	char *text;

	clone_decl_edits(c, &el);
	/* at the body's end, after its declarations: C89 takes no statement before them */
	edit_insert(&el, f->body->end - 1, " (void)mtpar_part; (void)mtpar_lo; (void)mtpar_hi;\n");
	scratch_edits(f, &el);
	bind_context_apply(c->callee, &c->ctx, true); /* the header as decomposition read it */
	for (uint32_t k = 0; k < c->parts.len; k++) {
		const SplitLoop *sl = &c->parts.items[k];
		uint32_t at = edit_pragmas_before(f->src, sl->top->start);

		/* above the loop's pragmas, which must stay right before it */
		if (sl->split && sl->privarr.len) {
			str_printf(&b, "if (mtpar_part == %u) { %s", k, privarr_open(sl));
			edit_insert(&el, sl->top->end, fmt_str("%s }", privarr_close(sl)));
		} else {
			str_printf(&b, "if (mtpar_part == %u)", k);
		}
		str_puts(&b, at == sl->top->start ? " " : "\n");
		edit_insert(&el, at, str_done(&b));
		mark_simd(&el, f->src, &sl->simd);
		if (sl->split) {
			split_edits(sl, f->src, &el);
			edit_drop_loop_pragmas(&el, f->src, sl->top->start);
		}
	}
	bind_context_apply(c->callee, &c->ctx, false);
	el.line_directives = lines;
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

		str_printf(b, "%s part %u = %s at line %u", k ? "," : "", k,
		           sl->whole_stmt ? "statement" : "loop", scan_line(f->src, sl->top->start));
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
static void emit_clones(const Program *prog, const ParPlan *p, const CodegenOptions *opts,
                        EditList *edits, CloneList *done, Str *protos)
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
		str_puts(&b, clone_definition(c, opts->line_directives));
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

typedef struct Gen {
	const ParPlan *plan;
	const Sync *sy;
	const CodegenOptions *opts;
	const char *indent;   /* the span's line indent */
	const char *fname;    /* the planned function's name */
	Str out;
	bool share;           /* the slices of a loop share one copy (see shared_slices) */
	Array(const ParTask *) shared; /* per shared loop: its first slice, by first use */
	Array(uint32_t) backs; /* per return point: the shared loop it returns from */
	bool one_fork;        /* the region runs the loop p->root whole (plan_one_fork_why) */
	uint32_t span_start, span_end; /* the body's tasks' bytes, inside that loop */
	const char *tag;      /* the labels' suffix: "" in a function's first region, "_2" on */
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

/*
 * Argument i of a chunk's call of clone c: the constant that every call
 * (or this call's context) passes for its parameter, where the analysis
 * bound one, else the argument as written.  A region's outlined code reads
 * the caller's locals through a pointer, so GCC sees `n` as unknown there;
 * the constant lets it specialise the clone (the strides of `double
 * A[n][m]`, vlaparam.c: 0.72x with `n`, 2.07x with 1000).
 */
static const char *chunk_arg(const Clone *c, const Expr *call, uint32_t i, const Source *src)
{
	const Func *g = c->callee;
	const Var *p = i < g->params.len ? g->params.items[i] : NULL;

	for (uint32_t k = 0; p && k < c->ctx.len; k++)
		if (c->ctx.items[k].param == p)
			return fmt_str("(%lld)", (long long)c->ctx.items[k].value);
	if (p && p->bound && !p->type->is_unsigned)
		return fmt_str("(%lld)", (long long)p->bound_value);
	return src_text(src, call->args.items[i]);
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
	str_printf(&b, ", line %u", scan_line(mt->func->src, mt->start));
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

/* C's name of an integer type of t's size and signedness. */
static const char *int_type_name(const Type *t)
{
	static const char *const names[2][4] = {
		{ "signed char", "short", "int", "long long" },
		{ "unsigned char", "unsigned short", "unsigned", "unsigned long long" },
	};
	int k = t->size == 1 ? 0 : t->size == 2 ? 1 : t->size == 4 ? 2 : 3;

	return names[t->is_unsigned ? 1 : 0][k];
}

typedef Array(const Var *) VarList;

static void note_bound(Expr *e, void *ctx)
{
	VarList *l = ctx;

	if (e->kind != EX_VAR || !e->var->bound ||
	    (e->var->scope != VAR_PARAM && e->var->scope != VAR_LOCAL))
		return;
	for (uint32_t i = 0; i < l->len; i++)
		if (l->items[i] == e->var)
			return;
	array_push(l, e->var);
}

/*
 * `int i; int j; const int n = 1000; `: the slice's own counters
 * (decomp.c's private_counter), shadowing f's, and the values of the
 * integers it reads that every call or their one initializer fixes (bind.c).
 * In the outlined region the compiler would read those from the region's
 * data block, not knowing them; a loop bound it does not know keeps GCC -O2
 * from vectorizing the loop, which the sequential program, inlined where the
 * value is known, did.
 */
static void bound_decls(Str *b, const Stmt *s)
{
	VarList bound = { 0 };

	ir_visit_stmt((Stmt *)s, note_bound, NULL, &bound);
	for (uint32_t i = 0; i < bound.len; i++)
		str_printf(b, "const %s %s = %lld; ", int_type_name(bound.items[i]->type),
		           intern_name(bound.items[i]->name), (long long)bound.items[i]->bound_value);
	array_free(&bound);
}

/* The name of an arithmetic type (plan_private_counter's): integer or floating. */
static const char *scalar_type_name(const Type *t)
{
	if (t->kind != TY_FLOAT)
		return int_type_name(t);
	return t->size == 4 ? "float" : t->size == 8 ? "double" : "long double";
}

static const char *private_decls(const SplitLoop *sl)
{
	Str b = { 0 };

	str_puts(&b, "");
	for (uint32_t i = 0; i < sl->privates.len; i++)
		str_printf(&b, "%s %s; ", scalar_type_name(sl->privates.items[i]->type),
		           intern_name(sl->privates.items[i]->name));
	bound_decls(&b, sl->top);
	return str_done(&b);
}

/*
 * A whole loop run as one task: its text, with the vectorizer's marks and
 * the bound integers it reads as constants, as a slice has them.
 */
static const char *whole_loop_text(Gen *g, const ParTask *task)
{
	const MT *mt = task->mt;
	EditList el = { 0 };
	Str decls = { 0 }, b = { 0 };
	char *text;

	mark_simd(&el, mt->func->src, &task->simd);
	el.line_directives = g->opts->line_directives;
	text = edit_apply_range(mt->func->src, &el, mt->start, mt->end);
	array_free(&el.edits);
	bound_decls(&decls, mt->loop);
	if (decls.len)
		str_printf(&b, "{ %s%s }", decls.s, text);
	else
		str_puts(&b, text);
	free(decls.s);
	free(text);
	return str_done(&b);
}

/* Bytes [start, end) of src as they are; with lines, after their #line (arena text). */
static const char *source_copy(const Source *src, uint32_t start, uint32_t end, bool lines)
{
	EditList el = { .line_directives = lines };
	char *text = edit_apply_range(src, &el, start, end);
	const char *copy = arena_strndup(text, strlen(text));

	free(text);
	return copy;
}

/*
 * Slices without copies: every core's slice of a loop jumps to the one
 * copy of the loop (after the switch of the cores) with its bounds in
 * mtpar_lo and mtpar_hi, and jumps back through mtpar_back.  A loop split
 * for 16 cores is written once, not 16 times.  Only in the OpenMP form,
 * where all cores' code is one block (OSCAR's sections are one block each).
 */
static void slice_jump(Gen *g, const ParTask *task, Str *b)
{
	uint32_t k = 0, back = g->backs.len;

	while (k < g->shared.len && g->shared.items[k]->mt != task->mt)
		k++;
	if (k == g->shared.len)
		array_push(&g->shared, task);
	array_push(&g->backs, k);
	str_printf(b, "mtpar_lo = %lld; mtpar_hi = %lld; mtpar_back = %u; goto mtpar_slice%u%s; "
	           "mtpar_back%u%s:;", (long long)task->lo, (long long)task->hi, back, k, g->tag, back,
	           g->tag);
}

/*
 * A slice's loop, bounds from mtpar_lo and mtpar_hi, its independent inner
 * loops marked for the vectorizer (caller frees).
 */
static char *slice_text(Gen *g, const ParTask *task)
{
	const MT *mt = task->mt;
	EditList el = { 0 };
	char *text;

	split_edits(task->slice, mt->func->src, &el);
	mark_simd(&el, mt->func->src, &task->slice->simd);
	el.line_directives = g->opts->line_directives;
	text = edit_apply_range(mt->func->src, &el, mt->start, mt->end);
	array_free(&el.edits);
	return text;
}

/* A slice's loop with its private counters (caller frees). */
static char *slice_body(Gen *g, const ParTask *task)
{
	char *text = slice_text(g, task), *body;
	size_t n = strlen(private_decls(task->slice)) + strlen(text) + 1;

	n += strlen(privarr_open(task->slice)) + strlen(privarr_close(task->slice));
	body = xmalloc(n);
	snprintf(body, n, "%s%s%s%s", private_decls(task->slice), privarr_open(task->slice), text,
	         privarr_close(task->slice));
	free(text);
	return body;
}

/* The shared copies, after the cores' switch: each loop once, then back to its caller. */
static void shared_slices(Gen *g, int depth)
{
	if (!g->shared.len)
		return;
	line(&g->out, g->indent, depth, "goto mtpar_slices_end%s;", g->tag);
	for (uint32_t k = 0; k < g->shared.len; k++) {
		char *body = slice_body(g, g->shared.items[k]);

		line(&g->out, g->indent, depth, "mtpar_slice%u%s: { %s }", k, g->tag, body);
		free(body);
		line(&g->out, g->indent, depth, "switch (mtpar_back) {");
		for (uint32_t b = 0; b < g->backs.len; b++)
			if (g->backs.items[b] == k)
				line(&g->out, g->indent, depth, "case %u: goto mtpar_back%u%s;", b, b, g->tag);
		line(&g->out, g->indent, depth, "}");
	}
	line(&g->out, g->indent, depth, "mtpar_slices_end%s:;", g->tag);
}

static bool has_slices(const ParPlan *p)
{
	for (uint32_t i = 0; i < p->tasks.len; i++)
		if (p->tasks.items[i].kind == TASK_SLICE)
			return true;
	return false;
}

/* The statement a task runs. */
static void task_text(Gen *g, uint32_t t, int depth)
{
	const ParTask *task = &g->plan->tasks.items[t];
	const MT *mt = task->mt;
	const Source *src = mt->func->src;
	Str b = { 0 };

	if (task->kind == TASK_WHOLE && !task->fold_guard && mt->kind == MT_RB) {
		str_puts(&b, whole_loop_text(g, task));
	} else if (task->kind == TASK_WHOLE && !task->fold_guard) {
		str_puts(&b, source_copy(src, mt->start, mt->end, g->opts->line_directives));
	} else if (task->kind == TASK_WHOLE) {
		str_printf(&b, "(void)%s;", src_text(src, mt->call));
	} else if (task->kind == TASK_SLICE && g->share) {
		slice_jump(g, task, &b);
	} else if (task->kind == TASK_SLICE) {
		char *text = slice_text(g, task);

		str_printf(&b, "{ const long mtpar_lo = %lld, mtpar_hi = %lld; %s%s%s%s }",
		           (long long)task->lo, (long long)task->hi, private_decls(task->slice),
		           privarr_open(task->slice), text, privarr_close(task->slice));
		free(text);
	} else {
		const SplitLoop *sl = &task->clone->parts.items[task->part];
		int64_t lo = sl->split ? task->lo : sl->lo, hi = sl->split ? task->hi : sl->hi;

		str_printf(&b, "(void)%s(", clone_name(task->clone));
		for (uint32_t i = 0; i < mt->call->args.len; i++)
			str_printf(&b, "%s, ", chunk_arg(task->clone, mt->call, i, src));
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

/* ---- --profile: timers around tasks, waits and the region (api/mtpar_rt.h) ---- */

/* The task's name as a C string literal's contents. */
static const char *c_string_text(const char *s)
{
	Str b = { 0 };

	str_puts(&b, "");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			str_putn(&b, "\\", 1);
		if ((unsigned char)*s >= ' ' && *s != 0x7f)
			str_putn(&b, s, 1);
	}
	return str_done(&b);
}

/* The static tables the region's timers fill, written out at exit. */
static void profile_decls(Gen *g)
{
	const ParPlan *p = g->plan;
	uint32_t n = p->tasks.len;

	line(&g->out, g->indent, 1, "static struct mtpar_prof_task mtpar_prof_tasks_%s[%u] = {",
	     g->fname, n);
	for (uint32_t t = 0; t < n; t++) {
		const ParTask *task = &p->tasks.items[t];

		line(&g->out, g->indent, 2, "{ \"%s\", %.1f, 0, 0 },",
		     task->name ? c_string_text(measured_key(p->root, task->name)) : fmt_str("task%u", t),
		     t < p->graph.tasks.len ? p->graph.tasks.items[t].cost : 0.0);
	}
	line(&g->out, g->indent, 1, "};");
	str_puts(&g->out, g->indent);
	str_printf(&g->out, "\tstatic int mtpar_prof_cores_%s[%u] = {", g->fname, n);
	for (uint32_t t = 0; t < n; t++)
		str_printf(&g->out, "%s%d", t ? ", " : " ", g->sy->core[t]);
	str_puts(&g->out, " };\n");
	line(&g->out, g->indent, 1, "static double mtpar_prof_waits_%s[%d];", g->fname,
	     g->sy->ncores);
	line(&g->out, g->indent, 1,
	     "static struct mtpar_prof mtpar_prof_%s = { \"%s\", %u, %d, mtpar_prof_tasks_%s, "
	     "mtpar_prof_cores_%s, mtpar_prof_waits_%s, %.1f, %.1f, 0, 0, 0, 0 };",
	     g->fname, g->fname, n, g->sy->ncores, g->fname, g->fname, g->fname,
	     p->sched->makespan, p->sched->seq_time);
}

/* At the top of a core's block: the running task's start time, private to the thread. */
static void profile_local(Gen *g, int depth)
{
	if (g->opts->profile)
		line(&g->out, g->indent, depth, "double mtpar_t0; /* --profile: the running task's start */");
}

/* One core's straight-line sequence: for each task its waits, the task, its post. */
static void core_body(Gen *g, int c, int depth)
{
	const SchedList *seq = &g->sy->seq[c];
	bool prof = g->opts->profile;

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

			line(&g->out, g->indent, depth, "%s(&mtpar_sync_%s[%d], mtpar_gen%s); /* %s, core %d */",
			     prof ? "mtpar_prof_wait" : "mtpar_wait", g->fname, g->sy->flag[q],
			     prof ? fmt_str(", &mtpar_prof_waits_%s[%d]", g->fname, c) : "",
			     task_label(qt, q), g->sy->core[q]);
		}
		fv_switches(g, c, i, true, depth);
		if (prof)
			line(&g->out, g->indent, depth, "mtpar_t0 = mtpar_prof_now();");
		task_text(g, t, depth);
		if (prof)
			line(&g->out, g->indent, depth, "mtpar_prof_task_done(&mtpar_prof_tasks_%s[%u], mtpar_t0);",
			     g->fname, t);
		if (g->sy->flag[t] >= 0)
			line(&g->out, g->indent, depth, "mtpar_post(&mtpar_sync_%s[%d], mtpar_gen);",
			     g->fname, g->sy->flag[t]);
	}
	fv_switches(g, c, seq->len, false, depth);
}

/* The counter of the loop a one-fork region runs (plan_one_fork_why). */
static const Var *loop_counter(const ParPlan *p)
{
	return p->root->loop->loop->ivs.items[0].var;
}

/* Does the loop's header declare its counter (then every thread has its own)? */
static bool counter_in_header(const ParPlan *p)
{
	const Loop *l = p->root->loop->loop;

	for (uint32_t i = 0; i < l->init.len; i++)
		if (l->init.items[i]->kind == ST_DECL)
			return true;
	return false;
}

/* Does the loop's header set its counter first (then the threads' copies need no value)? */
static bool counter_set_in_header(const ParPlan *p)
{
	const Loop *l = p->root->loop->loop;
	const Var *iv = loop_counter(p);

	for (uint32_t i = 0; i < l->init.len; i++) {
		const Expr *e = l->init.items[i]->expr;

		if (l->init.items[i]->kind == ST_EXPR && e && e->kind == EX_ASSIGN && e->op == OP_ASSIGN &&
		    ir_is_var(ir_strip_casts(e->lhs), iv))
			return true;
	}
	return false;
}

/* The cores' switch, each core's code and the shared slices: one run of the span. */
static void region_switch(Gen *g, int depth)
{
	int np = g->sy->ncores;

	line(&g->out, g->indent, depth, "switch (mtpar_thread()) {");
	for (int c = 0; c < np; c++) {
		line(&g->out, g->indent, depth, "case %d:", c);
		core_body(g, c, depth + 1);
		line(&g->out, g->indent, depth + 1, "break;");
	}
	line(&g->out, g->indent, depth, "}");
	shared_slices(g, depth);
}

/*
 * One fork around a sequential loop: every thread runs the loop's header
 * (the counter private), each iteration its tasks with the next generation
 * of the flags, and a barrier ends the iteration, so that the next one's
 * tasks find all of this one's writes.  Core 0 hands the generation and the
 * counter's last value back.
 */
static void region_loop(Gen *g, int depth)
{
	const ParPlan *p = g->plan;
	const Source *src = p->func->src;
	const char *iv = intern_name(loop_counter(p)->name);

	line(&g->out, g->indent, depth, "unsigned mtpar_gen = mtpar_gen0;");
	str_puts(&g->out, "\n");
	str_puts(&g->out, source_copy(src, p->root->loop->start, g->span_start, g->opts->line_directives));
	str_puts(&g->out, "{\n");
	line(&g->out, g->indent, depth + 1, "mtpar_gen++; /* one generation per iteration */");
	region_switch(g, depth + 1);
	str_puts(&g->out, "#pragma omp barrier\n");
	str_puts(&g->out, g->indent);
	str_puts(&g->out, "}");
	str_puts(&g->out, source_copy(src, g->span_end, p->root->loop->end, g->opts->line_directives));
	str_puts(&g->out, "\n");
	line(&g->out, g->indent, depth, "if (mtpar_thread() == 0) {");
	line(&g->out, g->indent, depth + 1, "mtpar_gen_%s = mtpar_gen;", g->fname);
	if (!counter_in_header(p))
		line(&g->out, g->indent, depth + 1, "mtpar_last = %s;", iv);
	line(&g->out, g->indent, depth, "}");
}

/*
 * The OpenMP form's region opened: `#pragma omp parallel` (with clause) for
 * the plan's cores, the cores' locals, and the team-size test that every
 * core passes or none does.  team_close closes both.
 */
static void team_open(Gen *g, const char *clause)
{
	int np = g->sy->ncores;

	str_printf(&g->out, "#pragma omp parallel num_threads(%d)%s\n", np, clause);
	line(&g->out, g->indent, 2, "{");
	profile_local(g, 3);
	if (g->share)
		line(&g->out, g->indent, 3, "long mtpar_lo, mtpar_hi; unsigned mtpar_back; /* slices */");
	line(&g->out, g->indent, 3, "mtpar_fp_load(mtpar_fp); /* the forking thread's rounding modes */");
	line(&g->out, g->indent, 3,
	     "/* a smaller team runs nothing here: the original code below does it all */");
	line(&g->out, g->indent, 3, "if (mtpar_team_size() == %d) {", np);
}

static void team_close(Gen *g)
{
	line(&g->out, g->indent, 3, "}");
	line(&g->out, g->indent, 2, "}");
}

/* --api=openmp: one parallel region, a switch on the thread number. */
static void region_openmp(Gen *g)
{
	const char *clause = "";

	g->share = has_slices(g->plan);
	if (g->one_fork && !counter_in_header(g->plan))
		clause = fmt_str(" %s(%s)", counter_set_in_header(g->plan) ? "private" : "firstprivate",
		                 intern_name(loop_counter(g->plan)->name));
	team_open(g, clause);
	if (g->one_fork)
		region_loop(g, 4);
	else
		region_switch(g, 4);
	team_close(g);
	array_free(&g->shared);
	array_free(&g->backs);
}

/* ------------------------------------------------------------------ */
/* A dynamic schedule (middle/branches.c)                              */
/* ------------------------------------------------------------------ */

/* Each task's longest path to the end of the region, its own cost included. */
static double *dyn_priorities(const ParPlan *p)
{
	uint32_t n = p->tasks.len;
	double *prio = xcalloc(n ? n : 1, sizeof(*prio));

	for (uint32_t t = n; t-- > 0;) { /* edges go from earlier tasks to later ones */
		const SchedTask *st = &p->graph.tasks.items[t];
		double most = 0;

		for (uint32_t k = 0; k < st->succ.len; k++)
			if (prio[st->succ.items[k]] > most)
				most = prio[st->succ.items[k]];
		prio[t] = st->cost + most;
	}
	return prio;
}

static void dyn_int_table(Gen *g, const char *ctype, const char *what, const int *v, uint32_t n)
{
	str_puts(&g->out, g->indent);
	str_printf(&g->out, "\tstatic const %s mtpar_dyn_%s_%s[%u] = {", ctype, what, g->fname, n ? n : 1);
	for (uint32_t i = 0; i < n; i++)
		str_printf(&g->out, "%s%d", i ? ", " : " ", v[i]);
	str_puts(&g->out, n ? " };\n" : " 0 };\n");
}

/* The scheduler's tables and state: predecessors, successors, tests, priorities. */
static void dyn_decls(Gen *g)
{
	const ParPlan *p = g->plan;
	uint32_t n = p->tasks.len, nsucc = 0;
	int *v = xcalloc(n + 1, sizeof(*v)), *succ;
	double *prio = dyn_priorities(p);

	for (uint32_t t = 0; t < n; t++)
		nsucc += p->graph.tasks.items[t].succ.len;
	succ = xcalloc(nsucc + 1, sizeof(*succ));
	for (uint32_t t = 0; t < n; t++)
		v[t] = (int)p->graph.tasks.items[t].pred.len;
	dyn_int_table(g, "int", "npred", v, n);
	for (uint32_t t = 0, k = 0; t < n; t++) {
		const SchedTask *st = &p->graph.tasks.items[t];

		v[t] = (int)k;
		for (uint32_t i = 0; i < st->succ.len; i++)
			succ[k++] = (int)st->succ.items[i];
	}
	v[n] = (int)nsucc;
	dyn_int_table(g, "int", "succ_at", v, n + 1);
	dyn_int_table(g, "int", "succ", succ, nsucc);
	for (uint32_t t = 0; t < n; t++)
		v[t] = p->tasks.items[t].ctl;
	dyn_int_table(g, "int", "ctl", v, n);
	for (uint32_t t = 0; t < n; t++)
		v[t] = p->tasks.items[t].ctl_dir;
	dyn_int_table(g, "unsigned char", "ctl_dir", v, n);
	str_puts(&g->out, g->indent);
	str_printf(&g->out, "\tstatic const double mtpar_dyn_prio_%s[%u] = {", g->fname, n);
	for (uint32_t t = 0; t < n; t++)
		str_printf(&g->out, "%s%.0f", t ? ", " : " ", prio[t]);
	str_puts(&g->out, " };\n");
	line(&g->out, g->indent, 1, "static int mtpar_dyn_left_%s[%u], mtpar_dyn_ready_%s[%u];", g->fname, n,
	     g->fname, n);
	line(&g->out, g->indent, 1, "static unsigned char mtpar_dyn_ran_%s[%u], mtpar_dyn_dir_%s[%u];",
	     g->fname, n, g->fname, n);
	line(&g->out, g->indent, 1, "static mtpar_dyn_t mtpar_dyn_%s = { .ntasks = %u,", g->fname, n);
	line(&g->out, g->indent, 2, ".npred = mtpar_dyn_npred_%s, .succ_at = mtpar_dyn_succ_at_%s,", g->fname,
	     g->fname);
	line(&g->out, g->indent, 2, ".succ = mtpar_dyn_succ_%s, .ctl = mtpar_dyn_ctl_%s,", g->fname, g->fname);
	line(&g->out, g->indent, 2, ".ctl_dir = mtpar_dyn_ctl_dir_%s, .prio = mtpar_dyn_prio_%s,", g->fname,
	     g->fname);
	line(&g->out, g->indent, 2, ".left = mtpar_dyn_left_%s, .ready = mtpar_dyn_ready_%s,", g->fname,
	     g->fname);
	line(&g->out, g->indent, 2, ".ran = mtpar_dyn_ran_%s, .dir = mtpar_dyn_dir_%s };", g->fname, g->fname);
	free(v);
	free(succ);
	free(prio);
}

/* A branch test's task: it records the direction, its arms' tasks read it. */
static void dyn_test_text(Gen *g, uint32_t t, int depth)
{
	const MT *mt = g->plan->tasks.items[t].mt;

	line(&g->out, g->indent, depth, "mtpar_dyn_dir_%s[%u] = (%s) != 0;", g->fname, t,
	     src_text(mt->func->src, mt->stmts.items[0]->expr));
}

/*
 * --api=openmp, a dynamic schedule: every core takes ready tasks from the
 * queue until none is left, runs each unless its branch went the other
 * way, and releases its successors.
 */
static void region_dynamic(Gen *g)
{
	const ParPlan *p = g->plan;

	g->share = false; /* a slice may run on any core: each is a copy of its own */
	team_open(g, "");
	line(&g->out, g->indent, 4, "int mtpar_t;");
	str_puts(&g->out, "\n");
	line(&g->out, g->indent, 4, "if (mtpar_thread() == 0)");
	line(&g->out, g->indent, 5, "mtpar_ran = 1; /* read after the region's closing barrier */");
	line(&g->out, g->indent, 4, "while ((mtpar_t = mtpar_dyn_next(&mtpar_dyn_%s)) >= 0) {", g->fname);
	line(&g->out, g->indent, 5, "if (mtpar_dyn_runs(&mtpar_dyn_%s, mtpar_t))", g->fname);
	line(&g->out, g->indent, 6, "switch (mtpar_t) {");
	for (uint32_t t = 0; t < p->tasks.len; t++) {
		line(&g->out, g->indent, 6, "case %u:", t);
		task_comment(g, t, 7);
		if (p->tasks.items[t].test)
			dyn_test_text(g, t, 7);
		else
			task_text(g, t, 7);
		line(&g->out, g->indent, 7, "break;");
	}
	line(&g->out, g->indent, 6, "}");
	line(&g->out, g->indent, 5, "mtpar_dyn_done(&mtpar_dyn_%s, mtpar_t);", g->fname);
	line(&g->out, g->indent, 4, "}");
	team_close(g);
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
		profile_local(g, 4);
		line(&g->out, g->indent, 4, "mtpar_fp_load(mtpar_fp); /* the forking thread's rounding modes */");
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
			     "void *mtpar_buf%u = (void *)0; /* workspace: %lld bytes, as %s of %s at line %u */",
			     s, (long long)ws->sc->size, intern_name(ws->sc->var->name),
			     func_name(ws->sb->callee), scan_line(ws->sb->func->src, ws->sb->start));
	}
	if (rtcheck_has_probe(g->plan))
		line(&g->out, g->indent, 1, "void *mtpar_probe; /* a stack workspace, taken and given back */");
}

static void slot_gives(Gen *g)
{
	for (uint32_t s = g->plan->slots.len; s-- > 0;) {
		const WsSlot *ws = &g->plan->slots.items[s];
		const char *var = fmt_str("mtpar_buf%u", s);

		if (!ws->used)
			continue;
		line(&g->out, g->indent, 1, "if (%s != (void *)0)", var);
		line(&g->out, g->indent, 2, "(void)%s;", rtcheck_free_text(ws->sb->callee->src, ws->sc, var));
	}
}

static bool any_slot(const ParPlan *p)
{
	for (uint32_t s = 0; s < p->slots.len; s++)
		if (p->slots.items[s].used)
			return true;
	return false;
}

/* Smaller static objects are not worth a madvise call. */
#define PREFAULT_MIN 65536

/* Does a parameter or local of f have v's name (the global is hidden there)? */
static bool shadowed(const Func *f, const Var *v)
{
	for (uint32_t i = 0; i < f->params.len; i++)
		if (f->params.items[i]->name == v->name)
			return true;
	for (uint32_t i = 0; i < f->locals.len; i++)
		if (f->locals.items[i]->name == v->name)
			return true;
	return false;
}

/* A large file-scope object of f's source, defined before f, that a task writes. */
static bool prefault_candidate(const Func *f, const Var *v)
{
	return v && v->scope == VAR_GLOBAL && obj_kind(v) == OBJ_VAR && v->src == f->src &&
	       v->end <= f->start && v->storage != SC_EXTERN && v->type &&
	       !type_is_const(v->type) && !type_is_volatile(v->type) &&
	       type_size(v->type) >= PREFAULT_MIN && !shadowed(f, v);
}

/* Does a task write a large static object that static_prefaults maps? */
static bool writes_statics(const ParPlan *p)
{
	for (uint32_t t = 0; t < p->tasks.len; t++) {
		const Summary *sum = p->tasks.items[t].summary;

		for (uint32_t i = 0; sum && i < sum->acc.len; i++)
			if (sum->acc.items[i].kind == ACC_WRITE &&
			    prefault_candidate(p->func, sum->acc.items[i].region.base))
				return true;
	}
	return false;
}

/*
 * The large static arrays that the tasks write: their pages mapped once,
 * before the region first forks, on this thread.  The sequential program
 * takes those faults too; two cores taking them at once take longer.
 */
static void static_prefaults(Gen *g)
{
	const ParPlan *p = g->plan;
	Array(const Var *) seen = { 0 };

	for (uint32_t t = 0; t < p->tasks.len; t++) {
		const Summary *sum = p->tasks.items[t].summary;

		for (uint32_t i = 0; sum && i < sum->acc.len; i++) {
			const Var *v = sum->acc.items[i].region.base;
			bool dup = false;

			if (sum->acc.items[i].kind != ACC_WRITE || !prefault_candidate(p->func, v))
				continue;
			for (uint32_t k = 0; k < seen.len; k++)
				dup |= seen.items[k] == v;
			if (!dup)
				array_push(&seen, v);
		}
	}
	if (seen.len) {
		line(&g->out, g->indent, 2, "if (!mtpar_faulted_%s) { /* once: static storage stays mapped */",
		     g->fname);
		line(&g->out, g->indent, 3, "mtpar_faulted_%s = 1;", g->fname);
		for (uint32_t k = 0; k < seen.len; k++)
			line(&g->out, g->indent, 3, "mtpar_prefault(&%s, sizeof(%s));",
			     intern_name(seen.items[k]->name), intern_name(seen.items[k]->name));
		line(&g->out, g->indent, 2, "}");
	}
	array_free(&seen);
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
	static_prefaults(g);
}

static const char *const block_comment[] = {
	"/*",
	" * Threads fork once; each core runs its tasks in order and waits only",
	" * for tasks on other cores, through end flags set to a generation count",
	" * that grows by one per entry, so flags never need resetting.  Safe to",
	" * call again and again, not concurrently (the flags are static).",
	" */",
};

static const char *const dynamic_comment[] = {
	"/*",
	" * Threads fork once; a branch inside decides which tasks run, so the",
	" * cores take ready tasks from one queue (longest path first), skip those",
	" * of the arm not taken, and release their successors.  Safe to call",
	" * again and again, not concurrently (the queue's tables are static).",
	" */",
};

/* The block that replaces children[first..last]: fork once, fall back to the original. */
static const char *span_block(Gen *g, uint32_t start, uint32_t end)
{
	const ParPlan *p = g->plan;
	const Schedule *s = p->sched;
	const Source *src = p->func->src;
	int np = g->sy->ncores;
	char *cond;

	str_printf(&g->out,
	           "{ /* mtpar: %u tasks on %d cores, %s schedule, predicted speedup %.2f */\n",
	           p->tasks.len, np,
	           p->dynamic ? "dynamic" : s->heuristic ? s->heuristic : sched_kind_name(s->kind),
	           s->makespan > 0 ? s->seq_time / s->makespan : 1.0);
	for (size_t i = 0; i < sizeof(block_comment) / sizeof(*block_comment); i++)
		line(&g->out, g->indent, 1, "%s", (p->dynamic ? dynamic_comment : block_comment)[i]);
	if (p->dynamic)
		dyn_decls(g);
	else if (g->sy->nflags > 0)
		line(&g->out, g->indent, 1, "static mtpar_sync_t mtpar_sync_%s[%d];", g->fname,
		     g->sy->nflags);
	if (!p->dynamic)
		line(&g->out, g->indent, 1, "static unsigned mtpar_gen_%s;", g->fname);
	line(&g->out, g->indent, 1, "static mtpar_atomic_uint mtpar_busy_%s; /* a run is in the region */",
	     g->fname);
	if (g->opts->profile)
		profile_decls(g);
	if (writes_statics(p))
		line(&g->out, g->indent, 1, "static int mtpar_faulted_%s;", g->fname);
	line(&g->out, g->indent, 1, "int mtpar_ran = 0;");
	if (g->one_fork && !counter_in_header(p))
		line(&g->out, g->indent, 1, "%s mtpar_last = 0; /* the counter's value after the loop */",
		     int_type_name(loop_counter(p)->type));
	fv_table_decl(g);
	slot_decls(g);
	str_puts(&g->out, "\n");
	if (any_slot(p))
		line(&g->out, g->indent, 1,
		     "/* the callees' workspaces are taken here, on this thread, and given back below */");
	str_puts(&g->out, g->indent);
	str_printf(&g->out, "\tif (mtpar_can_fork(%d)", np);
	cond = rtcheck_condition(p, g->indent);
	str_puts(&g->out, cond);
	free(cond);
	str_printf(&g->out, " &&\n%s\t\tmtpar_enter(&mtpar_busy_%s)) {\n", g->indent, g->fname);
	if (p->dynamic)
		line(&g->out, g->indent, 2, "mtpar_dyn_start(&mtpar_dyn_%s);", g->fname);
	else if (g->one_fork)
		line(&g->out, g->indent, 2, "unsigned mtpar_gen0 = mtpar_gen_%s; /* one fork for the loop */",
		     g->fname);
	else
		line(&g->out, g->indent, 2, "unsigned mtpar_gen = ++mtpar_gen_%s;", g->fname);
	line(&g->out, g->indent, 2, "mtpar_fp_t mtpar_fp = mtpar_fp_save(); /* set in every thread */");
	if (g->sy->nflags == 0 && !p->dynamic)
		line(&g->out, g->indent, 2, "(void)mtpar_gen%s; /* no task waits */", g->one_fork ? "0" : "");
	if (g->opts->profile)
		line(&g->out, g->indent, 2, "double mtpar_prof_t0 = mtpar_prof_enter(&mtpar_prof_%s);",
		     g->fname);
	if (p->power)
		line(&g->out, g->indent, 2, "mtpar_fv_setup(%u, mtpar_fv_freq, mtpar_fv_name);",
		     p->power->table->states.len);
	prefaults(g, start, end);
	str_puts(&g->out, "\n");
	if (g->opts->oscar_api)
		region_oscar(g);
	else if (p->dynamic)
		region_dynamic(g);
	else
		region_openmp(g);
	if (p->dynamic)
		line(&g->out, g->indent, 2, "mtpar_dyn_end(&mtpar_dyn_%s);", g->fname);
	fv_frame_end(g, 2);
	if (g->opts->profile)
		line(&g->out, g->indent, 2, "mtpar_prof_leave(&mtpar_prof_%s, mtpar_prof_t0);", g->fname);
	if (g->one_fork && !counter_in_header(p))
		line(&g->out, g->indent, 2, "if (mtpar_ran)\n%s\t\t\t%s = mtpar_last;", g->indent,
		     intern_name(loop_counter(p)->name));
	line(&g->out, g->indent, 2, "mtpar_leave(&mtpar_busy_%s);", g->fname);
	line(&g->out, g->indent, 1, "}");
	slot_gives(g);
	line(&g->out, g->indent, 1, "if (!mtpar_ran) {");
	str_puts(&g->out, g->indent);
	str_puts(&g->out, "\t\t");
	str_puts(&g->out, source_copy(src, start, end, g->opts->line_directives));
	str_puts(&g->out, "\n");
	line(&g->out, g->indent, 1, "}");
	str_puts(&g->out, g->indent);
	str_puts(&g->out, "}");
	return str_done(&g->out);
}

static void emit_plan(const Program *prog, const ParPlan *p, const Sync *sy,
                      const CodegenOptions *opts, EditList *edits,
                      CloneList *done, int nth)
{
	const Func *f = p->func;
	const MT *root = p->root;
	uint32_t start = scan_pragmas_before(f->src, root->children.items[p->first]->start);
	uint32_t end = root->children.items[p->last]->end;
	EditList *el = &edits[source_index(prog, f->src)];
	Gen g = { p, sy, opts, NULL, func_name(f), { 0 }, false, { 0 }, { 0 }, false, start, end,
		  nth ? plan_fmt("_%d", nth + 1) : "" };
	Str protos = { 0 };

	g.one_fork = p->one_fork && !opts->oscar_api;
	if (g.one_fork) {
		start = scan_pragmas_before(f->src, root->loop->start);
		end = root->loop->end;
	}
	g.indent = scan_indent(f->src, start);

	emit_clones(prog, p, opts, edits, done, &protos);
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

/*
 * A loop split at run time (middle/rtloops.c): an OpenMP worksharing loop
 * in a region whose threads take the forking thread's rounding modes, run
 * where the conditions of its split hold; else the loop as written, its
 * own pragmas above it.  (An if clause would run the worksharing copy on
 * one thread: the outlined loop, without the user's pragmas.)  A smaller
 * team runs the same iterations.
 */
static void emit_rt_loop(const Program *prog, const ParPlan *p, const CodegenOptions *opts,
                         EditList *edits)
{
	const RtLoop *rt = p->rt;
	const Source *src = p->func->src;
	EditList *el = &edits[source_index(prog, src)], copy = { .line_directives = opts->line_directives };
	Str b = { 0 };
	char *text;

	str_puts(&b, "{ /* mtpar: this loop is split at run time");
	str_puts(&b, rt->cond ? " where the condition holds, else it runs as written */\n" : " */\n");
	if (rt->cond)
		str_printf(&b, "if (%s) {\n", rt->cond);
	str_printf(&b, "mtpar_fp_t mtpar_fp = mtpar_fp_save(); /* set in every thread */\n"
	               "#pragma omp parallel num_threads(%d)\n{\nmtpar_fp_load(mtpar_fp);\n"
	               "#pragma omp for schedule(static)", rt->ncores);
	for (uint32_t i = 0; i < rt->privates.len; i++)
		str_printf(&b, "%s%s", i ? ", " : " private(", intern_name(rt->privates.items[i]->name));
	str_puts(&b, rt->privates.len ? ")\n" : "\n");
	if (!rt->cond) {
		/* above the loop's own pragmas, which cannot follow omp for */
		edit_insert(el, edit_pragmas_before(src, rt->loop->start), str_done(&b));
		edit_drop_loop_pragmas(el, src, rt->loop->start);
		edit_insert(el, rt->loop->end, "\n}}");
		mark_simd(el, src, &rt->simd);
		return;
	}
	mark_simd(&copy, src, &rt->simd);
	text = edit_apply_range(src, &copy, rt->loop->start, rt->loop->end);
	array_free(&copy.edits);
	str_printf(&b, "%s\n}\n} else {\n", text);
	free(text);
	edit_insert(el, edit_pragmas_before(src, rt->loop->start), str_done(&b));
	edit_insert(el, rt->loop->end, "\n}}");
}

/* The runtime as emitted at byte 0, once per file; with its timers for --profile. */
static const char *runtime_text(bool profile)
{
	Str b = { 0 };

	str_puts(&b, "/* mtpar: the runtime of the parallel code below (api/mtpar_rt.h) */\n");
	if (profile)
		str_puts(&b, "#define MTPAR_PROFILE 1 /* mtpar --profile */\n");
	str_puts(&b, mtpar_rt_text);
	str_puts(&b, "/* mtpar: end of the runtime; the original file follows */\n");
	return str_done(&b);
}

void codegen_check_plans(const PlanList *plans)
{
	char why[256];

	for (uint32_t i = 0; i < plans->len; i++) {
		ParPlan *p = plans->items[i];

		if (p->tasks.len && !p->why_not && !check_plan(p, why, sizeof(why)))
			p->why_not = plan_fmt("the output's check refused the plan: %s", why);
	}
}

/* How many plans before plans[i] put a region into the same function: labels are the function's. */
static int earlier_regions(const PlanList *plans, const bool *emit, uint32_t i)
{
	int n = 0;

	for (uint32_t k = 0; k < i; k++)
		n += emit[k] && plans->items[k]->func == plans->items[i]->func;
	return n;
}

bool codegen_program(const Program *prog, const PlanList *plans, const CodegenOptions *opts,
                     EditList *edits_per_source)
{
	uint32_t nsrc = prog->sources.len;
	bool *runtime = xcalloc(nsrc ? nsrc : 1, sizeof(*runtime));
	Sync *sync = xcalloc(plans->len ? plans->len : 1, sizeof(*sync));
	bool *emit = xcalloc(plans->len ? plans->len : 1, sizeof(*emit));
	CloneList done = { 0 };

	codegen_check_plans(plans); /* again for a caller that did not: refused plans stay as written */
	for (uint32_t i = 0; i < plans->len; i++) {
		const ParPlan *p = plans->items[i];

		if (p->rt && !p->why_not)
			runtime[source_index(prog, p->func->src)] = true; /* mtpar_apart, MTPAR_IVDEP */
		if (!p->tasks.len || p->why_not)
			continue;
		sync_build(p, &sync[i]);
		emit[i] = sync[i].ncores >= 2;
		if (emit[i])
			runtime[source_index(prog, p->func->src)] = true;
	}
	for (uint32_t s = 0; s < nsrc; s++)
		if (runtime[s])
			edit_insert(&edits_per_source[s], source_bom_len(prog->sources.items[s]),
			            runtime_text(opts->profile));
	for (uint32_t i = 0; i < plans->len; i++) {
		if (emit[i])
			emit_plan(prog, plans->items[i], &sync[i], opts, edits_per_source, &done,
			          earlier_regions(plans, emit, i));
		else if (plans->items[i]->rt && !plans->items[i]->why_not)
			emit_rt_loop(prog, plans->items[i], opts, edits_per_source);
	}
	for (uint32_t i = 0; i < plans->len; i++)
		if (sync[i].core)
			sync_free(&sync[i], plans->items[i]->tasks.len, plans->items[i]->sched->ncores);
	array_free(&done);
	free(runtime);
	free(sync);
	free(emit);
	return true;
}
