// A uniform value live across calls of a recursive function that writes uniform registers of
// its own (redux.sync): the global-memory descriptor, loaded at the entry, is loaded again after
// each call (ptxforge: backends/sass/src/uniform_remat.rs). nvcc -ptx -arch=sm_80.
__device__ __noinline__ unsigned warp_sum_down(unsigned n, unsigned v) {
    if (n == 0) return v;
    unsigned s = __reduce_add_sync(0xffffffffu, v + n);
    return warp_sum_down(n - 1, s ^ (v * n)) + (s & 7);
}

extern "C" __global__ void uniform_across_calls(const unsigned* in, unsigned* out) {
    unsigned t = threadIdx.x;
    unsigned a = in[t];
    unsigned n = 2 + (in[0] & 3);
    unsigned r = warp_sum_down(n, a);
    out[t] = r + in[(t + 1) % 64];
    r = warp_sum_down(n + 1, r);
    out[t + 64] = r ^ in[t + 2];
}
