/* #pragma push_macro saves a macro that pop_macro brings back: mtpar does not follow them */
#define N 200
#pragma push_macro("N")
#undef N
#define N 100
static float half[N];
#pragma pop_macro("N")
static float x[N];
