// Module variables named directly as memory operands: a scalar __device__ float read and written
// (ld/st.global [gscale]), a 64-bit scalar, an int, and an array written through its address and
// read back.
// PTX: nvcc -ptx -arch=sm_80 global_sym.cu -o global_sym.ptx
__device__ float gscale = 1.5f;
__device__ unsigned long long gbig = 0x0123456789abcdefull;
__device__ int counter;
__device__ unsigned gtab[64];

extern "C" __global__ void global_sym(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    gtab[t] = in[t] * 3u;
    float s = gscale;
    __syncthreads();
    unsigned *o = out + 4 * t;
    o[0] = __float_as_uint(s * (float)(in[t] & 0xffff)) ^ gtab[(t * 7) & 63];
    o[1] = (unsigned)(gbig >> (t & 31)) + (unsigned)gbig;
    __syncthreads();
    if (t == 12) counter = (int)in[3];
    if (t == 5) gscale = 2.0f;
    if (t == 9) gbig = 7;
    __syncthreads();
    o[2] = __float_as_uint(gscale) + (unsigned)counter;
    o[3] = (unsigned)gbig;
}
