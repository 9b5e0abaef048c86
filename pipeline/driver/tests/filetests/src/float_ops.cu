extern "C" __global__ void float_ops(const float* a, const float* b, float* out) {
  int i = threadIdx.x;
  float x = a[i], y = b[i];
  out[3 * i + 0] = fminf(x, y) - fabsf(y);
  out[3 * i + 1] = fmaxf(-x, y);
  out[3 * i + 2] = fmaf(x, y, 1.5f) * x;
}
