/* __has_attribute in #if: mtpar cannot tell what the compiler would say, and
 * a wrong guess picks another size */
#if defined(__has_attribute) && __has_attribute(aligned)
#define N 200
#else
#define N 100
#endif
static float x[N];
