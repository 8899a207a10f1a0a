/*
 * interval.c - access analysis: intervals [lo, hi] over int64, with
 * IV_NINF and IV_PINF standing for -inf and +inf (a plain non-relational
 * interval domain, Cousot and Cousot 1977), and the arithmetic of C on them.
 */
#include "middle.h"

/* Wide arithmetic: infinities become +-2^100, results are clamped back. */
#define WBIG ((IvWide)1 << 100)

IvWide iv_wide_lo(int64_t v) { return v == IV_NINF ? -WBIG : v; }
IvWide iv_wide_hi(int64_t v) { return v == IV_PINF ? WBIG : v; }

int64_t iv_clamp_lo(IvWide w)
{
	if (w <= (IvWide)INT64_MIN)
		return IV_NINF;
	return w >= (IvWide)INT64_MAX ? INT64_MAX - 1 : (int64_t)w;
}

int64_t iv_clamp_hi(IvWide w)
{
	if (w >= (IvWide)INT64_MAX)
		return IV_PINF;
	return w <= (IvWide)INT64_MIN ? INT64_MIN + 1 : (int64_t)w;
}

Ival iv_const(int64_t c) { return (Ival){ c, c }; }
bool iv_is_const(Ival a) { return a.lo == a.hi && a.lo != IV_NINF && a.hi != IV_PINF; }
bool iv_is_top(Ival a) { return a.lo == IV_NINF && a.hi == IV_PINF; }

Ival iv_join(Ival a, Ival b)
{
	return (Ival){ a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi };
}

/* Intersection; *empty tells when there is none (a keeps its value then). */
Ival iv_meet(Ival a, Ival b, bool *empty)
{
	Ival r = { a.lo > b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi };

	*empty = r.lo > r.hi;
	return *empty ? a : r;
}

Ival iv_add(Ival a, Ival b)
{
	return (Ival){ iv_clamp_lo(iv_wide_lo(a.lo) + iv_wide_lo(b.lo)), iv_clamp_hi(iv_wide_hi(a.hi) + iv_wide_hi(b.hi)) };
}

Ival iv_neg(Ival a)
{
	return (Ival){ iv_clamp_lo(-iv_wide_hi(a.hi)), iv_clamp_hi(-iv_wide_lo(a.lo)) };
}

static IvWide wmul(IvWide x, IvWide y)
{
	if (x == 0 || y == 0)
		return 0;
	if (x >= WBIG || x <= -WBIG || y >= WBIG || y <= -WBIG)
		return (x > 0) == (y > 0) ? WBIG : -WBIG;
	return x * y;
}

Ival iv_mul(Ival a, Ival b)
{
	IvWide c[4] = {
		wmul(iv_wide_lo(a.lo), iv_wide_lo(b.lo)), wmul(iv_wide_lo(a.lo), iv_wide_hi(b.hi)),
		wmul(iv_wide_hi(a.hi), iv_wide_lo(b.lo)), wmul(iv_wide_hi(a.hi), iv_wide_hi(b.hi)),
	};
	IvWide lo = c[0], hi = c[0];

	for (int i = 1; i < 4; i++) {
		if (c[i] < lo)
			lo = c[i];
		if (c[i] > hi)
			hi = c[i];
	}
	return (Ival){ iv_clamp_lo(lo), iv_clamp_hi(hi) };
}

/* C division truncates toward zero, which is monotone in the dividend. */
Ival iv_div(Ival a, Ival b)
{
	int64_t c = b.lo;

	if (!iv_is_const(b) || c == 0 || c == INT64_MIN)
		return IV_TOP;
	if (c < 0)
		return iv_neg(iv_div(a, iv_const(-c)));
	return (Ival){ a.lo == IV_NINF ? IV_NINF : a.lo / c, a.hi == IV_PINF ? IV_PINF : a.hi / c };
}

/* The remainder has the dividend's sign and a smaller magnitude than c. */
Ival iv_mod(Ival a, Ival b)
{
	int64_t c = b.lo;

	if (!iv_is_const(b) || c == 0 || c == INT64_MIN)
		return IV_TOP;
	if (c < 0)
		c = -c;
	if (iv_is_const(a) && a.lo != IV_NINF && a.lo != IV_PINF)
		return iv_const(a.lo % c); /* C's remainder takes the dividend's sign, whatever the divisor's */
	if (a.lo >= 0)
		return a.hi < c ? a : (Ival){ 0, c - 1 };
	if (a.hi <= 0)
		return a.lo > -c ? a : (Ival){ -(c - 1), 0 };
	return (Ival){ a.lo > -(c - 1) ? a.lo : -(c - 1), a.hi < c - 1 ? a.hi : c - 1 };
}

Ival iv_shr(Ival a, Ival b)
{
	int k = (int)b.lo;

	if (!iv_is_const(b) || b.lo < 0 || b.lo > 62)
		return IV_TOP;
	return (Ival){ a.lo == IV_NINF ? IV_NINF : a.lo >> k, a.hi == IV_PINF ? IV_PINF : a.hi >> k };
}

Ival iv_shl(Ival a, Ival b)
{
	if (!iv_is_const(b) || b.lo < 0 || b.lo > 62)
		return IV_TOP;
	return iv_mul(a, iv_const((int64_t)1 << b.lo));
}

/* x & m with m >= 0 lies in [0, m] whatever x is. */
Ival iv_and(Ival a, Ival b)
{
	if (iv_is_const(b) && b.lo >= 0)
		return (Ival){ 0, a.lo >= 0 && a.hi < b.lo ? a.hi : b.lo };
	if (iv_is_const(a) && a.lo >= 0)
		return iv_and(b, a);
	if (a.lo >= 0 && b.lo >= 0)
		return (Ival){ 0, a.hi < b.hi ? a.hi : b.hi };
	return IV_TOP;
}

/* x | y and x ^ y of non-negative values stay below the next power of two. */
Ival iv_or(Ival a, Ival b)
{
	int64_t m = a.hi > b.hi ? a.hi : b.hi, mask = 1;

	if (a.lo < 0 || b.lo < 0 || m == IV_PINF || m >= ((int64_t)1 << 61))
		return IV_TOP;
	while (mask <= m)
		mask <<= 1;
	return (Ival){ 0, mask - 1 };
}

/* A value converted to type t: exact when it fits, else whatever t holds. */
Ival iv_convert(Ival v, const Type *t)
{
	Ival r = iv_of_type(t);

	return v.lo >= r.lo && v.hi <= r.hi ? v : r;
}

/* Every value an object of integer type t can hold. */
Ival iv_of_type(const Type *t)
{
	int size;
	bool uns;

	if (!type_int(t, &size, &uns))
		return IV_TOP;
	if (t->kind == TY_BOOL)
		return (Ival){ 0, 1 };
	if (size >= 8)
		return uns ? (Ival){ 0, IV_PINF } : IV_TOP;
	if (uns)
		return (Ival){ 0, ((int64_t)1 << (8 * size)) - 1 };
	return (Ival){ -((int64_t)1 << (8 * size - 1)), ((int64_t)1 << (8 * size - 1)) - 1 };
}
