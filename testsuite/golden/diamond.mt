function fill testsuite/golden/diamond.c:5-8
  MT1 RB 6-7 for (int i = 0; i < 64; i++) [trip 64]
    MT1.1 BB 7
function scale testsuite/golden/diamond.c:10-13
  MT1 RB 11-12 for (int i = 0; i < 64; i++) [trip 64]
    MT1.1 BB 12
function diamond testsuite/golden/diamond.c:15-25
  MT1 SB 16 call fill
  MT2 BB 17 branch
  MT3 SB 18 call scale if MT2:T
  MT4 SB 20 call fill if MT2:F
  MT5 RB 22-23 for (int i = 0; i < 64; i++) [trip 64]
    MT5.1 BB 23
  MT6 SB 24 call fill
