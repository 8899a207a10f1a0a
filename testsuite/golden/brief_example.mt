function produce testsuite/golden/brief_example.c:7-10
  MT1 RB 8-9 for (int i = 0; i < 64; i++) [trip 64]
    MT1.1 BB 9
function run testsuite/golden/brief_example.c:12-19
  MT1 BB 13 branch
  MT2 SB 14 call produce if MT1:T
  MT3 SB 16 call produce
  MT4 RB 17-18 for (int i = 0; i < 64; i++) [trip 64]
    MT4.1 BB 18
