// Tensor-core mma.sync m16n8k16 with f16 inputs and f32 or f16 accumulators (sm_80), fed by
// ldmatrix from tiles staged in shared memory: x4 for A, x4.trans for a 16x16 B whose two n8
// halves feed two products (each B fragment a pair of the x4's registers, as CUTLASS does);
// inputs masked to halves below 2 in magnitude.
// PTX: nvcc -ptx -arch=sm_80 mma_ldmatrix.cu -o mma_ldmatrix.ptx
// A: 16x16 f16 row-major, B: 16x16 f16 row-major (k x n, read transposed), from in[0..256] words.
extern "C" __global__ void mma_ldmatrix(const unsigned *in, unsigned *out) {
    __shared__ unsigned short sa[16 * 16], sb[16 * 16];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < 128; i += 32) ((unsigned *)sa)[i] = in[i] & 0xbfffbfffu;
    for (unsigned i = t; i < 128; i += 32) ((unsigned *)sb)[i] = in[128 + i] & 0xbfffbfffu;
    __syncwarp();
    unsigned a[4], b[4];
    // ldmatrix x4: lanes 0..15 give rows 0..15 of columns 0..7, lanes 16..31 of columns 8..15.
    unsigned arow = (unsigned)__cvta_generic_to_shared(&sa[(t % 16) * 16 + (t / 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(arow));
    // x4.trans: lanes 0..15 give rows 0..15 of columns 0..7 (B's first n8 half), 16..31 of 8..15.
    unsigned brow = (unsigned)__cvta_generic_to_shared(&sb[(t % 16) * 16 + (t / 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3]) : "r"(brow));
    float c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(in[256 + 4 * t + i] & 0xbfffffffu);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    unsigned h[2], hc0 = in[384 + 2 * t] & 0xbfffbfffu, hc1 = in[385 + 2 * t] & 0xbfffbfffu;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(h[0]), "=r"(h[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[2]), "r"(b[3]), "r"(hc0), "r"(hc1));
    float e[4];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(e[0]), "=f"(e[1]), "=f"(e[2]), "=f"(e[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[2]), "r"(b[3]),
                   "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]));
    unsigned *o = out + 12 * t;
    for (int i = 0; i < 4; i++) o[i] = __float_as_uint(d[i]);
    o[4] = h[0]; o[5] = h[1];
    for (int i = 0; i < 4; i++) o[6 + i] = __float_as_uint(e[i]);
}
