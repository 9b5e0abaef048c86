// Volta's quad-pair mma.sync.aligned.m8n8k4 with f16 inputs (HMMA.884 on sm_75, emulated by
// ptxas and by ptxforge on sm_80 on): every A/B layout with f32 D and C, f16 D and C, and f32 D
// with f16 C. Inputs are halves in [1, 4) with four mantissa bits and f32 C of eight, so every
// sum is exact in f32 and the rounding order cannot differ.
// PTX: nvcc -ptx -arch=sm_80 mma_m8n8k4.cu -o mma_m8n8k4.ptx
#define MMA_F32(lay, d, a, b, c) \
    asm volatile("mma.sync.aligned.m8n8k4." lay ".f32.f16.f16.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%12,%13,%14,%15,%16,%17,%18,%19};" \
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7]) \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), \
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "f"(c[4]), "f"(c[5]), "f"(c[6]), "f"(c[7]))
#define MMA_F16(lay, d, a, b, c) \
    asm volatile("mma.sync.aligned.m8n8k4." lay ".f16.f16.f16.f16 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11};" \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
#define MMA_F32_F16(lay, d, a, b, c) \
    asm volatile("mma.sync.aligned.m8n8k4." lay ".f32.f16.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%12,%13,%14,%15};" \
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7]) \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))

// Two halves in [1, 4) with four mantissa bits, signs kept.
__device__ unsigned halves(unsigned x) { return (x & 0x87c087c0u) | 0x3c003c00u; }

extern "C" __global__ void mma_m8n8k4_f32(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    const unsigned *p = in + 16 * t;
    unsigned a[2] = {halves(p[0]), halves(p[1])}, b[2] = {halves(p[2]), halves(p[3])};
    float c[8];
    for (int i = 0; i < 8; i++) c[i] = __uint_as_float((p[8 + i] & 0x8001fe00u) | 0x3f800000u);
    float d[8];
    unsigned *o = out + 32 * t;
    MMA_F32("row.col", d, a, b, c);
    for (int i = 0; i < 8; i++) o[i] = __float_as_uint(d[i]);
    MMA_F32("col.row", d, a, b, c);
    for (int i = 0; i < 8; i++) o[8 + i] = __float_as_uint(d[i]);
    MMA_F32("row.row", d, a, b, c);
    for (int i = 0; i < 8; i++) o[16 + i] = __float_as_uint(d[i]);
    MMA_F32("col.col", d, a, b, c);
    for (int i = 0; i < 8; i++) o[24 + i] = __float_as_uint(d[i]);
}

extern "C" __global__ void mma_m8n8k4_f16(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    const unsigned *p = in + 16 * t;
    unsigned a[2] = {halves(p[0]), halves(p[1])}, b[2] = {halves(p[2]), halves(p[3])};
    unsigned h[4] = {halves(p[4]), halves(p[5]), halves(p[6]), halves(p[7])};
    unsigned *o = out + 32 * t;
    unsigned e[4];
    MMA_F16("row.col", e, a, b, h);
    for (int i = 0; i < 4; i++) o[i] = e[i];
    MMA_F16("col.row", e, a, b, h);
    for (int i = 0; i < 4; i++) o[4 + i] = e[i];
    MMA_F16("row.row", e, a, b, h);
    for (int i = 0; i < 4; i++) o[8 + i] = e[i];
    MMA_F16("col.col", e, a, b, h);
    for (int i = 0; i < 4; i++) o[12 + i] = e[i];
    float d[8];
    MMA_F32_F16("row.col", d, a, b, h);
    for (int i = 0; i < 8; i++) o[16 + i] = __float_as_uint(d[i]);
    MMA_F32_F16("col.row", d, a, b, h);
    for (int i = 0; i < 8; i++) o[24 + i] = __float_as_uint(d[i]);
}
