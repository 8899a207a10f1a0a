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
 *
 * Two more kinds of name tell what the threads cannot give back: the
 * floating-point exception flags and errno are per thread, so a program
 * that reads the flags stays sequential, and one that uses errno has the
 * math functions that set it kept in order (names.c).
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

typedef bool NamePred(const char *p, size_t n);

/* Does text (a macro's replacement) hold a name pred takes?  (In a literal too: no harm done.) */
static bool text_names(const char *text, NamePred *pred)
{
	for (const char *p = text; p && *p;) {
		const char *e = p;

		while (ident_char(*e))
			e++;
		if (e == p)
			p++;
		else if (pred(p, (size_t)(e - p)))
			return true;
		else
			p = e;
	}
	return false;
}

/* The byte of the first #define (or -D, at 0) whose name or replacement pred takes. */
static uint32_t macro_naming(const PPConstList *l, NamePred *pred)
{
	for (uint32_t i = 0; i < l->len; i++) {
		const char *name = intern_name(l->items[i].name);

		if (pred(name, strlen(name)) || text_names(l->items[i].text, pred))
			return l->items[i].at;
	}
	return UINT32_MAX;
}

/* Where pp_scan saw the first name of active code that pred takes. */
static uint32_t code_use(const Source *src, NamePred *pred)
{
	if (pred == reserved_name)
		return src->reserved_at;
	return pred == errno_name ? src->errno_at : src->fpflags_at;
}

/*
 * The first source of prog that uses a name pred takes, in code or in a
 * macro, and where (*at); NULL when none does.
 */
static const Source *first_user(const Program *prog, NamePred *pred, uint32_t *at)
{
	for (uint32_t k = 0; k < prog->sources.len; k++) {
		const Source *src = prog->sources.items[k];

		*at = code_use(src, pred);
		if (*at == UINT32_MAX)
			*at = macro_naming(&src->own, pred);
		if (*at == UINT32_MAX)
			*at = macro_naming(&src->outside, pred);
		if (*at != UINT32_MAX)
			return src;
	}
	return NULL;
}

/* Does prog use a name pred takes?  Then a warning, msg, at the first use. */
static bool warn_first_use(const Program *prog, NamePred *pred, const char *msg)
{
	uint32_t at;
	const Source *src = first_user(prog, pred, &at);

	if (src)
		warning_at(src, at, "%s", msg);
	return src != NULL;
}

bool reserved_names_used(const Program *prog)
{
	return warn_first_use(prog, reserved_name, "this program uses names that mtpar's parallel "
	                      "code declares (mtpar_..., NAME__mtparN): it is left sequential");
}

bool fp_flag_reader(const char *p, size_t n)
{
	static const char *const readers[] = { "fetestexcept", "fegetexceptflag", "feholdexcept",
		                               "fegetenv", "feupdateenv" };

	for (size_t i = 0; i < sizeof(readers) / sizeof(*readers); i++)
		if (strlen(readers[i]) == n && memcmp(readers[i], p, n) == 0)
			return true;
	return false;
}

bool fp_flags_read(const Program *prog)
{
	return warn_first_use(prog, fp_flag_reader, "this program reads the floating-point "
	                      "exception flags, which each thread keeps its own of: it is left "
	                      "sequential");
}

bool errno_name(const char *p, size_t n)
{
	return n == 5 && memcmp(p, "errno", 5) == 0;
}

bool errno_used(const Program *prog)
{
	uint32_t at;

	return first_user(prog, errno_name, &at) != NULL;
}
