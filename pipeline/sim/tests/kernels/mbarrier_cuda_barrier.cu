// cuda::barrier<thread_scope_block> (libcu++) in shared memory, initialised with blockDim.x
// (mbarrier.init with a count in a register), arrive_and_wait and arrive/wait with a token:
// out[t] = 3 * in[(t + 6) & 127] + 1, exchanged through shared memory between the phases.
// PTX: nvcc -ptx -arch=sm_90a mbarrier_cuda_barrier.cu -o mbarrier_cuda_barrier.ptx, with its
// '.target sm_90a' then written as '.target sm_80' (the test retargets it; it runs from sm_90 on).
#include <cuda/barrier>
#include <cooperative_groups.h>
using barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void mbarrier_cuda_barrier(const unsigned* in, unsigned* out)
{
    __shared__ barrier bar;
    __shared__ unsigned buf[128];
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
    }
    __syncthreads();
    buf[threadIdx.x] = in[threadIdx.x] * 3;
    bar.arrive_and_wait();
    unsigned v = buf[(threadIdx.x + 1) & 127];
    auto token = bar.arrive();
    bar.wait(std::move(token));
    buf[threadIdx.x] = v + 1;
    bar.arrive_and_wait();
    out[threadIdx.x] = buf[(threadIdx.x + 5) & 127];
}
