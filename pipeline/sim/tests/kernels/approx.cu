// Approximate f32 instructions (ex2, lg2, sin, cos, rsqrt, tanh, rcp, sqrt .approx) on finite inputs.
// Two entries: sin/cos and sqrt (range reduction, MUFU.SQRT) stand apart from the others.
// PTX: nvcc -ptx -arch=sm_80 approx.cu -o approx.ptx
#define APPROX(op, x) ({ float r_; asm(op ".approx.ftz.f32 %0, %1;" : "=f"(r_) : "f"(x)); r_; })

extern "C" __global__ void approx(const unsigned *in, float *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[2 * t], b = in[2 * t + 1];
    float m = __uint_as_float((a & 0x007fffffu) | 0x3f800000u); // [1, 2)
    float x = (m - 1.5f) * (float)(1 + (b & 15));              // [-8, 8)
    float *o = out + 8 * t;
    o[0] = APPROX("ex2", x);
    o[1] = APPROX("lg2", m * (float)(1 + (b >> 8 & 255)));
    o[2] = APPROX("ex2", m * 3.0f);
    o[3] = APPROX("lg2", x + 9.0f);
    o[4] = APPROX("rsqrt", m * (float)(1 + (b >> 16 & 255)));
    float th; asm("tanh.approx.f32 %0, %1;" : "=f"(th) : "f"(x)); o[5] = th;
    o[6] = APPROX("rcp", x);
    o[7] = APPROX("rcp", m * 0.01f);
}

extern "C" __global__ void approx_trig_sqrt(const unsigned *in, float *out) {
    unsigned t = threadIdx.x;
    unsigned a = in[2 * t], b = in[2 * t + 1];
    float m = __uint_as_float((a & 0x007fffffu) | 0x3f800000u);
    float x = (m - 1.5f) * (float)(1 + (b & 15));
    float *o = out + 4 * t;
    o[0] = APPROX("sin", x);
    o[1] = APPROX("cos", x);
    o[2] = APPROX("sqrt", m * 7.0f);
    o[3] = APPROX("sin", m * 0.5f) + APPROX("cos", m * 0.25f);
}
