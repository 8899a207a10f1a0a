/*
 * mtpar.c - the pipeline in one function (run_pipeline): read, preprocess,
 * parse, lower, cut into macro tasks, then dump a stage or rewrite each
 * input through the backend's edit list; for files (mtpar_run) or for a
 * context's sources in memory (mtpar_compile, api/context.c).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <tree_sitter/api.h>

#include "backend.h"
#include "api.h"
#include "middle.h"

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

/* NAME.c -> NAME.par.c beside the input, as Pluto writes NAME.pluto.c; standard input's to standard output. */
char *default_output(const char *input, bool from_stdin)
{
	size_t n = strlen(input);
	char *out = xmalloc(n + 8);

	if (from_stdin)
		return strcpy(out, "-");
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

typedef struct DumpJob {
	const Program *prog;
	const PlanList *plans;
	mtpar_dump dump;
} DumpJob;

static bool write_dump(FILE *out, void *arg)
{
	const DumpJob *d = arg;

	switch (d->dump) {
	case MTPAR_DUMP_PP:
		for (uint32_t i = 0; i < d->prog->sources.len; i++)
			pp_dump(out, d->prog->sources.items[i]);
		break;
	case MTPAR_DUMP_FUNCS:
		dump_funcs(out, d->prog);
		break;
	case MTPAR_DUMP_IR:
		lower_dump(out, d->prog);
		break;
	case MTPAR_DUMP_MT:
		mt_dump(out, d->prog);
		break;
	case MTPAR_DUMP_MFG:
		mtg_dump_mfg(out, d->prog);
		break;
	case MTPAR_DUMP_MTG:
		mtg_dump(out, d->prog);
		break;
	case MTPAR_DUMP_SCHED:
		plan_dump(out, d->plans);
		break;
	case MTPAR_DUMP_NONE:
		return false;
	}
	return !ferror(out);
}

/* --dump=STAGE: to standard output ("-"), at the commit with the run's other files. */
static bool dump_stage(const Program *prog, const PlanList *plans, mtpar_dump dump)
{
	DumpJob d = { prog, plans, dump };

	if (output_write("-", write_dump, &d) == OUTPUT_OK)
		return true;
	error_plain("cannot write the dump");
	return false;
}

/* Front end for one source: preprocess, parse, lower. */
static bool compile_source(Program *prog, Source *src, const PPConfig *cfg, TSTree **tree)
{
	if (!src)
		return false;
	array_push(&prog->sources, src);
	if (!pp_scan(src, cfg))
		return false;
	*tree = parse_tree(src);
	if (parse_misread(*tree) && unfold_macros(src)) {
		ts_tree_delete(*tree);
		*tree = NULL;
		if (!pp_scan(src, cfg))
			return false;
		*tree = parse_tree(src);
	}
	parse_unparen(src, tree);
	if (!parse_accept(src, *tree)) {
		*tree = NULL;
		return false;
	}
	return lower_source(prog, src, *tree);
}

/* Is path one of the input files (the same file, through any name or link)? */
static bool names_an_input(const char *path, const RunSpec *run)
{
	struct stat o, in;

	if (!path || strcmp(path, "-") == 0 || stat(path, &o) != 0 || !S_ISREG(o.st_mode))
		return false;
	for (int i = 0; i < run->nfiles; i++) {
		if (stat(run->files[i], &in) == 0 && in.st_dev == o.st_dev && in.st_ino == o.st_ino) {
			error_plain("output file '%s' is also an input", path);
			return true;
		}
	}
	return false;
}

/* Would the run overwrite one of its inputs (-o, --dot, --gantt, --report=FILE)? */
static bool output_is_input(const RunSpec *run)
{
	const mtpar_options *o = run->opts;

	if (o->output && o->dump == MTPAR_DUMP_NONE && run->nfiles > 1) {
		error_plain("one output file ('%s') for %d inputs", o->output, run->nfiles);
		return true;
	}
	if (run->ctx)
		return false; /* writes no file */
	return names_an_input(o->dump == MTPAR_DUMP_NONE ? o->output : NULL, run) ||
	       names_an_input(o->dot_mtg, run) || names_an_input(o->dot_mfg, run) ||
	       names_an_input(o->gantt, run) || names_an_input(o->report_file, run) ||
	       names_an_input(o->dot_sched, run);
}

/* The first line of every output: what made it, and from what.  Caller frees. */
static char *banner(const mtpar_options *o, const Source *src)
{
	char *text = NULL;
	size_t size = 0;
	FILE *b = open_memstream(&text, &size);

	if (!b)
		die("open_memstream failed");
	fprintf(b, "/* mtpar %s -np %d", MTPAR_VERSION, o->ncores);
	if (o->oscar_api)
		fputs(" --api=oscar", b);
	if (o->unlimited_cost)
		fputs(" --cost-model=unlimited", b);
	if (o->profile)
		fputs(" --profile", b);
	if (o->costs)
		fprintf(b, " --costs %s", o->costs);
	if (o->power != MTPAR_POWER_NONE)
		fputs(o->power == MTPAR_POWER_DEADLINE ? " --deadline" : " --power", b);
	for (int i = 0; i < o->ndefines; i++)
		fprintf(b, o->defines[i][0] == '!' ? " -U%s" : " -D%s",
		        o->defines[i] + (o->defines[i][0] == '!'));
	for (int i = 0; i < o->ninclude_dirs; i++)
		fprintf(b, " -I%s", o->include_dirs[i]);
	fprintf(b, " %s: generated; edit the input, not this file", src->path);
	fclose(b);
	for (char *p = text; (p = strstr(p, "*/")); ) /* a name may not end the comment */
		*++p = ' ';
	text = xrealloc(text, size + 5);
	/* with -P nothing renumbers the lines: the banner shares the first (__LINE__ reads the same) */
	strcpy(text + size, o->no_line_directives ? " */ " : " */\n");
	return text;
}

/* Each input rewritten through its edit list: the plans' parallel code. */
static bool write_outputs(const Program *prog, const PlanList *plans,
                          const mtpar_options *opts)
{
	uint32_t n = prog->sources.len;
	EditList *edits = xcalloc(n, sizeof(*edits));
	char **banners = xcalloc(n, sizeof(*banners));
	CodegenOptions cg = { opts->ncores, opts->oscar_api != 0, opts->profile != 0,
	                      !opts->no_line_directives };
	bool ok;

	for (uint32_t i = 0; i < n; i++) { /* first: before the runtime at the same byte */
		const Source *src = prog->sources.items[i];

		banners[i] = banner(opts, src);
		edit_insert(&edits[i], source_bom_len(src), banners[i]);
		edits[i].line_directives = !opts->no_line_directives;
	}
	ok = codegen_program(prog, plans, &cg, edits);
	for (uint32_t i = 0; ok && i < n; i++) {
		const Source *src = prog->sources.items[i];
		char *path = opts->output ? NULL : default_output(src->path, src->from_stdin);

		ok = edit_write_file(src, &edits[i], path ? path : opts->output);
		free(path);
	}
	for (uint32_t i = 0; i < n; i++) {
		array_free(&edits[i].edits);
		free(banners[i]);
	}
	free(edits);
	free(banners);
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
static bool write_graphs(const Program *prog, const PlanList *plans, const PlanList *refused,
                         const mtpar_options *opts, const FvTable *fv)
{
	const char *f = opts->dot_func;

	if (opts->report) {
		report_emit(prog);
		report_plans(plans);
		report_plans(refused);
	}
	if (opts->dot_mtg && !(f ? dot_write_func(prog, f, true, opts->dot_mtg)
	                         : dot_write_mtg(prog, plans, opts->dot_mtg)))
		return false;
	if (opts->dot_mfg && !(f ? dot_write_func(prog, f, false, opts->dot_mfg)
	                         : dot_write_mfg(prog, opts->dot_mfg)))
		return false;
	if (opts->gantt && !gantt_write(plans, fv, opts->gantt))
		return false;
	if (opts->dot_sched && !dot_write_sched(plans, opts->dot_sched))
		return false;
	return true;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* -v: how far the run is, on stderr (a library caller's diagnostics channel). */
static void progress(const RunSpec *run, const char *what, const struct timespec *t0)
{
	if (run->opts->verbose)
		diag_info("%s (%.2f s)", what, seconds_since(t0));
}

/* -v: per file, how many functions got parallel code and the largest one's predicted speedup. */
static void summarize(const Program *prog, const PlanList *plans)
{
	for (uint32_t s = 0; s < prog->sources.len; s++) {
		const Source *src = prog->sources.items[s];
		const ParPlan *big = NULL;
		uint32_t nfuncs = 0, npar = 0;

		for (uint32_t i = 0; i < prog->funcs.len; i++)
			nfuncs += prog->funcs.items[i]->src == src;
		for (uint32_t i = 0; i < plans->len; i++) {
			const ParPlan *p = plans->items[i];

			if (p->func->src != src || !p->tasks.len || p->why_not || !p->sched)
				continue;
			npar++;
			if (!big || p->sched->seq_time > big->sched->seq_time)
				big = p;
		}
		if (!big) {
			diag_info("%s: 0 of %u functions parallelized", src->path, nfuncs);
			continue;
		}
		diag_info("%s: %u of %u functions parallelized for %d cores; %s: predicted "
		                "speedup %.2f", src->path, npar, nfuncs, big->sched->ncores,
		                intern_name(big->func->name),
		                big->sched->makespan > 0 ? big->sched->seq_time / big->sched->makespan : 1.0);
	}
}

/* The run's sources: the context's, or the files (a diagnostic and false when one cannot be read). */
static bool compile_inputs(Program *prog, const RunSpec *run, const PPConfig *cfg,
                           TSTree **trees)
{
	if (run->ctx) {
		for (int i = 0; i < run->nfiles; i++) {
			const ContextSource *cs = context_source(run->ctx, (size_t)i);

			if (!compile_source(prog, source_from_text(cs->name, cs->text, cs->len), cfg,
			                    &trees[i]))
				return false;
		}
		return true;
	}
	for (int i = 0; i < run->nfiles; i++) {
		const char *path = run->files[i];
		Source *src = strcmp(path, "-") == 0 ? source_read_stdin() : source_read(path);

		if (!compile_source(prog, src, cfg, &trees[i]))
			return false;
	}
	return true;
}

/* The middle stage: summaries, graphs, plans. */
static PlanList analyse(Program *prog, const PlanOptions *popts)
{
	lower_resolve_calls(prog);
	bind_params(prog);
	names_unbind_contracts(prog);
	mt_build(prog);
	acc_compute_summaries(prog);
	mfg_build(prog);
	eec_compute(prog);
	mtg_build(prog);
	return plan_program(prog, popts);
}

/* Writes (or keeps in the context) every file of the run, or none of them. */
static bool write_all(const Program *prog, PlanList *plans, const PlanList *refused,
                      const RunSpec *run, const FvTable *fv)
{
	const mtpar_options *opts = run->opts;
	bool ok;

	output_begin(run->ctx ? context_take : NULL, run->ctx);
	codegen_check_plans(plans);
	ok = assign_power(plans, fv, opts) && write_graphs(prog, plans, refused, opts, fv);
	if (ok)
		ok = opts->dump != MTPAR_DUMP_NONE ? dump_stage(prog, plans, opts->dump)
		                                   : write_outputs(prog, plans, opts);
	if (ok && opts->report_file)
		ok = report_flush(opts->report_file);
	if (ok && error_count() == 0)
		return output_commit();
	output_abort();
	return false;
}

static void free_program(Program *prog, TSTree **trees, int ntrees)
{
	for (int i = 0; i < ntrees; i++)
		if (trees[i])
			ts_tree_delete(trees[i]);
	for (uint32_t i = 0; i < prog->sources.len; i++)
		source_free(prog->sources.items[i]);
	array_free(&prog->sources);
	free(trees);
}

static int run_pipeline(const RunSpec *run)
{
	const mtpar_options *opts = run->opts;
	Program *prog = ARENA_NEW(Program);
	TSTree **trees = xcalloc((size_t)run->nfiles + 1, sizeof(*trees));
	PPConfig cfg;
	PlanList plans = { 0 }, refused = { 0 }; /* refused: for --report (PlanOptions) */
	bool ok = parse_check_abi();
	FvTable *fv = NULL;
	PlanOptions popts = { opts->ncores, opts->unlimited_cost != 0, NULL,
		              opts->oscar_api || opts->profile || opts->power != MTPAR_POWER_NONE,
		              NULL };
	struct timespec t0;

	popts.refused = opts->report ? &refused : NULL;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ok && opts->costs)
		ok = (popts.measured = measured_load(opts->costs)) != NULL;
	if (ok && (opts->power != MTPAR_POWER_NONE || opts->gantt))
		ok = (fv = load_fv_table(opts)) != NULL; /* before the input: a bad table fails fast */
	fill_pp_config(&cfg, opts);
	ok = ok && !output_is_input(run) && compile_inputs(prog, run, &cfg, trees);
	if (ok) {
		if (reserved_names_used(prog) || fp_flags_read(prog))
			popts.ncores = 1; /* the output's names would meet the program's, or flags be lost */
		progress(run, "front end done", &t0);
		plans = analyse(prog, &popts);
		progress(run, "analysis and schedule done", &t0);
		ok = write_all(prog, &plans, &refused, run, fv);
		if (ok && opts->verbose)
			summarize(prog, &plans);
	}
	free_program(prog, trees, run->nfiles);
	array_free(&plans);
	array_free(&refused);
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

static void *pipeline_thread(void *arg)
{
	RunSpec *run = arg;

	run->status = run_pipeline(run);
	return NULL;
}

/* One run at a time: the analyses keep their state in this library's statics. */
static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;

/* The state one run leaves behind, dropped before the next starts. */
static void reset_state(const RunSpec *run)
{
	const mtpar_options *o = run->opts;
	unsigned classes = o->report ? o->report : 0;
	DiagConfig dc = { NULL, NULL, 0, !o->no_caret };

	if (classes & MTPAR_REPORT_OPTIMIZED)
		dc.remarks |= 1u << DIAG_OPTIMIZED;
	if (classes & MTPAR_REPORT_MISSED)
		dc.remarks |= 1u << DIAG_MISSED;
	if (classes & MTPAR_REPORT_NOTE)
		dc.remarks |= 1u << DIAG_NOTE;
	dc.sink = route_diag;
	dc.user = (void *)run;
	diag_configure(&dc);
	report_open(o->report_file != NULL);
}

/* Everything the run made: the IR, its arrays, the analyses' state, the names. */
static void release_state(void)
{
	acc_release();
	names_release();
	lower_release();
	intern_release();
	arena_free_all();
	array_free_run();
}

int run_locked(RunSpec *run)
{
	pthread_attr_t attr;
	pthread_t thread;
	bool started;

	pthread_mutex_lock(&run_lock);
	array_begin_run();
	reset_state(run);
	run->status = 1;
	if (pthread_attr_init(&attr) != 0) {
		run->status = run_pipeline(run);
	} else {
		started = pthread_attr_setstacksize(&attr, MTPAR_STACK_BYTES) == 0 &&
		          pthread_create(&thread, &attr, pipeline_thread, run) == 0;
		pthread_attr_destroy(&attr);
		if (started)
			pthread_join(thread, NULL);
		else /* no address space for it (ulimit -v): the caller's stack */
			run->status = run_pipeline(run);
	}
	report_open(false);
	diag_configure(NULL);
	release_state();
	pthread_mutex_unlock(&run_lock);
	return run->status;
}

int mtpar_run(const mtpar_options *opts, int nfiles, const char *const *files)
{
	RunSpec run = { opts, nfiles, files, NULL, 1 };

	return run_locked(&run);
}
