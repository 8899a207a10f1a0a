/*
 * backend.h - mtpar's back end: the single-pass edit list that rewrites the
 * original source text (comments, macros and layout survive), and writing
 * the result without ever leaving a partial output file.
 */
#ifndef MTPAR_BACKEND_H
#define MTPAR_BACKEND_H

#include "frontend.h"

/* ------------------------------------------------------------------ */
/* edit.c: collect insertions and replacements, apply them in one pass */
/* ------------------------------------------------------------------ */

/* Replace source bytes [start, end) by text; start == end inserts. */
typedef struct Edit {
	uint32_t start, end;
	const char *text; /* borrowed: arena or static storage */
	uint32_t seq;     /* insertion order, keeps edits at one offset stable */
} Edit;

typedef struct EditList {
	Array(Edit) edits;
} EditList;

void edit_insert(EditList *list, uint32_t at, const char *text);
void edit_replace(EditList *list, uint32_t start, uint32_t end, const char *text);
/*
 * Writes src with the edits applied to out.  Overlapping replacements are
 * a broken invariant.  Returns false on a write error.
 */
bool edit_apply(const Source *src, EditList *list, FILE *out);
/*
 * Writes the edited source to path atomically: a temporary file beside it,
 * renamed into place only when everything was written.  False after a
 * diagnostic.
 */
bool edit_write_file(const Source *src, EditList *list, const char *path);

#endif /* MTPAR_BACKEND_H */
