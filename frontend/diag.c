/*
 * diag.c - the diagnostics channel: GCC-style "file:line:col: error: msg"
 * with the source line and a caret under the column, and the remarks of
 * GCC's -fopt-info classes (optimized, missed, note).  Every diagnostic is
 * formatted whole and handed to one sink: stderr by default, the library
 * caller's callback or buffer during mtpar_compile.
 */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

enum { CARET_MAX_LINE = 512 }; /* longer lines (generated code) get no caret */

static struct {
	DiagConfig cfg;
	int nerrors;
} dg = { { NULL, NULL, 0, true }, 0 };

static const char *const kind_name[] = {
	[DIAG_ERROR] = "error", [DIAG_WARNING] = "warning", [DIAG_OPTIMIZED] = "optimized",
	[DIAG_MISSED] = "missed", [DIAG_NOTE] = "note", [DIAG_INFO] = "info",
};

void diag_configure(const DiagConfig *cfg)
{
	static const DiagConfig defaults = { NULL, NULL, 0, true };

	dg.cfg = cfg ? *cfg : defaults;
	dg.nerrors = 0;
}

int error_count(void)
{
	return dg.nerrors;
}

bool remark_wanted(DiagKind kind)
{
	return (dg.cfg.remarks & (1u << kind)) != 0;
}

static void emit(DiagKind kind, char *text)
{
	if (dg.cfg.sink)
		dg.cfg.sink(dg.cfg.user, kind, text);
	else
		fputs(text, stderr);
	free(text);
}

/* The caret lines under a position: "   12 | text" and "      |    ^". */
static void print_caret(FILE *out, const Source *src, uint32_t line, uint32_t col)
{
	uint32_t start = src->line_start[line - 1], end = start;

	while (end < src->len && src->text[end] != '\n' && src->text[end] != '\r')
		end++;
	if (end - start > CARET_MAX_LINE || col > end - start + 1)
		return;
	fprintf(out, "%5u | %.*s\n      | ", line, (int)(end - start), src->text + start);
	for (uint32_t i = 0; i + 1 < col; i++) /* tabs stay tabs: the caret lines up */
		fputc(src->text[start + i] == '\t' ? '\t' : ' ', out);
	fputs("^\n", out);
}

static void diag(const Source *src, uint32_t byte, DiagKind kind, const char *fmt, va_list ap)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	uint32_t line, col;

	if (!out)
		die("open_memstream failed");
	source_pos(src, byte, &line, &col);
	fprintf(out, "%s:%u:%u: %s: ", src->path, line, col, kind_name[kind]);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	if (dg.cfg.caret && (kind == DIAG_ERROR || kind == DIAG_WARNING))
		print_caret(out, src, line, col);
	fclose(out);
	emit(kind, text);
}

void error_at(const Source *src, uint32_t byte, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag(src, byte, DIAG_ERROR, fmt, ap);
	va_end(ap);
	dg.nerrors++;
}

void warning_at(const Source *src, uint32_t byte, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag(src, byte, DIAG_WARNING, fmt, ap);
	va_end(ap);
}

void remark_at(DiagKind kind, const Source *src, uint32_t byte, const char *fmt, ...)
{
	va_list ap;

	if (!remark_wanted(kind))
		return;
	va_start(ap, fmt);
	diag(src, byte, kind, fmt, ap);
	va_end(ap);
}

/* "mtpar: [what: ]msg" for what has no position. */
static void plain(DiagKind kind, const char *what, const char *fmt, va_list ap)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	if (!out)
		die("open_memstream failed");
	fprintf(out, "mtpar: %s", what);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	fclose(out);
	emit(kind, text);
}

void error_plain(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	plain(DIAG_ERROR, "error: ", fmt, ap);
	va_end(ap);
	dg.nerrors++;
}

void diag_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	plain(DIAG_INFO, "", fmt, ap);
	va_end(ap);
}
