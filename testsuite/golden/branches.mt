function produce testsuite/golden/branches.c:5-8
  MT1 RB 6-7 for (int i = 0; i < n; i++) [trip 64]
    MT1.1 BB 7
function run testsuite/golden/branches.c:10-32
  MT1 BB 11
  MT2 BB 12 branch
  MT3 SB 13 call produce if MT2:T
  MT4 SB 15 call produce
  MT5 RB 16-17 for (int i = 0; i < 64; i++) [trip 64]
    MT5.1 BB 17
  MT6 BB 18-19 branch exits
  MT7 BB 20 branch
  MT8 BB 21 if MT7:T
  MT9 RB 23-24 for (int i = 0; i < n; i++) if MT7:F
    MT9.1 BB 24
  MT10 RB 26-27 while (k < 10)
    MT10.1 BB 27
  MT11 RB 28-30 do-while (k > 0)
    MT11.1 BB 29
  MT12 BB 31 exits
