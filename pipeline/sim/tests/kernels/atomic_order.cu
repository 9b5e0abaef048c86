// Atomics with memory orders and scopes through libcu++'s cuda::atomic_ref (what CCCL code
// emits: generic-space atom.{relaxed,acquire,release,acq_rel}.{cta,gpu,sys}, a CAS loop,
// fence.sc.gpu). (A generic f32 fetch_add is left out: ptxas falls back to a shared-memory CAS
// loop for it, which ptxforge does not compile yet.)
// PTX: nvcc -ptx -arch=sm_80 -std=c++17 atomic_order.cu -o atomic_order.ptx
#include <cuda/atomic>

extern "C" __global__ void atomic_orders(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned v = in[t];
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> bins(out[v % 16]);
    unsigned old = bins.fetch_add(1u, cuda::memory_order_acq_rel);
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> mx(out[16]);
    mx.fetch_max(v, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_system> orv(out[17]);
    orv.fetch_or(1u << (v % 32), cuda::memory_order_release);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> andv(out[18]);
    andv.fetch_and(0xffffffffu - (v & 0xffu), cuda::memory_order_acquire);
    // A CAS loop: out[19] counts threads, each adding its own v exactly once.
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> sum(out[19]);
    unsigned expected = sum.load(cuda::memory_order_acquire);
    while (!sum.compare_exchange_weak(expected, expected + (v & 0xff), cuda::memory_order_acq_rel,
                                      cuda::memory_order_acquire)) {
    }
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
    out[32 + blockIdx.x * blockDim.x + t] = old < 1000u ? 1u : 0u;
}
