/* a quoted header mtpar cannot find may define what #ifndef tests: the
 * branch mtpar would take may not be the compiler's */
#include "sizes_not_here.h"
#ifndef N
#define N 1000
#endif
static float x[N];
