/*
 * reserved.c - front end: does the input use a name that mtpar's output
 * declares?  The parallel code adds parameters, locals and functions named
 * mtpar_... (mtpar_lo, mtpar_part, mtpar_buf0, mtpar_wait) and clones named
 * NAME__mtparK.  A global of the input with one of those names would be
 * hidden by the parameter inside a clone, or clash with the runtime, and
 * the output would compute something else or not compile.  Such an input
 * (mtpar's own output, given back to it, is one) is left sequential.
 * pp_scan notes the first such name of active code (Source.reserved_at);
 * here the macros' names and replacements are looked at too.
 */
#include <string.h>

#include "frontend.h"

bool reserved_name(const char *p, size_t n)
{
	if (n > 6 && memcmp(p, "mtpar_", 6) == 0)
		return true;
	for (size_t i = 0; i + 7 < n; i++)
		if (memcmp(p + i, "__mtpar", 7) == 0 && p[i + 7] >= '0' && p[i + 7] <= '9')
			return true;
	return false;
}

static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Does text (a macro's replacement) hold such a name?  (In a literal too: no harm done.) */
static bool reserved_in(const char *text)
{
	for (const char *p = text; p && *p;) {
		const char *e = p;

		while (ident_char(*e))
			e++;
		if (e == p)
			p++;
		else if (reserved_name(p, (size_t)(e - p)))
			return true;
		else
			p = e;
	}
	return false;
}

/* The byte of the first #define (or -D, at 0) whose name or replacement is such a name. */
static uint32_t reserved_macro(const PPConstList *l)
{
	for (uint32_t i = 0; i < l->len; i++) {
		const char *name = intern_name(l->items[i].name);

		if (reserved_name(name, strlen(name)) || reserved_in(l->items[i].text))
			return l->items[i].at;
	}
	return UINT32_MAX;
}

bool reserved_names_used(const Program *prog)
{
	for (uint32_t k = 0; k < prog->sources.len; k++) {
		const Source *src = prog->sources.items[k];
		uint32_t at = src->reserved_at;

		if (at == UINT32_MAX)
			at = reserved_macro(&src->own);
		if (at == UINT32_MAX)
			at = reserved_macro(&src->outside);
		if (at != UINT32_MAX) {
			warning_at(src, at, "this program uses names that mtpar's parallel code declares "
			                    "(mtpar_..., NAME__mtparN): it is left sequential");
			return true;
		}
	}
	return false;
}
