/*
 * parse.c - runs tree-sitter-c over the parts of a source that pp_scan left
 * visible (tree-sitter's included ranges), and reports the first ERROR or
 * MISSING node GCC-style instead of handing a broken tree to the lowering.
 */
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "frontend.h"

const TSLanguage *tree_sitter_c(void);

bool parse_check_abi(void)
{
	uint32_t abi = ts_language_version(tree_sitter_c());

	if (abi < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION || abi > TREE_SITTER_LANGUAGE_VERSION) {
		error_plain("the C grammar has ABI %u; this tree-sitter runtime accepts %u to %u",
		            abi, TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION,
		            TREE_SITTER_LANGUAGE_VERSION);
		return false;
	}
	return true;
}

static TSPoint point_at(const Source *src, uint32_t byte)
{
	uint32_t line, col;

	source_pos(src, byte, &line, &col);
	return (TSPoint){ line - 1, col - 1 };
}

/* The complement of src->hidden, as tree-sitter ranges.  Caller frees. */
static TSRange *visible_ranges(const Source *src, uint32_t *count)
{
	TSRange *r = xmalloc((src->hidden.len + 1) * sizeof(*r));
	uint32_t n = 0, from = 0;

	for (uint32_t i = 0; i <= src->hidden.len; i++) {
		uint32_t to = i < src->hidden.len ? src->hidden.items[i].start : src->len;

		if (to > from) {
			r[n].start_byte = from;
			r[n].end_byte = to;
			r[n].start_point = point_at(src, from);
			r[n].end_point = point_at(src, to);
			n++;
		}
		if (i < src->hidden.len)
			from = src->hidden.items[i].end;
	}
	*count = n;
	return r;
}

/* First ERROR or MISSING node in document order, or a null node. */
static TSNode first_error(TSNode node)
{
	uint32_t n;

	if (ts_node_is_missing(node) || strcmp(ts_node_type(node), "ERROR") == 0)
		return node;
	n = ts_node_child_count(node);
	for (uint32_t i = 0; i < n; i++) {
		TSNode c = ts_node_child(node, i);

		if (ts_node_has_error(c)) {
			TSNode e = first_error(c);

			if (!ts_node_is_null(e))
				return e;
		}
	}
	return (TSNode){ 0 };
}

/* The first byte of [start, end) that is not printable ASCII, or -1. */
static int first_odd_byte(const Source *src, uint32_t start, uint32_t end)
{
	for (uint32_t i = start; i < end; i++) {
		unsigned char c = (unsigned char)src->text[i];

		if (c >= 0x7f || (c < 0x20 && c != '\t'))
			return (int)i;
	}
	return -1;
}

static void report_syntax_error(const Source *src, TSNode root)
{
	TSNode e = first_error(root);
	uint32_t at = ts_node_is_null(e) ? 0 : ts_node_start_byte(e);

	if (!ts_node_is_null(e) && ts_node_is_missing(e)) {
		error_at(src, at, "syntax error: expected '%s'", ts_node_type(e));
		return;
	}
	if (!ts_node_is_null(e) && ts_node_child_count(e) > 0) {
		/* An ERROR node starts at the first token the grammar could not place. */
		TSNode tok = ts_node_child(e, 0);
		uint32_t len = ts_node_end_byte(tok) - ts_node_start_byte(tok);
		int odd = first_odd_byte(src, ts_node_start_byte(tok), ts_node_end_byte(tok));

		if (odd >= 0) { /* as GCC says it: a byte outside literals and comments */
			error_at(src, (uint32_t)odd, "stray '\\%o' in program",
			         (unsigned char)src->text[odd]);
			return;
		}
		if (len > 0 && len <= 40) {
			error_at(src, at, "syntax error before '%.*s'", (int)len,
			         src->text + ts_node_start_byte(tok));
			return;
		}
	}
	error_at(src, at, "syntax error");
}

/*
 * The first node nested deeper than MTPAR_MAX_NESTING, or a null node.  A
 * cursor walk: the recursive passes after it may trust the depth.
 */
static TSNode too_deep(TSNode root)
{
	TSTreeCursor cur = ts_tree_cursor_new(root);
	TSNode found = { 0 };
	uint32_t depth = 0;

	for (;;) {
		if (depth > MTPAR_MAX_NESTING) {
			found = ts_tree_cursor_current_node(&cur);
			break;
		}
		if (ts_tree_cursor_goto_first_child(&cur)) {
			depth++;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&cur)) {
			if (!ts_tree_cursor_goto_parent(&cur))
				goto done;
			depth--;
		}
	}
done:
	ts_tree_cursor_delete(&cur);
	return found;
}

TSTree *parse_tree(const Source *src)
{
	TSParser *parser = ts_parser_new();
	uint32_t nranges;
	TSRange *ranges = visible_ranges(src, &nranges);
	TSTree *tree = NULL;

	if (!ts_parser_set_language(parser, tree_sitter_c()))
		die("tree-sitter refused the C grammar");
	if (nranges > 0 && !ts_parser_set_included_ranges(parser, ranges, nranges))
		die("tree-sitter refused the visible ranges of %s", src->path);
	/* nothing visible (an empty file, or every line preprocessed away): an empty unit */
	tree = ts_parser_parse_string(parser, NULL, nranges ? src->text : "", nranges ? src->len : 0);
	free(ranges);
	ts_parser_delete(parser);
	if (!tree)
		die("tree-sitter could not parse %s", src->path);
	return tree;
}

bool parse_accept(const Source *src, TSTree *tree)
{
	TSNode deep = too_deep(ts_tree_root_node(tree));

	if (!ts_node_is_null(deep)) {
		error_at(src, ts_node_start_byte(deep), "nesting too deep (limit %d)", MTPAR_MAX_NESTING);
		ts_tree_delete(tree);
		return false;
	}
	if (ts_node_has_error(ts_tree_root_node(tree))) {
		report_syntax_error(src, ts_tree_root_node(tree));
		ts_tree_delete(tree);
		return false;
	}
	return true;
}

/* Does the declarator node d declare a function (a function_declarator in it)? */
static bool declares_function(TSNode d)
{
	uint32_t n = ts_node_named_child_count(d);

	if (strcmp(ts_node_type(d), "function_declarator") == 0)
		return true;
	for (uint32_t i = 0; i < n; i++)
		if (declares_function(ts_node_named_child(d, i)))
			return true;
	return false;
}

bool parse_misread(TSTree *tree)
{
	TSNode root = ts_tree_root_node(tree);
	uint32_t n = ts_node_named_child_count(root);

	if (ts_node_has_error(root))
		return true;
	for (uint32_t i = 0; i < n; i++) {
		TSNode c = ts_node_named_child(root, i), d;

		if (strcmp(ts_node_type(c), "function_definition") != 0)
			continue;
		d = ts_node_child_by_field_name(c, "declarator", 10);
		if (ts_node_is_null(d) || !declares_function(d))
			return true; /* `KERNEL(k) { ... }`: a macro spells the header */
	}
	return false;
}

TSTree *parse_source(const Source *src)
{
	TSTree *tree = parse_tree(src);

	return parse_accept(src, tree) ? tree : NULL;
}
