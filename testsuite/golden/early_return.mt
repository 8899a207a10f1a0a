function op testsuite/golden/early_return.c:7-11
  MT1 RB 8-9 for (int i = 0; i < 64; i++) [trip 64]
    MT1.1 BB 9
  MT2 BB 10 exits
function fill testsuite/golden/early_return.c:13-16
  MT1 RB 14-15 for (int i = 0; i < 64; i++) [trip 64]
    MT1.1 BB 15
function early testsuite/golden/early_return.c:18-31
  MT1 SB 19 call fill
  MT2 BB 20-21 branch exits
  MT3 SB 22 call op branch exits
  MT4 SB 23 call fill
  MT5 RB 24-29 for (int i = 0; i < n; i++)
    MT5.1 BB 25-26 branch exits
    MT5.2 SB 27 call fill
    MT5.3 BB 28
  MT6 BB 30 exits
