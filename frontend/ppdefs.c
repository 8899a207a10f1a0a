/*
 * ppdefs.c - front end, what the text defines for the later stages: the
 * #define lines of a source outside inactive #if branches, the identifiers
 * that start the items of enum bodies, and the small C tokenizer (blanks,
 * comments and line continuations skipped) the middle end reads macro
 * bodies and hidden initializers with.  Iterators that allocate nothing:
 * names stay text, and the stage that reads them interns them in its order.
 */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

const char *pp_line_end(const char *p, const char *end)
{
	while (p < end && !(*p == '\n' && p[-1] != '\\'))
		p++;
	return p;
}

/* Blanks, newlines, backslashes and comments from s: the first byte of a token, or end. */
static const char *skip_space(const char *s, const char *end)
{
	for (;;) {
		while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == '\\'))
			s++;
		if (s + 1 < end && s[0] == '/' && s[1] == '*') {
			const char *c = s + 2;
			while (c + 1 < end && !(c[0] == '*' && c[1] == '/'))
				c++;
			s = c + 2 < end ? c + 2 : end;
			continue;
		}
		if (s + 1 < end && s[0] == '/' && s[1] == '/') {
			s = pp_line_end(s, end);
			continue;
		}
		return s;
	}
}

/* s at a punctuator: the byte after it (two characters, or <<= and >>=). */
static const char *punct_end(const char *s, const char *end)
{
	static const char *const two[] = { "==", "!=", "<=", ">=", "&&", "||", "<<", ">>",
	                                   "++", "--", "+=", "-=", "*=", "/=", "%=", "&=",
	                                   "|=", "^=", "->", "##" };
	const char *start = s++;

	for (size_t i = 0; i < sizeof(two) / sizeof(two[0]); i++)
		if (s < end && s[-1] == two[i][0] && s[0] == two[i][1]) {
			s++;
			break;
		}
	if (s - start == 2 && s < end && *s == '=' && (start[0] == '<' || start[0] == '>'))
		s++; /* <<= >>= */
	return s;
}

bool pp_next_token(const char **p, const char *end, PPToken *t)
{
	const char *s = skip_space(*p, end);

	if (s >= end)
		return false;
	t->s = s;
	if (is_ident_start(*s)) {
		while (s < end && is_ident_char(*s))
			s++;
		t->kind = 'i';
	} else if ((*s >= '0' && *s <= '9') || (*s == '.' && s + 1 < end && s[1] >= '0' && s[1] <= '9')) {
		while (s < end && (is_ident_char(*s) || *s == '.' ||
		                   ((*s == '+' || *s == '-') && (s[-1] == 'e' || s[-1] == 'E' ||
		                                                 s[-1] == 'p' || s[-1] == 'P'))))
			s++;
		t->kind = 'n';
	} else if (*s == '"' || *s == '\'') {
		char q = *s++;
		while (s < end && *s != q)
			s += *s == '\\' ? 2 : 1;
		s = s < end ? s + 1 : end;
		t->kind = 's';
	} else {
		t->kind = 'p';
		s = punct_end(s, end);
	}
	t->n = (uint32_t)(s - t->s);
	*p = s;
	return true;
}

bool pp_token_is(const PPToken *t, const char *s)
{
	return t->n == strlen(s) && memcmp(t->s, s, t->n) == 0;
}

bool pp_token_int(const PPToken *t, int64_t *v)
{
	char buf[32], *endp;
	uint32_t n = t->n;

	if (t->kind != 'n' || n >= sizeof(buf))
		return false;
	while (n > 0 && (t->s[n - 1] == 'u' || t->s[n - 1] == 'U' || t->s[n - 1] == 'l' ||
	                 t->s[n - 1] == 'L'))
		n--;
	memcpy(buf, t->s, n);
	buf[n] = '\0';
	if (strpbrk(buf, ".eEpP") && !(buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')))
		return false;
	*v = strtoll(buf, &endp, 0);
	return *endp == '\0';
}

/*
 * The #define line whose directive name ends at p (the logical line ends at
 * e): its name, parameters and body.  False when no identifier follows.
 */
static bool read_define(const char *p, const char *e, PPMacroDef *m)
{
	PPToken t;

	memset(m, 0, sizeof(*m));
	if (!pp_next_token(&p, e, &t) || t.kind != 'i')
		return false;
	m->name = t.s;
	m->name_len = t.n;
	if (p < e && *p == '(') {
		m->is_func = true;
		m->params = p + 1;
		while (p < e && *p != ')')
			p++;
		m->params_end = p;
		p = p < e ? p + 1 : e;
	}
	m->body = p;
	m->end = e;
	return true;
}

/*
 * A line that starts with '#define' (blanks allowed around the '#') whose
 * '#' is not in an inactive #if branch.
 */
bool pp_next_define(const Source *src, uint32_t *line, PPMacroDef *def)
{
	const char *text = src->text, *end = text + src->len;

	while (*line < src->nlines) {
		const char *p = text + src->line_start[(*line)++], *e;
		const Hidden *h;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end || *p != '#')
			continue;
		h = source_hidden_at(src, (uint32_t)(p - text));
		if (h && h->kind == HIDE_INACTIVE)
			continue;
		p++;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end - p < 7 || memcmp(p, "define", 6) != 0 || is_ident_char(p[6]))
			continue;
		p += 6;
		e = pp_line_end(p, end);
		if (read_define(p, e, def))
			return true;
	}
	return false;
}

void pp_enum_scan_init(PPEnumScan *es, const Source *src)
{
	memset(es, 0, sizeof(*es));
	es->p = src->text;
	es->end = src->text + src->len;
}

/* Past the '{' of the next 'enum [tag] {'; false at the end of the text. */
static bool find_enum_body(PPEnumScan *es)
{
	PPToken t;

	while (pp_next_token(&es->p, es->end, &t)) {
		if (!(t.kind == 'i' && pp_token_is(&t, "enum")))
			continue;
		if (!pp_next_token(&es->p, es->end, &t))
			return false;
		if (t.kind == 'i' && !pp_next_token(&es->p, es->end, &t))
			return false;
		if (pp_token_is(&t, "{"))
			return true;
	}
	return false;
}

/*
 * An identifier that starts an item of an enum body: the first token of
 * the body or the first after a ',' outside parentheses and braces.
 */
bool pp_next_enumerator(PPEnumScan *es, PPToken *t)
{
	for (;;) {
		if (!es->in_body) {
			if (!find_enum_body(es))
				return false;
			es->in_body = es->item_start = true;
			es->depth = 0;
		}
		if (!pp_next_token(&es->p, es->end, t) ||
		    (es->depth == 0 && pp_token_is(t, "}"))) {
			es->in_body = false;
			continue;
		}
		if (pp_token_is(t, "(") || pp_token_is(t, "{")) {
			es->depth++;
		} else if (pp_token_is(t, ")") || pp_token_is(t, "}")) {
			es->depth--;
		} else if (es->depth == 0 && pp_token_is(t, ",")) {
			es->item_start = true;
		} else if (es->item_start && t->kind == 'i') {
			es->item_start = false;
			return true;
		} else {
			es->item_start = false;
		}
	}
}

bool pp_int_literal(const char *s, size_t len, int64_t *out)
{
	char buf[64], *p = buf, *end;
	bool neg = false;
	uint64_t v;

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if ((end = strstr(buf, "//")) || (end = strstr(buf, "/*")))
		*end = '\0';
	while (*p == ' ' || *p == '\t' || *p == '(')
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (*p < '0' || *p > '9')
		return false;
	v = strtoull(p, &end, 0);
	while (*end && strchr("uUlL", *end))
		end++;
	while (*end == ' ' || *end == '\t' || *end == ')' || *end == '\r')
		end++;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return *end == '\0';
}
