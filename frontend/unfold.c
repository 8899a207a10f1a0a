/*
 * unfold.c - front end: macro uses that spell more than an expression,
 * expanded in the text of a source that tree-sitter cannot parse as
 * written.
 *
 * `FOR(i, n) A[i] = 0;` under `#define FOR(i, n) for (int i = 0; i < (n); i++)`
 * is C that every compiler accepts, but tree-sitter sees the text before
 * preprocessing: a call, then a statement where a ';' belongs.  So is
 * `ALIGN(64) float a[N];`, a call before a declaration.  When a source does
 * not parse, each use of a macro whose expansion holds a statement keyword,
 * a brace, a ';' or a word of a declaration (a storage class, qualifier,
 * type or attribute), and each use whose arguments are no call's (an empty
 * argument, or the arguments of a macro that pastes or stringizes them:
 * `CAT(0x, 10)`), is replaced by that expansion, made as cpp makes it
 * from the #defines in force at the use (the file's own, its headers', -D),
 * and the caller scans and parses the source again.  The output is then
 * written from the expanded text: the same program, with those uses
 * spelled out (the #defines stay).  The newlines a use spans follow its
 * replacement, so every line keeps its number.
 *
 * A use is left as written (and the syntax error stands) when its
 * expansion names a macro again (cpp had stopped there; the output's
 * compiler would not), when part of it is hidden by the scan (an inactive
 * #if between its arguments) or when the expander gives up.  Sources that
 * parse are never touched.
 */
#include <stdlib.h>
#include <string.h>
#define MTPAR_LOWERING
#include <tree_sitter/api.h>

#include "frontend.h"

/* The #defines in force at the scan's place, by interned name. */
typedef struct Defines {
	Array(const Ident *) by_name;
	const PPConstList *lists[2]; /* the source's outside and own definitions */
	uint32_t next[2];            /* entries applied from each */
} Defines;

typedef struct Edit {
	uint32_t start, end; /* the use's bytes */
	uint32_t at;         /* where its replacement starts in the new text */
	const char *text;    /* its replacement */
	uint32_t len;
	int name;
} Edit;

static const Ident *defines_lookup(int name, void *ctx)
{
	const Defines *d = ctx;

	return name > 0 && (uint32_t)name < d->by_name.len ? d->by_name.items[name] : NULL;
}

static void define_one(Defines *d, const PPConst *c)
{
	Ident *id = NULL;

	while (d->by_name.len <= (uint32_t)c->name)
		array_push(&d->by_name, NULL);
	if (c->text) {
		id = ARENA_NEW(Ident);
		id->kind = ID_MACRO;
		id->macro_params = c->params;
		id->macro_body = c->text;
	}
	d->by_name.items[c->name] = id;
}

/* Applies, in source order, the definitions made before byte at. */
static void defines_advance(Defines *d, uint32_t at)
{
	for (;;) {
		int pick = -1;

		for (int k = 0; k < 2; k++) {
			const PPConstList *l = d->lists[k];

			if (d->next[k] < l->len && l->items[d->next[k]].at < at &&
			    (pick < 0 || l->items[d->next[k]].at < d->lists[pick]->items[d->next[pick]].at))
				pick = k;
		}
		if (pick < 0)
			return;
		define_one(d, &d->lists[pick]->items[d->next[pick]++]);
	}
}

/*
 * A token that no expression holds: statement keywords and punctuation,
 * and the words of declarations (storage classes, qualifiers, types,
 * attributes), which a macro may spell before a declarator
 * (`ALIGN(64) float a[N];`, `KERNEL(scale) { ... }`).
 */
static bool beyond_expression(const PPToken *t)
{
	static const char *const words[] = {
		"for", "while", "do", "if", "else", "switch", "case", "default",
		"return", "break", "continue", "goto", "{", "}", ";",
		"static", "extern", "typedef", "register", "auto", "inline", "__inline",
		"__inline__", "_Noreturn", "_Thread_local", "const", "volatile", "restrict",
		"__restrict", "__restrict__", "_Atomic", "_Alignas", "__attribute__",
		"__attribute", "__declspec", "asm", "__asm__", "void", "char", "short", "int",
		"long", "float", "double", "signed", "unsigned", "_Bool", "_Complex", "struct",
		"union", "enum",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (pp_token_is(t, words[i]))
			return true;
	return false;
}

/*
 * Whether the expansion text can stand in the output for the use (no name
 * in it is a macro the output's preprocessor would expand again), and
 * *beyond whether it spells more than an expression.
 */
static bool expansion_plain(const Defines *d, const char *s, uint32_t len, bool *beyond)
{
	const char *end = s + len;
	PPToken t;

	*beyond = false;
	while (pp_next_token(&s, end, &t)) {
		if (t.kind == 'i' && defines_lookup(intern(t.s, t.n), (void *)d))
			return false;
		*beyond |= beyond_expression(&t);
	}
	return true;
}

/* Is the token at t the first one on its line (a directive's '#')? */
static bool starts_line(const char *text, const char *t)
{
	while (t > text && (t[-1] == ' ' || t[-1] == '\t'))
		t--;
	return t == text || t[-1] == '\n';
}

typedef struct Scan {
	const Source *src;
	Defines defs;
	uint32_t hidden;  /* the first hidden span that may lie ahead */
	Array(Edit) edits;
} Scan;

/* The hidden span that holds byte at, else NULL; spans before at are passed. */
static const Hidden *hidden_from(Scan *s, uint32_t at)
{
	const Source *src = s->src;

	while (s->hidden < src->hidden.len && src->hidden.items[s->hidden].end <= at)
		s->hidden++;
	if (s->hidden < src->hidden.len && src->hidden.items[s->hidden].start <= at)
		return &src->hidden.items[s->hidden];
	return NULL;
}

/* Does a hidden span start inside [start, end)? */
static bool hides_part(const Scan *s, uint32_t start, uint32_t end)
{
	const Source *src = s->src;

	return s->hidden < src->hidden.len && src->hidden.items[s->hidden].start < end &&
	       src->hidden.items[s->hidden].end > start;
}

/*
 * Are the use's arguments, name_end..use_end, text that tree-sitter cannot
 * read as a call's: an empty argument (`F(, x)`), or any argument of a
 * macro that pastes or stringizes them (`CAT(0x, 10)`, `STR(a b)`)?
 */
static bool odd_arguments(const Ident *m, const char *name_end, const char *use_end)
{
	PPToken t;
	int depth = 0;
	char before = 0; /* the last token at depth 1: '(' or ',' when nothing followed it */

	if (!m || !m->macro_params)
		return false;
	if (m->macro_body && strchr(m->macro_body, '#'))
		return true;
	while (pp_next_token(&name_end, use_end, &t)) {
		char c = t.kind == 'p' && t.n == 1 ? *t.s : 0;

		if (c == '(' && ++depth == 1) {
			before = '(';
			continue;
		}
		if (c == ')' && depth-- == 1)
			return before == ',';
		if (depth == 1 && c == ',') {
			if (before == '(' || before == ',')
				return true;
			before = ',';
			continue;
		}
		before = 'x';
	}
	return false;
}

/* The use of a macro at t (its name): an edit when it spells more than an expression; *p moves past it. */
static void try_use(Scan *s, const PPToken *t, const char **p, const char *end)
{
	const char *q = t->s;
	uint32_t len, start = (uint32_t)(t->s - s->src->text);
	char *text = macro_expand_use(&q, end, defines_lookup, &s->defs, &len);
	bool beyond;
	Edit e;

	if (!text)
		return;
	*p = q;
	e = (Edit){ .start = start, .end = (uint32_t)(q - s->src->text), .text = text, .len = len,
	             .name = intern(t->s, t->n) };
	if (!hides_part(s, e.start, e.end) && expansion_plain(&s->defs, text, len, &beyond) &&
	    (beyond || odd_arguments(defines_lookup(e.name, &s->defs), t->s + t->n, q)))
		array_push(&s->edits, e);
}

static void find_uses(Scan *s)
{
	const char *text = s->src->text, *p = text, *end = text + s->src->len;
	const Hidden *h;
	PPToken t;

	while (pp_next_token(&p, end, &t)) {
		uint32_t at = (uint32_t)(t.s - text);

		if ((h = hidden_from(s, at))) {
			p = text + h->end;
			continue;
		}
		if (t.kind == 'p' && t.n == 1 && *t.s == '#' && starts_line(text, t.s)) {
			p = pp_line_end(p, end);
			continue;
		}
		defines_advance(&s->defs, at);
		if (t.kind == 'i' && defines_lookup(intern(t.s, t.n), &s->defs))
			try_use(s, &t, &p, end);
	}
}

/* src's text with the edits made; each replacement is followed by the newlines its use spanned. */
static char *edited_text(const Source *src, Edit *edits, uint32_t n, uint32_t *len)
{
	Array(char) out = { 0 };
	uint32_t from = 0;
	char *text;

	for (uint32_t i = 0; i < n; i++) {
		Edit *e = &edits[i];

		for (uint32_t b = from; b < e->start; b++)
			array_push(&out, src->text[b]);
		e->at = out.len;
		for (uint32_t b = 0; b < e->len; b++)
			array_push(&out, e->text[b]);
		for (uint32_t b = e->start; b < e->end; b++)
			if (src->text[b] == '\n')
				array_push(&out, '\n');
		from = e->end;
	}
	for (uint32_t b = from; b < src->len; b++)
		array_push(&out, src->text[b]);
	*len = out.len;
	text = xmalloc((size_t)out.len + 1); /* the Source owns it: source_free frees it */
	memcpy(text, out.items, out.len);
	text[out.len] = '\0';
	array_free(&out);
	return text;
}

/* A note at each replaced use, in the new text. */
static void note_edits(const Source *src, const Edit *edits, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		remark_at(DIAG_NOTE, src, edits[i].at,
		          "macro '%s' expanded in the output: what it spells does not parse as "
		          "written",
		          intern_name(edits[i].name));
}

bool unfold_macros(Source *src)
{
	Scan s = { .src = src, .defs.lists = { &src->outside, &src->own } };
	bool changed;

	find_uses(&s);
	changed = s.edits.len > 0;
	if (changed) {
		uint32_t len;
		char *text = edited_text(src, s.edits.items, s.edits.len, &len);

		free((char *)src->text);
		free(src->line_start);
		src->text = text;
		src->len = len;
		source_index_lines(src);
		note_edits(src, s.edits.items, s.edits.len);
	}
	array_free(&s.edits);
	array_free(&s.defs.by_name);
	return changed;
}
