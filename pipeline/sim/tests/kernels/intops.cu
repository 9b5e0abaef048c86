// bfe (u32/s32/u64/s64, register and immediate fields, positions and lengths past the width),
// carry chains (add.cc/addc, sub.cc/subc, mad.cc/madc, 64-bit add.cc), dp4a/dp2a, and
// nvcc's own __int128 arithmetic and __dp4a/__dp2a.
// PTX: nvcc -ptx -arch=sm_80 intops.cu -o intops.ptx
extern "C" __global__ void bfe_forms(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[4 * t], b = in[4 * t + 1], c = in[4 * t + 2];
    unsigned pos = c & 0x4f, len = (c >> 8) & 0x4f; // up to 79: past 32 and 64 on purpose
    if (t % 8 == 7) { pos |= 0x100; len = 0; }      // only the low byte counts; empty field
    unsigned long long w = ((unsigned long long)b << 32) | a;
    unsigned *o = out + 16 * t;
    unsigned d; int s; unsigned long long dw; long long sw;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(pos), "r"(len)); o[0] = d;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(a), "r"(pos), "r"(len)); o[1] = s;
    asm("bfe.u32 %0, %1, 5, 2;" : "=r"(d) : "r"(a)); o[2] = d;
    asm("bfe.s32 %0, %1, 6, 1;" : "=r"(s) : "r"(a)); o[3] = s;
    asm("bfe.u32 %0, %1, 0, 8;" : "=r"(d) : "r"(a)); o[4] = d;
    asm("bfe.s32 %0, %1, 24, 12;" : "=r"(s) : "r"(a)); o[5] = s;
    asm("bfe.s32 %0, %1, 0, 7;" : "=r"(s) : "r"(b)); o[6] = s;
    asm("bfe.u32 %0, %1, 40, 3;" : "=r"(d) : "r"(a)); o[7] = d + 3;
    asm("bfe.u64 %0, %1, %2, %3;" : "=l"(dw) : "l"(w), "r"(pos), "r"(len));
    o[8] = (unsigned)dw; o[9] = (unsigned)(dw >> 32);
    asm("bfe.s64 %0, %1, %2, %3;" : "=l"(sw) : "l"(w), "r"(pos), "r"(len));
    o[10] = (unsigned)sw; o[11] = (unsigned)(sw >> 32);
    asm("bfe.u64 %0, %1, 20, 20;" : "=l"(dw) : "l"(w)); o[12] = (unsigned)dw ^ (unsigned)(dw >> 32);
    asm("bfe.s64 %0, %1, 28, 36;" : "=l"(sw) : "l"(w)); o[13] = (unsigned)sw; o[14] = (unsigned)(sw >> 32);
    asm("bfe.s32 %0, %1, %2, 9;" : "=r"(s) : "r"(a), "r"(pos)); o[15] = s;
}

extern "C" __global__ void carry_chains(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[4 * t], b = in[4 * t + 1], c = in[4 * t + 2], e = in[4 * t + 3];
    if (t % 4 == 1) { a = 0xffffffffu; b = 0xffffffffu; } // carries all the way through
    if (t % 4 == 2) { c = a; e = 0; }                     // borrows of equal words
    unsigned *o = out + 16 * t;
    unsigned r0, r1, r2, r3;
    asm("add.cc.u32 %0, %4, %8;\n\taddc.cc.u32 %1, %5, %9;\n\taddc.cc.u32 %2, %6, %10;\n\taddc.u32 %3, %7, %11;"
        : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
        : "r"(a), "r"(b), "r"(c), "r"(e), "r"(c), "r"(a), "r"(e), "r"(b));
    o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3;
    asm("sub.cc.u32 %0, %3, %6;\n\tsubc.cc.u32 %1, %4, %7;\n\tsubc.u32 %2, %5, %8;"
        : "=r"(r0), "=r"(r1), "=r"(r2)
        : "r"(a), "r"(b), "r"(c), "r"(c), "r"(e), "r"(a));
    o[4] = r0; o[5] = r1; o[6] = r2;
    // A 64x64 -> 128-bit product's middle words, as multiword code writes it.
    asm("mad.lo.cc.u32 %0, %3, %4, %5;\n\tmadc.hi.cc.u32 %1, %3, %4, %6;\n\tmadc.lo.u32 %2, %4, %5, %3;"
        : "=r"(r0), "=r"(r1), "=r"(r2)
        : "r"(a), "r"(b), "r"(c), "r"(e));
    o[7] = r0; o[8] = r1; o[9] = r2;
    asm("mad.hi.cc.s32 %0, %2, %3, %4;\n\taddc.s32 %1, %5, 7;" : "=r"(r0), "=r"(r1) : "r"(a), "r"(b), "r"(c), "r"(e));
    o[10] = r0; o[11] = r1;
    unsigned long long x = ((unsigned long long)b << 32) | a, y = ((unsigned long long)e << 32) | c, z0, z1;
    asm("add.cc.u64 %0, %2, %3;\n\taddc.u64 %1, %3, %2;" : "=l"(z0), "=l"(z1) : "l"(x), "l"(y));
    o[12] = (unsigned)z0 ^ (unsigned)(z0 >> 32); o[13] = (unsigned)z1 ^ (unsigned)(z1 >> 32);
    asm("sub.cc.u64 %0, %2, %3;\n\tsubc.cc.u64 %1, %3, %2;" : "=l"(z0), "=l"(z1) : "l"(x), "l"(y));
    o[14] = (unsigned)z0 ^ (unsigned)(z0 >> 32); o[15] = (unsigned)z1 ^ (unsigned)(z1 >> 32);
}

extern "C" __global__ void int128_math(const unsigned long long *in, unsigned long long *out) {
    unsigned t = threadIdx.x;
    unsigned __int128 x = ((unsigned __int128)in[4 * t + 1] << 64) | in[4 * t];
    unsigned __int128 y = ((unsigned __int128)in[4 * t + 3] << 64) | in[4 * t + 2];
    if (t % 4 == 1) x = ~(unsigned __int128)0;
    unsigned __int128 s = x + y, d = x - y, p = x * y;
    __int128 q = (__int128)x * (__int128)(long long)in[4 * t + 2];
    unsigned long long *o = out + 8 * t;
    o[0] = (unsigned long long)s; o[1] = (unsigned long long)(s >> 64);
    o[2] = (unsigned long long)d; o[3] = (unsigned long long)(d >> 64);
    o[4] = (unsigned long long)p; o[5] = (unsigned long long)(p >> 64);
    o[6] = (unsigned long long)q; o[7] = (unsigned long long)(q >> 64);
}

extern "C" __global__ void dot_products(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[4 * t], b = in[4 * t + 1], c = in[4 * t + 2];
    unsigned *o = out + 8 * t;
    o[0] = __dp4a(a, b, c);
    o[1] = __dp4a((int)a, (int)b, (int)c);
    o[2] = __dp2a_lo(a, b, c);
    o[3] = __dp2a_hi((int)a, (int)b, (int)c);
    unsigned d;
    asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); o[4] = d;
    asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); o[5] = d;
    asm("dp2a.hi.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); o[6] = d;
    asm("dp2a.lo.s32.u32 %0, %1, 0x01fe03fd, %2;" : "=r"(d) : "r"(a), "r"(c)); o[7] = d;
}
