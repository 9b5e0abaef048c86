// Lane 0 drives an mbarrier through a phase and a half with cuda::ptx (arrive with a count,
// arrive_drop, test_wait on a state, try_wait with a suspend-time hint, expect_tx/complete_tx,
// pending_count, inval); every lane then tests the second phase and the leader (elect.sync)
// writes the results. One warp (a barrier at a thread-varying address, bar[warp], is not
// supported yet by ptxforge's mbarrier.init).
// PTX: nvcc -ptx -arch=sm_90a mbarrier_phases.cu -o mbarrier_phases.ptx, with its '.target sm_90a' then written as
// '.target sm_80' (the test retargets it to each architecture; it runs from sm_90 on).
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

__global__ void mbarrier_phases(const unsigned* in, unsigned* out)
{
    __shared__ uint64_t bar;
    const unsigned tid = threadIdx.x, warp = 0, lane = tid % 32;
    uint64_t* b = &bar;
    const unsigned n = 12;
    unsigned r[8] = {};
    if (lane == 0) {
        ptx::mbarrier_init(b, n);
        uint64_t s1 = ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, b, 3u);
        uint64_t s2 = ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, b, 2u);
        r[0] = ptx::mbarrier_pending_count(s1);
        r[1] = ptx::mbarrier_pending_count(s2);
        r[2] = ptx::mbarrier_test_wait(b, s2);
        ptx::mbarrier_arrive_drop(ptx::sem_release, ptx::scope_cta, ptx::space_shared, b, 1u);
        ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, b, n - 6);
        r[3] = ptx::mbarrier_test_wait(b, s2);
        r[4] = ptx::mbarrier_try_wait(b, s2, 1000u);
        ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, b, 8u);
        uint64_t s3 = ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, b, n - 1);
        r[5] = ptx::mbarrier_test_wait(b, s3);
        ptx::mbarrier_complete_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, b, in[warp] % 8 + 8);
        r[6] = ptx::mbarrier_test_wait_parity(b, 1u);
    }
    __syncwarp();
    // Every lane waits for the second phase (done unless complete_tx overshot: in[warp] % 8 != 0).
    unsigned done = ptx::mbarrier_test_wait_parity(b, 1u);
    unsigned sum = 0;
    for (int k = 0; k < 8; ++k) sum = sum * 2 + r[k];
    unsigned ballot = __ballot_sync(0xffffffff, done);
    if (ptx::elect_sync(0xffffffff)) {
        out[warp] = sum * 1000 + (ballot == 0xffffffff);
        ptx::mbarrier_inval(b);
    }
    out[1 + tid] = done;
}
