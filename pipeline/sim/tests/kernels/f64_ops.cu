// f64 add/mul/fma/div/sqrt (.rn), abs/neg/min/max on NaN payloads, and the directed roundings.
// PTX: nvcc -ptx -arch=sm_80 f64_ops.cu -o f64_ops.ptx
extern "C" __global__ void f64_ops(const double *in, double *out) {
    unsigned t = threadIdx.x;
    double a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
    if (t & 1) { a = a * 0x1p-900; } // bring some exponents into range so results are finite
    if (t & 2) b = __longlong_as_double((__double_as_longlong(b) & 0x800fffffffffffffll) | 0x3ff0000000000000ll);
    double *o = out + 8 * t;
    o[0] = a + b;
    o[1] = a * b;
    o[2] = fma(a, b, c);
    o[3] = a / b;
    o[4] = sqrt(fabs(c));
    double r;
    asm("abs.f64 %0, %1;" : "=d"(r) : "d"(a)); o[5] = r;
    asm("neg.f64 %0, %1;" : "=d"(r) : "d"(b)); o[6] = r;
    double s, u;
    asm("add.rz.f64 %0, %1, %2;" : "=d"(s) : "d"(a), "d"(c));
    asm("mul.rm.f64 %0, %1, %2;" : "=d"(u) : "d"(b), "d"(c));
    o[7] = __longlong_as_double(__double_as_longlong(s) ^ __double_as_longlong(u) ^ __double_as_longlong(fmin(a, c)) ^ __double_as_longlong(fmax(b, c)));
}
