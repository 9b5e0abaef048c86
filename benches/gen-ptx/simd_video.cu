// archs: sm_80 sm_90
// The SIMD video intrinsics of device_functions.h (__vadd2, __vabsdiffu4, __vcmpeq4, __vsads2, ...)
// and the DPX-style __vi* min/max functions, each called once per element, as users call them.
#include <cuda_runtime.h>

#define BIN(f) out[k++ * n + i] = f(a, b);
#define UN(f) out[k++ * n + i] = f(a);

__global__ void simd_halves(const unsigned* x, const unsigned* y, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned a = x[i], b = y[i];
  int k = 0;
  BIN(__vabsdiffs2) BIN(__vabsdiffu2) BIN(__vadd2) BIN(__vaddss2) BIN(__vaddus2) BIN(__vavgs2)
  BIN(__vavgu2) BIN(__vcmpeq2) BIN(__vcmpges2) BIN(__vcmpgeu2) BIN(__vcmpgts2) BIN(__vcmpgtu2)
  BIN(__vcmples2) BIN(__vcmpleu2) BIN(__vcmplts2) BIN(__vcmpltu2) BIN(__vcmpne2) BIN(__vhaddu2)
  BIN(__vmaxs2) BIN(__vmaxu2) BIN(__vmins2) BIN(__vminu2) BIN(__vsads2) BIN(__vsadu2)
  BIN(__vseteq2) BIN(__vsetges2) BIN(__vsetgeu2) BIN(__vsetgts2) BIN(__vsetgtu2) BIN(__vsetles2)
  BIN(__vsetleu2) BIN(__vsetlts2) BIN(__vsetltu2) BIN(__vsetne2) BIN(__vsub2) BIN(__vsubss2)
  BIN(__vsubus2)
  UN(__vabs2) UN(__vabsss2) UN(__vneg2) UN(__vnegss2)
}

__global__ void simd_bytes(const unsigned* x, const unsigned* y, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned a = x[i], b = y[i];
  int k = 0;
  BIN(__vabsdiffs4) BIN(__vabsdiffu4) BIN(__vadd4) BIN(__vaddss4) BIN(__vaddus4) BIN(__vavgs4)
  BIN(__vavgu4) BIN(__vcmpeq4) BIN(__vcmpges4) BIN(__vcmpgeu4) BIN(__vcmpgts4) BIN(__vcmpgtu4)
  BIN(__vcmples4) BIN(__vcmpleu4) BIN(__vcmplts4) BIN(__vcmpltu4) BIN(__vcmpne4) BIN(__vhaddu4)
  BIN(__vmaxs4) BIN(__vmaxu4) BIN(__vmins4) BIN(__vminu4) BIN(__vsads4) BIN(__vsadu4)
  BIN(__vseteq4) BIN(__vsetges4) BIN(__vsetgeu4) BIN(__vsetgts4) BIN(__vsetgtu4) BIN(__vsetles4)
  BIN(__vsetleu4) BIN(__vsetlts4) BIN(__vsetltu4) BIN(__vsetne4) BIN(__vsub4) BIN(__vsubss4)
  BIN(__vsubus4)
  UN(__vabs4) UN(__vabsss4) UN(__vneg4) UN(__vnegss4)
}

#define TRI(f) out[k++ * n + i] = f(a, b, c);
#define TRI_S(f) out[k++ * n + i] = (unsigned)f((int)a, (int)b, (int)c);

__global__ void dpx_minmax(const unsigned* x, const unsigned* y, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned a = x[i], b = y[i], c = x[i] ^ y[i];
  int k = 0;
  bool p, q;
  TRI(__viaddmax_s16x2) TRI(__viaddmax_s16x2_relu) TRI_S(__viaddmax_s32) TRI_S(__viaddmax_s32_relu)
  TRI(__viaddmax_u16x2) TRI(__viaddmax_u32) TRI(__viaddmin_s16x2) TRI(__viaddmin_s16x2_relu)
  TRI_S(__viaddmin_s32) TRI_S(__viaddmin_s32_relu) TRI(__viaddmin_u16x2) TRI(__viaddmin_u32)
  TRI(__vimax3_s16x2) TRI(__vimax3_s16x2_relu) TRI_S(__vimax3_s32) TRI_S(__vimax3_s32_relu)
  TRI(__vimax3_u16x2) TRI(__vimax3_u32) TRI(__vimin3_s16x2) TRI(__vimin3_s16x2_relu)
  TRI_S(__vimin3_s32) TRI_S(__vimin3_s32_relu) TRI(__vimin3_u16x2) TRI(__vimin3_u32)
  out[k++ * n + i] = __vimax_s16x2_relu(a, b);
  out[k++ * n + i] = (unsigned)__vimax_s32_relu((int)a, (int)b);
  out[k++ * n + i] = __vimin_s16x2_relu(a, b);
  out[k++ * n + i] = (unsigned)__vimin_s32_relu((int)a, (int)b);
  out[k++ * n + i] = __vibmax_s16x2(a, b, &p, &q) + p + 2 * q;
  out[k++ * n + i] = (unsigned)__vibmax_s32((int)a, (int)b, &p) + p;
  out[k++ * n + i] = __vibmax_u16x2(a, b, &p, &q) + p + 2 * q;
  out[k++ * n + i] = __vibmax_u32(a, b, &p) + p;
  out[k++ * n + i] = __vibmin_s16x2(a, b, &p, &q) + p + 2 * q;
  out[k++ * n + i] = (unsigned)__vibmin_s32((int)a, (int)b, &p) + p;
  out[k++ * n + i] = __vibmin_u16x2(a, b, &p, &q) + p + 2 * q;
  out[k++ * n + i] = __vibmin_u32(a, b, &p) + p;
}
