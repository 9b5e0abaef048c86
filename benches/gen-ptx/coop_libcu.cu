// archs: sm_80 sm_90
// Cooperative groups and libcu++ as user code writes them: tiled partitions and their collectives,
// cuda::atomic_ref at every scope and order, cuda::barrier, cuda::pipeline copies, annotated_ptr
// access properties, complex arithmetic.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/annotated_ptr>
#include <cuda/std/complex>
namespace cg = cooperative_groups;

__global__ void tile_collectives(const float* in, float* out, int* counts) {
  auto block = cg::this_thread_block();
  auto tile16 = cg::tiled_partition<16>(block);
  auto tile4 = cg::tiled_partition<4>(tile16);
  float x = in[block.group_index().x * block.size() + block.thread_rank()];
  float s = cg::reduce(tile16, x, cg::plus<float>());
  float m = cg::reduce(tile4, x, cg::greater<float>());
  float p = cg::inclusive_scan(tile16, x);
  int e = cg::exclusive_scan(tile4, (int)x, cg::bit_xor<int>());
  auto active = cg::coalesced_threads();
  if (x > 0.5f) {
    auto pos = cg::coalesced_threads();
    atomicAdd(counts, pos.num_threads() == pos.size());
    out[block.thread_rank()] = pos.shfl(x, 0);
  }
  auto part = cg::labeled_partition(active, (int)(x * 4.f));
  out[block.group_index().x * block.size() + block.thread_rank()] =
      s + m + p + e + part.thread_rank() + tile16.any(x > 2.f) + tile4.ballot(x > 1.f);
}

template <cuda::thread_scope S>
__global__ void atomic_refs(int* ip, unsigned long long* up, float* fp, double* dp) {
  cuda::atomic_ref<int, S> i(*ip);
  cuda::atomic_ref<unsigned long long, S> u(*up);
  cuda::atomic_ref<float, S> f(*fp);
  cuda::atomic_ref<double, S> d(*dp);
  int old = i.fetch_add(threadIdx.x, cuda::std::memory_order_relaxed);
  i.fetch_max(old, cuda::std::memory_order_acq_rel);
  i.fetch_and(~threadIdx.x, cuda::std::memory_order_release);
  int expected = old;
  i.compare_exchange_strong(expected, old + 1, cuda::std::memory_order_seq_cst);
  u.fetch_or(1ull << (threadIdx.x & 63), cuda::std::memory_order_acquire);
  u.exchange(u.load(cuda::std::memory_order_acquire) + 1);
  f.fetch_add(1.5f, cuda::std::memory_order_relaxed);
  d.fetch_add(2.5, cuda::std::memory_order_seq_cst);
  d.store(d.load() * 2.0, cuda::std::memory_order_release);
}
template __global__ void atomic_refs<cuda::thread_scope_system>(int*, unsigned long long*, float*, double*);
template __global__ void atomic_refs<cuda::thread_scope_device>(int*, unsigned long long*, float*, double*);
template __global__ void atomic_refs<cuda::thread_scope_block>(int*, unsigned long long*, float*, double*);

__global__ void barrier_pipeline(const float4* in, float4* out, int n) {
  __shared__ float4 stage[2][128];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int chunk = 0; chunk < n; ++chunk) {
    pipe.producer_acquire();
    cuda::memcpy_async(&stage[chunk & 1][threadIdx.x], &in[chunk * 128 + threadIdx.x], sizeof(float4), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    float4 v = stage[chunk & 1][threadIdx.x];
    pipe.consumer_release();
    bar.arrive_and_wait();
    out[chunk * 128 + threadIdx.x] = make_float4(v.w, v.z, v.y, v.x);
  }
  cg::memcpy_async(block, stage[0], in, sizeof(float4) * 128);
  cg::wait(block);
  out[threadIdx.x] = stage[0][127 - threadIdx.x];
}

__global__ void access_properties(float* data, const float* stream, int n) {
  cuda::annotated_ptr<float, cuda::access_property::persisting> keep(data);
  cuda::annotated_ptr<const float, cuda::access_property::streaming> once(stream);
  cuda::annotated_ptr<float, cuda::access_property> window(data, cuda::access_property(data, 4096, 8192, cuda::access_property::persisting{}, cuda::access_property::streaming{}));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    keep[i] = keep[i] + once[i];
    window[i] *= 2.0f;
  }
}

__global__ void complex_math(const cuda::std::complex<float>* a, cuda::std::complex<double>* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  auto z = a[i];
  auto w = cuda::std::exp(z) * cuda::std::sqrt(z) / (z + 1.0f);
  cuda::std::complex<double> d(w.real(), w.imag());
  b[i] = cuda::std::pow(d, 1.5) + cuda::std::log(d) + cuda::std::polar(cuda::std::abs(d), cuda::std::arg(d));
}
