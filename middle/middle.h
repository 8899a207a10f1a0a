/*
 * middle.h - mtpar's middle stage: access summaries and dependence
 * analysis, the macro-flow graph (MFG), earliest executable conditions
 * (EEC) and the macro-task graph (MTG).  One section per .c file of
 * middle/, as in frontend.h.  Input: the front end's macro tasks.
 */
#ifndef MTPAR_MIDDLE_H
#define MTPAR_MIDDLE_H

#include "frontend.h"

/* ------------------------------------------------------------------ */
/* region.c: byte regions of memory objects                            */
/* ------------------------------------------------------------------ */

#define REGION_END INT64_MAX /* hi of a range that runs to the end of its object */

/* Bytes [lo, hi) of one object. */
typedef struct ByteRange {
	int64_t lo, hi;
} ByteRange;

/*
 * What an access may touch: a base object and a union of byte ranges in
 * it.  base NULL means "anything a pointer from outside may reach": it
 * overlaps every object whose address escapes and every other unknown.
 * An empty range list with whole set means the whole object.
 */
typedef struct Region {
	Var *base;
	bool whole;              /* the whole object (ranges ignored) */
	Array(ByteRange) ranges; /* sorted, disjoint, merged */
} Region;

void region_init(Region *r, Var *base);
void region_add_range(Region *r, int64_t lo, int64_t hi);
void region_set_whole(Region *r);
void region_union(Region *dst, const Region *src); /* same base */
/* May the two regions share a byte?  Sound: true unless proven disjoint. */
bool region_overlap(const Region *a, const Region *b);
/* "tu0[0,4096)" or "ws[0,64)+[128,256)" or "tu0" (whole) or "*unknown*". */
void region_print(FILE *out, const Region *r);

/* ------------------------------------------------------------------ */
/* access.c: what each MT reads and writes                             */
/* ------------------------------------------------------------------ */

typedef enum AccessKind {
	ACC_READ,
	ACC_WRITE,
} AccessKind;

typedef struct Access {
	AccessKind kind;
	Region region;
	const Expr *ref;   /* the reference, for reports (line:col); may be an argument */
	const Source *src;
} Access;

/* Reads and writes of an MT, merged per base object and kind. */
typedef struct Summary {
	Array(Access) acc;
	bool barrier;      /* calls something unknown: depends on everything */
	const Expr *barrier_at;
} Summary;

/* Fills mt->summary of every MT, callees first (interprocedural). */
void compute_summaries(Program *prog);

/* ------------------------------------------------------------------ */
/* dep.c: dependence between two MTs of one level                      */
/* ------------------------------------------------------------------ */

typedef enum DepKind {
	DEP_FLOW,   /* write then read */
	DEP_ANTI,   /* read then write */
	DEP_OUTPUT, /* write then write */
	DEP_BARRIER, /* an unknown call orders everything */
} DepKind;

typedef struct Dep {
	DepKind kind;
	const Access *from, *to; /* NULL for a barrier */
	Var *object;             /* the object that causes it, NULL if unknown */
} Dep;

/* First dependence from `earlier` to `later` (same level), false if independent. */
bool dep_between(const MT *earlier, const MT *later, Dep *out);

#endif /* MTPAR_MIDDLE_H */
