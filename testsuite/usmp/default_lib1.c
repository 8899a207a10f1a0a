// tvm target: c -keys=cpu
#define TVM_EXPORTS
#include "tvm/runtime/c_runtime_api.h"
#include "tvm/runtime/c_backend_api.h"
#include <math.h>
#include <stdbool.h>
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_nn_conv2d_add_cast_multiply_add_right_shift_cast_add_clip_cast(int8_t* p0, int8_t* T_cast, uint8_t* global_const_workspace_2_var, uint8_t* global_workspace_3_var) {
  void* fused_constant_let = (&(global_const_workspace_2_var[0]));
  void* fused_nn_conv2d_constant_let = (&(global_const_workspace_2_var[4608]));
  void* PaddedInput_let = (&(global_workspace_3_var[65536]));
  for (int32_t i0_i1_fused = 0; i0_i1_fused < 34; ++i0_i1_fused) {
    for (int32_t i2 = 0; i2 < 34; ++i2) {
      for (int32_t i3 = 0; i3 < 16; ++i3) {
        ((int8_t*)PaddedInput_let)[(((i0_i1_fused * 544) + (i2 * 16)) + i3)] = (((((1 <= i0_i1_fused) && (i0_i1_fused < 33)) && (1 <= i2)) && (i2 < 33)) ? p0[((((i0_i1_fused * 512) + (i2 * 16)) + i3) - 528)] : (int8_t)0);
      }
    }
  }
  for (int32_t ax0_ax1_fused_ax2_fused = 0; ax0_ax1_fused_ax2_fused < 1024; ++ax0_ax1_fused_ax2_fused) {
    int32_t conv[32];
    for (int32_t ff = 0; ff < 32; ++ff) {
      conv[ff] = 0;
      for (int32_t ry = 0; ry < 3; ++ry) {
        for (int32_t rx = 0; rx < 3; ++rx) {
          for (int32_t rc = 0; rc < 16; ++rc) {
            conv[ff] = (conv[ff] + (((int32_t)((int8_t*)PaddedInput_let)[((((((ax0_ax1_fused_ax2_fused / 32) * 544) + (ry * 544)) + ((ax0_ax1_fused_ax2_fused % 32) * 16)) + (rx * 16)) + rc)]) * ((int32_t)((int8_t*)fused_constant_let)[((((ry * 1536) + (rx * 512)) + (rc * 32)) + ff)])));
          }
        }
      }
    }
    for (int32_t ax3_inner = 0; ax3_inner < 32; ++ax3_inner) {
      int32_t __1 = ((int32_t)(((((int64_t)(conv[ax3_inner] + ((int32_t*)fused_nn_conv2d_constant_let)[ax3_inner])) * (int64_t)1518500250) + ((int64_t)1 << ((int64_t)((31 + 9) - 1)))) >> ((int64_t)(31 + 9)))) - 128;
      int32_t __2 = (__1) < (127) ? (__1) : (127);
      T_cast[((ax0_ax1_fused_ax2_fused * 32) + ax3_inner)] = ((int8_t)((__2) > (-128) ? (__2) : (-128)));
    }
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_nn_conv2d_cast_multiply_add_right_shift_cast_add_clip_cast(int8_t* p0, int8_t* T_cast, uint8_t* global_const_workspace_4_var, uint8_t* global_workspace_5_var) {
  void* fused_constant_let = (&(global_const_workspace_4_var[4736]));
  void* PaddedInput_let = (&(global_workspace_5_var[65536]));
  for (int32_t i0_i1_fused = 0; i0_i1_fused < 34; ++i0_i1_fused) {
    for (int32_t i2 = 0; i2 < 34; ++i2) {
      for (int32_t i3 = 0; i3 < 32; ++i3) {
        ((int8_t*)PaddedInput_let)[(((i0_i1_fused * 1088) + (i2 * 32)) + i3)] = (((((1 <= i0_i1_fused) && (i0_i1_fused < 33)) && (1 <= i2)) && (i2 < 33)) ? p0[((((i0_i1_fused * 1024) + (i2 * 32)) + i3) - 1056)] : (int8_t)0);
      }
    }
  }
  for (int32_t ax0_ax1_fused_ax2_fused = 0; ax0_ax1_fused_ax2_fused < 1024; ++ax0_ax1_fused_ax2_fused) {
    int32_t conv[32];
    for (int32_t ff = 0; ff < 32; ++ff) {
      conv[ff] = 0;
      for (int32_t ry = 0; ry < 3; ++ry) {
        for (int32_t rx = 0; rx < 3; ++rx) {
          for (int32_t rc = 0; rc < 32; ++rc) {
            conv[ff] = (conv[ff] + (((int32_t)((int8_t*)PaddedInput_let)[((((((ax0_ax1_fused_ax2_fused / 32) * 1088) + (ry * 1088)) + ((ax0_ax1_fused_ax2_fused % 32) * 32)) + (rx * 32)) + rc)]) * ((int32_t)((int8_t*)fused_constant_let)[((((ry * 3072) + (rx * 1024)) + (rc * 32)) + ff)])));
          }
        }
      }
    }
    for (int32_t ax3_inner = 0; ax3_inner < 32; ++ax3_inner) {
      int32_t __1 = ((int32_t)(((((int64_t)(conv[ax3_inner])) * (int64_t)1288490189) + ((int64_t)1 << ((int64_t)((31 + 9) - 1)))) >> ((int64_t)(31 + 9)))) - 128;
      int32_t __2 = (__1) < (127) ? (__1) : (127);
      T_cast[((ax0_ax1_fused_ax2_fused * 32) + ax3_inner)] = ((int8_t)((__2) > (-128) ? (__2) : (-128)));
    }
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_mean_cast(int8_t* p0, int8_t* T_cast, uint8_t* global_const_workspace_6_var, uint8_t* global_workspace_7_var) {
  for (int32_t ax3 = 0; ax3 < 32; ++ax3) {
    int32_t pool_sum[1];
    pool_sum[0] = 0;
    for (int32_t rv0 = 0; rv0 < 32; ++rv0) {
      for (int32_t rv1 = 0; rv1 < 32; ++rv1) {
        pool_sum[0] = (pool_sum[0] + ((int32_t)p0[(((rv0 * 1024) + (rv1 * 32)) + ax3)]));
      }
    }
    T_cast[ax3] = ((int8_t)(pool_sum[0] / 1024));
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_nn_dense_add_cast_multiply(int8_t* p0, float* T_multiply, uint8_t* global_const_workspace_8_var, uint8_t* global_workspace_9_var) {
  void* fused_nn_dense_constant_let = (&(global_const_workspace_8_var[14400]));
  void* fused_constant_2_let = (&(global_const_workspace_8_var[14080]));
  for (int32_t ax1_outer = 0; ax1_outer < 10; ++ax1_outer) {
    int32_t compute_global[1];
    compute_global[0] = 0;
    for (int32_t k = 0; k < 32; ++k) {
      compute_global[0] = (compute_global[0] + (((int32_t)p0[k]) * ((int32_t)((int8_t*)fused_constant_2_let)[((ax1_outer * 32) + k)])));
    }
    T_multiply[ax1_outer] = (((float)(compute_global[0] + ((int32_t*)fused_nn_dense_constant_let)[ax1_outer])) * 3.906250e-03f);
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_nn_softmax(float* p0, float* T_softmax_norm, uint8_t* global_const_workspace_10_var, uint8_t* global_workspace_11_var) {
  float T_softmax_maxelem[1];
  float T_softmax_exp[10];
  float T_softmax_expsum[1];
  if (1 < 2) {
    T_softmax_maxelem[0] = -3.402823e+38f;
    for (int32_t k = 0; k < 10; ++k) {
      float v_ = T_softmax_maxelem[0];
      float v__1 = p0[k];
      T_softmax_maxelem[0] = ((v_) > (v__1) ? (v_) : (v__1));
    }
    for (int32_t i1 = 0; i1 < 10; ++i1) {
      T_softmax_exp[i1] = expf((p0[i1] - T_softmax_maxelem[0]));
    }
    T_softmax_expsum[0] = 0.000000e+00f;
    for (int32_t k_1 = 0; k_1 < 10; ++k_1) {
      T_softmax_expsum[0] = (T_softmax_expsum[0] + T_softmax_exp[k_1]);
    }
    for (int32_t i1_1 = 0; i1_1 < 10; ++i1_1) {
      T_softmax_norm[i1_1] = (T_softmax_exp[i1_1] / T_softmax_expsum[0]);
    }
    return 0;
  }
  TVMAPISetLastError("softmax: the constant branch returns");
  return -1;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default___tvm_main__(int8_t* input_buffer_var, float* output_buffer_var, uint8_t* global_const_workspace_0_var, uint8_t* global_workspace_1_var) {
  void* sid_1_let = (&(global_workspace_1_var[0]));
  void* sid_2_let = (&(global_workspace_1_var[32768]));
  void* sid_3_let = (&(global_workspace_1_var[0]));
  void* sid_4_let = (&(global_workspace_1_var[64]));
  if (tvmgen_default_fused_nn_conv2d_add_cast_multiply_add_right_shift_cast_add_clip_cast(input_buffer_var, sid_1_let, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  if (tvmgen_default_fused_nn_conv2d_cast_multiply_add_right_shift_cast_add_clip_cast(sid_1_let, sid_2_let, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  if (tvmgen_default_fused_mean_cast(sid_2_let, sid_3_let, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  if (tvmgen_default_fused_nn_dense_add_cast_multiply(sid_3_let, sid_4_let, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  if (tvmgen_default_fused_nn_softmax(sid_4_let, output_buffer_var, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  return 0;
}

