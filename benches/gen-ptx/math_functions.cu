// archs: sm_75 sm_80 sm_89 sm_90
// CUDA math library functions (f32 and f64, precise and fast-math intrinsics) as users call them.
#include <cuda_runtime.h>

__global__ void math_f32(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i], b = x[(i + 1) % n];
  float r = sinf(a) + cosf(b) + tanf(a) + expf(a) + exp2f(b) + exp10f(a) + logf(fabsf(a) + 1.f);
  r += log2f(b * b + 1.f) + log10f(a * a + 2.f) + powf(fabsf(a), b) + sqrtf(fabsf(b)) + rsqrtf(a * a + 1.f);
  r += cbrtf(a) + erff(a) + erfcf(b) + tanhf(a) + atanf(b) + atan2f(a, b) + asinf(a / 8.f) + acosf(b / 8.f);
  r += sinhf(a / 4.f) + coshf(b / 4.f) + lgammaf(fabsf(a) + 1.f) + tgammaf(b / 4.f + 2.f);
  r += fmodf(a, b + 3.f) + remainderf(a, 1.5f) + hypotf(a, b) + fmaf(a, b, r) + floorf(a) + ceilf(b);
  r += truncf(a) + roundf(b) + rintf(a) + copysignf(a, b) + fminf(a, b) + fmaxf(a, b) + ldexpf(a, 3);
  r += normcdff(a) + erfinvf(a / 16.f) + log1pf(fabsf(a)) + expm1f(b / 8.f) + sinpif(a) + cospif(b);
  int e;
  r += frexpf(a, &e) + (float)e + (float)ilogbf(b + 1.f) + logbf(a * a + 1.f) + nextafterf(a, b);
  r += (float)isnan(a) + (float)isinf(b) + (float)signbit(a);
  y[i] = r / (b + 2.f);
}

__global__ void math_f32_fast(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i], b = x[(i + 1) % n];
  float r = __sinf(a) + __cosf(b) + __tanf(a) + __expf(a) + __exp10f(b) + __logf(a * a + 1.f);
  r += __log2f(b * b + 1.f) + __log10f(a * a + 2.f) + __powf(fabsf(a), b) + __fdividef(a, b + 3.f);
  r += __frcp_rn(a) + __fsqrt_rn(fabsf(b)) + __frsqrt_rn(a * a + 1.f) + __fdiv_rz(a, b + 3.f);
  r += __fadd_rd(a, b) + __fmul_ru(a, b) + __fmaf_rz(a, b, r) + __saturatef(a) + __fsub_rn(a, b);
  float s, c;
  __sincosf(a, &s, &c);
  sincosf(b, &s, &c);
  y[i] = r + s + c;
}

__global__ void math_f64(const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double a = x[i], b = x[(i + 1) % n];
  double r = sin(a) + cos(b) + tan(a) + exp(a) + exp2(b) + log(fabs(a) + 1.0) + log2(b * b + 1.0);
  r += pow(fabs(a), b) + sqrt(fabs(b)) + rsqrt(a * a + 1.0) + cbrt(a) + erf(a) + tanh(b) + atan2(a, b);
  r += fma(a, b, r) + floor(a) + ceil(b) + trunc(a) + round(b) + rint(a) + fmin(a, b) + fmax(a, b);
  r += fmod(a, b + 3.0) + hypot(a, b) + a / (b + 3.0) + 1.0 / a + __drcp_rn(b) + __dsqrt_rz(fabs(a));
  r += __dadd_rz(a, b) + __dmul_ru(a, b) + __fma_rd(a, b, r) + __ddiv_ru(a, b + 5.0) + lgamma(fabs(a) + 1.0);
  y[i] = r;
}

__global__ void int_math(const int* x, unsigned long long* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int a = x[i], b = x[(i + 1) % n] | 1;
  unsigned ua = a, ub = b;
  long long la = a * 12345678901LL, lb = (long long)b * 7 + 1;
  unsigned long long r = a / b + a % b + ua / ub + ua % ub + la / lb + la % lb + (unsigned long long)la / (unsigned long long)lb;
  r += __popc(ua) + __popcll(la) + __clz(a) + __clzll(la) + __ffs(a) + __ffsll(la) + __brev(ua) + __brevll(la);
  r += __byte_perm(ua, ub, 0x5140) + __funnelshift_l(ua, ub, a & 31) + __funnelshift_rc(ua, ub, b);
  r += __mulhi(a, b) + __umulhi(ua, ub) + __mul64hi(la, lb) + __umul64hi(la, lb) + __mul24(a, b) + __umul24(ua, ub);
  r += __sad(a, b, 3u) + __usad(ua, ub, 7u) + __hadd(a, b) + __rhadd(a, b) + __uhadd(ua, ub) + abs(a) + llabs(la);
  r += __dp4a(a, b, 5) + __dp4a(ua, ub, 5u) + __dp2a_lo(a, b, 1) + __dp2a_hi(ua, ub, 2u);
  r += __vadd4(ua, ub) + __vsub2(ua, ub) + __vabsdiffu4(ua, ub) + __vmaxs2(ua, ub) + __vcmpgtu4(ua, ub) + __vsads2(ua, ub);
  r += min(a, b) + max(ua, ub) + umin(ua, ub) + llmin(la, lb) + ullmax(la, lb);
  r += (unsigned long long)__float2int_rn((float)a) + __float2uint_rz((float)b) + __double2ll_rd((double)la);
  r += (unsigned long long)__ll2float_rn(la) + (unsigned long long)__int_as_float(a) + __float_as_uint((float)b);
  r += (unsigned long long)__uint2double_rn(ub) + __double_as_longlong((double)a) + __double2hiint((double)b);
  y[i] = r;
}
