// Tensor-core mma.sync through inline asm with bf16 (m16n8k8, m16n8k16) and tf32 (m16n8k4,
// m16n8k8) inputs and f32 accumulators (sm_80), fragments read straight from global memory.
// bf16 inputs are masked below 2 in magnitude; tf32 inputs are f32 bits masked the same way,
// their low 13 bits left random (the tensor unit ignores them).
// PTX: nvcc -ptx -arch=sm_80 mma_bf16_tf32.cu -o mma_bf16_tf32.ptx
#define M4(x) (x) & 0xbfffbfffu
extern "C" __global__ void mma_bf16_tf32(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    const unsigned *p = in + 16 * t;
    unsigned a[4], b[2], ta[4], tb[2];
    float c[4], d[4], e[4], f[4], g[4];
    for (int i = 0; i < 4; i++) {
        a[i] = M4(p[i]);
        ta[i] = p[6 + i] & 0xbfffffffu;
        c[i] = __uint_as_float(p[12 + i] & 0xbfffffffu);
    }
    b[0] = M4(p[4]); b[1] = M4(p[5]);
    tb[0] = p[10] & 0xbfffffffu; tb[1] = p[11] & 0xbfffffffu;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=f"(e[0]), "=f"(e[1]), "=f"(e[2]), "=f"(e[3])
                 : "r"(a[2]), "r"(a[3]), "r"(b[1]), "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(f[0]), "=f"(f[1]), "=f"(f[2]), "=f"(f[3])
                 : "r"(ta[0]), "r"(ta[1]), "r"(ta[2]), "r"(ta[3]), "r"(tb[0]), "r"(tb[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=f"(g[0]), "=f"(g[1]), "=f"(g[2]), "=f"(g[3])
                 : "r"(ta[2]), "r"(ta[3]), "r"(tb[1]), "f"(f[0]), "f"(f[1]), "f"(f[2]), "f"(f[3]));
    unsigned *o = out + 16 * t;
    for (int i = 0; i < 4; i++) {
        o[i] = __float_as_uint(d[i]);
        o[4 + i] = __float_as_uint(e[i]);
        o[8 + i] = __float_as_uint(f[i]);
        o[12 + i] = __float_as_uint(g[i]);
    }
}
