// The sm_80..89 mbarrier (a 64-bit word in shared memory that ptxas updates with shared-memory
// atomics) through the three ways CUDA C reaches it, for the three-way check on sm_80 to sm_90:
// - mbar_primitives: the __mbarrier_* primitives (cuda_awbarrier_primitives.h; test_wait.parity in inline PTX): init with a
//   count in a register, arrive, test_wait on a token, arrive_and_drop, test_wait_parity,
//   pending_count, inval; 64 threads, two phases exchanging values through shared memory, then
//   thread 0 alone drives a second barrier and writes its pending counts and waits.
// - mbar_cuda_barrier: cuda::barrier<thread_scope_block> (arrive_and_wait, arrive + wait on a
//   token, arrive_and_drop); 128 threads.
// - mbar_memcpy_async: cuda::memcpy_async completing on a cuda::barrier (cp.async and
//   cp.async.mbarrier.arrive.noinc), then a second copy with cp.async.mbarrier.arrive (the
//   arrival counted back) and an ordinary arrive; 64 threads.
// PTX: nvcc -ptx -arch=sm_80 mbarrier80.cu -o mbarrier80.ptx (the test retargets it).
#include <cuda/barrier>
#include <cuda_awbarrier_primitives.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
using barrier = cuda::barrier<cuda::thread_scope_block>;

// __mbarrier_test_wait_parity traps before sm_90 in cuda_awbarrier_primitives.h; the PTX
// instruction itself is sm_80's.
__device__ bool test_wait_parity(__mbarrier_t* bar, unsigned parity)
{
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(bar));
    unsigned done;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(addr), "r"(parity)
                 : "memory");
    return done != 0;
}

__global__ void mbar_primitives(const unsigned* in, unsigned* out)
{
    __shared__ __mbarrier_t bar[2];
    __shared__ unsigned buf[64], buf2[64];
    unsigned t = threadIdx.x;
    if (t == 0) {
        __mbarrier_init(&bar[0], blockDim.x);
    }
    __syncthreads();
    buf[t] = in[t] * 5 + 7;
    __mbarrier_token_t tok = __mbarrier_arrive(&bar[0]);
    while (!__mbarrier_test_wait(&bar[0], tok)) {
    }
    unsigned v = buf[(t + 9) & 63];
    __syncthreads();
    buf[t] = v ^ t;
    // Phase 1: odd threads arrive and drop out, even ones arrive; all wait on parity 1.
    if (t & 1) {
        tok = __mbarrier_arrive_and_drop(&bar[0]);
    } else {
        tok = __mbarrier_arrive(&bar[0]);
    }
    while (!test_wait_parity(&bar[0], 1)) {
    }
    out[t] = buf[(t + 22) & 63];
    // Phase 2: the 32 even threads alone.
    if ((t & 1) == 0) {
        buf2[t] = v + 1;
        tok = __mbarrier_arrive(&bar[0]);
        while (!__mbarrier_test_wait(&bar[0], tok)) {
        }
        out[64 + t] = buf2[(t + 6) & 62];
    }
    __syncthreads();
    if (t == 0) {
        __mbarrier_inval(&bar[0]);
        __mbarrier_init(&bar[1], 3);
        __mbarrier_token_t a = __mbarrier_arrive(&bar[1]);
        __mbarrier_token_t b = __mbarrier_arrive_and_drop(&bar[1]);
        bool w0 = __mbarrier_test_wait(&bar[1], b);
        __mbarrier_token_t c = __mbarrier_arrive(&bar[1]);
        bool w1 = __mbarrier_test_wait(&bar[1], b);
        bool p0 = test_wait_parity(&bar[1], 0);
        bool p1 = test_wait_parity(&bar[1], 1);
        out[128] = __mbarrier_token_pending_count(a);
        out[129] = __mbarrier_token_pending_count(b);
        out[130] = __mbarrier_token_pending_count(c);
        out[131] = w0 | w1 << 1 | p0 << 2 | p1 << 3;
        __mbarrier_inval(&bar[1]);
    }
}

__global__ void mbar_cuda_barrier(const unsigned* in, unsigned* out)
{
    __shared__ barrier bar;
    __shared__ unsigned buf[128];
    unsigned t = threadIdx.x;
    if (t == 0) {
        init(&bar, blockDim.x);
    }
    __syncthreads();
    buf[t] = in[t] * 3;
    bar.arrive_and_wait();
    unsigned v = buf[(t + 1) & 127];
    auto token = bar.arrive();
    bar.wait(std::move(token));
    buf[t] = v + 1;
    bar.arrive_and_wait();
    out[t] = buf[(t + 5) & 127];
    bar.arrive_and_wait();
    // The upper half leaves; the lower half goes on alone.
    if (t >= 64) {
        bar.arrive_and_drop();
        return;
    }
    buf[t] = v * 7;
    bar.arrive_and_wait();
    out[128 + t] = buf[(t + 3) & 63];
}

__global__ void mbar_memcpy_async(const unsigned* in, unsigned* out)
{
    __shared__ barrier bar;
    __shared__ alignas(16) unsigned buf[2][256];
    auto block = cg::this_thread_block();
    unsigned t = threadIdx.x;
    if (t == 0) {
        init(&bar, blockDim.x);
    }
    block.sync();
    // 1 KiB with cp.async, completing on the barrier (cp.async.mbarrier.arrive.noinc).
    cuda::memcpy_async(block, buf[0], in, sizeof(unsigned) * 256, bar);
    bar.arrive_and_wait();
    for (unsigned i = t; i < 256; i += blockDim.x) {
        out[i] = buf[0][(i + 17) & 255] + 1;
    }
    // 16 bytes a thread with cp.async, then cp.async.mbarrier.arrive (counted back) and an
    // ordinary arrive: the phase completes when the copies have landed.
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&buf[1][4 * t]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, 16;" ::"r"(dst), "l"(in + 256 + 4 * t)
                 : "memory");
    unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
    asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"(b) : "memory");
    bar.arrive_and_wait();
    for (unsigned i = t; i < 256; i += blockDim.x) {
        out[256 + i] = buf[1][(i + 100) & 255] ^ i;
    }
}
