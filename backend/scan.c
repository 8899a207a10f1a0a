/*
 * scan.c - back end: scanning the source text that the generator edits,
 * where the IR has no node: a function's declarator and its parameter
 * list, the blanks and comments between tokens, a line's indentation.
 */
#include <string.h>

#include "backend.h"

uint32_t scan_line(const Source *src, uint32_t byte)
{
	uint32_t line, col;

	source_pos(src, byte, &line, &col);
	return line;
}

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$';
}

/* Past the comment or literal at i, or i itself when there is none. */
static uint32_t skip_comment_or_literal(const char *t, uint32_t i, uint32_t end)
{
	char q;

	if (i + 1 < end && t[i] == '/' && t[i + 1] == '*') {
		for (i += 2; i + 1 < end && !(t[i] == '*' && t[i + 1] == '/'); i++)
			;
		return i + 2 <= end ? i + 2 : end;
	}
	if (i + 1 < end && t[i] == '/' && t[i + 1] == '/') {
		while (i < end && t[i] != '\n')
			i++;
		return i;
	}
	if (t[i] != '"' && t[i] != '\'')
		return i;
	q = t[i];
	for (i++; i < end && t[i] != q && t[i] != '\n'; i++)
		if (t[i] == '\\')
			i++;
	return i < end ? i + 1 : end;
}

/*
 * The next identifier of t from *i on, outside comments and literals:
 * true with its bytes [*start, *i); false at end.
 */
static bool next_ident(const char *t, uint32_t *i, uint32_t end, uint32_t *start)
{
	while (*i < end) {
		uint32_t j = skip_comment_or_literal(t, *i, end);

		if (j != *i) {
			*i = j;
			continue;
		}
		if (!is_ident_char(t[*i])) {
			(*i)++;
			continue;
		}
		for (*start = *i; *i < end && is_ident_char(t[*i]); (*i)++)
			;
		return true;
	}
	return false;
}

/* Past blanks and comments from i. */
uint32_t scan_skip_blanks(const char *t, uint32_t i, uint32_t end)
{
	for (;;) {
		uint32_t j;

		while (i < end && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r' ||
		                   t[i] == '\f' || t[i] == '\v'))
			i++;
		if (i >= end || t[i] != '/')
			return i;
		j = skip_comment_or_literal(t, i, end);
		if (j == i)
			return i;
		i = j;
	}
}

/*
 * The declarator name of f's definition: the first occurrence of the name,
 * outside comments and literals, that is followed by '(' (after blanks).
 * Fills the name's offset, its '(' and the matching ')'.
 */
bool scan_declarator(const Func *f, uint32_t *name_at, uint32_t *lparen, uint32_t *rparen)
{
	const char *t = f->src->text, *name = intern_name(f->name);
	uint32_t n = (uint32_t)strlen(name), end = f->body->start, i = f->start, at;

	while (next_ident(t, &i, end, &at)) {
		uint32_t j, k = scan_skip_blanks(t, i, end);
		int depth;

		if (i - at != n || memcmp(t + at, name, n) != 0 || k >= end || t[k] != '(')
			continue;
		*name_at = at;
		*lparen = k;
		for (depth = 0, j = k; j < end; j++) {
			uint32_t m = skip_comment_or_literal(t, j, end);

			if (m != j) {
				j = m - 1;
				continue;
			}
			if (t[j] == '(')
				depth++;
			if (t[j] == ')' && --depth == 0) {
				*rparen = j;
				return true;
			}
		}
		return false;
	}
	return false;
}

/* Is the parameter list between lparen and rparen empty or `void`? */
bool scan_params_empty(const char *t, uint32_t lparen, uint32_t rparen)
{
	uint32_t i = scan_skip_blanks(t, lparen + 1, rparen);

	if (i == rparen)
		return true;
	if (rparen - i < 4 || memcmp(t + i, "void", 4) != 0)
		return false;
	return scan_skip_blanks(t, i + 4, rparen) == rparen;
}

/* The blanks that start the line holding byte at. */
const char *scan_indent(const Source *src, uint32_t at)
{
	uint32_t s = at, e;

	while (s > 0 && src->text[s - 1] != '\n')
		s--;
	for (e = s; e < at && (src->text[e] == ' ' || src->text[e] == '\t'); e++)
		;
	return arena_strndup(src->text + s, e - s);
}

/* Start of the line holding byte at. */
static uint32_t line_begin(const char *t, uint32_t at)
{
	while (at > 0 && t[at - 1] != '\n')
		at--;
	return at;
}

/* From p, past spaces and tabs, but not beyond end. */
static uint32_t skip_indent(const char *t, uint32_t p, uint32_t end)
{
	while (p < end && (t[p] == ' ' || t[p] == '\t'))
		p++;
	return p;
}

/* Start of the logical line that ends just before ls (backslash continuations joined). */
static uint32_t logical_line_before(const char *t, uint32_t ls)
{
	uint32_t s = line_begin(t, ls - 1), e;

	for (;;) {
		if (s < 2)
			return s;
		e = s - 1; /* the previous line's '\n' */
		if (e > 0 && t[e - 1] == '\r')
			e--;
		if (e == 0 || t[e - 1] != '\\')
			return s;
		s = line_begin(t, s - 1);
	}
}

/* Is the line from ps to the newline at ls - 1 a #pragma directive's? */
static bool pragma_directive_line(const char *t, uint32_t ps)
{
	uint32_t q = ps;

	while (t[q] == ' ' || t[q] == '\t')
		q++;
	if (t[q] != '#')
		return false;
	q++;
	while (t[q] == ' ' || t[q] == '\t')
		q++;
	return strncmp(t + q, "pragma", 6) == 0 && (t[q + 6] == ' ' || t[q + 6] == '\t');
}

uint32_t scan_pragmas_before(const Source *src, uint32_t start)
{
	const char *t = src->text;
	uint32_t s = start;

	for (;;) {
		uint32_t ls = line_begin(t, s), ps, q;

		q = source_skip_pragmas(src, ls, s); /* `_Pragma(...) for`: from the operator */
		if (q < s || ls == 0)
			return q == s && ls < s ? skip_indent(t, ls, s) : s;
		s = skip_indent(t, ls, s);
		ps = logical_line_before(t, ls);
		q = skip_indent(t, ps, ls);
		if (source_pragma_at(src, q) && source_skip_pragmas(src, q, ls) >= ls - 1)
			s = q; /* a line of pragma operators */
		else if (pragma_directive_line(t, ps))
			s = q; /* the '#': its indentation stays outside */
		else
			return s;
	}
}

/* Does a line of t in [start, end), outside comments, begin with '#' (a directive)? */
bool scan_has_directive(const char *t, uint32_t start, uint32_t end)
{
	bool line_start = true;

	for (uint32_t i = start; i < end;) {
		uint32_t j = skip_comment_or_literal(t, i, end);

		if (j != i) {
			i = j;
			continue;
		}
		if (t[i] == '#' && line_start)
			return true;
		if (t[i] == '\n')
			line_start = true;
		else if (t[i] != ' ' && t[i] != '\t' && t[i] != '\r')
			line_start = false;
		i++;
	}
	return false;
}

static const char *const c_words[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
	"enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
	"restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
	"union", "unsigned", "void", "volatile", "while", "_Alignas", "_Alignof", "_Atomic", "_Bool",
	"_Complex", "_Noreturn", "_Thread_local", "__inline", "__inline__", "__restrict",
	"__restrict__", "__const", "__volatile__", "__signed__", "__extension__", "__typeof__",
	"typeof", "__int128",
};

static bool c_word(const char *p, uint32_t n)
{
	for (size_t i = 0; i < sizeof(c_words) / sizeof(*c_words); i++)
		if (strlen(c_words[i]) == n && memcmp(c_words[i], p, n) == 0)
			return true;
	return false;
}

/* Does the identifier [p, p + n) occur as a token of t in [0, end), outside comments? */
static bool token_before(const char *t, uint32_t end, const char *p, uint32_t n)
{
	uint32_t i = 0, at;

	while (next_ident(t, &i, end, &at))
		if (i - at == n && memcmp(t + at, p, n) == 0)
			return true;
	return false;
}

/* Is [p, p + n) the name of one of f's parameters, or f's own? */
static bool own_name(const Func *f, const char *p, uint32_t n)
{
	const char *name = intern_name(f->name);

	if (strlen(name) == n && memcmp(name, p, n) == 0)
		return true;
	for (uint32_t i = 0; i < f->params.len; i++) {
		name = intern_name(f->params.items[i]->name);
		if (strlen(name) == n && memcmp(name, p, n) == 0)
			return true;
	}
	return false;
}

/* Past the balanced parentheses that follow i (blanks first), or i when none do. */
static uint32_t skip_parens(const char *t, uint32_t i, uint32_t end)
{
	uint32_t k = scan_skip_blanks(t, i, end);
	int depth = 0;

	if (k >= end || t[k] != '(')
		return i;
	for (; k < end; k++) {
		uint32_t m = skip_comment_or_literal(t, k, end);

		if (m != k) {
			k = m - 1;
			continue;
		}
		depth += (t[k] == '(') - (t[k] == ')');
		if (depth == 0)
			return k + 1;
	}
	return end;
}

const char *scan_late_name(const Func *f, uint32_t before)
{
	const char *t = f->src->text;
	uint32_t end = f->body->start, i = f->start, at;

	while (next_ident(t, &i, end, &at)) {
		uint32_t n = i - at;

		if ((n == 13 && memcmp(t + at, "__attribute__", 13) == 0) ||
		    (n == 11 && memcmp(t + at, "__attribute", 11) == 0))
			i = skip_parens(t, i, end); /* `noinline` is no name of the program's */
		else if (t[at] < '0' || t[at] > '9') /* a number's digits and suffix */
			if (!c_word(t + at, n) && !own_name(f, t + at, n) && !token_before(t, before, t + at, n))
				return arena_strndup(t + at, n);
	}
	return NULL;
}
