// Kernels for the hardware check (scripts/gpu-check.sh) that stress what the emulator cannot
// prove about the scheduler's control bits: back-to-back dependent ALU chains (minimum stalls),
// loads consumed right after their scoreboard wait, divergent branches that reconverge, barriers
// between rounds of shared-memory traffic, and warp collectives after divergence.
// PTX: nvcc -ptx -arch=sm_80 hw_stress.cu -o hw_stress.ptx
// Launch: 1 block of 128 threads; 4 KiB buffers (1024 words).

// Integer and float chains where each instruction needs the one before it.
extern "C" __global__ void dep_chain(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned x = in[t], y = in[t + 128];
    float f = (float)(x & 0xffff) * 0.0001f;
#pragma unroll
    for (int i = 0; i < 24; i++) {
        x = x * 0x9e3779b1u + y;
        x ^= x >> 13;
        x = (x << 5) | (x >> 27);
        y = y + (x & 0xff) - i;
        f = f * 1.0001f + 0.5f;
        f = f - (float)(y & 7);
    }
    out[3 * t] = x;
    out[3 * t + 1] = y;
    out[3 * t + 2] = __float_as_uint(f);
}

// Pointer chasing: every load's address comes from the load before it, and every loaded value is
// used at once (global, then shared).
extern "C" __global__ void load_use(const unsigned *in, unsigned *out) {
    __shared__ unsigned s[1024];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < 1024; i += blockDim.x) s[i] = in[i] ^ 0x5a5a5a5au;
    __syncthreads();
    unsigned g = in[t] & 1023, acc = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        g = in[g] & 1023;
        acc = acc * 31 + g;
    }
    unsigned h = g;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        h = s[h] & 1023;
        acc = acc * 17 + h;
    }
    out[2 * t] = acc;
    out[2 * t + 1] = h;
}

// Lanes take different paths (odd and even lanes, nested, and a loop with a per-lane trip count),
// reconverge, and then use warp collectives: inside the divergent region on the odd lanes, and
// after it on the full warp.
extern "C" __global__ void diverge_reconverge(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x, lane = t & 31;
    unsigned v = in[t];
    unsigned r = 0, inside = 0;
    if (lane & 1) {
        r = v * 3;
        if (v & 2) {
            r ^= 0x1234;
        } else {
            r += lane;
        }
        inside = __ballot_sync(0xaaaaaaaau, r & 4) + __shfl_xor_sync(0xaaaaaaaau, r, 2);
    } else {
        for (unsigned i = 0; i < (v >> 28) + (lane & 6); i++) r = r * 7 + i;
        inside = r >> 3;
    }
    unsigned sum = r;
    for (int d = 16; d > 0; d >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, d);
    unsigned ballot = __ballot_sync(0xffffffffu, r & 1);
    out[4 * t] = r;
    out[4 * t + 1] = inside;
    out[4 * t + 2] = sum;
    out[4 * t + 3] = ballot + __shfl_sync(0xffffffffu, r, (v >> 8) & 31);
}

// Rounds of shared-memory exchange across warps separated by barriers, and a tree reduction.
extern "C" __global__ void barrier_rounds(const unsigned *in, unsigned *out) {
    __shared__ unsigned s[128];
    const unsigned n = 128; // the launch's block size (a power of two: no division)
    unsigned t = threadIdx.x;
    unsigned v = in[t];
    for (int round = 0; round < 4; round++) {
        s[t] = v;
        __syncthreads();
        v = s[(t + 33 * (round + 1)) % n] + s[n - 1 - t] * 3 + round;
        __syncthreads();
    }
    s[t] = v;
    __syncthreads();
    for (unsigned stride = n / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    out[2 * t] = v;
    out[2 * t + 1] = s[0];
}
