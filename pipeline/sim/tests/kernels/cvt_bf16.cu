// cvt between f32 and bf16 with every rounding mode, bf16x2/f16x2 packing with relu (sm_80 and later).
// PTX: nvcc -ptx -arch=sm_80 cvt_bf16.cu -o cvt_bf16.ptx
#include <cuda_bf16.h>

#define CVT_BF16(mode, f) ({ unsigned short h_; asm("cvt." mode ".bf16.f32 %0, %1;" : "=h"(h_) : "f"(f)); (unsigned)h_; })

extern "C" __global__ void cvt_bf16(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[2 * t], b = in[2 * t + 1];
    float f = __uint_as_float(a);
    if (t & 1) f = __uint_as_float((a & 0x80ffffffu) | 0x3f000000u);
    unsigned *o = out + 6 * t;
    o[0] = CVT_BF16("rn", f) | CVT_BF16("rz", f) << 16;
    o[1] = CVT_BF16("rm", f) | CVT_BF16("rp", f) << 16;
    float back; asm("cvt.f32.bf16 %0, %1;" : "=f"(back) : "h"((unsigned short)b)); o[2] = __float_as_uint(back);
    unsigned packed; asm("cvt.rn.relu.bf16x2.f32 %0, %1, %2;" : "=r"(packed) : "f"(f), "f"(__uint_as_float(b)));
    o[3] = packed;
    asm("cvt.rz.satfinite.bf16x2.f32 %0, %1, %2;" : "=r"(packed) : "f"(__uint_as_float(b)), "f"(f));
    o[4] = packed;
    asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(packed) : "f"(f), "f"(__uint_as_float(b)));
    o[5] = packed ^ __float_as_uint(__bfloat162float(__float2bfloat16_rn(f)) * 2.0f);
}
