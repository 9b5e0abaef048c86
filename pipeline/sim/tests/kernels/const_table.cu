// __constant__ tables: read at fixed offsets (folded into FFMA as c[0x3][...]), indexed by a
// thread-dependent value (LDC c[0x3][R+off]), an initialized table and a 64-bit entry.
// PTX: nvcc -ptx -arch=sm_80 const_table.cu -o const_table.ptx
__constant__ float coef[16] = {0.5f, -1.25f, 2.0f, 0.75f, 3.5f, -0.125f, 1.0f, 9.0f,
                               -2.5f, 0.25f, 6.0f, -7.0f, 0.0625f, 4.0f, -0.5f, 1.5f};
__constant__ int lut[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__constant__ unsigned long long wide[4] = {0x0123456789abcdefull, 42ull, 0xffffffff00000001ull, 7ull};

extern "C" __global__ void const_table(const float *in, unsigned *out) {
    unsigned t = threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 4; k++) acc += coef[k] * in[t + k];
    acc += coef[t & 15];
    unsigned *o = out + 3 * t;
    o[0] = __float_as_uint(acc);
    o[1] = (unsigned)lut[t & 7] + (unsigned)lut[(t >> 3) & 7] * 10u;
    o[2] = (unsigned)(wide[t & 3] >> (t & 7)) ^ (unsigned)(wide[(t + 1) & 3] >> 32);
}
