// shfl.sync (idx, up, down, bfly; with clamps and segment widths), vote (all, any, ballot, uni), activemask.
// vote.uni has an entry of its own.
// PTX: nvcc -ptx -arch=sm_80 shfl_vote.cu -o shfl_vote.ptx
extern "C" __global__ void shfl_vote(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x, lane = t & 31;
    unsigned v = in[t], w = in[t + 64];
    unsigned *o = out + 12 * t;
    o[0] = __shfl_sync(0xffffffffu, v, w & 31);
    o[1] = __shfl_up_sync(0xffffffffu, v, 1 + (t / 32) * 4);
    o[2] = __shfl_down_sync(0xffffffffu, v, 3);
    o[3] = __shfl_xor_sync(0xffffffffu, v, 5);
    o[4] = __shfl_sync(0xffffffffu, v, w & 7, 8);
    o[5] = __shfl_down_sync(0xffffffffu, v, 2, 16);
    o[6] = __shfl_xor_sync(0xffffffffu, v, 1, 4);
    o[7] = __ballot_sync(0xffffffffu, v & 1);
    o[8] = __all_sync(0xffffffffu, v > 0x100000u) | __any_sync(0xffffffffu, (v & 0xff) == 7) << 1;
    o[9] = __ballot_sync(0xffffffffu, w & 0x80000000u) == 0xffffffffu;
    unsigned got = 0;
    if (v & 2) got = __activemask() ^ __ballot_sync(__activemask(), w & 4);
    o[10] = got;
    unsigned sum = v;
    for (int d = 16; d > 0; d >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, d);
    o[11] = sum + lane;
}

extern "C" __global__ void vote_uni(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned v = in[t];
    unsigned same = (t / 32) & 1 ? 0x80000000u : v & 0x80000000u; // uniform in the second warp
    unsigned uni;
    asm("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; vote.sync.uni.pred q, p, 0xffffffff; selp.u32 %0, 1, 0, q; }" : "=r"(uni) : "r"(same));
    out[t] = uni;
}
