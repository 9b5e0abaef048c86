// f16 and f16x2 arithmetic (add/sub/mul/fma/neg/abs/setp with .ftz/.sat), and the conversions
// real code uses between f16, f32 and narrow integers (sm_80 forms: half_minmax.cu).
// PTX: nvcc -ptx -arch=compute_80 half_math.cu -o half_math.ptx
#define H(x) ((unsigned short)(x))
#define OP2(op, d, a, b) asm(op " %0, %1, %2;" : "=h"(d) : "h"(a), "h"(b))
#define OP2X(op, d, a, b) asm(op " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))
#define SETP(op, a, b) ({ unsigned r_; asm("{ .reg .pred p; " op " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r_) : "h"(a), "h"(b)); r_; })

extern "C" __global__ void half_arith(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
    // Halves below 2 in magnitude (no infinities or NaNs), subnormals included.
    unsigned x = a & 0xbfffbfffu, y = b & 0xbfffbfffu, z = (c & 0xbfffbfffu) ^ 0x04000400u;
    unsigned short hx = H(x), hy = H(y), hz = H(z), hw = H(x >> 16), r;
    unsigned *o = out + 16 * t;
    unsigned short r2;
    OP2("add.f16", r, hx, hy); OP2("sub.f16", r2, hx, hz); o[0] = r | r2 << 16;
    OP2("mul.f16", r, hx, hw); OP2("mul.ftz.f16", r2, hy, hz); o[1] = r | r2 << 16;
    asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(hx), "h"(hy), "h"(hz));
    asm("fma.rn.sat.f16 %0, %1, %2, %3;" : "=h"(r2) : "h"(hw), "h"(hy), "h"(hz)); o[2] = r | r2 << 16;
    asm("neg.f16 %0, %1;" : "=h"(r) : "h"(hx)); asm("abs.f16 %0, %1;" : "=h"(r2) : "h"(hw)); o[3] = r | r2 << 16;
    unsigned p; OP2X("add.f16x2", p, x, y); o[4] = p;
    OP2X("mul.rn.f16x2", p, x, z); o[5] = p;
    asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(p) : "r"(x), "r"(y), "r"(z)); o[6] = p;
    asm("sub.ftz.sat.f16x2 %0, %1, %2;" : "=r"(p) : "r"(y), "r"(z)); o[7] = p;
    o[8] = SETP("setp.lt.f16", hx, hy) | SETP("setp.ne.f16", hx, hz) << 1 | SETP("setp.geu.f16", hy, hw) << 2
         | SETP("setp.eq.ftz.f16", hz, hw) << 3;
    unsigned q; asm("{ .reg .pred p, q; setp.gt.f16x2 p|q, %1, %2; selp.u32 %0, 1, 0, p; selp.u32 %0, 2, %0, q; }" : "=r"(q) : "r"(x), "r"(z));
    o[8] |= q << 4;
    float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(hx)); o[9] = __float_as_uint(f);
    float g = __uint_as_float((a & 0x8fffffffu) | 0x30000000u) * (t & 4 ? 65536.0f : 1.0f);
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(g)); asm("cvt.rz.f16.f32 %0, %1;" : "=h"(r2) : "f"(g)); o[10] = r | r2 << 16;
    int i = (int)b >> (t & 15);
    asm("cvt.rn.f16.s32 %0, %1;" : "=h"(r) : "r"(i)); asm("cvt.rm.f16.u16 %0, %1;" : "=h"(r2) : "h"(H(c))); o[11] = r | r2 << 16;
    asm("cvt.rn.f32.s16 %0, %1;" : "=f"(f) : "h"(H(c >> 7))); o[12] = __float_as_uint(f);
    int s8; asm("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(s8) : "f"(g * 200.0f - 100.0f)); o[13] = s8;
    int s32; asm("cvt.rzi.s32.f16 %0, %1;" : "=r"(s32) : "h"(H(c ^ 0x4000))); o[14] = s32;
    unsigned short u8; asm("cvt.rni.u8.f16 %0, %1;" : "=h"(u8) : "h"(H(b ^ 0x4800))); o[15] = u8;
}
