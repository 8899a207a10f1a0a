function relu testsuite/golden/overlap.c:15-19
  MT1 RB 16-17 for (int32_t i = 0; i < 16; ++i) [trip 16]
    MT1.1 BB 17
  MT2 BB 18 exits
function main_ws testsuite/golden/overlap.c:21-27
  MT1 SB 22 call relu
  MT2 SB 23 call relu
  MT3 SB 24 call relu
  MT4 SB 25 call relu
  MT5 SB 26 call relu
function copy64 testsuite/golden/overlap.c:29-32
  MT1 RB 30-31 for (int i = 0; i < 64; i++) [trip 64]
    MT1.1 BB 31
function copy32 testsuite/golden/overlap.c:34-37
  MT1 RB 35-36 for (int i = 0; i < 32; i++) [trip 32]
    MT1.1 BB 36
function main_union testsuite/golden/overlap.c:39-43
  MT1 SB 40 call copy64
  MT2 SB 41 call copy32
  MT3 SB 42 call copy64
