/* macroops.c - found by a review (a miscompile before 2026-11-27): callee decomposition, an expression statement
 * Now a macro that spells a statement beside a callee's loops keeps the
 * call whole (middle/decomp.c top_bb_ok).  What follows is the report:
 * whose FIRST token comes from an object-like macro that expands to an
 * operator, here `#define INCR ++` and `INCR cnt;` (= ++cnt;).  mtpar does
 * not make it a part at all (op__mtpar1's comment lists only "part 0 = loop
 * at line 25 ..., part 1 = loop at line 29 ...") and copies it unguarded into the
 * clone, so every chunk call runs ++cnt (racing on the cores):
 *     if (mtpar_part == 0) for (i = mtpar_lo; ...) ...
 *     INCR cnt;
 *     if (mtpar_part == 1) for (i = mtpar_lo; ...) ...
 * The output check ("line N would run in every chunk") does not catch it.
 *   gcc -O2 macro_leading_operator_stmt.c && ./a.out               -> 13440056.2 2
 *   mtpar -np 2 --cost-model=unlimited macro_leading_operator_stmt.c
 *   gcc -O2 -fopenmp macro_leading_operator_stmt.par.c && ./a.out  -> 17120056.2 6 (np 3: 18960056.2 8, np 7: 26320056.2 16)
 * Same with `#define BUMP ++; cnt2++` used as `cnt BUMP;`, and
 * `#define NEG (void)0,` used as `NEG cnt2 = 3;` (unguarded, harmless only
 * because it is idempotent).  Function-like macros (INC(cnt), DEC(cnt)) and
 * object-like macros starting with an identifier or '(' are guarded correctly. */
#include <stdio.h>
#define N 400
#define INCR ++
static double X[N][N], Y[N][N];
static int cnt;
static void op(double alpha) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      Y[i][j] = X[i][j] * alpha;
  INCR cnt;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      X[i][j] = Y[i][j] + alpha + cnt;
}
int main(void) {
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) X[i][j] = (i * 7 + j * 3) % 11;
  op(1.5);
  op(2.5);
  double s = 0;
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) s += X[i][j] * (j % 5) + Y[i][j];
  printf("%.9g %d\n", s, cnt);
  return 0;
}
