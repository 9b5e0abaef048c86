// movmatrix (sm_75 on: MOVM): an 8x8 b16 matrix transposed across the warp, twice.
// PTX: nvcc -ptx -arch=sm_80 movmatrix.cu -o movmatrix.ptx
extern "C" __global__ void movmatrix(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned x = in[t], y = in[32 + t], m, n;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(m) : "r"(x));
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(n) : "r"(y + m));
    out[t] = m;
    out[32 + t] = n;
}
