/*
 * reserved.c - front end: does the input use a name that mtpar's output
 * declares?  The parallel code adds parameters, locals and functions named
 * mtpar_... (mtpar_lo, mtpar_part, mtpar_buf0, mtpar_wait) and clones named
 * NAME__mtparK.  A global of the input with one of those names would be
 * hidden by the parameter inside a clone, or clash with the runtime, and
 * the output would compute something else or not compile.  Such an input
 * (mtpar's own output, given back to it, is one) is left sequential.
 */
#include <string.h>

#include "frontend.h"

static bool ident_start(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/* Is the identifier [p, p + n) one of the names the output declares? */
static bool reserved(const char *p, size_t n)
{
	if (n > 6 && memcmp(p, "mtpar_", 6) == 0)
		return true;
	for (size_t i = 0; i + 7 < n; i++)
		if (memcmp(p + i, "__mtpar", 7) == 0 && p[i + 7] >= '0' && p[i + 7] <= '9')
			return true;
	return false;
}

/* The end of the comment, string or character literal that starts at i, or i. */
static uint32_t skip_quoted(const char *t, uint32_t len, uint32_t i)
{
	char q = t[i];

	if (q == '/' && i + 1 < len && t[i + 1] == '/') {
		while (i < len && t[i] != '\n')
			i += t[i] == '\\' && i + 1 < len ? 2 : 1;
		return i;
	}
	if (q == '/' && i + 1 < len && t[i + 1] == '*') {
		for (i += 2; i + 1 < len && !(t[i] == '*' && t[i + 1] == '/'); i++)
			;
		return i + 2 < len ? i + 2 : len;
	}
	if (q != '"' && q != '\'')
		return i;
	for (i++; i < len && t[i] != q && t[i] != '\n'; i++)
		if (t[i] == '\\')
			i++;
	return i < len ? i + 1 : len;
}

/* The byte of src's first identifier that the output declares, or UINT32_MAX. */
static uint32_t first_in_text(const Source *src)
{
	const char *t = src->text;

	for (uint32_t i = 0; i < src->len;) {
		uint32_t j = skip_quoted(t, src->len, i), start;

		if (j != i) {
			i = j;
			continue;
		}
		if (!ident_start(t[i]) || (i > 0 && ident_char(t[i - 1]))) {
			i++;
			continue;
		}
		for (start = i; i < src->len && ident_char(t[i]); i++)
			;
		if (reserved(t + start, i - start))
			return start;
	}
	return UINT32_MAX;
}

bool reserved_names_used(const Program *prog)
{
	for (uint32_t k = 0; k < prog->sources.len; k++) {
		const Source *src = prog->sources.items[k];
		uint32_t at = first_in_text(src);

		for (uint32_t i = 0; at == UINT32_MAX && i < src->outside.len; i++) {
			const char *name = intern_name(src->outside.items[i].name);

			if (reserved(name, strlen(name)))
				at = 0; /* from -D or a header: the file's start */
		}
		if (at != UINT32_MAX) {
			warning_at(src, at, "this program uses names that mtpar's parallel code declares "
			                    "(mtpar_..., NAME__mtparN): it is left sequential");
			return true;
		}
	}
	return false;
}
