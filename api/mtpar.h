/*
 * mtpar.h - the public interface of libmtpar, the OSCAR-style automatic
 * parallelizing compiler for C.  This is the only header users include;
 * the mtpar driver (api/main.c) is a thin client of it.  Link with
 * `pkg-config --cflags --libs mtpar`.
 *
 * Two ways in: mtpar_run compiles files and writes files, as the command
 * does; a context (mtpar_context_new) compiles sources held in memory and
 * keeps every text it makes (the parallel programs, dumps, graphs, the
 * diagnostics) in memory.  Runs, failed ones included, are independent of
 * each other; the library runs one at a time (calls from several threads
 * wait for each other).
 */
#ifndef MTPAR_H
#define MTPAR_H

#include <stddef.h>

#define MTPAR_VERSION "0.1.0"

#if defined(__GNUC__)
#define MTPAR_API __attribute__((visibility("default")))
#else
#define MTPAR_API
#endif

/* Power control (--power, --deadline): frequency/voltage states per task. */
typedef enum mtpar_power {
	MTPAR_POWER_NONE,
	MTPAR_POWER_FASTEST,  /* --power: no longer than at full speed */
	MTPAR_POWER_DEADLINE, /* --deadline T: finish by T, as slowly as that allows */
} mtpar_power;

/* What mtpar_run prints instead of writing a parallel program. */
typedef enum mtpar_dump {
	MTPAR_DUMP_NONE,
	MTPAR_DUMP_PP,    /* byte ranges hidden from the parser */
	MTPAR_DUMP_FUNCS, /* function definitions found */
	MTPAR_DUMP_IR,    /* the lowered IR */
	MTPAR_DUMP_MT,    /* macro tasks, hierarchically */
	MTPAR_DUMP_MFG,   /* macro-flow graphs: control flow, data dependences */
	MTPAR_DUMP_MTG,   /* macro-task graphs with earliest executable conditions */
	MTPAR_DUMP_SCHED, /* the parallel plans: tasks, costs, the static schedule */
} mtpar_dump;

typedef struct mtpar_options {
	int ncores;              /* -np N: cores to schedule for (default 2) */
	const char *output;      /* -o FILE; NULL: NAME.par.c beside each input */
	mtpar_dump dump;         /* --dump=STAGE: print it to stdout, write no program */
	const char **defines;    /* "NAME", "NAME=VALUE" (-D) or "!NAME" (-U), in order */
	int ndefines;
	const char **include_dirs; /* -I DIR */
	int ninclude_dirs;
	const char *dot_mtg;     /* --dot FILE: the MTGs for Graphviz */
	const char *dot_mfg;     /* --dot-mfg FILE: the MFGs */
	const char *dot_func;    /* --dot-func NAME: only this function's graphs, in full */
	const char *dot_sched;   /* --dot-sched FILE: the static schedules, a cluster per core */
	unsigned report;         /* --report: MTPAR_REPORT_* classes of remarks to print */
	const char *report_file; /* --report=FILE: remarks to FILE instead of stderr */
	int no_line_directives;  /* -P: no #line in the output */
	int no_caret;            /* -fno-diagnostics-show-caret */
	int verbose;             /* -v: progress and a summary per file on stderr */
	int oscar_api;           /* --api=oscar: OSCAR-API form instead of plain OpenMP */
	int profile;             /* --profile: the output times its tasks (MTPAR_PROFILE file) */
	const char *costs;       /* --costs FILE: a profile's measured times for the schedule */
	int unlimited_cost;      /* --cost-model=unlimited: every plan that gains at all, the
	                            runtime's costs not counted (tests on small inputs) */
	mtpar_power power;       /* --power, --deadline: power-aware schedule */
	double deadline;         /* --deadline: seconds, or a factor of the makespan at full speed */
	int deadline_relative;   /* --deadline Nx: deadline is that factor N */
	const char *fv_table;    /* --fv-table FILE: frequency/voltage states; NULL: the default */
	const char *gantt;       /* --gantt FILE: the schedules as an SVG Gantt chart */
} mtpar_options;

/* The remark classes of --report, as GCC's -fopt-info-optimized/-missed/-note. */
#define MTPAR_REPORT_OPTIMIZED 1u /* what was parallelized, with the predicted speedup */
#define MTPAR_REPORT_MISSED 2u    /* functions, loops and calls that were not, and why */
#define MTPAR_REPORT_NOTE 4u      /* detail: every macro task, run-time checks */
#define MTPAR_REPORT_ALL 7u

/* Defaults: 2 cores, no dump, output beside the input. */
MTPAR_API void mtpar_options_init(mtpar_options *opts);

/*
 * Compiles the files together as one program and writes the parallel
 * program (one output per input) or the requested dump.  "-" as a file is
 * standard input, and as opts->output (or the output of "-") standard
 * output.  Diagnostics go to stderr.  Returns 0 on success, 1 on bad
 * input; no output file is left behind on failure.  The options and file
 * names are borrowed.
 */
MTPAR_API int mtpar_run(const mtpar_options *opts, int nfiles, const char *const *files);

/* Parses a --dump argument ("pp", "funcs", "ir", "mt", "mfg", "mtg", "sched"); MTPAR_DUMP_NONE if unknown. */
MTPAR_API mtpar_dump mtpar_dump_from_name(const char *name);

/* ---- in memory: a context per caller ---- */

typedef struct mtpar_context mtpar_context;

/* The kind of a diagnostic: GCC's error and warning, and its -fopt-info remark classes. */
typedef enum mtpar_diag_kind {
	MTPAR_DIAG_ERROR,
	MTPAR_DIAG_WARNING,
	MTPAR_DIAG_OPTIMIZED,
	MTPAR_DIAG_MISSED,
	MTPAR_DIAG_NOTE,
	MTPAR_DIAG_INFO, /* -v: progress and the summary per file */
} mtpar_diag_kind;

/*
 * Called once per diagnostic during mtpar_compile.  text is the whole
 * diagnostic as the command prints it ("net.c:3:5: error: ...\n" and the
 * source line with a caret), borrowed for the call.  It runs while the
 * library holds its run lock: it must not call mtpar_compile or mtpar_run.
 */
typedef void mtpar_diag_fn(void *user, mtpar_diag_kind kind, const char *text);

/* A new, empty context; NULL when out of memory.  Free with mtpar_context_free. */
MTPAR_API mtpar_context *mtpar_context_new(void);
MTPAR_API void mtpar_context_free(mtpar_context *ctx);

/*
 * Adds a source to compile: name (for diagnostics, #line and the output's
 * name; headers are searched beside it) and len bytes of text, both
 * copied.  The sources of a context are compiled together as one program.
 * Returns 0, or 1 when out of memory.
 */
MTPAR_API int mtpar_add_source(mtpar_context *ctx, const char *name, const char *text,
                               size_t len);

/* Sends each diagnostic of the next compiles to fn as well (NULL: collected only). */
MTPAR_API void mtpar_set_diag_handler(mtpar_context *ctx, mtpar_diag_fn *fn, void *user);

/*
 * Compiles the context's sources with opts.  Writes no file: each text the
 * command would write (the parallel program of each source, the dump
 * (named "-"), --dot, --dot-mfg, --gantt, --report=FILE) is kept in the
 * context under the name it would have had.  Returns 0 on success, 1 on bad
 * input; then no text but the diagnostics is kept.  Earlier results are
 * dropped first.
 */
MTPAR_API int mtpar_compile(mtpar_context *ctx, const mtpar_options *opts);

/* The parallel program made from the i-th source by the last compile, or NULL; *len its length. */
MTPAR_API const char *mtpar_output(const mtpar_context *ctx, size_t i, size_t *len);

/* Every text the last compile made, by index: its name, or NULL past the end. */
MTPAR_API const char *mtpar_result_name(const mtpar_context *ctx, size_t i);
/* The same text; *len (may be NULL) its length.  NULL past the end. */
MTPAR_API const char *mtpar_result_text(const mtpar_context *ctx, size_t i, size_t *len);

/* The text named name, or NULL. */
MTPAR_API const char *mtpar_result(const mtpar_context *ctx, const char *name, size_t *len);

/* The last compile's diagnostics, one after another, as the command prints them ("" if none). */
MTPAR_API const char *mtpar_diagnostics(const mtpar_context *ctx);

#endif /* MTPAR_H */
