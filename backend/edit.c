/*
 * edit.c - back end, the rewriter: every change to the input is an Edit
 * keyed by byte offset; they are sorted once and applied in one pass over
 * the original text, so everything not edited comes out byte for byte.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

static void add(EditList *list, uint32_t start, uint32_t end, const char *text)
{
	Edit e = { start, end, text, list->edits.len };

	if (end < start)
		die("edit with end %u before start %u", end, start);
	array_push(&list->edits, e);
}

void edit_insert(EditList *list, uint32_t at, const char *text)
{
	add(list, at, at, text);
}

void edit_replace(EditList *list, uint32_t start, uint32_t end, const char *text)
{
	add(list, start, end, text);
}

/* By start offset; at one offset insertions first, then in the order made. */
static int cmp_edit(const void *pa, const void *pb)
{
	const Edit *a = pa, *b = pb;
	bool ains = a->start == a->end, bins = b->start == b->end;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (ains != bins)
		return ains ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Where the compiler stands in the output: the line it numbers next. */
typedef struct LineState {
	uint32_t line; /* as the output's #line directives and newlines make it */
	bool bol;      /* at the start of a line */
} LineState;

/*
 * A "#line N" or "# N" directive at p (before end): its N, else 0.  *file,
 * *flen: the name it gives, as written between its quotes (NULL: none).
 */
static unsigned long marker_at(const char *p, const char *end, const char **file, uint32_t *flen)
{
	unsigned long n;
	char *after;

	*file = NULL;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p++ != '#')
		return 0;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p > 5 && memcmp(p, "line", 4) == 0 && (p[4] == ' ' || p[4] == '\t'))
		p += 5;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p < '0' || *p > '9')
		return 0;
	n = strtoul(p, &after, 10);
	for (p = after; p < end && (*p == ' ' || *p == '\t'); p++)
		;
	if (p < end && *p == '"') {
		const char *q = ++p;

		while (q < end && *q != '"' && *q != '\n')
			q += *q == '\\' ? 2 : 1;
		if (q < end && *q == '"') {
			*file = p;
			*flen = (uint32_t)(q - p);
		}
	}
	return n;
}

/* Writes text, following its newlines and any "#line N" or "# N" it holds. */
static void put_text(FILE *out, const char *text, size_t n, LineState *ls)
{
	const char *p = text, *end = text + n;

	fwrite(text, 1, n, out);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *file;
		unsigned long set = 0;
		uint32_t flen;

		if (ls->bol)
			set = marker_at(p, nl ? nl : end, &file, &flen);
		if (!nl) {
			ls->bol = false;
			return;
		}
		ls->line = set ? (uint32_t)set : ls->line + 1;
		ls->bol = true;
		p = nl + 1;
	}
}

/* Does the line before line (1-based) end in a backslash: is line a continuation? */
static bool continues(const Source *src, uint32_t line)
{
	uint32_t k = line > 1 ? src->line_start[line - 1] - 1 : 0; /* the '\n' before it */

	if (k > 0 && src->text[k - 1] == '\r')
		k--;
	return k > 0 && src->text[k - 1] == '\\';
}

/* The '#' of the directive whose (continued) line holds byte at, or UINT32_MAX. */
static uint32_t directive_start(const Source *src, uint32_t at)
{
	uint32_t line, col, start;

	source_pos(src, at, &line, &col);
	while (continues(src, line))
		line--;
	start = src->line_start[line - 1];
	while (start < at && (src->text[start] == ' ' || src->text[start] == '\t'))
		start++;
	return start < at && src->text[start] == '#' ? start : UINT32_MAX;
}

/* Is byte at in a preprocessor directive, where a newline would cut it? */
static bool in_directive(const Source *src, uint32_t at)
{
	return directive_start(src, at) != UINT32_MAX;
}

/*
 * Is line (1-based) empty, a #pragma directive's first line, or only pragma
 * operators?  The first pragma's '#' or `_Pragma` goes in *hash.
 */
static bool blank_or_pragma(const Source *src, uint32_t line, uint32_t *hash)
{
	const char *t = src->text;
	uint32_t p = src->line_start[line - 1];
	uint32_t eol = line < src->nlines ? src->line_start[line] - 1 : src->len;

	*hash = UINT32_MAX;
	while (p < src->len && (t[p] == ' ' || t[p] == '\t' || t[p] == '\r'))
		p++;
	if (p >= src->len || t[p] == '\n')
		return true;
	if (source_pragma_at(src, p) && source_skip_pragmas(src, p, eol) == eol) {
		*hash = p;
		return true;
	}
	if (t[p] != '#' || continues(src, line))
		return false;
	*hash = p++;
	while (p < src->len && (t[p] == ' ' || t[p] == '\t'))
		p++;
	return src->len - p > 6 && memcmp(t + p, "pragma", 6) == 0 &&
	       (t[p + 6] == ' ' || t[p + 6] == '\t');
}

uint32_t edit_pragmas_before(const Source *src, uint32_t at)
{
	uint32_t line, col, first, hash, ls;

	source_pos(src, at, &line, &col);
	ls = src->line_start[line - 1];
	if (source_skip_pragmas(src, ls, at) != at)
		return at; /* the statement does not start its line */
	for (first = ls; first < at && (src->text[first] == ' ' || src->text[first] == '\t'); first++)
		; /* `_Pragma(...) for (...)`: from the operator */
	while (--line >= 1 && blank_or_pragma(src, line, &hash))
		if (hash != UINT32_MAX)
			first = hash;
	return first;
}

/* Are the pragma's words (after `#pragma` or in `_Pragma("`) about the loop after it? */
static bool is_loop_words(const char *p, const char *end)
{
	static const char *const words[] = { "omp", "GCC ivdep", "GCC unroll", "GCC novector",
	                                     "unroll", "nounroll", "clang loop" };

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t n = strlen(words[i]);

		if ((size_t)(end - p) >= n && memcmp(p, words[i], n) == 0 &&
		    (p + n == end || strchr(" \t\r\n(\"", p[n])))
			return true;
	}
	return false;
}

/*
 * Does the #pragma at '#' hash, or the pragma operator there, annotate the
 * loop after it (OpenMP, GCC's ivdep, unroll and novector, clang's loop):
 * words that a chunk may drop?
 */
static bool is_loop_pragma(const Source *src, uint32_t hash)
{
	const char *t = src->text, *words = source_pragma_at(src, hash);
	uint32_t p = hash + 1;

	if (words)
		return is_loop_words(words, words + strlen(words));
	while (p < src->len && (t[p] == ' ' || t[p] == '\t'))
		p++;
	return is_loop_words(t + p + 6, t + src->len); /* past "pragma", which blank_or_pragma saw */
}

static uint32_t directive_end(const Source *src, uint32_t pos);

/* Drops the loop pragmas on the line that starts at ls, before byte at. */
static void drop_line_pragmas(EditList *list, const Source *src, uint32_t ls, uint32_t at)
{
	static const char note[] = "/* mtpar: the loop is split here: its own #pragma dropped */";
	uint32_t hash, line, col, p = ls;

	source_pos(src, ls, &line, &col);
	if (blank_or_pragma(src, line, &hash) && hash != UINT32_MAX && src->text[hash] == '#') {
		if (is_loop_pragma(src, hash))
			edit_replace(list, hash, directive_end(src, hash) - 1, note);
		return;
	}
	for (;;) {
		while (p < at && (src->text[p] == ' ' || src->text[p] == '\t'))
			p++;
		if (p >= at || !source_pragma_at(src, p))
			return;
		if (is_loop_pragma(src, p))
			edit_replace(list, p, source_hidden_at(src, p)->end, note);
		p = source_hidden_at(src, p)->end;
	}
}

void edit_drop_loop_pragmas(EditList *list, const Source *src, uint32_t at)
{
	uint32_t line, col;

	source_pos(src, edit_pragmas_before(src, at), &line, &col);
	for (; src->line_start[line - 1] < at; line++)
		drop_line_pragmas(list, src, src->line_start[line - 1], at);
}

/*
 * The byte after the newline that ends the directive holding pos: past its
 * continuations and any block comment that spans lines.
 */
static uint32_t directive_end(const Source *src, uint32_t pos)
{
	const char *t = src->text;
	uint32_t i = directive_start(src, pos);
	bool comment = false;

	for (i = i == UINT32_MAX ? pos : i; i < src->len; i++) {
		if (comment) {
			comment = !(t[i] == '*' && i + 1 < src->len && t[i + 1] == '/');
			i += !comment;
		} else if (t[i] == '/' && i + 1 < src->len && t[i + 1] == '*') {
			comment = true;
			i++;
		} else if (t[i] == '"' || t[i] == '\'') {
			char q = t[i];

			while (++i < src->len && t[i] != q && t[i] != '\n')
				i += t[i] == '\\';
		} else if (t[i] == '\n') {
			uint32_t line, col;

			source_pos(src, i + 1 < src->len ? i + 1 : i, &line, &col);
			if (i + 1 >= src->len || !continues(src, line))
				return i + 1;
		}
	}
	return src->len;
}

/*
 * Where the compiler puts physical line `line` of src: that line of src's
 * path, or, after the input's own #line or "# N" markers, the line and
 * file they make it (*file as written in the last marker that names one,
 * NULL for src's path).
 */
static uint32_t presumed_line(const Source *src, uint32_t line, const char **file, uint32_t *flen)
{
	uint32_t presumed = line;
	bool numbered = false;

	*file = NULL;
	for (uint32_t l = line - 1; src->has_line_markers && l >= 1; l--) {
		const char *p = src->text + src->line_start[l - 1], *f;
		const char *e = l < src->nlines ? src->text + src->line_start[l] : src->text + src->len;
		unsigned long n = continues(src, l) ? 0 : marker_at(p, e, &f, flen);

		if (!n)
			continue;
		if (!numbered)
			presumed = (uint32_t)n + (line - l - 1);
		numbered = true;
		if (f) {
			*file = f;
			return presumed;
		}
	}
	return presumed;
}

static void put_path(FILE *out, const char *path)
{
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\%03o", *p); /* a name from a library caller may hold anything */
		else if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else
			fputc(*p, out);
	}
}

/*
 * #line before the original text at pos, if the output's numbering has
 * drifted.  False when it has but pos is inside a directive, where no
 * newline may go.
 */
static bool resync_lines(const Source *src, uint32_t pos, FILE *out, LineState *ls)
{
	uint32_t line, col, presumed, flen = 0;
	const char *file;

	source_pos(src, pos, &line, &col);
	presumed = presumed_line(src, line, &file, &flen);
	if (presumed == ls->line)
		return true;
	if (in_directive(src, pos))
		return false;
	if (pos == source_bom_len(src))
		col = 1; /* the byte-order mark is not a column */
	if (!ls->bol)
		fputc('\n', out);
	fprintf(out, "#line %u \"", presumed);
	if (file)
		fwrite(file, 1, flen, out); /* escaped as the input's marker has it */
	else
		put_path(out, src->path);
	fputs("\"\n", out);
	for (uint32_t i = 0; i + 1 < col; i++) /* the column too: blanks under the line's prefix */
		fputc(src->text[src->line_start[line - 1] + i] == '\t' ? '\t' : ' ', out);
	ls->line = presumed;
	ls->bol = col == 1;
	return true;
}

/* Original bytes [pos, to), after a #line where needed: past a directive, at the next line. */
static void put_source(const Source *src, uint32_t pos, uint32_t to, bool lines, FILE *out,
                       LineState *ls)
{
	while (lines && pos < to && !resync_lines(src, pos, out, ls)) {
		uint32_t eol = directive_end(src, pos);

		eol = eol < to ? eol : to;
		put_text(out, src->text + pos, eol - pos, ls);
		pos = eol;
	}
	put_text(out, src->text + pos, to - pos, ls);
}

/* Writes bytes [start, end) of src with the edits applied; all edits lie inside. */
static bool apply_range(const Source *src, EditList *list, uint32_t start, uint32_t end,
                        bool copy, FILE *out)
{
	uint32_t pos = start;
	LineState ls = { 1, true };
	bool lines = list->line_directives;

	if (end > src->len || start > end)
		die("range [%u, %u) outside %s", start, end, src->path);
	if (list->edits.len > 1) /* qsort's pointer must not be NULL, even for no items */
		qsort(list->edits.items, list->edits.len, sizeof(Edit), cmp_edit);
	if (copy) /* lands anywhere, mid-line too: its first #line says where it comes from */
		ls = (LineState){ 0, false };
	for (uint32_t i = 0; i < list->edits.len; i++) {
		const Edit *e = &list->edits.items[i];

		if (e->start < pos)
			die("overlapping edits at byte %u of %s", e->start, src->path);
		if (e->end > end)
			die("edit past the end of %s", src->path);
		put_source(src, pos, e->start, lines, out, &ls);
		put_text(out, e->text, strlen(e->text), &ls);
		pos = e->end;
	}
	put_source(src, pos, end, lines, out, &ls);
	return !ferror(out);
}

bool edit_apply(const Source *src, EditList *list, FILE *out)
{
	return apply_range(src, list, 0, src->len, false, out);
}

char *edit_apply_range(const Source *src, EditList *list, uint32_t start, uint32_t end)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	if (!out || !apply_range(src, list, start, end, true, out) || fclose(out) != 0)
		die("cannot build text in memory");
	return buf;
}

typedef struct EditedSource {
	const Source *src;
	EditList *list;
} EditedSource;

static bool write_edited(FILE *out, void *ctx)
{
	EditedSource *e = ctx;

	return edit_apply(e->src, e->list, out);
}

bool edit_write_file(const Source *src, EditList *list, const char *path)
{
	EditedSource e = { src, list };

	switch (output_write(path, write_edited, &e)) {
	case OUTPUT_OK:
		return true;
	case OUTPUT_CANNOT_CREATE:
		error_plain("%s: cannot create output: %s", path, strerror(errno));
		return false;
	case OUTPUT_CANNOT_WRITE:
		break;
	}
	error_plain("%s: cannot write output: %s", path, strerror(errno));
	return false;
}
