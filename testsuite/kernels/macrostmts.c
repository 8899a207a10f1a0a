/* macrostmts.c - found by a review (a miscompile before 2026-11-27): callee decomposition with a statement macro
 * Now a macro that spells a statement beside a callee's loops keeps the
 * call whole (middle/decomp.c top_bb_ok).  What follows is the report:
 * that expands to TWO statements between the loops.  mtpar makes each
 * expanded statement its own part (part 1 and part 2, both "statement at
 * line 27") but can only guard the macro call once in the source text, and
 * writes both guards in front of it:
 *     if (mtpar_part == 1) if (mtpar_part == 2) BUMP2;
 * which gcc expands to
 *     if (mtpar_part == 1) if (mtpar_part == 2) cnt++; cnt2 += 3;
 * so cnt++ never runs and cnt2 += 3 runs in EVERY chunk call of op__mtpar1
 * (racing with itself on two cores).
 *   gcc -O2 macro_two_stmts_part.c && ./a.out                 -> 11600056.2 2 6
 *   mtpar -np 2 --cost-model=unlimited macro_two_stmts_part.c
 *   gcc -O2 -fopenmp macro_two_stmts_part.par.c && ./a.out    -> 11600056.2 0 36 (np 3: 0 48, np 7: 0 96)
 * Same for a function-like macro `#define SET2(a,b) Z[4] = (a); Z[5] = (b)`
 * and for `#define TWICE(s) s; s` used as TWICE(cnt++) (cnt never bumped).
 * Such a macro must either be kept as one part or block the decomposition. */
#include <stdio.h>
#define N 400
#define BUMP2 cnt++; cnt2 += 3
static double X[N][N], Y[N][N];
static int cnt, cnt2;
static void op(double alpha) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      Y[i][j] = X[i][j] * alpha;
  BUMP2;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      X[i][j] = Y[i][j] + alpha;
}
int main(void) {
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) X[i][j] = (i * 7 + j * 3) % 11;
  op(1.5);
  op(2.5);
  double s = 0;
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) s += X[i][j] * (j % 5) + Y[i][j];
  printf("%.9g %d %d\n", s, cnt, cnt2);
  return 0;
}
