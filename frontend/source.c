/*
 * source.c - input files, byte offset to line:col, and the GCC-style
 * diagnostics channel ("file:line:col: error: message").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "frontend.h"

static int nerrors;

int error_count(void)
{
	return nerrors;
}

void error_plain(const char *fmt, ...)
{
	va_list ap;

	fputs("mtpar: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	nerrors++;
}

static void diag(const Source *src, uint32_t byte, const char *what,
                 const char *fmt, va_list ap)
{
	uint32_t line, col;

	source_pos(src, byte, &line, &col);
	fprintf(stderr, "%s:%u:%u: %s: ", src->path, line, col, what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void error_at(const Source *src, uint32_t byte, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag(src, byte, "error", fmt, ap);
	va_end(ap);
	nerrors++;
}

void warning_at(const Source *src, uint32_t byte, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag(src, byte, "warning", fmt, ap);
	va_end(ap);
}

void remark_at(const Source *src, uint32_t byte, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag(src, byte, "remark", fmt, ap);
	va_end(ap);
}

/*
 * Checks the text is C source we can read; reports the first NUL byte.
 * An empty file is a valid (empty) translation unit, and bytes that are
 * not UTF-8 (a Latin-1 comment, a raw byte in a string literal) are kept
 * as they are: GCC takes both, and tree-sitter reports such a byte where
 * C does not allow it.
 */
static bool check_text(Source *src)
{
	const char *nul = memchr(src->text, '\0', src->len);

	if (nul) {
		error_at(src, (uint32_t)(nul - src->text), "NUL byte in the source (a binary file?)");
		return false;
	}
	return true;
}

void source_index_lines(Source *src)
{
	uint32_t n = 1, k = 1;

	for (const char *p = src->text; (p = memchr(p, '\n', src->text + src->len - p)); p++)
		n++;
	src->line_start = xmalloc(n * sizeof(*src->line_start));
	src->line_start[0] = 0;
	for (const char *p = src->text; (p = memchr(p, '\n', src->text + src->len - p)); p++)
		src->line_start[k++] = (uint32_t)(p - src->text) + 1;
	src->nlines = n;
}

static char *read_all(const char *path, uint32_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	char *buf;
	size_t got;

	if (!f) {
		error_plain("%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
		error_plain("%s: is a directory, not a C source file", path);
		fclose(f);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || st.st_size >= (off_t)UINT32_MAX) {
		error_plain("%s: not a regular file of at most 4 GB", path);
		fclose(f);
		return NULL;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	got = fread(buf, 1, (size_t)st.st_size, f);
	if (ferror(f)) {
		error_plain("%s: read error: %s", path, strerror(errno));
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[got] = '\0';
	*len = (uint32_t)got;
	return buf;
}

Source *source_read(const char *path)
{
	Source *src;
	uint32_t len;
	char *text = read_all(path, &len);

	if (!text)
		return NULL;
	src = xcalloc(1, sizeof(*src));
	src->path = path;
	src->text = text;
	src->len = len;
	source_index_lines(src); /* first: check_text reports positions */
	if (!check_text(src)) {
		free(src->line_start);
		free(text);
		free(src);
		return NULL;
	}
	return src;
}

void source_free(Source *src)
{
	if (!src)
		return;
	free(src->line_start);
	free((char *)src->text);
	array_free(&src->hidden);
	array_free(&src->outside);
	free(src);
}

uint32_t source_bom_len(const Source *src)
{
	return src->len >= 3 && memcmp(src->text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}

void source_pos(const Source *src, uint32_t byte, uint32_t *line, uint32_t *col)
{
	uint32_t lo = 0, hi = src->nlines;

	while (hi - lo > 1) { /* last line_start <= byte */
		uint32_t mid = lo + (hi - lo) / 2;

		if (src->line_start[mid] <= byte)
			lo = mid;
		else
			hi = mid;
	}
	*line = lo + 1;
	*col = byte - src->line_start[lo] + 1;
}

void source_print_lines(FILE *out, const Source *src, uint32_t start, uint32_t end)
{
	uint32_t l1, l2, col;

	source_pos(src, start, &l1, &col);
	source_pos(src, end > start ? end - 1 : start, &l2, &col);
	if (l1 == l2)
		fprintf(out, "%u", l1);
	else
		fprintf(out, "%u-%u", l1, l2);
}

const Hidden *source_hidden_at(const Source *src, uint32_t byte)
{
	uint32_t lo = 0, hi = src->hidden.len;

	while (lo < hi) { /* first span ending after byte */
		uint32_t mid = lo + (hi - lo) / 2;

		if (src->hidden.items[mid].end <= byte)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < src->hidden.len && src->hidden.items[lo].start <= byte)
		return &src->hidden.items[lo];
	return NULL;
}
