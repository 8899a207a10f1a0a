/*
 * source.c - input files (from disk, standard input or memory) and byte
 * offset to line:col.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "frontend.h"

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
	FILE *f;
	struct stat st;
	char *buf;
	size_t got;

	/* a FIFO or a device would block the open: refused by its stat first */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		error_plain("%s: not a regular file of at most 4 GB", path);
		return NULL;
	}
	f = fopen(path, "rb");
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

/* Standard input, to its end (the "-" of the command line). */
static char *read_stdin(uint32_t *len)
{
	size_t n = 0, cap = 1 << 16, got;
	char *buf = xmalloc(cap + 1);

	while ((got = fread(buf + n, 1, cap - n, stdin)) > 0) {
		n += got;
		if (n >= UINT32_MAX) {
			error_plain("<stdin>: more than 4 GB of input");
			free(buf);
			return NULL;
		}
		if (n == cap)
			buf = xrealloc(buf, (cap *= 2) + 1);
	}
	if (ferror(stdin)) {
		error_plain("<stdin>: read error: %s", strerror(errno));
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = (uint32_t)n;
	return buf;
}

/* Does a line of src start with "#line" or a linemarker ("# 12 "file"")? */
static bool has_line_markers(const Source *src)
{
	for (uint32_t i = 0; i < src->nlines; i++) {
		const char *p = src->text + src->line_start[i], *end = src->text + src->len;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end || *p++ != '#')
			continue;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if ((p < end && *p >= '0' && *p <= '9') ||
		    (end - p > 4 && memcmp(p, "line", 4) == 0 && (p[4] == ' ' || p[4] == '\t')))
			return true;
	}
	return false;
}

/* A source over text (owned from now on), or NULL after a diagnostic. */
static Source *source_over(const char *path, char *text, uint32_t len)
{
	Source *src = xcalloc(1, sizeof(*src));

	src->path = path;
	src->text = text;
	src->len = len;
	source_index_lines(src); /* first: check_text reports positions */
	src->has_line_markers = has_line_markers(src);
	if (!check_text(src)) {
		free(src->line_start);
		free(text);
		free(src);
		return NULL;
	}
	return src;
}

Source *source_read(const char *path)
{
	uint32_t len;
	char *text = read_all(path, &len);

	return text ? source_over(path, text, len) : NULL;
}

Source *source_read_stdin(void)
{
	uint32_t len;
	char *text = read_stdin(&len);
	Source *src = text ? source_over("<stdin>", text, len) : NULL;

	if (src)
		src->from_stdin = true;
	return src;
}

Source *source_from_text(const char *name, const char *text, size_t len)
{
	char *copy;

	if (len >= UINT32_MAX) {
		error_plain("%s: not a source of at most 4 GB", name);
		return NULL;
	}
	copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	return source_over(name, copy, (uint32_t)len);
}

void source_free(Source *src)
{
	if (!src)
		return;
	free(src->line_start);
	free((char *)src->text);
	array_free(&src->hidden);
	array_free(&src->outside);
	array_free(&src->own);
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

const char *source_pragma_words(const Source *src, const Hidden *h)
{
	const char *p;

	if (h->kind == HIDE_PRAGMA)
		p = src->text + h->start;
	else if (h->kind == HIDE_MACRO && h->expansion)
		p = strstr(h->expansion, "_Pragma");
	else
		return NULL;
	if (!p || !(p = strchr(p, '"')))
		return NULL;
	for (p++; *p == ' ' || *p == '\t'; p++)
		;
	return p;
}

bool source_has_conditional(const Source *src, uint32_t start, uint32_t end)
{
	for (uint32_t i = 0; i < src->hidden.len; i++) {
		const Hidden *h = &src->hidden.items[i];

		if (h->start < end && h->end > start &&
		    (h->kind == HIDE_DIRECTIVE || h->kind == HIDE_INACTIVE))
			return true;
	}
	return false;
}

const char *source_pragma_at(const Source *src, uint32_t p)
{
	const Hidden *h = source_hidden_at(src, p);

	return h && h->start == p ? source_pragma_words(src, h) : NULL;
}

uint32_t source_skip_pragmas(const Source *src, uint32_t p, uint32_t end)
{
	for (;;) {
		while (p < end && (src->text[p] == ' ' || src->text[p] == '\t' || src->text[p] == '\r'))
			p++;
		if (p >= end || !source_pragma_at(src, p))
			return p;
		p = source_hidden_at(src, p)->end;
	}
}
