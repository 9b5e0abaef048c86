// archs: sm_75 sm_80 sm_86 sm_89 sm_90
// Kernels as users write them by hand: softmax, layer norm, tiled transpose and SGEMM in shared
// memory, shared-memory histogram, stencil, bitonic sort, int8 quantization, and CUB's block- and
// warp-level collectives (BlockReduce, BlockScan, BlockRadixSort, BlockLoad/Store, WarpReduce).
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cuda_fp16.h>
#include <cuda/functional>

__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, int cols) {
  const float* row = x + blockIdx.x * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += 32) m = fmaxf(m, row[c]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += 32) s += expf(row[c] - m);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
  for (int c = threadIdx.x; c < cols; c += 32) y[blockIdx.x * cols + c] = expf(row[c] - m) / s;
}

__global__ void layer_norm(const float4* __restrict__ x, const float* gamma, const float* beta, float4* y, int n4, float eps) {
  using Reduce = cub::BlockReduce<float2, 256>;
  __shared__ typename Reduce::TempStorage tmp;
  __shared__ float mean, rstd;
  float2 acc = make_float2(0.f, 0.f);
  for (int i = threadIdx.x; i < n4; i += blockDim.x) {
    float4 v = x[blockIdx.x * n4 + i];
    acc.x += v.x + v.y + v.z + v.w;
    acc.y += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
  }
  float2 tot = Reduce(tmp).Reduce(acc, [](float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); });
  if (threadIdx.x == 0) {
    mean = tot.x / (4 * n4);
    rstd = rsqrtf(tot.y / (4 * n4) - mean * mean + eps);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < n4; i += blockDim.x) {
    float4 v = x[blockIdx.x * n4 + i];
    float g = gamma[i], b = beta[i];
    y[blockIdx.x * n4 + i] = make_float4((v.x - mean) * rstd * g + b, (v.y - mean) * rstd * g + b,
                                         (v.z - mean) * rstd * g + b, (v.w - mean) * rstd * g + b);
  }
}

template <typename T>
__global__ void transpose(const T* in, T* out, int w, int h) {
  __shared__ T tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
template __global__ void transpose<float>(const float*, float*, int, int);
template __global__ void transpose<__half>(const __half*, __half*, int, int);
template __global__ void transpose<double>(const double*, double*, int, int);

__global__ void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K, float alpha, float beta) {
  __shared__ float As[16][16], Bs[16][16];
  int r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[threadIdx.y][threadIdx.x] = (r < M && k0 + threadIdx.x < K) ? A[r * K + k0 + threadIdx.x] : 0.f;
    Bs[threadIdx.y][threadIdx.x] = (c < N && k0 + threadIdx.y < K) ? B[(k0 + threadIdx.y) * N + c] : 0.f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (r < M && c < N) C[r * N + c] = alpha * acc + beta * C[r * N + c];
}

__global__ void histogram256(const unsigned char* data, unsigned* bins, int n) {
  __shared__ unsigned local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&bins[i], local[i]);
}

__global__ void stencil5(const double* in, double* out, int n) {
  extern __shared__ double s[];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + 2;
  s[l] = g < n ? in[g] : 0.0;
  if (threadIdx.x < 2) {
    s[l - 2] = g >= 2 ? in[g - 2] : 0.0;
    s[l + blockDim.x] = g + blockDim.x < n ? in[g + blockDim.x] : 0.0;
  }
  __syncthreads();
  if (g < n) out[g] = 0.1 * s[l - 2] + 0.2 * s[l - 1] + 0.4 * s[l] + 0.2 * s[l + 1] + 0.1 * s[l + 2];
}

__global__ void bitonic_sort_block(int* data) {
  __shared__ int s[1024];
  unsigned t = threadIdx.x;
  s[t] = data[blockIdx.x * 1024 + t];
  __syncthreads();
  for (unsigned k = 2; k <= 1024; k <<= 1)
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned p = t ^ j;
      if (p > t) {
        bool up = (t & k) == 0;
        if ((s[t] > s[p]) == up) { int v = s[t]; s[t] = s[p]; s[p] = v; }
      }
      __syncthreads();
    }
  data[blockIdx.x * 1024 + t] = s[t];
}

__global__ void quantize_int8(const float* x, signed char* q, float* scale_out, int n) {
  using Reduce = cub::BlockReduce<float, 128>;
  __shared__ typename Reduce::TempStorage tmp;
  __shared__ float scale;
  int i = blockIdx.x * 128 + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  float amax = Reduce(tmp).Reduce(fabsf(v), cuda::maximum<>());
  if (threadIdx.x == 0) { scale = amax / 127.f; scale_out[blockIdx.x] = scale; }
  __syncthreads();
  if (i < n) q[i] = (signed char)max(-127, min(127, __float2int_rn(v / scale)));
}

__global__ void block_sort_scan(const unsigned* keys, const float* vals, unsigned* out_keys, float* out_vals, int* offsets) {
  using Load = cub::BlockLoad<unsigned, 128, 4, cub::BLOCK_LOAD_TRANSPOSE>;
  using Sort = cub::BlockRadixSort<unsigned, 128, 4, float>;
  using Scan = cub::BlockScan<int, 128>;
  using Store = cub::BlockStore<unsigned, 128, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union { typename Load::TempStorage load; typename Sort::TempStorage sort; typename Scan::TempStorage scan; typename Store::TempStorage store; } tmp;
  unsigned k[4];
  float v[4];
  Load(tmp.load).Load(keys + blockIdx.x * 512, k);
  __syncthreads();
  for (int i = 0; i < 4; i++) v[i] = vals[blockIdx.x * 512 + threadIdx.x * 4 + i];
  Sort(tmp.sort).Sort(k, v);
  __syncthreads();
  int count = (k[0] & 1) + (k[1] & 1) + (k[2] & 1) + (k[3] & 1), prefix;
  Scan(tmp.scan).ExclusiveSum(count, prefix);
  offsets[blockIdx.x * 128 + threadIdx.x] = prefix;
  __syncthreads();
  Store(tmp.store).Store(out_keys + blockIdx.x * 512, k);
  for (int i = 0; i < 4; i++) out_vals[blockIdx.x * 512 + threadIdx.x * 4 + i] = v[i];
}

__global__ void warp_reduce_rows(const double* x, double* y, long long* imax, int cols) {
  using WR = cub::WarpReduce<double>;
  using WRI = cub::WarpReduce<long long>;
  __shared__ typename WR::TempStorage t[4];
  __shared__ typename WRI::TempStorage ti[4];
  int w = threadIdx.x / 32, row = blockIdx.x * 4 + w;
  double s = 0.0;
  long long m = 0;
  for (int c = threadIdx.x % 32; c < cols; c += 32) { s += x[row * cols + c]; m = max(m, (long long)x[row * cols + c]); }
  s = WR(t[w]).Sum(s);
  m = WRI(ti[w]).Reduce(m, cuda::maximum<>());
  if (threadIdx.x % 32 == 0) { y[row] = s; imax[row] = m; }
}

__global__ void saxpy_grid_stride(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}

__global__ void half_gelu(const __half2* x, __half2* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 v = __half22float2(x[i]);
  v.x = 0.5f * v.x * (1.f + tanhf(0.7978845608f * (v.x + 0.044715f * v.x * v.x * v.x)));
  v.y = 0.5f * v.y * (1.f + erff(v.y * 0.70710678f));
  y[i] = __float22half2_rn(v);
}
