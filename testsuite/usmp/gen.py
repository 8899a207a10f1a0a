#!/usr/bin/env python3
"""gen.py - writes default_lib0.c and default_lib1.c: a small int8 network in
the exact shape of TVM 0.17's AOT C output with the unified static memory
planner (USMP): constants in one static struct, every intermediate at a fixed
offset of one static workspace, both passed down as uint8_t pointers.

Network (NHWC, int8): pad + conv 3x3 16->32 + bias + requantize + clip;
pad + conv 3x3 32->32 + requantize + clip; global average pool; dense
32->10 (int32 accumulators, dequantized to float); softmax.  Weights are a
fixed pseudo-random sequence, so the files never change: run it again only
after changing it (python3 testsuite/usmp/gen.py testsuite/usmp)."""
import sys

H = W = 32
C0, C1, C2, NOUT = 16, 32, 32, 10

def prng(seed):
    x = seed
    while True:
        x = (x * 1103515245 + 12345) & 0x7fffffff
        yield x >> 16

def vals(n, lo, hi, seed):
    g = prng(seed)
    return [lo + next(g) % (hi - lo + 1) for _ in range(n)]

def arr(name, ctype, values):
    lines = []
    for i in range(0, len(values), 24):
        lines.append("    " + ", ".join(str(v) for v in values[i:i + 24]))
    return "  .%s = {\n%s\n  }" % (name, ",\n".join(lines))

# constant workspace layout (offsets in bytes, each 16-aligned)
w1 = vals(3 * 3 * C0 * C1, -8, 8, 1)
b1 = vals(C1, -300, 300, 2)
w2 = vals(3 * 3 * C1 * C2, -6, 6, 3)
b2 = vals(C2, -200, 200, 4)
wd = vals(NOUT * C2, -20, 20, 5)
bd = vals(NOUT, -500, 500, 6)
OFF_W1, OFF_B1 = 0, 4608
OFF_W2, OFF_B2 = 4736, 13952
OFF_WD, OFF_BD = 14080, 14400
CONST_SIZE = 14448
# workspace layout
SID_1, SID_2, PAD = 0, 32768, 65536          # conv outputs, padded input (reused)
SID_3, SID_4 = 0, 64                         # pool output, dense output (after sid_1 died)
WS_SIZE = PAD + (H + 2) * (W + 2) * C1       # the larger padded input

HEAD = """// tvm target: c -keys=cpu
#define TVM_EXPORTS
#include "tvm/runtime/c_runtime_api.h"
#include "tvm/runtime/c_backend_api.h"
#include <math.h>
#include <stdbool.h>
"""

def lib0():
    return HEAD + """#include "tvmgen_default.h"
static struct global_const_workspace {
  int8_t fused_constant_let[4608] __attribute__((aligned(16))); // 4608 bytes, aligned offset: 0
  int32_t fused_nn_conv2d_constant_let[32] __attribute__((aligned(16))); // 128 bytes, aligned offset: 4608
  int8_t fused_constant_1_let[9216] __attribute__((aligned(16))); // 9216 bytes, aligned offset: 4736
  int32_t fused_nn_conv2d_constant_1_let[32] __attribute__((aligned(16))); // 128 bytes, aligned offset: 13952
  int8_t fused_constant_2_let[320] __attribute__((aligned(16))); // 320 bytes, aligned offset: 14080
  int32_t fused_nn_dense_constant_let[10] __attribute__((aligned(16))); // 40 bytes, aligned offset: 14400
} global_const_workspace = {
%s,
%s,
%s,
%s,
%s,
%s
};// of total size %d bytes
__attribute__((section(".bss.noinit.tvm"), aligned(16)))
static uint8_t global_workspace[%d];
#include <tvmgen_default.h>
TVM_DLL int32_t tvmgen_default___tvm_main__(int8_t* input_buffer_var,float* output_buffer_var,uint8_t* global_const_workspace_0_var,uint8_t* global_workspace_1_var);
int32_t tvmgen_default_run(struct tvmgen_default_inputs* inputs,struct tvmgen_default_outputs* outputs) {return tvmgen_default___tvm_main__(inputs->input,outputs->output,((uint8_t*)&global_const_workspace),((uint8_t*)&global_workspace));
}
""" % (arr("fused_constant_let", "int8_t", w1), arr("fused_nn_conv2d_constant_let", "int32_t", b1),
       arr("fused_constant_1_let", "int8_t", w2), arr("fused_nn_conv2d_constant_1_let", "int32_t", b2),
       arr("fused_constant_2_let", "int8_t", wd), arr("fused_nn_dense_constant_let", "int32_t", bd),
       CONST_SIZE, WS_SIZE)

def conv(name, cin, cout, off_w, off_b, mult, shift):
    ph, pw = H + 2, W + 2
    bias = ""
    if off_b is not None:
        bias = " + ((int32_t*)fused_nn_conv2d_constant_let)[ax3_inner]"
    decl_b = ("  void* fused_nn_conv2d_constant_let = (&(global_const_workspace_%s_var[%d]));\n"
              % ("{cw}", off_b)) if off_b is not None else ""
    return """#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t {name}(int8_t* p0, int8_t* T_cast, uint8_t* global_const_workspace_{cw}_var, uint8_t* global_workspace_{ws}_var) {{
  void* fused_constant_let = (&(global_const_workspace_{cw}_var[{off_w}]));
{decl_b}  void* PaddedInput_let = (&(global_workspace_{ws}_var[{pad}]));
  for (int32_t i0_i1_fused = 0; i0_i1_fused < {ph}; ++i0_i1_fused) {{
    for (int32_t i2 = 0; i2 < {pw}; ++i2) {{
      for (int32_t i3 = 0; i3 < {cin}; ++i3) {{
        ((int8_t*)PaddedInput_let)[(((i0_i1_fused * {rowp}) + (i2 * {cin})) + i3)] = (((((1 <= i0_i1_fused) && (i0_i1_fused < {h1})) && (1 <= i2)) && (i2 < {w1})) ? p0[((((i0_i1_fused * {row}) + (i2 * {cin})) + i3) - {off})] : (int8_t)0);
      }}
    }}
  }}
  for (int32_t ax0_ax1_fused_ax2_fused = 0; ax0_ax1_fused_ax2_fused < {hw}; ++ax0_ax1_fused_ax2_fused) {{
    int32_t conv[{cout}];
    for (int32_t ff = 0; ff < {cout}; ++ff) {{
      conv[ff] = 0;
      for (int32_t ry = 0; ry < 3; ++ry) {{
        for (int32_t rx = 0; rx < 3; ++rx) {{
          for (int32_t rc = 0; rc < {cin}; ++rc) {{
            conv[ff] = (conv[ff] + (((int32_t)((int8_t*)PaddedInput_let)[((((((ax0_ax1_fused_ax2_fused / {w}) * {rowp}) + (ry * {rowp})) + ((ax0_ax1_fused_ax2_fused % {w}) * {cin})) + (rx * {cin})) + rc)]) * ((int32_t)((int8_t*)fused_constant_let)[((((ry * {kry}) + (rx * {krx})) + (rc * {cout})) + ff)])));
          }}
        }}
      }}
    }}
    for (int32_t ax3_inner = 0; ax3_inner < {cout}; ++ax3_inner) {{
      int32_t __1 = ((int32_t)(((((int64_t)(conv[ax3_inner]{bias})) * (int64_t){mult}) + ((int64_t)1 << ((int64_t)((31 + {shift}) - 1)))) >> ((int64_t)(31 + {shift})))) - 128;
      int32_t __2 = (__1) < (127) ? (__1) : (127);
      T_cast[((ax0_ax1_fused_ax2_fused * {cout}) + ax3_inner)] = ((int8_t)((__2) > (-128) ? (__2) : (-128)));
    }}
  }}
  return 0;
}}

""".format(name=name, cw="{cw}", ws="{ws}", off_w=off_w, decl_b=decl_b, pad=PAD, ph=ph, pw=pw,
           cin=cin, cout=cout, rowp=pw * cin, row=W * cin, h1=H + 1, w1=W + 1, off=(W + 1) * cin,
           hw=H * W, w=W, kry=3 * cin * cout, krx=cin * cout, bias=bias, mult=mult, shift=shift)

def pool():
    return """#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_mean_cast(int8_t* p0, int8_t* T_cast, uint8_t* global_const_workspace_{cw}_var, uint8_t* global_workspace_{ws}_var) {{
  for (int32_t ax3 = 0; ax3 < {c}; ++ax3) {{
    int32_t pool_sum[1];
    pool_sum[0] = 0;
    for (int32_t rv0 = 0; rv0 < {h}; ++rv0) {{
      for (int32_t rv1 = 0; rv1 < {w}; ++rv1) {{
        pool_sum[0] = (pool_sum[0] + ((int32_t)p0[(((rv0 * {row}) + (rv1 * {c})) + ax3)]));
      }}
    }}
    T_cast[ax3] = ((int8_t)(pool_sum[0] / {hw}));
  }}
  return 0;
}}

""".format(c=C2, h=H, w=W, row=W * C2, hw=H * W, cw="{cw}", ws="{ws}")

def dense():
    return """#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_nn_dense_add_cast_multiply(int8_t* p0, float* T_multiply, uint8_t* global_const_workspace_{cw}_var, uint8_t* global_workspace_{ws}_var) {{
  void* fused_nn_dense_constant_let = (&(global_const_workspace_{cw}_var[{ob}]));
  void* fused_constant_2_let = (&(global_const_workspace_{cw}_var[{ow}]));
  for (int32_t ax1_outer = 0; ax1_outer < {n}; ++ax1_outer) {{
    int32_t compute_global[1];
    compute_global[0] = 0;
    for (int32_t k = 0; k < {c}; ++k) {{
      compute_global[0] = (compute_global[0] + (((int32_t)p0[k]) * ((int32_t)((int8_t*)fused_constant_2_let)[((ax1_outer * {c}) + k)])));
    }}
    T_multiply[ax1_outer] = (((float)(compute_global[0] + ((int32_t*)fused_nn_dense_constant_let)[ax1_outer])) * 3.906250e-03f);
  }}
  return 0;
}}

""".format(n=NOUT, c=C2, ob=OFF_BD, ow=OFF_WD, cw="{cw}", ws="{ws}")

def softmax():
    return """#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_nn_softmax(float* p0, float* T_softmax_norm, uint8_t* global_const_workspace_{cw}_var, uint8_t* global_workspace_{ws}_var) {{
  float T_softmax_maxelem[1];
  float T_softmax_exp[{n}];
  float T_softmax_expsum[1];
  if (1 < 2) {{
    T_softmax_maxelem[0] = -3.402823e+38f;
    for (int32_t k = 0; k < {n}; ++k) {{
      float v_ = T_softmax_maxelem[0];
      float v__1 = p0[k];
      T_softmax_maxelem[0] = ((v_) > (v__1) ? (v_) : (v__1));
    }}
    for (int32_t i1 = 0; i1 < {n}; ++i1) {{
      T_softmax_exp[i1] = expf((p0[i1] - T_softmax_maxelem[0]));
    }}
    T_softmax_expsum[0] = 0.000000e+00f;
    for (int32_t k_1 = 0; k_1 < {n}; ++k_1) {{
      T_softmax_expsum[0] = (T_softmax_expsum[0] + T_softmax_exp[k_1]);
    }}
    for (int32_t i1_1 = 0; i1_1 < {n}; ++i1_1) {{
      T_softmax_norm[i1_1] = (T_softmax_exp[i1_1] / T_softmax_expsum[0]);
    }}
    return 0;
  }}
  TVMAPISetLastError("softmax: the constant branch returns");
  return -1;
}}

""".format(n=NOUT, cw="{cw}", ws="{ws}")

def lib1():
    ops = [
        ("tvmgen_default_fused_nn_conv2d_add_cast_multiply_add_right_shift_cast_add_clip_cast",
         conv("tvmgen_default_fused_nn_conv2d_add_cast_multiply_add_right_shift_cast_add_clip_cast",
              C0, C1, OFF_W1, OFF_B1, 1518500250, 9)),
        ("tvmgen_default_fused_nn_conv2d_cast_multiply_add_right_shift_cast_add_clip_cast",
         conv("tvmgen_default_fused_nn_conv2d_cast_multiply_add_right_shift_cast_add_clip_cast",
              C1, C2, OFF_W2, None, 1288490189, 9)),
        ("tvmgen_default_fused_mean_cast", pool()),
        ("tvmgen_default_fused_nn_dense_add_cast_multiply", dense()),
        ("tvmgen_default_fused_nn_softmax", softmax()),
    ]
    out = HEAD
    for i, (name, text) in enumerate(ops):
        out += text.replace("{cw}", str(2 * i + 2)).replace("{ws}", str(2 * i + 3))
    out += """#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default___tvm_main__(int8_t* input_buffer_var, float* output_buffer_var, uint8_t* global_const_workspace_0_var, uint8_t* global_workspace_1_var) {
  void* sid_1_let = (&(global_workspace_1_var[%d]));
  void* sid_2_let = (&(global_workspace_1_var[%d]));
  void* sid_3_let = (&(global_workspace_1_var[%d]));
  void* sid_4_let = (&(global_workspace_1_var[%d]));
  if (%s(input_buffer_var, sid_1_let, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  if (%s(sid_1_let, sid_2_let, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  if (%s(sid_2_let, sid_3_let, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  if (%s(sid_3_let, sid_4_let, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  if (%s(sid_4_let, output_buffer_var, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  return 0;
}

""" % ((SID_1, SID_2, SID_3, SID_4) + tuple(n for n, _ in ops))
    return out

d = sys.argv[1] if len(sys.argv) > 1 else "."
open(d + "/default_lib0.c", "w").write(lib0())
open(d + "/default_lib1.c", "w").write(lib1())
