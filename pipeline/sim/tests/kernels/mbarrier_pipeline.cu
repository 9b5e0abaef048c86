// A warp-specialized pipeline through two shared-memory stages guarded by mbarriers, written with
// cuda::ptx (the mbarrier, fence and elect.sync wrappers of CCCL): warp 0 produces, warps 1..3
// consume; the elected producer lane announces each stage's bytes with arrive.expect_tx and every
// producer lane completes its 4 bytes, as a TMA copy would.
// PTX: nvcc -ptx -arch=sm_90a mbarrier_pipeline.cu -o mbarrier_pipeline.ptx, with its '.target sm_90a' then written as
// '.target sm_80' (the test retargets it to each architecture; it runs from sm_90 on).
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

constexpr int kStages = 2;
constexpr int kRounds = 6;

__global__ void mbarrier_pipeline(const unsigned* in, unsigned* out)
{
    __shared__ uint64_t full[kStages];
    __shared__ uint64_t empty[kStages];
    __shared__ unsigned tile[kStages][32];
    const unsigned tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    if (tid == 0) {
        for (int s = 0; s < kStages; ++s) {
            ptx::mbarrier_init(&full[s], 32);
            ptx::mbarrier_init(&empty[s], 96);
        }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    unsigned acc = 0;
    if (warp == 0) {
        for (int k = 0; k < kRounds; ++k) {
            const int s = k % kStages;
            if (k >= kStages) {
                while (!ptx::mbarrier_try_wait_parity(&empty[s], ((k / kStages) - 1) & 1)) {
                }
            }
            tile[s][lane] = in[k * 32 + lane] + k;
            ptx::fence_proxy_async(ptx::space_shared);
            ptx::mbarrier_complete_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &full[s], 4);
            if (ptx::elect_sync(0xffffffff)) {
                ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], 128);
            } else {
                ptx::mbarrier_arrive(&full[s]);
            }
        }
        acc = lane;
    } else {
        for (int k = 0; k < kRounds; ++k) {
            const int s = k % kStages;
            while (!ptx::mbarrier_try_wait_parity(&full[s], (k / kStages) & 1)) {
            }
            acc = acc * 3 + tile[s][(lane + warp * 7) % 32];
            uint64_t state = ptx::mbarrier_arrive(&empty[s]);
            (void)state;
        }
    }
    out[tid] = acc;
}
