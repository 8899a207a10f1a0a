/*
 * region.c - byte regions of memory objects: a base object and a sorted,
 * disjoint union of byte ranges [lo, hi) in it, refined by row sets (the
 * same columns of many rows of an array of arrays).  Two regions of one
 * base overlap when two of their parts meet; regions of different bases
 * ask objects.c whether the two objects may share storage (obj_may_alias).
 */
#include <stdlib.h>
#include <string.h>

#include "middle.h"

/*
 * A region keeps at most this many ranges; beyond it the two ranges with
 * the smallest gap between them are merged (the region only grows, so it
 * stays sound).  Row sets beyond their own cap count as their hulls.
 */
enum { REGION_MAX_RANGES = 32, REGION_MAX_ROWS = 8 };

void region_init(Region *r, Var *base)
{
	memset(r, 0, sizeof(*r));
	r->base = base;
}

void region_free(Region *r)
{
	array_free(&r->ranges);
	array_free(&r->exact);
	array_free(&r->rows);
}

void region_set_whole(Region *r)
{
	r->whole = true;
	region_free(r);
}

bool region_is_empty(const Region *r)
{
	return !r->whole && r->ranges.len == 0;
}

/* Merges the two neighbouring ranges with the smallest gap. */
static void merge_closest(ByteRanges *r)
{
	ByteRange *it = r->items;
	uint32_t best = 1;
	uint64_t gap = UINT64_MAX;

	for (uint32_t i = 1; i < r->len; i++) {
		uint64_t g = (uint64_t)it[i].lo - (uint64_t)it[i - 1].hi;

		if (g < gap) {
			gap = g;
			best = i;
		}
	}
	it[best - 1].hi = it[best].hi;
	memmove(&it[best], &it[best + 1], (r->len - best - 1) * sizeof(*it));
	r->len--;
}

/* Adds [lo, hi) to the sorted, disjoint list r. */
static void add_to(ByteRanges *r, int64_t lo, int64_t hi)
{
	ByteRange *it;
	uint32_t i = 0, j, n = r->len;

	it = r->items;
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

		array_push(r, br);
		it = r->items;
		memmove(&it[i + 1], &it[i], (n - i) * sizeof(*it));
		it[i] = br;
	} else {
		it[i].lo = lo;
		it[i].hi = hi;
		memmove(&it[i + 1], &it[j], (n - j) * sizeof(*it));
		r->len -= j - i - 1;
	}
	while (r->len > REGION_MAX_RANGES)
		merge_closest(r);
}

void region_add_range(Region *r, int64_t lo, int64_t hi)
{
	if (r->whole || lo >= hi)
		return;
	if (lo == REGION_BEGIN && hi == REGION_END) {
		region_set_whole(r);
		return;
	}
	add_to(&r->ranges, lo, hi);
	if (r->rows.len)
		add_to(&r->exact, lo, hi);
}

/* Row numbers and the bounds they give, in 128 bits: no product overflows. */
#define ROW_INF ((IvWide)1 << 100)

static IvWide row_lo(int64_t t) { return t == IV_NINF ? -ROW_INF : (IvWide)t; }
static IvWide row_hi(int64_t t) { return t == IV_PINF ? ROW_INF : (IvWide)t; }

static IvWide floor_div(IvWide a, IvWide b) /* b > 0 */
{
	IvWide q = a / b;

	return a % b != 0 && a < 0 ? q - 1 : q;
}

static IvWide ceil_div(IvWide a, IvWide b) /* b > 0 */
{
	IvWide q = a / b;

	return a % b != 0 && a > 0 ? q + 1 : q;
}

void region_rows_hull(RowSet rs, int64_t *lo, int64_t *hi)
{
	*lo = rs.t0 == IV_NINF ? REGION_BEGIN : iv_clamp_lo((IvWide)rs.lo + (IvWide)rs.t0 * rs.stride);
	*hi = rs.t1 == IV_PINF ? REGION_END : iv_clamp_hi((IvWide)rs.hi + (IvWide)rs.t1 * rs.stride);
	*lo = rs.min > *lo ? rs.min : *lo;
	*hi = rs.max < *hi ? rs.max : *hi;
}

RowSet region_rows_shift(RowSet rs, int64_t k)
{
	rs.lo = iv_clamp_lo((IvWide)rs.lo + k);
	rs.hi = iv_clamp_hi((IvWide)rs.hi + k);
	rs.min = rs.min == REGION_BEGIN ? rs.min : iv_clamp_lo((IvWide)rs.min + k);
	rs.max = rs.max == REGION_END ? rs.max : iv_clamp_hi((IvWide)rs.max + k);
	return rs;
}

RowSet region_rows_within(RowSet rs, int64_t lo, int64_t hi, bool *empty)
{
	IvWide first = lo == REGION_BEGIN ? -ROW_INF : floor_div((IvWide)lo - rs.hi, rs.stride) + 1;
	IvWide last = hi == REGION_END ? ROW_INF : ceil_div((IvWide)hi - rs.lo, rs.stride) - 1;

	if (first > row_lo(rs.t0))
		rs.t0 = iv_clamp_lo(first);
	if (last < row_hi(rs.t1))
		rs.t1 = iv_clamp_hi(last);
	rs.min = lo > rs.min ? lo : rs.min;
	rs.max = hi < rs.max ? hi : rs.max;
	*empty = row_lo(rs.t0) > row_hi(rs.t1) || rs.min >= rs.max;
	return rs;
}

/* Does rs cover x, or lie next to it in rows of the same columns? */
static bool rows_join(RowSet *rs, RowSet x)
{
	if (rs->stride != x.stride || rs->lo != x.lo || rs->hi != x.hi || rs->min != x.min || rs->max != x.max ||
	    row_hi(x.t1) + 1 < row_lo(rs->t0) || row_hi(rs->t1) + 1 < row_lo(x.t0))
		return false;
	rs->t0 = row_lo(x.t0) < row_lo(rs->t0) ? x.t0 : rs->t0;
	rs->t1 = row_hi(x.t1) > row_hi(rs->t1) ? x.t1 : rs->t1;
	return true;
}

/*
 * Row sets of one row, of rows wider than their stride, or with bounds
 * that do not fit 64 bits are added as their hull: only the rows of an
 * array of arrays gain from the finer form.
 */
void region_add_rows(Region *r, RowSet rs)
{
	int64_t lo, hi;
	uint32_t i;

	if (r->whole || rs.lo >= rs.hi || row_lo(rs.t0) > row_hi(rs.t1) || rs.min >= rs.max)
		return;
	region_rows_hull(rs, &lo, &hi);
	if (rs.t0 == rs.t1 || rs.stride <= 0 || rs.lo == REGION_BEGIN || rs.hi == REGION_END ||
	    (IvWide)rs.hi - rs.lo > rs.stride) {
		region_add_range(r, lo, hi);
		return;
	}
	if (!r->rows.len)
		for (i = 0; i < r->ranges.len; i++)
			array_push(&r->exact, r->ranges.items[i]);
	for (i = 0; i < r->rows.len && !rows_join(&r->rows.items[i], rs); i++)
		;
	if (i == r->rows.len && r->rows.len < REGION_MAX_ROWS)
		array_push(&r->rows, rs);
	else if (i == r->rows.len)
		add_to(&r->exact, lo, hi);
	add_to(&r->ranges, lo, hi);
}

void region_union(Region *dst, const Region *src)
{
	const ByteRanges *plain = src->rows.len ? &src->exact : &src->ranges;

	if (dst->base != src->base)
		die("region_union: different bases");
	if (src->whole) {
		region_set_whole(dst);
		return;
	}
	for (uint32_t i = 0; i < plain->len; i++)
		region_add_range(dst, plain->items[i].lo, plain->items[i].hi);
	for (uint32_t i = 0; i < src->rows.len; i++)
		region_add_rows(dst, src->rows.items[i]);
}

void region_copy(Region *dst, const Region *src)
{
	region_init(dst, src->base);
	dst->whole = src->whole;
	for (uint32_t i = 0; !src->whole && i < src->ranges.len; i++)
		array_push(&dst->ranges, src->ranges.items[i]);
	for (uint32_t i = 0; !src->whole && i < src->exact.len; i++)
		array_push(&dst->exact, src->exact.items[i]);
	for (uint32_t i = 0; !src->whole && i < src->rows.len; i++)
		array_push(&dst->rows, src->rows.items[i]);
}

/* Does a range of the sorted list a meet one of b? */
static bool lists_meet(const ByteRanges *a, const ByteRanges *b)
{
	uint32_t i = 0, j = 0;

	while (i < a->len && j < b->len) {
		const ByteRange *x = &a->items[i], *y = &b->items[j];

		if (x->hi <= y->lo)
			i++;
		else if (y->hi <= x->lo)
			j++;
		else
			return true;
	}
	return false;
}

/* Some row t of x with x.lo + t*s < hi and lo < x.hi + t*s (open ends: REGION_BEGIN/END)? */
static bool range_meets_rows(int64_t lo, int64_t hi, RowSet x)
{
	IvWide s = x.stride, tmin = row_lo(x.t0), tmax = row_hi(x.t1);

	lo = x.min > lo ? x.min : lo;
	hi = x.max < hi ? x.max : hi;
	if (lo >= hi)
		return false;

	if (hi != REGION_END && ceil_div((IvWide)hi - x.lo, s) - 1 < tmax)
		tmax = ceil_div((IvWide)hi - x.lo, s) - 1;
	if (lo != REGION_BEGIN && floor_div((IvWide)lo - x.hi, s) + 1 > tmin)
		tmin = floor_div((IvWide)lo - x.hi, s) + 1;
	return tmin <= tmax;
}

/*
 * Rows t of x and u of y that meet: with one stride s, q = t - u runs over
 * [x.t0 - y.t1, x.t1 - y.t0] and needs y.lo - x.hi < s*q < y.hi - x.lo.
 * Other strides: x's rows against y's hull.
 */
static bool rows_meet(RowSet x, RowSet y)
{
	IvWide s = x.stride, qmin, qmax, lo, hi;
	int64_t ylo, yhi;
	bool xe, ye;

	if (x.stride != y.stride) {
		region_rows_hull(y, &ylo, &yhi);
		return range_meets_rows(ylo, yhi, x);
	}
	/* within the bytes both may reach, whole rows: the rest as above */
	x = region_rows_within(x, y.min, y.max, &xe);
	y = region_rows_within(y, x.min, x.max, &ye);
	if (xe || ye)
		return false;
	qmin = row_lo(x.t0) - row_hi(y.t1);
	qmax = row_hi(x.t1) - row_lo(y.t0);
	lo = floor_div((IvWide)y.lo - x.hi, s) + 1;
	hi = ceil_div((IvWide)y.hi - x.lo, s) - 1;
	return (lo > qmin ? lo : qmin) <= (hi < qmax ? hi : qmax);
}

static bool list_meets_rows(const ByteRanges *a, RowSet x)
{
	for (uint32_t i = 0; i < a->len; i++)
		if (range_meets_rows(a->items[i].lo, a->items[i].hi, x))
			return true;
	return false;
}

/* Same base, one of them with row sets: do their exact parts meet? */
static bool parts_meet(const Region *a, const Region *b)
{
	const ByteRanges *pa = a->rows.len ? &a->exact : &a->ranges;
	const ByteRanges *pb = b->rows.len ? &b->exact : &b->ranges;

	if (lists_meet(pa, pb))
		return true;
	for (uint32_t i = 0; i < a->rows.len; i++)
		if (list_meets_rows(pb, a->rows.items[i]))
			return true;
	for (uint32_t j = 0; j < b->rows.len; j++)
		if (list_meets_rows(pa, b->rows.items[j]))
			return true;
	for (uint32_t i = 0; i < a->rows.len; i++)
		for (uint32_t j = 0; j < b->rows.len; j++)
			if (rows_meet(a->rows.items[i], b->rows.items[j]))
				return true;
	return false;
}

/* Same base: does a part of a meet a part of b? */
static bool ranges_meet(const Region *a, const Region *b)
{
	if (region_is_empty(a) || region_is_empty(b))
		return false;
	if (a->whole || b->whole)
		return true;
	if (!lists_meet(&a->ranges, &b->ranges))
		return false;
	return a->rows.len || b->rows.len ? parts_meet(a, b) : true;
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
