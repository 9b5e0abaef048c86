// f64 add/sub/mul/fma, neg/abs, min/max (NaN operands), ordered and unordered compares, selects.
extern "C" __global__ void f64_arith(const double* a, const double* b, double* out, int* flags) {
  int i = threadIdx.x;
  double x = a[i], y = b[i];
  out[4 * i + 0] = __dsub_rn(__dadd_rn(x, y), __dmul_rn(x, y));  // .rn: not contracted into an fma
  out[4 * i + 1] = fma(x, y, -fabs(x));
  out[4 * i + 2] = fmin(x, y) - fmax(-x, y);
  out[4 * i + 3] = (x < y) ? x : (x != y ? y : 0.0);
  int* f = flags + 4 * i;
  f[0] = x >= y;
  f[1] = isnan(x);
  f[2] = !(x <= y);
  f[3] = x == 2.5;
}
