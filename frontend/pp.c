/*
 * pp.c - the preprocessor scan, first stage of the front end.  The text is
 * never rewritten: one lexical pass lists the byte ranges tree-sitter must
 * skip (inactive #if branches and the directives that chose them, macros and
 * __attribute__ lists that stand for declaration specifiers, large constant
 * initializers); ppexpr.c evaluates #if as cpp does (C17 6.10.1).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MTPAR_PP
#include "frontend.h"

enum {
	INCLUDE_DEPTH_MAX = 200,  /* nested #include, as GCC's default -fmax-include-depth */
	INITIALIZER_MIN_DEFAULT = 4096,
};

/* ------------------------------------------------------------------ */
/* Lexical helpers over NUL-terminated text                            */
/* ------------------------------------------------------------------ */

enum {
	CC_PUNCT, CC_BLANK, CC_NEWLINE, CC_IDENT, CC_DIGIT, CC_DOT, CC_QUOTE,
	CC_SLASH, CC_HASH, CC_BACKSLASH, CC_LBRACE, CC_RBRACE, CC_EQUAL,
};

static unsigned char cclass[256];
bool pp_ident_char[256]; /* letters, digits, '_', '$' and UTF-8 bytes */

static void init_tables(void)
{
	for (int c = 0; c < 256; c++) {
		bool alpha = (c | 0x20) >= 'a' && (c | 0x20) <= 'z';

		pp_ident_char[c] = alpha || (c >= '0' && c <= '9') || c == '_' ||
		                c == '$' || c >= 0x80;
		cclass[c] = pp_ident_char[c] ? CC_IDENT : CC_PUNCT;
	}
	for (int c = '0'; c <= '9'; c++)
		cclass[c] = CC_DIGIT;
	cclass[' '] = cclass['\t'] = cclass['\v'] = cclass['\f'] = CC_BLANK;
	cclass['\r'] = CC_BLANK;
	cclass['\n'] = CC_NEWLINE;
	cclass['.'] = CC_DOT;
	cclass['"'] = cclass['\''] = CC_QUOTE;
	cclass['/'] = CC_SLASH;
	cclass['#'] = CC_HASH;
	cclass['\\'] = CC_BACKSLASH;
	cclass['{'] = CC_LBRACE;
	cclass['}'] = CC_RBRACE;
	cclass['='] = CC_EQUAL;
}

bool pp_is_blank(char c)
{
	return cclass[(unsigned char)c] == CC_BLANK;
}

bool pp_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool pp_word_in(const char *name, size_t n, const char *s, const char *end)
{
	for (const char *p = s; p + n <= end; p++) {
		p = memchr(p, name[0], (size_t)(end - p));
		if (!p || p + n > end)
			return false;
		if (memcmp(p, name, n) == 0 && (p == s || !pp_ident_char[(unsigned char)p[-1]]) &&
		    (p + n == end || !pp_ident_char[(unsigned char)p[n]]))
			return true;
	}
	return false;
}

uint32_t pp_ident_end(const char *t, uint32_t p)
{
	while (pp_ident_char[(unsigned char)t[p]])
		p++;
	return p;
}

/* Length of the newline at p (1, or 2 for \r\n), 0 when there is none. */
static uint32_t newline_len(const char *t, uint32_t p)
{
	if (t[p] == '\n')
		return 1;
	return t[p] == '\r' && t[p + 1] == '\n' ? 2 : 0;
}

/* Whether the newline at nl is spliced away by a backslash before it. */
static bool spliced(const char *t, uint32_t nl)
{
	if (nl >= 1 && t[nl - 1] == '\\')
		return true;
	return nl >= 2 && t[nl - 1] == '\r' && t[nl - 2] == '\\';
}

/* p at the '/' of a block comment: the byte after its end, 0 if unterminated. */
static uint32_t skip_block_comment(const char *t, uint32_t len, uint32_t p)
{
	const char *q = t + p + 2, *end = t + len;

	while (q < end && (q = memchr(q, '*', (size_t)(end - q)))) {
		if (q[1] == '/')
			return (uint32_t)(q - t) + 2;
		q++;
	}
	return 0;
}

/* p at the '/' of "//": the newline that ends the comment, or len. */
static uint32_t skip_line_comment(const char *t, uint32_t len, uint32_t p)
{
	for (;;) {
		const char *nl = memchr(t + p, '\n', len - p);

		if (!nl)
			return len;
		p = (uint32_t)(nl - t);
		if (!spliced(t, p))
			return p;
		p++;
	}
}

/*
 * p at the opening quote of a string or character literal: the byte after
 * the closing quote.  An unterminated literal stops before its newline, as
 * in a skipped group ("don't" in an #if 0 block must not swallow the file).
 */
uint32_t pp_skip_literal(const char *t, uint32_t len, uint32_t p)
{
	char quote = t[p++];

	while (p < len) {
		char c = t[p];

		if (c == quote)
			return p + 1;
		if (c == '\n')
			return p;
		if (c == '\\')
			p += newline_len(t, p + 1) == 2 ? 2 : 1;
		p++;
	}
	return len;
}

/* p at a pp-number (C17 6.4.8): the byte after it, so 0x1p+3 is one token. */
uint32_t pp_skip_number(const char *t, uint32_t p)
{
	for (p++;; p++) {
		char c = t[p], e = (char)(t[p - 1] | 0x20);

		if (pp_ident_char[(unsigned char)c] || c == '.')
			continue;
		if ((c == '+' || c == '-') && (e == 'e' || e == 'p'))
			continue;
		return p;
	}
}

/* Blanks, newlines and comments from p: the first byte of anything else. */
static uint32_t skip_blanks(const char *t, uint32_t len, uint32_t p)
{
	for (;;) {
		uint32_t q;

		if (cclass[(unsigned char)t[p]] == CC_BLANK || t[p] == '\n') {
			p++;
		} else if (t[p] == '/' && t[p + 1] == '*') {
			q = skip_block_comment(t, len, p);
			if (!q)
				return p;
			p = q;
		} else if (t[p] == '/' && t[p + 1] == '/') {
			p = skip_line_comment(t, len, p);
		} else if (t[p] == '\\' && newline_len(t, p + 1)) {
			p += 1 + newline_len(t, p + 1);
		} else {
			return p;
		}
	}
}

/*
 * p at an opening bracket: the byte after its match, skipping literals and
 * comments, or 0 when it has none.  A '#' outside literals means a directive
 * inside (nothing we may hide in one piece), so that is "no match" too.
 * Initializers go through here: the loop looks at few bytes per element.
 */
static uint32_t skip_nested(const char *t, uint32_t len, uint32_t p)
{
	static const char stops[] = "{}()/\"'#";
	char open = t[p], close = open == '{' ? '}' : ')';
	uint32_t depth = 0, q;

	for (;;) {
		p += (uint32_t)strcspn(t + p, stops);
		if (p >= len)
			return 0;
		switch (t[p]) {
		case '"':
		case '\'':
			p = pp_skip_literal(t, len, p);
			continue;
		case '/':
			if (t[p + 1] == '*') {
				q = skip_block_comment(t, len, p);
				if (!q)
					return 0;
				p = q;
				continue;
			}
			if (t[p + 1] == '/') {
				p = skip_line_comment(t, len, p);
				continue;
			}
			break;
		case '#':
			return 0;
		default:
			if (t[p] == open)
				depth++;
			else if (t[p] == close && --depth == 0)
				return p + 1;
		}
		p++;
	}
}

/* ------------------------------------------------------------------ */
/* PPMacro table                                                         */
/* ------------------------------------------------------------------ */

typedef Array(char) CharBuf;

/* A header already read, known by device and inode (links, "a/../b"). */
typedef struct FileId {
	dev_t dev;
	ino_t ino;
} FileId;

typedef Array(FileId) FileIdList;

typedef struct PP {
	const PPConfig *cfg;
	uint32_t init_min;   /* hide initializers of at least this many bytes */
	PPMacro **slots;       /* open addressing on the name */
	uint32_t nslots, nmacros;
	uint32_t gen;        /* bumped by every definition and #undef */
	Array(FileId) seen;  /* headers read: each at most once, unless it includes itself */
	Array(FileId) open;  /* headers being read, outermost first */
	CharBuf line;        /* the directive being read, cleaned, NUL-terminated */
	Array(uint32_t) map; /* source byte of each char of line (and of its end) */
	CharBuf scratch;     /* a specifier list being expanded */
	Source *top;         /* the file being scanned: its outside macros */
	uint32_t include_at; /* byte of the top-level #include being read */
	char *missing;       /* the first quoted header not found, or NULL */
} PP;

static uint32_t hash_name(const char *s, uint32_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static PPMacro *macro_find(const PP *pp, const char *name, uint32_t n)
{
	uint32_t h, j, mask = pp->nslots - 1;

	if (!pp->nslots)
		return NULL;
	h = hash_name(name, n);
	for (j = h & mask; pp->slots[j]; j = (j + 1) & mask) {
		PPMacro *m = pp->slots[j];

		if (m->hash == h && m->len == n && memcmp(m->name, name, n) == 0)
			return m;
	}
	return NULL;
}

static void slot_insert(PP *pp, PPMacro *m)
{
	uint32_t j, mask = pp->nslots - 1;

	for (j = m->hash & mask; pp->slots[j]; j = (j + 1) & mask)
		;
	pp->slots[j] = m;
}

static void macro_grow(PP *pp)
{
	PPMacro **old = pp->slots;
	uint32_t oldn = pp->nslots;

	pp->nslots = oldn ? oldn * 2 : 256;
	pp->slots = xcalloc(pp->nslots, sizeof(*pp->slots));
	for (uint32_t i = 0; i < oldn; i++)
		if (old[i])
			slot_insert(pp, old[i]);
	free(old);
}

/* The entry for name, created undefined when it is new. */
static PPMacro *macro_get(PP *pp, const char *name, uint32_t n)
{
	PPMacro *m = macro_find(pp, name, n);

	if (m)
		return m;
	if (2 * (pp->nmacros + 1) > pp->nslots)
		macro_grow(pp);
	m = xcalloc(1, sizeof(*m));
	m->name = xstrndup(name, n);
	m->len = n;
	m->hash = hash_name(name, n);
	slot_insert(pp, m);
	pp->nmacros++;
	return m;
}

/* Copy of s[0..n) with blank runs outside literals made one space, trimmed. */
static char *normalize(const char *s, size_t n)
{
	char *d = xmalloc(n + 1), *o = d;
	size_t i = 0;

	while (i < n) {
		if (pp_is_blank(s[i]) || s[i] == '\n') {
			while (i < n && (pp_is_blank(s[i]) || s[i] == '\n'))
				i++;
			if (o > d && i < n)
				*o++ = ' ';
		} else if (s[i] == '"' || s[i] == '\'') {
			size_t e = pp_skip_literal(s, (uint32_t)n, (uint32_t)i);

			memcpy(o, s + i, e - i);
			o += e - i;
			i = e;
		} else {
			*o++ = s[i++];
		}
	}
	*o = '\0';
	return d;
}

/* #define: body NULL for a function-like macro. */
static void macro_define(PP *pp, const char *name, uint32_t n, const char *body,
                         size_t body_len, bool funclike)
{
	PPMacro *m = macro_get(pp, name, n);

	free(m->body);
	m->body = funclike ? NULL : normalize(body, body_len);
	m->defined = true;
	m->funclike = funclike;
	m->builtin = false;
	pp->gen++;
}

static void macro_undef(PP *pp, const char *name, uint32_t n)
{
	PPMacro *m = macro_get(pp, name, n);

	free(m->body);
	m->body = NULL;
	m->defined = false;
	m->funclike = false;
	m->builtin = false;
	pp->gen++;
}

/*
 * A definition of name at byte at into list: its integer value, or the end
 * of any earlier one (body NULL: #undef).
 */
static void note_macro(PPConstList *list, uint32_t at, const char *name, uint32_t n,
                       const char *params, size_t params_len, const char *body, size_t body_len)
{
	PPConst c = { at, intern(name, n), false, 0, NULL, NULL };

	c.is_int = body && !params && pp_int_literal(body, body_len, &c.value);
	if (body)
		c.text = arena_strndup(body, body_len);
	if (body && params)
		c.params = arena_strndup(params, params_len);
	array_push(list, c);
}

/* "(a, b) body" of a function-like #define: the parameters' text and where the body starts. */
static const char *split_params(const char *s, size_t len, size_t *params_len)
{
	const char *close = memchr(s, ')', len);

	if (!close) {
		*params_len = len > 0 ? len - 1 : 0;
		return s + len;
	}
	*params_len = (size_t)(close - s - 1);
	for (close++; close < s + len && (*close == ' ' || *close == '\t'); close++)
		;
	return close;
}

static void macro_free_all(PP *pp)
{
	for (uint32_t i = 0; i < pp->nslots; i++) {
		if (!pp->slots[i])
			continue;
		free(pp->slots[i]->name);
		free(pp->slots[i]->body);
		free(pp->slots[i]);
	}
	free(pp->slots);
}

/* ------------------------------------------------------------------ */
/* Specifier macros                                                    */
/* ------------------------------------------------------------------ */

static const char *const spec_words[] = {
	"static", "inline", "__inline", "__inline__", "extern", "const",
	"volatile", "restrict", "__restrict", "__restrict__", "register",
	"_Noreturn", "__extension__", "_Thread_local", "__thread",
	"_Complex", "__complex__", "_Imaginary",
};

static bool is_spec_word(const char *s, uint32_t n)
{
	for (size_t i = 0; i < sizeof(spec_words) / sizeof(spec_words[0]); i++)
		if (strlen(spec_words[i]) == n && memcmp(spec_words[i], s, n) == 0)
			return true;
	return false;
}

/*
 * __attribute__, __attribute and __declspec take a parenthesized list, and
 * so does _Pragma, which a macro may hold as well (`#define SIMD _Pragma(...)`).
 */
static bool is_attr_word(const char *s, uint32_t n)
{
	return (n == 7 && memcmp(s, "_Pragma", 7) == 0) ||
	       (n == 13 && memcmp(s, "__attribute__", 13) == 0) ||
	       (n == 11 && memcmp(s, "__attribute", 11) == 0) ||
	       (n == 10 && memcmp(s, "__declspec", 10) == 0);
}

static void buf_append(CharBuf *b, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (b->len)
		array_push(b, ' ');
	for (size_t i = 0; i < n; i++)
		array_push(b, s[i]);
}

static bool spec_list(PP *pp, const char *p, int depth);

/* Whether the macro name s[0..n) stands for specifiers; appends them to pp->scratch. */
static bool spec_macro(PP *pp, const char *s, uint32_t n, int depth)
{
	PPMacro *m = macro_find(pp, s, n);
	bool ok;

	if (!m || m->expanding || depth >= PP_EXPAND_DEPTH_MAX)
		return false;
	if (!m->defined) {
		if (m->builtin)
			buf_append(&pp->scratch, m->builtin_exp, strlen(m->builtin_exp));
		return m->builtin;
	}
	if (m->funclike)
		return false;
	m->expanding = true;
	ok = spec_list(pp, m->body, depth + 1);
	m->expanding = false;
	return ok;
}

/*
 * Whether the replacement list p is only storage classes, qualifiers,
 * attribute groups and other such macros; appends its expansion to
 * pp->scratch.
 */
static bool spec_list(PP *pp, const char *p, int depth)
{
	uint32_t len = (uint32_t)strlen(p), i = 0;

	while (i < len) {
		uint32_t j, k;

		if (p[i] == ' ') {
			i++;
			continue;
		}
		if (!pp_ident_char[(unsigned char)p[i]] || pp_is_digit(p[i]))
			return false;
		j = pp_ident_end(p, i);
		if (is_attr_word(p + i, j - i)) {
			k = skip_blanks(p, len, j);
			if (p[k] != '(' || !(k = skip_nested(p, len, k)))
				return false;
			buf_append(&pp->scratch, p + i, k - i);
			j = k;
		} else if (is_spec_word(p + i, j - i)) {
			buf_append(&pp->scratch, p + i, j - i);
		} else if (!spec_macro(pp, p + i, j - i, depth)) {
			return false;
		}
		i = j;
	}
	return true;
}

/* Whether a use of m in code is hidden; its expansion is then m->expansion. */
static bool macro_is_spec(PP *pp, PPMacro *m)
{
	if (m->gen == pp->gen)
		return m->spec;
	m->gen = pp->gen;
	pp->scratch.len = 0;
	m->spec = spec_macro(pp, m->name, m->len, 0);
	if (!m->spec)
		return false;
	array_push(&pp->scratch, '\0');
	if (!m->expansion || strcmp(m->expansion, pp->scratch.items) != 0)
		m->expansion = arena_strndup(pp->scratch.items, pp->scratch.len - 1);
	return true;
}

/* ------------------------------------------------------------------ */
/* One file's scan state                                               */
/* ------------------------------------------------------------------ */

typedef enum DirKind {
	D_OTHER, D_NULL, D_IF, D_IFDEF, D_IFNDEF, D_ELIF, D_ELIFDEF, D_ELIFNDEF,
	D_ELSE, D_ENDIF, D_DEFINE, D_UNDEF, D_INCLUDE,
} DirKind;

static const char *const dir_name[] = {
	[D_OTHER] = "", [D_NULL] = "", [D_IF] = "if", [D_IFDEF] = "ifdef",
	[D_IFNDEF] = "ifndef", [D_ELIF] = "elif", [D_ELIFDEF] = "elifdef",
	[D_ELIFNDEF] = "elifndef", [D_ELSE] = "else", [D_ENDIF] = "endif",
	[D_DEFINE] = "define", [D_UNDEF] = "undef", [D_INCLUDE] = "include",
};

/* An open #if, #ifdef or #ifndef. */
typedef struct Cond {
	uint32_t at;         /* its '#', for "unterminated" */
	DirKind kind;
	bool outer_active;   /* the region around the conditional is active */
	bool taken;          /* one of its branches has been active */
	bool seen_else;
} Cond;

struct PPScan {
	PP *pp;
	Source *src;         /* the file; a header's is temporary */
	const char *t;
	uint32_t len, pos;
	bool record;         /* the main file: fill src->hidden */
	int depth;           /* #include nesting, 0 for the main file */
	char *dir;           /* where #include "..." looks first */
	bool active;         /* the current line is in an active region */
	bool bol;            /* only blanks and comments so far on this line */
	uint32_t line_start; /* where this line's blanks begin */
	uint32_t inactive_start; /* where the current inactive region began */
	uint32_t punct_end;  /* byte after the last punctuator: tells "+=" from "=" */
	uint32_t braces;     /* brace depth of active code */
	bool after_head;     /* the last token was ')', `else` or `do`: a body may follow */
	bool in_case;        /* between a 'case' and its ':' */
	uint32_t operand_at, operand_end; /* an operand to hide once the scan gets there (code_type_operand) */
	Array(Cond) conds;
	bool failed;
};

PPMacro *pp_macro_find(const PPScan *s, const char *name, uint32_t n)
{
	return macro_find(s->pp, name, n);
}

void pp_fail(PPScan *s, uint32_t at, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!s->failed)
		error_at(s->src, at, "%s", msg);
	s->failed = true;
}

/* Spans go in scan order, so src->hidden stays sorted and disjoint. */
static void hide(PPScan *s, uint32_t start, uint32_t end, HideKind kind, const char *exp)
{
	Source *src = s->src;
	Hidden h = { .start = start, .end = end, .kind = kind, .expansion = exp };

	if (!s->record || start >= end)
		return;
	if (src->hidden.len && array_last(&src->hidden).end > start)
		die("pp: hidden span %u-%u overlaps the one before", start, end);
	array_push(&src->hidden, h);
}

/* ------------------------------------------------------------------ */
/* Directive lines                                                     */
/* ------------------------------------------------------------------ */

static void line_put(PP *pp, char c, uint32_t at)
{
	array_push(&pp->line, c);
	array_push(&pp->map, at);
}

/* One space for a run of blanks or a comment. */
static void line_space(PP *pp, uint32_t at)
{
	if (pp->line.len && array_last(&pp->line) != ' ')
		line_put(pp, ' ', at);
}

/* p at a comment in a directive: the byte after it (0: unterminated). */
static uint32_t line_comment(PPScan *s, uint32_t p)
{
	uint32_t q;

	if (s->t[p + 1] == '/')
		return skip_line_comment(s->t, s->len, p);
	q = skip_block_comment(s->t, s->len, p);
	if (!q)
		pp_fail(s, p, "unterminated comment");
	else
		line_space(s->pp, p);
	return q;
}

/*
 * Reads the directive whose '#' is at p into pp->line, with continuations
 * dropped and each comment or run of blanks made one space.  Returns the
 * byte of the newline that ends it, or len.
 */
static uint32_t read_directive(PPScan *s, uint32_t p)
{
	PP *pp = s->pp;
	const char *t = s->t;

	pp->line.len = pp->map.len = 0;
	while (p < s->len && t[p] != '\n' && !s->failed) {
		uint32_t n = t[p] == '\\' ? newline_len(t, p + 1) : 0;

		if (n) {
			p += 1 + n;
		} else if (t[p] == '/' && (t[p + 1] == '*' || t[p + 1] == '/')) {
			p = line_comment(s, p);
		} else if (t[p] == '"' || t[p] == '\'') {
			for (uint32_t e = pp_skip_literal(t, s->len, p); p < e; p++)
				line_put(pp, t[p], p);
		} else if (pp_is_blank(t[p])) {
			line_space(pp, p++);
		} else {
			line_put(pp, t[p], p);
			p++;
		}
	}
	if (pp->line.len && array_last(&pp->line) == ' ')
		pp->line.len--, pp->map.len--;
	line_put(pp, '\0', p);
	pp->line.len--;
	return s->failed ? s->len : p;
}

static uint32_t line_skip_space(const PP *pp, uint32_t i)
{
	return pp->line.items[i] == ' ' ? i + 1 : i;
}

/* The directive's kind; *after is the index just past its name. */
static DirKind directive_kind(const PP *pp, uint32_t *after)
{
	const char *l = pp->line.items;
	uint32_t i = line_skip_space(pp, 1), e = pp_ident_end(l, i);

	*after = e;
	if (e == i)
		return l[i] ? D_OTHER : D_NULL;
	for (int k = D_IF; k <= D_INCLUDE; k++)
		if (strlen(dir_name[k]) == e - i && memcmp(dir_name[k], l + i, e - i) == 0)
			return (DirKind)k;
	if (e - i == 12 && memcmp(l + i, "include_next", 12) == 0)
		return D_INCLUDE;
	return D_OTHER;
}

/* ------------------------------------------------------------------ */
/* Conditionals                                                        */
/* ------------------------------------------------------------------ */

/*
 * Is the #ifndef NAME just read an include guard: does `#define NAME`, with
 * no value (or 1), come next, after blanks and comments?  A default that a
 * missing header may override has a value (`#define N 1000`).
 */
static bool guard_follows(const PPScan *s, const char *name, uint32_t n)
{
	const char *t = s->t;
	uint32_t p = s->pp->map.items[s->pp->line.len], q;

	for (;;) {
		while (p < s->len && (pp_is_blank(t[p]) || t[p] == '\n'))
			p++;
		if (p + 1 < s->len && t[p] == '/' && t[p + 1] == '*' && (q = skip_block_comment(t, s->len, p)))
			p = q;
		else if (p + 1 < s->len && t[p] == '/' && t[p + 1] == '/')
			p = skip_line_comment(t, s->len, p);
		else
			break;
	}
	if (p >= s->len || t[p] != '#')
		return false;
	for (p++; p < s->len && pp_is_blank(t[p]); p++)
		;
	if (s->len - p < 7 || memcmp(t + p, "define", 6) != 0 || !pp_is_blank(t[p + 6]))
		return false;
	for (p += 6; p < s->len && pp_is_blank(t[p]); p++)
		;
	if (s->len - p < n || memcmp(t + p, name, n) != 0 ||
	    (p + n < s->len && pp_ident_char[(unsigned char)t[p + n]]))
		return false;
	for (p += n; p < s->len && pp_is_blank(t[p]); p++)
		;
	if (p < s->len && t[p] == '1') /* `#define X_H 1` */
		for (p++; p < s->len && pp_is_blank(t[p]); p++)
			;
	return p >= s->len || t[p] == '\n' || t[p] == '/'; /* no value: not a default size */
}

/* The value of an #if, #elif, #ifdef or #ifndef line. */
static bool cond_value(PPScan *s, DirKind k, uint32_t i, bool *v)
{
	PP *pp = s->pp;
	uint32_t e;
	PPMacro *m;

	if (k == D_IF || k == D_ELIF)
		return pp_eval_if(s, pp->line.items + i, pp->line.len - i, pp->map.items + i, v);
	i = line_skip_space(pp, i);
	e = pp_ident_end(pp->line.items, i);
	if (e == i || pp_is_digit(pp->line.items[i])) {
		pp_fail(s, pp->map.items[i], "no macro name given in #%s", dir_name[k]);
		return false;
	}
	m = macro_find(pp, pp->line.items + i, e - i);
	*v = (m && m->defined) == (k == D_IFDEF || k == D_ELIFDEF);
	if (!(m && m->defined) && !(k == D_IFNDEF && guard_follows(s, pp->line.items + i, e - i)))
		pp_undefined_name(s, pp->line.items + i, e - i, pp->map.items[i]);
	return !s->failed;
}

static const char *const builtin_macros[] = {
	"__LINE__", "__FILE__", "__DATE__", "__TIME__", "__TIMESTAMP__", "__COUNTER__",
	"__INCLUDE_LEVEL__", "__BASE_FILE__", "__FILE_NAME__", "__has_include",
	"__has_include_next", "__has_attribute", "__has_cpp_attribute", "__has_c_attribute",
	"__has_builtin", "__has_feature", "__has_extension",
};

bool pp_builtin_macro(const char *name, uint32_t n)
{
	for (size_t i = 0; i < sizeof(builtin_macros) / sizeof(builtin_macros[0]); i++)
		if (strlen(builtin_macros[i]) == n && memcmp(builtin_macros[i], name, n) == 0)
			return true;
	return false;
}

bool pp_builtin_value(PPScan *s, const char *name, uint32_t n, uint32_t at, intmax_t *v)
{
	uint32_t line, col;

	if (n == 8 && memcmp(name, "__LINE__", 8) == 0) {
		source_pos(s->src, at, &line, &col);
		*v = line;
		return true;
	}
	if (n == 17 && memcmp(name, "__INCLUDE_LEVEL__", 17) == 0) {
		*v = s->depth;
		return true;
	}
	pp_fail(s, at, "%.*s in #if: mtpar cannot tell its value as the compiler would "
	        "(decide the condition with -D)", (int)n, name);
	return false;
}

void pp_undefined_name(PPScan *s, const char *name, uint32_t n, uint32_t at)
{
	if (!s->pp->missing || (n >= 2 && name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z'))))
		return;
	pp_fail(s, at, "%.*s is not defined, but %s, which mtpar did not find, may define it "
	        "(give mtpar the -I options the compiler gets)", (int)n, name, s->pp->missing);
}

/* The branch that starts after the directive ending at end is inactive. */
static void go_inactive(PPScan *s, uint32_t end)
{
	s->active = false;
	s->inactive_start = end < s->len ? end + 1 : s->len;
}

/* #if, #ifdef, #ifndef; in an inactive region only counted for nesting. */
static void cond_open(PPScan *s, DirKind k, uint32_t at, uint32_t ls, uint32_t end,
                      uint32_t i)
{
	Cond c = { .at = at, .kind = k, .outer_active = s->active };
	bool v;

	array_push(&s->conds, c);
	if (!s->active)
		return;
	hide(s, ls, end, HIDE_DIRECTIVE, NULL);
	if (!cond_value(s, k, i, &v))
		return;
	array_last(&s->conds).taken = v;
	if (!v)
		go_inactive(s, end);
}

/* Whether the branch after an #elif, #else or #endif of c is active. */
static bool branch_active(PPScan *s, Cond *c, DirKind k, uint32_t i)
{
	bool v = false;

	if (k == D_ENDIF)
		return true;
	if (k == D_ELSE) {
		c->seen_else = true;
		v = !c->taken;
	} else if (!c->taken && !cond_value(s, k, i, &v)) {
		return false;
	}
	c->taken |= v;
	return v;
}

/* #elif, #elifdef, #elifndef, #else, #endif. */
static void cond_next(PPScan *s, DirKind k, uint32_t at, uint32_t ls, uint32_t end,
                      uint32_t i)
{
	Cond *c;

	if (s->conds.len == 0) {
		pp_fail(s, at, "#%s without #if", dir_name[k]);
		return;
	}
	c = &array_last(&s->conds);
	if (k != D_ENDIF && c->seen_else) {
		pp_fail(s, at, "#%s after #else", dir_name[k]);
		return;
	}
	if (!c->outer_active) {
		c->seen_else |= k == D_ELSE;
		s->conds.len -= k == D_ENDIF;
		return;
	}
	if (!s->active)
		hide(s, s->inactive_start, ls, HIDE_INACTIVE, NULL);
	hide(s, ls, end, HIDE_DIRECTIVE, NULL);
	s->active = branch_active(s, c, k, i);
	if (k == D_ENDIF)
		s->conds.len--;
	if (!s->active)
		go_inactive(s, end);
}

/* End of file: every conditional still open is an error. */
static void cond_check_closed(PPScan *s)
{
	for (uint32_t i = 0; i < s->conds.len; i++) {
		const Cond *c = &s->conds.items[i];

		error_at(s->src, c->at, "unterminated #%s", dir_name[c->kind]);
		s->failed = true;
	}
}

/* ------------------------------------------------------------------ */
/* #define, #undef, #include                                           */
/* ------------------------------------------------------------------ */

/* The macro name at pp->line[i...] (after one blank); *n is 0 when none. */
static const char *line_name(const PP *pp, uint32_t *i, uint32_t *n)
{
	uint32_t b = line_skip_space(pp, *i), e = pp_ident_end(pp->line.items, b);

	*n = pp_is_digit(pp->line.items[b]) ? 0 : e - b;
	*i = e;
	return pp->line.items + b;
}

/*
 * A #define or #undef line of the top file (depth 0, at its line's byte)
 * goes to its own list; one that a header or the command line makes (-D,
 * -U), at the byte of the #include that brought it, to its outside list.
 */
static void note_definition(PPScan *s, const char *name, uint32_t n, const char *params,
                            size_t params_len, const char *body, size_t body_len)
{
	PP *pp = s->pp;

	if (s->depth > 0)
		note_macro(&pp->top->outside, pp->include_at, name, n, params, params_len, body,
		           body_len);
	else
		note_macro(&pp->top->own, s->line_start, name, n, params, params_len, body,
		           body_len);
}

static void define_line(PPScan *s, uint32_t i)
{
	PP *pp = s->pp;
	uint32_t n;
	const char *name = line_name(pp, &i, &n);
	bool funclike = pp->line.items[i] == '(';

	if (!n)
		return; /* "#define 3" or "#define": left for tree-sitter to reject */
	i = line_skip_space(pp, i);
	macro_define(pp, name, n, pp->line.items + i, pp->line.len - i, funclike);
	if (funclike) {
		const char *text = pp->line.items + i, *body;
		size_t plen;

		body = split_params(text, pp->line.len - i, &plen);
		note_definition(s, name, n, text + 1, plen, body,
		                (size_t)(text + (pp->line.len - i) - body));
	} else {
		note_definition(s, name, n, NULL, 0, pp->line.items + i, pp->line.len - i);
	}
}

static void undef_line(PPScan *s, uint32_t i)
{
	uint32_t n;
	const char *name = line_name(s->pp, &i, &n);

	if (!n)
		return;
	macro_undef(s->pp, name, n);
	note_definition(s, name, n, NULL, 0, NULL, 0);
}

static char *join_path(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = xmalloc(a + b + 2);

	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The header's path (caller frees), or NULL: a system header we do not read. */
static char *find_header(const PPScan *s, const char *name, bool quoted)
{
	const PPConfig *cfg = s->pp->cfg;
	char *p;

	if (name[0] == '/')
		return is_file(name) ? xstrndup(name, strlen(name)) : NULL;
	if (quoted) {
		p = join_path(s->dir, name);
		if (is_file(p))
			return p;
		free(p);
	}
	for (uint32_t i = 0; cfg && i < cfg->include_dirs.len; i++) {
		p = join_path(cfg->include_dirs.items[i], name);
		if (is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

static bool same_file(const FileId *a, const FileId *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

static bool file_listed(const FileId *l, uint32_t n, const FileId *id)
{
	for (uint32_t i = 0; i < n; i++)
		if (same_file(&l[i], id))
			return true;
	return false;
}

/*
 * Whether to skip the file: read before in this pp_scan and finished (we
 * read a header once, as if guarded).  One that includes itself, directly
 * or not, is read again: its guard ends the recursion, or the depth limit.
 */
static bool read_before(PP *pp, const FileId *id)
{
	if (file_listed(pp->open.items, pp->open.len, id))
		return false;
	if (file_listed(pp->seen.items, pp->seen.len, id))
		return true;
	array_push(&pp->seen, *id);
	return false;
}

/*
 * The header as a Source, or NULL when it was read before or cannot be
 * read (a header we cannot read is one we do without).  Caller frees.
 */
static Source *read_header(PP *pp, const char *path, FileId *id)
{
	FILE *f = fopen(path, "rb");
	Source *h;
	struct stat st;
	char *buf;

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) != 0 || st.st_size >= (off_t)UINT32_MAX) {
		fclose(f);
		return NULL;
	}
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	if (read_before(pp, id)) {
		fclose(f);
		return NULL;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	h = xcalloc(1, sizeof(*h));
	h->path = path;
	h->text = buf;
	h->len = (uint32_t)fread(buf, 1, (size_t)st.st_size, f);
	buf[h->len] = '\0';
	fclose(f);
	source_index_lines(h);
	return h;
}

static bool scan_file(PP *pp, Source *src, bool record, int depth);

/* Reads a header for its conditionals and macros: nothing in it is hidden. */
static void read_include(PPScan *s, const char *path)
{
	FileId id;
	Source *h = read_header(s->pp, path, &id);

	if (!h)
		return;
	array_push(&s->pp->open, id);
	if (!scan_file(s->pp, h, false, s->depth + 1))
		s->failed = true;
	s->pp->open.len--;
	free((char *)h->text);
	free(h->line_start);
	free(h);
}

/* #include "x" or <x>; #include MACRO is left alone. */
/*
 * The macros of a system header we do not read that the analysis needs:
 * <complex.h>'s `complex` (also through <tgmath.h>), a type word.
 */
static void system_header_macros(PP *pp, const char *name)
{
	PPMacro *m = macro_find(pp, "complex", 7);

	if ((strcmp(name, "complex.h") == 0 || strcmp(name, "tgmath.h") == 0) &&
	    !(m && m->defined))
		macro_define(pp, "complex", 7, "_Complex", 8, false);
}

static void include_line(PPScan *s, uint32_t i)
{
	const char *l = s->pp->line.items, *close;
	char *name, *path;
	bool quoted;

	i = line_skip_space(s->pp, i);
	quoted = l[i] == '"';
	if (!quoted && l[i] != '<')
		return;
	if (s->depth >= INCLUDE_DEPTH_MAX) {
		pp_fail(s, s->pp->map.items[i], "#include nested depth %d exceeds maximum of %d",
		        s->depth, INCLUDE_DEPTH_MAX);
		return;
	}
	close = strchr(l + i + 1, quoted ? '"' : '>');
	if (!close)
		return;
	name = xstrndup(l + i + 1, (size_t)(close - (l + i + 1)));
	path = find_header(s, name, quoted);
	if (s->depth == 0)
		s->pp->include_at = s->line_start;
	if (!path && quoted && !s->pp->missing) {
		warning_at(s->src, s->pp->map.items[i], "%s: not found; mtpar does not know the macros it "
		           "defines (give mtpar the -I options the compiler gets)", name);
		s->pp->missing = name;
		name = NULL;
	}
	if (!path && !quoted && name)
		system_header_macros(s->pp, name);
	free(name);
	if (path)
		read_include(s, path);
	free(path);
}

/*
 * The block comments of the #define from p to end: tree-sitter-c ends the
 * body at a comment and cannot parse what follows it on the line
 * (`#define STEP a++; /\* why *\/ b++;`), so each is hidden, as the
 * preprocessor makes it one space.
 */
static void hide_define_comments(PPScan *s, uint32_t p, uint32_t end)
{
	const char *t = s->t;

	while (p < end) {
		if (t[p] == '"' || t[p] == '\'') {
			p = pp_skip_literal(t, s->len, p);
		} else if (t[p] == '/' && t[p + 1] == '*') {
			uint32_t q = skip_block_comment(t, s->len, p);

			if (!q)
				return;
			hide(s, p, q, HIDE_COMMENT, NULL);
			p = q;
		} else if (t[p] == '/' && t[p + 1] == '/') {
			return;
		} else {
			p++;
		}
	}
}

/*
 * `#pragma push_macro("N")` and `pop_macro` (or their _Pragma forms, at
 * words) save and bring back a macro's definition.  mtpar does not follow
 * them, so it would read N as the compiler does not: the file is refused.
 */
static void refuse_macro_stack(PPScan *s, uint32_t at, const char *words)
{
	const char *p = words;

	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "pragma", 6) == 0)
		p += 6;
	while (*p == ' ' || *p == '\t' || *p == '(' || *p == '"')
		p++;
	if (strncmp(p, "push_macro", 10) == 0 || strncmp(p, "pop_macro", 9) == 0)
		pp_fail(s, at, "#pragma %s is not supported: mtpar would read the macro otherwise "
		        "than the compiler", p[1] == 'u' ? "push_macro" : "pop_macro");
}

/* An active #error fails the scan, as it fails the compiler; #warning warns. */
static bool error_line(PPScan *s, uint32_t at)
{
	const char *l = s->pp->line.items + 1;

	while (*l == ' ')
		l++;
	if (strncmp(l, "error", 5) == 0 && (l[5] == ' ' || !l[5])) {
		pp_fail(s, at, "#error%s", l + 5);
		return true;
	}
	if (strncmp(l, "warning", 7) == 0 && (l[7] == ' ' || !l[7])) {
		warning_at(s->src, at, "#warning%s", l + 7);
		return true;
	}
	return false;
}

/*
 * The directive at s->pos ('#' first on its line).  Conditionals and the
 * null directive are hidden; #define, #include and the rest stay for
 * tree-sitter, which parses them by itself.
 */
/*
 * `#pragma ...`, `#line N` or `# N "file"`: lines that tree-sitter-c takes
 * only where a statement may stand, while GCC takes them anywhere, between
 * a loop's header and its body too (`#pragma GCC unroll 4` above an inner
 * loop without braces).  There they are hidden; the back end finds a
 * pragma again in the text.  A #define there is not: the analysis would
 * miss the macro.
 */
static bool pragma_or_line(const PP *pp)
{
	const char *l = pp->line.items;
	uint32_t i = line_skip_space(pp, 1), e = pp_ident_end(l, i);

	return (e - i == 6 && memcmp(l + i, "pragma", 6) == 0) ||
	       (e - i == 4 && memcmp(l + i, "line", 4) == 0) || pp_is_digit(l[i]);
}

static void directive(PPScan *s)
{
	uint32_t at = s->pos, ls = s->line_start, i;
	uint32_t end = read_directive(s, at);
	DirKind k = directive_kind(s->pp, &i);

	s->pos = end;
	if (s->failed)
		return;
	switch (k) {
	case D_IF: case D_IFDEF: case D_IFNDEF:
		cond_open(s, k, at, ls, end, i);
		return;
	case D_ELIF: case D_ELIFDEF: case D_ELIFNDEF: case D_ELSE: case D_ENDIF:
		cond_next(s, k, at, ls, end, i);
		return;
	default:
		break;
	}
	if (!s->active)
		return;
	if (k == D_DEFINE) {
		define_line(s, i);
		hide_define_comments(s, at, end);
	} else if (k == D_UNDEF)
		undef_line(s, i);
	else if (k == D_INCLUDE)
		include_line(s, i);
	else if (k == D_NULL)
		hide(s, ls, end, HIDE_DIRECTIVE, NULL);
	else if (s->braces && s->after_head && pragma_or_line(s->pp))
		hide(s, ls, end, HIDE_BODY_LINE, NULL);
	else if (!error_line(s, at))
		refuse_macro_stack(s, at, s->pp->line.items + 1);
}

/* ------------------------------------------------------------------ */
/* Code                                                                */
/* ------------------------------------------------------------------ */

/*
 * __attribute__((...)), __declspec(...) or _Pragma("...") from start; the
 * keyword ends at p.  A pragma operator is hidden as a #pragma line is
 * skipped: the backend finds it again (source_pragma_words).
 */
static void code_attribute(PPScan *s, uint32_t start, uint32_t p)
{
	uint32_t k = skip_blanks(s->t, s->len, p), close;
	bool pragma = p - start == 7 && s->t[start] == '_';

	if (s->t[k] != '(' || !(close = skip_nested(s->t, s->len, k)))
		return;
	hide(s, start, close, pragma ? HIDE_PRAGMA : HIDE_ATTRIBUTE, NULL);
	if (pragma)
		refuse_macro_stack(s, start, s->t + k + 1);
	s->pos = close;
}

static bool is_int_word(const char *w, uint32_t n)
{
	static const char *const words[] = { "signed", "unsigned", "int", "char", "short",
	                                     "long", "_Bool", "const", "volatile" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
			return true;
	return false;
}

/*
 * An unnamed bit-field ("unsigned : 0;", as csmith writes) right after ';'
 * or '{': tree-sitter-c 0.23.6 has no rule for it, so it is hidden.  Only
 * integer keywords may precede the ':', which no label or case can match.
 * The member is padding; mtpar gives structs with bit-fields no member
 * offsets anyway.
 */
static bool code_unnamed_bitfield(PPScan *s, uint32_t start)
{
	uint32_t p = start, k = start;

	while (k > 0 && (pp_is_blank(s->t[k - 1]) || s->t[k - 1] == '\n'))
		k--;
	if (k == 0 || (s->t[k - 1] != ';' && s->t[k - 1] != '{'))
		return false;
	for (;;) {
		uint32_t e = pp_ident_end(s->t, p);

		if (e == p || !is_int_word(s->t + p, e - p))
			break;
		p = skip_blanks(s->t, s->len, e);
	}
	if (p == start || s->t[p] != ':' || s->t[p + 1] == ':')
		return false;
	while (p < s->len && s->t[p] != ';' && s->t[p] != '{' && s->t[p] != '}')
		p++;
	if (s->t[p] != ';')
		return false;
	hide(s, start, p + 1, HIDE_BITFIELD, NULL);
	s->pos = p + 1;
	return true;
}

/* The first ',' outside brackets, literals and comments in [p, end), or end. */
static uint32_t top_comma(const char *t, uint32_t p, uint32_t end)
{
	int depth = 0;

	while (p < end) {
		if (t[p] == '"' || t[p] == '\'' || (t[p] == '/' && (t[p + 1] == '*' || t[p + 1] == '/'))) {
			uint32_t q = t[p] == '/' ? skip_blanks(t, end, p) : pp_skip_literal(t, end, p);

			p = q > p ? q : end;
			continue;
		}
		depth += (t[p] == '(' || t[p] == '[' || t[p] == '{') - (t[p] == ')' || t[p] == ']' || t[p] == '}');
		if (t[p] == ',' && depth == 0)
			return p;
		p++;
	}
	return end;
}

/*
 * Operands tree-sitter-c 0.23 reads too narrowly, hidden from it (the
 * output copies them): va_arg's type when it is more than one name
 * (keras2c's `va_arg(args, k2c_tensor*)`), from the ',' on, so that a call
 * of one argument is left, which the analysis takes for an unknown call;
 * and offsetof's member designator past its first name (`in.x`,
 * `arr[1]`), which the lowering then leaves unknown (lower_offsetof).
 */
static void code_type_operand(PPScan *s, uint32_t start, uint32_t end)
{
	uint32_t open = skip_blanks(s->t, s->len, end), close, comma, p, q;
	bool is_offsetof = end - start == 8 && memcmp(s->t + start, "offsetof", 8) == 0;

	if (s->t[open] != '(' || !(close = skip_nested(s->t, s->len, open)))
		return;
	close--; /* at the ')' */
	comma = top_comma(s->t, open + 1, close);
	if (comma == close)
		return;
	p = skip_blanks(s->t, s->len, comma + 1);
	q = pp_ident_end(s->t, p);
	if (q > p && skip_blanks(s->t, s->len, q) == close)
		return; /* one name: tree-sitter-c takes it */
	if (s->operand_at != UINT32_MAX || (is_offsetof && q == p))
		return;
	s->operand_at = is_offsetof ? q : comma; /* scan_text hides it there */
	s->operand_end = close;
}

/* At the operand code_type_operand found: hidden, and the scan goes on past it. */
static bool at_operand(PPScan *s)
{
	if (s->operand_at == UINT32_MAX || s->pos < s->operand_at)
		return false;
	if (s->pos == s->operand_at) {
		hide(s, s->operand_at, s->operand_end, HIDE_OPERAND, NULL);
		s->pos = s->operand_end;
	}
	s->operand_at = UINT32_MAX; /* passed over it otherwise: tree-sitter says what it makes of it */
	return s->pos == s->operand_end;
}

static bool type_operand_word(const char *w, uint32_t n)
{
	return (n == 6 && memcmp(w, "va_arg", 6) == 0) ||
	       (n == 16 && memcmp(w, "__builtin_va_arg", 16) == 0) ||
	       (n == 8 && memcmp(w, "offsetof", 8) == 0);
}

/*
 * C11's _Thread_local and C99's _Complex (GCC's __complex__, and the
 * _Imaginary no compiler implements): keywords tree-sitter-c 0.23 does not
 * know. The lowering reads them back from the hidden span (lw_hidden_complex).
 */
static const char *unknown_keyword(const char *w, uint32_t n)
{
	static const char *const words[] = { "_Thread_local", "_Complex", "__complex__",
		                             "_Imaginary" };

	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
		if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
			return words[i];
	return NULL;
}

static void code_ident(PPScan *s)
{
	uint32_t start = s->pos, end = pp_ident_end(s->t, start);
	const char *keyword;
	PPMacro *m;

	s->pos = end;
	s->bol = false;
	if (!s->active || !s->record)
		return;
	s->after_head = (end - start == 4 && memcmp(s->t + start, "else", 4) == 0) ||
	                (end - start == 2 && memcmp(s->t + start, "do", 2) == 0);
	if (s->src->reserved_at == UINT32_MAX && reserved_name(s->t + start, end - start))
		s->src->reserved_at = start;
	if (s->src->errno_at == UINT32_MAX && errno_name(s->t + start, end - start))
		s->src->errno_at = start;
	if (s->src->fpflags_at == UINT32_MAX && fp_flag_reader(s->t + start, end - start))
		s->src->fpflags_at = start;
	if (is_attr_word(s->t + start, end - start)) {
		code_attribute(s, start, end);
		return;
	}
	if (s->braces && is_int_word(s->t + start, end - start) &&
	    code_unnamed_bitfield(s, start))
		return;
	s->in_case |= s->braces && end - start == 4 && memcmp(s->t + start, "case", 4) == 0;
	if (type_operand_word(s->t + start, end - start))
		code_type_operand(s, start, end);
	if ((keyword = unknown_keyword(s->t + start, end - start))) {
		hide(s, start, end, HIDE_MACRO, keyword);
		return;
	}
	m = macro_find(s->pp, s->t + start, end - start);
	if (m && macro_is_spec(s->pp, m))
		hide(s, start, end, HIDE_MACRO, m->expansion);
}

/*
 * '=' at file scope followed by '{': a large initializer is hidden from the
 * '=' through the '}', leaving "T name[N] ;" for tree-sitter.
 */
static void code_equal(PPScan *s)
{
	uint32_t eq = s->pos, k, close;
	bool compound = s->punct_end == eq && strchr("=!<>+-*/%&|^", s->t[eq - 1]);

	s->bol = false;
	s->pos += s->t[eq + 1] == '=' ? 2 : 1;
	s->punct_end = s->pos;
	if (s->pos == eq + 2 || compound || !s->active || !s->record || s->braces)
		return;
	k = skip_blanks(s->t, s->len, s->pos);
	if (s->t[k] != '{')
		return;
	close = skip_nested(s->t, s->len, k);
	if (close && close - eq >= s->pp->init_min) {
		hide(s, eq, close, HIDE_INITIALIZER, NULL);
		s->pos = close;
	}
}

static void code_punct(PPScan *s)
{
	char c = s->t[s->pos++];

	s->bol = false;
	s->punct_end = s->pos;
	if (!s->active || !s->record)
		return;
	s->after_head = c == ')';
	if (strchr(":;{}", c))
		s->in_case = false;
	if (c == '{')
		s->braces++;
	else if (c == '}' && s->braces)
		s->braces--;
}

/*
 * "..." after a 'case': GNU C's case range `case 'a' ... 'z':`.  The upper
 * bound, a constant expression, is hidden through the ':', so that
 * tree-sitter-c reads `case 'a':`; the analysis reads no label's value.
 */
static void code_case_range(PPScan *s)
{
	const char *t = s->t;
	uint32_t p = s->pos + 3;
	int depth = 0;

	while (p < s->len && (depth > 0 || t[p] != ':')) {
		if (t[p] == '\'' || t[p] == '"') {
			p = pp_skip_literal(t, s->len, p);
			continue;
		}
		if (strchr(";{}", t[p]))
			break;
		depth += t[p] == '(' ? 1 : t[p] == ')' ? -1 : 0;
		p++;
	}
	if (p < s->len && t[p] == ':') {
		hide(s, s->pos, p, HIDE_CASE_RANGE, NULL);
		s->pos = p;
	} else {
		code_punct(s);
	}
}

static void code_slash(PPScan *s)
{
	uint32_t q;

	if (s->t[s->pos + 1] == '/') {
		s->pos = skip_line_comment(s->t, s->len, s->pos);
	} else if (s->t[s->pos + 1] == '*') {
		q = skip_block_comment(s->t, s->len, s->pos);
		if (!q)
			pp_fail(s, s->pos, "unterminated comment");
		s->pos = q ? q : s->len;
	} else {
		code_punct(s);
	}
}

/* A backslash-newline joins lines: it is neither a token nor a line start. */
static void code_backslash(PPScan *s)
{
	uint32_t n = newline_len(s->t, s->pos + 1);

	if (n)
		s->pos += 1 + n;
	else
		code_punct(s);
}

static void scan_text(PPScan *s)
{
	const char *t = s->t;

	while (s->pos < s->len && !s->failed) {
		if (at_operand(s))
			continue;
		switch (cclass[(unsigned char)t[s->pos]]) {
		case CC_BLANK:
			s->pos++;
			break;
		case CC_NEWLINE:
			s->pos++;
			s->bol = true;
			s->line_start = s->pos;
			break;
		case CC_IDENT:
			code_ident(s);
			break;
		case CC_DOT:
			if (s->in_case && s->active && s->record && t[s->pos + 1] == '.' &&
			    t[s->pos + 2] == '.') {
				code_case_range(s);
				break;
			}
			if (!pp_is_digit(t[s->pos + 1])) {
				code_punct(s);
				break;
			}
			/* fall through */
		case CC_DIGIT:
			s->pos = pp_skip_number(t, s->pos);
			s->bol = false;
			s->after_head = false;
			break;
		case CC_QUOTE:
			s->pos = pp_skip_literal(t, s->len, s->pos);
			s->bol = false;
			s->after_head = false;
			break;
		case CC_SLASH:
			code_slash(s);
			break;
		case CC_HASH:
			if (s->bol)
				directive(s);
			else
				code_punct(s);
			break;
		case CC_BACKSLASH:
			code_backslash(s);
			break;
		case CC_EQUAL:
			code_equal(s);
			break;
		default:
			code_punct(s);
		}
	}
}

/* Directory part of path, for #include "..."; caller frees. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrndup(".", 1);
	return xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
}

static bool scan_file(PP *pp, Source *src, bool record, int depth)
{
	PPScan s = {
		.pp = pp, .src = src, .t = src->text, .len = src->len,
		.record = record, .depth = depth, .active = true, .bol = true,
		.punct_end = UINT32_MAX, .operand_at = UINT32_MAX,
	};

	s.dir = dir_of(src->path);
	scan_text(&s);
	if (!s.failed)
		cond_check_closed(&s);
	free(s.dir);
	array_free(&s.conds);
	return !s.failed;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

/*
 * What the C compiler that builds the output predefines with -O2 -fopenmp
 * (_OPENMP, __SSE2__, __INT_MAX__, ...), read from it when mtpar was built
 * (GNUmakefile): #if must take the branches that compiler will build, or
 * the analysis reads code that does not run.
 */
static const char *const predefined[][2] = {
#include "predefined.inc"
};

/* TVM's export macros for when its headers are not at hand. */
static const char *const builtin_specs[][2] = {
	{ "TVM_DLL", "" }, { "TVM_WEAK", "" }, { "TVM_ATTRIBUTE_UNUSED", "" },
	{ "TVM_ALWAYS_INLINE", "inline" },
};

/* -D NAME=VALUE (NAME(ARGS)=... is function-like) and -U NAME. */
static void define_config(PP *pp, const PPDefine *d)
{
	const char *paren = strchr(d->name, '(');
	uint32_t n = (uint32_t)(paren ? (size_t)(paren - d->name) : strlen(d->name));

	if (!d->value)
		macro_undef(pp, d->name, n);
	else
		macro_define(pp, d->name, n, d->value, strlen(d->value), paren != NULL);
	note_macro(&pp->top->outside, 0, d->name, n, paren ? paren + 1 : NULL,
	             paren ? strcspn(paren + 1, ")") : 0, d->value,
	             d->value ? strlen(d->value) : 0);
}

static void define_initial(PP *pp, const PPConfig *cfg)
{
	size_t i;

	for (i = 0; i < sizeof(builtin_specs) / sizeof(builtin_specs[0]); i++) {
		const char *name = builtin_specs[i][0];
		PPMacro *m = macro_get(pp, name, (uint32_t)strlen(name));

		m->builtin = true;
		m->builtin_exp = builtin_specs[i][1];
	}
	for (i = 0; i < sizeof(predefined) / sizeof(predefined[0]); i++)
		macro_define(pp, predefined[i][0], (uint32_t)strlen(predefined[i][0]),
		             predefined[i][1], strlen(predefined[i][1]), false);
	for (i = 0; cfg && i < cfg->defines.len; i++)
		define_config(pp, &cfg->defines.items[i]);
}

bool pp_scan(Source *src, const PPConfig *cfg)
{
	PP pp = { .cfg = cfg, .gen = 1, .top = src };
	bool ok;

	if (!cclass['a'])
		init_tables();
	pp.init_min = cfg && cfg->initializer_min ? cfg->initializer_min
	                                          : INITIALIZER_MIN_DEFAULT;
	src->hidden.len = 0;
	src->outside.len = 0;
	src->own.len = 0;
	src->reserved_at = src->errno_at = src->fpflags_at = UINT32_MAX;
	define_initial(&pp, cfg);
	ok = scan_file(&pp, src, true, 0);
	macro_free_all(&pp);
	array_free(&pp.seen);
	array_free(&pp.open);
	array_free(&pp.line);
	array_free(&pp.map);
	array_free(&pp.scratch);
	free(pp.missing);
	return ok;
}

static const char *const hide_kind_name[] = {
	[HIDE_INACTIVE] = "inactive", [HIDE_DIRECTIVE] = "directive",
	[HIDE_MACRO] = "macro", [HIDE_ATTRIBUTE] = "attribute",
	[HIDE_INITIALIZER] = "initializer",
	[HIDE_BITFIELD] = "bitfield", [HIDE_COMMENT] = "comment",
	[HIDE_PRAGMA] = "pragma", [HIDE_CASE_RANGE] = "case range",
	[HIDE_BODY_LINE] = "body line", [HIDE_OPERAND] = "operand", [HIDE_PAREN] = "paren",
};

/* The expansion as a C string literal body: '"' and '\' escaped. */
static void dump_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void pp_dump(FILE *out, const Source *src)
{
	for (uint32_t i = 0; i < src->hidden.len; i++) {
		const Hidden *h = &src->hidden.items[i];
		uint32_t l1, c1, l2, c2;

		source_pos(src, h->start, &l1, &c1);
		source_pos(src, h->end - 1, &l2, &c2);
		fprintf(out, "%s %u:%u-%u:%u", hide_kind_name[h->kind], l1, c1, l2, c2);
		if (h->kind == HIDE_MACRO) {
			fputs(" -> ", out);
			dump_quoted(out, h->expansion ? h->expansion : "");
		}
		fputc('\n', out);
	}
}
