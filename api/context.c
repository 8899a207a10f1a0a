/*
 * context.c - the library's in-memory way in (mtpar_context): sources held
 * as text, every text a run makes kept under the name it would have had on
 * disk, and the diagnostics collected and handed to the caller's callback.
 * Also the routing of a run's diagnostics (stderr, a context, --report=FILE).
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"

/* A text a compile made: a parallel program, a dump, a graph, the report. */
typedef struct Result {
	char *name;
	char *text;
	size_t len;
} Result;

/*
 * The context outlives runs, so its lists are not the run's arrays (which
 * the run frees at its end): plain realloc.
 */
struct mtpar_context {
	struct { ContextSource *items; size_t len, cap; } sources;
	struct { Result *items; size_t len, cap; } results;
	char *diags;        /* the diagnostics of the last compile, NUL-terminated */
	size_t diags_len;
	mtpar_diag_fn *fn;  /* the caller's, or NULL */
	void *user;
	char *output;       /* the last compile's -o, or NULL */
	bool dumped;        /* the last compile made a dump, not programs */
};

static char *copy_text(const char *text, size_t len)
{
	char *s = malloc(len + 1);

	if (s) {
		memcpy(s, text, len);
		s[len] = '\0';
	}
	return s;
}

/* Room for one more item in a list of the context; false when out of memory. */
static bool grow(void **items, size_t *cap, size_t len, size_t elem)
{
	size_t c = *cap ? 2 * *cap : 8;
	void *p;

	if (len < *cap)
		return true;
	if (!(p = realloc(*items, c * elem)))
		return false;
	*items = p;
	*cap = c;
	return true;
}

mtpar_context *mtpar_context_new(void)
{
	return calloc(1, sizeof(mtpar_context));
}

static void drop_results(mtpar_context *ctx)
{
	for (size_t i = 0; i < ctx->results.len; i++) {
		free(ctx->results.items[i].name);
		free(ctx->results.items[i].text);
	}
	free(ctx->results.items);
	ctx->results.items = NULL;
	ctx->results.len = ctx->results.cap = 0;
	free(ctx->diags);
	ctx->diags = NULL;
	ctx->diags_len = 0;
	free(ctx->output);
	ctx->output = NULL;
	ctx->dumped = false;
}

void mtpar_context_free(mtpar_context *ctx)
{
	if (!ctx)
		return;
	drop_results(ctx);
	for (size_t i = 0; i < ctx->sources.len; i++) {
		free(ctx->sources.items[i].name);
		free(ctx->sources.items[i].text);
	}
	free(ctx->sources.items);
	free(ctx);
}

int mtpar_add_source(mtpar_context *ctx, const char *name, const char *text, size_t len)
{
	ContextSource cs = { copy_text(name, strlen(name)), copy_text(text, len), len };

	if (!cs.name || !cs.text ||
	    !grow((void **)&ctx->sources.items, &ctx->sources.cap, ctx->sources.len, sizeof(cs))) {
		free(cs.name);
		free(cs.text);
		return 1;
	}
	ctx->sources.items[ctx->sources.len++] = cs;
	return 0;
}

void mtpar_set_diag_handler(mtpar_context *ctx, mtpar_diag_fn *fn, void *user)
{
	ctx->fn = fn;
	ctx->user = user;
}

const ContextSource *context_source(const mtpar_context *ctx, size_t i)
{
	return &ctx->sources.items[i];
}

int mtpar_compile(mtpar_context *ctx, const mtpar_options *opts)
{
	RunSpec run = { opts, (int)ctx->sources.len, NULL, ctx, 1 };

	drop_results(ctx);
	ctx->output = opts->output ? xstrndup(opts->output, strlen(opts->output)) : NULL;
	ctx->dumped = opts->dump != MTPAR_DUMP_NONE;
	if (run_locked(&run) != 0) {
		char *diags = ctx->diags;

		ctx->diags = NULL; /* a failed run keeps its diagnostics only */
		drop_results(ctx);
		ctx->diags = diags;
		return 1;
	}
	return 0;
}

void context_take(void *user, const char *path, const char *text, size_t len)
{
	mtpar_context *ctx = user;
	Result r = { xstrndup(path, strlen(path)), xmalloc(len + 1), len };

	memcpy(r.text, text, len);
	r.text[len] = '\0';
	if (!grow((void **)&ctx->results.items, &ctx->results.cap, ctx->results.len, sizeof(r)))
		die("out of memory");
	ctx->results.items[ctx->results.len++] = r;
}

const char *mtpar_result_name(const mtpar_context *ctx, size_t i)
{
	return i < ctx->results.len ? ctx->results.items[i].name : NULL;
}

const char *mtpar_result_text(const mtpar_context *ctx, size_t i, size_t *len)
{
	if (i >= ctx->results.len)
		return NULL;
	if (len)
		*len = ctx->results.items[i].len;
	return ctx->results.items[i].text;
}

const char *mtpar_result(const mtpar_context *ctx, const char *name, size_t *len)
{
	for (size_t i = 0; i < ctx->results.len; i++)
		if (strcmp(ctx->results.items[i].name, name) == 0)
			return mtpar_result_text(ctx, i, len);
	return NULL;
}

/* The i-th source's program: the text under the name its output would have had. */
const char *mtpar_output(const mtpar_context *ctx, size_t i, size_t *len)
{
	const char *text = NULL;
	char *name;

	if (i >= ctx->sources.len || ctx->dumped)
		return NULL;
	if (ctx->output)
		return mtpar_result(ctx, ctx->output, len);
	name = default_output(ctx->sources.items[i].name, false);
	text = mtpar_result(ctx, name, len);
	free(name);
	return text;
}

const char *mtpar_diagnostics(const mtpar_context *ctx)
{
	return ctx->diags ? ctx->diags : "";
}

/* Appends text to the NUL-terminated buffer *buf of *len bytes. */
static void append(char **buf, size_t *len, const char *text)
{
	size_t n = strlen(text);

	*buf = xrealloc(*buf, *len + n + 1);
	memcpy(*buf + *len, text, n + 1);
	*len += n;
}

static void context_diag(mtpar_context *ctx, DiagKind kind, const char *text)
{
	append(&ctx->diags, &ctx->diags_len, text);
	if (ctx->fn)
		ctx->fn(ctx->user, (mtpar_diag_kind)kind, text);
}

/* ---- --report=FILE: the remarks, kept until the run's files are written ---- */

static struct {
	bool on;
	char *text;
	size_t len;
} report;

void report_open(bool on)
{
	free(report.text);
	report.text = NULL;
	report.len = 0;
	report.on = on;
}

static bool write_report(FILE *out, void *arg)
{
	(void)arg;
	return fwrite(report.text ? report.text : "", 1, report.len, out) == report.len;
}

bool report_flush(const char *path)
{
	if (output_write(path, write_report, NULL) == OUTPUT_OK)
		return true;
	error_plain("%s: cannot write the report", path);
	return false;
}

void route_diag(void *user, DiagKind kind, const char *text)
{
	const RunSpec *run = user;

	if (report.on && kind >= DIAG_OPTIMIZED && kind <= DIAG_NOTE)
		append(&report.text, &report.len, text);
	else if (run->ctx)
		context_diag(run->ctx, kind, text);
	else
		fputs(text, stderr);
}
