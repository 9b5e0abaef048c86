// Sparse tensor-core mma.sp / mma.sp::ordered_metadata through inline asm (sm_80): f16, bf16 and
// tf32 inputs in every shape (f16 and f32 accumulators), each with another sparsity selector.
// Fragments come straight from global memory, 16-bit inputs masked below 2 in magnitude (tf32:
// f32 bits masked alike, low 13 bits left random). The metadata is a word of valid 2:4 nibbles
// (0x4, 0x8, 0xc, 0x9, 0xd, 0xe; tf32's 1:2 only 0x4 and 0xe) rotated by a lane-dependent
// number of nibbles taken from the input.
// PTX: nvcc -ptx -arch=sm_80 mma_sparse.cu -o mma_sparse.ptx
#define M4(x) ((x) & 0xbfffbfffu)
#define ROT(w, s) __funnelshift_l((w), (w), 4 * ((s) & 7))
#define F4(v) "=f"(v[0]), "=f"(v[1]), "=f"(v[2]), "=f"(v[3])
#define C4(v) "f"(v[0]), "f"(v[1]), "f"(v[2]), "f"(v[3])
extern "C" __global__ void mma_sp_f16(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    const unsigned *p = in + 32 * t;
    unsigned a[4], b[4], h[2], ta[4], tb[4], hd[2], he[2];
    float c[4], d[4], e[4], f[4], g[4], k[4];
    for (int i = 0; i < 4; i++) {
        a[i] = M4(p[i]);
        b[i] = M4(p[4 + i]);
        ta[i] = p[8 + i] & 0xbfffffffu;
        tb[i] = p[12 + i] & 0xbfffffffu;
        c[i] = __uint_as_float(p[16 + i] & 0xbfffffffu);
    }
    h[0] = M4(p[20]); h[1] = M4(p[21]);
    unsigned m = ROT(0xd8ed9c84u, p[22]), m2 = ROT(0x9cd84e8du, p[23] >> 3);
    unsigned tm = ROT(0x4ee4e44eu, p[24]);
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 2;"
                 : F4(d) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), C4(c), "r"(m));
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 1;"
                 : F4(e) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), C4(d), "r"(m2));
    asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7,%8,%9}, {%10,%11}, %12, 0;"
                 : "=r"(hd[0]), "=r"(hd[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(h[0]), "r"(h[1]), "r"(m));
    asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4,%5}, {%6,%7}, %8, 3;"
                 : "=r"(he[0]), "=r"(he[1]) : "r"(a[2]), "r"(a[3]), "r"(b[2]), "r"(b[3]), "r"(hd[0]), "r"(hd[1]), "r"(m2));
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0;"
                 : F4(f) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), C4(c), "r"(m));
    asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 1;"
                 : F4(g) : "r"(a[1]), "r"(a[2]), "r"(b[1]), "r"(b[3]), C4(f), "r"(m2));
    float tf[4], tg[4];
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 3;"
                 : F4(tf) : "r"(ta[0]), "r"(ta[1]), "r"(tb[0]), "r"(tb[1]), C4(c), "r"(tm));
    asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 1;"
                 : F4(tg) : "r"(ta[0]), "r"(ta[1]), "r"(ta[2]), "r"(ta[3]), "r"(tb[0]), "r"(tb[1]), "r"(tb[2]), "r"(tb[3]), C4(tf), "r"(tm));
    (void)k;
    unsigned *o = out + 32 * t;
    for (int i = 0; i < 4; i++) {
        o[i] = __float_as_uint(d[i]);
        o[4 + i] = __float_as_uint(e[i]);
        o[8 + i] = __float_as_uint(f[i]);
        o[12 + i] = __float_as_uint(g[i]);
        o[16 + i] = __float_as_uint(tf[i]);
        o[20 + i] = __float_as_uint(tg[i]);
    }
    o[24] = hd[0]; o[25] = hd[1]; o[26] = he[0]; o[27] = he[1];
}

// s8/u8 (m16n8k32, m16n8k64) with and without .satfinite; C near the s32 limits so that
// saturation matters.
extern "C" __global__ void mma_sp_int8(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    const unsigned *p = in + 32 * t;
    int c[4], d[4], e[4], f[4], g[4];
    for (int i = 0; i < 4; i++) c[i] = (int)(p[16 + i] ^ ((p[20 + i] & 1) ? 0x7fffff00u : 0u));
    unsigned m = ROT(0xd8ed9c84u, p[22]), m2 = ROT(0x9cd84e8du, p[23] >> 3);
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 1;"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(p[0]), "r"(p[1]), "r"(p[4]), "r"(p[5]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(m));
    asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 0;"
                 : "=r"(e[0]), "=r"(e[1]), "=r"(e[2]), "=r"(e[3]) : "r"(p[2]), "r"(p[3]), "r"(p[6]), "r"(p[7]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(m2));
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.u8.s32.satfinite {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0;"
                 : "=r"(f[0]), "=r"(f[1]), "=r"(f[2]), "=r"(f[3]) : "r"(p[0]), "r"(p[1]), "r"(p[2]), "r"(p[3]), "r"(p[4]), "r"(p[5]), "r"(p[6]), "r"(p[7]), "r"(d[0]), "r"(d[1]), "r"(d[2]), "r"(d[3]), "r"(m));
    asm volatile("mma.sp.sync.aligned.m16n8k64.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0;"
                 : "=r"(g[0]), "=r"(g[1]), "=r"(g[2]), "=r"(g[3]) : "r"(p[8]), "r"(p[9]), "r"(p[10]), "r"(p[11]), "r"(p[12]), "r"(p[13]), "r"(p[14]), "r"(p[15]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(m2));
    unsigned *o = out + 32 * t;
    for (int i = 0; i < 4; i++) { o[i] = d[i]; o[4 + i] = e[i]; o[8 + i] = f[i]; o[12 + i] = g[i]; }
}

// s4/u4 (m16n8k64, m16n8k128): one IMMA.SP each on sm_80..sm_89; sm_90 has no 4-bit IMMA and
// ptxas rewrites them as 8-bit IMMA.SP with the metadata reshuffled.
extern "C" __global__ void mma_sp_int4(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    const unsigned *p = in + 32 * t;
    int c[4], d[4], e[4];
    for (int i = 0; i < 4; i++) c[i] = (int)(p[16 + i] ^ ((p[20 + i] & 1) ? 0x7fffff00u : 0u));
    unsigned m = ROT(0xd8ed9c84u, p[22]), m2 = ROT(0x9cd84e8du, p[23] >> 3);
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.u4.s32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 1;"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(p[0]), "r"(p[1]), "r"(p[4]), "r"(p[5]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(m));
    asm volatile("mma.sp.sync.aligned.m16n8k128.row.col.s32.u4.s4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0;"
                 : "=r"(e[0]), "=r"(e[1]), "=r"(e[2]), "=r"(e[3]) : "r"(p[8]), "r"(p[9]), "r"(p[10]), "r"(p[11]), "r"(p[12]), "r"(p[13]), "r"(p[14]), "r"(p[15]), "r"(d[0]), "r"(d[1]), "r"(d[2]), "r"(d[3]), "r"(m2));
    unsigned *o = out + 32 * t;
    for (int i = 0; i < 4; i++) { o[i] = d[i]; o[4 + i] = e[i]; }
}
