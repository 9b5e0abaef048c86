// FP8 conversions through cuda_fp8.h (sm_89 and later): f32 pairs, f16x2 and scalars into e4m3
// and e5m2 with saturation, and back to f16x2 and f32 (F2FP's FP8 forms).
// PTX: nvcc -ptx -arch=sm_89 fp8_cvt.cu -o fp8_cvt.ptx, then `.target sm_89` edited to sm_80
// (the test retargets every kernel; it runs this one from sm_89 on).
#include <cuda_fp8.h>
#include <cuda_fp16.h>

extern "C" __global__ void fp8_cvt(const unsigned *in, unsigned *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[4 * t], b = in[4 * t + 1], h = in[4 * t + 2], q = in[4 * t + 3];
    // Exponents from 2^-12 to 2^19: past both formats' ranges and into their subnormals.
    float fa = __uint_as_float((a & 0x807fffffu) | ((115u + (a >> 27)) << 23));
    float fb = __uint_as_float(t % 5 == 0 ? b : (b & 0x807fffffu) | ((115u + (b >> 27)) << 23));
    float2 ab = make_float2(fa, fb);
    unsigned *o = out + 8 * t;
    o[0] = __nv_cvt_float2_to_fp8x2(ab, __NV_SATFINITE, __NV_E4M3);
    o[1] = __nv_cvt_float2_to_fp8x2(ab, __NV_SATFINITE, __NV_E5M2);
    __half2_raw hr;
    hr.x = (unsigned short)h;
    hr.y = (unsigned short)(h >> 16);
    o[2] = __nv_cvt_halfraw2_to_fp8x2(hr, __NV_SATFINITE, __NV_E4M3)
         | (unsigned)__nv_cvt_halfraw2_to_fp8x2(hr, __NV_SATFINITE, __NV_E5M2) << 16;
    __half2_raw u4 = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)q, __NV_E4M3);
    __half2_raw u5 = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)(q >> 16), __NV_E5M2);
    o[3] = u4.x | (unsigned)u4.y << 16;
    o[4] = u5.x | (unsigned)u5.y << 16;
    // Scalars: a float through e4m3 and back, an e5m2 byte to float.
    __nv_fp8_e4m3 s(fa * 0.25f);
    o[5] = __float_as_uint(float(s)) ^ s.__x;
    __nv_fp8_e5m2 e;
    e.__x = (unsigned char)(q >> 8);
    o[6] = __float_as_uint(float(e));
    __nv_fp8x4_e4m3 v4(make_float4(fa, fb, -fa, fb * 3.0f));
    o[7] = v4.__x;
}
