function scan testsuite/golden/unmodelled.c:7-16
  MT1 RB 8-12 for (int i = 0; i < n; i++) unmodelled(goto)
    MT1.1 BB 9-10 branch exits unmodelled(goto)
    MT1.2 BB 11
  MT2 BB 13 exits
  MT3 BB 14-15
function vla testsuite/golden/unmodelled.c:18-23
  MT1 BB 19 unmodelled(variable-length array)
  MT2 RB 20-21 for (int i = 0; i < n; i++)
    MT2.1 BB 21
  MT3 BB 22 exits
function jump testsuite/golden/unmodelled.c:25-30
  MT1 BB 26-27 branch exits unmodelled(setjmp/longjmp)
  MT2 BB 28-29 exits unmodelled(variadic call)
