// mul.hi / mad.hi / mad.wide / mul24 / sad, and 64-bit integer arithmetic with carries.
// Three entries, so that an instruction one runner lacks leaves the others checked.
// PTX: nvcc -ptx -arch=sm_80 intmul.cu -o intmul.ptx
#define LOAD4 unsigned t = threadIdx.x; \
    unsigned a = in[4 * t], b = in[4 * t + 1], c = in[4 * t + 2], e = in[4 * t + 3]; \
    unsigned long long x = ((unsigned long long)b << 32) | a, y = ((unsigned long long)e << 32) | c

extern "C" __global__ void mul_hi(const unsigned *in, unsigned *out) {
    LOAD4;
    unsigned *o = out + 8 * t;
    o[0] = __umulhi(a, b);
    o[1] = __mulhi((int)a, (int)b);
    unsigned d;
    asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); o[2] = d;
    asm("mad.hi.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); o[3] = d;
    asm("mad.hi.sat.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(e)); o[4] = d;
    o[5] = __sad((int)a, (int)b, c) ^ __usad(a, c, e);
    o[6] = (unsigned)(x >> 3) + (unsigned)y;
    o[7] = 0;
}

extern "C" __global__ void mul_hi64(const unsigned *in, unsigned *out) {
    LOAD4;
    unsigned *o = out + 4 * t;
    unsigned long long h = __umul64hi(x, y);
    o[0] = (unsigned)h; o[1] = (unsigned)(h >> 32);
    long long sh = __mul64hi((long long)x, (long long)y);
    o[2] = (unsigned)sh; o[3] = (unsigned)(sh >> 32);
}

extern "C" __global__ void int64_carry(const unsigned *in, unsigned *out) {
    LOAD4;
    unsigned *o = out + 12 * t;
    long long sw;
    asm("mad.wide.s32 %0, %1, %2, %3;" : "=l"(sw) : "r"(a), "r"(c), "l"(y)); o[0] = (unsigned)sw; o[1] = (unsigned)(sw >> 32);
    unsigned long long uw;
    asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(uw) : "r"(b), "r"(e), "l"(x)); o[2] = (unsigned)uw; o[3] = (unsigned)(uw >> 32);
    o[4] = __umul24(a, b) + __mul24((int)c, (int)e);
    unsigned long long p = x * y + (x >> (c & 63)) - (y << (a & 63));
    o[5] = (unsigned)p; o[6] = (unsigned)(p >> 32);
    long long q = (long long)x >> (e & 63);
    o[7] = (unsigned)q ^ (unsigned)(q >> 32);
    unsigned lo, hi, cy;
    asm("add.cc.u32 %0, %2, %3;\n\taddc.cc.u32 %1, %4, %5;" : "=r"(lo), "=r"(hi) : "r"(a), "r"(c), "r"(b), "r"(e));
    asm("addc.u32 %0, 0, 0;" : "=r"(cy));
    o[8] = lo ^ hi; o[9] = cy;
    asm("sub.cc.u32 %0, %2, %3;\n\tsubc.u32 %1, %4, %5;" : "=r"(lo), "=r"(hi) : "r"(a), "r"(c), "r"(b), "r"(e));
    o[10] = lo + hi;
    o[11] = (unsigned)((x * 0x9e3779b97f4a7c15ull) >> 40) - (unsigned)(y / 0x10000ull);
}
