/*
 * backend.h - mtpar's back end: the single-pass edit list that rewrites the
 * original source text (comments, macros and layout survive), the code
 * generator, and the files mtpar writes (the program, DOT, the Gantt chart),
 * each without ever leaving a partial output file.
 */
#ifndef MTPAR_BACKEND_H
#define MTPAR_BACKEND_H

#include "frontend.h"
#include "middle.h"

/* ------------------------------------------------------------------ */
/* output.c: writing a file without ever leaving a partial one          */
/* ------------------------------------------------------------------ */

/* Writes a file's contents to out; false on an error (errno says which, if set). */
typedef bool OutputFn(FILE *out, void *ctx);

typedef enum OutputStatus {
	OUTPUT_OK,
	OUTPUT_CANNOT_CREATE, /* no temporary file beside path (a missing directory, ...) */
	OUTPUT_CANNOT_WRITE,  /* fn, a write, the close or the rename failed */
} OutputStatus;

/*
 * Creates path with what fn writes: into a temporary file beside it
 * (path.tmp.XXXXXX, the usual mode), renamed into place only when fn and
 * every write succeeded, removed otherwise.  On failure errno is the
 * cause's (or what fn left); the caller reports it in its own words.
 * Between output_begin and output_commit the renames wait for the commit,
 * so that a run leaves all of its files or none.  "-" is standard output,
 * written at the commit (at once outside a run).
 */
OutputStatus output_write(const char *path, OutputFn *fn, void *ctx);
/* Receives a file's text at the commit of a run that keeps its files in memory. */
typedef void OutputTake(void *user, const char *path, const char *text, size_t len);
/*
 * Starts holding back the renames of output_write.  take: NULL for files
 * on disk; else no file is touched and take gets every text at the commit.
 */
void output_begin(OutputTake *take, void *user);
/* Renames every file held back into place; false (errno set) if one failed. */
bool output_commit(void);
/* Removes every file held back: the run failed. */
void output_abort(void);

/* ------------------------------------------------------------------ */
/* edit.c: collect insertions and replacements, apply them in one pass */
/* ------------------------------------------------------------------ */

/* Replace source bytes [start, end) by text; start == end inserts. */
typedef struct Edit {
	uint32_t start, end;
	const char *text; /* borrowed: arena or static storage */
	uint32_t seq;     /* insertion order, keeps edits at one offset stable */
} Edit;

typedef struct EditList {
	Array(Edit) edits;
	bool line_directives; /* #line after each edit whose text moves the lines */
} EditList;

void edit_insert(EditList *list, uint32_t at, const char *text);
/*
 * The '#' of the first of the #pragma lines (blank lines between) right
 * above the statement at byte at, which they apply to; at when none.
 */
uint32_t edit_pragmas_before(const Source *src, uint32_t at);
/*
 * Comments out the loop's own #pragma lines above the statement at byte at
 * (omp, GCC ivdep and unroll, clang loop): a chunk's loop header (`i < N &&
 * i < mtpar_hi`) is not one OpenMP accepts after `omp simd` or `omp for`,
 * GCC ignores ivdep and unroll there with a warning, and a chunk runs on
 * one thread anyway.  Other pragmas (`STDC FP_CONTRACT`) stay.
 */
void edit_drop_loop_pragmas(EditList *list, const Source *src, uint32_t at);
void edit_replace(EditList *list, uint32_t start, uint32_t end, const char *text);
/*
 * Writes src with the edits applied to out.  Overlapping replacements are
 * a broken invariant.  With list->line_directives, a "#line N "path""
 * follows each edit after which the output's line numbers no longer match
 * src's, so that every line of the original text keeps its number (and,
 * padded with blanks, its column) for the compiler's diagnostics, debuggers
 * and profiles.  Returns false on a write error.
 */
bool edit_apply(const Source *src, EditList *list, FILE *out);
/*
 * The text of src's bytes [start, end) with the edits of list applied; every
 * edit must lie inside that range (a broken invariant otherwise).  Sorts
 * list.  With list->line_directives the text starts with a newline and the
 * #line of start, to go anywhere in the output.  Caller frees the result.
 */
char *edit_apply_range(const Source *src, EditList *list, uint32_t start, uint32_t end);
/*
 * Writes the edited source to path through output_write.  False after a
 * diagnostic ("cannot create output", "cannot write output").
 */
bool edit_write_file(const Source *src, EditList *list, const char *path);

/* ------------------------------------------------------------------ */
/* codegen.c: the parallel program, as edits of the original text      */
/* ------------------------------------------------------------------ */

typedef struct CodegenOptions {
	int ncores;       /* -np: informational; each plan's schedule fixes its own team */
	bool oscar_api;   /* --api=oscar: parallel sections with #pragma oscar, else a switch */
	bool profile;     /* --profile: the output times its tasks, waits and regions */
	bool line_directives; /* copies of the input's code start with its #line */
} CodegenOptions;

/*
 * The back end's check of each plan (check.c: what the output could not
 * keep right) before anything is written: a refused plan gets its why_not,
 * so that --report and the dumps say it stays sequential.
 */
void codegen_check_plans(const PlanList *plans);
/*
 * Adds the edits that turn each plan with tasks into parallel code to
 * edits_per_source (one EditList per prog->sources item, same order): the
 * runtime (api/mtpar_rt.h) at byte 0 of each file with a parallel function,
 * the clones after their callees with prototypes before the planned
 * function, and the plan's span of level MTs replaced by a block that forks
 * threads once, runs each core's tasks with end flags between cores and
 * keeps the original span as the fallback when no full team is available.
 * A plan without tasks, whose schedule uses one core, or that
 * check_plan refuses (codegen_check_plans: its why_not) generates nothing; when no
 * plan generates code no edit is added at all.  The generated function is
 * safe to call again and again, not concurrently (static flags).  Dies on
 * a plan that breaks the planner's invariants (a task scheduled twice, an
 * edge against the task order, a cycle between a schedule and its graph).
 * Generated text is arena-owned.  Returns true: a refused plan leaves its
 * function as written (false is kept for errors to come).
 */
bool codegen_program(const Program *prog, const PlanList *plans, const CodegenOptions *opts,
                     EditList *edits_per_source);

/* ------------------------------------------------------------------ */
/* rtcheck.c: the run-time checks of a parallel region's fork condition */
/* ------------------------------------------------------------------ */

/*
 * The text that follows `if (mtpar_can_fork(N)` in plan's span block:
 * ` &&` and a check for each pair of loaded pointers the plan assumed apart,
 * then for each workspace buffer a chunk uses, its allocation, and for
 * each workspace a clone keeps on its stack, a take and give back of its
 * size; lines indented by indent.  Caller frees the result.
 */
char *rtcheck_condition(const ParPlan *p, const char *indent);
/* Does the condition take and give back a clone's stack workspace (mtpar_probe)? */
bool rtcheck_has_probe(const ParPlan *p);
/* sc's free call, with var for its pointer: `TVMBackendFreeWorkspace(1, 0, var)`. */
const char *rtcheck_free_text(const Source *src, const Scratch *sc, const char *var);

/* ------------------------------------------------------------------ */
/* check.c: what the code generator can express                        */
/* ------------------------------------------------------------------ */

/*
 * Can the code generator express plan?  False with the reason in why
 * (size bytes) when it cannot do so without changing the program's
 * meaning: a declaration, label or preprocessor conditional in the span, an
 * MT that leaves the function (return, break, goto) outside a folded guard,
 * MTs not covered exactly once by tasks, chunks that do not tile their
 * loop, a split loop whose header it cannot rewrite, a callee statement
 * outside its loops that would run in every chunk, call arguments with side
 * effects (evaluated once per chunk).  codegen_program calls it first and
 * keeps a refused function sequential, with the reason as a remark.
 */
bool check_plan(const ParPlan *plan, char *why, size_t size);
/*
 * Can the header of split part sl of callee be rewritten for chunks: a for
 * loop whose first IV counts up by sl->step from sl->lo below sl->hi, whose
 * other header variables are IVs with constant steps (or copies of the
 * first IV) that the body leaves alone, are not shared and are not used
 * outside the loop in callee?  It does not test that the loop is DOALL:
 * that is the planner's.  False with the reason in why.
 */
bool check_split(const SplitLoop *sl, const Func *callee, char *why, size_t size);

/* ------------------------------------------------------------------ */
/* scan.c: the source text around the IR                               */
/* ------------------------------------------------------------------ */

/* The 1-based line of src's byte. */
uint32_t scan_line(const Source *src, uint32_t byte);
/* Past blanks and comments from i (text t up to end). */
uint32_t scan_skip_blanks(const char *t, uint32_t i, uint32_t end);
/*
 * The declarator name of f's definition: the first occurrence of the name,
 * outside comments and literals, that is followed by '(' (after blanks).
 * Fills the name's offset, its '(' and the matching ')'.
 */
bool scan_declarator(const Func *f, uint32_t *name_at, uint32_t *lparen, uint32_t *rparen);
/* Is the parameter list between lparen and rparen empty or `void`? */
bool scan_params_empty(const char *t, uint32_t lparen, uint32_t rparen);
/* The blanks that start the line holding byte at (arena-owned). */
const char *scan_indent(const Source *src, uint32_t at);
/*
 * Where the statement at start begins with the #pragma lines directly
 * above it (`#pragma GCC unroll 4`, `#pragma omp parallel for`), which
 * belong to it: code put in front of the statement goes above them.
 */
uint32_t scan_pragmas_before(const Source *src, uint32_t start);
/* Does a line of t in [start, end), outside comments, begin with '#' (a directive)? */
bool scan_has_directive(const char *t, uint32_t start, uint32_t end);
/*
 * A name in the header of f's definition (its text up to the body) that
 * is no C keyword, parameter or f itself, and no token of f's file before
 * byte `before` either (a typedef or macro defined later), or NULL.
 */
const char *scan_late_name(const Func *f, uint32_t before);

/* ------------------------------------------------------------------ */
/* gantt.c: the schedules as an SVG Gantt chart (--gantt)              */
/* ------------------------------------------------------------------ */

/*
 * Writes one chart for every plan with a schedule, one row per core:
 * tasks colored by their state in plan->power (FULL when it is NULL), the
 * critical path with a thick border, waits (OFF ones grey), a time axis in
 * seconds of t's unit, and a legend of t's states.  Atomic: a temporary
 * file renamed into place.  False after a diagnostic.
 */
bool gantt_write(const PlanList *plans, const FvTable *t, const char *path);

/* ------------------------------------------------------------------ */
/* dot.c: Graphviz output through cgraph                               */
/* ------------------------------------------------------------------ */

/*
 * Writes every function's MTG (or MFG) as one DOT graph, loop bodies as
 * nested clusters.  Returns false after a diagnostic (cannot write path).
 */
bool dot_write_mtg(const Program *prog, const PlanList *plans, const char *path);
/* --dot-sched: each parallel plan's static schedule, a cluster per core. */
bool dot_write_sched(const PlanList *plans, const char *path);
bool dot_write_mfg(const Program *prog, const char *path);
/* The same for one function only (its MTG, or its MFG when !mtg). */
bool dot_write_func(const Program *prog, const char *func, bool mtg, const char *path);

#endif /* MTPAR_BACKEND_H */
