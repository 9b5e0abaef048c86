// Sparse e4m3/e5m2 mma.sp (m16n8k64, f32 accumulator): QMMA.SP on sm_89; sm_90 has no fp8 tensor
// op and ptxas rewrites it as two HMMA.SP with unpacked inputs and shuffled metadata. Inputs have
// bit 6 of every byte cleared (magnitudes below 2, no NaN); metadata as in mma_sparse.cu.
// PTX: nvcc -ptx -arch=sm_80 mma_sparse_fp8.cu -o mma_sparse_fp8.ptx (the tests retarget it to sm_89+)
#define ROT(w, s) __funnelshift_l((w), (w), 4 * ((s) & 7))
#define F4(v) "=f"(v[0]), "=f"(v[1]), "=f"(v[2]), "=f"(v[3])
#define C4(v) "f"(v[0]), "f"(v[1]), "f"(v[2]), "f"(v[3])
extern "C" __global__ void mma_sp_fp8(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    const unsigned *p = in + 32 * t;
    unsigned a[4], b[4];
    float c[4], d[4], e[4];
    for (int i = 0; i < 4; i++) {
        a[i] = p[i] & 0xbfbfbfbfu;
        b[i] = p[4 + i] & 0xbfbfbfbfu;
        c[i] = __uint_as_float(p[16 + i] & 0xbfffffffu);
    }
    unsigned m = ROT(0xd8ed9c84u, p[22]), m2 = ROT(0x9cd84e8du, p[23] >> 3);
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0;"
                 : F4(d) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), C4(c), "r"(m));
    asm volatile("mma.sp.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0;"
                 : F4(e) : "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), C4(d), "r"(m2));
    unsigned *o = out + 32 * t;
    for (int i = 0; i < 4; i++) { o[i] = __float_as_uint(d[i]); o[4 + i] = __float_as_uint(e[i]); }
}
