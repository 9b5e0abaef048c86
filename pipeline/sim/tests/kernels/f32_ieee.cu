// f32 div/sqrt/rcp .rn (IEEE, full range), fma, and directed-rounding add/mul.
// PTX: nvcc -ptx -arch=sm_80 f32_ieee.cu -o f32_ieee.ptx
extern "C" __global__ void f32_ieee(const float *in, float *out) {
    unsigned t = threadIdx.x;
    float a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
    if (t & 1) b = __uint_as_float((__float_as_uint(b) & 0x807fffffu) | 0x3f800000u);
    float *o = out + 8 * t;
    o[0] = __fdiv_rn(a, b);
    o[1] = __fsqrt_rn(c);
    o[2] = __frcp_rn(b);
    o[3] = __fmaf_rn(a, b, c);
    o[4] = __fadd_rz(a, c) + __fmul_ru(b, c);
    o[5] = __fadd_rd(a, b);
    o[6] = __fmul_rz(a, c);
    o[7] = __fdiv_rz(c, a);
}
