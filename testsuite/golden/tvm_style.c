/* TVM-style: TVM_DLL operators over one workspace, guarded calls, extern "C". */
#include <stdint.h>
#ifndef TVM_DLL
#define TVM_DLL
#endif
#ifdef __cplusplus
extern "C" {
#endif
static const float __attribute__((section(".rodata.tvm"), )) p0[4] = { 1.0f, 2.0f, 3.0f, 4.0f };

TVM_DLL int32_t tvmgen_default_fused_add(void* arg0, void* arg1, uint8_t* ws) {
  void* x_let = &ws[64];
  for (int32_t ax0_ax1_fused = 0; ax0_ax1_fused < 16; ++ax0_ax1_fused) {
    float acc[4];
    for (int32_t k = 0; k < 4; ++k) {
      acc[k] = ((float*)arg0)[((ax0_ax1_fused * 4) + k)] + p0[k];
    }
    for (int32_t k1 = 0; k1 < 4; ++k1) {
      ((float*)x_let)[((ax0_ax1_fused * 4) + k1)] = acc[k1];
    }
  }
  for (int32_t i = 0; i < 64; ++i) {
    ((float*)arg1)[i] = ((float*)(&ws[64]))[i] > 0.0f ? ((float*)(&ws[64]))[i] : 0.0f;
  }
  return 0;
}

TVM_DLL int32_t tvmgen_default___tvm_main__(float* input, float* output, uint8_t* ws) {
  if (tvmgen_default_fused_add(input, &ws[0], ws) != 0 ) return -1;
  if (tvmgen_default_fused_add(&ws[0], output, ws) != 0 ) return -1;
  return 0;
}
#ifdef __cplusplus
}
#endif
