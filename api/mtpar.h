/*
 * mtpar.h - the public interface of libmtpar, the OSCAR-style automatic
 * parallelizing compiler for C.  This is the only header users include;
 * the mtpar driver (api/main.c) is a thin client of it.
 */
#ifndef MTPAR_H
#define MTPAR_H

#define MTPAR_VERSION "0.1.0"

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
	const char *dot_func;    /* --dot-func NAME: only this function's graphs */
	int report;              /* --report: one remark per macro task on stderr */
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

/* Defaults: 2 cores, no dump, output beside the input. */
void mtpar_options_init(mtpar_options *opts);

/*
 * Compiles the files together as one program and writes the parallel
 * program (one output per input) or the requested dump.  Diagnostics go to
 * stderr.  Returns 0 on success, 1 on bad input; no output file is left
 * behind on failure.  The options and file names are borrowed.
 */
int mtpar_run(const mtpar_options *opts, int nfiles, const char *const *files);

/* Parses a --dump argument ("pp", "funcs", "ir", "mt", "mfg", "mtg", "sched"); MTPAR_DUMP_NONE if unknown. */
mtpar_dump mtpar_dump_from_name(const char *name);

#endif /* MTPAR_H */
