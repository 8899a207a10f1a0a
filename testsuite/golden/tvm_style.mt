function tvmgen_default_fused_add testsuite/golden/tvm_style.c:11-26
  MT1 BB 12
  MT2 RB 13-21 for (int32_t ax0_ax1_fused = 0; ax0_ax1_fused < 16; ++ax0_ax1_fused) [trip 16]
    MT2.1 BB 14
    MT2.2 RB 15-17 for (int32_t k = 0; k < 4; ++k) [trip 4]
      MT2.2.1 BB 16
    MT2.3 RB 18-20 for (int32_t k1 = 0; k1 < 4; ++k1) [trip 4]
      MT2.3.1 BB 19
  MT3 RB 22-24 for (int32_t i = 0; i < 64; ++i) [trip 64]
    MT3.1 BB 23
  MT4 BB 25 exits
function tvmgen_default___tvm_main__ testsuite/golden/tvm_style.c:28-32
  MT1 SB 29 call tvmgen_default_fused_add branch exits
  MT2 SB 30 call tvmgen_default_fused_add branch exits
  MT3 BB 31 exits
