// archs: sm_75 sm_80 sm_86 sm_90
// Cooperative groups (tiles, reductions, scans, grid sync), memcpy_async/cuda::pipeline/cuda::barrier,
// cache-hinted loads and stores, dynamic shared memory, a printf, a texture object and a surface.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cuda/barrier>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void cg_reduce(const int* x, int* y, float* f, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
  int i = block.group_index().x * block.size() + block.thread_rank();
  int v = i < n ? x[i] : 0;
  int s = cg::reduce(warp, v, cg::plus<int>());
  int m = cg::reduce(eight, v, cg::greater<int>());
  int sc = cg::inclusive_scan(warp, v);
  int ex = cg::exclusive_scan(eight, v, cg::bit_xor<int>());
  float fs = cg::reduce(warp, (float)v * 0.5f, cg::plus<float>());
  cg::coalesced_group active = cg::coalesced_threads();
  if (v & 1) {
    cg::coalesced_group odd = cg::coalesced_threads();
    s += odd.shfl(v, 0) + (int)odd.size() + cg::reduce(odd, v, cg::plus<int>());
  }
  s += warp.shfl_down(v, 1) + warp.any(v > 3) + (int)warp.ballot(v < 2) + (int)active.thread_rank();
  block.sync();
  if (i < n) { y[i] = s + m + sc + ex; f[i] = fs; }
}

__global__ void cg_grid(int* x, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) x[i] += 1;
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) x[i] *= 2;
}

__global__ void async_copy(const float4* g, float4* out, int n) {
  extern __shared__ float4 smem[];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, smem, g + blockIdx.x * blockDim.x, sizeof(float4) * blockDim.x);
  cg::wait(block);
  auto pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&smem[blockDim.x + threadIdx.x], &g[(blockIdx.x * blockDim.x + threadIdx.x + 1) % n], sizeof(float4), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  float4 a = smem[threadIdx.x], b = smem[blockDim.x + threadIdx.x];
  pipe.consumer_release();
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(&smem[2 * blockDim.x + threadIdx.x], &g[threadIdx.x], sizeof(float4), bar);
  bar.arrive_and_wait();
  float4 c = smem[2 * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = make_float4(a.x + b.x + c.x, a.y + b.y, a.z + c.z, a.w);
}

__global__ void cache_hints(const float* x, float* y, const float4* v, float4* w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = __ldg(x + i) + __ldcg(x + i + 1) + __ldca(x + i + 2) + __ldcs(x + i + 3) + __ldlu(x + i + 4) + __ldcv(x + i + 5);
  float4 b = __ldg(v + i);
  __stcg(y + i, a);
  __stcs(y + i + n, a * 2.f);
  __stwt(y + i + 2 * n, a * 3.f);
  __stwb(w + i, b);
  __prof_trigger(1);
  if (a > 1e30f) printf("big %f at %d\n", a, i);
}

__global__ void tex_surf(cudaTextureObject_t tex, cudaSurfaceObject_t surf, float* out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float a = tex1Dfetch<float>(tex, x) + tex2D<float>(tex, x + 0.5f, 0.5f) + tex2DLod<float>(tex, x, 1.f, 0.f);
  float4 g = tex2Dgather<float4>(tex, x + 0.5f, 0.5f, 1);
  float s;
  surf2Dread(&s, surf, x * 4, 0);
  surf2Dwrite(a + s + g.y, surf, x * 4, 1);
  out[x] = a;
}
