// f16/bf16 on sm_80 and later: min/max, fma.relu, bf16 fma/neg and the f32 to f16/bf16(x2) packing.
// PTX: nvcc -ptx -arch=compute_80 half_minmax.cu -o half_minmax.ptx
#define H(x) ((unsigned short)(x))
#define OP2(op, d, a, b) asm(op " %0, %1, %2;" : "=h"(d) : "h"(a), "h"(b))
#define OP2X(op, d, a, b) asm(op " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))

extern "C" __global__ void half_minmax_bf16(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
    unsigned x = a & 0xbfffbfffu, y = b & 0xbfffbfffu, z = (c & 0xbfffbfffu) ^ 0x04000400u;
    unsigned short hx = H(x), hy = H(y), r, r2;
    unsigned *o = out + 8 * t;
    OP2("min.f16", r, hx, hy); OP2("max.ftz.f16", r2, hx, H(z)); o[0] = r | r2 << 16;
    unsigned p; OP2X("max.NaN.f16x2", p, x, z); o[1] = p;
    asm("fma.rn.relu.f16x2 %0, %1, %2, %3;" : "=r"(p) : "r"(x), "r"(y), "r"(z)); o[2] = p;
    // bf16 halves below 2^64 in magnitude.
    unsigned bx = a & 0xdfffdfffu, by = b & 0xdfffdfffu, bz = c & 0xdfffdfffu;
    asm("fma.rn.bf16 %0, %1, %2, %3;" : "=h"(r) : "h"(H(bx)), "h"(H(by)), "h"(H(bz)));
    asm("neg.bf16 %0, %1;" : "=h"(r2) : "h"(H(by))); o[3] = r | r2 << 16;
    asm("fma.rn.bf16x2 %0, %1, %2, %3;" : "=r"(p) : "r"(bx), "r"(by), "r"(bz)); o[4] = p;
    float f = __uint_as_float(a), g = __uint_as_float((b & 0x8fffffffu) | 0x30000000u);
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(f)); asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r2) : "f"(g)); o[5] = r | r2 << 16;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(p) : "f"(g), "f"(f)); o[6] = p;
    asm("cvt.rz.bf16x2.f32 %0, %1, %2;" : "=r"(p) : "f"(f), "f"(g)); o[7] = p;
}
