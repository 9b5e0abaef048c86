// match.any.sync / match.all.sync (b32 and b64) with the whole warp, and with the member mask of
// the lanes a data-dependent branch sends one way (taken from a ballot before the branch).
// PTX: nvcc -ptx -arch=sm_80 warp_match.cu -o warp_match.ptx
extern "C" __global__ void warp_match(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned v = in[t] & 7, x = in[t + 64];
    unsigned u = (t / 32) & 1 ? 9u : v; // the second warp agrees
    unsigned long long w = (unsigned long long)(x & 1) << 32 | (v & 3);
    unsigned *o = out + 8 * t;
    int pred;
    o[0] = __match_any_sync(0xffffffffu, v);
    o[1] = __match_any_sync(0xffffffffu, w);
    o[2] = __match_all_sync(0xffffffffu, u, &pred);
    o[3] = pred;
    o[4] = __match_all_sync(0xffffffffu, (unsigned long long)u << 40 | 3, &pred) + (pred << 1);
    bool odd = x & 2;
    unsigned members = __ballot_sync(0xffffffffu, odd);
    if (odd) {
        o[5] = __match_any_sync(members, v >> 1);
        o[6] = __match_all_sync(members, u, &pred);
        o[7] = pred;
    }
}
