// redux.sync (add/min/max/and/or/xor, .u32 and .s32) with member masks other than the whole warp:
// the lanes a data-dependent branch sends one way (mask from a ballot before the branch) and a
// constant half-warp mask.
// PTX: nvcc -ptx -arch=sm_80 redux_mask.cu -o redux_mask.ptx
extern "C" __global__ void redux_mask(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned v = in[t], x = in[t + 64];
    int s = (int)in[t + 128];
    unsigned *o = out + 10 * t;
    bool taken = x & 1;
    unsigned members = __ballot_sync(0xffffffffu, taken);
    if (taken) {
        o[0] = __reduce_add_sync(members, v);
        o[1] = __reduce_min_sync(members, v);
        o[2] = __reduce_max_sync(members, v);
        o[3] = __reduce_add_sync(members, s);
        o[4] = __reduce_min_sync(members, s);
        o[5] = __reduce_max_sync(members, s);
        o[6] = __reduce_and_sync(members, v) ^ __reduce_or_sync(members, v);
    } else {
        o[7] = __reduce_xor_sync(~members, v);
    }
    if ((t & 31) < 16) {
        o[8] = __reduce_add_sync(0x0000ffffu, v) ^ __reduce_max_sync(0x0000ffffu, s);
        o[9] = __reduce_or_sync(0x0000ffffu, x);
    }
}
