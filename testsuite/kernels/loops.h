/* loops.h - macros as hand-written numeric code keeps them: a loop
 * header spelled by a macro, nests of them, braces by name, an alignment,
 * a kernel's prototype.  mtpar reads such a use as the compiler does
 * (frontend/unfold.c). */
#ifndef LOOPS_H
#define LOOPS_H

#define FOR(i, n) for (int i = 0; i < (n); i++)
#define FOR_RANGE(i, lo, hi) for (i = (lo); i < (hi); i++)
#define FOR2(i, j, n, m) FOR(i, n) FOR(j, m)
#define BEGIN {
#define END }
/* ... and words of declarations */
#define ALIGNED(n) __attribute__((aligned(n)))
#define KERNEL(name) static void name(void)

#endif
