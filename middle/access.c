/*
 * access.c - access summaries: the bytes each macro task may read and
 * write, per base object.  Subscripts are evaluated by interval arithmetic
 * over the ranges of the enclosing loops' induction variables (a plain
 * non-relational interval domain, as in Cousot and Cousot 1977); pointer
 * locals defined once are followed to their target; a call maps its
 * callee's summary onto the actual arguments, callees first.  An escape
 * pass decides which objects a pointer of unknown origin may reach and
 * what each pointer parameter may receive.  Everything unproven widens:
 * an unknown subscript touches the whole object, an unknown pointer any
 * escaping object, an unknown call everything (a barrier).
 *
 * Per program (this file, the driver): scan names (names.c: library
 * functions, the sources' #defines and enumerators), count every
 * variable's definitions (ranges.c), then each function callees first:
 * (1) values: induction ranges of its loops and the value of each
 * variable defined once, at its definition (ranges.c over values.c and
 * interval.c); (2) escapes: where the addresses it handles go (objects.c);
 * (3) its summary and its MTs' summaries (summary.c).  Last, what each
 * pointer parameter may receive is closed over the calls (objects.c).
 *
 * Assumptions: the program has no undefined behaviour (an access stays in
 * its object, a const object is never written, signed arithmetic does not
 * overflow).  Within an object nothing else is assumed: subscripts may
 * leave their dimension, and buffers may overlap anywhere.
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"

/* ------------------------------------------------------------------ */
/* The analysis state: one program at a time                            */
/* ------------------------------------------------------------------ */

AccState acc;

VarInfo *acc_lookup(const Var *v)
{
	if (!v || v->id < 0 || (uint32_t)v->id >= acc.vars.len)
		return NULL;
	VarInfo *vi = acc.vars.items[v->id];
	return vi && vi->var == v ? vi : NULL;
}

VarInfo *acc_info(Var *v)
{
	VarInfo *vi = acc_lookup(v);

	if (vi)
		return vi;
	while (acc.vars.len <= (uint32_t)v->id)
		array_push(&acc.vars, NULL);
	vi = xcalloc(1, sizeof(*vi));
	vi->var = v;
	vi->param_index = -1;
	vi->size = -1;
	acc.vars.items[v->id] = vi;
	return vi;
}

FuncInfo *acc_func(const Func *f)
{
	if (f->id < 0 || (uint32_t)f->id >= acc.funcs.len || acc.funcs.items[f->id].func != f)
		return NULL;
	return &acc.funcs.items[f->id];
}

void acc_release(void)
{
	for (uint32_t i = 0; i < acc.vars.len; i++) {
		VarInfo *vi = acc.vars.items[i];

		if (!vi)
			continue;
		array_free(&vi->def_at);
		array_free(&vi->rhs);
		array_free(&vi->receives);
		free(vi);
	}
	array_free(&acc.vars);
	for (uint32_t i = 0; i < acc.funcs.len; i++)
		array_free(&acc.funcs.items[i].scratch);
	array_free(&acc.funcs);
	for (uint32_t i = 0; i < acc.loop_cap; i++) {
		if (acc.loops[i]) {
			free(acc.loops[i]->binds);
			free(acc.loops[i]);
		}
	}
	free(acc.loops);
	array_free(&acc.edges);
	array_free(&acc.scratch_objs);
	memset(&acc, 0, sizeof(acc));
}

/* ------------------------------------------------------------------ */
/* Driver                                                              */
/* ------------------------------------------------------------------ */

static void collect_callee(Expr *e, void *ctx)
{
	if (e->kind == EX_CALL && e->callee_func)
		array_push((Array(Func *) *)ctx, e->callee_func);
}

static void analyse_func(Func *f)
{
	FuncInfo *fi = acc_func(f);
	Array(Func *) callees = { 0 };
	Env env = { 0 };

	fi->state = FS_BUSY;
	ir_visit_stmt(f->body, collect_callee, NULL, &callees);
	for (uint32_t i = 0; i < callees.len; i++) {
		FuncInfo *ci = acc_func(callees.items[i]);

		if (ci && ci->state == FS_NONE)
			analyse_func(callees.items[i]);
	}
	array_free(&callees);
	acc.cur = f;
	range_values(f->body, &env);
	obj_escape_func(f);
	fi->sum = sum_func(f);
	if (f->mt) {
		f->mt->summary = fi->sum;
		env.len = 0;
		sum_level(f, f->mt, &env);
	}
	array_free(&env);
	fi->state = FS_DONE;
	acc.cur = NULL;
}

/* Does f have a label or a case anywhere (then has_entry must look)? */
static bool has_labels(Func *f)
{
	return f->body && ir_has_label(f->body, true);
}

void acc_compute_summaries(Program *prog)
{
	static const int goto_kinds = (1 << UM_GOTO) | (1 << UM_COMPUTED_GOTO) | (1 << UM_SETJMP);

	acc_release();
	acc.prog = prog;
	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		Func *f = prog->funcs.items[i];
		FuncInfo fi = { 0 };

		while (acc.funcs.len < (uint32_t)f->id)
			array_push(&acc.funcs, fi);
		fi.func = f;
		fi.external = f->storage != SC_STATIC || strcmp(intern_name(f->name), "main") == 0;
		for (uint32_t j = 0; j < f->unmodelled.len; j++)
			fi.has_goto |= (goto_kinds >> f->unmodelled.items[j].kind) & 1;
		fi.has_labels = has_labels(f);
		if (acc.funcs.len == (uint32_t)f->id)
			array_push(&acc.funcs, fi);
		else if ((uint32_t)f->id < acc.funcs.len)
			acc.funcs.items[f->id] = fi;
	}
	names_init();
	acc.allocator = obj_new("<allocator>", OBJ_STATE, VAR_GLOBAL, NULL, NULL, -1);
	acc.io = obj_new("<io>", OBJ_STATE, VAR_GLOBAL, NULL, NULL, -1);
	names_scan_hidden_initializers();
	for (uint32_t i = 0; i < prog->globals.len; i++) {
		Var *g = prog->globals.items[i];

		if (g->init)
			obj_escape_init(g->init);
	}
	for (uint32_t i = 0; i < prog->funcs.len; i++)
		range_scan_defs(prog->funcs.items[i]);
	for (uint32_t i = 0; i < prog->funcs.len; i++)
		if (acc_func(prog->funcs.items[i])->state == FS_NONE)
			analyse_func(prog->funcs.items[i]);
	obj_finish_receives();
}

const Summary *acc_func_summary(const Func *f)
{
	FuncInfo *fi = acc_func(f);

	return fi ? fi->sum : NULL;
}
