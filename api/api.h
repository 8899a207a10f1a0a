/*
 * api.h - what the files of api/ share: a run's inputs and where its texts
 * and diagnostics go (files and stderr for mtpar_run, a context for
 * mtpar_compile).  Not installed; users see mtpar.h only.
 */
#ifndef MTPAR_API_H
#define MTPAR_API_H

#include "backend.h"
#include "mtpar.h"

/* A source held by a context: name and text, owned by it. */
typedef struct ContextSource {
	char *name;
	char *text;
	size_t len;
} ContextSource;

/* One run of the pipeline. */
typedef struct RunSpec {
	const mtpar_options *opts;
	int nfiles;                /* files, or the context's sources */
	const char *const *files;  /* NULL for a context's run */
	mtpar_context *ctx;        /* NULL: files in, files and stderr out */
	int status;                /* 0 or 1, when the run is over */
} RunSpec;

/* mtpar.c: NAME.c -> NAME.par.c; standard input's "-" (standard output).  Caller frees. */
char *default_output(const char *input, bool from_stdin);
/* Runs the pipeline, one run at a time in the process, on its own large stack (mtpar.c). */
int run_locked(RunSpec *run);

/* context.c: the i-th source of ctx. */
const ContextSource *context_source(const mtpar_context *ctx, size_t i);
/* context.c: an OutputTake that keeps a text in the context (user: the context). */
void context_take(void *user, const char *path, const char *text, size_t len);
/* context.c: a DiagSink for a run (user: its RunSpec): the report file, the context or stderr. */
void route_diag(void *user, DiagKind kind, const char *text);
/* context.c: with on, remarks are kept for --report=FILE until report_flush; off drops them. */
void report_open(bool on);
/* context.c: writes the kept remarks to path through output_write; false after a diagnostic. */
bool report_flush(const char *path);

#endif /* MTPAR_API_H */
