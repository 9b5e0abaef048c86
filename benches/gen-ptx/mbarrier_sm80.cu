// archs: sm_80 sm_86 sm_89 sm_90
// The mbarrier as CUDA C reaches it before sm_90 (a 64-bit word that ptxas updates with
// shared-memory atomics there): the __mbarrier_* primitives, cuda::barrier (arrive with a count,
// arrive_and_drop, a completion function, barriers in an array and in dynamic shared memory),
// cuda::memcpy_async completing on a barrier, and cuda::pipeline shared by a thread block with
// producer and consumer roles (its stages are mbarriers).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_awbarrier_primitives.h>
namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void primitives(const unsigned* in, unsigned* out, unsigned n) {
  __shared__ __mbarrier_t bar;
  __shared__ unsigned buf[256];
  unsigned t = threadIdx.x;
  if (t == 0) __mbarrier_init(&bar, n);
  __syncthreads();
  buf[t] = in[t];
  __mbarrier_token_t tok = t < n ? __mbarrier_arrive(&bar) : __mbarrier_arrive_and_drop(&bar);
  while (!__mbarrier_test_wait(&bar, tok)) {
  }
  out[t] = buf[(t + 1) % blockDim.x] + __mbarrier_token_pending_count(tok);
  if (t == 0) __mbarrier_inval(&bar);
}

__global__ void barrier_counts(const float* in, float* out) {
  __shared__ block_barrier bar;
  __shared__ float buf[256];
  unsigned t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  buf[t] = in[t] * 2.f;
  // Warp leaders arrive for their warp.
  if (t % 32 == 0) {
    auto token = bar.arrive(32);
    bar.wait(std::move(token));
  }
  __syncwarp();
  out[t] = buf[(t + 33) % blockDim.x];
  bar.arrive_and_drop();
}

struct on_complete {
  float* slot;
  __device__ void operator()() noexcept { *slot += 1.f; }
};

__global__ void barrier_completion(float* out) {
  __shared__ float acc;
  using cbar = cuda::barrier<cuda::thread_scope_block, on_complete>;
  __shared__ cbar bar;
  if (threadIdx.x == 0) {
    acc = 0.f;
    init(&bar, blockDim.x, on_complete{&acc});
  }
  __syncthreads();
  for (int i = 0; i < 4; ++i) bar.arrive_and_wait();
  out[threadIdx.x] = acc;
}

__global__ void barrier_per_warp(const float* in, float* out) {
  __shared__ block_barrier bars[8];
  __shared__ float buf[256];
  unsigned t = threadIdx.x, w = t / 32;
  if (t % 32 == 0) init(&bars[w], 32);
  __syncthreads();
  buf[t] = in[t] + 1.f;
  bars[w].arrive_and_wait();
  out[t] = buf[w * 32 + (t + 5) % 32];
}

__global__ void barrier_dynamic(const float4* in, float4* out) {
  extern __shared__ __align__(16) unsigned char dyn[];
  auto* bar = reinterpret_cast<block_barrier*>(dyn);
  auto* tile = reinterpret_cast<float4*>(dyn + 16);
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + blockIdx.x * blockDim.x,
                     cuda::aligned_size_t<16>(sizeof(float4) * blockDim.x), *bar);
  bar->arrive_and_wait();
  float4 v = tile[(threadIdx.x + 1) % blockDim.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = make_float4(v.w, v.z, v.y, v.x);
}

__global__ void block_pipeline(const float* in, float* out, int chunks) {
  constexpr int stages = 2;
  __shared__ float tile[stages][128];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
  auto block = cg::this_thread_block();
  const auto role = block.thread_rank() < 64 ? cuda::pipeline_role::producer
                                             : cuda::pipeline_role::consumer;
  auto pipe = cuda::make_pipeline(block, &state, role);
  float sum = 0.f;
  for (int c = 0; c < chunks; ++c) {
    if (role == cuda::pipeline_role::producer) {
      pipe.producer_acquire();
      unsigned i = block.thread_rank();
      cuda::memcpy_async(&tile[c % stages][2 * i], &in[c * 128 + 2 * i], sizeof(float2), pipe);
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      sum += tile[c % stages][block.thread_rank() - 64];
      pipe.consumer_release();
    }
  }
  if (role == cuda::pipeline_role::consumer) out[block.thread_rank() - 64] = sum;
}
