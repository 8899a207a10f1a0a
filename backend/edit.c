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

/* Writes bytes [start, end) of src with the edits applied; all edits lie inside. */
static bool apply_range(const Source *src, EditList *list, uint32_t start, uint32_t end,
                        FILE *out)
{
	uint32_t pos = start;

	if (end > src->len || start > end)
		die("range [%u, %u) outside %s", start, end, src->path);
	if (list->edits.len > 1) /* qsort's pointer must not be NULL, even for no items */
		qsort(list->edits.items, list->edits.len, sizeof(Edit), cmp_edit);
	for (uint32_t i = 0; i < list->edits.len; i++) {
		const Edit *e = &list->edits.items[i];

		if (e->start < pos)
			die("overlapping edits at byte %u of %s", e->start, src->path);
		if (e->end > end)
			die("edit past the end of %s", src->path);
		fwrite(src->text + pos, 1, e->start - pos, out);
		fputs(e->text, out);
		pos = e->end;
	}
	fwrite(src->text + pos, 1, end - pos, out);
	return !ferror(out);
}

bool edit_apply(const Source *src, EditList *list, FILE *out)
{
	return apply_range(src, list, 0, src->len, out);
}

char *edit_apply_range(const Source *src, EditList *list, uint32_t start, uint32_t end)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	if (!out || !apply_range(src, list, start, end, out) || fclose(out) != 0)
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
