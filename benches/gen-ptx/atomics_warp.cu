// archs: sm_75 sm_80 sm_89 sm_90
// Atomics of every width and scope, warp intrinsics (shfl, vote, match, reduce), fences and clocks.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void atomics(int* i32, unsigned* u32, unsigned long long* u64, float* f32, double* f64,
                        __half2* h2, __nv_bfloat162* b2, __half* h, __nv_bfloat16* bh, unsigned short* u16) {
  __shared__ int sh[32];
  __shared__ double shd[32];
  unsigned t = threadIdx.x;
  if (t < 32) { sh[t] = 0; shd[t] = 0; }
  __syncthreads();
  atomicAdd(i32, (int)t);
  atomicSub(i32 + 1, (int)t);
  atomicExch(u32, t);
  atomicMin(i32 + 2, -(int)t);
  atomicMax(u32 + 1, t);
  atomicInc(u32 + 2, 17u);
  atomicDec(u32 + 3, 17u);
  atomicCAS(u32 + 4, t, t + 1);
  atomicAnd(u32 + 5, t);
  atomicOr(u32 + 6, t);
  atomicXor(u32 + 7, t);
  atomicAdd(u64, (unsigned long long)t);
  atomicCAS(u64 + 1, 0ull, (unsigned long long)t);
  atomicMin((long long*)u64 + 2, -(long long)t);
  atomicMax(u64 + 3, (unsigned long long)t);
  atomicAnd(u64 + 4, (unsigned long long)t);
  atomicExch(u64 + 5, (unsigned long long)t);
  atomicAdd(f32, (float)t);
  atomicExch(f32 + 1, (float)t);
  atomicAdd(f64, (double)t);
  atomicAdd(h2, __halves2half2(__float2half((float)t), __float2half(1.f)));
  atomicAdd(b2, __floats2bfloat162_rn((float)t, 2.f));
  atomicAdd(h, __float2half((float)t));
  atomicAdd(bh, __float2bfloat16((float)t));
  atomicCAS(u16, (unsigned short)t, (unsigned short)(t + 1));
  atomicAdd_block(i32 + 8, 1);
  atomicAdd_system(i32 + 9, 1);
  atomicCAS_block(u32 + 10, t, 0u);
  atomicMax_system(u32 + 11, t);
  atomicAdd(&sh[t % 32], 1);
  atomicAdd(&shd[t % 32], 1.0);
  atomicCAS(&sh[(t + 1) % 32], 1, 2);
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  __syncthreads();
  if (t < 32) i32[16 + t] = sh[t] + (int)shd[t];
}

__global__ void warp_intrinsics(const int* x, int* y, float* f, unsigned long long* clk) {
  unsigned t = threadIdx.x;
  long long c0 = clock64();
  int v = x[blockIdx.x * blockDim.x + t];
  unsigned m = __activemask();
  int s = __shfl_sync(m, v, 3) + __shfl_up_sync(m, v, 1) + __shfl_down_sync(m, v, 2, 16) + __shfl_xor_sync(m, v, 5);
  double d = __shfl_sync(0xffffffff, (double)v * 0.5, t ^ 1);
  float fl = __shfl_xor_sync(0xffffffff, (float)v, 16);
  s += __all_sync(m, v > 0) + __any_sync(m, v < 0) + __popc(__ballot_sync(m, v & 1));
  s += __match_any_sync(m, v & 7);
  int pred;
  s += __match_all_sync(m, v, &pred) + pred;
#if __CUDA_ARCH__ >= 800
  s += __reduce_add_sync(m, v) + __reduce_min_sync(m, (unsigned)v) + __reduce_max_sync(m, v) + __reduce_and_sync(m, (unsigned)v) + __reduce_or_sync(m, (unsigned)v) + __reduce_xor_sync(m, (unsigned)v);
#endif
  __syncwarp(m);
  if (t & 1) __nanosleep(100);
  unsigned smid, lt, ge;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
  s += lt + ge;
  y[blockIdx.x * blockDim.x + t] = s + smid;
  f[blockIdx.x * blockDim.x + t] = fl + (float)d;
  if (__syncthreads_or(v == 7) && __syncthreads_count(v > 3) > 2 && __syncthreads_and(v != 9))
    clk[blockIdx.x] = clock64() - c0 + clock();
}
