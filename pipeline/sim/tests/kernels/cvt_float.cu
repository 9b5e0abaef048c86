// cvt between f32, f16 and f64 with every rounding mode, and float <-> integer conversions (bf16: cvt_bf16.cu).
// Two entries: the f16 conversions, and those to and from f64 and integers.
// PTX: nvcc -ptx -arch=sm_80 cvt_float.cu -o cvt_float.ptx
#define CVT_F16(mode, f) ({ unsigned short h_; asm("cvt." mode ".f16.f32 %0, %1;" : "=h"(h_) : "f"(f)); (unsigned)h_; })
#define CVT_F32(mode, g) ({ float f_; asm("cvt." mode ".f32.f64 %0, %1;" : "=f"(f_) : "d"(g)); __float_as_uint(f_); })
#define LOAD unsigned t = threadIdx.x; \
    unsigned a = in[4 * t], b = in[4 * t + 1], c = in[4 * t + 2]; \
    float f = __uint_as_float(a); \
    if (t & 1) f = __uint_as_float((a & 0x8fffffffu) | 0x30000000u); /* near the f16 range */ \
    double g = __longlong_as_double(((long long)b << 32) | c); \
    if (t & 2) g = __longlong_as_double(((long long)(a & 0x8fffffffu) << 32 | 0x3000000000000000ll) | b)

extern "C" __global__ void cvt_half(const unsigned *in, unsigned *out) {
    LOAD;
    unsigned *o = out + 6 * t;
    o[0] = CVT_F16("rn", f) | CVT_F16("rz", f) << 16;
    o[1] = CVT_F16("rm", f) | CVT_F16("rp", f) << 16;
    unsigned short h; asm("cvt.rni.f16.f16 %0, %1;" : "=h"(h) : "h"((unsigned short)c)); o[2] = h;
    float back; asm("cvt.f32.f16 %0, %1;" : "=f"(back) : "h"((unsigned short)b)); o[3] = __float_as_uint(back);
    o[4] = CVT_F16("rn", __uint_as_float(b)) << 16 | CVT_F16("rn", __uint_as_float(c));
    asm("cvt.rzi.f16.f16 %0, %1;" : "=h"(h) : "h"((unsigned short)a)); o[5] = h + (unsigned)g;
}

extern "C" __global__ void cvt_double(const unsigned *in, unsigned *out) {
    LOAD;
    unsigned *o = out + 12 * t;
    o[0] = CVT_F32("rn", g); o[1] = CVT_F32("rz", g); o[2] = CVT_F32("rm", g); o[3] = CVT_F32("rp", g);
    unsigned i; asm("cvt.rzi.sat.u32.f64 %0, %1;" : "=r"(i) : "d"(g)); o[4] = i;
    double d16; asm("cvt.f64.f16 %0, %1;" : "=d"(d16) : "h"((unsigned short)c)); o[5] = (unsigned)(__double_as_longlong(d16) >> 32);
    double wide; asm("cvt.f64.f32 %0, %1;" : "=d"(wide) : "f"(f)); o[6] = (unsigned)(__double_as_longlong(wide) >> 29);
    o[7] = (unsigned)__float2int_rn(f) ^ (unsigned)__float2uint_rz(f * 3.0f);
    o[8] = (unsigned)__double2ll_rd(g) ^ (unsigned)(__double2ull_ru(g) >> 32);
    o[9] = __float_as_uint(__int2float_rn((int)b)) ^ __float_as_uint(__uint2float_rz(c));
    o[10] = __float_as_uint(__ll2float_rn(((long long)b << 32) | c));
    unsigned short h2; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h2) : "d"(g)); o[11] = h2;
}
