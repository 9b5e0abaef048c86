// Tensor-core mma.sync through inline asm with f16 inputs: m16n8k8 (sm_75 on) with f16 and f32
// accumulators, from fragments read straight from global memory (m16n8k16 fed by ldmatrix:
// mma_ldmatrix.cu). Inputs are masked to halves below 2 in magnitude (finite products and sums)
// except in the last m16n8k8, which sees raw bits (NaN and infinity included).
// PTX: nvcc -ptx -arch=sm_80 mma_f16.cu -o mma_f16.ptx
#define MMA_K8_F32(d, a0, a1, b0, c) \
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" \
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) \
                 : "r"(a0), "r"(a1), "r"(b0), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]))
#define MMA_K8_F16(d, a0, a1, b0, c0, c1) \
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};" \
                 : "=r"(d[0]), "=r"(d[1]) : "r"(a0), "r"(a1), "r"(b0), "r"(c0), "r"(c1))

extern "C" __global__ void mma_f16_k8(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    const unsigned *p = in + 16 * t;
    unsigned a0 = p[0] & 0xbfffbfffu, a1 = p[1] & 0xbfffbfffu, b0 = p[2] & 0xbfffbfffu;
    unsigned h0 = p[3] & 0xbfffbfffu, h1 = p[4] & 0xbfffbfffu;
    float c[4], d[4], e[4];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(p[5 + i] & 0xbfffffffu);
    MMA_K8_F32(d, a0, a1, b0, c);
    // Accumulates onto the first result.
    MMA_K8_F32(e, a1, a0, b0, d);
    unsigned hd[2], hr[2];
    MMA_K8_F16(hd, a0, a1, b0, h0, h1);
    MMA_K8_F16(hr, p[9], p[10], p[11], p[12], p[13]);
    unsigned *o = out + 16 * t;
    for (int i = 0; i < 4; i++) {
        o[i] = __float_as_uint(d[i]);
        o[4 + i] = __float_as_uint(e[i]);
    }
    o[8] = hd[0]; o[9] = hd[1]; o[10] = hr[0]; o[11] = hr[1];
}
