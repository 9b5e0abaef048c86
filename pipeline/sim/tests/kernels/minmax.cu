// min/max (s32, u32, s64, u64, f32 incl. NaN), abs, neg, and saturating cvt between integer widths.
// PTX: nvcc -ptx -arch=sm_80 minmax.cu -o minmax.ptx
extern "C" __global__ void minmax_cvt(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[4 * t], b = in[4 * t + 1], c = in[4 * t + 2], e = in[4 * t + 3];
    long long x = ((long long)c << 32) | a, y = ((long long)e << 32) | b;
    unsigned *o = out + 16 * t;
    o[0] = min((int)a, (int)b) ^ max(a, b);
    o[1] = (unsigned)min(x, y) ^ (unsigned)(max((unsigned long long)x, (unsigned long long)y) >> 32);
    o[2] = abs((int)a) + (unsigned)llabs(x) + (unsigned)(-(long long)y >> 7);
    o[3] = __float_as_uint(fminf(__uint_as_float(a), __uint_as_float(b)));
    o[4] = __float_as_uint(fmaxf(__uint_as_float(c), __uint_as_float(e)));
    o[5] = (unsigned)max(-(int)a, (int)e) ^ min(b >> 3, c);
    unsigned d;
    asm("cvt.sat.s8.s32 %0, %1;" : "=r"(d) : "r"(a)); o[6] = d;
    asm("cvt.sat.u8.s32 %0, %1;" : "=r"(d) : "r"(b)); o[7] = d;
    asm("cvt.sat.s16.u32 %0, %1;" : "=r"(d) : "r"(c)); o[8] = d;
    asm("cvt.sat.u16.s32 %0, %1;" : "=r"(d) : "r"(e)); o[9] = d;
    asm("cvt.sat.u32.s64 %0, %1;" : "=r"(d) : "l"(x)); o[10] = d;
    asm("cvt.sat.s32.u64 %0, %1;" : "=r"(d) : "l"(y)); o[11] = d;
    asm("cvt.sat.s32.s64 %0, %1;" : "=r"(d) : "l"(x >> (a & 63))); o[12] = d;
    unsigned short h; asm("cvt.s16.s8 %0, %1;" : "=h"(h) : "h"((unsigned short)a)); o[13] = h;
    long long w; asm("cvt.s64.s16 %0, %1;" : "=l"(w) : "h"((unsigned short)b)); o[14] = (unsigned)(w >> 20);
    asm("cvt.u32.u8 %0, %1;" : "=r"(d) : "r"(c)); o[15] = d + (unsigned char)e + (signed char)a;
}
