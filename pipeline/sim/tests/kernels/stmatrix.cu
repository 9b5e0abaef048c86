// stmatrix (sm_90: STSM) x1/x2/x4, plain and transposed, read back from shared memory with plain
// loads.
// PTX: nvcc -ptx -arch=sm_80 stmatrix.cu -o stmatrix.ptx (nvcc passes the asm through; it runs at
// sm_90 only)
extern "C" __global__ void stmatrix(const unsigned *in, unsigned *out) {
    __shared__ __align__(16) unsigned sh[448];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < 448; i += 32) sh[i] = 0;
    __syncwarp();
    const unsigned *p = in + 4 * t;
    unsigned base = (unsigned)__cvta_generic_to_shared(sh);
    // Matrix j's row r at lane 8j + r: 16-byte rows, 128 bytes a matrix, packed one after another.
    unsigned row = base + 16 * t;
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(row), "r"(p[0]));
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(row + 128), "r"(p[1]), "r"(p[2]));
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(row + 384), "r"(p[0]), "r"(p[1]), "r"(p[2]), "r"(p[3]));
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(row + 896), "r"(p[3]));
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" :: "r"(row + 1024), "r"(p[2]), "r"(p[0]));
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(row + 1280), "r"(p[3]), "r"(p[2]), "r"(p[1]), "r"(p[0]));
    __syncwarp();
    for (unsigned i = t; i < 448; i += 32) out[i] = sh[i];
}
