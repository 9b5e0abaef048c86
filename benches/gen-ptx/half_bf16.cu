// archs: sm_75 sm_80 sm_89 sm_90
// cuda_fp16.h / cuda_bf16.h / cuda_fp8.h intrinsics: packed arithmetic, comparisons, math, conversions.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

__global__ void half2_ops(const __half2* a, const __half2* b, __half2* c, __half* h, float* f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 x = a[i], y = b[i];
  __half2 r = __hfma2(x, y, __hadd2(x, y));
  r = __hmul2(r, __hsub2(x, y));
  r = __h2div(r, __hadd2(y, __float2half2_rn(3.f)));
  r = __hmax2(r, __hmin2(x, y));
  r = __hfma2_relu(r, x, y);
  r = __habs2(__hneg2(r));
  r = __hadd2_sat(r, h2sqrt(__habs2(x)));
  r = __hmul2(r, h2exp(y));
  r = __hadd2(r, h2log(__habs2(x)));
  r = __hadd2(r, h2sin(x));
  r = __hadd2(r, h2cos(y));
  r = __hadd2(r, h2rcp(__hadd2(x, __float2half2_rn(4.f))));
  r = __hadd2(r, h2rsqrt(__habs2(y)));
  r = __hadd2(r, h2exp2(x));
  r = __hadd2(r, h2floor(y));
  r = __hadd2(r, __heq2(x, y));
  r = __hadd2(r, __hlt2(x, y));
  unsigned mask = __hgt2_mask(x, y);
  __half s = __hfma(__low2half(r), __high2half(r), __float2half((float)mask));
  s = __hdiv(s, __hadd(__low2half(x), __float2half(2.f)));
  s = hsqrt(__habs(s));
  s = __hmax_nan(s, hexp(__low2half(y)));
  bool lt = __hlt(s, __low2half(x)) || __hisnan(s);
  c[i] = r;
  h[i] = s;
  f[i] = __half2float(s) + __low2float(r) + __high2float(x) + (lt ? 1.f : 0.f) + (float)__half2int_rn(s) +
         __half2float(__ushort2half_rn((unsigned short)i)) + __half2float(__int2half_rz(i));
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__global__ void bf16_ops(const __nv_bfloat162* a, const __nv_bfloat162* b, __nv_bfloat162* c, float* f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat162 x = a[i], y = b[i];
  __nv_bfloat162 r = __hfma2(x, y, __hadd2(x, y));
  r = __hmul2(r, __hsub2(x, y));
  r = __hmax2(r, __hmin2(x, y));
  r = __h2div(r, __hadd2(y, __float2bfloat162_rn(3.f)));
  r = __hfma2_relu(r, x, y);
  r = __habs2(__hneg2(r));
  r = __hadd2(r, h2sqrt(__habs2(x)));
  r = __hadd2(r, h2exp(y));
  r = __hadd2(r, h2sin(x));
  r = __hadd2(r, h2rcp(__hadd2(x, __float2bfloat162_rn(4.f))));
  __nv_bfloat16 s = __hfma(__low2bfloat16(r), __high2bfloat16(r), __float2bfloat16_rz(1.5f));
  s = __hmax(s, __hmin(__low2bfloat16(x), __high2bfloat16(y)));
  c[i] = r;
  f[i] = __bfloat162float(s) + __low2float(r) + (float)__bfloat162int_rn(s) + __bfloat162float(__double2bfloat16((double)i)) +
         (__hgt(s, __low2bfloat16(x)) ? 1.f : 0.f);
}
#endif

__global__ void fp8_convert(const float* x, __nv_fp8_storage_t* q4, __nv_fp8x2_storage_t* q5, float* back, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 v = make_float2(x[i], x[(i + 1) % n]);
  __nv_fp8_storage_t a = __nv_cvt_float_to_fp8(v.x, __NV_SATFINITE, __NV_E4M3);
  __nv_fp8x2_storage_t b = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E5M2);
  __nv_fp8x2_storage_t c = __nv_cvt_halfraw2_to_fp8x2(__float22half2_rn(v), __NV_NOSAT, __NV_E4M3);
  __nv_fp8x2_storage_t d = __nv_cvt_bfloat16raw2_to_fp8x2(__float22bfloat162_rn(v), __NV_SATFINITE, __NV_E5M2);
  q4[i] = a;
  q5[i] = b ^ c ^ d;
  __half_raw h = __nv_cvt_fp8_to_halfraw(a, __NV_E4M3);
  __half2_raw h2 = __nv_cvt_fp8x2_to_halfraw2(b, __NV_E5M2);
  back[i] = __half2float(__half(h)) + __low2float(__half2(h2)) + float(__nv_fp8_e4m3(v.y)) + float(__nv_fp8_e5m2(v.x));
}

__global__ void conversions(const double* d, const float* f, float* out, __half* h, __nv_bfloat16* bh, long long* ll, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 p = make_float2(f[i], (float)d[i]);
  __half2 hp = __float22half2_rn(p);
  __nv_bfloat162 bp = __float22bfloat162_rn(p);
  h[i] = __double2half(d[i]);
  bh[i] = __float2bfloat16_rd(f[i]);
  out[i] = __half2float(__float2half_rz(f[i])) + __low2float(hp) + __high2float(bp) + __double2float_rd(d[i]) +
           (float)__float2ll_rz(f[i]) + __uint2float_ru((unsigned)i) + (float)__half2short_rd(__low2half(hp));
  ll[i] = __double2ll_rn(d[i]) + (long long)__double2uint_ru(d[i]) + __float2ull_rd(f[i]);
}
