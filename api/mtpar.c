/*
 * mtpar.c - the pipeline in one function (mtpar_run): read, preprocess,
 * parse, lower, cut into macro tasks, then dump a stage or rewrite each
 * input through the backend's edit list.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tree_sitter/api.h>

#include "backend.h"
#include "middle.h"
#include "mtpar.h"

void mtpar_options_init(mtpar_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->ncores = 2;
}

mtpar_dump mtpar_dump_from_name(const char *name)
{
	static const struct {
		const char *name;
		mtpar_dump dump;
	} stages[] = {
		{ "pp", MTPAR_DUMP_PP },
		{ "funcs", MTPAR_DUMP_FUNCS },
		{ "ir", MTPAR_DUMP_IR },
		{ "mt", MTPAR_DUMP_MT },
		{ "mfg", MTPAR_DUMP_MFG },
		{ "mtg", MTPAR_DUMP_MTG },
		{ "sched", MTPAR_DUMP_SCHED },
	};

	for (size_t i = 0; i < sizeof(stages) / sizeof(stages[0]); i++)
		if (strcmp(name, stages[i].name) == 0)
			return stages[i].dump;
	return MTPAR_DUMP_NONE;
}

/* -D NAME[=VALUE] and -U NAME, in command-line order, for pp_scan. */
static void fill_pp_config(PPConfig *cfg, const mtpar_options *opts)
{
	memset(cfg, 0, sizeof(*cfg));
	for (int i = 0; i < opts->ndefines; i++) {
		const char *d = opts->defines[i];
		const char *eq = strchr(d, '=');
		PPDefine def;

		if (d[0] == '!') {
			def.name = d + 1;
			def.value = NULL;
		} else if (eq) {
			def.name = arena_strndup(d, (size_t)(eq - d));
			def.value = eq + 1;
		} else {
			def.name = d;
			def.value = "1";
		}
		array_push(&cfg->defines, def);
	}
	for (int i = 0; i < opts->ninclude_dirs; i++)
		array_push(&cfg->include_dirs, opts->include_dirs[i]);
}

/* NAME.c -> NAME.par.c beside the input, as Pluto writes NAME.pluto.c. */
static char *default_output(const char *input)
{
	size_t n = strlen(input);
	char *out = xmalloc(n + 8);

	if (n > 2 && strcmp(input + n - 2, ".c") == 0)
		n -= 2;
	memcpy(out, input, n);
	strcpy(out + n, ".par.c");
	return out;
}

static void dump_funcs(FILE *out, const Program *prog)
{
	for (uint32_t i = 0; i < prog->funcs.len; i++) {
		const Func *f = prog->funcs.items[i];
		uint32_t line, col;

		source_pos(f->src, f->start, &line, &col);
		fprintf(out, "%s:%u: %s%s%s\n", f->src->path, line,
		        f->storage == SC_STATIC ? "static " : "",
		        f->is_inline ? "inline " : "", intern_name(f->name));
	}
}

static bool dump_stage(const Program *prog, const PlanList *plans, mtpar_dump dump)
{
	switch (dump) {
	case MTPAR_DUMP_PP:
		for (uint32_t i = 0; i < prog->sources.len; i++)
			pp_dump(stdout, prog->sources.items[i]);
		break;
	case MTPAR_DUMP_FUNCS:
		dump_funcs(stdout, prog);
		break;
	case MTPAR_DUMP_IR:
		lower_dump(stdout, prog);
		break;
	case MTPAR_DUMP_MT:
		mt_dump(stdout, prog);
		break;
	case MTPAR_DUMP_MFG:
		mtg_dump_mfg(stdout, prog);
		break;
	case MTPAR_DUMP_MTG:
		mtg_dump(stdout, prog);
		break;
	case MTPAR_DUMP_SCHED:
		plan_dump(stdout, plans);
		break;
	case MTPAR_DUMP_NONE:
		return false;
	}
	return fflush(stdout) == 0;
}

/* Front end for one file: read, preprocess, parse, lower. */
static bool compile_file(Program *prog, const char *path, const PPConfig *cfg,
                         TSTree **tree)
{
	Source *src = source_read(path);

	if (!src)
		return false;
	array_push(&prog->sources, src);
	if (!pp_scan(src, cfg))
		return false;
	*tree = parse_source(src);
	if (!*tree)
		return false;
	return lower_source(prog, src, *tree);
}

/* Is -o one of the inputs (the same file, through any name or link)? */
static bool output_is_input(const char *output, int nfiles, const char *const *files)
{
	struct stat o, in;

	if (!output || stat(output, &o) != 0 || !S_ISREG(o.st_mode))
		return false;
	for (int i = 0; i < nfiles; i++) {
		if (stat(files[i], &in) == 0 && in.st_dev == o.st_dev && in.st_ino == o.st_ino) {
			error_plain("output file '%s' is also an input", output);
			return true;
		}
	}
	return false;
}

/* Each input rewritten through its edit list: the plans' parallel code. */
static bool write_outputs(const Program *prog, const PlanList *plans,
                          const mtpar_options *opts)
{
	uint32_t n = prog->sources.len;
	EditList *edits = xcalloc(n, sizeof(*edits));
	CodegenOptions cg = { opts->ncores, opts->oscar_api != 0, opts->profile != 0 };
	bool ok = codegen_program(prog, plans, &cg, edits);

	for (uint32_t i = 0; ok && i < n; i++) {
		const Source *src = prog->sources.items[i];
		char *path = opts->output ? NULL : default_output(src->path);

		ok = edit_write_file(src, &edits[i], path ? path : opts->output);
		free(path);
	}
	for (uint32_t i = 0; i < n; i++)
		array_free(&edits[i].edits);
	free(edits);
	return ok;
}

/* The --fv-table file, or the default table. */
static FvTable *load_fv_table(const mtpar_options *opts)
{
	return opts->fv_table ? power_fv_load(opts->fv_table) : power_fv_default();
}

/* --deadline in cost units for a schedule, or an error with the bound. */
static bool plan_deadline(const ParPlan *p, const FvTable *t, const mtpar_options *opts,
                          double *deadline)
{
	double span = p->sched->makespan, sec = t->unit_seconds;

	*deadline = opts->deadline_relative ? opts->deadline * span : opts->deadline / sec;
	if (*deadline >= span * (1 - 1e-9))
		return true;
	error_at(p->func->src, p->func->start,
	         "deadline %.4g s (%.3gx) is shorter than the critical path of the schedule of "
	         "'%s' at full speed, %.4g s (1x)",
	         *deadline * sec, *deadline / span, intern_name(p->func->name), span * sec);
	return false;
}

/* --power, --deadline: the power schedule of every plan that has a schedule. */
static bool assign_power(PlanList *plans, const FvTable *t, const mtpar_options *opts)
{
	PowerMode mode = opts->power == MTPAR_POWER_DEADLINE ? POWER_DEADLINE : POWER_FASTEST;
	bool ok = true;

	if (opts->power == MTPAR_POWER_NONE)
		return true;
	for (uint32_t i = 0; i < plans->len; i++) {
		ParPlan *p = plans->items[i];
		double deadline = 0;

		if (!p->sched || p->tasks.len == 0)
			continue;
		if (mode == POWER_DEADLINE && !plan_deadline(p, t, opts, &deadline)) {
			ok = false;
			continue;
		}
		p->power = power_assign(&p->graph, p->sched, t, mode, deadline);
	}
	return ok;
}

/* --report, --dot, --dot-mfg and --gantt: views of the middle stage beside the output. */
static bool write_graphs(const Program *prog, const PlanList *plans,
                         const mtpar_options *opts, const FvTable *fv)
{
	const char *f = opts->dot_func;

	if (opts->report) {
		report_emit(prog);
		report_plans(plans);
	}
	if (opts->dot_mtg && !(f ? dot_write_func(prog, f, true, opts->dot_mtg)
	                         : dot_write_mtg(prog, opts->dot_mtg)))
		return false;
	if (opts->dot_mfg && !(f ? dot_write_func(prog, f, false, opts->dot_mfg)
	                         : dot_write_mfg(prog, opts->dot_mfg)))
		return false;
	if (opts->gantt && !gantt_write(plans, fv, opts->gantt))
		return false;
	return true;
}

static int run_pipeline(const mtpar_options *opts, int nfiles, const char *const *files)
{
	Program *prog = ARENA_NEW(Program);
	TSTree **trees = xcalloc((size_t)nfiles, sizeof(*trees));
	PPConfig cfg;
	PlanList plans = { 0 };
	bool ok = parse_check_abi();
	FvTable *fv = NULL;

	PlanOptions popts = { opts->ncores, opts->unlimited_cost != 0, NULL };

	if (ok && opts->costs)
		ok = (popts.measured = measured_load(opts->costs)) != NULL;
	if (ok && (opts->power != MTPAR_POWER_NONE || opts->gantt))
		ok = (fv = load_fv_table(opts)) != NULL; /* before the input: a bad table fails fast */
	fill_pp_config(&cfg, opts);
	if (ok && opts->dump == MTPAR_DUMP_NONE)
		ok = !output_is_input(opts->output, nfiles, files);
	for (int i = 0; ok && i < nfiles; i++)
		ok = compile_file(prog, files[i], &cfg, &trees[i]);
	if (ok) {
		lower_resolve_calls(prog);
		bind_params(prog);
		names_unbind_contracts(prog);
		mt_build(prog);
		acc_compute_summaries(prog);
		mfg_build(prog);
		eec_compute(prog);
		mtg_build(prog);
		plans = plan_program(prog, &popts);
		output_begin(); /* every file of the run, or none */
		ok = assign_power(&plans, fv, opts) && write_graphs(prog, &plans, opts, fv);
		if (ok)
			ok = opts->dump != MTPAR_DUMP_NONE ? dump_stage(prog, &plans, opts->dump)
			                                   : write_outputs(prog, &plans, opts);
		if (ok && error_count() == 0)
			ok = output_commit();
		else
			output_abort();
	}
	for (int i = 0; i < nfiles; i++)
		if (trees[i])
			ts_tree_delete(trees[i]);
	free(trees);
	array_free(&plans);
	array_free(&cfg.defines);
	array_free(&cfg.include_dirs);
	return ok && error_count() == 0 ? 0 : 1;
}

/*
 * The stack the pipeline runs on: the lowering and the analyses recurse
 * once or a few times per level of nesting, up to MTPAR_MAX_NESTING levels.
 * Only the pages a deep input touches are ever mapped.
 */
#define MTPAR_STACK_BYTES ((size_t)1 << 30)

typedef struct PipelineCall {
	const mtpar_options *opts;
	int nfiles;
	const char *const *files;
	int status;
} PipelineCall;

static void *pipeline_thread(void *arg)
{
	PipelineCall *call = arg;

	call->status = run_pipeline(call->opts, call->nfiles, call->files);
	return NULL;
}

int mtpar_run(const mtpar_options *opts, int nfiles, const char *const *files)
{
	PipelineCall call = { opts, nfiles, files, 1 };
	pthread_attr_t attr;
	pthread_t thread;
	bool started;

	if (pthread_attr_init(&attr) != 0)
		return run_pipeline(opts, nfiles, files);
	started = pthread_attr_setstacksize(&attr, MTPAR_STACK_BYTES) == 0 &&
	          pthread_create(&thread, &attr, pipeline_thread, &call) == 0;
	pthread_attr_destroy(&attr);
	if (!started) /* no address space for it (ulimit -v): the caller's stack */
		return run_pipeline(opts, nfiles, files);
	pthread_join(thread, NULL);
	return call.status;
}
