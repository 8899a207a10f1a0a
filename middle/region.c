/*
 * region.c - byte regions of memory objects: a base object and a sorted,
 * disjoint union of byte ranges [lo, hi) in it.  Two regions of one base
 * overlap when two of their ranges meet; regions of different bases ask
 * objects.c whether the two objects may share storage (obj_may_alias).
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"

/*
 * A region keeps at most this many ranges; beyond it the two ranges with
 * the smallest gap between them are merged (the region only grows, so it
 * stays sound).
 */
enum { REGION_MAX_RANGES = 32 };

void region_init(Region *r, Var *base)
{
	memset(r, 0, sizeof(*r));
	r->base = base;
}

void region_set_whole(Region *r)
{
	r->whole = true;
	array_free(&r->ranges);
}

bool region_is_empty(const Region *r)
{
	return !r->whole && r->ranges.len == 0;
}

/* Merges the two neighbouring ranges with the smallest gap. */
static void merge_closest(Region *r)
{
	ByteRange *it = r->ranges.items;
	uint32_t best = 1;
	uint64_t gap = UINT64_MAX;

	for (uint32_t i = 1; i < r->ranges.len; i++) {
		uint64_t g = (uint64_t)it[i].lo - (uint64_t)it[i - 1].hi;

		if (g < gap) {
			gap = g;
			best = i;
		}
	}
	it[best - 1].hi = it[best].hi;
	memmove(&it[best], &it[best + 1], (r->ranges.len - best - 1) * sizeof(*it));
	r->ranges.len--;
}

void region_add_range(Region *r, int64_t lo, int64_t hi)
{
	ByteRange *it;
	uint32_t i = 0, j, n = r->ranges.len;

	if (r->whole || lo >= hi)
		return;
	if (lo == REGION_BEGIN && hi == REGION_END) {
		region_set_whole(r);
		return;
	}
	it = r->ranges.items;
	while (i < n && it[i].hi < lo)
		i++;
	/* ranges i..j-1 meet or touch [lo, hi): fold them into it */
	for (j = i; j < n && it[j].lo <= hi; j++) {
		if (it[j].lo < lo)
			lo = it[j].lo;
		if (it[j].hi > hi)
			hi = it[j].hi;
	}
	if (j == i) { /* insert at i */
		ByteRange br = { lo, hi };

		array_push(&r->ranges, br);
		it = r->ranges.items;
		memmove(&it[i + 1], &it[i], (n - i) * sizeof(*it));
		it[i] = br;
	} else {
		it[i].lo = lo;
		it[i].hi = hi;
		memmove(&it[i + 1], &it[j], (n - j) * sizeof(*it));
		r->ranges.len -= j - i - 1;
	}
	while (r->ranges.len > REGION_MAX_RANGES)
		merge_closest(r);
}

void region_union(Region *dst, const Region *src)
{
	if (dst->base != src->base)
		die("region_union: different bases");
	if (src->whole) {
		region_set_whole(dst);
		return;
	}
	for (uint32_t i = 0; i < src->ranges.len; i++)
		region_add_range(dst, src->ranges.items[i].lo, src->ranges.items[i].hi);
}

void region_copy(Region *dst, const Region *src)
{
	region_init(dst, src->base);
	dst->whole = src->whole;
	for (uint32_t i = 0; !src->whole && i < src->ranges.len; i++)
		array_push(&dst->ranges, src->ranges.items[i]);
}

/* Same base: does a range of a meet a range of b? */
static bool ranges_meet(const Region *a, const Region *b)
{
	uint32_t i = 0, j = 0;

	if (region_is_empty(a) || region_is_empty(b))
		return false;
	if (a->whole || b->whole)
		return true;
	while (i < a->ranges.len && j < b->ranges.len) {
		const ByteRange *x = &a->ranges.items[i], *y = &b->ranges.items[j];

		if (x->hi <= y->lo)
			i++;
		else if (y->hi <= x->lo)
			j++;
		else
			return true;
	}
	return false;
}

bool region_overlap(const Region *a, const Region *b)
{
	if (region_is_empty(a) || region_is_empty(b))
		return false;
	if (a->base == b->base)
		return a->base ? ranges_meet(a, b) : true;
	return obj_may_alias(a->base, b->base);
}

static void print_bound(FILE *out, int64_t v)
{
	if (v == REGION_BEGIN)
		fputs("-inf", out);
	else if (v == REGION_END)
		fputs("end", out);
	else
		fprintf(out, "%lld", (long long)v);
}

void region_print(FILE *out, const Region *r)
{
	int64_t size;

	if (!r->base) {
		fputs("*unknown*", out);
		return;
	}
	fputs(intern_name(r->base->name), out);
	if (r->whole)
		return;
	size = obj_size(r->base);
	if (r->ranges.len == 1 && r->ranges.items[0].lo == 0 && size > 0 &&
	    r->ranges.items[0].hi == size)
		return; /* every byte of the object: print it like whole */
	if (r->ranges.len == 0)
		fputs("[]", out);
	for (uint32_t i = 0; i < r->ranges.len; i++) {
		fputs(i ? "+[" : "[", out);
		print_bound(out, r->ranges.items[i].lo);
		fputc(',', out);
		print_bound(out, r->ranges.items[i].hi);
		fputc(')', out);
	}
}
