// Module variables whose address is taken: ptxas keeps each .global variable's address in a
// constant-bank-4 slot relocated (R_CUDA_64) to the variable, and the code reads c[0x4][...].
// An initialized table read through a runtime index, and an uninitialized scratch array written
// by one thread and read back by another after a barrier.
// PTX: nvcc -ptx -arch=sm_80 module_vars.cu -o module_vars.ptx

__device__ unsigned table[32] = {
    0x9e3779b9u, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53,
    59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 0xdeadbeefu};
static __device__ unsigned scratch[64];


extern "C" __global__ void module_vars(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned k = in[t] & 31;
    const unsigned *p = table;
    unsigned v = p[k] ^ p[(k * 5 + 1) & 31];
    volatile unsigned *s = scratch;
    s[t] = v + t;
    __syncthreads();
    out[t] = s[(t + 1) & 63] + v;
}
