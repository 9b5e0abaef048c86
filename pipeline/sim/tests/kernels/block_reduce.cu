// Warp-divergent loops with bar.sync between phases, and a shared-memory tree reduction.
// PTX: nvcc -ptx -arch=sm_80 block_reduce.cu -o block_reduce.ptx
extern "C" __global__ void divergent_reduce(const unsigned *in, unsigned *out) {
    __shared__ unsigned part[256];
    unsigned t = threadIdx.x;
    unsigned v = in[t];
    unsigned n = v & 15; // a different trip count on every lane
    unsigned acc = v;
    for (unsigned i = 0; i < n; ++i) {
        acc = acc * 1664525u + 1013904223u;
        if (acc & 0x100) acc ^= acc >> 7; else acc += i;
    }
    part[t] = acc;
    __syncthreads();
    if (t & 1) {
        unsigned j = 0;
        while (j < (part[t ^ 1] & 7)) { acc += part[(t + j) & 255]; ++j; }
    }
    __syncthreads();
    part[t] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    out[t] = acc;
    if (t == 0) out[256 + blockIdx.x] = part[0];
}
